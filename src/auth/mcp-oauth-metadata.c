/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-metadata.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-json-private.h"
#include "mcp-oauth-private.h"
#include "mcp-url-policy.h"

/* Shared internals (mcp-oauth-private.h) */

guint
mcp_oauth_request_timeout (void)
{
  const char *env = g_getenv ("MCP_REQUEST_TIMEOUT_MS");
  guint64 value;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, G_MAXUINT, &value, NULL))
    return (guint) value;

  return MCP_OAUTH_REQUEST_TIMEOUT_MS;
}

char *
mcp_oauth_message_url (SoupMessage *message)
{
  return g_uri_to_string_partial (soup_message_get_uri (message), G_URI_HIDE_USERINFO);
}

char *
mcp_oauth_sanitize (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;
  const char *p;
  guint n = 0;

  if (text == NULL)
    return g_strdup ("");

  valid = g_utf8_make_valid (text, -1);
  out = g_string_new (NULL);
  for (p = valid; *p != '\0' && n < 200; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  if (*p != '\0')
    g_string_append (out, "…");

  return g_string_free (out, FALSE);
}

char **
mcp_oauth_string_array (JsonObject *object,
                        const char *member,
                        gboolean   *malformed)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;
  g_autoptr(GStrvBuilder) builder = NULL;
  guint len;

  *malformed = FALSE;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      *malformed = TRUE;
      return NULL;
    }

  array = json_node_get_array (node);
  len = json_array_get_length (array);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < len; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (json_node_get_value_type (element) != G_TYPE_STRING)
        {
          *malformed = TRUE;
          return NULL;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  return g_strv_builder_end (builder);
}

gboolean
mcp_oauth_strv_contains (char * const *strv,
                         const char   *str)
{
  return strv != NULL && g_strv_contains ((const char * const *) strv, str);
}

JsonNode *
mcp_oauth_parse_object (GBytes      *body,
                        const char  *url,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = NULL;
  gsize size = 0;
  const char *data = NULL;

  if (body != NULL)
    data = g_bytes_get_data (body, &size);

  node = mcp_json_parse (data, size, &local_error);
  if (node == NULL)
    {
      /* The parser's message gives a position, never the text. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("“%s” did not answer valid JSON: %s"), url, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("“%s” did not answer a JSON object"), url);
      return NULL;
    }

  return g_steal_pointer (&node);
}

GError *
mcp_oauth_answer_error (const char   *what,
                        SoupMessage  *message,
                        GBytes       *body,
                        char        **oauth_error)
{
  g_autofree char *url = mcp_oauth_message_url (message);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  guint status = soup_message_get_status (message);
  const char *reason = soup_message_get_reason_phrase (message);
  const char *code = NULL;
  const char *description = NULL;

  if (oauth_error != NULL)
    *oauth_error = NULL;

  if (reason == NULL || reason[0] == '\0')
    reason = soup_status_get_phrase (status);

  if (body != NULL && g_bytes_get_size (body) > 0)
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      node = mcp_json_parse (data, size, NULL);
      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *object = json_node_get_object (node);

          code = mcp_json_optional_string (object, "error", "OAuth error", NULL);
          description = mcp_json_optional_string (object, "error_description", "OAuth error", NULL);
        }
    }

  /* Translators: the first %s is what was asked (“Client registration”, “Token request”
   * or “Token refresh”), the second an address, %u the HTTP status code */
  g_string_append_printf (text, _("%s at “%s” failed: HTTP %u"), what, url, status);
  if (reason != NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (reason);

      g_string_append_printf (text, " %s", valid);
    }
  if (code != NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (code);

      /* Translators: %s is an OAuth error code such as “invalid_grant” */
      g_string_append_printf (text, _(", error “%s”"), valid);
      if (oauth_error != NULL)
        *oauth_error = g_strdup (code);
    }
  if (description != NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (description);

      g_string_append_printf (text, ": %s", valid);
    }

  return g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, text->str);
}

/* Sending one request with a timer */

typedef struct
{
  SoupMessage  *message;
  GCancellable *inner;     /* cancelled by the caller's cancellable or the timer */
  GCancellable *outer;
  gulong        cancelled_id;
  guint         timeout_id;
  guint         timeout_ms;
  char         *url;
  gboolean      timed_out;
} Send;

static void
send_free (Send *send)
{
  g_clear_handle_id (&send->timeout_id, g_source_remove);
  if (send->outer != NULL && send->cancelled_id != 0)
    g_cancellable_disconnect (send->outer, send->cancelled_id);
  g_clear_object (&send->outer);
  g_clear_object (&send->inner);
  g_clear_object (&send->message);
  g_free (send->url);
  g_free (send);
}

static void
send_outer_cancelled_cb (GCancellable *outer,
                         gpointer      user_data)
{
  GCancellable *inner = user_data;

  g_cancellable_cancel (inner);
}

static gboolean
send_timeout_cb (gpointer user_data)
{
  Send *send = user_data;

  send->timeout_id = 0;
  send->timed_out = TRUE;
  g_cancellable_cancel (send->inner);

  return G_SOURCE_REMOVE;
}

static GError *
send_error (Send         *send,
            const GError *error)
{
  if (send->timed_out)
    return g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                        _("“%s” did not answer within %u ms; check the address or try again later"),
                        send->url, send->timeout_ms);

  if (send->outer != NULL && g_cancellable_is_cancelled (send->outer))
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
    return g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                        _("“%s” answered more than %d KiB, too much for an authorization answer"),
                        send->url, MCP_OAUTH_MAX_BODY / 1024);

  return g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                      _("Could not reach “%s”: %s"), send->url, error->message);
}

static void
send_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Send *send = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  GBytes *body;

  body = mcp_http_read_body_finish (result, &error);
  g_clear_handle_id (&send->timeout_id, g_source_remove);
  if (body == NULL)
    {
      g_task_return_error (task, send_error (send, error));
      return;
    }

  g_task_return_pointer (task, body, (GDestroyNotify) g_bytes_unref);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Send *send = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = NULL;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      g_clear_handle_id (&send->timeout_id, g_source_remove);
      g_task_return_error (task, send_error (send, error));
      return;
    }

  mcp_http_read_body_async (stream, MCP_OAUTH_MAX_BODY, FALSE, send->inner,
                            send_read_cb, g_steal_pointer (&task));
}

void
mcp_oauth_send_async (SoupSession         *session,
                      SoupMessage         *message,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Send *send;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (SOUP_IS_MESSAGE (message));

  task = g_task_new (session, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_send_async);

  send = g_new0 (Send, 1);
  send->message = g_object_ref (message);
  send->inner = g_cancellable_new ();
  send->url = mcp_oauth_message_url (message);
  send->timeout_ms = mcp_oauth_request_timeout ();
  g_task_set_task_data (task, send, (GDestroyNotify) send_free);

  if (cancellable != NULL)
    {
      send->outer = g_object_ref (cancellable);
      send->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (send_outer_cancelled_cb),
                                                  send->inner, NULL);
    }

  send->timeout_id = g_timeout_add (send->timeout_ms, send_timeout_cb, send);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, send->timeout_id),
                            "[mcp-oauth] request timeout");

  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, send->inner,
                           send_cb, g_steal_pointer (&task));
}

GBytes *
mcp_oauth_send_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_send_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* McpOAuthMetadata */

void
mcp_oauth_metadata_free (McpOAuthMetadata *self)
{
  if (self == NULL)
    return;

  g_free (self->server_url);
  g_free (self->resource);
  g_free (self->resource_metadata_url);
  g_strfreev (self->authorization_servers);
  g_strfreev (self->resource_scopes_supported);
  g_free (self->issuer);
  g_free (self->auth_server_metadata_url);
  g_free (self->authorization_endpoint);
  g_free (self->token_endpoint);
  g_free (self->registration_endpoint);
  g_strfreev (self->code_challenge_methods_supported);
  g_strfreev (self->token_endpoint_auth_methods_supported);
  g_strfreev (self->grant_types_supported);
  g_strfreev (self->scopes_supported);
  g_free (self->metadata_issuer);
  g_free (self);
}

McpOAuthMetadata *
mcp_oauth_metadata_copy (const McpOAuthMetadata *self)
{
  McpOAuthMetadata *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (McpOAuthMetadata, 1);
  copy->server_url = g_strdup (self->server_url);
  copy->resource = g_strdup (self->resource);
  copy->resource_metadata_url = g_strdup (self->resource_metadata_url);
  copy->authorization_servers = g_strdupv (self->authorization_servers);
  copy->resource_scopes_supported = g_strdupv (self->resource_scopes_supported);
  copy->issuer = g_strdup (self->issuer);
  copy->auth_server_metadata_url = g_strdup (self->auth_server_metadata_url);
  copy->authorization_endpoint = g_strdup (self->authorization_endpoint);
  copy->token_endpoint = g_strdup (self->token_endpoint);
  copy->registration_endpoint = g_strdup (self->registration_endpoint);
  copy->code_challenge_methods_supported = g_strdupv (self->code_challenge_methods_supported);
  copy->token_endpoint_auth_methods_supported = g_strdupv (self->token_endpoint_auth_methods_supported);
  copy->grant_types_supported = g_strdupv (self->grant_types_supported);
  copy->scopes_supported = g_strdupv (self->scopes_supported);
  copy->client_id_metadata_document_supported = self->client_id_metadata_document_supported;
  copy->metadata_issuer = g_strdup (self->metadata_issuer);
  copy->authorization_response_iss_parameter_supported = self->authorization_response_iss_parameter_supported;

  return copy;
}

gboolean
mcp_oauth_metadata_supports_s256 (const McpOAuthMetadata *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return mcp_oauth_strv_contains (self->code_challenge_methods_supported, "S256");
}

const char *
mcp_oauth_metadata_get_expected_issuer (const McpOAuthMetadata *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->metadata_issuer != NULL ? self->metadata_issuer : self->issuer;
}

gboolean
mcp_oauth_metadata_offers_offline_access (const McpOAuthMetadata *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return mcp_oauth_strv_contains (self->scopes_supported, "offline_access");
}

char *
mcp_oauth_metadata_pick_scope (const McpOAuthMetadata *self,
                               const char             *challenge_scope)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (challenge_scope != NULL)
    return g_strdup (challenge_scope);

  if (self->resource_scopes_supported != NULL && self->resource_scopes_supported[0] != NULL)
    return g_strjoinv (" ", self->resource_scopes_supported);

  return NULL;
}

/* Discovery */

typedef enum
{
  PHASE_PRM,
  PHASE_AS,
} Phase;

typedef struct
{
  SoupSession      *session;
  McpOAuthMetadata *result;
  char             *origin;            /* of the server URL */
  char             *configured_as_url; /* authServerMetadataUrl */
  Phase             phase;
  GPtrArray        *candidates;        /* URLs for this phase */
  guint             next;
  GString          *tried;             /* "“url” (HTTP 404), …" over both phases */
  gboolean          prm_found;         /* with authorization servers */
  gboolean          prm_only;          /* mcp_oauth_discover_resource_async */
  SoupMessage      *message;           /* the one under way */
} Discover;

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

/* scheme://host[:port] of @url, or NULL when it is not an absolute
 * http(s) URL. */
static char *
origin_of (const char *url,
           char      **path)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (path != NULL)
    *path = NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    return NULL;

  scheme = g_uri_get_scheme (uri);
  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0' ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    return NULL;

  if (path != NULL)
    {
      g_autofree char *p = g_strdup (g_uri_get_path (uri));
      gsize len = strlen (p);

      /* RFC 8414 §3.1 / RFC 9728 §3.1: a terminating slash is removed
       * before the path is appended to the well-known prefix. */
      while (len > 0 && p[len - 1] == '/')
        p[--len] = '\0';
      *path = g_steal_pointer (&p);
    }

  return g_uri_join (G_URI_FLAGS_ENCODED, scheme, NULL, g_uri_get_host (uri),
                     g_uri_get_port (uri), "", NULL, NULL);
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

/* @url in the canonical form resource identifiers are compared in (RFC
 * 8707 §2, RFC 3986 §6.2.2-3): scheme and host lower-case, the scheme's
 * default port dropped, no fragment, "/" for an empty path. NULL when
 * @url is not an absolute URL with a host. */
static char *
canonical_resource (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  const char *path;
  int port;

  if (url == NULL)
    return NULL;
  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    return NULL;

  scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);
  host = g_ascii_strdown (g_uri_get_host (uri), -1);
  port = g_uri_get_port (uri);
  if ((port == 80 && g_str_equal (scheme, "http")) || (port == 443 && g_str_equal (scheme, "https")))
    port = -1;
  path = g_uri_get_path (uri);
  if (path[0] == '\0')
    path = "/";

  return g_uri_join (G_URI_FLAGS_ENCODED, scheme, g_uri_get_userinfo (uri), host, port,
                     path, g_uri_get_query (uri), NULL);
}

/* The resource a PRM location stands for when it is a well-known one
 * (RFC 9728 §3.1: "/.well-known/oauth-protected-resource" inserted between
 * the resource's host and path), or NULL. */
static char *
resource_of_prm_url (const char *url)
{
  static const char prefix[] = "/.well-known/oauth-protected-resource";
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  g_autofree char *origin = NULL;
  const char *path;

  if (uri == NULL)
    return NULL;
  path = g_uri_get_path (uri);
  if (!g_str_has_prefix (path, prefix) ||
      (path[strlen (prefix)] != '\0' && path[strlen (prefix)] != '/'))
    return NULL;

  origin = origin_of (url, NULL);
  if (origin == NULL)
    return NULL;
  return g_strconcat (origin, path + strlen (prefix), NULL);
}

/* RFC 9728 §3.3 (and 2026-07-28): the PRM's "resource" must be the resource
 * the client built the metadata URL from, or the client must not use it —
 * else a server could send its users' tokens to be minted for another. */
static gboolean
check_prm_resource (Discover    *d,
                    const char  *url,
                    const char  *resource,
                    GError     **error)
{
  g_autofree char *got = canonical_resource (resource);
  g_autofree char *server = canonical_resource (d->result->resource);
  g_autofree char *stands_for = resource_of_prm_url (url);
  g_autofree char *location = canonical_resource (stands_for);
  g_autofree char *valid = NULL;

  if (got != NULL && (g_strcmp0 (got, server) == 0 || g_strcmp0 (got, location) == 0))
    return TRUE;

  valid = mcp_oauth_sanitize (resource);
  /* Translators: the first %s is the address of the metadata, the second the
   * resource it names, the third the server's URL */
  g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
               _("The protected resource metadata at “%s” is for the resource “%s”, not for “%s”; "
                 "Plugboard does not sign in with metadata of another resource"),
               url, valid, d->result->resource);
  return FALSE;
}

/* The URL policy (mcp-url-policy.h) for a URL a metadata document at
 * @where named as its @member. */
static gboolean
check_metadata_url (const char  *where,
                    const char  *member,
                    const char  *value,
                    McpUrlUse    use,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (mcp_url_policy_check (value, use, NULL, &local_error))
    return TRUE;

  if (where != NULL)
    /* Translators: the first %s is the address of the metadata, the second a member
     * name (“token_endpoint”), the third why its URL is refused */
    g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                 _("The authorization metadata at “%s” names an unusable “%s”: %s"),
                 where, member, local_error->message);
  else
    /* Translators: the first %s is a member name (“token_endpoint”), the second why
     * its URL is refused */
    g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                 _("The default “%s” of this server is unusable: %s"),
                 member, local_error->message);
  return FALSE;
}

/* Every endpoint Plugboard will open or post to passes the URL policy:
 * https, or http to a loopback host only. */
static gboolean
check_endpoints (McpOAuthMetadata  *m,
                 const char        *where,
                 GError           **error)
{
  return check_metadata_url (where, "authorization_endpoint", m->authorization_endpoint,
                             MCP_URL_USE_BROWSER, error) &&
         check_metadata_url (where, "token_endpoint", m->token_endpoint, MCP_URL_USE_FETCH, error) &&
         (m->registration_endpoint == NULL ||
          check_metadata_url (where, "registration_endpoint", m->registration_endpoint,
                              MCP_URL_USE_FETCH, error));
}

/* Fills @d->result from a PRM; FALSE with @error when it is malformed. */
static gboolean
take_prm (Discover    *d,
          const char  *url,
          JsonObject  *object,
          GError     **error)
{
  McpOAuthMetadata *m = d->result;
  gboolean malformed;
  const char *resource;
  g_auto(GStrv) servers = NULL;
  g_auto(GStrv) scopes = NULL;

  servers = mcp_oauth_string_array (object, "authorization_servers", &malformed);
  if (malformed)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("The protected resource metadata at “%s” is malformed: "
                     "“authorization_servers” is not an array of strings"), url);
      return FALSE;
    }

  scopes = mcp_oauth_string_array (object, "scopes_supported", &malformed);
  if (malformed)
    g_debug ("Ignoring the malformed “scopes_supported” of “%s”", url);

  resource = mcp_json_optional_string (object, "resource", "protected resource metadata", url);
  if (resource != NULL && !check_prm_resource (d, url, resource, error))
    return FALSE;
  if (resource == NULL)
    g_debug ("“%s” names no resource; using the server URL", url);

  m->resource_metadata_url = g_strdup (url);
  if (resource != NULL && resource[0] != '\0')
    {
      g_free (m->resource);
      m->resource = g_strdup (resource);
    }
  m->resource_scopes_supported = g_steal_pointer (&scopes);

  if (servers != NULL && servers[0] != NULL)
    {
      m->authorization_servers = g_steal_pointer (&servers);
      d->prm_found = TRUE;
    }
  else
    g_debug ("“%s” names no authorization server; assuming the server's origin", url);

  return TRUE;
}

static gboolean
take_as_metadata (Discover    *d,
                  const char  *url,
                  JsonObject  *object,
                  GError     **error)
{
  McpOAuthMetadata *m = d->result;
  const char *authorization_endpoint;
  const char *token_endpoint;
  const char *issuer;
  JsonNode *node;
  gboolean malformed;

  /* RFC 8414 §3.3 (OpenID Connect Discovery §4.3 alike): the "issuer" must
   * be identical to the issuer the well-known URL was built from, as that
   * issuer was written (a trailing slash counts), or another server's
   * metadata could send the sign-in, and its code, elsewhere. Only a PRM
   * names an issuer: a URL the person configured was not built from one,
   * nor was the origin of a 2025-03-26 server without PRM, whose
   * authorization server may well call itself by a longer URL. */
  issuer = mcp_json_optional_string (object, "issuer", "authorization server metadata", url);
  if (issuer != NULL && d->configured_as_url == NULL && m->authorization_servers != NULL &&
      g_strcmp0 (issuer, m->issuer) != 0)
    {
      g_autofree char *valid = mcp_oauth_sanitize (issuer);

      /* Translators: the first %s is the address of the metadata, the second the
       * issuer it names, the third the authorization server it was asked for */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("The authorization server metadata at “%s” names “%s” as its issuer, not “%s”, "
                     "the authorization server it was fetched for; Plugboard does not sign in with "
                     "metadata of another server"),
                   url, valid, m->issuer);
      return FALSE;
    }
  /* RFC 8414 §2: "issuer" is REQUIRED; it is what an authorization
   * response's "iss" is checked against (RFC 9207). */
  if (issuer == NULL || issuer[0] == '\0')
    {
      /* Translators: %s is the address of the metadata */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("The authorization server metadata at “%s” has no “issuer”, which RFC 8414 requires; "
                     "Plugboard does not sign in with it"),
                   url);
      return FALSE;
    }
  if (!check_metadata_url (url, "issuer", issuer, MCP_URL_USE_FETCH, error))
    return FALSE;

  authorization_endpoint = mcp_json_optional_string (object, "authorization_endpoint",
                                                     "authorization server metadata", url);
  token_endpoint = mcp_json_optional_string (object, "token_endpoint",
                                             "authorization server metadata", url);
  if (authorization_endpoint == NULL || token_endpoint == NULL)
    {
      /* Translators: the first %s is an address, the second a member name (“token_endpoint”) */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("The authorization server metadata at “%s” has no “%s”; "
                     "the server cannot be signed in to"),
                   url, authorization_endpoint == NULL ? "authorization_endpoint" : "token_endpoint");
      return FALSE;
    }

  m->auth_server_metadata_url = g_strdup (url);
  m->authorization_endpoint = g_strdup (authorization_endpoint);
  m->token_endpoint = g_strdup (token_endpoint);
  m->registration_endpoint = g_strdup (mcp_json_optional_string (object, "registration_endpoint",
                                                                 "authorization server metadata", url));
  if (!check_endpoints (m, url, error))
    return FALSE;

#define STRINGS(field)                                                              \
  m->field = mcp_oauth_string_array (object, #field, &malformed);                   \
  if (malformed)                                                                    \
    g_debug ("Ignoring the malformed “%s” of “%s”", #field, url);

  STRINGS (code_challenge_methods_supported)
  STRINGS (token_endpoint_auth_methods_supported)
  STRINGS (grant_types_supported)
  STRINGS (scopes_supported)
#undef STRINGS

  node = json_object_get_member (object, "client_id_metadata_document_supported");
  m->client_id_metadata_document_supported =
    node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
    json_node_get_boolean (node);

  m->metadata_issuer = g_strdup (issuer);
  node = json_object_get_member (object, "authorization_response_iss_parameter_supported");
  m->authorization_response_iss_parameter_supported =
    node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
    json_node_get_boolean (node);

  return TRUE;
}

static void
use_default_endpoints (Discover *d)
{
  McpOAuthMetadata *m = d->result;
  g_autofree char *origin = origin_of (m->issuer, NULL);
  const char *base = origin != NULL ? origin : d->origin;

  /* 2025-03-26: without metadata the endpoints sit at fixed paths of the
   * server's origin, and PKCE is required there, so S256 can be assumed. */
  m->authorization_endpoint = g_strconcat (base, "/authorize", NULL);
  m->token_endpoint = g_strconcat (base, "/token", NULL);
  m->registration_endpoint = g_strconcat (base, "/register", NULL);
  g_clear_pointer (&m->code_challenge_methods_supported, g_strfreev);
  m->code_challenge_methods_supported = g_new0 (char *, 2);
  m->code_challenge_methods_supported[0] = g_strdup ("S256");
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
      !check_metadata_url (m->resource_metadata_url, "authorization_servers", m->issuer,
                           MCP_URL_USE_FETCH, error))
    return FALSE;

  origin = origin_of (m->issuer, &path);
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
      g_debug ("No protected resource metadata for “%s”: assuming a 2025-03-26 server",
               d->result->server_url);
      if (!start_as_phase (d, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      discover_next (g_steal_pointer (&task));
      return;
    }

  if (d->prm_found || d->configured_as_url != NULL)
    {
      /* Translators: the last %s is a list of addresses, each with what it answered */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("No authorization server metadata found for “%s” (authorization server “%s”); tried %s"),
                               d->result->server_url, d->result->issuer, d->tried->str);
      return;
    }

  g_debug ("No authorization server metadata for “%s”: using the default endpoints", d->result->issuer);
  use_default_endpoints (d);
  if (!check_endpoints (d->result, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
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
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  status = soup_message_get_status (message);
  if (status >= 400 && status < 500)
    {
      g_autofree char *what = g_strdup_printf ("HTTP %u", status);

      note_tried (d, url, what);
      discover_next (g_steal_pointer (&task));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autoptr(GError) status_error = mcp_http_status_error (url, message, body);

      if (d->phase == PHASE_PRM)
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("Fetching protected resource metadata failed: %s"), status_error->message);
      else
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 _("Fetching authorization server metadata failed: %s"), status_error->message);
      return;
    }

  node = mcp_oauth_parse_object (body, url, &error);
  if (node == NULL ||
      (d->phase == PHASE_PRM && !take_prm (d, url, json_node_get_object (node), &error)) ||
      (d->phase == PHASE_AS && !take_as_metadata (d, url, json_node_get_object (node), &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  note_tried (d, url, _("found"));

  if (d->phase == PHASE_PRM && d->prm_only)
    {
      g_task_return_pointer (task, g_steal_pointer (&d->result), (GDestroyNotify) mcp_oauth_metadata_free);
      return;
    }

  if (d->phase == PHASE_PRM)
    {
      if (!start_as_phase (d, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
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
  mcp_oauth_send_async (d->session, message, g_task_get_cancellable (task),
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

  d->origin = origin_of (server_url, &path);
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

McpOAuthMetadata *
mcp_oauth_discover_resource_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_discover_resource_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

McpOAuthMetadata *
mcp_oauth_discover_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_discover_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
