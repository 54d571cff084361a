/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-toml-document-private.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

/* McpTomlDocument's reader: TOML 1.0 (https://toml.io/en/v1.0.0) read
 * into JSON values, with the byte ranges of each key, value, table header
 * and body that the editor (mcp-toml-document.c) splices. One pass, no
 * backtracking; every error names the line and column. */

typedef struct
{
  const char  *s;
  gsize        length;
  gsize        p;
  TomlIndex   *index;
  guint        n_keys;
  GError     **error;
} Parser;

static gboolean G_GNUC_PRINTF (3, 4)
fail (Parser     *self,
      gsize       at,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  gsize line = 1;
  gsize column = 1;
  gsize line_start = 0;
  va_list args;

  if (self->error == NULL || *self->error != NULL)
    return FALSE;

  at = MIN (at, self->length);
  for (gsize q = 0; q < at; q++)
    {
      if (self->s[q] == '\n')
        {
          line++;
          line_start = q + 1;
        }
    }
  /* in characters, not bytes; a byte order mark is not one */
  for (gsize q = line_start; q < at; q++)
    {
      if (((guchar) self->s[q] & 0xc0) != 0x80 && !(q == 0 && self->index->content_start == 3))
        column++;
    }

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (self->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: %lu are a line and a column number, %s what is wrong there */
               _("line %lu, column %lu: %s"),
               (unsigned long) line, (unsigned long) column, what);
  return FALSE;
}

/* The index */

static void
table_free (TomlTable *table)
{
  g_free (table->name);
  g_clear_pointer (&table->members, g_ptr_array_unref);
  g_free (table);
}

static void
key_free (TomlKey *key)
{
  for (guint i = 0; i < key->n_segments; i++)
    g_free (key->segments[i].name);
  g_free (key->segments);
  g_free (key);
}

void
mcp_toml_index_free (TomlIndex *index)
{
  if (index == NULL)
    return;

  g_clear_pointer (&index->keys, g_ptr_array_unref);
  g_clear_pointer (&index->tables, g_hash_table_unref);
  g_clear_pointer (&index->table_arrays, g_hash_table_unref);
  g_free (index);
}

TomlTable *
mcp_toml_index_get_table (TomlIndex  *index,
                          JsonObject *object)
{
  return g_hash_table_lookup (index->tables, object);
}

/* A new table named @name in @parent (NULL: the root), or NULL past the
 * depth limit. */
static TomlTable *
add_table (Parser        *self,
           TomlTable     *parent,
           const char    *name,
           TomlTableKind  kind,
           gsize          at)
{
  TomlTable *table;
  JsonNode *node;

  if (parent != NULL && parent->depth + 1 > MCP_TOML_MAX_DEPTH)
    {
      fail (self, at, _("nested deeper than %d levels"), MCP_TOML_MAX_DEPTH);
      return NULL;
    }

  table = g_new0 (TomlTable, 1);
  table->kind = kind;
  table->parent = parent;
  table->name = g_strdup (name);
  table->object = json_object_new ();
  table->depth = parent != NULL ? parent->depth + 1 : 0;
  if (kind == TOML_TABLE_INLINE)
    table->members = g_ptr_array_new ();
  g_hash_table_insert (self->index->tables, table->object, table);

  if (parent != NULL && name != NULL)
    {
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (node, table->object);
      json_object_set_member (parent->object, name, node);
    }

  return table;
}

/* Whether a dotted key of @owner's body may add to @table: only a table
 * that dotted keys of the same body made. */
static gboolean
is_open_to (TomlTable *table,
            TomlTable *owner)
{
  return table->kind == TOML_TABLE_DOTTED && table->owner == owner;
}

/* Whether a [header] may reach through @table: not an inline one, nor
 * one an inline table made with dotted keys. */
static gboolean
is_closed (TomlTable *table)
{
  for (; table != NULL; table = table->kind == TOML_TABLE_DOTTED ? table->owner : NULL)
    {
      if (table->kind == TOML_TABLE_INLINE)
        return TRUE;
    }

  return FALSE;
}

/* The dotted name of the first @n @segments of a key of @body, from the
 * root, for errors */
static char *
key_text (TomlTable   *body,
          TomlSegment *segments,
          guint        n)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (; body != NULL && body->name != NULL; body = body->parent)
    g_ptr_array_insert (names, 0, body->name);
  for (guint i = 0; i < names->len; i++)
    {
      mcp_toml_append_key (out, names->pdata[i]);
      g_string_append_c (out, '.');
    }
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, '.');
      mcp_toml_append_key (out, segments[i].name);
    }

  return g_string_free (out, FALSE);
}

/* Characters */

static inline gboolean
at_end (Parser *self)
{
  return self->p >= self->length;
}

static inline char
peek (Parser *self,
      gsize   ahead)
{
  return self->p + ahead < self->length ? self->s[self->p + ahead] : '\0';
}

static void
skip_blanks (Parser *self)
{
  while (!at_end (self) && (self->s[self->p] == ' ' || self->s[self->p] == '\t'))
    self->p++;
}

/* TOML's control characters: all but tab below U+0020, and U+007F */
static inline gboolean
is_control (guchar c)
{
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

/* A newline at p (LF or CRLF): its length, or 0; a lone CR is an error
 * (-1). */
static int
newline_at (Parser *self,
            gsize   p)
{
  if (p < self->length && self->s[p] == '\n')
    return 1;
  if (p < self->length && self->s[p] == '\r')
    {
      if (p + 1 < self->length && self->s[p + 1] == '\n')
        return 2;
      fail (self, p, _("a carriage return must be followed by a line feed"));
      return -1;
    }

  return 0;
}

/* Past a comment at p, if there is one, up to (not past) its newline. */
static gboolean
skip_comment (Parser *self)
{
  if (at_end (self) || self->s[self->p] != '#')
    return TRUE;

  for (self->p++; !at_end (self); self->p++)
    {
      guchar c = self->s[self->p];

      if (c == '\n' || (c == '\r' && peek (self, 1) == '\n'))
        break;
      if (is_control (c))
        return fail (self, self->p, _("the control character U+%04X is not allowed here"), c);
    }

  return TRUE;
}

/* Blanks, an optional comment, then a newline or the end. */
static gboolean
expect_line_end (Parser *self)
{
  int n;

  skip_blanks (self);
  if (!skip_comment (self))
    return FALSE;
  if (at_end (self))
    return TRUE;
  n = newline_at (self, self->p);
  if (n < 0)
    return FALSE;
  if (n == 0)
    return fail (self, self->p, _("expected the end of the line"));
  self->p += n;

  return TRUE;
}

/* Blanks, newlines and comments, as between the values of an array. */
static gboolean
skip_trivia (Parser *self)
{
  for (;;)
    {
      int n;

      skip_blanks (self);
      if (!skip_comment (self))
        return FALSE;
      n = newline_at (self, self->p);
      if (n < 0)
        return FALSE;
      if (n == 0)
        return TRUE;
      self->p += n;
    }
}

/* Strings */

static gboolean
append_unicode (Parser  *self,
                GString *out,
                gsize    at,
                guint    digits)
{
  gunichar c = 0;

  for (guint i = 0; i < digits; i++)
    {
      int v = g_ascii_xdigit_value (peek (self, i));

      if (v < 0)
        return fail (self, at, _("invalid Unicode escape: expected %u hexadecimal digits"), digits);
      c = c * 16 + (gunichar) v;
    }
  if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    return fail (self, at, _("invalid Unicode escape: U+%04X is not a Unicode scalar value"), c);

  g_string_append_unichar (out, c);
  self->p += digits;
  return TRUE;
}

/* After a backslash in a basic string */
static gboolean
read_escape (Parser  *self,
             GString *out,
             gboolean multiline)
{
  gsize at = self->p - 1;
  char c = peek (self, 0);

  switch (c)
    {
    case 'b': g_string_append_c (out, '\b'); break;
    case 't': g_string_append_c (out, '\t'); break;
    case 'n': g_string_append_c (out, '\n'); break;
    case 'f': g_string_append_c (out, '\f'); break;
    case 'r': g_string_append_c (out, '\r'); break;
    case '"': g_string_append_c (out, '"'); break;
    case '\\': g_string_append_c (out, '\\'); break;
    case 'u':
      self->p++;
      return append_unicode (self, out, at, 4);
    case 'U':
      self->p++;
      return append_unicode (self, out, at, 8);
    default:
      if (multiline)
        {
          /* a line-ending backslash: the newline and the blanks after it go */
          gsize q = self->p;

          while (q < self->length && (self->s[q] == ' ' || self->s[q] == '\t'))
            q++;
          if (q < self->length && (self->s[q] == '\n' || (self->s[q] == '\r' && q + 1 < self->length && self->s[q + 1] == '\n')))
            {
              self->p = q;
              for (;;)
                {
                  int n;

                  while (!at_end (self) && (self->s[self->p] == ' ' || self->s[self->p] == '\t'))
                    self->p++;
                  n = newline_at (self, self->p);
                  if (n < 0)
                    return FALSE;
                  if (n == 0)
                    return TRUE;
                  self->p += n;
                }
            }
        }
      if (c >= 0x20 && c < 0x7f)
        return fail (self, at, _("invalid escape sequence ‘\\%c’"), c);
      return fail (self, at, _("invalid escape sequence"));
    }

  self->p++;
  return TRUE;
}

/* A string of any of the four kinds at p; NULL at an error. */
static char *
read_string (Parser   *self,
             gboolean  allow_multiline)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gsize start = self->p;
  char quote = self->s[self->p];
  gboolean literal = quote == '\'';
  gboolean multiline = FALSE;

  if (peek (self, 1) == quote && peek (self, 2) == quote)
    {
      if (!allow_multiline)
        {
          fail (self, start, _("a key cannot be a multi-line string"));
          return NULL;
        }
      multiline = TRUE;
      self->p += 3;
      /* a newline right after the opening quotes is not part of it */
      if (peek (self, 0) == '\n')
        self->p++;
      else if (peek (self, 0) == '\r' && peek (self, 1) == '\n')
        self->p += 2;
    }
  else
    {
      self->p++;
    }

  for (;;)
    {
      guchar c;

      if (at_end (self))
        {
          fail (self, start, _("the string is not closed"));
          return NULL;
        }
      c = self->s[self->p];

      if (c == (guchar) quote)
        {
          if (!multiline)
            {
              self->p++;
              return g_string_free (g_steal_pointer (&out), FALSE);
            }
          if (peek (self, 1) == quote && peek (self, 2) == quote)
            {
              /* up to two quotes may come before the closing three */
              guint extra = 0;

              while (extra < 2 && peek (self, 3 + extra) == quote)
                extra++;
              g_string_append_len (out, self->s + self->p, extra);
              self->p += 3 + extra;
              return g_string_free (g_steal_pointer (&out), FALSE);
            }
          g_string_append_c (out, c);
          self->p++;
          continue;
        }

      if (c == '\\' && !literal)
        {
          self->p++;
          if (!read_escape (self, out, multiline))
            return NULL;
          continue;
        }

      if (c == '\n' || c == '\r')
        {
          int n;

          if (!multiline)
            {
              fail (self, self->p, _("the string is not closed before the end of the line"));
              return NULL;
            }
          n = newline_at (self, self->p);
          if (n < 0)
            return NULL;
          g_string_append_len (out, self->s + self->p, n);
          self->p += n;
          continue;
        }

      if (is_control (c))
        {
          fail (self, self->p, _("the control character U+%04X is not allowed here"), c);
          return NULL;
        }

      g_string_append_c (out, c);
      self->p++;
    }
}

/* Keys */

static inline gboolean
is_bare (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

/* A key (dotted or not) at p: its segments, tables still unset. */
static gboolean
read_key (Parser *self,
          GArray *segments)
{
  for (;;)
    {
      TomlSegment segment = { NULL, NULL, self->p, 0 };
      char c = peek (self, 0);

      if (c == '"' || c == '\'')
        {
          segment.name = read_string (self, FALSE);
          if (segment.name == NULL)
            return FALSE;
        }
      else if (is_bare (c))
        {
          while (!at_end (self) && is_bare (self->s[self->p]))
            self->p++;
          segment.name = g_strndup (self->s + segment.start, self->p - segment.start);
        }
      else
        {
          return fail (self, self->p, _("expected a key"));
        }
      segment.end = self->p;
      g_array_append_val (segments, segment);

      if (segments->len > MCP_TOML_MAX_DEPTH)
        return fail (self, segment.start, _("nested deeper than %d levels"), MCP_TOML_MAX_DEPTH);
      if (++self->n_keys > MCP_TOML_MAX_KEYS)
        return fail (self, segment.start, _("more than %d keys"), MCP_TOML_MAX_KEYS);

      skip_blanks (self);
      if (peek (self, 0) != '.')
        return TRUE;
      self->p++;
      skip_blanks (self);
    }
}

static TomlKey *
key_new (TomlKeyKind  kind,
         GArray      *segments)
{
  TomlKey *key = g_new0 (TomlKey, 1);

  key->kind = kind;
  key->n_segments = segments->len;
  key->segments = (TomlSegment *) (void *) g_array_free (segments, FALSE);
  key->comments = key->block_end = key->value_start = key->value_end = MCP_TOML_NO_POS;

  return key;
}

static GArray *
segments_new (void)
{
  return g_array_new (FALSE, TRUE, sizeof (TomlSegment));
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TomlKey, key_free)

/* Numbers, booleans, dates */

static gboolean
digits_ok (const char *text,
           gsize       length,
           gboolean  (*is_digit) (char))
{
  /* one digit at least; an underscore only between two digits */
  if (length == 0 || !is_digit (text[0]) || !is_digit (text[length - 1]))
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      if (text[i] == '_')
        {
          if (!is_digit (text[i + 1]) || !is_digit (text[i - 1]))
            return FALSE;
        }
      else if (!is_digit (text[i]))
        {
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean is_dec (char c) { return c >= '0' && c <= '9'; }
static gboolean is_hex (char c) { return g_ascii_isxdigit (c); }
static gboolean is_oct (char c) { return c >= '0' && c <= '7'; }
static gboolean is_bin (char c) { return c == '0' || c == '1'; }

static char *
without_underscores (const char *text,
                     gsize       length)
{
  GString *out = g_string_sized_new (length);

  for (gsize i = 0; i < length; i++)
    {
      if (text[i] != '_')
        g_string_append_c (out, text[i]);
    }

  return g_string_free (out, FALSE);
}

static gboolean
two_digits (const char *t,
            guint      *value)
{
  if (!is_dec (t[0]) || !is_dec (t[1]))
    return FALSE;
  *value = (guint) (t[0] - '0') * 10 + (guint) (t[1] - '0');
  return TRUE;
}

/* HH:MM:SS(.frac)? at t; its length, or 0 */
static gsize
time_length (const char *t,
             gsize       length)
{
  guint h, m, s;
  gsize n = 8;

  if (length < 8 || !two_digits (t, &h) || t[2] != ':' || !two_digits (t + 3, &m) ||
      t[5] != ':' || !two_digits (t + 6, &s) || h > 23 || m > 59 || s > 60)
    return 0;
  if (n < length && t[n] == '.')
    {
      n++;
      if (n >= length || !is_dec (t[n]))
        return 0;
      while (n < length && is_dec (t[n]))
        n++;
    }

  return n;
}

/* A date, time or date-time of RFC 3339 as TOML has them; its length,
 * or 0 when the text is not one. */
static gsize
datetime_length (const char *t,
                 gsize       length)
{
  static const guint days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  guint y1, y2, mo, d;
  gsize n;
  gsize time;

  if (length >= 3 && is_dec (t[0]) && is_dec (t[1]) && t[2] == ':')
    return time_length (t, length);

  if (length < 10 || !two_digits (t, &y1) || !two_digits (t + 2, &y2) || t[4] != '-' ||
      !two_digits (t + 5, &mo) || t[7] != '-' || !two_digits (t + 8, &d))
    return 0;
  if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1])
    return 0;
  if (mo == 2 && d == 29)
    {
      guint year = y1 * 100 + y2;

      if (!(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
        return 0;
    }

  n = 10;
  if (n + 1 >= length ||
      !(t[n] == 'T' || t[n] == 't' || (t[n] == ' ' && is_dec (t[n + 1]))))
    return n;
  time = time_length (t + n + 1, length - n - 1);
  if (time == 0)
    return t[n] == ' ' ? n : 0;
  n += 1 + time;

  if (n < length && (t[n] == 'Z' || t[n] == 'z'))
    return n + 1;
  if (n < length && (t[n] == '+' || t[n] == '-'))
    {
      guint oh, om;

      if (n + 6 > length || !two_digits (t + n + 1, &oh) || t[n + 3] != ':' ||
          !two_digits (t + n + 4, &om) || oh > 23 || om > 59)
        return 0;
      return n + 6;
    }

  return n;
}

/* The extent of a number, boolean or date at p: up to a character that
 * ends a value. */
static gsize
atom_end (Parser *self)
{
  gsize q = self->p;

  while (q < self->length)
    {
      char c = self->s[q];

      if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' ||
          c == '\n' || c == '\r' || c == '#')
        break;
      q++;
    }

  return q;
}

static JsonNode *
read_number (Parser *self)
{
  gsize start = self->p;
  gsize end = atom_end (self);
  const char *t = self->s + start;
  gsize length = end - start;
  const char *digits = t;
  gsize n = length;
  gboolean negative = FALSE;
  gboolean is_float;
  g_autofree char *plain = NULL;
  JsonNode *node;

  if (length == 0)
    {
      fail (self, start, _("expected a value"));
      return NULL;
    }

  if (length > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b'))
    {
      gboolean (*is_digit) (char) = t[1] == 'x' ? is_hex : t[1] == 'o' ? is_oct : is_bin;
      guint base = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
      guint64 value;
      char *rest;

      if (!digits_ok (t + 2, length - 2, is_digit))
        {
          fail (self, start, _("invalid number"));
          return NULL;
        }
      plain = without_underscores (t + 2, length - 2);
      errno = 0;
      value = g_ascii_strtoull (plain, &rest, base);
      if (errno != 0 || value > G_MAXINT64)
        {
          fail (self, start, _("the integer does not fit in 64 bits"));
          return NULL;
        }
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, (gint64) value);
      self->p = end;
      return node;
    }

  if (n > 0 && (digits[0] == '+' || digits[0] == '-'))
    {
      negative = digits[0] == '-';
      digits++;
      n--;
    }

  if (n == 3 && (memcmp (digits, "inf", 3) == 0 || memcmp (digits, "nan", 3) == 0))
    {
      fail (self, start, _("infinity and NaN cannot be represented in JSON"));
      return NULL;
    }

  is_float = memchr (digits, '.', n) != NULL || memchr (digits, 'e', n) != NULL ||
             memchr (digits, 'E', n) != NULL;

  if (!is_float)
    {
      gint64 value;
      char *rest;

      if (!digits_ok (digits, n, is_dec) || (digits[0] == '0' && n > 1))
        {
          fail (self, start, _("invalid number"));
          return NULL;
        }
      plain = without_underscores (t, length);
      errno = 0;
      value = g_ascii_strtoll (plain, &rest, 10);
      if (errno != 0)
        {
          fail (self, start, _("the integer does not fit in 64 bits"));
          return NULL;
        }
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, value);
      self->p = end;
      return node;
    }

  {
    /* int part, then .frac and/or e exp, each a run of digits */
    gsize i = 0;
    gsize int_end;
    double value;

    while (i < n && (is_dec (digits[i]) || digits[i] == '_'))
      i++;
    int_end = i;
    if (!digits_ok (digits, int_end, is_dec) || (digits[0] == '0' && int_end > 1))
      goto invalid;
    if (i < n && digits[i] == '.')
      {
        gsize frac = ++i;

        while (i < n && (is_dec (digits[i]) || digits[i] == '_'))
          i++;
        if (!digits_ok (digits + frac, i - frac, is_dec))
          goto invalid;
      }
    if (i < n && (digits[i] == 'e' || digits[i] == 'E'))
      {
        gsize exp = ++i;

        if (i < n && (digits[i] == '+' || digits[i] == '-'))
          exp = ++i;
        while (i < n && (is_dec (digits[i]) || digits[i] == '_'))
          i++;
        if (!digits_ok (digits + exp, i - exp, is_dec))
          goto invalid;
      }
    if (i != n)
      goto invalid;

    plain = without_underscores (digits, n);
    value = g_ascii_strtod (plain, NULL);
    if (!isfinite (value))
      {
        fail (self, start, _("the number is too large for JSON"));
        return NULL;
      }
    node = json_node_new (JSON_NODE_VALUE);
    json_node_set_double (node, negative ? -value : value);
    self->p = end;
    return node;
  }

invalid:
  fail (self, start, _("invalid number"));
  (void) negative;
  return NULL;
}

/* Values */

static gboolean read_inline_keyval (Parser *self, TomlTable *table, guint depth);

static JsonNode *read_value (Parser *self, guint depth);

static JsonNode *
read_array (Parser *self,
            guint   depth)
{
  g_autoptr(JsonArray) array = json_array_new ();
  JsonNode *node;

  self->p++;
  for (;;)
    {
      JsonNode *element;

      if (!skip_trivia (self))
        return NULL;
      if (at_end (self))
        {
          fail (self, self->p, _("expected ‘,’ or ‘]’ in the array"));
          return NULL;
        }
      if (self->s[self->p] == ']')
        break;
      element = read_value (self, depth + 1);
      if (element == NULL)
        return NULL;
      json_array_add_element (array, element);
      if (!skip_trivia (self))
        return NULL;
      if (peek (self, 0) == ',')
        {
          self->p++;
          continue;
        }
      if (peek (self, 0) == ']')
        break;
      fail (self, self->p, _("expected ‘,’ or ‘]’ in the array"));
      return NULL;
    }
  self->p++;

  node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, g_steal_pointer (&array));
  return node;
}

static JsonNode *
read_inline_table (Parser *self,
                   guint   depth)
{
  TomlTable *table = add_table (self, NULL, NULL, TOML_TABLE_INLINE, self->p);
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  /* the node holds the table's object from here on, whatever happens */
  json_node_take_object (node, table->object);
  table->depth = depth;
  table->open = self->p;
  self->p++;
  skip_blanks (self);
  if (peek (self, 0) == '}')
    {
      table->close = self->p++;
      return node;
    }
  if (peek (self, 0) == '\n' || peek (self, 0) == '\r')
    {
      fail (self, self->p, _("an inline table must be on a single line"));
      goto failed;
    }

  for (;;)
    {
      if (!read_inline_keyval (self, table, depth))
        goto failed;
      skip_blanks (self);
      if (peek (self, 0) == '}')
        break;
      if (peek (self, 0) == '\n' || peek (self, 0) == '\r' || peek (self, 0) == '#')
        {
          fail (self, self->p, _("an inline table must be on a single line"));
          goto failed;
        }
      if (peek (self, 0) != ',')
        {
          fail (self, self->p, _("expected ‘,’ or ‘}’ in the inline table"));
          goto failed;
        }
      self->p++;
      skip_blanks (self);
      if (peek (self, 0) == '}')
        {
          fail (self, self->p, _("a trailing comma is not allowed in an inline table"));
          goto failed;
        }
      if (peek (self, 0) == '\n' || peek (self, 0) == '\r')
        {
          fail (self, self->p, _("an inline table must be on a single line"));
          goto failed;
        }
    }
  table->close = self->p++;
  return node;

failed:
  json_node_unref (node);
  return NULL;
}

static JsonNode *
read_value (Parser *self,
            guint   depth)
{
  char c = peek (self, 0);

  if (depth > MCP_TOML_MAX_DEPTH)
    {
      fail (self, self->p, _("nested deeper than %d levels"), MCP_TOML_MAX_DEPTH);
      return NULL;
    }

  if (c == '"' || c == '\'')
    {
      char *string = read_string (self, TRUE);
      JsonNode *node;

      if (string == NULL)
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, string);
      g_free (string);
      return node;
    }
  if (c == '[')
    return read_array (self, depth);
  if (c == '{')
    return read_inline_table (self, depth);

  {
    gsize end = atom_end (self);
    gsize length = end - self->p;
    const char *t = self->s + self->p;
    gsize date;

    if ((length == 4 && memcmp (t, "true", 4) == 0) || (length == 5 && memcmp (t, "false", 5) == 0))
      {
        JsonNode *node = json_node_new (JSON_NODE_VALUE);

        json_node_set_boolean (node, length == 4);
        self->p = end;
        return node;
      }

    /* a date may hold a space: "1979-05-27 07:32:00" */
    date = datetime_length (t, self->length - self->p);
    if (date > 0 && (self->p + date == self->length || strchr (",]} \t\r\n#", t[date]) != NULL))
      {
        JsonNode *node = json_node_new (JSON_NODE_VALUE);

        g_autofree char *text = g_strndup (t, date);

        json_node_set_string (node, text);
        self->p += date;
        return node;
      }
    if (length >= 3 && ((is_dec (t[0]) && is_dec (t[1]) && t[2] == ':') ||
                        (length >= 5 && is_dec (t[0]) && is_dec (t[3]) && t[4] == '-')))
      {
        fail (self, self->p, _("invalid date or time"));
        return NULL;
      }

    if (length == 0)
      {
        if (c == '\0' || c == '\n' || c == '\r' || c == '#')
          fail (self, self->p, _("expected a value"));
        else if (c >= 0x20 && c < 0x7f)
          fail (self, self->p, _("expected a value, not ‘%c’"), c);
        else
          fail (self, self->p, _("expected a value"));
        return NULL;
      }
    if (is_dec (c) || c == '+' || c == '-' || c == 'i' || c == 'n')
      return read_number (self);

    fail (self, self->p, _("expected a value (a string needs quotes)"));
    return NULL;
  }
}

/* Key/value pairs */

/* Puts @value under @segments, from @table (the body or inline table the
 * pair is in), making the tables of a dotted key on the way; @value is
 * taken. */
static gboolean
place (Parser      *self,
       TomlTable   *body,
       TomlSegment *segments,
       guint        n,
       JsonNode    *value)
{
  TomlTable *table = body;

  for (guint i = 0; i + 1 < n; i++)
    {
      JsonNode *member = json_object_get_member (table->object, segments[i].name);
      TomlTable *next;

      segments[i].table = table->object;
      if (member == NULL)
        {
          next = add_table (self, table, segments[i].name, TOML_TABLE_DOTTED, segments[i].start);
          if (next == NULL)
            goto failed;
          next->owner = body;
        }
      else
        {
          g_autofree char *name = key_text (body, segments, i + 1);

          next = JSON_NODE_HOLDS_OBJECT (member)
                 ? mcp_toml_index_get_table (self->index, json_node_get_object (member)) : NULL;
          if (next == NULL)
            {
              fail (self, segments[i].start, _("‘%s’ is already a value, not a table"), name);
              goto failed;
            }
          if (!is_open_to (next, body))
            {
              fail (self, segments[i].start,
                    _("the table ‘%s’ is defined elsewhere and cannot be extended here"), name);
              goto failed;
            }
        }
      table = next;
    }

  segments[n - 1].table = table->object;
  if (json_object_has_member (table->object, segments[n - 1].name))
    {
      g_autofree char *name = key_text (body, segments, n);

      fail (self, segments[n - 1].start, _("the key ‘%s’ is defined twice"), name);
      goto failed;
    }
  if (JSON_NODE_HOLDS_OBJECT (value))
    {
      TomlTable *inline_table = mcp_toml_index_get_table (self->index, json_node_get_object (value));

      if (inline_table != NULL)
        {
          inline_table->parent = table;
          inline_table->name = g_strdup (segments[n - 1].name);
        }
    }
  json_object_set_member (table->object, segments[n - 1].name, value);
  return TRUE;

failed:
  json_node_unref (value);
  return FALSE;
}

/* key = value, up to the value's end; the key is recorded */
static TomlKey *
read_keyval (Parser      *self,
             TomlKeyKind  kind,
             TomlTable   *table,
             guint        depth)
{
  g_autoptr(GArray) segments = segments_new ();
  g_autoptr(TomlKey) key = NULL;
  gsize start = self->p;
  JsonNode *value;

  if (!read_key (self, segments))
    {
      for (guint i = 0; i < segments->len; i++)
        g_free (g_array_index (segments, TomlSegment, i).name);
      return NULL;
    }
  key = key_new (kind, g_steal_pointer (&segments));
  key->start = start;
  key->table = table;

  if (peek (self, 0) != '=')
    {
      fail (self, self->p, _("expected ‘=’ after the key"));
      return NULL;
    }
  self->p++;
  skip_blanks (self);
  key->value_start = self->p;
  value = read_value (self, depth + key->n_segments);
  if (value == NULL)
    return NULL;
  key->value_end = self->p;
  if (!place (self, table, key->segments, key->n_segments, value))
    return NULL;

  return g_steal_pointer (&key);
}

static gboolean
read_inline_keyval (Parser    *self,
                    TomlTable *table,
                    guint      depth)
{
  TomlKey *key = read_keyval (self, TOML_KEY_INLINE, table, depth);

  if (key == NULL)
    return FALSE;
  key->end = key->value_end;
  g_ptr_array_add (self->index->keys, key);
  g_ptr_array_add (table->members, key);

  return TRUE;
}

/* [a.b] and [[a.b]]: the table they open, or NULL */
static TomlTable *
read_header (Parser *self,
             gsize   line_start,
             gsize   comments)
{
  g_autoptr(GArray) segments = segments_new ();
  gboolean array = peek (self, 1) == '[';
  TomlTable *table;
  TomlKey *key;
  TomlSegment *segs;
  guint n;

  self->p += array ? 2 : 1;
  skip_blanks (self);
  if (!read_key (self, segments))
    {
      for (guint i = 0; i < segments->len; i++)
        g_free (g_array_index (segments, TomlSegment, i).name);
      return NULL;
    }
  key = key_new (array ? TOML_KEY_ARRAY_HEADER : TOML_KEY_HEADER, g_steal_pointer (&segments));
  key->start = line_start;
  key->comments = comments;
  g_ptr_array_add (self->index->keys, key);

  if (peek (self, 0) != ']' || (array && peek (self, 1) != ']'))
    {
      fail (self, self->p, array ? _("expected ‘]]’ after the table’s name")
                                 : _("expected ‘]’ after the table’s name"));
      return NULL;
    }
  self->p += array ? 2 : 1;

  segs = key->segments;
  n = key->n_segments;
  table = self->index->root;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *member = json_object_get_member (table->object, segs[i].name);
      gboolean last = i + 1 == n;
      g_autofree char *name = key_text (NULL, segs, i + 1);

      segs[i].table = table->object;

      if (member == NULL)
        {
          if (last && array)
            {
              JsonNode *node = json_node_new (JSON_NODE_ARRAY);
              TomlTable *element;
              JsonNode *element_node;

              json_node_take_array (node, json_array_new ());
              g_hash_table_add (self->index->table_arrays, json_node_get_array (node));
              json_object_set_member (table->object, segs[i].name, node);
              element = add_table (self, table, NULL, TOML_TABLE_ELEMENT, segs[i].start);
              if (element == NULL)
                return NULL;
              element->name = g_strdup (segs[i].name);
              element_node = json_node_new (JSON_NODE_OBJECT);
              json_node_take_object (element_node, element->object);
              json_array_add_element (json_node_get_array (node), element_node);
              table = element;
            }
          else
            {
              table = add_table (self, table, segs[i].name,
                                 last ? TOML_TABLE_HEADER : TOML_TABLE_IMPLICIT, segs[i].start);
              if (table == NULL)
                return NULL;
            }
          continue;
        }

      if (JSON_NODE_HOLDS_ARRAY (member) &&
          g_hash_table_contains (self->index->table_arrays, json_node_get_array (member)))
        {
          JsonArray *elements = json_node_get_array (member);

          if (last && array)
            {
              TomlTable *element = add_table (self, table, NULL, TOML_TABLE_ELEMENT, segs[i].start);
              JsonNode *element_node;

              if (element == NULL)
                return NULL;
              element->name = g_strdup (segs[i].name);
              element_node = json_node_new (JSON_NODE_OBJECT);
              json_node_take_object (element_node, element->object);
              json_array_add_element (elements, element_node);
              table = element;
              continue;
            }
          if (last)
            {
              fail (self, segs[i].start, _("‘%s’ is an array of tables, not a table"), name);
              return NULL;
            }
          /* [a.b] after [[a]]: b in a's last element */
          table = mcp_toml_index_get_table (self->index,
                                            json_array_get_object_element (elements,
                                                                           json_array_get_length (elements) - 1));
          continue;
        }

      {
        TomlTable *next = JSON_NODE_HOLDS_OBJECT (member)
                          ? mcp_toml_index_get_table (self->index, json_node_get_object (member)) : NULL;

        if (next == NULL)
          {
            fail (self, segs[i].start, _("‘%s’ is already a value, not a table"), name);
            return NULL;
          }
        if (is_closed (next))
          {
            fail (self, segs[i].start, _("the table ‘%s’ is an inline table and cannot be extended"), name);
            return NULL;
          }
        if (last && array)
          {
            fail (self, segs[i].start, _("‘%s’ is already a table, not an array of tables"), name);
            return NULL;
          }
        if (last && next->kind != TOML_TABLE_IMPLICIT)
          {
            fail (self, segs[i].start, _("the table ‘%s’ is defined twice"), name);
            return NULL;
          }
        if (last)
          next->kind = TOML_TABLE_HEADER;
        table = next;
      }
    }

  table->header = key;
  key->table = table;
  if (!expect_line_end (self))
    return NULL;
  key->end = self->p;

  return table;
}

/* The document */

static gboolean
read_document (Parser *self)
{
  TomlTable *body = self->index->root;
  TomlKey *last_header = NULL;
  gsize comments = MCP_TOML_NO_POS;

  while (!at_end (self))
    {
      gsize line_start = self->p;
      gboolean comment;
      int n;

      skip_blanks (self);
      comment = peek (self, 0) == '#';
      if (!skip_comment (self))
        return FALSE;

      if (at_end (self))
        break;
      n = newline_at (self, self->p);
      if (n < 0)
        return FALSE;
      if (n > 0)
        {
          /* comment lines stay with the header below them; a blank line
           * parts them */
          if (!comment)
            comments = MCP_TOML_NO_POS;
          else if (comments == MCP_TOML_NO_POS)
            comments = line_start;
          self->p += n;
          continue;
        }

      if (self->s[self->p] == '[')
        {
          gsize block_start = comments != MCP_TOML_NO_POS ? comments : line_start;

          if (last_header != NULL)
            last_header->block_end = block_start;
          else
            self->index->root_end = block_start;
          body = read_header (self, line_start, block_start);
          if (body == NULL)
            return FALSE;
          last_header = body->header;
        }
      else
        {
          TomlKey *key = read_keyval (self, TOML_KEY_LINE, body, body->depth);

          if (key == NULL)
            return FALSE;
          key->start = line_start;
          g_ptr_array_add (self->index->keys, key);
          if (!expect_line_end (self))
            return FALSE;
          key->end = self->p;
          body->last_line = key;
        }
      comments = MCP_TOML_NO_POS;
    }

  if (last_header != NULL)
    last_header->block_end = self->length;
  else
    self->index->root_end = self->length;

  return TRUE;
}

TomlIndex *
mcp_toml_index_parse (const char  *text,
                      gsize        length,
                      JsonNode   **root,
                      GError     **error)
{
  g_autoptr(TomlIndex) index = g_new0 (TomlIndex, 1);
  Parser parser = { text != NULL ? text : "", text != NULL ? length : 0, 0, index, 0, error };
  const char *invalid;
  const char *newline;

  *root = NULL;
  if (parser.length > MCP_TOML_MAX_LENGTH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The TOML text is larger than %d MiB"), MCP_TOML_MAX_LENGTH / (1024 * 1024));
      return NULL;
    }

  index->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) key_free);
  index->tables = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) table_free);
  index->table_arrays = g_hash_table_new (NULL, NULL);
  if (parser.length >= 3 && memcmp (parser.s, "\xef\xbb\xbf", 3) == 0)
    index->content_start = parser.p = 3;

  if (!g_utf8_validate_len (parser.s, parser.length, &invalid))
    {
      fail (&parser, invalid - parser.s, _("the text is not valid UTF-8"));
      return NULL;
    }
  newline = memchr (parser.s, '\n', parser.length);
  index->crlf = newline != NULL && newline > parser.s && newline[-1] == '\r';

  index->root = add_table (&parser, NULL, NULL, TOML_TABLE_ROOT, 0);
  *root = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (*root, index->root->object);

  if (!read_document (&parser))
    {
      g_clear_pointer (root, json_node_unref);
      return NULL;
    }

  return g_steal_pointer (&index);
}
