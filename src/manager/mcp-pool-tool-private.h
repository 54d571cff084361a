/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-pool-tool.h"

G_BEGIN_DECLS

/* Between McpPoolTool and McpToolPool only: the pool makes its entries
 * and names them. */

McpPoolTool *mcp_pool_tool_new                (GObject     *connection,
                                               const char  *server_name,
                                               McpTool     *tool);
/* mcp__<server>__<tool>, sanitized: the qualified name before any
 * collision suffix. */
const char  *mcp_pool_tool_get_base_name      (McpPoolTool *self);
/* Notifies "qualified-name" when it changes. */
void         mcp_pool_tool_set_qualified_name (McpPoolTool *self,
                                               const char  *name);

G_END_DECLS
