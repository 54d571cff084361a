/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"
#include "mcp-oauth-provider-private.h"

#include <string.h>

#include <glib/gi18n.h>

/* DPoP of McpOAuthProvider (RFC 9449): which sign-ins get a key, the
 * bound tokens' Authorization and proof on every request, the resource
 * server's nonces. The token requests' proofs and the authorization
 * server's nonces are the token requests' (mcp-oauth-tokens-request.c,
 * mcp-oauth-grant.c), with self->sign_in_dpop or self->dpop. */

static gboolean
strv_has (char       **strv,
          const char  *value)
{
  return strv != NULL && g_strv_contains ((const char * const *) strv, value);
}

McpDPoP *
mcp_oauth_provider_dpop_for_sign_in (McpOAuthProvider       *self,
                                     const McpOAuthMetadata *metadata)
{
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(GError) error = NULL;
  char **offered = metadata != NULL ? metadata->dpop_signing_alg_values_supported : NULL;
  int setting = self->grant != NULL ? self->grant->dpop : -1;
  McpJoseAlg alg;

  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), NULL);

  if (setting == 0)
    return NULL;

  if (strv_has (offered, "ES256"))
    alg = MCP_JOSE_ALG_ES256;
  else if (strv_has (offered, "RS256"))
    alg = MCP_JOSE_ALG_RS256;
  else if (setting == 1 || (self->challenge_dpop && offered == NULL))
    alg = MCP_JOSE_ALG_ES256;
  else
    return NULL;

  key = mcp_jose_key_generate (alg, &error);
  if (key == NULL)
    {
      g_warning ("Could not make a DPoP key for “%s”: %s", self->server_name, error->message);
      return NULL;
    }

  /* Translators: %s is a signing algorithm (ES256) */
  mcp_oauth_trace_step (self->session, NULL, "dpop", MCP_TRACE_STEP_INFO,
                        _("The tokens will be bound to a new DPoP key (%s)"),
                        mcp_jose_alg_to_string (alg));
  return mcp_dpop_new (key);
}

static McpJoseKey *
key_from_pem (const char *pem)
{
  g_autoptr(GError) error = NULL;
  McpJoseKey *key;

  key = mcp_jose_key_new_from_pem (pem, MCP_JOSE_ALG_ES256, NULL);
  if (key == NULL)
    key = mcp_jose_key_new_from_pem (pem, MCP_JOSE_ALG_RS256, &error);
  if (key == NULL)
    g_debug ("The stored DPoP key cannot be used: %s", error->message);
  return key;
}

void
mcp_oauth_provider_dpop_update (McpOAuthProvider *self)
{
  g_autoptr(McpJoseKey) key = NULL;
  g_autofree char *thumbprint = NULL;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  if (self->tokens == NULL || self->tokens->dpop_key == NULL)
    {
      g_clear_object (&self->dpop);
      return;
    }

  key = key_from_pem (self->tokens->dpop_key);
  if (key == NULL)
    {
      g_clear_object (&self->dpop);
      return;
    }
  thumbprint = mcp_jose_key_get_thumbprint (key);

  if (self->dpop != NULL && g_strcmp0 (mcp_dpop_get_thumbprint (self->dpop), thumbprint) == 0)
    return;

  /* The sign-in's key, with the nonces it was given */
  if (self->sign_in_dpop != NULL &&
      g_strcmp0 (mcp_dpop_get_thumbprint (self->sign_in_dpop), thumbprint) == 0)
    g_set_object (&self->dpop, self->sign_in_dpop);
  else
    {
      g_clear_object (&self->dpop);
      self->dpop = mcp_dpop_new (key);
    }
}

void
mcp_oauth_provider_authorize_message (McpAuthProvider *provider,
                                      SoupMessage     *message)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (provider);
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);
  const char *token = self->tokens != NULL ? self->tokens->access_token : NULL;
  g_autofree char *authorization = NULL;

  if (token != NULL && self->tokens->dpop_key != NULL)
    {
      /* Bound tokens go with a proof, or not at all: Bearer would be
       * refused and would hand the token to anyone who sees it. */
      soup_message_headers_remove (headers, "Authorization");
      soup_message_headers_remove (headers, "DPoP");
      if (self->dpop == NULL || strpbrk (token, "\r\n") != NULL)
        return;

      authorization = g_strconcat ("DPoP ", token, NULL);
      soup_message_headers_replace (headers, "Authorization", authorization);
      mcp_dpop_apply (self->dpop, message, token);
    }
  else
    {
      authorization = mcp_auth_provider_get_authorization (provider);
      if (authorization != NULL && strpbrk (authorization, "\r\n") == NULL)
        soup_message_headers_replace (headers, "Authorization", authorization);
    }

  if (authorization != NULL)
    explicit_bzero (authorization, strlen (authorization));
}

void
mcp_oauth_provider_message_answered (McpAuthProvider *provider,
                                     SoupMessage     *message)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (provider);

  if (soup_message_get_status (message) == SOUP_STATUS_UNAUTHORIZED)
    {
      const char *challenge = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                            "WWW-Authenticate");
      g_autofree char *error = mcp_dpop_challenge_error (challenge, &self->challenge_dpop);
    }

  if (self->dpop != NULL)
    mcp_dpop_note_response (self->dpop, message);
}

gboolean
mcp_oauth_provider_dpop_nonce_challenge (McpOAuthProvider *self,
                                         guint             status,
                                         const char       *www_authenticate)
{
  g_autofree char *error = NULL;

  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), FALSE);

  if (status != SOUP_STATUS_UNAUTHORIZED || self->dpop == NULL)
    return FALSE;

  error = mcp_dpop_challenge_error (www_authenticate, NULL);
  if (g_strcmp0 (error, "use_dpop_nonce") != 0)
    return FALSE;

  /* Only a nonce the refused request did not carry is worth a retry: the
   * same one again would be refused again. */
  if (!mcp_dpop_take_fresh_nonce (self->dpop, self->server_url))
    return FALSE;

  mcp_oauth_trace_step (self->session, NULL, "dpop-nonce", MCP_TRACE_STEP_INFO,
                        _("The server asked for a DPoP nonce (use_dpop_nonce): sending the request again with it"));
  return TRUE;
}
