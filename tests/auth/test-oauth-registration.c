/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-registration"

#include "config.h"

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-client-info.h"
#include "oauth-test-server.h"

#define REDIRECT "http://127.0.0.1:4711/callback"

static McpOAuthMetadata *
metadata_new (TestServer *ts,
              const char *auth_methods_json)
{
  McpOAuthMetadata *m = g_new0 (McpOAuthMetadata, 1);

  m->server_url = test_server_url (ts, "/mcp");
  m->resource = test_server_url (ts, "/mcp");
  m->issuer = g_strdup (ts->base);
  m->authorization_endpoint = test_server_url (ts, "/authorize");
  m->token_endpoint = test_server_url (ts, "/token");
  m->registration_endpoint = test_server_url (ts, "/register");
  if (auth_methods_json != NULL)
    {
      g_autoptr(JsonNode) node = mcp_json_parse (auth_methods_json, strlen (auth_methods_json), NULL);
      JsonArray *array = json_node_get_array (node);

      m->token_endpoint_auth_methods_supported = g_new0 (char *, json_array_get_length (array) + 1);
      for (guint i = 0; i < json_array_get_length (array); i++)
        m->token_endpoint_auth_methods_supported[i] = g_strdup (json_array_get_string_element (array, i));
    }

  return m;
}

static McpOAuthClientInfo *
register_client (TestServer       *ts,
                 McpOAuthMetadata *m,
                 const char       *scope,
                 GError          **error)
{
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GAsyncResult) result = NULL;

  mcp_oauth_register_client_async (session, m, REDIRECT, scope, NULL, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);

  return mcp_oauth_register_client_finish (result, error);
}

static JsonObject *
request_object (TestRequest *request,
                JsonNode   **keep)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (request->method, ==, "POST");
  g_assert_cmpstr (request->content_type, ==, "application/json");
  *keep = mcp_json_parse (request->body, strlen (request->body), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (*keep));
  return json_node_get_object (*keep);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

static void
test_register_public (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"client_secret_basic\",\"none\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) body = NULL;
  JsonObject *object;
  JsonArray *array;

  test_server_route (ts, "/register", 201, "{\"client_id\":\"dyn-123\",\"client_id_issued_at\":1700000000}");

  info = register_client (ts, m, "files:read files:write", &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  g_assert_cmpint (info->kind, ==, MCP_OAUTH_CLIENT_DYNAMIC);
  g_assert_cmpstr (info->client_id, ==, "dyn-123");
  g_assert_null (info->client_secret);
  g_assert_cmpstr (info->token_endpoint_auth_method, ==, "none");
  g_assert_cmpstr (info->redirect_uri, ==, REDIRECT);
  g_assert_cmpstr (info->issuer, ==, ts->base);
  g_assert_cmpint (info->client_secret_expires_at, ==, 0);

  g_assert_cmpuint (ts->requests->len, ==, 1);
  g_assert_cmpstr (test_server_request (ts, 0)->path, ==, "/register");
  g_assert_cmpstr (test_server_request (ts, 0)->accept, ==, "application/json");
  object = request_object (test_server_request (ts, 0), &body);
  g_assert_cmpstr (json_object_get_string_member (object, "client_name"), ==, "Plugboard");
  array = json_object_get_array_member (object, "redirect_uris");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (array, 0), ==, REDIRECT);
  array = json_object_get_array_member (object, "grant_types");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (array, 0), ==, "authorization_code");
  g_assert_cmpstr (json_array_get_string_element (array, 1), ==, "refresh_token");
  array = json_object_get_array_member (object, "response_types");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (array, 0), ==, "code");
  g_assert_cmpstr (json_object_get_string_member (object, "token_endpoint_auth_method"), ==, "none");
  g_assert_cmpstr (json_object_get_string_member (object, "application_type"), ==, "native");
  g_assert_cmpstr (json_object_get_string_member (object, "scope"), ==, "files:read files:write");
}

static void
test_register_confidential (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  /* No list: RFC 8414 says client_secret_basic only. */
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, NULL);
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) body = NULL;
  JsonObject *object;

  test_server_route (ts, "/register", 200,
                     "{\"client_id\":\"conf-1\",\"client_secret\":\"s3cr3t\","
                     "\"token_endpoint_auth_method\":\"client_secret_post\","
                     "\"client_secret_expires_at\":1900000000}");

  info = register_client (ts, m, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (info->client_id, ==, "conf-1");
  g_assert_cmpstr (info->client_secret, ==, "s3cr3t");
  /* The AS's answer wins over what was asked. */
  g_assert_cmpstr (info->token_endpoint_auth_method, ==, "client_secret_post");
  g_assert_cmpint (info->client_secret_expires_at, ==, 1900000000);

  object = request_object (test_server_request (ts, 0), &body);
  g_assert_cmpstr (json_object_get_string_member (object, "token_endpoint_auth_method"), ==, "client_secret_basic");
  g_assert_false (json_object_has_member (object, "scope"));
}

static void
test_register_method_kept_when_unanswered (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"client_secret_post\",\"private_key_jwt\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) body = NULL;
  JsonObject *object;

  test_server_route (ts, "/register", 201, "{\"client_id\":\"c\",\"client_secret\":\"x\"}");

  info = register_client (ts, m, NULL, &error);
  g_assert_no_error (error);
  object = request_object (test_server_request (ts, 0), &body);
  g_assert_cmpstr (json_object_get_string_member (object, "token_endpoint_auth_method"), ==, "client_secret_post");
  g_assert_cmpstr (info->token_endpoint_auth_method, ==, "client_secret_post");
}

static void
test_register_refused (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"none\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = test_server_url (ts, "/register");

  test_server_route (ts, "/register", 400,
                     "{\"error\":\"invalid_redirect_uri\",\"error_description\":\"loopback redirects are not allowed\"}");

  info = register_client (ts, m, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (info);
  assert_contains (error->message, "loopback redirects are not allowed");
  assert_contains (error->message, "invalid_redirect_uri");
  assert_contains (error->message, url);
  assert_contains (error->message, "400");
}

static void
test_register_missing_client_id (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"none\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = test_server_url (ts, "/register");

  test_server_route (ts, "/register", 201, "{\"client_secret\":\"leaked-secret\"}");

  info = register_client (ts, m, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (info);
  assert_contains (error->message, "client_id");
  assert_contains (error->message, url);
  g_assert_null (strstr (error->message, "leaked-secret"));
}

static void
test_register_malformed_answer (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"none\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  test_server_route (ts, "/register", 201, "{\"client_id\":\"c\",\"client_secret\":\"leaked-secret\"");

  info = register_client (ts, m, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (info);
  g_assert_null (strstr (error->message, "leaked-secret"));
}

static void
test_register_no_endpoint (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"none\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&m->registration_endpoint, g_free);
  info = register_client (ts, m, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (info);
  assert_contains (error->message, ts->base);
  assert_contains (error->message, "client ID");
  g_assert_cmpuint (ts->requests->len, ==, 0);
}

static void
test_register_network_error (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthMetadata) m = metadata_new (ts, "[\"none\"]");
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  g_free (m->registration_endpoint);
  m->registration_endpoint = test_closed_url ("/register");
  info = register_client (ts, m, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  assert_contains (error->message, m->registration_endpoint);
}

static void
test_pick_auth_method (void)
{
  McpOAuthMetadata m = { 0 };
  char *none_only[] = { "none", NULL };
  char *post_only[] = { "client_secret_post", NULL };
  char *both[] = { "client_secret_post", "client_secret_basic", NULL };
  char *jwt[] = { "private_key_jwt", NULL };

  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, FALSE), ==, "none");
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (NULL, TRUE), ==, "client_secret_basic");
  /* Absent list: client_secret_basic (RFC 8414). */
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, TRUE), ==, "client_secret_basic");
  m.token_endpoint_auth_methods_supported = both;
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, TRUE), ==, "client_secret_basic");
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, FALSE), ==, "none");
  m.token_endpoint_auth_methods_supported = post_only;
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, TRUE), ==, "client_secret_post");
  m.token_endpoint_auth_methods_supported = none_only;
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, TRUE), ==, "none");
  m.token_endpoint_auth_methods_supported = jwt;
  g_assert_cmpstr (mcp_oauth_pick_token_endpoint_auth_method (&m, TRUE), ==, "none");
}

static void
test_client_info_json (void)
{
  McpOAuthClientInfo info = {
    .kind = MCP_OAUTH_CLIENT_METADATA_DOCUMENT,
    .issuer = "https://as.example",
    .client_id = "https://plugboard.example/client.json",
    .client_secret = "shh",
    .token_endpoint_auth_method = "client_secret_basic",
    .redirect_uri = REDIRECT,
    .client_secret_expires_at = 42,
  };
  g_autoptr(JsonNode) node = mcp_oauth_client_info_to_json (&info);
  g_autoptr(McpOAuthClientInfo) back = NULL;
  g_autoptr(McpOAuthClientInfo) copy = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object = json_node_get_object (node);

  g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, "metadata-document");
  g_assert_cmpstr (json_object_get_string_member (object, "client_secret"), ==, "shh");

  back = mcp_oauth_client_info_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->kind, ==, MCP_OAUTH_CLIENT_METADATA_DOCUMENT);
  g_assert_cmpstr (back->issuer, ==, info.issuer);
  g_assert_cmpstr (back->client_id, ==, info.client_id);
  g_assert_cmpstr (back->client_secret, ==, "shh");
  g_assert_cmpstr (back->token_endpoint_auth_method, ==, "client_secret_basic");
  g_assert_cmpstr (back->redirect_uri, ==, REDIRECT);
  g_assert_cmpint (back->client_secret_expires_at, ==, 42);

  copy = mcp_oauth_client_info_copy (back);
  g_assert_cmpstr (copy->client_secret, ==, "shh");
  g_assert_true (copy->client_id != back->client_id);
}

static void
test_client_info_json_errors (void)
{
  const char *bad[] = {
    "[]",
    "{\"client_id\":\"x\"}",
    "{\"kind\":\"alien\",\"client_id\":\"x\"}",
    "{\"kind\":\"dynamic\"}",
    "{\"kind\":\"dynamic\",\"client_id\":7}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = mcp_json_parse (bad[i], strlen (bad[i]), NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpOAuthClientInfo) info = mcp_oauth_client_info_from_json (node, &error);

      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_null (info);
    }

  {
    const char *ok = "{\"kind\":\"pre-registered\",\"client_id\":\"abc\"}";
    g_autoptr(JsonNode) node = mcp_json_parse (ok, strlen (ok), NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(McpOAuthClientInfo) info = mcp_oauth_client_info_from_json (node, &error);

    g_assert_no_error (error);
    g_assert_cmpint (info->kind, ==, MCP_OAUTH_CLIENT_PRE_REGISTERED);
    g_assert_null (info->client_secret);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");

  g_test_add_func ("/auth/registration/public", test_register_public);
  g_test_add_func ("/auth/registration/confidential", test_register_confidential);
  g_test_add_func ("/auth/registration/method-kept", test_register_method_kept_when_unanswered);
  g_test_add_func ("/auth/registration/refused", test_register_refused);
  g_test_add_func ("/auth/registration/missing-client-id", test_register_missing_client_id);
  g_test_add_func ("/auth/registration/malformed-answer", test_register_malformed_answer);
  g_test_add_func ("/auth/registration/no-endpoint", test_register_no_endpoint);
  g_test_add_func ("/auth/registration/network-error", test_register_network_error);
  g_test_add_func ("/auth/registration/pick-auth-method", test_pick_auth_method);
  g_test_add_func ("/auth/registration/client-info-json", test_client_info_json);
  g_test_add_func ("/auth/registration/client-info-json-errors", test_client_info_json_errors);

  return g_test_run ();
}
