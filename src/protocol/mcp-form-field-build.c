/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"
#include "mcp-form-field-private.h"

/* McpFormField from a schema: the kind of each field, its children, and
 * the bounds on how much one call makes. Enum choices and union variants:
 * mcp-form-field-choices.c. */

#define MAX_FIELD_DEPTH 64

/* Fields one operation (making the form, loading a value, choosing a
 * variant, adding an item…) may create: a schema whose properties share
 * definitions (a DAG of $refs) would otherwise expand exponentially. A
 * real tool's form has tens of fields. */
#define MAX_FORM_FIELDS 2000

static gboolean
schema_is_ancestor (McpFormField *parent,
                    JsonObject   *schema)
{
  for (McpFormField *field = parent; field != NULL; field = field->parent)
    if (field->schema == schema)
      return TRUE;
  return FALSE;
}

/* Whether @schema is that of an ancestor reached through unions only
 * ({"oneOf":[{"$ref":"#"},…]}): each level would hold the same value, so
 * the form would nest without end. Through an object, array or map the
 * value gets deeper, and a recursive object expands on demand instead. */
static gboolean
loops_in_place (McpFormField *parent,
                JsonObject   *schema)
{
  for (McpFormField *field = parent; field != NULL; field = field->parent)
    {
      if (field->kind != MCP_FORM_FIELD_UNION)
        return FALSE;
      if (field->schema == schema)
        return TRUE;
    }
  return FALSE;
}

/* Creation */

static McpFormField *
field_new (McpFormField *parent,
           JsonNode     *root,
           JsonNode     *schema,
           const char   *name,
           gboolean      required);

McpFormField *
mcp_form_field_make_child (McpFormField *self,
                           JsonNode     *schema,
                           const char   *name,
                           gboolean      required)
{
  McpFormField *child = field_new (self, self->root, schema, name, required);

  return child;
}

void
mcp_form_field_build_union_child (McpFormField *self)
{
  g_autoptr(McpFormField) child = NULL;
  JsonNode *variant = NULL;

  if (self->variants != NULL && self->variant < self->variants->len)
    variant = g_ptr_array_index (self->variants, self->variant);
  child = mcp_form_field_make_child (self, variant, NULL, TRUE);
  g_list_store_append (self->children, child);
}

void
mcp_form_field_build_children (McpFormField *self)
{
  self->deferred = FALSE;

  if (self->kind == MCP_FORM_FIELD_OBJECT)
    {
      JsonNode *properties = json_object_get_member (self->schema, "properties");
      JsonNode *required = json_object_get_member (self->schema, "required");
      g_autoptr(GHashTable) required_names = g_hash_table_new (g_str_hash, g_str_equal);
      JsonObjectIter iter;
      const char *name;
      JsonNode *property;

      if (required != NULL && JSON_NODE_HOLDS_ARRAY (required))
        for (guint i = 0; i < json_array_get_length (json_node_get_array (required)); i++)
          {
            JsonNode *element = json_array_get_element (json_node_get_array (required), i);

            if (mcp_form_field_node_is_string (element))
              g_hash_table_add (required_names, (gpointer) json_node_get_string (element));
          }

      if (properties == NULL || !JSON_NODE_HOLDS_OBJECT (properties))
        return;

      json_object_iter_init_ordered (&iter, json_node_get_object (properties));
      while (json_object_iter_next_ordered (&iter, &name, &property))
        {
          g_autoptr(McpFormField) child =
            mcp_form_field_make_child (self, property, name, g_hash_table_contains (required_names, name));

          g_list_store_append (self->children, child);
        }
    }
  else if (self->kind == MCP_FORM_FIELD_UNION)
    mcp_form_field_build_union_child (self);
}

static McpFormFieldKind
kind_for_type (JsonObject *schema,
               const char *type)
{
  if (type == NULL)
    {
      if (json_object_has_member (schema, "properties"))
        return MCP_FORM_FIELD_OBJECT;
      if (json_object_has_member (schema, "items") || json_object_has_member (schema, "prefixItems"))
        return MCP_FORM_FIELD_ARRAY;
      return MCP_FORM_FIELD_JSON;
    }
  if (g_str_equal (type, "string"))
    return MCP_FORM_FIELD_STRING;
  if (g_str_equal (type, "number"))
    return MCP_FORM_FIELD_NUMBER;
  if (g_str_equal (type, "integer"))
    return MCP_FORM_FIELD_INTEGER;
  if (g_str_equal (type, "boolean"))
    return MCP_FORM_FIELD_BOOLEAN;
  if (g_str_equal (type, "null"))
    return MCP_FORM_FIELD_NULL;
  if (g_str_equal (type, "object"))
    return MCP_FORM_FIELD_OBJECT;
  if (g_str_equal (type, "array"))
    return MCP_FORM_FIELD_ARRAY;
  return MCP_FORM_FIELD_JSON;
}

/* Whether an object schema is a map: no named properties, extra keys
 * allowed (with a schema for their values, or any value). */
static gboolean
object_is_map (JsonObject *schema)
{
  JsonNode *additional = json_object_get_member (schema, "additionalProperties");
  JsonNode *properties = json_object_get_member (schema, "properties");

  if (properties != NULL && JSON_NODE_HOLDS_OBJECT (properties) &&
      json_object_get_size (json_node_get_object (properties)) > 0)
    return FALSE;
  if (additional != NULL && JSON_NODE_HOLDS_OBJECT (additional))
    return TRUE;
  /* a bare "type": "object": any keys, any values */
  return properties == NULL && additional == NULL;
}

static McpFormField *
field_new (McpFormField *parent,
           JsonNode     *root,
           JsonNode     *schema,
           const char   *name,
           gboolean      required)
{
  McpFormField *self = g_object_new (MCP_TYPE_FORM_FIELD, NULL);
  g_autoptr(GError) error = NULL;
  JsonNode *resolved = NULL;
  JsonObject *object = NULL;
  JsonNode *member;
  const char *type;
  gboolean nullable = FALSE;

  self->parent = parent;
  self->root = json_node_ref (root);
  self->name = g_strdup (name);
  self->required = required;
  self->present = required;
  self->depth = parent != NULL ? parent->depth + 1 : 0;
  self->kind = MCP_FORM_FIELD_JSON;
  self->text = g_strdup ("");
  if (parent == NULL)
    mcp_form_field_budget_start (self);
  mcp_form_field_top (self)->built++;

  if (schema != NULL)
    {
      resolved = mcp_json_schema_resolve (root, schema, &error);
      if (resolved == NULL)
        g_debug ("Form field %s: %s", name != NULL ? name : "(root)", error->message);
    }

  if (resolved != NULL && JSON_NODE_HOLDS_OBJECT (resolved))
    {
      object = json_node_get_object (resolved);

      /* allOf with one schema (a $ref plus a description, as generators
       * write it) is that schema. */
      member = json_object_get_member (object, "allOf");
      if (member != NULL && JSON_NODE_HOLDS_ARRAY (member) &&
          json_array_get_length (json_node_get_array (member)) == 1 &&
          !json_object_has_member (object, "type") && !json_object_has_member (object, "properties"))
        {
          JsonNode *inner = mcp_json_schema_resolve (root, json_array_get_element (json_node_get_array (member), 0), NULL);

          if (inner != NULL && JSON_NODE_HOLDS_OBJECT (inner))
            {
              resolved = inner;
              object = json_node_get_object (inner);
            }
        }
      self->schema_node = resolved;
      self->schema = json_object_ref (object);
    }
  else
    {
      self->schema_node = resolved;
      self->schema = json_object_new ();
      return self;  /* a boolean schema, a bad ref: JSON */
    }

  if (self->depth > MAX_FIELD_DEPTH || mcp_form_field_top (self)->built > MAX_FORM_FIELDS ||
      loops_in_place (parent, object))
    {
      self->too_complex = TRUE;
      return self;
    }

  type = mcp_json_schema_get_type (object, &nullable);
  self->nullable = nullable;

  if (json_object_has_member (object, "const"))
    {
      self->kind = MCP_FORM_FIELD_CONST;
      self->const_value = json_node_copy (json_object_get_member (object, "const"));
      self->has_value = TRUE;
    }
  else if ((member = json_object_get_member (object, "enum")) != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      self->kind = MCP_FORM_FIELD_ENUM;
      mcp_form_field_init_enum (self, json_node_get_array (member), json_object_get_member (object, "enumNames"));
    }
  else if (((member = json_object_get_member (object, "oneOf")) != NULL ||
            (member = json_object_get_member (object, "anyOf")) != NULL) &&
           JSON_NODE_HOLDS_ARRAY (member) && mcp_form_field_is_titled_enum (json_node_get_array (member)))
    {
      self->kind = MCP_FORM_FIELD_ENUM;
      mcp_form_field_init_titled_enum (self, json_node_get_array (member));
    }
  else if (((member = json_object_get_member (object, "oneOf")) != NULL ||
            (member = json_object_get_member (object, "anyOf")) != NULL) &&
           JSON_NODE_HOLDS_ARRAY (member) && json_array_get_length (json_node_get_array (member)) > 0)
    {
      self->kind = MCP_FORM_FIELD_UNION;
      mcp_form_field_init_union (self, json_node_get_array (member));
    }
  else if (json_object_has_member (object, "not") || json_object_has_member (object, "patternProperties"))
    self->kind = MCP_FORM_FIELD_JSON;
  else
    {
      self->kind = kind_for_type (object, type);
      if (self->kind == MCP_FORM_FIELD_OBJECT && object_is_map (object))
        self->kind = MCP_FORM_FIELD_MAP;
      if (self->kind == MCP_FORM_FIELD_ARRAY)
        {
          JsonNode *items = json_object_get_member (object, "items");

          if (json_object_has_member (object, "prefixItems") ||
              (items != NULL && JSON_NODE_HOLDS_ARRAY (items)))
            self->kind = MCP_FORM_FIELD_JSON;   /* tuples */
        }
    }

  if (self->kind == MCP_FORM_FIELD_OBJECT && schema_is_ancestor (parent, object))
    {
      /* recursive: expands on demand */
      self->deferred = TRUE;
      self->present = FALSE;
    }
  else
    mcp_form_field_build_children (self);

  member = json_object_get_member (object, "default");
  if (member != NULL && !self->deferred)
    {
      mcp_form_field_load_value (self, member);
      self->present = required;
      self->has_default = TRUE;
    }

  return self;
}

McpFormField *
mcp_form_field_new_from_schema (JsonNode *schema)
{
  McpFormField *self;

  g_return_val_if_fail (schema != NULL, NULL);

  self = field_new (NULL, schema, schema, NULL, TRUE);
  self->present = TRUE;
  return self;
}
