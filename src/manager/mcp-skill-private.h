/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-skill.h"

G_BEGIN_DECLS

/* Bounds on what a server sends (DESIGN.md: all input from outside is
 * bounded). */
#define MCP_SKILL_MAX_FILE_SIZE        (10 * 1024 * 1024)
#define MCP_SKILL_MAX_FRONTMATTER_SIZE (64 * 1024)
#define MCP_SKILL_MAX_FRONTMATTER_DEPTH 16
#define MCP_SKILL_MAX_SKILLS           10000
#define MCP_SKILL_MAX_PAGES            100
#define MCP_SKILL_MAX_FILES            10000
#define MCP_SKILL_MAX_URI_LENGTH       4096

/* One Skill entry (a skills/list item, a skills/get "skill"); NULL with
 * MCP_ERROR_INVALID_MESSAGE saying which member is wrong. */
McpSkill   *mcp_skill_new_from_json        (JsonObject   *entry,
                                            GError      **error);

/* The checks of a read, in the order the extension gives: size, digest,
 * then (@frontmatter non-NULL: the file is the SKILL.md) the YAML
 * frontmatter field by field. Errors are MCP_ERROR_INVALID_MESSAGE naming
 * the check, @uri, what was expected and what came. */
gboolean    mcp_skill_verify_bytes         (const char   *uri,
                                            GBytes       *bytes,
                                            const char   *digest,
                                            gint64        size,
                                            JsonObject   *frontmatter,
                                            GError      **error);

/* The YAML frontmatter of a SKILL.md as a JSON object (bounded: 64 KiB,
 * 16 levels). */
JsonObject *mcp_skill_parse_frontmatter    (const char   *text,
                                            gsize         length,
                                            GError      **error);
/* NULL when @expected and @got are equal field by field; else what
 * differs, for a person. */
char       *mcp_skill_compare_frontmatter  (JsonObject   *expected,
                                            JsonObject   *got);
/* "sha256:<64 lowercase hex>" */
gboolean    mcp_skill_digest_is_valid      (const char   *digest);

/* How deeply @node nests (a scalar: 0); mcp-skill.c */
guint mcp_skill_json_depth (JsonNode *node);

G_END_DECLS
