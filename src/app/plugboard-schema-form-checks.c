/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-schema-form"

#include "config.h"

#include "plugboard-schema-form.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-schema-form-private.h"

/* What a row of PlugboardSchemaForm says beside its value: hints (bounds,
 * lengths, formats, the default), the problems the field's check finds,
 * and the Unset button of an optional field. */

/* Adds @widget to @row's suffixes, kept under @key for the updates. */
static void
row_keep_suffix (GtkWidget  *row,
                 const char *key,
                 GtkWidget  *widget)
{
  plugboard_schema_form_row_add_suffix (row, widget);
  g_object_set_data (G_OBJECT (row), key, widget);
}

/* Hints shown beside an entry: bounds, lengths, formats, the default. */
static char *
dup_hint (McpFormField *field)
{
  JsonObject *schema = mcp_form_field_get_schema (field);
  McpFormFieldKind kind = mcp_form_field_get_kind (field);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  if (schema == NULL)
    return NULL;

#define MEMBER_TEXT(name) \
  (json_object_has_member (schema, name) && JSON_NODE_HOLDS_VALUE (json_object_get_member (schema, name)) \
   ? plugboard_schema_form_dup_node_text (json_object_get_member (schema, name)) : NULL)

  if (kind == MCP_FORM_FIELD_NUMBER || kind == MCP_FORM_FIELD_INTEGER)
    {
      g_autofree char *min = MEMBER_TEXT ("minimum");
      g_autofree char *max = MEMBER_TEXT ("maximum");
      g_autofree char *xmin = MEMBER_TEXT ("exclusiveMinimum");
      g_autofree char *xmax = MEMBER_TEXT ("exclusiveMaximum");
      g_autofree char *step = MEMBER_TEXT ("multipleOf");

      /* draft-04's boolean exclusive bounds */
      if (g_strcmp0 (xmin, "true") == 0 || g_strcmp0 (xmin, "false") == 0)
        g_clear_pointer (&xmin, g_free);
      if (g_strcmp0 (xmax, "true") == 0 || g_strcmp0 (xmax, "false") == 0)
        g_clear_pointer (&xmax, g_free);

      if (min != NULL && max != NULL)
        /* Translators: the bounds of a number, "0 to 100" */
        g_ptr_array_add (parts, g_strdup_printf (_("%s to %s"), min, max));
      else if (min != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at least %s"), min));
      else if (max != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at most %s"), max));
      if (xmin != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("more than %s"), xmin));
      if (xmax != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("less than %s"), xmax));
      if (step != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("step %s"), step));
    }
  else if (kind == MCP_FORM_FIELD_STRING)
    {
      g_autofree char *min = MEMBER_TEXT ("minLength");
      g_autofree char *max = MEMBER_TEXT ("maxLength");
      const char *format = mcp_form_field_get_format (field);

      if (min != NULL && max != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("%s to %s characters"), min, max));
      else if (min != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at least %s characters"), min));
      else if (max != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at most %s characters"), max));
      if (g_strcmp0 (format, "date") == 0)
        g_ptr_array_add (parts, g_strdup (_("YYYY-MM-DD")));
      else if (g_strcmp0 (format, "date-time") == 0)
        g_ptr_array_add (parts, g_strdup (_("YYYY-MM-DDThh:mm:ssZ")));
    }
#undef MEMBER_TEXT

  if (!mcp_form_field_get_present (field))
    {
      const char *text = mcp_form_field_get_text (field);

      if (text != NULL && text[0] != '\0' && kind != MCP_FORM_FIELD_JSON)
        g_ptr_array_add (parts, g_strdup_printf (_("default %s"), text));
      else if (kind == MCP_FORM_FIELD_BOOLEAN)
        g_ptr_array_add (parts, g_strdup (_("not set")));
    }

  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

void
plugboard_schema_form_row_add_hint (GtkWidget *row)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_set_visible (label, FALSE);
  row_keep_suffix (row, DATA_HINT, label);
}

void
plugboard_schema_form_row_update_hint (GtkWidget    *row,
                                       McpFormField *field)
{
  GtkLabel *label = g_object_get_data (G_OBJECT (row), DATA_HINT);
  g_autofree char *hint = NULL;

  if (label == NULL)
    return;
  hint = dup_hint (field);
  gtk_label_set_text (label, hint != NULL ? hint : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), hint);
  gtk_widget_set_visible (GTK_WIDGET (label), hint != NULL);
}

/* The field's own problems, once there is something to check. */
void
plugboard_schema_form_row_update_problems (GtkWidget    *row,
                                           McpFormField *field)
{
  GtkWidget *icon = g_object_get_data (G_OBJECT (row), DATA_PROBLEM);
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *path = NULL;
  GString *text = NULL;
  const char *value = mcp_form_field_get_text (field);
  gboolean touched = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), DATA_TOUCHED));

  if (icon == NULL)
    return;

  if (mcp_form_field_get_present (field) && (touched || (value != NULL && value[0] != '\0')))
    {
      problems = mcp_form_field_check (field);
      path = mcp_form_field_dup_path (field);
      for (guint i = 0; i < problems->len; i++)
        {
          const char *problem = g_ptr_array_index (problems, i);

          /* "$.a.b: message": the row already says where */
          if (g_str_has_prefix (problem, path) && g_str_has_prefix (problem + strlen (path), ": "))
            problem += strlen (path) + 2;
          if (text == NULL)
            text = g_string_new (NULL);
          else
            g_string_append_c (text, '\n');
          g_string_append (text, problem);
        }
    }

  gtk_widget_set_visible (icon, text != NULL);
  gtk_widget_set_tooltip_text (icon, text != NULL ? text->str : NULL);
  if (text != NULL)
    gtk_widget_add_css_class (row, "error");
  else
    gtk_widget_remove_css_class (row, "error");
  plugboard_schema_form_row_set_description (row, field, text != NULL ? text->str : NULL);

  if (text != NULL)
    g_string_free (text, TRUE);
}

void
plugboard_schema_form_row_add_problem_icon (GtkWidget *row)
{
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

  gtk_widget_add_css_class (icon, "error");
  gtk_widget_set_visible (icon, FALSE);
  row_keep_suffix (row, DATA_PROBLEM, icon);
}

void
plugboard_schema_form_row_add_unset_button (GtkWidget    *row,
                                            McpFormField *field)
{
  g_autofree char *path = mcp_form_field_dup_path (field);
  GtkWidget *button = plugboard_schema_form_icon_button_new ("edit-clear-symbolic", _("Unset"), "form.unset", path);

  row_keep_suffix (row, DATA_UNSET, button);
}

void
plugboard_schema_form_row_update_unset (GtkWidget    *row,
                                        McpFormField *field)
{
  GtkWidget *button = g_object_get_data (G_OBJECT (row), DATA_UNSET);

  if (button != NULL)
    gtk_widget_set_visible (button, mcp_form_field_get_present (field));
}
