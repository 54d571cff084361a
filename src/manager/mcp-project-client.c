/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the project of another client (issue 26). */
#include "mcp-project-private.h"

McpProject *
mcp_project_new_for_client (McpClientKind kind, const char *project_dir, const char *user_config_dir)
{
  return mcp_project_new (project_dir, user_config_dir);
}
McpClientKind mcp_project_get_client (McpProject *self) { return MCP_CLIENT_KIND_PLUGBOARD; }
