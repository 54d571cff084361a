/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* The GObject of McpClient: its properties and signals, construction and
 * destruction, and the accessors. What a client does is in the other
 * mcp-client-*.c files (see mcp-client-private.h). */

G_DEFINE_FINAL_TYPE (McpClient, mcp_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRANSPORT,
  PROP_STATE,
  PROP_SERVER_INFO,
  PROP_PROTOCOL_VERSION,
  PROP_ERA,
  PROP_REQUEST_TIMEOUT,
  PROP_CONNECT_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static guint signals[MCP_CLIENT_N_SIGNALS];

char *
mcp_client_describe_server (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  if (self->server_info != NULL && mcp_server_info_get_name (self->server_info) != NULL)
    return g_strdup_printf ("“%s”", mcp_server_info_get_name (self->server_info));

  if (self->transport != NULL)
    {
      g_autofree char *desc = mcp_transport_describe (self->transport);

      if (desc != NULL)
        return g_strdup_printf ("“%s”", desc);
    }

  return g_strdup (_("the server"));
}

char *
mcp_client_format_duration (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", ms / 1000),
                            ms / 1000);
  return g_strdup_printf (_("%.1f seconds"), ms / 1000.0);
}

void
mcp_client_set_state (McpClient      *self,
                      McpClientState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
mcp_client_settle (McpClient      *self,
                   McpServerInfo  *info,
                   const char     *version,
                   McpProtocolEra  era)
{
  g_set_object (&self->server_info, info);
  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
  self->era = era;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERVER_INFO]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROTOCOL_VERSION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERA]);
}

void
mcp_client_emit_signal (McpClient       *self,
                        McpClientSignal  signal,
                        ...)
{
  va_list args;

  va_start (args, signal);
  g_signal_emit_valist (self, signals[signal], 0, args);
  va_end (args);
}

McpClient *
mcp_client_new (McpTransport *transport)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (transport), NULL);

  return g_object_new (MCP_TYPE_CLIENT, "transport", transport, NULL);
}

McpTransport *
mcp_client_get_transport (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  return self->transport;
}

McpClientState
mcp_client_get_state (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_CLIENT_STATE_CLOSED);
  return self->state;
}

McpServerInfo *
mcp_client_get_server_info (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  return self->server_info;
}

const char *
mcp_client_get_protocol_version (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  return self->protocol_version;
}

void
mcp_client_set_request_timeout (McpClient *self,
                                guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  if (self->request_timeout_ms == timeout_ms)
    return;

  self->request_timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST_TIMEOUT]);
}

void
mcp_client_set_connect_timeout (McpClient *self,
                                guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  if (self->connect_timeout_ms == timeout_ms)
    return;

  self->connect_timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECT_TIMEOUT]);
}

McpProtocolEra
mcp_client_get_era (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_PROTOCOL_ERA_UNKNOWN);

  return self->era;
}

gint64
mcp_client_get_last_contact (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), 0);

  return self->last_contact;
}

static void
mcp_client_constructed (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  G_OBJECT_CLASS (mcp_client_parent_class)->constructed (object);

  g_assert (self->transport != NULL);

  mcp_client_watch_transport (self);
}

static void
mcp_client_dispose (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  if (self->pending != NULL && g_hash_table_size (self->pending) > 0)
    {
      g_autoptr(GError) error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                                     _("The client was destroyed"));
      mcp_client_fail_pending (self, error);
    }

  if (self->connect_timeout_source != NULL)
    {
      g_source_destroy (self->connect_timeout_source);
      g_clear_pointer (&self->connect_timeout_source, g_source_unref);
    }

  mcp_client_listen_stop (self);
  if (self->listen_waiters != NULL && self->listen_waiters->len > 0)
    {
      g_autoptr(GError) error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                                     _("The client was destroyed"));
      mcp_client_listen_return (self, error);
    }

  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }

  if (self->transport != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->transport, self);
      /* Never leave a server process behind. */
      if (!mcp_transport_is_closed (self->transport))
        mcp_transport_close_async (self->transport, NULL, NULL, NULL);
    }

  g_clear_object (&self->transport);
  g_clear_object (&self->server_info);
  g_clear_object (&self->connect_task);
  /* A handler's user data may hold what owns the client. */
  if (self->request_handlers != NULL)
    g_hash_table_remove_all (self->request_handlers);

  G_OBJECT_CLASS (mcp_client_parent_class)->dispose (object);
}

static void
mcp_client_finalize (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);
  g_clear_pointer (&self->incoming, g_hash_table_unref);
  g_clear_pointer (&self->listen_uris, g_hash_table_unref);
  g_clear_pointer (&self->listed_tools, g_hash_table_unref);
  g_clear_pointer (&self->listen_waiters, g_ptr_array_unref);
  g_clear_pointer (&self->capabilities, json_object_unref);
  g_clear_error (&self->closed_error);
  g_free (self->protocol_version);
  g_free (self->log_level);
  g_free (self->client_name);
  g_free (self->client_version);

  G_OBJECT_CLASS (mcp_client_parent_class)->finalize (object);
}

static void
mcp_client_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  McpClient *self = MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      g_value_set_object (value, self->transport);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_SERVER_INFO:
      g_value_set_object (value, self->server_info);
      break;

    case PROP_PROTOCOL_VERSION:
      g_value_set_string (value, self->protocol_version);
      break;

    case PROP_ERA:
      g_value_set_enum (value, self->era);
      break;

    case PROP_REQUEST_TIMEOUT:
      g_value_set_uint (value, self->request_timeout_ms);
      break;

    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout_ms);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_client_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  McpClient *self = MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      self->transport = g_value_dup_object (value);
      break;

    case PROP_REQUEST_TIMEOUT:
      mcp_client_set_request_timeout (self, g_value_get_uint (value));
      break;

    case PROP_CONNECT_TIMEOUT:
      mcp_client_set_connect_timeout (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_client_class_init (McpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_client_constructed;
  object_class->dispose = mcp_client_dispose;
  object_class->finalize = mcp_client_finalize;
  object_class->get_property = mcp_client_get_property;
  object_class->set_property = mcp_client_set_property;

  properties[PROP_TRANSPORT] =
    g_param_spec_object ("transport", NULL, NULL,
                         MCP_TYPE_TRANSPORT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /* An McpClientState. */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       MCP_TYPE_CLIENT_STATE, MCP_CLIENT_STATE_NEW,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_SERVER_INFO] =
    g_param_spec_object ("server-info", NULL, NULL,
                         MCP_TYPE_SERVER_INFO,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_PROTOCOL_VERSION] =
    g_param_spec_string ("protocol-version", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* An McpProtocolEra: what connect found. */
  properties[PROP_ERA] =
    g_param_spec_enum ("era", NULL, NULL,
                       MCP_TYPE_PROTOCOL_ERA, MCP_PROTOCOL_ERA_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_REQUEST_TIMEOUT] =
    g_param_spec_uint ("request-timeout", NULL, NULL,
                       0, G_MAXUINT, MCP_CLIENT_DEFAULT_REQUEST_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL,
                       0, G_MAXUINT, MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[MCP_CLIENT_SIGNAL_TOOLS_LIST_CHANGED] =
    g_signal_new ("tools-list-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MCP_CLIENT_SIGNAL_RESOURCES_LIST_CHANGED] =
    g_signal_new ("resources-list-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MCP_CLIENT_SIGNAL_PROMPTS_LIST_CHANGED] =
    g_signal_new ("prompts-list-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MCP_CLIENT_SIGNAL_LOG_MESSAGE] =
    g_signal_new ("log-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[MCP_CLIENT_SIGNAL_NOTIFICATION] =
    g_signal_new ("notification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MCP_TYPE_MESSAGE);
  signals[MCP_CLIENT_SIGNAL_SERVER_NOTIFICATION] =
    g_signal_new ("server-notification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[MCP_CLIENT_SIGNAL_WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[MCP_CLIENT_SIGNAL_CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
mcp_client_init (McpClient *self)
{
  self->state = MCP_CLIENT_STATE_NEW;
  self->request_timeout_ms = MCP_CLIENT_DEFAULT_REQUEST_TIMEOUT_MS;
  self->connect_timeout_ms = MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
  self->next_id = 1;
  self->client_name = g_strdup ("plugboard");
  self->client_version = g_strdup (PACKAGE_VERSION);
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->request_handlers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, mcp_client_request_handler_free);
  self->incoming = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, mcp_client_incoming_request_free);
  self->listen_uris = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->listed_tools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->listen_waiters = g_ptr_array_new_with_free_func (g_object_unref);

  self->timer = mcp_client_timer_new (self);
}
