/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-dpop.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-metadata.h"

G_BEGIN_DECLS

/**
 * McpOAuthTokens:
 *
 * Tokens from a token endpoint. Secrets: never print access_token or
 * refresh_token.
 */
typedef struct
{
  char   *access_token;
  char   *token_type;        /* "Bearer", or "DPoP" for a sender-constrained token */
  char   *refresh_token;     /* NULL: none */
  char   *scope;             /* granted scope, or the requested one when the AS did not say */
  gint64  expires_at;        /* unix seconds; 0 = unknown / no expiry */
  char   *token_endpoint;    /* where to refresh */
  char   *issuer;
  /* The DPoP proof key the tokens are bound to (PKCS#8 PEM; RFC 9449), kept
   * with them in the store (keyring or the 0600 file); NULL for Bearer
   * tokens. A secret: never printed. */
  char   *dpop_key;
} McpOAuthTokens;

void            mcp_oauth_tokens_free       (McpOAuthTokens *self);
McpOAuthTokens *mcp_oauth_tokens_copy       (const McpOAuthTokens *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpOAuthTokens, mcp_oauth_tokens_free)

JsonNode       *mcp_oauth_tokens_to_json    (const McpOAuthTokens *self);
McpOAuthTokens *mcp_oauth_tokens_from_json  (JsonNode             *node,
                                             GError              **error);

/* TRUE when expires_at is set and now + @margin_s >= expires_at. */
gboolean        mcp_oauth_tokens_expire_within (const McpOAuthTokens *self,
                                                gint64                margin_s);

/**
 * mcp_oauth_exchange_code_async:
 *
 * The authorization_code grant: POST to @metadata's token_endpoint with
 * code, redirect_uri, code_verifier, client_id and resource
 * (@metadata->resource), authenticating the client by
 * @client->token_endpoint_auth_method (basic: HTTP Basic with
 * form-urlencoded id and secret, RFC 6749 §2.3.1; post: in the body; none:
 * client_id only). @requested_scope fills tokens->scope when the answer has
 * none. Errors are MCP_ERROR_NEEDS_AUTH and carry the AS's "error" and
 * "error_description" and the endpoint, never a token or the secret.
 *
 * @dpop (nullable): a DPoP proof goes with the request (a use_dpop_nonce
 * answer is retried once with the nonce), and a "DPoP" token_type is
 * accepted; the tokens' dpop_key is then the key's PEM. Without @dpop only
 * Bearer tokens are accepted. The client authenticates by private_key_jwt
 * when its token_endpoint_auth_method says so (mcp-oauth-grant.h).
 */
void            mcp_oauth_exchange_code_async  (SoupSession              *session,
                                                const McpOAuthMetadata   *metadata,
                                                const McpOAuthClientInfo *client,
                                                const char               *code,
                                                const char               *code_verifier,
                                                const char               *redirect_uri,
                                                const char               *requested_scope,
                                                McpDPoP                  *dpop,
                                                GCancellable             *cancellable,
                                                GAsyncReadyCallback       callback,
                                                gpointer                  user_data);
McpOAuthTokens *mcp_oauth_exchange_code_finish (GAsyncResult             *result,
                                                GError                  **error);

/**
 * mcp_oauth_refresh_async:
 *
 * The refresh_token grant against @tokens->token_endpoint with the same
 * client authentication and resource @resource. The new tokens keep the old
 * refresh token when the answer has none (RFC 6749 §6). An "invalid_grant"
 * answer is MCP_ERROR_NEEDS_AUTH with a message saying the sign-in has
 * expired. @dpop: as for the code exchange (a bound token is refreshed with
 * the same key).
 */
void            mcp_oauth_refresh_async        (SoupSession              *session,
                                                const McpOAuthTokens     *tokens,
                                                const McpOAuthClientInfo *client,
                                                const char               *resource,
                                                McpDPoP                  *dpop,
                                                GCancellable             *cancellable,
                                                GAsyncReadyCallback       callback,
                                                gpointer                  user_data);
McpOAuthTokens *mcp_oauth_refresh_finish       (GAsyncResult             *result,
                                                GError                  **error);

G_END_DECLS
