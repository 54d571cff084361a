/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-provider-dpop"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-auth-provider.h"
#include "mcp-error.h"
#include "mcp-oauth-provider-private.h"
#include "mcp-token-store.h"
#include "test-util.h"

/* McpOAuthProvider's DPoP (src/auth/mcp-oauth-provider-dpop.c) through
 * McpAuthProvider, as the transports use it: bound tokens sent with the
 * DPoP scheme and a fresh proof, the resource server's use_dpop_nonce
 * answered by one retry, Bearer tokens as before; which sign-ins get a
 * key. Against a SoupServer on 127.0.0.1 that checks each proof as the
 * conformance suite's auth/dpop-nonce does. The sign-in's token requests
 * are the grants part's (test-oauth-grants). */

static GString *logged;

static GLogWriterOutput
capture_writer (GLogLevelFlags   level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (strcmp (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
      g_string_append_printf (logged, "%s\n", (const char *) fields[i].value);
  if (level & (G_LOG_LEVEL_DEBUG | G_LOG_LEVEL_INFO))
    return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (level, fields, n_fields, user_data);
}

typedef struct
{
  SoupServer *server;
  char       *url;            /* …/mcp */
  McpJoseKey *signer;         /* the AS's: signs access tokens */
  char       *nonce;          /* required in proofs, when set */
  GHashTable *jtis;
  GPtrArray  *problems;
  guint       requests;
  guint       nonce_challenges;
  char       *last_authorization;
  gboolean    last_had_proof;
} Rs;

static void
answer (SoupServerMessage *msg,
        guint              status,
        const char        *www,
        const char        *nonce)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  if (www != NULL)
    soup_message_headers_replace (headers, "WWW-Authenticate", www);
  if (nonce != NULL)
    soup_message_headers_replace (headers, "DPoP-Nonce", nonce);
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, "{}", 2);
}

/* NULL when the proof passes the suite's checks (Yo), else why not */
static const char *
proof_problem (Rs                *rs,
               SoupServerMessage *msg,
               const char        *token,
               JsonObject       **out_claims)
{
  const char *proof = soup_message_headers_get_list (soup_server_message_get_request_headers (msg), "DPoP");
  g_autoptr(JsonObject) peeked = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) claims = NULL;
  g_autoptr(JsonObject) token_claims = NULL;
  g_autoptr(JsonObject) signer_jwk = mcp_jose_key_get_public_jwk (rs->signer);
  g_autofree char *ath = mcp_jose_sha256_base64url (token);
  g_autofree char *jkt = NULL;
  JsonObject *jwk, *cnf;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  if (proof == NULL || strchr (proof, ',') != NULL)
    return "no single DPoP header";
  peeked = mcp_jose_peek (proof, &header, NULL);
  if (peeked == NULL)
    return "not a JWT";
  if (g_strcmp0 (json_object_get_string_member_with_default (header, "typ", NULL), "dpop+jwt") != 0)
    return "typ";
  jwk = json_object_get_object_member (header, "jwk");
  if (jwk == NULL || json_object_has_member (jwk, "d"))
    return "jwk";
  claims = mcp_jose_verify (proof, jwk, NULL, NULL);
  if (claims == NULL)
    return "signature";
  if (!g_hash_table_add (rs->jtis, g_strdup (json_object_get_string_member_with_default (claims, "jti", ""))))
    return "jti reused";
  if (g_strcmp0 (json_object_get_string_member_with_default (claims, "htm", NULL), "POST") != 0)
    return "htm";
  if (g_strcmp0 (json_object_get_string_member_with_default (claims, "htu", NULL), rs->url) != 0)
    return "htu";
  if (ABS (json_object_get_int_member_with_default (claims, "iat", 0) - now) > 300)
    return "iat";
  if (g_strcmp0 (json_object_get_string_member_with_default (claims, "ath", NULL), ath) != 0)
    return "ath";
  token_claims = mcp_jose_verify (token, signer_jwk, NULL, NULL);
  cnf = token_claims != NULL ? json_object_get_object_member (token_claims, "cnf") : NULL;
  jkt = mcp_jose_jwk_thumbprint (jwk, NULL);
  if (cnf == NULL || g_strcmp0 (json_object_get_string_member (cnf, "jkt"), jkt) != 0)
    return "cnf.jkt";

  *out_claims = g_steal_pointer (&claims);
  return NULL;
}

static void
mcp_cb (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  Rs *rs = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *authorization = soup_message_headers_get_one (headers, "Authorization");
  g_autoptr(JsonObject) claims = NULL;
  const char *problem;

  rs->requests++;
  g_free (rs->last_authorization);
  rs->last_authorization = g_strdup (authorization);
  rs->last_had_proof = soup_message_headers_get_one (headers, "DPoP") != NULL;

  if (authorization == NULL)
    {
      answer (msg, 401, "DPoP algs=\"ES256\", resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\"", NULL);
      return;
    }
  if (g_str_has_prefix (authorization, "Bearer "))
    {
      answer (msg, 200, NULL, NULL);
      return;
    }
  if (!g_str_has_prefix (authorization, "DPoP "))
    {
      g_ptr_array_add (rs->problems, g_strdup ("another scheme"));
      answer (msg, 401, "DPoP error=\"invalid_token\"", NULL);
      return;
    }

  problem = proof_problem (rs, msg, authorization + 5, &claims);
  if (problem != NULL)
    {
      g_ptr_array_add (rs->problems, g_strdup (problem));
      answer (msg, 401, "DPoP error=\"invalid_dpop_proof\"", NULL);
      return;
    }
  if (rs->nonce != NULL &&
      g_strcmp0 (json_object_get_string_member_with_default (claims, "nonce", NULL), rs->nonce) != 0)
    {
      rs->nonce_challenges++;
      answer (msg, 401, "DPoP error=\"use_dpop_nonce\", resource_metadata=\"http://127.0.0.1/x\"", rs->nonce);
      return;
    }
  answer (msg, 200, NULL, NULL);
}

static Rs *
rs_new (void)
{
  Rs *rs = g_new0 (Rs, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;
  g_autofree char *base = NULL;

  rs->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (rs->server, "/mcp", mcp_cb, rs, NULL);
  soup_server_listen_local (rs->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (rs->server);
  base = g_uri_to_string (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  rs->url = g_strconcat (base, g_str_has_suffix (base, "/") ? "mcp" : "/mcp", NULL);
  rs->signer = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_assert_no_error (error);
  rs->jtis = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  rs->problems = g_ptr_array_new_with_free_func (g_free);
  return rs;
}

static void
rs_free (Rs *rs)
{
  for (guint i = 0; i < rs->problems->len; i++)
    g_test_message ("server: %s", (char *) rs->problems->pdata[i]);
  g_assert_cmpuint (rs->problems->len, ==, 0);

  soup_server_disconnect (rs->server);
  g_object_unref (rs->server);
  g_free (rs->url);
  mcp_jose_key_unref (rs->signer);
  g_hash_table_unref (rs->jtis);
  g_ptr_array_unref (rs->problems);
  g_free (rs->nonce);
  g_free (rs->last_authorization);
  g_free (rs);
}

static McpOAuthProvider *
provider_new (Rs *rs)
{
  g_autofree char *dir = g_dir_make_tmp ("test-oauth-provider-dpop-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "tokens.json", NULL);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);

  return mcp_oauth_provider_new ("dpop-test", rs->url, NULL, store);
}

/* An access token of the AS bound to @key (cnf.jkt), and tokens holding
 * it with the key's PEM */
static McpOAuthTokens *
bound_tokens (Rs         *rs,
              McpJoseKey *key)
{
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(JsonObject) cnf = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *jkt = mcp_jose_key_get_thumbprint (key);
  McpOAuthTokens *tokens = g_new0 (McpOAuthTokens, 1);

  json_object_set_string_member (cnf, "jkt", jkt);
  json_object_set_object_member (claims, "cnf", g_steal_pointer (&cnf));
  json_object_set_string_member (claims, "sub", "someone");
  tokens->access_token = mcp_jose_sign (rs->signer, NULL, claims, &error);
  g_assert_no_error (error);
  tokens->token_type = g_strdup ("DPoP");
  tokens->dpop_key = mcp_jose_key_to_pem (key);
  return tokens;
}

/* A request as the transports make it: authorize_message, the answer told
 * to the provider, a challenge handled and the request made again while
 * the provider says so, at most MCP_AUTH_MAX_ROUNDS times. */
static guint
send_like_transport (McpAuthProvider *provider,
                     SoupSession     *session,
                     const char      *url,
                     guint           *rounds)
{
  for (*rounds = 0;; (*rounds)++)
    {
      g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GBytes) body = NULL;
      g_autoptr(GError) error = NULL;
      guint status;

      mcp_auth_provider_authorize_message (provider, msg);
      soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, test_result_cb, &result);
      body = soup_session_send_and_read_finish (session, test_wait_result (&result, "an answer"), &error);
      g_assert_no_error (error);
      mcp_auth_provider_message_answered (provider, msg);
      status = soup_message_get_status (msg);
      if (status != 401 || *rounds >= MCP_AUTH_MAX_ROUNDS)
        return status;

      g_clear_object (&result);
      mcp_auth_provider_handle_challenge_async (provider, status,
                                                soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                                              "WWW-Authenticate"),
                                                NULL, test_result_cb, &result);
      if (!mcp_auth_provider_handle_challenge_finish (provider, test_wait_result (&result, "the challenge"),
                                                      &error))
        return status;
    }
}

static void
test_bound_requests (void)
{
  Rs *rs = rs_new ();
  g_autoptr(McpOAuthProvider) provider = provider_new (rs);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpOAuthTokens) tokens = bound_tokens (rs, key);
  g_autofree char *thumbprint = mcp_jose_key_get_thumbprint (key);
  g_autofree char *expected = g_strconcat ("DPoP ", tokens->access_token, NULL);
  guint rounds = 0;

  rs->nonce = g_strdup ("conformance-rs-dpop-nonce");
  mcp_oauth_provider_set_tokens (provider, tokens);
  mcp_oauth_provider_dpop_update (provider);
  g_assert_nonnull (provider->dpop);
  g_assert_cmpstr (mcp_dpop_get_thumbprint (provider->dpop), ==, thumbprint);

  /* The first request learns the nonce: one retry, no sign-in */
  g_assert_cmpuint (send_like_transport (MCP_AUTH_PROVIDER (provider), session, rs->url, &rounds), ==, 200);
  g_assert_cmpuint (rounds, ==, 1);
  g_assert_cmpuint (rs->nonce_challenges, ==, 1);
  g_assert_cmpstr (rs->last_authorization, ==, expected);
  g_assert_true (rs->last_had_proof);

  /* Then every request has it, each with its own proof */
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (send_like_transport (MCP_AUTH_PROVIDER (provider), session, rs->url, &rounds), ==, 200);
      g_assert_cmpuint (rounds, ==, 0);
    }
  g_assert_cmpuint (rs->nonce_challenges, ==, 1);
  g_assert_cmpuint (g_hash_table_size (rs->jtis), ==, 5);

  /* A new nonce: one retry again */
  g_free (rs->nonce);
  rs->nonce = g_strdup ("second");
  g_assert_cmpuint (send_like_transport (MCP_AUTH_PROVIDER (provider), session, rs->url, &rounds), ==, 200);
  g_assert_cmpuint (rounds, ==, 1);

  /* Neither the token nor the key in anything logged */
  g_assert_null (strstr (logged->str, tokens->access_token));
  g_assert_null (strstr (logged->str, tokens->dpop_key + 40));

  rs_free (rs);
}

/* A server whose use_dpop_nonce names the nonce the request already had:
 * no immediate retry (it would be refused again); the challenge goes the
 * usual way, which without a way to sign in ends it. Bounded. */
static void
test_same_nonce_not_retried (void)
{
  Rs *rs = rs_new ();
  g_autoptr(McpOAuthProvider) provider = provider_new (rs);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpOAuthTokens) tokens = bound_tokens (rs, key);

  mcp_oauth_provider_set_tokens (provider, tokens);
  mcp_oauth_provider_dpop_update (provider);
  mcp_dpop_set_nonce (provider->dpop, rs->url, "held");
  rs->nonce = g_strdup ("held");
  g_assert_false (mcp_oauth_provider_dpop_nonce_challenge (provider, 401, "DPoP error=\"use_dpop_nonce\""));
  /* Not for another error or status */
  g_assert_false (mcp_oauth_provider_dpop_nonce_challenge (provider, 401, "DPoP error=\"invalid_token\""));
  g_assert_false (mcp_oauth_provider_dpop_nonce_challenge (provider, 403, "DPoP error=\"use_dpop_nonce\""));

  rs_free (rs);
}

static void
test_bearer_tokens (void)
{
  Rs *rs = rs_new ();
  g_autoptr(McpOAuthProvider) provider = provider_new (rs);
  g_autoptr(SoupSession) session = soup_session_new ();
  McpOAuthTokens tokens = { .access_token = (char *) "plain-token", .token_type = (char *) "Bearer" };
  guint rounds = 0;

  mcp_oauth_provider_set_tokens (provider, &tokens);
  mcp_oauth_provider_dpop_update (provider);
  g_assert_null (provider->dpop);

  g_assert_cmpuint (send_like_transport (MCP_AUTH_PROVIDER (provider), session, rs->url, &rounds), ==, 200);
  g_assert_cmpstr (rs->last_authorization, ==, "Bearer plain-token");
  g_assert_false (rs->last_had_proof);

  rs_free (rs);
}

static void
test_broken_key (void)
{
  Rs *rs = rs_new ();
  g_autoptr(McpOAuthProvider) provider = provider_new (rs);
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, NULL);
  g_autoptr(McpOAuthTokens) tokens = bound_tokens (rs, key);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", rs->url);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);

  mcp_jose_free_secret (tokens->dpop_key);
  tokens->dpop_key = g_strdup ("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
  mcp_oauth_provider_set_tokens (provider, tokens);
  mcp_oauth_provider_dpop_update (provider);
  g_assert_null (provider->dpop);
  /* Said in the log (which the other tests search for secrets): why,
   * never the key */
  g_assert_nonnull (strstr (logged->str, "The stored DPoP key cannot be used"));
  g_assert_null (strstr (logged->str, "not a key"));

  /* A bound token without its key is not sent at all, least of all as
   * Bearer */
  soup_message_headers_replace (headers, "Authorization", "Bearer stale");
  mcp_auth_provider_authorize_message (MCP_AUTH_PROVIDER (provider), msg);
  g_assert_null (soup_message_headers_get_one (headers, "Authorization"));
  g_assert_null (soup_message_headers_get_one (headers, "DPoP"));

  rs_free (rs);
}

/* The sign-in's McpDPoP becomes the tokens' when its key is theirs: the
 * nonces it was given are kept. */
static void
test_update_keeps_sign_in_key (void)
{
  Rs *rs = rs_new ();
  g_autoptr(McpOAuthProvider) provider = provider_new (rs);
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_RS256, NULL);
  g_autoptr(McpOAuthTokens) tokens = bound_tokens (rs, key);
  g_autoptr(McpJoseKey) other = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, NULL);
  g_autoptr(McpOAuthTokens) other_tokens = bound_tokens (rs, other);
  McpDPoP *first;

  provider->sign_in_dpop = mcp_dpop_new (key);
  mcp_dpop_set_nonce (provider->sign_in_dpop, "http://as.example/token", "as-nonce");
  mcp_oauth_provider_set_tokens (provider, tokens);
  mcp_oauth_provider_dpop_update (provider);
  g_assert_true (provider->dpop == provider->sign_in_dpop);
  g_assert_cmpstr (mcp_dpop_get_nonce (provider->dpop, "http://as.example/"), ==, "as-nonce");

  /* Same tokens again: the same object */
  first = provider->dpop;
  mcp_oauth_provider_dpop_update (provider);
  g_assert_true (provider->dpop == first);

  /* Other tokens, another key */
  mcp_oauth_provider_set_tokens (provider, other_tokens);
  mcp_oauth_provider_dpop_update (provider);
  g_assert_nonnull (provider->dpop);
  g_assert_false (provider->dpop == provider->sign_in_dpop);
  g_assert_cmpint (mcp_jose_key_get_alg (mcp_dpop_get_key (provider->dpop)), ==, MCP_JOSE_ALG_ES256);

  /* Signed out: none */
  mcp_oauth_provider_set_tokens (provider, NULL);
  mcp_oauth_provider_dpop_update (provider);
  g_assert_null (provider->dpop);

  rs_free (rs);
}

static void
check_for_sign_in (McpOAuthProvider *provider,
                   int               setting,
                   const char       *offered,
                   gboolean          expected,
                   McpJoseAlg        alg)
{
  g_autoptr(McpOAuthMetadata) metadata = g_new0 (McpOAuthMetadata, 1);
  g_autoptr(McpDPoP) dpop = NULL;

  provider->grant->dpop = setting;
  if (offered != NULL)
    metadata->dpop_signing_alg_values_supported = g_strsplit (offered, " ", -1);
  dpop = mcp_oauth_provider_dpop_for_sign_in (provider, offered != NULL ? metadata : NULL);
  g_test_message ("dpop %d, offered %s", setting, offered);
  g_assert_cmpint (dpop != NULL, ==, expected);
  if (dpop != NULL)
    g_assert_cmpint (mcp_jose_key_get_alg (mcp_dpop_get_key (dpop)), ==, alg);
}

static void
test_for_sign_in (void)
{
  Rs *rs = rs_new ();
  g_autoptr(McpOAuthProvider) provider = provider_new (rs);
  g_autoptr(SoupSession) session = soup_session_new ();
  guint rounds = 0;

  g_assert_nonnull (provider->grant);

  /* When offered (the default) */
  check_for_sign_in (provider, -1, NULL, FALSE, 0);
  check_for_sign_in (provider, -1, "ES256", TRUE, MCP_JOSE_ALG_ES256);
  check_for_sign_in (provider, -1, "PS256 RS256 ES256", TRUE, MCP_JOSE_ALG_ES256);
  check_for_sign_in (provider, -1, "RS256", TRUE, MCP_JOSE_ALG_RS256);
  check_for_sign_in (provider, -1, "EdDSA ES512", FALSE, 0);
  /* Never */
  check_for_sign_in (provider, 0, "ES256", FALSE, 0);
  /* Always */
  check_for_sign_in (provider, 1, NULL, TRUE, MCP_JOSE_ALG_ES256);
  check_for_sign_in (provider, 1, "RS256", TRUE, MCP_JOSE_ALG_RS256);
  check_for_sign_in (provider, 1, "EdDSA", TRUE, MCP_JOSE_ALG_ES256);

  /* The server's 401 used the DPoP scheme (no token sent): DPoP even when
   * the metadata says nothing */
  provider->grant->dpop = -1;
  g_assert_cmpuint (send_like_transport (MCP_AUTH_PROVIDER (provider), session, rs->url, &rounds), ==, 401);
  g_assert_true (provider->challenge_dpop);
  check_for_sign_in (provider, -1, NULL, TRUE, MCP_JOSE_ALG_ES256);
  /* …but not against metadata that lists only algorithms we lack */
  check_for_sign_in (provider, -1, "EdDSA", FALSE, 0);

  rs_free (rs);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  logged = g_string_new (NULL);
  g_log_set_writer_func (capture_writer, NULL, NULL);

  g_test_add_func ("/oauth-provider/dpop/bound-requests", test_bound_requests);
  g_test_add_func ("/oauth-provider/dpop/same-nonce-not-retried", test_same_nonce_not_retried);
  g_test_add_func ("/oauth-provider/dpop/bearer-tokens", test_bearer_tokens);
  g_test_add_func ("/oauth-provider/dpop/broken-key", test_broken_key);
  g_test_add_func ("/oauth-provider/dpop/update-keeps-sign-in-key", test_update_keeps_sign_in_key);
  g_test_add_func ("/oauth-provider/dpop/for-sign-in", test_for_sign_in);

  return g_test_run ();
}
