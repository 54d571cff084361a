/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "plugboard-resource-browser.h"

#include <glib/gi18n.h>

/* PLACEHOLDER: the contract only; the widget is being written. */

struct _PlugboardResourceBrowser
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardResourceBrowser, plugboard_resource_browser, ADW_TYPE_BIN)

static void
plugboard_resource_browser_class_init (PlugboardResourceBrowserClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/plugboard/Plugboard/plugboard-resource-browser.ui");
}

static void
plugboard_resource_browser_init (PlugboardResourceBrowser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
plugboard_resource_browser_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_RESOURCE_BROWSER, NULL);
}

void
plugboard_resource_browser_set_connection (PlugboardResourceBrowser *self,
                                           McpServerConnection      *connection)
{
}
