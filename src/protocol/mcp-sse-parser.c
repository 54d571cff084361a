/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-parser"

#include "config.h"

#include "mcp-sse-parser.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

#define MIB (1024 * 1024)

/* The HTML standard, "9.2.6 Interpreting an event stream". The names of the
 * fields below are the standard's buffers. */
struct _McpSseParser
{
  GObject   parent_instance;

  /* Owned references */
  GString  *line;              /* an unfinished line, when a chunk ends inside one */
  GString  *data;              /* the data buffer */
  GString  *event_type;        /* the event type buffer */
  char     *last_event_id_buf; /* the last event ID buffer; NULL when empty */
  char     *last_event_id;     /* the last event ID string; NULL when empty */

  gsize     max_buffer;
  gint64    retry;
  guint     generation;        /* bumped by reset and finish, to stop a feed */
  guint     bom_matched;       /* bytes of a leading BOM seen so far */
  guint     bom_done : 1;      /* past the point where a BOM may appear */
  guint     after_cr : 1;      /* the last line ended in CR: a next LF belongs to it */
  guint     in_comment : 1;    /* skipping the rest of a comment line */
  guint     failed : 1;
};

G_DEFINE_FINAL_TYPE (McpSseParser, mcp_sse_parser, G_TYPE_OBJECT)

static const guchar bom[] = { 0xef, 0xbb, 0xbf };

static void
mcp_sse_parser_finalize (GObject *object)
{
  McpSseParser *self = MCP_SSE_PARSER (object);

  g_string_free (self->line, TRUE);
  g_string_free (self->data, TRUE);
  g_string_free (self->event_type, TRUE);
  g_free (self->last_event_id_buf);
  g_free (self->last_event_id);

  G_OBJECT_CLASS (mcp_sse_parser_parent_class)->finalize (object);
}

static void
mcp_sse_parser_class_init (McpSseParserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_sse_parser_finalize;
}

static void
mcp_sse_parser_init (McpSseParser *self)
{
  self->line = g_string_new (NULL);
  self->data = g_string_new (NULL);
  self->event_type = g_string_new (NULL);
  self->max_buffer = MCP_SSE_PARSER_DEFAULT_MAX_BUFFER;
  self->retry = -1;
}

/**
 * mcp_sse_parser_new:
 * @max_buffer: the most bytes the parser may hold; 0 for
 *   %MCP_SSE_PARSER_DEFAULT_MAX_BUFFER
 */
McpSseParser *
mcp_sse_parser_new (gsize max_buffer)
{
  McpSseParser *self = g_object_new (MCP_TYPE_SSE_PARSER, NULL);

  if (max_buffer > 0)
    self->max_buffer = max_buffer;

  return self;
}

/* The stream is decoded as UTF-8 with replacement characters; a NUL, which
 * a C string cannot carry, is replaced as well. */
static char *
make_valid (const char *str,
            gsize       len)
{
  if (g_utf8_validate (str, len, NULL))
    return g_strndup (str, len);
  return g_utf8_make_valid (str, len);
}

static void
set_error_too_large (McpSseParser  *self,
                     GError       **error)
{
  self->failed = TRUE;

  if (self->max_buffer % MIB == 0)
    g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                 /* Translators: %lu is a size in mebibytes */
                 _("An event stream event is larger than %lu MiB"),
                 (unsigned long) (self->max_buffer / MIB));
  else
    g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                 g_dngettext (NULL,
                              "An event stream event is larger than %lu byte",
                              "An event stream event is larger than %lu bytes",
                              self->max_buffer),
                 (unsigned long) self->max_buffer);
}

static void
dispatch (McpSseParser    *self,
          McpSseEventFunc  func,
          gpointer         user_data)
{
  g_autofree char *data = NULL;
  g_autofree char *type = NULL;

  if (g_strcmp0 (self->last_event_id, self->last_event_id_buf) != 0)
    {
      g_free (self->last_event_id);
      self->last_event_id = g_strdup (self->last_event_id_buf);
    }

  if (self->data->len == 0)
    {
      g_string_truncate (self->event_type, 0);
      return;
    }

  if (self->data->str[self->data->len - 1] == '\n')
    g_string_truncate (self->data, self->data->len - 1);

  /* The buffer is handed over rather than copied: events can be big. */
  if (g_utf8_validate (self->data->str, self->data->len, NULL))
    data = g_string_free (self->data, FALSE);
  else
    {
      data = g_utf8_make_valid (self->data->str, self->data->len);
      g_string_free (self->data, TRUE);
    }
  self->data = g_string_new (NULL);

  if (self->event_type->len > 0)
    type = make_valid (self->event_type->str, self->event_type->len);
  g_string_truncate (self->event_type, 0);

  if (func != NULL)
    func (type != NULL ? type : "message", data, self->last_event_id, user_data);
}

static gboolean
field_is (const char *field,
          gsize       field_len,
          const char *name)
{
  gsize name_len = strlen (name);

  return field_len == name_len && memcmp (field, name, name_len) == 0;
}

/* One whole line, without its line end. TRUE for an empty line, which
 * dispatches (an event, or nothing when there is no data). */
static gboolean
process_line (McpSseParser    *self,
              const char      *line,
              gsize            len,
              McpSseEventFunc  func,
              gpointer         user_data)
{
  const char *colon;
  const char *value;
  gsize field_len;
  gsize value_len;

  if (len == 0)
    {
      dispatch (self, func, user_data);
      return TRUE;
    }

  if (line[0] == ':')
    return FALSE;

  colon = memchr (line, ':', len);
  if (colon != NULL)
    {
      field_len = colon - line;
      value = colon + 1;
      value_len = len - field_len - 1;
      if (value_len > 0 && value[0] == ' ')
        {
          value++;
          value_len--;
        }
    }
  else
    {
      field_len = len;
      value = "";
      value_len = 0;
    }

  if (field_is (line, field_len, "data"))
    {
      g_string_append_len (self->data, value, value_len);
      g_string_append_c (self->data, '\n');
    }
  else if (field_is (line, field_len, "event"))
    {
      g_string_truncate (self->event_type, 0);
      g_string_append_len (self->event_type, value, value_len);
    }
  else if (field_is (line, field_len, "id"))
    {
      if (memchr (value, '\0', value_len) == NULL)
        {
          g_free (self->last_event_id_buf);
          self->last_event_id_buf = value_len > 0 ? make_valid (value, value_len) : NULL;
        }
    }
  else if (field_is (line, field_len, "retry"))
    {
      gint64 retry = 0;
      gsize i;

      for (i = 0; i < value_len && g_ascii_isdigit (value[i]); i++)
        {
          int digit = value[i] - '0';

          if (retry > (G_MAXINT64 - digit) / 10)
            retry = G_MAXINT64;
          else
            retry = retry * 10 + digit;
        }

      if (value_len > 0 && i == value_len)
        self->retry = retry;
    }

  return FALSE;
}

/* Skips a leading BOM, which may come split across chunks. Returns how many
 * bytes of @data it consumed. */
static gsize
skip_bom (McpSseParser *self,
          const char   *data,
          gsize         length)
{
  gsize i = 0;

  while (!self->bom_done && i < length)
    {
      if ((guchar) data[i] == bom[self->bom_matched])
        {
          self->bom_matched++;
          i++;
          if (self->bom_matched == sizeof bom)
            self->bom_done = TRUE;
        }
      else
        {
          /* Not a BOM after all: the bytes taken for one start the first line. */
          g_string_append_len (self->line, (const char *) bom, self->bom_matched);
          self->bom_done = TRUE;
        }
    }

  return i;
}

static void
drop_buffers (McpSseParser *self)
{
  self->generation++;
  g_string_truncate (self->line, 0);
  g_string_truncate (self->data, 0);
  g_string_truncate (self->event_type, 0);
  if (self->line->allocated_len > 64 * 1024)
    {
      g_string_free (self->line, TRUE);
      self->line = g_string_new (NULL);
    }
  if (self->data->allocated_len > 64 * 1024)
    {
      g_string_free (self->data, TRUE);
      self->data = g_string_new (NULL);
    }
  g_free (self->last_event_id_buf);
  self->last_event_id_buf = g_strdup (self->last_event_id);
  self->bom_matched = 0;
  self->bom_done = FALSE;
  self->after_cr = FALSE;
  self->in_comment = FALSE;
}

static gboolean
feed (McpSseParser     *self,
      const char       *data,
      gsize             length,
      McpSseEventFunc   func,
      gpointer          user_data,
      GError          **error)
{
  const char *p = data;
  const char *end = data + length;
  const char *next_lf;
  const char *next_cr;
  guint generation = self->generation;

  if (self->failed)
    {
      set_error_too_large (self, error);
      return FALSE;
    }

  if (length == 0)
    return TRUE;

  p += skip_bom (self, data, length);
  next_lf = memchr (p, '\n', end - p);
  next_cr = memchr (p, '\r', end - p);
  if (next_lf == NULL)
    next_lf = end;
  if (next_cr == NULL)
    next_cr = end;

  while (p < end)
    {
      const char *eol;
      gsize piece;

      if (self->after_cr)
        {
          self->after_cr = FALSE;
          if (*p == '\n')
            {
              p++;
              continue;
            }
        }

      /* Both searches run ahead once per line end of their own kind, so a
       * chunk costs O(length) however its line ends are mixed. */
      if (next_lf < p)
        {
          next_lf = memchr (p, '\n', end - p);
          if (next_lf == NULL)
            next_lf = end;
        }
      if (next_cr < p)
        {
          next_cr = memchr (p, '\r', end - p);
          if (next_cr == NULL)
            next_cr = end;
        }
      eol = MIN (next_lf, next_cr);
      piece = eol - p;

      if (eol == end)
        {
          /* The line goes on in the next chunk. */
          if (self->in_comment)
            break;
          if (self->line->len == 0 && *p == ':')
            {
              self->in_comment = TRUE;
              break;
            }
          if (self->line->len + piece + self->data->len > self->max_buffer)
            {
              set_error_too_large (self, error);
              return FALSE;
            }
          g_string_append_len (self->line, p, piece);
          break;
        }

      self->after_cr = (*eol == '\r');

      if (self->in_comment)
        {
          self->in_comment = FALSE;
        }
      else if (self->line->len > 0)
        {
          if (self->line->len + piece + self->data->len > self->max_buffer)
            {
              set_error_too_large (self, error);
              return FALSE;
            }
          g_string_append_len (self->line, p, piece);
          process_line (self, self->line->str, self->line->len, func, user_data);
          g_string_truncate (self->line, 0);
          if (self->line->allocated_len > 64 * 1024)
            {
              g_string_free (self->line, TRUE);
              self->line = g_string_new (NULL);
            }
        }
      else if (piece > 0 && *p == ':')
        {
          /* A comment: nothing to keep, so no limit to apply. */
        }
      else
        {
          if (piece + self->data->len > self->max_buffer)
            {
              set_error_too_large (self, error);
              return FALSE;
            }
          if (process_line (self, p, piece, func, user_data) &&
              self->generation != generation)
            return TRUE;
        }

      p = eol + 1;
    }

  return TRUE;
}

gboolean
mcp_sse_parser_feed (McpSseParser     *self,
                     const char       *data,
                     gsize             length,
                     McpSseEventFunc   func,
                     gpointer          user_data,
                     GError          **error)
{
  g_autoptr(McpSseParser) hold = NULL;

  g_return_val_if_fail (MCP_IS_SSE_PARSER (self), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The callback may drop the last reference, or reset the parser for a
   * new stream; then the rest of this chunk is dropped. */
  hold = g_object_ref (self);

  return feed (self, data, length, func, user_data, error);
}

void
mcp_sse_parser_finish (McpSseParser *self)
{
  g_return_if_fail (MCP_IS_SSE_PARSER (self));

  drop_buffers (self);
}

void
mcp_sse_parser_reset (McpSseParser *self)
{
  g_return_if_fail (MCP_IS_SSE_PARSER (self));

  drop_buffers (self);
  self->failed = FALSE;
}

const char *
mcp_sse_parser_get_last_event_id (McpSseParser *self)
{
  g_return_val_if_fail (MCP_IS_SSE_PARSER (self), NULL);

  return self->last_event_id;
}

gint64
mcp_sse_parser_get_retry (McpSseParser *self)
{
  g_return_val_if_fail (MCP_IS_SSE_PARSER (self), -1);

  return self->retry;
}
