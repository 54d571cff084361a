/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-json-document.h"
#include "mcp-toml-document.h"
#include "mcp-yaml-document.h"

G_BEGIN_DECLS

#define MCP_JSON_NO_POS G_MAXSIZE
/* A UTF-8 byte order mark */
#define MCP_JSON_BOM "\xef\xbb\xbf"

/* A value's place in the text. Offsets are bytes of the text. */
typedef struct _Node Node;
struct _Node
{
  char       kind;        /* '{', '[' or 'v' (any other value) */
  gsize      start;       /* the value */
  gsize      end;
  gsize      key_start;   /* a member's key, quotes included; MCP_JSON_NO_POS else */
  gsize      key_end;
  gsize      comma;       /* the ',' after it, or MCP_JSON_NO_POS */
  char      *key;         /* a member's name, decoded */
  GPtrArray *children;    /* of a container */
  Node      *parent;
};

struct _McpJsonDocument
{
  McpJsonDialect  dialect;
  /* TOML and YAML: the document that does the work (text, root and tree
   * unused) */
  McpTomlDocument *toml;
  McpYamlDocument *yaml;
  GString        *text;
  JsonNode       *root;
  Node           *tree;

  /* the text's own style, for what is added */
  const char     *newline;
  char           *unit;
  char           *colon;
  char           *comma_space;
};

/* What goes into the text: a parsed value to write out, or the bytes of a
 * value elsewhere (whose lines are indented by @raw_indent). */
typedef struct
{
  JsonNode   *node;
  const char *raw;
  gsize       raw_length;
  const char *raw_indent;
} Value;

/* mcp-json-document-index.c: the text as a tree of byte ranges */
gsize     mcp_json_node_member_start (Node               *node);
Node     *mcp_json_node_find_member  (Node               *object,
                                      const char         *name);
Node     *mcp_json_document_find     (McpJsonDocument    *self,
                                      const char * const *path);
/* Parses the text again and indexes it; FALSE (and the old index gone)
 * when it is not a valid document. */
gboolean  mcp_json_document_reindex  (McpJsonDocument    *self,
                                      GError            **error);

/* mcp-json-document-jsonc.c */
/* Comments and trailing commas become spaces (newlines stay). */
void      mcp_json_blank_jsonc       (char               *text,
                                      gsize               length);
gboolean  mcp_json_is_blank          (const char         *text,
                                      gsize               length);

/* mcp-json-document-layout.c: the text's lines and style */
gsize     mcp_json_line_start              (const char         *s,
                                            gsize               p);
/* Whether only blanks come before @p on its line. */
gboolean  mcp_json_starts_line             (const char         *s,
                                            gsize               p);
/* The blanks that start the line @p is on. */
char     *mcp_json_indent_at               (const char         *s,
                                            gsize               p);
/* The length of the line break at @p: 0, 1 or 2 ("\r\n") */
gsize     mcp_json_newline_at              (const char         *s,
                                            gsize               p);
/* Past the blanks and the comments that end on the same line as @p. */
gsize     mcp_json_document_end_of_line    (McpJsonDocument    *self,
                                            gsize               p);
/* Whether the members of @container are on lines of their own. */
gboolean  mcp_json_document_is_multiline   (McpJsonDocument    *self,
                                            Node               *container);
void      mcp_json_document_append_value   (McpJsonDocument    *self,
                                            GString            *out,
                                            const Value        *value,
                                            const char         *indent,
                                            gboolean            pretty);
/* "key": value, or value alone for a NULL @key */
void      mcp_json_document_append_entry   (McpJsonDocument    *self,
                                            GString            *out,
                                            const char         *key,
                                            const Value        *value,
                                            const char         *indent,
                                            gboolean            pretty);

/* mcp-json-document-splice.c: the edits of the text */
GArray   *mcp_json_splices_new             (void);
/* replaces bytes [@start, @end) by @text (taken; NULL: nothing) */
void      mcp_json_splices_add             (GArray             *splices,
                                            gsize               start,
                                            gsize               end,
                                            char               *text);
/* Applies the splices and parses the text again; on failure the text is
 * as it was. */
gboolean  mcp_json_document_apply_splices  (McpJsonDocument    *self,
                                            GArray             *splices,
                                            GError            **error);
/* Adds @key (NULL in an array) with @value at the end of @container. */
gboolean  mcp_json_document_insert_child   (McpJsonDocument    *self,
                                            Node               *container,
                                            const char         *key,
                                            const Value        *value,
                                            GError            **error);
gboolean  mcp_json_document_replace_value  (McpJsonDocument    *self,
                                            Node               *container,
                                            Node               *child,
                                            const Value        *value,
                                            GError            **error);
gboolean  mcp_json_document_remove_child   (McpJsonDocument    *self,
                                            Node               *container,
                                            guint               index,
                                            GError            **error);

/* mcp-json-document.c: the operations */
/* The object at the first @length names of @path, or NULL with an error;
 * *@missing is the index of the first name that is not there. */
Node     *mcp_json_document_walk           (McpJsonDocument    *self,
                                            const char * const *path,
                                            guint               length,
                                            guint              *missing,
                                            GError            **error);

/* mcp-json-document-array.c: the operations on arrays */
/* The array at @path made @value element by element. */
gboolean  mcp_json_document_update_array   (McpJsonDocument    *self,
                                            const char * const *path,
                                            JsonArray          *old,
                                            JsonArray          *value,
                                            GError            **error);

gboolean  mcp_json_document_check_json (McpJsonDocument  *self,
                                       GError          **error);

/* FALSE with an error when there is nothing at @path to rename (@found
 * FALSE), or when @new_name is another member of its object (@taken):
 * the JSON, TOML and YAML documents' rename() */
gboolean  mcp_json_check_rename        (const char * const *path,
                                        const char         *new_name,
                                        gboolean            found,
                                        gboolean            taken,
                                        GError            **error);

typedef gboolean (*McpJsonRemoveFunc) (gpointer            document,
                                       const char * const *path,
                                       GError            **error);
typedef gboolean (*McpJsonUpdateFunc) (gpointer            document,
                                       const char * const *path,
                                       JsonNode           *value,
                                       GError            **error);
/* Makes the object at @path (now @old) @value member by member: @remove
 * for each member only @old has, then @update for each of @value's (the
 * JSON, TOML and YAML documents' update()). */
gboolean  mcp_json_update_members      (gpointer            document,
                                        const char * const *path,
                                        JsonObject         *old,
                                        JsonObject         *value,
                                        McpJsonRemoveFunc   remove,
                                        McpJsonUpdateFunc   update,
                                        GError            **error);

G_END_DECLS
