/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-tool-list"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <graphene.h>

#include <glib/gstdio.h>

#include "mcp-permissions.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "mcp-tool-pool.h"
#include "plugboard-tool-list.h"
#include "plugboard-tool-row.h"
#include "test-engine.h"
#include "test-fake-connection.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* The fixture's built-in tools (echo, fail, slow, crash, abort, flood,
 * garbage, ask, stderr, state) and the extra-N ones asked for with --tools. */
#define N_BUILTIN 10
#define N_EXTRA   3

/* ------------------------------------------------------------------------ */
/* A project: real settings files in a temporary folder and a manager       */

typedef struct
{
  char             *dir;
  McpSettings      *settings;
  McpServerManager *manager;
  McpToolPool      *pool;
  McpPermissions   *permissions;
  GtkWidget        *window;
  PlugboardToolList *list;
} Fixture;

static gboolean
connected (gpointer data)
{
  return mcp_server_connection_get_state (data) == MCP_SERVER_STATE_CONNECTED;
}

static gboolean
filter_done (gpointer data)
{
  PlugboardToolList *list = data;

  return gtk_filter_list_model_get_pending (GTK_FILTER_LIST_MODEL (plugboard_tool_list_get_shown_model (list))) == 0;
}

/* One user-scope stdio server "fixture" with --tools N_EXTRA, and
 * permission rules: echo allowed, crash denied, slow asked. */
static void
fixture_set_up (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *user_dir = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *user_file = NULL;
  g_autofree char *json = NULL;
  const char *server = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  McpServerConnection *connection;

  g_assert_nonnull (server);

  f->dir = g_dir_make_tmp ("plugboard-test-tool-list-XXXXXX", &error);
  g_assert_no_error (error);
  user_dir = g_build_filename (f->dir, "config", NULL);
  project_dir = g_build_filename (f->dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);

  user_file = g_build_filename (user_dir, "settings.json", NULL);
  json = g_strdup_printf ("{\"mcpServers\": {\"fixture\": {\"command\": \"%s\", \"args\": [\"--tools\", \"%d\"]}},"
                          " \"permissions\": {\"allow\": [\"mcp__fixture__echo\"],"
                          " \"deny\": [\"mcp__fixture__crash\"], \"ask\": [\"mcp__fixture__slow\"]}}",
                          server, N_EXTRA);
  test_write_file (user_file, json);

  f->settings = test_settings_load (user_dir, project_dir);

  f->permissions = mcp_permissions_new (mcp_settings_get_permissions_allow (f->settings),
                                        mcp_settings_get_permissions_deny (f->settings),
                                        mcp_settings_get_permissions_ask (f->settings));

  f->manager = mcp_server_manager_new ();
  mcp_server_manager_set_configs (f->manager, mcp_settings_get_servers (f->settings));
  connection = mcp_server_manager_lookup (f->manager, "fixture");
  g_assert_nonnull (connection);
  test_iterate_until (connected, connection, "the fixture connected");

  f->pool = mcp_tool_pool_new (G_LIST_MODEL (f->manager));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->pool)), ==, N_BUILTIN + N_EXTRA);

  f->list = PLUGBOARD_TOOL_LIST (plugboard_tool_list_new ());
  plugboard_tool_list_set_tools (f->list, G_LIST_MODEL (f->pool));
  plugboard_tool_list_set_permissions (f->list, f->permissions);

  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 720, 1000);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->list));
  gtk_window_present (GTK_WINDOW (f->window));
  test_iterate_until (filter_done, f->list, "the list filtered");
  wait_frames (4);
}

static void
fixture_tear_down (Fixture *f)
{
  TestOutcome r = { 0 };

  gtk_window_destroy (GTK_WINDOW (f->window));
  test_iterate_pending ();

  g_clear_object (&f->pool);
  mcp_server_manager_close_async (f->manager, NULL, test_outcome_cb,
                                   test_outcome_for (&r, mcp_server_manager_close_finish));
  test_iterate_until (test_outcome_done, &r, "manager closed");
  g_assert_no_error (r.error);

  g_clear_object (&f->manager);
  g_clear_object (&f->settings);
  g_clear_object (&f->permissions);
  test_remove_tree (f->dir);
  g_free (f->dir);
}

/* ------------------------------------------------------------------------ */
/* Reading the widgets                                                      */

static GtkWidget *
list_child (PlugboardToolList *list,
            const char        *name)
{
  return template_child (list, PLUGBOARD_TYPE_TOOL_LIST, name);
}

static GtkWidget *
row_child (PlugboardToolRow *row,
           const char       *name)
{
  return template_child (row, PLUGBOARD_TYPE_TOOL_ROW, name);
}

static const char *
row_label (PlugboardToolRow *row,
           const char       *name)
{
  return gtk_label_get_text (GTK_LABEL (row_child (row, name)));
}

static PlugboardToolRow *
find_row_in (GtkWidget  *widget,
             const char *qualified_name)
{
  if (PLUGBOARD_IS_TOOL_ROW (widget))
    {
      PlugboardToolRow *row = PLUGBOARD_TOOL_ROW (widget);

      if (gtk_widget_get_mapped (widget) &&
          g_strcmp0 (row_label (row, "name_label"), qualified_name) == 0)
        return row;
      return NULL;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      PlugboardToolRow *row = find_row_in (child, qualified_name);

      if (row != NULL)
        return row;
    }
  return NULL;
}

/* The row on screen showing @qualified_name. */
static PlugboardToolRow *
find_row (PlugboardToolList *list,
          const char        *qualified_name)
{
  PlugboardToolRow *row = find_row_in (list_child (list, "list_view"), qualified_name);

  if (row == NULL)
    g_error ("no row on screen shows %s (list %dx%d)", qualified_name,
             gtk_widget_get_width (GTK_WIDGET (list)), gtk_widget_get_height (GTK_WIDGET (list)));
  return row;
}

/* Scrolls the list to its end: the last rows come on screen (the window
 * holds about ten three-line rows). */
static void
scroll_to_end (PlugboardToolList *list)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (list_child (list, "list_view"),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;

  g_assert_nonnull (scrolled);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adjustment,
                            gtk_adjustment_get_upper (adjustment) -
                            gtk_adjustment_get_page_size (adjustment));
  wait_frames (4);
}

/* The qualified names shown, in order, joined by spaces. */
static char *
shown_names (PlugboardToolList *list)
{
  GListModel *model = plugboard_tool_list_get_shown_model (list);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (model, i);

      if (names->len > 0)
        g_string_append_c (names, ' ');
      g_string_append (names, mcp_pool_tool_get_qualified_name (tool));
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static void
search (Fixture    *f,
        const char *text)
{
  plugboard_tool_list_set_search (f->list, text);
  test_iterate_until (filter_done, f->list, "the list filtered");
  wait_frames (4);
}

static void
assert_shown (Fixture    *f,
              const char *expected)
{
  g_autofree char *names = shown_names (f->list);

  g_assert_cmpstr (names, ==, expected);
}

static const char *
visible_page (PlugboardToolList *list)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (list_child (list, "stack")));
}

static const char *
count_text (PlugboardToolList *list)
{
  return gtk_label_get_text (GTK_LABEL (list_child (list, "count_label")));
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

static void
test_count (void)
{
  Fixture f = { 0 };
  PlugboardToolRow *row;

  fixture_set_up (&f);

  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, N_BUILTIN + N_EXTRA);
  g_assert_cmpstr (count_text (f.list), ==, "13 tools");
  g_assert_cmpstr (visible_page (f.list), ==, "list");

  row = find_row (f.list, "mcp__fixture__echo");
  g_assert_cmpstr (row_label (row, "title_label"), ==, "Echo");
  scroll_to_end (f.list);
  row = find_row (f.list, "mcp__fixture__extra-2");
  g_assert_cmpstr (row_label (row, "title_label"), ==, "extra-2");

  fixture_tear_down (&f);
}

/* Issue 21: All Tools kept the order servers connected in, which changes
 * between launches; now by server, then by name. */
static void
test_sorted (void)
{
  Fixture f = { 0 };
  GListModel *shown;
  g_autofree char *previous = NULL;

  fixture_set_up (&f);
  shown = plugboard_tool_list_get_shown_model (f.list);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, N_BUILTIN + N_EXTRA);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (shown, i);
      const char *name = mcp_pool_tool_get_qualified_name (tool);

      if (previous != NULL)
        g_assert_cmpint (strcmp (previous, name), <, 0);
      g_free (previous);
      previous = g_strdup (name);
    }

  fixture_tear_down (&f);
}

static void
count_cb (guint *counter)
{
  (*counter)++;
}

static gboolean
search_is_garbage (gpointer data)
{
  g_autofree char *text = NULL;

  g_object_get (data, "search", &text, NULL);
  return g_strcmp0 (text, "garbage") == 0;
}

static void
test_search (void)
{
  Fixture f = { 0 };
  guint notified = 0;

  fixture_set_up (&f);
  g_signal_connect_swapped (f.list, "notify::n-shown", G_CALLBACK (count_cb), &notified);

  /* By name, case-insensitively. */
  search (&f, "FLOOD");
  assert_shown (&f, "mcp__fixture__flood");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, 1);
  g_assert_cmpuint (notified, >, 0);
  g_assert_cmpstr (count_text (f.list), ==, "1 of 13 tools");
  g_assert_nonnull (find_row (f.list, "mcp__fixture__flood"));

  /* Typed further, then back (narrowing and widening). */
  search (&f, "e");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, N_BUILTIN + N_EXTRA);
  search (&f, "ex");
  assert_shown (&f, "mcp__fixture__crash mcp__fixture__extra-0 mcp__fixture__extra-1 mcp__fixture__extra-2 mcp__fixture__stderr");
  search (&f, "extra-1");
  assert_shown (&f, "mcp__fixture__extra-1");
  search (&f, "ex");
  assert_shown (&f, "mcp__fixture__crash mcp__fixture__extra-0 mcp__fixture__extra-1 mcp__fixture__extra-2 mcp__fixture__stderr");

  /* By description words, every one of them. */
  search (&f, "without answering");
  assert_shown (&f, "mcp__fixture__abort mcp__fixture__crash");
  search (&f, "without answering sigabrt");
  assert_shown (&f, "mcp__fixture__abort");
  search (&f, "  answering   WITHOUT  ");
  assert_shown (&f, "mcp__fixture__abort mcp__fixture__crash");

  /* The qualified name, and the title (“Echo” is the echo tool's only). */
  search (&f, "mcp__fixture__st");
  assert_shown (&f, "mcp__fixture__state mcp__fixture__stderr");
  search (&f, "echo message");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, 1 + N_EXTRA);

  /* Nothing matches: the status says so. */
  search (&f, "echo nonesuch");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, 0);
  g_assert_cmpstr (visible_page (f.list), ==, "no-match");
  g_assert_true (gtk_widget_get_mapped (list_child (f.list, "no_match_page")));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (list_child (f.list, "no_match_page"))), ==,
                   "No Tools Match");
  g_assert_cmpstr (count_text (f.list), ==, "0 of 13 tools");

  /* Cleared: everything again, and the entry follows the property. */
  search (&f, "");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, N_BUILTIN + N_EXTRA);
  g_assert_cmpstr (visible_page (f.list), ==, "list");
  g_assert_cmpstr (count_text (f.list), ==, "13 tools");

  /* Typing in the search entry filters too. */
  gtk_editable_set_text (GTK_EDITABLE (list_child (f.list, "search_entry")), "garbage");
  test_iterate_until (search_is_garbage, f.list, "the entry to set the search");
  test_iterate_until (filter_done, f.list, "the list filtered");
  assert_shown (&f, "mcp__fixture__garbage");

  fixture_tear_down (&f);
}

static void
test_toggles (void)
{
  Fixture f = { 0 };

  fixture_set_up (&f);

  /* Only echo declares readOnlyHint; every other tool is destructive by
   * declaration (crash) or by default. */
  g_object_set (f.list, "read-only-only", TRUE, NULL);
  test_iterate_until (filter_done, f.list, "the list filtered");
  assert_shown (&f, "mcp__fixture__echo");
  g_object_set (f.list, "read-only-only", FALSE, NULL);
  test_iterate_until (filter_done, f.list, "the list filtered");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, N_BUILTIN + N_EXTRA);

  /* The same through the filter menu's action. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.list), "tool-list.hide-destructive", NULL));
  test_iterate_until (filter_done, f.list, "the list filtered");
  {
    gboolean hide = FALSE;

    g_object_get (f.list, "hide-destructive", &hide, NULL);
    g_assert_true (hide);
  }
  assert_shown (&f, "mcp__fixture__echo");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.list), "tool-list.hide-destructive", NULL));
  test_iterate_until (filter_done, f.list, "the list filtered");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, N_BUILTIN + N_EXTRA);

  /* echo declares openWorldHint false; the rest are open-world by default. */
  g_object_set (f.list, "open-world-only", TRUE, NULL);
  test_iterate_until (filter_done, f.list, "the list filtered");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, N_BUILTIN + N_EXTRA - 1);
  search (&f, "echo");
  assert_shown (&f, "mcp__fixture__extra-0 mcp__fixture__extra-1 mcp__fixture__extra-2");

  /* Toggles and words together: nothing is read-only and open-world. */
  g_object_set (f.list, "read-only-only", TRUE, NULL);
  test_iterate_until (filter_done, f.list, "the list filtered");
  wait_frames (4);
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (f.list), ==, 0);
  g_assert_cmpstr (visible_page (f.list), ==, "no-match");

  g_object_set (f.list, "open-world-only", FALSE, NULL);
  test_iterate_until (filter_done, f.list, "the list filtered");
  wait_frames (4);
  assert_shown (&f, "mcp__fixture__echo");
  g_assert_cmpstr (visible_page (f.list), ==, "list");

  fixture_tear_down (&f);
}

static void
on_activated_cb (PlugboardToolList *list,
                 McpPoolTool       *tool,
                 GPtrArray         *activated)
{
  g_ptr_array_add (activated, g_strdup (mcp_pool_tool_get_qualified_name (tool)));
}

static void
test_activated (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *list_view;

  fixture_set_up (&f);
  g_signal_connect (f.list, "activated", G_CALLBACK (on_activated_cb), activated);
  list_view = list_child (f.list, "list_view");

  /* A row activated (click or Enter): its tool, by position in what shows. */
  g_signal_emit_by_name (list_view, "activate", 3);
  g_assert_cmpuint (activated->len, ==, 1);
  {
    g_autoptr(McpPoolTool) fourth = g_list_model_get_item (plugboard_tool_list_get_shown_model (f.list), 3);

    g_assert_cmpstr (g_ptr_array_index (activated, 0), ==, mcp_pool_tool_get_qualified_name (fourth));
  }

  search (&f, "state");
  g_signal_emit_by_name (list_view, "activate", 0);
  g_assert_cmpuint (activated->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (activated, 1), ==, "mcp__fixture__state");

  /* Enter in the search opens the first tool shown. */
  search (&f, "stderr");
  g_signal_emit_by_name (list_child (f.list, "search_entry"), "activate");
  g_assert_cmpuint (activated->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (activated, 2), ==, "mcp__fixture__stderr");

  /* …and nothing when nothing shows. */
  search (&f, "nonesuch");
  g_signal_emit_by_name (list_child (f.list, "search_entry"), "activate");
  g_assert_cmpuint (activated->len, ==, 3);

  fixture_tear_down (&f);
}

typedef struct
{
  gboolean visible;
  gboolean implied;
} Badge;

static Badge
badge (PlugboardToolRow *row,
       const char       *name)
{
  GtkWidget *widget = row_child (row, name);
  Badge b = { gtk_widget_get_visible (widget), gtk_widget_has_css_class (widget, "implied") };

  if (b.visible)
    g_assert_true (gtk_widget_get_mapped (widget));
  return b;
}

static void
assert_badge (PlugboardToolRow *row,
              const char       *name,
              gboolean          visible,
              gboolean          implied)
{
  Badge b = badge (row, name);

  g_assert_cmpint (b.visible, ==, visible);
  if (visible)
    {
      const char *tooltip = gtk_widget_get_tooltip_text (row_child (row, name));

      g_assert_cmpint (b.implied, ==, implied);
      if (implied)
        g_assert_cmpstr (tooltip, ==, "Not declared; the MCP default");
      else
        g_assert_true (g_str_has_prefix (tooltip, "Declared by the tool"));
    }
}

static void
test_badges (void)
{
  Fixture f = { 0 };
  PlugboardToolRow *row;

  fixture_set_up (&f);

  /* echo: readOnlyHint true and openWorldHint false, declared; read-only
   * makes it idempotent (implied) and not destructive. */
  row = find_row (f.list, "mcp__fixture__echo");
  assert_badge (row, "read_only_badge", TRUE, FALSE);
  assert_badge (row, "destructive_badge", FALSE, FALSE);
  assert_badge (row, "open_world_badge", FALSE, FALSE);
  assert_badge (row, "idempotent_badge", TRUE, TRUE);

  /* fail: no annotations: destructive and open-world by the defaults. */
  row = find_row (f.list, "mcp__fixture__fail");
  assert_badge (row, "read_only_badge", FALSE, FALSE);
  assert_badge (row, "destructive_badge", TRUE, TRUE);
  assert_badge (row, "open_world_badge", TRUE, TRUE);
  assert_badge (row, "idempotent_badge", FALSE, FALSE);

  /* crash: destructiveHint true declared; open-world still the default. */
  row = find_row (f.list, "mcp__fixture__crash");
  assert_badge (row, "destructive_badge", TRUE, FALSE);
  assert_badge (row, "open_world_badge", TRUE, TRUE);

  /* The same row widget recycled for another tool shows that tool's. */
  search (&f, "echo");
  row = find_row (f.list, "mcp__fixture__echo");
  assert_badge (row, "read_only_badge", TRUE, FALSE);
  assert_badge (row, "destructive_badge", FALSE, FALSE);
  row = find_row (f.list, "mcp__fixture__extra-0");
  assert_badge (row, "read_only_badge", FALSE, FALSE);
  assert_badge (row, "destructive_badge", TRUE, TRUE);

  fixture_tear_down (&f);
}

static void
assert_permission (PlugboardToolRow *row,
                   const char       *text,
                   const char       *style)
{
  GtkWidget *tag = row_child (row, "permission_label");

  g_assert_true (gtk_widget_get_mapped (tag));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tag)), ==, text);
  g_assert_true (gtk_widget_has_css_class (tag, style));
}

static void
test_permissions (void)
{
  Fixture f = { 0 };
  g_autoptr(McpPermissions) server_wide = NULL;
  const char * const allow[] = { "mcp__fixture", NULL };
  const char * const deny[] = { "mcp__fixture__echo", NULL };

  fixture_set_up (&f);

  /* From the settings file: allow echo, deny crash, ask slow; the rest
   * match no rule and ask. */
  assert_permission (find_row (f.list, "mcp__fixture__echo"), "Allow", "allow");
  assert_permission (find_row (f.list, "mcp__fixture__crash"), "Deny", "deny");
  assert_permission (find_row (f.list, "mcp__fixture__slow"), "Ask", "ask");
  assert_permission (find_row (f.list, "mcp__fixture__fail"), "Ask", "ask");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (row_child (find_row (f.list, "mcp__fixture__crash"),
                                                           "permission_label")),
                   ==, "Denied by the permission rule “mcp__fixture__crash”");

  /* New rules: the rows on screen follow. Deny wins over the server-wide
   * allow. */
  server_wide = mcp_permissions_new (allow, deny, NULL);
  plugboard_tool_list_set_permissions (f.list, server_wide);
  wait_frames (4);
  assert_permission (find_row (f.list, "mcp__fixture__echo"), "Deny", "deny");
  g_assert_false (gtk_widget_has_css_class (row_child (find_row (f.list, "mcp__fixture__echo"),
                                                       "permission_label"), "allow"));
  assert_permission (find_row (f.list, "mcp__fixture__crash"), "Allow", "allow");
  assert_permission (find_row (f.list, "mcp__fixture__fail"), "Allow", "allow");

  /* No permissions: no tag. */
  plugboard_tool_list_set_permissions (f.list, NULL);
  wait_frames (4);
  g_assert_false (gtk_widget_get_visible (row_child (find_row (f.list, "mcp__fixture__echo"),
                                                     "permission_label")));

  fixture_tear_down (&f);
}

/* ------------------------------------------------------------------------ */
/* A hand-made server for titles and every annotation declared              */

static void
test_titles_and_declared (void)
{
  g_autoptr(TestFakeConnection) server = test_fake_connection_new (NULL);
  g_autoptr(GListStore) servers = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(McpToolPool) pool = NULL;
  PlugboardToolList *list;
  PlugboardToolRow *row;
  GtkWidget *window;
  g_autofree char *names = NULL;

  server->name = g_strdup ("weather");
  test_fake_connection_add_tool (server, "{\"name\": \"get_forecast\", \"title\": \"Weather Forecast\","
                    " \"description\": \"The **forecast** for a city\", \"inputSchema\": {\"type\": \"object\"},"
                    " \"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": false,"
                    " \"idempotentHint\": true, \"openWorldHint\": true}}");
  test_fake_connection_add_tool (server, "{\"name\": \"clear_cache\", \"description\": \"Empties the cache\","
                    " \"inputSchema\": {\"type\": \"object\"},"
                    " \"annotations\": {\"title\": \"Clear the Cache\", \"openWorldHint\": false}}");
  g_list_store_append (servers, server);
  pool = mcp_tool_pool_new (G_LIST_MODEL (servers));

  list = PLUGBOARD_TOOL_LIST (plugboard_tool_list_new ());
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (list));

  /* No tools yet: the empty status, not “no match”. */
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (4);
  g_assert_cmpstr (visible_page (list), ==, "empty");
  g_assert_cmpstr (count_text (list), ==, "0 tools");

  plugboard_tool_list_set_tools (list, G_LIST_MODEL (pool));
  test_iterate_until (filter_done, list, "the list filtered");
  wait_frames (4);
  g_assert_cmpstr (visible_page (list), ==, "list");
  g_assert_cmpuint (plugboard_tool_list_get_n_shown (list), ==, 2);

  /* Every annotation declared: solid badges only where true. */
  row = find_row (list, "mcp__weather__get_forecast");
  g_assert_cmpstr (row_label (row, "title_label"), ==, "Weather Forecast");
  assert_badge (row, "read_only_badge", FALSE, FALSE);
  assert_badge (row, "destructive_badge", FALSE, FALSE);
  assert_badge (row, "open_world_badge", TRUE, FALSE);
  assert_badge (row, "idempotent_badge", TRUE, FALSE);
  g_assert_false (gtk_widget_get_visible (row_child (row, "permission_label")));

  /* The annotations' title; destructive left to its default. */
  row = find_row (list, "mcp__weather__clear_cache");
  g_assert_cmpstr (row_label (row, "title_label"), ==, "Clear the Cache");
  assert_badge (row, "destructive_badge", TRUE, TRUE);
  assert_badge (row, "open_world_badge", FALSE, FALSE);

  /* Titles are searched (both kinds), and a tool added later shows up. */
  plugboard_tool_list_set_search (list, "forecast weather");
  test_iterate_until (filter_done, list, "the list filtered");
  names = shown_names (list);
  g_assert_cmpstr (names, ==, "mcp__weather__get_forecast");
  g_clear_pointer (&names, g_free);
  plugboard_tool_list_set_search (list, "THE cache");
  test_iterate_until (filter_done, list, "the list filtered");
  names = shown_names (list);
  g_assert_cmpstr (names, ==, "mcp__weather__clear_cache");
  g_clear_pointer (&names, g_free);

  test_fake_connection_add_tool (server, "{\"name\": \"cache_stats\", \"description\": \"Counts what the cache holds\","
                    " \"inputSchema\": {\"type\": \"object\"}}");
  test_iterate_until (filter_done, list, "the list filtered");
  names = shown_names (list);
  g_assert_cmpstr (names, ==, "mcp__weather__cache_stats mcp__weather__clear_cache");
  g_assert_cmpstr (count_text (list), ==, "2 of 3 tools");

  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();
}

/* ------------------------------------------------------------------------ */
/* MCP Apps: a tool with an interface, a tool only its interface calls      */

static void
test_app_tags (void)
{
  g_autoptr(TestFakeConnection) server = test_fake_connection_new (NULL);
  g_autoptr(GListStore) servers = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(McpToolPool) pool = NULL;
  PlugboardToolList *list;
  PlugboardToolRow *row;
  GtkWidget *window;

  server->name = g_strdup ("shop");
  test_fake_connection_add_tool (server, "{\"name\": \"show_cart\", \"inputSchema\": {\"type\": \"object\"},"
                    " \"_meta\": {\"ui\": {\"resourceUri\": \"ui://shop/cart.html\"}}}");
  test_fake_connection_add_tool (server, "{\"name\": \"update_quantity\", \"inputSchema\": {\"type\": \"object\"},"
                    " \"_meta\": {\"ui\": {\"resourceUri\": \"ui://shop/cart.html\", \"visibility\": [\"app\"]}}}");
  test_fake_connection_add_tool (server, "{\"name\": \"plain\", \"inputSchema\": {\"type\": \"object\"}}");
  /* not a ui:// URI: no interface */
  test_fake_connection_add_tool (server, "{\"name\": \"fake_ui\", \"inputSchema\": {\"type\": \"object\"},"
                    " \"_meta\": {\"ui\": {\"resourceUri\": \"https://evil.example/x.html\"}}}");
  g_list_store_append (servers, server);
  pool = mcp_tool_pool_new (G_LIST_MODEL (servers));

  list = PLUGBOARD_TOOL_LIST (plugboard_tool_list_new ());
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (list));
  gtk_window_present (GTK_WINDOW (window));
  plugboard_tool_list_set_tools (list, G_LIST_MODEL (pool));
  test_iterate_until (filter_done, list, "the list filtered");
  wait_frames (4);

  row = find_row (list, "mcp__shop__show_cart");
  g_assert_true (gtk_widget_get_visible (row_child (row, "interface_badge")));
  g_assert_false (gtk_widget_get_visible (row_child (row, "app_only_badge")));

  row = find_row (list, "mcp__shop__update_quantity");
  g_assert_true (gtk_widget_get_visible (row_child (row, "interface_badge")));
  g_assert_true (gtk_widget_get_visible (row_child (row, "app_only_badge")));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (row_child (row, "app_only_badge")), "interface page calls it"));
  /* At 360 px the tags wrap inside the row: none reaches past its end. */
  {
    graphene_rect_t tag;

    g_assert_true (gtk_widget_compute_bounds (row_child (row, "app_only_badge"), GTK_WIDGET (row), &tag));
    g_assert_cmpfloat (tag.origin.x + tag.size.width, <=, gtk_widget_get_width (GTK_WIDGET (row)));
  }

  row = find_row (list, "mcp__shop__plain");
  g_assert_false (gtk_widget_get_visible (row_child (row, "interface_badge")));
  g_assert_false (gtk_widget_get_visible (row_child (row, "app_only_badge")));
  row = find_row (list, "mcp__shop__fake_ui");
  g_assert_false (gtk_widget_get_visible (row_child (row, "interface_badge")));

  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();
}

/* ------------------------------------------------------------------------ */
/* The row at sidebar width and narrower                                    */

static graphene_rect_t
bounds_in_row (PlugboardToolRow *row,
               const char       *name)
{
  graphene_rect_t rect;

  g_assert_true (gtk_widget_compute_bounds (row_child (row, name), GTK_WIDGET (row), &rect));
  return rect;
}

static int
natural_width (GtkWidget *widget)
{
  int natural;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural;
}

/* A row for @tool alone in a window @width wide. */
static GtkWidget *
show_row (Fixture    *f,
          const char *qualified_name,
          int         width)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *row = plugboard_tool_row_new ();
  McpPoolTool *tool = mcp_tool_pool_lookup (f->pool, qualified_name);

  g_assert_nonnull (tool);
  plugboard_tool_row_bind (PLUGBOARD_TOOL_ROW (row), tool, f->permissions);
  gtk_window_set_default_size (GTK_WINDOW (window), width, -1);
  gtk_window_set_child (GTK_WINDOW (window), row);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (4);
  return window;
}

static void
test_narrow (void)
{
  static const char * const tags[] = { "read_only_badge", "idempotent_badge", "permission_label" };
  Fixture f = { 0 };
  GtkWidget *window;
  PlugboardToolRow *row;
  graphene_rect_t title, name, tag[G_N_ELEMENTS (tags)];
  int width;
  int widest = 0;
  int one_line = -4;

  fixture_set_up (&f);

  /* The sidebar's 300 px: the title and the name have the whole width
   * (the title was “Ec…” beside the badges); echo's badges and its
   * permission fit on one line under the name, the permission at the
   * right end. */
  window = show_row (&f, "mcp__fixture__echo", 300);
  row = PLUGBOARD_TOOL_ROW (gtk_window_get_child (GTK_WINDOW (window)));
  width = gtk_widget_get_width (GTK_WIDGET (row));
  g_assert_cmpint (width, >=, 280);
  g_assert_cmpint (width, <=, 300);
  g_assert_cmpstr (row_label (row, "title_label"), ==, "Echo");
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (row_child (row, "title_label")))));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (row_child (row, "name_label")))));
  title = bounds_in_row (row, "title_label");
  name = bounds_in_row (row, "name_label");
  g_assert_cmpfloat (title.size.width, ==, width);
  g_assert_cmpfloat (name.size.width, ==, width);
  g_assert_cmpfloat (name.origin.y, >=, title.origin.y + title.size.height);

  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    {
      GtkWidget *widget = row_child (row, tags[i]);

      g_assert_true (gtk_widget_get_mapped (widget));
      tag[i] = bounds_in_row (row, tags[i]);
      g_assert_cmpfloat (tag[i].origin.y, >=, name.origin.y + name.size.height);
      widest = MAX (widest, natural_width (widget));
      one_line += 4 + natural_width (widget);
    }
  g_assert_cmpint (one_line, <=, width);
  g_assert_cmpfloat (tag[0].origin.x, ==, 0);
  g_assert_cmpfloat (tag[1].origin.y, ==, tag[0].origin.y);
  g_assert_cmpfloat (tag[1].origin.x, >, tag[0].origin.x + tag[0].size.width);
  g_assert_cmpfloat (fabsf ((tag[2].origin.y + tag[2].size.height / 2) -
                            (tag[0].origin.y + tag[0].size.height / 2)), <=, 1);
  g_assert_cmpfloat (tag[2].origin.x + tag[2].size.width, ==, width);
  g_assert_cmpfloat (tag[2].origin.x, >, tag[1].origin.x + tag[1].size.width);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (row)), >=,
                   (int) (tag[0].origin.y + tag[0].size.height));
  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();

  /* As narrow as the widest tag (plus the row's margins): every tag wraps
   * to a line of its own, none is cut, and the row grows to hold them. */
  window = show_row (&f, "mcp__fixture__echo", widest + 12);
  row = PLUGBOARD_TOOL_ROW (gtk_window_get_child (GTK_WINDOW (window)));
  width = gtk_widget_get_width (GTK_WIDGET (row));
  g_assert_cmpint (width, <, one_line);
  name = bounds_in_row (row, "name_label");
  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    {
      tag[i] = bounds_in_row (row, tags[i]);
      g_assert_cmpfloat (tag[i].origin.x, >=, 0);
      g_assert_cmpfloat (tag[i].origin.x + tag[i].size.width, <=, width);
      g_assert_cmpfloat (tag[i].origin.y, >=, i == 0 ? name.origin.y + name.size.height
                                                       : tag[i - 1].origin.y + tag[i - 1].size.height);
    }
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (row)), >=,
                   (int) (tag[2].origin.y + tag[2].size.height));
  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();

  fixture_tear_down (&f);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init_widgets (&argc, &argv, 30))
    return 0;

  g_test_add_func ("/ui/tool-list/count", test_count);
  g_test_add_func ("/ui/tool-list/sorted", test_sorted);
  g_test_add_func ("/ui/tool-list/search", test_search);
  g_test_add_func ("/ui/tool-list/toggles", test_toggles);
  g_test_add_func ("/ui/tool-list/activated", test_activated);
  g_test_add_func ("/ui/tool-list/badges", test_badges);
  g_test_add_func ("/ui/tool-list/permissions", test_permissions);
  g_test_add_func ("/ui/tool-list/titles-and-declared", test_titles_and_declared);
  g_test_add_func ("/ui/tool-list/narrow", test_narrow);
  g_test_add_func ("/ui/tool-list/app-tags", test_app_tags);

  return g_test_run ();
}
