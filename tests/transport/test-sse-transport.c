/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sse-transport"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-sse-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* McpSseTransport (legacy HTTP+SSE) against an in-process SoupServer that
 * plays a 2024-11-05 server: GET /sse is a chunked event stream that first
 * names the endpoint, POSTs there answer 202 and the answers come on the
 * stream. */

typedef enum
{
  ENDPOINT_RELATIVE,
  ENDPOINT_ABSOLUTE,
  ENDPOINT_OTHER_ORIGIN,
  ENDPOINT_OTHER_SCHEME,
} EndpointMode;

typedef struct
{
  SoupServer        *server;
  int                port;
  char              *url;
  SoupServerMessage *stream;     /* the open GET, or NULL */
  GPtrArray         *paused;
  guint              posts;
  guint              gets;
  EndpointMode       endpoint_mode;
} Fixture;

static void
push_event (Fixture    *fx,
            const char *event,
            const char *data)
{
  g_autofree char *text = g_strdup_printf ("event: %s\ndata: %s\n\n", event, data);

  g_assert_nonnull (fx->stream);
  soup_message_body_append (soup_server_message_get_response_body (fx->stream),
                            SOUP_MEMORY_COPY, text, strlen (text));
  soup_server_message_unpause (fx->stream);
}

static void
stream_finished_cb (SoupServerMessage *msg,
                    Fixture           *fx)
{
  if (fx->stream == msg)
    fx->stream = NULL;
}

static void
end_stream (Fixture *fx)
{
  SoupServerMessage *msg = fx->stream;

  soup_message_body_complete (soup_server_message_get_response_body (msg));
  soup_server_message_unpause (msg);
  fx->stream = NULL;
}

static char *
answer (McpMessage *request)
{
  const char *method = mcp_message_get_method (request);
  const char *result = "{}";
  g_autofree char *owned = NULL;

  if (g_str_equal (method, "initialize"))
    result = "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{\"tools\":{}},"
             "\"serverInfo\":{\"name\":\"legacy\",\"version\":\"1\"}}";
  else if (g_str_equal (method, "tools/list"))
    result = "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}";
  else if (g_str_equal (method, "tools/call"))
    {
      JsonObject *arguments = json_object_get_object_member (mcp_message_get_params_object (request),
                                                             "arguments");

      owned = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"Echo: %s\"}]}",
                               json_object_get_string_member_with_default (arguments, "message", ""));
      result = owned;
    }

  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":%s}",
                          json_node_get_int (mcp_message_get_id (request)), result);
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Fixture *fx = user_data;
  const char *method = soup_server_message_get_method (msg);

  if (g_str_equal (method, "GET") && g_str_equal (path, "/sse"))
    {
      g_autofree char *endpoint = NULL;

      fx->gets++;
      g_assert_cmpstr (soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Accept"),
                       ==, "text/event-stream");
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                         SOUP_ENCODING_CHUNKED);
      soup_message_headers_set_content_type (soup_server_message_get_response_headers (msg),
                                             "text/event-stream", NULL);
      fx->stream = msg;
      g_signal_connect (msg, "finished", G_CALLBACK (stream_finished_cb), fx);

      switch (fx->endpoint_mode)
        {
        case ENDPOINT_RELATIVE:
          endpoint = g_strdup ("/messages?sessionId=abc");
          break;
        case ENDPOINT_ABSOLUTE:
          endpoint = g_strdup_printf ("http://127.0.0.1:%d/messages?sessionId=abc", fx->port);
          break;
        case ENDPOINT_OTHER_ORIGIN:
          endpoint = g_strdup_printf ("http://127.0.0.2:%d/messages?sessionId=abc", fx->port);
          break;
        case ENDPOINT_OTHER_SCHEME:
          endpoint = g_strdup_printf ("https://127.0.0.1:%d/messages?sessionId=abc", fx->port);
          break;
        default:
          g_assert_not_reached ();
        }
      push_event (fx, "endpoint", endpoint);
      return;
    }

  if (g_str_equal (method, "POST") && g_str_equal (path, "/messages"))
    {
      SoupMessageBody *body = soup_server_message_get_request_body (msg);
      g_autoptr(GPtrArray) messages = NULL;
      g_autoptr(GError) error = NULL;
      McpMessage *message;

      fx->posts++;
      g_assert_cmpstr (g_hash_table_lookup (query, "sessionId"), ==, "abc");
      messages = mcp_message_parse (body->data, body->length, &error);
      g_assert_no_error (error);
      message = g_ptr_array_index (messages, 0);

      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, "Accepted", 8);

      if (mcp_message_get_kind (message) == MCP_MESSAGE_REQUEST && fx->stream != NULL)
        {
          JsonObject *params = mcp_message_get_params_object (message);
          g_autofree char *response = NULL;

          if (g_str_equal (mcp_message_get_method (message), "tools/call") &&
              g_str_equal (json_object_get_string_member (params, "name"), "slow"))
            return;

          /* Past MCP_TRANSPORT_THREADED_PARSE_SIZE, and the stream ends
           * right after it. */
          if (g_str_equal (mcp_message_get_method (message), "tools/call") &&
              g_str_equal (json_object_get_string_member (params, "name"), "big-then-end"))
            {
              g_autoptr(GString) big = g_string_new (NULL);

              while (big->len < 2 * 1024 * 1024)
                g_string_append (big, "0123456789abcdef");
              response = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ","
                                          "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}}",
                                          json_node_get_int (mcp_message_get_id (message)), big->str);
              push_event (fx, "message", response);
              end_stream (fx);
              return;
            }

          response = answer (message);
          push_event (fx, "message",
                      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                      "\"params\":{\"level\":\"info\",\"data\":\"on the stream\"}}");
          push_event (fx, "message", response);
        }
      return;
    }

  soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GSList *uris;

  fx->paused = g_ptr_array_new_with_free_func (g_object_unref);
  fx->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (fx->server, NULL, server_cb, fx, NULL);
  soup_server_listen_local (fx->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (fx->server);
  fx->port = g_uri_get_port (uris->data);
  fx->url = g_strdup_printf ("http://127.0.0.1:%d/sse", fx->port);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (fx->stream != NULL)
    end_stream (fx);
  soup_server_disconnect (fx->server);
  g_clear_object (&fx->server);
  g_clear_pointer (&fx->paused, g_ptr_array_unref);
  g_clear_pointer (&fx->url, g_free);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
count_notifications_cb (McpTransport *transport,
                        McpMessage   *message,
                        guint        *count)
{
  if (mcp_message_get_kind (message) == MCP_MESSAGE_NOTIFICATION)
    (*count)++;
}

static void
check_round_trip (Fixture *fx)
{
  g_autoptr(McpTransport) transport = mcp_sse_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GAsyncResult) list_result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *endpoint = g_strdup_printf ("http://127.0.0.1:%d/messages?sessionId=abc", fx->port);
  guint notifications = 0;

  g_signal_connect (transport, "message", G_CALLBACK (count_notifications_cb), &notifications);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_sse_transport_get_endpoint (MCP_SSE_TRANSPORT (transport)), ==, endpoint);
  g_assert_cmpstr (mcp_client_get_protocol_version (client), ==, "2024-11-05");

  mcp_client_list_tools_async (client, NULL, test_result_cb, &list_result);
  TEST_WAIT_UNTIL (list_result != NULL);
  tools = mcp_client_list_tools_finish (client, list_result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 1);

  /* Answers (and notifications) come on the stream, not the POST. */
  result = test_client_call_tool_message (client, "echo", "legacy", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: legacy");
  g_assert_cmpuint (notifications, ==, 3);
  g_assert_cmpuint (fx->gets, ==, 1);
  g_assert_cmpuint (fx->posts, ==, 4);  /* initialize, initialized, tools/list, tools/call */

  test_client_close_ok (client);
}

static void
test_endpoint_relative (Fixture       *fx,
                        gconstpointer  data)
{
  fx->endpoint_mode = ENDPOINT_RELATIVE;
  check_round_trip (fx);
}

static void
test_endpoint_absolute (Fixture       *fx,
                        gconstpointer  data)
{
  fx->endpoint_mode = ENDPOINT_ABSOLUTE;
  check_round_trip (fx);
}

static void
check_refused (Fixture *fx)
{
  g_autoptr(McpTransport) transport = mcp_sse_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;

  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "another origin"));
  g_assert_nonnull (strstr (error->message, fx->url));
  g_assert_null (mcp_sse_transport_get_endpoint (MCP_SSE_TRANSPORT (transport)));
  g_assert_true (mcp_transport_is_closed (transport));
  g_assert_cmpuint (fx->posts, ==, 0);
}

static void
test_endpoint_other_origin (Fixture       *fx,
                            gconstpointer  data)
{
  fx->endpoint_mode = ENDPOINT_OTHER_ORIGIN;
  check_refused (fx);
}

static void
test_endpoint_other_scheme (Fixture       *fx,
                            gconstpointer  data)
{
  fx->endpoint_mode = ENDPOINT_OTHER_SCHEME;
  check_refused (fx);
}

static void
on_closed (McpClient    *client,
           const GError *reason,
           GError      **out)
{
  g_assert_nonnull (reason);
  *out = g_error_copy (reason);
}

static void
test_stream_drop (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(McpTransport) transport = mcp_sse_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) reason = NULL;
  g_autofree char *expected = NULL;

  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &reason);

  end_stream (fx);
  TEST_WAIT_UNTIL (reason != NULL);
  expected = g_strdup_printf ("The event stream from “%s” ended; reconnect to go on", fx->url);
  g_assert_cmpstr (reason->message, ==, expected);
  g_assert_true (mcp_transport_is_closed (transport));
  g_assert_cmpuint (mcp_transport_get_network_errors (transport), ==, 1);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

/* A large answer is parsed in a worker thread; the end of the stream
 * right after it waits for it. */
static void
test_large_then_end (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(McpTransport) transport = mcp_sse_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) reason = NULL;
  const char *text;

  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &reason);

  result = test_client_call_tool_message (client, "big-then-end", "", &error);
  g_assert_no_error (error);
  text = mcp_content_get_text (g_ptr_array_index (mcp_tool_result_get_content (result), 0));
  g_assert_cmpuint (strlen (text), >=, 2 * 1024 * 1024);
  g_assert_true (g_str_has_prefix (text, "0123456789abcdef"));

  TEST_WAIT_UNTIL (reason != NULL);
  g_assert_nonnull (strstr (reason->message, "ended; reconnect to go on"));
}

static void
test_timeout (Fixture       *fx,
              gconstpointer  data)
{
  g_autoptr(McpTransport) transport = mcp_sse_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(McpToolResult) slow = NULL;
  g_autoptr(McpToolResult) echo = NULL;
  g_autoptr(GError) error = NULL;

  g_object_set (transport, "request-timeout", 200, NULL);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);

  slow = test_client_call_tool_message (client, "slow", "never", &error);
  g_assert_null (slow);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "within 200 ms"));
  g_clear_error (&error);

  echo = test_client_call_tool_message (client, "echo", "after", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (echo), ==, "Echo: after");

  test_client_close_ok (client);
}

static void
test_not_an_event_stream (Fixture       *fx,
                          gconstpointer  data)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%d/nothing", fx->port);
  g_autoptr(McpTransport) transport = mcp_sse_transport_new (url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;

  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_HTTP);
  g_assert_nonnull (strstr (error->message, "HTTP 404"));
  g_assert_nonnull (strstr (error->message, url));
}

#define ADD(path, func) \
  g_test_add ("/transport/sse/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  g_setenv ("MCP_REQUEST_TIMEOUT_MS", "30000", TRUE);
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (20);

  ADD ("endpoint-relative", test_endpoint_relative);
  ADD ("endpoint-absolute", test_endpoint_absolute);
  ADD ("endpoint-other-origin", test_endpoint_other_origin);
  ADD ("endpoint-other-scheme", test_endpoint_other_scheme);
  ADD ("stream-drop", test_stream_drop);
  ADD ("large-then-end", test_large_then_end);
  ADD ("timeout", test_timeout);
  ADD ("not-an-event-stream", test_not_an_event_stream);

  return g_test_run ();
}
