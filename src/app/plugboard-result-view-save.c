/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"

#include "plugboard-common.h"
#include "plugboard-result-view-private.h"

/* PlugboardResultView's Save As: a block's file, text or data, or the
 * whole result, to a file the person chooses. */

typedef struct
{
  PlugboardResultView *self;
  GBytes              *bytes;
  char                *source;
  char                *target;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->self);
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_free (data->source);
  g_free (data->target);
  g_free (data);
}

static void
saved (SaveData *data,
       gboolean  ok,
       GError   *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *title = NULL;

      if (ok)
        title = g_strdup (_("Saved"));
      else
        title = g_strdup_printf (_("Could not save: %s"), error->message);
      plugboard_result_view_toast (data->self, title);
    }
  save_data_free (data);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  saved (user_data, ok, error);
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = plugboard_write_file_finish (result, &error);

  saved (user_data, ok, error);
}

static void
copied_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  /* g_file_copy_finish() is called on the source */
  gboolean ok = g_file_copy_finish (G_FILE (object), result, &error);

  saved (user_data, ok, error);
}

/* A file copied through a checked temporary file and a rename, as
 * plugboard_write_file_async() writes bytes. */
static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  mapped = g_mapped_file_new (data->source, FALSE, &error);
  if (mapped == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  bytes = g_mapped_file_get_bytes (mapped);

  if (!mcp_config_file_replace (data->target, bytes, 0644, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  SaveData *data = user_data;
  PlugboardResultView *self = data->self;
  g_autoptr(GFile) target = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    target = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (dialog))
    g_clear_object (&self->chooser);

  if (target == NULL)
    {
      save_data_free (data);
      return;
    }

  if (data->bytes != NULL)
    {
      plugboard_write_file_async (target, data->bytes, self->cancellable, written_cb, data);
      return;
    }

  data->target = g_file_get_path (target);
  if (data->target == NULL)
    {
      /* not a local file (a remote folder through GVfs): GIO copies it */
      g_autoptr(GFile) source = g_file_new_for_path (data->source);

      g_file_copy_async (source, target, G_FILE_COPY_OVERWRITE, G_PRIORITY_DEFAULT,
                         self->cancellable, NULL, NULL, copied_cb, data);
      return;
    }

  {
    g_autoptr(GTask) task = g_task_new (NULL, self->cancellable, saved_cb, data);

    g_task_set_source_tag (task, save_thread);
    g_task_set_task_data (task, data, NULL);
    g_task_run_in_thread (task, save_thread);
  }
}

void
plugboard_result_view_save_as (PlugboardResultView *self,
                               const char          *suggested_name,
                               GBytes              *bytes,
                               const char          *source)
{
  SaveData *data = g_new0 (SaveData, 1);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  data->self = g_object_ref (self);
  data->bytes = bytes != NULL ? g_bytes_ref (bytes) : NULL;
  data->source = g_strdup (source);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (_("Save As"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (suggested_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested_name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

char *
plugboard_result_view_dup_suggested_name (PlugboardResultView *self,
                                          const char          *extension)
{
  const char *tool = self->tool != NULL ? mcp_tool_get_name (mcp_pool_tool_get_tool (self->tool)) : "result";

  return g_strdup_printf ("%s-result.%s", tool, extension);
}

static void
save_block (PlugboardResultView  *self,
            PlugboardResultBlock *block)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = NULL;

  if (block->file != NULL && g_file_test (block->file, G_FILE_TEST_EXISTS))
    {
      g_autofree char *basename = g_path_get_basename (block->file);

      plugboard_result_view_save_as (self, basename, NULL, block->file);
      return;
    }

  if (block->text != NULL)
    {
      bytes = g_bytes_new (block->text, strlen (block->text));
      name = plugboard_result_view_dup_suggested_name (self, block->json != NULL ? "json" : "txt");
    }
  else if (block->content != NULL)
    {
      g_autoptr(GError) error = NULL;

      bytes = mcp_content_get_data (block->content, &error);
      if (bytes == NULL)
        {
          g_autofree char *title = g_strdup_printf (_("Could not save: %s"),
                                                    error != NULL ? error->message : _("no data"));
          plugboard_result_view_toast (self, title);
          return;
        }
      name = plugboard_result_view_dup_suggested_name (self, "bin");
    }
  else
    return;

  plugboard_result_view_save_as (self, name, bytes, NULL);
}

static void
on_save_clicked_cb (GtkButton            *button,
                    PlugboardResultBlock *block)
{
  PlugboardResultView *self =
    PLUGBOARD_RESULT_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (button), PLUGBOARD_TYPE_RESULT_VIEW));

  if (self != NULL)
    save_block (self, block);
}

GtkWidget *
plugboard_result_view_save_button_new (PlugboardResultBlock *block,
                                       const char           *label,
                                       const char           *tooltip)
{
  GtkWidget *button = plugboard_result_view_button_new (label, tooltip);

  g_signal_connect_object (button, "clicked", G_CALLBACK (on_save_clicked_cb), block, 0);
  return button;
}
