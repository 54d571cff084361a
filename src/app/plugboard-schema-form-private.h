/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-schema-form.h"

G_BEGIN_DECLS

/* Shared by the parts of PlugboardSchemaForm: plugboard-schema-form.c (the
 * widget, its actions, row helpers), -checks.c (hints, problems, Unset),
 * -scalars.c (rows of one value), -containers.c (groups and expanders)
 * and -items.c (what arrays and maps add to their items).
 *
 * Rows are built from the McpFormField tree and write straight into it;
 * what they show is read back from the fields on "changed". A container (the
 * root group, an expander row) remembers the rows it added so it can build
 * them again when its field's children change ("structure-changed"). What
 * a row keeps is object data under these keys: */

#define DATA_FIELD     "plugboard-form-field"
#define DATA_ROWS      "plugboard-form-rows"
#define DATA_SYNCING   "plugboard-form-syncing"
#define DATA_TOUCHED   "plugboard-form-touched"
#define DATA_HINT      "plugboard-form-hint"
#define DATA_PROBLEM   "plugboard-form-problem"
#define DATA_UNSET     "plugboard-form-unset"
#define DATA_EDITOR    "plugboard-form-editor"
#define DATA_SUFFIXES  "plugboard-form-suffixes"
#define DATA_PRESENCE  "plugboard-form-presence"
#define DATA_REFILL    "plugboard-form-refill"

/* The field a row (or a container) shows. */
McpFormField *plugboard_schema_form_row_get_field        (gpointer      row);
void          plugboard_schema_form_row_set_field        (gpointer      row,
                                                          McpFormField *field);
/* While a row shows its field's new value, it does not write it back. */
gboolean      plugboard_schema_form_row_is_syncing       (gpointer      row);
void          plugboard_schema_form_row_set_syncing      (gpointer      row,
                                                          gboolean      syncing);
/* An optional property: absent until given a value, left out of the JSON. */
gboolean      plugboard_schema_form_field_is_optional    (McpFormField *field);
char         *plugboard_schema_form_dup_node_text        (JsonNode     *node);
/* A choice as a person reads it: "None" for null, a string as it is. */
char         *plugboard_schema_form_dup_choice_text      (JsonNode     *node);
/* The title with the required marker, escaped for the rows' markup. */
char         *plugboard_schema_form_dup_row_title        (McpFormField *field,
                                                          const char   *title);
/* "Required.", the description and @problems (nullable), for screen readers. */
void          plugboard_schema_form_row_set_description  (GtkWidget    *row,
                                                          McpFormField *field,
                                                          const char   *problems);
void          plugboard_schema_form_row_add_suffix       (GtkWidget    *row,
                                                          GtkWidget    *widget);
/* A flat icon button for the form action @action_name on the field at @path. */
GtkWidget    *plugboard_schema_form_icon_button_new      (const char   *icon_name,
                                                          const char   *tooltip,
                                                          const char   *action_name,
                                                          const char   *path);

/* plugboard-schema-form-checks.c */
void          plugboard_schema_form_row_add_hint         (GtkWidget    *row);
void          plugboard_schema_form_row_update_hint      (GtkWidget    *row,
                                                          McpFormField *field);
void          plugboard_schema_form_row_add_problem_icon (GtkWidget    *row);
void          plugboard_schema_form_row_update_problems  (GtkWidget    *row,
                                                          McpFormField *field);
void          plugboard_schema_form_row_add_unset_button (GtkWidget    *row,
                                                          McpFormField *field);
void          plugboard_schema_form_row_update_unset     (GtkWidget    *row,
                                                          McpFormField *field);

/* plugboard-schema-form-scalars.c */
GtkWidget    *plugboard_schema_form_entry_row_new        (McpFormField *field,
                                                          const char   *title);
GtkWidget    *plugboard_schema_form_switch_row_new       (McpFormField *field,
                                                          const char   *title);
GtkWidget    *plugboard_schema_form_fixed_row_new        (McpFormField *field,
                                                          const char   *title);
GtkWidget    *plugboard_schema_form_combo_row_new        (McpFormField *field,
                                                          const char   *title);
GtkWidget    *plugboard_schema_form_json_row_new         (McpFormField *field,
                                                          const char   *title);

/* plugboard-schema-form-containers.c */
/* Makes @container (an AdwPreferencesGroup or an AdwExpanderRow) the
 * container of @field's rows. */
void          plugboard_schema_form_container_init       (GtkWidget    *container,
                                                          McpFormField *field);
void          plugboard_schema_form_fill_rows            (GtkWidget    *container,
                                                          McpFormField *field);
/* Adds @row to @container and to the rows it builds again. */
void          plugboard_schema_form_container_add        (GtkWidget    *container,
                                                          GtkWidget    *row);

/* plugboard-schema-form-items.c */
/* Move Up and Move Down (@movable: an array's item) and Remove on @row,
 * the @index-th of @n_items. */
void          plugboard_schema_form_add_item_controls    (GtkWidget    *row,
                                                          McpFormField *item,
                                                          guint         index,
                                                          guint         n_items,
                                                          gboolean      movable);
/* The entry that adds a key to the map @field. */
GtkWidget    *plugboard_schema_form_new_key_row_new      (McpFormField *field);
/* One check row per choice when the array @field's items are one of a few
 * values (as elicitation asks); FALSE, adding nothing, otherwise. */
gboolean      plugboard_schema_form_fill_multi_select    (GtkWidget    *container,
                                                          McpFormField *field);

G_END_DECLS
