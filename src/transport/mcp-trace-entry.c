/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-trace"

#include "config.h"

#include "mcp-trace.h"
#include "mcp-trace-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"

/* One entry of a server's trace: see mcp-trace.h. Its fields are set by
 * the trace (mcp-trace.c, mcp-trace-http.c) before it is added, and after
 * only those that arrive later (a response, a status, a body). */

G_DEFINE_FINAL_TYPE (McpTraceEntry, mcp_trace_entry, G_TYPE_OBJECT)

static void
mcp_trace_entry_finalize (GObject *object)
{
  McpTraceEntry *self = MCP_TRACE_ENTRY (object);

  g_free (self->method);
  g_free (self->id);
  g_free (self->text);
  g_free (self->error_text);
  g_free (self->url);
  g_strfreev (self->request_headers);
  g_strfreev (self->response_headers);
  g_free (self->request_body);
  g_free (self->response_body);
  g_free (self->content_type);
  g_free (self->session_id);

  G_OBJECT_CLASS (mcp_trace_entry_parent_class)->finalize (object);
}

static void
mcp_trace_entry_class_init (McpTraceEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  /* No properties: an entry is made for every message, and a class with
   * properties pays GObject's notify-queue locks at each construction. What
   * changes later is told by the trace's "updated" and items-changed. */
  object_class->finalize = mcp_trace_entry_finalize;
}

static void
mcp_trace_entry_init (McpTraceEntry *self)
{
  self->duration = -1;
  self->retry = -1;
}

McpTraceEntry *
mcp_trace_entry_new (McpTraceKind      kind,
                     McpTraceDirection direction)
{
  McpTraceEntry *self = g_object_new (MCP_TYPE_TRACE_ENTRY, NULL);

  self->kind = kind;
  self->direction = direction;
  self->time = g_get_real_time ();
  self->mono = g_get_monotonic_time ();
  return self;
}

static gsize
strv_cost (char **strv)
{
  gsize cost = 0;

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    cost += strlen (strv[i]) + 1 + sizeof (char *);
  return cost;
}

#define STR_COST(s) ((s) != NULL ? strlen (s) + 1 : 0)

gsize
mcp_trace_entry_get_cost (McpTraceEntry *self)
{
  return sizeof (McpTraceEntry) + 64 +
         STR_COST (self->method) + STR_COST (self->id) + STR_COST (self->text) +
         STR_COST (self->error_text) + STR_COST (self->url) +
         strv_cost (self->request_headers) + strv_cost (self->response_headers) +
         STR_COST (self->request_body) + STR_COST (self->response_body) +
         STR_COST (self->content_type) + STR_COST (self->session_id);
}

/* ---- getters ------------------------------------------------------------ */

#define GETTER(type, name, fallback) \
  type \
  mcp_trace_entry_get_##name (McpTraceEntry *self) \
  { \
    g_return_val_if_fail (MCP_IS_TRACE_ENTRY (self), fallback); \
    return self->name; \
  }

GETTER (guint64, seq, 0)
GETTER (gint64, time, 0)
GETTER (McpTraceKind, kind, MCP_TRACE_KIND_MESSAGE)
GETTER (McpTraceDirection, direction, MCP_TRACE_DIRECTION_NONE)
GETTER (McpMessageKind, message_kind, MCP_MESSAGE_REQUEST)
GETTER (const char *, method, NULL)
GETTER (const char *, id, NULL)
GETTER (const char *, text, NULL)
GETTER (gsize, size, 0)
GETTER (gboolean, truncated, FALSE)
GETTER (guint64, response_seq, 0)
GETTER (guint64, request_seq, 0)
GETTER (gint64, duration, -1)
GETTER (guint64, group_seq, 0)
GETTER (guint, round, 0)
GETTER (guint64, related_seq, 0)
GETTER (guint64, http_seq, 0)
GETTER (McpTraceErrorClass, error_class, MCP_TRACE_ERROR_NONE)
GETTER (int, error_code, 0)
GETTER (const char *, error_text, NULL)
GETTER (const char *, url, NULL)
GETTER (guint, status, 0)
GETTER (const char *, request_body, NULL)
GETTER (const char *, response_body, NULL)
GETTER (const char *, content_type, NULL)
GETTER (const char *, session_id, NULL)
GETTER (gint64, retry, -1)
GETTER (McpTraceStepStatus, step_status, MCP_TRACE_STEP_INFO)

const char * const *
mcp_trace_entry_get_request_headers (McpTraceEntry *self)
{
  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (self), NULL);
  return (const char * const *) self->request_headers;
}

const char * const *
mcp_trace_entry_get_response_headers (McpTraceEntry *self)
{
  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (self), NULL);
  return (const char * const *) self->response_headers;
}

/* ---- names -------------------------------------------------------------- */

static const char * const kind_names[] = {
  [MCP_TRACE_KIND_MESSAGE] = "message",
  [MCP_TRACE_KIND_INVALID] = "invalid",
  [MCP_TRACE_KIND_HTTP] = "http",
  [MCP_TRACE_KIND_SSE] = "sse",
  [MCP_TRACE_KIND_STDERR] = "stderr",
  [MCP_TRACE_KIND_EVENT] = "event",
  [MCP_TRACE_KIND_AUTH] = "auth",
  [MCP_TRACE_KIND_APP] = "app",
};

static const char * const direction_names[] = { "none", "out", "in" };
static const char * const message_kind_names[] = { "request", "notification", "result", "error" };
static const char * const error_class_names[] = { "none", "jsonrpc", "http", "transport", "protocol" };
static const char * const step_status_names[] = { "ok", "failed", "skipped", "info" };

const char *
mcp_trace_kind_to_string (McpTraceKind kind)
{
  return kind < G_N_ELEMENTS (kind_names) ? kind_names[kind] : "unknown";
}

static gboolean
name_index (const char         *text,
            const char * const *names,
            guint               n,
            guint              *out)
{
  for (guint i = 0; text != NULL && i < n; i++)
    if (g_str_equal (text, names[i]))
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
mcp_trace_kind_from_string (const char   *text,
                            McpTraceKind *kind)
{
  guint i;

  if (!name_index (text, kind_names, G_N_ELEMENTS (kind_names), &i))
    return FALSE;
  *kind = i;
  return TRUE;
}

/* ---- for people --------------------------------------------------------- */

static void
append_duration (GString *out,
                 gint64   us)
{
  if (us < 0)
    return;
  if (us < 10000)
    g_string_append_printf (out, " %.1f ms", us / 1000.0);
  else if (us < 10 * G_USEC_PER_SEC)
    g_string_append_printf (out, " %" G_GINT64_FORMAT " ms", us / 1000);
  else
    g_string_append_printf (out, " %.1f s", us / (double) G_USEC_PER_SEC);
}

/* The first line of @text, at most @max characters. */
static void
append_excerpt (GString    *out,
                const char *text,
                guint       max)
{
  const char *p = text;
  guint n = 0;

  while (*p != '\0' && *p != '\n' && n < max)
    {
      p = g_utf8_next_char (p);
      n++;
    }
  g_string_append_len (out, text, p - text);
  if (*p != '\0')
    g_string_append (out, "…");
}

static void
append_message_summary (GString       *out,
                        McpTraceEntry *self)
{
  switch (self->message_kind)
    {
    case MCP_MESSAGE_REQUEST:
      g_string_append_printf (out, "%s #%s", self->method ? self->method : "?",
                              self->id ? self->id : "?");
      if (self->round > 1)
        g_string_append_printf (out, _(" (round %u)"), self->round);
      break;
    case MCP_MESSAGE_NOTIFICATION:
      g_string_append (out, self->method ? self->method : "?");
      break;
    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
      g_string_append_printf (out, "%s #%s",
                              self->message_kind == MCP_MESSAGE_RESULT ? "result" : "error",
                              self->id ? self->id : "null");
      if (self->method != NULL)
        g_string_append_printf (out, " (%s)", self->method);
      if (self->message_kind == MCP_MESSAGE_ERROR)
        g_string_append_printf (out, " %d %s", self->error_code,
                                self->error_text ? self->error_text : "");
      append_duration (out, self->duration);
      break;
    }
  g_string_append_printf (out, "  %" G_GSIZE_FORMAT " B", self->size);
}

char *
mcp_trace_entry_dup_summary (McpTraceEntry *self)
{
  GString *out = g_string_new (NULL);
  const char *arrow = self->direction == MCP_TRACE_DIRECTION_OUT ? "→" :
                      self->direction == MCP_TRACE_DIRECTION_IN ? "←" : "·";

  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (self), NULL);

  switch (self->kind)
    {
    case MCP_TRACE_KIND_MESSAGE:
      g_string_append_printf (out, "%s ", arrow);
      append_message_summary (out, self);
      break;
    case MCP_TRACE_KIND_INVALID:
      g_string_append_printf (out, _("%s not JSON-RPC: "), arrow);
      append_excerpt (out, self->text ? self->text : "", 120);
      break;
    case MCP_TRACE_KIND_HTTP:
      g_string_append_printf (out, "%s %s", self->method ? self->method : "?",
                              self->url ? self->url : "?");
      if (self->status != 0)
        {
          g_string_append_printf (out, " → %u", self->status);
          if (self->content_type != NULL)
            g_string_append_printf (out, " %s", self->content_type);
        }
      else if (self->error_text != NULL)
        g_string_append_printf (out, " → %s", self->error_text);
      else
        g_string_append (out, " …");
      append_duration (out, self->duration);
      break;
    case MCP_TRACE_KIND_SSE:
      g_string_append_printf (out, "← SSE %s", self->method ? self->method : "message");
      if (self->id != NULL)
        g_string_append_printf (out, " id=%s", self->id);
      if (self->retry >= 0)
        g_string_append_printf (out, " retry=%" G_GINT64_FORMAT, self->retry);
      g_string_append_printf (out, "  %" G_GSIZE_FORMAT " B", self->size);
      break;
    case MCP_TRACE_KIND_STDERR:
      g_string_append (out, "stderr: ");
      append_excerpt (out, self->text ? self->text : "", 200);
      break;
    case MCP_TRACE_KIND_EVENT:
    case MCP_TRACE_KIND_AUTH:
      g_string_append_printf (out, "%s: ", self->method ? self->method : "?");
      append_excerpt (out, self->text ? self->text : "", 200);
      break;
    case MCP_TRACE_KIND_APP:
      /* Translators: an MCP Apps view's page in a trace summary */
      g_string_append (out, self->direction == MCP_TRACE_DIRECTION_IN ? _("page → ") :
                            self->direction == MCP_TRACE_DIRECTION_OUT ? _("→ page ") : _("page "));
      if (self->direction == MCP_TRACE_DIRECTION_NONE || self->error_class == MCP_TRACE_ERROR_PROTOCOL)
        {
          if (self->direction != MCP_TRACE_DIRECTION_NONE)
            g_string_append (out, _("not JSON-RPC: "));
          else
            g_string_append_printf (out, "%s: ", self->method ? self->method : "?");
          append_excerpt (out, self->text ? self->text : "", 200);
          break;
        }
      append_message_summary (out, self);
      break;
    }

  return g_string_free (out, FALSE);
}

/* ---- JSON Lines ------------------------------------------------------------ */

static void
member_string (GString    *out,
               const char *name,
               const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (out, ",\"%s\":", name);
  mcp_json_append_string (out, value);
}

static void
member_uint (GString    *out,
             const char *name,
             guint64     value)
{
  if (value != 0)
    g_string_append_printf (out, ",\"%s\":%" G_GUINT64_FORMAT, name, value);
}

static void
member_headers (GString     *out,
                const char  *name,
                char       **headers)
{
  if (headers == NULL)
    return;
  g_string_append_printf (out, ",\"%s\":[", name);
  for (guint i = 0; headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, '[');
      mcp_json_append_string (out, headers[i]);
      g_string_append_c (out, ',');
      mcp_json_append_string (out, headers[i + 1]);
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
}

/* A message's text is JSON already: it goes in as a value, so that a
 * reader of the file sees the message, not a string of it. Text that was
 * cut, or where a secret was masked in the middle of a number, is no
 * longer JSON, and goes in as a string. */
static void
member_message (GString       *out,
                McpTraceEntry *self)
{
  if (self->text == NULL)
    return;
  if (!self->text_is_json)
    member_string (out, "text", self->text);
  else
    g_string_append_printf (out, ",\"message\":%s", self->text);
}

void
mcp_trace_entry_append_json (McpTraceEntry *self,
                             const char    *server,
                             GString       *out)
{
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *stamp = NULL;

  g_return_if_fail (MCP_IS_TRACE_ENTRY (self));

  time = g_date_time_new_from_unix_utc (self->time / G_USEC_PER_SEC);
  stamp = g_date_time_format (time, "%Y-%m-%dT%H:%M:%S");
  g_string_append_printf (out, "{\"seq\":%" G_GUINT64_FORMAT ",\"time\":\"%s.%06dZ\",\"kind\":\"%s\"",
                          self->seq, stamp, (int) (self->time % G_USEC_PER_SEC),
                          mcp_trace_kind_to_string (self->kind));
  member_string (out, "server", server);
  if (self->direction != MCP_TRACE_DIRECTION_NONE)
    g_string_append_printf (out, ",\"direction\":\"%s\"", direction_names[self->direction]);
  if (self->kind == MCP_TRACE_KIND_MESSAGE ||
      (self->kind == MCP_TRACE_KIND_APP && self->error_class != MCP_TRACE_ERROR_PROTOCOL))
    g_string_append_printf (out, ",\"type\":\"%s\"", message_kind_names[self->message_kind]);
  member_string (out, self->kind == MCP_TRACE_KIND_AUTH ? "step" :
                      self->kind == MCP_TRACE_KIND_EVENT ? "event" :
                      self->kind == MCP_TRACE_KIND_SSE ? "event_type" : "method",
                 self->method);
  /* A JSON-RPC id is JSON text already; an event's id is free text. */
  if (self->kind == MCP_TRACE_KIND_SSE)
    member_string (out, "event_id", self->id);
  else if (self->id != NULL)
    g_string_append_printf (out, ",\"id\":%s", self->id);
  g_string_append_printf (out, ",\"size\":%" G_GSIZE_FORMAT, self->size);
  if (self->truncated)
    g_string_append (out, ",\"truncated\":true");
  member_uint (out, "request_seq", self->request_seq);
  member_uint (out, "response_seq", self->response_seq);
  if (self->duration >= 0)
    g_string_append_printf (out, ",\"duration_us\":%" G_GINT64_FORMAT, self->duration);
  member_uint (out, "group_seq", self->group_seq);
  member_uint (out, "round", self->round);
  member_uint (out, "related_seq", self->related_seq);
  member_uint (out, "http_seq", self->http_seq);
  if (self->error_class != MCP_TRACE_ERROR_NONE)
    {
      g_string_append_printf (out, ",\"error\":{\"class\":\"%s\",\"code\":%d",
                              error_class_names[self->error_class], self->error_code);
      member_string (out, "message", self->error_text);
      g_string_append_c (out, '}');
    }
  member_string (out, "url", self->url);
  member_uint (out, "status", self->status);
  member_headers (out, "request_headers", self->request_headers);
  member_headers (out, "response_headers", self->response_headers);
  member_string (out, "request_body", self->request_body);
  member_string (out, "response_body", self->response_body);
  member_string (out, "content_type", self->content_type);
  member_string (out, "session_id", self->session_id);
  if (self->retry >= 0)
    g_string_append_printf (out, ",\"retry_ms\":%" G_GINT64_FORMAT, self->retry);
  if (self->kind == MCP_TRACE_KIND_AUTH)
    g_string_append_printf (out, ",\"status\":\"%s\"", step_status_names[self->step_status]);
  if (self->kind == MCP_TRACE_KIND_MESSAGE || self->kind == MCP_TRACE_KIND_APP)
    member_message (out, self);
  else
    member_string (out, "text", self->text);
  g_string_append_c (out, '}');
}

static char *
dup_member (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  {
    g_autoptr(GString) text = g_string_new (NULL);

    mcp_json_append (text, node);
    return g_string_free (g_steal_pointer (&text), FALSE);
  }
}

static guint64
uint_member (JsonObject *object,
             const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  return (guint64) MAX (json_node_get_int (node), 0);
}

static char **
headers_member (JsonObject *object,
                const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *pair = json_array_get_element (array, i);
      JsonArray *p;

      if (!JSON_NODE_HOLDS_ARRAY (pair) || json_array_get_length (p = json_node_get_array (pair)) != 2 ||
          json_node_get_value_type (json_array_get_element (p, 0)) != G_TYPE_STRING ||
          json_node_get_value_type (json_array_get_element (p, 1)) != G_TYPE_STRING)
        continue;
      g_strv_builder_add (builder, json_array_get_string_element (p, 0));
      g_strv_builder_add (builder, json_array_get_string_element (p, 1));
    }
  return g_strv_builder_end (builder);
}

McpTraceEntry *
mcp_trace_entry_new_from_json (JsonObject  *object,
                               char       **out_server,
                               GError     **error)
{
  g_autoptr(McpTraceEntry) self = NULL;
  g_autofree char *kind = dup_member (object, "kind");
  g_autofree char *direction = dup_member (object, "direction");
  g_autofree char *type = dup_member (object, "type");
  g_autofree char *time = dup_member (object, "time");
  McpTraceKind k;
  guint i;

  g_return_val_if_fail (object != NULL, NULL);

  if (!mcp_trace_kind_from_string (kind, &k))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“kind” must be one of message, invalid, http, sse, stderr, event, auth, app"));
      return NULL;
    }

  self = mcp_trace_entry_new (k, MCP_TRACE_DIRECTION_NONE);
  if (name_index (direction, direction_names, G_N_ELEMENTS (direction_names), &i))
    self->direction = i;
  if (name_index (type, message_kind_names, G_N_ELEMENTS (message_kind_names), &i))
    self->message_kind = i;
  if (time != NULL)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601 (time, NULL);

      if (dt != NULL)
        self->time = g_date_time_to_unix (dt) * G_USEC_PER_SEC + g_date_time_get_microsecond (dt);
    }
  self->seq = uint_member (object, "seq");
  self->method = dup_member (object, k == MCP_TRACE_KIND_AUTH ? "step" :
                                     k == MCP_TRACE_KIND_EVENT ? "event" :
                                     k == MCP_TRACE_KIND_SSE ? "event_type" : "method");
  self->id = dup_member (object, k == MCP_TRACE_KIND_SSE ? "event_id" : "id");
  if (k != MCP_TRACE_KIND_SSE && self->id != NULL &&
      json_node_get_value_type (json_object_get_member (object, "id")) == G_TYPE_STRING)
    {
      g_autoptr(GString) quoted = g_string_new (NULL);

      mcp_json_append_string (quoted, self->id);
      g_free (self->id);
      self->id = g_string_free (g_steal_pointer (&quoted), FALSE);
    }
  self->size = uint_member (object, "size");
  self->truncated = json_object_has_member (object, "truncated");
  self->request_seq = uint_member (object, "request_seq");
  self->response_seq = uint_member (object, "response_seq");
  if (json_object_has_member (object, "duration_us"))
    self->duration = (gint64) uint_member (object, "duration_us");
  self->group_seq = uint_member (object, "group_seq");
  self->round = uint_member (object, "round");
  self->related_seq = uint_member (object, "related_seq");
  self->http_seq = uint_member (object, "http_seq");
  if (json_object_has_member (object, "error") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "error")))
    {
      JsonObject *e = json_object_get_object_member (object, "error");
      g_autofree char *class = dup_member (e, "class");

      if (name_index (class, error_class_names, G_N_ELEMENTS (error_class_names), &i))
        self->error_class = i;
      if (json_object_has_member (e, "code") &&
          json_node_get_value_type (json_object_get_member (e, "code")) == G_TYPE_INT64)
        self->error_code = (int) json_object_get_int_member (e, "code");
      self->error_text = dup_member (e, "message");
    }
  self->url = dup_member (object, "url");
  if (k == MCP_TRACE_KIND_AUTH)
    {
      g_autofree char *status = dup_member (object, "status");

      if (name_index (status, step_status_names, G_N_ELEMENTS (step_status_names), &i))
        self->step_status = i;
    }
  else
    self->status = uint_member (object, "status");
  self->request_headers = headers_member (object, "request_headers");
  self->response_headers = headers_member (object, "response_headers");
  self->request_body = dup_member (object, "request_body");
  self->response_body = dup_member (object, "response_body");
  self->content_type = dup_member (object, "content_type");
  self->session_id = dup_member (object, "session_id");
  if (json_object_has_member (object, "retry_ms"))
    self->retry = (gint64) uint_member (object, "retry_ms");
  self->text_is_json = json_object_has_member (object, "message");
  self->text = dup_member (object, self->text_is_json ? "message" : "text");

  if (out_server != NULL)
    *out_server = dup_member (object, "server");
  return g_steal_pointer (&self);
}

/* ---- curl ----------------------------------------------------------------- */

static void
append_shell_quoted (GString    *out,
                     const char *text)
{
  g_autofree char *quoted = g_shell_quote (text);

  g_string_append (out, quoted);
}

/* A masked value cannot be sent again: it becomes a shell variable named
 * after the header, which the person sets before running the command. */
static void
append_header (GString    *out,
               const char *name,
               const char *value)
{
  g_string_append (out, " \\\n  -H ");
  if (strstr (value, "***") != NULL)
    {
      g_autofree char *var = g_ascii_strup (name, -1);

      g_strdelimit (var, "-. ", '_');
      g_string_append_printf (out, "\"%s: $%s\"", name, var);
    }
  else
    {
      g_autofree char *header = g_strdup_printf ("%s: %s", name, value);

      append_shell_quoted (out, header);
    }
}

char *
mcp_trace_entry_dup_curl (McpTraceEntry *self,
                          const char    *url)
{
  GString *out;
  const char *body = NULL;
  char **headers = NULL;

  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (self), NULL);

  if (self->kind == MCP_TRACE_KIND_HTTP)
    {
      url = self->url;
      body = self->request_body;
      headers = self->request_headers;
    }
  else if (self->kind == MCP_TRACE_KIND_MESSAGE && self->direction == MCP_TRACE_DIRECTION_OUT &&
           !self->truncated)
    body = self->text;
  else
    return NULL;
  if (url == NULL)
    return NULL;

  out = g_string_new ("curl");
  if (self->kind == MCP_TRACE_KIND_HTTP && self->method != NULL && !g_str_equal (self->method, "GET") &&
      !(g_str_equal (self->method, "POST") && body != NULL))
    g_string_append_printf (out, " -X %s", self->method);
  g_string_append_c (out, ' ');
  append_shell_quoted (out, url);
  if (headers != NULL)
    {
      for (guint i = 0; headers[i] != NULL && headers[i + 1] != NULL; i += 2)
        if (g_ascii_strcasecmp (headers[i], "Content-Length") != 0 &&
            g_ascii_strcasecmp (headers[i], "Host") != 0)
          append_header (out, headers[i], headers[i + 1]);
    }
  else
    {
      append_header (out, "Content-Type", "application/json");
      append_header (out, "Accept", "application/json, text/event-stream");
    }
  if (body != NULL)
    {
      g_string_append (out, " \\\n  --data-raw ");
      append_shell_quoted (out, body);
    }
  return g_string_free (out, FALSE);
}
