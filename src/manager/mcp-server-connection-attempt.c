/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-secret-refs-private.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

#include "mcp-launch.h"
#include "mcp-needs-auth-cache.h"

/* One connection attempt: the settings expanded and checked against the
 * approval, the transport opened (mcp-server-connection-transport.c), the
 * client connected and listed; then connected, failed or needs-auth, and
 * the waiting callers answered. Also the end of a session the server or
 * the network closed. */

void
mcp_server_connection_return_tasks (GPtrArray    *tasks,
                                    const GError *error)
{
  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

GPtrArray *
mcp_server_connection_steal_waiters (GPtrArray **waiters)
{
  GPtrArray *stolen = g_steal_pointer (waiters);

  *waiters = g_ptr_array_new_with_free_func (g_object_unref);
  return stolen;
}

void
mcp_server_connection_drop_client (McpServerConnection  *self,
                                   McpClient           **client_ptr)
{
  g_autoptr(McpClient) client = g_steal_pointer (client_ptr);

  if (client == NULL)
    return;

  g_signal_handlers_disconnect_by_data (client, self);
  if (mcp_client_get_state (client) != MCP_CLIENT_STATE_CLOSED ||
      !mcp_transport_is_closed (mcp_client_get_transport (client)))
    mcp_client_close_async (client, NULL, NULL, NULL);
}

void
mcp_server_connection_finish_attempt (McpServerConnection *self,
                                      McpServerState       state,
                                      const GError        *unredacted)
{
  g_autoptr(GPtrArray) waiters = mcp_server_connection_steal_waiters (&self->waiters);
  g_autoptr(GError) error = mcp_server_connection_redact_error (self, unredacted);

  g_clear_object (&self->attempt_cancellable);
  /* A renewal ends with its attempt, listed or not. */
  self->renewing_session = FALSE;

  if (state == MCP_SERVER_STATE_NEEDS_AUTH)
    self->needs_auth_until = g_get_monotonic_time () + MCP_SERVER_CONNECTION_NEEDS_AUTH_CACHE_US;

  mcp_server_connection_set_state (self, state, error);
  /* The client property reads NULL until connected. */
  if (state == MCP_SERVER_STATE_CONNECTED)
    mcp_server_connection_notify (self, CONNECTION_PROP_CLIENT);
  mcp_server_connection_set_connecting (self, FALSE);
  mcp_server_connection_return_tasks (waiters, error);
}

void
mcp_server_connection_fail_held_waiters (McpServerConnection *self,
                                         const GError        *unredacted)
{
  g_autoptr(GPtrArray) waiters = NULL;
  g_autoptr(GError) error = NULL;

  if (self->attempt_cancellable != NULL || self->waiters->len == 0)
    return;
  error = mcp_server_connection_redact_error (self, unredacted);

  waiters = mcp_server_connection_steal_waiters (&self->waiters);
  mcp_server_connection_return_tasks (waiters, error);
}

static gboolean
is_network_failure (const GError *error)
{
  return error != NULL &&
         (g_error_matches (error, MCP_ERROR, MCP_ERROR_NETWORK) ||
          mcp_transport_error_is_terminal (error));
}

static void
on_client_closed_cb (McpClient           *client,
                     const GError        *reason,
                     McpServerConnection *self)
{
  g_autoptr(McpServerConnection) hold = g_object_ref (self);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list_waiters = NULL;
  McpTransport *transport = mcp_client_get_transport (client);
  gboolean retry;

  /* The connect callback reports a failure during connect itself. */
  if (client != self->client)
    return;

  mcp_server_connection_set_stderr_tail (self, transport);
  if (reason != NULL)
    error = mcp_server_connection_describe_failure (self, reason);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                         _("The connection to “%s” was closed"),
                         mcp_server_config_get_name (self->config));

  retry = reason != NULL &&
          mcp_server_config_is_remote (self->config) &&
          !g_error_matches (reason, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);

  /* The listings and the memo entry go together. */
  mcp_server_connection_drop_client (self, &self->client);
  mcp_server_connection_notify (self, CONNECTION_PROP_CLIENT);
  mcp_server_connection_clear_listing (self);
  mcp_server_connection_emit (self, CONNECTION_MEMO_DROPPED);

  list_waiters = mcp_server_connection_steal_waiters (&self->list_waiters);

  {
    gboolean auth = g_error_matches (reason, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    McpServerState state = auth ? MCP_SERVER_STATE_NEEDS_AUTH : MCP_SERVER_STATE_FAILED;

    if (auth && mcp_server_connection_has_oauth (self))
      mcp_needs_auth_cache_add (self->needs_auth_cache_path, self->needs_auth_key);

    if (self->attempt_cancellable != NULL)
      {
        g_cancellable_cancel (self->attempt_cancellable);
        mcp_server_connection_finish_attempt (self, state, error);
      }
    else
      mcp_server_connection_set_state (self, state, error);
  }

  mcp_server_connection_return_tasks (list_waiters, error);

  if (retry)
    mcp_server_connection_schedule_reconnect (self);
}

static void
on_connect_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(McpServerConnection) self = user_data;
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GError) error = NULL;

  if (!mcp_client_connect_finish (client, result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (client != self->pending_client)
    return;

  if (error != NULL && mcp_server_connection_fall_back_to_sse (self, client, error))
    return;

  if (error != NULL)
    {
      g_autoptr(GError) failure = NULL;
      g_autoptr(GError) explained = mcp_server_connection_explain_fallback_failure (self, error);
      gboolean auth = g_error_matches (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);

      mcp_server_connection_set_stderr_tail (self, mcp_client_get_transport (client));
      failure = mcp_server_connection_describe_failure (self, explained);
      /* The era remembered may be what failed: probe next time. */
      if (!auth && !is_network_failure (error))
        self->known_era = MCP_PROTOCOL_ERA_UNKNOWN;
      mcp_server_connection_drop_client (self, &self->pending_client);
      /* Other processes (and the next start) need not ask again soon. */
      if (auth && mcp_server_connection_has_oauth (self))
        mcp_needs_auth_cache_add (self->needs_auth_cache_path, self->needs_auth_key);
      mcp_server_connection_finish_attempt (self, auth ? MCP_SERVER_STATE_NEEDS_AUTH
                                                       : MCP_SERVER_STATE_FAILED,
                                            failure);

      /* A server that is still away while reconnecting: try again later. */
      if (!auth && self->reconnects > 0 &&
          (is_network_failure (error) ||
           g_error_matches (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED)))
        mcp_server_connection_schedule_reconnect (self);
      else
        self->reconnects = 0;
      return;
    }

  self->client = g_steal_pointer (&self->pending_client);
  mcp_server_connection_clear_ui_cache (self);
  self->known_era = mcp_client_get_era (self->client);
  self->needs_auth_until = 0;
  if (mcp_server_connection_has_oauth (self))
    mcp_needs_auth_cache_remove (self->needs_auth_cache_path, self->needs_auth_key);

  /* It may have gone between connecting and now. */
  if (mcp_client_get_state (self->client) == MCP_CLIENT_STATE_CLOSED)
    {
      g_autoptr(McpClient) hold = g_object_ref (self->client);

      on_client_closed_cb (hold, NULL, self);
      return;
    }

  /* Before the listing, so that a caller who waits for the connection
   * finds them made. */
  mcp_server_connection_apply_session_settings (self);
  mcp_server_connection_refresh_listing (self, LIST_ALL);
}

void
mcp_server_connection_connect_transport (McpServerConnection *self,
                                         McpTransport        *transport)
{
  McpClient *client;
  guint timeout;

  g_assert (self->pending_client == NULL);

  /* Secrets first: nothing reaches the trace unmasked. */
  mcp_server_connection_ensure_secrets (self);
  mcp_transport_set_trace (transport, self->trace);
  client = mcp_client_new (transport);
  mcp_client_set_client_info (client, PACKAGE_NAME, PACKAGE_VERSION);
  timeout = mcp_server_config_get_connect_timeout (self->config);
  mcp_client_set_connect_timeout (client, timeout > 0 ? timeout : self->connect_timeout);
  mcp_server_connection_apply_request_handlers (self, client);
  mcp_client_set_era_hint (client, self->known_era);

  g_signal_connect_object (client, "closed",
                           G_CALLBACK (on_client_closed_cb), self, 0);
  mcp_server_connection_watch_listings (self, client);
  mcp_server_connection_watch_log (self, client, transport);

  self->pending_client = client;
  mcp_client_connect_async (client, self->attempt_cancellable,
                            on_connect_cb, g_object_ref (self));
}

/* The attempt after its secrets are known: @environ is what ${VAR} (and
 * ${secret:ID}) expand from. */
static void
expand_and_open (McpServerConnection *self,
                 const char * const  *environ)
{
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(GError) error = NULL;

  expanded = mcp_server_config_expand (self->config, environ, &error);
  if (expanded == NULL)
    {
      mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_FAILED, error);
      return;
    }
  mcp_server_connection_set_secrets (self, expanded);

  /* The settings hand over a project server only when what it runs is what
   * was approved; what it runs is decided here, with this environment,
   * so it is checked again here before anything starts. */
  if (mcp_server_config_get_approved_digest (self->config) != NULL)
    {
      g_autofree char *digest = mcp_launch_dup_digest (self->config,
                                                       (const char * const *) self->environ);

      if (g_strcmp0 (digest, mcp_server_config_get_approved_digest (self->config)) != 0)
        {
          g_autoptr(GError) changed = NULL;

          changed = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                 /* Translators: %s is a server's name */
                                 _("“%s” was not started: what it would run (its command, arguments, "
                                   "environment, folder or address, after ${VAR} expansion) is not what "
                                   "was approved. Approve it again to start it."),
                                 mcp_server_config_get_name (self->config));
          mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_FAILED, changed);
          return;
        }
    }

  mcp_server_connection_open_transport (self, expanded);
}

typedef struct
{
  McpServerConnection *self;
  GCancellable        *cancellable;
} SecretsWait;

static void
on_secrets_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  SecretsWait *wait = user_data;
  g_autoptr(McpServerConnection) self = wait->self;
  g_autoptr(GCancellable) cancellable = wait->cancellable;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) environ = NULL;

  g_free (wait);
  environ = mcp_secret_refs_resolve_finish (result, &error);
  /* Another attempt, or none, by now */
  if (g_cancellable_is_cancelled (cancellable) || cancellable != self->attempt_cancellable)
    return;
  if (environ == NULL)
    {
      mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_FAILED, error);
      return;
    }
  expand_and_open (self, (const char * const *) environ);
}

void
mcp_server_connection_start_attempt (McpServerConnection *self)
{
  g_assert (self->attempt_cancellable == NULL);
  g_assert (!self->disabled);

  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->attempt_cancellable = g_cancellable_new ();
  self->active_transport = mcp_server_config_get_transport (self->config);
  g_clear_pointer (&self->transport_fallback, g_free);
  g_clear_error (&self->fallback_from);
  mcp_server_connection_set_connecting (self, TRUE);
  /* Every attempt, also the first one (which starts from pending). */
  mcp_server_connection_log_state (self, MCP_SERVER_STATE_PENDING, NULL);
  mcp_server_connection_set_state (self, MCP_SERVER_STATE_PENDING, NULL);

  /* Secrets come from the keyring, which takes a round trip. */
  if (mcp_secret_refs_used (self->config))
    {
      SecretsWait *wait = g_new0 (SecretsWait, 1);

      wait->self = g_object_ref (self);
      wait->cancellable = g_object_ref (self->attempt_cancellable);
      mcp_secret_refs_resolve_async (self->config, (const char * const *) self->environ,
                                     self->attempt_cancellable, on_secrets_cb, wait);
      return;
    }

  expand_and_open (self, (const char * const *) self->environ);
}
