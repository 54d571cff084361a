/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-stdio-framing"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-message.h"
#include "mcp-stdio-framing-private.h"

/* How the stdio transport cuts a server's stdout and stderr into lines
 * (mcp-stdio-framing-private.h), fed the input in chunks as pipes give it.
 * The first byte of the input sets the chunk size (1 to 256); the rest is
 * what the server wrote.
 *
 * stdout: the input is buffered, scanned and compacted as the transport
 * does; the non-empty messages (lines, or whole JSON values) must not
 * depend on the chunk size and never hold a newline; without brackets in
 * the input they are its lines split at "\n", less a "\r" before it, in
 * order; each is read as JSON-RPC.
 * stderr: with lines cut at 16 bytes, every complete line is as split,
 * never holds a newline, and a cut never splits a UTF-8 sequence of valid
 * input; the buffer is empty at the end. Warnings and criticals are fatal. */

#define MAX_LINE 16

static void
fail (const char *what)
{
  g_printerr ("fuzz-stdio-framing: %s\n", what);
  abort ();
}

/* The lines of @text as the transport must see them. */
static GPtrArray *
reference_lines (const char *text,
                 gsize       length,
                 gboolean    keep_empty,
                 gboolean    keep_last)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gsize start = 0;

  for (gsize i = 0; i <= length; i++)
    {
      gsize end = i;

      if (i == length ? !keep_last || start == length : text[i] != '\n')
        continue;
      if (end > start && text[end - 1] == '\r')
        end--;
      if (end > start || keep_empty)
        g_ptr_array_add (lines, g_bytes_new (text + start, end - start));
      start = i + 1;
    }

  return lines;
}

/* The non-empty messages found in @text fed in @chunk-byte pieces. */
static GPtrArray *
stdout_messages (const char *text,
                 gsize       length,
                 gsize       chunk)
{
  GPtrArray *messages = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *buf = NULL;
  gsize buf_len = 0;
  McpStdioScan scan = { 0, };

  buf = g_malloc (length + 1);
  for (gsize offset = 0; offset < length; offset += chunk)
    {
      gsize n = MIN (chunk, length - offset);
      gsize start = 0;
      gsize end;

      memcpy (buf + buf_len, text + offset, n);
      buf_len += n;

      while (mcp_stdio_find_message (buf, buf_len, start, &scan, &end))
        {
          if (end < start || end > buf_len || scan.scanned > buf_len || scan.scanned < end)
            fail ("a message outside the buffer");
          if (end > start)
            {
              g_autoptr(GPtrArray) parsed = NULL;

              if (memchr (buf + start, '\n', end - start) != NULL)
                fail ("a message with a newline in it");
              g_ptr_array_add (messages, g_bytes_new (buf + start, end - start));
              parsed = mcp_message_parse (buf + start, (gssize) (end - start), NULL);
            }
          start = scan.scanned;
        }
      if (scan.scanned != buf_len)
        fail ("a search that did not go to the end");

      memmove (buf, buf + start, buf_len - start);
      buf_len -= start;
      scan.scanned -= start;
    }

  return messages;
}

/* The messages do not depend on how the input is cut in pieces; without
 * brackets they are its lines. */
static void
check_stdout (const char *text,
              gsize       length,
              gsize       chunk)
{
  g_autoptr(GPtrArray) whole = stdout_messages (text, length, MAX (length, 1));
  g_autoptr(GPtrArray) cut = stdout_messages (text, length, chunk);

  if (whole->len != cut->len)
    fail ("another number of messages when the input comes in pieces");
  for (guint i = 0; i < whole->len; i++)
    if (!g_bytes_equal (g_ptr_array_index (whole, i), g_ptr_array_index (cut, i)))
      fail ("another message when the input comes in pieces");

  if (memchr (text, '{', length) == NULL && memchr (text, '[', length) == NULL)
    {
      g_autoptr(GPtrArray) expected = reference_lines (text, length, FALSE, FALSE);

      if (expected->len != cut->len)
        fail ("another number of lines than the input has");
      for (guint i = 0; i < cut->len; i++)
        if (!g_bytes_equal (g_ptr_array_index (expected, i), g_ptr_array_index (cut, i)))
          fail ("a line that is not the input's");
    }
}

typedef struct
{
  GPtrArray *lines;
  gboolean   truncated_any;
  gboolean   valid_utf8;
} StderrState;

static void
stderr_line_cb (const char *data,
                gsize       length,
                gboolean    truncated,
                gpointer    user_data)
{
  StderrState *state = user_data;

  if (memchr (data, '\n', length) != NULL)
    fail ("a stderr line with a newline in it");
  if (truncated)
    {
      state->truncated_any = TRUE;
      if (length > MAX_LINE)
        fail ("a cut stderr line longer than the limit");
      if (state->valid_utf8 && !g_utf8_validate (data, (gssize) length, NULL))
        fail ("a cut in the middle of a UTF-8 sequence");
    }
  g_ptr_array_add (state->lines, g_bytes_new (data, length));
}

static void
check_stderr (const char *text,
              gsize       length,
              gsize       chunk)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GPtrArray) expected = reference_lines (text, length, TRUE, TRUE);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  StderrState state = { lines, FALSE, g_utf8_validate (text, (gssize) length, NULL) };
  gboolean skipping = FALSE;

  /* an empty buffer first: its data is NULL */
  mcp_stdio_take_stderr_lines (buf, MAX_LINE, FALSE, &skipping, stderr_line_cb, &state);

  for (gsize offset = 0; offset < length; offset += chunk)
    {
      gsize n = MIN (chunk, length - offset);

      g_byte_array_append (buf, (const guint8 *) text + offset, (guint) n);
      mcp_stdio_take_stderr_lines (buf, MAX_LINE, FALSE, &skipping, stderr_line_cb, &state);
    }
  mcp_stdio_take_stderr_lines (buf, MAX_LINE, TRUE, &skipping, stderr_line_cb, &state);

  if (buf->len != 0)
    fail ("stderr left in the buffer at the end");

  /* Without a cut, the lines are the input's. */
  if (!state.truncated_any)
    {
      if (lines->len != expected->len)
        fail ("another number of stderr lines than the input has");
      for (guint i = 0; i < lines->len; i++)
        if (!g_bytes_equal (g_ptr_array_index (lines, i), g_ptr_array_index (expected, i)))
          fail ("a stderr line that is not the input's");
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  gsize chunk;

  fuzz_abort_on_warnings ();

  if (size == 0)
    return 0;
  chunk = (gsize) data[0] + 1;

  check_stdout ((const char *) data + 1, size - 1, chunk);
  check_stderr ((const char *) data + 1, size - 1, chunk);

  return 0;
}
