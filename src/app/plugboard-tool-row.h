/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-permissions.h"
#include "mcp-tool-pool.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_TOOL_ROW (plugboard_tool_row_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardToolRow, plugboard_tool_row, PLUGBOARD, TOOL_ROW, GtkWidget)

/**
 * PlugboardToolRow:
 *
 * A row of a tool list (the child of a GtkListItem; cheap to bind: it is
 * recycled over 10,000 tools). Shows the tool's title or name, its
 * mcp__server__tool name (dimmed, monospace, ellipsized), badges for
 * read-only, destructive, open-world and idempotent — a badge for a value
 * the tool declared is solid, one implied by the spec's defaults
 * (destructive and open-world default to true when undeclared) is outlined
 * with a tooltip saying "not declared; the MCP default" — and the
 * effective permission (Allow / Ask / Deny, from @permissions) as a tag.
 */
GtkWidget   *plugboard_tool_row_new      (void);
void         plugboard_tool_row_bind     (PlugboardToolRow *self,
                                          McpPoolTool      *tool,
                                          McpPermissions   *permissions);
void         plugboard_tool_row_unbind   (PlugboardToolRow *self);

G_END_DECLS
