/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: adding and editing servers — the server editor (add,
 * edit, try without saving), importing from other apps, the example
 * server. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "plugboard-import-dialog.h"
#include "plugboard-server-editor.h"

/* A try that ended: tried again under another name. */
static void
discard_try (PlugboardWindow *self,
             const char      *tried,
             const char      *name)
{
  if (tried == NULL || g_strcmp0 (tried, name) == 0 || self->project == NULL ||
      mcp_project_lookup_unsaved (self->project, tried) == NULL)
    return;

  mcp_project_run_async (self->project, MCP_PROJECT_OP_REMOVE, tried, NULL, NULL, NULL);
}

static void
on_editor_saved_cb (PlugboardServerEditor *editor,
                    const char            *name,
                    int                    scope,
                    PlugboardWindow       *self)
{
  /* a try saved under another name was ended by the project */
  plugboard_window_show_server (self, name);
}

static gboolean
on_editor_try_cb (PlugboardServerEditor  *editor,
                  const char             *name,
                  JsonObject             *entry,
                  GError                **error,
                  PlugboardWindow        *self)
{
  if (self->project == NULL)
    return FALSE;

  if (!mcp_project_try_server (self->project, name, entry, error))
    return FALSE;

  discard_try (self, plugboard_server_editor_get_tried_name (editor), name);
  plugboard_window_show_server (self, name);
  return TRUE;
}

static void
open_editor (PlugboardWindow *self,
             McpServerConfig *config)
{
  PlugboardServerEditor *editor;

  if (self->project == NULL)
    return;

  editor = plugboard_server_editor_new (GTK_WINDOW (self), self->project, config,
                                        plugboard_window_default_scope (self));
  g_signal_connect_object (editor, "saved", G_CALLBACK (on_editor_saved_cb), self, 0);
  g_signal_connect_object (editor, "try", G_CALLBACK (on_editor_try_cb), self, 0);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
add_server_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  open_editor (user_data, NULL);
}

static void
edit_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  McpServerConfig *config;

  if (self->project == NULL)
    return;

  config = mcp_settings_lookup (plugboard_window_current_settings (self), g_variant_get_string (parameter, NULL));
  /* a server being tried: the editor saves it */
  if (config == NULL)
    config = mcp_project_lookup_unsaved (self->project, g_variant_get_string (parameter, NULL));
  if (config != NULL)
    open_editor (self, config);
}

static void
on_imported_cb (PlugboardWindow *self,
                guint            count)
{
  g_autofree char *title = NULL;

  if (count == 0)
    return;

  title = g_strdup_printf (ngettext ("Imported %u server", "Imported %u servers", count), count);
  plugboard_window_show_toast (self, title);
}

static void
import_servers_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  PlugboardImportDialog *dialog;

  if (self->project == NULL)
    return;

  dialog = plugboard_import_dialog_new (GTK_WINDOW (self), self->project, NULL);
  g_signal_connect_object (dialog, "imported", G_CALLBACK (on_imported_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_example_added_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (!mcp_project_add_example_finish (MCP_PROJECT (object), result, &name, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        plugboard_window_show_error_toast (self, error);
      return;
    }

  plugboard_window_show_server (self, name);
}

static void
add_example_server_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->project == NULL)
    return;

  mcp_project_add_example_async (self->project, self->cancellable,
                                 on_example_added_cb, g_object_ref (self));
}

static const GActionEntry editor_actions[] = {
  { "add-server", add_server_action },
  { "import-servers", import_servers_action },
  { "add-example-server", add_example_server_action },
  { "edit-server", edit_server_action, "s" },
};

void
plugboard_window_editor_init (PlugboardWindow *self)
{
  plugboard_window_add_actions (self, editor_actions, G_N_ELEMENTS (editor_actions));
}
