/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-oauth-client-info.h"
#include "mcp-oauth-tokens.h"

G_BEGIN_DECLS

#define MCP_TYPE_TOKEN_STORE (mcp_token_store_get_type ())

G_DECLARE_FINAL_TYPE (McpTokenStore, mcp_token_store, MCP, TOKEN_STORE, GObject)

/**
 * McpTokenStore:
 *
 * Where OAuth tokens and registered clients live: the Secret Service
 * through libsecret (schema "org.plugboard.Plugboard.OAuth", attributes
 * "server" = server name, "url" = server URL, "kind" = "tokens" | "client",
 * and for a client "issuer" = the authorization server that issued it; the
 * secret is the JSON of McpOAuthTokens / McpOAuthClientInfo). When no
 * Secret Service answers (no session bus, no provider of
 * org.freedesktop.secrets), a file, @fallback_path (default
 * $XDG_DATA_HOME/plugboard/oauth-credentials.json), written atomically with
 * mode 0600; the first record read from it or written to it emits
 * ::fallback-used once and logs one g_message naming the file (never its
 * contents); a lookup that finds nothing says nothing.
 *
 * "backend" property: "secret-service", "file", or "auto" (default: try the
 * Secret Service, fall back to the file).
 */

McpTokenStore      *mcp_token_store_new               (const char     *backend,
                                                       const char     *fallback_path);
/* The store all front ends share (backend "auto", the default path). */
McpTokenStore      *mcp_token_store_get_default       (void);

/* After the first operation: "secret-service" or "file". NULL before. */
const char         *mcp_token_store_get_active_backend (McpTokenStore *self);

/* Tokens. lookup returns NULL with no error when nothing is stored; a stored
 * value that cannot be read is an error (MCP_ERROR_INVALID_MESSAGE), and
 * the caller may overwrite it. */
void                mcp_token_store_lookup_tokens_async  (McpTokenStore        *self,
                                                          const char           *server_name,
                                                          const char           *server_url,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
McpOAuthTokens     *mcp_token_store_lookup_tokens_finish (McpTokenStore        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
void                mcp_token_store_store_tokens_async   (McpTokenStore        *self,
                                                          const char           *server_name,
                                                          const char           *server_url,
                                                          const McpOAuthTokens *tokens,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
gboolean            mcp_token_store_store_tokens_finish  (McpTokenStore        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

/* Registered clients, kept per authorization server (the client's issuer):
 * a client_id is only good at the server that issued it (MCP 2026-07-28,
 * SEP-2352), so a server that moves to another authorization server gets a
 * client of its own there, and one that moves back finds its old one.
 * store keys the client by its "issuer" (none: the record of clients
 * stored before that). lookup_client returns one client of the server,
 * whichever its issuer (for servers with one authorization server);
 * lookup_issuer_client only the one of @issuer, or NULL. */
void                mcp_token_store_lookup_client_async  (McpTokenStore        *self,
                                                          const char           *server_name,
                                                          const char           *server_url,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
McpOAuthClientInfo *mcp_token_store_lookup_client_finish (McpTokenStore        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
void                mcp_token_store_lookup_issuer_client_async  (McpTokenStore        *self,
                                                                 const char           *server_name,
                                                                 const char           *server_url,
                                                                 const char           *issuer,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
McpOAuthClientInfo *mcp_token_store_lookup_issuer_client_finish (McpTokenStore        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
void                mcp_token_store_store_client_async   (McpTokenStore            *self,
                                                          const char               *server_name,
                                                          const char               *server_url,
                                                          const McpOAuthClientInfo *client,
                                                          GCancellable             *cancellable,
                                                          GAsyncReadyCallback       callback,
                                                          gpointer                  user_data);
gboolean            mcp_token_store_store_client_finish  (McpTokenStore        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

/* Sign out: removes the tokens and the registered clients (of every
 * issuer) of one server.
 * Removing what is not there is not an error. */
void                mcp_token_store_clear_async          (McpTokenStore        *self,
                                                          const char           *server_name,
                                                          const char           *server_url,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
gboolean            mcp_token_store_clear_finish         (McpTokenStore        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

G_END_DECLS
