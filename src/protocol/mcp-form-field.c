/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"
#include "mcp-form-field-private.h"

#include "mcp-json-private.h"

/* McpFormField: the object, the helpers its parts share, and its getters.
 * The parts: mcp-form-field-build.c, -load.c, -edit.c, -output.c. */

enum {
  CHANGED,
  STRUCTURE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpFormField, mcp_form_field, G_TYPE_OBJECT)

static void
mcp_form_field_finalize (GObject *object)
{
  McpFormField *self = (McpFormField *)object;

  g_clear_object (&self->children);
  g_clear_pointer (&self->root, json_node_unref);
  g_clear_pointer (&self->schema, json_object_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_clear_pointer (&self->choice_titles, g_ptr_array_unref);
  g_clear_pointer (&self->const_value, json_node_unref);
  g_clear_pointer (&self->variants, g_ptr_array_unref);
  g_clear_pointer (&self->variant_titles, g_strfreev);

  G_OBJECT_CLASS (mcp_form_field_parent_class)->finalize (object);
}

static void
mcp_form_field_class_init (McpFormFieldClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_form_field_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[STRUCTURE_CHANGED] =
    g_signal_new ("structure-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mcp_form_field_init (McpFormField *self)
{
  self->children = g_list_store_new (MCP_TYPE_FORM_FIELD);
  self->choice = -1;
}

/* Helpers */

McpFormField *
mcp_form_field_top (McpFormField *self)
{
  while (self->parent != NULL)
    self = self->parent;
  return self;
}

void
mcp_form_field_budget_start (McpFormField *self)
{
  McpFormField *top = mcp_form_field_top (self);

  top->built = 0;
  top->check_budget = MCP_JSON_SCHEMA_MAX_STEPS;
}

McpJsonSchemaOutcome
mcp_form_field_check_value (McpFormField  *self,
                            JsonNode      *schema,
                            JsonNode      *value,
                            GPtrArray    **problems)
{
  return mcp_json_schema_check (self->root, schema, value, &mcp_form_field_top (self)->check_budget, problems);
}

gboolean
mcp_form_field_node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

char *
mcp_form_field_node_to_text (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node);
  return g_string_free (out, FALSE);
}

void
mcp_form_field_emit_changed (McpFormField *self)
{
  for (McpFormField *field = self; field != NULL; field = field->parent)
    g_signal_emit (field, signals[CHANGED], 0);
}

void
mcp_form_field_emit_structure_changed (McpFormField *self)
{
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
}

void
mcp_form_field_clear_children (McpFormField *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      child->parent = NULL;
    }
  g_list_store_remove_all (self->children);
}

/* Present, and every ancestor too: a value typed deep in an optional
 * object makes that object part of the arguments. */
void
mcp_form_field_mark_present (McpFormField *self)
{
  for (McpFormField *field = self; field != NULL; field = field->parent)
    {
      if (field->deferred)
        mcp_form_field_build_children (field);
      field->present = TRUE;
    }
}

/* Accessors */

gboolean
mcp_form_field_get_too_complex (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->too_complex;
}

McpFormFieldKind
mcp_form_field_get_kind (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), MCP_FORM_FIELD_JSON);
  return self->kind;
}

McpFormField *
mcp_form_field_get_parent (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return self->parent;
}

const char *
mcp_form_field_get_name (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return self->name;
}


static void
append_path (McpFormField *self,
             GString      *path)
{
  McpFormField *parent = self->parent;

  if (parent == NULL)
    {
      g_string_append_c (path, '$');
      return;
    }
  append_path (parent, path);
  if (parent->kind == MCP_FORM_FIELD_ARRAY)
    {
      guint position = 0;

      if (g_list_store_find (parent->children, self, &position))
        g_string_append_printf (path, "[%u]", position);
    }
  else if ((parent->kind == MCP_FORM_FIELD_OBJECT || parent->kind == MCP_FORM_FIELD_MAP) && self->name != NULL)
    mcp_json_append_path_member (path, self->name);
}

char *
mcp_form_field_dup_path (McpFormField *self)
{
  GString *path = g_string_new (NULL);

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  append_path (self, path);
  return g_string_free (path, FALSE);
}

const char *
mcp_form_field_get_title (McpFormField *self)
{
  JsonNode *title;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  title = json_object_get_member (self->schema, "title");
  if (mcp_form_field_node_is_string (title))
    return json_node_get_string (title);
  return self->name;
}

const char *
mcp_form_field_get_description (McpFormField *self)
{
  JsonNode *description;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  description = json_object_get_member (self->schema, "description");
  return mcp_form_field_node_is_string (description) ? json_node_get_string (description) : NULL;
}

gboolean
mcp_form_field_get_required (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->required;
}

gboolean
mcp_form_field_get_nullable (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->nullable;
}

JsonObject *
mcp_form_field_get_schema (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return self->schema;
}

const char *
mcp_form_field_get_format (McpFormField *self)
{
  JsonNode *format;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  if (self->kind != MCP_FORM_FIELD_STRING)
    return NULL;
  format = json_object_get_member (self->schema, "format");
  return mcp_form_field_node_is_string (format) ? json_node_get_string (format) : NULL;
}

gboolean
mcp_form_field_get_present (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->present;
}

GListModel *
mcp_form_field_get_children (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return G_LIST_MODEL (self->children);
}

McpFormField *
mcp_form_field_get_child (McpFormField *self,
                          const char   *name)
{
  guint n;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (self->kind != MCP_FORM_FIELD_OBJECT && self->kind != MCP_FORM_FIELD_MAP)
    return NULL;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      if (g_strcmp0 (child->name, name) == 0)
        return child;  /* the store keeps it alive */
    }
  return NULL;
}

const char *
mcp_form_field_get_text (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return self->text;
}

gboolean
mcp_form_field_get_boolean (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->boolean;
}

GPtrArray *
mcp_form_field_get_choices (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return self->choices;
}

const char *
mcp_form_field_get_choice_title (McpFormField *self,
                                 guint         index)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);

  if (self->choice_titles == NULL || index >= self->choice_titles->len)
    return NULL;
  return g_ptr_array_index (self->choice_titles, index);
}

int
mcp_form_field_get_choice (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), -1);
  return self->choice;
}

/* Unions */

const char * const *
mcp_form_field_get_variant_titles (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  return (const char * const *) self->variant_titles;
}

guint
mcp_form_field_get_variant (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), 0);
  return self->variant;
}
