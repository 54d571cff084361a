/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include "mcp-sse-transport.h"
#include "mcp-sse-transport-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpSseTransport, the legacy HTTP+SSE transport: the object, sending a
 * message (a POST; its answer comes on the stream, or a timeout),
 * connecting and closing. The parts are named in
 * mcp-sse-transport-private.h. */

G_DEFINE_FINAL_TYPE (McpSseTransport, mcp_sse_transport, MCP_TYPE_REMOTE_TRANSPORT)

enum {
  PROP_0,
  PROP_ENDPOINT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
pending_free (Pending *pending)
{
  g_clear_handle_id (&pending->timeout_id, g_source_remove);
  g_clear_pointer (&pending->id, json_node_unref);
  g_free (pending);
}

void
mcp_sse_transport_post_free (Post *post)
{
  g_clear_object (&post->msg);
  g_clear_pointer (&post->body, g_bytes_unref);
  g_clear_pointer (&post->id, json_node_unref);
  g_clear_object (&post->cancellable);
  g_free (post);
}

static void
post_detach (Post *post)
{
  g_cancellable_cancel (post->cancellable);
  post->self = NULL;
}

void
mcp_sse_transport_shutdown_all (McpSseTransport *self)
{
  g_cancellable_cancel (self->cancellable);
  for (guint i = 0; i < self->posts->len; i++)
    post_detach (g_ptr_array_index (self->posts, i));
  g_ptr_array_set_size (self->posts, 0);
  g_hash_table_remove_all (self->pending);
}

void
mcp_sse_transport_fail_connect (McpSseTransport *self,
                                const GError    *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

  if (task != NULL)
    g_task_return_error (task, g_error_copy (error));
}

void
mcp_sse_transport_fail_connection (McpSseTransport *self,
                                   const GError    *reason)
{
  g_object_ref (self);
  g_debug ("%s", reason->message);
  mcp_sse_transport_shutdown_all (self);
  mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
  mcp_sse_transport_fail_connect (self, reason);
  g_object_unref (self);
}

void
mcp_sse_transport_fail_request (McpSseTransport *self,
                                JsonNode        *id,
                                const GError    *error)
{
  g_autoptr(JsonNode) owned = NULL;

  g_debug ("%s", error->message);
  if (id == NULL)
    return;

  owned = json_node_ref (id);
  /* A request that failed gets no timeout later. */
  g_hash_table_remove (self->pending, owned);
  mcp_transport_emit_request_failed (MCP_TRANSPORT (self), owned, error);
}

static gboolean
timeout_cb (gpointer user_data)
{
  Pending *pending = user_data;
  McpSseTransport *self = pending->self;
  g_autoptr(JsonNode) id = json_node_ref (pending->id);
  g_autofree char *what = mcp_http_describe_id (id);
  g_autoptr(GError) error = NULL;

  pending->timeout_id = 0;
  error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                       /* Translators: %s is the server's URL, then a request id (a number or
                        * a quoted text), %u a time in milliseconds. */
                       _("“%s” did not answer request %s within %u ms"),
                       url_of (self), what,
                       mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self)));
  mcp_sse_transport_fail_request (self, id, error);

  return G_SOURCE_REMOVE;
}


/* Connected first, so it runs before the owner's handlers. */
static void
message_cb (McpSseTransport *self,
            McpMessage      *message,
            gpointer         user_data)
{
  McpMessageKind kind = mcp_message_get_kind (message);

  if ((kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR) &&
      mcp_message_get_id (message) != NULL)
    g_hash_table_remove (self->pending, mcp_message_get_id (message));
}


void
mcp_sse_transport_take_endpoint (McpSseTransport *self,
                                 char            *endpoint)
{
  g_free (self->endpoint);
  self->endpoint = endpoint;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENDPOINT]);
}

static gboolean
mcp_sse_transport_send (McpTransport  *transport,
                        McpMessage    *message,
                        GError       **error)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  g_autofree char *text = NULL;
  gsize length;
  Post *post;

  if (self->closing || self->endpoint == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                   _("The connection to “%s” is closing"), url_of (self));
      return FALSE;
    }

  text = mcp_message_to_string (message, &length);
  mcp_transport_trace_sent (transport, message, text, length);
  post = g_new0 (Post, 1);
  post->self = self;
  post->body = g_bytes_new_take (g_steal_pointer (&text), length);
  post->cancellable = g_cancellable_new ();

  if (mcp_message_get_kind (message) == MCP_MESSAGE_REQUEST)
    {
      Pending *pending = g_new0 (Pending, 1);
      guint timeout_ms = mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self));

      post->id = json_node_copy (mcp_message_get_id (message));
      pending->self = self;
      pending->id = json_node_copy (post->id);
      if (timeout_ms > 0)
        pending->timeout_id = g_timeout_add (timeout_ms, timeout_cb, pending);
      g_hash_table_replace (self->pending, pending->id, pending);
    }

  g_ptr_array_add (self->posts, post);
  mcp_sse_transport_start_post (post);

  return TRUE;
}

static void
mcp_sse_transport_connect_async (McpTransport        *transport,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_sse_transport_connect_async);

  if (self->started)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The transport for “%s” was already started"), url_of (self));
      return;
    }
  self->started = TRUE;

  uri = g_uri_parse (url_of (self), SOUP_HTTP_URI_FLAGS, &error);
  if (uri == NULL ||
      (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") != 0 &&
       g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_autoptr(GError) bad = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                           _("“%s” is not a valid http or https URL"), url_of (self));

      mcp_transport_emit_closed (transport, bad);
      g_task_return_error (task, g_steal_pointer (&bad));
      return;
    }

  if (!mcp_remote_transport_check_headers (MCP_REMOTE_TRANSPORT (self), &error))
    {
      mcp_transport_emit_closed (transport, error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->session = mcp_http_session_new (url_of (self));
  self->connect_task = g_steal_pointer (&task);
  mcp_sse_transport_open_stream (self);
}

static void
mcp_sse_transport_close_async (McpTransport        *transport,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_sse_transport_close_async);

  self->closing = TRUE;
  mcp_sse_transport_shutdown_all (self);
  if (self->connect_task != NULL)
    {
      g_autoptr(GError) error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                             _("The connection to “%s” was closed"), url_of (self));

      mcp_sse_transport_fail_connect (self, error);
    }
  mcp_transport_emit_closed (transport, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
mcp_sse_transport_dispose (GObject *object)
{
  McpSseTransport *self = (McpSseTransport *)object;

  mcp_sse_transport_shutdown_all (self);
  g_clear_object (&self->connect_task);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_sse_transport_parent_class)->dispose (object);
}

static void
mcp_sse_transport_finalize (GObject *object)
{
  McpSseTransport *self = (McpSseTransport *)object;

  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->posts, g_ptr_array_unref);
  g_clear_object (&self->stream_msg);
  g_clear_object (&self->parser);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mcp_sse_transport_parent_class)->finalize (object);
}

static void
mcp_sse_transport_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_value_set_string (value, self->endpoint);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_sse_transport_class_init (McpSseTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_sse_transport_dispose;
  object_class->finalize = mcp_sse_transport_finalize;
  object_class->get_property = mcp_sse_transport_get_property;

  transport_class->connect_async = mcp_sse_transport_connect_async;
  transport_class->send = mcp_sse_transport_send;
  transport_class->close_async = mcp_sse_transport_close_async;

  properties[PROP_ENDPOINT] =
    g_param_spec_string ("endpoint", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_sse_transport_init (McpSseTransport *self)
{
  self->cancellable = g_cancellable_new ();
  self->parser = mcp_sse_parser_new (MCP_SSE_PARSER_DEFAULT_MAX_BUFFER);
  self->posts = g_ptr_array_new ();
  self->pending = g_hash_table_new_full (json_node_hash, json_node_equal,
                                         NULL, (GDestroyNotify) pending_free);
  g_signal_connect (self, "message", G_CALLBACK (message_cb), NULL);
}

McpTransport *
mcp_sse_transport_new (const char         *url,
                       const char * const *headers,
                       McpAuthProvider    *auth_provider)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (!auth_provider || MCP_IS_AUTH_PROVIDER (auth_provider), NULL);

  return g_object_new (MCP_TYPE_SSE_TRANSPORT,
                       "url", url,
                       "headers", headers,
                       "auth-provider", auth_provider,
                       NULL);
}

const char *
mcp_sse_transport_get_url (McpSseTransport *self)
{
  g_return_val_if_fail (MCP_IS_SSE_TRANSPORT (self), NULL);

  return url_of (self);
}

const char *
mcp_sse_transport_get_endpoint (McpSseTransport *self)
{
  g_return_val_if_fail (MCP_IS_SSE_TRANSPORT (self), NULL);

  return self->endpoint;
}
