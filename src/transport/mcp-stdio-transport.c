/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-transport.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "mcp-error.h"
#include "mcp-stdio-framing-private.h"

#define READ_CHUNK (64 * 1024)
/* Read at most this much, or for this long, per dispatch. */
#define READ_BUDGET (256 * 1024)
#define READ_BUDGET_US 4000
#define STDERR_MAX_LINE (64 * 1024)
#define CLOSE_SIGINT_DELAY_MS 100
#define CLOSE_SIGTERM_DELAY_MS 100
#define CLOSE_SIGKILL_DELAY_MS 400

typedef enum
{
  SHUTDOWN_NONE,
  SHUTDOWN_STDIN_CLOSED,
  SHUTDOWN_SIGINT_SENT,
  SHUTDOWN_SIGTERM_SENT,
  SHUTDOWN_SIGKILL_SENT,
} ShutdownStage;

struct _McpStdioTransport
{
  McpTransport   parent_instance;

  /* Owned references */
  GStrv          argv;
  GStrv          env;
  char          *cwd;
  GSubprocess   *process;
  GInputStream  *stdout_stream;
  GInputStream  *stderr_stream;
  GOutputStream *stdin_stream;
  GSource       *stdout_source;
  GSource       *stderr_source;
  GSource       *stdin_source;
  GSource       *flush_source;      /* writes what send() queued, before the loop sleeps */
  GCancellable  *cancellable;
  GPtrArray     *close_tasks;       /* every close_async waiting for the end */
  GError        *pending_reason;

  /* Bytes read from stdout that do not yet form a whole line. */
  char          *rbuf;
  gsize          rbuf_len;
  gsize          rbuf_cap;
  gsize          rbuf_scanned;

  /* Bytes waiting to go to stdin. */
  GByteArray    *wqueue;
  gsize          wqueue_offset;
  GError        *write_failure;     /* set by the flush source, handled in its dispatch */
  int            write_errno;       /* of the last failed write */

  int            stdin_fd;
  int            stdout_fd;

  GByteArray    *ebuf;
  char          *stderr_ring[MCP_STDIO_TRANSPORT_STDERR_LINES];
  guint          stderr_ring_start;
  guint          stderr_ring_len;

  guint64        max_message_size;
  GPid           pid;
  int            wait_status;
  guint          shutdown_source;
  ShutdownStage  shutdown_stage;

  guint          started : 1;
  guint          reading : 1;
  guint          exited : 1;
  guint          owner_closed : 1;
  guint          signalled : 1;
  guint          stderr_skipping : 1;
  guint          on_host : 1;       /* through flatpak-spawn --host */
};

G_DEFINE_FINAL_TYPE (McpStdioTransport, mcp_stdio_transport, MCP_TYPE_TRANSPORT)

enum {
  PROP_0,
  PROP_ARGV,
  PROP_ENV,
  PROP_CWD,
  PROP_MAX_MESSAGE_SIZE,
  N_PROPS
};

enum {
  STDERR_LINE,
  EXITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void begin_shutdown (McpStdioTransport *self);
static void maybe_finish (McpStdioTransport *self);

/* "64 MiB" rather than g_format_size()'s "67.1 MB". */
static char *
format_size (guint64 size)
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

static const char *
command_name (McpStdioTransport *self)
{
  return self->argv != NULL && self->argv[0] != NULL ? self->argv[0] : "";
}

static void
signal_group (McpStdioTransport *self,
              int                sig)
{
  if (self->pid <= 0)
    return;

  g_debug ("Sending signal %d to “%s” (process group %d)",
           sig, command_name (self), (int) self->pid);

  if (kill (-self->pid, sig) != 0 && !self->exited)
    kill (self->pid, sig);
}

static gboolean
group_alive (McpStdioTransport *self)
{
  if (self->pid <= 0)
    return FALSE;
  if (!self->exited)
    return TRUE;
  return kill (-self->pid, 0) == 0;
}

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static gboolean flush_queue (McpStdioTransport  *self,
                             GError            **error);

static void
close_stdin (McpStdioTransport *self)
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

/* Ends the connection for @reason now; the process is cleaned up after. */
static void
fail_connection (McpStdioTransport *self,
                 const GError      *reason)
{
  g_object_ref (self);
  clear_source (&self->stdout_source);
  close_stdin (self);
  if (!self->owner_closed)
    mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
  begin_shutdown (self);
  maybe_finish (self);
  g_object_unref (self);
}

/* Splits what is buffered into lines; FALSE when the connection failed. */
static gboolean
process_stdout (McpStdioTransport *self)
{
  gsize start = 0;
  gsize end;

  while (mcp_stdio_find_line (self->rbuf, self->rbuf_len, start, &self->rbuf_scanned, &end))
    {
      if (end - start >= MCP_TRANSPORT_THREADED_PARSE_SIZE && start == 0)
        {
          /* Hands the buffer itself to the parser thread, no copy. */
          gsize rest = self->rbuf_len - self->rbuf_scanned;
          gsize cap = MAX (rest, READ_CHUNK);
          char *rbuf = g_malloc (cap);
          g_autoptr(GBytes) bytes = NULL;

          memcpy (rbuf, self->rbuf + self->rbuf_scanned, rest);
          bytes = g_bytes_new_take (g_steal_pointer (&self->rbuf), end);
          self->rbuf = rbuf;
          self->rbuf_cap = cap;
          self->rbuf_len = rest;
          self->rbuf_scanned = 0;
          mcp_transport_receive_bytes (MCP_TRANSPORT (self), bytes);
        }
      else
        {
          if (end > start)
            mcp_transport_receive (MCP_TRANSPORT (self), self->rbuf + start, end - start);
          start = self->rbuf_scanned;
        }

      if (mcp_transport_is_closed (MCP_TRANSPORT (self)))
        return FALSE;
    }

  if (start > 0)
    {
      memmove (self->rbuf, self->rbuf + start, self->rbuf_len - start);
      self->rbuf_len -= start;
      self->rbuf_scanned -= start;
    }

  if (self->rbuf_len > self->max_message_size)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *size = format_size (self->max_message_size);

      error = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                           /* Translators: %s is the server's command, then a size such as
                            * “64 MiB”. */
                           _("Server “%s” sent a message larger than %s; closing the connection"),
                           command_name (self), size);
      self->rbuf_len = self->rbuf_scanned = 0;
      fail_connection (self, error);
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
  begin_shutdown (self);
}

static gboolean
stdout_readable_cb (int           fd,
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

static void
drain_stdout (McpStdioTransport *self)
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

  g_signal_emit (self, signals[STDERR_LINE], 0, line);
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

static gboolean
read_stderr (McpStdioTransport *self)
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

static gboolean
stderr_readable_cb (GObject  *stream,
                    gpointer  user_data)
{
  McpStdioTransport *self = user_data;
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);

  if (read_stderr (self))
    return G_SOURCE_CONTINUE;

  g_clear_pointer (&self->stderr_source, g_source_unref);
  return G_SOURCE_REMOVE;
}

static GError *
exit_reason (McpStdioTransport *self)
{
  int status = self->wait_status;

  /* When we had to signal it, the real reason is what made us do that. */
  if (self->signalled && self->pending_reason != NULL)
    return g_error_copy (self->pending_reason);

  if (WIFSIGNALED (status))
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's command, %d a signal number, the
                         * last %s the signal's name from the system (e.g. “Killed”). */
                        _("Server “%s” was killed by signal %d (%s)"),
                        command_name (self), WTERMSIG (status),
                        g_strsignal (WTERMSIG (status)));

  /* The login shell on the host could not find or run the command. */
  if (self->on_host && WIFEXITED (status) &&
      (WEXITSTATUS (status) == 127 || WEXITSTATUS (status) == 126))
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's command, %d an exit status (126
                         * or 127); “the host” is the computer outside the Flatpak sandbox. */
                        _("Server “%s” could not be started on the host (status %d): "
                          "it is not in the PATH of your login shell, or not executable"),
                        command_name (self), WEXITSTATUS (status));

  if (WIFEXITED (status) && WEXITSTATUS (status) != 0)
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's command, %d its exit status. */
                        _("Server “%s” exited with status %d"),
                        command_name (self), WEXITSTATUS (status));

  return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                      /* Translators: %s is the server's command. */
                      _("Server “%s” exited"), command_name (self));
}

static void
complete_close_tasks (McpStdioTransport *self)
{
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&self->close_tasks);

  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    g_task_return_boolean (g_ptr_array_index (tasks, i), TRUE);
}

/* Completes a close once the process and its group are gone. */
static void
maybe_finish (McpStdioTransport *self)
{
  if (!self->exited)
    return;

  if (self->shutdown_stage != SHUTDOWN_NONE &&
      self->shutdown_stage != SHUTDOWN_SIGKILL_SENT &&
      group_alive (self))
    return;

  g_clear_handle_id (&self->shutdown_source, g_source_remove);

  complete_close_tasks (self);
}

static gboolean
shutdown_step_cb (gpointer user_data)
{
  McpStdioTransport *self = user_data;
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);

  self->shutdown_source = 0;

  if (self->exited && !group_alive (self))
    {
      maybe_finish (self);
      return G_SOURCE_REMOVE;
    }

  self->signalled = TRUE;

  switch (self->shutdown_stage)
    {
    case SHUTDOWN_STDIN_CLOSED:
      signal_group (self, SIGINT);
      self->shutdown_stage = SHUTDOWN_SIGINT_SENT;
      self->shutdown_source = g_timeout_add (CLOSE_SIGTERM_DELAY_MS, shutdown_step_cb, self);
      break;

    case SHUTDOWN_SIGINT_SENT:
      signal_group (self, SIGTERM);
      self->shutdown_stage = SHUTDOWN_SIGTERM_SENT;
      self->shutdown_source = g_timeout_add (CLOSE_SIGKILL_DELAY_MS, shutdown_step_cb, self);
      break;

    case SHUTDOWN_SIGTERM_SENT:
      signal_group (self, SIGKILL);
      self->shutdown_stage = SHUTDOWN_SIGKILL_SENT;
      maybe_finish (self);
      break;

    case SHUTDOWN_NONE:
    case SHUTDOWN_SIGKILL_SENT:
    default:
      break;
    }

  return G_SOURCE_REMOVE;
}

/* Closes stdin, then SIGINT, SIGTERM and SIGKILL to the group, unless the
 * process (and whatever it started) exits first. */
static void
begin_shutdown (McpStdioTransport *self)
{
  close_stdin (self);

  if (self->shutdown_stage != SHUTDOWN_NONE || self->pid <= 0)
    return;

  self->shutdown_stage = SHUTDOWN_STDIN_CLOSED;
  if (!group_alive (self))
    return;

  self->shutdown_source = g_timeout_add (CLOSE_SIGINT_DELAY_MS, shutdown_step_cb, self);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GSubprocess *process = G_SUBPROCESS (object);
  g_autoptr(GError) error = NULL;
  McpStdioTransport *self;

  if (!g_subprocess_wait_finish (process, result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = MCP_STDIO_TRANSPORT (user_data);
  g_object_ref (self);

  self->exited = TRUE;
  self->wait_status = g_subprocess_get_status (process);
  g_debug ("“%s” ended, wait status %d", command_name (self), self->wait_status);

  /* What the server wrote before it died still counts. */
  drain_stdout (self);
  if (self->stderr_source != NULL && !read_stderr (self))
    clear_source (&self->stderr_source);

  clear_source (&self->stdout_source);
  close_stdin (self);

  g_signal_emit (self, signals[EXITED], 0, self->wait_status);

  if (self->owner_closed)
    mcp_transport_emit_closed (MCP_TRANSPORT (self), NULL);
  else if (!mcp_transport_is_closed (MCP_TRANSPORT (self)))
    {
      g_autoptr(GError) reason = exit_reason (self);

      mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
    }

  /* A launcher's children may outlive it; they are shut down too. */
  if (group_alive (self))
    {
      if (self->shutdown_stage == SHUTDOWN_NONE)
        begin_shutdown (self);
    }

  maybe_finish (self);
  g_object_unref (self);
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
      close_stdin (self);
      if (self->pending_reason == NULL)
        self->pending_reason = g_steal_pointer (&reason);
      begin_shutdown (self);
    }
  else
    fail_connection (self, reason);

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

static gboolean
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
      g_autofree char *size = format_size (self->max_message_size);

      g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                   /* Translators: %s is a size such as “64 MiB”. */
                   _("The message is larger than %s; not sent"), size);
      return FALSE;
    }

  g_byte_array_append (self->wqueue, (const guint8 *) text, (guint) length);
  g_byte_array_append (self->wqueue, (const guint8 *) "\n", 1);

  return TRUE;
}

static char *
find_in_path (const char *program,
              const char *path,
              const char *cwd)
{
  g_auto(GStrv) dirs = g_strsplit (path, ":", -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *candidate = NULL;

      if (!g_path_is_absolute (dir) && cwd != NULL)
        candidate = g_build_filename (cwd, dir, program, NULL);
      else
        candidate = g_build_filename (dir, program, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (candidate, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&candidate);
    }

  return NULL;
}

static char *
resolve_program (McpStdioTransport  *self,
                 GError            **error)
{
  const char *program = command_name (self);

  if (program[0] == '\0')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   _("Could not start the server: the command is empty"));
      return NULL;
    }

  if (strchr (program, '/') != NULL)
    {
      g_autofree char *full = NULL;

      if (!g_path_is_absolute (program) && self->cwd != NULL)
        full = g_build_filename (self->cwd, program, NULL);
      else
        full = g_strdup (program);

      if (!g_file_test (full, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then its full path. */
                       _("Could not start “%s”: %s does not exist"), program, full);
          return NULL;
        }
      if (!g_file_test (full, G_FILE_TEST_IS_EXECUTABLE) ||
          g_file_test (full, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then its full path. */
                       _("Could not start “%s”: %s is not an executable file"), program, full);
          return NULL;
        }
      return g_strdup (program);
    }
  else
    {
      const char *path = g_getenv ("PATH");
      char *found;

      for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
        if (g_str_has_prefix (self->env[i], "PATH="))
          path = self->env[i] + strlen ("PATH=");
      if (path == NULL)
        path = "/usr/bin:/bin";

      found = find_in_path (program, path, self->cwd);
      if (found == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then the list of
                        * folders searched (the PATH variable). */
                       _("Could not start “%s”: no such command in PATH (%s)"), program, path);
        }
      return found;
    }
}

static void
child_setup (gpointer user_data)
{
  /* A group of its own, so that signals reach what a launcher starts. */
  setpgid (0, 0);
}

static GSource *
watch_input (GInputStream *stream,
             GSourceFunc   func,
             gpointer      data)
{
  GSource *source = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (stream), NULL);

  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, NULL);
  return source;
}

static void
set_nonblocking (int fd)
{
  g_autoptr(GError) error = NULL;

  if (!g_unix_set_fd_nonblocking (fd, TRUE, &error))
    g_debug ("Could not make fd %d non-blocking: %s", fd, error->message);
}

char *
mcp_stdio_transport_get_host_spawner (void)
{
  const char *spawner = g_getenv ("PLUGBOARD_FLATPAK_SPAWN");

  if (spawner != NULL && spawner[0] != '\0')
    return g_strdup (spawner);

  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS) ||
      g_getenv ("FLATPAK_ID") != NULL)
    return g_strdup ("flatpak-spawn");

  return NULL;
}

/* Shells that take `-l -c SCRIPT NAME ARGS…` with NAME as $0 and ARGS as
 * "$@"; fish, nushell and the like do not. */
static gboolean
is_posix_shell (const char *shell)
{
  static const char * const known[] = {
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "oksh", "pdksh", "yash", "ash", NULL
  };
  g_autofree char *base = NULL;

  if (shell == NULL || !g_path_is_absolute (shell))
    return FALSE;

  base = g_path_get_basename (shell);
  return g_strv_contains (known, base);
}

/* Run by /bin/sh on the host, with the login shell as $0 and the server's
 * argv as "$@": the profile's output goes to stderr (a line printed by nvm
 * or a greeting must not reach the MCP stream), then the server gets the
 * real stdout back and replaces the shell, so that signals reach it. */
#define HOST_OUTER_SCRIPT "exec 3>&1 1>&2; exec \"$0\" -l -c 'exec \"$0\" \"$@\" 1>&3 3>&-' \"$@\""

GStrv
mcp_stdio_transport_build_host_argv (const char         *flatpak_spawn,
                                     const char * const *argv,
                                     const char * const *env,
                                     const char         *cwd,
                                     const char         *login_shell)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (flatpak_spawn != NULL, NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  g_strv_builder_add (builder, flatpak_spawn);
  g_strv_builder_add (builder, "--host");
  /* The host command ends when flatpak-spawn does, even by SIGKILL. */
  g_strv_builder_add (builder, "--watch-bus");
  /* flatpak-spawn takes options only as --name=value, up to the first
   * argument that does not start with '-'. */
  if (cwd != NULL)
    {
      g_autofree char *option = g_strconcat ("--directory=", cwd, NULL);

      g_strv_builder_add (builder, option);
    }
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *option = g_strconcat ("--env=", env[i], NULL);

      g_strv_builder_add (builder, option);
    }

  g_strv_builder_add (builder, "/bin/sh");
  g_strv_builder_add (builder, "-c");
  g_strv_builder_add (builder, HOST_OUTER_SCRIPT);
  g_strv_builder_add (builder, is_posix_shell (login_shell) ? login_shell : "/bin/sh");
  g_strv_builder_addv (builder, (const char **) argv);

  return g_strv_builder_end (builder);
}

static gboolean
check_env (McpStdioTransport  *self,
           GError            **error)
{
  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');

      if (eq == NULL || eq == self->env[i])
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then an entry of its
                        * environment; keep NAME=VALUE as it is. */
                       _("Could not start “%s”: environment entry “%s” is not NAME=VALUE"),
                       command_name (self), self->env[i]);
          return FALSE;
        }
    }

  return TRUE;
}

/* The argv that starts the server on the host from inside Flatpak; NULL
 * when not in Flatpak (and no error) or on error. */
static GStrv
host_argv (McpStdioTransport  *self,
           GError            **error)
{
  g_autofree char *spawner = mcp_stdio_transport_get_host_spawner ();
  g_autofree char *program = NULL;

  if (spawner == NULL)
    return NULL;

  if (strchr (spawner, '/') != NULL)
    program = g_strdup (spawner);
  else
    program = g_find_program_in_path (spawner);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   /* Translators: %s is the server's command, then a program
                    * (flatpak-spawn); “the host” is the computer outside the sandbox. */
                   _("Could not start “%s” on the host: %s is not available in the sandbox"),
                   command_name (self), spawner);
      return NULL;
    }

  /* Never logged: the --env= arguments hold the server's secrets. */
  return mcp_stdio_transport_build_host_argv (program,
                                              (const char * const *) self->argv,
                                              (const char * const *) self->env,
                                              self->cwd,
                                              g_getenv ("SHELL"));
}

static gboolean
spawn (McpStdioTransport  *self,
       GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *program = NULL;
  g_autofree const char **argv = NULL;
  g_auto(GStrv) on_host = NULL;
  guint argc;
  const char *identifier;

  if (command_name (self)[0] == '\0')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   _("Could not start the server: the command is empty"));
      return FALSE;
    }
  if (!check_env (self, error))
    return FALSE;

  on_host = host_argv (self, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);

  if (on_host != NULL)
    {
      /* The command, its environment and its folder are the host's; the
       * project folder may not even exist in the sandbox. */
      self->on_host = TRUE;
      self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) on_host,
                                                    &local_error);
    }
  else
    {
      program = resolve_program (self, error);
      if (program == NULL)
        return FALSE;

      for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
        {
          const char *eq = strchr (self->env[i], '=');
          g_autofree char *name = g_strndup (self->env[i], (gsize) (eq - self->env[i]));

          g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
        }
      if (self->cwd != NULL)
        g_subprocess_launcher_set_cwd (launcher, self->cwd);

      argc = g_strv_length (self->argv);
      argv = g_new0 (const char *, argc + 1);
      argv[0] = program;
      for (guint i = 1; i < argc; i++)
        argv[i] = self->argv[i];

      self->process = g_subprocess_launcher_spawnv (launcher, argv, &local_error);
    }
  if (self->process == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   /* Translators: %s is the server's command, then the system's error. */
                   _("Could not start “%s”: %s"), command_name (self), local_error->message);
      return FALSE;
    }

  identifier = g_subprocess_get_identifier (self->process);
  self->pid = identifier != NULL ? (GPid) g_ascii_strtoll (identifier, NULL, 10) : 0;

  self->stdin_stream = g_object_ref (g_subprocess_get_stdin_pipe (self->process));
  self->stdout_stream = g_object_ref (g_subprocess_get_stdout_pipe (self->process));
  self->stderr_stream = g_object_ref (g_subprocess_get_stderr_pipe (self->process));

  /* Writes must never block, whatever their size. */
  self->stdin_fd = g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (self->stdin_stream));
  self->stdout_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stdout_stream));
  set_nonblocking (self->stdin_fd);
  set_nonblocking (self->stdout_fd);
  set_nonblocking (g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stderr_stream)));

  self->stdout_source = g_unix_fd_source_new (self->stdout_fd, G_IO_IN);
  g_source_set_static_name (self->stdout_source, "[mcp-stdio-transport] stdout readable");
  g_source_set_callback (self->stdout_source, G_SOURCE_FUNC (stdout_readable_cb), self, NULL);
  /* Without this GLib blocks the source around each dispatch, removing and
   * re-adding its fd, which wakes the loop twice per message. */
  g_source_set_can_recurse (self->stdout_source, TRUE);
  g_source_attach (self->stdout_source, g_main_context_get_thread_default ());

  self->flush_source = g_source_new (&flush_source_funcs, sizeof (FlushSource));
  ((FlushSource *) self->flush_source)->self = self;
  /* Prepared before any source that could be ready, so it is never skipped. */
  g_source_set_priority (self->flush_source, G_PRIORITY_HIGH);
  g_source_set_static_name (self->flush_source, "[mcp-stdio-transport] flush");
  g_source_attach (self->flush_source, g_main_context_get_thread_default ());

  self->stderr_source = watch_input (self->stderr_stream,
                                     (GSourceFunc) G_CALLBACK (stderr_readable_cb), self);

  g_subprocess_wait_async (self->process, self->cancellable, wait_cb, self);

  return TRUE;
}

static void
mcp_stdio_transport_connect_async (McpTransport        *transport,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_stdio_transport_connect_async);

  if (self->started)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The transport for “%s” was already started"),
                               command_name (self));
      return;
    }
  self->started = TRUE;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!spawn (self, &error))
    {
      g_debug ("%s", error->message);
      mcp_transport_emit_closed (transport, error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_transport_set_connected (transport);
  g_task_return_boolean (task, TRUE);
}

static gboolean
mcp_stdio_transport_connect_finish (McpTransport  *transport,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_stdio_transport_close_async (McpTransport        *transport,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_stdio_transport_close_async);

  /* A second close (the owner's, after a failed connect closed us) waits
   * for the first one. */
  if (self->close_tasks != NULL)
    {
      g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
      return;
    }

  if (self->process == NULL || (self->exited && !group_alive (self)))
    {
      if (!mcp_transport_is_closed (transport))
        {
          self->owner_closed = TRUE;
          mcp_transport_emit_closed (transport, NULL);
        }
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (!mcp_transport_is_closed (transport))
    self->owner_closed = TRUE;
  self->close_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
  begin_shutdown (self);
  maybe_finish (self);
}

static gboolean
mcp_stdio_transport_close_finish (McpTransport  *transport,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
mcp_stdio_transport_describe (McpTransport *transport)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  GString *str = g_string_new (NULL);

  for (guint i = 0; self->argv != NULL && self->argv[i] != NULL; i++)
    {
      const char *arg = self->argv[i];

      if (i > 0)
        g_string_append_c (str, ' ');
      if (arg[0] == '\0' || strpbrk (arg, " \t\n'\"\\") != NULL)
        {
          g_autofree char *quoted = g_shell_quote (arg);

          g_string_append (str, quoted);
        }
      else
        g_string_append (str, arg);
    }

  return g_string_free (str, FALSE);
}

static void
mcp_stdio_transport_dispose (GObject *object)
{
  McpStdioTransport *self = (McpStdioTransport *)object;

  /* Never leave a server running behind us. */
  if (self->pid > 0 && group_alive (self))
    signal_group (self, SIGKILL);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->shutdown_source, g_source_remove);
  clear_source (&self->stdout_source);
  clear_source (&self->stderr_source);
  clear_source (&self->stdin_source);
  clear_source (&self->flush_source);
  g_clear_object (&self->stdin_stream);
  g_clear_object (&self->stdout_stream);
  g_clear_object (&self->stderr_stream);
  g_clear_object (&self->process);
  complete_close_tasks (self);

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->dispose (object);
}

static void
mcp_stdio_transport_finalize (GObject *object)
{
  McpStdioTransport *self = (McpStdioTransport *)object;

  g_clear_pointer (&self->argv, g_strfreev);
  g_clear_pointer (&self->env, g_strfreev);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->rbuf, g_free);
  g_clear_pointer (&self->wqueue, g_byte_array_unref);
  g_clear_error (&self->write_failure);
  g_clear_pointer (&self->ebuf, g_byte_array_unref);
  g_clear_error (&self->pending_reason);
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < MCP_STDIO_TRANSPORT_STDERR_LINES; i++)
    g_free (self->stderr_ring[i]);

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->finalize (object);
}

static void
mcp_stdio_transport_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      g_value_set_boxed (value, self->argv);
      break;

    case PROP_ENV:
      g_value_set_boxed (value, self->env);
      break;

    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;

    case PROP_MAX_MESSAGE_SIZE:
      g_value_set_uint64 (value, self->max_message_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_stdio_transport_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      self->argv = g_value_dup_boxed (value);
      break;

    case PROP_ENV:
      self->env = g_value_dup_boxed (value);
      break;

    case PROP_CWD:
      self->cwd = g_value_dup_string (value);
      break;

    case PROP_MAX_MESSAGE_SIZE:
      mcp_stdio_transport_set_max_message_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ignore_sigpipe (void)
{
  struct sigaction action;

  /* A server that dies must give EPIPE on write, not kill us. GSocket does
   * the same process-wide. */
  if (sigaction (SIGPIPE, NULL, &action) == 0 && action.sa_handler == SIG_DFL)
    signal (SIGPIPE, SIG_IGN);
}

static gboolean
mcp_stdio_transport_supports_stateless (McpTransport *transport)
{
  return TRUE;
}

static void
mcp_stdio_transport_class_init (McpStdioTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_stdio_transport_dispose;
  object_class->finalize = mcp_stdio_transport_finalize;
  object_class->get_property = mcp_stdio_transport_get_property;
  object_class->set_property = mcp_stdio_transport_set_property;

  transport_class->connect_async = mcp_stdio_transport_connect_async;
  transport_class->connect_finish = mcp_stdio_transport_connect_finish;
  transport_class->send = mcp_stdio_transport_send;
  transport_class->close_async = mcp_stdio_transport_close_async;
  transport_class->close_finish = mcp_stdio_transport_close_finish;
  transport_class->describe = mcp_stdio_transport_describe;
  transport_class->supports_stateless = mcp_stdio_transport_supports_stateless;

  properties[PROP_ARGV] =
    g_param_spec_boxed ("argv", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ENV] =
    g_param_spec_boxed ("env", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CWD] =
    g_param_spec_string ("cwd", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MAX_MESSAGE_SIZE] =
    g_param_spec_uint64 ("max-message-size", NULL, NULL,
                         1, G_MAXUINT64 / 2, MCP_STDIO_TRANSPORT_DEFAULT_MAX_MESSAGE_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * McpStdioTransport::stderr-line:
   * @line: one line the server wrote to stderr
   */
  signals[STDERR_LINE] =
    g_signal_new ("stderr-line",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpStdioTransport::exited:
   * @wait_status: as waitpid() reports it
   */
  signals[EXITED] =
    g_signal_new ("exited",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT);

  ignore_sigpipe ();
}

static void
mcp_stdio_transport_init (McpStdioTransport *self)
{
  self->max_message_size = MCP_STDIO_TRANSPORT_DEFAULT_MAX_MESSAGE_SIZE;
  self->cancellable = g_cancellable_new ();
  self->wqueue = g_byte_array_new ();
  self->ebuf = g_byte_array_new ();
  self->stdin_fd = -1;
  self->stdout_fd = -1;
}

McpTransport *
mcp_stdio_transport_new (const char * const *argv,
                         const char * const *env,
                         const char         *cwd)
{
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  return g_object_new (MCP_TYPE_STDIO_TRANSPORT,
                       "argv", argv,
                       "env", env,
                       "cwd", cwd,
                       NULL);
}

void
mcp_stdio_transport_set_max_message_size (McpStdioTransport *self,
                                          guint64            max_size)
{
  g_return_if_fail (MCP_IS_STDIO_TRANSPORT (self));
  g_return_if_fail (max_size > 0);

  if (self->max_message_size == max_size)
    return;

  self->max_message_size = max_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_MESSAGE_SIZE]);
}

guint64
mcp_stdio_transport_get_max_message_size (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), 0);

  return self->max_message_size;
}

GStrv
mcp_stdio_transport_dup_stderr_lines (McpStdioTransport *self)
{
  GStrv lines;

  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), NULL);

  lines = g_new0 (char *, self->stderr_ring_len + 1);
  for (guint i = 0; i < self->stderr_ring_len; i++)
    lines[i] = g_strdup (self->stderr_ring[(self->stderr_ring_start + i) % MCP_STDIO_TRANSPORT_STDERR_LINES]);

  return lines;
}

GPid
mcp_stdio_transport_get_pid (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), 0);

  return self->pid;
}

gboolean
mcp_stdio_transport_get_exit_status (McpStdioTransport *self,
                                     int               *wait_status)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), FALSE);

  if (self->exited && wait_status != NULL)
    *wait_status = self->wait_status;

  return self->exited;
}
