/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-stdio-transport.h"
#include "mcp-stdio-framing-private.h"

G_BEGIN_DECLS

/* Shared by the parts of McpStdioTransport: mcp-stdio-transport.c (the
 * object, connect, close), mcp-stdio-transport-spawn.c (starting
 * the server, also on the host from Flatpak), mcp-stdio-transport-read.c
 * (stdout and stderr), mcp-stdio-transport-write.c (send, stdin) and
 * mcp-stdio-transport-process.c (the process's end and its shutdown). */

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

  /* Bytes read from stdout that do not yet form a whole message. */
  char          *rbuf;
  gsize          rbuf_len;
  gsize          rbuf_cap;
  McpStdioScan   rbuf_scan;

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

static inline const char *
command_name (McpStdioTransport *self)
{
  return self->argv != NULL && self->argv[0] != NULL ? self->argv[0] : "";
}

static inline void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

/* mcp-stdio-transport.c */
void      mcp_stdio_transport_emit_stderr_line  (McpStdioTransport  *self,
                                                 const char         *line);
void      mcp_stdio_transport_emit_exited       (McpStdioTransport  *self,
                                                 int                 wait_status);

/* mcp-stdio-transport-spawn.c */
gboolean  mcp_stdio_transport_spawn             (McpStdioTransport  *self,
                                                 GError            **error);

/* mcp-stdio-transport-read.c */
gboolean  mcp_stdio_transport_stdout_readable_cb (int                 fd,
                                                  GIOCondition        condition,
                                                  gpointer            user_data);
gboolean  mcp_stdio_transport_stderr_readable_cb (GObject            *stream,
                                                  gpointer            user_data);
/* Reads what stdout still holds, then stops watching it. */
void      mcp_stdio_transport_drain_stdout      (McpStdioTransport  *self);
/* Reads what stderr holds; FALSE at its end. */
gboolean  mcp_stdio_transport_read_stderr       (McpStdioTransport  *self);

/* mcp-stdio-transport-write.c */
/* "64 MiB" rather than g_format_size()'s "67.1 MB". */
char     *mcp_stdio_transport_format_size       (guint64             size);
/* McpTransport.send: queues @message for the flush source. */
gboolean  mcp_stdio_transport_send              (McpTransport       *transport,
                                                 McpMessage         *message,
                                                 GError            **error);
/* The source that writes what send() queued, before the loop sleeps. */
GSource  *mcp_stdio_transport_flush_source_new  (McpStdioTransport  *self);
void      mcp_stdio_transport_close_stdin       (McpStdioTransport  *self);

/* mcp-stdio-transport-process.c */
void      mcp_stdio_transport_signal_group      (McpStdioTransport  *self,
                                                 int                 sig);
gboolean  mcp_stdio_transport_group_alive       (McpStdioTransport  *self);
/* Ends the connection for @reason now; the process is cleaned up after. */
void      mcp_stdio_transport_fail_connection   (McpStdioTransport  *self,
                                                 const GError       *reason);
void      mcp_stdio_transport_complete_close_tasks (McpStdioTransport *self);
/* Completes a close once the process and its group are gone. */
void      mcp_stdio_transport_maybe_finish      (McpStdioTransport  *self);
/* Closes stdin, then SIGINT, SIGTERM and SIGKILL to the group, unless the
 * process (and whatever it started) exits first. */
void      mcp_stdio_transport_begin_shutdown    (McpStdioTransport  *self);
void      mcp_stdio_transport_wait_cb           (GObject            *object,
                                                 GAsyncResult       *result,
                                                 gpointer            user_data);

G_END_DECLS
