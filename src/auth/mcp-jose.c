/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-jose"

#include "config.h"

#include "mcp-jose.h"

#include <string.h>

#include "mcp-error.h"

/* CONTRACT STUB: the jose-dpop part replaces this file. */

struct _McpJoseKey
{
  gatomicrefcount ref;
  McpJoseAlg      alg;
};

const char *
mcp_jose_alg_to_string (McpJoseAlg alg)
{
  return alg == MCP_JOSE_ALG_RS256 ? "RS256" : "ES256";
}

gboolean
mcp_jose_alg_from_string (const char *text,
                          McpJoseAlg *alg)
{
  if (g_strcmp0 (text, "ES256") == 0)
    *alg = MCP_JOSE_ALG_ES256;
  else if (g_strcmp0 (text, "RS256") == 0)
    *alg = MCP_JOSE_ALG_RS256;
  else
    return FALSE;
  return TRUE;
}

McpJoseKey *
mcp_jose_key_generate (McpJoseAlg   alg,
                       GError     **error)
{
  g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED, "not implemented");
  return NULL;
}

McpJoseKey *
mcp_jose_key_new_from_pem (const char  *pem,
                           McpJoseAlg   alg,
                           GError     **error)
{
  g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED, "not implemented");
  return NULL;
}

McpJoseKey *
mcp_jose_key_ref (McpJoseKey *key)
{
  g_atomic_ref_count_inc (&key->ref);
  return key;
}

void
mcp_jose_key_unref (McpJoseKey *key)
{
  if (key != NULL && g_atomic_ref_count_dec (&key->ref))
    g_free (key);
}

McpJoseAlg
mcp_jose_key_get_alg (McpJoseKey *key)
{
  return key->alg;
}

char *
mcp_jose_key_to_pem (McpJoseKey *key)
{
  return NULL;
}

JsonObject *
mcp_jose_key_get_public_jwk (McpJoseKey *key)
{
  return json_object_new ();
}

char *
mcp_jose_key_get_thumbprint (McpJoseKey *key)
{
  return NULL;
}

char *
mcp_jose_sign (McpJoseKey  *key,
               JsonObject  *header,
               JsonObject  *claims,
               GError     **error)
{
  g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED, "not implemented");
  return NULL;
}

JsonObject *
mcp_jose_verify (const char  *jws,
                 JsonObject  *jwk,
                 JsonObject **header,
                 GError     **error)
{
  g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, "not implemented");
  return NULL;
}

JsonObject *
mcp_jose_peek (const char  *jwt,
               JsonObject **header,
               GError     **error)
{
  g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, "not implemented");
  return NULL;
}

char *
mcp_jose_base64url_encode (const guint8 *data,
                           gsize         length)
{
  return NULL;
}

guint8 *
mcp_jose_base64url_decode (const char *text,
                           gsize      *length)
{
  return NULL;
}

char *
mcp_jose_sha256_base64url (const char *text)
{
  return NULL;
}

char *
mcp_jose_random_id (void)
{
  return NULL;
}

void
mcp_jose_free_secret (char *secret)
{
  if (secret != NULL)
    explicit_bzero (secret, strlen (secret));
  g_free (secret);
}
