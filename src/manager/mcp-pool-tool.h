/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-server-connection.h"
#include "mcp-tool.h"

G_BEGIN_DECLS

#define MCP_TYPE_POOL_TOOL (mcp_pool_tool_get_type ())

G_DECLARE_FINAL_TYPE (McpPoolTool, mcp_pool_tool, MCP, POOL_TOOL, GObject)

/**
 * McpPoolTool:
 *
 * One entry of McpToolPool: a tool of a server with its pool name.
 *
 * Properties (read-only): connection (the McpServerConnection), server-name,
 * tool (McpTool), qualified-name (notified when a collision elsewhere
 * changes it), display-name, description (cut), read-only, destructive,
 * open-world, idempotent.
 *
 * Behaviour from the annotations, with the specification's defaults:
 * read-only (readOnlyHint, default false: safe to run concurrently when
 * true); destructive (destructiveHint, default true, and always false for
 * a read-only tool); open-world (openWorldHint, default true); idempotent
 * (idempotentHint, default false, and always true for a read-only tool).
 */
McpServerConnection *mcp_pool_tool_get_connection       (McpPoolTool *self);
const char          *mcp_pool_tool_get_server_name      (McpPoolTool *self);
McpTool             *mcp_pool_tool_get_tool             (McpPoolTool *self);
/* mcp__<server>__<tool>, sanitized, with a _2, _3 … suffix on collision */
const char          *mcp_pool_tool_get_qualified_name   (McpPoolTool *self);
/* title, else annotations.title, else the tool's name */
const char          *mcp_pool_tool_get_display_name     (McpPoolTool *self);
/* At most MCP_TOOL_POOL_MAX_DESCRIPTION characters, then
 * "… [cut: N more characters]"; NULL when the tool has none. */
const char          *mcp_pool_tool_get_description      (McpPoolTool *self);
/* The description as the server sent it. */
const char          *mcp_pool_tool_get_full_description (McpPoolTool *self);
gboolean             mcp_pool_tool_get_description_cut  (McpPoolTool *self);
gboolean             mcp_pool_tool_get_read_only        (McpPoolTool *self);
gboolean             mcp_pool_tool_get_destructive      (McpPoolTool *self);
gboolean             mcp_pool_tool_get_open_world       (McpPoolTool *self);
gboolean             mcp_pool_tool_get_idempotent       (McpPoolTool *self);

G_END_DECLS
