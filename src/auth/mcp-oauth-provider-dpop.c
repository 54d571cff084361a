/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"
#include "mcp-oauth-provider-private.h"

#include <string.h>

/* CONTRACT STUB: the jose-dpop part replaces this file. DPoP of
 * McpOAuthProvider: which sign-ins get a key, the bound tokens'
 * Authorization and proof, nonces. */

McpDPoP *
mcp_oauth_provider_dpop_for_sign_in (McpOAuthProvider       *self,
                                     const McpOAuthMetadata *metadata)
{
  return NULL;
}

void
mcp_oauth_provider_dpop_update (McpOAuthProvider *self)
{
}

void
mcp_oauth_provider_authorize_message (McpAuthProvider *provider,
                                      SoupMessage     *message)
{
  g_autofree char *authorization = mcp_auth_provider_get_authorization (provider);

  if (authorization != NULL && strpbrk (authorization, "\r\n") == NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "Authorization", authorization);
  if (authorization != NULL)
    explicit_bzero (authorization, strlen (authorization));
}

void
mcp_oauth_provider_message_answered (McpAuthProvider *provider,
                                     SoupMessage     *message)
{
}

gboolean
mcp_oauth_provider_dpop_nonce_challenge (McpOAuthProvider *self,
                                         guint             status,
                                         const char       *www_authenticate)
{
  return FALSE;
}
