/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-config-file-lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-config-file-private.h"

/* McpConfigFileLock: the advisory lock of a settings file's folder. */

/* How long a writer waits for another one to finish. */
#define LOCK_TIMEOUT_USEC (30 * G_USEC_PER_SEC)

struct _McpConfigFileLock
{
  int fd;
};

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
      mcp_config_file_set_errno_error (error, errno, _("Could not create the folder %s: %s"), dir);
      return NULL;
    }

  fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      mcp_config_file_set_errno_error (error, errno, _("Could not open the folder %s: %s"), dir);
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

