/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

#include "config.h"

#include "mcp-project.h"

#include "mcp-project-private.h"

/* McpProject of another MCP client: only its settings differ (the
 * "client" property, given to mcp_settings_new_for_client()). */

McpProject *
mcp_project_new_for_client (McpClientKind  kind,
                            const char    *project_dir,
                            const char    *user_config_dir)
{
  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL);

  return g_object_new (MCP_TYPE_PROJECT,
                       "client", kind,
                       "project-dir", project_dir,
                       "user-config-dir", user_config_dir,
                       NULL);
}

McpClientKind
mcp_project_get_client (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), MCP_CLIENT_KIND_PLUGBOARD);

  return self->client;
}
