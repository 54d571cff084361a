/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "plugboard-cli-private.h"

/* plugboard-cli login and logout: OAuth sign-in to a configured remote
 * server, through McpProject. */

/* The settings, and the one server @argv names given to the manager
 * once it is known to be remote. @connect FALSE: it is not connected
 * (logout). */
static int
prepare_oauth_verb (PlugboardCli *cli,
                    int          *argc,
                    char       ***argv,
                    gboolean      connect)
{
  static const char *none[] = { NULL };
  McpServerConfig *config;
  const char *name;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, FALSE, FALSE, argc, argv)) != 0 ||
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

int
plugboard_cli_login (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  gboolean ok;
  int status;

  if ((status = prepare_oauth_verb (cli, &argc, &argv, TRUE)) != 0)
    return status;
  name = argv[1];

  /* The address goes to the interaction, which prints it and opens the
   * browser; a refused address ends the sign-in, saying why. */
  mcp_project_sign_in_async (cli->project, name, cli->cancellable,
                             plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  ok = mcp_project_sign_in_finish (cli->project, result, &error);
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

  if ((status = prepare_oauth_verb (cli, &argc, &argv, FALSE)) != 0)
    return status;

  mcp_project_run_async (cli->project, MCP_PROJECT_OP_SIGN_OUT, argv[1], cli->cancellable,
                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  ok = mcp_project_run_finish (cli->project, result, NULL, &error);
  return finish (cli, ok, error, _("Signed out of “%s”.\n"), argv[1]);
}
