/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-stdio"

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"

/* Sequential and pipelined tools/call round trips over stdio against
 * mcp-echo-server, three ways: McpClient, the TypeScript SDK client
 * (ts-client.mjs under node) and a raw pipe ping-pong of the same bytes.
 * Each runs in a process of its own so that its peak memory is its own;
 * this process only starts them, reads back one JSON line from each and
 * prints the table.
 *
 *   bench-stdio ECHO_SERVER [TS_CLIENT_SCRIPT]
 *   bench-stdio --raw-only ECHO_SERVER        (child: prints one JSON line)
 *   bench-stdio --plugboard-only ECHO_SERVER  (child: prints one JSON line)
 */

/* The exact line McpClient-independent clients send, and the line
 * mcp-echo-server answers to it in both its modes. */
#define REQUEST_LINE \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"," \
  "\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hello\"}}}\n"
#define RESPONSE_LINE \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" \
  "{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}}\n"

/* Only to turn a hang into a failure; the runs take seconds. */
#define HANG_GUARD_SECONDS 300

/* Figures earlier measured on this kind of machine (issue 2). */
#define BASELINE_RAW_MEDIAN_US    24.0
#define BASELINE_RAW_P99_US       80.0
#define BASELINE_RAW_PIPELINED    450000.0

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

static int opt_warmup = 1000;
static int opt_calls = 20000;
static int opt_pipelined = 200000;
static int opt_window = 64;
static gboolean opt_raw_only;
static gboolean opt_plugboard_only;

static const GOptionEntry entries[] = {
  { "warmup", 0, 0, G_OPTION_ARG_INT, &opt_warmup, "Warm-up calls before measuring", "N" },
  { "calls", 0, 0, G_OPTION_ARG_INT, &opt_calls, "Sequential calls measured", "N" },
  { "pipelined-calls", 0, 0, G_OPTION_ARG_INT, &opt_pipelined, "Pipelined calls measured", "N" },
  { "window", 0, 0, G_OPTION_ARG_INT, &opt_window, "Pipelined calls kept in flight", "N" },
  { "raw-only", 0, 0, G_OPTION_ARG_NONE, &opt_raw_only, "Run the raw pipe part only and print JSON", NULL },
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

/* ---- raw pipe ---------------------------------------------------------- */

typedef struct
{
  int    to_server;
  int    from_server;
  char   buffer[64 * 1024];
  gsize  start;
  gsize  end;
} RawPipe;

static gboolean
raw_write_request (RawPipe  *pipe_,
                   GError  **error)
{
  const char *data = REQUEST_LINE;
  gsize len = sizeof REQUEST_LINE - 1;

  while (len > 0)
    {
      gssize n = write (pipe_->to_server, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Writing a request to the raw echo server failed: %s",
                       g_strerror (saved_errno));
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }

  return TRUE;
}

/* Reads until at least one whole response line is buffered, then checks and
 * consumes every whole line there is; returns how many, or -1. */
static int
raw_read_responses (RawPipe  *pipe_,
                    GError  **error)
{
  const gsize response_len = sizeof RESPONSE_LINE - 1;
  int count = 0;

  for (;;)
    {
      gssize n;

      while (pipe_->end - pipe_->start >= response_len)
        {
          if (memcmp (pipe_->buffer + pipe_->start, RESPONSE_LINE, response_len) != 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "The raw echo server answered something other than the expected line "
                           "at byte %" G_GSIZE_FORMAT " of its buffer",
                           pipe_->start);
              return -1;
            }
          pipe_->start += response_len;
          count++;
        }

      if (count > 0)
        return count;

      if (pipe_->start > 0)
        {
          memmove (pipe_->buffer, pipe_->buffer + pipe_->start, pipe_->end - pipe_->start);
          pipe_->end -= pipe_->start;
          pipe_->start = 0;
        }

      n = read (pipe_->from_server, pipe_->buffer + pipe_->end, sizeof pipe_->buffer - pipe_->end);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Reading from the raw echo server failed: %s", g_strerror (saved_errno));
          return -1;
        }
      if (n == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE,
                               "The raw echo server closed its stdout before answering");
          return -1;
        }
      pipe_->end += (gsize) n;
    }
}

static gboolean
run_raw (const char   *echo_server,
         BenchResult  *result,
         GError      **error)
{
  const char *argv[] = { echo_server, "--raw", NULL };
  g_autofree gint64 *latencies = g_new (gint64, opt_calls);
  g_autofree RawPipe *pipe_ = g_new0 (RawPipe, 1);
  GPid pid;
  int wait_status;
  int sent, received;
  gint64 start;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                 NULL, NULL, &pid,
                                 &pipe_->to_server, &pipe_->from_server, NULL, error))
    {
      g_prefix_error (error, "Starting %s --raw failed: ", echo_server);
      return FALSE;
    }

  for (int i = 0; i < opt_warmup; i++)
    if (!raw_write_request (pipe_, error) || raw_read_responses (pipe_, error) < 0)
      return FALSE;

  start = now_ns ();
  for (int i = 0; i < opt_calls; i++)
    {
      gint64 t0 = now_ns ();

      if (!raw_write_request (pipe_, error) || raw_read_responses (pipe_, error) != 1)
        {
          if (error != NULL && *error == NULL)
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                 "The raw echo server answered more lines than it was sent");
          return FALSE;
        }
      latencies[i] = now_ns () - t0;
    }
  fill_latencies (result, latencies, opt_calls, now_ns () - start);

  start = now_ns ();
  for (sent = 0; sent < MIN (opt_window, opt_pipelined); sent++)
    if (!raw_write_request (pipe_, error))
      return FALSE;
  for (received = 0; received < opt_pipelined;)
    {
      int n = raw_read_responses (pipe_, error);

      if (n < 0)
        return FALSE;
      received += n;
      for (int i = 0; i < n && sent < opt_pipelined; i++, sent++)
        if (!raw_write_request (pipe_, error))
          return FALSE;
    }
  result->pipelined_calls_per_sec = opt_pipelined / ((now_ns () - start) / 1e9);

  close (pipe_->to_server);
  close (pipe_->from_server);
  if (waitpid (pid, &wait_status, 0) < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Waiting for the raw echo server failed: %s", g_strerror (saved_errno));
      return FALSE;
    }
  if (!g_spawn_check_wait_status (wait_status, error))
    {
      g_prefix_error (error, "The raw echo server did not exit cleanly: ");
      return FALSE;
    }

  result->peak_rss_kb = read_peak_rss_kb ();
  result->ran = TRUE;
  return TRUE;
}

/* ---- McpClient --------------------------------------------------------- */

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

static void
async_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
hang_guard_cb (gpointer user_data)
{
  gboolean *hung = user_data;

  *hung = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
run_plugboard (const char   *echo_server,
               BenchResult  *result,
               GError      **error)
{
  const char *argv[] = { echo_server, NULL };
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

  transport = mcp_stdio_transport_new (argv, NULL, NULL);
  client = mcp_client_new (transport);
  mcp_client_set_client_info (client, "plugboard-bench", PACKAGE_VERSION);

  mcp_client_connect_async (client, NULL, async_result_cb, &async_result);
  while (async_result == NULL && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (!mcp_client_connect_finish (client, async_result, error))
    {
      g_prefix_error (error, "Connecting McpClient to %s failed: ", echo_server);
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

/* ---- the parent: children, parsing, the table --------------------------- */

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
           const BenchResult *r,
           const char        *baseline)
{
  if (!r->ran)
    {
      g_print ("  %-24s %10s %10s %11s %13s %10s   %s\n",
               name, "-", "-", "-", "-", "-", baseline);
      return;
    }

  g_print ("  %-24s %10.1f %10.1f %11.0f %13.0f %7.1f MB   %s\n",
           name, r->median_us, r->p99_us, r->calls_per_sec,
           r->pipelined_calls_per_sec, r->peak_rss_kb / 1024.0, baseline);
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
  gboolean failed = FALSE;
  GError *error = NULL;

  {
    const char *argv[] = { self, "--raw-only", warmup, calls, pipelined, window, echo_server, NULL };

    if (!run_child ("raw pipe", argv, &raw, &error))
      {
        g_printerr ("bench-stdio: %s\n", error->message);
        g_clear_error (&error);
        failed = TRUE;
      }
  }

  {
    const char *argv[] = { self, "--plugboard-only", warmup, calls, pipelined, window, echo_server, NULL };

    if (!run_child ("McpClient", argv, &plugboard, &error))
      {
        g_printerr ("bench-stdio: %s\n", error->message);
        g_clear_error (&error);
        failed = TRUE;
      }
  }

  if (ts_script == NULL)
    ts_skipped = g_strdup ("no ts-client.mjs path was given");
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
          const char *argv[] = { node_path, ts_script, echo_server,
                                 a_warmup, a_calls, a_pipelined, a_window, NULL };

          if (!run_child ("TypeScript SDK", argv, &ts, &error))
            {
              g_printerr ("bench-stdio: %s\n", error->message);
              g_clear_error (&error);
              failed = TRUE;
            }
        }
    }

  g_print ("\nSequential tools/call round trips over stdio against mcp-echo-server\n"
           "(%d warm-up, %d measured; pipelined: %d calls, %d in flight)\n\n",
           opt_warmup, opt_calls, opt_pipelined, opt_window);
  /* µ is two bytes: one more column of padding for those headers. */
  g_print ("  %-24s %11s %11s %11s %13s %10s   %s\n",
           "client", "median µs", "p99 µs", "calls/s", "pipelined/s", "peak RSS",
           "earlier on this kind of machine");
  print_row ("raw pipe", &raw, "24 µs / 80 µs, 450,000/s");
  print_row ("Plugboard (McpClient)", &plugboard, "");
  print_row ("TypeScript SDK", &ts, "50 µs / 750–1,000 µs, 30,000/s, 114 MB");
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
  if (plugboard.ran)
    g_print ("  %-38s %6.1f MB   target < 10 MB  %s\n", "Plugboard peak memory",
             plugboard.peak_rss_kb / 1024.0,
             plugboard.peak_rss_kb < TARGET_PEAK_KB ? "met" : "NOT MET");
  if (raw.ran)
    g_print ("\n  raw pipe against the earlier baseline: median %.2f×, p99 %.2f×, pipelined %.2f×\n",
             raw.median_us / BASELINE_RAW_MEDIAN_US, raw.p99_us / BASELINE_RAW_P99_US,
             raw.pipelined_calls_per_sec / BASELINE_RAW_PIPELINED);
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

  context = g_option_context_new ("ECHO_SERVER [TS_CLIENT_SCRIPT] - stdio tools/call benchmark");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-stdio: %s\n", error->message);
      return 2;
    }
  if (argc < 2 || argc > 3 || opt_warmup < 0 || opt_calls < 1 || opt_pipelined < 1 || opt_window < 1)
    {
      g_printerr ("bench-stdio: usage: bench-stdio [--warmup=N] [--calls=N] [--pipelined-calls=N] "
                  "[--window=N] ECHO_SERVER [TS_CLIENT_SCRIPT]\n");
      return 2;
    }

  if (opt_raw_only || opt_plugboard_only)
    {
      gboolean ok = opt_raw_only ? run_raw (argv[1], &result, &error)
                                 : run_plugboard (argv[1], &result, &error);

      if (!ok)
        {
          g_printerr ("bench-stdio: %s\n", error->message);
          return EXIT_FAILURE;
        }
      print_result_json (&result);
      return EXIT_SUCCESS;
    }

  self = g_file_read_link ("/proc/self/exe", &error);
  if (self == NULL)
    {
      g_printerr ("bench-stdio: cannot find its own executable to re-run: %s\n", error->message);
      return EXIT_FAILURE;
    }

  return run_all (self, argv[1], argc == 3 ? argv[2] : NULL);
}
