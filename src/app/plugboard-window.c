/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

#include "config.h"

#include "plugboard-window.h"

#include <glib/gi18n.h>

struct _PlugboardWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwHeaderBar         *header_bar;
  GtkMenuButton        *primary_menu_button;
  AdwStatusPage        *empty_page;

  /* Owned references */
  GSettings            *settings;
};

G_DEFINE_FINAL_TYPE (PlugboardWindow, plugboard_window, ADW_TYPE_APPLICATION_WINDOW)

/* The schema is missing when the program runs from the build tree without
 * GSETTINGS_SCHEMA_DIR; the window then keeps its size for this run only
 * instead of aborting in g_settings_new(). */
static GSettings *
plugboard_window_create_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);

  if (schema == NULL)
    {
      g_debug ("GSettings schema %s is not installed; the window size will not be saved",
               APPLICATION_ID);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

static void
plugboard_window_restore_state (PlugboardWindow *self)
{
  int width;
  int height;

  g_assert (PLUGBOARD_IS_WINDOW (self));

  if (self->settings == NULL)
    return;

  width = g_settings_get_int (self->settings, "window-width");
  height = g_settings_get_int (self->settings, "window-height");
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);

  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
plugboard_window_save_state (PlugboardWindow *self)
{
  gboolean maximized;
  int width;
  int height;

  g_assert (PLUGBOARD_IS_WINDOW (self));

  if (self->settings == NULL)
    return;

  maximized = gtk_window_is_maximized (GTK_WINDOW (self));

  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", maximized);

  /* The default size follows the window while it is not maximized, so a
   * maximized window keeps the size it will return to. */
  if (!maximized)
    {
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
    }

  g_settings_apply (self->settings);
}

static gboolean
plugboard_window_close_request (GtkWindow *window)
{
  PlugboardWindow *self = PLUGBOARD_WINDOW (window);

  plugboard_window_save_state (self);

  return GTK_WINDOW_CLASS (plugboard_window_parent_class)->close_request (window);
}

static void
plugboard_window_dispose (GObject *object)
{
  PlugboardWindow *self = PLUGBOARD_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_WINDOW);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (plugboard_window_parent_class)->dispose (object);
}

static void
plugboard_window_class_init (PlugboardWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = plugboard_window_dispose;

  window_class->close_request = plugboard_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, empty_page);
}

static void
plugboard_window_init (PlugboardWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = plugboard_window_create_settings ();
  plugboard_window_restore_state (self);
}

PlugboardWindow *
plugboard_window_new (GtkApplication   *application,
                      PlugboardProject *project)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (!project || PLUGBOARD_IS_PROJECT (project), NULL);

  return g_object_new (PLUGBOARD_TYPE_WINDOW,
                       "application", application,
                       NULL);
}
