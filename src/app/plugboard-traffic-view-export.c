/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-traffic-view"

/* PlugboardTrafficView's Clear and Export: the rows shown (what the
 * filters let through) as JSON Lines, or their HTTP exchanges as HAR,
 * written through GFile replace so a failed write leaves the old file. */

#include "config.h"

#include "plugboard-traffic-view-private.h"

#include <glib/gi18n.h>
#include <string.h>

void
plugboard_traffic_view_toast (PlugboardTrafficView *self,
                              const char           *title)
{
  /* The template's child (not bound: AdwBin disposes it itself). */
  AdwToastOverlay *overlay = ADW_TOAST_OVERLAY (adw_bin_get_child (ADW_BIN (self)));

  adw_toast_overlay_add_toast (overlay, adw_toast_new (title));
}

static GBytes *
export_bytes (PlugboardTrafficView   *self,
              PlugboardTrafficExport  format)
{
  GListModel *rows = plugboard_traffic_view_get_rows (self);
  guint n = g_list_model_get_n_items (rows);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_object_unref);
  GString *text;

  /* A request's row holds its response: both go. */
  for (guint i = 0; i < n; i++)
    {
      McpTraceEntry *entry = g_list_model_get_item (rows, i);
      McpTraceEntry *response = plugboard_traffic_view_dup_response (self, entry);

      g_ptr_array_add (entries, entry);
      if (response != NULL)
        g_ptr_array_add (entries, response);
    }

  if (format == PLUGBOARD_TRAFFIC_EXPORT_HAR)
    {
      char *har = mcp_trace_entries_to_har (entries);

      return g_bytes_new_take (har, strlen (har));
    }

  text = g_string_new (NULL);
  for (guint i = 0; i < entries->len; i++)
    {
      mcp_trace_entry_append_json (g_ptr_array_index (entries, i), self->server_name, text);
      g_string_append_c (text, '\n');
    }
  return g_string_free_to_bytes (text);
}

gboolean
plugboard_traffic_view_export (PlugboardTrafficView    *self,
                               GFile                   *file,
                               PlugboardTrafficExport   format,
                               GError                 **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  bytes = export_bytes (self, format);
  return g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                  NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

static void
replaced_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PlugboardTrafficView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  if (g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      plugboard_traffic_view_toast (self, _("Traffic exported"));
      return;
    }

  {
    g_autofree char *where = g_file_get_parse_name (G_FILE (object));

    /* Translators: the first %s is a file, the second why it could not be written */
    title = g_strdup_printf (_("Could not export to %s: %s"), where, error->message);
  }
  plugboard_traffic_view_toast (self, title);
}

static void
chooser_response_cb (GtkNativeDialog      *dialog,
                     int                   response,
                     PlugboardTrafficView *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  PlugboardTrafficExport format;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  format = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "plugboard-export-format"));
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (dialog))
    g_clear_object (&self->chooser);
  if (file == NULL)
    return;

  bytes = export_bytes (self, format);
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       NULL, replaced_cb, g_object_ref (self));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PlugboardTrafficView *self = PLUGBOARD_TRAFFIC_VIEW (widget);
  PlugboardTrafficExport format = PLUGBOARD_TRAFFIC_EXPORT_JSONL;
  g_autofree char *name = NULL;
  GtkRoot *root = gtk_widget_get_root (widget);

  if (parameter != NULL && g_str_equal (g_variant_get_string (parameter, NULL), "har"))
    format = PLUGBOARD_TRAFFIC_EXPORT_HAR;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (_("Export Traffic"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  name = g_strdup_printf ("%s-traffic.%s", self->server_name != NULL ? self->server_name : "server",
                          format == PLUGBOARD_TRAFFIC_EXPORT_HAR ? "har" : "jsonl");
  /* A server's name may hold a slash: not in a file's name. */
  g_strdelimit (name, "/\\", '_');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_object_set_data (G_OBJECT (self->chooser), "plugboard-export-format", GUINT_TO_POINTER (format));
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  PlugboardTrafficView *self = PLUGBOARD_TRAFFIC_VIEW (widget);

  if (self->trace != NULL)
    mcp_trace_clear (self->trace);
}

void
plugboard_traffic_view_class_init_export (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "traffic.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "traffic.clear", NULL, clear_action);
}
