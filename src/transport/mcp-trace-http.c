/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-trace"

#include "config.h"

#include "mcp-trace.h"
#include "mcp-trace-private.h"

#include <string.h>

#include "mcp-json-private.h"

/* HTTP exchanges in the trace, and the HAR export. The trace follows a
 * recorded SoupMessage's own signals for its status and headers; bodies
 * come from whoever reads them. */

#define SESSION_HEADER "Mcp-Session-Id"

/* The table of exchanges in flight is reached through the trace's
 * private lookup; the entry is held by the table. */
static GHashTable *
http_table (McpTrace *self)
{
  return g_object_get_data (G_OBJECT (self), "mcp-trace-http");
}

static GHashTable *
ensure_http_table (McpTrace *self)
{
  GHashTable *table = http_table (self);

  if (table == NULL)
    {
      table = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
      g_object_set_data_full (G_OBJECT (self), "mcp-trace-http", table,
                              (GDestroyNotify) g_hash_table_unref);
    }
  return table;
}

McpTraceEntry *
mcp_trace_lookup_http (McpTrace    *self,
                       SoupMessage *msg)
{
  GHashTable *table;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);

  table = http_table (self);
  return table != NULL ? g_hash_table_lookup (table, msg) : NULL;
}

static char *
mask_string (McpTrace   *self,
             const char *text)
{
  gboolean truncated;

  if (text == NULL)
    return NULL;
  return mcp_trace_mask_body (text, strlen (text), "text/plain", mcp_trace_get_secrets (self),
                              G_MAXSIZE, &truncated);
}

static void
set_duration (McpTraceEntry *entry)
{
  entry->duration = MAX (g_get_monotonic_time () - entry->mono, 0);
}

static void
got_headers_cb (SoupMessage *msg,
                McpTrace    *self)
{
  McpTraceEntry *entry = mcp_trace_lookup_http (self, msg);
  SoupMessageHeaders *headers;
  const char *session;
  const char *type;

  if (entry == NULL)
    return;

  headers = soup_message_get_response_headers (msg);
  entry->status = soup_message_get_status (msg);
  g_strfreev (entry->response_headers);
  entry->response_headers = mcp_trace_mask_headers (headers, mcp_trace_get_secrets (self));
  /* What libsoup added before sending (Host, User-Agent, Content-Length). */
  g_strfreev (entry->request_headers);
  entry->request_headers = mcp_trace_mask_headers (soup_message_get_request_headers (msg),
                                                   mcp_trace_get_secrets (self));
  type = soup_message_headers_get_one (headers, "Content-Type");
  g_free (entry->content_type);
  entry->content_type = g_strdup (type);
  session = soup_message_headers_get_one (headers, SESSION_HEADER);
  if (session != NULL)
    {
      g_free (entry->session_id);
      entry->session_id = mask_string (self, session);
    }
  if (entry->status >= 400)
    {
      entry->error_class = MCP_TRACE_ERROR_HTTP;
      entry->error_code = (int) entry->status;
      g_free (entry->error_text);
      entry->error_text = g_strdup_printf ("HTTP %u %s", entry->status,
                                           soup_message_get_reason_phrase (msg) ?: "");
    }
  mcp_trace_entry_changed (self, entry, TRUE);
}

/* The body may be read after "finished" (libsoup finishes a message when
 * its stream reaches the end): the exchange stays known until @msg goes. */
static void
finished_cb (SoupMessage *msg,
             McpTrace    *self)
{
  McpTraceEntry *entry = mcp_trace_lookup_http (self, msg);

  if (entry != NULL && entry->duration < 0)
    {
      set_duration (entry);
      mcp_trace_entry_changed (self, entry, TRUE);
    }
}

static void trace_gone_cb (gpointer data, GObject *where);

/* The message is gone: so is its place in the table. */
static void
msg_gone_cb (gpointer  data,
             GObject  *where)
{
  McpTrace *self = data;
  GHashTable *table = http_table (self);
  McpTraceEntry *entry = table != NULL ? g_hash_table_lookup (table, where) : NULL;

  g_object_weak_unref (G_OBJECT (self), trace_gone_cb, where);
  if (entry == NULL)
    return;
  entry->msg = NULL;
  g_hash_table_remove (table, where);
}

static void
trace_gone_cb (gpointer  data,
               GObject  *where)
{
  g_object_weak_unref (G_OBJECT (data), msg_gone_cb, where);
}

McpTraceEntry *
mcp_trace_record_http (McpTrace    *self,
                       SoupMessage *msg,
                       const char  *body,
                       gsize        length,
                       const char  *content_type)
{
  McpTraceEntry *entry;
  McpTraceEntry *message;
  g_autofree char *uri = NULL;
  g_autofree char *url = NULL;
  const char *session;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (SOUP_IS_MESSAGE (msg), NULL);

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_HTTP, MCP_TRACE_DIRECTION_OUT);
  entry->method = g_strdup (soup_message_get_method (msg));
  uri = g_uri_to_string (soup_message_get_uri (msg));
  url = mcp_trace_mask_url (uri);
  entry->url = mask_string (self, url);
  entry->request_headers = mcp_trace_mask_headers (soup_message_get_request_headers (msg),
                                                   mcp_trace_get_secrets (self));
  session = soup_message_headers_get_one (soup_message_get_request_headers (msg), SESSION_HEADER);
  entry->session_id = mask_string (self, session);
  entry->size = length;
  if (body != NULL)
    entry->request_body = mcp_trace_mask_body (body, length,
                                               content_type != NULL ? content_type : "application/json",
                                               mcp_trace_get_secrets (self), MCP_TRACE_MAX_BODY_BYTES,
                                               &entry->truncated);
  entry->msg = msg;

  /* The message just sent is what this POST carries. */
  message = mcp_trace_take_unlinked_message (self);
  if (message != NULL && body != NULL)
    entry->related_seq = message->seq;

  g_hash_table_insert (ensure_http_table (self), msg, g_object_ref (entry));
  g_signal_connect_object (msg, "got-headers", G_CALLBACK (got_headers_cb), self, 0);
  g_signal_connect_object (msg, "finished", G_CALLBACK (finished_cb), self, 0);
  g_object_weak_ref (G_OBJECT (msg), msg_gone_cb, self);
  g_object_weak_ref (G_OBJECT (self), trace_gone_cb, msg);

  mcp_trace_add (self, entry);
  if (entry->related_seq != 0 && message != NULL)
    message->http_seq = entry->seq;
  return entry;
}

void
mcp_trace_http_got_body (McpTrace      *self,
                         McpTraceEntry *entry,
                         const char    *body,
                         gsize          length)
{
  gboolean truncated = FALSE;

  g_return_if_fail (MCP_IS_TRACE (self));
  g_return_if_fail (MCP_IS_TRACE_ENTRY (entry));

  g_free (entry->response_body);
  entry->response_body = mcp_trace_mask_body (body != NULL ? body : "", length,
                                              entry->content_type, mcp_trace_get_secrets (self),
                                              MCP_TRACE_MAX_BODY_BYTES, &truncated);
  entry->truncated |= truncated;
  set_duration (entry);
  mcp_trace_set_receiving (self, entry->seq);
  mcp_trace_entry_changed (self, entry, TRUE);
}

void
mcp_trace_http_failed (McpTrace      *self,
                       McpTraceEntry *entry,
                       const GError  *error)
{
  g_return_if_fail (MCP_IS_TRACE (self));
  g_return_if_fail (MCP_IS_TRACE_ENTRY (entry));

  if (entry->error_class == MCP_TRACE_ERROR_NONE)
    entry->error_class = MCP_TRACE_ERROR_TRANSPORT;
  if (error != NULL && entry->status < 400)
    {
      g_free (entry->error_text);
      entry->error_text = mcp_trace_mask_text (self, error->message, -1);
    }
  set_duration (entry);
  mcp_trace_entry_changed (self, entry, TRUE);
}

/* ---- HAR ------------------------------------------------------------------- */

static void
add_headers (JsonBuilder *builder,
             const char  *member,
             const char * const *headers)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, headers[i]);
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, headers[i + 1]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static const char *
find_header (const char * const *headers,
             const char         *name)
{
  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    if (g_ascii_strcasecmp (headers[i], name) == 0)
      return headers[i + 1];
  return NULL;
}

static void
add_query (JsonBuilder *builder,
           const char  *url)
{
  const char *query = url != NULL ? strchr (url, '?') : NULL;
  g_auto(GStrv) pairs = NULL;

  json_builder_set_member_name (builder, "queryString");
  json_builder_begin_array (builder);
  if (query != NULL)
    {
      g_autofree char *part = g_strndup (query + 1, strcspn (query + 1, "#"));

      pairs = g_strsplit (part, "&", -1);
      for (guint i = 0; pairs[i] != NULL; i++)
        {
          char *eq = strchr (pairs[i], '=');

          if (*pairs[i] == '\0')
            continue;
          if (eq != NULL)
            *eq = '\0';
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, pairs[i]);
          json_builder_set_member_name (builder, "value");
          json_builder_add_string_value (builder, eq != NULL ? eq + 1 : "");
          json_builder_end_object (builder);
        }
    }
  json_builder_end_array (builder);
}

static void
add_entry (JsonBuilder   *builder,
           McpTraceEntry *entry)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (entry->time / G_USEC_PER_SEC);
  g_autoptr(GDateTime) precise = g_date_time_add (time, entry->time % G_USEC_PER_SEC);
  g_autofree char *started = g_date_time_format_iso8601 (precise);
  double ms = entry->duration >= 0 ? entry->duration / 1000.0 : 0;
  const char *request_type = find_header ((const char * const *) entry->request_headers, "Content-Type");

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "startedDateTime");
  json_builder_add_string_value (builder, started);
  json_builder_set_member_name (builder, "time");
  json_builder_add_double_value (builder, ms);

  json_builder_set_member_name (builder, "request");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, entry->method ? entry->method : "GET");
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, entry->url ? entry->url : "");
  json_builder_set_member_name (builder, "httpVersion");
  json_builder_add_string_value (builder, "HTTP/1.1");
  json_builder_set_member_name (builder, "cookies");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  add_headers (builder, "headers", (const char * const *) entry->request_headers);
  add_query (builder, entry->url);
  if (entry->request_body != NULL)
    {
      json_builder_set_member_name (builder, "postData");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "mimeType");
      json_builder_add_string_value (builder, request_type ? request_type : "application/json");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, entry->request_body);
      json_builder_end_object (builder);
    }
  json_builder_set_member_name (builder, "headersSize");
  json_builder_add_int_value (builder, -1);
  json_builder_set_member_name (builder, "bodySize");
  json_builder_add_int_value (builder, entry->request_body != NULL ? (gint64) entry->size : 0);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "response");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "status");
  json_builder_add_int_value (builder, entry->status);
  json_builder_set_member_name (builder, "statusText");
  json_builder_add_string_value (builder, entry->status == 0 && entry->error_text ? entry->error_text : "");
  json_builder_set_member_name (builder, "httpVersion");
  json_builder_add_string_value (builder, "HTTP/1.1");
  json_builder_set_member_name (builder, "cookies");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  add_headers (builder, "headers", (const char * const *) entry->response_headers);
  json_builder_set_member_name (builder, "content");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, entry->response_body ? (gint64) strlen (entry->response_body) : 0);
  json_builder_set_member_name (builder, "mimeType");
  json_builder_add_string_value (builder, entry->content_type ? entry->content_type : "");
  if (entry->response_body != NULL)
    {
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, entry->response_body);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "redirectURL");
  json_builder_add_string_value (builder, "");
  json_builder_set_member_name (builder, "headersSize");
  json_builder_add_int_value (builder, -1);
  json_builder_set_member_name (builder, "bodySize");
  json_builder_add_int_value (builder, -1);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "cache");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "timings");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "send");
  json_builder_add_int_value (builder, 0);
  json_builder_set_member_name (builder, "wait");
  json_builder_add_double_value (builder, ms);
  json_builder_set_member_name (builder, "receive");
  json_builder_add_int_value (builder, 0);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
}

char *
mcp_trace_entries_to_har (GPtrArray *entries)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  GString *out = g_string_new (NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "log");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, "1.2");
  json_builder_set_member_name (builder, "creator");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "Plugboard");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "entries");
  json_builder_begin_array (builder);
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);

      if (entry->kind == MCP_TRACE_KIND_HTTP)
        add_entry (builder, entry);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  mcp_json_append_pretty (out, root);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}
