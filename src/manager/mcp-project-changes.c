/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

/* McpProject: what changed in its servers' capabilities, and the allow
 * rules a changed tool suspends (rug pulls). */

#include "config.h"

#include "mcp-project-private.h"

#include "mcp-capability-history.h"

guint mcp_project_tool_changed_signal;

/* The capability history's key of the server @name: its connection's
 * config (a server being tried has one too), else its settings entry. */
static char *
server_key (McpProject  *self,
            const char  *name,
            GError     **error)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self->manager, name);
  McpServerConfig *config;

  if (connection != NULL)
    config = mcp_server_connection_get_config (connection);
  else if ((config = mcp_project_lookup_config (self, name, error)) == NULL)
    return NULL;

  return mcp_capability_history_key (config);
}

static gboolean
tool_changed_cb (const char *server,
                 const char *tool,
                 gpointer    user_data)
{
  g_autoptr(McpProject) self = g_weak_ref_get (user_data);

  return self != NULL && mcp_project_tool_changed (self, server, tool);
}

static void
weak_ref_free (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

void
mcp_project_check_changes (McpProject     *self,
                           McpPermissions *permissions)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  /* weak: the app's widgets may keep the evaluator after the project */
  g_weak_ref_init (ref, self);
  mcp_permissions_set_changed_func (permissions, tool_changed_cb, ref, weak_ref_free);
}

static void
on_tool_changed_cb (McpCapabilityHistory *history,
                    const char           *key,
                    const char           *server,
                    const char           *tool,
                    McpProject           *self)
{
  g_autofree char *own_key = server_key (self, server, NULL);
  McpPermissionDecision decision;

  if (g_strcmp0 (own_key, key) != 0 || self->permissions == NULL)
    return;

  /* a new evaluator, so that what shows a decision asks again */
  mcp_project_update_permissions (self, TRUE);
  mcp_permissions_decide (self->permissions, server, tool, MCP_PERMISSION_HINT_NONE, &decision);
  if (decision.reason == MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED)
    {
      g_debug ("“%s”: the tool “%s” changed since it was allowed", server, tool);
      g_signal_emit (self, mcp_project_tool_changed_signal, 0, server, tool);
    }
}

void
mcp_project_watch_changes (McpProject *self)
{
  g_signal_connect_object (mcp_capability_history_get_default (), "tool-changed",
                           G_CALLBACK (on_tool_changed_cb), self, 0);
}

GPtrArray *
mcp_project_list_changes (McpProject  *self,
                          const char  *name,
                          GDateTime   *since,
                          GError     **error)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if ((key = server_key (self, name, error)) == NULL)
    return NULL;
  return mcp_capability_history_list_changes (mcp_capability_history_get_default (), key, since, error);
}

gboolean
mcp_project_tool_changed (McpProject *self,
                          const char *name,
                          const char *tool)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (name != NULL && tool != NULL, FALSE);

  if ((key = server_key (self, name, NULL)) == NULL)
    return FALSE;
  return mcp_capability_history_tool_changed (mcp_capability_history_get_default (), key, tool);
}

gboolean
mcp_project_confirm_tool (McpProject  *self,
                          const char  *name,
                          const char  *tool,
                          GError     **error)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (name != NULL && tool != NULL, FALSE);

  if ((key = server_key (self, name, error)) == NULL ||
      !mcp_capability_history_confirm_tool (mcp_capability_history_get_default (), key, tool, error))
    return FALSE;

  mcp_project_update_permissions (self, TRUE);
  return TRUE;
}
