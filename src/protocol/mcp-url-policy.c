/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-url-policy"

#include "config.h"

#include "mcp-url-policy.h"

#include <string.h>

#include <glib/gi18n.h>

G_DEFINE_QUARK (mcp-url-policy-error-quark, mcp_url_policy_error)

#define QUOTE_MAX_CHARS 200

/* A dotted-quad part as a browser reads it would differ from ours when it
 * has a leading zero (octal) or is not decimal: such a host is not taken
 * for loopback. */
static gboolean
parse_ipv4_part (const char *start,
                 gsize       len,
                 guint      *value)
{
  guint v = 0;

  if (len == 0 || len > 3 || (len > 1 && start[0] == '0'))
    return FALSE;

  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isdigit (start[i]))
        return FALSE;
      v = v * 10 + (guint) (start[i] - '0');
    }
  if (v > 255)
    return FALSE;

  *value = v;
  return TRUE;
}

static gboolean
is_loopback_ipv4 (const char *host)
{
  const char *p = host;
  guint parts = 0;
  guint first = 0;

  while (TRUE)
    {
      const char *dot = strchr (p, '.');
      gsize len = dot != NULL ? (gsize) (dot - p) : strlen (p);
      guint value;

      if (!parse_ipv4_part (p, len, &value))
        return FALSE;
      if (parts == 0)
        first = value;
      parts++;
      if (dot == NULL)
        break;
      if (parts == 4)
        return FALSE;
      p = dot + 1;
    }

  return parts == 4 && first == 127;
}

gboolean
mcp_url_policy_is_loopback_host (const char *host)
{
  g_autofree char *bare = NULL;
  gsize len;

  if (host == NULL || host[0] == '\0')
    return FALSE;

  len = strlen (host);
  if (host[0] == '[' && len > 2 && host[len - 1] == ']')
    bare = g_strndup (host + 1, len - 2);
  else
    bare = g_strdup (host);

  if (g_ascii_strcasecmp (bare, "localhost") == 0)
    return TRUE;

  if (g_str_equal (bare, "::1") || g_str_equal (bare, "0:0:0:0:0:0:0:1"))
    return TRUE;

  return is_loopback_ipv4 (bare);
}

/* Query values and user info may be secrets (DESIGN.md): a quoted URL
 * shows neither. */
static char *
mask_secrets (const char *url)
{
  GString *out = g_string_new (NULL);
  const char *authority = strstr (url, "://");
  const char *p = url;

  if (authority != NULL)
    {
      const char *start = authority + 3;
      gsize len = strcspn (start, "/?#");
      const char *at = g_strrstr_len (start, (gssize) len, "@");

      g_string_append_len (out, url, start - url);
      if (at != NULL)
        {
          g_string_append (out, "***");
          g_string_append_len (out, at, (start + len) - at);
        }
      else
        g_string_append_len (out, start, len);
      p = start + len;
    }

  while (*p != '\0' && *p != '?')
    g_string_append_c (out, *p++);

  if (*p == '?')
    {
      gboolean in_value = FALSE;

      for (; *p != '\0' && *p != '#'; p++)
        {
          if (*p == '&' || *p == '?')
            {
              if (in_value)
                g_string_append (out, "…");
              in_value = FALSE;
              g_string_append_c (out, *p);
            }
          else if (*p == '=' && !in_value)
            {
              in_value = TRUE;
              g_string_append_c (out, '=');
            }
          else if (!in_value)
            g_string_append_c (out, *p);
        }
      if (in_value)
        g_string_append (out, "…");
      g_string_append (out, p);
    }

  return g_string_free (out, FALSE);
}

char *
mcp_url_policy_quote (const char *url)
{
  g_autofree char *valid = NULL;
  g_autofree char *masked = NULL;
  GString *out;
  const char *p;
  guint n = 0;

  if (url == NULL)
    return g_strdup ("");

  valid = g_utf8_make_valid (url, -1);
  masked = mask_secrets (valid);
  out = g_string_new (NULL);
  for (p = masked; *p != '\0' && n < QUOTE_MAX_CHARS; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || g_unichar_type (c) == G_UNICODE_FORMAT ||
          c == 0x2028 || c == 0x2029)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_unichar (out, c);
    }
  if (*p != '\0')
    g_string_append (out, "…");

  return g_string_free (out, FALSE);
}

static void
refuse (GError            **error,
        McpUrlPolicyError   code,
        McpUrlUse           use,
        const char         *url,
        const char         *reason)
{
  g_autofree char *quoted = mcp_url_policy_quote (url);

  if (use == MCP_URL_USE_BROWSER)
    /* Translators: the first %s is an address, the second why it is refused */
    g_set_error (error, MCP_URL_POLICY_ERROR, code, _("Plugboard will not open “%s”: %s"), quoted, reason);
  else
    /* Translators: the first %s is an address, the second why it is refused */
    g_set_error (error, MCP_URL_POLICY_ERROR, code, _("Plugboard will not fetch “%s”: %s"), quoted, reason);
}

/* The first character no address may hold, or 0. */
static gunichar
find_forbidden (const char *url,
                gboolean   *is_space)
{
  for (const char *p = url; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || g_unichar_type (c) == G_UNICODE_FORMAT ||
          c == 0x2028 || c == 0x2029)
        {
          *is_space = FALSE;
          return c;
        }
      if (c == ' ' || g_unichar_isspace (c))
        {
          *is_space = TRUE;
          return c;
        }
    }

  return 0;
}

gboolean
mcp_url_policy_check (const char  *url,
                      McpUrlUse    use,
                      char       **host_out,
                      GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  const char *raw_scheme;
  const char *uri_host;
  gboolean is_space = FALSE;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (host_out != NULL)
    *host_out = NULL;

  if (url == NULL || url[0] == '\0')
    {
      refuse (error, MCP_URL_POLICY_ERROR_INVALID, use, "", _("the address is empty"));
      return FALSE;
    }

  if (!g_utf8_validate (url, -1, NULL))
    {
      refuse (error, MCP_URL_POLICY_ERROR_INVALID, use, url, _("it is not valid UTF-8"));
      return FALSE;
    }

  if (find_forbidden (url, &is_space) != 0)
    {
      if (is_space)
        refuse (error, MCP_URL_POLICY_ERROR_SPACE, use, url, _("it contains a space"));
      else
        refuse (error, MCP_URL_POLICY_ERROR_CONTROL_CHARACTER, use, url, _("it contains a control character"));
      return FALSE;
    }

  if (url[0] == '-')
    {
      refuse (error, MCP_URL_POLICY_ERROR_OPTION, use, url,
              _("it begins with “-”, so a program could take it for an option"));
      return FALSE;
    }

  /* No URL holds a backslash (RFC 3986), but browsers read one as "/" in
   * http(s) URLs: the host they would go to need not be the one parsed. */
  if (strchr (url, '\\') != NULL)
    {
      refuse (error, MCP_URL_POLICY_ERROR_INVALID, use, url, _("it contains a backslash"));
      return FALSE;
    }

  raw_scheme = g_uri_peek_scheme (url);
  if (raw_scheme == NULL)
    {
      refuse (error, MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, use, url,
              _("it is not a complete address (it has no scheme such as “https:”)"));
      return FALSE;
    }
  scheme = g_ascii_strdown (raw_scheme, -1);

  if (!g_str_equal (scheme, "https") && !g_str_equal (scheme, "http"))
    {
      g_autofree char *reason = NULL;

      /* Translators: %s is a URL scheme such as “javascript” or “file” */
      reason = g_strdup_printf (_("it is a “%s:” address; only https addresses, "
                                  "or http addresses of this computer, are allowed"),
                                scheme);
      refuse (error, MCP_URL_POLICY_ERROR_SCHEME, use, url, reason);
      return FALSE;
    }

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    {
      refuse (error, MCP_URL_POLICY_ERROR_INVALID, use, url, _("it is not a valid address"));
      return FALSE;
    }

  uri_host = g_uri_get_host (uri);
  if (uri_host == NULL || uri_host[0] == '\0')
    {
      refuse (error, MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, use, url, _("it names no host"));
      return FALSE;
    }

  if (g_uri_get_userinfo (uri) != NULL)
    {
      refuse (error, MCP_URL_POLICY_ERROR_USER_INFO, use, url,
              _("it carries a user name or password before the host"));
      return FALSE;
    }

  if (strchr (uri_host, ':') != NULL)
    host = g_strdup_printf ("[%s]", uri_host);
  else
    host = g_ascii_strdown (uri_host, -1);

  if (g_str_equal (scheme, "http") && !mcp_url_policy_is_loopback_host (host))
    {
      g_autofree char *quoted_host = mcp_url_policy_quote (host);
      g_autofree char *reason = NULL;

      /* Translators: %s is a host name */
      reason = g_strdup_printf (_("it uses unencrypted http to “%s”, which is not this computer; "
                                  "only https is allowed there"),
                                quoted_host);
      refuse (error, MCP_URL_POLICY_ERROR_INSECURE, use, url, reason);
      return FALSE;
    }

  if (host_out != NULL)
    *host_out = g_steal_pointer (&host);

  return TRUE;
}
