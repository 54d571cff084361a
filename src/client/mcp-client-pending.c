/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Requests waiting for their answers: the pending table, the one timer that
 * serves every request's timeout, cancellation by the caller, progress
 * (which starts a timeout again), and the response that completes a
 * request. */

void
mcp_client_pending_free (McpClientPending *pending)
{
  if (pending->cancel_source != NULL)
    {
      g_source_destroy (pending->cancel_source);
      g_source_unref (pending->cancel_source);
    }
  g_clear_object (&pending->task);
  g_free (pending->method);
  g_clear_pointer (&pending->params, json_object_unref);
  g_free (pending);
}

/* Takes the request out of the table; the caller completes its task. */
McpClientPending *
mcp_client_steal_pending (McpClient *self,
                          gint64     id)
{
  McpClientPending *pending = NULL;
  gint64 *key = NULL;

  if (!g_hash_table_steal_extended (self->pending, &id, (gpointer *) &key, (gpointer *) &pending))
    return NULL;

  g_free (key);
  return pending;
}

/* Every request has its own deadline; one timer per client serves them
 * all, set to the earliest. A GSource per request would cost every main
 * loop iteration a look at each of them. */
static void
mcp_client_schedule_timer (McpClient *self,
                           gint64     expires_us)
{
  gint64 ready_time = g_source_get_ready_time (self->timer);

  if (expires_us != 0 && (ready_time < 0 || expires_us < ready_time))
    g_source_set_ready_time (self->timer, expires_us);
}

static void
pending_request_arm_timeout (McpClientPending *pending)
{
  if (pending->timeout_ms == 0)
    {
      pending->expires_us = pending->deadline_us;
    }
  else
    {
      pending->expires_us = g_get_monotonic_time () + (gint64) pending->timeout_ms * 1000;
      if (pending->deadline_us != 0)
        pending->expires_us = MIN (pending->expires_us, pending->deadline_us);
    }

  mcp_client_schedule_timer (pending->client, pending->expires_us);
}

static void
pending_request_time_out (McpClient        *self,
                          McpClientPending *pending)
{
  g_autofree char *server = mcp_client_describe_server (self);
  g_autofree char *duration = NULL;
  GError *error;

  if (pending->deadline_us != 0 && pending->expires_us >= pending->deadline_us)
    {
      duration = mcp_client_format_duration (pending->max_total_ms);
      error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                           _("%s did not finish “%s” within %s, the most a request may take "
                             "even while it reports progress"),
                           server, pending->method, duration);
    }
  else
    {
      duration = mcp_client_format_duration (pending->timeout_ms);
      error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                           _("No answer from %s to “%s” within %s"),
                           server, pending->method, duration);
    }

  /* The specification forbids cancelling initialize. */
  if (g_strcmp0 (pending->method, "initialize") != 0)
    mcp_client_send_cancelled_notification (self, pending->id, error->message);

  g_task_return_error (pending->task, error);
  mcp_client_pending_free (pending);
}

static gboolean
on_timer_dispatch (GSource     *source,
                   GSourceFunc  callback,
                   gpointer     user_data)
{
  McpClient *self = user_data;
  g_autoptr(GPtrArray) expired = g_ptr_array_new ();
  gint64 now = g_get_monotonic_time ();
  gint64 next = -1;
  GHashTableIter iter;
  McpClientPending *pending;

  g_object_ref (self);

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      if (pending->expires_us == 0)
        continue;
      if (pending->expires_us <= now)
        {
          g_ptr_array_add (expired, pending);
          g_hash_table_iter_remove (&iter);
        }
      else if (next < 0 || pending->expires_us < next)
        next = pending->expires_us;
    }

  g_source_set_ready_time (source, next);

  for (guint i = 0; i < expired->len; i++)
    pending_request_time_out (self, g_ptr_array_index (expired, i));

  g_object_unref (self);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs timer_funcs = {
  .dispatch = on_timer_dispatch,
};

static gboolean
on_request_cancelled_cb (GCancellable *cancellable,
                         gpointer      user_data)
{
  McpClientPending *pending = user_data;
  McpClient *self = pending->client;

  pending = mcp_client_steal_pending (self, pending->id);
  g_assert (pending != NULL);

  if (g_strcmp0 (pending->method, "initialize") != 0)
    mcp_client_send_cancelled_notification (self, pending->id, "Cancelled by the user");

  g_clear_pointer (&pending->cancel_source, g_source_unref);
  g_task_return_new_error (pending->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request “%s” was cancelled"), pending->method);
  mcp_client_pending_free (pending);

  return G_SOURCE_REMOVE;
}

void
mcp_client_add_pending (McpClient        *self,
                        McpClientPending *pending,
                        GCancellable     *cancellable)
{
  gint64 *key;

  key = g_new (gint64, 1);
  *key = pending->id;
  g_hash_table_insert (self->pending, key, pending);

  pending_request_arm_timeout (pending);

  if (cancellable != NULL)
    {
      pending->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_static_name (pending->cancel_source, "[mcp-client] request cancelled");
      g_source_set_callback (pending->cancel_source, G_SOURCE_FUNC (on_request_cancelled_cb),
                             pending, NULL);
      g_source_attach (pending->cancel_source, g_main_context_get_thread_default ());
    }
}

GSource *
mcp_client_timer_new (McpClient *self)
{
  GSource *timer = g_source_new (&timer_funcs, sizeof (GSource));

  g_source_set_static_name (timer, "[mcp-client] request timeouts");
  g_source_set_callback (timer, NULL, self, NULL);
  g_source_attach (timer, g_main_context_get_thread_default ());
  return timer;
}

void
mcp_client_fail_pending (McpClient    *self,
                         const GError *error)
{
  GHashTableIter iter;
  McpClientPending *pending;
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      g_ptr_array_add (all, pending);
      g_hash_table_iter_remove (&iter);  /* frees the key only */
    }

  for (guint i = 0; i < all->len; i++)
    {
      pending = g_ptr_array_index (all, i);
      g_task_return_error (pending->task, g_error_copy (error));
      mcp_client_pending_free (pending);
    }
}

void
mcp_client_handle_response (McpClient  *self,
                            McpMessage *message)
{
  McpClientPending *pending;
  gint64 id;

  if (!mcp_message_get_int_id (message, &id))
    {
      if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
        g_debug ("Server sent an error not tied to a request: %d %s",
                 mcp_message_get_error_code (message),
                 mcp_message_get_error_message (message));
      else
        g_debug ("Ignoring a response with an id this client never used");
      return;
    }

  pending = mcp_client_steal_pending (self, id);
  if (pending == NULL)
    {
      /* A late answer to a request that timed out or was cancelled. */
      g_debug ("Ignoring a response to unknown or finished request %" G_GINT64_FORMAT, id);
      return;
    }

  if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
    {
      if (mcp_client_relist_for_header_mismatch (self, pending, message))
        return;
      g_task_return_error (pending->task, mcp_message_to_gerror (message));
    }
  else if (mcp_client_handle_result_type (self, pending, mcp_message_get_result (message)))
    {
      return;
    }
  else if (pending->result_func != NULL)
    {
      pending->result_func (self, pending->task, mcp_message_get_result (message));
    }
  else
    {
      JsonNode *result = mcp_message_get_result (message);

      g_task_return_pointer (pending->task,
                             result ? json_node_ref (result) : json_node_new (JSON_NODE_NULL),
                             (GDestroyNotify) json_node_unref);
    }

  mcp_client_pending_free (pending);
}

void
mcp_client_handle_progress (McpClient  *self,
                            JsonObject *params)
{
  McpClientPending *pending;
  JsonNode *token;
  JsonNode *node;
  double progress = 0;
  double total = -1;
  const char *text = NULL;
  gint64 id;

  if (params == NULL || (token = json_object_get_member (params, "progressToken")) == NULL)
    return;

  /* Our tokens are the request ids, sent as integers. */
  if (!JSON_NODE_HOLDS_VALUE (token) || json_node_get_value_type (token) != G_TYPE_INT64)
    return;

  id = json_node_get_int (token);
  pending = g_hash_table_lookup (self->pending, &id);
  if (pending == NULL || pending->progress_func == NULL)
    return;

  node = json_object_get_member (params, "progress");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
    progress = json_node_get_double (node);
  node = json_object_get_member (params, "total");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
    total = json_node_get_double (node);
  node = json_object_get_member (params, "message");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    text = json_node_get_string (node);

  /* Progress shows the server is alive: start the timeout again, up to the
   * request's maximum total. */
  pending_request_arm_timeout (pending);

  pending->progress_func (progress, total, text, pending->progress_data);
}
