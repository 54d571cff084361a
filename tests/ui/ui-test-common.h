/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Helpers the app's ui tests share (test-tool-page, test-task-ui,
 * test-sampling-dialog, test-resource-browser). */

#define UI_TEST_HANG_BOUND_S 90

typedef gboolean (*Condition) (gpointer data);

/* Dispatches what is ready, without blocking. */
void       iterate_main_context  (void);
/* Iterates the main context until @condition; a hang fails the test,
 * naming @what. */
void       wait_until            (Condition   condition,
                                  gpointer    data,
                                  const char *what);
/* A Condition: *(gboolean *) @data. */
gboolean   flag_set              (gpointer    data);
/* Iterates the main context for @ms. */
void       wait_ms               (guint       ms);

void       remove_tree           (const char *path);
/* Writes @path (making its folder), failing the test on error. */
void       write_file            (const char *path,
                                  const char *contents);

/* The first widget of @type at or below @widget, depth first. */
GtkWidget *find_widget           (GtkWidget  *widget,
                                  GType       type);
/* Destroys every toplevel but the PlugboardWindows (dialogs left over). */
void       close_other_toplevels (void);

G_END_DECLS
