/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-dirs"

#include "config.h"

#include "test-dirs.h"

#include <glib/gstdio.h>

#include "test-util.h"

void
test_dirs_init (TestDirs   *dirs,
                const char *name)
{
  g_autofree char *template = g_strdup_printf ("plugboard-%s-XXXXXX", name);
  g_autoptr(GError) error = NULL;

  dirs->root = g_dir_make_tmp (template, &error);
  g_assert_no_error (error);
  dirs->user_dir = g_build_filename (dirs->root, "config", "plugboard", NULL);
  dirs->project_dir = g_build_filename (dirs->root, "project", NULL);
  dirs->user_file = g_build_filename (dirs->user_dir, "settings.json", NULL);
  dirs->project_file = g_build_filename (dirs->project_dir, ".mcp.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dirs->project_dir, 0700), ==, 0);
}

void
test_dirs_init_cli (TestDirs   *dirs,
                    const char *name)
{
  test_dirs_init (dirs, name);
  g_free (dirs->user_dir);
  g_free (dirs->user_file);
  dirs->user_dir = g_build_filename (dirs->root, "config", NULL);
  dirs->user_file = g_build_filename (dirs->user_dir, "settings.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dirs->user_dir, 0700), ==, 0);
}

void
test_dirs_clear (TestDirs *dirs)
{
  if (dirs->root != NULL)
    test_remove_tree (dirs->root);
  g_clear_pointer (&dirs->root, g_free);
  g_clear_pointer (&dirs->user_dir, g_free);
  g_clear_pointer (&dirs->project_dir, g_free);
  g_clear_pointer (&dirs->user_file, g_free);
  g_clear_pointer (&dirs->project_file, g_free);
}
