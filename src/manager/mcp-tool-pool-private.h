/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-tool-pool.h"

G_BEGIN_DECLS

/* Between mcp-tool-pool.c (the object, the list model, the names) and
 * mcp-tool-pool-servers.c (following the servers and their tools). */

/* One server of the pool: its connection, its "tools" model and the
 * pool's entries made of them. */
typedef struct
{
  McpToolPool *pool;        /* borrowed: the pool owns this */
  GObject     *connection;
  char        *name;
  GListModel  *tools;
  gulong       items_changed_id;
  gulong       notify_tools_id;
  GPtrArray   *items;       /* McpPoolTool */
} Server;

struct _McpToolPool
{
  GObject      parent_instance;

  GListModel  *connections;
  gulong       connections_changed_id;
  GPtrArray   *servers;     /* Server */
  GHashTable  *by_name;     /* qualified name → McpPoolTool (borrowed) */
  GStrv        collisions;
};

/* Gives every entry its name again (see mcp-tool-pool.c). */
void mcp_tool_pool_rename      (McpToolPool *self);
/* Follows @connections from now on, its current servers included. */
void mcp_tool_pool_follow      (McpToolPool *self,
                                GListModel  *connections);
/* GDestroyNotify of a Server. */
void mcp_tool_pool_server_free (gpointer     data);

G_END_DECLS
