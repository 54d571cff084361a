/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

#include "mcp-http-transport.h"
#include "mcp-task.h"
#include "mcp-processed-result.h"

/* The object: its properties and signals, its state and the getters. The
 * other parts are listed in mcp-server-connection-private.h. */

static GParamSpec *properties[CONNECTION_N_PROPS];
static guint signals[CONNECTION_N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpServerConnection, mcp_server_connection, G_TYPE_OBJECT)

const char *
mcp_server_state_to_string (McpServerState state)
{
  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return "pending";
    case MCP_SERVER_STATE_CONNECTED:
      return "connected";
    case MCP_SERVER_STATE_FAILED:
      return "failed";
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return "needs-auth";
    case MCP_SERVER_STATE_DISABLED:
      return "disabled";
    default:
      return "unknown";
    }
}

void
mcp_server_connection_notify (McpServerConnection *self,
                              ConnectionProperty   property)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[property]);
}

void
mcp_server_connection_emit (McpServerConnection *self,
                            ConnectionSignal     signal,
                            ...)
{
  va_list args;

  va_start (args, signal);
  g_signal_emit_valist (self, signals[signal], 0, args);
  va_end (args);
}

/* ------------------------------------------------------------------------ */
/* State                                                                    */

void
mcp_server_connection_set_state (McpServerConnection *self,
                                 McpServerState       state,
                                 const GError        *unredacted)
{
  g_autoptr(GError) error = mcp_server_connection_redact_error (self, unredacted);
  gboolean error_changed;

  error_changed = (self->error != NULL) != (error != NULL) ||
                  (error != NULL &&
                   (self->error->domain != error->domain ||
                    self->error->code != error->code ||
                    g_strcmp0 (self->error->message, error->message) != 0));

  if (error_changed)
    {
      g_clear_error (&self->error);
      if (error != NULL)
        self->error = g_error_copy (error);
    }

  /* The error first, so that a handler of notify::state reads the reason. */
  if (error_changed)
    mcp_server_connection_notify (self, CONNECTION_PROP_ERROR);

  if (self->state != state)
    {
      g_debug ("“%s”: %s → %s%s%s", mcp_server_config_get_name (self->config),
               mcp_server_state_to_string (self->state),
               mcp_server_state_to_string (state),
               error != NULL ? ": " : "", error != NULL ? error->message : "");
      self->state = state;
      if (state != MCP_SERVER_STATE_PENDING)
        mcp_server_connection_log_state (self, state, error);
      mcp_server_connection_notify (self, CONNECTION_PROP_STATE);
    }
  else if (error_changed && error != NULL)
    {
      /* The same state for another reason. */
      mcp_server_connection_log_state (self, state, error);
    }
}

void
mcp_server_connection_set_connecting (McpServerConnection *self,
                                      gboolean             connecting)
{
  if (self->connecting == !!connecting)
    return;

  self->connecting = !!connecting;
  mcp_server_connection_notify (self, CONNECTION_PROP_CONNECTING);
}

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

void
mcp_server_connection_replace_config (McpServerConnection *self,
                                      McpServerConfig     *config)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (MCP_IS_SERVER_CONFIG (config));

  if (self->config == config)
    return;

  g_set_object (&self->config, config);
  mcp_server_connection_notify (self, CONNECTION_PROP_CONFIG);
}

McpServerConfig *
mcp_server_connection_get_config (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->config;
}

const char *
mcp_server_connection_get_name (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return mcp_server_config_get_name (self->config);
}

McpServerState
mcp_server_connection_get_state (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), MCP_SERVER_STATE_FAILED);

  return self->state;
}

McpApproval
mcp_server_connection_get_approval (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), MCP_APPROVAL_NOT_NEEDED);

  return self->approval;
}

void
mcp_server_connection_set_approval (McpServerConnection *self,
                                    McpApproval          approval)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->approval == approval)
    return;

  self->approval = approval;
  mcp_server_connection_notify (self, CONNECTION_PROP_APPROVAL);
}

const GError *
mcp_server_connection_get_error (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->error;
}

McpClient *
mcp_server_connection_get_client (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->state == MCP_SERVER_STATE_CONNECTED ? self->client : NULL;
}

GListModel *
mcp_server_connection_get_tools (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->tools);
}

GListModel *
mcp_server_connection_get_resources (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->resources);
}

GListModel *
mcp_server_connection_get_resource_templates (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->resource_templates);
}

GListModel *
mcp_server_connection_get_prompts (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->prompts);
}

/* ------------------------------------------------------------------------ */
/* Private                                                                  */

McpServerConnection *
mcp_server_connection_new (McpServerConfig *config)
{
  McpServerConnection *self;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  self = g_object_new (MCP_TYPE_SERVER_CONNECTION, "config", config, NULL);
  self->memo_key = mcp_server_config_dup_memo_key (config);
  self->needs_auth_key = mcp_server_connection_make_needs_auth_key (config);
  self->active_transport = mcp_server_config_get_transport (config);
  if (!mcp_server_config_get_enabled (config))
    {
      self->disabled = TRUE;
      self->state = MCP_SERVER_STATE_DISABLED;
      mcp_server_connection_log_state (self, MCP_SERVER_STATE_DISABLED, NULL);
    }

  return self;
}

const char *
mcp_server_connection_get_memo_key (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->memo_key;
}

gboolean
mcp_server_connection_is_connecting (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return self->connecting;
}

gboolean
mcp_server_connection_has_listing (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return self->has_listing;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
mcp_server_connection_dispose (GObject *object)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);
  g_autoptr(GError) error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                         _("The connection was disposed"));

  if (self->config != NULL)
    {
      mcp_server_connection_shut_down (self, error);
      if (self->attempt_cancellable != NULL)
        {
          g_autoptr(GPtrArray) waiters = mcp_server_connection_steal_waiters (&self->waiters);

          g_clear_object (&self->attempt_cancellable);
          mcp_server_connection_return_tasks (waiters, error);
        }
      mcp_server_connection_fail_held_waiters (self, error);
    }

  g_clear_object (&self->oauth_provider);

  G_OBJECT_CLASS (mcp_server_connection_parent_class)->dispose (object);
}

static void
mcp_server_connection_finalize (GObject *object)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);

  g_clear_object (&self->config);
  g_clear_pointer (&self->memo_key, g_free);
  g_clear_pointer (&self->needs_auth_key, g_free);
  g_clear_pointer (&self->needs_auth_cache_path, g_free);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);
  g_clear_object (&self->token_store);
  g_clear_pointer (&self->environ, g_strfreev);
  g_clear_error (&self->error);
  g_clear_pointer (&self->transport_fallback, g_free);
  g_clear_error (&self->fallback_from);
  g_clear_object (&self->tools);
  g_clear_object (&self->resources);
  g_clear_object (&self->resource_templates);
  g_clear_object (&self->prompts);
  g_clear_pointer (&self->stderr_tail, g_strfreev);
  g_clear_pointer (&self->secrets, g_strfreev);
  g_clear_object (&self->log);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->log_level, g_free);
  g_clear_pointer (&self->subscriptions, g_hash_table_unref);
  g_clear_object (&self->attempt_cancellable);
  g_clear_object (&self->list_cancellable);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_pointer (&self->list_waiters, g_ptr_array_unref);
  mcp_server_connection_clear_list_cache (self);
  g_clear_pointer (&self->ui_cache, g_hash_table_unref);
  g_clear_pointer (&self->ui_reads, g_hash_table_unref);

  G_OBJECT_CLASS (mcp_server_connection_parent_class)->finalize (object);
}

static void
mcp_server_connection_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);

  switch (prop_id)
    {
    case CONNECTION_PROP_CONFIG:
      g_value_set_object (value, self->config);
      break;
    case CONNECTION_PROP_NAME:
      g_value_set_string (value, mcp_server_connection_get_name (self));
      break;
    case CONNECTION_PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case CONNECTION_PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case CONNECTION_PROP_APPROVAL:
      g_value_set_enum (value, self->approval);
      break;
    case CONNECTION_PROP_CLIENT:
      g_value_set_object (value, mcp_server_connection_get_client (self));
      break;
    case CONNECTION_PROP_TOOLS:
      g_value_set_object (value, self->tools);
      break;
    case CONNECTION_PROP_RESOURCES:
      g_value_set_object (value, self->resources);
      break;
    case CONNECTION_PROP_RESOURCE_TEMPLATES:
      g_value_set_object (value, self->resource_templates);
      break;
    case CONNECTION_PROP_PROMPTS:
      g_value_set_object (value, self->prompts);
      break;
    case CONNECTION_PROP_STDERR_TAIL:
      g_value_take_boxed (value, mcp_server_connection_dup_stderr_tail (self));
      break;
    case CONNECTION_PROP_CONNECTING:
      g_value_set_boolean (value, self->connecting);
      break;
    case CONNECTION_PROP_LOG:
      g_value_set_object (value, self->log);
      break;
    case CONNECTION_PROP_LOG_LEVEL:
      g_value_set_string (value, self->log_level);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_server_connection_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);

  switch (prop_id)
    {
    case CONNECTION_PROP_CONFIG:
      self->config = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_server_connection_class_init (McpServerConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_server_connection_dispose;
  object_class->finalize = mcp_server_connection_finalize;
  object_class->get_property = mcp_server_connection_get_property;
  object_class->set_property = mcp_server_connection_set_property;

  properties[CONNECTION_PROP_CONFIG] =
    g_param_spec_object ("config", NULL, NULL, MCP_TYPE_SERVER_CONFIG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       MCP_TYPE_SERVER_STATE, MCP_SERVER_STATE_PENDING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, MCP_TYPE_CLIENT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_RESOURCES] =
    g_param_spec_object ("resources", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_RESOURCE_TEMPLATES] =
    g_param_spec_object ("resource-templates", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_PROMPTS] =
    g_param_spec_object ("prompts", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_STDERR_TAIL] =
    g_param_spec_boxed ("stderr-tail", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_CONNECTING] =
    g_param_spec_boolean ("connecting", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_LOG] =
    g_param_spec_object ("log", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CONNECTION_PROP_LOG_LEVEL] =
    g_param_spec_string ("log-level", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[CONNECTION_PROP_APPROVAL] =
    g_param_spec_enum ("approval", NULL, NULL,
                       MCP_TYPE_APPROVAL, MCP_APPROVAL_NOT_NEEDED,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, CONNECTION_N_PROPS, properties);

  signals[CONNECTION_TOOLS_CHANGED] =
    g_signal_new ("tools-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CONNECTION_MEMO_DROPPED] =
    g_signal_new ("memo-dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CONNECTION_LISTING_USED] =
    g_signal_new ("listing-used", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CONNECTION_RESOURCE_UPDATED] =
    g_signal_new ("resource-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[CONNECTION_TASK_STATUS] =
    g_signal_new ("task-status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MCP_TYPE_TASK);
}

static void
mcp_server_connection_init (McpServerConnection *self)
{
  self->tools = g_list_store_new (MCP_TYPE_TOOL);
  self->resources = g_list_store_new (MCP_TYPE_RESOURCE);
  self->resource_templates = g_list_store_new (MCP_TYPE_RESOURCE_TEMPLATE);
  self->prompts = g_list_store_new (MCP_TYPE_PROMPT);
  self->log = g_list_store_new (MCP_TYPE_LOG_ENTRY);
  self->trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  self->subscriptions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->list_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->connect_timeout = MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
  self->request_timeout = MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS;
  self->max_output_tokens = MCP_DEFAULT_MAX_OUTPUT_TOKENS;
  self->oauth_request_timeout = MCP_OAUTH_REQUEST_TIMEOUT_MS;
  self->backoff_base = 1000;
}
