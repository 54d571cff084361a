/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "mcp-error.h"
#include "mcp-server-config.h"
#include "mcp-server-manager.h"
#include "mcp-tool-call.h"
#include "mcp-tool-pool.h"

static char *cache_dir;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (*slot == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);  /* a hang, not a timing */
      g_main_context_iteration (NULL, TRUE);
    }
  return *slot;
}

static McpToolResult *
result_from_json (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  McpToolResult *result;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  result = mcp_tool_result_new_from_json (json_node_get_object (json_parser_get_root (parser)), &error);
  g_assert_no_error (error);
  return result;
}

static McpProcessedResult *
process (McpToolResult *result,
         gsize          max_characters,
         GError       **error)
{
  g_autoptr(GAsyncResult) async_result = NULL;

  mcp_tool_result_process_async (result, "mcp__t__tool", NULL, max_characters, NULL,
                                 store_result_cb, &async_result);
  return mcp_tool_result_process_finish (wait_for (&async_result), error);
}

static const char *
text_of (McpToolResult *result,
         guint          index)
{
  GPtrArray *content = mcp_tool_result_get_content (result);

  g_assert_cmpuint (index, <, content->len);
  return mcp_content_get_text (g_ptr_array_index (content, index));
}

/* ------------------------------------------------------------------------ */
/* Post-processing on results built here                                    */

static void
test_process_small_text_unchanged (void)
{
  g_autoptr(McpToolResult) result = result_from_json ("{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}],"
                                                      "\"isError\":true,\"x-unknown\":1}");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpProcessedResult) processed = process (result, 100, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (text_of (mcp_processed_result_get_result (processed), 0), ==, "hello");
  g_assert_true (mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)));
  g_assert_true (json_object_has_member (mcp_tool_result_get_json (mcp_processed_result_get_result (processed)), "x-unknown"));
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), ==, 0);
  g_assert_null (mcp_processed_result_get_files (processed)[0]);
  g_assert_null (mcp_processed_result_get_notes (processed)[0]);
  g_assert_true (mcp_processed_result_get_original (processed) == result);
}

static void
test_process_truncation (void)
{
  g_autoptr(GString) json = g_string_new ("{\"content\":[{\"type\":\"text\",\"text\":\"");
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  McpToolResult *out;
  const char *text;

  /* 60 characters (é is two bytes), then a second block of 50 and a third of 5 */
  for (guint i = 0; i < 30; i++)
    g_string_append (json, "aé");
  g_string_append (json, "\"},{\"type\":\"image\",\"data\":\"!!!\",\"mimeType\":\"image/png\"},"
                         "{\"type\":\"text\",\"text\":\"");
  for (guint i = 0; i < 50; i++)
    g_string_append_c (json, 'b');
  g_string_append (json, "\"},{\"type\":\"text\",\"text\":\"ccccc\"}]}");
  result = result_from_json (json->str);

  processed = process (result, 80, &error);
  g_assert_no_error (error);
  out = mcp_processed_result_get_result (processed);

  /* first block whole, second cut after 20 characters, third gone */
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), ==, 30 + 5);
  g_assert_cmpuint (mcp_tool_result_get_content (out)->len, ==, 3);
  g_assert_cmpint (g_utf8_strlen (text_of (out, 0), -1), ==, 60);
  text = text_of (out, 2);
  g_assert_true (g_str_has_prefix (text, "bbbbbbbbbbbbbbbbbbbb\n\n[Output truncated: 35 more characters cut."));
  g_assert_nonnull (strstr (text, "MAX_MCP_OUTPUT_TOKENS"));
  /* the undecodable image is reported, not fatal */
  g_assert_nonnull (mcp_processed_result_get_notes (processed)[0]);
  g_assert_nonnull (strstr (mcp_processed_result_get_notes (processed)[0], "Content 2"));
  g_assert_true (g_str_has_prefix (mcp_processed_result_get_notes (processed)[1], "[Output truncated: 35"));
}

static void
test_max_output_characters_env (void)
{
  g_setenv ("MAX_MCP_OUTPUT_TOKENS", "1000", TRUE);
  g_assert_cmpuint (mcp_tool_call_get_max_output_characters (), ==, 4000);
  g_setenv ("MAX_MCP_OUTPUT_TOKENS", "lots", TRUE);
  g_assert_cmpuint (mcp_tool_call_get_max_output_characters (), ==, 100000);
  g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");
  g_assert_cmpuint (mcp_tool_call_get_max_output_characters (), ==, 100000);
}

static char *
image_json (int width,
            int height)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  g_autofree char *png = NULL;
  g_autofree char *base64 = NULL;
  gsize length = 0;

  gdk_pixbuf_fill (pixbuf, 0x3366ccff);
  gdk_pixbuf_save_to_buffer (pixbuf, &png, &length, "png", &error, NULL);
  g_assert_no_error (error);
  base64 = g_base64_encode ((const guchar *) png, length);

  return g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"see\"},"
                          "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"%s\"}]}", base64);
}

static void
test_process_image_downscale (void)
{
  g_autofree char *json = image_json (3000, 1000);
  g_autoptr(McpToolResult) result = result_from_json (json);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpProcessedResult) processed = process (result, 0, &error);
  g_autoptr(GdkPixbuf) saved = NULL;
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GBytes) data = NULL;
  g_autofree char *results_dir = g_build_filename (cache_dir, "plugboard", "results", NULL);
  const char *path;
  McpContent *image;

  g_assert_no_error (error);
  path = mcp_processed_result_get_files (processed)[0];
  g_assert_nonnull (path);
  g_assert_null (mcp_processed_result_get_files (processed)[1]);
  g_assert_true (g_str_has_prefix (path, results_dir));
  g_assert_true (g_str_has_suffix (path, ".png"));
  g_assert_cmpstr (mcp_processed_result_get_file_for_content (processed, 1), ==, path);
  g_assert_null (mcp_processed_result_get_file_for_content (processed, 0));

  saved = gdk_pixbuf_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (saved), ==, 2000);
  g_assert_cmpint (gdk_pixbuf_get_height (saved), ==, 667);

  /* the result carries the scaled image too */
  image = g_ptr_array_index (mcp_tool_result_get_content (mcp_processed_result_get_result (processed)), 1);
  data = mcp_content_get_data (image, &error);
  g_assert_no_error (error);
  gdk_pixbuf_loader_write_bytes (loader, data, &error);
  g_assert_no_error (error);
  gdk_pixbuf_loader_close (loader, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (gdk_pixbuf_loader_get_pixbuf (loader)), ==, 2000);
  g_assert_nonnull (strstr (mcp_processed_result_get_notes (processed)[0], "3000×1000 scaled down to 2000×667"));
}

static void
test_process_image_small_kept (void)
{
  g_autofree char *json = image_json (40, 1200);
  g_autoptr(McpToolResult) result = result_from_json (json);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpProcessedResult) processed = process (result, 0, &error);
  g_autoptr(GdkPixbuf) saved = NULL;

  g_assert_no_error (error);
  saved = gdk_pixbuf_new_from_file (mcp_processed_result_get_files (processed)[0], &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (saved), ==, 40);
  g_assert_cmpint (gdk_pixbuf_get_height (saved), ==, 1200);
}

static void
test_process_binary_saved (void)
{
  static const guchar wav[] = { 'R', 'I', 'F', 'F', 0, 1, 2, 3, 255, 254 };
  static const guchar blob[] = { 0, 0, 7, 42 };
  g_autofree char *wav64 = g_base64_encode (wav, sizeof wav);
  g_autofree char *blob64 = g_base64_encode (blob, sizeof blob);
  g_autofree char *json = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *results_dir = g_build_filename (cache_dir, "plugboard", "results", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  const char * const *files;

  json = g_strdup_printf ("{\"content\":[{\"type\":\"audio\",\"mimeType\":\"audio/wav\",\"data\":\"%s\"},"
                          "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///x.bin\","
                          "\"mimeType\":\"application/octet-stream\",\"blob\":\"%s\"}}]}",
                          wav64, blob64);
  result = result_from_json (json);
  processed = process (result, 0, &error);
  g_assert_no_error (error);

  files = mcp_processed_result_get_files (processed);
  g_assert_cmpuint (g_strv_length ((GStrv) files), ==, 2);
  g_assert_true (g_str_has_prefix (files[0], results_dir));
  g_assert_true (g_str_has_suffix (files[0], ".wav"));
  g_assert_true (g_str_has_suffix (files[1], ".bin"));

  g_file_get_contents (files[0], &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, length, wav, sizeof wav);
  g_clear_pointer (&contents, g_free);
  g_file_get_contents (files[1], &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, length, blob, sizeof blob);
  g_assert_nonnull (strstr (mcp_processed_result_get_notes (processed)[0], files[0]));
}

static void
test_process_unwritable_dir (void)
{
  g_autofree char *json = image_json (10, 10);
  g_autoptr(McpToolResult) result = result_from_json (json);
  g_autoptr(GAsyncResult) async_result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_build_filename (cache_dir, "not-a-dir", NULL);
  g_autofree char *below = g_build_filename (file, "results", NULL);

  g_file_set_contents (file, "x", 1, &error);
  g_assert_no_error (error);
  mcp_tool_result_process_async (result, "t", below, 0, NULL, store_result_cb, &async_result);
  processed = mcp_tool_result_process_finish (wait_for (&async_result), &error);
  g_assert_null (processed);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, below));
}

/* ------------------------------------------------------------------------ */
/* The call pipeline against the stdio fixture through McpServerManager      */

typedef struct
{
  McpServerManager *manager;
  McpToolPool      *pool;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *server = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) settled = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;

  g_assert_nonnull (server);
  json_object_set_string_member (object, "command", server);
  config = mcp_server_config_new_from_json ("fix", MCP_CONFIG_SCOPE_USER, object,
                                            "test", "$.mcpServers.fix", &error);
  g_assert_no_error (error);
  g_list_store_append (configs, config);

  fixture->manager = mcp_server_manager_new ();
  fixture->pool = mcp_tool_pool_new (G_LIST_MODEL (fixture->manager));
  mcp_server_manager_set_configs (fixture->manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (fixture->manager, NULL, store_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (fixture->manager, wait_for (&settled), &error);
  g_assert_no_error (error);

  connection = mcp_server_manager_lookup (fixture->manager, "fix");
  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  while (mcp_tool_pool_lookup (fixture->pool, "mcp__fix__state") == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) closed = NULL;

  mcp_server_manager_close_async (fixture->manager, NULL, store_result_cb, &closed);
  mcp_server_manager_close_finish (fixture->manager, wait_for (&closed), NULL);
  g_clear_object (&fixture->pool);
  g_clear_object (&fixture->manager);
}

typedef struct
{
  guint    asked;
  gboolean allow;
  char    *rule;
} Asker;

static void
ask_cb (McpPoolTool *tool,
        JsonObject  *arguments,
        const char  *rule,
        GTask       *answer,
        gpointer     user_data)
{
  Asker *asker = user_data;

  asker->asked++;
  g_free (asker->rule);
  asker->rule = g_strdup (rule);
  g_task_return_boolean (answer, asker->allow);
  g_object_unref (answer);
}

static McpProcessedResult *
call (Fixture         *fixture,
      const char      *name,
      JsonObject      *arguments,
      McpPermissions  *permissions,
      Asker           *asker,
      GError         **error)
{
  McpPoolTool *tool = mcp_tool_pool_lookup (fixture->pool, name);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_nonnull (tool);
  mcp_tool_call_async (tool, arguments, permissions, asker != NULL ? ask_cb : NULL, NULL, asker,
                       NULL, store_result_cb, &result);
  return mcp_tool_call_finish (wait_for (&result), error);
}

static gint64
requests_seen (Fixture *fixture)
{
  const char *allow[] = { "mcp__fix__state", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  processed = call (fixture, "mcp__fix__state", NULL, permissions, NULL, &error);
  g_assert_no_error (error);
  json_parser_load_from_data (parser, text_of (mcp_processed_result_get_result (processed), 0), -1, &error);
  g_assert_no_error (error);
  return json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)), "requests");
}

static JsonObject *
echo_arguments (void)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "message", "hi there");
  return arguments;
}

static void
test_call_allow (Fixture       *fixture,
                 gconstpointer  data)
{
  const char *allow[] = { "mcp__fix", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) arguments = echo_arguments ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  Asker asker = { 0, FALSE, NULL };
  gint64 before = requests_seen (fixture);

  processed = call (fixture, "mcp__fix__echo", arguments, permissions, &asker, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text_of (mcp_processed_result_get_result (processed), 0), "hi there"));
  g_assert_cmpuint (asker.asked, ==, 0);
  g_assert_cmpint (requests_seen (fixture), ==, before + 2);
}

static void
test_call_deny (Fixture       *fixture,
                gconstpointer  data)
{
  const char *allow[] = { "mcp__fix", NULL };
  const char *deny[] = { "mcp__fix__echo", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, NULL);
  g_autoptr(JsonObject) arguments = echo_arguments ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  Asker asker = { 0, TRUE, NULL };
  gint64 before = requests_seen (fixture);

  processed = call (fixture, "mcp__fix__echo", arguments, permissions, &asker, &error);
  g_assert_null (processed);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "“mcp__fix__echo”"));
  g_assert_cmpuint (asker.asked, ==, 0);
  /* only the state call itself reached the server */
  g_assert_cmpint (requests_seen (fixture), ==, before + 1);
}

static void
test_call_ask (Fixture       *fixture,
               gconstpointer  data)
{
  const char *ask[] = { "mcp__fix__*", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (NULL, NULL, ask);
  g_autoptr(JsonObject) arguments = echo_arguments ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  Asker asker = { 0, FALSE, NULL };
  gint64 before = requests_seen (fixture);

  /* refused */
  processed = call (fixture, "mcp__fix__echo", arguments, permissions, &asker, &error);
  g_assert_null (processed);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED);
  g_assert_cmpuint (asker.asked, ==, 1);
  g_assert_cmpstr (asker.rule, ==, "mcp__fix__*");
  g_assert_cmpint (requests_seen (fixture), ==, before + 1);
  g_clear_error (&error);

  /* allowed */
  asker.allow = TRUE;
  processed = call (fixture, "mcp__fix__echo", arguments, permissions, &asker, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text_of (mcp_processed_result_get_result (processed), 0), "hi there"));
  g_assert_cmpuint (asker.asked, ==, 2);
  g_clear_object (&processed);

  /* no rule: asks too, with no rule named */
  {
    g_autoptr(McpPermissions) none = mcp_permissions_new (NULL, NULL, NULL);

    processed = call (fixture, "mcp__fix__echo", arguments, none, &asker, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (asker.asked, ==, 3);
    g_assert_null (asker.rule);
    g_clear_object (&processed);

    /* nobody to ask: refused, not called */
    processed = call (fixture, "mcp__fix__echo", arguments, none, NULL, &error);
    g_assert_null (processed);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED);
  }
  g_free (asker.rule);
}

static void
test_call_truncation (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *allow[] = { "mcp__fix__flood", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  const char *original;
  const char *text;
  gsize sent;

  /* 100,000 characters of text */
  json_object_set_int_member (arguments, "bytes", 100000 + 61);
  g_setenv ("MAX_MCP_OUTPUT_TOKENS", "5000", TRUE);
  processed = call (fixture, "mcp__fix__flood", arguments, permissions, NULL, &error);
  g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");
  g_assert_no_error (error);

  original = text_of (mcp_processed_result_get_original (processed), 0);
  sent = strlen (original);
  g_assert_cmpuint (sent, >=, 99900);
  g_assert_cmpuint (sent, <=, 100100);
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), ==, sent - 20000);

  text = text_of (mcp_processed_result_get_result (processed), 0);
  g_assert_cmpuint (strspn (text, "x"), ==, 20000);
  g_assert_true (g_str_has_prefix (text + 20000, "\n\n[Output truncated: "));
  {
    g_autofree char *count = g_strdup_printf ("%" G_GSIZE_FORMAT " more characters cut", sent - 20000);
    g_assert_nonnull (strstr (text, count));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* before anything reads it */
  cache_dir = g_dir_make_tmp ("test-tool-call-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/tool-call/process/small-text-unchanged", test_process_small_text_unchanged);
  g_test_add_func ("/manager/tool-call/process/truncation", test_process_truncation);
  g_test_add_func ("/manager/tool-call/process/max-output-env", test_max_output_characters_env);
  g_test_add_func ("/manager/tool-call/process/image-downscale", test_process_image_downscale);
  g_test_add_func ("/manager/tool-call/process/image-small-kept", test_process_image_small_kept);
  g_test_add_func ("/manager/tool-call/process/binary-saved", test_process_binary_saved);
  g_test_add_func ("/manager/tool-call/process/unwritable-dir", test_process_unwritable_dir);
  g_test_add ("/manager/tool-call/call/allow", Fixture, NULL, fixture_set_up, test_call_allow, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/deny", Fixture, NULL, fixture_set_up, test_call_deny, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/ask", Fixture, NULL, fixture_set_up, test_call_ask, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/truncation", Fixture, NULL, fixture_set_up, test_call_truncation, fixture_tear_down);

  status = g_test_run ();

  {
    g_autofree char *quoted = g_shell_quote (cache_dir);
    g_autofree char *command = g_strdup_printf ("rm -rf %s", quoted);
    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  }
  g_free (cache_dir);

  return status;
}
