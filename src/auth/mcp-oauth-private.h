/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-oauth-provider.h"
#include "mcp-trace.h"

G_BEGIN_DECLS

/* Internals shared by the OAuth files (discovery, registration, tokens). */

#define MCP_OAUTH_PROTOCOL_VERSION "2025-11-25"
/* An authorization server's answer larger than this is refused. */
#define MCP_OAUTH_MAX_BODY (1024 * 1024)

/* How long one OAuth request sent through @session may take (the
 * session carries it, as the public functions take a session):
 * MCP_OAUTH_REQUEST_TIMEOUT_MS unless set. */
void        mcp_oauth_session_set_request_timeout (SoupSession *session,
                                                   guint        timeout_ms);
guint       mcp_oauth_session_get_request_timeout (SoupSession *session);

/* The trace the OAuth requests sent through @session and the steps of a
 * sign-in are recorded in (the session carries it, as the public
 * functions take a session); NULL: none. */
void        mcp_oauth_session_set_trace   (SoupSession         *session,
                                           McpTrace            *trace);
McpTrace   *mcp_oauth_session_get_trace   (SoupSession         *session);

/* Records a step of a sign-in (mcp_trace_record_auth_step()) in
 * @session's trace, when it has one; @message (nullable) is the exchange
 * that made it. The text must hold no secret: the trace masks what it
 * knows, but a token put in plain words is not recognised. */
void        mcp_oauth_trace_step          (SoupSession         *session,
                                           SoupMessage         *message,
                                           const char          *step,
                                           McpTraceStepStatus   status,
                                           const char          *format,
                                           ...) G_GNUC_PRINTF (5, 6);

/* Records @message, about to be sent with @body (nullable) of
 * @content_type, in @session's trace; NULL when it has none. */
McpTraceEntry *mcp_oauth_trace_http       (SoupSession         *session,
                                           SoupMessage         *message,
                                           GBytes              *body,
                                           const char          *content_type);

/* Overwrites @secret before it is freed (NULL: nothing). */
void        mcp_oauth_free_secret         (char                *secret);

/* @message's URL without user info, for messages. */
char       *mcp_oauth_message_url         (SoupMessage   *message);

/* Sends @message with @body (nullable) of @content_type and reads the
 * answer's body, within mcp_oauth_session_get_request_timeout(); the
 * exchange is recorded in the session's trace.
 * Errors: G_IO_ERROR_CANCELLED when @cancellable was cancelled, else
 * MCP_ERROR_NEEDS_AUTH naming the URL (no answer in time, network failure,
 * answer too large). The status is on @message. */
void        mcp_oauth_send_async          (SoupSession         *session,
                                           SoupMessage         *message,
                                           const char          *content_type,
                                           GBytes              *body,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GBytes     *mcp_oauth_send_finish         (GAsyncResult        *result,
                                           GError             **error);

/* @body as a JSON object, or NULL with MCP_ERROR_NEEDS_AUTH naming @url.
 * The message never quotes the body (it may hold a secret). */
JsonNode   *mcp_oauth_parse_object        (GBytes              *body,
                                           const char          *url,
                                           GError             **error);

/* An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2) as
 * MCP_ERROR_NEEDS_AUTH: "@what at “url” failed: HTTP n, error “x”: description".
 * Only "error" and "error_description" of the body are quoted, never the rest.
 * @oauth_error (optional) receives the "error" code. */
GError     *mcp_oauth_answer_error        (const char          *what,
                                           SoupMessage         *message,
                                           GBytes              *body,
                                           char               **oauth_error);

/* A server-provided string made fit for a message: valid UTF-8, no
 * control characters, at most 200 characters. */
char       *mcp_oauth_sanitize            (const char          *text);

/* NULL-terminated array of the strings of @object's @member, or NULL when
 * absent. *@malformed is set when the member is there but not an array of
 * strings. */
char      **mcp_oauth_string_array        (JsonObject          *object,
                                           const char          *member,
                                           gboolean            *malformed);

gboolean    mcp_oauth_strv_contains       (char * const        *strv,
                                           const char          *str);

G_END_DECLS
