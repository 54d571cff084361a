/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-message.h"
#include "mcp-trace.h"

G_BEGIN_DECLS

#define MCP_TYPE_TRANSPORT (mcp_transport_get_type ())

G_DECLARE_DERIVABLE_TYPE (McpTransport, mcp_transport, MCP, TRANSPORT, GObject)

/**
 * McpTransport:
 *
 * Carries JSON-RPC messages to and from one MCP server. Subclasses emit
 * #McpTransport::message for each message read (in order, on the main
 * context the transport was created in) and finish with exactly one
 * #McpTransport::closed.
 *
 * Signals:
 *  - message (McpMessage *message)
 *  - closed (const GError *reason): reason is NULL for a close the owner
 *    asked for, else what ended the connection (server exited with status 1,
 *    message too large, …). Emitted once; after it, send() fails.
 *  - invalid-line (const char *line, const GError *error): a line that was
 *    not JSON-RPC; it is skipped, the connection stays up.
 *  - request-failed (JsonNode *id, const GError *error): a request that was
 *    sent could not get an answer for a reason of the transport (an HTTP
 *    POST that failed, a 404 for an expired session, a 401): the owner fails
 *    that request with @error. The connection may stay up.
 *
 * Connection health (remote transports): each terminal network error
 * (connection reset or refused, timed out, broken pipe, TLS failure) is
 * counted with mcp_transport_note_network_error(); any success resets the
 * count with mcp_transport_note_success(); the third in a row closes the
 * transport with a reason that tells the owner to reconnect.
 */
struct _McpTransportClass
{
  GObjectClass parent_class;

  void     (*connect_async)  (McpTransport         *self,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data);
  gboolean (*connect_finish) (McpTransport         *self,
                              GAsyncResult         *result,
                              GError              **error);
  /* Queues @message; never blocks. FALSE when closed or too large. */
  gboolean (*send)           (McpTransport         *self,
                              McpMessage           *message,
                              GError              **error);
  void     (*close_async)    (McpTransport         *self,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data);
  gboolean (*close_finish)   (McpTransport         *self,
                              GAsyncResult         *result,
                              GError              **error);
  /* A short description for messages: the command or the URL. */
  char    *(*describe)       (McpTransport         *self);
  /* TRUE when it can carry the stateless revision (2026-07-28): stdio and
   * Streamable HTTP; the legacy HTTP+SSE transport and WebSocket cannot.
   * NULL: FALSE. */
  gboolean (*supports_stateless) (McpTransport     *self);
  /* TRUE when a stateless tools/call's x-mcp-header arguments travel as
   * Mcp-Param-* headers (mcp_message_set_header()): Streamable HTTP only;
   * such a client must then leave out tools whose declarations are
   * invalid. NULL: FALSE. */
  gboolean (*mirrors_param_headers) (McpTransport  *self);

  gpointer padding[6];
};

void      mcp_transport_connect_async  (McpTransport         *self,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
gboolean  mcp_transport_connect_finish (McpTransport         *self,
                                        GAsyncResult         *result,
                                        GError              **error);
gboolean  mcp_transport_send           (McpTransport         *self,
                                        McpMessage           *message,
                                        GError              **error);
void      mcp_transport_close_async    (McpTransport         *self,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
gboolean  mcp_transport_close_finish   (McpTransport         *self,
                                        GAsyncResult         *result,
                                        GError              **error);
char     *mcp_transport_describe       (McpTransport         *self);
gboolean  mcp_transport_supports_stateless (McpTransport     *self);
gboolean  mcp_transport_mirrors_param_headers (McpTransport  *self);
/* TRUE between a successful connect and closed. */
gboolean  mcp_transport_is_connected   (McpTransport         *self);
gboolean  mcp_transport_is_closed      (McpTransport         *self);

/* The record of what goes over the wire (nullable): every message in both
 * directions and, per transport, HTTP exchanges, SSE events, stderr lines
 * and the transport's events. Set before connecting; the owner keeps it
 * across reconnects. */
void      mcp_transport_set_trace      (McpTransport         *self,
                                        McpTrace             *trace);
McpTrace *mcp_transport_get_trace      (McpTransport         *self);

/* For subclasses. */
void      mcp_transport_set_connected  (McpTransport         *self);
/* A message was queued for sending as @text (@length bytes, no newline):
 * into the trace, when there is one. */
void      mcp_transport_trace_sent     (McpTransport         *self,
                                        McpMessage           *message,
                                        const char           *text,
                                        gsize                 length);
void      mcp_transport_emit_message   (McpTransport         *self,
                                        McpMessage           *message);
/* The data (one message) the message emitted next was read from, for the
 * trace: it keeps them as they came rather than writing the message
 * again. Valid for that one call. */
void      mcp_transport_set_received_text (McpTransport      *self,
                                        const char           *text,
                                        gsize                 length);
/* Data at least this large are parsed in a worker thread. */
#define MCP_TRANSPORT_THREADED_PARSE_SIZE (1024 * 1024)

/* Parses @data (one line, body or event) and emits its messages, or
 * invalid-line. Data of MCP_TRANSPORT_THREADED_PARSE_SIZE or more are
 * parsed in a worker thread; what is received after them waits, so that
 * messages, invalid lines and closed keep their order. */
void      mcp_transport_receive        (McpTransport         *self,
                                        const char           *data,
                                        gsize                 length);
/* The same, taking a reference to @data (no copy). */
void      mcp_transport_receive_bytes  (McpTransport         *self,
                                        GBytes               *data);
void      mcp_transport_emit_invalid_line (McpTransport      *self,
                                        const char           *line,
                                        const GError         *error);
/* Emits closed once; later calls do nothing. */
void      mcp_transport_emit_closed    (McpTransport         *self,
                                        const GError         *reason);
void      mcp_transport_emit_request_failed (McpTransport    *self,
                                        JsonNode             *id,
                                        const GError         *error);

#define MCP_TRANSPORT_MAX_NETWORK_ERRORS 3

/* TRUE for the errors that say the network or the peer is gone: connection
 * reset or refused, timed out, broken pipe, host unreachable, TLS failure. */
gboolean  mcp_transport_error_is_terminal (const GError       *error);
void      mcp_transport_note_success   (McpTransport         *self);
/* Counts @error if it is terminal; returns TRUE when this made the transport
 * close (the third in a row). */
gboolean  mcp_transport_note_network_error (McpTransport     *self,
                                        const GError         *error);
guint     mcp_transport_get_network_errors (McpTransport     *self);

G_END_DECLS
