/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_WINDOW (plugboard_window_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardWindow, plugboard_window, PLUGBOARD, WINDOW, AdwApplicationWindow)

/**
 * PlugboardWindow:
 *
 * The main window: an AdwLeaflet (libadwaita 1.2) with the sidebar — a
 * project selector (the open project's folder name; a popover with recent
 * projects from GSettings "recent-projects" and "Open Folder…" through
 * GtkFileChooserNative), a search entry filtering by name, and a
 * GtkListView of PlugboardServerRow over the project's "servers" — and the
 * content: a PlugboardServerPage for the selected server, or the empty
 * state. Works at 360 px wide (the leaflet folds; a back button returns to
 * the list).
 *
 * Empty state (no server in any scope): "Add a Server", "Import from Other
 * Apps…" (PlugboardImportDialog) and "Try the Example Server" (adds
 * server-everything in one click and selects it).
 *
 * Project servers pending approval open a PlugboardApprovalDialog once the
 * project has loaded (and a banner-like row offers it again later).
 *
 * Actions (GVariant "s" = a server name unless noted), used by the server
 * page: win.add-server (none), win.import-servers (none),
 * win.add-example-server (none), win.open-project (none),
 * win.open-recent-project ("s": a folder), win.reconnect-server,
 * win.enable-server, win.disable-server, win.edit-server,
 * win.duplicate-server, win.move-server ("(ss)": name, "user" | "project" |
 * "local"), win.remove-server (with an "Undo" toast), win.sign-in,
 * win.cancel-sign-in, win.sign-out, win.approve-server, win.reject-server,
 * win.review-approvals (none), win.show-server ("s": select it),
 * win.reconnect-all (none), win.edit-roots (a PlugboardRootsDialog for the
 * server's roots in the project's McpRoots). Failures are toasts with the
 * engine's message. Sign-in opens the browser with gtk_show_uri() and
 * shows the waiting state on the page (Cancel), then a toast for success
 * or failure.
 *
 * What servers and calls ask of the person, while a project is shown, goes
 * through the window's PlugboardInteraction (set on the project): the
 * confirmation of a tool call, a web page to open, elicitation/create (form
 * and URL) in a PlugboardElicitationDialog, sampling/createMessage in a
 * PlugboardSamplingDialog — approved: its CreateMessageResult; declined:
 * the JSON-RPC error -1 "User rejected sampling request"; withdrawn by the
 * server: the dialog closes.
 *
 * Shortcuts: Ctrl+N add, Ctrl+O open project, Ctrl+F search, Ctrl+R
 * reconnect the selected server, Ctrl+comma preferences (app.preferences).
 */
PlugboardWindow *plugboard_window_new              (GtkApplication  *application,
                                                   McpProject      *project);
McpProject      *plugboard_window_get_project      (PlugboardWindow *self);
/* Replaces the project shown (after "Open Folder…"). */
void             plugboard_window_set_project      (PlugboardWindow *self,
                                                   McpProject      *project);
/* Selects the server @name in the list and shows its page. */
gboolean         plugboard_window_show_server      (PlugboardWindow *self,
                                                   const char      *name);
/* Selects the server @name and shows its Changes. */
gboolean         plugboard_window_show_changes     (PlugboardWindow *self,
                                                   const char      *name);
/* A sign-in of @name needs the person at @url (checked by the engine's URL
 * policy; @host is where it leads): a toast, the address on the server's
 * page, and the browser. */
void             plugboard_window_show_sign_in_url (PlugboardWindow *self,
                                                   const char      *name,
                                                   const char      *url,
                                                   const char      *host);

G_END_DECLS
