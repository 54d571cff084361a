/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-config-file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

/* How long a writer waits for another one to finish. */
#define LOCK_TIMEOUT_USEC (30 * G_USEC_PER_SEC)
/* A .goutputstream-XXXXXX file (what g_file_replace_contents left when
 * its writer died) older than this is nobody's any more. */
#define STALE_GIO_TEMPORARY_SEC (10 * 60)
#define TEMPORARY_MARK ".plugboard-"
#define TIMESTAMP_LENGTH 23   /* 20261204T174942.123456Z */

struct _McpConfigFileLock
{
  int fd;
};

/* @format (a translated message) takes the path, then the cause */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *format,
                 const char  *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), format, path, g_strerror (errsv));
}
#pragma GCC diagnostic pop

/* Reading */

static const char *
describe_file_type (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISFIFO (mode))
    return _("a named pipe (FIFO)");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("a special file");
}

static gboolean
check_file_type (const char   *path,
                 struct stat  *st,
                 GError      **error)
{
  if (!S_ISREG (st->st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   /* Translators: the first %s is a file, the second what it is: "a named pipe (FIFO)", "a character device" */
                   _("%s: not read, because it is %s and not a regular file"),
                   path, describe_file_type (st->st_mode));
      return FALSE;
    }

  if (st->st_size > MCP_CONFIG_FILE_MAX_SIZE)
    {
      g_autofree char *size = g_format_size_full (st->st_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (MCP_CONFIG_FILE_MAX_SIZE, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   /* Translators: the first %s is a file, the others sizes such as "100.0 MiB" */
                   _("%s: not read, because it is %s, more than the %s a settings file may be"),
                   path, size, limit);
      return FALSE;
    }

  return TRUE;
}

GBytes *
mcp_config_file_read (const char  *path,
                      GError     **error)
{
  struct stat st;
  g_autofree char *data = NULL;
  gsize size;
  gsize length = 0;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Looked at before it is opened: opening a FIFO waits for a writer,
   * and opening some devices does something. */
  if (stat (path, &st) != 0)
    {
      int errsv = errno;

      if (errsv == ENOTDIR)
        errsv = ENOENT;
      set_errno_error (error, errsv, _("Could not read %s: %s"), path);
      return NULL;
    }
  if (!check_file_type (path, &st, error))
    return NULL;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_errno_error (error, errno, _("Could not read %s: %s"), path);
      return NULL;
    }

  /* It may have been replaced between stat() and open() */
  if (fstat (fd, &st) != 0 || !check_file_type (path, &st, error))
    {
      if (error != NULL && *error == NULL)
        set_errno_error (error, errno, _("Could not read %s: %s"), path);
      close (fd);
      return NULL;
    }

  /* One byte more than the limit: a file that grew past it is noticed. */
  size = (gsize)st.st_size + 1;
  data = g_malloc (size);
  for (;;)
    {
      gssize n;

      if (length == size)
        {
          if (size > MCP_CONFIG_FILE_MAX_SIZE)
            {
              struct stat grown = st;

              grown.st_size = length;
              check_file_type (path, &grown, error);
              close (fd);
              return NULL;
            }
          size = MIN (size * 2, (gsize)MCP_CONFIG_FILE_MAX_SIZE + 1);
          data = g_realloc (data, size);
        }

      n = read (fd, data + length, size - length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_errno_error (error, errno, _("Could not read %s: %s"), path);
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;
      length += n;
    }
  close (fd);

  return g_bytes_new_take (g_realloc (g_steal_pointer (&data), MAX (length, 1)), length);
}

char *
mcp_config_file_resolve (const char *path)
{
  g_autofree char *current = g_strdup (path);

  g_return_val_if_fail (path != NULL, NULL);

  /* as many links as the kernel follows */
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *target = NULL;
      g_autofree char *dir = NULL;
      struct stat st;

      if (lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        break;

      target = g_file_read_link (current, NULL);
      if (target == NULL)
        break;

      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_canonicalize_filename (target, dir);
    }

  return g_steal_pointer (&current);
}

/* Locking */

McpConfigFileLock *
mcp_config_file_lock_folder (const char    *dir,
                             GCancellable  *cancellable,
                             GError       **error)
{
  McpConfigFileLock *lock;
  gint64 deadline;
  gulong delay = 1000;
  int fd;

  g_return_val_if_fail (dir != NULL, NULL);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      set_errno_error (error, errno, _("Could not create the folder %s: %s"), dir);
      return NULL;
    }

  fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_errno_error (error, errno, _("Could not open the folder %s: %s"), dir);
      return NULL;
    }

  deadline = g_get_monotonic_time () + LOCK_TIMEOUT_USEC;
  for (;;)
    {
      int errsv;

      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        break;

      errsv = errno;
      if (errsv == EINTR)
        continue;
      if (errsv != EWOULDBLOCK)
        {
          /* A file system without locks: writing unlocked beats not
           * writing at all; the change check still stands. */
          g_debug ("Cannot lock %s (%s); writing without the lock", dir, g_strerror (errsv));
          break;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return NULL;
        }
      if (g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                       _("The settings in %s are being changed by another Plugboard process, "
                         "which has not finished in 30 seconds; nothing was changed"), dir);
          close (fd);
          return NULL;
        }

      g_usleep (delay);
      delay = MIN (delay * 2, 50000);
    }

  lock = g_new0 (McpConfigFileLock, 1);
  lock->fd = fd;

  return lock;
}

void
mcp_config_file_unlock (McpConfigFileLock *lock)
{
  if (lock == NULL)
    return;

  /* closing the only descriptor releases the flock */
  close (lock->fd);
  g_free (lock);
}

/* Writing */

/* ".settings.json.plugboard-": the name of our temporary files beside
 * @base, kept short enough for NAME_MAX. */
static char *
temporary_prefix (const char *base)
{
  return g_strdup_printf (".%.200s" TEMPORARY_MARK, base);
}

static gboolean
is_random_suffix (const char *suffix)
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

/* What a writer that was killed left in @dir: our temporary files beside
 * @base, and GIO's (earlier versions of Plugboard wrote through
 * g_file_replace_contents) once they are old enough to be nobody's. */
static void
remove_stale_temporaries (const char *dir,
                          const char *base)
{
  g_autofree char *prefix = temporary_prefix (base);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  DIR *stream;
  struct dirent *entry;

  stream = opendir (dir);
  if (stream == NULL)
    return;

  while ((entry = readdir (stream)) != NULL)
    {
      g_autofree char *path = NULL;
      struct stat st;

      if (g_str_has_prefix (entry->d_name, prefix) &&
          is_random_suffix (entry->d_name + strlen (prefix)))
        {
          path = g_build_filename (dir, entry->d_name, NULL);
        }
      else if (g_str_has_prefix (entry->d_name, ".goutputstream-") &&
               is_random_suffix (entry->d_name + strlen (".goutputstream-")))
        {
          path = g_build_filename (dir, entry->d_name, NULL);
          if (lstat (path, &st) != 0 || !S_ISREG (st.st_mode) ||
              now - st.st_mtime < STALE_GIO_TEMPORARY_SEC)
            continue;
        }
      else
        {
          continue;
        }

      if (g_unlink (path) == 0)
        g_debug ("Removed %s, left by a writer that did not finish", path);
    }

  closedir (stream);
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

  remove_stale_temporaries (dir, base);

  prefix = temporary_prefix (base);
  temporary = g_strconcat (dir, G_DIR_SEPARATOR_S, prefix, "XXXXXX", NULL);
  fd = g_mkstemp_full (temporary, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      set_errno_error (error, errno, _("Could not save %s: %s; nothing was changed"), path);
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
  set_errno_error (error, errsv, _("Could not save %s: %s; nothing was changed"), path);

  return FALSE;
}

/* Backups */

char *
mcp_config_file_get_backup_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "plugboard", "backups", NULL);
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
is_stale_backup_temporary (const char *name,
                           const char *prefix,
                           gsize       prefix_length)
{
  const char *rest;

  if (name[0] != '.' || strncmp (name + 1, prefix, prefix_length) != 0)
    return FALSE;
  rest = name + 1 + prefix_length;
  if (strlen (rest) < TIMESTAMP_LENGTH || !starts_with_timestamp (rest))
    return FALSE;
  rest += TIMESTAMP_LENGTH;

  return g_str_has_prefix (rest, TEMPORARY_MARK) &&
         is_random_suffix (rest + strlen (TEMPORARY_MARK));
}

static void
remove_stale_backup_temporaries (const char *dir,
                                 const char *prefix)
{
  gsize prefix_length = strlen (prefix);
  DIR *stream;
  struct dirent *entry;

  stream = opendir (dir);
  if (stream == NULL)
    return;

  while ((entry = readdir (stream)) != NULL)
    {
      g_autofree char *path = NULL;

      if (!is_stale_backup_temporary (entry->d_name, prefix, prefix_length))
        continue;
      path = g_build_filename (dir, entry->d_name, NULL);
      if (g_unlink (path) == 0)
        g_debug ("Removed %s, left by a writer that did not finish", path);
    }

  closedir (stream);
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
      set_errno_error (error, errno,
                       _("Could not create the backup folder %s: %s; nothing was changed"), dir);
      return FALSE;
    }

  remove_stale_backup_temporaries (dir, prefix);

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

/* The last step of an edit */

gboolean
mcp_config_file_commit (const char  *path,
                        const char  *target,
                        GBytes      *current,
                        guint        mode,
                        GBytes      *changed,
                        gboolean     backup,
                        GError     **error)
{
  g_autofree char *backup_path = NULL;

  g_return_val_if_fail (path != NULL && target != NULL && changed != NULL, FALSE);

  if (current != NULL && g_bytes_equal (current, changed))
    return TRUE;

  /* the backup first: without it, no edit */
  if (backup && current != NULL &&
      !mcp_config_file_backup (path, current, mode, &backup_path, error))
    return FALSE;

  if (!mcp_config_file_replace (target, changed, 0600, error))
    {
      /* "nothing was changed": nor the backups, none rotated out */
      if (backup_path != NULL)
        g_unlink (backup_path);
      return FALSE;
    }

  if (backup_path != NULL)
    mcp_config_file_prune_backups (path);
  return TRUE;
}

/* A whole edit of one file */

gboolean
mcp_config_file_edit (const char             *path,
                      McpJsonDialect          dialect,
                      gboolean                backup,
                      McpConfigFileEditFunc   edit,
                      gpointer                user_data,
                      McpJsonDocument       **written,
                      GCancellable           *cancellable,
                      GError                **error)
{
  g_autofree char *target = NULL;
  g_autofree char *folder = NULL;
  g_autoptr(McpConfigFileLock) lock = NULL;
  g_autoptr(GBytes) current = NULL;
  g_autoptr(GBytes) changed = NULL;
  g_autoptr(McpJsonDocument) document = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *data = NULL;
  gsize length = 0;
  struct stat st;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);

  target = mcp_config_file_resolve (path);
  folder = g_path_get_dirname (target);
  lock = mcp_config_file_lock_folder (folder, cancellable, error);
  if (lock == NULL)
    return FALSE;

  current = mcp_config_file_read (target, &local_error);
  if (current == NULL && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s; nothing was changed"), local_error->message);
      return FALSE;
    }
  if (current != NULL)
    data = g_bytes_get_data (current, &length);

  g_clear_error (&local_error);
  document = mcp_json_document_new (data, length, dialect, &local_error);
  if (document == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s: not written, because it does not parse: %s"), path, local_error->message);
      return FALSE;
    }

  if (!edit (document, user_data, error))
    return FALSE;

  changed = mcp_json_document_dup_bytes (document);
  if (!mcp_config_file_commit (path, target, current,
                               stat (target, &st) == 0 ? (st.st_mode & 07777) : 0600,
                               changed, backup, error))
    return FALSE;

  if (written != NULL)
    *written = g_steal_pointer (&document);

  return TRUE;
}
