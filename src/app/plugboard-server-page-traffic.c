/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage's Traffic page: the connection's trace (kept across
 * reconnects), and the failure card's way there. */

#include "config.h"

#include "plugboard-server-page-private.h"

void
plugboard_server_page_update_traffic (PlugboardServerPage *self)
{
  McpServerConfig *config;

  if (self->traffic_view == NULL)
    return;

  if (self->connection == NULL)
    {
      plugboard_traffic_view_set_trace (self->traffic_view, NULL);
      return;
    }

  config = mcp_server_connection_get_config (self->connection);
  plugboard_traffic_view_set_trace (self->traffic_view, mcp_server_connection_get_trace (self->connection));
  plugboard_traffic_view_set_server (self->traffic_view,
                                     mcp_server_connection_get_name (self->connection),
                                     mcp_server_config_get_transport (config),
                                     mcp_server_config_get_url (config));
}

static gboolean
card_shows_traffic (PlugboardServerPage *self,
                    gboolean             signing_in,
                    McpServerState       state)
{
  return !signing_in && state == MCP_SERVER_STATE_FAILED;
}

static void
on_show_traffic_clicked_cb (PlugboardServerPage *self)
{
  plugboard_server_page_show_traffic (self);
}

void
plugboard_server_page_show_traffic (PlugboardServerPage *self)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  adw_view_stack_set_visible_child_name (self->view_stack, "traffic");
  /* Nothing failed on the wire (a command that does not exist fails
   * before): the newest entries are what there is to see. */
  plugboard_traffic_view_show_last_error (self->traffic_view);
}

void
plugboard_server_page_class_init_traffic (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, show_traffic_button);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_traffic);
  gtk_widget_class_bind_template_callback (widget_class, on_show_traffic_clicked_cb);
}
