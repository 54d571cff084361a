/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include "mcp-sse-transport.h"
#include "mcp-sse-transport-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpSseTransport: the GET event stream — opening it (with its auth
 * challenges), the endpoint event that says where to POST, the messages,
 * and its end, which ends the connection. */

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

  mcp_sse_transport_take_endpoint (self, g_uri_to_string (resolved));
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

  if (mcp_transport_get_trace (MCP_TRANSPORT (self)) != NULL)
    {
      McpTrace *trace = mcp_transport_get_trace (MCP_TRANSPORT (self));
      McpTraceEntry *entry = mcp_trace_lookup_http (trace, self->stream_msg);

      mcp_trace_record_sse_event (trace, entry != NULL ? mcp_trace_entry_get_seq (entry) : 0,
                                  event_type, last_event_id, mcp_sse_parser_get_retry (self->parser),
                                  data, strlen (data));
    }

  if (g_str_equal (event_type, "endpoint"))
    {
      if (self->endpoint != NULL)
        {
          g_debug ("“%s” sent a second endpoint; ignored", url_of (self));
          return;
        }
      if (!resolve_endpoint (self, data, &error))
        {
          mcp_sse_transport_fail_connection (self, error);
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
      mcp_sse_transport_shutdown_all (self);
      mcp_sse_transport_fail_connect (self, reason);
      return;
    }
  mcp_sse_transport_fail_connection (self, reason);
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
        mcp_sse_transport_open_stream (self);
      return;
    }

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  {
    g_autoptr(GError) needs_auth = mcp_http_needs_auth_error (url_of (self), self->stream_msg);

    mcp_sse_transport_fail_connection (self, needs_auth);
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
  mcp_sse_transport_fail_connection (self, error);
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
      mcp_sse_transport_fail_connection (self, network);
      return;
    }

  status = soup_message_get_status (self->stream_msg);
  mcp_http_note_answer (self->stream_msg, mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
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
          mcp_sse_transport_fail_connection (self, error);
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
      mcp_sse_transport_fail_connection (self, error);
      return;
    }

  mcp_transport_note_success (MCP_TRANSPORT (self));
  mcp_http_read_events_async (stream, self->parser, event_cb, self, self->cancellable,
                              events_done_cb, g_object_ref (self));
}

void
mcp_sse_transport_open_stream (McpSseTransport *self)
{
  g_clear_object (&self->stream_msg);
  self->stream_msg = soup_message_new (SOUP_METHOD_GET, url_of (self));
  mcp_http_apply_headers (self->stream_msg, mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  soup_message_headers_replace (soup_message_get_request_headers (self->stream_msg),
                                "Accept", "text/event-stream");
  if (mcp_transport_get_trace (MCP_TRANSPORT (self)) != NULL)
    mcp_trace_record_http (mcp_transport_get_trace (MCP_TRANSPORT (self)), self->stream_msg, NULL, 0, NULL);
  soup_session_send_async (self->session, self->stream_msg, G_PRIORITY_DEFAULT,
                           self->cancellable, stream_sent_cb, g_object_ref (self));
}
