/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-jose.h"

G_BEGIN_DECLS

/* Shared by mcp-jose.c (keys, signing) and mcp-jose-verify.c. */

/* Compact JWS are refused above this size (RFC 7515 sets none). */
#define MCP_JOSE_MAX_TOKEN_SIZE (64 * 1024)

/* base64url of an unsigned big-endian integer: @pad_to > 0 left-pads it
 * to that many bytes, 0 drops leading zeros. NULL when it does not fit. */
char *mcp_jose_encode_integer (const guint8 *data,
                               gsize         size,
                               gsize         pad_to);
/* base64url of @object written as compact JSON */
char *mcp_jose_encode_json    (JsonObject   *object);

G_END_DECLS
