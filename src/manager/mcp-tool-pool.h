/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-pool-tool.h"
#include "mcp-server-connection.h"
#include "mcp-tool.h"

G_BEGIN_DECLS

/* Descriptions longer than this many characters are cut in the pool. */
#define MCP_TOOL_POOL_MAX_DESCRIPTION 2048

#define MCP_TYPE_TOOL_POOL (mcp_tool_pool_get_type ())

G_DECLARE_FINAL_TYPE (McpToolPool, mcp_tool_pool, MCP, TOOL_POOL, GObject)

/**
 * McpToolPool:
 *
 * A GListModel of McpPoolTool: every tool of every server of @connections
 * (an McpServerManager, or any GListModel of objects with a "name" string
 * property and a "tools" GListModel-of-McpTool property), in server order,
 * then in each server's tool order. It follows the connections' model and
 * each "tools" model, and reports changes with items-changed over exactly
 * the range that changed.
 *
 * Names: "mcp__" server "__" tool, each character outside [A-Za-z0-9_-]
 * replaced by "_". When two tools end with the same name, the first (by
 * server order, then tool order) keeps it and the next ones get "_2",
 * "_3" …; each such collision is reported in the collisions property
 * (GStrv of messages, notified on change).
 */
McpToolPool         *mcp_tool_pool_new                  (GListModel  *connections);
McpPoolTool         *mcp_tool_pool_lookup               (McpToolPool *self,
                                                         const char  *qualified_name);
const char * const  *mcp_tool_pool_get_collisions       (McpToolPool *self);

/* "mcp__" @server "__" @tool, sanitized (no collision suffix). */
/* The permission rule that names every tool of @server: "mcp__SERVER",
 * written as qualified names are. */
char                *mcp_tool_pool_make_server_rule     (const char  *server);
char                *mcp_tool_pool_make_name            (const char  *server,
                                                         const char  *tool);

G_END_DECLS
