/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-prompt-result"

#include "config.h"

#include "mcp-error.h"
#include "mcp-prompt-result.h"

static McpPromptResult *
result_from_text (const char  *text,
                  GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) parse_error = NULL;

  json_parser_load_from_data (parser, text, -1, &parse_error);
  g_assert_no_error (parse_error);

  return mcp_prompt_result_new_from_json (json_node_get_object (json_parser_get_root (parser)), error);
}

static void
test_prompt_result_messages (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpPromptResult) result = result_from_text (
    "{\"description\": \"A review\", \"messages\": ["
    " {\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"Review this\"}},"
    " {\"role\": \"assistant\", \"content\": {\"type\": \"image\", \"data\": \"iVBORw==\", \"mimeType\": \"image/png\"}},"
    " {\"role\": \"user\", \"content\": {\"type\": \"resource\", \"resource\":"
    "   {\"uri\": \"demo://resource/static/document/a.md\", \"mimeType\": \"text/markdown\", \"text\": \"# A\"}}}"
    "]}", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (mcp_prompt_result_get_description (result), ==, "A review");
  g_assert_cmpuint (mcp_prompt_result_get_n_messages (result), ==, 3);
  g_assert_cmpstr (mcp_prompt_result_get_role (result, 0), ==, "user");
  g_assert_cmpint (mcp_content_get_kind (mcp_prompt_result_get_content (result, 0)), ==, MCP_CONTENT_TEXT);
  g_assert_cmpstr (mcp_content_get_text (mcp_prompt_result_get_content (result, 0)), ==, "Review this");
  g_assert_cmpstr (mcp_prompt_result_get_role (result, 1), ==, "assistant");
  g_assert_cmpint (mcp_content_get_kind (mcp_prompt_result_get_content (result, 1)), ==, MCP_CONTENT_IMAGE);
  g_assert_cmpint (mcp_content_get_kind (mcp_prompt_result_get_content (result, 2)), ==, MCP_CONTENT_RESOURCE);
  g_assert_cmpstr (mcp_content_get_uri (mcp_prompt_result_get_content (result, 2)), ==,
                   "demo://resource/static/document/a.md");
  g_assert_cmpstr (mcp_content_get_text (mcp_prompt_result_get_content (result, 2)), ==, "# A");
  g_assert_true (json_object_has_member (mcp_prompt_result_get_json (result), "messages"));
}

static void
test_prompt_result_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpPromptResult) result = result_from_text ("{\"messages\": []}", &error);

  g_assert_no_error (error);
  g_assert_null (mcp_prompt_result_get_description (result));
  g_assert_cmpuint (mcp_prompt_result_get_n_messages (result), ==, 0);
}

static void
test_prompt_result_invalid (void)
{
  static const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{}", "prompt result: messages must be an array" },
    { "{\"messages\": {}}", "prompt result: messages must be an array" },
    { "{\"messages\": [1]}", "prompt result: messages[0] must be an object" },
    { "{\"messages\": [{\"content\": {\"type\": \"text\", \"text\": \"x\"}}]}",
      "prompt result: messages[0].role must be a string" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"x\"}},"
      " {\"role\": \"user\"}]}",
      "prompt result: messages[1].content must be an object" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"text\": \"x\"}}]}",
      "prompt result: messages[0]: content block has no type" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpPromptResult) result = result_from_text (cases[i].json, &error);

      g_assert_null (result);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/prompt-result/messages", test_prompt_result_messages);
  g_test_add_func ("/prompt-result/empty", test_prompt_result_empty);
  g_test_add_func ("/prompt-result/invalid", test_prompt_result_invalid);

  return g_test_run ();
}
