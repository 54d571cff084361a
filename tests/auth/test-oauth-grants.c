/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-grants"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-dpop.h"
#include "mcp-error.h"
#include "mcp-jose.h"
#include "mcp-json-private.h"
#include "mcp-oauth-grant.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-provider.h"
#include "mcp-token-store.h"
#include "mcp-trace.h"
#include "grant-test-server.h"
#include "test-util.h"

/* The grants without a browser (mcp-oauth-grant.h) against an
 * authorization server and an IdP in this test (a SoupServer on
 * 127.0.0.1): each request's parameters, client authentication
 * (client_secret_basic, client_secret_post, private_key_jwt verified with
 * the public key), assertions and ID tokens read again for each grant,
 * the AS's errors surfaced without a retry, DPoP with the AS's nonce, and
 * no secret in the trace or an error. */

#define CLIENT_ID "grant client/1"
#define CLIENT_SECRET "cc-secret:Zq9&x"
#define ACCESS "cc-access-token-1"
#define ASSERTION_1 "wif.assertion.one"
#define ASSERTION_2 "wif.assertion.two"
#define ID_TOKEN "idp.id-token.value"
#define ID_JAG "id-jag.header.payload"

static McpOAuthMetadata *
metadata_new (As *as)
{
  McpOAuthMetadata *m = g_new0 (McpOAuthMetadata, 1);

  m->server_url = g_strconcat (as->base, "/mcp", NULL);
  m->resource = g_strconcat (as->base, "/mcp", NULL);
  m->issuer = g_strdup (as->base);
  m->metadata_issuer = g_strdup (as->base);
  m->authorization_endpoint = g_strconcat (as->base, "/authorize", NULL);
  m->token_endpoint = g_strconcat (as->base, "/token", NULL);
  return m;
}

static McpOAuthGrantConfig *
config_from_object (JsonObject *object)
{
  g_autoptr(GError) error = NULL;
  McpOAuthGrantConfig *config = mcp_oauth_grant_config_new_from_json (object, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static JsonObject *
object_from_text (const char *text)
{
  g_autoptr(JsonNode) node = mcp_json_parse (text, strlen (text), NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

static McpOAuthGrantConfig *
config_from_text (const char *text)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return config_from_object (object);
}

/* Runs the grant to its end; the trace's JSON Lines go to @trace_text. */
static McpOAuthTokens *
run_grant (As                        *as,
           const McpOAuthGrantConfig *config,
           const char                *scope,
           McpDPoP                   *dpop,
           GString                   *trace_text,
           GError                   **error)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  g_autoptr(McpOAuthMetadata) metadata = metadata_new (as);
  g_autoptr(GAsyncResult) result = NULL;
  McpOAuthTokens *tokens;

  soup_session_set_proxy_resolver (session, NULL);
  mcp_oauth_session_set_trace (session, trace);
  mcp_oauth_grant_run_async (session, config, metadata, scope, dpop, NULL, test_result_cb, &result);
  tokens = mcp_oauth_grant_run_finish (test_wait_result (&result, "the grant"), error);
  if (trace_text != NULL)
    mcp_trace_append_jsonl (trace, "grants", trace_text);
  return tokens;
}

static void
assert_absent (const char *text,
               const char *secret)
{
  if (strstr (text, secret) != NULL)
    g_error ("A secret is in “%s”", text);
}

#define TOKEN_OK "{\"access_token\":\"" ACCESS "\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"scope\":\"tools\"}"

/* Settings */

static void
test_config (void)
{
  g_autoptr(McpOAuthGrantConfig) none = mcp_oauth_grant_config_new_from_json (NULL, NULL);
  g_autoptr(McpOAuthGrantConfig) cc = NULL;
  g_autoptr(McpOAuthGrantConfig) enterprise = NULL;
  static const struct { const char *text; const char *member; } bad[] = {
    { "{\"grant\":\"password\"}", "oauth.grant" },
    { "{\"grant\":5}", "oauth.grant" },
    { "{\"grant\":\"client_credentials\"}", "oauth.clientId" },
    { "{\"grant\":\"client_credentials\",\"clientId\":\"a\"}", "oauth.clientSecret" },
    { "{\"grant\":\"client_credentials\",\"clientId\":\"a\",\"clientSecret\":\"s\","
      "\"tokenEndpointAuthMethod\":\"tls_client_auth\"}", "oauth.tokenEndpointAuthMethod" },
    { "{\"grant\":\"client_credentials\",\"clientId\":\"a\",\"clientSecret\":\"s\","
      "\"tokenEndpointAuthMethod\":\"private_key_jwt\"}", "oauth.privateKey" },
    { "{\"grant\":\"client_credentials\",\"clientId\":\"a\",\"privateKey\":\"k\","
      "\"signingAlgorithm\":\"HS256\"}", "oauth.signingAlgorithm" },
    { "{\"grant\":\"jwt_bearer\"}", "oauth.assertion" },
    { "{\"grant\":\"jwt_bearer\",\"assertion\":\"/a/file\"}", "oauth.assertion" },
    { "{\"grant\":\"jwt_bearer\",\"assertion\":{\"command\":[\"cat\"]}}", "oauth.assertion" },
    { "{\"grant\":\"jwt_bearer\",\"assertion\":{\"file\":\"/a\",\"env\":\"B\"}}", "oauth.assertion" },
    { "{\"grant\":\"jwt_bearer\",\"assertion\":{\"env\":\"A=B\"}}", "oauth.assertion" },
    { "{\"grant\":\"enterprise\",\"clientId\":\"a\"}", "oauth.idp" },
    { "{\"grant\":\"enterprise\",\"clientId\":\"a\",\"idp\":{\"issuer\":\"https://idp\"}}", "oauth.idp.idToken" },
    { "{\"grant\":\"enterprise\",\"clientId\":\"a\",\"idp\":{\"issuer\":\"https://idp\","
      "\"idToken\":{\"command\":[]}}}", "oauth.idp.idToken" },
    { "{\"grant\":\"enterprise\",\"clientId\":\"a\",\"idp\":{\"tokenEndpoint\":\"https://idp/t\","
      "\"idToken\":{\"signIn\":true}}}", "oauth.idp" },
    { "{\"dpop\":\"yes\"}", "oauth.dpop" },
  };

  g_assert_cmpint (none->kind, ==, MCP_OAUTH_GRANT_AUTHORIZATION_CODE);
  g_assert_cmpint (none->dpop, ==, -1);

  cc = config_from_text ("{\"grant\":\"client_credentials\",\"clientId\":\"a\",\"clientSecret\":\"s\","
                         "\"tokenEndpointAuthMethod\":\"client_secret_post\",\"dpop\":false,"
                         "\"signingAlgorithm\":\"RS256\",\"scopes\":[\"x\"],\"callbackPort\":4711}");
  g_assert_cmpint (cc->kind, ==, MCP_OAUTH_GRANT_CLIENT_CREDENTIALS);
  g_assert_cmpstr (cc->client_secret, ==, "s");
  g_assert_cmpstr (cc->token_endpoint_auth_method, ==, "client_secret_post");
  g_assert_cmpint (cc->signing_alg, ==, MCP_JOSE_ALG_RS256);
  g_assert_cmpint (cc->dpop, ==, 0);

  enterprise = config_from_text ("{\"grant\":\"enterprise\",\"clientId\":\"a\",\"idp\":{"
                                 "\"issuer\":\"https://idp.example\",\"clientId\":\"i\",\"clientSecret\":\"t\","
                                 "\"idToken\":{\"command\":[\"get-token\",\"--audience\",\"x\"]}}}");
  g_assert_cmpint (enterprise->kind, ==, MCP_OAUTH_GRANT_ENTERPRISE);
  g_assert_cmpstr (enterprise->idp_issuer, ==, "https://idp.example");
  g_assert_cmpstr (enterprise->idp_client_secret, ==, "t");
  g_assert_cmpint (enterprise->id_token.kind, ==, MCP_OAUTH_SOURCE_COMMAND);
  g_assert_cmpstr (enterprise->id_token.argv[2], ==, "x");
  g_assert_cmpint (enterprise->dpop, ==, -1);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonObject) object = object_from_text (bad[i].text);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpOAuthGrantConfig) config = mcp_oauth_grant_config_new_from_json (object, &error);

      g_test_message ("%s", bad[i].text);
      g_assert_null (config);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
      g_assert_true (g_str_has_prefix (error->message, bad[i].member));
    }
}

/* client_credentials */

static void
assert_cc_request (As         *as,
                   Request    *request,
                   const char *scope)
{
  g_autofree char *resource = g_strconcat (as->base, "/mcp", NULL);

  g_assert_cmpstr (request->path, ==, "/token");
  g_assert_cmpstr (param (request, "grant_type"), ==, "client_credentials");
  g_assert_cmpstr (param (request, "scope"), ==, scope);
  g_assert_cmpstr (param (request, "resource"), ==, resource);
}

static void
test_client_credentials_basic (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GString) trace = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree guchar *decoded = NULL;
  g_autofree char *pair = NULL;
  gsize length;
  Request *request;

  config = config_from_text ("{\"grant\":\"client_credentials\",\"clientId\":\"" CLIENT_ID "\","
                             "\"clientSecret\":\"" CLIENT_SECRET "\"}");
  as_answer (as, "/token", 200, TOKEN_OK, NULL);
  tokens = run_grant (as, config, "tools", NULL, trace, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tokens->access_token, ==, ACCESS);
  g_assert_cmpstr (tokens->token_type, ==, "Bearer");
  g_assert_cmpstr (tokens->issuer, ==, as->base);
  g_assert_null (tokens->dpop_key);
  g_assert_cmpint (tokens->expires_at, >, g_get_real_time () / G_USEC_PER_SEC);

  g_assert_cmpuint (as->requests->len, ==, 1);
  request = as_request (as, 0);
  assert_cc_request (as, request, "tools");
  /* Absent token_endpoint_auth_methods_supported means client_secret_basic
   * (RFC 8414), with id and secret form-urlencoded (RFC 6749 §2.3.1) */
  g_assert_true (g_str_has_prefix (request->authorization, "Basic "));
  decoded = g_base64_decode (request->authorization + 6, &length);
  pair = g_strndup ((const char *) decoded, length);
  g_assert_cmpstr (pair, ==, "grant+client%2F1:cc-secret%3AZq9%26x");
  g_assert_null (param (request, "client_secret"));
  g_assert_null (param (request, "client_id"));

  assert_absent (trace->str, CLIENT_SECRET);
  assert_absent (trace->str, request->authorization + 6);
  assert_absent (trace->str, ACCESS);
  g_assert_nonnull (strstr (trace->str, "\"grant\""));
}

static void
test_client_credentials_post (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GString) trace = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  Request *request;

  config = config_from_text ("{\"grant\":\"client_credentials\",\"clientId\":\"" CLIENT_ID "\","
                             "\"clientSecret\":\"" CLIENT_SECRET "\","
                             "\"tokenEndpointAuthMethod\":\"client_secret_post\"}");
  as_answer (as, "/token", 200, TOKEN_OK, NULL);
  tokens = run_grant (as, config, NULL, NULL, trace, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tokens->access_token, ==, ACCESS);

  request = as_request (as, 0);
  assert_cc_request (as, request, NULL);
  g_assert_null (request->authorization);
  g_assert_cmpstr (param (request, "client_id"), ==, CLIENT_ID);
  g_assert_cmpstr (param (request, "client_secret"), ==, CLIENT_SECRET);
  assert_absent (trace->str, CLIENT_SECRET);
  assert_absent (trace->str, "cc-secret%3AZq9");
}

static void
check_assertion (As         *as,
                 Request    *request,
                 JsonObject *jwk,
                 char      **jti)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) claims = NULL;
  const char *assertion = param (request, "client_assertion");
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  g_assert_cmpstr (param (request, "client_assertion_type"), ==,
                   "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
  g_assert_nonnull (assertion);
  g_assert_null (request->authorization);
  g_assert_null (param (request, "client_secret"));

  /* RFC 7523 §3: iss = sub = client_id, aud = the AS, exp, iat, jti */
  claims = mcp_jose_verify (assertion, jwk, &header, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (header, "alg"), ==, "ES256");
  g_assert_cmpstr (json_object_get_string_member (claims, "iss"), ==, CLIENT_ID);
  g_assert_cmpstr (json_object_get_string_member (claims, "sub"), ==, CLIENT_ID);
  g_assert_cmpstr (json_object_get_string_member (claims, "aud"), ==, as->base);
  g_assert_cmpint (json_object_get_int_member (claims, "iat"), <=, now);
  g_assert_cmpint (json_object_get_int_member (claims, "iat"), >=, now - 60);
  g_assert_cmpint (json_object_get_int_member (claims, "exp"), >, now);
  g_assert_cmpint (json_object_get_int_member (claims, "exp"), <=, now + 600);
  g_assert_nonnull (json_object_get_string_member (claims, "jti"));
  *jti = g_strdup (json_object_get_string_member (claims, "jti"));
}

static void
test_client_credentials_private_key_jwt (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(JsonObject) jwk = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(GString) trace = g_string_new (NULL);
  g_autofree char *jti_1 = NULL;
  g_autofree char *jti_2 = NULL;
  char *pem;

  g_assert_no_error (error);
  jwk = mcp_jose_key_get_public_jwk (key);
  pem = mcp_jose_key_to_pem (key);
  json_object_set_string_member (object, "grant", "client_credentials");
  json_object_set_string_member (object, "clientId", CLIENT_ID);
  json_object_set_string_member (object, "privateKey", pem);
  config = config_from_object (object);

  as_answer (as, "/token", 200, TOKEN_OK, NULL);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(McpOAuthTokens) tokens = run_grant (as, config, "tools", NULL, trace, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (tokens->access_token, ==, ACCESS);
    }

  g_assert_cmpuint (as->requests->len, ==, 2);
  assert_cc_request (as, as_request (as, 0), "tools");
  g_assert_cmpstr (param (as_request (as, 0), "client_id"), ==, CLIENT_ID);
  check_assertion (as, as_request (as, 0), jwk, &jti_1);
  check_assertion (as, as_request (as, 1), jwk, &jti_2);
  /* A new jti every time */
  g_assert_cmpstr (jti_1, !=, jti_2);

  /* Neither the key nor the assertion is in the trace */
  {
    g_auto(GStrv) lines = g_strsplit (pem, "\n", -1);

    for (guint i = 1; lines[i] != NULL; i++)
      if (strlen (lines[i]) > 16 && !g_str_has_prefix (lines[i], "-----"))
        assert_absent (trace->str, lines[i]);
  }
  assert_absent (trace->str, param (as_request (as, 0), "client_assertion"));
  mcp_jose_free_secret (pem);

  /* A key that is not a key: a configuration error naming the member, not quoting it */
  {
    g_autoptr(McpOAuthGrantConfig) bad = NULL;
    g_autoptr(McpOAuthTokens) none = NULL;
    g_autoptr(GError) bad_error = NULL;

    json_object_set_string_member (object, "privateKey", "not-a-pem-secret-value");
    bad = config_from_object (object);
    none = run_grant (as, bad, NULL, NULL, NULL, &bad_error);
    g_assert_null (none);
    g_assert_nonnull (bad_error);
    g_assert_true (strstr (bad_error->message, "oauth.privateKey") != NULL);
    assert_absent (bad_error->message, "not-a-pem-secret-value");
    g_assert_cmpuint (as->requests->len, ==, 2);
  }
}

/* jwt_bearer: workload identity federation */

static void
test_jwt_bearer_file (void)
{
  g_autoptr(As) as = as_new ();
  g_autofree char *dir = g_dir_make_tmp ("grants-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "token", NULL);
  g_autofree char *text = NULL;
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(GString) trace = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *resource = g_strconcat (as->base, "/mcp", NULL);

  text = g_strdup_printf ("{\"grant\":\"jwt_bearer\",\"assertion\":{\"file\":\"%s\"}}", path);
  config = config_from_text (text);
  as_answer (as, "/token", 200, TOKEN_OK, NULL);

  /* Written, then rotated: each grant reads the file again */
  g_assert_true (g_file_set_contents (path, ASSERTION_1 "\n", -1, NULL));
  {
    g_autoptr(McpOAuthTokens) tokens = run_grant (as, config, "tools", NULL, trace, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (tokens->access_token, ==, ACCESS);
  }
  g_assert_true (g_file_set_contents (path, ASSERTION_2, -1, NULL));
  {
    g_autoptr(McpOAuthTokens) tokens = run_grant (as, config, "tools", NULL, trace, &error);

    g_assert_no_error (error);
  }

  g_assert_cmpuint (as->requests->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      Request *request = as_request (as, i);

      g_assert_cmpstr (param (request, "grant_type"), ==, "urn:ietf:params:oauth:grant-type:jwt-bearer");
      g_assert_cmpstr (param (request, "scope"), ==, "tools");
      g_assert_cmpstr (param (request, "resource"), ==, resource);
      g_assert_null (param (request, "client_id"));
      g_assert_null (request->authorization);
    }
  g_assert_cmpstr (param (as_request (as, 0), "assertion"), ==, ASSERTION_1);
  g_assert_cmpstr (param (as_request (as, 1), "assertion"), ==, ASSERTION_2);
  assert_absent (trace->str, ASSERTION_1);
  assert_absent (trace->str, ASSERTION_2);

  /* Too large, empty, missing: errors naming the file, and nothing sent */
  {
    g_autofree char *large = g_strnfill (64 * 1024 + 1, 'a');
    const char *contents[] = { large, " \n", NULL };

    for (guint i = 0; i < G_N_ELEMENTS (contents); i++)
      {
        g_autoptr(McpOAuthTokens) none = NULL;
        g_autoptr(GError) read_error = NULL;

        if (contents[i] != NULL)
          g_assert_true (g_file_set_contents (path, contents[i], -1, NULL));
        else
          g_assert_cmpint (g_remove (path), ==, 0);
        none = run_grant (as, config, NULL, NULL, NULL, &read_error);
        g_assert_null (none);
        g_assert_error (read_error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
        g_assert_nonnull (strstr (read_error->message, path));
        g_assert_nonnull (strstr (read_error->message, "oauth.assertion"));
      }
    g_assert_cmpuint (as->requests->len, ==, 2);
  }
  g_rmdir (dir);
}

static void
test_jwt_bearer_env (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  config = config_from_text ("{\"grant\":\"jwt_bearer\",\"clientId\":\"workload\","
                             "\"assertion\":{\"env\":\"PLUGBOARD_TEST_WIF_TOKEN\"}}");
  as_answer (as, "/token", 200, TOKEN_OK, NULL);

  g_setenv ("PLUGBOARD_TEST_WIF_TOKEN", ASSERTION_1, TRUE);
  {
    g_autoptr(McpOAuthTokens) tokens = run_grant (as, config, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
  }
  g_setenv ("PLUGBOARD_TEST_WIF_TOKEN", ASSERTION_2, TRUE);
  {
    g_autoptr(McpOAuthTokens) tokens = run_grant (as, config, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
  }
  g_assert_cmpstr (param (as_request (as, 0), "assertion"), ==, ASSERTION_1);
  g_assert_cmpstr (param (as_request (as, 1), "assertion"), ==, ASSERTION_2);
  /* A public client names itself */
  g_assert_cmpstr (param (as_request (as, 0), "client_id"), ==, "workload");

  g_unsetenv ("PLUGBOARD_TEST_WIF_TOKEN");
  {
    g_autoptr(McpOAuthTokens) none = run_grant (as, config, NULL, NULL, NULL, &error);

    g_assert_null (none);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    g_assert_nonnull (strstr (error->message, "PLUGBOARD_TEST_WIF_TOKEN"));
  }
  g_assert_cmpuint (as->requests->len, ==, 2);
}

/* The AS's errors: quoted, not retried, no other grant tried */
static void
test_errors_not_retried (void)
{
  static const char * const codes[] = { "invalid_grant", "invalid_scope", "unauthorized_client", "invalid_client" };

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    {
      g_autoptr(As) as = as_new ();
      g_autoptr(McpOAuthGrantConfig) config = NULL;
      g_autoptr(McpOAuthTokens) tokens = NULL;
      g_autoptr(GString) trace = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *body = g_strdup_printf ("{\"error\":\"%s\",\"error_description\":\"Described %u\"}",
                                               codes[i], i);

      g_setenv ("PLUGBOARD_TEST_WIF_TOKEN", ASSERTION_1, TRUE);
      config = config_from_text ("{\"grant\":\"jwt_bearer\",\"assertion\":{\"env\":\"PLUGBOARD_TEST_WIF_TOKEN\"}}");
      as_answer (as, "/token", i == 3 ? 401 : 400, body, NULL);
      as_answer (as, "/token", 200, TOKEN_OK, NULL);

      tokens = run_grant (as, config, "tools", NULL, trace, &error);
      g_assert_null (tokens);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
      g_assert_nonnull (strstr (error->message, codes[i]));
      {
        g_autofree char *described = g_strdup_printf ("Described %u", i);

        g_assert_nonnull (strstr (error->message, described));
      }
      assert_absent (error->message, ASSERTION_1);
      assert_absent (trace->str, ASSERTION_1);
      /* Once, and only the jwt-bearer grant */
      g_assert_cmpuint (as->requests->len, ==, 1);
    }
  g_unsetenv ("PLUGBOARD_TEST_WIF_TOKEN");
}

/* enterprise: the ID token exchanged at the IdP for an ID-JAG, which the
 * JWT bearer grant takes at the MCP server's AS */

static void
assert_enterprise_requests (As         *as,
                            guint       first,
                            const char *id_token)
{
  g_autofree char *resource = g_strconcat (as->base, "/mcp", NULL);
  Request *exchange = as_request (as, first);
  Request *bearer = as_request (as, first + 1);
  g_autofree guchar *decoded = NULL;
  g_autofree char *pair = NULL;
  gsize length;

  g_assert_cmpstr (exchange->path, ==, "/idp/token");
  g_assert_cmpstr (param (exchange, "grant_type"), ==, "urn:ietf:params:oauth:grant-type:token-exchange");
  g_assert_cmpstr (param (exchange, "requested_token_type"), ==, "urn:ietf:params:oauth:token-type:id-jag");
  g_assert_cmpstr (param (exchange, "subject_token"), ==, id_token);
  g_assert_cmpstr (param (exchange, "subject_token_type"), ==, "urn:ietf:params:oauth:token-type:id_token");
  g_assert_cmpstr (param (exchange, "audience"), ==, as->base);
  g_assert_cmpstr (param (exchange, "resource"), ==, resource);
  g_assert_cmpstr (param (exchange, "scope"), ==, "tools");
  g_assert_cmpstr (param (exchange, "client_id"), ==, "idp-client");
  g_assert_null (exchange->dpop);

  g_assert_cmpstr (bearer->path, ==, "/token");
  g_assert_cmpstr (param (bearer, "grant_type"), ==, "urn:ietf:params:oauth:grant-type:jwt-bearer");
  g_assert_cmpstr (param (bearer, "assertion"), ==, ID_JAG);
  g_assert_cmpstr (param (bearer, "resource"), ==, resource);
  g_assert_cmpstr (param (bearer, "scope"), ==, "tools");
  g_assert_true (g_str_has_prefix (bearer->authorization, "Basic "));
  decoded = g_base64_decode (bearer->authorization + 6, &length);
  pair = g_strndup ((const char *) decoded, length);
  g_assert_cmpstr (pair, ==, "xaa-client:" "xaa-secret");
}

#define ID_JAG_ANSWER "{\"access_token\":\"" ID_JAG "\",\"issued_token_type\":" \
                      "\"urn:ietf:params:oauth:token-type:id-jag\",\"token_type\":\"N_A\"}"

static void
test_enterprise_command (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GString) trace = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = g_strdup_printf ("{\"grant\":\"enterprise\",\"clientId\":\"xaa-client\",\"clientSecret\":\"xaa-secret\","
                          "\"idp\":{\"tokenEndpoint\":\"%s/idp/token\",\"clientId\":\"idp-client\","
                          "\"idToken\":{\"command\":[\"printf\",\"%%s\\n\",\"" ID_TOKEN "\"]}}}", as->base);
  config = config_from_text (text);
  as_answer (as, "/idp/token", 200, ID_JAG_ANSWER, NULL);
  as_answer (as, "/token", 200, TOKEN_OK, NULL);

  tokens = run_grant (as, config, "tools", NULL, trace, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tokens->access_token, ==, ACCESS);
  g_assert_cmpuint (as->requests->len, ==, 2);
  assert_enterprise_requests (as, 0, ID_TOKEN);
  assert_absent (trace->str, ID_TOKEN);
  assert_absent (trace->str, ID_JAG);
  assert_absent (trace->str, "xaa-secret");
  assert_absent (trace->str, ACCESS);
}

static void
test_enterprise_discovered_idp (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_setenv ("PLUGBOARD_TEST_ID_TOKEN", ID_TOKEN, TRUE);
  text = g_strdup_printf ("{\"grant\":\"enterprise\",\"clientId\":\"xaa-client\",\"clientSecret\":\"xaa-secret\","
                          "\"idp\":{\"issuer\":\"%s/idp\",\"clientId\":\"idp-client\","
                          "\"idToken\":{\"env\":\"PLUGBOARD_TEST_ID_TOKEN\"}}}", as->base);
  config = config_from_text (text);
  as_answer (as, "/idp/.well-known/openid-configuration", 200,
             "{\"issuer\":\"%BASE%/idp\",\"authorization_endpoint\":\"%BASE%/idp/authorize\","
             "\"token_endpoint\":\"%BASE%/idp/token\"}", NULL);
  as_answer (as, "/idp/token", 200, ID_JAG_ANSWER, NULL);
  as_answer (as, "/token", 200, TOKEN_OK, NULL);

  tokens = run_grant (as, config, "tools", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (as->requests->len, ==, 3);
  g_assert_cmpstr (as_request (as, 0)->path, ==, "/idp/.well-known/openid-configuration");
  assert_enterprise_requests (as, 1, ID_TOKEN);

  /* The IdP's error ends it: no JWT bearer grant without an ID-JAG */
  g_hash_table_remove (as->answers, "/idp/token");
  as_answer (as, "/idp/token", 400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid ID token\"}", NULL);
  g_clear_pointer (&tokens, mcp_oauth_tokens_free);
  tokens = run_grant (as, config, "tools", NULL, NULL, &error);
  g_assert_null (tokens);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, "Invalid ID token"));
  assert_absent (error->message, ID_TOKEN);
  g_assert_cmpstr (as_request (as, as->requests->len - 1)->path, ==, "/idp/token");
  g_clear_error (&error);

  /* An IdP whose metadata names another issuer is not used */
  g_hash_table_remove (as->answers, "/idp/.well-known/openid-configuration");
  as_answer (as, "/idp/.well-known/openid-configuration", 200,
             "{\"issuer\":\"https://evil.example\",\"token_endpoint\":\"%BASE%/idp/token\"}", NULL);
  {
    guint before = as->requests->len;

    tokens = run_grant (as, config, "tools", NULL, NULL, &error);
    g_assert_null (tokens);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    g_assert_nonnull (strstr (error->message, "evil.example"));
    g_assert_cmpuint (as->requests->len, ==, before + 1);
  }
  g_unsetenv ("PLUGBOARD_TEST_ID_TOKEN");
}

/* A command that fails, or prints too much: its error names it, with the
 * last line of its stderr, and nothing is sent */
static void
test_command_source_errors (void)
{
  g_autoptr(As) as = as_new ();
  static const char * const commands[] = {
    "[\"sh\",\"-c\",\"echo " ID_TOKEN "; echo first line >&2; echo the last words >&2; exit 3\"]",
    "[\"yes\"]",
    "[\"/nonexistent/get-token\"]",
  };
  static const char * const expected[] = { "the last words", "64 KiB", "could not be started" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autoptr(McpOAuthGrantConfig) config = NULL;
      g_autoptr(McpOAuthTokens) tokens = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      text = g_strdup_printf ("{\"grant\":\"enterprise\",\"clientId\":\"xaa-client\",\"idp\":{"
                              "\"tokenEndpoint\":\"%s/idp/token\",\"idToken\":{\"command\":%s}}}",
                              as->base, commands[i]);
      config = config_from_text (text);
      tokens = run_grant (as, config, NULL, NULL, NULL, &error);
      g_assert_null (tokens);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, expected[i]));
      g_assert_nonnull (strstr (error->message, "oauth.idp.idToken"));
      assert_absent (error->message, ID_TOKEN);
    }
  g_assert_cmpuint (as->requests->len, ==, 0);
}

/* DPoP (RFC 9449 §5, §8) on the grant's token request */
static void
test_dpop_nonce (void)
{
  g_autoptr(As) as = as_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(McpDPoP) dpop = NULL;
  g_autoptr(McpOAuthGrantConfig) config = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autofree char *probe = NULL;
  g_autofree char *pem = NULL;
  const char *nonce_error = "{\"error\":\"use_dpop_nonce\",\"error_description\":\"Use the nonce\"}";

  g_assert_no_error (error);
  dpop = mcp_dpop_new (key);
  probe = mcp_dpop_make_proof (dpop, "POST", "http://127.0.0.1/token", NULL);
  g_assert_nonnull (probe);

  config = config_from_text ("{\"grant\":\"client_credentials\",\"clientId\":\"" CLIENT_ID "\","
                             "\"clientSecret\":\"" CLIENT_SECRET "\"}");
  as_answer (as, "/token", 400, nonce_error, "nonce-1");
  as_answer (as, "/token", 200, "{\"access_token\":\"" ACCESS "\",\"token_type\":\"DPoP\",\"expires_in\":60}", NULL);

  tokens = run_grant (as, config, NULL, dpop, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tokens->token_type, ==, "DPoP");
  pem = mcp_jose_key_to_pem (key);
  g_assert_cmpstr (tokens->dpop_key, ==, pem);
  g_assert_cmpuint (as->requests->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(JsonObject) header = NULL;
      g_autoptr(JsonObject) claims = NULL;
      g_autoptr(JsonObject) jwk = mcp_jose_key_get_public_jwk (key);
      g_autofree char *htu = g_strconcat (as->base, "/token", NULL);
      Request *request = as_request (as, i);

      g_assert_nonnull (request->dpop);
      claims = mcp_jose_verify (request->dpop, jwk, &header, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (json_object_get_string_member (header, "typ"), ==, "dpop+jwt");
      g_assert_cmpstr (json_object_get_string_member (claims, "htm"), ==, "POST");
      g_assert_cmpstr (json_object_get_string_member (claims, "htu"), ==, htu);
      if (i == 1)
        g_assert_cmpstr (json_object_get_string_member (claims, "nonce"), ==, "nonce-1");
      else
        g_assert_false (json_object_has_member (claims, "nonce"));
    }
  g_assert_cmpstr (as_request (as, 0)->dpop, !=, as_request (as, 1)->dpop);
  mcp_jose_free_secret (g_steal_pointer (&pem));

  /* A second use_dpop_nonce is not retried again */
  {
    g_autoptr(As) twice = as_new ();
    g_autoptr(McpOAuthTokens) none = NULL;
    g_autoptr(GError) twice_error = NULL;
    g_autoptr(McpDPoP) fresh = mcp_dpop_new (key);

    as_answer (twice, "/token", 400, nonce_error, "nonce-a");
    as_answer (twice, "/token", 400, nonce_error, "nonce-b");
    as_answer (twice, "/token", 200, "{\"access_token\":\"" ACCESS "\",\"token_type\":\"DPoP\"}", NULL);
    none = run_grant (twice, config, NULL, fresh, NULL, &twice_error);
    g_assert_null (none);
    g_assert_error (twice_error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    g_assert_nonnull (strstr (twice_error->message, "use_dpop_nonce"));
    g_assert_cmpuint (twice->requests->len, ==, 2);
  }

  /* Without a key, a DPoP token is refused */
  {
    g_autoptr(As) bearer = as_new ();
    g_autoptr(McpOAuthTokens) none = NULL;
    g_autoptr(GError) bearer_error = NULL;

    as_answer (bearer, "/token", 200, "{\"access_token\":\"" ACCESS "\",\"token_type\":\"DPoP\"}", NULL);
    none = run_grant (bearer, config, NULL, NULL, NULL, &bearer_error);
    g_assert_null (none);
    g_assert_error (bearer_error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    g_assert_null (as_request (bearer, 0)->dpop);
  }
}

/* McpOAuthProvider: sign-in, a challenge and the renewal run the grant,
 * without a browser, and the tokens are stored */

static McpOAuthTokens *
stored_tokens (McpTokenStore *store,
               const char    *url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthTokens *tokens;

  mcp_token_store_lookup_tokens_async (store, "grants", url, NULL, test_result_cb, &result);
  tokens = mcp_token_store_lookup_tokens_finish (store, test_wait_result (&result, "the store"), &error);
  g_assert_no_error (error);
  return tokens;
}

static void
test_provider_grant (void)
{
  g_autoptr(As) as = as_new ();
  g_autofree char *dir = g_dir_make_tmp ("grants-XXXXXX", NULL);
  g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", store_path);
  g_autofree char *url = g_strconcat (as->base, "/mcp", NULL);
  g_autoptr(JsonObject) oauth = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *authorization = NULL;
  g_autofree char *challenge = NULL;
  g_autofree char *contents = NULL;

  as_answer (as, "/.well-known/oauth-protected-resource/mcp", 200,
             "{\"resource\":\"%BASE%/mcp\",\"authorization_servers\":[\"%BASE%\"],\"scopes_supported\":[\"tools\"]}",
             NULL);
  as_answer (as, "/.well-known/oauth-authorization-server", 200,
             "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/authorize\","
             "\"token_endpoint\":\"%BASE%/token\",\"grant_types_supported\":[\"client_credentials\"],"
             "\"token_endpoint_auth_methods_supported\":[\"client_secret_post\"]}", NULL);
  as_answer (as, "/token", 200, "{\"access_token\":\"grant-token-1\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL);
  as_answer (as, "/token", 200, "{\"access_token\":\"grant-token-2\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL);

  oauth = object_from_text ("{\"grant\":\"client_credentials\",\"clientId\":\"" CLIENT_ID "\","
                            "\"clientSecret\":\"" CLIENT_SECRET "\"}");
  provider = mcp_oauth_provider_new ("grants", url, oauth, store);

  /* plugboard-cli login: no open-URL function, no browser */
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, "the sign-in"), &error);
  g_assert_no_error (error);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));
  g_assert_cmpstr (authorization, ==, "Bearer grant-token-1");
  tokens = stored_tokens (store, url);
  g_assert_nonnull (tokens);
  g_assert_cmpstr (tokens->access_token, ==, "grant-token-1");
  g_assert_cmpstr (tokens->issuer, ==, as->base);
  {
    Request *request = as_request (as, as->requests->len - 1);

    g_assert_cmpstr (request->path, ==, "/token");
    g_assert_cmpstr (param (request, "grant_type"), ==, "client_credentials");
    /* The AS lists client_secret_post only */
    g_assert_cmpstr (param (request, "client_secret"), ==, CLIENT_SECRET);
    g_assert_cmpstr (param (request, "scope"), ==, "tools");
  }

  /* The file store keeps the tokens; not the client secret */
  g_assert_true (g_file_get_contents (store_path, &contents, NULL, NULL));
  assert_absent (contents, CLIENT_SECRET);

  /* A 401 later (the token has no refresh token): the grant runs again */
  test_wait_ms (2100);
  challenge = g_strdup_printf ("Bearer resource_metadata=\"%s/.well-known/oauth-protected-resource/mcp\"", as->base);
  g_clear_object (&result);
  mcp_auth_provider_handle_challenge_async (MCP_AUTH_PROVIDER (provider), 401, challenge, NULL,
                                            test_result_cb, &result);
  g_assert_true (mcp_auth_provider_handle_challenge_finish (MCP_AUTH_PROVIDER (provider),
                                                            test_wait_result (&result, "the challenge"), &error));
  g_assert_no_error (error);
  g_clear_pointer (&authorization, g_free);
  authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));
  g_assert_cmpstr (authorization, ==, "Bearer grant-token-2");
  g_clear_pointer (&tokens, mcp_oauth_tokens_free);
  tokens = stored_tokens (store, url);
  g_assert_cmpstr (tokens->access_token, ==, "grant-token-2");
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (as->served, "/token")), ==, 2);

  g_clear_object (&provider);
  g_remove (store_path);
  g_rmdir (dir);
}

/* An AS that offers DPoP: the grant's tokens are bound, kept with their
 * key, and every request carries "Authorization: DPoP" and a proof */
static void
test_provider_grant_dpop (void)
{
  g_autoptr(As) as = as_new ();
  g_autofree char *dir = g_dir_make_tmp ("grants-XXXXXX", NULL);
  g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", store_path);
  g_autofree char *url = g_strconcat (as->base, "/mcp", NULL);
  g_autoptr(JsonObject) oauth = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthProvider) reloaded = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autoptr(JsonObject) claims = NULL;
  SoupMessageHeaders *headers;
  Request *request;

  as_answer (as, "/.well-known/oauth-protected-resource/mcp", 200,
             "{\"resource\":\"%BASE%/mcp\",\"authorization_servers\":[\"%BASE%\"]}", NULL);
  as_answer (as, "/.well-known/oauth-authorization-server", 200,
             "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/authorize\","
             "\"token_endpoint\":\"%BASE%/token\",\"dpop_signing_alg_values_supported\":[\"ES256\"]}", NULL);
  as_answer (as, "/token", 400, "{\"error\":\"use_dpop_nonce\"}", "as-nonce");
  as_answer (as, "/token", 200, "{\"access_token\":\"bound-token\",\"token_type\":\"DPoP\",\"expires_in\":3600}", NULL);

  oauth = object_from_text ("{\"grant\":\"client_credentials\",\"clientId\":\"" CLIENT_ID "\","
                            "\"clientSecret\":\"" CLIENT_SECRET "\"}");
  provider = mcp_oauth_provider_new ("grants", url, oauth, store);
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, "the sign-in"), &error);
  g_assert_no_error (error);

  /* The nonce was asked for and honoured, once */
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (as->served, "/token")), ==, 2);
  request = as_request (as, as->requests->len - 1);
  g_assert_nonnull (request->dpop);

  tokens = stored_tokens (store, url);
  g_assert_cmpstr (tokens->token_type, ==, "DPoP");
  g_assert_nonnull (tokens->dpop_key);
  key = mcp_jose_key_new_from_pem (tokens->dpop_key, MCP_JOSE_ALG_ES256, &error);
  g_assert_no_error (error);
  jwk = mcp_jose_key_get_public_jwk (key);
  /* The token request's proof was made with the stored key */
  claims = mcp_jose_verify (request->dpop, jwk, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (claims, "nonce"), ==, "as-nonce");

  /* A request to the server: DPoP scheme and a proof with "ath" */
  for (guint i = 0; i < 2; i++)
    {
      McpOAuthProvider *p;
      g_autoptr(JsonObject) proof = NULL;

      if (i == 0)
        p = provider;
      else
        {
          /* Another start: the stored bound token brings its key back */
          reloaded = mcp_oauth_provider_new ("grants", url, oauth, store);
          g_clear_object (&result);
          mcp_oauth_provider_load_async (reloaded, NULL, test_result_cb, &result);
          g_assert_true (mcp_oauth_provider_load_finish (reloaded, test_wait_result (&result, "the load"), &error));
          p = reloaded;
        }
      g_clear_object (&message);
      message = soup_message_new ("POST", url);
      mcp_auth_provider_authorize_message (MCP_AUTH_PROVIDER (p), message);
      headers = soup_message_get_request_headers (message);
      g_assert_cmpstr (soup_message_headers_get_one (headers, "Authorization"), ==, "DPoP bound-token");
      g_assert_nonnull (soup_message_headers_get_one (headers, "DPoP"));
      proof = mcp_jose_verify (soup_message_headers_get_one (headers, "DPoP"), jwk, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (json_object_has_member (proof, "ath"));
    }

  g_remove (store_path);
  g_rmdir (dir);
}

/* The enterprise ID token from an OpenID sign-in at the IdP: the
 * "browser" follows the IdP's authorization URL back to the listener */

typedef struct
{
  SoupSession *browser;
  char        *url;
  GBytes      *page;
  gboolean     done;
} Browser;

static void
browsed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Browser *browser = user_data;

  browser->page = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);
  browser->done = TRUE;
}

static void
idp_open_url_cb (McpOAuthProvider *provider,
                 const char       *url,
                 gpointer          user_data)
{
  Browser *browser = user_data;
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  g_autoptr(GHashTable) query = soup_form_decode (g_uri_get_query (uri));
  g_autofree char *back = NULL;
  g_autoptr(SoupMessage) message = NULL;

  browser->url = g_strdup (url);
  g_assert_cmpstr (g_hash_table_lookup (query, "response_type"), ==, "code");
  g_assert_cmpstr (g_hash_table_lookup (query, "scope"), ==, "openid");
  g_assert_cmpstr (g_hash_table_lookup (query, "client_id"), ==, "idp-client");
  g_assert_cmpstr (g_hash_table_lookup (query, "code_challenge_method"), ==, "S256");
  back = g_strdup_printf ("%s?code=idp-code&state=%s", (char *) g_hash_table_lookup (query, "redirect_uri"),
                          (char *) g_hash_table_lookup (query, "state"));
  message = soup_message_new ("GET", back);
  soup_session_send_and_read_async (browser->browser, message, G_PRIORITY_DEFAULT, NULL, browsed_cb, browser);
}

static void
test_provider_enterprise_sign_in (void)
{
  g_autoptr(As) as = as_new ();
  g_autofree char *dir = g_dir_make_tmp ("grants-XXXXXX", NULL);
  g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", store_path);
  g_autofree char *url = g_strconcat (as->base, "/mcp", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) oauth = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Browser browser = { 0 };
  Request *code_exchange;

  as_answer (as, "/.well-known/oauth-protected-resource/mcp", 200,
             "{\"resource\":\"%BASE%/mcp\",\"authorization_servers\":[\"%BASE%\"]}", NULL);
  as_answer (as, "/.well-known/oauth-authorization-server", 200,
             "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/authorize\","
             "\"token_endpoint\":\"%BASE%/token\"}", NULL);
  as_answer (as, "/idp/.well-known/openid-configuration", 200,
             "{\"issuer\":\"%BASE%/idp\",\"authorization_endpoint\":\"%BASE%/idp/authorize\","
             "\"token_endpoint\":\"%BASE%/idp/token\"}", NULL);
  as_answer (as, "/idp/token", 200, "{\"id_token\":\"" ID_TOKEN "\",\"access_token\":\"idp-access\","
                                    "\"token_type\":\"Bearer\"}", NULL);
  as_answer (as, "/idp/token", 200, ID_JAG_ANSWER, NULL);
  as_answer (as, "/token", 200, "{\"access_token\":\"enterprise-token\",\"token_type\":\"Bearer\"}", NULL);

  text = g_strdup_printf ("{\"grant\":\"enterprise\",\"clientId\":\"xaa-client\",\"clientSecret\":\"xaa-secret\","
                          "\"scopes\":[\"tools\"],\"idp\":{\"issuer\":\"%s/idp\",\"clientId\":\"idp-client\","
                          "\"idToken\":{\"signIn\":true}}}", as->base);
  oauth = object_from_text (text);
  provider = mcp_oauth_provider_new ("grants", url, oauth, store);

  /* Without a browser it cannot */
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  g_assert_false (mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, "the sign-in"), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_cmpuint (as->requests->len, ==, 0);
  g_clear_error (&error);
  g_clear_object (&result);

  browser.browser = soup_session_new ();
  soup_session_set_proxy_resolver (browser.browser, NULL);
  mcp_oauth_provider_set_open_url_func (provider, idp_open_url_cb, &browser, NULL);
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, "the sign-in"), &error);
  g_assert_no_error (error);
  test_iterate_until (test_flag_set, &browser.done, "the browser's page");
  g_assert_nonnull (browser.page);

  {
    g_autofree char *authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));

    g_assert_cmpstr (authorization, ==, "Bearer enterprise-token");
  }
  /* The code exchange at the IdP with PKCE, then the token exchange, then the JWT bearer grant */
  code_exchange = as_request (as, as->requests->len - 3);
  g_assert_cmpstr (code_exchange->path, ==, "/idp/token");
  g_assert_cmpstr (param (code_exchange, "grant_type"), ==, "authorization_code");
  g_assert_cmpstr (param (code_exchange, "code"), ==, "idp-code");
  g_assert_nonnull (param (code_exchange, "code_verifier"));
  g_assert_cmpstr (param (code_exchange, "client_id"), ==, "idp-client");
  assert_enterprise_requests (as, as->requests->len - 2, ID_TOKEN);

  mcp_oauth_provider_set_open_url_func (provider, NULL, NULL, NULL);
  g_clear_object (&provider);
  g_clear_pointer (&browser.page, g_bytes_unref);
  g_clear_object (&browser.browser);
  g_free (browser.url);
  g_remove (store_path);
  g_rmdir (dir);
}

/* Settings a provider cannot use: every sign-in says what is wrong */
static void
test_provider_bad_grant (void)
{
  g_autoptr(As) as = as_new ();
  g_autofree char *dir = g_dir_make_tmp ("grants-XXXXXX", NULL);
  g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", store_path);
  g_autofree char *url = g_strconcat (as->base, "/mcp", NULL);
  g_autoptr(JsonObject) oauth = object_from_text ("{\"grant\":\"jwt_bearer\"}");
  g_autoptr(McpOAuthProvider) provider = mcp_oauth_provider_new ("grants", url, oauth, store);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  g_assert_false (mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, "the sign-in"), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "oauth.assertion"));
  g_assert_nonnull (strstr (error->message, "grants"));
  g_assert_cmpuint (as->requests->len, ==, 0);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");

  g_test_add_func ("/auth/grants/config", test_config);
  g_test_add_func ("/auth/grants/client-credentials-basic", test_client_credentials_basic);
  g_test_add_func ("/auth/grants/client-credentials-post", test_client_credentials_post);
  g_test_add_func ("/auth/grants/client-credentials-private-key-jwt", test_client_credentials_private_key_jwt);
  g_test_add_func ("/auth/grants/jwt-bearer-file", test_jwt_bearer_file);
  g_test_add_func ("/auth/grants/jwt-bearer-env", test_jwt_bearer_env);
  g_test_add_func ("/auth/grants/errors-not-retried", test_errors_not_retried);
  g_test_add_func ("/auth/grants/enterprise-command", test_enterprise_command);
  g_test_add_func ("/auth/grants/enterprise-discovered-idp", test_enterprise_discovered_idp);
  g_test_add_func ("/auth/grants/command-source-errors", test_command_source_errors);
  g_test_add_func ("/auth/grants/dpop-nonce", test_dpop_nonce);
  g_test_add_func ("/auth/grants/provider", test_provider_grant);
  g_test_add_func ("/auth/grants/provider-dpop", test_provider_grant_dpop);
  g_test_add_func ("/auth/grants/provider-enterprise-sign-in", test_provider_enterprise_sign_in);
  g_test_add_func ("/auth/grants/provider-bad-grant", test_provider_bad_grant);

  return g_test_run ();
}
