/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

/* What a session carries over to the next: the log level the server
 * accepted (logging/setLevel) and the resources subscribed to, made again
 * after every reconnect. */

static void
on_reapplied_level_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(McpServerConnection) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not set the log level again: %s"),
                                               error->message);

      mcp_server_connection_append_log (self, MCP_LOG_ENTRY_STATE, text);
      /* A server that no longer declares logging keeps no level. */
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED) &&
          MCP_CLIENT (object) == self->client)
        {
          g_clear_pointer (&self->log_level, g_free);
          mcp_server_connection_notify (self, CONNECTION_PROP_LOG_LEVEL);
        }
    }
}

static void
on_resubscribed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(McpServerConnection) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_subscribe_resource_finish (MCP_CLIENT (object), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not subscribe again: %s"), error->message);

      mcp_server_connection_append_log (self, MCP_LOG_ENTRY_STATE, text);
    }
}

/* The log level and subscriptions of the previous session, made again. */
void
mcp_server_connection_apply_session_settings (McpServerConnection *self)
{
  GHashTableIter iter;
  const char *uri;

  if (self->log_level != NULL)
    mcp_client_set_log_level_async (self->client, self->log_level, NULL,
                                    on_reapplied_level_cb, g_object_ref (self));

  g_hash_table_iter_init (&iter, self->subscriptions);
  while (g_hash_table_iter_next (&iter, (gpointer *) &uri, NULL))
    mcp_client_subscribe_resource_async (self->client, uri, TRUE, NULL,
                                         on_resubscribed_cb, g_object_ref (self));
}

/* The client, or NULL with @task failed: not connected. */
static McpClient *
require_client (McpServerConnection *self,
                GTask               *task)
{
  if (self->client == NULL)
    g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                             _("“%s” is not connected"), mcp_server_config_get_name (self->config));
  return self->client;
}

static void
on_set_log_level_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (g_strcmp0 (self->log_level, g_task_get_task_data (task)) != 0)
    {
      g_free (self->log_level);
      self->log_level = g_strdup (g_task_get_task_data (task));
      mcp_server_connection_notify (self, CONNECTION_PROP_LOG_LEVEL);
    }
  g_task_return_boolean (task, TRUE);
}

void
mcp_server_connection_set_log_level_async (McpServerConnection *self,
                                           const char          *level,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpClient *client;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (level != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_set_log_level_async);
  g_task_set_task_data (task, g_strdup (level), g_free);

  client = require_client (self, task);
  if (client == NULL)
    return;
  mcp_client_set_log_level_async (client, level, cancellable,
                                  on_set_log_level_cb, g_steal_pointer (&task));
}

gboolean
mcp_server_connection_set_log_level_finish (McpServerConnection *self,
                                            GAsyncResult        *result,
                                            GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

const char *
mcp_server_connection_get_log_level (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->log_level;
}

static void
on_subscribe_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *self = g_task_get_source_object (task);
  const char *uri = g_task_get_task_data (task);
  gboolean subscribe = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "subscribe"));
  GError *error = NULL;

  if (!mcp_client_subscribe_resource_finish (MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (subscribe)
    g_hash_table_add (self->subscriptions, g_strdup (uri));
  else
    g_hash_table_remove (self->subscriptions, uri);
  g_task_return_boolean (task, TRUE);
}

void
mcp_server_connection_subscribe_async (McpServerConnection *self,
                                       const char          *uri,
                                       gboolean             subscribe,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpClient *client;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (uri != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_subscribe_async);
  g_task_set_task_data (task, g_strdup (uri), g_free);
  g_object_set_data (G_OBJECT (task), "subscribe", GINT_TO_POINTER (!!subscribe));

  client = require_client (self, task);
  if (client == NULL)
    return;
  mcp_client_subscribe_resource_async (client, uri, subscribe, cancellable,
                                       on_subscribe_cb, g_steal_pointer (&task));
}

gboolean
mcp_server_connection_subscribe_finish (McpServerConnection *self,
                                        GAsyncResult        *result,
                                        GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
mcp_server_connection_is_subscribed (McpServerConnection *self,
                                     const char          *uri)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return uri != NULL && g_hash_table_contains (self->subscriptions, uri);
}
