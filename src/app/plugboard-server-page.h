/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-permissions.h"
#include "mcp-project.h"
#include "mcp-server-connection.h"
#include "mcp-roots.h"
#include "mcp-settings.h"
#include "mcp-tool-pool.h"
#include "mcp-client-copy.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SERVER_PAGE (plugboard_server_page_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardServerPage, plugboard_server_page, PLUGBOARD, SERVER_PAGE, AdwBin)

/**
 * PlugboardServerPage:
 *
 * The content pane for one server (an McpServerConnection). Shows, live:
 * - the state in plain words with its reason (failed: the engine's error
 *   message, which for stdio has the exit status and the last stderr
 *   lines; needs-auth: why and a "Sign In" button; pending: a spinner and
 *   "Connecting…"; disabled; awaiting approval with the exact command or
 *   URL and Approve / Reject buttons);
 * - once connected: server name and version, protocol version,
 *   capabilities (tools, resources, prompts, logging, completions…), and
 *   the server's instructions (wrapped, selectable);
 * - the settings: transport, command line or URL, scope and file;
 * - actions (buttons and a menu), each a window action with the server's
 *   name as its string parameter (see plugboard-window.h): win.reconnect-server,
 *   win.enable-server / win.disable-server, win.edit-server,
 *   win.duplicate-server, win.move-server (parameter "(ss)": name and
 *   "user" / "project" / "local"), win.remove-server, win.sign-in,
 *   win.sign-out, win.cancel-sign-in, win.approve-server, win.reject-server;
 * - the log: a GtkListView over mcp_server_connection_get_log() that
 *   follows the tail (unless the person scrolled up), stderr lines in
 *   monospace, notifications and state changes styled apart, and a "Copy
 *   All" button (mcp_log_entry_format of every entry, to the clipboard).
 *
 * - the server's tools: a PlugboardToolList over the tool pool (set with
 *   plugboard_server_page_set_tool_pool) filtered to this server;
 *   activating a tool activates win.show-tool with its qualified name;
 * - beside the log, its level: a drop-down of "Default" and
 *   mcp_client_get_log_levels() showing the connection's log-level;
 *   choosing one calls mcp_server_connection_set_log_level_async (errors
 *   under the log's title); insensitive, with a tooltip saying why, unless
 *   the server is connected and declares logging. notifications/message
 *   entries are styled by level (debug dimmed, warning and above stand
 *   out);
 * - a "Roots…" button: win.edit-roots with the server's name.
 *
 * All of the above is the Overview tab (view stack page "overview"); the
 * other tabs are "resources" (PlugboardResourceBrowser), "prompts"
 * (PlugboardPromptBrowser) and "tasks" (PlugboardTaskList), each given
 * the page's connection.
 *
 * Properties: connection (McpServerConnection), settings (McpSettings),
 * signing-in (bool: show the waiting state with Cancel instead of
 * Sign In), sign-in-error (string: the last sign-in failure, shown under
 * the state until the next attempt).
 */
GtkWidget           *plugboard_server_page_new               (void);
void                 plugboard_server_page_set_connection    (PlugboardServerPage *self,
                                                              McpServerConnection *connection);
/* What a scan of every client found (McpClientSummary; NULL: not yet),
 * and the client shown: the "In Other Clients" part of the page
 * (PlugboardServerClients) for the page's server. Call again after
 * set_connection(). */
void                 plugboard_server_page_set_clients       (PlugboardServerPage *self,
                                                              GPtrArray           *summaries,
                                                              McpClientKind        current);
McpServerConnection *plugboard_server_page_get_connection    (PlugboardServerPage *self);
void                 plugboard_server_page_set_settings      (PlugboardServerPage *self,
                                                              McpSettings         *settings);
/* The roots the engine offers this page's server, shown on its page
 * (nullable). */
void                 plugboard_server_page_set_roots         (PlugboardServerPage *self,
                                                              McpRoots            *roots);
/* While signing in: the sign-in page's address, shown with Copy Address
 * for when no browser opened (nullable). */
void                 plugboard_server_page_set_sign_in_url   (PlugboardServerPage *self,
                                                              const char          *url);
void                 plugboard_server_page_set_signing_in    (PlugboardServerPage *self,
                                                              gboolean             signing_in);
void                 plugboard_server_page_set_sign_in_error (PlugboardServerPage *self,
                                                              const char          *message);
/* The pool whose tools of this server the "Tools" section lists, and the
 * permissions its rows show. */
/* The project the page's server belongs to: its capability history (the
 * Changes view). */
void                 plugboard_server_page_set_project       (PlugboardServerPage *self,
                                                              McpProject          *project);
/* Shows the Changes view. */
void                 plugboard_server_page_show_changes      (PlugboardServerPage *self);
void                 plugboard_server_page_set_tool_pool     (PlugboardServerPage *self,
                                                              McpToolPool         *pool,
                                                              McpPermissions      *permissions);
/* For tests: the state title and the reason as shown. */
const char          *plugboard_server_page_get_state_title   (PlugboardServerPage *self);
const char          *plugboard_server_page_get_state_detail  (PlugboardServerPage *self);
/* Opens the Traffic page at the newest failure ("See What Happened"). */
void                 plugboard_server_page_show_traffic      (PlugboardServerPage *self);

G_END_DECLS
