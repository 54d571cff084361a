/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

#include "config.h"

#include "plugboard-server-editor.h"

#include "plugboard-common.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-server-config-private.h"

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

  /* Owned references */
  McpSettings          *settings;
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

G_DEFINE_FINAL_TYPE (PlugboardServerEditor, plugboard_server_editor, ADW_TYPE_WINDOW)

enum
{
  SAVED,
  TRY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void plugboard_server_editor_validate (PlugboardServerEditor *self);

/* Helpers */

static const char * const secret_words[] = {
  "token", "key", "secret", "password", "passwd", "auth", "credential",
};

static gboolean
looks_secret (const char *name)
{
  g_autofree char *lower = NULL;

  if (name == NULL)
    return FALSE;

  lower = g_ascii_strdown (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (secret_words); i++)
    {
      if (strstr (lower, secret_words[i]) != NULL)
        return TRUE;
    }

  return FALSE;
}

static char *
dup_stripped (GtkEditable *editable)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (editable)));
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_node_set_object (node, object);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

/* A deep copy that keeps member order (json_node_copy() shares objects:
 * the engine's configs must never change under it). */
static JsonObject *
copy_object (JsonObject *object)
{
  g_autofree char *text = object_to_string (object);
  g_autoptr(JsonNode) copy = json_from_string (text, NULL);

  g_assert (copy != NULL && JSON_NODE_HOLDS_OBJECT (copy));

  return json_object_ref (json_node_get_object (copy));
}

/* A whole number when the text is one, else the text itself, so that the
 * engine says what is wrong with it. */
static void
set_number_member (JsonObject *object,
                   const char *member,
                   const char *text)
{
  gint64 value;

  if (text[0] == '\0')
    {
      json_object_remove_member (object, member);
      return;
    }

  if (g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
    json_object_set_int_member (object, member, value);
  else
    json_object_set_string_member (object, member, text);
}

static char *
number_member_to_text (JsonObject *object,
                       const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return g_strdup ("");

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));

  return g_strdup ("");
}

static const char *
string_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return "";

  return json_node_get_string (node);
}

/* "${VAR}" references: the tooltip says what each resolves to. A secret
 * field's value is never shown, only whether it is set. */
static void
update_variable_tooltip (GtkWidget  *widget,
                         const char *text,
                         gboolean    secret)
{
  g_autoptr(GString) tooltip = g_string_new (NULL);
  const char *p = text;

  while ((p = strstr (p, "${")) != NULL)
    {
      const char *start = p + 2;
      const char *close = strchr (start, '}');
      const char *dash;
      g_autofree char *name = NULL;
      g_autofree char *fallback = NULL;
      const char *value;

      if (close == NULL)
        break;

      dash = g_strstr_len (start, close - start, ":-");
      name = g_strndup (start, (dash != NULL ? dash : close) - start);
      if (dash != NULL)
        fallback = g_strndup (dash + 2, close - (dash + 2));
      p = close + 1;

      if (name[0] == '\0')
        continue;

      if (tooltip->len > 0)
        g_string_append_c (tooltip, '\n');

      value = g_getenv (name);
      if (value != NULL && value[0] != '\0')
        {
          if (secret)
            /* Translators: %s is an environment variable's name */
            g_string_append_printf (tooltip, _("%s is set (the value is hidden)"), name);
          else
            /* Translators: the first %s is an environment variable's name, the second its value */
            g_string_append_printf (tooltip, _("%s is “%s”"), name, value);
        }
      else if (fallback != NULL)
        {
          if (secret)
            g_string_append_printf (tooltip, _("%s is not set: the default is used"), name);
          else
            /* Translators: the first %s is an environment variable's name, the second the default written after “:-” */
            g_string_append_printf (tooltip, _("%s is not set: the default “%s” is used"), name, fallback);
        }
      else if (value != NULL)
        {
          g_string_append_printf (tooltip, _("%s is set but empty"), name);
        }
      else
        {
          g_string_append_printf (tooltip, _("%s is not set: the server will not start until it is"), name);
        }
    }

  gtk_widget_set_tooltip_text (widget, tooltip->len > 0 ? tooltip->str : NULL);
}

/* List rows */

static GtkListBoxRow *
add_row_of (PlugboardServerEditor *self,
            GtkListBox            *list)
{
  if (list == self->args_list)
    return self->add_arg_row;
  if (list == self->env_list)
    return self->add_env_row;
  return self->add_header_row;
}

/* The rows of @list before its "Add" row. */
static GPtrArray *
list_rows (PlugboardServerEditor *self,
           GtkListBox            *list)
{
  GPtrArray *rows = g_ptr_array_new ();
  GtkListBoxRow *add_row = add_row_of (self, list);
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    {
      if (row != add_row)
        g_ptr_array_add (rows, row);
    }

  return rows;
}

static void
clear_list (PlugboardServerEditor *self,
            GtkListBox            *list)
{
  g_autoptr(GPtrArray) rows = list_rows (self, list);

  for (guint i = 0; i < rows->len; i++)
    gtk_list_box_remove (list, rows->pdata[i]);
}

static void
update_arg_rows (PlugboardServerEditor *self)
{
  g_autoptr(GPtrArray) rows = list_rows (self, self->args_list);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = rows->pdata[i];
      g_autofree char *title = NULL;

      /* Translators: the title of the n-th argument's row */
      title = g_strdup_printf (_("Argument %u"), i + 1);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), "up-button"), i > 0);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), "down-button"), i + 1 < rows->len);
    }
}

static void
on_entry_row_changed_cb (PlugboardServerEditor *self,
                         GtkEditable           *editable)
{
  gboolean secret = ADW_IS_PASSWORD_ENTRY_ROW (editable);

  update_variable_tooltip (GTK_WIDGET (editable), gtk_editable_get_text (editable), secret);
  plugboard_server_editor_validate (self);
}

static void
move_arg_row (PlugboardServerEditor *self,
              GtkWidget             *row,
              int                    delta,
              GtkWidget             *focus)
{
  int index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row));
  g_autoptr(GPtrArray) rows = list_rows (self, self->args_list);

  if (index + delta < 0 || index + delta >= (int)rows->len)
    return;

  g_object_ref (row);
  gtk_list_box_remove (self->args_list, row);
  gtk_list_box_insert (self->args_list, row, index + delta);
  g_object_unref (row);

  update_arg_rows (self);
  if (gtk_widget_get_sensitive (focus))
    gtk_widget_grab_focus (focus);
  else
    gtk_widget_grab_focus (row);
  plugboard_server_editor_validate (self);
}

static void
on_arg_up_clicked_cb (GtkButton *button,
                      gpointer   user_data)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (user_data);
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);

  move_arg_row (self, row, -1, GTK_WIDGET (button));
}

static void
on_arg_down_clicked_cb (GtkButton *button,
                        gpointer   user_data)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (user_data);
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);

  move_arg_row (self, row, 1, GTK_WIDGET (button));
}

static void
on_remove_clicked_cb (GtkButton *button,
                      gpointer   user_data)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (user_data);
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);
  GtkListBox *list = GTK_LIST_BOX (gtk_widget_get_parent (row));
  int index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row));
  GtkListBoxRow *next;

  gtk_list_box_remove (list, row);
  if (list == self->args_list)
    update_arg_rows (self);

  /* keep the keyboard where it was: the row now in that place */
  next = gtk_list_box_get_row_at_index (list, index);
  if (next != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (next));

  plugboard_server_editor_validate (self);
}

static GtkWidget *
make_icon_button (const char *icon_name,
                  const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  gtk_widget_add_css_class (button, "flat");

  return button;
}

static GtkWidget *
add_arg_row (PlugboardServerEditor *self,
             const char            *text)
{
  GtkWidget *row = adw_entry_row_new ();
  GtkWidget *up = make_icon_button ("go-up-symbolic", _("Move Up"));
  GtkWidget *down = make_icon_button ("go-down-symbolic", _("Move Down"));
  GtkWidget *remove = make_icon_button ("user-trash-symbolic", _("Remove Argument"));
  g_autoptr(GPtrArray) rows = list_rows (self, self->args_list);

  adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), up);
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), down);
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove);
  g_object_set_data (G_OBJECT (row), "up-button", up);
  g_object_set_data (G_OBJECT (row), "down-button", down);
  adw_entry_row_set_activates_default (ADW_ENTRY_ROW (row), TRUE);

  g_signal_connect_object (up, "clicked", G_CALLBACK (on_arg_up_clicked_cb), self, 0);
  g_signal_connect_object (down, "clicked", G_CALLBACK (on_arg_down_clicked_cb), self, 0);
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked_cb), self, 0);

  gtk_editable_set_text (GTK_EDITABLE (row), text);
  update_variable_tooltip (row, text, FALSE);
  g_signal_connect_object (row, "changed", G_CALLBACK (on_entry_row_changed_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_list_box_insert (self->args_list, row, rows->len);
  update_arg_rows (self);

  return row;
}

static GtkWidget *add_pair_row (PlugboardServerEditor *self,
                                GtkListBox            *list,
                                const char            *name,
                                const char            *value,
                                int                    position);

/* A name that starts or stops looking secret changes the row's kind. */
static gboolean
swap_pair_row_cb (gpointer user_data)
{
  g_autoptr(GtkWidget) row = user_data;
  PlugboardServerEditor *self;
  GtkWidget *list = gtk_widget_get_parent (row);
  GtkWidget *name_entry;
  GtkWidget *new_row;
  GtkWidget *new_entry;
  gboolean had_focus;
  int position;
  int index;

  g_object_set_data (G_OBJECT (row), "swap-source", NULL);

  if (list == NULL)
    return G_SOURCE_REMOVE;

  self = PLUGBOARD_SERVER_EDITOR (gtk_widget_get_root (row));
  name_entry = g_object_get_data (G_OBJECT (row), "name-entry");
  if (looks_secret (gtk_editable_get_text (GTK_EDITABLE (name_entry))) ==
      ADW_IS_PASSWORD_ENTRY_ROW (row))
    return G_SOURCE_REMOVE;

  had_focus = gtk_widget_has_focus (name_entry) ||
              gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (self)), name_entry);
  position = gtk_editable_get_position (GTK_EDITABLE (name_entry));
  index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row));

  new_row = add_pair_row (self, GTK_LIST_BOX (list),
                          gtk_editable_get_text (GTK_EDITABLE (name_entry)),
                          gtk_editable_get_text (GTK_EDITABLE (row)),
                          index);
  gtk_list_box_remove (GTK_LIST_BOX (list), row);

  new_entry = g_object_get_data (G_OBJECT (new_row), "name-entry");
  if (had_focus)
    {
      gtk_widget_grab_focus (new_entry);
      gtk_editable_set_position (GTK_EDITABLE (new_entry), position);
    }

  plugboard_server_editor_validate (self);

  return G_SOURCE_REMOVE;
}

static void
on_pair_name_changed_cb (GtkEditable *name_entry,
                         GtkWidget   *row)
{
  PlugboardServerEditor *self = PLUGBOARD_SERVER_EDITOR (gtk_widget_get_root (row));
  gboolean secret = looks_secret (gtk_editable_get_text (name_entry));

  if (secret != ADW_IS_PASSWORD_ENTRY_ROW (row) &&
      g_object_get_data (G_OBJECT (row), "swap-source") == NULL)
    {
      guint id = g_idle_add_full (G_PRIORITY_DEFAULT, swap_pair_row_cb, g_object_ref (row), NULL);

      g_object_set_data (G_OBJECT (row), "swap-source", GUINT_TO_POINTER (id));
    }

  if (self != NULL)
    plugboard_server_editor_validate (self);
}

static GtkWidget *
add_pair_row (PlugboardServerEditor *self,
              GtkListBox            *list,
              const char            *name,
              const char            *value,
              int                    position)
{
  gboolean is_env = list == self->env_list;
  gboolean secret = looks_secret (name);
  GtkWidget *row = secret ? adw_password_entry_row_new () : adw_entry_row_new ();
  GtkWidget *name_entry = gtk_entry_new ();
  GtkWidget *remove;

  remove = make_icon_button ("user-trash-symbolic",
                             is_env ? _("Remove Variable") : _("Remove Header"));

  gtk_widget_set_valign (name_entry, GTK_ALIGN_CENTER);
  gtk_editable_set_width_chars (GTK_EDITABLE (name_entry), 8);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (name_entry), 16);
  gtk_entry_set_placeholder_text (GTK_ENTRY (name_entry), _("Name"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (name_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  is_env ? _("Variable Name") : _("Header Name"),
                                  -1);
  gtk_editable_set_text (GTK_EDITABLE (name_entry), name);
  adw_entry_row_add_prefix (ADW_ENTRY_ROW (row), name_entry);
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove);
  g_object_set_data (G_OBJECT (row), "name-entry", name_entry);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Value"));
  adw_entry_row_set_activates_default (ADW_ENTRY_ROW (row), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (row), value);
  update_variable_tooltip (row, value, secret);

  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked_cb), self, 0);
  g_signal_connect_object (row, "changed", G_CALLBACK (on_entry_row_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (name_entry, "changed", G_CALLBACK (on_pair_name_changed_cb), row);

  if (position < 0)
    {
      g_autoptr(GPtrArray) rows = list_rows (self, list);

      position = rows->len;
    }
  gtk_list_box_insert (list, row, position);

  return row;
}

static void
on_list_row_activated_cb (PlugboardServerEditor *self,
                          GtkListBoxRow         *row)
{
  GtkWidget *new_row;

  if (row == self->add_arg_row)
    {
      new_row = add_arg_row (self, "");
      gtk_widget_grab_focus (new_row);
    }
  else if (row == self->add_env_row || row == self->add_header_row)
    {
      GtkListBox *list = row == self->add_env_row ? self->env_list : self->headers_list;

      new_row = add_pair_row (self, list, "", "", -1);
      gtk_widget_grab_focus (g_object_get_data (G_OBJECT (new_row), "name-entry"));
    }
  else
    {
      return;
    }

  plugboard_server_editor_validate (self);
}

/* Entry ↔ fields */

static guint
selected_transport (PlugboardServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->transport_row);

  return selected <= TRANSPORT_WS ? selected : TRANSPORT_STDIO;
}

static McpConfigScope
selected_scope (PlugboardServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->scope_row);

  return selected <= MCP_CONFIG_SCOPE_LOCAL ? (McpConfigScope)selected : MCP_CONFIG_SCOPE_USER;
}

static guint
transport_index_for_type (const char *type)
{
  if (g_strcmp0 (type, "http") == 0)
    return TRANSPORT_HTTP;
  if (g_strcmp0 (type, "sse") == 0 || g_strcmp0 (type, "sse-ide") == 0)
    return TRANSPORT_SSE;
  if (g_strcmp0 (type, "ws") == 0 || g_strcmp0 (type, "ws-ide") == 0)
    return TRANSPORT_WS;
  return TRANSPORT_STDIO;
}

static JsonObject *
pairs_to_object (PlugboardServerEditor *self,
                 GtkListBox            *list)
{
  g_autoptr(GPtrArray) rows = list_rows (self, list);
  JsonObject *object = json_object_new ();

  for (guint i = 0; i < rows->len; i++)
    {
      GtkEditable *name_entry = g_object_get_data (G_OBJECT (rows->pdata[i]), "name-entry");
      g_autofree char *name = dup_stripped (name_entry);
      const char *value = gtk_editable_get_text (GTK_EDITABLE (rows->pdata[i]));

      /* a row added and left empty is no entry */
      if (name[0] == '\0' && value[0] == '\0')
        continue;
      json_object_set_string_member (object, name, value);
    }

  return object;
}

static void
set_or_remove_object (JsonObject *entry,
                      const char *member,
                      JsonObject *value)
{
  if (json_object_get_size (value) > 0)
    json_object_set_object_member (entry, member, json_object_ref (value));
  else if (json_object_has_member (entry, member))
    json_object_remove_member (entry, member);
}

static void
remove_members (JsonObject         *object,
                const char * const *members)
{
  for (guint i = 0; members[i] != NULL; i++)
    {
      if (json_object_has_member (object, members[i]))
        json_object_remove_member (object, members[i]);
    }
}

/* The entry the fields make, without checking it. */
static JsonObject *
build_entry (PlugboardServerEditor *self)
{
  static const char * const stdio_members[] = { "command", "args", "env", "cwd", NULL };
  static const char * const remote_members[] = { "url", "headers", "oauth", NULL };
  g_autoptr(JsonObject) entry = NULL;
  guint transport = selected_transport (self);
  const char *base_type = string_member (self->base, "type");
  g_autofree char *connect_timeout = dup_stripped (GTK_EDITABLE (self->connect_timeout_row));
  g_autofree char *tool_timeout = dup_stripped (GTK_EDITABLE (self->tool_timeout_row));

  entry = self->base != NULL ? copy_object (self->base) : json_object_new ();

  if (transport == TRANSPORT_STDIO)
    {
      g_autofree char *command = dup_stripped (GTK_EDITABLE (self->command_row));
      g_autofree char *cwd = dup_stripped (GTK_EDITABLE (self->cwd_row));
      g_autoptr(GPtrArray) rows = list_rows (self, self->args_list);
      g_autoptr(JsonObject) env = pairs_to_object (self, self->env_list);

      remove_members (entry, remote_members);
      /* "type" stays out unless the entry had one */
      if (json_object_has_member (entry, "type"))
        json_object_set_string_member (entry, "type", "stdio");
      json_object_set_string_member (entry, "command", command);

      if (rows->len > 0)
        {
          JsonArray *args = json_array_new ();

          for (guint i = 0; i < rows->len; i++)
            json_array_add_string_element (args, gtk_editable_get_text (rows->pdata[i]));
          json_object_set_array_member (entry, "args", args);
        }
      else if (json_object_has_member (entry, "args"))
        {
          json_object_remove_member (entry, "args");
        }

      set_or_remove_object (entry, "env", env);

      if (cwd[0] != '\0')
        json_object_set_string_member (entry, "cwd", cwd);
      else if (json_object_has_member (entry, "cwd"))
        json_object_remove_member (entry, "cwd");
    }
  else
    {
      static const char * const types[] = { "stdio", "http", "sse", "ws" };
      g_autofree char *url = dup_stripped (GTK_EDITABLE (self->url_row));
      g_autofree char *client_id = dup_stripped (GTK_EDITABLE (self->oauth_client_id_row));
      g_autofree char *port = dup_stripped (GTK_EDITABLE (self->oauth_port_row));
      g_autofree char *scopes_text = dup_stripped (GTK_EDITABLE (self->oauth_scopes_row));
      g_autoptr(JsonObject) headers = pairs_to_object (self, self->headers_list);
      g_autoptr(JsonObject) oauth = NULL;
      JsonObject *base_oauth = NULL;
      const char *type = types[transport];

      remove_members (entry, stdio_members);

      /* an IDE entry keeps its own kind while the transport is not changed */
      if (transport_index_for_type (base_type) == transport && g_str_has_suffix (base_type, "-ide"))
        type = base_type;

      json_object_set_string_member (entry, "type", type);
      json_object_set_string_member (entry, "url", url);
      set_or_remove_object (entry, "headers", headers);

      if (self->base != NULL && json_object_has_member (self->base, "oauth") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (self->base, "oauth")))
        base_oauth = json_object_get_object_member (self->base, "oauth");
      oauth = base_oauth != NULL ? copy_object (base_oauth) : json_object_new ();

      if (client_id[0] != '\0')
        json_object_set_string_member (oauth, "clientId", client_id);
      else if (json_object_has_member (oauth, "clientId"))
        json_object_remove_member (oauth, "clientId");

      if (port[0] != '\0' || json_object_has_member (oauth, "callbackPort"))
        set_number_member (oauth, "callbackPort", port);

      if (scopes_text[0] != '\0')
        {
          g_auto(GStrv) scopes = g_strsplit_set (scopes_text, " \t\n", -1);
          JsonArray *array = json_array_new ();

          for (guint i = 0; scopes[i] != NULL; i++)
            {
              if (scopes[i][0] != '\0')
                json_array_add_string_element (array, scopes[i]);
            }
          json_object_set_array_member (oauth, "scopes", array);
        }
      else if (json_object_has_member (oauth, "scopes"))
        {
          json_object_remove_member (oauth, "scopes");
        }

      if (json_object_get_size (oauth) > 0 || base_oauth != NULL)
        json_object_set_object_member (entry, "oauth", g_steal_pointer (&oauth));
    }

  if (connect_timeout[0] != '\0' || json_object_has_member (entry, "timeout"))
    set_number_member (entry, "timeout", connect_timeout);
  if (tool_timeout[0] != '\0' || json_object_has_member (entry, "toolTimeout"))
    set_number_member (entry, "toolTimeout", tool_timeout);

  return g_steal_pointer (&entry);
}

static char *
entry_json_path (PlugboardServerEditor *self,
                 const char            *name,
                 McpConfigScope         scope)
{
  return mcp_settings_dup_entry_json_path (self->settings, name, scope);
}

static void
fill_pairs (PlugboardServerEditor *self,
            GtkListBox            *list,
            JsonObject            *entry,
            const char            *member)
{
  JsonNode *node = json_object_get_member (entry, member);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  clear_list (self, list);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        add_pair_row (self, list, key, json_node_get_string (value), -1);
    }
}

/* Fills every field from @entry, which the engine accepted. */
static void
fill_fields (PlugboardServerEditor *self,
             const char            *name,
             JsonObject            *entry)
{
  JsonObject *oauth = NULL;
  JsonNode *node;
  g_autofree char *port = NULL;
  g_autofree char *connect_timeout = NULL;
  g_autofree char *tool_timeout = NULL;

  self->loading = TRUE;

  g_clear_pointer (&self->base, json_object_unref);
  self->base = copy_object (entry);

  if (name != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);

  adw_combo_row_set_selected (self->transport_row,
                              transport_index_for_type (json_object_has_member (entry, "type") ?
                                                        string_member (entry, "type") : NULL));

  gtk_editable_set_text (GTK_EDITABLE (self->command_row), string_member (entry, "command"));
  gtk_editable_set_text (GTK_EDITABLE (self->cwd_row), string_member (entry, "cwd"));
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), string_member (entry, "url"));

  clear_list (self, self->args_list);
  node = json_object_get_member (entry, "args");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *args = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (args); i++)
        add_arg_row (self, json_array_get_string_element (args, i));
    }

  fill_pairs (self, self->env_list, entry, "env");
  fill_pairs (self, self->headers_list, entry, "headers");

  node = json_object_get_member (entry, "oauth");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    oauth = json_node_get_object (node);
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_client_id_row), string_member (oauth, "clientId"));
  port = number_member_to_text (oauth, "callbackPort");
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_port_row), port);
  node = oauth != NULL ? json_object_get_member (oauth, "scopes") : NULL;
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) scopes = NULL;
      g_autofree char *joined = NULL;

      for (guint i = 0; i < json_array_get_length (array); i++)
        g_strv_builder_add (builder, json_array_get_string_element (array, i));
      scopes = g_strv_builder_end (builder);
      joined = g_strjoinv (" ", scopes);
      gtk_editable_set_text (GTK_EDITABLE (self->oauth_scopes_row), joined);
    }
  else
    {
      gtk_editable_set_text (GTK_EDITABLE (self->oauth_scopes_row), "");
    }

  connect_timeout = number_member_to_text (entry, "timeout");
  tool_timeout = number_member_to_text (entry, "toolTimeout");
  gtk_editable_set_text (GTK_EDITABLE (self->connect_timeout_row), connect_timeout);
  gtk_editable_set_text (GTK_EDITABLE (self->tool_timeout_row), tool_timeout);

  self->loading = FALSE;
}

/* Validation */

static void
set_notice (PlugboardServerEditor *self,
            const char            *notice)
{
  g_free (self->notice);
  self->notice = g_strdup (notice);
  plugboard_server_editor_validate (self);
}

static void
show_message (PlugboardServerEditor *self,
              const char            *message)
{
  if (message != NULL)
    gtk_label_set_text (self->message_label, message);
  gtk_revealer_set_reveal_child (self->message_revealer, message != NULL);
}

/* Whether errors of @row show: every row of a server that exists (its
 * file says what it says), a new server's once the person changed it. */
static gboolean
touched (PlugboardServerEditor *self,
         GtkWidget             *row)
{
  return self->config != NULL || g_hash_table_contains (self->touched, row);
}

/* Marks the row @message is about, when it shows; returns whether the
 * message shows. */
static gboolean
mark_error_rows (PlugboardServerEditor *self,
                 const char            *message,
                 const char            *json_path)
{
  static const struct {
    const char *member;
    gsize offset;
  } members[] = {
    { ".command: ", G_STRUCT_OFFSET (PlugboardServerEditor, command_row) },
    { ".cwd: ", G_STRUCT_OFFSET (PlugboardServerEditor, cwd_row) },
    { ".url: ", G_STRUCT_OFFSET (PlugboardServerEditor, url_row) },
    { ".timeout: ", G_STRUCT_OFFSET (PlugboardServerEditor, connect_timeout_row) },
    { ".toolTimeout: ", G_STRUCT_OFFSET (PlugboardServerEditor, tool_timeout_row) },
    { ".oauth.clientId: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_client_id_row) },
    { ".oauth.callbackPort: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_port_row) },
  };

  GtkWidget *concerned = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      GtkWidget *row = G_STRUCT_MEMBER (GtkWidget *, self, members[i].offset);
      g_autofree char *needle = NULL;

      needle = g_strconcat (": ", json_path, members[i].member, NULL);
      if (message != NULL && strstr (message, needle) != NULL)
        concerned = row;
      gtk_widget_remove_css_class (row, "error");
    }
  if (message != NULL && strstr (message, "non-empty name") != NULL)
    concerned = GTK_WIDGET (self->name_row);
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");

  if (concerned != NULL && touched (self, concerned))
    gtk_widget_add_css_class (concerned, "error");

  /* the message shows when it is about a row the person changed, or about
   * no row and anything was changed */
  return message != NULL &&
         (concerned != NULL ? touched (self, concerned)
                            : self->config != NULL || g_hash_table_size (self->touched) > 0);
}

static gboolean
name_taken (PlugboardServerEditor *self,
            const char            *name,
            McpConfigScope         scope)
{
  if (self->config != NULL &&
      g_strcmp0 (name, mcp_server_config_get_name (self->config)) == 0 &&
      scope == mcp_server_config_get_scope (self->config))
    return FALSE;

  return mcp_settings_lookup_in_scope (self->settings, name, scope) != NULL;
}

/* A name for a server tried before it was named: the address's host, or
 * the program (the last argument that is not an option: npx -y
 * @scope/server-everything is "server-everything"), made free in the
 * settings with "-2", "-3"… */
static char *
dup_tried_name (PlugboardServerEditor *self,
                JsonObject            *entry)
{
  const char *url = string_member (entry, "url");
  const char *command = string_member (entry, "command");
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;

  if (*url != '\0')
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

      if (uri != NULL && g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0')
        base = g_strdup (g_uri_get_host (uri));
    }
  else if (*command != '\0')
    {
      JsonNode *args = json_object_get_member (entry, "args");
      const char *program = command;

      if (args != NULL && JSON_NODE_HOLDS_ARRAY (args))
        {
          JsonArray *array = json_node_get_array (args);

          for (guint i = json_array_get_length (array); i > 0; i--)
            {
              JsonNode *arg = json_array_get_element (array, i - 1);

              if (JSON_NODE_HOLDS_VALUE (arg) && json_node_get_value_type (arg) == G_TYPE_STRING &&
                  json_node_get_string (arg)[0] != '-' && json_node_get_string (arg)[0] != '\0')
                {
                  program = json_node_get_string (arg);
                  break;
                }
            }
        }
      base = g_path_get_basename (program);
      /* a package's version is not part of its name: server-x@1.2 */
      if (strchr (base + 1, '@') != NULL)
        *strchr (base + 1, '@') = '\0';
    }

  if (base == NULL || *base == '\0' || strcmp (base, ".") == 0 || strcmp (base, "/") == 0)
    {
      g_free (base);
      base = g_strdup ("server");
    }

  name = g_strdup (base);
  for (guint i = 2; mcp_settings_lookup (self->settings, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s-%u", base, i);
    }

  return g_steal_pointer (&name);
}

/* What Try needs: a valid entry, the name may still be empty (Try makes
 * one). */
static gboolean
can_try (PlugboardServerEditor *self)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerConfig) check = NULL;
  g_autofree char *name = NULL;

  if (self->saving)
    return FALSE;

  name = dup_stripped (GTK_EDITABLE (self->name_row));
  entry = build_entry (self);
  check = mcp_server_config_new_from_json (*name != '\0' ? name : "server", MCP_CONFIG_SCOPE_USER,
                                           entry, NULL, NULL, NULL);
  return check != NULL;
}

static void
plugboard_server_editor_validate (PlugboardServerEditor *self)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *taken = NULL;
  McpConfigScope scope;
  gboolean shown;

  if (self->loading || self->settings == NULL)
    return;

  name = dup_stripped (GTK_EDITABLE (self->name_row));
  scope = selected_scope (self);
  json_path = entry_json_path (self, name, scope);
  entry = plugboard_server_editor_dup_entry (self, &error);
  shown = mark_error_rows (self, error != NULL ? error->message : NULL, json_path);

  if (entry != NULL && name_taken (self, name, scope))
    {
      g_autofree char *file = plugboard_dup_display_path (mcp_settings_get_file (self->settings, scope));

      /* Translators: %s is a server's name, the second %s a file */
      taken = g_strdup_printf (_("There is already a server “%s” in this scope (%s). Choose another name or scope."),
                               name, file);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_row), "error");
    }

  if (self->notice != NULL)
    show_message (self, self->notice);
  else if (error != NULL)
    show_message (self, shown ? error->message : NULL);
  else
    show_message (self, taken);

  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button),
                            entry != NULL && taken == NULL && !self->saving);
  gtk_widget_set_sensitive (GTK_WIDGET (self->try_button), can_try (self));
}

static void
update_transport_groups (PlugboardServerEditor *self)
{
  gboolean stdio = selected_transport (self) == TRANSPORT_STDIO;

  gtk_widget_set_visible (GTK_WIDGET (self->command_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->args_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->env_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->remote_group), !stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->headers_group), !stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_group), !stdio);
}

static void
update_saved_in (PlugboardServerEditor *self)
{
  g_autofree char *file = NULL;
  g_autofree char *description = NULL;

  if (self->settings == NULL)
    return;

  file = plugboard_dup_display_path (mcp_settings_get_file (self->settings, selected_scope (self)));
  /* Translators: %s is a settings file */
  description = g_strdup_printf (_("Saved in %s"), file);
  adw_preferences_group_set_description (self->server_group, description);
}

/* Signal handlers */

static void
on_field_changed_cb (PlugboardServerEditor *self,
                     GtkWidget             *row)
{
  if (row != NULL && !self->loading)
    g_hash_table_add (self->touched, row);
  g_clear_pointer (&self->notice, g_free);
  update_variable_tooltip (GTK_WIDGET (self->command_row),
                           gtk_editable_get_text (GTK_EDITABLE (self->command_row)), FALSE);
  update_variable_tooltip (GTK_WIDGET (self->cwd_row),
                           gtk_editable_get_text (GTK_EDITABLE (self->cwd_row)), FALSE);
  update_variable_tooltip (GTK_WIDGET (self->url_row),
                           gtk_editable_get_text (GTK_EDITABLE (self->url_row)), FALSE);
  plugboard_server_editor_validate (self);
}

static void
on_scope_changed_cb (PlugboardServerEditor *self)
{
  update_saved_in (self);
  on_field_changed_cb (self, NULL);
}

static void
on_transport_changed_cb (PlugboardServerEditor *self)
{
  update_transport_groups (self);
  on_field_changed_cb (self, NULL);
}

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
on_clipboard_text_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(PlugboardServerEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  /* the dialog was closed meanwhile */
  if (self->name_row == NULL || self->settings == NULL)
    return;

  if (text == NULL || text[0] == '\0')
    {
      set_notice (self, _("The clipboard holds no text. Copy a server entry, such as "
                          "{\"command\": \"npx\", \"args\": [\"-y\", \"…\"]}, and paste again."));
      return;
    }

  if (!plugboard_server_editor_load_json (self, text, &error))
    set_notice (self, error->message);
}

static void
on_paste_clicked_cb (PlugboardServerEditor *self)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));

  gdk_clipboard_read_text_async (clipboard, NULL, on_clipboard_text_cb, g_object_ref (self));
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

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SERVER_EDITOR);

  g_clear_object (&self->settings);
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

  G_OBJECT_CLASS (plugboard_server_editor_parent_class)->finalize (object);
}

static void
plugboard_server_editor_class_init (PlugboardServerEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_server_editor_dispose;
  object_class->finalize = plugboard_server_editor_finalize;

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
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_client_id_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_port_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, oauth_scopes_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, connect_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, tool_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, message_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerEditor, message_label);
  gtk_widget_class_bind_template_callback (widget_class, on_field_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_scope_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_transport_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_list_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_cwd_button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_paste_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_try_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "editor.save", NULL);
}

static void
plugboard_server_editor_init (PlugboardServerEditor *self)
{
  self->touched = g_hash_table_new (NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  update_transport_groups (self);
}

/* Public API */

PlugboardServerEditor *
plugboard_server_editor_new (GtkWindow       *parent,
                             McpSettings     *settings,
                             McpServerConfig *config,
                             McpConfigScope   default_scope)
{
  PlugboardServerEditor *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (config == NULL || MCP_IS_SERVER_CONFIG (config), NULL);
  g_return_val_if_fail (default_scope <= MCP_CONFIG_SCOPE_LOCAL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_SERVER_EDITOR,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
  self->settings = g_object_ref (settings);

  self->loading = TRUE;
  if (config != NULL && !mcp_server_config_get_saved (config))
    {
      /* a server being tried: saved as a new entry in the scope chosen,
       * or tried again as it is changed */
      self->tried_name = g_strdup (mcp_server_config_get_name (config));
      adw_combo_row_set_selected (self->scope_row, default_scope);
      fill_fields (self, mcp_server_config_get_name (config), mcp_server_config_get_json (config));
      gtk_window_set_title (GTK_WINDOW (self), _("Save Server"));
      adw_window_title_set_title (self->window_title, _("Save Server"));
      adw_window_title_set_subtitle (self->window_title, mcp_server_config_get_name (config));
      gtk_button_set_label (self->save_button, _("_Save"));
    }
  else if (config != NULL)
    {
      self->config = g_object_ref (config);
      adw_combo_row_set_selected (self->scope_row, mcp_server_config_get_scope (config));
      fill_fields (self, mcp_server_config_get_name (config), mcp_server_config_get_json (config));
      gtk_window_set_title (GTK_WINDOW (self), _("Edit Server"));
      adw_window_title_set_title (self->window_title, _("Edit Server"));
      adw_window_title_set_subtitle (self->window_title, mcp_server_config_get_name (config));
      gtk_button_set_label (self->save_button, _("_Save"));
      /* it is saved already: trying it is connecting it */
      gtk_widget_set_visible (GTK_WIDGET (self->try_button), FALSE);
    }
  else
    {
      adw_combo_row_set_selected (self->scope_row, default_scope);
    }
  self->loading = FALSE;
  g_hash_table_remove_all (self->touched);

  update_transport_groups (self);
  update_saved_in (self);
  on_field_changed_cb (self, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));

  return self;
}

static gboolean
is_entry_object (JsonObject *object)
{
  return json_object_has_member (object, "command") ||
         json_object_has_member (object, "type") ||
         json_object_has_member (object, "url");
}

static JsonNode *
parse_pasted (const char  *json,
              GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = g_strstrip (g_strdup (json));

  if (json_parser_load_from_data (parser, text, -1, &local_error))
    return json_node_ref (json_parser_get_root (parser));

  /* a member copied out of a file: "name": { … }, */
  if (text[0] == '"')
    {
      g_autoptr(JsonParser) wrapped_parser = json_parser_new ();
      g_autofree char *wrapped = NULL;
      gsize len = strlen (text);

      if (len > 0 && text[len - 1] == ',')
        text[len - 1] = '\0';
      wrapped = g_strconcat ("{", text, "}", NULL);
      if (json_parser_load_from_data (wrapped_parser, wrapped, -1, NULL))
        return json_node_ref (json_parser_get_root (wrapped_parser));
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
               _("The pasted text is not JSON (%s). Paste a server entry, such as "
                 "{\"command\": \"npx\", \"args\": [\"-y\", \"…\"]}."),
               local_error->message);
  return NULL;
}

gboolean
plugboard_server_editor_load_json (PlugboardServerEditor  *self,
                                   const char             *json,
                                   GError                **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(McpServerConfig) check = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json_path = NULL;
  JsonObject *object;

  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = parse_pasted (json, error);
  if (root == NULL)
    return FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The pasted JSON is not an object. Paste a server entry, such as "
                     "{\"command\": \"npx\", \"args\": [\"-y\", \"…\"]}."));
      return FALSE;
    }

  object = json_node_get_object (root);
  json_path = g_strdup ("$");

  if (!is_entry_object (object) && json_object_has_member (object, "mcpServers") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "mcpServers")))
    {
      object = json_object_get_object_member (object, "mcpServers");
      g_free (json_path);
      json_path = g_strdup ("$.mcpServers");
    }

  if (!is_entry_object (object) && json_object_get_size (object) > 0)
    {
      g_autoptr(GList) members = json_object_get_members (object);
      guint n = json_object_get_size (object);
      JsonNode *member = json_object_get_member (object, members->data);

      if (n > 1)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       ngettext ("The pasted JSON holds %u server. Paste one server at a time.",
                                 "The pasted JSON holds %u servers. Paste one server at a time.",
                                 n),
                       n);
          return FALSE;
        }

      if (JSON_NODE_HOLDS_OBJECT (member))
        {
          g_autofree char *inner_path = mcp_json_path_append_member (json_path, members->data);

          name = g_strdup (members->data);
          object = json_node_get_object (member);
          g_free (json_path);
          json_path = g_steal_pointer (&inner_path);
        }
    }

  /* the engine says what is wrong with an entry */
  check = mcp_server_config_new_from_json (name != NULL && name[0] != '\0' ? name : "pasted",
                                           selected_scope (self), object,
                                           _("(pasted JSON)"), json_path, error);
  if (check == NULL)
    return FALSE;

  fill_fields (self, name, object);
  update_transport_groups (self);
  g_clear_pointer (&self->notice, g_free);
  on_field_changed_cb (self, NULL);

  return TRUE;
}

JsonObject *
plugboard_server_editor_dup_entry (PlugboardServerEditor  *self,
                                   GError                **error)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerConfig) check = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json_path = NULL;
  McpConfigScope scope;

  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = dup_stripped (GTK_EDITABLE (self->name_row));
  scope = selected_scope (self);
  json_path = entry_json_path (self, name, scope);
  entry = build_entry (self);

  check = mcp_server_config_new_from_json (name, scope, entry,
                                           mcp_settings_get_file (self->settings, scope),
                                           json_path, error);
  if (check == NULL)
    return NULL;

  return g_steal_pointer (&entry);
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
  if (!mcp_settings_save_server_finish (MCP_SETTINGS (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_notice (self, error->message);
      else
        plugboard_server_editor_validate (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_clear_pointer (&self->notice, g_free);
  g_signal_emit (self, signals[SAVED], 0, data->name, (int)data->scope);
  g_task_return_boolean (task, TRUE);
  gtk_window_close (GTK_WINDOW (self));
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
  data->name = dup_stripped (GTK_EDITABLE (self->name_row));
  data->scope = selected_scope (self);
  g_task_set_task_data (task, data, (GDestroyNotify)save_data_free);

  self->saving = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), FALSE);

  /* a rename, a move and the fields: one change, one write of each file,
   * made on the entry as it was when the editor opened */
  mcp_settings_save_server_async (self->settings,
                                  self->config != NULL ? mcp_server_config_get_name (self->config) : NULL,
                                  self->config != NULL ? mcp_server_config_get_scope (self->config) : data->scope,
                                  data->name, data->scope, entry,
                                  self->config != NULL ? mcp_server_config_get_json (self->config) : NULL,
                                  cancellable, save_cb, g_steal_pointer (&task));
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

  if (!can_try (self))
    {
      plugboard_server_editor_validate (self);
      return FALSE;
    }

  /* an address or a command to try at once: named for it */
  name = dup_stripped (GTK_EDITABLE (self->name_row));
  if (*name == '\0')
    {
      g_autoptr(JsonObject) fields = build_entry (self);

      g_free (name);
      name = dup_tried_name (self, fields);
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
      set_notice (self, error != NULL ? error->message : _("The server could not be tried"));
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
