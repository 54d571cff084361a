/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-resources"
#define _GNU_SOURCE /* posix_openpt, grantpt, unlockpt, ptsname */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <json-glib/json-glib.h>

#include "test-dirs.h"
#include "test-cli-run.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* The CLI's verbs of issue 8 run as a person or a script would, against
 * server-everything over stdio, configured in a temporary project's
 * .mcp.json (approved, then allowed by a permission rule). The server runs
 * behind `tee`, so that each test can see what it was sent — and what it
 * was not. */

#define HANG_BOUND_S 90

static const char *cli_path;

/* A temporary home: user settings, a project with .mcp.json, XDG dirs,
 * and the log of what the server read. */
typedef struct
{
  TestDirs  d;
  char     *cache_dir;
  char     *log;
} Dirs;

static void
dirs_clear (Dirs *dirs)
{
  test_dirs_clear (&dirs->d);
  g_clear_pointer (&dirs->cache_dir, g_free);
  g_clear_pointer (&dirs->log, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Dirs, dirs_clear)

static char *
read_log (Dirs *dirs)
{
  char *contents = NULL;

  if (!g_file_get_contents (dirs->log, &contents, NULL, NULL))
    return g_strdup ("");
  return contents;
}

static gboolean
log_has (Dirs       *dirs,
         const char *needle)
{
  g_autofree char *contents = read_log (dirs);

  return strstr (contents, needle) != NULL;
}

static char *everything_node;
static char *everything_script;

/* The node binary and server-everything's script, or FALSE after skipping. */
static gboolean
have_everything (void)
{
  if (cli_path == NULL || !g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("MCP_TEST_PLUGBOARD_CLI is not set or not built");
      return FALSE;
    }
  if (everything_node == NULL)
    everything_node = test_find_node ();
  if (everything_script == NULL)
    everything_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);
  return test_have_node_script (everything_node, everything_script);
}

static void run_cli_full (TestRun *run, Dirs *dirs, const char * const *args);

#define run_cli(run, dirs, ...) run_cli_full ((run), (dirs), TEST_CLI_ARGS (__VA_ARGS__))

/* "everything" in the project's .mcp.json, run as `sh -c 'PREFIX tee LOG |
 * exec node everything stdio'` (@filter: NULL, or a shell command the input
 * goes through after tee); approved, and every tool of it allowed in the
 * user settings. */
static void
dirs_init_with_filter (Dirs       *dirs,
                       const char *filter)
{
  g_autofree char *quoted_node = NULL;
  g_autofree char *quoted_script = NULL;
  g_autofree char *quoted_log = NULL;
  g_autofree char *shell = NULL;
  g_autofree char *shell_json = NULL;
  g_autofree char *mcp_json = NULL;
  g_autofree char *mcp_path = NULL;
  g_autofree char *user_path = NULL;

  test_dirs_init_cli (&dirs->d, "cli-resources");
  dirs->cache_dir = g_build_filename (dirs->d.root, "xdg-cache", NULL);
  dirs->log = g_build_filename (dirs->d.root, "everything-input.log", NULL);

  quoted_node = g_shell_quote (everything_node);
  quoted_script = g_shell_quote (everything_script);
  quoted_log = g_shell_quote (dirs->log);
  shell = g_strdup_printf ("tee -a %s | %s%sexec %s %s stdio", quoted_log,
                           filter ? filter : "", filter ? " | " : "",
                           quoted_node, quoted_script);
  shell_json = test_json_string (shell);
  mcp_json = g_strdup_printf ("{\"mcpServers\": {\"everything\": "
                              "{\"command\": \"sh\", \"args\": [\"-c\", %s]}}}\n", shell_json);
  mcp_path = g_build_filename (dirs->d.project_dir, ".mcp.json", NULL);
  test_write_file (mcp_path, mcp_json);
  user_path = g_build_filename (dirs->d.user_dir, "settings.json", NULL);
  test_write_file (user_path, "{\"permissions\": {\"allow\": [\"mcp__everything\"]}}\n");

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, dirs, "approve", "everything");
    g_assert_cmpint (run.exit_status, ==, 0);
  }
  g_unlink (dirs->log);
}

static void
dirs_init (Dirs *dirs)
{
  dirs_init_with_filter (dirs, NULL);
}

/* plugboard-cli [--interactive] VERB --config-dir D --project P ARGS…, or
 * without the directories for an ad-hoc server ("--" among ARGS), in the
 * temporary home. */
static void
cli_init (TestCli            *cli,
          Dirs               *dirs,
          const char * const *args)
{
  test_cli_init (cli, cli_path, &dirs->d);
  if (g_strv_contains (args, "--"))
    cli->config_dir = cli->project_dir = NULL;
  cli->cwd = dirs->d.project_dir;
  cli->bound_s = HANG_BOUND_S;
}

/* Runs plugboard-cli with pipes (no terminal anywhere) and collects its
 * output and status, read as UTF-8 text. */
static void
run_cli_full (TestRun            *run,
              Dirs               *dirs,
              const char * const *args)
{
  TestCli cli;

  cli_init (&cli, dirs, args);
  cli.text = TRUE;
  test_cli_run (run, &cli, args);
}

static void
assert_failure_line (const char *err,
                     const char *needle)
{
  test_cli_assert_failure_line (err, needle);
}

/* An engine part not written yet fails with this; the test says so and
 * skips rather than pretending. */
static gboolean
engine_missing (const TestRun *run)
{
  if (strstr (run->err, "Not implemented yet") == NULL)
    return FALSE;
  g_test_skip ("the engine's part of this is not implemented yet");
  return TRUE;
}

/* resources, templates */

static void
test_resources (void)
{
  g_auto(Dirs) dirs = { 0 };
  g_autofree char *features = NULL;

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "resources", "everything");
    g_assert_cmpint (run.exit_status, ==, 0);
    /* Each of server-everything's documents, with its name, type and
     * description. */
    g_assert_true (g_str_has_prefix (run.out, "demo://resource/static/document/"));
    g_assert_nonnull (strstr (run.out, "demo://resource/static/document/features.md\n"
                                       "  name: features.md\n"
                                       "  mimeType: text/markdown\n"
                                       "  Static document file exposed from /docs: features.md\n"));
    g_assert_nonnull (strstr (run.out, "demo://resource/static/document/architecture.md\n"));
    g_assert_cmpstr (run.err, ==, "");
    g_assert_true (log_has (&dirs, "\"resources/list\""));
  }

  {
    g_auto(TestRun) run = { 0 };
    g_autoptr(JsonNode) root = NULL;
    JsonArray *array;
    gboolean found = FALSE;

    run_cli (&run, &dirs, "resources", "everything", "--json");
    g_assert_cmpint (run.exit_status, ==, 0);
    root = test_cli_parse_json (run.out);
    g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
    array = json_node_get_array (root);
    /* One per document in its docs folder. */
    {
      g_autofree char *dist = g_path_get_dirname (everything_script);

      features = g_build_filename (dist, "docs", NULL);
    }
    {
      g_autoptr(GDir) dir = g_dir_open (features, 0, NULL);
      guint n_docs = 0;

      g_assert_nonnull (dir);
      while (g_dir_read_name (dir) != NULL)
        n_docs++;
      g_assert_cmpuint (json_array_get_length (array), ==, n_docs);
    }
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *object = json_array_get_object_element (array, i);

        if (g_strcmp0 (json_object_get_string_member (object, "uri"),
                       "demo://resource/static/document/features.md") == 0)
          {
            g_assert_cmpstr (json_object_get_string_member (object, "mimeType"), ==, "text/markdown");
            found = TRUE;
          }
      }
    g_assert_true (found);
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "templates", "everything");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "demo://resource/dynamic/text/{resourceId}\n"
                                       "  name: Dynamic Text Resource\n"
                                       "  mimeType: text/plain\n"
                                       "  Plaintext dynamic resource fabricated from the {resourceId} variable"));
    g_assert_nonnull (strstr (run.out, "demo://resource/dynamic/blob/{resourceId}\n"
                                       "  name: Dynamic Blob Resource\n"));
    g_assert_true (log_has (&dirs, "\"resources/templates/list\""));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "resources", "nobody");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "No MCP server named “nobody”");
  }
}

/* read */

static void
test_read (void)
{
  g_auto(Dirs) dirs = { 0 };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  /* A static document: its text exactly, nothing else on stdout. */
  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *dist = g_path_get_dirname (everything_script);
    g_autofree char *path = g_build_filename (dist, "docs", "features.md", NULL);
    g_autofree char *expected = NULL;
    g_autofree char *with_newline = NULL;

    g_assert_true (g_file_get_contents (path, &expected, NULL, NULL));
    run_cli (&run, &dirs, "read", "everything", "demo://resource/static/document/features.md");
    if (engine_missing (&run))
      return;
    g_assert_cmpint (run.exit_status, ==, 0);
    with_newline = g_str_has_suffix (expected, "\n") ? g_strdup (expected)
                                                     : g_strconcat (expected, "\n", NULL);
    g_assert_cmpstr (run.out, ==, with_newline);
    g_assert_true (log_has (&dirs, "\"resources/read\""));
  }

  /* A dynamic text resource. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "read", "everything", "demo://resource/dynamic/text/1");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_true (g_str_has_prefix (run.out, "Resource 1: This is a plaintext resource created at "));
  }

  /* A blob: saved to a file under the results folder, the path said; the
   * file holds the decoded bytes. */
  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *results = g_build_filename (dirs.cache_dir, "plugboard", "results", NULL);
    g_autofree char *contents = NULL;
    g_autofree char *path = NULL;
    const char *saved;
    gsize length;
    GStatBuf st;

    run_cli (&run, &dirs, "read", "everything", "demo://resource/dynamic/blob/2");
    g_assert_cmpint (run.exit_status, ==, 0);
    saved = strstr (run.out, "saved: ");
    g_assert_nonnull (saved);
    path = g_strndup (saved + strlen ("saved: "), strcspn (saved + strlen ("saved: "), "\n"));
    g_assert_true (g_str_has_prefix (path, results));
    g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
    g_assert_true (g_str_has_prefix (contents, "Resource 2: This is a base64 blob created at "));
    g_assert_cmpuint (length, ==, strlen (contents));
    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0600);
    /* The base64 text itself is not printed. */
    g_assert_null (strstr (run.out, "UmVzb3VyY2Ug"));
  }

  /* An unknown URI: the server's error, the URI named, exit 1. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "read", "everything", "demo://resource/nowhere");
    g_assert_cmpint (run.exit_status, ==, 1);
    assert_failure_line (run.err, "reading demo://resource/nowhere from “everything” failed");
    g_assert_cmpstr (run.out, ==, "");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "read", "everything");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "Missing the URI of the resource");
  }
}

/* prompts, prompt */

static void
test_prompts (void)
{
  g_auto(Dirs) dirs = { 0 };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompts", "everything");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_true (g_str_has_prefix (run.out, "simple-prompt (Simple Prompt)\n"
                                              "  A prompt with no arguments\n"
                                              "  arguments: none\n"));
    g_assert_nonnull (strstr (run.out, "\nargs-prompt (Arguments Prompt)\n"
                                       "  A prompt with two arguments, one required and one optional\n"
                                       "  arguments (* required):\n"
                                       "    city* — Name of the city\n"
                                       "    state"));
    g_assert_nonnull (strstr (run.out, "\nresource-prompt (Resource Prompt)\n"));
  }

  /* Both arguments: the server's message, by role and content type. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompt", "everything", "args-prompt",
             "--arg", "city=Paris", "--arg", "state=Texas");
    if (engine_missing (&run))
      return;
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==, "[1] user, text:\nWhat's weather in Paris, Texas?\n");
    g_assert_true (log_has (&dirs, "\"prompts/get\""));
  }

  /* An embedded resource among the messages. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompt", "everything", "resource-prompt",
             "--arg", "resourceType=Text", "--arg", "resourceId=3");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_true (g_str_has_prefix (run.out, "[1] user, text:\n"));
    g_assert_nonnull (strstr (run.out, "\n[2] user, resource demo://resource/dynamic/text/3, text/plain:\n"
                                       "Resource 3: This is a plaintext resource created at "));
  }

  /* A required argument missing: named, and nothing asked of the server. */
  g_unlink (dirs.log);
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompt", "everything", "args-prompt", "--arg", "state=Texas");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "the prompt “args-prompt” of “everything” needs --arg city=VALUE");
    g_assert_cmpstr (run.out, ==, "");
    g_assert_true (log_has (&dirs, "\"initialize\""));
    g_assert_false (log_has (&dirs, "\"prompts/get\""));
  }

  /* An argument the prompt does not take. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompt", "everything", "args-prompt", "--arg", "city=Oslo", "--arg", "planet=Mars");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "has no argument “planet” (it takes city, state)");
    g_assert_false (log_has (&dirs, "\"prompts/get\""));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompt", "everything", "args-prompt", "--arg", "city");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "--arg “city” is not of the form NAME=VALUE");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "prompt", "everything", "no-such-prompt");
    g_assert_cmpint (run.exit_status, ==, 3);
    assert_failure_line (run.err, "“everything” has no prompt “no-such-prompt”");
  }
}

/* log-level */

static void
test_log_level (void)
{
  g_auto(Dirs) dirs = { 0 };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "log-level", "everything", "warning");
    if (engine_missing (&run))
      return;
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==, "“everything” now sends log messages of level warning and above.\n");
    g_assert_true (log_has (&dirs, "\"logging/setLevel\""));
    g_assert_true (log_has (&dirs, "\"level\":\"warning\""));
  }

  /* A level that is not one: refused before the server even starts. */
  g_unlink (dirs.log);
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "log-level", "everything", "loud");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "“loud” is not a log level; the levels are debug, info, notice, "
                                  "warning, error, critical, alert, emergency");
    g_assert_false (g_file_test (dirs.log, G_FILE_TEST_EXISTS));
  }
}

/* A run that is watched as it goes: @needle on @stream_is_err's stream
 * makes the test send SIGINT. */
typedef struct
{
  GString  *out;
  GString  *err;
  gboolean  out_eof;
  gboolean  err_eof;
  gboolean  exited;
  gboolean  signalled;
} Watch;

static gboolean
drain_cb (int          fd,
          GIOCondition condition,
          gpointer     user_data)
{
  GString *buffer = g_object_get_data (user_data, "buffer");
  gboolean *eof = g_object_get_data (user_data, "eof");
  char buf[4096];

  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);

      if (n > 0)
        {
          g_string_append_len (buffer, buf, n);
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        return G_SOURCE_CONTINUE;
      *eof = TRUE;
      return G_SOURCE_REMOVE;
    }
}

static void
watch_wait_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Watch *watch = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  watch->exited = TRUE;
}

/* Runs plugboard-cli, sends it SIGINT once @needle shows on stdout (or,
 * with @in_err, stderr) and returns its exit status; @out_signalled: whether
 * the needle showed before it ended. */
static int
run_cli_interrupt (Dirs               *dirs,
                   const char         *needle,
                   gboolean            in_err,
                   const char * const *args,
                   char              **out_out,
                   char              **out_err,
                   gboolean           *out_signalled)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) out_data = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) err_data = g_object_new (G_TYPE_OBJECT, NULL);
  Watch watch = { g_string_new (NULL), g_string_new (NULL) };
  gboolean hung = FALSE;
  guint hang_id;
  int out_fd, err_fd;
  int status;
  TestCli cli;

  cli_init (&cli, dirs, args);
  argv = test_cli_argv (&cli, args);
  launcher = test_cli_launcher (&cli, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                      G_SUBPROCESS_FLAGS_STDERR_PIPE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);

  out_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (process)));
  err_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stderr_pipe (process)));
  g_assert_true (g_unix_set_fd_nonblocking (out_fd, TRUE, NULL));
  g_assert_true (g_unix_set_fd_nonblocking (err_fd, TRUE, NULL));
  g_object_set_data (out_data, "buffer", watch.out);
  g_object_set_data (out_data, "eof", &watch.out_eof);
  g_object_set_data (err_data, "buffer", watch.err);
  g_object_set_data (err_data, "eof", &watch.err_eof);
  g_unix_fd_add (out_fd, G_IO_IN | G_IO_HUP | G_IO_ERR, drain_cb, out_data);
  g_unix_fd_add (err_fd, G_IO_IN | G_IO_HUP | G_IO_ERR, drain_cb, err_data);
  g_subprocess_wait_async (process, NULL, watch_wait_cb, &watch);

  hang_id = test_deadline (HANG_BOUND_S, &hung);
  while (!(watch.exited && watch.out_eof && watch.err_eof) && !hung)
    {
      g_main_context_iteration (NULL, TRUE);
      if (!watch.signalled && !watch.exited &&
          strstr ((in_err ? watch.err : watch.out)->str, needle) != NULL)
        {
          g_subprocess_send_signal (process, SIGINT);
          watch.signalled = TRUE;
        }
    }
  if (hung)
    {
      g_subprocess_force_exit (process);
      g_error ("plugboard-cli did not finish within %d s (%s “%s”); stdout:\n%s\nstderr:\n%s",
               HANG_BOUND_S, watch.signalled ? "interrupted after" : "never showed", needle,
               watch.out->str, watch.err->str);
    }
  g_source_remove (hang_id);

  status = g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
  g_test_message ("%s: exit %d\nstdout:\n%s\nstderr:\n%s", args[0], status, watch.out->str, watch.err->str);
  *out_out = g_string_free (watch.out, FALSE);
  *out_err = g_string_free (watch.err, FALSE);
  *out_signalled = watch.signalled;
  return status;
}

/* --follow prints each notifications/message until Ctrl-C. server-everything
 * logs only once its toggle-simulated-logging tool ran in the session: the
 * server's input goes through a filter that adds that call right after the
 * CLI's logging/setLevel (its answer, to an id the CLI never used, is
 * ignored). */
static void
test_log_level_follow (void)
{
  g_auto(Dirs) dirs = { 0 };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *filter =
    "while IFS= read -r line; do printf '%s\\n' \"$line\"; "
    "case $line in *logging/setLevel*) "
    "printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":\"injected-1\",\"method\":\"tools/call\","
    "\"params\":{\"name\":\"toggle-simulated-logging\",\"arguments\":{}}}';; esac; done";
  const char * const args[] = { "log-level", "everything", "debug", "--follow", NULL };
  gboolean signalled;
  int status;

  if (!have_everything ())
    return;
  dirs_init_with_filter (&dirs, filter);

  status = run_cli_interrupt (&dirs, "-level message", FALSE, args, &out, &err, &signalled);
  if (strstr (err, "Not implemented yet") != NULL)
    {
      g_test_skip ("the engine's logging/setLevel is not implemented yet");
      return;
    }
  g_assert_true (signalled);
  g_assert_cmpint (status, ==, 130);
  /* "level: data" (server-everything names no logger), one a line. */
  {
    g_autoptr(GRegex) regex = g_regex_new ("^(debug|info|notice|warning|error|critical|alert|emergency): "
                                           "[A-Za-z]+[- ]level[- ]message\n",
                                           G_REGEX_MULTILINE, 0, NULL);

    g_assert_true (g_regex_match (regex, out, 0, NULL));
  }
  g_assert_nonnull (strstr (err, "Following the log messages of “everything” (level debug and above); "
                                 "Ctrl-C stops.\n"));
  g_assert_null (strstr (err, "plugboard-cli: "));
  g_assert_true (log_has (&dirs, "\"logging/setLevel\""));
}

/* tasks */

static void
test_call_task (void)
{
  g_auto(Dirs) dirs = { 0 };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "everything", "simulate-research-query",
             "--args", "{\"topic\":\"tides\"}");
    if (engine_missing (&run))
      return;
    if (strstr (run.out, "requires task augmentation") != NULL)
      {
        g_test_skip ("the engine does not run a task-required tool as a task yet");
        return;
      }
    g_assert_cmpint (run.exit_status, ==, 0);
    /* The status lines as they change, then the result. */
    g_assert_nonnull (strstr (run.err, ": working — Gathering sources...\n"));
    g_assert_nonnull (strstr (run.err, ": working — Generating report...\n"));
    g_assert_true (g_str_has_prefix (run.err, "task "));
    g_assert_nonnull (strstr (run.out, "# Research Report: tides"));
    g_assert_true (log_has (&dirs, "\"tasks/result\""));
  }

  /* An ad-hoc server: the same, from the tool's listing. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "simulate-research-query", "--args", "{\"topic\":\"reefs\"}",
             "--", everything_node, everything_script, "stdio");
    g_assert_cmpint (run.exit_status, ==, 0);
    /* server-everything sends notifications/tasks/status on each change,
     * so no stage is missed between two polls. */
    g_assert_true (g_str_has_prefix (run.err, "task "));
    g_assert_nonnull (strstr (run.err, ": working — Analyzing content...\n"));
    g_assert_nonnull (strstr (run.err, ": working — Synthesizing findings...\n"));
    g_assert_nonnull (strstr (run.err, ": completed"));
    g_assert_nonnull (strstr (run.out, "# Research Report: reefs"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "echo", "--task", "--args", "{\"message\":\"x\"}",
             "--", everything_node, everything_script, "stdio");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "“echo” cannot run as a task");
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "tasks", "everything");
    g_assert_cmpint (run.exit_status, ==, 0);
    /* A stdio server's tasks end with its process. */
    g_assert_cmpstr (run.out, ==, "“everything” has no tasks in this session.\n");
    g_assert_true (log_has (&dirs, "\"tasks/list\""));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "everything", "echo", "--args", "{\"message\":\"x\"}", "--task");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (run.err, "mcp__everything__echo cannot run as a task");
  }
}

/* tasks lists what the session holds: a task is made in the CLI's own
 * session by a filter that adds a task-augmented tools/call right after
 * notifications/initialized (its answer, to an id the CLI never used, is
 * ignored). */
static void
test_tasks_listed (void)
{
  g_auto(Dirs) dirs = { 0 };
  const char *filter =
    "while IFS= read -r line; do printf '%s\\n' \"$line\"; "
    "case $line in *notifications/initialized*) "
    "printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":\"injected-1\",\"method\":\"tools/call\","
    "\"params\":{\"name\":\"simulate-research-query\",\"arguments\":{\"topic\":\"injected\"},"
    "\"task\":{\"ttl\":60000}}}';; esac; done";

  if (!have_everything ())
    return;
  dirs_init_with_filter (&dirs, filter);

  {
    g_auto(TestRun) run = { 0 };
    g_auto(GStrv) lines = NULL;
    g_autoptr(GRegex) header = g_regex_new ("^ID +STATUS +UPDATED +MESSAGE$", 0, 0, NULL);
    g_autoptr(GRegex) row = g_regex_new ("^[0-9a-f]+ +working +[0-9]{4}-[0-9]{2}-[0-9]{2}T[^ ]+ +"
                                         "[A-Z][a-z]+ [a-z]+\\.\\.\\.$", 0, 0, NULL);

    run_cli (&run, &dirs, "tasks", "everything");
    g_assert_cmpint (run.exit_status, ==, 0);
    lines = g_strsplit (run.out, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 3);
    g_assert_true (g_regex_match (header, lines[0], 0, NULL));
    g_assert_true (g_regex_match (row, lines[1], 0, NULL));
    g_assert_cmpstr (lines[2], ==, "");
  }

  {
    g_auto(TestRun) run = { 0 };
    g_autoptr(JsonNode) root = NULL;
    JsonObject *task;

    run_cli (&run, &dirs, "tasks", "everything", "--json");
    g_assert_cmpint (run.exit_status, ==, 0);
    root = test_cli_parse_json (run.out);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (root)), ==, 1);
    task = json_array_get_object_element (json_node_get_array (root), 0);
    g_assert_nonnull (json_object_get_string_member (task, "taskId"));
    g_assert_cmpstr (json_object_get_string_member (task, "status"), ==, "working");
  }
}

/* Ctrl-C while the task runs: tasks/cancel, exit 130. */
static void
test_call_task_cancel (void)
{
  g_auto(Dirs) dirs = { 0 };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char * const args[] = { "call", "everything", "simulate-research-query",
                                "--args", "{\"topic\":\"tides\"}", NULL };
  gboolean signalled;
  int status;

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  /* The first status line shows the task is running. */
  status = run_cli_interrupt (&dirs, "working — ", TRUE, args, &out, &err, &signalled);
  if (!signalled && (strstr (out, "requires task augmentation") != NULL ||
                     strstr (err, "Not implemented yet") != NULL))
    {
      g_test_skip ("the engine does not run a task-required tool as a task yet");
      return;
    }
  g_assert_true (signalled);
  g_assert_cmpint (status, ==, 130);
  assert_failure_line (err, "cancelled");
  g_assert_null (strstr (out, "# Research Report"));
  g_assert_true (log_has (&dirs, "\"tasks/cancel\""));
}

/* --interactive on a terminal */

/* Runs plugboard-cli with a pseudo-terminal as its stdin, stdout, stderr
 * and controlling terminal; answers @steps in order. Returns the exit
 * status and everything shown (with the terminal's \r\n). */
static int
run_cli_pty (Dirs               *dirs,
             const TestRunStep  *steps,
             const char * const *args,
             char              **out_seen)
{
  g_auto(TestRun) run = { 0 };
  TestCli cli;

  cli_init (&cli, dirs, args);
  test_cli_run_pty (&run, &cli, args, steps);
  if (!run.prompted)
    g_error ("not every prompt showed; the terminal showed:\n%s", run.out);

  *out_seen = g_steal_pointer (&run.out);
  return run.exit_status;
}

static void
test_interactive_sampling (void)
{
  g_auto(Dirs) dirs = { 0 };
  const char * const args[] = { "--interactive", "call", "everything", "trigger-sampling-request",
                                "--args", "{\"prompt\":\"Say hi\",\"maxTokens\":77}", NULL };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  /* Approved: the person's reply is the model's answer in the tool's
   * result. */
  {
    const TestRunStep steps[] = {
      { "(or Ctrl-D):", "Hello from a person\nsecond line\n.\n" },
      { "Send this reply? [y/N] ", "y\n" },
      { NULL, NULL }
    };
    g_autofree char *seen = NULL;
    const char *request;
    int status;

    status = run_cli_pty (&dirs, steps, args, &seen);
    if (strstr (seen, "Not implemented yet") != NULL)
      {
        g_test_skip ("the engine's server-to-client requests are not implemented yet");
        return;
      }
    g_assert_cmpint (status, ==, 0);
    /* The request in full. */
    request = strstr (seen, "everything asks for a model reply (sampling/createMessage):\r\n");
    g_assert_nonnull (request);
    g_assert_nonnull (strstr (request, "  System prompt:\r\n    You are a helpful test server.\r\n"));
    g_assert_nonnull (strstr (request, "  Message 1, user, text:\r\n"
                                       "    Resource trigger-sampling-request context: Say hi\r\n"));
    g_assert_nonnull (strstr (request, "  maxTokens: 77\r\n"));
    g_assert_nonnull (strstr (request, "  modelPreferences: none\r\n"));
    g_assert_nonnull (strstr (request, "  temperature: 0.7\r\n"));
    /* The server's result holds the reply, as sent. */
    g_assert_nonnull (strstr (seen, "\"model\": \"plugboard-cli (human)\""));
    g_assert_nonnull (strstr (seen, "\"stopReason\": \"endTurn\""));
    g_assert_nonnull (strstr (seen, "\"text\": \"Hello from a person\\nsecond line\""));
    g_assert_true (log_has (&dirs, "\"sampling\":{}"));
  }

  /* Declined: the server gets the specification's refusal, nothing else. */
  g_unlink (dirs.log);
  {
    const TestRunStep steps[] = {
      { "(or Ctrl-D):", "I would rather not\n.\n" },
      { "Send this reply? [y/N] ", "n\n" },
      { NULL, NULL }
    };
    g_autofree char *seen = NULL;
    int status;

    status = run_cli_pty (&dirs, steps, args, &seen);
    g_assert_nonnull (strstr (seen, "Declined; nothing was sent."));
    g_assert_nonnull (strstr (seen, "User rejected sampling request"));
    g_assert_null (strstr (seen, "plugboard-cli (human)"));
    /* The tool reports the refusal as its error. */
    g_assert_cmpint (status, ==, 1);
    g_assert_true (log_has (&dirs, "\"code\":-1"));
    g_assert_false (log_has (&dirs, "I would rather not"));
  }

  /* Ctrl-C while the reply is being written: the call ends, 130. The ^C
   * follows the line's echo at once, so the CLI may or may not have read
   * the line by then; when not, the terminal discards it (ISIG without
   * NOFLSH), also after poll() found it readable, and the CLI must still
   * see the Ctrl-C (it once waited in read() for a line nobody typed). */
  g_unlink (dirs.log);
  {
    const TestRunStep steps[] = {
      { "(or Ctrl-D):", "half a thought\n" },
      { "half a thought", "\003" },
      { NULL, NULL }
    };
    g_autofree char *seen = NULL;
    int status;

    status = run_cli_pty (&dirs, steps, args, &seen);
    g_assert_cmpint (status, ==, 130);
    g_assert_nonnull (strstr (seen, "plugboard-cli: cancelled"));
    g_assert_false (log_has (&dirs, "half a thought"));
  }
}

static void
test_interactive_elicitation (void)
{
  g_auto(Dirs) dirs = { 0 };
  const char * const args[] = { "--interactive", "call", "everything", "trigger-elicitation-request", NULL };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  /* Each field: typed, checked (a bad email and an integer out of range are
   * asked again), or left to its default. */
  {
    const TestRunStep steps[] = {
      { "name> ", "Ada Lovelace\n" },
      { "check> ", "y\n" },
      { "firstLine> ", "\n" },
      { "email> ", "not-an-email\n" },
      { "email takes an email address", "" },
      { "email> ", "ada@example.org\n" },
      { "homepage> ", "\n" },
      { "birthdate> ", "1815-12-10\n" },
      { "integer> ", "500\n" },
      { "integer takes at most 100", "" },
      { "integer> ", "7\n" },
      { "number> ", "2.5\n" },
      { "untitledSingleSelectEnum> ", "3\n" },
      { "untitledMultipleSelectEnum> ", "Piano, 4\n" },
      { "titledSingleSelectEnum> ", "Wonder Woman\n" },
      { "titledMultipleSelectEnum> ", "\n" },
      { "legacyTitledEnum> ", "pet-2\n" },
      { "Send? [y/N/decline] ", "y\n" },
      { NULL, NULL }
    };
    g_autofree char *seen = NULL;
    g_autofree char *raw = NULL;
    g_autoptr(JsonNode) root = NULL;
    JsonObject *content;
    const char *start;
    int status;

    status = run_cli_pty (&dirs, steps, args, &seen);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (seen, "everything asks for information (elicitation/create):\r\n"
                                    "  Please provide inputs for the following fields:\r\n"));
    g_assert_nonnull (strstr (seen, "[1/13] name (String) — string, required\r\n"
                                    "      Your full, legal name\r\n"));
    g_assert_nonnull (strstr (seen, "      3) Wonder Woman (hero-3)\r\n"));
    g_assert_nonnull (strstr (seen, "- Name: Ada Lovelace"));
    g_assert_nonnull (strstr (seen, "- Favorite Integer: 7"));

    /* What the server got, from its own "Raw result". */
    start = strstr (seen, "Raw result: ");
    g_assert_nonnull (start);
    {
      g_autoptr(GString) text = g_string_new (start + strlen ("Raw result: "));

      g_string_replace (text, "\r\n", "\n", 0);
      /* Up to the closing brace of the object. */
      g_string_truncate (text, strstr (text->str, "\n}") - text->str + 2);
      raw = g_string_free (g_steal_pointer (&text), FALSE);
    }
    root = test_cli_parse_json (raw);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "action"), ==, "accept");
    content = json_object_get_object_member (json_node_get_object (root), "content");
    g_assert_cmpstr (json_object_get_string_member (content, "name"), ==, "Ada Lovelace");
    g_assert_true (json_object_get_boolean_member (content, "check"));
    g_assert_cmpstr (json_object_get_string_member (content, "firstLine"), ==, "It was a dark and stormy night.");
    g_assert_cmpstr (json_object_get_string_member (content, "email"), ==, "ada@example.org");
    g_assert_false (json_object_has_member (content, "homepage"));
    g_assert_cmpstr (json_object_get_string_member (content, "birthdate"), ==, "1815-12-10");
    g_assert_cmpint (json_object_get_int_member (content, "integer"), ==, 7);
    g_assert_cmpfloat (json_object_get_double_member (content, "number"), ==, 2.5);
    g_assert_cmpstr (json_object_get_string_member (content, "untitledSingleSelectEnum"), ==, "Joey");
    {
      JsonArray *instruments = json_object_get_array_member (content, "untitledMultipleSelectEnum");

      g_assert_cmpuint (json_array_get_length (instruments), ==, 2);
      g_assert_cmpstr (json_array_get_string_element (instruments, 0), ==, "Piano");
      g_assert_cmpstr (json_array_get_string_element (instruments, 1), ==, "Drums");
    }
    g_assert_cmpstr (json_object_get_string_member (content, "titledSingleSelectEnum"), ==, "hero-3");
    g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (content, "titledMultipleSelectEnum"), 0),
                     ==, "fish-1");
    g_assert_cmpstr (json_object_get_string_member (content, "legacyTitledEnum"), ==, "pet-2");
  }

  /* Declined after the fields: the server hears "decline", no content. */
  {
    const TestRunStep steps[] = {
      { "name> ", "Nobody\n" },
      { "check> ", "\n" }, { "firstLine> ", "\n" }, { "email> ", "\n" }, { "homepage> ", "\n" },
      { "birthdate> ", "\n" }, { "integer> ", "\n" }, { "number> ", "\n" },
      { "untitledSingleSelectEnum> ", "\n" }, { "untitledMultipleSelectEnum> ", "\n" },
      { "titledSingleSelectEnum> ", "\n" }, { "titledMultipleSelectEnum> ", "\n" },
      { "legacyTitledEnum> ", "\n" },
      { "Send? [y/N/decline] ", "decline\n" },
      { NULL, NULL }
    };
    g_autofree char *seen = NULL;
    int status;

    status = run_cli_pty (&dirs, steps, args, &seen);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (seen, "User declined to provide the requested information."));
    g_assert_null (strstr (seen, "\"name\": \"Nobody\""));
    g_assert_nonnull (strstr (seen, "Declined; the server was told so, and none of the answers were sent."));
    g_assert_null (strstr (seen, "Declined; nothing was sent."));
  }

  /* Ctrl-D (end of input at the start of a line) in the middle: cancel. */
  {
    const TestRunStep steps[] = {
      { "name> ", "Somebody\n" },
      { "check> ", "\004" },
      { NULL, NULL }
    };
    g_autofree char *seen = NULL;
    int status;

    status = run_cli_pty (&dirs, steps, args, &seen);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (seen, "Cancelled; nothing was sent."));
    g_assert_nonnull (strstr (seen, "User cancelled the elicitation dialog."));
    g_assert_null (strstr (seen, "\"name\": \"Somebody\""));
  }
}

/* An ambiguous research task asks for a clarification while it runs
 * (input_required): the form is answered on the terminal and the task
 * goes on to its report. */
static void
test_interactive_task_elicitation (void)
{
  g_auto(Dirs) dirs = { 0 };
  const char * const args[] = { "--interactive", "call", "everything", "simulate-research-query",
                                "--args", "{\"topic\":\"tides\",\"ambiguous\":true}", NULL };
  const TestRunStep steps[] = {
    { "interpretation> ", "2\n" },
    { "Send? [y/N/decline] ", "y\n" },
    { NULL, NULL }
  };
  g_autofree char *seen = NULL;
  const char *asked;
  int status;

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  status = run_cli_pty (&dirs, steps, args, &seen);
  g_assert_cmpint (status, ==, 0);
  asked = strstr (seen, ": input_required — Found multiple interpretations for \"tides\"");
  g_assert_nonnull (asked);
  g_assert_nonnull (strstr (asked, "      2) Historical perspective (historical)\r\n"));
  g_assert_nonnull (strstr (asked, ": working — Continuing with interpretation: \"historical\"..."));
  g_assert_nonnull (strstr (asked, "# Research Report: tides (historical)"));
}

/* An ad-hoc server (after "--") gets the same sampling dialog. */
static void
test_interactive_ad_hoc (void)
{
  g_auto(Dirs) dirs = { 0 };
  const TestRunStep steps[] = {
    { "(or Ctrl-D):", "ad hoc reply\n.\n" },
    { "Send this reply? [y/N] ", "y\n" },
    { NULL, NULL }
  };
  g_autofree char *seen = NULL;
  int status;

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  {
    const char * const args[] = { "call", "trigger-sampling-request", "--interactive",
                                  "--args", "{\"prompt\":\"Say hi\"}",
                                  "--", everything_node, everything_script, "stdio", NULL };

    status = run_cli_pty (&dirs, steps, args, &seen);
  }
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (seen, "mcp-servers/everything asks for a model reply (sampling/createMessage):\r\n"));
  g_assert_nonnull (strstr (seen, "\"text\": \"ad hoc reply\""));
}

/* roots/list is answered even without --interactive: the project folder. */
static void
test_roots (void)
{
  g_auto(Dirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *uri = NULL;

  if (!have_everything ())
    return;
  dirs_init (&dirs);
  uri = g_filename_to_uri (dirs.d.project_dir, NULL, NULL);

  run_cli (&run, &dirs, "call", "everything", "get-roots-list");
  if (strstr (run.err, "has no tool “get-roots-list”") != NULL && log_has (&dirs, "\"roots\":{"))
    g_error ("roots were declared but server-everything did not offer get-roots-list");
  if (strstr (run.err, "has no tool “get-roots-list”") != NULL)
    {
      g_test_skip ("the engine does not declare roots yet (mcp_server_manager_set_roots)");
      return;
    }
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, uri));
  g_assert_true (log_has (&dirs, "\"roots\":{"));
}

/* --interactive without a terminal: a note, and neither sampling nor
 * elicitation declared, so the server does not offer their tools. */
static void
test_interactive_without_terminal (void)
{
  g_auto(Dirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };

  if (!have_everything ())
    return;
  dirs_init (&dirs);

  run_cli (&run, &dirs, "--interactive", "tools", "everything");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_true (g_str_has_prefix (run.err, "plugboard-cli: note: --interactive needs a terminal on "
                                            "stdin and stdout; going on without it"));
  g_assert_nonnull (strstr (run.out, "mcp__everything__echo"));
  g_assert_null (strstr (run.out, "mcp__everything__trigger-sampling-request"));
  g_assert_null (strstr (run.out, "mcp__everything__trigger-elicitation-request"));
  g_assert_true (log_has (&dirs, "\"initialize\""));
  g_assert_false (log_has (&dirs, "\"sampling\""));
  g_assert_false (log_has (&dirs, "\"elicitation\""));
}

/* A server that offers none of it (the fixture declares tools and
 * logging only): said so, and nothing asked of it. */
static void
test_not_offered (void)
{
  g_auto(Dirs) dirs = { 0 };
  const char *fixture = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  g_autofree char *command = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *user_path = NULL;
  static const struct
  {
    const char *verb;
    const char *out;
  } listings[] = {
    { "resources", "“fx” does not offer resources (its capabilities do not declare “resources”).\n" },
    { "templates", "“fx” does not offer resource templates (its capabilities do not declare “resources”).\n" },
    { "prompts", "“fx” does not offer prompts (its capabilities do not declare “prompts”).\n" },
    { "tasks", "“fx” does not offer a task list (its capabilities do not declare “tasks.list”).\n" },
  };

  if (!have_everything ())
    return;
  if (fixture == NULL || !g_file_test (fixture, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("MCP_TEST_FIXTURE_SERVER is not set or not built");
      return;
    }
  dirs_init (&dirs);
  command = test_json_string (fixture);
  settings = g_strdup_printf ("{\"mcpServers\": {\"fx\": {\"command\": %s}}}\n", command);
  user_path = g_build_filename (dirs.d.user_dir, "settings.json", NULL);
  test_write_file (user_path, settings);

  for (guint i = 0; i < G_N_ELEMENTS (listings); i++)
    {
      g_auto(TestRun) run = { 0 };

      run_cli (&run, &dirs, listings[i].verb, "fx");
      g_assert_cmpint (run.exit_status, ==, 0);
      g_assert_cmpstr (run.out, ==, listings[i].out);
    }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "read", "fx", "demo://resource/static/document/features.md");
    g_assert_cmpint (run.exit_status, ==, 3);
    assert_failure_line (run.err, "reading demo://resource/static/document/features.md from “fx” failed: ");
    assert_failure_line (run.err, "does not offer resources");
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");

  g_test_add_func ("/cli-resources/resources", test_resources);
  g_test_add_func ("/cli-resources/read", test_read);
  g_test_add_func ("/cli-resources/prompts", test_prompts);
  g_test_add_func ("/cli-resources/not-offered", test_not_offered);
  g_test_add_func ("/cli-resources/log-level", test_log_level);
  g_test_add_func ("/cli-resources/log-level/follow", test_log_level_follow);
  g_test_add_func ("/cli-resources/call/task", test_call_task);
  g_test_add_func ("/cli-resources/call/task-cancel", test_call_task_cancel);
  g_test_add_func ("/cli-resources/tasks/listed", test_tasks_listed);
  g_test_add_func ("/cli-resources/interactive/sampling", test_interactive_sampling);
  g_test_add_func ("/cli-resources/interactive/elicitation", test_interactive_elicitation);
  g_test_add_func ("/cli-resources/interactive/task-elicitation", test_interactive_task_elicitation);
  g_test_add_func ("/cli-resources/interactive/ad-hoc", test_interactive_ad_hoc);
  g_test_add_func ("/cli-resources/roots", test_roots);
  g_test_add_func ("/cli-resources/interactive/without-terminal", test_interactive_without_terminal);

  status = g_test_run ();

  g_free (everything_node);
  g_free (everything_script);
  return status;
}
