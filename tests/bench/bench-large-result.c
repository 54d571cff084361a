/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-large-result"

#include "config.h"

#include <errno.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>

#include "mcp-permissions.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "mcp-tool-pool.h"
#include "plugboard-result-view.h"
#include "plugboard-tool-page.h"
#include "test-engine.h"
#include "test-util.h"

/* Issue 7: "a 50 MB result does not freeze the window".
 *
 * A real stdio server (mcp-fixture-server --big) answers a 50 MB result —
 * one text block of plain text, one text block holding a JSON document,
 * or 10,000 text blocks — to a real PlugboardToolPage in a window
 * (plugboard_tool_page_run, as the Run button does). Measured on the main
 * thread, from the moment Run is pressed until the result view has painted
 * its first frame:
 * - the longest stall of the main loop: a G_PRIORITY_HIGH source due every
 *   1 ms notes the largest gap between its dispatches (a frame is 16.7 ms;
 *   a person notices anything over 100 ms);
 * - the total time.
 * Each kind runs with the default output limit (MAX_MCP_OUTPUT_TOKENS
 * unset: the text is cut at 100,000 characters before the view sees it)
 * and with the limit raised past the result, so that all 50 MB reach the
 * result view.
 *
 * Baseline in the same run: the same server, the same request and the
 * same bytes, only read from the raw pipe by a GLib main loop (a
 * g_unix_fd_add source, one 64 KiB read per dispatch, no parsing), with
 * the same stall meter running.
 *
 *   bench-large-result [--bytes N] [--blocks K] [--runs R] [--kind KIND] [--limit L]
 * with MCP_TEST_FIXTURE_SERVER set (meson's test environment does).
 */

#define READ_CHUNK (64 * 1024)

static int opt_bytes = 50 * 1000 * 1000;
static int opt_blocks = 10000;
static int opt_runs = 2;
static char *opt_kind = NULL;
static char *opt_limit = NULL;

static const GOptionEntry entries[] = {
  { "bytes", 0, 0, G_OPTION_ARG_INT, &opt_bytes, "Size of the result (default 50,000,000)", "N" },
  { "blocks", 0, 0, G_OPTION_ARG_INT, &opt_blocks, "Content blocks of the \"blocks\" kind (default 10000)", "K" },
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs, "Runs of each case (default 2)", "R" },
  { "kind", 0, 0, G_OPTION_ARG_STRING, &opt_kind, "Only this kind: text, json or blocks (default all)", "KIND" },
  { "limit", 0, 0, G_OPTION_ARG_STRING, &opt_limit, "Output limit: default, none or both (default both)", "L" },
  { NULL }
};

/* ------------------------------------------------------------------------ */
/* Clocks and the stall meter                                               */

static gint64
now_us (void)
{
  return g_get_monotonic_time ();
}

typedef struct
{
  guint  source;
  gint64 last;
  gint64 longest;
  gint64 start;
} StallMeter;

static gboolean
stall_tick_cb (gpointer data)
{
  StallMeter *meter = data;
  gint64 now = now_us ();

  meter->longest = MAX (meter->longest, now - meter->last);
  meter->last = now;
  return G_SOURCE_CONTINUE;
}

static void
stall_meter_start (StallMeter *meter)
{
  meter->start = meter->last = now_us ();
  meter->longest = 0;
  meter->source = g_timeout_add_full (G_PRIORITY_HIGH, 1, stall_tick_cb, meter, NULL);
}

/* The longest stall (ms) and the total (ms), the gap up to now included. */
static void
stall_meter_stop (StallMeter *meter,
                  double     *longest_ms,
                  double     *total_ms)
{
  stall_tick_cb (meter);
  g_source_remove (meter->source);
  meter->source = 0;
  *longest_ms = meter->longest / 1000.0;
  *total_ms = (now_us () - meter->start) / 1000.0;
}

static char *
arguments_json (const char *kind)
{
  return g_strdup_printf ("{\"bytes\":%d,\"kind\":\"%s\",\"count\":%d}", opt_bytes, kind, opt_blocks);
}

/* ------------------------------------------------------------------------ */
/* The baseline: the same bytes from a raw pipe                             */

typedef struct
{
  int      fd;
  char    *buf;
  gsize    len;
  gsize    cap;
  guint    lines;
  gboolean done;
} RawReader;

static gboolean
raw_readable_cb (int          fd,
                 GIOCondition condition,
                 gpointer     data)
{
  RawReader *r = data;

  for (;;)
    {
      gssize n;

      if (r->cap - r->len < READ_CHUNK)
        {
          r->cap = MAX (r->cap * 2, r->len + READ_CHUNK);
          r->buf = g_realloc (r->buf, r->cap);
        }
      n = read (fd, r->buf + r->len, READ_CHUNK);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            {
              r->done = TRUE;
              return G_SOURCE_REMOVE;
            }
          break;
        }
      /* Only the line ends are looked for: no parsing. */
      for (const char *p = r->buf + r->len, *end = p + n;
           (p = memchr (p, '\n', (gsize) (end - p))) != NULL; p++)
        r->lines++;
      r->len += (gsize) n;
      if (r->lines >= 2)
        {
          r->done = TRUE;
          return G_SOURCE_REMOVE;
        }
      /* One read per dispatch: the loop runs between reads. */
      break;
    }
  return G_SOURCE_CONTINUE;
}

static void
run_baseline (const char *server,
              const char *kind,
              double     *longest_ms,
              double     *total_ms,
              gsize      *bytes_read)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *args = arguments_json (kind);
  g_autofree char *request = NULL;
  GOutputStream *in;
  RawReader r = { 0 };
  StallMeter meter = { 0 };
  guint source;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                              server, "--big", NULL);
  g_assert_no_error (error);
  r.fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (process)));
  g_unix_set_fd_nonblocking (r.fd, TRUE, &error);
  g_assert_no_error (error);

  request = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                             "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                             "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n"
                             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                             "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                             "{\"name\":\"big\",\"arguments\":%s}}\n", args);
  in = g_subprocess_get_stdin_pipe (process);

  stall_meter_start (&meter);
  g_output_stream_write_all (in, request, strlen (request), NULL, NULL, &error);
  g_assert_no_error (error);
  source = g_unix_fd_add (r.fd, G_IO_IN | G_IO_HUP | G_IO_ERR, raw_readable_cb, &r);
  test_iterate_until (test_flag_set, &r.done, "the raw pipe");
  stall_meter_stop (&meter, longest_ms, total_ms);
  if (r.lines < 2)
    g_error ("bench-large-result: the fixture server closed its output early");
  *bytes_read = r.len;
  (void) source;

  g_output_stream_close (in, NULL, NULL);
  g_subprocess_wait (process, NULL, NULL);
  g_free (r.buf);
}

/* ------------------------------------------------------------------------ */
/* Ours: the tool page in a window                                          */

typedef struct
{
  PlugboardToolPage *page;
  GdkFrameClock     *clock;
  gboolean           finished;
  gboolean           painted;
} RunWait;

static void
on_after_paint_cb (GdkFrameClock *clock,
                   RunWait       *wait)
{
  if (wait->finished)
    wait->painted = TRUE;
}

static void
on_running_cb (GObject    *page,
               GParamSpec *pspec,
               RunWait    *wait)
{
  gboolean running;

  g_object_get (page, "running", &running, NULL);
  if (!running && !wait->finished)
    {
      wait->finished = TRUE;
      /* The result was set: one full frame (layout and paint) after. */
      gdk_frame_clock_request_phase (wait->clock, GDK_FRAME_CLOCK_PHASE_LAYOUT |
                                                  GDK_FRAME_CLOCK_PHASE_PAINT |
                                                  GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
    }
}

static gboolean
run_painted (gpointer data)
{
  return ((RunWait *) data)->painted;
}

static void
run_ours (GtkWidget         *window,
          PlugboardToolPage *page,
          const char        *kind,
          double            *longest_ms,
          double            *total_ms,
          guint             *n_blocks)
{
  g_autofree char *args = arguments_json (kind);
  g_autoptr(JsonNode) node = json_from_string (args, NULL);
  RunWait wait = { page, gtk_widget_get_frame_clock (window), FALSE, FALSE };
  StallMeter meter = { 0 };
  gulong paint_id, running_id;

  g_assert (node != NULL && wait.clock != NULL);
  plugboard_tool_page_set_arguments (page, json_node_get_object (node));
  paint_id = g_signal_connect (wait.clock, "after-paint", G_CALLBACK (on_after_paint_cb), &wait);
  running_id = g_signal_connect (page, "notify::running", G_CALLBACK (on_running_cb), &wait);

  stall_meter_start (&meter);
  plugboard_tool_page_run (page);
  test_iterate_until (run_painted, &wait, "the result's first frame");
  stall_meter_stop (&meter, longest_ms, total_ms);

  g_signal_handler_disconnect (wait.clock, paint_id);
  g_signal_handler_disconnect (page, running_id);

  {
    GtkWidget *view = GTK_WIDGET (page);
    GtkWidget *found = NULL;
    GPtrArray *stack = g_ptr_array_new ();

    g_ptr_array_add (stack, view);
    while (stack->len > 0 && found == NULL)
      {
        GtkWidget *w = g_ptr_array_steal_index_fast (stack, stack->len - 1);

        if (PLUGBOARD_IS_RESULT_VIEW (w))
          found = w;
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (stack, c);
      }
    g_ptr_array_unref (stack);
    g_assert (found != NULL);
    *n_blocks = plugboard_result_view_get_n_blocks (PLUGBOARD_RESULT_VIEW (found));
  }
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

static gboolean
settled (gpointer data)
{
  return mcp_server_connection_get_state (data) != MCP_SERVER_STATE_PENDING;
}

static gboolean
realized (gpointer data)
{
  return gtk_widget_get_frame_clock (data) != NULL && gtk_widget_get_mapped (data);
}

static McpPoolTool *
find_tool (GListModel *pool,
           const char *qualified_name)
{
  for (guint i = 0; i < g_list_model_get_n_items (pool); i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (pool, i);

      if (g_str_equal (mcp_pool_tool_get_qualified_name (tool), qualified_name))
        return g_steal_pointer (&tool);
    }
  return NULL;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *values,
        int     n)
{
  qsort (values, (gsize) n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static double
maximum (const double *values,
         int           n)
{
  double m = 0;

  for (int i = 0; i < n; i++)
    m = MAX (m, values[i]);
  return m;
}

int
main (int   argc,
      char *argv[])
{
  static const char * const kinds[] = { "text", "json", "blocks" };
  g_autoptr(GOptionContext) context = g_option_context_new ("- a 50 MB tool result in the tool page");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *user_dir = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *settings_file = NULL;
  g_autofree char *json = NULL;
  g_autofree char *results_dir = NULL;
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(McpToolPool) pool = NULL;
  g_autoptr(McpPermissions) permissions = NULL;
  g_autoptr(McpPoolTool) tool = NULL;
  McpServerConnection *connection;
  const char *server = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  const char * const allow[] = { "mcp__bench", NULL };
  GtkWidget *window;
  GtkWidget *page;
  TestOutcome r = { 0 };
  int runs;

  /* Bounds only a hang: a run of the benchmark takes minutes. */
  test_set_hang_bound (300);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-large-result: %s\n", error->message);
      return 2;
    }
  runs = MAX (opt_runs, 1);
  if (server == NULL)
    {
      g_printerr ("bench-large-result: set MCP_TEST_FIXTURE_SERVER to mcp-fixture-server (meson test sets it)\n");
      return 2;
    }

  dir = g_dir_make_tmp ("plugboard-bench-large-result-XXXXXX", &error);
  g_assert_no_error (error);
  /* Saved results (binaries, full texts) go below the test's own dirs. */
  results_dir = g_build_filename (dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", results_dir, TRUE);

  if (!gtk_init_check ())
    {
      printf ("bench-large-result: SKIP: no display (run under xvfb-run -a)\n");
      test_remove_tree (dir);
      return 77;
    }
  adw_init ();

  user_dir = g_build_filename (dir, "config", NULL);
  project_dir = g_build_filename (dir, "project", NULL);
  g_mkdir_with_parents (user_dir, 0700);
  g_mkdir_with_parents (project_dir, 0700);
  settings_file = g_build_filename (user_dir, "settings.json", NULL);
  json = g_strdup_printf ("{\"mcpServers\": {\"bench\": {\"command\": \"%s\", \"args\": [\"--big\"]}}}", server);
  g_file_set_contents (settings_file, json, -1, &error);
  g_assert_no_error (error);

  settings = test_settings_load (user_dir, project_dir);

  manager = mcp_server_manager_new ();
  mcp_server_manager_set_configs (manager, mcp_settings_get_servers (settings));
  connection = mcp_server_manager_lookup (manager, "bench");
  g_assert (connection != NULL);
  test_iterate_until (settled, connection, "the fixture server to connect");
  if (mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_CONNECTED)
    g_error ("bench-large-result: the fixture server did not connect (%s)",
             mcp_server_state_to_string (mcp_server_connection_get_state (connection)));
  pool = mcp_tool_pool_new (G_LIST_MODEL (manager));
  tool = find_tool (G_LIST_MODEL (pool), "mcp__bench__big");
  if (tool == NULL)
    g_error ("bench-large-result: the fixture server does not list “big”");
  permissions = mcp_permissions_new (allow, NULL, NULL);

  page = plugboard_tool_page_new ();
  plugboard_tool_page_set_permissions (PLUGBOARD_TOOL_PAGE (page), permissions);
  plugboard_tool_page_set_tool (PLUGBOARD_TOOL_PAGE (page), tool);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_until (realized, window, "the window mapped");

  printf ("\nbench-large-result: %d bytes from mcp-fixture-server --big (a real stdio server) into a "
          "PlugboardToolPage in a 1280×800 window; %d run(s) of each case; GSK_RENDERER=%s\n",
          opt_bytes, runs, g_getenv ("GSK_RENDERER") != NULL ? g_getenv ("GSK_RENDERER") : "(default)");
  printf ("stall = longest gap between dispatches of a G_PRIORITY_HIGH 1 ms source on the main thread, "
          "from Run until the result's first painted frame (worst of the runs); total = Run to that frame "
          "(median)\n");
  printf ("baseline = the same request and bytes from the same server, only read from the raw pipe by a "
          "GLib main loop (no parsing), same meter\n");
  printf ("a frame is 16.7 ms; a person notices a stall over 100 ms\n\n");
  printf ("| %-34s | %9s | %9s | %9s | %9s | %9s | %9s | %6s |\n", "case", "stall ms", "base ms", "ratio",
          "total ms", "base ms", "ratio", "blocks");
  printf ("|------------------------------------|-----------|-----------|-----------|-----------|-----------|-----------|--------|\n");

  for (int limit = 0; limit < 2; limit++)
    {
      if (opt_limit != NULL && !g_str_equal (opt_limit, "both") &&
          g_str_equal (opt_limit, "none") != (limit == 1))
        continue;
      if (limit == 0)
        g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");
      else
        g_setenv ("MAX_MCP_OUTPUT_TOKENS", "1000000000", TRUE);

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          g_autofree double *stall = g_new0 (double, runs);
          g_autofree double *total = g_new0 (double, runs);
          g_autofree double *base_stall = g_new0 (double, runs);
          g_autofree double *base_total = g_new0 (double, runs);
          g_autofree char *label = NULL;
          double s, bs;
          guint n_blocks = 0;
          gsize raw = 0;

          if (opt_kind != NULL && !g_str_equal (opt_kind, kinds[k]))
            continue;
          /* Alternating, so that any drift of the machine hits both. */
          for (int run = 0; run < runs; run++)
            {
              run_baseline (server, kinds[k], &base_stall[run], &base_total[run], &raw);
              run_ours (window, PLUGBOARD_TOOL_PAGE (page), kinds[k], &stall[run], &total[run], &n_blocks);
            }

          if (g_str_equal (kinds[k], "blocks"))
            label = g_strdup_printf ("%d blocks, %s", opt_blocks, limit ? "no limit" : "default limit");
          else
            label = g_strdup_printf ("%s, %s", kinds[k], limit ? "no limit" : "default limit");
          s = maximum (stall, runs);
          bs = maximum (base_stall, runs);
          printf ("| %-34s | %9.1f | %9.1f | %8.1fx | %9.1f | %9.1f | %8.2fx | %6u |\n",
                  label, s, bs, bs > 0 ? s / bs : 0.0,
                  median (total, runs), median (base_total, runs),
                  median (base_total, runs) > 0 ? median (total, runs) / median (base_total, runs) : 0.0,
                  n_blocks);
          fflush (stdout);
        }
    }
  printf ("\n");

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&pool);
  r = (TestOutcome) { 0 };
  mcp_server_manager_close_async (manager, NULL, test_outcome_cb,
                                   test_outcome_for (&r, mcp_server_manager_close_finish));
  test_iterate_until (test_outcome_done, &r, "the manager to close");
  g_clear_error (&r.error);
  test_remove_tree (dir);

  return 0;
}
