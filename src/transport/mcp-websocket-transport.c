/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-websocket-transport"

#include "config.h"

#include "mcp-websocket-transport.h"
#include "mcp-websocket-transport-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpWebsocketTransport: the object, connecting (see
 * mcp-websocket-transport-connection.c for the handshake), sending a
 * text frame, and closing with a close handshake. */

#define CLOSE_HANDSHAKE_TIMEOUT_MS 2000

G_DEFINE_FINAL_TYPE (McpWebsocketTransport, mcp_websocket_transport, MCP_TYPE_REMOTE_TRANSPORT)

enum {
  PROP_0,
  PROP_CLOSE_CODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
mcp_websocket_transport_clear_connection (McpWebsocketTransport *self)
{
  if (self->connection == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->connection, self);
  if (soup_websocket_connection_get_state (self->connection) != SOUP_WEBSOCKET_STATE_CLOSED)
    g_io_stream_close (soup_websocket_connection_get_io_stream (self->connection), NULL, NULL);
  g_clear_object (&self->connection);
}

void
mcp_websocket_transport_disconnect_user_cancellable (McpWebsocketTransport *self)
{
  if (self->user_cancellable != NULL)
    {
      g_cancellable_disconnect (self->user_cancellable, self->user_cancel_id);
      self->user_cancel_id = 0;
      g_clear_object (&self->user_cancellable);
    }
}

void
mcp_websocket_transport_complete_close_tasks (McpWebsocketTransport *self)
{
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&self->close_tasks);

  g_clear_handle_id (&self->close_timeout_id, g_source_remove);
  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    g_task_return_boolean (g_ptr_array_index (tasks, i), TRUE);
}

void
mcp_websocket_transport_set_close_code (McpWebsocketTransport *self,
                                        gushort                code)
{
  if (self->close_code == code)
    return;

  self->close_code = code;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOSE_CODE]);
}



static void
on_user_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  GCancellable *own = user_data;

  g_cancellable_cancel (own);
}

static void
mcp_websocket_transport_connect_async (McpTransport        *transport,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  McpWebsocketTransport *self = MCP_WEBSOCKET_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_websocket_transport_connect_async);

  if (self->connect_task != NULL || self->connection != NULL ||
      mcp_transport_is_closed (transport))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The WebSocket transport for “%s” was already used"),
                               url_of (self));
      return;
    }

  uri = g_uri_parse (url_of (self), G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL ||
      (g_strcmp0 (g_uri_get_scheme (uri), "ws") != 0 &&
       g_strcmp0 (g_uri_get_scheme (uri), "wss") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               /* Translators: keep ws://HOST[:PORT]/PATH and wss:// as they are;
                                * HOST, PORT and PATH may be translated. */
                               _("“%s” is not a WebSocket URL (ws://HOST[:PORT]/PATH or wss://…)"),
                               url_of (self));
      return;
    }

  if (!mcp_remote_transport_check_headers (MCP_REMOTE_TRANSPORT (self), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (cancellable != NULL)
    {
      self->user_cancellable = g_object_ref (cancellable);
      self->user_cancel_id = g_cancellable_connect (cancellable,
                                                    G_CALLBACK (on_user_cancelled_cb),
                                                    self->cancellable, NULL);
    }

  self->challenged = FALSE;
  self->connect_task = g_steal_pointer (&task);
  mcp_websocket_transport_start_handshake (self);
}

static gboolean
mcp_websocket_transport_send (McpTransport  *transport,
                              McpMessage    *message,
                              GError       **error)
{
  McpWebsocketTransport *self = MCP_WEBSOCKET_TRANSPORT (transport);
  g_autofree char *text = NULL;
  gsize length = 0;

  if (self->connection == NULL ||
      soup_websocket_connection_get_state (self->connection) != SOUP_WEBSOCKET_STATE_OPEN)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                   _("The WebSocket to “%s” is closing"), url_of (self));
      return FALSE;
    }

  text = mcp_message_to_string (message, &length);
  mcp_transport_trace_sent (transport, message, text, length);
  soup_websocket_connection_send_text (self->connection, text);
  return TRUE;
}

static gboolean
close_timeout_cb (gpointer user_data)
{
  McpWebsocketTransport *self = user_data;
  g_autoptr(McpWebsocketTransport) hold = g_object_ref (self);

  self->close_timeout_id = 0;
  g_debug ("No close handshake from “%s” in %d ms; dropping the connection",
           url_of (self), CLOSE_HANDSHAKE_TIMEOUT_MS);
  mcp_websocket_transport_clear_connection (self);
  mcp_transport_emit_closed (MCP_TRANSPORT (self), NULL);
  mcp_websocket_transport_complete_close_tasks (self);

  return G_SOURCE_REMOVE;
}

static void
mcp_websocket_transport_close_async (McpTransport        *transport,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  McpWebsocketTransport *self = MCP_WEBSOCKET_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_websocket_transport_close_async);

  if (self->close_tasks != NULL)
    {
      g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
      return;
    }

  if (!mcp_transport_is_closed (transport))
    self->owner_closed = TRUE;

  /* A connect in flight fails as cancelled. */
  g_cancellable_cancel (self->cancellable);

  if (self->connection == NULL ||
      soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_CLOSED)
    {
      mcp_websocket_transport_clear_connection (self);
      mcp_transport_emit_closed (transport, NULL);
      g_task_return_boolean (task, TRUE);
      return;
    }

  self->close_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
  self->close_timeout_id = g_timeout_add (CLOSE_HANDSHAKE_TIMEOUT_MS, close_timeout_cb, self);
  if (soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_OPEN)
    soup_websocket_connection_close (self->connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
}

static void
mcp_websocket_transport_dispose (GObject *object)
{
  McpWebsocketTransport *self = (McpWebsocketTransport *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->close_timeout_id, g_source_remove);
  mcp_websocket_transport_disconnect_user_cancellable (self);
  if (self->connection != NULL &&
      soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_OPEN)
    soup_websocket_connection_close (self->connection, SOUP_WEBSOCKET_CLOSE_GOING_AWAY, NULL);
  mcp_websocket_transport_clear_connection (self);
  mcp_websocket_transport_complete_close_tasks (self);
  g_clear_object (&self->handshake);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_websocket_transport_parent_class)->dispose (object);
}

static void
mcp_websocket_transport_finalize (GObject *object)
{
  McpWebsocketTransport *self = (McpWebsocketTransport *)object;

  g_clear_error (&self->last_error);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mcp_websocket_transport_parent_class)->finalize (object);
}

static void
mcp_websocket_transport_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  McpWebsocketTransport *self = MCP_WEBSOCKET_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_CLOSE_CODE:
      g_value_set_uint (value, self->close_code);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_websocket_transport_class_init (McpWebsocketTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_websocket_transport_dispose;
  object_class->finalize = mcp_websocket_transport_finalize;
  object_class->get_property = mcp_websocket_transport_get_property;

  transport_class->connect_async = mcp_websocket_transport_connect_async;
  transport_class->send = mcp_websocket_transport_send;
  transport_class->close_async = mcp_websocket_transport_close_async;

  properties[PROP_CLOSE_CODE] =
    g_param_spec_uint ("close-code", NULL, NULL,
                       0, G_MAXUINT16, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_websocket_transport_init (McpWebsocketTransport *self)
{
  self->cancellable = g_cancellable_new ();
  /* Keep-alive pings judge liveness; a session timeout would cut an idle
   * connection. */
  self->session = soup_session_new_with_options ("timeout", 0,
                                                 "user-agent", PACKAGE_NAME "/" PACKAGE_VERSION,
                                                 NULL);
}

McpTransport *
mcp_websocket_transport_new (const char         *url,
                             const char * const *headers,
                             McpAuthProvider    *auth_provider)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (auth_provider == NULL || MCP_IS_AUTH_PROVIDER (auth_provider), NULL);

  return g_object_new (MCP_TYPE_WEBSOCKET_TRANSPORT,
                       "url", url,
                       "headers", headers,
                       "auth-provider", auth_provider,
                       NULL);
}

const char *
mcp_websocket_transport_get_url (McpWebsocketTransport *self)
{
  g_return_val_if_fail (MCP_IS_WEBSOCKET_TRANSPORT (self), NULL);

  return url_of (self);
}

gushort
mcp_websocket_transport_get_close_code (McpWebsocketTransport *self)
{
  g_return_val_if_fail (MCP_IS_WEBSOCKET_TRANSPORT (self), 0);

  return self->close_code;
}
