/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-pkce.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-redirect-listener.h"
#include "mcp-oauth-tokens.h"
#include "mcp-url-policy.h"

#include "mcp-oauth-provider-private.h"

static void mcp_oauth_provider_auth_iface_init (McpAuthProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpOAuthProvider, mcp_oauth_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_AUTH_PROVIDER,
                                                      mcp_oauth_provider_auth_iface_init))

enum {
  PROP_0,
  PROP_SERVER_NAME,
  PROP_SERVER_URL,
  PROP_SIGNED_IN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void schedule_refresh (McpOAuthProvider *self);

/* Helpers */

static void
return_all (GPtrArray    *tasks,
            gboolean      value,
            const GError *error)
{
  for (guint i = 0; i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, value);
    }
  g_ptr_array_set_size (tasks, 0);
}

void
mcp_oauth_provider_set_tokens (McpOAuthProvider     *self,
                               const McpOAuthTokens *tokens)
{
  gboolean was_signed_in = self->tokens != NULL;

  g_clear_pointer (&self->tokens, mcp_oauth_tokens_free);
  if (tokens != NULL)
    self->tokens = mcp_oauth_tokens_copy (tokens);
  self->tokens_changed_at = g_get_monotonic_time ();

  schedule_refresh (self);

  if (was_signed_in != (self->tokens != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNED_IN]);
}

static const char *
resource_of (McpOAuthProvider *self)
{
  if (self->metadata != NULL && self->metadata->resource != NULL)
    return self->metadata->resource;
  return self->server_url;
}

/* The client to refresh with when none was stored: the configured one. */
static McpOAuthClientInfo *
client_for_refresh (McpOAuthProvider *self)
{
  McpOAuthClientInfo *client;

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
  schedule_refresh (self);
  if (self->tokens != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNED_IN]);

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

/* Refreshes self->tokens; fails when there is no refresh token. */
static void
refresh_async (McpOAuthProvider    *self,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  RefreshData *data = g_new0 (RefreshData, 1);

  g_task_set_source_tag (task, refresh_async);
  g_task_set_task_data (task, data, (GDestroyNotify) refresh_data_free);

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
                           cancellable, refreshed_cb, g_object_ref (task));
}

static gboolean
refresh_finish (McpOAuthProvider  *self,
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

  if (!refresh_finish (self, result, &error))
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
  g_clear_object (&self->refresh_cancellable);
  self->refresh_cancellable = g_cancellable_new ();
  refresh_async (self, self->refresh_cancellable, timed_refresh_cb, NULL);

  return G_SOURCE_REMOVE;
}

static void
schedule_refresh (McpOAuthProvider *self)
{
  gint64 now, delay;

  g_clear_handle_id (&self->refresh_source, g_source_remove);

  if (self->tokens == NULL || self->tokens->expires_at == 0 ||
      self->tokens->refresh_token == NULL)
    return;

  now = g_get_real_time () / G_USEC_PER_SEC;
  delay = self->tokens->expires_at - REFRESH_MARGIN_S - now;
  /* Already due: the next 401 refreshes, on the caller's cancellable. */
  if (delay <= 0)
    return;

  self->refresh_source = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT_IDLE,
                                                     (guint) MIN (delay, G_MAXUINT / 2),
                                                     refresh_timeout_cb, self, NULL);
}

/* Challenges */

typedef enum
{
  CHALLENGE_LOAD,       /* not loaded yet: try what is stored */
  CHALLENGE_CHECK_AS,   /* 401 with tokens: does the server still trust their issuer? */
  CHALLENGE_REFRESH,    /* 401 with tokens: refresh */
  CHALLENGE_SIGN_IN,    /* nothing else helps */
} ChallengeStep;

typedef struct
{
  guint     status;
  /* The tokens are newer than the request: retry with them unless their
   * authorization server is no longer the server's. */
  gboolean  fresh;
  char     *refresh_error;   /* why a refresh failed, for the message */
  char     *new_issuer;      /* the authorization server the server moved to */
} Challenge;

static void
challenge_free (Challenge *challenge)
{
  g_free (challenge->refresh_error);
  g_free (challenge->new_issuer);
  g_free (challenge);
}

static void challenge_run (GTask *task, ChallengeStep step);

static void
challenge_complete (GTask    *runner,
                    gboolean  retry,
                    GError   *error)
{
  McpOAuthProvider *self = g_task_get_source_object (runner);
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->challenge_waiters);

  /* The runner has no callback; returning only marks it done. */
  g_task_return_boolean (runner, retry);

  return_all (waiters, retry, error);
  g_clear_error (&error);
}

static void
challenge_signed_in_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);
  GError *error = NULL;

  if (!mcp_oauth_provider_sign_in_finish_internal (self, result, &error))
    {
      challenge_complete (task, FALSE, error);
      return;
    }
  challenge_complete (task, TRUE, NULL);
}

static void
challenge_refreshed_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);
  Challenge *challenge = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (refresh_finish (self, result, &error))
    {
      challenge_complete (task, TRUE, NULL);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      challenge_complete (task, FALSE, g_steal_pointer (&error));
      return;
    }

  challenge->refresh_error = g_strdup (error->message);
  challenge_run (task, CHALLENGE_SIGN_IN);
}

static void
challenge_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);
  g_autoptr(GError) error = NULL;

  mcp_oauth_provider_load_finish (self, result, &error);

  /* Stored tokens that have not expired: try them first. */
  if (self->tokens != NULL && !mcp_oauth_tokens_expire_within (self->tokens, 0))
    {
      challenge_complete (task, TRUE, NULL);
      return;
    }

  challenge_run (task, self->tokens != NULL ? CHALLENGE_CHECK_AS : CHALLENGE_SIGN_IN);
}

static void
challenge_resource_checked_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  Challenge *challenge = g_task_get_task_data (task);
  g_autoptr(McpOAuthMetadata) resource = NULL;
  g_autoptr(GError) error = NULL;
  const char *issuer = self->tokens != NULL ? self->tokens->issuer : NULL;

  resource = mcp_oauth_discover_resource_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      challenge_complete (task, FALSE, g_steal_pointer (&error));
      return;
    }
  /* No answer is no news: the refresh or the sign-in reports what fails. */
  if (resource == NULL)
    g_debug ("Asking “%s” for its resource metadata again failed: %s",
             self->server_name, error->message);

  /* The tokens' issuer is no longer among the server's authorization
   * servers (SEP-2352): neither they nor a refresh at their issuer will
   * do, and that issuer's client must not be shown to the new one. */
  if (resource != NULL && resource->authorization_servers != NULL && issuer != NULL &&
      !g_strv_contains ((const char * const *) resource->authorization_servers, issuer))
    {
      g_debug ("“%s” moved from the authorization server “%s” to “%s”",
               self->server_name, issuer, resource->authorization_servers[0]);
      challenge->new_issuer = g_strdup (resource->authorization_servers[0]);
      challenge_run (task, CHALLENGE_SIGN_IN);
      return;
    }

  if (challenge->fresh)
    challenge_complete (task, TRUE, NULL);
  else
    challenge_run (task, CHALLENGE_REFRESH);
}

static void
challenge_run (GTask         *task,
               ChallengeStep  step)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  Challenge *challenge = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  switch (step)
    {
    case CHALLENGE_LOAD:
      mcp_oauth_provider_load_async (self, cancellable, challenge_loaded_cb, g_object_ref (task));
      return;

    case CHALLENGE_CHECK_AS:
      mcp_oauth_discover_resource_async (self->session, self->server_url,
                                         self->challenge_resource_metadata, cancellable,
                                         challenge_resource_checked_cb, g_object_ref (task));
      return;

    case CHALLENGE_REFRESH:
      refresh_async (self, cancellable, challenge_refreshed_cb, g_object_ref (task));
      return;

    case CHALLENGE_SIGN_IN:
    default:
      /* A step-up for scopes the token already has would never end. */
      if (challenge->status == SOUP_STATUS_FORBIDDEN && self->tokens != NULL &&
          mcp_oauth_provider_scope_covers (self->tokens->scope, self->challenge_scope))
        {
          challenge_complete (task, FALSE,
                              g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                           _("“%s” still refuses the request for lack of scope “%s”, "
                                             "although the sign-in granted it; the server's authorization settings need a look"),
                                           self->server_name,
                                           self->challenge_scope ? self->challenge_scope : "?"));
          return;
        }

      if (self->open_url == NULL)
        {
          GError *error;

          if (challenge->status == SOUP_STATUS_FORBIDDEN)
            error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("“%s” (%s) needs more permissions (scope “%s”); sign in again to grant them"),
                                 self->server_name, self->server_url,
                                 self->challenge_scope ? self->challenge_scope : "?");
          else if (challenge->new_issuer != NULL)
            {
              g_autofree char *valid = mcp_oauth_sanitize (challenge->new_issuer);

              /* Translators: the first %s is the server's name, the second its URL,
               * the third the address of the authorization server it now uses */
              error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                   _("“%s” (%s) now uses another authorization server (%s); "
                                     "sign in again there"),
                                   self->server_name, self->server_url, valid);
            }
          else if (challenge->refresh_error != NULL)
            error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("Renewing the sign-in to “%s” (%s) failed: %s"),
                                 self->server_name, self->server_url, challenge->refresh_error);
          else
            error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("“%s” (%s) needs you to sign in"), self->server_name, self->server_url);
          challenge_complete (task, FALSE, error);
          return;
        }
      else
        {
          g_autofree char *scope = NULL;

          /* Step-up: keep what the token has, add what the server asks. */
          if (challenge->status == SOUP_STATUS_FORBIDDEN)
            scope = mcp_oauth_provider_union_scopes (self->tokens ? self->tokens->scope : NULL,
                                  self->challenge_scope);
          mcp_oauth_provider_sign_in_start (self, scope, FALSE, cancellable, challenge_signed_in_cb,
                         g_object_ref (task));
        }
      return;
    }
}

static void
mcp_oauth_provider_handle_challenge_async (McpAuthProvider     *provider,
                                           guint                status,
                                           const char          *www_authenticate,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (provider);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GTask) runner = NULL;
  Challenge *challenge;
  ChallengeStep step;

  g_task_set_source_tag (task, mcp_oauth_provider_handle_challenge_async);
  mcp_oauth_provider_remember_challenge (self, www_authenticate);

  /* Another request's challenge is being answered: share its outcome. */
  if (self->challenge_waiters != NULL)
    {
      g_ptr_array_add (self->challenge_waiters, g_steal_pointer (&task));
      return;
    }

  self->challenge_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->challenge_waiters, g_steal_pointer (&task));

  /* The challenge runs on its own task so that one waiter's cancellation
   * does not cut the others' sign-in; it is cancelled with the first. */
  runner = g_task_new (self, cancellable, NULL, NULL);
  challenge = g_new0 (Challenge, 1);
  challenge->status = status;
  /* New tokens arrived since this request was sent, most likely: retry
   * with them, unless the server has moved to another authorization
   * server, which a retry with the same tokens would never get past. */
  challenge->fresh = status == SOUP_STATUS_UNAUTHORIZED && self->tokens != NULL &&
                     self->tokens_changed_at != 0 &&
                     g_get_monotonic_time () - self->tokens_changed_at < FRESH_TOKENS_US;
  g_task_set_task_data (runner, challenge, (GDestroyNotify) challenge_free);

  if (!self->loaded)
    step = CHALLENGE_LOAD;
  else if (status == SOUP_STATUS_FORBIDDEN)
    step = CHALLENGE_SIGN_IN;
  else if (self->tokens != NULL)
    step = CHALLENGE_CHECK_AS;
  else
    step = CHALLENGE_SIGN_IN;

  /* A 403 is never answered by the stored or refreshed token. */
  if (status == SOUP_STATUS_FORBIDDEN && step == CHALLENGE_LOAD)
    step = CHALLENGE_SIGN_IN;

  challenge_run (runner, step);
}

static gboolean
mcp_oauth_provider_handle_challenge_finish (McpAuthProvider  *provider,
                                            GAsyncResult     *result,
                                            GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
mcp_oauth_provider_get_authorization (McpAuthProvider *provider)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (provider);

  if (self->tokens == NULL || self->tokens->access_token == NULL)
    return NULL;

  return g_strconcat ("Bearer ", self->tokens->access_token, NULL);
}

static void
mcp_oauth_provider_auth_iface_init (McpAuthProviderInterface *iface)
{
  iface->get_authorization = mcp_oauth_provider_get_authorization;
  iface->handle_challenge_async = mcp_oauth_provider_handle_challenge_async;
  iface->handle_challenge_finish = mcp_oauth_provider_handle_challenge_finish;
}

/* Public sign-in and sign-out */

static void
public_sign_in_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mcp_oauth_provider_sign_in_finish_internal (MCP_OAUTH_PROVIDER (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_oauth_provider_sign_in_async (McpOAuthProvider    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_provider_sign_in_async);

  mcp_oauth_provider_sign_in_start (self, NULL, self->challenge_resource_metadata == NULL,
                 cancellable, public_sign_in_cb, g_steal_pointer (&task));
}

gboolean
mcp_oauth_provider_sign_in_finish (McpOAuthProvider  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mcp_token_store_clear_finish (MCP_TOKEN_STORE (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_oauth_provider_sign_out_async (McpOAuthProvider    *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_provider_sign_out_async);

  /* Forget at once, so no request after this carries the token. */
  g_clear_pointer (&self->client, mcp_oauth_client_info_free);
  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);
  g_clear_pointer (&self->challenge_resource_metadata, g_free);
  g_clear_pointer (&self->challenge_scope, g_free);
  g_cancellable_cancel (self->refresh_cancellable);
  self->loaded = TRUE;
  mcp_oauth_provider_set_tokens (self, NULL);

  mcp_token_store_clear_async (self->store, self->server_name, self->server_url,
                               cancellable, cleared_cb, g_steal_pointer (&task));
}

gboolean
mcp_oauth_provider_sign_out_finish (McpOAuthProvider  *self,
                                    GAsyncResult      *result,
                                    GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Object */

static void
mcp_oauth_provider_finalize (GObject *object)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);

  g_assert (self->challenge_waiters == NULL);
  g_assert (self->load_waiters == NULL);

  g_clear_handle_id (&self->refresh_source, g_source_remove);
  g_cancellable_cancel (self->refresh_cancellable);
  g_clear_object (&self->refresh_cancellable);

  if (self->open_url_destroy != NULL)
    self->open_url_destroy (self->open_url_data);

  g_free (self->server_name);
  g_free (self->server_url);
  g_clear_pointer (&self->config, json_object_unref);
  g_clear_object (&self->store);
  g_clear_object (&self->session);
  g_free (self->config_client_id);
  g_free (self->client_metadata_url);
  g_free (self->auth_server_metadata_url);
  g_strfreev (self->config_scopes);
  g_free (self->client_secret);
  g_clear_pointer (&self->tokens, mcp_oauth_tokens_free);
  g_clear_pointer (&self->client, mcp_oauth_client_info_free);
  g_free (self->challenge_resource_metadata);
  g_free (self->challenge_scope);
  g_clear_pointer (&self->metadata, mcp_oauth_metadata_free);

  G_OBJECT_CLASS (mcp_oauth_provider_parent_class)->finalize (object);
}

static void
mcp_oauth_provider_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->server_name);
      break;
    case PROP_SERVER_URL:
      g_value_set_string (value, self->server_url);
      break;
    case PROP_SIGNED_IN:
      g_value_set_boolean (value, self->tokens != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_oauth_provider_class_init (McpOAuthProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_oauth_provider_finalize;
  object_class->get_property = mcp_oauth_provider_get_property;

  properties[PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVER_URL] =
    g_param_spec_string ("server-url", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIGNED_IN] =
    g_param_spec_boolean ("signed-in", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_oauth_provider_init (McpOAuthProvider *self)
{
  self->callback_timeout_s = DEFAULT_CALLBACK_TIMEOUT_S;
  self->refresh_cancellable = g_cancellable_new ();
}

static char *
config_string (JsonObject *config,
               const char *name)
{
  JsonNode *node;

  if (config == NULL)
    return NULL;
  node = json_object_get_member (config, name);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return g_strdup (json_node_get_string (node));
}

McpOAuthProvider *
mcp_oauth_provider_new (const char    *server_name,
                        const char    *server_url,
                        JsonObject    *oauth_config,
                        McpTokenStore *store)
{
  McpOAuthProvider *self;
  JsonNode *node;

  g_return_val_if_fail (server_name != NULL, NULL);
  g_return_val_if_fail (server_url != NULL, NULL);
  g_return_val_if_fail (!store || MCP_IS_TOKEN_STORE (store), NULL);

  self = g_object_new (MCP_TYPE_OAUTH_PROVIDER, NULL);
  self->server_name = g_strdup (server_name);
  self->server_url = g_strdup (server_url);
  self->store = store != NULL ? g_object_ref (store) : g_object_ref (mcp_token_store_get_default ());

  /* Every request of the sign-in is short: the session's timeout bounds
   * each (the metadata, registration and token requests, the probe). */
  self->session = mcp_http_session_new (server_url);
  g_object_set (self->session, "timeout", PROBE_TIMEOUT_S, NULL);

  if (oauth_config != NULL)
    {
      self->config = json_object_ref (oauth_config);
      self->config_client_id = config_string (oauth_config, "clientId");
      self->client_metadata_url = config_string (oauth_config, "clientMetadataUrl");
      self->auth_server_metadata_url = config_string (oauth_config, "authServerMetadataUrl");

      node = json_object_get_member (oauth_config, "callbackPort");
      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
          json_node_get_value_type (node) == G_TYPE_INT64 &&
          json_node_get_int (node) > 0 && json_node_get_int (node) <= 65535)
        self->callback_port = (guint) json_node_get_int (node);

      node = json_object_get_member (oauth_config, "scopes");
      if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              JsonNode *element = json_array_get_element (array, i);

              if (JSON_NODE_HOLDS_VALUE (element) &&
                  json_node_get_value_type (element) == G_TYPE_STRING)
                g_strv_builder_add (builder, json_node_get_string (element));
            }
          self->config_scopes = g_strv_builder_end (builder);
        }
    }

  return self;
}

const char *
mcp_oauth_provider_get_server_url (McpOAuthProvider *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), NULL);

  return self->server_url;
}

void
mcp_oauth_provider_set_open_url_func (McpOAuthProvider    *self,
                                      McpOAuthOpenUrlFunc  func,
                                      gpointer             user_data,
                                      GDestroyNotify       destroy)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  if (self->open_url_destroy != NULL)
    self->open_url_destroy (self->open_url_data);
  self->open_url = func;
  self->open_url_data = user_data;
  self->open_url_destroy = destroy;
}

void
mcp_oauth_provider_set_client_secret (McpOAuthProvider *self,
                                      const char       *secret)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  g_free (self->client_secret);
  self->client_secret = g_strdup (secret);
}

void
mcp_oauth_provider_set_callback_timeout (McpOAuthProvider *self,
                                         guint             seconds)
{
  g_return_if_fail (MCP_IS_OAUTH_PROVIDER (self));

  self->callback_timeout_s = seconds;
}

gboolean
mcp_oauth_provider_get_signed_in (McpOAuthProvider *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_PROVIDER (self), FALSE);

  return self->tokens != NULL;
}
