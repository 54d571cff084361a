/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include "mcp-http-private.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-tokens.h"

#include "mcp-oauth-private.h"
#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider: the object, its tokens, and the public sign-in and
 * sign-out. Its parts: mcp-oauth-provider-tokens.c (loading what is
 * stored, refreshing), mcp-oauth-provider-challenge.c (answering a 401 or
 * 403), and the sign-in in mcp-oauth-provider-sign-in.c,
 * mcp-oauth-provider-client.c and mcp-oauth-provider-authorize.c. */

G_DEFINE_FINAL_TYPE_WITH_CODE (McpOAuthProvider, mcp_oauth_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_AUTH_PROVIDER,
                                                      mcp_oauth_provider_auth_iface_init))

enum {
  PROP_0,
  PROP_SERVER_NAME,
  PROP_SERVER_URL,
  PROP_SIGNED_IN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
mcp_oauth_provider_notify_signed_in (McpOAuthProvider *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNED_IN]);
}

void
mcp_oauth_provider_set_tokens (McpOAuthProvider     *self,
                               const McpOAuthTokens *tokens)
{
  gboolean was_signed_in = self->tokens != NULL;

  g_clear_pointer (&self->tokens, mcp_oauth_tokens_free);
  if (tokens != NULL)
    self->tokens = mcp_oauth_tokens_copy (tokens);
  self->tokens_changed_at = g_get_monotonic_time ();

  mcp_oauth_provider_dpop_update (self);
  mcp_oauth_provider_schedule_refresh (self);

  if (was_signed_in != (self->tokens != NULL))
    mcp_oauth_provider_notify_signed_in (self);
}

/* Public sign-in and sign-out */

static void
public_sign_in_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mcp_oauth_provider_sign_in_finish_internal (MCP_OAUTH_PROVIDER (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
public_grant_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mcp_oauth_provider_grant_finish (MCP_OAUTH_PROVIDER (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_oauth_provider_sign_in_async (McpOAuthProvider    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_provider_sign_in_async);

  /* client_credentials, jwt_bearer, enterprise: no browser (but an
   * enterprise ID token may come from a sign-in at the IdP). */
  if (mcp_oauth_provider_uses_grant (self))
    {
      mcp_oauth_provider_grant_start (self, NULL, cancellable, public_grant_cb, g_steal_pointer (&task));
      return;
    }

  mcp_oauth_provider_sign_in_start (self, NULL, self->challenge_resource_metadata == NULL,
                                    cancellable, public_sign_in_cb, g_steal_pointer (&task));
}

gboolean
mcp_oauth_provider_sign_in_finish (McpOAuthProvider  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mcp_token_store_clear_finish (MCP_TOKEN_STORE (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_oauth_provider_sign_out_async (McpOAuthProvider    *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_provider_sign_out_async);

  /* Forget at once, so no request after this carries the token. */
  g_clear_pointer (&self->client, mcp_oauth_client_info_free);
  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);
  g_clear_pointer (&self->challenge_resource_metadata, g_free);
  g_clear_pointer (&self->challenge_scope, g_free);
  g_cancellable_cancel (self->refresh_cancellable);
  self->loaded = TRUE;
  mcp_oauth_provider_set_tokens (self, NULL);

  mcp_token_store_clear_async (self->store, self->server_name, self->server_url,
                               cancellable, cleared_cb, g_steal_pointer (&task));
}

gboolean
mcp_oauth_provider_sign_out_finish (McpOAuthProvider  *self,
                                    GAsyncResult      *result,
                                    GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Object */

static void
mcp_oauth_provider_finalize (GObject *object)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);

  g_assert (self->challenge_waiters == NULL);
  g_assert (self->load_waiters == NULL);

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  g_cancellable_cancel (self->refresh_cancellable);
  g_clear_object (&self->refresh_cancellable);

  if (self->open_url_destroy != NULL)
    self->open_url_destroy (self->open_url_data);

  g_free (self->server_name);
  g_free (self->server_url);
  g_clear_pointer (&self->config, json_object_unref);
  g_clear_object (&self->store);
  g_clear_object (&self->session);
  g_free (self->config_client_id);
  g_free (self->client_metadata_url);
  g_free (self->auth_server_metadata_url);
  g_strfreev (self->config_scopes);
  mcp_oauth_free_secret (self->client_secret);
  g_clear_pointer (&self->grant, mcp_oauth_grant_config_free);
  g_clear_error (&self->grant_error);
  g_clear_object (&self->dpop);
  g_clear_object (&self->sign_in_dpop);
  g_clear_pointer (&self->tokens, mcp_oauth_tokens_free);
  g_clear_pointer (&self->client, mcp_oauth_client_info_free);
  g_free (self->challenge_resource_metadata);
  g_free (self->challenge_scope);
  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);

  G_OBJECT_CLASS (mcp_oauth_provider_parent_class)->finalize (object);
}

static void
mcp_oauth_provider_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->server_name);
      break;
    case PROP_SERVER_URL:
      g_value_set_string (value, self->server_url);
      break;
    case PROP_SIGNED_IN:
      g_value_set_boolean (value, self->tokens != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_oauth_provider_class_init (McpOAuthProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_oauth_provider_finalize;
  object_class->get_property = mcp_oauth_provider_get_property;

  properties[PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVER_URL] =
    g_param_spec_string ("server-url", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIGNED_IN] =
    g_param_spec_boolean ("signed-in", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_oauth_provider_init (McpOAuthProvider *self)
{
  self->callback_timeout_s = DEFAULT_CALLBACK_TIMEOUT_S;
  self->refresh_cancellable = g_cancellable_new ();
}

static char *
config_string (JsonObject *config,
               const char *name)
{
  JsonNode *node;

  if (config == NULL)
    return NULL;
  node = json_object_get_member (config, name);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return g_strdup (json_node_get_string (node));
}

McpOAuthProvider *
mcp_oauth_provider_new (const char    *server_name,
                        const char    *server_url,
                        JsonObject    *oauth_config,
                        McpTokenStore *store)
{
  McpOAuthProvider *self;
  JsonNode *node;

  g_return_val_if_fail (server_name != NULL, NULL);
  g_return_val_if_fail (server_url != NULL, NULL);
  g_return_val_if_fail (!store || MCP_IS_TOKEN_STORE (store), NULL);

  self = g_object_new (MCP_TYPE_OAUTH_PROVIDER, NULL);
  self->server_name = g_strdup (server_name);
  self->server_url = g_strdup (server_url);
  self->store = store != NULL ? g_object_ref (store) : g_object_ref (mcp_token_store_get_default ());

  /* Every request of the sign-in is short: the session's timeout bounds
   * each (the metadata, registration and token requests, the probe). */
  self->session = mcp_http_session_new (server_url);
  g_object_set (self->session, "timeout", PROBE_TIMEOUT_S, NULL);

  if (oauth_config != NULL)
    {
      self->config = json_object_ref (oauth_config);
      self->config_client_id = config_string (oauth_config, "clientId");
      self->client_metadata_url = config_string (oauth_config, "clientMetadataUrl");
      self->auth_server_metadata_url = config_string (oauth_config, "authServerMetadataUrl");

      node = json_object_get_member (oauth_config, "callbackPort");
      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
          json_node_get_value_type (node) == G_TYPE_INT64 &&
          json_node_get_int (node) > 0 && json_node_get_int (node) <= 65535)
        self->callback_port = (guint) json_node_get_int (node);

      node = json_object_get_member (oauth_config, "scopes");
      if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              JsonNode *element = json_array_get_element (array, i);

              if (JSON_NODE_HOLDS_VALUE (element) &&
                  json_node_get_value_type (element) == G_TYPE_STRING)
                g_strv_builder_add (builder, json_node_get_string (element));
            }
          self->config_scopes = g_strv_builder_end (builder);
        }
    }

  /* The grant (mcp-oauth-grant.h); a bad one fails every sign-in with
   * what is wrong, rather than falling back to the browser. */
  self->grant = mcp_oauth_grant_config_new_from_json (oauth_config, &self->grant_error);
  if (self->grant == NULL)
    self->grant = mcp_oauth_grant_config_new_from_json (NULL, NULL);
  /* A secret in the settings (from the keyring: ${secret:ID}) is the
   * client's, for the browser sign-in too. */
  if (self->grant->client_secret != NULL)
    self->client_secret = g_strdup (self->grant->client_secret);

  return self;
}

const char *
mcp_oauth_provider_get_server_url (McpOAuthProvider *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), NULL);

  return self->server_url;
}

void
mcp_oauth_provider_set_open_url_func (McpOAuthProvider    *self,
                                      McpOAuthOpenUrlFunc  func,
                                      gpointer             user_data,
                                      GDestroyNotify       destroy)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  if (self->open_url_destroy != NULL)
    self->open_url_destroy (self->open_url_data);
  self->open_url = func;
  self->open_url_data = user_data;
  self->open_url_destroy = destroy;
}

void
mcp_oauth_provider_set_client_secret (McpOAuthProvider *self,
                                      const char       *secret)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  mcp_oauth_free_secret (self->client_secret);
  self->client_secret = g_strdup (secret);
}

void
mcp_oauth_provider_set_request_timeout (McpOAuthProvider *self,
                                        guint             timeout_ms)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));
  g_return_if_fail (timeout_ms > 0);

  mcp_oauth_session_set_request_timeout (self->session, timeout_ms);
}

guint
mcp_oauth_provider_get_request_timeout (McpOAuthProvider *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), 0);

  return mcp_oauth_session_get_request_timeout (self->session);
}

void
mcp_oauth_provider_set_trace (McpOAuthProvider *self,
                              McpTrace         *trace)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));
  g_return_if_fail (trace == NULL || MCP_IS_TRACE (trace));

  mcp_oauth_session_set_trace (self->session, trace);
}

void
mcp_oauth_provider_set_callback_timeout (McpOAuthProvider *self,
                                         guint             seconds)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  self->callback_timeout_s = seconds;
}

gboolean
mcp_oauth_provider_get_signed_in (McpOAuthProvider *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), FALSE);

  return self->tokens != NULL;
}
