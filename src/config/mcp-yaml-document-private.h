/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <yaml.h>

#include "mcp-yaml-document.h"

G_BEGIN_DECLS

#define MCP_YAML_MAX_BYTES     (16 * 1024 * 1024)
#define MCP_YAML_MAX_DEPTH     64
#define MCP_YAML_MAX_NODES     100000
#define MCP_YAML_MAX_EXPANSION 10000

typedef enum
{
  MCP_YAML_SCALAR,
  MCP_YAML_MAPPING,
  MCP_YAML_SEQUENCE,
  MCP_YAML_ALIAS,
} McpYamlKind;

typedef struct _McpYamlNode McpYamlNode;

/* One node of the text as libyaml's events mark it. start and end are
 * byte offsets in the text (a byte order mark included); for a block
 * collection end is where its last value's text ends, and for a literal
 * or folded scalar where its last non-blank character ends, so that the
 * line breaks and comments after it are not the node's. */
struct _McpYamlNode
{
  McpYamlKind        kind;
  gboolean           flow;
  gboolean           open;       /* while reading: its end is not seen yet */
  gboolean           anchored;   /* an anchor or alias is in it */
  yaml_scalar_style_t style;
  gsize              start;
  gsize              end;
  guint              line;       /* from 1 */
  char              *anchor;
  char              *tag;
  char              *value;      /* a scalar's */
  McpYamlNode       *target;     /* an alias's */
  McpYamlNode       *parent;
  GPtrArray         *children;   /* a mapping's keys and values, a sequence's items */
};

void         mcp_yaml_node_free   (McpYamlNode  *node);

/* Reads @text (a byte order mark skipped) into *@tree (NULL for an empty
 * document) and *@root (an object); either may be NULL. */
gboolean     mcp_yaml_read        (const char   *text,
                                   gsize         length,
                                   McpYamlNode **tree,
                                   JsonNode    **root,
                                   GError      **error);

/* A plain scalar by the YAML 1.2 core schema; NULL with an error for
 * what JSON cannot hold (.inf, .nan, 1e999). */
JsonNode    *mcp_yaml_resolve_plain (const char *value,
                                     guint       line,
                                     GError    **error);

typedef struct
{
  guint       unit;            /* spaces a block level is indented by */
  gboolean    seq_indentless;  /* "key:\n- item" rather than "key:\n  - item" */
  const char *newline;
} McpYamlLayout;

/* @string as a scalar: plain when that reads back as the same string,
 * else double-quoted; @flow for inside [] and {}. */
void         mcp_yaml_append_string (GString     *out,
                                     const char  *string,
                                     gboolean     flow);
/* @node in flow style: {a: 1, b: [x, y]} */
void         mcp_yaml_append_flow   (GString     *out,
                                     JsonNode    *node);
/* @node as the value of a block mapping's key at column @key_indent,
 * what follows "key:": " scalar", " {}", or lines starting with a
 * newline. */
void         mcp_yaml_append_block  (GString             *out,
                                     JsonNode            *node,
                                     guint                key_indent,
                                     const McpYamlLayout *layout);

G_END_DECLS
