/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-websocket-transport.h"

G_BEGIN_DECLS

/* Shared by the parts of McpWebsocketTransport: mcp-websocket-transport.c
 * (the object, connect, send, close) and
 * mcp-websocket-transport-connection.c (the handshake and the open
 * connection's events). */

struct _McpWebsocketTransport
{
  McpRemoteTransport       parent_instance;

  /* Owned references */
  SoupSession             *session;
  SoupMessage             *handshake;          /* while connecting */
  SoupWebsocketConnection *connection;
  GCancellable            *cancellable;        /* cancelled by close and dispose */
  GTask                   *connect_task;
  GPtrArray               *close_tasks;
  GError                  *last_error;         /* the connection's last "error" */

  gulong                   user_cancel_id;
  GCancellable            *user_cancellable;
  guint                    close_timeout_id;
  gushort                  close_code;
  guint                    challenge_status;   /* the 401 or 403 being handled */

  guint                    owner_closed : 1;
  guint                    challenged : 1;
};

static inline const char *
url_of (McpWebsocketTransport *self)
{
  return mcp_remote_transport_get_url (MCP_REMOTE_TRANSPORT (self));
}

/* mcp-websocket-transport.c */
void mcp_websocket_transport_clear_connection            (McpWebsocketTransport *self);
void mcp_websocket_transport_disconnect_user_cancellable (McpWebsocketTransport *self);
void mcp_websocket_transport_complete_close_tasks        (McpWebsocketTransport *self);
void mcp_websocket_transport_set_close_code              (McpWebsocketTransport *self,
                                                          gushort                code);

/* mcp-websocket-transport-connection.c */
void mcp_websocket_transport_start_handshake             (McpWebsocketTransport *self);

G_END_DECLS
