/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-tool-history.h"

G_BEGIN_DECLS

/* Between mcp-tool-history.c (the object, the session's calls) and
 * mcp-tool-history-saved.c (the saved argument sets). */

struct _McpToolHistory
{
  GObject     parent_instance;

  char       *path;
  GListStore *calls;     /* McpHistoryEntry, newest first */
  GHashTable *per_tool;  /* qualified name → GListStore */
};

/* A deep copy of @object, in a new node. */
JsonNode *mcp_tool_history_copy_object (JsonObject *object);

G_END_DECLS
