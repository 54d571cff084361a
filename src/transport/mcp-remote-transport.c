/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-remote-transport"

#include "config.h"

#include "mcp-remote-transport.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-http-transport.h"

typedef struct
{
  /* Owned references */
  char            *url;
  GStrv            headers;
  McpAuthProvider *auth_provider;

  guint            request_timeout;
} McpRemoteTransportPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (McpRemoteTransport, mcp_remote_transport, MCP_TYPE_TRANSPORT)

enum {
  PROP_0,
  PROP_URL,
  PROP_HEADERS,
  PROP_AUTH_PROVIDER,
  PROP_REQUEST_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Every remote transport finishes connect and close with a boolean GTask. */
static gboolean
mcp_remote_transport_task_finish (McpTransport  *transport,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
mcp_remote_transport_describe (McpTransport *transport)
{
  McpRemoteTransport *self = MCP_REMOTE_TRANSPORT (transport);
  McpRemoteTransportPrivate *priv = mcp_remote_transport_get_instance_private (self);
  g_autoptr(GUri) uri = NULL;

  if (priv->url == NULL)
    return g_strdup ("");

  uri = g_uri_parse (priv->url, G_URI_FLAGS_ENCODED, NULL);

  /* Never show a password or a query (it may hold a token). */
  if (uri != NULL && (g_uri_get_userinfo (uri) != NULL || g_uri_get_query (uri) != NULL))
    {
      g_autoptr(GUri) shown = g_uri_build (G_URI_FLAGS_ENCODED,
                                          g_uri_get_scheme (uri), NULL,
                                          g_uri_get_host (uri), g_uri_get_port (uri),
                                          g_uri_get_path (uri), NULL, NULL);

      return g_uri_to_string (shown);
    }

  return g_strdup (priv->url);
}

static void
mcp_remote_transport_dispose (GObject *object)
{
  McpRemoteTransport *self = (McpRemoteTransport *)object;
  McpRemoteTransportPrivate *priv = mcp_remote_transport_get_instance_private (self);

  g_clear_object (&priv->auth_provider);

  G_OBJECT_CLASS (mcp_remote_transport_parent_class)->dispose (object);
}

static void
mcp_remote_transport_finalize (GObject *object)
{
  McpRemoteTransport *self = (McpRemoteTransport *)object;
  McpRemoteTransportPrivate *priv = mcp_remote_transport_get_instance_private (self);

  g_clear_pointer (&priv->url, g_free);
  g_clear_pointer (&priv->headers, g_strfreev);

  G_OBJECT_CLASS (mcp_remote_transport_parent_class)->finalize (object);
}

static void
mcp_remote_transport_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  McpRemoteTransport *self = MCP_REMOTE_TRANSPORT (object);
  McpRemoteTransportPrivate *priv = mcp_remote_transport_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_URL:
      g_value_set_string (value, priv->url);
      break;

    case PROP_HEADERS:
      g_value_set_boxed (value, priv->headers);
      break;

    case PROP_AUTH_PROVIDER:
      g_value_set_object (value, priv->auth_provider);
      break;

    case PROP_REQUEST_TIMEOUT:
      g_value_set_uint (value, priv->request_timeout);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_remote_transport_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  McpRemoteTransport *self = MCP_REMOTE_TRANSPORT (object);
  McpRemoteTransportPrivate *priv = mcp_remote_transport_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_URL:
      priv->url = g_value_dup_string (value);
      break;

    case PROP_HEADERS:
      priv->headers = g_value_dup_boxed (value);
      break;

    case PROP_AUTH_PROVIDER:
      priv->auth_provider = g_value_dup_object (value);
      break;

    case PROP_REQUEST_TIMEOUT:
      mcp_remote_transport_set_request_timeout (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_remote_transport_class_init (McpRemoteTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_remote_transport_dispose;
  object_class->finalize = mcp_remote_transport_finalize;
  object_class->get_property = mcp_remote_transport_get_property;
  object_class->set_property = mcp_remote_transport_set_property;

  transport_class->connect_finish = mcp_remote_transport_task_finish;
  transport_class->close_finish = mcp_remote_transport_task_finish;
  transport_class->describe = mcp_remote_transport_describe;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_HEADERS] =
    g_param_spec_boxed ("headers", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_AUTH_PROVIDER] =
    g_param_spec_object ("auth-provider", NULL, NULL,
                         MCP_TYPE_AUTH_PROVIDER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_REQUEST_TIMEOUT] =
    g_param_spec_uint ("request-timeout", NULL, NULL,
                       0, G_MAXUINT, MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_remote_transport_init (McpRemoteTransport *self)
{
  McpRemoteTransportPrivate *priv = mcp_remote_transport_get_instance_private (self);

  priv->request_timeout = MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS;
}

const char *
mcp_remote_transport_get_url (McpRemoteTransport *self)
{
  McpRemoteTransportPrivate *priv;

  g_return_val_if_fail (MCP_IS_REMOTE_TRANSPORT (self), NULL);

  priv = mcp_remote_transport_get_instance_private (self);
  return priv->url;
}

const char * const *
mcp_remote_transport_get_headers (McpRemoteTransport *self)
{
  McpRemoteTransportPrivate *priv;

  g_return_val_if_fail (MCP_IS_REMOTE_TRANSPORT (self), NULL);

  priv = mcp_remote_transport_get_instance_private (self);
  return (const char * const *) priv->headers;
}

McpAuthProvider *
mcp_remote_transport_get_auth_provider (McpRemoteTransport *self)
{
  McpRemoteTransportPrivate *priv;

  g_return_val_if_fail (MCP_IS_REMOTE_TRANSPORT (self), NULL);

  priv = mcp_remote_transport_get_instance_private (self);
  return priv->auth_provider;
}

guint
mcp_remote_transport_get_request_timeout (McpRemoteTransport *self)
{
  McpRemoteTransportPrivate *priv;

  g_return_val_if_fail (MCP_IS_REMOTE_TRANSPORT (self), 0);

  priv = mcp_remote_transport_get_instance_private (self);
  return priv->request_timeout;
}

void
mcp_remote_transport_set_request_timeout (McpRemoteTransport *self,
                                          guint               timeout_ms)
{
  McpRemoteTransportPrivate *priv;

  g_return_if_fail (MCP_IS_REMOTE_TRANSPORT (self));

  priv = mcp_remote_transport_get_instance_private (self);
  if (priv->request_timeout == timeout_ms)
    return;

  priv->request_timeout = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST_TIMEOUT]);
}

gboolean
mcp_remote_transport_check_headers (McpRemoteTransport  *self,
                                    GError             **error)
{
  McpRemoteTransportPrivate *priv;

  g_return_val_if_fail (MCP_IS_REMOTE_TRANSPORT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  priv = mcp_remote_transport_get_instance_private (self);
  for (guint i = 0; priv->headers != NULL && priv->headers[i] != NULL; i++)
    {
      const char *header = priv->headers[i];
      const char *colon = strchr (header, ':');
      g_autofree char *name = NULL;
      gboolean valid = colon != NULL && colon != header;

      if (valid)
        {
          name = g_strstrip (g_strndup (header, (gsize) (colon - header)));
          valid = name[0] != '\0' &&
                  strpbrk (name, " \t\r\n()<>@,;:\\\"/[]?={}") == NULL &&
                  strpbrk (colon + 1, "\r\n") == NULL;
        }

      if (!valid)
        {
          /* Neither name nor value is shown: the value may be a secret. */
          g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                       /* Translators: %u is the header's position in the server's
                        * settings (1 for the first), %s the server's URL; “Name: value”
                        * shows the expected form of an HTTP header. */
                       _("Header %u for “%s” is not “Name: value”"),
                       i + 1, priv->url);
          return FALSE;
        }
    }

  return TRUE;
}
