/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "mcp-oauth-fixture.h"
#include "plugboard-application.h"
#include "plugboard-approval-dialog.h"
#include "plugboard-permissions-window.h"
#include "plugboard-server-page.h"
#include "plugboard-server-row.h"
#include "plugboard-window.h"
#include "../auth/oauth-test-server.h"
#include "test-engine.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

static PlugboardApplication *app;

static void
destroy_window (gpointer window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();
}

static void
test_window_activate_opens_one_window (void)
{
  GList *windows;
  GtkWindow *window;

  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));

  g_application_activate (G_APPLICATION (app));
  test_iterate_pending ();

  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 1);
  window = windows->data;
  g_assert_true (PLUGBOARD_IS_WINDOW (window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_cmpstr (gtk_window_get_title (window), ==, "Plugboard");

  /* A second activation presents the same window. */
  g_application_activate (G_APPLICATION (app));
  test_iterate_pending ();
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);

  destroy_window (window);
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
}

static void
test_window_empty_state (void)
{
  PlugboardWindow *window = plugboard_window_new (GTK_APPLICATION (app), NULL);
  GtkWidget *page;

  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();

  page = window_child (window, "empty_page");
  g_assert_true (ADW_IS_STATUS_PAGE (page));
  g_assert_true (gtk_widget_is_visible (page));
  g_assert_true (gtk_widget_is_ancestor (page, GTK_WIDGET (window)));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), ==, "No MCP Servers Yet");
  g_assert_cmpstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), ==,
                   "Servers you add will appear here, with their state and tools.");
  g_assert_cmpstr (adw_status_page_get_icon_name (ADW_STATUS_PAGE (page)), ==,
                   "org.plugboard.Plugboard-symbolic");

  /* The icon comes from the GResource, so it shows even when not installed. */
  g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gtk_widget_get_display (page)),
                                          "org.plugboard.Plugboard-symbolic"));
  g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gtk_widget_get_display (page)),
                                          "org.plugboard.Plugboard"));

  destroy_window (window);
}

static gboolean
menu_has_item (GMenuModel *menu,
               const char *action,
               const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *item_action = NULL;
      g_autofree char *item_label = NULL;
      g_autoptr(GMenuModel) section = NULL;

      section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      if (section != NULL && menu_has_item (section, action, label))
        return TRUE;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action) &&
          g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &item_label) &&
          g_strcmp0 (item_action, action) == 0 &&
          g_strcmp0 (item_label, label) == 0)
        return TRUE;
    }

  return FALSE;
}

static AdwAboutWindow *
find_about_window (void)
{
  return find_toplevel (ADW_TYPE_ABOUT_WINDOW);
}

static void
test_window_primary_menu (void)
{
  PlugboardWindow *window = plugboard_window_new (GTK_APPLICATION (app), NULL);
  g_auto(GStrv) quit_accels = NULL;
  GtkWidget *button;
  GMenuModel *menu;
  AdwAboutWindow *about;

  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();

  button = window_child (window, "primary_menu_button");
  g_assert_true (GTK_IS_MENU_BUTTON (button));
  g_assert_true (gtk_menu_button_get_primary (GTK_MENU_BUTTON (button)));
  g_assert_nonnull (gtk_widget_get_tooltip_text (button));

  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));
  g_assert_nonnull (menu);
  g_assert_true (menu_has_item (menu, "app.about", "_About Plugboard"));
  g_assert_true (menu_has_item (menu, "app.quit", "_Quit"));
  g_assert_true (menu_has_item (menu, "win.show-help-overlay", "_Keyboard Shortcuts"));
  g_assert_false (menu_has_item (menu, "app.about", "_Quit"));

  /* Every action the menu names exists. */
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "quit"));
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));

  quit_accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.quit");
  g_assert_cmpuint (g_strv_length (quit_accels), ==, 1);
  g_assert_cmpstr (quit_accels[0], ==, "<Control>q");

  /* About opens an AdwAboutWindow over the main window. */
  g_assert_null (find_about_window ());
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  test_iterate_pending ();
  about = find_about_window ();
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_application_name (about), ==, "Plugboard");
  g_assert_cmpstr (adw_about_window_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, APPLICATION_ID);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == GTK_WINDOW (window));

  destroy_window (about);
  g_assert_null (find_about_window ());
  destroy_window (window);
}

static void
test_window_size_restore (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  PlugboardWindow *window;
  int width = 0;
  int height = 0;

  g_settings_set_int (settings, "window-width", 777);
  g_settings_set_int (settings, "window-height", 555);
  g_settings_set_boolean (settings, "window-maximized", FALSE);

  window = plugboard_window_new (GTK_APPLICATION (app), NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 777);
  g_assert_cmpint (height, ==, 555);
  destroy_window (window);

  /* Closing saves the size the window had. */
  window = plugboard_window_new (GTK_APPLICATION (app), NULL);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 480);
  g_settings_set_boolean (settings, "window-maximized", TRUE);
  gtk_window_close (GTK_WINDOW (window));
  test_iterate_pending ();

  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 640);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 480);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* And the next window opens at that size. */
  window = plugboard_window_new (GTK_APPLICATION (app), NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 640);
  g_assert_cmpint (height, ==, 480);
  destroy_window (window);
}

static void
test_window_schema_defaults (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  g_assert_nonnull (schema);

  /* The defaults DESIGN.md gives for the MCP limits. */
  settings = g_settings_new (APPLICATION_ID);
  g_assert_cmpuint (g_settings_get_uint (settings, "connect-timeout"), ==, 30000);
  g_assert_cmpuint (g_settings_get_uint (settings, "local-batch-size"), ==, 3);
  g_assert_cmpuint (g_settings_get_uint (settings, "remote-batch-size"), ==, 20);
  g_assert_true (g_settings_schema_has_key (schema, "tool-timeout"));
  g_assert_true (g_settings_schema_has_key (schema, "request-timeout"));
  g_assert_true (g_settings_schema_has_key (schema, "max-output-tokens"));
}

/* ------------------------------------------------------------------------ */
/* Windows on real projects (issue 6)                                       */

static char *test_root;

typedef UiTestProject Setup;

static void
setup_init (Setup *setup)
{
  ui_test_project_init (setup, test_root, "project");
}

/* A window on the setup's files, loaded and settled. */
static void
setup_open (Setup *setup)
{
  ui_test_project_open (setup, app, 1000, 700);
}

typedef struct
{
  PlugboardWindow *window;
  const char      *name;
  const char      *text;
} RowText;

static void
wait_state (McpProject     *project,
            const char     *name,
            McpServerState  state)
{
  test_wait_server_state (mcp_project_get_manager (project), name, state);
}

/* The row of a connected server says how many tools it has. */
static void
wait_row_tools (PlugboardWindow  *window,
                McpProject *project,
                const char       *name)
{
  McpServerConnection *connection =
    mcp_server_manager_lookup (mcp_project_get_manager (project), name);
  g_autofree char *text = NULL;
  guint n;

  g_assert_nonnull (connection);
  n = g_list_model_get_n_items (mcp_server_connection_get_tools (connection));
  g_assert_cmpuint (n, >, 1);
  text = g_strdup_printf ("%u tools", n);
  window_wait_row_text (window, name, text);
}

static void
activate (PlugboardWindow *window,
          const char      *action,
          GVariant        *parameter)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, parameter);
}

/* Three servers: stdio (connected), OAuth without sign-in (needs-auth) and
 * a disabled one; one row each with its state, and the rows follow. */
static void
test_window_server_rows (void)
{
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *user = NULL;
  PlugboardServerPage *page;
  GtkWidget *stack;
  Setup setup = { 0 };

  oauth = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);
  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {"
                          "\"local\": {\"command\": \"%s\"},"
                          "\"remote\": {\"type\": \"http\", \"url\": \"%s\"},"
                          "\"off\": {\"command\": \"%s\", \"enabled\": false}}}",
                          test_fixture_server (), mcp_oauth_fixture_get_mcp_url (oauth), test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup);

  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 3);
  g_assert_cmpstr (server_row_name (rows->pdata[0]), ==, "local");
  g_assert_cmpstr (server_row_name (rows->pdata[1]), ==, "remote");
  g_assert_cmpstr (server_row_name (rows->pdata[2]), ==, "off");
  g_assert_true (g_str_has_suffix (plugboard_server_row_get_state_text (rows->pdata[0]), " tools"));
  g_assert_cmpstr (plugboard_server_row_get_state_text (rows->pdata[1]), ==, "Sign in");
  g_assert_cmpstr (plugboard_server_row_get_state_text (rows->pdata[2]), ==, "Disabled");

  /* The first server is selected and shown. */
  stack = window_child (setup.window, "content_stack");
  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "server");
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connected");

  g_assert_true (plugboard_window_show_server (setup.window, "remote"));
  test_iterate_pending ();
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Sign-In Required");
  g_assert_false (plugboard_window_show_server (setup.window, "nothing"));

  /* State changes reach the rows: disable one, enable another. */
  activate (setup.window, "disable-server", g_variant_new_string ("local"));
  window_wait_row_text (setup.window, "local", "Disabled");
  activate (setup.window, "enable-server", g_variant_new_string ("off"));
  wait_state (setup.project, "off", MCP_SERVER_STATE_CONNECTED);
  wait_row_tools (setup.window, setup.project, "off");
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (setup.user_file, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "\"enabled\": false"));
  }

  /* The selection stays on its server while the list changes. */
  g_assert_true (plugboard_window_show_server (setup.window, "remote"));
  activate (setup.window, "enable-server", g_variant_new_string ("local"));
  wait_state (setup.project, "local", MCP_SERVER_STATE_CONNECTED);
  test_iterate_pending ();
  g_assert_true (plugboard_server_page_get_connection (page) ==
                 mcp_server_manager_lookup (mcp_project_get_manager (setup.project), "remote"));

  ui_test_project_clear (&setup);
}

static gboolean
file_lacks_files (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) &&
         strstr (contents, "\"files\"") == NULL;
}

static gboolean
row_gone (gpointer data)
{
  test_iterate_pending ();
  return window_find_row (data, "files") == NULL;
}

static gboolean
row_back (gpointer data)
{
  test_iterate_pending ();
  return window_find_row (data, "files") != NULL;
}

/* The widget under @root showing a label whose text is @text, and then
 * its nearest ancestor of @type. */
static gboolean
is_label_reading (GtkWidget     *widget,
                  gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static GtkWidget *
find_labelled (GtkWidget  *root,
               const char *text,
               GType       type)
{
  GtkWidget *label = find_widget_matching (root, UI_WALK_ALL, is_label_reading, text);

  return label != NULL ? gtk_widget_get_ancestor (label, type) : NULL;
}

/* Removing with the mouse, through the ⋮ menu of the server's page (issue
 * 21, defect 8: it did nothing and logged a Gdk-CRITICAL from
 * gdk_surface_hide, which this test's fatal criticals would catch): the
 * menu closes, the entry goes from its file and its row from the list,
 * and Undo in the toast puts it back. */
static void
test_window_remove_with_mouse (void)
{
  g_autofree char *user = NULL;
  PlugboardServerPage *page;
  GtkMenuButton *menu_button;
  GtkPopover *popover;
  GtkWidget *item;
  Setup setup = { 0 };

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"keep\": {\"command\": \"%s\"}, \"files\": {\"command\": \"%s\"}}}",
                          test_fixture_server (), test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup);
  g_assert_true (plugboard_window_show_server (setup.window, "files"));
  test_iterate_pending ();
  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  menu_button = GTK_MENU_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                               "menu_button"));

  gtk_menu_button_popup (menu_button);
  test_iterate_pending ();
  popover = gtk_menu_button_get_popover (menu_button);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  /* the page may make a new menu once the server is gone */
  g_object_add_weak_pointer (G_OBJECT (popover), (gpointer *) &popover);
  item = find_labelled (GTK_WIDGET (popover), "Remove", GTK_TYPE_WIDGET);
  g_assert_nonnull (item);
  /* the menu's button, as a click on it */
  item = gtk_widget_get_parent (item);
  while (item != NULL && g_signal_lookup ("clicked", G_OBJECT_TYPE (item)) == 0)
    item = gtk_widget_get_parent (item);
  g_assert_nonnull (item);
  g_signal_emit_by_name (item, "clicked");

  test_iterate_until (row_gone, setup.window, "the removed server's row to go");
  test_iterate_until (file_lacks_files, setup.user_file, "the entry to leave the file");
  test_iterate_pending ();
  g_assert_true (popover == NULL || !gtk_widget_get_mapped (GTK_WIDGET (popover)));
  if (popover != NULL)
    g_object_remove_weak_pointer (G_OBJECT (popover), (gpointer *) &popover);
  g_assert_nonnull (window_find_row (setup.window, "keep"));

  activate (setup.window, "undo-remove", g_variant_new_string ("files"));
  test_iterate_until (row_back, setup.window, "the server to come back");

  ui_test_project_clear (&setup);
}

static PlugboardPermissionsWindow *
find_permissions_window (void)
{
  return find_toplevel (PLUGBOARD_TYPE_PERMISSIONS_WINDOW);
}

/* The row of the rule @title (an AdwActionRow) under @root. */
static gboolean
is_rule_row (GtkWidget     *widget,
             gconstpointer  title)
{
  return ADW_IS_ACTION_ROW (widget) && g_strcmp0 (g_object_get_data (G_OBJECT (widget), "rule"), title) == 0;
}

static GtkWidget *
find_rule_row (GtkWidget  *root,
               const char *title)
{
  return find_widget_matching (root, UI_WALK_ALL, is_rule_row, title);
}

static gboolean
is_icon_button (GtkWidget     *widget,
                gconstpointer  icon_name)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), icon_name) == 0;
}

static GtkWidget *
find_icon_button (GtkWidget  *root,
                  const char *icon_name)
{
  return find_widget_matching (root, UI_WALK_ALL, is_icon_button, icon_name);
}

typedef struct
{
  const char *path;
  const char *text;
  gboolean    present;
} FileWanted;

static gboolean
file_has_text (gpointer data)
{
  FileWanted *wanted = data;
  g_autofree char *contents = NULL;

  test_iterate_pending ();
  return g_file_get_contents (wanted->path, &contents, NULL, NULL) &&
         (strstr (contents, wanted->text) != NULL) == wanted->present;
}

typedef struct
{
  PlugboardPermissionsWindow *window;
  const char                 *title;
  gboolean                    present;
} RuleWanted;

static gboolean
rule_row_is (gpointer data)
{
  RuleWanted *wanted = data;

  test_iterate_pending ();
  return (find_rule_row (GTK_WIDGET (wanted->window), wanted->title) != NULL) == wanted->present;
}

static McpPermission
decide (Setup      *setup,
        const char *server,
        const char *tool)
{
  McpPermissionDecision decision = { 0 };

  mcp_permissions_decide (mcp_project_get_permissions (setup->project), server, tool,
                          MCP_PERMISSION_HINT_NONE, &decision);
  return decision.permission;
}

typedef struct
{
  Setup         *setup;
  const char    *tool;
  McpPermission  permission;
} DecisionWanted;

/* The settings reload after the file is written: the evaluator follows. */
static gboolean
decides (gpointer data)
{
  DecisionWanted *wanted = data;

  test_iterate_pending ();
  return decide (wanted->setup, "keep", wanted->tool) == wanted->permission;
}

/* The permissions overview (issue 21, view 9): every rule of both scopes
 * with what it names; adding one in the scope chosen, changing its list
 * and removing it write the settings, and the evaluator the app and the
 * CLI share follows. */
static void
test_window_permissions (void)
{
  g_autofree char *user = NULL;
  PlugboardPermissionsWindow *window;
  GtkWidget *row;
  GtkWidget *dropdown;
  FileWanted file_wanted = { 0 };
  RuleWanted rule_wanted = { 0 };
  DecisionWanted decision_wanted = { 0 };
  Setup setup = { 0 };

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"keep\": {\"command\": \"%s\"}},"
                          " \"permissions\": {\"allow\": [\"mcp__keep\"], \"deny\": [\"Bash(rm:*)\"]},"
                          " \"projects\": {\"%s\": {\"permissions\": {\"ask\": [\"mcp__keep__echo\"]}}}}",
                          test_fixture_server (), setup.project_dir);
  test_write_file (setup.user_file, user);
  setup_open (&setup);
  g_assert_cmpint (decide (&setup, "keep", "echo"), ==, MCP_PERMISSION_ASK);
  g_assert_cmpint (decide (&setup, "keep", "sleep"), ==, MCP_PERMISSION_ALLOW);

  activate (setup.window, "permissions", NULL);
  test_iterate_pending ();
  window = find_permissions_window ();
  g_assert_nonnull (window);

  /* Every rule, saying what it names, under the scope that keeps it. */
  row = find_rule_row (GTK_WIDGET (window), "mcp__keep");
  g_assert_nonnull (row);
  g_assert_cmpstr ((const char *) g_object_get_data (G_OBJECT (row), "meaning"), ==, "Every tool of “keep”");
  row = find_rule_row (GTK_WIDGET (window), "mcp__keep__echo");
  g_assert_nonnull (row);
  g_assert_cmpstr ((const char *) g_object_get_data (G_OBJECT (row), "meaning"), ==, "The tool “echo” of “keep”");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (find_widget (row, GTK_TYPE_DROP_DOWN))), ==, 1);
  row = find_rule_row (GTK_WIDGET (window), "Bash(rm:*)");
  g_assert_nonnull (row);
  g_assert_true (g_str_has_prefix ((const char *) g_object_get_data (G_OBJECT (row), "meaning"), "Ignored: “Bash(rm:*)” is not an MCP rule"));
  /* another client's rule: only removed, no list makes it act */
  g_assert_null (find_widget (row, GTK_TYPE_DROP_DOWN));
  g_assert_nonnull (find_icon_button (row, "user-trash-symbolic"));

  /* A rule the evaluator would ignore is refused before any write. */
  gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_template_child (GTK_WIDGET (window), PLUGBOARD_TYPE_PERMISSIONS_WINDOW,
                                                                      "rule_row")), "mcp__keep__*__x");
  plugboard_permissions_window_add (window);
  g_assert_nonnull (strstr (plugboard_permissions_window_get_message (window), "a wildcard may only end a rule"));

  /* Added: Deny for one tool, in the user scope chosen. */
  gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_template_child (GTK_WIDGET (window), PLUGBOARD_TYPE_PERMISSIONS_WINDOW,
                                                                      "rule_row")), " mcp__keep__sleep ");
  adw_combo_row_set_selected (ADW_COMBO_ROW (gtk_widget_get_template_child (GTK_WIDGET (window), PLUGBOARD_TYPE_PERMISSIONS_WINDOW,
                                                                            "list_row")), 2);
  adw_combo_row_set_selected (ADW_COMBO_ROW (gtk_widget_get_template_child (GTK_WIDGET (window), PLUGBOARD_TYPE_PERMISSIONS_WINDOW,
                                                                            "scope_row")), 0);
  plugboard_permissions_window_add (window);
  file_wanted.path = setup.user_file;
  file_wanted.text = "\"deny\": [\"Bash(rm:*)\", \"mcp__keep__sleep\"]";
  file_wanted.present = TRUE;
  test_iterate_until (file_has_text, &file_wanted, "the rule to be written");
  rule_wanted.window = window;
  rule_wanted.title = "mcp__keep__sleep";
  rule_wanted.present = TRUE;
  test_iterate_until (rule_row_is, &rule_wanted, "the new rule's row");
  decision_wanted.setup = &setup;
  decision_wanted.tool = "sleep";
  decision_wanted.permission = MCP_PERMISSION_DENY;
  test_iterate_until (decides, &decision_wanted, "the new rule to decide");
  g_assert_cmpstr (plugboard_permissions_window_get_message (window), ==, "Added the rule “mcp__keep__sleep”");

  /* Its list changed: from Ask to Always Allow, in its own scope. */
  row = find_rule_row (GTK_WIDGET (window), "mcp__keep__echo");
  dropdown = find_widget (row, GTK_TYPE_DROP_DOWN);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 0);
  file_wanted.text = "\"allow\": [\"mcp__keep__echo\"]";
  test_iterate_until (file_has_text, &file_wanted, "the rule to move to allow");
  decision_wanted.tool = "echo";
  decision_wanted.permission = MCP_PERMISSION_ALLOW;
  test_iterate_until (decides, &decision_wanted, "the moved rule to decide");

  /* Removed with its button. */
  row = find_rule_row (GTK_WIDGET (window), "mcp__keep");
  g_assert_nonnull (find_icon_button (row, "user-trash-symbolic"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (find_icon_button (row, "user-trash-symbolic")), ==, "Remove Rule");
  g_signal_emit_by_name (find_icon_button (row, "user-trash-symbolic"), "clicked");
  file_wanted.text = "\"allow\": [\"mcp__keep\"]";
  file_wanted.present = FALSE;
  test_iterate_until (file_has_text, &file_wanted, "the rule to be removed");
  rule_wanted.title = "mcp__keep";
  rule_wanted.present = FALSE;
  test_iterate_until (rule_row_is, &rule_wanted, "the removed rule's row to go");
  g_assert_nonnull (find_rule_row (GTK_WIDGET (window), "Bash(rm:*)"));

  gtk_window_destroy (GTK_WINDOW (window));
  ui_test_project_clear (&setup);
}

static void
test_window_filter (void)
{
  g_autofree char *user = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  GtkWidget *entry;
  Setup setup = { 0 };

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"github\": {\"command\": \"%s\"},"
                          "\"gitlab\": {\"command\": \"%s\", \"enabled\": false},"
                          "\"files\": {\"command\": \"%s\", \"enabled\": false}}}",
                          test_fixture_server (), test_fixture_server (), test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup);

  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 3);
  g_clear_pointer (&rows, g_ptr_array_unref);

  entry = window_child (setup.window, "search_entry");
  gtk_editable_set_text (GTK_EDITABLE (entry), "GIT");
  g_signal_emit_by_name (entry, "search-changed");
  test_iterate_pending ();
  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_nonnull (window_find_row (setup.window, "github"));
  g_assert_nonnull (window_find_row (setup.window, "gitlab"));
  g_assert_null (window_find_row (setup.window, "files"));
  g_clear_pointer (&rows, g_ptr_array_unref);

  gtk_editable_set_text (GTK_EDITABLE (entry), "zzz");
  g_signal_emit_by_name (entry, "search-changed");
  test_iterate_pending ();
  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (window_child (setup.window, "sidebar_stack"))),
                   ==, "no-results");
  g_clear_pointer (&rows, g_ptr_array_unref);

  /* Ctrl+F (win.search) in All Tools focuses the tools' search, not the
   * servers' (issue 21) */
  {
    AdwViewStack *sidebar = ADW_VIEW_STACK (window_child (setup.window, "sidebar_view_stack"));
    GtkWidget *tools = window_child (setup.window, "all_tool_list");
    GtkWidget *focus;

    adw_view_stack_set_visible_child_name (sidebar, "tools");
    test_iterate_pending ();
    activate (setup.window, "search", NULL);
    test_iterate_pending ();
    focus = gtk_root_get_focus (GTK_ROOT (setup.window));
    g_assert_nonnull (focus);
    g_assert_true (gtk_widget_is_ancestor (focus, tools));
    g_assert_false (gtk_widget_is_ancestor (focus, entry));
    g_assert_cmpstr (adw_view_stack_get_visible_child_name (sidebar), ==, "tools");
    adw_view_stack_set_visible_child_name (sidebar, "servers");
    test_iterate_pending ();
  }

  /* Showing a hidden server clears the search. */
  g_assert_true (plugboard_window_show_server (setup.window, "files"));
  test_iterate_pending ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 3);

  /* Remove, then Undo: the same entry comes back. */
  activate (setup.window, "remove-server", g_variant_new_string ("files"));
  test_iterate_until (file_lacks_files, setup.user_file, "the removal");
  test_iterate_until (row_gone, setup.window, "the row to go");
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (setup.window), "undo-remove"));
  activate (setup.window, "undo-remove", g_variant_new_string ("files"));
  test_iterate_until (row_back, setup.window, "the row to come back");
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (setup.user_file, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "\"files\""));
  }
  g_assert_cmpint (mcp_server_connection_get_state (mcp_server_manager_lookup (mcp_project_get_manager (setup.project), "files")),
                   ==, MCP_SERVER_STATE_DISABLED);

  ui_test_project_clear (&setup);
}

/* Issue 21, defect 1: with a server other than the first selected, a
 * search that hides every row and then its clearing (the clear icon)
 * crashed in the selection's items-changed handler, which selected again
 * while the list was being changed. Now: no crash, and the same server
 * is selected and shown once the rows are back. */
static void
test_window_search_clear_keeps_selection (void)
{
  g_autofree char *user = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  PlugboardServerPage *page;
  GtkWidget *entry;
  Setup setup = { 0 };

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"alpha\": {\"command\": \"%s\", \"enabled\": false},"
                          "\"beta\": {\"command\": \"%s\", \"enabled\": false},"
                          "\"gamma\": {\"command\": \"%s\", \"enabled\": false}}}",
                          test_fixture_server (), test_fixture_server (), test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup);

  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  entry = window_child (setup.window, "search_entry");
  for (guint round = 0; round < 4; round++)
    {
      const char *name = round % 2 == 0 ? "beta" : "gamma";

      g_assert_true (plugboard_window_show_server (setup.window, name));
      test_iterate_pending ();
      g_assert_cmpstr (mcp_server_connection_get_name (plugboard_server_page_get_connection (page)), ==, name);

      gtk_editable_set_text (GTK_EDITABLE (entry), "xyz");
      g_signal_emit_by_name (entry, "search-changed");
      test_iterate_pending ();
      rows = window_rows (setup.window);
      g_assert_cmpuint (rows->len, ==, 0);
      g_clear_pointer (&rows, g_ptr_array_unref);

      /* what the clear icon does */
      gtk_editable_set_text (GTK_EDITABLE (entry), "");
      g_signal_emit_by_name (entry, "search-changed");
      test_iterate_pending ();
      rows = window_rows (setup.window);
      g_assert_cmpuint (rows->len, ==, 3);
      g_clear_pointer (&rows, g_ptr_array_unref);
      g_assert_cmpstr (mcp_server_connection_get_name (plugboard_server_page_get_connection (page)), ==, name);
    }

  ui_test_project_clear (&setup);
}

static gboolean
file_has_example (gpointer data)
{
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (data, &contents, NULL, NULL))
    return FALSE;
  return strstr (contents, "\"everything\"") != NULL &&
         strstr (contents, "@modelcontextprotocol/server-everything") != NULL &&
         strstr (contents, "\"npx\"") != NULL;
}

static gboolean
stack_shows_server (gpointer data)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (data), "server") == 0;
}

static void
test_window_empty_example (void)
{
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *bin = NULL;
  g_autofree char *npx = NULL;
  g_autofree char *path = NULL;
  GtkWidget *stack;
  GtkWidget *empty;
  Setup setup = { 0 };

  setup_init (&setup);
  /* An npx that fails at once: the test never reaches the network. */
  bin = g_build_filename (setup.dir, "bin", NULL);
  npx = g_build_filename (bin, "npx", NULL);
  test_write_file (npx, "#!/bin/sh\nexit 3\n");
  g_assert_cmpint (g_chmod (npx, 0755), ==, 0);
  path = g_strdup_printf ("%s:%s", bin, old_path);
  g_setenv ("PATH", path, TRUE);

  setup_open (&setup);
  stack = window_child (setup.window, "content_stack");
  empty = window_child (setup.window, "empty_page");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_true (gtk_widget_is_visible (empty));
  g_assert_true (gtk_widget_is_visible (window_child (setup.window, "example_button")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (window_child (setup.window, "example_button"))), ==,
                   "_Try the Example Server");

  gtk_widget_activate (window_child (setup.window, "example_button"));
  test_iterate_until (file_has_example, setup.user_file, "the example server in the settings");
  test_iterate_until (stack_shows_server, stack, "the example server to be shown");
  g_assert_nonnull (mcp_server_manager_lookup (mcp_project_get_manager (setup.project), "everything"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "server");
  g_assert_nonnull (window_find_row (setup.window, "everything"));

  settle_project (setup.project);
  ui_test_project_clear (&setup);
  g_setenv ("PATH", old_path, TRUE);
}

static PlugboardApprovalDialog *
find_approval_dialog (void)
{
  return find_toplevel (PLUGBOARD_TYPE_APPROVAL_DIALOG);
}

static void
applied_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (plugboard_approval_dialog_apply_finish (PLUGBOARD_APPROVAL_DIALOG (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* A project server does not start before it is approved. */
static void
test_window_approval (void)
{
  g_autofree char *marker = NULL;
  g_autofree char *project = NULL;
  PlugboardApprovalDialog *dialog;
  g_autofree char *shown = NULL;
  gboolean applied = FALSE;
  Setup setup = { 0 };

  setup_init (&setup);
  marker = g_build_filename (setup.dir, "started", NULL);
  project = g_strdup_printf ("{\"mcpServers\": {\"proj\": {\"command\": \"sh\", \"args\": "
                             "[\"-c\", \"touch '%s'; exec '%s'\"]}}}", marker, test_fixture_server ());
  test_write_file (setup.project_file, project);
  setup_open (&setup);

  /* Nothing ran; the row and the window say it waits. */
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  window_wait_row_text (setup.window, "proj", "Awaiting approval");
  g_assert_cmpint (mcp_server_connection_get_state (mcp_server_manager_lookup (mcp_project_get_manager (setup.project), "proj")),
                   ==, MCP_SERVER_STATE_DISABLED);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (window_child (setup.window, "approval_revealer"))));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (setup.window), "review-approvals"));

  /* The dialog came up by itself, showing the command. */
  dialog = find_approval_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (setup.window));
  shown = plugboard_approval_dialog_dup_shown_command (dialog, "proj");
  g_assert_nonnull (shown);
  g_assert_nonnull (strstr (shown, "sh"));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));

  plugboard_approval_dialog_set_decision (dialog, "proj", TRUE);
  plugboard_approval_dialog_apply_async (dialog, NULL, applied_cb, &applied);
  test_iterate_until (test_flag_set, &applied, "the approval");
  wait_state (setup.project, "proj", MCP_SERVER_STATE_CONNECTED);
  g_assert_true (file_exists (marker));
  test_iterate_pending ();
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (window_child (setup.window, "approval_revealer"))));

  ui_test_project_clear (&setup);
}

/* A .mcp.json that is a FIFO (say, in a cloned repository) blocks nothing:
 * the card at the top of the sidebar names it, the user's servers load. */
static void
test_window_settings_problem (void)
{
  Setup setup = { 0 };
  const char *shown;

  setup_init (&setup);
  test_write_file (setup.user_file, "{\"mcpServers\": {\"mine\": {\"command\": \"/bin/true\", \"disabled\": true}}}");
  g_assert_cmpint (mkfifo (setup.project_file, 0600), ==, 0);
  setup_open (&setup);

  window_wait_row_text (setup.window, "mine", "Disabled");
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (window_child (setup.window, "problem_revealer"))));
  shown = gtk_label_get_label (GTK_LABEL (window_child (setup.window, "problem_label")));
  g_assert_nonnull (strstr (shown, setup.project_file));
  g_assert_nonnull (strstr (shown, "named pipe"));

  ui_test_project_clear (&setup);
}

static PlugboardServerPage *
window_page (PlugboardWindow *window)
{
  return PLUGBOARD_SERVER_PAGE (window_child (window, "server_page"));
}

static gboolean
page_connected (gpointer data)
{
  PlugboardServerPage *page = data;

  test_iterate_pending ();
  return g_strcmp0 (plugboard_server_page_get_state_title (page), "Connected") == 0;
}

static gboolean
page_not_waiting (gpointer data)
{
  PlugboardServerPage *page = data;

  test_iterate_pending ();
  return g_strcmp0 (plugboard_server_page_get_state_title (page), "Waiting for Sign-In") != 0;
}

/* Sign-in from the window against the OAuth fixture, with the fixture's
 * own browser; and a sign-in cancelled from the page. */
static void
test_window_sign_in (void)
{
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *user = NULL;
  g_autofree char *command = NULL;
  const char *browser = g_getenv ("MCP_TEST_OAUTH_FIXTURE_SERVER");
  PlugboardServerPage *page;
  Setup setup = { 0 };

  g_assert_nonnull (browser);
  oauth = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);
  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"remote\": {\"type\": \"http\", \"url\": \"%s\"}}}",
                          mcp_oauth_fixture_get_mcp_url (oauth));
  test_write_file (setup.user_file, user);
  setup_open (&setup);
  page = window_page (setup.window);
  g_assert_true (plugboard_window_show_server (setup.window, "remote"));
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Sign-In Required");

  /* A browser that never comes back: Cancel ends the wait. It is
   * $BROWSER, as the CLI reads it (issue 21, defect 7: the app ignored
   * it), and the page shows the address to copy while it waits. */
  {
    g_autofree char *dir = g_dir_make_tmp ("test-window-browser-XXXXXX", NULL);
    g_autofree char *marker = g_build_filename (dir, "opened", NULL);
    /* written aside and renamed, so that the file is whole once it exists */
    g_autofree char *browser_command = g_strdup_printf ("sh -c 'printf %%s \"$0\" > %s.part && mv %s.part %s'",
                                                        marker, marker, marker);
    g_autofree char *opened = NULL;
    GObject *url_label;
    GObject *copy_button;

    g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
    g_setenv ("BROWSER", browser_command, TRUE);
    activate (setup.window, "sign-in", g_variant_new_string ("remote"));
    test_iterate_until (file_exists, marker, "$BROWSER to be run");
    test_iterate_pending ();
    g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Waiting for Sign-In");
    g_assert_true (g_file_get_contents (marker, &opened, NULL, NULL));
    g_assert_true (g_str_has_prefix (opened, "http://127.0.0.1"));
    g_assert_nonnull (strstr (opened, "code_challenge="));
    url_label = gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE, "command_label");
    copy_button = gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                 "copy_sign_in_url_button");
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (url_label)));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (url_label)), ==, opened);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (copy_button)));
    g_assert_nonnull (strstr (plugboard_server_page_get_state_detail (page), "keyring"));
    g_unsetenv ("BROWSER");
    g_unlink (marker);
    g_rmdir (dir);
  }
  activate (setup.window, "cancel-sign-in", g_variant_new_string ("remote"));
  test_iterate_until (page_not_waiting, page, "the cancelled sign-in");
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Sign-In Required");
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "token-code"), ==, 0);

  /* The fixture's browser approves. */
  command = g_strdup_printf ("'%s' --browse", browser);
  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", command, TRUE);
  activate (setup.window, "sign-in", g_variant_new_string ("remote"));
  test_iterate_until (page_connected, page, "the sign-in");
  g_assert_cmpint (mcp_server_connection_get_state (mcp_server_manager_lookup (mcp_project_get_manager (setup.project), "remote")),
                   ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "token-code"), ==, 1);
  wait_row_tools (setup.window, setup.project, "remote");

  g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  ui_test_project_clear (&setup);
}

static gboolean
page_says_refused (gpointer data)
{
  PlugboardServerPage *page = data;
  g_autofree char *error = NULL;

  test_iterate_pending ();
  g_object_get (page, "sign-in-error", &error, NULL);
  return error != NULL && strstr (error, "will not open") != NULL;
}

/* Issue 20: an authorization server whose sign-in address is javascript:
 * is refused with the reason on the server's page; nothing is launched. */
static void
test_window_sign_in_refused (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autofree char *user = NULL;
  g_autofree char *mcp_url = test_server_url (ts, "/mcp");
  g_autofree char *prm = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-window-refused-XXXXXX", NULL);
  g_autofree char *marker = g_build_filename (dir, "opened", NULL);
  g_autofree char *command = g_strdup_printf ("sh -c 'printf %%s \"$0\" > %s'", marker);
  PlugboardServerPage *page;
  g_autofree char *detail = NULL;
  Setup setup = { 0 };

  prm = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%s\"]}", mcp_url, ts->base);
  test_server_route (ts, "/mcp", 401, "{}");
  test_server_route (ts, "/.well-known/oauth-protected-resource/mcp", 200, prm);
  test_server_route (ts, "/.well-known/oauth-authorization-server", 200,
                     "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"javascript:alert(document.cookie)\","
                     "\"token_endpoint\":\"%BASE%/token\",\"registration_endpoint\":\"%BASE%/register\","
                     "\"code_challenge_methods_supported\":[\"S256\"]}");
  test_server_route (ts, "/register", 201, "{\"client_id\":\"c1\"}");

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"remote\": {\"type\": \"http\", \"url\": \"%s\"}}}", mcp_url);
  test_write_file (setup.user_file, user);
  setup_open (&setup);
  page = window_page (setup.window);
  g_assert_true (plugboard_window_show_server (setup.window, "remote"));

  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", command, TRUE);
  activate (setup.window, "sign-in", g_variant_new_string ("remote"));
  test_iterate_until (page_says_refused, page, "the refused sign-in");
  /* The page says which server and why, under its sign-in button. */
  g_object_get (page, "sign-in-error", &detail, NULL);
  g_assert_nonnull (strstr (detail, "“remote”"));
  g_assert_nonnull (strstr (detail, "“javascript:” address"));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");

  ui_test_project_clear (&setup);
  g_rmdir (dir);
}

typedef struct
{
  McpProject *project;
  guint             n;
} AllConnected;

static gboolean
all_connected (gpointer data)
{
  AllConnected *wanted = data;
  GListModel *manager;
  guint n;

  if (!mcp_project_get_loaded (wanted->project))
    return FALSE;

  manager = G_LIST_MODEL (mcp_project_get_manager (wanted->project));
  n = g_list_model_get_n_items (manager);
  if (n != wanted->n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (manager, i);

      if (mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_CONNECTED)
        return FALSE;
    }

  return TRUE;
}

/* The application starts on the last project and shows 20 servers, all
 * connected; a folder handed to it opens in the same window. */
static void
test_window_app_twenty_servers (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GString) user = g_string_new ("{\"mcpServers\": {");
  g_autofree char *user_file = g_build_filename (g_get_user_config_dir (), "plugboard", "settings.json", NULL);
  g_autofree char *project_dir = g_build_filename (test_root, "twenty", NULL);
  g_autofree char *other_dir = g_build_filename (test_root, "other", NULL);
  g_autoptr(GFile) other = g_file_new_for_path (other_dir);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GSettings) view = NULL;
  g_auto(GStrv) recent = NULL;
  PlugboardWindow *window;
  McpProject *project;
  AllConnected wanted = { NULL, 20 };
  GListModel *list;

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (user, "%s\"server-%02u\": {\"command\": \"%s\"}",
                            i > 0 ? ", " : "", i, test_fixture_server ());
  g_string_append (user, "}}");
  test_write_file (user_file, user->str);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (other_dir, 0700), ==, 0);
  g_settings_set_string (settings, "last-project", project_dir);
  g_settings_set_int (settings, "window-height", 1400);

  g_application_activate (G_APPLICATION (app));
  test_iterate_pending ();
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  window = gtk_application_get_windows (GTK_APPLICATION (app))->data;
  project = plugboard_window_get_project (window);
  g_assert_nonnull (project);
  g_assert_cmpstr (mcp_project_get_project_dir (project), ==, project_dir);
  g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (window_child (window, "project_button"))), ==,
                   "twenty");

  wanted.project = project;
  test_iterate_until (all_connected, &wanted, "20 servers to connect");
  test_iterate_pending ();
  list = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (window_child (window, "server_list"))));
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 20);
  rows = window_rows (window);
  g_assert_cmpuint (rows->len, >=, 10);
  for (guint i = 0; i < rows->len; i++)
    wait_row_tools (window, project, server_row_name (rows->pdata[i]));

  /* The running instance opens another folder in its window. */
  g_application_open (G_APPLICATION (app), &other, 1, "");
  test_iterate_pending ();
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  project = plugboard_window_get_project (window);
  g_assert_cmpstr (mcp_project_get_project_dir (project), ==, other_dir);
  g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (window_child (window, "project_button"))), ==,
                   "other");
  recent = g_settings_get_strv (settings, "recent-projects");
  g_assert_cmpstr (recent[0], ==, other_dir);
  g_assert_cmpstr (recent[1], ==, project_dir);
  {
    g_autofree char *last = g_settings_get_string (settings, "last-project");

    g_assert_cmpstr (last, ==, other_dir);
  }

  /* Recent projects offer only folders that exist. */
  g_assert_cmpint (g_rmdir (project_dir), ==, 0);
  gtk_widget_set_visible (window_child (window, "project_popover"), TRUE);
  test_iterate_pending ();
  {
    GtkWidget *list_box = window_child (window, "recent_list");
    gboolean other_shown = FALSE;
    guint n = 0;

    for (GtkWidget *child = gtk_widget_get_first_child (list_box); child; child = gtk_widget_get_next_sibling (child))
      {
        const char *folder = g_object_get_data (G_OBJECT (child), "folder");

        g_assert_nonnull (folder);
        g_assert_cmpstr (folder, !=, project_dir);
        if (g_strcmp0 (folder, other_dir) == 0)
          other_shown = TRUE;
        n++;
      }
    g_assert_true (other_shown);
    g_assert_cmpuint (n, ==, g_strv_length (recent) - 1);
  }
  gtk_widget_set_visible (window_child (window, "project_popover"), FALSE);

  settle_project (project);
  destroy_window (window);
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "last-project");
  g_settings_reset (settings, "recent-projects");
  g_unlink (user_file);
}

static gboolean
user_file_denies_fixture (gpointer data)
{
  g_autofree char *contents = NULL;

  test_iterate_pending ();
  return g_file_get_contents (data, &contents, NULL, NULL) &&
         strstr (contents, "\"deny\"") != NULL && strstr (contents, "\"mcp__fixture\"") != NULL;
}

static gboolean
echo_denied (gpointer data)
{
  Setup *setup = data;
  McpPermissionDecision decision = { 0 };
  McpPoolTool *tool;

  /* first: the pool may make its tools anew while the loop runs, and a
   * tool looked up before would be gone */
  test_iterate_pending ();
  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (setup->project), "mcp__fixture__echo");
  if (tool == NULL)
    return FALSE;
  mcp_permissions_decide_tool (mcp_project_get_permissions (setup->project), tool, &decision);
  return decision.permission == MCP_PERMISSION_DENY;
}

/* Issue 21, view 9: the server page's rule for all its tools, written to
 * the server's scope; the evaluator, app and CLI alike, then denies its
 * tools. */
static void
test_window_server_rule (void)
{
  g_autofree char *user = NULL;
  PlugboardServerPage *page;
  GtkDropDown *rules;
  McpPoolTool *tool;
  McpPermissionDecision decision = { 0 };
  Setup setup = { 0 };

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"fixture\": {\"command\": \"%s\"}}}", test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup);
  page = window_page (setup.window);
  g_assert_true (plugboard_window_show_server (setup.window, "fixture"));
  test_iterate_pending ();
  rules = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                        "server_rule_dropdown"));
  g_assert_cmpuint (gtk_drop_down_get_selected (rules), ==, 0);

  gtk_drop_down_set_selected (rules, 3);
  test_iterate_until (user_file_denies_fixture, setup.user_file, "the server's deny rule");
  test_iterate_until (echo_denied, &setup, "the rule to reach the evaluator");
  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (setup.project), "mcp__fixture__echo");
  g_assert_nonnull (tool);
  mcp_permissions_decide_tool (mcp_project_get_permissions (setup.project), tool, &decision);
  g_assert_cmpint (decision.permission, ==, MCP_PERMISSION_DENY);
  g_assert_cmpstr (decision.rule, ==, "mcp__fixture");
  g_assert_cmpuint (gtk_drop_down_get_selected (rules), ==, 3);

  ui_test_project_clear (&setup);
}

/* Whether @button shows only an icon: no text to read. */
static gboolean
icon_only (GtkWidget *button)
{
  GtkWidget *child;

  if (GTK_IS_MENU_BUTTON (button))
    return gtk_menu_button_get_label (GTK_MENU_BUTTON (button)) == NULL &&
           gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (button)) != NULL;
  if (!GTK_IS_BUTTON (button) || gtk_button_get_label (GTK_BUTTON (button)) != NULL)
    return FALSE;
  child = gtk_button_get_child (GTK_BUTTON (button));
  if (gtk_button_get_icon_name (GTK_BUTTON (button)) != NULL || GTK_IS_IMAGE (child))
    return TRUE;
  if (ADW_IS_BUTTON_CONTENT (child))
    {
      const char *label = adw_button_content_get_label (ADW_BUTTON_CONTENT (child));

      return label == NULL || label[0] == '\0';
    }
  return FALSE;
}

/* Every icon-only button under @widget (those of GTK's and libadwaita's
 * own composites aside) without a tooltip, by its id or type. */
static void
collect_unlabelled (GtkWidget *widget,
                    GString   *found,
                    guint     *seen)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *id = GTK_IS_BUILDABLE (child) ? gtk_buildable_get_buildable_id (GTK_BUILDABLE (child)) : NULL;
      GtkWidget *parent = gtk_widget_get_parent (child);
      gboolean ours = id != NULL ||
                      (parent != NULL && g_str_has_prefix (G_OBJECT_TYPE_NAME (parent), "Plugboard"));

      if (ours && icon_only (child))
        {
          (*seen)++;
          if (gtk_widget_get_tooltip_text (child) == NULL)
            g_string_append_printf (found, "%s (%s, in %s)\n", id != NULL ? id : "?",
                                    G_OBJECT_TYPE_NAME (child), G_OBJECT_TYPE_NAME (parent));
        }
      collect_unlabelled (child, found, seen);
    }
}

/* Issue 21, view 14: every icon-only button of every view has a tooltip
 * (GTK gives it to assistive technologies as the button's description,
 * and the .ui files give each an accessible label; see
 * tests/ui/check-accessible-labels.py). */
static void
test_window_accessible (void)
{
  g_autofree char *user = NULL;
  g_autoptr(GString) found = g_string_new (NULL);
  static const char *views[] = { "overview", "tools", "log", "resources", "prompts", "tasks" };
  PlugboardServerPage *page;
  AdwViewStack *stack;
  Setup setup = { 0 };
  guint seen = 0;

  setup_init (&setup);
  user = g_strdup_printf ("{\"mcpServers\": {\"fixture\": {\"command\": \"%s\"},"
                          "\"off\": {\"command\": \"%s\", \"enabled\": false}}}",
                          test_fixture_server (), test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup);

  page = window_page (setup.window);
  g_assert_true (plugboard_window_show_server (setup.window, "fixture"));
  test_iterate_pending ();
  stack = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                         "view_stack"));
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      adw_view_stack_set_visible_child_name (stack, views[i]);
      test_iterate_pending ();
      collect_unlabelled (GTK_WIDGET (setup.window), found, &seen);
    }

  g_assert_true (plugboard_window_show_server (setup.window, "off"));
  test_iterate_pending ();
  collect_unlabelled (GTK_WIDGET (setup.window), found, &seen);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (setup.window), "win.show-tool",
                                             "s", "mcp__fixture__echo"));
  test_iterate_pending ();
  collect_unlabelled (GTK_WIDGET (setup.window), found, &seen);

  g_test_message ("%u icon-only buttons looked at", seen);
  /* the walk reaches them (the ⋮ menu, Roots…, edit, copy, back …) */
  g_assert_cmpuint (seen, >=, 10);
  if (found->len > 0)
    g_error ("icon-only buttons without a tooltip:\n%s", found->str);

  ui_test_project_clear (&setup);
}

static void
test_window_shortcuts (void)
{
  static const struct {
    const char *action;
    const char *accel;
  } expected[] = {
    { "win.add-server", "<Control>n" },
    { "win.open-project", "<Control>o" },
    { "win.search", "<Control>f" },
    { "win.reconnect-selected", "<Control>r" },
    { "app.preferences", "<Control>comma" },
    { "app.quit", "<Control>q" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), expected[i].action);

      g_assert_cmpuint (g_strv_length (accels), ==, 1);
      g_assert_cmpstr (accels[0], ==, expected[i].accel);
    }

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "preferences"));

  /* The shortcuts window lists Ctrl+Enter and Escape of a tool page
   * (issue 21: it omitted Ctrl+Enter). */
  {
    g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/plugboard/Plugboard/gtk/help-overlay.ui");
    GSList *objects = gtk_builder_get_objects (builder);
    gboolean run = FALSE;
    gboolean stop = FALSE;

    for (GSList *l = objects; l != NULL; l = l->next)
      {
        g_autofree char *title = NULL;
        g_autofree char *accelerator = NULL;

        if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
          continue;
        g_object_get (l->data, "title", &title, "accelerator", &accelerator, NULL);
        run |= g_strcmp0 (title, "Run the Tool") == 0 && g_strcmp0 (accelerator, "<Control>Return") == 0;
        stop |= g_strcmp0 (title, "Stop the Run") == 0 && g_strcmp0 (accelerator, "Escape") == 0;
      }
    g_slist_free (objects);
    g_assert_true (run);
    g_assert_true (stop);
    gtk_window_destroy (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_has_display ())
    return 0;

  /* Nothing of the person's settings is read or written. */
  test_root = ui_test_make_root ("test-window", UI_TEST_XDG_CONFIG);

  ui_test_init (&argc, &argv);

  app = ui_test_application_new ();

  g_test_add_func ("/ui/window/schema-defaults", test_window_schema_defaults);
  g_test_add_func ("/ui/window/activate-opens-one-window", test_window_activate_opens_one_window);
  g_test_add_func ("/ui/window/empty-state", test_window_empty_state);
  g_test_add_func ("/ui/window/primary-menu", test_window_primary_menu);
  g_test_add_func ("/ui/window/size-restore", test_window_size_restore);
  g_test_add_func ("/ui/window/shortcuts", test_window_shortcuts);
  g_test_add_func ("/ui/window/accessible", test_window_accessible);
  g_test_add_func ("/ui/window/server-rule", test_window_server_rule);
  g_test_add_func ("/ui/window/server-rows", test_window_server_rows);
  g_test_add_func ("/ui/window/filter", test_window_filter);
  g_test_add_func ("/ui/window/remove-with-mouse", test_window_remove_with_mouse);
  g_test_add_func ("/ui/window/permissions", test_window_permissions);
  g_test_add_func ("/ui/window/search-clear-keeps-selection", test_window_search_clear_keeps_selection);
  g_test_add_func ("/ui/window/empty-example", test_window_empty_example);
  g_test_add_func ("/ui/window/approval", test_window_approval);
  g_test_add_func ("/ui/window/settings-problem", test_window_settings_problem);
  g_test_add_func ("/ui/window/sign-in", test_window_sign_in);
  g_test_add_func ("/ui/window/sign-in-refused", test_window_sign_in_refused);
  g_test_add_func ("/ui/window/app-twenty-servers", test_window_app_twenty_servers);

  ret = ui_test_run_and_clean (&app, &test_root);

  return ret;
}
