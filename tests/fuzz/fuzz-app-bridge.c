/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-app-bridge"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-app-bridge.h"
#include "mcp-app-bridge-private.h"
#include "mcp-pool-tool-private.h"
#include "mcp-project.h"
#include "mcp-server-config.h"
#include "mcp-server-connection-private.h"

/* What an MCP Apps page posts (McpAppBridge): the input is lines, each a
 * string the page posts. The bridge is one of a project that is never
 * loaded, for a server that never runs: whatever needs the server or a
 * person is answered at once. Checks what the header promises:
 * - each post is one JSON-RPC message, of at most MCP_APP_BRIDGE_MAX_MESSAGE
 *   and some;
 * - each request is answered once at most, and a notification never;
 * - content sizes stay within their bounds;
 * - after close nothing is posted.
 * Warnings and criticals are fatal. */

static void
fail (const char *what)
{
  g_printerr ("fuzz-app-bridge: %s\n", what);
  abort ();
}

static void
post_cb (McpAppBridge *bridge,
         const char   *text,
         guint        *n_posts)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;

  if (n_posts == NULL)
    fail ("posted after close");
  (*n_posts)++;
  messages = mcp_message_parse (text, -1, &error);
  if (messages == NULL || messages->len != 1)
    fail ("posted what is not one JSON-RPC message");
}

static McpPoolTool *
make_tool (void)
{
  static McpPoolTool *tool;

  if (tool == NULL)
    {
      g_autoptr(JsonNode) entry = json_from_string ("{\"command\":\"/nonexistent/fuzz-app-server\"}", NULL);
      g_autoptr(JsonNode) json = json_from_string ("{\"name\":\"app\",\"inputSchema\":{\"type\":\"object\"},"
                                                   "\"_meta\":{\"ui\":{\"resourceUri\":\"ui://fuzz/app.html\"}}}",
                                                   NULL);
      g_autoptr(McpServerConfig) config = NULL;
      g_autoptr(McpServerConnection) connection = NULL;
      g_autoptr(McpTool) mcp_tool = NULL;

      config = mcp_server_config_new_from_json ("fuzz", MCP_CONFIG_SCOPE_USER, json_node_get_object (entry),
                                                "fuzz.json", "$.mcpServers.fuzz", NULL);
      connection = mcp_server_connection_new (config);
      mcp_tool = mcp_tool_new_from_json (json_node_get_object (json), NULL);
      tool = mcp_pool_tool_new (G_OBJECT (connection), "fuzz", mcp_tool);
    }
  return tool;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static McpProject *project;
  g_autoptr(McpAppBridge) bridge = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(GStrv) lines = NULL;
  guint n_posts = 0;
  guint n_lines;
  gulong handler;

  fuzz_abort_on_warnings ();
  if (project == NULL)
    {
      g_autoptr(JsonNode) entry = json_from_string ("{\"command\":\"/nonexistent/fuzz-app-server\"}", NULL);

      project = mcp_project_new_ad_hoc (NULL, "fuzz", json_node_get_object (entry), NULL);
      if (project == NULL)
        fail ("no project");
    }

  bridge = mcp_app_bridge_new (project, make_tool (), NULL);
  handler = g_signal_connect (bridge, "post", G_CALLBACK (post_cb), &n_posts);
  mcp_app_bridge_set_available_display_modes (bridge, (const char *[]) { "inline", "fullscreen", NULL });

  /* Bytes, not a C string: a NUL ends no line. */
  lines = g_strsplit (text, "\n", 4096);
  n_lines = g_strv_length (lines);
  for (guint i = 0; i < n_lines; i++)
    mcp_app_bridge_receive (bridge, lines[i], strlen (lines[i]));
  mcp_app_bridge_receive (bridge, (const char *) data, size);

  /* An answer a line at most (none for a notification), and a context
   * change with a display mode granted. */
  if (n_posts > 2 * (n_lines + 1))
    fail ("more answers than messages");
  if (mcp_app_bridge_get_content_width (bridge) > 10000 || mcp_app_bridge_get_content_height (bridge) > 10000)
    fail ("a content size past its bound");

  mcp_app_bridge_close (bridge);
  g_signal_handler_disconnect (bridge, handler);
  g_signal_connect (bridge, "post", G_CALLBACK (post_cb), NULL);
  for (guint i = 0; i < n_lines; i++)
    mcp_app_bridge_receive (bridge, lines[i], strlen (lines[i]));
  mcp_app_bridge_set_tool_cancelled (bridge, "closed");
  return 0;
}
