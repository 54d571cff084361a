/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-schema-form"

#include "config.h"

#include "plugboard-schema-form.h"

#include <glib/gi18n.h>

#include "plugboard-schema-form-private.h"

/* What PlugboardSchemaForm's ARRAY and MAP rows add to their items: Move
 * Up, Move Down and Remove on each, a map's New Key entry, and the
 * multi-select that stands for an array of choices. */

void
plugboard_schema_form_add_item_controls (GtkWidget    *row,
                                         McpFormField *item,
                                         guint         index,
                                         guint         n_items,
                                         gboolean      movable)
{
  g_autofree char *path = mcp_form_field_dup_path (item);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  if (movable)
    {
      GtkWidget *up =
        plugboard_schema_form_icon_button_new ("go-up-symbolic", _("Move Up"), "form.move-up", path);
      GtkWidget *down =
        plugboard_schema_form_icon_button_new ("go-down-symbolic", _("Move Down"), "form.move-down", path);

      /* an action helper would make them sensitive again */
      if (index == 0)
        {
          gtk_actionable_set_action_name (GTK_ACTIONABLE (up), NULL);
          gtk_widget_set_sensitive (up, FALSE);
        }
      if (index + 1 >= n_items)
        {
          gtk_actionable_set_action_name (GTK_ACTIONABLE (down), NULL);
          gtk_widget_set_sensitive (down, FALSE);
        }
      gtk_box_append (GTK_BOX (box), up);
      gtk_box_append (GTK_BOX (box), down);
    }
  gtk_box_append (GTK_BOX (box),
                  plugboard_schema_form_icon_button_new ("user-trash-symbolic",
                                                         movable ? _("Remove Item") : _("Remove Entry"),
                                                         "form.remove-item", path));
  plugboard_schema_form_row_add_suffix (row, box);
}

static void
on_new_key_apply_cb (AdwEntryRow *entry)
{
  McpFormField *field = plugboard_schema_form_row_get_field (entry);
  const char *key = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autoptr(GError) error = NULL;

  if (key[0] == '\0')
    return;
  /* On success the rows are built again, this entry with them. */
  if (mcp_form_field_add_key (field, key, &error) == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
    }
}

GtkWidget *
plugboard_schema_form_new_key_row_new (McpFormField *field)
{
  GtkWidget *entry = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (entry), _("New Key"));
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (entry), TRUE);
  plugboard_schema_form_row_set_field (entry, field);
  g_signal_connect (entry, "apply", G_CALLBACK (on_new_key_apply_cb), NULL);
  g_signal_connect (entry, "entry-activated", G_CALLBACK (on_new_key_apply_cb), NULL);
  return entry;
}

/* A multi-select (an array whose items are one of a few values, as
 * elicitation's "items": {"enum": …} or {"anyOf": [{"const", "title"}…]}):
 * one check row per value, instead of items to add one by one. */

/* The items schema as a field of its own, when it is a choice; NULL
 * otherwise. */
static McpFormField *
dup_item_choices (McpFormField *field)
{
  JsonObject *schema = mcp_form_field_get_schema (field);
  JsonNode *items = schema != NULL ? json_object_get_member (schema, "items") : NULL;
  McpFormField *choices;

  if (items == NULL || !JSON_NODE_HOLDS_OBJECT (items))
    return NULL;
  choices = mcp_form_field_new_from_schema (items);
  if (mcp_form_field_get_kind (choices) != MCP_FORM_FIELD_ENUM ||
      mcp_form_field_get_choices (choices)->len == 0 ||
      mcp_form_field_get_choices (choices)->len > 64)
    {
      g_object_unref (choices);
      return NULL;
    }
  return choices;
}

/* The position among @field's items of the one holding choice @index, or -1. */
static int
find_item_with_choice (McpFormField *field,
                       int           index)
{
  GListModel *items = mcp_form_field_get_children (field);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(McpFormField) item = g_list_model_get_item (items, i);

      if (mcp_form_field_get_kind (item) == MCP_FORM_FIELD_ENUM && mcp_form_field_get_choice (item) == index)
        return (int) i;
    }
  return -1;
}

static void
on_multi_select_toggled_cb (GtkCheckButton *check,
                            McpFormField   *field)
{
  int index = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (check), "plugboard-choice"));
  int at = find_item_with_choice (field, index);

  if (gtk_check_button_get_active (check) && at < 0)
    mcp_form_field_set_choice (mcp_form_field_add_item (field), index);
  else if (!gtk_check_button_get_active (check) && at >= 0)
    mcp_form_field_remove_item (field, (guint) at);
}

gboolean
plugboard_schema_form_fill_multi_select (GtkWidget    *container,
                                         McpFormField *field)
{
  g_autoptr(McpFormField) choices = dup_item_choices (field);
  GPtrArray *values;

  if (choices == NULL)
    return FALSE;

  values = mcp_form_field_get_choices (choices);
  for (guint i = 0; i < values->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      const char *title = mcp_form_field_get_choice_title (choices, i);
      g_autofree char *text = title != NULL ? g_strdup (title)
                                            : plugboard_schema_form_dup_choice_text (values->pdata[i]);

      /* a null value is no choice to tick */
      if (JSON_NODE_HOLDS_NULL ((JsonNode *) values->pdata[i]))
        {
          g_object_unref (g_object_ref_sink (row));
          g_object_unref (g_object_ref_sink (check));
          continue;
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), find_item_with_choice (field, (int) i) >= 0);
      g_object_set_data (G_OBJECT (check), "plugboard-choice", GINT_TO_POINTER (i));
      g_signal_connect_object (check, "toggled", G_CALLBACK (on_multi_select_toggled_cb), field, 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      plugboard_schema_form_container_add (container, row);
    }

  return TRUE;
}
