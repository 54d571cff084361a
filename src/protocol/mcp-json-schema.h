/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

/**
 * JSON Schema, as MCP tools use it (inputSchema, outputSchema, elicitation
 * requestedSchema): draft 2020-12 and draft-07 keywords that describe data.
 *
 * mcp_json_schema_resolve() follows a local "$ref" ("#", "#/$defs/x",
 * "#/definitions/x", any JSON pointer into @root, with ~0 ~1 escapes);
 * NULL when it does not resolve (a remote ref, a bad pointer) with @error
 * (MCP_ERROR_INVALID_MESSAGE) saying which ref. A chain of refs is followed
 * up to 32 steps (a loop is an error).
 *
 * mcp_json_schema_validate() checks @instance against @schema (with @root
 * for refs): type (incl. "integer", arrays of types, "null"), enum, const,
 * properties, required, additionalProperties (false or a schema),
 * patternProperties, items (schema; prefixItems), minItems, maxItems,
 * uniqueItems, minLength, maxLength (in characters), pattern (ECMA regex
 * approximated with GRegex; a pattern GRegex cannot compile is skipped),
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum (number and draft-04
 * boolean forms), multipleOf, format (date, date-time, time, email, uri,
 * uuid, ipv4 — others ignored), allOf, anyOf, oneOf, not, if/then/else,
 * minProperties, maxProperties. Boolean schemas true / false. Unknown
 * keywords are ignored. Returns TRUE when valid; otherwise FALSE and
 * @problems (nullable out, a GPtrArray of char*) gets one message per
 * problem: "$.items[2].name: expected a string, not a number". At most 100
 * problems. @problems is always set (an empty array when valid).
 * mcp_json_schema_resolve() returns a node owned by @root / @schema
 * (transfer none).
 *
 * The work is bounded, since schemas come from servers: every visit of a
 * subschema (and each enum value, pattern property and uniqueItems pair)
 * is a step of a budget of MCP_JSON_SCHEMA_MAX_STEPS (no real schema comes
 * near it: the largest in the tests take a few hundred), nesting stops at
 * 256 levels, each "$ref" is resolved once per call, and a "$ref" that
 * leads back to a schema being checked for the same value (so would never
 * end: {"oneOf":[{"$ref":"#"},{"$ref":"#"}]}) stops at once. A validation
 * that stops is neither a pass nor a failure:
 * mcp_json_schema_check() says MCP_JSON_SCHEMA_TOO_COMPLEX and @problems
 * holds one message, "$: not validated: the schema is too complex (…)";
 * mcp_json_schema_validate() returns FALSE with that message. @budget
 * (nullable, in and out): the steps this call may take, less those it
 * took on return, so that several calls share one budget; NULL is
 * MCP_JSON_SCHEMA_MAX_STEPS for this call.
 */
#define MCP_JSON_SCHEMA_MAX_STEPS 100000

typedef enum
{
  MCP_JSON_SCHEMA_VALID,
  MCP_JSON_SCHEMA_INVALID,
  MCP_JSON_SCHEMA_TOO_COMPLEX,
} McpJsonSchemaOutcome;

JsonNode  *mcp_json_schema_resolve  (JsonNode    *root,
                                     JsonNode    *schema,
                                     GError     **error);
gboolean   mcp_json_schema_validate (JsonNode    *root,
                                     JsonNode    *schema,
                                     JsonNode    *instance,
                                     GPtrArray  **problems);
McpJsonSchemaOutcome mcp_json_schema_check (JsonNode    *root,
                                            JsonNode    *schema,
                                            JsonNode    *instance,
                                            guint       *budget,
                                            GPtrArray  **problems);

/* The first of the schema's "type" (a string, or the first non-"null" of an
 * array), or NULL; *nullable set when the type list has "null". */
const char *mcp_json_schema_get_type (JsonObject  *schema,
                                      gboolean    *nullable);

G_END_DECLS
