/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"
#include "mcp-form-field-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpFormField: what the person changes — presence, text, booleans,
 * choices, array items, map keys and union variants. */

static gboolean
must_be_present (McpFormField *self)
{
  return self->parent == NULL ||
         self->parent->kind == MCP_FORM_FIELD_ARRAY ||
         self->parent->kind == MCP_FORM_FIELD_MAP ||
         self->parent->kind == MCP_FORM_FIELD_UNION;
}

void
mcp_form_field_set_present (McpFormField *self,
                            gboolean      present)
{
  gboolean built;

  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  mcp_form_field_budget_start (self);

  if (!present && (self->required || must_be_present (self)))
    return;
  if (!!present == self->present)
    return;

  built = present && self->deferred;
  if (present)
    mcp_form_field_mark_present (self);
  else
    self->present = FALSE;
  if (built)
    mcp_form_field_emit_structure_changed (self);
  mcp_form_field_emit_changed (self);
}

void
mcp_form_field_include_defaults (McpFormField *self)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  mcp_form_field_budget_start (self);

  if (self->has_default && !self->present)
    mcp_form_field_set_present (self, TRUE);
  if (self->deferred || self->children == NULL)
    return;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->children)); i++)
    {
      g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      mcp_form_field_include_defaults (child);
    }
}

void
mcp_form_field_set_text (McpFormField *self,
                         const char   *text)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (text != NULL);
  mcp_form_field_budget_start (self);

  g_free (self->text);
  self->text = g_strdup (text);
  self->has_value = TRUE;
  self->is_null = FALSE;
  mcp_form_field_mark_present (self);
  mcp_form_field_emit_changed (self);
}

void
mcp_form_field_set_boolean (McpFormField *self,
                            gboolean      value)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  mcp_form_field_budget_start (self);

  self->boolean = !!value;
  self->has_value = TRUE;
  self->is_null = FALSE;
  mcp_form_field_mark_present (self);
  mcp_form_field_emit_changed (self);
}

void
mcp_form_field_set_choice (McpFormField *self,
                           int           index)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (self->kind == MCP_FORM_FIELD_ENUM);
  g_return_if_fail (index >= -1 && (index < 0 || (guint) index < self->choices->len));
  mcp_form_field_budget_start (self);

  self->choice = index;
  self->has_value = index >= 0;
  if (index >= 0)
    mcp_form_field_mark_present (self);
  mcp_form_field_emit_changed (self);
}

/* Arrays and maps */

/* Appends a new item or value (always present, so a deferred one is built
 * now) and makes @self present. */
static McpFormField *
append_child (McpFormField *self,
              McpFormField *child)
{
  if (child->deferred)
    mcp_form_field_build_children (child);
  child->present = TRUE;
  g_list_store_append (self->children, child);
  mcp_form_field_mark_present (self);
  mcp_form_field_emit_structure_changed (self);
  mcp_form_field_emit_changed (self);
  return child;
}

McpFormField *
mcp_form_field_add_item (McpFormField *self)
{
  g_autoptr(McpFormField) child = NULL;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  g_return_val_if_fail (self->kind == MCP_FORM_FIELD_ARRAY, NULL);
  mcp_form_field_budget_start (self);

  child = mcp_form_field_make_child (self, json_object_get_member (self->schema, "items"), NULL, TRUE);
  return append_child (self, child);
}

void
mcp_form_field_remove_item (McpFormField *self,
                            guint         index)
{
  g_autoptr(McpFormField) child = NULL;

  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (self->kind == MCP_FORM_FIELD_ARRAY || self->kind == MCP_FORM_FIELD_MAP);
  g_return_if_fail (index < g_list_model_get_n_items (G_LIST_MODEL (self->children)));

  child = g_list_model_get_item (G_LIST_MODEL (self->children), index);
  child->parent = NULL;
  g_list_store_remove (self->children, index);
  mcp_form_field_emit_structure_changed (self);
  mcp_form_field_emit_changed (self);
}

void
mcp_form_field_move_item (McpFormField *self,
                          guint         from,
                          guint         to)
{
  g_autoptr(McpFormField) child = NULL;
  guint n;

  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (self->kind == MCP_FORM_FIELD_ARRAY || self->kind == MCP_FORM_FIELD_MAP);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  g_return_if_fail (from < n && to < n);

  if (from == to)
    return;
  child = g_list_model_get_item (G_LIST_MODEL (self->children), from);
  g_list_store_remove (self->children, from);
  g_list_store_insert (self->children, to, child);
  mcp_form_field_emit_structure_changed (self);
  mcp_form_field_emit_changed (self);
}

McpFormField *
mcp_form_field_add_key (McpFormField  *self,
                        const char    *key,
                        GError       **error)
{
  g_autoptr(McpFormField) child = NULL;
  JsonNode *additional;
  g_autofree char *path = NULL;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  g_return_val_if_fail (self->kind == MCP_FORM_FIELD_MAP, NULL);
  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  mcp_form_field_budget_start (self);

  if (mcp_form_field_get_child (self, key) != NULL)
    {
      path = mcp_form_field_dup_path (self);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: the first %s is the field's place in the arguments (a JSON path such as “$.env”), the second the key */
                   _("%s already has a key “%s”; choose another name"), path, key);
      return NULL;
    }

  additional = json_object_get_member (self->schema, "additionalProperties");
  child = mcp_form_field_make_child (self, additional != NULL && JSON_NODE_HOLDS_OBJECT (additional) ? additional : NULL,
                                     key, TRUE);
  return append_child (self, child);
}

void
mcp_form_field_set_variant (McpFormField *self,
                            guint         index)
{
  g_autoptr(McpFormField) old = NULL;
  g_autoptr(McpFormField) child = NULL;

  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (self->kind == MCP_FORM_FIELD_UNION);
  g_return_if_fail (index < self->variants->len);
  mcp_form_field_budget_start (self);

  if (index == self->variant)
    return;

  old = g_list_model_get_item (G_LIST_MODEL (self->children), 0);
  self->variant = index;
  mcp_form_field_clear_children (self);
  mcp_form_field_build_union_child (self);
  child = g_list_model_get_item (G_LIST_MODEL (self->children), 0);

  /* Keep what fits: the same-named properties whose values the new
   * variant accepts, or the whole value when it does. */
  if (old != NULL && old->kind == MCP_FORM_FIELD_OBJECT && child->kind == MCP_FORM_FIELD_OBJECT)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (old->children));

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) from = g_list_model_get_item (G_LIST_MODEL (old->children), i);
          McpFormField *to = mcp_form_field_get_child (child, from->name);
          g_autoptr(JsonNode) value = NULL;

          if (to == NULL || !from->present || from->kind == MCP_FORM_FIELD_CONST)
            continue;
          value = mcp_form_field_to_json (from, NULL);
          if (value != NULL && to->schema_node != NULL &&
              mcp_form_field_check_value (self, to->schema_node, value, NULL) == MCP_JSON_SCHEMA_VALID)
            mcp_form_field_load_value (to, value);
        }
    }
  else if (old != NULL && old->present && old->has_value && child->schema_node != NULL)
    {
      g_autoptr(JsonNode) value = mcp_form_field_to_json (old, NULL);

      if (value != NULL && mcp_form_field_check_value (self, child->schema_node, value, NULL) == MCP_JSON_SCHEMA_VALID)
        mcp_form_field_load_value (child, value);
    }

  mcp_form_field_mark_present (self);
  mcp_form_field_emit_structure_changed (self);
  mcp_form_field_emit_changed (self);
}
