/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-json-utf8-private.h"

#include <math.h>
#include <string.h>

/* The writer: json-glib trees as JSON text (numbers that read back as
 * they were, strings escaped, members in their order or sorted), and the
 * steps of a "$.a[\"b c\"]" path. */

static void
append_int (GString *out,
            gint64   value)
{
  char buffer[24];
  char *q = buffer + sizeof buffer;
  guint64 magnitude = value < 0 ? -(guint64)value : (guint64)value;

  do
    {
      *--q = (char)('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude != 0);

  if (value < 0)
    *--q = '-';

  g_string_append_len (out, q, buffer + sizeof buffer - q);
}

static void
append_double (GString *out,
               double   value)
{
  static const char *const formats[] = { "%.15g", "%.16g", "%.17g" };
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_string_append_len (out, "null", 4);
      return;
    }

  /* the shortest of these that reads back as the same double */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_ascii_formatd (buffer, sizeof buffer, formats[i], value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }

  g_string_append (out, buffer);

  /* "2" would read back as an integer */
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append_len (out, ".0", 2);
}

void
mcp_json_append_string (GString    *out,
                        const char *string)
{
  static const char hex[] = "0123456789abcdef";
  const guchar *p = (const guchar *)string;
  const guchar *run;

  g_return_if_fail (out != NULL);

  if (string == NULL)
    {
      g_string_append_len (out, "null", 4);
      return;
    }

  g_string_append_c (out, '"');

  run = p;
  for (;;)
    {
      guchar c;
      gsize n;

      while (byte_class[*p] == C_PLAIN)
        p++;

      c = *p;
      if (c == '\0')
        break;

      if (c >= 0x80)
        {
          n = utf8_sequence_length (p, p + 4);
          if (n != 0)
            {
              p += n;
              continue;
            }
        }

      g_string_append_len (out, (const char *)run, p - run);
      p++;
      run = p;

      switch (c)
        {
        case '"':  g_string_append_len (out, "\\\"", 2); break;
        case '\\': g_string_append_len (out, "\\\\", 2); break;
        case '\b': g_string_append_len (out, "\\b", 2); break;
        case '\f': g_string_append_len (out, "\\f", 2); break;
        case '\n': g_string_append_len (out, "\\n", 2); break;
        case '\r': g_string_append_len (out, "\\r", 2); break;
        case '\t': g_string_append_len (out, "\\t", 2); break;
        default:
          if (c < 0x20)
            {
              char escape[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

              g_string_append_len (out, escape, 6);
            }
          else
            {
              /* not UTF-8: the output must still be valid JSON */
              g_string_append_len (out, "\\ufffd", 6);
            }
          break;
        }
    }

  g_string_append_len (out, (const char *)run, p - run);
  g_string_append_c (out, '"');
}

void
mcp_json_append_path_member (GString    *path,
                             const char *name)
{
  gboolean plain = name[0] != '\0' && !g_ascii_isdigit (name[0]);

  for (const char *p = name; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || *p == '_' || *p == '$';
  if (plain)
    g_string_append_printf (path, ".%s", name);
  else
    {
      g_string_append_c (path, '[');
      mcp_json_append_string (path, name);
      g_string_append_c (path, ']');
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* @sorted: each object's members in byte order of their names, not in
 * the order they were written */
static void
append_node (GString  *out,
             JsonNode *node,
             gboolean  sorted)
{
  if (node == NULL)
    {
      g_string_append_len (out, "null", 4);
      return;
    }

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        if (object != NULL && sorted)
          {
            g_autoptr(GPtrArray) names = g_ptr_array_new ();

            json_object_iter_init (&iter, object);
            while (json_object_iter_next (&iter, &name, &member))
              g_ptr_array_add (names, (gpointer) name);
            g_ptr_array_sort (names, compare_names);
            for (guint i = 0; i < names->len; i++)
              {
                if (i > 0)
                  g_string_append_c (out, ',');
                mcp_json_append_string (out, names->pdata[i]);
                g_string_append_c (out, ':');
                append_node (out, json_object_get_member (object, names->pdata[i]), sorted);
              }
          }
        else if (object != NULL)
          {
            json_object_iter_init_ordered (&iter, object);
            while (json_object_iter_next_ordered (&iter, &name, &member))
              {
                if (!first)
                  g_string_append_c (out, ',');
                first = FALSE;
                mcp_json_append_string (out, name);
                g_string_append_c (out, ':');
                append_node (out, member, sorted);
              }
          }
        g_string_append_c (out, '}');
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = array != NULL ? json_array_get_length (array) : 0;

        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            append_node (out, json_array_get_element (array, i), sorted);
          }
        g_string_append_c (out, ']');
      }
      break;

    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_INT64 || type == G_TYPE_INT)
          append_int (out, json_node_get_int (node));
        else if (type == G_TYPE_DOUBLE || type == G_TYPE_FLOAT)
          append_double (out, json_node_get_double (node));
        else if (type == G_TYPE_BOOLEAN)
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
        else if (type == G_TYPE_STRING)
          mcp_json_append_string (out, json_node_get_string (node));
        else
          g_string_append_len (out, "null", 4);
      }
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append_len (out, "null", 4);
      break;
    }
}

void
mcp_json_append (GString  *out,
                 JsonNode *node)
{
  g_return_if_fail (out != NULL);

  append_node (out, node, FALSE);
}

void
mcp_json_append_canonical (GString  *out,
                           JsonNode *node)
{
  g_return_if_fail (out != NULL);

  append_node (out, node, TRUE);
}
