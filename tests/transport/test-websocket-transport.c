/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-websocket-transport"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-ide-lock.h"
#include "mcp-websocket-transport.h"
#include "test-engine.h"
#include "test-auth-provider.h"
#include "test-util.h"

/* A test McpAuthProvider */

/* An in-process MCP server over WebSocket */

typedef struct
{
  SoupServer               *server;
  guint16                   port;
  SoupMessageHeaders       *last_headers;   /* of the last upgrade request */
  SoupWebsocketConnection  *peer;           /* the last accepted connection */
  gushort                   client_close_code;
  gboolean                  peer_closed;
  guint                     frames;
} Server;

static char *
server_url (Server     *s,
            const char *path)
{
  return g_strdup_printf ("ws://127.0.0.1:%u%s", s->port, path);
}

static void
server_send (SoupWebsocketConnection *connection,
             JsonNode                *id,
             const char              *result_json)
{
  g_autofree char *id_text = json_to_string (id, FALSE);
  g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}",
                                           id_text, result_json);

  soup_websocket_connection_send_text (connection, text);
}

static void
server_message_cb (SoupWebsocketConnection *connection,
                   int                      type,
                   GBytes                  *bytes,
                   Server                  *s)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize length = 0;
  const char *data = g_bytes_get_data (bytes, &length);
  JsonObject *message;
  JsonObject *params = NULL;
  JsonNode *id;
  const char *method;

  s->frames++;
  g_assert_cmpint (type, ==, SOUP_WEBSOCKET_DATA_TEXT);
  g_assert_true (json_parser_load_from_data (parser, data, (gssize) length, NULL));
  /* One message per frame, never a batch. */
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  message = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (message, "method") || !json_object_has_member (message, "id"))
    return;

  method = json_object_get_string_member (message, "method");
  id = json_object_get_member (message, "id");
  if (json_object_has_member (message, "params"))
    params = json_object_get_object_member (message, "params");

  if (g_str_equal (method, "initialize"))
    {
      g_autofree char *result =
        g_strdup_printf ("{\"protocolVersion\":\"%s\",\"capabilities\":{\"tools\":{}},"
                         "\"serverInfo\":{\"name\":\"in-process\",\"version\":\"1\"}}",
                         json_object_get_string_member (params, "protocolVersion"));

      server_send (connection, id, result);
    }
  else if (g_str_equal (method, "tools/list"))
    server_send (connection, id,
                 "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}");
  else if (g_str_equal (method, "ping"))
    server_send (connection, id, "{}");
  else if (g_str_equal (method, "tools/call"))
    {
      const char *name = json_object_get_string_member (params, "name");

      if (g_str_equal (name, "echo"))
        {
          JsonObject *args = json_object_get_object_member (params, "arguments");
          g_autoptr(JsonNode) text = json_node_init_string (json_node_alloc (),
                                                            json_object_get_string_member (args, "message"));
          g_autofree char *quoted = json_to_string (text, FALSE);
          g_autofree char *result = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":%s}]}",
                                                     quoted);

          server_send (connection, id, result);
        }
      else if (g_str_equal (name, "garbage"))
        {
          static const guint8 binary[] = { 0, 1, 2, 3 };

          soup_websocket_connection_send_text (connection, "not json at all");
          soup_websocket_connection_send_binary (connection, binary, sizeof binary);
          soup_websocket_connection_send_text (connection, "{\"jsonrpc\":\"1.0\"}");
          server_send (connection, id, "{\"content\":[{\"type\":\"text\",\"text\":\"after garbage\"}]}");
        }
      else if (g_str_equal (name, "big"))
        {
          /* Past MCP_TRANSPORT_THREADED_PARSE_SIZE: a 2 MB notification,
           * a frame that is not JSON, then a 2 MB result. */
          g_autoptr(GString) big = g_string_new (NULL);
          g_autofree char *notification = NULL;
          g_autofree char *result = NULL;

          while (big->len < 2 * 1024 * 1024)
            g_string_append (big, "0123456789abcdef");
          notification = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                                          "\"params\":{\"level\":\"info\",\"data\":\"%s\"}}", big->str);
          soup_websocket_connection_send_text (connection, notification);
          soup_websocket_connection_send_text (connection, "between");
          result = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}", big->str);
          server_send (connection, id, result);
        }
      else if (g_str_equal (name, "close"))
        soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_SERVER_ERROR,
                                         "internal error");
      else if (g_str_equal (name, "close-no-reason"))
        soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_GOING_AWAY, NULL);
    }
}

static void
server_closed_cb (SoupWebsocketConnection *connection,
                  Server                  *s)
{
  s->client_close_code = soup_websocket_connection_get_close_code (connection);
  s->peer_closed = TRUE;
}

static void
server_websocket_cb (SoupServer              *server,
                     SoupServerMessage       *msg,
                     const char              *path,
                     SoupWebsocketConnection *connection,
                     gpointer                 user_data)
{
  Server *s = user_data;

  g_clear_object (&s->peer);
  s->peer = g_object_ref (connection);
  g_signal_connect (connection, "message", G_CALLBACK (server_message_cb), s);
  g_signal_connect (connection, "closed", G_CALLBACK (server_closed_cb), s);
}

static void
server_record_cb (SoupServer        *server,
                  SoupServerMessage *msg,
                  const char        *path,
                  GHashTable        *query,
                  gpointer           user_data)
{
  Server *s = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  g_clear_pointer (&s->last_headers, soup_message_headers_unref);
  s->last_headers = soup_message_headers_ref (headers);

  if (g_str_equal (path, "/auth") &&
      g_strcmp0 (soup_message_headers_get_one (headers, "Authorization"), "Bearer good") != 0)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "WWW-Authenticate", "Bearer realm=\"test\"");
      soup_server_message_set_status (msg, SOUP_STATUS_UNAUTHORIZED, NULL);
    }
  else if (g_str_equal (path, "/missing"))
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

static Server *
server_new (void)
{
  static const char *mcp_protocols[] = { "mcp", NULL };
  static const char *paths[] = { "/mcp", "/noproto", "/auth", "/missing" };
  g_autoptr(GError) error = NULL;
  Server *s = g_new0 (Server, 1);
  GSList *uris;

  s->server = soup_server_new (NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      soup_server_add_early_handler (s->server, paths[i], server_record_cb, s, NULL);
      soup_server_add_websocket_handler (s->server, paths[i], NULL,
                                         g_str_equal (paths[i], "/noproto") ? NULL : (char **) mcp_protocols,
                                         server_websocket_cb, s, NULL);
    }
  soup_server_listen_local (s->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (s->server);
  g_assert_nonnull (uris);
  s->port = (guint16) g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return s;
}

static void
server_free (Server *s)
{
  if (s->peer != NULL)
    g_signal_handlers_disconnect_by_data (s->peer, s);
  g_clear_object (&s->peer);
  soup_server_disconnect (s->server);
  g_clear_object (&s->server);
  g_clear_pointer (&s->last_headers, soup_message_headers_unref);
  g_free (s);
}

/* Helpers on McpClient */

typedef struct
{
  McpTransport *transport;
  McpClient    *client;
  GPtrArray    *invalid_lines;
  gboolean      closed;
  GError       *reason;
} Harness;

static void
on_invalid_line (McpTransport *transport,
                 const char   *line,
                 const GError *error,
                 Harness      *h)
{
  g_assert_nonnull (error);
  g_ptr_array_add (h->invalid_lines, g_strdup (line));
}

static void
on_closed (McpTransport *transport,
           const GError *reason,
           Harness      *h)
{
  g_assert_false (h->closed);
  h->closed = TRUE;
  h->reason = reason != NULL ? g_error_copy (reason) : NULL;
}

static void
harness_init (Harness            *h,
              const char         *url,
              const char * const *headers,
              McpAuthProvider    *auth)
{
  memset (h, 0, sizeof *h);
  h->transport = mcp_websocket_transport_new (url, headers, auth);
  h->invalid_lines = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (h->transport, "invalid-line", G_CALLBACK (on_invalid_line), h);
  g_signal_connect (h->transport, "closed", G_CALLBACK (on_closed), h);
  h->client = mcp_client_new (h->transport);
}

static gboolean
harness_connect (Harness  *h,
                 GError  **error)
{
  return test_client_connect (h->client, error);
}

static void
harness_clear (Harness *h)
{
  if (!h->closed)
    {
      test_client_close (h->client, NULL);
    }
  g_signal_handlers_disconnect_by_data (h->transport, h);
  g_clear_object (&h->client);
  g_clear_object (&h->transport);
  g_clear_pointer (&h->invalid_lines, g_ptr_array_unref);
  g_clear_error (&h->reason);
}

static GPtrArray *
list_tools (Harness  *h,
            GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_list_tools_async (h->client, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  return mcp_client_list_tools_finish (h->client, result, error);
}

/* Tests against the in-process server */

static void
test_connect_initialize (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_transport_is_connected (h.transport));

  g_assert_nonnull (s->last_headers);
  g_assert_cmpstr (soup_message_headers_get_one (s->last_headers, "Sec-WebSocket-Protocol"), ==, "mcp");
  g_assert_null (soup_message_headers_get_one (s->last_headers, "Authorization"));
  g_assert_cmpstr (mcp_server_info_get_name (mcp_client_get_server_info (h.client)), ==, "in-process");
  g_assert_cmpstr (mcp_client_get_protocol_version (h.client), ==, MCP_PROTOCOL_VERSION_LATEST);
  g_assert_cmpstr (mcp_websocket_transport_get_url (MCP_WEBSOCKET_TRANSPORT (h.transport)), ==, url);

  tools = list_tools (&h, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 1);
  g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, 0)), ==, "echo");

  result = test_client_call_tool_message (h.client, "echo", "hello över WebSocket", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (result), ==, "hello över WebSocket");
  g_assert_cmpuint (mcp_transport_get_network_errors (h.transport), ==, 0);

  /* The owner's close is a normal close, reported as closed(NULL). */
  harness_clear (&h);
  TEST_WAIT_UNTIL (s->peer_closed);
  g_assert_cmpuint (s->client_close_code, ==, SOUP_WEBSOCKET_CLOSE_NORMAL);
  server_free (s);
}

static void
test_owner_close (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) id = mcp_message_id_new_int (1);
  g_autoptr(McpMessage) ping = mcp_message_new_request (id, "ping", NULL);
  Harness h;

  harness_init (&h, url, NULL, NULL);
  mcp_transport_connect_async (h.transport, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_true (mcp_transport_connect_finish (h.transport, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  mcp_transport_close_async (h.transport, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_true (mcp_transport_close_finish (h.transport, result, &error));
  g_assert_no_error (error);
  g_assert_true (h.closed);
  g_assert_null (h.reason);
  g_assert_cmpuint (mcp_websocket_transport_get_close_code (MCP_WEBSOCKET_TRANSPORT (h.transport)),
                    ==, SOUP_WEBSOCKET_CLOSE_NORMAL);
  TEST_WAIT_UNTIL (s->peer_closed);
  g_assert_cmpuint (s->client_close_code, ==, SOUP_WEBSOCKET_CLOSE_NORMAL);

  g_assert_false (mcp_transport_send (h.transport, ping, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);

  harness_clear (&h);
  server_free (s);
}

static void
test_custom_headers (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autoptr(TestAuthProvider) auth = test_auth_provider_new (NULL);
  const char *headers[] = { "X-Custom: one two", MCP_IDE_AUTH_HEADER ":  s3cret ", NULL };
  g_autoptr(GError) error = NULL;
  Harness h;

  auth->token = g_strdup ("Bearer abc");
  harness_init (&h, url, headers, MCP_AUTH_PROVIDER (auth));
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  g_assert_cmpstr (soup_message_headers_get_one (s->last_headers, "X-Custom"), ==, "one two");
  g_assert_cmpstr (soup_message_headers_get_one (s->last_headers, MCP_IDE_AUTH_HEADER), ==, "s3cret");
  g_assert_cmpstr (soup_message_headers_get_one (s->last_headers, "Authorization"), ==, "Bearer abc");
  g_assert_cmpuint (auth->challenges, ==, 0);

  harness_clear (&h);
  server_free (s);
}

static void
test_bad_header (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  const char *headers[] = { "X-Good: yes", "no colon here secret", NULL };
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, headers, NULL);
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "Header 2"));
  /* The value may be a secret: it is never repeated. */
  g_assert_null (strstr (error->message, "secret"));
  g_assert_null (s->last_headers);

  harness_clear (&h);
  server_free (s);
}

static void
test_server_close (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  result = test_client_call_tool_message (h.client, "close", NULL, &error);
  g_assert_null (result);
  g_assert_nonnull (error);
  TEST_WAIT_UNTIL (h.closed);
  g_assert_error (h.reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  expected = g_strdup_printf ("The server at “%s” closed the WebSocket: 1011 internal error", url);
  g_assert_cmpstr (h.reason->message, ==, expected);
  g_assert_cmpuint (mcp_websocket_transport_get_close_code (MCP_WEBSOCKET_TRANSPORT (h.transport)),
                    ==, SOUP_WEBSOCKET_CLOSE_SERVER_ERROR);
  g_assert_cmpint (mcp_client_get_state (h.client), ==, MCP_CLIENT_STATE_CLOSED);

  harness_clear (&h);
  server_free (s);
}

static void
test_server_close_no_reason (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  result = test_client_call_tool_message (h.client, "close-no-reason", NULL, &error);
  g_assert_null (result);
  TEST_WAIT_UNTIL (h.closed);
  g_assert_error (h.reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  expected = g_strdup_printf ("The server at “%s” closed the WebSocket: 1001 (going away)", url);
  g_assert_cmpstr (h.reason->message, ==, expected);

  harness_clear (&h);
  server_free (s);
}

static void
test_server_drops_connection (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  /* No close frame: the TCP connection just ends. */
  g_io_stream_close (soup_websocket_connection_get_io_stream (s->peer), NULL, NULL);
  TEST_WAIT_UNTIL (h.closed);
  g_assert_nonnull (h.reason);
  g_assert_true (g_error_matches (h.reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED) ||
                 g_error_matches (h.reason, MCP_ERROR, MCP_ERROR_NETWORK));
  g_assert_nonnull (strstr (h.reason->message, url));

  harness_clear (&h);
  server_free (s);
}

static void
test_unauthorized (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/auth");
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, url));
  g_assert_nonnull (strstr (error->message, "401"));
  g_assert_false (mcp_transport_is_connected (h.transport));

  harness_clear (&h);
  server_free (s);
}

static void
test_unauthorized_provider_retry (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/auth");
  g_autoptr(TestAuthProvider) auth = test_auth_provider_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Harness h;

  auth->answer = TRUE;
  harness_init (&h, url, NULL, MCP_AUTH_PROVIDER (auth));
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (auth->challenges, ==, 1);
  g_assert_cmpuint (auth->last_status, ==, 401);
  g_assert_cmpstr (auth->challenge, ==, "Bearer realm=\"test\"");
  g_assert_cmpstr (soup_message_headers_get_one (s->last_headers, "Authorization"), ==, "Bearer good");
  /* Both handshakes' answers were told to the provider, the 401 before
   * its challenge was handled */
  g_assert_cmpuint (auth->answered, ==, 2);
  g_assert_cmpuint (auth->unnoted_challenges, ==, 0);

  result = test_client_call_tool_message (h.client, "echo", "signed in", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (result), ==, "signed in");

  harness_clear (&h);
  server_free (s);
}

static void
test_unauthorized_provider_declines (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/auth");
  g_autoptr(TestAuthProvider) auth = test_auth_provider_new (NULL);
  g_autoptr(GError) error = NULL;
  Harness h;

  auth->token = g_strdup ("Bearer expired");
  harness_init (&h, url, NULL, MCP_AUTH_PROVIDER (auth));
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_cmpuint (auth->challenges, ==, 1);
  g_assert_null (strstr (error->message, "expired"));

  harness_clear (&h);
  server_free (s);
}

static void
test_upgrade_refused (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/missing");
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_HTTP);
  g_assert_nonnull (strstr (error->message, url));
  g_assert_nonnull (strstr (error->message, "404"));

  harness_clear (&h);
  server_free (s);
}

static void
test_no_subprotocol (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/noproto");
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "subprotocol “mcp”"));
  g_assert_nonnull (strstr (error->message, url));

  harness_clear (&h);
  server_free (s);
}

static void
test_connection_refused (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  Harness h;

  /* A port nobody listens on: bind one, note it, close it. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("ws://127.0.0.1:%u/mcp",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_close (socket, NULL);

  harness_init (&h, url, NULL, NULL);
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, url));
  g_assert_cmpuint (mcp_transport_get_network_errors (h.transport), ==, 1);

  harness_clear (&h);
}

static void
test_invalid_url (void)
{
  const char *urls[] = { "http://127.0.0.1:1/mcp", "not a url", "ws://", NULL };

  for (guint i = 0; urls[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      Harness h;

      harness_init (&h, urls[i], NULL, NULL);
      g_assert_false (harness_connect (&h, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, urls[i]));
      harness_clear (&h);
    }
}

static void
test_invalid_frames (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpToolResult) again = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  result = test_client_call_tool_message (h.client, "garbage", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (result), ==, "after garbage");
  g_assert_cmpuint (h.invalid_lines->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (h.invalid_lines, 0), ==, "not json at all");
  g_assert_nonnull (strstr (g_ptr_array_index (h.invalid_lines, 1), "binary"));
  g_assert_cmpstr (g_ptr_array_index (h.invalid_lines, 2), ==, "{\"jsonrpc\":\"1.0\"}");

  /* The connection stays up. */
  g_assert_false (h.closed);
  again = test_client_call_tool_message (h.client, "echo", "still here", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (again), ==, "still here");

  harness_clear (&h);
  server_free (s);
}

/* Frames of MCP_TRANSPORT_THREADED_PARSE_SIZE or more are parsed in a
 * worker thread, in their place among the others. */
static void
test_large_frames (void)
{
  Server *s = server_new ();
  g_autofree char *url = server_url (s, "/mcp");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpToolResult) again = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  result = test_client_call_tool_message (h.client, "big", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (test_result_first_text (result)), >=, 2 * 1024 * 1024);
  g_assert_true (g_str_has_prefix (test_result_first_text (result), "0123456789abcdef"));
  /* the frame between came after the large one, before the result */
  g_assert_cmpuint (h.invalid_lines->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (h.invalid_lines, 0), ==, "between");

  g_assert_false (h.closed);
  again = test_client_call_tool_message (h.client, "echo", "still here", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (again), ==, "still here");

  harness_clear (&h);
  server_free (s);
}

static void
test_describe_hides_secrets (void)
{
  g_autoptr(McpTransport) transport =
    mcp_websocket_transport_new ("ws://user:pw@127.0.0.1:9/mcp?token=abc", NULL, NULL);
  g_autofree char *what = mcp_transport_describe (transport);

  g_assert_cmpstr (what, ==, "ws://127.0.0.1:9/mcp");
}

/* A raw TCP peer for what SoupServer will not do: never answer the
 * upgrade, or accept it and then ignore every frame. */

typedef struct
{
  GSocketService    *service;
  guint16            port;
  gboolean           accept_upgrade;
  GBytes            *after_upgrade;  /* raw bytes sent after the 101 */
  GSocketConnection *connection;
  GString           *request;
  guint8             buffer[4096];
  gboolean           upgraded;
} RawServer;

static void raw_read (RawServer *r);

static void
raw_read_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  RawServer *r = user_data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, NULL);
  const char *key_start;

  if (n <= 0 || r->upgraded)
    return;

  g_string_append_len (r->request, (const char *) r->buffer, n);
  if (strstr (r->request->str, "\r\n\r\n") == NULL)
    {
      raw_read (r);
      return;
    }

  if (!r->accept_upgrade)
    return;

  key_start = strstr (r->request->str, "Sec-WebSocket-Key: ");
  g_assert_nonnull (key_start);
  key_start += strlen ("Sec-WebSocket-Key: ");
  {
    g_autofree char *key = g_strndup (key_start, strcspn (key_start, "\r\n"));
    g_autofree char *joined = g_strconcat (key, "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", NULL);
    g_autoptr(GChecksum) sha1 = g_checksum_new (G_CHECKSUM_SHA1);
    guint8 digest[20];
    gsize digest_len = sizeof digest;
    g_autofree char *accept = NULL;
    g_autofree char *response = NULL;
    g_autoptr(GError) error = NULL;

    g_checksum_update (sha1, (const guchar *) joined, -1);
    g_checksum_get_digest (sha1, digest, &digest_len);
    accept = g_base64_encode (digest, digest_len);
    response = g_strdup_printf ("HTTP/1.1 101 Switching Protocols\r\n"
                                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                "Sec-WebSocket-Accept: %s\r\n"
                                "Sec-WebSocket-Protocol: mcp\r\n\r\n", accept);
    g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (r->connection)),
                               response, strlen (response), NULL, NULL, &error);
    g_assert_no_error (error);
    if (r->after_upgrade != NULL)
      {
        g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (r->connection)),
                                   g_bytes_get_data (r->after_upgrade, NULL),
                                   g_bytes_get_size (r->after_upgrade), NULL, NULL, &error);
        g_assert_no_error (error);
      }
    r->upgraded = TRUE;
  }
}

static void
raw_read (RawServer *r)
{
  g_input_stream_read_async (g_io_stream_get_input_stream (G_IO_STREAM (r->connection)),
                             r->buffer, sizeof r->buffer, G_PRIORITY_DEFAULT, NULL,
                             raw_read_cb, r);
}

static gboolean
raw_incoming_cb (GSocketService    *service,
                 GSocketConnection *connection,
                 GObject           *source,
                 RawServer         *r)
{
  g_clear_object (&r->connection);
  r->connection = g_object_ref (connection);
  raw_read (r);
  return TRUE;
}

static RawServer *
raw_server_new (gboolean accept_upgrade)
{
  RawServer *r = g_new0 (RawServer, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  r->accept_upgrade = accept_upgrade;
  r->request = g_string_new (NULL);
  r->service = g_socket_service_new ();
  g_socket_listener_add_address (G_SOCKET_LISTENER (r->service), any, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  r->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_signal_connect (r->service, "incoming", G_CALLBACK (raw_incoming_cb), r);
  g_socket_service_start (r->service);
  return r;
}

static void
raw_server_free (RawServer *r)
{
  g_socket_service_stop (r->service);
  g_socket_listener_close (G_SOCKET_LISTENER (r->service));
  g_clear_object (&r->service);
  if (r->connection != NULL)
    g_io_stream_close (G_IO_STREAM (r->connection), NULL, NULL);
  g_clear_object (&r->connection);
  g_string_free (r->request, TRUE);
  g_clear_pointer (&r->after_upgrade, g_bytes_unref);
  /* Let a read in flight see the close before @r goes. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_free (r);
}

static void
test_close_without_reply (void)
{
  RawServer *r = raw_server_new (TRUE);
  g_autofree char *url = g_strdup_printf ("ws://127.0.0.1:%u/", r->port);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  mcp_transport_connect_async (h.transport, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_true (mcp_transport_connect_finish (h.transport, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* The peer never answers the close frame: the close waits for the
   * handshake, but only so long. */
  mcp_transport_close_async (h.transport, NULL, test_result_cb, &result);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_null (result);
  g_assert_false (h.closed);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_true (mcp_transport_close_finish (h.transport, result, &error));
  g_assert_no_error (error);
  g_assert_true (h.closed);
  g_assert_null (h.reason);

  harness_clear (&h);
  raw_server_free (r);
}

static void
test_bad_utf8 (void)
{
  /* A text frame (FIN, opcode 1, unmasked, 2 bytes) that is not UTF-8. */
  static const guint8 frame[] = { 0x81, 0x02, 0xff, 0xfe };
  RawServer *r = raw_server_new (TRUE);
  g_autofree char *url = g_strdup_printf ("ws://127.0.0.1:%u/", r->port);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Harness h;

  r->after_upgrade = g_bytes_new_static (frame, sizeof frame);
  harness_init (&h, url, NULL, NULL);
  mcp_transport_connect_async (h.transport, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_true (mcp_transport_connect_finish (h.transport, result, &error));
  g_assert_no_error (error);

  /* That breaks the WebSocket protocol itself: the connection ends, and
   * the reason is what libsoup found wrong, not the close code. */
  TEST_WAIT_UNTIL (h.closed);
  g_assert_error (h.reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_test_message ("reason: %s", h.reason->message);
  g_assert_true (g_str_has_prefix (h.reason->message, "The WebSocket connection to “"));
  g_assert_nonnull (strstr (h.reason->message, url));
  g_assert_cmpuint (h.invalid_lines->len, ==, 0);

  harness_clear (&h);
  raw_server_free (r);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_connect_cancelled (void)
{
  RawServer *r = raw_server_new (FALSE);
  g_autofree char *url = g_strdup_printf ("ws://127.0.0.1:%u/", r->port);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(McpTransport) transport = mcp_websocket_transport_new (url, NULL, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* The server never answers the upgrade. */
  mcp_transport_connect_async (transport, cancellable, test_result_cb, &result);
  g_timeout_add (50, cancel_cb, cancellable);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_false (mcp_transport_connect_finish (transport, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (mcp_transport_get_network_errors (transport), ==, 0);

  raw_server_free (r);
}

static void
test_close_while_connecting (void)
{
  RawServer *r = raw_server_new (FALSE);
  g_autofree char *url = g_strdup_printf ("ws://127.0.0.1:%u/", r->port);
  g_autoptr(GAsyncResult) connect_result = NULL;
  g_autoptr(GAsyncResult) close_result = NULL;
  g_autoptr(GError) error = NULL;
  Harness h;

  harness_init (&h, url, NULL, NULL);
  mcp_transport_connect_async (h.transport, NULL, test_result_cb, &connect_result);
  TEST_WAIT_UNTIL (r->connection != NULL);
  mcp_transport_close_async (h.transport, NULL, test_result_cb, &close_result);
  TEST_WAIT_UNTIL (connect_result != NULL && close_result != NULL);
  g_assert_false (mcp_transport_connect_finish (h.transport, connect_result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (mcp_transport_close_finish (h.transport, close_result, NULL));
  g_assert_true (h.closed);
  g_assert_null (h.reason);

  harness_clear (&h);
  raw_server_free (r);
}

/* Tests against the fixture executable */

typedef struct
{
  GSubprocess *process;
  guint16      port;
} Fixture;

static const char *
ws_fixture_path (void)
{
  static char *path;

  if (path == NULL)
    {
      const char *env = g_getenv ("MCP_TEST_WS_FIXTURE_SERVER");

      if (env != NULL)
        path = g_strdup (env);
      else
        path = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "fixtures",
                                 "mcp-ws-fixture-server", NULL);
    }
  return path;
}

static void
fixture_start (Fixture    *f,
               const char *arg1,
               const char *arg2)
{
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (g_getenv ("G_TEST_BUILDDIR"));
  g_assert_true (g_file_test (ws_fixture_path (), G_FILE_TEST_IS_EXECUTABLE));

  f->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                 ws_fixture_path (), "--port", "0", arg1, arg2, NULL);
  g_assert_no_error (error);

  f->port = test_read_listening_port (f->process);
}

static void
fixture_stop (Fixture *f)
{
  g_subprocess_force_exit (f->process);
  g_subprocess_wait (f->process, NULL, NULL);
  g_clear_object (&f->process);
}

static void
test_fixture_tools (void)
{
  Fixture f;
  g_autofree char *url = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Harness h;

  fixture_start (&f, NULL, NULL);
  url = g_strdup_printf ("ws://127.0.0.1:%u", f.port);

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_server_info_get_name (mcp_client_get_server_info (h.client)), ==,
                   "mcp-ws-fixture-server");

  tools = list_tools (&h, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 2);
  g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, 0)), ==, "echo");
  g_assert_cmpstr (mcp_tool_get_name (g_ptr_array_index (tools, 1)), ==, "slow");

  result = test_client_call_tool_message (h.client, "echo", "from the fixture", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (result), ==, "from the fixture");

  harness_clear (&h);
  fixture_stop (&f);
}

static void
test_fixture_ide_token (void)
{
  Fixture f;
  g_autofree char *url = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *lock_path = NULL;
  g_autofree char *lock_json = NULL;
  g_autoptr(GFile) lock_file = NULL;
  g_autoptr(McpIdeLock) lock = NULL;
  g_auto(GStrv) headers = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  Harness h;

  fixture_start (&f, "--token", "tok-123");
  url = g_strdup_printf ("ws://127.0.0.1:%u", f.port);

  /* Without the token the upgrade is refused. */
  harness_init (&h, url, NULL, NULL);
  g_assert_false (harness_connect (&h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  harness_clear (&h);
  g_clear_error (&error);

  /* With the token from the IDE's lock file it is accepted. */
  dir = g_dir_make_tmp ("plugboard-ws-XXXXXX", &error);
  g_assert_no_error (error);
  lock_path = g_strdup_printf ("%s/%u.lock", dir, f.port);
  lock_json = g_strdup ("{\"pid\":1,\"workspaceFolders\":[\"/w\"],\"ideName\":\"Test IDE\","
                        "\"transport\":\"ws\",\"authToken\":\"tok-123\"}");
  g_assert_true (g_file_set_contents (lock_path, lock_json, -1, &error));
  lock_file = g_file_new_for_path (lock_path);
  lock = mcp_ide_lock_new_from_file (lock_file, &error);
  g_assert_no_error (error);
  g_clear_pointer (&url, g_free);
  url = mcp_ide_lock_dup_url (lock);
  headers = mcp_ide_lock_dup_headers (lock);

  harness_init (&h, url, (const char * const *) headers, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);
  result = test_client_call_tool_message (h.client, "echo", "ide", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (test_result_first_text (result), ==, "ide");
  harness_clear (&h);

  g_assert_cmpint (g_unlink (lock_path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  fixture_stop (&f);
}

static void
test_fixture_close_after (void)
{
  Fixture f;
  g_autofree char *url = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  Harness h;

  /* initialize, notifications/initialized, then the third message. */
  fixture_start (&f, "--close-after", "3");
  url = g_strdup_printf ("ws://127.0.0.1:%u", f.port);

  harness_init (&h, url, NULL, NULL);
  g_assert_true (harness_connect (&h, &error));
  g_assert_no_error (error);

  tools = list_tools (&h, &error);
  /* The answer may or may not beat the close; the close must come. */
  g_clear_error (&error);
  TEST_WAIT_UNTIL (h.closed);
  g_assert_error (h.reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  expected = g_strdup_printf ("The server at “%s” closed the WebSocket: 1011 fixture closing", url);
  g_assert_cmpstr (h.reason->message, ==, expected);

  harness_clear (&h);
  fixture_stop (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (15);

  g_test_add_func ("/websocket/connect/initialize-tools-echo", test_connect_initialize);
  g_test_add_func ("/websocket/connect/custom-headers", test_custom_headers);
  g_test_add_func ("/websocket/connect/bad-header", test_bad_header);
  g_test_add_func ("/websocket/connect/unauthorized", test_unauthorized);
  g_test_add_func ("/websocket/connect/unauthorized-provider-retry", test_unauthorized_provider_retry);
  g_test_add_func ("/websocket/connect/unauthorized-provider-declines", test_unauthorized_provider_declines);
  g_test_add_func ("/websocket/connect/upgrade-refused", test_upgrade_refused);
  g_test_add_func ("/websocket/connect/no-subprotocol", test_no_subprotocol);
  g_test_add_func ("/websocket/connect/refused", test_connection_refused);
  g_test_add_func ("/websocket/connect/invalid-url", test_invalid_url);
  g_test_add_func ("/websocket/frames/invalid", test_invalid_frames);
  g_test_add_func ("/websocket/frames/large", test_large_frames);
  g_test_add_func ("/websocket/close/owner", test_owner_close);
  g_test_add_func ("/websocket/close/server-code-reason", test_server_close);
  g_test_add_func ("/websocket/close/server-code-only", test_server_close_no_reason);
  g_test_add_func ("/websocket/close/dropped", test_server_drops_connection);
  g_test_add_func ("/websocket/close/bad-utf8", test_bad_utf8);
  g_test_add_func ("/websocket/close/no-reply-bounded", test_close_without_reply);
  g_test_add_func ("/websocket/close/while-connecting", test_close_while_connecting);
  g_test_add_func ("/websocket/connect/cancelled", test_connect_cancelled);
  g_test_add_func ("/websocket/describe/hides-secrets", test_describe_hides_secrets);
  g_test_add_func ("/websocket/fixture/tools", test_fixture_tools);
  g_test_add_func ("/websocket/fixture/ide-token", test_fixture_ide_token);
  g_test_add_func ("/websocket/fixture/close-after", test_fixture_close_after);

  return g_test_run ();
}
