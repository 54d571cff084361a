/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-json-private.h"
#include "mcp-config-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_JSON_DIALECT_JSON,    /* RFC 8259: Plugboard's files, .mcp.json, Claude's, Cursor's */
  MCP_JSON_DIALECT_JSONC,   /* with comments and trailing commas: VS Code's */
  MCP_JSON_DIALECT_TOML,    /* Codex's config.toml: McpTomlDocument */
  MCP_JSON_DIALECT_YAML,    /* Goose's config.yaml: McpYamlDocument */
} McpJsonDialect;

/**
 * McpJsonDocument:
 *
 * A JSON (or JSONC) text that is edited in place, the way VS Code's
 * jsonc-parser modifies a file: the text is indexed as a tree of byte
 * ranges, and an edit splices only the bytes of the member it adds,
 * changes or removes. Every other byte stays as it was: other members,
 * key order, indentation, the spelling of numbers (12345678901234567890,
 * 1.5e10), string escapes, comments and trailing commas. New members
 * follow the indentation, line endings and separators of the text around
 * them. After each edit the text is parsed again; an edit that would not
 * leave a valid document is refused and the text kept.
 *
 * A document of the TOML or YAML dialect is an McpTomlDocument or an
 * McpYamlDocument behind the same calls (new, free, get_text, dup_bytes,
 * get_root, lookup, set, update, remove, rename, parse), so the settings
 * code edits every client's file one way; get_range(), copy(), append()
 * and remove_element() are for JSON and JSONC only (FALSE, or an error
 * G_IO_ERROR_NOT_SUPPORTED, for the others).
 *
 * A path is a NULL-terminated array of member names from the top-level
 * value (which must be an object for the member operations). When a name
 * appears more than once in an object, the last one is the one that
 * counts, as when the text is parsed.
 */
typedef struct _McpJsonDocument McpJsonDocument;

/* @text may be NULL or only whitespace: an empty object. A UTF-8 byte
 * order mark is kept and skipped. */
McpJsonDocument *mcp_json_document_new          (const char          *text,
                                                 gsize                length,
                                                 McpJsonDialect       dialect,
                                                 GError             **error);
void             mcp_json_document_free         (McpJsonDocument     *self);

const char      *mcp_json_document_get_text     (McpJsonDocument     *self,
                                                 gsize               *length);
GBytes          *mcp_json_document_dup_bytes    (McpJsonDocument     *self);
/* the parsed value (comments left out), owned by the document and
 * replaced by each edit */
JsonNode        *mcp_json_document_get_root     (McpJsonDocument     *self);
/* the value at @path, or NULL; owned by the document */
JsonNode        *mcp_json_document_lookup       (McpJsonDocument     *self,
                                                 const char * const  *path);

/* Where the value at @path is in the text (the last copy of a name):
 * bytes [*@start, *@end); FALSE when there is no such value. */
gboolean         mcp_json_document_get_range    (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 gsize               *start,
                                                 gsize               *end);

/* Replaces the value at @path, or adds the member at the end of its
 * object, creating the objects on the way that are missing. */
gboolean         mcp_json_document_set          (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 JsonNode            *value,
                                                 GError             **error);
/* Like set(), but where both the old and the new value are objects only
 * the members that differ are touched (recursively), and where both are
 * arrays only the elements that differ; what is equal in value (1.5e10
 * and 15000000000, "\u00e9" and "é") keeps its bytes. */
gboolean         mcp_json_document_update       (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 JsonNode            *value,
                                                 GError             **error);
/* Removes the member (every copy of its name); nothing to remove is fine. */
gboolean         mcp_json_document_remove       (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 GError             **error);
/* Renames the member in place; its value keeps its bytes. */
gboolean         mcp_json_document_rename       (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 const char          *new_name,
                                                 GError             **error);
/* set() with the bytes of @source's value at @source_path, indented anew
 * for where they go (@source may be @self). */
gboolean         mcp_json_document_copy         (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 McpJsonDocument     *source,
                                                 const char * const  *source_path,
                                                 GError             **error);
/* Adds @value at the end of the array at @path (created when missing). */
gboolean         mcp_json_document_append       (McpJsonDocument     *self,
                                                 const char * const  *path,
                                                 JsonNode            *value,
                                                 GError             **error);
gboolean         mcp_json_document_remove_element (McpJsonDocument   *self,
                                                   const char * const *path,
                                                   guint               index,
                                                   GError            **error);

/* Parses @text of @dialect (a byte order mark, and for JSONC comments and
 * trailing commas, are left out) without indexing it; whitespace only is
 * an empty object. */
JsonNode        *mcp_json_document_parse        (const char          *text,
                                                 gsize                length,
                                                 McpJsonDialect       dialect,
                                                 GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpJsonDocument, mcp_json_document_free)

G_END_DECLS
