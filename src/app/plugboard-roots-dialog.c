/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-roots-dialog"

#include "config.h"

#include "plugboard-roots-dialog.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

struct _PlugboardRootsDialog
{
  AdwWindow             parent_instance;

  /* Template widgets */
  AdwWindowTitle       *window_title;
  AdwPreferencesGroup  *roots_group;
  GtkListBox           *roots_list;
  GtkRevealer          *error_revealer;
  GtkLabel             *error_label;

  /* Owned references */
  McpRoots             *roots;
  char                 *server_name;
  McpConfigScope        scope;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (PlugboardRootsDialog, plugboard_roots_dialog, ADW_TYPE_WINDOW)

static void
show_error (PlugboardRootsDialog *self,
            const GError         *error)
{
  gtk_label_set_text (self->error_label, error->message);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
}

static void
hide_error (PlugboardRootsDialog *self)
{
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
}

static GtkWidget *
root_row_new (const char *path,
              gboolean    removable)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *escaped_name = g_markup_escape_text (name, -1);
  g_autofree char *escaped_path = g_markup_escape_text (path, -1);
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_path);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name ("folder-symbolic"));

  if (removable)
    {
      GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *label = NULL;

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "roots.remove");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (path));
      gtk_widget_set_tooltip_text (button, _("Stop offering this folder"));
      /* Translators: %s is a folder's path */
      label = g_strdup_printf (_("Remove %s"), path);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                      -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
    }
  else
    {
      GtkWidget *tag = gtk_label_new (_("Project Folder"));

      gtk_widget_set_valign (tag, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (tag, "plugboard-tag");
      gtk_widget_set_tooltip_text (tag, _("The open project's folder is always offered"));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), tag);
    }

  return row;
}

static void
plugboard_roots_dialog_rebuild (PlugboardRootsDialog *self)
{
  g_auto(GStrv) added = NULL;
  const char *project_dir;
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->roots_list))) != NULL)
    gtk_list_box_remove (self->roots_list, child);

  if (self->roots == NULL)
    return;

  project_dir = mcp_roots_offers_project_dir (self->scope) ? mcp_roots_get_project_dir (self->roots) : NULL;
  if (project_dir != NULL)
    {
      gtk_list_box_append (self->roots_list, root_row_new (project_dir, FALSE));
      n++;
    }

  added = mcp_roots_dup_added (self->roots, self->server_name);
  for (guint i = 0; added != NULL && added[i] != NULL; i++)
    {
      /* Shown once, as the project folder, when added too. */
      if (g_strcmp0 (added[i], project_dir) == 0)
        continue;
      gtk_list_box_append (self->roots_list, root_row_new (added[i], TRUE));
      n++;
    }

  if (n == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No folders are offered"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("The server gets an empty list, and works where its own settings say "
                                     "(such as the folders in its command), until you add a folder"));
      gtk_widget_add_css_class (row, "dim-label");
      gtk_list_box_append (self->roots_list, row);
    }
}

static void
on_roots_changed_cb (PlugboardRootsDialog *self,
                     const char           *server)
{
  if (g_strcmp0 (server, self->server_name) == 0)
    plugboard_roots_dialog_rebuild (self);
}

static void
on_chooser_response_cb (PlugboardRootsDialog *self,
                        int                   response,
                        GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);

  if (file == NULL)
    return;

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: %s is a location such as sftp://host/dir */
                   _("“%s” is not a local folder; only local folders can be offered to a server"),
                   uri);
      show_error (self, error);
      return;
    }

  if (!mcp_roots_add (self->roots, self->server_name, path, &error))
    {
      show_error (self, error);
      return;
    }

  hide_error (self);
}

static void
add_action_cb (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PlugboardRootsDialog *self = PLUGBOARD_ROOTS_DIALOG (widget);
  const char *project_dir;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser = gtk_file_chooser_native_new (_("Add Folder"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Add"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);

  project_dir = self->roots != NULL ? mcp_roots_get_project_dir (self->roots) : NULL;
  if (project_dir != NULL)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (project_dir);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }

  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (on_chooser_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
remove_action_cb (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PlugboardRootsDialog *self = PLUGBOARD_ROOTS_DIALOG (widget);
  g_autoptr(GError) error = NULL;

  if (!mcp_roots_remove (self->roots, self->server_name,
                         g_variant_get_string (parameter, NULL), &error))
    {
      show_error (self, error);
      return;
    }

  hide_error (self);
}

static void
dismiss_error_action_cb (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  hide_error (PLUGBOARD_ROOTS_DIALOG (widget));
}

static void
plugboard_roots_dialog_dispose (GObject *object)
{
  PlugboardRootsDialog *self = PLUGBOARD_ROOTS_DIALOG (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->roots != NULL)
    g_signal_handlers_disconnect_by_data (self->roots, self);
  g_clear_object (&self->roots);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_ROOTS_DIALOG);

  G_OBJECT_CLASS (plugboard_roots_dialog_parent_class)->dispose (object);
}

static void
plugboard_roots_dialog_finalize (GObject *object)
{
  PlugboardRootsDialog *self = PLUGBOARD_ROOTS_DIALOG (object);

  g_free (self->server_name);

  G_OBJECT_CLASS (plugboard_roots_dialog_parent_class)->finalize (object);
}

static void
plugboard_roots_dialog_class_init (PlugboardRootsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_roots_dialog_dispose;
  object_class->finalize = plugboard_roots_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-roots-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardRootsDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardRootsDialog, roots_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardRootsDialog, roots_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardRootsDialog, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardRootsDialog, error_label);

  gtk_widget_class_install_action (widget_class, "roots.add", NULL, add_action_cb);
  gtk_widget_class_install_action (widget_class, "roots.remove", "s", remove_action_cb);
  gtk_widget_class_install_action (widget_class, "roots.dismiss-error", NULL, dismiss_error_action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_roots_dialog_init (PlugboardRootsDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));
}

PlugboardRootsDialog *
plugboard_roots_dialog_new (GtkWindow      *parent,
                            McpRoots       *roots,
                            const char     *server_name,
                            McpConfigScope  scope)
{
  PlugboardRootsDialog *self;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_ROOTS (roots), NULL);
  g_return_val_if_fail (server_name != NULL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_ROOTS_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->roots = g_object_ref (roots);
  self->server_name = g_strdup (server_name);
  self->scope = scope;

  adw_window_title_set_subtitle (self->window_title, server_name);
  /* Translators: the roots dialog's window title; %s is a server's name */
  title = g_strdup_printf (_("Roots of “%s”"), server_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  description = g_strdup_printf (_("The folders “%s” is told it may work in when it asks (roots/list). "
                                   "A change is saved and sent to it at once."),
                                 server_name);
  adw_preferences_group_set_description (self->roots_group, description);

  g_signal_connect_object (roots, "changed", G_CALLBACK (on_roots_changed_cb), self,
                           G_CONNECT_SWAPPED);
  plugboard_roots_dialog_rebuild (self);

  return self;
}
