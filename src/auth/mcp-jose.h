/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * McpJoseKey:
 *
 * A private signing key for JSON Web Signatures (RFC 7515) made with
 * GnuTLS: ES256 (P-256, SHA-256) or RS256 (RSA 2048+, PKCS#1 v1.5,
 * SHA-256). No cryptography of our own: key generation, signing, the
 * public parameters and verification are GnuTLS's; this file only encodes
 * (base64url, JSON, ECDSA's DER signature to JWS's r‖s).
 *
 * Used for DPoP proofs (RFC 9449), private_key_jwt client assertions
 * (RFC 7523 §2.2) and, in tests, to verify what was signed.
 *
 * The private key is a secret: mcp_jose_key_to_pem() is its only way out
 * (for McpTokenStore / McpSecretStore, which keep it in the keyring or the
 * 0600 file); it is never logged. Reference counted; immutable.
 */
typedef struct _McpJoseKey McpJoseKey;

typedef enum
{
  MCP_JOSE_ALG_ES256,
  MCP_JOSE_ALG_RS256,
} McpJoseAlg;

/* "ES256" / "RS256" */
const char *mcp_jose_alg_to_string       (McpJoseAlg        alg);
/* FALSE for anything else (case-sensitive, as JOSE spells them) */
gboolean    mcp_jose_alg_from_string     (const char       *text,
                                          McpJoseAlg       *alg);

/* A new key (RS256: 2048 bits). Errors: MCP_ERROR_FAILED with GnuTLS's
 * reason. */
McpJoseKey *mcp_jose_key_generate        (McpJoseAlg        alg,
                                          GError          **error);
/* A PEM private key: PKCS#8 ("PRIVATE KEY"), SEC 1 ("EC PRIVATE KEY") or
 * PKCS#1 ("RSA PRIVATE KEY"), unencrypted. @alg must fit the key (an EC
 * key must be P-256 for ES256; RSA at least 2048 bits for RS256).
 * Errors: MCP_ERROR_INVALID_CONFIG saying what is wrong, never quoting the
 * key. */
McpJoseKey *mcp_jose_key_new_from_pem    (const char       *pem,
                                          McpJoseAlg        alg,
                                          GError          **error);
McpJoseKey *mcp_jose_key_ref             (McpJoseKey       *key);
void        mcp_jose_key_unref           (McpJoseKey       *key);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpJoseKey, mcp_jose_key_unref)

McpJoseAlg  mcp_jose_key_get_alg         (McpJoseKey       *key);
/* PKCS#8 PEM of the private key. A secret: free with
 * mcp_jose_free_secret(). */
char       *mcp_jose_key_to_pem          (McpJoseKey       *key);
/* The public key as a JWK: {"kty":"EC","crv":"P-256","x":…,"y":…} or
 * {"kty":"RSA","n":…,"e":…} — never "d" or any private member. New
 * object. */
JsonObject *mcp_jose_key_get_public_jwk  (McpJoseKey       *key);
/* RFC 7638 thumbprint (SHA-256 of the canonical required members),
 * base64url without padding. */
char       *mcp_jose_key_get_thumbprint  (McpJoseKey       *key);

/**
 * mcp_jose_sign:
 * @header: (nullable): header members besides "alg" ("typ", "jwk", "kid");
 *   "alg" is always the key's
 * @claims: the payload
 *
 * A compact JWS: base64url(header).base64url(payload).base64url(signature),
 * the JSON written without spaces. Errors: MCP_ERROR_FAILED (GnuTLS).
 */
char       *mcp_jose_sign                (McpJoseKey       *key,
                                          JsonObject       *header,
                                          JsonObject       *claims,
                                          GError          **error);

/* Verifies a compact JWS made with the key of the public JWK @jwk (EC
 * P-256 / ES256 or RSA / RS256, as its header's "alg" says and the JWK
 * allows). On success returns the payload and, when @header is given, the
 * protected header. Checks the signature only, no claim. Bounded: a token
 * over 64 KiB is refused. Errors: MCP_ERROR_INVALID_MESSAGE saying why. */
JsonObject *mcp_jose_verify              (const char       *jws,
                                          JsonObject       *jwk,
                                          JsonObject      **header,
                                          GError          **error);

/* The payload (and header) of a compact JWT, NOT verified: for reading
 * the "exp" of an assertion Plugboard holds, or a token's "cnf". Bounded
 * as above. Errors: MCP_ERROR_INVALID_MESSAGE. */
JsonObject *mcp_jose_peek                (const char       *jwt,
                                          JsonObject      **header,
                                          GError          **error);

/* RFC 7638 thumbprint of a public JWK (EC P-256 or RSA: only the
 * required members are read). Errors: MCP_ERROR_INVALID_MESSAGE when a
 * member is missing or not base64url. */
char       *mcp_jose_jwk_thumbprint      (JsonObject       *jwk,
                                          GError          **error);

/* base64url without padding (RFC 7515 §2) */
char       *mcp_jose_base64url_encode    (const guint8     *data,
                                          gsize             length);
/* NULL when @text is not base64url (padding tolerated). */
guint8     *mcp_jose_base64url_decode    (const char       *text,
                                          gsize            *length);
/* base64url(SHA-256(@text)): DPoP's "ath", PKCE's S256 */
char       *mcp_jose_sha256_base64url    (const char       *text);
/* 16 random bytes (getrandom), base64url: a "jti" */
char       *mcp_jose_random_id           (void);
/* Overwrites then frees a secret string (NULL: nothing) */
void        mcp_jose_free_secret         (char             *secret);

G_END_DECLS
