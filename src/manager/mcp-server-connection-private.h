/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-ide-lock.h"
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
/* What mcp_server_manager_update_approvals() found in the settings;
 * notifies "approval" only when it changed. */
void                 mcp_server_connection_set_approval    (McpServerConnection *self,
                                                            McpApproval          approval);
gboolean             mcp_server_connection_has_listing     (McpServerConnection *self);

/* What the manager passes on: the environment ${VAR} expands from (NULL:
 * the process's) and the connect timeout when the config sets none. */
/* The secrets of the attempt under way known (and given to the trace). */
void                 mcp_server_connection_ensure_secrets  (McpServerConnection *self);
void                 mcp_server_connection_set_environ     (McpServerConnection *self,
                                                            const char * const  *environ);
void                 mcp_server_connection_set_connect_timeout (McpServerConnection *self,
                                                            guint                timeout_ms);
/* The limits the manager holds (its properties): a tool call's timeout
 * when the config sets none (0: none), each HTTP request's timeout of a
 * remote transport made from now on, the largest tool output kept, and
 * each OAuth request's timeout (its provider's, now and later). */
void                 mcp_server_connection_set_limits      (McpServerConnection *self,
                                                            guint                tool_timeout_ms,
                                                            guint                request_timeout_ms,
                                                            guint                max_output_tokens,
                                                            guint                oauth_request_timeout_ms);
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

/* ------------------------------------------------------------------------ */
/* Between the parts of McpServerConnection only                            */
/*
 * mcp-server-connection.c               the object: properties, signals,
 *                                       state, getters
 * mcp-server-connection-limits.c        what the manager passes on:
 *                                       environment, timeouts, limits
 * mcp-server-connection-attempt.c       one connection attempt, from
 *                                       start to connected or failed, and
 *                                       the end of a session
 * mcp-server-connection-transport.c     the transport a config describes
 *                                       (stdio, remote with OAuth, IDE)
 * mcp-server-connection-reconnect.c     ensure_connected, reconnect and
 *                                       the backoff after network failures
 * mcp-server-connection-close.c         disable, close, shut down
 * mcp-server-connection-listing.c       the listings and their cache
 * mcp-server-connection-auth.c          OAuth: the provider, needs-auth,
 *                                       sign-in and sign-out
 * mcp-server-connection-log.c           secrets masked, the log, the
 *                                       stderr tail, notifications
 * mcp-server-connection-requests.c      server-to-client request handlers
 * mcp-server-connection-subscriptions.c the log level and subscriptions,
 *                                       kept across reconnects
 */

/* What a listing lists, in this order. */
typedef enum
{
  LIST_TOOLS              = 1 << 0,
  LIST_RESOURCES          = 1 << 1,
  LIST_RESOURCE_TEMPLATES = 1 << 2,
  LIST_PROMPTS            = 1 << 3,
  LIST_ALL                = 0xf,
} ListKind;

#define N_LIST_KINDS 4

/* How long one kind's listing may be used (the 2026-07-28 revision's
 * ttlMs and cacheScope; see mcp_client_list_get_freshness()). */
typedef struct
{
  gint64         fresh_until;    /* monotonic µs; MCP_LIST_FRESH_UNTIL_CHANGED */
  McpCacheScope  scope;
  char          *authorization;  /* a digest of the Authorization it was listed with; NULL: none */
  GError        *error;          /* why the last listing failed; NULL: it did not */
} ListCache;

struct _McpServerConnection
{
  GObject          parent_instance;

  /* owned */
  McpServerConfig *config;
  /* What the last connect found the server to speak: the next connect (a
   * reconnect, a restarted process of the same settings) goes straight to
   * it, and probes again when that fails. */
  McpProtocolEra   known_era;
  char            *memo_key;
  char           **environ;
  guint            connect_timeout;
  guint            tool_timeout;        /* 0: none, when the config sets none */
  guint            request_timeout;     /* each HTTP request of a remote transport */
  guint            max_output_tokens;
  guint            oauth_request_timeout; /* each OAuth request of its provider */
  guint            backoff_base;
  McpTokenStore   *token_store;           /* NULL: the default */
  char            *needs_auth_cache_path; /* NULL: the default */
  GHashTable      *request_handlers;      /* shared with the manager; nullable */
  char            *needs_auth_key;        /* NULL: no OAuth */
  McpOAuthProvider *oauth_provider;       /* remote servers, made on first use */
  McpTransportKind active_transport;      /* what the last attempt connected over */
  char            *transport_fallback;    /* why that is not the settings' kind; NULL: it is */
  GError          *fallback_from;         /* the Streamable HTTP failure that led to it */

  McpServerState   state;
  McpApproval      approval;
  GError          *error;
  McpClient       *client;          /* NULL unless connected */
  McpClient       *pending_client;  /* the attempt's, until it connected */
  GListStore      *tools;
  GListStore      *resources;
  GListStore      *resource_templates;
  GListStore      *prompts;
  char           **stderr_tail;
  char           **secrets;               /* masked in all that leaves; NULL: not known yet */
  GListStore      *log;                   /* McpLogEntry, kept across reconnects */
  McpTrace        *trace;                 /* kept across reconnects */
  char            *log_level;             /* the level the server accepted; made again on reconnect */
  GHashTable      *subscriptions;         /* URIs subscribed to; made again on reconnect */

  GCancellable    *attempt_cancellable;   /* non-NULL while an attempt runs */
  GPtrArray       *waiters;               /* GTask of ensure_connected/reconnect */
  GCancellable    *list_cancellable;      /* a refresh of the listing */
  GPtrArray       *list_waiters;          /* GTask waiting for a refresh */
  ListCache        list_cache[N_LIST_KINDS];
  GHashTable      *ui_cache;              /* URI → interface read (mcp-server-connection-ui.c); nullable */
  GHashTable      *ui_reads;              /* URI → its read under way; nullable */
  guint            ui_generation;         /* counts mcp_server_connection_clear_ui_cache() */
  gint64           needs_auth_until;      /* monotonic µs */
  guint            backoff_id;
  guint            reconnects;            /* in a row, since the last connect */

  guint            connecting : 1;
  guint            has_listing : 1;
  guint            disabled : 1;
  guint            signing_in : 1;
  guint            renewing_session : 1;  /* a new session after an expiry, until it is listed */
  guint            relist_mask : 4;     /* list_changed during a listing: ListKind */
  guint            listing_mask : 4;    /* what the listing under way lists */
};

typedef enum
{
  CONNECTION_PROP_0,
  CONNECTION_PROP_CONFIG,
  CONNECTION_PROP_NAME,
  CONNECTION_PROP_STATE,
  CONNECTION_PROP_ERROR,
  CONNECTION_PROP_CLIENT,
  CONNECTION_PROP_TOOLS,
  CONNECTION_PROP_RESOURCES,
  CONNECTION_PROP_RESOURCE_TEMPLATES,
  CONNECTION_PROP_PROMPTS,
  CONNECTION_PROP_STDERR_TAIL,
  CONNECTION_PROP_CONNECTING,
  CONNECTION_PROP_LOG,
  CONNECTION_PROP_LOG_LEVEL,
  CONNECTION_PROP_APPROVAL,
  CONNECTION_N_PROPS
} ConnectionProperty;

typedef enum
{
  CONNECTION_TOOLS_CHANGED,
  CONNECTION_MEMO_DROPPED,
  CONNECTION_LISTING_USED,
  CONNECTION_RESOURCE_UPDATED,
  CONNECTION_TASK_STATUS,
  CONNECTION_N_SIGNALS
} ConnectionSignal;

/* mcp-server-connection.c */
void               mcp_server_connection_notify                 (McpServerConnection *self,
                                                                 ConnectionProperty   property);
void               mcp_server_connection_emit                   (McpServerConnection *self,
                                                                 ConnectionSignal     signal,
                                                                 ...);
/* Also logs the change, with @unredacted's message masked. */
void               mcp_server_connection_set_state              (McpServerConnection *self,
                                                                 McpServerState       state,
                                                                 const GError        *unredacted);
void               mcp_server_connection_set_connecting         (McpServerConnection *self,
                                                                 gboolean             connecting);

/* mcp-server-connection-ui.c: the interfaces read are forgotten (the
 * tool or resource list changed, the session ended or is new). */
void               mcp_server_connection_clear_ui_cache         (McpServerConnection *self);

/* mcp-server-connection-attempt.c */
void               mcp_server_connection_start_attempt          (McpServerConnection *self);
/* Connects a new client over @transport: the attempt's last step. */
void               mcp_server_connection_connect_transport      (McpServerConnection *self,
                                                                 McpTransport        *transport);
void               mcp_server_connection_finish_attempt         (McpServerConnection *self,
                                                                 McpServerState       state,
                                                                 const GError        *unredacted);
/* Callers that wait with no attempt under way (a sign-in held them). */
void               mcp_server_connection_fail_held_waiters      (McpServerConnection *self,
                                                                 const GError        *unredacted);
/* Disconnects from *@client_ptr, closes it unless closed, and clears it. */
void               mcp_server_connection_drop_client            (McpServerConnection  *self,
                                                                 McpClient           **client_ptr);
/* Returns each GTask of @tasks: @error, or TRUE. */
void               mcp_server_connection_return_tasks           (GPtrArray           *tasks,
                                                                 const GError        *error);
/* The tasks of *@waiters, replaced by an empty array. */
GPtrArray         *mcp_server_connection_steal_waiters          (GPtrArray           **waiters);

/* mcp-server-connection-transport.c */
/* The transport @expanded (a stdio or remote server, ${VAR} expanded)
 * describes, not connected; @auth_provider (nullable) for a remote one.
 * Also the doctor's, so that it starts a server as a connection does. */
McpTransport      *mcp_server_connection_new_transport          (McpServerConfig     *expanded,
                                                                 McpAuthProvider     *auth_provider,
                                                                 GError             **error);
/* Makes the transport @expanded (the config with ${VAR} expanded)
 * describes, loading stored tokens or finding the IDE first, then
 * connects over it; a failure finishes the attempt. */
void               mcp_server_connection_open_transport         (McpServerConnection *self,
                                                                 McpServerConfig     *expanded);
/* When @client (the attempt's) failed with @error because a "type":
 * "http" server refused Streamable HTTP with a 400, 404 or 405 to its
 * initialize POST, connects again over the legacy HTTP+SSE transport, as
 * the specification's backwards compatibility says, logs it and returns
 * TRUE; else FALSE. Only once per attempt. */
gboolean           mcp_server_connection_fall_back_to_sse       (McpServerConnection *self,
                                                                 McpClient           *client,
                                                                 const GError        *error);
/* @error of the legacy HTTP+SSE attempt after a fallback, with the
 * Streamable HTTP failure before it; a copy of @error without one. */
GError            *mcp_server_connection_explain_fallback_failure (McpServerConnection *self,
                                                                 const GError        *error);
/* The "ws-ide" and "sse-ide" variants: an McpWebsocketTransport or an
 * McpSseTransport to the IDE @lock describes, carrying its token. */
McpTransport      *mcp_server_connection_new_ide_transport      (McpIdeLock          *lock);

/* mcp-server-connection-reconnect.c */
/* Tries again after a delay that doubles each time, giving up after
 * MCP_SERVER_CONNECTION_MAX_RECONNECTS in a row. */
void               mcp_server_connection_schedule_reconnect     (McpServerConnection *self);
/* When @error (of the request @method @client made) says the session expired: a new
 * session, in which the listing is made again from its first page and the
 * callers waiting for it are answered; when the session that expired was
 * such a new one, not yet listed, the connection fails saying so instead,
 * so that a server that ends every session is not asked for ever. TRUE
 * when it was an expiry of the current client's session (handled), FALSE
 * otherwise. */
gboolean           mcp_server_connection_renew_expired_session  (McpServerConnection *self,
                                                                 McpClient           *client,
                                                                 const char          *method,
                                                                 const GError        *error);

/* mcp-server-connection-close.c */
/* Cancels the attempt and the backoff, drops the clients and the listing,
 * fails the callers waiting for a listing with @why. */
void               mcp_server_connection_shut_down              (McpServerConnection *self,
                                                                 const GError        *why);

/* mcp-server-connection-listing.c */
void               mcp_server_connection_watch_listings         (McpServerConnection *self,
                                                                 McpClient           *client);
/* Lists the kinds of @mask (ListKind) again, everything when the listing
 * was dropped. */
void               mcp_server_connection_refresh_listing        (McpServerConnection *self,
                                                                 guint                mask);
/* The kinds (ListKind) that should not be used any more. */
guint              mcp_server_connection_stale_kinds            (McpServerConnection *self);
void               mcp_server_connection_clear_listing          (McpServerConnection *self);
void               mcp_server_connection_clear_list_cache       (McpServerConnection *self);

/* mcp-server-connection-auth.c */
gboolean           mcp_server_connection_kind_has_oauth         (McpTransportKind    kind);
/* The needs-auth cache key of @config; NULL without OAuth. */
char              *mcp_server_connection_make_needs_auth_key    (McpServerConfig     *config);
gboolean           mcp_server_connection_has_oauth              (McpServerConnection *self);
McpOAuthProvider  *mcp_server_connection_ensure_oauth_provider  (McpServerConnection *self,
                                                                 McpServerConfig     *expanded);
/* TRUE when @task was answered needs-auth without asking the server (it
 * asked for authorization within the last 15 minutes, here or in another
 * process). */
gboolean           mcp_server_connection_answer_needs_auth      (McpServerConnection *self,
                                                                 GTask               *task);

/* mcp-server-connection-log.c */
/* What the attempt under way runs with, to mask (see mcp-redact.h). */
void               mcp_server_connection_set_secrets            (McpServerConnection *self,
                                                                 McpServerConfig     *expanded);
/* A copy with the secrets masked; NULL for NULL. */
GError            *mcp_server_connection_redact_error           (McpServerConnection *self,
                                                                 const GError        *error);
void               mcp_server_connection_append_log             (McpServerConnection *self,
                                                                 McpLogEntryKind      kind,
                                                                 const char          *text);
void               mcp_server_connection_log_state              (McpServerConnection *self,
                                                                 McpServerState       state,
                                                                 const GError        *error);
/* Logs what @client and @transport (stderr) say, and passes on the
 * notifications that are signals of the connection. */
void               mcp_server_connection_watch_log              (McpServerConnection *self,
                                                                 McpClient           *client,
                                                                 McpTransport        *transport);
/* The last stderr lines of @transport (a stdio one) as "stderr-tail". */
void               mcp_server_connection_set_stderr_tail        (McpServerConnection *self,
                                                                 McpTransport        *transport);
/* @reason with the last lines the server wrote to stderr, masked. */
GError            *mcp_server_connection_describe_failure       (McpServerConnection *self,
                                                                 const GError        *reason);

/* mcp-server-connection-requests.c */
/* The capabilities and handlers of the manager's table, on @client. */
void               mcp_server_connection_apply_request_handlers (McpServerConnection *self,
                                                                 McpClient           *client);

/* mcp-server-connection-subscriptions.c */
/* The log level and subscriptions of the previous session, made again. */
void               mcp_server_connection_apply_session_settings (McpServerConnection *self);

G_END_DECLS
