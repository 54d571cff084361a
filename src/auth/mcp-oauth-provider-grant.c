/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth-provider"

#include "config.h"

#include "mcp-oauth-provider.h"
#include "mcp-oauth-provider-private.h"

#include "mcp-error.h"

/* CONTRACT STUB: the grants part replaces this file. */

gboolean
mcp_oauth_provider_uses_grant (McpOAuthProvider *self)
{
  return self->grant != NULL && self->grant->kind != MCP_OAUTH_GRANT_AUTHORIZATION_CODE;
}

void
mcp_oauth_provider_grant_start (McpOAuthProvider    *self,
                                const char          *scope,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_oauth_provider_grant_start,
                           MCP_ERROR, MCP_ERROR_NEEDS_AUTH, "not implemented");
}

gboolean
mcp_oauth_provider_grant_finish (McpOAuthProvider  *self,
                                 GAsyncResult      *result,
                                 GError           **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
