/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli"

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "test-cli-run.h"
#include "test-run.h"
#include "test-util.h"

/* Runs the built plugboard-cli as a person or a script would, against the
 * fault-injection fixture server and one real server. */

#define HANG_BOUND_S 60

static const char *cli_path;
static const char *fixture_path;

static gboolean
have_tools (void)
{
  return test_cli_have_tools (cli_path, fixture_path);
}

static GSubprocessLauncher *
new_launcher (GSubprocessFlags flags)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, NULL);
  return test_cli_launcher (&cli, flags);
}

/* Runs plugboard-cli with @args (NULL-terminated) and @env_name=@env_value
 * when given, and collects its output and status. */
static void
run_cli_env (TestRun            *run,
             const char         *env_name,
             const char         *env_value,
             const char * const *args)
{
  const char * const env[] = { env_name, env_value, NULL };
  TestCli cli;

  test_cli_init (&cli, cli_path, NULL);
  cli.env = env;
  cli.text = TRUE;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, ...) run_cli_env ((run), NULL, NULL, TEST_CLI_ARGS (__VA_ARGS__))

static void
assert_failure_line (const TestRun *run,
                     const char    *needle)
{
  test_cli_assert_failure_line (run->err, needle);
}

/* tools */

static void
test_tools_human (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "tools", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out,
                                   "mcp-fixture-server 1.0.0 (protocol 2025-11-25, handshake) — 10 tools\n"));
  /* echo: its title from annotations.title, read-only and closed-world. */
  g_assert_nonnull (strstr (run.out, "\necho (Echo)\n  hints: read-only, idempotent\n  Echoes the message back.\n"));
  /* crash: declared destructive; idempotent and open-world by default. */
  g_assert_nonnull (strstr (run.out, "\ncrash\n  hints: destructive, open-world\n"));
  /* fail: no annotations at all, so the spec's defaults, marked as such. */
  g_assert_nonnull (strstr (run.out, "\nfail\n  hints: destructive, open-world (defaults, none declared)\n"));
  g_assert_cmpstr (run.err, ==, "");
}

static void
test_tools_json (void)
{
  g_auto(TestRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *array;
  JsonObject *echo = NULL;

  if (!have_tools ())
    return;

  /* Three extra tools over pages of four: the CLI must follow nextCursor. */
  run_cli (&run, "tools", "--json", "--", fixture_path, "--tools", "3", "--page-size", "4");

  g_assert_cmpint (run.exit_status, ==, 0);
  root = test_cli_parse_json (run.out);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  array = json_node_get_array (root);
  g_assert_cmpuint (json_array_get_length (array), ==, 13);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *tool = json_array_get_object_element (array, i);

      /* Each tool as the configured servers' are listed: the server's
       * definition under "definition". */
      g_assert_nonnull (tool);
      tool = json_object_get_object_member (tool, "definition");
      g_assert_true (json_object_has_member (tool, "inputSchema"));
      if (g_strcmp0 (json_object_get_string_member (tool, "name"), "echo") == 0)
        echo = tool;
    }
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (array, 12), "name"),
                   ==, "extra-2");

  /* As the server sent it: the annotations object, not the defaults. */
  g_assert_nonnull (echo);
  g_assert_true (json_object_has_member (echo, "annotations"));
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (echo, "annotations"),
                                                 "readOnlyHint"));
  g_assert_false (json_object_has_member (json_object_get_object_member (echo, "annotations"),
                                          "destructiveHint"));
}

/* call */

static void
test_call_echo (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "echo", "--args", "{\"message\":\"hello there\"}", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 0);
  /* The text as-is, then structuredContent, which the text does not repeat. */
  g_assert_true (g_str_has_prefix (run.out, "hello there\n{\n"));
  g_assert_nonnull (strstr (run.out, "\"message\" : \"hello there\""));
  g_assert_cmpstr (run.err, ==, "");
}

static void
test_call_echo_json (void)
{
  g_auto(TestRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *result;
  JsonObject *block;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "echo", "--json", "--args", "{\"message\":\"line one\\nline two\"}",
           "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 0);
  root = test_cli_parse_json (run.out);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  result = json_node_get_object (root);
  block = json_array_get_object_element (json_object_get_array_member (result, "content"), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (block, "text"), ==, "line one\nline two");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (result, "structuredContent"),
                                                  "message"), ==, "line one\nline two");
}

static void
test_call_fail (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "fail", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 1);
  g_assert_cmpstr (run.out, ==, "the tool failed on purpose\n");
  assert_failure_line (&run, "reported an error");
}

static void
test_call_fail_json (void)
{
  g_auto(TestRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "fail", "--json", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 1);
  root = test_cli_parse_json (run.out);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (root), "isError"));
}

static void
test_call_garbage (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  /* Lines that are not JSON-RPC are skipped; the answer after them counts. */
  run_cli (&run, "call", "garbage", "--", fixture_path, "--garbage-at-start");

  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==, "after garbage\n");
}

static void
test_call_progress (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "slow", "--args", "{\"ms\":600,\"progress_ms\":100}", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==, "slept 600 ms\n");
  /* stderr is a pipe here: one line per update, no carriage returns. */
  g_assert_nonnull (strstr (run.err, "[1/6] step 1\n"));
  g_assert_nonnull (strstr (run.err, "[2/6] step 2\n"));
  g_assert_null (strchr (run.err, '\r'));
}

static void
test_call_unknown_tool (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "no-such-tool", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "no-such-tool");
}

/* usage */

/* A timeout from the environment must be a positive number of
 * milliseconds (McpLimits reads it; the CLI refuses what the engine
 * would ignore); the value itself is never shown. */
static void
test_usage_bad_limit (void)
{
  static const char * const values[] = { "soon", "0", "99999999999" };

  if (!have_tools ())
    return;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_auto(TestRun) run = { 0 };

      run_cli_env (&run, "MCP_TIMEOUT", values[i],
                   (const char * const []) { "ping", "--", fixture_path, NULL });
      g_assert_cmpint (run.exit_status, ==, 2);
      assert_failure_line (&run, "The environment variable MCP_TIMEOUT must be a positive number of milliseconds");
      g_assert_null (strstr (run.err, values[i][0] == '0' ? "=0" : values[i]));
    }

  {
    g_auto(TestRun) run = { 0 };

    run_cli_env (&run, "MCP_TOOL_TIMEOUT", "soon",
                 (const char * const []) { "call", "echo", "--", fixture_path, NULL });
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "The environment variable MCP_TOOL_TIMEOUT must be a positive number of milliseconds");
    g_assert_null (strstr (run.err, "soon"));
  }
}

static void
test_usage_bad_args (void)
{
  if (!have_tools ())
    return;

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "echo", "--args", "{\"message\": nope}", "--", fixture_path);
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "--args is not valid JSON");
    /* Where: line 1, the column of the bad token. */
    assert_failure_line (&run, "line 1, column ");
    g_assert_nonnull (strstr (run.err, "Usage: plugboard-cli call"));
    g_assert_cmpstr (run.out, ==, "");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "echo", "--args", "[1, 2]", "--", fixture_path);
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "must be a JSON object, not an array");
  }
}

static void
test_usage_no_command (void)
{
  if (!have_tools ())
    return;

  {
    g_auto(TestRun) run = { 0 };

    /* Without a server, tools and call use the settings (issue 4). */
    run_cli (&run, "call", "echo");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "Missing the name of the tool to call");
    g_assert_nonnull (strstr (run.err, "Usage: plugboard-cli call"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "tools", "--timeout", "100");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "--timeout");
    g_assert_nonnull (strstr (run.err, "Usage: plugboard-cli tools"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "tools", "--header", "A: b", "--", fixture_path);
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "--header is for --http, --sse and --ws servers");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "echo", "--");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "No server command");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "--", fixture_path);
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "Missing the name of the tool");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "frobnicate", "--", fixture_path);
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "Unknown command “frobnicate”");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "tools", "--timeout", "soon", "--", fixture_path);
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "--timeout");
  }
}

static void
test_usage_help_version (void)
{
  if (!have_tools ())
    return;

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "--version");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==, "plugboard-cli " PACKAGE_VERSION "\n");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "--help");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "--args"));
    g_assert_nonnull (strstr (run.out, "--timeout"));
    g_assert_nonnull (strstr (run.out, "--json"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "ping", "--help");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "plugboard-cli ping"));
  }
}

/* connection failures */

static void
test_connect_missing_command (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "tools", "--", "no-such-cmd-xyz", "--flag");

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "no-such-cmd-xyz");
  g_assert_cmpstr (run.out, ==, "");
}

static void
test_connect_exit_at_start (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "ping", "--", fixture_path, "--exit-at-start", "4");

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "status 4");
  g_assert_cmpstr (run.out, ==, "");
}

static void
test_connect_timeout (void)
{
  g_auto(TestRun) run = { 0 };
  g_autofree char *sleep_path = g_find_program_in_path ("sleep");

  if (!have_tools ())
    return;
  if (sleep_path == NULL)
    {
      g_test_skip ("no sleep(1)");
      return;
    }

  /* A process that never answers initialize. */
  run_cli_env (&run, "MCP_TIMEOUT", "300",
               (const char * const []) { "ping", "--", sleep_path, "30", NULL });

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "Timed out after 300 ms connecting to");
}

static void
test_call_crash (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "crash", "--", fixture_path, "--stderr-lines", "8");

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "exited with status 3");
  /* The last five of its stderr lines, indented, to say why. */
  g_assert_nonnull (strstr (run.err, "    stderr line 7\n"));
  g_assert_nonnull (strstr (run.err, "    stderr line 3\n"));
  g_assert_null (strstr (run.err, "stderr line 2\n"));
}

static void
test_call_abort (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "abort", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "signal");
}

static void
test_call_timeout (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  /* No progress (a progress interval longer than the call), so the request
   * times out. */
  run_cli_env (&run, "MCP_TOOL_TIMEOUT", "300",
               (const char * const []) { "call", "slow", "--args", "{\"ms\":20000,\"progress_ms\":30000}",
                                         "--", fixture_path, NULL });

  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, "calling “slow” failed");
}

/* ping */

static void
test_ping (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "ping", "--", fixture_path);

  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "pong from mcp-fixture-server in "));
  g_assert_true (g_str_has_suffix (run.out, " ms\n"));
}

/* Ctrl-C */

typedef struct
{
  GDataInputStream *stream;
  GString          *text;
  gboolean          eof;
  gboolean          saw_progress;
} StderrReader;

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  StderrReader *reader = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize length;

  line = g_data_input_stream_read_line_finish_utf8 (reader->stream, result, &length, &error);
  if (line == NULL)
    {
      reader->eof = TRUE;
      return;
    }

  g_string_append (reader->text, line);
  g_string_append_c (reader->text, '\n');
  if (g_str_has_prefix (line, "[1/"))
    reader->saw_progress = TRUE;

  g_data_input_stream_read_line_async (reader->stream, G_PRIORITY_DEFAULT, NULL,
                                       read_line_cb, reader);
}

/* The direct child of @parent, from /proc. */
static GPid
find_child_pid (GPid parent)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      const char *after_comm;
      int ppid = 0;

      if (!g_ascii_isdigit (name[0]))
        continue;
      path = g_build_filename ("/proc", name, "stat", NULL);
      if (!g_file_get_contents (path, &contents, NULL, NULL))
        continue;
      after_comm = strrchr (contents, ')');
      if (after_comm == NULL || sscanf (after_comm, ") %*c %d", &ppid) != 1)
        continue;
      if (ppid == parent)
        return (GPid) atoi (name);
    }

  return 0;
}

static gboolean
process_is_gone (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *contents = NULL;
  const char *after_comm;
  char state = 0;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return TRUE;
  after_comm = strrchr (contents, ')');
  /* A zombie has ended; only its parent's wait is missing. */
  return after_comm != NULL && sscanf (after_comm, ") %c", &state) == 1 && state == 'Z';
}

static void
test_sigint_cancels (void)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) stream = NULL;
  StderrReader reader = { 0 };
  const char *argv[] = {
    cli_path, "call", "slow", "--verbose", "--args", "{\"ms\":10000,\"progress_ms\":50}",
    "--", fixture_path, NULL
  };
  gboolean hung = FALSE;
  guint hang_id;
  GPid cli_pid, server_pid;
  gint64 deadline;

  if (!have_tools ())
    return;

  launcher = new_launcher (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  cli_pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);

  stream = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
  reader.stream = stream;
  reader.text = g_string_new (NULL);
  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, NULL, read_line_cb, &reader);

  hang_id = test_deadline (HANG_BOUND_S, &hung);

  /* The call is running once progress arrives. */
  while (!reader.saw_progress && !reader.eof && !hung)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (hung);
  g_assert_true (reader.saw_progress);

  server_pid = find_child_pid (cli_pid);
  g_assert_cmpint (server_pid, >, 0);

  g_subprocess_send_signal (process, SIGINT);

  while (!reader.eof && !hung)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (hung);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_source_remove (hang_id);

  g_test_message ("stderr:\n%s", reader.text->str);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 130);
  g_assert_nonnull (strstr (reader.text->str, "\nplugboard-cli: cancelled\n"));
  /* The client told the server: it logs the request it dropped. */
  g_assert_nonnull (strstr (reader.text->str, "server: cancelled "));

  /* The server went with it. */
  deadline = g_get_monotonic_time () + HANG_BOUND_S * G_USEC_PER_SEC;
  while (!process_is_gone (server_pid) && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  g_assert_true (process_is_gone (server_pid));

  g_string_free (reader.text, TRUE);
}

/* A real server */

/* The node binary and server-everything's script, or FALSE after skipping. */
static gboolean
find_everything (char **out_node,
                 char **out_script)
{
  return have_tools () && test_find_everything (out_node, out_script);
}

static void
test_everything_echo (void)
{
  g_auto(TestRun) run = { 0 };
  g_autofree char *node = NULL;
  g_autofree char *script = NULL;

  if (!find_everything (&node, &script))
    return;

  run_cli (&run, "call", "echo", "--args", "{\"message\":\"hi\"}", "--", node, script, "stdio");

  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==, "Echo: hi\n");
}

static void
test_everything_content (void)
{
  g_autofree char *node = NULL;
  g_autofree char *script = NULL;

  if (!find_everything (&node, &script))
    return;

  {
    g_auto(TestRun) run = { 0 };

    /* An image is its type and decoded size, not base64. */
    run_cli (&run, "call", "get-tiny-image", "--", node, script, "stdio");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==,
                     "Here's the image you requested:\n"
                     "image/png, 4033 bytes\n"
                     "The image above is the MCP logo.\n");
  }

  {
    g_auto(TestRun) run = { 0 };

    /* The text block already holds structuredContent: printed once. */
    run_cli (&run, "call", "get-structured-content", "--args", "{\"location\":\"Chicago\"}",
             "--", node, script, "stdio");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==,
                     "{\"temperature\":36,\"conditions\":\"Light rain / drizzle\",\"humidity\":82}\n");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "get-resource-links", "--args", "{\"count\":2}",
             "--", node, script, "stdio");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\nlink: Blob Resource 1 demo://resource/dynamic/blob/1\n"));
    g_assert_nonnull (strstr (run.out, "\nlink: Text Resource 2 demo://resource/dynamic/text/2\n"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "tools", "--", node, script, "stdio");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_true (g_str_has_prefix (run.out,
                                     "mcp-servers/everything 2.0.0 (protocol 2025-11-25, handshake) — 13 tools\n"));
    g_assert_nonnull (strstr (run.out, "\necho (Echo Tool)\n  hints: read-only, idempotent\n  Echoes back the input string\n"));
    g_assert_nonnull (strstr (run.out, "\ngzip-file-as-resource (GZip File as Resource Tool)\n"
                                       "  hints: idempotent, open-world\n"));
  }
}

/* Remote servers: --http, --sse, --ws, --header */

static void
test_usage_remote (void)
{
  const struct {
    const char *args[8];
    const char *needle;
  } cases[] = {
    { { "tools", "--http", "notaurl", NULL }, "--http “notaurl” is not a URL" },
    { { "tools", "--http", "ws://127.0.0.1:1/", NULL }, "--http takes a http or https URL" },
    { { "tools", "--sse", "ftp://127.0.0.1/sse", NULL }, "--sse takes a http or https URL" },
    { { "tools", "--ws", "http://127.0.0.1:1/", NULL }, "--ws takes a ws or wss URL" },
    { { "tools", "--http", "http://127.0.0.1:1/", "--ws", "ws://127.0.0.1:1/", NULL }, "Give one server" },
    { { "tools", "--http", "http://127.0.0.1:1/", "--", "cat", NULL }, "Give one server" },
    { { "tools", "-H", "A: b", "--", "cat", NULL }, "--header is for --http, --sse and --ws" },
    { { "tools", "--http", "http://127.0.0.1:1/", "-H", "Bad Header", NULL }, "is not of the form" },
  };

  if (!have_tools ())
    return;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(TestRun) run = { 0 };

      run_cli_env (&run, NULL, NULL, cases[i].args);
      g_assert_cmpint (run.exit_status, ==, 2);
      assert_failure_line (&run, cases[i].needle);
    }

  {
    g_auto(TestRun) run = { 0 };

    /* A header that is not well-formed may still hold a secret: only its
     * first word is echoed. */
    run_cli (&run, "tools", "--http", "http://127.0.0.1:1/", "-H", "Authorization Bearer s3cret");
    g_assert_cmpint (run.exit_status, ==, 2);
    g_assert_null (strstr (run.err, "s3cret"));
  }
}

static void
test_http_refused (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) any = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autofree char *url = NULL;
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  /* A port that was free a moment ago and has nobody listening. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  any = g_inet_socket_address_new_from_string ("127.0.0.1", 0);
  g_assert_true (g_socket_bind (socket, any, TRUE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  url = g_strdup_printf ("http://127.0.0.1:%u/mcp",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_close (socket, NULL);

  run_cli (&run, "tools", "--http", url);
  g_assert_cmpint (run.exit_status, ==, 3);
  assert_failure_line (&run, url);
  g_assert_nonnull (strstr (run.err, "refused"));
}

/* Starts the WebSocket fixture with @args and returns its URL. */
static GSubprocess *
start_ws_fixture (const char * const *args,
                  char              **out_url)
{
  const char *path = g_getenv ("MCP_TEST_WS_FIXTURE_SERVER");
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  GSubprocess *process;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("MCP_TEST_WS_FIXTURE_SERVER is not set or not built");
      return NULL;
    }

  g_ptr_array_add (argv, (char *) path);
  g_ptr_array_add (argv, (char *) "--port");
  g_ptr_array_add (argv, (char *) "0");
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = new_launcher (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);

  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  first = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (first);
  g_assert_true (g_str_has_prefix (first, "listening on "));
  *out_url = g_strdup_printf ("ws://127.0.0.1:%s", first + strlen ("listening on "));
  return process;
}

static void
test_ws_fixture (void)
{
  const char *token_args[] = { "--token", "tok3n", NULL };
  g_autoptr(GSubprocess) open_server = NULL;
  g_autoptr(GSubprocess) token_server = NULL;
  g_autofree char *open_url = NULL;
  g_autofree char *token_url = NULL;

  if (!have_tools ())
    return;
  open_server = start_ws_fixture (NULL, &open_url);
  if (open_server == NULL)
    return;
  token_server = start_ws_fixture (token_args, &token_url);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "tools", "--ws", open_url);
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\necho"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "call", "echo", "--args", "{\"message\":\"over a socket\"}", "--ws", open_url);
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "over a socket"));
  }

  {
    g_auto(TestRun) run = { 0 };

    /* Without the token the upgrade is refused: sign-in is what is missing. */
    run_cli (&run, "ping", "--ws", token_url);
    g_assert_cmpint (run.exit_status, ==, 3);
    assert_failure_line (&run, "401");
    g_assert_null (strstr (run.err, "tok3n"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, "ping", "--ws", token_url, "-H", "X-Claude-Code-Ide-Authorization: tok3n");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "pong"));
  }

  g_subprocess_force_exit (open_server);
  g_subprocess_force_exit (token_server);
}

/* Picks a loopback port nobody listens on right now. */
static guint16
free_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new_from_string ("127.0.0.1", 0);
  g_autoptr(GSocketAddress) bound = NULL;
  guint16 port;

  g_assert_true (g_socket_bind (socket, any, TRUE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);
  return port;
}

static gboolean
wait_for_port (guint16 port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();

  for (guint i = 0; i < 150; i++)
    {
      g_autoptr(GSocketConnection) connection = NULL;

      connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
      if (connection != NULL)
        return TRUE;
      g_usleep (100 * 1000);
    }
  return FALSE;
}

static void
test_everything_remote (void)
{
  const char *modes[] = { "streamableHttp", "sse" };
  g_autofree char *node = NULL;
  g_autofree char *script = NULL;

  if (!find_everything (&node, &script))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr(GSubprocessLauncher) launcher = new_launcher (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                              G_SUBPROCESS_FLAGS_STDERR_SILENCE);
      g_autoptr(GSubprocess) server = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *port_text = NULL;
      g_autofree char *url = NULL;
      g_auto(TestRun) tools = { 0 };
      g_auto(TestRun) call = { 0 };
      guint16 port = free_port ();
      gboolean http = g_str_equal (modes[i], "streamableHttp");

      port_text = g_strdup_printf ("%u", port);
      g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
      server = g_subprocess_launcher_spawn (launcher, &error, node, script, modes[i], NULL);
      g_assert_no_error (error);
      g_assert_true (wait_for_port (port));

      url = g_strdup_printf ("http://127.0.0.1:%u/%s", port, http ? "mcp" : "sse");
      run_cli (&tools, "tools", http ? "--http" : "--sse", url);
      g_assert_cmpint (tools.exit_status, ==, 0);
      /* How many depends on when the listing lands: server-everything adds
       * some tools after the handshake. */
      g_assert_true (g_str_has_prefix (tools.out, "mcp-servers/everything "));
      g_assert_nonnull (strstr (tools.out, "\necho (Echo Tool)\n"));

      run_cli (&call, "call", "echo", "--args", "{\"message\":\"hi\"}", http ? "--http" : "--sse", url);
      g_assert_cmpint (call.exit_status, ==, 0);
      g_assert_cmpstr (call.out, ==, "Echo: hi\n");

      g_subprocess_force_exit (server);
      g_subprocess_wait (server, NULL, NULL);
    }
}

/* One engine behind both forms (issue 22): the same server, given on the
 * command line and configured, lists the same tools and gives the same
 * results. What may differ is the server's name where it appears (a
 * configured tool goes by mcp__NAME__tool) and the permission: an ad-hoc
 * server has no rules, the command line is its consent. */

#define SAME_SERVER "mcp-fixture-server"

typedef struct
{
  char *root;
  char *config_dir;
  char *project_dir;
} SameServer;

static void
same_server_init (SameServer *same)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *file = NULL;

  same->root = g_dir_make_tmp ("test-cli-same-XXXXXX", &error);
  g_assert_no_error (error);
  same->config_dir = g_build_filename (same->root, "config", NULL);
  same->project_dir = g_build_filename (same->root, "project", NULL);
  g_assert_cmpint (g_mkdir (same->config_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (same->project_dir, 0700), ==, 0);

  /* Named as the server names itself, so that only the qualified names
   * tell the two apart. */
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, SAME_SERVER);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, fixture_path);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  /* Every tool allowed, as the command line allows an ad-hoc server's. */
  json_builder_set_member_name (builder, "permissions");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "allow");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "mcp__" SAME_SERVER);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  file = g_build_filename (same->config_dir, "settings.json", NULL);
  g_assert_true (g_file_set_contents (file, text, -1, NULL));
}

static void
same_server_clear (SameServer *same)
{
  g_autofree char *file = g_build_filename (same->config_dir, "settings.json", NULL);

  g_unlink (file);
  g_rmdir (same->config_dir);
  g_rmdir (same->project_dir);
  g_rmdir (same->root);
  g_free (same->root);
  g_free (same->config_dir);
  g_free (same->project_dir);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SameServer, same_server_clear)

/* @text with the configured names made the ad-hoc ones, and each
 * "  permission: …" line cut to its first word (allow, ask, deny): the
 * reason is the rule, or the command line. */
static char *
without_names (const char *text)
{
  g_autoptr(GString) out = g_string_new (text);
  g_auto(GStrv) lines = NULL;

  g_string_replace (out, "mcp__" SAME_SERVER "__", "", 0);
  lines = g_strsplit (out->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "  permission: "))
        {
          char *word = lines[i] + strlen ("  permission: ");

          word[strcspn (word, " ")] = '\0';
        }
    }
  return g_strjoinv ("\n", lines);
}

/* A --json listing, each tool allowed, without why (the rule, or the
 * command line), its name as the ad-hoc one. */
static char *
listing_without_names (const char *text,
                       gboolean    ad_hoc)
{
  g_autoptr(JsonNode) root = test_cli_parse_json (text);
  JsonArray *array;

  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *tool = json_array_get_object_element (array, i);

      g_assert_cmpstr (json_object_get_string_member (tool, "permission"), ==, "allow");
      if (ad_hoc)
        {
          g_assert_cmpstr (json_object_get_string_member (tool, "name"), ==,
                           json_object_get_string_member (tool, "tool"));
        }
      else
        json_object_set_string_member (tool, "name", json_object_get_string_member (tool, "tool"));
      json_object_remove_member (tool, "permission");
      json_object_remove_member (tool, "reason");
      json_object_remove_member (tool, "rule");
    }
  return json_to_string (root, TRUE);
}

static void
test_same_server (void)
{
  g_auto(SameServer) same = { 0 };
  const char *call_args[] = { "--args", "{\"message\":\"both ways\\nsecond line\"}" };

  if (!have_tools ())
    return;
  same_server_init (&same);

  {
    g_auto(TestRun) ad_hoc = { 0 };
    g_auto(TestRun) configured = { 0 };
    g_autofree char *ad_hoc_text = NULL;
    g_autofree char *configured_text = NULL;

    run_cli (&ad_hoc, "tools", "--", fixture_path);
    run_cli (&configured, "tools", SAME_SERVER, "--config-dir", same.config_dir,
             "--project", same.project_dir);
    g_assert_cmpint (ad_hoc.exit_status, ==, 0);
    g_assert_cmpint (configured.exit_status, ==, 0);
    ad_hoc_text = without_names (ad_hoc.out);
    configured_text = without_names (configured.out);
    g_assert_cmpstr (ad_hoc_text, ==, configured_text);
    g_assert_cmpstr (ad_hoc.err, ==, configured.err);
    /* The names and the permissions are really there. */
    g_assert_nonnull (strstr (configured.out, "\nmcp__" SAME_SERVER "__echo (Echo)\n"));
    g_assert_nonnull (strstr (ad_hoc.out, "\necho (Echo)\n"));
    g_assert_nonnull (strstr (ad_hoc.out, "\n  permission: allow ("));
  }

  {
    g_auto(TestRun) ad_hoc = { 0 };
    g_auto(TestRun) configured = { 0 };
    g_autofree char *ad_hoc_json = NULL;
    g_autofree char *configured_json = NULL;

    run_cli (&ad_hoc, "tools", "--json", "--", fixture_path);
    run_cli (&configured, "tools", SAME_SERVER, "--json", "--config-dir", same.config_dir,
             "--project", same.project_dir);
    g_assert_cmpint (ad_hoc.exit_status, ==, 0);
    g_assert_cmpint (configured.exit_status, ==, 0);
    ad_hoc_json = listing_without_names (ad_hoc.out, TRUE);
    configured_json = listing_without_names (configured.out, FALSE);
    g_assert_cmpstr (ad_hoc_json, ==, configured_json);
  }

  /* call, text and JSON: nothing in them names the server. */
  for (guint json = 0; json < 2; json++)
    {
      g_auto(TestRun) ad_hoc = { 0 };
      g_auto(TestRun) configured = { 0 };

      if (json)
        {
          run_cli (&ad_hoc, "call", "echo", "--json", call_args[0], call_args[1], "--", fixture_path);
          run_cli (&configured, "call", SAME_SERVER, "echo", "--json", call_args[0], call_args[1],
                   "--config-dir", same.config_dir, "--project", same.project_dir);
        }
      else
        {
          run_cli (&ad_hoc, "call", "echo", call_args[0], call_args[1], "--", fixture_path);
          run_cli (&configured, "call", SAME_SERVER, "echo", call_args[0], call_args[1],
                   "--config-dir", same.config_dir, "--project", same.project_dir);
        }
      g_assert_cmpint (ad_hoc.exit_status, ==, 0);
      g_assert_cmpint (configured.exit_status, ==, 0);
      g_assert_cmpstr (ad_hoc.out, ==, configured.out);
      g_assert_cmpstr (ad_hoc.err, ==, configured.err);
      g_assert_nonnull (strstr (ad_hoc.out, "both ways"));
    }

  /* A tool error, the same way: the result, and the same exit status. */
  {
    g_auto(TestRun) ad_hoc = { 0 };
    g_auto(TestRun) configured = { 0 };

    run_cli (&ad_hoc, "call", "fail", "--", fixture_path);
    run_cli (&configured, "call", SAME_SERVER, "fail",
             "--config-dir", same.config_dir, "--project", same.project_dir);
    g_assert_cmpint (ad_hoc.exit_status, ==, 1);
    g_assert_cmpint (configured.exit_status, ==, 1);
    g_assert_cmpstr (ad_hoc.out, ==, configured.out);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli/tools/human", test_tools_human);
  g_test_add_func ("/cli/tools/json", test_tools_json);
  g_test_add_func ("/cli/call/echo", test_call_echo);
  g_test_add_func ("/cli/call/echo-json", test_call_echo_json);
  g_test_add_func ("/cli/call/fail", test_call_fail);
  g_test_add_func ("/cli/call/fail-json", test_call_fail_json);
  g_test_add_func ("/cli/call/garbage", test_call_garbage);
  g_test_add_func ("/cli/call/progress", test_call_progress);
  g_test_add_func ("/cli/call/unknown-tool", test_call_unknown_tool);
  g_test_add_func ("/cli/call/crash", test_call_crash);
  g_test_add_func ("/cli/call/abort", test_call_abort);
  g_test_add_func ("/cli/call/timeout", test_call_timeout);
  g_test_add_func ("/cli/usage/bad-args", test_usage_bad_args);
  g_test_add_func ("/cli/usage/bad-limit", test_usage_bad_limit);
  g_test_add_func ("/cli/usage/no-command", test_usage_no_command);
  g_test_add_func ("/cli/usage/help-version", test_usage_help_version);
  g_test_add_func ("/cli/connect/missing-command", test_connect_missing_command);
  g_test_add_func ("/cli/connect/exit-at-start", test_connect_exit_at_start);
  g_test_add_func ("/cli/connect/timeout", test_connect_timeout);
  g_test_add_func ("/cli/ping", test_ping);
  g_test_add_func ("/cli/signal/sigint-cancels", test_sigint_cancels);
  g_test_add_func ("/cli/everything/echo", test_everything_echo);
  g_test_add_func ("/cli/everything/content", test_everything_content);
  g_test_add_func ("/cli/remote/usage", test_usage_remote);
  g_test_add_func ("/cli/remote/http-refused", test_http_refused);
  g_test_add_func ("/cli/remote/ws-fixture", test_ws_fixture);
  g_test_add_func ("/cli/remote/everything-http-and-sse", test_everything_remote);
  g_test_add_func ("/cli/same-server/ad-hoc-and-configured", test_same_server);

  return g_test_run ();
}
