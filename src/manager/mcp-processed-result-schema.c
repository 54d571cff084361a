/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-processed-result"

#include "config.h"

#include "mcp-processed-result.h"

#include <glib/gi18n-lib.h>

#include "mcp-json-schema.h"

/* A tool result's structured content against the tool's output schema:
 * the one decision, and the one sentence, that the app and plugboard-cli
 * both show. */

/* "$.a[2]: …" as "structuredContent.a[2]: …": the path in the result the
 * person sees. */
static char *
path_in_result (const char *problem)
{
  if (problem[0] == '$')
    return g_strconcat ("structuredContent", problem + 1, NULL);
  return g_strdup (problem);
}

McpStructuredCheck
mcp_structured_content_check (JsonNode   *output_schema,
                              JsonNode   *structured,
                              gboolean    is_error,
                              GPtrArray **problems,
                              char      **message)
{
  g_autoptr(GPtrArray) found = NULL;
  McpStructuredCheck check;
  char *text = NULL;

  if (structured != NULL && JSON_NODE_HOLDS_NULL (structured))
    structured = NULL;

  if (output_schema == NULL)
    check = MCP_STRUCTURED_CHECK_NO_SCHEMA;
  else if (structured == NULL)
    {
      /* The schema binds what a tool gives when it works; an error has no
       * structured content to give (the spec's own words). */
      check = is_error ? MCP_STRUCTURED_CHECK_ERROR_RESULT : MCP_STRUCTURED_CHECK_MISSING;
      if (!is_error)
        text = g_strdup (_("The tool declares an output schema but sent no structured content"));
    }
  else
    {
      switch (mcp_json_schema_check (output_schema, output_schema, structured, NULL, &found))
        {
        case MCP_JSON_SCHEMA_VALID:
          check = MCP_STRUCTURED_CHECK_VALID;
          break;

        case MCP_JSON_SCHEMA_TOO_COMPLEX:
          check = MCP_STRUCTURED_CHECK_TOO_COMPLEX;
          text = g_strdup (_("Not validated: the output schema is too complex to check the structured content against"));
          break;

        case MCP_JSON_SCHEMA_INVALID:
        default:
          {
            g_autofree char *first = path_in_result (found->len > 0 ? g_ptr_array_index (found, 0) : "$");

            check = MCP_STRUCTURED_CHECK_INVALID;
            if (found->len > 1)
              text = g_strdup_printf (ngettext ("The structured content does not match the output schema: %s (and %u more problem)",
                                                "The structured content does not match the output schema: %s (and %u more problems)",
                                                found->len - 1),
                                      first, found->len - 1);
            else
              text = g_strdup_printf (_("The structured content does not match the output schema: %s"), first);
          }
          break;
        }
    }

  if (problems != NULL)
    {
      *problems = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; found != NULL && check != MCP_STRUCTURED_CHECK_VALID && i < found->len; i++)
        g_ptr_array_add (*problems, path_in_result (g_ptr_array_index (found, i)));
    }
  if (message != NULL)
    *message = text;
  else
    g_free (text);

  return check;
}
