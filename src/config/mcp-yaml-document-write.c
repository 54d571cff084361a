/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-yaml-document-private.h"

#include <string.h>

#include "mcp-json-private.h"

/* McpYamlDocument's writer: the text of new values, in the block style
 * Goose (serde_yaml) writes, or in flow style inside [] and {}. */

/* What libyaml reads as itself in a plain scalar: printable, and no line
 * break of YAML 1.1 (NEL, LINE and PARAGRAPH SEPARATOR) or byte order
 * mark. */
static gboolean
is_plain_char (gunichar c)
{
  if (c < 0x80)
    return c >= 0x20 && c != 0x7f;

  return (c >= 0xa0 && c <= 0xd7ff && c != 0x2028 && c != 0x2029) ||
         (c >= 0xe000 && c <= 0xfffd && c != 0xfeff) ||
         c >= 0x10000;
}

static gboolean
can_be_plain (const char *string,
              gboolean    flow)
{
  gsize length = strlen (string);
  g_autoptr(JsonNode) resolved = NULL;

  if (length == 0 || string[0] == ' ' || string[length - 1] == ' ' || string[length - 1] == ':')
    return FALSE;
  /* "-x" is plain, "- x" a sequence's item; "---" and "..." end documents */
  if (strchr ("?:,[]{}#&*!|>'\"%@`<", string[0]) != NULL ||
      (string[0] == '-' && (string[1] == ' ' || string[1] == '\0' || string[1] == '-')) ||
      g_str_has_prefix (string, "..."))
    return FALSE;
  if (strstr (string, ": ") != NULL || strstr (string, " #") != NULL)
    return FALSE;
  if (flow && strpbrk (string, ",[]{}") != NULL)
    return FALSE;
  for (const char *p = string; *p != '\0'; p = g_utf8_next_char (p))
    if (!is_plain_char (g_utf8_get_char (p)))
      return FALSE;

  resolved = mcp_yaml_resolve_plain (string, 0, NULL);
  return resolved != NULL && json_node_get_value_type (resolved) == G_TYPE_STRING;
}

static void
append_quoted (GString    *out,
               const char *string)
{
  g_string_append_c (out, '"');
  for (const char *p = string; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\r': g_string_append (out, "\\r"); break;
        default:
          if (c == ' ' || is_plain_char (c))
            g_string_append_unichar (out, c);
          else if (c <= 0xff)
            g_string_append_printf (out, "\\x%02X", c);
          else
            g_string_append_printf (out, "\\u%04X", c);
        }
    }
  g_string_append_c (out, '"');
}

void
mcp_yaml_append_string (GString    *out,
                        const char *string,
                        gboolean    flow)
{
  if (can_be_plain (string, flow))
    g_string_append (out, string);
  else
    append_quoted (out, string);
}

static void
append_scalar (GString  *out,
               JsonNode *node,
               gboolean  flow)
{
  if (JSON_NODE_HOLDS_NULL (node))
    g_string_append (out, "null");
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    mcp_yaml_append_string (out, json_node_get_string (node), flow);
  else
    mcp_json_append (out, node);  /* numbers and booleans read the same in YAML 1.2 */
}

void
mcp_yaml_append_flow (GString  *out,
                      JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      g_string_append_c (out, '{');
      for (GList *l = members; l != NULL; l = l->next)
        {
          if (l != members)
            g_string_append (out, ", ");
          mcp_yaml_append_string (out, l->data, TRUE);
          g_string_append (out, ": ");
          mcp_yaml_append_flow (out, json_object_get_member (object, l->data));
        }
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          mcp_yaml_append_flow (out, json_array_get_element (array, i));
        }
      g_string_append_c (out, ']');
    }
  else
    {
      append_scalar (out, node, TRUE);
    }
}

static gboolean
is_empty_collection (JsonNode *node)
{
  return (JSON_NODE_HOLDS_OBJECT (node) && json_object_get_size (json_node_get_object (node)) == 0) ||
         (JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) == 0);
}

static void
append_indent (GString             *out,
               guint                indent,
               const McpYamlLayout *layout)
{
  g_string_append (out, layout->newline);
  for (guint i = 0; i < indent; i++)
    g_string_append_c (out, ' ');
}

/* @object's members at column @indent, the first one after what is
 * already on the line when @inline_first ("- " of a sequence item). */
static void
append_members (GString             *out,
                JsonObject          *object,
                guint                indent,
                gboolean             inline_first,
                const McpYamlLayout *layout)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      if (l == members && inline_first)
        g_string_append_c (out, ' ');
      else
        append_indent (out, indent, layout);
      mcp_yaml_append_string (out, l->data, FALSE);
      g_string_append_c (out, ':');
      mcp_yaml_append_block (out, json_object_get_member (object, l->data), indent, layout);
    }
}

void
mcp_yaml_append_block (GString             *out,
                       JsonNode            *node,
                       guint                key_indent,
                       const McpYamlLayout *layout)
{
  if (JSON_NODE_HOLDS_VALUE (node) || JSON_NODE_HOLDS_NULL (node) || is_empty_collection (node))
    {
      g_string_append_c (out, ' ');
      mcp_yaml_append_flow (out, node);
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      append_members (out, json_node_get_object (node), key_indent + layout->unit, FALSE, layout);
    }
  else
    {
      JsonArray *array = json_node_get_array (node);
      guint dash = layout->seq_indentless ? key_indent : key_indent + layout->unit;

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          append_indent (out, dash, layout);
          g_string_append_c (out, '-');
          if (JSON_NODE_HOLDS_OBJECT (item) && !is_empty_collection (item))
            append_members (out, json_node_get_object (item), dash + 2, TRUE, layout);
          else
            {
              /* a sequence in a sequence is written [a, b]: no one reads "- - a" well */
              g_string_append_c (out, ' ');
              mcp_yaml_append_flow (out, item);
            }
        }
    }
}
