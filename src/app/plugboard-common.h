/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

/* Small things the app's widgets share. */

/* Adds the app's stylesheet (resource plugboard.css) to @widget's display,
 * once per display. Widgets that use its classes call it from init. (Not
 * "style.css", which AdwApplication would load a second time.) */
void        plugboard_style_ensure (GtkWidget      *widget);

/* "User", "Project", "Local" (translated). */
const char *plugboard_scope_label  (McpConfigScope  scope);

G_END_DECLS
