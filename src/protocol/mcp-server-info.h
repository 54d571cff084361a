/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_SERVER_INFO (mcp_server_info_get_type ())

G_DECLARE_FINAL_TYPE (McpServerInfo, mcp_server_info, MCP, SERVER_INFO, GObject)

/* What a server says of itself in its initialize result: serverInfo,
 * capabilities, protocolVersion and instructions. */
McpServerInfo  *mcp_server_info_new_from_json              (JsonObject     *initialize_result,
                                                             GError        **error);

const char     *mcp_server_info_get_name                   (McpServerInfo  *self);
const char     *mcp_server_info_get_title                  (McpServerInfo  *self);
const char     *mcp_server_info_get_version                (McpServerInfo  *self);
const char     *mcp_server_info_get_website_url            (McpServerInfo  *self);
JsonArray      *mcp_server_info_get_icons                  (McpServerInfo  *self);
const char     *mcp_server_info_get_instructions           (McpServerInfo  *self);
const char     *mcp_server_info_get_protocol_version       (McpServerInfo  *self);
/* The capabilities object as sent (empty object when absent). */
JsonObject     *mcp_server_info_get_capabilities           (McpServerInfo  *self);
gboolean        mcp_server_info_has_tools                  (McpServerInfo  *self);
gboolean        mcp_server_info_has_tools_list_changed     (McpServerInfo  *self);
gboolean        mcp_server_info_has_resources              (McpServerInfo  *self);
gboolean        mcp_server_info_has_resources_subscribe    (McpServerInfo  *self);
gboolean        mcp_server_info_has_resources_list_changed (McpServerInfo  *self);
gboolean        mcp_server_info_has_prompts                (McpServerInfo  *self);
gboolean        mcp_server_info_has_prompts_list_changed   (McpServerInfo  *self);
gboolean        mcp_server_info_has_logging                (McpServerInfo  *self);
gboolean        mcp_server_info_has_completions            (McpServerInfo  *self);
gboolean        mcp_server_info_has_tasks                  (McpServerInfo  *self);
JsonObject     *mcp_server_info_get_json                   (McpServerInfo  *self);

G_END_DECLS
