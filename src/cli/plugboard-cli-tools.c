/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "mcp-server-info.h"
#include "mcp-tool.h"

#include "plugboard-cli-private.h"

/* plugboard-cli tools and ping: the same listing and the same answer for a
 * configured server and an ad-hoc one, from the tool pool and the
 * project's permissions. */

static char *
hints_text (McpPoolTool *tool)
{
  g_autoptr(GPtrArray) hints = g_ptr_array_new ();

  if (mcp_pool_tool_get_read_only (tool))
    g_ptr_array_add (hints, (char *) "read-only");
  if (mcp_pool_tool_get_destructive (tool))
    g_ptr_array_add (hints, (char *) "destructive");
  if (mcp_pool_tool_get_idempotent (tool))
    g_ptr_array_add (hints, (char *) "idempotent");
  if (mcp_pool_tool_get_open_world (tool))
    g_ptr_array_add (hints, (char *) "open-world");
  g_ptr_array_add (hints, NULL);

  if (hints->len == 1)
    return g_strdup (_("none"));
  return g_strjoinv (", ", (char **) hints->pdata);
}

static JsonObject *
tool_to_json (PlugboardCli                *cli,
              McpPoolTool                 *tool,
              const McpPermissionDecision *decision)
{
  JsonObject *object = json_object_new ();
  McpTool *mcp_tool = mcp_pool_tool_get_tool (tool);
  const char *description = mcp_pool_tool_get_description (tool);

  json_object_set_string_member (object, "name", plugboard_cli_tool_name (cli, tool));
  json_object_set_string_member (object, "server",
                                 plugboard_cli_server_name (cli, mcp_pool_tool_get_connection (tool)));
  json_object_set_string_member (object, "tool", mcp_tool_get_name (mcp_tool));
  json_object_set_string_member (object, "title", mcp_pool_tool_get_display_name (tool));
  if (description != NULL)
    json_object_set_string_member (object, "description", description);
  json_object_set_boolean_member (object, "readOnly", mcp_pool_tool_get_read_only (tool));
  json_object_set_boolean_member (object, "destructive", mcp_pool_tool_get_destructive (tool));
  json_object_set_boolean_member (object, "idempotent", mcp_pool_tool_get_idempotent (tool));
  json_object_set_boolean_member (object, "openWorld", mcp_pool_tool_get_open_world (tool));
  json_object_set_string_member (object, "permission", mcp_permission_to_string (decision->permission));
  json_object_set_string_member (object, "reason", mcp_permission_reason_to_string (decision->reason));
  if (decision->rule != NULL)
    json_object_set_string_member (object, "rule", decision->rule);
  else
    json_object_set_null_member (object, "rule");
  if (mcp_tool_get_ui_resource_uri (mcp_tool) != NULL)
    json_object_set_object_member (object, "interface", plugboard_cli_interface_to_json (mcp_tool));
  else
    json_object_set_null_member (object, "interface");
  json_object_set_object_member (object, "definition", json_object_ref (mcp_tool_get_json (mcp_tool)));
  return object;
}

/* The first line of a tool's description. */
static void
print_first_line (const char *description)
{
  g_autofree char *line = NULL;
  const char *start = description;
  const char *end;

  if (description == NULL || *description == '\0')
    return;

  while (*start == '\n' || *start == ' ')
    start++;
  end = strchr (start, '\n');
  line = end ? g_strndup (start, end - start) : g_strdup (start);
  g_strchomp (line);
  if (*line != '\0')
    g_print ("  %s\n", line);
}

static void
print_tool (PlugboardCli                *cli,
            McpPoolTool                 *tool,
            const McpPermissionDecision *decision)
{
  McpTool *mcp_tool = mcp_pool_tool_get_tool (tool);
  const char *display = mcp_pool_tool_get_display_name (tool);
  g_autofree char *hints = hints_text (tool);
  g_autofree char *title = plugboard_cli_one_line (display);
  g_autofree char *shown = plugboard_cli_escape (plugboard_cli_tool_name (cli, tool));

  if (g_strcmp0 (display, mcp_tool_get_name (mcp_tool)) != 0)
    g_print ("%s (%s)\n", shown, title);
  else
    g_print ("%s\n", shown);
  g_print (_("  hints: %s%s\n"), hints,
           mcp_tool_get_annotations (mcp_tool) == NULL ? _(" (defaults, none declared)") : "");
  print_first_line (mcp_pool_tool_get_description (tool));
  plugboard_cli_print_interface_line (mcp_tool);
  if (decision->rule != NULL)
    g_print (_("  permission: %s (rule %s)\n"), mcp_permission_to_string (decision->permission),
             decision->rule);
  else
    {
      g_autofree char *why = mcp_permission_decision_describe (decision);

      g_print (_("  permission: %s (%s)\n"), mcp_permission_to_string (decision->permission), why);
    }
}

/* "mcp-fixture-server 1.0.0 (protocol 2025-11-25, handshake) — 10 tools":
 * the head of one server's listing. */
static void
print_server_line (PlugboardCli        *cli,
                   McpServerConnection *connection,
                   guint                n_tools)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  McpServerInfo *info = mcp_client_get_server_info (client);
  const char *version = info ? mcp_server_info_get_version (info) : NULL;
  const char *protocol = mcp_client_get_protocol_version (client);
  const char *era = mcp_client_get_era (client) == MCP_PROTOCOL_ERA_MODERN
                    ? _("stateless") : _("handshake");

  /* TRANSLATORS: the server's name and version, the protocol version and
   * how it works ("stateless" or "handshake"), then the number of tools. */
  g_print (ngettext ("%s%s%s (protocol %s, %s) — %u tool\n", "%s%s%s (protocol %s, %s) — %u tools\n", n_tools),
           plugboard_cli_server_name (cli, connection),
           version ? " " : "", version ? version : "",
           protocol ? protocol : "?", era, n_tools);
}

/* Why a server's tools are missing, without hiding the rest; the pool's
 * and the rules' notes. */
static void
print_notes (PlugboardCli   *cli,
             McpPermissions *permissions,
             gboolean        all_servers)
{
  GListModel *connections = G_LIST_MODEL (plugboard_cli_get_manager (cli));
  const char * const *collisions = mcp_tool_pool_get_collisions (mcp_project_get_tool_pool (cli->project));
  const char * const *notes = mcp_permissions_get_notes (permissions);

  for (guint i = 0; all_servers && i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (connections, i);
      McpServerState state = mcp_server_connection_get_state (connection);

      if (state == MCP_SERVER_STATE_FAILED || state == MCP_SERVER_STATE_NEEDS_AUTH)
        {
          g_autofree char *text = plugboard_cli_describe_state (cli, connection);
          g_autofree char *shown = plugboard_cli_escape (mcp_server_connection_get_name (connection));

          g_printerr (_("note: “%s”: %s\n"), shown, text);
        }
    }
  for (guint i = 0; collisions != NULL && collisions[i] != NULL; i++)
    g_printerr (_("note: %s\n"), collisions[i]);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    g_printerr (_("note: %s\n"), notes[i]);
}

/* The options of either form: a server's name, or the server itself. */
static int
parse_options (PlugboardCli   *cli,
               gboolean        with_json,
               int            *argc,
               char         ***argv)
{
  if (plugboard_cli_is_ad_hoc (*argc, *argv))
    return plugboard_cli_parse_ad_hoc_options (cli, NULL, with_json, argc, argv);
  return plugboard_cli_parse_settings_options (cli, NULL, FALSE, with_json, argc, argv);
}

/* A server whose tools/list failed has no tools (until it says its list
 * changed): for one server with none, say why rather than list nothing. */
static int
check_no_tools (PlugboardCli        *cli,
                McpServerConnection *connection)
{
  const GError *failed = mcp_server_connection_get_tools_error (connection);

  if (failed == NULL)
    return 0;
  return plugboard_cli_request_failure (cli, connection, _("tools/list failed"), failed);
}

int
plugboard_cli_tools (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  g_autoptr(JsonArray) array = json_array_new ();
  McpServerConnection *connection = NULL;
  McpPermissions *permissions;
  GListModel *pool;
  const char *name;
  guint n_tools;
  int status;

  status = parse_options (cli, TRUE, &argc, &argv);
  if (status != 0 ||
      (status = plugboard_cli_check_count (cli, argc, argv, 0, cli->ad_hoc ? 0 : 1, NULL)) != 0)
    return status;
  name = argc > 1 ? argv[1] : NULL;

  if (cli->ad_hoc || name != NULL)
    status = plugboard_cli_open_server (cli, name, &connection);
  else if ((status = plugboard_cli_load_project (cli, NULL)) == 0 &&
           (status = plugboard_cli_refuse_broken_files (cli)) == 0)
    status = plugboard_cli_settle (cli);
  if (status != 0)
    return status;

  pool = G_LIST_MODEL (mcp_project_get_tool_pool (cli->project));
  n_tools = g_list_model_get_n_items (pool);
  if (connection != NULL && n_tools == 0 && (status = check_no_tools (cli, connection)) != 0)
    return status;

  permissions = mcp_project_get_permissions (cli->project);
  print_notes (cli, permissions, connection == NULL);
  if (connection != NULL && !cli->json)
    print_server_line (cli, connection, n_tools);

  for (guint i = 0; i < n_tools; i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (pool, i);
      McpPermissionDecision decision = { 0 };

      mcp_permissions_decide_tool (permissions, tool, &decision);
      if (cli->json)
        json_array_add_object_element (array, tool_to_json (cli, tool, &decision));
      else
        {
          /* Under the server's line, or between two tools. */
          if (connection != NULL || i > 0)
            g_print ("\n");
          print_tool (cli, tool, &decision);
        }
    }

  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      json_node_set_array (node, array);
      plugboard_cli_print_json (node);
    }
  else if (n_tools == 0 && connection == NULL)
    {
      g_print (_("No tools%s.\n"),
               g_list_model_get_n_items (mcp_settings_get_servers (plugboard_cli_get_settings (cli))) == 0
                 ? _(" (no MCP servers configured)") : "");
    }

  return 0;
}

/* ping */

int
plugboard_cli_ping (PlugboardCli *cli,
                    int           argc,
                    char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;
  McpClient *client;
  gint64 start;
  gboolean answered, retried = FALSE;
  int status;

  status = parse_options (cli, FALSE, &argc, &argv);
  if (status != 0 ||
      (status = plugboard_cli_check_count (cli, argc, argv, cli->ad_hoc ? 0 : 1, cli->ad_hoc ? 0 : 1,
                                           _("the name of the server (or the server itself: see --help)"))) != 0 ||
      (status = plugboard_cli_open_server (cli, argc > 1 ? argv[1] : NULL, &connection)) != 0)
    return status;

  client = mcp_server_connection_get_client (connection);
  if (cli->timeout_ms > 0)
    mcp_client_set_request_timeout (client, cli->timeout_ms);
  do
    {
      g_clear_object (&result);
      client = mcp_server_connection_get_client (connection);
      start = g_get_monotonic_time ();
      mcp_client_ping_async (client, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      answered = mcp_client_ping_finish (client, result, &error);
    }
  while (!answered && plugboard_cli_renew_session (cli, connection, &retried, &error));
  if (!answered)
    {
      g_autofree char *description = NULL;

      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      description = plugboard_cli_describe_error (error);
      plugboard_cli_print_failure (cli, _("ping failed: %s"), description);
      plugboard_cli_print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }

  g_print (_("pong from %s in %lld ms\n"), plugboard_cli_server_name (cli, connection),
           (long long) ((g_get_monotonic_time () - start) / 1000));
  return 0;
}
