/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A test's own settings folders, as a person's would be laid out. */
typedef struct
{
  char *root;          /* a new temporary folder */
  char *user_dir;      /* root/config/plugboard: the user scope's folder */
  char *project_dir;   /* root/project (made) */
  char *user_file;     /* user_dir/settings.json */
  char *project_file;  /* project_dir/.mcp.json */
} TestDirs;

/* Makes "plugboard-@name-XXXXXX" in the temporary folder and the project
 * folder in it; the user scope's folder is left to what writes it. */
void test_dirs_init  (TestDirs   *dirs,
                      const char *name);
/* The same for plugboard-cli's --config-dir: the user scope's folder is
 * root/config, and made. */
void test_dirs_init_cli (TestDirs   *dirs,
                         const char *name);
/* Removes the folder and all it holds, and frees the paths. */
void test_dirs_clear (TestDirs   *dirs);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TestDirs, test_dirs_clear)

G_END_DECLS
