/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-history-entry.h"

G_BEGIN_DECLS

/* For McpToolHistory only: a running entry started now, holding
 * @arguments (a reference; sealed from then on). */
McpHistoryEntry *mcp_history_entry_new (const char *qualified_name,
                                        JsonObject *arguments);

G_END_DECLS
