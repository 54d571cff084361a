/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-traffic-view"

#include "config.h"

#include <time.h>
#include <stdio.h>
#include <string.h>

#include "mcp-trace.h"
#include "plugboard-traffic-view.h"
#include "test-util.h"

/* PlugboardTrafficView following a busy server: 1,000 entries a second
 * (requests, their responses a few entries later, notifications) recorded
 * into the trace it shows, for --seconds, the view following the newest;
 * against the same view, shown the same way, with no traffic.
 *
 * A tick callback keeps the frame clock running in both runs (without it
 * an idle window draws no frame at all), so each run's frames can be
 * counted. Measured from the GdkFrameClock: frames painted a second, the
 * longest time between two frames, and how many took more than 16.7 ms
 * (one frame at 60 Hz; under Xvfb the clock paces about that) and more
 * than 33.3 ms (a frame dropped); and the main thread's CPU time a second.
 *
 *   bench-traffic-view [--seconds S] [--rate N]
 */

static int opt_seconds = 5;
static int opt_rate = 1000;

static const GOptionEntry entries[] = {
  { "seconds", 0, 0, G_OPTION_ARG_INT, &opt_seconds, "Seconds each run lasts (default 5)", "S" },
  { "rate", 0, 0, G_OPTION_ARG_INT, &opt_rate, "Entries recorded a second (default 1000)", "N" },
  { NULL }
};

static gint64
cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

typedef struct
{
  McpTrace *trace;
  gboolean  traffic;
  gint64    start;        /* monotonic µs */
  gint64    recorded;
  gboolean  done;

  guint     frames;
  gint64    last_paint;
  gint64    longest;
  gint64    longest_at;   /* µs into the run */
  guint     over_one;
  guint     over_two;
  guint     over_two_steady;  /* after the first half second */
  gint64    longest_steady;
} Run;

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  /* Only keeps frames coming. */
  return G_SOURCE_CONTINUE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Run           *run)
{
  gint64 now = g_get_monotonic_time ();

  if (run->done)
    return;
  if (run->last_paint != 0)
    {
      gint64 interval = now - run->last_paint;

      if (interval > run->longest)
        {
          run->longest = interval;
          run->longest_at = now - run->start;
        }
      if (interval > 16700)
        run->over_one++;
      if (interval > 33300)
        run->over_two++;
      if (now - run->start > G_USEC_PER_SEC / 2)
        {
          run->longest_steady = MAX (run->longest_steady, interval);
          if (interval > 33300)
            run->over_two_steady++;
        }
    }
  run->last_paint = now;
  run->frames++;
}

static void
record_one (McpTrace *trace,
            gint64    n)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  McpTraceDirection direction;

  /* Of each 4: a request, a progress notification, a log message and the
   * response to the request two entries before. */
  switch (n % 4)
    {
    case 0:
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"method\":\"tools/call\","
                              "\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"entry %" G_GINT64_FORMAT "\"}}}",
                              n / 4, n);
      direction = MCP_TRACE_DIRECTION_OUT;
      break;
    case 1:
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                              "\"params\":{\"progressToken\":%" G_GINT64_FORMAT ",\"progress\":%" G_GINT64_FORMAT "}}",
                              n / 4, n);
      direction = MCP_TRACE_DIRECTION_IN;
      break;
    case 2:
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                              "\"params\":{\"level\":\"info\",\"data\":\"working on %" G_GINT64_FORMAT "\"}}", n);
      direction = MCP_TRACE_DIRECTION_IN;
      break;
    default:
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{\"content\":"
                              "[{\"type\":\"text\",\"text\":\"entry %" G_GINT64_FORMAT "\"}]}}", n / 4, n);
      direction = MCP_TRACE_DIRECTION_IN;
      break;
    }

  messages = mcp_message_parse (text, -1, NULL);
  g_assert (messages != NULL && messages->len == 1);
  mcp_trace_record_message (trace, direction, g_ptr_array_index (messages, 0), text, strlen (text));
}

/* Every 2 ms, what the rate asks for by now: 1,000 a second, evenly. */
static gboolean
record_cb (gpointer user_data)
{
  Run *run = user_data;
  gint64 elapsed = g_get_monotonic_time () - run->start;
  gint64 due = MIN (elapsed, (gint64) opt_seconds * G_USEC_PER_SEC) * opt_rate / G_USEC_PER_SEC;

  if (run->traffic)
    for (; run->recorded < due; run->recorded++)
      record_one (run->trace, run->recorded);

  if (elapsed >= (gint64) opt_seconds * G_USEC_PER_SEC)
    {
      run->done = TRUE;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_frame_clock (data) != NULL;
}

typedef struct
{
  double fps;
  double longest_ms;
  double longest_at_s;
  guint  over_one;
  guint  over_two;
  guint  over_two_steady;
  double longest_steady_ms;
  double cpu_ms_per_s;
  gint64 recorded;
  guint  rows;
  gboolean following;
} Figures;

/* @traffic: record; @shown: the view shows the trace recorded into (not:
 * the cost of recording alone). */
static Figures
measure (gboolean traffic,
         gboolean shown)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  GtkWidget *window = gtk_window_new ();
  Run run = { 0 };
  Figures figures = { 0 };
  GdkFrameClock *clock;
  gulong handler;
  gint64 cpu_start;

  if (shown)
    plugboard_traffic_view_set_trace (view, trace);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_until (mapped, window, "the window");
  test_wait_ms (500);

  clock = gtk_widget_get_frame_clock (window);
  gtk_widget_add_tick_callback (window, tick_cb, NULL, NULL);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &run);

  run.trace = trace;
  run.traffic = traffic;
  run.start = g_get_monotonic_time ();
  cpu_start = cpu_us ();
  g_timeout_add (2, record_cb, &run);
  test_iterate_until (test_flag_set, &run.done, "the run");

  figures.cpu_ms_per_s = (cpu_us () - cpu_start) / 1000.0 / opt_seconds;
  figures.fps = run.frames / (double) opt_seconds;
  figures.longest_ms = run.longest / 1000.0;
  figures.longest_at_s = run.longest_at / (double) G_USEC_PER_SEC;
  figures.over_one = run.over_one;
  figures.over_two = run.over_two;
  figures.over_two_steady = run.over_two_steady;
  figures.longest_steady_ms = run.longest_steady / 1000.0;
  figures.recorded = run.recorded;
  figures.rows = g_list_model_get_n_items (plugboard_traffic_view_get_rows (view));
  figures.following = plugboard_traffic_view_get_following (view);

  g_signal_handler_disconnect (clock, handler);
  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();
  return figures;
}

static void
print_row (const char *what,
           double      ours,
           double      baseline)
{
  printf ("| %-36s | %10.1f | %10.1f | %7.2fx |\n", what, ours, baseline,
          baseline > 0 ? ours / baseline : 0.0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  Figures idle;
  Figures busy;
  Figures unseen;

  test_set_hang_bound (120);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-traffic-view: %s\n", error->message);
      return 2;
    }
  if (opt_seconds < 1 || opt_rate < 1)
    {
      g_printerr ("bench-traffic-view: --seconds and --rate must be at least 1\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      printf ("bench-traffic-view: SKIP: no display (run under xvfb-run -a)\n");
      return 77;
    }
  adw_init ();

  idle = measure (FALSE, TRUE);
  busy = measure (TRUE, TRUE);
  unseen = measure (TRUE, FALSE);

  printf ("\nbench-traffic-view: PlugboardTrafficView (Protocol, following) at 1280x800, "
          "%d entries a second for %d s (%" G_GINT64_FORMAT " recorded, %u rows shown at the end, %s)\n",
          opt_rate, opt_seconds, busy.recorded, busy.rows,
          busy.following ? "still following" : "NOT following");
  printf ("baseline: the same view, shown the same way, with no traffic; a tick callback keeps "
          "frames coming in both\n\n");
  printf ("| %-36s | %10s | %10s | %8s |\n", "measure", "traffic", "idle", "ratio");
  printf ("|--------------------------------------|------------|------------|----------|\n");
  print_row ("frames painted a second", busy.fps, idle.fps);
  print_row ("longest frame (ms)", busy.longest_ms, idle.longest_ms);
  print_row ("frames over 16.7 ms", busy.over_one, idle.over_one);
  print_row ("frames over 33.3 ms (dropped)", busy.over_two, idle.over_two);
  print_row ("after 0.5 s: longest frame (ms)", busy.longest_steady_ms, idle.longest_steady_ms);
  print_row ("after 0.5 s: frames over 33.3 ms", busy.over_two_steady, idle.over_two_steady);
  print_row ("main thread CPU (ms a second)", busy.cpu_ms_per_s, idle.cpu_ms_per_s);
  printf ("\nrecording alone (the same traffic into a trace no view shows): %.1f ms of CPU a second, "
          "%u frames over 33.3 ms, longest %.1f ms\n",
          unseen.cpu_ms_per_s, unseen.over_two, unseen.longest_ms);
  printf ("the longest frame came %.2f s into the traffic run (%.2f s into the idle one)\n",
          busy.longest_at_s, idle.longest_at_s);

  return busy.following ? 0 : 1;
}
