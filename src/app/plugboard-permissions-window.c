/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-permissions-window"

/* PlugboardPermissionsWindow: the object, the scopes' groups, writing a
 * rule, and Add a Rule. The rule rows are in
 * plugboard-permissions-window-rows.c. */

#include "config.h"

#include "plugboard-permissions-window-private.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

G_DEFINE_FINAL_TYPE (PlugboardPermissionsWindow, plugboard_permissions_window, ADW_TYPE_WINDOW)

gboolean
plugboard_permissions_window_has_project (PlugboardPermissionsWindow *self)
{
  return mcp_project_get_project_dir (self->project) != NULL;
}

static void
show_message (PlugboardPermissionsWindow *self,
              const char                 *message,
              gboolean                    is_error)
{
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message_label), "error");
}

/* Writing */

typedef struct
{
  PlugboardPermissionsWindow *self;
  char                       *done;   /* said when it worked, or NULL */
} WriteData;

static void
on_rule_written_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  WriteData *data = user_data;
  PlugboardPermissionsWindow *self = data->self;
  g_autoptr(GError) error = NULL;

  self->writing--;
  if (!mcp_project_set_tool_rule_finish (MCP_PROJECT (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, error->message, TRUE);
    }
  else if (data->done != NULL)
    {
      show_message (self, data->done, FALSE);
    }

  g_object_unref (data->self);
  g_free (data->done);
  g_free (data);
}

void
plugboard_permissions_window_write_rule (PlugboardPermissionsWindow *self,
                                         const char                 *rule,
                                         McpConfigScope              scope,
                                         McpRuleList                 list,
                                         const char                 *done)
{
  WriteData *data = g_new0 (WriteData, 1);

  data->self = g_object_ref (self);
  data->done = g_strdup (done);
  self->writing++;
  mcp_project_set_rule_async (self->project, rule, scope, list, self->cancellable,
                              on_rule_written_cb, data);
}

static void
update_groups (PlugboardPermissionsWindow *self)
{
  McpSettings *settings = mcp_project_get_settings (self->project);
  g_autofree char *user_file = plugboard_dup_display_path (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_USER));
  g_autofree char *user_text = NULL;

  /* Translators: %s is a settings file */
  user_text = g_strdup_printf (_("In %s, for every project"), user_file);
  adw_preferences_group_set_description (self->user_group, user_text);
  gtk_string_list_append (self->scope_list, _("Your Settings"));

  gtk_widget_set_visible (GTK_WIDGET (self->local_group), plugboard_permissions_window_has_project (self));
  if (plugboard_permissions_window_has_project (self))
    {
      g_autofree char *dir = plugboard_dup_display_path (mcp_project_get_project_dir (self->project));
      g_autofree char *local_text = NULL;

      /* Translators: %s is the project folder; the rules are in the person's own settings file */
      local_text = g_strdup_printf (_("For %s only, kept in your settings (local scope)"), dir);
      adw_preferences_group_set_description (self->local_group, local_text);
      gtk_string_list_append (self->scope_list, _("This Project"));
    }
}

/* Adding */

static void
update_add_button (PlugboardPermissionsWindow *self)
{
  g_autofree char *rule = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->rule_row))));

  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button), *rule != '\0');
}

static void
on_rule_changed_cb (PlugboardPermissionsWindow *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->rule_row), "error");
  update_add_button (self);
}

static void
on_add_clicked_cb (PlugboardPermissionsWindow *self)
{
  plugboard_permissions_window_add (self);
}

static void
on_settings_changed_cb (PlugboardPermissionsWindow *self)
{
  plugboard_permissions_window_update_rows (self);
}

/* GObject */

static void
plugboard_permissions_window_dispose (GObject *object)
{
  PlugboardPermissionsWindow *self = PLUGBOARD_PERMISSIONS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_PERMISSIONS_WINDOW);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_object (&self->project);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_permissions_window_parent_class)->dispose (object);
}

static void
plugboard_permissions_window_class_init (PlugboardPermissionsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_permissions_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-permissions-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, rule_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, list_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, scope_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, scope_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, add_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, user_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, local_group);
  gtk_widget_class_bind_template_callback (widget_class, on_rule_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_add_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_permissions_window_init (PlugboardPermissionsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->rows = g_ptr_array_new ();
}

PlugboardPermissionsWindow *
plugboard_permissions_window_new (GtkWindow  *parent,
                                  McpProject *project)
{
  PlugboardPermissionsWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);

  self = g_object_new (PLUGBOARD_TYPE_PERMISSIONS_WINDOW,
                       "transient-for", parent,
                       NULL);
  self->project = g_object_ref (project);
  g_signal_connect_object (mcp_project_get_settings (project), "changed",
                           G_CALLBACK (on_settings_changed_cb), self, G_CONNECT_SWAPPED);

  update_groups (self);
  /* a project's rules go to the project by default, as the tool page's */
  adw_combo_row_set_selected (self->scope_row, plugboard_permissions_window_has_project (self) ? 1 : 0);
  plugboard_permissions_window_update_rows (self);
  update_add_button (self);

  return self;
}

void
plugboard_permissions_window_add (PlugboardPermissionsWindow *self)
{
  g_autofree char *rule = NULL;
  g_autofree char *done = NULL;
  g_autoptr(GError) error = NULL;
  guint list = adw_combo_row_get_selected (self->list_row);
  guint scope = adw_combo_row_get_selected (self->scope_row);

  g_return_if_fail (PLUGBOARD_IS_PERMISSIONS_WINDOW (self));

  rule = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->rule_row))));
  if (*rule == '\0' || list >= G_N_ELEMENTS (lists) || scope >= G_N_ELEMENTS (scopes))
    return;

  /* said at once, before any write */
  if (!mcp_permissions_check_rule (rule, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->rule_row), "error");
      show_message (self, error->message, TRUE);
      return;
    }

  /* Translators: %s is a permission rule */
  done = g_strdup_printf (_("Added the rule “%s”"), rule);
  plugboard_permissions_window_write_rule (self, rule, scopes[scope], lists[list], done);
  gtk_editable_set_text (GTK_EDITABLE (self->rule_row), "");
}

const char *
plugboard_permissions_window_get_message (PlugboardPermissionsWindow *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_PERMISSIONS_WINDOW (self), NULL);

  return gtk_label_get_text (self->message_label);
}
