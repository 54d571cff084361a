/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_TOOL_ROW_LAYOUT (plugboard_tool_row_layout_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardToolRowLayout, plugboard_tool_row_layout,
                      PLUGBOARD, TOOL_ROW_LAYOUT, GtkLayoutManager)

/**
 * PlugboardToolRowLayout:
 *
 * PlugboardToolRow's layout manager. Its first two children (the title and
 * the qualified name) each get a line of the full width; the children after
 * them (badges and the permission tag) flow on as many lines as they need,
 * a tag with halign END at the right end of its line.
 */

G_END_DECLS
