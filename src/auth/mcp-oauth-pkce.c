/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-pkce.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

char *
mcp_oauth_base64url_encode (const guint8 *data,
                            gsize         len)
{
  g_autofree char *base64 = NULL;
  char *p;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (len == 0)
    return g_strdup ("");

  base64 = g_base64_encode (data, len);
  for (p = base64; *p != '\0'; p++)
    {
      if (*p == '+')
        *p = '-';
      else if (*p == '/')
        *p = '_';
      else if (*p == '=')
        {
          *p = '\0';
          break;
        }
    }

  return g_steal_pointer (&base64);
}

char *
mcp_oauth_random_string (gsize    n_bytes,
                         GError **error)
{
  g_autofree guint8 *buffer = NULL;
  gsize filled = 0;
  char *result;

  g_return_val_if_fail (n_bytes > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  buffer = g_malloc (n_bytes);

  /* Flags 0: the urandom source, blocking only until the pool is
   * initialised. */
  while (filled < n_bytes)
    {
      ssize_t got = getrandom (buffer + filled, n_bytes - filled, 0);

      if (got < 0)
        {
          int saved_errno = errno;

          if (saved_errno == EINTR)
            continue;

          g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                       _("Could not get random bytes from the system: %s"),
                       g_strerror (saved_errno));
          return NULL;
        }

      filled += (gsize) got;
    }

  result = mcp_oauth_base64url_encode (buffer, n_bytes);
  explicit_bzero (buffer, n_bytes);

  return result;
}

char *
mcp_oauth_pkce_verifier_new (GError **error)
{
  /* 32 bytes: 43 characters of base64url, the RFC 7636 minimum and its
   * recommended size. */
  return mcp_oauth_random_string (32, error);
}

char *
mcp_oauth_pkce_challenge (const char *verifier)
{
  g_autoptr(GChecksum) checksum = NULL;
  guint8 digest[32];
  gsize digest_len = sizeof digest;

  g_return_val_if_fail (verifier != NULL, NULL);

  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, (const guchar *) verifier, (gssize) strlen (verifier));
  g_checksum_get_digest (checksum, digest, &digest_len);
  g_assert (digest_len == sizeof digest);

  return mcp_oauth_base64url_encode (digest, digest_len);
}
