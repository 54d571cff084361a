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
 * Under Flatpak the server runs on the host through `flatpak-spawn --host`
 * and the user's login shell: see mcp_stdio_transport_build_host_argv().
 * flatpak-spawn forwards SIGINT (to the host process group) and SIGTERM; its
 * --watch-bus ends the host command when flatpak-spawn itself is killed, so
 * the SIGINT, SIGTERM, SIGKILL shutdown still reaches the server.
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

/* Inside a Flatpak sandbox a server runs on the host, through
 * `flatpak-spawn --host`: the flatpak-spawn to use (PLUGBOARD_FLATPAK_SPAWN
 * when set, else "flatpak-spawn" when /.flatpak-info exists or FLATPAK_ID is
 * set), or NULL outside Flatpak. */
char           *mcp_stdio_transport_get_host_spawner     (void);

/* The argv that runs @argv on the host through @flatpak_spawn: the
 * environment entries as --env=, @cwd as --directory=, and the command
 * started by @login_shell as a login shell (so that it finds what nvm, asdf
 * or Homebrew put in PATH), with whatever the profile prints sent to stderr,
 * never into the MCP stream. @login_shell is used only when it is an
 * absolute path to a POSIX shell; otherwise /bin/sh. The arguments are passed
 * as they are, never through shell parsing. */
GStrv           mcp_stdio_transport_build_host_argv      (const char         *flatpak_spawn,
                                                          const char * const *argv,
                                                          const char * const *env,
                                                          const char         *cwd,
                                                          const char         *login_shell);

G_END_DECLS
