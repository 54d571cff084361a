/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-json-document.h"

G_BEGIN_DECLS

#define MCP_JSON_NO_POS G_MAXSIZE

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
  GString        *text;
  JsonNode       *root;
  Node           *tree;

  /* the text's own style, for what is added */
  const char     *newline;
  char           *unit;
  char           *colon;
  char           *comma_space;
};

/* mcp-json-document-index.c: the text as a tree of byte ranges */
gsize     mcp_json_node_member_start (Node               *node);
Node     *mcp_json_node_find_member  (Node               *object,
                                      const char         *name);
Node     *mcp_json_document_find     (McpJsonDocument    *self,
                                      const char * const *path);
void      mcp_json_blank_jsonc       (char               *text,
                                      gsize               length);
gboolean  mcp_json_is_blank          (const char         *text,
                                      gsize               length);
/* Parses the text again and indexes it; FALSE (and the old index gone)
 * when it is not a valid document. */
gboolean  mcp_json_document_reindex  (McpJsonDocument    *self,
                                      GError            **error);

G_END_DECLS
