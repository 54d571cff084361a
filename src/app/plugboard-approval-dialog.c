/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-approval-dialog"

/* PlugboardApprovalDialog: the object, following the settings, and
 * applying the decisions (each written in turn by the project, then
 * ::decided). Its
 * rows are in plugboard-approval-dialog-rows.c. */

#include "config.h"

#include "plugboard-approval-dialog-private.h"

#include <glib/gi18n.h>

G_DEFINE_FINAL_TYPE (PlugboardApprovalDialog, plugboard_approval_dialog, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_PROJECT,
  N_PROPS
};

enum {
  DECIDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
on_settings_changed_cb (PlugboardApprovalDialog *self)
{
  /* Our own writes reload the settings; the dialog closes after them. */
  if (self->applying)
    return;

  plugboard_approval_dialog_rebuild (self);
}

/* ------------------------------------------------------------------------ */
/* Apply                                                                    */

typedef struct
{
  GPtrArray *names;     /* char* */
  GArray    *approved;  /* gboolean */
  guint      next;
} ApplyData;

static void
apply_data_free (ApplyData *data)
{
  g_clear_pointer (&data->names, g_ptr_array_unref);
  g_clear_pointer (&data->approved, g_array_unref);
  g_free (data);
}

static void apply_next (GTask *task);

static void
set_approval_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_run_finish (MCP_PROJECT (object), result, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  apply_next (g_steal_pointer (&task));
}

static void
apply_next (GTask *task)
{
  PlugboardApprovalDialog *self = g_task_get_source_object (task);
  ApplyData *data = g_task_get_task_data (task);
  guint i;

  if (data->next >= data->names->len)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  i = data->next++;
  mcp_project_run_async (self->project,
                         g_array_index (data->approved, gboolean, i) ? MCP_PROJECT_OP_APPROVE
                                                                     : MCP_PROJECT_OP_REJECT,
                         g_ptr_array_index (data->names, i),
                         g_task_get_cancellable (task),
                         set_approval_cb,
                         task);
}

static void
apply_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);
  GTask *outer = user_data;
  g_autoptr(GError) error = NULL;

  self->applying = FALSE;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Some decisions may have been written before the failure. */
          plugboard_approval_dialog_rebuild (self);
        }
      g_task_return_error (outer, g_steal_pointer (&error));
      g_object_unref (outer);
      return;
    }

  g_signal_emit (self, signals[DECIDED], 0);
  g_task_return_boolean (outer, TRUE);
  g_object_unref (outer);
  gtk_window_close (GTK_WINDOW (self));
}

void
plugboard_approval_dialog_apply_async (PlugboardApprovalDialog *self,
                                       GCancellable            *cancellable,
                                       GAsyncReadyCallback      callback,
                                       gpointer                 user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) task = NULL;
  ApplyData *data;

  g_return_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, plugboard_approval_dialog_apply_async);

  if (self->applying)
    {
      g_task_return_new_error (outer, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The decisions are already being saved"));
      return;
    }

  data = g_new0 (ApplyData, 1);
  data->names = g_ptr_array_new_with_free_func (g_free);
  data->approved = g_array_new (FALSE, FALSE, sizeof (gboolean));

  /* In the order the dialog lists them, which is the file's. */
  for (guint i = 0; i < self->rows->len; i++)
    {
      const char *name = g_object_get_data (g_ptr_array_index (self->rows, i), "server-name");
      Decision decision = GPOINTER_TO_INT (g_hash_table_lookup (self->decisions, name));
      gboolean approved = decision == DECISION_APPROVE;

      if (decision == DECISION_NONE)
        continue;

      g_ptr_array_add (data->names, g_strdup (name));
      g_array_append_val (data->approved, approved);
    }

  self->applying = TRUE;
  plugboard_approval_dialog_update_actions (self);

  task = g_task_new (self, cancellable != NULL ? cancellable : self->cancellable,
                     apply_done_cb, g_steal_pointer (&outer));
  g_task_set_source_tag (task, apply_next);
  g_task_set_task_data (task, data, (GDestroyNotify) apply_data_free);
  apply_next (g_steal_pointer (&task));
}

gboolean
plugboard_approval_dialog_apply_finish (PlugboardApprovalDialog *self,
                                        GAsyncResult            *result,
                                        GError                 **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
apply_from_button_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);
  g_autoptr(GError) error = NULL;

  if (!plugboard_approval_dialog_apply_finish (self, result, &error))
    {
      g_autofree char *escaped = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      escaped = g_markup_escape_text (error->message, -1);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
      plugboard_approval_dialog_update_actions (self);
    }
}

static void
apply_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  plugboard_approval_dialog_apply_async (PLUGBOARD_APPROVAL_DIALOG (widget), NULL,
                                         apply_from_button_cb, NULL);
}

/* ------------------------------------------------------------------------ */

static void
plugboard_approval_dialog_constructed (GObject *object)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  G_OBJECT_CLASS (plugboard_approval_dialog_parent_class)->constructed (object);

  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (on_settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  plugboard_approval_dialog_rebuild (self);
}

static void
plugboard_approval_dialog_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      self->project = g_value_dup_object (value);
      self->settings = self->project != NULL ? mcp_project_get_settings (self->project) : NULL;
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_approval_dialog_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_value_set_object (value, self->project);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_approval_dialog_dispose (GObject *object)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  g_cancellable_cancel (self->cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_APPROVAL_DIALOG);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  self->settings = NULL;
  g_clear_object (&self->project);

  G_OBJECT_CLASS (plugboard_approval_dialog_parent_class)->dispose (object);
}

static void
plugboard_approval_dialog_finalize (GObject *object)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  g_clear_pointer (&self->commands, g_hash_table_unref);
  g_clear_pointer (&self->decisions, g_hash_table_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_approval_dialog_parent_class)->finalize (object);
}

static void
plugboard_approval_dialog_class_init (PlugboardApprovalDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = plugboard_approval_dialog_constructed;
  object_class->dispose = plugboard_approval_dialog_dispose;
  object_class->finalize = plugboard_approval_dialog_finalize;
  object_class->get_property = plugboard_approval_dialog_get_property;
  object_class->set_property = plugboard_approval_dialog_set_property;

  properties[PROP_PROJECT] =
    g_param_spec_object ("project", NULL, NULL,
                         MCP_TYPE_PROJECT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[DECIDED] =
    g_signal_new ("decided",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-approval-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, apply_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, later_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, servers_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, toast_overlay);

  gtk_widget_class_install_action (widget_class, "approval.apply", NULL, apply_action);

  /* Escape decides later, as the button does. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_approval_dialog_init (PlugboardApprovalDialog *self)
{
  self->rows = g_ptr_array_new ();
  self->commands = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->decisions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardApprovalDialog *
plugboard_approval_dialog_new (GtkWindow  *parent,
                               McpProject *project)
{
  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);

  return g_object_new (PLUGBOARD_TYPE_APPROVAL_DIALOG,
                       "transient-for", parent,
                       "project", project,
                       NULL);
}

void
plugboard_approval_dialog_set_decision (PlugboardApprovalDialog *self,
                                        const char              *name,
                                        gboolean                 approve)
{
  g_return_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self));
  g_return_if_fail (name != NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      GObject *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (g_object_get_data (row, "server-name"), name) == 0)
        {
          GtkToggleButton *button = g_object_get_data (row, approve ? "approve-button" : "reject-button");

          gtk_toggle_button_set_active (button, TRUE);
          return;
        }
    }

  g_debug ("No server %s is pending approval", name);
}

char *
plugboard_approval_dialog_dup_shown_command (PlugboardApprovalDialog *self,
                                             const char              *name)
{
  g_return_val_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_strdup (g_hash_table_lookup (self->commands, name));
}
