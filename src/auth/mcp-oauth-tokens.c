/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-tokens.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-private.h"

/* McpOAuthTokens: tokens from a token endpoint, copied, stored as JSON and
 * read back. The token requests are in mcp-oauth-tokens-request.c. */

void
mcp_oauth_tokens_free (McpOAuthTokens *self)
{
  if (self == NULL)
    return;

  mcp_oauth_free_secret (self->access_token);
  g_free (self->token_type);
  mcp_oauth_free_secret (self->refresh_token);
  g_free (self->scope);
  g_free (self->token_endpoint);
  g_free (self->issuer);
  mcp_oauth_free_secret (self->dpop_key);
  g_free (self);
}

McpOAuthTokens *
mcp_oauth_tokens_copy (const McpOAuthTokens *self)
{
  McpOAuthTokens *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (McpOAuthTokens, 1);
  copy->access_token = g_strdup (self->access_token);
  copy->token_type = g_strdup (self->token_type);
  copy->refresh_token = g_strdup (self->refresh_token);
  copy->scope = g_strdup (self->scope);
  copy->expires_at = self->expires_at;
  copy->token_endpoint = g_strdup (self->token_endpoint);
  copy->issuer = g_strdup (self->issuer);
  copy->dpop_key = g_strdup (self->dpop_key);

  return copy;
}

JsonNode *
mcp_oauth_tokens_to_json (const McpOAuthTokens *self)
{
  g_autoptr(JsonBuilder) builder = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  builder = json_builder_new ();
  json_builder_begin_object (builder);

#define STRING(field)                                          \
  if (self->field != NULL)                                     \
    {                                                          \
      json_builder_set_member_name (builder, #field);          \
      json_builder_add_string_value (builder, self->field);    \
    }

  STRING (access_token)
  STRING (token_type)
  STRING (refresh_token)
  STRING (scope)
#undef STRING

  if (self->expires_at != 0)
    {
      json_builder_set_member_name (builder, "expires_at");
      json_builder_add_int_value (builder, self->expires_at);
    }

  if (self->token_endpoint != NULL)
    {
      json_builder_set_member_name (builder, "token_endpoint");
      json_builder_add_string_value (builder, self->token_endpoint);
    }
  if (self->issuer != NULL)
    {
      json_builder_set_member_name (builder, "issuer");
      json_builder_add_string_value (builder, self->issuer);
    }
  if (self->dpop_key != NULL)
    {
      json_builder_set_member_name (builder, "dpop_key");
      json_builder_add_string_value (builder, self->dpop_key);
    }

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

McpOAuthTokens *
mcp_oauth_tokens_from_json (JsonNode  *node,
                            GError   **error)
{
  g_autoptr(McpOAuthTokens) self = NULL;
  JsonObject *object;
  const char *access_token;
  JsonNode *expires;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored OAuth tokens are not a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  access_token = mcp_json_optional_string (object, "access_token", "stored OAuth tokens", NULL);
  if (access_token == NULL || access_token[0] == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored OAuth tokens have no “access_token”"));
      return NULL;
    }

  self = g_new0 (McpOAuthTokens, 1);
  self->access_token = g_strdup (access_token);
  self->token_type = g_strdup (mcp_json_optional_string (object, "token_type", "stored OAuth tokens", NULL));
  if (self->token_type == NULL)
    self->token_type = g_strdup ("Bearer");
  self->refresh_token = g_strdup (mcp_json_optional_string (object, "refresh_token", "stored OAuth tokens", NULL));
  self->scope = g_strdup (mcp_json_optional_string (object, "scope", "stored OAuth tokens", NULL));
  self->token_endpoint = g_strdup (mcp_json_optional_string (object, "token_endpoint", "stored OAuth tokens", NULL));
  self->issuer = g_strdup (mcp_json_optional_string (object, "issuer", "stored OAuth tokens", NULL));
  self->dpop_key = g_strdup (mcp_json_optional_string (object, "dpop_key", "stored OAuth tokens", NULL));

  expires = json_object_get_member (object, "expires_at");
  if (expires != NULL && json_node_get_value_type (expires) == G_TYPE_INT64)
    self->expires_at = json_node_get_int (expires);

  return g_steal_pointer (&self);
}

gboolean
mcp_oauth_tokens_expire_within (const McpOAuthTokens *self,
                                gint64                margin_s)
{
  gint64 now;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->expires_at == 0)
    return FALSE;

  now = g_get_real_time () / G_USEC_PER_SEC;
  return now + margin_s >= self->expires_at;
}

