/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "mcp-message.h"
#include "mcp-transport-enums.h"

G_BEGIN_DECLS

/**
 * SECTION:mcp-trace
 *
 * What went over the wire with one server: a bounded record (a ring of
 * entries, oldest dropped first once it holds more than its byte budget)
 * of every JSON-RPC message in both directions, every HTTP exchange, every
 * SSE event, every stderr line and the transport's own events (connected,
 * session, resumption, closed, fallback), plus the OAuth steps of a
 * sign-in.
 *
 * Secrets are masked when an entry is recorded, never later: what the ring
 * holds, every view, export and `--trace` file are safe to show. Masked
 * are: the values of `Authorization`, `Proxy-Authorization`, `Cookie`,
 * `Set-Cookie`, `DPoP` and every header whose name says key, token, secret
 * or auth; token fields in JSON and form bodies (access_token,
 * refresh_token, id_token, client_secret, code, code_verifier, assertion,
 * password …); URL user info and the values of secret query parameters;
 * and every occurrence of a value given to mcp_trace_set_secrets() (a
 * server's env and header values, what its ${VAR}s expanded to).
 *
 * The record is a GListModel of McpTraceEntry, oldest first. An entry is
 * immutable but for what arrives after it: a request's response (its
 * response-seq and duration), an HTTP exchange's response head and body;
 * those changes emit the trace's "updated" and items-changed for the
 * entry's position. Entries are numbered (seq) from 1 in the order recorded; links
 * between entries are by seq (mcp_trace_lookup()), so an evicted entry
 * leaves no dangling pointer.
 *
 * Recording costs one copy of the text, a scan for secrets and an entry;
 * nothing is formatted until someone looks. Main thread only.
 */

typedef enum
{
  MCP_TRACE_KIND_MESSAGE,   /* a JSON-RPC message */
  MCP_TRACE_KIND_INVALID,   /* data that were not JSON-RPC (text, error) */
  MCP_TRACE_KIND_HTTP,      /* an HTTP exchange: request, then status, headers, body */
  MCP_TRACE_KIND_SSE,       /* a server-sent event: id, event type, retry, data size */
  MCP_TRACE_KIND_STDERR,    /* a line a stdio server wrote to stderr */
  MCP_TRACE_KIND_EVENT,     /* the transport's own: connected, session, resumed, closed … */
  MCP_TRACE_KIND_AUTH,      /* a step of an OAuth sign-in (see mcp_trace_record_auth_step()) */
  MCP_TRACE_KIND_APP,       /* MCP Apps: a message between a view's page and Plugboard, or what was blocked */
} McpTraceKind;

typedef enum
{
  MCP_TRACE_DIRECTION_NONE,
  MCP_TRACE_DIRECTION_OUT,  /* from Plugboard to the server */
  MCP_TRACE_DIRECTION_IN,   /* from the server to Plugboard */
} McpTraceDirection;

/* What kind of failure an entry records. */
typedef enum
{
  MCP_TRACE_ERROR_NONE,
  MCP_TRACE_ERROR_JSONRPC,   /* a JSON-RPC error response: code is its code */
  MCP_TRACE_ERROR_HTTP,      /* an HTTP status of 400 or more: code is the status */
  MCP_TRACE_ERROR_TRANSPORT, /* the network, TLS, a process that exited … (code 0) */
  MCP_TRACE_ERROR_PROTOCOL,  /* data that were not JSON-RPC, a result that is wrong */
} McpTraceErrorClass;

/* An OAuth step's status, for MCP_TRACE_KIND_AUTH. */
typedef enum
{
  MCP_TRACE_STEP_OK,
  MCP_TRACE_STEP_FAILED,
  MCP_TRACE_STEP_SKIPPED,
  MCP_TRACE_STEP_INFO,
} McpTraceStepStatus;

#define MCP_TYPE_TRACE_ENTRY (mcp_trace_entry_get_type ())
G_DECLARE_FINAL_TYPE (McpTraceEntry, mcp_trace_entry, MCP, TRACE_ENTRY, GObject)

#define MCP_TYPE_TRACE (mcp_trace_get_type ())
G_DECLARE_FINAL_TYPE (McpTrace, mcp_trace, MCP, TRACE, GObject)

/* The default byte budget of a server's ring, and the bounds of what one
 * entry keeps of a message or body (the rest is cut, and the entry says
 * so with its full size). */
#define MCP_TRACE_DEFAULT_MAX_BYTES   (4 * 1024 * 1024)
#define MCP_TRACE_MIN_MAX_BYTES       (64 * 1024)
#define MCP_TRACE_MAX_TEXT_BYTES      (256 * 1024)
#define MCP_TRACE_MAX_BODY_BYTES      (64 * 1024)

/* ---- the entry ---------------------------------------------------------- */

guint64             mcp_trace_entry_get_seq          (McpTraceEntry *self);
/* Wall-clock time, µs since the epoch. */
gint64              mcp_trace_entry_get_time         (McpTraceEntry *self);
McpTraceKind        mcp_trace_entry_get_kind         (McpTraceEntry *self);
McpTraceDirection   mcp_trace_entry_get_direction    (McpTraceEntry *self);
/* MESSAGE: request, notification, result or error. */
McpMessageKind      mcp_trace_entry_get_message_kind (McpTraceEntry *self);
/* MESSAGE: the method (a response has its request's, when paired); HTTP:
 * the HTTP method; AUTH: the step's name ("protected-resource-metadata" …);
 * EVENT: what happened ("connected", "session", "closed" …); SSE: the
 * event type. NULL otherwise. */
const char         *mcp_trace_entry_get_method       (McpTraceEntry *self);
/* MESSAGE: the JSON-RPC id as JSON text ("7", "\"a\""); SSE: the event's
 * id; NULL when none. */
const char         *mcp_trace_entry_get_id           (McpTraceEntry *self);
/* MESSAGE: the message as sent or read (masked); INVALID, STDERR: the
 * text; SSE: the event's data; EVENT, AUTH: what happened, for people. */
const char         *mcp_trace_entry_get_text         (McpTraceEntry *self);
/* The size on the wire of the message, line or body, in bytes. */
gsize               mcp_trace_entry_get_size         (McpTraceEntry *self);
/* TRUE when text or a body was cut to its bound. */
gboolean            mcp_trace_entry_get_truncated    (McpTraceEntry *self);

/* Requests: the seq of the response, 0 while none; responses: the seq of
 * their request, 0 when it was not seen. */
guint64             mcp_trace_entry_get_response_seq (McpTraceEntry *self);
guint64             mcp_trace_entry_get_request_seq  (McpTraceEntry *self);
/* µs from the request to its response, or from an HTTP request to the end
 * of its body; -1 while waiting. */
gint64              mcp_trace_entry_get_duration     (McpTraceEntry *self);
/* The seq of the first request of a multi round-trip exchange
 * (input_required rounds of the 2026-07-28 revision), for each of its
 * rounds and their responses; its round (1, 2, …); 0 when not part of one.
 * A notifications/progress or notifications/cancelled: the seq of the
 * request it is about. SSE and MESSAGE over HTTP: the HTTP exchange that
 * carried it (mcp_trace_entry_get_http_seq()). */
guint64             mcp_trace_entry_get_group_seq    (McpTraceEntry *self);
guint               mcp_trace_entry_get_round        (McpTraceEntry *self);
guint64             mcp_trace_entry_get_related_seq  (McpTraceEntry *self);
guint64             mcp_trace_entry_get_http_seq     (McpTraceEntry *self);

McpTraceErrorClass  mcp_trace_entry_get_error_class  (McpTraceEntry *self);
/* The JSON-RPC code or HTTP status of the error; 0 for other classes. */
int                 mcp_trace_entry_get_error_code   (McpTraceEntry *self);
/* The error's message (masked), NULL when none. */
const char         *mcp_trace_entry_get_error_text   (McpTraceEntry *self);

/* HTTP: the URL (masked; AUTH: the URL of the step, NULL when none), the status (0 while waiting or when it failed
 * before one), the headers as "Name", "value" pairs in a NULL-terminated
 * array (masked), the bodies (masked, bounded; NULL when none), the
 * response's content type, and the session it carried or got. */
const char         *mcp_trace_entry_get_url              (McpTraceEntry *self);
guint               mcp_trace_entry_get_status           (McpTraceEntry *self);
const char * const *mcp_trace_entry_get_request_headers  (McpTraceEntry *self);
const char * const *mcp_trace_entry_get_response_headers (McpTraceEntry *self);
const char         *mcp_trace_entry_get_request_body     (McpTraceEntry *self);
const char         *mcp_trace_entry_get_response_body    (McpTraceEntry *self);
const char         *mcp_trace_entry_get_content_type     (McpTraceEntry *self);
/* HTTP, EVENT: the Mcp-Session-Id in play; NULL when none. */
const char         *mcp_trace_entry_get_session_id       (McpTraceEntry *self);
/* SSE: the retry the event asked for in ms, -1 when none. */
gint64              mcp_trace_entry_get_retry            (McpTraceEntry *self);
/* AUTH: the step's status. */
McpTraceStepStatus  mcp_trace_entry_get_step_status      (McpTraceEntry *self);

/* One line for people: "→ tools/call #3", "← result #3 (tools/call) 12 ms",
 * "POST https://h/mcp → 200 text/event-stream", "stderr: …". Control
 * characters are not escaped: the caller does that for a terminal. */
char               *mcp_trace_entry_dup_summary          (McpTraceEntry *self);

/* The entry as one JSON object on one line (a JSON Lines record, the
 * format of `plugboard-cli --trace`): {"seq":…,"time":"…Z","kind":…,…};
 * a message's JSON is embedded as it was, not as a string. @server may be
 * NULL. */
void                mcp_trace_entry_append_json          (McpTraceEntry *self,
                                                          const char    *server,
                                                          GString       *out);
/* Reads back a record mcp_trace_entry_append_json() wrote. *out_server
 * gets its server (may be NULL). */
McpTraceEntry      *mcp_trace_entry_new_from_json        (JsonObject    *object,
                                                          char         **out_server,
                                                          GError       **error);
/* A `curl` command that sends this again: an HTTP entry's request, or a
 * MESSAGE (out) posted to @url (the server's; NULL: not possible). Masked
 * header values become "$NAME" shell variables the person sets. NULL when
 * the entry has no request to repeat. */
char               *mcp_trace_entry_dup_curl             (McpTraceEntry *self,
                                                          const char    *url);

/* ---- the record --------------------------------------------------------- */

McpTrace           *mcp_trace_new                (gsize               max_bytes);
gsize               mcp_trace_get_max_bytes      (McpTrace           *self);
void                mcp_trace_set_max_bytes      (McpTrace           *self,
                                                  gsize               max_bytes);
/* What the entries take now, about. */
gsize               mcp_trace_get_bytes          (McpTrace           *self);
/* How many entries were dropped to stay within the budget (or cleared). */
guint64             mcp_trace_get_dropped        (McpTrace           *self);
/* The server's own secret values, masked wherever they appear. */
void                mcp_trace_set_secrets        (McpTrace           *self,
                                                  const char * const *secrets);
void                mcp_trace_clear              (McpTrace           *self);
/* The entry numbered @seq while it is still in the ring, else NULL. */
McpTraceEntry      *mcp_trace_lookup             (McpTrace           *self,
                                                  guint64             seq);
/* A copy of the entries, oldest first (a GPtrArray of references). */
GPtrArray          *mcp_trace_dup_entries        (McpTrace           *self);

/* Every entry as a JSON Lines record (see mcp_trace_entry_append_json()). */
void                mcp_trace_append_jsonl       (McpTrace           *self,
                                                  const char         *server,
                                                  GString            *out);
/* The HTTP entries of @entries as a HAR 1.2 document (pretty JSON). */
char               *mcp_trace_entries_to_har     (GPtrArray          *entries);

/* Signal "recorded" (McpTraceEntry *entry): after each new entry, before
 * items-changed; "updated" (McpTraceEntry *entry): after an entry got its
 * response, status or body. For writers that follow the record (the
 * CLI's --trace file). */

/* ---- recording (transports, the client, auth) --------------------------- */

/* A JSON-RPC message: @text is its JSON as sent or read (@length bytes);
 * NULL: it is written from @message (costs a serialisation). */
McpTraceEntry      *mcp_trace_record_message     (McpTrace           *self,
                                                  McpTraceDirection   direction,
                                                  McpMessage         *message,
                                                  const char         *text,
                                                  gsize               length);
void                mcp_trace_record_invalid     (McpTrace           *self,
                                                  const char         *text,
                                                  gsize               length,
                                                  const GError       *error);
/* MCP Apps (see mcp_trace_record_app()): IN is from the page, OUT to the
 * page. @message: the message @text was read as, NULL when it was not
 * JSON-RPC (@error says why). */
McpTraceEntry      *mcp_trace_record_app         (McpTrace           *self,
                                                  McpTraceDirection   direction,
                                                  McpMessage         *message,
                                                  const char         *text,
                                                  gsize               length,
                                                  const GError       *error);
/* Something an MCP Apps view tried that the bridge or its sandbox refused
 * (@what: "navigation", "tools/call" …; @detail: the URL, tool or rule):
 * an APP entry without direction, method "blocked". */
McpTraceEntry      *mcp_trace_record_app_blocked (McpTrace           *self,
                                                  const char         *what,
                                                  const char         *detail);
void                mcp_trace_record_stderr      (McpTrace           *self,
                                                  const char         *line);
/* A request that will get no answer for a reason of the transport (a POST
 * that failed, an expired session, a 401): the request takes the error
 * (class transport, or HTTP with @http_status when there was one) and an
 * EVENT "request-failed" tied to it (related_seq) says why. */
void                mcp_trace_record_request_failed (McpTrace        *self,
                                                  JsonNode           *id,
                                                  const GError       *error,
                                                  guint               http_status);
/* The transport's own events: @what is a short word ("connecting",
 * "connected", "session", "resumed", "closed", "fallback", "reconnect",
 * "error"); @text says it for people; @error classifies it (nullable);
 * @session_id: the session in play (nullable). */
McpTraceEntry      *mcp_trace_record_event       (McpTrace           *self,
                                                  const char         *what,
                                                  const char         *text,
                                                  const GError       *error,
                                                  const char         *session_id);
/* An SSE event read on the stream of HTTP exchange @http_seq (0: unknown). */
void                mcp_trace_record_sse_event   (McpTrace           *self,
                                                  guint64             http_seq,
                                                  const char         *event_type,
                                                  const char         *event_id,
                                                  gint64              retry_ms,
                                                  const char         *data,
                                                  gsize               length);

/* An HTTP exchange, recorded when @msg is about to be sent with @body
 * (nullable, its request body; @content_type its type). The trace follows
 * @msg's "got-headers" and "finished"/"restarted" itself for the status
 * and headers; the code that reads the response body gives it with
 * mcp_trace_http_got_body() (nothing for a stream read as SSE events) and
 * a failure with mcp_trace_http_failed(). Returns the entry (owned by the
 * trace). */
McpTraceEntry      *mcp_trace_record_http        (McpTrace           *self,
                                                  SoupMessage        *msg,
                                                  const char         *body,
                                                  gsize               length,
                                                  const char         *content_type);
void                mcp_trace_http_got_body      (McpTrace           *self,
                                                  McpTraceEntry      *entry,
                                                  const char         *body,
                                                  gsize               length);
void                mcp_trace_http_failed        (McpTrace           *self,
                                                  McpTraceEntry      *entry,
                                                  const GError       *error);
/* The HTTP exchange @msg is part of, when it was recorded here; NULL
 * otherwise. */
McpTraceEntry      *mcp_trace_lookup_http        (McpTrace           *self,
                                                  SoupMessage        *msg);

/* A step of an OAuth sign-in: @step names it ("protected-resource-metadata",
 * "authorization-server-metadata", "client-registration", "scopes",
 * "authorization-url", "callback", "token-exchange", "refresh",
 * "step-up" …), @text says what was done and seen for people (masked
 * here), @http_seq the HTTP exchange that made it (0: none). */
McpTraceEntry      *mcp_trace_record_auth_step   (McpTrace           *self,
                                                  const char         *step,
                                                  McpTraceStepStatus  status,
                                                  const char         *text,
                                                  guint64             http_seq);

/* As mcp_trace_record_auth_step(), about @url (the authorization URL a
 * browser is sent to), which mcp_trace_entry_get_url() gives: masked as
 * an exchange's URL is, only its secret parameters, so it stays
 * copyable. */
McpTraceEntry      *mcp_trace_record_auth_step_url (McpTrace         *self,
                                                    const char       *step,
                                                    McpTraceStepStatus status,
                                                    const char       *text,
                                                    const char       *url);

/* The client tells the trace that the request it sends next with id
 * @new_id is round @round of the exchange that began with id @first_id. */
void                mcp_trace_note_round         (McpTrace           *self,
                                                  gint64              first_id,
                                                  gint64              new_id,
                                                  guint               round);

/* Masks the secrets of @text as the trace does (its secrets, token fields
 * of a JSON or form body, Authorization values, URLs): for anything about
 * the wire shown outside the trace. */
char               *mcp_trace_mask_text          (McpTrace           *self,
                                                  const char         *text,
                                                  gssize              length);

/* ---- files -------------------------------------------------------------- */

/* Reads a JSON Lines trace file (what --trace writes, or an export):
 * a GPtrArray of McpTraceEntry, and in *out_servers the server of each
 * (parallel array of strings, NULL entries allowed). A line that does not
 * parse fails with its line number. At most @max_bytes read. */
GPtrArray          *mcp_trace_read_jsonl         (const char         *data,
                                                  gsize               length,
                                                  GPtrArray         **out_servers,
                                                  GError            **error);

G_END_DECLS
