/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor: the object and its signals, opening it on an
 * entry (new, edited, or being tried), the working directory's folder
 * chooser, saving and trying. The parts of the editor are in
 * plugboard-server-editor-*.c. */

#include "config.h"

#include "plugboard-server-editor-private.h"

#include <glib/gi18n.h>

G_DEFINE_FINAL_TYPE (PlugboardServerEditor, plugboard_server_editor, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_PROJECT,
  N_PROPS
};

enum
{
  SAVED,
  TRY,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
on_chooser_response_cb (PlugboardServerEditor *self,
                        int                    response,
                        GtkNativeDialog       *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder != NULL ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->cwd_row), path);
    }

  g_clear_object (&self->chooser);
}

static void
on_cwd_button_clicked_cb (PlugboardServerEditor *self)
{
  const char *cwd = gtk_editable_get_text (GTK_EDITABLE (self->cwd_row));

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Choose Working Directory"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (cwd[0] != '\0' && g_file_test (cwd, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GFile) folder = g_file_new_for_path (cwd);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_save_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!plugboard_server_editor_save_finish (PLUGBOARD_SERVER_EDITOR (object), result, &error))
    g_debug ("Saving the server failed: %s", error->message);
}

static void
on_try_clicked_cb (PlugboardServerEditor *self)
{
  plugboard_server_editor_try (self);
}

static void
on_save_clicked_cb (PlugboardServerEditor *self)
{
  plugboard_server_editor_save_async (self, NULL, on_save_done_cb, NULL);
}

static void
save_action_cb (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (widget);

  if (gtk_widget_get_sensitive (GTK_WIDGET (self->save_button)))
    on_save_clicked_cb (self);
}

/* GObject */

static void
plugboard_server_editor_dispose (GObject *object)
{
  PlugboardServerEditor *self = (PlugboardServerEditor *)object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->key_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->key_chooser));
  g_clear_object (&self->key_chooser);
  g_cancellable_cancel (self->key_cancellable);
  g_clear_object (&self->key_cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SERVER_EDITOR);

  self->settings = NULL;
  g_clear_object (&self->project);
  g_clear_object (&self->config);
  g_clear_pointer (&self->base, json_object_unref);

  G_OBJECT_CLASS (plugboard_server_editor_parent_class)->dispose (object);
}

static void
plugboard_server_editor_finalize (GObject *object)
{
  PlugboardServerEditor *self = (PlugboardServerEditor *)object;

  g_clear_pointer (&self->notice, g_free);
  g_clear_pointer (&self->tried_name, g_free);
  g_clear_pointer (&self->touched, g_hash_table_unref);
  plugboard_server_editor_clear_secrets (self);
  g_clear_pointer (&self->key_stored, g_free);
  g_clear_pointer (&self->client_secret.stored, g_free);
  g_clear_pointer (&self->idp_secret.stored, g_free);

  G_OBJECT_CLASS (plugboard_server_editor_parent_class)->finalize (object);
}

static void
plugboard_server_editor_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (object);

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
plugboard_server_editor_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (object);

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
plugboard_server_editor_class_init (PlugboardServerEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_server_editor_dispose;
  object_class->finalize = plugboard_server_editor_finalize;
  object_class->get_property = plugboard_server_editor_get_property;
  object_class->set_property = plugboard_server_editor_set_property;

  properties[PROP_PROJECT] =
    g_param_spec_object ("project", NULL, NULL,
                         MCP_TYPE_PROJECT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PlugboardServerEditor::saved:
   * @name: the server's name as saved
   * @scope: its McpConfigScope
   */
  signals[SAVED] = g_signal_new ("saved",
                                 G_TYPE_FROM_CLASS (klass),
                                 G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_INT);

  /**
   * PlugboardServerEditor::try:
   * @name: the server's name
   * @entry: (type JsonObject): its "mcpServers" entry
   * @error: (type gpointer): a GError ** for why it cannot be tried
   *
   * Returns: TRUE when it is being tried (the editor closes), FALSE with
   * @error set (shown in the editor, which stays open).
   */
  signals[TRY] = g_signal_new ("try",
                               G_TYPE_FROM_CLASS (klass),
                               G_SIGNAL_RUN_LAST,
                               0, g_signal_accumulator_first_wins, NULL, NULL,
                               G_TYPE_BOOLEAN, 3, G_TYPE_STRING, JSON_TYPE_OBJECT,
                               G_TYPE_POINTER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-server-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, server_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, try_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, paste_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, scope_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, transport_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, command_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, command_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, cwd_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, args_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, args_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, add_arg_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, env_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, env_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, add_env_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, remote_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, url_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, headers_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, headers_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, add_header_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_method_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_client_id_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_auth_method_row);
  gtk_widget_class_bind_template_child_full (widget_class, "oauth_secret_stored_row", FALSE,
                                             G_STRUCT_OFFSET (PlugboardServerEditor, client_secret.stored_row));
  gtk_widget_class_bind_template_child_full (widget_class, "oauth_secret_row", FALSE,
                                             G_STRUCT_OFFSET (PlugboardServerEditor, client_secret.entry_row));
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_key_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_key_remove_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_assertion_source_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_assertion_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_id_token_source_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_id_token_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_port_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_scopes_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_dpop_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, idp_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_idp_issuer_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_idp_token_endpoint_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_idp_client_id_row);
  gtk_widget_class_bind_template_child_full (widget_class, "oauth_idp_secret_stored_row", FALSE,
                                             G_STRUCT_OFFSET (PlugboardServerEditor, idp_secret.stored_row));
  gtk_widget_class_bind_template_child_full (widget_class, "oauth_idp_secret_row", FALSE,
                                             G_STRUCT_OFFSET (PlugboardServerEditor, idp_secret.entry_row));
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, connect_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, tool_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, message_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, message_label);
  gtk_widget_class_bind_template_callback (widget_class, on_cwd_button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_try_clicked_cb);
  plugboard_server_editor_class_init_rows (widget_class);
  plugboard_server_editor_class_init_validate (widget_class);
  plugboard_server_editor_class_init_paste (widget_class);
  plugboard_server_editor_class_init_sign_in (widget_class);
  plugboard_server_editor_class_init_secrets (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "editor.save", NULL);
}

static void
plugboard_server_editor_init (PlugboardServerEditor *self)
{
  self->touched = g_hash_table_new (NULL, NULL);
  self->key_cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_server_editor_update_sign_in_rows (self);
  plugboard_server_editor_update_transport_groups (self);
}

/* Public API */

PlugboardServerEditor *
plugboard_server_editor_new (GtkWindow       *parent,
                             McpProject      *project,
                             McpServerConfig *config,
                             McpConfigScope   default_scope)
{
  PlugboardServerEditor *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);
  g_return_val_if_fail (config == NULL || MCP_IS_SERVER_CONFIG (config), NULL);
  g_return_val_if_fail (default_scope <= MCP_CONFIG_SCOPE_LOCAL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_SERVER_EDITOR,
                       "transient-for", parent,
                       "modal", TRUE,
                       "project", project,
                       NULL);

  self->loading = TRUE;
  plugboard_server_editor_set_up_scopes (self);
  if (config != NULL && !mcp_server_config_get_saved (config))
    {
      /* a server being tried: saved as a new entry in the scope chosen,
       * or tried again as it is changed */
      self->tried_name = g_strdup (mcp_server_config_get_name (config));
      plugboard_server_editor_select_scope (self, default_scope);
      plugboard_server_editor_fill_fields (self, mcp_server_config_get_name (config),
                                           mcp_server_config_get_json (config));
      gtk_window_set_title (GTK_WINDOW (self), _("Save Server"));
      adw_window_title_set_title (self->window_title, _("Save Server"));
      adw_window_title_set_subtitle (self->window_title, mcp_server_config_get_name (config));
      gtk_button_set_label (self->save_button, _("_Save"));
    }
  else if (config != NULL)
    {
      self->config = g_object_ref (config);
      plugboard_server_editor_select_scope (self, mcp_server_config_get_scope (config));
      plugboard_server_editor_fill_fields (self, mcp_server_config_get_name (config),
                                           mcp_server_config_get_json (config));
      gtk_window_set_title (GTK_WINDOW (self), _("Edit Server"));
      adw_window_title_set_title (self->window_title, _("Edit Server"));
      adw_window_title_set_subtitle (self->window_title, mcp_server_config_get_name (config));
      gtk_button_set_label (self->save_button, _("_Save"));
      /* it is saved already: trying it is connecting it */
      gtk_widget_set_visible (GTK_WIDGET (self->try_button), FALSE);
    }
  else
    {
      plugboard_server_editor_select_scope (self, default_scope);
    }
  self->loading = FALSE;
  g_hash_table_remove_all (self->touched);

  plugboard_server_editor_update_transport_groups (self);
  plugboard_server_editor_update_saved_in (self);
  plugboard_server_editor_field_changed (self, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));

  return self;
}

/* Saving */

typedef struct
{
  char           *name;
  McpConfigScope  scope;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_free (data->name);
  g_free (data);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PlugboardServerEditor *self = g_task_get_source_object (task);
  SaveData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  self->saving = FALSE;
  if (!mcp_project_save_server_finish (MCP_PROJECT (object), result, &error))
    {
      plugboard_server_editor_settle_secrets (self, task, FALSE);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        plugboard_server_editor_set_notice (self, error->message);
      else
        plugboard_server_editor_validate (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  plugboard_server_editor_settle_secrets (self, task, TRUE);
  g_clear_pointer (&self->notice, g_free);
  g_signal_emit (self, signals[SAVED], 0, data->name, (int)data->scope);
  g_task_return_boolean (task, TRUE);
  gtk_window_close (GTK_WINDOW (self));
}

/* The entry, its new secrets stored: written. */
static void
save_entry (PlugboardServerEditor *self,
            JsonObject            *entry,
            GTask                 *task)
{
  SaveData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  /* a rename, a move and the fields: one change, one write of each file,
   * made on the entry as it was when the editor opened */
  if (self->config != NULL)
    {
      mcp_project_save_server_async (self->project,
                                     mcp_server_config_get_name (self->config),
                                     mcp_server_config_get_scope (self->config),
                                     data->name, data->scope, entry,
                                     mcp_server_config_get_json (self->config),
                                     cancellable, save_cb, g_object_ref (task));
    }
  else
    {
      /* a new entry; named by the try it saves while that is being tried */
      const char *tried = self->tried_name;

      if (tried != NULL && mcp_project_lookup_unsaved (self->project, tried) == NULL)
        tried = NULL;
      mcp_project_save_server_async (self->project, tried, data->scope, data->name, data->scope,
                                     entry, NULL, cancellable, save_cb, g_object_ref (task));
    }
}

void
plugboard_server_editor_save_async (PlugboardServerEditor *self,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  SaveData *data;

  g_return_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_server_editor_save_async);

  if (self->saving)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The server is being saved already"));
      return;
    }

  entry = plugboard_server_editor_dup_entry (self, &error);
  if (entry == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (SaveData, 1);
  data->name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));
  data->scope = plugboard_server_editor_selected_scope (self);
  g_task_set_task_data (task, data, (GDestroyNotify)save_data_free);

  self->saving = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), FALSE);

  /* the secrets first: the settings only ever refer to stored ones */
  plugboard_server_editor_store_secrets_and_save (self, data->name, entry, task, save_entry);
}

gboolean
plugboard_server_editor_save_finish (PlugboardServerEditor  *self,
                                     GAsyncResult           *result,
                                     GError                **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == plugboard_server_editor_save_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Trying */

gboolean
plugboard_server_editor_try (PlugboardServerEditor *self)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  gboolean tried = FALSE;

  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), FALSE);

  if (!plugboard_server_editor_can_try (self))
    {
      plugboard_server_editor_validate (self);
      return FALSE;
    }

  /* an address or a command to try at once: named for it */
  name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));
  if (*name == '\0')
    {
      g_autoptr(JsonObject) fields = plugboard_server_editor_build_entry (self);

      g_free (name);
      name = plugboard_server_editor_dup_tried_name (self, fields);
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
    }

  entry = plugboard_server_editor_dup_entry (self, &error);
  if (entry == NULL)
    {
      plugboard_server_editor_validate (self);
      return FALSE;
    }

  g_signal_emit (self, signals[TRY], 0, name, entry, &error, &tried);
  if (!tried)
    {
      plugboard_server_editor_set_notice (self, error != NULL ? error->message
                                                : _("The server could not be tried"));
      return FALSE;
    }

  g_clear_pointer (&self->notice, g_free);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

const char *
plugboard_server_editor_get_tried_name (PlugboardServerEditor *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), NULL);

  return self->tried_name;
}
