/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_HISTORY_OUTCOME_RUNNING,
  MCP_HISTORY_OUTCOME_OK,
  MCP_HISTORY_OUTCOME_TOOL_ERROR,   /* isError result */
  MCP_HISTORY_OUTCOME_FAILED,       /* a GError: connection, timeout, denied… */
  MCP_HISTORY_OUTCOME_CANCELLED,
} McpHistoryOutcome;

#define MCP_TYPE_HISTORY_ENTRY (mcp_history_entry_get_type ())
G_DECLARE_FINAL_TYPE (McpHistoryEntry, mcp_history_entry, MCP, HISTORY_ENTRY, GObject)

/**
 * McpHistoryEntry:
 *
 * One call made in this session. Properties (notified): qualified-name,
 * arguments (JsonObject, immutable), started (gint64 wall-clock µs),
 * duration (gint64 µs; 0 while running), outcome, summary (one line: the
 * error message or the start of the result text).
 */
const char        *mcp_history_entry_get_qualified_name (McpHistoryEntry *self);
JsonObject        *mcp_history_entry_get_arguments      (McpHistoryEntry *self);
gint64             mcp_history_entry_get_started        (McpHistoryEntry *self);
gint64             mcp_history_entry_get_duration       (McpHistoryEntry *self);
McpHistoryOutcome  mcp_history_entry_get_outcome        (McpHistoryEntry *self);
const char        *mcp_history_entry_get_summary        (McpHistoryEntry *self);
/* The CallToolResult as the server sent it, kept only for a call of a
 * tool with an interface (MCP Apps: a front end shows the interface of a
 * past call again with its input and result); NULL for others, whose
 * results the history does not keep. */
JsonObject        *mcp_history_entry_get_result         (McpHistoryEntry *self);
/* Ends a running entry (duration from its start). */
void               mcp_history_entry_finish             (McpHistoryEntry   *self,
                                                         McpHistoryOutcome  outcome,
                                                         const char        *summary);

G_END_DECLS
