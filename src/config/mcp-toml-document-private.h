/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-toml-document.h"

G_BEGIN_DECLS

#define MCP_TOML_MAX_LENGTH (16 * 1024 * 1024)
#define MCP_TOML_MAX_DEPTH  64
#define MCP_TOML_MAX_KEYS   100000
#define MCP_TOML_NO_POS     G_MAXSIZE

/* How a table came to be: what decides where a new member of it goes. */
typedef enum
{
  TOML_TABLE_ROOT,
  TOML_TABLE_HEADER,    /* [a.b] */
  TOML_TABLE_IMPLICIT,  /* a of [a.b], never defined itself */
  TOML_TABLE_DOTTED,    /* a of "a.b = 1", in its owner's body */
  TOML_TABLE_INLINE,    /* { … } */
  TOML_TABLE_ELEMENT,   /* [[a]] */
} TomlTableKind;

typedef enum
{
  TOML_KEY_HEADER,        /* [a.b] */
  TOML_KEY_ARRAY_HEADER,  /* [[a.b]] */
  TOML_KEY_LINE,          /* a.b = 1 on a line of a table's body */
  TOML_KEY_INLINE,        /* a.b = 1 inside { … } */
} TomlKeyKind;

/* One name of a (dotted) key, and the table it names a member of. */
typedef struct
{
  JsonObject *table;
  char       *name;
  gsize       start;  /* its bytes, quotes included */
  gsize       end;
} TomlSegment;

typedef struct _TomlTable TomlTable;
typedef struct _TomlKey   TomlKey;

struct _TomlKey
{
  TomlKeyKind  kind;
  TomlSegment *segments;
  guint        n_segments;
  gsize        start;        /* HEADER, LINE: its line; INLINE: its first segment */
  gsize        comments;     /* HEADER: the comment lines directly above it */
  gsize        end;          /* HEADER, LINE: past its line's newline; INLINE: its value's end */
  gsize        block_end;    /* HEADER: where the next header's comments start */
  gsize        value_start;  /* LINE, INLINE */
  gsize        value_end;
  TomlTable   *table;        /* HEADER: the table it opens; LINE: the table whose
                              * body it is in; INLINE: the inline table */
};

struct _TomlTable
{
  TomlTableKind  kind;
  JsonObject    *object;
  TomlTable     *parent;
  char          *name;       /* its name in @parent */
  TomlTable     *owner;      /* DOTTED: the table whose body (or braces) hold its keys */
  TomlKey       *header;     /* HEADER, ELEMENT */
  TomlKey       *last_line;  /* ROOT, HEADER, ELEMENT: the last key = value of its body */
  gsize          open;       /* INLINE: its braces */
  gsize          close;
  GPtrArray     *members;    /* INLINE: its keys, in order (borrowed) */
  guint          depth;
};

typedef struct
{
  GPtrArray  *keys;          /* of TomlKey, in text order */
  GHashTable *tables;        /* JsonObject → TomlTable */
  GHashTable *table_arrays;  /* the JsonArrays made by [[…]] */
  TomlTable  *root;
  gsize       root_end;      /* where the first header's comments start */
  gsize       content_start; /* past a byte order mark */
  gboolean    crlf;          /* the first line break is "\r\n" */
} TomlIndex;

/* mcp-toml-document-parse.c */
TomlIndex *mcp_toml_index_parse      (const char  *text,
                                      gsize        length,
                                      JsonNode   **root,
                                      GError     **error);
void       mcp_toml_index_free       (TomlIndex   *index);
TomlTable *mcp_toml_index_get_table  (TomlIndex   *index,
                                      JsonObject  *object);

/* mcp-toml-document-write.c: TOML text for keys and values */
/* @name bare when it can be, else a basic string */
void       mcp_toml_append_key       (GString     *out,
                                      const char  *name);
void       mcp_toml_append_string    (GString     *out,
                                      const char  *string);
/* @node inline (arrays on one line, objects as { … }); FALSE, with an
 * error naming @where, for what TOML cannot hold (null, inf, nan) */
gboolean   mcp_toml_append_value     (GString     *out,
                                      JsonNode    *node,
                                      const char  *where,
                                      GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TomlIndex, mcp_toml_index_free)

G_END_DECLS
