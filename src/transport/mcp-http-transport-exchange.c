/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include "mcp-http-transport.h"
#include "mcp-http-transport-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpHttpTransport: an exchange (one message POSTed and what it answered,
 * or the GET stream) — sending a message as one, its life, its request
 * timeout, and an answer that is a JSON body. */

void
mcp_http_exchange_item_free (Item *item)
{
  g_clear_pointer (&item->data, g_bytes_unref);
  g_clear_pointer (&item->messages, g_ptr_array_unref);
  g_clear_error (&item->error);
  g_free (item);
}

Exchange *
mcp_http_exchange_ref (Exchange *ex)
{
  g_atomic_ref_count_inc (&ex->ref_count);
  return ex;
}

void
mcp_http_exchange_unref (Exchange *ex)
{
  if (!g_atomic_ref_count_dec (&ex->ref_count))
    return;

  g_assert (ex->timeout_id == 0 && ex->retry_id == 0);
  g_queue_clear_full (&ex->backlog, (GDestroyNotify) mcp_http_exchange_item_free);
  g_clear_pointer (&ex->body, g_bytes_unref);
  g_clear_pointer (&ex->id, json_node_unref);
  g_clear_object (&ex->msg);
  g_clear_object (&ex->parser);
  g_clear_object (&ex->cancellable);
  g_free (ex->resumed_from);
  g_free (ex->version);
  g_free (ex->method);
  g_free (ex->name);
  g_clear_pointer (&ex->headers, g_hash_table_unref);
  g_free (ex);
}

Exchange *
mcp_http_exchange_new (McpHttpTransport *self,
                       ExchangeKind      kind)
{
  Exchange *ex = g_new0 (Exchange, 1);

  g_atomic_ref_count_init (&ex->ref_count);
  ex->self = self;
  ex->kind = kind;
  ex->cancellable = g_cancellable_new ();
  g_ptr_array_add (self->exchanges, ex);

  return ex;
}

void
mcp_http_exchange_finish (Exchange *ex)
{
  McpHttpTransport *self = ex->self;

  g_clear_handle_id (&ex->timeout_id, g_source_remove);
  g_clear_handle_id (&ex->retry_id, g_source_remove);
  g_cancellable_cancel (ex->cancellable);

  if (self == NULL)
    return;

  ex->self = NULL;
  if (self->stream == ex)
    self->stream = NULL;
  g_ptr_array_remove (self->exchanges, ex);
}

void
mcp_http_transport_finish_exchanges (McpHttpTransport *self)
{
  while (self->exchanges->len > 0)
    mcp_http_exchange_finish (g_ptr_array_index (self->exchanges, self->exchanges->len - 1));
}


void
mcp_http_exchange_fail (Exchange *ex,
                        GError   *error)
{
  McpHttpTransport *self = ex->self;
  g_autoptr(GError) owned = error;

  g_debug ("%s", owned->message);

  if (self != NULL && ex->id != NULL && !ex->got_response)
    {
      g_autoptr(JsonNode) id = json_node_ref (ex->id);

      ex->got_response = TRUE;
      mcp_http_exchange_finish (ex);
      mcp_transport_emit_request_failed (MCP_TRANSPORT (self), id, owned);
      return;
    }

  mcp_http_exchange_finish (ex);
}

gboolean
mcp_http_transport_note_network_error (McpHttpTransport *self,
                                       const GError     *error)
{
  if (mcp_transport_note_network_error (MCP_TRANSPORT (self), error))
    {
      mcp_http_transport_finish_exchanges (self);
      return TRUE;
    }
  return FALSE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  Exchange *ex = user_data;
  McpHttpTransport *self = ex->self;
  g_autofree char *id = mcp_http_describe_id (ex->id);

  ex->timeout_id = 0;
  mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                           /* Translators: %s is the server's URL, then a request id (a number or
                                            * a quoted text), %u a time in milliseconds. */
                                           _("“%s” did not answer request %s within %u ms"),
                                           url_of (self), id,
                                           mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self))));

  return G_SOURCE_REMOVE;
}

void
mcp_http_exchange_restart_timer (Exchange *ex)
{
  guint timeout_ms;

  g_clear_handle_id (&ex->timeout_id, g_source_remove);

  if (ex->id == NULL || ex->got_response || ex->self == NULL || ex->long_lived)
    return;

  timeout_ms = mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (ex->self));
  if (timeout_ms == 0)
    return;

  ex->timeout_id = g_timeout_add (timeout_ms, timeout_cb, ex);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, ex->timeout_id),
                            "[mcp-http-transport] request timeout");
}

void
mcp_http_transport_open_stream (McpHttpTransport *self)
{
  Exchange *ex;

  if (self->stream != NULL || mcp_transport_is_closed (MCP_TRANSPORT (self)) || self->closing)
    return;

  ex = mcp_http_exchange_new (self, EXCHANGE_STREAM);
  ex->parser = mcp_sse_parser_new (MCP_SSE_PARSER_DEFAULT_MAX_BUFFER);
  self->stream = ex;
  mcp_http_exchange_start (ex);
}


void
mcp_http_exchange_json_body_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  gsize size;
  const char *data;

  body = mcp_http_read_body_finish (result, &error);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  id = mcp_http_describe_id (ex->id);

  if (body == NULL)
    {
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
        {
          mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                                   /* Translators: %s is the server's URL, then a request id, then
                                                    * the size limit that was passed. */
                                                   _("“%s” answered request %s with too much: %s"),
                                                   url_of (self), id, error->message));
          return;
        }
      else
        {
          g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

          mcp_http_exchange_trace_failed (ex, network);
          mcp_http_exchange_fail (ex, g_error_copy (network));
          mcp_http_transport_note_network_error (self, network);
          return;
        }
    }

  mcp_transport_note_success (MCP_TRANSPORT (self));

  data = g_bytes_get_data (body, &size);
  mcp_http_exchange_trace_body (ex, data, size);
  if (size == 0)
    {
      mcp_http_exchange_finish (ex);
      return;
    }

  if (size >= MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      Item *item = g_new0 (Item, 1);

      item->kind = ITEM_BODY;
      item->data = g_steal_pointer (&body);
      mcp_http_exchange_push (ex, item);
      return;
    }

  {
    g_autoptr(GPtrArray) messages = mcp_message_parse (data, (gssize) size, &error);

    if (messages != NULL && messages->len == 1)
      mcp_transport_set_received_text (MCP_TRANSPORT (self), data, size);
    mcp_http_exchange_body_parsed (ex, messages, error);
  }
}

void
mcp_http_exchange_body_parsed (Exchange     *ex,
                               GPtrArray    *messages,
                               const GError *error)
{
  g_autoptr(McpHttpTransport) self = g_object_ref (ex->self);
  g_autofree char *id = mcp_http_describe_id (ex->id);

  if (messages != NULL)
    mcp_http_transport_handle_messages (self, ex, messages);
  else
    {
      mcp_http_exchange_trace_failed (ex, error);
      if (ex->id != NULL)
        {
          mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                   /* Translators: %s is the server's URL, then a request id, then
                                                    * the parser's error. */
                                                   _("“%s” answered request %s with something that is not JSON-RPC: %s"),
                                                   url_of (self), id, error->message));
        }
      else
        {
          mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                   /* Translators: %s is the server's URL, then the parser's error. */
                                                   _("“%s” answered a message with something that is not JSON-RPC: %s"),
                                                   url_of (self), error->message));
        }
      return;
    }

  if (ex->id != NULL && !ex->got_response && ex->self != NULL)
    {
      mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                               /* Translators: %s is the server's URL, then a request id. */
                                               _("“%s” answered request %s without its response"),
                                               url_of (self), id));
      return;
    }

  mcp_http_exchange_finish (ex);
}

/* The protocol version a stateless request carries in its _meta (valid as a
 * header value), or NULL for a request of the handshake era. */
static const char *
stateless_version_of (McpMessage *message)
{
  JsonObject *params = mcp_message_get_params_object (message);
  JsonNode *meta = params ? json_object_get_member (params, "_meta") : NULL;
  JsonNode *version;

  if (meta == NULL || !JSON_NODE_HOLDS_OBJECT (meta))
    return NULL;
  version = json_object_get_member (json_node_get_object (meta), MCP_META_PROTOCOL_VERSION);
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_STRING)
    return NULL;
  for (const char *p = json_node_get_string (version); *p != '\0'; p++)
    if (*p < 0x21 || *p > 0x7e)
      return NULL;
  return json_node_get_string (version);
}

/* notifications/cancelled for a stateless request still out: closes its
 * stream instead. TRUE when it did. */
static gboolean
cancel_stateless_request (McpHttpTransport *self,
                          McpMessage       *message)
{
  JsonObject *params;
  JsonNode *request_id;

  if (mcp_message_get_kind (message) != MCP_MESSAGE_NOTIFICATION ||
      g_strcmp0 (mcp_message_get_method (message), "notifications/cancelled") != 0 ||
      (params = mcp_message_get_params_object (message)) == NULL ||
      (request_id = json_object_get_member (params, "requestId")) == NULL)
    return FALSE;

  for (guint i = 0; i < self->exchanges->len; i++)
    {
      Exchange *ex = g_ptr_array_index (self->exchanges, i);

      if (ex->stateless && ex->id != NULL && json_node_equal (ex->id, request_id))
        {
          g_debug ("Closing the stream of request %s to “%s” to cancel it",
                   ex->method, url_of (self));
          ex->got_response = TRUE;
          mcp_http_exchange_finish (ex);
          return TRUE;
        }
    }

  return FALSE;
}

gboolean
mcp_http_transport_send (McpTransport  *transport,
                         McpMessage    *message,
                         GError       **error)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autofree char *text = NULL;
  gsize length;
  Exchange *ex;

  if (self->closing)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                   /* Translators: %s is the server's URL. */
                   _("The connection to “%s” is closing"), url_of (self));
      return FALSE;
    }

  /* In the stateless revision closing a request's stream is its
   * cancellation; no notification goes over HTTP. */
  if (cancel_stateless_request (self, message))
    return TRUE;

  text = mcp_message_to_string (message, &length);
  mcp_transport_trace_sent (MCP_TRANSPORT (self), message, text, length);

  ex = mcp_http_exchange_new (self, EXCHANGE_POST);
  ex->body = g_bytes_new_take (g_steal_pointer (&text), length);
  if (mcp_message_get_kind (message) == MCP_MESSAGE_REQUEST)
    {
      const char *version = stateless_version_of (message);

      if (version != NULL)
        {
          JsonObject *params = mcp_message_get_params_object (message);
          const char *method = mcp_message_get_method (message);
          const char *member = g_str_equal (method, "resources/read") ? "uri"
                               : (g_str_equal (method, "tools/call") || g_str_equal (method, "prompts/get")) ? "name"
                               : NULL;
          JsonNode *name = member != NULL && params != NULL ? json_object_get_member (params, member) : NULL;

          ex->stateless = TRUE;
          ex->version = g_strdup (version);
          ex->method = g_strdup (method);
          if (name != NULL && JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING)
            ex->name = g_strdup (json_node_get_string (name));
          ex->long_lived = g_str_equal (method, "subscriptions/listen");
          if (mcp_message_get_headers (message) != NULL)
            ex->headers = g_hash_table_ref (mcp_message_get_headers (message));
        }
      ex->id = json_node_copy (mcp_message_get_id (message));
      if (g_strcmp0 (mcp_message_get_method (message), "initialize") == 0)
        {
          ex->is_initialize = TRUE;
          g_clear_pointer (&self->initialize_id, json_node_unref);
          self->initialize_id = json_node_copy (ex->id);
        }
    }

  mcp_http_exchange_restart_timer (ex);
  mcp_http_exchange_start (ex);

  return TRUE;
}

/* ---- the trace ---------------------------------------------------------- */

static McpTrace *
trace_of (Exchange *ex)
{
  return ex->self != NULL ? mcp_transport_get_trace (MCP_TRANSPORT (ex->self)) : NULL;
}

void
mcp_http_exchange_trace_start (Exchange *ex)
{
  McpTrace *trace = trace_of (ex);
  gsize length = 0;
  const char *body = NULL;

  if (trace == NULL)
    return;
  if (ex->kind == EXCHANGE_RESUME && ex->resumed_from != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Resuming the stream after event “%s”"), ex->resumed_from);

      mcp_trace_record_event (trace, "resumed", text, NULL, ex->self->session_id);
    }
  if (ex->kind == EXCHANGE_POST && ex->body != NULL)
    body = g_bytes_get_data (ex->body, &length);
  mcp_trace_record_http (trace, ex->msg, body, length, "application/json");
}

void
mcp_http_exchange_trace_body (Exchange   *ex,
                              const char *data,
                              gsize       length)
{
  McpTrace *trace = trace_of (ex);
  McpTraceEntry *entry = trace != NULL ? mcp_trace_lookup_http (trace, ex->msg) : NULL;

  if (entry != NULL)
    mcp_trace_http_got_body (trace, entry, data, length);
}

void
mcp_http_exchange_trace_failed (Exchange     *ex,
                                const GError *error)
{
  McpTrace *trace = trace_of (ex);
  McpTraceEntry *entry = trace != NULL ? mcp_trace_lookup_http (trace, ex->msg) : NULL;

  if (entry != NULL)
    mcp_trace_http_failed (trace, entry, error);
}

void
mcp_http_exchange_trace_event (Exchange   *ex,
                               const char *event_type,
                               const char *data,
                               const char *last_event_id)
{
  McpTrace *trace = trace_of (ex);
  McpTraceEntry *entry;

  if (trace == NULL)
    return;
  entry = mcp_trace_lookup_http (trace, ex->msg);
  mcp_trace_record_sse_event (trace, entry != NULL ? mcp_trace_entry_get_seq (entry) : 0,
                              event_type, last_event_id, mcp_sse_parser_get_retry (ex->parser),
                              data, strlen (data));
}
