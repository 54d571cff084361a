/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-dpop.h"
#include "mcp-jose.h"
#include "mcp-oauth-tokens.h"

G_BEGIN_DECLS

/* One token request (RFC 6749 §3.2) for every grant: the code exchange
 * and the refresh (mcp-oauth-tokens-request.c) and the grants of
 * mcp-oauth-grant.c (client_credentials, JWT bearer, RFC 8693 token
 * exchange). */

#define MCP_OAUTH_ASSERTION_TYPE_JWT_BEARER "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
#define MCP_OAUTH_GRANT_TYPE_JWT_BEARER     "urn:ietf:params:oauth:grant-type:jwt-bearer"
#define MCP_OAUTH_GRANT_TYPE_TOKEN_EXCHANGE "urn:ietf:params:oauth:grant-type:token-exchange"
#define MCP_OAUTH_TOKEN_TYPE_ID_TOKEN       "urn:ietf:params:oauth:token-type:id_token"
#define MCP_OAUTH_TOKEN_TYPE_ID_JAG         "urn:ietf:params:oauth:token-type:id-jag"

/* How the client authenticates at the token endpoint. Borrowed strings. */
typedef struct
{
  const char *client_id;        /* NULL: none sent */
  const char *client_secret;    /* secret */
  /* "client_secret_basic", "client_secret_post", "private_key_jwt",
   * "none" (client_id in the body) */
  const char *method;
  McpJoseKey *assertion_key;    /* private_key_jwt */
  /* private_key_jwt: the assertion's "aud", the AS's issuer (RFC 7523
   * §3: the token endpoint would do too; the issuer is what MCP's
   * servers check) */
  const char *assertion_audience;
} McpOAuthClientAuth;

typedef enum
{
  /* An access token (Bearer, or DPoP when a key was given) */
  MCP_OAUTH_TOKEN_REQUEST_ACCESS_TOKEN,
  /* RFC 8693 at an IdP: an ID-JAG ("issued_token_type" id-jag, any
   * "token_type", e.g. "N_A"), returned as the access_token of the result */
  MCP_OAUTH_TOKEN_REQUEST_ID_JAG,
  /* An OpenID code exchange at an IdP: its "id_token", returned as the
   * access_token of the result */
  MCP_OAUTH_TOKEN_REQUEST_ID_TOKEN,
} McpOAuthTokenRequestKind;

/**
 * mcp_oauth_token_request_async:
 * @step: the trace step ("token-exchange", "refresh", "grant", …)
 * @what: what the request is, for messages ("Token request")
 * @form: (transfer full): the body's parameters; its values are
 *   overwritten when freed
 * @dpop: (nullable): a DPoP proof goes with the request; a 400
 *   use_dpop_nonce with a DPoP-Nonce is retried once with it
 * @old_refresh_token: (nullable): kept when the answer has none
 *
 * POSTs @form to @token_endpoint with the client's authentication.
 * Errors (MCP_ERROR_NEEDS_AUTH) quote only the AS's "error" and
 * "error_description", never a secret.
 */
void            mcp_oauth_token_request_async  (SoupSession              *session,
                                                McpOAuthTokenRequestKind  kind,
                                                const char               *step,
                                                const char               *what,
                                                const char               *issuer,
                                                const char               *token_endpoint,
                                                const char               *fallback_scope,
                                                const char               *old_refresh_token,
                                                const McpOAuthClientAuth *auth,
                                                GHashTable               *form,
                                                McpDPoP                  *dpop,
                                                GCancellable             *cancellable,
                                                GAsyncReadyCallback       callback,
                                                gpointer                  user_data);
McpOAuthTokens *mcp_oauth_token_request_finish (GAsyncResult             *result,
                                                char                    **oauth_error,
                                                GError                  **error);

/* A form for mcp_oauth_token_request_async() */
GHashTable     *mcp_oauth_token_form_new       (void);
void            mcp_oauth_token_form_add       (GHashTable               *form,
                                                const char               *name,
                                                const char               *value);

G_END_DECLS
