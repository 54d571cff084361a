/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-driver"

#include "config.h"

#include "fuzz.h"

#include <glib.h>

/* Runs a fuzz target once over every file in the corpus directories (or
 * files) named on the command line, without libFuzzer: the fuzz-smoke suite,
 * for compilers that cannot build a fuzzer. A target reports a bug by
 * aborting; an empty corpus is a failure too, so the test cannot pass by
 * running nothing. */

static gboolean
run_file (const char  *path,
          GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length;

  if (!g_file_get_contents (path, &contents, &length, error))
    return FALSE;

  LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
  return TRUE;
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

int
main (int   argc,
      char *argv[])
{
  guint runs = 0;

  if (argc < 2)
    {
      g_printerr ("Usage: %s CORPUS-DIR-OR-FILE…\n", argv[0]);
      return 2;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GDir) dir = NULL;
      g_autoptr(GPtrArray) names = NULL;
      const char *name;

      if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          if (!run_file (argv[i], &error))
            {
              g_printerr ("%s: %s\n", argv[i], error->message);
              return 1;
            }
          runs++;
          continue;
        }

      dir = g_dir_open (argv[i], 0, &error);
      if (dir == NULL)
        {
          g_printerr ("%s: %s\n", argv[i], error->message);
          return 1;
        }

      names = g_ptr_array_new_with_free_func (g_free);
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (argv[i], name, NULL));
      g_ptr_array_sort (names, compare_names);

      for (guint j = 0; j < names->len; j++)
        {
          const char *path = g_ptr_array_index (names, j);

          if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
            continue;
          if (!run_file (path, &error))
            {
              g_printerr ("%s: %s\n", path, error->message);
              return 1;
            }
          runs++;
        }
    }

  if (runs == 0)
    {
      g_printerr ("No corpus file found\n");
      return 1;
    }

  g_print ("ok: %u inputs\n", runs);
  return 0;
}
