/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * McpTomlDocument:
 *
 * A TOML 1.0 text (Codex's ~/.codex/config.toml) read as JSON values and
 * edited in place, as McpJsonDocument edits JSON: an edit splices only the
 * bytes of what it adds, changes or removes; every other byte stays as it
 * was (comments, blank lines, key order, quoting, the spelling of numbers
 * and dates, other tables). No C TOML library is packaged in Debian 12:
 * this is Plugboard's own reader and editor, bounded (16 MiB of text, a
 * nesting depth of 64, 100,000 keys) and fuzzed (fuzz-toml-document).
 *
 * Values map to JSON: a table (standard, inline, dotted keys, or one made
 * by [a.b] headers) is an object, an array (and an array of tables) an
 * array, a string a string, an integer an integer (64-bit; hex, octal,
 * binary and underscores read), a float a double (inf and nan refused as
 * JSON cannot hold them: an error naming the line), a boolean a boolean, a
 * date/time its text as written.
 *
 * A path is a NULL-terminated array of keys from the root table. An edit
 * that would not leave a valid document is refused and the text kept; the
 * text is parsed again after each edit. What each kind of edit writes:
 * - set() of an object under a table that is written as [header] tables
 *   (Codex: [mcp_servers.NAME]) adds a new [path] table after the last
 *   table of its parent (and [path.sub] tables for its object members that
 *   are themselves objects of scalars — Codex's [mcp_servers.NAME.env]),
 *   keys written bare when they can be, strings as basic strings escaped
 *   per TOML;
 * - set() of a scalar or array replaces that value's bytes, or adds
 *   "key = value" after the table's last key;
 * - an object inside an inline table stays inline;
 * - update() touches only the members that differ (recursively), keeping
 *   the bytes of what is equal in value;
 * - remove() of a [header] table removes its header, its keys and its
 *   sub-tables ([path.*]) with the comments directly above them; of a key,
 *   that key's line (or its part of an inline table);
 * - rename() changes the key (in headers of the table and its sub-tables
 *   too), quoting it when it must be.
 */
typedef struct _McpTomlDocument McpTomlDocument;

/* @text NULL or empty: an empty table. Errors (G_IO_ERROR_INVALID_DATA)
 * say the line and column and what was expected:
 * "line 4, column 9: expected '=' after the key". */
McpTomlDocument *mcp_toml_document_new      (const char          *text,
                                             gsize                length,
                                             GError             **error);
void             mcp_toml_document_free     (McpTomlDocument     *self);
const char      *mcp_toml_document_get_text (McpTomlDocument     *self,
                                             gsize               *length);
/* the whole document as an object, owned by the document */
JsonNode        *mcp_toml_document_get_root (McpTomlDocument     *self);
gboolean         mcp_toml_document_set      (McpTomlDocument     *self,
                                             const char * const  *path,
                                             JsonNode            *value,
                                             GError             **error);
gboolean         mcp_toml_document_update   (McpTomlDocument     *self,
                                             const char * const  *path,
                                             JsonNode            *value,
                                             GError             **error);
gboolean         mcp_toml_document_remove   (McpTomlDocument     *self,
                                             const char * const  *path,
                                             GError             **error);
gboolean         mcp_toml_document_rename   (McpTomlDocument     *self,
                                             const char * const  *path,
                                             const char          *new_name,
                                             GError             **error);
/* Parses without keeping an index. */
JsonNode        *mcp_toml_document_parse    (const char          *text,
                                             gsize                length,
                                             GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpTomlDocument, mcp_toml_document_free)

G_END_DECLS
