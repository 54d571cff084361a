/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-app-bridge.h"
#include "mcp-app-note.h"
#include "mcp-project.h"

G_BEGIN_DECLS

/* Page requests answered later (tools/call …) at most at once. */
#define MCP_APP_BRIDGE_MAX_IN_FLIGHT    16
/* A string from the page longer than this is refused. */
#define MCP_APP_BRIDGE_MAX_MESSAGE      (4 * 1024 * 1024)
/* What ui/download-file offers at most, all files together. */
#define MCP_APP_BRIDGE_MAX_DOWNLOAD     (64 * 1024 * 1024)
/* How long ui/resource-teardown waits for the page's answer. */
#define MCP_APP_BRIDGE_TEARDOWN_TIMEOUT_MS 3000

McpProject   *mcp_app_bridge_get_project       (McpAppBridge  *self);
GCancellable *mcp_app_bridge_get_cancellable   (McpAppBridge  *self);

void          mcp_app_bridge_reply             (McpAppBridge  *self,
                                                JsonNode      *id,
                                                JsonNode      *result);
void          mcp_app_bridge_reply_error       (McpAppBridge  *self,
                                                JsonNode      *id,
                                                int            code,
                                                const char    *message);
void          mcp_app_bridge_add_note          (McpAppBridge  *self,
                                                McpAppNoteKind kind,
                                                const char    *title,
                                                const char    *text,
                                                JsonObject    *params);
/* @object's member @name when it is a string, else NULL (@object nullable). */
const char   *mcp_app_bridge_string_member     (JsonObject    *object,
                                                const char    *name);
/* A request answered later is done (its answer posted or dropped). */
void          mcp_app_bridge_end_request       (McpAppBridge  *self);

/* For tests: how long teardown waits for the page. */
void          mcp_app_bridge_set_teardown_timeout (McpAppBridge *self,
                                                   guint         timeout_ms);

/* mcp-app-bridge-requests.c: the page's requests that go to the server or
 * the person. Each ends with mcp_app_bridge_end_request(). */
void          mcp_app_bridge_call_tool         (McpAppBridge  *self,
                                                JsonNode      *id,
                                                JsonObject    *params);
void          mcp_app_bridge_read_resource     (McpAppBridge  *self,
                                                JsonNode      *id,
                                                JsonObject    *params);
void          mcp_app_bridge_open_link         (McpAppBridge  *self,
                                                JsonNode      *id,
                                                JsonObject    *params);
void          mcp_app_bridge_download_file     (McpAppBridge  *self,
                                                JsonNode      *id,
                                                JsonObject    *params);

/* A bare file name from the last segment of @uri: no "/", "\\", "..",
 * control characters or leading dot, at most 200 bytes; "download" when
 * nothing is left. */
char         *mcp_app_bridge_dup_file_name     (const char    *uri);

G_END_DECLS
