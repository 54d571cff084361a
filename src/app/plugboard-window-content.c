/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: the content pane — a server's page, a tool's page, the
 * empty, shadowed and loading states — and the way between it and the
 * sidebar (the back button, the folded leaflet, All Tools). */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

static void
update_back_button (PlugboardWindow *self)
{
  gtk_widget_set_visible (self->back_button,
                          adw_leaflet_get_folded (self->leaflet) ||
                          (self->showing_tool && self->tool_from_server));
}

void
plugboard_window_hide_tool (PlugboardWindow *self)
{
  if (!self->showing_tool)
    return;

  self->showing_tool = FALSE;
  self->tool_from_server = FALSE;
  update_back_button (self);
}

static void
on_back_clicked_cb (PlugboardWindow *self)
{
  /* From a tool opened on a server's page, back to that page. */
  if (self->showing_tool && self->tool_from_server)
    {
      plugboard_window_hide_tool (self);
      plugboard_window_update_content (self);
      return;
    }

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
}

static gboolean
show_tool (PlugboardWindow *self,
           const char      *qualified_name,
           gboolean         from_server)
{
  McpPoolTool *tool;

  if (self->project == NULL)
    return FALSE;

  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (self->project), qualified_name);
  if (tool == NULL)
    return FALSE;

  plugboard_tool_page_set_project (self->tool_page, self->project);
  plugboard_tool_page_set_permissions (self->tool_page, mcp_project_get_permissions (self->project));
  plugboard_tool_page_set_history (self->tool_page, mcp_project_get_history (self->project));
  plugboard_tool_page_set_tool (self->tool_page, tool);
  self->showing_tool = TRUE;
  self->tool_from_server = from_server;
  update_back_button (self);
  plugboard_window_update_content (self);
  adw_leaflet_set_visible_child (self->leaflet, self->content_box);

  return TRUE;
}

static void
on_all_tools_activated_cb (PlugboardWindow *self,
                           McpPoolTool     *tool)
{
  show_tool (self, mcp_pool_tool_get_qualified_name (tool), FALSE);
}

static void
on_sidebar_view_changed_cb (PlugboardWindow *self)
{
  /* Back to the servers: the content follows the selected server again. */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->sidebar_view_stack), "servers") == 0 &&
      self->showing_tool && !self->tool_from_server)
    {
      plugboard_window_hide_tool (self);
      plugboard_window_update_content (self);
    }
}

static void
on_leaflet_folded_cb (PlugboardWindow *self)
{
  /* Side by side, the page shows the server's name itself. */
  gtk_widget_set_visible (GTK_WIDGET (self->content_title), adw_leaflet_get_folded (self->leaflet));
  update_back_button (self);

  /* Unfolded, both panes show; folded, start with the list. */
  if (adw_leaflet_get_folded (self->leaflet) &&
      gtk_single_selection_get_selected_item (self->selection) == NULL)
    plugboard_window_update_content (self);
}

void
plugboard_window_update_content (PlugboardWindow *self)
{
  GListModel *servers = self->project ? mcp_project_get_servers (self->project) : NULL;
  GObject *item = gtk_single_selection_get_selected_item (self->selection);
  gboolean empty = servers == NULL || g_list_model_get_n_items (servers) == 0;
  gboolean filtered_empty = g_list_model_get_n_items (G_LIST_MODEL (self->selection)) == 0;

  gtk_stack_set_visible_child_name (self->sidebar_stack,
                                    !empty && filtered_empty ? "no-results" : "list");

  if (self->showing_tool && plugboard_tool_page_get_tool (self->tool_page) != NULL)
    {
      McpPoolTool *tool = plugboard_tool_page_get_tool (self->tool_page);

      gtk_stack_set_visible_child_name (self->content_stack, "tool");
      adw_window_title_set_title (self->content_title, mcp_pool_tool_get_display_name (tool));
      adw_window_title_set_subtitle (self->content_title, mcp_pool_tool_get_server_name (tool));
      return;
    }

  if (self->project != NULL && !mcp_project_get_loaded (self->project))
    {
      gtk_stack_set_visible_child_name (self->content_stack, "loading");
      adw_window_title_set_title (self->content_title, "");
      adw_window_title_set_subtitle (self->content_title, "");
      return;
    }

  if (empty)
    {
      /* Folded, a newcomer sees the offers, not an empty list. */
      if (adw_leaflet_get_folded (self->leaflet))
        adw_leaflet_set_visible_child (self->leaflet, self->content_box);
      plugboard_server_page_set_connection (self->server_page, NULL);
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      adw_window_title_set_title (self->content_title, "");
      adw_window_title_set_subtitle (self->content_title, "");
      return;
    }

  if (MCP_IS_SERVER_CONNECTION (item))
    {
      McpServerConnection *connection = MCP_SERVER_CONNECTION (item);
      const char *name = mcp_server_connection_get_name (connection);
      McpServerConfig *config = mcp_server_connection_get_config (connection);

      if (plugboard_server_page_get_connection (self->server_page) != connection)
        {
          plugboard_server_page_set_settings (self->server_page, plugboard_window_current_settings (self));
          plugboard_server_page_set_roots (self->server_page,
                                           self->project != NULL ? mcp_project_get_roots (self->project) : NULL);
          plugboard_server_page_set_connection (self->server_page, connection);
          plugboard_server_page_set_clients (self->server_page, self->client_summaries,
                                             plugboard_window_get_client (self));
        }
      plugboard_server_page_set_signing_in (self->server_page,
                                            g_hash_table_contains (self->sign_ins, name));
      plugboard_server_page_set_sign_in_error (self->server_page,
                                               g_hash_table_lookup (self->sign_in_errors, name));
      plugboard_server_page_set_sign_in_url (self->server_page,
                                             g_hash_table_contains (self->sign_ins, name)
                                               ? g_hash_table_lookup (self->sign_in_urls, name)
                                               : NULL);
      gtk_stack_set_visible_child_name (self->content_stack, "server");
      adw_window_title_set_title (self->content_title, name);
      adw_window_title_set_subtitle (self->content_title,
                                     config ? plugboard_config_place_label (config) : "");
      return;
    }

  plugboard_server_page_set_connection (self->server_page, NULL);

  if (MCP_IS_SERVER_CONFIG (item))
    {
      McpServerConfig *config = MCP_SERVER_CONFIG (item);
      const char *name = mcp_server_config_get_name (config);
      McpServerConfig *effective = mcp_settings_lookup (plugboard_window_current_settings (self), name);
      g_autofree char *description = NULL;

      /* Translators: the first %s is a server name, the others are scopes
       * ("User", "Project", "Local"). */
      description = g_strdup_printf (_("The “%s” entry of the %s settings is not used: "
                                       "the %s settings have a server with the same name, "
                                       "which wins."),
                                     name,
                                     plugboard_scope_label (mcp_server_config_get_scope (config)),
                                     effective ? plugboard_scope_label (mcp_server_config_get_scope (effective)) : "");
      adw_status_page_set_description (self->shadowed_page, description);
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->shadowed_button), "s", name);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->shadowed_button), "win.show-server");
      gtk_stack_set_visible_child_name (self->content_stack, "shadowed");
      adw_window_title_set_title (self->content_title, name);
      adw_window_title_set_subtitle (self->content_title,
                                     plugboard_scope_label (mcp_server_config_get_scope (config)));
      return;
    }

  if (adw_leaflet_get_folded (self->leaflet) &&
      adw_leaflet_get_visible_child (self->leaflet) == self->content_box &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "empty") == 0)
    adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  gtk_stack_set_visible_child_name (self->content_stack, "none");
  adw_window_title_set_title (self->content_title, "");
  adw_window_title_set_subtitle (self->content_title, "");
}

static void
show_tool_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *visible = gtk_stack_get_visible_child_name (self->content_stack);

  gboolean tools_view = g_strcmp0 (adw_view_stack_get_visible_child_name (self->sidebar_view_stack),
                                   "tools") == 0;

  /* Opened from the server's page (not from All Tools): back returns there. */
  show_tool (self, g_variant_get_string (parameter, NULL),
             !tools_view &&
             (g_strcmp0 (visible, "server") == 0 ||
              (self->showing_tool && self->tool_from_server)));
}

static void
run_tool_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->showing_tool)
    plugboard_tool_page_run (self->tool_page);
}

static const GActionEntry content_actions[] = {
  { "show-tool", show_tool_action, "s" },
  { "run-tool", run_tool_action },
};

void
plugboard_window_class_content_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_leaflet_folded_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_all_tools_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_view_changed_cb);
}

void
plugboard_window_content_init (PlugboardWindow *self)
{
  plugboard_window_add_actions (self, content_actions, G_N_ELEMENTS (content_actions));

  plugboard_window_update_content (self);
  on_leaflet_folded_cb (self);
}
