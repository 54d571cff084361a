/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

/* McpProject: permission rules written to a scope's "permissions", for a
 * rule, a tool or every tool of a server. */

#include "config.h"

#include "mcp-project-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

void
mcp_project_set_rule_async (McpProject          *self,
                            const char          *rule,
                            McpConfigScope       scope,
                            McpRuleList          list,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *trimmed = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (rule != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_set_tool_rule_async);

  /* a rule the evaluator would ignore is refused, not written; taking one
   * out of the lists (NONE) works whatever it is */
  trimmed = g_strstrip (g_strdup (rule));
  if (list != MCP_RULE_NONE && !mcp_permissions_check_rule (trimmed, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("Permission rules are kept in your settings or in this project's "
                                 "entry of them (local scope), never in the project's .mcp.json"));
      return;
    }

  g_task_set_task_data (task, mcp_settings_set_rule_async, NULL);
  mcp_settings_set_rule_async (self->settings, list != MCP_RULE_NONE ? trimmed : rule, scope, list,
                               cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
}

/* Where the rules of a server go: a project's server gets them in this
 * project (local scope), a server of the person's own settings, or one
 * being tried, in those (user scope). */
static McpConfigScope
rule_scope_of (McpServerConfig *config)
{
  return config != NULL && mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_USER
         ? MCP_CONFIG_SCOPE_LOCAL : MCP_CONFIG_SCOPE_USER;
}

void
mcp_project_set_tool_rule_async (McpProject          *self,
                                 McpPoolTool         *tool,
                                 McpRuleList          list,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpServerConfig *config;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (MCP_IS_POOL_TOOL (tool));

  /* The rule is the tool's qualified name: the evaluator reads it as this
   * server's tool, never as a prefix. */
  config = mcp_server_connection_get_config (mcp_pool_tool_get_connection (tool));
  mcp_project_set_rule_async (self, mcp_pool_tool_get_qualified_name (tool), rule_scope_of (config),
                              list, cancellable, callback, user_data);
}

void
mcp_project_set_server_rule_async (McpProject          *self,
                                   const char          *name,
                                   McpRuleList          list,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *rule = NULL;
  McpServerConnection *connection;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);

  /* the connection's config: a server being tried has rules too */
  if ((connection = mcp_project_lookup_connection (self, name, &error)) == NULL)
    {
      g_task_report_error (self, callback, user_data, mcp_project_set_tool_rule_async,
                           g_steal_pointer (&error));
      return;
    }

  rule = mcp_tool_pool_make_server_rule (name);
  mcp_project_set_rule_async (self, rule, rule_scope_of (mcp_server_connection_get_config (connection)),
                              list, cancellable, callback, user_data);
}

gboolean
mcp_project_set_tool_rule_finish (McpProject    *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
