/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-auth-provider.h"
#include "mcp-remote-transport.h"

G_BEGIN_DECLS

#define MCP_TYPE_SSE_TRANSPORT (mcp_sse_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpSseTransport, mcp_sse_transport, MCP, SSE_TRANSPORT, McpRemoteTransport)

/**
 * McpSseTransport:
 *
 * The legacy HTTP+SSE transport (2024-11-05): GET the SSE URL, wait for the
 * "endpoint" event, resolve it against the SSE URL (an endpoint on another
 * origin is refused), POST each message there and read every answer from
 * the stream. connect_async finishes when the endpoint is known.
 *
 * Properties: url, headers (GStrv "Name: value"), auth-provider (nullable),
 * request-timeout (ms), endpoint (read-only, the resolved POST URL).
 */
McpTransport   *mcp_sse_transport_new                   (const char          *url,
                                                         const char * const  *headers,
                                                         McpAuthProvider     *auth_provider);

const char     *mcp_sse_transport_get_url               (McpSseTransport     *self);
/* NULL until the endpoint event arrived. */
const char     *mcp_sse_transport_get_endpoint          (McpSseTransport     *self);

G_END_DECLS
