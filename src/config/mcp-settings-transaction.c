/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-error.h"
#include "mcp-settings-write-private.h"

/* Every change is a transaction run in a worker thread: under the lock of
 * each file it touches, the files are read as they are now, the change is
 * spliced into their text (McpJsonDocument), and each changed file is
 * backed up and replaced. Nothing is written until the whole change has
 * been made in memory, so a change that cannot be made leaves every file
 * as it was.
 *
 * This is that transaction, and the queue the changes wait in; the
 * changes themselves are made by mcp-settings-edit.c. */

static void
write_op_free (WriteOp *op)
{
  g_free (op->name);
  g_free (op->new_name);
  g_clear_pointer (&op->entry, json_node_unref);
  g_clear_pointer (&op->expected, json_node_unref);
  mcp_settings_layout_clear (&op->layout);
  g_clear_pointer (&op->bindings, g_ptr_array_unref);
  for (guint i = 0; i < N_FILES; i++)
    {
      g_free (op->files[i].path);
      g_free (op->files[i].target);
      g_clear_pointer (&op->files[i].known, g_bytes_unref);
      g_clear_pointer (&op->files[i].current, g_bytes_unref);
      g_clear_pointer (&op->files[i].document, mcp_json_document_free);
    }
  g_free (op);
}

/* Reading under the lock */

static gboolean
open_file (FileEdit  *file,
           GError   **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *data = NULL;
  gsize length = 0;
  struct stat st;

  file->current = mcp_config_file_read (file->target, &local_error);
  if (file->current == NULL)
    {
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          /* the message names the file read: a link's target */
          if (strcmp (file->path, file->target) != 0)
            g_set_error (error, local_error->domain, local_error->code,
                         /* Translators: the first %s is a settings file that is a symbolic link, the second says why the file it leads to could not be read (it names that file) */
                         _("%s is a link: %s; nothing was changed"),
                         file->path, local_error->message);
          else
            g_set_error (error, local_error->domain, local_error->code,
                         /* Translators: %s says why a settings file could not be read; it names the file */
                         _("%s; nothing was changed"), local_error->message);
          return FALSE;
        }
      g_clear_error (&local_error);
      file->mode = 0600;
    }
  else
    {
      data = g_bytes_get_data (file->current, &length);
      file->mode = stat (file->target, &st) == 0 ? (st.st_mode & 07777) : 0600;
    }

  file->document = mcp_json_document_new (data, length, file->dialect, &local_error);
  if (file->document == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: not written, because it does not parse: %s"),
                   file->path, local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (mcp_json_document_get_root (file->document)))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: not written, because it is not a JSON object"), file->path);
      return FALSE;
    }

  return TRUE;
}

/* The thread */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* One lock per folder, taken in the order of their names, so that two
 * writers that need the same two folders never wait for each other. */
static GPtrArray *
lock_files (WriteOp       *op,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GPtrArray) locks = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_config_file_unlock);
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < N_FILES; i++)
    {
      g_autofree char *folder = NULL;

      if (!op->files[i].used)
        continue;
      folder = g_path_get_dirname (op->files[i].target);
      if (!g_ptr_array_find_with_equal_func (folders, folder, g_str_equal, NULL))
        g_ptr_array_add (folders, g_steal_pointer (&folder));
    }
  g_ptr_array_sort (folders, compare_strings);

  for (guint i = 0; i < folders->len; i++)
    {
      McpConfigFileLock *lock = mcp_config_file_lock_folder (folders->pdata[i], cancellable, error);

      if (lock == NULL)
        return NULL;
      g_ptr_array_add (locks, lock);
    }

  return g_steal_pointer (&locks);
}

static gboolean
write_file (FileEdit  *file,
            GError   **error)
{
  g_autoptr(GBytes) bytes = mcp_json_document_dup_bytes (file->document);

  /* a file that is not there and got nothing (Plugboard's own, for a
   * change of another client's that needed no approval) is not made */
  if (file->current == NULL)
    {
      g_autoptr(McpJsonDocument) empty = mcp_json_document_new (NULL, 0, file->dialect, NULL);
      g_autoptr(GBytes) nothing = empty != NULL ? mcp_json_document_dup_bytes (empty) : NULL;

      if (nothing != NULL && g_bytes_equal (nothing, bytes))
        return TRUE;
    }

  return mcp_config_file_commit (file->path, file->target, file->current, file->mode,
                                 bytes, TRUE, error);
}

static void
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  WriteOp *op = task_data;
  g_autoptr(GPtrArray) locks = NULL;
  GError *error = NULL;
  FileKind order[N_FILES] = { FILE_USER, FILE_PROJECT, FILE_PLUGBOARD };
  gboolean written = FALSE;

  for (guint i = 0; i < N_FILES; i++)
    {
      if (op->files[i].used)
        op->files[i].target = mcp_config_file_resolve (op->files[i].path);
    }

  locks = lock_files (op, cancellable, &error);
  if (locks == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  for (guint i = 0; i < N_FILES; i++)
    {
      if (op->files[i].used && !open_file (&op->files[i], &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }

  if (!mcp_settings_edit_apply (op, &error) || g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* A move writes where it goes first: when the second write fails, the
   * server is in both files rather than in none. */
  if (op->kind == OP_SAVE && op->name != NULL && file_of (op->to) == FILE_PROJECT)
    {
      order[0] = FILE_PROJECT;
      order[1] = FILE_USER;
      order[2] = FILE_PLUGBOARD;
    }

  for (guint i = 0; i < N_FILES; i++)
    {
      FileEdit *file = &op->files[order[i]];

      if (!file->used || op->untouched)
        continue;
      if (!write_file (file, &error))
        {
          if (written)
            g_prefix_error (&error,
                            /* Translators: %s is a server's name, then two files */
                            _("“%s” was saved in %s, but could not be taken out of %s, so it is "
                              "in both now: "),
                            op->new_name, op->files[order[0]].path, file->path);
          g_task_return_error (task, error);
          return;
        }
      written = TRUE;
    }

  g_task_return_boolean (task, TRUE);
}

/* The queue: one change at a time, each on what the one before wrote */

static void
reload_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpSettings *self = g_task_get_source_object (task);
  GError *error = g_task_get_task_data (G_TASK (result));

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);

  mcp_settings_run_next_write (self);
}

static void
write_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  McpSettings *self = MCP_SETTINGS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GTask) reload = NULL;
  GError *error = NULL;

  self->writing = FALSE;
  self->reload_pending = FALSE;

  g_task_propagate_boolean (G_TASK (result), &error);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      mcp_settings_run_next_write (self);
      return;
    }

  /* What is on disk now, whatever happened: one reload, one "changed" */
  reload = g_task_new (self, self->cancellable, reload_done_cb, g_steal_pointer (&task));
  g_task_set_source_tag (reload, write_done_cb);
  g_task_set_task_data (reload, error, error != NULL ? (GDestroyNotify) g_error_free : NULL);
  mcp_settings_start_load (self, reload);
}

static void
start_write (McpSettings *self,
             GTask       *task)
{
  WriteOp *op = g_task_get_task_data (task);
  g_autoptr(GTask) worker = NULL;

  op->files[FILE_USER].known = self->user_bytes != NULL ? g_bytes_ref (self->user_bytes) : NULL;
  op->files[FILE_PROJECT].known = self->project_bytes != NULL ? g_bytes_ref (self->project_bytes) : NULL;
  op->files[FILE_PLUGBOARD].known = self->plugboard_bytes != NULL ? g_bytes_ref (self->plugboard_bytes) : NULL;

  worker = g_task_new (self, g_task_get_cancellable (task), write_done_cb, task);
  g_task_set_source_tag (worker, write_thread);
  g_task_set_task_data (worker, op, NULL);
  g_task_run_in_thread (worker, write_thread);
}

void
mcp_settings_run_next_write (McpSettings *self)
{
  GTask *task;

  if (self->writing)
    return;

  task = g_queue_pop_head (&self->writes);
  if (task == NULL)
    {
      if (self->reload_pending && self->loading == 0)
        {
          self->reload_pending = FALSE;
          mcp_settings_start_load (self, NULL);
        }
      return;
    }

  self->writing = TRUE;
  start_write (self, task);
}

void
mcp_settings_queue_write (McpSettings         *self,
                          WriteOp             *op,
                          gpointer             source_tag,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) write_op_free);

  if ((op->name != NULL && op->name[0] == '\0') ||
      (op->new_name != NULL && op->new_name[0] == '\0'))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("A server needs a non-empty name"));
      g_object_unref (task);
      return;
    }

  /* Another client may lack a scope (Claude Desktop has only its user
   * file): nothing to add to, move to or change there */
  if ((op->kind == OP_SAVE || op->kind == OP_REMOVE || op->kind == OP_SET_ENABLED) &&
      (!mcp_settings_has_scope (self, op->scope) || !mcp_settings_has_scope (self, op->to)))
    {
      McpConfigScope missing = mcp_settings_has_scope (self, op->to) ? op->scope : op->to;

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               /* Translators: the first %s is an MCP client ("Claude Desktop"), the second a scope: user, project or local (keep these words) */
                               _("%s has no %s scope: its servers are in %s"),
                               mcp_client_kind_get_display_name (self->client),
                               mcp_settings_scope_name (missing),
                               self->user_path != NULL ? self->user_path : "?");
      g_object_unref (task);
      return;
    }

  if (op->entry != NULL &&
      !mcp_settings_edit_check_entry (op, mcp_settings_scope_file (self, op->to), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  op->files[file_of (op->scope)].used = TRUE;
  op->files[file_of (op->to)].used = TRUE;
  if (op->kind == OP_SET_ENABLED || op->kind == OP_APPROVAL || op->kind == OP_BIND ||
      op->kind == OP_RESET_APPROVALS)
    lists_file (op)->used = TRUE;
  if (op->kind == OP_PERMISSION)
    {
      /* (the scope is where in the file the rule goes, not a file) */
      op->files[file_of (op->scope)].used = op->layout.rules_file == SETTINGS_FILE_USER;
      op->files[file_of (op->to)].used = op->layout.rules_file == SETTINGS_FILE_USER;
      rules_file (op)->used = TRUE;
    }
  if (op->kind == OP_APPROVAL || op->kind == OP_BIND || op->kind == OP_RESET_APPROVALS)
    {
      /* only the approvals' file: another client's files are not touched */
      op->files[FILE_USER].used = op->layout.lists_file == SETTINGS_FILE_USER;
      lists_file (op)->used = TRUE;
    }

  g_queue_push_tail (&self->writes, task);
  mcp_settings_run_next_write (self);
}

