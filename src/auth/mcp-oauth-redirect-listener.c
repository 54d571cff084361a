/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-redirect-listener"

#include "config.h"

#include "mcp-oauth-redirect-listener.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "mcp-error.h"
#include "mcp-oauth-private.h"

#define CALLBACK_PATH "/callback"
/* How long the browser's page waits for the token exchange and storage
 * before it says to look in Plugboard instead. */
#define HOLD_TIMEOUT_S 90
/* How long mcp_oauth_redirect_listener_answer_async() waits for the page
 * to reach the browser. */
#define ANSWER_TIMEOUT_MS 5000

typedef struct
{
  char *code;
  char *iss;
} Outcome;

static void
outcome_free (Outcome *outcome)
{
  g_free (outcome->code);
  g_free (outcome->iss);
  g_free (outcome);
}

struct _McpOAuthRedirectListener
{
  GObject     parent_instance;

  guint       port;
  guint       timeout_s;
  guint       refused;         /* callbacks with another state */

  /* owned */
  SoupServer *server;
  char       *expected_state;
  char       *expected_issuer; /* RFC 9207; NULL: "iss" is not checked */
  char       *redirect_uri;
  GTask      *task;            /* the wait in progress */
  GSource    *timeout_source;
  GSource    *cancel_source;
  GSource    *stop_source;     /* stops the server once the answer is sent */
  Outcome    *outcome;         /* the matching callback's code and iss */
  GError     *error;           /* or what it said went wrong */
  /* The matching callback with a code, paused until the sign-in is
   * finished (or HOLD_TIMEOUT_S passed): its page tells how it ended. */
  SoupServerMessage *held;
  GSource    *hold_source;
  /* The page is on its way: mcp_oauth_redirect_listener_answer_async(). */
  SoupServerMessage *answering;
  GTask      *answer_task;
  GSource    *answer_source;

  guint       matched : 1;
  guint       issuer_required : 1;
};

G_DEFINE_FINAL_TYPE (McpOAuthRedirectListener, mcp_oauth_redirect_listener, G_TYPE_OBJECT)

static void release_held (McpOAuthRedirectListener *self,
                          guint                     status,
                          const char               *heading,
                          const char               *text);
static void end_answer   (McpOAuthRedirectListener *self);

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

/* Ends the wait, if any, with @error (taken) or the outcome. */
static void
finish_wait (McpOAuthRedirectListener *self,
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
  if (self->stop_source != NULL)
    {
      g_source_destroy (self->stop_source);
      g_clear_pointer (&self->stop_source, g_source_unref);
    }
  release_held (self, SOUP_STATUS_OK, _("Sign-in stopped"),
                _("Plugboard stopped this sign-in before it finished. Try signing in again from Plugboard."));
  end_answer (self);
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

/* The page the browser shows */

static void
respond_page (SoupServerMessage *msg,
              guint              status,
              const char        *heading,
              const char        *text)
{
  g_autofree char *escaped_heading = g_markup_escape_text (heading, -1);
  g_autofree char *escaped_text = g_markup_escape_text (text, -1);
  g_autofree char *escaped_close = g_markup_escape_text (_("You can close this tab."), -1);
  g_autofree char *page = NULL;
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  page = g_strdup_printf ("<!DOCTYPE html>\n"
                          "<html>\n"
                          "<head>\n"
                          "<meta charset=\"utf-8\">\n"
                          "<title>Plugboard</title>\n"
                          "<style>body { font-family: sans-serif; max-width: 36em; margin: 4em auto; "
                          "padding: 0 1em; text-align: center; }</style>\n"
                          "</head>\n"
                          "<body>\n"
                          "<h1>%s</h1>\n"
                          "<p>%s</p>\n"
                          "<p>%s</p>\n"
                          "</body>\n"
                          "</html>\n",
                          escaped_heading, escaped_text, escaped_close);

  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_message_headers_replace (headers, "Referrer-Policy", "no-referrer");
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_COPY,
                                    page, strlen (page));
}

static gboolean
stop_after_answer_cb (gpointer user_data)
{
  McpOAuthRedirectListener *self = user_data;

  g_clear_pointer (&self->stop_source, g_source_unref);
  end_answer (self);
  finish_wait (self, NULL);

  return G_SOURCE_REMOVE;
}

/* The answer to the matching callback has gone out (or the browser went
 * away): only now may the server go. */
static void
answer_finished_cb (SoupServerMessage        *msg,
                    McpOAuthRedirectListener *self)
{
  if (msg == self->held)
    {
      /* The browser went away before the sign-in finished. */
      g_clear_object (&self->held);
      if (self->hold_source != NULL)
        {
          g_source_destroy (self->hold_source);
          g_clear_pointer (&self->hold_source, g_source_unref);
        }
    }
  /* The answer's waiter hears of it from the idle below: its callback may
   * stop the server, which must not happen while @msg emits this signal. */
  if (self->stop_source != NULL)
    return;

  self->stop_source = g_idle_source_new ();
  g_source_set_callback (self->stop_source, stop_after_answer_cb,
                         g_object_ref (self), g_object_unref);
  g_source_set_static_name (self->stop_source, "[plugboard] redirect listener stop");
  g_source_attach (self->stop_source, g_main_context_get_thread_default ());
}

/* Answers the held page, if any, and lets it go. */
static void
release_held (McpOAuthRedirectListener *self,
              guint                     status,
              const char               *heading,
              const char               *text)
{
  g_autoptr(SoupServerMessage) msg = g_steal_pointer (&self->held);

  if (self->hold_source != NULL)
    {
      g_source_destroy (self->hold_source);
      g_clear_pointer (&self->hold_source, g_source_unref);
    }

  if (msg == NULL)
    return;

  respond_page (msg, status, heading, text);
  g_set_object (&self->answering, msg);
  soup_server_message_unpause (msg);
}

static gboolean
hold_timeout_cb (gpointer user_data)
{
  McpOAuthRedirectListener *self = user_data;

  g_clear_pointer (&self->hold_source, g_source_unref);
  release_held (self, SOUP_STATUS_OK, _("Still signing in"),
                _("Plugboard has received the answer but has not finished signing in yet. "
                  "Look in Plugboard to see whether it succeeded."));

  return G_SOURCE_REMOVE;
}

/* The page has gone out, the browser went away, or it took too long. */
static void
end_answer (McpOAuthRedirectListener *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->answer_task);

  g_clear_object (&self->answering);
  if (self->answer_source != NULL)
    {
      g_source_destroy (self->answer_source);
      g_clear_pointer (&self->answer_source, g_source_unref);
    }

  if (task != NULL)
    g_task_return_boolean (task, TRUE);
}

static void
callback_handler (SoupServer        *server,
                  SoupServerMessage *msg,
                  const char        *path,
                  GHashTable        *query,
                  gpointer           user_data)
{
  McpOAuthRedirectListener *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  const char *state;
  const char *error_code;
  const char *code;
  const char *iss;

  if (!g_str_equal (path, CALLBACK_PATH))
    {
      respond_page (msg, SOUP_STATUS_NOT_FOUND, _("Not found"),
                    _("This address only receives sign-in answers for Plugboard."));
      return;
    }

  if (method != SOUP_METHOD_GET && method != SOUP_METHOD_HEAD)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow", "GET, HEAD");
      return;
    }

  if (self->matched)
    {
      respond_page (msg, SOUP_STATUS_BAD_REQUEST, _("Sign-in already finished"),
                    _("Plugboard has already received the answer to this sign-in."));
      return;
    }

  state = query != NULL ? g_hash_table_lookup (query, "state") : NULL;
  if (g_strcmp0 (state, self->expected_state) != 0)
    {
      g_debug ("Redirect listener on port %u: a callback with %s state; still waiting",
               self->port, state == NULL ? "no" : "another");
      self->refused++;
      respond_page (msg, SOUP_STATUS_BAD_REQUEST, _("Not this sign-in"),
                    _("This answer does not belong to the sign-in Plugboard is waiting for. "
                      "If you started a sign-in, finish it in the tab Plugboard opened, or start it again."));
      return;
    }

  self->matched = TRUE;
  error_code = g_hash_table_lookup (query, "error");
  code = g_hash_table_lookup (query, "code");
  iss = g_hash_table_lookup (query, "iss");

  /* RFC 9207 §2.4 before anything else, error answers included: an answer
   * from another authorization server (a mix-up attack) must not be acted
   * on, nor its error shown. Simple string comparison, no normalization. */
  if (self->expected_issuer != NULL && iss != NULL && !g_str_equal (iss, self->expected_issuer))
    {
      g_autofree char *valid = mcp_oauth_sanitize (iss);

      /* Translators: the first %s is the issuer the answer named, the second the one expected */
      self->error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The sign-in answer names “%s” as its issuer, not the authorization "
                                   "server “%s” that Plugboard asked; the answer was refused"),
                                 valid, self->expected_issuer);
      respond_page (msg, SOUP_STATUS_OK, _("Sign-in refused"),
                    _("This answer did not come from the authorization server Plugboard asked. "
                      "Try signing in again from Plugboard."));
    }
  else if (self->expected_issuer != NULL && iss == NULL && self->issuer_required)
    {
      /* Translators: %s is the authorization server's address */
      self->error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The sign-in answer does not name its issuer, although the authorization "
                                   "server “%s” says it always does (“iss”); the answer was refused"),
                                 self->expected_issuer);
      respond_page (msg, SOUP_STATUS_OK, _("Sign-in refused"),
                    _("This answer does not name the authorization server it came from, although that "
                      "server promises to. Try signing in again from Plugboard."));
    }
  else if (error_code != NULL)
    {
      const char *description = g_hash_table_lookup (query, "error_description");
      g_autofree char *text = NULL;

      if (description != NULL)
        text = g_strdup_printf ("%s: %s", error_code, description);
      else
        text = g_strdup (error_code);

      /* Translators: %s is the OAuth error code the server sent, with its description */
      self->error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The authorization server did not complete the sign-in (%s); "
                                   "try signing in again"),
                                 text);
      respond_page (msg, SOUP_STATUS_OK, _("Sign-in failed"), text);
    }
  else if (code == NULL || *code == '\0')
    {
      /* Translators: %s is the local address the browser was sent back to */
      self->error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("The authorization server answered %s without an authorization code; "
                                   "try signing in again"),
                                 self->redirect_uri);
      respond_page (msg, SOUP_STATUS_OK, _("Sign-in failed"),
                    _("The authorization server sent no authorization code. Try signing in again from Plugboard."));
    }
  else
    {
      self->outcome = g_new0 (Outcome, 1);
      self->outcome->code = g_strdup (code);
      self->outcome->iss = g_strdup (iss);

      /* "Signed in" only once the code has become stored tokens: the page
       * waits for mcp_oauth_redirect_listener_answer_async(). */
      self->held = g_object_ref (msg);
      soup_server_message_pause (msg);
      self->hold_source = g_timeout_source_new_seconds (HOLD_TIMEOUT_S);
      g_source_set_callback (self->hold_source, hold_timeout_cb, self, NULL);
      g_source_set_static_name (self->hold_source, "[plugboard] redirect listener hold");
      g_source_attach (self->hold_source, g_main_context_get_thread_default ());
      g_signal_connect_object (msg, "finished", G_CALLBACK (answer_finished_cb), self, 0);

      /* The code goes to whoever waits now; the server stays for the page. */
      if (self->task != NULL)
        finish_wait (self, NULL);
      return;
    }

  g_signal_connect_object (msg, "finished", G_CALLBACK (answer_finished_cb), self, 0);
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
  soup_server_add_handler (self->server, CALLBACK_PATH, callback_handler, self, NULL);

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
    finish_wait (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                    g_dngettext (GETTEXT_PACKAGE,
                                                 "No answer from the browser within %u s; sign-in was abandoned "
                                                 "(%u answer whose state did not match this sign-in was refused)",
                                                 "No answer from the browser within %u s; sign-in was abandoned "
                                                 "(%u answers whose state did not match this sign-in were refused)",
                                                 self->refused),
                                    self->timeout_s, self->refused));
  else
    finish_wait (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
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
  finish_wait (self, error);

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
      finish_wait (self, NULL);
      return;
    }

  if (self->server == NULL && self->stop_source == NULL)
    {
      if (self->matched && (self->outcome != NULL || self->error != NULL))
        {
          /* The answer came before anyone waited for it. */
          self->task = g_steal_pointer (&task);
          finish_wait (self, NULL);
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

  if (self->stop_source != NULL)
    {
      g_source_destroy (self->stop_source);
      g_clear_pointer (&self->stop_source, g_source_unref);
    }

  release_held (self, SOUP_STATUS_OK, _("Sign-in stopped"),
                _("Plugboard stopped this sign-in before it finished. Try signing in again from Plugboard."));
  end_answer (self);

  if (self->task != NULL && !self->matched)
    finish_wait (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                            _("The sign-in was stopped before the browser answered")));
  else
    finish_wait (self, NULL);
}

static gboolean
answer_timeout_cb (gpointer user_data)
{
  McpOAuthRedirectListener *self = user_data;

  g_clear_pointer (&self->answer_source, g_source_unref);
  end_answer (self);

  return G_SOURCE_REMOVE;
}

void
mcp_oauth_redirect_listener_answer_async (McpOAuthRedirectListener *self,
                                          const GError             *failure,
                                          GAsyncReadyCallback       callback,
                                          gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_OAUTH_REDIRECT_LISTENER (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_redirect_listener_answer_async);

  if (self->held == NULL || self->answer_task != NULL)
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  if (failure == NULL)
    release_held (self, SOUP_STATUS_OK, _("Signed in"),
                  _("Plugboard has received and stored the sign-in."));
  else if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    release_held (self, SOUP_STATUS_OK, _("Sign-in stopped"),
                  _("Plugboard stopped this sign-in before it finished. Try signing in again from Plugboard."));
  else
    {
      g_autofree char *text = mcp_oauth_sanitize (failure->message);

      /* The sanitizer stops at 200 characters: the whole reason is in Plugboard. */
      release_held (self, SOUP_STATUS_OK, _("Sign-in failed"), text);
    }

  self->answer_task = g_steal_pointer (&task);
  self->answer_source = g_timeout_source_new (ANSWER_TIMEOUT_MS);
  g_source_set_callback (self->answer_source, answer_timeout_cb, self, NULL);
  g_source_set_static_name (self->answer_source, "[plugboard] redirect listener answer");
  g_source_attach (self->answer_source, g_main_context_get_thread_default ());
}

gboolean
mcp_oauth_redirect_listener_answer_finish (McpOAuthRedirectListener  *self,
                                           GAsyncResult              *result,
                                           GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_redirect_listener_answer_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
