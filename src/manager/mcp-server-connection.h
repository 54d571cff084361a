/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-client.h"
#include "mcp-log-entry.h"
#include "mcp-oauth-provider.h"
#include "mcp-server-config.h"
#include "mcp-settings.h"
#include "mcp-skill.h"
#include "mcp-ui-resource.h"
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_SERVER_STATE_PENDING,     /* waiting for its batch, or connecting */
  MCP_SERVER_STATE_CONNECTED,
  MCP_SERVER_STATE_FAILED,      /* see the error property */
  MCP_SERVER_STATE_NEEDS_AUTH,  /* a 401 no stored token answered; cached 15 minutes */
  MCP_SERVER_STATE_DISABLED,    /* "enabled": false, or not approved yet */
} McpServerState;

#define MCP_TYPE_SERVER_CONNECTION (mcp_server_connection_get_type ())

G_DECLARE_FINAL_TYPE (McpServerConnection, mcp_server_connection, MCP, SERVER_CONNECTION, GObject)

/**
 * McpServerConnection:
 *
 * One configured server, live: its settings, its state and, when connected,
 * its McpClient and what it lists. Owned by McpServerManager; the UI binds
 * to its properties.
 *
 * Properties (read-only, notified on change): config (McpServerConfig),
 * name, state (McpServerState as int), error (GError boxed: why failed /
 * needs-auth; NULL otherwise), client (McpClient, NULL unless connected),
 * tools (GListModel of McpTool, empty unless connected), resources,
 * resource-templates, prompts (GListModels of McpResource,
 * McpResourceTemplate, McpPrompt; empty unless connected, and when the server
 * does not offer them; refreshed on its list_changed; dropped with the tools
 * by the manager's LRU). The listings are the cache the 2026-07-28
 * revision's ttlMs and cacheScope speak of: ensure_connected_async lists a
 * kind again before it answers when its ttlMs ran out, or when it is
 * private and the access token changed since (see
 * mcp_client_list_get_freshness()); nothing is listed again on a timer.
 * A listing made again that is the same leaves its model untouched.
 * stderr-tail (GStrv: the last lines a stdio server
 * wrote, for "why did it fail"), log, log-level; approval (McpApproval:
 * the person's decision on a project server, as the settings hold it, kept
 * up to date by mcp_server_manager_update_approvals(); not-needed for the
 * servers of other scopes).
 *
 * Signals: tools-changed — the tool listing was refreshed;
 * resource-updated (const char *uri) — notifications/resources/updated;
 * task-status (McpTask *) — notifications/tasks/status.
 */
McpServerConfig *mcp_server_connection_get_config      (McpServerConnection *self);
const char      *mcp_server_connection_get_name        (McpServerConnection *self);
McpServerState   mcp_server_connection_get_state       (McpServerConnection *self);
McpApproval      mcp_server_connection_get_approval    (McpServerConnection *self);
const GError    *mcp_server_connection_get_error       (McpServerConnection *self);
McpClient       *mcp_server_connection_get_client      (McpServerConnection *self);
GListModel      *mcp_server_connection_get_tools       (McpServerConnection *self);
GListModel      *mcp_server_connection_get_resources   (McpServerConnection *self);
GListModel      *mcp_server_connection_get_resource_templates (McpServerConnection *self);
GListModel      *mcp_server_connection_get_prompts     (McpServerConnection *self);
GStrv            mcp_server_connection_dup_stderr_tail (McpServerConnection *self);
/* The OAuth provider of a remote server (http, sse, ws), made from the
 * config's name, expanded url and "oauth" object on first use, kept across
 * reconnects; NULL for stdio and IDE servers or a config that does not
 * expand. Not interactive: McpServerManager's sign-in sets its open-URL
 * function for the duration. */
McpOAuthProvider *mcp_server_connection_get_oauth_provider (McpServerConnection *self);
/* How long a tool call may take: the config's toolTimeout, or the
 * manager's tool-timeout (0: no limit). */
guint            mcp_server_connection_get_tool_timeout (McpServerConnection *self);
/* The largest tool output kept (the manager's max-output-tokens, in
 * characters), for mcp_tool_result_process_async(). */
gsize            mcp_server_connection_get_max_output_characters (McpServerConnection *self);

/* The server's log: a GListModel of McpLogEntry, oldest first, at most
 * MCP_SERVER_CONNECTION_LOG_MAX entries (the oldest go first): stderr lines
 * of a stdio server as they arrive, every notification the server sends
 * (method and compact params, at most 2000 characters) except
 * notifications/message, which is an entry of its own with its level and
 * logger (MCP_LOG_ENTRY_MESSAGE, "level logger: data"), and each state
 * change with its reason. Kept across reconnects. Property "log". */
#define MCP_SERVER_CONNECTION_LOG_MAX 2000

/* What went over the wire with the server (McpTrace: a GListModel of
 * McpTraceEntry): every message both ways, HTTP exchanges, SSE events,
 * stderr, the transport's events and state changes, secrets masked. Kept
 * across reconnects, bounded by the manager's trace-kib. */
McpTrace        *mcp_server_connection_get_trace       (McpServerConnection *self);
GListModel      *mcp_server_connection_get_log         (McpServerConnection *self);

/* Connected already, or connect now (a memo dropped by a close, a remote
 * server that gave up): finishes when the state is connected, or fails with
 * the reason. Concurrent calls share one attempt. When connected, what of
 * the listing is stale (its ttlMs ran out, or it is private and was
 * fetched under another access token) is listed again first. */
void             mcp_server_connection_ensure_connected_async  (McpServerConnection *self,
                                                                GCancellable        *cancellable,
                                                                GAsyncReadyCallback  callback,
                                                                gpointer             user_data);
gboolean         mcp_server_connection_ensure_connected_finish (McpServerConnection *self,
                                                                GAsyncResult        *result,
                                                                GError             **error);

/* Closes the client and connects again with a new session (for an expired
 * HTTP session, or the person's "Reconnect"). */
void             mcp_server_connection_reconnect_async  (McpServerConnection *self,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean         mcp_server_connection_reconnect_finish (McpServerConnection *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

/* logging/setLevel on the server, and again after every reconnect. @level:
 * one of mcp_client_get_log_levels(). Fails with MCP_ERROR_UNSUPPORTED when
 * the server does not declare logging. The level is kept (property
 * "log-level") only once the server accepted it. The server's
 * notifications/message go to the log (mcp_server_connection_get_log())
 * with their level and logger. */
void             mcp_server_connection_set_log_level_async  (McpServerConnection *self,
                                                             const char          *level,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean         mcp_server_connection_set_log_level_finish (McpServerConnection *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);
/* NULL until a level was set */
const char      *mcp_server_connection_get_log_level        (McpServerConnection *self);

/* After a request failed with MCP_ERROR_SESSION_EXPIRED (the server's 404
 * to a request that carried the session): a new session, logged, its
 * listing made; finishes with mcp_server_connection_reconnect_finish().
 * The caller retries its request once in it. */
void             mcp_server_connection_renew_session_async  (McpServerConnection *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);

/* resources/subscribe (@subscribe TRUE) or unsubscribe @uri; subscriptions
 * are kept and made again after every reconnect. Each
 * notifications/resources/updated emits "resource-updated" (const char
 * *uri) on the connection. MCP_ERROR_UNSUPPORTED when the server does not
 * declare resources.subscribe. */
void             mcp_server_connection_subscribe_async      (McpServerConnection *self,
                                                             const char          *uri,
                                                             gboolean             subscribe,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean         mcp_server_connection_subscribe_finish     (McpServerConnection *self,
                                                             GAsyncResult        *result,
                                                             GError             **error);
gboolean         mcp_server_connection_is_subscribed        (McpServerConnection *self,
                                                             const char          *uri);

typedef enum
{
  MCP_UI_READ_FLAGS_NONE   = 0,
  MCP_UI_READ_FLAGS_RELOAD = 1 << 0,  /* read again even when cached */
} McpUiReadFlags;

/* MCP Apps: the interface @uri (a ui:// URI a tool names) through
 * resources/read, connecting first when needed. Cached per connection:
 * for the result's ttlMs when it gives one (0: never cached), else until
 * the server's resource or tool list changes or the session ends. Reads
 * of one URI at the same time share one request. */
void             mcp_server_connection_read_ui_resource_async  (McpServerConnection *self,
                                                                const char          *uri,
                                                                McpUiReadFlags       flags,
                                                                GCancellable        *cancellable,
                                                                GAsyncReadyCallback  callback,
                                                                gpointer             user_data);
McpUiResource   *mcp_server_connection_read_ui_resource_finish (McpServerConnection *self,
                                                                GAsyncResult        *result,
                                                                GError             **error);

const char      *mcp_server_state_to_string             (McpServerState       state);

/* Why the server's last tools/list failed (it then has no tools until it
 * says its list changed), or NULL. */
const GError        *mcp_server_connection_get_tools_error (McpServerConnection *self);

/* The transport the session runs over, or the last attempt ran over: the
 * settings' kind, or MCP_TRANSPORT_KIND_SSE when a "type": "http" server
 * refused Streamable HTTP (400, 404 or 405 to the initialize POST) and
 * the legacy HTTP+SSE transport was used instead. */
McpTransportKind     mcp_server_connection_get_active_transport (McpServerConnection *self);
/* Why the transport in use is not the one of the settings, e.g. “the
 * server refused Streamable HTTP: HTTP 404”; NULL when it is. */
const char          *mcp_server_connection_get_transport_fallback (McpServerConnection *self);
/* The transport in use for people: “legacy HTTP+SSE (the server refused
 * Streamable HTTP: HTTP 404)”, “Streamable HTTP”, “stdio”… */
char                *mcp_server_connection_dup_transport_description (McpServerConnection *self);

/* Skills over MCP (SEP-2640, mcp-server-connection-skills.c): connecting
 * first when needed, then as mcp_skills_list_async(), mcp_skill_get_async(),
 * mcp_skill_load_async() and mcp_skill_fetch_file_async() do, errors
 * naming the server. Nothing of a skill is read until it is loaded. */
gboolean             mcp_server_connection_offers_skills       (McpServerConnection *self);
void                 mcp_server_connection_list_skills_async   (McpServerConnection *self,
                                                                GCancellable        *cancellable,
                                                                GAsyncReadyCallback  callback,
                                                                gpointer             user_data);
GPtrArray           *mcp_server_connection_list_skills_finish  (McpServerConnection *self,
                                                                GAsyncResult        *result,
                                                                GError             **error);
void                 mcp_server_connection_get_skill_async     (McpServerConnection *self,
                                                                const char          *uri,
                                                                GCancellable        *cancellable,
                                                                GAsyncReadyCallback  callback,
                                                                gpointer             user_data);
McpSkill            *mcp_server_connection_get_skill_finish    (McpServerConnection *self,
                                                                GAsyncResult        *result,
                                                                GError             **error);
/* @uri NULL: the skill's SKILL.md (a load, frontmatter checked) */
void                 mcp_server_connection_read_skill_async    (McpServerConnection *self,
                                                                McpSkill            *skill,
                                                                const char          *uri,
                                                                GCancellable        *cancellable,
                                                                GAsyncReadyCallback  callback,
                                                                gpointer             user_data);
GBytes              *mcp_server_connection_read_skill_finish   (McpServerConnection *self,
                                                                GAsyncResult        *result,
                                                                GError             **error);

G_END_DECLS
