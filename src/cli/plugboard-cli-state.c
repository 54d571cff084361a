/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-server-info.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: what the settings and the servers' states say, in the
 * person's words — broken files, unknown names, approvals, why a server
 * is not connected, why a request failed. */

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
connection_approval (PlugboardCli        *cli,
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
plugboard_cli_print_approval_changes (PlugboardCli *cli,
                                      const char   *name,
                                      FILE         *out)
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
plugboard_cli_describe_state (PlugboardCli        *cli,
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
require_connected_configured (PlugboardCli        *cli,
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

int
plugboard_cli_require_connected (PlugboardCli        *cli,
                                 McpServerConnection *connection)
{
  if (cli->ad_hoc)
    return plugboard_cli_require_connected_ad_hoc (cli, connection);
  return require_connected_configured (cli, connection);
}

McpServerConfig *
plugboard_cli_lookup_or_fail (PlugboardCli *cli,
                              const char   *name,
                              int          *status)
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

/* A request that failed: Ctrl-C (130), the server's refusal, a JSON-RPC
 * error (1: it answered, with a no), or a broken connection (3). */
int
plugboard_cli_request_failure (PlugboardCli        *cli,
                               McpServerConnection *connection,
                               const char          *doing,
                               const GError        *error)
{
  g_autofree char *description = NULL;

  if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return plugboard_cli_cancelled (cli);

  description = plugboard_cli_describe_error (error);
  plugboard_cli_print_failure (cli, "%s: %s", doing, description);
  plugboard_cli_print_json_error (cli, error);
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
plugboard_cli_print_none (PlugboardCli        *cli,
                          McpServerConnection *connection,
                          const char          *what,
                          const char          *capability,
                          const char          *member)
{
  const char *name = plugboard_cli_server_name (cli, connection);

  if (plugboard_cli_server_declares (connection, capability, member))
    g_print (_("“%s” lists no %s.\n"), name, what);
  else
    g_print (_("“%s” does not offer %s (its capabilities do not declare “%s%s%s”).\n"),
             name, what, capability, member ? "." : "", member ? member : "");
}

/* The first half of resources, templates and prompts: NAME's listing
 * (@get_model of its connection), as JSON with --json, or said to be
 * empty. 0 and the listing when it is to be printed as text (else NULL),
 * or the exit status. */
int
plugboard_cli_start_listing (PlugboardCli   *cli,
                             int             argc,
                             char          **argv,
                             GListModel   *(*get_model) (McpServerConnection *connection),
                             JsonObject   *(*get_json) (gpointer item),
                             const char     *what,
                             const char     *capability,
                             GListModel    **out_model)
{
  McpServerConnection *connection;
  GListModel *model;
  int status;

  *out_model = NULL;
  if ((status = plugboard_cli_start_server_verb (cli, NULL, TRUE, &argc, &argv, 0, NULL)) != 0 ||
      (status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;

  model = get_model (connection);
  if (cli->json)
    plugboard_cli_print_json_objects (model, get_json);
  else if (g_list_model_get_n_items (model) == 0)
    plugboard_cli_print_none (cli, connection, what, capability, NULL);
  else
    *out_model = model;
  return 0;
}
