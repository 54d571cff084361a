/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include "mcp-sse-transport.h"
#include "mcp-sse-transport-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpSseTransport: one message POSTed to the endpoint, and what its
 * status says (the answer itself comes on the stream). */

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
      mcp_sse_transport_post_free (post);
      return;
    }

  if (retry)
    {
      mcp_sse_transport_start_post (post);
      return;
    }

  g_ptr_array_remove_fast (self->posts, post);
  error = mcp_http_needs_auth_error (self->endpoint, post->msg);
  mcp_sse_transport_fail_request (self, post->id, error);
  mcp_sse_transport_post_free (post);
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
      McpTrace *trace = mcp_transport_get_trace (MCP_TRANSPORT (self));
      McpTraceEntry *entry = trace != NULL ? mcp_trace_lookup_http (trace, post->msg) : NULL;

      if (entry != NULL && body != NULL)
        mcp_trace_http_got_body (trace, entry, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
      g_ptr_array_remove_fast (self->posts, post);
      error = mcp_http_status_error (self->endpoint, post->msg, body);
      mcp_sse_transport_fail_request (self, post->id, error);
    }
  mcp_sse_transport_post_free (post);
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
      mcp_sse_transport_post_free (post);
      return;
    }

  if (stream == NULL)
    {
      g_autoptr(GError) network = mcp_http_network_error (self->endpoint, error);

      g_ptr_array_remove_fast (self->posts, post);
      mcp_sse_transport_fail_request (self, post->id, network);
      mcp_sse_transport_post_free (post);
      if (mcp_transport_note_network_error (MCP_TRANSPORT (self), network))
        mcp_sse_transport_shutdown_all (self);
      return;
    }

  status = soup_message_get_status (post->msg);
  mcp_http_note_answer (post->msg, mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      /* The answer comes on the stream; the body ("Accepted") is not read. */
      mcp_transport_note_success (MCP_TRANSPORT (self));
      g_ptr_array_remove_fast (self->posts, post);
      mcp_sse_transport_post_free (post);
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
      mcp_sse_transport_fail_request (self, post->id, error);
      mcp_sse_transport_post_free (post);
      return;
    }

  if (status == SOUP_STATUS_NOT_FOUND)
    {
      g_ptr_array_remove_fast (self->posts, post);
      error = g_error_new (MCP_ERROR, MCP_ERROR_SESSION_EXPIRED,
                           _("The session with “%s” expired; start a new one"), url_of (self));
      mcp_sse_transport_fail_request (self, post->id, error);
      mcp_sse_transport_post_free (post);
      return;
    }

  mcp_http_read_body_async (stream, MCP_HTTP_ERROR_BODY_MAX + 1, TRUE, post->cancellable,
                            post_error_body_cb, post);
}

void
mcp_sse_transport_start_post (Post *post)
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
  if (mcp_transport_get_trace (MCP_TRANSPORT (self)) != NULL)
    {
      gsize length;
      const char *body = g_bytes_get_data (post->body, &length);

      mcp_trace_record_http (mcp_transport_get_trace (MCP_TRANSPORT (self)), post->msg, body, length,
                             "application/json");
    }
  soup_session_send_async (self->session, post->msg, G_PRIORITY_DEFAULT, post->cancellable,
                           post_sent_cb, post);
}
