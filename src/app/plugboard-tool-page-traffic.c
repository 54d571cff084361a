/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage's traffic pane: the Traffic view of the tool's server
 * beside the form and result (below them, over the form, when the window
 * is narrow), opened with Show Traffic. Pinned, it stays open from one
 * tool page to the next, and the pin is kept in the settings. */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

static gboolean
pinned (PlugboardToolPage *self)
{
  return gtk_toggle_button_get_active (self->traffic_pin_toggle);
}

static void
show_pane (PlugboardToolPage *self,
           gboolean           show)
{
  if (gtk_toggle_button_get_active (self->traffic_toggle) != show)
    gtk_toggle_button_set_active (self->traffic_toggle, show);
  adw_flap_set_reveal_flap (self->traffic_flap, show);
}

void
plugboard_tool_page_update_traffic (PlugboardToolPage *self,
                                    gboolean           other_tool)
{
  McpServerConnection *connection = self->tool != NULL ? mcp_pool_tool_get_connection (self->tool) : NULL;

  if (connection != NULL)
    {
      McpServerConfig *config = mcp_server_connection_get_config (connection);
      /* Translators: the title of the traffic pane; %s is a server name */
      g_autofree char *title = g_strdup_printf (_("Traffic of “%s”"), mcp_server_connection_get_name (connection));

      plugboard_traffic_view_set_trace (self->traffic_view, mcp_server_connection_get_trace (connection));
      plugboard_traffic_view_set_server (self->traffic_view,
                                         mcp_server_connection_get_name (connection),
                                         mcp_server_config_get_transport (config),
                                         mcp_server_config_get_url (config));
      gtk_label_set_text (self->traffic_title_label, title);
    }
  else
    {
      plugboard_traffic_view_set_trace (self->traffic_view, NULL);
      gtk_label_set_text (self->traffic_title_label, _("Traffic"));
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->traffic_toggle), connection != NULL);
  if (other_tool)
    show_pane (self, connection != NULL && pinned (self));
}

static void
on_traffic_toggled_cb (PlugboardToolPage *self)
{
  adw_flap_set_reveal_flap (self->traffic_flap, gtk_toggle_button_get_active (self->traffic_toggle));
}

static void
on_traffic_close_clicked_cb (PlugboardToolPage *self)
{
  show_pane (self, FALSE);
}

static void
on_traffic_pin_toggled_cb (PlugboardToolPage *self)
{
  if (self->traffic_settings != NULL &&
      g_settings_get_boolean (self->traffic_settings, "traffic-pane-pinned") != pinned (self))
    g_settings_set_boolean (self->traffic_settings, "traffic-pane-pinned", pinned (self));
}

/* The flap closed by itself (a click beside it when narrow): the toggle
 * says so. */
static void
on_reveal_changed_cb (PlugboardToolPage *self)
{
  gboolean revealed = adw_flap_get_reveal_flap (self->traffic_flap);

  if (gtk_toggle_button_get_active (self->traffic_toggle) != revealed)
    gtk_toggle_button_set_active (self->traffic_toggle, revealed);
}

void
plugboard_tool_page_init_traffic (PlugboardToolPage *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  /* Missing when the program runs from the build tree without
   * GSETTINGS_SCHEMA_DIR: the pin lasts for this run only. */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, "traffic-pane-pinned"))
    {
      self->traffic_settings = g_settings_new_full (schema, NULL, NULL);
      gtk_toggle_button_set_active (self->traffic_pin_toggle,
                                    g_settings_get_boolean (self->traffic_settings, "traffic-pane-pinned"));
    }

  g_signal_connect_object (self->traffic_flap, "notify::reveal-flap",
                           G_CALLBACK (on_reveal_changed_cb), self, G_CONNECT_SWAPPED);
  plugboard_tool_page_update_traffic (self, TRUE);
}

void
plugboard_tool_page_class_init_traffic (GtkWidgetClass *widget_class)
{
  g_type_ensure (PLUGBOARD_TYPE_TRAFFIC_VIEW);

  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, traffic_flap);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, traffic_pane);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, traffic_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, traffic_pin_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, traffic_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, traffic_view);
  gtk_widget_class_bind_template_callback (widget_class, on_traffic_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_traffic_close_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_traffic_pin_toggled_cb);
}
