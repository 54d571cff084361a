/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-http-private.h"
#include "mcp-http-transport.h"

G_BEGIN_DECLS

/* Shared by the parts of McpHttpTransport (Streamable HTTP):
 * mcp-http-transport.c (the object, connect, close),
 * mcp-http-transport-exchange.c (send; an exchange's life, timers and
 * JSON answers), mcp-http-transport-request.c (a request and its HTTP status)
 * and mcp-http-transport-stream.c (event streams, resumption, parsing in
 * a worker thread). */

#define SESSION_HEADER "Mcp-Session-Id"
#define VERSION_HEADER "MCP-Protocol-Version"
#define METHOD_HEADER "Mcp-Method"
#define NAME_HEADER "Mcp-Name"

typedef enum
{
  EXCHANGE_POST,      /* one message POSTed */
  EXCHANGE_STREAM,    /* the standalone GET stream */
  EXCHANGE_RESUME,    /* a POST's stream, resumed with GET + Last-Event-ID */
} ExchangeKind;

/* One message POSTed and what it answered, or the GET stream. Each pending
 * async call holds a reference; the transport's list holds one while it
 * cares. Once detached (self == NULL) callbacks only drop their reference. */
#define MAX_IDLE_RESUMES 3

typedef struct
{
  gatomicrefcount   ref_count;
  McpHttpTransport *self;
  ExchangeKind      kind;
  GBytes           *body;
  JsonNode         *id;            /* the request's id; NULL for others */
  SoupMessage      *msg;
  McpSseParser     *parser;
  GCancellable     *cancellable;
  guint             timeout_id;
  guint             retry_id;
  char             *resumed_from;  /* the last event id when we last resumed */
  guint             idle_resumes;  /* resumes in a row that brought no event */
  guint             is_initialize : 1;
  guint             sent_session : 1;
  guint             auth_rounds;      /* challenges answered, at most MCP_AUTH_MAX_ROUNDS */
  guint             got_response : 1;
  guint             draining : 1;
  /* A request of the stateless revision: its version, method and name go
   * in headers too; no session, no resumption. */
  guint             stateless : 1;
  guint             long_lived : 1;   /* subscriptions/listen: no timeout */
  char             *version;          /* stateless: MCP-Protocol-Version */
  char             *method;           /* stateless: Mcp-Method */
  char             *name;             /* stateless: Mcp-Name, or NULL */
  GHashTable       *headers;          /* stateless: Mcp-Param-* (raw values), or NULL */
  /* What came and waits its turn behind data parsed in a worker thread
   * (Item, in order); see exchange_push(). */
  GQueue            backlog;
} Exchange;

/* The trace (mcp-http-transport-exchange.c): the exchange's HTTP request
 * as it starts, its body, its failure, the events of its stream. */
void mcp_http_exchange_trace_start  (Exchange     *ex);
void mcp_http_exchange_trace_body   (Exchange     *ex,
                                     const char   *data,
                                     gsize         length);
void mcp_http_exchange_trace_failed (Exchange     *ex,
                                     const GError *error);
void mcp_http_exchange_trace_event  (Exchange     *ex,
                                     const char   *event_type,
                                     const char   *data,
                                     const char   *last_event_id);

typedef enum
{
  ITEM_EVENT,        /* an SSE event's data */
  ITEM_BODY,         /* a JSON response body */
  ITEM_EVENTS_END,   /* the end of an SSE stream */
} ItemKind;

typedef struct
{
  ItemKind   kind;
  gboolean   ready;     /* parsed (always, for ITEM_EVENTS_END) */
  GBytes    *data;      /* ITEM_EVENT, ITEM_BODY */
  GPtrArray *messages;  /* the data parsed, or NULL */
  GError    *error;     /* why the data are not JSON-RPC; for
                         * ITEM_EVENTS_END, how the stream ended (nullable) */
} Item;

struct _McpHttpTransport
{
  McpRemoteTransport parent_instance;

  /* Owned references */
  SoupSession      *session;
  GPtrArray        *exchanges;
  Exchange         *stream;        /* also in exchanges */
  char             *session_id;
  char             *protocol_version;
  char             *www_authenticate;
  JsonNode         *initialize_id;
  /* The HTTP status of the last POST without a session (initialize, an
   * era probe) that the server refused, auth challenges aside; 0: none. */
  guint             refusal_status;

  guint             started : 1;
  guint             closing : 1;
  guint             stream_opened : 1;
};

enum {
  PROP_0,
  PROP_SESSION_ID,
  PROP_PROTOCOL_VERSION,
  PROP_WWW_AUTHENTICATE,
  N_PROPS
};

static inline const char *
url_of (McpHttpTransport *self)
{
  return mcp_remote_transport_get_url (MCP_REMOTE_TRANSPORT (self));
}

/* mcp-http-transport.c */
/* Sets the string property @prop_id, notifying when it changed. */
void      mcp_http_transport_set_string        (McpHttpTransport *self,
                                                guint             prop_id,
                                                const char       *value);

/* mcp-http-transport-exchange.c */
/* McpTransport.send: POSTs @message as a new exchange. */
gboolean  mcp_http_transport_send              (McpTransport     *transport,
                                                McpMessage       *message,
                                                GError          **error);
void      mcp_http_exchange_item_free          (Item             *item);
Exchange *mcp_http_exchange_ref                (Exchange         *ex);
void      mcp_http_exchange_unref              (Exchange         *ex);
/* A new exchange in the transport's list. */
Exchange *mcp_http_exchange_new                (McpHttpTransport *self,
                                                ExchangeKind      kind);
/* The transport no longer cares: stop timers and I/O, drop the list's
 * reference. */
void      mcp_http_exchange_finish             (Exchange         *ex);
/* Fails the exchange's request with @error (taken; only logged for
 * others) and ends the exchange. */
void      mcp_http_exchange_fail               (Exchange         *ex,
                                                GError           *error);
void      mcp_http_exchange_restart_timer      (Exchange         *ex);
void      mcp_http_transport_finish_exchanges  (McpHttpTransport *self);
/* Returns TRUE when this closed the transport. */
gboolean  mcp_http_transport_note_network_error (McpHttpTransport *self,
                                                 const GError     *error);
void      mcp_http_transport_open_stream       (McpHttpTransport *self);
void      mcp_http_exchange_json_body_cb       (GObject          *object,
                                                GAsyncResult     *result,
                                                gpointer          user_data);
/* A response body, parsed into @messages, or not JSON-RPC (@error). */
void      mcp_http_exchange_body_parsed        (Exchange         *ex,
                                                GPtrArray        *messages,
                                                const GError     *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Exchange, mcp_http_exchange_unref)

/* mcp-http-transport-request.c */
/* Sends the exchange's request (again). */
void      mcp_http_exchange_start              (Exchange         *ex);

/* mcp-http-transport-stream.c */
void      mcp_http_transport_handle_messages   (McpHttpTransport *self,
                                                Exchange         *ex,
                                                GPtrArray        *messages);
/* Queues @item behind what waits already (see there). */
void      mcp_http_exchange_push               (Exchange         *ex,
                                                Item             *item);
void      mcp_http_exchange_schedule_retry     (Exchange         *ex);
void      mcp_http_exchange_read_stream        (Exchange         *ex,
                                                GInputStream     *stream);

G_END_DECLS
