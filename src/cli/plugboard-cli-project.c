/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-log-entry.h"
#include "mcp-redact.h"
#include "mcp-server-info.h"
#include "mcp-stdio-transport.h"

#include "plugboard-cli-private.h"

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
        const char *data = g_str_has_prefix (text, prefix) ? text + strlen (prefix) : text;

        if (!cli->verbose)
          break;
        plugboard_cli_end_progress_line (cli);
        g_printerr (_("server log [%s]%s%s: %s\n"),
                    level ? level : "?", logger ? " " : "", logger ? logger : "", data);
      }
      break;

    case MCP_LOG_ENTRY_NOTIFICATION:
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

static void
on_server_request_cb (McpServerConnection *connection,
                      const char          *method,
                      JsonObject          *params,
                      GTask               *reply,
                      gpointer             user_data)
{
  PlugboardCli *cli = user_data;

  plugboard_cli_answer_request (cli, plugboard_cli_server_name (cli, connection), method, params, reply);
}

/* Before any server connects: what the servers are offered, and their
 * logs followed. roots/list is the project's (an ad-hoc server has none).
 * Sampling and elicitation only with a person at the terminal; without,
 * they are not declared. */
static void
set_up_manager (PlugboardCli     *cli,
                McpServerManager *manager)
{
  if (plugboard_cli_is_interactive (cli))
    {
      g_autoptr(JsonObject) sampling = plugboard_cli_sampling_capabilities ();
      g_autoptr(JsonObject) elicitation = plugboard_cli_elicitation_capabilities ();

      mcp_server_manager_set_request_handler (manager, "sampling/createMessage", sampling,
                                              on_server_request_cb, cli, NULL);
      mcp_server_manager_set_request_handler (manager, "elicitation/create", elicitation,
                                              on_server_request_cb, cli, NULL);
    }

  cli->watched_logs = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (manager, "items-changed", G_CALLBACK (on_connections_changed_cb), cli);
}

/* Loading */

int
plugboard_cli_load_project (PlugboardCli       *cli,
                            const char * const *connect_only)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *project = NULL;
  g_autofree char *config_dir = NULL;

  project = g_canonicalize_filename (cli->project_opt ? cli->project_opt : ".", cwd);
  if (!g_file_test (project, G_FILE_TEST_IS_DIR))
    return plugboard_cli_usage_error (cli->verb, _("--project %s: not a directory"), project);
  if (cli->config_dir_opt != NULL)
    config_dir = g_canonicalize_filename (cli->config_dir_opt, cwd);

  cli->project = mcp_project_new (project, config_dir);
  mcp_project_set_connect_only (cli->project, connect_only);
  set_up_manager (cli, mcp_project_get_manager (cli->project));

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

  g_signal_handlers_disconnect_by_data (manager, cli);
  for (guint i = 0; cli->watched_logs != NULL && i < cli->watched_logs->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (cli->watched_logs, i), cli);
  g_clear_pointer (&cli->watched_logs, g_ptr_array_unref);
  g_clear_object (&cli->project);

  if (cli->ad_hoc_cache_dir != NULL)
    {
      g_autofree char *cache = g_build_filename (cli->ad_hoc_cache_dir, "needs-auth.json", NULL);

      g_unlink (cache);
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

/* The settings */

/* A file that cannot be used at all (does not parse, not an object), or
 * NULL. Its message names the file, and the line and column. */
const McpSettingsProblem *
plugboard_cli_find_file_problem (PlugboardCli *cli)
{
  GPtrArray *problems = mcp_settings_get_problems (plugboard_cli_get_settings (cli));

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      if (g_strcmp0 (problem->json_path, "$") == 0)
        return problem;
    }
  return NULL;
}

/* The verbs that act on what the settings say (permissions included) do
 * not go on with a file they cannot read. */
int
plugboard_cli_refuse_broken_files (PlugboardCli *cli)
{
  const McpSettingsProblem *problem = plugboard_cli_find_file_problem (cli);

  if (problem == NULL)
    return 0;
  plugboard_cli_print_failure (cli, "%s", problem->message);
  return EXIT_SETTINGS;
}

static gboolean
problem_is_about (const McpSettingsProblem *problem,
                  const char               *name)
{
  g_autofree char *dotted = g_strdup_printf (".%s", name);
  g_autofree char *quoted = g_strdup_printf ("[\"%s\"]", name);

  return problem->json_path != NULL &&
         (g_str_has_suffix (problem->json_path, dotted) ||
          g_str_has_suffix (problem->json_path, quoted));
}


static McpApproval
connection_approval (PlugboardCli                 *cli,
                     McpServerConnection *connection)
{
  McpServerConfig *config = mcp_server_connection_get_config (connection);

  if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT)
    return MCP_APPROVAL_NOT_NEEDED;
  return mcp_settings_get_approval (plugboard_cli_get_settings (cli), mcp_server_config_get_name (config));
}

/* What changed in the project server @name since it was approved, one
 * indented line each (masked, escaped), on @out; nothing when it did not. */
void
plugboard_cli_print_approval_changes (PlugboardCli        *cli,
                        const char *name,
                        FILE       *out)
{
  g_auto(GStrv) changes = mcp_settings_dup_approval_changes (plugboard_cli_get_settings (cli), name);

  for (guint i = 0; changes != NULL && changes[i] != NULL; i++)
    {
      g_autofree char *shown = plugboard_cli_escape (changes[i]);

      fprintf (out, "    %s\n", shown);
    }
}

/* A one-line description of a connection's state, for list and get. */
char *
plugboard_cli_describe_state (PlugboardCli                 *cli,
                McpServerConnection *connection)
{
  const char *name = mcp_server_connection_get_name (connection);
  const GError *error = mcp_server_connection_get_error (connection);
  McpServerState state = mcp_server_connection_get_state (connection);
  g_autofree char *reason = error ? plugboard_cli_one_line (error->message) : NULL;

  switch (state)
    {
    case MCP_SERVER_STATE_CONNECTED:
      {
        guint n = g_list_model_get_n_items (mcp_server_connection_get_tools (connection));

        return g_strdup_printf (ngettext ("connected (%u tool)", "connected (%u tools)", n), n);
      }
    case MCP_SERVER_STATE_FAILED:
      /* TRANSLATORS: a server's state in "plugboard-cli list"; %s is why. */
      return g_strdup_printf (_("failed: %s"), reason ? reason : _("no reason given"));
    case MCP_SERVER_STATE_NEEDS_AUTH:
      /* TRANSLATORS: a server's state in "plugboard-cli list" when it needs
       * "plugboard-cli login"; %s is what the server said. */
      return g_strdup_printf (_("needs-auth: %s"), reason ? reason : _("no reason given"));
    case MCP_SERVER_STATE_DISABLED:
      switch (connection_approval (cli, connection))
        {
        case MCP_APPROVAL_PENDING:
          {
            g_autofree char *shown = plugboard_cli_escape (name);

            return g_strdup_printf (_("disabled: approval pending (%s approve %s)"), PROGRAM_NAME, shown);
          }
        case MCP_APPROVAL_REJECTED:
          return g_strdup (_("disabled: rejected"));
        case MCP_APPROVAL_CHANGED:
          {
            g_autofree char *shown = plugboard_cli_escape (name);

            /* TRANSLATORS: a server's state in "plugboard-cli list": what it runs is not what was approved */
            return g_strdup_printf (_("disabled: changed since approval (%s approve %s)"), PROGRAM_NAME, shown);
          }
        case MCP_APPROVAL_NOT_NEEDED:
        case MCP_APPROVAL_APPROVED:
        default:
          return g_strdup (_("disabled"));
        }
    case MCP_SERVER_STATE_PENDING:
    default:
      /* TRANSLATORS: a server's state in "plugboard-cli list": not connected yet. */
      return g_strdup (_("pending"));
    }
}

/* The exit status and one-line reason when @connection is not connected,
 * or 0. */
static int
require_connected_configured (PlugboardCli                 *cli,
                   McpServerConnection *connection)
{
  const char *name = mcp_server_connection_get_name (connection);
  const GError *error = mcp_server_connection_get_error (connection);

  switch (mcp_server_connection_get_state (connection))
    {
    case MCP_SERVER_STATE_CONNECTED:
      return 0;

    case MCP_SERVER_STATE_DISABLED:
      switch (connection_approval (cli, connection))
        {
        case MCP_APPROVAL_PENDING:
          plugboard_cli_print_failure (cli, _("“%s” is a project server (.mcp.json) not approved yet; "
                                     "approve it with “%s approve %s”"), name, PROGRAM_NAME, name);
          return EXIT_PERMISSION;
        case MCP_APPROVAL_REJECTED:
          plugboard_cli_print_failure (cli, _("“%s” is a project server (.mcp.json) that was rejected; "
                                     "approve it with “%s approve %s”"), name, PROGRAM_NAME, name);
          return EXIT_PERMISSION;
        case MCP_APPROVAL_CHANGED:
          plugboard_cli_print_failure (cli, _("“%s” is a project server (.mcp.json) that changed since it was "
                                     "approved, so it was not started; see what changed and approve "
                                     "it again with “%s approve %s”. What changed:"),
                         name, PROGRAM_NAME, name);
          plugboard_cli_print_approval_changes (cli, name, stderr);
          return EXIT_PERMISSION;
        case MCP_APPROVAL_NOT_NEEDED:
        case MCP_APPROVAL_APPROVED:
        default:
          plugboard_cli_print_failure (cli, _("“%s” is disabled; enable it with “%s enable %s”"),
                         name, PROGRAM_NAME, name);
          return EXIT_CONNECTION;
        }

    case MCP_SERVER_STATE_NEEDS_AUTH:
      plugboard_cli_print_failure (cli, _("“%s” needs sign-in: %s (sign in with “%s login %s”)"),
                     name, error ? error->message : _("the server asked for authorization"),
                     PROGRAM_NAME, name);
      return EXIT_CONNECTION;

    case MCP_SERVER_STATE_FAILED:
    case MCP_SERVER_STATE_PENDING:
    default:
      plugboard_cli_print_failure (cli, _("could not connect to “%s”: %s"), name,
                     error ? error->message : _("it did not settle"));
      plugboard_cli_print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }
}

McpServerConfig *
plugboard_cli_lookup_or_fail (PlugboardCli        *cli,
                const char *name,
                int        *status)
{
  McpServerConfig *config = mcp_settings_lookup (plugboard_cli_get_settings (cli), name);
  GPtrArray *problems = mcp_settings_get_problems (plugboard_cli_get_settings (cli));

  *status = 0;
  if (config != NULL)
    return config;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      if (problem_is_about (problem, name))
        {
          plugboard_cli_print_failure (cli, "%s", problem->message);
          *status = EXIT_SETTINGS;
          return NULL;
        }
    }

  plugboard_cli_print_failure (cli, _("No MCP server named “%s” in the user, project or local settings (project %s)"),
                 name, mcp_settings_get_project_dir (plugboard_cli_get_settings (cli)));
  *status = EXIT_USAGE;
  return NULL;
}

/* An ad-hoc server */

/* What the command line gave: the command, or the URL (masked). */
static char *
describe_ad_hoc (PlugboardCli *cli)
{
  GString *text;

  if (cli->server_argv == NULL)
    return mcp_redact_url (cli->http_url ? cli->http_url : cli->sse_url ? cli->sse_url : cli->ws_url);

  text = g_string_new (NULL);
  for (guint i = 0; cli->server_argv[i] != NULL; i++)
    {
      const char *arg = cli->server_argv[i];

      if (i > 0)
        g_string_append_c (text, ' ');
      if (arg[0] == '\0' || strpbrk (arg, " \t\n'\"\\") != NULL)
        {
          g_autofree char *quoted = g_shell_quote (arg);

          g_string_append (text, quoted);
        }
      else
        g_string_append (text, arg);
    }
  return g_string_free (text, FALSE);
}

/* The server as an "mcpServers" entry, and a name for it: the command's
 * file name, or the URL's host. */
static JsonObject *
ad_hoc_entry (PlugboardCli  *cli,
              char         **out_name)
{
  JsonObject *entry = json_object_new ();
  const char *url = cli->http_url ? cli->http_url : cli->sse_url ? cli->sse_url : cli->ws_url;
  g_autoptr(GUri) uri = NULL;

  if (cli->server_argv != NULL)
    {
      JsonArray *args = json_array_new ();

      json_object_set_string_member (entry, "command", cli->server_argv[0]);
      for (guint i = 1; cli->server_argv[i] != NULL; i++)
        json_array_add_string_element (args, cli->server_argv[i]);
      json_object_set_array_member (entry, "args", args);
      *out_name = g_path_get_basename (cli->server_argv[0]);
      return entry;
    }

  json_object_set_string_member (entry, "type",
                                 cli->http_url ? "http" : cli->sse_url ? "sse" : "ws");
  json_object_set_string_member (entry, "url", url);
  if (cli->headers != NULL)
    {
      JsonObject *headers = json_object_new ();

      for (guint i = 0; cli->headers[i] != NULL; i++)
        {
          const char *colon = strchr (cli->headers[i], ':');
          g_autofree char *key = g_strndup (cli->headers[i], colon - cli->headers[i]);
          g_autofree char *value = g_strstrip (g_strdup (colon + 1));

          json_object_set_string_member (headers, key, value);
        }
      json_object_set_object_member (entry, "headers", headers);
    }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  *out_name = g_strdup (uri != NULL && g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "server");
  return entry;
}

static int
open_ad_hoc (PlugboardCli *cli)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *cache = NULL;

  entry = ad_hoc_entry (cli, &name);

  /* Nobody can sign in to a server that is in no settings: its "sign in
   * first" is not remembered for the next run. */
  cli->ad_hoc_cache_dir = g_dir_make_tmp ("plugboard-cli-XXXXXX", NULL);
  if (cli->ad_hoc_cache_dir != NULL)
    cache = g_build_filename (cli->ad_hoc_cache_dir, "needs-auth.json", NULL);
  manager = g_object_new (MCP_TYPE_SERVER_MANAGER, "needs-auth-cache-path", cache, NULL);
  set_up_manager (cli, manager);

  cli->project = mcp_project_new_ad_hoc (manager, name, entry, &error);
  if (cli->project == NULL)
    {
      g_signal_handlers_disconnect_by_data (manager, cli);
      return plugboard_cli_usage_error (cli->verb, "%s", error->message);
    }
  return 0;
}

const char *
plugboard_cli_server_name (PlugboardCli        *cli,
                           McpServerConnection *connection)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  McpServerInfo *info = client ? mcp_client_get_server_info (client) : NULL;

  if (!cli->ad_hoc)
    return mcp_server_connection_get_name (connection);

  if (info != NULL && mcp_server_info_get_name (info) != NULL)
    return mcp_server_info_get_name (info);
  if (cli->server_argv != NULL)
    return cli->server_argv[0];
  return cli->http_url ? cli->http_url : cli->sse_url ? cli->sse_url : cli->ws_url;
}

const char *
plugboard_cli_tool_name (PlugboardCli *cli,
                         McpPoolTool  *tool)
{
  if (cli->ad_hoc)
    return mcp_tool_get_name (mcp_pool_tool_get_tool (tool));
  return mcp_pool_tool_get_qualified_name (tool);
}

/* Why an ad-hoc server did not connect, as said before it had a project:
 * the command or URL, not a name nobody gave it. */
static int
require_connected_ad_hoc (PlugboardCli        *cli,
                          McpServerConnection *connection)
{
  const GError *error = mcp_server_connection_get_error (connection);
  g_autofree char *what = describe_ad_hoc (cli);
  g_autofree char *doing = NULL;

  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_CONNECTED)
    return 0;

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT))
    {
      guint ms = 0;
      g_autofree char *duration = NULL;

      g_object_get (plugboard_cli_get_manager (cli), "connect-timeout", &ms, NULL);
      if (ms % 1000 == 0)
        duration = g_strdup_printf ("%u s", ms / 1000);
      else if (ms < 1000)
        duration = g_strdup_printf (_("%u ms"), ms);
      else
        duration = g_strdup_printf ("%.1f s", ms / 1000.0);
      plugboard_cli_print_failure (cli, _("Timed out after %s connecting to %s (MCP_TIMEOUT)"),
                                   duration, what);
      plugboard_cli_print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED) &&
      strstr (error->message, cli->server_argv[0]) == NULL)
    doing = g_strdup_printf (_("could not start “%s”"), cli->server_argv[0]);
  else
    doing = g_strdup_printf (_("could not connect to %s"), what);

  plugboard_cli_print_failure (cli, "%s: %s", doing,
                               error ? error->message : _("it did not settle"));
  plugboard_cli_print_stderr_tail (connection);
  return EXIT_CONNECTION;
}

int
plugboard_cli_require_connected (PlugboardCli        *cli,
                                 McpServerConnection *connection)
{
  if (cli->ad_hoc)
    return require_connected_ad_hoc (cli, connection);
  return require_connected_configured (cli, connection);
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
    status = open_ad_hoc (cli);
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

  /* Owned by the manager, which the project keeps until the end. */
  *out_connection = connection;
  return 0;
}

/* A request that failed: Ctrl-C (130), the server's refusal, a JSON-RPC
 * error (1: it answered, with a no), or a broken connection (3). */
int
plugboard_cli_request_failure (PlugboardCli        *cli,
                               McpServerConnection *connection,
                               const char          *doing,
                               const GError        *error)
{
  if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return plugboard_cli_cancelled (cli);

  plugboard_cli_print_failure (cli, "%s: %s", doing, error->message);
  if (error->domain == MCP_JSONRPC_ERROR)
    return EXIT_TOOL_ERROR;
  if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED) &&
      !g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT))
    plugboard_cli_print_stderr_tail (connection);
  return EXIT_CONNECTION;
}

/* Whether the server's initialize declared @capability (e.g. "resources"),
 * and, with @member, that member of it (e.g. "tasks" "list"). */
gboolean
plugboard_cli_server_declares (McpServerConnection *connection,
                               const char          *capability,
                               const char          *member)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  McpServerInfo *info = client ? mcp_client_get_server_info (client) : NULL;
  JsonObject *capabilities = info ? mcp_server_info_get_capabilities (info) : NULL;
  JsonNode *node = capabilities ? json_object_get_member (capabilities, capability) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  return member == NULL || json_object_has_member (json_node_get_object (node), member);
}

/* What an empty listing means: none, or nothing offered at all. */
void
plugboard_cli_print_none (McpServerConnection *connection,
                          const char          *what,
                          const char          *capability,
                          const char          *member)
{
  const char *name = mcp_server_connection_get_name (connection);

  if (plugboard_cli_server_declares (connection, capability, member))
    g_print (_("“%s” lists no %s.\n"), name, what);
  else
    g_print (_("“%s” does not offer %s (its capabilities do not declare “%s%s%s”).\n"),
             name, what, capability, member ? "." : "", member ? member : "");
}
