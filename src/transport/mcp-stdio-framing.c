/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-framing-private.h"

#include <string.h>

static gboolean
line_ends (const char   *buf,
           gsize         start,
           gsize         nl,
           McpStdioScan *scan,
           gsize        *end)
{
  gboolean after_value = scan->after_value;

  memset (scan, 0, sizeof *scan);
  scan->scanned = nl + 1;
  /* The newline of a value that was a message already: an empty one. */
  if (after_value)
    *end = start;
  else if (nl > start && buf[nl - 1] == '\r')
    *end = nl - 1;
  else
    *end = nl;

  return TRUE;
}

gboolean
mcp_stdio_find_message (const char   *buf,
                        gsize         length,
                        gsize         start,
                        McpStdioScan *scan,
                        gsize        *end)
{
  gsize i;

  g_assert (start <= scan->scanned && scan->scanned <= length);

  for (i = scan->scanned; i < length; i++)
    {
      char c = buf[i];

      if (c == '\n')
        return line_ends (buf, start, i, scan, end);

      if (scan->after_value)
        {
          if (c == ' ' || c == '\t' || c == '\r')
            continue;
          /* Something else follows on the same line: a message of its own. */
          scan->after_value = FALSE;
        }

      if (scan->in_string)
        {
          if (scan->escaped)
            scan->escaped = FALSE;
          else if (c == '\\')
            scan->escaped = TRUE;
          else if (c == '"')
            scan->in_string = FALSE;
          continue;
        }

      switch (c)
        {
        case '"':
          /* Only strings inside a value can hold brackets that count. */
          if (scan->depth > 0)
            scan->in_string = TRUE;
          break;

        case '{':
        case '[':
          scan->depth++;
          break;

        case '}':
        case ']':
          if (scan->depth > 0 && --scan->depth == 0)
            {
              memset (scan, 0, sizeof *scan);
              scan->after_value = TRUE;
              scan->scanned = i + 1;
              *end = i + 1;
              return TRUE;
            }
          break;

        default:
          break;
        }
    }

  scan->scanned = length;
  return FALSE;
}

/* Where @data (@length bytes) ends when a UTF-8 sequence that is not
 * complete yet at its end is left out. */
static gsize
whole_sequences (const guint8 *data,
                 gsize         length)
{
  for (gsize back = 1; back <= 3 && back <= length; back++)
    {
      guint8 c = data[length - back];
      gsize needs;

      if ((c & 0xC0) == 0x80)
        continue;
      if (c >= 0xF0)
        needs = 4;
      else if (c >= 0xE0)
        needs = 3;
      else if (c >= 0xC0)
        needs = 2;
      else
        needs = 1;
      return needs > back ? length - back : length;
    }

  return length;
}

static void
hand_on (const guint8     *data,
         gsize             length,
         gboolean          truncated,
         McpStdioLineFunc  func,
         gpointer          user_data)
{
  if (length > 0 && data[length - 1] == '\r')
    length--;
  func ((const char *) data, length, truncated, user_data);
}

void
mcp_stdio_take_stderr_lines (GByteArray       *buf,
                             gsize             max_line,
                             gboolean          eof,
                             gboolean         *skipping,
                             McpStdioLineFunc  func,
                             gpointer          user_data)
{
  gsize start = 0;

  g_assert (max_line > 0);

  /* an empty GByteArray's data is NULL, which memchr() must not get */
  while (start < buf->len)
    {
      guint8 *nl = memchr (buf->data + start, '\n', buf->len - start);
      gsize length;

      if (nl == NULL)
        break;
      length = (gsize) (nl - buf->data) - start;
      if (*skipping)
        *skipping = FALSE;
      else
        hand_on (buf->data + start, length, FALSE, func, user_data);
      start += length + 1;
    }

  if (start > 0)
    g_byte_array_remove_range (buf, 0, (guint) start);

  if (buf->len >= max_line || (eof && buf->len > 0))
    {
      gsize keep = MIN (buf->len, max_line);

      /* Do not cut a UTF-8 sequence in two: not before a continuation
       * byte, nor after the first bytes of a sequence whose rest has not
       * come yet. */
      while (keep > 0 && keep < buf->len && (buf->data[keep] & 0xC0) == 0x80)
        keep--;
      if (keep == buf->len && !eof)
        keep = whole_sequences (buf->data, keep);
      if (!*skipping)
        hand_on (buf->data, keep, !eof, func, user_data);
      *skipping = !eof;
      g_byte_array_set_size (buf, 0);
    }
}
