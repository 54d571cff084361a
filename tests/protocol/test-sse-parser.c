/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sse-parser"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-sse-parser.h"

#define BOM "\xef\xbb\xbf"

static char *
escape (const char *data)
{
  GString *out = g_string_new (NULL);

  for (const char *p = data; *p != '\0'; p++)
    switch (*p)
      {
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      case '\\': g_string_append (out, "\\\\"); break;
      default: g_string_append_c (out, *p); break;
      }

  return g_string_free (out, FALSE);
}

/* Every event as one line "type|data|id" with data escaped, so a whole run
 * compares as one string and a failure shows what differed. */
static void
log_event (const char *event_type,
           const char *data,
           const char *last_event_id,
           gpointer    user_data)
{
  GString *log = user_data;
  g_autofree char *escaped = escape (data);

  g_assert_nonnull (event_type);
  g_assert_nonnull (data);
  g_assert_true (g_utf8_validate (data, -1, NULL));
  g_string_append_printf (log, "%s|%s|%s\n", event_type, escaped,
                          last_event_id != NULL ? last_event_id : "(null)");
}

/* Feeds @input cut at each of @cuts (ascending offsets), then finishes.
 * Returns the event log; stops at the first error. */
static char *
parse_cut (const char   *input,
           gsize         length,
           const gsize  *cuts,
           guint         n_cuts,
           gsize         max_buffer,
           GError      **error)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (max_buffer);
  g_autoptr(GString) log = g_string_new (NULL);
  gsize start = 0;

  for (guint i = 0; i <= n_cuts; i++)
    {
      gsize stop = i < n_cuts ? cuts[i] : length;

      g_assert_cmpuint (stop, >=, start);
      if (!mcp_sse_parser_feed (parser, input + start, stop - start, log_event, log, error))
        return g_string_free (g_steal_pointer (&log), FALSE);
      start = stop;
    }
  mcp_sse_parser_finish (parser);

  return g_string_free (g_steal_pointer (&log), FALSE);
}

/* Parses @input whole, split at every byte boundary, split at every pair of
 * boundaries (for short inputs) and byte by byte: the events, and the error
 * if any, must be the same every time. */
static void
check_all_splits_full (const char *input,
                       gsize       length,
                       gsize       max_buffer,
                       const char *expected,
                       int         expected_error)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = parse_cut (input, length, NULL, 0, max_buffer, &error);
  g_autofree gsize *bytes = g_new (gsize, length + 1);

  g_assert_cmpstr (whole, ==, expected);
  if (expected_error < 0)
    g_assert_no_error (error);
  else
    g_assert_error (error, MCP_ERROR, expected_error);

  for (gsize i = 0; i <= length; i++)
    {
      g_autoptr(GError) split_error = NULL;
      g_autofree char *split = parse_cut (input, length, &i, 1, max_buffer, &split_error);

      g_assert_cmpstr (split, ==, expected);
      g_assert_true ((split_error == NULL) == (error == NULL));
    }

  if (length <= 96)
    for (gsize i = 0; i <= length; i++)
      for (gsize j = i; j <= length; j++)
        {
          g_autoptr(GError) split_error = NULL;
          gsize cuts[2] = { i, j };
          g_autofree char *split = parse_cut (input, length, cuts, 2, max_buffer, &split_error);

          g_assert_cmpstr (split, ==, expected);
          g_assert_true ((split_error == NULL) == (error == NULL));
        }

  for (gsize i = 0; i < length; i++)
    bytes[i] = i + 1;
  {
    g_autoptr(GError) split_error = NULL;
    g_autofree char *split = parse_cut (input, length, bytes, length > 0 ? length - 1 : 0,
                                        max_buffer, &split_error);

    g_assert_cmpstr (split, ==, expected);
    g_assert_true ((split_error == NULL) == (error == NULL));
  }
}

static void
check_all_splits (const char *input,
                  const char *expected)
{
  check_all_splits_full (input, strlen (input), 0, expected, -1);
}

/* The HTML standard's examples, 9.2.5 "Event stream format" and 9.2.6. */

static void
test_spec_stock (void)
{
  check_all_splits ("data: YHOO\ndata: +2\ndata: 10\n\n",
                    "message|YHOO\\n+2\\n10|(null)\n");
}

static void
test_spec_ids (void)
{
  check_all_splits (": test stream\n"
                    "\n"
                    "data: first event\n"
                    "id: 1\n"
                    "\n"
                    "data:second event\n"
                    "id\n"
                    "\n"
                    "data:  third event\n"
                    "\n",
                    "message|first event|1\n"
                    "message|second event|(null)\n"
                    "message| third event|(null)\n");
}

static void
test_spec_empty_data (void)
{
  /* The first block fires an event with the empty string, the second with
   * one newline; the third is discarded as the stream ends. */
  check_all_splits ("data\n"
                    "\n"
                    "data\n"
                    "data\n"
                    "\n"
                    "data:",
                    "message||(null)\n"
                    "message|\\n|(null)\n");
}

static void
test_spec_space (void)
{
  check_all_splits ("data:test\n\ndata: test\n\n",
                    "message|test|(null)\n"
                    "message|test|(null)\n");
}

static void
test_spec_event_types (void)
{
  check_all_splits ("event: add\ndata: 73857293\n\n"
                    "event: remove\ndata: 2153\n\n"
                    "event: add\ndata: 113411\n\n",
                    "add|73857293|(null)\n"
                    "remove|2153|(null)\n"
                    "add|113411|(null)\n");
}

static void
test_event_type_reset (void)
{
  /* The type buffer empties at each dispatch, with or without data. */
  check_all_splits ("event: foo\ndata: a\n\ndata: b\n\nevent: bar\n\ndata: c\n\n"
                    "event\ndata: d\n\nevent: x\nevent: y\ndata: e\n\n",
                    "foo|a|(null)\n"
                    "message|b|(null)\n"
                    "message|c|(null)\n"
                    "message|d|(null)\n"
                    "y|e|(null)\n");
}

static void
test_data_lines (void)
{
  /* Only the last newline goes; a final empty data line leaves one. */
  check_all_splits ("data: a\ndata:\n\ndata:\ndata:\ndata: b\n\ndata: a:b: c\n\n",
                    "message|a\\n|(null)\n"
                    "message|\\n\\nb|(null)\n"
                    "message|a:b: c|(null)\n");
}

static void
test_line_ends (void)
{
  check_all_splits ("data: lf\n\n"
                    "data: crlf\r\n\r\n"
                    "data: cr\r\r"
                    "data: a\r\ndata: b\rdata: c\n\r\n"
                    "data: x\r\n\rdata: y\r\r"
                    "data: z\n\r\r\n",
                    "message|lf|(null)\n"
                    "message|crlf|(null)\n"
                    "message|cr|(null)\n"
                    "message|a\\nb\\nc|(null)\n"
                    "message|x|(null)\n"
                    "message|y|(null)\n"
                    "message|z|(null)\n");
}

static void
test_cr_lf_across_chunks (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *chunks[] = { "data: a\r", "\n", "data: b\r", "\n", "\r", "\n", "\r", "\n" };

  /* An LF right after a chunk's final CR ends no second line. */
  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      g_assert_true (mcp_sse_parser_feed (parser, chunks[i], strlen (chunks[i]),
                                          log_event, log, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpstr (log->str, ==, "message|a\\nb|(null)\n");
}

static void
test_comments (void)
{
  check_all_splits (":\n: comment\n:data: not data\n\ndata: x\n:comment inside\ndata: y\n\n:only\n\n",
                    "message|x\\ny|(null)\n");
}

static void
test_long_comment_not_buffered (void)
{
  g_autoptr(GString) input = g_string_new (":");

  /* Keep-alive comments never count against the limit. */
  for (guint i = 0; i < 1000; i++)
    g_string_append (input, "comment ");
  g_string_append (input, "\ndata: after\n\n");

  check_all_splits_full (input->str, input->len, 32, "message|after|(null)\n", -1);
}

static void
test_space_after_colon (void)
{
  check_all_splits ("data:none\n\ndata: one\n\ndata:  two\n\ndata:\ttab\n\ndata: \n\n",
                    "message|none|(null)\n"
                    "message|one|(null)\n"
                    "message| two|(null)\n"
                    "message|\\ttab|(null)\n"
                    "message||(null)\n");
}

static void
test_no_colon (void)
{
  /* A line without a colon is the field with an empty value. */
  check_all_splits ("data\ndata\n\nid: 3\nevent: e\nevent\ndata: x\n\nid\ndata: y\n\n",
                    "message|\\n|(null)\n"
                    "message|x|3\n"
                    "message|y|(null)\n");
}

static void
test_unknown_fields (void)
{
  check_all_splits ("foo: bar\ndata: x\nDATA: y\nData: z\n data: w\ndata : v\nretryx: 9\n\n"
                    "foo\n\n",
                    "message|x|(null)\n");
}

static void
test_id (void)
{
  static const char input[] =
    "id: 42\ndata: a\n\n"
    "data: b\n\n"
    "id: bad\0id\ndata: c\n\n"
    "id: 43\n\n"
    "data: d\n\n"
    "id:\ndata: e\n\n"
    "id: 44\ndata: f\n\n"
    "id: 45\n";
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  check_all_splits_full (input, sizeof input - 1, 0,
                         "message|a|42\n"
                         "message|b|42\n"
                         "message|c|42\n"
                         "message|d|43\n"
                         "message|e|(null)\n"
                         "message|f|44\n",
                         -1);

  /* The last event ID changes at a dispatch, even of nothing; an "id" line
   * the stream never finished with an empty line does not count. */
  g_assert_true (mcp_sse_parser_feed (parser, input, sizeof input - 1, log_event, log, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_sse_parser_get_last_event_id (parser), ==, "44");
  mcp_sse_parser_finish (parser);
  g_assert_cmpstr (mcp_sse_parser_get_last_event_id (parser), ==, "44");

  g_assert_true (mcp_sse_parser_feed (parser, "id: 46\n\n", 8, log_event, log, &error));
  g_assert_cmpstr (mcp_sse_parser_get_last_event_id (parser), ==, "46");
  g_assert_cmpstr (log->str, ==,
                   "message|a|42\nmessage|b|42\nmessage|c|42\nmessage|d|43\n"
                   "message|e|(null)\nmessage|f|44\n");
}

static void
check_retry (const char *input,
             gint64      expected)
{
  for (gsize i = 0; i <= strlen (input); i++)
    {
      g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
      g_autoptr(GError) error = NULL;

      g_assert_cmpint (mcp_sse_parser_get_retry (parser), ==, -1);
      g_assert_true (mcp_sse_parser_feed (parser, input, i, NULL, NULL, &error));
      g_assert_true (mcp_sse_parser_feed (parser, input + i, strlen (input) - i, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (mcp_sse_parser_get_retry (parser), ==, expected);
    }
}

static void
test_retry (void)
{
  /* Set at once, without waiting for a dispatch. */
  check_retry ("retry: 500\n", 500);
  check_retry ("retry:0\n", 0);
  check_retry ("retry: 1000\nretry: 250\r", 250);
  check_retry ("retry: 300\nretry: 5x\n", 300);
  check_retry ("retry: 5x\n", -1);
  check_retry ("retry: -1\n", -1);
  check_retry ("retry: 1.5\n", -1);
  check_retry ("retry: +5\n", -1);
  check_retry ("retry: 12 \n", -1);
  check_retry ("retry:  12\n", -1);
  check_retry ("retry:\n", -1);
  check_retry ("retry\n", -1);
  check_retry ("retry: \xd9\xa3\n", -1);  /* ARABIC-INDIC DIGIT THREE is no ASCII digit */
  check_retry ("retry: 500", -1);         /* the line never ended */
  check_retry ("retry: 99999999999999999999999\n", G_MAXINT64);
}

static void
test_bom (void)
{
  check_all_splits (BOM "data: x\n\n", "message|x|(null)\n");
  check_all_splits (BOM "\ndata: x\n\n", "message|x|(null)\n");
  /* Only one, only at the start: a second one is part of the field name. */
  check_all_splits (BOM BOM "data: x\n\ndata: y\n\n", "message|y|(null)\n");
  check_all_splits ("data: a\n\n" BOM "data: b\n\n", "message|a|(null)\n");
  /* Part of a BOM is not one. */
  check_all_splits ("\xef\xbb" "data: x\n\ndata: y\n\n", "message|y|(null)\n");
  check_all_splits ("\xef" "data: x\n\ndata: y\n\n", "message|y|(null)\n");
  /* Inside data, it is data. */
  check_all_splits ("data: " BOM "\n\n", "message|" BOM "|(null)\n");
}

static void
test_bom_after_reset (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_sse_parser_feed (parser, BOM "data: a\n\n", 12, log_event, log, &error));
  mcp_sse_parser_reset (parser);
  g_assert_true (mcp_sse_parser_feed (parser, BOM "data: b\n\n", 12, log_event, log, &error));
  mcp_sse_parser_finish (parser);
  g_assert_true (mcp_sse_parser_feed (parser, BOM "data: c\n\n", 12, log_event, log, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "message|a|(null)\nmessage|b|(null)\nmessage|c|(null)\n");
}

static void
test_invalid_utf8 (void)
{
  static const char input[] = "data: a\xff" "b\nevent: t\xc3\n\nid: \xed\xa0\x80\ndata: n\0ul\n\n";

  check_all_splits_full (input, sizeof input - 1, 0,
                         "t\xef\xbf\xbd|a\xef\xbf\xbd" "b|(null)\n"
                         "message|n\xef\xbf\xbd" "ul|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n",
                         -1);
}

static void
test_finish_discards (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_sse_parser_feed (parser, "data: a\n\ndata: b\n", 17, log_event, log, &error));
  mcp_sse_parser_finish (parser);
  g_assert_true (mcp_sse_parser_feed (parser, "\ndata: c", 8, log_event, log, &error));
  mcp_sse_parser_finish (parser);
  g_assert_true (mcp_sse_parser_feed (parser, "\n\n", 2, log_event, log, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "message|a|(null)\n");

  /* A CR at the end of the last stream does not swallow the next's LF. */
  g_assert_true (mcp_sse_parser_feed (parser, "data: d\r", 8, log_event, log, &error));
  mcp_sse_parser_finish (parser);
  g_assert_true (mcp_sse_parser_feed (parser, "\ndata: e\n\n", 10, log_event, log, &error));
  g_assert_cmpstr (log->str, ==, "message|a|(null)\nmessage|e|(null)\n");
}

static void
test_limit (void)
{
  g_autoptr(GString) input = g_string_new (NULL);

  /* A line plus pending data of exactly the limit is fine; one byte more is not. */
  check_all_splits_full ("data:0123456789a\n\n", 18, 16, "message|0123456789a|(null)\n", -1);
  check_all_splits_full ("data:0123456789ab\n\n", 19, 16, "", MCP_ERROR_MESSAGE_TOO_LARGE);
  check_all_splits_full ("data: ok\n\nevent: 0123456789abcdef\n\n",
                         strlen ("data: ok\n\nevent: 0123456789abcdef\n\n"), 16,
                         "message|ok|(null)\n", MCP_ERROR_MESSAGE_TOO_LARGE);

  /* Pending data counts: many short lines make a big event. */
  g_string_append (input, "data: one\n\n");
  for (guint i = 0; i < 20; i++)
    g_string_append (input, "data: 0123456789\n");
  g_string_append (input, "\n");
  check_all_splits_full (input->str, input->len, 128, "message|one|(null)\n",
                         MCP_ERROR_MESSAGE_TOO_LARGE);
}

static void
test_limit_message_and_reset (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (1024 * 1024);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *chunk = g_malloc (4096);
  gboolean ok = TRUE;
  guint fed = 0;

  memset (chunk, 'x', 4096);
  g_assert_true (mcp_sse_parser_feed (parser, "id: 1\nretry: 10\ndata: a\n\ndata: ", 31,
                                      log_event, log, &error));

  /* A line that never ends fails once it passes the limit, not later. */
  while (ok && fed < 1024)
    {
      ok = mcp_sse_parser_feed (parser, chunk, 4096, log_event, log, &error);
      fed++;
    }
  g_assert_false (ok);
  g_assert_cmpuint (fed, ==, 256);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpstr (error->message, ==, "An event stream event is larger than 1 MiB");
  g_clear_error (&error);

  /* Unusable until reset, which keeps the last event ID and retry. */
  g_assert_false (mcp_sse_parser_feed (parser, "\n\n", 2, log_event, log, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_clear_error (&error);

  mcp_sse_parser_reset (parser);
  g_assert_cmpstr (mcp_sse_parser_get_last_event_id (parser), ==, "1");
  g_assert_cmpint (mcp_sse_parser_get_retry (parser), ==, 10);
  g_assert_true (mcp_sse_parser_feed (parser, "data: b\n\n", 9, log_event, log, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "message|a|1\nmessage|b|1\n");
}

static void
test_reset_keeps_id_and_retry (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char first[] = "id: 7\nretry: 100\ndata: x\n\nevent: lost\nid: 8\ndata: partial\ndata: part";

  g_assert_true (mcp_sse_parser_feed (parser, first, sizeof first - 1, log_event, log, &error));
  mcp_sse_parser_reset (parser);
  g_assert_cmpstr (mcp_sse_parser_get_last_event_id (parser), ==, "7");
  g_assert_cmpint (mcp_sse_parser_get_retry (parser), ==, 100);

  /* The dropped event's type, data and id are gone. */
  g_assert_true (mcp_sse_parser_feed (parser, "ial\n\ndata: y\n\n", 14, log_event, log, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "message|x|7\nmessage|y|7\n");
}

static void
reset_in_callback (const char *event_type,
                   const char *data,
                   const char *last_event_id,
                   gpointer    user_data)
{
  McpSseParser *parser = user_data;

  g_object_set_data_full (G_OBJECT (parser), "seen", g_strdup (data), g_free);
  mcp_sse_parser_reset (parser);
}

static void
test_reset_in_callback (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GError) error = NULL;

  /* The rest of the chunk belonged to the stream the callback gave up. */
  g_assert_true (mcp_sse_parser_feed (parser, "data: a\n\ndata: b\n\n", 18,
                                      reset_in_callback, parser, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_object_get_data (G_OBJECT (parser), "seen"), ==, "a");
}

static void
unref_in_callback (const char *event_type,
                   const char *data,
                   const char *last_event_id,
                   gpointer    user_data)
{
  McpSseParser **parser = user_data;

  g_clear_object (parser);
}

static void
test_unref_in_callback (void)
{
  McpSseParser *parser = mcp_sse_parser_new (0);
  GWeakRef weak;
  g_autoptr(GError) error = NULL;

  g_weak_ref_init (&weak, parser);
  g_assert_true (mcp_sse_parser_feed (parser, "data: a\n\ndata: b\n\n", 18,
                                      unref_in_callback, &parser, &error));
  g_assert_no_error (error);
  g_assert_null (parser);
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);
}

static void
count_event (const char *event_type,
             const char *data,
             const char *last_event_id,
             gpointer    user_data)
{
  GPtrArray *events = user_data;

  g_ptr_array_add (events, g_strdup (data));
}

static void
test_big_event (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) input = g_string_new ("data: ");
  gsize size = 8 * 1024 * 1024;

  /* 8 MiB in one line and again in 1000 lines, fed in odd-sized chunks. */
  for (gsize i = 0; i < size; i++)
    g_string_append_c (input, 'a' + i % 26);
  g_string_append (input, "\r\n\r\n");
  for (guint i = 0; i < 1000; i++)
    g_string_append (input, "data: 0123456789abcdef0123456789abcdef\r\n");
  g_string_append (input, "\r\n");

  for (gsize offset = 0; offset < input->len; offset += 65521)
    g_assert_true (mcp_sse_parser_feed (parser, input->str + offset,
                                        MIN (65521, input->len - offset),
                                        count_event, events, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (events->len, ==, 2);
  g_assert_cmpuint (strlen (events->pdata[0]), ==, size);
  g_assert_true (memcmp (events->pdata[0], input->str + 6, size) == 0);
  g_assert_cmpuint (strlen (events->pdata[1]), ==, 1000 * 33 - 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sse-parser/spec/stock", test_spec_stock);
  g_test_add_func ("/sse-parser/spec/ids", test_spec_ids);
  g_test_add_func ("/sse-parser/spec/empty-data", test_spec_empty_data);
  g_test_add_func ("/sse-parser/spec/space", test_spec_space);
  g_test_add_func ("/sse-parser/spec/event-types", test_spec_event_types);
  g_test_add_func ("/sse-parser/event/type-reset", test_event_type_reset);
  g_test_add_func ("/sse-parser/data/lines", test_data_lines);
  g_test_add_func ("/sse-parser/lines/ends", test_line_ends);
  g_test_add_func ("/sse-parser/lines/cr-lf-across-chunks", test_cr_lf_across_chunks);
  g_test_add_func ("/sse-parser/lines/comments", test_comments);
  g_test_add_func ("/sse-parser/lines/long-comment", test_long_comment_not_buffered);
  g_test_add_func ("/sse-parser/fields/space-after-colon", test_space_after_colon);
  g_test_add_func ("/sse-parser/fields/no-colon", test_no_colon);
  g_test_add_func ("/sse-parser/fields/unknown", test_unknown_fields);
  g_test_add_func ("/sse-parser/fields/id", test_id);
  g_test_add_func ("/sse-parser/fields/retry", test_retry);
  g_test_add_func ("/sse-parser/bom/once", test_bom);
  g_test_add_func ("/sse-parser/bom/after-reset", test_bom_after_reset);
  g_test_add_func ("/sse-parser/encoding/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/sse-parser/stream/finish-discards", test_finish_discards);
  g_test_add_func ("/sse-parser/limit/exact", test_limit);
  g_test_add_func ("/sse-parser/limit/message-and-reset", test_limit_message_and_reset);
  g_test_add_func ("/sse-parser/reset/keeps-id-and-retry", test_reset_keeps_id_and_retry);
  g_test_add_func ("/sse-parser/reset/in-callback", test_reset_in_callback);
  g_test_add_func ("/sse-parser/reset/unref-in-callback", test_unref_in_callback);
  g_test_add_func ("/sse-parser/big-event", test_big_event);

  return g_test_run ();
}
