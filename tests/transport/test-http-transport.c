/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http-transport"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-auth-provider.h"
#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-http-transport.h"
#include "test-engine.h"
#include "test-auth-provider.h"
#include "test-util.h"

/* McpHttpTransport against an in-process SoupServer that plays an MCP
 * server, driven through McpClient as real use would. */

typedef enum
{
  GET_405,
  GET_EVENTS,         /* two short streams with ids and retry, then 405 */
  GET_500,
} GetMode;

typedef struct
{
  char    *http_method;
  char    *rpc_method;
  char    *session_id;
  char    *protocol_version;
  char    *mcp_method;     /* the Mcp-Method header */
  char    *authorization;
  char    *last_event_id;
  char    *accept;
  gint64   time;
  guint    status;
} Seen;

typedef struct
{
  SoupServer   *server;
  char         *url;
  GPtrArray    *seen;          /* Seen */
  GPtrArray    *paused;        /* SoupServerMessage, never answered */
  guint         sessions;
  char         *session_id;

  /* Behaviour */
  gboolean      sse_replies;
  GetMode       get_mode;
  char         *resume_answer; /* sent on a GET with Last-Event-ID: p1 */
  gboolean      resume_empty;  /* such a GET gets a stream with no event */
  gboolean      expire_session;
  const char   *required_auth;
  gboolean      reset_posts;   /* close the connection of every POST */
} Fixture;

static void
seen_free (Seen *seen)
{
  g_free (seen->http_method);
  g_free (seen->rpc_method);
  g_free (seen->session_id);
  g_free (seen->protocol_version);
  g_free (seen->mcp_method);
  g_free (seen->authorization);
  g_free (seen->last_event_id);
  g_free (seen->accept);
  g_free (seen);
}

static Seen *
find_seen (Fixture    *fx,
           const char *http_method,
           const char *rpc_method,
           guint       nth)
{
  for (guint i = 0; i < fx->seen->len; i++)
    {
      Seen *seen = g_ptr_array_index (fx->seen, i);

      if (g_strcmp0 (seen->http_method, http_method) == 0 &&
          (rpc_method == NULL || g_strcmp0 (seen->rpc_method, rpc_method) == 0) &&
          nth-- == 0)
        return seen;
    }
  return NULL;
}

static guint
count_seen (Fixture    *fx,
            const char *http_method,
            const char *rpc_method)
{
  guint n = 0;

  while (find_seen (fx, http_method, rpc_method, n) != NULL)
    n++;
  return n;
}

static char *
result_json (McpMessage *request)
{
  const char *method = mcp_message_get_method (request);
  g_autofree char *id = NULL;
  JsonNode *id_node = mcp_message_get_id (request);
  const char *result = "{}";
  g_autofree char *owned = NULL;

  id = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (id_node));

  if (g_str_equal (method, "initialize"))
    result = "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{\"listChanged\":true},"
             "\"resources\":{\"listChanged\":true}},\"serverInfo\":{\"name\":\"fixture\",\"version\":\"1\"}}";
  else if (g_str_equal (method, "tools/list"))
    result = "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},"
             "{\"name\":\"slow\",\"inputSchema\":{\"type\":\"object\"}}]}";
  else if (g_str_equal (method, "tools/call"))
    {
      JsonObject *params = mcp_message_get_params_object (request);
      JsonObject *arguments = json_object_get_object_member (params, "arguments");
      const char *text = json_object_get_string_member_with_default (arguments, "message", "");

      owned = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"Echo: %s\"}]}", text);
      result = owned;
    }

  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}", id, result);
}

static void
handle_get (Fixture           *fx,
            SoupServerMessage *msg,
            Seen              *seen)
{
  guint n = count_seen (fx, "GET", NULL);
  const char *body = NULL;
  g_autofree char *owned = NULL;

  if (g_strcmp0 (seen->last_event_id, "p1") == 0 && fx->resume_answer != NULL)
    {
      owned = g_strdup_printf ("id: p2\ndata: %s\n\n", fx->resume_answer);
      body = owned;
    }
  else if (g_strcmp0 (seen->last_event_id, "p1") == 0 && fx->resume_empty)
    body = "retry: 50\n: nothing new\n";

  if (fx->get_mode == GET_500)
    {
      soup_server_message_set_status (msg, 500, NULL);
      return;
    }

  else if (fx->get_mode == GET_EVENTS && n == 1)
    body = "retry: 150\n"
           "id: ev1\n"
           "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
  else if (fx->get_mode == GET_EVENTS && n == 2)
    body = ": resumed\n"
           "id: ev2\n"
           "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}\n\n";

  if (body == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/event-stream", SOUP_MEMORY_COPY, body, strlen (body));
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Fixture *fx = user_data;
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);
  SoupMessageBody *request_body = soup_server_message_get_request_body (msg);
  Seen *seen = g_new0 (Seen, 1);
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *message = NULL;

  seen->http_method = g_strdup (soup_server_message_get_method (msg));
  seen->session_id = g_strdup (soup_message_headers_get_one (request_headers, "Mcp-Session-Id"));
  seen->protocol_version = g_strdup (soup_message_headers_get_one (request_headers, "MCP-Protocol-Version"));
  seen->mcp_method = g_strdup (soup_message_headers_get_one (request_headers, "Mcp-Method"));
  seen->authorization = g_strdup (soup_message_headers_get_one (request_headers, "Authorization"));
  seen->last_event_id = g_strdup (soup_message_headers_get_one (request_headers, "Last-Event-ID"));
  seen->accept = g_strdup (soup_message_headers_get_one (request_headers, "Accept"));
  seen->time = g_get_monotonic_time ();
  g_ptr_array_add (fx->seen, seen);

  if (g_str_equal (seen->http_method, "POST"))
    {
      messages = mcp_message_parse (request_body->data, request_body->length, &error);
      g_assert_no_error (error);
      message = g_ptr_array_index (messages, 0);
      seen->rpc_method = g_strdup (mcp_message_get_method (message));
    }

  if (fx->reset_posts && g_str_equal (seen->http_method, "POST"))
    {
      g_autoptr(GIOStream) stream = NULL;

      stream = soup_server_message_steal_connection (msg);
      g_io_stream_close (stream, NULL, NULL);
      return;
    }

  if (fx->required_auth != NULL && g_strcmp0 (seen->authorization, fx->required_auth) != 0)
    {
      seen->status = 401;
      soup_message_headers_replace (response_headers, "WWW-Authenticate",
                                    "Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\", "
                                    "scope=\"tools:read tools:call\"");
      soup_server_message_set_status (msg, 401, NULL);
      return;
    }

  if (g_str_equal (seen->http_method, "DELETE"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      return;
    }

  if (g_str_equal (seen->http_method, "GET"))
    {
      handle_get (fx, msg, seen);
      return;
    }

  if (fx->expire_session && seen->session_id != NULL)
    {
      seen->status = 404;
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, "Session not found", 17);
      return;
    }

  if (mcp_message_get_kind (message) != MCP_MESSAGE_REQUEST)
    {
      seen->status = 202;
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }

  /* A server of the handshake era (the TypeScript SDK's) answers any
   * request but initialize without a session so; server/discover, the
   * client's era probe, among them. */
  if (seen->session_id == NULL && !g_str_equal (seen->rpc_method, "initialize"))
    {
      const char *body = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,"
                         "\"message\":\"Bad Request: Server not initialized\"},\"id\":null}";

      seen->status = 400;
      soup_server_message_set_status (msg, SOUP_STATUS_BAD_REQUEST, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        body, strlen (body));
      return;
    }

  if (g_str_equal (seen->rpc_method, "initialize"))
    {
      g_free (fx->session_id);
      fx->session_id = g_strdup_printf ("session-%u", ++fx->sessions);
      fx->expire_session = FALSE;
      soup_message_headers_replace (response_headers, "Mcp-Session-Id", fx->session_id);
    }

  if (g_str_equal (seen->rpc_method, "tools/call"))
    {
      JsonObject *params = mcp_message_get_params_object (message);

      if (g_str_equal (json_object_get_string_member (params, "name"), "cut-forever"))
        {
          const char *cut = "retry: 50\n"
                            "id: p1\n"
                            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                            "\"params\":{\"level\":\"info\",\"data\":\"before the cut\"}}\n\n";

          g_clear_pointer (&fx->resume_answer, g_free);
          fx->resume_empty = TRUE;
          soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
          soup_server_message_set_response (msg, "text/event-stream", SOUP_MEMORY_STATIC,
                                            cut, strlen (cut));
          return;
        }

      if (g_str_equal (json_object_get_string_member (params, "name"), "cut"))
        {
          const char *cut = "retry: 100\n"
                            "id: p1\n"
                            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                            "\"params\":{\"level\":\"info\",\"data\":\"before the cut\"}}\n\n";

          g_free (fx->resume_answer);
          fx->resume_answer = result_json (message);
          soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
          soup_server_message_set_response (msg, "text/event-stream", SOUP_MEMORY_STATIC,
                                            cut, strlen (cut));
          return;
        }

      if (g_str_equal (json_object_get_string_member (params, "name"), "big"))
        {
          /* Past MCP_TRANSPORT_THREADED_PARSE_SIZE: a 2 MB notification, a
           * small one, then a 2 MB result; as events, the stream ends
           * right after them. */
          g_autoptr(GString) big = g_string_new (NULL);
          g_autoptr(GString) body = g_string_new (NULL);
          JsonNode *id = mcp_message_get_id (message);

          while (big->len < 2 * 1024 * 1024)
            g_string_append (big, "0123456789abcdef");
          if (fx->sse_replies)
            g_string_append_printf (body,
                                    "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                                    "\"params\":{\"level\":\"info\",\"data\":\"%s\"}}\n\n"
                                    "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                                    "\"params\":{\"level\":\"info\",\"data\":\"small\"}}\n\n"
                                    "data: ", big->str);
          g_string_append_printf (body, "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ","
                                  "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}}",
                                  json_node_get_int (id), big->str);
          if (fx->sse_replies)
            g_string_append (body, "\n\n");
          seen->status = 200;
          soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
          soup_server_message_set_response (msg, fx->sse_replies ? "text/event-stream" : "application/json",
                                            SOUP_MEMORY_COPY, body->str, body->len);
          return;
        }

      if (g_str_equal (json_object_get_string_member (params, "name"), "garbled"))
        {
          /* The answer's event does not parse (a raw control character in
           * a string), but its id comes first; the stream stays open. */
          g_autofree char *body = g_strdup_printf ("data: {\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ","
                                                   "\"result\":{\"content\":[{\"type\":\"text\","
                                                   "\"text\":\"bad \x01\"}]}}\n\n",
                                                   json_node_get_int (mcp_message_get_id (message)));
          SoupMessageBody *response_body = soup_server_message_get_response_body (msg);

          soup_message_headers_set_encoding (response_headers, SOUP_ENCODING_CHUNKED);
          soup_message_headers_set_content_type (response_headers, "text/event-stream", NULL);
          soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
          soup_message_body_append (response_body, SOUP_MEMORY_COPY, body, strlen (body));
          g_ptr_array_add (fx->paused, g_object_ref (msg));
          return;
        }

      if (g_str_equal (json_object_get_string_member (params, "name"), "slow"))
        {
          soup_server_message_pause (msg);
          g_ptr_array_add (fx->paused, g_object_ref (msg));
          return;
        }
    }

  seen->status = 200;
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  {
    g_autofree char *response = result_json (message);

    if (fx->sse_replies)
      {
        g_autofree char *body = NULL;

        body = g_strdup_printf ("id: r1\n"
                                "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                                "\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n"
                                ": a comment\r\n"
                                "event: message\r\n"
                                "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\r\n"
                                "data: \"params\":{\"level\":\"info\",\"data\":\"almost\"}}\r\n\r\n"
                                "id: r2\n"
                                "data: %s\n\n", response);
        soup_server_message_set_response (msg, "text/event-stream", SOUP_MEMORY_TAKE,
                                          g_steal_pointer (&body), strlen (body));
      }
    else
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY,
                                        response, strlen (response));
  }
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GSList *uris;
  GUri *uri;

  fx->seen = g_ptr_array_new_with_free_func ((GDestroyNotify) seen_free);
  fx->paused = g_ptr_array_new_with_free_func (g_object_unref);
  fx->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (fx->server, NULL, server_cb, fx, NULL);
  soup_server_listen_local (fx->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (fx->server);
  uri = uris->data;
  fx->url = g_strdup_printf ("http://127.0.0.1:%d/mcp", g_uri_get_port (uri));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  /* Let cancelled operations run their callbacks. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  soup_server_disconnect (fx->server);
  g_clear_object (&fx->server);
  g_clear_pointer (&fx->paused, g_ptr_array_unref);
  g_clear_pointer (&fx->seen, g_ptr_array_unref);
  g_clear_pointer (&fx->url, g_free);
  g_clear_pointer (&fx->session_id, g_free);
  g_clear_pointer (&fx->resume_answer, g_free);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Helpers driving McpClient */

static McpClient *
new_connected_client (Fixture       *fx,
                      McpTransport **out_transport)
{
  g_autoptr(McpTransport) transport = mcp_http_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;

  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);

  if (out_transport != NULL)
    *out_transport = g_object_ref (transport);
  return g_steal_pointer (&client);
}

static GPtrArray *
list_tools (McpClient  *client,
            GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  return mcp_client_list_tools_finish (client, result, error);
}

/* Tests */

static void
test_json_reply (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(McpClient) client = new_connected_client (fx, NULL);
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Seen *seen;

  tools = list_tools (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 2);
  g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, 0)), ==, "echo");

  result = test_client_call_tool_message (client, "echo", "hi", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: hi");

  seen = find_seen (fx, "POST", "tools/call", 0);
  g_assert_nonnull (seen);
  g_assert_cmpstr (seen->accept, ==, "application/json, text/event-stream");

  test_client_close_ok (client);
}

static void
count_log_cb (McpTransport *transport,
              McpMessage   *message,
              GPtrArray    *order)
{
  const char *method = mcp_message_get_method (message);

  g_ptr_array_add (order, g_strdup (method != NULL ? method : "response"));
}

static void
test_sse_reply (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);

  fx->sse_replies = TRUE;
  client = new_connected_client (fx, &transport);
  g_signal_connect (transport, "message", G_CALLBACK (count_log_cb), order);

  result = test_client_call_tool_message (client, "echo", "streamed", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: streamed");

  /* Both notifications (one split over two data lines with CRLF) came
   * first, then the response. */
  g_assert_cmpuint (order->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (order, 0), ==, "notifications/message");
  g_assert_cmpstr (g_ptr_array_index (order, 1), ==, "notifications/message");
  g_assert_cmpstr (g_ptr_array_index (order, 2), ==, "response");

  test_client_close_ok (client);
}

/* An answer event that does not parse fails its request at once, with
 * the parse error, though its stream stays open. */
static void
test_garbled_event (Fixture       *fx,
                    gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  client = new_connected_client (fx, &transport);
  result = test_client_call_tool_message (client, "garbled", "x", &error);
  g_assert_null (result);
  g_assert_nonnull (error);
  g_assert_false (g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT));
  g_assert_nonnull (strstr (error->message, "control character"));

  test_client_close_ok (client);
}

/* Messages of MCP_TRANSPORT_THREADED_PARSE_SIZE or more are parsed in a
 * worker thread; they keep their place among the others, and the end of
 * the stream waits for them. */
static void
test_large_replies (Fixture       *fx,
                    gconstpointer  data)
{
  for (guint sse = 0; sse <= 1; sse++)
    {
      g_autoptr(McpTransport) transport = NULL;
      g_autoptr(McpClient) client = NULL;
      g_autoptr(McpToolResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);

      fx->sse_replies = sse;
      client = new_connected_client (fx, &transport);
      g_signal_connect (transport, "message", G_CALLBACK (count_log_cb), order);

      result = test_client_call_tool_message (client, "big", "", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (strlen (test_result_only_text (result)), >=, 2 * 1024 * 1024);
      g_assert_true (g_str_has_prefix (test_result_only_text (result), "0123456789abcdef"));

      if (sse)
        {
          g_assert_cmpuint (order->len, ==, 3);
          g_assert_cmpstr (g_ptr_array_index (order, 0), ==, "notifications/message");
          g_assert_cmpstr (g_ptr_array_index (order, 1), ==, "notifications/message");
          g_assert_cmpstr (g_ptr_array_index (order, 2), ==, "response");
        }
      else
        {
          g_assert_cmpuint (order->len, ==, 1);
          g_assert_cmpstr (g_ptr_array_index (order, 0), ==, "response");
        }

      /* The client goes on: a small call after the large one. */
      g_clear_object (&result);
      result = test_client_call_tool_message (client, "echo", "after", &error);
      g_assert_no_error (error);
      g_assert_cmpstr (test_result_only_text (result), ==, "Echo: after");

      test_client_close_ok (client);
    }
}

static void
on_invalid (McpTransport *transport,
            const char   *line,
            const GError *error,
            guint        *count)
{
  (*count)++;
}

static void
test_accepted_notification (Fixture       *fx,
                            gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  guint invalid = 0;
  Seen *seen;

  client = new_connected_client (fx, &transport);
  g_signal_connect (transport, "invalid-line", G_CALLBACK (on_invalid), &invalid);
  g_assert_true (mcp_client_notify (client, "notifications/roots/list_changed", NULL, &error));
  g_assert_no_error (error);
  TEST_WAIT_UNTIL (count_seen (fx, "POST", "notifications/roots/list_changed") == 1);

  seen = find_seen (fx, "POST", "notifications/initialized", 0);
  g_assert_nonnull (seen);
  g_assert_cmpuint (seen->status, ==, 202);

  /* A 202 with no body is no error and no message. */
  g_assert_true (test_client_ping (client, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (invalid, ==, 0);
  g_assert_true (mcp_transport_is_connected (transport));

  test_client_close_ok (client);
}

static void
test_session_and_version (Fixture       *fx,
                          gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  Seen *seen;

  client = new_connected_client (fx, &transport);
  g_assert_cmpstr (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (transport)), ==, "session-1");
  g_assert_cmpstr (mcp_http_transport_get_protocol_version (MCP_HTTP_TRANSPORT (transport)), ==, "2025-11-25");
  g_assert_true (test_client_ping (client, &error));
  g_assert_no_error (error);

  /* First the era probe, stateless: the modern version and its method in
   * headers, no session; refused as a handshake-era server does (400). */
  seen = g_ptr_array_index (fx->seen, 0);
  g_assert_cmpstr (seen->http_method, ==, "POST");
  g_assert_cmpstr (seen->rpc_method, ==, "server/discover");
  g_assert_cmpstr (seen->protocol_version, ==, "2026-07-28");
  g_assert_cmpstr (seen->mcp_method, ==, "server/discover");
  g_assert_null (seen->session_id);
  g_assert_cmpuint (seen->status, ==, 400);
  g_assert_cmpuint (count_seen (fx, "POST", "server/discover"), ==, 1);

  /* Then the handshake, as before the stateless revision. */
  seen = g_ptr_array_index (fx->seen, 1);
  g_assert_true (seen == find_seen (fx, "POST", "initialize", 0));
  g_assert_null (seen->session_id);
  g_assert_null (seen->protocol_version);
  g_assert_null (seen->mcp_method);

  seen = find_seen (fx, "POST", "notifications/initialized", 0);
  g_assert_cmpstr (seen->session_id, ==, "session-1");
  g_assert_cmpstr (seen->protocol_version, ==, "2025-11-25");

  seen = find_seen (fx, "POST", "ping", 0);
  g_assert_cmpstr (seen->session_id, ==, "session-1");
  g_assert_cmpstr (seen->protocol_version, ==, "2025-11-25");

  test_client_close_ok (client);
}

static void
test_delete_on_close (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = new_connected_client (fx, &transport);
  Seen *seen;

  g_assert_cmpuint (count_seen (fx, "DELETE", NULL), ==, 0);
  test_client_close_ok (client);
  g_assert_true (mcp_transport_is_closed (transport));

  seen = find_seen (fx, "DELETE", NULL, 0);
  g_assert_nonnull (seen);
  g_assert_cmpstr (seen->session_id, ==, "session-1");
  g_assert_null (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (transport)));
}

static void
count_cb (McpClient *client,
          guint     *count)
{
  (*count)++;
}

static void
test_get_stream_resumed (Fixture       *fx,
                         gconstpointer  data)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  guint tools_changed = 0;
  guint resources_changed = 0;
  Seen *first, *second;

  fx->get_mode = GET_EVENTS;
  transport = mcp_http_transport_new (fx->url, NULL, NULL);
  client = test_client_new (transport);
  g_signal_connect (client, "tools-list-changed", G_CALLBACK (count_cb), &tools_changed);
  g_signal_connect (client, "resources-list-changed", G_CALLBACK (count_cb), &resources_changed);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);

  /* The first stream ends after one event; the transport comes back after
   * the server's retry (150 ms) with the last id, and gets the next one. */
  TEST_WAIT_UNTIL (tools_changed == 1 && resources_changed == 1);
  TEST_WAIT_UNTIL (count_seen (fx, "GET", NULL) == 3);

  first = find_seen (fx, "GET", NULL, 0);
  second = find_seen (fx, "GET", NULL, 1);
  g_assert_cmpstr (first->accept, ==, "text/event-stream");
  g_assert_cmpstr (first->session_id, ==, "session-1");
  g_assert_null (first->last_event_id);
  g_assert_cmpstr (second->last_event_id, ==, "ev1");
  g_assert_cmpint (second->time - first->time, >=, 140 * 1000);
  g_assert_cmpstr (find_seen (fx, "GET", NULL, 2)->last_event_id, ==, "ev2");

  /* The third answer was 405: no more streams, nothing broke. */
  g_assert_true (test_client_ping (client, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_seen (fx, "GET", NULL), ==, 3);

  test_client_close_ok (client);
}

static void
test_post_stream_resumed (Fixture       *fx,
                          gconstpointer  data)
{
  g_autoptr(McpClient) client = new_connected_client (fx, NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Seen *post, *resume;

  /* The POST's stream ends after one event and before the answer: the
   * transport resumes it with a GET carrying Last-Event-ID. */
  result = test_client_call_tool_message (client, "cut", "resumed", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: resumed");

  post = find_seen (fx, "POST", "tools/call", 0);
  resume = NULL;
  for (guint i = 0; (resume = find_seen (fx, "GET", NULL, i)) != NULL; i++)
    if (g_strcmp0 (resume->last_event_id, "p1") == 0)
      break;
  g_assert_nonnull (resume);
  g_assert_cmpstr (resume->session_id, ==, "session-1");
  g_assert_cmpint (resume->time - post->time, >=, 90 * 1000);

  test_client_close_ok (client);
}

static void
test_post_stream_resumed_in_vain (Fixture       *fx,
                                  gconstpointer  data)
{
  g_autoptr(McpClient) client = new_connected_client (fx, NULL);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint resumes = 0;

  /* Every resume is accepted and cut again before a new event: the
   * transport gives up after a few instead of until the request's timeout. */
  result = test_client_call_tool_message (client, "cut-forever", "never", &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, "ended before the answer"));

  for (guint i = 0; find_seen (fx, "GET", NULL, i) != NULL; i++)
    if (g_strcmp0 (find_seen (fx, "GET", NULL, i)->last_event_id, "p1") == 0)
      resumes++;
  g_assert_cmpuint (resumes, ==, 3);

  test_client_close_ok (client);
}

static void
test_get_not_allowed (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = new_connected_client (fx, &transport);
  g_autoptr(GError) error = NULL;

  TEST_WAIT_UNTIL (count_seen (fx, "GET", NULL) == 1);
  g_assert_true (test_client_ping (client, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_transport_is_connected (transport));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);
  g_assert_cmpuint (count_seen (fx, "GET", NULL), ==, 1);

  test_client_close_ok (client);
}

static void
test_get_server_error (Fixture       *fx,
                       gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  fx->get_mode = GET_500;
  client = new_connected_client (fx, &transport);
  TEST_WAIT_UNTIL (count_seen (fx, "GET", NULL) == 1);
  g_assert_true (test_client_ping (client, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_transport_is_connected (transport));

  test_client_close_ok (client);
}

static void
test_session_expired (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = new_connected_client (fx, &transport);
  g_autoptr(McpClient) again = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  fx->expire_session = TRUE;
  tools = list_tools (client, &error);
  g_assert_null (tools);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
  expected = g_strdup_printf ("The session with “%s” expired; start a new one", fx->url);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_null (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (transport)));
  g_clear_error (&error);
  test_client_close_ok (client);

  /* Starting over with a new transport gets a new session. */
  again = new_connected_client (fx, NULL);
  tools = list_tools (again, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 2);
  g_assert_cmpstr (find_seen (fx, "POST", "tools/list", 1)->session_id, ==, "session-2");
  test_client_close_ok (again);
}

static void
test_needs_auth (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(McpTransport) transport = mcp_http_transport_new (fx->url, NULL, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;

  fx->required_auth = "Bearer good";
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, fx->url));
  g_assert_nonnull (strstr (error->message, "resource_metadata=“http://127.0.0.1/.well-known/oauth-protected-resource”"));
  g_assert_nonnull (strstr (error->message, "scope=“tools:read tools:call”"));
  g_assert_nonnull (strstr (mcp_http_transport_get_www_authenticate (MCP_HTTP_TRANSPORT (transport)),
                            "resource_metadata="));
}

static void
test_auth_retry (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(TestAuthProvider) auth = test_auth_provider_new (NULL);
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Seen *seen;

  auth->answer = TRUE;
  fx->required_auth = "Bearer good";
  transport = mcp_http_transport_new (fx->url, NULL, MCP_AUTH_PROVIDER (auth));
  client = test_client_new (transport);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (auth->challenges, ==, 1);
  g_assert_nonnull (strstr (auth->challenge, "scope=\"tools:read tools:call\""));
  /* The first POST is the era probe: refused 401, signed in, sent again
   * (and refused as a legacy server does); initialize then goes signed
   * in at once. */
  seen = g_ptr_array_index (fx->seen, 0);
  g_assert_cmpstr (seen->rpc_method, ==, "server/discover");
  g_assert_null (seen->authorization);
  g_assert_cmpuint (seen->status, ==, 401);
  seen = find_seen (fx, "POST", "server/discover", 1);
  g_assert_cmpstr (seen->authorization, ==, "Bearer good");
  g_assert_cmpuint (seen->status, ==, 400);
  g_assert_cmpuint (count_seen (fx, "POST", "server/discover"), ==, 2);
  g_assert_cmpuint (count_seen (fx, "POST", "initialize"), ==, 1);
  seen = find_seen (fx, "POST", "initialize", 0);
  g_assert_cmpstr (seen->authorization, ==, "Bearer good");

  result = test_client_call_tool_message (client, "echo", "signed in", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (result), ==, "Echo: signed in");
  g_assert_cmpstr (find_seen (fx, "POST", "tools/call", 0)->authorization, ==, "Bearer good");

  /* Every answer was told to the provider (DPoP-Nonce), the 401 before
   * its challenge was handled */
  g_assert_cmpuint (auth->answered, >=, count_seen (fx, "POST", NULL));
  g_assert_cmpuint (auth->answered_challenges, ==, 1);
  g_assert_cmpuint (auth->unnoted_challenges, ==, 0);

  test_client_close_ok (client);
}

static void
test_auth_refused (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(TestAuthProvider) auth = test_auth_provider_new (NULL);
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  /* A provider that cannot help: asked once, no endless retry. */
  auth->answer = FALSE;
  fx->required_auth = "Bearer good";
  transport = mcp_http_transport_new (fx->url, NULL, MCP_AUTH_PROVIDER (auth));
  client = test_client_new (transport);
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_cmpuint (auth->challenges, ==, 1);
  g_assert_cmpuint (auth->answered, ==, 1);
  g_assert_cmpuint (auth->unnoted_challenges, ==, 0);
  /* One POST, the era probe: a 401 is no answer of a legacy server, so
   * initialize is not tried without the sign-in either. */
  g_assert_cmpuint (count_seen (fx, "POST", NULL), ==, 1);
  g_assert_cmpuint (count_seen (fx, "POST", "server/discover"), ==, 1);
  g_assert_cmpuint (count_seen (fx, "POST", "initialize"), ==, 0);
}

static void
test_custom_headers (Fixture       *fx,
                     gconstpointer  data)
{
  const char *headers[] = { "Authorization: Bearer good", NULL };
  g_autoptr(McpTransport) transport = mcp_http_transport_new (fx->url, headers, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;

  fx->required_auth = "Bearer good";
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  test_client_close_ok (client);
}

static void
test_bad_header (Fixture       *fx,
                 gconstpointer  data)
{
  const char *headers[] = { "X-Token secret-value", NULL };
  g_autoptr(McpTransport) transport = mcp_http_transport_new (fx->url, headers, NULL);
  g_autoptr(McpClient) client = test_client_new (transport);
  g_autoptr(GError) error = NULL;

  g_assert_false (test_client_connect (client, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "is not “Name: value”"));
  /* The value may be a secret: the message shows the header's name part
   * only up to a colon, and there is none here, so check the value part is
   * not repeated beyond what was given. */
  g_assert_cmpuint (count_seen (fx, "POST", NULL), ==, 0);
}

static void
test_timeout (Fixture       *fx,
              gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = new_connected_client (fx, &transport);
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpToolResult) echo = NULL;
  g_autoptr(GError) error = NULL;

  mcp_http_transport_set_request_timeout (MCP_HTTP_TRANSPORT (transport), 200);
  result = test_client_call_tool_message (client, "slow", "never", &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "within 200 ms"));
  g_clear_error (&error);

  /* Other requests still work. */
  echo = test_client_call_tool_message (client, "echo", "still here", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_only_text (echo), ==, "Echo: still here");
  g_assert_true (mcp_transport_is_connected (transport));

  test_client_close_ok (client);
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
test_resets (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = new_connected_client (fx, &transport);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) reason = NULL;

  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &reason);
  /* What connecting sent is through first. */
  TEST_WAIT_UNTIL (count_seen (fx, "GET", NULL) == 1 &&
              count_seen (fx, "POST", "notifications/initialized") == 1);

  /* Two resets, then a success: the count starts again. (libsoup itself
   * retries a request once when a reused connection drops.) */
  fx->reset_posts = TRUE;
  for (guint i = 0; i < 2; i++)
    {
      g_assert_false (test_client_ping (client, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
      g_clear_error (&error);
    }
  g_assert_cmpuint (mcp_transport_get_network_errors (transport), ==, 2);
  fx->reset_posts = FALSE;
  g_assert_true (test_client_ping (client, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_transport_get_network_errors (transport), ==, 0);

  /* Three in a row close the transport with a reason to reconnect. */
  fx->reset_posts = TRUE;
  for (guint i = 0; i < 3; i++)
    {
      g_assert_false (test_client_ping (client, &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
  TEST_WAIT_UNTIL (reason != NULL);
  g_assert_true (mcp_transport_is_closed (transport));
  g_assert_error (reason, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (reason->message, "3 network errors in a row"));
  g_assert_nonnull (strstr (reason->message, "reconnect"));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static void
test_server_gone (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = new_connected_client (fx, &transport);
  g_autoptr(GError) error = NULL;

  /* Connection refused is a network error too. */
  soup_server_disconnect (fx->server);
  for (guint i = 0; i < 3 && !mcp_transport_is_closed (transport); i++)
    {
      g_assert_false (test_client_ping (client, &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
  g_assert_true (mcp_transport_is_closed (transport));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static void
test_parse_www_authenticate (void)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = NULL;
  static const char *garbage[] = {
    "", "   ", "=", "Bearer realm=\"unterminated", "Bearer realm=\"x\\", "Bearer a=b c",
    "Bearer ,,= ", "\"quoted\"", "Bearer a=\"x\"y",
  };

  scheme = mcp_auth_parse_www_authenticate ("Bearer resource_metadata=\"https://x/.well-known/oauth-protected-resource\", "
                                            "Scope=\"a b\",error=insufficient_scope , "
                                            "error_description=\"say \\\"hi\\\"\"", &params);
  g_assert_cmpstr (scheme, ==, "Bearer");
  g_assert_cmpstr (g_hash_table_lookup (params, "resource_metadata"), ==,
                   "https://x/.well-known/oauth-protected-resource");
  g_assert_cmpstr (g_hash_table_lookup (params, "scope"), ==, "a b");
  g_assert_cmpstr (g_hash_table_lookup (params, "error"), ==, "insufficient_scope");
  g_assert_cmpstr (g_hash_table_lookup (params, "error_description"), ==, "say \"hi\"");
  g_clear_pointer (&params, g_hash_table_unref);
  g_clear_pointer (&scheme, g_free);

  /* Only the first challenge. */
  scheme = mcp_auth_parse_www_authenticate ("Bearer realm=\"one\", Basic realm=\"two\"", &params);
  g_assert_cmpstr (scheme, ==, "Bearer");
  g_assert_cmpstr (g_hash_table_lookup (params, "realm"), ==, "one");
  g_assert_cmpuint (g_hash_table_size (params), ==, 1);
  g_clear_pointer (&params, g_hash_table_unref);
  g_clear_pointer (&scheme, g_free);

  scheme = mcp_auth_parse_www_authenticate ("Bearer", &params);
  g_assert_cmpstr (scheme, ==, "Bearer");
  g_assert_cmpuint (g_hash_table_size (params), ==, 0);
  g_clear_pointer (&params, g_hash_table_unref);
  g_clear_pointer (&scheme, g_free);

  scheme = mcp_auth_parse_www_authenticate ("Negotiate abc123==", &params);
  g_assert_cmpstr (scheme, ==, "Negotiate");
  g_clear_pointer (&params, g_hash_table_unref);
  g_clear_pointer (&scheme, g_free);

  g_assert_null (mcp_auth_parse_www_authenticate (NULL, &params));
  g_assert_null (params);
  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      scheme = mcp_auth_parse_www_authenticate (garbage[i], &params);
      if (scheme != NULL)
        g_error ("“%s” parsed as scheme “%s”", garbage[i], scheme);
      g_assert_null (params);
    }
}

static void
test_parse_www_authenticate_random (void)
{
  static const char alphabet[] = "Bearer =,\"\\\t abc";

  /* Random garbage never crashes and never leaks. */
  for (guint i = 0; i < 20000; i++)
    {
      char text[24];
      guint len = g_test_rand_int_range (0, sizeof text);
      g_autoptr(GHashTable) params = NULL;
      g_autofree char *scheme = NULL;

      for (guint j = 0; j < len; j++)
        text[j] = alphabet[g_test_rand_int_range (0, sizeof alphabet - 1)];
      text[len] = '\0';
      scheme = mcp_auth_parse_www_authenticate (text, &params);
      g_assert_true ((scheme == NULL) == (params == NULL));
    }
}

#define ADD(path, func) \
  g_test_add ("/transport/http/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

/* SEP-2243's encoding of Mcp-Name and Mcp-Param-* values: visible ASCII
 * with inner spaces as it is, "" as "", anything else as the Base64
 * sentinel of its UTF-8 (the conformance suite's http-custom-headers). */
static void
test_header_value_encode (void)
{
  static const struct { const char *value; const char *header; } cases[] = {
    { "us-west1", "us-west1" },
    { "us west 1", "us west 1" },
    { "", "" },
    { "Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?=" },
    { " padded ", "=?base64?IHBhZGRlZCA=?=" },
    { "tab\there", "=?base64?dGFiCWhlcmU=?=" },
    { "line\r\nbreak", "=?base64?bGluZQ0KYnJlYWs=?=" },
    { "=?base64?abc?=", "=?base64?PT9iYXNlNjQ/YWJjPz0=?=" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *header = mcp_http_header_value_encode (cases[i].value);

      g_assert_cmpstr (header, ==, cases[i].header);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("MCP_REQUEST_TIMEOUT_MS", "30000", TRUE);
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (20);

  g_test_add_func ("/transport/auth/parse-www-authenticate", test_parse_www_authenticate);
  g_test_add_func ("/transport/http/header-value-encode", test_header_value_encode);
  g_test_add_func ("/transport/auth/parse-www-authenticate-random", test_parse_www_authenticate_random);
  ADD ("json-reply", test_json_reply);
  ADD ("sse-reply", test_sse_reply);
  ADD ("garbled-event", test_garbled_event);
  ADD ("large-replies", test_large_replies);
  ADD ("accepted-notification", test_accepted_notification);
  ADD ("session-and-version", test_session_and_version);
  ADD ("delete-on-close", test_delete_on_close);
  ADD ("get-stream-resumed", test_get_stream_resumed);
  ADD ("post-stream-resumed", test_post_stream_resumed);
  ADD ("post-stream-resumed-in-vain", test_post_stream_resumed_in_vain);
  ADD ("get-not-allowed", test_get_not_allowed);
  ADD ("get-server-error", test_get_server_error);
  ADD ("session-expired", test_session_expired);
  ADD ("needs-auth", test_needs_auth);
  ADD ("auth-retry", test_auth_retry);
  ADD ("auth-refused", test_auth_refused);
  ADD ("custom-headers", test_custom_headers);
  ADD ("bad-header", test_bad_header);
  ADD ("timeout", test_timeout);
  ADD ("resets", test_resets);
  ADD ("server-gone", test_server_gone);

  return g_test_run ();
}
