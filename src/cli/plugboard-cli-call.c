/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "mcp-error.h"
#include "mcp-tool.h"
#include "mcp-ui-resource.h"

#include <string.h>

#include "plugboard-cli-interaction.h"

/* plugboard-cli call: one tool call through McpProject (McpCall) — the
 * project's permissions (an ad-hoc server's: the command line is the
 * consent), the person asked through the project's interaction, progress
 * and task status on stderr, the result post-processed — for a configured
 * server and an ad-hoc one alike. */

/* The call's progress and its task's status, on stderr. */
static void
on_progress_cb (McpCall    *call,
                double      progress,
                double      total,
                const char *message,
                gpointer    user_data)
{
  plugboard_cli_show_progress (user_data, progress, total, message);
}

typedef struct
{
  PlugboardCli *cli;
  char         *last_line;   /* each status line is shown once */
} TaskLines;

static void
on_task_cb (McpCall    *call,
            GParamSpec *pspec,
            TaskLines  *lines)
{
  McpTask *task = mcp_call_get_task (call);

  if (task != NULL)
    plugboard_cli_print_task_status (lines->cli, task, &lines->last_line);
}

static McpPoolTool *
find_pool_tool (PlugboardCli *cli,
                const char   *server,
                const char   *tool_name)
{
  McpToolPool *pool = mcp_project_get_tool_pool (cli->project);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (pool));

  if (!cli->ad_hoc && g_str_has_prefix (tool_name, "mcp__"))
    {
      McpPoolTool *tool = mcp_tool_pool_lookup (pool, tool_name);

      if (tool != NULL && g_str_equal (mcp_pool_tool_get_server_name (tool), server))
        return g_object_ref (tool);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (G_LIST_MODEL (pool), i);

      if (g_str_equal (mcp_pool_tool_get_server_name (tool), server) &&
          g_str_equal (mcp_tool_get_name (mcp_pool_tool_get_tool (tool)), tool_name))
        return g_steal_pointer (&tool);
    }

  return NULL;
}

/* The options and words of either form: SERVER TOOL, or TOOL and the
 * server itself. */
static int
parse_call (PlugboardCli *cli,
            GOptionEntry *entries,
            int          *argc,
            char       ***argv)
{
  int status;

  if (plugboard_cli_is_ad_hoc (*argc, *argv))
    {
      if ((status = plugboard_cli_parse_ad_hoc_options (cli, entries, TRUE, argc, argv)) != 0)
        return status;
      return plugboard_cli_check_count (cli, *argc, *argv, 1, 1, _("the name of the tool to call"));
    }

  if ((status = plugboard_cli_parse_settings_options (cli, entries, FALSE, TRUE, argc, argv)) != 0)
    return status;
  return plugboard_cli_check_count (cli, *argc, *argv, 2, 2,
                                    *argc - 1 < 1 ? _("the name of the server")
                                                  : _("the name of the tool to call"));
}

/* The tool, or the exit status after saying why not. */
static int
find_tool (PlugboardCli        *cli,
           McpServerConnection *connection,
           const char          *tool_name,
           gboolean             as_task,
           McpPoolTool        **out_tool)
{
  const char *server = mcp_server_connection_get_name (connection);
  g_autoptr(McpPoolTool) tool = find_pool_tool (cli, server, tool_name);
  const char *task_support;

  if (tool == NULL && cli->ad_hoc)
    {
      plugboard_cli_print_failure (cli, _("“%s” has no tool “%s”"),
                                   plugboard_cli_server_name (cli, connection), tool_name);
      return EXIT_CONNECTION;
    }
  if (tool == NULL)
    {
      plugboard_cli_print_failure (cli, _("“%s” has no tool “%s” (see “%s tools %s”)"),
                                   server, tool_name, PROGRAM_NAME, server);
      return EXIT_CONNECTION;
    }

  task_support = mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool));
  if (as_task && g_strcmp0 (task_support, "optional") != 0 && g_strcmp0 (task_support, "required") != 0)
    {
      if (cli->ad_hoc)
        plugboard_cli_print_failure (cli, _("“%s” cannot run as a task (its execution.taskSupport is “%s”); "
                                     "call it without --task"), tool_name, task_support);
      else
        plugboard_cli_print_failure (cli, _("%s cannot run as a task (its execution.taskSupport is “%s”); "
                                     "call it without --task"),
                                     mcp_pool_tool_get_qualified_name (tool), task_support);
      return EXIT_USAGE;
    }

  *out_tool = g_steal_pointer (&tool);
  return 0;
}

static const char *
structured_check_name (McpStructuredCheck check)
{
  switch (check)
    {
    case MCP_STRUCTURED_CHECK_INVALID:     return "invalid";
    case MCP_STRUCTURED_CHECK_MISSING:     return "missing";
    case MCP_STRUCTURED_CHECK_TOO_COMPLEX: return "too-complex";
    default:                               return "unknown";
    }
}

/* --json: the result as it is, and when its structured content is not what
 * the tool's output schema says, a "structuredContentProblem" member
 * after the server's: {"kind": "invalid" | "missing" | "too-complex",
 * "message": "…", "problems": ["structuredContent.count: …", …]}. */
static void
print_json_result (McpProcessedResult *processed)
{
  JsonObject *result = mcp_tool_result_get_json (mcp_processed_result_get_result (processed));
  const char *message = mcp_processed_result_get_structured_message (processed);
  const char * const *problems = mcp_processed_result_get_structured_problems (processed);
  g_autoptr(JsonObject) shown = NULL;
  JsonObject *problem;
  JsonArray *list;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (message == NULL)
    {
      plugboard_cli_print_json_object (result);
      return;
    }

  shown = json_object_new ();
  json_object_iter_init_ordered (&iter, result);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    json_object_set_member (shown, name, json_node_ref (member));

  problem = json_object_new ();
  json_object_set_string_member (problem, "kind",
                                 structured_check_name (mcp_processed_result_get_structured_check (processed)));
  json_object_set_string_member (problem, "message", message);
  list = json_array_new ();
  for (guint i = 0; problems != NULL && problems[i] != NULL; i++)
    json_array_add_string_element (list, problems[i]);
  json_object_set_array_member (problem, "problems", list);
  json_object_set_object_member (shown, "structuredContentProblem", problem);
  plugboard_cli_print_json_object (shown);
}

/* call, and app (@app: --save DIR, the interface read before the call
 * and written with the call's input and result after it). */
static int
call_verb (PlugboardCli *cli,
           int           argc,
           char        **argv,
           gboolean      app)
{
  g_autofree char *save_dir = NULL;
  g_autoptr(McpUiResource) resource = NULL;
  g_autofree char *args_text = NULL;
  g_auto(GStrv) tool_args = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(McpPoolTool) tool = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(McpCall) call = NULL;
  McpServerConnection *connection;
  TaskLines lines = { cli, NULL };
  gboolean yes = FALSE;
  gboolean as_task = FALSE;
  GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &args_text, N_("The tool's arguments, a JSON object"), N_("JSON") },
    { "tool-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tool_args,
      N_("One argument, typed by the tool's inputSchema (repeatable; wins over --args)"), N_("KEY=VALUE") },
    { "yes", 'y', 0, G_OPTION_ARG_NONE, &yes, N_("Answer yes when the permission rules ask"), NULL },
    { "task", 0, 0, G_OPTION_ARG_NONE, &as_task,
      N_("Run the tool as a task when it may run either way (execution.taskSupport "
      "“optional”; a “required” one always is); Ctrl-C cancels the task"), NULL },
    { "interactive", 0, 0, G_OPTION_ARG_NONE, &cli->interactive_requested,
      N_("Answer the server's sampling and elicitation requests on the terminal"), NULL },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save_dir,
      N_("The folder to write the interface (interface.html, interface.json) and the call "
      "(input.json, result.json) into"), N_("DIR") },
    { NULL }
  };
  McpToolResult *tool_result;
  const char *tool_name;
  int status;

  /* Only app has --save. */
  if (!app)
    memset (&entries[G_N_ELEMENTS (entries) - 2], 0, sizeof entries[0]);

  if ((status = parse_call (cli, entries, &argc, &argv)) != 0 ||
      (status = plugboard_cli_parse_arguments (cli, args_text, &arguments)) != 0)
    return status;
  tool_name = argv[cli->ad_hoc ? 1 : 2];
  if (app && (save_dir == NULL || *save_dir == '\0'))
    return plugboard_cli_usage_error (cli->verb, _("Say where to save the interface with --save DIR"));

  /* An ad-hoc call's limit: --timeout, or MCP_TOOL_TIMEOUT. */
  if (cli->ad_hoc && cli->timeout_ms == 0 &&
      !plugboard_cli_check_limit (cli, MCP_LIMIT_TOOL_TIMEOUT, &error))
    return plugboard_cli_usage_error (cli->verb, "%s", error->message);

  if ((status = plugboard_cli_open_server (cli, cli->ad_hoc ? NULL : argv[1], &connection)) != 0 ||
      (status = find_tool (cli, connection, tool_name, as_task, &tool)) != 0 ||
      (status = plugboard_cli_add_tool_args (cli, mcp_pool_tool_get_tool (tool),
                                             (const char * const *) tool_args, &arguments)) != 0)
    return status;
  if (cli->timeout_ms > 0)
    g_object_set (plugboard_cli_get_manager (cli), "tool-timeout", cli->timeout_ms, NULL);
  if (app && (status = plugboard_cli_read_interface (cli, connection, tool, &resource)) != 0)
    return status;

  /* The server's log messages go to stderr as they come (stdout is the
   * result's). */
  cli->show_server_log = TRUE;
  plugboard_cli_interaction_set_yes (PLUGBOARD_CLI_INTERACTION (mcp_project_get_interaction (cli->project)),
                                     yes);
  call = mcp_project_new_call (cli->project, tool, arguments,
                               as_task ? MCP_CALL_FLAGS_AS_TASK : MCP_CALL_FLAGS_NONE);
  g_signal_connect (call, "progress", G_CALLBACK (on_progress_cb), cli);
  g_signal_connect (call, "notify::task", G_CALLBACK (on_task_cb), &lines);
  mcp_call_run_async (call, cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  processed = mcp_call_run_finish (call, result, &error);
  g_signal_handlers_disconnect_by_data (call, cli);
  g_signal_handlers_disconnect_by_data (call, &lines);
  plugboard_cli_end_progress_line (cli);
  g_clear_pointer (&lines.last_line, g_free);

  if (processed == NULL)
    {
      g_autofree char *description = NULL;

      if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return plugboard_cli_cancelled (cli);
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED))
        {
          plugboard_cli_print_failure (cli, "%s", error->message);
          return EXIT_PERMISSION;
        }
      description = plugboard_cli_describe_error (error);
      plugboard_cli_print_failure (cli, _("calling “%s” failed: %s"),
                                   plugboard_cli_tool_name (cli, tool), description);
      plugboard_cli_print_json_error (cli, error);
      plugboard_cli_print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }

  /* stdout is the result alone; what was saved and noted goes to stderr. */
  tool_result = mcp_processed_result_get_result (processed);
  if (cli->json)
    print_json_result (processed);
  else
    plugboard_cli_print_tool_result (tool_result);
  plugboard_cli_print_processed_notes (stderr, processed, TRUE);

  /* A warning, not a failure: the tool ran and its result is all there. */
  if (mcp_processed_result_get_structured_message (processed) != NULL)
    g_printerr (_("%s: warning: %s\n"), PROGRAM_NAME, mcp_processed_result_get_structured_message (processed));

  if (resource != NULL &&
      (status = plugboard_cli_save_interface (cli, save_dir, resource, arguments,
                                              mcp_tool_result_get_json (tool_result))) != 0)
    return status;
  if (!app)
    plugboard_cli_note_interface (cli, tool);

  if (mcp_tool_result_get_is_error (tool_result))
    {
      plugboard_cli_print_failure (cli, _("the tool “%s” reported an error"),
                                   plugboard_cli_tool_name (cli, tool));
      return EXIT_TOOL_ERROR;
    }
  return 0;
}

int
plugboard_cli_call (PlugboardCli *cli,
                    int           argc,
                    char        **argv)
{
  return call_verb (cli, argc, argv, FALSE);
}

int
plugboard_cli_app (PlugboardCli *cli,
                   int           argc,
                   char        **argv)
{
  return call_verb (cli, argc, argv, TRUE);
}
