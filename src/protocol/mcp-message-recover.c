/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-message.h"

#include <string.h>

/* The id of a message that does not parse: a small scanner over the
 * members of the top-level object, up to the first thing it does not
 * understand, within RECOVER_LIMIT bytes. It needs none of the rest to be
 * right, so an answer that is broken after its "id" can still fail its
 * request at once instead of leaving it waiting. */

#define RECOVER_LIMIT 4096
#define RECOVER_DEPTH 64

typedef struct
{
  const char *p;
  const char *end;
} Scan;

static void
skip_space (Scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
    s->p++;
}

/* At a quote: moves past the closing quote. Sets *@plain when the string
 * had no escape. */
static gboolean
skip_string (Scan     *s,
             gboolean *plain)
{
  *plain = TRUE;
  for (s->p++; s->p < s->end; s->p++)
    {
      guchar c = (guchar) *s->p;

      if (c == '"')
        {
          s->p++;
          return TRUE;
        }
      if (c < 0x20)
        return FALSE;
      if (c == '\\')
        {
          *plain = FALSE;
          if (++s->p == s->end)
            return FALSE;
        }
    }

  return FALSE;
}

/* Any value, with its brackets balanced and its strings closed. */
static gboolean
skip_value (Scan *s)
{
  guint depth = 0;

  do
    {
      gboolean plain;

      skip_space (s);
      if (s->p == s->end)
        return FALSE;
      switch (*s->p)
        {
        case '"':
          if (!skip_string (s, &plain))
            return FALSE;
          break;
        case '{':
        case '[':
          if (++depth > RECOVER_DEPTH)
            return FALSE;
          s->p++;
          break;
        case '}':
        case ']':
          if (depth == 0)
            return FALSE;
          depth--;
          s->p++;
          break;
        default:
          s->p++;
          break;
        }
    }
  while (depth > 0);

  return TRUE;
}

static JsonNode *
read_id (Scan *s)
{
  const char *start = s->p;

  if (s->p < s->end && *s->p == '"')
    {
      gboolean plain;
      g_autofree char *text = NULL;

      if (!skip_string (s, &plain) || !plain)
        return NULL;
      text = g_strndup (start + 1, (gsize) (s->p - start - 2));
      if (!g_utf8_validate (text, -1, NULL))
        return NULL;
      return json_node_init_string (json_node_alloc (), text);
    }

  if (s->p < s->end && *s->p == '-')
    s->p++;
  if (s->p == s->end || !g_ascii_isdigit (*s->p))
    return NULL;
  while (s->p < s->end && g_ascii_isdigit (*s->p))
    s->p++;
  if (s->p - start > 19)
    return NULL;
  /* A fraction or an exponent is no id (and no integer to match). */
  if (s->p < s->end && (*s->p == '.' || *s->p == 'e' || *s->p == 'E'))
    return NULL;

  {
    g_autofree char *digits = g_strndup (start, (gsize) (s->p - start));
    gint64 value;

    if (!g_ascii_string_to_signed (digits, 10, G_MININT64, G_MAXINT64, &value, NULL))
      return NULL;
    return json_node_init_int (json_node_alloc (), value);
  }
}

JsonNode *
mcp_message_recover_id (const char *data,
                        gsize       length)
{
  g_autoptr(JsonNode) id = NULL;
  Scan s;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  s.p = data;
  s.end = data + MIN (length, RECOVER_LIMIT);

  skip_space (&s);
  if (s.p == s.end || *s.p != '{')
    return NULL;
  s.p++;

  for (;;)
    {
      const char *key;
      gsize key_len;
      gboolean plain;

      skip_space (&s);
      if (s.p == s.end || *s.p != '"')
        break;
      key = s.p + 1;
      if (!skip_string (&s, &plain))
        break;
      key_len = (gsize) (s.p - key - 1);
      skip_space (&s);
      if (s.p == s.end || *s.p != ':')
        break;
      s.p++;
      skip_space (&s);

      if (plain && key_len == 6 && memcmp (key, "method", 6) == 0)
        /* A request or a notification from the server: no answer of ours. */
        return NULL;

      if (plain && key_len == 2 && memcmp (key, "id", 2) == 0)
        {
          g_clear_pointer (&id, json_node_unref);
          id = read_id (&s);
          if (id == NULL)
            return NULL;
        }
      else if (!skip_value (&s))
        break;

      skip_space (&s);
      if (s.p == s.end || *s.p != ',')
        break;
      s.p++;
    }

  return g_steal_pointer (&id);
}
