/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-framing-private.h"

#include <string.h>

gboolean
mcp_stdio_find_line (const char *buf,
                     gsize       length,
                     gsize       start,
                     gsize      *scanned,
                     gsize      *end)
{
  const char *nl;

  g_assert (start <= *scanned && *scanned <= length);

  /* memchr() must not get the NULL of an empty buffer */
  if (*scanned >= length)
    return FALSE;

  nl = memchr (buf + *scanned, '\n', length - *scanned);
  if (nl == NULL)
    {
      *scanned = length;
      return FALSE;
    }

  *end = (gsize) (nl - buf);
  *scanned = *end + 1;
  if (*end > start && buf[*end - 1] == '\r')
    (*end)--;

  return TRUE;
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
