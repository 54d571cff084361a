/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-json-schema.h"

/* Numbers: a NUMBER or INTEGER field keeps the literal the person typed
 * and to_json() parses exactly that literal with mcp_json_parse(), so the
 * JSON value sent is the value written (the text "1.50" gives the number
 * 1.5, "1e3" gives 1000.0; an integer beyond 64 bits gives the nearest
 * double). Being a JsonNode, the value is judged as a JSON value, not as
 * characters: the writer may print 1.50 as 1.5. */

#define MAX_FIELD_DEPTH 64

/* Fields one operation (making the form, loading a value, choosing a
 * variant, adding an item…) may create: a schema whose properties share
 * definitions (a DAG of $refs) would otherwise expand exponentially. A
 * real tool's form has tens of fields. */
#define MAX_FORM_FIELDS 2000

struct _McpFormField
{
  GObject           parent_instance;

  /* borrowed */
  McpFormField     *parent;
  JsonNode         *schema_node;   /* inside root, or NULL */

  McpFormFieldKind  kind;
  guint             required : 1;
  guint             nullable : 1;
  guint             present : 1;
  guint             has_value : 1;
  guint             is_null : 1;
  guint             deferred : 1;   /* recursive OBJECT whose children are not built yet */
  guint             has_default : 1; /* its value came from the schema's "default" */
  guint             boolean : 1;
  int               choice;
  guint             variant;
  guint             depth;
  guint             too_complex : 1;  /* a JSON field because of a bound */

  /* the budget of the operation under way; on the topmost field only */
  guint             built;
  guint             check_budget;

  /* owned */
  JsonNode         *root;
  JsonObject       *schema;
  char             *name;
  char             *text;
  GListStore       *children;
  GPtrArray        *choices;       /* JsonNode */
  GPtrArray        *choice_titles; /* char *, nullable entries; NULL: none has one */
  JsonNode         *const_value;
  GPtrArray        *variants;      /* JsonNode, borrowed from root */
  GStrv             variant_titles;
};

enum {
  CHANGED,
  STRUCTURE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpFormField, mcp_form_field, G_TYPE_OBJECT)

static void load_value (McpFormField *self, JsonNode *value);
static void build_children (McpFormField *self);

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

static McpFormField *
field_top (McpFormField *self)
{
  while (self->parent != NULL)
    self = self->parent;
  return self;
}

/* Each public call that creates fields or validates starts a new budget,
 * shared by everything it does. */
static void
budget_start (McpFormField *self)
{
  McpFormField *top = field_top (self);

  top->built = 0;
  top->check_budget = MCP_JSON_SCHEMA_MAX_STEPS;
}

/* Whether @value matches @schema within the operation's budget; a
 * schema too complex to tell is no match. */
static McpJsonSchemaOutcome
check_value (McpFormField  *self,
             JsonNode      *schema,
             JsonNode      *value,
             GPtrArray    **problems)
{
  return mcp_json_schema_check (self->root, schema, value, &field_top (self)->check_budget, problems);
}

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static char *
node_to_text (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node);
  return g_string_free (out, FALSE);
}

static gboolean
text_equal (JsonNode *a,
            JsonNode *b)
{
  g_autofree char *x = node_to_text (a);
  g_autofree char *y = node_to_text (b);

  return g_str_equal (x, y);
}

static void
emit_changed (McpFormField *self)
{
  for (McpFormField *field = self; field != NULL; field = field->parent)
    g_signal_emit (field, signals[CHANGED], 0);
}

static void
clear_children (McpFormField *self)
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
static void
mark_present (McpFormField *self)
{
  for (McpFormField *field = self; field != NULL; field = field->parent)
    {
      if (field->deferred)
        build_children (field);
      field->present = TRUE;
    }
}

static void
become_json (McpFormField *self,
             JsonNode     *value)
{
  clear_children (self);
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
  self->text = value != NULL ? node_to_text (value) : g_strdup ("");
  self->has_value = value != NULL;
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
}

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

static char *
variant_title (JsonNode *variant,
               guint     index)
{
  JsonObject *object;
  JsonNode *member;
  JsonNode *properties;
  const char *type;

  if (variant == NULL || !JSON_NODE_HOLDS_OBJECT (variant))
    return g_strdup_printf (_("Option %u"), index + 1);
  object = json_node_get_object (variant);

  member = json_object_get_member (object, "title");
  if (node_is_string (member))
    return g_strdup (json_node_get_string (member));

  member = json_object_get_member (object, "const");
  if (member != NULL)
    return node_is_string (member) ? g_strdup (json_node_get_string (member)) : node_to_text (member);

  /* A discriminated union: the property whose value is a const. */
  properties = json_object_get_member (object, "properties");
  if (properties != NULL && JSON_NODE_HOLDS_OBJECT (properties))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *property;

      json_object_iter_init_ordered (&iter, json_node_get_object (properties));
      while (json_object_iter_next_ordered (&iter, &name, &property))
        {
          JsonNode *resolved = mcp_json_schema_resolve (NULL, property, NULL);

          if (resolved != NULL && JSON_NODE_HOLDS_OBJECT (resolved) &&
              (member = json_object_get_member (json_node_get_object (resolved), "const")) != NULL)
            return node_is_string (member) ? g_strdup (json_node_get_string (member)) : node_to_text (member);
        }
    }

  type = mcp_json_schema_get_type (object, NULL);
  if (type != NULL)
    return g_strdup (type);

  return g_strdup_printf (_("Option %u"), index + 1);
}

/* Creation */

static McpFormField *
field_new (McpFormField *parent,
           JsonNode     *root,
           JsonNode     *schema,
           const char   *name,
           gboolean      required);

static McpFormField *
make_child (McpFormField *self,
            JsonNode     *schema,
            const char   *name,
            gboolean      required)
{
  McpFormField *child = field_new (self, self->root, schema, name, required);

  return child;
}

static void
build_union_child (McpFormField *self)
{
  g_autoptr(McpFormField) child = NULL;
  JsonNode *variant = NULL;

  if (self->variants != NULL && self->variant < self->variants->len)
    variant = g_ptr_array_index (self->variants, self->variant);
  child = make_child (self, variant, NULL, TRUE);
  g_list_store_append (self->children, child);
}

static void
build_children (McpFormField *self)
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

            if (node_is_string (element))
              g_hash_table_add (required_names, (gpointer) json_node_get_string (element));
          }

      if (properties == NULL || !JSON_NODE_HOLDS_OBJECT (properties))
        return;

      json_object_iter_init_ordered (&iter, json_node_get_object (properties));
      while (json_object_iter_next_ordered (&iter, &name, &property))
        {
          g_autoptr(McpFormField) child =
            make_child (self, property, name, g_hash_table_contains (required_names, name));

          g_list_store_append (self->children, child);
        }
    }
  else if (self->kind == MCP_FORM_FIELD_UNION)
    build_union_child (self);
}

/* @names: the legacy "enumNames" (elicitation schemas of 2025-06-18 and
 * servers since): the titles of the values, in their order; used when it
 * is an array of as many strings. */
static void
init_enum (McpFormField *self,
           JsonArray    *values,
           JsonNode     *names)
{
  gboolean has_null = FALSE;
  JsonArray *titles = NULL;

  self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  for (guint i = 0; i < json_array_get_length (values); i++)
    if (JSON_NODE_HOLDS_NULL (json_array_get_element (values, i)))
      has_null = TRUE;
  if (has_null)
    self->nullable = TRUE;
  if (self->nullable)
    g_ptr_array_add (self->choices, json_node_init_null (json_node_alloc ()));
  if (names != NULL && JSON_NODE_HOLDS_ARRAY (names) &&
      json_array_get_length (json_node_get_array (names)) == json_array_get_length (values))
    {
      JsonArray *given = json_node_get_array (names);

      titles = given;
      for (guint i = 0; i < json_array_get_length (given); i++)
        if (json_node_get_value_type (json_array_get_element (given, i)) != G_TYPE_STRING)
          titles = NULL;
    }
  if (titles != NULL)
    {
      self->choice_titles = g_ptr_array_new_with_free_func (g_free);
      if (self->nullable)
        g_ptr_array_add (self->choice_titles, NULL);
    }

  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *value = json_array_get_element (values, i);

      if (JSON_NODE_HOLDS_NULL (value))
        continue;
      g_ptr_array_add (self->choices, json_node_copy (value));
      if (titles != NULL)
        g_ptr_array_add (self->choice_titles, g_strdup (json_array_get_string_element (titles, i)));
    }
}

/* A titled single choice (SEP-1330): every one of @variants is
 * {"const": scalar} with at most a "title" and a "description". */
static gboolean
is_titled_enum (JsonArray *variants)
{
  for (guint i = 0; i < json_array_get_length (variants); i++)
    {
      JsonNode *node = json_array_get_element (variants, i);
      JsonObject *variant;
      g_autoptr(GList) members = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return FALSE;
      variant = json_node_get_object (node);
      if (!json_object_has_member (variant, "const") ||
          !JSON_NODE_HOLDS_VALUE (json_object_get_member (variant, "const")))
        return FALSE;
      members = json_object_get_members (variant);
      for (GList *l = members; l != NULL; l = l->next)
        if (!g_str_equal (l->data, "const") && !g_str_equal (l->data, "title") &&
            !g_str_equal (l->data, "description"))
          return FALSE;
    }
  return json_array_get_length (variants) > 0;
}

static void
init_titled_enum (McpFormField *self,
                  JsonArray    *variants)
{
  self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->choice_titles = g_ptr_array_new_with_free_func (g_free);
  if (self->nullable)
    {
      g_ptr_array_add (self->choices, json_node_init_null (json_node_alloc ()));
      g_ptr_array_add (self->choice_titles, NULL);
    }
  for (guint i = 0; i < json_array_get_length (variants); i++)
    {
      JsonObject *variant = json_array_get_object_element (variants, i);
      JsonNode *title = json_object_get_member (variant, "title");

      g_ptr_array_add (self->choices, json_node_copy (json_object_get_member (variant, "const")));
      g_ptr_array_add (self->choice_titles,
                       title != NULL && json_node_get_value_type (title) == G_TYPE_STRING
                       ? g_strdup (json_node_get_string (title)) : NULL);
    }
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
    budget_start (self);
  field_top (self)->built++;

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

  if (self->depth > MAX_FIELD_DEPTH || field_top (self)->built > MAX_FORM_FIELDS ||
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
      init_enum (self, json_node_get_array (member), json_object_get_member (object, "enumNames"));
    }
  else if (((member = json_object_get_member (object, "oneOf")) != NULL ||
            (member = json_object_get_member (object, "anyOf")) != NULL) &&
           JSON_NODE_HOLDS_ARRAY (member) && is_titled_enum (json_node_get_array (member)))
    {
      self->kind = MCP_FORM_FIELD_ENUM;
      init_titled_enum (self, json_node_get_array (member));
    }
  else if (((member = json_object_get_member (object, "oneOf")) != NULL ||
            (member = json_object_get_member (object, "anyOf")) != NULL) &&
           JSON_NODE_HOLDS_ARRAY (member) && json_array_get_length (json_node_get_array (member)) > 0)
    {
      JsonArray *array = json_node_get_array (member);
      GStrvBuilder *titles = g_strv_builder_new ();

      self->kind = MCP_FORM_FIELD_UNION;
      self->variants = g_ptr_array_new ();
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *variant = json_array_get_element (array, i);
          JsonNode *target = mcp_json_schema_resolve (root, variant, NULL);
          g_autofree char *title = variant_title (target != NULL ? target : variant, i);

          g_ptr_array_add (self->variants, variant);
          g_strv_builder_add (titles, title);
        }
      self->variant_titles = g_strv_builder_end (titles);
      g_strv_builder_unref (titles);
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
    build_children (self);

  member = json_object_get_member (object, "default");
  if (member != NULL && !self->deferred)
    {
      load_value (self, member);
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

/* Loading values */

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
        load_value (child, member);
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

  if (check_value (self, variant, value, NULL) != MCP_JSON_SCHEMA_VALID)
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

static void
load_value (McpFormField *self,
            JsonNode     *value)
{
  GType type = JSON_NODE_HOLDS_VALUE (value) ? json_node_get_value_type (value) : G_TYPE_INVALID;
  gboolean is_number = type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || type == G_TYPE_INT;

  if (self->deferred)
    build_children (self);

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
      self->text = node_to_text (value);
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
      clear_children (self);
      for (guint i = 0; i < json_array_get_length (json_node_get_array (value)); i++)
        {
          JsonNode *items = json_object_get_member (self->schema, "items");
          g_autoptr(McpFormField) child = make_child (self, items, NULL, TRUE);

          g_list_store_append (self->children, child);
          load_value (child, json_array_get_element (json_node_get_array (value), i));
        }
      g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
      return;

    case MCP_FORM_FIELD_MAP:
      if (!JSON_NODE_HOLDS_OBJECT (value))
        break;
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        clear_children (self);
        json_object_iter_init_ordered (&iter, json_node_get_object (value));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            JsonNode *additional = json_object_get_member (self->schema, "additionalProperties");
            g_autoptr(McpFormField) child =
              make_child (self, additional != NULL && JSON_NODE_HOLDS_OBJECT (additional) ? additional : NULL,
                          name, TRUE);

            g_list_store_append (self->children, child);
            load_value (child, member);
          }
        g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
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
            clear_children (self);
            build_union_child (self);
            g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
          }
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), 0);

          load_value (child, value);
        }
      }
      return;

    case MCP_FORM_FIELD_JSON:
      g_free (self->text);
      self->text = node_to_text (value);
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
  budget_start (self);

  load_value (self, value);
  mark_present (self);
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
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
append_property (GString    *path,
                 const char *name)
{
  gboolean plain = name[0] != '\0' && !g_ascii_isdigit (name[0]);

  for (const char *p = name; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || *p == '_' || *p == '$';
  if (plain)
    g_string_append_printf (path, ".%s", name);
  else
    {
      g_string_append_c (path, '[');
      mcp_json_append_string (path, name);
      g_string_append_c (path, ']');
    }
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
    append_property (path, self->name);
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
  if (node_is_string (title))
    return json_node_get_string (title);
  return self->name;
}

const char *
mcp_form_field_get_description (McpFormField *self)
{
  JsonNode *description;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  description = json_object_get_member (self->schema, "description");
  return node_is_string (description) ? json_node_get_string (description) : NULL;
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

void
mcp_form_field_include_defaults (McpFormField *self)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  budget_start (self);

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
  return node_is_string (format) ? json_node_get_string (format) : NULL;
}

gboolean
mcp_form_field_get_present (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->present;
}

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
  budget_start (self);

  if (!present && (self->required || must_be_present (self)))
    return;
  if (!!present == self->present)
    return;

  built = present && self->deferred;
  if (present)
    mark_present (self);
  else
    self->present = FALSE;
  if (built)
    g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
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

void
mcp_form_field_set_text (McpFormField *self,
                         const char   *text)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (text != NULL);
  budget_start (self);

  g_free (self->text);
  self->text = g_strdup (text);
  self->has_value = TRUE;
  self->is_null = FALSE;
  mark_present (self);
  emit_changed (self);
}

gboolean
mcp_form_field_get_boolean (McpFormField *self)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), FALSE);
  return self->boolean;
}

void
mcp_form_field_set_boolean (McpFormField *self,
                            gboolean      value)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  budget_start (self);

  self->boolean = !!value;
  self->has_value = TRUE;
  self->is_null = FALSE;
  mark_present (self);
  emit_changed (self);
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

void
mcp_form_field_set_choice (McpFormField *self,
                           int           index)
{
  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (self->kind == MCP_FORM_FIELD_ENUM);
  g_return_if_fail (index >= -1 && (index < 0 || (guint) index < self->choices->len));
  budget_start (self);

  self->choice = index;
  self->has_value = index >= 0;
  if (index >= 0)
    mark_present (self);
  emit_changed (self);
}

/* Arrays and maps */

McpFormField *
mcp_form_field_add_item (McpFormField *self)
{
  g_autoptr(McpFormField) child = NULL;

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  g_return_val_if_fail (self->kind == MCP_FORM_FIELD_ARRAY, NULL);
  budget_start (self);

  child = make_child (self, json_object_get_member (self->schema, "items"), NULL, TRUE);
  if (child->deferred)
    build_children (child);   /* items and values are always present */
  child->present = TRUE;
  g_list_store_append (self->children, child);
  mark_present (self);
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
  return child;
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
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
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
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
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
  budget_start (self);

  if (mcp_form_field_get_child (self, key) != NULL)
    {
      path = mcp_form_field_dup_path (self);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: the first %s is the field's place in the arguments (a JSON path such as “$.env”), the second the key */
                   _("%s already has a key “%s”; choose another name"), path, key);
      return NULL;
    }

  additional = json_object_get_member (self->schema, "additionalProperties");
  child = make_child (self, additional != NULL && JSON_NODE_HOLDS_OBJECT (additional) ? additional : NULL,
                      key, TRUE);
  if (child->deferred)
    build_children (child);   /* items and values are always present */
  child->present = TRUE;
  g_list_store_append (self->children, child);
  mark_present (self);
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
  return child;
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

void
mcp_form_field_set_variant (McpFormField *self,
                            guint         index)
{
  g_autoptr(McpFormField) old = NULL;
  g_autoptr(McpFormField) child = NULL;

  g_return_if_fail (MCP_IS_FORM_FIELD (self));
  g_return_if_fail (self->kind == MCP_FORM_FIELD_UNION);
  g_return_if_fail (index < self->variants->len);
  budget_start (self);

  if (index == self->variant)
    return;

  old = g_list_model_get_item (G_LIST_MODEL (self->children), 0);
  self->variant = index;
  clear_children (self);
  build_union_child (self);
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
              check_value (self, to->schema_node, value, NULL) == MCP_JSON_SCHEMA_VALID)
            load_value (to, value);
        }
    }
  else if (old != NULL && old->present && old->has_value && child->schema_node != NULL)
    {
      g_autoptr(JsonNode) value = mcp_form_field_to_json (old, NULL);

      if (value != NULL && check_value (self, child->schema_node, value, NULL) == MCP_JSON_SCHEMA_VALID)
        load_value (child, value);
    }

  mark_present (self);
  g_signal_emit (self, signals[STRUCTURE_CHANGED], 0);
  emit_changed (self);
}

/* Output */

static gboolean
path_error (McpFormField  *self,
            GError       **error,
            const char    *message)
{
  g_autofree char *path = mcp_form_field_dup_path (self);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, "%s: %s", path, message);
  return FALSE;
}

JsonNode *
mcp_form_field_to_json (McpFormField  *self,
                        GError       **error)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!self->present && self->parent == NULL && self->kind == MCP_FORM_FIELD_OBJECT)
    return json_node_init_object (json_node_alloc (), json_object_new ());

  if (self->is_null)
    return json_node_init_null (json_node_alloc ());

  switch (self->kind)
    {
    case MCP_FORM_FIELD_STRING:
      return json_node_init_string (json_node_alloc (), self->text);

    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
      {
        g_autofree char *literal = g_strstrip (g_strdup (self->text));
        g_autoptr(JsonNode) number = NULL;
        g_autofree char *message = NULL;
        GType type;

        if (literal[0] != '\0')
          number = mcp_json_parse (literal, strlen (literal), NULL);
        type = number != NULL && JSON_NODE_HOLDS_VALUE (number) ? json_node_get_value_type (number) : G_TYPE_INVALID;
        if (literal[0] == '\0')
          message = g_strdup (self->kind == MCP_FORM_FIELD_INTEGER ? _("an integer is needed") : _("a number is needed"));
        else if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
          message = g_strdup_printf (_("“%s” is not a number"), literal);
        else if (self->kind == MCP_FORM_FIELD_INTEGER && type == G_TYPE_DOUBLE &&
                 json_node_get_double (number) != (double) (gint64) json_node_get_double (number))
          message = g_strdup_printf (_("“%s” is not a whole number"), literal);
        if (message != NULL)
          {
            path_error (self, error, message);
            return NULL;
          }
        return g_steal_pointer (&number);
      }

    case MCP_FORM_FIELD_BOOLEAN:
      return json_node_init_boolean (json_node_alloc (), self->boolean);

    case MCP_FORM_FIELD_NULL:
      return json_node_init_null (json_node_alloc ());

    case MCP_FORM_FIELD_CONST:
      return json_node_copy (self->const_value);

    case MCP_FORM_FIELD_ENUM:
      if (self->choice < 0)
        {
          path_error (self, error, _("choose one of the values"));
          return NULL;
        }
      return json_node_copy (g_ptr_array_index (self->choices, self->choice));

    case MCP_FORM_FIELD_OBJECT:
    case MCP_FORM_FIELD_MAP:
      {
        g_autoptr(JsonObject) object = json_object_new ();
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);
            JsonNode *value;

            if (!child->present)
              continue;
            value = mcp_form_field_to_json (child, error);
            if (value == NULL)
              return NULL;
            json_object_set_member (object, child->name, value);
          }
        return json_node_init_object (json_node_alloc (), object);
      }

    case MCP_FORM_FIELD_ARRAY:
      {
        g_autoptr(JsonArray) array = json_array_new ();
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);
            JsonNode *value = mcp_form_field_to_json (child, error);

            if (value == NULL)
              return NULL;
            json_array_add_element (array, value);
          }
        return json_node_init_array (json_node_alloc (), array);
      }

    case MCP_FORM_FIELD_UNION:
      {
        g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), 0);

        return mcp_form_field_to_json (child, error);
      }

    case MCP_FORM_FIELD_JSON:
      {
        g_autoptr(GError) local_error = NULL;
        g_autofree char *message = NULL;
        JsonNode *value;

        value = mcp_json_parse (self->text, strlen (self->text), &local_error);
        if (value != NULL)
          return value;
        message = g_strdup_printf (_("invalid JSON: %s"), local_error->message);
        path_error (self, error, message);
        return NULL;
      }

    default:
      g_assert_not_reached ();
    }
}

/* Checking */

static void
add_check_problem (GPtrArray    *problems,
                   McpFormField *self,
                   const char   *message)
{
  g_autofree char *path = mcp_form_field_dup_path (self);

  g_ptr_array_add (problems, g_strdup_printf ("%s: %s", path, message));
}

static void
check_field (McpFormField *self,
             GPtrArray    *problems)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

  if (!self->present)
    {
      if (self->required)
        add_check_problem (problems, self, _("is required"));
      return;
    }

  if (self->kind == MCP_FORM_FIELD_OBJECT || self->kind == MCP_FORM_FIELD_UNION)
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          check_field (child, problems);
        }
      return;
    }

  if (self->kind == MCP_FORM_FIELD_ARRAY || self->kind == MCP_FORM_FIELD_MAP)
    {
      JsonNode *bound;
      const char *min = self->kind == MCP_FORM_FIELD_ARRAY ? "minItems" : "minProperties";
      const char *max = self->kind == MCP_FORM_FIELD_ARRAY ? "maxItems" : "maxProperties";

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          check_field (child, problems);
        }
      bound = json_object_get_member (self->schema, min);
      if (bound != NULL && JSON_NODE_HOLDS_VALUE (bound) && json_node_get_value_type (bound) == G_TYPE_INT64 &&
          n < json_node_get_int (bound))
        {
          g_autofree char *message = g_strdup_printf (_("needs at least %lld entries, not %u"),
                                                      (long long) json_node_get_int (bound), n);
          add_check_problem (problems, self, message);
        }
      bound = json_object_get_member (self->schema, max);
      if (bound != NULL && JSON_NODE_HOLDS_VALUE (bound) && json_node_get_value_type (bound) == G_TYPE_INT64 &&
          n > json_node_get_int (bound))
        {
          g_autofree char *message = g_strdup_printf (_("takes at most %lld entries, not %u"),
                                                      (long long) json_node_get_int (bound), n);
          add_check_problem (problems, self, message);
        }
      return;
    }

  /* scalars and JSON: the value against the field's schema */
  if (self->required && !self->has_value &&
      (self->kind == MCP_FORM_FIELD_STRING || self->kind == MCP_FORM_FIELD_ENUM ||
       self->kind == MCP_FORM_FIELD_NUMBER || self->kind == MCP_FORM_FIELD_INTEGER ||
       self->kind == MCP_FORM_FIELD_JSON))
    {
      add_check_problem (problems, self, _("is required"));
      return;
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) value = mcp_form_field_to_json (self, &error);
    g_autoptr(GPtrArray) found = NULL;
    g_autofree char *path = NULL;

    if (value == NULL)
      {
        g_ptr_array_add (problems, g_strdup (error->message));
        return;
      }
    /* A schema too complex to check says nothing against the value. */
    if (self->schema_node == NULL ||
        check_value (self, self->schema_node, value, &found) != MCP_JSON_SCHEMA_INVALID)
      return;

    path = mcp_form_field_dup_path (self);
    for (guint i = 0; i < found->len; i++)
      {
        const char *problem = g_ptr_array_index (found, i);

        /* "$…: message" from the validator, rooted at this field */
        g_ptr_array_add (problems, g_strdup_printf ("%s%s", path, problem + 1));
      }
  }
}

GPtrArray *
mcp_form_field_check (McpFormField *self)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), problems);
  budget_start (self);
  check_field (self, problems);
  return problems;
}
