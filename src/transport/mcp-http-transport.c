/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include "mcp-http-transport.h"
#include "mcp-http-transport-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpHttpTransport, the Streamable HTTP transport: the object, connecting
 * and closing (DELETE of the session). The parts are
 * named in mcp-http-transport-private.h. */

G_DEFINE_FINAL_TYPE (McpHttpTransport, mcp_http_transport, MCP_TYPE_REMOTE_TRANSPORT)

static GParamSpec *properties[N_PROPS];

void
mcp_http_transport_set_string (McpHttpTransport *self,
                               guint             prop_id,
                               const char       *value)
{
  char **field;

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      field = &self->session_id;
      break;
    case PROP_PROTOCOL_VERSION:
      field = &self->protocol_version;
      break;
    case PROP_WWW_AUTHENTICATE:
      field = &self->www_authenticate;
      break;
    default:
      g_assert_not_reached ();
    }

  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}


static gboolean
mcp_http_transport_supports_stateless (McpTransport *transport)
{
  return TRUE;
}

static gboolean
mcp_http_transport_mirrors_param_headers (McpTransport *transport)
{
  return TRUE;
}

static gboolean
check_url (const char  *url,
           GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   /* Translators: %s is the URL as written in the settings, then why
                    * it does not parse. */
                   _("“%s” is not a valid URL: %s"), url, local_error->message);
      return FALSE;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("“%s” is not an http or https URL"), url);
      return FALSE;
    }

  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      /* Translators: %s is a URL. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED, _("“%s” names no host"), url);
      return FALSE;
    }

  return TRUE;
}

static void
mcp_http_transport_connect_async (McpTransport        *transport,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_transport_connect_async);

  if (self->started)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The transport for “%s” was already started"), url_of (self));
      return;
    }
  self->started = TRUE;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!check_url (url_of (self), &error) ||
      !mcp_remote_transport_check_headers (MCP_REMOTE_TRANSPORT (self), &error))
    {
      g_debug ("%s", error->message);
      mcp_transport_emit_closed (transport, error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Nothing to open: the first POST is initialize. */
  self->session = mcp_http_session_new (url_of (self));
  mcp_transport_set_connected (transport);
  g_task_return_boolean (task, TRUE);
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpHttpTransport *self = g_task_get_source_object (task);
  SoupMessage *msg = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body != NULL)
    mcp_http_note_answer (msg, mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  if (body == NULL)
    g_debug ("Could not end the session with “%s”: %s", url_of (self), error->message);
  else if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (msg)))
    g_debug ("“%s” answered DELETE with HTTP %u", url_of (self), soup_message_get_status (msg));

  mcp_http_transport_set_string (self, PROP_SESSION_ID, NULL);
  mcp_transport_emit_closed (MCP_TRANSPORT (self), NULL);
  g_task_return_boolean (task, TRUE);
}

static void
mcp_http_transport_close_async (McpTransport        *transport,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) msg = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_transport_close_async);

  self->closing = TRUE;
  mcp_http_transport_finish_exchanges (self);

  if (mcp_transport_is_closed (transport) || self->session == NULL || self->session_id == NULL)
    {
      mcp_transport_emit_closed (transport, NULL);
      g_task_return_boolean (task, TRUE);
      return;
    }

  msg = soup_message_new (SOUP_METHOD_DELETE, url_of (self));
  mcp_http_apply_headers (msg,
                          mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  soup_message_headers_replace (soup_message_get_request_headers (msg),
                                SESSION_HEADER, self->session_id);
  if (self->protocol_version != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
                                  VERSION_HEADER, self->protocol_version);
  g_task_set_task_data (task, g_object_ref (msg), g_object_unref);
  if (mcp_transport_get_trace (MCP_TRANSPORT (self)) != NULL)
    mcp_trace_record_http (mcp_transport_get_trace (MCP_TRANSPORT (self)), msg, NULL, 0, NULL);
  soup_session_send_and_read_async (self->session, msg, G_PRIORITY_DEFAULT, cancellable,
                                    delete_cb, g_steal_pointer (&task));
}

static void
mcp_http_transport_dispose (GObject *object)
{
  McpHttpTransport *self = (McpHttpTransport *)object;

  mcp_http_transport_finish_exchanges (self);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->dispose (object);
}

static void
mcp_http_transport_finalize (GObject *object)
{
  McpHttpTransport *self = (McpHttpTransport *)object;

  g_clear_pointer (&self->exchanges, g_ptr_array_unref);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);
  g_clear_pointer (&self->www_authenticate, g_free);
  g_clear_pointer (&self->initialize_id, json_node_unref);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->finalize (object);
}

static void
mcp_http_transport_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;

    case PROP_PROTOCOL_VERSION:
      g_value_set_string (value, self->protocol_version);
      break;

    case PROP_WWW_AUTHENTICATE:
      g_value_set_string (value, self->www_authenticate);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_http_transport_class_init (McpHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_http_transport_dispose;
  object_class->finalize = mcp_http_transport_finalize;
  object_class->get_property = mcp_http_transport_get_property;

  transport_class->connect_async = mcp_http_transport_connect_async;
  transport_class->send = mcp_http_transport_send;
  transport_class->supports_stateless = mcp_http_transport_supports_stateless;
  transport_class->mirrors_param_headers = mcp_http_transport_mirrors_param_headers;
  transport_class->close_async = mcp_http_transport_close_async;

  properties[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PROTOCOL_VERSION] =
    g_param_spec_string ("protocol-version", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_WWW_AUTHENTICATE] =
    g_param_spec_string ("www-authenticate", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_http_transport_init (McpHttpTransport *self)
{
  self->exchanges = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_http_exchange_unref);
}

McpTransport *
mcp_http_transport_new (const char         *url,
                        const char * const *headers,
                        McpAuthProvider    *auth_provider)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (!auth_provider || MCP_IS_AUTH_PROVIDER (auth_provider), NULL);

  return g_object_new (MCP_TYPE_HTTP_TRANSPORT,
                       "url", url,
                       "headers", headers,
                       "auth-provider", auth_provider,
                       NULL);
}

const char *
mcp_http_transport_get_url (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return url_of (self);
}

const char *
mcp_http_transport_get_session_id (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->session_id;
}

const char *
mcp_http_transport_get_protocol_version (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->protocol_version;
}

const char *
mcp_http_transport_get_www_authenticate (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->www_authenticate;
}

guint
mcp_http_transport_get_refusal_status (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), 0);

  return self->refusal_status;
}

guint
mcp_http_transport_get_request_timeout (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), 0);

  return mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self));
}

void
mcp_http_transport_set_request_timeout (McpHttpTransport *self,
                                        guint             timeout_ms)
{
  g_return_if_fail (MCP_IS_HTTP_TRANSPORT (self));

  mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (self), timeout_ms);
}
