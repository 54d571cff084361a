/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "mcp-redact.h"
#include "mcp-url-policy.h"

#include "plugboard-cli-private.h"

/* plugboard-cli login and logout: OAuth sign-in to a configured remote
 * server, through McpProject. */

/* login, logout */

typedef struct
{
  PlugboardCli        *cli;
  const char *name;
  GError     *refused;   /* the sign-in URL failed the URL policy */
} Login;

/* $BROWSER is a command line; the URL goes last, as its own argument (no
 * shell), and the URL policy let it through, so it does not begin with
 * "-" and cannot be read as an option. Not waited for: the sign-in ends
 * when the browser comes back to the loopback listener. */
static void
open_browser (Login      *login,
              const char *url)
{
  const char *browser = g_getenv ("BROWSER");
  g_autoptr(GError) error = NULL;

  if (browser != NULL && *browser != '\0')
    {
      g_autoptr(GSubprocessLauncher) launcher = NULL;
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GPtrArray) argv = NULL;
      g_auto(GStrv) words = NULL;

      if (!g_shell_parse_argv (browser, NULL, &words, &error))
        {
          fprintf (stderr, _("%s: warning: $BROWSER cannot be read as a command line "
                             "(%s); open the URL yourself\n"), PROGRAM_NAME, error->message);
          return;
        }

      argv = g_ptr_array_new ();
      for (guint i = 0; words[i] != NULL; i++)
        g_ptr_array_add (argv, words[i]);
      g_ptr_array_add (argv, (char *) url);
      g_ptr_array_add (argv, NULL);

      /* Its stdout is ours, where the URL is: keep it clean. */
      launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
      process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
      if (process == NULL)
        fprintf (stderr, _("%s: warning: could not start the browser “%s”: %s; "
                           "open the URL yourself\n"), PROGRAM_NAME, words[0], error->message);
      return;
    }

  if (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL)
    {
      if (!g_app_info_launch_default_for_uri (url, NULL, &error))
        fprintf (stderr, _("%s: warning: could not open a browser: %s; "
                           "open the URL yourself\n"), PROGRAM_NAME, error->message);
    }
}

static void
login_open_url_cb (McpOAuthProvider *provider,
                   const char       *url,
                   gpointer          user_data)
{
  Login *login = user_data;
  g_autofree char *host = NULL;
  g_autofree char *name = NULL;

  /* The engine checked it already; nothing reaches a browser or the
   * terminal unchecked all the same. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &login->refused))
    {
      g_cancellable_cancel (login->cli->cancellable);
      return;
    }
  g_assert (url[0] != '-');

  name = mcp_escape_controls (login->name, MCP_ESCAPE_DEFAULT);
  /* Translators: the first %s is the server's name, the second the host the
   * sign-in address goes to, the third that address */
  g_print (_("To sign in to “%s” at %s, open:\n  %s\n"), name, host, url);
  fflush (stdout);
  open_browser (login, url);
  fputs (_("Waiting for the browser… (Ctrl-C to cancel)\n"), stderr);
  fflush (stderr);
}

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

int
plugboard_cli_login (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Login login = { .cli = cli };
  int status;

  if ((status = prepare_oauth_verb (cli, &argc, &argv, TRUE)) != 0)
    return status;
  login.name = argv[1];

  mcp_project_sign_in_async (cli->project, login.name, login_open_url_cb, &login,
                             cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_project_sign_in_finish (cli->project, result, &error))
    {
      if (login.refused != NULL)
        {
          /* Translators: the first %s is the server's name, the second why its sign-in address was refused */
          plugboard_cli_print_failure (cli, _("The sign-in address of “%s” was refused: %s"), login.name,
                         login.refused->message);
          g_clear_error (&login.refused);
          status = EXIT_CONNECTION;
        }
      else if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        status = plugboard_cli_cancelled (cli);
      else
        {
          plugboard_cli_print_failure (cli, "%s", error->message);
          status = EXIT_CONNECTION;
        }
    }
  else
    {
      g_print (_("Signed in to “%s”.\n"), login.name);
    }

  return status;
}

int
plugboard_cli_logout (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = prepare_oauth_verb (cli, &argc, &argv, FALSE)) != 0)
    return status;

  mcp_project_run_async (cli->project, MCP_PROJECT_OP_SIGN_OUT, argv[1], cli->cancellable,
                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_project_run_finish (cli->project, result, NULL, &error))
    {
      if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        status = plugboard_cli_cancelled (cli);
      else
        {
          plugboard_cli_print_failure (cli, "%s", error->message);
          status = EXIT_CONNECTION;
        }
    }
  else
    {
      g_print (_("Signed out of “%s”.\n"), argv[1]);
    }

  return status;
}
