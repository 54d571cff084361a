/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window"

#include "config.h"

#include <stdio.h>

#include "plugboard-application.h"
#include "plugboard-window.h"

static PlugboardApplication *app;

static void
iterate_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static GtkWidget *
get_child (PlugboardWindow *window,
           const char      *name)
{
  GObject *child;

  child = gtk_widget_get_template_child (GTK_WIDGET (window), PLUGBOARD_TYPE_WINDOW, name);
  g_assert_nonnull (child);
  g_assert_true (GTK_IS_WIDGET (child));

  return GTK_WIDGET (child);
}

static void
destroy_window (gpointer window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_main_context ();
}

static void
test_window_activate_opens_one_window (void)
{
  GList *windows;
  GtkWindow *window;

  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));

  g_application_activate (G_APPLICATION (app));
  iterate_main_context ();

  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 1);
  window = windows->data;
  g_assert_true (PLUGBOARD_IS_WINDOW (window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_cmpstr (gtk_window_get_title (window), ==, "Plugboard");

  /* A second activation presents the same window. */
  g_application_activate (G_APPLICATION (app));
  iterate_main_context ();
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
  iterate_main_context ();

  page = get_child (window, "empty_page");
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
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (item))
        return ADW_ABOUT_WINDOW (item);
    }

  return NULL;
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
  iterate_main_context ();

  button = get_child (window, "primary_menu_button");
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
  iterate_main_context ();
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
  iterate_main_context ();
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 480);
  g_settings_set_boolean (settings, "window-maximized", TRUE);
  gtk_window_close (GTK_WINDOW (window));
  iterate_main_context ();

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

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* gtk_test_init() aborts when there is no display; say why and skip. */
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      printf ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 0;
    }

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  app = plugboard_application_new ();
  /* Never hand the test's activation to a running Plugboard. */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  /* Keep the application alive between windows, as g_application_run would. */
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/ui/window/schema-defaults", test_window_schema_defaults);
  g_test_add_func ("/ui/window/activate-opens-one-window", test_window_activate_opens_one_window);
  g_test_add_func ("/ui/window/empty-state", test_window_empty_state);
  g_test_add_func ("/ui/window/primary-menu", test_window_primary_menu);
  g_test_add_func ("/ui/window/size-restore", test_window_size_restore);

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);

  return ret;
}
