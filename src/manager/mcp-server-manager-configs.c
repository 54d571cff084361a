/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"
#include "mcp-server-manager-private.h"

/* Reconciling the settings with the connections (set_configs): memoized
 * by memo key, an unchanged server keeps its connection, a changed or
 * removed one is retired; the person's enabled toggle over the settings;
 * the LRU of listings. */

/* How many servers keep their listings; the least recently used beyond
 * that drops its listing and lists again on demand (see
 * mcp-server-connection-private.h). */
#define LISTING_CACHE_SIZE 20

static void
forget_memo (McpServerManager    *self,
             McpServerConnection *connection)
{
  const char *key = mcp_server_connection_get_memo_key (connection);

  if (g_hash_table_lookup (self->memo, key) == connection)
    g_hash_table_remove (self->memo, key);
  g_queue_remove (&self->lru, connection);
}

static void
on_connection_state_cb (McpServerConnection *connection,
                        GParamSpec          *pspec,
                        McpServerManager    *self)
{
  const char *key = mcp_server_connection_get_memo_key (connection);

  /* Connected again after its session ended (ensure_connected, reconnect):
   * it is the memo entry again. */
  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_CONNECTED &&
      mcp_server_manager_is_listed (self, connection) &&
      !g_hash_table_contains (self->memo, key))
    g_hash_table_insert (self->memo, g_strdup (key), connection);

  mcp_server_manager_check_settled (self);
}

static void
on_connection_connecting_cb (McpServerConnection *connection,
                             GParamSpec          *pspec,
                             McpServerManager    *self)
{
  mcp_server_manager_update_connecting (self);
}

static void
on_connection_memo_dropped_cb (McpServerConnection *connection,
                               McpServerManager    *self)
{
  g_debug ("“%s” closed: dropping its memo entry", mcp_server_connection_get_name (connection));
  forget_memo (self, connection);
}

static void
on_connection_listing_used_cb (McpServerConnection *connection,
                               McpServerManager    *self)
{
  g_queue_remove (&self->lru, connection);
  g_queue_push_head (&self->lru, connection);

  while (g_queue_get_length (&self->lru) > LISTING_CACHE_SIZE)
    mcp_server_connection_drop_listing (g_queue_pop_tail (&self->lru));
}

static McpServerConnection *
new_connection (McpServerManager *self,
                McpServerConfig  *config)
{
  McpServerConnection *connection = mcp_server_connection_new (config);
  gpointer override = g_hash_table_lookup (self->enabled_overrides,
                                           mcp_server_config_get_name (config));

  mcp_server_connection_set_environ (connection, (const char * const *) self->environ);
  mcp_server_connection_set_token_store (connection, self->token_store);
  mcp_server_connection_set_needs_auth_cache_path (connection, self->needs_auth_cache_path);
  mcp_server_connection_set_connect_timeout (connection, self->connect_timeout);
  mcp_server_connection_set_limits (connection, self->tool_timeout, self->request_timeout,
                                    self->max_output_tokens, self->oauth_request_timeout);
  mcp_trace_set_max_bytes (mcp_server_connection_get_trace (connection), (gsize) self->trace_kib * 1024);
  mcp_server_connection_set_request_handlers (connection, self->request_handlers);
  if (self->backoff_base > 0)
    mcp_server_connection_set_backoff_base (connection, self->backoff_base);
  if (override != NULL)
    mcp_server_connection_set_disabled (connection, GPOINTER_TO_INT (override) == 1);

  g_signal_connect_object (connection, "notify::state",
                           G_CALLBACK (on_connection_state_cb), self, 0);
  g_signal_connect_object (connection, "notify::connecting",
                           G_CALLBACK (on_connection_connecting_cb), self, 0);
  g_signal_connect_object (connection, "memo-dropped",
                           G_CALLBACK (on_connection_memo_dropped_cb), self, 0);
  g_signal_connect_object (connection, "listing-used",
                           G_CALLBACK (on_connection_listing_used_cb), self, 0);

  return connection;
}

static void
on_retired_closed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(McpServerManager) self = user_data;

  mcp_server_connection_close_finish (MCP_SERVER_CONNECTION (object), result, NULL);
  g_hash_table_remove (self->closing, object);
}

static void
retire_connection (McpServerManager    *self,
                   McpServerConnection *connection)
{
  forget_memo (self, connection);
  g_signal_handlers_disconnect_by_data (connection, self);
  g_hash_table_add (self->closing, g_object_ref (connection));
  mcp_server_connection_close_async (connection, NULL, on_retired_closed_cb, g_object_ref (self));
}

/* Announces only the range where @old and the new list differ, so that
 * rows (and the selection) of the servers before and after it stay. */
static void
announce_changes (McpServerManager *self,
                  GPtrArray        *old)
{
  GPtrArray *fresh = self->connections;
  guint prefix = 0;
  guint suffix = 0;

  while (prefix < fresh->len && prefix < old->len &&
         g_ptr_array_index (fresh, prefix) == g_ptr_array_index (old, prefix))
    prefix++;

  while (suffix < fresh->len - prefix && suffix < old->len - prefix &&
         g_ptr_array_index (fresh, fresh->len - 1 - suffix) ==
         g_ptr_array_index (old, old->len - 1 - suffix))
    suffix++;

  if (prefix == old->len && prefix == fresh->len)
    return;

  g_list_model_items_changed (G_LIST_MODEL (self), prefix,
                              old->len - prefix - suffix,
                              fresh->len - prefix - suffix);
}

void
mcp_server_manager_set_configs (McpServerManager *self,
                                GListModel       *configs)
{
  g_autoptr(GPtrArray) old = NULL;
  g_autoptr(GPtrArray) fresh = NULL;
  guint n_configs;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (G_IS_LIST_MODEL (configs));

  n_configs = g_list_model_get_n_items (configs);
  fresh = g_ptr_array_new_full (n_configs, g_object_unref);

  for (guint i = 0; i < n_configs; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (configs, i);
      g_autofree char *key = NULL;
      McpServerConnection *connection;
      const char *name;
      gpointer override;

      if (!MCP_IS_SERVER_CONFIG (config))
        continue;

      name = mcp_server_config_get_name (config);
      /* The settings caught up with the person's toggle. */
      override = g_hash_table_lookup (self->enabled_overrides, name);
      if (override != NULL &&
          (GPOINTER_TO_INT (override) == 2) == mcp_server_config_get_enabled (config))
        g_hash_table_remove (self->enabled_overrides, name);

      key = mcp_server_config_dup_memo_key (config);
      connection = g_hash_table_lookup (self->memo, key);
      if (connection != NULL && mcp_server_manager_is_listed (self, connection) &&
          !g_ptr_array_find (fresh, connection, NULL))
        {
          McpServerConfig *before = mcp_server_connection_get_config (connection);
          gboolean scope_changed = mcp_server_config_get_scope (before) != mcp_server_config_get_scope (config);

          /* the same entry, maybe from another file or scope (moved, or a
           * server being tried that was saved): what the person sees of it
           * follows, and its roots follow its scope */
          mcp_server_connection_replace_config (connection, config);
          if (scope_changed && self->roots != NULL)
            mcp_server_manager_notify_roots_changed (self, name);
          g_ptr_array_add (fresh, g_object_ref (connection));
          continue;
        }

      connection = new_connection (self, config);
      g_ptr_array_add (fresh, connection);
      g_hash_table_insert (self->memo, g_strdup (mcp_server_connection_get_memo_key (connection)),
                           connection);
      if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_PENDING)
        mcp_server_manager_enqueue (self, connection);
    }

  old = g_steal_pointer (&self->connections);
  self->connections = g_steal_pointer (&fresh);

  for (guint i = 0; i < old->len; i++)
    {
      McpServerConnection *connection = g_ptr_array_index (old, i);

      if (!mcp_server_manager_is_listed (self, connection))
        {
          g_debug ("“%s” removed or changed: closing it", mcp_server_connection_get_name (connection));
          retire_connection (self, connection);
        }
    }

  announce_changes (self, old);

  mcp_server_manager_pump (self);
  mcp_server_manager_update_connecting (self);
  mcp_server_manager_check_settled (self);
}

void
mcp_server_manager_update_approvals (McpServerManager *self,
                                     McpSettings      *settings)
{
  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (MCP_IS_SETTINGS (settings));

  for (guint i = 0; i < self->connections->len; i++)
    {
      McpServerConnection *connection = g_ptr_array_index (self->connections, i);
      McpServerConfig *config = mcp_server_connection_get_config (connection);
      McpApproval approval = MCP_APPROVAL_NOT_NEEDED;

      /* a server being tried, or of another scope, needs none even when a
       * project server has its name */
      if (mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT &&
          mcp_server_config_get_saved (config))
        approval = mcp_settings_get_approval (settings, mcp_server_config_get_name (config));

      mcp_server_connection_set_approval (connection, approval);
    }
}

void
mcp_server_manager_set_server_enabled (McpServerManager *self,
                                       const char       *name,
                                       gboolean          enabled)
{
  McpServerConnection *connection;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (name != NULL);

  g_hash_table_insert (self->enabled_overrides, g_strdup (name),
                       GINT_TO_POINTER (enabled ? 2 : 1));

  connection = mcp_server_manager_lookup (self, name);
  if (connection == NULL)
    return;

  if (!enabled)
    {
      g_queue_remove (&self->lru, connection);
      mcp_server_connection_set_disabled (connection, TRUE);
    }
  else if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_DISABLED)
    {
      mcp_server_connection_set_disabled (connection, FALSE);
      mcp_server_manager_enqueue (self, connection);
      mcp_server_manager_pump (self);
    }

  mcp_server_manager_update_connecting (self);
  mcp_server_manager_check_settled (self);
}
