/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-config-file.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-config-file-private.h"

/* The backups of settings files in $XDG_STATE_HOME/plugboard/backups:
 * made before an edit, the newest MCP_CONFIG_FILE_BACKUPS_KEPT kept. */

#define TIMESTAMP_LENGTH 23   /* 20261204T174942.123456Z */

/* The user's state folder, always an absolute path. GLib 2.74 takes a
 * relative $XDG_STATE_HOME or $HOME as it is, and a relative folder is
 * relative to the working directory, which for `plugboard-cli add --scope
 * project` is the project: its backups would land in the project. The XDG
 * base directory specification says to ignore a relative path; so do we,
 * and fall back to ~/.local/state of the home the system knows. */
static char *
get_state_dir (void)
{
  const char *state = g_get_user_state_dir ();
  const char *home = g_get_home_dir ();
  const struct passwd *entry;

  if (state != NULL && g_path_is_absolute (state))
    return g_strdup (state);
  if (home != NULL && g_path_is_absolute (home))
    return g_build_filename (home, ".local", "state", NULL);
  entry = getpwuid (getuid ());
  if (entry != NULL && entry->pw_dir != NULL && g_path_is_absolute (entry->pw_dir))
    return g_build_filename (entry->pw_dir, ".local", "state", NULL);
  return g_build_filename (g_get_tmp_dir (), g_get_user_name (), NULL);
}

char *
mcp_config_file_get_backup_dir (void)
{
  g_autofree char *state = get_state_dir ();

  return g_build_filename (state, "plugboard", "backups", NULL);
}

/* "/home/me/.config/plugboard/settings.json" →
 * "%home%me%.config%plugboard%settings.json~" (as Vim names its backups),
 * with a digest in front when that would be too long for a file name. */
char *
mcp_config_file_backup_prefix (const char *path)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autoptr(GString) name = g_string_new (absolute);

  g_string_replace (name, "/", "%", 0);
  if (name->len > 180)
    {
      g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, absolute, -1);
      g_autofree char *tail = g_strdup (name->str + name->len - 140);

      g_string_printf (name, "%.16s-%s", digest, tail);
    }
  g_string_append_c (name, '~');

  return g_string_free (g_steal_pointer (&name), FALSE);
}

/* Whether @text starts with a backup's timestamp */
static gboolean
starts_with_timestamp (const char *text)
{
  static const char shape[] = "00000000T000000.000000Z";

  for (guint i = 0; i < TIMESTAMP_LENGTH; i++)
    {
      if (shape[i] == '0' ? !g_ascii_isdigit (text[i]) : text[i] != shape[i])
        return FALSE;
    }

  return TRUE;
}

static gboolean
is_timestamp (const char *text)
{
  return strlen (text) == TIMESTAMP_LENGTH && starts_with_timestamp (text);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* ".PREFIX<timestamp>.plugboard-XXXXXX": what a writer killed while it
 * made a backup of the same file left. Backups of a file are made under
 * the lock of its folder, so none of these is being written now. */
static gboolean
is_stale_backup_temporary (const char *path,
                           const char *name,
                           const char *prefix)
{
  gsize prefix_length = strlen (prefix);
  const char *rest;

  if (name[0] != '.' || strncmp (name + 1, prefix, prefix_length) != 0)
    return FALSE;
  rest = name + 1 + prefix_length;
  if (strlen (rest) < TIMESTAMP_LENGTH || !starts_with_timestamp (rest))
    return FALSE;
  rest += TIMESTAMP_LENGTH;

  return g_str_has_prefix (rest, TEMPORARY_MARK) &&
         mcp_config_file_is_random_suffix (rest + strlen (TEMPORARY_MARK));
}

void
mcp_config_file_prune_backups (const char *path)
{
  g_autofree char *dir = mcp_config_file_get_backup_dir ();
  g_autofree char *prefix = mcp_config_file_backup_prefix (path);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  gsize prefix_length = strlen (prefix);
  DIR *stream;
  struct dirent *entry;

  g_return_if_fail (path != NULL);

  stream = opendir (dir);
  if (stream == NULL)
    return;

  while ((entry = readdir (stream)) != NULL)
    {
      if (strncmp (entry->d_name, prefix, prefix_length) == 0 &&
          is_timestamp (entry->d_name + prefix_length))
        g_ptr_array_add (names, g_strdup (entry->d_name));
    }
  closedir (stream);

  if (names->len <= MCP_CONFIG_FILE_BACKUPS_KEPT)
    return;

  /* the timestamps sort as they were taken */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len - MCP_CONFIG_FILE_BACKUPS_KEPT; i++)
    {
      g_autofree char *old = g_build_filename (dir, names->pdata[i], NULL);

      g_unlink (old);
    }
}

gboolean
mcp_config_file_backup (const char  *path,
                        GBytes      *contents,
                        guint        mode,
                        char       **backup_path,
                        GError     **error)
{
  g_autofree char *dir = mcp_config_file_get_backup_dir ();
  g_autofree char *prefix = mcp_config_file_backup_prefix (path);
  g_autofree char *name = NULL;
  g_autofree char *backup = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      mcp_config_file_set_errno_error (error, errno,
                                       _("Could not create the backup folder %s: %s; nothing was changed"), dir);
      return FALSE;
    }

  mcp_config_file_remove_stale (dir, is_stale_backup_temporary, prefix);

  stamp = g_date_time_format (now, "%Y%m%dT%H%M%S.%fZ");
  name = g_strconcat (prefix, stamp, NULL);
  backup = g_build_filename (dir, name, NULL);
  if (!mcp_config_file_replace (backup, contents, mode, error))
    {
      g_prefix_error (error, _("The backup of %s was not made: "), path);
      return FALSE;
    }

  if (backup_path != NULL)
    *backup_path = g_steal_pointer (&backup);
  return TRUE;
}
