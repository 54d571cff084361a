/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "mcp-app-bridge.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_APP_VIEW (plugboard_app_view_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardAppView, plugboard_app_view, PLUGBOARD, APP_VIEW, GtkWidget)

/**
 * PlugboardAppView:
 *
 * Shows one MCP Apps interface: the McpAppBridge's resource in a
 * WebKitWebView of its own (an ephemeral network session, its own web
 * context: the web process starts when a bridge is set and ends when it is
 * unset). The page is the resource's HTML, served from memory under a
 * Content-Security-Policy header built from what the resource declares
 * (mcp_ui_resource_build_csp()); no navigation away, no popups, no file
 * access, no permission beyond those declared and granted. What the page
 * tries and is refused goes to mcp_app_bridge_note_blocked(). The bridge
 * speaks through a script message handler; the page's size follows its
 * size-changed within limits; the host context (theme, locale, time zone,
 * platform "desktop", container size, display mode) comes from the
 * desktop and follows it.
 *
 * Built without WebKit (-Dapps=disabled), it shows why there is no
 * interface instead.
 *
 * Properties: bridge (McpAppBridge, nullable), web-view (GtkWidget, the
 * WebKitWebView while one is shown: for tests), loaded (the page finished
 * loading).
 */
GtkWidget    *plugboard_app_view_new            (void);
/* Shows @bridge's interface (NULL: none). The previous one is torn down:
 * ui/resource-teardown, then its web view and web process go. */
void          plugboard_app_view_set_bridge     (PlugboardAppView *self,
                                                 McpAppBridge     *bridge);
McpAppBridge *plugboard_app_view_get_bridge     (PlugboardAppView *self);
GtkWidget    *plugboard_app_view_get_web_view   (PlugboardAppView *self);
gboolean      plugboard_app_view_get_loaded     (PlugboardAppView *self);
/* Whether this build can show interfaces (built with WebKitGTK 6.0). */
gboolean      plugboard_app_view_is_supported   (void);

G_END_DECLS
