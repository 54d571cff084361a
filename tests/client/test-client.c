/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client"

#include "config.h"

#include <signal.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* Tests of McpClient against the fault-injection fixture server. */

static McpClient *
fixture_client_new (const char * const *extra_args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *fixture = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  g_autoptr(McpTransport) transport = NULL;

  g_assert_nonnull (fixture);
  g_ptr_array_add (argv, (gpointer) fixture);
  for (guint i = 0; extra_args != NULL && extra_args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra_args[i]);
  g_ptr_array_add (argv, NULL);

  transport = mcp_stdio_transport_new ((const char * const *) argv->pdata, NULL, NULL);
  return mcp_client_new (transport);
}

static McpClient *
connected_fixture_client (const char * const *extra_args)
{
  g_autoptr(McpClient) client = fixture_client_new (extra_args);
  g_autoptr(GError) error = NULL;

  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);
  return g_steal_pointer (&client);
}

static void
client_close (McpClient *client)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (test_client_close (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static McpToolResult *
call_tool (McpClient               *client,
           const char              *name,
           const char              *arguments_json,
           const McpRequestOptions *options,
           GCancellable            *cancellable,
           GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) arguments = NULL;

  if (arguments_json != NULL)
    {
      arguments = json_from_string (arguments_json, NULL);
      g_assert_nonnull (arguments);
    }

  mcp_client_call_tool_async (client, name, arguments ? json_node_get_object (arguments) : NULL,
                              options, cancellable, test_result_cb, &result);
  return mcp_client_call_tool_finish (client, test_wait_result (&result, NULL), error);
}

static char *
call_tool_text (McpClient  *client,
                const char *name,
                const char *arguments_json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  GPtrArray *content;

  result = call_tool (client, name, arguments_json, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  content = mcp_tool_result_get_content (result);
  g_assert_cmpuint (content->len, >=, 1);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 0)), ==, MCP_CONTENT_TEXT);
  return g_strdup (mcp_content_get_text (g_ptr_array_index (content, 0)));
}

/* The fixture's "state" tool: what it saw of us. */
static JsonObject *
fixture_state (McpClient *client)
{
  g_autofree char *text = call_tool_text (client, "state", NULL);
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static gboolean
fixture_saw_cancel_of (JsonObject *state,
                       gint64      id)
{
  JsonArray *cancelled = json_object_get_array_member (state, "cancelled");

  for (guint i = 0; i < json_array_get_length (cancelled); i++)
    {
      JsonNode *element = json_array_get_element (cancelled, i);

      if (json_node_get_value_type (element) == G_TYPE_INT64 && json_node_get_int (element) == id)
        return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */

static void
test_initialize_handshake (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(JsonObject) state = NULL;
  McpServerInfo *info = mcp_client_get_server_info (client);

  g_assert_nonnull (info);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "mcp-fixture-server");
  g_assert_cmpstr (mcp_server_info_get_version (info), ==, "1.0.0");
  g_assert_true (mcp_server_info_has_tools (info));
  g_assert_true (mcp_server_info_has_tools_list_changed (info));
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, MCP_PROTOCOL_VERSION_LATEST);

  /* notifications/initialized went out after the initialize response and
   * before any other request. */
  state = fixture_state (client);
  g_assert_true (json_object_get_boolean_member (state, "initialized_before_requests"));

  client_close (client);
}

/* The fixture is of the handshake era: the era probe (server/discover) goes
 * first, is refused with -32601, and initialize follows. */
static void
test_era_probe_refused (void)
{
  g_autoptr(McpClient) client = fixture_client_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) state = NULL;
  JsonArray *methods;

  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_UNKNOWN);
  g_assert_cmpint (mcp_client_get_era_hint (client), ==, MCP_PROTOCOL_ERA_UNKNOWN);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_LEGACY);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2025-11-25");

  state = fixture_state (client);
  g_assert_cmpint (json_object_get_int_member (state, "probes"), ==, 1);
  methods = json_object_get_array_member (state, "methods");
  g_assert_cmpuint (json_array_get_length (methods), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (methods, 0), ==, "server/discover");
  g_assert_cmpstr (json_array_get_string_element (methods, 1), ==, "initialize");
  g_assert_cmpstr (json_array_get_string_element (methods, 2), ==, "tools/call");
  g_assert_true (json_object_get_boolean_member (state, "initialized_before_requests"));

  client_close (client);
}

/* Told the server is of the handshake era, connect sends no probe. */
static void
test_era_hint_legacy (void)
{
  g_autoptr(McpClient) client = fixture_client_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) state = NULL;
  JsonArray *methods;

  mcp_client_set_era_hint (client, MCP_PROTOCOL_ERA_LEGACY);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_LEGACY);

  state = fixture_state (client);
  g_assert_cmpint (json_object_get_int_member (state, "probes"), ==, 0);
  methods = json_object_get_array_member (state, "methods");
  g_assert_cmpstr (json_array_get_string_element (methods, 0), ==, "initialize");

  client_close (client);
}

/* A handshake-era server that says nothing to server/discover: connect
 * falls back to initialize once the probe times out — at most half the
 * connect timeout, so a 2 s connect timeout gives the probe 1 s and
 * initialize the rest. */
static void
test_era_probe_unanswered (void)
{
  const char *args[] = { "--ignore-discover", NULL };
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) state = NULL;
  JsonArray *methods;

  client = fixture_client_new (args);
  mcp_client_set_connect_timeout (client, 2000);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_LEGACY);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2025-11-25");

  state = fixture_state (client);
  g_assert_cmpint (json_object_get_int_member (state, "probes"), ==, 1);
  methods = json_object_get_array_member (state, "methods");
  g_assert_cmpstr (json_array_get_string_element (methods, 0), ==, "server/discover");
  g_assert_cmpstr (json_array_get_string_element (methods, 1), ==, "initialize");

  client_close (client);
}

static void
test_initialize_older_version (void)
{
  const char *args[] = { "--protocol-version", "2024-11-05", NULL };
  g_autoptr(McpClient) client = connected_fixture_client (args);

  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2024-11-05");
  client_close (client);
}

static void
test_initialize_unsupported_version (void)
{
  const char *args[] = { "--protocol-version", "1999-01-01", NULL };
  g_autoptr(McpClient) client = fixture_client_new (args);
  g_autoptr(GError) error = NULL;
  McpTransport *transport = mcp_client_get_transport (client);

  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION);
  g_assert_nonnull (strstr (error->message, "1999-01-01"));
  g_assert_nonnull (strstr (error->message, "2025-11-25"));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);

  /* The server process is stopped too. */
  while (!mcp_transport_is_closed (transport))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (transport), NULL));
}

static void
test_initialize_server_exits (void)
{
  const char *args[] = { "--exit-at-start", "2", NULL };
  g_autoptr(McpClient) client = fixture_client_new (args);
  g_autoptr(GError) error = NULL;

  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (error->message, "status 2"));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static void
test_initialize_timeout (void)
{
  const char *argv[] = { "sleep", "30", NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GError) error = NULL;

  mcp_client_set_connect_timeout (client, 300);
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "Timed out"));

  /* The silent server is stopped, not left running. */
  while (!mcp_transport_is_closed (transport))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (transport), NULL));
}

static void
test_initialize_missing_command (void)
{
  const char *argv[] = { "plugboard-no-such-command", "--x", NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GError) error = NULL;

  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_nonnull (strstr (error->message, "plugboard-no-such-command"));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static void
test_request_before_connect (void)
{
  g_autoptr(McpClient) client = fixture_client_new (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_ping_async (client, NULL, test_result_cb, &result);
  g_assert_false (mcp_client_ping_finish (client, test_wait_result (&result, NULL), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED);
}

static void
test_ping (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_ping_async (client, NULL, test_result_cb, &result);
  g_assert_true (mcp_client_ping_finish (client, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  client_close (client);
}

static McpTool *
find_tool (GPtrArray  *tools,
           const char *name)
{
  for (guint i = 0; i < tools->len; i++)
    if (g_str_equal (mcp_tool_get_name (g_ptr_array_index (tools, i)), name))
      return g_ptr_array_index (tools, i);
  return NULL;
}

static void
test_list_tools_paged (void)
{
  const char *args[] = { "--tools", "25", "--page-size", "4", NULL };
  g_autoptr(McpClient) client = connected_fixture_client (args);
  g_autoptr(McpClient) unpaged = connected_fixture_client ((const char *[]) { "--tools", "25", NULL });
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) result2 = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GError) error = NULL;
  McpTool *echo;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);

  mcp_client_list_tools_async (unpaged, NULL, test_result_cb, &result2);
  all = mcp_client_list_tools_finish (unpaged, test_wait_result (&result2, NULL), &error);
  g_assert_no_error (error);

  /* Every page was followed: the same tools, in the same order. */
  g_assert_cmpuint (tools->len, ==, all->len);
  g_assert_cmpuint (tools->len, >, 25);
  for (guint i = 0; i < tools->len; i++)
    g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, i)), ==,
                     mcp_tool_get_name (g_ptr_array_index (all, i)));
  g_assert_nonnull (find_tool (tools, "extra-0"));
  g_assert_nonnull (find_tool (tools, "extra-24"));

  echo = find_tool (tools, "echo");
  g_assert_nonnull (echo);
  g_assert_true (mcp_tool_get_read_only_hint (echo));
  g_assert_false (mcp_tool_get_open_world_hint (echo));
  g_assert_false (mcp_tool_get_idempotent_hint (echo));
  g_assert_cmpstr (mcp_tool_get_display_name (echo), ==, "Echo");

  client_close (client);
  client_close (unpaged);
}

static void
test_call_echo (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *content;
  JsonNode *structured;

  result = call_tool (client, "echo", "{\"message\":\"héllo\\nworld\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));
  content = mcp_tool_result_get_content (result);
  g_assert_cmpuint (content->len, ==, 1);
  g_assert_cmpstr (mcp_content_get_text (g_ptr_array_index (content, 0)), ==, "héllo\nworld");
  structured = mcp_tool_result_get_structured_content (result);
  g_assert_nonnull (structured);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (structured), "message"),
                   ==, "héllo\nworld");

  client_close (client);
}

static void
test_call_is_error (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = call_tool (client, "fail", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_tool_result_get_is_error (result));
  client_close (client);
}

static void
test_unknown_method (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  mcp_client_request_async (client, "bogus/method", NULL, NULL, NULL, test_result_cb, &result);
  node = mcp_client_request_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_null (node);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "bogus/method"));

  /* Still usable. */
  g_free (call_tool_text (client, "echo", "{\"message\":\"x\"}"));
  client_close (client);
}

typedef struct
{
  guint         count;
  double        last_progress;
  double        total;
  gboolean      increasing;
  char         *last_message;
  GCancellable *cancel_on_first;
} ProgressLog;

static void
on_progress (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  ProgressLog *log = user_data;

  if (log->count > 0 && progress <= log->last_progress)
    log->increasing = FALSE;
  log->count++;
  log->last_progress = progress;
  log->total = total;
  g_free (log->last_message);
  log->last_message = g_strdup (message);

  if (log->cancel_on_first != NULL)
    g_cancellable_cancel (log->cancel_on_first);
}

static void
test_call_progress (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  ProgressLog log = { .increasing = TRUE };
  McpRequestOptions options = { .progress_func = on_progress, .progress_data = &log };

  result = call_tool (client, "slow", "{\"ms\":500,\"progress_ms\":50}", &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (log.count, >=, 3);
  g_assert_true (log.increasing);
  g_assert_cmpfloat (log.total, >, 0);
  g_assert_nonnull (log.last_message);
  g_assert_true (g_str_has_prefix (log.last_message, "step"));
  g_free (log.last_message);
  client_close (client);
}

static void
test_call_progress_resets_timeout (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  ProgressLog log = { .increasing = TRUE };
  McpRequestOptions options = {
    .timeout_ms = 300,
    .progress_func = on_progress,
    .progress_data = &log,
  };

  /* Runs three times longer than the timeout, but reports progress. */
  result = call_tool (client, "slow", "{\"ms\":900,\"progress_ms\":50}", &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_free (log.last_message);
  client_close (client);
}

static void
test_call_max_total_timeout (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  ProgressLog log = { .increasing = TRUE };
  McpRequestOptions options = {
    .timeout_ms = 300,
    .max_total_timeout_ms = 600,
    .progress_func = on_progress,
    .progress_data = &log,
  };

  result = call_tool (client, "slow", "{\"ms\":5000,\"progress_ms\":50}", &options, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_cmpuint (log.count, >=, 2);
  g_free (log.last_message);
  client_close (client);
}

static void
test_call_timeout (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(JsonObject) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  McpRequestOptions options = { .timeout_ms = 200 };

  /* The client numbers its requests from 1: the era probe (server/discover)
   * is 1, initialize 2, this 3. */
  result = call_tool (client, "slow", "{\"ms\":1000}", &options, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "tools/call"));

  /* notifications/cancelled went out, and the client is still usable. */
  state = fixture_state (client);
  g_assert_cmpint (json_object_get_int_member (state, "probes"), ==, 1);
  g_assert_true (fixture_saw_cancel_of (state, 3));
  text = call_tool_text (client, "echo", "{\"message\":\"still here\"}");
  g_assert_cmpstr (text, ==, "still here");
  client_close (client);
}

static void
test_call_cancel (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(JsonObject) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) ping = NULL;
  ProgressLog log = { .increasing = TRUE, .cancel_on_first = cancellable };
  McpRequestOptions options = { .progress_func = on_progress, .progress_data = &log };

  /* server/discover is 1, initialize 2, this 3. */
  result = call_tool (client, "slow", "{\"ms\":10000,\"progress_ms\":50}", &options,
                      cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (log.count, ==, 1);

  state = fixture_state (client);
  g_assert_cmpint (json_object_get_int_member (state, "probes"), ==, 1);
  g_assert_true (fixture_saw_cancel_of (state, 3));

  mcp_client_ping_async (client, NULL, test_result_cb, &ping);
  g_assert_true (mcp_client_ping_finish (client, test_wait_result (&ping, NULL), NULL));
  g_free (log.last_message);
  client_close (client);
}

static void
test_call_cancel_before_send (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  result = call_tool (client, "echo", "{\"message\":\"x\"}", NULL, cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  client_close (client);
}

typedef struct
{
  guint   closed;
  GError *reason;
} ClosedLog;

static void
on_client_closed (McpClient    *client,
                  const GError *reason,
                  ClosedLog    *log)
{
  log->closed++;
  g_clear_error (&log->reason);
  if (reason != NULL)
    log->reason = g_error_copy (reason);
}

static void
test_call_crash (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) ping = NULL;
  ClosedLog log = { 0 };

  g_signal_connect (client, "closed", G_CALLBACK (on_client_closed), &log);

  result = call_tool (client, "crash", NULL, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (error->message, "status 3"));
  g_assert_cmpuint (log.closed, ==, 1);
  g_assert_nonnull (log.reason);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);

  g_clear_error (&error);
  mcp_client_ping_async (client, NULL, test_result_cb, &ping);
  g_assert_false (mcp_client_ping_finish (client, test_wait_result (&ping, NULL), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED);

  /* Closing a closed client is harmless. */
  client_close (client);
  g_assert_cmpuint (log.closed, ==, 1);
  g_clear_error (&log.reason);
}

static void
test_call_abort (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = call_tool (client, "abort", NULL, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (error->message, "signal"));
}

static void
test_call_garbage (void)
{
  const char *args[] = { "--garbage-at-start", NULL };
  g_autoptr(McpClient) client = connected_fixture_client (args);
  g_autofree char *text = call_tool_text (client, "garbage", NULL);

  g_assert_cmpstr (text, ==, "after garbage");
  client_close (client);
}

static void
test_call_flood (void)
{
  g_autoptr(McpClient) client = fixture_client_new (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  mcp_stdio_transport_set_max_message_size (MCP_STDIO_TRANSPORT (mcp_client_get_transport (client)),
                                            1024 * 1024);
  g_assert_true (test_client_connect (client, &error));

  /* Under the limit arrives whole… */
  result = call_tool (client, "flood", "{\"bytes\":500000}", NULL, NULL, &error);
  g_assert_no_error (error);
  text = g_strdup (mcp_content_get_text (g_ptr_array_index (mcp_tool_result_get_content (result), 0)));
  g_assert_cmpuint (strlen (text), >, 499000);
  g_clear_object (&result);

  /* …past it closes the connection with a clear reason. */
  result = call_tool (client, "flood", "{\"bytes\":8000000}", NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (error->message, "larger"));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static void
test_server_request_ping (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autofree char *text = call_tool_text (client, "ask", NULL);
  g_autoptr(JsonNode) node = json_from_string (text, NULL);
  JsonObject *response;

  g_assert_nonnull (node);
  response = json_node_get_object (node);
  g_assert_true (json_object_has_member (response, "result"));
  g_assert_false (json_object_has_member (response, "error"));
  g_assert_cmpstr (json_object_get_string_member (response, "id"), ==, "srv-1");
  client_close (client);
}

static void
test_server_request_unknown (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autofree char *text = call_tool_text (client, "ask", "{\"method\":\"sampling/createMessage\"}");
  g_autoptr(JsonNode) node = json_from_string (text, NULL);
  JsonObject *error;

  g_assert_nonnull (node);
  error = json_object_get_object_member (json_node_get_object (node), "error");
  g_assert_nonnull (error);
  g_assert_cmpint (json_object_get_int_member (error, "code"), ==, -32601);
  client_close (client);
}

typedef struct
{
  guint  tools;
  guint  resources;
  guint  prompts;
  guint  logs;
  char  *log_level;
  char  *log_logger;
  char  *log_data;
} NotificationLog;

static void
on_tools_changed (McpClient *client, NotificationLog *log) { log->tools++; }
static void
on_resources_changed (McpClient *client, NotificationLog *log) { log->resources++; }
static void
on_prompts_changed (McpClient *client, NotificationLog *log) { log->prompts++; }

static void
on_log_message (McpClient       *client,
                const char      *level,
                const char      *logger,
                JsonNode        *data,
                NotificationLog *log)
{
  log->logs++;
  log->log_level = g_strdup (level);
  log->log_logger = g_strdup (logger);
  log->log_data = json_to_string (data, FALSE);
}

static void
test_notifications (void)
{
  const char *args[] = { "--list-changed", NULL };
  g_autoptr(McpClient) client = fixture_client_new (args);
  NotificationLog log = { 0 };
  gboolean timed_out = FALSE;
  guint watchdog;

  g_signal_connect (client, "tools-list-changed", G_CALLBACK (on_tools_changed), &log);
  g_signal_connect (client, "resources-list-changed", G_CALLBACK (on_resources_changed), &log);
  g_signal_connect (client, "prompts-list-changed", G_CALLBACK (on_prompts_changed), &log);
  g_signal_connect (client, "log-message", G_CALLBACK (on_log_message), &log);
  g_assert_true (test_client_connect (client, NULL));

  watchdog = test_deadline (10, &timed_out);
  while (log.logs == 0 && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (watchdog);

  g_assert_cmpuint (log.tools, ==, 1);
  g_assert_cmpuint (log.resources, ==, 1);
  g_assert_cmpuint (log.prompts, ==, 1);
  g_assert_cmpstr (log.log_level, ==, "info");
  g_assert_cmpstr (log.log_logger, ==, "fixture");
  g_assert_cmpstr (log.log_data, ==, "\"hello\"");
  g_free (log.log_level);
  g_free (log.log_logger);
  g_free (log.log_data);
  client_close (client);
}

static void
test_close_fails_pending (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  g_autoptr(GAsyncResult) call = NULL;
  g_autoptr(GAsyncResult) closed = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(JsonNode) arguments = json_from_string ("{\"ms\":10000}", NULL);
  g_autoptr(GError) error = NULL;

  mcp_client_call_tool_async (client, "slow", json_node_get_object (arguments), NULL, NULL,
                              test_result_cb, &call);
  mcp_client_close_async (client, NULL, test_result_cb, &closed);

  result = mcp_client_call_tool_finish (client, test_wait_result (&call, NULL), &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_true (mcp_client_close_finish (client, test_wait_result (&closed, NULL), NULL));
}

static void
test_pipelined (void)
{
  g_autoptr(McpClient) client = connected_fixture_client (NULL);
  GAsyncResult *results[64] = { NULL, };

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"message\":\"m%u\"}", i);
      g_autoptr(JsonNode) arguments = json_from_string (json, NULL);

      mcp_client_call_tool_async (client, "echo", json_node_get_object (arguments), NULL, NULL,
                                  test_result_cb, &results[i]);
    }

  /* Every answer reaches its own caller, whatever the order. */
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpToolResult) result = NULL;
      g_autofree char *expected = g_strdup_printf ("m%u", i);

      result = mcp_client_call_tool_finish (client, test_wait_result (&results[i], NULL), &error);
      g_assert_no_error (error);
      g_assert_cmpstr (mcp_content_get_text (g_ptr_array_index (mcp_tool_result_get_content (result), 0)),
                       ==, expected);
      g_clear_object (&results[i]);
    }

  client_close (client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("MCP_TEST_FIXTURE_SERVER") == NULL)
    {
      g_printerr ("MCP_TEST_FIXTURE_SERVER is not set; run through meson test\n");
      return 77;
    }

  g_test_add_func ("/client/initialize/handshake", test_initialize_handshake);
  g_test_add_func ("/client/initialize/older-version", test_initialize_older_version);
  g_test_add_func ("/client/era/probe-refused", test_era_probe_refused);
  g_test_add_func ("/client/era/hint-legacy", test_era_hint_legacy);
  g_test_add_func ("/client/era/probe-unanswered", test_era_probe_unanswered);
  g_test_add_func ("/client/initialize/unsupported-version", test_initialize_unsupported_version);
  g_test_add_func ("/client/initialize/server-exits", test_initialize_server_exits);
  g_test_add_func ("/client/initialize/timeout", test_initialize_timeout);
  g_test_add_func ("/client/initialize/missing-command", test_initialize_missing_command);
  g_test_add_func ("/client/request/before-connect", test_request_before_connect);
  g_test_add_func ("/client/request/ping", test_ping);
  g_test_add_func ("/client/request/unknown-method", test_unknown_method);
  g_test_add_func ("/client/request/pipelined", test_pipelined);
  g_test_add_func ("/client/tools/list-paged", test_list_tools_paged);
  g_test_add_func ("/client/tools/call-echo", test_call_echo);
  g_test_add_func ("/client/tools/call-is-error", test_call_is_error);
  g_test_add_func ("/client/tools/progress", test_call_progress);
  g_test_add_func ("/client/tools/progress-resets-timeout", test_call_progress_resets_timeout);
  g_test_add_func ("/client/tools/max-total-timeout", test_call_max_total_timeout);
  g_test_add_func ("/client/tools/timeout", test_call_timeout);
  g_test_add_func ("/client/tools/cancel", test_call_cancel);
  g_test_add_func ("/client/tools/cancel-before-send", test_call_cancel_before_send);
  g_test_add_func ("/client/faults/crash", test_call_crash);
  g_test_add_func ("/client/faults/abort", test_call_abort);
  g_test_add_func ("/client/faults/garbage", test_call_garbage);
  g_test_add_func ("/client/faults/flood", test_call_flood);
  g_test_add_func ("/client/server-request/ping", test_server_request_ping);
  g_test_add_func ("/client/server-request/unknown", test_server_request_unknown);
  g_test_add_func ("/client/notifications/list-changed-and-log", test_notifications);
  g_test_add_func ("/client/close/fails-pending", test_close_fails_pending);

  return g_test_run ();
}
