/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor's list rows: the arguments (added, removed and
 * reordered, each one entry) and the name and value rows of the
 * environment and the headers, masked when the name looks secret. */

#include "config.h"

#include "plugboard-server-editor-private.h"

#include <string.h>

#include <glib/gi18n.h>

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

/* "${VAR}" references: the tooltip says what each resolves to. A secret
 * field's value is never shown, only whether it is set. */
void
plugboard_server_editor_update_variable_tooltip (GtkWidget  *widget,
                                                 const char *text,
                                                 gboolean    secret)
{
  g_autoptr(GString) tooltip = g_string_new (NULL);
  g_autoptr(GPtrArray) uses = mcp_server_config_scan_variables (text, NULL);

  for (guint i = 0; i < uses->len; i++)
    {
      const McpVariableUse *use = g_ptr_array_index (uses, i);
      const char *name = use->name;

      if (tooltip->len > 0)
        g_string_append_c (tooltip, '\n');

      if (use->value != NULL && use->value[0] != '\0')
        {
          if (secret)
            /* Translators: %s is an environment variable's name */
            g_string_append_printf (tooltip, _("%s is set (the value is hidden)"), name);
          else
            /* Translators: the first %s is an environment variable's name, the second its value */
            g_string_append_printf (tooltip, _("%s is “%s”"), name, use->value);
        }
      else if (use->fallback != NULL)
        {
          if (secret)
            g_string_append_printf (tooltip, _("%s is not set: the default is used"), name);
          else
            /* Translators: the first %s is an environment variable's name, the second the default written after “:-” */
            g_string_append_printf (tooltip, _("%s is not set: the default “%s” is used"), name, use->fallback);
        }
      else if (use->value != NULL)
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
GPtrArray *
plugboard_server_editor_list_rows (PlugboardServerEditor *self,
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

void
plugboard_server_editor_clear_list (PlugboardServerEditor *self,
                                    GtkListBox            *list)
{
  g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, list);

  for (guint i = 0; i < rows->len; i++)
    gtk_list_box_remove (list, rows->pdata[i]);
}

static void
update_arg_rows (PlugboardServerEditor *self)
{
  g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, self->args_list);

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

  plugboard_server_editor_update_variable_tooltip (GTK_WIDGET (editable),
                                                   gtk_editable_get_text (editable), secret);
  plugboard_server_editor_validate (self);
}

static void
move_arg_row (PlugboardServerEditor *self,
              GtkWidget             *row,
              int                    delta,
              GtkWidget             *focus)
{
  int index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row));
  g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, self->args_list);

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

GtkWidget *
plugboard_server_editor_add_arg_row (PlugboardServerEditor *self,
                                     const char            *text)
{
  GtkWidget *row = adw_entry_row_new ();
  GtkWidget *up = make_icon_button ("go-up-symbolic", _("Move Up"));
  GtkWidget *down = make_icon_button ("go-down-symbolic", _("Move Down"));
  GtkWidget *remove = make_icon_button ("user-trash-symbolic", _("Remove Argument"));
  g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, self->args_list);

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
  plugboard_server_editor_update_variable_tooltip (row, text, FALSE);
  g_signal_connect_object (row, "changed", G_CALLBACK (on_entry_row_changed_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_list_box_insert (self->args_list, row, rows->len);
  update_arg_rows (self);

  return row;
}

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

  new_row = plugboard_server_editor_add_pair_row (self, GTK_LIST_BOX (list),
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

GtkWidget *
plugboard_server_editor_add_pair_row (PlugboardServerEditor *self,
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
  plugboard_server_editor_update_variable_tooltip (row, value, secret);

  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked_cb), self, 0);
  g_signal_connect_object (row, "changed", G_CALLBACK (on_entry_row_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (name_entry, "changed", G_CALLBACK (on_pair_name_changed_cb), row);

  if (position < 0)
    {
      g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, list);

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
      new_row = plugboard_server_editor_add_arg_row (self, "");
      gtk_widget_grab_focus (new_row);
    }
  else if (row == self->add_env_row || row == self->add_header_row)
    {
      GtkListBox *list = row == self->add_env_row ? self->env_list : self->headers_list;

      new_row = plugboard_server_editor_add_pair_row (self, list, "", "", -1);
      gtk_widget_grab_focus (g_object_get_data (G_OBJECT (new_row), "name-entry"));
    }
  else
    {
      return;
    }

  plugboard_server_editor_validate (self);
}

void
plugboard_server_editor_class_init_rows (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_list_row_activated_cb);
}
