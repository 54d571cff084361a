/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-server-editor.h"

G_BEGIN_DECLS

/* Between the parts of PlugboardServerEditor: plugboard-server-editor.c
 * (the object, opening it on an entry, the folder chooser, saving and
 * trying), -rows.c (the argument, variable and header rows), -fields.c
 * (the entry the fields make, and the fields filled from an entry),
 * -validate.c (checking the fields as they change) and -paste.c
 * (Paste JSON). */

/* The transport combo row's items, in order. */
enum
{
  TRANSPORT_STDIO,
  TRANSPORT_HTTP,
  TRANSPORT_SSE,
  TRANSPORT_WS,
};

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
  AdwEntryRow          *oauth_client_id_row;
  AdwEntryRow          *oauth_port_row;
  AdwEntryRow          *oauth_scopes_row;
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

/* plugboard-server-editor-paste.c */
void           plugboard_server_editor_class_init_paste        (GtkWidgetClass        *widget_class);

G_END_DECLS
