/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-transport.h"

G_BEGIN_DECLS

#define MCP_IDE_AUTH_HEADER "X-Claude-Code-Ide-Authorization"

#define MCP_TYPE_IDE_LOCK (mcp_ide_lock_get_type ())

G_DECLARE_FINAL_TYPE (McpIdeLock, mcp_ide_lock, MCP, IDE_LOCK, GObject)

/**
 * McpIdeLock:
 *
 * A running IDE's MCP server, as its lock file describes it: a JSON file
 * named <port>.lock in a directory the configuration names, holding
 * "workspaceFolders", "ideName", "transport" ("ws" or "sse"), "authToken"
 * and optionally "port" and "pid". The IDE variants of the SSE and
 * WebSocket transports connect to 127.0.0.1:<port> with the token in the
 * X-Claude-Code-Ide-Authorization header.
 */
McpIdeLock     *mcp_ide_lock_new_from_file        (GFile        *file,
                                                   GError      **error);
/* Every readable lock file in @directory, newest first; files that cannot
 * be read are skipped (a debug message says why). */
GPtrArray      *mcp_ide_lock_list                 (GFile        *directory,
                                                   GError      **error);

guint16         mcp_ide_lock_get_port             (McpIdeLock   *self);
const char     *mcp_ide_lock_get_ide_name         (McpIdeLock   *self);
/* "ws" or "sse" */
const char     *mcp_ide_lock_get_transport        (McpIdeLock   *self);
const char     *mcp_ide_lock_get_auth_token       (McpIdeLock   *self);
const char * const *mcp_ide_lock_get_workspace_folders (McpIdeLock *self);
/* The URL to connect to: ws://127.0.0.1:<port> or http://127.0.0.1:<port>/sse */
char           *mcp_ide_lock_dup_url              (McpIdeLock   *self);
/* { "X-Claude-Code-Ide-Authorization: <token>", NULL } for the transports */
GStrv           mcp_ide_lock_dup_headers          (McpIdeLock   *self);

G_END_DECLS
