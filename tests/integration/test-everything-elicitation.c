/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-elicitation"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mcp-error.h"
#include "mcp-permissions.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "mcp-tool-call.h"
#include "mcp-tool-pool.h"
#include "test-util.h"

/* Server-to-client requests against the reference server
 * @modelcontextprotocol/server-everything (tests/package.json) over stdio,
 * through McpSettings (a temporary folder) and McpServerManager: it
 * registers its elicitation and roots tools only for a client that declares
 * those capabilities. */

#define ELICITATION_TOOL "mcp__everything__trigger-elicitation-request"
#define ROOTS_TOOL       "mcp__everything__get-roots-list"
#define ECHO_TOOL        "mcp__everything__echo"

static char *node_path;
static char *server_script;

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  return node;
}

typedef struct
{
  char             *dir;
  McpSettings      *settings;
  McpServerManager *manager;
  McpToolPool      *pool;
} Fixture;

typedef struct
{
  McpToolPool *pool;
  const char  *name;
} ToolWait;

static gboolean
tool_listed (gpointer data)
{
  const ToolWait *wait = data;

  return mcp_tool_pool_lookup (wait->pool, wait->name) != NULL;
}

static void
wait_tool (Fixture    *fixture,
           const char *name)
{
  ToolWait wait = { fixture->pool, name };

  test_iterate_until (tool_listed, &wait, "tool listed");
}

/* Settings in a temporary folder, the manager made; @prepare sets handlers
 * before the server connects. */
static void
fixture_set_up (Fixture *fixture,
                void   (*prepare) (McpServerManager *manager, gpointer data),
                gpointer data)
{
  g_autofree char *user_dir = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *file = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GAsyncResult) loaded = NULL;
  g_autoptr(GAsyncResult) settled = NULL;
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("plugboard-everything-elicitation-XXXXXX", &error);
  g_assert_no_error (error);
  user_dir = g_build_filename (fixture->dir, "config", NULL);
  project_dir = g_build_filename (fixture->dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "everything");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, node_path);
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, server_script);
  json_builder_add_string_value (builder, "stdio");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, TRUE);
  file = g_build_filename (user_dir, "settings.json", NULL);
  g_file_set_contents (file, json, -1, &error);
  g_assert_no_error (error);

  fixture->settings = mcp_settings_new (user_dir, project_dir);
  mcp_settings_load_async (fixture->settings, NULL, test_result_cb, &loaded);
  mcp_settings_load_finish (fixture->settings, test_wait_result (&loaded, NULL), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (fixture->settings)), ==, 1);

  fixture->manager = mcp_server_manager_new ();
  if (prepare != NULL)
    prepare (fixture->manager, data);
  fixture->pool = mcp_tool_pool_new (G_LIST_MODEL (fixture->manager));
  mcp_server_manager_set_configs (fixture->manager, mcp_settings_get_servers (fixture->settings));
  mcp_server_manager_wait_settled_async (fixture->manager, NULL, test_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (fixture->manager, test_wait_result (&settled, NULL), &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (mcp_server_manager_lookup (fixture->manager, "everything")),
                   ==, MCP_SERVER_STATE_CONNECTED);
  wait_tool (fixture, ECHO_TOOL);
}

static void
fixture_tear_down (Fixture *fixture)
{
  g_autoptr(GAsyncResult) closed = NULL;

  mcp_server_manager_close_async (fixture->manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (fixture->manager, test_wait_result (&closed, NULL), NULL);
  g_clear_object (&fixture->pool);
  g_clear_object (&fixture->manager);
  g_clear_object (&fixture->settings);
  test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
}

/* The text of every content block, joined. */
static char *
result_text (McpProcessedResult *processed)
{
  GPtrArray *content = mcp_tool_result_get_content (mcp_processed_result_get_result (processed));
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < content->len; i++)
    {
      const char *part = mcp_content_get_text (g_ptr_array_index (content, i));

      if (part != NULL)
        g_string_append_printf (text, "%s\n", part);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
run_tool (Fixture    *fixture,
          const char *name)
{
  McpPoolTool *tool = mcp_tool_pool_lookup (fixture->pool, name);
  const char *allow[] = { name, NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (tool);
  mcp_tool_call_run_async (tool, arguments, permissions, NULL, NULL, test_result_cb, &result);
  processed = mcp_tool_call_finish (test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)));
  return result_text (processed);
}

typedef struct
{
  guint                calls;
  char                *method;
  JsonNode            *params;
  McpServerConnection *connection;
  const char          *answer;
} Handler;

static void
request_cb (McpServerConnection *connection,
            const char          *method,
            JsonObject          *params,
            GTask               *reply,
            gpointer             user_data)
{
  Handler *handler = user_data;

  handler->calls++;
  handler->connection = connection;
  g_free (handler->method);
  handler->method = g_strdup (method);
  g_clear_pointer (&handler->params, json_node_unref);
  if (params != NULL)
    {
      handler->params = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (handler->params, params);
    }
  g_task_return_pointer (reply, parse (handler->answer), (GDestroyNotify) json_node_unref);
  g_object_unref (reply);
}

static void
handler_clear (Handler *handler)
{
  g_clear_pointer (&handler->method, g_free);
  g_clear_pointer (&handler->params, json_node_unref);
}

static void
prepare_elicitation (McpServerManager *manager,
                     gpointer          data)
{
  g_autoptr(JsonNode) capabilities = parse ("{\"elicitation\":{\"form\":{}}}");

  mcp_server_manager_set_request_handler (manager, "elicitation/create",
                                          json_node_get_object (capabilities),
                                          request_cb, data, NULL);
}

static void
prepare_roots (McpServerManager *manager,
               gpointer          data)
{
  g_autoptr(JsonNode) capabilities = parse ("{\"roots\":{\"listChanged\":true}}");

  mcp_server_manager_set_request_handler (manager, "roots/list",
                                          json_node_get_object (capabilities),
                                          request_cb, data, NULL);
}

static void
test_elicitation_accept (void)
{
  Handler handler = { .answer = "{\"action\":\"accept\",\"content\":{\"name\":\"Ada Lovelace\","
                                "\"check\":true,\"integer\":7}}" };
  Fixture fixture = { 0 };
  g_autofree char *text = NULL;
  JsonObject *params;
  JsonObject *schema;

  if (!test_have_node_script (node_path, server_script))
    return;

  fixture_set_up (&fixture, prepare_elicitation, &handler);
  wait_tool (&fixture, ELICITATION_TOOL);

  text = run_tool (&fixture, ELICITATION_TOOL);
  g_assert_cmpuint (handler.calls, ==, 1);
  g_assert_cmpstr (handler.method, ==, "elicitation/create");
  g_assert_true (handler.connection == mcp_server_manager_lookup (fixture.manager, "everything"));
  params = json_node_get_object (handler.params);
  schema = json_object_get_object_member (params, "requestedSchema");
  g_assert_nonnull (schema);
  g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");
  g_assert_true (json_object_has_member (json_object_get_object_member (schema, "properties"), "name"));

  g_assert_nonnull (strstr (text, "Ada Lovelace"));
  g_assert_nonnull (strstr (text, "Favorite Integer: 7"));
  g_assert_nonnull (strstr (text, "accept"));

  fixture_tear_down (&fixture);
  handler_clear (&handler);
}

static void
test_elicitation_decline (void)
{
  Handler handler = { .answer = "{\"action\":\"decline\"}" };
  Fixture fixture = { 0 };
  g_autofree char *text = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  fixture_set_up (&fixture, prepare_elicitation, &handler);
  wait_tool (&fixture, ELICITATION_TOOL);

  text = run_tool (&fixture, ELICITATION_TOOL);
  g_assert_cmpuint (handler.calls, ==, 1);
  g_assert_nonnull (strstr (text, "declined"));
  g_assert_null (strstr (text, "Ada Lovelace"));

  fixture_tear_down (&fixture);
  handler_clear (&handler);
}

static void
test_no_handler_no_capability (void)
{
  Fixture fixture = { 0 };
  McpServerConnection *connection;
  GListModel *tools;
  guint n;

  if (!test_have_node_script (node_path, server_script))
    return;

  fixture_set_up (&fixture, NULL, NULL);

  /* Its conditional tools are registered at notifications/initialized,
   * before the listing; give a late list_changed a moment all the same. */
  {
    gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

    while (g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, FALSE), g_usleep (10 * 1000);
  }

  connection = mcp_server_manager_lookup (fixture.manager, "everything");
  tools = mcp_server_connection_get_tools (connection);
  n = g_list_model_get_n_items (tools);
  g_assert_cmpuint (n, >, 5);
  g_assert_null (mcp_tool_pool_lookup (fixture.pool, ELICITATION_TOOL));
  g_assert_null (mcp_tool_pool_lookup (fixture.pool, ROOTS_TOOL));
  g_assert_nonnull (mcp_tool_pool_lookup (fixture.pool, ECHO_TOOL));

  fixture_tear_down (&fixture);
}

static void
test_roots (void)
{
  Handler handler = { .answer = "{\"roots\":[{\"uri\":\"file:///tmp/plugboard-root\","
                                "\"name\":\"plugboard-root\"}]}" };
  Fixture fixture = { 0 };
  g_autofree char *text = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  fixture_set_up (&fixture, prepare_roots, &handler);
  wait_tool (&fixture, ROOTS_TOOL);
  g_assert_null (mcp_tool_pool_lookup (fixture.pool, ELICITATION_TOOL));

  text = run_tool (&fixture, ROOTS_TOOL);
  g_assert_cmpuint (handler.calls, >=, 1);
  g_assert_cmpstr (handler.method, ==, "roots/list");
  g_assert_nonnull (strstr (text, "file:///tmp/plugboard-root"));
  g_assert_nonnull (strstr (text, "plugboard-root"));

  fixture_tear_down (&fixture);
  handler_clear (&handler);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  g_test_add_func ("/everything/elicitation/accept", test_elicitation_accept);
  g_test_add_func ("/everything/elicitation/decline", test_elicitation_decline);
  g_test_add_func ("/everything/elicitation/no-handler", test_no_handler_no_capability);
  g_test_add_func ("/everything/roots/list", test_roots);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
