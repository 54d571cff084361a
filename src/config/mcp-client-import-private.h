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

/* The parts of the scan (mcp-client-import.c, mcp-client-import-read.c,
 * mcp-client-import-vscode.c) */

typedef enum
{
  DIALECT_PLAIN,   /* Claude Desktop, Claude Code, Cursor: our own shape */
  DIALECT_VSCODE,  /* JSON with comments, ${env:…}, ${workspaceFolder}, ${input:…} */
} Dialect;

typedef struct
{
  char *home;
  char *project_dir;
} ScanData;

typedef struct
{
  const ScanData *data;
  GPtrArray      *candidates;
  GPtrArray      *problems;
} Scan;

/* mcp-client-import.c */
void        mcp_client_import_add_problem   (Scan            *scan,
                                             const char      *format,
                                             ...) G_GNUC_PRINTF (2, 3);

/* mcp-client-import-read.c */
/* Adds the servers of one file of @format (its bytes) to @scan. */
void        mcp_client_import_text          (Scan            *scan,
                                             McpImportFormat  format,
                                             const char      *file,
                                             const char      *contents,
                                             gsize            length,
                                             McpConfigScope   scope);

/* mcp-client-import-vscode.c */
/* "inputs": [{ "id": "token", "type": "promptString", "description": "…" }],
 * or NULL */
JsonArray  *mcp_client_import_vscode_inputs (JsonObject      *root);
/* A copy of @entry with VS Code's variables converted; what could not be
 * is added to @notes. */
JsonObject *mcp_client_import_vscode_entry  (const ScanData  *data,
                                             JsonArray       *inputs,
                                             GPtrArray       *notes,
                                             JsonObject      *entry);

G_END_DECLS
