/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* What the transport reports: each message by its kind (responses,
 * notifications, requests from the server), a request whose response
 * stream failed, and the connection closed. Notifications become the
 * client's signals. */

/* A request whose response stream broke goes out at most this often. */
#define MAX_SENDS 3

static void
handle_notification (McpClient  *self,
                     McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params_object (message);

  if (self->era == MCP_PROTOCOL_ERA_MODERN && mcp_client_listen_filter_notification (self, method, params))
    return;

  /* Before handling it, so that a log shows the notification ahead of
   * whatever it causes. */
  mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_SERVER_NOTIFICATION, method, params);

  if (g_str_equal (method, "notifications/progress"))
    mcp_client_handle_progress (self, params);
  else if (g_str_equal (method, "notifications/cancelled"))
    mcp_client_handle_cancelled (self, params);
  else if (g_str_equal (method, "notifications/tools/list_changed"))
    mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_TOOLS_LIST_CHANGED);
  else if (g_str_equal (method, "notifications/resources/list_changed"))
    mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_RESOURCES_LIST_CHANGED);
  else if (g_str_equal (method, "notifications/prompts/list_changed"))
    mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_PROMPTS_LIST_CHANGED);
  else if (g_str_equal (method, "notifications/message") && params != NULL)
    mcp_client_handle_log_message (self, params);
  else
    mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_NOTIFICATION, message);
}

static void
on_transport_message_cb (McpClient    *self,
                         McpMessage   *message,
                         McpTransport *transport)
{
  self->last_contact = g_get_real_time ();

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
      mcp_client_handle_response (self, message);
      break;

    case MCP_MESSAGE_NOTIFICATION:
      handle_notification (self, message);
      break;

    case MCP_MESSAGE_REQUEST:
      mcp_client_handle_request (self, message);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
on_transport_request_failed_cb (McpClient    *self,
                                JsonNode     *id,
                                const GError *error,
                                McpTransport *transport)
{
  McpClientPending *pending;

  if (!JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_INT64)
    return;

  pending = mcp_client_steal_pending (self, json_node_get_int (id));
  if (pending == NULL)
    return;

  /* The stateless revision has no Last-Event-ID: a response stream that
   * broke before the answer is the request to send again, with a new id. */
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_STREAM_BROKEN) &&
      self->era == MCP_PROTOCOL_ERA_MODERN && pending->sends < MAX_SENDS)
    {
      g_debug ("Sending “%s” again (attempt %u): %s", pending->method, pending->sends + 1, error->message);
      mcp_client_resend_pending (self, pending, NULL, pending->sends + 1, pending->rounds);
      return;
    }

  g_task_return_error (pending->task, g_error_copy (error));
  mcp_client_pending_free (pending);
}

static void
on_transport_closed_cb (McpClient    *self,
                        const GError *reason,
                        McpTransport *transport)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *server = mcp_client_describe_server (self);

  g_object_ref (self);

  /* The transport's reason names the server already ("Server “x” exited
   * with status 3"). */
  if (reason != NULL)
    error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED, reason->message);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                         _("Connection to %s was closed"), server);

  g_clear_error (&self->closed_error);
  self->closed_error = g_error_copy (error);

  /* Before the transport's own connect finished, its callback reports the
   * failure (a command that cannot start, say) better than we can. */
  if (self->connect_task != NULL && self->transport_connected)
    mcp_client_connect_finish_with_error (self, g_error_copy (error), FALSE);
  g_clear_handle_id (&self->listen_retry_id, g_source_remove);
  mcp_client_listen_return (self, error);
  mcp_client_fail_pending (self, error);
  mcp_client_cancel_incoming (self);
  mcp_client_set_state (self, MCP_CLIENT_STATE_CLOSED);
  mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_CLOSED, reason);

  g_object_unref (self);
}

void
mcp_client_watch_transport (McpClient *self)
{
  g_signal_connect_object (self->transport, "message",
                           G_CALLBACK (on_transport_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transport, "closed",
                           G_CALLBACK (on_transport_closed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transport, "request-failed",
                           G_CALLBACK (on_transport_request_failed_cb), self, G_CONNECT_SWAPPED);
}
