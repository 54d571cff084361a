/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stdio-framing"

#include "config.h"

#include <string.h>

#include <glib.h>

#include "mcp-stdio-framing-private.h"

/* How the stdio transport cuts a server's stdout and stderr into lines.
 * Issue 20, finding 9: an empty stderr buffer's data is NULL, and memchr()
 * was handed it; the sanitizer build (meson test --setup asan) fails this
 * test on that code with "null pointer passed as argument 1". */

static void
collect_cb (const char *data,
            gsize       length,
            gboolean    truncated,
            gpointer    user_data)
{
  GPtrArray *lines = user_data;

  g_ptr_array_add (lines, g_strdup_printf ("%s%.*s", truncated ? "cut:" : "", (int) length, data));
}

static void
test_stderr_empty (void)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  gboolean skipping = FALSE;

  g_assert_null (buf->data);
  mcp_stdio_take_stderr_lines (buf, 64, FALSE, &skipping, collect_cb, lines);
  mcp_stdio_take_stderr_lines (buf, 64, TRUE, &skipping, collect_cb, lines);
  g_assert_cmpuint (lines->len, ==, 0);
  g_assert_cmpuint (buf->len, ==, 0);
  g_assert_false (skipping);
}

static void
feed (GByteArray *buf,
      const char *text,
      gboolean    eof,
      gboolean   *skipping,
      GPtrArray  *lines)
{
  g_byte_array_append (buf, (const guint8 *) text, (guint) strlen (text));
  mcp_stdio_take_stderr_lines (buf, 8, eof, skipping, collect_cb, lines);
}

static void
test_stderr_lines (void)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  gboolean skipping = FALSE;

  feed (buf, "one\r\ntw", FALSE, &skipping, lines);
  feed (buf, "o\n\nthree", FALSE, &skipping, lines);
  /* eight bytes without a newline: cut, and the rest of the line skipped */
  feed (buf, "3456789abc", FALSE, &skipping, lines);
  g_assert_true (skipping);
  feed (buf, "def\nlast", TRUE, &skipping, lines);

  g_assert_cmpuint (lines->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (lines, 0), ==, "one");
  g_assert_cmpstr (g_ptr_array_index (lines, 1), ==, "two");
  g_assert_cmpstr (g_ptr_array_index (lines, 2), ==, "");
  g_assert_cmpstr (g_ptr_array_index (lines, 3), ==, "cut:three345");
  g_assert_cmpstr (g_ptr_array_index (lines, 4), ==, "last");
  g_assert_false (skipping);
  g_assert_cmpuint (buf->len, ==, 0);
}

static void
test_stderr_utf8_cut (void)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  gboolean skipping = FALSE;

  /* "abcdefg" and the first byte of "é" make eight: the cut is before it */
  feed (buf, "abcdefg\xc3\xa9xyz", FALSE, &skipping, lines);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (lines, 0), ==, "cut:abcdefg");
}

/* Found by fuzz-stdio-framing: a buffer of exactly the limit that ends in
 * the first byte of a sequence was cut there. */
static void
test_stderr_utf8_cut_at_limit (void)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  gboolean skipping = FALSE;

  feed (buf, "abcdefg\xc3", FALSE, &skipping, lines);
  feed (buf, "\xa9xyz\nok\n", FALSE, &skipping, lines);
  g_assert_cmpuint (lines->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (lines, 0), ==, "cut:abcdefg");
  g_assert_cmpstr (g_ptr_array_index (lines, 1), ==, "ok");
}

static void
test_stdout_find_line (void)
{
  const char *text = "{\"a\":1}\r\n\n{\"b\":2}\n{\"c\"";
  gsize length = strlen (text);
  gsize start = 0;
  gsize scanned = 0;
  gsize end = 0;

  g_assert_false (mcp_stdio_find_line (NULL, 0, 0, &scanned, &end));
  g_assert_cmpuint (scanned, ==, 0);

  g_assert_true (mcp_stdio_find_line (text, length, start, &scanned, &end));
  g_assert_cmpuint (end, ==, 7);
  g_assert_cmpuint (scanned, ==, 9);
  start = scanned;
  g_assert_true (mcp_stdio_find_line (text, length, start, &scanned, &end));
  g_assert_cmpuint (end, ==, start);
  start = scanned;
  g_assert_true (mcp_stdio_find_line (text, length, start, &scanned, &end));
  g_assert_cmpmem (text + start, end - start, "{\"b\":2}", 7);
  start = scanned;
  g_assert_false (mcp_stdio_find_line (text, length, start, &scanned, &end));
  g_assert_cmpuint (scanned, ==, length);
  /* a search that stopped resumes where it did: the line is whole later */
  g_assert_false (mcp_stdio_find_line (text, length, start, &scanned, &end));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stdio-framing/stderr/empty", test_stderr_empty);
  g_test_add_func ("/stdio-framing/stderr/lines", test_stderr_lines);
  g_test_add_func ("/stdio-framing/stderr/utf8-cut", test_stderr_utf8_cut);
  g_test_add_func ("/stdio-framing/stderr/utf8-cut-at-limit", test_stderr_utf8_cut_at_limit);
  g_test_add_func ("/stdio-framing/stdout/find-line", test_stdout_find_line);

  return g_test_run ();
}
