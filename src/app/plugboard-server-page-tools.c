/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage's Tools section: the pool's tools of this server,
 * shown only when there are any; activating one shows it. And the
 * Changes view: what changed in them since the last connection. */

#include "config.h"

#include "plugboard-server-page-private.h"

static gboolean
server_tool_filter_func (gpointer item,
                         gpointer user_data)
{
  PlugboardServerPage *self = user_data;

  return self->connection != NULL &&
         mcp_pool_tool_get_connection (MCP_POOL_TOOL (item)) == self->connection;
}

void
plugboard_server_page_update_tools (PlugboardServerPage *self)
{
  GtkFilter *filter;

  if (self->server_tools == NULL)
    return;

  filter = gtk_filter_list_model_get_filter (self->server_tools);
  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_server_tools_changed_cb (PlugboardServerPage *self)
{
  gboolean any = self->server_tools != NULL &&
                 g_list_model_get_n_items (G_LIST_MODEL (self->server_tools)) > 0;

  /* the Tools view, tab and all, shows only for a server with tools */
  gtk_widget_set_visible (self->tools_group, any);
  gtk_widget_set_visible (gtk_widget_get_parent (self->tools_group), any);
}

static void
on_tool_activated_cb (PlugboardServerPage *self,
                      McpPoolTool         *tool)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-tool", "s",
                              mcp_pool_tool_get_qualified_name (tool));
}

void
plugboard_server_page_set_tool_pool (PlugboardServerPage *self,
                                     McpToolPool         *pool,
                                     McpPermissions      *permissions)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (!pool || MCP_IS_TOOL_POOL (pool));
  g_return_if_fail (!permissions || MCP_IS_PERMISSIONS (permissions));

  plugboard_tool_list_set_permissions (self->tool_list, permissions);

  if (self->tool_pool == pool)
    return;

  if (self->server_tools != NULL)
    g_signal_handlers_disconnect_by_data (self->server_tools, self);
  g_clear_object (&self->server_tools);
  g_set_object (&self->tool_pool, pool);

  if (pool != NULL)
    {
      GtkCustomFilter *filter = gtk_custom_filter_new (server_tool_filter_func, self, NULL);

      self->server_tools = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (pool)),
                                                      GTK_FILTER (filter));
      g_signal_connect_swapped (self->server_tools, "items-changed",
                                G_CALLBACK (on_server_tools_changed_cb), self);
    }

  plugboard_tool_list_set_tools (self->tool_list,
                                 self->server_tools ? G_LIST_MODEL (self->server_tools) : NULL);
  on_server_tools_changed_cb (self);
}

void
plugboard_server_page_update_changes (PlugboardServerPage *self)
{
  plugboard_changes_view_set_server (self->changes_view, self->project,
                                     self->connection != NULL
                                     ? mcp_server_connection_get_name (self->connection) : NULL);
  /* a tool whose allow rule a change suspended wants a look */
  adw_view_stack_page_set_needs_attention (self->changes_page,
                                           plugboard_changes_view_get_n_flagged (self->changes_view) > 0);
}

void
plugboard_server_page_set_project (PlugboardServerPage *self,
                                   McpProject          *project)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (!project || MCP_IS_PROJECT (project));

  /* set again when the permissions change (a rug pull, a confirmation):
   * the history is read again either way */
  g_set_object (&self->project, project);
  plugboard_server_page_update_changes (self);
}

void
plugboard_server_page_show_changes (PlugboardServerPage *self)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  adw_view_stack_set_visible_child_name (self->view_stack, "changes");
}

void
plugboard_server_page_class_init_tools (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_tool_activated_cb);
}
