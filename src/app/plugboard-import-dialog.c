/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-import-dialog"

#include "config.h"

#include "plugboard-import-dialog.h"
#include "plugboard-import-dialog-private.h"

#include <glib/gi18n.h>

#include "mcp-client-import.h"

G_DEFINE_FINAL_TYPE (PlugboardImportDialog, plugboard_import_dialog, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_PROJECT,
  PROP_HOME,
  N_PROPS
};

enum {
  IMPORTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
plugboard_import_dialog_update_actions (PlugboardImportDialog *self)
{
  gboolean any = FALSE;

  for (guint i = 0; i < self->checks->len && !any; i++)
    any = gtk_check_button_get_active (g_ptr_array_index (self->checks, i));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.import",
                                 self->scanned && any && !self->importing);
}

static void
plugboard_import_dialog_finish_waiters (PlugboardImportDialog *self)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->waiters);

  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < waiters->len; i++)
    {
      GTask *task = g_ptr_array_index (waiters, i);

      if (self->scan_error != NULL)
        g_task_return_error (task, g_error_copy (self->scan_error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
scan_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PlugboardImportDialog) self = user_data;
  g_autoptr(GPtrArray) candidates = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;

  candidates = mcp_client_import_scan_finish (result, &problems, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* The dialog is going away: nobody waits for a scan that won't be shown. */
      self->scan_error = g_steal_pointer (&error);
      plugboard_import_dialog_finish_waiters (self);
      return;
    }

  gtk_spinner_stop (self->spinner);
  self->scanned = TRUE;

  if (candidates == NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_status_page_set_icon_name (self->empty_page, "dialog-warning-symbolic");
      adw_status_page_set_title (self->empty_page, _("Could Not Look for Servers"));
      adw_status_page_set_description (self->empty_page, escaped);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      self->scan_error = g_steal_pointer (&error);
    }
  else
    {
      g_clear_pointer (&self->candidates, g_ptr_array_unref);
      self->candidates = g_steal_pointer (&candidates);

      if (self->candidates->len == 0 && (problems == NULL || problems->len == 0))
        plugboard_import_dialog_show_empty (self);
      else
        plugboard_import_dialog_show_results (self, problems);
    }

  plugboard_import_dialog_update_actions (self);
  plugboard_import_dialog_finish_waiters (self);
}

void
plugboard_import_dialog_wait_scanned_async (PlugboardImportDialog *self,
                                            GCancellable          *cancellable,
                                            GAsyncReadyCallback    callback,
                                            gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_import_dialog_wait_scanned_async);

  if (!self->scanned)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  if (self->scan_error != NULL)
    g_task_return_error (task, g_error_copy (self->scan_error));
  else
    g_task_return_boolean (task, TRUE);
}

gboolean
plugboard_import_dialog_wait_scanned_finish (PlugboardImportDialog *self,
                                             GAsyncResult          *result,
                                             GError               **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
plugboard_import_dialog_get_n_candidates (PlugboardImportDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self), 0);

  return self->candidates->len;
}

static void
plugboard_import_dialog_constructed (GObject *object)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  G_OBJECT_CLASS (plugboard_import_dialog_parent_class)->constructed (object);

  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (plugboard_import_dialog_recheck_names), self,
                           G_CONNECT_SWAPPED);

  gtk_stack_set_visible_child_name (self->stack, "scanning");
  gtk_spinner_start (self->spinner);
  plugboard_import_dialog_update_actions (self);

  mcp_client_import_scan_async (self->home,
                                mcp_settings_get_project_dir (self->settings),
                                self->cancellable,
                                scan_cb,
                                g_object_ref (self));
}

static void
plugboard_import_dialog_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      self->project = g_value_dup_object (value);
      self->settings = self->project != NULL ? mcp_project_get_settings (self->project) : NULL;
      break;

    case PROP_HOME:
      self->home = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_import_dialog_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_value_set_object (value, self->project);
      break;

    case PROP_HOME:
      g_value_set_string (value, self->home);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_import_dialog_dispose (GObject *object)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_IMPORT_DIALOG);

  g_ptr_array_set_size (self->checks, 0);
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->groups, 0);
  self->settings = NULL;
  g_clear_object (&self->project);

  G_OBJECT_CLASS (plugboard_import_dialog_parent_class)->dispose (object);
}

static void
plugboard_import_dialog_finalize (GObject *object)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  g_clear_pointer (&self->home, g_free);
  g_clear_pointer (&self->candidates, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_error (&self->scan_error);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_import_dialog_parent_class)->finalize (object);
}

static void
plugboard_import_dialog_class_init (PlugboardImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = plugboard_import_dialog_constructed;
  object_class->dispose = plugboard_import_dialog_dispose;
  object_class->finalize = plugboard_import_dialog_finalize;
  object_class->get_property = plugboard_import_dialog_get_property;
  object_class->set_property = plugboard_import_dialog_set_property;

  properties[PROP_PROJECT] =
    g_param_spec_object ("project", NULL, NULL,
                         MCP_TYPE_PROJECT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_HOME] =
    g_param_spec_string ("home", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[IMPORTED] =
    g_signal_new ("imported",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, results_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, empty_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, toast_overlay);

  gtk_widget_class_install_action (widget_class, "import.import", NULL, plugboard_import_dialog_import_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_import_dialog_init (PlugboardImportDialog *self)
{
  self->candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_import_candidate_free);
  self->checks = g_ptr_array_new ();
  self->rows = g_ptr_array_new ();
  self->groups = g_ptr_array_new ();
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardImportDialog *
plugboard_import_dialog_new (GtkWindow  *parent,
                             McpProject *project,
                             const char *home)
{
  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);

  return g_object_new (PLUGBOARD_TYPE_IMPORT_DIALOG,
                       "transient-for", parent,
                       "project", project,
                       "home", home,
                       NULL);
}
