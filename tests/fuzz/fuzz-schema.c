/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-schema"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-form-field.h"
#include "mcp-json-private.h"
#include "mcp-json-schema.h"

/* JSON Schema from servers (inputSchema, outputSchema, requestedSchema):
 * validation and the form made from a schema.
 *
 * The input is a schema, a line "====" and an instance: the first
 * "\n====\n" splits it (without one the instance is null). Checks:
 * - mcp_json_schema_check() ends (libFuzzer's -timeout catches a hang),
 *   VALID with no problems, INVALID or TOO_COMPLEX with at least one, each
 *   non-empty UTF-8 starting with a JSON path "$"; the budget it returns is
 *   no more than it was given; mcp_json_schema_validate() agrees;
 * - a form made from the schema loads the instance, says what it makes or
 *   why not, and checks it; what it makes loads again.
 * Warnings and criticals are fatal. */

#define SEPARATOR "\n====\n"

static void
fail (const char *what)
{
  g_printerr ("fuzz-schema: %s\n", what);
  abort ();
}

static void
check_problems (GPtrArray  *problems,
                const char *what)
{
  if (problems == NULL)
    fail (what);
  for (guint i = 0; i < problems->len; i++)
    {
      const char *problem = g_ptr_array_index (problems, i);

      if (problem == NULL || !g_utf8_validate (problem, -1, NULL) || problem[0] != '$')
        {
          g_printerr ("fuzz-schema: %s: “%s”\n", what, problem != NULL ? problem : "(null)");
          abort ();
        }
    }
}

static void
check_form (JsonNode *schema,
            JsonNode *instance)
{
  g_autoptr(McpFormField) field = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  field = mcp_form_field_new_from_schema (schema);
  if (field == NULL)
    return;

  path = mcp_form_field_dup_path (field);
  if (path == NULL || !g_utf8_validate (path, -1, NULL))
    fail ("a field's path that is not UTF-8");
  (void) mcp_form_field_get_kind (field);
  (void) mcp_form_field_get_children (field);

  if (instance != NULL)
    mcp_form_field_set_from_json (field, instance);

  problems = mcp_form_field_check (field);
  if (problems == NULL)
    fail ("a form check without a list");
  for (guint i = 0; i < problems->len; i++)
    if (!g_utf8_validate (g_ptr_array_index (problems, i), -1, NULL))
      fail ("a form problem that is not UTF-8");

  value = mcp_form_field_to_json (field, &error);
  if (value == NULL)
    {
      if (error == NULL || error->message == NULL || error->message[0] == '\0')
        fail ("a form without a value or a reason");
      return;
    }
  if (error != NULL)
    fail ("a form value and an error");

  mcp_form_field_set_from_json (field, value);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *separator;
  gsize schema_length = size;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) validate_problems = NULL;
  McpJsonSchemaOutcome outcome;
  guint budget = MCP_JSON_SCHEMA_MAX_STEPS;
  gboolean valid;

  fuzz_abort_on_warnings ();

  separator = size > 0 ? g_strstr_len (text, (gssize) size, SEPARATOR) : NULL;
  if (separator != NULL)
    {
      gsize offset = (gsize) (separator - text) + strlen (SEPARATOR);

      schema_length = (gsize) (separator - text);
      instance = mcp_json_parse (text + offset, size - offset, NULL);
    }
  schema = mcp_json_parse (text, schema_length, NULL);
  if (schema == NULL)
    return 0;
  if (instance == NULL)
    instance = json_node_new (JSON_NODE_NULL);

  outcome = mcp_json_schema_check (schema, schema, instance, &budget, &problems);
  if (budget > MCP_JSON_SCHEMA_MAX_STEPS)
    fail ("a budget that grew");
  check_problems (problems, "a validation problem without a path");
  switch (outcome)
    {
    case MCP_JSON_SCHEMA_VALID:
      if (problems->len != 0)
        fail ("valid, with problems");
      break;
    case MCP_JSON_SCHEMA_INVALID:
    case MCP_JSON_SCHEMA_TOO_COMPLEX:
      if (problems->len == 0)
        fail ("not valid, without a problem");
      break;
    default:
      fail ("an outcome that is none of the three");
    }

  valid = mcp_json_schema_validate (schema, schema, instance, &validate_problems);
  check_problems (validate_problems, "a validation problem without a path");
  if (valid != (outcome == MCP_JSON_SCHEMA_VALID))
    fail ("validate and check disagree");

  check_form (schema, instance);

  return 0;
}
