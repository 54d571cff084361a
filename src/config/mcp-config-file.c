/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-config-file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-config-file-private.h"

/* Settings files read safely, and the steps of an edit put together (the
 * commit, and a whole edit of one file). The lock is in
 * mcp-config-file-lock.c, the replacement in mcp-config-file-replace.c,
 * the backups in mcp-config-file-backup.c. */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void
mcp_config_file_set_errno_error (GError     **error,
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
      mcp_config_file_set_errno_error (error, errsv, _("Could not read %s: %s"), path);
      return NULL;
    }
  if (!check_file_type (path, &st, error))
    return NULL;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      mcp_config_file_set_errno_error (error, errno, _("Could not read %s: %s"), path);
      return NULL;
    }

  /* It may have been replaced between stat() and open() */
  if (fstat (fd, &st) != 0 || !check_file_type (path, &st, error))
    {
      if (error != NULL && *error == NULL)
        mcp_config_file_set_errno_error (error, errno, _("Could not read %s: %s"), path);
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
          mcp_config_file_set_errno_error (error, errno, _("Could not read %s: %s"), path);
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
