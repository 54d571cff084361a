/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-json-parse-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* The reader: values, numbers and literals, the nesting of objects and
 * arrays; strings are in mcp-json-parse-string.c, the errors' messages
 * in mcp-json-parse-error.c.
 *
 * json-glib's parser costs most of a call's CPU, wraps integers beyond 64
 * bits, recurses without bound and accepts data after the value; this one
 * reads RFC 8259 strictly in one pass into ordinary json-glib trees. */

typedef struct
{
  JsonNode   *node;         /* owned until the container is complete */
  JsonObject *object;       /* or NULL for an array */
  JsonArray  *array;
  gsize       key_offset;   /* into Parser.keys: this object's pending key */
} Frame;

static void
buffer_init (Buffer *buffer)
{
  buffer->data = buffer->stack;
  buffer->len = 0;
  buffer->size = sizeof buffer->stack;
}

static void
buffer_clear (Buffer *buffer)
{
  if (buffer->data != buffer->stack)
    g_free (buffer->data);
}

static inline const guchar *
skip_space (const guchar *p,
            const guchar *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;

  return p;
}

static inline gboolean
is_digit (guchar c)
{
  return c >= '0' && c <= '9';
}

/* @p is at a '-' or a digit. */
static const guchar *
parse_number (Parser        *self,
              const guchar  *p,
              JsonNode     **out)
{
  const guchar *start = p;
  const guchar *end = self->end;
  gboolean negative = FALSE;
  gboolean is_integer = TRUE;
  gboolean overflow = FALSE;
  guint64 magnitude = 0;
  char stack_literal[64];
  g_autofree char *heap_literal = NULL;
  char *literal;
  gsize length;
  double value;

  if (*p == '-')
    {
      negative = TRUE;
      p++;
      if (p == end || !is_digit (*p))
        {
          if (p < end && *p == 'I')
            mcp_json_parser_error (self, start, _("-Infinity is not a JSON number"));
          else
            mcp_json_parser_error (self, p, _("expected a digit after ‘-’"));
          return NULL;
        }
    }

  if (*p == '0')
    {
      p++;
      if (p < end && is_digit (*p))
        {
          mcp_json_parser_error (self, start, _("numbers must not have leading zeros"));
          return NULL;
        }
    }
  else
    {
      for (; p < end && is_digit (*p); p++)
        {
          guint digit = *p - '0';

          if (magnitude > (G_MAXUINT64 - digit) / 10)
            overflow = TRUE;
          else
            magnitude = magnitude * 10 + digit;
        }
    }

  if (p < end && *p == '.')
    {
      is_integer = FALSE;
      p++;
      if (p == end || !is_digit (*p))
        {
          mcp_json_parser_error (self, p, _("expected a digit after the decimal point"));
          return NULL;
        }
      while (p < end && is_digit (*p))
        p++;
    }

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      is_integer = FALSE;
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p == end || !is_digit (*p))
        {
          mcp_json_parser_error (self, p, _("expected a digit in the exponent"));
          return NULL;
        }
      while (p < end && is_digit (*p))
        p++;
    }

  if (is_integer && !overflow)
    {
      if (!negative && magnitude <= G_MAXINT64)
        {
          *out = json_node_init_int (json_node_alloc (), (gint64)magnitude);
          return p;
        }
      if (negative && magnitude <= (guint64)G_MAXINT64 + 1)
        {
          gint64 v = magnitude == (guint64)G_MAXINT64 + 1 ? G_MININT64 : -(gint64)magnitude;

          *out = json_node_init_int (json_node_alloc (), v);
          return p;
        }
    }

  /* A fraction, an exponent, or an integer beyond 64 bits: a double, as
   * JavaScript reads it, never a wrapped integer. */
  length = p - start;
  if (length < sizeof stack_literal)
    literal = stack_literal;
  else
    literal = heap_literal = g_malloc (length + 1);
  memcpy (literal, start, length);
  literal[length] = '\0';

  value = g_ascii_strtod (literal, NULL);
  if (!isfinite (value))
    {
      mcp_json_parser_error (self, start, _("number is too large for a double"));
      return NULL;
    }

  *out = json_node_init_double (json_node_alloc (), value);

  return p;
}

static const guchar *
parse_literal (Parser        *self,
               const guchar  *p,
               JsonNode     **out)
{
  gsize left = self->end - p;

  if (left >= 4 && memcmp (p, "true", 4) == 0)
    {
      *out = json_node_init_boolean (json_node_alloc (), TRUE);
      return p + 4;
    }
  if (left >= 5 && memcmp (p, "false", 5) == 0)
    {
      *out = json_node_init_boolean (json_node_alloc (), FALSE);
      return p + 5;
    }
  if (left >= 4 && memcmp (p, "null", 4) == 0)
    {
      *out = json_node_init_null (json_node_alloc ());
      return p + 4;
    }

  if (left >= 3 && memcmp (p, "NaN", 3) == 0)
    mcp_json_parser_error (self, p, _("NaN is not a JSON number"));
  else if (left >= 8 && memcmp (p, "Infinity", 8) == 0)
    mcp_json_parser_error (self, p, _("Infinity is not a JSON number"));
  else
    mcp_json_parser_error (self, p, _("invalid literal (expected true, false or null)"));

  return NULL;
}

JsonNode *
mcp_json_parse (const char  *data,
                gsize        length,
                GError     **error)
{
  Parser parser;
  Parser *self = &parser;
  Frame frames[MCP_JSON_MAX_DEPTH];
  guint depth = 0;
  const guchar *p;
  const guchar *end;
  JsonNode *value = NULL;
  JsonNode *root = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (data == NULL)
    data = "";

  self->start = (const guchar *)data;
  self->end = self->start + length;
  self->error = error;
  buffer_init (&self->scratch);
  buffer_init (&self->keys);

  p = self->start;
  end = self->end;

read_value:
  p = skip_space (p, end);
  if (p == end)
    {
      mcp_json_parser_no_value_error (self, p, depth);
      goto fail;
    }

  switch (*p)
    {
    case '{':
    case '[':
      {
        Frame *frame;

        if (depth == MCP_JSON_MAX_DEPTH)
          {
            mcp_json_parser_error (self, p, _("nested deeper than %u levels"), MCP_JSON_MAX_DEPTH);
            goto fail;
          }

        frame = &frames[depth++];
        frame->key_offset = self->keys.len;
        if (*p == '{')
          {
            frame->object = json_object_new ();
            frame->array = NULL;
            frame->node = json_node_new (JSON_NODE_OBJECT);
            json_node_take_object (frame->node, frame->object);
          }
        else
          {
            frame->object = NULL;
            frame->array = json_array_new ();
            frame->node = json_node_new (JSON_NODE_ARRAY);
            json_node_take_array (frame->node, frame->array);
          }

        p = skip_space (p + 1, end);
        if (p < end && *p == (frame->object != NULL ? '}' : ']'))
          {
            p++;
            value = frame->node;
            depth--;
            goto have_value;
          }
        if (frame->object != NULL)
          goto read_key;
        goto read_value;
      }

    case '"':
      self->scratch.len = 0;
      p = mcp_json_parse_string (self, p, &self->scratch);
      if (p == NULL)
        goto fail;
      value = json_node_init_string (json_node_alloc (), self->scratch.data);
      break;

    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      p = parse_number (self, p, &value);
      if (p == NULL)
        goto fail;
      break;

    case 't':
    case 'f':
    case 'n':
    case 'N':
    case 'I':
      p = parse_literal (self, p, &value);
      if (p == NULL)
        goto fail;
      break;

    default:
      mcp_json_parser_no_value_error (self, p, depth);
      goto fail;
    }

have_value:
  if (depth == 0)
    {
      root = value;
      value = NULL;
      p = skip_space (p, end);
      if (p != end)
        {
          mcp_json_parser_error (self, p, _("unexpected data after the JSON value"));
          goto fail;
        }
      goto done;
    }

  {
    Frame *frame = &frames[depth - 1];
    gboolean is_object = frame->object != NULL;
    guchar close = is_object ? '}' : ']';

    if (is_object)
      {
        json_object_set_member (frame->object, self->keys.data + frame->key_offset, value);
        self->keys.len = frame->key_offset;
      }
    else
      json_array_add_element (frame->array, value);
    value = NULL;

    p = skip_space (p, end);
    if (p < end && *p == ',')
      {
        p = skip_space (p + 1, end);
        if (p < end && *p == close)
          {
            mcp_json_parser_error (self, p, "%s",
                                   is_object ? _("trailing comma before ‘}’") : _("trailing comma before ‘]’"));
            goto fail;
          }
        if (is_object)
          goto read_key;
        goto read_value;
      }
    if (p < end && *p == close)
      {
        p++;
        value = frame->node;
        depth--;
        goto have_value;
      }
    if (p == end)
      mcp_json_parser_error (self, p, "%s",
                             is_object ? _("the input ends before the object is closed with ‘}’")
                                       : _("the input ends before the array is closed with ‘]’"));
    else
      mcp_json_parser_error (self, p, "%s",
                             is_object ? _("expected ‘,’ or ‘}’ after an object member")
                                       : _("expected ‘,’ or ‘]’ after an array element"));
    goto fail;
  }

read_key:
  /* p is past the whitespace after '{' or ',' */
  if (p == end)
    {
      mcp_json_parser_error (self, p, _("the input ends before the object is closed with ‘}’"));
      goto fail;
    }
  if (*p != '"')
    {
      if (*p == '\'')
        mcp_json_parser_error (self, p, _("object keys must be in double quotes, not single quotes"));
      else
        mcp_json_parser_error (self, p, _("expected a string as an object key"));
      goto fail;
    }
  p = mcp_json_parse_string (self, p, &self->keys);
  if (p == NULL)
    goto fail;
  p = skip_space (p, end);
  if (p == end || *p != ':')
    {
      mcp_json_parser_error (self, p, _("expected ‘:’ after an object key"));
      goto fail;
    }
  p++;
  goto read_value;

fail:
  g_clear_pointer (&value, json_node_unref);
  g_clear_pointer (&root, json_node_unref);
  while (depth > 0)
    json_node_unref (frames[--depth].node);

done:
  buffer_clear (&self->scratch);
  buffer_clear (&self->keys);

  return root;
}
