/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-settings"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-dirs.h"
#include "test-cli-run.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* Runs the built plugboard-cli on settings in temporary user and project
 * directories: the acceptance points of issue 4 and the verbs around them. */

#define HANG_BOUND_S 90

static const char *cli_path;
static const char *fixture_path;

static gboolean
have_tools (void)
{
  return test_cli_have_tools (cli_path, fixture_path);
}

/* Runs plugboard-cli VERB [--config-dir D --project P] ARGS… in @cwd (NULL:
 * the project dir), stdin closed, XDG dirs inside the temporary root. */
static void
run_cli_full (TestRun            *run,
              TestDirs           *dirs,
              gboolean            with_dirs,
              const char         *cwd,
              const char * const *args)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  if (!with_dirs)
    cli.config_dir = cli.project_dir = NULL;
  cli.cwd = cwd != NULL ? cwd : dirs->project_dir;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, dirs, ...) \
  run_cli_full ((run), (dirs), TRUE, NULL, TEST_CLI_ARGS (__VA_ARGS__))

static void
assert_failure_line (const TestRun *run,
                     const char    *needle)
{
  test_cli_assert_failure_line (run->err, needle);
}

/* The line of `list` for @name in @scope, or NULL. Columns: NAME SCOPE
 * TRANSPORT STATE. */
static char *
list_line (const TestRun  *run,
           const char *name,
           const char *scope)
{
  g_auto(GStrv) lines = g_strsplit (run->out, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = g_strsplit_set (lines[i], " ", -1);
      g_autoptr(GPtrArray) fields = g_ptr_array_new ();

      for (guint j = 0; words[j] != NULL; j++)
        if (*words[j] != '\0')
          g_ptr_array_add (fields, words[j]);
      if (fields->len >= 4 &&
          g_str_equal (g_ptr_array_index (fields, 0), name) &&
          g_str_equal (g_ptr_array_index (fields, 1), scope))
        {
          const char *state = strstr (lines[i] + strlen (name), (const char *) g_ptr_array_index (fields, 3));

          return g_strdup (state);
        }
    }
  return NULL;
}

static char *
fixture_entry (void)
{
  g_autofree char *command = test_json_string (fixture_path);

  return g_strdup_printf ("{\"command\": %s}", command);
}

/* 1. The same name in three scopes: local is active, the others shadowed. */
static void
test_list_shadowing (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *entry = NULL;
  g_autofree char *project_key = NULL;
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  entry = fixture_entry ();
  project_key = test_json_string (dirs.project_dir);

  user = g_strdup_printf ("{\"mcpServers\": {\"same\": %s},\n"
                          " \"projects\": {%s: {\"mcpServers\": {\"same\": %s}}}}\n",
                          entry, project_key, entry);
  project = g_strdup_printf ("{\"mcpServers\": {\"same\": %s, \"fresh\": %s}}\n", entry, entry);
  test_write_file (dirs.user_file, user);
  test_write_file (dirs.project_file, project);

  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *local = NULL;
    g_autofree char *in_user = NULL;
    g_autofree char *in_project = NULL;
    g_autofree char *fresh = NULL;

    run_cli (&run, &dirs, "list");
    g_assert_cmpint (run.exit_status, ==, 0);
    local = list_line (&run, "same", "local");
    in_user = list_line (&run, "same", "user");
    in_project = list_line (&run, "same", "project");
    fresh = list_line (&run, "fresh", "project");
    g_assert_cmpstr (local, ==, "connected (10 tools)");
    g_assert_cmpstr (in_user, ==, "shadowed by local");
    g_assert_cmpstr (in_project, ==, "shadowed by local");
    /* A project server nobody approved does not start. */
    g_assert_cmpstr (fresh, ==, "disabled: approval pending (plugboard-cli approve fresh)");
    g_assert_nonnull (strstr (run.out, "\nPending approval ("));
    g_assert_nonnull (strstr (run.out, "\n  fresh: plugboard-cli approve fresh"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "approve", "fresh");
    g_assert_cmpint (run.exit_status, ==, 0);
  }

  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *fresh = NULL;

    run_cli (&run, &dirs, "list");
    g_assert_cmpint (run.exit_status, ==, 0);
    fresh = list_line (&run, "fresh", "project");
    g_assert_cmpstr (fresh, ==, "connected (10 tools)");
    g_assert_null (strstr (run.out, "  fresh: plugboard-cli approve fresh"));
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "approve", "nowhere");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "No project server named “nowhere”");
  }
}

/* 2. server-everything as "everything": the pool's names and the
 * permission rules on `call`. */
static gboolean
find_everything (char **out_node,
                 char **out_script)
{
  return have_tools () && test_find_everything (out_node, out_script);
}

/* "everything" runs through `sh -c 'tee LOG | node …'`, so that the test
 * sees every message the server was sent. */
static void
write_everything_settings (TestDirs       *dirs,
                           const char *node,
                           const char *script,
                           const char *log,
                           const char *permissions)
{
  g_autofree char *quoted_node = g_shell_quote (node);
  g_autofree char *quoted_script = g_shell_quote (script);
  g_autofree char *quoted_log = g_shell_quote (log);
  g_autofree char *shell = g_strdup_printf ("tee -a %s | exec %s %s stdio",
                                            quoted_log, quoted_node, quoted_script);
  g_autofree char *shell_json = test_json_string (shell);
  g_autofree char *text = g_strdup_printf ("{\"mcpServers\": {\"everything\": "
                                           "{\"command\": \"sh\", \"args\": [\"-c\", %s]}},\n"
                                           " \"permissions\": %s}\n",
                                           shell_json, permissions);

  test_write_file (dirs->user_file, text);
  g_unlink (log);
}

static gboolean
server_was_called (const char *log)
{
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (log, &contents, NULL, NULL))
    return FALSE;
  return strstr (contents, "\"tools/call\"") != NULL;
}

static void
test_everything_permissions (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *node = NULL;
  g_autofree char *script = NULL;
  g_autofree char *log = NULL;
  const char *args_json = "{\"message\":\"hi\"}";

  if (!find_everything (&node, &script))
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  log = g_build_filename (dirs.root, "everything-input.log", NULL);

  /* tools: the pool name, the title, the annotations, the permission. */
  write_everything_settings (&dirs, node, script, log,
                             "{\"allow\": [\"mcp__everything__echo\"]}");
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "tools");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "mcp__everything__echo (Echo Tool)\n  hints: "));
    g_assert_nonnull (strstr (run.out, "\n  permission: allow (rule mcp__everything__echo)\n"));
  }
  {
    g_auto(TestRun) run = { 0 };
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonArray *array;
    JsonObject *echo = NULL;

    run_cli (&run, &dirs, "tools", "everything", "--json");
    g_assert_cmpint (run.exit_status, ==, 0);
    json_parser_load_from_data (parser, run.out, -1, &error);
    g_assert_no_error (error);
    g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
    array = json_node_get_array (json_parser_get_root (parser));
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *object = json_array_get_object_element (array, i);

        if (g_strcmp0 (json_object_get_string_member (object, "name"), "mcp__everything__echo") == 0)
          echo = object;
      }
    g_assert_nonnull (echo);
    g_assert_cmpstr (json_object_get_string_member (echo, "server"), ==, "everything");
    g_assert_cmpstr (json_object_get_string_member (echo, "tool"), ==, "echo");
    g_assert_cmpstr (json_object_get_string_member (echo, "title"), ==, "Echo Tool");
    g_assert_cmpstr (json_object_get_string_member (echo, "permission"), ==, "allow");
    g_assert_cmpstr (json_object_get_string_member (echo, "rule"), ==, "mcp__everything__echo");
    /* The flags follow the tool's annotations, with the spec's defaults. */
    {
      JsonObject *definition = json_object_get_object_member (echo, "definition");
      JsonObject *annotations = json_object_get_member (definition, "annotations")
        ? json_object_get_object_member (definition, "annotations") : NULL;
      gboolean read_only = annotations && json_object_get_boolean_member_with_default (annotations, "readOnlyHint", FALSE);
      gboolean open_world = !annotations || json_object_get_boolean_member_with_default (annotations, "openWorldHint", TRUE);

      g_assert_cmpint (json_object_get_boolean_member (echo, "readOnly"), ==, read_only);
      g_assert_cmpint (json_object_get_boolean_member (echo, "openWorld"), ==, open_world);
      g_assert_cmpint (json_object_get_boolean_member (echo, "destructive"), ==,
                       read_only ? FALSE : (!annotations || json_object_get_boolean_member_with_default (annotations, "destructiveHint", TRUE)));
    }
  }

  /* allow: it runs. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "everything", "echo", "--args", args_json);
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==, "Echo: hi\n");
    g_assert_true (server_was_called (log));
  }

  /* deny: exit 4, the rule named, the tool never called. */
  write_everything_settings (&dirs, node, script, log,
                             "{\"allow\": [\"mcp__everything__echo\"], \"deny\": [\"mcp__everything\"]}");
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "everything", "echo", "--args", args_json, "--yes");
    g_assert_cmpint (run.exit_status, ==, 4);
    assert_failure_line (&run, "mcp__everything__echo is denied by the permission rule “mcp__everything”");
    g_assert_cmpstr (run.out, ==, "");
    g_assert_true (g_file_test (log, G_FILE_TEST_EXISTS));
    g_assert_false (server_was_called (log));
  }

  /* ask without a terminal and without --yes: refused, not called. */
  write_everything_settings (&dirs, node, script, log, "{\"ask\": [\"mcp__everything__echo\"]}");
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "everything", "mcp__everything__echo", "--args", args_json);
    g_assert_cmpint (run.exit_status, ==, 4);
    assert_failure_line (&run, "the rule “mcp__everything__echo” asks, and there is no terminal to ask on; "
                               "run again with --yes to allow it");
    g_assert_cmpstr (run.out, ==, "");
    g_assert_false (server_was_called (log));
  }

  /* ask with --yes: it runs. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "everything", "echo", "--args", args_json, "--yes");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_cmpstr (run.out, ==, "Echo: hi\n");
    g_assert_true (server_was_called (log));
  }
}

/* The same ask/deny outcomes with the fixture, which is always there. */
static void
test_call_permissions_fixture (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *entry = NULL;
  g_autofree char *text = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  entry = fixture_entry ();
  text = g_strdup_printf ("{\"mcpServers\": {\"fx\": %s},\n"
                          " \"permissions\": {\"deny\": [\"mcp__fx__fail\"]}}\n", entry);
  test_write_file (dirs.user_file, text);

  {
    g_auto(TestRun) run = { 0 };

    /* No rule, and state declares no hints (destructive and open-world
     * by the defaults): it asks, and there is no terminal. */
    run_cli (&run, &dirs, "call", "fx", "state");
    g_assert_cmpint (run.exit_status, ==, 4);
    assert_failure_line (&run, "no permission rule allows it, and there is no terminal to ask on");
  }
  {
    g_auto(TestRun) run = { 0 };

    /* No rule, and echo is read-only and closed-world: the call itself is
     * the consent, terminal or not (issue 20). */
    run_cli (&run, &dirs, "call", "fx", "echo", "--args", "{\"message\":\"yo\"}");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "yo"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "fx", "echo", "--args", "{\"message\":\"yo\"}", "--yes", "--json");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\"yo\""));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "fx", "fail", "--yes");
    g_assert_cmpint (run.exit_status, ==, 4);
    assert_failure_line (&run, "denied by the permission rule “mcp__fx__fail”");
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "fx", "no-such-tool", "--yes");
    g_assert_cmpint (run.exit_status, ==, 3);
    assert_failure_line (&run, "“fx” has no tool “no-such-tool”");
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "nobody", "echo");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "No MCP server named “nobody”");
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "call", "fx", "echo", "--args", "[1]");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "--args must be a JSON object");
  }
}

/* The "ask" prompt on a terminal: plugboard-cli runs with its stdin, stdout
 * and stderr on the slave of a pseudo-terminal (its controlling terminal);
 * the test reads the master until the prompt shows, then types the answer. */
/* Runs plugboard-cli on a terminal, answers @answer once @prompt shows;
 * returns the exit status (-1 when killed) and everything shown, with the
 * terminal's \r\n. Fails, with what was read, when the CLI hangs. */
static int
run_cli_pty (TestDirs           *dirs,
             const char         *prompt,
             const char         *answer,
             const char * const *args,
             char              **out_seen)
{
  const TestRunStep steps[] = { { prompt, answer }, { NULL, NULL } };
  g_auto(TestRun) run = { 0 };
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  cli.bound_s = HANG_BOUND_S;
  test_cli_run_pty (&run, &cli, args, steps);
  if (!run.prompted)
    g_error ("the prompt “%s” never showed; the terminal showed:\n%s", prompt, run.out);

  *out_seen = g_steal_pointer (&run.out);
  return run.exit_status;
}

static void
test_call_asks_on_terminal (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *log = NULL;
  g_autofree char *shell = NULL;
  g_autofree char *shell_json = NULL;
  g_autofree char *text = NULL;
  g_autofree char *quoted_log = NULL;
  g_autofree char *quoted_fixture = NULL;
  /* extra-0 echoes and declares no hints: with no rule, it asks. */
  const char *prompt = "Allow mcp__fx__extra-0? [y/N] ";
  const char * const args[] = { "call", "fx", "extra-0", "--args", "{\"message\":\"pty-said-yes\"}", NULL };

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  log = g_build_filename (dirs.root, "fx-input.log", NULL);
  quoted_log = g_shell_quote (log);
  quoted_fixture = g_shell_quote (fixture_path);
  /* The fixture behind tee, so that the test sees every message it was sent;
   * no permission rule for echo, so call asks. */
  shell = g_strdup_printf ("tee -a %s | exec %s --tools 1", quoted_log, quoted_fixture);
  shell_json = test_json_string (shell);
  text = g_strdup_printf ("{\"mcpServers\": {\"fx\": {\"command\": \"sh\", \"args\": [\"-c\", %s]}},\n"
                          " \"permissions\": {\"deny\": [\"mcp__fx__fail\"]}}\n", shell_json);
  test_write_file (dirs.user_file, text);

  /* y: the tool runs, its output shows after the prompt. */
  {
    g_autofree char *seen = NULL;
    const char *after;
    int status;

    status = run_cli_pty (&dirs, prompt, "y\n", args, &seen);
    after = strstr (seen, prompt);
    g_assert_nonnull (after);
    g_assert_nonnull (strstr (after, "pty-said-yes"));
    g_assert_null (strstr (seen, "plugboard-cli: "));
    g_assert_cmpint (status, ==, 0);
    g_assert_true (server_was_called (log));
  }

  /* n, and a bare Enter (the default is no): exit 4, never called. */
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *seen = NULL;
      const char *after;
      int status;

      g_unlink (log);
      status = run_cli_pty (&dirs, prompt, i == 0 ? "n\n" : "\n", args, &seen);
      after = strstr (seen, prompt);
      g_assert_nonnull (after);
      g_assert_nonnull (strstr (after, "plugboard-cli: mcp__fx__extra-0 was not allowed to run"));
      g_assert_null (strstr (seen, "pty-said-yes"));
      g_assert_cmpint (status, ==, 4);
      /* The server ran (and was asked for its tools), but no tool was called. */
      g_assert_true (g_file_test (log, G_FILE_TEST_EXISTS));
      g_assert_false (server_was_called (log));
    }
}

/* 3. Editing through the CLI keeps every key it does not understand. The
 * files are written in the layout the engine writes, so that an edit and
 * its undoing give back the same bytes. */
static const char user_template[] =
  "{\n"
  "  \"theme\": \"dark\",\n"
  "  \"x-unknown\": {\n"
  "    \"nested\": [\n"
  "      1,\n"
  "      \"two\",\n"
  "      null\n"
  "    ]\n"
  "  },\n"
  "  \"mcpServers\": {\n"
  "    \"keep\": {\n"
  "      \"command\": \"/bin/true\",\n"
  "      \"x-entry-key\": \"kept\"\n"
  "    }\n"
  "  },\n"
  "  \"projects\": {\n"
  "    %s: {\n"
  "      \"x-project-key\": true,\n"
  "      \"mcpServers\": {\n"
  "        \"loc\": {\n"
  "          \"command\": \"/bin/true\"\n"
  "        }\n"
  "      }\n"
  "    }\n"
  "  },\n"
  "  \"zz-last\": 3\n"
  "}\n";

static const char project_template[] =
  "{\n"
  "  \"x-shared\": \"other clients' key\",\n"
  "  \"mcpServers\": {\n"
  "    \"shared\": {\n"
  "      \"type\": \"stdio\",\n"
  "      \"command\": \"/bin/true\",\n"
  "      \"x-shared-entry\": [\n"
  "        \"a\"\n"
  "      ]\n"
  "    }\n"
  "  }\n"
  "}\n";

static void
assert_file_equals (const char *path,
                    const char *expected)
{
  g_autofree char *contents = test_read_file (path);

  g_assert_cmpstr (contents, ==, expected);
}

static void
assert_file_contains (const char *path,
                      const char *needle)
{
  g_autofree char *contents = test_read_file (path);

  if (strstr (contents, needle) == NULL)
    g_error ("%s does not contain:\n%s\nit is:\n%s", path, needle, contents);
}

#define run_ok(dirs, ...) \
  G_STMT_START { \
    g_auto(TestRun) ok_run = { 0 }; \
    run_cli (&ok_run, (dirs), __VA_ARGS__); \
    g_assert_cmpint (ok_run.exit_status, ==, 0); \
  } G_STMT_END

static void
test_edit_keeps_unknown_keys (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *project_key = NULL;
  g_autofree char *user = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  project_key = test_json_string (dirs.project_dir);
  user = g_strdup_printf (user_template, project_key);
  test_write_file (dirs.user_file, user);
  test_write_file (dirs.project_file, project_template);

  /* add (user scope) and remove: the rest is untouched, then all is back. */
  run_ok (&dirs, "add", "--scope", "user", "--env", "K=V", "added", "--", "/bin/echo", "a b");
  assert_file_contains (dirs.user_file,
                        "  \"x-unknown\": {\n    \"nested\": [\n      1,\n      \"two\",\n      null\n    ]\n  },\n");
  assert_file_contains (dirs.user_file,
                        "    \"keep\": {\n      \"command\": \"/bin/true\",\n      \"x-entry-key\": \"kept\"\n    },\n");
  assert_file_contains (dirs.user_file, "      \"x-project-key\": true,\n");
  assert_file_contains (dirs.user_file, "  \"zz-last\": 3\n}\n");
  assert_file_contains (dirs.user_file, "\"args\": [\n        \"a b\"\n      ]");
  assert_file_equals (dirs.project_file, project_template);
  run_ok (&dirs, "remove", "added", "--scope", "user");
  assert_file_equals (dirs.user_file, user);

  /* disable and enable an entry with an unknown key of its own. */
  run_ok (&dirs, "disable", "keep");
  assert_file_contains (dirs.user_file, "      \"x-entry-key\": \"kept\",\n      \"enabled\": false\n");
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "get", "keep");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\n  enabled: no\n"));
    g_assert_nonnull (strstr (run.out, "\n  state: disabled\n"));
  }
  run_ok (&dirs, "enable", "keep");
  assert_file_equals (dirs.user_file, user);

  /* add-json (project scope) keeps the entry's own unknown keys too. */
  run_ok (&dirs, "add-json", "--scope", "project", "fromjson",
          "{\"command\": \"/bin/true\", \"x-mine\": {\"deep\": [true]}}");
  assert_file_contains (dirs.project_file,
                        "  \"x-shared\": \"other clients' key\",\n");
  assert_file_contains (dirs.project_file,
                        "      \"x-shared-entry\": [\n        \"a\"\n      ]\n    },\n");
  assert_file_contains (dirs.project_file,
                        "\"x-mine\": {\n        \"deep\": [\n          true\n        ]\n      }");
  run_ok (&dirs, "remove", "fromjson", "--scope", "project");
  assert_file_equals (dirs.project_file, project_template);

  /* add and remove in the local scope (the user file's projects entry). */
  run_ok (&dirs, "add", "web", "http://127.0.0.1:9/mcp", "--header", "X-Api-Key: k");
  assert_file_contains (dirs.user_file, "      \"x-project-key\": true,\n");
  assert_file_contains (dirs.user_file, "\"web\": {\n          \"type\": \"http\",\n"
                                        "          \"url\": \"http://127.0.0.1:9/mcp\",\n");
  run_ok (&dirs, "remove", "web");
  assert_file_equals (dirs.user_file, user);

  /* Refused edits leave the files alone. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "add", "--scope", "user", "keep", "--", "/bin/true");
    g_assert_cmpint (run.exit_status, ==, 5);
    assert_failure_line (&run, "keep");
    assert_file_equals (dirs.user_file, user);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "add-json", "bad", "{\"command\": 3}");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "command");
    assert_file_equals (dirs.user_file, user);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "add-json", "bad", "{\"command\": ");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "JSON is not valid");
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "add", "--transport", "sse", "x", "--", "/bin/true");
    g_assert_cmpint (run.exit_status, ==, 2);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "remove", "nothing-here");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "No MCP server named “nothing-here”");
  }
  assert_file_equals (dirs.user_file, user);
  assert_file_equals (dirs.project_file, project_template);
}

/* 4. Ten stdio servers: all end connected, in bounded time (run_cli's
 * bound); the batching itself is the manager's unit test. */
static void
test_list_ten_servers (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autoptr(GString) text = g_string_new ("{\"mcpServers\": {");
  g_autofree char *entry = NULL;
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  entry = fixture_entry ();
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (text, "%s\"s%u\": %s", i ? ", " : "", i, entry);
  g_string_append (text, "}}\n");
  test_write_file (dirs.user_file, text->str);

  run_cli (&run, &dirs, "list");
  g_assert_cmpint (run.exit_status, ==, 0);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", i);
      g_autofree char *state = list_line (&run, name, "user");

      g_assert_cmpstr (state, ==, "connected (10 tools)");
    }
}

/* get shows names, never secret values. */
static void
test_get_masks_secrets (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *command = NULL;
  g_autofree char *text = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  command = test_json_string (fixture_path);
  text = g_strdup_printf ("{\"mcpServers\": {\n"
                          "  \"local-one\": {\"command\": %s, \"args\": [\"--stderr-lines\", \"1\"],\n"
                          "                \"env\": {\"API_KEY\": \"sekrit-env-value\", \"MODE\": \"x\"}},\n"
                          "  \"remote\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp\",\n"
                          "             \"headers\": {\"Authorization\": \"Bearer sekrit-token\"}}}}\n",
                          command);
  test_write_file (dirs.user_file, text);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "get", "local-one");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_true (g_str_has_prefix (run.out, "local-one\n  scope: user\n"));
    g_assert_nonnull (strstr (run.out, "\n  env: API_KEY=***, MODE=***\n"));
    g_assert_nonnull (strstr (run.out, "\n  args: --stderr-lines 1\n"));
    g_assert_nonnull (strstr (run.out, "\n  transport: stdio\n"));
    g_assert_nonnull (strstr (run.out, "\n  state: connected (10 tools)\n"));
    /* The fixture is of the handshake era: the era probe found it so. */
    g_assert_nonnull (strstr (run.out, "\n  protocol: 2025-11-25 (handshake)\n"));
    g_assert_nonnull (strstr (run.out, "\n  tools: 10\n"));
    g_assert_null (strstr (run.out, "sekrit"));
    g_assert_null (strstr (run.err, "sekrit"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "get", "remote");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\n  url: http://127.0.0.1:9/mcp\n"));
    g_assert_nonnull (strstr (run.out, "\n  headers: Authorization: ***\n"));
    g_assert_nonnull (strstr (run.out, "\n  state: failed: "));
    g_assert_null (strstr (run.out, "sekrit"));
    g_assert_null (strstr (run.err, "sekrit"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "list");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_null (strstr (run.out, "sekrit"));
    g_assert_null (strstr (run.err, "sekrit"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "get", "absent");
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "No MCP server named “absent”");
  }
}

/* A file that does not parse: exit 5 naming file, line and column; never
 * written over. */
static void
test_broken_file (void)
{
  g_auto(TestDirs) dirs = { 0 };
  const char *broken = "{\n  \"mcpServers\": {\n    \"a\": {,\n";
  g_autofree char *needle = NULL;
  g_autofree char *bak = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  test_write_file (dirs.user_file, broken);
  needle = g_strdup_printf ("%s: Invalid JSON at line 3, column 11", dirs.user_file);
  bak = g_strdup_printf ("%s.bak", dirs.user_file);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "list");
    g_assert_cmpint (run.exit_status, ==, 5);
    assert_failure_line (&run, needle);
    g_assert_nonnull (strstr (run.out, "Problems:\n"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "add", "--scope", "user", "x", "--", "/bin/true");
    g_assert_cmpint (run.exit_status, ==, 5);
    assert_failure_line (&run, dirs.user_file);
    assert_failure_line (&run, "line 3, column 11");
  }
  {
    g_auto(TestRun) run = { 0 };

    /* The local scope lives in the same file. */
    run_cli (&run, &dirs, "add", "y", "--", "/bin/true");
    g_assert_cmpint (run.exit_status, ==, 5);
  }
  {
    g_auto(TestRun) run = { 0 };

    /* Its permission lists are unknown: no call goes on. */
    run_cli (&run, &dirs, "call", "a", "echo", "--yes");
    g_assert_cmpint (run.exit_status, ==, 5);
    assert_failure_line (&run, needle);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "tools");
    g_assert_cmpint (run.exit_status, ==, 5);
    assert_failure_line (&run, needle);
  }
  assert_file_equals (dirs.user_file, broken);
  g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));
}

/* --project and --config-dir are what they say; without them, the current
 * directory and $XDG_CONFIG_HOME/plugboard. */
static void
test_project_and_config_dir (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *xdg_dir = NULL;
  g_autofree char *xdg_file = NULL;
  g_autofree char *other_project = NULL;
  g_autofree char *local_text = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  xdg_dir = g_build_filename (dirs.root, "xdg-config", "plugboard", NULL);
  g_assert_cmpint (g_mkdir_with_parents (xdg_dir, 0700), ==, 0);
  xdg_file = g_build_filename (xdg_dir, "settings.json", NULL);
  other_project = g_build_filename (dirs.root, "elsewhere", NULL);
  g_assert_cmpint (g_mkdir_with_parents (other_project, 0700), ==, 0);

  test_write_file (xdg_file, "{\"mcpServers\": {\"fromxdg\": {\"command\": \"/bin/true\", \"enabled\": false}}}\n");
  test_write_file (dirs.user_file, "{\"mcpServers\": {\"fromdir\": {\"command\": \"/bin/true\", \"enabled\": false}}}\n");
  test_write_file (dirs.project_file, "{\"mcpServers\": {\"fromproj\": {\"command\": \"/bin/true\"}}}\n");

  {
    g_auto(TestRun) run = { 0 };

    /* The defaults: the current directory, $XDG_CONFIG_HOME/plugboard. */
    run_cli_full (&run, &dirs, FALSE, dirs.project_dir, (const char * const []) { "list", NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\nfromxdg "));
    g_assert_nonnull (strstr (run.out, "\nfromproj "));
    g_assert_null (strstr (run.out, "fromdir"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli_full (&run, &dirs, FALSE, other_project,
                  (const char * const []) { "list", "--config-dir", dirs.user_dir, NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\nfromdir "));
    g_assert_null (strstr (run.out, "fromxdg"));
    g_assert_null (strstr (run.out, "fromproj"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli_full (&run, &dirs, FALSE, other_project,
                  (const char * const []) { "list", "--project", dirs.project_dir, NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "\nfromproj "));
  }
  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *key = test_json_string (other_project);

    /* add's default scope is local: under projects["<--project>"], on
     * the one line the file is written on. */
    run_cli_full (&run, &dirs, FALSE, dirs.project_dir,
                  (const char * const []) { "add", "--config-dir", dirs.user_dir,
                                            "--project", other_project, "mine", "--", "/bin/true", NULL });
    g_assert_cmpint (run.exit_status, ==, 0);
    local_text = g_strdup_printf ("\"projects\": {%s: {\"mcpServers\": {\"mine\": {", key);
    assert_file_contains (dirs.user_file, local_text);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli_full (&run, &dirs, FALSE, dirs.project_dir,
                  (const char * const []) { "list", "--project", "/nonexistent-dir-xyz", NULL });
    g_assert_cmpint (run.exit_status, ==, 2);
    assert_failure_line (&run, "not a directory");
  }
}

/* Issue 20, finding 2: approve p, change its command in .mcp.json: ping
 * refuses it and does not run it, list and get say "changed since
 * approval", approve shows what changed and binds the new command. */
static void
test_approval_changed (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *entry = NULL;
  g_autofree char *project = NULL;
  g_autofree char *marker = NULL;
  g_autofree char *script = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *fixture = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-settings");
  entry = fixture_entry ();
  project = g_strdup_printf ("{\"mcpServers\": {\"p\": %s}}\n", entry);
  test_write_file (dirs.project_file, project);
  marker = g_build_filename (dirs.root, "changed-command-ran", NULL);
  script = g_strdup_printf ("touch '%s'; exec '%s'", marker, fixture_path);
  {
    g_autofree char *quoted = test_json_string (script);

    changed = g_strdup_printf ("{\"mcpServers\": {\"p\": {\"command\": \"/bin/sh\", "
                               "\"args\": [\"-c\", %s], \"env\": {\"TOKEN\": \"s3cr3t-approval-value\"}}}}\n",
                               quoted);
  }

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "approve", "p");
    g_assert_cmpint (run.exit_status, ==, 0);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "ping", "p");
    g_assert_cmpint (run.exit_status, ==, 0);
  }

  test_write_file (dirs.project_file, changed);
  fixture = g_strdup_printf ("“%s” → “/bin/sh”", fixture_path);

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "ping", "p");
    g_assert_cmpint (run.exit_status, ==, 4);
    assert_failure_line (&run, "changed since it was approved");
    assert_failure_line (&run, "plugboard-cli approve p");
    g_assert_nonnull (strstr (run.err, fixture));
    g_assert_nonnull (strstr (run.err, "TOKEN: added (***)"));
    g_assert_null (strstr (run.err, "s3cr3t-approval-value"));
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TestRun) run = { 0 };
    g_autofree char *line = NULL;

    run_cli (&run, &dirs, "list");
    g_assert_cmpint (run.exit_status, ==, 0);
    line = list_line (&run, "p", "project");
    g_assert_cmpstr (line, ==, "disabled: changed since approval (plugboard-cli approve p)");
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "get", "p");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "  approval: changed since approval"));
    g_assert_nonnull (strstr (run.out, fixture));
    g_assert_null (strstr (run.out, "s3cr3t-approval-value"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "approve", "p");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "“p” changed since it was approved:"));
    g_assert_nonnull (strstr (run.out, fixture));
    g_assert_null (strstr (run.out, "s3cr3t-approval-value"));
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TestRun) run = { 0 };

    /* approved again: now it runs */
    run_cli (&run, &dirs, "ping", "p");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
}

/* The names of everything under @dir but @dir/.mcp.json, one per line. */
static void
list_other_files (const char *dir,
                  const char *relative,
                  GString    *out)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *shown = relative ? g_build_filename (relative, name, NULL) : g_strdup (name);

      if (relative == NULL && g_str_equal (name, ".mcp.json"))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        list_other_files (path, shown, out);
      else
        g_string_append_printf (out, "%s\n", shown);
    }
}

/* Issue 23, point 11: `add --scope project` (and remove) write .mcp.json
 * and nothing else in the project, backups included, even when
 * $XDG_STATE_HOME is a relative path (which GLib would take relative to
 * the working directory, the project): the XDG specification says to
 * ignore it, and the backups go to ~/.local/state/plugboard/backups. */
static void
test_project_add_no_backup_in_project (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autoptr(GString) others = g_string_new (NULL);
  g_autofree char *home = NULL;
  g_autofree char *backups = NULL;
  g_autoptr(GDir) backup_dir = NULL;
  const char *env[5];
  guint n_backups = 0;

  if (cli_path == NULL)
    {
      g_test_skip ("MCP_TEST_PLUGBOARD_CLI is not set");
      return;
    }
  test_dirs_init_cli (&dirs, "cli-settings");
  home = g_build_filename (dirs.root, "home", NULL);
  g_assert_cmpint (g_mkdir_with_parents (home, 0700), ==, 0);
  env[0] = "HOME";
  env[1] = home;
  env[2] = "XDG_STATE_HOME";
  env[3] = "state";
  env[4] = NULL;

  for (guint i = 0; i < 3; i++)
    {
      g_auto(TestRun) run = { 0 };
      g_autofree char *name = g_strdup_printf ("server%u", i);
      TestCli cli;

      test_cli_init (&cli, cli_path, &dirs);
      cli.env = env;
      cli.bound_s = HANG_BOUND_S;
      if (i < 2)
        test_cli_run (&run, &cli, TEST_CLI_ARGS ("add", "--scope", "project", name, "--", "echo", "hi"));
      else
        test_cli_run (&run, &cli, TEST_CLI_ARGS ("remove", "server0", "--scope", "project"));
      g_assert_cmpint (run.exit_status, ==, 0);
    }

  g_assert_true (g_file_test (dirs.project_file, G_FILE_TEST_EXISTS));
  list_other_files (dirs.project_dir, NULL, others);
  g_assert_cmpstr (others->str, ==, "");

  /* The two edits of an existing file were backed up, in the home. */
  backups = g_build_filename (home, ".local", "state", "plugboard", "backups", NULL);
  backup_dir = g_dir_open (backups, 0, NULL);
  g_assert_nonnull (backup_dir);
  while (g_dir_read_name (backup_dir) != NULL)
    n_backups++;
  g_assert_cmpuint (n_backups, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-settings/list/shadowing", test_list_shadowing);
  g_test_add_func ("/cli-settings/approval/changed", test_approval_changed);
  g_test_add_func ("/cli-settings/everything/permissions", test_everything_permissions);
  g_test_add_func ("/cli-settings/call/permissions-fixture", test_call_permissions_fixture);
  g_test_add_func ("/cli-settings/call/asks-on-terminal", test_call_asks_on_terminal);
  g_test_add_func ("/cli-settings/edit/unknown-keys", test_edit_keeps_unknown_keys);
  g_test_add_func ("/cli-settings/list/ten-servers", test_list_ten_servers);
  g_test_add_func ("/cli-settings/get/masks-secrets", test_get_masks_secrets);
  g_test_add_func ("/cli-settings/broken-file", test_broken_file);
  g_test_add_func ("/cli-settings/project-and-config-dir", test_project_and_config_dir);
  g_test_add_func ("/cli-settings/add/no-backup-in-project", test_project_add_no_backup_in_project);

  return g_test_run ();
}
