/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-url-policy.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: a web page a server asks the person to open — an
 * elicitation/create in URL mode (MCP 2025-11-25) and the server's later
 * notifications/elicitation/complete — and the browser that opens it. The
 * page is never fetched here: only the person's browser goes there, after
 * they saw the host and said yes. */

/* In the browser's child: a session of its own, so that the end of
 * plugboard-cli (and the hang-up of its terminal) does not take it along. */
static void
detach_child_setup (gpointer user_data)
{
  setsid ();
}

gboolean
plugboard_cli_open_browser (const char *url)
{
  const char *browser = g_getenv ("BROWSER");
  g_autoptr(GError) error = NULL;

  /* $BROWSER is a command line; the URL goes last, as its own argument
   * (no shell), and the URL policy let it through, so it does not begin
   * with "-" and cannot be read as an option. Not waited for. */
  g_assert (url[0] != '-');

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
          return FALSE;
        }

      argv = g_ptr_array_new ();
      for (guint i = 0; words[i] != NULL; i++)
        g_ptr_array_add (argv, words[i]);
      g_ptr_array_add (argv, (char *) url);
      g_ptr_array_add (argv, NULL);

      /* Its stdout is ours, where the URL is: keep it clean. */
      launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
      g_subprocess_launcher_set_child_setup (launcher, detach_child_setup, NULL, NULL);
      process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
      if (process == NULL)
        {
          fprintf (stderr, _("%s: warning: could not start the browser “%s”: %s; "
                             "open the URL yourself\n"), PROGRAM_NAME, words[0], error->message);
          return FALSE;
        }
      return TRUE;
    }

  if (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL)
    {
      if (g_app_info_launch_default_for_uri (url, NULL, &error))
        return TRUE;
      fprintf (stderr, _("%s: warning: could not open a browser: %s; "
                         "open the URL yourself\n"), PROGRAM_NAME, error->message);
    }

  return FALSE;
}

static void
finish_with_action (PlugboardCliDialog *dialog,
                    const char         *action)
{
  g_autoptr(JsonObject) answer = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (answer, "action", action);
  json_node_set_object (node, answer);
  plugboard_cli_dialog_finish (dialog, node, NULL);
}

static void
on_open_line_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  PlugboardCliDialog *dialog = user_data;
  g_autofree char *line = NULL;
  const char *url;

  if (!plugboard_cli_dialog_take_line (dialog, result, &line))
    return;

  /* Ctrl-D: the person walked away. */
  if (line == NULL)
    {
      g_print (_("\nCancelled; the page was not opened.\n"));
      finish_with_action (dialog, "cancel");
      return;
    }
  if (!plugboard_cli_is_yes (line))
    {
      g_print (_("Declined; the page was not opened.\n"));
      finish_with_action (dialog, "decline");
      return;
    }

  /* The person consented: the server hears "accept" once the browser was
   * asked to open the page; what happens there is between them. */
  url = mcp_json_optional_string (dialog->params, "url", "elicitation", NULL);
  if (plugboard_cli_open_browser (url))
    g_print (_("Opened in the browser; finish there.\n"));
  else
    g_print (_("No browser to open it: open the URL above yourself.\n"));
  finish_with_action (dialog, "accept");
}

void
plugboard_cli_url_start (PlugboardCliDialog *dialog)
{
  const char *url = mcp_json_optional_string (dialog->params, "url", "elicitation", NULL);
  const char *message = mcp_json_optional_string (dialog->params, "message", "elicitation", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *host = NULL;
  g_autofree char *shown_url = NULL;

  g_print (_("\n%s asks you to open a web page (elicitation/create):\n"), dialog->server);
  if (message != NULL)
    {
      g_autofree char *shown = plugboard_cli_escape (message);

      plugboard_cli_print_indented ("  ", shown);
    }

  if (url == NULL)
    {
      g_print (_("It gave no URL; nothing was opened.\n"));
      plugboard_cli_dialog_finish (dialog, NULL,
                                   g_error_new (MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                                _("elicitation/create in URL mode needs a “url”")));
      return;
    }

  /* The same policy as every URL the engine opens: https (or http to this
   * machine), no user info, no control characters. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &error))
    {
      g_print (_("The page is not opened: %s\n"), error->message);
      finish_with_action (dialog, "decline");
      return;
    }

  shown_url = plugboard_cli_escape (url);
  /* Translators: the host is shown on its own so that a look-alike address
   * stands out */
  g_print (_("  Host: %s\n  URL:  %s\n"), host, shown_url);
  g_print (_("Open %s in the browser? [y/N] "), host);
  fflush (stdout);
  plugboard_cli_read_line_async (dialog->cli, dialog->cancellable, on_open_line_cb, dialog);
}

/* A log line "notifications/elicitation/complete {…}" of a server: the
 * step in the browser is done. */
void
plugboard_cli_print_elicitation_complete (PlugboardCli *cli,
                                          const char   *text)
{
  static const char method[] = "notifications/elicitation/complete";
  g_autoptr(JsonNode) params = NULL;
  const char *id = NULL;

  if (!g_str_has_prefix (text, method))
    return;
  text += strlen (method);
  if (*text == ' ')
    params = mcp_json_parse (text + 1, strlen (text + 1), NULL);
  if (params != NULL && JSON_NODE_HOLDS_OBJECT (params))
    id = mcp_json_optional_string (json_node_get_object (params), "elicitationId", "notification", NULL);

  fflush (stdout);
  plugboard_cli_end_progress_line (cli);
  if (id != NULL)
    {
      g_autofree char *shown = plugboard_cli_escape (id);

      g_printerr (_("The server says the step in the browser is done (elicitation %s)\n"), shown);
    }
  else
    g_printerr (_("The server says the step in the browser is done\n"));
}
