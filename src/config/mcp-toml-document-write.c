/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-toml-document-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-server-config-private.h"

/* TOML text for what McpTomlDocument adds: keys bare when they can be,
 * strings as basic strings, arrays and inline tables on one line. */

void
mcp_toml_append_string (GString    *out,
                        const char *string)
{
  g_string_append_c (out, '"');
  for (const char *p = string; *p != '\0'; p++)
    {
      guchar c = *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\r': g_string_append (out, "\\r"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04X", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

void
mcp_toml_append_key (GString    *out,
                     const char *name)
{
  gboolean bare = name[0] != '\0';

  for (const char *p = name; *p != '\0' && bare; p++)
    bare = g_ascii_isalnum (*p) || *p == '_' || *p == '-';

  if (bare)
    g_string_append (out, name);
  else
    mcp_toml_append_string (out, name);
}

/* The shortest text that reads back as @value, with a '.' or an 'e' so
 * that TOML reads a float */
static void
append_double (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  for (int precision = 15; precision <= 17; precision++)
    {
      g_ascii_formatd (buffer, sizeof buffer, precision == 15 ? "%.15g" : precision == 16 ? "%.16g" : "%.17g", value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  g_string_append (out, buffer);
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append (out, ".0");
}

gboolean
mcp_toml_append_value (GString     *out,
                       JsonNode    *node,
                       const char  *where,
                       GError     **error)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: TOML has no null; not writing it"), where);
      return FALSE;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          mcp_toml_append_string (out, json_node_get_string (node));
          return TRUE;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          return TRUE;
        case G_TYPE_DOUBLE:
        case G_TYPE_FLOAT:
          if (!isfinite (json_node_get_double (node)))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                           _("%s: not a finite number; not writing it"), where);
              return FALSE;
            }
          append_double (out, json_node_get_double (node));
          return TRUE;
        default:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          return TRUE;
        }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < length; i++)
          {
            g_autofree char *inner = g_strdup_printf ("%s[%u]", where, i);

            if (i > 0)
              g_string_append (out, ", ");
            if (!mcp_toml_append_value (out, json_array_get_element (array, i), inner, error))
              return FALSE;
          }
        g_string_append_c (out, ']');
        return TRUE;
      }

    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        g_string_append_c (out, '{');
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            g_autofree char *inner = mcp_json_path_append_member (where, name);

            g_string_append (out, first ? " " : ", ");
            first = FALSE;
            mcp_toml_append_key (out, name);
            g_string_append (out, " = ");
            if (!mcp_toml_append_value (out, member, inner, error))
              return FALSE;
          }
        g_string_append (out, first ? "}" : " }");
        return TRUE;
      }

    default:
      g_assert_not_reached ();
    }
}
