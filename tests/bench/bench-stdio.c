/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-stdio"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>

#include "mcp-stdio-transport.h"

#include "bench-common.h"

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

/* Figures earlier measured on this kind of machine (issue 2). */
#define BASELINE_RAW_MEDIAN_US    24.0
#define BASELINE_RAW_P99_US       80.0
#define BASELINE_RAW_PIPELINED    450000.0

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
  g_autofree gint64 *latencies = g_new (gint64, bench_options.calls);
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

  for (int i = 0; i < bench_options.warmup; i++)
    if (!raw_write_request (pipe_, error) || raw_read_responses (pipe_, error) < 0)
      return FALSE;

  start = bench_now_ns ();
  for (int i = 0; i < bench_options.calls; i++)
    {
      gint64 t0 = bench_now_ns ();

      if (!raw_write_request (pipe_, error) || raw_read_responses (pipe_, error) != 1)
        {
          if (error != NULL && *error == NULL)
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                 "The raw echo server answered more lines than it was sent");
          return FALSE;
        }
      latencies[i] = bench_now_ns () - t0;
    }
  bench_fill_latencies (result, latencies, bench_options.calls, bench_now_ns () - start);

  start = bench_now_ns ();
  for (sent = 0; sent < MIN (bench_options.window, bench_options.pipelined); sent++)
    if (!raw_write_request (pipe_, error))
      return FALSE;
  for (received = 0; received < bench_options.pipelined;)
    {
      int n = raw_read_responses (pipe_, error);

      if (n < 0)
        return FALSE;
      received += n;
      for (int i = 0; i < n && sent < bench_options.pipelined; i++, sent++)
        if (!raw_write_request (pipe_, error))
          return FALSE;
    }
  result->pipelined_calls_per_sec = bench_options.pipelined / ((bench_now_ns () - start) / 1e9);

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

  result->peak_rss_kb = bench_read_peak_rss_kb ();
  result->ran = TRUE;
  return TRUE;
}

/* ---- McpClient --------------------------------------------------------- */

static gboolean
run_plugboard (const char   *echo_server,
               BenchResult  *result,
               GError      **error)
{
  const char *argv[] = { echo_server, NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);

  return bench_run_plugboard (transport, echo_server, result, error);
}

/* ---- the parent: the table --------------------------------------------- */

static int
run_all (const char *self,
         const char *echo_server,
         const char *ts_script)
{
  static const char * const baselines[] = {
    "24 µs / 80 µs, 450,000/s",
    "",
    "50 µs / 750–1,000 µs, 30,000/s, 114 MB",
  };
  BenchResult raw = { 0 }, plugboard = { 0 }, ts = { 0 };
  g_autofree char *ts_skipped = NULL;
  gboolean failed;

  failed = !bench_run_children ("bench-stdio", self, echo_server, "raw pipe",
                                ts_script, "ts-client.mjs",
                                &raw, &plugboard, &ts, &ts_skipped);

  bench_print_header ("Sequential tools/call round trips over stdio against mcp-echo-server");
  bench_print_table ("raw pipe", baselines, FALSE, &raw, &plugboard, &ts, ts_skipped);
  if (raw.ran)
    g_print ("\n  raw pipe against the earlier baseline: median %.2f×, p99 %.2f×, pipelined %.2f×\n",
             raw.median_us / BASELINE_RAW_MEDIAN_US, raw.p99_us / BASELINE_RAW_P99_US,
             raw.pipelined_calls_per_sec / BASELINE_RAW_PIPELINED);

  failed |= !bench_compare_traced ("bench-stdio", self, echo_server);
  return bench_finish (failed);
}

static const BenchProgram program = {
  .defaults = { .warmup = 1000, .calls = 20000, .pipelined = 200000, .window = 64 },
  .name = "bench-stdio",
  .summary = "stdio tools/call benchmark",
  .raw_help = "Run the raw pipe part only and print JSON",
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
