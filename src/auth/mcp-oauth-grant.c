/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-grant.h"

#include "mcp-error.h"

/* CONTRACT STUB: the grants part replaces this file. */

McpOAuthGrantConfig *
mcp_oauth_grant_config_new_from_json (JsonObject  *oauth,
                                      GError     **error)
{
  McpOAuthGrantConfig *self = g_new0 (McpOAuthGrantConfig, 1);

  self->kind = MCP_OAUTH_GRANT_AUTHORIZATION_CODE;
  self->dpop = -1;
  return self;
}

void
mcp_oauth_grant_config_free (McpOAuthGrantConfig *self)
{
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

void
mcp_oauth_grant_run_async (SoupSession               *session,
                           const McpOAuthGrantConfig *config,
                           const McpOAuthMetadata    *metadata,
                           const char                *scope,
                           McpDPoP                   *dpop,
                           GCancellable              *cancellable,
                           GAsyncReadyCallback        callback,
                           gpointer                   user_data)
{
  g_task_report_new_error (NULL, callback, user_data, mcp_oauth_grant_run_async,
                           MCP_ERROR, MCP_ERROR_NEEDS_AUTH, "not implemented");
}

McpOAuthTokens *
mcp_oauth_grant_run_finish (GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
