/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-tokens.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-private.h"
#include "mcp-url-policy.h"

/* The token requests (RFC 6749 §4.1.3, §6): a code exchanged for tokens,
 * and tokens refreshed, with the client's authentication. */

typedef struct
{
  SoupMessage *message;
  char        *issuer;
  char        *token_endpoint;
  char        *fallback_scope;
  char        *old_refresh_token;  /* refresh: kept when the answer has none */
  gboolean     refresh;
} TokenRequest;

static void
token_request_free (TokenRequest *t)
{
  g_clear_object (&t->message);
  g_free (t->issuer);
  g_free (t->token_endpoint);
  g_free (t->fallback_scope);
  mcp_oauth_free_secret (t->old_refresh_token);
  g_free (t);
}

/* RFC 6749 §2.3.1: the client id and secret are form-urlencoded before
 * they are joined for HTTP Basic. */
static char *
form_urlencode (const char *text)
{
  g_autofree char *escaped = g_uri_escape_string (text, NULL, FALSE);
  GString *out = g_string_new (NULL);

  for (const char *p = escaped; *p != '\0'; p++)
    {
      if (g_str_has_prefix (p, "%20"))
        {
          g_string_append_c (out, '+');
          p += 2;
        }
      else
        g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* Adds the client's authentication to @form (post, none) or to @message
 * (basic). */
static void
add_client_auth (const McpOAuthClientInfo *client,
                 GHashTable               *form,
                 SoupMessage              *message)
{
  const char *method = client->token_endpoint_auth_method;

  if (client->client_secret != NULL && g_strcmp0 (method, "client_secret_basic") == 0)
    {
      g_autofree char *id = form_urlencode (client->client_id);
      g_autofree char *secret = form_urlencode (client->client_secret);
      g_autofree char *pair = g_strconcat (id, ":", secret, NULL);
      g_autofree char *base64 = g_base64_encode ((const guchar *) pair, strlen (pair));
      g_autofree char *header = g_strconcat ("Basic ", base64, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (message),
                                    "Authorization", header);
      explicit_bzero (secret, strlen (secret));
      explicit_bzero (pair, strlen (pair));
      explicit_bzero (header, strlen (header));
      return;
    }

  g_hash_table_insert (form, g_strdup ("client_id"), g_strdup (client->client_id));

  if (client->client_secret != NULL && g_strcmp0 (method, "client_secret_post") == 0)
    g_hash_table_insert (form, g_strdup ("client_secret"), g_strdup (client->client_secret));
  else if (method != NULL && g_strcmp0 (method, "none") != 0 && g_strcmp0 (method, "client_secret_post") != 0 &&
           g_strcmp0 (method, "client_secret_basic") != 0)
    g_debug ("Unsupported token endpoint auth method “%s”; sending the client id only", method);
}

static gboolean
parse_expires_in (JsonNode *node,
                  gint64   *out)
{
  GType type;

  if (node == NULL)
    return FALSE;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *out = json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *out = (gint64) json_node_get_double (node);
  else if (type == G_TYPE_STRING)
    {
      /* Some servers send a number in a string. */
      if (!g_ascii_string_to_signed (json_node_get_string (node), 10, 0, G_MAXINT32, out, NULL))
        return FALSE;
    }
  else
    return FALSE;

  return *out > 0 && *out <= G_MAXINT32;
}

static const char *
token_request_step (TokenRequest *t)
{
  return t->refresh ? "refresh" : "token-exchange";
}

/* Ends the request with @error (taken), which the trace shows as the
 * failed step. */
static void
token_request_fail (GTask       *task,
                    SoupSession *session,
                    GError      *error)
{
  TokenRequest *t = g_task_get_task_data (task);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    mcp_oauth_trace_step (session, t->message, token_request_step (t), MCP_TRACE_STEP_FAILED,
                          "%s", error->message);
  g_task_return_error (task, error);
}

/* What the token endpoint granted, without a token. */
static void
token_request_step_ok (SoupSession          *session,
                       TokenRequest         *t,
                       const McpOAuthTokens *tokens,
                       gboolean              new_refresh_token)
{
  g_autofree char *expires = NULL;
  g_autofree char *scope = mcp_oauth_sanitize (tokens->scope);
  const char *refresh;

  if (tokens->expires_at > 0)
    /* Translators: %d is a number of seconds */
    expires = g_strdup_printf (_("expires in %d s"),
                               (int) (tokens->expires_at - g_get_real_time () / G_USEC_PER_SEC));
  else
    expires = g_strdup (_("no expiry given"));

  if (new_refresh_token)
    refresh = _("a refresh token");
  else if (tokens->refresh_token != NULL)
    refresh = _("no new refresh token (the old one is kept)");
  else
    refresh = _("no refresh token");

  /* Translators: the first %s is the token endpoint, %u an HTTP status, then “expires in 3600 s”,
   * the scopes granted and whether a refresh token came (tokens are never shown) */
  mcp_oauth_trace_step (session, t->message, token_request_step (t), MCP_TRACE_STEP_OK,
                        _("“%s” answered HTTP %u: an access token of type “Bearer” (not shown), %s; scopes granted: “%s”; %s"),
                        t->token_endpoint, soup_message_get_status (t->message), expires, scope, refresh);
}

static void
token_request_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TokenRequest *t = g_task_get_task_data (task);
  SoupSession *session = SOUP_SESSION (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  JsonObject *answer;
  const char *access_token;
  const char *token_type;
  const char *refresh_token;
  const char *scope;
  gint64 expires_in;
  guint status;

  body = mcp_oauth_send_finish (result, &error);
  if (body == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, "%s", t->refresh ? _("Renewing the sign-in failed: ") : _("Signing in failed: "));
      token_request_fail (task, session, g_steal_pointer (&error));
      return;
    }

  status = soup_message_get_status (t->message);
  if (status != SOUP_STATUS_OK)
    {
      g_autofree char *code = NULL;
      g_autoptr(GError) answer_error = mcp_oauth_answer_error (t->refresh ? _("Token refresh") : _("Token request"),
                                                               t->message, body, &code);

      if (t->refresh && g_strcmp0 (code, "invalid_grant") == 0)
        /* Translators: the first %s is the authorization server, the second the error it answered */
        token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The sign-in at “%s” has expired or was revoked; sign in again (%s)"),
                                 t->issuer != NULL ? t->issuer : t->token_endpoint, answer_error->message));
      else
        token_request_fail (task, session, g_steal_pointer (&answer_error));
      return;
    }

  node = mcp_oauth_parse_object (body, t->token_endpoint, &error);
  if (node == NULL)
    {
      g_prefix_error (&error, "%s", t->refresh ? _("Token refresh failed: ") : _("Token request failed: "));
      token_request_fail (task, session, g_steal_pointer (&error));
      return;
    }

  answer = json_node_get_object (node);
  access_token = mcp_json_optional_string (answer, "access_token", "token answer", t->token_endpoint);
  token_type = mcp_json_optional_string (answer, "token_type", "token answer", t->token_endpoint);
  refresh_token = mcp_json_optional_string (answer, "refresh_token", "token answer", t->token_endpoint);
  scope = mcp_json_optional_string (answer, "scope", "token answer", t->token_endpoint);

  if (access_token == NULL || access_token[0] == '\0')
    {
      token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The token endpoint “%s” answered without an “access_token”"),
                               t->token_endpoint));
      return;
    }

  if (token_type == NULL || g_ascii_strcasecmp (token_type, "bearer") != 0)
    {
      /* The type is not quoted: a confused server may put anything there. */
      if (token_type == NULL)
        token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The token endpoint “%s” answered no token type; only Bearer tokens can be used"),
                                 t->token_endpoint));
      else
        token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The token endpoint “%s” answered a token type other than Bearer; "
                                   "only Bearer tokens can be used"),
                                 t->token_endpoint));
      return;
    }

  tokens = g_new0 (McpOAuthTokens, 1);
  tokens->access_token = g_strdup (access_token);
  tokens->token_type = g_strdup ("Bearer");
  tokens->refresh_token = g_strdup (refresh_token != NULL ? refresh_token : t->old_refresh_token);
  tokens->scope = g_strdup (scope != NULL ? scope : t->fallback_scope);
  tokens->token_endpoint = g_strdup (t->token_endpoint);
  tokens->issuer = g_strdup (t->issuer);
  if (parse_expires_in (json_object_get_member (answer, "expires_in"), &expires_in))
    tokens->expires_at = g_get_real_time () / G_USEC_PER_SEC + expires_in;

  token_request_step_ok (session, t, tokens, refresh_token != NULL);
  g_task_return_pointer (task, g_steal_pointer (&tokens), (GDestroyNotify) mcp_oauth_tokens_free);
}

static void
hash_table_free_secrets (GHashTable *form)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, form);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    explicit_bzero (value, strlen (value));
  g_hash_table_unref (form);
}

/* Takes @form. */
static void
token_request_send (GTask                    *task,
                    SoupSession              *session,
                    const McpOAuthClientInfo *client,
                    GHashTable               *form)
{
  TokenRequest *t = g_task_get_task_data (task);
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) policy_error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *encoded;

  /* A code, a verifier or a refresh token goes there: https, or http to
   * this computer only. */
  if (t->token_endpoint != NULL &&
      !mcp_url_policy_check (t->token_endpoint, MCP_URL_USE_FETCH, NULL, &policy_error))
    {
      hash_table_free_secrets (form);
      /* Translators: %s says why the address is refused */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("Token request refused: %s"), policy_error->message);
      g_object_unref (task);
      return;
    }

  uri = t->token_endpoint != NULL ? g_uri_parse (t->token_endpoint, SOUP_HTTP_URI_FLAGS, NULL) : NULL;
  if (uri == NULL ||
      (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 && g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      g_autofree char *valid = mcp_oauth_sanitize (t->token_endpoint);

      hash_table_free_secrets (form);
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The token endpoint “%s” is not a valid URL; sign in again"), valid);
      g_object_unref (task);
      return;
    }

  t->message = soup_message_new_from_uri (SOUP_METHOD_POST, uri);
  add_client_auth (client, form, t->message);

  encoded = soup_form_encode_hash (form);
  hash_table_free_secrets (form);
  bytes = g_bytes_new_with_free_func (encoded, strlen (encoded), (GDestroyNotify) mcp_oauth_free_secret, encoded);
  soup_message_headers_replace (soup_message_get_request_headers (t->message), "Accept", "application/json");

  mcp_oauth_send_async (session, t->message, "application/x-www-form-urlencoded", bytes,
                        g_task_get_cancellable (task), token_request_cb, task);
}

static GHashTable *
form_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* A token request's task, with its TokenRequest; its form follows. */
static GTask *
token_request_new (gpointer             source_tag,
                   const char          *issuer,
                   const char          *token_endpoint,
                   const char          *fallback_scope,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  TokenRequest *t = g_new0 (TokenRequest, 1);

  g_task_set_source_tag (task, source_tag);
  t->issuer = g_strdup (issuer);
  t->token_endpoint = g_strdup (token_endpoint);
  t->fallback_scope = g_strdup (fallback_scope);
  g_task_set_task_data (task, t, (GDestroyNotify) token_request_free);

  return task;
}

static McpOAuthTokens *
token_request_finish (GAsyncResult  *result,
                      gpointer       source_tag,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_oauth_exchange_code_async (SoupSession              *session,
                               const McpOAuthMetadata   *metadata,
                               const McpOAuthClientInfo *client,
                               const char               *code,
                               const char               *code_verifier,
                               const char               *redirect_uri,
                               const char               *requested_scope,
                               McpDPoP                  *dpop,
                               GCancellable             *cancellable,
                               GAsyncReadyCallback       callback,
                               gpointer                  user_data)
{
  GTask *task;
  GHashTable *form;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (metadata != NULL);
  g_return_if_fail (client != NULL && client->client_id != NULL);
  g_return_if_fail (code != NULL);
  g_return_if_fail (code_verifier != NULL);
  g_return_if_fail (redirect_uri != NULL);

  task = token_request_new (mcp_oauth_exchange_code_async, metadata->issuer, metadata->token_endpoint,
                            requested_scope, cancellable, callback, user_data);

  form = form_new ();
  g_hash_table_insert (form, g_strdup ("grant_type"), g_strdup ("authorization_code"));
  g_hash_table_insert (form, g_strdup ("code"), g_strdup (code));
  g_hash_table_insert (form, g_strdup ("redirect_uri"), g_strdup (redirect_uri));
  g_hash_table_insert (form, g_strdup ("code_verifier"), g_strdup (code_verifier));
  if (metadata->resource != NULL)
    g_hash_table_insert (form, g_strdup ("resource"), g_strdup (metadata->resource));

  token_request_send (task, session, client, form);
}

McpOAuthTokens *
mcp_oauth_exchange_code_finish (GAsyncResult  *result,
                                GError       **error)
{
  return token_request_finish (result, mcp_oauth_exchange_code_async, error);
}

void
mcp_oauth_refresh_async (SoupSession              *session,
                         const McpOAuthTokens     *tokens,
                         const McpOAuthClientInfo *client,
                         const char               *resource,
                         McpDPoP                  *dpop,
                         GCancellable             *cancellable,
                         GAsyncReadyCallback       callback,
                         gpointer                  user_data)
{
  GTask *task;
  TokenRequest *t;
  GHashTable *form;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (tokens != NULL);
  g_return_if_fail (client != NULL && client->client_id != NULL);

  task = token_request_new (mcp_oauth_refresh_async, tokens->issuer, tokens->token_endpoint,
                            tokens->scope, cancellable, callback, user_data);
  t = g_task_get_task_data (task);
  t->refresh = TRUE;
  t->old_refresh_token = g_strdup (tokens->refresh_token);

  if (tokens->refresh_token == NULL)
    {
      if (tokens->issuer != NULL)
        token_request_fail (task, session,
                            g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                         _("The sign-in at “%s” cannot be renewed (no refresh token); sign in again"),
                                         tokens->issuer));
      else
        token_request_fail (task, session,
                            g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                                 _("The sign-in at the server cannot be renewed (no refresh token); sign in again")));
      g_object_unref (task);
      return;
    }

  form = form_new ();
  g_hash_table_insert (form, g_strdup ("grant_type"), g_strdup ("refresh_token"));
  g_hash_table_insert (form, g_strdup ("refresh_token"), g_strdup (tokens->refresh_token));
  if (resource != NULL)
    g_hash_table_insert (form, g_strdup ("resource"), g_strdup (resource));

  token_request_send (task, session, client, form);
}

McpOAuthTokens *
mcp_oauth_refresh_finish (GAsyncResult  *result,
                          GError       **error)
{
  return token_request_finish (result, mcp_oauth_refresh_async, error);
}
