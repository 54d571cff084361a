/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "plugboard-window.h"
#include "ui-test-common.h"

/* Waits bounded by UI_TEST_UI_TEST_HANG_BOUND_S: a hang fails the test saying what
 * it waited for, rather than running into meson's timeout. */

void
iterate_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
hang_cb (gpointer user_data)
{
  g_error ("the test hung waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

void
wait_until (Condition   condition,
            gpointer    data,
            const char *what)
{
  guint hang_id = g_timeout_add_seconds (UI_TEST_HANG_BOUND_S, hang_cb, (gpointer) what);

  while (!condition (data))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
}

gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
set_flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
wait_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }
  g_remove (path);
}

void
write_file (const char *path,
            const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

void
close_other_toplevels (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i - 1);

      if (!PLUGBOARD_IS_WINDOW (item))
        gtk_window_destroy (GTK_WINDOW (item));
    }
}
