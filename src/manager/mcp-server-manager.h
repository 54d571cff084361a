/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-oauth-provider.h"
#include "mcp-roots.h"
#include "mcp-server-connection.h"
#include "mcp-settings.h"
#include "mcp-token-store.h"

G_BEGIN_DECLS

#define MCP_DEFAULT_LOCAL_BATCH_SIZE   3
#define MCP_DEFAULT_REMOTE_BATCH_SIZE  20
#define MCP_DEFAULT_CONNECT_TIMEOUT_MS 30000

#define MCP_TYPE_SERVER_MANAGER (mcp_server_manager_get_type ())

G_DECLARE_FINAL_TYPE (McpServerManager, mcp_server_manager, MCP, SERVER_MANAGER, GObject)

/**
 * McpServerManager:
 *
 * A GListModel of McpServerConnection, one per effective server of the
 * settings it is given, in the settings' order.
 *
 * set_configs() takes the effective servers (a GListModel of
 * McpServerConfig, e.g. from McpSettings) and reconciles: connections are
 * memoized by mcp_server_config_dup_memo_key(); an unchanged server keeps
 * its connection, a changed one is closed and replaced, a removed one is
 * closed. New enabled servers are connected in batches: at most
 * local-batch-size stdio servers and remote-batch-size remote servers
 * connecting at once (MCP_SERVER_CONNECTION_BATCH_SIZE,
 * MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE; defaults 3 and 20), each bounded
 * by connect-timeout (MCP_TIMEOUT, default 30 s). When a connection
 * closes, its cached listings and its memo entry go together. A remote
 * transport that closed after three network errors is reconnected with
 * backoff (1 s, 2 s, 4 s … at most 60 s); a stdio server that exits becomes
 * failed with its exit status and last stderr lines.
 *
 * Properties: local-batch-size, remote-batch-size, connect-timeout (ms),
 * tool-timeout, request-timeout, max-output-tokens and
 * oauth-request-timeout (the limits: defaults here; McpProject sets them
 * from its McpLimits, the one reader of the environment variables),
 * connecting (guint, read-only: how many are connecting now — what the
 * batching tests watch), environ (GStrv used to expand ${VAR}; NULL: the
 * process's), token-store (McpTokenStore, construct-only; NULL:
 * mcp_token_store_get_default()), needs-auth-cache-path (construct-only;
 * NULL: $XDG_CACHE_HOME/plugboard/mcp-needs-auth-cache.json).
 *
 * A remote server that answered 401 (no stored or refreshed token would
 * do) is needs-auth and goes into the needs-auth cache file; while it is
 * there (15 minutes) the manager does not ask it again, in this process or
 * the next one: it is needs-auth at once, without a request. A connect or
 * a sign-in that succeeds takes it out.
 */
McpServerManager    *mcp_server_manager_new              (void);

void                 mcp_server_manager_set_configs      (McpServerManager *self,
                                                          GListModel       *configs);
/* Sets each connection's "approval" from @settings (those the configs
 * came from): call it after set_configs() and whenever the settings
 * change. A connection notifies only when its approval changed. */
void                 mcp_server_manager_update_approvals (McpServerManager *self,
                                                          McpSettings      *settings);
McpServerConnection *mcp_server_manager_lookup           (McpServerManager *self,
                                                          const char       *name);
guint                mcp_server_manager_get_connecting   (McpServerManager *self);

/* Finishes when no server is pending any more (each connected, failed,
 * needs-auth or disabled). */
void                 mcp_server_manager_wait_settled_async  (McpServerManager    *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean             mcp_server_manager_wait_settled_finish (McpServerManager    *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);

/* Person's actions. Disabling closes the connection; enabling connects. */
void                 mcp_server_manager_set_server_enabled (McpServerManager *self,
                                                            const char       *name,
                                                            gboolean          enabled);
void                 mcp_server_manager_close_async      (McpServerManager    *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean             mcp_server_manager_close_finish     (McpServerManager    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

/* OAuth sign-in to the remote server @name: @open_url is called with the
 * authorization URL (the front end opens a browser); then the server is
 * taken out of the needs-auth cache and reconnected. Finishes after that
 * reconnection: FALSE when the sign-in failed, or when it succeeded but the
 * server still did not connect (the message says both). Errors for unknown
 * names and servers without OAuth (stdio, IDE) say so. */
void                 mcp_server_manager_sign_in_async    (McpServerManager    *self,
                                                          const char          *name,
                                                          McpOAuthOpenUrlFunc  open_url,
                                                          gpointer             open_url_data,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean             mcp_server_manager_sign_in_finish   (McpServerManager    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

/* Forgets the server's tokens and registered client and disconnects it; it
 * is needs-auth until the next sign-in. */
void                 mcp_server_manager_sign_out_async   (McpServerManager    *self,
                                                          const char          *name,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean             mcp_server_manager_sign_out_finish  (McpServerManager    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

/**
 * McpServerRequestFunc:
 * @connection: the server asking
 * @method: e.g. "elicitation/create", "sampling/createMessage", "roots/list"
 * @params: (nullable): the request's params
 * @reply: (transfer full): answer with g_task_return_pointer (reply,
 *   JsonNode *result, json_node_unref), or an error: an MCP_JSONRPC_ERROR
 *   (its code and message go back to the server), any other error becomes
 *   -32603; G_IO_ERROR_CANCELLED when the server cancelled the request
 *   (g_task_get_cancellable (reply) is cancelled then).
 *
 * A front end's answer to a request a server sends to the client.
 */
typedef void (*McpServerRequestFunc) (McpServerConnection *connection,
                                      const char          *method,
                                      JsonObject          *params,
                                      GTask               *reply,
                                      gpointer             user_data);

/**
 * mcp_server_manager_set_request_handler:
 * @method: the server-to-client request method
 * @capabilities: (nullable): what to declare for it in initialize's
 *   "capabilities", merged with the others (e.g. {"elicitation": {"form":
 *   {}, "url": {}}}); a capability is declared only while its handler is set
 * @func: (nullable): NULL removes the handler (the method is then answered
 *   -32601 "Method not found")
 *
 * Applies to every connection made after the call (servers connected
 * already get it at their next connect: declared capabilities cannot change
 * within a session).
 */
void                 mcp_server_manager_set_request_handler (McpServerManager     *self,
                                                             const char           *method,
                                                             JsonObject           *capabilities,
                                                             McpServerRequestFunc  func,
                                                             gpointer              user_data,
                                                             GDestroyNotify        destroy);

/* Answers roots/list from @roots (the server's own list,
 * mcp_roots_dup_json()) and declares {"roots": {"listChanged": true}};
 * sends notifications/roots/list_changed to a connected server whose roots
 * change. NULL stops answering (roots/list is then -32601). Like
 * mcp_server_manager_set_request_handler(), it applies from each server's
 * next connect. */
void                 mcp_server_manager_set_roots           (McpServerManager     *self,
                                                             McpRoots             *roots);
McpRoots            *mcp_server_manager_get_roots           (McpServerManager     *self);

G_END_DECLS
