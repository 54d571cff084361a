/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-redact"

#include "config.h"

#include "mcp-redact.h"

#include <string.h>

/* The value part of a query or fragment: "a=1&b&c=2" → "a=***&b&c=***".
 * An element without "=" is a name and is kept. */
static void
append_masked_values (GString    *out,
                      const char *start,
                      const char *end)
{
  const char *p = start;

  while (p < end)
    {
      const char *amp = p;
      const char *eq;

      while (amp < end && *amp != '&' && *amp != ';')
        amp++;
      eq = memchr (p, '=', amp - p);
      if (eq != NULL)
        {
          g_string_append_len (out, p, eq + 1 - p);
          if (eq + 1 < amp)
            g_string_append (out, MCP_REDACTED);
        }
      else
        g_string_append_len (out, p, amp - p);
      if (amp < end)
        g_string_append_c (out, *amp++);
      p = amp;
    }
}

static void
append_redacted_url (GString    *out,
                     const char *url,
                     gsize       length)
{
  const char *end = url + length;
  const char *p = url;
  const char *scheme_end = g_strstr_len (url, length, "://");
  const char *query;
  const char *fragment;

  if (scheme_end != NULL)
    {
      const char *authority = scheme_end + 3;
      const char *authority_end = authority;
      const char *at = NULL;

      while (authority_end < end && strchr ("/?#", *authority_end) == NULL)
        {
          if (*authority_end == '@')
            at = authority_end;
          authority_end++;
        }
      g_string_append_len (out, url, authority - url);
      if (at != NULL)
        {
          g_string_append (out, MCP_REDACTED);
          p = at;
        }
      else
        p = authority;
    }

  fragment = memchr (p, '#', end - p);
  query = memchr (p, '?', (fragment != NULL ? fragment : end) - p);

  g_string_append_len (out, p, (query != NULL ? query : fragment != NULL ? fragment : end) - p);
  if (query != NULL)
    {
      g_string_append_c (out, '?');
      append_masked_values (out, query + 1, fragment != NULL ? fragment : end);
    }
  if (fragment != NULL)
    {
      g_string_append_c (out, '#');
      if (memchr (fragment + 1, '=', end - fragment - 1) != NULL)
        append_masked_values (out, fragment + 1, end);
      else
        g_string_append_len (out, fragment + 1, end - fragment - 1);
    }
}

char *
mcp_redact_url (const char *url)
{
  GString *out;

  if (url == NULL)
    return NULL;

  out = g_string_sized_new (strlen (url) + 8);
  append_redacted_url (out, url, strlen (url));
  return g_string_free (out, FALSE);
}

char *
mcp_redact_value (const char *value)
{
  if (value == NULL)
    return NULL;
  return g_strdup (*value == '\0' ? "" : MCP_REDACTED);
}

static int
compare_longest_first (gconstpointer a,
                       gconstpointer b)
{
  gsize la = strlen (*(const char * const *) a);
  gsize lb = strlen (*(const char * const *) b);

  return la < lb ? 1 : la > lb ? -1 : 0;
}

static gboolean
is_scheme_char (char c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '-' || c == '.';
}

/* Where a URL found in running text ends: at white space, a quote, an
 * angle bracket or a control character, and at the typographic quotes
 * messages put around it (“…”, ‘…’, «…»). */
static gboolean
ends_url (const char *p)
{
  static const char * const quotes[] = {
    "\u201c", "\u201d", "\u2018", "\u2019", "\u00ab", "\u00bb", "\u2039", "\u203a",
  };
  char c = *p;

  if ((guchar) c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == 0x7f)
    return TRUE;
  for (guint i = 0; (guchar) c >= 0x80 && i < G_N_ELEMENTS (quotes); i++)
    {
      if (g_str_has_prefix (p, quotes[i]))
        return TRUE;
    }
  return FALSE;
}

static void
append_redacted_credentials (GString    *out,
                             const char *text)
{
  static const char * const schemes[] = { "Bearer ", "Basic ", "DPoP " };
  const char *p = text;

  while (*p != '\0')
    {
      gboolean masked = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
        {
          gsize n = strlen (schemes[i]);

          if (g_ascii_strncasecmp (p, schemes[i], n) == 0 &&
              (p == text || !g_ascii_isalnum (p[-1])) &&
              p[n] != '\0' && (g_ascii_isalnum (p[n]) || strchr ("-._~+/", p[n]) != NULL) && strncmp (p + n, MCP_REDACTED, strlen (MCP_REDACTED)) != 0)
            {
              g_string_append_len (out, p, n);
              g_string_append (out, MCP_REDACTED);
              p += n;
              /* token68 (RFC 7235), or a JWT's dots */
              while (*p != '\0' && (g_ascii_isalnum (*p) || strchr ("-._~+/=", *p) != NULL))
                p++;
              masked = TRUE;
              break;
            }
        }
      if (!masked)
        g_string_append_c (out, *p++);
    }
}

char *
mcp_redact_text (const char         *text,
                 const char * const *secrets)
{
  g_autofree char *scrubbed = NULL;
  g_autoptr(GString) urls = NULL;
  GString *out;
  const char *p;

  if (text == NULL)
    return NULL;

  scrubbed = g_strdup (text);
  if (secrets != NULL && secrets[0] != NULL)
    {
      g_autofree const char **sorted = NULL;
      guint n = g_strv_length ((char **) secrets);

      sorted = g_memdup2 (secrets, sizeof (char *) * n);
      qsort (sorted, n, sizeof (char *), compare_longest_first);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GString) replaced = NULL;

          if (strlen (sorted[i]) < 3 || strstr (scrubbed, sorted[i]) == NULL)
            continue;
          replaced = g_string_new (scrubbed);
          g_string_replace (replaced, sorted[i], MCP_REDACTED, 0);
          g_free (scrubbed);
          scrubbed = g_string_free (g_steal_pointer (&replaced), FALSE);
        }
    }

  /* Every "scheme://…" in the text, through mcp_redact_url(). */
  urls = g_string_sized_new (strlen (scrubbed) + 8);
  p = scrubbed;
  while (*p != '\0')
    {
      const char *sep = strstr (p, "://");
      const char *start;
      const char *end;

      if (sep == NULL)
        {
          g_string_append (urls, p);
          break;
        }
      start = sep;
      while (start > p && is_scheme_char (start[-1]))
        start--;
      end = sep + 3;
      while (*end != '\0' && !ends_url (end))
        end++;
      g_string_append_len (urls, p, start - p);
      if (start == sep)
        g_string_append_len (urls, sep, end - sep);
      else
        append_redacted_url (urls, start, end - start);
      p = end;
    }

  out = g_string_sized_new (urls->len + 8);
  append_redacted_credentials (out, urls->str);
  return g_string_free (out, FALSE);
}

static gboolean
is_escaped_char (gunichar       c,
                 McpEscapeFlags flags)
{
  if ((flags & MCP_ESCAPE_KEEP_NEWLINES) != 0 && (c == '\n' || c == '\t'))
    return FALSE;
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
         c == 0x2028 || c == 0x2029;
}

gboolean
mcp_needs_escape (const char     *text,
                  McpEscapeFlags  flags)
{
  const char *p = text;
  const char *end;

  if (text == NULL)
    return FALSE;
  end = text + strlen (text);
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2 || is_escaped_char (c, flags))
        return TRUE;
      p = g_utf8_next_char (p);
    }
  return FALSE;
}

char *
mcp_escape_controls (const char     *text,
                     McpEscapeFlags  flags)
{
  const char *p = text;
  const char *end;
  GString *out;

  if (text == NULL)
    return NULL;
  if (!mcp_needs_escape (text, flags))
    return g_strdup (text);

  end = text + strlen (text);
  out = g_string_sized_new (end - text + 16);
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      if (is_escaped_char (c, flags))
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

/* Registered secrets */

static GMutex registry_lock;
static GHashTable *registry;   /* secret → itself */

void
mcp_redact_register_secrets (const char * const *secrets)
{
  if (secrets == NULL)
    return;

  g_mutex_lock (&registry_lock);
  if (registry == NULL)
    registry = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; secrets[i] != NULL; i++)
    {
      if (strlen (secrets[i]) >= 3 && !g_hash_table_contains (registry, secrets[i]))
        g_hash_table_add (registry, g_strdup (secrets[i]));
    }
  g_mutex_unlock (&registry_lock);
}

char **
mcp_redact_dup_secrets (void)
{
  char **secrets;

  g_mutex_lock (&registry_lock);
  if (registry != NULL)
    {
      guint n = 0;
      const char **keys = (const char **) g_hash_table_get_keys_as_array (registry, &n);

      secrets = g_new0 (char *, n + 1);
      for (guint i = 0; i < n; i++)
        secrets[i] = g_strdup (keys[i]);
      g_free (keys);
    }
  else
    secrets = g_new0 (char *, 1);
  g_mutex_unlock (&registry_lock);

  return secrets;
}

GLogWriterOutput
mcp_redact_log_writer (GLogLevelFlags   log_level,
                       const GLogField *fields,
                       gsize            n_fields,
                       gpointer         user_data)
{
  g_autofree GLogField *copy = g_memdup2 (fields, sizeof (GLogField) * n_fields);
  g_auto(GStrv) secrets = mcp_redact_dup_secrets ();
  g_autofree char *redacted = NULL;
  g_autofree char *shown = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      g_autofree char *message = NULL;

      if (g_strcmp0 (copy[i].key, "MESSAGE") != 0 || copy[i].value == NULL)
        continue;
      message = copy[i].length < 0 ? g_strdup (copy[i].value)
                                   : g_strndup (copy[i].value, copy[i].length);
      redacted = mcp_redact_text (message, (const char * const *) secrets);
      shown = mcp_escape_controls (redacted, MCP_ESCAPE_KEEP_NEWLINES);
      copy[i].value = shown;
      copy[i].length = -1;
      break;
    }

  return g_log_writer_default (log_level, copy, n_fields, user_data);
}
