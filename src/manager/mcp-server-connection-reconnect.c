/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

/* Getting connected again: ensure_connected (connect on demand, list
 * again what is stale), reconnect (a new session), and the backoff that
 * tries a remote server again after the network failed it. */

static gboolean
backoff_cb (gpointer user_data)
{
  McpServerConnection *self = user_data;

  self->backoff_id = 0;
  if (!self->disabled && !self->signing_in && self->attempt_cancellable == NULL &&
      self->state != MCP_SERVER_STATE_CONNECTED)
    mcp_server_connection_start_attempt (self);

  return G_SOURCE_REMOVE;
}

void
mcp_server_connection_schedule_reconnect (McpServerConnection *self)
{
  guint delay = self->backoff_base;

  if (self->reconnects >= MCP_SERVER_CONNECTION_MAX_RECONNECTS)
    {
      g_debug ("“%s”: giving up after %u reconnections",
               mcp_server_config_get_name (self->config), self->reconnects);
      self->reconnects = 0;
      return;
    }

  for (guint i = 0; i < self->reconnects && delay < MCP_SERVER_CONNECTION_MAX_BACKOFF_MS; i++)
    delay *= 2;
  delay = MIN (delay, MCP_SERVER_CONNECTION_MAX_BACKOFF_MS);
  self->reconnects++;

  g_debug ("“%s”: reconnecting in %u ms (attempt %u)",
           mcp_server_config_get_name (self->config), delay, self->reconnects);
  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->backoff_id = g_timeout_add (delay, backoff_cb, self);
}

/* TRUE with @task failed when the connection is disabled. */
static gboolean
fail_if_disabled (McpServerConnection *self,
                  GTask               *task)
{
  if (!self->disabled)
    return FALSE;

  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                           _("Server “%s” is disabled"),
                           mcp_server_config_get_name (self->config));
  return TRUE;
}

void
mcp_server_connection_ensure_connected_async (McpServerConnection *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_ensure_connected_async);

  if (fail_if_disabled (self, task))
    return;

  if (self->attempt_cancellable != NULL)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  if (self->state == MCP_SERVER_STATE_CONNECTED && self->client != NULL)
    {
      guint stale = self->has_listing ? mcp_server_connection_stale_kinds (self) : LIST_ALL;

      if (stale == 0)
        {
          mcp_server_connection_emit (self, CONNECTION_LISTING_USED);
          g_task_return_boolean (task, TRUE);
          return;
        }

      /* The LRU dropped the listing, or a kind of it went stale (its ttlMs
       * ran out, or it is private and the token changed): list again
       * before answering. This is the only place a stale listing is made
       * again: a ttlMs is no polling interval. A listing under way answers
       * the caller; what it does not list comes after it. */
      g_ptr_array_add (self->list_waiters, g_steal_pointer (&task));
      if (self->list_cancellable == NULL)
        {
          g_debug ("“%s”: listing again what is stale (0x%x)",
                   mcp_server_config_get_name (self->config), stale);
          mcp_server_connection_refresh_listing (self, stale);
        }
      else if (self->has_listing)
        self->relist_mask |= stale & ~self->listing_mask;
      return;
    }

  /* The sign-in's own reconnection serves it. */
  if (self->signing_in)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  if (mcp_server_connection_answer_needs_auth (self, task))
    return;

  g_ptr_array_add (self->waiters, g_steal_pointer (&task));
  mcp_server_connection_start_attempt (self);
}

gboolean
mcp_server_connection_ensure_connected_finish (McpServerConnection  *self,
                                               GAsyncResult         *result,
                                               GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Drops the client and starts a new attempt: a new session. The callers
 * waiting for a listing wait for the new session's when @keep_list_waiters;
 * else they are told the connection is being renewed. */
static void
start_new_session (McpServerConnection *self,
                   gboolean             keep_list_waiters)
{
  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->needs_auth_until = 0;
  self->reconnects = 0;

  if (self->client != NULL)
    {
      g_autoptr(GPtrArray) list_waiters = mcp_server_connection_steal_waiters (&self->list_waiters);
      g_autoptr(GError) error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                             _("The connection to “%s” is being renewed"),
                                             mcp_server_config_get_name (self->config));

      mcp_server_connection_drop_client (self, &self->client);
      mcp_server_connection_notify (self, CONNECTION_PROP_CLIENT);
      mcp_server_connection_clear_listing (self);
      if (keep_list_waiters)
        for (guint i = 0; i < list_waiters->len; i++)
          g_ptr_array_add (self->waiters, g_object_ref (g_ptr_array_index (list_waiters, i)));
      else
        mcp_server_connection_return_tasks (list_waiters, error);
    }

  mcp_server_connection_start_attempt (self);
}

/* A new session because the server said the last one expired: logged,
 * and marked so that the new one expiring too before it is listed ends
 * the renewals (mcp_server_connection_renew_expired_session()). */
static void
renew_session (McpServerConnection *self)
{
  mcp_server_connection_append_log (self, MCP_LOG_ENTRY_STATE,
                                    _("The server says the session expired; starting a new one"));
  self->renewing_session = TRUE;
  start_new_session (self, TRUE);
}

/* Queues @task for the next session: the one an attempt or a sign-in
 * under way makes, else a new one (@renewing: because the server said the
 * last one expired). */
static void
wait_for_new_session (McpServerConnection *self,
                      GTask               *task,
                      gboolean             renewing)
{
  if (fail_if_disabled (self, task))
    return;

  g_ptr_array_add (self->waiters, g_object_ref (task));

  /* An attempt under way already makes a new session; a sign-in under
   * way makes one when it is done. */
  if (self->attempt_cancellable != NULL || self->signing_in)
    return;

  if (renewing)
    renew_session (self);
  else
    start_new_session (self, FALSE);
}

void
mcp_server_connection_reconnect_async (McpServerConnection *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_reconnect_async);
  wait_for_new_session (self, task, FALSE);
}

void
mcp_server_connection_renew_session_async (McpServerConnection *self,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  /* One source tag: reconnect_finish() takes both. */
  g_task_set_source_tag (task, mcp_server_connection_reconnect_async);
  wait_for_new_session (self, task, TRUE);
}

gboolean
mcp_server_connection_renew_expired_session (McpServerConnection *self,
                                             McpClient           *client,
                                             const char          *method,
                                             const GError        *error)
{
  g_autoptr(GPtrArray) list_waiters = NULL;
  g_autoptr(GError) failure = NULL;

  if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED) || client != self->client)
    return FALSE;

  if (!self->renewing_session)
    {
      if (self->attempt_cancellable != NULL)
        {
          /* The attempt's own listing: the attempt starts over. */
          g_cancellable_cancel (self->attempt_cancellable);
          g_clear_object (&self->attempt_cancellable);
        }
      renew_session (self);
      return TRUE;
    }

  /* The new session expired too before its listing was made: a server that
   * ends every session would have us start new ones for ever. */
  failure = g_error_new (MCP_ERROR, MCP_ERROR_SESSION_EXPIRED,
                         /* Translators: the first %s is a server's name, the second a
                          * request such as “tools/list”, the third why it failed. */
                         _("Server “%s” said its new session expired too, at %s, before it could "
                           "be used; no other one is started (%s)"),
                         mcp_server_config_get_name (self->config), method, error->message);
  self->renewing_session = FALSE;
  list_waiters = mcp_server_connection_steal_waiters (&self->list_waiters);
  mcp_server_connection_drop_client (self, &self->client);
  mcp_server_connection_notify (self, CONNECTION_PROP_CLIENT);
  mcp_server_connection_clear_listing (self);
  if (self->attempt_cancellable != NULL)
    mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_FAILED, failure);
  else
    mcp_server_connection_set_state (self, MCP_SERVER_STATE_FAILED, failure);
  mcp_server_connection_return_tasks (list_waiters, failure);
  return TRUE;
}

gboolean
mcp_server_connection_reconnect_finish (McpServerConnection  *self,
                                        GAsyncResult         *result,
                                        GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
