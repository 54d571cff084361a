/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-tasks"

#include "config.h"

#include <string.h>

#include "everything-fixture.h"
#include "mcp-error.h"

/* Tasks (issue 8, 2025-11-25 experimental) against server-everything's
 * simulate-research-query (execution.taskSupport "required"): the client's
 * tasks requests (tasks/get, result, cancel, list), and McpToolCall running it as a task with its status,
 * cancel, and an input_required pause answered by elicitation. */

#define RESEARCH "simulate-research-query"

typedef struct
{
  EverythingFixture  fixture;
  GPtrArray         *states;      /* McpTask reported to task_func */
  GCancellable      *cancellable;
  const char        *cancel_on;   /* cancel the call when a status message starts so */
  guint              elicitations;
} TaskTest;

static McpClient *
client_of (TaskTest *test)
{
  McpClient *client = mcp_server_connection_get_client (everything_connection (&test->fixture));

  g_assert_nonnull (client);
  return client;
}

static McpTask *
call_as_task (McpClient  *client,
              const char *name,
              const char *arguments,
              GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) object = everything_object (arguments);

  mcp_client_call_tool_as_task_async (client, name, object, 60000, NULL,
                                      test_result_cb, &result);
  return mcp_client_call_tool_as_task_finish (client, test_wait_result (&result, NULL), error);
}

static McpTask *
get_task (McpClient  *client,
          const char *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpTask *task;

  mcp_client_get_task_async (client, id, NULL, test_result_cb, &result);
  task = mcp_client_get_task_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_task_get_id (task), ==, id);
  return task;
}

/* The client's own requests: create, get, list, result, cancel. */
static void
test_client_requests (void)
{
  TaskTest test = { 0 };
  McpClient *client;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(McpTask) polled = NULL;
  g_autoptr(McpTask) other = NULL;
  g_autoptr(McpTask) cancelled = NULL;
  g_autoptr(GPtrArray) tasks = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean listed = FALSE;
  const char *text;

  if (!everything_available ())
    return;
  everything_fixture_set_up (&test.fixture, NULL, NULL);
  client = client_of (&test);
  g_assert_true (mcp_server_info_has_tasks (mcp_client_get_server_info (client)));

  task = call_as_task (client, RESEARCH, "{\"topic\": \"tides\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (mcp_task_get_id (task)), >, 0);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_STATUS_WORKING);
  g_assert_cmpint (mcp_task_get_poll_interval (task), ==, 1000);

  polled = get_task (client, mcp_task_get_id (task));
  g_assert_false (mcp_task_status_is_terminal (mcp_task_get_status (polled)));

  mcp_client_list_tasks_async (client, NULL, test_result_cb, &result);
  tasks = mcp_client_list_tasks_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tasks->len; i++)
    if (g_str_equal (mcp_task_get_id (g_ptr_array_index (tasks, i)), mcp_task_get_id (task)))
      listed = TRUE;
  g_assert_true (listed);
  g_clear_object (&result);

  /* tasks/result waits for the end (4 stages of 1 s: past no timeout here). */
  mcp_client_get_task_result_async (client, mcp_task_get_id (task), NULL,
                                    test_result_cb, &result);
  tool_result = mcp_client_get_task_result_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  text = mcp_content_get_text (g_ptr_array_index (mcp_tool_result_get_content (tool_result), 0));
  g_assert_nonnull (strstr (text, "# Research Report: tides"));
  g_clear_object (&polled);
  polled = get_task (client, mcp_task_get_id (task));
  g_assert_cmpint (mcp_task_get_status (polled), ==, MCP_TASK_STATUS_COMPLETED);
  g_clear_object (&result);

  /* Another, cancelled while it works. */
  other = call_as_task (client, RESEARCH, "{\"topic\": \"reefs\"}", &error);
  g_assert_no_error (error);
  mcp_client_cancel_task_async (client, mcp_task_get_id (other), NULL,
                                test_result_cb, &result);
  cancelled = mcp_client_cancel_task_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_task_get_status (cancelled), ==, MCP_TASK_STATUS_CANCELLED);
  g_clear_object (&polled);
  polled = get_task (client, mcp_task_get_id (other));
  g_assert_cmpint (mcp_task_get_status (polled), ==, MCP_TASK_STATUS_CANCELLED);
  g_clear_object (&result);

  /* An unknown task: the server's error. */
  mcp_client_get_task_async (client, "no-such-task", NULL, test_result_cb, &result);
  g_assert_null (mcp_client_get_task_finish (client, test_wait_result (&result, NULL), &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == MCP_JSONRPC_ERROR);

  everything_fixture_tear_down (&test.fixture);
}

static void
on_task_cb (McpPoolTool *tool,
            McpTask     *task,
            gpointer     user_data)
{
  TaskTest *test = user_data;

  g_assert_cmpstr (mcp_pool_tool_get_qualified_name (tool), ==, "mcp__everything__" RESEARCH);
  g_ptr_array_add (test->states, g_object_ref (task));
  if (test->cancel_on != NULL && mcp_task_get_status_message (task) != NULL &&
      g_str_has_prefix (mcp_task_get_status_message (task), test->cancel_on))
    g_cancellable_cancel (test->cancellable);
}

static McpProcessedResult *
run_research (TaskTest    *test,
              const char  *arguments,
              GError     **error)
{
  McpPoolTool *tool = mcp_tool_pool_lookup (test->fixture.pool, "mcp__everything__" RESEARCH);
  const char *allow[] = { "mcp__everything__" RESEARCH, NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) object = everything_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;
  TestToolCallHandlers handlers = { .task_func = on_task_cb, .data = test };

  g_assert_nonnull (tool);
  g_assert_cmpstr (mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool)), ==, "required");
  test_tool_call_run_async (tool, object, permissions, &handlers, test->cancellable,
                           test_result_cb, &result);
  return test_tool_call_finish (test_wait_result (&result, NULL), error);
}

static gboolean
saw_status (TaskTest      *test,
            McpTaskStatus  status,
            const char    *message_prefix)
{
  for (guint i = 0; i < test->states->len; i++)
    {
      McpTask *state = g_ptr_array_index (test->states, i);

      if (mcp_task_get_status (state) == status &&
          (message_prefix == NULL ||
           g_str_has_prefix (mcp_task_get_status_message (state) ?: "", message_prefix)))
        return TRUE;
    }
  return FALSE;
}

static McpTask *
last_state (TaskTest *test)
{
  g_assert_cmpuint (test->states->len, >, 0);
  return g_ptr_array_index (test->states, test->states->len - 1);
}

/* A "required" tool runs as a task through McpToolCall: statuses reported
 * as they change, one task throughout, the result at the end. */
static void
test_tool_call (void)
{
  TaskTest test = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!everything_available ())
    return;
  test.states = g_ptr_array_new_with_free_func (g_object_unref);
  everything_fixture_set_up (&test.fixture, NULL, NULL);
  everything_wait_tool (&test.fixture, RESEARCH);

  processed = run_research (&test, "{\"topic\": \"glaciers\"}", &error);
  g_assert_no_error (error);
  text = everything_result_text (processed);
  g_assert_nonnull (strstr (text, "# Research Report: glaciers"));

  g_assert_true (saw_status (&test, MCP_TASK_STATUS_WORKING, NULL));
  g_assert_true (saw_status (&test, MCP_TASK_STATUS_WORKING, "Synthesizing findings"));
  g_assert_cmpint (mcp_task_get_status (last_state (&test)), ==, MCP_TASK_STATUS_COMPLETED);
  for (guint i = 1; i < test.states->len; i++)
    {
      McpTask *before = g_ptr_array_index (test.states, i - 1);
      McpTask *now = g_ptr_array_index (test.states, i);

      g_assert_cmpstr (mcp_task_get_id (now), ==, mcp_task_get_id (before));
      /* Only changes are reported. */
      g_assert_false (g_strcmp0 (mcp_task_get_status_string (now), mcp_task_get_status_string (before)) == 0 &&
                      g_strcmp0 (mcp_task_get_status_message (now), mcp_task_get_status_message (before)) == 0);
    }

  everything_fixture_tear_down (&test.fixture);
  g_ptr_array_unref (test.states);
}

/* Cancelling the call cancels the task on the server. */
static void
test_tool_call_cancel (void)
{
  TaskTest test = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(McpTask) polled = NULL;
  g_autoptr(GError) error = NULL;

  if (!everything_available ())
    return;
  test.states = g_ptr_array_new_with_free_func (g_object_unref);
  test.cancellable = g_cancellable_new ();
  test.cancel_on = "Analyzing content";
  everything_fixture_set_up (&test.fixture, NULL, NULL);
  everything_wait_tool (&test.fixture, RESEARCH);

  processed = run_research (&test, "{\"topic\": \"dunes\"}", &error);
  g_assert_null (processed);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (mcp_task_get_status (last_state (&test)), ==, MCP_TASK_STATUS_CANCELLED);
  g_assert_false (saw_status (&test, MCP_TASK_STATUS_COMPLETED, NULL));

  polled = get_task (client_of (&test), mcp_task_get_id (last_state (&test)));
  g_assert_cmpint (mcp_task_get_status (polled), ==, MCP_TASK_STATUS_CANCELLED);

  everything_fixture_tear_down (&test.fixture);
  g_ptr_array_unref (test.states);
  g_object_unref (test.cancellable);
}

static void
elicitation_cb (McpServerConnection *connection,
                const char          *method,
                JsonObject          *params,
                GTask               *reply,
                gpointer             user_data)
{
  TaskTest *test = user_data;
  JsonObject *schema = json_object_get_object_member (params, "requestedSchema");
  JsonObject *properties = json_object_get_object_member (schema, "properties");
  JsonObject *interpretation = json_object_get_object_member (properties, "interpretation");
  JsonArray *choices = json_object_get_array_member (interpretation, "oneOf");
  JsonObject *second = json_array_get_object_element (choices, 1);
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  test->elicitations++;
  g_assert_nonnull (strstr (json_object_get_string_member (params, "message"), "“python”") ?:
                    strstr (json_object_get_string_member (params, "message"), "\"python\""));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "action");
  json_builder_add_string_value (builder, "accept");
  json_builder_set_member_name (builder, "content");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "interpretation");
  json_builder_add_string_value (builder, json_object_get_string_member (second, "const"));
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  g_task_return_pointer (reply, json_builder_get_root (builder), (GDestroyNotify) json_node_unref);
  g_object_unref (reply);
}

static void
prepare_elicitation (McpServerManager *manager,
                     gpointer          data)
{
  g_autoptr(JsonObject) capabilities = everything_object ("{\"elicitation\": {\"form\": {}}}");

  mcp_server_manager_set_request_handler (manager, "elicitation/create", capabilities,
                                          elicitation_cb, data, NULL);
}

/* An ambiguous query pauses in input_required; the server's elicitation
 * comes while tasks/result waits, and its answer ends up in the report. */
static void
test_input_required (void)
{
  TaskTest test = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!everything_available ())
    return;
  test.states = g_ptr_array_new_with_free_func (g_object_unref);
  everything_fixture_set_up (&test.fixture, prepare_elicitation, &test);
  everything_wait_tool (&test.fixture, RESEARCH);

  processed = run_research (&test, "{\"topic\": \"python\", \"ambiguous\": true}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (test.elicitations, ==, 1);
  text = everything_result_text (processed);
  g_assert_nonnull (strstr (text, "# Research Report: python (snake)"));
  g_assert_true (saw_status (&test, MCP_TASK_STATUS_WORKING, "Continuing with interpretation: \"snake\""));
  g_assert_cmpint (mcp_task_get_status (last_state (&test)), ==, MCP_TASK_STATUS_COMPLETED);

  everything_fixture_tear_down (&test.fixture);
  g_ptr_array_unref (test.states);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/everything/tasks/client", test_client_requests);
  g_test_add_func ("/everything/tasks/tool-call", test_tool_call);
  g_test_add_func ("/everything/tasks/tool-call-cancel", test_tool_call_cancel);
  g_test_add_func ("/everything/tasks/input-required", test_input_required);

  return g_test_run ();
}
