/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

/* McpProject: servers being tried without saving (unsaved configs,
 * connected and listed like the others until saved or discarded). */

#include "config.h"

#include "mcp-project-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

gboolean
mcp_project_try_server (McpProject  *self,
                        const char  *name,
                        JsonObject  *entry,
                        GError     **error)
{
  g_autoptr(McpServerConfig) config = NULL;
  guint index;

  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (mcp_settings_lookup (self->settings, name) != NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("A server named “%s” is already in the settings: try it under another name"),
                   name);
      return FALSE;
    }

  config = mcp_server_config_new_unsaved (name, entry, error);
  if (config == NULL)
    return FALSE;

  /* trying it again (changed) replaces the try */
  if (mcp_project_find_unsaved (self, name, &index))
    g_ptr_array_remove_index (self->unsaved, index);
  g_ptr_array_add (self->unsaved, g_steal_pointer (&config));

  if (self->loaded)
    mcp_project_push_configs (self);

  return TRUE;
}

McpServerConfig *
mcp_project_lookup_unsaved (McpProject *self,
                            const char *name)
{
  guint index;

  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!mcp_project_find_unsaved (self, name, &index))
    return NULL;

  return g_ptr_array_index (self->unsaved, index);
}

McpProject *
mcp_project_new_ad_hoc (McpServerManager  *manager,
                        const char        *name,
                        JsonObject        *entry,
                        GError           **error)
{
  g_autoptr(McpProject) self = NULL;

  g_return_val_if_fail (!manager || MCP_IS_SERVER_MANAGER (manager), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (entry != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = manager != NULL ? mcp_project_new_with_manager (NULL, NULL, manager)
                         : mcp_project_new (NULL, NULL);
  if (!mcp_project_try_server (self, name, entry, error))
    return NULL;

  mcp_server_manager_set_roots (self->manager, NULL);
  g_clear_object (&self->roots);
  g_clear_object (&self->permissions);
  self->permissions = mcp_permissions_new_command_line ();

  /* load_async reads no file for it: it connects the server. */
  self->ad_hoc = TRUE;

  return g_steal_pointer (&self);
}
