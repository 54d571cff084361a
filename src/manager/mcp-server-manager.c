/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"
#include "mcp-server-manager-private.h"

#include "mcp-http-transport.h"
#include "mcp-oauth-provider.h"
#include "mcp-processed-result.h"

/* The object: a GListModel of its connections, its properties (the
 * limits, set from McpLimits by McpProject), the lookups. The other parts
 * are listed in mcp-server-manager-private.h. */

enum {
  PROP_0,
  PROP_LOCAL_BATCH_SIZE,
  PROP_REMOTE_BATCH_SIZE,
  PROP_CONNECT_TIMEOUT,
  PROP_TOOL_TIMEOUT,
  PROP_REQUEST_TIMEOUT,
  PROP_MAX_OUTPUT_TOKENS,
  PROP_TRACE_KIB,
  PROP_OAUTH_REQUEST_TIMEOUT,
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

/* Only the tests shorten the reconnection backoff (not a limit: McpLimits
 * reads those). */
static guint
test_backoff_base (void)
{
  const char *value = g_getenv ("MCP_TEST_BACKOFF_MS");
  guint64 parsed = 0;

  if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT, &parsed, NULL))
    return 0;

  return (guint) parsed;
}

/* ------------------------------------------------------------------------ */
/* Bookkeeping                                                              */

gboolean
mcp_server_manager_is_listed (McpServerManager    *self,
                              McpServerConnection *connection)
{
  return g_ptr_array_find (self->connections, connection, NULL);
}

void
mcp_server_manager_update_connecting (McpServerManager *self)
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

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

McpServerManager *
mcp_server_manager_new (void)
{
  return g_object_new (MCP_TYPE_SERVER_MANAGER, NULL);
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
    case PROP_TRACE_KIB:
      g_value_set_uint (value, self->trace_kib);
      break;
    case PROP_OAUTH_REQUEST_TIMEOUT:
      g_value_set_uint (value, self->oauth_request_timeout);
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
      mcp_server_manager_pump (self);
      break;
    case PROP_REMOTE_BATCH_SIZE:
      set_uint_property (self, &self->remote_batch_size, g_value_get_uint (value), prop_id);
      mcp_server_manager_pump (self);
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
    case PROP_OAUTH_REQUEST_TIMEOUT:
      set_uint_property (self,
                         prop_id == PROP_TOOL_TIMEOUT ? &self->tool_timeout :
                         prop_id == PROP_REQUEST_TIMEOUT ? &self->request_timeout :
                         prop_id == PROP_OAUTH_REQUEST_TIMEOUT ? &self->oauth_request_timeout :
                         &self->max_output_tokens,
                         g_value_get_uint (value), prop_id);
      for (guint i = 0; i < self->connections->len; i++)
        mcp_server_connection_set_limits (g_ptr_array_index (self->connections, i),
                                          self->tool_timeout, self->request_timeout,
                                          self->max_output_tokens, self->oauth_request_timeout);
      break;
    case PROP_TRACE_KIB:
      set_uint_property (self, &self->trace_kib, g_value_get_uint (value), prop_id);
      for (guint i = 0; i < self->connections->len; i++)
        mcp_trace_set_max_bytes (mcp_server_connection_get_trace (g_ptr_array_index (self->connections, i)),
                                 (gsize) self->trace_kib * 1024);
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
   * (MCP_REQUEST_TIMEOUT_MS), the largest tool output kept, in tokens
   * (MAX_MCP_OUTPUT_TOKENS), and each OAuth request's timeout. */
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
  /* What each server's trace keeps, in KiB. */
  properties[PROP_TRACE_KIB] =
    g_param_spec_uint ("trace-kib", NULL, NULL, MCP_TRACE_MIN_MAX_BYTES / 1024, 1024 * 1024,
                       MCP_TRACE_DEFAULT_MAX_BYTES / 1024,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OAUTH_REQUEST_TIMEOUT] =
    g_param_spec_uint ("oauth-request-timeout", NULL, NULL, 1, G_MAXUINT,
                       MCP_OAUTH_REQUEST_TIMEOUT_MS,
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

  /* The defaults; McpProject sets the limits from its McpLimits. */
  self->local_batch_size = MCP_DEFAULT_LOCAL_BATCH_SIZE;
  self->remote_batch_size = MCP_DEFAULT_REMOTE_BATCH_SIZE;
  self->connect_timeout = MCP_DEFAULT_CONNECT_TIMEOUT_MS;
  self->tool_timeout = 0;
  self->request_timeout = MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS;
  self->max_output_tokens = MCP_DEFAULT_MAX_OUTPUT_TOKENS;
  self->trace_kib = MCP_TRACE_DEFAULT_MAX_BYTES / 1024;
  self->oauth_request_timeout = MCP_OAUTH_REQUEST_TIMEOUT_MS;
  self->backoff_base = test_backoff_base ();
}
