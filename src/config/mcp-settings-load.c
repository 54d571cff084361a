/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include "mcp-config-file.h"
#include "mcp-settings-private.h"

/* McpSettings' loading: the files are read in a worker thread, applied
 * when no newer load started meanwhile, watched for outside edits, and
 * approvals by name are bound to what the servers run once found. */

typedef struct
{
  GWeakRef  self;
  char     *user_path;
  char     *project_path;
  char     *plugboard_path;
  GBytes   *user;
  GBytes   *project;
  GBytes   *plugboard;
  GError   *user_error;
  GError   *project_error;
  GError   *plugboard_error;
  guint     generation;
  gboolean  emit;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_weak_ref_clear (&data->self);
  g_free (data->user_path);
  g_free (data->project_path);
  g_free (data->plugboard_path);
  g_clear_pointer (&data->user, g_bytes_unref);
  g_clear_pointer (&data->project, g_bytes_unref);
  g_clear_pointer (&data->plugboard, g_bytes_unref);
  g_clear_error (&data->user_error);
  g_clear_error (&data->project_error);
  g_clear_error (&data->plugboard_error);
  g_free (data);
}

gboolean
mcp_settings_bytes_equal (GBytes *a,
                          GBytes *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_bytes_equal (a, b);
}

static gboolean
errors_equal (GError *a,
              GError *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_strcmp0 (a->message, b->message) == 0;
}

static void
finish_load (McpSettings *self)
{
  self->loading--;
  if (self->loading == 0 && !self->writing && self->reload_pending)
    {
      self->reload_pending = FALSE;
      mcp_settings_start_load (self, NULL);
    }
}

/* A file that cannot be read (a FIFO, a device, too large, no
 * permission) is a problem of its own; the other file still loads. No
 * @path (a scope the client lacks) is no file. */
static void
read_settings_file (const char  *path,
                    GBytes     **bytes,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (path == NULL)
    return;
  *bytes = mcp_config_file_read (path, &local_error);
  if (*bytes == NULL && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    *error = g_steal_pointer (&local_error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;

  read_settings_file (data->user_path, &data->user, &data->user_error);
  read_settings_file (data->project_path, &data->project, &data->project_error);
  read_settings_file (data->plugboard_path, &data->plugboard, &data->plugboard_error);
  g_task_return_boolean (task, TRUE);
}

static void
bind_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* (not a warning: a read-only settings file is the person's choice;
     * the approvals then stay by name, as they were) */
    g_message ("Could not bind the project servers’ approvals to what they run: %s", error->message);
  if (task != NULL)
    g_task_return_boolean (task, TRUE);
}

/* Approvals by name only are bound by the first load that finds them:
 * their digest is written, once (a write that fails is not tried again by
 * these settings). A launch that does not expand is not bound: it does
 * not start either. When there is something to bind, @task (or NULL)
 * completes after the write and its reload. */
static gboolean
bind_approvals (McpSettings *self,
                GTask       *task)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->launches);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      McpApprovalState *state = value;
      g_autofree char *tried = NULL;

      if (mcp_settings_get_approval (self, key) != MCP_APPROVAL_APPROVED ||
          state->approved_digest != NULL || !state->expands)
        continue;
      tried = g_strconcat (key, " ", state->digest, NULL);
      if (g_hash_table_contains (self->bind_tried, tried))
        continue;
      g_hash_table_add (self->bind_tried, g_steal_pointer (&tried));
      g_ptr_array_add (names, g_strdup (key));
    }

  if (names->len == 0)
    return FALSE;

  mcp_settings_bind_approvals (self, names, bind_done_cb, task != NULL ? g_object_ref (task) : NULL);
  return TRUE;
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(McpSettings) self = g_weak_ref_get (&data->self);
  gboolean changed;

  /* A reload of our own does not keep the settings alive: once their
   * owner let them go, nobody is told anything. */
  if (self == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", "");
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    {
      finish_load (self);
      return;
    }

  /* A newer load started meanwhile: its answer will be the news. (The
   * reload finish_load may start comes after this one is applied, so a
   * write's own reload is never thrown away.) */
  if (data->generation != self->generation)
    {
      finish_load (self);
      g_task_return_boolean (task, TRUE);
      return;
    }

  changed = !mcp_settings_bytes_equal (data->user, self->user_bytes) ||
            !mcp_settings_bytes_equal (data->project, self->project_bytes) ||
            !errors_equal (data->user_error, self->user_error) ||
            !errors_equal (data->project_error, self->project_error) ||
            !mcp_settings_bytes_equal (data->plugboard, self->plugboard_bytes) ||
            !errors_equal (data->plugboard_error, self->plugboard_error);
  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  g_clear_pointer (&self->plugboard_bytes, g_bytes_unref);
  g_clear_error (&self->user_error);
  g_clear_error (&self->project_error);
  g_clear_error (&self->plugboard_error);
  self->user_bytes = g_steal_pointer (&data->user);
  self->project_bytes = g_steal_pointer (&data->project);
  self->plugboard_bytes = g_steal_pointer (&data->plugboard);
  self->user_error = g_steal_pointer (&data->user_error);
  self->project_error = g_steal_pointer (&data->project_error);
  self->plugboard_error = g_steal_pointer (&data->plugboard_error);
  mcp_settings_apply_documents (self);

  if (changed && data->emit)
    mcp_settings_emit_changed (self);

  /* The person's load finishes once what it found is bound: a program
   * that loads, runs one server and exits leaves the digest written. */
  if (g_task_get_source_tag (task) == mcp_settings_load_async)
    {
      if (!bind_approvals (self, task))
        g_task_return_boolean (task, TRUE);
      finish_load (self);
      return;
    }

  g_task_return_boolean (task, TRUE);
  finish_load (self);
  bind_approvals (self, NULL);
}

void
mcp_settings_apply_bytes (McpSettings *self,
                          GBytes      *user,
                          GBytes      *project)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));

  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  self->user_bytes = user != NULL ? g_bytes_ref (user) : NULL;
  self->project_bytes = project != NULL ? g_bytes_ref (project) : NULL;
  mcp_settings_apply_documents (self);
}

void
mcp_settings_start_load (McpSettings *self,
                         GTask       *task)
{
  g_autoptr(GTask) worker = NULL;
  LoadData *data = g_new0 (LoadData, 1);

  if (task == NULL)
    {
      task = g_task_new (NULL, self->cancellable, NULL, NULL);
      g_task_set_source_tag (task, mcp_settings_start_load);
      data->emit = TRUE;
    }
  else
    {
      g_object_ref (task);
      data->emit = g_task_get_source_tag (task) != mcp_settings_load_async;
    }

  g_weak_ref_init (&data->self, self);
  data->user_path = g_strdup (self->user_path);
  data->project_path = g_strdup (self->project_path);
  data->plugboard_path = g_strdup (self->plugboard_path);
  data->generation = ++self->generation;
  self->loading++;

  /* files are read off the main thread: a slow disk never blocks it */
  worker = g_task_new (NULL, g_task_get_cancellable (task), load_done_cb, task);
  g_task_set_source_tag (worker, load_thread);
  g_task_set_task_data (worker, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (worker, load_thread);
}

static void
on_file_changed_cb (McpSettings       *self,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    GFileMonitor      *monitor)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED ||
      event == G_FILE_MONITOR_EVENT_PRE_UNMOUNT ||
      event == G_FILE_MONITOR_EVENT_UNMOUNTED)
    return;

  if (self->writing || self->loading > 0)
    {
      self->reload_pending = TRUE;
      return;
    }

  mcp_settings_start_load (self, NULL);
}

static GFileMonitor *
watch (McpSettings *self,
       GFile       *file)
{
  g_autoptr(GError) error = NULL;
  GFileMonitor *monitor;

  monitor = g_file_monitor_file (file, G_FILE_MONITOR_NONE, self->cancellable, &error);
  if (monitor == NULL)
    {
      g_debug ("Cannot watch %s: %s", g_file_peek_path (file), error->message);
      return NULL;
    }

  g_file_monitor_set_rate_limit (monitor, 100);
  g_signal_connect_object (monitor, "changed", G_CALLBACK (on_file_changed_cb),
                           self, G_CONNECT_SWAPPED);

  return monitor;
}

void
mcp_settings_load_async (McpSettings         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_settings_load_async);

  if (self->user_monitor == NULL && self->user_file != NULL)
    self->user_monitor = watch (self, self->user_file);
  if (self->project_monitor == NULL && self->project_file != NULL)
    self->project_monitor = watch (self, self->project_file);
  if (self->plugboard_monitor == NULL && self->plugboard_file != NULL)
    self->plugboard_monitor = watch (self, self->plugboard_file);

  mcp_settings_start_load (self, task);
}

gboolean
mcp_settings_load_finish (McpSettings   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_settings_load_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

