/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-oauth-grant.h"

G_BEGIN_DECLS

/* Shared by mcp-oauth-grant-config.c (the settings), mcp-oauth-grant-source.c
 * (assertions and ID tokens from a file, the environment or a command),
 * mcp-oauth-grant.c (the token requests) and McpOAuthProvider's
 * mcp-oauth-provider-grant.c. */

/* What a source may give: an assertion or ID token at most this long. */
#define MCP_OAUTH_SOURCE_MAX_BYTES (64 * 1024)
/* A command has this long to print its token. */
#define MCP_OAUTH_SOURCE_COMMAND_TIMEOUT_S 30

/**
 * mcp_oauth_source_read_async:
 * @what: what is read, for messages ("oauth.assertion",
 *   "oauth.idp.idToken")
 *
 * Reads the assertion or ID token now: a FILE (at most 64 KiB, trailing
 * white space cut), an ENV variable of Plugboard's environment, or the
 * standard output of a COMMAND run without a shell (30 s, 64 KiB; its
 * standard error's last line in the error). The result is a secret (free
 * with mcp_oauth_free_secret()). Errors: MCP_ERROR_NEEDS_AUTH naming
 * @what and the file, variable or program, never the value.
 */
void      mcp_oauth_source_read_async   (const McpOAuthSource  *source,
                                         const char            *what,
                                         GCancellable          *cancellable,
                                         GAsyncReadyCallback    callback,
                                         gpointer               user_data);
char     *mcp_oauth_source_read_finish  (GAsyncResult          *result,
                                         GError               **error);

/* What an OpenID provider's discovery document says (the enterprise IdP). */
typedef struct
{
  char *issuer;
  char *authorization_endpoint;   /* NULL: none */
  char *token_endpoint;
} McpOAuthIdpMetadata;

void                 mcp_oauth_idp_metadata_free      (McpOAuthIdpMetadata *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpOAuthIdpMetadata, mcp_oauth_idp_metadata_free)

/* GETs @issuer's "/.well-known/openid-configuration" (then RFC 8414's
 * "/.well-known/oauth-authorization-server"); its "issuer" must be
 * @issuer (a trailing "/" aside), its endpoints pass the URL policy. */
void                 mcp_oauth_idp_discover_async     (SoupSession          *session,
                                                       const char           *issuer,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
McpOAuthIdpMetadata *mcp_oauth_idp_discover_finish    (GAsyncResult         *result,
                                                       GError              **error);

/* mcp_oauth_grant_run_async() with the enterprise ID token given (a
 * sign-in at the IdP got it) instead of read from its source, and the
 * IdP's token endpoint (nullable) that sign-in discovered. */
void                 mcp_oauth_grant_run_with_id_token_async (SoupSession               *session,
                                                              const McpOAuthGrantConfig *config,
                                                              const McpOAuthMetadata    *metadata,
                                                              const char                *scope,
                                                              McpDPoP                   *dpop,
                                                              const char                *id_token,
                                                              const char                *idp_token_endpoint,
                                                              GCancellable              *cancellable,
                                                              GAsyncReadyCallback        callback,
                                                              gpointer                   user_data);

/* The client authentication method for the grant's token requests at the
 * MCP server's authorization server: the configured one, else
 * private_key_jwt with a private key, else what the AS lists for a secret
 * (client_secret_basic first), else "none". */
const char          *mcp_oauth_grant_pick_auth_method (const McpOAuthGrantConfig *config,
                                                       const McpOAuthMetadata    *metadata);

G_END_DECLS
