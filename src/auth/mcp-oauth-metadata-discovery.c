/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-metadata.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-oauth-metadata-private.h"
#include "mcp-oauth-private.h"
#include "mcp-url-policy.h"

/* Discovery of a server's authorization: the protected resource metadata,
 * then its authorization server's, each from the locations the spec lists
 * in its order, until one answers. */

static void
discover_free (Discover *d)
{
  g_clear_object (&d->session);
  g_clear_object (&d->message);
  g_clear_pointer (&d->result, mcp_oauth_metadata_free);
  g_free (d->origin);
  g_free (d->configured_as_url);
  g_clear_pointer (&d->candidates, g_ptr_array_unref);
  g_string_free (d->tried, TRUE);
  g_free (d);
}

static void discover_next (GTask *task);

static void
note_tried (Discover   *d,
            const char *url,
            const char *what)
{
  if (d->tried->len > 0)
    g_string_append (d->tried, ", ");
  g_string_append_printf (d->tried, "“%s” (%s)", url, what);
}

/* A step of discovery in the trace: the phase's. */
static void
discover_step (Discover           *d,
               SoupMessage        *message,
               McpTraceStepStatus  status,
               const char         *text)
{
  mcp_oauth_trace_step (d->session, message,
                        d->phase == PHASE_PRM ? "protected-resource-metadata" : "authorization-server-metadata",
                        status, "%s", text);
}

/* A list a server sent, fit for the trace's plain words (see
 * mcp_oauth_sanitize()). */
static char *
join_or_none (char * const *strv)
{
  g_autofree char *joined = NULL;

  if (strv == NULL || strv[0] == NULL)
    return g_strdup (_("none"));
  joined = g_strjoinv (" ", (char **) strv);
  return mcp_oauth_sanitize (joined);
}

/* What was found, in plain words, for the trace. */
static void
discover_step_found (Discover    *d,
                     SoupMessage *message,
                     const char  *url)
{
  McpOAuthMetadata *m = d->result;
  g_autofree char *text = NULL;

  if (d->phase == PHASE_PRM)
    {
      g_autofree char *servers = join_or_none (m->authorization_servers);
      g_autofree char *scopes = join_or_none (m->resource_scopes_supported);
      g_autofree char *resource = mcp_oauth_sanitize (m->resource);

      /* Translators: the first %s is an address, the second where it came from, the third
       * the resource, then lists of addresses and of scopes */
      text = g_strdup_printf (_("Found at “%s” (%s). Resource: “%s”; authorization servers: %s; "
                                "scopes supported: %s"),
                              url,
                              d->from_challenge ? _("named by the server's WWW-Authenticate “resource_metadata”")
                                                : _("a well-known location"),
                              resource, servers, scopes);
    }
  else
    {
      g_autofree char *pkce = join_or_none (m->code_challenge_methods_supported);
      g_autofree char *issuer = mcp_oauth_sanitize (m->metadata_issuer);
      g_autofree char *authorization = m->authorization_endpoint != NULL ? mcp_oauth_sanitize (m->authorization_endpoint)
                                                                         : g_strdup (_("none"));
      g_autofree char *token = mcp_oauth_sanitize (m->token_endpoint);
      g_autofree char *registration = m->registration_endpoint != NULL ? mcp_oauth_sanitize (m->registration_endpoint)
                                                                       : g_strdup (_("none"));
      g_autofree char *issuer_check = NULL;

      if (d->configured_as_url != NULL)
        issuer_check = g_strdup_printf (_("issuer “%s” (the metadata address is configured: no issuer check)"),
                                        issuer);
      else if (m->authorization_servers != NULL)
        issuer_check = g_strdup_printf (_("issuer “%s” matches the authorization server named by the "
                                          "protected resource metadata"),
                                        issuer);
      else
        issuer_check = g_strdup_printf (_("issuer “%s” (no protected resource metadata named one to check against)"),
                                        issuer);

      /* Translators: the first %s is an address, the second the issuer check, then addresses
       * of endpoints and a list of PKCE methods */
      text = g_strdup_printf (_("Found at “%s”: %s. Authorization endpoint “%s”, token endpoint “%s”, "
                                "registration endpoint %s; PKCE methods: %s; client ID metadata documents %s"),
                              url, issuer_check, authorization, token, registration, pkce,
                              m->client_id_metadata_document_supported ? _("supported") : _("not supported"));
    }
  discover_step (d, message, MCP_TRACE_STEP_OK, text);
}

/* The authorization server's metadata locations, RFC 8414 §3.1 and OpenID
 * Connect Discovery, in the order the MCP spec gives. */
static gboolean
start_as_phase (Discover  *d,
                GError   **error)
{
  McpOAuthMetadata *m = d->result;
  g_autofree char *origin = NULL;
  g_autofree char *path = NULL;

  d->phase = PHASE_AS;
  d->next = 0;
  g_ptr_array_set_size (d->candidates, 0);

  if (m->authorization_servers != NULL)
    m->issuer = g_strdup (m->authorization_servers[0]);
  else
    m->issuer = g_strdup (d->origin);

  if (d->configured_as_url != NULL)
    {
      g_ptr_array_add (d->candidates, g_strdup (d->configured_as_url));
      return TRUE;
    }

  if (m->authorization_servers != NULL &&
      !mcp_oauth_metadata_check_url (m->resource_metadata_url, "authorization_servers", m->issuer,
                                     MCP_URL_USE_FETCH, error))
    return FALSE;

  origin = mcp_oauth_origin_of (m->issuer, &path);
  if (origin == NULL)
    {
      g_autofree char *issuer = mcp_oauth_sanitize (m->issuer);

      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("The protected resource metadata at “%s” names “%s” as authorization server, "
                     "which is not an http(s) URL"),
                   m->resource_metadata_url, issuer);
      return FALSE;
    }

  if (path[0] != '\0')
    {
      g_ptr_array_add (d->candidates, g_strconcat (origin, "/.well-known/oauth-authorization-server", path, NULL));
      g_ptr_array_add (d->candidates, g_strconcat (origin, "/.well-known/openid-configuration", path, NULL));
      g_ptr_array_add (d->candidates, g_strconcat (origin, path, "/.well-known/openid-configuration", NULL));
    }
  else
    {
      g_ptr_array_add (d->candidates, g_strconcat (origin, "/.well-known/oauth-authorization-server", NULL));
      g_ptr_array_add (d->candidates, g_strconcat (origin, "/.well-known/openid-configuration", NULL));
    }

  return TRUE;
}

/* Ends discovery with @error (taken), which the trace shows as the
 * failed step of the phase. */
static void
discover_fail (GTask       *task,
               SoupMessage *message,
               GError      *error)
{
  Discover *d = g_task_get_task_data (task);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    discover_step (d, message, MCP_TRACE_STEP_FAILED, error->message);
  g_task_return_error (task, error);
}

/* Every location of the phase answered "not here". Takes @owned_task's
 * reference. */
static void
phase_exhausted (GTask *owned_task)
{
  g_autoptr(GTask) task = owned_task;
  Discover *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (d->phase == PHASE_PRM && d->prm_only)
    {
      g_task_return_pointer (task, g_steal_pointer (&d->result), (GDestroyNotify) mcp_oauth_metadata_free);
      return;
    }

  if (d->phase == PHASE_PRM)
    {
      g_autofree char *text = NULL;

      /* Translators: %s is a list of addresses, each with what it answered */
      text = g_strdup_printf (_("No protected resource metadata at %s: assuming a 2025-03-26 server, "
                                "whose authorization server is its own origin"),
                              d->tried->str);
      discover_step (d, NULL, MCP_TRACE_STEP_INFO, text);
      g_debug ("No protected resource metadata for “%s”: assuming a 2025-03-26 server",
               d->result->server_url);
      if (!start_as_phase (d, &error))
        {
          discover_fail (task, NULL, g_steal_pointer (&error));
          return;
        }
      discover_next (g_steal_pointer (&task));
      return;
    }

  if (d->prm_found || d->configured_as_url != NULL)
    {
      /* Translators: the last %s is a list of addresses, each with what it answered */
      discover_fail (task, NULL,
                     g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                  _("No authorization server metadata found for “%s” (authorization server “%s”); tried %s"),
                                  d->result->server_url, d->result->issuer, d->tried->str));
      return;
    }

  g_debug ("No authorization server metadata for “%s”: using the default endpoints", d->result->issuer);
  mcp_oauth_discover_use_default_endpoints (d);
  if (!mcp_oauth_metadata_check_endpoints (d->result, NULL, &error))
    {
      discover_fail (task, NULL, g_steal_pointer (&error));
      return;
    }
  {
    g_autofree char *text = NULL;

    /* Translators: the first %s is a list of addresses, each with what it answered, then
     * the three endpoints used instead */
    text = g_strdup_printf (_("No authorization server metadata at %s: using the 2025-03-26 default "
                              "endpoints “%s”, “%s” and “%s”"),
                            d->tried->str, d->result->authorization_endpoint, d->result->token_endpoint,
                            d->result->registration_endpoint);
    discover_step (d, NULL, MCP_TRACE_STEP_INFO, text);
  }
  g_task_return_pointer (task, g_steal_pointer (&d->result), (GDestroyNotify) mcp_oauth_metadata_free);
}

static void
discover_fetch_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Discover *d = g_task_get_task_data (task);
  const char *url = g_ptr_array_index (d->candidates, d->next - 1);
  g_autoptr(SoupMessage) message = g_steal_pointer (&d->message);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) node = NULL;
  guint status;

  body = mcp_oauth_send_finish (result, &error);
  if (body == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && d->tried->len > 0)
        g_prefix_error (&error, _("After trying %s: "), d->tried->str);
      discover_fail (task, message, g_steal_pointer (&error));
      return;
    }

  status = soup_message_get_status (message);
  if (status >= 400 && status < 500)
    {
      g_autofree char *what = g_strdup_printf ("HTTP %u", status);
      g_autofree char *text = NULL;

      note_tried (d, url, what);
      /* Translators: %s is an address, %u an HTTP status such as 404 */
      text = g_strdup_printf (_("Not at “%s” (HTTP %u)"), url, status);
      discover_step (d, message, MCP_TRACE_STEP_SKIPPED, text);
      discover_next (g_steal_pointer (&task));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autoptr(GError) status_error = mcp_http_status_error (url, message, body);

      if (d->phase == PHASE_PRM)
        discover_fail (task, message,
                       g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                    _("Fetching protected resource metadata failed: %s"), status_error->message));
      else
        discover_fail (task, message,
                       g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                    _("Fetching authorization server metadata failed: %s"), status_error->message));
      return;
    }

  node = mcp_oauth_parse_object (body, url, &error);
  if (node == NULL ||
      (d->phase == PHASE_PRM &&
       !mcp_oauth_discover_take_prm (d, url, json_node_get_object (node), &error)) ||
      (d->phase == PHASE_AS &&
       !mcp_oauth_discover_take_as_metadata (d, url, json_node_get_object (node), &error)))
    {
      discover_fail (task, message, g_steal_pointer (&error));
      return;
    }

  note_tried (d, url, _("found"));
  discover_step_found (d, message, url);

  if (d->phase == PHASE_PRM && d->prm_only)
    {
      g_task_return_pointer (task, g_steal_pointer (&d->result), (GDestroyNotify) mcp_oauth_metadata_free);
      return;
    }

  if (d->phase == PHASE_PRM)
    {
      if (!start_as_phase (d, &error))
        {
          discover_fail (task, NULL, g_steal_pointer (&error));
          return;
        }
      discover_next (g_steal_pointer (&task));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&d->result), (GDestroyNotify) mcp_oauth_metadata_free);
}

static void
discover_fetch (GTask      *task,
                const char *url)
{
  Discover *d = g_task_get_task_data (task);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GTask) send_task = NULL;
  SoupMessageHeaders *headers;

  message = soup_message_new (SOUP_METHOD_GET, url);
  if (message == NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (url);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("Cannot fetch authorization metadata from “%s”: not a valid URL"), valid);
      g_object_unref (task);
      return;
    }

  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "application/json");
  soup_message_headers_replace (headers, "MCP-Protocol-Version", MCP_OAUTH_PROTOCOL_VERSION);

  g_debug ("Discovery: GET %s", url);
  g_set_object (&d->message, message);
  mcp_oauth_send_async (d->session, message, NULL, NULL, g_task_get_cancellable (task),
                        discover_fetch_cb, task);
}

/* Takes @task's reference. */
static void
discover_next (GTask *task)
{
  Discover *d = g_task_get_task_data (task);

  if (d->next >= d->candidates->len)
    {
      phase_exhausted (task);
      return;
    }

  discover_fetch (task, g_ptr_array_index (d->candidates, d->next++));
}

static void
discover_start (SoupSession         *session,
                const char          *server_url,
                const char          *resource_metadata_url,
                const char          *auth_server_metadata_url,
                gboolean             prm_only,
                gpointer             source_tag,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  Discover *d;
  const char *hash;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  d = g_new0 (Discover, 1);
  d->prm_only = prm_only;
  d->session = g_object_ref (session);
  d->candidates = g_ptr_array_new_with_free_func (g_free);
  d->tried = g_string_new (NULL);
  d->configured_as_url = g_strdup (auth_server_metadata_url);
  d->result = g_new0 (McpOAuthMetadata, 1);
  d->result->server_url = g_strdup (server_url);
  hash = strchr (server_url, '#');
  d->result->resource = hash != NULL ? g_strndup (server_url, (gsize) (hash - server_url))
                                     : g_strdup (server_url);
  g_task_set_task_data (task, d, (GDestroyNotify) discover_free);

  d->origin = mcp_oauth_origin_of (server_url, &path);
  if (d->origin == NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (server_url);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("Cannot sign in to “%s”: not an http(s) URL"), valid);
      return;
    }

  d->phase = PHASE_PRM;
  if (resource_metadata_url != NULL)
    {
      g_autoptr(GError) error = NULL;

      /* The server's own WWW-Authenticate named it. */
      if (!mcp_url_policy_check (resource_metadata_url, MCP_URL_USE_FETCH, NULL, &error))
        {
          /* Translators: %s says why the address is refused */
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                   _("The server's challenge names unusable protected resource metadata: %s"),
                                   error->message);
          return;
        }
      g_ptr_array_add (d->candidates, g_strdup (resource_metadata_url));
      d->from_challenge = TRUE;
    }
  else
    {
      if (path[0] != '\0')
        g_ptr_array_add (d->candidates, g_strconcat (d->origin, "/.well-known/oauth-protected-resource", path, NULL));
      g_ptr_array_add (d->candidates, g_strconcat (d->origin, "/.well-known/oauth-protected-resource", NULL));
    }

  discover_next (g_steal_pointer (&task));
}

void
mcp_oauth_discover_async (SoupSession         *session,
                          const char          *server_url,
                          const char          *resource_metadata_url,
                          const char          *auth_server_metadata_url,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  discover_start (session, server_url, resource_metadata_url, auth_server_metadata_url, FALSE,
                  mcp_oauth_discover_async, cancellable, callback, user_data);
}

void
mcp_oauth_discover_resource_async (SoupSession         *session,
                                   const char          *server_url,
                                   const char          *resource_metadata_url,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  discover_start (session, server_url, resource_metadata_url, NULL, TRUE,
                  mcp_oauth_discover_resource_async, cancellable, callback, user_data);
}

static McpOAuthMetadata *
discover_finish (GAsyncResult  *result,
                 gpointer       source_tag,
                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

McpOAuthMetadata *
mcp_oauth_discover_resource_finish (GAsyncResult  *result,
                                    GError       **error)
{
  return discover_finish (result, mcp_oauth_discover_resource_async, error);
}

McpOAuthMetadata *
mcp_oauth_discover_finish (GAsyncResult  *result,
                           GError       **error)
{
  return discover_finish (result, mcp_oauth_discover_async, error);
}
