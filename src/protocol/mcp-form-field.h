/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

/**
 * McpFormField:
 *
 * The model of a form generated from a JSON Schema (a tool's inputSchema,
 * an elicitation's requestedSchema), separate from any widget so it is
 * tested without a display. A tree: an OBJECT field has one child per
 * property (in the schema's order); an ARRAY has one child per item; a MAP
 * (additionalProperties with a schema) has key/value children; a UNION
 * (oneOf / anyOf) has the chosen variant as its only child.
 *
 * Kinds:
 * - STRING (with enum → ENUM; format date / date-time / email / uri kept in
 *   "format"; minLength, maxLength, pattern checked by mcp_form_field_check),
 * - NUMBER, INTEGER (minimum/maximum/exclusive*, multipleOf as step),
 * - BOOLEAN, NULL, CONST (a fixed value shown, not edited),
 * - ENUM (any JSON values; a nullable enum has a "none" choice; also a
 *   "oneOf" whose every variant is a "const" with a title),
 * - OBJECT, ARRAY (items of scalars or objects: add, remove, move),
 * - MAP, UNION (variants titled by their "title", "const"/"type", or
 *   "Option N"; the person picks one),
 * - JSON: what the form cannot express (tuple arrays, "not", a $ref that
 *   does not resolve, patternProperties…) is one raw JSON value edited as
 *   text — only that field, never the whole form.
 * A "$ref" is resolved against the root schema when the field is created;
 * a recursive schema expands on demand: an optional OBJECT whose schema is
 * one of its own ancestors starts unset, and its children are created when
 * it is set (mcp_form_field_set_present).
 *
 * Values:
 * - A field is present or absent. Required properties and array items are
 *   always present; an optional property is absent until given a value
 *   (absent properties are left out of the JSON, never sent as null).
 * - Scalars keep the text the person typed (mcp_form_field_set_text) and
 *   convert on to_json: a NUMBER's text "1.50" gives the JSON number as
 *   written (the literal is kept, not reformatted); text that does not
 *   convert is an error at that field's path.
 * - "default" values fill the field at creation but the field stays absent
 *   (shown as a placeholder) unless required.
 * - set_from_json() loads any JSON value: values the schema's form can hold
 *   go into the fields; a value the field's kind cannot hold turns that
 *   field into a JSON field holding it — values are never dropped or
 *   re-escaped. So form → JSON → form → JSON gives the same JSON, and raw
 *   JSON edited by the person survives a switch to the form and back.
 *
 * Signals: changed (emitted on the field that changed and on each
 * ancestor), structure-changed (children added, removed, replaced).
 */
typedef enum
{
  MCP_FORM_FIELD_STRING,
  MCP_FORM_FIELD_NUMBER,
  MCP_FORM_FIELD_INTEGER,
  MCP_FORM_FIELD_BOOLEAN,
  MCP_FORM_FIELD_NULL,
  MCP_FORM_FIELD_CONST,
  MCP_FORM_FIELD_ENUM,
  MCP_FORM_FIELD_OBJECT,
  MCP_FORM_FIELD_ARRAY,
  MCP_FORM_FIELD_MAP,
  MCP_FORM_FIELD_UNION,
  MCP_FORM_FIELD_JSON,
} McpFormFieldKind;

#define MCP_TYPE_FORM_FIELD (mcp_form_field_get_type ())

G_DECLARE_FINAL_TYPE (McpFormField, mcp_form_field, MCP, FORM_FIELD, GObject)

/* The root field of @schema (an object schema gives an OBJECT). @schema is
 * also the root for "$ref". Never fails: what cannot be understood becomes
 * a JSON field. */
McpFormField      *mcp_form_field_new_from_schema (JsonNode      *schema);

McpFormFieldKind   mcp_form_field_get_kind        (McpFormField  *self);
/* TRUE for a JSON field that stands for what the schema would have made
 * past a bound (issue 20): 64 levels of nesting, 2,000 fields made by one
 * call, or a union whose variant is itself ({"oneOf":[{"$ref":"#"}…]}).
 * Checks by the schema share one budget of validation steps per call; a
 * value the schema is too complex to check is not a problem. */
gboolean           mcp_form_field_get_too_complex (McpFormField  *self);
McpFormField      *mcp_form_field_get_parent      (McpFormField  *self);
/* The property name (OBJECT children), the key (MAP children), NULL else. */
const char        *mcp_form_field_get_name        (McpFormField  *self);
/* "$.a.b[2]" */
char              *mcp_form_field_dup_path        (McpFormField  *self);
const char        *mcp_form_field_get_title       (McpFormField  *self);   /* schema "title", else the name */
const char        *mcp_form_field_get_description (McpFormField  *self);
gboolean           mcp_form_field_get_required    (McpFormField  *self);
gboolean           mcp_form_field_get_nullable    (McpFormField  *self);
/* The field's (resolved) schema object. */
JsonObject        *mcp_form_field_get_schema      (McpFormField  *self);
/* "format" of a STRING, or NULL. */
const char        *mcp_form_field_get_format      (McpFormField  *self);

gboolean           mcp_form_field_get_present     (McpFormField  *self);
void               mcp_form_field_set_present     (McpFormField  *self,
                                                   gboolean       present);
/* Makes present each optional field (here and below) whose value is its
 * schema's "default": an elicitation form sends the defaults the person
 * left as they were (SEP-1034), where a tool's form leaves them to the
 * tool. */
void               mcp_form_field_include_defaults (McpFormField *self);

/* Children (OBJECT, ARRAY, MAP, UNION); a GListModel of McpFormField. */
GListModel        *mcp_form_field_get_children    (McpFormField  *self);
McpFormField      *mcp_form_field_get_child       (McpFormField  *self,
                                                   const char    *name);

/* Scalars: the text as typed (STRING, NUMBER, INTEGER, JSON: the raw JSON
 * text). */
const char        *mcp_form_field_get_text        (McpFormField  *self);
void               mcp_form_field_set_text        (McpFormField  *self,
                                                   const char    *text);
gboolean           mcp_form_field_get_boolean     (McpFormField  *self);
void               mcp_form_field_set_boolean     (McpFormField  *self,
                                                   gboolean       value);
/* ENUM: the choices (JsonNode values, "none" first when nullable) and the
 * chosen index (-1: none chosen). */
GPtrArray         *mcp_form_field_get_choices     (McpFormField  *self);
int                mcp_form_field_get_choice      (McpFormField  *self);
void               mcp_form_field_set_choice      (McpFormField  *self,
                                                   int            index);
/* ENUM: the title of choice @index, for a titled single choice ("oneOf"
 * or "anyOf" of {"const", "title"}, SEP-1330), or NULL when it has none. */
const char        *mcp_form_field_get_choice_title (McpFormField *self,
                                                    guint         index);

/* ARRAY: add an item (at the end; its value from the items schema's
 * default, else empty), remove, move. MAP: add a key (must be new). */
McpFormField      *mcp_form_field_add_item        (McpFormField  *self);
void               mcp_form_field_remove_item     (McpFormField  *self,
                                                   guint          index);
void               mcp_form_field_move_item       (McpFormField  *self,
                                                   guint          from,
                                                   guint          to);
McpFormField      *mcp_form_field_add_key         (McpFormField  *self,
                                                   const char    *key,
                                                   GError       **error);
/* UNION: the variants' titles and the chosen one. Switching keeps what
 * fits (e.g. object properties with the same name). */
const char * const *mcp_form_field_get_variant_titles (McpFormField *self);
guint              mcp_form_field_get_variant     (McpFormField  *self);
void               mcp_form_field_set_variant     (McpFormField  *self,
                                                   guint          index);

/* The value the fields make (new JsonNode), or NULL with @error naming the
 * first field's path and what is wrong (MCP_ERROR_INVALID_MESSAGE). An
 * absent root gives "{}" for an OBJECT. */
JsonNode          *mcp_form_field_to_json         (McpFormField  *self,
                                                   GError       **error);
/* Loads @value (see above). */
void               mcp_form_field_set_from_json   (McpFormField  *self,
                                                   JsonNode      *value);
/* Problems of this field and below against the schema (required missing,
 * pattern, bounds, format…): GPtrArray of char* "path: message"; empty
 * when fine. */
GPtrArray         *mcp_form_field_check           (McpFormField  *self);

G_END_DECLS
