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
#include "mcp-oauth-token-request-private.h"
#include "mcp-url-policy.h"

/* The token requests (RFC 6749 §4.1.3, §6): a code exchanged for tokens,
 * and tokens refreshed, with the client's authentication. */

typedef struct
{
  McpOAuthTokenRequestKind  kind;
  SoupMessage              *message;
  char                     *step;
  char                     *what;
  char                     *issuer;
  char                     *token_endpoint;
  char                     *fallback_scope;
  char                     *old_refresh_token;  /* refresh: kept when the answer has none */
  gboolean                  refresh;
  /* The client's authentication, owned copies */
  char                     *client_id;
  char                     *client_secret;      /* secret */
  char                     *method;
  McpJoseKey               *assertion_key;
  char                     *assertion_audience;
  GHashTable               *form;               /* values are secrets */
  McpDPoP                  *dpop;
  gboolean                  nonce_retried;
  char                     *oauth_error;
} TokenRequest;

static void
hash_table_free_secrets (GHashTable *form)
{
  GHashTableIter iter;
  gpointer value;

  if (form == NULL)
    return;
  g_hash_table_iter_init (&iter, form);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    explicit_bzero (value, strlen (value));
  g_hash_table_unref (form);
}

static void
token_request_free (TokenRequest *t)
{
  g_clear_object (&t->message);
  g_free (t->step);
  g_free (t->what);
  g_free (t->issuer);
  g_free (t->token_endpoint);
  g_free (t->fallback_scope);
  mcp_oauth_free_secret (t->old_refresh_token);
  g_free (t->client_id);
  mcp_oauth_free_secret (t->client_secret);
  g_free (t->method);
  g_clear_pointer (&t->assertion_key, mcp_jose_key_unref);
  g_free (t->assertion_audience);
  hash_table_free_secrets (t->form);
  g_clear_object (&t->dpop);
  g_free (t->oauth_error);
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

/* RFC 7523 §2.2 / §3: a fresh client assertion (a new "jti" each time). */
static char *
make_client_assertion (TokenRequest  *t,
                       GError       **error)
{
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(JsonObject) header = json_object_new ();
  g_autofree char *jti = mcp_jose_random_id ();
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  json_object_set_string_member (header, "typ", "JWT");
  json_object_set_string_member (claims, "iss", t->client_id);
  json_object_set_string_member (claims, "sub", t->client_id);
  json_object_set_string_member (claims, "aud", t->assertion_audience != NULL
                                                ? t->assertion_audience : t->token_endpoint);
  json_object_set_int_member (claims, "iat", now);
  json_object_set_int_member (claims, "exp", now + 300);
  json_object_set_string_member (claims, "jti", jti);

  return mcp_jose_sign (t->assertion_key, header, claims, error);
}

/* Adds the client's authentication to @form (post, none, private_key_jwt)
 * or to @message (basic). */
static gboolean
add_client_auth (TokenRequest  *t,
                 GHashTable    *form,
                 SoupMessage   *message,
                 GError       **error)
{
  const char *method = t->method;

  if (t->client_id == NULL)
    return TRUE;

  if (t->client_secret != NULL && g_strcmp0 (method, "client_secret_basic") == 0)
    {
      g_autofree char *id = form_urlencode (t->client_id);
      g_autofree char *secret = form_urlencode (t->client_secret);
      g_autofree char *pair = g_strconcat (id, ":", secret, NULL);
      g_autofree char *base64 = g_base64_encode ((const guchar *) pair, strlen (pair));
      g_autofree char *header = g_strconcat ("Basic ", base64, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (message),
                                    "Authorization", header);
      explicit_bzero (secret, strlen (secret));
      explicit_bzero (pair, strlen (pair));
      explicit_bzero (base64, strlen (base64));
      explicit_bzero (header, strlen (header));
      return TRUE;
    }

  mcp_oauth_token_form_add (form, "client_id", t->client_id);

  if (g_strcmp0 (method, "private_key_jwt") == 0)
    {
      char *assertion;

      if (t->assertion_key == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                       /* Translators: %s is a token endpoint's address */
                       _("The client authenticates at “%s” with a signed assertion (private_key_jwt), "
                         "but no private key is configured (“oauth.privateKey”)"),
                       t->token_endpoint);
          return FALSE;
        }
      assertion = make_client_assertion (t, error);
      if (assertion == NULL)
        {
          g_prefix_error (error, _("Signing the client assertion failed: "));
          return FALSE;
        }
      mcp_oauth_token_form_add (form, "client_assertion_type", MCP_OAUTH_ASSERTION_TYPE_JWT_BEARER);
      g_hash_table_insert (form, g_strdup ("client_assertion"), assertion);
    }
  else if (t->client_secret != NULL && g_strcmp0 (method, "client_secret_post") == 0)
    mcp_oauth_token_form_add (form, "client_secret", t->client_secret);
  else if (method != NULL && g_strcmp0 (method, "none") != 0 && g_strcmp0 (method, "client_secret_post") != 0 &&
           g_strcmp0 (method, "client_secret_basic") != 0)
    g_debug ("Unsupported token endpoint auth method “%s”; sending the client id only", method);

  return TRUE;
}

static gboolean
parse_expires_in (JsonNode *node,
                  gint64   *out)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
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

/* Ends the request with @error (taken), which the trace shows as the
 * failed step. */
static void
token_request_fail (GTask       *task,
                    SoupSession *session,
                    GError      *error)
{
  TokenRequest *t = g_task_get_task_data (task);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    mcp_oauth_trace_step (session, t->message, t->step, MCP_TRACE_STEP_FAILED,
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

  if (t->kind == MCP_OAUTH_TOKEN_REQUEST_ID_TOKEN)
    {
      /* Translators: the first %s is the identity provider's token endpoint, %u an HTTP status */
      mcp_oauth_trace_step (session, t->message, t->step, MCP_TRACE_STEP_OK,
                            _("“%s” answered HTTP %u: an ID token (not shown)"),
                            t->token_endpoint, soup_message_get_status (t->message));
      return;
    }
  if (t->kind == MCP_OAUTH_TOKEN_REQUEST_ID_JAG)
    {
      /* Translators: the first %s is the identity provider's token endpoint, %u an HTTP status */
      mcp_oauth_trace_step (session, t->message, t->step, MCP_TRACE_STEP_OK,
                            _("“%s” answered HTTP %u: an identity assertion authorization grant (ID-JAG, not shown)"),
                            t->token_endpoint, soup_message_get_status (t->message));
      return;
    }

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

  /* Translators: the first %s is the token endpoint, %u an HTTP status, then the token type
   * (“Bearer” or “DPoP”), “expires in 3600 s”, the scopes granted and whether a refresh token
   * came (tokens are never shown) */
  mcp_oauth_trace_step (session, t->message, t->step, MCP_TRACE_STEP_OK,
                        _("“%s” answered HTTP %u: an access token of type “%s” (not shown), %s; scopes granted: “%s”; %s"),
                        t->token_endpoint, soup_message_get_status (t->message), tokens->token_type,
                        expires, scope, refresh);
}

static void token_request_post (GTask *task, SoupSession *session);

/* The answer's token type: TRUE with *bound set when it is usable. */
static gboolean
check_token_type (GTask       *task,
                  SoupSession *session,
                  JsonObject  *answer,
                  gboolean    *bound)
{
  TokenRequest *t = g_task_get_task_data (task);
  const char *token_type = mcp_json_optional_string (answer, "token_type", "token answer", t->token_endpoint);

  *bound = FALSE;
  if (t->kind == MCP_OAUTH_TOKEN_REQUEST_ID_TOKEN)
    return TRUE;
  if (t->kind == MCP_OAUTH_TOKEN_REQUEST_ID_JAG)
    {
      const char *issued = mcp_json_optional_string (answer, "issued_token_type", "token answer",
                                                     t->token_endpoint);

      if (issued != NULL && g_strcmp0 (issued, MCP_OAUTH_TOKEN_TYPE_ID_JAG) != 0)
        {
          g_autofree char *valid = mcp_oauth_sanitize (issued);

          /* Translators: the first %s is a token endpoint, the second a token type URN */
          token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                   _("The identity provider's token endpoint “%s” issued a token of type “%s”, "
                                     "not the ID-JAG (%s) asked for"),
                                   t->token_endpoint, valid, MCP_OAUTH_TOKEN_TYPE_ID_JAG));
          return FALSE;
        }
      return TRUE;
    }

  if (token_type != NULL && g_ascii_strcasecmp (token_type, "bearer") == 0)
    return TRUE;
  if (token_type != NULL && t->dpop != NULL && g_ascii_strcasecmp (token_type, "dpop") == 0)
    {
      *bound = TRUE;
      return TRUE;
    }

  /* The type is not quoted: a confused server may put anything there. */
  if (token_type == NULL)
    token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                             _("The token endpoint “%s” answered no token type; only Bearer tokens can be used"),
                             t->token_endpoint));
  else if (t->dpop != NULL)
    token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                             _("The token endpoint “%s” answered a token type other than Bearer or DPoP"),
                             t->token_endpoint));
  else
    token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                             _("The token endpoint “%s” answered a token type other than Bearer; "
                               "only Bearer tokens can be used"),
                             t->token_endpoint));
  return FALSE;
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
  const char *refresh_token;
  const char *scope;
  gboolean bound;
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
  if (t->dpop != NULL)
    {
      gboolean nonce_changed = mcp_dpop_note_response (t->dpop, t->message);

      /* RFC 9449 §8: the AS wants a nonce; once, and only for a new one. */
      if (status == SOUP_STATUS_BAD_REQUEST && !t->nonce_retried && nonce_changed &&
          mcp_dpop_is_nonce_error (t->message, body))
        {
          t->nonce_retried = TRUE;
          /* Translators: %s is a token endpoint's address */
          mcp_oauth_trace_step (session, t->message, t->step, MCP_TRACE_STEP_INFO,
                                _("“%s” asked for a DPoP nonce (use_dpop_nonce): sending the request again with it"),
                                t->token_endpoint);
          token_request_post (g_steal_pointer (&task), session);
          return;
        }
    }

  if (status != SOUP_STATUS_OK)
    {
      g_autoptr(GError) answer_error = mcp_oauth_answer_error (t->what, t->message, body, &t->oauth_error);

      if (t->refresh && g_strcmp0 (t->oauth_error, "invalid_grant") == 0)
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
  access_token = mcp_json_optional_string (answer, t->kind == MCP_OAUTH_TOKEN_REQUEST_ID_TOKEN
                                                  ? "id_token" : "access_token",
                                          "token answer", t->token_endpoint);
  refresh_token = mcp_json_optional_string (answer, "refresh_token", "token answer", t->token_endpoint);
  scope = mcp_json_optional_string (answer, "scope", "token answer", t->token_endpoint);

  if (t->kind == MCP_OAUTH_TOKEN_REQUEST_ID_TOKEN && (access_token == NULL || access_token[0] == '\0'))
    {
      token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The identity provider's token endpoint “%s” answered without an “id_token”"),
                               t->token_endpoint));
      return;
    }
  if (access_token == NULL || access_token[0] == '\0')
    {
      token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The token endpoint “%s” answered without an “access_token”"),
                               t->token_endpoint));
      return;
    }

  if (!check_token_type (task, session, answer, &bound))
    return;

  tokens = g_new0 (McpOAuthTokens, 1);
  tokens->access_token = g_strdup (access_token);
  if (t->kind != MCP_OAUTH_TOKEN_REQUEST_ACCESS_TOKEN)
    tokens->token_type = g_strdup ("N_A");
  else
    tokens->token_type = g_strdup (bound ? "DPoP" : "Bearer");
  if (bound)
    tokens->dpop_key = mcp_jose_key_to_pem (mcp_dpop_get_key (t->dpop));
  tokens->refresh_token = g_strdup (refresh_token != NULL ? refresh_token : t->old_refresh_token);
  tokens->scope = g_strdup (scope != NULL ? scope : t->fallback_scope);
  tokens->token_endpoint = g_strdup (t->token_endpoint);
  tokens->issuer = g_strdup (t->issuer);
  if (parse_expires_in (json_object_get_member (answer, "expires_in"), &expires_in))
    tokens->expires_at = g_get_real_time () / G_USEC_PER_SEC + expires_in;

  token_request_step_ok (session, t, tokens, refresh_token != NULL);
  g_task_return_pointer (task, g_steal_pointer (&tokens), (GDestroyNotify) mcp_oauth_tokens_free);
}

static GHashTable *
form_copy (GHashTable *form)
{
  GHashTable *copy = mcp_oauth_token_form_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, form);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_strdup (value));
  return copy;
}

/* Sends t->form (again, for a DPoP nonce) in a new message with a fresh
 * client assertion and proof. Takes @task. */
static void
token_request_post (GTask       *task,
                    SoupSession *session)
{
  TokenRequest *t = g_task_get_task_data (task);
  g_autoptr(GUri) uri = g_uri_parse (t->token_endpoint, SOUP_HTTP_URI_FLAGS, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *form;
  char *encoded;

  g_clear_object (&t->message);
  t->message = soup_message_new_from_uri (SOUP_METHOD_POST, uri);

  form = form_copy (t->form);
  if (!add_client_auth (t, form, t->message, &error))
    {
      hash_table_free_secrets (form);
      token_request_fail (task, session, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  if (t->dpop != NULL)
    {
      g_autofree char *proof = mcp_dpop_make_proof (t->dpop, "POST", t->token_endpoint, NULL);

      if (proof == NULL)
        {
          hash_table_free_secrets (form);
          /* Translators: %s is a token endpoint's address */
          token_request_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                                          _("Making the DPoP proof for “%s” failed"),
                                                          t->token_endpoint));
          g_object_unref (task);
          return;
        }
      soup_message_headers_replace (soup_message_get_request_headers (t->message), "DPoP", proof);
    }

  encoded = soup_form_encode_hash (form);
  hash_table_free_secrets (form);
  bytes = g_bytes_new_with_free_func (encoded, strlen (encoded), (GDestroyNotify) mcp_oauth_free_secret, encoded);
  soup_message_headers_replace (soup_message_get_request_headers (t->message), "Accept", "application/json");

  mcp_oauth_send_async (session, t->message, "application/x-www-form-urlencoded", bytes,
                        g_task_get_cancellable (task), token_request_cb, task);
}

GHashTable *
mcp_oauth_token_form_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
mcp_oauth_token_form_add (GHashTable *form,
                          const char *name,
                          const char *value)
{
  if (value != NULL)
    g_hash_table_replace (form, g_strdup (name), g_strdup (value));
}

void
mcp_oauth_token_request_async (SoupSession              *session,
                               McpOAuthTokenRequestKind  kind,
                               const char               *step,
                               const char               *what,
                               const char               *issuer,
                               const char               *token_endpoint,
                               const char               *fallback_scope,
                               const char               *old_refresh_token,
                               const McpOAuthClientAuth *auth,
                               GHashTable               *form,
                               McpDPoP                  *dpop,
                               GCancellable             *cancellable,
                               GAsyncReadyCallback       callback,
                               gpointer                  user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  TokenRequest *t = g_new0 (TokenRequest, 1);
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) policy_error = NULL;

  g_task_set_source_tag (task, mcp_oauth_token_request_async);
  t->kind = kind;
  t->step = g_strdup (step);
  t->what = g_strdup (what);
  t->refresh = g_strcmp0 (step, "refresh") == 0;
  t->issuer = g_strdup (issuer);
  t->token_endpoint = g_strdup (token_endpoint);
  t->fallback_scope = g_strdup (fallback_scope);
  t->old_refresh_token = g_strdup (old_refresh_token);
  if (auth != NULL)
    {
      t->client_id = g_strdup (auth->client_id);
      t->client_secret = g_strdup (auth->client_secret);
      t->method = g_strdup (auth->method);
      t->assertion_key = auth->assertion_key != NULL ? mcp_jose_key_ref (auth->assertion_key) : NULL;
      t->assertion_audience = g_strdup (auth->assertion_audience);
    }
  t->form = form;
  t->dpop = dpop != NULL ? g_object_ref (dpop) : NULL;
  g_task_set_task_data (task, t, (GDestroyNotify) token_request_free);

  /* A code, a verifier, an assertion or a refresh token goes there:
   * https, or http to this computer only. */
  if (token_endpoint != NULL &&
      !mcp_url_policy_check (token_endpoint, MCP_URL_USE_FETCH, NULL, &policy_error))
    {
      /* Translators: %s says why the address is refused */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("Token request refused: %s"), policy_error->message);
      g_object_unref (task);
      return;
    }

  uri = token_endpoint != NULL ? g_uri_parse (token_endpoint, SOUP_HTTP_URI_FLAGS, NULL) : NULL;
  if (uri == NULL ||
      (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 && g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      g_autofree char *valid = mcp_oauth_sanitize (token_endpoint);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The token endpoint “%s” is not a valid URL; sign in again"), valid);
      g_object_unref (task);
      return;
    }

  token_request_post (task, session);
}

McpOAuthTokens *
mcp_oauth_token_request_finish (GAsyncResult  *result,
                                char         **oauth_error,
                                GError       **error)
{
  TokenRequest *t;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_token_request_async, NULL);

  t = g_task_get_task_data (G_TASK (result));
  if (oauth_error != NULL)
    *oauth_error = g_strdup (t->oauth_error);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The code exchange and the refresh: the client identity of the sign-in.
 * A private_key_jwt client keeps its PEM key where a secret goes. */
static void
client_auth_from_info (const McpOAuthClientInfo *client,
                       const McpOAuthMetadata   *metadata,
                       const char               *issuer,
                       McpOAuthClientAuth       *auth,
                       McpJoseKey              **key)
{
  auth->client_id = client->client_id;
  auth->client_secret = client->client_secret;
  auth->method = client->token_endpoint_auth_method;
  auth->assertion_audience = metadata != NULL ? mcp_oauth_metadata_get_expected_issuer (metadata) : issuer;
  *key = NULL;
  if (g_strcmp0 (client->token_endpoint_auth_method, "private_key_jwt") == 0 &&
      client->client_secret != NULL)
    {
      *key = mcp_jose_key_new_from_pem (client->client_secret, MCP_JOSE_ALG_ES256, NULL);
      if (*key == NULL)
        *key = mcp_jose_key_new_from_pem (client->client_secret, MCP_JOSE_ALG_RS256, NULL);
      auth->client_secret = NULL;
    }
  auth->assertion_key = *key;
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
  g_autoptr(McpJoseKey) key = NULL;
  McpOAuthClientAuth auth;
  GHashTable *form;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (metadata != NULL);
  g_return_if_fail (client != NULL && client->client_id != NULL);
  g_return_if_fail (code != NULL);
  g_return_if_fail (code_verifier != NULL);
  g_return_if_fail (redirect_uri != NULL);

  form = mcp_oauth_token_form_new ();
  mcp_oauth_token_form_add (form, "grant_type", "authorization_code");
  mcp_oauth_token_form_add (form, "code", code);
  mcp_oauth_token_form_add (form, "redirect_uri", redirect_uri);
  mcp_oauth_token_form_add (form, "code_verifier", code_verifier);
  mcp_oauth_token_form_add (form, "resource", metadata->resource);

  client_auth_from_info (client, metadata, NULL, &auth, &key);
  mcp_oauth_token_request_async (session, MCP_OAUTH_TOKEN_REQUEST_ACCESS_TOKEN, "token-exchange",
                                 _("Token request"), metadata->issuer, metadata->token_endpoint,
                                 requested_scope, NULL, &auth, form, dpop, cancellable, callback, user_data);
}

McpOAuthTokens *
mcp_oauth_exchange_code_finish (GAsyncResult  *result,
                                GError       **error)
{
  return mcp_oauth_token_request_finish (result, NULL, error);
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
  g_autoptr(McpJoseKey) key = NULL;
  McpOAuthClientAuth auth;
  GHashTable *form;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (tokens != NULL);
  g_return_if_fail (client != NULL && client->client_id != NULL);

  if (tokens->refresh_token == NULL)
    {
      g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
      GError *error;

      g_task_set_source_tag (task, mcp_oauth_token_request_async);
      g_task_set_task_data (task, g_new0 (TokenRequest, 1), (GDestroyNotify) token_request_free);
      if (tokens->issuer != NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                             _("The sign-in at “%s” cannot be renewed (no refresh token); sign in again"),
                             tokens->issuer);
      else
        error = g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                     _("The sign-in at the server cannot be renewed (no refresh token); sign in again"));
      mcp_oauth_trace_step (session, NULL, "refresh", MCP_TRACE_STEP_FAILED, "%s", error->message);
      g_task_return_error (task, error);
      return;
    }

  form = mcp_oauth_token_form_new ();
  mcp_oauth_token_form_add (form, "grant_type", "refresh_token");
  mcp_oauth_token_form_add (form, "refresh_token", tokens->refresh_token);
  mcp_oauth_token_form_add (form, "resource", resource);

  client_auth_from_info (client, NULL, tokens->issuer, &auth, &key);
  mcp_oauth_token_request_async (session, MCP_OAUTH_TOKEN_REQUEST_ACCESS_TOKEN, "refresh",
                                 _("Token refresh"), tokens->issuer, tokens->token_endpoint,
                                 tokens->scope, tokens->refresh_token, &auth, form, dpop,
                                 cancellable, callback, user_data);
}

McpOAuthTokens *
mcp_oauth_refresh_finish (GAsyncResult  *result,
                          GError       **error)
{
  return mcp_oauth_token_request_finish (result, NULL, error);
}
