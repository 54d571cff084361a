/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-dpop.h"
#include "mcp-jose.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-tokens.h"

G_BEGIN_DECLS

/**
 * McpOAuthGrantKind:
 * @MCP_OAUTH_GRANT_AUTHORIZATION_CODE: a person signs in in the browser
 *   (the default; McpOAuthProvider's sign-in)
 * @MCP_OAUTH_GRANT_CLIENT_CREDENTIALS: an unattended client (SEP-1046,
 *   OAuth 2.1 §4.2) authenticated by client_secret_basic,
 *   client_secret_post or private_key_jwt (RFC 7523 §2.2)
 * @MCP_OAUTH_GRANT_JWT_BEARER: workload identity federation (SEP-1933):
 *   an externally issued JWT, read from a file or an environment variable
 *   (again whenever a new token is needed), is the RFC 7523 assertion
 * @MCP_OAUTH_GRANT_ENTERPRISE: enterprise-managed authorization (SEP-990):
 *   an ID token from the enterprise IdP (a command, a file, an environment
 *   variable, or a sign-in at the IdP) is exchanged at the IdP (RFC 8693)
 *   for an ID-JAG ("urn:ietf:params:oauth:token-type:id-jag"), which the
 *   MCP server's authorization server takes in the JWT bearer grant
 */
typedef enum
{
  MCP_OAUTH_GRANT_AUTHORIZATION_CODE,
  MCP_OAUTH_GRANT_CLIENT_CREDENTIALS,
  MCP_OAUTH_GRANT_JWT_BEARER,
  MCP_OAUTH_GRANT_ENTERPRISE,
} McpOAuthGrantKind;

/* Where an assertion or ID token comes from */
typedef enum
{
  MCP_OAUTH_SOURCE_NONE,
  MCP_OAUTH_SOURCE_FILE,      /* read each time; at most 64 KiB; trailing white space cut */
  MCP_OAUTH_SOURCE_ENV,       /* Plugboard's environment */
  MCP_OAUTH_SOURCE_COMMAND,   /* argv, no shell; stdout, 30 s, 64 KiB */
  MCP_OAUTH_SOURCE_SIGN_IN,   /* enterprise only: OpenID sign-in at the IdP in the browser */
} McpOAuthSourceKind;

typedef struct
{
  McpOAuthSourceKind   kind;
  char                *path;      /* FILE */
  char                *variable;  /* ENV */
  char               **argv;      /* COMMAND */
} McpOAuthSource;

/**
 * McpOAuthGrantConfig:
 *
 * The grant a server's "oauth" settings ask for (values already expanded:
 * ${VAR} and ${secret:ID} filled in). The settings (documented in the
 * README, "Signing in without a browser"):
 *
 *   "oauth": {
 *     "grant": "authorization_code" | "client_credentials" | "jwt_bearer" | "enterprise",
 *     "clientId": "…",
 *     "clientSecret": "${secret:ID}",
 *     "tokenEndpointAuthMethod": "client_secret_basic" | "client_secret_post" |
 *                                "private_key_jwt" | "none",
 *     "privateKey": "${secret:ID}",            PEM (private_key_jwt)
 *     "signingAlgorithm": "ES256" | "RS256",   default ES256
 *     "assertion": { "file": PATH } | { "env": VAR },          jwt_bearer
 *     "idp": { "issuer": URL, "tokenEndpoint": URL (else discovered),
 *              "clientId": "…", "clientSecret": "${secret:ID}",
 *              "idToken": { "command": [ARGV…] } | { "file": PATH } |
 *                         { "env": VAR } | { "signIn": true } },  enterprise
 *     "dpop": true | false                      absent: when the AS offers it
 *     … and the members the authorization-code sign-in already had
 *     (clientId, callbackPort, scopes, authServerMetadataUrl, clientMetadataUrl)
 *   }
 *
 * Secrets (client_secret, private_key, idp_client_secret) are overwritten
 * when freed and never appear in a message.
 */
typedef struct
{
  McpOAuthGrantKind  kind;
  char              *client_id;
  char              *client_secret;                /* secret */
  char              *token_endpoint_auth_method;   /* NULL: pick from the AS metadata */
  char              *private_key;                  /* secret, PEM */
  McpJoseAlg         signing_alg;
  McpOAuthSource     assertion;                    /* JWT_BEARER */
  char              *idp_issuer;                   /* ENTERPRISE */
  char              *idp_token_endpoint;
  char              *idp_client_id;
  char              *idp_client_secret;            /* secret */
  McpOAuthSource     id_token;
  int                dpop;                         /* -1: when offered; 0: never; 1: always */
} McpOAuthGrantConfig;

/* Reads the grant members of @oauth (NULL: the authorization-code
 * default). Errors: MCP_ERROR_INVALID_CONFIG naming the member
 * ("oauth.assertion: expected {\"file\": …} or {\"env\": …}"). */
McpOAuthGrantConfig *mcp_oauth_grant_config_new_from_json (JsonObject                *oauth,
                                                           GError                   **error);
void                 mcp_oauth_grant_config_free          (McpOAuthGrantConfig       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpOAuthGrantConfig, mcp_oauth_grant_config_free)

const char          *mcp_oauth_grant_kind_to_string       (McpOAuthGrantKind          kind);

/**
 * mcp_oauth_grant_run_async:
 * @metadata: what discovery found (token endpoint, resource, issuer,
 *   the AS's auth methods and DPoP algorithms)
 * @scope: (nullable): the scope to ask for
 * @dpop: (nullable): sign every token request with this key (a DPoP
 *   nonce asked for is honoured with one retry); the tokens are then
 *   bound ("token_type": "DPoP")
 *
 * Runs a non-interactive grant (CLIENT_CREDENTIALS, JWT_BEARER, or
 * ENTERPRISE with an ID token source other than SIGN_IN) to the end and
 * returns the tokens. Every request goes through the session's trace;
 * no secret, assertion or token is in a step's text. An error answer
 * (invalid_grant, invalid_scope, unauthorized_client, invalid_client) is
 * MCP_ERROR_NEEDS_AUTH quoting the AS's error and description, and is
 * never retried with another grant.
 */
void                 mcp_oauth_grant_run_async            (SoupSession               *session,
                                                           const McpOAuthGrantConfig *config,
                                                           const McpOAuthMetadata    *metadata,
                                                           const char                *scope,
                                                           McpDPoP                   *dpop,
                                                           GCancellable              *cancellable,
                                                           GAsyncReadyCallback        callback,
                                                           gpointer                   user_data);
McpOAuthTokens      *mcp_oauth_grant_run_finish           (GAsyncResult              *result,
                                                           GError                   **error);

G_END_DECLS
