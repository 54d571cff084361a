/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-ui-resources"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-manager.h"
#include "mcp-token-store.h"
#include "mcp-trace.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "mcp-ui-resource.h"
#include "test-engine.h"
#include "test-util.h"

/* Issue 25: MCP Apps interfaces through McpServerConnection. The three
 * npm app servers over stdio (their tool's interface URI and visibility,
 * the HTML as their dist/mcp-app.html, the cache, RELOAD, two reads at
 * once sharing one request, a cancelled caller, a new session), each
 * told in its initialize that the client renders interfaces; the modern
 * fixture over HTTP (the capability in every request's _meta, ttlMs 0 and
 * its expiry, a changed tool list, and interfaces that are too big, of
 * another type, not UTF-8 or of another URI). Requests are counted in the
 * connection's trace. */

#define DEFAULT_CSP \
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " \
  "img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; " \
  "frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'"

typedef struct
{
  char             *dir;
  McpTokenStore    *store;
  char             *cache_path;
  McpServerManager *manager;
  GSubprocess      *server;    /* the modern fixture */
  char             *url;
} UiTest;

static void
set_up (UiTest *test)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *credentials = NULL;

  test->dir = g_dir_make_tmp ("test-ui-resources-XXXXXX", &error);
  g_assert_no_error (error);
  test->cache_path = g_build_filename (test->dir, "needs-auth-cache.json", NULL);
  credentials = g_build_filename (test->dir, "credentials.json", NULL);
  test->store = mcp_token_store_new ("file", credentials);
}

static void
tear_down (UiTest *test)
{
  g_autofree char *credentials = g_build_filename (test->dir, "credentials.json", NULL);

  if (test->manager != NULL)
    test_manager_close (test->manager);
  g_clear_object (&test->manager);
  if (test->server != NULL)
    {
      g_subprocess_force_exit (test->server);
      g_subprocess_wait (test->server, NULL, NULL);
      g_clear_object (&test->server);
    }
  g_clear_object (&test->store);
  g_remove (credentials);
  g_remove (test->cache_path);
  g_rmdir (test->dir);
  g_clear_pointer (&test->dir, g_free);
  g_clear_pointer (&test->cache_path, g_free);
  g_clear_pointer (&test->url, g_free);
}

/* A manager of the one server @config, settled and connected. */
static McpServerConnection *
start_manager (UiTest          *test,
               McpServerConfig *config)
{
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  McpServerConnection *connection;

  test->manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                                "token-store", test->store,
                                "needs-auth-cache-path", test->cache_path,
                                NULL);
  g_list_store_append (configs, config);
  mcp_server_manager_set_configs (test->manager, G_LIST_MODEL (configs));
  test_manager_settle (test->manager);

  connection = mcp_server_manager_lookup (test->manager, mcp_server_config_get_name (config));
  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  return connection;
}

/* The npm app server @package over stdio, or NULL (the test skipped) when
 * node or the package is missing. */
static McpServerConnection *
start_npm (UiTest     *test,
           const char *package)
{
  g_autofree char *module = g_build_filename ("@modelcontextprotocol", package, "dist", "index.js", NULL);
  g_autofree char *script = test_find_node_module (module);
  g_autofree char *node = test_find_node ();
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(McpServerConfig) config = NULL;

  if (!test_have_node_script (node, script))
    return NULL;

  mcp_json_append_string (json, node);
  g_string_append (json, ",\"args\":[");
  mcp_json_append_string (json, script);
  g_string_append (json, ",\"--stdio\"]}");
  config = test_config_from_json ("app", json->str);
  return start_manager (test, config);
}

/* The modern fixture over HTTP with --ttl-ms @ttl_ms. */
static McpServerConnection *
start_modern (UiTest     *test,
              const char *ttl_ms)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  const char *fixture = g_getenv ("MCP_TEST_MODERN_FIXTURE");
  g_autoptr(McpServerConfig) config = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;

  g_assert_nonnull (fixture);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  test->server = g_subprocess_launcher_spawn (launcher, &error, fixture, "--port", "0",
                                              "--ttl-ms", ttl_ms, NULL);
  g_assert_no_error (error);
  test->url = test_read_modern_fixture_url (test->server);

  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}", test->url);
  config = test_config_from_json ("modern", json);
  connection = start_manager (test, config);
  g_assert_cmpint (mcp_client_get_era (mcp_server_connection_get_client (connection)), ==,
                   MCP_PROTOCOL_ERA_MODERN);
  return connection;
}

static McpUiResource *
read_ui (McpServerConnection  *connection,
         const char           *uri,
         McpUiReadFlags        flags,
         GError              **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_connection_read_ui_resource_async (connection, uri, flags, NULL, test_result_cb, &result);
  return mcp_server_connection_read_ui_resource_finish (connection, test_wait_result (&result, uri), error);
}

static McpUiResource *
read_ui_ok (McpServerConnection *connection,
            const char          *uri,
            McpUiReadFlags       flags)
{
  g_autoptr(GError) error = NULL;
  McpUiResource *resource = read_ui (connection, uri, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (resource);
  return resource;
}

/* The JSON of the messages of @method the connection sent, oldest first. */
static GPtrArray *
sent_messages (McpServerConnection *connection,
               const char          *method)
{
  g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (mcp_server_connection_get_trace (connection));
  GPtrArray *messages = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);
      const char *text = mcp_trace_entry_get_text (entry);

      if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_MESSAGE &&
          mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_OUT &&
          g_strcmp0 (mcp_trace_entry_get_method (entry), method) == 0)
        {
          g_autoptr(GError) error = NULL;
          JsonNode *node = mcp_json_parse (text, strlen (text), &error);

          g_assert_no_error (error);
          g_ptr_array_add (messages, node);
        }
    }

  return messages;
}

static guint
count_sent (McpServerConnection *connection,
            const char          *method)
{
  g_autoptr(GPtrArray) messages = sent_messages (connection, method);

  return messages->len;
}

/* What @capabilities says of MCP Apps: {"mimeTypes": [MCP_UI_MIME_TYPE]}. */
static void
assert_ui_capability (JsonObject *capabilities)
{
  JsonObject *extensions;
  JsonObject *ui;
  JsonArray *mime_types;

  g_assert_nonnull (capabilities);
  extensions = json_object_get_object_member (capabilities, "extensions");
  g_assert_nonnull (extensions);
  ui = json_object_get_object_member (extensions, MCP_UI_EXTENSION);
  g_assert_nonnull (ui);
  mime_types = json_object_get_array_member (ui, "mimeTypes");
  g_assert_nonnull (mime_types);
  g_assert_cmpuint (json_array_get_length (mime_types), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (mime_types, 0), ==, MCP_UI_MIME_TYPE);
}

static McpTool *
find_tool (McpServerConnection *connection,
           const char          *name)
{
  GListModel *tools = mcp_server_connection_get_tools (connection);

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_tool_get_name (tool), name))
        return tool;
    }

  g_error ("no tool “%s”", name);
  return NULL;
}

typedef struct
{
  const char *package;
  const char *tool;
  const char *uri;
} NpmServer;

static const NpmServer npm_servers[] = {
  { "server-basic-vanillajs", "get-time", "ui://get-time/mcp-app.html" },
  { "server-budget-allocator", "get-budget-data", "ui://budget-allocator/mcp-app.html" },
  { "server-customer-segmentation", "get-customer-data", "ui://customer-segmentation/mcp-app.html" },
};

static void
test_npm_server (gconstpointer data)
{
  const NpmServer *npm = data;
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(GPtrArray) initialize = NULL;
  g_autoptr(McpUiResource) first = NULL;
  g_autoptr(McpUiResource) cached = NULL;
  g_autoptr(McpUiResource) reloaded = NULL;
  g_autoptr(GAsyncResult) result_a = NULL;
  g_autoptr(GAsyncResult) result_b = NULL;
  g_autoptr(McpUiResource) parallel_a = NULL;
  g_autoptr(McpUiResource) parallel_b = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *html_module = NULL;
  g_autofree char *html_path = NULL;
  g_autofree char *html = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *csp = NULL;
  gsize html_length = 0;
  McpTool *tool;

  set_up (&test);
  connection = start_npm (&test, npm->package);
  if (connection == NULL)
    {
      tear_down (&test);
      return;
    }

  /* The client said it renders interfaces. */
  initialize = sent_messages (connection, "initialize");
  g_assert_cmpuint (initialize->len, ==, 1);
  assert_ui_capability (json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (g_ptr_array_index (initialize, 0)), "params"),
    "capabilities"));

  tool = find_tool (connection, npm->tool);
  g_assert_cmpstr (mcp_tool_get_ui_resource_uri (tool), ==, npm->uri);
  g_assert_cmpint (mcp_tool_get_ui_visibility (tool), ==, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP);

  /* The interface is the server's dist/mcp-app.html. */
  first = read_ui_ok (connection, npm->uri, MCP_UI_READ_FLAGS_NONE);
  html_module = g_build_filename ("@modelcontextprotocol", npm->package, "dist", "mcp-app.html", NULL);
  html_path = test_find_node_module (html_module);
  g_assert_nonnull (html_path);
  g_assert_true (g_file_get_contents (html_path, &html, &html_length, NULL));
  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) html, html_length);
  g_assert_cmpuint (mcp_ui_resource_get_html_length (first), ==, html_length);
  g_assert_cmpuint (html_length, >, 0);
  g_assert_true (memcmp (mcp_ui_resource_get_html (first), html, html_length) == 0);
  g_assert_cmpstr (mcp_ui_resource_get_digest (first), ==, digest);
  g_assert_cmpstr (mcp_ui_resource_get_uri (first), ==, npm->uri);
  g_assert_cmpstr (mcp_ui_resource_get_mime_type (first), ==, MCP_UI_MIME_TYPE);
  g_assert_cmpint (mcp_ui_resource_get_ttl_ms (first), ==, -1);
  csp = mcp_ui_resource_build_csp (first);
  g_assert_cmpstr (csp, ==, DEFAULT_CSP);
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 1);

  /* Again: from the cache. */
  cached = read_ui_ok (connection, npm->uri, MCP_UI_READ_FLAGS_NONE);
  g_assert_true (cached == first);
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 1);

  /* RELOAD reads again, and what it read is cached. */
  reloaded = read_ui_ok (connection, npm->uri, MCP_UI_READ_FLAGS_RELOAD);
  g_assert_true (reloaded != first);
  g_assert_cmpstr (mcp_ui_resource_get_digest (reloaded), ==, digest);
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 2);

  /* Two callers at once, both reloading: one request, one answer. */
  mcp_server_connection_read_ui_resource_async (connection, npm->uri, MCP_UI_READ_FLAGS_RELOAD, NULL,
                                                test_result_cb, &result_a);
  mcp_server_connection_read_ui_resource_async (connection, npm->uri, MCP_UI_READ_FLAGS_RELOAD, NULL,
                                                test_result_cb, &result_b);
  parallel_a = mcp_server_connection_read_ui_resource_finish (connection, test_wait_result (&result_a, "a"), &error);
  g_assert_no_error (error);
  parallel_b = mcp_server_connection_read_ui_resource_finish (connection, test_wait_result (&result_b, "b"), &error);
  g_assert_no_error (error);
  g_assert_true (parallel_a == parallel_b);
  g_assert_true (parallel_a != reloaded);
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 3);

  tear_down (&test);
}

/* One caller cancels: the other still gets the interface, from the one
 * request; a caller alone that cancels gets CANCELLED, and the next
 * read works. */
static void
test_cancel (void)
{
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) alone = g_cancellable_new ();
  g_autoptr(GAsyncResult) result_a = NULL;
  g_autoptr(GAsyncResult) result_b = NULL;
  g_autoptr(GAsyncResult) result_c = NULL;
  g_autoptr(McpUiResource) cancelled = NULL;
  g_autoptr(McpUiResource) kept = NULL;
  g_autoptr(McpUiResource) after = NULL;
  g_autoptr(GError) error = NULL;
  const char *uri = npm_servers[0].uri;

  set_up (&test);
  connection = start_npm (&test, npm_servers[0].package);
  if (connection == NULL)
    {
      tear_down (&test);
      return;
    }

  mcp_server_connection_read_ui_resource_async (connection, uri, MCP_UI_READ_FLAGS_NONE, cancellable,
                                                test_result_cb, &result_a);
  mcp_server_connection_read_ui_resource_async (connection, uri, MCP_UI_READ_FLAGS_NONE, NULL,
                                                test_result_cb, &result_b);
  g_cancellable_cancel (cancellable);

  cancelled = mcp_server_connection_read_ui_resource_finish (connection, test_wait_result (&result_a, "a"), &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (cancelled);
  /* The first answered before the request could have been: it did not wait. */
  g_assert_null (result_b);
  g_clear_error (&error);
  kept = mcp_server_connection_read_ui_resource_finish (connection, test_wait_result (&result_b, "b"), &error);
  g_assert_no_error (error);
  g_assert_nonnull (kept);
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 1);

  /* Alone, with RELOAD: the request is cancelled, nothing new is cached. */
  mcp_server_connection_read_ui_resource_async (connection, uri, MCP_UI_READ_FLAGS_RELOAD, alone,
                                                test_result_cb, &result_c);
  g_cancellable_cancel (alone);
  g_assert_null (mcp_server_connection_read_ui_resource_finish (connection, test_wait_result (&result_c, "c"),
                                                                &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  after = read_ui_ok (connection, uri, MCP_UI_READ_FLAGS_NONE);
  g_assert_true (after == kept);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  tear_down (&test);
}

/* The stateless revision: the capability in every request's _meta. */
static void
test_modern_capability (void)
{
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(GPtrArray) lists = NULL;
  g_autoptr(McpUiResource) resource = NULL;

  set_up (&test);
  connection = start_modern (&test, "3600000");
  resource = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);

  lists = sent_messages (connection, "tools/list");
  g_assert_cmpuint (lists->len, >, 0);
  for (guint i = 0; i < lists->len; i++)
    {
      JsonObject *params = json_object_get_object_member (json_node_get_object (g_ptr_array_index (lists, i)),
                                                          "params");
      JsonObject *meta = json_object_get_object_member (params, "_meta");

      assert_ui_capability (json_object_get_object_member (meta, "io.modelcontextprotocol/clientCapabilities"));
    }

  tear_down (&test);
}

/* What the fixture's interface declares, and its ttlMs: 0 is never cached. */
static void
test_modern_ttl_zero (void)
{
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(McpUiResource) first = NULL;
  g_autoptr(McpUiResource) second = NULL;
  g_autofree char *csp = NULL;

  set_up (&test);
  connection = start_modern (&test, "0");

  first = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_cmpstr (mcp_ui_resource_get_html (first), ==, "<!doctype html><p>read 1</p>");
  g_assert_cmpint (mcp_ui_resource_get_ttl_ms (first), ==, 0);
  g_assert_cmpint (mcp_ui_resource_get_border (first), ==, MCP_UI_BORDER_VISIBLE);
  g_assert_cmpstr (mcp_ui_resource_get_connect_domains (first)[0], ==, "https://api.example.com");
  g_assert_null (mcp_ui_resource_get_connect_domains (first)[1]);
  g_assert_cmpstr (mcp_ui_resource_get_rejected_sources (first)[0], ==,
                   "connectDomains: 'unsafe-eval' — not an origin (scheme://host[:port])");
  csp = mcp_ui_resource_build_csp (first);
  g_assert_nonnull (strstr (csp, "; connect-src 'self' https://api.example.com; "));
  g_assert_null (strstr (csp, "unsafe-eval"));

  second = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_cmpstr (mcp_ui_resource_get_html (second), ==, "<!doctype html><p>read 2</p>");
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 2);

  tear_down (&test);
}

/* A ttlMs: cached until it runs out, then read again. */
static void
test_modern_ttl_expiry (void)
{
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(McpUiResource) first = NULL;
  g_autoptr(McpUiResource) cached = NULL;
  g_autoptr(McpUiResource) expired = NULL;

  set_up (&test);
  connection = start_modern (&test, "500");

  first = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_cmpint (mcp_ui_resource_get_ttl_ms (first), ==, 500);
  cached = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_true (cached == first);
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 1);

  test_wait_ms (700);
  expired = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_true (expired != first);
  g_assert_cmpstr (mcp_ui_resource_get_html (expired), ==, "<!doctype html><p>read 2</p>");
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 2);

  tear_down (&test);
}

/* Without a ttlMs to go by, a new session forgets what the last one read. */
static void
test_new_session (void)
{
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(McpUiResource) first = NULL;
  g_autoptr(McpUiResource) after = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *uri = npm_servers[0].uri;

  set_up (&test);
  connection = start_npm (&test, npm_servers[0].package);
  if (connection == NULL)
    {
      tear_down (&test);
      return;
    }

  first = read_ui_ok (connection, uri, MCP_UI_READ_FLAGS_NONE);
  mcp_server_connection_reconnect_async (connection, NULL, test_result_cb, &result);
  g_assert_true (mcp_server_connection_reconnect_finish (connection, test_wait_result (&result, "reconnect"),
                                                         &error));
  g_assert_no_error (error);

  after = read_ui_ok (connection, uri, MCP_UI_READ_FLAGS_NONE);
  g_assert_true (after != first);
  g_assert_cmpstr (mcp_ui_resource_get_digest (after), ==, mcp_ui_resource_get_digest (first));
  /* The trace is the connection's, across sessions. */
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 2);

  tear_down (&test);
}

static gboolean
has_tool_extra (gpointer data)
{
  GListModel *tools = mcp_server_connection_get_tools (data);

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_tool_get_name (tool), "extra"))
        return TRUE;
    }
  return FALSE;
}

/* The tool list changed: the interfaces are read again, however long their
 * ttlMs. (The fixture's "touch" tells the subscriptions/listen stream,
 * which a subscription opens.) */
static void
test_modern_list_changed (void)
{
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(McpUiResource) first = NULL;
  g_autoptr(McpUiResource) cached = NULL;
  g_autoptr(McpUiResource) after = NULL;
  g_autoptr(McpToolResult) touched = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  set_up (&test);
  connection = start_modern (&test, "3600000");
  first = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  cached = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_true (cached == first);

  mcp_server_connection_subscribe_async (connection, "fixture://greeting", TRUE, NULL, test_result_cb, &result);
  g_assert_true (mcp_server_connection_subscribe_finish (connection, test_wait_result (&result, "subscribe"),
                                                         &error));
  g_assert_no_error (error);
  touched = test_client_call_tool_json (mcp_server_connection_get_client (connection), "touch", "{}",
                                        NULL, NULL, &error);
  g_assert_no_error (error);
  test_iterate_until (has_tool_extra, connection, "the tool list to change");

  after = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_true (after != first);
  g_assert_cmpstr (mcp_ui_resource_get_html (after), ==, "<!doctype html><p>read 2</p>");
  g_assert_cmpuint (count_sent (connection, "resources/read"), ==, 2);

  tear_down (&test);
}

/* A server's interfaces that are not ones: errors that say what and which. */
static void
test_modern_hostile (void)
{
  static const struct {
    const char *uri;
    GQuark      domain;
    int         code;
    const char *says;
  } cases[] = {
    { "ui://fixture/huge.html", 0, MCP_ERROR_MESSAGE_TOO_LARGE, "larger than 8 MiB" },
    { "ui://fixture/not-html", 0, MCP_ERROR_INVALID_MESSAGE, "its type is “text/plain”" },
    { "ui://fixture/binary.html", 0, MCP_ERROR_INVALID_MESSAGE, "not valid UTF-8" },
    { "ui://fixture/wrong-uri.html", 0, MCP_ERROR_INVALID_MESSAGE, "its type is “text/plain”" },
  };
  UiTest test = { 0 };
  McpServerConnection *connection;
  g_autoptr(McpUiResource) good = NULL;

  set_up (&test);
  connection = start_modern (&test, "3600000");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpUiResource) resource = read_ui (connection, cases[i].uri, MCP_UI_READ_FLAGS_NONE, &error);

      g_assert_null (resource);
      g_assert_error (error, MCP_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].uri) == NULL || strstr (error->message, cases[i].says) == NULL)
        g_error ("“%s”: “%s” does not say which and “%s”", cases[i].uri, error->message, cases[i].says);
    }

  /* Failures are not cached: each asks again. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(McpUiResource) again = read_ui (connection, "ui://fixture/not-html", MCP_UI_READ_FLAGS_NONE, &error);

    g_assert_null (again);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
    g_assert_cmpuint (count_sent (connection, "resources/read"), ==, G_N_ELEMENTS (cases) + 1);
  }

  /* The server does not have it. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(McpUiResource) missing = read_ui (connection, "ui://fixture/nope.html", MCP_UI_READ_FLAGS_NONE, &error);

    g_assert_null (missing);
    g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS);
  }

  /* Not a ui:// URI: refused before anything is sent. */
  {
    static const char *not_ui[] = { "fixture://greeting", "https://evil.example/x", "ui://", "ui://a b", "" };

    for (guint i = 0; i < G_N_ELEMENTS (not_ui); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(McpUiResource) refused = read_ui (connection, not_ui[i], MCP_UI_READ_FLAGS_NONE, &error);

        g_assert_null (refused);
        g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
        g_assert_nonnull (strstr (error->message, "not the ui:// URI of an interface"));
      }
    g_assert_cmpuint (count_sent (connection, "resources/read"), ==, G_N_ELEMENTS (cases) + 2);
  }

  /* And the connection is none the worse. */
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  good = read_ui_ok (connection, "ui://fixture/app.html", MCP_UI_READ_FLAGS_NONE);
  g_assert_cmpstr (mcp_ui_resource_get_html (good), ==, "<!doctype html><p>read 1</p>");

  tear_down (&test);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (npm_servers); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ui-resources/npm/%s", npm_servers[i].package);

      g_test_add_data_func (path, &npm_servers[i], test_npm_server);
    }
  g_test_add_func ("/ui-resources/npm/cancel", test_cancel);
  g_test_add_func ("/ui-resources/npm/new-session", test_new_session);
  g_test_add_func ("/ui-resources/modern/capability", test_modern_capability);
  g_test_add_func ("/ui-resources/modern/ttl-zero", test_modern_ttl_zero);
  g_test_add_func ("/ui-resources/modern/ttl-expiry", test_modern_ttl_expiry);
  g_test_add_func ("/ui-resources/modern/list-changed", test_modern_list_changed);
  g_test_add_func ("/ui-resources/modern/hostile", test_modern_hostile);

  return g_test_run ();
}
