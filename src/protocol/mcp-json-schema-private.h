/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-json-schema.h"

G_BEGIN_DECLS

/* Shared by the parts of the JSON Schema validator: mcp-json-schema.c
 * (refs, types, the entry points), mcp-json-schema-validate.c (one schema
 * against one value; problems and the budget), mcp-json-schema-keywords.c
 * (the keywords of numbers, strings, arrays and objects) and
 * mcp-json-schema-format.c ("format"). */

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

typedef struct
{
  JsonNode *k[N_KEYWORDS];
} Keywords;

/* Helpers on instances */

static inline gboolean
node_is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || type == G_TYPE_INT || type == G_TYPE_FLOAT;
}

static inline gboolean
node_is_int64 (JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  return type == G_TYPE_INT64 || type == G_TYPE_INT;
}

static inline double
node_number (JsonNode *node)
{
  if (node_is_int64 (node))
    return (double) json_node_get_int (node);
  return json_node_get_double (node);
}

static inline gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static inline gboolean
node_is_boolean (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

/* mcp-json-schema.c */
JsonNode *mcp_json_schema_follow_pointer   (JsonNode    *root,
                                            const char  *ref,
                                            GError     **error);

/* mcp-json-schema-validate.c */
void      mcp_json_schema_validate_node    (Validator   *v,
                                            JsonNode    *schema,
                                            JsonNode    *instance,
                                            GString     *path,
                                            guint        depth);
gboolean  mcp_json_schema_validator_full   (Validator   *v);
/* @steps of the budget; FALSE (and the validation stops) when there are
 * not that many left. */
gboolean  mcp_json_schema_take_steps       (Validator   *v,
                                            GString     *path,
                                            guint        steps);
void      mcp_json_schema_add_problem      (Validator   *v,
                                            GString     *path,
                                            const char  *format,
                                            ...) G_GNUC_PRINTF (3, 4);

/* mcp-json-schema-keywords.c */
void      mcp_json_schema_keywords_collect (JsonObject  *object,
                                            Keywords    *out);
void      mcp_json_schema_validate_number  (Validator   *v,
                                            Keywords    *schema,
                                            JsonNode    *instance,
                                            GString     *path);
void      mcp_json_schema_validate_string  (Validator   *v,
                                            Keywords    *schema,
                                            JsonNode    *instance,
                                            GString     *path);
void      mcp_json_schema_validate_array   (Validator   *v,
                                            Keywords    *schema,
                                            JsonNode    *instance,
                                            GString     *path,
                                            guint        depth);
void      mcp_json_schema_validate_object  (Validator   *v,
                                            Keywords    *schema,
                                            JsonNode    *instance,
                                            GString     *path,
                                            guint        depth);

/* mcp-json-schema-format.c: whether @s is a valid @format (unknown
 * formats: TRUE). */
gboolean  mcp_json_schema_valid_format     (const char  *format,
                                            const char  *s);

G_END_DECLS
