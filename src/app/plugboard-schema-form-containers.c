/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-schema-form"

#include "config.h"

#include "plugboard-schema-form.h"

#include <glib/gi18n.h>

#include "plugboard-schema-form-private.h"

/* PlugboardSchemaForm's containers: the root group and the expander rows
 * of OBJECT, ARRAY, MAP and UNION, which build their rows from their
 * field's children and again when those change; items' controls, the
 * multi-select, and the row each kind of field gets. */

static GtkWidget *build_field_row (McpFormField *field,
                                   const char   *title);

/* ------------------------------------------------------------------------ */
/* Containers                                                               */

void
plugboard_schema_form_container_add (GtkWidget *container,
                                     GtkWidget *row)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (container), DATA_ROWS);

  if (ADW_IS_PREFERENCES_GROUP (container))
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (container), row);
  else
    adw_expander_row_add_row (ADW_EXPANDER_ROW (container), row);
  g_ptr_array_add (rows, row);
}

static void
container_clear (GtkWidget *container)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (container), DATA_ROWS);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (ADW_IS_PREFERENCES_GROUP (container))
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (container), row);
      else
        adw_expander_row_remove (ADW_EXPANDER_ROW (container), row);
    }
  g_ptr_array_set_size (rows, 0);
}

static void update_expander_header (GtkWidget    *expander,
                                    McpFormField *field);

static void
container_refill (GtkWidget *container)
{
  McpFormField *field = plugboard_schema_form_row_get_field (container);

  container_clear (container);
  plugboard_schema_form_fill_rows (container, field);
  if (ADW_IS_EXPANDER_ROW (container))
    update_expander_header (container, field);
}

static gboolean
refill_idle_cb (gpointer user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(GtkWidget) container = g_weak_ref_get (ref);

  if (container != NULL)
    {
      g_object_set_data (G_OBJECT (container), DATA_REFILL, NULL);
      container_refill (container);
    }
  return G_SOURCE_REMOVE;
}

static void
free_weak_ref (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* Later, not now: the row whose signal changed the model (a variant chosen
 * in a combo, a key applied in an entry) is among the rows replaced, and
 * must not be destroyed while it emits. */
static void
schedule_refill (GtkWidget *container)
{
  GWeakRef *ref;

  if (g_object_get_data (G_OBJECT (container), DATA_REFILL) != NULL)
    return;

  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, container);
  g_object_set_data (G_OBJECT (container), DATA_REFILL, GINT_TO_POINTER (TRUE));
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, refill_idle_cb, ref, free_weak_ref);
}

static void
on_container_structure_changed_cb (McpFormField *field,
                                   GtkWidget    *container)
{
  schedule_refill (container);
}

void
plugboard_schema_form_container_init (GtkWidget    *container,
                                      McpFormField *field)
{
  plugboard_schema_form_row_set_field (container, field);
  g_object_set_data_full (G_OBJECT (container), DATA_ROWS, g_ptr_array_new (),
                          (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_object (field, "structure-changed",
                           G_CALLBACK (on_container_structure_changed_cb), container, 0);
}

/* A scalar that turned into a JSON field: the rows around it are built
 * again, so it gets the editor. */
static void
on_scalar_structure_changed_cb (McpFormField *field,
                                GtkWidget    *row)
{
  for (GtkWidget *widget = gtk_widget_get_parent (row); widget != NULL; widget = gtk_widget_get_parent (widget))
    if (g_object_get_data (G_OBJECT (widget), DATA_ROWS) != NULL)
      {
        schedule_refill (widget);
        return;
      }
}

/* ------------------------------------------------------------------------ */
/* OBJECT, ARRAY, MAP, UNION: expander rows                                 */

static void
update_expander_header (GtkWidget    *expander,
                        McpFormField *field)
{
  AdwExpanderRow *row = ADW_EXPANDER_ROW (expander);
  const char *description = mcp_form_field_get_description (field);
  McpFormFieldKind kind = mcp_form_field_get_kind (field);
  g_autofree char *subtitle = NULL;

  if (description != NULL)
    {
      subtitle = g_markup_escape_text (description, -1);
    }
  else if (kind == MCP_FORM_FIELD_ARRAY || kind == MCP_FORM_FIELD_MAP)
    {
      guint n = g_list_model_get_n_items (mcp_form_field_get_children (field));

      if (kind == MCP_FORM_FIELD_ARRAY)
        subtitle = g_strdup_printf (ngettext ("%u item", "%u items", n), n);
      else
        subtitle = g_strdup_printf (ngettext ("%u entry", "%u entries", n), n);
    }
  adw_expander_row_set_subtitle (row, subtitle != NULL ? subtitle : "");

  if (adw_expander_row_get_show_enable_switch (row) &&
      adw_expander_row_get_enable_expansion (row) != mcp_form_field_get_present (field))
    {
      plugboard_schema_form_row_set_syncing (expander, TRUE);
      adw_expander_row_set_enable_expansion (row, mcp_form_field_get_present (field));
      plugboard_schema_form_row_set_syncing (expander, FALSE);
    }
}

static void
on_enable_expansion_cb (AdwExpanderRow *row)
{
  McpFormField *field = plugboard_schema_form_row_get_field (row);

  if (plugboard_schema_form_row_is_syncing (row))
    return;
  mcp_form_field_set_present (field, adw_expander_row_get_enable_expansion (row));
}

static GtkWidget *
expander_row_new (McpFormField *field,
                  const char   *title)
{
  GtkWidget *row = adw_expander_row_new ();
  g_autofree char *row_title = plugboard_schema_form_dup_row_title (field, title);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  plugboard_schema_form_container_init (row, field);
  plugboard_schema_form_row_set_description (row, field, NULL);

  if (plugboard_schema_form_field_is_optional (field))
    {
      adw_expander_row_set_show_enable_switch (ADW_EXPANDER_ROW (row), TRUE);
      adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (row), mcp_form_field_get_present (field));
      g_signal_connect (row, "notify::enable-expansion", G_CALLBACK (on_enable_expansion_cb), NULL);
    }
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), mcp_form_field_get_present (field));

  plugboard_schema_form_fill_rows (row, field);
  update_expander_header (row, field);
  g_signal_connect_object (field, "changed", G_CALLBACK (update_expander_header), row, G_CONNECT_SWAPPED);
  return row;
}

static void
on_variant_selected_cb (AdwComboRow *row)
{
  guint selected = adw_combo_row_get_selected (row);

  if (selected != GTK_INVALID_LIST_POSITION)
    mcp_form_field_set_variant (plugboard_schema_form_row_get_field (row), selected);
}

void
plugboard_schema_form_fill_rows (GtkWidget    *container,
                                 McpFormField *field)
{
  GListModel *children = mcp_form_field_get_children (field);
  guint n = g_list_model_get_n_items (children);
  g_autofree char *path = mcp_form_field_dup_path (field);

  switch (mcp_form_field_get_kind (field))
    {
    case MCP_FORM_FIELD_OBJECT:
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (children, i);

          plugboard_schema_form_container_add (container, build_field_row (child, NULL));
        }
      if (n == 0 && ADW_IS_PREFERENCES_GROUP (container))
        {
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No values to fill in"));
          gtk_widget_add_css_class (row, "dim-label");
          plugboard_schema_form_container_add (container, row);
        }
      break;

    case MCP_FORM_FIELD_ARRAY:
      if (plugboard_schema_form_fill_multi_select (container, field))
        break;
      {
        GtkWidget *add = adw_action_row_new ();
        GtkWidget *icon = gtk_image_new_from_icon_name ("list-add-symbolic");

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) item = g_list_model_get_item (children, i);
            GtkWidget *row = build_field_row (item, NULL);

            plugboard_schema_form_add_item_controls (row, item, i, n, TRUE);
            plugboard_schema_form_container_add (container, row);
          }

        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (add), _("_Add Item"));
        adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (add), TRUE);
        adw_action_row_add_prefix (ADW_ACTION_ROW (add), icon);
        gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (add), TRUE);
        gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "form.add-item");
        gtk_actionable_set_action_target (GTK_ACTIONABLE (add), "s", path);
        plugboard_schema_form_container_add (container, add);
      }
      break;

    case MCP_FORM_FIELD_MAP:
      {
        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) value = g_list_model_get_item (children, i);
            GtkWidget *row = build_field_row (value, NULL);

            plugboard_schema_form_add_item_controls (row, value, i, n, FALSE);
            plugboard_schema_form_container_add (container, row);
          }

        plugboard_schema_form_container_add (container, plugboard_schema_form_new_key_row_new (field));
      }
      break;

    case MCP_FORM_FIELD_UNION:
      {
        GtkWidget *chooser = adw_combo_row_new ();
        g_autoptr(GtkStringList) model =
          gtk_string_list_new ((const char * const *) mcp_form_field_get_variant_titles (field));
        g_autoptr(McpFormField) child = n > 0 ? g_list_model_get_item (children, 0) : NULL;

        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (chooser), _("Type"));
        adw_combo_row_set_model (ADW_COMBO_ROW (chooser), G_LIST_MODEL (model));
        adw_combo_row_set_selected (ADW_COMBO_ROW (chooser), mcp_form_field_get_variant (field));
        plugboard_schema_form_row_set_field (chooser, field);
        /* Choosing a variant replaces the child: the rows are built again. */
        g_signal_connect (chooser, "notify::selected", G_CALLBACK (on_variant_selected_cb), NULL);
        plugboard_schema_form_container_add (container, chooser);

        if (child != NULL && mcp_form_field_get_kind (child) == MCP_FORM_FIELD_OBJECT)
          {
            GListModel *members = mcp_form_field_get_children (child);

            /* The variant's properties inline; its own changes rebuild here. */
            g_signal_handlers_disconnect_by_func (child, on_container_structure_changed_cb, container);
            g_signal_connect_object (child, "structure-changed",
                                     G_CALLBACK (on_container_structure_changed_cb), container, 0);
            for (guint i = 0; i < g_list_model_get_n_items (members); i++)
              {
                g_autoptr(McpFormField) property = g_list_model_get_item (members, i);

                plugboard_schema_form_container_add (container, build_field_row (property, NULL));
              }
          }
        else if (child != NULL)
          {
            plugboard_schema_form_container_add (container, build_field_row (child, NULL));
          }
      }
      break;

    case MCP_FORM_FIELD_STRING:
    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
    case MCP_FORM_FIELD_BOOLEAN:
    case MCP_FORM_FIELD_NULL:
    case MCP_FORM_FIELD_CONST:
    case MCP_FORM_FIELD_ENUM:
    case MCP_FORM_FIELD_JSON:
    default:
      /* the root, or a composite field that turned into JSON */
      plugboard_schema_form_container_add (container, build_field_row (field, NULL));
      break;
    }
}

static char *
dup_field_title (McpFormField *field)
{
  McpFormField *parent = mcp_form_field_get_parent (field);
  const char *title = mcp_form_field_get_title (field);

  if (parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_MAP)
    return g_strdup (mcp_form_field_get_name (field));

  if (parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_ARRAY)
    {
      GListModel *items = mcp_form_field_get_children (parent);
      guint n = g_list_model_get_n_items (items);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) item = g_list_model_get_item (items, i);

          if (item == field)
            {
              /* Translators: an item of a list in a form; %u is its number */
              return g_strdup_printf (_("Item %u"), i + 1);
            }
        }
    }

  if (parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_UNION)
    {
      const char * const *titles = mcp_form_field_get_variant_titles (parent);

      if (title == NULL && titles != NULL)
        return g_strdup (titles[mcp_form_field_get_variant (parent)]);
    }

  return g_strdup (title != NULL ? title : _("Value"));
}

static GtkWidget *
build_field_row (McpFormField *field,
                 const char   *title)
{
  g_autofree char *default_title = title == NULL ? dup_field_title (field) : NULL;
  GtkWidget *row = NULL;

  if (title == NULL)
    title = default_title;

  switch (mcp_form_field_get_kind (field))
    {
    case MCP_FORM_FIELD_STRING:
    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
      row = plugboard_schema_form_entry_row_new (field, title);
      break;

    case MCP_FORM_FIELD_BOOLEAN:
      row = plugboard_schema_form_switch_row_new (field, title);
      break;

    case MCP_FORM_FIELD_NULL:
    case MCP_FORM_FIELD_CONST:
      row = plugboard_schema_form_fixed_row_new (field, title);
      break;

    case MCP_FORM_FIELD_ENUM:
      row = plugboard_schema_form_combo_row_new (field, title);
      break;

    case MCP_FORM_FIELD_JSON:
      row = plugboard_schema_form_json_row_new (field, title);
      break;

    case MCP_FORM_FIELD_OBJECT:
    case MCP_FORM_FIELD_ARRAY:
    case MCP_FORM_FIELD_MAP:
    case MCP_FORM_FIELD_UNION:
    default:
      return expander_row_new (field, title);
    }

  g_signal_connect_object (field, "structure-changed",
                           G_CALLBACK (on_scalar_structure_changed_cb), row, 0);
  return row;
}
