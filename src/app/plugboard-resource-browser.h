/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-server-manager.h"
#include "plugboard-list-detail.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_RESOURCE_BROWSER (plugboard_resource_browser_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardResourceBrowser, plugboard_resource_browser, PLUGBOARD, RESOURCE_BROWSER, PlugboardListDetail)

/**
 * PlugboardResourceBrowser:
 *
 * The server page's Resources tab for one connection: its resources and
 * resource templates (searchable lists, from the connection's models); a
 * template's arguments as a small form with completion
 * (completion/complete); Read shows the content by MIME type (a
 * PlugboardResultView); a subscribe toggle per resource with an update
 * indicator (the connection's resource-updated). Says plainly when the
 * server offers no resources or is not connected.
 */
GtkWidget *plugboard_resource_browser_new            (void);
/* nullable */
void       plugboard_resource_browser_set_connection (PlugboardResourceBrowser *self,
                                                      McpServerConnection      *connection);

G_END_DECLS
