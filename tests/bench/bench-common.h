/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-transport.h"

G_BEGIN_DECLS

/* Only to turn a hang into a failure; the runs take seconds. */
#define BENCH_HANG_GUARD_SECONDS 300

typedef struct
{
  gboolean ran;
  double   median_us;
  double   p99_us;
  double   calls_per_sec;
  double   pipelined_calls_per_sec;
  gint64   peak_rss_kb;
} BenchResult;

typedef struct
{
  int      warmup;
  int      calls;
  int      pipelined;
  int      window;
  gboolean raw_only;
  gboolean plugboard_only;
  gboolean traced;           /* with plugboard_only: the transport records a trace */
} BenchOptions;

/* Parsed from the command line by bench_main(), over the program's
 * defaults. */
extern BenchOptions bench_options;

/* A child run: TARGET is the echo server (stdio) or its URL (HTTP). */
typedef gboolean (*BenchRunFunc)    (const char   *target,
                                     BenchResult  *result,
                                     GError      **error);
typedef int      (*BenchRunAllFunc) (const char   *self,
                                     const char   *echo_server,
                                     const char   *ts_script);

typedef struct
{
  BenchOptions     defaults;
  const char      *name;          /* "bench-stdio" */
  const char      *summary;       /* "stdio tools/call benchmark" */
  const char      *raw_help;      /* --raw-only's help text */
  BenchRunFunc     run_raw;
  BenchRunFunc     run_plugboard;
  BenchRunAllFunc  run_all;
} BenchProgram;

gint64   bench_now_ns            (void);
void     bench_fill_latencies    (BenchResult         *result,
                                  gint64              *latencies_ns,
                                  guint                n,
                                  gint64               elapsed_ns);
gint64   bench_read_peak_rss_kb  (void);


/* One run of echo calls, first sequential then pipelined, driven by
 * bench_calls_run(). The caller fills the first block. */
typedef struct _BenchCalls BenchCalls;

/* Sends one call with CALLBACK and CALLS as its data, calling
 * bench_calls_stamp() right before sending. */
typedef void     (*BenchCallStartFunc)  (BenchCalls          *calls,
                                         GAsyncReadyCallback  callback);
/* The call's _finish(): the reply, or NULL with ERROR set. */
typedef gpointer (*BenchCallFinishFunc) (GObject             *object,
                                         GAsyncResult        *result,
                                         GError             **error);
/* Whether REPLY is the echo expected; not timed. */
typedef gboolean (*BenchCallCheckFunc)  (GObject             *object,
                                         GAsyncResult        *result,
                                         gpointer             reply,
                                         GError             **error);

struct _BenchCalls
{
  BenchCallStartFunc   start;
  BenchCallFinishFunc  finish;
  BenchCallCheckFunc   check;
  GDestroyNotify       free_reply;
  gpointer             user_data;
  const char          *who;         /* "McpClient", for the hang message */
  const char          *call_name;   /* "tools/call", for error messages */
  const char          *where;       /* "" or " to URL", after "the … run" */

  /* bench_calls_run()'s own */
  GError              *error;
  gboolean             done;
  gboolean             sequential;
  gint64              *latencies;
  int                  index;       /* counts warm-up calls too */
  gint64               call_start;
  gint64               measure_start;
  int                  started;
  int                  finished;
};

void     bench_calls_stamp       (BenchCalls          *calls);
gboolean bench_calls_run         (BenchCalls          *calls,
                                  gboolean            *hung,
                                  BenchResult         *result,
                                  GError             **error);
void     bench_calls_hang_error  (BenchCalls          *calls,
                                  GError             **error);

gboolean bench_run_plugboard     (McpTransport        *transport,
                                  const char          *target,
                                  BenchResult         *result,
                                  GError             **error);

gboolean bench_run_children      (const char          *program_name,
                                  const char          *self,
                                  const char          *target,
                                  const char          *raw_who,
                                  const char          *ts_script,
                                  const char          *ts_script_name,
                                  BenchResult         *raw,
                                  BenchResult         *plugboard,
                                  BenchResult         *ts,
                                  char               **ts_skipped);

/* The trace's overhead (issue 24): McpClient runs without and with a
 * trace on its transport, alternated (two of each, the better of each
 * kept, against the noise of a shared machine), and their ratios. */
gboolean bench_compare_traced    (const char          *program_name,
                                  const char          *self,
                                  const char          *target);
void     bench_print_table       (const char          *raw_name,
                                  const char * const  *baselines,
                                  gboolean             ts_raw_ratio,
                                  const BenchResult   *raw,
                                  const BenchResult   *plugboard,
                                  const BenchResult   *ts,
                                  const char          *ts_skipped);
/* Prints @title (a printf format and its arguments, one line) and
 * the run's sizes under it, before the table. */
void     bench_print_header      (const char          *title,
                                  ...) G_GNUC_PRINTF (1, 2);
int      bench_finish            (gboolean             failed);

int      bench_main              (const BenchProgram  *program,
                                  int                  argc,
                                  char               **argv);

G_END_DECLS
