/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-dual-era"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "everything-fixture.h"
#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-log-entry.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"

/* Issue 10's third fixture: a server of both eras (mcp-modern-fixture
 * --dual-era). A client left to find the era picks the stateless one and
 * never sends initialize; a client told the server is of the handshake era
 * (as the manager tells it when it remembers that) gets the handshake from
 * the same server, and is served the legacy way. Then one settings file
 * holds it, over HTTP and stdio, beside a modern-only and a legacy-only
 * server, and each shows its own era through McpServerManager.
 *
 * The fixture logs every request on stderr as "REQ <method> <id>", and
 * each one it serves the handshake way as "LEGACY <method>": the
 * assertions read those lines. */

/* One running dual-era fixture, and where its stderr goes: a file for
 * the HTTP one (written before each answer), the lines the stdio
 * transport reads for the stdio one. */
typedef struct
{
  char        *dir;
  GSubprocess *http_server;
  char        *http_log;
  char        *url;
  GPtrArray   *stderr_lines;
} DualServer;

static const char *
modern_fixture (void)
{
  return g_getenv ("MCP_TEST_MODERN_FIXTURE");
}

static const char *
legacy_fixture (void)
{
  return g_getenv ("MCP_TEST_FIXTURE_SERVER");
}

static gboolean
fixtures_available (void)
{
  if (modern_fixture () == NULL || legacy_fixture () == NULL)
    {
      g_test_skip ("MCP_TEST_MODERN_FIXTURE or MCP_TEST_FIXTURE_SERVER is not set");
      return FALSE;
    }
  return TRUE;
}

static void
dual_server_init (DualServer *server)
{
  g_autoptr(GError) error = NULL;

  server->dir = g_dir_make_tmp ("plugboard-dual-era-XXXXXX", &error);
  g_assert_no_error (error);
  server->stderr_lines = g_ptr_array_new_with_free_func (g_free);
}

/* Starts the fixture with --dual-era on a port of its choosing. */
static void
dual_server_start_http (DualServer *server)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;
  guint64 port = 0;

  server->http_log = g_build_filename (server->dir, "http-fixture.log", NULL);
  g_subprocess_launcher_set_stderr_file_path (launcher, server->http_log);
  server->http_server = g_subprocess_launcher_spawn (launcher, &error, modern_fixture (),
                                                     "--port", "0", "--dual-era", NULL);
  g_assert_no_error (error);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->http_server));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "PORT "));
  g_assert_true (g_ascii_string_to_unsigned (line + 5, 10, 1, 65535, &port, NULL));
  server->url = g_strdup_printf ("http://127.0.0.1:%u/mcp", (guint) port);
}

static void
dual_server_clear (DualServer *server)
{
  if (server->http_server != NULL)
    {
      g_subprocess_force_exit (server->http_server);
      g_subprocess_wait (server->http_server, NULL, NULL);
      g_clear_object (&server->http_server);
    }
  if (server->http_log != NULL)
    g_remove (server->http_log);
  /* The directory holds only the log (and the settings of the manager's
   * test, which removes them). */
  g_rmdir (server->dir);
  g_clear_pointer (&server->http_log, g_free);
  g_clear_pointer (&server->url, g_free);
  g_clear_pointer (&server->stderr_lines, g_ptr_array_unref);
  g_clear_pointer (&server->dir, g_free);
}

/* The fixture's log lines so far. */
static GStrv
dual_server_dup_log (DualServer *server)
{
  g_autofree char *text = NULL;

  if (server->http_log == NULL)
    {
      GStrv lines = g_new0 (char *, server->stderr_lines->len + 1);

      for (guint i = 0; i < server->stderr_lines->len; i++)
        lines[i] = g_strdup (g_ptr_array_index (server->stderr_lines, i));
      return lines;
    }

  g_assert_true (g_file_get_contents (server->http_log, &text, NULL, NULL));
  return g_strsplit (text, "\n", -1);
}

static guint
count_lines (const char * const *lines,
             const char         *prefix)
{
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      n++;
  return n;
}

static guint
count_log (DualServer *server,
           const char *prefix)
{
  g_auto(GStrv) lines = dual_server_dup_log (server);

  return count_lines ((const char * const *) lines, prefix);
}

typedef struct
{
  DualServer *server;
  const char *prefix;
  guint       n;
} LogWait;

static gboolean
log_has (gpointer data)
{
  const LogWait *wait = data;

  return count_log (wait->server, wait->prefix) >= wait->n;
}

/* Stderr of a stdio server comes on a pipe of its own, after the answers
 * perhaps: wait for the line of the last request, so that every line
 * before it is in too. (HTTP: the line is written before the answer.) */
static void
wait_log (DualServer *server,
          const char *prefix,
          guint       n)
{
  LogWait wait = { server, prefix, n };

  test_iterate_until (log_has, &wait, "log has");
}

static void
stderr_line_cb (McpTransport *transport,
                const char   *line,
                GPtrArray    *lines)
{
  g_ptr_array_add (lines, g_strdup (line));
}

/* A client of the dual-era fixture, over HTTP when @http, else over stdio
 * (started by the transport). */
static McpClient *
dual_client_new (DualServer *server,
                 gboolean    http)
{
  g_autoptr(McpTransport) transport = NULL;

  if (http)
    {
      dual_server_start_http (server);
      transport = mcp_http_transport_new (server->url, NULL, NULL);
    }
  else
    {
      const char *argv[] = { modern_fixture (), "--stdio", "--dual-era", NULL };

      transport = mcp_stdio_transport_new (argv, NULL, NULL);
      g_signal_connect (transport, "stderr-line", G_CALLBACK (stderr_line_cb), server->stderr_lines);
    }
  return mcp_client_new (transport);
}

static void
client_connect (McpClient *client)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);
}

static void
client_close (McpClient *client)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (test_client_close (client, &error));
  g_assert_no_error (error);
}

/* Every tool's name, in the server's order, joined with spaces. */
static char *
list_tool_names (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GString) names = g_string_new (NULL);

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_nonnull (tools);
  for (guint i = 0; i < tools->len; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? " " : "", mcp_tool_get_name (g_ptr_array_index (tools, i)));
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static McpToolResult *
call_tool (McpClient  *client,
           const char *name,
           const char *arguments)
{
  g_autoptr(JsonObject) object = everything_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpToolResult *tool_result;

  mcp_client_call_tool_async (client, name, object, NULL, NULL, test_result_cb, &result);
  tool_result = mcp_client_call_tool_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_nonnull (tool_result);
  return tool_result;
}

#define DUAL_TOOLS "echo add ask-name sample roots touch locate"

/* Left to find the era, the client asks server/discover, which the
 * fixture answers as a modern server (listing 2025-11-25 too): the client
 * stays modern, and nothing goes the handshake way. */
static void
test_client_modern (gconstpointer data)
{
  gboolean http = GPOINTER_TO_INT (data);
  DualServer server = { 0 };
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) echoed = NULL;
  g_autoptr(McpToolResult) added = NULL;
  g_autofree char *names = NULL;
  McpServerInfo *info;

  if (!fixtures_available ())
    return;

  dual_server_init (&server);
  client = dual_client_new (&server, http);
  g_assert_cmpint (mcp_client_get_era_hint (client), ==, MCP_PROTOCOL_ERA_UNKNOWN);
  client_connect (client);

  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_MODERN);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, MCP_PROTOCOL_VERSION_MODERN);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2026-07-28");
  info = mcp_client_get_server_info (client);
  g_assert_nonnull (info);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "mcp-modern-fixture");

  /* Three pages of three. */
  names = list_tool_names (client);
  g_assert_cmpstr (names, ==, DUAL_TOOLS);
  echoed = call_tool (client, "echo", "{\"text\": \"both eras, modern\"}");
  g_assert_false (mcp_tool_result_get_is_error (echoed));
  g_assert_cmpstr (test_result_first_text (echoed), ==, "both eras, modern");
  added = call_tool (client, "add", "{\"a\": 2, \"b\": 3}");
  g_assert_cmpstr (test_result_first_text (added), ==, "5");

  wait_log (&server, "REQ tools/call ", 2);
  g_assert_cmpuint (count_log (&server, "REQ server/discover "), ==, 1);
  g_assert_cmpuint (count_log (&server, "REQ initialize "), ==, 0);
  g_assert_cmpuint (count_log (&server, "REQ notifications/initialized "), ==, 0);
  /* Every request carried its _meta: none was served the legacy way, and
   * none was turned down (headers, _meta, version). */
  g_assert_cmpuint (count_log (&server, "LEGACY "), ==, 0);
  g_assert_cmpuint (count_log (&server, "REJECT "), ==, 0);
  g_assert_cmpuint (count_log (&server, "REQ tools/list "), ==, 3);
  g_assert_cmpuint (count_log (&server, "REQ tools/call "), ==, 2);

  client_close (client);
  g_signal_handlers_disconnect_by_data (mcp_client_get_transport (client), server.stderr_lines);
  dual_server_clear (&server);
}

/* Told the server is of the handshake era, the client sends initialize
 * at once; the dual-era fixture answers it with 2025-11-25 and serves the
 * requests that follow (without _meta) the legacy way. */
static void
test_client_legacy_hint (gconstpointer data)
{
  gboolean http = GPOINTER_TO_INT (data);
  DualServer server = { 0 };
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) echoed = NULL;
  g_autoptr(McpToolResult) asked = NULL;
  g_autofree char *names = NULL;
  const char *version;
  McpServerInfo *info;

  if (!fixtures_available ())
    return;

  dual_server_init (&server);
  client = dual_client_new (&server, http);
  mcp_client_set_era_hint (client, MCP_PROTOCOL_ERA_LEGACY);
  client_connect (client);

  g_assert_cmpint (mcp_client_get_era (client), ==, MCP_PROTOCOL_ERA_LEGACY);
  version = mcp_client_get_protocol_version (client);
  g_assert_nonnull (version);
  g_assert_true (g_str_has_prefix (version, "2025-"));
  /* The client asks for its newest handshake version; the fixture grants
   * what it is asked among those it knows. */
  g_assert_cmpstr (version, ==, MCP_PROTOCOL_VERSION_LATEST);
  info = mcp_client_get_server_info (client);
  g_assert_nonnull (info);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "mcp-modern-fixture");

  names = list_tool_names (client);
  g_assert_cmpstr (names, ==, DUAL_TOOLS);
  echoed = call_tool (client, "echo", "{\"text\": \"both eras, legacy\"}");
  g_assert_false (mcp_tool_result_get_is_error (echoed));
  g_assert_cmpstr (test_result_first_text (echoed), ==, "both eras, legacy");
  /* ask-name would ask for input in the stateless era (or be refused for
   * want of the elicitation capability); served the legacy way it is an
   * error result — which era served the call shows here too. */
  asked = call_tool (client, "ask-name", "{}");
  g_assert_true (mcp_tool_result_get_is_error (asked));
  g_assert_cmpstr (test_result_first_text (asked), ==, "This tool needs MCP 2026-07-28");

  wait_log (&server, "REQ tools/call ", 2);
  g_assert_cmpuint (count_log (&server, "REQ server/discover "), ==, 0);
  g_assert_cmpuint (count_log (&server, "REQ initialize "), ==, 1);
  g_assert_cmpuint (count_log (&server, "LEGACY initialize"), ==, 1);
  g_assert_cmpuint (count_log (&server, "LEGACY tools/list"), ==, 3);
  g_assert_cmpuint (count_log (&server, "LEGACY tools/call"), ==, 2);
  g_assert_cmpuint (count_log (&server, "REJECT "), ==, 0);

  client_close (client);
  g_signal_handlers_disconnect_by_data (mcp_client_get_transport (client), server.stderr_lines);
  dual_server_clear (&server);
}

/* Through McpServerManager */

static char *
run_tool (McpToolPool *pool,
          const char  *qualified,
          const char  *arguments)
{
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  processed = everything_run_pool_tool (pool, qualified, arguments, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)));
  return everything_result_text (processed);
}

static McpClient *
assert_era (McpServerManager *manager,
            const char       *name,
            McpProtocolEra    era,
            const char       *version)
{
  McpServerConnection *connection = mcp_server_manager_lookup (manager, name);
  McpClient *client;

  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  client = mcp_server_connection_get_client (connection);
  g_assert_nonnull (client);
  g_assert_cmpint (mcp_client_get_era (client), ==, era);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, version);
  return client;
}

/* The names of a connection's tools, in order, joined with spaces. */
static char *
connection_tool_names (McpServerManager *manager,
                       const char       *name)
{
  GListModel *tools = mcp_server_connection_get_tools (mcp_server_manager_lookup (manager, name));
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      g_string_append_printf (names, "%s%s", i > 0 ? " " : "", mcp_tool_get_name (tool));
    }
  return g_string_free (names, FALSE);
}

/* The stdio dual-era server's stderr, as its connection logged it. */
static void
copy_stderr_entries (McpServerConnection *connection,
                     GPtrArray           *lines)
{
  GListModel *log = mcp_server_connection_get_log (connection);

  g_ptr_array_set_size (lines, 0);
  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      if (mcp_log_entry_get_kind (entry) == MCP_LOG_ENTRY_STDERR)
        g_ptr_array_add (lines, g_strdup (mcp_log_entry_get_text (entry)));
    }
}

typedef struct
{
  McpServerConnection *connection;
  DualServer          *server;
} ConnectionLogWait;

static gboolean
connection_log_has_call (gpointer data)
{
  const ConnectionLogWait *wait = data;

  copy_stderr_entries (wait->connection, wait->server->stderr_lines);
  return count_log (wait->server, "REQ tools/call ") >= 1;
}

static void
add_stdio_server (JsonBuilder        *builder,
                  const char         *name,
                  const char         *command,
                  const char * const *args)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, command);
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  for (guint i = 0; args[i] != NULL; i++)
    json_builder_add_string_value (builder, args[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* One settings file: the dual-era fixture over HTTP and over stdio, the
 * modern-only fixture and the legacy-only one. The dual-era server is
 * modern to the manager (it probes first); each server shows its era and
 * lists and calls its tools. */
static void
test_manager (void)
{
  const char *dual_args[] = { "--stdio", "--dual-era", NULL };
  const char *modern_args[] = { "--stdio", NULL };
  const char *legacy_args[] = { NULL };
  DualServer http = { 0 };
  DualServer stdio = { 0 };
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(McpToolPool) pool = NULL;
  g_autoptr(GAsyncResult) loaded = NULL;
  g_autoptr(GAsyncResult) closed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *user_dir = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  ConnectionLogWait log_wait;
  McpClient *client;

  if (!fixtures_available ())
    return;

  dual_server_init (&http);
  dual_server_init (&stdio);
  dual_server_start_http (&http);

  user_dir = g_build_filename (http.dir, "config", NULL);
  project_dir = g_build_filename (http.dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "dual-http");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "http");
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, http.url);
  json_builder_end_object (builder);
  add_stdio_server (builder, "dual-stdio", modern_fixture (), dual_args);
  add_stdio_server (builder, "modern-stdio", modern_fixture (), modern_args);
  add_stdio_server (builder, "legacy-stdio", legacy_fixture (), legacy_args);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, TRUE);
  file = g_build_filename (user_dir, "settings.json", NULL);
  g_file_set_contents (file, json, -1, &error);
  g_assert_no_error (error);

  settings = test_settings_load (user_dir, project_dir);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (settings)), ==, 4);

  manager = mcp_server_manager_new ();
  pool = mcp_tool_pool_new (G_LIST_MODEL (manager));
  mcp_server_manager_set_configs (manager, mcp_settings_get_servers (settings));
  test_manager_settle (manager);

  assert_era (manager, "dual-http", MCP_PROTOCOL_ERA_MODERN, "2026-07-28");
  assert_era (manager, "dual-stdio", MCP_PROTOCOL_ERA_MODERN, "2026-07-28");
  assert_era (manager, "modern-stdio", MCP_PROTOCOL_ERA_MODERN, "2026-07-28");
  client = assert_era (manager, "legacy-stdio", MCP_PROTOCOL_ERA_LEGACY, "2025-11-25");
  g_assert_cmpstr (mcp_server_info_get_name (mcp_client_get_server_info (client)), ==, "mcp-fixture-server");

  text = run_tool (pool, "mcp__dual-http__echo", "{\"text\": \"dual over HTTP\"}");
  g_assert_cmpstr (text, ==, "dual over HTTP\n");
  g_clear_pointer (&text, g_free);
  text = run_tool (pool, "mcp__dual-stdio__echo", "{\"text\": \"dual over stdio\"}");
  g_assert_cmpstr (text, ==, "dual over stdio\n");
  g_clear_pointer (&text, g_free);
  text = run_tool (pool, "mcp__modern-stdio__echo", "{\"text\": \"modern only\"}");
  g_assert_cmpstr (text, ==, "modern only\n");
  g_clear_pointer (&text, g_free);
  text = run_tool (pool, "mcp__legacy-stdio__echo", "{\"message\": \"legacy only\"}");
  g_assert_cmpstr (text, ==, "legacy only\n");
  g_clear_pointer (&text, g_free);

  /* Every page of every list came in (the pool waited for the first tool
   * only). */
  names = connection_tool_names (manager, "dual-http");
  g_assert_cmpstr (names, ==, DUAL_TOOLS);
  g_clear_pointer (&names, g_free);
  names = connection_tool_names (manager, "dual-stdio");
  g_assert_cmpstr (names, ==, DUAL_TOOLS);
  g_clear_pointer (&names, g_free);
  names = connection_tool_names (manager, "modern-stdio");
  g_assert_cmpstr (names, ==, DUAL_TOOLS);
  g_clear_pointer (&names, g_free);
  g_assert_nonnull (mcp_tool_pool_lookup (pool, "mcp__legacy-stdio__state"));

  /* The legacy-only server was probed once, then given the handshake. */
  text = run_tool (pool, "mcp__legacy-stdio__state", "{}");
  {
    g_autoptr(JsonNode) state = json_from_string (text, &error);
    JsonArray *methods;

    g_assert_no_error (error);
    methods = json_object_get_array_member (json_node_get_object (state), "methods");
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (state), "probes"), ==, 1);
    g_assert_cmpstr (json_array_get_string_element (methods, 0), ==, "server/discover");
    g_assert_cmpstr (json_array_get_string_element (methods, 1), ==, "initialize");
  }

  /* Neither side of the dual-era server was sent the handshake or served
   * the legacy way, and it turned no request down for want of what this
   * era needs (it does turn down resources/templates/list, which the
   * manager asks for and this era does not have). */
  g_assert_cmpuint (count_log (&http, "REQ server/discover "), ==, 1);
  g_assert_cmpuint (count_log (&http, "REQ initialize "), ==, 0);
  g_assert_cmpuint (count_log (&http, "LEGACY "), ==, 0);
  g_assert_cmpuint (count_log (&http, "REJECT -32020 "), ==, 0);  /* headers */
  g_assert_cmpuint (count_log (&http, "REJECT -32602 "), ==, 0);  /* _meta */
  g_assert_cmpuint (count_log (&http, "REJECT -32022 "), ==, 0);  /* version */
  g_assert_cmpuint (count_log (&http, "REQ tools/call "), ==, 1);
  log_wait.connection = mcp_server_manager_lookup (manager, "dual-stdio");
  log_wait.server = &stdio;
  test_iterate_until (connection_log_has_call, &log_wait, "connection log has call");
  g_assert_cmpuint (count_log (&stdio, "REQ server/discover "), ==, 1);
  g_assert_cmpuint (count_log (&stdio, "REQ initialize "), ==, 0);
  g_assert_cmpuint (count_log (&stdio, "LEGACY "), ==, 0);
  g_assert_cmpuint (count_log (&stdio, "REJECT -32020 "), ==, 0);  /* headers */
  g_assert_cmpuint (count_log (&stdio, "REJECT -32602 "), ==, 0);  /* _meta */
  g_assert_cmpuint (count_log (&stdio, "REJECT -32022 "), ==, 0);  /* version */

  mcp_server_manager_close_async (manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (manager, test_wait_result (&closed, NULL), NULL);
  g_clear_object (&pool);
  g_clear_object (&manager);
  g_clear_object (&settings);

  g_remove (file);
  g_rmdir (user_dir);
  g_rmdir (project_dir);
  dual_server_clear (&http);
  dual_server_clear (&stdio);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/dual-era/client/modern/http", GINT_TO_POINTER (TRUE), test_client_modern);
  g_test_add_data_func ("/dual-era/client/modern/stdio", GINT_TO_POINTER (FALSE), test_client_modern);
  g_test_add_data_func ("/dual-era/client/legacy-hint/http", GINT_TO_POINTER (TRUE), test_client_legacy_hint);
  g_test_add_data_func ("/dual-era/client/legacy-hint/stdio", GINT_TO_POINTER (FALSE), test_client_legacy_hint);
  g_test_add_func ("/dual-era/manager/one-settings-file", test_manager);

  return g_test_run ();
}
