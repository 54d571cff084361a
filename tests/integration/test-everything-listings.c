/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-listings"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-json-private.h"
#include "mcp-server-connection-private.h"
#include "mcp-server-manager.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* resources/list, resources/templates/list and prompts/list against the
 * reference server @modelcontextprotocol/server-everything (the version
 * pinned in tests/package.json lists 7 static documents, 2 templates and 4
 * prompts), through McpClient and through McpServerConnection. */

static char *node_path;
static char *server_script;

static McpClient *
connect_everything (void)
{
  const char *argv[] = { node_path, server_script, "stdio", NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);

  return test_client_new_connected (transport);
}

static const char *expected_resource_names[] = {
  "architecture.md", "extension.md", "features.md", "how-it-works.md",
  "instructions.md", "startup.md", "structure.md",
};

static const char *expected_prompt_names[] = {
  "simple-prompt", "args-prompt", "completable-prompt", "resource-prompt",
};

static void
check_resources (GListModel *resources)
{
  g_assert_cmpuint (g_list_model_get_n_items (resources), ==, G_N_ELEMENTS (expected_resource_names));

  for (guint i = 0; i < G_N_ELEMENTS (expected_resource_names); i++)
    {
      g_autoptr(McpResource) resource = g_list_model_get_item (resources, i);
      g_autofree char *uri = g_strconcat ("demo://resource/static/document/",
                                          expected_resource_names[i], NULL);

      g_assert_cmpstr (mcp_resource_get_name (resource), ==, expected_resource_names[i]);
      g_assert_cmpstr (mcp_resource_get_uri (resource), ==, uri);
      g_assert_cmpstr (mcp_resource_get_mime_type (resource), ==, "text/markdown");
      g_assert_nonnull (mcp_resource_get_description (resource));
    }
}

static void
check_templates (GListModel *templates)
{
  g_autoptr(McpResourceTemplate) text = NULL;
  g_autoptr(McpResourceTemplate) blob = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (templates), ==, 2);
  text = g_list_model_get_item (templates, 0);
  blob = g_list_model_get_item (templates, 1);
  g_assert_cmpstr (mcp_resource_template_get_name (text), ==, "Dynamic Text Resource");
  g_assert_cmpstr (mcp_resource_template_get_uri_template (text), ==,
                   "demo://resource/dynamic/text/{resourceId}");
  g_assert_cmpstr (mcp_resource_template_get_mime_type (text), ==, "text/plain");
  g_assert_cmpstr (mcp_resource_template_get_name (blob), ==, "Dynamic Blob Resource");
  g_assert_cmpstr (mcp_resource_template_get_uri_template (blob), ==,
                   "demo://resource/dynamic/blob/{resourceId}");
  g_assert_cmpstr (mcp_resource_template_get_mime_type (blob), ==, "application/octet-stream");
}

static void
check_prompts (GListModel *prompts)
{
  g_autoptr(McpPrompt) simple = NULL;
  g_autoptr(McpPrompt) args = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (prompts), ==, G_N_ELEMENTS (expected_prompt_names));
  for (guint i = 0; i < G_N_ELEMENTS (expected_prompt_names); i++)
    {
      g_autoptr(McpPrompt) prompt = g_list_model_get_item (prompts, i);

      g_assert_cmpstr (mcp_prompt_get_name (prompt), ==, expected_prompt_names[i]);
    }

  simple = g_list_model_get_item (prompts, 0);
  g_assert_cmpstr (mcp_prompt_get_title (simple), ==, "Simple Prompt");
  g_assert_cmpuint (mcp_prompt_get_n_arguments (simple), ==, 0);

  args = g_list_model_get_item (prompts, 1);
  g_assert_cmpstr (mcp_prompt_get_title (args), ==, "Arguments Prompt");
  g_assert_cmpuint (mcp_prompt_get_n_arguments (args), ==, 2);
  g_assert_cmpstr (mcp_prompt_get_argument_name (args, 0), ==, "city");
  g_assert_true (mcp_prompt_get_argument_required (args, 0));
  g_assert_cmpstr (mcp_prompt_get_argument_name (args, 1), ==, "state");
  g_assert_false (mcp_prompt_get_argument_required (args, 1));
}

static GListModel *
model_of (GPtrArray *items,
          GType      type)
{
  GListStore *store = g_list_store_new (type);

  g_list_store_splice (store, 0, 0, items->pdata, items->len);

  return G_LIST_MODEL (store);
}

static void
test_client_listings (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) r1 = NULL;
  g_autoptr(GAsyncResult) r2 = NULL;
  g_autoptr(GAsyncResult) r3 = NULL;
  g_autoptr(GPtrArray) resources = NULL;
  g_autoptr(GPtrArray) templates = NULL;
  g_autoptr(GPtrArray) prompts = NULL;
  g_autoptr(GListModel) resources_model = NULL;
  g_autoptr(GListModel) templates_model = NULL;
  g_autoptr(GListModel) prompts_model = NULL;
  g_autoptr(GError) error = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything ();
  g_assert_true (mcp_server_info_has_resources (mcp_client_get_server_info (client)));
  g_assert_true (mcp_server_info_has_prompts (mcp_client_get_server_info (client)));

  /* Three listings at once on one session. */
  mcp_client_list_resources_async (client, NULL, test_result_cb, &r1);
  mcp_client_list_resource_templates_async (client, NULL, test_result_cb, &r2);
  mcp_client_list_prompts_async (client, NULL, test_result_cb, &r3);
  test_wait_result (&r1, NULL);
  test_wait_result (&r2, NULL);
  test_wait_result (&r3, NULL);

  resources = mcp_client_list_resources_finish (client, r1, &error);
  g_assert_no_error (error);
  templates = mcp_client_list_resource_templates_finish (client, r2, &error);
  g_assert_no_error (error);
  prompts = mcp_client_list_prompts_finish (client, r3, &error);
  g_assert_no_error (error);

  resources_model = model_of (resources, MCP_TYPE_RESOURCE);
  templates_model = model_of (templates, MCP_TYPE_RESOURCE_TEMPLATE);
  prompts_model = model_of (prompts, MCP_TYPE_PROMPT);
  check_resources (resources_model);
  check_templates (templates_model);
  check_prompts (prompts_model);

  test_client_close_ok (client);
}

/* The manager side */

static void
wait_done (TestOutcome     *r,
           const char *what)
{
  guint hang_id = test_hang_guard (what);

  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
  g_assert_no_error (r->error);
  g_assert_true (r->ok);
}

static McpServerConfig *
everything_config (void)
{
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  McpServerConfig *config;

  mcp_json_append_string (json, node_path);
  g_string_append (json, ",\"args\":[");
  mcp_json_append_string (json, server_script);
  g_string_append (json, ",\"stdio\"]}");

  node = mcp_json_parse (json->str, json->len, &error);
  g_assert_no_error (error);
  config = mcp_server_config_new_from_json ("everything", MCP_CONFIG_SCOPE_USER,
                                            json_node_get_object (node),
                                            "test-settings.json", "$.mcpServers.everything",
                                            &error);
  g_assert_no_error (error);

  return config;
}

static void
test_connection_listings (void)
{
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) store = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  McpServerConnection *connection;
  TestOutcome settled = { 0 };
  TestOutcome ensured = { 0 };
  TestOutcome closed = { 0 };

  if (!test_have_node_script (node_path, server_script))
    return;

  manager = mcp_server_manager_new ();
  store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  config = everything_config ();
  g_list_store_append (store, config);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  mcp_server_manager_wait_settled_async (manager, NULL, test_outcome_cb,
                                          test_outcome_for (&settled, mcp_server_manager_wait_settled_finish));
  wait_done (&settled, "settled");

  connection = mcp_server_manager_lookup (manager, "everything");
  g_assert_nonnull (connection);
  g_assert_no_error (mcp_server_connection_get_error (connection));
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  /* Listed while connecting: connected means listed. */
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), >, 0);
  check_resources (mcp_server_connection_get_resources (connection));
  check_templates (mcp_server_connection_get_resource_templates (connection));
  check_prompts (mcp_server_connection_get_prompts (connection));

  /* What the LRU does to a listing: everything goes, and comes back on demand. */
  mcp_server_connection_drop_listing (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_false (mcp_server_connection_has_listing (connection));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resources (connection)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resource_templates (connection)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_prompts (connection)), ==, 0);

  mcp_server_connection_ensure_connected_async (connection, NULL, test_outcome_cb,
                                                 test_outcome_for (&ensured, mcp_server_connection_ensure_connected_finish));
  wait_done (&ensured, "listing again");
  g_assert_true (mcp_server_connection_has_listing (connection));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), >, 0);
  check_resources (mcp_server_connection_get_resources (connection));
  check_templates (mcp_server_connection_get_resource_templates (connection));
  check_prompts (mcp_server_connection_get_prompts (connection));

  mcp_server_manager_close_async (manager, NULL, test_outcome_cb,
                                   test_outcome_for (&closed, mcp_server_manager_close_finish));
  wait_done (&closed, "close");

  /* Closed: the listings went with the session. */
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resources (connection)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_prompts (connection)), ==, 0);
}

static void
on_call_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  McpToolResult **slot = user_data;
  g_autoptr(GError) error = NULL;

  *slot = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  g_assert_no_error (error);
}

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     guint      *count)
{
  (*count)++;
}

static void
test_connection_list_changed (void)
{
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) store = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(McpResource) added = NULL;
  McpServerConnection *connection;
  GListModel *resources;
  TestOutcome settled = { 0 };
  TestOutcome closed = { 0 };
  guint changes = 0;
  guint hang_id;

  if (!test_have_node_script (node_path, server_script))
    return;

  manager = mcp_server_manager_new ();
  store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  config = everything_config ();
  g_list_store_append (store, config);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  mcp_server_manager_wait_settled_async (manager, NULL, test_outcome_cb,
                                          test_outcome_for (&settled, mcp_server_manager_wait_settled_finish));
  wait_done (&settled, "settled");

  connection = mcp_server_manager_lookup (manager, "everything");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  resources = mcp_server_connection_get_resources (connection);
  check_resources (resources);
  g_signal_connect (resources, "items-changed", G_CALLBACK (on_items_changed_cb), &changes);

  /* The tool registers a session resource, and the server says its list
   * changed: the connection lists the resources again. A data: URL keeps it
   * off the network. */
  arguments = json_object_new ();
  json_object_set_string_member (arguments, "name", "hello.gz");
  json_object_set_string_member (arguments, "data", "data:text/plain,hello");
  mcp_client_call_tool_async (mcp_server_connection_get_client (connection),
                              "gzip-file-as-resource", arguments, NULL, NULL,
                              on_call_cb, &tool_result);

  hang_id = test_hang_guard ("the resources listed again");
  while (tool_result == NULL ||
         g_list_model_get_n_items (resources) != G_N_ELEMENTS (expected_resource_names) + 1)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);

  g_assert_cmpuint (changes, >, 0);
  added = g_list_model_get_item (resources, G_N_ELEMENTS (expected_resource_names));
  g_assert_cmpstr (mcp_resource_get_uri (added), ==, "demo://resource/session/hello.gz");
  g_assert_cmpstr (mcp_resource_get_mime_type (added), ==, "application/gzip");

  g_signal_handlers_disconnect_by_data (resources, &changes);
  mcp_server_manager_close_async (manager, NULL, test_outcome_cb,
                                   test_outcome_for (&closed, mcp_server_manager_close_finish));
  wait_done (&closed, "close");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  g_test_add_func ("/everything/listings/client", test_client_listings);
  g_test_add_func ("/everything/listings/connection", test_connection_listings);
  g_test_add_func ("/everything/listings/list-changed", test_connection_list_changed);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
