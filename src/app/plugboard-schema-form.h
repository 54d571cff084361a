/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-form-field.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SCHEMA_FORM (plugboard_schema_form_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardSchemaForm, plugboard_schema_form, PLUGBOARD, SCHEMA_FORM, AdwBin)

/**
 * PlugboardSchemaForm:
 *
 * Widgets for an McpFormField tree (mcp-form-field.h), bound both ways:
 * - STRING: AdwEntryRow (a multi-line GtkTextView when the schema says
 *   maxLength > 200 or format "textarea"? no: when the description or
 *   title suggests long text is not knowable — keep AdwEntryRow, with a
 *   button to edit in a larger dialog); format date / date-time: an entry
 *   with a calendar popover button; email / uri: entry with input purpose;
 *   minLength/maxLength/pattern checked live (error style + message);
 * - NUMBER / INTEGER: an entry with numeric input purpose, bounds shown
 *   as the subtitle ("0 to 100"), checked live; BOOLEAN: a GtkSwitch row
 *   (AdwActionRow, no AdwSwitchRow on 1.2); NULL and CONST: a row with the
 *   fixed value; ENUM: AdwComboRow of the choices' JSON texts;
 * - OBJECT: a group (AdwPreferencesGroup, nested ones in an AdwExpanderRow)
 *   with its properties; ARRAY: rows per item with remove / move up / move
 *   down and an "Add Item" button; MAP: key + value rows and "Add Entry";
 *   UNION: a combo of variant titles above the chosen variant's fields;
 *   JSON: a PlugboardJsonEditor for that field only.
 * - Optional fields: an absent field shows a "Set" toggle / placeholder
 *   from the default; required fields are marked with "*" and described
 *   for accessibility; descriptions are row subtitles (wrapped).
 * - A recursive schema expands on demand (set_present creates children).
 * The form never holds values of its own: it reads and writes the fields.
 *
 * Property: field (McpFormField, the root).
 */
GtkWidget    *plugboard_schema_form_new       (McpFormField        *root);
McpFormField *plugboard_schema_form_get_field (PlugboardSchemaForm *self);
/* The row of the root object's property @name (an AdwEntryRow for a string,
 * a number or an integer), or NULL. The form builds its rows again when the
 * field's structure changes (a value loaded that turns a field into JSON):
 * a caller that keeps the row must look it up again then. */
GtkWidget    *plugboard_schema_form_find_row  (PlugboardSchemaForm *self,
                                               const char          *name);

G_END_DECLS
