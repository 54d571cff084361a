/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-remote-sessions"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <gio/gio.h>

#include "mcp-error.h"
#include "mcp-log-entry.h"
#include "mcp-server-manager.h"
#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 23, point 3: a session the server expires (404 to a request that
 * carries it) in the middle of a paged listing is renewed once, and the
 * listing made again from its first page in the new session; a server that
 * expires every session fails with a clear message instead of a loop.
 *
 * Issue 23, point 4: a "type": "http" server (configured, or plugboard-cli's
 * --http) that refuses the initialize POST with 400, 404 or 405 is tried
 * again over the legacy HTTP+SSE transport, as the specification's
 * backwards compatibility says; other refusals are not. Against
 * mcp-http-fixture-server --legacy-sse STATUS and the TypeScript SDK's
 * sseAndStreamableHttpCompatibleServer at its /sse URL. */

static char *fixture_path;
static const char *cli_path;

typedef struct
{
  GSubprocess    *process;
  TestLineReader *reader;
  GPtrArray      *log;   /* its stderr: one line per request */
  char           *url;
} Fixture;

static gboolean
have_tools (void)
{
  if (fixture_path == NULL || !g_file_test (fixture_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mcp-http-fixture-server is not built in G_TEST_BUILDDIR/fixtures");
      return FALSE;
    }
  if (cli_path == NULL || !g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("MCP_TEST_PLUGBOARD_CLI is not set or not built");
      return FALSE;
    }
  return TRUE;
}

/* mcp-http-fixture-server with the options given (NULL-terminated). */
static Fixture *
fixture_new (const char *first_option,
             ...)
{
  Fixture *fx = g_new0 (Fixture, 1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  va_list args;

  g_strv_builder_add (builder, fixture_path);
  va_start (args, first_option);
  for (const char *option = first_option; option != NULL; option = va_arg (args, const char *))
    g_strv_builder_add (builder, option);
  va_end (args);
  argv = g_strv_builder_end (builder);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  fx->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &error);
  g_assert_no_error (error);

  fx->url = g_strdup_printf ("http://127.0.0.1:%u/mcp", test_read_listening_port (fx->process));
  fx->log = g_ptr_array_new_with_free_func (g_free);
  fx->reader = test_line_reader_new (g_subprocess_get_stderr_pipe (fx->process), fx->log, "fixture");
  return fx;
}

static void
fixture_free (Fixture *fx)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (fx->process, SIGTERM);
  g_subprocess_wait (fx->process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (fx->process));
  g_clear_pointer (&fx->reader, test_line_reader_free);
  g_clear_object (&fx->process);
  g_clear_pointer (&fx->log, g_ptr_array_unref);
  g_free (fx->url);
  g_free (fx);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Fixture, fixture_free)

/* How many requests the fixture logged that start with @prefix. */
static guint
fixture_count (Fixture    *fx,
               const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < fx->log->len; i++)
    n += g_str_has_prefix (g_ptr_array_index (fx->log, i), prefix);
  return n;
}

/* plugboard-cli with @dirs' settings; an ad-hoc server's verb (--http)
 * takes no settings options, and gets only @dirs' XDG folders. */
static void
run_cli (TestRun            *run,
         const TestDirs     *dirs,
         const char * const *args)
{
  gboolean ad_hoc = g_strv_contains (args, "--http");
  TestCli cli;

  test_cli_init (&cli, cli_path, ad_hoc ? NULL : dirs);
  if (ad_hoc)
    cli.xdg_root = dirs->root;
  test_cli_run (run, &cli, args);
}

/* plugboard-cli tools --http URL, through the fallback */

static void
check_tools_over_legacy (const char *status)
{
  g_auto(TestDirs) dirs = { 0, };
  g_auto(TestRun) run = { 0, };
  g_autoptr(Fixture) fx = NULL;

  if (!have_tools ())
    return;

  fx = fixture_new ("--legacy-sse", status, NULL);
  test_dirs_init_cli (&dirs, "remote-sessions");
  run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", fx->url));

  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\necho\n"));
  g_assert_nonnull (strstr (run.out, "\nslow\n"));
  /* One GET: the legacy event stream. */
  g_assert_cmpuint (fixture_count (fx, "GET "), ==, 1);
}

static void
test_cli_tools_404 (void)
{
  check_tools_over_legacy ("404");
}

static void
test_cli_tools_405 (void)
{
  check_tools_over_legacy ("405");
}

static void
test_cli_tools_400 (void)
{
  check_tools_over_legacy ("400");
}

/* A 500 is an answer of a server that is there: no fallback. So is a 401,
 * which asks for a sign-in. */
static void
test_cli_no_fallback (void)
{
  g_auto(TestDirs) dirs = { 0, };

  if (!have_tools ())
    return;

  test_dirs_init_cli (&dirs, "remote-sessions");

  {
    g_auto(TestRun) run = { 0, };
    g_autoptr(Fixture) fx = fixture_new ("--legacy-sse", "500", NULL);

    run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", fx->url));
    g_assert_cmpint (run.exit_status, !=, 0);
    test_cli_assert_failure_line (run.err, "HTTP 500");
    g_assert_null (strstr (run.err, "legacy"));
    g_assert_cmpuint (fixture_count (fx, "GET "), ==, 0);
  }

  {
    g_auto(TestRun) run = { 0, };
    g_autoptr(Fixture) fx = fixture_new ("--legacy-sse", "404", "--require-token", "sesame", NULL);

    run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", fx->url));
    g_assert_cmpint (run.exit_status, !=, 0);
    test_cli_assert_failure_line (run.err, "needs you to sign in");
    g_assert_null (strstr (run.err, "sesame"));
    g_assert_cmpuint (fixture_count (fx, "GET "), ==, 0);
  }
}

/* A URL where nothing answers MCP at all: the legacy GET fails too, and
 * the error says both. */
static void
test_cli_both_fail (void)
{
  g_auto(TestDirs) dirs = { 0, };
  g_auto(TestRun) run = { 0, };
  g_autoptr(Fixture) fx = NULL;
  g_autofree char *url = NULL;

  if (!have_tools ())
    return;

  fx = fixture_new (NULL);
  url = g_strdup_printf ("%s-nothing-here", fx->url);
  test_dirs_init_cli (&dirs, "remote-sessions");
  run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", url));

  g_assert_cmpint (run.exit_status, !=, 0);
  test_cli_assert_failure_line (run.err, "HTTP 404");
  g_assert_nonnull (strstr (run.err, "legacy HTTP+SSE transport tried next failed too"));
  g_assert_cmpuint (fixture_count (fx, "GET "), ==, 1);
}

/* plugboard-cli get NAME says which transport was used. */
static void
test_cli_get_says_transport (void)
{
  g_auto(TestDirs) dirs = { 0, };
  g_auto(TestRun) run = { 0, };
  g_autoptr(Fixture) fx = NULL;
  g_autofree char *settings = NULL;

  if (!have_tools ())
    return;

  fx = fixture_new ("--legacy-sse", "404", NULL);
  test_dirs_init_cli (&dirs, "remote-sessions");
  settings = g_strdup_printf ("{\"mcpServers\": {\"old\": {\"type\": \"http\", \"url\": \"%s\"}}}",
                              fx->url);
  test_write_file (dirs.user_file, settings);

  run_cli (&run, &dirs, TEST_CLI_ARGS ("get", "old"));
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "  transport: http\n"));
  g_assert_nonnull (strstr (run.out, "  connected over: legacy HTTP+SSE (the server refused "
                                     "Streamable HTTP: HTTP 404)\n"));
}

/* The same through the manager: the connection's transport, its reason,
 * and a line in its log. */
static void
test_manager_fallback (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerConfig) config = NULL;
  g_autofree char *json = NULL;
  McpServerConnection *connection;
  GListModel *log;
  gboolean logged = FALSE;

  if (!have_tools ())
    return;

  fx = fixture_new ("--legacy-sse", "405", NULL);
  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}", fx->url);
  config = test_config_from_json ("old", json);
  g_list_store_append (configs, config);

  manager = mcp_server_manager_new ();
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  test_manager_settle (manager);

  connection = mcp_server_manager_lookup (manager, "old");
  g_assert_nonnull (connection);
  g_assert_no_error (mcp_server_connection_get_error (connection));
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 2);
  g_assert_cmpint (mcp_server_connection_get_active_transport (connection), ==, MCP_TRANSPORT_KIND_SSE);
  g_assert_cmpstr (mcp_server_connection_get_transport_fallback (connection), ==,
                   "the server refused Streamable HTTP: HTTP 405");

  log = mcp_server_connection_get_log (connection);
  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      logged |= strstr (mcp_log_entry_get_text (entry), "trying the legacy HTTP+SSE transport") != NULL;
    }
  g_assert_true (logged);

  test_manager_close (manager);
}

/* A Streamable HTTP server stays on Streamable HTTP. */
static void
test_manager_no_fallback (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerConfig) config = NULL;
  g_autofree char *json = NULL;
  g_autofree char *description = NULL;
  McpServerConnection *connection;

  if (!have_tools ())
    return;

  fx = fixture_new (NULL);
  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}", fx->url);
  config = test_config_from_json ("new", json);
  g_list_store_append (configs, config);

  manager = mcp_server_manager_new ();
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  test_manager_settle (manager);

  connection = mcp_server_manager_lookup (manager, "new");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (mcp_server_connection_get_active_transport (connection), ==, MCP_TRANSPORT_KIND_HTTP);
  g_assert_null (mcp_server_connection_get_transport_fallback (connection));
  description = mcp_server_connection_dup_transport_description (connection);
  g_assert_cmpstr (description, ==, "Streamable HTTP");
  g_assert_cmpuint (fixture_count (fx, "GET session=-"), ==, 0);

  test_manager_close (manager);
}

/* The TypeScript SDK's server of both transports, at its legacy /sse URL */

static void
test_sdk_compatible_server (void)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *module_uri = NULL;
  g_autofree char *port = NULL;
  g_autofree char *url = NULL;
  g_auto(TestDirs) dirs = { 0, };
  g_auto(TestRun) run = { 0, };
  guint16 listening;

  if (!have_tools ())
    return;
  script = test_find_node_module ("@modelcontextprotocol/sdk/dist/esm/examples/server/"
                                  "sseAndStreamableHttpCompatibleServer.js");
  if (node == NULL || script == NULL)
    {
      g_test_skip ("node or the TypeScript SDK's examples are missing");
      return;
    }

  test_dirs_init_cli (&dirs, "remote-sessions-sdk");
  /* The example listens on port 3000, always: the module moves it to the
   * port the test picked, on 127.0.0.1. */
  module_uri = test_write_loopback_module (dirs.root);

  listening = test_pick_port ();
  port = g_strdup_printf ("%u", listening);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PLUGBOARD_TEST_PORT", port, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, node, "--import", module_uri, script, NULL);
  g_assert_no_error (error);
  test_wait_listening (listening, 30, "the SDK example server");

  url = g_strdup_printf ("http://127.0.0.1:%u/sse", listening);
  run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", url));
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "start-notification-stream"));

  g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait (server, NULL, NULL);
}

/* Session renewal */

static void
test_cli_renewal (void)
{
  g_auto(TestDirs) dirs = { 0, };

  if (!have_tools ())
    return;

  test_dirs_init_cli (&dirs, "remote-sessions");

  {
    g_auto(TestRun) run = { 0, };
    /* The third POST of the first session is tools/list's second page. */
    g_autoptr(Fixture) fx = fixture_new ("--page-size", "3", "--expire-session-after", "3",
                                         "--expire-sessions", "1", NULL);

    run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", fx->url));
    g_assert_cmpstr (run.err, ==, "");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "10 tools"));
    g_assert_nonnull (strstr (run.out, "\necho\n"));
    g_assert_nonnull (strstr (run.out, "\ntool-8\n"));
    g_assert_cmpuint (fixture_count (fx, "POST session=- last-event-id=- -> 200 rpc=initialize"), ==, 2);
    g_assert_cmpuint (fixture_count (fx, "POST session=s"), >=, 5);
  }

  {
    g_auto(TestRun) run = { 0, };
    g_autoptr(Fixture) fx = fixture_new ("--page-size", "3", "--expire-session-after", "3", NULL);

    run_cli (&run, &dirs, TEST_CLI_ARGS ("tools", "--http", fx->url));
    g_assert_cmpint (run.exit_status, !=, 0);
    test_cli_assert_failure_line (run.err, "said its new session expired too");
    /* One new session, not more. */
    g_assert_cmpuint (fixture_count (fx, "POST session=- last-event-id=- -> 200 rpc=initialize"), ==, 2);
  }
}

/* The CLI's own requests (ping, read, prompt, complete, tasks) renew an
 * expired session once too: here the session expires at ping, after the
 * connection's own requests. */
static void
test_cli_renewal_request (void)
{
  g_auto(TestDirs) dirs = { 0, };

  if (!have_tools ())
    return;

  test_dirs_init_cli (&dirs, "remote-sessions");

  {
    g_auto(TestRun) run = { 0, };
    /* initialize, notifications/initialized and tools/list; then ping's
     * POST is answered 404. */
    g_autoptr(Fixture) fx = fixture_new ("--expire-session-after", "3", "--expire-sessions", "1", NULL);
    guint n_expired = 0, n_pings = 0, n_lists = 0;

    run_cli (&run, &dirs, TEST_CLI_ARGS ("ping", "--http", fx->url));
    g_assert_cmpstr (run.err, ==, "");
    g_assert_cmpint (run.exit_status, ==, 0);
    for (guint i = 0; i < fx->log->len; i++)
      {
        const char *line = g_ptr_array_index (fx->log, i);

        n_expired += g_str_has_prefix (line, "POST ") && strstr (line, " -> 404 ") != NULL;
        n_pings += g_str_has_prefix (line, "POST ") && strstr (line, " -> 200 rpc=ping ") != NULL;
        n_lists += g_str_has_prefix (line, "POST ") && strstr (line, " -> 200 rpc=tools/list ") != NULL;
      }
    /* Expired once, after the first session's listing: a new session (its
     * listing made again) and ping sent once more in it. */
    g_assert_cmpuint (n_expired, ==, 1);
    g_assert_cmpuint (n_lists, ==, 2);
    g_assert_cmpuint (n_pings, ==, 1);
    g_assert_cmpuint (fixture_count (fx, "POST session=- last-event-id=- -> 200 rpc=initialize"), ==, 2);
  }

  {
    g_auto(TestRun) run = { 0, };
    /* Every session expires after its second request: the new one too. */
    g_autoptr(Fixture) fx = fixture_new ("--expire-session-after", "3", NULL);

    run_cli (&run, &dirs, TEST_CLI_ARGS ("ping", "--http", fx->url));
    g_assert_cmpint (run.exit_status, ==, 3);
    g_assert_nonnull (strstr (run.err, "expired"));
  }
}

static McpServerManager *
manager_for (const char *url)
{
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerConfig) config = NULL;
  g_autofree char *json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}", url);
  McpServerManager *manager = mcp_server_manager_new ();

  config = test_config_from_json ("remote", json);
  g_list_store_append (configs, config);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  test_manager_settle (manager);
  return manager;
}

static gboolean
log_has (McpServerConnection *connection,
         const char          *needle)
{
  GListModel *log = mcp_server_connection_get_log (connection);

  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      if (strstr (mcp_log_entry_get_text (entry), needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
test_manager_renewal (void)
{
  if (!have_tools ())
    return;

  {
    g_autoptr(Fixture) fx = fixture_new ("--page-size", "3", "--expire-session-after", "3",
                                         "--expire-sessions", "1", NULL);
    g_autoptr(McpServerManager) manager = manager_for (fx->url);
    McpServerConnection *connection = mcp_server_manager_lookup (manager, "remote");

    g_assert_no_error (mcp_server_connection_get_error (connection));
    g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
    g_assert_no_error (mcp_server_connection_get_tools_error (connection));
    g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 10);
    g_assert_true (log_has (connection, "session expired; starting a new one"));
    test_manager_close (manager);
  }

  {
    g_autoptr(Fixture) fx = fixture_new ("--page-size", "3", "--expire-session-after", "3", NULL);
    g_autoptr(McpServerManager) manager = manager_for (fx->url);
    McpServerConnection *connection = mcp_server_manager_lookup (manager, "remote");
    const GError *error = mcp_server_connection_get_error (connection);

    g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_FAILED);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
    g_assert_nonnull (strstr (error->message, "“remote” said its new session expired too"));
    g_assert_cmpuint (fixture_count (fx, "POST session=- last-event-id=- -> 200 rpc=initialize"), ==, 2);
    test_manager_close (manager);
  }
}

/* The connection's own requests renew too: a log level set after the
 * session expired is set in a new one. */
static void
test_manager_renewal_log_level (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;

  if (!have_tools ())
    return;

  /* initialize, notifications/initialized, tools/list: the next expires. */
  fx = fixture_new ("--expire-session-after", "3", "--expire-sessions", "1", NULL);
  manager = manager_for (fx->url);
  connection = mcp_server_manager_lookup (manager, "remote");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  mcp_server_connection_set_log_level_async (connection, "debug", NULL, test_result_cb, &result);
  g_assert_true (mcp_server_connection_set_log_level_finish (connection,
                                                             test_wait_result (&result, "set log level"),
                                                             &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_server_connection_get_log_level (connection), ==, "debug");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_true (log_has (connection, "session expired; starting a new one"));
  g_assert_cmpuint (fixture_count (fx, "POST session=- last-event-id=- -> 200 rpc=initialize"), ==, 2);
  g_assert_cmpuint (fixture_count (fx, "POST session=s"), >=, 1);

  test_manager_close (manager);
}

int
main (int   argc,
      char *argv[])
{
  const char *builddir;

  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (60);

  builddir = g_getenv ("G_TEST_BUILDDIR");
  if (builddir != NULL)
    fixture_path = g_build_filename (builddir, "fixtures", "mcp-http-fixture-server", NULL);
  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");

  g_test_add_func ("/remote-sessions/renewal/cli", test_cli_renewal);
  g_test_add_func ("/remote-sessions/renewal/cli-request", test_cli_renewal_request);
  g_test_add_func ("/remote-sessions/renewal/manager", test_manager_renewal);
  g_test_add_func ("/remote-sessions/renewal/log-level", test_manager_renewal_log_level);
  g_test_add_func ("/remote-sessions/fallback/cli/tools-404", test_cli_tools_404);
  g_test_add_func ("/remote-sessions/fallback/cli/tools-405", test_cli_tools_405);
  g_test_add_func ("/remote-sessions/fallback/cli/tools-400", test_cli_tools_400);
  g_test_add_func ("/remote-sessions/fallback/cli/no-fallback", test_cli_no_fallback);
  g_test_add_func ("/remote-sessions/fallback/cli/both-fail", test_cli_both_fail);
  g_test_add_func ("/remote-sessions/fallback/cli/get", test_cli_get_says_transport);
  g_test_add_func ("/remote-sessions/fallback/manager/fallback", test_manager_fallback);
  g_test_add_func ("/remote-sessions/fallback/manager/no-fallback", test_manager_no_fallback);
  g_test_add_func ("/remote-sessions/fallback/sdk/compatible-server", test_sdk_compatible_server);

  return g_test_run ();
}
