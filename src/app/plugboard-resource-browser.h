/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "mcp-server-manager.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_RESOURCE_BROWSER (plugboard_resource_browser_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardResourceBrowser, plugboard_resource_browser, PLUGBOARD, RESOURCE_BROWSER, AdwBin)

/**
 * PlugboardResourceBrowser:
 *
 * The server page's Resources tab for one connection: its resources and
 * resource templates (searchable lists, from the connection's models); a
 * template's arguments as a small form with completion
 * (completion/complete); Read shows the content by MIME type (a
 * PlugboardResultView); a subscribe toggle per resource with an update
 * indicator (the connection's resource-updated). Says plainly when the
 * server offers no resources or is not connected.
 */
GtkWidget *plugboard_resource_browser_new            (void);
/* nullable */
void       plugboard_resource_browser_set_connection (PlugboardResourceBrowser *self,
                                                      McpServerConnection      *connection);

/* Shared with PlugboardPromptBrowser (one widget per file, but one way of
 * completing an argument). */

/* The other arguments' values (strings) for completion/complete's context,
 * or NULL; transfer full. */
typedef JsonObject *(*PlugboardCompletionContextFunc) (GtkWidget *editable,
                                                       gpointer   user_data);

/* Suggestions from completion/complete in a popover under @editable (a
 * GtkEditable: a GtkEntry, an AdwEntryRow) as the person types (200 ms
 * after the last change); Down moves into them, Enter or a click takes
 * one, Escape closes them. The popover has the style class
 * "plugboard-completion". @context_func (nullable) and @user_data must
 * live as long as @editable. */
void       plugboard_completion_attach   (GtkWidget                      *editable,
                                          McpServerConnection            *connection,
                                          McpCompletionRef                kind,
                                          const char                     *ref,
                                          const char                     *argument,
                                          PlugboardCompletionContextFunc  context_func,
                                          gpointer                        user_data);
/* Closes @editable's suggestions and drops a request under way (Read or Get
 * was clicked: what they were for is done). Nothing without them. */
void       plugboard_completion_dismiss  (GtkWidget                      *editable);

G_END_DECLS
