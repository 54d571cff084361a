/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-transport"

#include "config.h"

#include "mcp-transport.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-trace.h"

typedef struct
{
  McpTrace *trace;                /* nullable */
  const char *received_text;      /* what the message emitted next was read from */
  gsize received_length;
  guint network_errors;
  GQueue pending;                 /* of Received, in the order read */
  GError *closed_reason;          /* closed waiting for pending */
  guint connected : 1;
  guint closed : 1;
  guint closed_emitted : 1;
  guint close_waiting : 1;
  guint draining : 1;
} McpTransportPrivate;

/* One line, body or event, parsed or being parsed. */
typedef struct
{
  GPtrArray *messages;
  GError *error;
  char *text;                     /* the data made valid UTF-8, when invalid */
  GBytes *raw;                    /* the data as read, when traced */
  gboolean done;
} Received;

static void
received_free (Received *received)
{
  g_clear_pointer (&received->messages, g_ptr_array_unref);
  g_clear_error (&received->error);
  g_free (received->text);
  g_clear_pointer (&received->raw, g_bytes_unref);
  g_free (received);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Received, received_free)

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (McpTransport, mcp_transport, G_TYPE_OBJECT)

enum {
  MESSAGE,
  CLOSED,
  INVALID_LINE,
  REQUEST_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void really_emit_closed (McpTransport *self, const GError *reason);

static void
mcp_transport_finalize (GObject *object)
{
  McpTransport *self = MCP_TRANSPORT (object);
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_queue_clear_full (&priv->pending, (GDestroyNotify) received_free);
  g_clear_error (&priv->closed_reason);
  g_clear_object (&priv->trace);

  G_OBJECT_CLASS (mcp_transport_parent_class)->finalize (object);
}

static void
mcp_transport_class_init (McpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_transport_finalize;

  /**
   * McpTransport::message:
   * @message: the message read from the server
   */
  signals[MESSAGE] =
    g_signal_new ("message",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, MCP_TYPE_MESSAGE);

  /**
   * McpTransport::closed:
   * @reason: (nullable): why the connection ended; %NULL when the owner
   *   asked for the close
   */
  signals[CLOSED] =
    g_signal_new ("closed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpTransport::invalid-line:
   * @line: the text the server sent
   * @error: what is wrong with it
   */
  signals[INVALID_LINE] =
    g_signal_new ("invalid-line",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpTransport::request-failed:
   * @id: the id of the request that will get no answer
   * @error: why
   */
  signals[REQUEST_FAILED] =
    g_signal_new ("request-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
mcp_transport_init (McpTransport *self)
{
}

void
mcp_transport_connect_async (McpTransport        *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  MCP_TRANSPORT_GET_CLASS (self)->connect_async (self, cancellable, callback, user_data);
}

gboolean
mcp_transport_connect_finish (McpTransport  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return MCP_TRANSPORT_GET_CLASS (self)->connect_finish (self, result, error);
}

gboolean
mcp_transport_send (McpTransport  *self,
                    McpMessage    *message,
                    GError       **error)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);
  g_return_val_if_fail (MCP_IS_MESSAGE (message), FALSE);

  if (priv->closed)
    {
      g_autofree char *what = mcp_transport_describe (self);

      g_set_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                   /* Translators: %s is the server's URL or command. */
                   _("The connection to “%s” is closed"), what);
      return FALSE;
    }

  if (!priv->connected)
    {
      g_autofree char *what = mcp_transport_describe (self);

      g_set_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                   /* Translators: %s is the server's URL or command. */
                   _("Not connected to “%s”"), what);
      return FALSE;
    }

  return MCP_TRANSPORT_GET_CLASS (self)->send (self, message, error);
}

void
mcp_transport_close_async (McpTransport        *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  MCP_TRANSPORT_GET_CLASS (self)->close_async (self, cancellable, callback, user_data);
}

gboolean
mcp_transport_close_finish (McpTransport  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return MCP_TRANSPORT_GET_CLASS (self)->close_finish (self, result, error);
}

gboolean
mcp_transport_supports_stateless (McpTransport *self)
{
  McpTransportClass *klass;

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  klass = MCP_TRANSPORT_GET_CLASS (self);
  return klass->supports_stateless != NULL && klass->supports_stateless (self);
}

gboolean
mcp_transport_mirrors_param_headers (McpTransport *self)
{
  McpTransportClass *klass;

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  klass = MCP_TRANSPORT_GET_CLASS (self);
  return klass->mirrors_param_headers != NULL && klass->mirrors_param_headers (self);
}

char *
mcp_transport_describe (McpTransport *self)
{
  McpTransportClass *klass;

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), NULL);

  klass = MCP_TRANSPORT_GET_CLASS (self);
  if (klass->describe != NULL)
    return klass->describe (self);

  return g_strdup (G_OBJECT_TYPE_NAME (self));
}

gboolean
mcp_transport_is_connected (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  return priv->connected && !priv->closed;
}

gboolean
mcp_transport_is_closed (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  return priv->closed;
}

void
mcp_transport_set_connected (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (MCP_IS_TRANSPORT (self));

  if (!priv->closed)
    {
      priv->connected = TRUE;
      if (priv->trace != NULL)
        {
          g_autofree char *what = mcp_transport_describe (self);

          mcp_trace_record_event (priv->trace, "connected", what, NULL, NULL);
        }
    }
}

void
mcp_transport_set_trace (McpTransport *self,
                         McpTrace     *trace)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (trace == NULL || MCP_IS_TRACE (trace));

  g_set_object (&priv->trace, trace);
}

McpTrace *
mcp_transport_get_trace (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), NULL);

  return priv->trace;
}

void
mcp_transport_trace_sent (McpTransport *self,
                          McpMessage   *message,
                          const char   *text,
                          gsize         length)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  if (priv->trace != NULL)
    mcp_trace_record_message (priv->trace, MCP_TRACE_DIRECTION_OUT, message, text, length);
}

void
mcp_transport_emit_message (McpTransport *self,
                            McpMessage   *message)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (MCP_IS_MESSAGE (message));

  if (priv->trace != NULL)
    mcp_trace_record_message (priv->trace, MCP_TRACE_DIRECTION_IN, message,
                              priv->received_text, priv->received_length);
  priv->received_text = NULL;
  g_signal_emit (self, signals[MESSAGE], 0, message);
}

void
mcp_transport_set_received_text (McpTransport *self,
                                 const char   *text,
                                 gsize         length)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  priv->received_text = priv->trace != NULL ? text : NULL;
  priv->received_length = length;
}

void
mcp_transport_emit_invalid_line (McpTransport *self,
                                 const char   *line,
                                 const GError *error)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (line != NULL);

  if (priv->trace != NULL)
    mcp_trace_record_invalid (priv->trace, line, strlen (line), error);
  g_signal_emit (self, signals[INVALID_LINE], 0, line, error);
}

/* Parses in a worker thread: pure C over the buffer, no shared state. */
static void
parse_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GBytes *data = task_data;
  Received *received = g_new0 (Received, 1);
  gsize length;
  const char *bytes = g_bytes_get_data (data, &length);

  received->messages = mcp_message_parse (bytes, (gssize) length, &received->error);
  if (received->messages == NULL)
    received->text = g_utf8_make_valid (bytes, (gssize) length);
  g_task_return_pointer (task, received, (GDestroyNotify) received_free);
}

static void
deliver (McpTransport *self,
         Received     *received)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);
  g_autoptr(JsonNode) id = NULL;

  if (received->messages == NULL)
    {
      g_autofree char *what = mcp_transport_describe (self);

      g_debug ("“%s” sent data that are not JSON-RPC (%s): %.200s",
               what, received->error->message, received->text);
      mcp_transport_emit_invalid_line (self, received->text, received->error);

      /* An answer that does not parse must not leave its request
       * waiting: when its id can still be read, the request fails now,
       * with what is wrong with the answer. */
      id = mcp_message_recover_id (received->text, strlen (received->text));
      if (id != NULL && !priv->closed_emitted)
        mcp_transport_emit_request_failed (self, id, received->error);
      return;
    }

  for (guint i = 0; i < received->messages->len; i++)
    {
      /* A close that was not waiting for us (the owner's, or one that
       * happened in a handler) stops the rest, as before. */
      if (priv->closed_emitted || (priv->closed && !priv->close_waiting))
        return;
      if (received->raw != NULL && received->messages->len == 1)
        {
          gsize length = 0;
          const char *raw = g_bytes_get_data (received->raw, &length);

          mcp_transport_set_received_text (self, raw, length);
        }
      mcp_transport_emit_message (self, g_ptr_array_index (received->messages, i));
    }
}

/* Delivers what is ready at the head of the queue, then a closed that waited. */
static void
drain (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  if (priv->draining)
    return;

  g_object_ref (self);
  priv->draining = TRUE;
  while (!g_queue_is_empty (&priv->pending))
    {
      Received *received = g_queue_peek_head (&priv->pending);

      if (!received->done)
        break;
      g_queue_pop_head (&priv->pending);
      deliver (self, received);
      received_free (received);
    }
  priv->draining = FALSE;

  if (g_queue_is_empty (&priv->pending) && priv->close_waiting)
    {
      g_autoptr(GError) reason = g_steal_pointer (&priv->closed_reason);

      priv->close_waiting = FALSE;
      really_emit_closed (self, reason);
    }
  g_object_unref (self);
}

static void
parse_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  McpTransport *self = MCP_TRANSPORT (object);
  Received *slot = user_data;
  g_autoptr(Received) parsed = g_task_propagate_pointer (G_TASK (result), NULL);

  slot->messages = g_steal_pointer (&parsed->messages);
  slot->error = g_steal_pointer (&parsed->error);
  slot->text = g_steal_pointer (&parsed->text);
  slot->done = TRUE;
  drain (self);
}

void
mcp_transport_receive_bytes (McpTransport *self,
                             GBytes       *data)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);
  Received *received;

  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (data != NULL);

  if (g_bytes_get_size (data) < MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      gsize length;
      const char *bytes = g_bytes_get_data (data, &length);

      mcp_transport_receive (self, bytes, length);
      return;
    }

  received = g_new0 (Received, 1);
  if (priv->trace != NULL)
    received->raw = g_bytes_ref (data);
  g_queue_push_tail (&priv->pending, received);
  {
    g_autoptr(GTask) task = g_task_new (self, NULL, parse_done_cb, received);

    g_task_set_source_tag (task, mcp_transport_receive_bytes);
    g_task_set_task_data (task, g_bytes_ref (data), (GDestroyNotify) g_bytes_unref);
    g_task_run_in_thread (task, parse_thread);
  }
}

void
mcp_transport_receive (McpTransport *self,
                       const char   *data,
                       gsize         length)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);
  Received *received;

  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (data != NULL || length == 0);

  if (length >= MCP_TRANSPORT_THREADED_PARSE_SIZE)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (data, length);

      mcp_transport_receive_bytes (self, bytes);
      return;
    }

  received = g_new0 (Received, 1);
  if (priv->trace != NULL)
    received->raw = g_bytes_new (data, length);
  received->messages = mcp_message_parse (data, (gssize) length, &received->error);
  if (received->messages == NULL)
    received->text = g_utf8_make_valid (data, (gssize) length);
  received->done = TRUE;
  g_queue_push_tail (&priv->pending, received);
  drain (self);
}

void
mcp_transport_emit_closed (McpTransport *self,
                           const GError *reason)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (MCP_IS_TRANSPORT (self));

  if (priv->closed)
    return;

  priv->closed = TRUE;
  priv->connected = FALSE;

  /* What was read before the end is delivered before it. */
  if (!g_queue_is_empty (&priv->pending))
    {
      priv->close_waiting = TRUE;
      priv->closed_reason = reason != NULL ? g_error_copy (reason) : NULL;
      return;
    }

  really_emit_closed (self, reason);
}

static void
really_emit_closed (McpTransport *self,
                    const GError *reason)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  priv->closed_emitted = TRUE;
  if (priv->trace != NULL)
    mcp_trace_record_event (priv->trace, "closed",
                            reason != NULL ? reason->message : _("Closed by Plugboard"),
                            reason, NULL);
  /* A handler may drop the last reference to the transport. */
  g_object_ref (self);
  g_signal_emit (self, signals[CLOSED], 0, reason);
  g_object_unref (self);
}

void
mcp_transport_emit_request_failed (McpTransport *self,
                                   JsonNode     *id,
                                   const GError *error)
{
  g_return_if_fail (MCP_IS_TRANSPORT (self));
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (id != NULL);
  g_return_if_fail (error != NULL);

  if (priv->trace != NULL)
    mcp_trace_record_request_failed (priv->trace, id, error,
                                     g_error_matches (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED) ? 404 : 0);
  g_signal_emit (self, signals[REQUEST_FAILED], 0, id, error);
}

gboolean
mcp_transport_error_is_terminal (const GError *error)
{
  if (error == NULL)
    return FALSE;

  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        case G_IO_ERROR_CONNECTION_REFUSED:
        case G_IO_ERROR_BROKEN_PIPE:
        case G_IO_ERROR_TIMED_OUT:
        case G_IO_ERROR_HOST_UNREACHABLE:
        case G_IO_ERROR_NETWORK_UNREACHABLE:
        case G_IO_ERROR_HOST_NOT_FOUND:
        case G_IO_ERROR_NOT_CONNECTED:
          return TRUE;
        default:
          return FALSE;
        }
    }

  if (error->domain == G_TLS_ERROR)
    return TRUE;

  return g_error_matches (error, MCP_ERROR, MCP_ERROR_NETWORK);
}

void
mcp_transport_note_success (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_if_fail (MCP_IS_TRANSPORT (self));

  priv->network_errors = 0;
}

gboolean
mcp_transport_note_network_error (McpTransport *self,
                                  const GError *error)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);
  g_autoptr(GError) reason = NULL;
  g_autofree char *what = NULL;

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  if (priv->closed || !mcp_transport_error_is_terminal (error))
    return FALSE;

  if (++priv->network_errors < MCP_TRANSPORT_MAX_NETWORK_ERRORS)
    return FALSE;

  what = mcp_transport_describe (self);
  reason = g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
                        /* Translators: %u is a count of errors, %s the server's URL or
                         * command, the last %s the last error's message. */
                        ngettext ("%u network error in a row talking to “%s” (the last: %s); "
                                  "reconnect to go on",
                                  "%u network errors in a row talking to “%s” (the last: %s); "
                                  "reconnect to go on",
                                  priv->network_errors),
                        priv->network_errors, what, error->message);
  mcp_transport_emit_closed (self, reason);
  return TRUE;
}

guint
mcp_transport_get_network_errors (McpTransport *self)
{
  McpTransportPrivate *priv = mcp_transport_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), 0);

  return priv->network_errors;
}
