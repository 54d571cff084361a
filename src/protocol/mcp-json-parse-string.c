/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-json-parse-private.h"
#include "mcp-json-utf8-private.h"

#include <string.h>

#include <glib/gi18n.h>

/* The reader's strings: escapes, surrogate pairs and UTF-8, into a buffer
 * that grows from the stack. */

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
      mcp_json_parser_error (self, p, _("the input ends inside an escape sequence"));
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
        mcp_json_parser_error (self, p, _("invalid escape sequence ‘\\%c’ in a string"), p[1]);
      else
        mcp_json_parser_error (self, p, _("invalid escape sequence in a string"));
      return NULL;
    }

  unit = read_hex4 (p + 2, end);
  if (unit < 0)
    {
      mcp_json_parser_error (self, p, _("‘\\u’ must be followed by four hexadecimal digits"));
      return NULL;
    }

  if (unit >= 0xdc00 && unit <= 0xdfff)
    {
      mcp_json_parser_error (self, p, _("lone low surrogate \\u%04X in a string"), (guint)unit);
      return NULL;
    }

  if (unit >= 0xd800 && unit <= 0xdbff)
    {
      if (end - p < 12 || p[6] != '\\' || p[7] != 'u' ||
          (low = read_hex4 (p + 8, end)) < 0xdc00 || low > 0xdfff)
        {
          mcp_json_parser_error (self, p,
                                 _("high surrogate \\u%04X is not followed by a low surrogate (\\uDC00 to \\uDFFF)"),
                                 (guint)unit);
          return NULL;
        }

      buffer_append_unichar (buffer, 0x10000 + (((gunichar)unit - 0xd800) << 10) + ((gunichar)low - 0xdc00));
      return p + 12;
    }

  if (unit == 0)
    {
      /* A GLib string ends at its first nul, which would silently cut
       * the rest of the string off. \u0000 is read as U+2400 SYMBOL FOR
       * NULL ("␀") instead: one character for one, so the text after it
       * survives, the string keeps its length in characters, and the nul
       * shows wherever the text is displayed. */
      buffer_append_unichar (buffer, 0x2400);
      return p + 6;
    }

  buffer_append_unichar (buffer, (gunichar)unit);

  return p + 6;
}

const guchar *
mcp_json_parse_string (Parser       *self,
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
          mcp_json_parser_error (self, quote, _("unterminated string (the input ends before its closing ‘\"’)"));
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
          mcp_json_parser_error (self, p,
                                 _("control character U+%04X must be escaped in a string"),
                                 (guint)*p);
          return NULL;

        case C_UTF8_2:
        case C_UTF8_3:
        case C_UTF8_4:
          n = utf8_sequence_length (p, end);
          if (n == 0)
            {
              mcp_json_parser_error (self, p, _("invalid UTF-8 sequence in a string (byte 0x%02X)"), (guint)*p);
              return NULL;
            }
          p += n;
          break;

        case C_INVALID:
        default:
          mcp_json_parser_error (self, p, _("invalid UTF-8 byte 0x%02X in a string"), (guint)*p);
          return NULL;
        }
    }
}
