/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-oauth-metadata.h"
#include "mcp-auth-enums.h"

G_BEGIN_DECLS

/**
 * McpOAuthClientInfo:
 *
 * The identity Plugboard uses at one authorization server: a pre-registered
 * client, a Client ID Metadata Document URL, or a dynamically registered
 * client (RFC 7591). Remembered per server (McpTokenStore) so registration
 * happens once.
 */
typedef enum
{
  MCP_OAUTH_CLIENT_PRE_REGISTERED,
  MCP_OAUTH_CLIENT_METADATA_DOCUMENT,
  MCP_OAUTH_CLIENT_DYNAMIC,
} McpOAuthClientKind;

typedef struct
{
  McpOAuthClientKind  kind;
  char               *issuer;          /* the AS this identity belongs to */
  char               *client_id;
  char               *client_secret;   /* secret; NULL for public clients */
  /* "none", "client_secret_basic" or "client_secret_post". */
  char               *token_endpoint_auth_method;
  /* The redirect URI registered (DCR), e.g. "http://127.0.0.1:4711/callback";
   * NULL when any loopback port will do. */
  char               *redirect_uri;
  gint64              client_secret_expires_at;  /* unix s; 0 = never */
} McpOAuthClientInfo;

void                mcp_oauth_client_info_free    (McpOAuthClientInfo *self);
McpOAuthClientInfo *mcp_oauth_client_info_copy    (const McpOAuthClientInfo *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpOAuthClientInfo, mcp_oauth_client_info_free)

/* For McpTokenStore: to and from a JSON object (the secret included — the
 * store keeps it in the keyring). from_json returns NULL with @error
 * (MCP_ERROR_INVALID_MESSAGE) for a malformed object. */
JsonNode           *mcp_oauth_client_info_to_json   (const McpOAuthClientInfo *self);
McpOAuthClientInfo *mcp_oauth_client_info_from_json (JsonNode                 *node,
                                                     GError                  **error);

/* The token endpoint auth method to use given what the AS supports
 * (token_endpoint_auth_methods_supported; absent means
 * "client_secret_basic" per RFC 8414) and whether there is a secret:
 * without a secret "none"; with one, "client_secret_basic" if supported,
 * else "client_secret_post", else "none". */
const char         *mcp_oauth_pick_token_endpoint_auth_method (const McpOAuthMetadata *metadata,
                                                               gboolean                have_secret);

/**
 * mcp_oauth_register_client_async:
 * @metadata: discovery's result; must have a registration_endpoint
 * @redirect_uri: the loopback redirect URI to register
 * @scope: (nullable): the scope to register
 *
 * Dynamic Client Registration (RFC 7591): POSTs client_name "Plugboard",
 * redirect_uris [@redirect_uri], grant_types authorization_code and
 * refresh_token, response_types code, token_endpoint_auth_method "none"
 * unless the AS supports none of that (then the method
 * mcp_oauth_pick_token_endpoint_auth_method picks for a confidential
 * client), application_type "native", and @scope. Errors
 * (MCP_ERROR_NEEDS_AUTH) carry the AS's "error" / "error_description" and the
 * endpoint URL.
 */
void                mcp_oauth_register_client_async  (SoupSession            *session,
                                                      const McpOAuthMetadata *metadata,
                                                      const char             *redirect_uri,
                                                      const char             *scope,
                                                      GCancellable           *cancellable,
                                                      GAsyncReadyCallback     callback,
                                                      gpointer                user_data);
McpOAuthClientInfo *mcp_oauth_register_client_finish (GAsyncResult           *result,
                                                      GError                **error);

G_END_DECLS
