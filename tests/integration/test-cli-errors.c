/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-errors"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 23, points 6 and 11, on the built plugboard-cli: a server's
 * JSON-RPC error keeps its code, message and data (masked, escaped and
 * bounded on a terminal; as JSON with --json); the keyring warning only
 * when tokens are really read or stored. */

#define HANG_BOUND_S 90

static const char *cli_path;
static const char *fixture_path;

static gboolean
have_tools (void)
{
  return test_cli_have_tools (cli_path, fixture_path);
}

static void
run_cli_env (TestRun            *run,
             TestDirs           *dirs,
             const char * const *env,
             const char * const *args)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  cli.env = env;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, ...) \
  run_cli_env ((run), NULL, NULL, TEST_CLI_ARGS (__VA_ARGS__))

/* The one "plugboard-cli: " line of @err that holds @needle. */
static char *
failure_line (const char *err,
              const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "plugboard-cli: ") && strstr (lines[i], needle) != NULL)
        return g_strdup (lines[i]);
    }
  g_test_message ("stderr: %s", err);
  g_assert_not_reached ();
  return NULL;
}

/* 6: tools/call answered with error -32001 and a data member: the line
 * says the code, the message and the data as compact JSON, its control
 * characters escaped and its URL's query value masked. */
static void
test_error_data_text (void)
{
  g_auto(TestRun) run = { 0 };
  g_autofree char *line = NULL;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "error-data", "--", fixture_path, "--error-data");

  g_assert_cmpint (run.exit_status, !=, 0);
  g_assert_cmpstr (run.out, ==, "");
  test_cli_assert_failure_line (run.err, "Quota exceeded");
  line = failure_line (run.err, "Quota exceeded");
  g_assert_nonnull (strstr (line, "calling “error-data” failed: "));
  g_assert_nonnull (strstr (line, "Quota exceeded (error -32001; data: {"));
  g_assert_nonnull (strstr (line, "\"retryAfter\":30"));
  /* ESC and the line break inside a string, as JSON writes them. */
  g_assert_nonnull (strstr (line, "\"detail\":\"quota of fixture-user\\u001b[2K spent\\nsecond line\""));
  g_assert_null (strchr (run.err, '\033'));
  g_assert_nonnull (strstr (line, "https://quota.example/help?key="));
  g_assert_null (strstr (run.err, "SECRET-QUOTA-KEY"));
  g_assert_true (g_str_has_suffix (line, "})"));
}

/* 6: a huge data cannot flood the terminal: the line is cut, with an
 * ellipsis. */
static void
test_error_data_bounded (void)
{
  g_auto(TestRun) run = { 0 };
  g_autofree char *line = NULL;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "error-data", "--args", "{\"pad\":200000}", "--", fixture_path, "--error-data");

  g_assert_cmpint (run.exit_status, !=, 0);
  line = failure_line (run.err, "Quota exceeded");
  g_assert_nonnull (strstr (line, "(error -32001; data: {\"retryAfter\":30"));
  g_assert_true (g_str_has_suffix (line, "…)"));
  g_assert_cmpuint (strlen (line), <, 1000);
  g_assert_cmpuint (strlen (run.err), <, 4000);
}

/* 6: with --json, stdout is {"error": {"code", "message", "data"}}, the
 * data the server's JSON (secrets masked). */
static void
test_error_data_json (void)
{
  g_auto(TestRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *error;
  JsonObject *data;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "error-data", "--json", "--", fixture_path, "--error-data");

  g_assert_cmpint (run.exit_status, !=, 0);
  test_cli_assert_failure_line (run.err, "Quota exceeded (error -32001; data: ");
  root = test_cli_parse_json (run.out);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  error = json_object_get_object_member (json_node_get_object (root), "error");
  g_assert_nonnull (error);
  g_assert_cmpint (json_object_get_int_member (error, "code"), ==, -32001);
  /* The server's message, not what the CLI says around it. */
  g_assert_cmpstr (json_object_get_string_member (error, "message"), ==, "Quota exceeded");
  data = json_object_get_object_member (error, "data");
  g_assert_nonnull (data);
  g_assert_cmpint (json_object_get_int_member (data, "retryAfter"), ==, 30);
  g_assert_cmpstr (json_object_get_string_member (data, "detail"), ==,
                   "quota of fixture-user\033[2K spent\nsecond line");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (data, "help"),
                                   "https://quota.example/help?key="));
  g_assert_null (strstr (run.out, "SECRET-QUOTA-KEY"));
  g_assert_null (strchr (run.out, '\033'));
}

/* 11 a: without a Secret Service, a configured remote server that needs
 * no sign-in works without a word about the keyring: no tokens were read
 * or stored. */
static void
test_no_keyring_warning_without_tokens (void)
{
  const char * const env[] = { "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-test/bus", NULL };
  const char *builddir = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *http_fixture = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *fallback = NULL;
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  guint16 port;

  if (!have_tools ())
    return;
  http_fixture = g_build_filename (builddir ? builddir : ".", "fixtures", "mcp-http-fixture-server", NULL);
  if (!g_file_test (http_fixture, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mcp-http-fixture-server is not built in G_TEST_BUILDDIR/fixtures");
      return;
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, http_fixture, "--port", "0", NULL);
  g_assert_no_error (error);
  port = test_read_listening_port (server);

  test_dirs_init_cli (&dirs, "cli-errors");
  settings = g_strdup_printf ("{\"mcpServers\": {\"remote\": {\"type\": \"http\", "
                              "\"url\": \"http://127.0.0.1:%u/mcp\"}}}\n", port);
  test_write_file (dirs.user_file, settings);

  run_cli_env (&run, &dirs, env, TEST_CLI_ARGS ("tools", "remote"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\nmcp__remote__echo\n"));
  g_assert_null (strstr (run.err, "Secret Service"));
  g_assert_null (strstr (run.err, "keyring"));
  /* Nor was the file made. */
  fallback = g_build_filename (dirs.root, "xdg-data", "plugboard", "oauth-credentials.json", NULL);
  g_assert_false (g_file_test (fallback, G_FILE_TEST_EXISTS));

  g_subprocess_force_exit (server);
  g_subprocess_wait (server, NULL, NULL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-errors/data/text", test_error_data_text);
  g_test_add_func ("/cli-errors/data/bounded", test_error_data_bounded);
  g_test_add_func ("/cli-errors/data/json", test_error_data_json);
  g_test_add_func ("/cli-errors/keyring/no-warning-without-tokens", test_no_keyring_warning_without_tokens);

  return g_test_run ();
}
