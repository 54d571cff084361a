/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "plugboard-cli-private.h"

/* plugboard-cli prompts and prompt. */

static McpPrompt *
find_prompt (McpServerConnection *connection,
             const char          *name)
{
  GListModel *prompts = mcp_server_connection_get_prompts (connection);

  for (guint i = 0; i < g_list_model_get_n_items (prompts); i++)
    {
      g_autoptr(McpPrompt) prompt = g_list_model_get_item (prompts, i);

      if (g_str_equal (mcp_prompt_get_name (prompt), name))
        return g_steal_pointer (&prompt);
    }
  return NULL;
}

static const char *
prompt_argument_description (McpPrompt *prompt,
                             guint      index)
{
  JsonNode *node = json_array_get_element (mcp_prompt_get_arguments (prompt), index);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_get_string_member_with_default (json_node_get_object (node), "description", NULL);
}

int
plugboard_cli_prompts (PlugboardCli *cli,
                       int           argc,
                       char        **argv)
{
  GListModel *prompts;
  guint n;
  int status;

  if ((status = plugboard_cli_start_listing (cli, argc, argv, mcp_server_connection_get_prompts,
                                             (JsonObject *(*) (gpointer)) mcp_prompt_get_json,
                                             _("prompts"), "prompts", &prompts)) != 0 || prompts == NULL)
    return status;
  n = g_list_model_get_n_items (prompts);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpPrompt) prompt = g_list_model_get_item (prompts, i);
      const char *title = mcp_prompt_get_title (prompt);
      guint n_arguments = mcp_prompt_get_n_arguments (prompt);
      g_autofree char *name = plugboard_cli_escape (mcp_prompt_get_name (prompt));

      if (i > 0)
        g_print ("\n");
      if (title != NULL && g_strcmp0 (title, mcp_prompt_get_name (prompt)) != 0)
        {
          g_autofree char *line = plugboard_cli_one_line (title);

          g_print ("%s (%s)\n", name, line);
        }
      else
        g_print ("%s\n", name);
      plugboard_cli_print_description ("  ", mcp_prompt_get_description (prompt));
      if (n_arguments == 0)
        g_print (_("  arguments: none\n"));
      else
        g_print (_("  arguments (* required):\n"));
      for (guint j = 0; j < n_arguments; j++)
        {
          const char *description = prompt_argument_description (prompt, j);
          g_autofree char *line = description ? plugboard_cli_one_line (description) : NULL;
          g_autofree char *argument = plugboard_cli_escape (mcp_prompt_get_argument_name (prompt, j));

          g_print ("    %s%s%s%s\n", argument,
                   mcp_prompt_get_argument_required (prompt, j) ? "*" : "",
                   line && *line ? " — " : "", line && *line ? line : "");
        }
    }

  return 0;
}

/* "[2] user, resource demo://…, text/plain:" and the content under it. */
static void
print_prompt_message (guint       index,
                      const char *role,
                      McpContent *block)
{
  g_autofree char *type = mcp_content_get_type_name (block)
                          ? plugboard_cli_escape (mcp_content_get_type_name (block)) : NULL;
  g_autofree char *uri = mcp_content_get_uri (block) ? plugboard_cli_escape (mcp_content_get_uri (block)) : NULL;
  g_autofree char *mime_type = mcp_content_get_mime_type (block)
                               ? plugboard_cli_escape (mcp_content_get_mime_type (block)) : NULL;
  g_autofree char *role_shown = plugboard_cli_escape (role ? role : "?");

  g_print ("%s[%u] %s, %s%s%s%s%s:\n", index > 1 ? "\n" : "", index, role_shown,
           type ? type : _("content"),
           uri ? " " : "", uri ? uri : "",
           mime_type ? ", " : "", mime_type ? mime_type : "");

  switch (mcp_content_get_kind (block))
    {
    case MCP_CONTENT_TEXT:
      {
        const char *text = mcp_content_get_text (block);
        gsize len = text ? strlen (text) : 0;

        g_print ("%s%s", text ? text : "", len == 0 || text[len - 1] != '\n' ? "\n" : "");
      }
      break;

    case MCP_CONTENT_RESOURCE:
      if (mcp_content_get_text (block) != NULL)
        {
          const char *text = mcp_content_get_text (block);
          gsize len = strlen (text);

          g_print ("%s%s", text, len == 0 || text[len - 1] != '\n' ? "\n" : "");
        }
      else
        {
          g_autoptr(GBytes) data = mcp_content_get_data (block, NULL);

          /* The header line has said the URI and the type already. */
          g_print (_("%lu bytes of binary content\n"),
                   (unsigned long) (data ? g_bytes_get_size (data) : 0));
        }
      break;

    case MCP_CONTENT_IMAGE:
    case MCP_CONTENT_AUDIO:
    case MCP_CONTENT_RESOURCE_LINK:
    case MCP_CONTENT_UNKNOWN:
    default:
      plugboard_cli_print_content_block (block);
      break;
    }
}

int
plugboard_cli_prompt (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_auto(GStrv) args = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(McpPrompt) prompt = NULL;
  g_autoptr(McpPromptResult) prompt_result = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  gboolean retried = FALSE;
  g_autoptr(GError) error = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  GOptionEntry entries[] = {
    { "arg", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &args,
      N_("An argument of the prompt (repeatable)"), N_("NAME=VALUE") },
    { NULL }
  };
  const char *server, *name;
  int status;

  if ((status = plugboard_cli_start_server_verb (cli, entries, TRUE, &argc, &argv, 1, _("the name of the prompt"))) != 0)
    return status;
  name = argv[2];

  if ((status = plugboard_cli_parse_pairs (cli, "--arg", (const char * const *) args, arguments)) != 0)
    return status;

  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;
  server = plugboard_cli_server_name (cli, connection);

  prompt = find_prompt (connection, name);
  if (prompt == NULL && cli->ad_hoc)
    {
      plugboard_cli_print_failure (cli, _("“%s” has no prompt “%s”"), server, name);
      return EXIT_CONNECTION;
    }
  if (prompt == NULL)
    {
      plugboard_cli_print_failure (cli, _("“%s” has no prompt “%s” (see “%s prompts %s”)"),
                     server, name, PROGRAM_NAME, server);
      return EXIT_CONNECTION;
    }

  /* The arguments are checked against the listing before anything is
   * asked of the server. */
  {
    GList *members = json_object_get_members (arguments);
    g_autoptr(GString) missing = g_string_new (NULL);
    g_autoptr(GString) known = g_string_new (NULL);
    const char *unknown = NULL;

    for (guint j = 0; j < mcp_prompt_get_n_arguments (prompt); j++)
      {
        const char *argument = mcp_prompt_get_argument_name (prompt, j);

        g_string_append_printf (known, "%s%s", known->len ? ", " : "", argument);
        if (mcp_prompt_get_argument_required (prompt, j) &&
            !json_object_has_member (arguments, argument))
          g_string_append_printf (missing, "%s--arg %s=VALUE", missing->len ? ", " : "", argument);
      }
    for (GList *l = members; l != NULL && unknown == NULL; l = l->next)
      {
        gboolean found = FALSE;

        for (guint j = 0; j < mcp_prompt_get_n_arguments (prompt); j++)
          if (g_str_equal (mcp_prompt_get_argument_name (prompt, j), l->data))
            found = TRUE;
        if (!found)
          unknown = l->data;
      }

    if (missing->len > 0 || unknown != NULL)
      {
        if (unknown != NULL)
          plugboard_cli_print_failure (cli, _("the prompt “%s” of “%s” has no argument “%s” (it takes %s)"),
                         name, server, unknown, known->len ? known->str : _("none"));
        else
          plugboard_cli_print_failure (cli, _("the prompt “%s” of “%s” needs %s"), name, server, missing->str);
        g_list_free (members);
        return EXIT_USAGE;
      }
    g_list_free (members);
  }

  doing = g_strdup_printf (_("getting the prompt “%s” of “%s” failed"), name, server);
  do
    {
      g_clear_object (&result);
      client = mcp_server_connection_get_client (connection);
      mcp_client_get_prompt_async (client, name, arguments, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      prompt_result = mcp_client_get_prompt_finish (client, result, &error);
    }
  while (prompt_result == NULL && plugboard_cli_renew_session (cli, connection, &retried, &error));
  if (prompt_result == NULL)
    return plugboard_cli_request_failure (cli, connection, doing, error);

  if (cli->json)
    plugboard_cli_print_json_object (mcp_prompt_result_get_json (prompt_result));
  else
    {
      const char *description = mcp_prompt_result_get_description (prompt_result);

      if (description != NULL && *description != '\0')
        {
          g_autofree char *line = plugboard_cli_one_line (description);

          g_print ("%s\n\n", line);
        }
      for (guint i = 0; i < mcp_prompt_result_get_n_messages (prompt_result); i++)
        print_prompt_message (i + 1, mcp_prompt_result_get_role (prompt_result, i),
                              mcp_prompt_result_get_content (prompt_result, i));
    }

  return 0;
}
