/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client-import.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_IMPORT_CLAUDE_DESKTOP,   /* claude_desktop_config.json */
  MCP_IMPORT_CLAUDE_CODE,      /* ~/.claude.json */
  MCP_IMPORT_VSCODE,           /* mcp.json (JSONC) */
  MCP_IMPORT_VSCODE_SETTINGS,  /* settings.json "mcp.servers" (JSONC) */
  MCP_IMPORT_CURSOR,           /* mcp.json */
} McpImportFormat;

/* What mcp_client_import_scan_async() does with one file's bytes (for the
 * fuzz targets): adds McpImportCandidates to @candidates and messages to
 * @problems. */
void mcp_client_import_read (McpImportFormat  format,
                             const char      *file,
                             const char      *contents,
                             gsize            length,
                             McpConfigScope   scope,
                             const char      *home,
                             const char      *project_dir,
                             GPtrArray       *candidates,
                             GPtrArray       *problems);

G_END_DECLS
