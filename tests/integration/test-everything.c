/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* McpStdioTransport + McpClient against the reference server
 * @modelcontextprotocol/server-everything, pinned in tests/package.json. */

static char *node_path;
static char *server_script;

static void
count_cb (McpClient *client,
          guint     *count)
{
  (*count)++;
}

static McpClient *
connect_everything (guint *list_changed_count)
{
  const char *argv[] = { node_path, server_script, "stdio", NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);

  if (list_changed_count != NULL)
    g_signal_connect (client, "tools-list-changed", G_CALLBACK (count_cb), list_changed_count);
  test_client_connect_ready (client);

  return g_steal_pointer (&client);
}

static void
ping (McpClient *client)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = test_client_ping (client, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}

/* Tests */

static void
test_initialize (void)
{
  g_autoptr(McpClient) client = NULL;
  McpServerInfo *info;
  const char * const *supported;
  gboolean accepted = FALSE;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything (NULL);
  info = mcp_client_get_server_info (client);
  g_assert_nonnull (info);

  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "mcp-servers/everything");
  g_assert_cmpstr (mcp_server_info_get_title (info), ==, "Everything Reference Server");
  g_assert_nonnull (mcp_server_info_get_version (info));

  /* The installed version speaks the newest revision we offer. */
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2025-11-25");
  supported = mcp_client_get_supported_protocol_versions ();
  for (guint i = 0; supported[i] != NULL; i++)
    accepted |= g_str_equal (supported[i], mcp_client_get_protocol_version (client));
  g_assert_true (accepted);

  g_assert_true (mcp_server_info_has_tools (info));
  g_assert_true (mcp_server_info_has_tools_list_changed (info));
  g_assert_true (mcp_server_info_has_resources (info));
  g_assert_true (mcp_server_info_has_resources_subscribe (info));
  g_assert_true (mcp_server_info_has_prompts (info));
  g_assert_true (mcp_server_info_has_logging (info));
  g_assert_true (mcp_server_info_has_completions (info));
  g_assert_nonnull (mcp_server_info_get_instructions (info));

  test_client_close_ok (client);
}

static McpTool *
find_tool (GPtrArray  *tools,
           const char *name)
{
  for (guint i = 0; i < tools->len; i++)
    {
      McpTool *tool = g_ptr_array_index (tools, i);

      if (g_str_equal (mcp_tool_get_name (tool), name))
        return tool;
    }

  g_error ("tool %s is not listed", name);
  return NULL;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
test_list_tools (void)
{
  /* Without sampling, elicitation and roots the server registers these 13
   * (its src/tools/index.js, plus simulate-research-query, which needs only
   * the tasks capability on its own side). */
  static const char *expected[] = {
    "echo", "get-annotated-message", "get-env", "get-resource-links",
    "get-resource-reference", "get-structured-content", "get-sum",
    "get-tiny-image", "gzip-file-as-resource", "simulate-research-query",
    "toggle-simulated-logging", "toggle-subscriber-updates",
    "trigger-long-running-operation",
  };
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  McpTool *tool;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything (NULL);
  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  tools = mcp_client_list_tools_finish (client, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tools);

  for (guint i = 0; i < tools->len; i++)
    g_ptr_array_add (names, (char *) mcp_tool_get_name (g_ptr_array_index (tools, i)));
  g_ptr_array_sort (names, compare_strings);
  g_assert_cmpuint (names->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), ==, expected[i]);

  /* echo: read-only, not destructive, idempotent, closed world. */
  tool = find_tool (tools, "echo");
  g_assert_cmpstr (mcp_tool_get_title (tool), ==, "Echo Tool");
  g_assert_cmpstr (mcp_tool_get_description (tool), ==, "Echoes back the input string");
  g_assert_nonnull (mcp_tool_get_annotations (tool));
  g_assert_true (mcp_tool_get_read_only_hint (tool));
  g_assert_false (mcp_tool_get_destructive_hint (tool));
  g_assert_true (mcp_tool_get_idempotent_hint (tool));
  g_assert_false (mcp_tool_get_open_world_hint (tool));
  g_assert_null (mcp_tool_get_output_schema (tool));

  /* gzip-file-as-resource fetches URLs: writes, open world. */
  tool = find_tool (tools, "gzip-file-as-resource");
  g_assert_false (mcp_tool_get_read_only_hint (tool));
  g_assert_false (mcp_tool_get_destructive_hint (tool));
  g_assert_true (mcp_tool_get_idempotent_hint (tool));
  g_assert_true (mcp_tool_get_open_world_hint (tool));

  /* toggle-simulated-logging changes state, not idempotent. */
  tool = find_tool (tools, "toggle-simulated-logging");
  g_assert_false (mcp_tool_get_read_only_hint (tool));
  g_assert_false (mcp_tool_get_destructive_hint (tool));
  g_assert_false (mcp_tool_get_idempotent_hint (tool));
  g_assert_false (mcp_tool_get_open_world_hint (tool));

  tool = find_tool (tools, "get-structured-content");
  g_assert_nonnull (mcp_tool_get_output_schema (tool));
  g_assert_nonnull (mcp_tool_get_input_schema (tool));

  test_client_close_ok (client);
}

static void
test_list_changed (void)
{
  g_autoptr(McpClient) client = NULL;
  guint count = 0;
  guint hang_id;

  if (!test_have_node_script (node_path, server_script))
    return;

  /* The server registers its capability-dependent tools once initialized
   * and announces that with notifications/tools/list_changed. */
  client = connect_everything (&count);
  hang_id = test_hang_guard (NULL);
  while (count == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
  g_assert_cmpuint (count, >=, 1);

  test_client_close_ok (client);
}

static void
test_echo (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything (NULL);
  result = test_client_call_tool_json (client, "echo", "{\"message\":\"hi\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: hi");
  g_assert_null (mcp_tool_result_get_structured_content (result));

  test_client_close_ok (client);
}

static void
test_get_sum (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything (NULL);
  result = test_client_call_tool_json (client, "get-sum", "{\"a\":2,\"b\":3}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));
  g_assert_cmpstr (test_result_only_text (result), ==, "The sum of 2 and 3 is 5.");

  test_client_close_ok (client);
}

static void
test_get_sum_bad_arguments (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  /* The SDK reports argument validation as a tool error, not a JSON-RPC
   * error; either way the client must stay usable. */
  client = connect_everything (NULL);
  result = test_client_call_tool_json (client, "get-sum", "{\"a\":\"two\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_tool_result_get_is_error (result));
  ping (client);

  test_client_close_ok (client);
}

static void
test_structured_content (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GAsyncResult) list_result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *output_schema;
  JsonArray *required;
  JsonNode *structured;
  JsonObject *object;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything (NULL);
  mcp_client_list_tools_async (client, NULL, test_result_cb, &list_result);
  test_wait_result (&list_result, NULL);
  tools = mcp_client_list_tools_finish (client, list_result, &error);
  g_assert_no_error (error);
  output_schema = mcp_tool_get_output_schema (find_tool (tools, "get-structured-content"));
  g_assert_nonnull (output_schema);
  required = json_object_get_array_member (output_schema, "required");
  g_assert_nonnull (required);
  g_assert_cmpuint (json_array_get_length (required), ==, 3);

  result = test_client_call_tool_json (client, "get-structured-content", "{\"location\":\"Chicago\"}",
                      NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));

  structured = mcp_tool_result_get_structured_content (result);
  g_assert_nonnull (structured);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (structured));
  object = json_node_get_object (structured);
  for (guint i = 0; i < json_array_get_length (required); i++)
    g_assert_true (json_object_has_member (object, json_array_get_string_element (required, i)));
  g_assert_cmpint (json_object_get_int_member (object, "temperature"), ==, 36);
  g_assert_cmpstr (json_object_get_string_member (object, "conditions"), ==, "Light rain / drizzle");
  g_assert_cmpint (json_object_get_int_member (object, "humidity"), ==, 82);

  /* The text block carries the same data for older clients. */
  g_assert_cmpstr (test_result_only_text (result), ==,
                   "{\"temperature\":36,\"conditions\":\"Light rain / drizzle\",\"humidity\":82}");

  test_client_close_ok (client);
}

static void
test_tiny_image (void)
{
  static const guint8 png_signature[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) data = NULL;
  GPtrArray *content;
  McpContent *image;

  if (!test_have_node_script (node_path, server_script))
    return;

  client = connect_everything (NULL);
  result = test_client_call_tool_json (client, "get-tiny-image", NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  content = mcp_tool_result_get_content (result);
  g_assert_cmpuint (content->len, ==, 3);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 0)), ==, MCP_CONTENT_TEXT);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 2)), ==, MCP_CONTENT_TEXT);

  image = g_ptr_array_index (content, 1);
  g_assert_cmpint (mcp_content_get_kind (image), ==, MCP_CONTENT_IMAGE);
  g_assert_cmpstr (mcp_content_get_type_name (image), ==, "image");
  g_assert_cmpstr (mcp_content_get_mime_type (image), ==, "image/png");
  data = mcp_content_get_data (image, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);
  g_assert_cmpuint (g_bytes_get_size (data), >, sizeof png_signature);
  g_assert_cmpmem (g_bytes_get_data (data, NULL), sizeof png_signature,
                   png_signature, sizeof png_signature);

  test_client_close_ok (client);
}

typedef struct
{
  GArray       *progress;
  GArray       *totals;
  GCancellable *cancel_on_first;
} ProgressLog;

static void
on_progress (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  ProgressLog *log = user_data;

  g_array_append_val (log->progress, progress);
  g_array_append_val (log->totals, total);
  if (log->cancel_on_first != NULL)
    g_cancellable_cancel (log->cancel_on_first);
}

static void
test_long_running_progress (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) progress = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) totals = g_array_new (FALSE, FALSE, sizeof (double));
  ProgressLog log = { progress, totals, NULL };
  McpRequestOptions options = { 0 };

  if (!test_have_node_script (node_path, server_script))
    return;

  options.progress_func = on_progress;
  options.progress_data = &log;

  client = connect_everything (NULL);
  result = test_client_call_tool_json (client, "trigger-long-running-operation", "{\"duration\":2,\"steps\":4}",
                      &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==,
                   "Long running operation completed. Duration: 2 seconds, Steps: 4.");

  g_assert_cmpuint (progress->len, ==, 4);
  for (guint i = 0; i < progress->len; i++)
    {
      g_assert_cmpfloat (g_array_index (progress, double, i), ==, i + 1);
      g_assert_cmpfloat (g_array_index (totals, double, i), ==, 4);
      if (i > 0)
        g_assert_cmpfloat (g_array_index (progress, double, i), >,
                           g_array_index (progress, double, i - 1));
    }

  test_client_close_ok (client);
}

static void
test_long_running_cancel (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpToolResult) echo = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GArray) progress = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) totals = g_array_new (FALSE, FALSE, sizeof (double));
  ProgressLog log = { progress, totals, cancellable };
  McpRequestOptions options = { 0 };

  if (!test_have_node_script (node_path, server_script))
    return;

  options.progress_func = on_progress;
  options.progress_data = &log;

  client = connect_everything (NULL);
  result = test_client_call_tool_json (client, "trigger-long-running-operation", "{\"duration\":20,\"steps\":40}",
                      &options, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (result);
  g_assert_cmpuint (progress->len, >=, 1);
  g_assert_cmpfloat (g_array_index (progress, double, 0), ==, 1);

  /* The session outlives the cancelled request. */
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);
  ping (client);
  g_clear_error (&error);
  echo = test_client_call_tool_json (client, "echo", "{\"message\":\"still here\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (echo), ==, "Echo: still here");

  test_client_close_ok (client);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  g_test_add_func ("/everything/initialize", test_initialize);
  g_test_add_func ("/everything/tools/list", test_list_tools);
  g_test_add_func ("/everything/tools/list-changed", test_list_changed);
  g_test_add_func ("/everything/call/echo", test_echo);
  g_test_add_func ("/everything/call/get-sum", test_get_sum);
  g_test_add_func ("/everything/call/get-sum-bad-arguments", test_get_sum_bad_arguments);
  g_test_add_func ("/everything/call/structured-content", test_structured_content);
  g_test_add_func ("/everything/call/tiny-image", test_tiny_image);
  g_test_add_func ("/everything/call/long-running/progress", test_long_running_progress);
  g_test_add_func ("/everything/call/long-running/cancel", test_long_running_cancel);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
