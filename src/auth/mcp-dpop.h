/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-jose.h"

G_BEGIN_DECLS

#define MCP_TYPE_DPOP (mcp_dpop_get_type ())
G_DECLARE_FINAL_TYPE (McpDPoP, mcp_dpop, MCP, DPOP, GObject)

/**
 * McpDPoP:
 *
 * Sender-constrained tokens (RFC 9449) for one server: its proof key and
 * the nonces its authorization server and resource server gave.
 *
 * A proof is a JWS with header {"typ": "dpop+jwt", "alg", "jwk": the
 * public key} and claims "jti" (random, never reused), "htm" (the
 * method), "htu" (the URL without query and fragment), "iat" (now),
 * "ath" (base64url SHA-256 of the access token, when one is presented)
 * and "nonce" (the last DPoP-Nonce of that URL's origin, when one was
 * given).
 *
 * Nonces are kept per origin (scheme, host, port), at most 1 KiB each and
 * 64 origins; a nonce with characters outside RFC 9449's NQCHAR is
 * ignored.
 */

McpDPoP    *mcp_dpop_new               (McpJoseKey   *key);
McpJoseKey *mcp_dpop_get_key           (McpDPoP      *self);
/* The key's RFC 7638 thumbprint (what a bound token's cnf.jkt holds) */
const char *mcp_dpop_get_thumbprint    (McpDPoP      *self);

/* A fresh proof for a request of @method to @url; @access_token
 * (nullable) adds "ath". NULL only when signing failed (logged). */
char       *mcp_dpop_make_proof        (McpDPoP      *self,
                                        const char   *method,
                                        const char   *url,
                                        const char   *access_token);

/* Sets "DPoP: <proof>" on @message for its method and URL. */
void        mcp_dpop_apply             (McpDPoP      *self,
                                        SoupMessage  *message,
                                        const char   *access_token);

/* The nonce to use for @url's origin, or NULL. */
const char *mcp_dpop_get_nonce         (McpDPoP      *self,
                                        const char   *url);
void        mcp_dpop_set_nonce         (McpDPoP      *self,
                                        const char   *url,
                                        const char   *nonce);
/* Takes a DPoP-Nonce header of @message's answer, if any, for its
 * origin. TRUE when the nonce of that origin changed. */
gboolean    mcp_dpop_note_response     (McpDPoP      *self,
                                        SoupMessage  *message);

/* TRUE when @message's answer asks for a (new) nonce: a 401 whose
 * WWW-Authenticate has error="use_dpop_nonce" (resource server, RFC 9449
 * §9), or a 400 whose JSON body @body (nullable) has "error":
 * "use_dpop_nonce" (authorization server, §8), and it carried a
 * DPoP-Nonce header. */
gboolean    mcp_dpop_is_nonce_error    (SoupMessage  *message,
                                        GBytes       *body);

/* TRUE once after an answer from @url's origin carried a nonce that its
 * request's proof had not sent (mcp_dpop_note_response()): a retry with
 * it is worth one try. Cleared by the call. */
gboolean    mcp_dpop_take_fresh_nonce  (McpDPoP      *self,
                                        const char   *url);

/* The "error" of the DPoP challenge in a WWW-Authenticate header (it may
 * follow other challenges), or NULL; @has_dpop (nullable): whether there
 * is a DPoP challenge at all. */
char       *mcp_dpop_challenge_error   (const char   *www_authenticate,
                                        gboolean     *has_dpop);

G_END_DECLS
