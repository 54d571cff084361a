/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-http"

#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"

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

/* Only to turn a hang into a failure; the runs take seconds. */
#define HANG_GUARD_SECONDS 300

#define TARGET_MEDIAN_RATIO       1.2
#define TARGET_P99_RATIO          2.0
#define TARGET_PIPELINED_RATIO    0.5
#define TARGET_PEAK_KB            (10 * 1024)

typedef struct
{
  gboolean ran;
  double   median_us;
  double   p99_us;
  double   calls_per_sec;
  double   pipelined_calls_per_sec;
  gint64   peak_rss_kb;
} BenchResult;

/* Sized so that the slowest client (the TypeScript SDK, about 1 ms a call
 * here) keeps the whole run well under 90 s on two cores. */
static int opt_warmup = 200;
static int opt_calls = 3000;
static int opt_pipelined = 6000;
static int opt_window = 16;
static gboolean opt_raw_only;
static gboolean opt_plugboard_only;

static const GOptionEntry entries[] = {
  { "warmup", 0, 0, G_OPTION_ARG_INT, &opt_warmup, "Warm-up calls before measuring", "N" },
  { "calls", 0, 0, G_OPTION_ARG_INT, &opt_calls, "Sequential calls measured", "N" },
  { "pipelined-calls", 0, 0, G_OPTION_ARG_INT, &opt_pipelined, "Pipelined calls measured", "N" },
  { "window", 0, 0, G_OPTION_ARG_INT, &opt_window, "Pipelined calls kept in flight", "N" },
  { "raw-only", 0, 0, G_OPTION_ARG_NONE, &opt_raw_only, "Run the bare libsoup part only and print JSON", NULL },
  { "plugboard-only", 0, 0, G_OPTION_ARG_NONE, &opt_plugboard_only, "Run the McpClient part only and print JSON", NULL },
  { NULL }
};

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Nearest rank, as ts-client.mjs computes it. */
static double
percentile_us (const gint64 *sorted_ns,
               guint         n,
               guint         p)
{
  guint64 rank = ((guint64) n * p + 99) / 100;

  rank = CLAMP (rank, 1, n);
  return sorted_ns[rank - 1] / 1000.0;
}

static void
fill_latencies (BenchResult *result,
                gint64      *latencies_ns,
                guint        n,
                gint64       elapsed_ns)
{
  qsort (latencies_ns, n, sizeof *latencies_ns, compare_gint64);
  result->median_us = percentile_us (latencies_ns, n, 50);
  result->p99_us = percentile_us (latencies_ns, n, 99);
  result->calls_per_sec = n / (elapsed_ns / 1e9);
}

static gint64
read_peak_rss_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, "VmHWM:");
  if (line == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen ("VmHWM:"), NULL, 10);
}

static void
print_result_json (const BenchResult *result)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "median_us");
  json_builder_add_double_value (builder, result->median_us);
  json_builder_set_member_name (builder, "p99_us");
  json_builder_add_double_value (builder, result->p99_us);
  json_builder_set_member_name (builder, "calls_per_sec");
  json_builder_add_double_value (builder, result->calls_per_sec);
  json_builder_set_member_name (builder, "pipelined_calls_per_sec");
  json_builder_add_double_value (builder, result->pipelined_calls_per_sec);
  json_builder_set_member_name (builder, "peak_rss_kb");
  json_builder_add_int_value (builder, result->peak_rss_kb);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  g_print ("%s\n", text);
}

/* ---- bare libsoup -------------------------------------------------------- */

typedef struct
{
  SoupSession  *session;
  const char   *url;
  GUri         *uri;
  char         *session_id;
  GBytes       *request_body;
  GError       *error;
  gboolean      done;

  /* sequential */
  gint64       *latencies;
  int           index;      /* counts warm-up calls too */
  gint64        call_start;
  gint64        measure_start;

  /* pipelined */
  int           started;
  int           finished;
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
raw_check_response (SoupMessage  *message,
                    GBytes       *body,
                    GError      **error)
{
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

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
raw_fail (RawRun *run,
          GError *error)
{
  if (run->error == NULL)
    run->error = error;
  else
    g_error_free (error);
  run->done = TRUE;
}

static void raw_sequential_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data);

static void
raw_sequential_start (RawRun *run)
{
  g_autoptr(SoupMessage) message = raw_message_new (run, run->request_body);

  if (run->index == opt_warmup)
    run->measure_start = now_ns ();
  run->call_start = now_ns ();
  soup_session_send_and_read_async (run->session, message, G_PRIORITY_DEFAULT, NULL,
                                    raw_sequential_cb, run);
}

static void
raw_sequential_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  RawRun *run = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) body = NULL;
  GError *error = NULL;
  gint64 elapsed;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  elapsed = now_ns () - run->call_start;

  if (body == NULL || !raw_check_response (message, body, &error))
    {
      g_prefix_error (&error, "POST %d of the sequential run to %s failed: ", run->index + 1, run->url);
      raw_fail (run, error);
      return;
    }

  if (run->index >= opt_warmup)
    run->latencies[run->index - opt_warmup] = elapsed;

  if (++run->index == opt_warmup + opt_calls)
    run->done = TRUE;
  else
    raw_sequential_start (run);
}

static void raw_pipelined_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data);

static void
raw_pipelined_start (RawRun *run)
{
  g_autoptr(SoupMessage) message = raw_message_new (run, run->request_body);

  run->started++;
  soup_session_send_and_read_async (run->session, message, G_PRIORITY_DEFAULT, NULL,
                                    raw_pipelined_cb, run);
}

static void
raw_pipelined_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  RawRun *run = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) body = NULL;
  GError *error = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);

  run->finished++;
  if (run->done)
    return;

  if (body == NULL || !raw_check_response (message, body, &error))
    {
      g_prefix_error (&error, "POST %d of the pipelined run to %s failed: ", run->finished, run->url);
      raw_fail (run, error);
      return;
    }

  if (run->finished == opt_pipelined)
    run->done = TRUE;
  else if (run->started < opt_pipelined)
    raw_pipelined_start (run);
}

static gboolean
hang_guard_cb (gpointer user_data)
{
  gboolean *hung = user_data;

  *hung = TRUE;
  return G_SOURCE_REMOVE;
}

static void
async_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
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
                                    async_result_cb, &result);
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
  g_autofree gint64 *latencies = g_new (gint64, opt_calls);
  g_autoptr(GUri) uri = NULL;
  RawRun run = { 0 };
  gboolean hung = FALSE;
  guint guard_id;
  gint64 start;

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
  run.latencies = latencies;

  guard_id = g_timeout_add_seconds (HANG_GUARD_SECONDS, hang_guard_cb, &hung);

  if (!raw_initialize (&run, &hung, error))
    {
      g_source_remove (guard_id);
      g_free (run.session_id);
      return FALSE;
    }
  if (hung)
    goto hang;

  raw_sequential_start (&run);
  while (!run.done && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (run.error != NULL)
    goto failed;
  fill_latencies (result, latencies, opt_calls, now_ns () - run.measure_start);

  run.done = FALSE;
  start = now_ns ();
  while (run.started < MIN (opt_window, opt_pipelined))
    raw_pipelined_start (&run);
  while (!run.done && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (run.error != NULL)
    goto failed;
  result->pipelined_calls_per_sec = opt_pipelined / ((now_ns () - start) / 1e9);

  result->peak_rss_kb = read_peak_rss_kb ();

  g_source_remove (guard_id);
  g_free (run.session_id);
  result->ran = TRUE;
  return TRUE;

failed:
  g_source_remove (guard_id);
  g_free (run.session_id);
  g_propagate_error (error, run.error);
  return FALSE;

hang:
  g_free (run.session_id);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
               "The bare libsoup run made no progress for %d s (sequential %d, pipelined %d/%d done)",
               HANG_GUARD_SECONDS, run.index, run.finished, run.started);
  return FALSE;
}

/* ---- McpClient over McpHttpTransport ------------------------------------ */

typedef struct
{
  McpClient    *client;
  JsonObject   *arguments;
  GError       *error;
  gboolean      done;

  /* sequential */
  gint64       *latencies;
  int           index;      /* counts warm-up calls too */
  gint64        call_start;
  gint64        measure_start;

  /* pipelined */
  int           started;
  int           finished;
} PlugboardRun;

static void
plugboard_fail (PlugboardRun *run,
                GError       *error)
{
  if (run->error == NULL)
    run->error = error;
  else
    g_error_free (error);
  run->done = TRUE;
}

static gboolean
check_tool_result (McpToolResult  *result,
                   GError        **error)
{
  GPtrArray *content = mcp_tool_result_get_content (result);

  if (mcp_tool_result_get_is_error (result) ||
      content == NULL || content->len != 1 ||
      g_strcmp0 (mcp_content_get_text (g_ptr_array_index (content, 0)), "hello") != 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           "The echo tool returned something other than the text \"hello\"");
      return FALSE;
    }

  return TRUE;
}

static void sequential_call_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data);

static void
sequential_start_call (PlugboardRun *run)
{
  if (run->index == opt_warmup)
    run->measure_start = now_ns ();
  run->call_start = now_ns ();
  mcp_client_call_tool_async (run->client, "echo", run->arguments, NULL, NULL,
                              sequential_call_cb, run);
}

static void
sequential_call_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  PlugboardRun *run = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;
  gint64 elapsed;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  elapsed = now_ns () - run->call_start;

  if (tool_result == NULL || !check_tool_result (tool_result, &error))
    {
      g_prefix_error (&error, "tools/call %d of the sequential run failed: ", run->index + 1);
      plugboard_fail (run, error);
      return;
    }

  if (run->index >= opt_warmup)
    run->latencies[run->index - opt_warmup] = elapsed;

  if (++run->index == opt_warmup + opt_calls)
    run->done = TRUE;
  else
    sequential_start_call (run);
}

static void pipelined_call_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data);

static void
pipelined_start_call (PlugboardRun *run)
{
  run->started++;
  mcp_client_call_tool_async (run->client, "echo", run->arguments, NULL, NULL,
                              pipelined_call_cb, run);
}

static void
pipelined_call_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PlugboardRun *run = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);

  /* Calls still in flight after a failure finish here too; only count. */
  run->finished++;
  if (run->done)
    return;

  if (tool_result == NULL || !check_tool_result (tool_result, &error))
    {
      g_prefix_error (&error, "tools/call %d of the pipelined run failed: ", run->finished);
      plugboard_fail (run, error);
      return;
    }

  if (run->finished == opt_pipelined)
    run->done = TRUE;
  else if (run->started < opt_pipelined)
    pipelined_start_call (run);
}

static gboolean
run_plugboard (const char   *url,
               BenchResult  *result,
               GError      **error)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(GAsyncResult) async_result = NULL;
  g_autoptr(GAsyncResult) close_result = NULL;
  g_autofree gint64 *latencies = g_new (gint64, opt_calls);
  PlugboardRun run = { 0 };
  gboolean hung = FALSE;
  guint guard_id;
  gint64 start;

  json_object_set_string_member (arguments, "message", "hello");

  guard_id = g_timeout_add_seconds (HANG_GUARD_SECONDS, hang_guard_cb, &hung);

  transport = mcp_http_transport_new (url, NULL, NULL);
  client = mcp_client_new (transport);
  mcp_client_set_client_info (client, "plugboard-bench", PACKAGE_VERSION);

  mcp_client_connect_async (client, NULL, async_result_cb, &async_result);
  while (async_result == NULL && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (!mcp_client_connect_finish (client, async_result, error))
    {
      g_prefix_error (error, "Connecting McpClient to %s failed: ", url);
      g_source_remove (guard_id);
      return FALSE;
    }

  run.client = client;
  run.arguments = arguments;
  run.latencies = latencies;

  sequential_start_call (&run);
  while (!run.done && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (run.error != NULL)
    {
      g_propagate_error (error, run.error);
      g_source_remove (guard_id);
      return FALSE;
    }
  fill_latencies (result, latencies, opt_calls, now_ns () - run.measure_start);

  run.done = FALSE;
  start = now_ns ();
  while (run.started < MIN (opt_window, opt_pipelined))
    pipelined_start_call (&run);
  while (!run.done && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (run.error != NULL)
    {
      g_propagate_error (error, run.error);
      g_source_remove (guard_id);
      return FALSE;
    }
  result->pipelined_calls_per_sec = opt_pipelined / ((now_ns () - start) / 1e9);

  /* Before closing: the figure is the client's steady state. */
  result->peak_rss_kb = read_peak_rss_kb ();

  mcp_client_close_async (client, NULL, async_result_cb, &close_result);
  while (close_result == NULL && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  g_source_remove (guard_id);
  if (!mcp_client_close_finish (client, close_result, error))
    {
      g_prefix_error (error, "Closing McpClient failed: ");
      return FALSE;
    }

  result->ran = TRUE;
  return TRUE;

hang:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
               "The McpClient run made no progress for %d s (sequential %d, pipelined %d/%d done)",
               HANG_GUARD_SECONDS, run.index, run.finished, run.started);
  return FALSE;
}

static gboolean
parse_result_line (const char   *who,
                   const char   *output,
                   BenchResult  *result,
                   GError      **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);
  const char *last = NULL;
  const char *names[] = { "median_us", "p99_us", "calls_per_sec", "pipelined_calls_per_sec", "peak_rss_kb" };
  double *fields[] = { &result->median_us, &result->p99_us, &result->calls_per_sec,
                       &result->pipelined_calls_per_sec, NULL };
  JsonObject *object;

  for (guint i = 0; lines[i] != NULL; i++)
    if (*g_strstrip (lines[i]) != '\0')
      last = lines[i];

  if (last == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s printed no result line on stdout", who);
      return FALSE;
    }

  if (!json_parser_load_from_data (parser, last, -1, error))
    {
      g_prefix_error (error, "%s printed a result line that is not JSON (%s): ", who, last);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s printed a result line that is not a JSON object: %s", who, last);
      return FALSE;
    }
  object = json_node_get_object (json_parser_get_root (parser));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      JsonNode *node = json_object_get_member (object, names[i]);

      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
          (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
           json_node_get_value_type (node) != G_TYPE_INT64))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s printed a result without a number \"%s\": %s", who, names[i], last);
          return FALSE;
        }
      if (fields[i] != NULL)
        *fields[i] = json_node_get_double (node);
      else
        result->peak_rss_kb = (gint64) json_node_get_double (node);
    }

  result->ran = TRUE;
  return TRUE;
}

static gboolean
run_child (const char   *who,
           const char  **argv,
           BenchResult  *result,
           GError      **error)
{
  g_autofree char *output = NULL;
  int wait_status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                     &output, NULL, &wait_status, error))
    {
      g_prefix_error (error, "Starting the %s run (%s) failed: ", who, argv[0]);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (wait_status, error))
    {
      g_prefix_error (error, "The %s run failed (see its messages above): ", who);
      return FALSE;
    }

  return parse_result_line (who, output, result, error);
}

static char *
find_node_modules (const char *ts_script)
{
  const char *env = g_getenv ("MCP_TEST_NODE_MODULES");
  g_autofree char *dir = NULL;

  if (env != NULL && *env != '\0')
    return g_strdup (env);

  dir = g_path_get_dirname (ts_script);
  return g_build_filename (dir, "..", "node_modules", NULL);
}

static void
print_row (const char        *name,
           const BenchResult *r)
{
  if (!r->ran)
    {
      g_print ("  %-24s %10s %10s %11s %13s %10s\n",
               name, "-", "-", "-", "-", "-");
      return;
    }

  g_print ("  %-24s %10.1f %10.1f %11.0f %13.0f %7.1f MB\n",
           name, r->median_us, r->p99_us, r->calls_per_sec,
           r->pipelined_calls_per_sec, r->peak_rss_kb / 1024.0);
}

static void
print_ratio (const char *name,
             gboolean    have,
             double      value,
             const char *target,
             gboolean    met)
{
  if (!have)
    g_print ("  %-38s %9s\n", name, "-");
  else if (target == NULL)
    g_print ("  %-38s %8.2f×\n", name, value);
  else
    g_print ("  %-38s %8.2f×   target %-7s %s\n",
             name, value, target, met ? "met" : "NOT MET");
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
  g_autofree char *warmup = g_strdup_printf ("--warmup=%d", opt_warmup);
  g_autofree char *calls = g_strdup_printf ("--calls=%d", opt_calls);
  g_autofree char *pipelined = g_strdup_printf ("--pipelined-calls=%d", opt_pipelined);
  g_autofree char *window = g_strdup_printf ("--window=%d", opt_window);
  g_autofree char *ts_skipped = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) server = NULL;
  gboolean failed = FALSE;
  GError *error = NULL;

  url = start_server (echo_server, &server, &error);
  if (url == NULL)
    {
      g_printerr ("bench-http: %s\n", error->message);
      g_clear_error (&error);
      g_print ("FAILED: the echo server did not start; see the message above.\n");
      return EXIT_FAILURE;
    }

  {
    const char *argv[] = { self, "--raw-only", warmup, calls, pipelined, window, url, NULL };

    if (!run_child ("bare libsoup", argv, &raw, &error))
      {
        g_printerr ("bench-http: %s\n", error->message);
        g_clear_error (&error);
        failed = TRUE;
      }
  }

  {
    const char *argv[] = { self, "--plugboard-only", warmup, calls, pipelined, window, url, NULL };

    if (!run_child ("McpClient", argv, &plugboard, &error))
      {
        g_printerr ("bench-http: %s\n", error->message);
        g_clear_error (&error);
        failed = TRUE;
      }
  }

  if (ts_script == NULL)
    ts_skipped = g_strdup ("no ts-http-client.mjs path was given");
  else
    {
      const char *node = g_getenv ("MCP_TEST_NODE");
      g_autofree char *node_path = g_find_program_in_path (node != NULL && *node != '\0' ? node : "node");
      g_autofree char *node_modules = find_node_modules (ts_script);
      g_autofree char *sdk = g_build_filename (node_modules, "@modelcontextprotocol", "sdk",
                                               "package.json", NULL);

      if (node_path == NULL)
        ts_skipped = g_strdup_printf ("node (%s) was not found on PATH",
                                      node != NULL && *node != '\0' ? node : "node");
      else if (!g_file_test (sdk, G_FILE_TEST_EXISTS))
        ts_skipped = g_strdup_printf ("@modelcontextprotocol/sdk is not installed (no %s)", sdk);
      else if (!g_file_test (ts_script, G_FILE_TEST_EXISTS))
        ts_skipped = g_strdup_printf ("%s does not exist", ts_script);
      else
        {
          g_autofree char *a_warmup = g_strdup_printf ("%d", opt_warmup);
          g_autofree char *a_calls = g_strdup_printf ("%d", opt_calls);
          g_autofree char *a_pipelined = g_strdup_printf ("%d", opt_pipelined);
          g_autofree char *a_window = g_strdup_printf ("%d", opt_window);
          const char *argv[] = { node_path, ts_script, url,
                                 a_warmup, a_calls, a_pipelined, a_window, NULL };

          if (!run_child ("TypeScript SDK", argv, &ts, &error))
            {
              g_printerr ("bench-http: %s\n", error->message);
              g_clear_error (&error);
              failed = TRUE;
            }
        }
    }

  if (!stop_server (server, &error))
    {
      g_printerr ("bench-http: %s\n", error->message);
      g_clear_error (&error);
      failed = TRUE;
    }

  g_print ("\nStreamable HTTP tools/call round trips against mcp-http-echo-server at %s\n"
           "(%d warm-up, %d measured; pipelined: %d calls, %d in flight)\n\n",
           url, opt_warmup, opt_calls, opt_pipelined, opt_window);
  /* µ is two bytes: one more column of padding for those headers. */
  g_print ("  %-24s %11s %11s %11s %13s %10s\n",
           "client", "median µs", "p99 µs", "calls/s", "pipelined/s", "peak RSS");
  print_row ("bare libsoup POST", &raw);
  print_row ("Plugboard (McpClient)", &plugboard);
  print_row ("TypeScript SDK", &ts);
  if (ts_skipped != NULL)
    g_print ("\n  TypeScript SDK column skipped: %s\n", ts_skipped);

  g_print ("\n  %-38s %9s\n", "ratio", "value");
  print_ratio ("Plugboard/raw median latency", raw.ran && plugboard.ran,
               plugboard.median_us / raw.median_us, "≤ 1.2×",
               plugboard.median_us <= TARGET_MEDIAN_RATIO * raw.median_us);
  print_ratio ("Plugboard/raw p99 latency", raw.ran && plugboard.ran,
               plugboard.p99_us / raw.p99_us, "≤ 2×",
               plugboard.p99_us <= TARGET_P99_RATIO * raw.p99_us);
  print_ratio ("Plugboard/raw pipelined throughput", raw.ran && plugboard.ran,
               plugboard.pipelined_calls_per_sec / raw.pipelined_calls_per_sec, "≥ 0.5×",
               plugboard.pipelined_calls_per_sec >= TARGET_PIPELINED_RATIO * raw.pipelined_calls_per_sec);
  print_ratio ("TS/Plugboard median latency", ts.ran && plugboard.ran,
               ts.median_us / plugboard.median_us, NULL, FALSE);
  print_ratio ("TS/Plugboard p99 latency", ts.ran && plugboard.ran,
               ts.p99_us / plugboard.p99_us, NULL, FALSE);
  print_ratio ("TS/Plugboard pipelined throughput", ts.ran && plugboard.ran,
               ts.pipelined_calls_per_sec / plugboard.pipelined_calls_per_sec, NULL, FALSE);
  print_ratio ("TS/Plugboard peak memory", ts.ran && plugboard.ran,
               (double) ts.peak_rss_kb / (double) plugboard.peak_rss_kb, NULL, FALSE);
  print_ratio ("TS/raw median latency", ts.ran && raw.ran,
               ts.median_us / raw.median_us, NULL, FALSE);
  if (plugboard.ran)
    g_print ("  %-38s %6.1f MB   target < 10 MB  %s\n", "Plugboard peak memory",
             plugboard.peak_rss_kb / 1024.0,
             plugboard.peak_rss_kb < TARGET_PEAK_KB ? "met" : "NOT MET");
  g_print ("\n");

  if (failed)
    g_print ("FAILED: a run did not complete; see the messages above.\n");

  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  BenchResult result = { 0 };
  g_autofree char *self = NULL;

  setlocale (LC_ALL, "");

  context = g_option_context_new ("ECHO_SERVER [TS_CLIENT_SCRIPT] - Streamable HTTP tools/call benchmark");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-http: %s\n", error->message);
      return 2;
    }
  if (argc < 2 || argc > 3 || opt_warmup < 0 || opt_calls < 1 || opt_pipelined < 1 || opt_window < 1)
    {
      g_printerr ("bench-http: usage: bench-http [--warmup=N] [--calls=N] [--pipelined-calls=N] "
                  "[--window=N] ECHO_SERVER [TS_CLIENT_SCRIPT]\n");
      return 2;
    }

  if (opt_raw_only || opt_plugboard_only)
    {
      gboolean ok = opt_raw_only ? run_raw (argv[1], &result, &error)
                                 : run_plugboard (argv[1], &result, &error);

      if (!ok)
        {
          g_printerr ("bench-http: %s\n", error->message);
          return EXIT_FAILURE;
        }
      print_result_json (&result);
      return EXIT_SUCCESS;
    }

  self = g_file_read_link ("/proc/self/exe", &error);
  if (self == NULL)
    {
      g_printerr ("bench-http: cannot find its own executable to re-run: %s\n", error->message);
      return EXIT_FAILURE;
    }

  return run_all (self, argv[1], argc == 3 ? argv[2] : NULL);
}
