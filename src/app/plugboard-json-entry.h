/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_JSON_ENTRY (plugboard_json_entry_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardJsonEntry, plugboard_json_entry, PLUGBOARD, JSON_ENTRY, GObject)

/**
 * PlugboardJsonEntry:
 *
 * One member of a JSON object or element of an array, as a row of the
 * result view's JSON tree: its key (the member's name, or the element's
 * index) and its value.
 */
const char       *plugboard_json_entry_get_key  (PlugboardJsonEntry *self);
JsonNode         *plugboard_json_entry_get_node (PlugboardJsonEntry *self);

/* The members or elements of @node as a tree of PlugboardJsonEntry whose
 * children are made when a row is expanded; NULL when @node is not an
 * object or an array, or is an empty one. */
GtkTreeListModel *plugboard_json_entry_tree_new (JsonNode           *node);

G_END_DECLS
