/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-doctor"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "mcp-json-private.h"
#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-util.h"

/* plugboard-cli doctor (issue 24): each check printed with its marker,
 * what was seen and the fix; --json; the exit status; secrets never shown. */

#define HANG_BOUND_S 90
#define SECRET "doctor-secret-0815"

static const char *cli_path;
static const char *fixture_path;

static void
run_cli (TestRun            *run,
         TestDirs           *dirs,
         const char * const *args)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  cli.bound_s = HANG_BOUND_S;
  cli.text = TRUE;
  test_cli_run (run, &cli, args);
}

static void
write_settings (TestDirs   *dirs,
                const char *name,
                const char *entry)
{
  g_autofree char *settings = g_strdup_printf ("{\"mcpServers\": {\"%s\": %s}}\n", name, entry);

  test_write_file (dirs->user_file, settings);
}

static void
test_failing_server (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *script = NULL;
  g_autoptr(GString) entry = g_string_new ("{\"command\": ");

  if (!test_cli_have_tools (cli_path, fixture_path))
    return;

  test_dirs_init_cli (&dirs, "cli-doctor");
  script = g_build_filename (dirs.root, "server.sh", NULL);
  test_write_file (script, "#!/bin/sh\necho \"token is $API_TOKEN\" >&2\necho 'cannot reach backend' >&2\nexit 7\n");
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  mcp_json_append_string (entry, script);
  g_string_append (entry, ", \"env\": {\"API_TOKEN\": \"" SECRET "\"}}");
  write_settings (&dirs, "broken", entry->str);

  run_cli (&run, &dirs, TEST_CLI_ARGS ("doctor", "broken"));
  g_assert_cmpint (run.exit_status, ==, 1);
  g_assert_nonnull (strstr (run.out, "✓ Command found\n"));
  g_assert_nonnull (strstr (run.out, "✓ Executable\n"));
  g_assert_nonnull (strstr (run.out, "✗ Starts and keeps running\n"
                                     "    It exited at once with status 7. It wrote to stderr:\n"));
  g_assert_nonnull (strstr (run.out, "cannot reach backend"));
  g_assert_nonnull (strstr (run.out, "    fix: Run the same command in a terminal"));
  g_assert_nonnull (strstr (run.out, "- Answers initialize\n"
                                     "    Not checked: “Starts and keeps running” did not pass\n"));
  g_assert_nonnull (strstr (run.out, "token is ***"));
  g_assert_null (strstr (run.out, SECRET));
  g_assert_null (strstr (run.err, SECRET));
  test_run_clear (&run);

  /* --json: the same checks, the same exit status. */
  run_cli (&run, &dirs, TEST_CLI_ARGS ("doctor", "--json", "broken"));
  g_assert_cmpint (run.exit_status, ==, 1);
  {
    g_autoptr(JsonNode) root = test_cli_parse_json (run.out);
    JsonObject *object = json_node_get_object (root);
    JsonArray *checks = json_object_get_array_member (object, "checks");
    JsonObject *starts = json_array_get_object_element (checks, 3);

    g_assert_cmpstr (json_object_get_string_member (object, "server"), ==, "broken");
    g_assert_false (json_object_get_boolean_member (object, "ok"));
    g_assert_cmpuint (json_array_get_length (checks), ==, 7);
    g_assert_cmpstr (json_object_get_string_member (starts, "id"), ==, "starts");
    g_assert_cmpstr (json_object_get_string_member (starts, "status"), ==, "fail");
    g_assert_nonnull (strstr (json_object_get_string_member (starts, "fix"), "terminal"));
    g_assert_null (strstr (run.out, SECRET));
  }
}

static void
test_good_server (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autoptr(GString) entry = g_string_new ("{\"command\": ");

  if (!test_cli_have_tools (cli_path, fixture_path))
    return;

  test_dirs_init_cli (&dirs, "cli-doctor");
  mcp_json_append_string (entry, fixture_path);
  g_string_append (entry, ", \"env\": {\"API_TOKEN\": \"" SECRET "\"}}");
  write_settings (&dirs, "good", entry->str);

  run_cli (&run, &dirs, TEST_CLI_ARGS ("doctor", "good"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "✓ Answers initialize\n"));
  g_assert_nonnull (strstr (run.out, "✓ Protocol version\n    Protocol version 2025-11-25"));
  g_assert_null (strstr (run.out, "✗"));
  g_assert_null (strstr (run.out, "fix:"));
  g_assert_null (strstr (run.out, SECRET));
}

static void
test_remote_header_secret (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *entry = NULL;
  guint16 port = test_pick_port ();

  if (!test_cli_have_tools (cli_path, fixture_path))
    return;

  /* Nothing listens: refused, and neither the header's value nor the
   * URL's query value shows. */
  test_dirs_init_cli (&dirs, "cli-doctor");
  entry = g_strdup_printf ("{\"type\": \"http\", \"url\": \"http://127.0.0.1:%u/mcp?key=" SECRET "\", "
                           "\"headers\": {\"Authorization\": \"Bearer " SECRET "\"}}", port);
  write_settings (&dirs, "remote", entry);

  run_cli (&run, &dirs, TEST_CLI_ARGS ("doctor", "remote"));
  g_assert_cmpint (run.exit_status, ==, 1);
  g_assert_nonnull (strstr (run.out, "✗ TCP connects\n    Connection refused at 127.0.0.1:"));
  g_assert_nonnull (strstr (run.out, "key=***"));
  g_assert_null (strstr (run.out, SECRET));
  g_assert_null (strstr (run.err, SECRET));
}

static void
test_unknown_server (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };

  if (!test_cli_have_tools (cli_path, fixture_path))
    return;

  test_dirs_init_cli (&dirs, "cli-doctor");
  write_settings (&dirs, "one", "{\"command\": \"true\"}");
  run_cli (&run, &dirs, TEST_CLI_ARGS ("doctor", "two"));
  g_assert_cmpint (run.exit_status, !=, 0);
  g_assert_cmpint (run.exit_status, !=, 1);
  test_cli_assert_failure_line (run.err, "two");
  test_run_clear (&run);

  run_cli (&run, &dirs, TEST_CLI_ARGS ("doctor"));
  g_assert_cmpint (run.exit_status, ==, 2);
}

static void
test_ad_hoc (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  TestCli cli;

  if (!test_cli_have_tools (cli_path, fixture_path))
    return;

  /* No settings: the server is on the command line. */
  test_dirs_init_cli (&dirs, "cli-doctor");
  test_cli_init (&cli, cli_path, NULL);
  cli.cwd = dirs.root;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (&run, &cli, TEST_CLI_ARGS ("doctor", "--", fixture_path, "--protocol-version", "1999-01-01"));
  g_assert_cmpint (run.exit_status, ==, 1);
  g_assert_nonnull (strstr (run.out, "✗ Protocol version\n"));
  g_assert_nonnull (strstr (run.out, "“1999-01-01”"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-doctor/failing", test_failing_server);
  g_test_add_func ("/cli-doctor/good", test_good_server);
  g_test_add_func ("/cli-doctor/remote-secrets", test_remote_header_secret);
  g_test_add_func ("/cli-doctor/unknown-server", test_unknown_server);
  g_test_add_func ("/cli-doctor/ad-hoc", test_ad_hoc);

  return g_test_run ();
}
