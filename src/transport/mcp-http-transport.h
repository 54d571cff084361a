/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-auth-provider.h"
#include "mcp-remote-transport.h"

G_BEGIN_DECLS

#define MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS 60000

#define MCP_TYPE_HTTP_TRANSPORT (mcp_http_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpHttpTransport, mcp_http_transport, MCP, HTTP_TRANSPORT, McpRemoteTransport)

/**
 * McpHttpTransport:
 *
 * The Streamable HTTP transport of the 2025-11-25 revision: every message
 * is POSTed to one endpoint; answers come as a JSON body, as an SSE body or
 * on the GET stream; the session is kept with Mcp-Session-Id and ended with
 * DELETE. Requests that fail for HTTP reasons reach the owner through
 * McpTransport::request-failed (MCP_ERROR_SESSION_EXPIRED for a 404 on a
 * request with a session, MCP_ERROR_NEEDS_AUTH for a 401 no provider could
 * answer, MCP_ERROR_HTTP otherwise, network errors as they are).
 *
 * Properties: url (construct-only), headers (GStrv of "Name: value",
 * construct-only), auth-provider (McpAuthProvider, construct-only,
 * nullable), request-timeout (ms; default 60000, the manager sets
 * MCP_REQUEST_TIMEOUT_MS' value; 0 for none), session-id (read-only), protocol-version (read-only,
 * what the initialize result said), www-authenticate (read-only: the last
 * challenge a 401/403 carried).
 */
McpTransport   *mcp_http_transport_new                   (const char          *url,
                                                          const char * const  *headers,
                                                          McpAuthProvider     *auth_provider);

const char     *mcp_http_transport_get_url               (McpHttpTransport    *self);
const char     *mcp_http_transport_get_session_id        (McpHttpTransport    *self);
const char     *mcp_http_transport_get_protocol_version  (McpHttpTransport    *self);
const char     *mcp_http_transport_get_www_authenticate  (McpHttpTransport    *self);
/* The HTTP status with which the server last refused a POST made without a
 * session (initialize, or the era probe before it), auth challenges aside;
 * 0 when it refused none. A 400, 404 or 405 there is the specification's
 * sign of a server of the legacy HTTP+SSE transport. */
guint           mcp_http_transport_get_refusal_status    (McpHttpTransport    *self);
guint           mcp_http_transport_get_request_timeout   (McpHttpTransport    *self);
void            mcp_http_transport_set_request_timeout   (McpHttpTransport    *self,
                                                          guint                timeout_ms);

G_END_DECLS
