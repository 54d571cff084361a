/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-tool-list"

#include "config.h"

#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-permissions.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "mcp-tool-pool.h"
#include "plugboard-tool-list.h"
#include "test-engine.h"
#include "test-util.h"

/* PlugboardToolList over 10,000 real tools — mcp-fixture-server --tools N
 * behind a real McpServerManager and McpToolPool — against a baseline in
 * the same run: a bare GtkListView of GtkLabels with a GtkStringFilter
 * (substring, ignore case; GtkFilterListModel's defaults, not incremental,
 * like ours) over the same qualified names.
 *
 * Measured: building the list (model and widget until the filter is done
 * and the first frame is painted) and typing a 6-character query one key
 * at a time (each key: set the search, wait for GtkFilterListModel:pending
 * to be 0, then for the next frame's layout and paint).
 *
 * Two clocks. "busy" is the main thread's CPU time: the work the keystroke
 * cost, free of the frame clock's pacing (under Xvfb a frame waits for its
 * ~16 ms slot) and of other processes on a loaded machine. "wall" is what
 * a person waits, frame pacing included. Ours is set through
 * plugboard_tool_list_set_search(), skipping the search entry's 150 ms
 * debounce, as the baseline has none.
 *
 *   bench-tool-list [--tools N] [--runs R] [--query Q]
 * with MCP_TEST_FIXTURE_SERVER set (meson's test environment does).
 */

static int    opt_tools = 10000;
static int    opt_runs = 10;
static char  *opt_query = NULL;

static const GOptionEntry entries[] = {
  { "tools", 0, 0, G_OPTION_ARG_INT, &opt_tools, "Number of tools in the pool (default 10000)", "N" },
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs, "Times the query is typed per list (default 10)", "R" },
  { "query", 0, 0, G_OPTION_ARG_STRING, &opt_query, "The query typed (default a-9876)", "Q" },
  { NULL }
};

/* ------------------------------------------------------------------------ */
/* Clocks                                                                   */

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gint64
cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

typedef struct
{
  gint64 wall_start;
  gint64 cpu_start;
} Stamp;

static Stamp
stamp (void)
{
  Stamp s = { now_ns (), cpu_ns () };

  return s;
}

static void
elapsed_ms (const Stamp *s,
            double      *busy,
            double      *wall)
{
  *wall = (now_ns () - s->wall_start) / 1e6;
  *busy = (cpu_ns () - s->cpu_start) / 1e6;
}

/* ------------------------------------------------------------------------ */
/* Waiting for the filter, then for a painted frame                         */

typedef struct
{
  GtkFilterListModel *model;
  GdkFrameClock      *clock;
  gboolean            filtered;
  gboolean            painted;
} FrameWait;


static void
on_after_paint_cb (GdkFrameClock *clock,
                   FrameWait     *wait)
{
  if (wait->filtered)
    wait->painted = TRUE;
}

static void
check_filtered (FrameWait *wait)
{
  if (!wait->filtered && gtk_filter_list_model_get_pending (wait->model) == 0)
    {
      wait->filtered = TRUE;
      /* Whatever changed, one full frame (layout and paint) after the
       * filter finished. */
      gdk_frame_clock_request_phase (wait->clock, GDK_FRAME_CLOCK_PHASE_LAYOUT |
                                                  GDK_FRAME_CLOCK_PHASE_PAINT |
                                                  GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
    }
}

static gboolean
frame_done (gpointer data)
{
  FrameWait *wait = data;

  check_filtered (wait);
  return wait->painted;
}

static void
wait_filtered_and_painted (GtkWidget          *window,
                           GtkFilterListModel *model)
{
  FrameWait wait = { model, gtk_widget_get_frame_clock (window), FALSE, FALSE };
  gulong paint_id;
  gulong pending_id;

  g_assert (wait.clock != NULL);
  paint_id = g_signal_connect (wait.clock, "after-paint", G_CALLBACK (on_after_paint_cb), &wait);
  pending_id = g_signal_connect_swapped (model, "notify::pending", G_CALLBACK (check_filtered), &wait);
  test_iterate_until (frame_done, &wait, "the filter and a frame");
  g_signal_handler_disconnect (wait.clock, paint_id);
  g_signal_handler_disconnect (model, pending_id);
}

static gboolean
realized (gpointer data)
{
  return gtk_widget_get_frame_clock (data) != NULL && gtk_widget_get_mapped (data);
}

/* ------------------------------------------------------------------------ */
/* The two lists                                                            */

typedef struct
{
  const char         *name;
  GtkWidget          *window;
  GtkFilterListModel *model;
  void              (*set_search) (gpointer self, const char *text);
  gpointer            self;
  double              build_busy, build_wall;
  double              first_key_busy;
  GArray             *key_busy;   /* double, ms */
  GArray             *key_wall;
} Subject;

static void
ours_set_search (gpointer    self,
                 const char *text)
{
  plugboard_tool_list_set_search (PLUGBOARD_TOOL_LIST (self), text);
}

static void
baseline_set_search (gpointer    self,
                     const char *text)
{
  gtk_string_filter_set_search (GTK_STRING_FILTER (self), text);
}

static void
on_label_setup_cb (GtkListItemFactory *factory,
                   GtkListItem        *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
on_label_bind_cb (GtkListItemFactory *factory,
                  GtkListItem        *item)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static GtkWidget *
new_window (void)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  return window;
}

static void
build_ours (Subject        *s,
            GListModel     *pool,
            McpPermissions *permissions)
{
  Stamp t = stamp ();
  GtkWidget *list = plugboard_tool_list_new ();

  s->name = "PlugboardToolList";
  s->self = list;
  s->set_search = ours_set_search;
  plugboard_tool_list_set_tools (PLUGBOARD_TOOL_LIST (list), pool);
  plugboard_tool_list_set_permissions (PLUGBOARD_TOOL_LIST (list), permissions);
  s->model = GTK_FILTER_LIST_MODEL (plugboard_tool_list_get_shown_model (PLUGBOARD_TOOL_LIST (list)));
  s->window = new_window ();
  gtk_window_set_child (GTK_WINDOW (s->window), list);
  gtk_window_present (GTK_WINDOW (s->window));
  test_iterate_until (realized, s->window, "the window mapped");
  wait_filtered_and_painted (s->window, s->model);
  elapsed_ms (&t, &s->build_busy, &s->build_wall);
}

static void
build_baseline (Subject    *s,
                GListModel *pool)
{
  Stamp t = stamp ();
  guint n = g_list_model_get_n_items (pool);
  g_autofree const char **names = g_new0 (const char *, n + 1);
  g_autoptr(McpPoolTool) keep = NULL;
  GtkStringList *strings;
  GtkStringFilter *filter;
  GtkListItemFactory *factory;
  GtkWidget *view;
  GtkWidget *scrolled;

  /* The pool's entries live as long as the pool: borrowed names. */
  for (guint i = 0; i < n; i++)
    {
      McpPoolTool *tool = g_list_model_get_item (pool, i);

      names[i] = mcp_pool_tool_get_qualified_name (tool);
      g_object_unref (tool);
    }
  strings = gtk_string_list_new (names);
  filter = gtk_string_filter_new (gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  gtk_string_filter_set_ignore_case (filter, TRUE);
  gtk_string_filter_set_match_mode (filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  s->name = "baseline";
  s->self = filter;
  s->set_search = baseline_set_search;
  s->model = gtk_filter_list_model_new (G_LIST_MODEL (strings), GTK_FILTER (filter));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_label_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (on_label_bind_cb), NULL);
  view = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (s->model)))),
                            factory);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  s->window = new_window ();
  gtk_window_set_child (GTK_WINDOW (s->window), scrolled);
  gtk_window_present (GTK_WINDOW (s->window));
  test_iterate_until (realized, s->window, "the window mapped");
  wait_filtered_and_painted (s->window, s->model);
  elapsed_ms (&t, &s->build_busy, &s->build_wall);
}

/* Types the query one key at a time, then clears it (not timed). */
static void
type_query (Subject    *s,
            const char *query,
            gboolean    first_run)
{
  guint len = strlen (query);

  for (guint i = 1; i <= len; i++)
    {
      g_autofree char *prefix = g_strndup (query, i);
      Stamp t = stamp ();
      double busy, wall;

      s->set_search (s->self, prefix);
      wait_filtered_and_painted (s->window, s->model);
      elapsed_ms (&t, &busy, &wall);
      if (first_run && i == 1)
        s->first_key_busy = busy;
      else
        {
          g_array_append_val (s->key_busy, busy);
          g_array_append_val (s->key_wall, wall);
        }
    }

  s->set_search (s->self, "");
  wait_filtered_and_painted (s->window, s->model);
}

/* ------------------------------------------------------------------------ */
/* The pool                                                                 */

static gboolean
settled (gpointer data)
{
  McpServerState state = mcp_server_connection_get_state (data);

  return state != MCP_SERVER_STATE_PENDING;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
percentile (GArray *values,
            double  p)
{
  g_autoptr(GArray) sorted = g_array_copy (values);
  double rank;
  guint lo;

  if (sorted->len == 0)
    return 0;
  g_array_sort (sorted, compare_doubles);
  rank = p * (sorted->len - 1);
  lo = (guint) rank;
  if (lo + 1 >= sorted->len)
    return g_array_index (sorted, double, sorted->len - 1);
  return g_array_index (sorted, double, lo) +
         (rank - lo) * (g_array_index (sorted, double, lo + 1) - g_array_index (sorted, double, lo));
}

static void
print_row (const char *what,
           double      ours,
           double      baseline)
{
  printf ("| %-44s | %10.2f | %10.2f | %6.2fx |\n", what, ours, baseline,
          baseline > 0 ? ours / baseline : 0.0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- PlugboardToolList with many tools");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *user_dir = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *settings_file = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(McpToolPool) pool = NULL;
  g_autoptr(McpPermissions) permissions = NULL;
  McpServerConnection *connection;
  const char *server = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  const char *query;
  const char * const allow[] = { "mcp__bench__extra-1", NULL };
  const char * const deny[] = { "mcp__bench__crash", NULL };
  Subject ours = { 0 }, baseline = { 0 };
  TestOutcome r = { 0 };
  double connect_busy, connect_wall, pool_busy, pool_wall;
  Stamp t;
  int extra;

  /* Bounds only a hang: a run of the benchmark takes minutes. */
  test_set_hang_bound (300);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-tool-list: %s\n", error->message);
      return 2;
    }
  query = opt_query != NULL ? opt_query : "a-9876";

  if (server == NULL)
    {
      g_printerr ("bench-tool-list: set MCP_TEST_FIXTURE_SERVER to mcp-fixture-server (meson test sets it)\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      printf ("bench-tool-list: SKIP: no display (run under xvfb-run -a)\n");
      return 77;
    }
  adw_init ();

  /* The fixture lists 10 tools of its own, then extra-0 … */
  extra = MAX (opt_tools - 10, 0);
  dir = g_dir_make_tmp ("plugboard-bench-tool-list-XXXXXX", &error);
  g_assert_no_error (error);
  user_dir = g_build_filename (dir, "config", NULL);
  project_dir = g_build_filename (dir, "project", NULL);
  g_mkdir_with_parents (user_dir, 0700);
  g_mkdir_with_parents (project_dir, 0700);
  settings_file = g_build_filename (user_dir, "settings.json", NULL);
  json = g_strdup_printf ("{\"mcpServers\": {\"bench\": {\"command\": \"%s\", \"args\": [\"--tools\", \"%d\"]}}}",
                          server, extra);
  g_file_set_contents (settings_file, json, -1, &error);
  g_assert_no_error (error);

  settings = test_settings_load (user_dir, project_dir);

  t = stamp ();
  manager = mcp_server_manager_new ();
  mcp_server_manager_set_configs (manager, mcp_settings_get_servers (settings));
  connection = mcp_server_manager_lookup (manager, "bench");
  g_assert (connection != NULL);
  test_iterate_until (settled, connection, "the fixture server to connect");
  elapsed_ms (&t, &connect_busy, &connect_wall);
  if (mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_CONNECTED)
    g_error ("bench-tool-list: the fixture server did not connect (%s)",
             mcp_server_state_to_string (mcp_server_connection_get_state (connection)));

  t = stamp ();
  pool = mcp_tool_pool_new (G_LIST_MODEL (manager));
  elapsed_ms (&t, &pool_busy, &pool_wall);
  permissions = mcp_permissions_new (allow, deny, NULL);

  ours.key_busy = g_array_new (FALSE, FALSE, sizeof (double));
  ours.key_wall = g_array_new (FALSE, FALSE, sizeof (double));
  baseline.key_busy = g_array_new (FALSE, FALSE, sizeof (double));
  baseline.key_wall = g_array_new (FALSE, FALSE, sizeof (double));

  build_baseline (&baseline, G_LIST_MODEL (pool));
  build_ours (&ours, G_LIST_MODEL (pool), permissions);

  /* Alternating, so that any drift of the machine hits both. */
  for (int run = 0; run < MAX (opt_runs, 1); run++)
    {
      type_query (&baseline, query, run == 0);
      type_query (&ours, query, run == 0);
    }

  printf ("\nbench-tool-list: %u tools (mcp-fixture-server --tools %d, a real McpServerManager and McpToolPool), "
          "query \"%s\" typed %d times, GSK_RENDERER=%s\n",
          g_list_model_get_n_items (G_LIST_MODEL (pool)), extra, query, MAX (opt_runs, 1),
          g_getenv ("GSK_RENDERER") != NULL ? g_getenv ("GSK_RENDERER") : "(default)");
  printf ("setup, not compared: connect and tools/list %.1f ms wall; McpToolPool over them %.1f ms\n",
          connect_wall, pool_wall);
  printf ("baseline: a bare GtkListView of GtkLabels, GtkStringFilter (substring, ignore case) over the same "
          "qualified names in a GtkFilterListModel (not incremental, like ours)\n");
  printf ("busy = CPU time of the main thread (the work); wall includes the frame clock's pacing\n\n");
  printf ("| %-44s | %10s | %10s | %7s |\n", "measure (ms)", "ours", "baseline", "ratio");
  printf ("|----------------------------------------------|------------|------------|---------|\n");
  print_row ("build: model + first frame, busy", ours.build_busy, baseline.build_busy);
  print_row ("build: model + first frame, wall", ours.build_wall, baseline.build_wall);
  print_row ("first keystroke, cold search cache, busy", ours.first_key_busy, baseline.first_key_busy);
  print_row ("per keystroke, busy, median", percentile (ours.key_busy, 0.5), percentile (baseline.key_busy, 0.5));
  print_row ("per keystroke, busy, p95", percentile (ours.key_busy, 0.95), percentile (baseline.key_busy, 0.95));
  print_row ("per keystroke, wall, median", percentile (ours.key_wall, 0.5), percentile (baseline.key_wall, 0.5));
  print_row ("per keystroke, wall, p95", percentile (ours.key_wall, 0.95), percentile (baseline.key_wall, 0.95));
  printf ("(%u keystrokes each, the first run's first key reported apart)\n\n", ours.key_busy->len);

  gtk_window_destroy (GTK_WINDOW (ours.window));
  gtk_window_destroy (GTK_WINDOW (baseline.window));
  g_clear_object (&pool);
  r = (TestOutcome) { 0 };
  mcp_server_manager_close_async (manager, NULL, test_outcome_cb,
                                   test_outcome_for (&r, mcp_server_manager_close_finish));
  test_iterate_until (test_outcome_done, &r, "the manager to close");
  g_clear_error (&r.error);
  test_remove_tree (dir);

  return 0;
}
