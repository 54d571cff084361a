/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-permissions"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-permissions.h"
#include "mcp-settings.h"
#include "permission-table.h"
#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 20, finding 3: the real plugboard-cli call, on a terminal (a
 * pseudo-terminal the test answers on), without one, with --yes and with
 * --json, against a stdio server with one tool per set of hints (this
 * program, run with --serve), decides what the documented table says and
 * what the evaluator the app makes from the same settings
 * (mcp_permissions_new_from_settings()) decides. */

#define HANG_BOUND_S 60

static const char *cli_path;
static char *self_path;

/* ------------------------------------------------------------------------ */
/* The server: --serve LOG                                                  */

static void
send_message (JsonObject *message)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_object_set_string_member (message, "jsonrpc", "2.0");
  json_node_take_object (node, message);
  text = json_to_string (node, FALSE);
  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

static JsonObject *
answer_to (JsonNode *id)
{
  JsonObject *message = json_object_new ();

  json_object_set_member (message, "id", json_node_copy (id));
  return message;
}

static JsonObject *
tools_list (void)
{
  JsonObject *result = json_object_new ();
  JsonArray *tools = json_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (table_tools); i++)
    {
      JsonObject *tool = json_object_new ();
      JsonObject *schema = json_object_new ();

      json_object_set_string_member (tool, "name", table_tools[i].name);
      json_object_set_string_member (schema, "type", "object");
      json_object_set_object_member (tool, "inputSchema", schema);
      if (table_tools[i].annotations != NULL)
        json_object_set_member (tool, "annotations", json_from_string (table_tools[i].annotations, NULL));
      json_array_add_object_element (tools, tool);
    }
  json_object_set_array_member (result, "tools", tools);
  return result;
}

static int
serve (const char *log_path)
{
  char *line = NULL;
  size_t size = 0;

  while (getline (&line, &size, stdin) > 0)
    {
      g_autoptr(JsonNode) node = json_from_string (line, NULL);
      JsonObject *request;
      JsonNode *id;
      const char *method;
      JsonObject *params;
      JsonObject *message;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      request = json_node_get_object (node);
      id = json_object_get_member (request, "id");
      method = json_object_get_string_member_with_default (request, "method", "");
      params = json_object_has_member (request, "params") &&
               JSON_NODE_HOLDS_OBJECT (json_object_get_member (request, "params"))
               ? json_object_get_object_member (request, "params") : NULL;
      if (id == NULL)
        continue;  /* a notification, or an answer */

      message = answer_to (id);
      if (g_str_equal (method, "initialize"))
        {
          JsonObject *result = json_object_new ();
          JsonObject *capabilities = json_object_new ();
          JsonObject *info = json_object_new ();

          json_object_set_string_member (result, "protocolVersion",
                                         params ? json_object_get_string_member_with_default (params, "protocolVersion",
                                                                                              "2025-06-18")
                                                : "2025-06-18");
          json_object_set_object_member (capabilities, "tools", json_object_new ());
          json_object_set_object_member (result, "capabilities", capabilities);
          json_object_set_string_member (info, "name", "permission-table");
          json_object_set_string_member (info, "version", "1");
          json_object_set_object_member (result, "serverInfo", info);
          json_object_set_object_member (message, "result", result);
        }
      else if (g_str_equal (method, "tools/list"))
        json_object_set_object_member (message, "result", tools_list ());
      else if (g_str_equal (method, "ping"))
        json_object_set_object_member (message, "result", json_object_new ());
      else if (g_str_equal (method, "tools/call") && params != NULL)
        {
          const char *name = json_object_get_string_member_with_default (params, "name", "");
          g_autofree char *text = g_strdup_printf ("called %s", name);
          JsonObject *result = json_object_new ();
          JsonArray *content = json_array_new ();
          JsonObject *block = json_object_new ();
          FILE *log = fopen (log_path, "a");

          if (log != NULL)
            {
              fprintf (log, "%s\n", name);
              fclose (log);
            }
          json_object_set_string_member (block, "type", "text");
          json_object_set_string_member (block, "text", text);
          json_array_add_object_element (content, block);
          json_object_set_array_member (result, "content", content);
          json_object_set_object_member (message, "result", result);
        }
      else
        {
          JsonObject *error = json_object_new ();

          json_object_set_int_member (error, "code", -32601);
          json_object_set_string_member (error, "message", "Method not found");
          json_object_set_object_member (message, "error", error);
        }
      send_message (message);
    }

  free (line);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Running plugboard-cli                                                    */

typedef struct
{
  TestDirs  d;
  char     *log;
} Dirs;

static void
dirs_init (Dirs *dirs)
{
  test_dirs_init_cli (&dirs->d, "cli-permissions");
  dirs->log = g_build_filename (dirs->d.root, "calls.log", NULL);
}

static void
dirs_clear (Dirs *dirs)
{
  test_dirs_clear (&dirs->d);
  g_clear_pointer (&dirs->log, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Dirs, dirs_clear)

/* The user settings: the servers srv and srv__x (both this program), and
 * @rule_text in the list @list (NULL: no permissions). */
static void
write_settings (Dirs       *dirs,
                const char *list,
                const char *rule_text)
{
  g_autofree char *file = g_build_filename (dirs->d.user_dir, "settings.json", NULL);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  const char *names[] = { "srv", "srv__x" };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      json_builder_set_member_name (builder, names[i]);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "command");
      json_builder_add_string_value (builder, self_path);
      json_builder_set_member_name (builder, "args");
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, "--serve");
      json_builder_add_string_value (builder, dirs->log);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  if (list != NULL)
    {
      json_builder_set_member_name (builder, "permissions");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, list);
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, rule_text);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  test_write_file (file, text);
}

/* What the app decides on the same files: its evaluator is made by
 * mcp_permissions_new_from_settings() from the loaded settings. */
static McpPermissionDecision
app_decision (Dirs               *dirs,
              const char         *server,
              const TableTool    *tool,
              McpPermissions    **keep)
{
  g_autoptr(McpSettings) settings = mcp_settings_new (dirs->d.user_dir, dirs->d.project_dir);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpPermissionDecision decision = { 0 };

  mcp_settings_load_async (settings, NULL, test_result_cb, &result);
  test_iterate_until (test_result_set, &result, "settings loaded");
  g_assert_true (mcp_settings_load_finish (settings, result, &error));
  g_assert_no_error (error);
  g_clear_object (keep);
  *keep = mcp_permissions_new_from_settings (settings);
  mcp_permissions_decide (*keep, server, tool->name, tool->effective, &decision);
  return decision;
}

typedef struct
{
  int       status;      /* -1: killed */
  char     *shown;       /* stdout and stderr (a terminal: both) */
  gboolean  prompted;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->shown, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* plugboard-cli in the temporary home, TERM=dumb. */
static void
cli_init (TestCli *cli,
          Dirs    *dirs)
{
  static const char * const env[] = { "TERM", "dumb", NULL };

  test_cli_init (cli, cli_path, &dirs->d);
  cli->env = env;
  cli->bound_s = HANG_BOUND_S;
}

static GSubprocessLauncher *
new_launcher (Dirs             *dirs,
              GSubprocessFlags  flags)
{
  TestCli cli;

  cli_init (&cli, dirs);
  return test_cli_launcher (&cli, flags);
}

/* No terminal: stdin an empty pipe, stdout and stderr pipes. */
static void
run_piped (Run                *run,
           Dirs               *dirs,
           const char * const *argv)
{
  g_auto(TestRun) piped = { 0 };

  test_run_piped (&piped, new_launcher (dirs, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                              G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                              G_SUBPROCESS_FLAGS_STDERR_PIPE),
                  argv, NULL, HANG_BOUND_S);
  run->status = piped.exit_status;
  run->shown = g_strconcat (piped.out, piped.err, NULL);
}

/* On a terminal: answers @answer when @prompt shows (and notes that it
 * showed). */
static void
run_pty (Run                *run,
         Dirs               *dirs,
         const char * const *argv,
         const char         *prompt,
         const char         *answer)
{
  g_auto(TestRun) pty = { 0 };

  test_run_pty (&pty, new_launcher (dirs, G_SUBPROCESS_FLAGS_NONE), argv, prompt, answer, HANG_BOUND_S);
  run->status = pty.exit_status;
  run->prompted = pty.prompted;
  run->shown = g_steal_pointer (&pty.out);
}

static gboolean
was_called (Dirs       *dirs,
            const char *tool)
{
  g_autofree char *contents = NULL;
  g_autofree char *line = g_strdup_printf ("%s\n", tool);

  if (!g_file_get_contents (dirs->log, &contents, NULL, NULL))
    return FALSE;
  return g_str_has_prefix (contents, line) || strstr (contents, line) != NULL;
}

static const char *
outcome_name (TableOutcome outcome)
{
  switch (outcome)
    {
    case TABLE_RUNS: return "runs";
    case TABLE_DENIED: return "denied";
    case TABLE_REFUSED: return "refused";
    case TABLE_NOBODY_TO_ASK: return "nobody to ask";
    default: return "?";
    }
}

/* Calls srv's @tool with @answer and asserts the outcome. */
static void
call_and_check (Dirs            *dirs,
                const char      *server,
                const TableTool *tool,
                TableAnswer      answer,
                TableOutcome     outcome,
                gboolean         asks)
{
  g_auto(Run) run = { 0 };
  g_autofree char *prompt = g_strdup_printf ("Allow mcp__%s__%s? [y/N] ", server, tool->name);
  g_autofree char *called = g_strdup_printf ("called %s", tool->name);
  /* (NULL: no flag, and the end of the arguments) */
  const char *flag = answer == TABLE_YES_FLAG ? "--yes" : answer == TABLE_JSON ? "--json" : NULL;
  g_autoptr(GPtrArray) argv = NULL;
  TestCli cli;

  cli_init (&cli, dirs);
  argv = test_cli_argv (&cli, TEST_CLI_ARGS ("call", server, tool->name, flag));

  g_unlink (dirs->log);
  switch (answer)
    {
    case TABLE_ANSWER_YES:
      run_pty (&run, dirs, (const char * const *) argv->pdata, prompt, "y\n");
      break;
    case TABLE_ANSWER_NO:
      run_pty (&run, dirs, (const char * const *) argv->pdata, prompt, "n\n");
      break;
    case TABLE_JSON:
      run_pty (&run, dirs, (const char * const *) argv->pdata, prompt, NULL);
      break;
    case TABLE_NO_TERMINAL:
    case TABLE_YES_FLAG:
    default:
      run_piped (&run, dirs, (const char * const *) argv->pdata);
      break;
    }

  g_test_message ("%s %s answer %d: expected %s; exit %d%s\n%s", server, tool->name, answer,
                  outcome_name (outcome), run.status, run.prompted ? ", prompted" : "", run.shown);

  /* The prompt shows exactly when the decision asks and a person can answer. */
  g_assert_cmpint (run.prompted, ==, asks && (answer == TABLE_ANSWER_YES || answer == TABLE_ANSWER_NO));
  switch (outcome)
    {
    case TABLE_RUNS:
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.shown, called));
      g_assert_true (was_called (dirs, tool->name));
      break;
    case TABLE_DENIED:
      g_assert_cmpint (run.status, ==, 4);
      g_assert_nonnull (strstr (run.shown, "is denied by the permission rule"));
      g_assert_false (was_called (dirs, tool->name));
      break;
    case TABLE_REFUSED:
      g_assert_cmpint (run.status, ==, 4);
      g_assert_nonnull (strstr (run.shown, "was not allowed to run"));
      g_assert_false (was_called (dirs, tool->name));
      break;
    case TABLE_NOBODY_TO_ASK:
      g_assert_cmpint (run.status, ==, 4);
      g_assert_nonnull (strstr (run.shown, answer == TABLE_JSON ? "--json asks no questions"
                                                                : "there is no terminal to ask on"));
      g_assert_nonnull (strstr (run.shown, "--yes"));
      g_assert_false (was_called (dirs, tool->name));
      break;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
have_cli (void)
{
  if (cli_path == NULL || !g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("MCP_TEST_PLUGBOARD_CLI is not set or not built");
      return FALSE;
    }
  return TRUE;
}

/* A representative part of the table: no rule, an allow for the server,
 * an ask and a deny for the tool, times five sets of hints, times every
 * way of answering. */
static void
test_table (void)
{
  static const struct { TableRule rule; TableLevel level; } rules[] = {
    { TABLE_RULE_NONE, TABLE_LEVEL_SERVER },
    { TABLE_RULE_ALLOW, TABLE_LEVEL_SERVER },
    { TABLE_RULE_ASK, TABLE_LEVEL_TOOL },
    { TABLE_RULE_DENY, TABLE_LEVEL_TOOL },
  };
  static const char * const tools[] = { "read", "destroy", "open", "bare", "read_open" };
  g_auto(Dirs) dirs = { 0 };
  g_autoptr(McpPermissions) keep = NULL;
  guint rows = 0;

  if (!have_cli ())
    return;
  dirs_init (&dirs);

  for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
    for (guint t = 0; t < G_N_ELEMENTS (tools); t++)
      {
        const TableTool *tool = NULL;
        g_autofree char *rule_text = NULL;
        McpPermissionDecision decision;

        for (guint i = 0; i < G_N_ELEMENTS (table_tools); i++)
          if (g_str_equal (table_tools[i].name, tools[t]))
            tool = &table_tools[i];
        g_assert_nonnull (tool);

        rule_text = table_rule_text (rules[r].level, "srv", tool->name);
        write_settings (&dirs, table_rule_list (rules[r].rule), rule_text);

        /* The app's evaluator on these files agrees with the table. */
        decision = app_decision (&dirs, "srv", tool, &keep);
        g_assert_cmpint (decision.permission, ==, table_expected_permission (rules[r].rule, tool->effective));
        g_assert_cmpint (decision.reason, ==, table_expected_reason (rules[r].rule, tool->effective));

        /* ... and the CLI does what that decision means, for every answer. */
        for (TableAnswer answer = 0; answer < TABLE_N_ANSWERS; answer++)
          {
            call_and_check (&dirs, "srv", tool, answer,
                            table_expected_outcome (decision.permission, answer),
                            decision.permission == MCP_PERMISSION_ASK);
            rows++;
          }
      }

  g_assert_cmpuint (rows, ==, 4 * 5 * TABLE_N_ANSWERS);
}

/* allow: ["mcp__srv"] does not reach the server srv__x; a deny for
 * srv__x's tool does not reach srv's tool "x__bare" reading. */
static void
test_other_server (void)
{
  const TableTool *bare = &table_tools[4];
  const TableTool *read = &table_tools[0];
  g_auto(Dirs) dirs = { 0 };
  g_autoptr(McpPermissions) keep = NULL;
  McpPermissionDecision decision;

  if (!have_cli ())
    return;
  g_assert_cmpstr (bare->name, ==, "bare");
  dirs_init (&dirs);
  write_settings (&dirs, "allow", "mcp__srv");

  decision = app_decision (&dirs, "srv__x", bare, &keep);
  g_assert_cmpint (decision.reason, ==, MCP_PERMISSION_REASON_DEFAULT_ASK);
  call_and_check (&dirs, "srv__x", bare, TABLE_NO_TERMINAL, TABLE_NOBODY_TO_ASK, TRUE);
  call_and_check (&dirs, "srv__x", bare, TABLE_ANSWER_NO, TABLE_REFUSED, TRUE);
  call_and_check (&dirs, "srv", bare, TABLE_NO_TERMINAL, TABLE_RUNS, FALSE);

  /* deny for srv__x's read: srv's read still runs */
  write_settings (&dirs, "deny", "mcp__srv__x__read");
  call_and_check (&dirs, "srv__x", read, TABLE_YES_FLAG, TABLE_DENIED, FALSE);
  call_and_check (&dirs, "srv", read, TABLE_NO_TERMINAL, TABLE_RUNS, FALSE);
}

/* A server given on the command line has no rules: the command line is
 * the consent, for a destructive, open-world tool, with no terminal. */
static void
test_command_line (void)
{
  g_auto(Dirs) dirs = { 0 };
  g_auto(Run) run = { 0 };

  if (!have_cli ())
    return;
  dirs_init (&dirs);
  write_settings (&dirs, "deny", "mcp__srv");
  {
    const char * const argv[] = { cli_path, "call", "bare", "--", self_path, "--serve", dirs.log, NULL };

    run_piped (&run, &dirs, argv);
  }
  g_test_message ("%s", run.shown);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.shown, "called bare"));
  g_assert_true (was_called (&dirs, "bare"));
}

/* plugboard-cli tools gives each tool's decision with its reason, in the
 * words the app uses, and notes a rule that could name two servers. */
static void
test_tools_listing (void)
{
  g_auto(Dirs) dirs = { 0 };
  McpPermissionDecision consent = { MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_DEFAULT_CONSENT, NULL };
  g_autofree char *consent_text = mcp_permission_decision_describe (&consent);

  if (!have_cli ())
    return;
  dirs_init (&dirs);
  /* srv's tool x__read, or srv__x's tool read: it allows neither. */
  write_settings (&dirs, "allow", "mcp__srv__x__read");

  {
    g_auto(Run) run = { 0 };
    const char * const argv[] = { cli_path, "tools", "--config-dir", dirs.d.user_dir,
                                  "--project", dirs.d.project_dir, "--json", NULL };

    run_piped (&run, &dirs, argv);
    g_test_message ("%s", run.shown);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.shown, "\"default-consent\""));
    g_assert_nonnull (strstr (run.shown, "\"default-ask\""));
    g_assert_null (strstr (run.shown, "\"rule\" : \"mcp__srv__x__read\""));
    g_assert_nonnull (strstr (run.shown, "note: The permission rule “mcp__srv__x__read” could name the servers"));
    g_assert_nonnull (strstr (run.shown, "it allows none of them"));
  }
  {
    g_auto(Run) run = { 0 };
    const char * const argv[] = { cli_path, "tools", "--config-dir", dirs.d.user_dir,
                                  "--project", dirs.d.project_dir, "srv", NULL };
    g_autofree char *line = g_strdup_printf ("mcp__srv__read\n  hints: read-only, idempotent\n"
                                             "  permission: allow (%s)\n", consent_text);

    run_piped (&run, &dirs, argv);
    g_test_message ("%s", run.shown);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.shown, line));
  }
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--serve"))
    return serve (argv[2]);

  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_assert_nonnull (self_path);

  g_test_add_func ("/cli/permissions/table", test_table);
  g_test_add_func ("/cli/permissions/other-server", test_other_server);
  g_test_add_func ("/cli/permissions/command-line", test_command_line);
  g_test_add_func ("/cli/permissions/tools-listing", test_tools_listing);

  return g_test_run ();
}
