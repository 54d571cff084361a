/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-redact.h"

#include "plugboard-cli-private.h"

/* plugboard-cli list and get: the servers of the settings, as they are
 * after connecting. */

/* list */

int
plugboard_cli_list (PlugboardCli *cli,
                    int           argc,
                    char        **argv)
{
  g_auto(GStrv) pending = NULL;
  const McpSettingsProblem *file_problem;
  GListModel *servers, *shadowed;
  GPtrArray *problems;
  guint n_servers, n_shadowed;
  int widths[3];
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, FALSE, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 0, 0, NULL)) != 0)
    return status;
  if ((status = plugboard_cli_load_project (cli, NULL)) != 0)
    return status;

  servers = mcp_settings_get_servers (plugboard_cli_get_settings (cli));
  shadowed = mcp_settings_get_shadowed (plugboard_cli_get_settings (cli));
  n_servers = g_list_model_get_n_items (servers);
  n_shadowed = g_list_model_get_n_items (shadowed);

  if ((status = plugboard_cli_settle (cli)) != 0)
    return status;

  if (cli->json)
    {
      plugboard_cli_print_servers_json (cli);
      file_problem = plugboard_cli_find_file_problem (cli);
      if (file_problem == NULL)
        return 0;
      plugboard_cli_print_failure (cli, "%s", file_problem->message);
      return EXIT_SETTINGS;
    }

  widths[0] = plugboard_cli_display_width (_("NAME"));
  widths[1] = plugboard_cli_display_width (_("SCOPE"));
  widths[2] = plugboard_cli_display_width (_("TRANSPORT"));
  for (guint i = 0; i < n_servers; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      widths[0] = MAX (widths[0], plugboard_cli_display_width (mcp_server_config_get_name (config)));
      widths[1] = MAX (widths[1], plugboard_cli_display_width (plugboard_cli_scope_name (mcp_server_config_get_scope (config))));
      widths[2] = MAX (widths[2], plugboard_cli_display_width (mcp_server_config_get_transport_name (config)));
    }
  for (guint j = 0; j < n_shadowed; j++)
    {
      g_autoptr(McpServerConfig) hidden = g_list_model_get_item (shadowed, j);

      widths[1] = MAX (widths[1], plugboard_cli_display_width (plugboard_cli_scope_name (mcp_server_config_get_scope (hidden))));
      widths[2] = MAX (widths[2], plugboard_cli_display_width (mcp_server_config_get_transport_name (hidden)));
    }

  if (n_servers == 0)
    g_print (_("No MCP servers configured.\n"));
  else
    plugboard_cli_print_table_row (widths, 4, (const char *[]) { _("NAME"), _("SCOPE"), _("TRANSPORT"), _("STATE") });

  for (guint i = 0; i < n_servers; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);
      const char *name = mcp_server_config_get_name (config);
      McpServerConnection *connection = mcp_server_manager_lookup (plugboard_cli_get_manager (cli), name);
      g_autofree char *state = connection ? plugboard_cli_describe_state (cli, connection) : g_strdup (_("unknown"));

      plugboard_cli_print_table_row (widths, 4, (const char *[]) {
                         name, plugboard_cli_scope_name (mcp_server_config_get_scope (config)),
                         mcp_server_config_get_transport_name (config), state });

      for (guint j = 0; j < n_shadowed; j++)
        {
          g_autoptr(McpServerConfig) hidden = g_list_model_get_item (shadowed, j);
          g_autofree char *note = NULL;

          if (!g_str_equal (mcp_server_config_get_name (hidden), name))
            continue;
          /* TRANSLATORS: the last column of a server hidden by one of the
           * same name; %s is the scope that wins (user, project, local). */
          note = g_strdup_printf (_("shadowed by %s"),
                                  plugboard_cli_scope_name (mcp_server_config_get_scope (config)));
          plugboard_cli_print_table_row (widths, 4, (const char *[]) {
                             name, plugboard_cli_scope_name (mcp_server_config_get_scope (hidden)),
                             mcp_server_config_get_transport_name (hidden), note });
        }
    }

  pending = mcp_settings_dup_pending_approvals (plugboard_cli_get_settings (cli));
  if (pending != NULL && pending[0] != NULL)
    {
      g_print (_("\nPending approval (%s):\n"),
               mcp_settings_get_file (plugboard_cli_get_settings (cli), MCP_CONFIG_SCOPE_PROJECT));
      for (guint i = 0; pending[i] != NULL; i++)
        {
          g_autofree char *shown = plugboard_cli_escape (pending[i]);

          g_print (_("  %s: %s approve %s  (or reject %s)\n"),
                   shown, PROGRAM_NAME, shown, shown);
          if (mcp_settings_get_approval (plugboard_cli_get_settings (cli), pending[i]) == MCP_APPROVAL_CHANGED)
            {
              g_print (_("    changed since it was approved:\n"));
              plugboard_cli_print_approval_changes (cli, pending[i], stdout);
            }
        }
    }

  problems = mcp_settings_get_problems (plugboard_cli_get_settings (cli));
  if (problems != NULL && problems->len > 0)
    {
      g_print (_("\nProblems:\n"));
      for (guint i = 0; i < problems->len; i++)
        {
          const McpSettingsProblem *problem = g_ptr_array_index (problems, i);
          g_autofree char *line = plugboard_cli_one_line (problem->message);

          g_print ("  %s\n", line);
        }
    }

  {
    const char * const *collisions = mcp_tool_pool_get_collisions (mcp_project_get_tool_pool (cli->project));

    for (guint i = 0; collisions != NULL && collisions[i] != NULL; i++)
      g_print (_("note: %s\n"), collisions[i]);
  }


  file_problem = plugboard_cli_find_file_problem (cli);
  if (file_problem != NULL)
    {
      plugboard_cli_print_failure (cli, "%s", file_problem->message);
      return EXIT_SETTINGS;
    }

  return 0;
}

/* get */

static void
print_strv_line (const char         *label,
                 const char * const *values,
                 char                separator)
{
  g_autoptr(GString) line = g_string_new (NULL);

  if (values == NULL || values[0] == NULL)
    return;

  for (guint i = 0; values[i] != NULL; i++)
    {
      /* Only the name: the value may be a secret. */
      const char *cut = strchr (values[i], separator);
      gsize len = cut ? (gsize) (cut - values[i]) : strlen (values[i]);

      g_autofree char *value_name = g_strndup (values[i], len);
      g_autofree char *shown = plugboard_cli_escape (value_name);

      if (i > 0)
        g_string_append (line, ", ");
      g_string_append (line, shown);
      g_string_append (line, separator == '=' ? "=" MCP_REDACTED : ": " MCP_REDACTED);
    }
  g_print ("  %s: %s\n", label, line->str);
}

int
plugboard_cli_get (PlugboardCli *cli,
                   int           argc,
                   char        **argv)
{
  g_autoptr(GString) shadows = g_string_new (NULL);
  g_autofree char *state = NULL;
  g_autofree char *shown_name = NULL;
  McpServerConnection *connection;
  McpServerConfig *config;
  const char *name;
  const char * const *args;
  const char *approval;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, FALSE, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  name = argv[1];
  if ((status = plugboard_cli_load_project (cli, (const char *[]) { name, NULL })) != 0 ||
      (status = plugboard_cli_refuse_broken_files (cli)) != 0)
    return status;
  if ((config = plugboard_cli_lookup_or_fail (cli, name, &status)) == NULL ||
      (status = plugboard_cli_settle (cli)) != 0)
    return status;
  connection = mcp_server_manager_lookup (plugboard_cli_get_manager (cli), name);
  if (cli->json)
    {
      plugboard_cli_print_server_json (cli, config, connection);
      return 0;
    }

  for (McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL; ; scope--)
    {
      McpServerConfig *other = mcp_settings_lookup_in_scope (plugboard_cli_get_settings (cli), name, scope);

      if (other != NULL && other != config && mcp_server_config_get_scope (config) != scope)
        g_string_append_printf (shadows, "%s%s", shadows->len ? ", " : "", plugboard_cli_scope_name (scope));
      if (scope == MCP_CONFIG_SCOPE_USER)
        break;
    }

  shown_name = plugboard_cli_escape (name);
  g_print ("%s\n", shown_name);
  g_print (_("  scope: %s%s%s%s\n"), plugboard_cli_scope_name (mcp_server_config_get_scope (config)),
           shadows->len ? _(" (shadows ") : "", shadows->str, shadows->len ? ")" : "");
  g_print (_("  file: %s (%s)\n"), mcp_server_config_get_file (config),
           mcp_server_config_get_json_path (config));
  g_print (_("  transport: %s\n"), mcp_server_config_get_transport_name (config));
  if (mcp_server_config_get_command (config) != NULL)
    {
      g_autofree char *shown = plugboard_cli_escape (mcp_server_config_get_command (config));

      g_print (_("  command: %s\n"), shown);
    }
  args = mcp_server_config_get_args (config);
  if (args != NULL && args[0] != NULL)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      for (guint i = 0; args[i] != NULL; i++)
        {
          g_autofree char *quoted = g_shell_quote (args[i]);
          gboolean plain = *args[i] != '\0' && strpbrk (args[i], " \t\n'\"\\$`") == NULL;

          g_autofree char *shown = plugboard_cli_escape (plain ? args[i] : quoted);

          g_string_append_printf (line, "%s%s", i ? " " : "", shown);
        }
      g_print (_("  args: %s\n"), line->str);
    }
  if (mcp_server_config_get_cwd (config) != NULL)
    {
      g_autofree char *shown = plugboard_cli_escape (mcp_server_config_get_cwd (config));

      g_print (_("  cwd: %s\n"), shown);
    }
  print_strv_line ("env", mcp_server_config_get_env (config), '=');
  if (mcp_server_config_get_url (config) != NULL)
    {
      g_autofree char *redacted = mcp_redact_url (mcp_server_config_get_url (config));
      g_autofree char *shown = plugboard_cli_escape (redacted);

      g_print (_("  url: %s\n"), shown);
    }
  print_strv_line ("headers", mcp_server_config_get_headers (config), ':');
  if (mcp_server_config_get_oauth (config) != NULL)
    g_print (_("  oauth: configured\n"));
  if (mcp_server_config_get_connect_timeout (config) > 0)
    g_print (_("  timeout: %u ms\n"), mcp_server_config_get_connect_timeout (config));
  if (mcp_server_config_get_tool_timeout (config) > 0)
    g_print (_("  tool timeout: %u ms\n"), mcp_server_config_get_tool_timeout (config));
  g_print (_("  enabled: %s\n"), mcp_server_config_get_enabled (config) ? _("yes") : _("no"));
  switch (mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT
          ? mcp_settings_get_approval (plugboard_cli_get_settings (cli), name) : MCP_APPROVAL_NOT_NEEDED)
    {
    case MCP_APPROVAL_PENDING:
      approval = _("pending");
      break;
    case MCP_APPROVAL_APPROVED:
      approval = _("approved");
      break;
    case MCP_APPROVAL_REJECTED:
      approval = _("rejected");
      break;
    case MCP_APPROVAL_CHANGED:
      approval = _("changed since approval (it does not start until approved again)");
      break;
    case MCP_APPROVAL_NOT_NEEDED:
    default:
      approval = _("not needed (not a project server)");
      break;
    }
  g_print (_("  approval: %s\n"), approval);
  plugboard_cli_print_approval_changes (cli, name, stdout);

  state = connection ? plugboard_cli_describe_state (cli, connection) : g_strdup (_("unknown"));
  g_print (_("  state: %s\n"), state);
  if (connection != NULL && mcp_server_connection_get_client (connection) != NULL)
    {
      McpClient *client = mcp_server_connection_get_client (connection);
      const char *version = mcp_client_get_protocol_version (client);
      g_autofree char *transport = mcp_server_connection_dup_transport_description (connection);

      /* TRANSLATORS: the protocol version, then how it works: "stateless"
       * (2026-07-28 and later: no handshake) or "handshake" (initialize and
       * a session, up to 2025-11-25). */
      g_print (_("  protocol: %s (%s)\n"), version != NULL ? version : "?",
               mcp_client_get_era (client) == MCP_PROTOCOL_ERA_MODERN ? _("stateless") : _("handshake"));
      /* TRANSLATORS: how the session runs, e.g. "legacy HTTP+SSE (the server
       * refused Streamable HTTP: HTTP 404)". */
      g_print (_("  connected over: %s\n"), transport);
    }
  if (connection != NULL)
    g_print (_("  tools: %u\n"), g_list_model_get_n_items (mcp_server_connection_get_tools (connection)));
  plugboard_cli_print_instructions (connection);

  return 0;
}

/* Writing */
