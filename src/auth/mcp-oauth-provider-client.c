/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-pkce.h"
#include "mcp-oauth-redirect-listener.h"

#include "mcp-oauth-provider-private.h"

/* The client identity of McpOAuthProvider's sign-in: the configured
 * client, a client ID metadata document, a client registered before, or a
 * new registration; and the loopback listener its redirect URI names. */

static void
sign_in_registered_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->client = mcp_oauth_register_client_finish (result, &error);
  if (data->client == NULL)
    {
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  if (data->client->issuer == NULL)
    data->client->issuer = g_strdup (data->metadata->issuer);
  data->client_is_new = TRUE;

  mcp_oauth_provider_sign_in_authorize (task);
}

static guint
port_of_redirect_uri (const char *redirect_uri)
{
  g_autoptr(GUri) uri = NULL;

  if (redirect_uri == NULL)
    return 0;
  uri = g_uri_parse (redirect_uri, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_uri_get_port (uri) <= 0)
    return 0;
  return (guint) g_uri_get_port (uri);
}

/* A dynamically registered client of this sign-in's authorization server
 * that is still good: the one in memory or the store's. A client_id is
 * only valid at the server that issued it (SEP-2352), so one of another
 * issuer is never used. */
static const McpOAuthClientInfo *
remembered_client (McpOAuthProvider *self,
                   SignIn           *data)
{
  const McpOAuthClientInfo *candidates[] = { self->client, data->stored_client };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      const McpOAuthClientInfo *client = candidates[i];

      if (client != NULL && client->kind == MCP_OAUTH_CLIENT_DYNAMIC &&
          data->metadata->issuer != NULL &&
          g_strcmp0 (client->issuer, data->metadata->issuer) == 0 &&
          (client->client_secret_expires_at == 0 ||
           client->client_secret_expires_at > g_get_real_time () / G_USEC_PER_SEC + 60))
        return client;
    }
  return NULL;
}

static void
sign_in_client_found_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  data->stored_client = mcp_token_store_lookup_issuer_client_finish (MCP_TOKEN_STORE (object),
                                                                     result, &error);
  /* An unreadable record is replaced by the registration that follows. */
  if (error != NULL)
    g_debug ("Could not read the stored client of “%s” at “%s”: %s",
             self->server_name, data->metadata->issuer, error->message);

  if (g_task_return_error_if_cancelled (task))
    return;
  mcp_oauth_provider_sign_in_identify (task);
}

/* The client identity chosen, in the trace (a registration records its
 * own step). */
static void
trace_client (McpOAuthProvider         *self,
              const McpOAuthClientInfo *client)
{
  const char *secret = client->client_secret != NULL ? _("with a client secret (not shown)")
                                                     : _("without a client secret");

  switch (client->kind)
    {
    case MCP_OAUTH_CLIENT_PRE_REGISTERED:
      /* Translators: the first %s is a client ID, the second says whether a secret is used */
      mcp_oauth_trace_step (self->session, NULL, "client-registration", MCP_TRACE_STEP_OK,
                            _("Pre-registered client “%s” from “oauth.clientId” in the server's settings, %s"),
                            client->client_id, secret);
      break;

    case MCP_OAUTH_CLIENT_METADATA_DOCUMENT:
      /* Translators: %s is an address */
      mcp_oauth_trace_step (self->session, NULL, "client-id-metadata-document", MCP_TRACE_STEP_OK,
                            _("The client ID is the client ID metadata document “%s”, which the authorization "
                              "server supports; no registration needed"),
                            client->client_id);
      break;

    case MCP_OAUTH_CLIENT_DYNAMIC:
    default:
      /* Translators: the first %s is a client ID, the second an address, the third says whether
       * a secret is used */
      mcp_oauth_trace_step (self->session, NULL, "client-registration", MCP_TRACE_STEP_OK,
                            _("Reusing client “%s”, registered before at “%s”, %s"),
                            client->client_id, client->issuer ? client->issuer : "", secret);
      break;
    }
}

/* Picks the client identity and opens the listener; registers when needed. */
void
mcp_oauth_provider_sign_in_identify (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  McpOAuthMetadata *metadata = data->metadata;
  const McpOAuthClientInfo *remembered = NULL;
  gboolean need_registration = FALSE;
  guint port = self->callback_port;
  GError *error = NULL;

  if (self->config_client_id != NULL)
    {
      const char *secret = self->client_secret;

      if (secret == NULL && self->client != NULL &&
          g_strcmp0 (self->client->client_id, self->config_client_id) == 0)
        secret = self->client->client_secret;

      data->client = g_new0 (McpOAuthClientInfo, 1);
      data->client->kind = MCP_OAUTH_CLIENT_PRE_REGISTERED;
      data->client->issuer = g_strdup (metadata->issuer);
      data->client->client_id = g_strdup (self->config_client_id);
      data->client->client_secret = g_strdup (secret);
      data->client->token_endpoint_auth_method =
        g_strdup (mcp_oauth_pick_token_endpoint_auth_method (metadata, secret != NULL));
    }
  else if (metadata->client_id_metadata_document_supported && self->client_metadata_url != NULL)
    {
      data->client = g_new0 (McpOAuthClientInfo, 1);
      data->client->kind = MCP_OAUTH_CLIENT_METADATA_DOCUMENT;
      data->client->issuer = g_strdup (metadata->issuer);
      data->client->client_id = g_strdup (self->client_metadata_url);
      data->client->token_endpoint_auth_method = g_strdup ("none");
    }
  else if ((remembered = remembered_client (self, data)) != NULL)
    {
      data->client = mcp_oauth_client_info_copy (remembered);
      /* Strict servers want the registered redirect URI exactly. */
      if (port == 0)
        port = port_of_redirect_uri (data->client->redirect_uri);
    }
  else if (!data->client_looked_up && metadata->issuer != NULL)
    {
      /* The store keeps a client per authorization server: one registered
       * here before, perhaps before the server moved away and back. */
      data->client_looked_up = TRUE;
      mcp_token_store_lookup_issuer_client_async (self->store, self->server_name, self->server_url,
                                                  metadata->issuer, g_task_get_cancellable (task),
                                                  sign_in_client_found_cb, g_object_ref (task));
      return;
    }
  else if (metadata->registration_endpoint != NULL)
    need_registration = TRUE;
  else
    {
      /* Translators: the first %s is the server's name, the second its authorization server's address */
      error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                           _("The authorization server of “%s” (%s) does not offer dynamic client registration; "
                             "register Plugboard with it and set “oauth.clientId” in the server's settings"),
                           self->server_name, metadata->issuer ? metadata->issuer : self->server_url);
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  if (!need_registration)
    trace_client (self, data->client);

  data->state = mcp_oauth_random_string (32, &error);
  if (data->state == NULL)
    {
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  data->listener = mcp_oauth_redirect_listener_new (port, data->state, &error);
  if (data->listener == NULL && port != self->callback_port &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    {
      /* The remembered client's port is taken: register anew on another. */
      g_clear_error (&error);
      g_clear_pointer (&data->client, mcp_oauth_client_info_free);
      need_registration = metadata->registration_endpoint != NULL;
      data->listener = mcp_oauth_redirect_listener_new (0, data->state, &error);
      if (data->listener != NULL && !need_registration)
        {
          mcp_oauth_redirect_listener_stop (data->listener);
          g_clear_object (&data->listener);
          /* Translators: %u is a port number, %s the server's name */
          error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The sign-in port %u of “%s” is taken by another program and its authorization server cannot register a new one"),
                               port, self->server_name);
        }
    }
  if (data->listener == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
        g_prefix_error (&error, _("Cannot receive the sign-in answer for “%s” (set another “oauth.callbackPort”): "),
                        self->server_name);
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }
  data->redirect_uri = g_strdup (mcp_oauth_redirect_listener_get_redirect_uri (data->listener));

  if (need_registration)
    {
      mcp_oauth_register_client_async (self->session, metadata, data->redirect_uri, data->scope,
                                       g_task_get_cancellable (task), sign_in_registered_cb,
                                       g_object_ref (task));
      return;
    }

  mcp_oauth_provider_sign_in_authorize (task);
}

