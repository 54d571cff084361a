/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include "mcp-http-transport.h"
#include "mcp-http-transport-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpHttpTransport: an exchange's HTTP request (its headers: session,
 * version, the stateless revision's mirrored headers) and what its status
 * says — success, an expired session, an auth challenge, an error body. */

/* The JSON-RPC error a stateless server put in an error status's body, as
 * the answer to @ex's request; NULL when the body is not one. An error
 * without an id (the spec allows one when the request could not be read)
 * is taken when its code is one of the revision's own. */
static McpMessage *
stateless_error_answer (Exchange *ex,
                        GBytes   *body)
{
  g_autoptr(GPtrArray) messages = NULL;
  McpMessage *message;
  JsonNode *id;
  gsize size;
  const char *data = g_bytes_get_data (body, &size);
  int code;

  if (size == 0 || size > MCP_HTTP_ERROR_BODY_MAX || !mcp_http_is_json (ex->msg))
    return NULL;

  messages = mcp_message_parse (data, (gssize) size, NULL);
  if (messages == NULL || messages->len != 1)
    return NULL;

  message = g_ptr_array_index (messages, 0);
  if (mcp_message_get_kind (message) != MCP_MESSAGE_ERROR)
    return NULL;

  id = mcp_message_get_id (message);
  code = mcp_message_get_error_code (message);
  if (id != NULL && !JSON_NODE_HOLDS_NULL (id))
    {
      if (!json_node_equal (id, ex->id))
        return NULL;
      return g_object_ref (message);
    }

  if (code != MCP_JSONRPC_ERROR_HEADER_MISMATCH &&
      code != MCP_JSONRPC_ERROR_MISSING_CLIENT_CAPABILITY &&
      code != MCP_JSONRPC_ERROR_UNSUPPORTED_PROTOCOL_VERSION)
    return NULL;

  return mcp_message_new_error (ex->id, code, mcp_message_get_error_message (message),
                                mcp_message_get_error_data (message));
}

static void
error_body_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GBytes) body = NULL;

  body = mcp_http_read_body_finish (result, NULL);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  if (body != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      mcp_http_exchange_trace_body (ex, data, size);
    }

  if (ex->kind == EXCHANGE_RESUME)
    {
      g_autoptr(GError) error = mcp_http_status_error (url_of (self), ex->msg, body);

      g_prefix_error (&error, _("Could not resume the stream of a request: "));
      mcp_http_exchange_fail (ex, g_steal_pointer (&error));
      return;
    }

  /* A server of the stateless revision answers an unsupported version, a
   * header mismatch, a missing capability or an unknown method with a 4xx
   * whose body is the JSON-RPC error: that is the answer to the request.
   * Anything else (a handshake-era server's 400 without our id, say) stays
   * an HTTP error, which tells the owner the server is of the old era. */
  if (ex->stateless && body != NULL && ex->id != NULL)
    {
      g_autoptr(McpMessage) answer = stateless_error_answer (ex, body);

      if (answer != NULL)
        {
          ex->got_response = TRUE;
          mcp_http_exchange_finish (ex);
          mcp_transport_emit_message (MCP_TRANSPORT (self), answer);
          return;
        }
    }

  mcp_http_exchange_fail (ex, mcp_http_status_error (url_of (self), ex->msg, body));
}

static void
challenge_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GError) error = NULL;
  gboolean retry;

  retry = mcp_auth_provider_handle_challenge_finish (MCP_AUTH_PROVIDER (object), result, &error);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  if (retry)
    {
      mcp_http_exchange_start (ex);
      return;
    }

  /* The provider's own verdict names the server and says what to do. */
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH))
    {
      mcp_http_exchange_fail (ex, g_steal_pointer (&error));
      return;
    }

  if (error != NULL)
    {
      g_autoptr(GError) needs_auth = mcp_http_needs_auth_error (url_of (self), ex->msg);

      mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, "%s: %s",
                                               needs_auth->message, error->message));
      return;
    }

  mcp_http_exchange_fail (ex, mcp_http_needs_auth_error (url_of (self), ex->msg));
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  if (stream == NULL)
    {
      g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

      mcp_http_exchange_trace_failed (ex, network);
      if (ex->kind == EXCHANGE_STREAM)
        {
          g_debug ("The stream from “%s” could not open: %s", url_of (self), network->message);
          if (!mcp_http_transport_note_network_error (self, network))
            mcp_http_exchange_schedule_retry (ex);
          return;
        }

      mcp_http_exchange_fail (ex, g_error_copy (network));
      mcp_http_transport_note_network_error (self, network);
      return;
    }

  status = soup_message_get_status (ex->msg);
  headers = soup_message_get_response_headers (ex->msg);
  mcp_http_note_answer (ex->msg, mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      mcp_transport_note_success (MCP_TRANSPORT (self));

      if (ex->is_initialize)
        {
          const char *session_id = soup_message_headers_get_one (headers, SESSION_HEADER);

          /* Only visible ASCII may go back into a header. */
          if (session_id != NULL)
            {
              gboolean valid = session_id[0] != '\0';

              for (const char *p = session_id; *p != '\0'; p++)
                valid &= (*p >= 0x21 && *p <= 0x7e);
              if (valid)
                {
                  mcp_http_transport_set_string (self, PROP_SESSION_ID, session_id);
                  if (mcp_transport_get_trace (MCP_TRANSPORT (self)) != NULL)
                    mcp_trace_record_event (mcp_transport_get_trace (MCP_TRANSPORT (self)), "session",
                                            _("The server started a session"), NULL, session_id);
                }
              else
                g_debug ("“%s” sent an invalid session id; ignored", url_of (self));
            }
        }

      if (mcp_http_is_event_stream (ex->msg))
        {
          mcp_http_exchange_restart_timer (ex);
          mcp_http_exchange_read_stream (ex, stream);
          return;
        }

      if (ex->kind != EXCHANGE_POST)
        {
          g_debug ("“%s” answered the GET stream with %u and no event stream", url_of (self), status);
          if (ex->kind == EXCHANGE_RESUME)
            {
              g_autofree char *id = mcp_http_describe_id (ex->id);

              mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                       /* Translators: %s is the server's URL, then a request id. */
                                                       _("“%s” did not resume the stream of request %s"),
                                                       url_of (self), id));
            }
          else
            mcp_http_exchange_finish (ex);
          return;
        }

      if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT ||
          ex->id == NULL || mcp_http_is_json (ex->msg))
        {
          /* Also a JSON body for a notification is read (and emitted). */
          mcp_http_read_body_async (stream, MCP_HTTP_MAX_BODY, FALSE, ex->cancellable,
                                    mcp_http_exchange_json_body_cb, mcp_http_exchange_ref (ex));
          return;
        }

      {
        g_autofree char *id = mcp_http_describe_id (ex->id);
        const char *type = soup_message_headers_get_content_type (headers, NULL);

        mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                 /* Translators: %s is the server's URL, then a request id, then a
                                                  * content type such as “text/html” (or “no content type”). */
                                                 _("“%s” answered request %s with “%s”, neither JSON nor an event stream"),
                                                 url_of (self), id, type != NULL ? type : _("no content type")));
        return;
      }
    }

  if (ex->kind == EXCHANGE_STREAM)
    {
      if (status == SOUP_STATUS_METHOD_NOT_ALLOWED)
        g_debug ("“%s” offers no stream for server messages (HTTP 405)", url_of (self));
      else
        g_debug ("“%s” answered the GET stream with HTTP %u; going on without it",
                 url_of (self), status);
      mcp_http_exchange_finish (ex);
      return;
    }

  /* A resume of a POST's stream carries the session too. */
  if (status == SOUP_STATUS_NOT_FOUND && ex->sent_session &&
      (ex->kind == EXCHANGE_POST || ex->kind == EXCHANGE_RESUME))
    {
      mcp_http_transport_set_string (self, PROP_SESSION_ID, NULL);
      mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_SESSION_EXPIRED,
                                               /* Translators: %s is the server's URL. */
                                               _("The session with “%s” expired; start a new one"),
                                               url_of (self)));
      return;
    }

  if (mcp_http_is_auth_challenge (ex->msg))
    {
      const char *challenge = soup_message_headers_get_one (headers, "WWW-Authenticate");
      McpAuthProvider *provider = mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self));

      mcp_http_transport_set_string (self, PROP_WWW_AUTHENTICATE, challenge);

      if (provider != NULL && ex->auth_rounds < MCP_AUTH_MAX_ROUNDS)
        {
          ex->auth_rounds++;
          mcp_auth_provider_handle_challenge_async (provider, status, challenge,
                                                    ex->cancellable, challenge_cb,
                                                    mcp_http_exchange_ref (ex));
          return;
        }

      mcp_http_exchange_fail (ex, mcp_http_needs_auth_error (url_of (self), ex->msg));
      return;
    }

  if (ex->kind == EXCHANGE_POST && !ex->sent_session)
    self->refusal_status = status;
  mcp_http_read_body_async (stream, MCP_HTTP_ERROR_BODY_MAX + 1, TRUE, ex->cancellable,
                            error_body_cb, mcp_http_exchange_ref (ex));
}

void
mcp_http_exchange_start (Exchange *ex)
{
  McpHttpTransport *self = ex->self;
  SoupMessageHeaders *headers;

  g_clear_object (&ex->msg);
  ex->msg = soup_message_new (ex->kind == EXCHANGE_POST ? SOUP_METHOD_POST : SOUP_METHOD_GET,
                              url_of (self));
  g_assert (ex->msg != NULL);
  headers = soup_message_get_request_headers (ex->msg);

  /* libsoup opens a new connection for every request it may not resend
   * (libsoup#356): a TCP handshake per MCP message. It resends only a
   * request written to a kept-alive connection the server had already
   * closed, which therefore never reached it. */
  soup_message_add_flags (ex->msg, SOUP_MESSAGE_IDEMPOTENT);

  mcp_http_apply_headers (ex->msg,
                          mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));

  if (ex->kind == EXCHANGE_POST)
    {
      soup_message_set_request_body_from_bytes (ex->msg, "application/json", ex->body);
      soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
    }
  else
    {
      const char *last_event_id = ex->parser ? mcp_sse_parser_get_last_event_id (ex->parser) : NULL;

      soup_message_headers_replace (headers, "Accept", "text/event-stream");
      if (last_event_id != NULL && strpbrk (last_event_id, "\r\n") == NULL)
        soup_message_headers_replace (headers, "Last-Event-ID", last_event_id);
    }

  if (ex->stateless)
    {
      /* No session in this revision; the version, method and name are
       * mirrored from the body for the intermediaries that route on them. */
      ex->sent_session = FALSE;
      soup_message_headers_replace (headers, VERSION_HEADER, ex->version);
      soup_message_headers_replace (headers, METHOD_HEADER, ex->method);
      if (ex->name != NULL)
        {
          g_autofree char *value = mcp_http_header_value_encode (ex->name);

          soup_message_headers_replace (headers, NAME_HEADER, value);
        }
      if (ex->headers != NULL)
        {
          GHashTableIter iter;
          gpointer name, raw;

          g_hash_table_iter_init (&iter, ex->headers);
          while (g_hash_table_iter_next (&iter, &name, &raw))
            {
              g_autofree char *value = mcp_http_header_value_encode (raw);

              soup_message_headers_replace (headers, name, value);
            }
        }
    }
  else
    {
      ex->sent_session = self->session_id != NULL;
      if (self->session_id != NULL)
        soup_message_headers_replace (headers, SESSION_HEADER, self->session_id);
      if (self->protocol_version != NULL)
        soup_message_headers_replace (headers, VERSION_HEADER, self->protocol_version);
    }

  mcp_http_exchange_trace_start (ex);
  soup_session_send_async (self->session, ex->msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           sent_cb, mcp_http_exchange_ref (ex));
}
