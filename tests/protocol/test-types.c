/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-types"

#include "config.h"

#include <string.h>

#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-server-info.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "mcp-ui-resource.h"

static JsonObject *
object_from_text (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));

  return json_object_ref (json_node_get_object (root));
}

/* Tools */

static McpTool *
tool_from_text (const char  *text,
                GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_tool_new_from_json (object, error);
}

static void
test_tool_full (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTool) tool = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  gboolean read_only, destructive, idempotent, open_world;

  tool = tool_from_text ("{\"name\":\"get-sum\",\"title\":\"Get sum\",\"description\":\"Adds\","
                         "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"}}},"
                         "\"outputSchema\":{\"type\":\"object\"},"
                         "\"annotations\":{\"title\":\"Annotated\",\"readOnlyHint\":true,"
                         "\"destructiveHint\":false,\"idempotentHint\":true,\"openWorldHint\":false},"
                         "\"icons\":[{\"src\":\"https://x/i.png\"}],"
                         "\"execution\":{\"taskSupport\":\"optional\"},"
                         "\"_meta\":{\"k\":1},\"x-unknown\":\"kept\"}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (tool);

  g_assert_cmpstr (mcp_tool_get_name (tool), ==, "get-sum");
  g_assert_cmpstr (mcp_tool_get_title (tool), ==, "Get sum");
  g_assert_cmpstr (mcp_tool_get_display_name (tool), ==, "Get sum");
  g_assert_cmpstr (mcp_tool_get_description (tool), ==, "Adds");
  g_assert_true (json_object_has_member (mcp_tool_get_input_schema (tool), "properties"));
  g_assert_nonnull (mcp_tool_get_output_schema (tool));
  g_assert_nonnull (mcp_tool_get_annotations (tool));
  g_assert_true (mcp_tool_get_read_only_hint (tool));
  g_assert_false (mcp_tool_get_destructive_hint (tool));
  g_assert_true (mcp_tool_get_idempotent_hint (tool));
  g_assert_false (mcp_tool_get_open_world_hint (tool));
  g_assert_cmpuint (json_array_get_length (mcp_tool_get_icons (tool)), ==, 1);
  g_assert_cmpint (json_object_get_int_member (mcp_tool_get_meta (tool), "k"), ==, 1);
  g_assert_cmpstr (mcp_tool_get_task_support (tool), ==, "optional");
  g_assert_cmpstr (json_object_get_string_member (mcp_tool_get_json (tool), "x-unknown"), ==, "kept");

  g_object_get (tool,
                "name", &name,
                "title", &title,
                "description", &description,
                "read-only-hint", &read_only,
                "destructive-hint", &destructive,
                "idempotent-hint", &idempotent,
                "open-world-hint", &open_world,
                NULL);
  g_assert_cmpstr (name, ==, "get-sum");
  g_assert_cmpstr (title, ==, "Get sum");
  g_assert_cmpstr (description, ==, "Adds");
  g_assert_true (read_only);
  g_assert_false (destructive);
  g_assert_true (idempotent);
  g_assert_false (open_world);
}

static void
test_tool_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTool) tool = NULL;
  gboolean read_only = TRUE, destructive = FALSE, idempotent = TRUE, open_world = FALSE;
  JsonObject *schema;

  tool = tool_from_text ("{\"name\":\"echo\"}", &error);
  g_assert_no_error (error);

  g_assert_null (mcp_tool_get_title (tool));
  g_assert_cmpstr (mcp_tool_get_display_name (tool), ==, "echo");
  g_assert_null (mcp_tool_get_description (tool));
  g_assert_null (mcp_tool_get_annotations (tool));
  g_assert_null (mcp_tool_get_output_schema (tool));
  g_assert_null (mcp_tool_get_icons (tool));
  g_assert_null (mcp_tool_get_meta (tool));
  g_assert_cmpstr (mcp_tool_get_task_support (tool), ==, "forbidden");

  /* a missing inputSchema reads as an empty object schema */
  schema = mcp_tool_get_input_schema (tool);
  g_assert_nonnull (schema);
  g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");
  g_assert_false (json_object_has_member (mcp_tool_get_json (tool), "inputSchema"));

  /* the specification's defaults */
  g_assert_false (mcp_tool_get_read_only_hint (tool));
  g_assert_true (mcp_tool_get_destructive_hint (tool));
  g_assert_false (mcp_tool_get_idempotent_hint (tool));
  g_assert_true (mcp_tool_get_open_world_hint (tool));

  g_object_get (tool,
                "read-only-hint", &read_only,
                "destructive-hint", &destructive,
                "idempotent-hint", &idempotent,
                "open-world-hint", &open_world,
                NULL);
  g_assert_false (read_only);
  g_assert_true (destructive);
  g_assert_false (idempotent);
  g_assert_true (open_world);
}

static void
test_tool_partial_annotations (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTool) tool = NULL;

  /* explicit false on a default-true hint, one hint absent, one of the
   * wrong type (falls back to the default) */
  tool = tool_from_text ("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"},"
                         "\"annotations\":{\"title\":\"From annotations\",\"destructiveHint\":false,"
                         "\"openWorldHint\":\"no\",\"readOnlyHint\":false}}", &error);
  g_assert_no_error (error);

  g_assert_cmpstr (mcp_tool_get_title (tool), ==, "From annotations");
  g_assert_cmpstr (mcp_tool_get_display_name (tool), ==, "From annotations");
  g_assert_false (mcp_tool_get_read_only_hint (tool));
  g_assert_false (mcp_tool_get_destructive_hint (tool));
  g_assert_false (mcp_tool_get_idempotent_hint (tool));
  g_assert_true (mcp_tool_get_open_world_hint (tool));
}

static void
test_tool_sloppy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTool) tool = NULL;

  /* annotations not an object, description not a string, null inputSchema,
   * unknown task support: all ignored */
  tool = tool_from_text ("{\"name\":\"t\",\"inputSchema\":null,\"annotations\":[true],"
                         "\"description\":42,\"icons\":\"x\",\"execution\":{\"taskSupport\":\"sometimes\"}}",
                         &error);
  g_assert_no_error (error);
  g_assert_nonnull (tool);
  g_assert_null (mcp_tool_get_annotations (tool));
  g_assert_null (mcp_tool_get_description (tool));
  g_assert_null (mcp_tool_get_icons (tool));
  g_assert_cmpstr (mcp_tool_get_task_support (tool), ==, "forbidden");
  g_assert_cmpstr (json_object_get_string_member (mcp_tool_get_input_schema (tool), "type"), ==, "object");
  g_assert_true (mcp_tool_get_destructive_hint (tool));
  g_assert_true (mcp_tool_get_open_world_hint (tool));
}

static void
test_tool_ui (void)
{
  static const struct {
    const char        *meta;
    const char        *uri;
    McpToolVisibility  visibility;
  } cases[] = {
    { NULL, NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"ui://get-time/mcp-app.html\"}}", "ui://get-time/mcp-app.html",
      MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    /* The deprecated flat key, and the nested one winning over it. */
    { "{\"ui/resourceUri\":\"ui://old/app.html\"}", "ui://old/app.html",
      MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"ui://new\"},\"ui/resourceUri\":\"ui://old\"}", "ui://new",
      MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"https://evil.example/app.html\"},\"ui/resourceUri\":\"ui://old\"}", "ui://old",
      MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    /* Not ui://, or not a URI at all. */
    { "{\"ui\":{\"resourceUri\":\"https://evil.example/app.html\"}}", NULL,
      MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"file:///etc/passwd\"}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"ui://\"}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"ui://a b\"}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"ui://a\\u001b[2J\"}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":42}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":\"ui://x\"}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"resourceUri\":\"UI://Upper/App\"}}", "UI://Upper/App", MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    /* Visibility. */
    { "{\"ui\":{\"visibility\":[\"app\"]}}", NULL, MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"visibility\":[\"model\"]}}", NULL, MCP_TOOL_VISIBILITY_MODEL },
    { "{\"ui\":{\"visibility\":[\"model\",\"app\",\"model\"]}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"visibility\":[\"app\",\"robot\",7,null,\"APP\"]}}", NULL, MCP_TOOL_VISIBILITY_APP },
    { "{\"ui\":{\"visibility\":[]}}", NULL, MCP_TOOL_VISIBILITY_NONE },
    { "{\"ui\":{\"visibility\":\"app\"}}", NULL, MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpTool) tool = NULL;
      g_autofree char *text = NULL;

      if (cases[i].meta != NULL)
        text = g_strdup_printf ("{\"name\":\"t\",\"_meta\":%s}", cases[i].meta);
      else
        text = g_strdup ("{\"name\":\"t\"}");
      tool = tool_from_text (text, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (mcp_tool_get_ui_resource_uri (tool), ==, cases[i].uri);
      g_assert_cmpint (mcp_tool_get_ui_visibility (tool), ==, cases[i].visibility);
    }

  /* Bounded length. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(McpTool) tool = NULL;
    g_autofree char *path = g_strnfill (MCP_UI_MAX_URI_BYTES, 'a');
    g_autofree char *text = g_strdup_printf ("{\"name\":\"t\",\"_meta\":{\"ui\":{\"resourceUri\":\"ui://%s\"}}}", path);

    tool = tool_from_text (text, &error);
    g_assert_no_error (error);
    g_assert_null (mcp_tool_get_ui_resource_uri (tool));
  }
}

typedef struct
{
  const char *name;
  const char *text;
  const char *message;
} InvalidCase;

static const InvalidCase invalid_tools[] = {
  { "name-missing", "{\"inputSchema\":{}}", "tool: name is missing" },
  { "name-empty", "{\"name\":\"\"}", "tool: name must be a non-empty string" },
  { "name-number", "{\"name\":3}", "tool: name must be a non-empty string" },
  { "input-schema-string", "{\"name\":\"x\",\"inputSchema\":\"object\"}",
    "tool “x”: inputSchema must be an object" },
  { "input-schema-array", "{\"name\":\"x\",\"inputSchema\":[]}",
    "tool “x”: inputSchema must be an object" },
  { "output-schema-bool", "{\"name\":\"x\",\"outputSchema\":true}",
    "tool “x”: outputSchema must be an object" },
};

static void
test_tool_invalid (gconstpointer data)
{
  const InvalidCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTool) tool = NULL;

  tool = tool_from_text (c->text, &error);
  g_assert_null (tool);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (error->message, ==, c->message);
}

/* Content */

static McpContent *
content_from_text (const char  *text,
                   GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_content_new_from_json (object, error);
}

static void
test_content_text (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;
  g_autoptr(GBytes) data = NULL;

  content = content_from_text ("{\"type\":\"text\",\"text\":\"hello\",\"annotations\":{\"priority\":0.5},\"_meta\":{}}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_content_get_kind (content), ==, MCP_CONTENT_TEXT);
  g_assert_cmpstr (mcp_content_get_type_name (content), ==, "text");
  g_assert_cmpstr (mcp_content_get_text (content), ==, "hello");
  g_assert_nonnull (mcp_content_get_annotations (content));
  g_assert_nonnull (mcp_content_get_meta (content));
  g_assert_null (mcp_content_get_mime_type (content));
  g_assert_null (mcp_content_get_data_base64 (content));
  data = mcp_content_get_data (content, &error);
  g_assert_no_error (error);
  g_assert_null (data);
}

static void
test_content_image (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;
  g_autoptr(GBytes) data = NULL;
  g_autoptr(GBytes) again = NULL;

  /* "PNG\r\n" */
  content = content_from_text ("{\"type\":\"image\",\"data\":\"UE5HDQo=\",\"mimeType\":\"image/png\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_content_get_kind (content), ==, MCP_CONTENT_IMAGE);
  g_assert_cmpstr (mcp_content_get_mime_type (content), ==, "image/png");
  g_assert_cmpstr (mcp_content_get_data_base64 (content), ==, "UE5HDQo=");

  data = mcp_content_get_data (content, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);
  g_assert_cmpmem (g_bytes_get_data (data, NULL), g_bytes_get_size (data), "PNG\r\n", 5);

  /* decoded once, then cached */
  again = mcp_content_get_data (content, &error);
  g_assert_no_error (error);
  g_assert_true (again == data);
}

static void
test_content_audio (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;
  g_autoptr(GBytes) data = NULL;

  content = content_from_text ("{\"type\":\"audio\",\"data\":\"\",\"mimeType\":\"audio/wav\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_content_get_kind (content), ==, MCP_CONTENT_AUDIO);
  g_assert_cmpstr (mcp_content_get_mime_type (content), ==, "audio/wav");
  data = mcp_content_get_data (content, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);
  g_assert_cmpuint (g_bytes_get_size (data), ==, 0);
}

static void
test_content_resource_link (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;

  content = content_from_text ("{\"type\":\"resource_link\",\"uri\":\"file:///tmp/a.txt\",\"name\":\"a.txt\","
                               "\"description\":\"A file\",\"mimeType\":\"text/plain\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_content_get_kind (content), ==, MCP_CONTENT_RESOURCE_LINK);
  g_assert_cmpstr (mcp_content_get_uri (content), ==, "file:///tmp/a.txt");
  g_assert_cmpstr (mcp_content_get_name (content), ==, "a.txt");
  g_assert_cmpstr (mcp_content_get_description (content), ==, "A file");
  g_assert_cmpstr (mcp_content_get_mime_type (content), ==, "text/plain");
}

static void
test_content_resource (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) text = NULL;
  g_autoptr(McpContent) blob = NULL;
  g_autoptr(GBytes) data = NULL;

  text = content_from_text ("{\"type\":\"resource\",\"resource\":{\"uri\":\"test://1\","
                            "\"mimeType\":\"text/plain\",\"text\":\"body\"}}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_content_get_kind (text), ==, MCP_CONTENT_RESOURCE);
  g_assert_cmpstr (mcp_content_get_uri (text), ==, "test://1");
  g_assert_cmpstr (mcp_content_get_text (text), ==, "body");
  g_assert_cmpstr (mcp_content_get_mime_type (text), ==, "text/plain");
  g_assert_null (mcp_content_get_data_base64 (text));

  blob = content_from_text ("{\"type\":\"resource\",\"resource\":{\"uri\":\"test://2\",\"blob\":\"AAEC\"}}", &error);
  g_assert_no_error (error);
  g_assert_null (mcp_content_get_text (blob));
  data = mcp_content_get_data (blob, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (data, NULL), g_bytes_get_size (data), "\0\1\2", 3);
}

static void
test_content_unknown (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;

  content = content_from_text ("{\"type\":\"hologram\",\"frames\":3}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_content_get_kind (content), ==, MCP_CONTENT_UNKNOWN);
  g_assert_cmpstr (mcp_content_get_type_name (content), ==, "hologram");
  g_assert_cmpint (json_object_get_int_member (mcp_content_get_json (content), "frames"), ==, 3);
  g_assert_null (mcp_content_get_text (content));
}

static const InvalidCase invalid_contents[] = {
  { "type-missing", "{\"text\":\"x\"}", "content block has no type" },
  { "type-number", "{\"type\":1}", "content block: type must be a string" },
  { "text-missing", "{\"type\":\"text\"}", "text block has no text" },
  { "text-number", "{\"type\":\"text\",\"text\":5}", "text block: text must be a string" },
  { "image-no-data", "{\"type\":\"image\",\"mimeType\":\"image/png\"}", "image block has no data" },
  { "image-no-mime", "{\"type\":\"image\",\"data\":\"AAAA\"}", "image block has no mimeType" },
  { "audio-no-mime", "{\"type\":\"audio\",\"data\":\"AAAA\",\"mimeType\":null}", "audio block has no mimeType" },
  { "link-no-uri", "{\"type\":\"resource_link\",\"name\":\"n\"}", "resource_link block has no uri" },
  { "link-no-name", "{\"type\":\"resource_link\",\"uri\":\"u\"}", "resource_link block has no name" },
  { "resource-missing", "{\"type\":\"resource\"}", "resource block has no resource" },
  { "resource-string", "{\"type\":\"resource\",\"resource\":\"x\"}", "resource block: resource must be an object" },
  { "resource-no-uri", "{\"type\":\"resource\",\"resource\":{\"text\":\"t\"}}", "resource block has no resource.uri" },
  { "resource-empty", "{\"type\":\"resource\",\"resource\":{\"uri\":\"u\"}}",
    "resource block: resource has neither text nor blob" },
  { "resource-blob-number", "{\"type\":\"resource\",\"resource\":{\"uri\":\"u\",\"blob\":1}}",
    "resource block: resource.blob must be a string" },
};

static void
test_content_invalid (gconstpointer data)
{
  const InvalidCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;

  content = content_from_text (c->text, &error);
  g_assert_null (content);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (error->message, ==, c->message);
}

static void
test_content_invalid_base64 (void)
{
  static const struct {
    const char *data;
    const char *message;
  } cases[] = {
    { "AA*A", "image block: data is not valid base64 (unexpected character at offset 2)" },
    { "AAAAA", "image block: data is not valid base64 (length 5 is not a multiple of 4)" },
    { "AA=A", "image block: data is not valid base64 (data after padding at offset 3)" },
    { "A===", "image block: data is not valid base64 (too much padding)" },
    { "AA AA", "image block: data is not valid base64 (unexpected character at offset 2)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"%s\"}",
                                               cases[i].data);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpContent) content = content_from_text (text, &error);
      g_autoptr(GBytes) data = NULL;

      /* the block itself reads fine: base64 is only checked when decoded */
      g_assert_no_error (error);
      g_assert_nonnull (content);

      data = mcp_content_get_data (content, &error);
      g_assert_null (data);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_cmpstr (error->message, ==, cases[i].message);

      /* and a second call fails the same way */
      g_clear_error (&error);
      data = mcp_content_get_data (content, &error);
      g_assert_null (data);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
    }
}

static void
test_content_base64_line_breaks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;
  g_autoptr(GBytes) data = NULL;

  content = content_from_text ("{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"UE5H\\r\\nDQo=\\n\"}", &error);
  g_assert_no_error (error);
  data = mcp_content_get_data (content, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (data, NULL), g_bytes_get_size (data), "PNG\r\n", 5);
}

/* Tool results */

static McpToolResult *
result_from_text (const char  *text,
                  GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_tool_result_new_from_json (object, error);
}

static void
test_tool_result (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  GPtrArray *content;
  JsonNode *structured;

  result = result_from_text ("{\"content\":[{\"type\":\"text\",\"text\":\"3\"},"
                             "{\"type\":\"image\",\"data\":\"AAAA\",\"mimeType\":\"image/png\"},"
                             "{\"type\":\"audio\",\"data\":\"AAAA\",\"mimeType\":\"audio/wav\"},"
                             "{\"type\":\"resource_link\",\"uri\":\"u\",\"name\":\"n\"},"
                             "{\"type\":\"resource\",\"resource\":{\"uri\":\"u\",\"text\":\"t\"}},"
                             "{\"type\":\"future\"}],"
                             "\"structuredContent\":{\"sum\":3},\"isError\":false,\"_meta\":{\"m\":true}}",
                             &error);
  g_assert_no_error (error);

  content = mcp_tool_result_get_content (result);
  g_assert_cmpuint (content->len, ==, 6);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 0)), ==, MCP_CONTENT_TEXT);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 1)), ==, MCP_CONTENT_IMAGE);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 2)), ==, MCP_CONTENT_AUDIO);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 3)), ==, MCP_CONTENT_RESOURCE_LINK);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 4)), ==, MCP_CONTENT_RESOURCE);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 5)), ==, MCP_CONTENT_UNKNOWN);

  structured = mcp_tool_result_get_structured_content (result);
  g_assert_nonnull (structured);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (structured), "sum"), ==, 3);
  g_assert_false (mcp_tool_result_get_is_error (result));
  g_assert_nonnull (mcp_tool_result_get_meta (result));
  g_assert_true (json_object_has_member (mcp_tool_result_get_json (result), "structuredContent"));
}

static void
test_tool_result_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;

  result = result_from_text ("{\"isError\":true}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (mcp_tool_result_get_content (result));
  g_assert_cmpuint (mcp_tool_result_get_content (result)->len, ==, 0);
  g_assert_null (mcp_tool_result_get_structured_content (result));
  g_assert_true (mcp_tool_result_get_is_error (result));
  g_assert_null (mcp_tool_result_get_meta (result));
}

static const InvalidCase invalid_results[] = {
  { "content-object", "{\"content\":{}}", "tool result: content must be an array" },
  { "content-null", "{\"content\":null}", "tool result: content must be an array" },
  { "content-element-string", "{\"content\":[{\"type\":\"text\",\"text\":\"a\"},\"b\"]}",
    "content[1]: must be an object" },
  { "content-bad-block",
    "{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"},"
    "{\"type\":\"image\",\"data\":\"AAAA\"}]}",
    "content[2]: image block has no mimeType" },
  { "is-error-string", "{\"content\":[],\"isError\":\"yes\"}", "tool result: isError must be a boolean" },
};

static void
test_tool_result_invalid (gconstpointer data)
{
  const InvalidCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;

  result = result_from_text (c->text, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (error->message, ==, c->message);
}

/* Server info */

static McpServerInfo *
info_from_text (const char  *text,
                GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_server_info_new_from_json (object, error);
}

static void
test_server_info (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerInfo) info = NULL;
  g_autofree char *name = NULL;
  g_autofree char *version = NULL;
  g_autofree char *protocol_version = NULL;

  info = info_from_text ("{\"protocolVersion\":\"2025-06-18\","
                         "\"capabilities\":{\"tools\":{\"listChanged\":true},"
                         "\"resources\":{\"subscribe\":true,\"listChanged\":false},"
                         "\"prompts\":{},\"logging\":{},\"completions\":{}},"
                         "\"serverInfo\":{\"name\":\"everything\",\"title\":\"Everything\","
                         "\"version\":\"1.0.0\",\"websiteUrl\":\"https://example.org\","
                         "\"icons\":[{\"src\":\"a\"},{\"src\":\"b\"}]},"
                         "\"instructions\":\"Be nice\"}", &error);
  g_assert_no_error (error);

  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "everything");
  g_assert_cmpstr (mcp_server_info_get_title (info), ==, "Everything");
  g_assert_cmpstr (mcp_server_info_get_version (info), ==, "1.0.0");
  g_assert_cmpstr (mcp_server_info_get_website_url (info), ==, "https://example.org");
  g_assert_cmpuint (json_array_get_length (mcp_server_info_get_icons (info)), ==, 2);
  g_assert_cmpstr (mcp_server_info_get_instructions (info), ==, "Be nice");
  g_assert_cmpstr (mcp_server_info_get_protocol_version (info), ==, "2025-06-18");

  g_assert_true (mcp_server_info_has_tools (info));
  g_assert_true (mcp_server_info_has_tools_list_changed (info));
  g_assert_true (mcp_server_info_has_resources (info));
  g_assert_true (mcp_server_info_has_resources_subscribe (info));
  g_assert_false (mcp_server_info_has_resources_list_changed (info));
  g_assert_true (mcp_server_info_has_prompts (info));
  g_assert_false (mcp_server_info_has_prompts_list_changed (info));
  g_assert_true (mcp_server_info_has_logging (info));
  g_assert_true (mcp_server_info_has_completions (info));
  g_assert_false (mcp_server_info_has_tasks (info));
  g_assert_true (json_object_has_member (mcp_server_info_get_json (info), "instructions"));

  g_object_get (info,
                "name", &name,
                "version", &version,
                "protocol-version", &protocol_version,
                NULL);
  g_assert_cmpstr (name, ==, "everything");
  g_assert_cmpstr (version, ==, "1.0.0");
  g_assert_cmpstr (protocol_version, ==, "2025-06-18");
}

static void
test_server_info_minimal (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerInfo) info = NULL;
  JsonObject *capabilities;

  info = info_from_text ("{\"protocolVersion\":\"2024-11-05\",\"serverInfo\":{\"name\":\"s\"}}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "s");
  g_assert_null (mcp_server_info_get_version (info));
  g_assert_null (mcp_server_info_get_title (info));
  g_assert_null (mcp_server_info_get_icons (info));
  g_assert_null (mcp_server_info_get_instructions (info));

  capabilities = mcp_server_info_get_capabilities (info);
  g_assert_nonnull (capabilities);
  g_assert_cmpuint (json_object_get_size (capabilities), ==, 0);
  g_assert_false (mcp_server_info_has_tools (info));
  g_assert_false (mcp_server_info_has_tools_list_changed (info));
  g_assert_false (mcp_server_info_has_resources (info));
  g_assert_false (mcp_server_info_has_prompts (info));
  g_assert_false (mcp_server_info_has_logging (info));
}

static const InvalidCase invalid_infos[] = {
  { "server-info-missing", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}",
    "initialize result: serverInfo is missing" },
  { "server-info-string", "{\"protocolVersion\":\"2025-06-18\",\"serverInfo\":\"x\"}",
    "initialize result: serverInfo must be an object" },
  { "name-missing", "{\"protocolVersion\":\"2025-06-18\",\"serverInfo\":{\"version\":\"1\"}}",
    "initialize result: serverInfo.name must be a string" },
  { "protocol-version-missing", "{\"serverInfo\":{\"name\":\"s\"}}",
    "initialize result: protocolVersion must be a string" },
  { "protocol-version-number", "{\"protocolVersion\":20250618,\"serverInfo\":{\"name\":\"s\"}}",
    "initialize result: protocolVersion must be a string" },
};

static void
test_server_info_invalid (gconstpointer data)
{
  const InvalidCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerInfo) info = NULL;

  info = info_from_text (c->text, &error);
  g_assert_null (info);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (error->message, ==, c->message);
}

static void
add_invalid_cases (const char        *prefix,
                   const InvalidCase *cases,
                   guint              n_cases,
                   GTestDataFunc      func)
{
  for (guint i = 0; i < n_cases; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s", prefix, cases[i].name);

      g_test_add_data_func (path, &cases[i], func);
    }
}

/* x-mcp-header (SEP-2243) */

static McpMessage *
call_with_headers (McpTool    *tool,
                   const char *arguments_text)
{
  g_autoptr(JsonObject) arguments = object_from_text (arguments_text);
  g_autoptr(JsonNode) id = mcp_message_id_new_int (1);
  McpMessage *message = mcp_message_new_request (id, "tools/call", NULL);

  mcp_tool_add_param_headers (tool, arguments, message);
  return message;
}

static const char *
header_of (McpMessage *message,
           const char *name)
{
  GHashTable *headers = mcp_message_get_headers (message);

  return headers != NULL ? g_hash_table_lookup (headers, name) : NULL;
}

static void
test_tool_param_headers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(McpMessage) full = NULL;
  g_autoptr(McpMessage) sparse = NULL;
  g_autoptr(McpMessage) none = NULL;

  tool = tool_from_text ("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\",\"properties\":{"
                         "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
                         "\"count\":{\"type\":\"integer\",\"x-mcp-header\":\"Count\"},"
                         "\"dry\":{\"type\":[\"boolean\",\"null\"],\"x-mcp-header\":\"Dry-Run\"},"
                         "\"method\":{\"type\":\"string\",\"x-mcp-header\":\"Method\"},"
                         "\"ratio\":{\"type\":\"number\"},"
                         "\"where\":{\"type\":\"object\",\"properties\":{"
                         "\"zone\":{\"type\":\"string\",\"x-mcp-header\":\"Zone\"}}},"
                         "\"list\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}", &error);
  g_assert_no_error (error);
  g_assert_true (mcp_tool_check_param_headers (tool, &error));
  g_assert_no_error (error);

  full = call_with_headers (tool, "{\"region\":\"us west 1\",\"count\":42,\"dry\":false,"
                                  "\"method\":\"\",\"ratio\":0.5,\"where\":{\"zone\":\"b\"},"
                                  "\"list\":[\"x\"]}");
  g_assert_cmpstr (header_of (full, "Mcp-Param-Region"), ==, "us west 1");
  g_assert_cmpstr (header_of (full, "Mcp-Param-Count"), ==, "42");
  g_assert_cmpstr (header_of (full, "Mcp-Param-Dry-Run"), ==, "false");
  g_assert_cmpstr (header_of (full, "Mcp-Param-Method"), ==, "");
  g_assert_cmpstr (header_of (full, "Mcp-Param-Zone"), ==, "b");
  g_assert_cmpuint (g_hash_table_size (mcp_message_get_headers (full)), ==, 5);

  /* null and absent arguments send no header; 3.0 is the integer 3 */
  sparse = call_with_headers (tool, "{\"region\":null,\"count\":3.0,\"dry\":true}");
  g_assert_null (header_of (sparse, "Mcp-Param-Region"));
  g_assert_cmpstr (header_of (sparse, "Mcp-Param-Count"), ==, "3");
  g_assert_cmpstr (header_of (sparse, "Mcp-Param-Dry-Run"), ==, "true");
  g_assert_cmpuint (g_hash_table_size (mcp_message_get_headers (sparse)), ==, 2);

  none = call_with_headers (tool, "{}");
  g_assert_null (mcp_message_get_headers (none));
}

static void
test_tool_param_headers_invalid (void)
{
  /* Each breaks one SEP-2243 rule; the tool must be refused. */
  static const char * const schemas[] = {
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Has Space\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Has:Colon\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"R\u00e9gion\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Tab\\there\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":7}}}",
    "{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Same\"},"
      "\"b\":{\"type\":\"string\",\"x-mcp-header\":\"same\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"number\",\"x-mcp-header\":\"A\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"object\",\"x-mcp-header\":\"A\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"array\",\"x-mcp-header\":\"A\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"null\",\"x-mcp-header\":\"A\"}}}",
    "{\"properties\":{\"a\":{\"x-mcp-header\":\"A\"}}}",
    "{\"properties\":{\"a\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"x-mcp-header\":\"A\"}}}}",
    "{\"anyOf\":[{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"A\"}}}]}",
    "{\"$defs\":{\"d\":{\"type\":\"string\",\"x-mcp-header\":\"A\"}}}",
    "{\"type\":\"object\",\"x-mcp-header\":\"A\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (schemas); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"name\":\"bad\",\"inputSchema\":%s}", schemas[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpTool) tool = tool_from_text (text, &error);

      g_test_message ("schema %u: %s", i, schemas[i]);
      g_assert_no_error (error);
      g_assert_false (mcp_tool_check_param_headers (tool, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_nonnull (strstr (error->message, "“bad”"));
    }

  /* An example or default that merely holds the key is data, not schema. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(McpTool) tool = tool_from_text ("{\"name\":\"ok\",\"inputSchema\":{\"properties\":{"
                                              "\"a\":{\"type\":\"object\",\"default\":{\"x-mcp-header\":\"no\"}}}}}",
                                              &error);

    g_assert_no_error (error);
    g_assert_true (mcp_tool_check_param_headers (tool, &error));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/protocol/tool/full", test_tool_full);
  g_test_add_func ("/protocol/tool/defaults", test_tool_defaults);
  g_test_add_func ("/protocol/tool/partial-annotations", test_tool_partial_annotations);
  g_test_add_func ("/protocol/tool/sloppy", test_tool_sloppy);
  g_test_add_func ("/protocol/tool/ui", test_tool_ui);
  g_test_add_func ("/protocol/tool/param-headers", test_tool_param_headers);
  g_test_add_func ("/protocol/tool/param-headers-invalid", test_tool_param_headers_invalid);
  add_invalid_cases ("/protocol/tool/invalid", invalid_tools, G_N_ELEMENTS (invalid_tools), test_tool_invalid);

  g_test_add_func ("/protocol/content/text", test_content_text);
  g_test_add_func ("/protocol/content/image", test_content_image);
  g_test_add_func ("/protocol/content/audio", test_content_audio);
  g_test_add_func ("/protocol/content/resource-link", test_content_resource_link);
  g_test_add_func ("/protocol/content/resource", test_content_resource);
  g_test_add_func ("/protocol/content/unknown", test_content_unknown);
  g_test_add_func ("/protocol/content/invalid-base64", test_content_invalid_base64);
  g_test_add_func ("/protocol/content/base64-line-breaks", test_content_base64_line_breaks);
  add_invalid_cases ("/protocol/content/invalid", invalid_contents, G_N_ELEMENTS (invalid_contents), test_content_invalid);

  g_test_add_func ("/protocol/tool-result/full", test_tool_result);
  g_test_add_func ("/protocol/tool-result/empty", test_tool_result_empty);
  add_invalid_cases ("/protocol/tool-result/invalid", invalid_results, G_N_ELEMENTS (invalid_results), test_tool_result_invalid);

  g_test_add_func ("/protocol/server-info/full", test_server_info);
  g_test_add_func ("/protocol/server-info/minimal", test_server_info_minimal);
  add_invalid_cases ("/protocol/server-info/invalid", invalid_infos, G_N_ELEMENTS (invalid_infos), test_server_info_invalid);

  return g_test_run ();
}
