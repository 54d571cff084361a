/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Shared by the parts of the JSON reader: mcp-json-parse.c (values,
 * numbers, literals, the nesting), mcp-json-parse-string.c (strings) and
 * mcp-json-parse-error.c (its errors). */

/* A growing byte buffer that starts on the stack. */
typedef struct
{
  char  *data;
  gsize  len;
  gsize  size;
  char   stack[256];
} Buffer;

typedef struct
{
  const guchar  *start;
  const guchar  *end;
  GError       **error;
  Buffer         scratch;   /* the string value being read */
  Buffer         keys;      /* a stack of the keys of unfinished members */
} Parser;

/* MCP_JSONRPC_ERROR_PARSE_ERROR at @at's line and column. */
void          mcp_json_parser_error (Parser       *self,
                                     const guchar *at,
                                     const char   *format,
                                     ...) G_GNUC_PRINTF (3, 4);
/* The error for what stands at @p where a value should (at the end, or
 * a character that starts none), @depth levels deep. */
void          mcp_json_parser_no_value_error (Parser       *self,
                                              const guchar *p,
                                              guint         depth);
/* @p is at the opening quote. Appends the string's text and a nul to
 * @buffer; returns the position after the closing quote, or NULL. */
const guchar *mcp_json_parse_string (Parser       *self,
                                     const guchar *p,
                                     Buffer       *buffer);

G_END_DECLS
