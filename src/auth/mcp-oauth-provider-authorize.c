/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-pkce.h"
#include "mcp-oauth-redirect-listener.h"
#include "mcp-url-policy.h"

#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider's sign-in in the browser: the authorization URL
 * opened, the code the listener receives exchanged for tokens, and the
 * client and tokens stored. */

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
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  g_clear_pointer (&self->client, mcp_oauth_client_info_free);
  self->client = g_steal_pointer (&data->client);
  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);
  self->metadata = g_steal_pointer (&data->metadata);
  self->loaded = TRUE;
  /* Bound tokens carry their key (data->tokens->dpop_key, set by the code
   * exchange); set_tokens makes self->dpop from it. */
  g_clear_object (&self->sign_in_dpop);
  mcp_oauth_provider_set_tokens (self, data->tokens);
  /* Translators: %s is the server's name */
  mcp_oauth_trace_step (self->session, NULL, "sign-in", MCP_TRACE_STEP_OK,
                        _("Signed in to “%s”; the tokens are stored"), self->server_name);

  /* The tokens are stored: now the browser's page may say "Signed in". */
  if (data->listener != NULL)
    {
      mcp_oauth_redirect_listener_answer_async (data->listener, NULL,
                                                mcp_oauth_provider_sign_in_answered_cb,
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
      mcp_oauth_provider_sign_in_fail (task, error);
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
      mcp_oauth_provider_sign_in_fail (task, error);
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
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        mcp_oauth_trace_step (self->session, NULL, "callback", MCP_TRACE_STEP_FAILED, "%s", error->message);
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  if (iss != NULL)
    /* Translators: the first %s is an address, the second an issuer */
    mcp_oauth_trace_step (self->session, NULL, "callback", MCP_TRACE_STEP_OK,
                          _("The browser came back to “%s” with an authorization code (not shown); "
                            "the state matched and the issuer “%s” is the one expected"),
                          data->redirect_uri, iss);
  else
    /* Translators: %s is an address */
    mcp_oauth_trace_step (self->session, NULL, "callback", MCP_TRACE_STEP_OK,
                          _("The browser came back to “%s” with an authorization code (not shown); "
                            "the state matched"),
                          data->redirect_uri);

  mcp_oauth_exchange_code_async (self->session, data->metadata, data->client, code,
                                 data->verifier, data->redirect_uri, data->scope, self->sign_in_dpop,
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

void
mcp_oauth_provider_sign_in_authorize (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  g_autofree char *url = NULL;
  McpTrace *trace;
  GError *error = NULL;

  data->verifier = mcp_oauth_pkce_verifier_new (&error);
  if (data->verifier == NULL)
    {
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  url = build_authorization_url (data, &error);
  if (url == NULL)
    {
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  /* Discovery checked the endpoint; what reaches a browser is checked here,
   * whatever built it, before anything is opened. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, NULL, &error))
    {
      g_autofree char *reason = g_strdup (error->message);

      g_clear_error (&error);
      /* Translators: the first %s is the server's name, the second why its sign-in address is refused */
      mcp_oauth_provider_sign_in_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
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
  trace = mcp_oauth_session_get_trace (self->session);
  if (trace != NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: %s is an address (the redirect URI) */
      text = g_strdup_printf (_("Opening the authorization URL in the browser (PKCE S256; the answer comes back to “%s”)"),
                              data->redirect_uri);
      mcp_trace_record_auth_step_url (trace, "authorization-url", MCP_TRACE_STEP_INFO, text, url);
    }
  mcp_oauth_redirect_listener_wait_async (data->listener, self->callback_timeout_s,
                                          g_task_get_cancellable (task),
                                          sign_in_callback_cb, g_object_ref (task));
  self->open_url (self, url, self->open_url_data);
}

