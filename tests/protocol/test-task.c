/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-task"

#include "config.h"

#include "mcp-error.h"
#include "mcp-task.h"

static JsonObject *
object_from_text (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static McpTask *
task_from_text (const char  *text,
                GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_task_new_from_json (object, error);
}

static void
test_task_full (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTask) task = task_from_text (
    "{\"taskId\": \"786512e2\", \"status\": \"working\","
    " \"statusMessage\": \"Gathering sources\", \"createdAt\": \"2025-11-25T10:30:00Z\","
    " \"lastUpdatedAt\": \"2025-11-25T10:40:00Z\", \"ttl\": 60000, \"pollInterval\": 5000}", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (mcp_task_get_id (task), ==, "786512e2");
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_STATUS_WORKING);
  g_assert_cmpstr (mcp_task_get_status_string (task), ==, "working");
  g_assert_cmpstr (mcp_task_get_status_message (task), ==, "Gathering sources");
  g_assert_cmpstr (mcp_task_get_created_at (task), ==, "2025-11-25T10:30:00Z");
  g_assert_cmpstr (mcp_task_get_last_updated_at (task), ==, "2025-11-25T10:40:00Z");
  g_assert_cmpint (mcp_task_get_ttl (task), ==, 60000);
  g_assert_cmpint (mcp_task_get_poll_interval (task), ==, 5000);
  g_assert_true (json_object_has_member (mcp_task_get_json (task), "ttl"));
  g_assert_false (mcp_task_status_is_terminal (mcp_task_get_status (task)));
}

static void
test_task_minimal (void)
{
  g_autoptr(GError) error = NULL;
  /* ttl null means unlimited; a status from a later revision is kept. */
  g_autoptr(McpTask) task = task_from_text (
    "{\"taskId\": \"t\", \"status\": \"paused\", \"ttl\": null}", &error);

  g_assert_no_error (error);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_STATUS_UNKNOWN);
  g_assert_cmpstr (mcp_task_get_status_string (task), ==, "paused");
  g_assert_null (mcp_task_get_status_message (task));
  g_assert_null (mcp_task_get_created_at (task));
  g_assert_cmpint (mcp_task_get_ttl (task), ==, -1);
  g_assert_cmpint (mcp_task_get_poll_interval (task), ==, -1);
}

static void
test_task_invalid (void)
{
  static const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{\"status\": \"working\"}", "task: taskId must be a string" },
    { "{\"taskId\": 7, \"status\": \"working\"}", "task: taskId must be a string" },
    { "{\"taskId\": \"\", \"status\": \"working\"}", "task: taskId is empty" },
    { "{\"taskId\": \"a\"}", "task: status must be a string" },
    { "{\"taskId\": \"a\", \"status\": \"working\", \"ttl\": \"1h\"}",
      "task: ttl must be a number of milliseconds" },
    { "{\"taskId\": \"a\", \"status\": \"working\", \"pollInterval\": -5}",
      "task: pollInterval must not be negative" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpTask) task = task_from_text (cases[i].json, &error);

      g_assert_null (task);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

static void
test_task_status_names (void)
{
  static const char * const names[] = { "working", "input_required", "completed", "failed", "cancelled" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      McpTaskStatus status = mcp_task_status_from_string (names[i]);

      g_assert_cmpint (status, ==, (McpTaskStatus) i);
      g_assert_cmpstr (mcp_task_status_to_string (status), ==, names[i]);
      g_assert_cmpint (mcp_task_status_is_terminal (status), ==, i >= 2);
    }
  g_assert_cmpint (mcp_task_status_from_string (NULL), ==, MCP_TASK_STATUS_UNKNOWN);
  g_assert_cmpint (mcp_task_status_from_string ("Working"), ==, MCP_TASK_STATUS_UNKNOWN);
  g_assert_null (mcp_task_status_to_string (MCP_TASK_STATUS_UNKNOWN));
  g_assert_false (mcp_task_status_is_terminal (MCP_TASK_STATUS_UNKNOWN));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/task/full", test_task_full);
  g_test_add_func ("/task/minimal", test_task_minimal);
  g_test_add_func ("/task/invalid", test_task_invalid);
  g_test_add_func ("/task/status-names", test_task_status_names);

  return g_test_run ();
}
