/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-task-list"

#include "config.h"

#include "plugboard-task-list.h"

#include <glib/gi18n.h>

#include "plugboard-task-list-private.h"

/* PlugboardTaskList's list: tasks/list when shown, on Refresh, on a
 * status notification and, while a task is under way, at its poll
 * interval; only the rows whose task changed are made again. */

/* While a listed task is still under way and the list shows, tasks/list is
 * asked again at the task's pollInterval, within these bounds: a server
 * that sends no notifications/tasks/status still looks live. */
#define MIN_POLL_MS     1000
#define MAX_POLL_MS    10000
#define DEFAULT_POLL_MS 2000

/* tasks/list is offered only when the server declares capabilities.tasks.list. */
static gboolean
server_lists_tasks (McpClient *client)
{
  McpServerInfo *info = mcp_client_get_server_info (client);
  JsonObject *capabilities;
  JsonObject *tasks;

  if (info == NULL)
    return FALSE;

  capabilities = mcp_server_info_get_capabilities (info);
  if (capabilities == NULL ||
      !json_object_has_member (capabilities, "tasks") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (capabilities, "tasks")))
    return FALSE;

  tasks = json_object_get_object_member (capabilities, "tasks");
  return json_object_has_member (tasks, "list") &&
         JSON_NODE_HOLDS_OBJECT (json_object_get_member (tasks, "list"));
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  const char *created_a = mcp_task_get_created_at (*(McpTask **) a);
  const char *created_b = mcp_task_get_created_at (*(McpTask **) b);
  g_autoptr(GDateTime) time_a = created_a ? g_date_time_new_from_iso8601 (created_a, NULL) : NULL;
  g_autoptr(GDateTime) time_b = created_b ? g_date_time_new_from_iso8601 (created_b, NULL) : NULL;

  if (time_a == NULL || time_b == NULL)
    return (time_a == NULL) - (time_b == NULL);

  return g_date_time_compare (time_b, time_a);
}

void
plugboard_task_list_update_summary (PlugboardTaskList *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tasks));
  guint live = 0;
  g_autofree char *text = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpTask) task = g_list_model_get_item (G_LIST_MODEL (self->tasks), i);

      if (plugboard_task_is_live (task))
        live++;
    }

  if (n == 0)
    text = g_strdup ("");
  else if (live == 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u task", "%u tasks", n), n);
  else
    /* Translators: the number of tasks, then how many of them are under way */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u task, %u under way", "%u tasks, %u under way", n),
                            n, live);
  gtk_label_set_label (self->summary_label, text);
}

static gboolean
same_state (McpTask *a,
            McpTask *b)
{
  return g_strcmp0 (mcp_task_get_id (a), mcp_task_get_id (b)) == 0 &&
         g_strcmp0 (mcp_task_get_status_string (a), mcp_task_get_status_string (b)) == 0 &&
         g_strcmp0 (mcp_task_get_status_message (a), mcp_task_get_status_message (b)) == 0 &&
         g_strcmp0 (mcp_task_get_last_updated_at (a), mcp_task_get_last_updated_at (b)) == 0;
}

/* Only the rows whose task changed are made again: a row under the
 * pointer or with the keyboard focus stays put across the refreshes
 * (every second while a task is under way). */
static void
show_tasks (PlugboardTaskList *self,
            GPtrArray         *tasks)
{
  GListModel *model = G_LIST_MODEL (self->tasks);
  gboolean same_ids = g_list_model_get_n_items (model) == tasks->len;

  g_ptr_array_sort (tasks, compare_newest_first);

  for (guint i = 0; same_ids && i < tasks->len; i++)
    {
      g_autoptr(McpTask) old = g_list_model_get_item (model, i);

      same_ids = g_strcmp0 (mcp_task_get_id (old), mcp_task_get_id (g_ptr_array_index (tasks, i))) == 0;
    }

  if (same_ids)
    {
      for (guint i = 0; i < tasks->len; i++)
        {
          g_autoptr(McpTask) old = g_list_model_get_item (model, i);

          if (!same_state (old, g_ptr_array_index (tasks, i)))
            g_list_store_splice (self->tasks, i, 1, &g_ptr_array_index (tasks, i), 1);
        }
    }
  else
    g_list_store_splice (self->tasks, 0, g_list_model_get_n_items (model), tasks->pdata, tasks->len);

  gtk_stack_set_visible_child_name (self->stack, tasks->len > 0 ? "list" : "empty");
  plugboard_task_list_update_summary (self);
}

static void schedule_poll (PlugboardTaskList *self);

static void
on_list_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(PlugboardTaskListOp) op = user_data;
  PlugboardTaskList *self = op->self;
  g_autoptr(GPtrArray) tasks = NULL;
  g_autoptr(GError) error = NULL;

  tasks = mcp_client_list_tasks_finish (MCP_CLIENT (object), result, &error);
  if (g_cancellable_is_cancelled (op->cancellable))
    return;

  plugboard_task_list_busy_dec (self);
  g_clear_object (&self->list_cancellable);

  if (tasks == NULL)
    {
      /* Translators: the first %s is a server name, the second an error message */
      g_autofree char *description = g_strdup_printf (_("“%s” did not list its tasks: %s"),
                                                      self->connection ? mcp_server_connection_get_name (self->connection) : "",
                                                      error->message);

      adw_status_page_set_description (self->list_error_page, description);
      gtk_stack_set_visible_child_name (self->stack, "error");
      g_list_store_remove_all (self->tasks);
      plugboard_task_list_update_summary (self);
    }
  else
    show_tasks (self, tasks);

  /* A status notification came in while the list was being fetched. */
  if (self->refresh_again)
    {
      self->refresh_again = FALSE;
      plugboard_task_list_refresh (self);
    }
  else
    schedule_poll (self);
}

void
plugboard_task_list_refresh (PlugboardTaskList *self)
{
  McpClient *client;

  g_return_if_fail (PLUGBOARD_IS_TASK_LIST (self));

  client = plugboard_task_list_get_client (self);

  g_clear_handle_id (&self->poll_source, g_source_remove);

  if (client == NULL || !server_lists_tasks (client))
    {
      if (self->list_cancellable != NULL)
        {
          g_cancellable_cancel (self->list_cancellable);
          g_clear_object (&self->list_cancellable);
          plugboard_task_list_busy_dec (self);
        }
      g_list_store_remove_all (self->tasks);
      plugboard_task_list_update_summary (self);
      gtk_stack_set_visible_child_name (self->stack, client == NULL ? "disconnected" : "unsupported");
      return;
    }

  if (self->list_cancellable != NULL)
    {
      /* One at a time; the newest news is asked for when this one ends. */
      self->refresh_again = TRUE;
      return;
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (self->tasks)) == 0)
    gtk_stack_set_visible_child_name (self->stack, "loading");

  plugboard_task_list_busy_inc (self);
  self->list_cancellable = g_cancellable_new ();
  mcp_client_list_tasks_async (client, self->list_cancellable, on_list_done_cb,
                               plugboard_task_list_op_new (self, self->list_cancellable));
}

static gboolean
poll_cb (gpointer user_data)
{
  PlugboardTaskList *self = user_data;

  self->poll_source = 0;
  plugboard_task_list_refresh (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_poll (PlugboardTaskList *self)
{
  gint64 interval = -1;

  g_clear_handle_id (&self->poll_source, g_source_remove);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tasks)); i++)
    {
      g_autoptr(McpTask) task = g_list_model_get_item (G_LIST_MODEL (self->tasks), i);
      gint64 poll = mcp_task_get_poll_interval (task);

      if (!plugboard_task_is_live (task))
        continue;
      if (poll <= 0)
        poll = DEFAULT_POLL_MS;
      if (interval < 0 || poll < interval)
        interval = poll;
    }

  if (interval > 0)
    self->poll_source = g_timeout_add (CLAMP (interval, MIN_POLL_MS, MAX_POLL_MS), poll_cb, self);
}

void
plugboard_task_list_show_task (PlugboardTaskList *self,
                               McpTask           *task)
{
  GListModel *model = G_LIST_MODEL (self->tasks);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(McpTask) old = g_list_model_get_item (model, i);

      if (g_strcmp0 (mcp_task_get_id (old), mcp_task_get_id (task)) == 0)
        {
          if (!same_state (old, task))
            g_list_store_splice (self->tasks, i, 1, (gpointer *) &task, 1);
          plugboard_task_list_update_summary (self);
          return;
        }
    }

  /* A task not listed yet: ask for the whole list. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    plugboard_task_list_refresh (self);
}
