/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-request-handlers"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-server-config.h"
#include "mcp-server-manager.h"
#include "test-tool-call.h"
#include "mcp-tool-pool.h"
#include "mcp-transport.h"
#include "test-loopback-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* Server-to-client requests: McpClient's handlers through a loopback
 * transport (the test is the server), then McpServerManager's handlers
 * and tool call progress against the stdio fixture server. */

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* Runs the main context until nothing is left to do right now. */
static void
drain (void)
{
  for (guint i = 0; i < 50; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
server_says (McpTransport *transport,
             const char   *json)
{
  g_autoptr(JsonNode) node = parse (json);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpMessage) message = mcp_message_new_from_node (node, &error);

  g_assert_no_error (error);
  mcp_transport_emit_message (transport, message);
}

/* The messages the client sent whose id is @id (a JSON literal). */
static McpMessage *
find_reply (TestLoopbackTransport *transport,
            const char    *id)
{
  for (guint i = 0; i < transport->sent->len; i++)
    {
      McpMessage *message = g_ptr_array_index (transport->sent, i);
      JsonNode *message_id;
      g_autofree char *text = NULL;

      if (mcp_message_get_kind (message) != MCP_MESSAGE_RESULT &&
          mcp_message_get_kind (message) != MCP_MESSAGE_ERROR)
        continue;
      message_id = mcp_message_get_id (message);
      text = json_to_string (message_id, FALSE);
      if (g_str_equal (text, id))
        return message;
    }
  return NULL;
}

typedef struct
{
  TestLoopbackTransport *transport;
  const char    *id;
} ReplyWait;

static gboolean
reply_arrived (gpointer data)
{
  const ReplyWait *wait = data;

  return find_reply (wait->transport, wait->id) != NULL;
}

static McpMessage *
wait_reply (TestLoopbackTransport *transport,
            const char    *id)
{
  ReplyWait wait = { transport, id };

  test_iterate_until (reply_arrived, &wait, "reply arrived");
  return find_reply (transport, id);
}

/* Connects a client over a loopback transport, answering its initialize. */
static McpClient *
connect_loopback (TestLoopbackTransport **transport_out,
                  JsonObject     *capabilities,
                  JsonObject    **initialize_params)
{
  g_autoptr(McpTransport) transport = MCP_TRANSPORT (test_loopback_transport_new (FALSE));
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *initialize;
  gint64 id;
  g_autofree char *answer = NULL;

  if (capabilities != NULL)
    mcp_client_set_capabilities (client, capabilities);
  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  drain ();

  g_assert_cmpuint (TEST_LOOPBACK_TRANSPORT (transport)->sent->len, ==, 1);
  initialize = g_ptr_array_index (TEST_LOOPBACK_TRANSPORT (transport)->sent, 0);
  g_assert_cmpstr (mcp_message_get_method (initialize), ==, "initialize");
  g_assert_true (mcp_message_get_int_id (initialize, &id));
  if (initialize_params != NULL)
    *initialize_params = json_object_ref (mcp_message_get_params_object (initialize));

  answer = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                            "\"protocolVersion\":\"%s\",\"capabilities\":{},"
                            "\"serverInfo\":{\"name\":\"loop\",\"version\":\"1\"}}}",
                            id, MCP_PROTOCOL_VERSION_LATEST);
  server_says (transport, answer);
  mcp_client_connect_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);

  *transport_out = TEST_LOOPBACK_TRANSPORT (transport);
  return g_steal_pointer (&client);
}

/* ------------------------------------------------------------------------ */
/* McpClient                                                                */

static void
test_client_capabilities_declared (void)
{
  g_autoptr(JsonNode) capabilities = parse ("{\"elicitation\":{\"form\":{}},\"roots\":{}}");
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpClient) bare = NULL;
  TestLoopbackTransport *transport;
  JsonObject *declared;

  client = connect_loopback (&transport, json_node_get_object (capabilities), &params);
  declared = json_object_get_object_member (params, "capabilities");
  g_assert_nonnull (declared);
  g_assert_true (json_object_has_member (declared, "elicitation"));
  g_assert_true (json_object_has_member (json_object_get_object_member (declared, "elicitation"), "form"));
  g_assert_true (json_object_has_member (declared, "roots"));

  g_clear_pointer (&params, json_object_unref);
  bare = connect_loopback (&transport, NULL, &params);
  declared = json_object_get_object_member (params, "capabilities");
  g_assert_nonnull (declared);
  g_assert_cmpuint (json_object_get_size (declared), ==, 0);
}

typedef struct
{
  guint       calls;
  char       *method;
  JsonNode   *params;
  GTask      *reply;          /* kept when the test answers later */
  gboolean    answer_now;
  const char *answer;         /* JSON, or NULL for an error */
  GError     *error;
  gboolean    destroyed;
} Handler;

static void
handler_clear (Handler *handler)
{
  g_clear_pointer (&handler->method, g_free);
  g_clear_pointer (&handler->params, json_node_unref);
  g_clear_object (&handler->reply);
  g_clear_error (&handler->error);
}

static void
handler_destroy (gpointer data)
{
  ((Handler *) data)->destroyed = TRUE;
}

static void
answer_handler (Handler *handler,
                GTask   *reply)
{
  if (handler->answer != NULL)
    g_task_return_pointer (reply, parse (handler->answer), (GDestroyNotify) json_node_unref);
  else
    g_task_return_error (reply, g_error_copy (handler->error));
  g_object_unref (reply);
}

static void
client_request_cb (McpClient  *client,
                   const char *method,
                   JsonObject *params,
                   GTask      *reply,
                   gpointer    user_data)
{
  Handler *handler = user_data;

  g_assert_true (MCP_IS_CLIENT (client));
  handler->calls++;
  g_free (handler->method);
  handler->method = g_strdup (method);
  g_clear_pointer (&handler->params, json_node_unref);
  if (params != NULL)
    {
      handler->params = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (handler->params, params);
    }

  if (handler->answer_now)
    answer_handler (handler, reply);
  else
    handler->reply = reply;
}

static void
test_client_handler_answers (void)
{
  Handler handler = { .answer_now = TRUE,
                      .answer = "{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}" };
  g_autoptr(McpClient) client = NULL;
  TestLoopbackTransport *transport;
  McpMessage *reply;
  JsonObject *result;

  client = connect_loopback (&transport, NULL, NULL);
  mcp_client_set_request_handler (client, "elicitation/create", client_request_cb, &handler,
                                  handler_destroy);

  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":\"e-1\",\"method\":\"elicitation/create\","
               "\"params\":{\"message\":\"Who?\",\"requestedSchema\":{\"type\":\"object\"}}}");
  reply = wait_reply (transport, "\"e-1\"");

  g_assert_cmpuint (handler.calls, ==, 1);
  g_assert_cmpstr (handler.method, ==, "elicitation/create");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (handler.params), "message"),
                   ==, "Who?");
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_RESULT);
  result = json_node_get_object (mcp_message_get_result (reply));
  g_assert_cmpstr (json_object_get_string_member (result, "action"), ==, "accept");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (result, "content"), "name"),
                   ==, "Ada");

  /* An integer id is answered with the same integer id. */
  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"elicitation/create\",\"params\":{}}");
  reply = wait_reply (transport, "7");
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_RESULT);
  g_assert_cmpuint (handler.calls, ==, 2);

  /* Removing it: the method is not found any more, and the data is let go. */
  g_assert_false (handler.destroyed);
  mcp_client_set_request_handler (client, "elicitation/create", NULL, NULL, NULL);
  g_assert_true (handler.destroyed);
  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":\"e-2\",\"method\":\"elicitation/create\",\"params\":{}}");
  reply = wait_reply (transport, "\"e-2\"");
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (reply), ==, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND);
  g_assert_cmpuint (handler.calls, ==, 2);

  handler_clear (&handler);
}

static void
test_client_handler_errors (void)
{
  Handler handler = { .answer_now = TRUE };
  g_autoptr(McpClient) client = NULL;
  TestLoopbackTransport *transport;
  McpMessage *reply;

  client = connect_loopback (&transport, NULL, NULL);
  mcp_client_set_request_handler (client, "roots/list", client_request_cb, &handler, NULL);

  /* A JSON-RPC error keeps its code and message. */
  handler.error = g_error_new_literal (MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                       "No such root");
  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roots/list\"}");
  reply = wait_reply (transport, "1");
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (reply), ==, MCP_JSONRPC_ERROR_INVALID_PARAMS);
  g_assert_cmpstr (mcp_message_get_error_message (reply), ==, "No such root");
  g_assert_null (handler.params);

  /* Any other error is an internal error. */
  g_clear_error (&handler.error);
  handler.error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "disk on fire");
  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roots/list\"}");
  reply = wait_reply (transport, "2");
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (reply), ==, MCP_JSONRPC_ERROR_INTERNAL_ERROR);
  g_assert_nonnull (strstr (mcp_message_get_error_message (reply), "disk on fire"));

  /* Methods without a handler: -32601, ping still answered. */
  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"sampling/createMessage\",\"params\":{}}");
  reply = wait_reply (transport, "3");
  g_assert_cmpint (mcp_message_get_error_code (reply), ==, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND);
  server_says (MCP_TRANSPORT (transport), "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
  reply = wait_reply (transport, "4");
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_RESULT);
  g_assert_cmpuint (handler.calls, ==, 2);

  handler_clear (&handler);
}

static void
test_client_handler_cancelled (void)
{
  Handler handler = { .answer_now = FALSE, .answer = "{\"roots\":[]}" };
  g_autoptr(McpClient) client = NULL;
  TestLoopbackTransport *transport;
  GCancellable *cancellable;
  guint sent_before;

  client = connect_loopback (&transport, NULL, NULL);
  mcp_client_set_request_handler (client, "roots/list", client_request_cb, &handler, NULL);

  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":\"r-1\",\"method\":\"roots/list\"}");
  drain ();
  g_assert_cmpuint (handler.calls, ==, 1);
  g_assert_nonnull (handler.reply);
  cancellable = g_task_get_cancellable (handler.reply);
  g_assert_nonnull (cancellable);
  g_assert_false (g_cancellable_is_cancelled (cancellable));

  /* Another request's cancellation changes nothing. */
  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"r-9\"}}");
  g_assert_false (g_cancellable_is_cancelled (cancellable));

  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
               "\"params\":{\"requestId\":\"r-1\",\"reason\":\"timeout\"}}");
  g_assert_true (g_cancellable_is_cancelled (cancellable));

  /* The handler gives up; the server, which cancelled, gets no answer. */
  sent_before = transport->sent->len;
  /* handler_clear() drops the handler's reference afterwards */
  g_task_return_new_error (handler.reply, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  drain ();
  g_assert_cmpuint (transport->sent->len, ==, sent_before);
  g_assert_null (find_reply (transport, "\"r-1\""));

  handler_clear (&handler);
}

static void
test_client_handler_later_answer (void)
{
  Handler handler = { .answer_now = FALSE, .answer = "{\"roots\":[{\"uri\":\"file:///tmp\"}]}" };
  g_autoptr(McpClient) client = NULL;
  TestLoopbackTransport *transport;
  McpMessage *reply;
  JsonArray *roots;

  client = connect_loopback (&transport, NULL, NULL);
  mcp_client_set_request_handler (client, "roots/list", client_request_cb, &handler, NULL);

  server_says (MCP_TRANSPORT (transport),
               "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"roots/list\"}");
  drain ();
  g_assert_null (find_reply (transport, "5"));
  answer_handler (&handler, g_steal_pointer (&handler.reply));
  reply = wait_reply (transport, "5");
  roots = json_object_get_array_member (json_node_get_object (mcp_message_get_result (reply)), "roots");
  g_assert_cmpuint (json_array_get_length (roots), ==, 1);

  handler_clear (&handler);
}

/* ------------------------------------------------------------------------ */
/* McpServerManager and tool calls against the stdio fixture                */

typedef struct
{
  McpServerManager *manager;
  McpToolPool      *pool;
} Fixture;

static gboolean
pool_has_ask_tool (gpointer data)
{
  return mcp_tool_pool_lookup ((McpToolPool *) data, "mcp__fix__ask") != NULL;
}

typedef struct
{
  guint                calls;
  McpServerConnection *connection;
  char                *method;
  gboolean             destroyed;
  const char          *answer;
  GError              *error;
} ManagerHandler;

static void
manager_request_cb (McpServerConnection *connection,
                    const char          *method,
                    JsonObject          *params,
                    GTask               *reply,
                    gpointer             user_data)
{
  ManagerHandler *handler = user_data;

  handler->calls++;
  handler->connection = connection;
  g_free (handler->method);
  handler->method = g_strdup (method);
  if (handler->answer != NULL)
    g_task_return_pointer (reply, parse (handler->answer), (GDestroyNotify) json_node_unref);
  else
    g_task_return_error (reply, g_error_copy (handler->error));
  g_object_unref (reply);
}

static void
manager_handler_destroy (gpointer data)
{
  ((ManagerHandler *) data)->destroyed = TRUE;
}

static void
fixture_set_up (Fixture        *fixture,
                ManagerHandler *handler)
{
  const char *server = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (server);
  json_object_set_string_member (object, "command", server);
  config = mcp_server_config_new_from_json ("fix", MCP_CONFIG_SCOPE_USER, object,
                                            "test", "$.mcpServers.fix", &error);
  g_assert_no_error (error);
  g_list_store_append (configs, config);

  fixture->manager = mcp_server_manager_new ();
  if (handler != NULL)
    {
      g_autoptr(JsonNode) capabilities = parse ("{\"roots\":{\"listChanged\":false}}");

      mcp_server_manager_set_request_handler (fixture->manager, "roots/list",
                                              json_node_get_object (capabilities),
                                              manager_request_cb, handler,
                                              manager_handler_destroy);
    }
  fixture->pool = mcp_tool_pool_new (G_LIST_MODEL (fixture->manager));
  mcp_server_manager_set_configs (fixture->manager, G_LIST_MODEL (configs));
  test_manager_settle (fixture->manager);

  test_iterate_until (pool_has_ask_tool, fixture->pool, "pool has ask tool");
}

static void
fixture_tear_down (Fixture *fixture)
{
  g_autoptr(GAsyncResult) closed = NULL;

  mcp_server_manager_close_async (fixture->manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (fixture->manager, test_wait_result (&closed, NULL), NULL);
  g_clear_object (&fixture->pool);
  g_clear_object (&fixture->manager);
}

static McpProcessedResult *
run_tool (Fixture                   *fixture,
          const char                *name,
          const char                *arguments_json,
          const TestToolCallHandlers *handlers,
          GError                   **error)
{
  McpPoolTool *tool = mcp_tool_pool_lookup (fixture->pool, name);
  const char *allow[] = { name, NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) arguments = parse (arguments_json);

  g_assert_nonnull (tool);
  test_tool_call_run_async (tool, json_node_get_object (arguments), permissions, handlers,
                           NULL, test_result_cb, &result);
  return test_tool_call_finish (test_wait_result (&result, NULL), error);
}

static const char *
first_text (McpProcessedResult *processed)
{
  GPtrArray *content = mcp_tool_result_get_content (mcp_processed_result_get_result (processed));

  g_assert_cmpuint (content->len, >, 0);
  return mcp_content_get_text (g_ptr_array_index (content, 0));
}

static void
test_manager_handler (void)
{
  ManagerHandler handler = { .answer = "{\"roots\":[{\"uri\":\"file:///work\",\"name\":\"work\"}]}" };
  Fixture fixture = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  const char *text;

  fixture_set_up (&fixture, &handler);

  processed = run_tool (&fixture, "mcp__fix__ask", "{\"method\":\"roots/list\"}", NULL, &error);
  g_assert_no_error (error);
  text = first_text (processed);
  g_assert_cmpuint (handler.calls, ==, 1);
  g_assert_cmpstr (handler.method, ==, "roots/list");
  g_assert_true (handler.connection == mcp_server_manager_lookup (fixture.manager, "fix"));
  g_assert_nonnull (strstr (text, "\"result\""));
  g_assert_nonnull (strstr (text, "file:///work"));

  /* An error from the handler reaches the server with its code. */
  g_clear_object (&processed);
  handler.answer = NULL;
  handler.error = g_error_new_literal (MCP_JSONRPC_ERROR, -1, "User rejected");
  processed = run_tool (&fixture, "mcp__fix__ask", "{\"method\":\"roots/list\"}", NULL, &error);
  g_assert_no_error (error);
  text = first_text (processed);
  g_assert_cmpuint (handler.calls, ==, 2);
  g_assert_nonnull (strstr (text, "\"error\""));
  g_assert_nonnull (strstr (text, "-1"));
  g_assert_nonnull (strstr (text, "User rejected"));

  /* A method without a handler: not found. */
  g_clear_object (&processed);
  processed = run_tool (&fixture, "mcp__fix__ask", "{\"method\":\"elicitation/create\"}", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (first_text (processed), "-32601"));
  g_assert_cmpuint (handler.calls, ==, 2);

  g_assert_false (handler.destroyed);
  fixture_tear_down (&fixture);
  g_assert_true (handler.destroyed);
  g_clear_error (&handler.error);
  g_free (handler.method);
}

static void
test_manager_handler_removed (void)
{
  ManagerHandler handler = { .answer = "{\"roots\":[]}" };
  Fixture fixture = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) reconnected = NULL;
  McpServerConnection *connection;

  fixture_set_up (&fixture, &handler);
  mcp_server_manager_set_request_handler (fixture.manager, "roots/list", NULL, NULL, NULL, NULL);

  /* The next connection has no handler. */
  connection = mcp_server_manager_lookup (fixture.manager, "fix");
  mcp_server_connection_reconnect_async (connection, NULL, test_result_cb, &reconnected);
  mcp_server_connection_reconnect_finish (connection, test_wait_result (&reconnected, NULL), &error);
  g_assert_no_error (error);

  processed = run_tool (&fixture, "mcp__fix__ask", "{\"method\":\"roots/list\"}", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (first_text (processed), "-32601"));
  g_assert_cmpuint (handler.calls, ==, 0);

  fixture_tear_down (&fixture);
  /* The session before the reconnect let go of the handler when it ended:
   * its server may take a moment to exit (slower still under a sanitizer). */
  TEST_WAIT_UNTIL (handler.destroyed);
  g_assert_true (handler.destroyed);
  g_free (handler.method);
}

typedef struct
{
  GArray    *progress;
  GPtrArray *messages;
  double     total;
} Progress;

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  Progress *seen = user_data;

  g_array_append_val (seen->progress, progress);
  g_ptr_array_add (seen->messages, g_strdup (message));
  seen->total = total;
}

static void
test_tool_call_progress (void)
{
  Progress seen = { g_array_new (FALSE, FALSE, sizeof (double)),
                    g_ptr_array_new_with_free_func (g_free), 0 };
  TestToolCallHandlers handlers = { .progress_func = progress_cb, .data = &seen };
  Fixture fixture = { 0 };
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  fixture_set_up (&fixture, NULL);

  /* Each step's progress restarts the 400 ms timeout (the manager's
   * tool-timeout, MCP_TOOL_TIMEOUT through a project's McpLimits): the
   * call takes 1.2 s and still succeeds. */
  g_object_set (fixture.manager, "tool-timeout", 400, NULL);
  processed = run_tool (&fixture, "mcp__fix__slow", "{\"ms\":1200,\"progress_ms\":150}",
                        &handlers, &error);
  g_assert_no_error (error);
  g_assert_nonnull (processed);

  g_assert_cmpuint (seen.progress->len, >=, 3);
  for (guint i = 1; i < seen.progress->len; i++)
    g_assert_cmpfloat (g_array_index (seen.progress, double, i), >,
                       g_array_index (seen.progress, double, i - 1));
  g_assert_cmpfloat (seen.total, ==, 8);
  g_assert_cmpstr (g_ptr_array_index (seen.messages, 0), ==, "step 1");
  g_assert_cmpstr (g_ptr_array_index (seen.messages, 1), ==, "step 2");

  /* Without progress, the same timeout ends the call. */
  g_clear_object (&processed);
  processed = run_tool (&fixture, "mcp__fix__slow", "{\"ms\":1200}", NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_null (processed);

  fixture_tear_down (&fixture);
  g_array_unref (seen.progress);
  g_ptr_array_unref (seen.messages);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/request-handlers/client/capabilities", test_client_capabilities_declared);
  g_test_add_func ("/request-handlers/client/answers", test_client_handler_answers);
  g_test_add_func ("/request-handlers/client/errors", test_client_handler_errors);
  g_test_add_func ("/request-handlers/client/cancelled", test_client_handler_cancelled);
  g_test_add_func ("/request-handlers/client/later-answer", test_client_handler_later_answer);
  g_test_add_func ("/request-handlers/manager/answers", test_manager_handler);
  g_test_add_func ("/request-handlers/manager/removed", test_manager_handler_removed);
  g_test_add_func ("/tool-call/progress", test_tool_call_progress);

  return g_test_run ();
}
