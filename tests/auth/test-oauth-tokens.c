/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-tokens"

#include "config.h"

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-tokens.h"
#include "oauth-test-server.h"

#define REDIRECT "http://127.0.0.1:4711/callback"
#define SECRET "very-secret-value"
#define ACCESS "access-token-value"
#define REFRESH "refresh-token-value"
#define OK_ANSWER "{\"access_token\":\"" ACCESS "\",\"token_type\":\"bearer\",\"expires_in\":3600," \
                  "\"refresh_token\":\"" REFRESH "\"}"

static McpOAuthMetadata *
metadata_new (TestServer *ts)
{
  McpOAuthMetadata *m = g_new0 (McpOAuthMetadata, 1);

  m->server_url = test_server_url (ts, "/mcp");
  m->resource = test_server_url (ts, "/mcp");
  m->issuer = g_strdup (ts->base);
  m->authorization_endpoint = test_server_url (ts, "/authorize");
  m->token_endpoint = test_server_url (ts, "/token");
  return m;
}

static McpOAuthClientInfo *
client_new (const char *method,
            const char *id,
            const char *secret)
{
  McpOAuthClientInfo *c = g_new0 (McpOAuthClientInfo, 1);

  c->kind = MCP_OAUTH_CLIENT_PRE_REGISTERED;
  c->client_id = g_strdup (id);
  c->client_secret = g_strdup (secret);
  c->token_endpoint_auth_method = g_strdup (method);
  return c;
}

static McpOAuthTokens *
exchange (McpOAuthMetadata   *m,
          McpOAuthClientInfo *c,
          GError            **error)
{
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GAsyncResult) result = NULL;

  mcp_oauth_exchange_code_async (session, m, c, "the-code", "the-verifier", REDIRECT, "files:read",
                                 NULL, NULL, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  return mcp_oauth_exchange_code_finish (result, error);
}

static McpOAuthTokens *
refresh (McpOAuthTokens     *tokens,
         McpOAuthClientInfo *c,
         const char         *resource,
         GError            **error)
{
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GAsyncResult) result = NULL;

  mcp_oauth_refresh_async (session, tokens, c, resource, NULL, NULL, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  return mcp_oauth_refresh_finish (result, error);
}

static McpOAuthTokens *
old_tokens_new (TestServer *ts)
{
  McpOAuthTokens *t = g_new0 (McpOAuthTokens, 1);

  t->access_token = g_strdup ("old-" ACCESS);
  t->token_type = g_strdup ("Bearer");
  t->refresh_token = g_strdup ("old-" REFRESH);
  t->scope = g_strdup ("files:read");
  t->expires_at = 1;
  t->token_endpoint = test_server_url (ts, "/token");
  t->issuer = g_strdup (ts->base);
  return t;
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

static void
assert_no_secret (const char *message)
{
  const char *secrets[] = { SECRET, ACCESS, REFRESH, "the-code", "the-verifier" };

  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    {
      if (strstr (message, secrets[i]) != NULL)
        g_error ("“%s” shows the secret “%s”", message, secrets[i]);
    }
}

static void
assert_exchange_form (TestServer *ts,
                      GHashTable *form)
{
  g_autofree char *resource = test_server_url (ts, "/mcp");

  g_assert_cmpstr (g_hash_table_lookup (form, "grant_type"), ==, "authorization_code");
  g_assert_cmpstr (g_hash_table_lookup (form, "code"), ==, "the-code");
  g_assert_cmpstr (g_hash_table_lookup (form, "redirect_uri"), ==, REDIRECT);
  g_assert_cmpstr (g_hash_table_lookup (form, "code_verifier"), ==, "the-verifier");
  g_assert_cmpstr (g_hash_table_lookup (form, "resource"), ==, resource);
}

static void
test_exchange_none (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("none", "public-client", NULL);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;
  TestRequest *request;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  test_server_route (ts, "/token", 200, OK_ANSWER);

  t = exchange (m, c, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->access_token, ==, ACCESS);
  g_assert_cmpstr (t->token_type, ==, "Bearer");
  g_assert_cmpstr (t->refresh_token, ==, REFRESH);
  /* The AS said no scope: the requested one. */
  g_assert_cmpstr (t->scope, ==, "files:read");
  g_assert_cmpint (t->expires_at, >=, now + 3600);
  g_assert_cmpint (t->expires_at, <=, now + 3600 + 5);
  g_assert_cmpstr (t->token_endpoint, ==, m->token_endpoint);
  g_assert_cmpstr (t->issuer, ==, ts->base);

  g_assert_cmpuint (ts->requests->len, ==, 1);
  request = test_server_request (ts, 0);
  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_cmpstr (request->path, ==, "/token");
  g_assert_cmpstr (request->accept, ==, "application/json");
  g_assert_null (request->authorization);
  form = test_request_form (request);
  assert_exchange_form (ts, form);
  g_assert_cmpstr (g_hash_table_lookup (form, "client_id"), ==, "public-client");
  g_assert_false (g_hash_table_contains (form, "client_secret"));
}

static void
test_exchange_basic (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts);
  /* RFC 6749 §2.3.1: both are form-urlencoded before Basic. */
  g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_basic", "my client:1", "p@ss word");
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;
  TestRequest *request;
  g_autofree char *expected = NULL;
  g_autofree char *base64 = NULL;
  const char *pair = "my+client%3A1:p%40ss+word";

  test_server_route (ts, "/token", 200,
                     "{\"access_token\":\"" ACCESS "\",\"token_type\":\"Bearer\",\"scope\":\"files:read files:write\"}");

  t = exchange (m, c, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->scope, ==, "files:read files:write");
  g_assert_null (t->refresh_token);
  g_assert_cmpint (t->expires_at, ==, 0);

  request = test_server_request (ts, 0);
  base64 = g_base64_encode ((const guchar *) pair, strlen (pair));
  expected = g_strconcat ("Basic ", base64, NULL);
  g_assert_cmpstr (request->authorization, ==, expected);
  form = test_request_form (request);
  assert_exchange_form (ts, form);
  g_assert_false (g_hash_table_contains (form, "client_secret"));
  g_assert_false (g_hash_table_contains (form, "client_id"));
}

static void
test_exchange_post (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_post", "conf", SECRET);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;
  TestRequest *request;

  test_server_route (ts, "/token", 200, OK_ANSWER);

  t = exchange (m, c, &error);
  g_assert_no_error (error);
  request = test_server_request (ts, 0);
  g_assert_null (request->authorization);
  form = test_request_form (request);
  assert_exchange_form (ts, form);
  g_assert_cmpstr (g_hash_table_lookup (form, "client_id"), ==, "conf");
  g_assert_cmpstr (g_hash_table_lookup (form, "client_secret"), ==, SECRET);
}

static void
test_exchange_no_resource (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("none", "public-client", NULL);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;

  g_clear_pointer (&m->resource, g_free);
  test_server_route (ts, "/token", 200, OK_ANSWER);
  t = exchange (m, c, &error);
  g_assert_no_error (error);
  form = test_request_form (test_server_request (ts, 0));
  g_assert_false (g_hash_table_contains (form, "resource"));
}

static void
test_exchange_error_answers (void)
{
  struct {
    guint status;
    const char *body;
    const char *parts[3];
  } cases[] = {
    { 400, "{\"error\":\"invalid_client\",\"error_description\":\"unknown client\"}",
      { "invalid_client", "unknown client", "400" } },
    { 401, "{\"error\":\"invalid_client\"}", { "invalid_client", "401", NULL } },
    { 500, "oops " ACCESS, { "500", NULL, NULL } },
    { 200, "{\"token_type\":\"Bearer\",\"refresh_token\":\"" REFRESH "\"}", { "access_token", NULL, NULL } },
    { 200, "{\"access_token\":\"" ACCESS "\",\"token_type\":\"mac\"}", { "token type other than Bearer", NULL, NULL } },
    { 200, "{\"access_token\":\"" ACCESS "\"}", { "no token type", NULL, NULL } },
    { 200, "{\"access_token\":\"" ACCESS "\",", { "JSON", NULL, NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TestServer) ts = test_server_new ();
      g_autoptr(McpOAuthMetadata) m = metadata_new (ts);
      g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_post", "conf", SECRET);
      g_autoptr(McpOAuthTokens) t = NULL;
      g_autoptr(GError) error = NULL;

      test_server_route (ts, "/token", cases[i].status, cases[i].body);
      t = exchange (m, c, &error);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
      g_assert_null (t);
      assert_contains (error->message, m->token_endpoint);
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].parts) && cases[i].parts[j] != NULL; j++)
        assert_contains (error->message, cases[i].parts[j]);
      assert_no_secret (error->message);
    }
}

static void
test_refresh_keeps_refresh_token (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthTokens) old = old_tokens_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("none", "public-client", NULL);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;
  g_autofree char *resource = test_server_url (ts, "/mcp");

  test_server_route (ts, "/token", 200, "{\"access_token\":\"new-" ACCESS "\",\"token_type\":\"Bearer\",\"expires_in\":60}");

  t = refresh (old, c, resource, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->access_token, ==, "new-" ACCESS);
  g_assert_cmpstr (t->refresh_token, ==, "old-" REFRESH);
  g_assert_cmpstr (t->scope, ==, "files:read");
  g_assert_cmpstr (t->issuer, ==, ts->base);
  g_assert_cmpint (t->expires_at, >, 1);

  form = test_request_form (test_server_request (ts, 0));
  g_assert_cmpstr (g_hash_table_lookup (form, "grant_type"), ==, "refresh_token");
  g_assert_cmpstr (g_hash_table_lookup (form, "refresh_token"), ==, "old-" REFRESH);
  g_assert_cmpstr (g_hash_table_lookup (form, "resource"), ==, resource);
  g_assert_cmpstr (g_hash_table_lookup (form, "client_id"), ==, "public-client");
  g_assert_false (g_hash_table_contains (form, "code"));
}

static void
test_refresh_rotates_refresh_token (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthTokens) old = old_tokens_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_basic", "conf", SECRET);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;

  test_server_route (ts, "/token", 200, OK_ANSWER);

  t = refresh (old, c, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->refresh_token, ==, REFRESH);
  g_assert_nonnull (test_server_request (ts, 0)->authorization);
  form = test_request_form (test_server_request (ts, 0));
  g_assert_false (g_hash_table_contains (form, "resource"));
}

static void
test_refresh_invalid_grant (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthTokens) old = old_tokens_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_post", "conf", SECRET);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;

  test_server_route (ts, "/token", 400,
                     "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token revoked\"}");

  t = refresh (old, c, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (t);
  assert_contains (error->message, "expired");
  assert_contains (error->message, "sign in again");
  assert_contains (error->message, ts->base);
  assert_contains (error->message, "refresh token revoked");
  assert_no_secret (error->message);
  g_assert_null (strstr (error->message, "old-" REFRESH));
}

static void
test_refresh_without_refresh_token (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthTokens) old = old_tokens_new (ts);
  g_autoptr(McpOAuthClientInfo) c = client_new ("none", "public-client", NULL);
  g_autoptr(McpOAuthTokens) t = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&old->refresh_token, g_free);
  t = refresh (old, c, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (t);
  g_assert_cmpuint (ts->requests->len, ==, 0);
}

static void
test_no_secret_in_errors (void)
{
  /* Every failure, with answers that echo every secret back. */
  const char *bodies[] = {
    "{\"error\":\"invalid_request\",\"error_description\":\"bad\",\"access_token\":\"" ACCESS "\","
    "\"client_secret\":\"" SECRET "\",\"refresh_token\":\"" REFRESH "\"}",
    "code=the-code&code_verifier=the-verifier&client_secret=" SECRET,
    "{\"access_token\":\"" ACCESS "\",\"refresh_token\":\"" REFRESH "\"",
    "{\"access_token\":\"" ACCESS "\",\"token_type\":\"" SECRET "\"}",
  };
  guint statuses[] = { 400, 500, 200, 200 };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      g_autoptr(TestServer) ts = test_server_new ();
      g_autoptr(McpOAuthMetadata) m = metadata_new (ts);
      g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_post", "conf", SECRET);
      g_autoptr(McpOAuthTokens) old = old_tokens_new (ts);
      g_autoptr(McpOAuthTokens) t1 = NULL;
      g_autoptr(McpOAuthTokens) t2 = NULL;
      g_autoptr(GError) error1 = NULL;
      g_autoptr(GError) error2 = NULL;

      g_free (old->refresh_token);
      old->refresh_token = g_strdup (REFRESH);
      test_server_route_text (ts, "/token", statuses[i], bodies[i]);

      t1 = exchange (m, c, &error1);
      g_assert_nonnull (error1);
      assert_no_secret (error1->message);

      t2 = refresh (old, c, NULL, &error2);
      g_assert_nonnull (error2);
      assert_no_secret (error2->message);
    }

  {
    g_autoptr(McpOAuthMetadata) m = g_new0 (McpOAuthMetadata, 1);
    g_autoptr(McpOAuthClientInfo) c = client_new ("client_secret_basic", "conf", SECRET);
    g_autoptr(McpOAuthTokens) t = NULL;
    g_autoptr(GError) error = NULL;

    m->token_endpoint = test_closed_url ("/token");
    t = exchange (m, c, &error);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    assert_contains (error->message, m->token_endpoint);
    assert_no_secret (error->message);
  }
}

static void
test_tokens_json (void)
{
  McpOAuthTokens tokens = {
    .access_token = ACCESS,
    .token_type = "Bearer",
    .refresh_token = REFRESH,
    .scope = "a b",
    .expires_at = 1900000000,
    .token_endpoint = "https://as.example/token",
    .issuer = "https://as.example",
    .dpop_key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n-----END PRIVATE KEY-----\n",
  };
  g_autoptr(JsonNode) node = mcp_oauth_tokens_to_json (&tokens);
  g_autoptr(McpOAuthTokens) back = NULL;
  g_autoptr(McpOAuthTokens) copy = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object = json_node_get_object (node);

  g_assert_cmpint (json_object_get_int_member (object, "expires_at"), ==, 1900000000);
  back = mcp_oauth_tokens_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->access_token, ==, ACCESS);
  g_assert_cmpstr (back->token_type, ==, "Bearer");
  g_assert_cmpstr (back->refresh_token, ==, REFRESH);
  g_assert_cmpstr (back->scope, ==, "a b");
  g_assert_cmpint (back->expires_at, ==, 1900000000);
  g_assert_cmpstr (back->token_endpoint, ==, tokens.token_endpoint);
  g_assert_cmpstr (back->issuer, ==, tokens.issuer);
  /* A DPoP-bound token keeps its key with it (RFC 9449) */
  g_assert_cmpstr (back->dpop_key, ==, tokens.dpop_key);

  copy = mcp_oauth_tokens_copy (back);
  g_assert_cmpstr (copy->refresh_token, ==, REFRESH);
  g_assert_true (copy->access_token != back->access_token);
  g_assert_cmpstr (copy->dpop_key, ==, tokens.dpop_key);
  g_assert_true (copy->dpop_key != back->dpop_key);

  /* Bearer tokens have none, and none is written */
  {
    McpOAuthTokens bearer = { .access_token = ACCESS, .token_type = "Bearer" };
    g_autoptr(JsonNode) bearer_node = mcp_oauth_tokens_to_json (&bearer);
    g_autoptr(McpOAuthTokens) bearer_back = NULL;

    g_assert_false (json_object_has_member (json_node_get_object (bearer_node), "dpop_key"));
    bearer_back = mcp_oauth_tokens_from_json (bearer_node, &error);
    g_assert_no_error (error);
    g_assert_null (bearer_back->dpop_key);
  }

  {
    const char *bad[] = { "[]", "{\"token_type\":\"Bearer\"}", "{\"access_token\":5}" };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(JsonNode) bad_node = mcp_json_parse (bad[i], strlen (bad[i]), NULL);
        g_autoptr(GError) bad_error = NULL;
        g_autoptr(McpOAuthTokens) none = mcp_oauth_tokens_from_json (bad_node, &bad_error);

        g_assert_error (bad_error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
        g_assert_null (none);
      }
  }
}

static void
test_expire_within (void)
{
  McpOAuthTokens t = { .access_token = ACCESS };
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  g_assert_false (mcp_oauth_tokens_expire_within (&t, 1000000));
  t.expires_at = now + 600;
  g_assert_false (mcp_oauth_tokens_expire_within (&t, 60));
  g_assert_true (mcp_oauth_tokens_expire_within (&t, 600));
  t.expires_at = now - 1;
  g_assert_true (mcp_oauth_tokens_expire_within (&t, 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");

  g_test_add_func ("/auth/tokens/exchange-none", test_exchange_none);
  g_test_add_func ("/auth/tokens/exchange-basic", test_exchange_basic);
  g_test_add_func ("/auth/tokens/exchange-post", test_exchange_post);
  g_test_add_func ("/auth/tokens/exchange-no-resource", test_exchange_no_resource);
  g_test_add_func ("/auth/tokens/exchange-error-answers", test_exchange_error_answers);
  g_test_add_func ("/auth/tokens/refresh-keeps-refresh-token", test_refresh_keeps_refresh_token);
  g_test_add_func ("/auth/tokens/refresh-rotates-refresh-token", test_refresh_rotates_refresh_token);
  g_test_add_func ("/auth/tokens/refresh-invalid-grant", test_refresh_invalid_grant);
  g_test_add_func ("/auth/tokens/refresh-without-refresh-token", test_refresh_without_refresh_token);
  g_test_add_func ("/auth/tokens/no-secret-in-errors", test_no_secret_in_errors);
  g_test_add_func ("/auth/tokens/json", test_tokens_json);
  g_test_add_func ("/auth/tokens/expire-within", test_expire_within);

  return g_test_run ();
}
