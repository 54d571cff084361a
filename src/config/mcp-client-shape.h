/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-json-document.h"
#include "mcp-server-config.h"
#include "mcp-config-enums.h"

G_BEGIN_DECLS

/**
 * McpClientKind:
 *
 * The MCP clients whose settings files Plugboard reads and writes. Their
 * ids (mcp_client_kind_to_id()) are what plugboard-cli's --client takes.
 */
typedef enum
{
  MCP_CLIENT_KIND_PLUGBOARD,       /* "plugboard" */
  MCP_CLIENT_KIND_CLAUDE_CODE,     /* "claude-code" */
  MCP_CLIENT_KIND_CLAUDE_DESKTOP,  /* "claude-desktop" */
  MCP_CLIENT_KIND_VSCODE,          /* "vscode" */
  MCP_CLIENT_KIND_CURSOR,          /* "cursor" */
  MCP_CLIENT_KIND_WINDSURF,        /* "windsurf" */
  MCP_CLIENT_KIND_GEMINI,          /* "gemini" */
  MCP_CLIENT_KIND_CODEX,           /* "codex" */
  MCP_CLIENT_KIND_ZED,             /* "zed" */
  MCP_CLIENT_KIND_GOOSE,           /* "goose" */
} McpClientKind;

#define MCP_CLIENT_KIND_COUNT (MCP_CLIENT_KIND_GOOSE + 1)

const char    *mcp_client_kind_to_id            (McpClientKind   kind);
/* FALSE for an unknown id */
gboolean       mcp_client_kind_from_id          (const char     *id,
                                                 McpClientKind  *kind);
/* "Claude Code" (not translated: product names) */
const char    *mcp_client_kind_get_display_name (McpClientKind   kind);
/* Every id, comma-separated, for messages ("plugboard, claude-code, …") */
const char    *mcp_client_kind_list_ids         (void);

/**
 * McpClientFile:
 *
 * One settings file of a client and where in it the servers are.
 */
typedef struct
{
  McpClientKind   kind;
  McpConfigScope  scope;       /* USER (the client's global file), PROJECT
                                * (a file in the project folder), LOCAL
                                * (Claude Code's and Plugboard's per-project
                                * part of the user file) */
  char           *path;        /* absolute */
  McpJsonDialect  dialect;     /* JSON, JSONC, TOML or YAML */
  char          **container;   /* the member path of the object of servers:
                                * {"mcpServers"}, {"projects", DIR, "mcpServers"},
                                * {"servers"}, {"mcp", "servers"},
                                * {"context_servers"}, {"mcp_servers"},
                                * {"extensions"} */
} McpClientFile;

void           mcp_client_file_free             (McpClientFile  *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpClientFile, mcp_client_file_free)

/* The files @kind keeps servers in, for @home (NULL: g_get_home_dir()),
 * @config_home (NULL: g_get_user_config_dir(); Plugboard's own is
 * @config_home/plugboard unless @plugboard_dir is given) and @project_dir
 * (NULL: no project: no PROJECT or LOCAL files): a GPtrArray of
 * McpClientFile, USER first, whether or not they exist (VS Code's user
 * scope is User/mcp.json when that file exists, else User/settings.json
 * "mcp"."servers"). Reads nothing else. */
GPtrArray     *mcp_client_kind_dup_files        (McpClientKind   kind,
                                                 const char     *home,
                                                 const char     *config_home,
                                                 const char     *plugboard_dir,
                                                 const char     *project_dir);
/* Whether the client is on this machine: one of its files, or the folder
 * it keeps them in (~/.cursor, ~/.codex, ~/.config/Code/User…), exists.
 * Plugboard always is. Blocking (a few stats). */
gboolean       mcp_client_kind_is_present       (McpClientKind   kind,
                                                 const char     *home,
                                                 const char     *config_home);

/**
 * McpClientShapeContext:
 *
 * What a conversion needs besides the entry.
 */
typedef struct
{
  const char *home;            /* for "~" and ${userHome} */
  const char *project_dir;     /* ${workspaceFolder}; NULL: none */
  JsonArray  *inputs;          /* VS Code: the file's "inputs" (read);
                                * NULL: none */
  JsonArray  *new_inputs;      /* VS Code, from_plugboard: inputs to add to
                                * the file (the conversion appends
                                * {"type": "promptString", "id", "description",
                                * "password": true} for each secret it turns
                                * into "${input:ID}"); NULL: secrets stay as
                                * written */
} McpClientShapeContext;

/* A server entry as @kind's file has it (@native, JSON values; TOML and
 * YAML read as JSON) into Plugboard's own shape (mcp-server-config.h): the
 * transport names, "type" rules, URL member, variables (VS Code's
 * ${env:NAME} → ${NAME}, ${workspaceFolder}; Gemini's $NAME; Goose's
 * "envs", "cmd", "uri"; Zed's "command" object; Codex's "http_headers",
 * "bearer_token_env_var", "startup_timeout_sec"…). Members Plugboard does
 * not understand are kept in the result as they are (so from_plugboard()
 * gives them back) and named in @notes ("includeTools: kept, not used by
 * Plugboard"). What cannot be carried is named in @notes. An entry that is
 * not a server at all is an error (MCP_ERROR_INVALID_CONFIG) naming
 * @name. @notes: GPtrArray of char*, may be NULL. */
JsonObject    *mcp_client_shape_to_plugboard    (McpClientKind                 kind,
                                                 const char                   *name,
                                                 JsonObject                   *native,
                                                 const McpClientShapeContext  *context,
                                                 GPtrArray                    *notes,
                                                 GError                      **error);
/* The reverse: Plugboard's shape into @kind's. @base is the entry the
 * target file holds now (NULL: a new one): its members that the shape
 * does not map are kept. What @kind cannot express (Claude Desktop: a
 * remote server; Codex: SSE; a WebSocket anywhere but Plugboard and
 * Claude Code; OAuth settings; per-server timeouts where there are none)
 * is named in @notes, one line each ("timeout: Cursor has no connect
 * timeout; left out"); a server the target cannot run at all is an error
 * (MCP_ERROR_INVALID_CONFIG) saying why. */
JsonObject    *mcp_client_shape_from_plugboard  (McpClientKind                 kind,
                                                 const char                   *name,
                                                 JsonObject                   *entry,
                                                 JsonObject                   *base,
                                                 const McpClientShapeContext  *context,
                                                 GPtrArray                    *notes,
                                                 GError                      **error);

G_END_DECLS
