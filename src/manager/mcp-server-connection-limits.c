/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include "mcp-processed-result.h"

/* What the manager passes on to each connection: the environment ${VAR}
 * expands from, the timeouts and the largest tool output kept (its
 * limits), and the first reconnection delay. */

void
mcp_server_connection_set_environ (McpServerConnection *self,
                                   const char * const  *environ)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  g_strfreev (self->environ);
  self->environ = g_strdupv ((char **) environ);
}

void
mcp_server_connection_set_connect_timeout (McpServerConnection *self,
                                           guint                timeout_ms)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  self->connect_timeout = timeout_ms;
}

void
mcp_server_connection_set_limits (McpServerConnection *self,
                                  guint                tool_timeout_ms,
                                  guint                request_timeout_ms,
                                  guint                max_output_tokens,
                                  guint                oauth_request_timeout_ms)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  self->tool_timeout = tool_timeout_ms;
  self->request_timeout = request_timeout_ms;
  self->max_output_tokens = MAX (max_output_tokens, 1);
  self->oauth_request_timeout = MAX (oauth_request_timeout_ms, 1);
  if (self->oauth_provider != NULL)
    mcp_oauth_provider_set_request_timeout (self->oauth_provider, self->oauth_request_timeout);
}

guint
mcp_server_connection_get_tool_timeout (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), 0);

  if (self->config != NULL && mcp_server_config_get_tool_timeout (self->config) != 0)
    return mcp_server_config_get_tool_timeout (self->config);
  return self->tool_timeout;
}

gsize
mcp_server_connection_get_max_output_characters (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), 0);

  return (gsize) self->max_output_tokens * MCP_CHARACTERS_PER_TOKEN;
}

void
mcp_server_connection_set_backoff_base (McpServerConnection *self,
                                        guint                base_ms)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  self->backoff_base = MAX (base_ms, 1);
}
