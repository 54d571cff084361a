/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-server-connection.h"

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
 * a call) get it back on demand. */

#define MCP_SERVER_CONNECTION_NEEDS_AUTH_CACHE_US (15 * G_TIME_SPAN_MINUTE)
#define MCP_SERVER_CONNECTION_MAX_BACKOFF_MS      60000
#define MCP_SERVER_CONNECTION_MAX_RECONNECTS      10

McpServerConnection *mcp_server_connection_new             (McpServerConfig     *config);
const char          *mcp_server_connection_get_memo_key    (McpServerConnection *self);
gboolean             mcp_server_connection_is_connecting   (McpServerConnection *self);
gboolean             mcp_server_connection_has_listing     (McpServerConnection *self);

/* What the manager passes on: the environment ${VAR} expands from (NULL:
 * the process's) and the connect timeout when the config sets none. */
void                 mcp_server_connection_set_environ     (McpServerConnection *self,
                                                            const char * const  *environ);
void                 mcp_server_connection_set_connect_timeout (McpServerConnection *self,
                                                            guint                timeout_ms);
/* The first reconnection delay (doubled each time, at most
 * MCP_SERVER_CONNECTION_MAX_BACKOFF_MS); default 1000, tests shorten it. */
void                 mcp_server_connection_set_backoff_base (McpServerConnection *self,
                                                            guint                base_ms);

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
