/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-import"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-client-import-private.h"

/* Importing another MCP client's settings file, mcp_client_import_read():
 * one source for four targets, built with -DFORMAT= one of
 * MCP_IMPORT_CLAUDE_DESKTOP, MCP_IMPORT_CLAUDE_CODE, MCP_IMPORT_VSCODE or
 * MCP_IMPORT_CURSOR.
 *
 * The input is the file's bytes, read with home "/fuzz/home" and project
 * "/fuzz/project". VS Code's target reads each input three times: as the
 * project's .vscode/mcp.json, as the user's settings.json ("mcp.servers",
 * MCP_IMPORT_VSCODE_SETTINGS) and as an mcp.json with no project open
 * (where "${workspaceFolder}" is kept and noted).
 *
 * Checks: every candidate comes from this client and file, in a scope the
 * file can give, with a non-empty UTF-8 name, an entry that
 * mcp_server_config_new_from_json() accepts, whose expansion works or says
 * why, and a note that is NULL or non-empty UTF-8; every problem is a
 * non-empty UTF-8 message that names the file. Warnings and criticals are
 * fatal. */

#ifndef FORMAT
# error "FORMAT must be defined: MCP_IMPORT_CLAUDE_DESKTOP, _CLAUDE_CODE, _VSCODE or _CURSOR"
#endif

#define HOME "/fuzz/home"
#define PROJECT "/fuzz/project"

static const char * const environ_[] = {
  "HOME=/fuzz/home",
  "GITHUB_TOKEN=ghp_fuzz",
  "EMPTY=",
  NULL,
};

static void
fail (const char *what)
{
  g_printerr ("fuzz-import: %s\n", what);
  abort ();
}

static gboolean
is_utf8 (const char *text)
{
  return text != NULL && g_utf8_validate (text, -1, NULL);
}

static void
check_candidate (McpImportCandidate *candidate,
                 const char         *client,
                 const char         *file,
                 McpConfigScope      scope)
{
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (candidate->client, client) != 0)
    fail ("a candidate of another client");
  if (g_strcmp0 (candidate->file, file) != 0)
    fail ("a candidate of another file");
  if (FORMAT == MCP_IMPORT_CLAUDE_CODE ?
      candidate->scope != MCP_CONFIG_SCOPE_USER && candidate->scope != MCP_CONFIG_SCOPE_LOCAL :
      candidate->scope != scope)
    fail ("a candidate in a scope its file cannot give");
  if (!is_utf8 (candidate->name) || candidate->name[0] == '\0')
    fail ("a candidate whose name is empty or not UTF-8");
  if (candidate->note != NULL && (!is_utf8 (candidate->note) || candidate->note[0] == '\0'))
    fail ("a note that is empty or not UTF-8");
  if (candidate->entry == NULL)
    fail ("a candidate without an entry");

  config = mcp_server_config_new_from_json (candidate->name, candidate->scope, candidate->entry,
                                            candidate->file, NULL, &error);
  if (config == NULL)
    {
      g_printerr ("%s\n", error->message);
      fail ("a candidate whose entry is not accepted");
    }

  expanded = mcp_server_config_expand (config, environ_, &error);
  if (expanded == NULL && (error == NULL || !is_utf8 (error->message) || error->message[0] == '\0'))
    fail ("an expansion that fails without a message");
}

static void
import (McpImportFormat  format,
        const char      *client,
        const char      *file,
        McpConfigScope   scope,
        const char      *project_dir,
        const uint8_t   *data,
        size_t           size)
{
  g_autoptr(GPtrArray) candidates = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_import_candidate_free);
  problems = g_ptr_array_new_with_free_func (g_free);

  mcp_client_import_read (format, file, (const char *) data, size, scope, HOME, project_dir,
                          candidates, problems);

  for (guint i = 0; i < candidates->len; i++)
    check_candidate (candidates->pdata[i], client, file, scope);

  for (guint i = 0; i < problems->len; i++)
    {
      const char *problem = problems->pdata[i];

      if (!is_utf8 (problem) || problem[0] == '\0')
        fail ("a problem that is empty or not UTF-8");
      if (strstr (problem, file) == NULL)
        {
          g_printerr ("%s\n", problem);
          fail ("a problem that does not name the file");
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  fuzz_abort_on_warnings ();

  switch (FORMAT)
    {
    case MCP_IMPORT_CLAUDE_DESKTOP:
      import (MCP_IMPORT_CLAUDE_DESKTOP, "Claude Desktop",
              HOME "/.config/Claude/claude_desktop_config.json", MCP_CONFIG_SCOPE_USER,
              PROJECT, data, size);
      break;

    case MCP_IMPORT_CLAUDE_CODE:
      import (MCP_IMPORT_CLAUDE_CODE, "Claude Code", HOME "/.claude.json", MCP_CONFIG_SCOPE_USER,
              PROJECT, data, size);
      break;

    case MCP_IMPORT_VSCODE:
    case MCP_IMPORT_VSCODE_SETTINGS:
      import (MCP_IMPORT_VSCODE, "VS Code", PROJECT "/.vscode/mcp.json", MCP_CONFIG_SCOPE_PROJECT,
              PROJECT, data, size);
      import (MCP_IMPORT_VSCODE_SETTINGS, "VS Code", HOME "/.config/Code/User/settings.json",
              MCP_CONFIG_SCOPE_USER, PROJECT, data, size);
      import (MCP_IMPORT_VSCODE, "VS Code", HOME "/.config/Code/User/mcp.json", MCP_CONFIG_SCOPE_USER,
              NULL, data, size);
      break;

    case MCP_IMPORT_CURSOR:
    default:
      import (MCP_IMPORT_CURSOR, "Cursor", HOME "/.cursor/mcp.json", MCP_CONFIG_SCOPE_USER,
              PROJECT, data, size);
      break;
    }

  return 0;
}
