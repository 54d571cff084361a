/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_PERMISSIONS_WINDOW (plugboard_permissions_window_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardPermissionsWindow, plugboard_permissions_window, PLUGBOARD, PERMISSIONS_WINDOW, AdwWindow)

/**
 * PlugboardPermissionsWindow:
 *
 * Every permission rule of the project's settings, by the scope that keeps
 * it: the person's own settings (user scope) and their entry for this
 * project (local scope; none without a project folder). Each rule says
 * what it names (every tool of a server, one tool, or why the evaluator
 * ignores it), and can be moved to another list (Always Allow, Always Ask,
 * Deny) or removed; Add a Rule puts one in the list and the scope chosen.
 * Writes go through mcp_project_set_rule_async() (one locked write
 * of the file that keeps every other byte); the rows follow the settings,
 * outside edits included. A failed write is said under Add a Rule.
 */
PlugboardPermissionsWindow *plugboard_permissions_window_new (GtkWindow        *parent,
                                                              McpProject *project);

/* For tests: adds a rule as the Add Rule button does, with the fields as
 * they are. */
void                        plugboard_permissions_window_add (PlugboardPermissionsWindow *self);
/* The message shown under Add a Rule ("" when none). */
const char                 *plugboard_permissions_window_get_message (PlugboardPermissionsWindow *self);

G_END_DECLS
