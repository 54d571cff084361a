/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: the type, its template and construction, its size in
 * GSettings, toasts, and the installation of the win.* actions its parts
 * define. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "plugboard-server-row.h"

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

McpSettings *
plugboard_window_current_settings (PlugboardWindow *self)
{
  return self->project != NULL ? mcp_project_get_settings (self->project) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Toasts                                                                   */

void
plugboard_window_show_toast (PlugboardWindow *self,
                             const char      *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* The engine's messages may hold markup-like characters; a toast title is
 * markup. */
void
plugboard_window_show_error_toast (PlugboardWindow *self,
                                   const GError    *error)
{
  g_autofree char *escaped = g_markup_escape_text (error->message, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* A run the person left for another tool has ended: say so, with a way
 * back to it. */
static void
on_run_finished_cb (PlugboardWindow *self,
                    McpPoolTool     *tool,
                    gboolean         succeeded,
                    const char      *message)
{
  g_autofree char *name = g_markup_escape_text (mcp_pool_tool_get_display_name (tool), -1);
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (succeeded)
    /* Translators: %s is a tool's name */
    title = g_strdup_printf (_("“%s” finished"), name);
  else if (message != NULL)
    {
      g_autofree char *reason = g_markup_escape_text (message, -1);

      /* Translators: the first %s is a tool's name, the second why it failed */
      title = g_strdup_printf (_("“%s” failed: %s"), name, reason);
    }
  else
    /* Translators: %s is a tool's name */
    title = g_strdup_printf (_("“%s” returned an error"), name);

  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Show"));
  adw_toast_set_action_name (toast, "win.show-tool");
  adw_toast_set_action_target_value (toast, g_variant_new_string (mcp_pool_tool_get_qualified_name (tool)));
  if (!succeeded)
    adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* A message for the person, from a widget that has no place to say it
 * (a refused link). */
static void
toast_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  g_autoptr(GError) said = g_error_new_literal (MCP_ERROR, MCP_ERROR_FAILED,
                                                g_variant_get_string (parameter, NULL));

  plugboard_window_show_error_toast (user_data, said);
}

static const GActionEntry win_actions[] = {
  { "toast", toast_action, "s" },
};

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* A button of the server page that names a "win." action with a string
 * parameter but has no target yet (no server shown) would make GTK warn
 * about the parameter type as the actions are added; give those an empty
 * name until a server shows. */
static void
give_empty_targets (GtkWidget          *widget,
                    const GActionEntry *entries,
                    guint               n_entries)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *action = GTK_IS_ACTIONABLE (child) ?
        gtk_actionable_get_action_name (GTK_ACTIONABLE (child)) : NULL;

      if (action != NULL && g_str_has_prefix (action, "win.") &&
          gtk_actionable_get_action_target_value (GTK_ACTIONABLE (child)) == NULL)
        {
          for (guint i = 0; i < n_entries; i++)
            if (g_strcmp0 (entries[i].name, action + 4) == 0 &&
                g_strcmp0 (entries[i].parameter_type, "s") == 0)
              gtk_actionable_set_action_target_value (GTK_ACTIONABLE (child),
                                                      g_variant_new_string (""));
        }

      give_empty_targets (child, entries, n_entries);
    }
}

void
plugboard_window_add_actions (PlugboardWindow    *self,
                              const GActionEntry *entries,
                              guint               n_entries)
{
  give_empty_targets (GTK_WIDGET (self->server_page), entries, n_entries);
  give_empty_targets (GTK_WIDGET (self->tool_page), entries, n_entries);
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, n_entries, self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

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

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->sign_ins != NULL)
    plugboard_window_cancel_sign_ins (self);
  plugboard_window_disconnect_project (self);
  plugboard_window_clients_dispose (self);
  g_clear_object (&self->interaction);
  if (self->tool_page != NULL)
    plugboard_tool_page_set_tool (self->tool_page, NULL);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  g_clear_handle_id (&self->reselect_id, g_source_remove);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->server_list != NULL)
    gtk_list_view_set_model (self->server_list, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_WINDOW);

  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->project);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_window_parent_class)->dispose (object);
}

static void
plugboard_window_finalize (GObject *object)
{
  PlugboardWindow *self = PLUGBOARD_WINDOW (object);

  g_clear_pointer (&self->sign_ins, g_hash_table_unref);
  g_clear_pointer (&self->sign_in_errors, g_hash_table_unref);
  g_clear_pointer (&self->sign_in_urls, g_hash_table_unref);
  g_clear_pointer (&self->removed, g_hash_table_unref);
  g_clear_pointer (&self->selected_name, g_free);
  g_clear_pointer (&self->last_notification, g_free);
  g_clear_pointer (&self->search_text, g_free);

  G_OBJECT_CLASS (plugboard_window_parent_class)->finalize (object);
}

static void
plugboard_window_class_init (PlugboardWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = plugboard_window_dispose;
  object_class->finalize = plugboard_window_finalize;

  window_class->close_request = plugboard_window_close_request;

  g_type_ensure (PLUGBOARD_TYPE_SERVER_PAGE);
  g_type_ensure (PLUGBOARD_TYPE_SERVER_ROW);
  g_type_ensure (PLUGBOARD_TYPE_TOOL_LIST);
  g_type_ensure (PLUGBOARD_TYPE_TOOL_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, project_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, client_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, client_popover);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, client_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, sidebar_view_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, all_tool_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, tool_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, approval_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, approval_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, problem_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, problem_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, server_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, content_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, example_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, server_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, shadowed_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, shadowed_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, project_popover);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, recent_title);

  plugboard_window_class_list_init (widget_class);
  plugboard_window_class_content_init (widget_class);
  plugboard_window_class_project_init (widget_class);
  plugboard_window_class_clients_init (widget_class);
}

static void
plugboard_window_init (PlugboardWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();

  g_signal_connect_object (self->tool_page, "run-finished",
                           G_CALLBACK (on_run_finished_cb), self, G_CONNECT_SWAPPED);
  plugboard_window_add_actions (self, win_actions, G_N_ELEMENTS (win_actions));
  plugboard_window_actions_init (self);
  plugboard_window_editor_init (self);
  plugboard_window_sign_in_init (self);
  plugboard_window_approvals_init (self);
  plugboard_window_permissions_init (self);
  plugboard_window_list_init (self);

  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>Return|<Control>KP_Enter"),
                                                            gtk_named_action_new ("win.run-tool")));
    gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  }

  plugboard_window_project_init (self);
  plugboard_window_clients_init (self);

  self->settings = plugboard_window_create_settings ();
  plugboard_window_restore_state (self);

  plugboard_window_content_init (self);
}

PlugboardWindow *
plugboard_window_new (GtkApplication *application,
                      McpProject     *project)
{
  PlugboardWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (!project || MCP_IS_PROJECT (project), NULL);

  self = g_object_new (PLUGBOARD_TYPE_WINDOW,
                       "application", application,
                       NULL);
  plugboard_window_set_project (self, project);

  return self;
}
