/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-auth-provider.h"
#include "mcp-sse-parser.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

/* What an error body may add to a message. */
#define MCP_HTTP_ERROR_BODY_MAX 200
/* A JSON answer larger than this is refused. */
#define MCP_HTTP_MAX_BODY (64 * 1024 * 1024)
/* Reconnect delay when the stream set no "retry". */
#define MCP_HTTP_DEFAULT_RETRY_MS 1000

SoupSession *mcp_http_session_new              (const char          *url);
/* The caller's headers, then Authorization (and DPoP) from @provider. */
void         mcp_http_apply_headers            (SoupMessage        *message,
                                                const char * const *headers,
                                                McpAuthProvider    *provider);
/* @message was answered: tells @provider (nullable), which may take a
 * DPoP-Nonce from it. Called for every answer, before a challenge is
 * handled. */
void         mcp_http_note_answer              (SoupMessage        *message,
                                                McpAuthProvider    *provider);
/* 401, or 403 with error="insufficient_scope". */
gboolean     mcp_http_is_auth_challenge        (SoupMessage        *message);
/* MCP_ERROR_NEEDS_AUTH naming @url and what the challenge said. */
GError      *mcp_http_needs_auth_error         (const char         *url,
                                                SoupMessage        *message);
/* MCP_ERROR_HTTP with status, reason and the start of a text body. */
GError      *mcp_http_status_error             (const char         *url,
                                                SoupMessage        *message,
                                                GBytes             *body);
/* A GIO error from libsoup as MCP_ERROR_NETWORK when it is terminal, naming
 * the URL. */
GError      *mcp_http_network_error            (const char         *url,
                                                const GError       *error);
/* A request id for messages: 7, or “abc” in quotes, or "?". */
char        *mcp_http_describe_id              (JsonNode           *id);
gboolean     mcp_http_is_json                  (SoupMessage        *message);
gboolean     mcp_http_is_event_stream          (SoupMessage        *message);

/* Reads @stream to its end, at most @max bytes; with @truncate the rest is
 * dropped, else more is MCP_ERROR_MESSAGE_TOO_LARGE. */
void         mcp_http_read_body_async          (GInputStream       *stream,
                                                gsize               max,
                                                gboolean            truncate,
                                                GCancellable       *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer            user_data);
GBytes      *mcp_http_read_body_finish         (GAsyncResult       *result,
                                                GError            **error);

/* Reads @stream into @parser until its end (TRUE) or an error; @func gets
 * every event. */
void         mcp_http_read_events_async        (GInputStream       *stream,
                                                McpSseParser       *parser,
                                                McpSseEventFunc     func,
                                                gpointer            func_data,
                                                GCancellable       *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer            user_data);
gboolean     mcp_http_read_events_finish       (GAsyncResult       *result,
                                                GError            **error);

/* @value as an HTTP header value: as it is when it is printable ASCII
 * without surrounding spaces, "" for "", else (and when it looks like the sentinel
 * itself) "=?base64?…?=" of its UTF-8, as the stateless revision says for
 * Mcp-Name and Mcp-Param-*. */
char         *mcp_http_header_value_encode (const char   *value);

G_END_DECLS
