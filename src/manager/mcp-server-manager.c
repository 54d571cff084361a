/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-needs-auth-cache.h"
#include "mcp-server-connection-private.h"
#include "mcp-http-transport.h"
#include "mcp-tool-call.h"

/* How many servers keep their listings; the least recently used beyond
 * that drops its listing and lists again on demand (see
 * mcp-server-connection-private.h). */
#define LISTING_CACHE_SIZE 20

struct _McpServerManager
{
  GObject       parent_instance;

  /* owned */
  GPtrArray    *connections;         /* McpServerConnection, the model */
  GHashTable   *memo;                /* memo key → McpServerConnection (borrowed from connections) */
  GHashTable   *enabled_overrides;   /* name → GINT_TO_POINTER (1 + enabled) */
  GQueue        local_queue;         /* McpServerConnection, owned refs */
  GQueue        remote_queue;
  GQueue        lru;                 /* borrowed; most recently used first */
  GPtrArray    *settle_waiters;      /* GTask */
  GHashTable   *closing;             /* McpServerConnection being closed → itself */
  GCancellable *cancellable;
  char        **environ;
  McpTokenStore *token_store;
  char         *needs_auth_cache_path;
  GHashTable   *request_handlers;    /* method → McpServerRequestHandler, shared with connections */
  McpRoots     *roots;               /* answers roots/list; nullable */
  gulong        roots_changed_id;

  guint         local_active;
  guint         remote_active;
  guint         local_batch_size;
  guint         remote_batch_size;
  guint         connect_timeout;
  guint         tool_timeout;
  guint         request_timeout;
  guint         max_output_tokens;
  guint         backoff_base;
  guint         connecting;
  gboolean      closed;
};

enum {
  PROP_0,
  PROP_LOCAL_BATCH_SIZE,
  PROP_REMOTE_BATCH_SIZE,
  PROP_CONNECT_TIMEOUT,
  PROP_TOOL_TIMEOUT,
  PROP_REQUEST_TIMEOUT,
  PROP_MAX_OUTPUT_TOKENS,
  PROP_CONNECTING,
  PROP_ENVIRON,
  PROP_TOKEN_STORE,
  PROP_NEEDS_AUTH_CACHE_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpServerManager, mcp_server_manager, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
mcp_server_manager_get_item_type (GListModel *model)
{
  return MCP_TYPE_SERVER_CONNECTION;
}

static guint
mcp_server_manager_get_n_items (GListModel *model)
{
  return MCP_SERVER_MANAGER (model)->connections->len;
}

static gpointer
mcp_server_manager_get_item (GListModel *model,
                             guint       position)
{
  McpServerManager *self = MCP_SERVER_MANAGER (model);

  if (position >= self->connections->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->connections, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = mcp_server_manager_get_item_type;
  iface->get_n_items = mcp_server_manager_get_n_items;
  iface->get_item = mcp_server_manager_get_item;
}

static guint
env_uint (const char *name,
          guint       fallback)
{
  const char *value = g_getenv (name);
  guint64 parsed = 0;
  g_autoptr(GError) error = NULL;

  if (value == NULL || value[0] == '\0')
    return fallback;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT, &parsed, &error))
    {
      g_debug ("Ignoring %s=%s: %s", name, value, error->message);
      return fallback;
    }

  return (guint) parsed;
}

/* ------------------------------------------------------------------------ */
/* Bookkeeping                                                              */

static gboolean
is_listed (McpServerManager    *self,
           McpServerConnection *connection)
{
  return g_ptr_array_find (self->connections, connection, NULL);
}

static void
update_connecting (McpServerManager *self)
{
  guint connecting = 0;

  for (guint i = 0; i < self->connections->len; i++)
    if (mcp_server_connection_is_connecting (g_ptr_array_index (self->connections, i)))
      connecting++;

  if (connecting == self->connecting)
    return;

  self->connecting = connecting;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTING]);
}

static gboolean
is_settled (McpServerManager *self)
{
  for (guint i = 0; i < self->connections->len; i++)
    {
      McpServerConnection *connection = g_ptr_array_index (self->connections, i);

      if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_PENDING)
        return FALSE;
    }

  return TRUE;
}

static void
check_settled (McpServerManager *self)
{
  g_autoptr(GPtrArray) waiters = NULL;

  if (self->settle_waiters->len == 0 || !is_settled (self))
    return;

  waiters = g_steal_pointer (&self->settle_waiters);
  self->settle_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < waiters->len; i++)
    g_task_return_boolean (g_ptr_array_index (waiters, i), TRUE);
}

static void
forget_memo (McpServerManager    *self,
             McpServerConnection *connection)
{
  const char *key = mcp_server_connection_get_memo_key (connection);

  if (g_hash_table_lookup (self->memo, key) == connection)
    g_hash_table_remove (self->memo, key);
  g_queue_remove (&self->lru, connection);
}

/* ------------------------------------------------------------------------ */
/* Batches                                                                  */

typedef struct
{
  McpServerManager *self;
  gboolean          remote;
} BatchSlot;

static void pump (McpServerManager *self);

static void
on_batch_connected_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  BatchSlot *slot = user_data;
  g_autoptr(McpServerManager) self = slot->self;
  g_autoptr(GError) error = NULL;

  if (slot->remote)
    self->remote_active--;
  else
    self->local_active--;
  g_free (slot);

  if (!mcp_server_connection_ensure_connected_finish (connection, result, &error))
    g_debug ("“%s” did not connect: %s",
             mcp_server_connection_get_name (connection), error->message);

  if (!self->closed)
    pump (self);
  check_settled (self);
}

static void
pump_queue (McpServerManager *self,
            GQueue           *queue,
            guint            *active,
            guint             size,
            gboolean          remote)
{
  while (*active < MAX (size, 1) && !g_queue_is_empty (queue))
    {
      g_autoptr(McpServerConnection) connection = g_queue_pop_head (queue);
      BatchSlot *slot;

      if (!is_listed (self, connection) ||
          mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_PENDING)
        continue;

      slot = g_new0 (BatchSlot, 1);
      slot->self = g_object_ref (self);
      slot->remote = remote;
      (*active)++;
      mcp_server_connection_ensure_connected_async (connection, self->cancellable,
                                                    on_batch_connected_cb, slot);
    }
}

static void
pump (McpServerManager *self)
{
  pump_queue (self, &self->local_queue, &self->local_active,
              self->local_batch_size, FALSE);
  pump_queue (self, &self->remote_queue, &self->remote_active,
              self->remote_batch_size, TRUE);
}

static void
enqueue (McpServerManager    *self,
         McpServerConnection *connection)
{
  McpServerConfig *config = mcp_server_connection_get_config (connection);

  if (self->closed)
    return;

  g_queue_push_tail (mcp_server_config_is_remote (config) ? &self->remote_queue : &self->local_queue,
                     g_object_ref (connection));
}

/* ------------------------------------------------------------------------ */
/* Connections                                                              */

static void
on_connection_state_cb (McpServerConnection *connection,
                        GParamSpec          *pspec,
                        McpServerManager    *self)
{
  const char *key = mcp_server_connection_get_memo_key (connection);

  /* Connected again after its session ended (ensure_connected, reconnect):
   * it is the memo entry again. */
  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_CONNECTED &&
      is_listed (self, connection) &&
      !g_hash_table_contains (self->memo, key))
    g_hash_table_insert (self->memo, g_strdup (key), connection);

  check_settled (self);
}

static void
on_connection_connecting_cb (McpServerConnection *connection,
                             GParamSpec          *pspec,
                             McpServerManager    *self)
{
  update_connecting (self);
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
                                    self->max_output_tokens);
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

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

static void on_roots_changed_cb (McpRoots         *roots,
                                 const char       *server,
                                 McpServerManager *self);

McpServerManager *
mcp_server_manager_new (void)
{
  return g_object_new (MCP_TYPE_SERVER_MANAGER, NULL);
}

void
mcp_server_manager_set_configs (McpServerManager *self,
                                GListModel       *configs)
{
  g_autoptr(GPtrArray) old = NULL;
  g_autoptr(GPtrArray) fresh = NULL;
  guint n_configs;
  guint n_old;

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
      if (connection != NULL && is_listed (self, connection) &&
          !g_ptr_array_find (fresh, connection, NULL))
        {
          McpServerConfig *before = mcp_server_connection_get_config (connection);
          gboolean scope_changed = mcp_server_config_get_scope (before) != mcp_server_config_get_scope (config);

          /* the same entry, maybe from another file or scope (moved, or a
           * server being tried that was saved): what the person sees of it
           * follows, and its roots follow its scope */
          mcp_server_connection_replace_config (connection, config);
          if (scope_changed && self->roots != NULL)
            on_roots_changed_cb (self->roots, name, self);
          g_ptr_array_add (fresh, g_object_ref (connection));
          continue;
        }

      connection = new_connection (self, config);
      g_ptr_array_add (fresh, connection);
      g_hash_table_insert (self->memo, g_strdup (mcp_server_connection_get_memo_key (connection)),
                           connection);
      if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_PENDING)
        enqueue (self, connection);
    }

  old = g_steal_pointer (&self->connections);
  self->connections = g_steal_pointer (&fresh);
  n_old = old->len;

  for (guint i = 0; i < old->len; i++)
    {
      McpServerConnection *connection = g_ptr_array_index (old, i);

      if (!is_listed (self, connection))
        {
          g_debug ("“%s” removed or changed: closing it", mcp_server_connection_get_name (connection));
          retire_connection (self, connection);
        }
    }

  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_old, self->connections->len);

  pump (self);
  update_connecting (self);
  check_settled (self);
}

McpServerConnection *
mcp_server_manager_lookup (McpServerManager *self,
                           const char       *name)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->connections->len; i++)
    {
      McpServerConnection *connection = g_ptr_array_index (self->connections, i);

      if (g_strcmp0 (mcp_server_connection_get_name (connection), name) == 0)
        return connection;
    }

  return NULL;
}

guint
mcp_server_manager_get_connecting (McpServerManager *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), 0);

  return self->connecting;
}

void
mcp_server_manager_wait_settled_async (McpServerManager    *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_wait_settled_async);

  if (is_settled (self))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_ptr_array_add (self->settle_waiters, g_steal_pointer (&task));
}

gboolean
mcp_server_manager_wait_settled_finish (McpServerManager  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
      enqueue (self, connection);
      pump (self);
    }

  update_connecting (self);
  check_settled (self);
}

typedef struct
{
  guint outstanding;
} CloseAll;

static void
on_close_one_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  CloseAll *close_all = g_task_get_task_data (task);

  mcp_server_connection_close_finish (MCP_SERVER_CONNECTION (object), result, NULL);
  if (--close_all->outstanding == 0)
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

void
mcp_server_manager_close_async (McpServerManager    *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) all = NULL;
  GHashTableIter iter;
  gpointer key;
  CloseAll *close_all;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_close_async);

  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  g_queue_clear_full (&self->local_queue, g_object_unref);
  g_queue_clear_full (&self->remote_queue, g_object_unref);

  all = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->connections->len; i++)
    g_ptr_array_add (all, g_object_ref (g_ptr_array_index (self->connections, i)));
  /* Those being retired already: wait for them too. */
  g_hash_table_iter_init (&iter, self->closing);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (all, g_object_ref (key));

  close_all = g_new0 (CloseAll, 1);
  close_all->outstanding = all->len + 1;
  g_task_set_task_data (task, close_all, g_free);

  for (guint i = 0; i < all->len; i++)
    mcp_server_connection_close_async (g_ptr_array_index (all, i), NULL,
                                       on_close_one_cb, g_object_ref (task));

  if (--close_all->outstanding == 0)
    g_task_return_boolean (task, TRUE);

  update_connecting (self);
  check_settled (self);
}

gboolean
mcp_server_manager_close_finish (McpServerManager  *self,
                                 GAsyncResult      *result,
                                 GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Sign-in                                                                  */

typedef struct
{
  McpServerConnection *connection;
  McpOAuthProvider    *provider;
  McpOAuthOpenUrlFunc  open_url;
  gpointer             open_url_data;
} SignIn;

static void
sign_in_free (gpointer data)
{
  SignIn *sign_in = data;

  g_clear_object (&sign_in->connection);
  g_clear_object (&sign_in->provider);
  g_free (sign_in);
}

/* The connection and its provider for @name, or FALSE with @task
 * returned. */
static gboolean
lookup_oauth (McpServerManager     *self,
              GTask                *task,
              const char           *name,
              McpServerConnection **out_connection,
              McpOAuthProvider    **out_provider)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self, name);
  McpOAuthProvider *provider;
  McpServerConfig *config;

  if (connection == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("No MCP server named “%s” is configured"), name);
      return FALSE;
    }

  config = mcp_server_connection_get_config (connection);
  if (mcp_server_connection_get_needs_auth_key (connection) == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               /* Translators: the first %s is the server's name, the second its transport (stdio, sse-ide, ws-ide) */
                               _("“%s” is a %s server: only remote servers (http, sse, ws) "
                                 "sign in with OAuth"),
                               name, mcp_server_config_get_transport_name (config));
      return FALSE;
    }

  provider = mcp_server_connection_get_oauth_provider (connection);
  if (provider == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("“%s”: its URL cannot be used (see its settings), so it "
                                 "cannot sign in"), name);
      return FALSE;
    }

  if (mcp_server_connection_get_signing_in (connection))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("A sign-in to “%s” is already under way"), name);
      return FALSE;
    }

  *out_connection = connection;
  *out_provider = provider;
  return TRUE;
}

static void
on_sign_in_reconnected_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_reconnect_finish (connection, result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 /* Translators: the first %s is the server's name, the second why it did not connect */
                                 _("Signed in to “%s”, but it did not connect: %s"),
                                 mcp_server_connection_get_name (connection), error->message);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_provider_signed_in_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerManager *self = g_task_get_source_object (task);
  SignIn *sign_in = g_task_get_task_data (task);
  McpServerConnection *connection = sign_in->connection;
  GCancellable *cancellable;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = mcp_oauth_provider_sign_in_finish (MCP_OAUTH_PROVIDER (object), result, &error);

  /* Interactive only for the person's sign-in: a later 401 in the
   * background must not open a browser. */
  mcp_oauth_provider_set_open_url_func (sign_in->provider, NULL, NULL, NULL);

  if (!ok)
    {
      mcp_server_connection_set_signing_in (connection, FALSE);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_needs_auth_cache_remove (self->needs_auth_cache_path,
                               mcp_server_connection_get_needs_auth_key (connection));
  mcp_server_connection_set_signing_in (connection, FALSE);

  if (self->closed || mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_DISABLED)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* A new authorization context: the new session lists everything again,
   * so no listing (a cacheScope "private" one above all) outlives the
   * token it was fetched with. */
  cancellable = g_task_get_cancellable (task);
  mcp_server_connection_reconnect_async (connection, cancellable,
                                         on_sign_in_reconnected_cb, g_steal_pointer (&task));
}

static void
sign_in_start (GTask *task)
{
  SignIn *sign_in = g_task_get_task_data (task);

  mcp_oauth_provider_set_open_url_func (sign_in->provider, sign_in->open_url,
                                        sign_in->open_url_data, NULL);
  mcp_oauth_provider_sign_in_async (sign_in->provider, g_task_get_cancellable (task),
                                    on_provider_signed_in_cb, task);
}

static void
on_sign_in_attempt_done_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  GTask *task = user_data;

  /* Whatever the attempt under way came to: the sign-in goes on. */
  mcp_server_connection_ensure_connected_finish (MCP_SERVER_CONNECTION (object), result, NULL);
  if (g_task_return_error_if_cancelled (task))
    {
      SignIn *sign_in = g_task_get_task_data (task);

      mcp_server_connection_set_signing_in (sign_in->connection, FALSE);
      g_object_unref (task);
      return;
    }

  sign_in_start (task);
}

void
mcp_server_manager_sign_in_async (McpServerManager    *self,
                                  const char          *name,
                                  McpOAuthOpenUrlFunc  open_url,
                                  gpointer             open_url_data,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpServerConnection *connection = NULL;
  McpOAuthProvider *provider = NULL;
  SignIn *sign_in;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (open_url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_sign_in_async);

  if (!lookup_oauth (self, task, name, &connection, &provider))
    return;

  sign_in = g_new0 (SignIn, 1);
  sign_in->connection = g_object_ref (connection);
  sign_in->provider = g_object_ref (provider);
  sign_in->open_url = open_url;
  sign_in->open_url_data = open_url_data;
  g_task_set_task_data (task, sign_in, sign_in_free);

  /* From now on no new attempt starts, so no other 401 reaches the
   * provider while it is interactive; one under way ends first. */
  mcp_server_connection_set_signing_in (connection, TRUE);
  if (mcp_server_connection_is_connecting (connection))
    {
      mcp_server_connection_ensure_connected_async (connection, NULL,
                                                    on_sign_in_attempt_done_cb,
                                                    g_steal_pointer (&task));
      return;
    }

  sign_in_start (g_steal_pointer (&task));
}

gboolean
mcp_server_manager_sign_in_finish (McpServerManager  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_signed_out_closed_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  McpServerManager *self = g_task_get_source_object (task);

  mcp_server_connection_close_finish (connection, result, NULL);
  mcp_server_connection_set_signed_out (connection);
  update_connecting (self);
  check_settled (self);
  g_task_return_boolean (task, TRUE);
}

static void
on_provider_signed_out_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerManager *self = g_task_get_source_object (task);
  SignIn *sign_in = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_oauth_provider_sign_out_finish (MCP_OAUTH_PROVIDER (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Closing drops the listings with the session: none, private or
   * public, is used under the next authorization context. */
  g_queue_remove (&self->lru, sign_in->connection);
  mcp_server_connection_close_async (sign_in->connection, NULL, on_signed_out_closed_cb,
                                     g_steal_pointer (&task));
}

void
mcp_server_manager_sign_out_async (McpServerManager    *self,
                                   const char          *name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpServerConnection *connection = NULL;
  McpOAuthProvider *provider = NULL;
  SignIn *sign_in;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_sign_out_async);

  if (!lookup_oauth (self, task, name, &connection, &provider))
    return;

  sign_in = g_new0 (SignIn, 1);
  sign_in->connection = g_object_ref (connection);
  sign_in->provider = g_object_ref (provider);
  g_task_set_task_data (task, sign_in, sign_in_free);

  mcp_oauth_provider_sign_out_async (provider, cancellable, on_provider_signed_out_cb,
                                     g_steal_pointer (&task));
}

gboolean
mcp_server_manager_sign_out_finish (McpServerManager  *self,
                                    GAsyncResult      *result,
                                    GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
mcp_server_manager_dispose (GObject *object)
{
  McpServerManager *self = MCP_SERVER_MANAGER (object);

  g_cancellable_cancel (self->cancellable);
  g_queue_clear_full (&self->local_queue, g_object_unref);
  g_queue_clear_full (&self->remote_queue, g_object_unref);
  g_queue_clear (&self->lru);

  if (self->connections != NULL)
    {
      for (guint i = 0; i < self->connections->len; i++)
        {
          McpServerConnection *connection = g_ptr_array_index (self->connections, i);

          g_signal_handlers_disconnect_by_data (connection, self);
          mcp_server_connection_close_async (connection, NULL, NULL, NULL);
        }
      g_ptr_array_set_size (self->connections, 0);
    }

  if (self->memo != NULL)
    g_hash_table_remove_all (self->memo);

  /* Their data may hold what holds the manager. */
  if (self->request_handlers != NULL)
    g_hash_table_remove_all (self->request_handlers);
  if (self->roots != NULL)
    g_clear_signal_handler (&self->roots_changed_id, self->roots);
  g_clear_object (&self->roots);

  G_OBJECT_CLASS (mcp_server_manager_parent_class)->dispose (object);
}

static void
mcp_server_manager_finalize (GObject *object)
{
  McpServerManager *self = MCP_SERVER_MANAGER (object);

  g_clear_pointer (&self->connections, g_ptr_array_unref);
  g_clear_pointer (&self->memo, g_hash_table_unref);
  g_clear_pointer (&self->enabled_overrides, g_hash_table_unref);
  g_clear_pointer (&self->closing, g_hash_table_unref);
  g_clear_pointer (&self->settle_waiters, g_ptr_array_unref);
  g_clear_pointer (&self->environ, g_strfreev);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->token_store);
  g_clear_pointer (&self->needs_auth_cache_path, g_free);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);

  G_OBJECT_CLASS (mcp_server_manager_parent_class)->finalize (object);
}

static void
mcp_server_manager_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  McpServerManager *self = MCP_SERVER_MANAGER (object);

  switch (prop_id)
    {
    case PROP_LOCAL_BATCH_SIZE:
      g_value_set_uint (value, self->local_batch_size);
      break;
    case PROP_REMOTE_BATCH_SIZE:
      g_value_set_uint (value, self->remote_batch_size);
      break;
    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout);
      break;
    case PROP_TOOL_TIMEOUT:
      g_value_set_uint (value, self->tool_timeout);
      break;
    case PROP_REQUEST_TIMEOUT:
      g_value_set_uint (value, self->request_timeout);
      break;
    case PROP_MAX_OUTPUT_TOKENS:
      g_value_set_uint (value, self->max_output_tokens);
      break;
    case PROP_CONNECTING:
      g_value_set_uint (value, self->connecting);
      break;
    case PROP_ENVIRON:
      g_value_set_boxed (value, self->environ);
      break;
    case PROP_TOKEN_STORE:
      g_value_set_object (value, self->token_store);
      break;
    case PROP_NEEDS_AUTH_CACHE_PATH:
      g_value_set_string (value, self->needs_auth_cache_path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_uint_property (McpServerManager *self,
                   guint            *field,
                   guint             value,
                   guint             prop_id)
{
  if (*field == value)
    return;

  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
mcp_server_manager_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  McpServerManager *self = MCP_SERVER_MANAGER (object);

  switch (prop_id)
    {
    case PROP_LOCAL_BATCH_SIZE:
      set_uint_property (self, &self->local_batch_size, g_value_get_uint (value), prop_id);
      pump (self);
      break;
    case PROP_REMOTE_BATCH_SIZE:
      set_uint_property (self, &self->remote_batch_size, g_value_get_uint (value), prop_id);
      pump (self);
      break;
    case PROP_CONNECT_TIMEOUT:
      set_uint_property (self, &self->connect_timeout, g_value_get_uint (value), prop_id);
      for (guint i = 0; i < self->connections->len; i++)
        mcp_server_connection_set_connect_timeout (g_ptr_array_index (self->connections, i),
                                                   self->connect_timeout);
      break;
    case PROP_TOOL_TIMEOUT:
    case PROP_REQUEST_TIMEOUT:
    case PROP_MAX_OUTPUT_TOKENS:
      set_uint_property (self,
                         prop_id == PROP_TOOL_TIMEOUT ? &self->tool_timeout :
                         prop_id == PROP_REQUEST_TIMEOUT ? &self->request_timeout :
                         &self->max_output_tokens,
                         g_value_get_uint (value), prop_id);
      for (guint i = 0; i < self->connections->len; i++)
        mcp_server_connection_set_limits (g_ptr_array_index (self->connections, i),
                                          self->tool_timeout, self->request_timeout,
                                          self->max_output_tokens);
      break;
    case PROP_ENVIRON:
      {
        char **environ = g_value_get_boxed (value);

        if (environ == self->environ)
          break;
        g_strfreev (self->environ);
        self->environ = g_strdupv (environ);
        for (guint i = 0; i < self->connections->len; i++)
          mcp_server_connection_set_environ (g_ptr_array_index (self->connections, i),
                                             (const char * const *) self->environ);
        g_object_notify_by_pspec (object, pspec);
      }
      break;
    case PROP_TOKEN_STORE:
      g_set_object (&self->token_store, g_value_get_object (value));
      break;
    case PROP_NEEDS_AUTH_CACHE_PATH:
      g_free (self->needs_auth_cache_path);
      self->needs_auth_cache_path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_server_manager_constructed (GObject *object)
{
  McpServerManager *self = MCP_SERVER_MANAGER (object);

  G_OBJECT_CLASS (mcp_server_manager_parent_class)->constructed (object);

  if (self->token_store == NULL)
    self->token_store = g_object_ref (mcp_token_store_get_default ());
}

static void
mcp_server_manager_class_init (McpServerManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_server_manager_constructed;
  object_class->dispose = mcp_server_manager_dispose;
  object_class->finalize = mcp_server_manager_finalize;
  object_class->get_property = mcp_server_manager_get_property;
  object_class->set_property = mcp_server_manager_set_property;

  properties[PROP_LOCAL_BATCH_SIZE] =
    g_param_spec_uint ("local-batch-size", NULL, NULL, 1, G_MAXUINT,
                       MCP_DEFAULT_LOCAL_BATCH_SIZE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REMOTE_BATCH_SIZE] =
    g_param_spec_uint ("remote-batch-size", NULL, NULL, 1, G_MAXUINT,
                       MCP_DEFAULT_REMOTE_BATCH_SIZE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL, 0, G_MAXUINT,
                       MCP_DEFAULT_CONNECT_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Limits of every connection: a tool call's timeout when its config
   * sets none (0: none; MCP_TOOL_TIMEOUT), each HTTP request's timeout
   * (MCP_REQUEST_TIMEOUT_MS) and the largest tool output kept, in tokens
   * (MAX_MCP_OUTPUT_TOKENS). */
  properties[PROP_TOOL_TIMEOUT] =
    g_param_spec_uint ("tool-timeout", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REQUEST_TIMEOUT] =
    g_param_spec_uint ("request-timeout", NULL, NULL, 0, G_MAXUINT,
                       MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_OUTPUT_TOKENS] =
    g_param_spec_uint ("max-output-tokens", NULL, NULL, 1, G_MAXUINT / MCP_CHARACTERS_PER_TOKEN,
                       MCP_DEFAULT_MAX_OUTPUT_TOKENS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONNECTING] =
    g_param_spec_uint ("connecting", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENVIRON] =
    g_param_spec_boxed ("environ", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOKEN_STORE] =
    g_param_spec_object ("token-store", NULL, NULL, MCP_TYPE_TOKEN_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEEDS_AUTH_CACHE_PATH] =
    g_param_spec_string ("needs-auth-cache-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_server_manager_init (McpServerManager *self)
{
  self->connections = g_ptr_array_new_with_free_func (g_object_unref);
  self->memo = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->enabled_overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->closing = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref, NULL);
  self->settle_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();
  self->request_handlers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                  (GDestroyNotify) mcp_server_request_handler_unref);
  g_queue_init (&self->local_queue);
  g_queue_init (&self->remote_queue);
  g_queue_init (&self->lru);

  self->local_batch_size = MAX (env_uint ("MCP_SERVER_CONNECTION_BATCH_SIZE",
                                          MCP_DEFAULT_LOCAL_BATCH_SIZE), 1);
  self->remote_batch_size = MAX (env_uint ("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE",
                                           MCP_DEFAULT_REMOTE_BATCH_SIZE), 1);
  self->connect_timeout = env_uint ("MCP_TIMEOUT", MCP_DEFAULT_CONNECT_TIMEOUT_MS);
  self->tool_timeout = env_uint ("MCP_TOOL_TIMEOUT", 0);
  self->request_timeout = env_uint ("MCP_REQUEST_TIMEOUT_MS", MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS);
  self->max_output_tokens = CLAMP (env_uint ("MAX_MCP_OUTPUT_TOKENS", MCP_DEFAULT_MAX_OUTPUT_TOKENS),
                                   1, G_MAXUINT / MCP_CHARACTERS_PER_TOKEN);
  /* Only the tests shorten the reconnection backoff. */
  self->backoff_base = env_uint ("MCP_TEST_BACKOFF_MS", 0);
}

void
mcp_server_manager_set_request_handler (McpServerManager     *self,
                                        const char           *method,
                                        JsonObject           *capabilities,
                                        McpServerRequestFunc  func,
                                        gpointer              user_data,
                                        GDestroyNotify        destroy)
{
  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (method != NULL);

  if (func == NULL)
    {
      g_hash_table_remove (self->request_handlers, method);
      if (destroy != NULL)
        destroy (user_data);
      return;
    }

  g_hash_table_replace (self->request_handlers, g_strdup (method),
                        mcp_server_request_handler_new (method, capabilities, func,
                                                        user_data, destroy));
}

/* roots/list: the server's own roots, as the McpRoots says now. */
static void
roots_list_cb (McpServerConnection *connection,
               const char          *method,
               JsonObject          *params,
               GTask               *reply,
               gpointer             user_data)
{
  McpRoots *roots = user_data;
  g_autoptr(GTask) owned = reply;
  JsonObject *result = json_object_new ();
  JsonNode *node;

  McpServerConfig *config = mcp_server_connection_get_config (connection);

  json_object_set_array_member (result, "roots",
                                mcp_roots_dup_json (roots, mcp_server_connection_get_name (connection),
                                                    config != NULL ? mcp_server_config_get_scope (config)
                                                                   : MCP_CONFIG_SCOPE_USER));
  node = json_node_init_object (json_node_alloc (), result);
  json_object_unref (result);
  g_task_return_pointer (owned, node, (GDestroyNotify) json_node_unref);
}

static void
on_roots_changed_cb (McpRoots         *roots,
                     const char       *server,
                     McpServerManager *self)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self, server);
  McpClient *client = connection != NULL ? mcp_server_connection_get_client (connection) : NULL;
  g_autoptr(GError) error = NULL;

  /* A server connected before roots were declared was not told it may
   * ask again; the others are. */
  if (client == NULL || mcp_client_get_state (client) != MCP_CLIENT_STATE_READY)
    return;
  if (!mcp_client_notify (client, "notifications/roots/list_changed", NULL, &error))
    g_debug ("“%s”: could not send notifications/roots/list_changed: %s", server, error->message);
}

void
mcp_server_manager_set_roots (McpServerManager *self,
                              McpRoots         *roots)
{
  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (roots == NULL || MCP_IS_ROOTS (roots));

  if (self->roots == roots)
    return;

  if (self->roots != NULL)
    g_clear_signal_handler (&self->roots_changed_id, self->roots);
  g_set_object (&self->roots, roots);

  if (roots == NULL)
    {
      mcp_server_manager_set_request_handler (self, "roots/list", NULL, NULL, NULL, NULL);
      return;
    }

  {
    g_autoptr(JsonObject) capabilities = json_object_new ();
    JsonObject *roots_capability = json_object_new ();

    json_object_set_boolean_member (roots_capability, "listChanged", TRUE);
    json_object_set_object_member (capabilities, "roots", roots_capability);
    mcp_server_manager_set_request_handler (self, "roots/list", capabilities, roots_list_cb,
                                            g_object_ref (roots), g_object_unref);
  }
  self->roots_changed_id = g_signal_connect (roots, "changed",
                                             G_CALLBACK (on_roots_changed_cb), self);
}

McpRoots *
mcp_server_manager_get_roots (McpServerManager *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), NULL);

  return self->roots;
}
