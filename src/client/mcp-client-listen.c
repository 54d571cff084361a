/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* subscriptions/listen (2026-07-28): one long request per client whose
 * response stream carries the notifications asked for — list changes the
 * server declares and updates of the resources subscribed to. They arrive
 * as any notification does, so the same signals report them. A stream that
 * ends is opened again (with a new id), after a growing pause. */

static gboolean
listen_retry_cb (gpointer user_data)
{
  McpClient *self = user_data;

  self->listen_retry_id = 0;
  mcp_client_listen_start (self);
  return G_SOURCE_REMOVE;
}

void
mcp_client_listen_stop (McpClient *self)
{
  g_clear_handle_id (&self->listen_retry_id, g_source_remove);
  if (self->listen_cancellable != NULL)
    {
      g_cancellable_cancel (self->listen_cancellable);
      g_clear_object (&self->listen_cancellable);
    }
}

/* Finishes what waits for the stream to be acknowledged: a subscription
 * counts from then on. */
void
mcp_client_listen_return (McpClient    *self,
                          const GError *error)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->listen_waiters);

  self->listen_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; waiters != NULL && i < waiters->len; i++)
    {
      GTask *task = g_ptr_array_index (waiters, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

/* notifications/subscriptions/acknowledged, and any notification of a
 * listen stream: TRUE when @message should be dropped (it belongs to a
 * stream we no longer listen to). */
gboolean
mcp_client_listen_filter_notification (McpClient  *self,
                                       const char *method,
                                       JsonObject *params)
{
  JsonNode *meta = params ? json_object_get_member (params, "_meta") : NULL;
  JsonNode *id = meta && JSON_NODE_HOLDS_OBJECT (meta)
                 ? json_object_get_member (json_node_get_object (meta), MCP_META_SUBSCRIPTION_ID) : NULL;
  gboolean current;

  if (id == NULL)
    return FALSE;

  current = self->listen_cancellable != NULL && JSON_NODE_HOLDS_VALUE (id) &&
            json_node_get_value_type (id) == G_TYPE_INT64 && json_node_get_int (id) == self->listen_id;
  if (!current)
    {
      g_debug ("Dropping “%s” of a subscription that has ended", method);
      return TRUE;
    }

  if (g_str_equal (method, "notifications/subscriptions/acknowledged"))
    {
      self->listen_failures = 0;
      mcp_client_listen_return (self, NULL);
    }
  return FALSE;
}

static void
on_listen_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GCancellable) cancellable = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  guint delay_s;

  node = g_task_propagate_pointer (G_TASK (result), &error);

  /* Stopped, or replaced by one with another filter. */
  if (g_cancellable_is_cancelled (cancellable) || cancellable != self->listen_cancellable)
    return;
  g_clear_object (&self->listen_cancellable);

  if (self->state != MCP_CLIENT_STATE_READY)
    return;

  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND))
    {
      g_autofree char *server = mcp_client_describe_server (self);
      g_autoptr(GError) unsupported = g_error_new (MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                                                   _("%s does not offer subscriptions/listen"), server);

      g_debug ("%s", unsupported->message);
      self->listen_unsupported = TRUE;
      mcp_client_listen_return (self, unsupported);
      return;
    }

  if (error != NULL)
    self->listen_failures++;
  else
    self->listen_failures = 0;
  delay_s = MIN (60, 1u << MIN (self->listen_failures, 6));
  g_debug ("The subscriptions/listen stream ended (%s); opening it again in %u s",
           error != NULL ? error->message : "by the server", delay_s);
  self->listen_retry_id = g_timeout_add_seconds (delay_s, listen_retry_cb, self);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->listen_retry_id),
                            "[mcp-client] listen again");
}

static gboolean
capability_flag (McpClient  *self,
                 const char *capability,
                 const char *member)
{
  JsonObject *capabilities = self->server_info ? mcp_server_info_get_capabilities (self->server_info) : NULL;
  JsonNode *node = capabilities ? json_object_get_member (capabilities, capability) : NULL;
  JsonNode *flag;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  flag = json_object_get_member (json_node_get_object (node), member);
  return flag != NULL && JSON_NODE_HOLDS_VALUE (flag) &&
         json_node_get_value_type (flag) == G_TYPE_BOOLEAN && json_node_get_boolean (flag);
}

/* (Re)opens the listen request with what there is to listen to now. */
void
mcp_client_listen_start (McpClient *self)
{
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GTask) task = NULL;
  JsonObject *filter;
  McpRequestOptions options = { .timeout_ms = MCP_REQUEST_TIMEOUT_NONE };
  gboolean any = FALSE;

  mcp_client_listen_stop (self);
  if (self->era != MCP_PROTOCOL_ERA_MODERN || self->state != MCP_CLIENT_STATE_READY ||
      self->listen_unsupported)
    return;

  filter = json_object_new ();
  if (capability_flag (self, "tools", "listChanged"))
    json_object_set_boolean_member (filter, "toolsListChanged", any = TRUE);
  if (capability_flag (self, "prompts", "listChanged"))
    json_object_set_boolean_member (filter, "promptsListChanged", any = TRUE);
  if (capability_flag (self, "resources", "listChanged"))
    json_object_set_boolean_member (filter, "resourcesListChanged", any = TRUE);
  if (capability_flag (self, "resources", "subscribe") && g_hash_table_size (self->listen_uris) > 0)
    {
      JsonArray *uris = json_array_new ();
      GHashTableIter iter;
      const char *uri;

      g_hash_table_iter_init (&iter, self->listen_uris);
      while (g_hash_table_iter_next (&iter, (gpointer *) &uri, NULL))
        json_array_add_string_element (uris, uri);
      json_object_set_array_member (filter, "resourceSubscriptions", uris);
      any = TRUE;
    }

  params = json_object_new ();
  json_object_set_object_member (params, "notifications", filter);
  if (!any)
    {
      mcp_client_listen_return (self, NULL);
      return;
    }

  self->listen_cancellable = g_cancellable_new ();
  self->listen_id = self->next_id;
  task = g_task_new (self, self->listen_cancellable, on_listen_cb, g_object_ref (self->listen_cancellable));
  g_task_set_source_tag (task, mcp_client_listen_start);
  mcp_client_send_request (self, "subscriptions/listen", params, &options, NULL, task);
}

void
mcp_client_stateless_subscribe (McpClient  *self,
                                const char *uri,
                                gboolean    subscribe,
                                GTask      *task)
{
  gboolean changed;

  if (subscribe)
    changed = g_hash_table_add (self->listen_uris, g_strdup (uri));
  else
    changed = g_hash_table_remove (self->listen_uris, uri);

  if (!changed || self->listen_unsupported)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  /* Done once the server acknowledged the new filter: an update after
   * that reaches us. */
  g_ptr_array_add (self->listen_waiters, task);
  mcp_client_listen_start (self);
}
