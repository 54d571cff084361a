/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-grant-private.h"
#include "mcp-oauth-pkce.h"
#include "mcp-oauth-redirect-listener.h"
#include "mcp-oauth-token-request-private.h"
#include "mcp-url-policy.h"

#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider's grants without the authorization-code sign-in
 * (mcp-oauth-grant.h): discovery, a DPoP key when the AS offers DPoP, the
 * grant, and the tokens stored as a sign-in stores them. An enterprise ID
 * token may come from an OpenID sign-in at the IdP in the browser. */

typedef struct
{
  char                     *scope;
  McpOAuthMetadata         *metadata;
  McpOAuthTokens           *tokens;
  /* The OpenID sign-in at the IdP */
  McpOAuthIdpMetadata      *idp;
  McpOAuthRedirectListener *listener;
  char                     *verifier;   /* secret */
  char                     *state;
  char                     *id_token;   /* secret */
} GrantSignIn;

static void
grant_sign_in_free (GrantSignIn *data)
{
  if (data->listener != NULL)
    mcp_oauth_redirect_listener_stop (data->listener);
  g_clear_object (&data->listener);
  g_free (data->scope);
  g_clear_pointer (&data->metadata, mcp_oauth_metadata_free);
  g_clear_pointer (&data->tokens, mcp_oauth_tokens_free);
  g_clear_pointer (&data->idp, mcp_oauth_idp_metadata_free);
  mcp_oauth_free_secret (data->verifier);
  g_free (data->state);
  mcp_oauth_free_secret (data->id_token);
  g_free (data);
}

gboolean
mcp_oauth_provider_uses_grant (McpOAuthProvider *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), FALSE);

  /* A grant the settings got wrong: every sign-in says so. */
  if (self->grant_error != NULL)
    return TRUE;
  return self->grant != NULL && self->grant->kind != MCP_OAUTH_GRANT_AUTHORIZATION_CODE;
}

static void
grant_page_answered_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *failure = g_object_steal_data (G_OBJECT (task), "failure");

  mcp_oauth_redirect_listener_answer_finish (MCP_OAUTH_REDIRECT_LISTENER (object), result, NULL);
  if (failure != NULL)
    g_task_return_error (task, failure);
  else
    g_task_return_boolean (task, TRUE);
}

/* Ends the grant: the IdP's browser page, when one is held, says how. */
static void
grant_end (GTask  *task,
           GError *error)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);

  g_clear_object (&self->sign_in_dpop);

  if (error != NULL)
    {
      if (error->domain == MCP_ERROR && strstr (error->message, self->server_name) == NULL)
        /* Translators: %s is the server's name */
        g_prefix_error (&error, _("Signing in to “%s” failed: "), self->server_name);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        mcp_oauth_trace_step (self->session, NULL, "sign-in", MCP_TRACE_STEP_FAILED, "%s", error->message);
    }

  if (data->listener != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(McpOAuthRedirectListener) listener = g_steal_pointer (&data->listener);

      if (error != NULL)
        g_object_set_data_full (G_OBJECT (task), "failure", error, (GDestroyNotify) g_error_free);
      mcp_oauth_redirect_listener_answer_async (listener, error, grant_page_answered_cb, g_object_ref (task));
      return;
    }

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
grant_stored_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  if (!mcp_token_store_store_tokens_finish (MCP_TOKEN_STORE (object), result, &error))
    {
      /* Translators: %s is the server's name */
      g_prefix_error (&error, _("Signed in to “%s”, but the tokens could not be stored: "), self->server_name);
      grant_end (task, error);
      return;
    }

  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);
  self->metadata = g_steal_pointer (&data->metadata);
  self->loaded = TRUE;
  mcp_oauth_provider_set_tokens (self, data->tokens);
  /* Translators: the first %s is the server's name, the second a grant (“client_credentials”) */
  mcp_oauth_trace_step (self->session, NULL, "sign-in", MCP_TRACE_STEP_OK,
                        _("Signed in to “%s” with the %s grant; the tokens are stored"),
                        self->server_name, mcp_oauth_grant_kind_to_string (self->grant->kind));
  grant_end (task, NULL);
}

static void
grant_ran_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->tokens = mcp_oauth_grant_run_finish (result, &error);
  if (data->tokens == NULL)
    {
      grant_end (task, error);
      return;
    }

  if (data->tokens->token_endpoint == NULL)
    data->tokens->token_endpoint = g_strdup (data->metadata->token_endpoint);
  if (data->tokens->issuer == NULL)
    data->tokens->issuer = g_strdup (data->metadata->issuer);

  mcp_token_store_store_tokens_async (self->store, self->server_name, self->server_url, data->tokens,
                                      NULL, grant_stored_cb, g_object_ref (task));
}

static void
grant_run (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);

  mcp_oauth_grant_run_with_id_token_async (self->session, self->grant, data->metadata, data->scope,
                                           self->sign_in_dpop, data->id_token,
                                           data->idp != NULL ? data->idp->token_endpoint : NULL,
                                           g_task_get_cancellable (task), grant_ran_cb, g_object_ref (task));
}

/* The enterprise ID token from an OpenID sign-in at the IdP */

static void
idp_code_exchanged_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GrantSignIn *data = g_task_get_task_data (task);
  g_autoptr(McpOAuthTokens) answer = NULL;
  GError *error = NULL;

  answer = mcp_oauth_token_request_finish (result, NULL, &error);
  if (answer == NULL)
    {
      grant_end (task, error);
      return;
    }
  data->id_token = g_steal_pointer (&answer->access_token);
  grant_run (task);
}

static void
idp_callback_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);
  const McpOAuthGrantConfig *grant = self->grant;
  g_autofree char *code = NULL;
  McpOAuthClientAuth auth = { 0 };
  GHashTable *form;
  GError *error = NULL;

  code = mcp_oauth_redirect_listener_wait_finish (MCP_OAUTH_REDIRECT_LISTENER (object), result, NULL, &error);
  if (code == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        mcp_oauth_trace_step (self->session, NULL, "callback", MCP_TRACE_STEP_FAILED, "%s", error->message);
      grant_end (task, error);
      return;
    }
  /* Translators: %s is an address */
  mcp_oauth_trace_step (self->session, NULL, "callback", MCP_TRACE_STEP_OK,
                        _("The browser came back from the identity provider to “%s” with an authorization code "
                          "(not shown); the state matched"),
                        mcp_oauth_redirect_listener_get_redirect_uri (data->listener));

  form = mcp_oauth_token_form_new ();
  mcp_oauth_token_form_add (form, "grant_type", "authorization_code");
  mcp_oauth_token_form_add (form, "code", code);
  mcp_oauth_token_form_add (form, "redirect_uri", mcp_oauth_redirect_listener_get_redirect_uri (data->listener));
  mcp_oauth_token_form_add (form, "code_verifier", data->verifier);
  auth.client_id = grant->idp_client_id;
  auth.client_secret = grant->idp_client_secret;
  auth.method = grant->idp_client_secret != NULL ? "client_secret_basic" : "none";
  mcp_oauth_token_request_async (self->session, MCP_OAUTH_TOKEN_REQUEST_ID_TOKEN, "id-token",
                                 _("The sign-in at the identity provider"), data->idp->issuer,
                                 data->idp->token_endpoint, NULL, NULL, &auth, form, NULL,
                                 g_task_get_cancellable (task), idp_code_exchanged_cb, g_object_ref (task));
  explicit_bzero (code, strlen (code));
}

static void
idp_sign_in (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);
  g_autofree char *challenge = NULL;
  g_autofree char *query = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GHashTable) form = NULL;
  McpTrace *trace;
  GError *error = NULL;

  if (data->idp->authorization_endpoint == NULL)
    {
      /* Translators: %s is the identity provider's address */
      grant_end (task, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                    _("The identity provider “%s” names no authorization endpoint to sign in at"),
                                    data->idp->issuer));
      return;
    }

  data->verifier = mcp_oauth_pkce_verifier_new (&error);
  data->state = data->verifier != NULL ? mcp_oauth_random_string (16, &error) : NULL;
  if (data->state != NULL)
    data->listener = mcp_oauth_redirect_listener_new (self->callback_port, data->state, &error);
  if (data->listener == NULL && self->callback_port != 0 && data->state != NULL &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    {
      g_clear_error (&error);
      data->listener = mcp_oauth_redirect_listener_new (0, data->state, &error);
    }
  if (data->listener == NULL)
    {
      grant_end (task, error);
      return;
    }

  challenge = mcp_oauth_pkce_challenge (data->verifier);
  form = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (form, (char *) "response_type", (char *) "code");
  g_hash_table_insert (form, (char *) "client_id", self->grant->idp_client_id);
  g_hash_table_insert (form, (char *) "redirect_uri",
                       (char *) mcp_oauth_redirect_listener_get_redirect_uri (data->listener));
  g_hash_table_insert (form, (char *) "scope", (char *) "openid");
  g_hash_table_insert (form, (char *) "code_challenge", challenge);
  g_hash_table_insert (form, (char *) "code_challenge_method", (char *) "S256");
  g_hash_table_insert (form, (char *) "state", data->state);
  query = soup_form_encode_hash (form);
  url = g_strconcat (data->idp->authorization_endpoint,
                     strchr (data->idp->authorization_endpoint, '?') != NULL ? "&" : "?", query, NULL);

  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, NULL, &error))
    {
      g_prefix_error (&error, _("The identity provider's sign-in address was refused: "));
      grant_end (task, error);
      return;
    }

  trace = mcp_oauth_session_get_trace (self->session);
  if (trace != NULL)
    mcp_trace_record_auth_step_url (trace, "authorization-url", MCP_TRACE_STEP_INFO,
                                    _("Opening the identity provider's sign-in (OpenID Connect, PKCE S256) in the browser"),
                                    url);
  mcp_oauth_redirect_listener_wait_async (data->listener, self->callback_timeout_s, g_task_get_cancellable (task),
                                          idp_callback_cb, g_object_ref (task));
  self->open_url (self, url, self->open_url_data);
}

static void
idp_discovered_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GrantSignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->idp = mcp_oauth_idp_discover_finish (result, &error);
  if (data->idp == NULL)
    {
      grant_end (task, error);
      return;
    }
  idp_sign_in (task);
}

/* Discovery */

static void
grant_discovered_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  GrantSignIn *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->metadata = mcp_oauth_discover_finish (result, &error);
  if (data->metadata == NULL)
    {
      grant_end (task, error);
      return;
    }

  if (data->scope == NULL && self->config_scopes != NULL && self->config_scopes[0] != NULL)
    data->scope = g_strjoinv (" ", self->config_scopes);
  else if (data->scope == NULL)
    data->scope = mcp_oauth_metadata_pick_scope (data->metadata, self->challenge_scope);
  /* Translators: %s is a list of scopes, or empty */
  mcp_oauth_trace_step (self->session, NULL, "scopes", MCP_TRACE_STEP_INFO, _("Requesting “%s”"),
                        data->scope != NULL ? data->scope : "");

  g_clear_object (&self->sign_in_dpop);
  self->sign_in_dpop = mcp_oauth_provider_dpop_for_sign_in (self, data->metadata);

  if (self->grant->kind == MCP_OAUTH_GRANT_ENTERPRISE &&
      self->grant->id_token.kind == MCP_OAUTH_SOURCE_SIGN_IN)
    mcp_oauth_idp_discover_async (self->session, self->grant->idp_issuer, g_task_get_cancellable (task),
                                  idp_discovered_cb, g_object_ref (task));
  else
    grant_run (task);
}

void
mcp_oauth_provider_grant_start (McpOAuthProvider    *self,
                                const char          *scope,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GrantSignIn *data;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_provider_grant_start);
  data = g_new0 (GrantSignIn, 1);
  data->scope = g_strdup (scope);
  g_task_set_task_data (task, data, (GDestroyNotify) grant_sign_in_free);

  if (self->grant_error != NULL)
    {
      GError *error = g_error_copy (self->grant_error);

      /* Translators: the first %s is the server's name, the second what is wrong in its settings */
      g_prefix_error (&error, _("“%s” cannot sign in: its “oauth” settings: "), self->server_name);
      g_task_return_error (task, error);
      return;
    }

  if (self->grant->kind == MCP_OAUTH_GRANT_ENTERPRISE &&
      self->grant->id_token.kind == MCP_OAUTH_SOURCE_SIGN_IN && self->open_url == NULL)
    {
      /* Translators: the first %s is the server's name, the second its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("“%s” (%s) needs you to sign in at your identity provider"),
                               self->server_name, self->server_url);
      return;
    }

  /* Translators: %s is a grant (“client_credentials”) */
  mcp_oauth_trace_step (self->session, NULL, "grant", MCP_TRACE_STEP_INFO,
                        _("Signing in without a browser: the %s grant"),
                        mcp_oauth_grant_kind_to_string (self->grant->kind));
  mcp_oauth_discover_async (self->session, self->server_url, self->challenge_resource_metadata,
                            self->auth_server_metadata_url, cancellable, grant_discovered_cb,
                            g_steal_pointer (&task));
}

gboolean
mcp_oauth_provider_grant_finish (McpOAuthProvider  *self,
                                 GAsyncResult      *result,
                                 GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
