/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How McpStdioTransport cuts what a server writes into lines, apart from
 * the pipes, so that tests and fuzz targets can feed it any bytes. */

/* stdout: where a search for the next message stopped, and what it knew
 * of the JSON value there. Zero-filled to begin with, and after the
 * buffered bytes were dropped. */
typedef struct
{
  gsize    scanned;      /* where the search resumes */
  gsize    depth;        /* open objects and arrays */
  gboolean in_string;
  gboolean escaped;      /* after a backslash in a string */
  gboolean after_value;  /* a whole value ended; its newline may follow */
} McpStdioScan;

/* stdout: the next message of @buf (@length bytes) that starts at @start.
 * The search resumes at @scan->scanned (from @start to @length), where an
 * earlier one stopped. A message ends at a newline ("\n" or "\r\n"), or as
 * soon as a top-level JSON object or array is complete, so that a server
 * that sends the newline late (only before its next message) is not left
 * waiting: the whitespace and newline after such a value then make an
 * empty message. TRUE when one ended: *@end is where (before "\n" or
 * "\r\n", or past the closing bracket) and @scan->scanned is past it and
 * its newline. FALSE when none did: @scan->scanned is @length. @buf may be
 * NULL when @length is 0. */
gboolean mcp_stdio_find_message (const char   *buf,
                                 gsize         length,
                                 gsize         start,
                                 McpStdioScan *scan,
                                 gsize        *end);

/* One line of stderr: @length bytes at @data, without its "\n" or "\r\n";
 * @truncated when it was longer and the rest of it will be skipped. */
typedef void (*McpStdioLineFunc) (const char *data,
                                  gsize       length,
                                  gboolean    truncated,
                                  gpointer    user_data);

/* stderr: hands every complete line in @buf to @func and removes it. What
 * is @max_line bytes or more without a newline is handed on cut at
 * @max_line (never in the middle of a UTF-8 sequence) as truncated, and
 * the rest of it, up to its newline, is skipped (*@skipping says so
 * between calls; FALSE to begin with). At @eof what is left is a line. An
 * empty @buf (whose data is NULL) is fine. */
void     mcp_stdio_take_stderr_lines (GByteArray       *buf,
                                      gsize             max_line,
                                      gboolean          eof,
                                      gboolean         *skipping,
                                      McpStdioLineFunc  func,
                                      gpointer          user_data);

G_END_DECLS
