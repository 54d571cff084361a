/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-needs-auth-cache.h"

/* OAuth of a remote server: its provider (made from the expanded
 * settings, kept across reconnects), the needs-auth state and its cache,
 * and what a sign-in and a sign-out change. */

gboolean
mcp_server_connection_kind_has_oauth (McpTransportKind kind)
{
  return kind == MCP_TRANSPORT_KIND_HTTP ||
         kind == MCP_TRANSPORT_KIND_SSE ||
         kind == MCP_TRANSPORT_KIND_WS;
}

/* The URL without user info, query or fragment: what identifies the server
 * in the needs-auth cache file without writing a secret there. */
static char *
url_for_cache_key (const char *url)
{
  g_autofree char *text = g_strndup (url, strcspn (url, "?#"));
  const char *scheme_end = strstr (text, "://");

  if (scheme_end != NULL)
    {
      const char *host = scheme_end + 3;
      const char *path = host + strcspn (host, "/");
      const char *at = memchr (host, '@', path - host);

      if (at != NULL)
        return g_strdup_printf ("%.*s%s", (int) (host - text), text, at + 1);
    }

  return g_steal_pointer (&text);
}

char *
mcp_server_connection_make_needs_auth_key (McpServerConfig *config)
{
  g_autofree char *url = NULL;

  if (!mcp_server_connection_kind_has_oauth (mcp_server_config_get_transport (config)) ||
      mcp_server_config_get_url (config) == NULL)
    return NULL;

  url = url_for_cache_key (mcp_server_config_get_url (config));
  return g_strdup_printf ("%s %s", mcp_server_config_get_name (config), url);
}

/* The provider for @expanded (the config with ${VAR} expanded): the one we
 * have while the URL stays the same, else a new one. */
McpOAuthProvider *
mcp_server_connection_ensure_oauth_provider (McpServerConnection *self,
                                             McpServerConfig     *expanded)
{
  const char *url = mcp_server_config_get_url (expanded);

  if (!mcp_server_connection_kind_has_oauth (mcp_server_config_get_transport (expanded)) ||
      url == NULL)
    return NULL;

  if (self->oauth_provider != NULL &&
      g_strcmp0 (mcp_oauth_provider_get_server_url (self->oauth_provider), url) == 0)
    return self->oauth_provider;

  g_clear_object (&self->oauth_provider);
  self->oauth_provider = mcp_oauth_provider_new (mcp_server_config_get_name (expanded), url,
                                                 mcp_server_config_get_oauth (expanded),
                                                 self->token_store);
  mcp_oauth_provider_set_request_timeout (self->oauth_provider, self->oauth_request_timeout);
  mcp_oauth_provider_set_trace (self->oauth_provider, self->trace);
  return self->oauth_provider;
}

gboolean
mcp_server_connection_has_oauth (McpServerConnection *self)
{
  return self->needs_auth_key != NULL;
}

gboolean
mcp_server_connection_answer_needs_auth (McpServerConnection *self,
                                         GTask               *task)
{
  /* Asking again within the 15 minutes would only get the same 401. */
  if (self->state == MCP_SERVER_STATE_NEEDS_AUTH &&
      g_get_monotonic_time () < self->needs_auth_until &&
      self->error != NULL)
    {
      g_task_return_error (task, g_error_copy (self->error));
      return TRUE;
    }

  /* The same, remembered by another process or an earlier start. */
  if (mcp_server_connection_has_oauth (self))
    {
      gint64 remaining = mcp_needs_auth_cache_remaining (self->needs_auth_cache_path,
                                                         self->needs_auth_key);

      if (remaining > 0)
        {
          guint minutes = (guint) ((remaining + 59) / 60);
          g_autoptr(GError) error = NULL;

          error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               /* Translators: %s is the server's name, %u a number of minutes */
                               g_dngettext (NULL, "Sign-in is needed for “%s”: it asked for authorization "
                                            "recently; it will be tried again in %u minute, or after signing in",
                                            "Sign-in is needed for “%s”: it asked for authorization "
                                            "recently; it will be tried again in %u minutes, or after signing in",
                                            minutes),
                               mcp_server_config_get_name (self->config), minutes);
          self->needs_auth_until = g_get_monotonic_time () + remaining * G_TIME_SPAN_SECOND;
          mcp_server_connection_set_state (self, MCP_SERVER_STATE_NEEDS_AUTH, error);
          g_task_return_error (task, g_steal_pointer (&error));
          return TRUE;
        }
    }

  return FALSE;
}

McpOAuthProvider *
mcp_server_connection_get_oauth_provider (McpServerConnection *self)
{
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  if (!mcp_server_connection_has_oauth (self))
    return NULL;

  expanded = mcp_server_config_expand (self->config,
                                       (const char * const *) self->environ, &error);
  if (expanded == NULL)
    {
      g_debug ("“%s”: %s", mcp_server_config_get_name (self->config), error->message);
      return self->oauth_provider;
    }

  return mcp_server_connection_ensure_oauth_provider (self, expanded);
}

void
mcp_server_connection_set_token_store (McpServerConnection *self,
                                       McpTokenStore       *store)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (store == NULL || MCP_IS_TOKEN_STORE (store));

  g_set_object (&self->token_store, store);
}

void
mcp_server_connection_set_needs_auth_cache_path (McpServerConnection *self,
                                                 const char          *path)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  g_free (self->needs_auth_cache_path);
  self->needs_auth_cache_path = g_strdup (path);
}

const char *
mcp_server_connection_get_needs_auth_key (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->needs_auth_key;
}

gboolean
mcp_server_connection_get_signing_in (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return self->signing_in;
}

void
mcp_server_connection_set_signing_in (McpServerConnection *self,
                                      gboolean             signing_in)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->signing_in == !!signing_in)
    return;

  self->signing_in = !!signing_in;
  if (signing_in)
    return;

  self->needs_auth_until = 0;
  if (self->waiters->len > 0 && self->attempt_cancellable == NULL && !self->disabled)
    mcp_server_connection_start_attempt (self);
}

void
mcp_server_connection_set_signed_out (McpServerConnection *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->disabled)
    return;

  error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                       _("Signed out of “%s”: sign in to use it again"),
                       mcp_server_config_get_name (self->config));
  self->needs_auth_until = 0;
  mcp_server_connection_set_state (self, MCP_SERVER_STATE_NEEDS_AUTH, error);
}
