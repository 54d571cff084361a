/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-pkce.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-redirect-listener.h"
#include "mcp-oauth-tokens.h"
#include "mcp-url-policy.h"

#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider's sign-in: discovery, the client identity, the
 * authorization in the browser, the code exchange and storage. */

/* The sign-in */

typedef struct
{
  char                     *scope;         /* requested */
  McpOAuthMetadata         *metadata;
  McpOAuthClientInfo       *client;
  gboolean                  client_is_new; /* store it on success */
  /* The store's client for this authorization server, once asked. */
  McpOAuthClientInfo       *stored_client;
  gboolean                  client_looked_up;
  McpOAuthRedirectListener *listener;
  char                     *verifier;      /* secret */
  char                     *state;
  char                     *redirect_uri;
  McpOAuthTokens           *tokens;
  GError                   *failure;       /* returned once the page shows it */
} SignIn;

static void
sign_in_free (SignIn *data)
{
  if (data->listener != NULL)
    mcp_oauth_redirect_listener_stop (data->listener);
  g_clear_object (&data->listener);
  g_free (data->scope);
  g_clear_pointer (&data->metadata, mcp_oauth_metadata_free);
  g_clear_pointer (&data->client, mcp_oauth_client_info_free);
  g_clear_pointer (&data->stored_client, mcp_oauth_client_info_free);
  g_free (data->verifier);
  g_free (data->state);
  g_free (data->redirect_uri);
  g_clear_pointer (&data->tokens, mcp_oauth_tokens_free);
  g_clear_error (&data->failure);
  g_free (data);
}

/* The browser's page has said how the sign-in ended: only now does it end. */
static void
sign_in_answered_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SignIn *data = g_task_get_task_data (task);

  mcp_oauth_redirect_listener_answer_finish (MCP_OAUTH_REDIRECT_LISTENER (object), result, NULL);
  if (data->failure != NULL)
    g_task_return_error (task, g_steal_pointer (&data->failure));
  else
    g_task_return_boolean (task, TRUE);
}

static void
sign_in_fail (GTask  *task,
              GError *error)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);

  /* A server with no metadata at all sent us to the 2025-03-26 default
   * endpoints; when those fail, that is the news. */
  if (error->domain == MCP_ERROR && data->metadata != NULL &&
      data->metadata->resource_metadata_url == NULL &&
      data->metadata->auth_server_metadata_url == NULL)
    /* Translators: the first %s is the server's name, the second an address */
    g_prefix_error (&error, _("“%s” publishes no OAuth metadata (no protected resource metadata, "
                              "no authorization server metadata at %s), and the default endpoints failed: "),
                    self->server_name, data->metadata->issuer);

  /* Errors from below already name what failed; say which server. */
  if (error->domain == MCP_ERROR && strstr (error->message, self->server_name) == NULL)
    g_prefix_error (&error, _("Signing in to “%s” failed: "), self->server_name);

  /* The browser's page, held since the code came, shows the failure. */
  if (data->listener != NULL)
    {
      data->failure = error;
      mcp_oauth_redirect_listener_answer_async (data->listener, error, sign_in_answered_cb,
                                                g_object_ref (task));
      return;
    }

  g_task_return_error (task, error);
}

static void
sign_in_stored_tokens_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  if (!mcp_token_store_store_tokens_finish (MCP_TOKEN_STORE (object), result, &error))
    {
      g_prefix_error (&error, _("Signed in to “%s”, but the tokens could not be stored: "),
                      self->server_name);
      sign_in_fail (task, error);
      return;
    }

  g_clear_pointer (&self->client, mcp_oauth_client_info_free);
  self->client = g_steal_pointer (&data->client);
  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);
  self->metadata = g_steal_pointer (&data->metadata);
  self->loaded = TRUE;
  mcp_oauth_provider_set_tokens (self, data->tokens);

  /* The tokens are stored: now the browser's page may say "Signed in". */
  if (data->listener != NULL)
    {
      mcp_oauth_redirect_listener_answer_async (data->listener, NULL, sign_in_answered_cb,
                                                g_object_ref (task));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
sign_in_store_tokens (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);

  mcp_token_store_store_tokens_async (self->store, self->server_name, self->server_url,
                                      data->tokens, NULL, sign_in_stored_tokens_cb,
                                      g_object_ref (task));
}

static void
sign_in_stored_client_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!mcp_token_store_store_client_finish (MCP_TOKEN_STORE (object), result, &error))
    {
      g_prefix_error (&error, _("Signed in to “%s”, but its OAuth client could not be stored: "),
                      self->server_name);
      sign_in_fail (task, error);
      return;
    }

  sign_in_store_tokens (task);
}

static void
sign_in_exchanged_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->tokens = mcp_oauth_exchange_code_finish (result, &error);
  if (data->tokens == NULL)
    {
      sign_in_fail (task, error);
      return;
    }

  if (data->tokens->token_endpoint == NULL)
    data->tokens->token_endpoint = g_strdup (data->metadata->token_endpoint);
  if (data->tokens->issuer == NULL)
    data->tokens->issuer = g_strdup (data->metadata->issuer);

  /* A client the person configured is stored only when it has a secret to
   * keep; others when they are new. */
  if (data->client_is_new ||
      (data->client->kind == MCP_OAUTH_CLIENT_PRE_REGISTERED && data->client->client_secret != NULL))
    mcp_token_store_store_client_async (self->store, self->server_name, self->server_url,
                                        data->client, NULL, sign_in_stored_client_cb,
                                        g_object_ref (task));
  else
    sign_in_store_tokens (task);
}

static void
sign_in_callback_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  g_autofree char *code = NULL;
  g_autofree char *iss = NULL;
  GError *error = NULL;

  code = mcp_oauth_redirect_listener_wait_finish (MCP_OAUTH_REDIRECT_LISTENER (object),
                                                  result, &iss, &error);
  if (code == NULL)
    {
      sign_in_fail (task, error);
      return;
    }

  mcp_oauth_exchange_code_async (self->session, data->metadata, data->client, code,
                                 data->verifier, data->redirect_uri, data->scope,
                                 g_task_get_cancellable (task), sign_in_exchanged_cb,
                                 g_object_ref (task));
}

static char *
build_authorization_url (SignIn   *data,
                         GError  **error)
{
  g_autofree char *challenge = mcp_oauth_pkce_challenge (data->verifier);
  g_autoptr(GString) url = g_string_new (data->metadata->authorization_endpoint);
  GHashTable *form;
  g_autofree char *query = NULL;

  form = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (form, (char *) "response_type", (char *) "code");
  g_hash_table_insert (form, (char *) "client_id", data->client->client_id);
  g_hash_table_insert (form, (char *) "redirect_uri", data->redirect_uri);
  g_hash_table_insert (form, (char *) "code_challenge", challenge);
  g_hash_table_insert (form, (char *) "code_challenge_method", (char *) "S256");
  g_hash_table_insert (form, (char *) "state", data->state);
  g_hash_table_insert (form, (char *) "resource", data->metadata->resource);
  if (data->scope != NULL && *data->scope != '\0')
    g_hash_table_insert (form, (char *) "scope", data->scope);
  query = soup_form_encode_hash (form);
  g_hash_table_unref (form);

  if (strchr (url->str, '?') != NULL)
    g_string_append_c (url, '&');
  else
    g_string_append_c (url, '?');
  g_string_append (url, query);

  (void) error;
  return g_string_free (g_steal_pointer (&url), FALSE);
}

static void
sign_in_authorize (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  g_autofree char *url = NULL;
  GError *error = NULL;

  data->verifier = mcp_oauth_pkce_verifier_new (&error);
  if (data->verifier == NULL)
    {
      sign_in_fail (task, error);
      return;
    }

  url = build_authorization_url (data, &error);
  if (url == NULL)
    {
      sign_in_fail (task, error);
      return;
    }

  /* Discovery checked the endpoint; what reaches a browser is checked here,
   * whatever built it, before anything is opened. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, NULL, &error))
    {
      g_autofree char *reason = g_strdup (error->message);

      g_clear_error (&error);
      /* Translators: the first %s is the server's name, the second why its sign-in address is refused */
      sign_in_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                       _("The sign-in address of “%s” was refused: %s"),
                                       self->server_name, reason));
      return;
    }

  /* 2026-07-28 "Authorization Response Validation": the issuer recorded
   * with this sign-in's PKCE verifier and state; the listener refuses an
   * answer from another before the code could reach a token endpoint. */
  mcp_oauth_redirect_listener_expect_issuer (data->listener,
                                             mcp_oauth_metadata_get_expected_issuer (data->metadata),
                                             data->metadata->authorization_response_iss_parameter_supported);
  mcp_oauth_redirect_listener_wait_async (data->listener, self->callback_timeout_s,
                                          g_task_get_cancellable (task),
                                          sign_in_callback_cb, g_object_ref (task));
  self->open_url (self, url, self->open_url_data);
}

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
      sign_in_fail (task, error);
      return;
    }

  if (data->client->issuer == NULL)
    data->client->issuer = g_strdup (data->metadata->issuer);
  data->client_is_new = TRUE;

  sign_in_authorize (task);
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

static void sign_in_identify (GTask *task);

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
  sign_in_identify (task);
}

/* Picks the client identity and opens the listener; registers when needed. */
static void
sign_in_identify (GTask *task)
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
      sign_in_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                       _("The authorization server of “%s” (%s) does not offer dynamic client registration; "
                                         "register Plugboard with it and set “oauth.clientId” in the server's settings"),
                                       self->server_name, metadata->issuer ? metadata->issuer : self->server_url));
      return;
    }

  data->state = mcp_oauth_random_string (32, &error);
  if (data->state == NULL)
    {
      sign_in_fail (task, error);
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
      sign_in_fail (task, error);
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

  sign_in_authorize (task);
}

char *
mcp_oauth_provider_union_scopes (const char *a,
                                 const char *b)
{
  g_auto(GStrv) first = g_strsplit (a ? a : "", " ", -1);
  g_auto(GStrv) second = g_strsplit (b ? b : "", " ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) all = NULL;

  for (char **p = first; *p != NULL; p++)
    if (**p != '\0' && g_hash_table_add (seen, *p))
      g_strv_builder_add (builder, *p);
  for (char **p = second; *p != NULL; p++)
    if (**p != '\0' && g_hash_table_add (seen, *p))
      g_strv_builder_add (builder, *p);

  all = g_strv_builder_end (builder);
  if (all[0] == NULL)
    return NULL;
  return g_strjoinv (" ", all);
}

/* TRUE when every scope of @wanted is in @granted (NULL @wanted: TRUE). */
gboolean
mcp_oauth_provider_scope_covers (const char *granted,
                                 const char *wanted)
{
  g_auto(GStrv) have = g_strsplit (granted ? granted : "", " ", -1);
  g_auto(GStrv) want = g_strsplit (wanted ? wanted : "", " ", -1);

  for (char **p = want; *p != NULL; p++)
    if (**p != '\0' && !g_strv_contains ((const char * const *) have, *p))
      return FALSE;
  return TRUE;
}

static void
sign_in_discovered_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->metadata = mcp_oauth_discover_finish (result, &error);
  if (data->metadata == NULL)
    {
      sign_in_fail (task, error);
      return;
    }

  if (!mcp_oauth_metadata_supports_s256 (data->metadata))
    {
      /* Translators: the first %s is the server's name, the second its authorization server's address */
      sign_in_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                       _("The authorization server of “%s” (%s) does not support PKCE with S256, "
                                         "which MCP requires; Plugboard will not sign in to it"),
                                       self->server_name,
                                       data->metadata->issuer ? data->metadata->issuer : self->server_url));
      return;
    }

  /* Scopes: the settings' when given; else the challenge's, else the
   * resource's scopes_supported (spec: "Scope Selection Strategy"). A
   * step-up adds the new scope to what the current token has. */
  if (data->scope == NULL)
    {
      if (self->config_scopes != NULL && self->config_scopes[0] != NULL)
        data->scope = g_strjoinv (" ", self->config_scopes);
      else
        data->scope = mcp_oauth_metadata_pick_scope (data->metadata, self->challenge_scope);
    }

  /* A refresh token spares the person signing in again; 2026-07-28
   * ("Refresh Tokens") allows asking for offline_access only where the
   * authorization server lists it. */
  if (mcp_oauth_metadata_offers_offline_access (data->metadata))
    {
      char *scope = mcp_oauth_provider_union_scopes (data->scope, "offline_access");

      g_free (data->scope);
      data->scope = scope;
    }

  sign_in_identify (task);
}

static void
sign_in_discover (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);

  mcp_oauth_discover_async (self->session, self->server_url, self->challenge_resource_metadata,
                            self->auth_server_metadata_url, g_task_get_cancellable (task),
                            sign_in_discovered_cb, g_object_ref (task));
}

void
mcp_oauth_provider_remember_challenge (McpOAuthProvider *self,
                                       const char       *www_authenticate)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = mcp_auth_parse_www_authenticate (www_authenticate, &params);
  const char *value;

  if (scheme == NULL || g_ascii_strcasecmp (scheme, "Bearer") != 0)
    return;

  value = g_hash_table_lookup (params, "resource_metadata");
  if (value != NULL)
    {
      g_free (self->challenge_resource_metadata);
      self->challenge_resource_metadata = g_strdup (value);
    }
  value = g_hash_table_lookup (params, "scope");
  if (value != NULL)
    {
      g_free (self->challenge_scope);
      self->challenge_scope = g_strdup (value);
    }
}

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* Discovery reports a server that cannot be reached with the URLs
       * it tried. */
      g_debug ("Probing “%s” for its challenge failed: %s", self->server_name, error->message);
    }
  else if (message != NULL && mcp_http_is_auth_challenge (message))
    mcp_oauth_provider_remember_challenge (self,
                        soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                      "WWW-Authenticate"));

  sign_in_discover (task);
}

/* Sign-in without a challenge seen: ask the server for one with an
 * unauthenticated initialize, as a client connecting would. */
static void
sign_in_probe (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  static const char request[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
    "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
    "\"clientInfo\":{\"name\":\"" PACKAGE_NAME "\",\"version\":\"" PACKAGE_VERSION "\"}}}";

  message = soup_message_new (SOUP_METHOD_POST, self->server_url);
  if (message == NULL)
    {
      /* Translators: the first %s is the server's name, the second its URL */
      sign_in_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                       _("The URL of “%s” cannot be used: %s"),
                                       self->server_name, self->server_url));
      return;
    }

  body = g_bytes_new_static (request, sizeof request - 1);
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json, text/event-stream");
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "MCP-Protocol-Version", "2025-11-25");

  soup_session_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT,
                                    g_task_get_cancellable (task), probe_cb, g_object_ref (task));
}

void
mcp_oauth_provider_sign_in_start (McpOAuthProvider    *self,
                                  const char          *scope,
                                  gboolean             probe,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  SignIn *data = g_new0 (SignIn, 1);

  g_task_set_source_tag (task, mcp_oauth_provider_sign_in_start);
  data->scope = g_strdup (scope);
  g_task_set_task_data (task, data, (GDestroyNotify) sign_in_free);

  if (self->open_url == NULL)
    {
      /* Translators: the first %s is the server's name, the second its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("“%s” (%s) needs you to sign in"), self->server_name, self->server_url);
      return;
    }

  if (probe)
    sign_in_probe (task);
  else
    sign_in_discover (task);
}

gboolean
mcp_oauth_provider_sign_in_finish_internal (McpOAuthProvider  *self,
                                            GAsyncResult      *result,
                                            GError           **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
