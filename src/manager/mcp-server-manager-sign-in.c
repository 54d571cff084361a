/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"
#include "mcp-server-manager-private.h"

#include <glib/gi18n.h>
#include "mcp-error.h"
#include "mcp-needs-auth-cache.h"
#include "mcp-secret-refs-private.h"
#include "mcp-server-connection-private.h"

#include <string.h>

/* OAuth sign-in and sign-out of a remote server: the provider made
 * interactive for the person's sign-in only, attempts held meanwhile, the
 * needs-auth cache entry removed, and a new session after it. */

typedef struct
{
  McpServerConnection *connection;
  McpOAuthProvider    *provider;
  McpOAuthOpenUrlFunc  open_url;
  gpointer             open_url_data;
} SignIn;

static void
sign_in_free (gpointer data)
{
  SignIn *sign_in = data;

  g_clear_object (&sign_in->connection);
  g_clear_object (&sign_in->provider);
  g_free (sign_in);
}

/* The connection and its provider for @name, as @task's data from now
 * on; or NULL with @task returned. */
static SignIn *
lookup_oauth (McpServerManager *self,
              GTask            *task,
              const char       *name)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self, name);
  McpOAuthProvider *provider;
  McpServerConfig *config;
  SignIn *sign_in;

  if (connection == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("No MCP server named “%s” is configured"), name);
      return NULL;
    }

  config = mcp_server_connection_get_config (connection);
  if (mcp_server_connection_get_needs_auth_key (connection) == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               /* Translators: the first %s is the server's name, the second its transport (stdio, sse-ide, ws-ide) */
                               _("“%s” is a %s server: only remote servers (http, sse, ws) "
                                 "sign in with OAuth"),
                               name, mcp_server_config_get_transport_name (config));
      return NULL;
    }

  provider = mcp_server_connection_get_oauth_provider (connection);
  if (provider == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("“%s”: its URL cannot be used (see its settings), so it "
                                 "cannot sign in"), name);
      return NULL;
    }

  if (mcp_server_connection_get_signing_in (connection))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("A sign-in to “%s” is already under way"), name);
      return NULL;
    }

  sign_in = g_new0 (SignIn, 1);
  sign_in->connection = g_object_ref (connection);
  sign_in->provider = g_object_ref (provider);
  g_task_set_task_data (task, sign_in, sign_in_free);
  return sign_in;
}

static void
on_sign_in_reconnected_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_reconnect_finish (connection, result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, error->domain, error->code,
                                 /* Translators: the first %s is the server's name, the second why it did not connect */
                                 _("Signed in to “%s”, but it did not connect: %s"),
                                 mcp_server_connection_get_name (connection), error->message);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_provider_signed_in_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerManager *self = g_task_get_source_object (task);
  SignIn *sign_in = g_task_get_task_data (task);
  McpServerConnection *connection = sign_in->connection;
  GCancellable *cancellable;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = mcp_oauth_provider_sign_in_finish (MCP_OAUTH_PROVIDER (object), result, &error);

  /* Interactive only for the person's sign-in: a later 401 in the
   * background must not open a browser. */
  mcp_oauth_provider_set_open_url_func (sign_in->provider, NULL, NULL, NULL);

  if (!ok)
    {
      mcp_server_connection_set_signing_in (connection, FALSE);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_needs_auth_cache_remove (self->needs_auth_cache_path,
                               mcp_server_connection_get_needs_auth_key (connection));
  mcp_server_connection_set_signing_in (connection, FALSE);

  if (self->closed || mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_DISABLED)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* A new authorization context: the new session lists everything again,
   * so no listing (a cacheScope "private" one above all) outlives the
   * token it was fetched with. */
  cancellable = g_task_get_cancellable (task);
  mcp_server_connection_reconnect_async (connection, cancellable,
                                         on_sign_in_reconnected_cb, g_steal_pointer (&task));
}

static void
sign_in_start (GTask *task)
{
  SignIn *sign_in = g_task_get_task_data (task);

  mcp_oauth_provider_set_open_url_func (sign_in->provider, sign_in->open_url,
                                        sign_in->open_url_data, NULL);
  mcp_oauth_provider_sign_in_async (sign_in->provider, g_task_get_cancellable (task),
                                    on_provider_signed_in_cb, task);
}

static void
on_sign_in_attempt_done_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  GTask *task = user_data;

  /* Whatever the attempt under way came to: the sign-in goes on. */
  mcp_server_connection_ensure_connected_finish (MCP_SERVER_CONNECTION (object), result, NULL);
  if (g_task_return_error_if_cancelled (task))
    {
      SignIn *sign_in = g_task_get_task_data (task);

      mcp_server_connection_set_signing_in (sign_in->connection, FALSE);
      g_object_unref (task);
      return;
    }

  sign_in_start (task);
}

/* Takes @task */
static void
sign_in_begin (GTask               *task,
               const char          *name,
               McpOAuthOpenUrlFunc  open_url,
               gpointer             open_url_data)
{
  McpServerManager *self = g_task_get_source_object (task);
  McpServerConnection *connection;
  SignIn *sign_in;

  sign_in = lookup_oauth (self, task, name);
  if (sign_in == NULL)
    {
      g_object_unref (task);
      return;
    }
  sign_in->open_url = open_url;
  sign_in->open_url_data = open_url_data;
  connection = sign_in->connection;

  /* From now on no new attempt starts, so no other 401 reaches the
   * provider while it is interactive; one under way ends first. */
  mcp_server_connection_set_signing_in (connection, TRUE);
  if (mcp_server_connection_is_connecting (connection))
    {
      mcp_server_connection_ensure_connected_async (connection, NULL,
                                                    on_sign_in_attempt_done_cb, task);
      return;
    }

  sign_in_start (task);
}

typedef struct
{
  char                *name;
  McpOAuthOpenUrlFunc  open_url;
  gpointer             open_url_data;
} SignInSecrets;

static void
sign_in_secrets_free (gpointer data)
{
  SignInSecrets *secrets = data;

  g_free (secrets->name);
  g_free (secrets);
}

static void
on_sign_in_secrets_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GTask *task = user_data;
  McpServerManager *self = g_task_get_source_object (task);
  SignInSecrets *secrets = g_object_get_data (G_OBJECT (task), "sign-in-secrets");
  McpServerConnection *connection = mcp_server_manager_lookup (self, secrets->name);
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(GError) error = NULL;
  char **environ;

  environ = mcp_secret_refs_resolve_finish (result, &error);
  if (environ == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  if (connection != NULL)
    expanded = mcp_server_config_expand (mcp_server_connection_get_config (connection),
                                         (const char * const *) environ, &error);
  for (guint i = 0; environ[i] != NULL; i++)
    if (g_str_has_prefix (environ[i], "secret:"))
      memset (environ[i], 0, strlen (environ[i]));
  g_strfreev (environ);
  if (expanded != NULL)
    mcp_server_connection_ensure_oauth_provider (connection, expanded);
  else if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  sign_in_begin (task, secrets->name, secrets->open_url, secrets->open_url_data);
}

void
mcp_server_manager_sign_in_async (McpServerManager    *self,
                                  const char          *name,
                                  McpOAuthOpenUrlFunc  open_url,
                                  gpointer             open_url_data,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpServerConnection *connection;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (open_url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_sign_in_async);

  /* A provider whose settings take ${secret:ID} (a grant's client secret
   * or key) is made once the secrets are read from the keyring. */
  connection = mcp_server_manager_lookup (self, name);
  if (connection != NULL && mcp_server_connection_get_needs_auth_key (connection) != NULL &&
      mcp_server_connection_get_oauth_provider (connection) == NULL &&
      mcp_secret_refs_used (mcp_server_connection_get_config (connection)))
    {
      SignInSecrets *secrets = g_new0 (SignInSecrets, 1);

      secrets->name = g_strdup (name);
      secrets->open_url = open_url;
      secrets->open_url_data = open_url_data;
      g_object_set_data_full (G_OBJECT (task), "sign-in-secrets", secrets, sign_in_secrets_free);
      mcp_secret_refs_resolve_async (mcp_server_connection_get_config (connection),
                                     (const char * const *) connection->environ, cancellable,
                                     on_sign_in_secrets_cb, g_steal_pointer (&task));
      return;
    }

  sign_in_begin (g_steal_pointer (&task), name, open_url, open_url_data);
}

gboolean
mcp_server_manager_sign_in_finish (McpServerManager  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_signed_out_closed_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  McpServerManager *self = g_task_get_source_object (task);

  mcp_server_connection_close_finish (connection, result, NULL);
  mcp_server_connection_set_signed_out (connection);
  mcp_server_manager_update_connecting (self);
  mcp_server_manager_check_settled (self);
  g_task_return_boolean (task, TRUE);
}

static void
on_provider_signed_out_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerManager *self = g_task_get_source_object (task);
  SignIn *sign_in = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_oauth_provider_sign_out_finish (MCP_OAUTH_PROVIDER (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Closing drops the listings with the session: none, private or
   * public, is used under the next authorization context. */
  g_queue_remove (&self->lru, sign_in->connection);
  mcp_server_connection_close_async (sign_in->connection, NULL, on_signed_out_closed_cb,
                                     g_steal_pointer (&task));
}

void
mcp_server_manager_sign_out_async (McpServerManager    *self,
                                   const char          *name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SignIn *sign_in;

  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_manager_sign_out_async);

  sign_in = lookup_oauth (self, task, name);
  if (sign_in == NULL)
    return;

  mcp_oauth_provider_sign_out_async (sign_in->provider, cancellable, on_provider_signed_out_cb,
                                     g_steal_pointer (&task));
}

gboolean
mcp_server_manager_sign_out_finish (McpServerManager  *self,
                                    GAsyncResult      *result,
                                    GError           **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
