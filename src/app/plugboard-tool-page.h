/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-permissions.h"
#include "mcp-project.h"
#include "mcp-tool-history.h"
#include "mcp-tool-pool.h"
#include "plugboard-app-view.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_TOOL_PAGE (plugboard_tool_page_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardToolPage, plugboard_tool_page, PLUGBOARD, TOOL_PAGE, AdwBin)

/**
 * PlugboardToolPage:
 *
 * One tool (McpPoolTool): its title, qualified name and server; the
 * description rendered from Markdown (links clickable); the annotations in
 * words ("Read-only: does not change anything", "Destructive: may delete
 * or overwrite", "Open world: reaches outside systems", "Idempotent", each
 * saying when it is the MCP default rather than declared); the input and
 * output schema (readable summary and raw JSON in a PlugboardJsonEditor,
 * read-only); and the invocation:
 * - a PlugboardSchemaForm of an McpFormField made from inputSchema, and a
 *   "Form / JSON" switch to a PlugboardJsonEditor of the whole arguments
 *   object; switching keeps the values (form → JSON pretty-printed; JSON →
 *   form with mcp_form_field_set_from_json); invalid JSON blocks the switch
 *   and the run with its error shown, never dropped;
 * - Run (Ctrl+Enter), with a confirmation dialog (AdwMessageDialog showing
 *   the arguments) before a destructive or open-world tool unless a
 *   permission rule allows it; a denied tool's Run is insensitive with the
 *   rule named; "ask" asks as well;
 * - while running: a progress bar from progress notifications (pulsing
 *   when there is no total) with the server's message, the elapsed time,
 *   and Cancel;
 * - the result in a PlugboardResultView, or the error message;
 * - history: this session's calls of the tool (arguments, duration,
 *   outcome) with Re-run and "Load Arguments", and saved argument sets
 *   (Save Arguments… with a name, load, delete) through McpToolHistory.
 * Calls are McpCalls of the project (plugboard_tool_page_set_project()):
 * its permissions, its history, the person asked through its interaction
 * (the window's PlugboardInteraction); the page shows their progress,
 * task state and outcome.
 *
 * Properties: tool (McpPoolTool), permissions (McpPermissions), history
 * (McpToolHistory), running (bool, read-only).
 */
GtkWidget   *plugboard_tool_page_new             (void);
void         plugboard_tool_page_set_tool        (PlugboardToolPage *self,
                                                  McpPoolTool       *tool);
McpPoolTool *plugboard_tool_page_get_tool        (PlugboardToolPage *self);
void         plugboard_tool_page_set_project     (PlugboardToolPage *self,
                                                  McpProject        *project);
void         plugboard_tool_page_set_permissions (PlugboardToolPage *self,
                                                  McpPermissions    *permissions);
void         plugboard_tool_page_set_history     (PlugboardToolPage *self,
                                                  McpToolHistory    *history);
/* For tests: the arguments the page would send (or NULL with @error), set
 * them (as loading a saved set does), and run as the button does. */
JsonObject  *plugboard_tool_page_dup_arguments   (PlugboardToolPage *self,
                                                  GError           **error);
void         plugboard_tool_page_set_arguments   (PlugboardToolPage *self,
                                                  JsonObject        *arguments);
void         plugboard_tool_page_run             (PlugboardToolPage *self);
void         plugboard_tool_page_cancel          (PlugboardToolPage *self);

/* MCP Apps: the App view of a tool with an interface, showing a fresh view
 * of it told @arguments (NULL: empty) and @result (a CallToolResult, or
 * NULL), as "Open App" and a past call's "Show Interface" do; the
 * PlugboardAppView it uses. */
void         plugboard_tool_page_show_app        (PlugboardToolPage *self,
                                                  JsonObject        *arguments,
                                                  JsonObject        *result);
PlugboardAppView *plugboard_tool_page_get_app_view (PlugboardToolPage *self);

G_END_DECLS
