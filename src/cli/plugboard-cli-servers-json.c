/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "mcp-redact.h"
#include "mcp-server-info.h"

#include "plugboard-cli-private.h"

/* plugboard-cli list --json and get --json: the servers for machines,
 * secret values masked as get shows them. */

static const char *
approval_name (PlugboardCli    *cli,
               McpServerConfig *config)
{
  if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT)
    return "not-needed";

  switch (mcp_settings_get_approval (plugboard_cli_get_settings (cli), mcp_server_config_get_name (config)))
    {
    case MCP_APPROVAL_PENDING:
      return "pending";
    case MCP_APPROVAL_APPROVED:
      return "approved";
    case MCP_APPROVAL_REJECTED:
      return "rejected";
    case MCP_APPROVAL_CHANGED:
      return "changed";
    case MCP_APPROVAL_NOT_NEEDED:
    default:
      return "not-needed";
    }
}

/* name, scope, transport, enabled, approval, state, error */
static JsonObject *
server_summary (PlugboardCli    *cli,
                McpServerConfig *config)
{
  JsonObject *object = json_object_new ();
  const char *name = mcp_server_config_get_name (config);
  McpServerConnection *connection = mcp_server_manager_lookup (plugboard_cli_get_manager (cli), name);
  const GError *error = connection ? mcp_server_connection_get_error (connection) : NULL;

  json_object_set_string_member (object, "name", name);
  json_object_set_string_member (object, "scope", plugboard_cli_scope_name (mcp_server_config_get_scope (config)));
  json_object_set_string_member (object, "transport", mcp_server_config_get_transport_name (config));
  json_object_set_boolean_member (object, "enabled", mcp_server_config_get_enabled (config));
  json_object_set_string_member (object, "approval", approval_name (cli, config));
  if (connection != NULL)
    json_object_set_string_member (object, "state",
                                   mcp_server_state_to_string (mcp_server_connection_get_state (connection)));
  else
    json_object_set_null_member (object, "state");
  if (error != NULL)
    json_object_set_string_member (object, "error", error->message);
  else
    json_object_set_null_member (object, "error");
  return object;
}

/* The servers of the settings, then those a server of the same name in a
 * stronger scope hides (with "shadowedBy"). */
void
plugboard_cli_print_servers_json (PlugboardCli *cli)
{
  GListModel *servers = mcp_settings_get_servers (plugboard_cli_get_settings (cli));
  GListModel *shadowed = mcp_settings_get_shadowed (plugboard_cli_get_settings (cli));
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      json_array_add_object_element (array, server_summary (cli, config));
    }
  for (guint i = 0; i < g_list_model_get_n_items (shadowed); i++)
    {
      g_autoptr(McpServerConfig) hidden = g_list_model_get_item (shadowed, i);
      McpServerConfig *winner = mcp_settings_lookup (plugboard_cli_get_settings (cli),
                                                     mcp_server_config_get_name (hidden));
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "name", mcp_server_config_get_name (hidden));
      json_object_set_string_member (object, "scope",
                                     plugboard_cli_scope_name (mcp_server_config_get_scope (hidden)));
      json_object_set_string_member (object, "transport", mcp_server_config_get_transport_name (hidden));
      json_object_set_boolean_member (object, "enabled", mcp_server_config_get_enabled (hidden));
      if (winner != NULL)
        json_object_set_string_member (object, "shadowedBy",
                                       plugboard_cli_scope_name (mcp_server_config_get_scope (winner)));
      json_array_add_object_element (array, object);
    }

  json_node_set_array (node, array);
  plugboard_cli_print_json (node);
}

/* A new object with @object's members, every string value masked but
 * those of @keep. */
static JsonObject *
masked_object (JsonObject         *object,
               const char * const *keep)
{
  JsonObject *masked = json_object_new ();
  GList *members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
          (keep == NULL || !g_strv_contains (keep, l->data)))
        {
          g_autofree char *hidden = mcp_redact_value (json_node_get_string (value));

          json_object_set_string_member (masked, l->data, hidden);
        }
      else
        json_object_set_member (masked, l->data, json_node_copy (value));
    }
  g_list_free (members);
  return masked;
}

/* The entry as in its file (a new object: the settings' own is left as it
 * is), with what get masks masked: env and header values, the URL's user
 * info and query values, the oauth secrets. */
static JsonObject *
masked_entry (McpServerConfig *config)
{
  static const char * const oauth_public[] = {
    "clientId", "callbackPort", "scope", "scopes", "clientMetadataUrl", "authServerMetadataUrl", NULL,
  };
  JsonObject *source = mcp_server_config_get_json (config);
  JsonObject *entry = json_object_new ();
  GList *members = json_object_get_members (source);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (source, name);
      gboolean secret_values = g_str_equal (name, "env") || g_str_equal (name, "headers");

      if ((secret_values || g_str_equal (name, "oauth")) && JSON_NODE_HOLDS_OBJECT (value))
        json_object_set_object_member (entry, name,
                                       masked_object (json_node_get_object (value),
                                                      secret_values ? NULL : oauth_public));
      else if (g_str_equal (name, "url") && JSON_NODE_HOLDS_VALUE (value) &&
               json_node_get_value_type (value) == G_TYPE_STRING)
        {
          g_autofree char *url = mcp_redact_url (json_node_get_string (value));

          json_object_set_string_member (entry, name, url);
        }
      else
        json_object_set_member (entry, name, json_node_copy (value));
    }
  g_list_free (members);
  return entry;
}

/* get --json: the summary, the file, the masked entry, and once connected
 * the server's info, capabilities and instructions. */
void
plugboard_cli_print_server_json (PlugboardCli        *cli,
                                 McpServerConfig     *config,
                                 McpServerConnection *connection)
{
  g_autoptr(JsonObject) object = server_summary (cli, config);
  McpClient *client = connection ? mcp_server_connection_get_client (connection) : NULL;
  McpServerInfo *info = client ? mcp_client_get_server_info (client) : NULL;
  const char *file = mcp_server_config_get_file (config);

  if (file != NULL)
    json_object_set_string_member (object, "file", file);
  json_object_set_string_member (object, "jsonPath", mcp_server_config_get_json_path (config));
  json_object_set_object_member (object, "entry", masked_entry (config));

  if (info != NULL)
    {
      JsonObject *server_info = json_object_new ();
      const char *title = mcp_server_info_get_title (info);
      const char *version = mcp_server_info_get_version (info);
      const char *instructions = mcp_server_info_get_instructions (info);
      JsonObject *capabilities = mcp_server_info_get_capabilities (info);
      const char *protocol = mcp_client_get_protocol_version (client);

      json_object_set_string_member (server_info, "name", mcp_server_info_get_name (info));
      if (title != NULL)
        json_object_set_string_member (server_info, "title", title);
      if (version != NULL)
        json_object_set_string_member (server_info, "version", version);
      json_object_set_object_member (object, "serverInfo", server_info);
      if (protocol != NULL)
        json_object_set_string_member (object, "protocolVersion", protocol);
      if (capabilities != NULL)
        json_object_set_object_member (object, "capabilities", json_object_ref (capabilities));
      if (instructions != NULL)
        json_object_set_string_member (object, "instructions", instructions);
      json_object_set_int_member (object, "tools",
                                  g_list_model_get_n_items (mcp_server_connection_get_tools (connection)));
    }

  plugboard_cli_print_json_object (object);
}

/* get: what the server's initialize says about using it, under the rest. */
void
plugboard_cli_print_instructions (McpServerConnection *connection)
{
  McpClient *client = connection ? mcp_server_connection_get_client (connection) : NULL;
  McpServerInfo *info = client ? mcp_client_get_server_info (client) : NULL;
  const char *instructions = info ? mcp_server_info_get_instructions (info) : NULL;
  g_autofree char *text = NULL;

  if (instructions == NULL || *instructions == '\0')
    return;
  text = g_strstrip (g_strdup (instructions));
  g_print (_("  instructions:\n"));
  plugboard_cli_print_indented ("    ", text);
}
