/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-trace"

#include "config.h"

#include "mcp-trace.h"
#include "mcp-trace-private.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-redact.h"

/* What the trace masks before it keeps anything (mcp-trace.h). Names are
 * matched without regard to case; a header or field is secret by its name
 * (whatever its value), a server's own secrets by their value (wherever
 * they appear). */

static gboolean
name_has (const char *name,
          const char *part)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return strstr (lower, part) != NULL;
}

gboolean
mcp_trace_header_is_secret (const char *name)
{
  static const char * const exact[] = {
    "authorization", "proxy-authorization", "cookie", "set-cookie", "dpop",
  };

  for (guint i = 0; i < G_N_ELEMENTS (exact); i++)
    if (g_ascii_strcasecmp (name, exact[i]) == 0)
      return TRUE;
  /* X-Api-Key, X-Auth-Token, Private-Token, X-Client-Secret … */
  return name_has (name, "key") || name_has (name, "token") || name_has (name, "secret") ||
         name_has (name, "auth") || name_has (name, "password");
}

/* Fields of OAuth requests and responses, and the usual names of keys;
 * @lower is the name in lower case. */
static gboolean
lower_field_is_secret (const char *lower,
                       gsize       length,
                       gboolean    form)
{
  static const char * const exact[] = {
    "code_verifier", "assertion", "client_assertion", "subject_token", "actor_token",
    "password", "api_key", "apikey", "authorization", "private_key", "privatekey",
  };

  if (length >= 5 && memcmp (lower + length - 5, "token", 5) == 0)
    return TRUE;
  if (length >= 6 && g_strstr_len (lower, length, "secret") != NULL)
    return TRUE;
  /* "code" is the authorization code in a form or a redirect; in JSON it
   * is an error code, or a program. */
  if (form && length == 4 && memcmp (lower, "code", 4) == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (exact); i++)
    if (strlen (exact[i]) == length && memcmp (lower, exact[i], length) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
field_is_secret (const char *name,
                 gboolean    form)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return lower_field_is_secret (lower, strlen (lower), form);
}

gboolean
mcp_trace_param_is_secret (const char *name)
{
  return field_is_secret (name, TRUE);
}

/* "a=1&code=xyz" with the values of secret names masked. */
static void
append_masked_form (GString    *out,
                    const char *start,
                    const char *end)
{
  const char *p = start;

  while (p < end)
    {
      const char *amp = memchr (p, '&', end - p);
      const char *eq;

      if (amp == NULL)
        amp = end;
      eq = memchr (p, '=', amp - p);
      if (eq != NULL)
        {
          g_autofree char *raw = g_strndup (p, eq - p);
          g_autofree char *name = g_uri_unescape_string (raw, NULL);

          g_string_append_len (out, p, eq + 1 - p);
          if (eq + 1 < amp && (name == NULL || mcp_trace_param_is_secret (name)))
            g_string_append (out, MCP_REDACTED);
          else
            g_string_append_len (out, eq + 1, amp - (eq + 1));
        }
      else
        g_string_append_len (out, p, amp - p);
      if (amp < end)
        g_string_append_c (out, '&');
      p = amp + 1;
    }
}

char *
mcp_trace_mask_url (const char *url)
{
  GString *out;
  const char *scheme_end;
  const char *p;
  const char *query;
  const char *fragment;
  const char *end;

  if (url == NULL)
    return NULL;

  out = g_string_new (NULL);
  end = url + strlen (url);
  p = url;
  scheme_end = strstr (url, "://");
  if (scheme_end != NULL)
    {
      const char *authority = scheme_end + 3;
      const char *authority_end = authority + strcspn (authority, "/?#");
      const char *at = NULL;

      for (const char *q = authority; q < authority_end; q++)
        if (*q == '@')
          at = q;
      g_string_append_len (out, url, authority - url);
      if (at != NULL)
        {
          g_string_append (out, MCP_REDACTED);
          p = at;
        }
      else
        p = authority;
    }
  fragment = strchr (p, '#');
  query = memchr (p, '?', (fragment != NULL ? fragment : end) - p);
  g_string_append_len (out, p, (query != NULL ? query : fragment != NULL ? fragment : end) - p);
  if (query != NULL)
    {
      g_string_append_c (out, '?');
      append_masked_form (out, query + 1, fragment != NULL ? fragment : end);
    }
  if (fragment != NULL)
    {
      g_string_append_c (out, '#');
      append_masked_form (out, fragment + 1, end);
    }
  return g_string_free (out, FALSE);
}

/* Masks the string values of secret members, at any depth; TRUE when it
 * changed something. */
static gboolean
mask_node (JsonNode *node,
           guint     depth)
{
  gboolean changed = FALSE;

  if (node == NULL || depth > MCP_JSON_MAX_DEPTH)
    return FALSE;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &name, &member))
        {
          if (JSON_NODE_HOLDS_VALUE (member) && json_node_get_value_type (member) == G_TYPE_STRING &&
              field_is_secret (name, FALSE) && *json_node_get_string (member) != '\0')
            {
              json_node_set_string (member, MCP_REDACTED);
              changed = TRUE;
            }
          else
            changed |= mask_node (member, depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        changed |= mask_node (json_array_get_element (array, i), depth + 1);
    }
  return changed;
}

/* field_is_secret() on a name that is not NUL-terminated, without
 * allocating: the quick look runs on every message. */
static gboolean
key_is_secret (const char *key,
               gsize       length)
{
  char lower[64];

  if (length == 0 || length >= sizeof lower)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    lower[i] = g_ascii_tolower (key[i]);
  return lower_field_is_secret (lower, length, FALSE);
}

/* A quick look for a member name that may be secret, before parsing: most
 * messages have none, and then cost one scan for the colons. */
static gboolean
may_hold_secret_field (const char *text,
                       gsize       length)
{
  const char *end = text + length;

  for (const char *colon = memchr (text, ':', length); colon != NULL;
       colon = memchr (colon + 1, ':', end - colon - 1))
    {
      const char *close = colon - 1;
      const char *open;

      while (close > text && (*close == ' ' || *close == '\t'))
        close--;
      if (close <= text || *close != '"')
        continue;
      /* A name is short: look back a little way for its opening quote. */
      for (open = close - 1; open >= text && close - open < 64 && *open != '"'; open--)
        ;
      if (open >= text && *open == '"' && key_is_secret (open + 1, close - open - 1))
        return TRUE;
      if (colon + 1 >= end)
        break;
    }
  return FALSE;
}

/* Each of @secrets (3 bytes or more) in @text replaced, longest first as
 * mcp_redact_text() does, but nothing else touched. TRUE when it changed. */
static gboolean
mask_values (GString            *text,
             const char * const *secrets)
{
  gboolean changed = FALSE;

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    {
      if (strlen (secrets[i]) < 3 || strstr (text->str, secrets[i]) == NULL)
        continue;
      g_string_replace (text, secrets[i], MCP_REDACTED, 0);
      changed = TRUE;
    }
  return changed;
}

static gboolean
is_form (const char *content_type)
{
  return content_type != NULL &&
         g_ascii_strncasecmp (content_type, "application/x-www-form-urlencoded",
                              strlen ("application/x-www-form-urlencoded")) == 0;
}

/* JSON that does not parse (cut, or not quite JSON): the string after
 * each secret member's name masked by hand. */
static GString *
mask_fields_by_hand (const char *text,
                     gsize       length)
{
  GString *out = g_string_new_len (text, length);

  for (const char *p = out->str; (p = strchr (p, '"')) != NULL;)
    {
      const char *name_end = strchr (p + 1, '"');
      g_autofree char *name = NULL;
      const char *v;

      if (name_end == NULL)
        break;
      name = g_strndup (p + 1, name_end - p - 1);
      v = name_end + 1;
      while (*v == ' ' || *v == ':' || *v == '\t')
        v++;
      if (v > name_end + 1 && *v == '"' && field_is_secret (name, FALSE))
        {
          const char *close = v + 1;
          gsize at = v + 1 - out->str;

          while (*close != '\0' && *close != '"')
            close += *close == '\\' && close[1] != '\0' ? 2 : 1;
          g_string_erase (out, at, close - (v + 1));
          g_string_insert (out, at, MCP_REDACTED);
          /* Past the closing quote, when the string had one. */
          p = out->str + at + strlen (MCP_REDACTED);
          if (*p == '"')
            p++;
        }
      else
        p = name_end + 1;
    }
  return out;
}

/* The text after masking; *value_masked says whether a secret's value was
 * replaced (which may leave JSON that no longer parses, a secret in a
 * number). */
static char *
mask_body_full (const char         *text,
                gsize               length,
                const char         *content_type,
                const char * const *secrets,
                gsize               max,
                gboolean           *truncated,
                gboolean           *value_masked)
{
  g_autofree char *valid = NULL;
  GString *out = NULL;
  gsize kept = MIN (length, max);

  *truncated = kept < length;
  if (*truncated)
    {
      /* Cut on a character boundary. */
      const char *end = text + kept;

      while (end > text && (((guchar) *end) & 0xC0) == 0x80)
        end--;
      kept = end - text;
    }

  /* Text first (a nul or bytes that are not UTF-8 shown as U+FFFD), so
   * that a secret after a nul is found like any other. */
  if (!g_utf8_validate_len (text, kept, NULL))
    {
      valid = g_utf8_make_valid (text, kept);
      text = valid;
      kept = strlen (valid);
    }

  if (is_form (content_type))
    {
      out = g_string_sized_new (kept + 16);
      append_masked_form (out, text, text + kept);
    }
  else if (may_hold_secret_field (text, kept))
    {
      g_autoptr(JsonNode) node = *truncated ? NULL : mcp_json_parse (text, kept, NULL);

      if (node != NULL)
        {
          if (mask_node (node, 0))
            {
              out = g_string_sized_new (kept);
              mcp_json_append (out, node);
            }
        }
      else
        out = mask_fields_by_hand (text, kept);
    }

  if (out == NULL)
    out = g_string_new_len (text, kept);
  *value_masked = mask_values (out, secrets);
  return g_string_free (out, FALSE);
}

char *
mcp_trace_mask_body (const char         *text,
                     gsize               length,
                     const char         *content_type,
                     const char * const *secrets,
                     gsize               max,
                     gboolean           *truncated)
{
  gboolean value_masked;
  gboolean cut;
  char *masked = mask_body_full (text, length, content_type, secrets, max, &cut, &value_masked);

  if (truncated != NULL)
    *truncated = cut;
  return masked;
}

/* For a message's text: also says whether it is still the JSON. */
char *
mcp_trace_mask_message_text (const char         *text,
                             gsize               length,
                             const char * const *secrets,
                             gboolean           *truncated,
                             gboolean           *text_is_json)
{
  gboolean value_masked;
  char *masked = mask_body_full (text, length, NULL, secrets, MCP_TRACE_MAX_TEXT_BYTES,
                                 truncated, &value_masked);

  /* Newlines are whitespace between JSON tokens (inside strings they are
   * escaped): a record stays on one line of a JSON Lines file. */
  for (char *p = masked; (p = strpbrk (p, "\r\n")) != NULL; p++)
    *p = ' ';
  *text_is_json = !*truncated && !value_masked;
  return masked;
}

char **
mcp_trace_mask_headers (SoupMessageHeaders *headers,
                        const char * const *secrets)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;

  if (headers == NULL)
    return NULL;

  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    {
      g_autoptr(GString) masked = NULL;

      g_strv_builder_add (builder, name);
      if (mcp_trace_header_is_secret (name))
        {
          /* "Bearer ***": the scheme is not secret, and says what was sent. */
          const char *space = strchr (value, ' ');

          if (space != NULL && space - value < 16 &&
              (g_ascii_strcasecmp (name, "authorization") == 0 ||
               g_ascii_strcasecmp (name, "proxy-authorization") == 0))
            {
              g_autofree char *scheme = g_strndup (value, space - value);

              g_autofree char *shown = g_strdup_printf ("%s " MCP_REDACTED, scheme);

              g_strv_builder_add (builder, shown);
            }
          else
            g_strv_builder_add (builder, *value != '\0' ? MCP_REDACTED : "");
          continue;
        }
      masked = g_string_new (value);
      mask_values (masked, secrets);
      g_strv_builder_add (builder, masked->str);
    }
  return g_strv_builder_end (builder);
}

char *
mcp_trace_mask_text (McpTrace   *self,
                     const char *text,
                     gssize      length)
{
  g_autofree char *body = NULL;
  gboolean truncated;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);

  if (text == NULL)
    return NULL;
  if (length < 0)
    length = strlen (text);
  body = mcp_trace_mask_body (text, length, NULL, mcp_trace_get_secrets (self),
                              G_MAXSIZE, &truncated);
  /* Plain text: Authorization values and URLs in it too. */
  return mcp_redact_text (body, NULL);
}
