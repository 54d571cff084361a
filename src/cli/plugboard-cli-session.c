/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"


#include "plugboard-cli-private.h"

/* plugboard-cli log-level and tasks: what one server's session holds. */

/* log-level */

typedef struct
{
  PlugboardCli      *cli;
  gboolean  closed;
} Follow;

static void
on_follow_log_message_cb (McpClient  *client,
                          const char *level,
                          const char *logger,
                          JsonNode   *data,
                          gpointer    user_data)
{
  g_autofree char *text = NULL;
  g_autofree char *level_shown = plugboard_cli_escape (level ? level : "?");
  g_autofree char *logger_shown = logger ? plugboard_cli_escape (logger) : NULL;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (data));
  else if (data != NULL)
    text = plugboard_cli_json_to_string (data, FALSE);

  g_print ("%s%s%s: %s\n", level_shown,
           logger ? " " : "", logger ? logger_shown : "", text ? text : "");
  fflush (stdout);
}

static void
on_follow_closed_cb (McpClient    *client,
                     const GError *reason,
                     Follow       *follow)
{
  follow->closed = TRUE;
}

int
plugboard_cli_log_level (PlugboardCli *cli,
                         int           argc,
                         char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  gulong handler;
  gboolean follow_opt = FALSE;
  GOptionEntry entries[] = {
    { "follow", 'f', 0, G_OPTION_ARG_NONE, &follow_opt,
      N_("Then print the server's log messages (“level logger: data”) until Ctrl-C"), NULL },
    { NULL }
  };
  const char * const *levels = mcp_client_get_log_levels ();
  const char *server, *level;
  int status;

  if ((status = plugboard_cli_start_server_verb (cli, entries, FALSE, &argc, &argv, 1,
                                   _("the log level (debug, info, notice, warning, error, "
                                   "critical, alert or emergency)"))) != 0)
    return status;
  level = argv[2];

  if (!g_strv_contains (levels, level))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) levels);

      return plugboard_cli_usage_error (cli->verb, _("“%s” is not a log level; the levels are %s"), level, list);
    }

  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;
  server = plugboard_cli_server_name (cli, connection);

  doing = g_strdup_printf (_("setting the log level of “%s” failed"), server);
  mcp_server_connection_set_log_level_async (connection, level, cli->cancellable,
                                             plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_server_connection_set_log_level_finish (connection, result, &error))
    return plugboard_cli_request_failure (cli, connection, doing, error);

  if (!follow_opt)
    {
      g_print (_("“%s” now sends log messages of level %s and above.\n"), server, level);
      return 0;
    }

  g_printerr (_("Following the log messages of “%s” (level %s and above); Ctrl-C stops.\n"),
              server, level);
  client = mcp_server_connection_get_client (connection);
  handler = g_signal_connect (client, "log-message", G_CALLBACK (on_follow_log_message_cb), NULL);
  status = plugboard_cli_follow (cli, connection, server);
  g_signal_handler_disconnect (client, handler);
  return status;
}

/* Waits until Ctrl-C, which is how following ends (130, no failure line),
 * or until the session closes (3, said). */
int
plugboard_cli_follow (PlugboardCli        *cli,
                      McpServerConnection *connection,
                      const char          *server)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  Follow follow = { cli, FALSE };

  g_signal_connect (client, "closed", G_CALLBACK (on_follow_closed_cb), &follow);
  while (!cli->interrupted && !follow.closed)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handlers_disconnect_by_data (client, &follow);

  if (!cli->interrupted)
    {
      const GError *reason = mcp_server_connection_get_error (connection);

      plugboard_cli_print_failure (cli, _("“%s” closed the session%s%s"), server,
                                   reason ? ": " : "", reason ? reason->message : "");
      plugboard_cli_print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }

  cli->said_cancelled = TRUE;
  return EXIT_INTERRUPTED;
}

/* tasks */

int
plugboard_cli_tasks (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  gboolean retried = FALSE;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tasks = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  const char *server;
  int status;

  if ((status = plugboard_cli_start_server_verb (cli, NULL, TRUE, &argc, &argv, 0, NULL)) != 0)
    return status;
  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;

  server = plugboard_cli_server_name (cli, connection);
  doing = g_strdup_printf (_("listing the tasks of “%s” failed"), server);
  do
    {
      g_clear_object (&result);
      client = mcp_server_connection_get_client (connection);
      mcp_client_list_tasks_async (client, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      tasks = mcp_client_list_tasks_finish (client, result, &error);
    }
  while (tasks == NULL && plugboard_cli_renew_session (cli, connection, &retried, &error));
  if (tasks == NULL)
    return plugboard_cli_request_failure (cli, connection, doing, error);

  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
      g_autoptr(JsonArray) array = json_array_new ();

      for (guint i = 0; i < tasks->len; i++)
        json_array_add_object_element (array, json_object_ref (mcp_task_get_json (g_ptr_array_index (tasks, i))));
      json_node_set_array (node, array);
      plugboard_cli_print_json (node);
    }
  else if (tasks->len == 0 && !plugboard_cli_server_declares (connection, "tasks", "list"))
    plugboard_cli_print_none (cli, connection, _("a task list"), "tasks", "list");
  else if (tasks->len == 0)
    /* A stdio server's tasks live as long as its process: a new run starts
     * with none. */
    g_print (_("“%s” has no tasks in this session.\n"), server);
  else
    {
      int widths[3] = { plugboard_cli_display_width (_("ID")), plugboard_cli_display_width (_("STATUS")),
                        plugboard_cli_display_width (_("UPDATED")) };

      for (guint i = 0; i < tasks->len; i++)
        {
          McpTask *task = g_ptr_array_index (tasks, i);
          const char *updated = mcp_task_get_last_updated_at (task);

          widths[0] = MAX (widths[0], plugboard_cli_display_width (mcp_task_get_id (task)));
          widths[1] = MAX (widths[1], plugboard_cli_display_width (mcp_task_get_status_string (task)));
          widths[2] = MAX (widths[2], plugboard_cli_display_width (updated ? updated : "-"));
        }

      plugboard_cli_print_table_row (widths, 4, (const char *[]) { _("ID"), _("STATUS"), _("UPDATED"), _("MESSAGE") });
      for (guint i = 0; i < tasks->len; i++)
        {
          McpTask *task = g_ptr_array_index (tasks, i);
          const char *updated = mcp_task_get_last_updated_at (task);
          const char *message = mcp_task_get_status_message (task);
          g_autofree char *line = message ? plugboard_cli_one_line (message) : NULL;

          plugboard_cli_print_table_row (widths, 4, (const char *[]) {
                             mcp_task_get_id (task), mcp_task_get_status_string (task),
                             updated ? updated : "-", line ? line : "" });
        }
    }

  return 0;
}
