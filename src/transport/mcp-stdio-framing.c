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

/* The next @c at or after a position, found with memchr() over windows
 * that grow while nothing turns up and remembered between questions, so
 * that a search never reads the same bytes twice and never reads far past
 * where the scanner stops: a line of many small values stays linear. */
typedef struct
{
  char  c;
  gsize from;    /* searched [from, limit) */
  gsize found;   /* the first @c there, or @limit */
  gsize limit;
  gsize window;
} Finder;

#define FINDER_MIN_WINDOW 64
#define FINDER_MAX_WINDOW (64 * 1024)

#define FINDER_INIT(ch) { .c = (ch), .window = FINDER_MIN_WINDOW }

/* Where the next @self->c at or after @at is, or the end of the window
 * searched when there is none in it: the caller asks again from there. */
static gsize
finder_next (Finder     *self,
             const char *buf,
             gsize       length,
             gsize       at)
{
  const char *hit;
  gsize end;

  /* found < limit: a hit, good up to itself; else nothing before limit,
   * good before it. */
  if (self->limit > 0 && at >= self->from &&
      (at < self->found || (at == self->found && self->found < self->limit)))
    return self->found;

  end = at + MIN (self->window, length - at);
  hit = memchr (buf + at, self->c, end - at);
  self->from = at;
  self->limit = end;
  if (hit != NULL)
    {
      self->found = (gsize) (hit - buf);
    }
  else
    {
      self->found = end;
      self->window = MIN (self->window * 2, FINDER_MAX_WINDOW);
    }

  return self->found;
}

/* Bytes that can change the scanner's state outside a string inside a
 * value, and before a value. */
static const guint8 in_value_stops[256] = {
  ['\n'] = 1, ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};
static const guint8 top_level_stops[256] = {
  ['\n'] = 1, ['{'] = 1, ['['] = 1,
};
static const guint8 string_stops[256] = {
  ['\n'] = 1, ['"'] = 1, ['\\'] = 1,
};

/* Strings shorter than this (keys, most values) are scanned with the
 * table: a memchr() costs more than it saves on a few bytes. */
#define SHORT_RUN 32

/* Where the string that @i is in may end or change: the next quote,
 * backslash or newline at or after @i, or @length. */
static gsize
skip_in_string (const char *buf,
                gsize       length,
                gsize       i,
                Finder     *quote,
                Finder     *backslash,
                Finder     *newline)
{
  gsize short_end = MIN (length, i + SHORT_RUN);

  while (i < short_end && !string_stops[(guint8) buf[i]])
    i++;
  if (i < short_end || i == length)
    return i;

  /* A long string: what memchr() finds, each search remembered. */
  while (i < length)
    {
      gsize stop = finder_next (quote, buf, length, i);

      stop = MIN (stop, finder_next (backslash, buf, length, i));
      stop = MIN (stop, finder_next (newline, buf, length, i));
      if (stop < length && string_stops[(guint8) buf[stop]])
        return stop;
      /* The end of a window searched: search on from there. */
      i = stop;
    }

  return length;
}

/* Each state has its own loop over the bytes that cannot change it; the
 * scanner is the one that the comments of the header describe, byte for
 * byte. */
gboolean
mcp_stdio_find_message (const char   *buf,
                        gsize         length,
                        gsize         start,
                        McpStdioScan *scan,
                        gsize        *end)
{
  Finder quote = FINDER_INIT ('"');
  Finder backslash = FINDER_INIT ('\\');
  Finder newline = FINDER_INIT ('\n');
  gsize i;

  g_assert (start <= scan->scanned && scan->scanned <= length);

  i = scan->scanned;
  while (i < length)
    {
      char c;

      if (scan->in_string)
        {
          if (scan->escaped)
            {
              if (buf[i] == '\n')
                return line_ends (buf, start, i, scan, end);
              scan->escaped = FALSE;
              i++;
              continue;
            }

          i = skip_in_string (buf, length, i, &quote, &backslash, &newline);
          if (i == length)
            break;
          c = buf[i];
          if (c == '\n')
            return line_ends (buf, start, i, scan, end);
          if (c == '\\')
            scan->escaped = TRUE;
          else
            scan->in_string = FALSE;
          i++;
          continue;
        }

      if (scan->after_value)
        {
          c = buf[i];
          if (c == '\n')
            return line_ends (buf, start, i, scan, end);
          if (c == ' ' || c == '\t' || c == '\r')
            {
              i++;
              continue;
            }
          /* Something else follows on the same line: a message of its own. */
          scan->after_value = FALSE;
          continue;
        }

      if (scan->depth > 0)
        {
          while (i < length && !in_value_stops[(guint8) buf[i]])
            i++;
          if (i == length)
            break;

          switch (buf[i])
            {
            case '\n':
              return line_ends (buf, start, i, scan, end);

            case '"':
              /* Only strings inside a value can hold brackets that count. */
              scan->in_string = TRUE;
              break;

            case '{':
            case '[':
              scan->depth++;
              break;

            default: /* '}' or ']' */
              if (--scan->depth == 0)
                {
                  memset (scan, 0, sizeof *scan);
                  scan->after_value = TRUE;
                  scan->scanned = i + 1;
                  *end = i + 1;
                  return TRUE;
                }
              break;
            }
          i++;
          continue;
        }

      while (i < length && !top_level_stops[(guint8) buf[i]])
        i++;
      if (i == length)
        break;
      if (buf[i] == '\n')
        return line_ends (buf, start, i, scan, end);
      scan->depth++;
      i++;
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
