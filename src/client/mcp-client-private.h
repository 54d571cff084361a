/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

/* McpClient is one type in several files, each part named for what it
 * holds:
 *
 *   mcp-client.c                 the GObject: properties, signals, accessors
 *   mcp-client-connect.c         connect, the initialize handshake, close
 *   mcp-client-discover.c        era detection: server/discover
 *   mcp-client-send.c            sending requests and notifications
 *   mcp-client-pending.c         requests waiting: timeouts, cancellation,
 *                                progress, responses
 *   mcp-client-dispatch.c        what the transport reports, by kind
 *   mcp-client-server-requests.c requests from the server
 *   mcp-client-input.c           input_required rounds (2026-07-28)
 *   mcp-client-param-headers.c   Mcp-Param-* headers (2026-07-28)
 *   mcp-client-listen.c          subscriptions/listen (2026-07-28)
 *   mcp-client-requests.c        request_async, ping, tools/call
 *   mcp-client-paging.c          paged listings
 *   mcp-client-listings.c        tools, resources, templates, prompts
 *   mcp-client-resources.c       resources/read and subscribe, prompts/get,
 *                                completion/complete
 *   mcp-client-logging.c         logging/setLevel and log messages
 *   mcp-client-tasks.c           tasks
 */

G_BEGIN_DECLS

/* Turns a successful response into what the request's task returns. */
typedef void (*McpClientResultFunc) (McpClient *self,
                                     GTask     *task,
                                     JsonNode  *result);

/* A request waiting for its response. Owned by the pending table. */
typedef struct
{
  McpClient          *client;          /* borrowed */
  gint64              id;
  char               *method;
  GTask              *task;
  gint64              expires_us;      /* monotonic; 0: never */
  GSource            *cancel_source;
  guint               timeout_ms;
  gint64              deadline_us;     /* monotonic; 0: no maximum total */
  guint               max_total_ms;
  McpProgressFunc     progress_func;
  gpointer            progress_data;
  McpClientResultFunc result_func;     /* NULL: the result node itself */
  /* What a stateless request is sent again with: after an input_required
   * result (with the answers), or when its response stream broke. */
  JsonObject         *params;          /* the caller's, without our _meta */
  McpRequestOptions   options;
  guint               sends;           /* how often it went out for a broken stream */
  guint               rounds;          /* input_required rounds so far */
  guint               headers_refetched : 1; /* tools/list again after a -32020 */
} McpClientPending;

/* A front end's answer to one kind of server-to-client request. */
typedef struct
{
  McpClientRequestFunc  func;
  gpointer              data;
  GDestroyNotify        destroy;
} McpClientRequestHandler;

struct _McpClient
{
  GObject          parent_instance;

  /* g_get_real_time() of the last message the server sent; 0: none */
  gint64           last_contact;

  /* owned */
  McpTransport    *transport;
  McpServerInfo   *server_info;
  char            *protocol_version;
  char            *client_name;
  char            *client_version;
  GHashTable      *pending;            /* gint64 id → McpClientPending */
  GTask           *connect_task;
  GSource         *connect_timeout_source;
  GSource         *timer;              /* fires at the earliest expires_us */
  GError          *closed_error;       /* why the transport closed, once it has */
  JsonObject      *capabilities;       /* declared in initialize; NULL: {} */
  GHashTable      *request_handlers;   /* method → McpClientRequestHandler */
  GHashTable      *incoming;           /* id key → IncomingRequest */

  McpClientState   state;
  McpProtocolEra   era;                /* what connect found */
  McpProtocolEra   era_hint;           /* what to try first */
  char            *log_level;          /* sent in every stateless request's _meta */
  /* The stateless revision's subscriptions/listen: the one request whose
   * response stream carries list changes and resource updates. */
  GHashTable      *listen_uris;        /* resources subscribed to (a set) */
  /* The last tools/list, name → McpTool: a stateless tools/call over HTTP
   * mirrors the arguments its schema marks x-mcp-header into headers. */
  GHashTable      *listed_tools;
  GCancellable    *listen_cancellable; /* the listen request out, or NULL */
  guint            listen_retry_id;
  guint            listen_failures;    /* in a row, for the backoff */
  gint64           listen_id;          /* its request id: the subscriptionId */
  GPtrArray       *listen_waiters;     /* GTasks done when the server acknowledges */
  guint            listen_unsupported : 1;
  guint            request_timeout_ms;
  guint            connect_timeout_ms;
  gint64           next_id;
  guint            transport_connected : 1;
  guint            probing : 1;        /* server/discover is out */
  guint            probe_retried : 1;  /* sent again after -32022 */
};

typedef enum
{
  MCP_CLIENT_SIGNAL_TOOLS_LIST_CHANGED,
  MCP_CLIENT_SIGNAL_RESOURCES_LIST_CHANGED,
  MCP_CLIENT_SIGNAL_PROMPTS_LIST_CHANGED,
  MCP_CLIENT_SIGNAL_LOG_MESSAGE,
  MCP_CLIENT_SIGNAL_NOTIFICATION,
  MCP_CLIENT_SIGNAL_SERVER_NOTIFICATION,
  MCP_CLIENT_SIGNAL_WARNING,
  MCP_CLIENT_SIGNAL_CLOSED,
  MCP_CLIENT_N_SIGNALS
} McpClientSignal;

/* mcp-client.c */

/* “name” of the server (its serverInfo name, else what the transport
 * reaches), or "the server": for messages. */
char *mcp_client_describe_server (McpClient       *self);
/* “3 seconds”, “1.5 seconds”: for messages. */
char *mcp_client_format_duration (guint            ms);
void  mcp_client_set_state       (McpClient       *self,
                                  McpClientState   state);
/* What either era's opening answered: who the server is, the version and
 * the era every later request goes by. */
void  mcp_client_settle          (McpClient       *self,
                                  McpServerInfo   *info,
                                  const char      *version,
                                  McpProtocolEra   era);
/* g_signal_emit() of one of the client's signals. */
void  mcp_client_emit_signal     (McpClient       *self,
                                  McpClientSignal  signal,
                                  ...);

/* mcp-client-connect.c */

JsonObject *mcp_client_build_client_info         (McpClient *self);
void        mcp_client_connect_finish_with_error (McpClient *self,
                                                  GError    *error,
                                                  gboolean   close_transport);
void        mcp_client_connect_finish_ready      (McpClient *self);
void        mcp_client_send_initialize           (McpClient *self);

/* mcp-client-discover.c */

/* The era comes first: a stateless request (server/discover), where the
 * transport can carry one, then initialize if the answer is not modern. */
void mcp_client_lifecycle_start (McpClient *self);

/* mcp-client-send.c */

JsonObject       *mcp_client_copy_object_shallow         (JsonObject               *object);
JsonNode         *mcp_client_node_new_object_take        (JsonObject               *object);
gboolean          mcp_client_send                        (McpClient                *self,
                                                          McpMessage               *message,
                                                          GError                  **error);
void              mcp_client_send_cancelled_notification (McpClient                *self,
                                                          gint64                    id,
                                                          const char               *reason);
gboolean          mcp_client_is_stateless                (McpClient                *self);
/* Sends a request without looking at the client's state: connect uses it
 * for initialize before the client is ready. */
void              mcp_client_send_request                (McpClient                *self,
                                                          const char               *method,
                                                          JsonObject               *params,
                                                          const McpRequestOptions  *options,
                                                          McpClientResultFunc       result_func,
                                                          GTask                    *task);
/* Sends @pending's request again, with a new id (the stateless revision
 * wants one per attempt), for the same task; @params replace its own when
 * given. @pending is freed; the new one is returned, NULL when the task
 * was answered instead. */
McpClientPending *mcp_client_resend_pending              (McpClient                *self,
                                                          McpClientPending         *pending,
                                                          JsonObject               *params,
                                                          guint                     sends,
                                                          guint                     rounds);

/* mcp-client-pending.c */

void              mcp_client_pending_free    (McpClientPending *pending);
/* Takes the request out of the table; the caller completes its task. */
McpClientPending *mcp_client_steal_pending   (McpClient        *self,
                                              gint64            id);
/* Puts @pending (taken) in the table, arms its timeout and watches
 * @cancellable for it. */
void              mcp_client_add_pending     (McpClient        *self,
                                              McpClientPending *pending,
                                              GCancellable     *cancellable);
GSource          *mcp_client_timer_new       (McpClient        *self);
void              mcp_client_fail_pending    (McpClient        *self,
                                              const GError     *error);
void              mcp_client_handle_response (McpClient        *self,
                                              McpMessage       *message);
void              mcp_client_handle_progress (McpClient        *self,
                                              JsonObject       *params);

/* mcp-client-dispatch.c */

/* Connects the transport's signals. */
void mcp_client_watch_transport (McpClient *self);

/* mcp-client-server-requests.c */

void     mcp_client_request_handler_free    (gpointer     data);
void     mcp_client_incoming_request_free   (gpointer     data);
/* A URL-mode elicitation whose address the URL policy refuses never
 * reaches a person: TRUE with @error saying why. */
gboolean mcp_client_url_elicitation_refused (const char  *method,
                                             JsonObject  *params,
                                             GError     **error);
void     mcp_client_handle_request          (McpClient   *self,
                                             McpMessage  *message);
/* notifications/cancelled from the server: one of its requests to us. */
void     mcp_client_handle_cancelled        (McpClient   *self,
                                             JsonObject  *params);
/* The session is over: every handler still at work may stop. */
void     mcp_client_cancel_incoming         (McpClient   *self);

/* mcp-client-input.c */

/* The stateless revision's resultType: TRUE when @pending was taken care
 * of (answered, or asking for input first). */
gboolean mcp_client_handle_result_type (McpClient        *self,
                                        McpClientPending *pending,
                                        JsonNode         *result);

/* mcp-client-param-headers.c */

void     mcp_client_add_param_headers          (McpClient        *self,
                                                JsonObject       *params,
                                                McpMessage       *message);
/* Keeps the listing for the Mcp-Param-* headers of later calls. */
void     mcp_client_remember_listed_tools      (McpClient        *self,
                                                GPtrArray        *tools);
/* TRUE when @pending, refused for its headers, is sent again after a new
 * listing. */
gboolean mcp_client_relist_for_header_mismatch (McpClient        *self,
                                                McpClientPending *pending,
                                                McpMessage       *message);

/* mcp-client-listen.c */

/* (Re)opens the listen request with what there is to listen to now. */
void     mcp_client_listen_start               (McpClient    *self);
void     mcp_client_listen_stop                (McpClient    *self);
/* Finishes what waits for the stream to be acknowledged. */
void     mcp_client_listen_return              (McpClient    *self,
                                                const GError *error);
/* TRUE when a notification belongs to a listen stream that has ended. */
gboolean mcp_client_listen_filter_notification (McpClient    *self,
                                                const char   *method,
                                                JsonObject   *params);
/* The stateless revision has no resources/subscribe: the URIs go in the
 * filter of the subscriptions/listen stream, opened again when they change.
 * @task (taken) returns TRUE once the server acknowledged the new filter. */
void     mcp_client_stateless_subscribe        (McpClient    *self,
                                                const char   *uri,
                                                gboolean      subscribe,
                                                GTask        *task);

/* mcp-client-requests.c */

/* Fails @task with MCP_ERROR_NOT_CONNECTED (“Cannot send @method …”)
 * unless the client is ready. */
gboolean mcp_client_check_ready      (McpClient   *self,
                                      const char  *method,
                                      GTask       *task);

/* Turns the object a request answered into @task's value; NULL with
 * @error set when it is not what the method answers. */
typedef gpointer (*McpClientAnswerFunc) (McpClient   *self,
                                         GTask       *task,
                                         JsonObject  *result,
                                         GError     **error);

/* Sends @method with @params (taken) for @task (taken; its cancellable
 * cancels the request). An answer that is not an object fails it; else
 * @answer's value is returned (freed with @free_func), or TRUE when @answer
 * is NULL. @answer's error is prefixed with the method and the server. */
void     mcp_client_request_for_task (McpClient               *self,
                                      GTask                   *task,
                                      const char              *method,
                                      JsonObject              *params,
                                      const McpRequestOptions *options,
                                      McpClientAnswerFunc      answer,
                                      GDestroyNotify           free_func);

/* Fails @task with MCP_ERROR_NOT_CONNECTED before initialize answered, and
 * with MCP_ERROR_UNSUPPORTED ("… does not offer @capability") unless @has
 * says the server's capabilities offer it. */
gboolean mcp_client_check_offers     (McpClient   *self,
                                      GTask       *task,
                                      gboolean   (*has) (McpServerInfo *),
                                      const char  *capability,
                                      const char  *method);

/* mcp-client-paging.c */

typedef GObject    *(*McpClientListItemNew) (JsonObject  *object,
                                             GError     **error);
typedef const char *(*McpClientListItemKey) (gpointer     item);

/* One kind of listing. */
typedef struct
{
  const char           *method;    /* "tools/list" */
  const char           *member;    /* "tools" */
  const char           *what;      /* "tools", for messages */
  McpClientListItemNew  item_new;
  McpClientListItemKey  item_key;  /* what makes an item unique */
} McpClientListKind;

/* @declared: whether the server's capabilities offer this listing; when it
 * does not, the answer is an empty array without asking. */
void       mcp_client_list_paged_async  (McpClient                *self,
                                         const McpClientListKind  *kind,
                                         gboolean                  declared,
                                         gpointer                  source_tag,
                                         GCancellable             *cancellable,
                                         GAsyncReadyCallback       callback,
                                         gpointer                  user_data);
GPtrArray *mcp_client_list_paged_finish (McpClient                *self,
                                         GAsyncResult             *result,
                                         gpointer                  source_tag,
                                         GError                  **error);

/* mcp-client-logging.c */

/* notifications/message: the log-message signal. */
void mcp_client_handle_log_message (McpClient  *self,
                                    JsonObject *params);

G_END_DECLS
