/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-redirect-listener.h"

#include "mcp-oauth-provider-private.h"

/* McpOAuthProvider's sign-in: its start (asking the server for a
 * challenge first when none was seen), discovery and the scope to ask for,
 * and its end, which the browser's page shows. The client identity is
 * picked in mcp-oauth-provider-client.c, the authorization and the code
 * exchange are in mcp-oauth-provider-authorize.c. */

static void
sign_in_free (SignIn *data)
{
  if (data->listener != NULL)
    mcp_oauth_redirect_listener_stop (data->listener);
  g_clear_object (&data->listener);
  g_free (data->scope);
  g_clear_pointer (&data->metadata, mcp_oauth_metadata_free);
  g_clear_pointer (&data->client, mcp_oauth_client_info_free);
  g_clear_pointer (&data->stored_client, mcp_oauth_client_info_free);
  g_free (data->verifier);
  g_free (data->state);
  g_free (data->redirect_uri);
  g_clear_pointer (&data->tokens, mcp_oauth_tokens_free);
  g_clear_error (&data->failure);
  g_free (data);
}

/* The browser's page has said how the sign-in ended: only now does it end. */
void
mcp_oauth_provider_sign_in_answered_cb (GObject      *object,
                                        GAsyncResult *result,
                                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SignIn *data = g_task_get_task_data (task);

  mcp_oauth_redirect_listener_answer_finish (MCP_OAUTH_REDIRECT_LISTENER (object), result, NULL);
  if (data->failure != NULL)
    g_task_return_error (task, g_steal_pointer (&data->failure));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_oauth_provider_sign_in_fail (GTask  *task,
                                 GError *error)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);

  /* A server with no metadata at all sent us to the 2025-03-26 default
   * endpoints; when those fail, that is the news. */
  if (error->domain == MCP_ERROR && data->metadata != NULL &&
      data->metadata->resource_metadata_url == NULL &&
      data->metadata->auth_server_metadata_url == NULL)
    /* Translators: the first %s is the server's name, the second an address */
    g_prefix_error (&error, _("“%s” publishes no OAuth metadata (no protected resource metadata, "
                              "no authorization server metadata at %s), and the default endpoints failed: "),
                    self->server_name, data->metadata->issuer);

  /* Errors from below already name what failed; say which server. */
  if (error->domain == MCP_ERROR && strstr (error->message, self->server_name) == NULL)
    g_prefix_error (&error, _("Signing in to “%s” failed: "), self->server_name);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    mcp_oauth_trace_step (self->session, NULL, "sign-in", MCP_TRACE_STEP_FAILED, "%s", error->message);
  g_clear_object (&self->sign_in_dpop);

  /* The browser's page, held since the code came, shows the failure. */
  if (data->listener != NULL)
    {
      data->failure = error;
      mcp_oauth_redirect_listener_answer_async (data->listener, error,
                                                mcp_oauth_provider_sign_in_answered_cb,
                                                g_object_ref (task));
      return;
    }

  g_task_return_error (task, error);
}

char *
mcp_oauth_provider_union_scopes (const char *a,
                                 const char *b)
{
  g_auto(GStrv) first = g_strsplit (a ? a : "", " ", -1);
  g_auto(GStrv) second = g_strsplit (b ? b : "", " ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) all = NULL;

  for (char **p = first; *p != NULL; p++)
    if (**p != '\0' && g_hash_table_add (seen, *p))
      g_strv_builder_add (builder, *p);
  for (char **p = second; *p != NULL; p++)
    if (**p != '\0' && g_hash_table_add (seen, *p))
      g_strv_builder_add (builder, *p);

  all = g_strv_builder_end (builder);
  if (all[0] == NULL)
    return NULL;
  return g_strjoinv (" ", all);
}

/* TRUE when every scope of @wanted is in @granted (NULL @wanted: TRUE). */
gboolean
mcp_oauth_provider_scope_covers (const char *granted,
                                 const char *wanted)
{
  g_auto(GStrv) have = g_strsplit (granted ? granted : "", " ", -1);
  g_auto(GStrv) want = g_strsplit (wanted ? wanted : "", " ", -1);

  for (char **p = want; *p != NULL; p++)
    if (**p != '\0' && !g_strv_contains ((const char * const *) have, *p))
      return FALSE;
  return TRUE;
}

static void
sign_in_discovered_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SignIn *data = g_task_get_task_data (task);
  g_autofree char *why = NULL;
  gboolean offline = FALSE;
  GError *error = NULL;

  data->metadata = mcp_oauth_discover_finish (result, &error);
  if (data->metadata == NULL)
    {
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  /* A server for machine clients only (no authorization endpoint, RFC
   * 8414 §2): the browser has nowhere to go. */
  if (data->metadata->authorization_endpoint == NULL)
    {
      /* Translators: the first %s is the server's name, the second its authorization server's
       * address; keep “oauth.grant” and the grant names */
      error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                           _("The authorization server of “%s” (%s) offers no sign-in in the browser "
                             "(its metadata has no authorization endpoint); set “oauth.grant” to "
                             "“client_credentials”, “jwt_bearer” or “enterprise” in the server's settings"),
                           self->server_name,
                           data->metadata->issuer ? data->metadata->issuer : self->server_url);
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  if (!mcp_oauth_metadata_supports_s256 (data->metadata))
    {
      /* Translators: the first %s is the server's name, the second its authorization server's address */
      error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                           _("The authorization server of “%s” (%s) does not support PKCE with S256, "
                             "which MCP requires; Plugboard will not sign in to it"),
                           self->server_name,
                           data->metadata->issuer ? data->metadata->issuer : self->server_url);
      mcp_oauth_provider_sign_in_fail (task, error);
      return;
    }

  /* Scopes: the settings' when given; else the challenge's, else the
   * resource's scopes_supported (spec: "Scope Selection Strategy"). A
   * step-up adds the new scope to what the current token has. */
  if (data->scope != NULL)
    /* Translators: %s is a list of scopes */
    why = g_strdup_printf (_("“%s”: what the current token has plus what the server asked for"), data->scope);
  else if (self->config_scopes != NULL && self->config_scopes[0] != NULL)
    {
      data->scope = g_strjoinv (" ", self->config_scopes);
      /* Translators: %s is a list of scopes */
      why = g_strdup_printf (_("“%s”, from “oauth.scopes” in the server's settings"), data->scope);
    }
  else
    {
      data->scope = mcp_oauth_metadata_pick_scope (data->metadata, self->challenge_scope);
      if (data->scope == NULL)
        why = g_strdup (_("none: neither the settings, the server's challenge nor its protected resource "
                          "metadata name any, so the scope parameter is left out"));
      else if (self->challenge_scope != NULL)
        /* Translators: %s is a list of scopes */
        why = g_strdup_printf (_("“%s”, from the “scope” of the server's WWW-Authenticate challenge"), data->scope);
      else
        /* Translators: %s is a list of scopes */
        why = g_strdup_printf (_("“%s”, the “scopes_supported” of the protected resource metadata"), data->scope);
    }

  /* A refresh token spares the person signing in again; 2026-07-28
   * ("Refresh Tokens") allows asking for offline_access only where the
   * authorization server lists it. */
  if (mcp_oauth_metadata_offers_offline_access (data->metadata))
    {
      char *scope = mcp_oauth_provider_union_scopes (data->scope, "offline_access");

      g_free (data->scope);
      data->scope = scope;
      offline = TRUE;
    }

  /* Translators: the first %s says which scopes and why; the second is empty or says
   * offline_access was added */
  mcp_oauth_trace_step (self->session, NULL, "scopes", MCP_TRACE_STEP_INFO, _("Requesting %s%s"), why,
                        offline ? _("; “offline_access” added, as the authorization server offers it, for a refresh token") : "");

  /* RFC 9449: a key of this sign-in's own when the tokens are to be
   * bound; the code exchange sends its proof. */
  g_clear_object (&self->sign_in_dpop);
  self->sign_in_dpop = mcp_oauth_provider_dpop_for_sign_in (self, data->metadata);

  mcp_oauth_provider_sign_in_identify (task);
}

static void
sign_in_discover (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);

  mcp_oauth_discover_async (self->session, self->server_url, self->challenge_resource_metadata,
                            self->auth_server_metadata_url, g_task_get_cancellable (task),
                            sign_in_discovered_cb, g_object_ref (task));
}

void
mcp_oauth_provider_remember_challenge (McpOAuthProvider *self,
                                       const char       *www_authenticate)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = mcp_auth_parse_www_authenticate (www_authenticate, &params);
  const char *value;

  if (scheme == NULL || g_ascii_strcasecmp (scheme, "Bearer") != 0)
    return;

  value = g_hash_table_lookup (params, "resource_metadata");
  if (value != NULL)
    {
      g_free (self->challenge_resource_metadata);
      self->challenge_resource_metadata = g_strdup (value);
    }
  value = g_hash_table_lookup (params, "scope");
  if (value != NULL)
    {
      g_free (self->challenge_scope);
      self->challenge_scope = g_strdup (value);
    }
}

void
mcp_oauth_provider_trace_challenge (McpOAuthProvider *self,
                                    SoupMessage      *message,
                                    guint             status,
                                    const char       *www_authenticate)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = NULL;
  g_autoptr(GString) said = NULL;
  static const char * const names[] = { "error", "error_description", "scope", "resource_metadata" };

  if (www_authenticate != NULL)
    scheme = mcp_auth_parse_www_authenticate (www_authenticate, &params);
  if (scheme == NULL)
    {
      /* Translators: %u is an HTTP status (401 or 403) */
      mcp_oauth_trace_step (self->session, message, "challenge", MCP_TRACE_STEP_INFO,
                            _("The server answered HTTP %u without a WWW-Authenticate challenge"), status);
      return;
    }

  /* The parameters one by one: the header as written would read, to the
   * trace's masking, as a scheme followed by a credential. */
  said = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *value = params != NULL ? g_hash_table_lookup (params, names[i]) : NULL;
      g_autofree char *valid = NULL;

      if (value == NULL)
        continue;
      valid = mcp_oauth_sanitize (value);
      g_string_append_printf (said, "%s%s=“%s”", said->len > 0 ? ", " : "", names[i], valid);
    }
  if (said->len == 0)
    g_string_append (said, _("no parameters"));

  {
    g_autofree char *valid_scheme = mcp_oauth_sanitize (scheme);

    /* Translators: %u is an HTTP status (401 or 403), the first %s an authentication scheme
     * (“Bearer”), the second its parameters (resource_metadata=“…”, scope=“…”) */
    mcp_oauth_trace_step (self->session, message, "challenge", MCP_TRACE_STEP_INFO,
                          _("The server answered HTTP %u with a WWW-Authenticate challenge of scheme %s: %s"),
                          status, valid_scheme, said->str);
  }
}

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpOAuthProvider *self = g_task_get_source_object (task);
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  McpTrace *trace = mcp_oauth_session_get_trace (self->session);
  McpTraceEntry *entry = trace != NULL && message != NULL ? mcp_trace_lookup_http (trace, message) : NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      if (entry != NULL)
        mcp_trace_http_failed (trace, entry, error);
      /* Discovery reports a server that cannot be reached with the URLs
       * it tried. */
      g_debug ("Probing “%s” for its challenge failed: %s", self->server_name, error->message);
      /* Translators: %s says why */
      mcp_oauth_trace_step (self->session, message, "challenge", MCP_TRACE_STEP_FAILED,
                            _("Asking the server for its challenge failed: %s; discovery goes on without one"),
                            error->message);
    }
  else
    {
      if (entry != NULL)
        mcp_trace_http_got_body (trace, entry, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
      if (message != NULL && mcp_http_is_auth_challenge (message))
        {
          SoupMessageHeaders *headers = soup_message_get_response_headers (message);
          const char *challenge = soup_message_headers_get_one (headers, "WWW-Authenticate");

          mcp_oauth_provider_remember_challenge (self, challenge);
          mcp_oauth_provider_trace_challenge (self, message, soup_message_get_status (message), challenge);
        }
      else if (message != NULL)
        /* Translators: %u is an HTTP status */
        mcp_oauth_trace_step (self->session, message, "challenge", MCP_TRACE_STEP_INFO,
                              _("The server answered an unauthenticated initialize with HTTP %u, not a challenge; "
                                "discovery starts from its address"),
                              soup_message_get_status (message));
    }

  sign_in_discover (task);
}

/* Sign-in without a challenge seen: ask the server for one with an
 * unauthenticated initialize, as a client connecting would. */
static void
sign_in_probe (GTask *task)
{
  McpOAuthProvider *self = g_task_get_source_object (task);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  static const char request[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
    "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
    "\"clientInfo\":{\"name\":\"" PACKAGE_NAME "\",\"version\":\"" PACKAGE_VERSION "\"}}}";

  message = soup_message_new (SOUP_METHOD_POST, self->server_url);
  if (message == NULL)
    {
      /* Translators: the first %s is the server's name, the second its URL */
      mcp_oauth_provider_sign_in_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                                          _("The URL of “%s” cannot be used: %s"),
                                                          self->server_name, self->server_url));
      return;
    }

  body = g_bytes_new_static (request, sizeof request - 1);
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json, text/event-stream");
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "MCP-Protocol-Version", "2025-11-25");

  mcp_oauth_trace_http (self->session, message, body, "application/json");
  soup_session_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT,
                                    g_task_get_cancellable (task), probe_cb, g_object_ref (task));
}

void
mcp_oauth_provider_sign_in_start (McpOAuthProvider    *self,
                                  const char          *scope,
                                  gboolean             probe,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  SignIn *data = g_new0 (SignIn, 1);

  g_task_set_source_tag (task, mcp_oauth_provider_sign_in_start);
  data->scope = g_strdup (scope);
  g_task_set_task_data (task, data, (GDestroyNotify) sign_in_free);

  if (self->open_url == NULL)
    {
      /* Translators: the first %s is the server's name, the second its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("“%s” (%s) needs you to sign in"), self->server_name, self->server_url);
      return;
    }

  if (probe)
    sign_in_probe (task);
  else
    sign_in_discover (task);
}

gboolean
mcp_oauth_provider_sign_in_finish_internal (McpOAuthProvider  *self,
                                            GAsyncResult      *result,
                                            GError           **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
