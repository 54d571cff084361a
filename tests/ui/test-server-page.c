/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-page"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "plugboard-doctor-dialog.h"
#include "plugboard-server-page.h"
#include "plugboard-server-row.h"
#include "plugboard-sign-in-steps.h"
#include "plugboard-json-editor.h"
#include "plugboard-traffic-view.h"
#include "test-engine.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* ------------------------------------------------------------------------ */
/* Waiting, bounded                                                         */

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
  char     *text;
} Result;

static gboolean
result_done (gpointer data)
{
  return ((Result *) data)->done;
}

/* ------------------------------------------------------------------------ */
/* A project: real settings files in a temporary folder and a manager       */

typedef struct
{
  char             *dir;
  char             *user_dir;
  char             *project_dir;
  McpSettings      *settings;
  McpServerManager *manager;
  GtkWidget        *window;
} Fixture;

static void
on_settings_changed_cb (McpSettings      *settings,
                        McpServerManager *manager)
{
  mcp_server_manager_set_configs (manager, mcp_settings_get_servers (settings));
  mcp_server_manager_update_approvals (manager, settings);
}

/* @user_servers and @project_servers: the bodies of "mcpServers" objects. */
static void
fixture_set_up (Fixture    *f,
                const char *user_servers,
                const char *project_servers)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *user_file = NULL;
  g_autofree char *user_json = NULL;

  f->dir = g_dir_make_tmp ("plugboard-test-server-page-XXXXXX", &error);
  g_assert_no_error (error);
  f->user_dir = g_build_filename (f->dir, "config", NULL);
  f->project_dir = g_build_filename (f->dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (f->user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (f->project_dir, 0700), ==, 0);

  user_file = g_build_filename (f->user_dir, "settings.json", NULL);
  user_json = g_strdup_printf ("{\"mcpServers\": {%s}}", user_servers != NULL ? user_servers : "");
  test_write_file (user_file, user_json);

  if (project_servers != NULL)
    {
      g_autofree char *project_file = g_build_filename (f->project_dir, ".mcp.json", NULL);
      g_autofree char *project_json = g_strdup_printf ("{\"mcpServers\": {%s}}", project_servers);

      test_write_file (project_file, project_json);
    }

  f->settings = test_settings_load (f->user_dir, f->project_dir);

  f->manager = mcp_server_manager_new ();
  g_signal_connect_object (f->settings, "changed", G_CALLBACK (on_settings_changed_cb), f->manager, 0);
  mcp_server_manager_set_configs (f->manager, mcp_settings_get_servers (f->settings));
  mcp_server_manager_update_approvals (f->manager, f->settings);

  /* As narrow as the window may get: the page must still fit. */
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 720);
}

static void
fixture_tear_down (Fixture *f)
{
  TestOutcome r = { 0 };

  gtk_window_destroy (GTK_WINDOW (f->window));
  test_iterate_pending ();

  mcp_server_manager_close_async (f->manager, NULL, test_outcome_cb,
                                   test_outcome_for (&r, mcp_server_manager_close_finish));
  test_iterate_until (test_outcome_done, &r, "manager closed");
  g_assert_no_error (r.error);

  g_clear_object (&f->manager);
  g_clear_object (&f->settings);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->user_dir);
  g_free (f->project_dir);
}

static void
show (Fixture   *f,
      GtkWidget *child)
{
  gtk_window_set_child (GTK_WINDOW (f->window), child);
  gtk_window_present (GTK_WINDOW (f->window));
  wait_frames (5);
}

/* A server page for @connection, shown in the fixture's window. */
static PlugboardServerPage *
show_page (Fixture             *f,
           McpServerConnection *connection)
{
  PlugboardServerPage *page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());

  plugboard_server_page_set_settings (page, f->settings);
  plugboard_server_page_set_connection (page, connection);
  show (f, GTK_WIDGET (page));
  return page;
}

static McpServerConnection *
lookup (Fixture    *f,
        const char *name)
{
  McpServerConnection *connection = mcp_server_manager_lookup (f->manager, name);

  g_assert_nonnull (connection);
  return connection;
}

/* A stdio entry running the fixture with @args (a JSON array body). */
static char *
fixture_entry (const char *name,
               const char *args,
               const char *extra)
{
  return g_strdup_printf ("\"%s\": {\"command\": \"%s\", \"args\": [%s]%s}",
                          name, test_fixture_server (), args != NULL ? args : "",
                          extra != NULL ? extra : "");
}

/* ------------------------------------------------------------------------ */
/* Reading the widgets                                                      */

static GtkWidget *
page_child (PlugboardServerPage *page,
            const char          *name)
{
  return template_child (page, PLUGBOARD_TYPE_SERVER_PAGE, name);
}

static const char *
page_label (PlugboardServerPage *page,
            const char          *name)
{
  return gtk_label_get_text (GTK_LABEL (page_child (page, name)));
}

static GtkWidget *
row_child (PlugboardServerRow *row,
           const char         *name)
{
  return template_child (row, PLUGBOARD_TYPE_SERVER_ROW, name);
}

/* Visible (mapped) and bound to @action with the string @target. */
static void
assert_button (PlugboardServerPage *page,
               const char          *name,
               const char          *action,
               const char          *target)
{
  GtkWidget *button = page_child (page, name);
  GVariant *value = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));

  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, action);
  g_assert_nonnull (value);
  g_assert_cmpstr (g_variant_get_string (value, NULL), ==, target);
}

static void
collect_label_texts (GtkWidget *widget,
                     GString   *texts)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      g_string_append (texts, gtk_label_get_text (GTK_LABEL (widget)));
      g_string_append_c (texts, '\n');
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_label_texts (child, texts);
}

typedef struct
{
  PlugboardServerRow *row;
  const char         *text;
} RowText;

static gboolean
row_text_is (gpointer data)
{
  RowText *wait = data;

  return g_strcmp0 (plugboard_server_row_get_state_text (wait->row), wait->text) == 0;
}

static void
wait_row_text (PlugboardServerRow *row,
               const char         *text)
{
  RowText wait = { row, text };
  g_autofree char *what = g_strdup_printf ("the row to say “%s”", text);

  test_iterate_until (row_text_is, &wait, what);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

static gboolean
latency_measured (gpointer data)
{
  return strstr (gtk_label_get_text (data), " ms") != NULL;
}

static void
test_connected (void)
{
  /* The fixture starts once the test has seen pending (it makes the
   * go file): a fixed delay is too short on a loaded machine. */
  g_autofree char *go = g_build_filename (g_get_tmp_dir (), "plugboard-server-page-go-XXXXXX", NULL);
  g_autofree char *entry = NULL;
  g_autofree char *command = NULL;

  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerRow *row;
  PlugboardServerPage *page;
  GtkWidget *box;
  g_autofree char *tools_text = NULL;
  g_autoptr(GString) texts = g_string_new (NULL);
  guint n_tools;

  g_close (g_mkstemp (go), NULL);
  g_remove (go);
  entry = g_strdup_printf ("\"fixture\": {\"command\": \"sh\", \"args\": [\"-c\", "
                           "\"while [ ! -e %s ]; do sleep 0.05; done; exec \\\"$0\\\"\", \"%s\"]}",
                           go, test_fixture_server ());
  command = g_strdup_printf ("sh -c 'while [ ! -e %s ]; do sleep 0.05; done; exec \"$0\"' %s",
                             go, test_fixture_server ());

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "fixture");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_PENDING);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  row = PLUGBOARD_SERVER_ROW (plugboard_server_row_new ());
  plugboard_server_row_set_settings (row, f.settings);
  plugboard_server_row_set_item (row, G_OBJECT (connection));
  page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (page), TRUE);
  plugboard_server_page_set_settings (page, f.settings);
  plugboard_server_page_set_connection (page, connection);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  show (&f, box);

  /* Pending: a spinning spinner and words for it, on the row and the page. */
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_PENDING);
  g_assert_cmpstr (plugboard_server_row_get_state_text (row), ==, "Connecting…");
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (row_child (row, "spinner"))));
  g_assert_true (gtk_widget_get_mapped (row_child (row, "spinner")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "name_label"))), ==, "fixture");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "scope_label"))), ==, "User");
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (row_child (row, "transport_image"))), ==,
                   "utilities-terminal-symbolic");
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connecting…");
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (page_child (page, "state_spinner"))));
  g_assert_false (gtk_widget_get_visible (page_child (page, "info_group")));

  g_assert_true (g_file_set_contents (go, "", 0, NULL));
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  g_remove (go);
  n_tools = g_list_model_get_n_items (mcp_server_connection_get_tools (connection));
  g_assert_cmpuint (n_tools, >, 1);
  tools_text = g_strdup_printf ("%u tools", n_tools);
  wait_row_text (row, tools_text);
  wait_frames (5);

  g_assert_false (gtk_spinner_get_spinning (GTK_SPINNER (row_child (row, "spinner"))));
  g_assert_true (gtk_widget_get_mapped (row_child (row, "dot")));
  g_assert_true (gtk_widget_has_css_class (row_child (row, "state_label"), "success"));

  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connected");
  g_assert_nonnull (strstr (plugboard_server_page_get_state_detail (page), tools_text));
  g_assert_true (gtk_widget_get_mapped (page_child (page, "info_group")));
  g_assert_cmpstr (page_label (page, "server_name_label"), ==, "Fixture (mcp-fixture-server)");
  g_assert_cmpstr (page_label (page, "server_version_label"), ==, "1.0.0");
  /* The fixture is of the handshake era; the label says so. */
  g_assert_cmpstr (page_label (page, "protocol_version_label"), ==, "2025-11-25 (handshake)");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (page_child (page, "protocol_version_label")), ==,
                   "Connected with the initialize handshake; the server keeps a session");
  g_assert_cmpstr (page_label (page, "instructions_label"), ==, "A server that misbehaves on purpose.");
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (page_child (page, "instructions_label"))));

  collect_label_texts (page_child (page, "capabilities_box"), texts);
  g_assert_cmpstr (texts->str, ==, "Tools\nLogging\n");

  g_assert_cmpstr (page_label (page, "command_setting_label"), ==, command);
  g_assert_cmpstr (page_label (page, "scope_label"), ==, "User");
  assert_button (page, "reconnect_button", "win.reconnect-server", "fixture");

  /* Ping and latency (issue 21, view 13): the round trip, and when the
   * server was last heard from */
  {
    GtkLabel *latency = GTK_LABEL (page_child (page, "latency_label"));

    g_assert_nonnull (strstr (gtk_label_get_text (latency), "last message at"));
    gtk_widget_activate (page_child (page, "ping_button"));
    test_iterate_until (latency_measured, latency, "the ping");
    g_assert_nonnull (strstr (gtk_label_get_text (latency), " ms; last message at "));
  }

  /* Tools and Log are views of their own, beside Overview, each with its
   * own scroll (issue 21, view 10): not at the bottom of the Overview */
  {
    AdwViewStack *views = ADW_VIEW_STACK (page_child (page, "view_stack"));
    GtkWidget *overview = page_child (page, "overview_scroller");

    g_assert_nonnull (adw_view_stack_get_child_by_name (views, "tools"));
    g_assert_nonnull (adw_view_stack_get_child_by_name (views, "log"));
    g_assert_false (gtk_widget_is_ancestor (page_child (page, "tool_list"), overview));
    g_assert_false (gtk_widget_is_ancestor (page_child (page, "log_view"), overview));
    g_assert_true (gtk_widget_is_ancestor (page_child (page, "tool_list"),
                                           adw_view_stack_get_child_by_name (views, "tools")));
  }

  fixture_tear_down (&f);
}

static void
test_failed (void)
{
  const char *entries =
    "\"broken\": {\"command\": \"sh\", \"args\": [\"-c\", "
    "\"echo 'first complaint' >&2; echo 'second complaint' >&2; exit 3\"]},"
    "\"missing\": {\"command\": \"plugboard-no-such-command-here\"}";
  Fixture f = { 0 };
  McpServerConnection *broken;
  McpServerConnection *missing;
  PlugboardServerRow *row;
  PlugboardServerPage *page;
  GtkWidget *box;
  GtkWidget *stderr_label;
  const char *detail;

  fixture_set_up (&f, entries, NULL);
  broken = lookup (&f, "broken");
  missing = lookup (&f, "missing");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  row = PLUGBOARD_SERVER_ROW (plugboard_server_row_new ());
  plugboard_server_row_set_settings (row, f.settings);
  plugboard_server_row_set_item (row, G_OBJECT (broken));
  page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());
  plugboard_server_page_set_settings (page, f.settings);
  plugboard_server_page_set_connection (page, broken);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  show (&f, box);

  test_wait_connection_state (broken, MCP_SERVER_STATE_FAILED);
  wait_row_text (row, "Failed");
  wait_frames (5);
  g_assert_true (gtk_widget_has_css_class (row_child (row, "state_image"), "error"));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (row_child (row, "state_image"))), ==,
                   "dialog-error-symbolic");

  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connection Failed");
  /* The engine's reason, as it is, with the exit status and stderr. */
  detail = plugboard_server_page_get_state_detail (page);
  g_assert_cmpstr (detail, ==, mcp_server_connection_get_error (broken)->message);
  g_assert_nonnull (strstr (detail, "status 3"));
  g_assert_nonnull (strstr (page_label (page, "state_detail_label"), "status 3"));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (page_child (page, "state_detail_label"))));
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (page_child (page, "state_detail_label"))));
  g_assert_true (gtk_widget_has_css_class (page_child (page, "state_title_label"), "error"));

  stderr_label = page_child (page, "stderr_label");
  g_assert_true (gtk_widget_get_mapped (stderr_label));
  g_assert_true (gtk_widget_has_css_class (stderr_label, "monospace"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (stderr_label)), ==, "first complaint\nsecond complaint");
  assert_button (page, "reconnect_button", "win.reconnect-server", "broken");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (page_child (page, "reconnect_button"))), ==, "Try _Again");

  /* A command that does not exist says so, without a stderr block. */
  test_wait_connection_state (missing, MCP_SERVER_STATE_FAILED);
  plugboard_server_row_set_item (row, G_OBJECT (missing));
  plugboard_server_page_set_connection (page, missing);
  wait_frames (5);
  g_assert_cmpstr (plugboard_server_row_get_state_text (row), ==, "Failed");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "name_label"))), ==, "missing");
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connection Failed");
  g_assert_nonnull (strstr (plugboard_server_page_get_state_detail (page), "plugboard-no-such-command-here"));
  g_assert_false (gtk_widget_get_visible (page_child (page, "stderr_label")));
  assert_button (page, "reconnect_button", "win.reconnect-server", "missing");

  fixture_tear_down (&f);
}

/* Issue 21: a server's instructions are Markdown, and showed raw; their
 * links open only through the URL policy. */
static void
test_instructions_markdown (void)
{
  g_autofree char *entry = fixture_entry ("md", "\"--instructions=# Using md\\n\\nCall **echo** first; see [the docs](http://docs.example.com/md).\"", NULL);
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerPage *page;
  GtkLabel *label;
  gboolean handled = FALSE;

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "md");
  page = show_page (&f, connection);
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  wait_frames (5);

  label = GTK_LABEL (page_child (page, "instructions_label"));
  g_test_message ("%s", gtk_label_get_label (label));
  g_assert_true (gtk_label_get_use_markup (label));
  g_assert_null (strstr (gtk_label_get_text (label), "**"));
  g_assert_null (strstr (gtk_label_get_text (label), "# "));
  g_assert_nonnull (strstr (gtk_label_get_text (label), "Call echo first"));
  g_assert_nonnull (strstr (gtk_label_get_label (label), "<b>echo</b>"));

  /* a remote http link: refused, and handled (GTK does not open it) */
  g_signal_emit_by_name (label, "activate-link", "http://docs.example.com/md", &handled);
  g_assert_true (handled);

  fixture_tear_down (&f);
}

/* Whether @model (and its sections) has an item of @action. */
static gboolean
menu_has_action (GMenuModel *model,
                 const char *action)
{
  for (int i = 0; model != NULL && i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_strcmp0 (name, action) == 0)
        return TRUE;
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }

  return FALSE;
}

/* Issue 24: a failed server's card offers Diagnose (so does the menu,
 * always); the doctor's dialog shows each check as it runs, and the one
 * that failed with what it saw and the fix. */
static PlugboardDoctorDialog *
find_doctor_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (PLUGBOARD_IS_DOCTOR_DIALOG (window))
        return PLUGBOARD_DOCTOR_DIALOG (window);
    }
  return NULL;
}

static gboolean
doctor_done (gpointer data)
{
  return !mcp_doctor_get_running (data);
}

static void
test_diagnose (void)
{
  const char *entries =
    "\"broken\": {\"command\": \"sh\", \"args\": [\"-c\", "
    "\"echo 'database is locked' >&2; exit 4\"]}";
  Fixture f = { 0 };
  McpServerConnection *broken;
  PlugboardServerPage *page;
  PlugboardDoctorDialog *dialog;
  GtkWidget *button;
  g_autoptr(GString) texts = g_string_new (NULL);

  fixture_set_up (&f, entries, NULL);
  broken = lookup (&f, "broken");
  page = show_page (&f, broken);

  test_wait_connection_state (broken, MCP_SERVER_STATE_FAILED);
  wait_frames (5);
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (page_child (page, "menu_button"))),
                                  "server-page.diagnose"));
  button = page_child (page, "diagnose_button");
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "server-page.diagnose");
  g_assert_null (find_doctor_dialog ());
  /* A button's activation clicks it a moment later. */
  gtk_widget_activate (button);
  TEST_WAIT_UNTIL (find_doctor_dialog () != NULL);
  dialog = find_doctor_dialog ();
  test_iterate_until (doctor_done, plugboard_doctor_dialog_get_doctor (dialog), "the diagnosis");
  g_assert_true (mcp_doctor_has_failure (plugboard_doctor_dialog_get_doctor (dialog)));
  wait_frames (5);

  collect_label_texts (GTK_WIDGET (dialog), texts);
  g_assert_nonnull (strstr (texts->str, "A check failed"));
  g_assert_nonnull (strstr (texts->str, "Starts and keeps running\n"));
  g_assert_nonnull (strstr (texts->str, "exited at once with status 4"));
  g_assert_nonnull (strstr (texts->str, "database is locked"));
  g_assert_nonnull (strstr (texts->str, "Fix: Run the same command in a terminal"));
  g_assert_nonnull (strstr (texts->str, "Not checked: “Starts and keeps running” did not pass"));
  g_assert_true (gtk_widget_is_sensitive (template_child (dialog, PLUGBOARD_TYPE_DOCTOR_DIALOG,
                                                          "run_again_button")));

  /* Run Again: running again (Run Again off meanwhile), the same outcome. */
  gtk_widget_activate (template_child (dialog, PLUGBOARD_TYPE_DOCTOR_DIALOG, "run_again_button"));
  TEST_WAIT_UNTIL (mcp_doctor_get_running (plugboard_doctor_dialog_get_doctor (dialog)) ||
                   g_list_model_get_n_items (mcp_doctor_get_checks (plugboard_doctor_dialog_get_doctor (dialog))) < 7);
  test_iterate_until (doctor_done, plugboard_doctor_dialog_get_doctor (dialog), "the second diagnosis");
  g_assert_true (mcp_doctor_has_failure (plugboard_doctor_dialog_get_doctor (dialog)));

  gtk_window_destroy (GTK_WINDOW (dialog));
  test_iterate_pending ();
  fixture_tear_down (&f);
}

static void
test_disabled (void)
{
  g_autofree char *entry = fixture_entry ("off", NULL, ", \"enabled\": false");
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerRow *row;
  PlugboardServerPage *page;
  GtkWidget *box;

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "off");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  row = PLUGBOARD_SERVER_ROW (plugboard_server_row_new ());
  plugboard_server_row_set_settings (row, f.settings);
  plugboard_server_row_set_item (row, G_OBJECT (connection));
  page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());
  plugboard_server_page_set_settings (page, f.settings);
  plugboard_server_page_set_connection (page, connection);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  show (&f, box);

  test_wait_connection_state (connection, MCP_SERVER_STATE_DISABLED);
  wait_row_text (row, "Disabled");
  g_assert_true (gtk_widget_has_css_class (row_child (row, "state_label"), "dim-label"));
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Disabled");
  assert_button (page, "enable_button", "win.enable-server", "off");
  g_assert_false (gtk_widget_get_visible (page_child (page, "reconnect_button")));
  g_assert_false (gtk_widget_get_visible (page_child (page, "approve_button")));
  /* nor does its ⋮ menu offer Reconnect (issue 21) */
  g_assert_false (menu_has_action (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (page_child (page, "menu_button"))),
                                   "win.reconnect-server"));
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (page_child (page, "menu_button"))),
                                  "win.edit-server"));

  fixture_tear_down (&f);
}

/* Issue 21, defect 4: another server's page opens on its Overview (a new
 * server opened on the last tab used, e.g. Tasks, "Not Connected"). */
static void
test_other_server_opens_on_overview (void)
{
  g_autofree char *one = fixture_entry ("one", NULL, ", \"enabled\": false");
  g_autofree char *two = fixture_entry ("two", NULL, ", \"enabled\": false");
  g_autofree char *entries = g_strconcat (one, ", ", two, NULL);
  Fixture f = { 0 };
  PlugboardServerPage *page;
  AdwViewStack *stack;

  fixture_set_up (&f, entries, NULL);
  page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());
  plugboard_server_page_set_settings (page, f.settings);
  plugboard_server_page_set_connection (page, lookup (&f, "one"));
  show (&f, GTK_WIDGET (page));
  stack = ADW_VIEW_STACK (page_child (page, "view_stack"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "overview");

  adw_view_stack_set_visible_child_name (stack, "tasks");
  plugboard_server_page_set_connection (page, lookup (&f, "two"));
  wait_frames (5);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "overview");

  /* the same server again: the person stays on the tab they chose */
  adw_view_stack_set_visible_child_name (stack, "tasks");
  plugboard_server_page_set_connection (page, lookup (&f, "two"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "tasks");

  fixture_tear_down (&f);
}

/* Issue 21, defect 6 and view 11: the page shows the folders its server is
 * offered; a user-scope server is not offered the project folder, and
 * a folder added for it shows at once. */
static void
test_roots_shown (void)
{
  g_autofree char *entry = fixture_entry ("one", NULL, ", \"enabled\": false");
  g_autoptr(McpRoots) roots = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;
  Fixture f = { 0 };
  PlugboardServerPage *page;
  GtkLabel *label;

  fixture_set_up (&f, entry, NULL);
  roots = mcp_roots_new (f.project_dir);
  page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());
  plugboard_server_page_set_settings (page, f.settings);
  plugboard_server_page_set_roots (page, roots);
  plugboard_server_page_set_connection (page, lookup (&f, "one"));
  show (&f, GTK_WIDGET (page));

  label = GTK_LABEL (page_child (page, "roots_label"));
  g_assert_true (gtk_widget_get_visible (page_child (page, "roots_row")));
  g_assert_null (strstr (gtk_label_get_text (label), f.project_dir));
  g_assert_nonnull (strstr (gtk_label_get_text (label), "None"));

  folder = g_build_filename (f.user_dir, NULL);
  g_assert_true (mcp_roots_add (roots, "one", folder, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_label_get_text (label), ==, folder);
  g_assert_true (mcp_roots_remove (roots, "one", folder, &error));
  g_assert_no_error (error);

  fixture_tear_down (&f);
}

static void
on_approval_set_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Result *r = user_data;

  r->ok = mcp_settings_set_approval_finish (MCP_SETTINGS (object), result, &r->error);
  r->done = TRUE;
}

static void
on_approve_activated_cb (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  Result *r = user_data;

  r->text = g_variant_dup_string (parameter, NULL);
  r->done = TRUE;
}

static gboolean
approval_changed (gpointer data)
{
  return mcp_settings_get_approval (data, "proj") == MCP_APPROVAL_CHANGED;
}

static void
test_approval (void)
{
  g_autofree char *entry = fixture_entry ("proj", "\"--stderr-lines\", \"1\", \"two words\"", NULL);
  g_autofree char *command = g_strdup_printf ("%s --stderr-lines 1 'two words'", test_fixture_server ());
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerRow *row;
  PlugboardServerPage *page;
  GtkWidget *box;
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) approve = g_simple_action_new ("approve-server", G_VARIANT_TYPE_STRING);
  Result activated = { 0 };
  Result written = { 0 };

  fixture_set_up (&f, NULL, entry);
  g_assert_cmpint (mcp_settings_get_approval (f.settings, "proj"), ==, MCP_APPROVAL_PENDING);
  connection = lookup (&f, "proj");

  /* The window's action, as the page sees it. */
  g_signal_connect (approve, "activate", G_CALLBACK (on_approve_activated_cb), &activated);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (approve));
  gtk_widget_insert_action_group (f.window, "win", G_ACTION_GROUP (group));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  row = PLUGBOARD_SERVER_ROW (plugboard_server_row_new ());
  plugboard_server_row_set_settings (row, f.settings);
  plugboard_server_row_set_item (row, G_OBJECT (connection));
  page = PLUGBOARD_SERVER_PAGE (plugboard_server_page_new ());
  plugboard_server_page_set_settings (page, f.settings);
  plugboard_server_page_set_connection (page, connection);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  show (&f, box);

  test_wait_connection_state (connection, MCP_SERVER_STATE_DISABLED);
  g_assert_cmpint (mcp_server_connection_get_approval (connection), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpstr (plugboard_server_row_get_state_text (row), ==, "Awaiting approval");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "scope_label"))), ==, "Project");
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Awaiting Approval");
  g_assert_cmpstr (page_label (page, "command_label"), ==, command);
  g_assert_true (gtk_widget_get_mapped (page_child (page, "command_label")));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (page_child (page, "command_label"))));
  assert_button (page, "approve_button", "win.approve-server", "proj");
  assert_button (page, "reject_button", "win.reject-server", "proj");
  g_assert_false (gtk_widget_get_visible (page_child (page, "enable_button")));

  /* Approve activates the window's action with the server's name. */
  g_assert_true (gtk_widget_is_sensitive (page_child (page, "approve_button")));
  g_signal_emit_by_name (page_child (page, "approve_button"), "clicked");
  test_iterate_until (result_done, &activated, "win.approve-server");
  g_assert_cmpstr (activated.text, ==, "proj");
  g_free (activated.text);

  /* What the window then does: the decision in the settings, which the
   * row and the page follow as the server starts. */
  mcp_settings_set_approval_async (f.settings, "proj", TRUE, NULL, on_approval_set_cb, &written);
  test_iterate_until (result_done, &written, "approval written");
  g_assert_no_error (written.error);
  connection = lookup (&f, "proj");
  plugboard_server_row_set_item (row, G_OBJECT (connection));
  plugboard_server_page_set_connection (page, connection);
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  wait_frames (5);
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connected");
  g_assert_false (gtk_widget_get_visible (page_child (page, "approve_button")));
  g_assert_false (gtk_widget_get_visible (page_child (page, "command_label")));
  g_assert_true (g_str_has_suffix (plugboard_server_row_get_state_text (row), " tools"));

  /* Issue 20: what it runs changes in .mcp.json: it stops being approved,
   * and the row and the page say so and say what changed. */
  {
    g_autofree char *project_file = g_build_filename (f.project_dir, ".mcp.json", NULL);
    g_autofree char *changed = fixture_entry ("proj", "\"--stderr-lines\", \"2\"", NULL);
    g_autofree char *json = g_strdup_printf ("{\"mcpServers\": {%s}}", changed);

    test_write_file (project_file, json);
    test_iterate_until (approval_changed, f.settings, "the settings see the change");
    connection = lookup (&f, "proj");
    plugboard_server_row_set_item (row, G_OBJECT (connection));
    plugboard_server_page_set_connection (page, connection);
    test_wait_connection_state (connection, MCP_SERVER_STATE_DISABLED);
    wait_frames (5);
    g_assert_cmpstr (plugboard_server_row_get_state_text (row), ==, "Changed since approval");
    g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Changed Since Approval");
    g_assert_nonnull (strstr (page_label (page, "state_detail_label"), "arguments: “--stderr-lines 1 'two words'” → “--stderr-lines 2”"));
    assert_button (page, "approve_button", "win.approve-server", "proj");
  }

  /* Rejected: the same connection (it stays disabled), whose "approval"
   * the row follows without being given it again. */
  g_assert_cmpint (mcp_server_connection_get_approval (connection), ==, MCP_APPROVAL_CHANGED);
  written.done = FALSE;
  mcp_settings_set_approval_async (f.settings, "proj", FALSE, NULL, on_approval_set_cb, &written);
  test_iterate_until (result_done, &written, "rejection written");
  g_assert_no_error (written.error);
  wait_row_text (row, "Rejected");
  g_assert_true (lookup (&f, "proj") == connection);
  g_assert_cmpint (mcp_server_connection_get_approval (connection), ==, MCP_APPROVAL_REJECTED);
  g_assert_true (gtk_widget_has_css_class (row_child (row, "state_label"), "dim-label"));
  g_assert_false (gtk_widget_has_css_class (row_child (row, "state_label"), "warning"));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (row_child (row, "state_image"))), ==,
                   "action-unavailable-symbolic");
  /* and so does the page's state card */
  wait_frames (5);
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Rejected");
  g_assert_true (gtk_widget_has_css_class (page_child (page, "state_title_label"), "dim-label"));
  assert_button (page, "approve_button", "win.approve-server", "proj");
  g_assert_false (gtk_widget_get_visible (page_child (page, "reject_button")));
  g_assert_false (gtk_widget_get_visible (page_child (page, "enable_button")));

  fixture_tear_down (&f);
}

static void
test_shadowed (void)
{
  g_autofree char *user_entry = fixture_entry ("dup", NULL, NULL);
  g_autofree char *project_entry = fixture_entry ("dup", "\"--tools\", \"2\"", NULL);
  Fixture f = { 0 };
  g_autoptr(McpServerConfig) shadowed = NULL;
  PlugboardServerRow *row;

  fixture_set_up (&f, user_entry, project_entry);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_shadowed (f.settings)), ==, 1);
  shadowed = g_list_model_get_item (mcp_settings_get_shadowed (f.settings), 0);
  g_assert_cmpint (mcp_server_config_get_scope (shadowed), ==, MCP_CONFIG_SCOPE_USER);

  row = PLUGBOARD_SERVER_ROW (plugboard_server_row_new ());
  plugboard_server_row_set_settings (row, f.settings);
  plugboard_server_row_set_item (row, G_OBJECT (shadowed));
  show (&f, GTK_WIDGET (row));

  g_assert_cmpstr (plugboard_server_row_get_state_text (row), ==, "Shadowed by Project");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "state_label"))), ==, "Shadowed by Project");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "name_label"))), ==, "dup");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (row, "scope_label"))), ==, "User");
  g_assert_true (gtk_widget_has_css_class (row_child (row, "name_label"), "dim-label"));
  g_assert_false (gtk_widget_get_mapped (row_child (row, "spinner")));

  fixture_tear_down (&f);
}

static void
test_signing_in (void)
{
  const char *entry = "\"remote\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp\"}";
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerPage *page;

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "remote");
  page = show_page (&f, connection);
  test_wait_connection_state (connection, MCP_SERVER_STATE_FAILED);
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connection Failed");
  g_assert_false (gtk_widget_get_visible (page_child (page, "cancel_sign_in_button")));
  g_assert_cmpstr (page_label (page, "command_title_label"), ==, "URL");
  g_assert_cmpstr (page_label (page, "command_setting_label"), ==, "http://127.0.0.1:9/mcp");

  plugboard_server_page_set_signing_in (page, TRUE);
  wait_frames (5);
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Waiting for Sign-In");
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (page_child (page, "state_spinner"))));
  assert_button (page, "cancel_sign_in_button", "win.cancel-sign-in", "remote");
  g_assert_false (gtk_widget_get_visible (page_child (page, "reconnect_button")));
  g_assert_false (gtk_widget_get_visible (page_child (page, "sign_in_button")));

  /* The failure shows under the state until the next attempt. */
  plugboard_server_page_set_signing_in (page, FALSE);
  plugboard_server_page_set_sign_in_error (page, "The authorization server refused the code.");
  wait_frames (5);
  g_assert_false (gtk_widget_get_visible (page_child (page, "cancel_sign_in_button")));
  g_assert_true (gtk_widget_get_mapped (page_child (page, "sign_in_error_label")));
  g_assert_cmpstr (page_label (page, "sign_in_error_label"), ==, "The authorization server refused the code.");
  plugboard_server_page_set_signing_in (page, TRUE);
  wait_frames (5);
  g_assert_false (gtk_widget_get_visible (page_child (page, "sign_in_error_label")));
  {
    g_autofree char *error = NULL;
    gboolean signing_in = FALSE;

    g_object_get (page, "sign-in-error", &error, "signing-in", &signing_in, NULL);
    g_assert_null (error);
    g_assert_true (signing_in);
  }

  fixture_tear_down (&f);
}

/* Issue 20, finding 8: a remote server's URL without its user info and
 * query values, on the page and in its failure and its log. */
static void
test_secrets_masked (void)
{
  const char *entry = "\"remote\": {\"type\": \"http\", "
                      "\"url\": \"http://user:hunter2pw@127.0.0.1:9/mcp?api_key=K3y-s3cret-77\"}";
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerPage *page;
  GListModel *log;

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "remote");
  page = show_page (&f, connection);
  test_wait_connection_state (connection, MCP_SERVER_STATE_FAILED);
  wait_frames (5);

  g_assert_cmpstr (page_label (page, "command_title_label"), ==, "URL");
  g_assert_cmpstr (page_label (page, "command_setting_label"), ==,
                   "http://***@127.0.0.1:9/mcp?api_key=***");
  g_assert_null (strstr (plugboard_server_page_get_state_detail (page), "hunter2pw"));
  g_assert_null (strstr (plugboard_server_page_get_state_detail (page), "K3y-s3cret-77"));
  g_assert_null (strstr (page_label (page, "state_detail_label"), "hunter2pw"));

  log = mcp_server_connection_get_log (connection);
  g_assert_cmpuint (g_list_model_get_n_items (log), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) item = g_list_model_get_item (log, i);

      g_assert_null (strstr (mcp_log_entry_get_text (item), "hunter2pw"));
      g_assert_null (strstr (mcp_log_entry_get_text (item), "K3y-s3cret-77"));
    }

  fixture_tear_down (&f);
}

static gboolean
log_has_stderr_lines (gpointer data)
{
  GListModel *log = data;
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      if (mcp_log_entry_get_kind (entry) == MCP_LOG_ENTRY_STDERR)
        n++;
    }

  return n >= 3;
}

static void
on_clipboard_read_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Result *r = user_data;

  r->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &r->error);
  r->done = TRUE;
}

static void
test_log (void)
{
  g_autofree char *entry = fixture_entry ("chatty", "\"--stderr-lines\", \"3\"", NULL);
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerPage *page;
  GListModel *log;
  g_autoptr(GString) texts = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  Result r = { 0 };

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "chatty");
  log = mcp_server_connection_get_log (connection);
  g_assert_nonnull (log);

  page = show_page (&f, connection);

  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  test_iterate_until (log_has_stderr_lines, log, "three stderr lines in the log");
  /* the Log is a view of its own (issue 21, view 10) */
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (page_child (page, "view_stack")), "log");
  wait_frames (5);

  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (page_child (page, "log_stack"))), ==, "log");
  collect_label_texts (page_child (page, "log_view"), texts);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *line = g_strdup_printf ("stderr line %u\n", i);

      g_assert_nonnull (strstr (texts->str, line));
    }

  /* Copy All: every entry, formatted, one a line. */
  g_signal_emit_by_name (page_child (page, "copy_button"), "clicked");
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (page)), NULL,
                                 on_clipboard_read_cb, &r);
  test_iterate_until (result_done, &r, "the clipboard");
  g_assert_no_error (r.error);
  g_assert_nonnull (r.text);
  lines = g_strsplit (r.text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, g_list_model_get_n_items (log) + 1);
  g_assert_cmpstr (lines[g_list_model_get_n_items (log)], ==, "");
  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) log_entry = g_list_model_get_item (log, i);
      g_autofree char *formatted = mcp_log_entry_format (log_entry);

      g_assert_cmpstr (lines[i], ==, formatted);
    }
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *line = g_strdup_printf ("stderr line %u", i);

      g_assert_nonnull (strstr (r.text, line));
    }
  g_free (r.text);

  fixture_tear_down (&f);
}

static void
on_tool_called_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Result *r = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &r->error);
  r->ok = tool_result != NULL;
  r->done = TRUE;
}

/* The fixture's "stderr" tool: one more line in the log. */
static void
write_stderr_lines (McpServerConnection *connection,
                    const char          *prefix,
                    guint                n)
{
  GListModel *log = mcp_server_connection_get_log (connection);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonObject) args = json_object_new ();
      g_autofree char *text = g_strdup_printf ("%s %u", prefix, i);
      guint before = g_list_model_get_n_items (log);
      Result r = { 0 };

      json_object_set_string_member (args, "text", text);
      mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "stderr", args,
                                  NULL, NULL, on_tool_called_cb, &r);
      test_iterate_until (result_done, &r, "the stderr tool");
      g_assert_no_error (r.error);
      while (g_list_model_get_n_items (log) == before)
        g_main_context_iteration (NULL, TRUE);
    }
}

static void
test_log_follows_tail (void)
{
  g_autofree char *entry = fixture_entry ("tail", NULL, NULL);
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerPage *page;
  GtkAdjustment *adjustment;

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "tail");
  page = show_page (&f, connection);
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (page_child (page, "view_stack")), "log");

  /* More lines than the log's height: it scrolls and stays at the end. */
  write_stderr_lines (connection, "first batch", 200);
  wait_frames (5);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page_child (page, "log_scroller")));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 2.0);

  /* Scrolled up by the person: new lines leave the view where it is. */
  gtk_adjustment_set_value (adjustment, 0.0);
  wait_frames (5);
  write_stderr_lines (connection, "second batch", 10);
  wait_frames (5);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0.0);

  /* Back at the bottom: following again. */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
  wait_frames (5);
  write_stderr_lines (connection, "third batch", 10);
  wait_frames (5);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 2.0);

  fixture_tear_down (&f);
}

/* ------------------------------------------------------------------------ */
/* Traffic                                                                  */

/* The first request for @method in the trace, answered; NULL until then. */
static McpTraceEntry *
answered_request (McpTrace   *trace,
                  const char *method)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (trace));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpTraceEntry) entry = g_list_model_get_item (G_LIST_MODEL (trace), i);

      if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_MESSAGE &&
          mcp_trace_entry_get_message_kind (entry) == MCP_MESSAGE_REQUEST &&
          g_strcmp0 (mcp_trace_entry_get_method (entry), method) == 0 &&
          mcp_trace_entry_get_response_seq (entry) != 0)
        return entry;
    }
  return NULL;
}

static gboolean
tools_listed (gpointer data)
{
  return answered_request (data, "tools/list") != NULL;
}

static gboolean
model_holds (GListModel    *model,
             McpTraceEntry *entry)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(McpTraceEntry) item = g_list_model_get_item (model, i);

      if (item == entry)
        return TRUE;
    }
  return FALSE;
}

/* A real stdio server through the manager: its Traffic shows the
 * initialize exchange (request and response in one row) and tools/list. */
static void
test_traffic (void)
{
  g_autofree char *entry = fixture_entry ("fixture", NULL, NULL);
  Fixture f = { 0 };
  McpServerConnection *connection;
  PlugboardServerPage *page;
  PlugboardTrafficView *view;
  McpTrace *trace;
  McpTraceEntry *initialize;
  McpTraceEntry *tools_list;
  GListModel *rows;
  g_autoptr(GString) texts = g_string_new (NULL);

  fixture_set_up (&f, entry, NULL);
  connection = lookup (&f, "fixture");
  page = show_page (&f, connection);

  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  trace = mcp_server_connection_get_trace (connection);
  test_iterate_until (tools_listed, trace, "tools/list answered");

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (page_child (page, "view_stack")), "traffic");
  wait_frames (5);
  view = PLUGBOARD_TRAFFIC_VIEW (page_child (page, "traffic_view"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  g_assert_true (plugboard_traffic_view_get_trace (view) == trace);
  /* A stdio server: Console, no Network. */
  g_assert_true (gtk_widget_get_visible (template_child (view, PLUGBOARD_TYPE_TRAFFIC_VIEW, "console_toggle")));
  g_assert_false (gtk_widget_get_visible (template_child (view, PLUGBOARD_TYPE_TRAFFIC_VIEW, "network_toggle")));

  rows = plugboard_traffic_view_get_rows (view);
  initialize = answered_request (trace, "initialize");
  tools_list = answered_request (trace, "tools/list");
  g_assert_nonnull (initialize);
  g_assert_true (model_holds (rows, initialize));
  g_assert_true (model_holds (rows, tools_list));
  /* The responses are in the trace, folded into their requests' rows. */
  g_assert_nonnull (mcp_trace_lookup (trace, mcp_trace_entry_get_response_seq (initialize)));
  g_assert_false (model_holds (rows, mcp_trace_lookup (trace, mcp_trace_entry_get_response_seq (initialize))));
  g_assert_cmpint (mcp_trace_entry_get_duration (initialize), >=, 0);

  collect_label_texts (GTK_WIDGET (view), texts);
  g_assert_nonnull (strstr (texts->str, "→ initialize #"));

  /* Its detail: the server's answer, pretty. */
  g_assert_true (plugboard_traffic_view_select (view, initialize));
  wait_frames (3);
  g_assert_nonnull (strstr (plugboard_json_editor_get_text (PLUGBOARD_JSON_EDITOR (
                              template_child (view, PLUGBOARD_TYPE_TRAFFIC_VIEW, "response_editor"))),
                            "\"serverInfo\" : {"));

  fixture_tear_down (&f);
}

/* A server that failed: See What Happened opens its Traffic at the
 * failure, from the app alone. */
static void
test_failed_shows_traffic (void)
{
  const char *entries =
    "\"broken\": {\"command\": \"sh\", \"args\": [\"-c\", "
    "\"echo 'cannot open the database' >&2; exit 3\"]}";
  Fixture f = { 0 };
  McpServerConnection *broken;
  PlugboardServerPage *page;
  PlugboardTrafficView *view;
  GtkWidget *button;
  McpTraceEntry *selected;

  fixture_set_up (&f, entries, NULL);
  broken = lookup (&f, "broken");
  page = show_page (&f, broken);

  test_wait_connection_state (broken, MCP_SERVER_STATE_FAILED);
  wait_frames (5);
  button = page_child (page, "show_traffic_button");
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_See What Happened");

  click_sensitive (button);
  wait_frames (5);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (ADW_VIEW_STACK (page_child (page, "view_stack"))), ==,
                   "traffic");
  view = PLUGBOARD_TRAFFIC_VIEW (page_child (page, "traffic_view"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  selected = plugboard_traffic_view_get_selected (view);
  g_assert_nonnull (selected);
  g_assert_cmpint (mcp_trace_entry_get_error_class (selected), !=, MCP_TRACE_ERROR_NONE);
  g_assert_true (gtk_widget_get_mapped (template_child (view, PLUGBOARD_TYPE_TRAFFIC_VIEW, "detail_error_label")));

  /* What the server said before it went is one click away (its line,
   * and the events that quote it). */
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_CONSOLE);
  plugboard_traffic_view_set_search (view, "cannot open the database");
  {
    GListModel *rows = plugboard_traffic_view_get_rows (view);
    gboolean has_line = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(McpTraceEntry) item = g_list_model_get_item (rows, i);

        has_line |= mcp_trace_entry_get_kind (item) == MCP_TRACE_KIND_STDERR;
      }
    g_assert_true (has_line);
  }

  fixture_tear_down (&f);
}

/* A server that wants a sign-in and says nothing of how. */
static void
locked_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  if (g_str_has_prefix (path, "/.well-known/"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "WWW-Authenticate", "Bearer");
  soup_server_message_set_status (msg, SOUP_STATUS_UNAUTHORIZED, NULL);
}

static gboolean
is_sign_in_steps_button (GtkWidget     *widget,
                         gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_name (widget), "sign-in-steps-button") == 0;
}

/* Diagnose on a server that answers 401 with no sign-in metadata: the
 * sign-in check fails with what it saw, and its Sign-in Steps… button
 * opens the sign-in debugger on the server's trace. */
static void
test_diagnose_sign_in (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *entries = NULL;
  g_autoptr(GString) texts = g_string_new (NULL);
  GSList *uris;
  guint port;
  Fixture f = { 0 };
  McpServerConnection *locked;
  PlugboardServerPage *page;
  PlugboardDoctorDialog *dialog;
  GtkWidget *button;

  soup_server_add_handler (server, NULL, locked_cb, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  entries = g_strdup_printf ("\"locked\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:%u/mcp\"}", port);

  fixture_set_up (&f, entries, NULL);
  locked = lookup (&f, "locked");
  page = show_page (&f, locked);
  TEST_WAIT_UNTIL (mcp_server_connection_get_state (locked) == MCP_SERVER_STATE_NEEDS_AUTH ||
                   mcp_server_connection_get_state (locked) == MCP_SERVER_STATE_FAILED);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "server-page.diagnose", NULL));
  TEST_WAIT_UNTIL (find_doctor_dialog () != NULL);
  dialog = find_doctor_dialog ();
  test_iterate_until (doctor_done, plugboard_doctor_dialog_get_doctor (dialog), "the diagnosis");
  wait_frames (5);
  collect_label_texts (GTK_WIDGET (dialog), texts);
  g_assert_nonnull (strstr (texts->str, "Sign-in\n"));
  g_assert_nonnull (strstr (texts->str, "401"));

  button = find_widget_matching (GTK_WIDGET (dialog), UI_WALK_SHOWN, is_sign_in_steps_button, NULL);
  g_assert_nonnull (button);
  g_assert_null (find_toplevel (PLUGBOARD_TYPE_SIGN_IN_STEPS));
  click (button);
  TEST_WAIT_UNTIL (find_toplevel (PLUGBOARD_TYPE_SIGN_IN_STEPS) != NULL);

  gtk_window_destroy (GTK_WINDOW (find_toplevel (PLUGBOARD_TYPE_SIGN_IN_STEPS)));
  gtk_window_destroy (GTK_WINDOW (dialog));
  test_iterate_pending ();
  fixture_tear_down (&f);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init_widgets (&argc, &argv, 30))
    return 0;

  g_test_add_func ("/ui/server-page/connected", test_connected);
  g_test_add_func ("/ui/server-page/failed", test_failed);
  g_test_add_func ("/ui/server-page/diagnose", test_diagnose);
  g_test_add_func ("/ui/server-page/diagnose-sign-in", test_diagnose_sign_in);
  g_test_add_func ("/ui/server-page/disabled", test_disabled);
  g_test_add_func ("/ui/server-page/instructions-markdown", test_instructions_markdown);
  g_test_add_func ("/ui/server-page/roots-shown", test_roots_shown);
  g_test_add_func ("/ui/server-page/other-server-opens-on-overview", test_other_server_opens_on_overview);
  g_test_add_func ("/ui/server-page/approval", test_approval);
  g_test_add_func ("/ui/server-row/shadowed", test_shadowed);
  g_test_add_func ("/ui/server-page/signing-in", test_signing_in);
  g_test_add_func ("/ui/server-page/secrets-masked", test_secrets_masked);
  g_test_add_func ("/ui/server-page/log", test_log);
  g_test_add_func ("/ui/server-page/log-follows-tail", test_log_follows_tail);
  g_test_add_func ("/ui/server-page/traffic", test_traffic);
  g_test_add_func ("/ui/server-page/failed-shows-traffic", test_failed_shows_traffic);

  return g_test_run ();
}
