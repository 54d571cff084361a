/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include "mcp-http-transport.h"
#include "mcp-http-transport-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpHttpTransport: what the server sends back — messages (the answer to
 * initialize opens the GET stream), event streams and their resumption,
 * and the order of what is parsed in a worker thread. */

static void
handle_message (McpHttpTransport *self,
                Exchange         *ex,
                McpMessage       *message)
{
  McpMessageKind kind = mcp_message_get_kind (message);
  JsonNode *id = mcp_message_get_id (message);

  if ((kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR) && id != NULL)
    {
      if (ex != NULL && ex->id != NULL && json_node_equal (id, ex->id))
        {
          ex->got_response = TRUE;
          g_clear_handle_id (&ex->timeout_id, g_source_remove);
        }

      if (self->initialize_id != NULL && json_node_equal (id, self->initialize_id))
        {
          g_clear_pointer (&self->initialize_id, json_node_unref);
          if (kind == MCP_MESSAGE_RESULT)
            {
              JsonNode *result = mcp_message_get_result (message);
              const char *version = NULL;

              if (result != NULL && JSON_NODE_HOLDS_OBJECT (result))
                {
                  JsonNode *node = json_object_get_member (json_node_get_object (result),
                                                           "protocolVersion");

                  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
                      json_node_get_value_type (node) == G_TYPE_STRING)
                    version = json_node_get_string (node);
                }
              if (version != NULL && strpbrk (version, "\r\n") == NULL)
                mcp_http_transport_set_string (self, PROP_PROTOCOL_VERSION, version);

              /* At once, before the owner's next message: a stream opened
               * later can be mistaken by the server for the resumption of
               * a request's stream. */
              if (!self->stream_opened)
                {
                  self->stream_opened = TRUE;
                  mcp_http_transport_open_stream (self);
                }
            }
        }
    }

  mcp_transport_emit_message (MCP_TRANSPORT (self), message);
}

void
mcp_http_transport_handle_messages (McpHttpTransport *self,
                                    Exchange         *ex,
                                    GPtrArray        *messages)
{
  for (guint i = 0; i < messages->len; i++)
    {
      if (mcp_transport_is_closed (MCP_TRANSPORT (self)))
        break;
      handle_message (self, ex, g_ptr_array_index (messages, i));
    }
}

/* An event's data, parsed into @messages, or not JSON-RPC (@error). */
static void
event_parsed (Exchange     *ex,
              const char   *data,
              gsize         length,
              GPtrArray    *messages,
              const GError *error)
{
  g_autoptr(McpHttpTransport) self = g_object_ref (ex->self);

  if (messages != NULL)
    {
      if (messages->len == 1)
        mcp_transport_set_received_text (MCP_TRANSPORT (self), data, length);
      mcp_http_transport_handle_messages (self, ex, messages);
      return;
    }

  {
    g_autofree char *text = g_utf8_make_valid (data, (gssize) length);

    g_autoptr(JsonNode) id = NULL;

    g_debug ("“%s” sent an event that is not JSON-RPC (%s)", url_of (self), error->message);
    mcp_transport_emit_invalid_line (MCP_TRANSPORT (self), text, error);

    /* An answer that does not parse fails its request now, as on the
     * other transports (mcp-transport.c), rather than when the stream
     * ends — which an open stream may never do. */
    id = mcp_message_recover_id (data, length);
    if (id != NULL)
      mcp_transport_emit_request_failed (MCP_TRANSPORT (self), id, error);
  }
}

static void events_done (Exchange     *ex,
                         const GError *error);

/* Handles what is ready at the head of the exchange's backlog. */
static void
exchange_drain (Exchange *ex)
{
  if (ex->draining)
    return;

  mcp_http_exchange_ref (ex);
  ex->draining = TRUE;
  while (!g_queue_is_empty (&ex->backlog))
    {
      Item *item = g_queue_peek_head (&ex->backlog);

      if (!item->ready)
        break;
      g_queue_pop_head (&ex->backlog);

      /* A finished exchange drops what was still waiting. */
      if (ex->self != NULL && !g_cancellable_is_cancelled (ex->cancellable))
        {
          gsize length = 0;
          const char *data = item->data != NULL ? g_bytes_get_data (item->data, &length) : NULL;

          switch (item->kind)
            {
            case ITEM_EVENT:
              event_parsed (ex, data, length, item->messages, item->error);
              break;
            case ITEM_BODY:
              mcp_http_exchange_body_parsed (ex, item->messages, item->error);
              break;
            case ITEM_EVENTS_END:
            default:
              events_done (ex, item->error);
              break;
            }
        }
      mcp_http_exchange_item_free (item);
    }
  ex->draining = FALSE;
  mcp_http_exchange_unref (ex);
}

typedef struct
{
  GPtrArray *messages;
  GError    *error;
} Parsed;

static void
parsed_free (Parsed *parsed)
{
  g_clear_pointer (&parsed->messages, g_ptr_array_unref);
  g_clear_error (&parsed->error);
  g_free (parsed);
}

/* In a worker thread: pure C over the bytes, no shared state. */
static void
parse_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GBytes *data = task_data;
  Parsed *parsed = g_new0 (Parsed, 1);
  gsize length;
  const char *bytes = g_bytes_get_data (data, &length);

  parsed->messages = mcp_message_parse (bytes, (gssize) length, &parsed->error);
  g_task_return_pointer (task, parsed, (GDestroyNotify) parsed_free);
}

typedef struct
{
  Exchange *ex;    /* a reference */
  Item     *item;  /* in ex->backlog until it is ready */
} ParseJob;

static void
parse_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ParseJob *job = user_data;
  Parsed *parsed = g_task_propagate_pointer (G_TASK (result), NULL);

  job->item->messages = g_steal_pointer (&parsed->messages);
  job->item->error = g_steal_pointer (&parsed->error);
  job->item->ready = TRUE;
  parsed_free (parsed);
  exchange_drain (job->ex);
  mcp_http_exchange_unref (job->ex);
  g_free (job);
}

/* Queues @item behind what waits already. Data of
 * MCP_TRANSPORT_THREADED_PARSE_SIZE or more are parsed in a worker thread
 * (parsing 50 MB held the main loop for about half a second), and what
 * comes after them on this exchange waits its turn. */
void
mcp_http_exchange_push (Exchange *ex,
                        Item     *item)
{
  g_queue_push_tail (&ex->backlog, item);

  if (item->data != NULL && g_bytes_get_size (item->data) >= MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      g_autoptr(GTask) task = NULL;
      ParseJob *job = g_new0 (ParseJob, 1);

      job->ex = mcp_http_exchange_ref (ex);
      job->item = item;
      task = g_task_new (NULL, NULL, parse_done_cb, job);
      g_task_set_source_tag (task, mcp_http_exchange_push);
      g_task_set_task_data (task, g_bytes_ref (item->data), (GDestroyNotify) g_bytes_unref);
      g_task_run_in_thread (task, parse_thread);
      return;
    }

  if (item->data != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (item->data, &length);

      item->messages = mcp_message_parse (data, (gssize) length, &item->error);
    }
  item->ready = TRUE;
  exchange_drain (ex);
}

static void
event_cb (const char *event_type,
          const char *data,
          const char *last_event_id,
          gpointer    user_data)
{
  Exchange *ex = user_data;
  McpHttpTransport *self = ex->self;
  gsize length;

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  mcp_http_exchange_restart_timer (ex);
  mcp_http_exchange_trace_event (ex, event_type, data, last_event_id);

  /* Events with no data prime a resumption (their id) and carry nothing. */
  if (g_strcmp0 (event_type, "message") != 0 || data[0] == '\0')
    return;

  length = strlen (data);
  if (g_queue_is_empty (&ex->backlog) && length < MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) messages = mcp_message_parse (data, (gssize) length, &error);

      event_parsed (ex, data, length, messages, error);
    }
  else
    {
      Item *item = g_new0 (Item, 1);

      item->kind = ITEM_EVENT;
      item->data = g_bytes_new (data, length);
      mcp_http_exchange_push (ex, item);
    }
}

static gboolean
retry_cb (gpointer user_data)
{
  Exchange *ex = user_data;

  ex->retry_id = 0;
  mcp_http_exchange_start (ex);

  return G_SOURCE_REMOVE;
}

void
mcp_http_exchange_schedule_retry (Exchange *ex)
{
  gint64 retry = mcp_sse_parser_get_retry (ex->parser);

  if (retry < 0)
    retry = MCP_HTTP_DEFAULT_RETRY_MS;
  retry = MIN (retry, 10 * 60 * 1000);

  g_debug ("Reconnecting to “%s” in %" G_GINT64_FORMAT " ms", url_of (ex->self), retry);
  g_clear_handle_id (&ex->retry_id, g_source_remove);
  ex->retry_id = g_timeout_add ((guint) retry, retry_cb, ex);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, ex->retry_id),
                            "[mcp-http-transport] reconnect");
}

/* The stream ended, cleanly when @error is NULL. */
static void
events_done (Exchange     *ex,
             const GError *ended)
{
  g_autoptr(McpHttpTransport) self = g_object_ref (ex->self);
  g_autoptr(GError) error = ended != NULL ? g_error_copy (ended) : NULL;

  if (error != NULL)
    {
      g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
        {
          g_prefix_error (&error, "“%s”: ", url_of (self));
          if (ex->kind == EXCHANGE_STREAM)
            {
              mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
              mcp_http_transport_finish_exchanges (self);
            }
          else
            mcp_http_exchange_fail (ex, g_steal_pointer (&error));
          return;
        }

      g_debug ("The stream from “%s” broke: %s", url_of (self), network->message);
      if (mcp_http_transport_note_network_error (self, network))
        return;
    }
  else
    mcp_transport_note_success (MCP_TRANSPORT (self));

  if (ex->kind == EXCHANGE_STREAM)
    {
      mcp_http_exchange_schedule_retry (ex);
      return;
    }

  if (ex->id == NULL || ex->got_response)
    {
      mcp_http_exchange_finish (ex);
      return;
    }

  /* The stateless revision has no resumption: the owner sends the request
   * again, with a new id. */
  if (ex->stateless)
    {
      g_autofree char *id = mcp_http_describe_id (ex->id);

      mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_STREAM_BROKEN,
                                               /* Translators: %s is the server's URL, then a request id. */
                                               _("The stream from “%s” ended before the answer to request %s"),
                                               url_of (self), id));
      return;
    }

  /* The stream ended before the answer: resume it when the server gave
   * event ids, as the specification says. */
  if (mcp_sse_parser_get_last_event_id (ex->parser) != NULL)
    {
      const char *last_id = mcp_sse_parser_get_last_event_id (ex->parser);

      /* A server that takes each resume and cuts it again before a new
       * event would keep us resuming until the request's timeout. */
      if (ex->resumed_from != NULL && g_str_equal (ex->resumed_from, last_id))
        ex->idle_resumes++;
      else
        ex->idle_resumes = 0;

      if (ex->idle_resumes < MAX_IDLE_RESUMES)
        {
          g_free (ex->resumed_from);
          ex->resumed_from = g_strdup (last_id);
          ex->kind = EXCHANGE_RESUME;
          mcp_http_exchange_schedule_retry (ex);
          return;
        }
    }

  {
    g_autofree char *id = mcp_http_describe_id (ex->id);

    if (error != NULL)
      {
        mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
                                                 /* Translators: %s is the server's URL, then a request id, then why
                                                  * the stream ended. */
                                                 _("The stream from “%s” ended before the answer to request %s: %s"),
                                                 url_of (self), id, error->message));
      }
    else
      {
        mcp_http_exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
                                                 /* Translators: %s is the server's URL, then a request id. */
                                                 _("The stream from “%s” ended before the answer to request %s"),
                                                 url_of (self), id));
      }
  }
}

static void
events_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(GError) error = NULL;

  mcp_http_read_events_finish (result, &error);

  if (ex->self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  /* After the events still being parsed. */
  if (!g_queue_is_empty (&ex->backlog))
    {
      Item *item = g_new0 (Item, 1);

      item->kind = ITEM_EVENTS_END;
      item->error = g_steal_pointer (&error);
      mcp_http_exchange_push (ex, item);
      return;
    }

  events_done (ex, error);
}

void
mcp_http_exchange_read_stream (Exchange     *ex,
                               GInputStream *stream)
{
  if (ex->parser == NULL)
    ex->parser = mcp_sse_parser_new (MCP_SSE_PARSER_DEFAULT_MAX_BUFFER);
  else
    mcp_sse_parser_reset (ex->parser);

  mcp_http_read_events_async (stream, ex->parser, event_cb, ex, ex->cancellable,
                              events_done_cb, mcp_http_exchange_ref (ex));
}
