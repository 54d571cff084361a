/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-credential-file"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <libsecret/secret.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

#include "mcp-credential-file-private.h"

/* What McpTokenStore and McpSecretStore share: the 0600 file they fall
 * back to where no Secret Service answers, and how they tell that none
 * does. */

#define FILE_VERSION 1

char *
mcp_credential_file_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "plugboard", "oauth-credentials.json", NULL);
}

/* Errors that mean "there is no Secret Service here" (no session bus, no
 * provider of org.freedesktop.secrets, a sandbox that hides it), as opposed
 * to one that answered and failed. */
gboolean
mcp_credential_is_no_secret_service (const GError *error)
{
  if (error->domain == G_DBUS_ERROR)
    {
      switch (error->code)
        {
        case G_DBUS_ERROR_SERVICE_UNKNOWN:
        case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
        case G_DBUS_ERROR_NO_SERVER:
        case G_DBUS_ERROR_DISCONNECTED:
        case G_DBUS_ERROR_FILE_NOT_FOUND:
        case G_DBUS_ERROR_ACCESS_DENIED:
        case G_DBUS_ERROR_UNKNOWN_METHOD:
        case G_DBUS_ERROR_UNKNOWN_OBJECT:
        case G_DBUS_ERROR_UNKNOWN_INTERFACE:
        case G_DBUS_ERROR_SPAWN_EXEC_FAILED:
        case G_DBUS_ERROR_SPAWN_FORK_FAILED:
        case G_DBUS_ERROR_SPAWN_CHILD_EXITED:
        case G_DBUS_ERROR_SPAWN_CHILD_SIGNALED:
        case G_DBUS_ERROR_SPAWN_FAILED:
        case G_DBUS_ERROR_SPAWN_SETUP_FAILED:
        case G_DBUS_ERROR_SPAWN_CONFIG_INVALID:
        case G_DBUS_ERROR_SPAWN_SERVICE_INVALID:
        case G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND:
        case G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID:
        case G_DBUS_ERROR_SPAWN_FILE_INVALID:
        case G_DBUS_ERROR_SPAWN_NO_MEMORY:
          return TRUE;
        default:
          return FALSE;
        }
    }

  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        /* Connecting to the session bus: no socket, nobody listening, or
         * no address and no way to autolaunch one. */
        case G_IO_ERROR_NOT_FOUND:
        case G_IO_ERROR_CONNECTION_REFUSED:
        case G_IO_ERROR_CLOSED:
        case G_IO_ERROR_BROKEN_PIPE:
        case G_IO_ERROR_PERMISSION_DENIED:
        case G_IO_ERROR_NOT_SUPPORTED:
        case G_IO_ERROR_INVALID_ARGUMENT:
        case G_IO_ERROR_FAILED:
          return TRUE;
        default:
          return FALSE;
        }
    }

  return error->domain == G_SPAWN_ERROR;
}

gboolean
mcp_credential_should_fall_back (const char   *backend,
                                 const char   *active_backend,
                                 const GError *error)
{
  return g_strcmp0 (backend, "auto") == 0 &&
         g_strcmp0 (active_backend, "secret-service") != 0 &&
         mcp_credential_is_no_secret_service (error);
}

/* Loads the file; a missing file is an empty document. A file that cannot
 * be read or parsed is an error: it must not be overwritten. */
JsonNode *
mcp_credential_file_load (const char  *path,
                          gboolean    *exists,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(JsonNode) root = NULL;

  *exists = FALSE;

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_autoptr(JsonObject) new_object = json_object_new ();

          json_object_set_int_member (new_object, "version", FILE_VERSION);
          root = json_node_new (JSON_NODE_OBJECT);
          json_node_set_object (root, new_object);
          return g_steal_pointer (&root);
        }

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not read the sign-in file %s: %s"),
                   path, local_error->message);
      return NULL;
    }

  *exists = TRUE;

  /* Strict RFC 8259: json-glib reads "\7" as an octal escape into a
   * string that is not UTF-8, which, written back, made a file no one
   * could read. */
  root = mcp_json_parse (contents, length, &local_error);
  if (root == NULL)
    {
      g_autofree char *reason = g_utf8_make_valid (local_error->message, -1);

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The sign-in file %s is not valid JSON (%s). Plugboard will not overwrite it; "
                     "move it away to sign in again."),
                   path, reason);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The sign-in file %s is not a JSON object. Plugboard will not overwrite it; "
                     "move it away to sign in again."),
                   path);
      return NULL;
    }

  return g_steal_pointer (&root);
}

gboolean
mcp_credential_file_save (const char  *path,
                          JsonNode    *root,
                          GError     **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *data = NULL;
  gsize length;
  gboolean ok;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create the folder %s for the sign-in file: %s"),
                   dir, g_strerror (saved_errno));
      return FALSE;
    }

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  data = json_generator_to_data (generator, &length);

  ok = g_file_set_contents_full (path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error);
  /* The document holds secrets: do not leave them in freed memory. */
  memset (data, 0, length);

  if (!ok)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not write the sign-in file %s: %s"),
                   path, local_error->message);
      return FALSE;
    }

  return TRUE;
}


gboolean
mcp_credential_is_no_place_to_store (const GError *error)
{
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
         g_error_matches (error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT);
}

gboolean
mcp_credential_file_also_read (const char *backend,
                               const char *path)
{
  return g_strcmp0 (backend, "auto") == 0 && path != NULL && g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The locks this process holds, by folder: a store's callback that
 * starts another operation on the same file (GTask may call it at once)
 * must not wait for itself. */
typedef struct
{
  int   fd;
  guint depth;
} HeldLock;

static GHashTable *held_locks;  /* folder → HeldLock */
G_LOCK_DEFINE_STATIC (held_locks);

int
mcp_credential_file_lock (const char  *path,
                          GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  gint64 deadline = g_get_monotonic_time () + MCP_CREDENTIAL_LOCK_WAIT_MS * G_TIME_SPAN_MILLISECOND;
  HeldLock *held;
  int fd;

  G_LOCK (held_locks);
  if (held_locks == NULL)
    held_locks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  held = g_hash_table_lookup (held_locks, dir);
  if (held != NULL)
    {
      held->depth++;
      G_UNLOCK (held_locks);
      return held->fd;
    }
  G_UNLOCK (held_locks);

  /* The folder is locked, not the file: the file is replaced by a rename,
   * and a lock file beside it would be one more file to leave behind. */
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      (fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)) < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not lock the sign-in file %s: %s"), path, g_strerror (saved_errno));
      return -1;
    }

  /* The other holder writes a few KiB and lets go: a short wait. */
  while (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int saved_errno = errno;

      if ((saved_errno != EWOULDBLOCK && saved_errno != EINTR) || g_get_monotonic_time () > deadline)
        {
          close (fd);
          if (saved_errno == EWOULDBLOCK)
            /* Translators: %s is a file, %d a number of seconds */
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                         _("The sign-in file %s stayed locked by another Plugboard for %d s"),
                         path, MCP_CREDENTIAL_LOCK_WAIT_MS / 1000);
          else
            g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                         _("Could not lock the sign-in file %s: %s"), path, g_strerror (saved_errno));
          return -1;
        }
      g_usleep (5 * G_TIME_SPAN_MILLISECOND);
    }

  held = g_new0 (HeldLock, 1);
  held->fd = fd;
  held->depth = 1;
  G_LOCK (held_locks);
  g_hash_table_insert (held_locks, g_steal_pointer (&dir), held);
  G_UNLOCK (held_locks);
  return fd;
}

void
mcp_credential_file_unlock (int fd)
{
  GHashTableIter iter;
  HeldLock *held;

  if (fd < 0)
    return;

  G_LOCK (held_locks);
  g_hash_table_iter_init (&iter, held_locks);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &held))
    if (held->fd == fd)
      {
        if (--held->depth == 0)
          {
            close (fd);  /* releases the flock */
            g_hash_table_iter_remove (&iter);
          }
        break;
      }
  G_UNLOCK (held_locks);
}
