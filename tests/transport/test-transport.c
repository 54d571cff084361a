/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-transport"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-remote-transport.h"
#include "mcp-sse-transport.h"
#include "mcp-transport.h"
#include "mcp-websocket-transport.h"
#include "test-loopback-transport.h"
#include "test-util.h"

/* The McpTransport base class, through the loopback subclass of
 * tests/common whose "server" is the test itself: what the client sends is
 * kept, what the test wants the server to say is emitted. */

/* ------------------------------------------------------------------------ */

static void
server_says (TestLoopbackTransport *transport,
             const char    *json)
{
  g_autoptr(GPtrArray) messages = mcp_message_parse (json, -1, NULL);

  g_assert_nonnull (messages);
  for (guint i = 0; i < messages->len; i++)
    mcp_transport_emit_message (MCP_TRANSPORT (transport), g_ptr_array_index (messages, i));
}

/* The id of the last message the client sent. */
static gint64
last_sent_id (TestLoopbackTransport *transport)
{
  gint64 id = -1;

  g_assert_cmpuint (transport->sent->len, >, 0);
  g_assert_true (mcp_message_get_int_id (g_ptr_array_index (transport->sent, transport->sent->len - 1),
                                         &id));
  return id;
}

/* A client over the loopback transport, through the handshake. */
static McpClient *
connected_client (TestLoopbackTransport **out_transport)
{
  TestLoopbackTransport *transport = test_loopback_transport_new (FALSE);
  McpClient *client = mcp_client_new (MCP_TRANSPORT (transport));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;

  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  while (transport->sent->len == 0)
    g_main_context_iteration (NULL, TRUE);

  reply = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                           "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                           "\"serverInfo\":{\"name\":\"loopback\",\"version\":\"1\"}}}",
                           last_sent_id (transport));
  server_says (transport, reply);
  g_assert_true (mcp_client_connect_finish (client, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);

  *out_transport = transport;
  return client;
}

static void
test_request_failed_fails_that_request (void)
{
  TestLoopbackTransport *transport = NULL;
  g_autoptr(McpClient) client = connected_client (&transport);
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) expired = g_error_new_literal (MCP_ERROR, MCP_ERROR_SESSION_EXPIRED,
                                                   "The session expired");
  g_autoptr(JsonNode) id_node = NULL;
  g_autofree char *reply = NULL;
  gint64 first_id, second_id;

  mcp_client_ping_async (client, NULL, test_result_cb, &first);
  first_id = last_sent_id (transport);
  mcp_client_ping_async (client, NULL, test_result_cb, &second);
  second_id = last_sent_id (transport);

  /* The transport gives up on the first; the second still gets its answer. */
  id_node = mcp_message_id_new_int (first_id);
  mcp_transport_emit_request_failed (MCP_TRANSPORT (transport), id_node, expired);
  g_assert_false (mcp_client_ping_finish (client, test_wait_result (&first, NULL), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);

  reply = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{}}",
                           second_id);
  server_says (transport, reply);
  g_assert_true (mcp_client_ping_finish (client, test_wait_result (&second, NULL), NULL));

  /* A failure for a request that is no longer pending changes nothing. */
  mcp_transport_emit_request_failed (MCP_TRANSPORT (transport), id_node, expired);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);

  g_object_unref (transport);
}

static void
test_health_third_error_closes (void)
{
  g_autoptr(TestLoopbackTransport) transport = test_loopback_transport_new (FALSE);
  g_autoptr(GError) reset = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE,
                                                 "Connection reset by peer");
  g_autoptr(GError) not_found = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "404");

  mcp_transport_set_connected (MCP_TRANSPORT (transport));

  g_assert_false (mcp_transport_note_network_error (MCP_TRANSPORT (transport), reset));
  g_assert_false (mcp_transport_note_network_error (MCP_TRANSPORT (transport), reset));
  g_assert_cmpuint (mcp_transport_get_network_errors (MCP_TRANSPORT (transport)), ==, 2);

  /* Errors that are not about the network do not count… */
  g_assert_false (mcp_transport_note_network_error (MCP_TRANSPORT (transport), not_found));
  g_assert_cmpuint (mcp_transport_get_network_errors (MCP_TRANSPORT (transport)), ==, 2);

  /* …and a success starts the count again. */
  mcp_transport_note_success (MCP_TRANSPORT (transport));
  g_assert_cmpuint (mcp_transport_get_network_errors (MCP_TRANSPORT (transport)), ==, 0);
  g_assert_false (mcp_transport_note_network_error (MCP_TRANSPORT (transport), reset));
  g_assert_false (mcp_transport_note_network_error (MCP_TRANSPORT (transport), reset));
  g_assert_false (mcp_transport_is_closed (MCP_TRANSPORT (transport)));

  g_assert_true (mcp_transport_note_network_error (MCP_TRANSPORT (transport), reset));
  g_assert_true (mcp_transport_is_closed (MCP_TRANSPORT (transport)));

  /* Once closed, nothing more is counted or closed again. */
  g_assert_false (mcp_transport_note_network_error (MCP_TRANSPORT (transport), reset));
}

typedef struct
{
  guint   count;
  GError *reason;
} ClosedLog;

static void
on_client_closed (McpClient    *client,
                  const GError *reason,
                  ClosedLog    *log)
{
  log->count++;
  g_clear_error (&log->reason);
  log->reason = reason ? g_error_copy (reason) : NULL;
}

static void
test_health_close_reaches_client (void)
{
  TestLoopbackTransport *transport = NULL;
  g_autoptr(McpClient) client = connected_client (&transport);
  g_autoptr(GAsyncResult) pending = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) refused = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED,
                                                   "Connection refused");
  ClosedLog log = { 0 };

  g_signal_connect (client, "closed", G_CALLBACK (on_client_closed), &log);
  mcp_client_ping_async (client, NULL, test_result_cb, &pending);

  for (guint i = 0; i < MCP_TRANSPORT_MAX_NETWORK_ERRORS; i++)
    mcp_transport_note_network_error (MCP_TRANSPORT (transport), refused);

  /* The pending request fails with the reason, which tells what to do. */
  g_assert_false (mcp_client_ping_finish (client, test_wait_result (&pending, NULL), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (error->message, "reconnect"));
  g_assert_nonnull (strstr (error->message, "Connection refused"));
  g_assert_cmpuint (log.count, ==, 1);
  g_assert_error (log.reason, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);

  g_clear_error (&log.reason);
  g_object_unref (transport);
}

static void
test_error_is_terminal (void)
{
  const struct {
    GQuark   domain;
    int      code;
    gboolean terminal;
  } cases[] = {
    { G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED, TRUE },
    { G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, TRUE },
    { G_IO_ERROR, G_IO_ERROR_TIMED_OUT, TRUE },
    { G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE, TRUE },
    { G_IO_ERROR, G_IO_ERROR_CANCELLED, FALSE },
    { G_IO_ERROR, G_IO_ERROR_INVALID_DATA, FALSE },
    { G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE, TRUE },
    { MCP_ERROR, MCP_ERROR_NETWORK, TRUE },
    { MCP_ERROR, MCP_ERROR_SESSION_EXPIRED, FALSE },
    { MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INTERNAL_ERROR, FALSE },
  };

  g_assert_false (mcp_transport_error_is_terminal (NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = g_error_new_literal (cases[i].domain, cases[i].code, "x");

      g_assert_cmpint (mcp_transport_error_is_terminal (error), ==, cases[i].terminal);
    }
}

static void
count_closed (McpTransport *transport,
              const GError *reason,
              guint        *count)
{
  (*count)++;
  g_assert_cmpstr (reason->message, ==, "first");
}

static void
test_closed_once (void)
{
  g_autoptr(TestLoopbackTransport) transport = test_loopback_transport_new (FALSE);
  g_autoptr(GError) first = g_error_new_literal (MCP_ERROR, MCP_ERROR_FAILED, "first");
  g_autoptr(GError) second = g_error_new_literal (MCP_ERROR, MCP_ERROR_FAILED, "second");
  g_autoptr(McpMessage) message = mcp_message_new_notification ("x", NULL);
  g_autoptr(GError) error = NULL;
  guint count = 0;

  g_signal_connect (transport, "closed", G_CALLBACK (count_closed), &count);

  mcp_transport_set_connected (MCP_TRANSPORT (transport));
  g_assert_true (mcp_transport_is_connected (MCP_TRANSPORT (transport)));
  mcp_transport_emit_closed (MCP_TRANSPORT (transport), first);
  mcp_transport_emit_closed (MCP_TRANSPORT (transport), second);
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (mcp_transport_is_closed (MCP_TRANSPORT (transport)));
  g_assert_false (mcp_transport_is_connected (MCP_TRANSPORT (transport)));

  g_assert_false (mcp_transport_send (MCP_TRANSPORT (transport), message, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_cmpuint (transport->sent->len, ==, 0);
}

/* McpRemoteTransport: what the HTTP, SSE and WebSocket transports share. */

static McpTransport *
new_remote (guint               which,
            const char         *url,
            const char * const *headers)
{
  switch (which)
    {
    case 0:
      return mcp_http_transport_new (url, headers, NULL);
    case 1:
      return mcp_sse_transport_new (url, headers, NULL);
    default:
      return mcp_websocket_transport_new (url, headers, NULL);
    }
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_remote_properties (void)
{
  const char *headers[] = { "X-A: 1", "X-B: two", NULL };
  const char *urls[] = { "http://127.0.0.1:9/mcp", "http://127.0.0.1:9/sse", "ws://127.0.0.1:9/ws" };

  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_autoptr(McpTransport) transport = new_remote (i, urls[i], headers);
      McpRemoteTransport *remote = MCP_REMOTE_TRANSPORT (transport);
      g_autofree char *url = NULL;
      g_auto(GStrv) got_headers = NULL;
      g_autoptr(McpAuthProvider) provider = NULL;
      guint timeout = 0;
      guint notified = 0;

      g_assert_true (MCP_IS_REMOTE_TRANSPORT (transport));
      g_assert_cmpstr (mcp_remote_transport_get_url (remote), ==, urls[i]);
      g_assert_true (g_strv_equal (mcp_remote_transport_get_headers (remote), headers));
      g_assert_null (mcp_remote_transport_get_auth_provider (remote));

      g_object_get (transport,
                    "url", &url,
                    "headers", &got_headers,
                    "auth-provider", &provider,
                    "request-timeout", &timeout,
                    NULL);
      g_assert_cmpstr (url, ==, urls[i]);
      g_assert_true (g_strv_equal ((const char * const *) got_headers, headers));
      g_assert_null (provider);
      g_assert_cmpuint (timeout, ==, mcp_remote_transport_get_request_timeout (remote));

      g_signal_connect (transport, "notify::request-timeout", G_CALLBACK (count_notify), &notified);
      mcp_remote_transport_set_request_timeout (remote, timeout + 7);
      g_assert_cmpuint (mcp_remote_transport_get_request_timeout (remote), ==, timeout + 7);
      g_assert_cmpuint (notified, ==, 1);
      g_object_set (transport, "request-timeout", timeout + 7, NULL);
      g_assert_cmpuint (notified, ==, 1);
      g_object_set (transport, "request-timeout", 0u, NULL);
      g_assert_cmpuint (mcp_remote_transport_get_request_timeout (remote), ==, 0);
      g_assert_cmpuint (notified, ==, 2);
    }

  /* The public getters of each transport still answer. */
  {
    g_autoptr(McpTransport) http = new_remote (0, urls[0], NULL);
    g_autoptr(McpTransport) sse = new_remote (1, urls[1], NULL);
    g_autoptr(McpTransport) ws = new_remote (2, urls[2], NULL);

    g_assert_cmpstr (mcp_http_transport_get_url (MCP_HTTP_TRANSPORT (http)), ==, urls[0]);
    g_assert_cmpstr (mcp_sse_transport_get_url (MCP_SSE_TRANSPORT (sse)), ==, urls[1]);
    g_assert_cmpstr (mcp_websocket_transport_get_url (MCP_WEBSOCKET_TRANSPORT (ws)), ==, urls[2]);
    mcp_http_transport_set_request_timeout (MCP_HTTP_TRANSPORT (http), 1234);
    g_assert_cmpuint (mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (http)), ==, 1234);
    g_assert_cmpuint (mcp_http_transport_get_request_timeout (MCP_HTTP_TRANSPORT (http)), ==, 1234);
  }
}

static void
test_remote_describe_hides_secrets (void)
{
  const char *secret[] = {
    "http://user:pw@127.0.0.1:9/mcp?token=abc",
    "https://user:pw@example.org/sse?token=abc",
    "ws://user:pw@127.0.0.1:9/ws?token=abc",
  };
  const char *shown[] = {
    "http://127.0.0.1:9/mcp",
    "https://example.org/sse",
    "ws://127.0.0.1:9/ws",
  };

  for (guint i = 0; i < G_N_ELEMENTS (secret); i++)
    {
      g_autoptr(McpTransport) hidden = new_remote (i, secret[i], NULL);
      g_autoptr(McpTransport) plain = new_remote (i, shown[i], NULL);
      g_autofree char *what = mcp_transport_describe (hidden);
      g_autofree char *plain_what = mcp_transport_describe (plain);

      g_assert_cmpstr (what, ==, shown[i]);
      g_assert_null (strstr (what, "pw"));
      g_assert_null (strstr (what, "token"));
      g_assert_cmpstr (plain_what, ==, shown[i]);
    }

  /* Not a URL at all: shown as given, no crash. */
  {
    g_autoptr(McpTransport) odd = new_remote (0, "not a url", NULL);
    g_autofree char *what = mcp_transport_describe (odd);

    g_assert_cmpstr (what, ==, "not a url");
  }
}

static void
test_remote_check_headers (void)
{
  const struct {
    const char *headers[3];
    guint       bad;   /* 1-based; 0 when all are good */
  } cases[] = {
    { { "X-A: 1", "Authorization: Bearer x", NULL }, 0 },
    { { "X-Empty:", NULL }, 0 },
    { { "X-A: 1", "no colon secret", NULL }, 2 },
    { { ": secret", NULL }, 1 },
    { { "X A: secret", NULL }, 1 },
    { { "X/A: secret", NULL }, 1 },
    { { "X-A: sec\r\nret", NULL }, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      for (guint which = 0; which < 3; which++)
        {
          g_autoptr(McpTransport) transport = new_remote (which, "http://127.0.0.1:9/mcp",
                                                          cases[i].headers);
          g_autoptr(GError) error = NULL;
          gboolean ok = mcp_remote_transport_check_headers (MCP_REMOTE_TRANSPORT (transport), &error);

          if (cases[i].bad == 0)
            {
              g_assert_no_error (error);
              g_assert_true (ok);
            }
          else
            {
              g_autofree char *needle = g_strdup_printf ("Header %u ", cases[i].bad);

              g_assert_false (ok);
              g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
              g_assert_nonnull (strstr (error->message, needle));
              g_assert_nonnull (strstr (error->message, "http://127.0.0.1:9/mcp"));
              /* The value may be a token: it is never repeated. */
              g_assert_null (strstr (error->message, "secret"));
              g_assert_null (strstr (error->message, "sec"));
            }
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transport/base/request-failed", test_request_failed_fails_that_request);
  g_test_add_func ("/transport/base/health-third-error-closes", test_health_third_error_closes);
  g_test_add_func ("/transport/base/health-close-reaches-client", test_health_close_reaches_client);
  g_test_add_func ("/transport/base/error-is-terminal", test_error_is_terminal);
  g_test_add_func ("/transport/base/closed-once", test_closed_once);
  g_test_add_func ("/transport/remote/properties", test_remote_properties);
  g_test_add_func ("/transport/remote/describe-hides-secrets", test_remote_describe_hides_secrets);
  g_test_add_func ("/transport/remote/check-headers", test_remote_check_headers);

  return g_test_run ();
}
