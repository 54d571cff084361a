/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-skill"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-skill.h"

#include "mcp-error.h"

/* Saving a skill into a folder for a person (plugboard-cli skill --save,
 * the app's Save): every file read and verified first, then the paths
 * checked, then written. A failure anywhere writes nothing. */

typedef struct
{
  McpClient *client;
  char      *dir;
  gboolean   force;
  GStrv      uris;
  guint      next;
  GPtrArray *contents;   /* GBytes, in the order of uris */
  guint      n_files;
} SaveState;

static void
save_state_free (SaveState *state)
{
  g_clear_object (&state->client);
  g_free (state->dir);
  g_strfreev (state->uris);
  g_clear_pointer (&state->contents, g_ptr_array_unref);
  g_free (state);
}

/* A segment a path may have under the folder. */
static gboolean
segment_is_safe (const char *segment)
{
  return segment != NULL && *segment != '\0' && strcmp (segment, ".") != 0 && strcmp (segment, "..") != 0
         && strchr (segment, '/') == NULL && strchr (segment, '\\') == NULL;
}

/* @relative (below @dir) stays in @dir: no segment climbs out, nothing on
 * the way is a symbolic link or not a folder, and the file is not there
 * unless @force. */
static gboolean
check_target (const char  *dir,
              const char  *relative,
              gboolean     force,
              GError     **error)
{
  g_auto(GStrv) segments = g_strsplit (relative, "/", -1);
  g_autofree char *path = g_strdup (dir);
  guint n = g_strv_length (segments);

  if (g_path_is_absolute (relative) || n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("%s is not a path inside the folder"), relative);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      struct stat info;
      char *next;

      if (!segment_is_safe (segments[i]))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                       _("%s would leave the folder"), relative);
          return FALSE;
        }
      next = g_build_filename (path, segments[i], NULL);
      g_free (path);
      path = next;
      if (g_lstat (path, &info) != 0)
        {
          int saved_errno = errno;

          if (saved_errno == ENOENT)
            return TRUE;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "%s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
      if (S_ISLNK (info.st_mode))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                       _("%s is a symbolic link; nothing is written through one"), path);
          return FALSE;
        }
      if (i + 1 < n && !S_ISDIR (info.st_mode))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY, _("%s is not a folder"), path);
          return FALSE;
        }
      if (i + 1 == n && !force)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s exists (--force replaces it)"), path);
          return FALSE;
        }
      if (i + 1 == n && !S_ISREG (info.st_mode))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s exists and is not a file"), path);
          return FALSE;
        }
    }
  return TRUE;
}

static void
write_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  McpSkill *self = source_object;
  SaveState *state = task_data;
  g_autoptr(GPtrArray) relatives = g_ptr_array_new_with_free_func (g_free);
  const char *name = mcp_skill_get_name (self);
  GError *error = NULL;
  struct stat info;

  if (!segment_is_safe (name))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                               _("The skill's name cannot be a folder's name; nothing was saved"));
      return;
    }
  if (g_lstat (state->dir, &info) == 0 && !S_ISDIR (info.st_mode))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                               _("%s is not a folder; nothing was saved"), state->dir);
      return;
    }

  for (guint i = 0; state->uris[i] != NULL; i++)
    {
      char *relative = g_build_filename (name, mcp_skill_get_file_path (self, state->uris[i]), NULL);

      g_ptr_array_add (relatives, relative);
      if (!check_target (state->dir, relative, state->force, &error))
        {
          g_prefix_error (&error, _("Cannot save %s: "), state->uris[i]);
          g_task_return_error (task, error);
          return;
        }
    }

  for (guint i = 0; i < relatives->len; i++)
    {
      g_autofree char *path = g_build_filename (state->dir, g_ptr_array_index (relatives, i), NULL);
      g_autofree char *parent = g_path_get_dirname (path);
      GBytes *bytes = g_ptr_array_index (state->contents, i);
      gsize length;
      const char *data = g_bytes_get_data (bytes, &length);

      if (g_mkdir_with_parents (parent, 0755) != 0)
        {
          int saved_errno = errno;

          g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                                   _("Cannot make the folder %s: %s"), parent, g_strerror (saved_errno));
          return;
        }
      /* Through a temporary file and a rename: a link planted since the
       * check is replaced, never followed. */
      if (!g_file_set_contents_full (path, data != NULL ? data : "", length,
                                     G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      state->n_files++;
    }

  g_task_return_pointer (task, g_build_filename (state->dir, name, NULL), g_free);
}

static void fetch_next (GTask *task);

static void
on_fetched_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SaveState *state = g_task_get_task_data (task);
  GError *error = NULL;
  GBytes *bytes = mcp_skill_fetch_file_finish (MCP_SKILL (object), result, &error);

  if (bytes == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Nothing was saved: "));
      g_task_return_error (task, error);
      return;
    }
  g_ptr_array_add (state->contents, bytes);
  state->next++;
  fetch_next (g_steal_pointer (&task));
}

static void
fetch_next (GTask *task)
{
  McpSkill *self = g_task_get_source_object (task);
  SaveState *state = g_task_get_task_data (task);

  if (state->uris[state->next] == NULL)
    {
      g_task_run_in_thread (task, write_in_thread);
      g_object_unref (task);
      return;
    }
  mcp_skill_fetch_file_async (self, state->client, state->uris[state->next],
                              g_task_get_cancellable (task), on_fetched_cb, task);
}

void
mcp_skill_save_async (McpSkill            *self,
                      McpClient           *client,
                      const char          *dir,
                      gboolean             force,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) uris = NULL;
  SaveState *state;

  g_return_if_fail (MCP_IS_SKILL (self));
  g_return_if_fail (MCP_IS_CLIENT (client));
  g_return_if_fail (dir != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_skill_save_async);
  if (mcp_skill_is_dynamic (self))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                               _("The skill %s is dynamic: its content cannot be verified, so it is not saved"),
                               mcp_skill_get_uri (self));
      return;
    }

  /* SKILL.md first: a skill whose SKILL.md fails reads nothing more. */
  uris = mcp_skill_get_file_uris (self);
  g_strv_builder_add (builder, mcp_skill_get_uri (self));
  for (guint i = 0; uris[i] != NULL; i++)
    if (!g_str_equal (uris[i], mcp_skill_get_uri (self)))
      g_strv_builder_add (builder, uris[i]);

  state = g_new0 (SaveState, 1);
  state->client = g_object_ref (client);
  state->dir = g_strdup (dir);
  state->force = force;
  state->uris = g_strv_builder_end (builder);
  state->contents = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_task_set_task_data (task, state, (GDestroyNotify) save_state_free);
  fetch_next (g_steal_pointer (&task));
}

char *
mcp_skill_save_finish (McpSkill      *self,
                       GAsyncResult  *result,
                       guint         *n_files,
                       GError       **error)
{
  char *path;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  path = g_task_propagate_pointer (G_TASK (result), error);
  if (n_files != NULL)
    *n_files = path != NULL ? ((SaveState *) g_task_get_task_data (G_TASK (result)))->n_files : 0;
  return path;
}
