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

/* The fewest significant digits that read back as @value (finite, not
 * zero), without trailing zeros, and the decimal exponent of the first. */
static void
shortest_digits (double  value,
                 char    digits[20],
                 int    *exponent)
{
  char buffer[40];
  int first = 15;
  int precision;
  char *e;
  guint n = 0;

  /* 15 digits always read back as the same normal double, and then the
   * shortest form is those digits without their trailing zeros; a
   * subnormal one may need fewer, so it is searched from 1. */
  if (fpclassify (value) == FP_SUBNORMAL)
    first = 1;
  for (precision = first; precision < 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%de", precision - 1);
      g_ascii_formatd (buffer, sizeof buffer, format, fabs (value));
      if (g_ascii_strtod (buffer, NULL) == fabs (value))
        break;
    }
  if (precision == 17)
    g_ascii_formatd (buffer, sizeof buffer, "%.16e", fabs (value));

  /* "d.ddde±x" */
  for (const char *p = buffer; *p != 'e' && *p != '\0'; p++)
    if (g_ascii_isdigit (*p))
      digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  digits[n] = '\0';
  e = strchr (buffer, 'e');
  *exponent = e != NULL ? (int) g_ascii_strtoll (e + 1, NULL, 10) : 0;
}

/* The shortest text that reads back as @value, laid out as JavaScript's
 * JSON.stringify() lays it out (0.7, 1e+300, 5e-324, 0.00001), most
 * servers being JavaScript; but a whole number gets ".0" (1.0), and one
 * beyond 64 bits an exponent (1.2345678901234567e+19, not
 * 12345678901234567000), so that every reader (json-glib too) reads it
 * back as a double, not as an integer that is not the same. */
static void
append_double (GString *out,
               double   value)
{
  char digits[20];
  int exponent;
  int k;
  int n;

  if (!isfinite (value))
    {
      g_string_append_len (out, "null", 4);
      return;
    }

  if (signbit (value))
    g_string_append_c (out, '-');
  if (value == 0)
    {
      g_string_append_len (out, "0.0", 3);
      return;
    }

  shortest_digits (value, digits, &exponent);
  k = (int) strlen (digits);
  n = exponent + 1;   /* where the decimal point goes */

  if (k <= n && n <= 21 && fabs (value) < 9223372036854775808.0)
    {
      g_string_append (out, digits);
      for (int i = k; i < n; i++)
        g_string_append_c (out, '0');
      g_string_append_len (out, ".0", 2);
    }
  else if (k > n && 0 < n && n <= 21)
    {
      g_string_append_len (out, digits, n);
      g_string_append_c (out, '.');
      g_string_append (out, digits + n);
    }
  else if (-6 < n && n <= 0)
    {
      g_string_append_len (out, "0.", 2);
      for (int i = n; i < 0; i++)
        g_string_append_c (out, '0');
      g_string_append (out, digits);
    }
  else
    {
      g_string_append_c (out, digits[0]);
      if (k > 1)
        {
          g_string_append_c (out, '.');
          g_string_append (out, digits + 1);
        }
      g_string_append_printf (out, "e%c%d", n - 1 < 0 ? '-' : '+', ABS (n - 1));
    }
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

/* Before a member or an element when pretty: a line break and the
 * indent of @depth levels of @step spaces each. */
static void
append_break (GString *out,
              guint    step,
              guint    depth)
{
  if (step == 0)
    return;
  g_string_append_c (out, '\n');
  for (guint i = 0; i < step * depth; i++)
    g_string_append_c (out, ' ');
}

/* @sorted: each object's members in byte order of their names, not in
 * the order they were written; @step: 0 for one line, else pretty, each
 * level indented by @step spaces (json-glib's layout: "name" : value),
 * @depth levels in. */
static void
append_node (GString  *out,
             JsonNode *node,
             gboolean  sorted,
             guint     step,
             guint     depth)
{
  const char *colon = step != 0 ? " : " : ":";

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
                append_break (out, step, depth + 1);
                mcp_json_append_string (out, names->pdata[i]);
                g_string_append (out, colon);
                append_node (out, json_object_get_member (object, names->pdata[i]), sorted,
                             step, depth + 1);
              }
            first = names->len == 0;
          }
        else if (object != NULL)
          {
            json_object_iter_init_ordered (&iter, object);
            while (json_object_iter_next_ordered (&iter, &name, &member))
              {
                if (!first)
                  g_string_append_c (out, ',');
                first = FALSE;
                append_break (out, step, depth + 1);
                mcp_json_append_string (out, name);
                g_string_append (out, colon);
                append_node (out, member, sorted, step, depth + 1);
              }
          }
        if (!first)
          append_break (out, step, depth);
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
            append_break (out, step, depth + 1);
            append_node (out, json_array_get_element (array, i), sorted, step, depth + 1);
          }
        if (n > 0)
          append_break (out, step, depth);
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

  append_node (out, node, FALSE, 0, 0);
}

void
mcp_json_append_pretty (GString  *out,
                        JsonNode *node)
{
  g_return_if_fail (out != NULL);

  append_node (out, node, FALSE, 2, 0);
}

void
mcp_json_append_canonical (GString  *out,
                           JsonNode *node)
{
  g_return_if_fail (out != NULL);

  append_node (out, node, TRUE, 0, 0);
}
