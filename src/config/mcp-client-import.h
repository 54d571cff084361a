/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

/**
 * McpImportCandidate:
 *
 * A server found in another MCP client's settings, converted to the
 * "mcpServers" entry shape Plugboard uses (mcp-server-config.h), ready for
 * mcp_settings_add_server_async(). Read-only: nothing is written back to
 * the other client's file.
 */
typedef struct
{
  char           *client;       /* "Claude Desktop", "Claude Code", "VS Code", "Cursor" */
  char           *file;         /* the file it was read from */
  char           *name;         /* its name there */
  JsonObject     *entry;        /* converted entry */
  McpConfigScope  scope;        /* where it belongs: USER for a client's global
                                 * file, PROJECT/LOCAL for a project's file */
  char           *note;         /* NULL, or what the conversion could not carry
                                 * over (e.g. VS Code "${input:…}" prompts, "envFile") */
} McpImportCandidate;

void                mcp_import_candidate_free (McpImportCandidate *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpImportCandidate, mcp_import_candidate_free)

/**
 * mcp_client_import_scan_async:
 * @home: (nullable): the home directory to look in (NULL: g_get_home_dir());
 *   tests pass a temporary one
 * @project_dir: (nullable): the open project, for per-project files
 *
 * Reads, off the main thread, the MCP settings of other clients found on
 * this machine:
 * - Claude Desktop: ~/.config/Claude/claude_desktop_config.json "mcpServers"
 * - Claude Code: ~/.claude.json "mcpServers" (USER) and
 *   "projects"[@project_dir]."mcpServers" (LOCAL)
 * - VS Code: ~/.config/Code/User/mcp.json "servers", ~/.config/Code/User/settings.json
 *   "mcp"."servers" (JSON with comments and trailing commas), and
 *   @project_dir/.vscode/mcp.json "servers" (PROJECT); "type" stdio/http/sse
 *   kept, "${env:NAME}" becomes "${NAME}", "${workspaceFolder}" becomes
 *   @project_dir; "${input:…}" is kept and noted
 * - Cursor: ~/.cursor/mcp.json "mcpServers" (USER), @project_dir/.cursor/mcp.json (PROJECT)
 * A missing file is skipped silently; a file that cannot be parsed, or an
 * entry that cannot be converted, adds to @problems (messages naming the
 * file and the JSON path) and the rest goes on. Entries are checked with
 * mcp_server_config_new_from_json().
 *
 * Finishes with a GPtrArray of McpImportCandidate (maybe empty), in the
 * order above.
 */
void       mcp_client_import_scan_async  (const char           *home,
                                          const char           *project_dir,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
GPtrArray *mcp_client_import_scan_finish (GAsyncResult         *result,
                                          GPtrArray           **problems,
                                          GError              **error);

G_END_DECLS
