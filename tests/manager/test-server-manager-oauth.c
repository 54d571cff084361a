/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-manager-oauth"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-needs-auth-cache.h"
#include "mcp-oauth-fixture.h"
#include "mcp-server-connection-private.h"
#include "mcp-server-manager.h"
#include "test-util.h"

/* McpServerManager with OAuth (issue 5): the in-process fixture, a file
 * token store and a needs-auth cache file in a temporary directory. */

typedef struct
{
  McpOAuthFixture *fixture;
  char            *dir;
  char            *store_path;
  char            *cache_path;
  McpTokenStore   *store;
  McpServerConfig *config;
  guint            n_opened;
  char            *last_url;
} Test;

static McpServerConfig *
http_config (const char *name,
             const char *url)
{
  g_autoptr(GString) json = g_string_new ("{\"type\":\"http\",\"url\":");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  McpServerConfig *config;

  mcp_json_append_string (json, url);
  g_string_append (json, "}");
  node = mcp_json_parse (json->str, json->len, &error);
  g_assert_no_error (error);
  config = mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER,
                                            json_node_get_object (node),
                                            "test-settings.json", "$.mcpServers.fixture", &error);
  g_assert_no_error (error);
  return config;
}

static void
test_setup (Test                 *test,
            McpOAuthFixtureFlags  flags)
{
  g_autoptr(GError) error = NULL;

  test->fixture = mcp_oauth_fixture_new (flags, &error);
  g_assert_no_error (error);
  test->dir = g_dir_make_tmp ("test-server-manager-oauth-XXXXXX", &error);
  g_assert_no_error (error);
  test->store_path = g_build_filename (test->dir, "credentials.json", NULL);
  test->cache_path = g_build_filename (test->dir, "cache", "mcp-needs-auth-cache.json", NULL);
  test->store = mcp_token_store_new ("file", test->store_path);
  test->config = http_config ("fixture", mcp_oauth_fixture_get_mcp_url (test->fixture));
}

static void
test_teardown (Test *test)
{
  g_autofree char *cache_dir = g_path_get_dirname (test->cache_path);

  g_unlink (test->store_path);
  g_unlink (test->cache_path);
  g_rmdir (cache_dir);
  g_rmdir (test->dir);
  g_clear_pointer (&test->fixture, mcp_oauth_fixture_free);
  g_clear_pointer (&test->dir, g_free);
  g_clear_pointer (&test->store_path, g_free);
  g_clear_pointer (&test->cache_path, g_free);
  g_clear_pointer (&test->last_url, g_free);
  g_clear_object (&test->store);
  g_clear_object (&test->config);
}

static McpServerManager *
new_manager (Test *test)
{
  return g_object_new (MCP_TYPE_SERVER_MANAGER,
                       "token-store", test->store,
                       "needs-auth-cache-path", test->cache_path,
                       "connect-timeout", 10000,
                       NULL);
}

/* A manager with the fixture's server, settled. */
static McpServerManager *
start_manager (Test *test)
{
  McpServerManager *manager = new_manager (test);
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_list_store_append (configs, test->config);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to settle");
  g_assert_true (mcp_server_manager_wait_settled_finish (manager, result, &error));
  g_assert_no_error (error);

  return manager;
}

static void
close_manager (McpServerManager *manager)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to close");
  g_assert_true (mcp_server_manager_close_finish (manager, result, NULL));
  g_object_unref (manager);
}

static McpServerConnection *
fixture_connection (McpServerManager *manager)
{
  McpServerConnection *connection = mcp_server_manager_lookup (manager, "fixture");

  g_assert_nonnull (connection);
  return connection;
}

static void
browsed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* A failed browse (wrong state: the listener answers 400) ends in the
   * sign-in's own error. */
  mcp_oauth_fixture_browse_finish (result, &error);
  if (error != NULL)
    g_test_message ("browse: %s", error->message);
}

static void
open_url_cb (McpOAuthProvider *provider,
             const char       *url,
             gpointer          user_data)
{
  Test *test = user_data;

  test->n_opened++;
  g_free (test->last_url);
  test->last_url = g_strdup (url);
  mcp_oauth_fixture_browse_async (url, NULL, browsed_cb, NULL);
}

static gboolean
sign_in (Test              *test,
         McpServerManager  *manager,
         const char        *name,
         GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_manager_sign_in_async (manager, name, open_url_cb, test, NULL,
                                    test_result_cb, &result);
  test_wait_result (&result, "the sign-in");
  return mcp_server_manager_sign_in_finish (manager, result, error);
}

static gboolean
sign_out (McpServerManager  *manager,
          const char        *name,
          GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_manager_sign_out_async (manager, name, NULL, test_result_cb, &result);
  test_wait_result (&result, "the sign-out");
  return mcp_server_manager_sign_out_finish (manager, result, error);
}

/* How many tokens / clients the store file holds for @name (its entries
 * are "<kind>\n<server>\n<url>"). */
static guint
stored_entries (Test       *test,
                const char *kind,
                const char *name)
{
  g_autofree char *contents = NULL;
  g_autofree char *prefix = g_strdup_printf ("%s\n%s\n", kind, name);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *entries;
  guint n = 0;

  if (!g_file_test (test->store_path, G_FILE_TEST_EXISTS))
    return 0;

  g_assert_true (g_file_get_contents (test->store_path, &contents, NULL, &error));
  g_assert_no_error (error);
  node = mcp_json_parse (contents, strlen (contents), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  entries = json_object_get_object_member (json_node_get_object (node), "entries");
  g_assert_nonnull (entries);

  members = json_object_get_members (entries);
  for (GList *l = members; l != NULL; l = l->next)
    if (g_str_has_prefix (l->data, prefix))
      n++;

  return n;
}

static void
assert_no_secret_in (Test       *test,
                     const char *text)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *entries;

  if (text == NULL || !g_file_get_contents (test->store_path, &contents, NULL, NULL))
    return;
  node = mcp_json_parse (contents, strlen (contents), &error);
  g_assert_no_error (error);
  entries = json_object_get_object_member (json_node_get_object (node), "entries");
  members = json_object_get_members (entries);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (entries, l->data);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (value) ? json_node_get_object (value) : NULL;
      static const char *secrets[] = { "access_token", "refresh_token", "client_secret", NULL };

      for (guint i = 0; object != NULL && secrets[i] != NULL; i++)
        {
          const char *secret = json_object_has_member (object, secrets[i])
                               ? json_object_get_string_member_with_default (object, secrets[i], NULL)
                               : NULL;

          if (secret != NULL && *secret != '\0')
            g_assert_null (strstr (text, secret));
        }
    }
}

static void
assert_needs_auth (McpServerConnection *connection)
{
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_NEEDS_AUTH);
  g_assert_error (mcp_server_connection_get_error (connection), MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
}

static void
assert_connected_with_tools (McpServerConnection *connection)
{
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_null (mcp_server_connection_get_error (connection));
  /* whoami and admin */
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 2);
}

/* ------------------------------------------------------------------------ */

/* 1. Before sign-in: needs-auth, cached; a new manager with the same cache
 *    file asks nothing. Sign-in connects and lists; a new manager with the
 *    same store connects without one. */
static void
test_sign_in_flow (void)
{
  Test test = { 0 };
  McpServerManager *manager;
  McpServerConnection *connection;
  g_autoptr(GError) error = NULL;
  const GError *state_error;
  guint mcp_requests;

  test_setup (&test, MCP_OAUTH_FIXTURE_NONE);

  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_needs_auth (connection);
  g_assert_nonnull (mcp_server_connection_get_oauth_provider (connection));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp-401"), >=, 1);
  g_assert_true (mcp_needs_auth_cache_contains (test.cache_path,
                                                mcp_server_connection_get_needs_auth_key (connection)));
  close_manager (manager);

  /* Within the cache window: needs-auth at once, no request. */
  mcp_requests = mcp_oauth_fixture_count (test.fixture, "mcp");
  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_needs_auth (connection);
  state_error = mcp_server_connection_get_error (connection);
  g_test_message ("cached: %s", state_error->message);
  g_assert_nonnull (strstr (state_error->message, "fixture"));
  g_assert_nonnull (strstr (state_error->message, "sign"));
  g_assert_nonnull (strstr (state_error->message, "minutes"));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp"), ==, mcp_requests);

  /* Sign-in: the browser, then connected with the tools. */
  g_assert_true (sign_in (&test, manager, "fixture", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (test.n_opened, ==, 1);
  g_assert_nonnull (strstr (test.last_url, "code_challenge_method=S256"));
  assert_connected_with_tools (connection);
  g_assert_false (mcp_needs_auth_cache_contains (test.cache_path,
                                                 mcp_server_connection_get_needs_auth_key (connection)));
  g_assert_cmpuint (stored_entries (&test, "tokens", "fixture"), ==, 1);
  assert_no_secret_in (&test, test.last_url);
  /* The background provider is not interactive again. */
  close_manager (manager);

  /* A new manager, the same store: connected without a sign-in. */
  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_connected_with_tools (connection);
  g_assert_cmpuint (test.n_opened, ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 1);
  close_manager (manager);

  test_teardown (&test);
}

/* Signed in, the manager closed; returns the number of refreshes so far. */
static guint
signed_in_setup (Test                 *test,
                 McpOAuthFixtureFlags  flags)
{
  McpServerManager *manager;
  g_autoptr(GError) error = NULL;

  test_setup (test, flags);
  manager = start_manager (test);
  g_assert_true (sign_in (test, manager, "fixture", &error));
  g_assert_no_error (error);
  assert_connected_with_tools (fixture_connection (manager));
  close_manager (manager);

  return mcp_oauth_fixture_count (test->fixture, "token-refresh");
}

/* 2. Expired access token: refreshed silently, no needs-auth. */
static void
test_refresh_silently (void)
{
  Test test = { 0 };
  McpServerManager *manager;
  guint refreshes = signed_in_setup (&test, MCP_OAUTH_FIXTURE_NONE);

  mcp_oauth_fixture_expire_access_tokens (test.fixture);
  manager = start_manager (&test);
  assert_connected_with_tools (fixture_connection (manager));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), >, refreshes);
  g_assert_cmpuint (test.n_opened, ==, 1);
  g_assert_false (mcp_needs_auth_cache_contains (test.cache_path,
                                                 mcp_server_connection_get_needs_auth_key (fixture_connection (manager))));
  close_manager (manager);

  test_teardown (&test);
}

/* 3. Refresh refused: needs-auth, saying to sign in again. */
static void
test_refresh_refused (void)
{
  Test test = { 0 };
  McpServerManager *manager;
  McpServerConnection *connection;
  const GError *error;

  signed_in_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  mcp_oauth_fixture_set_flags (test.fixture, MCP_OAUTH_FIXTURE_REFRESH_REFUSED);
  mcp_oauth_fixture_expire_access_tokens (test.fixture);

  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_needs_auth (connection);
  error = mcp_server_connection_get_error (connection);
  g_test_message ("refresh refused: %s", error->message);
  g_assert_nonnull (strstr (error->message, "sign in again"));
  g_assert_true (mcp_needs_auth_cache_contains (test.cache_path,
                                                mcp_server_connection_get_needs_auth_key (connection)));
  assert_no_secret_in (&test, error->message);
  close_manager (manager);

  test_teardown (&test);
}

/* 4. Sign-out: the store has nothing for the server; the next connect is
 *    needs-auth. */
static void
test_sign_out (void)
{
  Test test = { 0 };
  McpServerManager *manager;
  McpServerConnection *connection;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  guint unauthorized;

  signed_in_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  g_assert_cmpuint (stored_entries (&test, "tokens", "fixture"), ==, 1);
  g_assert_cmpuint (stored_entries (&test, "client", "fixture"), ==, 1);

  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_connected_with_tools (connection);

  g_assert_true (sign_out (manager, "fixture", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stored_entries (&test, "tokens", "fixture"), ==, 0);
  g_assert_cmpuint (stored_entries (&test, "client", "fixture"), ==, 0);
  assert_needs_auth (connection);
  g_assert_null (mcp_server_connection_get_client (connection));

  /* The next connect asks the server, which says 401. */
  unauthorized = mcp_oauth_fixture_count (test.fixture, "mcp-401");
  mcp_server_connection_ensure_connected_async (connection, NULL, test_result_cb, &result);
  test_wait_result (&result, "connect after sign-out");
  g_assert_false (mcp_server_connection_ensure_connected_finish (connection, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  assert_needs_auth (connection);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp-401"), >, unauthorized);
  close_manager (manager);

  test_teardown (&test);
}

/* 5. Each failure switch: a specific message, nothing stored, still
 *    needs-auth. */
static void
check_failed_sign_in (McpOAuthFixtureFlags  flags,
                      gint                  code,
                      const char           *expected)
{
  Test test = { 0 };
  McpServerManager *manager;
  McpServerConnection *connection;
  g_autoptr(GError) error = NULL;

  test_setup (&test, flags);
  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_needs_auth (connection);
  mcp_oauth_provider_set_callback_timeout (mcp_server_connection_get_oauth_provider (connection), 2);

  g_assert_false (sign_in (&test, manager, "fixture", &error));
  g_assert_error (error, MCP_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "fixture"));
  g_assert_cmpuint (stored_entries (&test, "tokens", "fixture"), ==, 0);
  g_assert_cmpuint (stored_entries (&test, "client", "fixture"), ==, 0);
  assert_needs_auth (connection);
  g_assert_false (mcp_server_connection_get_signing_in (connection));
  close_manager (manager);

  test_teardown (&test);
}

static void
test_no_s256 (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_NO_S256, MCP_ERROR_NEEDS_AUTH, "S256");
}

static void
test_dcr_refused (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_DCR_REFUSED, MCP_ERROR_NEEDS_AUTH, "invalid_client_metadata");
}

static void
test_wrong_state (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_WRONG_STATE, MCP_ERROR_TIMEOUT, "state");
}

/* 6. A corrupt cache file is ignored: the server is asked, and the file
 *    is replaced by one that names it. */
static void
test_corrupt_cache (void)
{
  Test test = { 0 };
  McpServerManager *manager;
  McpServerConnection *connection;
  g_autofree char *cache_dir = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  cache_dir = g_path_get_dirname (test.cache_path);
  g_assert_cmpint (g_mkdir_with_parents (cache_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (test.cache_path, "{\"version\": 1, \"entries\": [", -1, &error));
  g_assert_no_error (error);

  manager = start_manager (&test);
  connection = fixture_connection (manager);
  assert_needs_auth (connection);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp-401"), >=, 1);
  g_assert_true (mcp_needs_auth_cache_contains (test.cache_path,
                                                mcp_server_connection_get_needs_auth_key (connection)));
  g_assert_true (g_file_get_contents (test.cache_path, &contents, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (contents, "\"version\""));
  close_manager (manager);

  test_teardown (&test);
}

/* 7. What has no OAuth says so; the cache key holds no secret. */
#define STDIO_JSON "{\"command\":\"true\",\"enabled\":false}"
static void
test_errors_and_key (void)
{
  Test test = { 0 };
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpServerConfig) stdio = NULL;
  g_autoptr(McpServerConfig) secret_url = NULL;
  g_autoptr(McpServerConnection) secret_connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  node = mcp_json_parse (STDIO_JSON, strlen (STDIO_JSON), &error);
  g_assert_no_error (error);
  stdio = mcp_server_config_new_from_json ("local", MCP_CONFIG_SCOPE_USER,
                                           json_node_get_object (node),
                                           "test-settings.json", "$.mcpServers.local", &error);
  g_assert_no_error (error);

  manager = new_manager (&test);
  g_list_store_append (configs, stdio);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  g_assert_null (mcp_server_connection_get_oauth_provider (mcp_server_manager_lookup (manager, "local")));

  mcp_server_manager_sign_in_async (manager, "local", open_url_cb, &test, NULL,
                                    test_result_cb, &result);
  test_wait_result (&result, "sign-in of a stdio server");
  g_assert_false (mcp_server_manager_sign_in_finish (manager, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“local”"));
  g_assert_nonnull (strstr (error->message, "stdio"));
  g_clear_error (&error);
  g_clear_object (&result);

  mcp_server_manager_sign_out_async (manager, "nowhere", NULL, test_result_cb, &result);
  test_wait_result (&result, "sign-out of an unknown server");
  g_assert_false (mcp_server_manager_sign_out_finish (manager, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“nowhere”"));
  g_clear_error (&error);
  g_assert_cmpuint (test.n_opened, ==, 0);

  /* The key: name and URL, without user info or query. */
  secret_url = http_config ("keyed", "https://user:pw@example.com:8443/mcp?api_key=s3cret#frag");
  secret_connection = mcp_server_connection_new (secret_url);
  g_assert_cmpstr (mcp_server_connection_get_needs_auth_key (secret_connection), ==,
                   "keyed https://example.com:8443/mcp");

  close_manager (g_steal_pointer (&manager));
  test_teardown (&test);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager-oauth/sign-in", test_sign_in_flow);
  g_test_add_func ("/manager-oauth/refresh/silent", test_refresh_silently);
  g_test_add_func ("/manager-oauth/refresh/refused", test_refresh_refused);
  g_test_add_func ("/manager-oauth/sign-out", test_sign_out);
  g_test_add_func ("/manager-oauth/fails/no-s256", test_no_s256);
  g_test_add_func ("/manager-oauth/fails/dcr-refused", test_dcr_refused);
  g_test_add_func ("/manager-oauth/cache/corrupt", test_corrupt_cache);
  g_test_add_func ("/manager-oauth/errors-and-key", test_errors_and_key);
  g_test_add_func ("/manager-oauth/fails/wrong-state", test_wrong_state);

  return g_test_run ();
}
