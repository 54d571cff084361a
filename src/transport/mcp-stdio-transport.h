/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-transport.h"

G_BEGIN_DECLS

#define MCP_STDIO_TRANSPORT_DEFAULT_MAX_MESSAGE_SIZE (64 * 1024 * 1024)
#define MCP_STDIO_TRANSPORT_STDERR_LINES 1000

#define MCP_TYPE_STDIO_TRANSPORT (mcp_stdio_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpStdioTransport, mcp_stdio_transport, MCP, STDIO_TRANSPORT, McpTransport)

/**
 * McpStdioTransport:
 *
 * Runs a server as a subprocess from an argv (never through a shell) and
 * speaks newline-delimited JSON over its stdin and stdout. The child gets a
 * process group of its own so that a launcher (npx, uvx) and the server it
 * starts are signalled together.
 *
 * Signals (besides McpTransport's):
 *  - stderr-line (const char *line): one line the server wrote to stderr.
 *  - exited (int wait_status): the process ended; wait_status as waitpid().
 *
 * Properties: argv (GStrv, construct-only), env (GStrv of NAME=VALUE added to
 * the inherited environment, construct-only), cwd (construct-only),
 * max-message-size (guint64, default 64 MiB).
 */
McpTransport   *mcp_stdio_transport_new                 (const char * const *argv,
                                                          const char * const *env,
                                                          const char         *cwd);

void            mcp_stdio_transport_set_max_message_size (McpStdioTransport  *self,
                                                          guint64             max_size);
guint64         mcp_stdio_transport_get_max_message_size (McpStdioTransport  *self);
/* The last MCP_STDIO_TRANSPORT_STDERR_LINES lines of stderr, oldest first. */
GStrv           mcp_stdio_transport_dup_stderr_lines     (McpStdioTransport  *self);
/* 0 before the process started. */
GPid            mcp_stdio_transport_get_pid              (McpStdioTransport  *self);
/* TRUE once the process has ended; *wait_status as waitpid() reports it. */
gboolean        mcp_stdio_transport_get_exit_status      (McpStdioTransport  *self,
                                                          int                *wait_status);

G_END_DECLS
