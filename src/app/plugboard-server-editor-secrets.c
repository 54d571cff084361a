/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor's secrets of the Sign-In group: client secrets
 * typed, a private key pasted or read from a file (checked to be one the
 * engine signs with), and saving them: each new secret goes to the
 * McpSecretStore first under an ID no stored secret has, the settings get
 * only "${secret:ID}"; a save that fails takes the new secrets back out,
 * one that succeeds clears the secrets it replaced or removed. */

#include "config.h"

#include "plugboard-server-editor-private.h"

#include <string.h>

#include <glib/gi18n.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

#include "mcp-jose.h"
#include "mcp-secret-store.h"

#define MAX_KEY_SIZE    (64 * 1024)
#define MAX_ID_ATTEMPTS 100

static void
free_secret_text (char *text)
{
  if (text != NULL)
    memset (text, 0, strlen (text));
  g_free (text);
}

char *
plugboard_server_editor_dup_secret_id (const char *server,
                                       const char *member)
{
  return mcp_secret_store_make_id (server != NULL && server[0] != '\0' ? server : "server", member);
}

void
plugboard_server_editor_clear_secrets (PlugboardServerEditor *self)
{
  g_clear_pointer (&self->key_pem, free_secret_text);
  g_clear_pointer (&self->key_error, g_free);
  self->key_rsa = FALSE;
}

/* The private key */

static gboolean
check_private_key (const char  *pem,
                   gboolean    *rsa,
                   GError     **error)
{
  gnutls_x509_privkey_t key = NULL;
  gnutls_datum_t datum;
  unsigned int bits = 0;
  int algorithm;
  int status;

  if (strlen (pem) > MAX_KEY_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The private key is larger than %u KiB; a PEM private key is a few kilobytes."),
                   MAX_KEY_SIZE / 1024);
      return FALSE;
    }
  if (strstr (pem, "-----BEGIN ENCRYPTED PRIVATE KEY-----") != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The private key is encrypted. Give it without a passphrase (openssl pkey -in KEY -out PLAIN); it is kept in the keyring."));
      return FALSE;
    }
  if (strstr (pem, "-----BEGIN ") == NULL || strstr (pem, "PRIVATE KEY-----") == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("This is not a PEM private key. Expected text beginning with “-----BEGIN PRIVATE KEY-----” (or EC / RSA PRIVATE KEY)."));
      return FALSE;
    }

  datum.data = (unsigned char *)pem;
  datum.size = strlen (pem);
  if (gnutls_x509_privkey_init (&key) < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not check the private key"));
      return FALSE;
    }
  status = gnutls_x509_privkey_import2 (key, &datum, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN);
  if (status < 0)
    {
      gnutls_x509_privkey_deinit (key);
      /* Translators: %s is GnuTLS's reason, never the key */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The private key could not be read (%s). Give an unencrypted PEM private key."),
                   gnutls_strerror (status));
      return FALSE;
    }

  algorithm = gnutls_x509_privkey_get_pk_algorithm2 (key, &bits);
  gnutls_x509_privkey_deinit (key);

  if ((algorithm == GNUTLS_PK_EC && bits == 256) || (algorithm == GNUTLS_PK_RSA && bits >= 2048))
    {
      g_autoptr(McpJoseKey) checked = NULL;

      /* the algorithm follows from the key; what signs with it decides */
      *rsa = algorithm == GNUTLS_PK_RSA;
      checked = mcp_jose_key_new_from_pem (pem, *rsa ? MCP_JOSE_ALG_RS256 : MCP_JOSE_ALG_ES256, error);
      return checked != NULL;
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("The private key is %s of %u bits. Plugboard signs with an EC P-256 key (ES256) or an RSA key of at least 2048 bits (RS256)."),
               gnutls_pk_algorithm_get_name (algorithm), bits);
  return FALSE;
}

gboolean
plugboard_server_editor_set_private_key (PlugboardServerEditor  *self,
                                         const char             *pem,
                                         GError                **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *trimmed = NULL;
  gboolean rsa = FALSE;

  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), FALSE);
  g_return_val_if_fail (pem != NULL, FALSE);

  plugboard_server_editor_clear_secrets (self);
  trimmed = g_strstrip (g_strdup (pem));
  if (!check_private_key (trimmed, &rsa, &local_error))
    {
      memset (trimmed, 0, strlen (trimmed));
      self->key_error = g_strdup (local_error->message);
      g_hash_table_add (self->touched, self->oauth_key_row);
      plugboard_server_editor_update_sign_in_rows (self);
      plugboard_server_editor_field_changed (self, GTK_WIDGET (self->oauth_key_row));
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  self->key_pem = g_steal_pointer (&trimmed);
  self->key_rsa = rsa;
  plugboard_server_editor_update_sign_in_rows (self);
  plugboard_server_editor_field_changed (self, GTK_WIDGET (self->oauth_key_row));
  return TRUE;
}

static void
key_loaded_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PlugboardServerEditor *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (length > MAX_KEY_SIZE || memchr (contents, '\0', length) != NULL ||
      !g_utf8_validate (contents, length, NULL))
    {
      memset (contents, 0, length);
      self->key_error = g_strdup (_("The file is not a PEM private key (it is binary or larger than 64 KiB)."));
      plugboard_server_editor_update_sign_in_rows (self);
      plugboard_server_editor_field_changed (self, GTK_WIDGET (self->oauth_key_row));
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", self->key_error);
      return;
    }

  if (!plugboard_server_editor_set_private_key (self, contents, &error))
    {
      memset (contents, 0, length);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  memset (contents, 0, length);
  g_task_return_boolean (task, TRUE);
}

static void
key_info_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PlugboardServerEditor *self = g_task_get_source_object (task);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  info = g_file_query_info_finish (G_FILE (object), result, &error);
  if (info == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_file_info_get_size (info) > MAX_KEY_SIZE)
    {
      plugboard_server_editor_clear_secrets (self);
      self->key_error = g_strdup (_("The file is not a PEM private key (it is binary or larger than 64 KiB)."));
      plugboard_server_editor_update_sign_in_rows (self);
      plugboard_server_editor_field_changed (self, GTK_WIDGET (self->oauth_key_row));
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", self->key_error);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  g_file_load_contents_async (G_FILE (object), cancellable, key_loaded_cb, g_steal_pointer (&task));
}

void
plugboard_server_editor_load_private_key_async (PlugboardServerEditor *self,
                                                GFile                 *file,
                                                GCancellable          *cancellable,
                                                GAsyncReadyCallback    callback,
                                                gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_server_editor_load_private_key_async);
  g_file_query_info_async (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                           G_PRIORITY_DEFAULT, cancellable, key_info_cb, g_steal_pointer (&task));
}

gboolean
plugboard_server_editor_load_private_key_finish (PlugboardServerEditor  *self,
                                                 GAsyncResult           *result,
                                                 GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_key_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (object);
  g_autoptr(GError) error = NULL;

  /* a refused key is shown on its row already; a file not read is not */
  if (!plugboard_server_editor_load_private_key_finish (self, result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->key_error == NULL)
    plugboard_server_editor_set_notice (self, error->message);
}

static void
on_key_chooser_response_cb (PlugboardServerEditor *self,
                            int                    response,
                            GtkNativeDialog       *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        plugboard_server_editor_load_private_key_async (self, file, self->key_cancellable,
                                                        on_key_loaded_cb, NULL);
    }

  g_clear_object (&self->key_chooser);
}

static void
on_key_file_clicked_cb (PlugboardServerEditor *self)
{
  if (self->key_chooser != NULL)
    return;

  self->key_chooser = gtk_file_chooser_native_new (_("Choose Private Key"),
                                                   GTK_WINDOW (self),
                                                   GTK_FILE_CHOOSER_ACTION_OPEN,
                                                   _("_Open"),
                                                   _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->key_chooser), TRUE);
  g_signal_connect_object (self->key_chooser, "response", G_CALLBACK (on_key_chooser_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->key_chooser));
}

static void
on_key_clipboard_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardServerEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (text == NULL)
    {
      plugboard_server_editor_clear_secrets (self);
      self->key_error = g_strdup (_("The clipboard holds no text. Copy the PEM private key, or choose its file."));
      g_hash_table_add (self->touched, self->oauth_key_row);
      plugboard_server_editor_update_sign_in_rows (self);
      plugboard_server_editor_field_changed (self, GTK_WIDGET (self->oauth_key_row));
      return;
    }

  plugboard_server_editor_set_private_key (self, text, NULL);
  memset (text, 0, strlen (text));
}

static void
on_key_paste_clicked_cb (PlugboardServerEditor *self)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));

  gdk_clipboard_read_text_async (clipboard, self->key_cancellable, on_key_clipboard_cb, g_object_ref (self));
}

static void
on_key_remove_clicked_cb (PlugboardServerEditor *self)
{
  plugboard_server_editor_clear_secrets (self);
  self->key_removed = TRUE;
  plugboard_server_editor_update_sign_in_rows (self);
  plugboard_server_editor_field_changed (self, GTK_WIDGET (self->oauth_key_row));
}

static PlugboardEditorSecret *
secret_of_button (PlugboardServerEditor *self,
                  GtkWidget             *button)
{
  GtkWidget *row = gtk_widget_get_ancestor (button, ADW_TYPE_ACTION_ROW);

  return row == GTK_WIDGET (self->idp_secret.stored_row) ? &self->idp_secret : &self->client_secret;
}

static void
on_secret_replace_clicked_cb (PlugboardServerEditor *self,
                              GtkWidget             *button)
{
  PlugboardEditorSecret *secret = secret_of_button (self, button);

  secret->replacing = TRUE;
  plugboard_server_editor_update_sign_in_rows (self);
  gtk_widget_grab_focus (GTK_WIDGET (secret->entry_row));
}

static void
on_secret_remove_clicked_cb (PlugboardServerEditor *self,
                             GtkWidget             *button)
{
  PlugboardEditorSecret *secret = secret_of_button (self, button);

  secret->removed = TRUE;
  plugboard_server_editor_update_sign_in_rows (self);
  plugboard_server_editor_field_changed (self, GTK_WIDGET (secret->entry_row));
  gtk_widget_grab_focus (GTK_WIDGET (secret->entry_row));
}

void
plugboard_server_editor_class_init_secrets (GtkWidgetClass *widget_class)
{
  static const char * const buttons[] = {
    "oauth_key_paste_button", "oauth_key_file_button", "oauth_secret_replace_button",
    "oauth_secret_remove_button", "oauth_idp_secret_replace_button", "oauth_idp_secret_remove_button",
  };

  /* not kept in the instance; found by name (tests, screenshots) */
  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    gtk_widget_class_bind_template_child_full (widget_class, buttons[i], FALSE, 0);
  gtk_widget_class_bind_template_callback (widget_class, on_key_paste_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_key_file_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_key_remove_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_secret_replace_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_secret_remove_clicked_cb);
}

/* Saving */

typedef struct
{
  char *what;     /* for messages: "client secret" */
  char *member;   /* in "oauth": "clientSecret", "privateKey", "idp.clientSecret" */
  char *base_id;
  char *value;    /* a secret */
  char *id;       /* the ID found free */
  guint attempt;
} PendingSecret;

typedef struct
{
  PlugboardServerEditor   *self;      /* the task's source */
  JsonObject              *entry;
  char                    *name;
  PlugboardEditorSaveFunc  save;
  GPtrArray               *pending;   /* PendingSecret * */
  guint                    next;
  GPtrArray               *stored;    /* IDs stored by this save */
  GPtrArray               *previous;  /* "${secret:ID}" the entry had */
} SecretSave;

#define SECRET_SAVE_KEY "plugboard-server-editor-secrets"

static void
pending_secret_free (PendingSecret *pending)
{
  g_free (pending->what);
  g_free (pending->member);
  g_free (pending->base_id);
  free_secret_text (pending->value);
  g_free (pending->id);
  g_free (pending);
}

static void
secret_save_free (SecretSave *save)
{
  g_clear_pointer (&save->entry, json_object_unref);
  g_free (save->name);
  g_ptr_array_unref (save->pending);
  g_ptr_array_unref (save->stored);
  g_ptr_array_unref (save->previous);
  g_free (save);
}

/* The object holding @member ("idp.clientSecret": oauth.idp) and the last
 * part of it */
static JsonObject *
member_parent (JsonObject  *entry,
               const char  *member,
               const char **last)
{
  JsonNode *node = json_object_get_member (entry, "oauth");
  JsonObject *object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

  if (object != NULL && g_str_has_prefix (member, "idp."))
    {
      node = json_object_get_member (object, "idp");
      object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      member += strlen ("idp.");
    }
  *last = member;

  return object;
}

static const char *
member_value (JsonObject *entry,
              const char *member)
{
  const char *last;
  JsonObject *parent = member_parent (entry, member, &last);

  return plugboard_server_editor_string_member (parent, last);
}

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!mcp_secret_store_clear_finish (MCP_SECRET_STORE (object), result, &error))
    g_message ("Could not remove a secret the server editor no longer uses: %s", error->message);
}

static void
clear_ids (GPtrArray *ids)
{
  for (guint i = 0; i < ids->len; i++)
    mcp_secret_store_clear_async (mcp_secret_store_get_default (), ids->pdata[i], NULL, cleared_cb, NULL);
}

void
plugboard_server_editor_settle_secrets (PlugboardServerEditor *self,
                                        GTask                 *task,
                                        gboolean               ok)
{
  SecretSave *save = g_object_get_data (G_OBJECT (task), SECRET_SAVE_KEY);
  g_autoptr(GPtrArray) unused = NULL;

  if (save == NULL)
    return;

  if (!ok)
    {
      /* nothing half-written: the settings do not refer to them */
      clear_ids (save->stored);
      g_ptr_array_set_size (save->stored, 0);
      return;
    }

  /* the secrets the entry referred to and does no longer */
  unused = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < save->previous->len; i++)
    {
      const char *reference = save->previous->pdata[i];
      static const char * const members[] = { "clientSecret", "privateKey", "idp.clientSecret" };
      gboolean kept = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (members); j++)
        kept |= g_strcmp0 (member_value (save->entry, members[j]), reference) == 0;
      if (!kept)
        g_ptr_array_add (unused, g_strndup (reference + strlen ("${secret:"),
                                            strlen (reference) - strlen ("${secret:") - 1));
    }
  clear_ids (unused);
  g_ptr_array_set_size (save->stored, 0);
}

static void store_next (GTask *task);

static void
fail_save (GTask  *task,
           GError *error)
{
  SecretSave *save = g_object_get_data (G_OBJECT (task), SECRET_SAVE_KEY);

  clear_ids (save->stored);
  g_ptr_array_set_size (save->stored, 0);
  save->self->saving = FALSE;
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    plugboard_server_editor_set_notice (save->self, error->message);
  else
    plugboard_server_editor_validate (save->self);
  g_task_return_error (task, error);
  g_object_unref (task);
}

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  SecretSave *save = g_object_get_data (G_OBJECT (task), SECRET_SAVE_KEY);
  PendingSecret *pending = save->pending->pdata[save->next];
  g_autoptr(GError) error = NULL;
  g_autofree char *reference = NULL;
  JsonObject *parent;
  const char *last;

  if (!mcp_secret_store_store_finish (MCP_SECRET_STORE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fail_save (task, g_steal_pointer (&error));
          return;
        }
      /* Translators: the first %s is what ("client secret"), the second a server, the last the reason */
      fail_save (task, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                    _("Could not store the %s of “%s” in the keyring: %s. Nothing was saved."),
                                    pending->what, save->name, error->message));
      return;
    }

  g_ptr_array_add (save->stored, g_strdup (pending->id));
  reference = g_strdup_printf ("${secret:%s}", pending->id);
  parent = member_parent (save->entry, pending->member, &last);
  json_object_set_string_member (parent, last, reference);
  save->next++;
  store_next (task);
}

static void
looked_up_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  SecretSave *save = g_object_get_data (G_OBJECT (task), SECRET_SAVE_KEY);
  PendingSecret *pending = save->pending->pdata[save->next];
  g_autoptr(GError) error = NULL;
  char *existing;

  existing = mcp_secret_store_lookup_finish (MCP_SECRET_STORE (object), result, &error);
  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fail_save (task, g_steal_pointer (&error));
          return;
        }
      /* Translators: the first %s is what ("client secret"), the second a server, the last the reason */
      fail_save (task, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                    _("Could not store the %s of “%s” in the keyring: %s. Nothing was saved."),
                                    pending->what, save->name, error->message));
      return;
    }

  if (existing != NULL)
    {
      /* taken (this server's secret being replaced, or another's) */
      free_secret_text (existing);
      if (++pending->attempt >= MAX_ID_ATTEMPTS)
        {
          fail_save (task, g_error_new (G_IO_ERROR, G_IO_ERROR_EXISTS,
                                        _("Could not find a free name in the keyring for the %s of “%s”"),
                                        pending->what, save->name));
          return;
        }
      store_next (task);
      return;
    }

  mcp_secret_store_store_async (mcp_secret_store_get_default (), pending->id, pending->value,
                                g_task_get_cancellable (task), stored_cb, task);
}

static void
store_next (GTask *task)
{
  SecretSave *save = g_object_get_data (G_OBJECT (task), SECRET_SAVE_KEY);
  PendingSecret *pending;

  if (save->next == save->pending->len)
    {
      save->save (save->self, save->entry, task);
      g_object_unref (task);
      return;
    }

  pending = save->pending->pdata[save->next];
  g_free (pending->id);
  pending->id = pending->attempt == 0 ? g_strdup (pending->base_id)
                                      : g_strdup_printf ("%s-%u", pending->base_id, pending->attempt + 1);
  mcp_secret_store_lookup_async (mcp_secret_store_get_default (), pending->id,
                                 g_task_get_cancellable (task), looked_up_cb, task);
}

static void
add_pending (SecretSave *save,
             const char *what,
             const char *member,
             const char *id_name,
             const char *value)
{
  PendingSecret *pending;
  g_autofree char *base_id = NULL;
  g_autofree char *reference = NULL;

  if (value == NULL || value[0] == '\0')
    return;

  /* only where the entry refers to what was typed (the method uses it) */
  base_id = plugboard_server_editor_dup_secret_id (save->name, id_name);
  reference = g_strdup_printf ("${secret:%s}", base_id);
  if (g_strcmp0 (member_value (save->entry, member), reference) != 0)
    return;

  pending = g_new0 (PendingSecret, 1);
  pending->what = g_strdup (what);
  pending->member = g_strdup (member);
  pending->base_id = g_steal_pointer (&base_id);
  pending->value = g_strdup (value);
  g_ptr_array_add (save->pending, pending);
}

static void
add_previous (SecretSave *save,
              const char *reference)
{
  if (reference != NULL && g_str_has_prefix (reference, "${secret:") && g_str_has_suffix (reference, "}") &&
      strlen (reference) > strlen ("${secret:}"))
    g_ptr_array_add (save->previous, g_strdup (reference));
}

static gboolean
refers_to_typed (JsonObject *entry,
                 const char *name,
                 const char *member,
                 const char *id_name,
                 const char *value)
{
  g_autofree char *id = NULL;
  g_autofree char *reference = NULL;

  if (value == NULL || value[0] == '\0')
    return FALSE;
  id = plugboard_server_editor_dup_secret_id (name, id_name);
  reference = g_strdup_printf ("${secret:%s}", id);
  return g_strcmp0 (member_value (entry, member), reference) == 0;
}

gboolean
plugboard_server_editor_has_new_secrets (PlugboardServerEditor *self)
{
  g_autoptr(JsonObject) entry = plugboard_server_editor_build_entry (self);
  g_autofree char *name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));

  return refers_to_typed (entry, name, "clientSecret", "clientSecret",
                          gtk_editable_get_text (GTK_EDITABLE (self->client_secret.entry_row))) ||
         refers_to_typed (entry, name, "privateKey", "privateKey", self->key_pem) ||
         refers_to_typed (entry, name, "idp.clientSecret", "idpClientSecret",
                          gtk_editable_get_text (GTK_EDITABLE (self->idp_secret.entry_row)));
}

void
plugboard_server_editor_store_secrets_and_save (PlugboardServerEditor   *self,
                                                const char              *name,
                                                JsonObject              *entry,
                                                GTask                   *task,
                                                PlugboardEditorSaveFunc  save_func)
{
  SecretSave *save = g_new0 (SecretSave, 1);

  save->self = self;
  save->entry = json_object_ref (entry);
  save->name = g_strdup (name);
  save->save = save_func;
  save->pending = g_ptr_array_new_with_free_func ((GDestroyNotify)pending_secret_free);
  save->stored = g_ptr_array_new_with_free_func (g_free);
  save->previous = g_ptr_array_new_with_free_func (g_free);
  g_object_set_data_full (G_OBJECT (task), SECRET_SAVE_KEY, save, (GDestroyNotify)secret_save_free);

  add_pending (save, _("client secret"), "clientSecret", "clientSecret",
               gtk_editable_get_text (GTK_EDITABLE (self->client_secret.entry_row)));
  add_pending (save, _("private key"), "privateKey", "privateKey", self->key_pem);
  add_pending (save, _("identity provider client secret"), "idp.clientSecret", "idpClientSecret",
               gtk_editable_get_text (GTK_EDITABLE (self->idp_secret.entry_row)));
  /* the saved entry's own secrets, not those of an entry pasted over it */
  if (self->config != NULL)
    {
      static const char * const members[] = { "clientSecret", "privateKey", "idp.clientSecret" };

      for (guint i = 0; i < G_N_ELEMENTS (members); i++)
        add_previous (save, member_value (mcp_server_config_get_json (self->config), members[i]));
    }

  store_next (g_object_ref (task));
}
