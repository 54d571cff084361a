/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-http"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "mcp-error.h"
#include "mcp-http-transport.h"

#include "bench-common.h"
#include "test-util.h"

/* Sequential and pipelined Streamable HTTP tools/call round trips against
 * mcp-http-echo-server on 127.0.0.1, three ways: McpHttpTransport under
 * McpClient, the TypeScript SDK client (ts-http-client.mjs under node) and
 * a bare libsoup POST of the same bytes (soup_session_send_and_read_async,
 * no JSON handling). Each runs in a process of its own so that its peak
 * memory is its own; this process picks the port, starts the server, starts
 * the clients, reads back one JSON line from each and prints the table.
 *
 *   bench-http ECHO_SERVER [TS_CLIENT_SCRIPT]
 *   bench-http --raw-only URL        (child: prints one JSON line)
 *   bench-http --plugboard-only URL  (child: prints one JSON line)
 */

/* The exact body the raw client POSTs, and the body mcp-http-echo-server
 * answers to it; McpClient and the TypeScript SDK send the same request
 * with their own ids. */
#define REQUEST_BODY \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"," \
  "\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hello\"}}}"
#define RESPONSE_BODY \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" \
  "{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}}"
#define INITIALIZE_BODY \
  "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\"," \
  "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}," \
  "\"clientInfo\":{\"name\":\"plugboard-bench-raw\",\"version\":\"1.0.0\"}}}"
#define PROTOCOL_VERSION "2025-11-25"

/* ---- bare libsoup -------------------------------------------------------- */

typedef struct
{
  SoupSession  *session;
  const char   *url;
  GUri         *uri;
  char         *session_id;
  GBytes       *request_body;
} RawRun;

static SoupMessage *
raw_message_new (RawRun *run,
                 GBytes *body)
{
  SoupMessage *message = soup_message_new_from_uri (SOUP_METHOD_POST, run->uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
  if (run->session_id != NULL)
    {
      soup_message_headers_replace (headers, "Mcp-Session-Id", run->session_id);
      soup_message_headers_replace (headers, "MCP-Protocol-Version", PROTOCOL_VERSION);
    }
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  /* libsoup gives every non-idempotent request (POST) a fresh connection
   * unless told otherwise: a new TCP connection and proxy lookup per call. */
  soup_message_set_flags (message, SOUP_MESSAGE_IDEMPOTENT);
  return message;
}

/* The whole check is one status and one memcmp: no JSON handling. */
static gboolean
raw_check_response (GObject       *object,
                    GAsyncResult  *result,
                    gpointer       reply,
                    GError       **error)
{
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  gsize len;
  const char *data = g_bytes_get_data (reply, &len);

  if (soup_message_get_status (message) != SOUP_STATUS_OK)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_HTTP,
                   "The echo server answered HTTP %u %s instead of 200",
                   soup_message_get_status (message),
                   soup_message_get_reason_phrase (message));
      return FALSE;
    }
  if (len != sizeof RESPONSE_BODY - 1 || memcmp (data, RESPONSE_BODY, len) != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   "The echo server answered a body other than the expected one "
                   "(%" G_GSIZE_FORMAT " bytes: %.*s)",
                   len, (int) MIN (len, 200), data);
      return FALSE;
    }

  return TRUE;
}

static void
raw_start (BenchCalls          *calls,
           GAsyncReadyCallback  callback)
{
  RawRun *run = calls->user_data;
  g_autoptr(SoupMessage) message = raw_message_new (run, run->request_body);

  bench_calls_stamp (calls);
  soup_session_send_and_read_async (run->session, message, G_PRIORITY_DEFAULT, NULL,
                                    callback, calls);
}

static gpointer
raw_finish (GObject       *object,
            GAsyncResult  *result,
            GError       **error)
{
  return soup_session_send_and_read_finish (SOUP_SESSION (object), result, error);
}

/* Initialize to get a session id: the server refuses calls without one. */
static gboolean
raw_initialize (RawRun   *run,
                gboolean *hung,
                GError  **error)
{
  g_autoptr(GBytes) init_body = g_bytes_new_static (INITIALIZE_BODY, sizeof INITIALIZE_BODY - 1);
  g_autoptr(SoupMessage) message = raw_message_new (run, init_body);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) body = NULL;
  const char *session_id;

  soup_session_send_and_read_async (run->session, message, G_PRIORITY_DEFAULT, NULL,
                                    test_result_cb, &result);
  while (result == NULL && !*hung)
    g_main_context_iteration (NULL, TRUE);
  if (*hung)
    return TRUE;

  body = soup_session_send_and_read_finish (run->session, result, error);
  if (body == NULL)
    {
      g_prefix_error (error, "POST initialize to %s failed: ", run->url);
      return FALSE;
    }
  session_id = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                             "Mcp-Session-Id");
  if (soup_message_get_status (message) != SOUP_STATUS_OK || session_id == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_HTTP,
                   "POST initialize to %s answered HTTP %u %s%s", run->url,
                   soup_message_get_status (message),
                   soup_message_get_reason_phrase (message),
                   session_id == NULL ? " without an Mcp-Session-Id header" : "");
      return FALSE;
    }

  run->session_id = g_strdup (session_id);
  return TRUE;
}

static gboolean
run_raw (const char   *url,
         BenchResult  *result,
         GError      **error)
{
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(GBytes) request_body = g_bytes_new_static (REQUEST_BODY, sizeof REQUEST_BODY - 1);
  g_autoptr(GUri) uri = NULL;
  g_autofree char *where = g_strdup_printf (" to %s", url);
  RawRun run = { 0 };
  BenchCalls calls = {
    .start = raw_start,
    .finish = raw_finish,
    .check = raw_check_response,
    .free_reply = (GDestroyNotify) g_bytes_unref,
    .user_data = &run,
    .who = "bare libsoup",
    .call_name = "POST",
    .where = where,
  };
  gboolean hung = FALSE;
  guint guard_id;
  gboolean ok;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, error);
  if (uri == NULL)
    {
      g_prefix_error (error, "'%s' is not a URL: ", url);
      return FALSE;
    }
  if (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "'%s' is not an http:// URL", url);
      return FALSE;
    }

  /* As McpHttpTransport's session: no session-wide timeout. */
  session = soup_session_new_with_options ("timeout", 0, "idle-timeout", 0, NULL);
  run.session = session;
  run.url = url;
  run.uri = uri;
  run.request_body = request_body;

  guard_id = test_deadline (BENCH_HANG_GUARD_SECONDS, &hung);

  if (!raw_initialize (&run, &hung, error))
    ok = FALSE;
  else if (hung)
    {
      bench_calls_hang_error (&calls, error);
      ok = FALSE;
    }
  else
    ok = bench_calls_run (&calls, &hung, result, error);

  if (!hung)
    g_source_remove (guard_id);
  g_free (run.session_id);
  if (!ok)
    return FALSE;

  result->peak_rss_kb = bench_read_peak_rss_kb ();
  result->ran = TRUE;
  return TRUE;
}

/* ---- McpClient over McpHttpTransport ------------------------------------ */

static gboolean
run_plugboard (const char   *url,
               BenchResult  *result,
               GError      **error)
{
  g_autoptr(McpTransport) transport = mcp_http_transport_new (url, NULL, NULL);

  return bench_run_plugboard (transport, url, result, error);
}

/* Binds 127.0.0.1:0 to learn a free port, then lets it go for the server. */
static guint16
pick_free_port (GError **error)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (socket == NULL ||
      !g_socket_bind (socket, any_port, FALSE, error) ||
      (bound = g_socket_get_local_address (socket, error)) == NULL)
    {
      g_prefix_error (error, "Finding a free port on 127.0.0.1 failed: ");
      return 0;
    }

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* Starts the echo server on a port picked here and waits for its
 * "listening on URL" line; returns the URL. The server's stdin stays a pipe
 * to us, so it also ends if we die. */
static char *
start_server (const char   *echo_server,
              GSubprocess **out_server,
              GError      **error)
{
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *port_arg = NULL;
  g_autofree char *line = NULL;
  guint16 port;

  port = pick_free_port (error);
  if (port == 0)
    return NULL;
  port_arg = g_strdup_printf ("%u", port);

  server = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                             error, echo_server, "--port", port_arg, NULL);
  if (server == NULL)
    {
      g_prefix_error (error, "Starting %s failed: ", echo_server);
      return NULL;
    }

  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, error);
  if (line == NULL || !g_str_has_prefix (line, "listening on http://"))
    {
      if (error != NULL && *error != NULL)
        g_prefix_error (error, "Reading the first line of %s failed: ", echo_server);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     "%s --port %u did not say it was listening (%s)", echo_server, port,
                     line == NULL ? "it closed its stdout; see its messages above"
                                  : line);
      g_subprocess_force_exit (server);
      g_subprocess_wait (server, NULL, NULL);
      return NULL;
    }

  *out_server = g_steal_pointer (&server);
  return g_strdup (line + strlen ("listening on "));
}

static gboolean
stop_server (GSubprocess  *server,
             GError      **error)
{
  /* End of file on its stdin is its signal to go. */
  if (!g_output_stream_close (g_subprocess_get_stdin_pipe (server), NULL, error) ||
      !g_subprocess_wait_check (server, NULL, error))
    {
      g_prefix_error (error, "The echo server did not exit cleanly: ");
      return FALSE;
    }

  return TRUE;
}

static int
run_all (const char *self,
         const char *echo_server,
         const char *ts_script)
{
  BenchResult raw = { 0 }, plugboard = { 0 }, ts = { 0 };
  g_autofree char *ts_skipped = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) server = NULL;
  gboolean failed;
  GError *error = NULL;

  url = start_server (echo_server, &server, &error);
  if (url == NULL)
    {
      g_printerr ("bench-http: %s\n", error->message);
      g_clear_error (&error);
      g_print ("FAILED: the echo server did not start; see the message above.\n");
      return EXIT_FAILURE;
    }

  failed = !bench_run_children ("bench-http", self, url, "bare libsoup",
                                ts_script, "ts-http-client.mjs",
                                &raw, &plugboard, &ts, &ts_skipped);
  bench_print_header ("Streamable HTTP tools/call round trips against mcp-http-echo-server at %s", url);
  bench_print_table ("bare libsoup POST", NULL, TRUE, &raw, &plugboard, &ts, ts_skipped);
  failed |= !bench_compare_traced ("bench-http", self, url);

  if (!stop_server (server, &error))
    {
      g_printerr ("bench-http: %s\n", error->message);
      g_clear_error (&error);
      failed = TRUE;
    }

  return bench_finish (failed);
}

static const BenchProgram program = {
  /* Sized so that the slowest client (the TypeScript SDK, about 1 ms a call
   * here) keeps the whole run well under 90 s on two cores. */
  .defaults = { .warmup = 200, .calls = 3000, .pipelined = 6000, .window = 16 },
  .name = "bench-http",
  .summary = "Streamable HTTP tools/call benchmark",
  .raw_help = "Run the bare libsoup part only and print JSON",
  .run_raw = run_raw,
  .run_plugboard = run_plugboard,
  .run_all = run_all,
};

int
main (int   argc,
      char *argv[])
{
  return bench_main (&program, argc, argv);
}
