/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-trace.h"

G_BEGIN_DECLS

struct _McpTraceEntry
{
  GObject parent_instance;

  guint64 seq;
  gint64 time;                   /* wall clock, µs */
  gint64 mono;                   /* monotonic, µs: for durations */
  McpTraceKind kind;
  McpTraceDirection direction;
  McpMessageKind message_kind;
  char *method;
  char *id;                      /* JSON text of the id */
  char *text;
  gsize size;
  gboolean truncated;
  gboolean text_is_json;         /* MESSAGE: text is the JSON, whole and valid */

  guint64 response_seq;
  guint64 request_seq;
  gint64 duration;               /* µs; -1 while waiting */
  guint64 group_seq;
  guint round;
  guint64 related_seq;
  guint64 http_seq;

  McpTraceErrorClass error_class;
  int error_code;
  char *error_text;

  char *url;
  guint status;
  char **request_headers;        /* name, value, name, value …, NULL */
  char **response_headers;
  char *request_body;
  char *response_body;
  char *content_type;
  char *session_id;
  gint64 retry;
  McpTraceStepStatus step_status;

  gsize cost;                    /* what the ring counted for it */
  SoupMessage *msg;              /* HTTP: weak, while it is in flight */
};

McpTraceEntry *mcp_trace_entry_new          (McpTraceKind       kind,
                                             McpTraceDirection  direction);
/* About what the entry takes in memory, for the ring's budget. */
gsize          mcp_trace_entry_get_cost     (McpTraceEntry     *self);

/* mcp-trace-mask.c */
/* A header whose value is always masked (Authorization, Cookie …). */
gboolean       mcp_trace_header_is_secret   (const char        *name);
/* A query or form parameter whose value is masked (code, access_token …). */
gboolean       mcp_trace_param_is_secret    (const char        *name);
/* @url with user info and the values of secret parameters masked. */
char          *mcp_trace_mask_url           (const char        *url);
/* @text (JSON, a form body or plain text) with token fields masked,
 * then each of @secrets; at most @max bytes of it kept (*truncated set
 * when cut). */
char          *mcp_trace_mask_body          (const char        *text,
                                             gsize              length,
                                             const char        *content_type,
                                             const char * const *secrets,
                                             gsize              max,
                                             gboolean          *truncated);
/* For a message: as mcp_trace_mask_body() with the message bound, newlines
 * made spaces, and *text_is_json FALSE when it was cut or a secret's value
 * was masked in it. */
char          *mcp_trace_mask_message_text  (const char        *text,
                                             gsize              length,
                                             const char * const *secrets,
                                             gboolean          *truncated,
                                             gboolean          *text_is_json);
char         **mcp_trace_mask_headers       (SoupMessageHeaders *headers,
                                             const char * const *secrets);

/* mcp-trace.c */
void           mcp_trace_add                (McpTrace          *self,
                                             McpTraceEntry     *entry);
/* @entry got its response, status or body: "updated", items-changed;
 * @resized: its strings grew (headers, a body), so its cost is counted
 * again. */
void           mcp_trace_entry_changed      (McpTrace          *self,
                                             McpTraceEntry     *entry,
                                             gboolean           resized);
const char * const *mcp_trace_get_secrets   (McpTrace          *self);
/* The message sent last, if no HTTP exchange claimed it yet (it is then
 * claimed). */
McpTraceEntry *mcp_trace_take_unlinked_message (McpTrace        *self);
/* Messages read from now on came in exchange @http_seq. */
void           mcp_trace_set_receiving      (McpTrace          *self,
                                             guint64            http_seq);

const char    *mcp_trace_kind_to_string     (McpTraceKind       kind);
gboolean       mcp_trace_kind_from_string   (const char        *text,
                                             McpTraceKind      *kind);

G_END_DECLS
