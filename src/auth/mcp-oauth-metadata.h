/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/**
 * McpOAuthMetadata:
 *
 * What discovery learnt about one MCP server's authorization (MCP
 * authorization, revision 2025-11-25): its Protected Resource Metadata
 * (RFC 9728) and its authorization server's metadata (RFC 8414 / OpenID
 * Connect Discovery). A plain struct, immutable once returned; free with
 * mcp_oauth_metadata_free().
 *
 * Strings are NULL when the document did not carry them; string arrays are
 * NULL when absent (never empty arrays standing for "absent").
 */
typedef struct
{
  /* The MCP server URL discovery started from. */
  char     *server_url;
  /* The canonical resource URI for the RFC 8707 `resource` parameter: the
   * PRM's "resource" when it had one, else the server URL without fragment. */
  char     *resource;

  /* Where the PRM was fetched from, or NULL when no PRM was found (a
   * 2025-03-26 server: the authorization server is the server's origin). */
  char     *resource_metadata_url;
  char    **authorization_servers;      /* PRM authorization_servers */
  char    **resource_scopes_supported;  /* PRM scopes_supported */

  /* The authorization server. */
  char     *issuer;                     /* the AS URL chosen (first of the PRM's list) */
  /* Where its metadata was found, or NULL when none was found and the
   * 2025-03-26 default endpoints (/authorize, /token, /register at the
   * issuer's origin) are in use. */
  char     *auth_server_metadata_url;
  char     *authorization_endpoint;
  char     *token_endpoint;
  char     *registration_endpoint;      /* NULL: no DCR */
  char    **code_challenge_methods_supported;
  char    **token_endpoint_auth_methods_supported;
  char    **grant_types_supported;
  char    **scopes_supported;           /* the AS's scopes_supported */
  gboolean  client_id_metadata_document_supported;
  /* The AS metadata's own "issuer" as the document spelt it, or NULL (no
   * metadata found, or none in it). */
  char     *metadata_issuer;
  /* RFC 9207 §2.3: the AS puts "iss" in every authorization response. */
  gboolean  authorization_response_iss_parameter_supported;
  /* RFC 8414 / RFC 9449 §5.1: what the AS accepts for private_key_jwt
   * assertions and DPoP proofs; NULL when absent. */
  char    **token_endpoint_auth_signing_alg_values_supported;
  char    **dpop_signing_alg_values_supported;
} McpOAuthMetadata;

void              mcp_oauth_metadata_free   (McpOAuthMetadata *self);
McpOAuthMetadata *mcp_oauth_metadata_copy   (const McpOAuthMetadata *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpOAuthMetadata, mcp_oauth_metadata_free)

/* TRUE when code_challenge_methods_supported lists "S256". (Absent list:
 * FALSE — the spec requires the client to refuse such a server.) */
gboolean mcp_oauth_metadata_supports_s256 (const McpOAuthMetadata *self);

/* The issuer an authorization response's "iss" must equal (RFC 9207,
 * 2026-07-28 "Authorization Response Validation"): the metadata's "issuer",
 * else the authorization server URL discovery chose. */
const char *mcp_oauth_metadata_get_expected_issuer (const McpOAuthMetadata *self);

/* TRUE when the AS's scopes_supported lists "offline_access" (2026-07-28,
 * "Refresh Tokens": the only case where a client may ask for it). */
gboolean mcp_oauth_metadata_offers_offline_access (const McpOAuthMetadata *self);

/* The scope to request: @challenge_scope (the WWW-Authenticate "scope") when
 * non-NULL, else the PRM's scopes_supported joined by spaces, else NULL
 * (omit the parameter). */
char    *mcp_oauth_metadata_pick_scope    (const McpOAuthMetadata *self,
                                           const char             *challenge_scope);

/**
 * mcp_oauth_discover_async:
 * @session: the session to fetch with
 * @server_url: the MCP server's URL
 * @resource_metadata_url: (nullable): the WWW-Authenticate "resource_metadata"
 * @auth_server_metadata_url: (nullable): a configured "authServerMetadataUrl";
 *   when set it is fetched instead of the RFC 8414 / OIDC locations
 *
 * Discovery in the spec's order:
 * 1. PRM from @resource_metadata_url, else from the path-aware
 *    "/.well-known/oauth-protected-resource/<path>" of @server_url, then the
 *    root "/.well-known/oauth-protected-resource". No PRM at all: the
 *    authorization server is @server_url's origin (2025-03-26 servers).
 * 2. The first authorization server of the PRM; its metadata from, for an
 *    issuer with path /p: "/.well-known/oauth-authorization-server/p",
 *    "/.well-known/openid-configuration/p", "/p/.well-known/openid-configuration";
 *    without path: "/.well-known/oauth-authorization-server",
 *    "/.well-known/openid-configuration".
 * 3. No metadata at any location and no PRM: the 2025-03-26 default
 *    endpoints at the origin.
 *
 * A PRM whose "resource" is not the resource its URL was built from (RFC
 * 9728 §3.3) stops discovery with an error naming both: the resource must
 * equal @server_url, or, for a PRM at a well-known location, the resource
 * that location stands for (the origin for the root one). Compared in
 * canonical form: scheme and host lower-case, default port dropped, no
 * fragment, an empty path and "/" alike.
 *
 * Authorization server metadata whose "issuer" is not identical to the
 * issuer its well-known URL was built from (RFC 8414 §3.3: the string the
 * PRM named, trailing slash and all; not normalised) stops discovery with
 * an error naming both, before anything uses its endpoints. Metadata from
 * a configured @auth_server_metadata_url, and that of a server without PRM
 * (2025-03-26: fetched from its origin, no issuer named), are not held to
 * this.
 *
 * Issue 20: authorization server metadata without "issuer" is refused
 * (RFC 8414 §2: REQUIRED). Every URL a server names passes the URL policy
 * (mcp-url-policy.h) before it is fetched or handed on: the challenge's
 * resource_metadata, the PRM's authorization server, the metadata's issuer,
 * authorization_endpoint, token_endpoint and registration_endpoint, and the
 * 2025-03-26 default endpoints: https, or http to a loopback host only.
 * A refusal is MCP_ERROR_NEEDS_AUTH naming the member and the reason.
 *
 * Every fetch is a GET with "Accept: application/json" and
 * "MCP-Protocol-Version: 2025-11-25"; 404 and other 4xx move on to the next
 * location, a network error or a malformed document stops with an error.
 * Errors are MCP_ERROR_NEEDS_AUTH (G_IO_ERROR_CANCELLED on cancel) and say
 * which URLs were tried and what each answered.
 */
void              mcp_oauth_discover_async  (SoupSession          *session,
                                             const char           *server_url,
                                             const char           *resource_metadata_url,
                                             const char           *auth_server_metadata_url,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
McpOAuthMetadata *mcp_oauth_discover_finish (GAsyncResult         *result,
                                             GError              **error);

/* Step 1 of discovery only: the PRM, from the same locations, checked the
 * same way (MCP 2026-07-28: a 401 with tokens asks it again to learn
 * whether the server now names another authorization server). The result's
 * resource_metadata_url is NULL when no PRM was found; the authorization
 * server fields are not filled in. */
void              mcp_oauth_discover_resource_async  (SoupSession          *session,
                                                      const char           *server_url,
                                                      const char           *resource_metadata_url,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
McpOAuthMetadata *mcp_oauth_discover_resource_finish (GAsyncResult         *result,
                                                      GError              **error);

G_END_DECLS
