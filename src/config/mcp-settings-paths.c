/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-settings"

/* McpSettings: where in its file a scope's server entry is. */

#include "config.h"

#include "mcp-settings.h"

#include "mcp-server-config-private.h"
#include "mcp-settings-private.h"

char *
mcp_settings_dup_entry_json_path (McpSettings    *self,
                                  const char     *name,
                                  McpConfigScope  scope)
{
  g_autofree char *servers = NULL;
  char **container;

  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* a scope the client lacks: where Plugboard's own would be */
  container = self->layout.containers[scope];
  if (container == NULL)
    container = self->layout.containers[MCP_CONFIG_SCOPE_USER];
  servers = container != NULL ? mcp_json_path_from_names ((const char * const *) container, G_MAXUINT)
                               : g_strdup ("$");

  return mcp_json_path_append_member (servers, name);
}
