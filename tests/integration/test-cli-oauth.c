/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-oauth"
#define _GNU_SOURCE /* memmem */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <gio/gio.h>

#include "mcp-token-store.h"
#include "../auth/oauth-test-server.h"
#include "test-cli-run.h"
#include "test-run.h"
#include "test-util.h"

/* plugboard-cli login / tools / logout against mcp-oauth-fixture-server
 * (issue 5), with BROWSER="mcp-oauth-fixture-server --browse". Run under
 * tests/auth/run-with-keyring.sh, the tokens go to a real Secret Service;
 * with the session bus pointed nowhere, to the 0600 file. */

#define HANG_BOUND_S 90
#define SERVER_NAME  "prot"

static const char *cli_path;
static const char *fixture_path;

typedef struct
{
  char        *root;
  char        *home;
  char        *config_dir;
  char        *project_dir;
  char        *xdg_config;
  char        *xdg_cache;
  char        *xdg_data;
  GSubprocess *fixture;
  char        *url;
  gboolean     no_secret_service;
  const char  *browser;   /* NULL: the fixture's --browse */
  const char  *option;    /* one more argument after ARG, or NULL */
  const char  *trace;     /* "--trace=FILE", or NULL */
} Env;

static gboolean
have_tools (void)
{
  return test_have_program (cli_path, "MCP_TEST_PLUGBOARD_CLI") &&
         test_have_program (fixture_path, "MCP_TEST_OAUTH_FIXTURE_SERVER");
}

static void
env_init (Env      *env,
          gboolean  no_secret_service)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *settings_path = NULL;
  const char *dirs[] = { "home", "config", "project", "xdg-config", "xdg-cache", "xdg-data" };
  char **fields[] = { &env->home, &env->config_dir, &env->project_dir,
                      &env->xdg_config, &env->xdg_cache, &env->xdg_data };

  env->no_secret_service = no_secret_service;
  env->root = g_dir_make_tmp ("test-cli-oauth-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      *fields[i] = g_build_filename (env->root, dirs[i], NULL);
      g_assert_cmpint (g_mkdir_with_parents (*fields[i], 0700), ==, 0);
    }

  /* The fixture serves until its stdin closes. */
  env->fixture = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                                   &error, fixture_path, NULL);
  g_assert_no_error (error);
  env->url = test_read_listening (env->fixture);

  settings = g_strdup_printf ("{\"mcpServers\": {\"" SERVER_NAME "\": "
                              "{\"type\": \"http\", \"url\": \"%s\"}}}\n", env->url);
  settings_path = g_build_filename (env->config_dir, "settings.json", NULL);
  g_assert_true (g_file_set_contents (settings_path, settings, -1, &error));
  g_assert_no_error (error);
}

static void
env_clear (Env *env)
{
  if (env->fixture != NULL)
    {
      g_subprocess_send_signal (env->fixture, SIGTERM);
      g_subprocess_wait (env->fixture, NULL, NULL);
    }
  if (env->root != NULL)
    test_remove_tree (env->root);
  g_clear_object (&env->fixture);
  g_clear_pointer (&env->root, g_free);
  g_clear_pointer (&env->home, g_free);
  g_clear_pointer (&env->config_dir, g_free);
  g_clear_pointer (&env->project_dir, g_free);
  g_clear_pointer (&env->xdg_config, g_free);
  g_clear_pointer (&env->xdg_cache, g_free);
  g_clear_pointer (&env->xdg_data, g_free);
  g_clear_pointer (&env->url, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Env, env_clear)

/* plugboard-cli VERB --config-dir … --project … [ARG], in the temporary
 * home, with the fixture as the browser (or env->browser), no display. */
static GSubprocess *
spawn_cli (Env        *env,
           const char *verb,
           const char *arg)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *browser = g_strdup_printf ("'%s' --browse", fixture_path);
  const char * const cli_env[] = {
    "DISPLAY", NULL,
    "WAYLAND_DISPLAY", NULL,
    "HOME", env->home,
    "BROWSER", env->browser ? env->browser : browser,
    /* last: without it (NULL), the list ends before it */
    env->no_secret_service ? "DBUS_SESSION_BUS_ADDRESS" : NULL, "unix:path=/nonexistent",
    NULL
  };
  TestCli cli = {
    .path = cli_path,
    .config_dir = env->config_dir,
    .project_dir = env->project_dir,
    .xdg_root = env->root,
    .env = cli_env,
  };
  GSubprocess *process;

  if (env->trace != NULL)
    argv = test_cli_argv (&cli, TEST_CLI_ARGS (env->trace, verb, arg, env->option));
  else
    argv = test_cli_argv (&cli, TEST_CLI_ARGS (verb, arg, env->option));
  launcher = test_cli_launcher (&cli, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                      G_SUBPROCESS_FLAGS_STDERR_PIPE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return process;
}

static void
communicate (TestRun     *run,
             GSubprocess *process,
             const char  *verb,
             const char  *arg)
{
  test_run_wait (run, process, NULL, verb, HANG_BOUND_S);
  /* (read as UTF-8 text) */
  g_assert_true (g_utf8_validate (run->out, -1, NULL));
  g_assert_true (g_utf8_validate (run->err, -1, NULL));

  g_test_message ("plugboard-cli %s %s: exit %d\nstdout:\n%s\nstderr:\n%s",
                  verb, arg ? arg : "", run->exit_status, run->out, run->err);
}

/* plugboard-cli VERB [ARG] --config-dir … --project …, in the temporary
 * home, with the fixture as the browser. */
static void
run_cli (TestRun    *run,
         Env        *env,
         const char *verb,
         const char *arg)
{
  g_autoptr(GSubprocess) process = spawn_cli (env, verb, arg);

  communicate (run, process, verb, arg);
}

static void
assert_needs_sign_in (Env *env)
{
  g_auto(TestRun) run = { 0 };

  run_cli (&run, env, "tools", SERVER_NAME);
  g_assert_cmpint (run.exit_status, ==, 3);
  g_assert_nonnull (strstr (run.err, "plugboard-cli: “" SERVER_NAME "” needs sign-in"));
  g_assert_nonnull (strstr (run.err, "plugboard-cli login " SERVER_NAME));
}

static void
assert_tools_work (Env *env)
{
  g_auto(TestRun) run = { 0 };

  run_cli (&run, env, "tools", SERVER_NAME);
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "mcp__" SERVER_NAME "__whoami"));
  g_assert_nonnull (strstr (run.out, "mcp__" SERVER_NAME "__admin"));
}

static void
login (Env *env,
       TestRun *run)
{
  run_cli (run, env, "login", SERVER_NAME);
  g_assert_cmpint (run->exit_status, ==, 0);
  /* The host is shown before the browser opens (issue 20). */
  g_assert_nonnull (strstr (run->out, "To sign in to “" SERVER_NAME "” at 127.0.0.1, open:\n  "));
  g_assert_nonnull (strstr (run->out, "/as/authorize?"));
  g_assert_nonnull (strstr (run->out, "code_challenge_method=S256"));
  g_assert_nonnull (strstr (run->out, "Signed in to “" SERVER_NAME "”.\n"));
  g_assert_nonnull (strstr (run->err, "Waiting for the browser… (Ctrl-C to cancel)"));
}

/* The tokens the Secret Service holds for the server, or NULL. */
static McpOAuthTokens *
stored_tokens (Env        *env,
               const char *backend,
               const char *path)
{
  g_autoptr(McpTokenStore) store = mcp_token_store_new (backend, path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthTokens *tokens;

  mcp_token_store_lookup_tokens_async (store, SERVER_NAME, env->url, NULL, test_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  tokens = mcp_token_store_lookup_tokens_finish (store, result, &error);
  g_assert_no_error (error);
  return tokens;
}

static McpOAuthTokens *
keyring_tokens (Env *env)
{
  return stored_tokens (env, "secret-service", NULL);
}

static void
assert_not_in_files (const char *path,
                     const char *secret)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (g_file_get_contents (path, &contents, &length, NULL) &&
          memmem (contents, length, secret, strlen (secret)) != NULL)
        g_error ("%s holds a token", path);
      return;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (!g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        assert_not_in_files (child, secret);
    }
}

static void
assert_no_secret (const TestRun        *run,
                  const McpOAuthTokens *tokens)
{
  const char *secrets[] = { tokens->access_token, tokens->refresh_token };

  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    {
      if (secrets[i] == NULL || *secrets[i] == '\0')
        continue;
      g_assert_null (strstr (run->out, secrets[i]));
      g_assert_null (strstr (run->err, secrets[i]));
    }
}

/* The acceptance: needs-auth, login, tools with the stored token, a
 * silent refresh, logout — with the tokens in the Secret Service. */
static void
test_keyring (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) list = { 0 };
  g_auto(TestRun) signed_in = { 0 };
  g_auto(TestRun) signed_out = { 0 };
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpOAuthTokens) refreshed = NULL;
  g_autoptr(McpOAuthTokens) gone = NULL;
  g_autofree char *fallback = NULL;

  if (!have_tools ())
    return;
  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL)
    {
      g_test_skip ("not under tests/auth/run-with-keyring.sh: no Secret Service of our own");
      return;
    }
  env_init (&env, FALSE);

  assert_needs_sign_in (&env);

  run_cli (&list, &env, "list", NULL);
  g_assert_cmpint (list.exit_status, ==, 0);
  g_assert_true (g_regex_match_simple ("^" SERVER_NAME " +user +http +needs-auth: Sign-in is needed",
                                       list.out, G_REGEX_MULTILINE, 0));

  login (&env, &signed_in);
  tokens = keyring_tokens (&env);
  g_assert_nonnull (tokens);
  g_assert_nonnull (tokens->access_token);
  assert_no_secret (&signed_in, tokens);
  /* The keyring has them; no file of ours does. */
  g_assert_null (strstr (signed_in.err, "warning"));
  fallback = g_build_filename (env.xdg_data, "plugboard", "oauth-credentials.json", NULL);
  g_assert_false (g_file_test (fallback, G_FILE_TEST_EXISTS));
  assert_not_in_files (env.root, tokens->access_token);

  assert_tools_work (&env);

  /* SIGUSR1: every access token issued so far is expired; the next run
   * refreshes without asking anyone. */
  g_subprocess_send_signal (env.fixture, SIGUSR1);
  g_usleep (300 * 1000);
  assert_tools_work (&env);
  refreshed = keyring_tokens (&env);
  g_assert_nonnull (refreshed);
  g_assert_cmpstr (refreshed->access_token, !=, tokens->access_token);
  assert_not_in_files (env.root, refreshed->access_token);

  run_cli (&signed_out, &env, "logout", SERVER_NAME);
  g_assert_cmpint (signed_out.exit_status, ==, 0);
  g_assert_nonnull (strstr (signed_out.out, "Signed out of “" SERVER_NAME "”.\n"));
  gone = keyring_tokens (&env);
  g_assert_null (gone);

  assert_needs_sign_in (&env);
}

/* No Secret Service: the 0600 file, and a warning line that names it. */
static void
test_file_fallback (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) signed_in = { 0 };
  g_autofree char *fallback = NULL;
  g_autofree char *warning = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  GStatBuf st;

  if (!have_tools ())
    return;
  env_init (&env, TRUE);

  assert_needs_sign_in (&env);
  login (&env, &signed_in);

  fallback = g_build_filename (env.xdg_data, "plugboard", "oauth-credentials.json", NULL);
  g_assert_cmpint (g_stat (fallback, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  warning = g_strdup_printf ("plugboard-cli: warning: no Secret Service (keyring) answered; "
                             "sign-in tokens are kept in %s", fallback);
  g_assert_nonnull (strstr (signed_in.err, warning));
  tokens = stored_tokens (&env, "file", fallback);
  g_assert_nonnull (tokens);
  assert_no_secret (&signed_in, tokens);

  assert_tools_work (&env);
}

/* login --steps (issue 24): each step of the sign-in printed as it
 * happens, in order, with its exchange; no token among them. */
static void
test_login_steps (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) signed_in = { 0 };
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autofree char *fallback = NULL;
  const char *steps[] = {
    "· Challenge: The server answered HTTP 401 with a WWW-Authenticate challenge of scheme Bearer: ",
    "\n✓ Protected resource metadata: Found at “",
    "/.well-known/oauth-protected-resource/mcp → 200 application/json",
    "\n✓ Authorization server metadata: Found at “",
    "\n· Scopes: Requesting “read”, from the “scope” of the server's WWW-Authenticate challenge",
    "\n✓ Client identity: Registered at “",
    "\n    POST http://127.0.0.1:",
    "\n· Authorization URL: Opening the authorization URL in the browser",
    "/as/authorize?",
    "\n✓ Callback: The browser came back to “http://127.0.0.1:",
    "\n✓ Token exchange: “",
    "\n✓ Result: Signed in to “" SERVER_NAME "”; the tokens are stored",
    "Signed in to “" SERVER_NAME "”.\n",
  };
  const char *at;

  g_autofree char *trace_path = NULL;
  g_autofree char *trace_arg = NULL;
  g_auto(TestRun) shown = { 0 };
  TestCli cli = { 0 };

  if (!have_tools ())
    return;
  env_init (&env, TRUE);
  env.option = "--steps";
  trace_path = g_build_filename (env.root, "sign-in.jsonl", NULL);
  trace_arg = g_strdup_printf ("--trace=%s", trace_path);
  env.trace = trace_arg;
  login (&env, &signed_in);

  at = signed_in.out;
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      const char *found = strstr (at, steps[i]);

      if (found == NULL)
        g_error ("“%s” not found after “%.80s”", steps[i], at);
      at = found + strlen (steps[i]);
    }

  fallback = g_build_filename (env.xdg_data, "plugboard", "oauth-credentials.json", NULL);
  tokens = stored_tokens (&env, "file", fallback);
  g_assert_nonnull (tokens);
  assert_no_secret (&signed_in, tokens);

  /* The same steps, replayed from the --trace file, each with its
   * exchange's request and response; no token in the file or in them. */
  assert_not_in_files (trace_path, tokens->access_token);
  if (tokens->refresh_token != NULL && *tokens->refresh_token != '\0')
    assert_not_in_files (trace_path, tokens->refresh_token);
  test_cli_init (&cli, cli_path, NULL);
  test_cli_run (&shown, &cli, TEST_CLI_ARGS ("trace", "show", trace_path, "--auth", "--full"));
  g_assert_cmpint (shown.exit_status, ==, 0);
  at = shown.out;
  for (guint i = 0; i < G_N_ELEMENTS (steps) - 1; i++)
    {
      const char *found = strstr (at, steps[i] + (steps[i][0] == '\n'));

      if (found == NULL)
        g_error ("“%s” not found in trace show after “%.80s”", steps[i], at);
      at = found + strlen (steps[i]) - (steps[i][0] == '\n');
    }
  g_assert_nonnull (strstr (shown.out, "code_verifier=***"));
  g_assert_null (strstr (shown.out, "stderr: "));
  assert_no_secret (&shown, tokens);
}

/* A browser that never comes back: Ctrl-C ends the wait, exit 130, and
 * nothing is stored. */
static void
test_login_cancelled (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autofree char *fallback = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;

  if (!have_tools ())
    return;
  env_init (&env, TRUE);
  env.browser = "true";

  process = spawn_cli (&env, "login", SERVER_NAME);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  /* The URL is printed once the listener waits for it. */
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_nonnull (line);
      g_string_append_printf (seen, "%s\n", line);
      if (strstr (line, "/as/authorize?") != NULL)
        break;
    }
  g_assert_nonnull (strstr (seen->str, "To sign in to “" SERVER_NAME "” at 127.0.0.1, open:"));

  g_subprocess_send_signal (process, SIGINT);
  communicate (&run, process, "login", SERVER_NAME);
  g_assert_cmpint (run.exit_status, ==, 130);
  g_assert_nonnull (strstr (run.err, "plugboard-cli: cancelled"));
  g_assert_null (strstr (run.out, "Signed in"));

  fallback = g_build_filename (env.xdg_data, "plugboard", "oauth-credentials.json", NULL);
  tokens = stored_tokens (&env, "file", fallback);
  g_assert_null (tokens);
}

/* Issue 20, finding 1: an authorization server that names a hostile
 * sign-in address. login refuses it with a clear message on one line,
 * launches nothing and prints no raw control character. */
static void
test_login_hostile_urls (void)
{
  const char *hostile[] = {
    "javascript:alert(document.cookie)",
    "file:///etc/passwd#https://example.com",
    "smb://evil.example/share",
    "ssh://evil.example",
    "authorize?client_id=x",
    "http://evil.example/authorize",
    "--renderer-cmd-prefix=sh -c 'touch /tmp/plugboard-pwned'",
    "--renderer-cmd-prefix=touch",
    "https://evil.example/\\u001b[2K\\u001b]0;pwned\\u0007",
    "http://127.0.0.1.evil.example/authorize",
  };
  const char *says[] = {
    "“javascript:” address", "“file:” address", "“smb:” address", "“ssh:” address",
    "not a complete address", "unencrypted http to “evil.example”", "contains a space",
    "begins with “-”", "control character", "unencrypted http",
  };

  if (!have_tools ())
    return;

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_auto(Env) env = { 0 };
      g_auto(TestRun) run = { 0 };
      g_autoptr(TestServer) ts = test_server_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *mcp_url = NULL;
      g_autofree char *prm = NULL;
      g_autofree char *as = NULL;
      g_autofree char *settings = NULL;
      g_autofree char *settings_path = NULL;
      g_autofree char *marker = NULL;
      g_autofree char *browser = NULL;

      env_init (&env, TRUE);
      mcp_url = test_server_url (ts, "/mcp");
      prm = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%s\"]}", mcp_url, ts->base);
      as = g_strdup_printf ("{\"issuer\":\"%%BASE%%\",\"authorization_endpoint\":\"%s\","
                            "\"token_endpoint\":\"%%BASE%%/token\",\"registration_endpoint\":\"%%BASE%%/register\","
                            "\"code_challenge_methods_supported\":[\"S256\"]}", hostile[i]);
      test_server_route (ts, "/mcp", 401, "{}");
      test_server_route (ts, "/.well-known/oauth-protected-resource/mcp", 200, prm);
      test_server_route (ts, "/.well-known/oauth-authorization-server", 200, as);
      test_server_route (ts, "/register", 201, "{\"client_id\":\"c1\"}");

      settings = g_strdup_printf ("{\"mcpServers\": {\"" SERVER_NAME "\": "
                                  "{\"type\": \"http\", \"url\": \"%s\"}}}\n", mcp_url);
      settings_path = g_build_filename (env.config_dir, "settings.json", NULL);
      g_assert_true (g_file_set_contents (settings_path, settings, -1, &error));
      g_assert_no_error (error);

      /* A browser that records that it was called, and with what. */
      marker = g_build_filename (env.root, "browser-called", NULL);
      browser = g_strdup_printf ("sh -c 'printf \"%%s\\n\" \"$@\" >> \"%s\"' sh", marker);
      env.browser = browser;

      run_cli (&run, &env, "login", SERVER_NAME);
      g_assert_cmpint (run.exit_status, ==, 3);
      g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test ("/tmp/plugboard-pwned", G_FILE_TEST_EXISTS));
      g_assert_null (strstr (run.out, "To sign in"));
      g_assert_null (strstr (run.err, "Waiting for the browser"));
      /* One line that names the server and says why (after the warning
       * that there is no keyring); no raw ESC, BEL or other control character. */
      {
        g_auto(GStrv) lines = g_strsplit (run.err, "\n", -1);
        const char *failure = NULL;

        for (guint l = 0; lines[l] != NULL; l++)
          if (strstr (lines[l], "will not open") != NULL)
            {
              g_assert_null (failure);
              failure = lines[l];
            }
        g_assert_nonnull (failure);
        g_assert_true (g_str_has_prefix (failure, "plugboard-cli: "));
        g_assert_nonnull (strstr (failure, "“" SERVER_NAME "”"));
        g_assert_nonnull (strstr (failure, says[i]));
      }
      for (const char *p = run.err; *p != '\0'; p++)
        g_assert_false (((guchar) *p < 0x20 && *p != '\n') || *p == 0x7f);
      for (const char *p = run.out; *p != '\0'; p++)
        g_assert_false (((guchar) *p < 0x20 && *p != '\n') || *p == 0x7f);
      env.browser = NULL;
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_OAUTH_FIXTURE_SERVER");

  g_test_add_func ("/cli-oauth/keyring", test_keyring);
  g_test_add_func ("/cli-oauth/file-fallback", test_file_fallback);
  g_test_add_func ("/cli-oauth/login-cancelled", test_login_cancelled);
  g_test_add_func ("/cli-oauth/login-steps", test_login_steps);
  g_test_add_func ("/cli-oauth/login-hostile-urls", test_login_hostile_urls);

  return g_test_run ();
}
