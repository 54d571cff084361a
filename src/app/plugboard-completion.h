/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "mcp-server-manager.h"

G_BEGIN_DECLS

/* Suggestions for an argument from the server (completion/complete), as
 * the resource and prompt browsers offer them: one way of completing an
 * argument. */

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
void plugboard_completion_attach  (GtkWidget                      *editable,
                                   McpServerConnection            *connection,
                                   McpCompletionRef                kind,
                                   const char                     *ref,
                                   const char                     *argument,
                                   PlugboardCompletionContextFunc  context_func,
                                   gpointer                        user_data);
/* Closes the suggestions of @widget, an editable or what holds some, and
 * drops a request under way (Read or Get was clicked: what they were for
 * is done). Nothing without them. */
void plugboard_completion_dismiss (GtkWidget                      *widget);

G_END_DECLS
