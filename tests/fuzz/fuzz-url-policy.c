/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-url-policy"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-url-policy.h"

/* The URL policy (mcp_url_policy_check) on a URL a server named, for both
 * uses. Checks, for an accepted URL, what the policy promises: it parses
 * as an absolute URI; "https", or "http" to a loopback host; no user info;
 * no control character, space or backslash; it does not begin with "-";
 * the host it gives is what GUri reads, lower-case. A refusal has a
 * message in MCP_URL_POLICY_ERROR. The quoted form is UTF-8 without control
 * characters. Warnings and criticals are fatal. */

static void
fail (const char *what,
      const char *url)
{
  g_autofree char *escaped = g_strescape (url, NULL);

  g_printerr ("fuzz-url-policy: %s: “%s”\n", what, escaped);
  abort ();
}

static void
check_accepted (const char *url,
                const char *host)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *lower = NULL;
  const char *scheme;

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    fail ("an accepted URL that does not parse", url);
  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "http") != 0)
    fail ("an accepted URL of another scheme", url);
  if (g_uri_get_userinfo (uri) != NULL)
    fail ("an accepted URL with user info", url);
  if (url[0] == '-')
    fail ("an accepted URL that begins with -", url);
  for (const guchar *p = (const guchar *) url; *p != '\0'; p++)
    if (*p <= 0x20 || *p == 0x7f || *p == '\\')
      fail ("an accepted URL with a control character, a space or a backslash", url);
  for (const char *p = url; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c >= 0x80 && c <= 0x9f)
        fail ("an accepted URL with a C1 control character", url);
    }

  if (host == NULL || host[0] == '\0')
    fail ("an accepted URL without a host", url);
  if (g_uri_get_host (uri) == NULL)
    fail ("an accepted URL GUri finds no host in", url);
  lower = g_ascii_strdown (host, -1);
  if (strcmp (lower, host) != 0)
    fail ("a host that is not lower-case", url);
  if (g_ascii_strcasecmp (scheme, "http") == 0 && !mcp_url_policy_is_loopback_host (host))
    fail ("an accepted http URL to a host that is not loopback", url);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *url = NULL;
  g_autofree char *quoted = NULL;
  static const McpUrlUse uses[] = { MCP_URL_USE_BROWSER, MCP_URL_USE_FETCH };

  fuzz_abort_on_warnings ();

  /* A URL reaches the policy as a C string (JSON strings may hold a nul,
   * and the callers stop there). */
  url = g_strndup ((const char *) data, size);

  for (guint i = 0; i < G_N_ELEMENTS (uses); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *host = NULL;

      if (mcp_url_policy_check (url, uses[i], &host, &error))
        {
          if (error != NULL)
            fail ("accepted with an error", url);
          check_accepted (url, host);
        }
      else if (error == NULL || error->domain != MCP_URL_POLICY_ERROR ||
               error->message == NULL || !g_utf8_validate (error->message, -1, NULL))
        fail ("a refusal without a message in MCP_URL_POLICY_ERROR", url);
    }

  quoted = mcp_url_policy_quote (url);
  if (quoted == NULL || !g_utf8_validate (quoted, -1, NULL))
    fail ("a quoted URL that is not UTF-8", url);
  for (const char *p = quoted; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
        fail ("a quoted URL with a control character", url);
    }

  return 0;
}
