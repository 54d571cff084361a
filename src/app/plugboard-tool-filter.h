/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  PLUGBOARD_TOOL_FILTER_READ_ONLY_ONLY,
  PLUGBOARD_TOOL_FILTER_HIDE_DESTRUCTIVE,
  PLUGBOARD_TOOL_FILTER_OPEN_WORLD_ONLY,
} PlugboardToolFilterToggle;

#define PLUGBOARD_TYPE_TOOL_FILTER (plugboard_tool_filter_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardToolFilter, plugboard_tool_filter, PLUGBOARD, TOOL_FILTER, GtkFilter)

/**
 * PlugboardToolFilter:
 *
 * PlugboardToolList's filter of McpPoolTool: every word of a search must
 * be in the tool's title, name, qualified name or description (a
 * case-folded text cached on each tool), and the annotation toggles
 * (read-only only, hide destructive, open-world only) must hold. The
 * owner calls gtk_filter_changed() after a change, saying how it changed.
 */
PlugboardToolFilter *plugboard_tool_filter_new             (void);
/* No words and no toggle: every tool matches. */
gboolean             plugboard_tool_filter_is_empty        (PlugboardToolFilter       *self);
/* The words of @search, case-folded, joined by single spaces. */
char                *plugboard_tool_filter_normalize_search (const char               *search);
/* @normalized: from plugboard_tool_filter_normalize_search(). */
void                 plugboard_tool_filter_set_words       (PlugboardToolFilter       *self,
                                                            const char                *normalized);
gboolean             plugboard_tool_filter_get_toggle      (PlugboardToolFilter       *self,
                                                            PlugboardToolFilterToggle  toggle);
void                 plugboard_tool_filter_set_toggle      (PlugboardToolFilter       *self,
                                                            PlugboardToolFilterToggle  toggle,
                                                            gboolean                   value);
/* Whether any toggle is on. */
gboolean             plugboard_tool_filter_has_toggles     (PlugboardToolFilter       *self);

G_END_DECLS
