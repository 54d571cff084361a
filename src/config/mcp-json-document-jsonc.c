/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <string.h>

#include "mcp-json-private.h"

/* JSON with comments and trailing commas (VS Code's files) made plain
 * JSON of the same length and lines, and a text parsed without being
 * indexed. */

/* Whether text[*@i] is inside a string or opens one, as *@in_string
 * follows them; an escaped character is stepped over. */
static gboolean
step_string (const char *text,
             gsize       length,
             gsize      *i,
             gboolean   *in_string)
{
  if (*in_string)
    {
      if (text[*i] == '\\' && *i + 1 < length)
        (*i)++;
      else if (text[*i] == '"')
        *in_string = FALSE;
      return TRUE;
    }

  if (text[*i] == '"')
    {
      *in_string = TRUE;
      return TRUE;
    }

  return FALSE;
}

/* Comments and trailing commas become spaces (newlines stay), so offsets
 * and line numbers are those of @text; strings are left as they are. */
void
mcp_json_blank_jsonc (char  *text,
                      gsize  length)
{
  gboolean in_string = FALSE;
  char last = '\0';   /* the last byte outside strings and blanks */
  gsize i;

  for (i = 0; i < length; i++)
    {
      if (step_string (text, length, &i, &in_string))
        continue;

      if (text[i] == '/' && i + 1 < length && text[i + 1] == '/')
        {
          /* a line comment ends at CR too, as in VS Code and end_of_line() */
          for (; i < length && text[i] != '\n' && text[i] != '\r'; i++)
            text[i] = ' ';
        }
      else if (text[i] == '/' && i + 1 < length && text[i + 1] == '*')
        {
          text[i] = text[i + 1] = ' ';
          for (i += 2; i < length; i++)
            {
              if (text[i] == '*' && i + 1 < length && text[i + 1] == '/')
                {
                  text[i] = text[i + 1] = ' ';
                  i++;
                  break;
                }
              if (text[i] != '\n')
                text[i] = ' ';
            }
        }
    }

  in_string = FALSE;
  for (i = 0; i < length; i++)
    {
      /* (inside a string, the last byte outside was its opening quote) */
      if (step_string (text, length, &i, &in_string))
        {
          last = '"';
          continue;
        }

      if (text[i] == ',')
        {
          gsize j = i + 1;

          while (j < length && g_ascii_isspace (text[j]))
            j++;
          /* only a comma after a value trails: "[,]" stays an error */
          if (j < length && (text[j] == '}' || text[j] == ']') &&
              last != '[' && last != '{' && last != ',')
            text[i] = ' ';
          else
            last = ',';
        }
      else if (!g_ascii_isspace (text[i]))
        {
          last = text[i];
        }
    }
}

gboolean
mcp_json_is_blank (const char *text,
                   gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isspace (text[i]))
        return FALSE;
    }

  return TRUE;
}

JsonNode *
mcp_json_document_parse (const char      *text,
                         gsize            length,
                         McpJsonDialect   dialect,
                         GError         **error)
{
  g_autofree char *plain = NULL;
  gsize skip = 0;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (dialect == MCP_JSON_DIALECT_TOML)
    return mcp_toml_document_parse (text, length, error);
  if (dialect == MCP_JSON_DIALECT_YAML)
    return mcp_yaml_document_parse (text, length, error);

  /* (NULL + 0 is undefined behaviour, and an empty GBytes has NULL data) */
  if (text == NULL)
    text = "";
  if (length >= 3 && memcmp (text, MCP_JSON_BOM, 3) == 0)
    skip = 3;
  if (mcp_json_is_blank (text + skip, length - skip))
    {
      JsonNode *empty = json_node_new (JSON_NODE_OBJECT);

      /* json_node_init_object() would take a reference of its own */
      json_node_take_object (empty, json_object_new ());
      return empty;
    }

  if (dialect == MCP_JSON_DIALECT_JSONC)
    {
      plain = g_memdup2 (text, length);
      mcp_json_blank_jsonc (plain + skip, length - skip);
      text = plain;
    }

  /* A byte order mark does not move the line and column of an error: it
   * is on the first line, before anything. */
  return mcp_json_parse (text + skip, length - skip, error);
}

