/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-safe-output"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-dirs.h"
#include "test-cli-run.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 20, findings 6 and 8, on the built plugboard-cli and real
 * servers: what a settings file or a server says reaches the terminal with
 * its control characters escaped and the tables aligned, and no secret
 * (URL user info and query values, what ${VAR} gave, env and header
 * values) appears in list, get, a failed ping or G_MESSAGES_DEBUG output. */

#define HANG_BOUND_S 90

/* CR, erase the line, then conceal what follows: on a terminal the name
 * reads as "github" and hides the rest of its row. */
#define HOSTILE_NAME "evil\r\033[2Kgithub\033[8m"

static const char *cli_path;
static const char *fixture_path;

static gboolean
have_tools (void)
{
  return test_cli_have_tools (cli_path, fixture_path);
}

/* plugboard-cli VERB --config-dir D --project P ARGS… (or, with
 * @with_dirs FALSE, VERB ARGS…), with @env (NAME, VALUE, …, NULL) added.
 * The output is kept as bytes, not UTF-8: what reaches the terminal is
 * checked byte by byte. */
static void
run_cli_env (TestRun            *run,
             TestDirs           *dirs,
             gboolean            with_dirs,
             const char * const *env,
             const char * const *args)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  if (!with_dirs)
    cli.config_dir = cli.project_dir = NULL;
  cli.cwd = dirs->project_dir;
  cli.env = env;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, dirs, ...) \
  run_cli_env ((run), (dirs), TRUE, NULL, TEST_CLI_ARGS (__VA_ARGS__))

/* No ESC, no CR but before a line feed, no other C0 control than LF and
 * TAB, no DEL, no C1 control: nothing a terminal acts on. */
static void
assert_terminal_safe (const char *what,
                      const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '\r' && p[1] == '\n')
        continue;
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        g_error ("%s: byte 0x%02x at %ld in:\n%s", what, c, (long) (p - text), text);
    }
  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c >= 0x80 && c <= 0x9f)
        g_error ("%s: C1 control U+%04X in:\n%s", what, c, text);
    }
}

static int
width_of (const char *text,
          gsize       length)
{
  int width = 0;

  for (const char *p = text; p < text + length; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_iszerowidth (c))
        width += g_unichar_iswide (c) ? 2 : 1;
    }
  return width;
}

/* The byte offset in @line where display column @column starts, or -1. */
static gssize
offset_of_column (const char *line,
                  int         column)
{
  int width = 0;

  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (width == column)
        return p - line;
      if (!g_unichar_iszerowidth (c))
        width += g_unichar_iswide (c) ? 2 : 1;
    }
  return -1;
}

static void
write_settings (TestDirs *dirs,
                const char *user,
                const char *project)
{
  g_autofree char *user_file = g_build_filename (dirs->user_dir, "settings.json", NULL);
  g_autofree char *project_file = g_build_filename (dirs->project_dir, ".mcp.json", NULL);

  if (user != NULL)
    test_write_file (user_file, user);
  if (project != NULL)
    test_write_file (project_file, project);
}

/* Finding 6: list, get and tools on a name that rewrites its own line, a
 * wide name, and a server whose tool and stderr hold control characters. */
static void
test_control_characters (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) list = { 0 };
  g_auto(TestRun) get = { 0 };
  g_auto(TestRun) tools = { 0 };
  g_auto(TestRun) ad_hoc = { 0 };
  g_auto(TestRun) json = { 0 };
  g_autofree char *command = NULL;
  g_autofree char *hostile = NULL;
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;
  g_auto(GStrv) lines = NULL;
  const char *header;
  gssize state_at;
  int state_column;
  guint rows = 0;
  gboolean saw_hostile = FALSE;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-safe-output");
  command = test_json_string (fixture_path);
  hostile = test_json_string (HOSTILE_NAME);
  user = g_strdup_printf ("{\"mcpServers\": {"
                          "\"plain\": {\"command\": %s, \"args\": [\"--hostile-text\"]},"
                          "\"名前\": {\"command\": %s}}}\n", command, command);
  project = g_strdup_printf ("{\"mcpServers\": {%s: {\"command\": %s}}}\n", hostile, command);
  write_settings (&dirs, user, project);

  run_cli (&list, &dirs, "list");
  g_assert_cmpint (list.exit_status, ==, 0);
  assert_terminal_safe ("list stdout", list.out);
  assert_terminal_safe ("list stderr", list.err);
  g_assert_nonnull (strstr (list.out, "evil\\u000d\\u001b[2Kgithub\\u001b[8m"));

  /* Every row's STATE starts in the header's STATE column. */
  lines = g_strsplit (list.out, "\n", -1);
  header = lines[0];
  g_assert_true (g_str_has_prefix (header, "NAME"));
  state_at = strstr (header, "STATE") - header;
  g_assert_cmpint (state_at, >, 0);
  state_column = width_of (header, state_at);
  for (guint i = 1; lines[i] != NULL && *lines[i] != '\0'; i++)
    {
      gssize at = offset_of_column (lines[i], state_column);
      const char *state;

      g_assert_cmpint (at, >, 1);
      state = lines[i] + at;
      g_assert_cmpint (lines[i][at - 1], ==, ' ');
      g_assert_true (g_str_has_prefix (state, "connected") || g_str_has_prefix (state, "disabled") ||
                     g_str_has_prefix (state, "failed"));
      if (g_str_has_prefix (lines[i], "evil\\u000d"))
        {
          /* what the name hid is there, after the whole name */
          g_assert_true (g_str_has_prefix (state, "disabled: approval pending"));
          saw_hostile = TRUE;
        }
      if (g_str_has_prefix (lines[i], "名前"))
        g_assert_true (g_str_has_prefix (state, "connected"));
      rows++;
    }
  g_assert_cmpuint (rows, ==, 3);
  g_assert_true (saw_hostile);

  run_cli (&get, &dirs, "get", HOSTILE_NAME);
  g_assert_cmpint (get.exit_status, ==, 0);
  assert_terminal_safe ("get stdout", get.out);
  assert_terminal_safe ("get stderr", get.err);
  g_assert_true (g_str_has_prefix (get.out, "evil\\u000d\\u001b[2Kgithub\\u001b[8m\n"));
  g_assert_nonnull (strstr (get.out, "  approval: pending\n"));

  /* The tool's title and description from the server. */
  run_cli (&tools, &dirs, "tools", "plain");
  g_assert_cmpint (tools.exit_status, ==, 0);
  assert_terminal_safe ("tools stdout", tools.out);
  assert_terminal_safe ("tools stderr", tools.err);
  g_assert_nonnull (strstr (tools.out, "(Hostile\\u000d\\u001b[2Ktitle)"));
  g_assert_nonnull (strstr (tools.out, "  Harmless\\u000d\\u001b[2Kfirst line\\u001b[8m hidden\n"));

  /* An ad-hoc server: its tool's own name, and what it writes to stderr
   * (-v shows the server's stderr). */
  run_cli_env (&ad_hoc, &dirs, FALSE, NULL,
               (const char * const []) { "tools", "-v", "--", fixture_path, "--hostile-text", NULL });
  g_assert_cmpint (ad_hoc.exit_status, ==, 0);
  assert_terminal_safe ("ad-hoc tools stdout", ad_hoc.out);
  assert_terminal_safe ("ad-hoc tools stderr", ad_hoc.err);
  g_assert_nonnull (strstr (ad_hoc.out, "hostile\\u001b[2Ktool (Hostile\\u000d\\u001b[2Ktitle)\n"));

  /* --json: escaped by JSON itself, and still the same strings. */
  run_cli (&json, &dirs, "tools", "plain", "--json");
  g_assert_cmpint (json.exit_status, ==, 0);
  assert_terminal_safe ("tools --json", json.out);
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonArray *array;
    gboolean found = FALSE;

    json_parser_load_from_data (parser, json.out, -1, &error);
    g_assert_no_error (error);
    array = json_node_get_array (json_parser_get_root (parser));
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *tool = json_array_get_object_element (array, i);

        if (g_strcmp0 (json_object_get_string_member (tool, "tool"), "hostile\033[2Ktool") == 0)
          {
            g_assert_cmpstr (json_object_get_string_member (tool, "description"), ==,
                             "Harmless\r\033[2Kfirst line\033[8m hidden\nsecond\r line");
            found = TRUE;
          }
      }
    g_assert_true (found);
  }
}

#define SECRET_VAR   "s3cr3t-from-var-42"
#define SECRET_PASS  "hunter2pw"
#define SECRET_QUERY "K3y-s3cret-77"
#define SECRET_ENV   "env-v4lue-secret"
#define SECRET_HEAD  "static-h3ader-val"

static void
assert_no_secret (const char *what,
                  const TestRun  *run)
{
  static const char * const secrets[] = {
    SECRET_VAR, SECRET_PASS, SECRET_QUERY, SECRET_ENV, SECRET_HEAD, NULL
  };

  for (guint i = 0; secrets[i] != NULL; i++)
    {
      if (strstr (run->out, secrets[i]) != NULL || strstr (run->err, secrets[i]) != NULL)
        g_error ("%s shows the secret “%s”:\nstdout:\n%s\nstderr:\n%s",
                 what, secrets[i], run->out, run->err);
    }
}

/* A free loopback port: nothing listens on it once this returns. */
static guint16
closed_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  guint16 port;

  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_listener_close (listener);
  return port;
}

/* Finding 8: secrets in list, get, errors and debug output. */
static void
test_secrets_masked (void)
{
  static const char * const env[] = {
    "PB_TEST_SECRET", SECRET_VAR,
    "G_MESSAGES_DEBUG", "all",
    NULL
  };
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *user = NULL;
  g_autofree char *url = NULL;
  guint16 port;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-safe-output");
  port = closed_port ();
  url = g_strdup_printf ("http://user:" SECRET_PASS "@127.0.0.1:%u/mcp?api_key=" SECRET_QUERY
                         "&x=${PB_TEST_SECRET}", port);
  user = g_strdup_printf (
    "{\"mcpServers\": {"
    " \"remote\": {\"type\": \"http\", \"url\": \"%s\","
    "   \"headers\": {\"X-Token\": \"Bearer ${PB_TEST_SECRET}\", \"X-Static\": \"" SECRET_HEAD "\"}},"
    /* says its secrets on stderr, then fails: the tail is in the error */
    " \"talker\": {\"command\": \"sh\", \"args\": [\"-c\","
    "   \"echo \\\"token $1 key $API_KEY other $OTHER\\\" >&2; exit 3\", \"sh\", \"${PB_TEST_SECRET}\"],"
    "   \"env\": {\"API_KEY\": \"${PB_TEST_SECRET}\", \"OTHER\": \"" SECRET_ENV "\"}},"
    /* cannot start: the message names the command */
    " \"missing\": {\"command\": \"/nonexistent/${PB_TEST_SECRET}/server\"}"
    "}}\n", url);
  write_settings (&dirs, user, NULL);

  {
    g_auto(TestRun) run = { 0 };

    run_cli_env (&run, &dirs, TRUE, env, (const char * const []) { "list", NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    assert_no_secret ("list", &run);
    /* the failures are there, and debug output was on */
    g_assert_nonnull (strstr (run.out, "remote"));
    g_assert_nonnull (strstr (run.out, "failed"));
    g_assert_true (strstr (run.err, "DEBUG") != NULL || strstr (run.out, "DEBUG") != NULL);
  }

  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *shown = g_strdup_printf ("  url: http://***@127.0.0.1:%u/mcp?api_key=***&x=***\n", port);

    run_cli_env (&run, &dirs, TRUE, env, (const char * const []) { "get", "remote", NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    assert_no_secret ("get remote", &run);
    g_assert_nonnull (strstr (run.out, shown));
    g_assert_nonnull (strstr (run.out, "  headers: X-Token: ***, X-Static: ***\n"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli_env (&run, &dirs, TRUE, env, (const char * const []) { "get", "talker", NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    assert_no_secret ("get talker", &run);
    g_assert_nonnull (strstr (run.out, "  env: API_KEY=***, OTHER=***\n"));
    /* the stderr tail in the state, masked */
    g_assert_nonnull (strstr (run.out, "token *** key *** other ***"));
  }

  for (guint i = 0; i < 3; i++)
    {
      static const char * const names[] = { "remote", "talker", "missing" };
      g_auto(TestRun) run = { 0 };

      run_cli_env (&run, &dirs, TRUE, env, (const char * const []) { "ping", names[i], NULL });
      g_assert_cmpint (run.exit_status, ==, 3);
      g_assert_nonnull (strstr (run.err, "plugboard-cli: "));
      assert_no_secret (names[i], &run);
      /* masked, not cut: the URL as far as its closing quote, and the rest */
      if (i == 0)
        g_assert_nonnull (strstr (run.err, "/mcp?api_key=***&x=***”: "));
    }

  /* An ad-hoc server's URL on the command line is masked in the failure. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli_env (&run, &dirs, FALSE, env,
                 (const char * const []) { "ping", "--http", url, NULL });
    g_assert_cmpint (run.exit_status, !=, 0);
    g_assert_nonnull (strstr (run.err, "plugboard-cli: "));
    g_assert_null (strstr (run.err, SECRET_PASS));
    g_assert_null (strstr (run.err, SECRET_QUERY));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli/safe-output/control-characters", test_control_characters);
  g_test_add_func ("/cli/safe-output/secrets-masked", test_secrets_masked);

  return g_test_run ();
}
