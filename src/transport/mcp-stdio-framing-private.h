/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How McpStdioTransport cuts what a server writes into lines, apart from
 * the pipes, so that tests and fuzz targets can feed it any bytes. */

/* stdout: the next line of @buf (@length bytes) that starts at @start.
 * The search resumes at *@scanned (from @start to @length), where an
 * earlier one stopped. TRUE when a newline follows: *@end is where the line
 * ends (before "\n", or "\r\n") and *@scanned is past the newline. FALSE
 * when none does: *@scanned is @length. @buf may be NULL when @length is 0. */
gboolean mcp_stdio_find_line (const char *buf,
                              gsize       length,
                              gsize       start,
                              gsize      *scanned,
                              gsize      *end);

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
