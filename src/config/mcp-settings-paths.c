/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-settings"

/* McpSettings: where in its file a scope's server entry is. */

#include "config.h"

#include "mcp-settings.h"

#include "mcp-server-config-private.h"

char *
mcp_settings_dup_entry_json_path (McpSettings    *self,
                                  const char     *name,
                                  McpConfigScope  scope)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (scope == MCP_CONFIG_SCOPE_LOCAL)
    {
      g_autofree char *projects = NULL;
      g_autofree char *servers = NULL;

      projects = mcp_json_path_append_member ("$.projects", mcp_settings_get_project_dir (self));
      servers = mcp_json_path_append_member (projects, "mcpServers");
      return mcp_json_path_append_member (servers, name);
    }

  return mcp_json_path_append_member ("$.mcpServers", name);
}
