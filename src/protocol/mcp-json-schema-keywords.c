/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-schema.h"
#include "mcp-json-schema-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"

/* The validator's keywords for each kind of value: numbers (bounds,
 * multipleOf), strings (lengths, pattern, format), arrays (items, tuples,
 * unique items) and objects (properties, patterns, required, sizes). */

static const char * const keyword_names[N_KEYWORDS] = {
  "$ref",
  "type",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "prefixItems",
  "items",
  "additionalItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "minProperties",
  "maxProperties",
};

void
mcp_json_schema_keywords_collect (JsonObject *object,
                                  Keywords   *out)
{
  static GHashTable *index = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (g_once_init_enter (&index))
    {
      GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < N_KEYWORDS; i++)
        g_hash_table_insert (table, (gpointer) keyword_names[i], GUINT_TO_POINTER (i + 1));
      g_once_init_leave (&index, table);
    }

  memset (out, 0, sizeof *out);
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &member))
    {
      guint i = GPOINTER_TO_UINT (g_hash_table_lookup (index, name));

      if (i > 0)
        out->k[i - 1] = member;
    }
}

/* The compiled pattern, or NULL when GRegex cannot compile it (then it is
 * skipped); compiled once per validation. */
static GRegex *
lookup_regex (Validator  *v,
              const char *pattern)
{
  Shared *shared = v->shared;
  gpointer regex = NULL;

  if (!g_hash_table_lookup_extended (shared->regexes, pattern, NULL, &regex))
    {
      g_autoptr(GError) error = NULL;

      regex = g_regex_new (pattern, 0, 0, &error);
      if (regex == NULL)
        g_debug ("Schema pattern “%s” is skipped: %s", pattern, error->message);
      g_hash_table_insert (shared->regexes, g_strdup (pattern), regex);
    }
  return regex;
}

static gboolean
get_number (Keywords   *schema,
            Keyword     keyword,
            double     *out)
{
  JsonNode *node = schema->k[keyword];

  if (node == NULL || !node_is_number (node))
    return FALSE;
  *out = node_number (node);
  return TRUE;
}

void
mcp_json_schema_validate_number (Validator  *v,
                                 Keywords   *schema,
                                 JsonNode   *instance,
                                 GString    *path)
{
  double value = node_number (instance);
  g_autofree char *owned = NULL;
  const char *text = "";
  double bound;
  JsonNode *exclusive;

  /* only a validator that lists problems says the value */
  if (v->problems != NULL)
    {
      GString *literal = g_string_new (NULL);

      mcp_json_append (literal, instance);
      text = owned = g_string_free (literal, FALSE);
    }

  exclusive = schema->k[K_EXCLUSIVE_MINIMUM];
  if (get_number (schema, K_MINIMUM, &bound))
    {
      if (exclusive != NULL && node_is_boolean (exclusive) && json_node_get_boolean (exclusive))
        {
          if (!(value > bound))
            mcp_json_schema_add_problem (v, path,
                                         /* Translators: %s is the value entered, %g the schema's bound */
                                         _("%s must be greater than %g"), text, bound);
        }
      else if (value < bound)
        mcp_json_schema_add_problem (v, path, _("%s is less than the minimum %g"), text, bound);
    }
  if (exclusive != NULL && node_is_number (exclusive) && !(value > node_number (exclusive)))
    mcp_json_schema_add_problem (v, path, _("%s must be greater than %g"), text, node_number (exclusive));

  exclusive = schema->k[K_EXCLUSIVE_MAXIMUM];
  if (get_number (schema, K_MAXIMUM, &bound))
    {
      if (exclusive != NULL && node_is_boolean (exclusive) && json_node_get_boolean (exclusive))
        {
          if (!(value < bound))
            mcp_json_schema_add_problem (v, path, _("%s must be less than %g"), text, bound);
        }
      else if (value > bound)
        mcp_json_schema_add_problem (v, path, _("%s is more than the maximum %g"), text, bound);
    }
  if (exclusive != NULL && node_is_number (exclusive) && !(value < node_number (exclusive)))
    mcp_json_schema_add_problem (v, path, _("%s must be less than %g"), text, node_number (exclusive));

  if (get_number (schema, K_MULTIPLE_OF, &bound) && bound > 0)
    {
      JsonNode *m = schema->k[K_MULTIPLE_OF];
      gboolean ok;

      if (node_is_int64 (instance) && node_is_int64 (m))
        ok = json_node_get_int (instance) % json_node_get_int (m) == 0;
      else
        {
          double q = value / bound;

          if (!isfinite (q))
            ok = FALSE;
          else if (q > 9007199254740992.0 || q < -9007199254740992.0)
            ok = TRUE;
          else
            {
              double nearest = (double) (gint64) (q + (q >= 0 ? 0.5 : -0.5));

              ok = ABS (q - nearest) < 1e-9 * MAX (1.0, ABS (q));
            }
        }
      if (!ok)
        mcp_json_schema_add_problem (v, path, _("%s is not a multiple of %g"), text, bound);
    }
}

void
mcp_json_schema_validate_string (Validator  *v,
                                 Keywords   *schema,
                                 JsonNode   *instance,
                                 GString    *path)
{
  const char *s = json_node_get_string (instance);
  glong length = g_utf8_strlen (s, -1);
  double bound;
  JsonNode *member;

  if (get_number (schema, K_MIN_LENGTH, &bound) && length < bound)
    mcp_json_schema_add_problem (v, path, _("must be at least %g characters long, not %ld"), bound, length);
  if (get_number (schema, K_MAX_LENGTH, &bound) && length > bound)
    mcp_json_schema_add_problem (v, path, _("must be at most %g characters long, not %ld"), bound, length);

  member = schema->k[K_PATTERN];
  if (member != NULL && node_is_string (member))
    {
      GRegex *regex = lookup_regex (v, json_node_get_string (member));

      if (regex != NULL && !g_regex_match (regex, s, 0, NULL))
        mcp_json_schema_add_problem (v, path, _("does not match the pattern %s"), json_node_get_string (member));
    }

  member = schema->k[K_FORMAT];
  if (member != NULL && node_is_string (member) && !mcp_json_schema_valid_format (json_node_get_string (member), s))
    mcp_json_schema_add_problem (v, path,
                                 /* Translators: %s is a JSON Schema format name: email, uri, date-time, ipv4… */
                                 _("is not a valid %s"), json_node_get_string (member));
}

void
mcp_json_schema_validate_array (Validator  *v,
                                Keywords   *schema,
                                JsonNode   *instance,
                                GString    *path,
                                guint       depth)
{
  JsonArray *array = json_node_get_array (instance);
  guint length = json_array_get_length (array);
  JsonNode *prefix = schema->k[K_PREFIX_ITEMS];
  JsonNode *items = schema->k[K_ITEMS];
  JsonNode *rest = NULL;
  guint n_prefix = 0;
  double bound;
  JsonNode *member;

  if (prefix != NULL && JSON_NODE_HOLDS_ARRAY (prefix))
    rest = items;
  else if (items != NULL && JSON_NODE_HOLDS_ARRAY (items))
    {
      prefix = items;  /* draft-07 tuple */
      rest = schema->k[K_ADDITIONAL_ITEMS];
    }
  else
    {
      prefix = NULL;
      rest = items;
    }
  if (prefix != NULL)
    n_prefix = json_array_get_length (json_node_get_array (prefix));

  for (guint i = 0; i < length && !mcp_json_schema_validator_full (v); i++)
    {
      JsonNode *item_schema = NULL;
      gsize len = path->len;

      if (i < n_prefix)
        item_schema = json_array_get_element (json_node_get_array (prefix), i);
      else
        item_schema = rest;
      if (item_schema == NULL)
        continue;

      g_string_append_printf (path, "[%u]", i);
      mcp_json_schema_validate_node (v, item_schema, json_array_get_element (array, i), path, depth + 1);
      g_string_truncate (path, len);
    }

  if (get_number (schema, K_MIN_ITEMS, &bound) && length < bound)
    mcp_json_schema_add_problem (v, path, _("must have at least %g items, not %u"), bound, length);
  if (get_number (schema, K_MAX_ITEMS, &bound) && length > bound)
    mcp_json_schema_add_problem (v, path, _("must have at most %g items, not %u"), bound, length);

  member = schema->k[K_UNIQUE_ITEMS];
  if (member != NULL && node_is_boolean (member) && json_node_get_boolean (member))
    {
      for (guint i = 0; i < length; i++)
        for (guint j = i + 1; j < length; j++)
          if (!mcp_json_schema_take_steps (v, path, 1))
            return;
          else if (mcp_json_equal (json_array_get_element (array, i), json_array_get_element (array, j)))
            {
              mcp_json_schema_add_problem (v, path, _("items %u and %u are the same (items must be unique)"), i, j);
              goto unique_done;
            }
    unique_done:
      ;
    }
}

void
mcp_json_schema_validate_object (Validator  *v,
                                 Keywords   *schema,
                                 JsonNode   *instance,
                                 GString    *path,
                                 guint       depth)
{
  JsonObject *object = json_node_get_object (instance);
  JsonNode *properties = schema->k[K_PROPERTIES];
  JsonNode *patterns = schema->k[K_PATTERN_PROPERTIES];
  JsonNode *additional = schema->k[K_ADDITIONAL_PROPERTIES];
  JsonNode *required = schema->k[K_REQUIRED];
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  double bound;
  guint size = json_object_get_size (object);

  if (properties != NULL && !JSON_NODE_HOLDS_OBJECT (properties))
    properties = NULL;
  if (patterns != NULL && !JSON_NODE_HOLDS_OBJECT (patterns))
    patterns = NULL;

  if (required != NULL && JSON_NODE_HOLDS_ARRAY (required))
    {
      JsonArray *names = json_node_get_array (required);

      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          JsonNode *element = json_array_get_element (names, i);

          if (node_is_string (element) && !json_object_has_member (object, json_node_get_string (element)))
            {
              gsize len = path->len;

              mcp_json_append_path_member (path, json_node_get_string (element));
              mcp_json_schema_add_problem (v, path, _("is required"));
              g_string_truncate (path, len);
            }
        }
    }

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member) && !mcp_json_schema_validator_full (v))
    {
      gboolean matched = FALSE;
      gsize len = path->len;

      mcp_json_append_path_member (path, name);

      if (properties != NULL && json_object_has_member (json_node_get_object (properties), name))
        {
          matched = TRUE;
          mcp_json_schema_validate_node (v, json_object_get_member (json_node_get_object (properties), name), member, path, depth + 1);
        }

      if (patterns != NULL)
        {
          JsonObjectIter piter;
          const char *pattern;
          JsonNode *pattern_schema;

          json_object_iter_init_ordered (&piter, json_node_get_object (patterns));
          while (json_object_iter_next_ordered (&piter, &pattern, &pattern_schema) && mcp_json_schema_take_steps (v, path, 1))
            {
              GRegex *regex = lookup_regex (v, pattern);

              if (regex != NULL && g_regex_match (regex, name, 0, NULL))
                {
                  matched = TRUE;
                  mcp_json_schema_validate_node (v, pattern_schema, member, path, depth + 1);
                }
            }
        }

      if (!matched && additional != NULL)
        {
          if (node_is_boolean (additional) && !json_node_get_boolean (additional))
            mcp_json_schema_add_problem (v, path, _("is not allowed (no additional properties)"));
          else
            mcp_json_schema_validate_node (v, additional, member, path, depth + 1);
        }

      g_string_truncate (path, len);
    }

  if (get_number (schema, K_MIN_PROPERTIES, &bound) && size < bound)
    mcp_json_schema_add_problem (v, path, _("must have at least %g properties, not %u"), bound, size);
  if (get_number (schema, K_MAX_PROPERTIES, &bound) && size > bound)
    mcp_json_schema_add_problem (v, path, _("must have at most %g properties, not %u"), bound, size);
}
