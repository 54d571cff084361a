/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"
#include "mcp-form-field-private.h"

/* McpFormField: loading a JSON value into the fields
 * (mcp_form_field_set_from_json); what a field cannot hold turns it into
 * a JSON field. */

static gboolean
text_equal (JsonNode *a,
            JsonNode *b)
{
  g_autofree char *x = mcp_form_field_node_to_text (a);
  g_autofree char *y = mcp_form_field_node_to_text (b);

  return g_str_equal (x, y);
}

static void
become_json (McpFormField *self,
             JsonNode     *value)
{
  mcp_form_field_clear_children (self);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_clear_pointer (&self->choice_titles, g_ptr_array_unref);
  g_clear_pointer (&self->const_value, json_node_unref);
  g_clear_pointer (&self->variants, g_ptr_array_unref);
  g_clear_pointer (&self->variant_titles, g_strfreev);
  self->kind = MCP_FORM_FIELD_JSON;
  self->deferred = FALSE;
  self->is_null = FALSE;
  self->choice = -1;
  g_free (self->text);
  self->text = value != NULL ? mcp_form_field_node_to_text (value) : g_strdup ("");
  self->has_value = value != NULL;
  mcp_form_field_emit_structure_changed (self);
}


static void
load_object (McpFormField *self,
             JsonNode     *value)
{
  JsonObject *object = json_node_get_object (value);
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  guint n;

  /* a member the form has no field for: the whole object as JSON */
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    if (mcp_form_field_get_child (self, name) == NULL)
      {
        become_json (self, value);
        return;
      }

  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      member = json_object_get_member (object, child->name);
      if (member != NULL)
        mcp_form_field_load_value (child, member);
      else
        child->present = FALSE;
    }
}

/* Whether the value validates against variant @index and, with @exact,
 * whether an object value has only members the variant names. */
static gboolean
variant_fits (McpFormField *self,
              guint         index,
              JsonNode     *value,
              gboolean      exact)
{
  JsonNode *variant = g_ptr_array_index (self->variants, index);
  JsonNode *resolved;
  JsonNode *properties;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (mcp_form_field_check_value (self, variant, value, NULL) != MCP_JSON_SCHEMA_VALID)
    return FALSE;
  if (!exact || !JSON_NODE_HOLDS_OBJECT (value))
    return TRUE;

  resolved = mcp_json_schema_resolve (self->root, variant, NULL);
  if (resolved == NULL || !JSON_NODE_HOLDS_OBJECT (resolved))
    return FALSE;
  properties = json_object_get_member (json_node_get_object (resolved), "properties");
  if (properties == NULL || !JSON_NODE_HOLDS_OBJECT (properties))
    return FALSE;

  json_object_iter_init (&iter, json_node_get_object (value));
  while (json_object_iter_next (&iter, &name, &member))
    if (!json_object_has_member (json_node_get_object (properties), name))
      return FALSE;

  return TRUE;
}

void
mcp_form_field_load_value (McpFormField *self,
                           JsonNode     *value)
{
  GType type = JSON_NODE_HOLDS_VALUE (value) ? json_node_get_value_type (value) : G_TYPE_INVALID;
  gboolean is_number = type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || type == G_TYPE_INT;

  if (self->deferred)
    mcp_form_field_build_children (self);

  self->present = TRUE;
  self->has_value = TRUE;
  self->is_null = FALSE;

  if (JSON_NODE_HOLDS_NULL (value) && self->nullable &&
      self->kind != MCP_FORM_FIELD_ENUM && self->kind != MCP_FORM_FIELD_UNION &&
      self->kind != MCP_FORM_FIELD_JSON)
    {
      self->is_null = TRUE;
      return;
    }

  switch (self->kind)
    {
    case MCP_FORM_FIELD_STRING:
      if (type != G_TYPE_STRING)
        break;
      g_free (self->text);
      self->text = g_strdup (json_node_get_string (value));
      return;

    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
      if (!is_number)
        break;
      if (self->kind == MCP_FORM_FIELD_INTEGER && type == G_TYPE_DOUBLE)
        break;  /* 2.0 where an integer is expected: kept as written, in JSON */
      g_free (self->text);
      self->text = mcp_form_field_node_to_text (value);
      return;

    case MCP_FORM_FIELD_BOOLEAN:
      if (type != G_TYPE_BOOLEAN)
        break;
      self->boolean = json_node_get_boolean (value);
      return;

    case MCP_FORM_FIELD_NULL:
      if (!JSON_NODE_HOLDS_NULL (value))
        break;
      return;

    case MCP_FORM_FIELD_CONST:
      if (!text_equal (value, self->const_value))
        break;
      return;

    case MCP_FORM_FIELD_ENUM:
      for (guint i = 0; i < self->choices->len; i++)
        if (text_equal (value, g_ptr_array_index (self->choices, i)))
          {
            self->choice = i;
            return;
          }
      break;

    case MCP_FORM_FIELD_OBJECT:
      if (!JSON_NODE_HOLDS_OBJECT (value))
        break;
      load_object (self, value);
      return;

    case MCP_FORM_FIELD_ARRAY:
      if (!JSON_NODE_HOLDS_ARRAY (value))
        break;
      mcp_form_field_clear_children (self);
      for (guint i = 0; i < json_array_get_length (json_node_get_array (value)); i++)
        {
          JsonNode *items = json_object_get_member (self->schema, "items");
          g_autoptr(McpFormField) child = mcp_form_field_make_child (self, items, NULL, TRUE);

          g_list_store_append (self->children, child);
          mcp_form_field_load_value (child, json_array_get_element (json_node_get_array (value), i));
        }
      mcp_form_field_emit_structure_changed (self);
      return;

    case MCP_FORM_FIELD_MAP:
      if (!JSON_NODE_HOLDS_OBJECT (value))
        break;
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        mcp_form_field_clear_children (self);
        json_object_iter_init_ordered (&iter, json_node_get_object (value));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            JsonNode *additional = json_object_get_member (self->schema, "additionalProperties");
            g_autoptr(McpFormField) child =
              mcp_form_field_make_child (self, additional != NULL && JSON_NODE_HOLDS_OBJECT (additional) ? additional : NULL,
                                         name, TRUE);

            g_list_store_append (self->children, child);
            mcp_form_field_load_value (child, member);
          }
        mcp_form_field_emit_structure_changed (self);
      }
      return;

    case MCP_FORM_FIELD_UNION:
      {
        int chosen = -1;

        /* A variant that names every member of the value beats one that
         * only accepts it (a variant without additionalProperties: false
         * accepts any object, and would turn the value into raw JSON);
         * then the current variant beats the others. */
        for (int pass = 0; pass < 2 && chosen < 0; pass++)
          {
            gboolean exact = pass == 0;

            if (variant_fits (self, self->variant, value, exact))
              chosen = self->variant;
            for (guint i = 0; i < self->variants->len && chosen < 0; i++)
              if (variant_fits (self, i, value, exact))
                chosen = i;
          }
        if (chosen < 0)
          break;
        if ((guint) chosen != self->variant)
          {
            self->variant = chosen;
            mcp_form_field_clear_children (self);
            mcp_form_field_build_union_child (self);
            mcp_form_field_emit_structure_changed (self);
          }
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), 0);

          mcp_form_field_load_value (child, value);
        }
      }
      return;

    case MCP_FORM_FIELD_JSON:
      g_free (self->text);
      self->text = mcp_form_field_node_to_text (value);
      return;

    default:
      g_assert_not_reached ();
    }

  /* what this kind cannot hold */
  become_json (self, value);
  self->present = TRUE;
}

void
mcp_form_field_set_from_json (McpFormField *self,
                              JsonNode     *value)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (value != NULL);
  mcp_form_field_budget_start (self);

  mcp_form_field_load_value (self, value);
  mcp_form_field_mark_present (self);
  mcp_form_field_emit_structure_changed (self);
  mcp_form_field_emit_changed (self);
}
