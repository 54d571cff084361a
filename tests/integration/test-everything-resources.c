/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-resources"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* Resources, templates, subscriptions, prompts, completions and logging
 * (issue 8) through McpClient against @modelcontextprotocol/server-everything
 * over stdio; the capability checks against mcp-fixture-server, which offers
 * none of them. */

static char *node_path;
static char *server_script;

static McpClient *
connect_argv (const char * const *argv)
{
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);

  return test_client_new_connected (transport);
}

static McpClient *
connect_everything (void)
{
  const char *argv[] = { node_path, server_script, "stdio", NULL };

  return connect_argv (argv);
}

static JsonObject *
object_from_json (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_node_dup_object (json_parser_get_root (parser));
}

static GPtrArray *
read_resource (McpClient   *client,
               const char  *uri,
               GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_read_resource_async (client, uri, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  return mcp_client_read_resource_finish (client, result, error);
}

static McpPromptResult *
get_prompt (McpClient   *client,
            const char  *name,
            const char  *arguments_json,
            GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) arguments = arguments_json ? object_from_json (arguments_json) : NULL;

  mcp_client_get_prompt_async (client, name, arguments, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  return mcp_client_get_prompt_finish (client, result, error);
}

static GStrv
complete (McpClient        *client,
          McpCompletionRef  kind,
          const char       *ref,
          const char       *argument,
          const char       *value,
          const char       *context_json,
          gboolean         *has_more,
          GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) context = context_json ? object_from_json (context_json) : NULL;

  mcp_client_complete_async (client, kind, ref, argument, value, context, NULL,
                             test_result_cb, &result);
  test_wait_result (&result, NULL);
  return mcp_client_complete_finish (client, result, has_more, error);
}

static void
call_tool (McpClient  *client,
           const char *name)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_call_tool_async (client, name, NULL, NULL, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (tool_result));
}

static McpResource *
find_resource (GPtrArray  *resources,
               const char *uri)
{
  for (guint i = 0; i < resources->len; i++)
    if (g_strcmp0 (mcp_resource_get_uri (g_ptr_array_index (resources, i)), uri) == 0)
      return g_ptr_array_index (resources, i);
  return NULL;
}

static void
test_read (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) resources = NULL;
  g_autoptr(GPtrArray) templates = NULL;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GBytes) blob = NULL;
  g_autoptr(GError) error = NULL;
  const char *uri = NULL;
  McpContent *content;
  gboolean have_text_template = FALSE;

  if (!test_have_node_script (node_path, server_script))
    return;
  client = connect_everything ();

  mcp_client_list_resources_async (client, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  resources = mcp_client_list_resources_finish (client, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (resources->len, >, 0);
  for (guint i = 0; i < resources->len && uri == NULL; i++)
    if (g_str_has_prefix (mcp_resource_get_uri (g_ptr_array_index (resources, i)),
                          "demo://resource/static/document/"))
      uri = mcp_resource_get_uri (g_ptr_array_index (resources, i));
  g_assert_nonnull (uri);
  g_assert_nonnull (find_resource (resources, uri));
  g_clear_object (&result);

  mcp_client_list_resource_templates_async (client, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  templates = mcp_client_list_resource_templates_finish (client, result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < templates->len; i++)
    if (g_strcmp0 (mcp_resource_template_get_uri_template (g_ptr_array_index (templates, i)),
                   "demo://resource/dynamic/text/{resourceId}") == 0)
      have_text_template = TRUE;
  g_assert_true (have_text_template);

  /* A static document: text, with the URI it was read from. */
  contents = read_resource (client, uri, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (contents->len, ==, 1);
  content = g_ptr_array_index (contents, 0);
  g_assert_cmpint (mcp_content_get_kind (content), ==, MCP_CONTENT_RESOURCE);
  g_assert_cmpstr (mcp_content_get_uri (content), ==, uri);
  g_assert_nonnull (mcp_content_get_text (content));
  g_assert_cmpuint (strlen (mcp_content_get_text (content)), >, 0);
  g_clear_pointer (&contents, g_ptr_array_unref);

  /* From the text template. */
  contents = read_resource (client, "demo://resource/dynamic/text/3", &error);
  g_assert_no_error (error);
  content = g_ptr_array_index (contents, 0);
  g_assert_true (g_str_has_prefix (mcp_content_get_text (content),
                                   "Resource 3: This is a plaintext resource"));
  g_assert_cmpstr (mcp_content_get_mime_type (content), ==, "text/plain");
  g_clear_pointer (&contents, g_ptr_array_unref);

  /* A blob: decoded bytes, no text. */
  contents = read_resource (client, "demo://resource/dynamic/blob/2", &error);
  g_assert_no_error (error);
  content = g_ptr_array_index (contents, 0);
  g_assert_null (mcp_content_get_text (content));
  blob = mcp_content_get_data (content, &error);
  g_assert_no_error (error);
  g_assert_nonnull (blob);
  g_assert_cmpuint (g_bytes_get_size (blob), >, 0);
  g_clear_pointer (&contents, g_ptr_array_unref);

  /* An unknown resource: the server's own error, not a crash. */
  contents = read_resource (client, "demo://resource/nowhere", &error);
  g_assert_null (contents);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS);
  g_clear_error (&error);

  test_client_close (client, NULL);
}

static void
on_notification_cb (McpClient   *client,
                    McpMessage  *message,
                    GPtrArray   *uris)
{
  JsonObject *params = mcp_message_get_params_object (message);

  if (g_strcmp0 (mcp_message_get_method (message), "notifications/resources/updated") == 0 &&
      params != NULL)
    g_ptr_array_add (uris, g_strdup (json_object_get_string_member (params, "uri")));
}

static void
test_subscribe (void)
{
  static const char uri[] = "demo://resource/dynamic/text/1";
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GPtrArray) uris = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint hang_id;

  if (!test_have_node_script (node_path, server_script))
    return;
  client = connect_everything ();
  g_assert_true (mcp_server_info_has_resources_subscribe (mcp_client_get_server_info (client)));
  g_signal_connect (client, "notification", G_CALLBACK (on_notification_cb), uris);

  mcp_client_subscribe_resource_async (client, uri, TRUE, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  g_assert_true (mcp_client_subscribe_resource_finish (client, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* server-everything sends updates for subscribed URIs every 5 s once
   * this tool turned them on. */
  call_tool (client, "toggle-subscriber-updates");
  hang_id = test_hang_guard ("resources/updated");
  while (uris->len == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
  g_assert_cmpstr (g_ptr_array_index (uris, 0), ==, uri);

  mcp_client_subscribe_resource_async (client, uri, FALSE, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  g_assert_true (mcp_client_subscribe_resource_finish (client, result, &error));
  g_assert_no_error (error);

  test_client_close (client, NULL);
}

static void
test_prompts (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpPromptResult) prompt = NULL;
  g_autoptr(GError) error = NULL;
  McpContent *content;

  if (!test_have_node_script (node_path, server_script))
    return;
  client = connect_everything ();

  prompt = get_prompt (client, "simple-prompt", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_prompt_result_get_n_messages (prompt), >=, 1);
  g_assert_cmpstr (mcp_prompt_result_get_role (prompt, 0), ==, "user");
  g_assert_cmpint (mcp_content_get_kind (mcp_prompt_result_get_content (prompt, 0)), ==, MCP_CONTENT_TEXT);
  g_clear_object (&prompt);

  prompt = get_prompt (client, "args-prompt", "{\"city\": \"Lyon\", \"state\": \"Rhône\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_content_get_text (mcp_prompt_result_get_content (prompt, 0)), ==,
                   "What's weather in Lyon, Rhône?");
  g_clear_object (&prompt);

  /* An embedded resource in the messages. */
  prompt = get_prompt (client, "resource-prompt", "{\"resourceType\": \"Text\", \"resourceId\": \"4\"}", &error);
  g_assert_no_error (error);
  content = NULL;
  for (guint i = 0; i < mcp_prompt_result_get_n_messages (prompt); i++)
    if (mcp_content_get_kind (mcp_prompt_result_get_content (prompt, i)) == MCP_CONTENT_RESOURCE)
      content = mcp_prompt_result_get_content (prompt, i);
  g_assert_nonnull (content);
  g_assert_cmpstr (mcp_content_get_uri (content), ==, "demo://resource/dynamic/text/4");
  g_clear_object (&prompt);

  /* A missing required argument: the server's error. */
  prompt = get_prompt (client, "args-prompt", "{}", &error);
  g_assert_null (prompt);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS);
  g_clear_error (&error);

  /* Arguments are strings: refused before asking. */
  prompt = get_prompt (client, "args-prompt", "{\"city\": 7}", &error);
  g_assert_null (prompt);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "“city”"));

  test_client_close (client, NULL);
}

static void
test_completion (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  gboolean has_more = TRUE;

  if (!test_have_node_script (node_path, server_script))
    return;
  client = connect_everything ();
  g_assert_true (mcp_server_info_has_completions (mcp_client_get_server_info (client)));

  values = complete (client, MCP_COMPLETION_PROMPT, "completable-prompt", "department", "Ma",
                     NULL, &has_more, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (values, ((const char *[]) { "Marketing", NULL }));
  g_assert_false (has_more);
  g_clear_pointer (&values, g_strfreev);

  /* The other arguments narrow the values. */
  values = complete (client, MCP_COMPLETION_PROMPT, "completable-prompt", "name", "",
                     "{\"department\": \"Sales\"}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (values, ((const char *[]) { "David", "Eve", "Frank", NULL }));
  g_clear_pointer (&values, g_strfreev);

  /* A resource template's variable. */
  values = complete (client, MCP_COMPLETION_RESOURCE, "demo://resource/dynamic/text/{resourceId}",
                     "resourceId", "12", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (values, ((const char *[]) { "12", NULL }));

  test_client_close (client, NULL);
}

typedef struct
{
  GPtrArray *levels;
  GPtrArray *data;
} LogMessages;

static void
on_log_message_cb (McpClient   *client,
                   const char  *level,
                   const char  *logger,
                   JsonNode    *data,
                   LogMessages *messages)
{
  g_ptr_array_add (messages->levels, g_strdup (level));
  g_ptr_array_add (messages->data,
                   g_strdup (data != NULL && json_node_get_value_type (data) == G_TYPE_STRING
                             ? json_node_get_string (data) : ""));
}

static void
test_logging (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) levels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) data = g_ptr_array_new_with_free_func (g_free);
  LogMessages messages = { levels, data };
  guint hang_id;

  if (!test_have_node_script (node_path, server_script))
    return;
  client = connect_everything ();
  g_signal_connect (client, "log-message", G_CALLBACK (on_log_message_cb), &messages);

  /* Not a level: refused before asking. */
  mcp_client_set_log_level_async (client, "verbose", NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  g_assert_false (mcp_client_set_log_level_finish (client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "debug, info, notice"));
  g_clear_error (&error);
  g_clear_object (&result);

  mcp_client_set_log_level_async (client, "debug", NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  g_assert_true (mcp_client_set_log_level_finish (client, result, &error));
  g_assert_no_error (error);

  /* The simulated logging sends one message at once, then one each 5 s. */
  call_tool (client, "toggle-simulated-logging");
  hang_id = test_hang_guard ("notifications/message");
  while (levels->len == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
  g_assert_true (g_strv_contains (mcp_client_get_log_levels (), g_ptr_array_index (levels, 0)));
  g_assert_nonnull (strstr (g_ptr_array_index (data, 0), "message"));

  test_client_close (client, NULL);
}

/* A server without resources, prompts, completions: UNSUPPORTED (or an
 * empty completion) without a request. */
static void
test_unsupported (void)
{
  const char *fixture = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  const char *argv[] = { fixture, NULL };
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(McpPromptResult) prompt = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;

  g_assert_nonnull (fixture);
  client = connect_argv (argv);

  contents = read_resource (client, "file:///etc/hostname", &error);
  g_assert_null (contents);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "“mcp-fixture-server” does not offer resources");
  g_clear_error (&error);

  mcp_client_subscribe_resource_async (client, "file:///x", TRUE, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  g_assert_false (mcp_client_subscribe_resource_finish (client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_clear_object (&result);

  prompt = get_prompt (client, "p", NULL, &error);
  g_assert_null (prompt);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  values = complete (client, MCP_COMPLETION_PROMPT, "p", "a", "x", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (values, ((const char *[]) { NULL }));

  /* The fixture declares logging. */
  mcp_client_set_log_level_async (client, "error", NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  mcp_client_set_log_level_finish (client, result, &error);
  g_assert_true (error == NULL || error->domain == MCP_JSONRPC_ERROR);
  g_clear_error (&error);
  g_clear_object (&result);

  test_client_close (client, NULL);

  /* Closed: not connected, said so. */
  contents = read_resource (client, "file:///x", &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  g_test_add_func ("/everything/resources/read", test_read);
  g_test_add_func ("/everything/resources/subscribe", test_subscribe);
  g_test_add_func ("/everything/prompts/get", test_prompts);
  g_test_add_func ("/everything/completion", test_completion);
  g_test_add_func ("/everything/logging", test_logging);
  g_test_add_func ("/everything/unsupported", test_unsupported);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
