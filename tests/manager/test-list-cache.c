/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-list-cache"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-fixture.h"
#include "mcp-server-manager.h"
#include "mcp-token-store.h"
#include "mcp-transport.h"
#include "test-loopback-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* Issue 10: the stateless revision's ttlMs and cacheScope honoured by the
 * connection's listings. A listing is used while fresh and listed again on
 * the next access (ensure_connected) once stale, never on a timer; a
 * private one is not used under another access token; a handshake-era
 * listing stays until its list_changed. Against the modern fixture over
 * HTTP, whose stderr ("REQ method id") says what the client asked, and the
 * handshake-era fault fixture, whose "state" tool does. Then McpClient's
 * side over a loopback transport, where the test is the server: the
 * minimum over pages, the era, and an invalid cursor. */

/* Far longer than any test runs: "fresh" does not depend on speed. */
#define LONG_TTL_MS "3600000"

typedef struct
{
  char             *dir;
  GSubprocess      *server;
  char             *log_path;  /* the modern fixture's stderr */
  char             *url;
  McpTokenStore    *store;
  char             *cache_path;
  McpServerManager *manager;
} CacheTest;

static void
set_up (CacheTest *test)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *credentials = NULL;

  test->dir = g_dir_make_tmp ("test-list-cache-XXXXXX", &error);
  g_assert_no_error (error);
  test->log_path = g_build_filename (test->dir, "fixture.log", NULL);
  test->cache_path = g_build_filename (test->dir, "needs-auth-cache.json", NULL);
  credentials = g_build_filename (test->dir, "credentials.json", NULL);
  test->store = mcp_token_store_new ("file", credentials);
}

/* Starts the modern fixture on a port of its choosing with --ttl-ms @ttl_ms. */
static void
start_modern_fixture (CacheTest  *test,
                      const char *ttl_ms)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  const char *fixture = g_getenv ("MCP_TEST_MODERN_FIXTURE");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (fixture);
  g_subprocess_launcher_set_stderr_file_path (launcher, test->log_path);
  test->server = g_subprocess_launcher_spawn (launcher, &error, fixture, "--port", "0",
                                              "--ttl-ms", ttl_ms, NULL);
  g_assert_no_error (error);
  test->url = test_read_modern_fixture_url (test->server);
}

/* How many requests of @method the modern fixture saw. */
static guint
count_requests (CacheTest  *test,
                const char *method)
{
  g_autofree char *prefix = g_strdup_printf ("REQ %s ", method);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (test->log_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      n++;
  return n;
}

/* A manager of one server, settled and connected. */
static McpServerConnection *
start_manager (CacheTest       *test,
               McpServerConfig *config)
{
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) settled = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;

  test->manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                                "token-store", test->store,
                                "needs-auth-cache-path", test->cache_path,
                                NULL);
  g_list_store_append (configs, config);
  mcp_server_manager_set_configs (test->manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (test->manager, NULL, test_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (test->manager, test_wait_result (&settled, "settling"), &error);
  g_assert_no_error (error);

  connection = mcp_server_manager_lookup (test->manager, mcp_server_config_get_name (config));
  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  return connection;
}

static void
store_tokens (CacheTest  *test,
              const char *name,
              const char *access_token)
{
  McpOAuthTokens tokens = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  tokens.access_token = (char *) access_token;
  tokens.token_type = (char *) "Bearer";
  mcp_token_store_store_tokens_async (test->store, name, test->url, &tokens, NULL,
                                      test_result_cb, &result);
  g_assert_true (mcp_token_store_store_tokens_finish (test->store, test_wait_result (&result, "storing"),
                                                      &error));
  g_assert_no_error (error);
}

/* The modern fixture with @ttl_ms, behind a manager of it alone; @token,
 * when not NULL, is stored for it first (signed in). */
static McpServerConnection *
start_modern (CacheTest  *test,
              const char *ttl_ms,
              const char *token)
{
  g_autoptr(McpServerConfig) config = NULL;
  g_autofree char *json = NULL;
  McpServerConnection *connection;

  start_modern_fixture (test, ttl_ms);
  if (token != NULL)
    store_tokens (test, "modern", token);
  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}", test->url);
  config = test_config_from_json ("modern", json);
  connection = start_manager (test, config);
  g_assert_cmpint (mcp_client_get_era (mcp_server_connection_get_client (connection)), ==,
                   MCP_PROTOCOL_ERA_MODERN);
  return connection;
}

/* What the UI, the CLI and a tool call do before they use a listing. */
static void
use_listing (McpServerConnection *connection)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_server_connection_ensure_connected_async (connection, NULL, test_result_cb, &result);
  g_assert_true (mcp_server_connection_ensure_connected_finish (connection,
                                                                test_wait_result (&result, "the access"),
                                                                &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
}

static void
tear_down (CacheTest *test)
{
  if (test->manager != NULL)
    {
      g_autoptr(GAsyncResult) closed = NULL;

      mcp_server_manager_close_async (test->manager, NULL, test_result_cb, &closed);
      mcp_server_manager_close_finish (test->manager, test_wait_result (&closed, "closing"), NULL);
      g_clear_object (&test->manager);
    }
  if (test->server != NULL)
    {
      g_subprocess_force_exit (test->server);
      g_subprocess_wait (test->server, NULL, NULL);
      g_clear_object (&test->server);
    }
  g_clear_object (&test->store);

  /* The directory holds only files this test wrote. */
  {
    g_autofree char *credentials = g_build_filename (test->dir, "credentials.json", NULL);

    g_remove (credentials);
    g_remove (test->log_path);
    g_remove (test->cache_path);
    g_rmdir (test->dir);
  }
  g_clear_pointer (&test->dir, g_free);
  g_clear_pointer (&test->log_path, g_free);
  g_clear_pointer (&test->cache_path, g_free);
  g_clear_pointer (&test->url, g_free);
}

/* The fixture's seven tools come three to a page. */
#define TOOL_PAGES 3

/* Fresh listings are used as they are: two accesses, no request. */
static void
test_fresh (void)
{
  CacheTest test = { 0 };
  McpServerConnection *connection;

  set_up (&test);
  connection = start_modern (&test, LONG_TTL_MS, NULL);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, TOOL_PAGES);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 1);
  g_assert_cmpuint (count_requests (&test, "prompts/list"), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 7);

  use_listing (connection);
  use_listing (connection);

  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, TOOL_PAGES);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 1);
  g_assert_cmpuint (count_requests (&test, "prompts/list"), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 7);

  tear_down (&test);
}

static void
count_cb (McpServerConnection *connection,
          guint               *count)
{
  (*count)++;
}

static void
count_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        guint      *count)
{
  (*count)++;
}

/* ttlMs 0: stale at once, so every access lists again (every page) before
 * it answers; the same tools again do not change the model the tool pool
 * and the views bind to. What
 * the server could not list (the fixture has no resource templates) is not
 * asked for again. */
static void
test_zero_ttl (void)
{
  CacheTest test = { 0 };
  McpServerConnection *connection;
  guint templates;
  guint tools_changed = 0;
  guint items_changed = 0;

  set_up (&test);
  connection = start_modern (&test, "0", NULL);
  g_signal_connect (connection, "tools-changed", G_CALLBACK (count_cb), &tools_changed);
  g_signal_connect (mcp_server_connection_get_tools (connection), "items-changed",
                    G_CALLBACK (count_items_changed_cb), &items_changed);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, TOOL_PAGES);
  templates = count_requests (&test, "resources/templates/list");

  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, 2 * TOOL_PAGES);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 2);
  g_assert_cmpuint (count_requests (&test, "prompts/list"), ==, 2);

  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, 3 * TOOL_PAGES);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 3);
  g_assert_cmpuint (count_requests (&test, "prompts/list"), ==, 3);
  g_assert_cmpuint (count_requests (&test, "resources/templates/list"), ==, templates);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 7);
  g_assert_cmpuint (tools_changed, ==, 2);
  g_assert_cmpuint (items_changed, ==, 0);

  tear_down (&test);
}

/* A short ttlMs runs out: nothing happens until the next access (no
 * polling), which lists again. */
static void
test_expiry (void)
{
  CacheTest test = { 0 };
  McpServerConnection *connection;

  set_up (&test);
  connection = start_modern (&test, "200", NULL);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, TOOL_PAGES);

  /* Long after the listing's pages were received (all before now). */
  test_wait_ms (400);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, TOOL_PAGES);

  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, 2 * TOOL_PAGES);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 2);

  tear_down (&test);
}

static gboolean
has_eight_tools (gpointer data)
{
  return g_list_model_get_n_items (mcp_server_connection_get_tools (data)) == 8;
}

/* A list_changed notification invalidates a listing that is still fresh. */
static void
test_list_changed (void)
{
  CacheTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) called = NULL;
  g_autoptr(McpToolResult) touched = NULL;
  g_autoptr(GError) error = NULL;
  guint tools_changed = 0;

  set_up (&test);
  connection = start_modern (&test, LONG_TTL_MS, NULL);
  g_signal_connect (connection, "tools-changed", G_CALLBACK (count_cb), &tools_changed);

  /* The subscription opens the subscriptions/listen stream the
   * notification comes on. */
  mcp_server_connection_subscribe_async (connection, "fixture://greeting", TRUE, NULL,
                                         test_result_cb, &result);
  g_assert_true (mcp_server_connection_subscribe_finish (connection, test_wait_result (&result, "subscribing"),
                                                         &error));
  g_assert_no_error (error);

  mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "touch", NULL,
                              NULL, NULL, test_result_cb, &called);
  touched = mcp_client_call_tool_finish (mcp_server_connection_get_client (connection),
                                         test_wait_result (&called, "the touch"), &error);
  g_assert_no_error (error);

  /* The first touch adds "extra": eight tools, three pages again. */
  test_iterate_until (has_eight_tools, connection, "the tools listed again");
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, 2 * TOOL_PAGES);
  g_assert_cmpuint (tools_changed, ==, 1);

  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, 2 * TOOL_PAGES);

  tear_down (&test);
}

/* cacheScope "private" (the fixture's resources/list): not used under
 * another access token, here none after the token was forgotten while the
 * session went on; the public tools and prompts are kept. */
static void
test_private_scope (void)
{
  CacheTest test = { 0 };
  McpServerConnection *connection;
  McpOAuthProvider *provider;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  set_up (&test);
  connection = start_modern (&test, LONG_TTL_MS, "token-one");
  provider = mcp_server_connection_get_oauth_provider (connection);
  g_assert_nonnull (provider);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 1);

  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 1);

  mcp_oauth_provider_sign_out_async (provider, NULL, test_result_cb, &result);
  g_assert_true (mcp_oauth_provider_sign_out_finish (provider, test_wait_result (&result, "forgetting"),
                                                     &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 2);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, TOOL_PAGES);
  g_assert_cmpuint (count_requests (&test, "prompts/list"), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resources (connection)), ==, 1);

  /* Listed under this context now: fresh again. */
  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 2);

  tear_down (&test);
}

/* The manager's sign-out ends the session: every listing goes with it, and
 * the next access lists everything under the new context. */
static void
test_sign_out (void)
{
  CacheTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  set_up (&test);
  connection = start_modern (&test, LONG_TTL_MS, "token-one");
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 1);

  mcp_server_manager_sign_out_async (test.manager, "modern", NULL, test_result_cb, &result);
  g_assert_true (mcp_server_manager_sign_out_finish (test.manager, test_wait_result (&result, "signing out"),
                                                     &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_NEEDS_AUTH);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resources (connection)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 0);

  /* This fixture asks for no token: it connects again without one. */
  use_listing (connection);
  g_assert_cmpuint (count_requests (&test, "resources/list"), ==, 2);
  g_assert_cmpuint (count_requests (&test, "tools/list"), ==, 2 * TOOL_PAGES);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resources (connection)), ==, 1);

  tear_down (&test);
}

static void
browsed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  mcp_oauth_fixture_browse_finish (result, &error);
  g_assert_no_error (error);
}

/* The person's browser: approves at once. */
static void
open_url_cb (McpOAuthProvider *provider,
             const char       *url,
             gpointer          user_data)
{
  mcp_oauth_fixture_browse_async (url, NULL, browsed_cb, NULL);
}

static void
sign_in (CacheTest  *test,
         const char *name)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_server_manager_sign_in_async (test->manager, name, open_url_cb, NULL, NULL,
                                    test_result_cb, &result);
  g_assert_true (mcp_server_manager_sign_in_finish (test->manager, test_wait_result (&result, "the sign-in"),
                                                    &error));
  g_assert_no_error (error);
}

/* A sign-in while connected (another account, another token) makes a new
 * session, which lists again: no listing outlives the token it was
 * fetched with. The in-process OAuth fixture protects its MCP endpoint. */
static void
test_sign_in (void)
{
  CacheTest test = { 0 };
  g_autoptr(McpOAuthFixture) fixture = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) settled = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  McpServerConnection *connection;
  McpClient *first;
  guint tools_changed = 0;

  set_up (&test);
  fixture = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);
  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}",
                          mcp_oauth_fixture_get_mcp_url (fixture));
  config = test_config_from_json ("protected", json);

  test.manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                               "token-store", test.store,
                               "needs-auth-cache-path", test.cache_path,
                               NULL);
  g_list_store_append (configs, config);
  mcp_server_manager_set_configs (test.manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (test.manager, NULL, test_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (test.manager, test_wait_result (&settled, "settling"), &error);
  g_assert_no_error (error);
  connection = mcp_server_manager_lookup (test.manager, "protected");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_NEEDS_AUTH);

  sign_in (&test, "protected");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 2);
  first = mcp_server_connection_get_client (connection);
  g_signal_connect (connection, "tools-changed", G_CALLBACK (count_cb), &tools_changed);

  use_listing (connection);
  g_assert_cmpuint (tools_changed, ==, 0);

  sign_in (&test, "protected");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_true (mcp_server_connection_get_client (connection) != first);
  g_assert_cmpuint (mcp_oauth_fixture_count (fixture, "token-code"), ==, 2);
  /* Dropped with the old session, then listed under the new token. */
  g_assert_cmpuint (tools_changed, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 2);

  tear_down (&test);
}

/* Handshake era */

static void
on_state_call_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* How many tools/list requests the fault fixture saw. */
static guint
legacy_tool_listings (McpServerConnection *connection)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) called = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *content;
  const char *text;
  JsonArray *methods;
  guint n = 0;

  mcp_client_call_tool_async (client, "state", NULL, NULL, NULL, on_state_call_cb, &result);
  called = mcp_client_call_tool_finish (client, test_wait_result (&result, "the state call"), &error);
  g_assert_no_error (error);
  content = mcp_tool_result_get_content (called);
  g_assert_cmpuint (content->len, ==, 1);
  text = mcp_content_get_text (g_ptr_array_index (content, 0));
  state = mcp_json_parse (text, strlen (text), &error);
  g_assert_no_error (error);

  methods = json_object_get_array_member (json_node_get_object (state), "methods");
  for (guint i = 0; i < json_array_get_length (methods); i++)
    if (g_strcmp0 (json_array_get_string_element (methods, i), "tools/list") == 0)
      n++;
  return n;
}

/* No ttlMs in the handshake era: the listing stays until list_changed, as
 * it always did; accesses do not list again. */
static void
test_legacy (void)
{
  CacheTest test = { 0 };
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GString) json = g_string_new ("{\"command\": ");
  McpServerConnection *connection;

  set_up (&test);
  mcp_json_append_string (json, g_getenv ("MCP_TEST_FIXTURE_SERVER"));
  g_string_append (json, "}");
  config = test_config_from_json ("legacy", json->str);
  connection = start_manager (&test, config);
  g_assert_cmpint (mcp_client_get_era (mcp_server_connection_get_client (connection)), ==,
                   MCP_PROTOCOL_ERA_LEGACY);
  g_assert_cmpuint (legacy_tool_listings (connection), ==, 1);

  use_listing (connection);
  use_listing (connection);
  g_assert_cmpuint (legacy_tool_listings (connection), ==, 1);

  tear_down (&test);
}

/* ------------------------------------------------------------------------ */
/* McpClient over a loopback transport (tests/common): what the client
 * sends is kept, the test answers as the server. */

typedef struct
{
  TestLoopbackTransport *transport;
  guint                  seen;  /* requests answered so far */
} Loopback;

static gboolean
request_waiting (gpointer data)
{
  Loopback *loop = data;

  return test_loopback_transport_request_sent (loop->transport, loop->seen);
}

/* The next request the client sends: its method is @method; returns its
 * id, and its cursor in @cursor (NULL: none). */
static gint64
next_request (Loopback    *loop,
              const char  *method,
              const char **cursor)
{
  McpMessage *message = NULL;
  JsonObject *params;
  gint64 id = 0;

  test_iterate_until (request_waiting, loop, method);
  while (message == NULL)
    {
      McpMessage *candidate = g_ptr_array_index (loop->transport->sent, loop->seen++);

      if (mcp_message_get_kind (candidate) == MCP_MESSAGE_REQUEST)
        message = candidate;
    }

  g_assert_cmpstr (mcp_message_get_method (message), ==, method);
  g_assert_true (mcp_message_get_int_id (message, &id));
  params = mcp_message_get_params_object (message);
  if (cursor != NULL)
    *cursor = params != NULL ? json_object_get_string_member_with_default (params, "cursor", NULL) : NULL;
  return id;
}

static void
server_says (Loopback   *loop,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
server_says (Loopback   *loop,
             const char *format,
             ...)
{
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  va_list args;

  va_start (args, format);
  json = g_strdup_vprintf (format, args);
  va_end (args);

  node = mcp_json_parse (json, strlen (json), &error);
  g_assert_no_error (error);
  message = mcp_message_new_from_node (node, &error);
  g_assert_no_error (error);
  mcp_transport_emit_message (MCP_TRANSPORT (loop->transport), message);
}

/* A tools/list page: the tool @name, then what @rest adds to the result. */
static void
answer_page (Loopback   *loop,
             gint64      id,
             const char *name,
             const char *rest)
{
  server_says (loop,
               "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{\"tools\":["
               "{\"name\":\"%s\",\"inputSchema\":{\"type\":\"object\"}}]%s}}",
               id, name, rest);
}

/* A client connected over the loopback, of the stateless era (it answers
 * server/discover) or of the handshake era (initialize). */
static McpClient *
connect_loopback (Loopback *loop,
                  gboolean  stateless)
{
  g_autoptr(McpTransport) transport = MCP_TRANSPORT (test_loopback_transport_new (stateless));
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 id;

  client = mcp_client_new (transport);
  loop->transport = TEST_LOOPBACK_TRANSPORT (transport);
  loop->seen = 0;
  mcp_client_set_era_hint (client, stateless ? MCP_PROTOCOL_ERA_MODERN : MCP_PROTOCOL_ERA_LEGACY);
  mcp_client_connect_async (client, NULL, test_result_cb, &result);

  if (stateless)
    {
      id = next_request (loop, "server/discover", NULL);
      server_says (loop,
                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                   "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}},"
                   "\"serverInfo\":{\"name\":\"loop\",\"version\":\"1\"},"
                   "\"ttlMs\":0,\"cacheScope\":\"public\"}}", id);
    }
  else
    {
      id = next_request (loop, "initialize", NULL);
      server_says (loop,
                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                   "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                   "\"serverInfo\":{\"name\":\"loop\",\"version\":\"1\"}}}", id);
    }

  g_assert_true (mcp_client_connect_finish (client, test_wait_result (&result, "connecting"), &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_era (client), ==,
                   stateless ? MCP_PROTOCOL_ERA_MODERN : MCP_PROTOCOL_ERA_LEGACY);
  return g_steal_pointer (&client);
}

/* A listing is as fresh as its least fresh page; private when any page is;
 * ttlMs absent, negative or not an integer is 0. */
static void
test_client_pages (void)
{
  Loopback loop = { 0 };
  g_autoptr(McpClient) client = connect_loopback (&loop, TRUE);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  const char *cursor;
  gint64 fresh_until = 0;
  McpCacheScope scope = MCP_CACHE_SCOPE_PUBLIC;
  gint64 before, after;
  gint64 id;

  before = g_get_monotonic_time ();
  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  id = next_request (&loop, "tools/list", &cursor);
  g_assert_null (cursor);
  answer_page (&loop, id, "one", ",\"nextCursor\":\"c1\",\"ttlMs\":2000,\"cacheScope\":\"public\"");
  id = next_request (&loop, "tools/list", &cursor);
  g_assert_cmpstr (cursor, ==, "c1");
  answer_page (&loop, id, "two", ",\"ttlMs\":5000,\"cacheScope\":\"private\"");
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, "the listing"), &error);
  after = g_get_monotonic_time ();
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 2);

  mcp_client_list_get_freshness (client, result, &fresh_until, &scope);
  g_assert_cmpint (fresh_until, >=, before + 2000 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (fresh_until, <=, after + 2000 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (scope, ==, MCP_CACHE_SCOPE_PRIVATE);

  /* Negative, absent, not an integer: stale at once. */
  for (guint i = 0; i < 3; i++)
    {
      static const char *const hints[] = {
        ",\"ttlMs\":-5,\"cacheScope\":\"public\"",
        ",\"cacheScope\":\"public\"",
        ",\"ttlMs\":\"60000\",\"cacheScope\":\"public\"",
      };

      g_clear_object (&result);
      g_clear_pointer (&tools, g_ptr_array_unref);
      mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
      id = next_request (&loop, "tools/list", NULL);
      answer_page (&loop, id, "one", hints[i]);
      tools = mcp_client_list_tools_finish (client, test_wait_result (&result, "the listing"), &error);
      after = g_get_monotonic_time ();
      g_assert_no_error (error);
      mcp_client_list_get_freshness (client, result, &fresh_until, &scope);
      g_assert_cmpint (fresh_until, <=, after);
      g_assert_cmpint (scope, ==, MCP_CACHE_SCOPE_PUBLIC);
    }

  test_client_close (client, NULL);
}

/* The handshake era has no ttlMs: a listing is kept until list_changed,
 * whatever the result carries. */
static void
test_client_handshake_era (void)
{
  Loopback loop = { 0 };
  g_autoptr(McpClient) client = connect_loopback (&loop, FALSE);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  gint64 fresh_until = 0;
  McpCacheScope scope = MCP_CACHE_SCOPE_PRIVATE;
  gint64 id;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  id = next_request (&loop, "tools/list", NULL);
  answer_page (&loop, id, "one", ",\"ttlMs\":0,\"cacheScope\":\"private\"");
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, "the listing"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 1);
  mcp_client_list_get_freshness (client, result, &fresh_until, &scope);
  g_assert_cmpint (fresh_until, ==, MCP_LIST_FRESH_UNTIL_CHANGED);
  g_assert_cmpint (scope, ==, MCP_CACHE_SCOPE_PUBLIC);

  test_client_close (client, NULL);
}

static void
refuse_cursor (Loopback *loop,
               gint64    id)
{
  server_says (loop,
               "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":{"
               "\"code\":-32602,\"message\":\"Invalid cursor\"}}", id);
}

/* An invalid cursor: the pages so far are discarded (their items and their
 * hints) and the listing starts again from the first page, once. */
static void
test_client_invalid_cursor (void)
{
  Loopback loop = { 0 };
  g_autoptr(McpClient) client = connect_loopback (&loop, TRUE);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  const char *cursor;
  gint64 fresh_until = 0;
  McpCacheScope scope = MCP_CACHE_SCOPE_PRIVATE;
  gint64 restarted;
  gint64 id;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  id = next_request (&loop, "tools/list", &cursor);
  answer_page (&loop, id, "gone", ",\"nextCursor\":\"old\",\"ttlMs\":0,\"cacheScope\":\"private\"");
  id = next_request (&loop, "tools/list", &cursor);
  g_assert_cmpstr (cursor, ==, "old");
  restarted = g_get_monotonic_time ();
  refuse_cursor (&loop, id);

  id = next_request (&loop, "tools/list", &cursor);
  g_assert_null (cursor);
  answer_page (&loop, id, "one", ",\"nextCursor\":\"new\",\"ttlMs\":60000,\"cacheScope\":\"public\"");
  id = next_request (&loop, "tools/list", &cursor);
  g_assert_cmpstr (cursor, ==, "new");
  answer_page (&loop, id, "two", ",\"ttlMs\":60000,\"cacheScope\":\"public\"");

  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, "the listing"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 2);
  g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, 0)), ==, "one");
  g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, 1)), ==, "two");
  mcp_client_list_get_freshness (client, result, &fresh_until, &scope);
  g_assert_cmpint (fresh_until, >=, restarted + 60000 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (scope, ==, MCP_CACHE_SCOPE_PUBLIC);

  /* A server that refuses the cursor again is not asked a third time. */
  g_clear_object (&result);
  g_clear_pointer (&tools, g_ptr_array_unref);
  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  id = next_request (&loop, "tools/list", NULL);
  answer_page (&loop, id, "one", ",\"nextCursor\":\"c\",\"ttlMs\":0,\"cacheScope\":\"public\"");
  id = next_request (&loop, "tools/list", NULL);
  refuse_cursor (&loop, id);
  id = next_request (&loop, "tools/list", &cursor);
  g_assert_null (cursor);
  answer_page (&loop, id, "one", ",\"nextCursor\":\"c\",\"ttlMs\":0,\"cacheScope\":\"public\"");
  id = next_request (&loop, "tools/list", NULL);
  refuse_cursor (&loop, id);
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, "the listing"), &error);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS);
  g_assert_null (tools);
  g_assert_false (request_waiting (&loop));

  test_client_close (client, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/list-cache/fresh", test_fresh);
  g_test_add_func ("/list-cache/zero-ttl", test_zero_ttl);
  g_test_add_func ("/list-cache/expiry", test_expiry);
  g_test_add_func ("/list-cache/list-changed", test_list_changed);
  g_test_add_func ("/list-cache/private-scope", test_private_scope);
  g_test_add_func ("/list-cache/sign-out", test_sign_out);
  g_test_add_func ("/list-cache/sign-in", test_sign_in);
  g_test_add_func ("/list-cache/legacy", test_legacy);
  g_test_add_func ("/list-cache/client/pages", test_client_pages);
  g_test_add_func ("/list-cache/client/handshake-era", test_client_handshake_era);
  g_test_add_func ("/list-cache/client/invalid-cursor", test_client_invalid_cursor);

  return g_test_run ();
}
