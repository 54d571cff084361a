/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * McpYamlDocument:
 *
 * A YAML text (Goose's ~/.config/goose/config.yaml) read as JSON values
 * with libyaml and edited in place, as McpJsonDocument edits JSON: an edit
 * splices only the bytes of what it adds, changes or removes, at the
 * positions libyaml's events mark; every other byte stays as it was
 * (comments, blank lines, key order, quoting style, flow or block style,
 * other keys). Bounded: 16 MiB of text, a depth of 64, 100,000 nodes. An
 * alias or an anchor used as a merge key ("<<") is read (aliases
 * expanded, at most 10,000 nodes of expansion: a "billion laughs" is
 * refused) but a member holding an anchor or alias is never edited (an
 * error says so); a text of more than one document, a tag outside the
 * core schema, .inf and .nan are errors naming the line. Removing a member
 * also removes the comment lines directly above it. Fuzzed
 * (fuzz-yaml-document).
 *
 * Values map to JSON: a mapping is an object (keys are strings; a
 * non-scalar key is an error naming the line), a sequence an array, a
 * plain scalar by the YAML 1.2 core schema (null, ~, true/false,
 * integers, floats; anything else a string), a quoted or block scalar a
 * string. An empty document is an empty mapping.
 *
 * A path is a NULL-terminated array of keys from the root mapping. An
 * edit that would not leave a valid document is refused and the text
 * kept; the text is parsed again after each edit. New members are
 * written in block style with the indentation of their siblings (two
 * spaces when there are none), scalars plain when that reads back as the
 * same value, else double-quoted; a member inside a flow mapping stays in
 * flow style. update() touches only the members that differ
 * (recursively), keeping the bytes of what is equal in value. remove()
 * takes the member's lines (or its part of a flow mapping); rename()
 * changes the key only.
 */
typedef struct _McpYamlDocument McpYamlDocument;

/* @text NULL or empty: an empty mapping. Errors (G_IO_ERROR_INVALID_DATA)
 * say the line and column and what was expected:
 * "line 4, column 9: mapping values are not allowed here". */
McpYamlDocument *mcp_yaml_document_new      (const char          *text,
                                             gsize                length,
                                             GError             **error);
void             mcp_yaml_document_free     (McpYamlDocument     *self);
const char      *mcp_yaml_document_get_text (McpYamlDocument     *self,
                                             gsize               *length);
/* the whole document as an object, owned by the document */
JsonNode        *mcp_yaml_document_get_root (McpYamlDocument     *self);
gboolean         mcp_yaml_document_set      (McpYamlDocument     *self,
                                             const char * const  *path,
                                             JsonNode            *value,
                                             GError             **error);
gboolean         mcp_yaml_document_update   (McpYamlDocument     *self,
                                             const char * const  *path,
                                             JsonNode            *value,
                                             GError             **error);
gboolean         mcp_yaml_document_remove   (McpYamlDocument     *self,
                                             const char * const  *path,
                                             GError             **error);
gboolean         mcp_yaml_document_rename   (McpYamlDocument     *self,
                                             const char * const  *path,
                                             const char          *new_name,
                                             GError             **error);
/* Parses without keeping an index. */
JsonNode        *mcp_yaml_document_parse    (const char          *text,
                                             gsize                length,
                                             GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpYamlDocument, mcp_yaml_document_free)

G_END_DECLS
