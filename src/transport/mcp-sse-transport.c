/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include "mcp-sse-transport.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"

/* A request waiting for its answer on the stream. */
typedef struct
{
  McpSseTransport *self;
  JsonNode        *id;
  guint            timeout_id;
} Pending;

/* One message POSTed. */
typedef struct
{
  McpSseTransport *self;           /* NULL once the transport stopped caring */
  SoupMessage     *msg;
  GBytes          *body;
  JsonNode        *id;
  GCancellable    *cancellable;
  guint            auth_rounds;
} Post;

struct _McpSseTransport
{
  McpRemoteTransport parent_instance;

  /* Owned references */
  SoupSession      *session;
  SoupMessage      *stream_msg;
  McpSseParser     *parser;
  GCancellable     *cancellable;   /* the stream and everything else */
  GTask            *connect_task;
  GHashTable       *pending;       /* JsonNode id → Pending */
  GPtrArray        *posts;
  char             *endpoint;

  guint             started : 1;
  guint             closing : 1;
  guint             stream_auth_rounds;
};

G_DEFINE_FINAL_TYPE (McpSseTransport, mcp_sse_transport, MCP_TYPE_REMOTE_TRANSPORT)

enum {
  PROP_0,
  PROP_ENDPOINT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static inline const char *
url_of (McpSseTransport *self)
{
  return mcp_remote_transport_get_url (MCP_REMOTE_TRANSPORT (self));
}

static void open_stream (McpSseTransport *self);
static void start_post (Post *post);

static void
pending_free (Pending *pending)
{
  g_clear_handle_id (&pending->timeout_id, g_source_remove);
  g_clear_pointer (&pending->id, json_node_unref);
  g_free (pending);
}

static void
post_free (Post *post)
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

static char *
describe_id (JsonNode *id)
{
  if (id != NULL && json_node_get_value_type (id) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (id));
  if (id != NULL && json_node_get_value_type (id) == G_TYPE_STRING)
    {
      /* Translators: a request id that is a string, in quotes. */
      return g_strdup_printf (_("“%s”"), json_node_get_string (id));
    }
  return g_strdup ("?");
}

/* Stops everything; the transport is closed or closing. */
static void
shutdown_all (McpSseTransport *self)
{
  g_cancellable_cancel (self->cancellable);
  for (guint i = 0; i < self->posts->len; i++)
    post_detach (g_ptr_array_index (self->posts, i));
  g_ptr_array_set_size (self->posts, 0);
  g_hash_table_remove_all (self->pending);
}

static void
fail_connect (McpSseTransport *self,
              const GError    *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

  if (task != NULL)
    g_task_return_error (task, g_error_copy (error));
}

/* The connection is over for @reason. */
static void
fail_connection (McpSseTransport *self,
                 const GError    *reason)
{
  g_object_ref (self);
  g_debug ("%s", reason->message);
  shutdown_all (self);
  mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
  fail_connect (self, reason);
  g_object_unref (self);
}

static void
fail_request (McpSseTransport *self,
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
  g_autofree char *what = describe_id (id);
  g_autoptr(GError) error = NULL;

  pending->timeout_id = 0;
  error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                       /* Translators: %s is the server's URL, then a request id (a number or
                        * a quoted text), %u a time in milliseconds. */
                       _("“%s” did not answer request %s within %u ms"),
                       url_of (self), what,
                       mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self)));
  fail_request (self, id, error);

  return G_SOURCE_REMOVE;
}

static gboolean
resolve_endpoint (McpSseTransport  *self,
                  const char       *data,
                  GError          **error)
{
  g_autoptr(GUri) base = NULL;
  g_autoptr(GUri) resolved = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = g_utf8_make_valid (data, -1);

  g_strstrip (text);
  base = g_uri_parse (url_of (self), SOUP_HTTP_URI_FLAGS, NULL);
  g_assert (base != NULL);

  resolved = g_uri_parse_relative (base, text, SOUP_HTTP_URI_FLAGS, &local_error);
  if (resolved == NULL || text[0] == '\0')
    {
      if (local_error != NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is the server's URL, then the text it sent as
                        * the address to post messages to, then why it is not a URL. */
                       _("“%s” sent an endpoint that is not a URL (“%.200s”): %s"),
                       url_of (self), text, local_error->message);
        }
      else
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is the server's URL, then the text it sent as
                        * the address to post messages to. */
                       _("“%s” sent an endpoint that is not a URL (“%.200s”)"),
                       url_of (self), text);
        }
      return FALSE;
    }

  if (g_ascii_strcasecmp (g_uri_get_scheme (base), g_uri_get_scheme (resolved)) != 0 ||
      g_uri_get_host (resolved) == NULL ||
      g_ascii_strcasecmp (g_uri_get_host (base), g_uri_get_host (resolved)) != 0 ||
      g_uri_get_port (base) != g_uri_get_port (resolved))
    {
      g_autofree char *shown = g_uri_to_string_partial (resolved, G_URI_HIDE_PASSWORD);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: %s is the server's URL, then the address it named
                    * for posting messages, on another host or port. */
                   _("“%s” named an endpoint on another origin (“%s”); refused"),
                   url_of (self), shown);
      return FALSE;
    }

  g_free (self->endpoint);
  self->endpoint = g_uri_to_string (resolved);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENDPOINT]);
  return TRUE;
}

static void
event_cb (const char *event_type,
          const char *data,
          const char *last_event_id,
          gpointer    user_data)
{
  McpSseTransport *self = user_data;
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (self->cancellable) || mcp_transport_is_closed (MCP_TRANSPORT (self)))
    return;

  if (g_str_equal (event_type, "endpoint"))
    {
      if (self->endpoint != NULL)
        {
          g_debug ("“%s” sent a second endpoint; ignored", url_of (self));
          return;
        }
      if (!resolve_endpoint (self, data, &error))
        {
          fail_connection (self, error);
          return;
        }

      g_debug ("“%s” takes messages at “%s”", url_of (self), self->endpoint);
      mcp_transport_set_connected (MCP_TRANSPORT (self));
      if (self->connect_task != NULL)
        {
          g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

          g_task_return_boolean (task, TRUE);
        }
      return;
    }

  if (!g_str_equal (event_type, "message") || data[0] == '\0')
    return;

  mcp_transport_note_success (MCP_TRANSPORT (self));

  /* In order; data of MCP_TRANSPORT_THREADED_PARSE_SIZE or more are parsed
   * in a worker thread (a 50 MB response took half a second here), and a
   * closed waits for them. Answers leave self->pending in message_cb(). */
  mcp_transport_receive (MCP_TRANSPORT (self), data, strlen (data));
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

static void
events_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(McpSseTransport) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) reason = NULL;

  mcp_http_read_events_finish (result, &error);

  if (g_cancellable_is_cancelled (self->cancellable) || mcp_transport_is_closed (MCP_TRANSPORT (self)))
    return;

  /* The legacy protocol has no way to resume a stream. */
  if (error == NULL)
    reason = g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
                          _("The event stream from “%s” ended; reconnect to go on"), url_of (self));
  else if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
    reason = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                          "“%s”: %s", url_of (self), error->message);
  else
    {
      g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

      reason = g_error_new (network->domain, network->code,
                            /* Translators: %s is the server's URL, then the network error. */
                            _("The event stream from “%s” broke (%s); reconnect to go on"),
                            url_of (self), error->message);
    }

  if (mcp_transport_note_network_error (MCP_TRANSPORT (self), reason))
    {
      shutdown_all (self);
      fail_connect (self, reason);
      return;
    }
  fail_connection (self, reason);
}

static void stream_sent_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data);

static void
stream_challenge_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(McpSseTransport) self = user_data;
  g_autoptr(GError) error = NULL;

  if (mcp_auth_provider_handle_challenge_finish (MCP_AUTH_PROVIDER (object), result, &error))
    {
      if (!g_cancellable_is_cancelled (self->cancellable))
        open_stream (self);
      return;
    }

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  {
    g_autoptr(GError) needs_auth = mcp_http_needs_auth_error (url_of (self), self->stream_msg);

    fail_connection (self, needs_auth);
  }
}

static void
stream_error_body_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(McpSseTransport) self = user_data;
  g_autoptr(GBytes) body = mcp_http_read_body_finish (result, NULL);
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  error = mcp_http_status_error (url_of (self), self->stream_msg, body);
  fail_connection (self, error);
}

static void
stream_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(McpSseTransport) self = user_data;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  if (stream == NULL)
    {
      g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

      mcp_transport_note_network_error (MCP_TRANSPORT (self), network);
      fail_connection (self, network);
      return;
    }

  status = soup_message_get_status (self->stream_msg);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      if (mcp_http_is_auth_challenge (self->stream_msg))
        {
          const char *challenge = soup_message_headers_get_one (soup_message_get_response_headers (self->stream_msg),
                                                                "WWW-Authenticate");
          McpAuthProvider *provider = mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self));

          if (provider != NULL && self->stream_auth_rounds < MCP_AUTH_MAX_ROUNDS)
            {
              self->stream_auth_rounds++;
              mcp_auth_provider_handle_challenge_async (provider, status, challenge,
                                                        self->cancellable, stream_challenge_cb,
                                                        g_object_ref (self));
              return;
            }

          error = mcp_http_needs_auth_error (url_of (self), self->stream_msg);
          fail_connection (self, error);
          return;
        }

      mcp_http_read_body_async (stream, MCP_HTTP_ERROR_BODY_MAX + 1, TRUE, self->cancellable,
                                stream_error_body_cb, g_object_ref (self));
      return;
    }

  if (!mcp_http_is_event_stream (self->stream_msg))
    {
      const char *type = soup_message_headers_get_content_type (soup_message_get_response_headers (self->stream_msg), NULL);

      error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           /* Translators: %s is the server's URL, then a content type such as
                            * “text/html” (or “no content type”). */
                           _("“%s” answered with “%s”, not an event stream"),
                           url_of (self), type != NULL ? type : _("no content type"));
      fail_connection (self, error);
      return;
    }

  mcp_transport_note_success (MCP_TRANSPORT (self));
  mcp_http_read_events_async (stream, self->parser, event_cb, self, self->cancellable,
                              events_done_cb, g_object_ref (self));
}

static void
open_stream (McpSseTransport *self)
{
  g_clear_object (&self->stream_msg);
  self->stream_msg = soup_message_new (SOUP_METHOD_GET, url_of (self));
  mcp_http_apply_headers (self->stream_msg, mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  soup_message_headers_replace (soup_message_get_request_headers (self->stream_msg),
                                "Accept", "text/event-stream");
  soup_session_send_async (self->session, self->stream_msg, G_PRIORITY_DEFAULT,
                           self->cancellable, stream_sent_cb, g_object_ref (self));
}

static void
post_challenge_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Post *post = user_data;
  McpSseTransport *self = post->self;
  g_autoptr(GError) error = NULL;
  gboolean retry;

  retry = mcp_auth_provider_handle_challenge_finish (MCP_AUTH_PROVIDER (object), result, &error);
  if (self == NULL)
    {
      post_free (post);
      return;
    }

  if (retry)
    {
      start_post (post);
      return;
    }

  g_ptr_array_remove_fast (self->posts, post);
  error = mcp_http_needs_auth_error (self->endpoint, post->msg);
  fail_request (self, post->id, error);
  post_free (post);
}

static void
post_error_body_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Post *post = user_data;
  McpSseTransport *self = post->self;
  g_autoptr(GBytes) body = mcp_http_read_body_finish (result, NULL);
  g_autoptr(GError) error = NULL;

  if (self != NULL)
    {
      g_ptr_array_remove_fast (self->posts, post);
      error = mcp_http_status_error (self->endpoint, post->msg, body);
      fail_request (self, post->id, error);
    }
  post_free (post);
}

static void
post_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Post *post = user_data;
  g_autoptr(McpSseTransport) self = post->self ? g_object_ref (post->self) : NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (self == NULL)
    {
      post_free (post);
      return;
    }

  if (stream == NULL)
    {
      g_autoptr(GError) network = mcp_http_network_error (self->endpoint, error);

      g_ptr_array_remove_fast (self->posts, post);
      fail_request (self, post->id, network);
      post_free (post);
      if (mcp_transport_note_network_error (MCP_TRANSPORT (self), network))
        shutdown_all (self);
      return;
    }

  status = soup_message_get_status (post->msg);
  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      /* The answer comes on the stream; the body ("Accepted") is not read. */
      mcp_transport_note_success (MCP_TRANSPORT (self));
      g_ptr_array_remove_fast (self->posts, post);
      post_free (post);
      return;
    }

  if (mcp_http_is_auth_challenge (post->msg) &&
      mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)) != NULL && post->auth_rounds < MCP_AUTH_MAX_ROUNDS)
    {
      const char *challenge = soup_message_headers_get_one (soup_message_get_response_headers (post->msg),
                                                            "WWW-Authenticate");

      post->auth_rounds++;
      mcp_auth_provider_handle_challenge_async (mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)),
                                                status, challenge,
                                                post->cancellable, post_challenge_cb, post);
      return;
    }

  if (mcp_http_is_auth_challenge (post->msg))
    {
      g_ptr_array_remove_fast (self->posts, post);
      error = mcp_http_needs_auth_error (self->endpoint, post->msg);
      fail_request (self, post->id, error);
      post_free (post);
      return;
    }

  if (status == SOUP_STATUS_NOT_FOUND)
    {
      g_ptr_array_remove_fast (self->posts, post);
      error = g_error_new (MCP_ERROR, MCP_ERROR_SESSION_EXPIRED,
                           _("The session with “%s” expired; start a new one"), url_of (self));
      fail_request (self, post->id, error);
      post_free (post);
      return;
    }

  mcp_http_read_body_async (stream, MCP_HTTP_ERROR_BODY_MAX + 1, TRUE, post->cancellable,
                            post_error_body_cb, post);
}

static void
start_post (Post *post)
{
  McpSseTransport *self = post->self;

  g_clear_object (&post->msg);
  post->msg = soup_message_new (SOUP_METHOD_POST, self->endpoint);
  /* Keep-alive for POSTs too; see mcp-http-transport.c. */
  soup_message_add_flags (post->msg, SOUP_MESSAGE_IDEMPOTENT);
  mcp_http_apply_headers (post->msg,
                          mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  soup_message_set_request_body_from_bytes (post->msg, "application/json", post->body);
  soup_session_send_async (self->session, post->msg, G_PRIORITY_DEFAULT, post->cancellable,
                           post_sent_cb, post);
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
  start_post (post);

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
  open_stream (self);
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
  shutdown_all (self);
  if (self->connect_task != NULL)
    {
      g_autoptr(GError) error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                             _("The connection to “%s” was closed"), url_of (self));

      fail_connect (self, error);
    }
  mcp_transport_emit_closed (transport, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
mcp_sse_transport_dispose (GObject *object)
{
  McpSseTransport *self = (McpSseTransport *)object;

  shutdown_all (self);
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
