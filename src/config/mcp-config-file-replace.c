/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-config-file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-config-file-private.h"

/* A settings file replaced through a checked temporary file and a rename,
 * and what a writer that was killed left removed. */

/* A .goutputstream-XXXXXX file (what g_file_replace_contents left when
 * its writer died) older than this is nobody's any more. */
#define STALE_GIO_TEMPORARY_SEC (10 * 60)

/* ".settings.json.plugboard-": the name of our temporary files beside
 * @base, kept short enough for NAME_MAX. */
static char *
temporary_prefix (const char *base)
{
  return g_strdup_printf (".%.200s" TEMPORARY_MARK, base);
}

gboolean
mcp_config_file_is_random_suffix (const char *suffix)
{
  if (strlen (suffix) != 6)
    return FALSE;

  for (const char *p = suffix; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p))
        return FALSE;
    }

  return TRUE;
}

void
mcp_config_file_remove_stale (const char             *dir,
                              McpConfigFileStaleFunc  is_stale,
                              const char             *prefix)
{
  DIR *stream;
  struct dirent *entry;

  stream = opendir (dir);
  if (stream == NULL)
    return;

  while ((entry = readdir (stream)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, entry->d_name, NULL);

      if (is_stale (path, entry->d_name, prefix) && g_unlink (path) == 0)
        g_debug ("Removed %s, left by a writer that did not finish", path);
    }

  closedir (stream);
}

/* What a writer that was killed left beside a file: our temporary files
 * (@prefix and a random suffix), and GIO's (earlier versions of Plugboard
 * wrote through g_file_replace_contents) once they are old enough to be
 * nobody's. */
static gboolean
is_stale_temporary (const char *path,
                    const char *name,
                    const char *prefix)
{
  struct stat st;

  if (g_str_has_prefix (name, prefix) &&
      mcp_config_file_is_random_suffix (name + strlen (prefix)))
    return TRUE;

  return g_str_has_prefix (name, ".goutputstream-") &&
         mcp_config_file_is_random_suffix (name + strlen (".goutputstream-")) &&
         lstat (path, &st) == 0 && S_ISREG (st.st_mode) &&
         g_get_real_time () / G_USEC_PER_SEC - st.st_mtime >= STALE_GIO_TEMPORARY_SEC;
}

static void
ignore_file_size_signal (void)
{
  static gsize once = 0;

  /* Past RLIMIT_FSIZE, write() raises SIGXFSZ, which kills the process
   * by default; ignored, write() fails with EFBIG and the edit is refused
   * with a message instead. */
  if (g_once_init_enter (&once))
    {
      struct sigaction current;

      if (sigaction (SIGXFSZ, NULL, &current) == 0 && current.sa_handler == SIG_DFL)
        signal (SIGXFSZ, SIG_IGN);
      g_once_init_leave (&once, 1);
    }
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         length)
{
  while (length > 0)
    {
      gssize n = write (fd, data, MIN (length, (gsize)G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          errno = ENOSPC;
          return FALSE;
        }
      data += n;
      length -= n;
    }

  return TRUE;
}

static void
sync_folder (const char *dir)
{
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  if (fd < 0)
    return;

  /* The rename is done: a folder that cannot be synced (some file
   * systems refuse) does not undo it. */
  if (fsync (fd) != 0)
    g_debug ("Could not sync the folder %s: %s", dir, g_strerror (errno));
  close (fd);
}

gboolean
mcp_config_file_replace (const char  *path,
                         GBytes      *contents,
                         guint        new_mode,
                         GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *temporary = NULL;
  struct stat st;
  gboolean exists;
  const guint8 *data;
  gsize length;
  guint mode;
  int fd;
  int errsv;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ignore_file_size_signal ();

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  exists = stat (path, &st) == 0 && S_ISREG (st.st_mode);
  mode = exists ? (st.st_mode & 07777) : new_mode;

  prefix = temporary_prefix (base);
  mcp_config_file_remove_stale (dir, is_stale_temporary, prefix);

  temporary = g_strconcat (dir, G_DIR_SEPARATOR_S, prefix, "XXXXXX", NULL);
  fd = g_mkstemp_full (temporary, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      mcp_config_file_set_errno_error (error, errno, _("Could not save %s: %s; nothing was changed"), path);
      return FALSE;
    }

  if (fchmod (fd, mode) != 0)
    goto fail;
  /* root editing someone's file leaves it theirs */
  if (exists && (st.st_uid != geteuid () || st.st_gid != getegid ()) &&
      fchown (fd, st.st_uid, st.st_gid) != 0)
    g_debug ("Could not give %s its owner back: %s", temporary, g_strerror (errno));

  data = g_bytes_get_data (contents, &length);
  if (!write_all (fd, data, length) || fsync (fd) != 0)
    goto fail;

  if (close (fd) != 0)
    {
      fd = -1;
      goto fail;
    }
  fd = -1;

  if (g_rename (temporary, path) != 0)
    goto fail;

  sync_folder (dir);
  return TRUE;

fail:
  errsv = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (temporary);
  mcp_config_file_set_errno_error (error, errsv, _("Could not save %s: %s; nothing was changed"), path);

  return FALSE;
}

