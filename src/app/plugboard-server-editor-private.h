/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-server-editor.h"

G_BEGIN_DECLS

/* Between the parts of PlugboardServerEditor: plugboard-server-editor.c
 * (the object, opening it on an entry, the folder chooser, saving and
 * trying), -rows.c (the argument, variable and header rows), -fields.c
 * (the entry the fields make, and the fields filled from an entry),
 * -validate.c (checking the fields as they change) and -paste.c
 * (Paste JSON), -sign-in.c (the Sign-In group: the grant, its rows and
 * their members of "oauth") and -secrets.c (the secrets the Sign-In
 * group takes: checked, stored in the keyring on Save, cleared when the
 * save fails or they are replaced). */

/* The transport combo row's items, in order. */
enum
{
  TRANSPORT_STDIO,
  TRANSPORT_HTTP,
  TRANSPORT_SSE,
  TRANSPORT_WS,
};

/* The sign-in method combo row's items, in order. */
enum
{
  SIGN_IN_BROWSER,
  SIGN_IN_CLIENT_CREDENTIALS,
  SIGN_IN_WORKLOAD,
  SIGN_IN_ENTERPRISE,
};

/* The client authentication combo row's items, in order. */
enum
{
  CLIENT_AUTH_SECRET_BASIC,
  CLIENT_AUTH_SECRET_POST,
  CLIENT_AUTH_PRIVATE_KEY_JWT,
  CLIENT_AUTH_NONE,
};

/* A secret of the Sign-In group: a reference the settings had (shown as
 * "Stored in the keyring", replaceable, removable) or a new value typed. */
typedef struct
{
  AdwActionRow        *stored_row;
  AdwPasswordEntryRow *entry_row;
  char                *stored;      /* the member's value as loaded; NULL: none */
  gboolean             removed;     /* the stored one is to go */
  gboolean             replacing;   /* Replace was clicked: the entry row shows */
} PlugboardEditorSecret;

struct _PlugboardServerEditor
{
  AdwWindow             parent_instance;

  /* Template widgets */
  AdwWindowTitle       *window_title;
  AdwPreferencesGroup  *server_group;
  GtkButton            *save_button;
  GtkButton            *try_button;
  GtkButton            *paste_button;
  AdwEntryRow          *name_row;
  AdwComboRow          *scope_row;
  AdwComboRow          *transport_row;
  AdwPreferencesGroup  *command_group;
  AdwEntryRow          *command_row;
  AdwEntryRow          *cwd_row;
  AdwPreferencesGroup  *args_group;
  GtkListBox           *args_list;
  GtkListBoxRow        *add_arg_row;
  AdwPreferencesGroup  *env_group;
  GtkListBox           *env_list;
  GtkListBoxRow        *add_env_row;
  AdwPreferencesGroup  *remote_group;
  AdwEntryRow          *url_row;
  AdwPreferencesGroup  *headers_group;
  GtkListBox           *headers_list;
  GtkListBoxRow        *add_header_row;
  AdwPreferencesGroup  *oauth_group;
  AdwComboRow          *oauth_method_row;
  AdwEntryRow          *oauth_client_id_row;
  AdwComboRow          *oauth_auth_method_row;
  AdwActionRow         *oauth_secret_stored_row;
  AdwPasswordEntryRow  *oauth_secret_row;
  AdwActionRow         *oauth_key_row;
  GtkButton            *oauth_key_remove_button;
  AdwComboRow          *oauth_assertion_source_row;
  AdwEntryRow          *oauth_assertion_row;
  AdwComboRow          *oauth_id_token_source_row;
  AdwEntryRow          *oauth_id_token_row;
  AdwEntryRow          *oauth_port_row;
  AdwEntryRow          *oauth_scopes_row;
  AdwComboRow          *oauth_dpop_row;
  AdwPreferencesGroup  *idp_group;
  AdwEntryRow          *oauth_idp_issuer_row;
  AdwEntryRow          *oauth_idp_token_endpoint_row;
  AdwEntryRow          *oauth_idp_client_id_row;
  AdwActionRow         *oauth_idp_secret_stored_row;
  AdwPasswordEntryRow  *oauth_idp_secret_row;
  AdwEntryRow          *connect_timeout_row;
  AdwEntryRow          *tool_timeout_row;
  GtkRevealer          *message_revealer;
  GtkLabel             *message_label;

  /* Borrowed references */
  McpSettings          *settings;    /* the project's, for reading */

  /* Owned references */
  McpProject           *project;     /* every write goes through it */
  McpServerConfig      *config;      /* the entry edited; NULL for a new one */
  char                 *tried_name;  /* opened on a server being tried: saving it */
  JsonObject           *base;        /* the JSON the fields came from: kept keys */
  GtkFileChooserNative *chooser;
  char                 *notice;      /* a write or paste failure, until the next edit */
  GtkFileChooserNative *key_chooser;
  GCancellable         *key_cancellable; /* reading a key file or the clipboard */

  /* The Sign-In group's secrets */
  PlugboardEditorSecret client_secret;
  PlugboardEditorSecret idp_secret;
  char                 *key_stored;  /* "privateKey" as loaded; NULL: none */
  char                 *key_pem;     /* a new key, checked; a secret */
  char                 *key_error;   /* why the key given was refused */
  gboolean              key_removed;
  gboolean              key_rsa;     /* the new key is RSA: RS256 */

  /* The rows the person has changed: a new server's empty rows are not
   * errors yet */
  GHashTable           *touched;
  guint                 loading : 1;
  guint                 saving : 1;
};

/* plugboard-server-editor-rows.c */
void           plugboard_server_editor_class_init_rows         (GtkWidgetClass        *widget_class);
/* "${VAR}" references: the tooltip says what each resolves to. */
void           plugboard_server_editor_update_variable_tooltip (GtkWidget             *widget,
                                                                const char            *text,
                                                                gboolean               secret);
/* The rows of @list before its "Add" row. */
GPtrArray     *plugboard_server_editor_list_rows               (PlugboardServerEditor *self,
                                                                GtkListBox            *list);
void           plugboard_server_editor_clear_list              (PlugboardServerEditor *self,
                                                                GtkListBox            *list);
GtkWidget     *plugboard_server_editor_add_arg_row             (PlugboardServerEditor *self,
                                                                const char            *text);
/* A name and value row of the environment or the headers; @position -1:
 * at the end. */
GtkWidget     *plugboard_server_editor_add_pair_row            (PlugboardServerEditor *self,
                                                                GtkListBox            *list,
                                                                const char            *name,
                                                                const char            *value,
                                                                int                    position);

/* plugboard-server-editor-fields.c */
char          *plugboard_server_editor_dup_stripped            (GtkEditable           *editable);
/* @member of @object when it is a string, else "". */
const char    *plugboard_server_editor_string_member           (JsonObject            *object,
                                                                const char            *member);
guint          plugboard_server_editor_selected_transport      (PlugboardServerEditor *self);
McpConfigScope plugboard_server_editor_selected_scope          (PlugboardServerEditor *self);
/* The scope row offers only the scopes the settings' client has
 * (mcp_settings_has_scope()); selects @scope, or the first one offered
 * when the client lacks it. */
void           plugboard_server_editor_set_up_scopes          (PlugboardServerEditor *self);
void           plugboard_server_editor_select_scope           (PlugboardServerEditor *self,
                                                               McpConfigScope         scope);
/* The entry the fields make, without checking it. */
JsonObject    *plugboard_server_editor_build_entry             (PlugboardServerEditor *self);
/* Fills every field from @entry, which the engine accepted. */
void           plugboard_server_editor_fill_fields             (PlugboardServerEditor *self,
                                                                const char            *name,
                                                                JsonObject            *entry);
char          *plugboard_server_editor_entry_json_path         (PlugboardServerEditor *self,
                                                                const char            *name,
                                                                McpConfigScope         scope);

/* plugboard-server-editor-validate.c */
void           plugboard_server_editor_class_init_validate     (GtkWidgetClass        *widget_class);
void           plugboard_server_editor_validate                (PlugboardServerEditor *self);
/* A field changed (@row, or NULL for no row in particular): the notice
 * goes, and the fields are checked again. */
void           plugboard_server_editor_field_changed           (PlugboardServerEditor *self,
                                                                GtkWidget             *row);
/* A write or paste failure shown until the next edit. */
void           plugboard_server_editor_set_notice              (PlugboardServerEditor *self,
                                                                const char            *notice);
gboolean       plugboard_server_editor_can_try                 (PlugboardServerEditor *self);
char          *plugboard_server_editor_dup_tried_name          (PlugboardServerEditor *self,
                                                                JsonObject            *entry);
void           plugboard_server_editor_update_transport_groups (PlugboardServerEditor *self);
void           plugboard_server_editor_update_saved_in         (PlugboardServerEditor *self);

/* plugboard-server-editor-sign-in.c */
void           plugboard_server_editor_class_init_sign_in      (GtkWidgetClass        *widget_class);
guint          plugboard_server_editor_selected_sign_in        (PlugboardServerEditor *self);
/* Shows the rows the sign-in method and its choices need. */
void           plugboard_server_editor_update_sign_in_rows     (PlugboardServerEditor *self);
/* Sets the members of @oauth (a copy of the entry's, unknown members
 * kept) the Sign-In group edits; secrets typed are "${secret:ID}" with
 * the ID they would be stored under. */
void           plugboard_server_editor_build_oauth             (PlugboardServerEditor *self,
                                                                const char            *name,
                                                                JsonObject            *oauth);
void           plugboard_server_editor_fill_sign_in            (PlugboardServerEditor *self,
                                                                JsonObject            *oauth);
/* What the engine does not check yet: a method's required rows, the
 * private key. NULL when fine; else the message and the row it is about. */
char          *plugboard_server_editor_check_sign_in           (PlugboardServerEditor *self,
                                                                GtkWidget            **row);

/* plugboard-server-editor-secrets.c */
void           plugboard_server_editor_class_init_secrets      (GtkWidgetClass        *widget_class);
void           plugboard_server_editor_clear_secrets           (PlugboardServerEditor *self);
/* Whether the entry refers to a secret typed or pasted, not stored yet
 * (only Save stores it: such a server cannot be tried). */
gboolean       plugboard_server_editor_has_new_secrets         (PlugboardServerEditor *self);
/* "clientSecret" → "SERVER.clientSecret": where a secret typed goes. */
char          *plugboard_server_editor_dup_secret_id           (const char            *server,
                                                                const char            *member);
/* Sets @pem as the new private key when it is an unencrypted PEM private
 * key the engine signs with (EC P-256: ES256; RSA of 2048 bits or more:
 * RS256); else FALSE with the reason (never quoting the key), also shown
 * in the editor. */
gboolean       plugboard_server_editor_set_private_key         (PlugboardServerEditor *self,
                                                                const char            *pem,
                                                                GError               **error);
/* Reads the private key from @file (at most 64 KiB); its content is kept,
 * the file is not referenced. */
void           plugboard_server_editor_load_private_key_async  (PlugboardServerEditor *self,
                                                                GFile                 *file,
                                                                GCancellable          *cancellable,
                                                                GAsyncReadyCallback    callback,
                                                                gpointer               user_data);
gboolean       plugboard_server_editor_load_private_key_finish (PlugboardServerEditor *self,
                                                                GAsyncResult          *result,
                                                                GError               **error);
/* Saving with secrets: each new secret is stored under an ID no stored
 * secret has, @entry's references are set to those IDs, then @save runs;
 * when it fails the new secrets are cleared, when it succeeds the
 * secrets replaced or removed are. */
typedef void (*PlugboardEditorSaveFunc) (PlugboardServerEditor *self,
                                         JsonObject            *entry,
                                         GTask                 *task);
void           plugboard_server_editor_store_secrets_and_save  (PlugboardServerEditor  *self,
                                                                const char             *name,
                                                                JsonObject             *entry,
                                                                GTask                  *task,
                                                                PlugboardEditorSaveFunc save);
/* The save @task ran finished: @ok or not, the secrets are settled. */
void           plugboard_server_editor_settle_secrets          (PlugboardServerEditor  *self,
                                                                GTask                  *task,
                                                                gboolean                ok);

/* plugboard-server-editor-paste.c */
void           plugboard_server_editor_class_init_paste        (GtkWidgetClass        *widget_class);

G_END_DECLS
