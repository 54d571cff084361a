/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-form-field.h"
#include "mcp-json-schema.h"

G_BEGIN_DECLS

/* Shared by the parts of McpFormField: mcp-form-field.c (the object, its
 * helpers and getters), mcp-form-field-build.c (fields from a schema),
 * mcp-form-field-choices.c (enum choices, union variants),
 * mcp-form-field-load.c (values into fields), mcp-form-field-edit.c (what
 * the person changes) and mcp-form-field-output.c (to_json and check). */

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

/* The topmost field, which holds the budget of the operation under way. */
McpFormField         *mcp_form_field_top                    (McpFormField  *self);
/* Each public call that creates fields or validates starts a new budget,
 * shared by everything it does. */
void                  mcp_form_field_budget_start           (McpFormField  *self);
/* Whether @value matches @schema within the operation's budget; a
 * schema too complex to tell is no match. */
McpJsonSchemaOutcome  mcp_form_field_check_value            (McpFormField  *self,
                                                             JsonNode      *schema,
                                                             JsonNode      *value,
                                                             GPtrArray    **problems);
gboolean              mcp_form_field_node_is_string         (JsonNode      *node);
/* @node as JSON text (newly allocated). */
char                 *mcp_form_field_node_to_text           (JsonNode      *node);

/* "changed" on @self and each ancestor. */
void                  mcp_form_field_emit_changed           (McpFormField  *self);
void                  mcp_form_field_emit_structure_changed (McpFormField  *self);
void                  mcp_form_field_clear_children         (McpFormField  *self);
/* Present, and every ancestor too (building deferred children). */
void                  mcp_form_field_mark_present           (McpFormField  *self);

/* mcp-form-field-build.c */
McpFormField         *mcp_form_field_make_child             (McpFormField  *self,
                                                             JsonNode      *schema,
                                                             const char    *name,
                                                             gboolean       required);
void                  mcp_form_field_build_children         (McpFormField  *self);
void                  mcp_form_field_build_union_child      (McpFormField  *self);

/* mcp-form-field-choices.c */
/* @names: the legacy "enumNames" (elicitation schemas of 2025-06-18 and
 * servers since): the titles of the values, in their order; used when it
 * is an array of as many strings. */
void                  mcp_form_field_init_enum              (McpFormField  *self,
                                                             JsonArray     *values,
                                                             JsonNode      *names);
/* A titled single choice (SEP-1330): every one of @variants is
 * {"const": scalar} with at most a "title" and a "description". */
gboolean              mcp_form_field_is_titled_enum         (JsonArray     *variants);
void                  mcp_form_field_init_titled_enum       (McpFormField  *self,
                                                             JsonArray     *variants);
/* The variants (borrowed from the root) and their titles. */
void                  mcp_form_field_init_union             (McpFormField  *self,
                                                             JsonArray     *variants);

/* mcp-form-field-load.c */
void                  mcp_form_field_load_value             (McpFormField  *self,
                                                             JsonNode      *value);

G_END_DECLS
