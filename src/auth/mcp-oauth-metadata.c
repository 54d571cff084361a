/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-metadata.h"

#include "mcp-oauth-private.h"

/* McpOAuthMetadata: what discovery learnt about a server's authorization.
 * Discovery itself is in mcp-oauth-metadata-discovery.c, the reading and
 * checking of the documents it fetches in mcp-oauth-metadata-documents.c. */

void
mcp_oauth_metadata_free (McpOAuthMetadata *self)
{
  if (self == NULL)
    return;

  g_free (self->server_url);
  g_free (self->resource);
  g_free (self->resource_metadata_url);
  g_strfreev (self->authorization_servers);
  g_strfreev (self->resource_scopes_supported);
  g_free (self->issuer);
  g_free (self->auth_server_metadata_url);
  g_free (self->authorization_endpoint);
  g_free (self->token_endpoint);
  g_free (self->registration_endpoint);
  g_strfreev (self->code_challenge_methods_supported);
  g_strfreev (self->token_endpoint_auth_methods_supported);
  g_strfreev (self->grant_types_supported);
  g_strfreev (self->scopes_supported);
  g_free (self->metadata_issuer);
  g_strfreev (self->token_endpoint_auth_signing_alg_values_supported);
  g_strfreev (self->dpop_signing_alg_values_supported);
  g_free (self);
}

McpOAuthMetadata *
mcp_oauth_metadata_copy (const McpOAuthMetadata *self)
{
  McpOAuthMetadata *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (McpOAuthMetadata, 1);
  copy->server_url = g_strdup (self->server_url);
  copy->resource = g_strdup (self->resource);
  copy->resource_metadata_url = g_strdup (self->resource_metadata_url);
  copy->authorization_servers = g_strdupv (self->authorization_servers);
  copy->resource_scopes_supported = g_strdupv (self->resource_scopes_supported);
  copy->issuer = g_strdup (self->issuer);
  copy->auth_server_metadata_url = g_strdup (self->auth_server_metadata_url);
  copy->authorization_endpoint = g_strdup (self->authorization_endpoint);
  copy->token_endpoint = g_strdup (self->token_endpoint);
  copy->registration_endpoint = g_strdup (self->registration_endpoint);
  copy->code_challenge_methods_supported = g_strdupv (self->code_challenge_methods_supported);
  copy->token_endpoint_auth_methods_supported = g_strdupv (self->token_endpoint_auth_methods_supported);
  copy->grant_types_supported = g_strdupv (self->grant_types_supported);
  copy->scopes_supported = g_strdupv (self->scopes_supported);
  copy->client_id_metadata_document_supported = self->client_id_metadata_document_supported;
  copy->metadata_issuer = g_strdup (self->metadata_issuer);
  copy->authorization_response_iss_parameter_supported = self->authorization_response_iss_parameter_supported;
  copy->token_endpoint_auth_signing_alg_values_supported =
    g_strdupv (self->token_endpoint_auth_signing_alg_values_supported);
  copy->dpop_signing_alg_values_supported = g_strdupv (self->dpop_signing_alg_values_supported);

  return copy;
}

gboolean
mcp_oauth_metadata_supports_s256 (const McpOAuthMetadata *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return mcp_oauth_strv_contains (self->code_challenge_methods_supported, "S256");
}

const char *
mcp_oauth_metadata_get_expected_issuer (const McpOAuthMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->metadata_issuer != NULL ? self->metadata_issuer : self->issuer;
}

gboolean
mcp_oauth_metadata_offers_offline_access (const McpOAuthMetadata *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return mcp_oauth_strv_contains (self->scopes_supported, "offline_access");
}

char *
mcp_oauth_metadata_pick_scope (const McpOAuthMetadata *self,
                               const char             *challenge_scope)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (challenge_scope != NULL)
    return g_strdup (challenge_scope);

  if (self->resource_scopes_supported != NULL && self->resource_scopes_supported[0] != NULL)
    return g_strjoinv (" ", self->resource_scopes_supported);

  return NULL;
}
