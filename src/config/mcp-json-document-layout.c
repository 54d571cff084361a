/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <string.h>

/* McpJsonDocument's layout: where lines start and end in its text, how
 * it indents, and new values written in the text's own style. */

gsize
mcp_json_line_start (const char *s,
                     gsize       p)
{
  while (p > 0 && s[p - 1] != '\n')
    p--;

  return p;
}

/* Whether only blanks come before @p on its line. */
gboolean
mcp_json_starts_line (const char *s,
                      gsize       p)
{
  gsize q = mcp_json_line_start (s, p);

  return strspn (s + q, " \t") >= p - q;
}

/* The blanks that start the line @p is on. */
char *
mcp_json_indent_at (const char *s,
                    gsize       p)
{
  gsize q = mcp_json_line_start (s, p);

  return g_strndup (s + q, MIN (strspn (s + q, " \t"), p - q));
}

/* Past the blanks and the comments that end on the same line as @p. */
gsize
mcp_json_document_end_of_line (McpJsonDocument *self,
                               gsize            p)
{
  const char *s = self->text->str;
  gsize length = self->text->len;

  while (p < length)
    {
      if (s[p] == ' ' || s[p] == '\t')
        {
          p++;
        }
      else if (self->dialect == MCP_JSON_DIALECT_JSONC && s[p] == '/' && s[p + 1] == '/')
        {
          while (p < length && s[p] != '\n' && s[p] != '\r')
            p++;
        }
      else if (self->dialect == MCP_JSON_DIALECT_JSONC && s[p] == '/' && s[p + 1] == '*')
        {
          const char *close = strstr (s + p + 2, "*/");
          const char *newline = strchr (s + p + 2, '\n');

          if (close == NULL || (newline != NULL && newline < close))
            break;
          p = close + 2 - s;
        }
      else
        {
          break;
        }
    }

  return p;
}

gsize
mcp_json_newline_at (const char *s,
                     gsize       p)
{
  if (s[p] == '\n')
    return 1;
  if (s[p] == '\r' && s[p + 1] == '\n')
    return 2;

  return 0;
}

/* Whether the members of @container are on lines of their own: as its
 * first one is, or for an empty one, as the nearest around it has them. */
gboolean
mcp_json_document_is_multiline (McpJsonDocument *self,
                                Node            *container)
{
  for (Node *node = container; node != NULL; node = node->parent)
    {
      if (node->children->len > 0)
        return mcp_json_starts_line (self->text->str, mcp_json_node_member_start (node->children->pdata[0]));
    }

  /* "{}" alone: a new file is written the way JSON.stringify (…, null, 2) does */
  return strchr (self->text->str, '\n') != NULL;
}

/* Writing values */

static void
append_node (McpJsonDocument *self,
             GString         *out,
             JsonNode        *node,
             const char      *indent,
             gboolean         pretty)
{
  g_autofree char *inner = g_strconcat (indent, self->unit, NULL);

  if (JSON_NODE_HOLDS_OBJECT (node) && json_object_get_size (json_node_get_object (node)) > 0)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      gboolean first = TRUE;

      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          if (!first)
            g_string_append_c (out, ',');
          if (pretty)
            g_string_append_printf (out, "%s%s", self->newline, inner);
          else if (!first)
            g_string_append (out, self->comma_space);
          first = FALSE;
          mcp_json_append_string (out, name);
          g_string_append (out, self->colon);
          append_node (self, out, member, inner, pretty);
        }
      if (pretty)
        g_string_append_printf (out, "%s%s", self->newline, indent);
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0)
    {
      JsonArray *array = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (pretty)
            g_string_append_printf (out, "%s%s", self->newline, inner);
          else if (i > 0)
            g_string_append (out, self->comma_space);
          append_node (self, out, json_array_get_element (array, i), inner, pretty);
        }
      if (pretty)
        g_string_append_printf (out, "%s%s", self->newline, indent);
      g_string_append_c (out, ']');
    }
  else
    {
      mcp_json_append (out, node);
    }
}

void
mcp_json_document_append_value (McpJsonDocument *self,
                                GString         *out,
                                const Value     *value,
                                const char      *indent,
                                gboolean         pretty)
{
  gsize indent_length;

  if (value->raw == NULL)
    {
      append_node (self, out, value->node, indent, pretty);
      return;
    }

  /* Strings hold no raw line breaks: every one is layout, and each line
   * after it loses the old indentation and takes the new. */
  indent_length = strlen (value->raw_indent);
  for (gsize i = 0; i < value->raw_length; i++)
    {
      gsize n = mcp_json_newline_at (value->raw, i);

      if (n == 0)
        {
          g_string_append_c (out, value->raw[i]);
          continue;
        }

      i += n;
      g_string_append (out, self->newline);
      g_string_append (out, indent);
      if (i + indent_length <= value->raw_length &&
          strncmp (value->raw + i, value->raw_indent, indent_length) == 0)
        i += indent_length;
      i--;
    }
}
/* Adding, replacing, removing */

void
mcp_json_document_append_entry (McpJsonDocument *self,
                                GString         *out,
                                const char      *key,
                                const Value     *value,
                                const char      *indent,
                                gboolean         pretty)
{
  if (key != NULL)
    {
      mcp_json_append_string (out, key);
      g_string_append (out, self->colon);
    }
  mcp_json_document_append_value (self, out, value, indent, pretty);
}
