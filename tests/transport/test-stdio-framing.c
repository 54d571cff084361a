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
  McpStdioScan scan = { 0, };
  gsize end = 0;

  g_assert_false (mcp_stdio_find_message (NULL, 0, 0, &scan, &end));
  g_assert_cmpuint (scan.scanned, ==, 0);

  /* a whole value is a message at once; its newline then an empty one */
  g_assert_true (mcp_stdio_find_message (text, length, start, &scan, &end));
  g_assert_cmpuint (end, ==, 7);
  g_assert_cmpuint (scan.scanned, ==, 7);
  start = scan.scanned;
  g_assert_true (mcp_stdio_find_message (text, length, start, &scan, &end));
  g_assert_cmpuint (end, ==, start);
  g_assert_cmpuint (scan.scanned, ==, 9);
  start = scan.scanned;
  g_assert_true (mcp_stdio_find_message (text, length, start, &scan, &end));
  g_assert_cmpuint (end, ==, start);
  start = scan.scanned;
  g_assert_true (mcp_stdio_find_message (text, length, start, &scan, &end));
  g_assert_cmpmem (text + start, end - start, "{\"b\":2}", 7);
  start = scan.scanned;
  g_assert_true (mcp_stdio_find_message (text, length, start, &scan, &end));
  g_assert_cmpuint (end, ==, start);
  start = scan.scanned;
  g_assert_false (mcp_stdio_find_message (text, length, start, &scan, &end));
  g_assert_cmpuint (scan.scanned, ==, length);
  /* a search that stopped resumes where it did: the line is whole later */
  g_assert_false (mcp_stdio_find_message (text, length, start, &scan, &end));
}

/* Feeds @chunks one after the other into a buffer, as the transport does,
 * and returns the non-empty messages found, "|"-separated. */
static char *
messages_of (const char *const *chunks)
{
  g_autoptr(GString) buf = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  McpStdioScan scan = { 0, };

  for (guint i = 0; chunks[i] != NULL; i++)
    {
      gsize start = 0;
      gsize end;

      g_string_append (buf, chunks[i]);
      while (mcp_stdio_find_message (buf->str, buf->len, start, &scan, &end))
        {
          if (end > start)
            {
              if (out->len > 0)
                g_string_append_c (out, '|');
              g_string_append_len (out, buf->str + start, (gssize) (end - start));
            }
          start = scan.scanned;
        }
      g_string_erase (buf, 0, (gssize) start);
      scan.scanned -= start;
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_stdout_whole_values (void)
{
  /* the newline comes only with the next message */
  const char *late[] = { "{\"id\":1,\"result\":{}}", "\n{\"id\":2}", "\r\n", NULL };
  /* brackets and quotes inside strings, escaped quotes and backslashes */
  const char *strings[] = { "{\"a\":\"}]\\\"{[\\\\\"", ",\"b\":[1,{\"c\":\"]\"}]}", NULL };
  /* two values on one line, byte by byte */
  const char *bytes[] = { "[", "1", "]", " ", "[", "]", "\n", NULL };
  /* not JSON: still cut at newlines; text around a value is its own line */
  const char *text[] = { "hello\n", "not json} ]\n", "{\"x\":1} tail\n", NULL };
  /* a newline ends everything that was open */
  const char *open[] = { "{\"a\":\"unterminated\n", "{\"b\":1}", NULL };
  g_autofree char *l = messages_of (late);
  g_autofree char *s = messages_of (strings);
  g_autofree char *b = messages_of (bytes);
  g_autofree char *t = messages_of (text);
  g_autofree char *o = messages_of (open);

  g_assert_cmpstr (l, ==, "{\"id\":1,\"result\":{}}|{\"id\":2}");
  g_assert_cmpstr (s, ==, "{\"a\":\"}]\\\"{[\\\\\",\"b\":[1,{\"c\":\"]\"}]}");
  g_assert_cmpstr (b, ==, "[1]| []");
  g_assert_cmpstr (t, ==, "hello|not json} ]|{\"x\":1}| tail");
  g_assert_cmpstr (o, ==, "{\"a\":\"unterminated|{\"b\":1}");
}

/* Strings far longer than the scanner's memchr() windows, with what must
 * stop it (escaped quotes, a backslash at the end of a chunk, brackets and
 * a newline inside) far apart, and a line of many small values: the same
 * messages as short ones, and never quadratic. */
static void
test_stdout_long_strings (void)
{
  g_autoptr(GString) value = g_string_new ("{\"text\":\"");
  g_autoptr(GString) many = g_string_new (NULL);
  g_autofree char *head = NULL;
  g_autofree char *found = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *tiny = NULL;
  const char *chunks[5];

  for (guint i = 0; i < 300000; i++)
    g_string_append_c (value, i % 65536 == 100 ? '}' : 'a');
  g_string_append (value, "\\\"");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (value, 'b');
  g_string_append (value, "\\");
  head = g_strdup (value->str);
  /* the chunk ends after a backslash: the next byte is escaped */
  g_string_truncate (value, 0);
  g_string_append (value, "\"]\\\\\"}");
  chunks[0] = head;
  chunks[1] = value->str;
  chunks[2] = "{\"x\":\"a\nb\"}\n";
  chunks[3] = "[]\n";
  chunks[4] = NULL;
  found = messages_of (chunks);
  expected = g_strdup_printf ("%s%s|{\"x\":\"a|b\"}|[]", head, value->str);
  g_assert_cmpstr (found, ==, expected);

  for (guint i = 0; i < 200000; i++)
    g_string_append (many, "{}");
  chunks[0] = many->str;
  chunks[1] = NULL;
  tiny = messages_of (chunks);
  g_assert_cmpuint (strlen (tiny), ==, 3 * 200000 - 1);
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
  g_test_add_func ("/stdio-framing/stdout/whole-values", test_stdout_whole_values);
  g_test_add_func ("/stdio-framing/stdout/long-strings", test_stdout_long_strings);

  return g_test_run ();
}
