/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-settings.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SERVER_ROW (plugboard_server_row_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardServerRow, plugboard_server_row, PLUGBOARD, SERVER_ROW, GtkWidget)

/**
 * PlugboardServerRow:
 *
 * A row of the sidebar's server list (the child of a GtkListItem). Shows
 * for its item:
 * - an McpServerConnection: the name; the scope ("User", "Project",
 *   "Local"); a transport icon with a tooltip (stdio: utilities-terminal-symbolic,
 *   http/sse: network-server-symbolic, ws: network-transmit-receive-symbolic,
 *   IDE kinds: computer-symbolic); and the state: a GtkSpinner while
 *   pending, "N tools" when connected (green dot), an error icon for failed,
 *   a key icon with "Sign in" text for needs-auth, "Disabled" dimmed, and
 *   "Awaiting approval" for a project server the settings have pending.
 *   Updates live on the connection's notify::state / tools changes.
 * - an McpServerConfig (a shadowed entry): the name dimmed, its scope and
 *   "Shadowed by <scope>".
 * Accessible label: "NAME, SCOPE, STATE".
 *
 * Properties: item (GObject, either kind), settings (McpSettings, for the
 * approval state and for what shadows an entry).
 */
GtkWidget *plugboard_server_row_new         (void);
void       plugboard_server_row_set_item    (PlugboardServerRow *self,
                                             GObject            *item);
GObject   *plugboard_server_row_get_item    (PlugboardServerRow *self);
void       plugboard_server_row_set_settings (PlugboardServerRow *self,
                                              McpSettings        *settings);
/* The texts shown, for tests: the state line, e.g. "3 tools". */
const char *plugboard_server_row_get_state_text (PlugboardServerRow *self);

G_END_DECLS
