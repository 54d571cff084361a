/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-grant.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-grant-private.h"
#include "mcp-oauth-private.h"

/* McpOAuthGrantConfig: the grant members of a server's "oauth" settings
 * (mcp-oauth-grant.h), read once the values are expanded. */

static void
source_clear (McpOAuthSource *source)
{
  g_clear_pointer (&source->path, g_free);
  g_clear_pointer (&source->variable, g_free);
  g_clear_pointer (&source->argv, g_strfreev);
  source->kind = MCP_OAUTH_SOURCE_NONE;
}

void
mcp_oauth_grant_config_free (McpOAuthGrantConfig *self)
{
  if (self == NULL)
    return;

  g_free (self->client_id);
  mcp_oauth_free_secret (self->client_secret);
  g_free (self->token_endpoint_auth_method);
  mcp_oauth_free_secret (self->private_key);
  source_clear (&self->assertion);
  g_free (self->idp_issuer);
  g_free (self->idp_token_endpoint);
  g_free (self->idp_client_id);
  mcp_oauth_free_secret (self->idp_client_secret);
  source_clear (&self->id_token);
  g_free (self);
}

const char *
mcp_oauth_grant_kind_to_string (McpOAuthGrantKind kind)
{
  switch (kind)
    {
    case MCP_OAUTH_GRANT_CLIENT_CREDENTIALS:
      return "client_credentials";
    case MCP_OAUTH_GRANT_JWT_BEARER:
      return "jwt_bearer";
    case MCP_OAUTH_GRANT_ENTERPRISE:
      return "enterprise";
    case MCP_OAUTH_GRANT_AUTHORIZATION_CODE:
    default:
      return "authorization_code";
    }
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (GError     **error,
      const char  *member,
      const char  *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "%s: %s", member, what);
  return FALSE;
}

/* An optional string member of @object, at @path ("oauth.clientId"). */
static gboolean
get_string (JsonObject  *object,
            const char  *member,
            const char  *path,
            char       **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (error, path, _("expected a string"));
  if (json_node_get_string (node)[0] != '\0')
    *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

/* {"file": PATH} | {"env": VAR} | {"command": [ARGV…]} | {"signIn": true},
 * as far as @allowed (a mask of 1 << McpOAuthSourceKind) lets. */
static gboolean
get_source (JsonObject     *object,
            const char     *member,
            const char     *path,
            guint           allowed,
            McpOAuthSource *source,
            GError        **error)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonObject *inner;
  JsonNode *value;
  const char *expected;

  if ((allowed & (1 << MCP_OAUTH_SOURCE_SIGN_IN)) != 0)
    expected = _("expected {\"command\": [PROGRAM, ARGUMENT…]}, {\"file\": PATH}, {\"env\": VARIABLE} "
                 "or {\"signIn\": true}");
  else
    expected = _("expected {\"file\": PATH} or {\"env\": VARIABLE}");

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, path, "%s", expected);
  inner = json_node_get_object (node);
  if (json_object_get_size (inner) != 1)
    return fail (error, path, "%s", expected);

  if ((value = json_object_get_member (inner, "file")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING ||
          json_node_get_string (value)[0] == '\0')
        return fail (error, path, "%s", expected);
      source->kind = MCP_OAUTH_SOURCE_FILE;
      source->path = g_strdup (json_node_get_string (value));
    }
  else if ((value = json_object_get_member (inner, "env")) != NULL)
    {
      const char *name;

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        return fail (error, path, "%s", expected);
      name = json_node_get_string (value);
      if (name[0] == '\0' || strchr (name, '=') != NULL)
        return fail (error, path, _("“env” must name an environment variable"));
      source->kind = MCP_OAUTH_SOURCE_ENV;
      source->variable = g_strdup (name);
    }
  else if ((value = json_object_get_member (inner, "command")) != NULL &&
           (allowed & (1 << MCP_OAUTH_SOURCE_COMMAND)) != 0)
    {
      JsonArray *array;
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      if (!JSON_NODE_HOLDS_ARRAY (value) || json_array_get_length (json_node_get_array (value)) == 0)
        return fail (error, path, _("“command” must be an array: the program, then its arguments"));
      array = json_node_get_array (value);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING ||
              (i == 0 && json_node_get_string (element)[0] == '\0'))
            return fail (error, path, _("“command” must be an array of strings, the program first"));
          g_strv_builder_add (builder, json_node_get_string (element));
        }
      source->kind = MCP_OAUTH_SOURCE_COMMAND;
      source->argv = g_strv_builder_end (builder);
    }
  else if ((value = json_object_get_member (inner, "signIn")) != NULL &&
           (allowed & (1 << MCP_OAUTH_SOURCE_SIGN_IN)) != 0)
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_BOOLEAN ||
          !json_node_get_boolean (value))
        return fail (error, path, _("“signIn” must be true"));
      source->kind = MCP_OAUTH_SOURCE_SIGN_IN;
    }
  else
    return fail (error, path, "%s", expected);

  return TRUE;
}

static gboolean
read_grant_kind (JsonObject          *oauth,
                 McpOAuthGrantConfig *self,
                 GError             **error)
{
  g_autofree char *grant = NULL;
  static const McpOAuthGrantKind kinds[] = {
    MCP_OAUTH_GRANT_AUTHORIZATION_CODE, MCP_OAUTH_GRANT_CLIENT_CREDENTIALS,
    MCP_OAUTH_GRANT_JWT_BEARER, MCP_OAUTH_GRANT_ENTERPRISE,
  };

  if (!get_string (oauth, "grant", "oauth.grant", &grant, error))
    return FALSE;
  if (grant == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (grant, mcp_oauth_grant_kind_to_string (kinds[i])))
      {
        self->kind = kinds[i];
        return TRUE;
      }
  return fail (error, "oauth.grant",
               _("expected “authorization_code”, “client_credentials”, “jwt_bearer” or “enterprise”"));
}

static gboolean
read_idp (JsonObject          *oauth,
          McpOAuthGrantConfig *self,
          GError             **error)
{
  JsonNode *node = json_object_get_member (oauth, "idp");
  JsonObject *idp;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, "oauth.idp", _("expected an object (issuer, tokenEndpoint, clientId, clientSecret, idToken)"));
  idp = json_node_get_object (node);

  return get_string (idp, "issuer", "oauth.idp.issuer", &self->idp_issuer, error) &&
         get_string (idp, "tokenEndpoint", "oauth.idp.tokenEndpoint", &self->idp_token_endpoint, error) &&
         get_string (idp, "clientId", "oauth.idp.clientId", &self->idp_client_id, error) &&
         get_string (idp, "clientSecret", "oauth.idp.clientSecret", &self->idp_client_secret, error) &&
         get_source (idp, "idToken", "oauth.idp.idToken",
                     (1 << MCP_OAUTH_SOURCE_FILE) | (1 << MCP_OAUTH_SOURCE_ENV) |
                     (1 << MCP_OAUTH_SOURCE_COMMAND) | (1 << MCP_OAUTH_SOURCE_SIGN_IN),
                     &self->id_token, error);
}

/* What each grant cannot do without. */
static gboolean
check_complete (McpOAuthGrantConfig  *self,
                GError              **error)
{
  const char *method = self->token_endpoint_auth_method;

  /* The browser sign-in may get its secret elsewhere
   * (mcp_oauth_provider_set_client_secret()). */
  if (self->kind == MCP_OAUTH_GRANT_AUTHORIZATION_CODE)
    return TRUE;

  if (g_strcmp0 (method, "private_key_jwt") == 0 && self->private_key == NULL)
    return fail (error, "oauth.privateKey", _("“tokenEndpointAuthMethod” “private_key_jwt” needs a private key (PEM)"));
  if ((g_strcmp0 (method, "client_secret_basic") == 0 || g_strcmp0 (method, "client_secret_post") == 0) &&
      self->client_secret == NULL)
    return fail (error, "oauth.clientSecret",
                 _("“tokenEndpointAuthMethod” “%s” needs a client secret"), method);

  switch (self->kind)
    {
    case MCP_OAUTH_GRANT_CLIENT_CREDENTIALS:
      if (self->client_id == NULL)
        return fail (error, "oauth.clientId", _("the client_credentials grant needs a client ID"));
      if (self->client_secret == NULL && self->private_key == NULL)
        return fail (error, "oauth.clientSecret",
                     _("the client_credentials grant needs a client secret or a private key (“oauth.privateKey”)"));
      break;

    case MCP_OAUTH_GRANT_JWT_BEARER:
      if (self->assertion.kind == MCP_OAUTH_SOURCE_NONE)
        return fail (error, "oauth.assertion",
                     _("the jwt_bearer grant needs an assertion: {\"file\": PATH} or {\"env\": VARIABLE}"));
      break;

    case MCP_OAUTH_GRANT_ENTERPRISE:
      if (self->client_id == NULL)
        return fail (error, "oauth.clientId", _("the enterprise grant needs the client ID at the MCP server's authorization server"));
      if (self->idp_issuer == NULL && self->idp_token_endpoint == NULL)
        return fail (error, "oauth.idp", _("the enterprise grant needs the identity provider's “issuer” or “tokenEndpoint”"));
      if (self->id_token.kind == MCP_OAUTH_SOURCE_NONE)
        return fail (error, "oauth.idp.idToken", _("the enterprise grant needs to know where the ID token comes from"));
      if (self->id_token.kind == MCP_OAUTH_SOURCE_SIGN_IN &&
          (self->idp_issuer == NULL || self->idp_client_id == NULL))
        return fail (error, "oauth.idp",
                     _("signing in at the identity provider needs its “issuer” and a “clientId” there"));
      break;

    case MCP_OAUTH_GRANT_AUTHORIZATION_CODE:
    default:
      break;
    }

  return TRUE;
}

McpOAuthGrantConfig *
mcp_oauth_grant_config_new_from_json (JsonObject  *oauth,
                                      GError     **error)
{
  g_autoptr(McpOAuthGrantConfig) self = g_new0 (McpOAuthGrantConfig, 1);
  g_autofree char *alg = NULL;
  JsonNode *node;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self->kind = MCP_OAUTH_GRANT_AUTHORIZATION_CODE;
  self->signing_alg = MCP_JOSE_ALG_ES256;
  self->dpop = -1;
  if (oauth == NULL)
    return g_steal_pointer (&self);

  if (!read_grant_kind (oauth, self, error) ||
      !get_string (oauth, "clientId", "oauth.clientId", &self->client_id, error) ||
      !get_string (oauth, "clientSecret", "oauth.clientSecret", &self->client_secret, error) ||
      !get_string (oauth, "tokenEndpointAuthMethod", "oauth.tokenEndpointAuthMethod",
                   &self->token_endpoint_auth_method, error) ||
      !get_string (oauth, "privateKey", "oauth.privateKey", &self->private_key, error) ||
      !get_string (oauth, "signingAlgorithm", "oauth.signingAlgorithm", &alg, error) ||
      !get_source (oauth, "assertion", "oauth.assertion",
                   (1 << MCP_OAUTH_SOURCE_FILE) | (1 << MCP_OAUTH_SOURCE_ENV), &self->assertion, error) ||
      !read_idp (oauth, self, error))
    return NULL;

  if (self->token_endpoint_auth_method != NULL)
    {
      static const char * const methods[] = {
        "client_secret_basic", "client_secret_post", "private_key_jwt", "none", NULL
      };

      if (!g_strv_contains (methods, self->token_endpoint_auth_method))
        {
          fail (error, "oauth.tokenEndpointAuthMethod",
                _("expected “client_secret_basic”, “client_secret_post”, “private_key_jwt” or “none”"));
          return NULL;
        }
    }

  if (alg != NULL && !mcp_jose_alg_from_string (alg, &self->signing_alg))
    {
      fail (error, "oauth.signingAlgorithm", _("expected “ES256” or “RS256”"));
      return NULL;
    }

  node = json_object_get_member (oauth, "dpop");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          fail (error, "oauth.dpop", _("expected true or false"));
          return NULL;
        }
      self->dpop = json_node_get_boolean (node) ? 1 : 0;
    }

  if (!check_complete (self, error))
    return NULL;

  return g_steal_pointer (&self);
}
