/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_LOG_ENTRY_STDERR,        /* a line a stdio server wrote to stderr */
  MCP_LOG_ENTRY_NOTIFICATION,  /* a notification the server sent (method and params) */
  MCP_LOG_ENTRY_STATE,         /* the connection's state changed (text says to what, and why) */
  MCP_LOG_ENTRY_MESSAGE,       /* a notifications/message: level, logger (nullable) and data */
  MCP_LOG_ENTRY_WARNING,       /* Plugboard set aside something the server sent (McpClient "warning") */
} McpLogEntryKind;

#define MCP_TYPE_LOG_ENTRY (mcp_log_entry_get_type ())

G_DECLARE_FINAL_TYPE (McpLogEntry, mcp_log_entry, MCP, LOG_ENTRY, GObject)

/**
 * McpLogEntry:
 *
 * One line of a server's log (McpServerConnection's "log" model):
 * immutable. Properties: time (gint64, wall-clock µs), kind, text, and
 * for MCP_LOG_ENTRY_MESSAGE level and logger (NULL for other kinds).
 * The text never holds a secret: notifications are shown as the server
 * sent them (servers do not send our tokens), state texts come from the
 * engine's messages.
 */
McpLogEntry     *mcp_log_entry_new        (McpLogEntryKind  kind,
                                           const char      *text);
/* A notifications/message: @text is the data as text (a string as is,
 * else compact JSON); the entry's text reads "level logger: data". */
McpLogEntry     *mcp_log_entry_new_message (const char *level,
                                            const char *logger,
                                            const char *text);
gint64           mcp_log_entry_get_time   (McpLogEntry     *self);
McpLogEntryKind  mcp_log_entry_get_kind   (McpLogEntry     *self);
const char      *mcp_log_entry_get_text   (McpLogEntry     *self);
/* MCP_LOG_ENTRY_MESSAGE: the level ("debug" … "emergency", as sent) and
 * the logger (nullable); NULL for other kinds. */
const char      *mcp_log_entry_get_level  (McpLogEntry     *self);
const char      *mcp_log_entry_get_logger (McpLogEntry     *self);
/* "HH:MM:SS.mmm  [stderr] text" — one line for "Copy all". */
char            *mcp_log_entry_format     (McpLogEntry     *self);

G_END_DECLS
