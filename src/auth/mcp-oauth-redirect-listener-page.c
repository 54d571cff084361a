/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-redirect-listener"

#include "config.h"

#include "mcp-oauth-redirect-listener.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mcp-error.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-redirect-listener-private.h"

/* The answers of McpOAuthRedirectListener: the callback checked (state,
 * issuer, error, code) and the page the browser shows, held until the
 * sign-in has finished (mcp_oauth_redirect_listener_answer_async()). */

/* How long the browser's page waits for the token exchange and storage
 * before it says to look in Plugboard instead. */
#define HOLD_TIMEOUT_S 90
/* How long mcp_oauth_redirect_listener_answer_async() waits for the page
 * to reach the browser. */
#define ANSWER_TIMEOUT_MS 5000

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
  mcp_oauth_redirect_listener_end_answer (self);
  mcp_oauth_redirect_listener_finish_wait (self, NULL);

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
void
mcp_oauth_redirect_listener_release_held (McpOAuthRedirectListener *self,
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
  mcp_oauth_redirect_listener_release_held (self, SOUP_STATUS_OK, _("Still signing in"),
                                            _("Plugboard has received the answer but has not finished signing in yet. "
                                              "Look in Plugboard to see whether it succeeded."));

  return G_SOURCE_REMOVE;
}

/* The page has gone out, the browser went away, or it took too long. */
void
mcp_oauth_redirect_listener_end_answer (McpOAuthRedirectListener *self)
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

void
mcp_oauth_redirect_listener_handle_callback (SoupServer        *server,
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
        mcp_oauth_redirect_listener_finish_wait (self, NULL);
      return;
    }

  g_signal_connect_object (msg, "finished", G_CALLBACK (answer_finished_cb), self, 0);
}

static gboolean
answer_timeout_cb (gpointer user_data)
{
  McpOAuthRedirectListener *self = user_data;

  g_clear_pointer (&self->answer_source, g_source_unref);
  mcp_oauth_redirect_listener_end_answer (self);

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
    mcp_oauth_redirect_listener_release_held (self, SOUP_STATUS_OK, _("Signed in"),
                                              _("Plugboard has received and stored the sign-in."));
  else if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    mcp_oauth_redirect_listener_release_held (self, SOUP_STATUS_OK, _("Sign-in stopped"),
                                              _("Plugboard stopped this sign-in before it finished. Try signing in again from Plugboard."));
  else
    {
      g_autofree char *text = mcp_oauth_sanitize (failure->message);

      /* The sanitizer stops at 200 characters: the whole reason is in Plugboard. */
      mcp_oauth_redirect_listener_release_held (self, SOUP_STATUS_OK, _("Sign-in failed"), text);
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
