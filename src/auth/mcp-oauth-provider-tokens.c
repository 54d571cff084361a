/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-grant-private.h"
#include "mcp-oauth-tokens.h"

#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider's tokens over time: what is stored, loaded once for
 * every waiter, and the refresh, on a timer ahead of the expiry or when a
 * request is refused. */

static const char *
resource_of (McpOAuthProvider *self)
{
  if (self->metadata != NULL && self->metadata->resource != NULL)
    return self->metadata->resource;
  return self->server_url;
}

/* A grant that can run again without a person: new tokens without a
 * refresh token. */
static gboolean
grant_renews (McpOAuthProvider *self)
{
  return self->grant_error == NULL && mcp_oauth_provider_uses_grant (self) &&
         !(self->grant->kind == MCP_OAUTH_GRANT_ENTERPRISE &&
           self->grant->id_token.kind == MCP_OAUTH_SOURCE_SIGN_IN);
}

/* The client to refresh with when none was stored: the configured one. */
static McpOAuthClientInfo *
client_for_refresh (McpOAuthProvider *self)
{
  McpOAuthClientInfo *client;

  /* A grant's client authenticates as the grant does; a private key goes
   * where a secret would (mcp_oauth_refresh_async() reads it). */
  if (mcp_oauth_provider_uses_grant (self) && self->grant_error == NULL && self->grant->client_id != NULL)
    {
      const char *method = mcp_oauth_grant_pick_auth_method (self->grant, self->metadata);

      client = g_new0 (McpOAuthClientInfo, 1);
      client->kind = MCP_OAUTH_CLIENT_PRE_REGISTERED;
      client->client_id = g_strdup (self->grant->client_id);
      client->token_endpoint_auth_method = g_strdup (method);
      client->client_secret = g_strdup (g_str_equal (method, "private_key_jwt")
                                        ? self->grant->private_key : self->grant->client_secret);
      return client;
    }

  /* A client_id is only good at the authorization server that issued it. */
  if (self->client != NULL &&
      (self->client->issuer == NULL || self->tokens == NULL || self->tokens->issuer == NULL ||
       g_str_equal (self->client->issuer, self->tokens->issuer)))
    return mcp_oauth_client_info_copy (self->client);
  if (self->config_client_id == NULL)
    return NULL;

  client = g_new0 (McpOAuthClientInfo, 1);
  client->kind = MCP_OAUTH_CLIENT_PRE_REGISTERED;
  client->client_id = g_strdup (self->config_client_id);
  client->client_secret = g_strdup (self->client_secret);
  client->token_endpoint_auth_method = g_strdup (self->client_secret != NULL
                                                 ? "client_secret_basic" : "none");
  return client;
}

/* Loading what is stored */

typedef struct
{
  McpOAuthProvider *self;
  guint             pending;
} LoadData;

static void
load_step_done (LoadData *data)
{
  McpOAuthProvider *self = data->self;
  g_autoptr(GPtrArray) waiters = NULL;

  if (--data->pending > 0)
    return;

  waiters = g_steal_pointer (&self->load_waiters);
  self->loaded = TRUE;
  /* A DPoP-bound token brings its key */
  mcp_oauth_provider_dpop_update (self);
  mcp_oauth_provider_schedule_refresh (self);
  if (self->tokens != NULL)
    mcp_oauth_provider_notify_signed_in (self);

  for (guint i = 0; i < waiters->len; i++)
    g_task_return_boolean (g_ptr_array_index (waiters, i), self->tokens != NULL);

  g_object_unref (self);
  g_free (data);
}

static void
lookup_client_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  LoadData *data = user_data;
  g_autoptr(McpOAuthClientInfo) client = NULL;
  g_autoptr(GError) error = NULL;

  if (g_async_result_is_tagged (result, mcp_token_store_lookup_issuer_client_async))
    client = mcp_token_store_lookup_issuer_client_finish (MCP_TOKEN_STORE (object), result, &error);
  else
    client = mcp_token_store_lookup_client_finish (MCP_TOKEN_STORE (object), result, &error);
  if (error != NULL)
    g_debug ("Could not read the stored client of “%s”: %s", data->self->server_name, error->message);
  else if (client != NULL && data->self->client == NULL)
    {
      /* A pre-registered client is only used while the settings name it. */
      if (client->kind != MCP_OAUTH_CLIENT_PRE_REGISTERED ||
          g_strcmp0 (client->client_id, data->self->config_client_id) == 0)
        data->self->client = g_steal_pointer (&client);
    }

  load_step_done (data);
}

static void
lookup_tokens_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  LoadData *data = user_data;
  McpOAuthProvider *self = data->self;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;

  tokens = mcp_token_store_lookup_tokens_finish (MCP_TOKEN_STORE (object), result, &error);
  if (error != NULL)
    g_debug ("Could not read the stored tokens of “%s”: %s", self->server_name, error->message);
  else if (tokens != NULL && self->tokens == NULL)
    {
      self->tokens = g_steal_pointer (&tokens);
      self->tokens_changed_at = 0;
    }

  /* Clients are kept per authorization server: the one that goes with
   * the tokens (a refresh needs it), else any (sign-in checks its issuer). */
  if (self->tokens != NULL && self->tokens->issuer != NULL)
    mcp_token_store_lookup_issuer_client_async (self->store, self->server_name, self->server_url,
                                                self->tokens->issuer, NULL, lookup_client_cb, data);
  else
    mcp_token_store_lookup_client_async (self->store, self->server_name, self->server_url,
                                         NULL, lookup_client_cb, data);
}

void
mcp_oauth_provider_load_async (McpOAuthProvider    *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_provider_load_async);

  if (self->loaded)
    {
      g_task_return_boolean (task, self->tokens != NULL);
      return;
    }

  if (self->load_waiters != NULL)
    {
      g_ptr_array_add (self->load_waiters, g_steal_pointer (&task));
      return;
    }

  self->load_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->load_waiters, g_steal_pointer (&task));

  /* The store's own operations are not cancelled: a second waiter may
   * still want the answer. */
  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->pending = 1;
  mcp_token_store_lookup_tokens_async (self->store, self->server_name, self->server_url,
                                       NULL, lookup_tokens_cb, data);
}

gboolean
mcp_oauth_provider_load_finish (McpOAuthProvider  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Refreshing */

typedef struct
{
  McpOAuthClientInfo *client;
  McpOAuthTokens     *tokens;
} RefreshData;

static void
refresh_data_free (RefreshData *data)
{
  g_clear_pointer (&data->client, mcp_oauth_client_info_free);
  g_clear_pointer (&data->tokens, mcp_oauth_tokens_free);
  g_free (data);
}

static void
refresh_stored_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  RefreshData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  /* The new tokens work even when they could not be stored; the next
   * start will refresh again or ask to sign in. */
  if (!mcp_token_store_store_tokens_finish (MCP_TOKEN_STORE (object), result, &error))
    g_message (_("Could not store the renewed sign-in of “%s”: %s"), self->server_name, error->message);

  mcp_oauth_provider_set_tokens (self, data->tokens);
  g_task_return_boolean (task, TRUE);
}

static void
refreshed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  RefreshData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  data->tokens = mcp_oauth_refresh_finish (result, &error);
  if (data->tokens == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (data->tokens->token_endpoint == NULL && self->tokens != NULL)
    data->tokens->token_endpoint = g_strdup (self->tokens->token_endpoint);
  if (data->tokens->issuer == NULL && self->tokens != NULL)
    data->tokens->issuer = g_strdup (self->tokens->issuer);

  mcp_token_store_store_tokens_async (self->store, self->server_name, self->server_url,
                                      data->tokens, NULL, refresh_stored_cb, g_object_ref (task));
}

static void
regranted_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  /* grant_finish set and stored the tokens */
  if (!mcp_oauth_provider_grant_finish (MCP_OAUTH_PROVIDER (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Refreshes self->tokens; fails when there is no refresh token (a grant
 * that runs without a person runs again instead). */
void
mcp_oauth_provider_refresh_async (McpOAuthProvider    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  RefreshData *data = g_new0 (RefreshData, 1);

  g_task_set_source_tag (task, mcp_oauth_provider_refresh_async);
  g_task_set_task_data (task, data, (GDestroyNotify) refresh_data_free);

  if ((self->tokens == NULL || self->tokens->refresh_token == NULL) && grant_renews (self))
    {
      mcp_oauth_provider_grant_start (self, self->tokens != NULL ? self->tokens->scope : NULL,
                                      cancellable, regranted_cb, g_object_ref (task));
      return;
    }

  if (self->tokens == NULL || self->tokens->refresh_token == NULL ||
      self->tokens->token_endpoint == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The sign-in to “%s” has expired and cannot be renewed without signing in again"),
                               self->server_name);
      return;
    }

  data->client = client_for_refresh (self);
  if (data->client == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The sign-in to “%s” has expired and its OAuth client is no longer known; sign in again"),
                               self->server_name);
      return;
    }

  mcp_oauth_refresh_async (self->session, self->tokens, data->client, resource_of (self),
                           self->dpop, cancellable, refreshed_cb, g_object_ref (task));
}

gboolean
mcp_oauth_provider_refresh_finish (McpOAuthProvider  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
timed_refresh_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);
  g_autoptr(GError) error = NULL;

  if (!mcp_oauth_provider_refresh_finish (self, result, &error))
    {
      /* The next request's 401 asks again and reports it. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Renewing the sign-in of “%s” ahead of its expiry failed: %s",
                 self->server_name, error->message);
    }
}

static gboolean
refresh_timeout_cb (gpointer user_data)
{
  McpOAuthProvider *self = user_data;

  self->refresh_source = 0;
  self->refreshed_at = g_get_real_time () / G_USEC_PER_SEC;
  g_clear_object (&self->refresh_cancellable);
  self->refresh_cancellable = g_cancellable_new ();
  mcp_oauth_provider_refresh_async (self, self->refresh_cancellable, timed_refresh_cb, NULL);

  return G_SOURCE_REMOVE;
}

void
mcp_oauth_provider_schedule_refresh (McpOAuthProvider *self)
{
  gint64 now, delay;

  g_clear_handle_id (&self->refresh_source, g_source_remove);

  if (self->tokens == NULL || self->tokens->expires_at == 0 ||
      (self->tokens->refresh_token == NULL && !grant_renews (self)))
    return;

  now = g_get_real_time () / G_USEC_PER_SEC;
  /* Expired already: the next 401 refreshes, on the caller's cancellable. */
  if (self->tokens->expires_at <= now)
    return;

  /* Within the margin already (seconds lost between the grant and here:
   * expires_at is in whole seconds): in a second rather than never; but at
   * most once a margin, so that tokens shorter-lived than the margin are
   * not renewed every second (the next 401 refreshes those). */
  delay = self->tokens->expires_at - REFRESH_MARGIN_S - now;
  if (delay <= 0 && now - self->refreshed_at < REFRESH_MARGIN_S)
    return;
  delay = MAX (delay, 1);
  self->refresh_source = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT_IDLE,
                                                     (guint) MIN (delay, G_MAXUINT / 2),
                                                     refresh_timeout_cb, self, NULL);
}

