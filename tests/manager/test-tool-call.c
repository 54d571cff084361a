/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-limits.h"
#include "mcp-server-config.h"
#include "mcp-server-manager.h"
#include "test-tool-call.h"
#include "mcp-tool-pool.h"
#include "test-json.h"
#include "test-run.h"
#include "test-util.h"

#define JSONRPC_URL_ELICITATION_REQUIRED (-32042)

static char *cache_dir;
static char *http_fixture_path;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

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
                                 test_result_cb, &async_result);
  return mcp_tool_result_process_finish (test_wait_result (&async_result, NULL), error);
}

/* As process(), checked against @schema (JSON; NULL: none). */
static McpProcessedResult *
process_for_tool (McpToolResult *result,
                  const char    *schema,
                  gsize          max_characters)
{
  g_autoptr(GAsyncResult) async_result = NULL;
  g_autoptr(JsonNode) schema_node = schema != NULL ? test_json_parse (schema) : NULL;
  g_autoptr(GError) error = NULL;
  McpProcessedResult *processed;

  mcp_tool_result_process_for_tool_async (result, schema_node != NULL ? json_node_get_object (schema_node) : NULL,
                                          "mcp__t__tool", NULL, max_characters, NULL,
                                          test_result_cb, &async_result);
  processed = mcp_tool_result_process_finish (test_wait_result (&async_result, NULL), &error);
  g_assert_no_error (error);
  return processed;
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

#define COUNT_SCHEMA "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}"

/* Issue 23, point 5: the engine decides what the structured content is
 * against the tool's output schema, and says it in one sentence that names
 * where. */
static void
test_process_structured_check (void)
{
  g_autoptr(McpToolResult) invalid = result_from_json ("{\"content\":[],\"structuredContent\":{\"n\":\"x\"}}");
  g_autoptr(McpToolResult) two = result_from_json ("{\"content\":[],\"structuredContent\":{\"n\":\"x\",\"m\":1}}");
  g_autoptr(McpToolResult) valid = result_from_json ("{\"content\":[],\"structuredContent\":{\"n\":3}}");
  g_autoptr(McpToolResult) missing = result_from_json ("{\"content\":[{\"type\":\"text\",\"text\":\"3\"}]}");
  g_autoptr(McpToolResult) error = result_from_json ("{\"content\":[{\"type\":\"text\",\"text\":\"no\"}],\"isError\":true}");
  g_autoptr(McpProcessedResult) processed = NULL;
  const char * const *problems;

  processed = process_for_tool (invalid, COUNT_SCHEMA, 0);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_INVALID);
  g_assert_cmpstr (mcp_processed_result_get_structured_message (processed), ==,
                   "The structured content does not match the output schema: "
                   "structuredContent.n: expected an integer, not a string");
  problems = mcp_processed_result_get_structured_problems (processed);
  g_assert_cmpstr (problems[0], ==, "structuredContent.n: expected an integer, not a string");
  g_assert_null (problems[1]);
  g_clear_object (&processed);

  /* additionalProperties false: two problems, the first said, the count */
  processed = process_for_tool (two, "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},"
                                     "\"additionalProperties\":false}", 0);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_INVALID);
  g_assert_true (g_str_has_suffix (mcp_processed_result_get_structured_message (processed), "(and 1 more problem)"));
  g_assert_cmpuint (g_strv_length ((char **) mcp_processed_result_get_structured_problems (processed)), ==, 2);
  g_clear_object (&processed);

  processed = process_for_tool (valid, COUNT_SCHEMA, 0);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_VALID);
  g_assert_null (mcp_processed_result_get_structured_message (processed));
  g_assert_null (mcp_processed_result_get_structured_problems (processed)[0]);
  g_clear_object (&processed);

  processed = process_for_tool (missing, COUNT_SCHEMA, 0);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_MISSING);
  g_assert_cmpstr (mcp_processed_result_get_structured_message (processed), ==,
                   "The tool declares an output schema but sent no structured content");
  g_clear_object (&processed);

  /* an error need not follow the schema */
  processed = process_for_tool (error, COUNT_SCHEMA, 0);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_ERROR_RESULT);
  g_assert_null (mcp_processed_result_get_structured_message (processed));
  g_clear_object (&processed);

  processed = process_for_tool (invalid, NULL, 0);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_NO_SCHEMA);
  g_assert_null (mcp_processed_result_get_structured_message (processed));
  g_clear_object (&processed);

  /* processed without the tool: nothing decided */
  processed = process (invalid, 0, NULL);
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_NOT_CHECKED);
  g_assert_null (mcp_processed_result_get_structured_message (processed));
}

/* Issue 23, point 5: structuredContent counts against the limit after the
 * text; past it, it is left out and saved whole to a file, with a note in
 * the result and in the notes. */
static void
test_process_structured_limit (void)
{
  g_autoptr(McpToolResult) small = result_from_json ("{\"content\":[{\"type\":\"text\",\"text\":\"0123456789\"}],"
                                                     "\"structuredContent\":{\"n\":1}}");
  g_autoptr(McpToolResult) big = result_from_json ("{\"content\":[{\"type\":\"text\",\"text\":\"0123456789\"}],"
                                                   "\"structuredContent\":{\"n\":0.7,\"s\":\"ééééééééééééééééééééé\"}}");
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autofree char *saved = NULL;
  McpToolResult *shown;
  const char * const *files;
  const char * const *notes;

  /* 10 + 7 characters under 17: kept */
  processed = process_for_tool (small, NULL, 17);
  shown = mcp_processed_result_get_result (processed);
  g_assert_nonnull (mcp_tool_result_get_structured_content (shown));
  g_assert_cmpuint (mcp_tool_result_get_content (shown)->len, ==, 1);
  g_assert_null (mcp_processed_result_get_files (processed)[0]);
  g_clear_object (&processed);

  /* one over: left out, though the text alone fits */
  processed = process_for_tool (small, COUNT_SCHEMA, 16);
  shown = mcp_processed_result_get_result (processed);
  g_assert_null (mcp_tool_result_get_structured_content (shown));
  g_assert_false (json_object_has_member (mcp_tool_result_get_json (shown), "structuredContent"));
  g_assert_cmpstr (text_of (shown, 0), ==, "0123456789");
  g_assert_nonnull (strstr (text_of (shown, 1), "The structured content (7 characters, 7 bytes) is over the output "
                                                "limit of 16 characters"));
  /* checked as sent, so it still matches */
  g_assert_cmpint (mcp_processed_result_get_structured_check (processed), ==, MCP_STRUCTURED_CHECK_VALID);
  files = mcp_processed_result_get_files (processed);
  g_assert_nonnull (files[0]);
  g_assert_true (g_str_has_suffix (files[0], ".json"));
  g_assert_nonnull (strstr (text_of (shown, 1), files[0]));
  g_assert_true (g_file_get_contents (files[0], &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, "{\"n\":1}");
  notes = mcp_processed_result_get_notes (processed);
  g_assert_nonnull (notes[0]);
  g_assert_cmpstr (notes[0], ==, text_of (shown, 1));
  g_unlink (files[0]);
  g_clear_pointer (&saved, g_free);
  g_clear_object (&processed);

  /* counted in characters; the file as the server's value, numbers too */
  processed = process_for_tool (big, NULL, 40);
  shown = mcp_processed_result_get_result (processed);
  g_assert_null (mcp_tool_result_get_structured_content (shown));
  g_assert_nonnull (strstr (text_of (shown, 1), "(37 characters, 58 bytes)"));
  files = mcp_processed_result_get_files (processed);
  g_assert_true (g_file_get_contents (files[0], &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, "{\"n\":0.7,\"s\":\"ééééééééééééééééééééé\"}");
  g_unlink (files[0]);
}

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

/* The variable is read when the limits are made (McpLimits, the one
 * reader). */
static gsize
max_output_characters (void)
{
  g_autoptr(McpLimits) limits = mcp_limits_new (NULL);

  return mcp_limits_get_max_output_characters (limits);
}

static void
test_max_output_characters_env (void)
{
  g_setenv ("MAX_MCP_OUTPUT_TOKENS", "1000", TRUE);
  g_assert_cmpuint (max_output_characters (), ==, 4000);
  g_setenv ("MAX_MCP_OUTPUT_TOKENS", "lots", TRUE);
  g_assert_cmpuint (max_output_characters (), ==, 100000);
  g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");
  g_assert_cmpuint (max_output_characters (), ==, 100000);
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

/* Text that is a JSON object or array comes parsed (off the main thread);
 * anything else does not. */
static void
test_process_json_parsed (void)
{
  g_autoptr(McpToolResult) result =
    result_from_json ("{\"content\":["
                      "{\"type\":\"text\",\"text\":\"  {\\\"a\\\":[1,2],\\\"b\\\":\\\"é\\\"}\\n\"},"
                      "{\"type\":\"text\",\"text\":\"[]\"},"
                      "{\"type\":\"text\",\"text\":\"\\\"a string\\\"\"},"
                      "{\"type\":\"text\",\"text\":\"{\\\"a\\\": 1\"},"
                      "{\"type\":\"text\",\"text\":\"[1] trailing\"},"
                      "{\"type\":\"text\",\"text\":\"plain words\"},"
                      "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///r.json\","
                      "\"mimeType\":\"application/json\",\"text\":\"{\\\"r\\\":true}\"}}]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpProcessedResult) processed = process (result, 0, &error);
  JsonNode *node;

  g_assert_no_error (error);
  node = mcp_processed_result_get_json_for_content (processed, 0);
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (node), "a")), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "b"), ==, "é");
  node = mcp_processed_result_get_json_for_content (processed, 1);
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));
  /* a JSON string, broken JSON, trailing text, plain text: not parsed */
  for (guint i = 2; i <= 5; i++)
    g_assert_null (mcp_processed_result_get_json_for_content (processed, i));
  node = mcp_processed_result_get_json_for_content (processed, 6);
  g_assert_nonnull (node);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (node), "r"));
  g_assert_null (mcp_processed_result_get_json_for_content (processed, 7));

  /* the size bound */
  node = mcp_tool_call_parse_json_text ("[1, 2, 3]", 9);
  g_assert_nonnull (node);
  json_node_unref (node);
  g_assert_null (mcp_tool_call_parse_json_text ("[1, 2, 3]", 8));
}

/* Text past the cut goes; a saved file still belongs to its block, now
 * one place up. */
static void
test_process_file_index_after_cut (void)
{
  static const guchar wav[] = { 'R', 'I', 'F', 'F', 0, 1, 2, 3 };
  g_autofree char *wav64 = g_base64_encode (wav, sizeof wav);
  g_autofree char *json = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  McpToolResult *out;
  McpContent *audio;

  json = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"%s\"},"
                          "{\"type\":\"text\",\"text\":\"gone\"},"
                          "{\"type\":\"audio\",\"mimeType\":\"audio/wav\",\"data\":\"%s\"}]}",
                          "0123456789012345678901234567890123456789", wav64);
  result = result_from_json (json);
  processed = process (result, 20, &error);
  g_assert_no_error (error);

  out = mcp_processed_result_get_result (processed);
  g_assert_cmpuint (mcp_tool_result_get_content (out)->len, ==, 2);
  audio = g_ptr_array_index (mcp_tool_result_get_content (out), 1);
  g_assert_cmpint (mcp_content_get_kind (audio), ==, MCP_CONTENT_AUDIO);
  g_assert_null (mcp_processed_result_get_file_for_content (processed, 0));
  g_assert_nonnull (mcp_processed_result_get_file_for_content (processed, 1));
  g_assert_true (g_str_has_suffix (mcp_processed_result_get_file_for_content (processed, 1), ".wav"));
  g_assert_null (mcp_processed_result_get_file_for_content (processed, 2));
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), ==, 20 + 4);
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
  mcp_tool_result_process_async (result, "t", below, 0, NULL, test_result_cb, &async_result);
  processed = mcp_tool_result_process_finish (test_wait_result (&async_result, NULL), &error);
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

static gboolean
pool_has_state_tool (gpointer data)
{
  return mcp_tool_pool_lookup ((McpToolPool *) data, "mcp__fix__state") != NULL;
}

/* @data: NULL, or one option for the fixture server. */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *server = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  const char *option = data;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) settled = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;

  g_assert_nonnull (server);
  json_object_set_string_member (object, "command", server);
  if (option != NULL)
    {
      JsonArray *args = json_array_new ();

      json_array_add_string_element (args, option);
      json_object_set_array_member (object, "args", args);
    }
  config = mcp_server_config_new_from_json ("fix", MCP_CONFIG_SCOPE_USER, object,
                                            "test", "$.mcpServers.fix", &error);
  g_assert_no_error (error);
  g_list_store_append (configs, config);

  fixture->manager = mcp_server_manager_new ();
  fixture->pool = mcp_tool_pool_new (G_LIST_MODEL (fixture->manager));
  mcp_server_manager_set_configs (fixture->manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (fixture->manager, NULL, test_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (fixture->manager, test_wait_result (&settled, NULL), &error);
  g_assert_no_error (error);

  connection = mcp_server_manager_lookup (fixture->manager, "fix");
  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  test_iterate_until (pool_has_state_tool, fixture->pool, "pool has state tool");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) closed = NULL;

  mcp_server_manager_close_async (fixture->manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (fixture->manager, test_wait_result (&closed, NULL), NULL);
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

typedef struct
{
  guint        opened;
  gboolean     answer;
  McpPoolTool *tool;
  char        *url;
  char        *message;
} Opener;

static void
opener_clear (Opener *opener)
{
  g_clear_pointer (&opener->url, g_free);
  g_clear_pointer (&opener->message, g_free);
}

static void
open_url_cb (McpPoolTool *tool,
             const char  *url,
             const char  *message,
             GTask       *done,
             gpointer     user_data)
{
  Opener *opener = user_data;

  opener->opened++;
  opener->tool = tool;
  g_free (opener->url);
  opener->url = g_strdup (url);
  g_free (opener->message);
  opener->message = g_strdup (message);
  g_task_return_boolean (done, opener->answer);
  g_object_unref (done);
}

static McpProcessedResult *
call_tool (McpToolPool     *pool,
           const char      *name,
           JsonObject      *arguments,
           McpPermissions  *permissions,
           Asker           *asker,
           Opener          *opener,
           GError         **error)
{
  McpPoolTool *tool = mcp_tool_pool_lookup (pool, name);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_nonnull (tool);
  /* The handler data serves both functions: only one of them is used here. */
  g_assert_true (asker == NULL || opener == NULL);
  if (opener != NULL)
    test_tool_call_async (tool, arguments, permissions, NULL, open_url_cb, opener,
                         NULL, test_result_cb, &result);
  else
    test_tool_call_async (tool, arguments, permissions, asker != NULL ? ask_cb : NULL, NULL, asker,
                         NULL, test_result_cb, &result);
  return test_tool_call_finish (test_wait_result (&result, NULL), error);
}

static McpProcessedResult *
call (Fixture         *fixture,
      const char      *name,
      JsonObject      *arguments,
      McpPermissions  *permissions,
      Asker           *asker,
      GError         **error)
{
  return call_tool (fixture->pool, name, arguments, permissions, asker, NULL, error);
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

  /* no rule: echo (read-only, closed-world) runs on the call alone; fail
   * (no hints: destructive and open-world) asks, with no rule named */
  {
    g_autoptr(McpPermissions) none = mcp_permissions_new (NULL, NULL, NULL);

    processed = call (fixture, "mcp__fix__echo", arguments, none, &asker, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (asker.asked, ==, 2);
    g_clear_object (&processed);

    processed = call (fixture, "mcp__fix__fail", NULL, none, &asker, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (asker.asked, ==, 3);
    g_assert_null (asker.rule);
    g_clear_object (&processed);

    /* the same with no evaluator at all */
    processed = call (fixture, "mcp__fix__fail", NULL, NULL, &asker, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (asker.asked, ==, 4);
    g_clear_object (&processed);

    /* nobody to ask: refused, not called */
    processed = call (fixture, "mcp__fix__fail", NULL, none, NULL, &error);
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
  /* the manager's limit (MAX_MCP_OUTPUT_TOKENS when it was made) */
  g_object_set (fixture->manager, "max-output-tokens", 5000, NULL);
  processed = call (fixture, "mcp__fix__flood", arguments, permissions, NULL, &error);
  g_object_set (fixture->manager, "max-output-tokens", MCP_DEFAULT_MAX_OUTPUT_TOKENS, NULL);
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

/* ------------------------------------------------------------------------ */
/* URL elicitation (-32042): the fixture's url-once asks once per process    */

#define CONSENT_URL "https://consent.example/approve?id=e1"

static McpPermissions *
allow_fix (void)
{
  const char *allow[] = { "mcp__fix", NULL };

  return mcp_permissions_new (allow, NULL, NULL);
}

/* The -32042 error as the server sent it: its code, message and data. */
static void
assert_url_elicitation_error (const GError *error)
{
  JsonNode *data;
  JsonArray *elicitations;
  JsonObject *elicitation;

  g_assert_error (error, MCP_JSONRPC_ERROR, JSONRPC_URL_ELICITATION_REQUIRED);
  g_assert_nonnull (strstr (error->message, "This tool needs your consent first"));
  g_assert_nonnull (strstr (error->message, "mcp__fix__url-once"));

  data = mcp_jsonrpc_error_get_data (error);
  g_assert_nonnull (data);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (data));
  elicitations = json_object_get_array_member (json_node_get_object (data), "elicitations");
  g_assert_nonnull (elicitations);
  g_assert_cmpuint (json_array_get_length (elicitations), ==, 1);
  elicitation = json_array_get_object_element (elicitations, 0);
  g_assert_cmpstr (json_object_get_string_member (elicitation, "url"), ==, CONSENT_URL);
  g_assert_cmpstr (json_object_get_string_member (elicitation, "elicitationId"), ==, "e1");
}

static void
test_url_elicitation_opened (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(McpPermissions) permissions = allow_fix ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  Opener opener = { 0, TRUE, NULL, NULL, NULL };
  gint64 before = requests_seen (fixture);

  processed = call_tool (fixture->pool, "mcp__fix__url-once", NULL, permissions, NULL, &opener, &error);
  g_assert_no_error (error);
  g_assert_nonnull (processed);
  g_assert_cmpstr (text_of (mcp_processed_result_get_result (processed), 0), ==, "consented");
  g_assert_false (mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)));

  /* exactly that URL and message, once, for that tool */
  g_assert_cmpuint (opener.opened, ==, 1);
  g_assert_cmpstr (opener.url, ==, CONSENT_URL);
  g_assert_cmpstr (opener.message, ==, "Approve access");
  g_assert_true (opener.tool == mcp_tool_pool_lookup (fixture->pool, "mcp__fix__url-once"));

  /* the first call, one retry, then the state call itself */
  g_assert_cmpint (requests_seen (fixture), ==, before + 3);
  opener_clear (&opener);
}

static void
test_url_elicitation_declined (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(McpPermissions) permissions = allow_fix ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  Opener opener = { 0, FALSE, NULL, NULL, NULL };
  gint64 before = requests_seen (fixture);

  processed = call_tool (fixture->pool, "mcp__fix__url-once", NULL, permissions, NULL, &opener, &error);
  g_assert_null (processed);
  g_assert_cmpuint (opener.opened, ==, 1);
  g_assert_cmpstr (opener.url, ==, CONSENT_URL);
  g_assert_cmpstr (opener.message, ==, "Approve access");

  /* What the pipeline answers today (mcp-tool-call.c, on_url_done_cb): a
   * refusal, not the server's -32042 — see the report of issue 4. */
  g_assert_error (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "mcp__fix__url-once"));
  g_assert_nonnull (strstr (error->message, "web page"));

  /* not retried: the first call and the state call only */
  g_assert_cmpint (requests_seen (fixture), ==, before + 2);
  opener_clear (&opener);
}

static void
test_url_elicitation_no_opener (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(McpPermissions) permissions = allow_fix ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  gint64 before = requests_seen (fixture);

  processed = call_tool (fixture->pool, "mcp__fix__url-once", NULL, permissions, NULL, NULL, &error);
  g_assert_null (processed);
  assert_url_elicitation_error (error);
  g_assert_cmpint (requests_seen (fixture), ==, before + 2);
  g_clear_error (&error);

  /* the server itself was satisfied by the one call: the next one works */
  processed = call_tool (fixture->pool, "mcp__fix__url-once", NULL, permissions, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text_of (mcp_processed_result_get_result (processed), 0), ==, "consented");
}

/* The server names an address the URL policy refuses (issue 20): the
 * opener is never called, the call fails at once with the reason, and it
 * is not retried. */
static void
test_url_elicitation_refused (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(McpPermissions) permissions = allow_fix ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  Opener opener = { 0, TRUE, NULL, NULL, NULL };
  gint64 before = requests_seen (fixture);

  processed = call_tool (fixture->pool, "mcp__fix__url-once", NULL, permissions, NULL, &opener, &error);
  g_assert_null (processed);
  g_assert_cmpuint (opener.opened, ==, 0);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "mcp__fix__url-once"));
  g_assert_nonnull (strstr (error->message, "refuses"));
  g_assert_cmpint (requests_seen (fixture), ==, before + 2);
  opener_clear (&opener);
}

/* The manager's limits reach the call (issue 21, defect 5: the app's
 * preferences set them): a tool call's timeout, and the largest output
 * kept. */
static void
test_manager_limits (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(McpPermissions) permissions = allow_fix ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(GError) error = NULL;

  g_object_set (fixture->manager, "tool-timeout", 300, NULL);
  json_object_set_int_member (arguments, "ms", 5000);
  processed = call_tool (fixture->pool, "mcp__fix__slow", arguments, permissions, NULL, NULL, &error);
  g_assert_null (processed);
  g_test_message ("%s", error->message);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_clear_error (&error);
  g_object_set (fixture->manager, "tool-timeout", 0, NULL);

  g_object_set (fixture->manager, "max-output-tokens", 1000, NULL);
  g_clear_pointer (&arguments, json_object_unref);
  arguments = json_object_new ();
  json_object_set_int_member (arguments, "bytes", 100000);
  processed = call_tool (fixture->pool, "mcp__fix__big", arguments, permissions, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), >, 0);
  g_assert_cmpuint (strlen (text_of (mcp_processed_result_get_result (processed), 0)), <=,
                    1000 * MCP_CHARACTERS_PER_TOKEN + 1000);
}

/* ------------------------------------------------------------------------ */
/* Session expiry against mcp-http-fixture-server                           */

typedef struct
{
  GSubprocess      *process;
  TestLineReader   *reader;
  GPtrArray        *log;         /* its stderr lines */
  char             *url;
  McpServerManager *manager;
  McpToolPool      *pool;
} HttpFixture;

/* The index of the first log line that starts with @prefix, has @part and
 * does not start with @not_prefix (NULL: any), or -1. */
static int
find_log (HttpFixture *fx,
          const char  *prefix,
          const char  *part,
          const char  *not_prefix)
{
  for (guint i = 0; i < fx->log->len; i++)
    {
      const char *line = g_ptr_array_index (fx->log, i);

      if (g_str_has_prefix (line, prefix) && strstr (line, part) != NULL &&
          (not_prefix == NULL || !g_str_has_prefix (line, not_prefix)))
        return (int) i;
    }
  return -1;
}

typedef struct
{
  HttpFixture *fx;
  const char  *prefix;
  const char  *part;
  const char  *not_prefix;
} LogWait;

static gboolean
log_found (gpointer data)
{
  const LogWait *wait = data;

  return find_log (wait->fx, wait->prefix, wait->part, wait->not_prefix) >= 0;
}

static int
wait_log (HttpFixture *fx,
          const char  *prefix,
          const char  *part,
          const char  *not_prefix)
{
  LogWait wait = { fx, prefix, part, not_prefix };

  test_iterate_until (log_found, &wait, "log found");
  return find_log (fx, prefix, part, not_prefix);
}

/* The POSTs of JSON-RPC @rpc among the first @before log lines, and in
 * @without_session how many of them carried no session. */
static guint
count_rpc (HttpFixture *fx,
           const char  *rpc,
           int          before,
           guint       *without_session)
{
  g_autofree char *part = g_strdup_printf (" rpc=%s ", rpc);
  guint n = 0;

  *without_session = 0;
  for (int i = 0; i < before; i++)
    {
      const char *line = g_ptr_array_index (fx->log, i);

      if (g_str_has_prefix (line, "POST ") && strstr (line, part) != NULL)
        {
          n++;
          if (g_str_has_prefix (line, "POST session=- "))
            (*without_session)++;
        }
    }
  return n;
}

/* The initializes among the first @before log lines; each went without a
 * session, as it must. */
static guint
count_initializes (HttpFixture *fx,
                   int          before)
{
  guint without_session;
  guint n = count_rpc (fx, "initialize", before, &without_session);

  g_assert_cmpuint (without_session, ==, n);
  return n;
}

/* The era probes (server/discover) among the first @before log lines: each
 * stateless (the modern version, its method in Mcp-Method, no session),
 * each refused 400 by the handshake-era fixture. */
static guint
count_probes (HttpFixture *fx,
              int          before)
{
  guint n = 0;

  for (int i = 0; i < before; i++)
    {
      const char *line = g_ptr_array_index (fx->log, i);

      if (strstr (line, " rpc=server/discover ") != NULL)
        {
          g_assert_true (g_str_has_prefix (line, "POST session=- "));
          g_assert_nonnull (strstr (line, "-> 400 "));
          g_assert_nonnull (strstr (line, " version=2026-07-28 "));
          g_assert_true (g_str_has_suffix (line, " mcp-method=server/discover"));
          n++;
        }
    }
  return n;
}

static gboolean
pool_has_http_echo (gpointer data)
{
  return mcp_tool_pool_lookup ((McpToolPool *) data, "mcp__http__echo") != NULL;
}

/* The server expires each session after @expire_after POSTs; a manager
 * with one "http" server on it, connected. */
static HttpFixture *
http_fixture_new (guint expire_after)
{
  HttpFixture *fx = g_new0 (HttpFixture, 1);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expire = g_strdup_printf ("%u", expire_after);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) settled = NULL;
  McpServerConnection *connection;
  int port;

  fx->log = g_ptr_array_new_with_free_func (g_free);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  fx->process = g_subprocess_launcher_spawn (launcher, &error, http_fixture_path,
                                             "--port", "0", "--expire-session-after", expire,
                                             NULL);
  g_assert_no_error (error);

  port = test_read_listening_port (fx->process);
  fx->url = g_strdup_printf ("http://127.0.0.1:%d/mcp", port);

  fx->reader = test_line_reader_new (g_subprocess_get_stderr_pipe (fx->process), fx->log, "http fixture");

  json_object_set_string_member (object, "type", "http");
  json_object_set_string_member (object, "url", fx->url);
  config = mcp_server_config_new_from_json ("http", MCP_CONFIG_SCOPE_USER, object,
                                            "test", "$.mcpServers.http", &error);
  g_assert_no_error (error);
  g_list_store_append (configs, config);

  fx->manager = mcp_server_manager_new ();
  fx->pool = mcp_tool_pool_new (G_LIST_MODEL (fx->manager));
  mcp_server_manager_set_configs (fx->manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (fx->manager, NULL, test_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (fx->manager, test_wait_result (&settled, NULL), &error);
  g_assert_no_error (error);

  connection = mcp_server_manager_lookup (fx->manager, "http");
  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  test_iterate_until (pool_has_http_echo, fx->pool, "pool has http echo");

  return fx;
}

static void
http_fixture_free (HttpFixture *fx)
{
  g_autoptr(GAsyncResult) closed = NULL;
  g_autoptr(GError) error = NULL;

  mcp_server_manager_close_async (fx->manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (fx->manager, test_wait_result (&closed, NULL), NULL);
  g_clear_object (&fx->pool);
  g_clear_object (&fx->manager);

  g_subprocess_send_signal (fx->process, SIGTERM);
  g_subprocess_wait (fx->process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (fx->process));

  g_clear_pointer (&fx->reader, test_line_reader_free);
  g_clear_object (&fx->process);
  g_clear_pointer (&fx->log, g_ptr_array_unref);
  g_free (fx->url);
  g_free (fx);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HttpFixture, http_fixture_free)

static gboolean
have_http_fixture (void)
{
  if (!g_file_test (http_fixture_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mcp-http-fixture-server is not built in G_TEST_BUILDDIR/fixtures");
      return FALSE;
    }
  return TRUE;
}

static char *
dup_session_id (HttpFixture *fx)
{
  McpServerConnection *connection = mcp_server_manager_lookup (fx->manager, "http");
  McpClient *client = mcp_server_connection_get_client (connection);
  McpTransport *transport;

  g_assert_nonnull (client);
  transport = mcp_client_get_transport (client);
  g_assert_true (MCP_IS_HTTP_TRANSPORT (transport));
  return g_strdup (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (transport)));
}

static McpProcessedResult *
call_http_echo (HttpFixture  *fx,
                GError      **error)
{
  const char *allow[] = { "mcp__http", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) arguments = echo_arguments ();

  return call_tool (fx->pool, "mcp__http__echo", arguments, permissions, NULL, NULL, error);
}

/* A session lives for 4 POSTs: initialize, initialized, tools/list and a
 * ping leave the tools/call as the one that gets the 404. The new session
 * has no ping, so the retried call is its fourth POST and is answered. */
static void
test_session_expired_retried (void)
{
  g_autoptr(HttpFixture) fx = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GAsyncResult) pinged = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *expired = NULL;
  McpClient *client;
  int expiry;
  int answered;

  if (!have_http_fixture ())
    return;

  fx = http_fixture_new (4);
  first = dup_session_id (fx);
  g_assert_nonnull (first);

  client = mcp_server_connection_get_client (mcp_server_manager_lookup (fx->manager, "http"));
  mcp_client_ping_async (client, NULL, test_result_cb, &pinged);
  mcp_client_ping_finish (client, test_wait_result (&pinged, NULL), &error);
  g_assert_no_error (error);

  processed = call_http_echo (fx, &error);
  g_assert_no_error (error);
  g_assert_nonnull (processed);
  g_assert_cmpstr (text_of (mcp_processed_result_get_result (processed), 0), ==, "hi there");

  /* a new session answered it */
  second = dup_session_id (fx);
  g_assert_nonnull (second);
  g_assert_cmpstr (second, !=, first);

  /* the old session's 404, then the new session's answer, in that order */
  expired = g_strdup_printf ("POST session=%s ", first);
  expiry = wait_log (fx, expired, "-> 404", NULL);
  {
    g_autofree char *renewed = g_strdup_printf ("POST session=%s ", second);

    answered = wait_log (fx, renewed, "-> 200", NULL);
  }
  g_assert_cmpint (expiry, <, answered);
  g_assert_cmpuint (count_initializes (fx, answered), ==, 2);
  /* The first connect found the era; the new session goes straight to
   * initialize. */
  g_assert_cmpuint (count_probes (fx, answered), ==, 1);
  g_assert_cmpint (mcp_server_connection_get_state (mcp_server_manager_lookup (fx->manager, "http")),
                   ==, MCP_SERVER_STATE_CONNECTED);
}

/* A session lives for 3 POSTs: initialize, initialized and tools/list, in
 * the first session and in the new one alike, so the retried call expires
 * too — and is not retried again. */
static void
test_session_expired_twice (void)
{
  g_autoptr(HttpFixture) fx = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *expired = NULL;
  int first_expiry;
  int second_expiry;

  if (!have_http_fixture ())
    return;

  fx = http_fixture_new (3);
  first = dup_session_id (fx);
  g_assert_nonnull (first);

  processed = call_http_echo (fx, &error);
  g_assert_null (processed);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
  g_assert_nonnull (strstr (error->message, "mcp__http__echo"));

  expired = g_strdup_printf ("POST session=%s ", first);
  first_expiry = wait_log (fx, expired, "-> 404", NULL);
  /* the new session's 404: a POST in a session other than the first */
  second_expiry = wait_log (fx, "POST session=s", "-> 404", expired);

  g_assert_cmpint (first_expiry, <, second_expiry);
  /* two sessions made before the second 404: one retry, no more */
  g_assert_cmpuint (count_initializes (fx, second_expiry), ==, 2);
  g_assert_cmpuint (count_probes (fx, second_expiry), ==, 1);
}

/* Issue 20, finding 8: a call's failure names the server's command as
 * ${VAR} expanded it; what leaves the engine has the value masked. */
static void
test_call_error_masked (void)
{
  const char *allow[] = { "mcp__fix", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GAsyncResult) settled = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *link = NULL;
  Fixture fixture = { 0 };

  /* the fixture server, run through a folder whose name is the secret */
  dir = g_dir_make_tmp ("pb-s3cret-dir-XXXXXX", &error);
  g_assert_no_error (error);
  link = g_build_filename (dir, "fix", NULL);
  g_assert_cmpint (symlink (g_getenv ("MCP_TEST_FIXTURE_SERVER"), link), ==, 0);
  g_setenv ("PB_TEST_FIX_DIR", dir, TRUE);

  json_object_set_string_member (object, "command", "${PB_TEST_FIX_DIR}/fix");
  config = mcp_server_config_new_from_json ("fix", MCP_CONFIG_SCOPE_USER, object,
                                            "test", "$.mcpServers.fix", &error);
  g_assert_no_error (error);
  g_list_store_append (configs, config);
  fixture.manager = mcp_server_manager_new ();
  fixture.pool = mcp_tool_pool_new (G_LIST_MODEL (fixture.manager));
  mcp_server_manager_set_configs (fixture.manager, G_LIST_MODEL (configs));
  mcp_server_manager_wait_settled_async (fixture.manager, NULL, test_result_cb, &settled);
  mcp_server_manager_wait_settled_finish (fixture.manager, test_wait_result (&settled, NULL), &error);
  g_assert_no_error (error);
  test_iterate_until (pool_has_state_tool, fixture.pool, "pool has state tool");

  processed = call (&fixture, "mcp__fix__crash", NULL, permissions, NULL, &error);
  g_assert_null (processed);
  g_assert_nonnull (error);
  g_test_message ("the call failed: %s", error->message);
  /* the failure says how the server ended, without where it lives */
  g_assert_nonnull (strstr (error->message, "***"));
  g_assert_null (strstr (error->message, dir));

  fixture_tear_down (&fixture, NULL);
  g_unlink (link);
  g_rmdir (dir);
  g_unsetenv ("PB_TEST_FIX_DIR");
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
  http_fixture_path = g_test_build_filename (G_TEST_BUILT, "fixtures", "mcp-http-fixture-server", NULL);

  g_test_add_func ("/manager/tool-call/process/small-text-unchanged", test_process_small_text_unchanged);
  g_test_add_func ("/manager/tool-call/process/truncation", test_process_truncation);
  g_test_add_func ("/manager/tool-call/process/structured-check", test_process_structured_check);
  g_test_add_func ("/manager/tool-call/process/structured-limit", test_process_structured_limit);
  g_test_add_func ("/manager/tool-call/process/max-output-env", test_max_output_characters_env);
  g_test_add_func ("/manager/tool-call/process/image-downscale", test_process_image_downscale);
  g_test_add_func ("/manager/tool-call/process/image-small-kept", test_process_image_small_kept);
  g_test_add_func ("/manager/tool-call/process/binary-saved", test_process_binary_saved);
  g_test_add_func ("/manager/tool-call/process/unwritable-dir", test_process_unwritable_dir);
  g_test_add_func ("/manager/tool-call/process/json-parsed", test_process_json_parsed);
  g_test_add_func ("/manager/tool-call/process/file-index-after-cut", test_process_file_index_after_cut);
  g_test_add ("/manager/tool-call/call/allow", Fixture, NULL, fixture_set_up, test_call_allow, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/deny", Fixture, NULL, fixture_set_up, test_call_deny, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/ask", Fixture, NULL, fixture_set_up, test_call_ask, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/truncation", Fixture, NULL, fixture_set_up, test_call_truncation, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/opened", Fixture, "--url-elicitation",
              fixture_set_up, test_url_elicitation_opened, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/declined", Fixture, "--url-elicitation",
              fixture_set_up, test_url_elicitation_declined, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/no-opener", Fixture, "--url-elicitation",
              fixture_set_up, test_url_elicitation_no_opener, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/refused/javascript", Fixture,
              "--url-elicitation-url=javascript:alert(document.cookie)",
              fixture_set_up, test_url_elicitation_refused, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/refused/file", Fixture,
              "--url-elicitation-url=file:///etc/passwd",
              fixture_set_up, test_url_elicitation_refused, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/refused/option", Fixture,
              "--url-elicitation-url=--renderer-cmd-prefix=sh -c id",
              fixture_set_up, test_url_elicitation_refused, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/url-elicitation/refused/remote-http", Fixture,
              "--url-elicitation-url=http://consent.example/approve",
              fixture_set_up, test_url_elicitation_refused, fixture_tear_down);
  g_test_add ("/manager/tool-call/call/manager-limits", Fixture, "--big",
              fixture_set_up, test_manager_limits, fixture_tear_down);
  g_test_add_func ("/manager/tool-call/call/session-expired/retried", test_session_expired_retried);
  g_test_add_func ("/manager/tool-call/call/session-expired/twice", test_session_expired_twice);
  g_test_add_func ("/manager/tool-call/call/error-masked", test_call_error_masked);

  status = g_test_run ();

  {
    g_autofree char *quoted = g_shell_quote (cache_dir);
    g_autofree char *command = g_strdup_printf ("rm -rf %s", quoted);
    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  }
  g_free (cache_dir);
  g_free (http_fixture_path);

  return status;
}
