/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-log-entry.h"
#include "mcp-stdio-transport.h"

#include "plugboard-cli-interaction.h"

/* plugboard-cli: the McpProject a verb runs on — the person's settings
 * with only the servers the verb needs connected, or one server given on
 * the command line (an unsaved config in a project of its own): the same
 * manager, connections, tool pool and permissions either way. */

McpSettings *
plugboard_cli_get_settings (PlugboardCli *cli)
{
  return mcp_project_get_settings (cli->project);
}

McpServerManager *
plugboard_cli_get_manager (PlugboardCli *cli)
{
  return mcp_project_get_manager (cli->project);
}

/* The servers' logs: warnings always, stderr and log messages with -v */

static void
print_log_entry (PlugboardCli *cli,
                 McpLogEntry  *entry)
{
  const char *text = mcp_log_entry_get_text (entry);

  switch (mcp_log_entry_get_kind (entry))
    {
    case MCP_LOG_ENTRY_WARNING:
      /* Said whether -v or not: a tool left out of the listing must not
       * just be missing. */
      fflush (stdout);
      plugboard_cli_end_progress_line (cli);
      /* Translators: the program's name, then what Plugboard set aside. */
      g_printerr (_("%s: warning: %s\n"), PROGRAM_NAME, text);
      break;

    case MCP_LOG_ENTRY_STDERR:
      if (!cli->verbose)
        break;
      plugboard_cli_end_progress_line (cli);
      g_printerr (_("server: %s\n"), text);
      break;

    case MCP_LOG_ENTRY_MESSAGE:
      {
        const char *level = mcp_log_entry_get_level (entry);
        const char *logger = mcp_log_entry_get_logger (entry);
        g_autofree char *prefix = g_strdup_printf ("%s%s%s: ", level ? level : "",
                                                   logger ? " " : "", logger ? logger : "");
        g_autofree char *data = NULL;
        g_autofree char *level_shown = NULL;
        g_autofree char *logger_shown = NULL;

        if (!cli->verbose && !cli->show_server_log)
          break;
        /* One line each, whatever the server put in it. */
        data = plugboard_cli_one_line (g_str_has_prefix (text, prefix) ? text + strlen (prefix) : text);
        level_shown = plugboard_cli_one_line (level ? level : "?");
        logger_shown = logger ? plugboard_cli_one_line (logger) : NULL;
        fflush (stdout);
        plugboard_cli_end_progress_line (cli);
        g_printerr (_("server log [%s]%s%s: %s\n"),
                    level_shown, logger ? " " : "", logger ? logger_shown : "", data);
      }
      break;

    case MCP_LOG_ENTRY_NOTIFICATION:
      plugboard_cli_print_elicitation_complete (cli, text);
      break;

    case MCP_LOG_ENTRY_STATE:
    default:
      break;
    }
}

static void
on_log_items_changed_cb (GListModel   *log,
                         guint         position,
                         guint         removed,
                         guint         added,
                         PlugboardCli *cli)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      print_log_entry (cli, entry);
    }
}

static void
on_connections_changed_cb (GListModel   *connections,
                           guint         position,
                           guint         removed,
                           guint         added,
                           PlugboardCli *cli)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (connections, i);
      GListModel *log = mcp_server_connection_get_log (connection);

      if (g_ptr_array_find (cli->watched_logs, log, NULL))
        continue;
      g_ptr_array_add (cli->watched_logs, g_object_ref (log));
      g_signal_connect (log, "items-changed", G_CALLBACK (on_log_items_changed_cb), cli);
    }
}

/* Before any server connects: the person at the terminal as the
 * project's interaction (it declares sampling and form elicitation only
 * with --interactive on a terminal), and the servers' logs followed. */
void
plugboard_cli_set_up_project (PlugboardCli *cli)
{
  g_autoptr(McpInteraction) interaction = plugboard_cli_interaction_new (cli);
  McpServerManager *manager = plugboard_cli_get_manager (cli);

  mcp_project_set_interaction (cli->project, interaction);
  plugboard_cli_size_traces (cli, manager);
  cli->watched_logs = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (manager, "items-changed", G_CALLBACK (on_connections_changed_cb), cli);
}

/* Loading */

int
plugboard_cli_load_project (PlugboardCli       *cli,
                            const char * const *connect_only)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *project = NULL;
  g_autofree char *config_dir = NULL;

  project = g_canonicalize_filename (cli->project_opt ? cli->project_opt : ".", cwd);
  if (!g_file_test (project, G_FILE_TEST_IS_DIR))
    return plugboard_cli_usage_error (cli->verb, _("--project %s: not a directory"), project);
  if (cli->config_dir_opt != NULL)
    config_dir = g_canonicalize_filename (cli->config_dir_opt, cwd);

  if (cli->client == MCP_CLIENT_KIND_PLUGBOARD)
    cli->project = mcp_project_new (project, config_dir);
  else
    cli->project = mcp_project_new_for_client (cli->client, project, config_dir);
  mcp_project_set_connect_only (cli->project, connect_only);

  /* Claude Desktop has one file, Plugboard three: a --scope the client
   * lacks is the person's mistake, said before anything is read. */
  if (cli->scope_opt != NULL)
    {
      McpConfigScope scope;

      if (plugboard_cli_parse_scope (cli->scope_opt, &scope) &&
          !mcp_settings_has_scope (mcp_project_get_settings (cli->project), scope))
        /* TRANSLATORS: %s: a client ("Claude Desktop"); %s: user, project or local */
        return plugboard_cli_usage_error (cli->verb, _("%s has no %s settings"),
                                          mcp_client_kind_get_display_name (cli->client),
                                          cli->scope_opt);
    }

  plugboard_cli_set_up_project (cli);

  return plugboard_cli_finish_loading (cli);
}

/* Loads @cli's project (set up): the settings are read, and the servers
 * it is to connect start connecting. */
int
plugboard_cli_finish_loading (PlugboardCli *cli)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_project_load_async (cli->project, cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_project_load_finish (cli->project, result, &error))
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  return 0;
}

/* Waits until every server the manager has settled. */
int
plugboard_cli_settle (PlugboardCli *cli)
{
  McpServerManager *manager = plugboard_cli_get_manager (cli);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_server_manager_wait_settled_async (manager, cli->cancellable,
                                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_server_manager_wait_settled_finish (manager, result, &error))
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_CONNECTION;
    }
  return 0;
}

void
plugboard_cli_close_project (PlugboardCli *cli)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpServerManager *manager;

  if (cli->project == NULL)
    return;

  /* A fresh cancellable: the verb's may have been cancelled, and the
   * servers must be stopped all the same. */
  manager = plugboard_cli_get_manager (cli);
  mcp_server_manager_close_async (manager, NULL, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_server_manager_close_finish (manager, result, &error))
    g_debug ("Closing the servers: %s", error->message);
  plugboard_cli_write_trace (cli, manager);

  g_signal_handlers_disconnect_by_data (manager, cli);
  for (guint i = 0; cli->watched_logs != NULL && i < cli->watched_logs->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (cli->watched_logs, i), cli);
  g_clear_pointer (&cli->watched_logs, g_ptr_array_unref);
  g_clear_object (&cli->project);

  if (cli->ad_hoc_cache_dir != NULL)
    {
      g_autoptr(GDir) dir = g_dir_open (cli->ad_hoc_cache_dir, 0, NULL);
      const char *file;

      while (dir != NULL && (file = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (cli->ad_hoc_cache_dir, file, NULL);

          g_unlink (path);
        }
      g_rmdir (cli->ad_hoc_cache_dir);
      g_clear_pointer (&cli->ad_hoc_cache_dir, g_free);
    }
}

/* The person insists (a second Ctrl-C): the stdio servers go now. */
void
plugboard_cli_kill_servers (PlugboardCli *cli)
{
  GListModel *connections;

  if (cli->project == NULL)
    return;

  connections = G_LIST_MODEL (plugboard_cli_get_manager (cli));
  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (connections, i);
      McpClient *client = mcp_server_connection_get_client (connection);
      McpTransport *transport = client ? mcp_client_get_transport (client) : NULL;
      GPid pid;
      int status;

      if (!MCP_IS_STDIO_TRANSPORT (transport))
        continue;
      pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (transport));
      if (pid > 0 && !mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (transport), &status))
        {
          kill (-pid, SIGKILL);
          kill (pid, SIGKILL);
        }
    }
}

int
plugboard_cli_open_server (PlugboardCli         *cli,
                           const char           *name,
                           McpServerConnection **out_connection)
{
  g_autoptr(McpServerConnection) connection = NULL;
  int status;

  *out_connection = NULL;
  if (cli->ad_hoc)
    status = plugboard_cli_open_ad_hoc (cli);
  else
    {
      const char *only[] = { name, NULL };

      if ((status = plugboard_cli_load_project (cli, only)) != 0 ||
          (status = plugboard_cli_refuse_broken_files (cli)) != 0 ||
          plugboard_cli_lookup_or_fail (cli, name, &status) == NULL)
        return status;
    }
  if (status != 0 || (status = plugboard_cli_settle (cli)) != 0)
    return status;

  connection = g_list_model_get_item (G_LIST_MODEL (plugboard_cli_get_manager (cli)), 0);
  if (connection == NULL)
    {
      plugboard_cli_print_failure (cli, _("“%s” has no connection"), name);
      return EXIT_CONNECTION;
    }
  if ((status = plugboard_cli_require_connected (cli, connection)) != 0)
    return status;
  /* An ad-hoc verb's --timeout bounds its requests (call's, the tool's). */
  if (cli->ad_hoc_words != NULL && cli->timeout_ms > 0)
    mcp_client_set_request_timeout (mcp_server_connection_get_client (connection), cli->timeout_ms);

  /* Owned by the manager, which the project keeps until the end. */
  *out_connection = connection;
  return 0;
}

/* After a request on @connection failed with *@error: when the server said
 * its session expired and the request was not sent again yet (*@retried),
 * starts a new session (as tool calls and listings do) and returns TRUE:
 * the caller sends its request once more, on the connection's new client.
 * A new session that fails replaces *@error with why. */
gboolean
plugboard_cli_renew_session (PlugboardCli        *cli,
                             McpServerConnection *connection,
                             gboolean            *retried,
                             GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) renew_error = NULL;

  if (*retried || !g_error_matches (*error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED))
    return FALSE;

  *retried = TRUE;
  mcp_server_connection_renew_session_async (connection, cli->cancellable,
                                             plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_server_connection_reconnect_finish (connection, result, &renew_error))
    {
      g_clear_error (error);
      g_propagate_error (error, g_steal_pointer (&renew_error));
      return FALSE;
    }

  /* The new client's requests are bounded as the old one's were. */
  if (cli->ad_hoc && cli->timeout_ms > 0)
    mcp_client_set_request_timeout (mcp_server_connection_get_client (connection), cli->timeout_ms);
  g_clear_error (error);
  return TRUE;
}
