/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-schema-form"

#include "config.h"

#include "plugboard-schema-form.h"

#include <glib/gi18n.h>

#include "mcp-json-private.h"

#include "plugboard-schema-form-private.h"

/* PlugboardSchemaForm: the widget, its actions (form.add-item, …), and
 * what its rows share. The rows are in -scalars.c (one value) and
 * -containers.c (groups and expanders), what they say beside the value
 * in -checks.c. */

struct _PlugboardSchemaForm
{
  AdwBin               parent_instance;

  /* Owned references */
  McpFormField        *field;
  AdwPreferencesGroup *group;
};

G_DEFINE_FINAL_TYPE (PlugboardSchemaForm, plugboard_schema_form, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_FIELD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------ */
/* What the rows share                                                      */

McpFormField *
plugboard_schema_form_row_get_field (gpointer row)
{
  return g_object_get_data (G_OBJECT (row), DATA_FIELD);
}

void
plugboard_schema_form_row_set_field (gpointer      row,
                                     McpFormField *field)
{
  g_object_set_data_full (G_OBJECT (row), DATA_FIELD, g_object_ref (field), g_object_unref);
}

gboolean
plugboard_schema_form_row_is_syncing (gpointer row)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), DATA_SYNCING));
}

void
plugboard_schema_form_row_set_syncing (gpointer row,
                                       gboolean syncing)
{
  g_object_set_data (G_OBJECT (row), DATA_SYNCING, GINT_TO_POINTER (syncing));
}

gboolean
plugboard_schema_form_field_is_optional (McpFormField *field)
{
  McpFormField *parent = mcp_form_field_get_parent (field);

  return parent != NULL &&
         mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_OBJECT &&
         !mcp_form_field_get_required (field);
}

char *
plugboard_schema_form_dup_node_text (JsonNode *node)
{
  GString *text = g_string_new (NULL);

  mcp_json_append (text, node);
  return g_string_free (text, FALSE);
}

char *
plugboard_schema_form_dup_choice_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup (_("None"));
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return plugboard_schema_form_dup_node_text (node);
}

char *
plugboard_schema_form_dup_row_title (McpFormField *field,
                                     const char   *title)
{
  g_autofree char *escaped = g_markup_escape_text (title != NULL ? title : "", -1);

  McpFormField *parent = mcp_form_field_get_parent (field);

  /* only properties: items and map entries are always there */
  if (mcp_form_field_get_required (field) &&
      parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_OBJECT)
    return g_strdup_printf ("%s *", escaped);
  return g_steal_pointer (&escaped);
}

void
plugboard_schema_form_row_set_description (GtkWidget    *row,
                                           McpFormField *field,
                                           const char   *problems)
{
  const char *description = mcp_form_field_get_description (field);
  GString *text = g_string_new (NULL);

  if (mcp_form_field_get_required (field))
    g_string_append (text, _("Required."));
  if (description != NULL)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", description);
  if (problems != NULL)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", problems);

  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text->str,
                                  -1);
  g_string_free (text, TRUE);
}

void
plugboard_schema_form_row_add_suffix (GtkWidget *row,
                                      GtkWidget *widget)
{
  GtkBox *suffixes = g_object_get_data (G_OBJECT (row), DATA_SUFFIXES);

  gtk_widget_set_valign (widget, GTK_ALIGN_CENTER);
  if (suffixes != NULL)
    gtk_box_append (suffixes, widget);
  else if (ADW_IS_ENTRY_ROW (row))
    adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), widget);
  else if (ADW_IS_EXPANDER_ROW (row))
    adw_expander_row_add_action (ADW_EXPANDER_ROW (row), widget);
  else if (ADW_IS_ACTION_ROW (row))
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), widget);
  else
    g_assert_not_reached ();
}

GtkWidget *
plugboard_schema_form_icon_button_new (const char *icon_name,
                                       const char *tooltip,
                                       const char *action_name,
                                       const char *path)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", path);
  return button;
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* A union's variant has the union's path: @kind tells them apart (-1: the
 * first one). */
static McpFormField *
find_field (McpFormField *field,
            const char   *path,
            int           kind)
{
  g_autofree char *own = mcp_form_field_dup_path (field);
  GListModel *children;
  guint n;

  if (g_strcmp0 (own, path) == 0 && (kind < 0 || (int) mcp_form_field_get_kind (field) == kind))
    return field;

  children = mcp_form_field_get_children (field);
  n = g_list_model_get_n_items (children);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) child = g_list_model_get_item (children, i);
      McpFormField *found = find_field (child, path, kind);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
index_in_parent (McpFormField *field)
{
  GListModel *siblings = mcp_form_field_get_children (mcp_form_field_get_parent (field));
  guint n = g_list_model_get_n_items (siblings);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) sibling = g_list_model_get_item (siblings, i);

      if (sibling == field)
        return i;
    }
  return G_MAXUINT;
}

static void
form_action_cb (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (widget);
  gboolean adding = g_str_equal (action_name, "form.add-item");
  McpFormField *field = find_field (self->field, g_variant_get_string (parameter, NULL),
                                    adding ? MCP_FORM_FIELD_ARRAY : -1);
  McpFormField *parent;
  guint index;

  if (field == NULL)
    {
      g_debug ("%s: no field at %s", action_name, g_variant_get_string (parameter, NULL));
      return;
    }

  if (adding)
    {
      mcp_form_field_add_item (field);
      return;
    }
  if (g_str_equal (action_name, "form.unset"))
    {
      mcp_form_field_set_present (field, FALSE);
      return;
    }

  parent = mcp_form_field_get_parent (field);
  if (parent == NULL)
    return;
  index = index_in_parent (field);
  if (index == G_MAXUINT)
    return;

  if (g_str_equal (action_name, "form.remove-item"))
    mcp_form_field_remove_item (parent, index);
  else if (g_str_equal (action_name, "form.move-up") && index > 0)
    mcp_form_field_move_item (parent, index, index - 1);
  else if (g_str_equal (action_name, "form.move-down") &&
           index + 1 < g_list_model_get_n_items (mcp_form_field_get_children (parent)))
    mcp_form_field_move_item (parent, index, index + 1);
}

/* ------------------------------------------------------------------------ */
/* The widget                                                               */

static void
plugboard_schema_form_set_field (PlugboardSchemaForm *self,
                                 McpFormField        *field)
{
  GtkWidget *group;

  g_return_if_fail (field == NULL || MCP_IS_FORM_FIELD (field));

  if (!g_set_object (&self->field, field))
    return;

  group = adw_preferences_group_new ();
  self->group = ADW_PREFERENCES_GROUP (group);
  adw_bin_set_child (ADW_BIN (self), group);
  if (field != NULL)
    {
      plugboard_schema_form_container_init (group, field);
      plugboard_schema_form_fill_rows (group, field);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIELD]);
}

static void
plugboard_schema_form_dispose (GObject *object)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (object);

  self->group = NULL;
  adw_bin_set_child (ADW_BIN (self), NULL);
  g_clear_object (&self->field);

  G_OBJECT_CLASS (plugboard_schema_form_parent_class)->dispose (object);
}

static void
plugboard_schema_form_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (object);

  switch (prop_id)
    {
    case PROP_FIELD:
      g_value_set_object (value, self->field);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_schema_form_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (object);

  switch (prop_id)
    {
    case PROP_FIELD:
      plugboard_schema_form_set_field (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_schema_form_class_init (PlugboardSchemaFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_schema_form_dispose;
  object_class->get_property = plugboard_schema_form_get_property;
  object_class->set_property = plugboard_schema_form_set_property;

  properties[PROP_FIELD] =
    g_param_spec_object ("field", NULL, NULL, MCP_TYPE_FORM_FIELD,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "form.add-item", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.remove-item", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.move-up", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.move-down", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.unset", "s", form_action_cb);
}

static void
plugboard_schema_form_init (PlugboardSchemaForm *self)
{
}

GtkWidget *
plugboard_schema_form_new (McpFormField *root)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (root), NULL);

  return g_object_new (PLUGBOARD_TYPE_SCHEMA_FORM, "field", root, NULL);
}

McpFormField *
plugboard_schema_form_get_field (PlugboardSchemaForm *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SCHEMA_FORM (self), NULL);

  return self->field;
}

GtkWidget *
plugboard_schema_form_find_row (PlugboardSchemaForm *self,
                                const char          *name)
{
  GPtrArray *rows;

  g_return_val_if_fail (PLUGBOARD_IS_SCHEMA_FORM (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (self->group == NULL || self->field == NULL ||
      mcp_form_field_get_kind (self->field) != MCP_FORM_FIELD_OBJECT)
    return NULL;

  rows = g_object_get_data (G_OBJECT (self->group), DATA_ROWS);
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);
      McpFormField *field = plugboard_schema_form_row_get_field (row);

      if (field != NULL && mcp_form_field_get_parent (field) == self->field &&
          g_strcmp0 (mcp_form_field_get_name (field), name) == 0)
        return row;
    }

  return NULL;
}
