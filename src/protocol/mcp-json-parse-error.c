/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-json-parse-private.h"

#include <stdarg.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* The reader's errors: where the text is wrong (line and column, in
 * characters) and what a value was expected to look like. */

void
mcp_json_parser_error (Parser       *self,
                       const guchar *at,
                       const char   *format,
                       ...)
{
  g_autofree char *what = NULL;
  const guchar *line_start = self->start;
  gsize line = 1;
  gsize column = 1;
  va_list args;

  if (self->error == NULL)
    return;

  for (const guchar *q = self->start; q < at; q++)
    {
      if (*q == '\n')
        {
          line++;
          line_start = q + 1;
        }
    }
  /* in characters, not bytes; a stray byte counts as one */
  for (const guchar *q = line_start; q < at; q++)
    {
      if ((*q & 0xc0) != 0x80)
        column++;
    }

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (self->error,
               MCP_JSONRPC_ERROR,
               MCP_JSONRPC_ERROR_PARSE_ERROR,
               /* Translators: %lu are a line and a column number, %s what is wrong there */
               _("Invalid JSON at line %lu, column %lu: %s"),
               (unsigned long) line, (unsigned long) column, what);
}

void
mcp_json_parser_no_value_error (Parser       *self,
                                const guchar *p,
                                guint         depth)
{
  if (p == self->end)
    {
      if (depth == 0)
        mcp_json_parser_error (self, p, _("no JSON value (the input is empty or only whitespace)"));
      else
        mcp_json_parser_error (self, p, _("the input ends where a value was expected"));
      return;
    }

  switch (*p)
    {
    case '\'':
      mcp_json_parser_error (self, p, _("strings must be in double quotes, not single quotes"));
      break;
    case '/':
      mcp_json_parser_error (self, p, _("comments are not allowed in JSON"));
      break;
    case '+':
      mcp_json_parser_error (self, p, _("numbers must not start with ‘+’"));
      break;
    case '.':
      mcp_json_parser_error (self, p, _("numbers must have a digit before the decimal point"));
      break;
    case ']':
    case '}':
    case ',':
      mcp_json_parser_error (self, p, _("expected a value before ‘%c’"), *p);
      break;
    default:
      if (*p >= 0x20 && *p < 0x7f)
        mcp_json_parser_error (self, p, _("expected a value, not ‘%c’"), *p);
      else
        mcp_json_parser_error (self, p, _("expected a value, not the byte 0x%02X"), (guint)*p);
      break;
    }
}
