/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The classes of bytes in JSON text and the UTF-8 check, shared by the
 * reader (mcp-json-parse-string.c) and the writer (mcp-json-write.c);
 * static so that each keeps its table and inlined check in its hot loop. */

enum
{
  C_PLAIN,      /* ASCII that stands for itself in a JSON string */
  C_QUOTE,
  C_BACKSLASH,
  C_CONTROL,    /* U+0000 to U+001F */
  C_UTF8_2,     /* lead byte of a two-byte sequence */
  C_UTF8_3,
  C_UTF8_4,
  C_INVALID,    /* never starts a UTF-8 character */
};

static const guint8 byte_class[256] = {
  [0x00 ... 0x1f] = C_CONTROL,
  [0x20 ... 0x21] = C_PLAIN,
  ['"'] = C_QUOTE,
  [0x23 ... 0x5b] = C_PLAIN,
  ['\\'] = C_BACKSLASH,
  [0x5d ... 0x7f] = C_PLAIN,
  [0x80 ... 0xc1] = C_INVALID,
  [0xc2 ... 0xdf] = C_UTF8_2,
  [0xe0 ... 0xef] = C_UTF8_3,
  [0xf0 ... 0xf4] = C_UTF8_4,
  [0xf5 ... 0xff] = C_INVALID,
};

/* The length of the well-formed UTF-8 sequence at @p (2 to 4), or 0 for an
 * invalid one: truncated, overlong, a surrogate or beyond U+10FFFF. The
 * bytes are read in order and stop at the first bad one, so a nul
 * terminator is never read past. */
static inline gsize
utf8_sequence_length (const guchar *p,
                      const guchar *end)
{
  guchar lo = 0x80;
  guchar hi = 0xbf;

  switch (byte_class[p[0]])
    {
    case C_UTF8_2:
      if (end - p < 2 || (p[1] & 0xc0) != 0x80)
        return 0;
      return 2;

    case C_UTF8_3:
      if (p[0] == 0xe0)
        lo = 0xa0;
      else if (p[0] == 0xed)
        hi = 0x9f;
      if (end - p < 3 || p[1] < lo || p[1] > hi || (p[2] & 0xc0) != 0x80)
        return 0;
      return 3;

    case C_UTF8_4:
      if (p[0] == 0xf0)
        lo = 0x90;
      else if (p[0] == 0xf4)
        hi = 0x8f;
      if (end - p < 4 || p[1] < lo || p[1] > hi ||
          (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
        return 0;
      return 4;

    default:
      return 0;
    }
}

G_END_DECLS
