/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-auth-provider.h"
#include "mcp-remote-transport.h"

G_BEGIN_DECLS

#define MCP_WEBSOCKET_TRANSPORT_KEEPALIVE_SECONDS 30

#define MCP_TYPE_WEBSOCKET_TRANSPORT (mcp_websocket_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpWebsocketTransport, mcp_websocket_transport, MCP, WEBSOCKET_TRANSPORT, McpRemoteTransport)

/**
 * McpWebsocketTransport:
 *
 * JSON-RPC over a WebSocket with subprotocol "mcp": one message per text
 * frame, keep-alive pings, the peer's close code and reason in the closed
 * signal's error. Properties: url (ws:// or wss://), headers (GStrv
 * "Name: value"), auth-provider (nullable), close-code (read-only).
 */
McpTransport   *mcp_websocket_transport_new             (const char          *url,
                                                         const char * const  *headers,
                                                         McpAuthProvider     *auth_provider);

const char     *mcp_websocket_transport_get_url         (McpWebsocketTransport *self);
/* The close code the peer sent, 0 before the close. */
gushort         mcp_websocket_transport_get_close_code  (McpWebsocketTransport *self);

G_END_DECLS
