/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the settings of other clients (issue 26). */
#include "mcp-settings-private.h"

McpSettings *
mcp_settings_new_for_client (McpClientKind kind, const char *home, const char *user_config_dir, const char *project_dir)
{
  return mcp_settings_new (user_config_dir, project_dir);
}
McpClientKind mcp_settings_get_client (McpSettings *self) { return MCP_CLIENT_KIND_PLUGBOARD; }
gboolean mcp_settings_has_scope (McpSettings *self, McpConfigScope scope) { return TRUE; }
