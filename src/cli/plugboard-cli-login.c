/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "plugboard-cli-private.h"

#include "mcp-sign-in-steps.h"

/* plugboard-cli login and logout: OAuth sign-in to a configured remote
 * server, through McpProject. */

/* The settings, and the one server @argv names given to the manager
 * once it is known to be remote. @connect FALSE: it is not connected
 * (logout). */
static int
prepare_oauth_verb (PlugboardCli *cli,
                    GOptionEntry *entries,
                    int          *argc,
                    char       ***argv,
                    gboolean      connect)
{
  static const char *none[] = { NULL };
  McpServerConfig *config;
  const char *name;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, entries, FALSE, FALSE, argc, argv)) != 0 ||
      (status = plugboard_cli_check_count (cli, *argc, *argv, 1, 1, _("the name of the server"))) != 0 ||
      (status = plugboard_cli_load_project (cli, none)) != 0 ||
      (status = plugboard_cli_refuse_broken_files (cli)) != 0)
    return status;
  name = (*argv)[1];
  if ((config = plugboard_cli_lookup_or_fail (cli, name, &status)) == NULL)
    return status;

  if (!mcp_server_config_is_remote (config) ||
      mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_SSE_IDE ||
      mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_WS_IDE)
    {
      plugboard_cli_print_failure (cli, _("“%s” is a %s server: only remote servers (http, sse, ws) "
                                   "sign in"), name, mcp_server_config_get_transport_name (config));
      return EXIT_USAGE;
    }

  if (!connect)
    mcp_server_manager_set_server_enabled (plugboard_cli_get_manager (cli), name, FALSE);
  mcp_project_set_connect_only (cli->project, (const char *[]) { name, NULL });

  return 0;
}

/* What a sign-in or sign-out came to. */
G_GNUC_PRINTF (4, 5)
static int
finish (PlugboardCli *cli,
        gboolean      ok,
        GError       *error,
        const char   *done,
        ...)
{
  if (ok)
    {
      g_autofree char *text = NULL;
      va_list args;

      va_start (args, done);
      text = g_strdup_vprintf (done, args);
      va_end (args);
      g_print ("%s", text);
      return 0;
    }
  if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return plugboard_cli_cancelled (cli);
  plugboard_cli_print_failure (cli, "%s", error->message);
  return EXIT_CONNECTION;
}

/* login --steps: each step of the sign-in as it is recorded, with the
 * exchange that made it; masked by the trace, escaped for the terminal. */
static void
print_step_cb (McpTrace      *trace,
               McpTraceEntry *entry,
               PlugboardCli  *cli)
{
  McpTraceEntry *exchange = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_AUTH)
    return;

  if (mcp_trace_entry_get_http_seq (entry) != 0)
    exchange = mcp_trace_lookup (trace, mcp_trace_entry_get_http_seq (entry));
  text = mcp_sign_in_step_format (entry, exchange, FALSE);
  lines = g_strsplit (text, "\n", -1);
  plugboard_cli_end_progress_line (cli);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      {
        g_autofree char *shown = plugboard_cli_escape (lines[i]);

        g_print ("%s\n", shown);
      }
}

int
plugboard_cli_login (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  g_autoptr(McpTrace) trace = NULL;
  gulong handler = 0;
  gboolean steps = FALSE;
  gboolean ok;
  int status;
  GOptionEntry entries[] = {
    { "steps", 0, 0, G_OPTION_ARG_NONE, &steps,
      N_("Print each step of the sign-in as it happens (secrets masked)"), NULL },
    { NULL }
  };

  if ((status = prepare_oauth_verb (cli, entries, &argc, &argv, TRUE)) != 0)
    return status;
  name = argv[1];

  if (steps)
    {
      McpServerConnection *connection = mcp_server_manager_lookup (plugboard_cli_get_manager (cli), name);

      if (connection != NULL)
        {
          trace = g_object_ref (mcp_server_connection_get_trace (connection));
          handler = g_signal_connect (trace, "recorded", G_CALLBACK (print_step_cb), cli);
        }
    }

  /* The address goes to the interaction, which prints it and opens the
   * browser; a refused address ends the sign-in, saying why. */
  mcp_project_sign_in_async (cli->project, name, cli->cancellable,
                             plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  ok = mcp_project_sign_in_finish (cli->project, result, &error);
  if (trace != NULL)
    g_clear_signal_handler (&handler, trace);
  return finish (cli, ok, error, _("Signed in to “%s”.\n"), name);
}

int
plugboard_cli_logout (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;
  int status;

  if ((status = prepare_oauth_verb (cli, NULL, &argc, &argv, FALSE)) != 0)
    return status;

  mcp_project_run_async (cli->project, MCP_PROJECT_OP_SIGN_OUT, argv[1], cli->cancellable,
                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  ok = mcp_project_run_finish (cli->project, result, NULL, &error);
  return finish (cli, ok, error, _("Signed out of “%s”.\n"), argv[1]);
}
