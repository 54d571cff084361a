/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "conformance-client"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"

/* The client the official MCP conformance suite drives
 * (@modelcontextprotocol/conformance, "conformance client"): the suite starts
 * a mock server, runs this program with the server's URL as the last
 * argument and the scenario's name in MCP_CONFORMANCE_SCENARIO, and judges
 * what the server saw. This program does what each scenario expects of a
 * client over McpHttpTransport and McpClient, and exits 0 when all of it
 * worked, 1 with the reason on stderr otherwise.
 *
 * When PLUGBOARD_CONFORMANCE_STATUS names a file, the exit status and reason
 * are written there too: the suite itself ignores a client's exit status once
 * an expected-failures file is given, so run-conformance.sh checks it. */

/* Below the suite's --timeout (60 s, run-conformance.sh), so a hang is
 * reported by this program with its reason rather than by the suite. */
#define REQUEST_TIMEOUT_MS 40000
#define HANG_BOUND_S 55

typedef struct
{
  const char *name;
  /* The tool the scenario's server offers and counts the call of, or NULL
   * when the scenario only checks the handshake. */
  const char *tool;
  /* Arguments for that tool, as JSON. */
  const char *arguments;
  /* Text the tool's answer must contain, or NULL. */
  const char *expected_text;
} Scenario;

static const Scenario scenarios[] = {
  { "initialize", NULL, NULL, NULL },
  { "tools_call", "add_numbers", "{\"a\": 5, \"b\": 3}", "The sum of 5 and 3 is 8" },
  /* The tool's POST stream sends only a priming event with retry: 500 and
   * ends; the answer comes on the GET stream the client must reopen with
   * Last-Event-ID after waiting those 500 ms. */
  { "sse-retry", "test_reconnection", "{}", "Reconnection test completed successfully" },
  /* Needs elicitation (a later issue): the server's elicitation/create
   * fails, so the suite's checks fail; listed in expected-failures.yml. */
  { "elicitation-sep1034-client-defaults", "test_client_elicitation_defaults", "{}", NULL },
};

static gboolean
hang_cb (gpointer user_data)
{
  const char *scenario = user_data;

  g_printerr ("conformance-client: scenario %s: no progress within %d s, giving up\n",
              scenario, HANG_BOUND_S);
  exit (1);
  return G_SOURCE_REMOVE;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

static void
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static const Scenario *
find_scenario (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (g_strcmp0 (scenarios[i].name, name) == 0)
      return &scenarios[i];
  return NULL;
}

static gboolean
check_tool_result (const Scenario  *scenario,
                   McpToolResult   *result,
                   GError         **error)
{
  GPtrArray *content = mcp_tool_result_get_content (result);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; content != NULL && i < content->len; i++)
    {
      const char *part = mcp_content_get_text (g_ptr_array_index (content, i));

      if (part != NULL)
        g_string_append (text, part);
    }

  g_print ("%s: %s\n", scenario->tool, text->str);

  if (mcp_tool_result_get_is_error (result))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "tool %s answered with an error: %s", scenario->tool, text->str);
      return FALSE;
    }
  if (scenario->expected_text != NULL && strstr (text->str, scenario->expected_text) == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "tool %s answered “%s”, expected it to contain “%s”",
                   scenario->tool, text->str, scenario->expected_text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
call_scenario_tool (const Scenario  *scenario,
                    McpClient       *client,
                    GError         **error)
{
  g_autoptr(GAsyncResult) list_result = NULL;
  g_autoptr(GAsyncResult) call_result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  gboolean offered = FALSE;

  mcp_client_list_tools_async (client, NULL, store_result_cb, &list_result);
  wait_for (&list_result);
  tools = mcp_client_list_tools_finish (client, list_result, error);
  if (tools == NULL)
    {
      g_prefix_error (error, "tools/list: ");
      return FALSE;
    }

  for (guint i = 0; i < tools->len; i++)
    if (g_strcmp0 (mcp_tool_get_name (g_ptr_array_index (tools, i)), scenario->tool) == 0)
      offered = TRUE;
  if (!offered)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the server does not offer the tool %s (%u tools listed)",
                   scenario->tool, tools->len);
      return FALSE;
    }

  arguments = json_from_string (scenario->arguments, NULL);
  if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the arguments for %s are not a JSON object: %s",
                   scenario->tool, scenario->arguments);
      return FALSE;
    }

  mcp_client_call_tool_async (client, scenario->tool, json_node_get_object (arguments),
                              NULL, NULL, store_result_cb, &call_result);
  wait_for (&call_result);
  tool_result = mcp_client_call_tool_finish (client, call_result, error);
  if (tool_result == NULL)
    {
      g_prefix_error (error, "tools/call %s: ", scenario->tool);
      return FALSE;
    }

  return check_tool_result (scenario, tool_result, error);
}

static gboolean
run_scenario (const Scenario  *scenario,
              const char      *url,
              GError         **error)
{
  g_autoptr(McpTransport) transport = mcp_http_transport_new (url, NULL, NULL);
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GAsyncResult) connect_result = NULL;
  g_autoptr(GAsyncResult) close_result = NULL;
  g_autoptr(GError) local_error = NULL;
  gboolean ok;

  mcp_client_set_client_info (client, "plugboard-conformance", PACKAGE_VERSION);
  mcp_client_set_request_timeout (client, REQUEST_TIMEOUT_MS);

  mcp_client_connect_async (client, NULL, store_result_cb, &connect_result);
  wait_for (&connect_result);
  if (!mcp_client_connect_finish (client, connect_result, error))
    {
      g_prefix_error (error, "connect: ");
      return FALSE;
    }
  g_print ("connected: protocol version %s\n", mcp_client_get_protocol_version (client));

  ok = scenario->tool == NULL || call_scenario_tool (scenario, client, &local_error);

  mcp_client_close_async (client, NULL, store_result_cb, &close_result);
  wait_for (&close_result);
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!mcp_client_close_finish (client, close_result, error))
    {
      g_prefix_error (error, "close: ");
      return FALSE;
    }
  return TRUE;
}

static void
write_status (int         status,
              const char *reason)
{
  const char *path = g_getenv ("PLUGBOARD_CONFORMANCE_STATUS");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL || *path == '\0')
    return;

  contents = g_strdup_printf ("%d\n%s\n", status, reason != NULL ? reason : "");
  if (!g_file_set_contents (path, contents, -1, &error))
    g_printerr ("conformance-client: %s\n", error->message);
}

int
main (int   argc,
      char *argv[])
{
  const char *scenario_name = g_getenv ("MCP_CONFORMANCE_SCENARIO");
  const char *context = g_getenv ("MCP_CONFORMANCE_CONTEXT");
  const Scenario *scenario;
  const char *url;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;

  setlocale (LC_ALL, "");

  if (argc < 2)
    {
      reason = g_strdup ("usage: conformance-client URL (with MCP_CONFORMANCE_SCENARIO set)");
      goto out;
    }
  url = argv[argc - 1];

  if (scenario_name == NULL || *scenario_name == '\0')
    {
      reason = g_strdup ("MCP_CONFORMANCE_SCENARIO is not set");
      goto out;
    }
  scenario = find_scenario (scenario_name);
  if (scenario == NULL)
    {
      reason = g_strdup_printf ("scenario %s is not one this client knows", scenario_name);
      goto out;
    }

  if (context != NULL && *context != '\0')
    {
      g_autoptr(JsonNode) node = json_from_string (context, &error);

      if (node == NULL)
        {
          reason = g_strdup_printf ("MCP_CONFORMANCE_CONTEXT is not JSON: %s", error->message);
          goto out;
        }
    }

  g_timeout_add_seconds (HANG_BOUND_S, hang_cb, (gpointer) scenario_name);

  if (!run_scenario (scenario, url, &error))
    reason = g_strdup_printf ("scenario %s against %s: %s", scenario_name, url, error->message);

out:
  if (reason != NULL)
    g_printerr ("conformance-client: %s\n", reason);
  else
    g_print ("conformance-client: scenario %s done\n", scenario_name);
  write_status (reason != NULL ? 1 : 0, reason);
  return reason != NULL ? 1 : 0;
}
