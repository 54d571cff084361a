/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_ELICITATION_DIALOG (plugboard_elicitation_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardElicitationDialog, plugboard_elicitation_dialog,
                      PLUGBOARD, ELICITATION_DIALOG, AdwWindow)

/**
 * PlugboardElicitationDialog:
 *
 * A server's elicitation/create request shown to the person, saying
 * clearly which server asks ("“NAME” asks for information") and its
 * message:
 * - form mode (params.requestedSchema): a PlugboardSchemaForm of the
 *   schema; buttons Decline, Cancel, and Submit (insensitive while the form
 *   has problems); Submit answers {"action": "accept", "content": {…}};
 * - URL mode (params.mode "url", params.url): the URL in full, what will
 *   happen ("Plugboard will open this address in your browser"), and Open
 *   (answers {"action": "accept"} and opens it with gtk_show_uri) or
 *   Decline.
 * Decline answers {"action": "decline"}, Cancel / Escape / closing
 * {"action": "cancel"}. Modal, keyboard reachable.
 *
 * Signal: answered (JsonNode *result) — emitted once, then it closes.
 */
PlugboardElicitationDialog *plugboard_elicitation_dialog_new (GtkWindow  *parent,
                                                              const char *server_name,
                                                              JsonObject *params);
/* For tests: the form's root field (NULL in URL mode), and the buttons. */
gpointer plugboard_elicitation_dialog_get_field (PlugboardElicitationDialog *self);
void     plugboard_elicitation_dialog_respond   (PlugboardElicitationDialog *self,
                                                 const char                 *action);

G_END_DECLS
