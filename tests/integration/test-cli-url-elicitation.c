/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-url-elicitation"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gio/gio.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* plugboard-cli --interactive and an elicitation/create in URL mode (MCP
 * 2025-11-25) from the fixture server's "ask" tool, on a pseudo-terminal:
 * the host and the full URL shown, the person's yes opens it with
 * $BROWSER (a script that writes down its argument), no declines, Ctrl-D
 * cancels, a URL the policy refuses is never opened, and without a
 * terminal nothing is declared or opened. The page is on a loopback
 * listener nobody must connect to: the CLI never fetches it. */

static const char *cli_path;
static const char *fixture_path;

typedef struct
{
  TestDirs        dirs;
  char           *browser_log;
  GSocketListener *listener;
  guint16         port;
  char           *url;
} Fixture;

static gboolean
fixture_set_up (Fixture *f)
{
  g_autofree char *command = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *script = NULL;
  g_autofree char *script_text = NULL;
  g_autofree char *option = NULL;
  g_autofree char *option_json = NULL;
  g_autoptr(GError) error = NULL;

  if (!test_cli_have_tools (cli_path, fixture_path))
    return FALSE;
  test_dirs_init_cli (&f->dirs, "cli-url-elicitation");


  f->browser_log = g_build_filename (f->dirs.root, "browser.log", NULL);
  script = g_build_filename (f->dirs.root, "browser.sh", NULL);
  script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s\\n' \"$@\" >> '%s'\n", f->browser_log);
  test_write_file (script, script_text);
  g_assert_cmpint (g_chmod (script, 0700), ==, 0);

  f->listener = g_socket_listener_new ();
  f->port = g_socket_listener_add_any_inet_port (f->listener, NULL, &error);
  g_assert_no_error (error);
  f->url = g_strdup_printf ("http://127.0.0.1:%u/confirm?elicitation=e-7&cart=a%%20b#top", f->port);

  /* "fx" asks what its "ask" tool is told to; "required" answers its
   * url-once tool's first call with -32042 naming the same page. */
  command = test_json_string (fixture_path);
  option = g_strdup_printf ("--url-elicitation-url=%s", f->url);
  option_json = test_json_string (option);
  settings = g_strdup_printf ("{\"mcpServers\": {\"fx\": {\"command\": %s},\n"
                              " \"required\": {\"command\": %s, \"args\": [%s]}}}\n",
                              command, command, option_json);
  test_write_file (f->dirs.user_file, settings);
  return TRUE;
}

static void
fixture_tear_down (Fixture *f)
{
  if (f->listener != NULL)
    g_socket_listener_close (f->listener);
  g_clear_object (&f->listener);
  g_free (f->browser_log);
  g_free (f->url);
  test_dirs_clear (&f->dirs);
}

/* Nobody connected to the page's listener. */
static void
assert_not_fetched (Fixture *f)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  /* accept() would wait; a cancelled one answers at once unless a
   * connection is already queued. */
  g_cancellable_cancel (cancellable);
  connection = g_socket_listener_accept (f->listener, NULL, cancellable, &error);
  g_assert_null (connection);
}

/* The browser script's log, once it wrote it (it is not waited for). */
static char *
wait_browser_log (Fixture *f)
{
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (f->browser_log, &text, NULL, NULL) && strchr (text, '\n') != NULL)
        return g_steal_pointer (&text);
      g_usleep (50 * 1000);
    }
  return NULL;
}

static char *
ask_args (const char *url)
{
  g_autofree char *quoted = test_json_string (url);

  return g_strdup_printf ("{\"method\": \"elicitation/create\", \"params\": {\"mode\": \"url\", "
                          "\"message\": \"Confirm the payment\", \"url\": %s, "
                          "\"elicitationId\": \"e-7\"}}", quoted);
}

static void
run_pty (Fixture           *f,
         TestRun           *run,
         const char        *url,
         const TestRunStep *steps)
{
  g_autofree char *args_json = ask_args (url);
  const char * const args[] = { "--interactive", "call", "fx", "ask", "--yes", "--args", args_json, NULL };
  const char *env[] = { "BROWSER", NULL, NULL };
  g_autofree char *script = g_build_filename (f->dirs.root, "browser.sh", NULL);
  TestCli cli;

  env[1] = script;
  test_cli_init (&cli, cli_path, &f->dirs);
  cli.env = env;
  test_cli_run_pty (run, &cli, args, steps);
  if (!run->prompted)
    g_error ("not every prompt showed; the terminal showed:\n%s", run->out);
}

static void
test_accept (void)
{
  Fixture f = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *prompt = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *opened = NULL;
  g_autofree char *expected = NULL;

  if (!fixture_set_up (&f))
    return;

  prompt = g_strdup ("Open 127.0.0.1 in the browser? [y/N] ");
  {
    const TestRunStep steps[] = { { prompt, "y\n" }, { NULL, NULL } };

    run_pty (&f, &run, f.url, steps);
  }
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "fx asks you to open a web page (elicitation/create):\r\n"
                                     "  Confirm the payment\r\n"));
  shown = g_strdup_printf ("  Host: 127.0.0.1\r\n  URL:  %s\r\n", f.url);
  g_assert_nonnull (strstr (run.out, shown));
  g_assert_nonnull (strstr (run.out, "Opened in the browser"));
  /* The server heard "accept", then said the step is done. */
  g_assert_nonnull (strstr (run.out, "\"action\":\"accept\""));
  g_assert_nonnull (strstr (run.out, "The server says the step in the browser is done (elicitation e-7)"));

  opened = wait_browser_log (&f);
  expected = g_strdup_printf ("%s\n", f.url);
  g_assert_cmpstr (opened, ==, expected);
  assert_not_fetched (&f);
  fixture_tear_down (&f);
}

static void
test_decline_and_cancel (void)
{
  Fixture f = { 0 };

  if (!fixture_set_up (&f))
    return;

  {
    g_auto(TestRun) run = { 0 };
    const TestRunStep steps[] = { { "Open 127.0.0.1 in the browser? [y/N] ", "n\n" }, { NULL, NULL } };

    run_pty (&f, &run, f.url, steps);
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "Declined; the page was not opened."));
    g_assert_nonnull (strstr (run.out, "\"action\":\"decline\""));
    g_assert_null (strstr (run.out, "step in the browser is done"));
  }
  {
    g_auto(TestRun) run = { 0 };
    const TestRunStep steps[] = { { "Open 127.0.0.1 in the browser? [y/N] ", "\x04" }, { NULL, NULL } };

    run_pty (&f, &run, f.url, steps);
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\"action\":\"cancel\""));
  }

  g_assert_false (g_file_test (f.browser_log, G_FILE_TEST_EXISTS));
  assert_not_fetched (&f);
  fixture_tear_down (&f);
}

/* The URL policy refuses javascript: (and http to another host): never
 * opened, never asked about, the reason said; the server hears -32602. */
static void
test_refused_url (void)
{
  static const char * const urls[] = { "javascript:alert(document.cookie)", "http://pay.example.com/confirm" };
  Fixture f = { 0 };

  if (!fixture_set_up (&f))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_auto(TestRun) run = { 0 };
      const TestRunStep steps[] = { { "A page the server asked to open was refused: ", "" }, { NULL, NULL } };

      run_pty (&f, &run, urls[i], steps);
      g_assert_cmpint (run.exit_status, ==, 0);
      g_assert_null (strstr (run.out, "in the browser? [y/N]"));
      g_assert_null (strstr (run.out, "\"action\""));
      /* the spec's answer to a request that is not valid: -32602 */
      g_assert_nonnull (strstr (run.out, "\"code\":-32602"));
    }

  g_assert_false (g_file_test (f.browser_log, G_FILE_TEST_EXISTS));
  fixture_tear_down (&f);
}

/* No terminal: URL mode is not declared (nor elicitation at all), the
 * request is refused with an error, and nothing is opened. */
static void
test_no_terminal (void)
{
  Fixture f = { 0 };
  g_autofree char *args_json = NULL;
  g_autofree char *script = NULL;

  if (!fixture_set_up (&f))
    return;
  args_json = ask_args (f.url);
  script = g_build_filename (f.dirs.root, "browser.sh", NULL);

  for (guint i = 0; i < 2; i++)
    {
      g_auto(TestRun) run = { 0 };
      const char * const interactive[] = { "--interactive", "call", "fx", "ask", "--yes", "--args", args_json, NULL };
      const char * const plain[] = { "call", "fx", "ask", "--yes", "--args", args_json, NULL };
      const char *env[] = { "BROWSER", script, NULL };
      TestCli cli;

      test_cli_init (&cli, cli_path, &f.dirs);
      cli.env = env;
      test_cli_run (&run, &cli, i == 0 ? interactive : plain);
      g_assert_cmpint (run.exit_status, ==, 0);
      g_assert_nonnull (strstr (run.out, "\"error\""));
      g_assert_null (strstr (run.out, "\"action\""));
      g_assert_null (strstr (run.out, "asks you to open"));
    }

  g_usleep (200 * 1000);
  g_assert_false (g_file_test (f.browser_log, G_FILE_TEST_EXISTS));
  assert_not_fetched (&f);
  fixture_tear_down (&f);
}

/* A tool call answered -32042 (URL elicitation required): the page is
 * opened only after a yes, and the call is tried again once the person is
 * done there; no: nothing opened; no terminal: how to go on. */
static void
test_required (void)
{
  Fixture f = { 0 };
  g_autofree char *script = NULL;
  const char * const args[] = { "--interactive", "call", "required", "url-once", "--yes", NULL };

  if (!fixture_set_up (&f))
    return;
  script = g_build_filename (f.dirs.root, "browser.sh", NULL);

  {
    g_auto(TestRun) run = { 0 };
    const TestRunStep steps[] = {
      { "Open 127.0.0.1 in the browser? [y/N] ", "n\n" },
      { NULL, NULL }
    };
    const char *env[] = { "BROWSER", script, NULL };
    TestCli cli;

    test_cli_init (&cli, cli_path, &f.dirs);
    cli.env = env;
    test_cli_run_pty (&run, &cli, args, steps);
    g_assert_true (run.prompted);
    g_assert_cmpint (run.exit_status, !=, 0);
    g_assert_null (strstr (run.out, "consented"));
  }
  g_assert_false (g_file_test (f.browser_log, G_FILE_TEST_EXISTS));

  {
    g_auto(TestRun) run = { 0 };
    const TestRunStep steps[] = {
      { "Open 127.0.0.1 in the browser? [y/N] ", "y\n" },
      { "Done there? [y/N] ", "y\n" },
      { NULL, NULL }
    };
    const char *env[] = { "BROWSER", script, NULL };
    g_autofree char *opened = NULL;
    g_autofree char *expected = NULL;
    TestCli cli;

    test_cli_init (&cli, cli_path, &f.dirs);
    cli.env = env;
    test_cli_run_pty (&run, &cli, args, steps);
    if (!run.prompted)
      g_error ("not every prompt showed; the terminal showed:\n%s", run.out);
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, f.url));
    g_assert_nonnull (strstr (run.out, "consented"));
    opened = wait_browser_log (&f);
    expected = g_strdup_printf ("%s\n", f.url);
    g_assert_cmpstr (opened, ==, expected);
  }

  {
    g_auto(TestRun) run = { 0 };
    const char * const plain[] = { "call", "required", "url-once", "--yes", NULL };
    TestCli cli;

    test_cli_init (&cli, cli_path, &f.dirs);
    test_cli_run (&run, &cli, plain);
    g_assert_cmpint (run.exit_status, !=, 0);
    g_assert_nonnull (strstr (run.err, f.url));
    g_assert_nonnull (strstr (run.err, "run the command again"));
  }

  assert_not_fetched (&f);
  fixture_tear_down (&f);
}

/* The TypeScript SDK's elicitationUrlExample: an OAuth-protected server
 * (its demo authorization server approves at once) whose payment-confirm
 * tool answers -32042 with a page on the server itself. Signed in with
 * login (mcp-oauth-fixture-server --browse as the browser), then on a
 * pseudo-terminal: the page's host and URL are shown before anything is
 * opened, and "no" opens nothing. */
static void
test_sdk_example (void)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = NULL;
  g_autofree char *module_uri = NULL;
  g_autofree char *mcp_port = NULL;
  g_autofree char *auth_port = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *login_browser = NULL;
  g_autofree char *record_browser = NULL;
  g_autofree char *page = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GError) error = NULL;
  const char *oauth_fixture = g_getenv ("MCP_TEST_OAUTH_FIXTURE_SERVER");
  guint16 mcp, auth;
  Fixture f = { 0 };

  if (!fixture_set_up (&f))
    return;
  script = test_find_node_module ("@modelcontextprotocol/sdk/dist/esm/examples/server/elicitationUrlExample.js");
  if (node == NULL || script == NULL || !test_have_program (oauth_fixture, "MCP_TEST_OAUTH_FIXTURE_SERVER"))
    {
      if (node == NULL || script == NULL)
        g_test_skip ("node or the TypeScript SDK's examples are missing");
      fixture_tear_down (&f);
      return;
    }

  mcp = test_pick_port ();
  do
    auth = test_pick_port ();
  while (auth == mcp);
  mcp_port = g_strdup_printf ("%u", mcp);
  auth_port = g_strdup_printf ("%u", auth);
  module_uri = test_write_loopback_module (f.dirs.root);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "MCP_PORT", mcp_port, TRUE);
  g_subprocess_launcher_setenv (launcher, "MCP_AUTH_PORT", auth_port, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, node, "--import", module_uri, script, NULL);
  g_assert_no_error (error);
  test_wait_listening (auth, 30, "the SDK's elicitationUrlExample authorization server");
  test_wait_listening (mcp, 30, "the SDK's elicitationUrlExample");

  /* The URLs it announces say "localhost": the resource must match. */
  settings = g_strdup_printf ("{\"mcpServers\": {\"shop\": {\"type\": \"http\", "
                              "\"url\": \"http://localhost:%u/mcp\"}}}\n", mcp);
  test_write_file (f.dirs.user_file, settings);

  {
    g_auto(TestRun) run = { 0 };
    const char * const args[] = { "login", "shop", NULL };
    /* No Secret Service: the tokens go to the file in the test's XDG
     * folders, where the call below finds them. */
    const char *env[] = { "BROWSER", NULL, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", NULL };
    TestCli cli;

    login_browser = g_strdup_printf ("'%s' --browse", oauth_fixture);
    env[1] = login_browser;
    test_cli_init (&cli, cli_path, &f.dirs);
    cli.env = env;
    test_cli_run (&run, &cli, args);
    if (run.exit_status != 0)
      g_error ("login failed (%d):\n%s\n%s", run.exit_status, run.out, run.err);
  }

  {
    g_auto(TestRun) run = { 0 };
    const char * const args[] = { "--interactive", "call", "shop", "payment-confirm", "--yes",
                                  "--args", "{\"cartId\": \"cart-42\"}", NULL };
    const TestRunStep steps[] = {
      { "Open localhost in the browser? [y/N] ", "n\n" },
      { NULL, NULL }
    };
    const char *env[] = { "BROWSER", NULL, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", NULL };
    TestCli cli;

    record_browser = g_build_filename (f.dirs.root, "browser.sh", NULL);
    env[1] = record_browser;
    test_cli_init (&cli, cli_path, &f.dirs);
    cli.env = env;
    test_cli_run_pty (&run, &cli, args, steps);
    if (!run.prompted)
      g_error ("not every prompt showed; the terminal showed:\n%s", run.out);
    g_assert_cmpint (run.exit_status, !=, 0);
    /* The full URL of the page, on the server's own host, was shown. */
    page = g_strdup_printf ("http://localhost:%u/confirm-payment?session=", mcp);
    g_assert_nonnull (strstr (run.out, page));
    g_assert_nonnull (strstr (run.out, "cartId=cart-42"));
  }
  g_assert_false (g_file_test (f.browser_log, G_FILE_TEST_EXISTS));

  g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait (server, NULL, NULL);
  fixture_tear_down (&f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-url-elicitation/accept", test_accept);
  g_test_add_func ("/cli-url-elicitation/sdk-example", test_sdk_example);
  g_test_add_func ("/cli-url-elicitation/decline-and-cancel", test_decline_and_cancel);
  g_test_add_func ("/cli-url-elicitation/refused-url", test_refused_url);
  g_test_add_func ("/cli-url-elicitation/no-terminal", test_no_terminal);
  g_test_add_func ("/cli-url-elicitation/required", test_required);

  return g_test_run ();
}
