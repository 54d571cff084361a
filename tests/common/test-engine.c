/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-engine"

#include "config.h"

#include "test-engine.h"

#include <string.h>

#include "mcp-json-private.h"
#include "test-util.h"

McpServerConfig *
test_config_from_json (const char *name,
                       const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), &error);
  g_autofree char *path = g_strdup_printf ("$.mcpServers.%s", name);
  McpServerConfig *config;

  g_assert_no_error (error);
  config = mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER,
                                            json_node_get_object (node),
                                            "test-settings.json", path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

McpServerConfig *
test_fixture_config (const char *name,
                     const char *args)
{
  g_autoptr(GString) json = g_string_new ("{\"command\":");

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append_printf (json, ",\"args\":[%s]}", args != NULL ? args : "");
  return test_config_from_json (name, json->str);
}

gpointer
test_outcome_for (TestOutcome *outcome,
                  gpointer     finish)
{
  g_assert_null (outcome->error);
  *outcome = (TestOutcome) { .finish = (TestFinishFunc) finish };
  return outcome;
}

void
test_outcome_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      outcome)
{
  TestOutcome *o = outcome;

  o->ok = o->finish (source, result, &o->error);
  o->done = TRUE;
}

McpSettings *
test_settings_load (const char *user_dir,
                    const char *project_dir)
{
  g_autoptr(McpSettings) settings = mcp_settings_new (user_dir, project_dir);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  mcp_settings_load_async (settings, NULL, test_result_cb, &result);
  loaded = mcp_settings_load_finish (settings, test_wait_result (&result, "the settings to load"), &error);
  g_assert_no_error (error);
  g_assert_true (loaded);
  return g_steal_pointer (&settings);
}

gboolean
test_outcome_done (gpointer data)
{
  return ((TestOutcome *) data)->done;
}

char *
test_json_string (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return json_to_string (node, FALSE);
}

gboolean
test_client_connect (McpClient  *client,
                     GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  return mcp_client_connect_finish (client, test_wait_result (&result, "the client to connect"), error);
}

gboolean
test_client_close (McpClient  *client,
                   GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, test_result_cb, &result);
  return mcp_client_close_finish (client, test_wait_result (&result, "the client to close"), error);
}

McpClient *
test_client_new (McpTransport *transport)
{
  McpClient *client = mcp_client_new (transport);

  mcp_client_set_client_info (client, "plugboard-test", PACKAGE_VERSION);
  return client;
}

void
test_client_connect_ready (McpClient *client)
{
  g_autoptr(GError) error = NULL;

  test_client_connect (client, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);
}

McpClient *
test_client_new_connected (McpTransport *transport)
{
  McpClient *client = test_client_new (transport);

  test_client_connect_ready (client);
  return client;
}

void
test_client_close_ok (McpClient *client)
{
  g_autoptr(GError) error = NULL;

  test_client_close (client, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

gboolean
test_client_ping (McpClient  *client,
                  GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_ping_async (client, NULL, test_result_cb, &result);
  return mcp_client_ping_finish (client, test_wait_result (&result, "a ping"), error);
}

static McpToolResult *
call_tool (McpClient               *client,
           const char              *name,
           JsonObject              *arguments,
           const McpRequestOptions *options,
           GCancellable            *cancellable,
           GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_call_tool_async (client, name, arguments, options, cancellable,
                              test_result_cb, &result);
  return mcp_client_call_tool_finish (client, test_wait_result (&result, "a tool call"), error);
}

McpToolResult *
test_client_call_tool_json (McpClient               *client,
                            const char              *name,
                            const char              *arguments_json,
                            const McpRequestOptions *options,
                            GCancellable            *cancellable,
                            GError                 **error)
{
  g_autoptr(JsonObject) arguments = NULL;

  if (arguments_json != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) parse_error = NULL;

      json_parser_load_from_data (parser, arguments_json, -1, &parse_error);
      g_assert_no_error (parse_error);
      arguments = json_node_dup_object (json_parser_get_root (parser));
    }
  return call_tool (client, name, arguments, options, cancellable, error);
}

McpToolResult *
test_client_call_tool_message (McpClient   *client,
                               const char  *name,
                               const char  *message,
                               GError     **error)
{
  g_autoptr(JsonObject) arguments = json_object_new ();

  if (message != NULL)
    json_object_set_string_member (arguments, "message", message);
  return call_tool (client, name, arguments, NULL, NULL, error);
}

const char *
test_result_only_text (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);
  McpContent *block;

  g_assert_cmpuint (content->len, ==, 1);
  block = g_ptr_array_index (content, 0);
  g_assert_cmpint (mcp_content_get_kind (block), ==, MCP_CONTENT_TEXT);
  return mcp_content_get_text (block);
}

const char *
test_result_first_text (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);

  g_assert_nonnull (content);
  g_assert_cmpuint (content->len, >=, 1);
  return mcp_content_get_text (g_ptr_array_index (content, 0));
}

typedef struct
{
  McpServerConnection *connection;
  McpServerManager    *manager;
  const char          *name;
  McpServerState       state;
} StateWait;

static gboolean
state_reached (gpointer data)
{
  StateWait *wait = data;
  McpServerConnection *connection = wait->connection;

  if (connection == NULL)
    connection = mcp_server_manager_lookup (wait->manager, wait->name);
  return connection != NULL && mcp_server_connection_get_state (connection) == wait->state;
}

void
test_wait_connection_state (McpServerConnection *connection,
                            McpServerState       state)
{
  StateWait wait = { .connection = connection, .state = state };

  test_iterate_until (state_reached, &wait, mcp_server_state_to_string (state));
}

void
test_wait_server_state (McpServerManager *manager,
                        const char       *name,
                        McpServerState    state)
{
  StateWait wait = { .manager = manager, .name = name, .state = state };

  test_iterate_until (state_reached, &wait, name);
}

/* Waits for @outcome, which must be a success. */
static void
wait_success (TestOutcome *outcome,
              const char  *what)
{
  test_iterate_until (test_outcome_done, outcome, what);
  g_assert_no_error (outcome->error);
  g_assert_true (outcome->ok);
}

void
test_manager_settle (McpServerManager *manager)
{
  TestOutcome o = { 0 };

  mcp_server_manager_wait_settled_async (manager, NULL, test_outcome_cb,
                                         test_outcome_for (&o, mcp_server_manager_wait_settled_finish));
  wait_success (&o, "the servers to settle");
}

void
test_manager_close (McpServerManager *manager)
{
  TestOutcome o = { 0 };

  mcp_server_manager_close_async (manager, NULL, test_outcome_cb,
                                  test_outcome_for (&o, mcp_server_manager_close_finish));
  wait_success (&o, "the manager to close");
}
