/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * McpSettingsProblem:
 *
 * Something wrong in a settings file: a file that does not parse (the
 * message has line and column), or an entry that cannot be used (it is
 * skipped, the rest loads). @message is complete: it names the file and
 * the JSON path itself.
 */
typedef struct
{
  char *file;
  char *json_path;
  char *message;
} McpSettingsProblem;

#define MCP_TYPE_SETTINGS_PROBLEM (mcp_settings_problem_get_type ())

GType               mcp_settings_problem_get_type  (void) G_GNUC_CONST;
McpSettingsProblem *mcp_settings_problem_copy      (const McpSettingsProblem *problem);
void                mcp_settings_problem_free      (McpSettingsProblem       *problem);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpSettingsProblem, mcp_settings_problem_free)

G_END_DECLS
