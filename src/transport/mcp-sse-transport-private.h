/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-http-private.h"
#include "mcp-sse-transport.h"

G_BEGIN_DECLS

/* Shared by the parts of McpSseTransport (legacy HTTP+SSE):
 * mcp-sse-transport.c (the object, send, connect, close, requests'
 * timeouts), mcp-sse-transport-stream.c (the GET event stream and its
 * endpoint) and mcp-sse-transport-post.c (one message POSTed). */

/* A request waiting for its answer on the stream. */
typedef struct
{
  McpSseTransport *self;
  JsonNode        *id;
  guint            timeout_id;
} Pending;

/* One message POSTed. */
typedef struct
{
  McpSseTransport *self;           /* NULL once the transport stopped caring */
  SoupMessage     *msg;
  GBytes          *body;
  JsonNode        *id;
  GCancellable    *cancellable;
  guint            auth_rounds;
} Post;

struct _McpSseTransport
{
  McpRemoteTransport parent_instance;

  /* Owned references */
  SoupSession      *session;
  SoupMessage      *stream_msg;
  McpSseParser     *parser;
  GCancellable     *cancellable;   /* the stream and everything else */
  GTask            *connect_task;
  GHashTable       *pending;       /* JsonNode id → Pending */
  GPtrArray        *posts;
  char             *endpoint;

  guint             started : 1;
  guint             closing : 1;
  guint             stream_auth_rounds;
};


static inline const char *
url_of (McpSseTransport *self)
{
  return mcp_remote_transport_get_url (MCP_REMOTE_TRANSPORT (self));
}

/* mcp-sse-transport.c */
void mcp_sse_transport_post_free       (Post            *post);
/* Stops everything; the transport is closed or closing. */
void mcp_sse_transport_shutdown_all    (McpSseTransport *self);
void mcp_sse_transport_fail_connect    (McpSseTransport *self,
                                        const GError    *error);
/* The connection is over for @reason. */
void mcp_sse_transport_fail_connection (McpSseTransport *self,
                                        const GError    *reason);
void mcp_sse_transport_fail_request    (McpSseTransport *self,
                                        JsonNode        *id,
                                        const GError    *error);
/* Sets the endpoint (taken) and notifies. */
void mcp_sse_transport_take_endpoint   (McpSseTransport *self,
                                        char            *endpoint);

/* mcp-sse-transport-stream.c */
void mcp_sse_transport_open_stream     (McpSseTransport *self);

/* mcp-sse-transport-post.c */
void mcp_sse_transport_start_post      (Post            *post);

G_END_DECLS
