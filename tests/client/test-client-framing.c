/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client-framing"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* Issue 23, points 1 and 2: McpClient against mcp-framing-fixture-server.
 * An escaped nul in a tool's title, description and result reads as "␀"
 * with the text after it kept; an answer whose newline comes late is an
 * answer at once; an answer that does not parse but has an id fails its
 * request at once; a request that times out says which, how long and to
 * whom. */

#define NUL_SYMBOL "\xe2\x90\x80"  /* U+2400 SYMBOL FOR NULL */

static McpClient *
framing_client_new (const char *option)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_BUILT, "fixtures",
                                                    "mcp-framing-fixture-server", NULL);
  const char *argv[] = { fixture, option, NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);

  return test_client_new_connected (transport);
}

static const char *
first_text (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);

  g_assert_cmpuint (content->len, >=, 1);
  g_assert_cmpint (mcp_content_get_kind (g_ptr_array_index (content, 0)), ==, MCP_CONTENT_TEXT);
  return mcp_content_get_text (g_ptr_array_index (content, 0));
}

static void
test_escaped_nul (void)
{
  g_autoptr(McpClient) client = framing_client_new (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) echoed = NULL;
  g_autoptr(GError) error = NULL;
  McpTool *echo;

  mcp_client_set_request_timeout (client, 10000);
  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 4);
  echo = g_ptr_array_index (tools, 0);
  g_assert_cmpstr (mcp_tool_get_name (echo), ==, "echo");
  g_assert_cmpstr (mcp_tool_get_title (echo), ==, "Echo" NUL_SYMBOL "tail-title");
  g_assert_cmpstr (mcp_tool_get_description (echo), ==, "Says" NUL_SYMBOL "tail-description");

  echoed = test_client_call_tool_json (client, "echo", "{\"text\":\"the tail\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (echoed), ==, "before" NUL_SYMBOL "the tail");

  test_client_close_ok (client);
}

static void
test_late_newline (void)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) late = NULL;
  g_autoptr(McpToolResult) echoed = NULL;
  g_autoptr(GError) error = NULL;
  gint64 started;

  /* every answer's newline late, the handshake's too */
  client = framing_client_new ("--late-newline");
  /* the fixture pays its newline after 2 s: an answer must come sooner */
  mcp_client_set_request_timeout (client, 1500);

  started = g_get_monotonic_time ();
  late = test_client_call_tool_json (client, "late", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (late), ==, "late answer");
  g_assert_cmpint (g_get_monotonic_time () - started, <, 1500 * 1000);

  /* the newline that comes later is no message, and the next answer too */
  echoed = test_client_call_tool_json (client, "echo", "{\"text\":\"x\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (echoed), ==, "before" NUL_SYMBOL "x");

  test_client_close_ok (client);
}

static void
test_broken_answer_with_id (void)
{
  g_autoptr(McpClient) client = framing_client_new (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpToolResult) echoed = NULL;
  g_autoptr(GError) error = NULL;
  gint64 started;

  mcp_client_set_request_timeout (client, 20000);
  started = g_get_monotonic_time ();
  result = test_client_call_tool_json (client, "broken", NULL, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_nonnull (error);
  g_assert_false (g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT));
  /* at once, not after the timeout */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 10 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* the session goes on */
  echoed = test_client_call_tool_json (client, "echo", "{\"text\":\"still\"}", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (echoed), ==, "before" NUL_SYMBOL "still");

  test_client_close_ok (client);
}

static void
test_timeout_says_so (void)
{
  g_autoptr(McpClient) client = framing_client_new (NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_set_request_timeout (client, 1000);
  result = test_client_call_tool_json (client, "silent", NULL, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "tools/call"));
  g_assert_nonnull (strstr (error->message, "1 second"));
  g_assert_nonnull (strstr (error->message, "framing-fixture"));

  test_client_close_ok (client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/client/framing/escaped-nul", test_escaped_nul);
  g_test_add_func ("/client/framing/late-newline", test_late_newline);
  g_test_add_func ("/client/framing/broken-answer-with-id", test_broken_answer_with_id);
  g_test_add_func ("/client/framing/timeout-says-so", test_timeout_says_so);

  return g_test_run ();
}
