/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-schema.h"
#include "mcp-json-schema-private.h"

#include <math.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"

/* The validator: one schema against one value — "$ref", type, enum,
 * const and the combinators here, the keywords of each kind of value in
 * mcp-json-schema-keywords.c — with its problems and its budget. */

#define MAX_PROBLEMS 100

static gboolean
node_is_integer (JsonNode *node)
{
  double value;

  if (!node_is_number (node))
    return FALSE;
  if (node_is_int64 (node))
    return TRUE;
  value = json_node_get_double (node);
  /* beyond 2^53 every double is whole; no libm here */
  if (!isfinite (value) || value > 9007199254740992.0 || value < -9007199254740992.0)
    return isfinite (value);
  return (double) (gint64) value == value;
}

static const char *
describe_instance (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    /* Translators: these name a JSON value's type, as in “expected a string, not an object” */
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("an array");
  if (node_is_string (node))
    return _("a string");
  if (node_is_boolean (node))
    return _("a boolean");
  return _("a number");
}

static gboolean
instance_has_type (JsonNode   *node,
                   const char *type)
{
  if (g_str_equal (type, "null"))
    return JSON_NODE_HOLDS_NULL (node);
  if (g_str_equal (type, "object"))
    return JSON_NODE_HOLDS_OBJECT (node);
  if (g_str_equal (type, "array"))
    return JSON_NODE_HOLDS_ARRAY (node);
  if (g_str_equal (type, "string"))
    return node_is_string (node);
  if (g_str_equal (type, "boolean"))
    return node_is_boolean (node);
  if (g_str_equal (type, "number"))
    return node_is_number (node);
  if (g_str_equal (type, "integer"))
    return node_is_integer (node);
  return TRUE;  /* an unknown type name restricts nothing */
}

static const char *
describe_type (const char *type)
{
  if (g_str_equal (type, "object"))
    return _("an object");
  if (g_str_equal (type, "array"))
    return _("an array");
  if (g_str_equal (type, "string"))
    return _("a string");
  if (g_str_equal (type, "boolean"))
    return _("a boolean");
  if (g_str_equal (type, "number"))
    return _("a number");
  if (g_str_equal (type, "integer"))
    return _("an integer");
  return type;
}

/* Problems */

gboolean
mcp_json_schema_validator_full (Validator *v)
{
  return v->shared->stop != STOP_NONE ||
         (v->problems != NULL && v->problems->len >= MAX_PROBLEMS);
}

static void
stop_at (Validator  *v,
         GString    *path,
         StopReason  reason)
{
  if (v->shared->stop != STOP_NONE)
    return;
  v->shared->stop = reason;
  v->shared->stop_path = g_strdup (path->str);
}

gboolean
mcp_json_schema_take_steps (Validator *v,
                            GString   *path,
                            guint      steps)
{
  Shared *shared = v->shared;

  if (shared->stop != STOP_NONE)
    return FALSE;
  if (shared->steps_left < steps)
    {
      shared->steps_left = 0;
      stop_at (v, path, STOP_STEPS);
      return FALSE;
    }
  shared->steps_left -= steps;
  return TRUE;
}

void
mcp_json_schema_add_problem (Validator  *v,
                             GString    *path,
                             const char *format,
                             ...)
{
  va_list args;
  g_autofree char *message = NULL;

  /* Past a stop, a combinator's answer is not known: no problem is made
   * of it. */
  if (v->shared->stop != STOP_NONE)
    return;
  v->n_problems++;
  if (v->problems == NULL || v->problems->len >= MAX_PROBLEMS)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (v->problems, g_strdup_printf ("%s: %s", path->str, message));
}

static gboolean
is_valid (Validator *v,
          JsonNode  *schema,
          JsonNode  *instance,
          GString   *path,
          guint      depth)
{
  Validator scratch = { v->shared, NULL, 0 };
  gsize len = path->len;

  mcp_json_schema_validate_node (&scratch, schema, instance, path, depth);
  g_string_truncate (path, len);
  return scratch.n_problems == 0;
}

/* Each ref resolved once per validation: a schema that names the same
 * $ref a thousand times pays for one pointer walk. */
static RefEntry *
lookup_ref (Validator  *v,
            const char *ref)
{
  Shared *shared = v->shared;
  RefEntry *entry = g_hash_table_lookup (shared->refs, ref);

  if (entry == NULL)
    {
      g_autoptr(GError) error = NULL;

      entry = g_new0 (RefEntry, 1);
      entry->ref = g_strdup (ref);
      entry->target = mcp_json_schema_follow_pointer (shared->root, ref, &error);
      if (entry->target == NULL)
        entry->message = g_strdup (error->message);
      g_hash_table_insert (shared->refs, entry->ref, entry);
    }
  return entry;
}

void
mcp_json_schema_validate_node (Validator *v,
                               JsonNode  *schema,
                               JsonNode  *instance,
                               GString   *path,
                               guint      depth)
{
  Keywords keywords;
  Keywords *k = &keywords;
  JsonNode *member;

  if (mcp_json_schema_validator_full (v) || !mcp_json_schema_take_steps (v, path, 1))
    return;

  if (depth > MAX_DEPTH)
    {
      stop_at (v, path, STOP_DEPTH);
      return;
    }

  if (node_is_boolean (schema))
    {
      if (!json_node_get_boolean (schema))
        mcp_json_schema_add_problem (v, path, _("no value is allowed here"));
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (schema))
    return;  /* not a schema: restricts nothing */
  mcp_json_schema_keywords_collect (json_node_get_object (schema), k);

  member = k->k[K_REF];
  if (member != NULL)
    {
      RefEntry *entry;
      GArray *following = v->shared->following;
      Visit visit;

      if (!node_is_string (member))
        {
          mcp_json_schema_add_problem (v, path, "%s", _("Schema “$ref” is not a string"));
          return;
        }
      entry = lookup_ref (v, json_node_get_string (member));
      if (entry->target == NULL)
        {
          mcp_json_schema_add_problem (v, path, "%s", entry->message);
          return;
        }

      visit.schema = entry->target;
      visit.instance = instance;
      for (guint i = 0; i < following->len; i++)
        {
          Visit *other = &g_array_index (following, Visit, i);

          if (other->schema == visit.schema && other->instance == visit.instance)
            {
              stop_at (v, path, STOP_LOOP);
              return;
            }
        }

      g_array_append_val (following, visit);
      mcp_json_schema_validate_node (v, entry->target, instance, path, depth + 1);
      g_array_set_size (following, following->len - 1);
    }

  /* type */
  member = k->k[K_TYPE];
  if (member != NULL)
    {
      gboolean ok = FALSE;
      g_autoptr(GString) expected = g_string_new (NULL);

      if (node_is_string (member))
        {
          ok = instance_has_type (instance, json_node_get_string (member));
          g_string_append (expected, describe_type (json_node_get_string (member)));
        }
      else if (JSON_NODE_HOLDS_ARRAY (member))
        {
          JsonArray *types = json_node_get_array (member);

          for (guint i = 0; i < json_array_get_length (types); i++)
            {
              JsonNode *type = json_array_get_element (types, i);

              if (!node_is_string (type))
                continue;
              if (expected->len > 0)
                /* Translators: between two JSON types, as in “expected a string or a number, not an object” */
                g_string_append (expected, _(" or "));
              g_string_append (expected, describe_type (json_node_get_string (type)));
              ok = ok || instance_has_type (instance, json_node_get_string (type));
            }
          if (expected->len == 0)
            ok = TRUE;
        }
      else
        ok = TRUE;

      if (!ok)
        {
          mcp_json_schema_add_problem (v, path, _("expected %s, not %s"), expected->str, describe_instance (instance));
          return;  /* the other keywords would only repeat it */
        }
    }

  member = k->k[K_ENUM];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *values = json_node_get_array (member);
      gboolean found = FALSE;

      if (!mcp_json_schema_take_steps (v, path, json_array_get_length (values)))
        return;
      for (guint i = 0; i < json_array_get_length (values) && !found; i++)
        found = mcp_json_equal (json_array_get_element (values, i), instance);
      if (!found)
        {
          GString *list = g_string_new (NULL);
          g_autofree char *text = NULL;

          for (guint i = 0; i < json_array_get_length (values); i++)
            {
              if (i > 0)
                g_string_append (list, ", ");
              mcp_json_append (list, json_array_get_element (values, i));
            }
          text = g_string_free (list, FALSE);
          mcp_json_schema_add_problem (v, path, _("must be one of %s"), text);
        }
    }

  member = k->k[K_CONST];
  if (member != NULL && !mcp_json_equal (member, instance))
    {
      GString *text = g_string_new (NULL);

      mcp_json_append (text, member);
      mcp_json_schema_add_problem (v, path, _("must be %s"), text->str);
      g_string_free (text, TRUE);
    }

  if (node_is_number (instance))
    mcp_json_schema_validate_number (v, k, instance, path);
  else if (node_is_string (instance))
    mcp_json_schema_validate_string (v, k, instance, path);
  else if (JSON_NODE_HOLDS_ARRAY (instance))
    mcp_json_schema_validate_array (v, k, instance, path, depth);
  else if (JSON_NODE_HOLDS_OBJECT (instance))
    mcp_json_schema_validate_object (v, k, instance, path, depth);

  member = k->k[K_ALL_OF];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (member)); i++)
      mcp_json_schema_validate_node (v, json_array_get_element (json_node_get_array (member), i), instance, path, depth + 1);

  member = k->k[K_ANY_OF];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *schemas = json_node_get_array (member);
      gboolean ok = FALSE;

      for (guint i = 0; i < json_array_get_length (schemas) && !ok; i++)
        ok = is_valid (v, json_array_get_element (schemas, i), instance, path, depth + 1);
      if (!ok)
        mcp_json_schema_add_problem (v, path, _("does not match any of the allowed schemas (anyOf)"));
    }

  member = k->k[K_ONE_OF];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *schemas = json_node_get_array (member);
      guint matches = 0;

      for (guint i = 0; i < json_array_get_length (schemas); i++)
        if (is_valid (v, json_array_get_element (schemas, i), instance, path, depth + 1))
          matches++;
      if (matches == 0)
        mcp_json_schema_add_problem (v, path, _("does not match any of the allowed schemas (oneOf)"));
      else if (matches > 1)
        mcp_json_schema_add_problem (v, path, _("matches %u of the schemas, but must match exactly one (oneOf)"), matches);
    }

  member = k->k[K_NOT];
  if (member != NULL && is_valid (v, member, instance, path, depth + 1))
    mcp_json_schema_add_problem (v, path, _("matches a schema it must not match (not)"));

  member = k->k[K_IF];
  if (member != NULL)
    {
      JsonNode *branch;

      if (is_valid (v, member, instance, path, depth + 1))
        branch = k->k[K_THEN];
      else
        branch = k->k[K_ELSE];
      if (branch != NULL)
        mcp_json_schema_validate_node (v, branch, instance, path, depth + 1);
    }
}
