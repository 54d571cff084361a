/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-application"

#include "config.h"

#include "plugboard-application.h"

#include <glib/gi18n.h>

#include "plugboard-preferences-window.h"
#include "plugboard-window.h"

struct _PlugboardApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardApplication, plugboard_application, ADW_TYPE_APPLICATION)

static void
plugboard_application_about_action (GSimpleAction *action,
                                    GVariant      *parameter,
                                    gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  static const char *developers[] = { "The Plugboard developers", NULL };
  GtkWindow *parent;
  AdwAboutWindow *about;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  adw_about_window_set_application_name (about, _("Plugboard"));
  adw_about_window_set_application_icon (about, APPLICATION_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about,
                                 _("Connect to Model Context Protocol servers, "
                                   "see their state and tools, and run any tool by hand."));
  adw_about_window_set_developer_name (about, _("The Plugboard developers"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_copyright (about, _("© 2025 The Plugboard developers"));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_website (about, "https://github.com/plugboard/plugboard");
  adw_about_window_set_issue_url (about, "https://github.com/plugboard/plugboard/issues");
  /* Translators: Replace "translator-credits" with your name, one per line. */
  adw_about_window_set_translator_credits (about, _("translator-credits"));

  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (about), parent);
      gtk_window_set_modal (GTK_WINDOW (about), TRUE);
    }

  gtk_window_present (GTK_WINDOW (about));
}

static void
plugboard_application_quit_action (GSimpleAction *action,
                                   GVariant      *parameter,
                                   gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  g_autoptr(GList) windows = NULL;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  /* Close rather than destroy, so each window saves its state. */
  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));

  g_application_quit (G_APPLICATION (self));
}

static GSettings *
plugboard_application_dup_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    return NULL;

  return g_settings_new_full (schema, NULL, NULL);
}

static PlugboardWindow *plugboard_application_get_window (PlugboardApplication *self);

static void
plugboard_application_preferences_action (GSimpleAction *action,
                                          GVariant      *parameter,
                                          gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  g_autoptr(GSettings) settings = plugboard_application_dup_settings ();
  g_autoptr(McpLimits) limits = NULL;
  PlugboardPreferencesWindow *preferences;
  PlugboardWindow *window;
  McpProject *project;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  if (settings == NULL)
    {
      g_message ("GSettings schema %s is not installed; no preferences to show", APPLICATION_ID);
      return;
    }

  window = plugboard_application_get_window (self);
  project = window != NULL ? plugboard_window_get_project (window) : NULL;
  /* The project's limits are what the engine uses; without a project, the
   * environment's. */
  limits = project != NULL ? g_object_ref (mcp_project_get_limits (project)) : mcp_limits_new (NULL);
  preferences = plugboard_preferences_window_new (gtk_application_get_active_window (GTK_APPLICATION (self)),
                                                  settings, limits);
  gtk_window_present (GTK_WINDOW (preferences));
}

static PlugboardWindow *
plugboard_application_get_window (PlugboardApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (PLUGBOARD_IS_WINDOW (window))
    return PLUGBOARD_WINDOW (window);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (PLUGBOARD_IS_WINDOW (l->data))
      return l->data;

  return NULL;
}

/* No folder asked for: the last project, if its folder is still there;
 * else the home folder (the user scope only). */
static McpProject *
plugboard_application_new_default_project (void)
{
  g_autoptr(GSettings) settings = plugboard_application_dup_settings ();
  g_autofree char *last = NULL;
  g_autofree char *client = NULL;
  McpClientKind kind = MCP_CLIENT_KIND_PLUGBOARD;

  if (settings != NULL)
    {
      last = g_settings_get_string (settings, "last-project");
      client = g_settings_get_string (settings, "client");
    }

  /* A client forgotten since (or a setting from a newer version):
   * Plugboard's own. */
  if (client == NULL || !mcp_client_kind_from_id (client, &kind))
    kind = MCP_CLIENT_KIND_PLUGBOARD;

  if (last != NULL && last[0] != '\0' && g_path_is_absolute (last) &&
      g_file_test (last, G_FILE_TEST_IS_DIR))
    return mcp_project_new_for_client (kind, last, NULL);

  return mcp_project_new_for_client (kind, NULL, NULL);
}

static PlugboardWindow *
plugboard_application_new_window (PlugboardApplication *self,
                                  McpProject     *project)
{
  PlugboardWindow *window = plugboard_window_new (GTK_APPLICATION (self), project);

#if DEVELOPMENT
  /* The striped header bar: a development build is told apart at a glance. */
  gtk_widget_add_css_class (GTK_WIDGET (window), "devel");
#endif

  return window;
}

/* The window, made with the last project when there is none yet. */
static PlugboardWindow *
plugboard_application_ensure_window (PlugboardApplication *self)
{
  PlugboardWindow *window = plugboard_application_get_window (self);

  if (window == NULL)
    {
      g_autoptr(McpProject) project = plugboard_application_new_default_project ();

      window = plugboard_application_new_window (self, project);
    }

  return window;
}

static void
plugboard_application_activate (GApplication *app)
{
  PlugboardWindow *window;

  g_assert (PLUGBOARD_IS_APPLICATION (app));

  window = plugboard_application_ensure_window (PLUGBOARD_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
}

/* Shows the project in @path (a folder) in the window, making the window if
 * there is none; the project already shown is kept rather than reloaded. */
static gboolean
plugboard_application_open_folder (PlugboardApplication *self,
                                   const char           *path)
{
  PlugboardWindow *window;
  g_autoptr(McpProject) project = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return FALSE;

  window = plugboard_application_get_window (self);
  if (window == NULL)
    {
      project = mcp_project_new (path, NULL);
      window = plugboard_application_new_window (self, project);
    }
  else
    {
      McpProject *current = plugboard_window_get_project (window);

      if (current == NULL || g_strcmp0 (mcp_project_get_project_dir (current), path) != 0)
        {
          /* the client shown stays */
          project = mcp_project_new_for_client (current != NULL ? mcp_project_get_client (current)
                                                                : MCP_CLIENT_KIND_PLUGBOARD,
                                                path, NULL);
          plugboard_window_set_project (window, project);
        }
    }

  gtk_window_present (GTK_WINDOW (window));
  return TRUE;
}

/* app.open-project ("s": a folder), e.g. from
 * `gapplication action org.plugboard.Plugboard app.open-project "'/path'"`.
 * A relative path is taken from the running instance's folder, which is
 * rarely what the caller meant: only absolute ones are opened. */
static void
plugboard_application_open_project_action (GSimpleAction *action,
                                           GVariant      *parameter,
                                           gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  const char *path = g_variant_get_string (parameter, NULL);
  g_autofree char *canonical = NULL;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  if (!g_path_is_absolute (path))
    {
      g_printerr (_("%s is not an absolute path; not opening it\n"), path);
      return;
    }

  canonical = g_canonicalize_filename (path, NULL);
  if (!plugboard_application_open_folder (self, canonical))
    g_printerr (_("%s is not a folder; not opening it\n"), canonical);
}

typedef struct
{
  GWeakRef  window;
  char     *name;
} PendingShow;

static void
pending_show_free (gpointer data,
                   GClosure *closure)
{
  PendingShow *pending = data;

  g_weak_ref_clear (&pending->window);
  g_free (pending->name);
  g_free (pending);
}

static void
plugboard_application_show_server_in (PlugboardWindow *window,
                                      const char      *name)
{
  if (!plugboard_window_show_server (window, name))
    g_printerr (_("There is no server “%s” in this project\n"), name);
}

static void
on_project_loaded_cb (McpProject *project,
                      GParamSpec       *pspec,
                      gpointer          user_data)
{
  PendingShow *pending = user_data;
  g_autoptr(PlugboardWindow) window = NULL;

  if (!mcp_project_get_loaded (project))
    return;

  window = g_weak_ref_get (&pending->window);
  /* Only while the window still shows that project. */
  if (window != NULL && plugboard_window_get_project (window) == project)
    plugboard_application_show_server_in (window, pending->name);

  g_signal_handlers_disconnect_by_func (project, on_project_loaded_cb, pending);
}

/* app.show-server ("s": a server name of the project in the window). The
 * action may come before the project has read its settings (the app was
 * just started by D-Bus activation): then the server is shown once it has. */
static void
plugboard_application_show_server_action (GSimpleAction *action,
                                          GVariant      *parameter,
                                          gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  PlugboardWindow *window;
  McpProject *project;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  window = plugboard_application_ensure_window (self);
  gtk_window_present (GTK_WINDOW (window));

  project = plugboard_window_get_project (window);
  if (project != NULL && !mcp_project_get_loaded (project))
    {
      PendingShow *pending = g_new0 (PendingShow, 1);

      g_weak_ref_init (&pending->window, window);
      pending->name = g_strdup (name);
      g_signal_connect_data (project, "notify::loaded",
                             G_CALLBACK (on_project_loaded_cb),
                             pending, pending_show_free, 0);
      return;
    }

  plugboard_application_show_server_in (window, name);
}

/* app.show-changes ("s"): the server's Changes (a notification's
 * action); before the project has loaded, its page. */
static void
plugboard_application_show_changes_action (GSimpleAction *action,
                                           GVariant      *parameter,
                                           gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  PlugboardWindow *window;
  McpProject *project;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  window = plugboard_application_ensure_window (self);
  project = plugboard_window_get_project (window);
  if (project == NULL || !mcp_project_get_loaded (project) ||
      !plugboard_window_show_changes (window, g_variant_get_string (parameter, NULL)))
    {
      plugboard_application_show_server_action (action, parameter, user_data);
      return;
    }
  gtk_window_present (GTK_WINDOW (window));
}

/* app.reconnect-all: the window's win.reconnect-all (every enabled server
 * of its project). */
static void
plugboard_application_reconnect_all_action (GSimpleAction *action,
                                            GVariant      *parameter,
                                            gpointer       user_data)
{
  PlugboardApplication *self = user_data;
  PlugboardWindow *window;

  g_assert (PLUGBOARD_IS_APPLICATION (self));

  window = plugboard_application_get_window (self);
  if (window == NULL)
    {
      /* A new window connects every server anyway. */
      plugboard_application_activate (G_APPLICATION (self));
      return;
    }

  g_action_group_activate_action (G_ACTION_GROUP (window), "reconnect-all", NULL);
}

static const GActionEntry app_actions[] = {
  { "about", plugboard_application_about_action },
  { "preferences", plugboard_application_preferences_action },
  { "quit", plugboard_application_quit_action },
  { "open-project", plugboard_application_open_project_action, "s" },
  { "show-server", plugboard_application_show_server_action, "s" },
  { "show-changes", plugboard_application_show_changes_action, "s" },
  { "reconnect-all", plugboard_application_reconnect_all_action },
};

/* plugboard FOLDER, or a folder handed to the running instance: open it in
 * the window (only the first one: one project at a time). */
static void
plugboard_application_open (GApplication  *app,
                            GFile        **files,
                            int            n_files,
                            const char    *hint)
{
  const char *path;

  g_assert (PLUGBOARD_IS_APPLICATION (app));

  if (n_files < 1 || (path = g_file_peek_path (files[0])) == NULL)
    {
      plugboard_application_activate (app);
      return;
    }

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_printerr (_("%s is not a folder; opening the last project instead\n"), path);
      plugboard_application_activate (app);
      return;
    }

  plugboard_application_open_folder (PLUGBOARD_APPLICATION (app), path);
}

static void
plugboard_application_startup (GApplication *app)
{
  static const struct {
    const char *action;
    const char *accels[2];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
    { "win.add-server", { "<Control>n", NULL } },
    { "win.open-project", { "<Control>o", NULL } },
    { "win.search", { "<Control>f", NULL } },
    { "win.reconnect-selected", { "<Control>r", NULL } },
  };

  G_APPLICATION_CLASS (plugboard_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app),
                                   app_actions,
                                   G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

static void
plugboard_application_class_init (PlugboardApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = plugboard_application_activate;
  app_class->open = plugboard_application_open;
  app_class->startup = plugboard_application_startup;
}

static void
plugboard_application_init (PlugboardApplication *self)
{
}

PlugboardApplication *
plugboard_application_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       /* The same resources for the .Devel id. */
                       "resource-base-path", "/org/plugboard/Plugboard",
                       NULL);
}
