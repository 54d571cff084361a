/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include "mcp-http-transport.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"

#define SESSION_HEADER "Mcp-Session-Id"
#define VERSION_HEADER "MCP-Protocol-Version"
#define METHOD_HEADER "Mcp-Method"
#define NAME_HEADER "Mcp-Name"

typedef enum
{
  EXCHANGE_POST,      /* one message POSTed */
  EXCHANGE_STREAM,    /* the standalone GET stream */
  EXCHANGE_RESUME,    /* a POST's stream, resumed with GET + Last-Event-ID */
} ExchangeKind;

/* One message POSTed and what it answered, or the GET stream. Each pending
 * async call holds a reference; the transport's list holds one while it
 * cares. Once detached (self == NULL) callbacks only drop their reference. */
#define MAX_IDLE_RESUMES 3

typedef struct
{
  gatomicrefcount   ref_count;
  McpHttpTransport *self;
  ExchangeKind      kind;
  GBytes           *body;
  JsonNode         *id;            /* the request's id; NULL for others */
  SoupMessage      *msg;
  McpSseParser     *parser;
  GCancellable     *cancellable;
  guint             timeout_id;
  guint             retry_id;
  char             *resumed_from;  /* the last event id when we last resumed */
  guint             idle_resumes;  /* resumes in a row that brought no event */
  guint             is_initialize : 1;
  guint             sent_session : 1;
  guint             auth_rounds;      /* challenges answered, at most MCP_AUTH_MAX_ROUNDS */
  guint             got_response : 1;
  guint             draining : 1;
  /* A request of the stateless revision: its version, method and name go
   * in headers too; no session, no resumption. */
  guint             stateless : 1;
  guint             long_lived : 1;   /* subscriptions/listen: no timeout */
  char             *version;          /* stateless: MCP-Protocol-Version */
  char             *method;           /* stateless: Mcp-Method */
  char             *name;             /* stateless: Mcp-Name, or NULL */
  GHashTable       *headers;          /* stateless: Mcp-Param-* (raw values), or NULL */
  /* What came and waits its turn behind data parsed in a worker thread
   * (Item, in order); see exchange_push(). */
  GQueue            backlog;
} Exchange;

typedef enum
{
  ITEM_EVENT,        /* an SSE event's data */
  ITEM_BODY,         /* a JSON response body */
  ITEM_EVENTS_END,   /* the end of an SSE stream */
} ItemKind;

typedef struct
{
  ItemKind   kind;
  gboolean   ready;     /* parsed (always, for ITEM_EVENTS_END) */
  GBytes    *data;      /* ITEM_EVENT, ITEM_BODY */
  GPtrArray *messages;  /* the data parsed, or NULL */
  GError    *error;     /* why the data are not JSON-RPC; for
                         * ITEM_EVENTS_END, how the stream ended (nullable) */
} Item;

static void
item_free (Item *item)
{
  g_clear_pointer (&item->data, g_bytes_unref);
  g_clear_pointer (&item->messages, g_ptr_array_unref);
  g_clear_error (&item->error);
  g_free (item);
}

struct _McpHttpTransport
{
  McpRemoteTransport parent_instance;

  /* Owned references */
  SoupSession      *session;
  GPtrArray        *exchanges;
  Exchange         *stream;        /* also in exchanges */
  char             *session_id;
  char             *protocol_version;
  char             *www_authenticate;
  JsonNode         *initialize_id;

  guint             started : 1;
  guint             closing : 1;
  guint             stream_opened : 1;
};

G_DEFINE_FINAL_TYPE (McpHttpTransport, mcp_http_transport, MCP_TYPE_REMOTE_TRANSPORT)

enum {
  PROP_0,
  PROP_SESSION_ID,
  PROP_PROTOCOL_VERSION,
  PROP_WWW_AUTHENTICATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static inline const char *
url_of (McpHttpTransport *self)
{
  return mcp_remote_transport_get_url (MCP_REMOTE_TRANSPORT (self));
}

static void start_exchange (Exchange *ex);

static Exchange *
exchange_ref (Exchange *ex)
{
  g_atomic_ref_count_inc (&ex->ref_count);
  return ex;
}

static void
exchange_unref (Exchange *ex)
{
  if (!g_atomic_ref_count_dec (&ex->ref_count))
    return;

  g_assert (ex->timeout_id == 0 && ex->retry_id == 0);
  g_queue_clear_full (&ex->backlog, (GDestroyNotify) item_free);
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Exchange, exchange_unref)

static Exchange *
exchange_new (McpHttpTransport *self,
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

/* The transport no longer cares: stop timers and I/O, drop the list's
 * reference. */
static void
exchange_finish (Exchange *ex)
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

static void
finish_all_exchanges (McpHttpTransport *self)
{
  while (self->exchanges->len > 0)
    exchange_finish (g_ptr_array_index (self->exchanges, self->exchanges->len - 1));
}

static char *
describe_id (JsonNode *id)
{
  if (id == NULL)
    return g_strdup ("?");
  if (json_node_get_value_type (id) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (id));
  if (json_node_get_value_type (id) == G_TYPE_STRING)
    {
      /* Translators: a request id that is a string, in quotes. */
      return g_strdup_printf (_("“%s”"), json_node_get_string (id));
    }
  return g_strdup ("?");
}

/* Fails the exchange's request with @error (only logged for others) and
 * ends the exchange. */
static void
exchange_fail (Exchange *ex,
               GError   *error)
{
  McpHttpTransport *self = ex->self;
  g_autoptr(GError) owned = error;

  g_debug ("%s", owned->message);

  if (self != NULL && ex->id != NULL && !ex->got_response)
    {
      g_autoptr(JsonNode) id = json_node_ref (ex->id);

      ex->got_response = TRUE;
      exchange_finish (ex);
      mcp_transport_emit_request_failed (MCP_TRANSPORT (self), id, owned);
      return;
    }

  exchange_finish (ex);
}

/* Returns TRUE when this closed the transport. */
static gboolean
note_network_error (McpHttpTransport *self,
                    const GError     *error)
{
  if (mcp_transport_note_network_error (MCP_TRANSPORT (self), error))
    {
      finish_all_exchanges (self);
      return TRUE;
    }
  return FALSE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  Exchange *ex = user_data;
  McpHttpTransport *self = ex->self;
  g_autofree char *id = describe_id (ex->id);

  ex->timeout_id = 0;
  exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                  /* Translators: %s is the server's URL, then a request id (a number or
                                   * a quoted text), %u a time in milliseconds. */
                                  _("“%s” did not answer request %s within %u ms"),
                                  url_of (self), id,
                                  mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self))));

  return G_SOURCE_REMOVE;
}

static void
exchange_restart_timer (Exchange *ex)
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

static void
set_string (McpHttpTransport  *self,
            char             **field,
            const char        *value,
            GParamSpec        *pspec)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

static void
open_stream (McpHttpTransport *self)
{
  Exchange *ex;

  if (self->stream != NULL || mcp_transport_is_closed (MCP_TRANSPORT (self)) || self->closing)
    return;

  ex = exchange_new (self, EXCHANGE_STREAM);
  ex->parser = mcp_sse_parser_new (MCP_SSE_PARSER_DEFAULT_MAX_BUFFER);
  self->stream = ex;
  start_exchange (ex);
}

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
                set_string (self, &self->protocol_version, version,
                            properties[PROP_PROTOCOL_VERSION]);

              /* At once, before the owner's next message: a stream opened
               * later can be mistaken by the server for the resumption of
               * a request's stream. */
              if (!self->stream_opened)
                {
                  self->stream_opened = TRUE;
                  open_stream (self);
                }
            }
        }
    }

  mcp_transport_emit_message (MCP_TRANSPORT (self), message);
}

static void
handle_messages (McpHttpTransport *self,
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
      handle_messages (self, ex, messages);
      return;
    }

  {
    g_autofree char *text = g_utf8_make_valid (data, (gssize) length);

    g_debug ("“%s” sent an event that is not JSON-RPC (%s)", url_of (self), error->message);
    mcp_transport_emit_invalid_line (MCP_TRANSPORT (self), text, error);
  }
}

static void body_parsed (Exchange     *ex,
                         GPtrArray    *messages,
                         const GError *error);
static void events_done (Exchange     *ex,
                         const GError *error);

/* Handles what is ready at the head of the exchange's backlog. */
static void
exchange_drain (Exchange *ex)
{
  if (ex->draining)
    return;

  exchange_ref (ex);
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
              body_parsed (ex, item->messages, item->error);
              break;
            case ITEM_EVENTS_END:
            default:
              events_done (ex, item->error);
              break;
            }
        }
      item_free (item);
    }
  ex->draining = FALSE;
  exchange_unref (ex);
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
  exchange_unref (job->ex);
  g_free (job);
}

/* Queues @item behind what waits already. Data of
 * MCP_TRANSPORT_THREADED_PARSE_SIZE or more are parsed in a worker thread
 * (parsing 50 MB held the main loop for about half a second), and what
 * comes after them on this exchange waits its turn. */
static void
exchange_push (Exchange *ex,
               Item     *item)
{
  g_queue_push_tail (&ex->backlog, item);

  if (item->data != NULL && g_bytes_get_size (item->data) >= MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      g_autoptr(GTask) task = NULL;
      ParseJob *job = g_new0 (ParseJob, 1);

      job->ex = exchange_ref (ex);
      job->item = item;
      task = g_task_new (NULL, NULL, parse_done_cb, job);
      g_task_set_source_tag (task, exchange_push);
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

  exchange_restart_timer (ex);

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
      exchange_push (ex, item);
    }
}

static gboolean
retry_cb (gpointer user_data)
{
  Exchange *ex = user_data;

  ex->retry_id = 0;
  start_exchange (ex);

  return G_SOURCE_REMOVE;
}

static void
schedule_retry (Exchange *ex)
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
              finish_all_exchanges (self);
            }
          else
            exchange_fail (ex, g_steal_pointer (&error));
          return;
        }

      g_debug ("The stream from “%s” broke: %s", url_of (self), network->message);
      if (note_network_error (self, network))
        return;
    }
  else
    mcp_transport_note_success (MCP_TRANSPORT (self));

  if (ex->kind == EXCHANGE_STREAM)
    {
      schedule_retry (ex);
      return;
    }

  if (ex->id == NULL || ex->got_response)
    {
      exchange_finish (ex);
      return;
    }

  /* The stateless revision has no resumption: the owner sends the request
   * again, with a new id. */
  if (ex->stateless)
    {
      g_autofree char *id = describe_id (ex->id);

      exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_STREAM_BROKEN,
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
          schedule_retry (ex);
          return;
        }
    }

  {
    g_autofree char *id = describe_id (ex->id);

    if (error != NULL)
      {
        exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
                                        /* Translators: %s is the server's URL, then a request id, then why
                                         * the stream ended. */
                                        _("The stream from “%s” ended before the answer to request %s: %s"),
                                        url_of (self), id, error->message));
      }
    else
      {
        exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
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
      exchange_push (ex, item);
      return;
    }

  events_done (ex, error);
}

static void
read_stream (Exchange     *ex,
             GInputStream *stream)
{
  if (ex->parser == NULL)
    ex->parser = mcp_sse_parser_new (MCP_SSE_PARSER_DEFAULT_MAX_BUFFER);
  else
    mcp_sse_parser_reset (ex->parser);

  mcp_http_read_events_async (stream, ex->parser, event_cb, ex, ex->cancellable,
                              events_done_cb, exchange_ref (ex));
}

static void
json_body_cb (GObject      *object,
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

  id = describe_id (ex->id);

  if (body == NULL)
    {
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
        {
          exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                          /* Translators: %s is the server's URL, then a request id, then
                                           * the size limit that was passed. */
                                          _("“%s” answered request %s with too much: %s"),
                                          url_of (self), id, error->message));
          return;
        }
      else
        {
          g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

          exchange_fail (ex, g_error_copy (network));
          note_network_error (self, network);
          return;
        }
    }

  mcp_transport_note_success (MCP_TRANSPORT (self));

  data = g_bytes_get_data (body, &size);
  if (size == 0)
    {
      exchange_finish (ex);
      return;
    }

  if (size >= MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      Item *item = g_new0 (Item, 1);

      item->kind = ITEM_BODY;
      item->data = g_steal_pointer (&body);
      exchange_push (ex, item);
      return;
    }

  {
    g_autoptr(GPtrArray) messages = mcp_message_parse (data, (gssize) size, &error);

    body_parsed (ex, messages, error);
  }
}

/* A response body, parsed into @messages, or not JSON-RPC (@error). */
static void
body_parsed (Exchange     *ex,
             GPtrArray    *messages,
             const GError *error)
{
  g_autoptr(McpHttpTransport) self = g_object_ref (ex->self);
  g_autofree char *id = describe_id (ex->id);

  if (messages != NULL)
    handle_messages (self, ex, messages);
  else
    {
      if (ex->id != NULL)
        {
          exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                          /* Translators: %s is the server's URL, then a request id, then
                                           * the parser's error. */
                                          _("“%s” answered request %s with something that is not JSON-RPC: %s"),
                                          url_of (self), id, error->message));
        }
      else
        {
          exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                          /* Translators: %s is the server's URL, then the parser's error. */
                                          _("“%s” answered a message with something that is not JSON-RPC: %s"),
                                          url_of (self), error->message));
        }
      return;
    }

  if (ex->id != NULL && !ex->got_response && ex->self != NULL)
    {
      exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                      /* Translators: %s is the server's URL, then a request id. */
                                      _("“%s” answered request %s without its response"),
                                      url_of (self), id));
      return;
    }

  exchange_finish (ex);
}

/* The JSON-RPC error a stateless server put in an error status's body, as
 * the answer to @ex's request; NULL when the body is not one. An error
 * without an id (the spec allows one when the request could not be read)
 * is taken when its code is one of the revision's own. */
static McpMessage *
stateless_error_answer (Exchange *ex,
                        GBytes   *body)
{
  g_autoptr(GPtrArray) messages = NULL;
  McpMessage *message;
  JsonNode *id;
  gsize size;
  const char *data = g_bytes_get_data (body, &size);
  int code;

  if (size == 0 || size > MCP_HTTP_ERROR_BODY_MAX || !mcp_http_is_json (ex->msg))
    return NULL;

  messages = mcp_message_parse (data, (gssize) size, NULL);
  if (messages == NULL || messages->len != 1)
    return NULL;

  message = g_ptr_array_index (messages, 0);
  if (mcp_message_get_kind (message) != MCP_MESSAGE_ERROR)
    return NULL;

  id = mcp_message_get_id (message);
  code = mcp_message_get_error_code (message);
  if (id != NULL && !JSON_NODE_HOLDS_NULL (id))
    {
      if (!json_node_equal (id, ex->id))
        return NULL;
      return g_object_ref (message);
    }

  if (code != MCP_JSONRPC_ERROR_HEADER_MISMATCH &&
      code != MCP_JSONRPC_ERROR_MISSING_CLIENT_CAPABILITY &&
      code != MCP_JSONRPC_ERROR_UNSUPPORTED_PROTOCOL_VERSION)
    return NULL;

  return mcp_message_new_error (ex->id, code, mcp_message_get_error_message (message),
                                mcp_message_get_error_data (message));
}

static void
error_body_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GBytes) body = NULL;

  body = mcp_http_read_body_finish (result, NULL);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  if (ex->kind == EXCHANGE_RESUME)
    {
      g_autoptr(GError) error = mcp_http_status_error (url_of (self), ex->msg, body);

      g_prefix_error (&error, _("Could not resume the stream of a request: "));
      exchange_fail (ex, g_steal_pointer (&error));
      return;
    }

  /* A server of the stateless revision answers an unsupported version, a
   * header mismatch, a missing capability or an unknown method with a 4xx
   * whose body is the JSON-RPC error: that is the answer to the request.
   * Anything else (a handshake-era server's 400 without our id, say) stays
   * an HTTP error, which tells the owner the server is of the old era. */
  if (ex->stateless && body != NULL && ex->id != NULL)
    {
      g_autoptr(McpMessage) answer = stateless_error_answer (ex, body);

      if (answer != NULL)
        {
          ex->got_response = TRUE;
          exchange_finish (ex);
          mcp_transport_emit_message (MCP_TRANSPORT (self), answer);
          return;
        }
    }

  exchange_fail (ex, mcp_http_status_error (url_of (self), ex->msg, body));
}

static void
challenge_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GError) error = NULL;
  gboolean retry;

  retry = mcp_auth_provider_handle_challenge_finish (MCP_AUTH_PROVIDER (object), result, &error);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  if (retry)
    {
      start_exchange (ex);
      return;
    }

  /* The provider's own verdict names the server and says what to do. */
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH))
    {
      exchange_fail (ex, g_steal_pointer (&error));
      return;
    }

  if (error != NULL)
    {
      g_autoptr(GError) needs_auth = mcp_http_needs_auth_error (url_of (self), ex->msg);

      exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, "%s: %s",
                                      needs_auth->message, error->message));
      return;
    }

  exchange_fail (ex, mcp_http_needs_auth_error (url_of (self), ex->msg));
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = ex->self ? g_object_ref (ex->self) : NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (self == NULL || g_cancellable_is_cancelled (ex->cancellable))
    return;

  if (stream == NULL)
    {
      g_autoptr(GError) network = mcp_http_network_error (url_of (self), error);

      if (ex->kind == EXCHANGE_STREAM)
        {
          g_debug ("The stream from “%s” could not open: %s", url_of (self), network->message);
          if (!note_network_error (self, network))
            schedule_retry (ex);
          return;
        }

      exchange_fail (ex, g_error_copy (network));
      note_network_error (self, network);
      return;
    }

  status = soup_message_get_status (ex->msg);
  headers = soup_message_get_response_headers (ex->msg);

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      mcp_transport_note_success (MCP_TRANSPORT (self));

      if (ex->is_initialize)
        {
          const char *session_id = soup_message_headers_get_one (headers, SESSION_HEADER);

          /* Only visible ASCII may go back into a header. */
          if (session_id != NULL)
            {
              gboolean valid = session_id[0] != '\0';

              for (const char *p = session_id; *p != '\0'; p++)
                valid &= (*p >= 0x21 && *p <= 0x7e);
              if (valid)
                set_string (self, &self->session_id, session_id, properties[PROP_SESSION_ID]);
              else
                g_debug ("“%s” sent an invalid session id; ignored", url_of (self));
            }
        }

      if (mcp_http_is_event_stream (ex->msg))
        {
          exchange_restart_timer (ex);
          read_stream (ex, stream);
          return;
        }

      if (ex->kind != EXCHANGE_POST)
        {
          g_debug ("“%s” answered the GET stream with %u and no event stream", url_of (self), status);
          if (ex->kind == EXCHANGE_RESUME)
            {
              g_autofree char *id = describe_id (ex->id);

              exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                              /* Translators: %s is the server's URL, then a request id. */
                                              _("“%s” did not resume the stream of request %s"),
                                              url_of (self), id));
            }
          else
            exchange_finish (ex);
          return;
        }

      if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT ||
          ex->id == NULL || mcp_http_is_json (ex->msg))
        {
          /* Also a JSON body for a notification is read (and emitted). */
          mcp_http_read_body_async (stream, MCP_HTTP_MAX_BODY, FALSE, ex->cancellable,
                                    json_body_cb, exchange_ref (ex));
          return;
        }

      {
        g_autofree char *id = describe_id (ex->id);
        const char *type = soup_message_headers_get_content_type (headers, NULL);

        exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                        /* Translators: %s is the server's URL, then a request id, then a
                                         * content type such as “text/html” (or “no content type”). */
                                        _("“%s” answered request %s with “%s”, neither JSON nor an event stream"),
                                        url_of (self), id, type != NULL ? type : _("no content type")));
        return;
      }
    }

  if (ex->kind == EXCHANGE_STREAM)
    {
      if (status == SOUP_STATUS_METHOD_NOT_ALLOWED)
        g_debug ("“%s” offers no stream for server messages (HTTP 405)", url_of (self));
      else
        g_debug ("“%s” answered the GET stream with HTTP %u; going on without it",
                 url_of (self), status);
      exchange_finish (ex);
      return;
    }

  /* A resume of a POST's stream carries the session too. */
  if (status == SOUP_STATUS_NOT_FOUND && ex->sent_session &&
      (ex->kind == EXCHANGE_POST || ex->kind == EXCHANGE_RESUME))
    {
      set_string (self, &self->session_id, NULL, properties[PROP_SESSION_ID]);
      exchange_fail (ex, g_error_new (MCP_ERROR, MCP_ERROR_SESSION_EXPIRED,
                                      /* Translators: %s is the server's URL. */
                                      _("The session with “%s” expired; start a new one"),
                                      url_of (self)));
      return;
    }

  if (mcp_http_is_auth_challenge (ex->msg))
    {
      const char *challenge = soup_message_headers_get_one (headers, "WWW-Authenticate");
      McpAuthProvider *provider = mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self));

      set_string (self, &self->www_authenticate, challenge, properties[PROP_WWW_AUTHENTICATE]);

      if (provider != NULL && ex->auth_rounds < MCP_AUTH_MAX_ROUNDS)
        {
          ex->auth_rounds++;
          mcp_auth_provider_handle_challenge_async (provider, status, challenge,
                                                    ex->cancellable, challenge_cb,
                                                    exchange_ref (ex));
          return;
        }

      exchange_fail (ex, mcp_http_needs_auth_error (url_of (self), ex->msg));
      return;
    }

  mcp_http_read_body_async (stream, MCP_HTTP_ERROR_BODY_MAX + 1, TRUE, ex->cancellable,
                            error_body_cb, exchange_ref (ex));
}

static void
start_exchange (Exchange *ex)
{
  McpHttpTransport *self = ex->self;
  SoupMessageHeaders *headers;

  g_clear_object (&ex->msg);
  ex->msg = soup_message_new (ex->kind == EXCHANGE_POST ? SOUP_METHOD_POST : SOUP_METHOD_GET,
                              url_of (self));
  g_assert (ex->msg != NULL);
  headers = soup_message_get_request_headers (ex->msg);

  /* libsoup opens a new connection for every request it may not resend
   * (libsoup#356): a TCP handshake per MCP message. It resends only a
   * request written to a kept-alive connection the server had already
   * closed, which therefore never reached it. */
  soup_message_add_flags (ex->msg, SOUP_MESSAGE_IDEMPOTENT);

  mcp_http_apply_headers (ex->msg,
                          mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));

  if (ex->kind == EXCHANGE_POST)
    {
      soup_message_set_request_body_from_bytes (ex->msg, "application/json", ex->body);
      soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
    }
  else
    {
      const char *last_event_id = ex->parser ? mcp_sse_parser_get_last_event_id (ex->parser) : NULL;

      soup_message_headers_replace (headers, "Accept", "text/event-stream");
      if (last_event_id != NULL && strpbrk (last_event_id, "\r\n") == NULL)
        soup_message_headers_replace (headers, "Last-Event-ID", last_event_id);
    }

  if (ex->stateless)
    {
      /* No session in this revision; the version, method and name are
       * mirrored from the body for the intermediaries that route on them. */
      ex->sent_session = FALSE;
      soup_message_headers_replace (headers, VERSION_HEADER, ex->version);
      soup_message_headers_replace (headers, METHOD_HEADER, ex->method);
      if (ex->name != NULL)
        {
          g_autofree char *value = mcp_http_header_value_encode (ex->name);

          soup_message_headers_replace (headers, NAME_HEADER, value);
        }
      if (ex->headers != NULL)
        {
          GHashTableIter iter;
          gpointer name, raw;

          g_hash_table_iter_init (&iter, ex->headers);
          while (g_hash_table_iter_next (&iter, &name, &raw))
            {
              g_autofree char *value = mcp_http_header_value_encode (raw);

              soup_message_headers_replace (headers, name, value);
            }
        }
    }
  else
    {
      ex->sent_session = self->session_id != NULL;
      if (self->session_id != NULL)
        soup_message_headers_replace (headers, SESSION_HEADER, self->session_id);
      if (self->protocol_version != NULL)
        soup_message_headers_replace (headers, VERSION_HEADER, self->protocol_version);
    }

  soup_session_send_async (self->session, ex->msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           sent_cb, exchange_ref (ex));
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
          exchange_finish (ex);
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
mcp_http_transport_supports_stateless (McpTransport *transport)
{
  return TRUE;
}

static gboolean
mcp_http_transport_mirrors_param_headers (McpTransport *transport)
{
  return TRUE;
}

static gboolean
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

  ex = exchange_new (self, EXCHANGE_POST);
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

  exchange_restart_timer (ex);
  start_exchange (ex);

  return TRUE;
}

static gboolean
check_url (const char  *url,
           GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   /* Translators: %s is the URL as written in the settings, then why
                    * it does not parse. */
                   _("“%s” is not a valid URL: %s"), url, local_error->message);
      return FALSE;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("“%s” is not an http or https URL"), url);
      return FALSE;
    }

  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      /* Translators: %s is a URL. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED, _("“%s” names no host"), url);
      return FALSE;
    }

  return TRUE;
}

static void
mcp_http_transport_connect_async (McpTransport        *transport,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_transport_connect_async);

  if (self->started)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The transport for “%s” was already started"), url_of (self));
      return;
    }
  self->started = TRUE;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!check_url (url_of (self), &error) ||
      !mcp_remote_transport_check_headers (MCP_REMOTE_TRANSPORT (self), &error))
    {
      g_debug ("%s", error->message);
      mcp_transport_emit_closed (transport, error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Nothing to open: the first POST is initialize. */
  self->session = mcp_http_session_new (url_of (self));
  mcp_transport_set_connected (transport);
  g_task_return_boolean (task, TRUE);
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpHttpTransport *self = g_task_get_source_object (task);
  SoupMessage *msg = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    g_debug ("Could not end the session with “%s”: %s", url_of (self), error->message);
  else if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (msg)))
    g_debug ("“%s” answered DELETE with HTTP %u", url_of (self), soup_message_get_status (msg));

  set_string (self, &self->session_id, NULL, properties[PROP_SESSION_ID]);
  mcp_transport_emit_closed (MCP_TRANSPORT (self), NULL);
  g_task_return_boolean (task, TRUE);
}

static void
mcp_http_transport_close_async (McpTransport        *transport,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) msg = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_transport_close_async);

  self->closing = TRUE;
  finish_all_exchanges (self);

  if (mcp_transport_is_closed (transport) || self->session == NULL || self->session_id == NULL)
    {
      mcp_transport_emit_closed (transport, NULL);
      g_task_return_boolean (task, TRUE);
      return;
    }

  msg = soup_message_new (SOUP_METHOD_DELETE, url_of (self));
  mcp_http_apply_headers (msg,
                          mcp_remote_transport_get_headers (MCP_REMOTE_TRANSPORT (self)),
                          mcp_remote_transport_get_auth_provider (MCP_REMOTE_TRANSPORT (self)));
  soup_message_headers_replace (soup_message_get_request_headers (msg),
                                SESSION_HEADER, self->session_id);
  if (self->protocol_version != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
                                  VERSION_HEADER, self->protocol_version);
  g_task_set_task_data (task, g_object_ref (msg), g_object_unref);
  soup_session_send_and_read_async (self->session, msg, G_PRIORITY_DEFAULT, cancellable,
                                    delete_cb, g_steal_pointer (&task));
}

static void
mcp_http_transport_dispose (GObject *object)
{
  McpHttpTransport *self = (McpHttpTransport *)object;

  finish_all_exchanges (self);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->dispose (object);
}

static void
mcp_http_transport_finalize (GObject *object)
{
  McpHttpTransport *self = (McpHttpTransport *)object;

  g_clear_pointer (&self->exchanges, g_ptr_array_unref);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);
  g_clear_pointer (&self->www_authenticate, g_free);
  g_clear_pointer (&self->initialize_id, json_node_unref);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->finalize (object);
}

static void
mcp_http_transport_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;

    case PROP_PROTOCOL_VERSION:
      g_value_set_string (value, self->protocol_version);
      break;

    case PROP_WWW_AUTHENTICATE:
      g_value_set_string (value, self->www_authenticate);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_http_transport_class_init (McpHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_http_transport_dispose;
  object_class->finalize = mcp_http_transport_finalize;
  object_class->get_property = mcp_http_transport_get_property;

  transport_class->connect_async = mcp_http_transport_connect_async;
  transport_class->send = mcp_http_transport_send;
  transport_class->supports_stateless = mcp_http_transport_supports_stateless;
  transport_class->mirrors_param_headers = mcp_http_transport_mirrors_param_headers;
  transport_class->close_async = mcp_http_transport_close_async;

  properties[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PROTOCOL_VERSION] =
    g_param_spec_string ("protocol-version", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_WWW_AUTHENTICATE] =
    g_param_spec_string ("www-authenticate", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_http_transport_init (McpHttpTransport *self)
{
  self->exchanges = g_ptr_array_new_with_free_func ((GDestroyNotify) exchange_unref);
}

McpTransport *
mcp_http_transport_new (const char         *url,
                        const char * const *headers,
                        McpAuthProvider    *auth_provider)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (!auth_provider || MCP_IS_AUTH_PROVIDER (auth_provider), NULL);

  return g_object_new (MCP_TYPE_HTTP_TRANSPORT,
                       "url", url,
                       "headers", headers,
                       "auth-provider", auth_provider,
                       NULL);
}

const char *
mcp_http_transport_get_url (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return url_of (self);
}

const char *
mcp_http_transport_get_session_id (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->session_id;
}

const char *
mcp_http_transport_get_protocol_version (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->protocol_version;
}

const char *
mcp_http_transport_get_www_authenticate (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->www_authenticate;
}

guint
mcp_http_transport_get_request_timeout (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), 0);

  return mcp_remote_transport_get_request_timeout (MCP_REMOTE_TRANSPORT (self));
}

void
mcp_http_transport_set_request_timeout (McpHttpTransport *self,
                                        guint             timeout_ms)
{
  g_return_if_fail (MCP_IS_HTTP_TRANSPORT (self));

  mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (self), timeout_ms);
}
