/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-history-entry.h"

G_BEGIN_DECLS

#define MCP_TYPE_TOOL_HISTORY (mcp_tool_history_get_type ())
G_DECLARE_FINAL_TYPE (McpToolHistory, mcp_tool_history, MCP, TOOL_HISTORY, GObject)

/**
 * McpToolHistory:
 *
 * The calls of this session (in memory, newest first) and the argument
 * sets the person saved per tool, kept in @path (default
 * $XDG_DATA_HOME/plugboard/saved-arguments.json):
 *   { "version": 1, "tools": { "<qualified name>": [ { "name": "…",
 *     "arguments": {…}, "saved": "<ISO 8601>" } ] } }
 * written atomically, unknown keys kept, never overwritten when it could
 * not be parsed (saving then fails with a message naming the file).
 */
McpToolHistory  *mcp_tool_history_new            (const char      *path);
/* A new running entry, added first (transfer none: the history holds it). */
McpHistoryEntry *mcp_tool_history_start          (McpToolHistory  *self,
                                                  const char      *qualified_name,
                                                  JsonObject      *arguments);
/* GListModel of McpHistoryEntry, newest first: every call, or one tool's. */
GListModel      *mcp_tool_history_get_calls      (McpToolHistory  *self);
GListModel      *mcp_tool_history_get_calls_for  (McpToolHistory  *self,
                                                  const char      *qualified_name);

/* Saved argument sets (synchronous: one small local file). */
gboolean         mcp_tool_history_save_arguments (McpToolHistory  *self,
                                                  const char      *qualified_name,
                                                  const char      *set_name,
                                                  JsonObject      *arguments,
                                                  GError         **error);
/* Names of the saved sets of a tool, in saving order. */
char           **mcp_tool_history_dup_saved_names (McpToolHistory *self,
                                                   const char     *qualified_name);
JsonObject      *mcp_tool_history_load_arguments (McpToolHistory  *self,
                                                  const char      *qualified_name,
                                                  const char      *set_name,
                                                  GError         **error);
gboolean         mcp_tool_history_delete_arguments (McpToolHistory *self,
                                                    const char     *qualified_name,
                                                    const char     *set_name,
                                                    GError        **error);

G_END_DECLS
