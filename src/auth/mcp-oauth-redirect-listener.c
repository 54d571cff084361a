/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-redirect-listener"

#include "config.h"

#include "mcp-oauth-redirect-listener.h"

#include <glib/gi18n-lib.h>

#include "mcp-error.h"
#include "mcp-oauth-redirect-listener-private.h"

/* McpOAuthRedirectListener: the loopback server and the wait for the
 * sign-in's answer. What it answers, and the page the browser shows, are
 * in mcp-oauth-redirect-listener-page.c. */

static void
outcome_free (Outcome *outcome)
{
  g_free (outcome->code);
  g_free (outcome->iss);
  g_free (outcome);
}

G_DEFINE_FINAL_TYPE (McpOAuthRedirectListener, mcp_oauth_redirect_listener, G_TYPE_OBJECT)

static void
stop_server (McpOAuthRedirectListener *self)
{
  if (self->server == NULL)
    return;

  g_debug ("Redirect listener on port %u stops", self->port);
  soup_server_disconnect (self->server);
  g_clear_object (&self->server);
}

static void
clear_wait_sources (McpOAuthRedirectListener *self)
{
  if (self->timeout_source != NULL)
    {
      g_source_destroy (self->timeout_source);
      g_clear_pointer (&self->timeout_source, g_source_unref);
    }

  if (self->cancel_source != NULL)
    {
      g_source_destroy (self->cancel_source);
      g_clear_pointer (&self->cancel_source, g_source_unref);
    }
}

/* The held page, if any, says the sign-in stopped; no answer is awaited. */
static void
stop_answering (McpOAuthRedirectListener *self)
{
  if (self->stop_source != NULL)
    {
      g_source_destroy (self->stop_source);
      g_clear_pointer (&self->stop_source, g_source_unref);
    }
  mcp_oauth_redirect_listener_release_held (self, SOUP_STATUS_OK, _("Sign-in stopped"),
                                            _("Plugboard stopped this sign-in before it finished. "
                                              "Try signing in again from Plugboard."));
  mcp_oauth_redirect_listener_end_answer (self);
}

/* Ends the wait, if any, with @error (taken) or the outcome. */
void
mcp_oauth_redirect_listener_finish_wait (McpOAuthRedirectListener *self,
                                         GError                   *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  clear_wait_sources (self);
  /* A held page still has to go out; the server stops once it has. */
  if (self->held == NULL && self->answering == NULL)
    stop_server (self);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  if (error != NULL)
    g_task_return_error (task, error);
  else if (self->error != NULL)
    g_task_return_error (task, g_error_copy (self->error));
  else
    g_task_return_pointer (task, g_steal_pointer (&self->outcome), (GDestroyNotify) outcome_free);
}

static void
mcp_oauth_redirect_listener_dispose (GObject *object)
{
  McpOAuthRedirectListener *self = MCP_OAUTH_REDIRECT_LISTENER (object);

  clear_wait_sources (self);
  stop_answering (self);
  stop_server (self);

  G_OBJECT_CLASS (mcp_oauth_redirect_listener_parent_class)->dispose (object);
}

static void
mcp_oauth_redirect_listener_finalize (GObject *object)
{
  McpOAuthRedirectListener *self = MCP_OAUTH_REDIRECT_LISTENER (object);

  g_clear_pointer (&self->expected_state, g_free);
  g_clear_pointer (&self->expected_issuer, g_free);
  g_clear_pointer (&self->redirect_uri, g_free);
  g_clear_pointer (&self->outcome, outcome_free);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (mcp_oauth_redirect_listener_parent_class)->finalize (object);
}

static void
mcp_oauth_redirect_listener_class_init (McpOAuthRedirectListenerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_oauth_redirect_listener_dispose;
  object_class->finalize = mcp_oauth_redirect_listener_finalize;
}

static void
mcp_oauth_redirect_listener_init (McpOAuthRedirectListener *self)
{
}

/* Public API */

McpOAuthRedirectListener *
mcp_oauth_redirect_listener_new (guint        port,
                                 const char  *expected_state,
                                 GError     **error)
{
  g_autoptr(McpOAuthRedirectListener) self = NULL;
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GError) local_error = NULL;
  GSList *uris;

  g_return_val_if_fail (port <= G_MAXUINT16, NULL);
  g_return_val_if_fail (expected_state != NULL && *expected_state != '\0', NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (MCP_TYPE_OAUTH_REDIRECT_LISTENER, NULL);
  self->expected_state = g_strdup (expected_state);
  self->server = soup_server_new ("server-header", "Plugboard ", NULL);
  soup_server_add_handler (self->server, CALLBACK_PATH,
                           mcp_oauth_redirect_listener_handle_callback, self, NULL);

  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, port);

  if (!soup_server_listen (self->server, address, 0, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE,
                     _("Port %u on 127.0.0.1 is already in use, so the sign-in cannot receive "
                       "its answer there; close the program using it or choose another port"),
                     port);
      else
        g_set_error (error, local_error->domain, local_error->code,
                     _("Could not listen on 127.0.0.1 port %u for the sign-in answer: %s"),
                     port, local_error->message);
      return NULL;
    }

  uris = soup_server_get_uris (self->server);
  if (uris != NULL)
    self->port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  if (self->port == 0 || self->port > G_MAXUINT16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not learn which port on 127.0.0.1 the sign-in listener got"));
      return NULL;
    }

  self->redirect_uri = g_strdup_printf ("http://127.0.0.1:%u" CALLBACK_PATH, self->port);
  g_debug ("Redirect listener on %s", self->redirect_uri);

  return g_steal_pointer (&self);
}

guint
mcp_oauth_redirect_listener_get_port (McpOAuthRedirectListener *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_REDIRECT_LISTENER (self), 0);

  return self->port;
}

const char *
mcp_oauth_redirect_listener_get_redirect_uri (McpOAuthRedirectListener *self)
{
  g_return_val_if_fail (MCP_IS_OAUTH_REDIRECT_LISTENER (self), NULL);

  return self->redirect_uri;
}

void
mcp_oauth_redirect_listener_expect_issuer (McpOAuthRedirectListener *self,
                                           const char               *issuer,
                                           gboolean                  required)
{
  g_return_if_fail (MCP_IS_OAUTH_REDIRECT_LISTENER (self));
  g_return_if_fail (issuer != NULL || !required);

  g_free (self->expected_issuer);
  self->expected_issuer = g_strdup (issuer);
  self->issuer_required = required;
}

static gboolean
wait_timeout_cb (gpointer user_data)
{
  McpOAuthRedirectListener *self = user_data;

  g_clear_pointer (&self->timeout_source, g_source_unref);

  /* The answer arrived and is on its way out: let it finish. */
  if (self->matched)
    return G_SOURCE_REMOVE;

  if (self->refused > 0)
    /* Say so: a stale tab or another sign-in's answer is worth knowing about. */
    mcp_oauth_redirect_listener_finish_wait (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                                                g_dngettext (GETTEXT_PACKAGE,
                                                                             "No answer from the browser within %u s; sign-in was abandoned "
                                                                             "(%u answer whose state did not match this sign-in was refused)",
                                                                             "No answer from the browser within %u s; sign-in was abandoned "
                                                                             "(%u answers whose state did not match this sign-in were refused)",
                                                                             self->refused),
                                                                self->timeout_s, self->refused));
  else
    mcp_oauth_redirect_listener_finish_wait (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                                                _("No answer from the browser within %u s; sign-in was abandoned"),
                                                                self->timeout_s));
  return G_SOURCE_REMOVE;
}

static gboolean
wait_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  McpOAuthRedirectListener *self = user_data;
  GError *error = NULL;

  g_clear_pointer (&self->cancel_source, g_source_unref);
  g_cancellable_set_error_if_cancelled (cancellable, &error);
  mcp_oauth_redirect_listener_finish_wait (self, error);

  return G_SOURCE_REMOVE;
}

void
mcp_oauth_redirect_listener_wait_async (McpOAuthRedirectListener *self,
                                        guint                     timeout_s,
                                        GCancellable             *cancellable,
                                        GAsyncReadyCallback       callback,
                                        gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_OAUTH_REDIRECT_LISTENER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_redirect_listener_wait_async);

  if (self->task != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("Plugboard is already waiting for this sign-in's answer"));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    {
      stop_server (self);
      return;
    }

  if (self->held != NULL && self->outcome != NULL)
    {
      /* The code came before anyone waited for it; its page is held. */
      self->task = g_steal_pointer (&task);
      mcp_oauth_redirect_listener_finish_wait (self, NULL);
      return;
    }

  if (self->server == NULL && self->stop_source == NULL)
    {
      if (self->matched && (self->outcome != NULL || self->error != NULL))
        {
          /* The answer came before anyone waited for it. */
          self->task = g_steal_pointer (&task);
          mcp_oauth_redirect_listener_finish_wait (self, NULL);
        }
      else
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                                   _("The sign-in listener has already stopped; start the sign-in again"));
        }
      return;
    }

  self->task = g_steal_pointer (&task);
  self->timeout_s = timeout_s;

  if (timeout_s > 0)
    {
      self->timeout_source = g_timeout_source_new_seconds (timeout_s);
      g_source_set_callback (self->timeout_source, wait_timeout_cb, self, NULL);
      g_source_set_static_name (self->timeout_source, "[plugboard] redirect listener timeout");
      g_source_attach (self->timeout_source, g_main_context_get_thread_default ());
    }

  if (cancellable != NULL)
    {
      self->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancel_source, G_SOURCE_FUNC (wait_cancelled_cb), self, NULL);
      g_source_attach (self->cancel_source, g_main_context_get_thread_default ());
    }
}

char *
mcp_oauth_redirect_listener_wait_finish (McpOAuthRedirectListener  *self,
                                         GAsyncResult              *result,
                                         char                     **iss,
                                         GError                   **error)
{
  g_autoptr(GError) local_error = NULL;
  Outcome *outcome;
  char *code;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_redirect_listener_wait_async, NULL);

  if (iss != NULL)
    *iss = NULL;

  outcome = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (outcome == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  code = g_steal_pointer (&outcome->code);
  if (iss != NULL)
    *iss = g_steal_pointer (&outcome->iss);
  outcome_free (outcome);

  return code;
}

void
mcp_oauth_redirect_listener_stop (McpOAuthRedirectListener *self)
{
  g_return_if_fail (MCP_IS_OAUTH_REDIRECT_LISTENER (self));

  stop_answering (self);

  if (self->task != NULL && !self->matched)
    mcp_oauth_redirect_listener_finish_wait (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                                        _("The sign-in was stopped before the browser answered")));
  else
    mcp_oauth_redirect_listener_finish_wait (self, NULL);
}

