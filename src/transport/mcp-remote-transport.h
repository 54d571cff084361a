/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-auth-provider.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

#define MCP_TYPE_REMOTE_TRANSPORT (mcp_remote_transport_get_type ())

G_DECLARE_DERIVABLE_TYPE (McpRemoteTransport, mcp_remote_transport, MCP, REMOTE_TRANSPORT, McpTransport)

/**
 * McpRemoteTransport:
 *
 * The abstract base of the transports that reach a server by URL (HTTP,
 * SSE, WebSocket). It owns what they share: url (construct-only), headers
 * (GStrv of "Name: value", construct-only), auth-provider (McpAuthProvider,
 * construct-only, nullable) and request-timeout (ms; default 60000, the
 * manager sets MCP_REQUEST_TIMEOUT_MS' value; 0 for none). Its describe() is the URL
 * without user info or query, which may hold secrets. Subclasses implement
 * connect_async, send and close_async; connect_finish and close_finish are
 * the base's, which expect a GTask returning a boolean.
 */
struct _McpRemoteTransportClass
{
  McpTransportClass parent_class;

  gpointer padding[8];
};

const char         *mcp_remote_transport_get_url             (McpRemoteTransport  *self);
const char * const *mcp_remote_transport_get_headers         (McpRemoteTransport  *self);
McpAuthProvider    *mcp_remote_transport_get_auth_provider   (McpRemoteTransport  *self);
guint               mcp_remote_transport_get_request_timeout (McpRemoteTransport  *self);
void                mcp_remote_transport_set_request_timeout (McpRemoteTransport  *self,
                                                              guint                timeout_ms);

/* For subclasses, at connect: FALSE with an error naming the entry (by its
 * position, never its value) when a header is not "Name: value". */
gboolean            mcp_remote_transport_check_headers       (McpRemoteTransport  *self,
                                                              GError             **error);

G_END_DECLS
