/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "mcp-server-manager.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SAMPLING_DIALOG (plugboard_sampling_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardSamplingDialog, plugboard_sampling_dialog, PLUGBOARD, SAMPLING_DIALOG, AdwWindow)

/**
 * PlugboardSamplingDialog:
 *
 * A server's sampling/createMessage shown to the person in full, saying
 * clearly which server asks: the messages by role and content type, the
 * system prompt, model preferences, max tokens, and any other parameter.
 * The person writes the reply (a text editor, optionally starting from a
 * suggested one), chooses the model name to report, and Approves — or
 * Declines. Nothing is sent without Approve. Modal, keyboard reachable.
 *
 * Signal: answered (JsonNode *result) — emitted once with the
 * CreateMessageResult ({"role": "assistant", "content": {"type": "text",
 * "text": …}, "model": …, "stopReason": "endTurn"}), or NULL when the
 * person declined; then it closes.
 */
PlugboardSamplingDialog *plugboard_sampling_dialog_new     (GtkWindow  *parent,
                                                            const char *server_name,
                                                            JsonObject *params);
/* For tests: set the reply text, and press Approve or Decline. */
void                     plugboard_sampling_dialog_set_reply (PlugboardSamplingDialog *self,
                                                              const char              *text);
void                     plugboard_sampling_dialog_respond   (PlugboardSamplingDialog *self,
                                                              gboolean                 approve);

G_END_DECLS
