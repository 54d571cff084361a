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

/* The connection's own requests (log level, subscriptions) that the
 * server answered "session expired": a new session, and the request once
 * more in it, as McpCall does for tool calls. */
typedef void (*SendFunc) (GTask *task);

static void
on_session_renewed_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SendFunc send = (SendFunc) g_object_get_data (G_OBJECT (task), "send");
  GError *error = NULL;

  if (!mcp_server_connection_reconnect_finish (MCP_SERVER_CONNECTION (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  send (g_steal_pointer (&task));
}

/* TRUE when @error was an expired session and @task is sent again (by
 * @send) in a new one; only once per request. */
static gboolean
retry_in_new_session (GTask        *task,
                      const GError *error,
                      SendFunc      send)
{
  McpServerConnection *self = g_task_get_source_object (task);

  if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED) ||
      g_object_get_data (G_OBJECT (task), "send") != NULL)
    return FALSE;

  g_object_set_data (G_OBJECT (task), "send", (gpointer) send);
  mcp_server_connection_renew_session_async (self, g_task_get_cancellable (task),
                                             on_session_renewed_cb, g_object_ref (task));
  return TRUE;
}

static void send_log_level (GTask *task);
static void send_subscribe (GTask *task);

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
      if (retry_in_new_session (task, error, send_log_level))
        {
          g_error_free (error);
          return;
        }
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

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (level != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_set_log_level_async);
  g_task_set_task_data (task, g_strdup (level), g_free);
  send_log_level (g_steal_pointer (&task));
}

static void
send_log_level (GTask *task)
{
  McpServerConnection *self = g_task_get_source_object (task);
  McpClient *client = require_client (self, task);

  if (client == NULL)
    {
      g_object_unref (task);
      return;
    }
  mcp_client_set_log_level_async (client, g_task_get_task_data (task), g_task_get_cancellable (task),
                                  on_set_log_level_cb, task);
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
      if (retry_in_new_session (task, error, send_subscribe))
        {
          g_error_free (error);
          return;
        }
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

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (uri != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_subscribe_async);
  g_task_set_task_data (task, g_strdup (uri), g_free);
  g_object_set_data (G_OBJECT (task), "subscribe", GINT_TO_POINTER (!!subscribe));
  send_subscribe (g_steal_pointer (&task));
}

static void
send_subscribe (GTask *task)
{
  McpServerConnection *self = g_task_get_source_object (task);
  McpClient *client = require_client (self, task);
  gboolean subscribe = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "subscribe"));

  if (client == NULL)
    {
      g_object_unref (task);
      return;
    }
  mcp_client_subscribe_resource_async (client, g_task_get_task_data (task), subscribe,
                                       g_task_get_cancellable (task), on_subscribe_cb, task);
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
