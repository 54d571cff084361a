/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plugboard-cli --trace FILE and trace show FILE (issue 24, point 3):
 * the record of a stdio server's and a Streamable HTTP server's traffic,
 * paired, with stderr and HTTP exchanges, and no secret in the file or in
 * what trace show prints; a path that cannot be written and a file that
 * is not a trace are clear errors. */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "test-cli-run.h"
#include "test-util.h"

#define TOKEN "tok-3f9a7c21e8b4"

static const char *cli_path;
static const char *fixture_path;
static char *http_fixture_path;

static gboolean
have_tools (void)
{
  if (!test_cli_have_tools (cli_path, fixture_path))
    return FALSE;
  if (http_fixture_path == NULL || !g_file_test (http_fixture_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mcp-http-fixture-server is not built in G_TEST_BUILDDIR/fixtures");
      return FALSE;
    }
  return TRUE;
}

/* Every line of the file parses as a JSON object. */
static GPtrArray *
read_records (const char *path)
{
  g_autofree char *text = test_read_file (path);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      JsonNode *node;

      if (*lines[i] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (records, node);
    }
  return records;
}

static JsonObject *
find_record (GPtrArray  *records,
             const char *kind,
             const char *type,
             const char *method)
{
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *o = json_node_get_object (g_ptr_array_index (records, i));

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "kind", NULL), kind) == 0 &&
          (type == NULL || g_strcmp0 (json_object_get_string_member_with_default (o, "type", NULL), type) == 0) &&
          (method == NULL || g_strcmp0 (json_object_get_string_member_with_default (o, "method", NULL), method) == 0))
        return o;
    }
  return NULL;
}

static void
test_stdio (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) records = NULL;
  TestRun run = { 0 };
  TestCli cli = { 0 };
  JsonObject *request, *response;

  if (!have_tools ())
    return;

  dir = g_dir_make_tmp ("plugboard-cli-trace-XXXXXX", NULL);
  path = g_build_filename (dir, "trace.jsonl", NULL);
  test_cli_init (&cli, cli_path, NULL);
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("--trace", path, "tools", "--", fixture_path,
                                           "--stderr-lines", "2"));
  g_assert_cmpint (run.exit_status, ==, 0);
  test_run_clear (&run);

  records = read_records (path);
  request = find_record (records, "message", "request", "initialize");
  response = find_record (records, "message", "result", "initialize");
  g_assert_nonnull (request);
  g_assert_nonnull (response);
  g_assert_cmpstr (json_object_get_string_member (request, "direction"), ==, "out");
  g_assert_cmpint (json_object_get_int_member (request, "response_seq"), ==,
                   json_object_get_int_member (response, "seq"));
  g_assert_cmpint (json_object_get_int_member (response, "request_seq"), ==,
                   json_object_get_int_member (request, "seq"));
  g_assert_true (json_object_has_member (response, "duration_us"));
  /* The message itself, as JSON. */
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (response, "message")));
  g_assert_nonnull (find_record (records, "message", "result", "tools/list"));
  g_assert_nonnull (find_record (records, "stderr", NULL, NULL));
  g_assert_cmpstr (json_object_get_string_member (request, "server"), ==, "mcp-fixture-server");

  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "→ initialize #"));
  g_assert_nonnull (strstr (run.out, "← result #"));
  g_assert_nonnull (strstr (run.out, "(tools/list)"));
  g_assert_nonnull (strstr (run.out, "stderr: "));
  test_run_clear (&run);

  /* Only stderr; and --full shows each message's JSON. */
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path, "--kind", "stderr"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_null (strstr (run.out, "initialize"));
  g_assert_nonnull (strstr (run.out, "stderr: "));
  test_run_clear (&run);
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path, "--full"));
  g_assert_nonnull (strstr (run.out, "\"protocolVersion\""));
  test_run_clear (&run);

  test_remove_tree (dir);
}

static void
test_http_masked (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *arg = NULL;
  g_autofree char *url = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;
  TestRun run = { 0 };
  TestCli cli = { 0 };
  JsonObject *post;

  if (!have_tools ())
    return;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, http_fixture_path, "--require-token", TOKEN, NULL);
  g_assert_no_error (error);
  url = g_strdup_printf ("http://127.0.0.1:%u/mcp", test_read_listening_port (server));

  dir = g_dir_make_tmp ("plugboard-cli-trace-XXXXXX", NULL);
  path = g_build_filename (dir, "trace.jsonl", NULL);
  arg = g_strdup_printf ("--trace=%s", path);
  test_cli_init (&cli, cli_path, NULL);
  test_cli_run (&run, &cli, TEST_CLI_ARGS (arg, "tools", "--http", url,
                                           "--header", "Authorization: Bearer " TOKEN));
  g_assert_cmpint (run.exit_status, ==, 0);
  test_run_clear (&run);

  text = test_read_file (path);
  g_assert_null (strstr (text, TOKEN));
  g_assert_nonnull (strstr (text, "Bearer ***"));
  records = read_records (path);
  post = find_record (records, "http", NULL, "POST");
  g_assert_nonnull (post);
  g_assert_cmpint (json_object_get_int_member (post, "status"), >=, 200);
  g_assert_nonnull (find_record (records, "event", NULL, NULL));
  g_assert_nonnull (strstr (text, "\"session_id\":"));

  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path, "--full"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_null (strstr (run.out, TOKEN));
  g_assert_nonnull (strstr (run.out, "POST " ));
  g_assert_nonnull (strstr (run.out, "Mcp-Session-Id: "));
  g_assert_nonnull (strstr (run.out, "Authorization: Bearer ***"));
  test_run_clear (&run);

  /* What failed: the wrong token gives a 401 in the trace. */
  test_cli_run (&run, &cli, TEST_CLI_ARGS (arg, "tools", "--http", url,
                                           "--header", "Authorization: Bearer wrong-token-xyz"));
  g_assert_cmpint (run.exit_status, !=, 0);
  test_run_clear (&run);
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path, "--errors"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "→ 401"));
  g_assert_null (strstr (run.out, "wrong-token-xyz"));
  test_run_clear (&run);

  g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait (server, NULL, NULL);
  test_remove_tree (dir);
}

static void
test_bad_paths (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *unwritable = NULL;
  TestRun run = { 0 };
  TestCli cli = { 0 };

  if (!have_tools ())
    return;

  dir = g_dir_make_tmp ("plugboard-cli-trace-XXXXXX", NULL);
  test_cli_init (&cli, cli_path, NULL);

  unwritable = g_build_filename (dir, "no", "such", "dir", "trace.jsonl", NULL);
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("--trace", unwritable, "tools", "--", fixture_path));
  g_assert_cmpint (run.exit_status, ==, 2);
  test_cli_assert_failure_line (run.err, "Cannot write the trace to");
  test_run_clear (&run);

  test_cli_run (&run, &cli, TEST_CLI_ARGS ("--trace"));
  g_assert_cmpint (run.exit_status, ==, 2);
  test_run_clear (&run);

  missing = g_build_filename (dir, "missing.jsonl", NULL);
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", missing));
  g_assert_cmpint (run.exit_status, ==, 2);
  test_cli_assert_failure_line (run.err, "Cannot read");
  test_run_clear (&run);

  bad = g_build_filename (dir, "bad.jsonl", NULL);
  test_write_file (bad, "{\"seq\":1,\"kind\":\"message\"}\nnot json at all\n");
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", bad));
  g_assert_cmpint (run.exit_status, ==, 2);
  test_cli_assert_failure_line (run.err, "Line 2");
  test_run_clear (&run);

  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "list", bad));
  g_assert_cmpint (run.exit_status, ==, 2);
  test_run_clear (&run);

  test_remove_tree (dir);
}

/* MCP Apps entries (what a view's page and Plugboard said): kind "app",
 * shown with the page as one end, chosen with --kind app. */
static void
test_app_kind (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  TestRun run = { 0 };
  TestCli cli = { 0 };

  if (!have_tools ())
    return;

  dir = g_dir_make_tmp ("plugboard-cli-trace-XXXXXX", NULL);
  test_cli_init (&cli, cli_path, NULL);
  path = g_build_filename (dir, "app.jsonl", NULL);
  test_write_file (path,
                   "{\"seq\":1,\"time\":\"2026-01-01T00:00:00.000000Z\",\"kind\":\"message\",\"server\":\"s\","
                   "\"direction\":\"out\",\"type\":\"request\",\"method\":\"tools/list\",\"id\":1,\"size\":2,"
                   "\"message\":{}}\n"
                   "{\"seq\":2,\"time\":\"2026-01-01T00:00:00.000000Z\",\"kind\":\"app\",\"server\":\"s\","
                   "\"direction\":\"in\",\"type\":\"request\",\"method\":\"ui/initialize\",\"id\":0,\"size\":2,"
                   "\"message\":{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ui/initialize\"}}\n"
                   "{\"seq\":3,\"time\":\"2026-01-01T00:00:00.000000Z\",\"kind\":\"app\",\"server\":\"s\","
                   "\"method\":\"blocked\",\"size\":20,\"error\":{\"class\":\"protocol\",\"code\":0,"
                   "\"message\":\"navigation: file:///x\"},\"text\":\"navigation: file:///x\"}\n");

  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path, "--kind", "app", "--full"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_null (strstr (run.out, "tools/list"));
  g_assert_nonnull (strstr (run.out, "page → ui/initialize #0"));
  g_assert_nonnull (strstr (run.out, "page blocked: navigation: file:///x"));
  g_assert_nonnull (strstr (run.out, "\"method\" : \"ui/initialize\""));
  test_run_clear (&run);

  test_cli_run (&run, &cli, TEST_CLI_ARGS ("trace", "show", path, "--kind", "apps"));
  g_assert_cmpint (run.exit_status, ==, 2);
  test_run_clear (&run);

  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  const char *builddir;

  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (60);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = test_fixture_server ();
  builddir = g_getenv ("G_TEST_BUILDDIR");
  if (builddir != NULL)
    http_fixture_path = g_build_filename (builddir, "fixtures", "mcp-http-fixture-server", NULL);

  g_test_add_func ("/cli-trace/stdio", test_stdio);
  g_test_add_func ("/cli-trace/http-masked", test_http_masked);
  g_test_add_func ("/cli-trace/bad-paths", test_bad_paths);
  g_test_add_func ("/cli-trace/app-kind", test_app_kind);

  return g_test_run ();
}
