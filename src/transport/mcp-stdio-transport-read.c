/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-transport.h"
#include "mcp-stdio-transport-private.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-stdio-framing-private.h"

/* McpStdioTransport: reading the server's stdout into messages (line by
 * line, or a JSON value as soon as it is whole, large ones parsed in a worker thread, within a budget per
 * dispatch) and its stderr into a ring of lines. */

#define READ_CHUNK (64 * 1024)
/* Read at most this much, or for this long, per dispatch. */
#define READ_BUDGET (256 * 1024)
#define READ_BUDGET_US 4000
#define STDERR_MAX_LINE (64 * 1024)

/* Splits what is buffered into lines; FALSE when the connection failed. */
static gboolean
process_stdout (McpStdioTransport *self)
{
  gsize start = 0;
  gsize end;

  while (mcp_stdio_find_message (self->rbuf, self->rbuf_len, start, &self->rbuf_scan, &end))
    {
      if (end - start >= MCP_TRANSPORT_THREADED_PARSE_SIZE && start == 0)
        {
          /* Hands the buffer itself to the parser thread, no copy. */
          gsize rest = self->rbuf_len - self->rbuf_scan.scanned;
          gsize cap = MAX (rest, READ_CHUNK);
          char *rbuf = g_malloc (cap);
          g_autoptr(GBytes) bytes = NULL;

          memcpy (rbuf, self->rbuf + self->rbuf_scan.scanned, rest);
          bytes = g_bytes_new_take (g_steal_pointer (&self->rbuf), end);
          self->rbuf = rbuf;
          self->rbuf_cap = cap;
          self->rbuf_len = rest;
          self->rbuf_scan.scanned = 0;
          mcp_transport_receive_bytes (MCP_TRANSPORT (self), bytes);
        }
      else
        {
          if (end > start)
            mcp_transport_receive (MCP_TRANSPORT (self), self->rbuf + start, end - start);
          start = self->rbuf_scan.scanned;
        }

      if (mcp_transport_is_closed (MCP_TRANSPORT (self)))
        return FALSE;
    }

  if (start > 0)
    {
      memmove (self->rbuf, self->rbuf + start, self->rbuf_len - start);
      self->rbuf_len -= start;
      self->rbuf_scan.scanned -= start;
    }

  if (self->rbuf_len > self->max_message_size)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *size = mcp_stdio_transport_format_size (self->max_message_size);

      error = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                           /* Translators: %s is the server's command, then a size such as
                            * “64 MiB”. */
                           _("Server “%s” sent a message larger than %s; closing the connection"),
                           command_name (self), size);
      self->rbuf_len = 0;
      memset (&self->rbuf_scan, 0, sizeof self->rbuf_scan);
      mcp_stdio_transport_fail_connection (self, error);
      return FALSE;
    }

  return TRUE;
}

/* Reads once; returns the byte count, 0 at EOF, -1 when nothing is ready. */
static gssize
read_stdout_chunk (McpStdioTransport *self)
{
  gssize n;

  if (self->rbuf_cap - self->rbuf_len < READ_CHUNK)
    {
      self->rbuf_cap = MAX (self->rbuf_cap * 2, self->rbuf_len + READ_CHUNK);
      /* Never more than one chunk past the limit. */
      self->rbuf_cap = MIN (self->rbuf_cap, MAX (self->max_message_size, self->rbuf_len) + READ_CHUNK);
      self->rbuf = g_realloc (self->rbuf, self->rbuf_cap);
    }

  /* Straight read(2): the pollable stream would poll() before each read. */
  do
    n = read (self->stdout_fd, self->rbuf + self->rbuf_len, READ_CHUNK);
  while (n < 0 && errno == EINTR);

  if (n < 0)
    {
      int saved_errno = errno;

      if (saved_errno == EAGAIN || saved_errno == EWOULDBLOCK)
        return -1;
      g_debug ("Reading from “%s” failed: %s", command_name (self), g_strerror (saved_errno));
      return 0;
    }

  self->rbuf_len += (gsize) n;
  return n;
}

static void
on_stdout_eof (McpStdioTransport *self)
{
  clear_source (&self->stdout_source);

  if (self->exited)
    return;

  /* The server closed its output while it still runs: the connection is
   * over, and the process is shut down like close() would. */
  if (self->pending_reason == NULL && !self->owner_closed)
    self->pending_reason = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                        /* Translators: %s is the server's command. */
                                        _("Server “%s” closed its output"),
                                        command_name (self));
  mcp_stdio_transport_begin_shutdown (self);
}

gboolean
mcp_stdio_transport_stdout_readable_cb (int           fd,
                                        GIOCondition  condition,
                                        gpointer      user_data)
{
  McpStdioTransport *self = user_data;
  g_autoptr(McpStdioTransport) hold = NULL;
  gsize budget = 0;
  gint64 started;

  /* The source may recurse (see spawn()); a nested main loop run from a
   * message handler must not read into the buffer being parsed. */
  if (self->reading)
    return G_SOURCE_CONTINUE;

  hold = g_object_ref (self);
  self->reading = TRUE;
  started = g_get_monotonic_time ();
  for (;;)
    {
      gssize n = read_stdout_chunk (self);

      if (n < 0)
        break;
      if (n == 0)
        {
          self->reading = FALSE;
          /* Clears self->stdout_source, which is this source. */
          on_stdout_eof (self);
          return G_SOURCE_REMOVE;
        }
      if (!process_stdout (self))
        {
          self->reading = FALSE;
          return G_SOURCE_REMOVE;
        }
      if (n < READ_CHUNK)
        break;
      /* Other sources get their turn while a fast server writes much. */
      budget += (gsize) n;
      if (budget >= READ_BUDGET || g_get_monotonic_time () - started >= READ_BUDGET_US)
        break;
    }
  self->reading = FALSE;

  return G_SOURCE_CONTINUE;
}

void
mcp_stdio_transport_drain_stdout (McpStdioTransport *self)
{
  if (self->stdout_source == NULL)
    return;

  for (;;)
    {
      gssize n = read_stdout_chunk (self);

      if (n <= 0)
        break;
      if (!process_stdout (self))
        return;
    }
  clear_source (&self->stdout_source);
}

static void
push_stderr_line (McpStdioTransport *self,
                  const char        *data,
                  gsize              length,
                  gboolean           truncated)
{
  char *line;
  guint slot;

  if (truncated)
    {
      g_autofree char *valid = g_utf8_make_valid (data, (gssize) length);

      line = g_strconcat (valid, "…", NULL);
    }
  else
    line = g_utf8_make_valid (data, (gssize) length);

  if (self->stderr_ring_len < MCP_STDIO_TRANSPORT_STDERR_LINES)
    {
      slot = (self->stderr_ring_start + self->stderr_ring_len) % MCP_STDIO_TRANSPORT_STDERR_LINES;
      self->stderr_ring_len++;
    }
  else
    {
      slot = self->stderr_ring_start;
      self->stderr_ring_start = (self->stderr_ring_start + 1) % MCP_STDIO_TRANSPORT_STDERR_LINES;
      g_free (self->stderr_ring[slot]);
    }
  self->stderr_ring[slot] = line;

  mcp_stdio_transport_emit_stderr_line (self, line);
}

static void
stderr_line_cb (const char *data,
                gsize       length,
                gboolean    truncated,
                gpointer    user_data)
{
  push_stderr_line (user_data, data, length, truncated);
}

static void
process_stderr (McpStdioTransport *self,
                gboolean           eof)
{
  gboolean skipping = self->stderr_skipping;

  mcp_stdio_take_stderr_lines (self->ebuf, STDERR_MAX_LINE, eof, &skipping, stderr_line_cb, self);
  self->stderr_skipping = skipping;
}

gboolean
mcp_stdio_transport_read_stderr (McpStdioTransport *self)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      guint8 chunk[4096];
      gssize n;

      n = g_pollable_input_stream_read_nonblocking (G_POLLABLE_INPUT_STREAM (self->stderr_stream),
                                                    chunk, sizeof chunk, NULL, &error);
      if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        return TRUE;
      if (n <= 0)
        {
          process_stderr (self, TRUE);
          return FALSE;
        }
      g_byte_array_append (self->ebuf, chunk, (guint) n);
      process_stderr (self, FALSE);
      if ((gsize) n < sizeof chunk)
        return TRUE;
    }
}

gboolean
mcp_stdio_transport_stderr_readable_cb (GObject  *stream,
                                        gpointer  user_data)
{
  McpStdioTransport *self = user_data;
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);

  if (mcp_stdio_transport_read_stderr (self))
    return G_SOURCE_CONTINUE;

  g_clear_pointer (&self->stderr_source, g_source_unref);
  return G_SOURCE_REMOVE;
}
