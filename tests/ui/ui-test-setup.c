/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ui-test-setup"

#include "config.h"

#include "ui-test-setup.h"

#include <stdio.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "ui-test-common.h"

gboolean
ui_test_init_widgets (int    *argc,
                      char ***argv,
                      guint   hang_bound_s)
{
  g_test_init (argc, argv, NULL);
  test_set_hang_bound (hang_bound_s);

  if (!gtk_init_check ())
    {
      printf ("1..0 # SKIP no display\n");
      return FALSE;
    }
  adw_init ();
  return TRUE;
}

PlugboardApplication *
ui_test_start (int    *argc,
               char ***argv)
{
  ui_test_init (argc, argv);
  test_set_hang_bound (UI_TEST_HANG_BOUND_S);
  return ui_test_application_new ();
}

int
ui_test_run_and_clean (PlugboardApplication **app,
                       char                 **root)
{
  int ret = g_test_run ();

  g_clear_pointer (app, ui_test_application_free);
  test_remove_tree (*root);
  g_clear_pointer (root, g_free);
  return ret;
}

PlugboardWindow *
ui_test_window_open (PlugboardApplication *app,
                     McpProject           *project,
                     int                   width,
                     int                   height)
{
  PlugboardWindow *window = plugboard_window_new (GTK_APPLICATION (app), project);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_until (project_loaded, project, "the project to load");
  settle_project (project);
  test_iterate_pending ();
  return window;
}

void
ui_test_window_close (PlugboardWindow **window)
{
  close_other_toplevels ();
  test_iterate_pending ();
  if (*window != NULL)
    gtk_window_destroy (GTK_WINDOW (*window));
  *window = NULL;
  test_iterate_pending ();
}

PlugboardToolPage *
ui_test_open_tool (PlugboardWindow *window,
                   const char      *qualified_name)
{
  PlugboardToolPage *page = PLUGBOARD_TOOL_PAGE (template_child (window, PLUGBOARD_TYPE_WINDOW, "tool_page"));
  McpPoolTool *tool;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-tool",
                                             "s", qualified_name));
  test_iterate_pending ();
  tool = plugboard_tool_page_get_tool (page);
  g_assert_nonnull (tool);
  g_assert_cmpstr (mcp_pool_tool_get_qualified_name (tool), ==, qualified_name);
  return page;
}

McpServerManager *
ui_test_manager_new (McpTokenStore *store,
                     const char    *dir,
                     guint          connect_timeout_ms)
{
  g_autofree char *cache_path = g_build_filename (dir, "needs-auth.json", NULL);

  return g_object_new (MCP_TYPE_SERVER_MANAGER,
                       "token-store", store,
                       "needs-auth-cache-path", cache_path,
                       "connect-timeout", connect_timeout_ms,
                       NULL);
}

void
ui_test_setup_open (UiTestSetup          *setup,
                    PlugboardApplication *app,
                    const char           *name,
                    const char           *settings,
                    int                   width,
                    int                   height)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *template = g_strdup_printf ("plugboard-%s-XXXXXX", name);
  g_autofree char *user_file = NULL;
  g_autofree char *history_path = NULL;
  g_autoptr(McpServerManager) manager = NULL;

  setup->dir = g_dir_make_tmp (template, &error);
  g_assert_no_error (error);
  setup->user_dir = g_build_filename (setup->dir, "config", NULL);
  setup->project_dir = g_build_filename (setup->dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (setup->project_dir, 0700), ==, 0);

  user_file = g_build_filename (setup->user_dir, "settings.json", NULL);
  test_write_file (user_file, settings);

  manager = g_object_new (MCP_TYPE_SERVER_MANAGER, "connect-timeout", 20000, NULL);
  setup->project = mcp_project_new_with_manager (setup->project_dir, setup->user_dir, manager);
  history_path = g_build_filename (setup->dir, "data", "saved-arguments.json", NULL);
  setup->history = mcp_tool_history_new (history_path);
  mcp_project_set_history (setup->project, setup->history);

  setup->window = ui_test_window_open (app, setup->project, width, height);
}

void
ui_test_setup_clear (UiTestSetup *setup)
{
  ui_test_window_close (&setup->window);
  g_clear_object (&setup->project);
  g_clear_object (&setup->history);
  test_iterate_pending ();
  if (setup->dir != NULL)
    test_remove_tree (setup->dir);
  g_clear_pointer (&setup->dir, g_free);
  g_clear_pointer (&setup->user_dir, g_free);
  g_clear_pointer (&setup->project_dir, g_free);
}

void
ui_test_project_init (UiTestProject *setup,
                      const char    *root,
                      const char    *project_name)
{
  static guint counter;
  g_autofree char *base = g_strdup_printf ("setup-%u", ++counter);
  g_autofree char *store_path = NULL;

  setup->dir = g_build_filename (root, base, NULL);
  setup->user_dir = g_build_filename (setup->dir, "config", NULL);
  setup->project_dir = g_build_filename (setup->dir, project_name, NULL);
  setup->user_file = g_build_filename (setup->user_dir, "settings.json", NULL);
  setup->project_file = g_build_filename (setup->project_dir, ".mcp.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (setup->user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (setup->project_dir, 0700), ==, 0);
  store_path = g_build_filename (setup->dir, "credentials.json", NULL);
  setup->store = mcp_token_store_new ("file", store_path);
}

void
ui_test_project_open (UiTestProject        *setup,
                      PlugboardApplication *app,
                      int                   width,
                      int                   height)
{
  g_autoptr(McpServerManager) manager = ui_test_manager_new (setup->store, setup->dir, 10000);

  setup->project = mcp_project_new_with_manager (setup->project_dir, setup->user_dir, manager);
  setup->window = ui_test_window_open (app, setup->project, width, height);
}

void
ui_test_project_close (UiTestProject *setup)
{
  ui_test_window_close (&setup->window);
  g_clear_object (&setup->project);
  test_iterate_pending ();
}

void
ui_test_project_clear (UiTestProject *setup)
{
  ui_test_project_close (setup);
  g_clear_object (&setup->store);
  g_clear_pointer (&setup->dir, g_free);
  g_clear_pointer (&setup->user_dir, g_free);
  g_clear_pointer (&setup->project_dir, g_free);
  g_clear_pointer (&setup->user_file, g_free);
  g_clear_pointer (&setup->project_file, g_free);
}
