/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MCP_SSE_PARSER_DEFAULT_MAX_BUFFER (64 * 1024 * 1024)

/**
 * McpSseEventFunc:
 * @event_type: the event's type; "message" when the stream named none
 * @data: the event's data, its lines joined with "\n", without the final one
 * @last_event_id: (nullable): the last event ID seen on the stream so far
 *
 * Called once for every event the parser completes.
 */
typedef void (*McpSseEventFunc) (const char *event_type,
                                 const char *data,
                                 const char *last_event_id,
                                 gpointer    user_data);

#define MCP_TYPE_SSE_PARSER (mcp_sse_parser_get_type ())

G_DECLARE_FINAL_TYPE (McpSseParser, mcp_sse_parser, MCP, SSE_PARSER, GObject)

/* An incremental text/event-stream parser following the HTML standard's
 * "event stream interpretation": fields data, event, id, retry; comment
 * lines; LF, CRLF and CR line ends; one leading BOM; events split across
 * chunks at any byte. What it buffers (an unfinished line plus an
 * unfinished event's data) never exceeds @max_buffer bytes. */
McpSseParser   *mcp_sse_parser_new                (gsize            max_buffer);

/* Feeds the next chunk of the stream; calls @func for each completed event.
 * FALSE with MCP_ERROR_MESSAGE_TOO_LARGE when the buffer limit is passed
 * (the parser is then unusable until reset). */
gboolean        mcp_sse_parser_feed               (McpSseParser    *self,
                                                   const char      *data,
                                                   gsize            length,
                                                   McpSseEventFunc  func,
                                                   gpointer         user_data,
                                                   GError         **error);
/* The stream ended: an unfinished event is dropped, as the standard says. */
void            mcp_sse_parser_finish             (McpSseParser    *self);
/* For a new stream (a reconnect): drops buffered input; keeps the last
 * event ID and retry, which outlive a connection. */
void            mcp_sse_parser_reset              (McpSseParser    *self);
const char     *mcp_sse_parser_get_last_event_id  (McpSseParser    *self);
/* The reconnection time the stream set with "retry", in ms; -1 if none. */
gint64          mcp_sse_parser_get_retry          (McpSseParser    *self);

G_END_DECLS
