/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-private.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* json-glib's parser costs most of a call's CPU, wraps integers beyond 64
 * bits, recurses without bound and accepts data after the value; this one
 * reads RFC 8259 strictly in one pass into ordinary json-glib trees. */

enum
{
  C_PLAIN,      /* ASCII that stands for itself in a JSON string */
  C_QUOTE,
  C_BACKSLASH,
  C_CONTROL,    /* U+0000 to U+001F */
  C_UTF8_2,     /* lead byte of a two-byte sequence */
  C_UTF8_3,
  C_UTF8_4,
  C_INVALID,    /* never starts a UTF-8 character */
};

static const guint8 byte_class[256] = {
  [0x00 ... 0x1f] = C_CONTROL,
  [0x20 ... 0x21] = C_PLAIN,
  ['"'] = C_QUOTE,
  [0x23 ... 0x5b] = C_PLAIN,
  ['\\'] = C_BACKSLASH,
  [0x5d ... 0x7f] = C_PLAIN,
  [0x80 ... 0xc1] = C_INVALID,
  [0xc2 ... 0xdf] = C_UTF8_2,
  [0xe0 ... 0xef] = C_UTF8_3,
  [0xf0 ... 0xf4] = C_UTF8_4,
  [0xf5 ... 0xff] = C_INVALID,
};

/* The length of the well-formed UTF-8 sequence at @p (2 to 4), or 0 for an
 * invalid one: truncated, overlong, a surrogate or beyond U+10FFFF. The
 * bytes are read in order and stop at the first bad one, so a nul
 * terminator is never read past. */
static inline gsize
utf8_sequence_length (const guchar *p,
                      const guchar *end)
{
  guchar lo = 0x80;
  guchar hi = 0xbf;

  switch (byte_class[p[0]])
    {
    case C_UTF8_2:
      if (end - p < 2 || (p[1] & 0xc0) != 0x80)
        return 0;
      return 2;

    case C_UTF8_3:
      if (p[0] == 0xe0)
        lo = 0xa0;
      else if (p[0] == 0xed)
        hi = 0x9f;
      if (end - p < 3 || p[1] < lo || p[1] > hi || (p[2] & 0xc0) != 0x80)
        return 0;
      return 3;

    case C_UTF8_4:
      if (p[0] == 0xf0)
        lo = 0x90;
      else if (p[0] == 0xf4)
        hi = 0x8f;
      if (end - p < 4 || p[1] < lo || p[1] > hi ||
          (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
        return 0;
      return 4;

    default:
      return 0;
    }
}

/* Reading */

/* A growing byte buffer that starts on the stack. */
typedef struct
{
  char  *data;
  gsize  len;
  gsize  size;
  char   stack[256];
} Buffer;

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

static void
buffer_grow (Buffer *buffer,
             gsize   extra)
{
  gsize size = MAX (buffer->size * 2, buffer->len + extra);

  if (buffer->data == buffer->stack)
    {
      buffer->data = g_malloc (size);
      memcpy (buffer->data, buffer->stack, buffer->len);
    }
  else
    {
      buffer->data = g_realloc (buffer->data, size);
    }
  buffer->size = size;
}

static inline void
buffer_append (Buffer     *buffer,
               const void *data,
               gsize       length)
{
  if (buffer->size - buffer->len < length)
    buffer_grow (buffer, length);
  memcpy (buffer->data + buffer->len, data, length);
  buffer->len += length;
}

static inline void
buffer_append_c (Buffer *buffer,
                 char    c)
{
  if (buffer->len == buffer->size)
    buffer_grow (buffer, 1);
  buffer->data[buffer->len++] = c;
}

typedef struct
{
  const guchar  *start;
  const guchar  *end;
  GError       **error;
  Buffer         scratch;   /* the string value being read */
  Buffer         keys;      /* a stack of the keys of unfinished members */
} Parser;

typedef struct
{
  JsonNode   *node;         /* owned until the container is complete */
  JsonObject *object;       /* or NULL for an array */
  JsonArray  *array;
  gsize       key_offset;   /* into Parser.keys: this object's pending key */
} Frame;

static void G_GNUC_PRINTF (3, 4)
parser_error (Parser       *self,
              const guchar *at,
              const char   *format,
              ...)
{
  g_autofree char *what = NULL;
  const guchar *line_start = self->start;
  gsize line = 1;
  gsize column = 1;
  va_list args;

  if (self->error == NULL)
    return;

  for (const guchar *q = self->start; q < at; q++)
    {
      if (*q == '\n')
        {
          line++;
          line_start = q + 1;
        }
    }
  /* in characters, not bytes; a stray byte counts as one */
  for (const guchar *q = line_start; q < at; q++)
    {
      if ((*q & 0xc0) != 0x80)
        column++;
    }

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (self->error,
               MCP_JSONRPC_ERROR,
               MCP_JSONRPC_ERROR_PARSE_ERROR,
               /* Translators: %lu are a line and a column number, %s what is wrong there */
               _("Invalid JSON at line %lu, column %lu: %s"),
               (unsigned long) line, (unsigned long) column, what);
}

static inline const guchar *
skip_space (const guchar *p,
            const guchar *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;

  return p;
}

static inline int
hex_value (guchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Reads the four hex digits after "\u" at @p; -1 if they are not. */
static int
read_hex4 (const guchar *p,
           const guchar *end)
{
  int value = 0;

  if (end - p < 4)
    return -1;

  for (guint i = 0; i < 4; i++)
    {
      int digit = hex_value (p[i]);

      if (digit < 0)
        return -1;
      value = (value << 4) | digit;
    }

  return value;
}

static void
buffer_append_unichar (Buffer   *buffer,
                       gunichar  c)
{
  char utf8[4];

  if (c < 0x80)
    {
      buffer_append_c (buffer, (char)c);
    }
  else if (c < 0x800)
    {
      utf8[0] = (char)(0xc0 | (c >> 6));
      utf8[1] = (char)(0x80 | (c & 0x3f));
      buffer_append (buffer, utf8, 2);
    }
  else if (c < 0x10000)
    {
      utf8[0] = (char)(0xe0 | (c >> 12));
      utf8[1] = (char)(0x80 | ((c >> 6) & 0x3f));
      utf8[2] = (char)(0x80 | (c & 0x3f));
      buffer_append (buffer, utf8, 3);
    }
  else
    {
      utf8[0] = (char)(0xf0 | (c >> 18));
      utf8[1] = (char)(0x80 | ((c >> 12) & 0x3f));
      utf8[2] = (char)(0x80 | ((c >> 6) & 0x3f));
      utf8[3] = (char)(0x80 | (c & 0x3f));
      buffer_append (buffer, utf8, 4);
    }
}

/* @p is at a backslash; returns where the escape ends, or NULL. */
static const guchar *
parse_escape (Parser       *self,
              const guchar *p,
              Buffer       *buffer)
{
  const guchar *end = self->end;
  int unit;
  int low;

  if (end - p < 2)
    {
      parser_error (self, p, _("the input ends inside an escape sequence"));
      return NULL;
    }

  switch (p[1])
    {
    case '"':  buffer_append_c (buffer, '"');  return p + 2;
    case '\\': buffer_append_c (buffer, '\\'); return p + 2;
    case '/':  buffer_append_c (buffer, '/');  return p + 2;
    case 'b':  buffer_append_c (buffer, '\b'); return p + 2;
    case 'f':  buffer_append_c (buffer, '\f'); return p + 2;
    case 'n':  buffer_append_c (buffer, '\n'); return p + 2;
    case 'r':  buffer_append_c (buffer, '\r'); return p + 2;
    case 't':  buffer_append_c (buffer, '\t'); return p + 2;
    case 'u':
      break;
    default:
      if (p[1] >= 0x20 && p[1] < 0x7f)
        parser_error (self, p, _("invalid escape sequence ‘\\%c’ in a string"), p[1]);
      else
        parser_error (self, p, _("invalid escape sequence in a string"));
      return NULL;
    }

  unit = read_hex4 (p + 2, end);
  if (unit < 0)
    {
      parser_error (self, p, _("‘\\u’ must be followed by four hexadecimal digits"));
      return NULL;
    }

  if (unit >= 0xdc00 && unit <= 0xdfff)
    {
      parser_error (self, p, _("lone low surrogate \\u%04X in a string"), (guint)unit);
      return NULL;
    }

  if (unit >= 0xd800 && unit <= 0xdbff)
    {
      if (end - p < 12 || p[6] != '\\' || p[7] != 'u' ||
          (low = read_hex4 (p + 8, end)) < 0xdc00 || low > 0xdfff)
        {
          parser_error (self, p,
                        _("high surrogate \\u%04X is not followed by a low surrogate (\\uDC00 to \\uDFFF)"),
                        (guint)unit);
          return NULL;
        }

      buffer_append_unichar (buffer, 0x10000 + (((gunichar)unit - 0xd800) << 10) + ((gunichar)low - 0xdc00));
      return p + 12;
    }

  if (unit == 0)
    {
      /* A GLib string ends at its first nul: keeping the rest would
       * silently cut the string short. */
      parser_error (self, p, _("\\u0000 (a nul character) in a string is not supported"));
      return NULL;
    }

  buffer_append_unichar (buffer, (gunichar)unit);

  return p + 6;
}

/* @p is at the opening quote. Appends the string's text and a nul to
 * @buffer; returns the position after the closing quote, or NULL. */
static const guchar *
parse_string (Parser       *self,
              const guchar *p,
              Buffer       *buffer)
{
  const guchar *quote = p;
  const guchar *end = self->end;
  const guchar *run;
  gsize n;

  run = ++p;
  for (;;)
    {
      while (p < end && byte_class[*p] == C_PLAIN)
        p++;

      if (p == end)
        {
          parser_error (self, quote, _("unterminated string (the input ends before its closing ‘\"’)"));
          return NULL;
        }

      switch (byte_class[*p])
        {
        case C_QUOTE:
          buffer_append (buffer, run, p - run);
          buffer_append_c (buffer, '\0');
          return p + 1;

        case C_BACKSLASH:
          buffer_append (buffer, run, p - run);
          p = parse_escape (self, p, buffer);
          if (p == NULL)
            return NULL;
          run = p;
          break;

        case C_CONTROL:
          parser_error (self, p,
                        _("control character U+%04X must be escaped in a string"),
                        (guint)*p);
          return NULL;

        case C_UTF8_2:
        case C_UTF8_3:
        case C_UTF8_4:
          n = utf8_sequence_length (p, end);
          if (n == 0)
            {
              parser_error (self, p, _("invalid UTF-8 sequence in a string (byte 0x%02X)"), (guint)*p);
              return NULL;
            }
          p += n;
          break;

        case C_INVALID:
        default:
          parser_error (self, p, _("invalid UTF-8 byte 0x%02X in a string"), (guint)*p);
          return NULL;
        }
    }
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
            parser_error (self, start, _("-Infinity is not a JSON number"));
          else
            parser_error (self, p, _("expected a digit after ‘-’"));
          return NULL;
        }
    }

  if (*p == '0')
    {
      p++;
      if (p < end && is_digit (*p))
        {
          parser_error (self, start, _("numbers must not have leading zeros"));
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
          parser_error (self, p, _("expected a digit after the decimal point"));
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
          parser_error (self, p, _("expected a digit in the exponent"));
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
      parser_error (self, start, _("number is too large for a double"));
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
    parser_error (self, p, _("NaN is not a JSON number"));
  else if (left >= 8 && memcmp (p, "Infinity", 8) == 0)
    parser_error (self, p, _("Infinity is not a JSON number"));
  else
    parser_error (self, p, _("invalid literal (expected true, false or null)"));

  return NULL;
}

static void
no_value_error (Parser       *self,
                const guchar *p,
                guint         depth)
{
  if (p == self->end)
    {
      if (depth == 0)
        parser_error (self, p, _("no JSON value (the input is empty or only whitespace)"));
      else
        parser_error (self, p, _("the input ends where a value was expected"));
      return;
    }

  switch (*p)
    {
    case '\'':
      parser_error (self, p, _("strings must be in double quotes, not single quotes"));
      break;
    case '/':
      parser_error (self, p, _("comments are not allowed in JSON"));
      break;
    case '+':
      parser_error (self, p, _("numbers must not start with ‘+’"));
      break;
    case '.':
      parser_error (self, p, _("numbers must have a digit before the decimal point"));
      break;
    case ']':
    case '}':
    case ',':
      parser_error (self, p, _("expected a value before ‘%c’"), *p);
      break;
    default:
      if (*p >= 0x20 && *p < 0x7f)
        parser_error (self, p, _("expected a value, not ‘%c’"), *p);
      else
        parser_error (self, p, _("expected a value, not the byte 0x%02X"), (guint)*p);
      break;
    }
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
      no_value_error (self, p, depth);
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
            parser_error (self, p, _("nested deeper than %u levels"), MCP_JSON_MAX_DEPTH);
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
      p = parse_string (self, p, &self->scratch);
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
      no_value_error (self, p, depth);
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
          parser_error (self, p, _("unexpected data after the JSON value"));
          goto fail;
        }
      goto done;
    }

  {
    Frame *frame = &frames[depth - 1];

    if (frame->object != NULL)
      {
        json_object_set_member (frame->object, self->keys.data + frame->key_offset, value);
        value = NULL;
        self->keys.len = frame->key_offset;

        p = skip_space (p, end);
        if (p < end && *p == ',')
          {
            p = skip_space (p + 1, end);
            if (p < end && *p == '}')
              {
                parser_error (self, p, _("trailing comma before ‘}’"));
                goto fail;
              }
            goto read_key;
          }
        if (p < end && *p == '}')
          {
            p++;
            value = frame->node;
            depth--;
            goto have_value;
          }
        if (p == end)
          parser_error (self, p, _("the input ends before the object is closed with ‘}’"));
        else
          parser_error (self, p, _("expected ‘,’ or ‘}’ after an object member"));
        goto fail;
      }
    else
      {
        json_array_add_element (frame->array, value);
        value = NULL;

        p = skip_space (p, end);
        if (p < end && *p == ',')
          {
            p = skip_space (p + 1, end);
            if (p < end && *p == ']')
              {
                parser_error (self, p, _("trailing comma before ‘]’"));
                goto fail;
              }
            goto read_value;
          }
        if (p < end && *p == ']')
          {
            p++;
            value = frame->node;
            depth--;
            goto have_value;
          }
        if (p == end)
          parser_error (self, p, _("the input ends before the array is closed with ‘]’"));
        else
          parser_error (self, p, _("expected ‘,’ or ‘]’ after an array element"));
        goto fail;
      }
  }

read_key:
  /* p is past the whitespace after '{' or ',' */
  if (p == end)
    {
      parser_error (self, p, _("the input ends before the object is closed with ‘}’"));
      goto fail;
    }
  if (*p != '"')
    {
      if (*p == '\'')
        parser_error (self, p, _("object keys must be in double quotes, not single quotes"));
      else
        parser_error (self, p, _("expected a string as an object key"));
      goto fail;
    }
  p = parse_string (self, p, &self->keys);
  if (p == NULL)
    goto fail;
  p = skip_space (p, end);
  if (p == end || *p != ':')
    {
      parser_error (self, p, _("expected ‘:’ after an object key"));
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

/* Writing */

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

static JsonNode *
optional_member (JsonObject *object,
                 const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node == NULL || JSON_NODE_HOLDS_NULL (node) ? NULL : node;
}

static void
ignore_member (const char *kind,
               const char *name,
               const char *member,
               const char *expected)
{
  if (name != NULL)
    g_debug ("%s “%s”: ignoring %s, which is not %s", kind, name, member, expected);
  else
    g_debug ("%s: ignoring %s, which is not %s", kind, member, expected);
}

const char *
mcp_json_optional_string (JsonObject *object,
                          const char *member,
                          const char *kind,
                          const char *name)
{
  JsonNode *node = optional_member (object, member);

  if (node == NULL)
    return NULL;

  if (json_node_get_value_type (node) != G_TYPE_STRING)
    {
      ignore_member (kind, name, member, "a string");
      return NULL;
    }

  return json_node_get_string (node);
}

JsonObject *
mcp_json_optional_object (JsonObject *object,
                          const char *member,
                          const char *kind,
                          const char *name)
{
  JsonNode *node = optional_member (object, member);

  if (node == NULL)
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      ignore_member (kind, name, member, "an object");
      return NULL;
    }

  return json_node_get_object (node);
}

/* Sizing */

/* Numbers as at most 24 characters, strings without their escapes: an
 * estimate meant for bounds on what a peer sent, not for buffers. */
gsize
mcp_json_estimate_size (JsonNode *node)
{
  gsize size = 0;

  if (node == NULL)
    return 4;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        size = 2;
        if (object != NULL)
          {
            json_object_iter_init (&iter, object);
            while (json_object_iter_next (&iter, &name, &member))
              size += strlen (name) + 4 + mcp_json_estimate_size (member);
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = array != NULL ? json_array_get_length (array) : 0;

        size = 2;
        for (guint i = 0; i < n; i++)
          size += 1 + mcp_json_estimate_size (json_array_get_element (array, i));
      }
      break;

    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_STRING)
          size = 2 + strlen (json_node_get_string (node));
        else if (type == G_TYPE_BOOLEAN)
          size = 5;
        else
          size = 24;
      }
      break;

    case JSON_NODE_NULL:
    default:
      size = 4;
      break;
    }

  return size;
}

/* Comparing */

gboolean
mcp_json_equal (JsonNode *a,
                JsonNode *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *x = json_node_get_object (a);
        JsonObject *y = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (json_object_get_size (x) != json_object_get_size (y))
          return FALSE;
        json_object_iter_init (&iter, x);
        while (json_object_iter_next (&iter, &name, &member))
          {
            if (!mcp_json_equal (member, json_object_get_member (y, name)))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *x = json_node_get_array (a);
        JsonArray *y = json_node_get_array (b);
        guint n = json_array_get_length (x);

        if (n != json_array_get_length (y))
          return FALSE;
        for (guint i = 0; i < n; i++)
          {
            if (!mcp_json_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
    default:
      {
        GType ta = json_node_get_value_type (a);
        GType tb = json_node_get_value_type (b);
        gboolean na = ta == G_TYPE_INT64 || ta == G_TYPE_DOUBLE;
        gboolean nb = tb == G_TYPE_INT64 || tb == G_TYPE_DOUBLE;

        if (na && nb)
          {
            if (ta == G_TYPE_INT64 && tb == G_TYPE_INT64)
              return json_node_get_int (a) == json_node_get_int (b);
            return json_node_get_double (a) == json_node_get_double (b);
          }
        if (ta != tb)
          return FALSE;
        if (ta == G_TYPE_BOOLEAN)
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
      }
    }
}
