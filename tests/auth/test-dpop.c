/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-dpop"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-dpop.h"
#include "mcp-error.h"
#include "mcp-jose.h"
#include "test-util.h"

/* McpDPoP (src/auth/mcp-dpop.c): the proofs (RFC 9449 §4), nonces per
 * origin and their bounds, the nonce errors of an authorization server
 * (§8) and a resource server (§9); and a SoupServer on 127.0.0.1 that
 * checks every proof as the conformance suite does and requires nonces,
 * driven with mcp_dpop_apply() alone. */

/* Everything logged, to show no secret is */
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

static JsonObject *
proof_part (const char   *proof,
            JsonObject  **header)
{
  g_autoptr(GError) error = NULL;
  JsonObject *claims = mcp_jose_peek (proof, header, &error);

  g_assert_no_error (error);
  return claims;
}

/* ------------------------------------------------------------------------ */
/* Proofs                                                                   */

static void
test_proof_claims (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autofree char *proof = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) claims = NULL;
  g_autoptr(JsonObject) verified = NULL;
  g_autofree char *thumbprint = NULL;
  g_autofree char *ath = NULL;
  JsonObject *jwk;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  g_assert_no_error (error);
  g_assert_true (mcp_dpop_get_key (dpop) == key);

  proof = mcp_dpop_make_proof (dpop, "POST",
                               "https://user:pw@Example.COM:443/mcp/a%20b?token=secret&x=1#frag",
                               "the-access-token");
  g_assert_nonnull (proof);
  g_assert_null (strstr (proof, "secret"));

  claims = proof_part (proof, &header);
  g_assert_cmpstr (json_object_get_string_member (header, "typ"), ==, "dpop+jwt");
  g_assert_cmpstr (json_object_get_string_member (header, "alg"), ==, "ES256");
  jwk = json_object_get_object_member (header, "jwk");
  g_assert_nonnull (jwk);
  g_assert_false (json_object_has_member (jwk, "d"));
  g_assert_cmpuint (json_object_get_size (jwk), ==, 4);

  /* Signed with the key of its own header, whose thumbprint is the key's */
  verified = mcp_jose_verify (proof, jwk, NULL, &error);
  g_assert_no_error (error);
  thumbprint = mcp_jose_jwk_thumbprint (jwk, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (thumbprint, ==, mcp_dpop_get_thumbprint (dpop));

  g_assert_cmpstr (json_object_get_string_member (claims, "htm"), ==, "POST");
  /* No query, fragment or user information; scheme and host normalised */
  g_assert_cmpstr (json_object_get_string_member (claims, "htu"), ==, "https://example.com/mcp/a%20b");
  g_assert_cmpint (json_object_get_int_member (claims, "iat"), >=, now - 5);
  g_assert_cmpint (json_object_get_int_member (claims, "iat"), <=, now + 5);
  g_assert_cmpuint (strlen (json_object_get_string_member (claims, "jti")), >=, 22);
  ath = mcp_jose_sha256_base64url ("the-access-token");
  g_assert_cmpstr (json_object_get_string_member (claims, "ath"), ==, ath);
  g_assert_false (json_object_has_member (claims, "nonce"));
  g_assert_null (strstr (proof, "the-access-token"));
}

static void
test_proof_rs256_no_ath (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_RS256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autofree char *proof = mcp_dpop_make_proof (dpop, "GET", "http://127.0.0.1:8080/token", NULL);
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) claims = proof_part (proof, &header);
  g_autoptr(JsonObject) verified = NULL;

  g_assert_cmpstr (json_object_get_string_member (header, "alg"), ==, "RS256");
  g_assert_cmpstr (json_object_get_string_member (claims, "htm"), ==, "GET");
  g_assert_cmpstr (json_object_get_string_member (claims, "htu"), ==, "http://127.0.0.1:8080/token");
  g_assert_false (json_object_has_member (claims, "ath"));
  g_assert_false (json_object_has_member (json_object_get_object_member (header, "jwk"), "d"));
  verified = mcp_jose_verify (proof, json_object_get_object_member (header, "jwk"), NULL, &error);
  g_assert_no_error (error);
}

static void
test_proof_jti_unique (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *proof = mcp_dpop_make_proof (dpop, "POST", "https://example.com/mcp", "t");
      g_autoptr(JsonObject) claims = proof_part (proof, NULL);

      g_assert_true (g_hash_table_add (seen, g_strdup (json_object_get_string_member (claims, "jti"))));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, 200);
}

/* ------------------------------------------------------------------------ */
/* Nonces                                                                   */

static void
test_nonce_per_origin (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autofree char *proof = NULL;
  g_autofree char *other = NULL;
  g_autoptr(JsonObject) claims = NULL;
  g_autoptr(JsonObject) other_claims = NULL;

  g_assert_null (mcp_dpop_get_nonce (dpop, "https://as.example/token"));
  mcp_dpop_set_nonce (dpop, "https://as.example/token", "n-1");
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://AS.example:443/other?x"), ==, "n-1");
  g_assert_null (mcp_dpop_get_nonce (dpop, "http://as.example/token"));
  g_assert_null (mcp_dpop_get_nonce (dpop, "https://as.example:8443/token"));
  g_assert_null (mcp_dpop_get_nonce (dpop, "https://rs.example/mcp"));
  g_assert_null (mcp_dpop_get_nonce (dpop, "not a url"));

  mcp_dpop_set_nonce (dpop, "https://rs.example/mcp", "r-1");
  mcp_dpop_set_nonce (dpop, "https://as.example/token", "n-2");
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://as.example/x"), ==, "n-2");
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://rs.example/x"), ==, "r-1");

  proof = mcp_dpop_make_proof (dpop, "POST", "https://as.example/token", NULL);
  claims = proof_part (proof, NULL);
  g_assert_cmpstr (json_object_get_string_member (claims, "nonce"), ==, "n-2");
  other = mcp_dpop_make_proof (dpop, "POST", "https://elsewhere.example/token", NULL);
  other_claims = proof_part (other, NULL);
  g_assert_false (json_object_has_member (other_claims, "nonce"));
}

static void
test_nonce_bounds (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autofree char *longest = g_strnfill (1024, 'n');
  g_autofree char *too_long = g_strnfill (1025, 'n');
  static const char *const refused[] = {
    "", "a b", "a\"b", "a\\b", "a\tb", "caf\xc3\xa9", "a\x7f",
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      mcp_dpop_set_nonce (dpop, "https://as.example/", refused[i]);
      g_assert_null (mcp_dpop_get_nonce (dpop, "https://as.example/"));
    }
  mcp_dpop_set_nonce (dpop, "https://as.example/", too_long);
  g_assert_null (mcp_dpop_get_nonce (dpop, "https://as.example/"));
  mcp_dpop_set_nonce (dpop, "https://as.example/", longest);
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://as.example/"), ==, longest);
  /* A bad one later leaves the good one */
  mcp_dpop_set_nonce (dpop, "https://as.example/", "bad nonce");
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://as.example/"), ==, longest);
  mcp_dpop_set_nonce (dpop, "https://as.example/", "!#[]~");
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://as.example/"), ==, "!#[]~");

  /* At most 64 origins: the oldest goes */
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://host%u.example/", i);

      mcp_dpop_set_nonce (dpop, url, "n");
    }
  g_assert_null (mcp_dpop_get_nonce (dpop, "https://as.example/"));
  g_assert_null (mcp_dpop_get_nonce (dpop, "https://host35.example/"));
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://host36.example/"), ==, "n");
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, "https://host99.example/"), ==, "n");
}

static void
test_challenge_error (void)
{
  static const struct
  {
    const char *header;
    const char *error;
    gboolean    has_dpop;
  } cases[] = {
    { "DPoP error=\"use_dpop_nonce\"", "use_dpop_nonce", TRUE },
    { "dpop error=use_dpop_nonce, error_description=\"x\"", "use_dpop_nonce", TRUE },
    { "Bearer realm=\"x\", DPoP error=\"use_dpop_nonce\", algs=\"ES256 RS256\"", "use_dpop_nonce", TRUE },
    { "Bearer error=\"invalid_token\", error_description=\"the DPoP proof\"", NULL, FALSE },
    { "Bearer error_description=\"a, DPoP error=\\\"use_dpop_nonce\\\"\"", NULL, FALSE },
    { "DPoP algs=\"ES256\", resource_metadata=\"https://x/.well-known/oauth-protected-resource\"", NULL, TRUE },
    { "DPoPX error=\"use_dpop_nonce\"", NULL, FALSE },
    { "Bearer", NULL, FALSE },
    { "", NULL, FALSE },
    { "DPoP error=\"unterminated", NULL, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean has_dpop = !cases[i].has_dpop;
      g_autofree char *error = mcp_dpop_challenge_error (cases[i].header, &has_dpop);

      g_test_message ("%s", cases[i].header);
      g_assert_cmpstr (error, ==, cases[i].error);
      g_assert_cmpint (has_dpop, ==, cases[i].has_dpop);
    }
  g_assert_null (mcp_dpop_challenge_error (NULL, NULL));
}

/* ------------------------------------------------------------------------ */
/* A server that requires DPoP                                              */

typedef struct
{
  SoupServer *server;
  char       *base;          /* http://127.0.0.1:PORT */
  McpJoseKey *signer;        /* the AS's, for access tokens */
  GHashTable *jtis;
  GPtrArray  *problems;
  char       *as_nonce;
  char       *rs_nonce;
  gboolean    rotate;        /* a new RS nonce after each success */
  guint       rs_generation;
  guint       token_requests;
  guint       as_challenges;
  guint       rs_requests;
  guint       rs_challenges;
  char       *issued_token;
} DPoPServer;

static void
problem (DPoPServer *ds,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static void
problem (DPoPServer *ds,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (ds->problems, g_strdup_vprintf (format, args));
  va_end (args);
}

/* The checks of the conformance suite's DPoP scenarios (Yo, Za); returns
 * the proof's claims and jwk thumbprint, or NULL after noting why. */
static JsonObject *
check_proof (DPoPServer        *ds,
             SoupServerMessage *msg,
             const char        *token,
             char             **jkt)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *proof = soup_message_headers_get_list (headers, "DPoP");
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) claims = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *htu = NULL;
  JsonObject *jwk;
  const char *jti;
  gint64 iat, now = g_get_real_time () / G_USEC_PER_SEC;

  if (proof == NULL || strchr (proof, ',') != NULL)
    return problem (ds, "no single DPoP header"), NULL;
  claims = mcp_jose_peek (proof, &header, &error);
  if (claims == NULL)
    return problem (ds, "proof unreadable: %s", error->message), NULL;
  if (g_strcmp0 (json_object_get_string_member_with_default (header, "typ", NULL), "dpop+jwt") != 0)
    return problem (ds, "typ"), NULL;
  jwk = json_object_get_object_member (header, "jwk");
  if (jwk == NULL || json_object_has_member (jwk, "d"))
    return problem (ds, "jwk missing or private"), NULL;
  g_clear_pointer (&claims, json_object_unref);
  claims = mcp_jose_verify (proof, jwk, NULL, &error);
  if (claims == NULL)
    return problem (ds, "signature: %s", error->message), NULL;

  jti = json_object_get_string_member_with_default (claims, "jti", NULL);
  if (jti == NULL || !g_hash_table_add (ds->jtis, g_strdup (jti)))
    return problem (ds, "jti missing or reused"), NULL;
  if (g_strcmp0 (json_object_get_string_member_with_default (claims, "htm", NULL),
                 soup_server_message_get_method (msg)) != 0)
    return problem (ds, "htm"), NULL;
  htu = g_uri_to_string_partial (soup_server_message_get_uri (msg),
                                 G_URI_HIDE_QUERY | G_URI_HIDE_FRAGMENT | G_URI_HIDE_USERINFO);
  if (g_strcmp0 (json_object_get_string_member_with_default (claims, "htu", NULL), htu) != 0)
    return problem (ds, "htu %s is not %s",
                    json_object_get_string_member_with_default (claims, "htu", "(none)"), htu), NULL;
  iat = json_object_get_int_member_with_default (claims, "iat", 0);
  if (iat < now - 300 || iat > now + 300)
    return problem (ds, "iat"), NULL;
  if (token != NULL)
    {
      g_autofree char *ath = mcp_jose_sha256_base64url (token);

      if (g_strcmp0 (json_object_get_string_member_with_default (claims, "ath", NULL), ath) != 0)
        return problem (ds, "ath"), NULL;
    }
  else if (json_object_has_member (claims, "ath"))
    return problem (ds, "ath without a token"), NULL;

  *jkt = mcp_jose_jwk_thumbprint (jwk, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&claims);
}

static void
answer_json (SoupServerMessage *msg,
             guint              status,
             const char        *json)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, json, strlen (json));
}

static void
token_cb (SoupServer        *server,
          SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query,
          gpointer           user_data)
{
  DPoPServer *ds = user_data;
  g_autoptr(JsonObject) claims = NULL;
  g_autoptr(JsonObject) token_claims = json_object_new ();
  g_autoptr(JsonObject) cnf = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *jkt = NULL;
  g_autofree char *body = NULL;

  ds->token_requests++;
  claims = check_proof (ds, msg, NULL, &jkt);
  if (claims == NULL)
    {
      answer_json (msg, 400, "{\"error\":\"invalid_dpop_proof\"}");
      return;
    }
  if (ds->as_nonce != NULL &&
      g_strcmp0 (json_object_get_string_member_with_default (claims, "nonce", NULL), ds->as_nonce) != 0)
    {
      ds->as_challenges++;
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "DPoP-Nonce", ds->as_nonce);
      answer_json (msg, 400, "{\"error\":\"use_dpop_nonce\",\"error_description\":\"nonce\"}");
      return;
    }

  json_object_set_string_member (cnf, "jkt", jkt);
  json_object_set_object_member (token_claims, "cnf", g_steal_pointer (&cnf));
  json_object_set_string_member (token_claims, "sub", "test");
  g_free (ds->issued_token);
  ds->issued_token = mcp_jose_sign (ds->signer, NULL, token_claims, &error);
  g_assert_no_error (error);
  body = g_strdup_printf ("{\"access_token\":\"%s\",\"token_type\":\"DPoP\",\"expires_in\":3600}",
                          ds->issued_token);
  answer_json (msg, 200, body);
}

static void
mcp_cb (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  DPoPServer *ds = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response = soup_server_message_get_response_headers (msg);
  const char *authorization = soup_message_headers_get_one (headers, "Authorization");
  g_autoptr(JsonObject) claims = NULL;
  g_autoptr(JsonObject) token_claims = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *jkt = NULL;
  const char *token;
  JsonObject *cnf;

  ds->rs_requests++;
  if (authorization == NULL || !g_str_has_prefix (authorization, "DPoP "))
    {
      soup_message_headers_replace (response, "WWW-Authenticate", "DPoP algs=\"ES256\"");
      answer_json (msg, 401, "{\"error\":\"unauthorized\"}");
      return;
    }
  token = authorization + 5;
  claims = check_proof (ds, msg, token, &jkt);
  if (claims == NULL)
    {
      soup_message_headers_replace (response, "WWW-Authenticate", "DPoP error=\"invalid_dpop_proof\"");
      answer_json (msg, 401, "{}");
      return;
    }
  {
    g_autoptr(JsonObject) signer_jwk = mcp_jose_key_get_public_jwk (ds->signer);

    token_claims = mcp_jose_verify (token, signer_jwk, NULL, &error);
  }
  cnf = token_claims != NULL ? json_object_get_object_member (token_claims, "cnf") : NULL;
  if (cnf == NULL || g_strcmp0 (json_object_get_string_member (cnf, "jkt"), jkt) != 0)
    {
      problem (ds, "cnf.jkt is not the proof key's thumbprint");
      answer_json (msg, 401, "{}");
      return;
    }
  if (ds->rs_nonce != NULL &&
      g_strcmp0 (json_object_get_string_member_with_default (claims, "nonce", NULL), ds->rs_nonce) != 0)
    {
      ds->rs_challenges++;
      soup_message_headers_replace (response, "WWW-Authenticate",
                                    "Bearer realm=\"mcp\", DPoP error=\"use_dpop_nonce\", algs=\"ES256\"");
      soup_message_headers_replace (response, "DPoP-Nonce", ds->rs_nonce);
      answer_json (msg, 401, "{\"error\":\"use_dpop_nonce\"}");
      return;
    }
  if (ds->rotate)
    {
      g_free (ds->rs_nonce);
      ds->rs_nonce = g_strdup_printf ("rs-nonce-%u", ++ds->rs_generation);
      soup_message_headers_replace (response, "DPoP-Nonce", ds->rs_nonce);
    }
  answer_json (msg, 200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
}

/* Answers as its query says: status, body, nonce, www */
static void
answer_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  SoupMessageHeaders *response = soup_server_message_get_response_headers (msg);
  const char *nonce = query != NULL ? g_hash_table_lookup (query, "nonce") : NULL;
  const char *www = query != NULL ? g_hash_table_lookup (query, "www") : NULL;
  const char *body = query != NULL ? g_hash_table_lookup (query, "body") : NULL;
  const char *status = query != NULL ? g_hash_table_lookup (query, "status") : NULL;

  if (nonce != NULL)
    soup_message_headers_replace (response, "DPoP-Nonce", nonce);
  if (www != NULL)
    soup_message_headers_replace (response, "WWW-Authenticate", www);
  answer_json (msg, status != NULL ? (guint) atoi (status) : 200, body != NULL ? body : "");
}

static DPoPServer *
dpop_server_new (void)
{
  DPoPServer *ds = g_new0 (DPoPServer, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  g_autofree char *uri = NULL;

  ds->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (ds->server, "/token", token_cb, ds, NULL);
  soup_server_add_handler (ds->server, "/mcp", mcp_cb, ds, NULL);
  soup_server_add_handler (ds->server, "/answer", answer_cb, ds, NULL);
  soup_server_listen_local (ds->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (ds->server);
  uri = g_uri_to_string (uris->data);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
  ds->base = g_strndup (uri, strlen (uri) - (g_str_has_suffix (uri, "/") ? 1 : 0));
  ds->signer = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_assert_no_error (error);
  ds->jtis = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ds->problems = g_ptr_array_new_with_free_func (g_free);
  return ds;
}

static void
dpop_server_free (DPoPServer *ds)
{
  for (guint i = 0; i < ds->problems->len; i++)
    g_test_message ("server: %s", (char *) ds->problems->pdata[i]);
  g_assert_cmpuint (ds->problems->len, ==, 0);

  soup_server_disconnect (ds->server);
  g_object_unref (ds->server);
  g_free (ds->base);
  mcp_jose_key_unref (ds->signer);
  g_hash_table_unref (ds->jtis);
  g_ptr_array_unref (ds->problems);
  g_free (ds->as_nonce);
  g_free (ds->rs_nonce);
  g_free (ds->issued_token);
  g_free (ds);
}

static GBytes *
send_message (SoupSession *session,
              SoupMessage *msg)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *body;

  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, test_result_cb, &result);
  body = soup_session_send_and_read_finish (session, test_wait_result (&result, "an answer"), &error);
  g_assert_no_error (error);
  return body;
}

/* A token request, retried once on use_dpop_nonce, as the token requests
 * of src/auth do. Returns the access token. */
static char *
request_token (DPoPServer  *ds,
               SoupSession *session,
               McpDPoP     *dpop)
{
  g_autofree char *url = g_strconcat (ds->base, "/token", NULL);

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
      g_autoptr(GBytes) body = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      mcp_dpop_apply (dpop, msg, NULL);
      body = send_message (session, msg);
      mcp_dpop_note_response (dpop, msg);
      if (mcp_dpop_is_nonce_error (msg, body))
        continue;
      g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
      json_parser_load_from_data (parser, g_bytes_get_data (body, NULL), g_bytes_get_size (body), &error);
      g_assert_no_error (error);
      return g_strdup (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)),
                                                      "access_token"));
    }

  g_assert_not_reached ();
}

/* An MCP request with the bound token, retried once when the answer is a
 * use_dpop_nonce with a nonce the request had not sent. */
static guint
request_mcp (DPoPServer  *ds,
             SoupSession *session,
             McpDPoP     *dpop,
             const char  *token,
             guint       *rounds)
{
  g_autofree char *url = g_strconcat (ds->base, "/mcp?session=1#x", NULL);
  guint status = 0;

  for (*rounds = 0; *rounds < 2; (*rounds)++)
    {
      g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
      g_autoptr(GBytes) body = NULL;
      g_autofree char *authorization = g_strconcat ("DPoP ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", authorization);
      mcp_dpop_apply (dpop, msg, token);
      body = send_message (session, msg);
      mcp_dpop_note_response (dpop, msg);
      status = soup_message_get_status (msg);
      if (!mcp_dpop_is_nonce_error (msg, body) || !mcp_dpop_take_fresh_nonce (dpop, url))
        break;
    }

  return status;
}

static void
test_server_nonces (void)
{
  DPoPServer *ds = dpop_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autofree char *token = NULL;
  g_autofree char *pem = NULL;
  guint rounds = 0;

  ds->as_nonce = g_strdup ("as-nonce-1");
  ds->rs_nonce = g_strdup ("rs-nonce-0");

  /* The AS asks for its nonce once */
  token = request_token (ds, session, dpop);
  g_assert_cmpuint (ds->token_requests, ==, 2);
  g_assert_cmpuint (ds->as_challenges, ==, 1);
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, ds->base), ==, "as-nonce-1");
  g_assert_cmpstr (token, ==, ds->issued_token);

  /* The RS (here the same origin, as the suite's can be on another port)
   * asks for its own: one retry with it */
  g_assert_cmpuint (request_mcp (ds, session, dpop, token, &rounds), ==, 200);
  g_assert_cmpuint (rounds, ==, 1);
  g_assert_cmpuint (ds->rs_challenges, ==, 1);
  g_assert_cmpstr (mcp_dpop_get_nonce (dpop, ds->base), ==, "rs-nonce-0");

  /* Known nonce: no retry */
  g_assert_cmpuint (request_mcp (ds, session, dpop, token, &rounds), ==, 200);
  g_assert_cmpuint (rounds, ==, 0);
  g_assert_cmpuint (ds->rs_challenges, ==, 1);

  /* A nonce that changes with every answer is followed */
  ds->rotate = TRUE;
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (request_mcp (ds, session, dpop, token, &rounds), ==, 200);
      g_assert_cmpuint (rounds, ==, 0);
    }
  g_assert_cmpuint (ds->rs_challenges, ==, 1);
  ds->rotate = FALSE;

  /* A new nonce: one retry with it */
  g_free (ds->rs_nonce);
  ds->rs_nonce = g_strdup ("never-the-same");
  {
    guint before = ds->rs_requests;

    g_assert_cmpuint (request_mcp (ds, session, dpop, token, &rounds), ==, 200);
    g_assert_cmpuint (ds->rs_requests - before, ==, 2);
  }

  /* Every request had a new jti: 2 + 2 + 1 + 3 + 2 */
  g_assert_cmpuint (g_hash_table_size (ds->jtis), ==, 10);

  /* Neither the token nor the key in anything logged */
  pem = mcp_jose_key_to_pem (key);
  g_assert_null (strstr (logged->str, token));
  g_assert_null (strstr (logged->str, pem + 40));
  mcp_jose_free_secret (g_steal_pointer (&pem));

  dpop_server_free (ds);
}

/* The server insists on a nonce the client already sent: the retry is
 * not made (the same nonce would be refused again). */
static void
test_server_same_nonce_no_retry (void)
{
  DPoPServer *ds = dpop_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  g_autofree char *token = NULL;
  g_autofree char *url = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *authorization = NULL;

  token = request_token (ds, session, dpop);
  g_free (ds->rs_nonce);
  ds->rs_nonce = g_strdup ("wanted");
  /* The client holds the nonce the server names, but the server says
   * use_dpop_nonce anyway (its check fails for another reason): a proof
   * with "wanted" got a use_dpop_nonce naming "wanted" */
  mcp_dpop_set_nonce (dpop, ds->base, "wanted");
  url = g_strconcat (ds->base, "/answer?status=401&nonce=wanted&www=DPoP%20error%3D%22use_dpop_nonce%22", NULL);
  msg = soup_message_new ("POST", url);
  authorization = g_strconcat ("DPoP ", token, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", authorization);
  mcp_dpop_apply (dpop, msg, token);
  body = send_message (session, msg);
  g_assert_false (mcp_dpop_note_response (dpop, msg));
  g_assert_true (mcp_dpop_is_nonce_error (msg, body));
  g_assert_false (mcp_dpop_take_fresh_nonce (dpop, url));

  dpop_server_free (ds);
}

static void
test_nonce_errors (void)
{
  DPoPServer *ds = dpop_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = mcp_dpop_new (key);
  static const struct
  {
    guint       status;
    const char *nonce;
    const char *www;
    const char *body;
    gboolean    is_nonce_error;
    gboolean    noted;
  } cases[] = {
    /* Authorization server, RFC 9449 §8 */
    { 400, "n1", NULL, "{\"error\":\"use_dpop_nonce\"}", TRUE, TRUE },
    { 400, NULL, NULL, "{\"error\":\"use_dpop_nonce\"}", FALSE, FALSE },
    { 400, "n2", NULL, "{\"error\":\"invalid_grant\"}", FALSE, TRUE },
    { 400, "n3", NULL, "not json", FALSE, TRUE },
    { 400, "n4", NULL, "{\"error\":{\"nested\":[1]}}", FALSE, TRUE },
    { 400, "n5", NULL, "[\"use_dpop_nonce\"]", FALSE, TRUE },
    { 400, "n 6", NULL, "{\"error\":\"use_dpop_nonce\"}", FALSE, FALSE },
    /* Resource server, §9 */
    { 401, "r1", "DPoP error=\"use_dpop_nonce\"", "", TRUE, TRUE },
    { 401, "r2", "Bearer realm=\"x\", DPoP error=\"use_dpop_nonce\"", "", TRUE, TRUE },
    { 401, "r3", "DPoP error=\"invalid_token\"", "", FALSE, TRUE },
    { 401, NULL, "DPoP error=\"use_dpop_nonce\"", "", FALSE, FALSE },
    { 401, "r4", NULL, "{\"error\":\"use_dpop_nonce\"}", FALSE, TRUE },
    { 200, "r5", NULL, "{}", FALSE, TRUE },
    { 500, "r6", "DPoP error=\"use_dpop_nonce\"", "", FALSE, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) url = g_string_new (ds->base);
      g_autoptr(SoupMessage) msg = NULL;
      g_autoptr(GBytes) body = NULL;
      g_autofree char *escaped_body = g_uri_escape_string (cases[i].body, NULL, FALSE);

      g_string_append_printf (url, "/answer?status=%u&body=%s", cases[i].status, escaped_body);
      if (cases[i].nonce != NULL)
        {
          g_autofree char *escaped = g_uri_escape_string (cases[i].nonce, NULL, FALSE);

          g_string_append_printf (url, "&nonce=%s", escaped);
        }
      if (cases[i].www != NULL)
        {
          g_autofree char *escaped = g_uri_escape_string (cases[i].www, NULL, FALSE);

          g_string_append_printf (url, "&www=%s", escaped);
        }

      msg = soup_message_new ("POST", url->str);
      mcp_dpop_apply (dpop, msg, NULL);
      body = send_message (session, msg);
      g_test_message ("case %u", i);
      g_assert_cmpuint (soup_message_get_status (msg), ==, cases[i].status);
      g_assert_cmpint (mcp_dpop_is_nonce_error (msg, body), ==, cases[i].is_nonce_error);
      g_assert_cmpint (mcp_dpop_note_response (dpop, msg), ==, cases[i].noted);
      /* The same nonce again is no change */
      g_assert_false (mcp_dpop_note_response (dpop, msg));
      if (cases[i].noted)
        g_assert_cmpstr (mcp_dpop_get_nonce (dpop, ds->base), ==, cases[i].nonce);
    }

  dpop_server_free (ds);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  logged = g_string_new (NULL);
  g_log_set_writer_func (capture_writer, NULL, NULL);

  g_test_add_func ("/dpop/proof/claims", test_proof_claims);
  g_test_add_func ("/dpop/proof/rs256-no-ath", test_proof_rs256_no_ath);
  g_test_add_func ("/dpop/proof/jti-unique", test_proof_jti_unique);
  g_test_add_func ("/dpop/nonce/per-origin", test_nonce_per_origin);
  g_test_add_func ("/dpop/nonce/bounds", test_nonce_bounds);
  g_test_add_func ("/dpop/nonce/challenge-error", test_challenge_error);
  g_test_add_func ("/dpop/nonce/errors", test_nonce_errors);
  g_test_add_func ("/dpop/server/nonces", test_server_nonces);
  g_test_add_func ("/dpop/server/same-nonce-no-retry", test_server_same_nonce_no_retry);

  return g_test_run ();
}
