/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-protocol"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-content.h"
#include "mcp-http-private.h"
#include "mcp-json-private.h"
#include "mcp-message.h"
#include "mcp-prompt.h"
#include "mcp-prompt-result.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-server-info.h"
#include "mcp-task.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"

/* What servers send as MCP types: one JSON object read as each of a content
 * block, a tool (with its x-mcp-header declarations), a tool result, a
 * prompt, a prompt result, a resource, a resource template, a task and an
 * initialize result (server info). A member "arguments" of the object is
 * used as the arguments of a tools/call for the tool's Mcp-Param-* headers.
 *
 * Checks: a refusal has a message; every string getter gives UTF-8 or NULL
 * (json-glib only holds UTF-8); a name that is required is there; a
 * content block's data decodes or says why not; a task's status string
 * maps to a status and back; Mcp-Param-* headers are named as tokens and
 * their values, as the HTTP transport encodes them, are printable ASCII.
 * Warnings and criticals are fatal. */

static void
fail (const char *what)
{
  g_printerr ("fuzz-protocol: %s\n", what);
  abort ();
}

static void
check_refusal (const GError *error,
               const char   *what)
{
  if (error == NULL || error->message == NULL || error->message[0] == '\0')
    fail (what);
}

static void
check_string (const char *text,
              gboolean    required,
              const char *what)
{
  if (text == NULL ? required : !g_utf8_validate (text, -1, NULL))
    {
      g_printerr ("fuzz-protocol: %s is NULL or not UTF-8\n", what);
      abort ();
    }
}

static void
check_content (McpContent *content)
{
  g_autoptr(GBytes) data = NULL;
  g_autoptr(GError) error = NULL;
  McpContentKind kind = mcp_content_get_kind (content);

  if (kind > MCP_CONTENT_UNKNOWN)
    fail ("a content block of no kind");
  check_string (mcp_content_get_type_name (content), FALSE, "a content type");
  check_string (mcp_content_get_text (content), kind == MCP_CONTENT_TEXT, "a text");
  check_string (mcp_content_get_mime_type (content), FALSE, "a MIME type");
  check_string (mcp_content_get_uri (content), FALSE, "a URI");
  check_string (mcp_content_get_name (content), FALSE, "a name");
  check_string (mcp_content_get_description (content), FALSE, "a description");
  (void) mcp_content_get_annotations (content);
  (void) mcp_content_get_meta (content);
  (void) mcp_content_get_data_base64 (content);
  if (mcp_content_get_json (content) == NULL)
    fail ("a content block without its JSON");

  data = mcp_content_get_data (content, &error);
  if (data != NULL && error != NULL)
    fail ("data and an error");
}

static void
check_param_headers (McpTool    *tool,
                     JsonObject *object)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonNode) id = NULL;
  JsonObject *arguments = NULL;
  GHashTable *headers;
  GHashTableIter iter;
  gpointer key, value;

  if (!mcp_tool_check_param_headers (tool, &error))
    {
      check_refusal (error, "an x-mcp-header refusal without a message");
      return;
    }

  if (json_object_has_member (object, "arguments") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "arguments")))
    arguments = json_object_get_object_member (object, "arguments");
  if (arguments == NULL)
    return;

  id = mcp_message_id_new_int (1);
  message = mcp_message_new_request (id, "tools/call", NULL);
  mcp_tool_add_param_headers (tool, arguments, message);
  headers = mcp_message_get_headers (message);
  if (headers == NULL)
    return;

  g_hash_table_iter_init (&iter, headers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *encoded = mcp_http_header_value_encode (value);

      if (!g_str_has_prefix (key, "Mcp-Param-"))
        fail ("a parameter header not named Mcp-Param-*");
      for (const char *p = key; *p != '\0'; p++)
        if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
          fail ("a parameter header name that is not a token");
      for (const char *p = encoded; *p != '\0'; p++)
        if (*p < 0x20 || *p > 0x7e)
          fail ("a parameter header value that is not printable ASCII");
    }
}

static void
check_tool (JsonObject *object)
{
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(GError) error = NULL;
  const char *task_support;

  tool = mcp_tool_new_from_json (object, &error);
  if (tool == NULL)
    {
      check_refusal (error, "a tool refused without a message");
      return;
    }

  check_string (mcp_tool_get_name (tool), TRUE, "a tool's name");
  check_string (mcp_tool_get_title (tool), FALSE, "a tool's title");
  check_string (mcp_tool_get_display_name (tool), TRUE, "a tool's display name");
  check_string (mcp_tool_get_description (tool), FALSE, "a tool's description");
  if (mcp_tool_get_input_schema (tool) == NULL)
    fail ("a tool without an input schema");
  (void) mcp_tool_get_output_schema (tool);
  (void) mcp_tool_get_annotations (tool);
  (void) mcp_tool_get_read_only_hint (tool);
  (void) mcp_tool_get_destructive_hint (tool);
  (void) mcp_tool_get_idempotent_hint (tool);
  (void) mcp_tool_get_open_world_hint (tool);
  (void) mcp_tool_get_icons (tool);
  (void) mcp_tool_get_meta (tool);
  task_support = mcp_tool_get_task_support (tool);
  if (g_strcmp0 (task_support, "forbidden") != 0 && g_strcmp0 (task_support, "optional") != 0 &&
      g_strcmp0 (task_support, "required") != 0)
    fail ("a task support that is none of the three");

  check_param_headers (tool, object);
}

static void
check_tool_result (JsonObject *object)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *content;

  result = mcp_tool_result_new_from_json (object, &error);
  if (result == NULL)
    {
      check_refusal (error, "a tool result refused without a message");
      return;
    }

  content = mcp_tool_result_get_content (result);
  if (content == NULL)
    fail ("a tool result without its content array");
  for (guint i = 0; i < content->len; i++)
    check_content (g_ptr_array_index (content, i));
  (void) mcp_tool_result_get_structured_content (result);
  (void) mcp_tool_result_get_is_error (result);
  (void) mcp_tool_result_get_meta (result);
}

static void
check_prompts (JsonObject *object)
{
  g_autoptr(McpPrompt) prompt = NULL;
  g_autoptr(McpPromptResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) result_error = NULL;

  prompt = mcp_prompt_new_from_json (object, &error);
  if (prompt == NULL)
    check_refusal (error, "a prompt refused without a message");
  else
    {
      check_string (mcp_prompt_get_name (prompt), TRUE, "a prompt's name");
      check_string (mcp_prompt_get_display_name (prompt), TRUE, "a prompt's display name");
      check_string (mcp_prompt_get_description (prompt), FALSE, "a prompt's description");
      for (guint i = 0; i < mcp_prompt_get_n_arguments (prompt); i++)
        {
          check_string (mcp_prompt_get_argument_name (prompt, i), TRUE, "an argument's name");
          (void) mcp_prompt_get_argument_required (prompt, i);
        }
      /* the form the app builds of the arguments: one string property each */
      {
        g_autoptr(JsonObject) schema = mcp_prompt_dup_arguments_schema (prompt);
        JsonObject *properties;

        if (schema == NULL || !json_object_has_member (schema, "properties"))
          fail ("a prompt's arguments made no schema");
        properties = json_object_get_object_member (schema, "properties");
        if (properties == NULL || json_object_get_size (properties) > mcp_prompt_get_n_arguments (prompt))
          fail ("a prompt's arguments schema has more properties than arguments");
      }
    }

  result = mcp_prompt_result_new_from_json (object, &result_error);
  if (result == NULL)
    {
      check_refusal (result_error, "a prompt result refused without a message");
      return;
    }
  check_string (mcp_prompt_result_get_description (result), FALSE, "a prompt result's description");
  for (guint i = 0; i < mcp_prompt_result_get_n_messages (result); i++)
    {
      check_string (mcp_prompt_result_get_role (result, i), TRUE, "a message's role");
      check_content (mcp_prompt_result_get_content (result, i));
    }
}

static void
check_resources (JsonObject *object)
{
  g_autoptr(McpResource) resource = NULL;
  g_autoptr(McpResourceTemplate) template = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) template_error = NULL;

  resource = mcp_resource_new_from_json (object, &error);
  if (resource == NULL)
    check_refusal (error, "a resource refused without a message");

  template = mcp_resource_template_new_from_json (object, &template_error);
  if (template == NULL)
    {
      check_refusal (template_error, "a resource template refused without a message");
      return;
    }
  check_string (mcp_resource_template_get_uri_template (template), TRUE, "a URI template");
  check_string (mcp_resource_template_get_name (template), TRUE, "a template's name");
  check_string (mcp_resource_template_get_title (template), FALSE, "a template's title");
  check_string (mcp_resource_template_get_display_name (template), TRUE, "a template's display name");
  check_string (mcp_resource_template_get_description (template), FALSE, "a template's description");
  check_string (mcp_resource_template_get_mime_type (template), FALSE, "a template's MIME type");
  (void) mcp_resource_template_get_annotations (template);
  (void) mcp_resource_template_get_icons (template);
  (void) mcp_resource_template_get_meta (template);
}

static void
check_task (JsonObject *object)
{
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  McpTaskStatus status;

  task = mcp_task_new_from_json (object, &error);
  if (task == NULL)
    {
      check_refusal (error, "a task refused without a message");
      return;
    }

  check_string (mcp_task_get_id (task), TRUE, "a task's id");
  check_string (mcp_task_get_status_string (task), TRUE, "a task's status");
  status = mcp_task_get_status (task);
  if (status != mcp_task_status_from_string (mcp_task_get_status_string (task)))
    fail ("a task's status that is not its status string");
  if (status != MCP_TASK_STATUS_UNKNOWN &&
      mcp_task_status_from_string (mcp_task_status_to_string (status)) != status)
    fail ("a status that does not read back");
  (void) mcp_task_status_is_terminal (status);
  check_string (mcp_task_get_status_message (task), FALSE, "a task's status message");
  check_string (mcp_task_get_created_at (task), FALSE, "a task's creation time");
  check_string (mcp_task_get_last_updated_at (task), FALSE, "a task's update time");
  if (mcp_task_get_ttl (task) < -1 || mcp_task_get_poll_interval (task) < -1)
    fail ("a negative ttl or poll interval");
}

static void
check_server_info (JsonObject *object)
{
  g_autoptr(McpServerInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = mcp_server_info_new_from_json (object, &error);
  if (info == NULL)
    {
      check_refusal (error, "server info refused without a message");
      return;
    }

  check_string (mcp_server_info_get_name (info), FALSE, "a server's name");
  check_string (mcp_server_info_get_title (info), FALSE, "a server's title");
  check_string (mcp_server_info_get_version (info), FALSE, "a server's version");
  check_string (mcp_server_info_get_website_url (info), FALSE, "a server's website");
  check_string (mcp_server_info_get_instructions (info), FALSE, "a server's instructions");
  check_string (mcp_server_info_get_protocol_version (info), FALSE, "a protocol version");
  if (mcp_server_info_get_capabilities (info) == NULL)
    fail ("server info without capabilities");
  (void) mcp_server_info_get_icons (info);
  (void) mcp_server_info_has_tools (info);
  (void) mcp_server_info_has_tools_list_changed (info);
  (void) mcp_server_info_has_resources (info);
  (void) mcp_server_info_has_resources_subscribe (info);
  (void) mcp_server_info_has_resources_list_changed (info);
  (void) mcp_server_info_has_prompts (info);
  (void) mcp_server_info_has_prompts_list_changed (info);
  (void) mcp_server_info_has_logging (info);
  (void) mcp_server_info_has_completions (info);
  (void) mcp_server_info_has_tasks (info);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpContent) content = NULL;
  JsonObject *object;

  fuzz_abort_on_warnings ();

  node = mcp_json_parse ((const char *) data, size, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return 0;
  object = json_node_get_object (node);

  content = mcp_content_new_from_json (object, &error);
  if (content == NULL)
    check_refusal (error, "a content block refused without a message");
  else
    check_content (content);

  check_tool (object);
  check_tool_result (object);
  check_prompts (object);
  check_resources (object);
  check_task (object);
  check_server_info (object);

  return 0;
}
