/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-content.h"

G_BEGIN_DECLS

#define MCP_TYPE_TOOL_RESULT (mcp_tool_result_get_type ())

G_DECLARE_FINAL_TYPE (McpToolResult, mcp_tool_result, MCP, TOOL_RESULT, GObject)

/* The result of tools/call. A missing "content" reads as empty. */
McpToolResult  *mcp_tool_result_new_from_json         (JsonObject     *object,
                                                        GError        **error);

/* An array of McpContent, in order. */
GPtrArray      *mcp_tool_result_get_content           (McpToolResult  *self);
/* NULL when absent */
JsonNode       *mcp_tool_result_get_structured_content (McpToolResult  *self);
gboolean        mcp_tool_result_get_is_error          (McpToolResult  *self);
JsonObject     *mcp_tool_result_get_meta              (McpToolResult  *self);
JsonObject     *mcp_tool_result_get_json              (McpToolResult  *self);

G_END_DECLS
