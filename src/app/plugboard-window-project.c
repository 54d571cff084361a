/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: the project shown — switching to another, loading it,
 * the window as its interaction — and the project selector: recent
 * projects (GSettings "recent-projects"), Open Folder…, Home Folder. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "plugboard-interaction.h"

#define MAX_RECENT_PROJECTS 10

static char *
project_display_name (McpProject *project)
{
  const char *dir = project != NULL ? mcp_project_get_project_dir (project) : NULL;

  if (dir == NULL)
    return g_strdup (_("Home Folder"));

  return g_path_get_basename (dir);
}

static void
on_settings_changed_cb (PlugboardWindow *self)
{
  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
  plugboard_window_rescan_clients (self);
}

static void
remember_project (PlugboardWindow *self,
                  const char      *dir)
{
  g_auto(GStrv) recent = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) updated = NULL;
  guint n = 1;

  if (self->settings == NULL)
    return;

  g_settings_set_string (self->settings, "last-project", dir ? dir : "");
  if (dir == NULL)
    return;

  recent = g_settings_get_strv (self->settings, "recent-projects");
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, dir);
  for (guint i = 0; recent[i] != NULL && n < MAX_RECENT_PROJECTS; i++)
    {
      if (g_strcmp0 (recent[i], dir) == 0)
        continue;
      g_strv_builder_add (builder, recent[i]);
      n++;
    }
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-projects", (const char * const *) updated);
}

static void
on_project_loaded_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_load_finish (MCP_PROJECT (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      plugboard_window_show_error_toast (self, error);
    }

  if (MCP_PROJECT (object) != self->project)
    return;

  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

static void
update_project_actions (PlugboardWindow *self)
{
  static const char * const actions[] = {
    "add-server", "import-servers", "add-example-server", "reconnect-server",
    "enable-server", "disable-server", "edit-server", "duplicate-server",
    "move-server", "remove-server", "sign-in", "cancel-sign-in", "sign-out",
    "approve-server", "reject-server", "show-server", "reconnect-all",
    "reconnect-selected", "undo-remove",
  };
  gboolean has_project = self->project != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), actions[i]);

      if (action != NULL)
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), has_project);
    }
}

/* The project asks the person through this window's dialogs. */
static void
register_request_handlers (PlugboardWindow *self,
                           McpProject      *project,
                           gboolean         on)
{
  if (!on)
    {
      if (mcp_project_get_interaction (project) == self->interaction)
        mcp_project_set_interaction (project, NULL);
      return;
    }

  if (self->interaction == NULL)
    self->interaction = plugboard_interaction_new (GTK_WINDOW (self));
  mcp_project_set_interaction (project, self->interaction);
}

void
plugboard_window_disconnect_project (PlugboardWindow *self)
{
  if (self->project == NULL)
    return;

  g_signal_handlers_disconnect_by_data (mcp_project_get_settings (self->project), self);
  g_signal_handlers_disconnect_by_data (self->project, self);
  register_request_handlers (self, self->project, FALSE);
}

void
plugboard_window_set_project (PlugboardWindow *self,
                              McpProject      *project)
{
  g_autofree char *label = NULL;

  g_return_if_fail (PLUGBOARD_IS_WINDOW (self));
  g_return_if_fail (!project || MCP_IS_PROJECT (project));

  if (self->project == project)
    return;

  plugboard_window_disconnect_project (self);

  /* The tool shown belongs to the old project. */
  plugboard_window_hide_tool (self);
  plugboard_tool_page_set_tool (self->tool_page, NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  plugboard_window_cancel_sign_ins (self);
  g_hash_table_remove_all (self->removed);
  g_clear_pointer (&self->selected_name, g_free);
  self->approval_asked = FALSE;

  plugboard_server_page_set_connection (self->server_page, NULL);
  g_set_object (&self->project, project);
  gtk_filter_list_model_set_model (self->filter_model,
                                   project ? mcp_project_get_servers (project) : NULL);
  plugboard_tool_list_set_tools (self->all_tool_list,
                                 project ? G_LIST_MODEL (mcp_project_get_tool_pool (project)) : NULL);
  if (project != NULL)
    plugboard_window_update_permissions (self);
  else
    plugboard_server_page_set_tool_pool (self->server_page, NULL, NULL);

  label = project_display_name (project);
  plugboard_window_set_button_label (self->project_button, label);
  if (project != NULL && mcp_project_get_project_dir (project) != NULL)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->project_button),
                                 mcp_project_get_project_dir (project));
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->project_button), _("Switch Project"));
  gtk_window_set_title (GTK_WINDOW (self), _("Plugboard"));

  update_project_actions (self);
  plugboard_window_update_client (self);

  if (project != NULL)
    {
      g_signal_connect_object (mcp_project_get_settings (project), "changed",
                               G_CALLBACK (on_settings_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (project, "notify::permissions",
                               G_CALLBACK (plugboard_window_update_permissions), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (project, "tool-changed-since-allowed",
                               G_CALLBACK (plugboard_window_tool_changed_cb), self,
                               G_CONNECT_SWAPPED);
      /* Before the project connects its servers: capabilities are declared
       * when a connection starts. */
      register_request_handlers (self, project, TRUE);
      remember_project (self, mcp_project_get_project_dir (project));

      if (!mcp_project_get_loaded (project))
        mcp_project_load_async (project, self->cancellable, on_project_loaded_cb,
                                g_object_ref (self));
    }

  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

McpProject *
plugboard_window_get_project (PlugboardWindow *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_WINDOW (self), NULL);

  return self->project;
}

/* ------------------------------------------------------------------------ */
/* Project selector                                                         */

static void
open_folder (PlugboardWindow *self,
             const char      *dir)
{
  g_autoptr(McpProject) project = NULL;

  if (self->project != NULL &&
      g_strcmp0 (mcp_project_get_project_dir (self->project), dir) == 0)
    return;

  project = plugboard_window_new_project (self, plugboard_window_get_client (self), dir);
  plugboard_window_set_project (self, project);
}

static void
on_project_popover_show_cb (PlugboardWindow *self)
{
  g_auto(GStrv) recent = NULL;
  GtkWidget *child;
  guint shown = 0;
  const char *current = self->project ? mcp_project_get_project_dir (self->project) : NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  if (self->settings != NULL)
    recent = g_settings_get_strv (self->settings, "recent-projects");

  for (guint i = 0; recent != NULL && recent[i] != NULL; i++)
    {
      g_autofree char *basename = NULL;
      g_autofree char *escaped_path = NULL;
      GtkWidget *row;

      if (!g_file_test (recent[i], G_FILE_TEST_IS_DIR))
        continue;

      basename = g_path_get_basename (recent[i]);
      escaped_path = g_markup_escape_text (recent[i], -1);
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), basename);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_path);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "folder", g_strdup (recent[i]), g_free);
      if (g_strcmp0 (current, recent[i]) == 0)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                   gtk_image_new_from_icon_name ("object-select-symbolic"));
      gtk_list_box_append (self->recent_list, row);
      shown++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), shown > 0);
  gtk_widget_set_visible (self->recent_title, shown > 0);
}

static void
on_recent_row_activated_cb (PlugboardWindow *self,
                            GtkListBoxRow   *row)
{
  const char *folder = g_object_get_data (G_OBJECT (row), "folder");

  gtk_popover_popdown (self->project_popover);
  if (folder != NULL)
    open_folder (self, folder);
}

static void
on_chooser_response_cb (PlugboardWindow      *self,
                        int                   response,
                        GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL && g_file_peek_path (file) != NULL)
        open_folder (self, g_file_peek_path (file));
    }

  g_clear_object (&self->chooser);
}

static void
open_project_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  gtk_popover_popdown (self->project_popover);
  self->chooser = gtk_file_chooser_native_new (_("Open Project Folder"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Open"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
open_recent_project_action (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *folder = g_variant_get_string (parameter, NULL);

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *title = g_strdup_printf (_("The folder “%s” does not exist any more"), folder);

      plugboard_window_show_toast (self, title);
      return;
    }

  open_folder (self, folder);
}

static void
open_home_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  gtk_popover_popdown (self->project_popover);
  if (self->project != NULL && mcp_project_get_project_dir (self->project) == NULL)
    return;

  open_folder (self, NULL);
}

static const GActionEntry project_actions[] = {
  { "open-project", open_project_action },
  { "open-recent-project", open_recent_project_action, "s" },
  { "open-home", open_home_action },
};

void
plugboard_window_class_project_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_project_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_row_activated_cb);
}

void
plugboard_window_project_init (PlugboardWindow *self)
{
  plugboard_window_add_actions (self, project_actions, G_N_ELEMENTS (project_actions));

  plugboard_window_set_button_label (self->project_button, _("Home Folder"));
  update_project_actions (self);
}
