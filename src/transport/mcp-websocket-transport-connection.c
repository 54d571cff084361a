/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-websocket-transport"

#include "config.h"

#include "mcp-websocket-transport.h"
#include "mcp-websocket-transport-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"

/* McpWebsocketTransport: the opening handshake (subprotocol "mcp", auth
 * challenges) and the open connection — its frames, its errors and why
 * it closed. */

#define MCP_SUBPROTOCOL "mcp"
/* libsoup's default (128 KiB) is far below what tools/list can answer. */
#define MAX_INCOMING_PAYLOAD (64 * 1024 * 1024)

static const char *
close_code_name (gushort code)
{
  switch (code)
    {
    /* Translators: the meanings of WebSocket close codes (RFC 6455),
     * shown after the code in parentheses. */
    case SOUP_WEBSOCKET_CLOSE_NORMAL:          return _("normal closure");
    case SOUP_WEBSOCKET_CLOSE_GOING_AWAY:      return _("going away");
    case SOUP_WEBSOCKET_CLOSE_PROTOCOL_ERROR:  return _("protocol error");
    case SOUP_WEBSOCKET_CLOSE_UNSUPPORTED_DATA: return _("unsupported data");
    case SOUP_WEBSOCKET_CLOSE_BAD_DATA:        return _("invalid data");
    case SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION: return _("policy violation");
    case SOUP_WEBSOCKET_CLOSE_TOO_BIG:         return _("message too big");
    case SOUP_WEBSOCKET_CLOSE_NO_EXTENSION:    return _("extension required");
    case SOUP_WEBSOCKET_CLOSE_SERVER_ERROR:    return _("internal error");
    default:                                   return _("no reason given");
    }
}


static GError *
peer_close_reason (McpWebsocketTransport *self,
                   gushort                code,
                   const char            *data)
{
  /* What libsoup saw go wrong (bad frame, I/O error) says more than the
   * close code that followed it. */
  if (self->last_error != NULL)
    return g_error_new (MCP_ERROR,
                        mcp_transport_error_is_terminal (self->last_error)
                          ? MCP_ERROR_NETWORK : MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's URL, then what went wrong. */
                        _("The WebSocket connection to “%s” failed: %s"),
                        url_of (self), self->last_error->message);

  if (code != 0 &&
      code != SOUP_WEBSOCKET_CLOSE_NO_STATUS &&
      code != SOUP_WEBSOCKET_CLOSE_ABNORMAL)
    {
      g_autofree char *text = NULL;

      if (data != NULL && data[0] != '\0')
        text = g_utf8_make_valid (data, -1);
      else
        text = g_strdup_printf ("(%s)", close_code_name (code));

      return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                          /* Translators: %s is the server's URL, %u the WebSocket close code,
                           * the last %s the server's reason (as it sent it) or the code's
                           * meaning in parentheses. */
                          _("The server at “%s” closed the WebSocket: %u %s"),
                          url_of (self), code, text);
    }

  if (code == SOUP_WEBSOCKET_CLOSE_NO_STATUS)
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        _("The server at “%s” closed the WebSocket without a close code"),
                        url_of (self));

  return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                      _("The WebSocket connection to “%s” ended without a close frame"),
                      url_of (self));
}

static void
on_connection_closed_cb (SoupWebsocketConnection *connection,
                         McpWebsocketTransport   *self)
{
  g_autoptr(McpWebsocketTransport) hold = g_object_ref (self);
  gushort code = soup_websocket_connection_get_close_code (connection);

  mcp_websocket_transport_set_close_code (self, code);

  if (self->owner_closed)
    {
      g_debug ("WebSocket to “%s” closed (%u)", url_of (self), code);
      mcp_transport_emit_closed (MCP_TRANSPORT (self), NULL);
    }
  else
    {
      g_autoptr(GError) reason = peer_close_reason (self, code,
                                                    soup_websocket_connection_get_close_data (connection));

      g_debug ("%s", reason->message);
      mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
    }

  mcp_websocket_transport_clear_connection (self);
  mcp_websocket_transport_complete_close_tasks (self);
}

static void
on_connection_error_cb (SoupWebsocketConnection *connection,
                        const GError            *error,
                        McpWebsocketTransport   *self)
{
  g_autoptr(McpWebsocketTransport) hold = g_object_ref (self);

  g_debug ("WebSocket to “%s”: %s", url_of (self), error->message);
  g_clear_error (&self->last_error);
  self->last_error = g_error_copy (error);
  if (mcp_transport_note_network_error (MCP_TRANSPORT (self), error))
    return;

  /* libsoup ends the connection after every error, but may wait seconds
   * for a broken peer's close frame first: the owner hears it now. */
  if (!self->owner_closed)
    {
      g_autoptr(GError) reason = peer_close_reason (self, 0, NULL);

      mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
    }
}

static void
on_connection_message_cb (SoupWebsocketConnection *connection,
                          int                      type,
                          GBytes                  *bytes,
                          McpWebsocketTransport   *self)
{
  g_autoptr(McpWebsocketTransport) hold = g_object_ref (self);
  g_autoptr(GError) error = NULL;
  gsize length = g_bytes_get_size (bytes);

  if (mcp_transport_is_closed (MCP_TRANSPORT (self)))
    return;

  mcp_transport_note_success (MCP_TRANSPORT (self));

  if (type != SOUP_WEBSOCKET_DATA_TEXT)
    {
      /* Translators: shown in the server's log in place of the frame's
       * content; %lu is its size. */
      g_autofree char *line = g_strdup_printf (ngettext ("(a binary frame of %lu byte)",
                                                         "(a binary frame of %lu bytes)",
                                                         (unsigned long) length),
                                               (unsigned long) length);

      error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           /* Translators: %s is the server's URL, %lu a size. */
                           ngettext ("The server at “%s” sent a binary WebSocket frame of %lu byte; "
                                     "MCP messages are text frames",
                                     "The server at “%s” sent a binary WebSocket frame of %lu bytes; "
                                     "MCP messages are text frames",
                                     (unsigned long) length),
                           url_of (self), (unsigned long) length);
      g_debug ("%s", error->message);
      mcp_transport_emit_invalid_line (MCP_TRANSPORT (self), line, error);
      return;
    }

  /* In order; a frame of MCP_TRANSPORT_THREADED_PARSE_SIZE or more is
   * parsed in a worker thread. */
  mcp_transport_receive_bytes (MCP_TRANSPORT (self), bytes);
}

static void
fail_connect (McpWebsocketTransport *self,
              GError                *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

  g_clear_object (&self->handshake);
  mcp_websocket_transport_disconnect_user_cancellable (self);
  if (task != NULL)
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

static void
on_challenge_handled_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  McpWebsocketTransport *self = user_data;
  g_autoptr(GError) error = NULL;
  guint status = self->challenge_status;
  gboolean retry;

  retry = mcp_auth_provider_handle_challenge_finish (MCP_AUTH_PROVIDER (object), result, &error);

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      fail_connect (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                       _("Connecting to “%s” was cancelled"), url_of (self)));
      g_object_unref (self);
      return;
    }

  if (retry)
    {
      mcp_websocket_transport_start_handshake (self);
      g_object_unref (self);
      return;
    }

  if (error != NULL)
    {
      fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                       /* Translators: %s is the server's URL, %u an HTTP status (401 or
                                        * 403), the last %s why sign-in failed. */
                                       _("The server at “%s” refused the WebSocket upgrade "
                                         "with HTTP %u; sign-in failed: %s"),
                                       url_of (self), status, error->message));
    }
  else
    {
      fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                       /* Translators: %s is the server's URL, %u an HTTP status (401 or 403). */
                                       _("The server at “%s” refused the WebSocket upgrade "
                                         "with HTTP %u; sign-in failed"),
                                       url_of (self), status));
    }
  g_object_unref (self);
}

static void
on_websocket_connected_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(McpWebsocketTransport) self = user_data;
  g_autoptr(SoupWebsocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;
  SoupMessage *msg = self->handshake;
  guint status = msg != NULL ? soup_message_get_status (msg) : 0;
  const char *protocol;

  connection = soup_session_websocket_connect_finish (SOUP_SESSION (object), result, &error);
  mcp_http_note_answer (msg, mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));

  if (connection == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_cancellable_is_cancelled (self->cancellable))
        {
          fail_connect (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                           _("Connecting to “%s” was cancelled"), url_of (self)));
          return;
        }

      if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
        {
          const char *challenge = soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                                "WWW-Authenticate");
          McpAuthProvider *provider = mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self));

          if (provider != NULL && !self->challenged)
            {
              self->challenged = TRUE;
              self->challenge_status = status;
              mcp_auth_provider_handle_challenge_async (provider, status, challenge,
                                                        self->cancellable,
                                                        on_challenge_handled_cb,
                                                        g_object_ref (self));
              return;
            }

          fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                           /* Translators: %s is the server's URL, %u an HTTP status, the
                                            * last %s its reason phrase (in English). */
                                           _("The server at “%s” refused the WebSocket upgrade "
                                             "with HTTP %u %s; it needs a valid token"),
                                           url_of (self), status, soup_status_get_phrase (status)));
          return;
        }

      if (status >= 200 && status != SOUP_STATUS_SWITCHING_PROTOCOLS)
        {
          fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_HTTP,
                                           /* Translators: %s is the server's URL, %u an HTTP status, the
                                            * last %s its reason phrase (in English). */
                                           _("The server at “%s” refused the WebSocket upgrade "
                                             "with HTTP %u %s"),
                                           url_of (self), status, soup_status_get_phrase (status)));
          return;
        }

      mcp_transport_note_network_error (MCP_TRANSPORT (self), error);
      fail_connect (self, g_error_new (MCP_ERROR,
                                       mcp_transport_error_is_terminal (error)
                                         ? MCP_ERROR_NETWORK : MCP_ERROR_FAILED,
                                       /* Translators: %s is the server's URL, then the error. */
                                       _("Could not open a WebSocket to “%s”: %s"),
                                       url_of (self), error->message));
      return;
    }

  protocol = soup_websocket_connection_get_protocol (connection);
  if (g_strcmp0 (protocol, MCP_SUBPROTOCOL) != 0)
    {
      soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_PROTOCOL_ERROR, NULL);
      if (protocol != NULL)
        {
          fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                           /* Translators: %s is the server's URL, then a WebSocket
                                            * subprotocol name (“mcp”), then the one the server chose. */
                                           _("The server at “%s” did not accept the WebSocket "
                                             "subprotocol “%s” (it chose “%s”)"),
                                           url_of (self), MCP_SUBPROTOCOL, protocol));
        }
      else
        {
          fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                           /* Translators: %s is the server's URL, then a WebSocket
                                            * subprotocol name (“mcp”). */
                                           _("The server at “%s” did not accept the WebSocket "
                                             "subprotocol “%s”"),
                                           url_of (self), MCP_SUBPROTOCOL));
        }
      return;
    }

  if (mcp_transport_is_closed (MCP_TRANSPORT (self)) || self->connect_task == NULL)
    {
      soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      fail_connect (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                       _("Connecting to “%s” was cancelled"), url_of (self)));
      return;
    }

  self->connection = g_steal_pointer (&connection);
  soup_websocket_connection_set_keepalive_interval (self->connection,
                                                    MCP_WEBSOCKET_TRANSPORT_KEEPALIVE_SECONDS);
  soup_websocket_connection_set_max_incoming_payload_size (self->connection, MAX_INCOMING_PAYLOAD);
  g_signal_connect (self->connection, "message", G_CALLBACK (on_connection_message_cb), self);
  g_signal_connect (self->connection, "error", G_CALLBACK (on_connection_error_cb), self);
  g_signal_connect (self->connection, "closed", G_CALLBACK (on_connection_closed_cb), self);

  g_clear_object (&self->handshake);
  mcp_websocket_transport_disconnect_user_cancellable (self);
  mcp_transport_note_success (MCP_TRANSPORT (self));
  mcp_transport_set_connected (MCP_TRANSPORT (self));

  g_debug ("WebSocket to “%s” open", url_of (self));
  task = g_steal_pointer (&self->connect_task);
  g_task_return_boolean (task, TRUE);
}

void
mcp_websocket_transport_start_handshake (McpWebsocketTransport *self)
{
  static const char *protocols[] = { MCP_SUBPROTOCOL, NULL };

  g_clear_object (&self->handshake);
  self->handshake = soup_message_new (SOUP_METHOD_GET, url_of (self));
  if (self->handshake == NULL)
    {
      fail_connect (self, g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                       _("“%s” is not a valid WebSocket URL"), url_of (self)));
      return;
    }

  mcp_http_apply_headers (self->handshake,
                          mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));

  if (mcp_transport_get_trace (MCP_TRANSPORT (self)) != NULL)
    mcp_trace_record_http (mcp_transport_get_trace (MCP_TRANSPORT (self)), self->handshake, NULL, 0, NULL);
  soup_session_websocket_connect_async (self->session, self->handshake, NULL,
                                        (char **) protocols, G_PRIORITY_DEFAULT,
                                        self->cancellable,
                                        on_websocket_connected_cb,
                                        g_object_ref (self));
}
