/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-faults"

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "test-dirs.h"
#include "test-cli-run.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 23, points 1 and 2, through the built plugboard-cli and
 * mcp-framing-fixture-server as an ad-hoc server: the text after an
 * escaped nul in a tool's title, description and result is printed (the
 * nul as "␀", which is no control character); a server whose newlines come
 * late still lists its tools within a short MCP_TIMEOUT; an answer that
 * does not parse but has an id fails the call at once. */

#define NUL_SYMBOL "\xe2\x90\x80"  /* U+2400 SYMBOL FOR NULL */
/* Well below the default timeouts: a call left waiting fails the test. */
#define HANG_BOUND_S 20

static const char *cli_path;
static char *fixture_path;

static void
run_cli (TestRun            *run,
         const char *const  *env,
         const char *const  *args)
{
  g_auto(TestDirs) dirs = { 0 };
  TestCli cli;

  test_dirs_init_cli (&dirs, "cli-faults");
  test_cli_init (&cli, cli_path, &dirs);
  cli.config_dir = cli.project_dir = NULL;
  cli.cwd = dirs.project_dir;
  cli.env = env;
  cli.text = TRUE;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

static gboolean
have_cli (void)
{
  if (cli_path == NULL)
    {
      g_test_skip ("MCP_TEST_PLUGBOARD_CLI is not set");
      return FALSE;
    }
  return TRUE;
}

static void
test_escaped_nul (void)
{
  g_auto(TestRun) tools = { 0 };
  g_auto(TestRun) call = { 0 };

  if (!have_cli ())
    return;

  run_cli (&tools, NULL, TEST_CLI_ARGS ("tools", "--", fixture_path));
  g_assert_cmpint (tools.exit_status, ==, 0);
  g_assert_nonnull (strstr (tools.out, "(Echo" NUL_SYMBOL "tail-title)\n"));
  g_assert_nonnull (strstr (tools.out, "  Says" NUL_SYMBOL "tail-description\n"));

  run_cli (&call, NULL, TEST_CLI_ARGS ("call", "echo", "--args", "{\"text\":\"the tail\"}",
                                       "--", fixture_path));
  g_assert_cmpint (call.exit_status, ==, 0);
  g_assert_nonnull (strstr (call.out, "before" NUL_SYMBOL "the tail"));
}

static void
test_late_newline (void)
{
  /* the fixture sends each newline 2 s late: the handshake must not
   * wait for it */
  static const char * const env[] = { "MCP_TIMEOUT", "1500", "MCP_TOOL_TIMEOUT", "1500", NULL };
  g_auto(TestRun) tools = { 0 };
  g_auto(TestRun) call = { 0 };

  if (!have_cli ())
    return;

  run_cli (&tools, env, TEST_CLI_ARGS ("tools", "--", fixture_path, "--late-newline"));
  g_assert_cmpint (tools.exit_status, ==, 0);
  g_assert_nonnull (strstr (tools.out, "late"));

  run_cli (&call, env, TEST_CLI_ARGS ("call", "late", "--", fixture_path, "--late-newline"));
  g_assert_cmpint (call.exit_status, ==, 0);
  g_assert_nonnull (strstr (call.out, "late answer"));
}

static void
test_broken_answer (void)
{
  g_auto(TestRun) call = { 0 };
  gint64 started;

  if (!have_cli ())
    return;

  started = g_get_monotonic_time ();
  run_cli (&call, NULL, TEST_CLI_ARGS ("call", "broken", "--", fixture_path));
  g_assert_cmpint (call.exit_status, !=, 0);
  test_cli_assert_failure_line (call.err, NULL);
  g_assert_cmpint (g_get_monotonic_time () - started, <, 15 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_test_build_filename (G_TEST_BUILT, "fixtures", "mcp-framing-fixture-server", NULL);

  g_test_add_func ("/cli/faults/escaped-nul", test_escaped_nul);
  g_test_add_func ("/cli/faults/late-newline", test_late_newline);
  g_test_add_func ("/cli/faults/broken-answer", test_broken_answer);

  status = g_test_run ();
  g_free (fixture_path);
  return status;
}
