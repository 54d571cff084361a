/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"
#include "mcp-server-manager-private.h"

/* Closing every connection, those being retired included; no batch
 * starts after it. */

typedef struct
{
  guint outstanding;
} CloseAll;

static void
on_close_one_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  CloseAll *close_all = g_task_get_task_data (task);

  mcp_server_connection_close_finish (MCP_SERVER_CONNECTION (object), result, NULL);
  if (--close_all->outstanding == 0)
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

void
mcp_server_manager_close_async (McpServerManager    *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) all = NULL;
  GHashTableIter iter;
  gpointer key;
  CloseAll *close_all;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_close_async);

  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  g_queue_clear_full (&self->local_queue, g_object_unref);
  g_queue_clear_full (&self->remote_queue, g_object_unref);

  all = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->connections->len; i++)
    g_ptr_array_add (all, g_object_ref (g_ptr_array_index (self->connections, i)));
  /* Those being retired already: wait for them too. */
  g_hash_table_iter_init (&iter, self->closing);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (all, g_object_ref (key));

  close_all = g_new0 (CloseAll, 1);
  close_all->outstanding = all->len + 1;
  g_task_set_task_data (task, close_all, g_free);

  for (guint i = 0; i < all->len; i++)
    mcp_server_connection_close_async (g_ptr_array_index (all, i), NULL,
                                       on_close_one_cb, g_object_ref (task));

  if (--close_all->outstanding == 0)
    g_task_return_boolean (task, TRUE);

  mcp_server_manager_update_connecting (self);
  mcp_server_manager_check_settled (self);
}

gboolean
mcp_server_manager_close_finish (McpServerManager  *self,
                                 GAsyncResult      *result,
                                 GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
