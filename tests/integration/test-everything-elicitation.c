/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-elicitation"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "everything-fixture.h"
#include "mcp-error.h"
#include "mcp-permissions.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "test-tool-call.h"
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

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  return node;
}

/* server-everything through McpSettings and McpServerManager
 * (everything-fixture); @prepare sets handlers before the server connects. */
static void
fixture_set_up (EverythingFixture     *fixture,
                EverythingPrepareFunc  prepare,
                gpointer               data)
{
  everything_fixture_set_up (fixture, prepare, data);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (fixture->settings)), ==, 1);
}

static char *
run_tool (EverythingFixture *fixture,
          const char        *name)
{
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  processed = everything_run_pool_tool (fixture->pool, name, "{}", &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)));
  return everything_result_text (processed);
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
  EverythingFixture fixture = { 0 };
  g_autofree char *text = NULL;
  JsonObject *params;
  JsonObject *schema;

  if (!everything_available ())
    return;

  fixture_set_up (&fixture, prepare_elicitation, &handler);
  everything_wait_pool_tool (fixture.pool, ELICITATION_TOOL);

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

  everything_fixture_tear_down (&fixture);
  handler_clear (&handler);
}

static void
test_elicitation_decline (void)
{
  Handler handler = { .answer = "{\"action\":\"decline\"}" };
  EverythingFixture fixture = { 0 };
  g_autofree char *text = NULL;

  if (!everything_available ())
    return;

  fixture_set_up (&fixture, prepare_elicitation, &handler);
  everything_wait_pool_tool (fixture.pool, ELICITATION_TOOL);

  text = run_tool (&fixture, ELICITATION_TOOL);
  g_assert_cmpuint (handler.calls, ==, 1);
  g_assert_nonnull (strstr (text, "declined"));
  g_assert_null (strstr (text, "Ada Lovelace"));

  everything_fixture_tear_down (&fixture);
  handler_clear (&handler);
}

static void
test_no_handler_no_capability (void)
{
  EverythingFixture fixture = { 0 };
  McpServerConnection *connection;
  GListModel *tools;
  guint n;

  if (!everything_available ())
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

  everything_fixture_tear_down (&fixture);
}

static void
test_roots (void)
{
  Handler handler = { .answer = "{\"roots\":[{\"uri\":\"file:///tmp/plugboard-root\","
                                "\"name\":\"plugboard-root\"}]}" };
  EverythingFixture fixture = { 0 };
  g_autofree char *text = NULL;

  if (!everything_available ())
    return;

  fixture_set_up (&fixture, prepare_roots, &handler);
  everything_wait_pool_tool (fixture.pool, ROOTS_TOOL);
  g_assert_null (mcp_tool_pool_lookup (fixture.pool, ELICITATION_TOOL));

  text = run_tool (&fixture, ROOTS_TOOL);
  g_assert_cmpuint (handler.calls, >=, 1);
  g_assert_cmpstr (handler.method, ==, "roots/list");
  g_assert_nonnull (strstr (text, "file:///tmp/plugboard-root"));
  g_assert_nonnull (strstr (text, "plugboard-root"));

  everything_fixture_tear_down (&fixture);
  handler_clear (&handler);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/everything/elicitation/accept", test_elicitation_accept);
  g_test_add_func ("/everything/elicitation/decline", test_elicitation_decline);
  g_test_add_func ("/everything/elicitation/no-handler", test_no_handler_no_capability);
  g_test_add_func ("/everything/roots/list", test_roots);

  status = g_test_run ();

  return status;
}
