/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @n_bytes from the system's cryptographic random source (getrandom(2),
 * blocking until the pool is ready; never g_random), base64url without
 * padding. NULL with @error only if getrandom fails. */
char *mcp_oauth_random_string       (gsize         n_bytes,
                                     GError      **error);

/* A PKCE code verifier (RFC 7636: 43–128 characters of [A-Za-z0-9-._~]);
 * 32 random bytes give 43. */
char *mcp_oauth_pkce_verifier_new   (GError      **error);

/* BASE64URL(SHA256(verifier)) without padding: the S256 code challenge. */
char *mcp_oauth_pkce_challenge      (const char   *verifier);

/* base64url without padding of @data. */
char *mcp_oauth_base64url_encode    (const guint8 *data,
                                     gsize         len);

G_END_DECLS
