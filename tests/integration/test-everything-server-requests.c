/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-server-requests"

#include "config.h"

#include <string.h>

#include "everything-fixture.h"
#include "mcp-error.h"
#include "mcp-log-entry.h"
#include "mcp-roots.h"

/* What server-everything asks of the client (issue 8), through
 * McpServerManager as the front ends use it: with sampling, form
 * elicitation and roots declared it lists 16 tools; sampling/createMessage
 * answered or declined; roots/list from McpRoots and roots/list_changed
 * when they change; a subscription through the connection, made again after
 * a reconnect. */

#define ROOT_NAME "plugboard-added-root"

typedef struct
{
  EverythingFixture  fixture;
  McpRoots          *roots;
  guint              samplings;
  gboolean           decline;
  JsonObject        *sampling_params;
  guint              elicitations;
} RequestsTest;

static void
sampling_cb (McpServerConnection *connection,
             const char          *method,
             JsonObject          *params,
             GTask               *reply,
             gpointer             user_data)
{
  RequestsTest *test = user_data;
  g_autoptr(GTask) owned = reply;

  g_assert_cmpstr (method, ==, "sampling/createMessage");
  g_assert_cmpstr (mcp_server_connection_get_name (connection), ==, "everything");
  test->samplings++;
  g_clear_pointer (&test->sampling_params, json_object_unref);
  test->sampling_params = json_object_ref (params);

  if (test->decline)
    {
      g_task_return_new_error (owned, MCP_JSONRPC_ERROR, -1, "User rejected sampling request");
      return;
    }
  g_task_return_pointer (owned,
                         json_node_init_object (json_node_alloc (),
                                                everything_object ("{\"role\": \"assistant\","
                                                                   " \"content\": {\"type\": \"text\", \"text\": \"Written by the person\"},"
                                                                   " \"model\": \"human (test)\", \"stopReason\": \"endTurn\"}")),
                         (GDestroyNotify) json_node_unref);
}

static void
elicitation_cb (McpServerConnection *connection,
                const char          *method,
                JsonObject          *params,
                GTask               *reply,
                gpointer             user_data)
{
  RequestsTest *test = user_data;
  g_autoptr(GTask) owned = reply;

  test->elicitations++;
  g_task_return_pointer (owned,
                         json_node_init_object (json_node_alloc (), everything_object ("{\"action\": \"decline\"}")),
                         (GDestroyNotify) json_node_unref);
}

static void
prepare (McpServerManager *manager,
         gpointer          data)
{
  RequestsTest *test = data;
  g_autoptr(JsonObject) sampling = everything_object ("{\"sampling\": {}}");
  g_autoptr(JsonObject) elicitation = everything_object ("{\"elicitation\": {\"form\": {}}}");

  mcp_server_manager_set_request_handler (manager, "sampling/createMessage", sampling,
                                          sampling_cb, test, NULL);
  mcp_server_manager_set_request_handler (manager, "elicitation/create", elicitation,
                                          elicitation_cb, test, NULL);
  /* McpRoots keeps its file under the test's $XDG_DATA_HOME. */
  test->roots = mcp_roots_new (test->fixture.project_dir);
  mcp_server_manager_set_roots (manager, test->roots);
  g_assert_true (mcp_server_manager_get_roots (manager) == test->roots);
}

static void
set_up (RequestsTest *test)
{
  everything_fixture_set_up (&test->fixture, prepare, test);
}

static void
tear_down (RequestsTest *test)
{
  everything_fixture_tear_down (&test->fixture);
  g_clear_object (&test->roots);
  g_clear_pointer (&test->sampling_params, json_object_unref);
}

static McpProcessedResult *
run_tool (RequestsTest  *test,
          const char    *name,
          const char    *arguments,
          GError       **error)
{
  g_autofree char *qualified = g_strconcat ("mcp__everything__", name, NULL);
  McpPoolTool *tool = mcp_tool_pool_lookup (test->fixture.pool, qualified);
  const char *allow[] = { qualified, NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) object = everything_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_nonnull (tool);
  test_tool_call_run_async (tool, object, permissions, NULL, NULL,
                           test_result_cb, &result);
  return test_tool_call_finish (test_wait_result (&result, NULL), error);
}

static guint
count_everything_tools (RequestsTest *test)
{
  GListModel *tools = mcp_server_connection_get_tools (everything_connection (&test->fixture));

  return g_list_model_get_n_items (tools);
}

/* Acceptance: sampling, elicitation and roots declared → 16 tools. */
static void
test_sixteen_tools (void)
{
  RequestsTest test = { 0 };
  static const char * const conditional[] = {
    "get-roots-list", "trigger-elicitation-request", "trigger-sampling-request",
    "simulate-research-query",
  };

  if (!everything_available ())
    return;
  set_up (&test);
  for (guint i = 0; i < G_N_ELEMENTS (conditional); i++)
    everything_wait_tool (&test.fixture, conditional[i]);
  g_assert_cmpuint (count_everything_tools (&test), ==, 16);

  /* Only what the handlers handle was declared: no URL elicitation. */
  g_assert_null (mcp_tool_pool_lookup (test.fixture.pool, "mcp__everything__trigger-url-elicitation"));

  tear_down (&test);
}

static void
test_sampling (void)
{
  RequestsTest test = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *messages;

  if (!everything_available ())
    return;
  set_up (&test);
  everything_wait_tool (&test.fixture, "trigger-sampling-request");

  processed = run_tool (&test, "trigger-sampling-request", "{\"prompt\": \"a haiku\", \"maxTokens\": 40}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (test.samplings, ==, 1);
  /* The request as the server sent it, for the person to see in full. */
  g_assert_cmpstr (json_object_get_string_member (test.sampling_params, "systemPrompt"), ==,
                   "You are a helpful test server.");
  g_assert_cmpint (json_object_get_int_member (test.sampling_params, "maxTokens"), ==, 40);
  messages = json_object_get_array_member (test.sampling_params, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  g_assert_nonnull (strstr (json_object_get_string_member (
                              json_object_get_object_member (json_array_get_object_element (messages, 0), "content"),
                              "text"), "a haiku"));
  text = everything_result_text (processed);
  g_assert_nonnull (strstr (text, "Written by the person"));
  g_assert_nonnull (strstr (text, "human (test)"));
  g_clear_object (&processed);
  g_clear_pointer (&text, g_free);

  /* Declined: the server gets the refusal; nothing of a reply. */
  test.decline = TRUE;
  processed = run_tool (&test, "trigger-sampling-request", "{\"prompt\": \"again\"}", &error);
  g_assert_cmpuint (test.samplings, ==, 2);
  if (processed != NULL)
    {
      text = everything_result_text (processed);
      g_assert_true (mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)));
    }
  else
    text = g_strdup (error->message);
  g_assert_nonnull (strstr (text, "User rejected sampling request"));
  g_assert_null (strstr (text, "Written by the person"));

  tear_down (&test);
}

typedef struct
{
  GListModel *log;
  const char *prefix;
  guint       from;
} MessageWait;

static gboolean
message_logged (gpointer data)
{
  const MessageWait *wait = data;

  for (guint i = wait->from; i < g_list_model_get_n_items (wait->log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (wait->log, i);

      if (mcp_log_entry_get_kind (entry) == MCP_LOG_ENTRY_MESSAGE &&
          strstr (mcp_log_entry_get_text (entry), wait->prefix) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
test_roots (void)
{
  RequestsTest test = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *added = NULL;
  g_autofree char *project_uri = NULL;
  GListModel *log;
  MessageWait wait;

  if (!everything_available ())
    return;
  set_up (&test);
  everything_wait_tool (&test.fixture, "get-roots-list");
  log = mcp_server_connection_get_log (everything_connection (&test.fixture));

  processed = run_tool (&test, "get-roots-list", "{}", &error);
  g_assert_no_error (error);
  text = everything_result_text (processed);
  /* a server of the user settings: not offered the project folder
   * (issue 21, defect 6), only what is added for it */
  project_uri = g_filename_to_uri (mcp_roots_get_project_dir (test.roots), NULL, NULL);
  g_assert_null (strstr (text, project_uri));
  g_assert_null (strstr (text, ROOT_NAME));
  g_clear_object (&processed);
  g_clear_pointer (&text, g_free);

  /* A folder added: the server is told, asks again, and says so. */
  added = g_build_filename (test.fixture.dir, ROOT_NAME, NULL);
  g_assert_cmpint (g_mkdir_with_parents (added, 0700), ==, 0);
  wait = (MessageWait) { log, "Roots updated: 1 root(s)", g_list_model_get_n_items (log) };
  g_assert_true (mcp_roots_add (test.roots, "everything", added, &error));
  g_assert_no_error (error);
  test_iterate_until (message_logged, &wait, "message logged");

  processed = run_tool (&test, "get-roots-list", "{}", &error);
  g_assert_no_error (error);
  text = everything_result_text (processed);
  g_assert_null (strstr (text, project_uri));
  g_assert_nonnull (strstr (text, ROOT_NAME));

  /* Removed: told again. */
  wait = (MessageWait) { log, "Roots updated", g_list_model_get_n_items (log) };
  g_assert_true (mcp_roots_remove (test.roots, "everything", added, &error));
  g_assert_no_error (error);
  test_iterate_until (message_logged, &wait, "message logged");

  tear_down (&test);
}

static void
on_resource_updated_cb (McpServerConnection *connection,
                        const char          *uri,
                        GPtrArray           *uris)
{
  g_ptr_array_add (uris, g_strdup (uri));
}

static gboolean
has_update (gpointer data)
{
  return ((GPtrArray *) data)->len > 0;
}

static void
on_done_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  test_result_cb (object, result, user_data);
}

static void
test_subscription_survives_reconnect (void)
{
  static const char uri[] = "demo://resource/dynamic/text/2";
  RequestsTest test = { 0 };
  g_autoptr(GPtrArray) uris = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;

  if (!everything_available ())
    return;
  set_up (&test);
  connection = everything_connection (&test.fixture);
  g_signal_connect (connection, "resource-updated", G_CALLBACK (on_resource_updated_cb), uris);

  mcp_server_connection_subscribe_async (connection, uri, TRUE, NULL, on_done_cb, &result);
  g_assert_true (mcp_server_connection_subscribe_finish (connection, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  g_assert_true (mcp_server_connection_is_subscribed (connection, uri));
  g_clear_object (&result);

  processed = run_tool (&test, "toggle-subscriber-updates", "{}", &error);
  g_assert_no_error (error);
  g_clear_object (&processed);
  test_iterate_until (has_update, uris, "has update");
  g_assert_cmpstr (g_ptr_array_index (uris, 0), ==, uri);

  /* A new process: it knows of no subscription until the connection makes
   * it again. */
  mcp_server_connection_reconnect_async (connection, NULL, on_done_cb, &result);
  g_assert_true (mcp_server_connection_reconnect_finish (connection, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_ptr_array_set_size (uris, 0);
  g_assert_true (mcp_server_connection_is_subscribed (connection, uri));

  processed = run_tool (&test, "toggle-subscriber-updates", "{}", &error);
  g_assert_no_error (error);
  g_clear_object (&processed);
  test_iterate_until (has_update, uris, "has update");
  g_assert_cmpstr (g_ptr_array_index (uris, 0), ==, uri);

  mcp_server_connection_subscribe_async (connection, uri, FALSE, NULL, on_done_cb, &result);
  g_assert_true (mcp_server_connection_subscribe_finish (connection, test_wait_result (&result, NULL), &error));
  g_assert_false (mcp_server_connection_is_subscribed (connection, uri));

  tear_down (&test);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/everything/server-requests/sixteen-tools", test_sixteen_tools);
  g_test_add_func ("/everything/server-requests/sampling", test_sampling);
  g_test_add_func ("/everything/server-requests/roots", test_roots);
  g_test_add_func ("/everything/server-requests/subscription-survives-reconnect",
                   test_subscription_survives_reconnect);

  return g_test_run ();
}
