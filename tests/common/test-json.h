/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-form-field.h"

G_BEGIN_DECLS

/* JSON and JSON Schema texts the engine's tests and benchmarks build and
 * read, through the engine's own parser and writer. */

/* @text parsed by mcp_json_parse(), or the test fails. */
JsonNode *test_json_parse         (const char *text);
/* @node written by mcp_json_append(): compact, member order kept. */
char     *test_json_text          (JsonNode   *node);
/* What mcp_form_field_to_json() makes of @field, as test_json_text(), or
 * the test fails. */
char     *test_json_form_text     (McpFormField *field);
/* A schema of "$defs" "a0" … "a<n>", each combining two refs to the next
 * with @keyword ("oneOf", …); the last is @leaf (schema text). */
char     *test_json_nested_schema (const char *keyword,
                                   guint       n,
                                   const char *leaf);

G_END_DECLS
