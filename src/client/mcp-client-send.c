/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Sending: messages to the transport, the params a request goes out with
 * (its progress token; in the stateless revision the protocol fields in
 * _meta), a new request into the pending table, a request sent again, and
 * the client's notifications. */

JsonObject *
mcp_client_copy_object_shallow (JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (object == NULL)
    return copy;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &node))
    json_object_set_member (copy, name, json_node_copy (node));

  return copy;
}

JsonNode *
mcp_client_node_new_object_take (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

gboolean
mcp_client_send (McpClient   *self,
                 McpMessage  *message,
                 GError     **error)
{
  if (self->closed_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->closed_error));
      return FALSE;
    }

  if (self->transport == NULL || mcp_transport_is_closed (self->transport))
    {
      g_autofree char *server = mcp_client_describe_server (self);

      g_set_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                   _("Not connected to %s"), server);
      return FALSE;
    }

  return mcp_transport_send (self->transport, message, error);
}

void
mcp_client_send_cancelled_notification (McpClient  *self,
                                        gint64      id,
                                        const char *reason)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(GError) error = NULL;

  json_object_set_int_member (params, "requestId", id);
  if (reason != NULL)
    json_object_set_string_member (params, "reason", reason);

  if (!mcp_client_notify (self, "notifications/cancelled", params, &error))
    g_debug ("Could not send notifications/cancelled for request %" G_GINT64_FORMAT ": %s",
             id, error->message);
}

gboolean
mcp_client_is_stateless (McpClient *self)
{
  return self->era == MCP_PROTOCOL_ERA_MODERN || self->probing;
}

/* The params a request goes out with: the caller's @params, the progress
 * token when asked for, and in the stateless revision the per-request
 * protocol fields in _meta (version, capabilities, who we are, log level),
 * which every such request must carry. NULL: no params at all. */
static JsonNode *
build_params_node (McpClient  *self,
                   JsonObject *params,
                   gboolean    with_progress,
                   gint64      id)
{
  gboolean stateless = mcp_client_is_stateless (self);
  JsonObject *copy;
  JsonObject *meta;
  JsonNode *old_meta;

  if (!with_progress && !stateless)
    {
      JsonNode *node;

      if (params == NULL)
        return NULL;
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (node, params);
      return node;
    }

  copy = mcp_client_copy_object_shallow (params);
  old_meta = params ? json_object_get_member (params, "_meta") : NULL;
  if (old_meta != NULL && JSON_NODE_HOLDS_OBJECT (old_meta))
    meta = mcp_client_copy_object_shallow (json_node_get_object (old_meta));
  else
    meta = json_object_new ();

  if (with_progress)
    json_object_set_int_member (meta, "progressToken", id);

  if (stateless)
    {
      json_object_set_string_member (meta, MCP_META_PROTOCOL_VERSION,
                                     self->protocol_version != NULL && self->era == MCP_PROTOCOL_ERA_MODERN
                                     ? self->protocol_version : MCP_PROTOCOL_VERSION_MODERN);
      json_object_set_object_member (meta, MCP_META_CLIENT_CAPABILITIES,
                                     self->capabilities != NULL
                                     ? mcp_client_copy_object_shallow (self->capabilities)
                                     : json_object_new ());
      json_object_set_object_member (meta, MCP_META_CLIENT_INFO, mcp_client_build_client_info (self));
      if (self->log_level != NULL)
        json_object_set_string_member (meta, MCP_META_LOG_LEVEL, self->log_level);
    }

  json_object_set_object_member (copy, "_meta", meta);
  return mcp_client_node_new_object_take (copy);
}

/* Returns the request now pending, or NULL when @task was answered (an
 * error, cancelled). */
static McpClientPending *
send_request_full (McpClient               *self,
                   const char              *method,
                   JsonObject              *params,
                   const McpRequestOptions *options,
                   McpClientResultFunc      result_func,
                   GTask                   *task,
                   guint                    sends,
                   guint                    rounds)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonNode) id_node = NULL;
  g_autoptr(JsonNode) params_node = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);
  McpClientPending *pending;
  gint64 id;

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return NULL;
    }

  id = self->next_id++;
  id_node = mcp_message_id_new_int (id);
  params_node = build_params_node (self, params,
                                   options != NULL && options->progress_func != NULL, id);
  message = mcp_message_new_request (id_node, method, params_node);
  if (self->era == MCP_PROTOCOL_ERA_MODERN && params != NULL &&
      g_str_equal (method, "tools/call") && mcp_transport_mirrors_param_headers (self->transport))
    mcp_client_add_param_headers (self, params, message);

  if (!mcp_client_send (self, message, &error))
    {
      /* A server that died a moment ago: its transport is still winding
       * down. Wait for the closed signal, which says why, instead of
       * reporting a bare "closing". */
      if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED) ||
          self->closed_error != NULL ||
          mcp_transport_is_closed (self->transport))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return NULL;
        }
      g_clear_error (&error);
    }

  pending = g_new0 (McpClientPending, 1);
  pending->client = self;
  pending->id = id;
  pending->method = g_strdup (method);
  pending->task = g_object_ref (task);
  pending->result_func = result_func;
  pending->timeout_ms = self->request_timeout_ms;
  pending->params = params != NULL ? json_object_ref (params) : NULL;
  pending->sends = sends;
  pending->rounds = rounds;

  if (options != NULL)
    {
      pending->options = *options;
      if (options->timeout_ms == MCP_REQUEST_TIMEOUT_NONE)
        pending->timeout_ms = 0;
      else if (options->timeout_ms != 0)
        pending->timeout_ms = options->timeout_ms;
      pending->max_total_ms = options->max_total_timeout_ms;
      if (options->max_total_timeout_ms != 0)
        pending->deadline_us = g_get_monotonic_time () + (gint64) options->max_total_timeout_ms * 1000;
      pending->progress_func = options->progress_func;
      pending->progress_data = options->progress_data;
    }

  mcp_client_add_pending (self, pending, cancellable);

  return pending;
}

/* Sends a request without looking at the client's state: connect uses it
 * for initialize before the client is ready. */
void
mcp_client_send_request (McpClient               *self,
                         const char              *method,
                         JsonObject              *params,
                         const McpRequestOptions *options,
                         McpClientResultFunc      result_func,
                         GTask                   *task)
{
  send_request_full (self, method, params, options, result_func, task, 1, 0);
}

/* Sends @pending's request again, with a new id (the stateless revision
 * wants one per attempt), for the same task; @params replace its own when
 * given. @pending is freed; the new one is returned, NULL when the task
 * was answered instead. */
McpClientPending *
mcp_client_resend_pending (McpClient        *self,
                           McpClientPending *pending,
                           JsonObject       *params,
                           guint             sends,
                           guint             rounds)
{
  g_autoptr(GTask) task = g_object_ref (pending->task);
  g_autofree char *method = g_strdup (pending->method);
  g_autoptr(JsonObject) old_params = pending->params ? json_object_ref (pending->params) : NULL;
  McpRequestOptions options = pending->options;
  McpClientResultFunc result_func = pending->result_func;
  McpTrace *trace = mcp_transport_get_trace (self->transport);

  /* An input round (2026-07-28): the trace shows the attempts as one
   * exchange. The new request takes the next id. */
  if (trace != NULL && rounds > pending->rounds)
    mcp_trace_note_round (trace, pending->id, self->next_id, rounds + 1);
  mcp_client_pending_free (pending);
  return send_request_full (self, method, params != NULL ? params : old_params, &options,
                            result_func, task, sends, rounds);
}

gboolean
mcp_client_notify (McpClient   *self,
                   const char  *method,
                   JsonObject  *params,
                   GError     **error)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonNode) params_node = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (method != NULL, FALSE);

  /* The stateless revision defines one notification from the client,
   * cancellation (which the HTTP transport turns into closing the request's
   * stream); roots/list_changed and initialized are gone with the session. */
  if (self->era == MCP_PROTOCOL_ERA_MODERN && !g_str_equal (method, "notifications/cancelled"))
    {
      g_debug ("Not sending “%s”: the stateless revision has no such notification", method);
      return TRUE;
    }

  if (params != NULL)
    {
      params_node = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (params_node, params);
    }

  message = mcp_message_new_notification (method, params_node);
  return mcp_client_send (self, message, error);
}
