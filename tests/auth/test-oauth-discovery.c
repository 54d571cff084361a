/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-discovery"

#include "config.h"

#include "mcp-error.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-private.h"
#include "oauth-test-server.h"

#define PRM_PATH_AWARE "/.well-known/oauth-protected-resource/a/mcp"
#define PRM_ROOT "/.well-known/oauth-protected-resource"
#define AS_ROOT "/.well-known/oauth-authorization-server"
#define OIDC_ROOT "/.well-known/openid-configuration"

#define PRM_BODY "{\"resource\":\"%BASE%/a/mcp\",\"authorization_servers\":[\"%BASE%\"]," \
                 "\"scopes_supported\":[\"files:read\",\"files:write\"]}"
#define AS_BODY "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/oauth/authorize\"," \
                "\"token_endpoint\":\"%BASE%/oauth/token\",\"registration_endpoint\":\"%BASE%/oauth/register\"," \
                "\"code_challenge_methods_supported\":[\"S256\"]," \
                "\"token_endpoint_auth_methods_supported\":[\"none\"]," \
                "\"grant_types_supported\":[\"authorization_code\",\"refresh_token\"]," \
                "\"scopes_supported\":[\"openid\"],\"client_id_metadata_document_supported\":true}"
#define TENANT_AS_BODY "{\"issuer\":\"%BASE%/tenant\",\"authorization_endpoint\":\"%BASE%/tenant/authorize\"," \
                       "\"token_endpoint\":\"%BASE%/tenant/token\",\"code_challenge_methods_supported\":[\"S256\"]}"

/* Each request's timeout on the session discover() makes (0: the
 * default); the manager sets it on its providers from
 * MCP_REQUEST_TIMEOUT_MS. */
static guint request_timeout_ms;

static McpOAuthMetadata *
discover (TestServer  *ts,
          const char  *server_path,
          const char  *resource_metadata_path,
          const char  *as_metadata_path,
          GError     **error)
{
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *server_url = test_server_url (ts, server_path);
  g_autofree char *rm_url = resource_metadata_path ? test_server_url (ts, resource_metadata_path) : NULL;
  g_autofree char *as_url = as_metadata_path ? test_server_url (ts, as_metadata_path) : NULL;

  if (request_timeout_ms > 0)
    mcp_oauth_session_set_request_timeout (session, request_timeout_ms);
  mcp_oauth_discover_async (session, server_url, rm_url, as_url, NULL, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);

  return mcp_oauth_discover_finish (result, error);
}

static void
assert_paths (TestServer *ts,
              const char *expected)
{
  g_autofree char *paths = test_server_paths (ts);

  g_assert_cmpstr (paths, ==, expected);
}

static void
assert_url (TestServer *ts,
            const char *actual,
            const char *path)
{
  g_autofree char *expected = test_server_url (ts, path);

  g_assert_cmpstr (actual, ==, expected);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

static void
test_resource_metadata_given (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, "/custom-prm", 200, PRM_BODY);
  test_server_route (ts, AS_ROOT, 200, AS_BODY);
  /* Must not be asked: the challenge named the PRM. */
  test_server_route (ts, PRM_ROOT, 500, "{}");

  m = discover (ts, "/a/mcp", "/custom-prm", NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, "/custom-prm " AS_ROOT);

  for (guint i = 0; i < ts->requests->len; i++)
    {
      TestRequest *request = test_server_request (ts, i);

      g_assert_cmpstr (request->method, ==, "GET");
      g_assert_cmpstr (request->protocol_version, ==, "2025-11-25");
      g_assert_cmpstr (request->accept, ==, "application/json");
    }

  assert_url (ts, m->server_url, "/a/mcp");
  assert_url (ts, m->resource, "/a/mcp");
  assert_url (ts, m->resource_metadata_url, "/custom-prm");
  g_assert_cmpuint (g_strv_length (m->authorization_servers), ==, 1);
  g_assert_cmpstr (m->issuer, ==, ts->base);
  assert_url (ts, m->auth_server_metadata_url, AS_ROOT);
  assert_url (ts, m->authorization_endpoint, "/oauth/authorize");
  assert_url (ts, m->token_endpoint, "/oauth/token");
  assert_url (ts, m->registration_endpoint, "/oauth/register");
  g_assert_true (mcp_oauth_metadata_supports_s256 (m));
  g_assert_cmpstr (m->token_endpoint_auth_methods_supported[0], ==, "none");
  g_assert_cmpuint (g_strv_length (m->grant_types_supported), ==, 2);
  g_assert_cmpstr (m->scopes_supported[0], ==, "openid");
  g_assert_cmpuint (g_strv_length (m->resource_scopes_supported), ==, 2);
  g_assert_true (m->client_id_metadata_document_supported);

  {
    g_autoptr(McpOAuthMetadata) copy = mcp_oauth_metadata_copy (m);

    g_assert_cmpstr (copy->token_endpoint, ==, m->token_endpoint);
    g_assert_true (copy->token_endpoint != m->token_endpoint);
    g_assert_cmpstr (copy->resource_scopes_supported[1], ==, "files:write");
    g_assert_true (copy->client_id_metadata_document_supported);
  }
}

static void
test_path_aware_prm (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, PRM_PATH_AWARE, 200, PRM_BODY);
  test_server_route (ts, PRM_ROOT, 500, "{}");
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " AS_ROOT);
  assert_url (ts, m->resource_metadata_url, PRM_PATH_AWARE);
}

static void
test_root_prm (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  /* No "resource": the server URL without its fragment stands in. */
  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%\"]}");
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, "/a/mcp#frag", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " " AS_ROOT);
  assert_url (ts, m->resource_metadata_url, PRM_ROOT);
  assert_url (ts, m->resource, "/a/mcp");
  assert_url (ts, m->server_url, "/a/mcp#frag");
  g_assert_null (m->resource_scopes_supported);
}

static void
test_root_server_url (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%\"]}");
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  /* A server at the root has no path-aware location. */
  m = discover (ts, "/", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_ROOT " " AS_ROOT);
}

static void
test_no_prm_origin_metadata (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " " AS_ROOT);
  g_assert_null (m->resource_metadata_url);
  g_assert_null (m->authorization_servers);
  g_assert_cmpstr (m->issuer, ==, ts->base);
  assert_url (ts, m->auth_server_metadata_url, AS_ROOT);
  assert_url (ts, m->token_endpoint, "/oauth/token");
  assert_url (ts, m->resource, "/a/mcp");
}

static void
test_no_prm_no_metadata_defaults (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " " AS_ROOT " " OIDC_ROOT);
  g_assert_null (m->resource_metadata_url);
  g_assert_null (m->auth_server_metadata_url);
  g_assert_cmpstr (m->issuer, ==, ts->base);
  assert_url (ts, m->authorization_endpoint, "/authorize");
  assert_url (ts, m->token_endpoint, "/token");
  assert_url (ts, m->registration_endpoint, "/register");
  g_assert_true (mcp_oauth_metadata_supports_s256 (m));
}

static void
test_prm_without_servers_is_2025_03_26 (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  /* The root location stands for the origin, so its resource may be that. */
  test_server_route (ts, PRM_ROOT, 200, "{\"resource\":\"%BASE%\"}");

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " " AS_ROOT " " OIDC_ROOT);
  g_assert_cmpstr (m->resource, ==, ts->base);
  g_assert_cmpstr (m->issuer, ==, ts->base);
  assert_url (ts, m->token_endpoint, "/token");
}

static void
test_oidc_with_path_insertion (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%/tenant\"]}");
  test_server_route (ts, "/.well-known/openid-configuration/tenant", 200, TENANT_AS_BODY);
  test_server_route (ts, "/tenant/.well-known/openid-configuration", 500, "{}");

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " "
                "/.well-known/oauth-authorization-server/tenant "
                "/.well-known/openid-configuration/tenant");
  assert_url (ts, m->issuer, "/tenant");
  assert_url (ts, m->auth_server_metadata_url, "/.well-known/openid-configuration/tenant");
  assert_url (ts, m->token_endpoint, "/tenant/token");
  g_assert_null (m->registration_endpoint);
}

static void
test_issuer_with_path_third_location (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  /* The trailing slash goes before the path is used, not from the issuer
   * the metadata must name (RFC 8414 §3.1, §3.3). */
  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%/tenant/\"]}");
  test_server_route (ts, "/tenant/.well-known/openid-configuration", 200,
                     "{\"issuer\":\"%BASE%/tenant/\",\"authorization_endpoint\":\"%BASE%/tenant/authorize\","
                     "\"token_endpoint\":\"%BASE%/tenant/token\",\"code_challenge_methods_supported\":[\"S256\"]}");

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " "
                "/.well-known/oauth-authorization-server/tenant "
                "/.well-known/openid-configuration/tenant "
                "/tenant/.well-known/openid-configuration");
  assert_url (ts, m->auth_server_metadata_url, "/tenant/.well-known/openid-configuration");
  assert_url (ts, m->authorization_endpoint, "/tenant/authorize");
}

static void
test_configured_as_metadata_url (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%/tenant\"]}");
  test_server_route (ts, "/.well-known/oauth-authorization-server/tenant", 200, AS_BODY);
  test_server_route (ts, "/config/as.json", 200, TENANT_AS_BODY);

  m = discover (ts, "/a/mcp", NULL, "/config/as.json", &error);
  g_assert_no_error (error);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " /config/as.json");
  assert_url (ts, m->auth_server_metadata_url, "/config/as.json");
  assert_url (ts, m->token_endpoint, "/tenant/token");
  assert_url (ts, m->issuer, "/tenant");
}

static void
test_configured_as_metadata_url_missing (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *url = test_server_url (ts, "/config/as.json");

  m = discover (ts, "/a/mcp", NULL, "/config/as.json", &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  assert_contains (error->message, url);
}

static void
test_malformed_json (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *url = test_server_url (ts, PRM_ROOT);

  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\": [");
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  assert_contains (error->message, url);
  assert_contains (error->message, "JSON");
  /* A broken document stops discovery. */
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT);
}

static void
test_malformed_documents (void)
{
  struct {
    const char *prm;
    const char *as;
    const char *error_path;
    const char *error_part;
  } cases[] = {
    { "[1,2]", AS_BODY, PRM_ROOT, "JSON object" },
    { "{\"authorization_servers\":\"%BASE%\"}", AS_BODY, PRM_ROOT, "authorization_servers" },
    { "{\"authorization_servers\":[1]}", AS_BODY, PRM_ROOT, "authorization_servers" },
    { "{\"authorization_servers\":[\"%BASE%\"]}", "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/a\"}", AS_ROOT, "token_endpoint" },
    { "{\"authorization_servers\":[\"%BASE%\"]}", "{\"issuer\":\"%BASE%\",\"token_endpoint\":\"%BASE%/t\"}", AS_ROOT, "authorization_endpoint" },
    /* Issue 20: RFC 8414 §2 requires "issuer"; every endpoint passes the URL policy. */
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"authorization_endpoint\":\"%BASE%/a\",\"token_endpoint\":\"%BASE%/t\"}", AS_ROOT,
      "has no “issuer”, which RFC 8414 requires" },
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"issuer\":\"\",\"authorization_endpoint\":\"%BASE%/a\",\"token_endpoint\":\"%BASE%/t\"}", AS_ROOT,
      "names “” as its issuer" },
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"javascript:alert(1)\",\"token_endpoint\":\"%BASE%/t\"}",
      AS_ROOT, "unusable “authorization_endpoint”: Plugboard will not open “javascript:alert(1)”: it is a “javascript:” address" },
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"--renderer-cmd-prefix=x\",\"token_endpoint\":\"%BASE%/t\"}",
      AS_ROOT, "begins with “-”" },
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/a\",\"token_endpoint\":\"http://tokens.example.com/t\"}",
      AS_ROOT, "unusable “token_endpoint”: Plugboard will not fetch “http://tokens.example.com/t”: it uses unencrypted http" },
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/a\",\"token_endpoint\":\"%BASE%/t\","
      "\"registration_endpoint\":\"file:///etc/passwd\"}",
      AS_ROOT, "unusable “registration_endpoint”" },
    { "{\"authorization_servers\":[\"%BASE%\"]}",
      "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"https://user:pw@as.example.com/a\",\"token_endpoint\":\"%BASE%/t\"}",
      AS_ROOT, "user name or password" },
    { "{\"authorization_servers\":[\"http://as.example.com\"]}", AS_BODY, PRM_ROOT,
      "unusable “authorization_servers”: Plugboard will not fetch “http://as.example.com”" },
    { "{\"authorization_servers\":[\"%BASE%\"]}", "not json", AS_ROOT, "JSON" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TestServer) ts = test_server_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(McpOAuthMetadata) m = NULL;
      g_autofree char *url = test_server_url (ts, cases[i].error_path);

      test_server_route (ts, PRM_ROOT, 200, cases[i].prm);
      test_server_route (ts, AS_ROOT, 200, cases[i].as);

      m = discover (ts, "/a/mcp", NULL, NULL, &error);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
      g_assert_null (m);
      assert_contains (error->message, url);
      assert_contains (error->message, cases[i].error_part);
    }
}

/* RFC 8414 §2: an authorization server for machine clients only may have
 * no authorization endpoint; with authorization_code among its grants it
 * may not (test_malformed_documents). */
static void
test_machine_only_as (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%\"]}");
  test_server_route (ts, AS_ROOT, 200,
                     "{\"issuer\":\"%BASE%\",\"token_endpoint\":\"%BASE%/t\","
                     "\"grant_types_supported\":[\"client_credentials\","
                     "\"urn:ietf:params:oauth:grant-type:jwt-bearer\"]}");
  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_assert_null (m->authorization_endpoint);
  assert_url (ts, m->token_endpoint, "/t");

  /* The same with authorization_code among its grants is refused. */
  g_clear_pointer (&m, mcp_oauth_metadata_free);
  {
    g_autoptr(TestServer) ts2 = test_server_new ();

    test_server_route (ts2, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%\"]}");
    test_server_route (ts2, AS_ROOT, 200,
                       "{\"issuer\":\"%BASE%\",\"token_endpoint\":\"%BASE%/t\","
                       "\"grant_types_supported\":[\"authorization_code\",\"client_credentials\"]}");
    m = discover (ts2, "/a/mcp", NULL, NULL, &error);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    g_assert_null (m);
    assert_contains (error->message, "authorization_endpoint");
  }
}

static void
test_prm_but_no_as_metadata (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *as_url = test_server_url (ts, AS_ROOT);
  g_autofree char *oidc_url = test_server_url (ts, OIDC_ROOT);

  test_server_route (ts, PRM_ROOT, 200, "{\"authorization_servers\":[\"%BASE%\"]}");
  test_server_route (ts, OIDC_ROOT, 403, "{}");

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  assert_paths (ts, PRM_PATH_AWARE " " PRM_ROOT " " AS_ROOT " " OIDC_ROOT);
  assert_contains (error->message, as_url);
  assert_contains (error->message, oidc_url);
  assert_contains (error->message, "HTTP 404");
  assert_contains (error->message, "HTTP 403");
}

static void
test_server_error_stops (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *url = test_server_url (ts, PRM_PATH_AWARE);

  test_server_route_text (ts, PRM_PATH_AWARE, 503, "down for maintenance");
  test_server_route (ts, PRM_ROOT, 200, PRM_BODY);

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  assert_contains (error->message, url);
  assert_contains (error->message, "503");
  assert_paths (ts, PRM_PATH_AWARE);
}

static void
test_network_error (void)
{
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *server_url = test_closed_url ("/a/mcp");
  g_autofree char *origin = g_strndup (server_url, strlen (server_url) - strlen ("/a/mcp"));

  mcp_oauth_discover_async (session, server_url, NULL, NULL, NULL, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  m = mcp_oauth_discover_finish (result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  assert_contains (error->message, origin);
  assert_contains (error->message, "Could not reach");
}

static void
test_cancel (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *server_url = test_server_url (ts, "/a/mcp");

  test_server_hang (ts, PRM_PATH_AWARE);

  mcp_oauth_discover_async (session, server_url, NULL, NULL, cancellable, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (ts->paused->len == 1);
  g_assert_null (result);
  g_cancellable_cancel (cancellable);
  TEST_WAIT_UNTIL (result != NULL);

  m = mcp_oauth_discover_finish (result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (m);
  assert_paths (ts, PRM_PATH_AWARE);
}

static void
test_cancel_before_start (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *server_url = test_server_url (ts, "/a/mcp");

  g_cancellable_cancel (cancellable);
  mcp_oauth_discover_async (session, server_url, NULL, NULL, cancellable, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);

  m = mcp_oauth_discover_finish (result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (m);
}

static void
test_timeout (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *url = test_server_url (ts, PRM_PATH_AWARE);
  gint64 start;

  test_server_hang (ts, PRM_PATH_AWARE);

  request_timeout_ms = 300;
  start = g_get_monotonic_time ();
  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  request_timeout_ms = 0;

  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  assert_contains (error->message, url);
  assert_contains (error->message, "did not answer within 300 ms");
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 300 * 1000);
}

static void
test_not_http_url (void)
{
  g_autoptr(SoupSession) session = test_session_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  mcp_oauth_discover_async (session, "file:///etc/passwd", NULL, NULL, NULL, test_store_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  m = mcp_oauth_discover_finish (result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
}

/* Issue 20: the challenge's resource_metadata is the server's say-so, so
 * it passes the URL policy before anything is fetched from it. */
static void
test_hostile_resource_metadata (void)
{
  const char *hostile[] = {
    "http://metadata.example.com/.well-known/oauth-protected-resource",
    "file:///etc/passwd",
    "https://user:secret@metadata.example.com/prm",
  };

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autoptr(TestServer) ts = test_server_new ();
      g_autoptr(SoupSession) session = test_session_new ();
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(McpOAuthMetadata) m = NULL;
      g_autofree char *server_url = test_server_url (ts, "/mcp");

      mcp_oauth_discover_async (session, server_url, hostile[i], NULL, NULL, test_store_result_cb, &result);
      TEST_WAIT_UNTIL (result != NULL);
      m = mcp_oauth_discover_finish (result, &error);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
      g_assert_null (m);
      assert_contains (error->message, "unusable protected resource metadata: Plugboard will not fetch");
      g_assert_null (strstr (error->message, "secret"));
      g_assert_cmpuint (ts->requests->len, ==, 0);
    }
}

static void
test_pick_scope (void)
{
  McpOAuthMetadata m = { 0 };
  char *scopes[] = { "files:read", "files:write", NULL };
  char *empty[] = { NULL };
  g_autofree char *challenge = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *none = NULL;
  g_autofree char *none_empty = NULL;

  none = mcp_oauth_metadata_pick_scope (&m, NULL);
  g_assert_null (none);

  m.resource_scopes_supported = empty;
  none_empty = mcp_oauth_metadata_pick_scope (&m, NULL);
  g_assert_null (none_empty);

  m.resource_scopes_supported = scopes;
  /* The AS's own list is not what the resource needs. */
  m.scopes_supported = empty;
  joined = mcp_oauth_metadata_pick_scope (&m, NULL);
  g_assert_cmpstr (joined, ==, "files:read files:write");

  challenge = mcp_oauth_metadata_pick_scope (&m, "admin");
  g_assert_cmpstr (challenge, ==, "admin");
}

/* RFC 9728 §3.3: the PRM's resource against the one its URL was built
 * from, in canonical form; a mismatch names both and stops before the
 * authorization server is asked. */
static void
check_prm_refused (const char *server_path,
                   const char *prm_path,
                   const char *resource_metadata_path,
                   const char *resource)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *body = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%%BASE%%\"]}",
                                           resource);
  g_autofree char *expected_resource = NULL;
  g_autofree char *expected_server = test_server_url (ts, server_path);
  g_autofree char *expected = NULL;
  g_autofree char *paths = NULL;

  test_server_route (ts, prm_path, 200, body);
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, server_path, resource_metadata_path, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  g_test_message ("%s", error->message);
  expected_resource = g_str_has_prefix (resource, "%BASE%")
                      ? test_server_url (ts, resource + strlen ("%BASE%")) : g_strdup (resource);
  expected = g_strdup_printf ("is for the resource “%s”, not for “%s”", expected_resource, expected_server);
  g_assert_nonnull (strstr (error->message, expected));
  paths = test_server_paths (ts);
  g_assert_null (strstr (paths, AS_ROOT));
}

static void
check_prm_accepted (const char *server_path,
                    const char *prm_path,
                    const char *resource)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_auto(GStrv) parts = g_strsplit (resource, "%UPPER-SCHEME-BASE%", -1);
  g_autofree char *upper = g_strconcat ("HTTP://", ts->base + strlen ("http://"), NULL);
  g_autofree char *expanded = g_strjoinv (upper, parts);
  g_autofree char *body = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%%BASE%%\"]}",
                                           expanded);

  test_server_route (ts, prm_path, 200, body);
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, server_path, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_url (ts, m->resource_metadata_url, prm_path);
  assert_url (ts, m->auth_server_metadata_url, AS_ROOT);
}

static void
test_prm_resource_checked (void)
{
  /* Another host, another path, another port, another scheme. */
  check_prm_refused ("/a/mcp", PRM_PATH_AWARE, NULL, "https://evil.example/a/mcp");
  check_prm_refused ("/a/mcp", PRM_PATH_AWARE, NULL, "%BASE%/b/mcp");
  check_prm_refused ("/a/mcp", PRM_PATH_AWARE, NULL, "%BASE%/a/mcp/more");
  check_prm_refused ("/a/mcp", PRM_PATH_AWARE, NULL, "https://127.0.0.1/a/mcp");
  /* The root location stands for the origin or the server, nothing else. */
  check_prm_refused ("/a/mcp", PRM_ROOT, NULL, "%BASE%/b");
  /* A location the challenge named stands for the server alone. */
  check_prm_refused ("/a/mcp", "/custom-prm", "/custom-prm", "%BASE%");

  check_prm_accepted ("/a/mcp", PRM_PATH_AWARE, "%BASE%/a/mcp");
  /* Canonical forms: scheme and host case, fragment, "/" for no path. */
  check_prm_accepted ("/a/mcp", PRM_PATH_AWARE, "%UPPER-SCHEME-BASE%/a/mcp#top");
  check_prm_accepted ("/a/mcp", PRM_ROOT, "%BASE%/a/mcp");
  check_prm_accepted ("/a/mcp", PRM_ROOT, "%BASE%/");
  check_prm_accepted ("/", PRM_ROOT, "%BASE%");
}

/* RFC 8414 §3.3: the AS metadata's issuer must be the very issuer its
 * well-known URL was built from (as the PRM spelt it, not normalised); a
 * mismatch names both and stops before anything uses its endpoints. */
static void
check_issuer_refused (const char *as_server,
                      const char *metadata_path,
                      const char *metadata_issuer)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autofree char *prm = NULL;
  g_autofree char *body = NULL;
  g_autofree char *paths = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *expected_issuer = NULL;
  g_autofree char *expected_server = NULL;

  prm = g_strdup_printf ("{\"authorization_servers\":[\"%s\"]}", as_server);
  test_server_route (ts, PRM_PATH_AWARE, 200, prm);
  body = g_strdup_printf ("{\"issuer\":\"%s\",\"authorization_endpoint\":\"%%BASE%%/evil/authorize\","
                          "\"token_endpoint\":\"%%BASE%%/evil/token\","
                          "\"registration_endpoint\":\"%%BASE%%/evil/register\","
                          "\"code_challenge_methods_supported\":[\"S256\"]}", metadata_issuer);
  test_server_route (ts, metadata_path, 200, body);

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (m);
  g_test_message ("%s", error->message);

  expected_issuer = g_str_has_prefix (metadata_issuer, "%BASE%")
                    ? test_server_url (ts, metadata_issuer + strlen ("%BASE%")) : g_strdup (metadata_issuer);
  expected_server = test_server_url (ts, as_server + strlen ("%BASE%"));
  expected = g_strdup_printf ("names “%s” as its issuer, not “%s”", expected_issuer, expected_server);
  g_assert_nonnull (strstr (error->message, expected));
  /* Stopped at the metadata: no later location was asked. */
  paths = test_server_paths (ts);
  g_assert_true (g_str_has_suffix (paths, metadata_path));
}

static void
test_metadata_issuer_checked (void)
{
  /* Another server's metadata (auth/metadata-issuer-mismatch). */
  check_issuer_refused ("%BASE%", AS_ROOT, "https://attacker.example.com");
  /* Trailing-slash forms differ: compared as written. */
  check_issuer_refused ("%BASE%/tenant", "/.well-known/oauth-authorization-server/tenant", "%BASE%/tenant/");
  check_issuer_refused ("%BASE%/tenant/", "/.well-known/oauth-authorization-server/tenant", "%BASE%/tenant");
  check_issuer_refused ("%BASE%", AS_ROOT, "%BASE%/");
  /* The OpenID Connect locations alike. */
  check_issuer_refused ("%BASE%", OIDC_ROOT, "https://attacker.example.com");
  check_issuer_refused ("%BASE%/tenant", "/tenant/.well-known/openid-configuration", "%BASE%/other");
}

/* A 2025-03-26 server (no PRM) names no issuer: its origin's metadata is
 * taken whatever issuer it names (the 2025-03-26 back-compat scenario of
 * the conformance suite has one with a path). */
static void
test_metadata_issuer_without_prm (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, AS_ROOT, 200, TENANT_AS_BODY);
  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (m->resource_metadata_url);
  g_assert_cmpstr (m->issuer, ==, ts->base);
  assert_url (ts, m->metadata_issuer, "/tenant");
  assert_url (ts, mcp_oauth_metadata_get_expected_issuer (m), "/tenant");
}

/* What RFC 9207 and offline_access need from the AS metadata. */
static void
test_iss_and_offline_access (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;
  g_autoptr(McpOAuthMetadata) copy = NULL;

  test_server_route (ts, PRM_PATH_AWARE, 200, "{\"authorization_servers\":[\"%BASE%/tenant/\"]}");
  test_server_route (ts, "/.well-known/oauth-authorization-server/tenant", 200,
                     "{\"issuer\":\"%BASE%/tenant/\",\"authorization_endpoint\":\"%BASE%/a\","
                     "\"token_endpoint\":\"%BASE%/t\",\"code_challenge_methods_supported\":[\"S256\"],"
                     "\"authorization_response_iss_parameter_supported\":true,"
                     "\"scopes_supported\":[\"read\",\"offline_access\"]}");

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  assert_url (ts, m->issuer, "/tenant/");
  /* The document's own spelling is what "iss" is compared with. */
  assert_url (ts, m->metadata_issuer, "/tenant/");
  assert_url (ts, mcp_oauth_metadata_get_expected_issuer (m), "/tenant/");
  g_assert_true (m->authorization_response_iss_parameter_supported);
  g_assert_true (mcp_oauth_metadata_offers_offline_access (m));

  copy = mcp_oauth_metadata_copy (m);
  g_assert_cmpstr (copy->metadata_issuer, ==, m->metadata_issuer);
  g_assert_true (copy->authorization_response_iss_parameter_supported);

  /* Without the document's issuer, the chosen AS URL; no promise of iss. */
  g_free (copy->metadata_issuer);
  copy->metadata_issuer = NULL;
  g_free (copy->issuer);
  copy->issuer = test_server_url (ts, "/tenant");
  assert_url (ts, mcp_oauth_metadata_get_expected_issuer (copy), "/tenant");
  g_strfreev (copy->scopes_supported);
  copy->scopes_supported = NULL;
  g_assert_false (mcp_oauth_metadata_offers_offline_access (copy));
}

static void
test_iss_not_advertised (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpOAuthMetadata) m = NULL;

  test_server_route (ts, PRM_PATH_AWARE, 200, PRM_BODY);
  test_server_route (ts, AS_ROOT, 200, AS_BODY);

  m = discover (ts, "/a/mcp", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (m->metadata_issuer, ==, ts->base);
  g_assert_false (m->authorization_response_iss_parameter_supported);
  g_assert_false (mcp_oauth_metadata_offers_offline_access (m));
}

static void
test_supports_s256 (void)
{
  McpOAuthMetadata m = { 0 };
  char *plain[] = { "plain", NULL };
  char *both[] = { "plain", "S256", NULL };
  char *lower[] = { "s256", NULL };

  g_assert_false (mcp_oauth_metadata_supports_s256 (&m));
  m.code_challenge_methods_supported = plain;
  g_assert_false (mcp_oauth_metadata_supports_s256 (&m));
  m.code_challenge_methods_supported = lower;
  g_assert_false (mcp_oauth_metadata_supports_s256 (&m));
  m.code_challenge_methods_supported = both;
  g_assert_true (mcp_oauth_metadata_supports_s256 (&m));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");

  g_test_add_func ("/oauth/discovery/machine-only-as", test_machine_only_as);
  g_test_add_func ("/auth/discovery/resource-metadata-given", test_resource_metadata_given);
  g_test_add_func ("/auth/discovery/path-aware-prm", test_path_aware_prm);
  g_test_add_func ("/auth/discovery/root-prm", test_root_prm);
  g_test_add_func ("/auth/discovery/root-server-url", test_root_server_url);
  g_test_add_func ("/auth/discovery/no-prm-origin-metadata", test_no_prm_origin_metadata);
  g_test_add_func ("/auth/discovery/no-prm-no-metadata-defaults", test_no_prm_no_metadata_defaults);
  g_test_add_func ("/auth/discovery/prm-without-servers", test_prm_without_servers_is_2025_03_26);
  g_test_add_func ("/auth/discovery/oidc-path-insertion", test_oidc_with_path_insertion);
  g_test_add_func ("/auth/discovery/issuer-path-third-location", test_issuer_with_path_third_location);
  g_test_add_func ("/auth/discovery/configured-as-metadata-url", test_configured_as_metadata_url);
  g_test_add_func ("/auth/discovery/configured-as-metadata-url-missing", test_configured_as_metadata_url_missing);
  g_test_add_func ("/auth/discovery/malformed-json", test_malformed_json);
  g_test_add_func ("/auth/discovery/malformed-documents", test_malformed_documents);
  g_test_add_func ("/auth/discovery/prm-but-no-as-metadata", test_prm_but_no_as_metadata);
  g_test_add_func ("/auth/discovery/server-error-stops", test_server_error_stops);
  g_test_add_func ("/auth/discovery/network-error", test_network_error);
  g_test_add_func ("/auth/discovery/cancel", test_cancel);
  g_test_add_func ("/auth/discovery/cancel-before-start", test_cancel_before_start);
  g_test_add_func ("/auth/discovery/timeout", test_timeout);
  g_test_add_func ("/auth/discovery/not-http-url", test_not_http_url);
  g_test_add_func ("/auth/discovery/hostile-resource-metadata", test_hostile_resource_metadata);
  g_test_add_func ("/auth/discovery/pick-scope", test_pick_scope);
  g_test_add_func ("/auth/discovery/supports-s256", test_supports_s256);
  g_test_add_func ("/auth/discovery/2026-07-28/prm-resource-checked", test_prm_resource_checked);
  g_test_add_func ("/auth/discovery/2026-07-28/metadata-issuer-checked", test_metadata_issuer_checked);
  g_test_add_func ("/auth/discovery/2026-07-28/metadata-issuer-without-prm", test_metadata_issuer_without_prm);
  g_test_add_func ("/auth/discovery/2026-07-28/iss-and-offline-access", test_iss_and_offline_access);
  g_test_add_func ("/auth/discovery/2026-07-28/iss-not-advertised", test_iss_not_advertised);

  return g_test_run ();
}
