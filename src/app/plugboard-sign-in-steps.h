/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-sign-in-steps.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SIGN_IN_STEPS (plugboard_sign_in_steps_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardSignInSteps, plugboard_sign_in_steps, PLUGBOARD, SIGN_IN_STEPS, AdwWindow)

/**
 * PlugboardSignInSteps:
 *
 * The sign-in debugger: the steps of a server's OAuth sign-ins, refreshes
 * and step-ups top to bottom (McpSignInSteps), each with its status, what
 * was done and seen, and, to expand, its request and response (masked
 * when recorded); the authorization URL with a Copy button. Follows the
 * server's trace while a sign-in runs; "Open Trace File…" replays a JSON
 * Lines trace instead.
 */
PlugboardSignInSteps *plugboard_sign_in_steps_new       (GtkWindow             *parent,
                                                         const char            *server_name,
                                                         McpTrace              *trace);
/* Shows @steps (the live ones, or a replay). */
void                  plugboard_sign_in_steps_set_steps (PlugboardSignInSteps  *self,
                                                         McpSignInSteps        *steps);
McpSignInSteps       *plugboard_sign_in_steps_get_steps (PlugboardSignInSteps  *self);
/* Replays the JSON Lines trace in @file; FALSE with @error naming the file
 * and the line when it cannot be read. */
gboolean              plugboard_sign_in_steps_load_file (PlugboardSignInSteps  *self,
                                                         GFile                 *file,
                                                         GError               **error);

G_END_DECLS
