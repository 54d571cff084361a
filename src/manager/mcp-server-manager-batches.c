/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"
#include "mcp-server-manager-private.h"

/* Connecting in batches: at most local-batch-size stdio servers and
 * remote-batch-size remote ones at once, the next one when one is done;
 * and knowing when none is pending any more (wait_settled). */

static gboolean
is_settled (McpServerManager *self)
{
  for (guint i = 0; i < self->connections->len; i++)
    {
      McpServerConnection *connection = g_ptr_array_index (self->connections, i);

      if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_PENDING)
        return FALSE;
    }

  return TRUE;
}

void
mcp_server_manager_check_settled (McpServerManager *self)
{
  g_autoptr(GPtrArray) waiters = NULL;

  if (self->settle_waiters->len == 0 || !is_settled (self))
    return;

  waiters = g_steal_pointer (&self->settle_waiters);
  self->settle_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < waiters->len; i++)
    g_task_return_boolean (g_ptr_array_index (waiters, i), TRUE);
}

typedef struct
{
  McpServerManager *self;
  gboolean          remote;
} BatchSlot;

static void
on_batch_connected_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  BatchSlot *slot = user_data;
  g_autoptr(McpServerManager) self = slot->self;
  g_autoptr(GError) error = NULL;

  if (slot->remote)
    self->remote_active--;
  else
    self->local_active--;
  g_free (slot);

  if (!mcp_server_connection_ensure_connected_finish (connection, result, &error))
    g_debug ("“%s” did not connect: %s",
             mcp_server_connection_get_name (connection), error->message);

  if (!self->closed)
    mcp_server_manager_pump (self);
  mcp_server_manager_check_settled (self);
}

static void
pump_queue (McpServerManager *self,
            GQueue           *queue,
            guint            *active,
            guint             size,
            gboolean          remote)
{
  while (*active < MAX (size, 1) && !g_queue_is_empty (queue))
    {
      g_autoptr(McpServerConnection) connection = g_queue_pop_head (queue);
      BatchSlot *slot;

      if (!mcp_server_manager_is_listed (self, connection) ||
          mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_PENDING)
        continue;

      slot = g_new0 (BatchSlot, 1);
      slot->self = g_object_ref (self);
      slot->remote = remote;
      (*active)++;
      mcp_server_connection_ensure_connected_async (connection, self->cancellable,
                                                    on_batch_connected_cb, slot);
    }
}

void
mcp_server_manager_pump (McpServerManager *self)
{
  pump_queue (self, &self->local_queue, &self->local_active,
              self->local_batch_size, FALSE);
  pump_queue (self, &self->remote_queue, &self->remote_active,
              self->remote_batch_size, TRUE);
}

void
mcp_server_manager_enqueue (McpServerManager    *self,
                            McpServerConnection *connection)
{
  McpServerConfig *config = mcp_server_connection_get_config (connection);

  if (self->closed)
    return;

  g_queue_push_tail (mcp_server_config_is_remote (config) ? &self->remote_queue : &self->local_queue,
                     g_object_ref (connection));
}

void
mcp_server_manager_wait_settled_async (McpServerManager    *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_wait_settled_async);

  if (is_settled (self))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_ptr_array_add (self->settle_waiters, g_steal_pointer (&task));
}

gboolean
mcp_server_manager_wait_settled_finish (McpServerManager  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
