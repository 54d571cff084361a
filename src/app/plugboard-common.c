/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-common"

#include "config.h"

#include "plugboard-common.h"

#include <glib/gi18n.h>

void
plugboard_style_ensure (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  g_autoptr(GtkCssProvider) provider = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "plugboard-css") != NULL)
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/plugboard/Plugboard/plugboard.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "plugboard-css",
                          g_steal_pointer (&provider), g_object_unref);
}

const char *
plugboard_scope_label (McpConfigScope scope)
{
  switch (scope)
    {
    case MCP_CONFIG_SCOPE_USER:
      return _("User");
    case MCP_CONFIG_SCOPE_PROJECT:
      return _("Project");
    case MCP_CONFIG_SCOPE_LOCAL:
      return _("Local");
    default:
      return "";
    }
}
