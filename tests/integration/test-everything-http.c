/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything-http"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-sse-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* McpHttpTransport and McpSseTransport + McpClient against the reference
 * server @modelcontextprotocol/server-everything in its "streamableHttp"
 * and "sse" modes, on a loopback port the test picks. */

#define LISTEN_BOUND_S 15

static char *node_path;
static char *server_script;

typedef struct
{
  GSubprocess *process;
  int          port;
} Server;

static void
server_stop (Server *server)
{
  if (server->process != NULL)
    {
      g_subprocess_force_exit (server->process);
      g_subprocess_wait (server->process, NULL, NULL);
    }
  g_clear_object (&server->process);
}

static void
server_start (Server     *server,
              const char *mode)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port = NULL;
  gint64 deadline;

  server->port = test_pick_port ();
  port = g_strdup_printf ("%d", server->port);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PORT", port, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server->process = g_subprocess_launcher_spawn (launcher, &error,
                                                 node_path, server_script, mode, NULL);
  g_assert_no_error (error);

  /* Wait until it listens. */
  deadline = g_get_monotonic_time () + LISTEN_BOUND_S * G_USEC_PER_SEC;
  for (;;)
    {
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) connection = NULL;
      g_autoptr(GError) connect_error = NULL;

      connection = g_socket_client_connect_to_host (client, "127.0.0.1", (guint16) server->port,
                                                    NULL, &connect_error);
      if (connection != NULL)
        break;
      if (g_get_monotonic_time () > deadline)
        {
          server_stop (server);
          g_error ("server-everything %s did not listen on port %d within %d s",
                   mode, server->port, LISTEN_BOUND_S);
        }
      g_usleep (100 * 1000);
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
count_change (guint *changes)
{
  (*changes)++;
}

static void
check_tools (McpClient *client)
{
  /* The same 13 the stdio test sees. */
  static const char *expected[] = {
    "echo", "get-annotated-message", "get-env", "get-resource-links",
    "get-resource-reference", "get-structured-content", "get-sum",
    "get-tiny-image", "gzip-file-as-resource", "simulate-research-query",
    "toggle-simulated-logging", "toggle-subscriber-updates",
    "trigger-long-running-operation",
  };
  g_autoptr(GPtrArray) names = NULL;
  guint changes = 0;
  gulong handler;

  /* server-everything registers some tools only once it has seen
   * notifications/initialized, and says so with tools/list_changed; over
   * HTTP the listing may overtake that, so list again on the news, as a
   * client must. */
  handler = g_signal_connect_swapped (client, "tools-list-changed",
                                      G_CALLBACK (count_change), &changes);
  for (guint attempt = 0; ; attempt++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) tools = NULL;
      guint seen = changes;
      gboolean gave_up = FALSE;
      guint give_up_id;

      mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
      test_wait_result (&result, NULL);
      tools = mcp_client_list_tools_finish (client, result, &error);
      g_assert_no_error (error);

      g_clear_pointer (&names, g_ptr_array_unref);
      names = g_ptr_array_new ();
      for (guint i = 0; i < tools->len; i++)
        g_ptr_array_add (names, g_strdup (mcp_tool_get_name (g_ptr_array_index (tools, i))));
      g_ptr_array_set_free_func (names, g_free);
      if (names->len >= G_N_ELEMENTS (expected) || attempt == 10)
        break;

      give_up_id = test_deadline (1, &gave_up);
      while (changes == seen && !gave_up)
        g_main_context_iteration (NULL, TRUE);
      if (!gave_up)
        g_source_remove (give_up_id);
    }
  g_signal_handler_disconnect (client, handler);

  g_ptr_array_sort (names, compare_strings);
  g_assert_cmpuint (names->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), ==, expected[i]);
}

static void
check_echo (McpClient *client)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = test_client_call_tool_json (client, "echo", "{\"message\":\"over http\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: over http");
}

static void
on_progress (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  GArray *log = user_data;

  g_array_append_val (log, progress);
}

static void
check_progress (McpClient *client)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) progress = g_array_new (FALSE, FALSE, sizeof (double));
  McpRequestOptions options = { 0 };

  options.progress_func = on_progress;
  options.progress_data = progress;
  result = test_client_call_tool_json (client, "trigger-long-running-operation", "{\"duration\":1,\"steps\":3}",
                                       &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==,
                   "Long running operation completed. Duration: 1 seconds, Steps: 3.");
  g_assert_cmpuint (progress->len, ==, 3);
  for (guint i = 0; i < progress->len; i++)
    g_assert_cmpfloat (g_array_index (progress, double, i), ==, i + 1);
}

static void
test_streamable_http (void)
{
  Server server = { 0 };
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autofree char *url = NULL;
  McpServerInfo *info;

  if (!test_have_node_script (node_path, server_script))
    return;

  server_start (&server, "streamableHttp");
  url = g_strdup_printf ("http://127.0.0.1:%d/mcp", server.port);
  transport = mcp_http_transport_new (url, NULL, NULL);
  client = test_client_new_connected (transport);

  info = mcp_client_get_server_info (client);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "mcp-servers/everything");
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2025-11-25");
  g_assert_nonnull (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (transport)));
  g_assert_cmpstr (mcp_http_transport_get_protocol_version (MCP_HTTP_TRANSPORT (transport)), ==,
                   "2025-11-25");

  check_tools (client);
  check_echo (client);
  check_progress (client);

  test_client_close_ok (client);
  server_stop (&server);
}

static void
test_legacy_sse (void)
{
  Server server = { 0 };
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autofree char *url = NULL;
  g_autofree char *prefix = NULL;
  McpServerInfo *info;

  if (!test_have_node_script (node_path, server_script))
    return;

  server_start (&server, "sse");
  url = g_strdup_printf ("http://127.0.0.1:%d/sse", server.port);
  transport = mcp_sse_transport_new (url, NULL, NULL);
  client = test_client_new_connected (transport);

  prefix = g_strdup_printf ("http://127.0.0.1:%d/message?sessionId=", server.port);
  g_assert_true (g_str_has_prefix (mcp_sse_transport_get_endpoint (MCP_SSE_TRANSPORT (transport)),
                                   prefix));
  info = mcp_client_get_server_info (client);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "mcp-servers/everything");

  check_tools (client);
  check_echo (client);
  check_progress (client);

  test_client_close_ok (client);
  server_stop (&server);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  g_test_add_func ("/everything-http/streamable-http", test_streamable_http);
  g_test_add_func ("/everything-http/sse", test_legacy_sse);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
