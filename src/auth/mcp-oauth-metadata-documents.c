/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-metadata.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-metadata-private.h"
#include "mcp-oauth-private.h"

/* The documents discovery fetches, read and checked: a protected resource
 * metadata's resource, an authorization server's issuer, every endpoint
 * through the URL policy; and the 2025-03-26 default endpoints. */

/* scheme://host[:port] of @url, or NULL when it is not an absolute
 * http(s) URL. */
char *
mcp_oauth_origin_of (const char *url,
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

  origin = mcp_oauth_origin_of (url, NULL);
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
gboolean
mcp_oauth_metadata_check_url (const char  *where,
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
gboolean
mcp_oauth_metadata_check_endpoints (McpOAuthMetadata  *m,
                                    const char        *where,
                                    GError           **error)
{
  return (m->authorization_endpoint == NULL ||
          mcp_oauth_metadata_check_url (where, "authorization_endpoint", m->authorization_endpoint,
                                        MCP_URL_USE_BROWSER, error)) &&
         mcp_oauth_metadata_check_url (where, "token_endpoint", m->token_endpoint, MCP_URL_USE_FETCH, error) &&
         (m->registration_endpoint == NULL ||
          mcp_oauth_metadata_check_url (where, "registration_endpoint", m->registration_endpoint,
                                        MCP_URL_USE_FETCH, error));
}

/* Fills @d->result from a PRM; FALSE with @error when it is malformed. */
gboolean
mcp_oauth_discover_take_prm (Discover    *d,
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

gboolean
mcp_oauth_discover_take_as_metadata (Discover    *d,
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
  if (!mcp_oauth_metadata_check_url (url, "issuer", issuer, MCP_URL_USE_FETCH, error))
    return FALSE;

  authorization_endpoint = mcp_json_optional_string (object, "authorization_endpoint",
                                                     "authorization server metadata", url);
  token_endpoint = mcp_json_optional_string (object, "token_endpoint",
                                             "authorization server metadata", url);
  /* RFC 8414 §2: authorization_endpoint is required "unless no grant
   * types are supported that use the authorization endpoint": a server for
   * machine clients only (client_credentials, JWT bearer) may leave it
   * out; a browser sign-in there is refused when it is tried. */
  if (authorization_endpoint == NULL && token_endpoint != NULL)
    {
      g_auto(GStrv) grants = mcp_oauth_string_array (object, "grant_types_supported", &malformed);

      if (!malformed && grants != NULL && !mcp_oauth_strv_contains (grants, "authorization_code") &&
          !mcp_oauth_strv_contains (grants, "implicit"))
        authorization_endpoint = NULL;
      else
        {
          /* Translators: the first %s is an address, the second a member name (“token_endpoint”) */
          g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                       _("The authorization server metadata at “%s” has no “%s”; "
                         "the server cannot be signed in to"),
                       url, "authorization_endpoint");
          return FALSE;
        }
    }
  else if (authorization_endpoint == NULL || token_endpoint == NULL)
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
  if (!mcp_oauth_metadata_check_endpoints (m, url, error))
    return FALSE;

#define STRINGS(field)                                                              \
  m->field = mcp_oauth_string_array (object, #field, &malformed);                   \
  if (malformed)                                                                    \
    g_debug ("Ignoring the malformed “%s” of “%s”", #field, url);

  STRINGS (code_challenge_methods_supported)
  STRINGS (token_endpoint_auth_methods_supported)
  STRINGS (grant_types_supported)
  STRINGS (scopes_supported)
  STRINGS (token_endpoint_auth_signing_alg_values_supported)
  STRINGS (dpop_signing_alg_values_supported)
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

void
mcp_oauth_discover_use_default_endpoints (Discover *d)
{
  McpOAuthMetadata *m = d->result;
  g_autofree char *origin = mcp_oauth_origin_of (m->issuer, NULL);
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

