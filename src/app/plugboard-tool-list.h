/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-permissions.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_TOOL_LIST (plugboard_tool_list_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardToolList, plugboard_tool_list, PLUGBOARD, TOOL_LIST, AdwBin)

/**
 * PlugboardToolList:
 *
 * A searchable, filterable GtkListView of PlugboardToolRow over @tools (a
 * GListModel of McpPoolTool: the whole pool for "All Tools", or one
 * server's). A search entry matches name, title, qualified name and
 * description (case-insensitive, every word must match); filter toggles:
 * "Read-only only", "Hide destructive", "Open-world only". Filtering runs
 * over a case-folded text cached per tool, telling the filter model when a
 * change only narrows (a longer query, a toggle turned on), so 10,000
 * tools stay smooth per keystroke; it is not incremental (in GTK 4.8 each
 * batch re-creates the rows on screen: slower, see bench-tool-list). Shows a
 * "No tools match" status when the filter leaves none, and the count
 * ("N tools").
 *
 * Properties: tools (GListModel), permissions (McpPermissions), search
 * (string), read-only-only, hide-destructive, open-world-only (bools),
 * n-shown (guint, read-only).
 * Signal: activated (McpPoolTool *tool) — a row was activated.
 */
GtkWidget  *plugboard_tool_list_new             (void);
void        plugboard_tool_list_set_tools       (PlugboardToolList *self,
                                                 GListModel        *tools);
void        plugboard_tool_list_set_permissions (PlugboardToolList *self,
                                                 McpPermissions    *permissions);
void        plugboard_tool_list_set_search      (PlugboardToolList *self,
                                                 const char        *search);
guint       plugboard_tool_list_get_n_shown     (PlugboardToolList *self);
/* The filtered model (for tests and benchmarks). */
GListModel *plugboard_tool_list_get_shown_model (PlugboardToolList *self);
/* Puts the keyboard focus in the list's search entry (Ctrl+F). */
void        plugboard_tool_list_focus_search    (PlugboardToolList *self);

G_END_DECLS
