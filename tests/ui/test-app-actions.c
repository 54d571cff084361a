/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-actions"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "plugboard-application.h"
#include "plugboard-server-page.h"
#include "plugboard-window.h"
#include "ui-test-common.h"

/* The application's actions for `gapplication action` (issue 9 point 1):
 * app.open-project, app.show-server and app.reconnect-all, activated
 * through the GActionGroup API as D-Bus would, on real projects whose
 * servers are the stdio fixture server. tests/install drives the installed
 * app over D-Bus with gapplication itself. */

static PlugboardApplication *app;
static char *test_root;
static char *project_one;
static char *project_two;

static PlugboardWindow *
the_window (void)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  g_assert_cmpuint (g_list_length (windows), ==, 1);
  g_assert_true (PLUGBOARD_IS_WINDOW (windows->data));

  return windows->data;
}

static const char *
shown_project_dir (void)
{
  return mcp_project_get_project_dir (plugboard_window_get_project (the_window ()));
}

static void
activate (const char *action,
          GVariant   *parameter)
{
  g_action_group_activate_action (G_ACTION_GROUP (app), action, parameter);
  test_iterate_pending ();
}

static McpServerConnection *
lookup (const char *name)
{
  McpProject *project = plugboard_window_get_project (the_window ());

  return mcp_server_manager_lookup (mcp_project_get_manager (project), name);
}

/* The connection on the window's server page. */
static McpServerConnection *
shown_connection (void)
{
  GObject *page = gtk_widget_get_template_child (GTK_WIDGET (the_window ()),
                                                 PLUGBOARD_TYPE_WINDOW, "server_page");

  g_assert_true (PLUGBOARD_IS_SERVER_PAGE (page));
  return plugboard_server_page_get_connection (PLUGBOARD_SERVER_PAGE (page));
}

static void
test_app_actions_exported (void)
{
  static const struct {
    const char *name;
    const char *parameter_type;
  } actions[] = {
    { "open-project", "s" },
    { "show-server", "s" },
    { "reconnect-all", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      const GVariantType *type;

      g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), actions[i].name));
      g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (app), actions[i].name));
      type = g_action_group_get_action_parameter_type (G_ACTION_GROUP (app), actions[i].name);
      if (actions[i].parameter_type == NULL)
        g_assert_null (type);
      else
        g_assert_cmpstr (g_variant_type_peek_string (type), ==, actions[i].parameter_type);
    }
}

static void
test_app_actions_open_project (void)
{
  g_autofree char *missing = g_build_filename (project_one, "missing", NULL);
  g_autofree char *dotted = g_build_filename (project_two, ".", NULL);
  McpProject *project;

  /* No window yet: the action makes one, with that project. */
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
  activate ("open-project", g_variant_new_string (project_one));
  g_assert_cmpstr (shown_project_dir (), ==, project_one);
  /* A development build's window is striped. */
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (the_window ()), "devel") == DEVELOPMENT);

  /* The same window shows the next project (canonical path). */
  activate ("open-project", g_variant_new_string (dotted));
  g_assert_cmpstr (shown_project_dir (), ==, project_two);

  /* The project already shown is kept, not reloaded. */
  project = plugboard_window_get_project (the_window ());
  activate ("open-project", g_variant_new_string (project_two));
  g_assert_true (plugboard_window_get_project (the_window ()) == project);

  /* Not a folder, or relative: nothing changes. */
  activate ("open-project", g_variant_new_string (missing));
  g_assert_cmpstr (shown_project_dir (), ==, project_two);
  activate ("open-project", g_variant_new_string ("project-one"));
  g_assert_cmpstr (shown_project_dir (), ==, project_two);
}

static void
test_app_actions_show_server (void)
{
  McpProject *project;

  /* Asked before the project has read its settings (as right after D-Bus
   * activation): the server is shown once it has. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-project",
                                  g_variant_new_string (project_one));
  project = plugboard_window_get_project (the_window ());
  g_assert_cmpstr (mcp_project_get_project_dir (project), ==, project_one);
  g_assert_false (mcp_project_get_loaded (project));
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-server",
                                  g_variant_new_string ("beta"));
  test_iterate_until (project_loaded, project, "the project to load");
  test_iterate_pending ();
  g_assert_nonnull (lookup ("beta"));
  g_assert_true (shown_connection () == lookup ("beta"));

  /* Loaded: shown at once. */
  activate ("show-server", g_variant_new_string ("alpha"));
  g_assert_true (shown_connection () == lookup ("alpha"));

  /* A name the project does not have changes nothing. */
  activate ("show-server", g_variant_new_string ("nothing"));
  g_assert_true (shown_connection () == lookup ("alpha"));
}

typedef struct
{
  McpServerConnection *connection;
  gboolean             left_connected;
} Reconnect;

static void
on_state_cb (McpServerConnection *connection,
             GParamSpec          *pspec,
             gpointer             user_data)
{
  Reconnect *reconnect = user_data;

  if (mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_CONNECTED)
    reconnect->left_connected = TRUE;
}

static gboolean
reconnected (gpointer data)
{
  Reconnect *reconnects = data;

  for (guint i = 0; i < 2; i++)
    if (!reconnects[i].left_connected ||
        mcp_server_connection_get_state (reconnects[i].connection) != MCP_SERVER_STATE_CONNECTED)
      return FALSE;

  return TRUE;
}

static gboolean
all_connected (gpointer data)
{
  return mcp_server_connection_get_state (lookup ("alpha")) == MCP_SERVER_STATE_CONNECTED &&
         mcp_server_connection_get_state (lookup ("beta")) == MCP_SERVER_STATE_CONNECTED;
}

static void
test_app_actions_reconnect_all (void)
{
  Reconnect reconnects[2] = { { lookup ("alpha"), FALSE }, { lookup ("beta"), FALSE } };

  g_assert_nonnull (reconnects[0].connection);
  g_assert_nonnull (reconnects[1].connection);
  test_iterate_until (all_connected, NULL, "both servers to connect");

  for (guint i = 0; i < 2; i++)
    g_signal_connect (reconnects[i].connection, "notify::state", G_CALLBACK (on_state_cb), &reconnects[i]);

  /* Every server goes through a new connection and is connected again. */
  activate ("reconnect-all", NULL);
  test_iterate_until (reconnected, reconnects, "both servers to reconnect");

  for (guint i = 0; i < 2; i++)
    g_signal_handlers_disconnect_by_func (reconnects[i].connection, on_state_cb, &reconnects[i]);

  /* Nothing else moved: the same project and server are shown. */
  g_assert_cmpstr (shown_project_dir (), ==, project_one);
  g_assert_true (shown_connection () == lookup ("alpha"));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *settings = NULL;
  g_autofree char *settings_file = NULL;
  const char *fixture;
  int ret;

  if (!ui_test_has_display ())
    return 0;

  fixture = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  g_assert_nonnull (fixture);

  /* Nothing of the person's settings is read or written. */
  test_root = ui_test_make_root ("test-app-actions", UI_TEST_XDG_CONFIG);
  settings_file = g_build_filename (test_root, "xdg-config", "plugboard", "settings.json", NULL);
  /* Two servers in the user scope: every project has them. */
  settings = g_strdup_printf ("{\"mcpServers\": {"
                              "\"alpha\": {\"command\": \"%s\"},"
                              "\"beta\": {\"command\": \"%s\"}}}",
                              fixture, fixture);
  test_write_file (settings_file, settings);
  project_one = g_build_filename (test_root, "project-one", NULL);
  project_two = g_build_filename (test_root, "project-two", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project_one, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (project_two, 0700), ==, 0);

  ui_test_init (&argc, &argv);

  app = ui_test_application_new ();

  g_test_add_func ("/ui/app-actions/exported", test_app_actions_exported);
  g_test_add_func ("/ui/app-actions/open-project", test_app_actions_open_project);
  g_test_add_func ("/ui/app-actions/show-server", test_app_actions_show_server);
  g_test_add_func ("/ui/app-actions/reconnect-all", test_app_actions_reconnect_all);

  ret = g_test_run ();

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL;
       l = gtk_application_get_windows (GTK_APPLICATION (app)))
    gtk_window_destroy (GTK_WINDOW (l->data));
  test_iterate_pending ();
  g_clear_pointer (&app, ui_test_application_free);

  test_remove_tree (test_root);
  g_free (test_root);
  g_free (project_one);
  g_free (project_two);

  return ret;
}
