/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-history-entry.h"

G_BEGIN_DECLS

/* For McpToolHistory only: a running entry started now, holding
 * @arguments (a reference; sealed from then on). */
McpHistoryEntry *mcp_history_entry_new (const char *qualified_name,
                                        JsonObject *arguments);

/* For McpCall: the result of a call of a tool with an interface (see
 * mcp_history_entry_get_result()); a reference. */
void             mcp_history_entry_set_result (McpHistoryEntry *self,
                                               JsonObject      *result);

G_END_DECLS
