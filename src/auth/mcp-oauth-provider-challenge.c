/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-tokens.h"

#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider as McpAuthProvider: a 401 or 403 answered once for
 * every request that met it, by what is stored, a check that the server
 * still trusts the tokens' issuer, a refresh, or a sign-in. */

/* Every waiter gets the same answer. */
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
challenge_granted_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = MCP_OAUTH_PROVIDER (object);
  GError *error = NULL;

  if (!mcp_oauth_provider_grant_finish (self, result, &error))
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

  if (mcp_oauth_provider_refresh_finish (self, result, &error))
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
      mcp_oauth_provider_refresh_async (self, cancellable, challenge_refreshed_cb, g_object_ref (task));
      return;

    case CHALLENGE_SIGN_IN:
    default:
      /* A step-up for scopes the token already has would never end. */
      if (challenge->status == SOUP_STATUS_FORBIDDEN && self->tokens != NULL &&
          mcp_oauth_provider_scope_covers (self->tokens->scope, self->challenge_scope))
        {
          GError *error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                       _("“%s” still refuses the request for lack of scope “%s”, "
                                         "although the sign-in granted it; the server's authorization settings need a look"),
                                       self->server_name,
                                       self->challenge_scope ? self->challenge_scope : "?");

          mcp_oauth_trace_step (self->session, NULL, "step-up", MCP_TRACE_STEP_FAILED, "%s", error->message);
          challenge_complete (task, FALSE, error);
          return;
        }

      /* A grant without a browser (client_credentials, jwt_bearer,
       * enterprise) runs whether or not a person is there to sign in. */
      if (mcp_oauth_provider_uses_grant (self))
        {
          g_autofree char *scope = NULL;

          if (challenge->status == SOUP_STATUS_FORBIDDEN)
            scope = mcp_oauth_provider_union_scopes (self->tokens ? self->tokens->scope : NULL,
                                                     self->challenge_scope);
          mcp_oauth_provider_grant_start (self, scope, cancellable, challenge_granted_cb, g_object_ref (task));
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
            {
              scope = mcp_oauth_provider_union_scopes (self->tokens ? self->tokens->scope : NULL,
                                                       self->challenge_scope);
              /* Translators: the first %s is the scope the server asked for, the second all
               * the scopes the new sign-in asks for */
              mcp_oauth_trace_step (self->session, NULL, "step-up", MCP_TRACE_STEP_INFO,
                                    _("The server wants scope “%s” (insufficient_scope): signing in again for “%s”"),
                                    self->challenge_scope ? self->challenge_scope : "",
                                    scope ? scope : "");
            }
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

  /* A resource server's use_dpop_nonce with a new nonce: retry at once. */
  if (mcp_oauth_provider_dpop_nonce_challenge (self, status, www_authenticate))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  mcp_oauth_provider_remember_challenge (self, www_authenticate);
  mcp_oauth_provider_trace_challenge (self, NULL, status, www_authenticate);

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

void
mcp_oauth_provider_auth_iface_init (McpAuthProviderInterface *iface)
{
  iface->get_authorization = mcp_oauth_provider_get_authorization;
  iface->handle_challenge_async = mcp_oauth_provider_handle_challenge_async;
  iface->handle_challenge_finish = mcp_oauth_provider_handle_challenge_finish;
  iface->authorize_message = mcp_oauth_provider_authorize_message;
  iface->message_answered = mcp_oauth_provider_message_answered;
}
