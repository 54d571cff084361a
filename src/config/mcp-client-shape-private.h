/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client-shape.h"

G_BEGIN_DECLS

/* The parts of the clients' shapes: the kinds, their files and what every
 * conversion shares (mcp-client-shape.c), the JSON clients
 * (mcp-client-shape-json.c), Codex, Zed and Goose
 * (mcp-client-shape-other.c). */

/* How a client writes a variable in a settings string */
typedef enum
{
  MCP_SHAPE_VARS_PLUGBOARD,  /* ${NAME}, ${NAME:-default}: Plugboard, Claude Code */
  MCP_SHAPE_VARS_EDITOR,     /* ${env:NAME}, ${userHome}, ${workspaceFolder},
                              * ${input:ID}: VS Code, Cursor, Windsurf */
  MCP_SHAPE_VARS_SHELL,      /* $NAME, ${NAME}: Gemini CLI */
  MCP_SHAPE_VARS_NONE,       /* none: Claude Desktop, Codex, Zed, Goose */
} McpShapeVars;

/* One conversion under way */
typedef struct
{
  McpClientKind                 kind;
  const char                   *name;
  const McpClientShapeContext  *context;
  GPtrArray                    *notes;     /* may be NULL */
  McpShapeVars                  vars;
} McpShapeRun;

/* One client's converters; @base handling, unknown members and the
 * variables are done around them (mcp-client-shape.c). */
typedef struct
{
  McpShapeVars   vars;
  /* the native members the converters read and write; the others are
   * kept (to_plugboard) or passed on (from_plugboard) as they are */
  const char * const *mapped;
  /* native members the client knows but Plugboard does not: what
   * from_plugboard() may pass on from an entry */
  const char * const *known;
  JsonObject *(*to_plugboard)   (McpShapeRun  *run,
                                 JsonObject   *native,
                                 GError      **error);
  JsonObject *(*from_plugboard) (McpShapeRun  *run,
                                 JsonObject   *entry,
                                 JsonObject   *base,
                                 GError      **error);
} McpShapeClass;

/* mcp-client-shape-json.c */
extern const McpShapeClass mcp_shape_plugboard;
extern const McpShapeClass mcp_shape_claude_code;
extern const McpShapeClass mcp_shape_claude_desktop;
extern const McpShapeClass mcp_shape_vscode;
extern const McpShapeClass mcp_shape_cursor;
extern const McpShapeClass mcp_shape_windsurf;
extern const McpShapeClass mcp_shape_gemini;
/* mcp-client-shape-other.c */
extern const McpShapeClass mcp_shape_codex;
extern const McpShapeClass mcp_shape_zed;
extern const McpShapeClass mcp_shape_goose;

/* mcp-client-shape.c: what the converters share */

/* Adds a note once (@run->notes may be NULL). */
void        mcp_shape_note               (McpShapeRun   *run,
                                          const char    *format,
                                          ...) G_GNUC_PRINTF (2, 3);
/* A client's variables in @text into Plugboard's ${NAME}, and back; what
 * cannot be carried is noted. */
char       *mcp_shape_vars_in            (McpShapeRun   *run,
                                          const char    *text);
char       *mcp_shape_vars_out           (McpShapeRun   *run,
                                          const char    *text);
/* The same over every string of @node (a new node) */
JsonNode   *mcp_shape_vars_in_node       (McpShapeRun   *run,
                                          JsonNode      *node);
JsonNode   *mcp_shape_vars_out_node      (McpShapeRun   *run,
                                          JsonNode      *node);

/* @native's @member, its variables converted, set as @out's @out_member;
 * FALSE (nothing set) when it is absent or null. */
gboolean    mcp_shape_copy_in            (McpShapeRun   *run,
                                          JsonObject    *native,
                                          const char    *member,
                                          JsonObject    *out,
                                          const char    *out_member);
gboolean    mcp_shape_copy_out           (McpShapeRun   *run,
                                          JsonObject    *entry,
                                          const char    *member,
                                          JsonObject    *out,
                                          const char    *out_member);

/* The entry's transport: "stdio", "http", "sse", "ws", "sse-ide",
 * "ws-ide", or NULL (an error naming the server) when it has neither a
 * command nor a URL or an unknown "type". */
const char *mcp_shape_entry_transport    (McpShapeRun   *run,
                                          JsonObject    *entry,
                                          GError       **error);
/* "CLIENT cannot run NAME: WHY" as MCP_ERROR_INVALID_CONFIG */
void        mcp_shape_set_cannot_run     (McpShapeRun   *run,
                                          GError       **error,
                                          const char    *why);
/* Notes that Plugboard's @member (a setting the target has no place for)
 * is left out, when the entry has it. */
void        mcp_shape_drop               (McpShapeRun   *run,
                                          JsonObject    *entry,
                                          const char    *member);
/* The entry's "enabled": FALSE for "enabled": false or "disabled": true */
gboolean    mcp_shape_entry_enabled      (JsonObject    *entry);
/* A non-negative integer member (a number; a whole double too), or -1 */
gint64      mcp_shape_get_count          (JsonObject    *object,
                                          const char    *member);

/* Whether an env variable or header of this name holds a secret
 * (*KEY*, *TOKEN*, *SECRET*, *PASSWORD*, Authorization) */
gboolean    mcp_shape_is_secret_name     (const char    *name);

/* For VS Code: a literal secret @value of @what (an env variable or a
 * header) becomes "${input:ID}" with a promptString input added to
 * context->new_inputs; NULL when it is not to be replaced. */
char       *mcp_shape_secret_to_input    (McpShapeRun   *run,
                                          const char    *what,
                                          const char    *value);
/* For VS Code: every "${input:ID}" of @text whose input the file does not
 * have gets one in context->new_inputs. */
void        mcp_shape_ensure_inputs      (McpShapeRun   *run,
                                          const char    *text);

G_END_DECLS
