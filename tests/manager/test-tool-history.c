/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-tool-history"

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-tool-history.h"
#include "test-util.h"

/* McpToolHistory: the calls of a session and the saved argument sets file. */

static char *
make_temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("plugboard-history-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return json_to_string (node, FALSE);
}

static JsonObject *
read_file_object (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return parse_object (contents);
}

static void
count_notify_cb (guint *count)
{
  (*count)++;
}

static void
sleep_a_little (void)
{
  g_usleep (20 * 1000);
}

static void
test_calls (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "saved-arguments.json", NULL);
  g_autoptr(McpToolHistory) history = mcp_tool_history_new (path);
  g_autoptr(JsonObject) arguments = parse_object ("{\"message\":\"hi\",\"n\":2}");
  g_autoptr(McpHistoryEntry) first_ref = NULL;
  GListModel *calls = mcp_tool_history_get_calls (history);
  GListModel *echo_calls = mcp_tool_history_get_calls_for (history, "mcp__fix__echo");
  McpHistoryEntry *first;
  McpHistoryEntry *second;
  McpHistoryEntry *third;
  McpHistoryEntry *fourth;
  g_autofree char *arguments_text = NULL;
  gint64 before = g_get_real_time ();
  guint outcome_notified = 0;

  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (echo_calls), ==, 0);
  g_assert_true (g_list_model_get_item_type (calls) == MCP_TYPE_HISTORY_ENTRY);

  first = mcp_tool_history_start (history, "mcp__fix__echo", arguments);
  first_ref = g_object_ref (first);
  g_signal_connect_swapped (first, "notify::outcome", G_CALLBACK (count_notify_cb), &outcome_notified);
  g_assert_cmpint (mcp_history_entry_get_outcome (first), ==, MCP_HISTORY_OUTCOME_RUNNING);
  g_assert_cmpint (mcp_history_entry_get_duration (first), ==, 0);
  g_assert_cmpint (mcp_history_entry_get_started (first), >=, before);
  g_assert_cmpint (mcp_history_entry_get_started (first), <=, g_get_real_time ());
  g_assert_cmpstr (mcp_history_entry_get_qualified_name (first), ==, "mcp__fix__echo");

  /* The entry keeps the arguments as they were at the start. */
  json_object_set_string_member (arguments, "message", "changed later");
  arguments_text = object_to_string (mcp_history_entry_get_arguments (first));
  g_assert_cmpstr (arguments_text, ==, "{\"message\":\"hi\",\"n\":2}");

  sleep_a_little ();
  mcp_history_entry_finish (first, MCP_HISTORY_OUTCOME_OK, "hi\nsecond line");
  g_assert_cmpuint (outcome_notified, ==, 1);
  g_assert_cmpint (mcp_history_entry_get_outcome (first), ==, MCP_HISTORY_OUTCOME_OK);
  g_assert_cmpint (mcp_history_entry_get_duration (first), >=, 20 * 1000);
  g_assert_cmpint (mcp_history_entry_get_duration (first), <, 10 * G_USEC_PER_SEC);
  g_assert_nonnull (mcp_history_entry_get_summary (first));
  g_assert_null (strchr (mcp_history_entry_get_summary (first), '\n'));
  g_assert_true (g_str_has_prefix (mcp_history_entry_get_summary (first), "hi"));

  second = mcp_tool_history_start (history, "mcp__fix__fail", NULL);
  mcp_history_entry_finish (second, MCP_HISTORY_OUTCOME_TOOL_ERROR, "it failed");
  third = mcp_tool_history_start (history, "mcp__fix__echo", NULL);
  mcp_history_entry_finish (third, MCP_HISTORY_OUTCOME_FAILED, "Calling mcp__fix__echo failed: closed");
  fourth = mcp_tool_history_start (history, "mcp__fix__slow", NULL);
  mcp_history_entry_finish (fourth, MCP_HISTORY_OUTCOME_CANCELLED, NULL);
  g_assert_cmpuint (json_object_get_size (mcp_history_entry_get_arguments (second)), ==, 0);

  /* Newest first, all of them or one tool's. */
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 4);
  {
    g_autoptr(McpHistoryEntry) a = g_list_model_get_item (calls, 0);
    g_autoptr(McpHistoryEntry) b = g_list_model_get_item (calls, 3);
    g_autoptr(McpHistoryEntry) c = g_list_model_get_item (echo_calls, 0);
    g_autoptr(McpHistoryEntry) d = g_list_model_get_item (echo_calls, 1);

    g_assert_true (a == fourth);
    g_assert_true (b == first);
    g_assert_cmpuint (g_list_model_get_n_items (echo_calls), ==, 2);
    g_assert_true (c == third);
    g_assert_true (d == first);
  }
  g_assert_true (mcp_tool_history_get_calls_for (history, "mcp__fix__echo") == echo_calls);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_tool_history_get_calls_for (history, "mcp__fix__fail")), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_tool_history_get_calls_for (history, "mcp__x__none")), ==, 0);

  g_assert_cmpint (mcp_history_entry_get_outcome (second), ==, MCP_HISTORY_OUTCOME_TOOL_ERROR);
  g_assert_cmpint (mcp_history_entry_get_outcome (third), ==, MCP_HISTORY_OUTCOME_FAILED);
  g_assert_cmpint (mcp_history_entry_get_outcome (fourth), ==, MCP_HISTORY_OUTCOME_CANCELLED);
  g_assert_cmpint (mcp_history_entry_get_duration (fourth), >, 0);

  /* Nothing was written for calls. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  test_remove_tree (dir);
}

static void
test_saved_sets (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "nested", "saved-arguments.json", NULL);
  g_autoptr(McpToolHistory) history = mcp_tool_history_new (path);
  g_autoptr(McpToolHistory) again = NULL;
  g_autoptr(JsonObject) one = parse_object ("{\"message\":\"h\u00e9llo \\\"quoted\\\"\",\"n\":1.5,\"list\":[1,{\"a\":null}]}");
  g_autoptr(JsonObject) two = parse_object ("{\"message\":\"two\"}");
  g_autoptr(JsonObject) loaded = NULL;
  g_autoptr(JsonObject) file = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *one_text = object_to_string (one);
  g_autofree char *loaded_text = NULL;
  JsonObject *tools;
  JsonArray *sets;
  JsonObject *set;
  GStatBuf st;

  names = mcp_tool_history_dup_saved_names (history, "mcp__fix__echo");
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 0);
  g_clear_pointer (&names, g_strfreev);

  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__fix__echo", "first", one, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__fix__echo", "second", two, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__other__tool", "x", two, &error));
  g_assert_no_error (error);

  /* The file's shape. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  file = read_file_object (path);
  g_assert_cmpint (json_object_get_int_member (file, "version"), ==, 1);
  tools = json_object_get_object_member (file, "tools");
  g_assert_nonnull (tools);
  sets = json_object_get_array_member (tools, "mcp__fix__echo");
  g_assert_cmpuint (json_array_get_length (sets), ==, 2);
  set = json_array_get_object_element (sets, 0);
  g_assert_cmpstr (json_object_get_string_member (set, "name"), ==, "first");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (set, "arguments")));
  {
    g_autoptr(GDateTime) saved = g_date_time_new_from_iso8601 (json_object_get_string_member (set, "saved"), NULL);

    g_assert_nonnull (saved);
  }

  /* Round trip, through a new history on the same file. */
  again = mcp_tool_history_new (path);
  names = mcp_tool_history_dup_saved_names (again, "mcp__fix__echo");
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "first");
  g_assert_cmpstr (names[1], ==, "second");
  loaded = mcp_tool_history_load_arguments (again, "mcp__fix__echo", "first", &error);
  g_assert_no_error (error);
  loaded_text = object_to_string (loaded);
  g_assert_cmpstr (loaded_text, ==, one_text);

  /* Saving under an existing name replaces it in place. */
  g_assert_true (mcp_tool_history_save_arguments (again, "mcp__fix__echo", "first", two, &error));
  g_assert_no_error (error);
  g_clear_pointer (&names, g_strfreev);
  names = mcp_tool_history_dup_saved_names (history, "mcp__fix__echo");
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "first");
  g_clear_pointer (&loaded, json_object_unref);
  loaded = mcp_tool_history_load_arguments (history, "mcp__fix__echo", "first", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (loaded, "message"), ==, "two");

  /* Unknown sets and deleting. */
  g_clear_pointer (&loaded, json_object_unref);
  loaded = mcp_tool_history_load_arguments (history, "mcp__fix__echo", "nope", &error);
  g_assert_null (loaded);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "nope"));
  g_clear_error (&error);

  g_assert_true (mcp_tool_history_delete_arguments (history, "mcp__fix__echo", "first", &error));
  g_assert_no_error (error);
  g_clear_pointer (&names, g_strfreev);
  names = mcp_tool_history_dup_saved_names (history, "mcp__fix__echo");
  g_assert_cmpuint (g_strv_length (names), ==, 1);
  g_assert_cmpstr (names[0], ==, "second");
  g_assert_false (mcp_tool_history_delete_arguments (history, "mcp__fix__echo", "first", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  test_remove_tree (dir);
}

static void
test_unknown_keys_kept (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "saved-arguments.json", NULL);
  g_autoptr(McpToolHistory) history = mcp_tool_history_new (path);
  g_autoptr(JsonObject) arguments = parse_object ("{\"a\":1}");
  g_autoptr(JsonObject) file = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *tools;
  JsonArray *sets;
  JsonObject *kept;

  g_file_set_contents (path,
                       "{\"version\":1,\"future\":{\"x\":[1,2]},\"tools\":{"
                       "\"mcp__a__b\":[{\"name\":\"old\",\"arguments\":{},\"saved\":\"2026-01-01T00:00:00Z\","
                       "\"color\":\"blue\"}],\"mcp__keep__me\":[]}}",
                       -1, &error);
  g_assert_no_error (error);

  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__a__b", "new", arguments, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__a__b", "old", arguments, &error));
  g_assert_no_error (error);

  file = read_file_object (path);
  g_assert_true (json_object_has_member (file, "future"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_object_get_object_member (file, "future"), "x")), ==, 2);
  tools = json_object_get_object_member (file, "tools");
  g_assert_true (json_object_has_member (tools, "mcp__keep__me"));
  sets = json_object_get_array_member (tools, "mcp__a__b");
  g_assert_cmpuint (json_array_get_length (sets), ==, 2);
  kept = json_array_get_object_element (sets, 0);
  g_assert_cmpstr (json_object_get_string_member (kept, "name"), ==, "old");
  g_assert_cmpstr (json_object_get_string_member (kept, "color"), ==, "blue");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (kept, "arguments"), "a"), ==, 1);

  test_remove_tree (dir);
}

static void
test_corrupt_file_untouched (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "saved-arguments.json", NULL);
  g_autoptr(McpToolHistory) history = mcp_tool_history_new (path);
  g_autoptr(JsonObject) arguments = parse_object ("{\"a\":1}");
  g_autoptr(JsonObject) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *after = NULL;
  g_auto(GStrv) names = NULL;
  const char *corrupt = "{\"version\":1,\"tools\":{\"mcp__a__b\":[{\"name\":";
  const char *not_object = "[1,2,3]";

  g_file_set_contents (path, corrupt, -1, &error);
  g_assert_no_error (error);

  g_assert_false (mcp_tool_history_save_arguments (history, "mcp__a__b", "x", arguments, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_file_get_contents (path, &after, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (after, ==, corrupt);

  g_assert_false (mcp_tool_history_delete_arguments (history, "mcp__a__b", "x", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  loaded = mcp_tool_history_load_arguments (history, "mcp__a__b", "x", &error);
  g_assert_null (loaded);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  names = mcp_tool_history_dup_saved_names (history, "mcp__a__b");
  g_assert_cmpuint (g_strv_length (names), ==, 0);

  g_file_set_contents (path, not_object, -1, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_history_save_arguments (history, "mcp__a__b", "x", arguments, &error));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_clear_pointer (&after, g_free);
  g_file_get_contents (path, &after, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (after, ==, not_object);

  test_remove_tree (dir);
}

static void
test_atomic_write (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "saved-arguments.json", NULL);
  g_autoptr(McpToolHistory) history = mcp_tool_history_new (path);
  g_autoptr(JsonObject) arguments = parse_object ("{\"a\":1}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = NULL;
  GStatBuf before;
  GStatBuf after;
  const char *name;
  guint files = 0;

  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__a__b", "x", arguments, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &before), ==, 0);

  /* A new file is renamed over the old one (a new inode), never rewritten
   * in place; no temporary file is left behind. */
  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__a__b", "y", arguments, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpuint (before.st_ino, !=, after.st_ino);

  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_assert_cmpstr (name, ==, "saved-arguments.json");
      files++;
    }
  g_assert_cmpuint (files, ==, 1);

  test_remove_tree (dir);
}

static void
test_default_path (void)
{
  /* main() pointed XDG_DATA_HOME at a temporary folder of its own. */
  const char *dir = g_get_user_data_dir ();
  g_autofree char *expected = g_build_filename (dir, "plugboard", "saved-arguments.json", NULL);
  g_autoptr(McpToolHistory) history = NULL;
  g_autoptr(JsonObject) arguments = parse_object ("{}");
  g_autoptr(GError) error = NULL;

  g_assert_true (g_str_has_prefix (dir, g_get_tmp_dir ()));
  history = mcp_tool_history_new (NULL);
  g_assert_true (mcp_tool_history_save_arguments (history, "mcp__a__b", "x", arguments, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));

  test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data_home = NULL;

  /* XDG_DATA_HOME is read once; point it at a place of our own first. */
  data_home = make_temp_dir ();
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tool-history/calls", test_calls);
  g_test_add_func ("/tool-history/saved-sets", test_saved_sets);
  g_test_add_func ("/tool-history/unknown-keys-kept", test_unknown_keys_kept);
  g_test_add_func ("/tool-history/corrupt-file-untouched", test_corrupt_file_untouched);
  g_test_add_func ("/tool-history/atomic-write", test_atomic_write);
  g_test_add_func ("/tool-history/default-path", test_default_path);

  return g_test_run ();
}
