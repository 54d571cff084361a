/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_CHANGES_VIEW (plugboard_changes_view_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardChangesView, plugboard_changes_view, PLUGBOARD, CHANGES_VIEW, AdwBin)

/**
 * PlugboardChangesView:
 *
 * What changed in one server's tools, resources, templates, prompts and
 * instructions (McpProject's capability history), since the last
 * connection or over a span the person picks: each change a row that
 * expands into the description's diff (removed lines red, added green)
 * and the schema's differences. A tool whose allow rule a change
 * suspended heads the page with a warning row and a Review and Confirm
 * button (the diff, then mcp_project_confirm_tool()).
 */
GtkWidget *plugboard_changes_view_new        (void);
/* The server @name of @project (either may be NULL: nothing shown). */
void       plugboard_changes_view_set_server (PlugboardChangesView *self,
                                              McpProject           *project,
                                              const char           *name);
/* Reads the history again (after a listing, a confirmation). */
void       plugboard_changes_view_refresh    (PlugboardChangesView *self);
/* How many tools are shown as suspended. */
guint      plugboard_changes_view_get_n_flagged (PlugboardChangesView *self);

G_END_DECLS
