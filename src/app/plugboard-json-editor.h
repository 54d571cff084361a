/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_JSON_EDITOR (plugboard_json_editor_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardJsonEditor, plugboard_json_editor, PLUGBOARD, JSON_EDITOR, GtkWidget)

/**
 * PlugboardJsonEditor:
 *
 * A GtkSourceView 5 for JSON: the "json" language (highlighting), bracket
 * matching, line numbers (property show-line-numbers), monospace, the
 * Adwaita style scheme following the dark preference. Under the text, the
 * parse error of the current text (line, column and message, from the
 * project's strict JSON parser) when there is one — the text is never
 * changed or re-escaped by the editor. Read-only mode for JSON views.
 *
 * Properties: text (string), editable (bool), valid (bool, read-only),
 * error-message (string, read-only), show-line-numbers.
 * Signal: changed (the text changed).
 */
GtkWidget  *plugboard_json_editor_new        (void);
const char *plugboard_json_editor_get_text   (PlugboardJsonEditor *self);
void        plugboard_json_editor_set_text   (PlugboardJsonEditor *self,
                                              const char          *text);
/* Pretty-prints @node (2 spaces) and shows it. */
void        plugboard_json_editor_set_json   (PlugboardJsonEditor *self,
                                              JsonNode            *node);
/* The parsed text, or NULL with @error. */
JsonNode   *plugboard_json_editor_dup_json   (PlugboardJsonEditor *self,
                                              GError             **error);
gboolean    plugboard_json_editor_get_valid  (PlugboardJsonEditor *self);
void        plugboard_json_editor_set_editable (PlugboardJsonEditor *self,
                                                gboolean             editable);

G_END_DECLS
