/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-transport.h"
#include "mcp-stdio-transport-private.h"

#include <errno.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "mcp-error.h"

/* McpStdioTransport: sending a message, and writing to the server's stdin
 * without ever blocking — send() queues, a source writes the queue before
 * each poll, then when the pipe drains. */

static gboolean flush_queue (McpStdioTransport  *self,
                             GError            **error);

void
mcp_stdio_transport_close_stdin (McpStdioTransport *self)
{
  /* What was queued (a last notifications/cancelled, say) goes out first,
   * as far as the pipe takes it without blocking. */
  if (self->stdin_stream != NULL && self->wqueue_offset < self->wqueue->len)
    flush_queue (self, NULL);

  clear_source (&self->stdin_source);
  clear_source (&self->flush_source);
  self->stdin_fd = -1;
  g_byte_array_set_size (self->wqueue, 0);
  self->wqueue_offset = 0;
  if (self->stdin_stream != NULL)
    {
      g_output_stream_close (self->stdin_stream, NULL, NULL);
      g_clear_object (&self->stdin_stream);
    }
}

static gboolean
stdin_writable_cb (int           fd,
                   GIOCondition  condition,
                   gpointer      user_data);

static GError *
write_error (McpStdioTransport *self,
             int                errsv)
{
  if (errsv == EPIPE)
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        _("Server “%s” closed its input"), command_name (self));

  return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                      /* Translators: %s is the server's command, then the system's error. */
                      _("Could not write to server “%s”: %s"),
                      command_name (self), g_strerror (errsv));
}

/* Writes what is queued until done or the pipe is full; never blocks. */
static gboolean
flush_queue (McpStdioTransport  *self,
             GError            **error)
{
  while (self->wqueue_offset < self->wqueue->len)
    {
      gssize n = write (self->stdin_fd,
                        self->wqueue->data + self->wqueue_offset,
                        self->wqueue->len - self->wqueue_offset);

      if (n < 0)
        {
          int errsv = errno;

          if (errsv == EINTR)
            continue;
          if (errsv == EAGAIN || errsv == EWOULDBLOCK)
            return TRUE;
          self->write_errno = errsv;
          g_propagate_error (error, write_error (self, errsv));
          return FALSE;
        }
      self->wqueue_offset += (gsize) n;
    }

  g_byte_array_set_size (self->wqueue, 0);
  self->wqueue_offset = 0;
  return TRUE;
}

/* A write failed: a broken pipe usually means the process just died, and
 * its exit says why better than EPIPE does. */
static void
handle_write_failure (McpStdioTransport *self,
                      GError            *reason)
{
  if (self->write_errno == EPIPE)
    {
      mcp_stdio_transport_close_stdin (self);
      if (self->pending_reason == NULL)
        self->pending_reason = g_steal_pointer (&reason);
      mcp_stdio_transport_begin_shutdown (self);
    }
  else
    mcp_stdio_transport_fail_connection (self, reason);

  g_clear_error (&reason);
}

static void
watch_stdin (McpStdioTransport *self)
{
  if (self->stdin_source != NULL)
    return;

  self->stdin_source = g_unix_fd_source_new (self->stdin_fd, G_IO_OUT);
  g_source_set_static_name (self->stdin_source, "[mcp-stdio-transport] stdin writable");
  g_source_set_callback (self->stdin_source, G_SOURCE_FUNC (stdin_writable_cb), self, NULL);
  g_source_attach (self->stdin_source, g_main_context_get_thread_default ());
}

static gboolean
stdin_writable_cb (int           fd,
                   GIOCondition  condition,
                   gpointer      user_data)
{
  McpStdioTransport *self = user_data;
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);
  GError *error = NULL;

  if (!flush_queue (self, &error))
    {
      g_clear_pointer (&self->stdin_source, g_source_unref);
      handle_write_failure (self, error);
      return G_SOURCE_REMOVE;
    }

  if (self->wqueue_offset < self->wqueue->len)
    return G_SOURCE_CONTINUE;

  g_clear_pointer (&self->stdin_source, g_source_unref);
  return G_SOURCE_REMOVE;
}

/* send() only queues. This source's prepare, which runs before every poll
 * of the main loop, writes the queue: all the messages sent during one
 * dispatch leave in one write(2), and none waits for an extra iteration. */
typedef struct
{
  GSource            parent;
  McpStdioTransport *self;                /* borrowed; the source dies first */
} FlushSource;

static gboolean
flush_source_prepare (GSource *source,
                      int     *timeout)
{
  McpStdioTransport *self = ((FlushSource *) source)->self;

  *timeout = -1;

  if (self->write_failure != NULL)
    return TRUE;
  if (self->stdin_source != NULL || self->wqueue_offset >= self->wqueue->len)
    return FALSE;

  if (!flush_queue (self, &self->write_failure))
    return TRUE;

  /* The pipe is full: dispatch to wait for it to drain. */
  return self->wqueue_offset < self->wqueue->len;
}

static gboolean
flush_source_dispatch (GSource     *source,
                       GSourceFunc  callback,
                       gpointer     user_data)
{
  McpStdioTransport *self = ((FlushSource *) source)->self;
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);

  if (self->write_failure != NULL)
    handle_write_failure (self, g_steal_pointer (&self->write_failure));
  else if (self->wqueue_offset < self->wqueue->len && self->stdin_fd >= 0)
    watch_stdin (self);

  return G_SOURCE_CONTINUE;
}

static GSourceFuncs flush_source_funcs = {
  .prepare = flush_source_prepare,
  .dispatch = flush_source_dispatch,
};

GSource *
mcp_stdio_transport_flush_source_new (McpStdioTransport *self)
{
  GSource *source = g_source_new (&flush_source_funcs, sizeof (FlushSource));

  ((FlushSource *) source)->self = self;
  return source;
}

char *
mcp_stdio_transport_format_size (guint64 size)
{
  if (size >= 1024 * 1024 && size % (1024 * 1024) == 0)
    return g_strdup_printf (/* Translators: a size in mebibytes (1024 × 1024 bytes). */
                            _("%llu MiB"), (unsigned long long) (size / (1024 * 1024)));
  if (size >= 1024 && size % 1024 == 0)
    return g_strdup_printf (/* Translators: a size in kibibytes (1024 bytes). */
                            _("%llu KiB"), (unsigned long long) (size / 1024));
  return g_strdup_printf (ngettext ("%llu byte", "%llu bytes", (unsigned long) size),
                          (unsigned long long) size);
}

gboolean
mcp_stdio_transport_send (McpTransport  *transport,
                          McpMessage    *message,
                          GError       **error)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autofree char *text = NULL;
  gsize length = 0;

  if (self->stdin_stream == NULL || self->owner_closed || self->flush_source == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                   _("The connection to “%s” is closing"), command_name (self));
      return FALSE;
    }

  text = mcp_message_to_string (message, &length);
  if (length + 1 > self->max_message_size)
    {
      g_autofree char *size = mcp_stdio_transport_format_size (self->max_message_size);

      g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                   /* Translators: %s is a size such as “64 MiB”. */
                   _("The message is larger than %s; not sent"), size);
      return FALSE;
    }

  g_byte_array_append (self->wqueue, (const guint8 *) text, (guint) length);
  g_byte_array_append (self->wqueue, (const guint8 *) "\n", 1);
  mcp_transport_trace_sent (transport, message, text, length);

  return TRUE;
}
