/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-json"

#include "config.h"

#include "test-json.h"

#include <string.h>

#include "mcp-json-private.h"

JsonNode *
test_json_parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = mcp_json_parse (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

char *
test_json_text (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node);
  return g_string_free (out, FALSE);
}

char *
test_json_form_text (McpFormField *field)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_form_field_to_json (field, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return test_json_text (node);
}

char *
test_json_nested_schema (const char *keyword,
                         guint       n,
                         const char *leaf)
{
  GString *text = g_string_new ("{\"$ref\":\"#/$defs/a0\",\"$defs\":{");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "\"a%u\":{\"%s\":[{\"$ref\":\"#/$defs/a%u\"},{\"$ref\":\"#/$defs/a%u\"}]},",
                            i, keyword, i + 1, i + 1);
  g_string_append_printf (text, "\"a%u\":%s}}", n, leaf);
  return g_string_free (text, FALSE);
}
