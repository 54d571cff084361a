/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-common"

#include "config.h"

#include "bench-common.h"
#include "mcp-trace.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "test-util.h"

#define TARGET_MEDIAN_RATIO       1.2
#define TARGET_P99_RATIO          2.0
#define TARGET_PIPELINED_RATIO    0.5
#define TARGET_PEAK_KB            (10 * 1024)

BenchOptions bench_options;

gint64
bench_now_ns (void)
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

void
bench_fill_latencies (BenchResult *result,
                      gint64      *latencies_ns,
                      guint        n,
                      gint64       elapsed_ns)
{
  qsort (latencies_ns, n, sizeof *latencies_ns, compare_gint64);
  result->median_us = percentile_us (latencies_ns, n, 50);
  result->p99_us = percentile_us (latencies_ns, n, 99);
  result->calls_per_sec = n / (elapsed_ns / 1e9);
}

gint64
bench_read_peak_rss_kb (void)
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

/* ---- sequential and pipelined calls, whatever they are ----------------- */

static void
calls_fail (BenchCalls *calls,
            GError     *error)
{
  if (calls->error == NULL)
    calls->error = error;
  else
    g_error_free (error);
  calls->done = TRUE;
}

void
bench_calls_stamp (BenchCalls *calls)
{
  if (!calls->sequential)
    return;
  if (calls->index == bench_options.warmup)
    calls->measure_start = bench_now_ns ();
  calls->call_start = bench_now_ns ();
}

static void
calls_sequential_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  BenchCalls *calls = user_data;
  gpointer reply;
  GError *error = NULL;
  gint64 elapsed;

  reply = calls->finish (object, result, &error);
  elapsed = bench_now_ns () - calls->call_start;

  if (reply == NULL || !calls->check (object, result, reply, &error))
    {
      g_clear_pointer (&reply, calls->free_reply);
      g_prefix_error (&error, "%s %d of the sequential run%s failed: ",
                      calls->call_name, calls->index + 1, calls->where);
      calls_fail (calls, error);
      return;
    }

  if (calls->index >= bench_options.warmup)
    calls->latencies[calls->index - bench_options.warmup] = elapsed;

  if (++calls->index == bench_options.warmup + bench_options.calls)
    calls->done = TRUE;
  else
    calls->start (calls, calls_sequential_cb);
  calls->free_reply (reply);
}

static void
calls_pipelined_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  BenchCalls *calls = user_data;
  gpointer reply;
  GError *error = NULL;

  reply = calls->finish (object, result, &error);

  /* Calls still in flight after a failure finish here too; only count. */
  calls->finished++;
  if (calls->done)
    {
      g_clear_pointer (&reply, calls->free_reply);
      g_clear_error (&error);
      return;
    }

  if (reply == NULL || !calls->check (object, result, reply, &error))
    {
      g_clear_pointer (&reply, calls->free_reply);
      g_prefix_error (&error, "%s %d of the pipelined run%s failed: ",
                      calls->call_name, calls->finished, calls->where);
      calls_fail (calls, error);
      return;
    }

  if (calls->finished == bench_options.pipelined)
    calls->done = TRUE;
  else if (calls->started < bench_options.pipelined)
    {
      calls->started++;
      calls->start (calls, calls_pipelined_cb);
    }
  calls->free_reply (reply);
}

static gboolean
calls_wait (BenchCalls  *calls,
            gboolean    *hung,
            GError     **error)
{
  while (!calls->done && !*hung)
    g_main_context_iteration (NULL, TRUE);
  if (*hung)
    {
      bench_calls_hang_error (calls, error);
      return FALSE;
    }
  if (calls->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&calls->error));
      return FALSE;
    }

  return TRUE;
}

/* Fills RESULT's latencies and throughputs, not its peak memory. Returns
 * FALSE with ERROR set when a call failed or *HUNG was set meanwhile. */
gboolean
bench_calls_run (BenchCalls  *calls,
                 gboolean    *hung,
                 BenchResult *result,
                 GError     **error)
{
  g_autofree gint64 *latencies = g_new (gint64, bench_options.calls);
  gint64 start;

  calls->latencies = latencies;
  calls->sequential = TRUE;
  calls->start (calls, calls_sequential_cb);
  if (!calls_wait (calls, hung, error))
    return FALSE;
  bench_fill_latencies (result, latencies, bench_options.calls,
                        bench_now_ns () - calls->measure_start);

  calls->done = FALSE;
  calls->sequential = FALSE;
  start = bench_now_ns ();
  while (calls->started < MIN (bench_options.window, bench_options.pipelined))
    {
      calls->started++;
      calls->start (calls, calls_pipelined_cb);
    }
  if (!calls_wait (calls, hung, error))
    return FALSE;
  result->pipelined_calls_per_sec = bench_options.pipelined / ((bench_now_ns () - start) / 1e9);

  return TRUE;
}

void
bench_calls_hang_error (BenchCalls  *calls,
                        GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
               "The %s run made no progress for %d s (sequential %d, pipelined %d/%d done)",
               calls->who, BENCH_HANG_GUARD_SECONDS, calls->index, calls->finished, calls->started);
}

/* ---- McpClient, over whichever transport ------------------------------- */

typedef struct
{
  McpClient  *client;
  JsonObject *arguments;
} PlugboardCalls;

static void
plugboard_start (BenchCalls          *calls,
                 GAsyncReadyCallback  callback)
{
  PlugboardCalls *plugboard = calls->user_data;

  bench_calls_stamp (calls);
  mcp_client_call_tool_async (plugboard->client, "echo", plugboard->arguments, NULL, NULL,
                              callback, calls);
}

static gpointer
plugboard_finish (GObject       *object,
                  GAsyncResult  *result,
                  GError       **error)
{
  return mcp_client_call_tool_finish (MCP_CLIENT (object), result, error);
}

static gboolean
check_tool_result (GObject       *object,
                   GAsyncResult  *async_result,
                   gpointer       reply,
                   GError       **error)
{
  McpToolResult *result = reply;
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

/* Sequential then pipelined echo calls through an McpClient on TRANSPORT;
 * TARGET names the server in messages. */
gboolean
bench_run_plugboard (McpTransport  *transport,
                     const char    *target,
                     BenchResult   *result,
                     GError       **error)
{
  g_autoptr(McpClient) client = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(GAsyncResult) async_result = NULL;
  g_autoptr(GAsyncResult) close_result = NULL;
  PlugboardCalls plugboard = { 0 };
  BenchCalls calls = {
    .start = plugboard_start,
    .finish = plugboard_finish,
    .check = check_tool_result,
    .free_reply = g_object_unref,
    .user_data = &plugboard,
    .who = "McpClient",
    .call_name = "tools/call",
    .where = "",
  };
  gboolean hung = FALSE;
  guint guard_id;

  json_object_set_string_member (arguments, "message", "hello");

  guard_id = test_deadline (BENCH_HANG_GUARD_SECONDS, &hung);

  if (bench_options.traced)
    {
      g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);

      mcp_transport_set_trace (transport, trace);
    }
  client = mcp_client_new (transport);
  mcp_client_set_client_info (client, "plugboard-bench", PACKAGE_VERSION);

  mcp_client_connect_async (client, NULL, test_result_cb, &async_result);
  while (async_result == NULL && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    goto hang;
  if (!mcp_client_connect_finish (client, async_result, error))
    {
      g_prefix_error (error, "Connecting McpClient to %s failed: ", target);
      g_source_remove (guard_id);
      return FALSE;
    }

  plugboard.client = client;
  plugboard.arguments = arguments;

  if (!bench_calls_run (&calls, &hung, result, error))
    {
      if (!hung)
        g_source_remove (guard_id);
      return FALSE;
    }

  /* Before closing: the figure is the client's steady state. */
  result->peak_rss_kb = bench_read_peak_rss_kb ();

  mcp_client_close_async (client, NULL, test_result_cb, &close_result);
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
  bench_calls_hang_error (&calls, error);
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

/* Runs ARGV as a child; on failure prints why and returns FALSE. */
static gboolean
run_child_reporting (const char          *program_name,
                     const char          *who,
                     const char         **argv,
                     BenchResult         *result)
{
  g_autoptr(GError) error = NULL;

  if (!run_child (who, argv, result, &error))
    {
      g_printerr ("%s: %s\n", program_name, error->message);
      return FALSE;
    }

  return TRUE;
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

/* Runs this program again with --raw-only and --plugboard-only against
 * TARGET, then TS_SCRIPT under node against it if node and the SDK are
 * there (else says why in *TS_SKIPPED). Returns FALSE if a run failed. */
gboolean
bench_run_children (const char          *program_name,
                    const char          *self,
                    const char          *target,
                    const char          *raw_who,
                    const char          *ts_script,
                    const char          *ts_script_name,
                    BenchResult         *raw,
                    BenchResult         *plugboard,
                    BenchResult         *ts,
                    char               **ts_skipped)
{
  g_autofree char *warmup = g_strdup_printf ("--warmup=%d", bench_options.warmup);
  g_autofree char *calls = g_strdup_printf ("--calls=%d", bench_options.calls);
  g_autofree char *pipelined = g_strdup_printf ("--pipelined-calls=%d", bench_options.pipelined);
  g_autofree char *window = g_strdup_printf ("--window=%d", bench_options.window);
  gboolean ok = TRUE;

  {
    const char *argv[] = { self, "--raw-only", warmup, calls, pipelined, window, target, NULL };

    ok &= run_child_reporting (program_name, raw_who, argv, raw);
  }

  {
    const char *argv[] = { self, "--plugboard-only", warmup, calls, pipelined, window, target, NULL };

    ok &= run_child_reporting (program_name, "McpClient", argv, plugboard);
  }

  if (ts_script == NULL)
    *ts_skipped = g_strdup_printf ("no %s path was given", ts_script_name);
  else
    {
      const char *node = g_getenv ("MCP_TEST_NODE");
      g_autofree char *node_path = g_find_program_in_path (node != NULL && *node != '\0' ? node : "node");
      g_autofree char *node_modules = find_node_modules (ts_script);
      g_autofree char *sdk = g_build_filename (node_modules, "@modelcontextprotocol", "sdk",
                                               "package.json", NULL);

      if (node_path == NULL)
        *ts_skipped = g_strdup_printf ("node (%s) was not found on PATH",
                                       node != NULL && *node != '\0' ? node : "node");
      else if (!g_file_test (sdk, G_FILE_TEST_EXISTS))
        *ts_skipped = g_strdup_printf ("@modelcontextprotocol/sdk is not installed (no %s)", sdk);
      else if (!g_file_test (ts_script, G_FILE_TEST_EXISTS))
        *ts_skipped = g_strdup_printf ("%s does not exist", ts_script);
      else
        {
          g_autofree char *a_warmup = g_strdup_printf ("%d", bench_options.warmup);
          g_autofree char *a_calls = g_strdup_printf ("%d", bench_options.calls);
          g_autofree char *a_pipelined = g_strdup_printf ("%d", bench_options.pipelined);
          g_autofree char *a_window = g_strdup_printf ("%d", bench_options.window);
          const char *argv[] = { node_path, ts_script, target,
                                 a_warmup, a_calls, a_pipelined, a_window, NULL };

          ok &= run_child_reporting (program_name, "TypeScript SDK", argv, ts);
        }
    }

  return ok;
}

/* BASELINE NULL: no baseline column at all. */
static void
print_row (const char        *name,
                 const BenchResult *r,
                 const char        *baseline)
{
  const char *sep = baseline != NULL ? "   " : "";

  if (baseline == NULL)
    baseline = "";

  if (!r->ran)
    {
      g_print ("  %-24s %10s %10s %11s %13s %10s%s%s\n",
               name, "-", "-", "-", "-", "-", sep, baseline);
      return;
    }

  g_print ("  %-24s %10.1f %10.1f %11.0f %13.0f %7.1f MB%s%s\n",
           name, r->median_us, r->p99_us, r->calls_per_sec,
           r->pipelined_calls_per_sec, r->peak_rss_kb / 1024.0, sep, baseline);
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

static void
keep_better (BenchResult       *best,
             const BenchResult *run)
{
  if (!run->ran)
    return;
  if (!best->ran)
    {
      *best = *run;
      return;
    }
  best->median_us = MIN (best->median_us, run->median_us);
  best->p99_us = MIN (best->p99_us, run->p99_us);
  best->calls_per_sec = MAX (best->calls_per_sec, run->calls_per_sec);
  best->pipelined_calls_per_sec = MAX (best->pipelined_calls_per_sec, run->pipelined_calls_per_sec);
  best->peak_rss_kb = MIN (best->peak_rss_kb, run->peak_rss_kb);
}

gboolean
bench_compare_traced (const char *program_name,
                      const char *self,
                      const char *target)
{
  g_autofree char *warmup = g_strdup_printf ("--warmup=%d", bench_options.warmup);
  g_autofree char *calls = g_strdup_printf ("--calls=%d", bench_options.calls);
  g_autofree char *pipelined = g_strdup_printf ("--pipelined-calls=%d", bench_options.pipelined);
  g_autofree char *window = g_strdup_printf ("--window=%d", bench_options.window);
  BenchResult plain = { 0 }, traced = { 0 };
  gboolean ok = TRUE;

  for (guint round = 0; round < 2; round++)
    {
      BenchResult a = { 0 }, b = { 0 };
      const char *plain_argv[] = { self, "--plugboard-only", warmup, calls, pipelined, window, target, NULL };
      const char *traced_argv[] = { self, "--plugboard-only", "--traced", warmup, calls, pipelined, window,
                                    target, NULL };

      ok &= run_child_reporting (program_name, "McpClient", plain_argv, &a);
      ok &= run_child_reporting (program_name, "McpClient with a trace", traced_argv, &b);
      keep_better (&plain, &a);
      keep_better (&traced, &b);
    }

  g_print ("\n  The trace's overhead (McpClient without and with a trace on its transport,\n"
           "  the better of two alternated runs each)\n\n");
  g_print ("  %-24s %11s %11s %11s %13s %10s\n",
           "client", "median µs", "p99 µs", "calls/s", "pipelined/s", "peak RSS");
  print_row ("without a trace", &plain, NULL);
  print_row ("with a trace", &traced, NULL);
  g_print ("\n");
  print_ratio ("traced/untraced median latency", plain.ran && traced.ran,
               traced.median_us / plain.median_us, NULL, FALSE);
  print_ratio ("traced/untraced p99 latency", plain.ran && traced.ran,
               traced.p99_us / plain.p99_us, NULL, FALSE);
  print_ratio ("traced/untraced pipelined throughput", plain.ran && traced.ran,
               traced.pipelined_calls_per_sec / plain.pipelined_calls_per_sec, NULL, FALSE);
  print_ratio ("traced/untraced peak memory", plain.ran && traced.ran,
               (double) traced.peak_rss_kb / (double) plain.peak_rss_kb, NULL, FALSE);
  return ok;
}

/* The column headers, the three rows and the ratios. BASELINES, if not
 * NULL, are the raw, Plugboard and TypeScript figures measured earlier, in
 * a column of their own; TS_RAW_RATIO adds a TS/raw median latency line. */
void
bench_print_table (const char         *raw_name,
                   const char * const *baselines,
                   gboolean            ts_raw_ratio,
                   const BenchResult  *raw,
                   const BenchResult  *plugboard,
                   const BenchResult  *ts,
                   const char         *ts_skipped)
{
  /* µ is two bytes: one more column of padding for those headers. */
  if (baselines != NULL)
    g_print ("  %-24s %11s %11s %11s %13s %10s   %s\n",
             "client", "median µs", "p99 µs", "calls/s", "pipelined/s", "peak RSS",
             "earlier on this kind of machine");
  else
    g_print ("  %-24s %11s %11s %11s %13s %10s\n",
             "client", "median µs", "p99 µs", "calls/s", "pipelined/s", "peak RSS");
  print_row (raw_name, raw, baselines != NULL ? baselines[0] : NULL);
  print_row ("Plugboard (McpClient)", plugboard, baselines != NULL ? baselines[1] : NULL);
  print_row ("TypeScript SDK", ts, baselines != NULL ? baselines[2] : NULL);
  if (ts_skipped != NULL)
    g_print ("\n  TypeScript SDK column skipped: %s\n", ts_skipped);

  g_print ("\n  %-38s %9s\n", "ratio", "value");
  print_ratio ("Plugboard/raw median latency", raw->ran && plugboard->ran,
               plugboard->median_us / raw->median_us, "≤ 1.2×",
               plugboard->median_us <= TARGET_MEDIAN_RATIO * raw->median_us);
  print_ratio ("Plugboard/raw p99 latency", raw->ran && plugboard->ran,
               plugboard->p99_us / raw->p99_us, "≤ 2×",
               plugboard->p99_us <= TARGET_P99_RATIO * raw->p99_us);
  print_ratio ("Plugboard/raw pipelined throughput", raw->ran && plugboard->ran,
               plugboard->pipelined_calls_per_sec / raw->pipelined_calls_per_sec, "≥ 0.5×",
               plugboard->pipelined_calls_per_sec >= TARGET_PIPELINED_RATIO * raw->pipelined_calls_per_sec);
  print_ratio ("TS/Plugboard median latency", ts->ran && plugboard->ran,
               ts->median_us / plugboard->median_us, NULL, FALSE);
  print_ratio ("TS/Plugboard p99 latency", ts->ran && plugboard->ran,
               ts->p99_us / plugboard->p99_us, NULL, FALSE);
  print_ratio ("TS/Plugboard pipelined throughput", ts->ran && plugboard->ran,
               ts->pipelined_calls_per_sec / plugboard->pipelined_calls_per_sec, NULL, FALSE);
  print_ratio ("TS/Plugboard peak memory", ts->ran && plugboard->ran,
               (double) ts->peak_rss_kb / (double) plugboard->peak_rss_kb, NULL, FALSE);
  if (ts_raw_ratio)
    print_ratio ("TS/raw median latency", ts->ran && raw->ran,
                 ts->median_us / raw->median_us, NULL, FALSE);
  if (plugboard->ran)
    g_print ("  %-38s %6.1f MB   target < 10 MB  %s\n", "Plugboard peak memory",
             plugboard->peak_rss_kb / 1024.0,
             plugboard->peak_rss_kb < TARGET_PEAK_KB ? "met" : "NOT MET");
}

/* The table's last line; the exit status. */
int
bench_finish (gboolean failed)
{
  g_print ("\n");

  if (failed)
    g_print ("FAILED: a run did not complete; see the messages above.\n");

  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Parses the options over PROGRAM's defaults, then
 * either runs one part as a child and prints its JSON line, or runs the
 * whole benchmark. */
int
bench_main (const BenchProgram  *program,
            int                  argc,
            char               **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *parameter = NULL;
  BenchResult result = { 0 };
  g_autofree char *self = NULL;
  const GOptionEntry entries[] = {
    { "warmup", 0, 0, G_OPTION_ARG_INT, &bench_options.warmup, "Warm-up calls before measuring", "N" },
    { "calls", 0, 0, G_OPTION_ARG_INT, &bench_options.calls, "Sequential calls measured", "N" },
    { "pipelined-calls", 0, 0, G_OPTION_ARG_INT, &bench_options.pipelined, "Pipelined calls measured", "N" },
    { "window", 0, 0, G_OPTION_ARG_INT, &bench_options.window, "Pipelined calls kept in flight", "N" },
    { "raw-only", 0, 0, G_OPTION_ARG_NONE, &bench_options.raw_only, program->raw_help, NULL },
    { "plugboard-only", 0, 0, G_OPTION_ARG_NONE, &bench_options.plugboard_only, "Run the McpClient part only and print JSON", NULL },
    { "traced", 0, 0, G_OPTION_ARG_NONE, &bench_options.traced, "With --plugboard-only: record a trace", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");

  bench_options = program->defaults;
  parameter = g_strdup_printf ("ECHO_SERVER [TS_CLIENT_SCRIPT] - %s", program->summary);
  context = g_option_context_new (parameter);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", program->name, error->message);
      return 2;
    }
  if (argc < 2 || argc > 3 || bench_options.warmup < 0 || bench_options.calls < 1 ||
      bench_options.pipelined < 1 || bench_options.window < 1)
    {
      g_printerr ("%s: usage: %s [--warmup=N] [--calls=N] [--pipelined-calls=N] "
                  "[--window=N] ECHO_SERVER [TS_CLIENT_SCRIPT]\n", program->name, program->name);
      return 2;
    }

  if (bench_options.raw_only || bench_options.plugboard_only)
    {
      gboolean ok = bench_options.raw_only ? program->run_raw (argv[1], &result, &error)
                                           : program->run_plugboard (argv[1], &result, &error);

      if (!ok)
        {
          g_printerr ("%s: %s\n", program->name, error->message);
          return EXIT_FAILURE;
        }
      print_result_json (&result);
      return EXIT_SUCCESS;
    }

  self = g_file_read_link ("/proc/self/exe", &error);
  if (self == NULL)
    {
      g_printerr ("%s: cannot find its own executable to re-run: %s\n", program->name, error->message);
      return EXIT_FAILURE;
    }

  return program->run_all (self, argv[1], argc == 3 ? argv[2] : NULL);
}

void
bench_print_header (const char *title,
                    ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, title);
  text = g_strdup_vprintf (title, args);
  va_end (args);

  g_print ("\n%s\n(%d warm-up, %d measured; pipelined: %d calls, %d in flight)\n\n",
           text, bench_options.warmup, bench_options.calls, bench_options.pipelined,
           bench_options.window);
}
