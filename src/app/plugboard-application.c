/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-application"

#include "config.h"

#include "plugboard-application.h"

#include <glib/gi18n.h>

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

static const GActionEntry app_actions[] = {
  { "about", plugboard_application_about_action },
  { "quit", plugboard_application_quit_action },
};

static void
plugboard_application_activate (GApplication *app)
{
  GtkWindow *window;

  g_assert (PLUGBOARD_IS_APPLICATION (app));

  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (plugboard_window_new (GTK_APPLICATION (app), NULL));

  gtk_window_present (window);
}

static void
plugboard_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };

  G_APPLICATION_CLASS (plugboard_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app),
                                   app_actions,
                                   G_N_ELEMENTS (app_actions),
                                   app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
}

static void
plugboard_application_class_init (PlugboardApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = plugboard_application_activate;
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
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/org/plugboard/Plugboard",
                       NULL);
}
