/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-server-config.h"

#include "plugboard-cli-private.h"

/* plugboard-cli add, add-json, remove, enable, disable, approve, reject:
 * writes through the project, which connects no server for them. */

/* The settings alone: a write connects no server. */
static int
load_settings (PlugboardCli *cli)
{
  static const char *none[] = { NULL };

  return plugboard_cli_load_project (cli, none);
}

typedef gboolean (*WriteFinish) (McpProject    *project,
                                 GAsyncResult  *result,
                                 GError       **error);

/* Waits for the project's write whose result comes to @result, and says
 * why it failed. */
static int
wait_for_write (PlugboardCli  *cli,
                GAsyncResult **result,
                WriteFinish    finish)
{
  g_autoptr(GError) error = NULL;

  plugboard_cli_wait_for_result (result);
  if (finish (cli->project, *result, &error))
    return 0;
  if (cli->interrupted)
    return plugboard_cli_cancelled (cli);
  plugboard_cli_print_failure (cli, "%s", error->message);
  return EXIT_SETTINGS;
}

static gboolean
run_finish (McpProject    *project,
            GAsyncResult  *result,
            GError       **error)
{
  return mcp_project_run_finish (project, result, NULL, error);
}

/* Checks @object as a server entry before anything is written. */
static int
check_entry (PlugboardCli  *cli,
             const char    *name,
             McpConfigScope scope,
             JsonObject    *object)
{
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = g_strdup_printf ("$.mcpServers.%s", name);

  if (*name == '\0')
    return plugboard_cli_usage_error (cli->verb, _("The server's name must not be empty"));

  config = mcp_server_config_new_from_json (name, scope, object, _("the new entry"), where, &error);
  if (config == NULL)
    return plugboard_cli_usage_error (cli->verb, "%s", error->message);
  return 0;
}

static int
add_entry (PlugboardCli *cli,
           const char   *name,
           JsonObject   *object)
{
  g_autoptr(GAsyncResult) result = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  int status;

  if ((status = load_settings (cli)) != 0)
    return status;
  /* Local, as Claude Code's own add; a client without local settings
   * (Claude Desktop has one file) gets its user file. */
  if (cli->scope_opt != NULL)
    plugboard_cli_parse_scope (cli->scope_opt, &scope);
  else if (!mcp_settings_has_scope (plugboard_cli_get_settings (cli), scope))
    scope = MCP_CONFIG_SCOPE_USER;
  if ((status = check_entry (cli, name, scope, object)) != 0)
    return status;

  mcp_project_add_server_async (cli->project, name, scope, object,
                                cli->cancellable, plugboard_cli_store_result_cb, &result);
  if ((status = wait_for_write (cli, &result, mcp_project_add_server_finish)) != 0)
    return status;

  g_print (_("Added “%s” to the %s settings (%s)\n"), name, plugboard_cli_scope_name (scope),
           mcp_settings_get_file (plugboard_cli_get_settings (cli), scope));
  if (scope == MCP_CONFIG_SCOPE_PROJECT &&
      mcp_settings_get_approval (plugboard_cli_get_settings (cli), name) == MCP_APPROVAL_PENDING)
    g_print (_("It starts once approved: %s approve %s\n"), PROGRAM_NAME, name);
  return 0;
}

int
plugboard_cli_add (PlugboardCli *cli,
                   int           argc,
                   char        **argv)
{
  static const char *http_schemes[] = { "http", "https", NULL };
  static const char *ws_schemes[] = { "ws", "wss", NULL };
  g_auto(GStrv) server_argv = NULL;
  g_auto(GStrv) env = NULL;
  g_auto(GStrv) headers = NULL;
  g_autofree char *transport = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  GOptionEntry entries[] = {
    { "transport", 't', 0, G_OPTION_ARG_STRING, &transport,
      N_("stdio (with -- COMMAND), http, sse or ws (with URL)"), N_("KIND") },
    { "env", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &env,
      N_("Set an environment variable for a stdio server (repeatable)"), N_("NAME=VALUE") },
    { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, &headers,
      N_("Send this HTTP header to a remote server (repeatable)"), N_("'NAME: VALUE'") },
    { NULL }
  };
  const char *name;
  int status;

  plugboard_cli_split_server_command (&argc, argv, &server_argv);
  if ((status = plugboard_cli_parse_settings_options (cli, entries, TRUE, FALSE, &argc, &argv)) != 0)
    return status;

  if (server_argv != NULL)
    {
      g_autoptr(JsonArray) args = json_array_new ();

      if ((status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
        return status;
      if (server_argv[0] == NULL || server_argv[0][0] == '\0')
        return plugboard_cli_usage_error (cli->verb, _("No server command: give it after “--”"));
      if (transport != NULL && !g_str_equal (transport, "stdio"))
        return plugboard_cli_usage_error (cli->verb, _("--transport %s takes a URL, not a command after “--”"),
                            transport);
      if (headers != NULL)
        return plugboard_cli_usage_error (cli->verb, _("--header is for http, sse and ws servers"));

      json_object_set_string_member (object, "type", "stdio");
      json_object_set_string_member (object, "command", server_argv[0]);
      for (guint i = 1; server_argv[i] != NULL; i++)
        json_array_add_string_element (args, server_argv[i]);
      json_object_set_array_member (object, "args", g_steal_pointer (&args));

      if (env != NULL)
        {
          JsonObject *env_object = json_object_new ();

          json_object_set_object_member (object, "env", env_object);
          for (guint i = 0; env[i] != NULL; i++)
            {
              const char *equal = strchr (env[i], '=');
              g_autofree char *key = NULL;

              if (equal == NULL || equal == env[i])
                {
                  /* Only the start: the value may be a secret. */
                  g_autofree char *start = g_strndup (env[i], MIN (strcspn (env[i], "="), 40));

                  return plugboard_cli_usage_error (cli->verb, _("--env “%s…” is not of the form NAME=VALUE"), start);
                }
              key = g_strndup (env[i], equal - env[i]);
              json_object_set_string_member (env_object, key, equal + 1);
            }
        }
    }
  else
    {
      const char *url;
      g_autofree char *problem = NULL;

      if ((status = plugboard_cli_check_count (cli, argc, argv, 2, 2,
                                 argc - 1 < 1 ? _("the name of the server")
                                              : _("the server's URL, or its command after “--”"))) != 0)
        return status;
      url = argv[2];
      if (transport == NULL)
        transport = g_strdup (g_str_has_prefix (url, "ws:") || g_str_has_prefix (url, "wss:") ? "ws" : "http");
      if (!g_str_equal (transport, "http") && !g_str_equal (transport, "sse") &&
          !g_str_equal (transport, "ws"))
        return plugboard_cli_usage_error (cli->verb, _("--transport must be http, sse or ws with a URL%s"),
                            g_str_equal (transport, "stdio") ? _(" (a stdio server's command goes after “--”)") : "");
      if (env != NULL)
        return plugboard_cli_usage_error (cli->verb, _("--env is for stdio servers"));
      problem = plugboard_cli_check_url ("URL", url, g_str_equal (transport, "ws") ? ws_schemes : http_schemes);
      if (problem != NULL)
        return plugboard_cli_usage_error (cli->verb, "%s", problem);

      json_object_set_string_member (object, "type", transport);
      json_object_set_string_member (object, "url", url);
      if (headers != NULL)
        {
          JsonObject *headers_object = json_object_new ();

          json_object_set_object_member (object, "headers", headers_object);
          for (guint i = 0; headers[i] != NULL; i++)
            {
              const char *colon = strchr (headers[i], ':');
              g_autofree char *key = NULL;
              g_autofree char *value = NULL;

              if (!plugboard_cli_header_is_valid (headers[i]))
                {
                  g_autofree char *start = g_strndup (headers[i], MIN (strcspn (headers[i], ": \t"), 40));

                  return plugboard_cli_usage_error (cli->verb,
                                      _("--header “%s…” is not of the form 'Name: value'"), start);
                }
              key = g_strndup (headers[i], colon - headers[i]);
              value = g_strstrip (g_strdup (colon + 1));
              json_object_set_string_member (headers_object, key, value);
            }
        }
    }

  name = argv[1];
  return add_entry (cli, name, object);
}

int
plugboard_cli_add_json (PlugboardCli *cli,
                        int           argc,
                        char        **argv)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *normalized = NULL;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, TRUE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 2, 2,
                             argc - 1 < 1 ? _("the name of the server") : _("the server's JSON"))) != 0)
    return status;

  root = mcp_json_parse (argv[2], strlen (argv[2]), &error);
  if (root == NULL)
    return plugboard_cli_usage_error (cli->verb, _("JSON is not valid: %s"), error->message);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return plugboard_cli_usage_error (cli->verb, _("JSON must be an object (one server's entry)"));

  /* Other clients' remote entries ("url" alone, Windsurf's "serverUrl")
   * read the way an import reads them. */
  normalized = mcp_server_config_normalize_remote (json_node_get_object (root));
  if (normalized != NULL)
    {
      g_autofree char *shown = plugboard_cli_escape (normalized);

      g_print (_("Note: %s\n"), shown);
    }

  return add_entry (cli, argv[1], json_node_get_object (root));
}

/* The scope of @name to edit: --scope, or the only one it is in (@effective:
 * or the effective one). */
static int
choose_scope (PlugboardCli   *cli,
              const char     *name,
              gboolean        effective,
              McpConfigScope *out_scope)
{
  static const McpConfigScope scopes[] = {
    MCP_CONFIG_SCOPE_LOCAL, MCP_CONFIG_SCOPE_PROJECT, MCP_CONFIG_SCOPE_USER,
  };
  g_autoptr(GString) found = g_string_new (NULL);
  guint n = 0;

  if (cli->scope_opt != NULL)
    {
      plugboard_cli_parse_scope (cli->scope_opt, out_scope);
      if (mcp_settings_lookup_in_scope (plugboard_cli_get_settings (cli), name, *out_scope) == NULL)
        {
          int status = plugboard_cli_refuse_broken_files (cli);

          if (status != 0)
            return status;
          plugboard_cli_print_failure (cli, _("No MCP server named “%s” in the %s settings (%s)"),
                         name, cli->scope_opt, mcp_settings_get_file (plugboard_cli_get_settings (cli), *out_scope));
          return EXIT_USAGE;
        }
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    {
      if (mcp_settings_lookup_in_scope (plugboard_cli_get_settings (cli), name, scopes[i]) != NULL)
        {
          if (n == 0)
            *out_scope = scopes[i];
          g_string_append_printf (found, "%s%s", n ? _(" and ") : "", plugboard_cli_scope_name (scopes[i]));
          n++;
        }
    }

  if (n == 0)
    {
      int status;

      plugboard_cli_lookup_or_fail (cli, name, &status);
      return status;
    }
  if (n > 1 && !effective)
    {
      plugboard_cli_print_failure (cli, _("“%s” is in the %s settings; say which with --scope"), name, found->str);
      return EXIT_USAGE;
    }
  return 0;
}

int
plugboard_cli_remove (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, TRUE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (cli)) != 0)
    return status;
  if ((status = choose_scope (cli, argv[1], FALSE, &scope)) != 0)
    return status;

  mcp_project_remove_server_async (cli->project, argv[1], scope, cli->cancellable,
                                   plugboard_cli_store_result_cb, &result);
  if ((status = wait_for_write (cli, &result, run_finish)) != 0)
    return status;

  g_print (_("Removed “%s” from the %s settings (%s)\n"), argv[1], plugboard_cli_scope_name (scope),
           mcp_settings_get_file (plugboard_cli_get_settings (cli), scope));
  return 0;
}

/* enable and disable */
int
plugboard_cli_set_enabled (PlugboardCli  *cli,
                           int            argc,
                           char         **argv)
{
  gboolean enabled = g_str_equal (cli->verb->name, "enable");
  g_autoptr(GAsyncResult) result = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, TRUE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (cli)) != 0)
    return status;
  if ((status = choose_scope (cli, argv[1], TRUE, &scope)) != 0)
    return status;

  mcp_project_set_server_enabled_async (cli->project, argv[1], scope, enabled,
                                        cli->cancellable, plugboard_cli_store_result_cb, &result);
  if ((status = wait_for_write (cli, &result, run_finish)) != 0)
    return status;

  /* A project server is switched in your local settings, not in .mcp.json. */
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    scope = MCP_CONFIG_SCOPE_LOCAL;
  g_print (_("%s “%s” in the %s settings (%s)\n"), enabled ? _("Enabled") : _("Disabled"), argv[1],
           plugboard_cli_scope_name (scope), mcp_settings_get_file (plugboard_cli_get_settings (cli), scope));
  if (enabled && mcp_settings_get_approval (plugboard_cli_get_settings (cli), argv[1]) == MCP_APPROVAL_PENDING)
    g_print (_("It starts once approved: %s approve %s\n"), PROGRAM_NAME, argv[1]);
  return 0;
}

/* approve and reject */
int
plugboard_cli_set_approval (PlugboardCli  *cli,
                            int            argc,
                            char         **argv)
{
  gboolean approved = g_str_equal (cli->verb->name, "approve");
  g_autoptr(GAsyncResult) result = NULL;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, FALSE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (cli)) != 0)
    return status;
  if (mcp_settings_lookup_in_scope (plugboard_cli_get_settings (cli), argv[1], MCP_CONFIG_SCOPE_PROJECT) == NULL)
    {
      if ((status = plugboard_cli_refuse_broken_files (cli)) != 0)
        return status;
      plugboard_cli_print_failure (cli, _("No project server named “%s” in %s"), argv[1],
                     mcp_settings_get_file (plugboard_cli_get_settings (cli), MCP_CONFIG_SCOPE_PROJECT));
      return EXIT_USAGE;
    }

  /* What is approved is what was loaded: the person sees what changed
   * before the new digest is bound. */
  if (approved && mcp_settings_get_approval (plugboard_cli_get_settings (cli), argv[1]) == MCP_APPROVAL_CHANGED)
    {
      g_autofree char *shown = plugboard_cli_escape (argv[1]);

      g_print (_("“%s” changed since it was approved:\n"), shown);
      plugboard_cli_print_approval_changes (cli, argv[1], stdout);
    }

  mcp_project_run_async (cli->project, approved ? MCP_PROJECT_OP_APPROVE : MCP_PROJECT_OP_REJECT,
                         argv[1], cli->cancellable, plugboard_cli_store_result_cb, &result);
  if ((status = wait_for_write (cli, &result, run_finish)) != 0)
    return status;

  g_print (_("%s the project server “%s” (kept in %s)\n"), approved ? _("Approved") : _("Rejected"),
           argv[1], mcp_settings_get_file (plugboard_cli_get_settings (cli), MCP_CONFIG_SCOPE_LOCAL));
  return 0;
}

