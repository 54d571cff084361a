/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

/* McpProject: writing server entries — one Save of the server editor (an
 * edit, a rename and a move as one transaction, or a server being tried
 * saved), adding an entry, and removing, enabling or disabling the entry
 * of one scope. Every write goes through mcp_project_write_done_cb(). */

#include "config.h"

#include "mcp-project-private.h"

gboolean
mcp_project_discard_unsaved (McpProject *self,
                             const char *name)
{
  guint index;

  if (mcp_settings_lookup (self->settings, name) != NULL ||
      !mcp_project_find_unsaved (self, name, &index))
    return FALSE;

  g_ptr_array_remove_index (self->unsaved, index);
  if (self->loaded)
    mcp_project_push_configs (self);

  return TRUE;
}

void
mcp_project_write_saved (McpProject *self,
                         GTask      *task)
{
  const char *tried = g_object_get_data (G_OBJECT (task), "tried-name");

  /* Saved under its own name, the entry takes the try's place by itself
   * (keeping its connection); under another, the try ends. */
  if (tried != NULL && g_strcmp0 (tried, g_object_get_data (G_OBJECT (task), "new-name")) != 0)
    mcp_project_discard_unsaved (self, tried);
}

void
mcp_project_save_server_async (McpProject          *self,
                               const char          *name,
                               McpConfigScope       scope,
                               const char          *new_name,
                               McpConfigScope       new_scope,
                               JsonObject          *entry,
                               JsonObject          *expected,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (new_name != NULL);
  g_return_if_fail (entry != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_save_server_async);
  g_task_set_task_data (task, mcp_settings_save_server_async, NULL);
  g_object_set_data_full (G_OBJECT (task), "new-name", g_strdup (new_name), g_free);

  /* A server being tried is in no file: saving it adds it. */
  if (name != NULL && mcp_settings_lookup_in_scope (self->settings, name, scope) == NULL &&
      mcp_project_find_unsaved (self, name, NULL))
    {
      g_object_set_data_full (G_OBJECT (task), "tried-name", g_strdup (name), g_free);
      name = NULL;
      scope = new_scope;
      expected = NULL;
    }

  mcp_settings_save_server_async (self->settings, name, scope, new_name, new_scope, entry, expected,
                                  cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_save_server_finish (McpProject    *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_project_add_server_async (McpProject          *self,
                              const char          *name,
                              McpConfigScope       scope,
                              JsonObject          *entry,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (entry != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_add_server_async);
  g_task_set_task_data (task, mcp_settings_add_server_async, NULL);

  mcp_settings_add_server_async (self->settings, name, scope, entry,
                                 cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_add_server_finish (McpProject    *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_project_write_enabled (McpProject     *self,
                           GTask          *task,
                           const char     *name,
                           McpConfigScope  scope,
                           gboolean        enabled)
{
  McpServerConfig *config = mcp_settings_lookup (self->settings, name);

  /* The entry that counts: at once in the manager; the settings catch up
   * after the write. */
  if (config != NULL && mcp_server_config_get_scope (config) == scope)
    mcp_server_manager_set_server_enabled (self->manager, name, enabled);

  g_task_set_task_data (task, mcp_settings_set_server_enabled_async, NULL);
  mcp_settings_set_server_enabled_async (self->settings, name, scope, enabled,
                                         g_task_get_cancellable (task),
                                         mcp_project_write_done_cb, task);
}

void
mcp_project_set_server_enabled_async (McpProject          *self,
                                      const char          *name,
                                      McpConfigScope       scope,
                                      gboolean             enabled,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_run_async);
  mcp_project_write_enabled (self, task, name, scope, enabled);
}

void
mcp_project_write_removal (McpProject     *self,
                           GTask          *task,
                           const char     *name,
                           McpConfigScope  scope)
{
  g_task_set_task_data (task, mcp_settings_remove_server_async, NULL);
  mcp_settings_remove_server_async (self->settings, name, scope, g_task_get_cancellable (task),
                                    mcp_project_write_done_cb, task);
}

void
mcp_project_remove_server_async (McpProject          *self,
                                 const char          *name,
                                 McpConfigScope       scope,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_run_async);
  mcp_project_write_removal (self, task, name, scope);
}
