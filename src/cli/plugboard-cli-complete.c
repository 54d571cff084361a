/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "plugboard-cli-private.h"

/* plugboard-cli complete: completion/complete for an argument of a prompt
 * or of a resource template, as the app's completion popover asks it; one
 * value a line, so that a shell's completion can read them. */

int
plugboard_cli_complete (PlugboardCli *cli,
                        int           argc,
                        char        **argv)
{
  g_autofree char *prompt_opt = NULL;
  g_autofree char *template_opt = NULL;
  g_auto(GStrv) context_pairs = NULL;
  g_autoptr(JsonObject) context = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  gboolean retried = FALSE;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  gboolean has_more = FALSE;
  GOptionEntry entries[] = {
    { "prompt", 0, 0, G_OPTION_ARG_STRING, &prompt_opt,
      N_("Complete an argument of this prompt"), N_("PROMPT") },
    { "template", 0, 0, G_OPTION_ARG_STRING, &template_opt,
      N_("Complete an argument of this resource template"), N_("URI-TEMPLATE") },
    { "context", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &context_pairs,
      N_("Another argument's value, already chosen (repeatable)"), N_("NAME=VALUE") },
    { NULL }
  };
  const char *argument, *value;
  int status;

  if ((status = plugboard_cli_start_server_verb_full (cli, entries, TRUE, &argc, &argv, 1, 2,
                                                      _("the name of the argument to complete"))) != 0)
    return status;
  if ((prompt_opt == NULL) == (template_opt == NULL))
    return plugboard_cli_usage_error (cli->verb, _("Give one of --prompt PROMPT or --template URI-TEMPLATE"));
  if ((status = plugboard_cli_parse_pairs (cli, "--context", (const char * const *) context_pairs,
                                           context)) != 0)
    return status;
  argument = argv[2];
  value = argc > 3 ? argv[3] : "";

  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;

  /* Without the capability the engine answers nothing without asking: an
   * empty list would look like "no match". */
  if (!plugboard_cli_server_declares (connection, "completions", NULL))
    {
      plugboard_cli_print_failure (cli, _("“%s” does not offer completions (its capabilities do not "
                                          "declare “completions”)"),
                                   plugboard_cli_server_name (cli, connection));
      return EXIT_CONNECTION;
    }

  doing = g_strdup_printf (_("completing “%s” of “%s” failed"), argument,
                           prompt_opt ? prompt_opt : template_opt);
  do
    {
      g_clear_object (&result);
      client = mcp_server_connection_get_client (connection);
      mcp_client_complete_async (client,
                                 prompt_opt ? MCP_COMPLETION_PROMPT : MCP_COMPLETION_RESOURCE,
                                 prompt_opt ? prompt_opt : template_opt,
                                 argument, value,
                                 json_object_get_size (context) > 0 ? context : NULL,
                                 cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      values = mcp_client_complete_finish (client, result, &has_more, &error);
    }
  while (values == NULL && plugboard_cli_renew_session (cli, connection, &retried, &error));
  if (values == NULL)
    return plugboard_cli_request_failure (cli, connection, doing, error);

  if (cli->json)
    {
      g_autoptr(JsonObject) completion = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; values[i] != NULL; i++)
        json_array_add_string_element (array, values[i]);
      json_object_set_array_member (completion, "values", array);
      json_object_set_boolean_member (completion, "hasMore", has_more);
      plugboard_cli_print_json_object (completion);
      return 0;
    }

  for (guint i = 0; values[i] != NULL; i++)
    {
      g_autofree char *line = plugboard_cli_one_line (values[i]);

      g_print ("%s\n", line);
    }
  if (has_more)
    /* TRANSLATORS: after the values a server suggested, when it has more
     * than it sent. */
    g_print (_("(more)\n"));

  return 0;
}
