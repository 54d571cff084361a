/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-modern-era"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "everything-fixture.h"
#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-roots.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"

/* Issue 10's acceptance: one settings file with servers of both eras —
 * the modern-only fixture over Streamable HTTP and over stdio, and
 * server-everything, which speaks the handshake revision — all connect, list
 * and call tools through McpServerManager, and each shows its era. Then
 * what only the stateless revision has: input_required results answered by
 * the same handlers that answer a handshake-era server's requests, and a
 * broken response stream that makes the client send the call again with a
 * new id. */

typedef struct
{
  char             *dir;
  char             *project_dir;
  GSubprocess      *http_server;
  char             *http_log;      /* the HTTP fixture's stderr: "REQ method id" */
  McpSettings      *settings;
  McpServerManager *manager;
  McpToolPool      *pool;
  McpRoots         *roots;
  guint             elicitations;
  guint             samplings;
  char             *elicitation_message;
} EraTest;

static const char *
modern_fixture (void)
{
  return g_getenv ("MCP_TEST_MODERN_FIXTURE");
}

/* Starts the modern fixture on a port of its choosing; returns its URL. */
static char *
start_http_fixture (EraTest            *test,
                    const char * const *extra)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;
  guint64 port = 0;

  test->http_log = g_build_filename (test->dir, "http-fixture.log", NULL);
  g_subprocess_launcher_set_stderr_file_path (launcher, test->http_log);
  g_ptr_array_add (argv, (gpointer) modern_fixture ());
  g_ptr_array_add (argv, (gpointer) "--port");
  g_ptr_array_add (argv, (gpointer) "0");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, NULL);

  test->http_server = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (test->http_server));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "PORT "));
  g_assert_true (g_ascii_string_to_unsigned (line + 5, 10, 1, 65535, &port, NULL));

  return g_strdup_printf ("http://127.0.0.1:%u/mcp", (guint) port);
}

/* The lines of the HTTP fixture's log that start with @prefix. */
static guint
count_log (EraTest    *test,
           const char *prefix)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (test->http_log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      n++;
  return n;
}

/* Ends the HTTP fixture and removes its log (and the directory, when
 * nothing else was put in it). */
static void
stop_http_fixture (EraTest *test)
{
  if (test->http_server != NULL)
    {
      g_subprocess_force_exit (test->http_server);
      g_subprocess_wait (test->http_server, NULL, NULL);
      g_clear_object (&test->http_server);
    }
  if (test->http_log != NULL)
    g_remove (test->http_log);
  g_clear_pointer (&test->http_log, g_free);
  if (test->dir != NULL)
    g_rmdir (test->dir);
  g_clear_pointer (&test->dir, g_free);
}

static void
elicitation_cb (McpServerConnection *connection,
                const char          *method,
                JsonObject          *params,
                GTask               *reply,
                gpointer             user_data)
{
  EraTest *test = user_data;
  g_autoptr(GTask) owned = reply;

  test->elicitations++;
  g_free (test->elicitation_message);
  test->elicitation_message = g_strdup (json_object_get_string_member_with_default (params, "message", ""));
  g_task_return_pointer (owned,
                         json_node_init_object (json_node_alloc (),
                                                everything_object ("{\"action\": \"accept\","
                                                                   " \"content\": {\"name\": \"Ada\"}}")),
                         (GDestroyNotify) json_node_unref);
}

static void
sampling_cb (McpServerConnection *connection,
             const char          *method,
             JsonObject          *params,
             GTask               *reply,
             gpointer             user_data)
{
  EraTest *test = user_data;
  g_autoptr(GTask) owned = reply;

  test->samplings++;
  g_task_return_pointer (owned,
                         json_node_init_object (json_node_alloc (),
                                                everything_object ("{\"role\": \"assistant\","
                                                                   " \"content\": {\"type\": \"text\", \"text\": \"teal\"},"
                                                                   " \"model\": \"human (test)\", \"stopReason\": \"endTurn\"}")),
                         (GDestroyNotify) json_node_unref);
}

static void
set_up (EraTest            *test,
        const char * const *http_extra)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = test_find_node_module (TEST_EVERYTHING_SCRIPT);
  g_autoptr(JsonObject) sampling = everything_object ("{\"sampling\": {}}");
  g_autoptr(JsonObject) elicitation = everything_object ("{\"elicitation\": {\"form\": {}}}");
  g_autofree char *user_dir = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GAsyncResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_assert_nonnull (node);
  g_assert_true (g_file_test (script, G_FILE_TEST_EXISTS));

  test->dir = g_dir_make_tmp ("plugboard-modern-XXXXXX", &error);
  g_assert_no_error (error);
  user_dir = g_build_filename (test->dir, "config", NULL);
  test->project_dir = g_build_filename (test->dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (test->project_dir, 0700), ==, 0);

  url = start_http_fixture (test, http_extra);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  everything_add_server (builder, node, script);
  json_builder_set_member_name (builder, "modern-http");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "http");
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "modern-stdio");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, modern_fixture ());
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "--stdio");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  test->settings = everything_settings_load (builder, user_dir, test->project_dir);

  test->manager = mcp_server_manager_new ();
  mcp_server_manager_set_request_handler (test->manager, "elicitation/create", elicitation,
                                          elicitation_cb, test, NULL);
  mcp_server_manager_set_request_handler (test->manager, "sampling/createMessage", sampling,
                                          sampling_cb, test, NULL);
  test->roots = mcp_roots_new (test->project_dir);
  mcp_server_manager_set_roots (test->manager, test->roots);
  test->pool = mcp_tool_pool_new (G_LIST_MODEL (test->manager));
  mcp_server_manager_set_configs (test->manager, mcp_settings_get_servers (test->settings));
  test_manager_settle (test->manager);
}

static void
tear_down (EraTest *test)
{
  g_autoptr(GAsyncResult) closed = NULL;

  mcp_server_manager_close_async (test->manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (test->manager, test_wait_result (&closed, NULL), NULL);
  g_clear_object (&test->pool);
  g_clear_object (&test->manager);
  g_clear_object (&test->settings);
  g_clear_object (&test->roots);
  g_clear_pointer (&test->elicitation_message, g_free);
  g_clear_pointer (&test->project_dir, g_free);
  /* The directory holds only files this test wrote. */
  {
    g_autofree char *config = g_build_filename (test->dir, "config", NULL);
    g_autofree char *settings = g_build_filename (config, "settings.json", NULL);
    g_autofree char *project = g_build_filename (test->dir, "project", NULL);

    g_remove (settings);
    g_rmdir (config);
    g_rmdir (project);
    stop_http_fixture (test);
  }
  g_clear_pointer (&test->dir, g_free);
}

static void
assert_era (EraTest        *test,
            const char     *name,
            McpProtocolEra  era,
            const char     *version)
{
  McpServerConnection *connection = mcp_server_manager_lookup (test->manager, name);
  McpClient *client;

  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  client = mcp_server_connection_get_client (connection);
  g_assert_cmpint (mcp_client_get_era (client), ==, era);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, version);
}

static void
assert_echo (EraTest    *test,
             const char *qualified,
             const char *arguments,
             const char *expected)
{
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  processed = everything_run_pool_tool (test->pool, qualified, arguments, &error);
  g_assert_no_error (error);
  text = everything_result_text (processed);
  g_assert_nonnull (strstr (text, expected));
}

/* Acceptance: both eras from one settings file, each showing its own. */
static void
test_one_settings_file (void)
{
  EraTest test = { 0 };

  if (!everything_available () || modern_fixture () == NULL)
    return;

  set_up (&test, NULL);

  assert_era (&test, "everything", MCP_PROTOCOL_ERA_LEGACY, "2025-11-25");
  assert_era (&test, "modern-http", MCP_PROTOCOL_ERA_MODERN, "2026-07-28");
  assert_era (&test, "modern-stdio", MCP_PROTOCOL_ERA_MODERN, "2026-07-28");

  /* Tools of every server, the fixture's over three pages. */
  assert_echo (&test, "mcp__everything__echo", "{\"message\": \"old era\"}", "old era");
  assert_echo (&test, "mcp__modern-http__echo", "{\"text\": \"new era over HTTP\"}", "new era over HTTP");
  assert_echo (&test, "mcp__modern-stdio__echo", "{\"text\": \"new era over stdio\"}", "new era over stdio");
  g_assert_nonnull (mcp_tool_pool_lookup (test.pool, "mcp__modern-http__touch"));
  g_assert_nonnull (mcp_tool_pool_lookup (test.pool, "mcp__modern-stdio__touch"));

  /* The modern server was never sent the handshake: discover, then
   * requests that each carried their version (it rejects any that does
   * not, and logs REJECT). */
  g_assert_cmpuint (count_log (&test, "REQ server/discover "), ==, 1);
  g_assert_cmpuint (count_log (&test, "REQ initialize "), ==, 0);
  g_assert_cmpuint (count_log (&test, "REQ notifications/initialized "), ==, 0);
  g_assert_cmpuint (count_log (&test, "REJECT -32020 "), ==, 0);  /* headers */
  g_assert_cmpuint (count_log (&test, "REJECT -32602 "), ==, 0);  /* _meta */
  g_assert_cmpuint (count_log (&test, "REJECT -32022 "), ==, 0);  /* version */
  g_assert_cmpuint (count_log (&test, "REQ tools/call "), ==, 1);

  tear_down (&test);
}

/* input_required: elicitation, sampling and roots answered by the
 * manager's handlers, the call sent again with the answers. */
static void
test_input_required (void)
{
  EraTest test = { 0 };
  g_autofree char *root = NULL;

  if (!everything_available () || modern_fixture () == NULL)
    return;

  set_up (&test, NULL);

  assert_echo (&test, "mcp__modern-http__ask-name", "{}", "Hello, Ada!");
  g_assert_cmpuint (test.elicitations, ==, 1);
  g_assert_nonnull (strstr (test.elicitation_message, "name"));
  /* The first call answered input_required; the second, with a new id,
   * carried the answer. */
  g_assert_cmpuint (count_log (&test, "REQ tools/call "), ==, 2);

  assert_echo (&test, "mcp__modern-stdio__sample", "{}", "The model said: teal");
  g_assert_cmpuint (test.samplings, ==, 1);

  /* a server of the user settings is offered the folders added for it,
   * not the project folder (issue 21, defect 6) */
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (mcp_roots_add (test.roots, "modern-http", test.project_dir, &error));
    g_assert_no_error (error);
  }
  root = g_filename_to_uri (test.project_dir, NULL, NULL);
  assert_echo (&test, "mcp__modern-http__roots", "{}", root);
  g_assert_cmpuint (count_log (&test, "REJECT -32020 "), ==, 0);
  g_assert_cmpuint (count_log (&test, "REJECT -32602 "), ==, 0);

  tear_down (&test);
}

/* No Last-Event-ID in this revision: a response stream cut before the
 * result makes the client send the call again, and the result arrives. */
static void
test_broken_stream (void)
{
  EraTest test = { 0 };
  const char *extra[] = { "--break-stream-once", NULL };
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  if (!everything_available () || modern_fixture () == NULL)
    return;

  set_up (&test, extra);

  assert_echo (&test, "mcp__modern-http__echo", "{\"text\": \"sent twice\"}", "sent twice");

  g_assert_true (g_file_get_contents (test.http_log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "REQ tools/call "))
      g_ptr_array_add (ids, g_strdup (lines[i] + strlen ("REQ tools/call ")));
  g_assert_cmpuint (ids->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (ids, 0), !=, g_ptr_array_index (ids, 1));

  tear_down (&test);
}

static void
resource_updated_cb (McpServerConnection *connection,
                     const char          *uri,
                     gpointer             user_data)
{
  GPtrArray *updated = user_data;

  g_ptr_array_add (updated, g_strdup (uri));
}

static gboolean
has_items (gpointer data)
{
  return ((const GPtrArray *) data)->len > 0;
}

/* subscriptions/listen instead of the GET stream and resources/subscribe:
 * an update of a subscribed resource and a changed tool list reach the
 * connection's signal and the tool list, as in the handshake era. */
static void
test_listen (gconstpointer data)
{
  const char *name = data;
  EraTest test = { 0 };
  g_autoptr(GPtrArray) updated = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *touch = g_strdup_printf ("mcp__%s__touch", name);
  g_autofree char *extra = g_strdup_printf ("mcp__%s__extra", name);
  McpServerConnection *connection;

  if (!everything_available () || modern_fixture () == NULL)
    return;

  set_up (&test, NULL);
  connection = mcp_server_manager_lookup (test.manager, name);
  g_signal_connect (connection, "resource-updated", G_CALLBACK (resource_updated_cb), updated);

  mcp_server_connection_subscribe_async (connection, "fixture://greeting", TRUE, NULL,
                                         test_result_cb, &result);
  g_assert_true (mcp_server_connection_subscribe_finish (connection, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  g_assert_true (mcp_server_connection_is_subscribed (connection, "fixture://greeting"));
  g_assert_null (mcp_tool_pool_lookup (test.pool, extra));

  assert_echo (&test, touch, "{}", "");
  test_iterate_until (has_items, updated, "has items");
  g_assert_cmpstr (g_ptr_array_index (updated, 0), ==, "fixture://greeting");

  /* The first touch adds a tool: the list changed, and was fetched again. */
  everything_wait_pool_tool (test.pool, extra);

  if (g_str_equal (name, "modern-http"))
    {
      g_assert_cmpuint (count_log (&test, "REQ subscriptions/listen "), >=, 1);
      g_assert_cmpuint (count_log (&test, "REQ resources/subscribe "), ==, 0);
    }

  tear_down (&test);
}

/* x-mcp-header (SEP-2243), on an McpClient of its own: the fixture's
 * "locate" marks "region" x-mcp-header "Region" and refuses a call over
 * HTTP whose Mcp-Param-Region does not match the body (400 -32020); with
 * --invalid-header-tool it also lists "bad-header", whose declaration
 * ("Bad Zone") is not a header name. */

typedef struct
{
  GPtrArray *warnings;
} HeaderTest;

static void
warning_cb (McpClient  *client,
            const char *message,
            HeaderTest *test)
{
  g_ptr_array_add (test->warnings, g_strdup (message));
}

static McpClient *
connect_client (McpTransport *transport,
                HeaderTest   *test)
{
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GError) error = NULL;

  g_signal_connect (client, "warning", G_CALLBACK (warning_cb), test);
  test_client_connect (client, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_MODERN);
  return g_steal_pointer (&client);
}

static GPtrArray *
list_tools (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *tools;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  return tools;
}

static gboolean
has_tool (GPtrArray  *tools,
          const char *name)
{
  for (guint i = 0; i < tools->len; i++)
    if (g_str_equal (mcp_tool_get_name (g_ptr_array_index (tools, i)), name))
      return TRUE;
  return FALSE;
}

static char *
call_text (McpClient  *client,
           const char *name,
           const char *arguments)
{
  g_autoptr(JsonObject) object = everything_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *content;

  mcp_client_call_tool_async (client, name, object, NULL, NULL, test_result_cb, &result);
  tool_result = mcp_client_call_tool_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (tool_result));
  content = mcp_tool_result_get_content (tool_result);
  g_assert_cmpuint (content->len, >=, 1);
  return g_strdup (mcp_content_get_text (g_ptr_array_index (content, 0)));
}

static void
test_param_headers_http (void)
{
  EraTest era = { 0 };
  HeaderTest test = { g_ptr_array_new_with_free_func (g_free) };
  const char *extra[] = { "--invalid-header-tool", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autofree char *url = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *wide = NULL;
  g_autofree char *padded = NULL;
  g_autofree char *none = NULL;

  if (modern_fixture () == NULL)
    {
      g_test_skip ("MCP_TEST_MODERN_FIXTURE is not set");
      return;
    }

  era.dir = g_dir_make_tmp ("plugboard-headers-XXXXXX", &error);
  g_assert_no_error (error);
  url = start_http_fixture (&era, extra);
  transport = mcp_http_transport_new (url, NULL, NULL);
  client = connect_client (transport, &test);

  /* Left out over HTTP, with a warning that names it; the rest stay. */
  tools = list_tools (client);
  g_assert_true (has_tool (tools, "locate"));
  g_assert_true (has_tool (tools, "echo"));
  g_assert_false (has_tool (tools, "bad-header"));
  g_assert_cmpuint (test.warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (test.warnings, 0), "“bad-header”"));
  g_assert_nonnull (strstr (g_ptr_array_index (test.warnings, 0), "Bad Zone"));

  /* The fixture answers only when Mcp-Param-Region matches the body:
   * plain, Base64 for what is not visible ASCII, and none for null. */
  plain = call_text (client, "locate", "{\"region\": \"us west 1\"}");
  g_assert_cmpstr (plain, ==, "region=us west 1");
  wide = call_text (client, "locate", "{\"region\": \"Hello, 世界\"}");
  g_assert_cmpstr (wide, ==, "region=Hello, 世界");
  padded = call_text (client, "locate", "{\"region\": \" padded\\t\"}");
  g_assert_cmpstr (padded, ==, "region= padded\t");
  none = call_text (client, "locate", "{\"region\": null}");
  g_assert_cmpstr (none, ==, "region=(none)");
  g_assert_cmpuint (count_log (&era, "REQ tools/call "), ==, 4);
  g_assert_cmpuint (count_log (&era, "REJECT"), ==, 0);

  test_client_close (client, NULL);
  stop_http_fixture (&era);
  g_ptr_array_unref (test.warnings);
}

/* A call made before the tools were listed has no Mcp-Param-Region; the
 * server refuses it with -32020, the client lists the tools and sends the
 * call once more, with the header. */
static void
test_param_headers_relist (void)
{
  EraTest era = { 0 };
  HeaderTest test = { g_ptr_array_new_with_free_func (g_free) };
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autofree char *url = NULL;
  g_autofree char *text = NULL;
  g_autofree char *log = NULL;
  const char *first_call, *list, *second_call;

  if (modern_fixture () == NULL)
    {
      g_test_skip ("MCP_TEST_MODERN_FIXTURE is not set");
      return;
    }

  era.dir = g_dir_make_tmp ("plugboard-headers-XXXXXX", &error);
  g_assert_no_error (error);
  url = start_http_fixture (&era, NULL);
  transport = mcp_http_transport_new (url, NULL, NULL);
  client = connect_client (transport, &test);

  text = call_text (client, "locate", "{\"region\": \"eu-north\"}");
  g_assert_cmpstr (text, ==, "region=eu-north");

  g_assert_true (g_file_get_contents (era.http_log, &log, NULL, NULL));
  first_call = strstr (log, "REQ tools/call ");
  g_assert_nonnull (first_call);
  list = strstr (first_call, "REQ tools/list ");
  g_assert_nonnull (list);
  second_call = strstr (list, "REQ tools/call ");
  g_assert_nonnull (second_call);
  g_assert_cmpuint (count_log (&era, "REQ tools/call "), ==, 2);

  test_client_close (client, NULL);
  stop_http_fixture (&era);
  g_ptr_array_unref (test.warnings);
}

/* stdio has no headers: x-mcp-header is ignored there, and the tool an
 * HTTP client must leave out is listed and callable. */
static void
test_param_headers_stdio (void)
{
  HeaderTest test = { g_ptr_array_new_with_free_func (g_free) };
  const char *argv[] = { modern_fixture (), "--stdio", "--invalid-header-tool", NULL };
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autofree char *text = NULL;

  if (modern_fixture () == NULL)
    {
      g_test_skip ("MCP_TEST_MODERN_FIXTURE is not set");
      return;
    }

  transport = mcp_stdio_transport_new (argv, NULL, NULL);
  client = connect_client (transport, &test);
  tools = list_tools (client);
  g_assert_true (has_tool (tools, "bad-header"));
  g_assert_cmpuint (test.warnings->len, ==, 0);
  text = call_text (client, "bad-header", "{\"zone\": \"b\"}");
  g_assert_cmpstr (text, ==, "bad-header called");

  test_client_close (client, NULL);
  g_ptr_array_unref (test.warnings);
}

/* Through the manager: the left-out tool is not in the pool, the reason is
 * in the server's log as a warning of Plugboard's, and a call of the
 * manager's pool carries Mcp-Param-Region. */
static void
test_param_headers_manager (void)
{
  EraTest test = { 0 };
  const char *extra[] = { "--invalid-header-tool", NULL };
  McpServerConnection *connection;
  GListModel *log;
  guint warnings = 0;

  if (!everything_available () || modern_fixture () == NULL)
    return;

  set_up (&test, extra);
  assert_echo (&test, "mcp__modern-http__locate", "{\"region\": \"Zürich\"}", "region=Zürich");
  g_assert_null (mcp_tool_pool_lookup (test.pool, "mcp__modern-http__bad-header"));

  connection = mcp_server_manager_lookup (test.manager, "modern-http");
  log = mcp_server_connection_get_log (connection);
  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      if (mcp_log_entry_get_kind (entry) == MCP_LOG_ENTRY_WARNING)
        {
          g_assert_nonnull (strstr (mcp_log_entry_get_text (entry), "“bad-header”"));
          warnings++;
        }
    }
  g_assert_cmpuint (warnings, ==, 1);
  /* The call went out once, with its header (the manager's listing also
   * meets a -32601 for resource templates, which this fixture has not). */
  g_assert_cmpuint (count_log (&test, "REJECT -32020 "), ==, 0);
  g_assert_cmpuint (count_log (&test, "REQ tools/call "), ==, 1);

  tear_down (&test);
}

/* plugboard-cli says why a tool is missing, without -v. */
static void
test_param_headers_cli (void)
{
  EraTest era = { 0 };
  const char *extra[] = { "--invalid-header-tool", NULL };
  const char *cli = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *url = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  if (modern_fixture () == NULL || cli == NULL)
    {
      g_test_skip ("MCP_TEST_MODERN_FIXTURE or MCP_TEST_PLUGBOARD_CLI is not set");
      return;
    }

  era.dir = g_dir_make_tmp ("plugboard-headers-XXXXXX", &error);
  g_assert_no_error (error);
  url = start_http_fixture (&era, extra);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              cli, "tools", "--http", url, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_nonnull (strstr (out, "locate"));
  g_assert_null (strstr (out, "bad-header"));
  g_assert_nonnull (strstr (err, "plugboard-cli: warning: Left out of the tool list: tool “bad-header”"));

  stop_http_fixture (&era);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/modern-era/one-settings-file", test_one_settings_file);
  g_test_add_func ("/modern-era/input-required", test_input_required);
  g_test_add_func ("/modern-era/broken-stream", test_broken_stream);
  g_test_add_data_func ("/modern-era/listen/http", "modern-http", test_listen);
  g_test_add_data_func ("/modern-era/listen/stdio", "modern-stdio", test_listen);
  g_test_add_func ("/modern-era/param-headers/http", test_param_headers_http);
  g_test_add_func ("/modern-era/param-headers/relist", test_param_headers_relist);
  g_test_add_func ("/modern-era/param-headers/stdio", test_param_headers_stdio);
  g_test_add_func ("/modern-era/param-headers/manager", test_param_headers_manager);
  g_test_add_func ("/modern-era/param-headers/cli", test_param_headers_cli);

  return g_test_run ();
}
