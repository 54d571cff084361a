/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings-problem.h"

/* McpSettingsProblem: one thing wrong in a settings file, as McpSettings
 * reports it (a boxed type). */

G_DEFINE_BOXED_TYPE (McpSettingsProblem, mcp_settings_problem,
                     mcp_settings_problem_copy, mcp_settings_problem_free)

McpSettingsProblem *
mcp_settings_problem_copy (const McpSettingsProblem *problem)
{
  McpSettingsProblem *copy = g_new0 (McpSettingsProblem, 1);

  copy->file = g_strdup (problem->file);
  copy->json_path = g_strdup (problem->json_path);
  copy->message = g_strdup (problem->message);

  return copy;
}

void
mcp_settings_problem_free (McpSettingsProblem *problem)
{
  if (problem == NULL)
    return;

  g_free (problem->file);
  g_free (problem->json_path);
  g_free (problem->message);
  g_free (problem);
}
