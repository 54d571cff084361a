/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-server-connection.h"
#include "mcp-server-manager.h"
#include "mcp-token-store.h"

G_BEGIN_DECLS

/* Between McpServerManager and McpServerConnection only.
 *
 * Besides the public properties a connection has a read-only boolean
 * property "connecting" (an attempt is under way: what the manager counts
 * for its own "connecting") and two signals the manager listens to:
 *  - memo-dropped: the session ended by itself (the server exited, the
 *    network went away); the listings are gone and the manager drops the
 *    memo entry with them.
 *  - listing-used: the tool listing was (re)made or used, for the manager's
 *    LRU of listings.
 *
 * A listing the LRU evicted (mcp_server_connection_drop_listing) leaves the
 * state as it is; ensure_connected_async on a connected connection without a
 * listing lists again before it finishes, so callers (the tool pool before
 * a call) get it back on demand — and so does a kind of it that went stale
 * (ttlMs, or a private listing under another access token).
 *
 * Authorization contexts: a sign-in reconnects (the manager) and a
 * sign-out closes, so every listing, private or public, is made again
 * under the new token; a token that changes while connected (a refresh, a
 * step-up) makes only the private listings stale. */

#define MCP_SERVER_CONNECTION_NEEDS_AUTH_CACHE_US (15 * G_TIME_SPAN_MINUTE)
#define MCP_SERVER_CONNECTION_MAX_BACKOFF_MS      60000
#define MCP_SERVER_CONNECTION_MAX_RECONNECTS      10

McpServerConnection *mcp_server_connection_new             (McpServerConfig     *config);
const char          *mcp_server_connection_get_memo_key    (McpServerConnection *self);
/* The manager's settings changed without changing what the connection
 * is (an equal memo key: the same entry moved to another scope or file,
 * or a server being tried that was saved): the connection goes on with
 * @config, and notifies "config". */
void                 mcp_server_connection_replace_config  (McpServerConnection *self,
                                                            McpServerConfig     *config);
gboolean             mcp_server_connection_is_connecting   (McpServerConnection *self);
gboolean             mcp_server_connection_has_listing     (McpServerConnection *self);

/* What the manager passes on: the environment ${VAR} expands from (NULL:
 * the process's) and the connect timeout when the config sets none. */
void                 mcp_server_connection_set_environ     (McpServerConnection *self,
                                                            const char * const  *environ);
void                 mcp_server_connection_set_connect_timeout (McpServerConnection *self,
                                                            guint                timeout_ms);
/* The limits the manager holds (its properties): a tool call's timeout
 * when the config sets none (0: none), each HTTP request's timeout of a
 * remote transport made from now on, and the largest tool output kept. */
void                 mcp_server_connection_set_limits      (McpServerConnection *self,
                                                            guint                tool_timeout_ms,
                                                            guint                request_timeout_ms,
                                                            guint                max_output_tokens);
/* The first reconnection delay (doubled each time, at most
 * MCP_SERVER_CONNECTION_MAX_BACKOFF_MS); default 1000, tests shorten it. */
void                 mcp_server_connection_set_backoff_base (McpServerConnection *self,
                                                            guint                base_ms);

/* OAuth (remote servers): the store the connection's McpOAuthProvider
 * keeps tokens in (NULL: mcp_token_store_get_default()) and the needs-auth
 * cache file (NULL: the default path). Set before the first attempt. */
void                 mcp_server_connection_set_token_store (McpServerConnection *self,
                                                            McpTokenStore       *store);
void                 mcp_server_connection_set_needs_auth_cache_path (McpServerConnection *self,
                                                            const char          *path);
/* The needs-auth cache key: the name and the URL without user info, query
 * or fragment (the cache file must not hold secrets). NULL for servers
 * without OAuth (stdio, IDE). */
const char          *mcp_server_connection_get_needs_auth_key (McpServerConnection *self);

/* While TRUE (a sign-in is under way), attempts wait: ensure_connected
 * queues its caller and starts nothing, so that no second 401 reaches the
 * interactive provider. FALSE starts the attempt the waiting callers need. */
void                 mcp_server_connection_set_signing_in  (McpServerConnection *self,
                                                            gboolean             signing_in);
gboolean             mcp_server_connection_get_signing_in  (McpServerConnection *self);
/* After a sign-out and a close: state needs-auth (disabled stays disabled)
 * with a message saying so. */
void                 mcp_server_connection_set_signed_out  (McpServerConnection *self);

/* One server-to-client request handler of the manager (refcounted: a client
 * made with it keeps it, and its data, until the client goes). */
typedef struct
{
  char                 *method;
  JsonObject           *capabilities;  /* nullable */
  McpServerRequestFunc  func;
  gpointer              data;
  GDestroyNotify        destroy;
} McpServerRequestHandler;

McpServerRequestHandler *mcp_server_request_handler_new   (const char           *method,
                                                           JsonObject           *capabilities,
                                                           McpServerRequestFunc  func,
                                                           gpointer              data,
                                                           GDestroyNotify        destroy);
McpServerRequestHandler *mcp_server_request_handler_ref   (McpServerRequestHandler *handler);
void                     mcp_server_request_handler_unref (McpServerRequestHandler *handler);

/* The manager's table (method → McpServerRequestHandler), shared: each
 * client the connection makes from then on declares the merged capabilities
 * of the handlers in it and answers their methods. */
void                 mcp_server_connection_set_request_handlers (McpServerConnection *self,
                                                            GHashTable          *handlers);

/* TRUE: close, state disabled, never connected. FALSE: state pending (the
 * manager then queues it). */
void                 mcp_server_connection_set_disabled    (McpServerConnection *self,
                                                            gboolean             disabled);
void                 mcp_server_connection_drop_listing    (McpServerConnection *self);

/* Cancels any attempt or pending reconnection and closes the client (stdio:
 * SIGINT, SIGTERM, SIGKILL); finishes when it is closed. */
void                 mcp_server_connection_close_async     (McpServerConnection *self,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
gboolean             mcp_server_connection_close_finish    (McpServerConnection *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);

G_END_DECLS
