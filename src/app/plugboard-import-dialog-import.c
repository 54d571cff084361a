/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-import-dialog"

#include "config.h"

#include "plugboard-import-dialog-private.h"

#include <glib/gi18n.h>

#include "mcp-client-import.h"

/* Adding the checked servers, one after the other, each in its
 * candidate's scope. */

typedef struct
{
  GPtrArray *candidates;  /* McpImportCandidate, borrowed from the dialog */
  guint      next;
  guint      added;
} ImportData;

static void
import_data_free (ImportData *data)
{
  g_clear_pointer (&data->candidates, g_ptr_array_unref);
  g_free (data);
}

static void import_next (GTask *task);

static void
add_server_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PlugboardImportDialog *self = g_task_get_source_object (task);
  ImportData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_project_add_server_finish (MCP_PROJECT (object), result, &error))
    {
      self->importing = FALSE;
      plugboard_import_dialog_update_actions (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data->added++;
  import_next (g_steal_pointer (&task));
}

static void
import_next (GTask *task)
{
  PlugboardImportDialog *self = g_task_get_source_object (task);
  ImportData *data = g_task_get_task_data (task);
  McpImportCandidate *candidate;

  if (data->next >= data->candidates->len)
    {
      self->importing = FALSE;
      g_signal_emit_by_name (self, "imported", data->added);
      g_task_return_int (task, data->added);
      g_object_unref (task);
      gtk_window_close (GTK_WINDOW (self));
      return;
    }

  candidate = g_ptr_array_index (data->candidates, data->next++);
  mcp_project_add_server_async (self->project,
                                candidate->name,
                                candidate->scope,
                                candidate->entry,
                                g_task_get_cancellable (task),
                                add_server_cb,
                                task);
}

void
plugboard_import_dialog_import_async (PlugboardImportDialog *self,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  ImportData *data;

  g_return_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable != NULL ? cancellable : self->cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_import_dialog_import_async);

  if (!self->scanned || self->importing)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The import dialog is still busy"));
      return;
    }

  data = g_new0 (ImportData, 1);
  data->candidates = g_ptr_array_new ();
  for (guint i = 0; i < self->checks->len; i++)
    {
      if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i)))
        g_ptr_array_add (data->candidates, g_ptr_array_index (self->candidates, i));
    }
  g_task_set_task_data (task, data, (GDestroyNotify) import_data_free);

  self->importing = TRUE;
  plugboard_import_dialog_update_actions (self);
  import_next (g_steal_pointer (&task));
}

guint
plugboard_import_dialog_import_finish (PlugboardImportDialog *self,
                                       GAsyncResult          *result,
                                       GError               **error)
{
  gssize added;

  g_return_val_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self), 0);
  g_return_val_if_fail (g_task_is_valid (result, self), 0);

  added = g_task_propagate_int (G_TASK (result), error);

  return added > 0 ? (guint) added : 0;
}

static void
import_from_button_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);
  g_autoptr(GError) error = NULL;

  plugboard_import_dialog_import_finish (self, result, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);
      AdwToast *toast = adw_toast_new (escaped);

      adw_toast_set_timeout (toast, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
}

void
plugboard_import_dialog_import_action (GtkWidget  *widget,
                                       const char *action_name,
                                       GVariant   *parameter)
{
  plugboard_import_dialog_import_async (PLUGBOARD_IMPORT_DIALOG (widget), NULL,
                                        import_from_button_cb, NULL);
}
