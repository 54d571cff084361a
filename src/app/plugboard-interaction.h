/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "mcp-interaction.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_INTERACTION (plugboard_interaction_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardInteraction, plugboard_interaction, PLUGBOARD, INTERACTION, McpInteraction)

/**
 * PlugboardInteraction:
 *
 * The app's McpInteraction: each question a server or a call asks is a
 * dialog over @window (a PlugboardWindow): the confirmation of a tool
 * call, a web page to open and come back from, an elicitation form, a
 * sampling request, a link an app's page asks to open (its host shown
 * first), a file it offers (a file chooser, then written through a
 * checked temporary file); a sign-in address goes to the window, which
 * opens it and shows it. A dialog closes, unanswered, when what asked is cancelled
 * (the call, or the server withdrawing its request).
 */
McpInteraction *plugboard_interaction_new (GtkWindow *window);

G_END_DECLS
