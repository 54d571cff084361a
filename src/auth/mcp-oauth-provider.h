/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-auth-provider.h"
#include "mcp-token-store.h"
#include "mcp-trace.h"

G_BEGIN_DECLS

/* One OAuth request (metadata, registration, token) gets this long unless
 * mcp_oauth_provider_set_request_timeout() says otherwise. */
#define MCP_OAUTH_REQUEST_TIMEOUT_MS 30000

#define MCP_TYPE_OAUTH_PROVIDER (mcp_oauth_provider_get_type ())

G_DECLARE_FINAL_TYPE (McpOAuthProvider, mcp_oauth_provider, MCP, OAUTH_PROVIDER, GObject)

/**
 * McpOAuthProvider:
 *
 * OAuth 2.1 sign-in for one remote MCP server (MCP authorization, revision
 * 2025-11-25), as the McpAuthProvider its HTTP transports ask.
 *
 * - get_authorization(): "Bearer <access token>" once tokens are loaded or
 *   obtained, NULL before (the server's 401 then starts the challenge).
 * - handle_challenge(): on 401 it loads stored tokens if not yet loaded,
 *   else refreshes with the refresh token; on 403 insufficient_scope it
 *   needs a new authorization with the larger scope (step-up). When neither
 *   works and the provider is interactive (an open-URL function is set), it
 *   runs the whole sign-in; otherwise it fails with MCP_ERROR_NEEDS_AUTH.
 *   A 401 while it holds tokens first asks the server's PRM again: when the
 *   tokens' authorization server is no longer among its
 *   authorization_servers (the server moved, SEP-2352), it neither retries
 *   with them nor refreshes there, but signs in at the new one (which gets a
 *   client of its own) or, not interactive, says where the server went.
 * - A timer refreshes tokens one minute before they expire while the
 *   provider lives.
 *
 * The sign-in: discovery (mcp_oauth_discover_async, with the challenge's
 * resource_metadata and the configured authServerMetadataUrl), refusal of
 * an AS without S256, the client identity in the spec's order (configured
 * clientId, a Client ID Metadata Document URL when the AS supports it and
 * one is configured, a client registered at that very AS before (clients
 * are remembered per issuer: a client_id is never shown to another AS),
 * Dynamic Client Registration), PKCE S256 and state from getrandom, a loopback
 * McpOAuthRedirectListener (the configured callbackPort or an ephemeral
 * one; a remembered DCR client's port is reused when free, else the client
 * registers again), the authorization URL handed to the open-URL function,
 * the code exchanged, the tokens and the client stored in McpTokenStore.
 * Nothing is stored unless the whole sign-in succeeded.
 *
 * Errors are MCP_ERROR_NEEDS_AUTH (what failed, the server's name and the
 * URL involved, never a token or secret), MCP_ERROR_TIMEOUT when the
 * browser never came back, G_IO_ERROR_CANCELLED.
 */

/* Called with the authorization URL; the front end opens a browser (or
 * prints it). Must not block. */
typedef void (*McpOAuthOpenUrlFunc) (McpOAuthProvider *provider,
                                     const char       *url,
                                     gpointer          user_data);

/**
 * mcp_oauth_provider_new:
 * @server_name: the configured name (token store key, messages)
 * @server_url: the MCP endpoint URL
 * @oauth_config: (nullable): the server's "oauth" settings object:
 *   "clientId", "callbackPort", "scopes" (array of strings),
 *   "authServerMetadataUrl", "clientMetadataUrl"
 * @store: (nullable): where tokens live; NULL for mcp_token_store_get_default()
 */
McpOAuthProvider *mcp_oauth_provider_new            (const char           *server_name,
                                                     const char           *server_url,
                                                     JsonObject           *oauth_config,
                                                     McpTokenStore        *store);

const char       *mcp_oauth_provider_get_server_url  (McpOAuthProvider    *self);

/* Interactive providers sign in when a challenge needs it; without an
 * open-URL function the provider only uses and refreshes stored tokens. */
void              mcp_oauth_provider_set_open_url_func (McpOAuthProvider    *self,
                                                        McpOAuthOpenUrlFunc  func,
                                                        gpointer             user_data,
                                                        GDestroyNotify       destroy);

/* A pre-registered client's secret (from the keyring or the person); kept
 * in memory and stored with the client after a successful sign-in. */
void              mcp_oauth_provider_set_client_secret (McpOAuthProvider    *self,
                                                        const char          *secret);

/* How long each OAuth request (metadata, registration, token) may take;
 * default MCP_OAUTH_REQUEST_TIMEOUT_MS. The manager sets it from
 * McpLimits (MCP_REQUEST_TIMEOUT_MS). */
void              mcp_oauth_provider_set_request_timeout (McpOAuthProvider *self,
                                                          guint             timeout_ms);
guint             mcp_oauth_provider_get_request_timeout (McpOAuthProvider *self);

/* The trace every OAuth request and every step of a sign-in, refresh or
 * step-up is recorded in (the server's); NULL: none. */
void              mcp_oauth_provider_set_trace       (McpOAuthProvider    *self,
                                                      McpTrace            *trace);

/* How long a sign-in waits for the browser to come back; default 300 s. */
void              mcp_oauth_provider_set_callback_timeout (McpOAuthProvider *self,
                                                           guint             seconds);

/* TRUE when tokens are held (loaded or obtained). Property "signed-in". */
gboolean          mcp_oauth_provider_get_signed_in   (McpOAuthProvider    *self);

/* Loads stored tokens and client once (later calls complete at once).
 * Finishes TRUE when tokens were found. */
void              mcp_oauth_provider_load_async      (McpOAuthProvider    *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          mcp_oauth_provider_load_finish     (McpOAuthProvider    *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);

/* The whole sign-in now, whatever is stored (needs the open-URL function).
 * Uses the last challenge seen (resource_metadata, scope), else asks the
 * server with an unauthenticated POST to learn it. */
void              mcp_oauth_provider_sign_in_async   (McpOAuthProvider    *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          mcp_oauth_provider_sign_in_finish  (McpOAuthProvider    *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);

/* Forgets the tokens and the registered clients, in memory and in the store. */
void              mcp_oauth_provider_sign_out_async  (McpOAuthProvider    *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          mcp_oauth_provider_sign_out_finish (McpOAuthProvider    *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);

G_END_DECLS
