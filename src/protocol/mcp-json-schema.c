/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-schema.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

#define MAX_REF_STEPS 32
#define MAX_PROBLEMS 100
#define MAX_DEPTH 256

/* Why a validation stopped before its answer. */
typedef enum
{
  STOP_NONE,
  STOP_STEPS,
  STOP_DEPTH,
  STOP_LOOP,
} StopReason;

typedef struct
{
  char     *ref;
  JsonNode *target;   /* borrowed from root; NULL: does not resolve */
  char     *message;  /* why not */
} RefEntry;

typedef struct
{
  JsonNode *schema;
  JsonNode *instance;
} Visit;

/* What every part of one validation shares: the budget, the refs and
 * patterns met so far, and the refs being followed (a ref that comes back
 * to the same schema and the same value without going deeper into the
 * value would never end). */
typedef struct
{
  JsonNode   *root;
  guint       steps_left;
  StopReason  stop;
  char       *stop_path;  /* where it stopped */
  GHashTable *refs;      /* ref → RefEntry */
  GHashTable *regexes;   /* pattern → GRegex, or NULL when it does not compile */
  GArray     *following; /* Visit */
} Shared;

typedef struct
{
  Shared    *shared;
  GPtrArray *problems;   /* NULL: only count (anyOf / oneOf / not / if) */
  guint      n_problems;
} Validator;

/* The keywords of one schema object, found with one pass over its
 * members rather than a lookup of every keyword the validator knows: most
 * schemas have a few members, and a validation visits many. */
typedef enum
{
  K_REF,
  K_TYPE,
  K_ENUM,
  K_CONST,
  K_ALL_OF,
  K_ANY_OF,
  K_ONE_OF,
  K_NOT,
  K_IF,
  K_THEN,
  K_ELSE,
  K_MINIMUM,
  K_MAXIMUM,
  K_EXCLUSIVE_MINIMUM,
  K_EXCLUSIVE_MAXIMUM,
  K_MULTIPLE_OF,
  K_MIN_LENGTH,
  K_MAX_LENGTH,
  K_PATTERN,
  K_FORMAT,
  K_PREFIX_ITEMS,
  K_ITEMS,
  K_ADDITIONAL_ITEMS,
  K_MIN_ITEMS,
  K_MAX_ITEMS,
  K_UNIQUE_ITEMS,
  K_PROPERTIES,
  K_PATTERN_PROPERTIES,
  K_ADDITIONAL_PROPERTIES,
  K_REQUIRED,
  K_MIN_PROPERTIES,
  K_MAX_PROPERTIES,
  N_KEYWORDS
} Keyword;

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

typedef struct
{
  JsonNode *k[N_KEYWORDS];
} Keywords;

static void
keywords_collect (JsonObject *object,
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

/* Pointers: "#", "#/$defs/a~1b" (~1 is "/", ~0 is "~"), percent-encoded as
 * in a URI fragment. */
static JsonNode *
follow_pointer (JsonNode    *root,
                const char  *ref,
                GError     **error)
{
  g_autofree char *fragment = NULL;
  g_auto(GStrv) segments = NULL;
  JsonNode *node = root;

  if (ref[0] != '#')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Schema reference “%s” is not local to the schema (only “#…” references are followed)"),
                   ref);
      return NULL;
    }

  /* percent-escapes may decode to bytes that are not UTF-8: no member of
   * a JSON object has such a name (and no message may hold it) */
  fragment = g_uri_unescape_string (ref + 1, NULL);
  if (fragment == NULL || !g_utf8_validate (fragment, -1, NULL))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Schema reference “%s” is not a valid URI fragment"), ref);
      return NULL;
    }
  if (fragment[0] == '\0')
    return root;
  if (fragment[0] != '/')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Schema reference “%s” is not a JSON pointer (anchors are not supported)"), ref);
      return NULL;
    }

  segments = g_strsplit (fragment + 1, "/", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    {
      GString *segment = g_string_new (NULL);
      g_autofree char *name = NULL;

      for (const char *p = segments[i]; *p != '\0'; p++)
        {
          if (p[0] == '~' && p[1] == '0')
            g_string_append_c (segment, '~'), p++;
          else if (p[0] == '~' && p[1] == '1')
            g_string_append_c (segment, '/'), p++;
          else
            g_string_append_c (segment, *p);
        }
      name = g_string_free (segment, FALSE);

      if (JSON_NODE_HOLDS_OBJECT (node) && json_object_has_member (json_node_get_object (node), name))
        node = json_object_get_member (json_node_get_object (node), name);
      else if (JSON_NODE_HOLDS_ARRAY (node) && name[0] != '\0' &&
               strspn (name, "0123456789") == strlen (name) &&
               g_ascii_strtoull (name, NULL, 10) < json_array_get_length (json_node_get_array (node)))
        node = json_array_get_element (json_node_get_array (node), g_ascii_strtoull (name, NULL, 10));
      else
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("Schema reference “%s” does not resolve: there is no “%s” in the schema"),
                       ref, name);
          return NULL;
        }
    }

  return node;
}

/**
 * mcp_json_schema_resolve:
 *
 * Returns: (transfer none): @schema itself when it has no "$ref", else the
 * node the chain of refs leads to inside @root.
 */
JsonNode *
mcp_json_schema_resolve (JsonNode    *root,
                         JsonNode    *schema,
                         GError     **error)
{
  JsonNode *node = schema;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (root == NULL)
    root = schema;

  for (guint steps = 0; ; steps++)
    {
      JsonObject *object;
      JsonNode *ref_node;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return node;
      object = json_node_get_object (node);
      ref_node = json_object_get_member (object, "$ref");
      if (ref_node == NULL)
        return node;
      if (!JSON_NODE_HOLDS_VALUE (ref_node) || json_node_get_value_type (ref_node) != G_TYPE_STRING)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("Schema “$ref” is not a string"));
          return NULL;
        }
      if (steps >= MAX_REF_STEPS)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("Schema reference “%s” loops (more than %d references in a chain)"),
                       json_node_get_string (ref_node), MAX_REF_STEPS);
          return NULL;
        }
      node = follow_pointer (root, json_node_get_string (ref_node), error);
      if (node == NULL)
        return NULL;
    }
}

const char *
mcp_json_schema_get_type (JsonObject *schema,
                          gboolean   *nullable)
{
  JsonNode *type;
  const char *first = NULL;
  gboolean has_null = FALSE;

  if (nullable != NULL)
    *nullable = FALSE;
  g_return_val_if_fail (schema != NULL, NULL);

  type = json_object_get_member (schema, "type");
  if (type == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    return json_node_get_string (type);
  if (!JSON_NODE_HOLDS_ARRAY (type))
    return NULL;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (type)); i++)
    {
      JsonNode *element = json_array_get_element (json_node_get_array (type), i);
      const char *name;

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        continue;
      name = json_node_get_string (element);
      if (g_str_equal (name, "null"))
        has_null = TRUE;
      else if (first == NULL)
        first = name;
    }

  if (nullable != NULL)
    *nullable = has_null;
  if (first == NULL && has_null)
    return "null";
  return first;
}

/* Helpers on instances */

static gboolean
node_is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || type == G_TYPE_INT || type == G_TYPE_FLOAT;
}

static gboolean
node_is_int64 (JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  return type == G_TYPE_INT64 || type == G_TYPE_INT;
}

static double
node_number (JsonNode *node)
{
  if (node_is_int64 (node))
    return (double) json_node_get_int (node);
  return json_node_get_double (node);
}

static gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
node_is_boolean (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

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

static gboolean
validator_full (Validator *v)
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

/* @steps of the budget; FALSE (and the validation stops) when there are
 * not that many left. */
static gboolean
take_steps (Validator *v,
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

static void G_GNUC_PRINTF (3, 4)
add_problem (Validator  *v,
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

/* Formats */

static gboolean
digits (const char *s,
        guint       n)
{
  for (guint i = 0; i < n; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

static gboolean
valid_full_date (const char *s)
{
  guint year, month, day;

  if (strlen (s) < 10 || !digits (s, 4) || s[4] != '-' || !digits (s + 5, 2) || s[7] != '-' || !digits (s + 8, 2))
    return FALSE;
  year = g_ascii_strtoull (s, NULL, 10);
  month = (s[5] - '0') * 10 + (s[6] - '0');
  day = (s[8] - '0') * 10 + (s[9] - '0');
  if (year < 1 || month < 1 || month > 12 || day < 1)
    return FALSE;
  return day <= g_date_get_days_in_month (month, year);
}

/* "hh:mm:ss[.frac]" then, when @offset, a required "Z" or "±hh:mm". */
static gboolean
valid_time (const char *s,
            gboolean    need_offset)
{
  guint hour, minute, second;
  const char *p;

  if (strlen (s) < 8 || !digits (s, 2) || s[2] != ':' || !digits (s + 3, 2) || s[5] != ':' || !digits (s + 6, 2))
    return FALSE;
  hour = (s[0] - '0') * 10 + (s[1] - '0');
  minute = (s[3] - '0') * 10 + (s[4] - '0');
  second = (s[6] - '0') * 10 + (s[7] - '0');
  if (hour > 23 || minute > 59 || second > 60)
    return FALSE;
  p = s + 8;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (*p == '\0')
    return !need_offset;
  if ((*p == 'Z' || *p == 'z') && p[1] == '\0')
    return TRUE;
  if ((*p == '+' || *p == '-') && strlen (p) == 6 && digits (p + 1, 2) && p[3] == ':' && digits (p + 4, 2))
    return (p[1] - '0') * 10 + (p[2] - '0') <= 23 && (p[4] - '0') * 10 + (p[5] - '0') <= 59;
  return FALSE;
}

static gboolean
valid_format (const char *format,
              const char *s)
{
  if (g_str_equal (format, "date"))
    return strlen (s) == 10 && valid_full_date (s);
  if (g_str_equal (format, "date-time"))
    return strlen (s) > 11 && valid_full_date (s) && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') &&
           valid_time (s + 11, TRUE);
  if (g_str_equal (format, "time"))
    return valid_time (s, TRUE);
  if (g_str_equal (format, "email"))
    return g_regex_match_simple ("^[^@\\s]+@[^@\\s.][^@\\s]*$", s, 0, 0);
  if (g_str_equal (format, "uri"))
    return g_uri_is_valid (s, G_URI_FLAGS_NONE, NULL) && strchr (s, ' ') == NULL;
  if (g_str_equal (format, "uuid"))
    return g_uuid_string_is_valid (s);
  if (g_str_equal (format, "ipv4"))
    return g_regex_match_simple ("^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
                                 "(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$", s, 0, 0);
  return TRUE;
}

/* The validator */

static void validate (Validator *v, JsonNode *schema, JsonNode *instance, GString *path, guint depth);

static gboolean
is_valid (Validator *v,
          JsonNode  *schema,
          JsonNode  *instance,
          GString   *path,
          guint      depth)
{
  Validator scratch = { v->shared, NULL, 0 };
  gsize len = path->len;

  validate (&scratch, schema, instance, path, depth);
  g_string_truncate (path, len);
  return scratch.n_problems == 0;
}

static void
regex_unref (gpointer data)
{
  if (data != NULL)
    g_regex_unref (data);
}

static void
ref_entry_free (gpointer data)
{
  RefEntry *entry = data;

  g_free (entry->ref);
  g_free (entry->message);
  g_free (entry);
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
      entry->target = follow_pointer (shared->root, ref, &error);
      if (entry->target == NULL)
        entry->message = g_strdup (error->message);
      g_hash_table_insert (shared->refs, entry->ref, entry);
    }
  return entry;
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

static void
validate_number (Validator  *v,
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
            add_problem (v, path,
                         /* Translators: %s is the value entered, %g the schema's bound */
                         _("%s must be greater than %g"), text, bound);
        }
      else if (value < bound)
        add_problem (v, path, _("%s is less than the minimum %g"), text, bound);
    }
  if (exclusive != NULL && node_is_number (exclusive) && !(value > node_number (exclusive)))
    add_problem (v, path, _("%s must be greater than %g"), text, node_number (exclusive));

  exclusive = schema->k[K_EXCLUSIVE_MAXIMUM];
  if (get_number (schema, K_MAXIMUM, &bound))
    {
      if (exclusive != NULL && node_is_boolean (exclusive) && json_node_get_boolean (exclusive))
        {
          if (!(value < bound))
            add_problem (v, path, _("%s must be less than %g"), text, bound);
        }
      else if (value > bound)
        add_problem (v, path, _("%s is more than the maximum %g"), text, bound);
    }
  if (exclusive != NULL && node_is_number (exclusive) && !(value < node_number (exclusive)))
    add_problem (v, path, _("%s must be less than %g"), text, node_number (exclusive));

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
        add_problem (v, path, _("%s is not a multiple of %g"), text, bound);
    }
}

static void
validate_string (Validator  *v,
                 Keywords   *schema,
                 JsonNode   *instance,
                 GString    *path)
{
  const char *s = json_node_get_string (instance);
  glong length = g_utf8_strlen (s, -1);
  double bound;
  JsonNode *member;

  if (get_number (schema, K_MIN_LENGTH, &bound) && length < bound)
    add_problem (v, path, _("must be at least %g characters long, not %ld"), bound, length);
  if (get_number (schema, K_MAX_LENGTH, &bound) && length > bound)
    add_problem (v, path, _("must be at most %g characters long, not %ld"), bound, length);

  member = schema->k[K_PATTERN];
  if (member != NULL && node_is_string (member))
    {
      GRegex *regex = lookup_regex (v, json_node_get_string (member));

      if (regex != NULL && !g_regex_match (regex, s, 0, NULL))
        add_problem (v, path, _("does not match the pattern %s"), json_node_get_string (member));
    }

  member = schema->k[K_FORMAT];
  if (member != NULL && node_is_string (member) && !valid_format (json_node_get_string (member), s))
    add_problem (v, path,
                 /* Translators: %s is a JSON Schema format name: email, uri, date-time, ipv4… */
                 _("is not a valid %s"), json_node_get_string (member));
}

static void
validate_array (Validator  *v,
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

  for (guint i = 0; i < length && !validator_full (v); i++)
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
      validate (v, item_schema, json_array_get_element (array, i), path, depth + 1);
      g_string_truncate (path, len);
    }

  if (get_number (schema, K_MIN_ITEMS, &bound) && length < bound)
    add_problem (v, path, _("must have at least %g items, not %u"), bound, length);
  if (get_number (schema, K_MAX_ITEMS, &bound) && length > bound)
    add_problem (v, path, _("must have at most %g items, not %u"), bound, length);

  member = schema->k[K_UNIQUE_ITEMS];
  if (member != NULL && node_is_boolean (member) && json_node_get_boolean (member))
    {
      for (guint i = 0; i < length; i++)
        for (guint j = i + 1; j < length; j++)
          if (!take_steps (v, path, 1))
            return;
          else if (mcp_json_equal (json_array_get_element (array, i), json_array_get_element (array, j)))
            {
              add_problem (v, path, _("items %u and %u are the same (items must be unique)"), i, j);
              goto unique_done;
            }
    unique_done:
      ;
    }
}

static void
validate_object (Validator  *v,
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

              append_property (path, json_node_get_string (element));
              add_problem (v, path, _("is required"));
              g_string_truncate (path, len);
            }
        }
    }

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member) && !validator_full (v))
    {
      gboolean matched = FALSE;
      gsize len = path->len;

      append_property (path, name);

      if (properties != NULL && json_object_has_member (json_node_get_object (properties), name))
        {
          matched = TRUE;
          validate (v, json_object_get_member (json_node_get_object (properties), name), member, path, depth + 1);
        }

      if (patterns != NULL)
        {
          JsonObjectIter piter;
          const char *pattern;
          JsonNode *pattern_schema;

          json_object_iter_init_ordered (&piter, json_node_get_object (patterns));
          while (json_object_iter_next_ordered (&piter, &pattern, &pattern_schema) && take_steps (v, path, 1))
            {
              GRegex *regex = lookup_regex (v, pattern);

              if (regex != NULL && g_regex_match (regex, name, 0, NULL))
                {
                  matched = TRUE;
                  validate (v, pattern_schema, member, path, depth + 1);
                }
            }
        }

      if (!matched && additional != NULL)
        {
          if (node_is_boolean (additional) && !json_node_get_boolean (additional))
            add_problem (v, path, _("is not allowed (no additional properties)"));
          else
            validate (v, additional, member, path, depth + 1);
        }

      g_string_truncate (path, len);
    }

  if (get_number (schema, K_MIN_PROPERTIES, &bound) && size < bound)
    add_problem (v, path, _("must have at least %g properties, not %u"), bound, size);
  if (get_number (schema, K_MAX_PROPERTIES, &bound) && size > bound)
    add_problem (v, path, _("must have at most %g properties, not %u"), bound, size);
}

static void
validate (Validator *v,
          JsonNode  *schema,
          JsonNode  *instance,
          GString   *path,
          guint      depth)
{
  Keywords keywords;
  Keywords *k = &keywords;
  JsonNode *member;

  if (validator_full (v) || !take_steps (v, path, 1))
    return;

  if (depth > MAX_DEPTH)
    {
      stop_at (v, path, STOP_DEPTH);
      return;
    }

  if (node_is_boolean (schema))
    {
      if (!json_node_get_boolean (schema))
        add_problem (v, path, _("no value is allowed here"));
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (schema))
    return;  /* not a schema: restricts nothing */
  keywords_collect (json_node_get_object (schema), k);

  member = k->k[K_REF];
  if (member != NULL)
    {
      RefEntry *entry;
      GArray *following = v->shared->following;
      Visit visit;

      if (!node_is_string (member))
        {
          add_problem (v, path, "%s", _("Schema “$ref” is not a string"));
          return;
        }
      entry = lookup_ref (v, json_node_get_string (member));
      if (entry->target == NULL)
        {
          add_problem (v, path, "%s", entry->message);
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
      validate (v, entry->target, instance, path, depth + 1);
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
          add_problem (v, path, _("expected %s, not %s"), expected->str, describe_instance (instance));
          return;  /* the other keywords would only repeat it */
        }
    }

  member = k->k[K_ENUM];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *values = json_node_get_array (member);
      gboolean found = FALSE;

      if (!take_steps (v, path, json_array_get_length (values)))
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
          add_problem (v, path, _("must be one of %s"), text);
        }
    }

  member = k->k[K_CONST];
  if (member != NULL && !mcp_json_equal (member, instance))
    {
      GString *text = g_string_new (NULL);

      mcp_json_append (text, member);
      add_problem (v, path, _("must be %s"), text->str);
      g_string_free (text, TRUE);
    }

  if (node_is_number (instance))
    validate_number (v, k, instance, path);
  else if (node_is_string (instance))
    validate_string (v, k, instance, path);
  else if (JSON_NODE_HOLDS_ARRAY (instance))
    validate_array (v, k, instance, path, depth);
  else if (JSON_NODE_HOLDS_OBJECT (instance))
    validate_object (v, k, instance, path, depth);

  member = k->k[K_ALL_OF];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (member)); i++)
      validate (v, json_array_get_element (json_node_get_array (member), i), instance, path, depth + 1);

  member = k->k[K_ANY_OF];
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *schemas = json_node_get_array (member);
      gboolean ok = FALSE;

      for (guint i = 0; i < json_array_get_length (schemas) && !ok; i++)
        ok = is_valid (v, json_array_get_element (schemas, i), instance, path, depth + 1);
      if (!ok)
        add_problem (v, path, _("does not match any of the allowed schemas (anyOf)"));
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
        add_problem (v, path, _("does not match any of the allowed schemas (oneOf)"));
      else if (matches > 1)
        add_problem (v, path, _("matches %u of the schemas, but must match exactly one (oneOf)"), matches);
    }

  member = k->k[K_NOT];
  if (member != NULL && is_valid (v, member, instance, path, depth + 1))
    add_problem (v, path, _("matches a schema it must not match (not)"));

  member = k->k[K_IF];
  if (member != NULL)
    {
      JsonNode *branch;

      if (is_valid (v, member, instance, path, depth + 1))
        branch = k->k[K_THEN];
      else
        branch = k->k[K_ELSE];
      if (branch != NULL)
        validate (v, branch, instance, path, depth + 1);
    }
}

McpJsonSchemaOutcome
mcp_json_schema_check (JsonNode   *root,
                       JsonNode   *schema,
                       JsonNode   *instance,
                       guint      *budget,
                       GPtrArray **problems)
{
  Shared shared = { 0, };
  Validator v = { 0, };
  g_autoptr(GString) path = g_string_new ("$");
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_free);
  McpJsonSchemaOutcome outcome;
  guint initial;

  if (problems != NULL)
    *problems = NULL;
  g_return_val_if_fail (schema != NULL, MCP_JSON_SCHEMA_INVALID);
  g_return_val_if_fail (instance != NULL, MCP_JSON_SCHEMA_INVALID);

  shared.root = root != NULL ? root : schema;
  initial = budget != NULL ? *budget : MCP_JSON_SCHEMA_MAX_STEPS;
  shared.steps_left = initial;
  shared.refs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, ref_entry_free);
  shared.regexes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          regex_unref);
  shared.following = g_array_new (FALSE, FALSE, sizeof (Visit));
  v.shared = &shared;
  v.problems = list;
  validate (&v, schema, instance, path, 0);

  if (budget != NULL)
    *budget = shared.steps_left;

  if (shared.stop != STOP_NONE)
    {
      g_autofree char *why = NULL;

      if (shared.stop == STOP_STEPS)
        why = g_strdup_printf (_("more than %u steps"), initial);
      else if (shared.stop == STOP_DEPTH)
        why = g_strdup_printf (_("it nests more than %u levels deep"), MAX_DEPTH);
      else
        why = g_strdup (_("a reference leads back to itself for the same value"));
      g_ptr_array_set_size (list, 0);
      g_ptr_array_add (list, g_strdup_printf (_("%s: not validated: the schema is too complex (%s)"),
                                              shared.stop_path, why));
      outcome = MCP_JSON_SCHEMA_TOO_COMPLEX;
    }
  else
    outcome = v.n_problems == 0 ? MCP_JSON_SCHEMA_VALID : MCP_JSON_SCHEMA_INVALID;

  g_free (shared.stop_path);
  g_hash_table_unref (shared.refs);
  g_hash_table_unref (shared.regexes);
  g_array_unref (shared.following);

  if (problems != NULL)
    *problems = g_steal_pointer (&list);
  return outcome;
}

gboolean
mcp_json_schema_validate (JsonNode   *root,
                          JsonNode   *schema,
                          JsonNode   *instance,
                          GPtrArray **problems)
{
  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);

  return mcp_json_schema_check (root, schema, instance, NULL, problems) == MCP_JSON_SCHEMA_VALID;
}
