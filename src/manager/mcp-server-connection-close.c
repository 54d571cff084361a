/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

/* What ends a connection's sessions: disabling it (until enabled again)
 * and closing it (until the next ensure_connected). */

void
mcp_server_connection_shut_down (McpServerConnection *self,
                                 const GError        *why)
{
  g_autoptr(GPtrArray) list_waiters = mcp_server_connection_steal_waiters (&self->list_waiters);
  gboolean had_client = self->client != NULL;

  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->reconnects = 0;

  if (self->attempt_cancellable != NULL)
    g_cancellable_cancel (self->attempt_cancellable);

  mcp_server_connection_drop_client (self, &self->pending_client);
  mcp_server_connection_drop_client (self, &self->client);
  if (had_client)
    mcp_server_connection_notify (self, CONNECTION_PROP_CLIENT);
  mcp_server_connection_clear_listing (self);
  mcp_server_connection_clear_ui_cache (self);
  mcp_server_connection_return_tasks (list_waiters, why);
}

void
mcp_server_connection_set_disabled (McpServerConnection *self,
                                    gboolean             disabled)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->disabled == !!disabled)
    return;

  self->disabled = !!disabled;
  if (!disabled)
    {
      mcp_server_connection_set_state (self, MCP_SERVER_STATE_PENDING, NULL);
      return;
    }

  error = g_error_new (MCP_ERROR, MCP_ERROR_NOT_CONNECTED, _("Server “%s” is disabled"),
                       mcp_server_config_get_name (self->config));
  mcp_server_connection_shut_down (self, error);
  self->needs_auth_until = 0;
  if (self->attempt_cancellable != NULL)
    mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_DISABLED, error);
  mcp_server_connection_fail_held_waiters (self, error);
  mcp_server_connection_set_state (self, MCP_SERVER_STATE_DISABLED, NULL);
}

static void
on_close_client_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_close_finish (MCP_CLIENT (object), result, &error))
    g_debug ("Closing “%s”: %s",
             mcp_server_config_get_name (MCP_SERVER_CONNECTION (g_task_get_source_object (task))->config),
             error->message);

  g_task_return_boolean (task, TRUE);
}

void
mcp_server_connection_close_async (McpServerConnection *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  gboolean was_connected;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_close_async);

  client = self->client != NULL ? g_object_ref (self->client)
         : self->pending_client != NULL ? g_object_ref (self->pending_client)
         : NULL;
  was_connected = self->state == MCP_SERVER_STATE_CONNECTED;

  error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                       _("The connection to “%s” was closed"),
                       mcp_server_config_get_name (self->config));
  if (client != NULL)
    g_signal_handlers_disconnect_by_data (client, self);
  g_clear_object (&self->pending_client);
  if (self->client != NULL)
    {
      g_clear_object (&self->client);
      mcp_server_connection_notify (self, CONNECTION_PROP_CLIENT);
    }
  mcp_server_connection_shut_down (self, error);

  if (self->attempt_cancellable != NULL)
    mcp_server_connection_finish_attempt (self,
                                          self->disabled ? MCP_SERVER_STATE_DISABLED
                                                         : MCP_SERVER_STATE_FAILED,
                                          self->disabled ? NULL : error);
  else if (was_connected)
    mcp_server_connection_set_state (self, MCP_SERVER_STATE_FAILED, error);
  mcp_server_connection_fail_held_waiters (self, error);

  if (client == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  mcp_client_close_async (client, NULL, on_close_client_cb, g_steal_pointer (&task));
}

gboolean
mcp_server_connection_close_finish (McpServerConnection  *self,
                                    GAsyncResult         *result,
                                    GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
