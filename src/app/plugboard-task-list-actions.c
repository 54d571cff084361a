/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-task-list"

#include "config.h"

#include "plugboard-task-list.h"

#include <glib/gi18n.h>

#include "mcp-processed-result.h"
#include "plugboard-result-view.h"

#include "plugboard-task-list-private.h"

/* PlugboardTaskList's actions: tasks.cancel, tasks.get-result (shown in
 * the result view below the list) and tasks.refresh. */

static void
on_cancel_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(PlugboardTaskListOp) op = user_data;
  PlugboardTaskList *self = op->self;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = mcp_client_cancel_task_finish (MCP_CLIENT (object), result, &error);
  if (g_cancellable_is_cancelled (op->cancellable))
    return;

  plugboard_task_list_busy_dec (self);
  if (task == NULL)
    {
      /* Translators: %s is an error message */
      g_autofree char *message = g_strdup_printf (_("The task could not be cancelled: %s"), error->message);

      plugboard_task_list_show_error (self, message);
    }
  else
    plugboard_task_list_show_task (self, task);

  plugboard_task_list_refresh (self);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);
  McpClient *client = plugboard_task_list_get_client (self);
  const char *task_id = g_variant_get_string (parameter, NULL);

  if (client == NULL || task_id[0] == '\0')
    return;

  plugboard_task_list_show_error (self, NULL);
  plugboard_task_list_busy_inc (self);
  mcp_client_cancel_task_async (client, task_id, self->cancellable,
                                on_cancel_done_cb, plugboard_task_list_op_new (self, self->cancellable));
}

void
plugboard_task_list_close_result (PlugboardTaskList *self)
{
  if (self->result_cancellable != NULL)
    {
      g_cancellable_cancel (self->result_cancellable);
      g_clear_object (&self->result_cancellable);
      plugboard_task_list_busy_dec (self);
    }
  g_clear_pointer (&self->result_task_id, g_free);
  plugboard_result_view_clear (self->result_view);
  gtk_widget_set_visible (self->result_box, FALSE);
}

static void
result_failed (PlugboardTaskList *self,
               GError            *error)
{
  /* Translators: the first %s is a task id, the second an error message */
  g_autofree char *message = g_strdup_printf (_("The result of task “%s” could not be fetched: %s"),
                                              self->result_task_id, error->message);

  plugboard_task_list_show_error (self, message);
  g_clear_object (&self->result_cancellable);
  plugboard_task_list_busy_dec (self);
  plugboard_task_list_close_result (self);
}

static void
on_result_processed_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(PlugboardTaskListOp) op = user_data;
  PlugboardTaskList *self = op->self;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  processed = mcp_tool_result_process_finish (result, &error);
  if (g_cancellable_is_cancelled (op->cancellable))
    return;

  if (processed == NULL)
    {
      result_failed (self, error);
      return;
    }

  g_clear_object (&self->result_cancellable);
  plugboard_task_list_busy_dec (self);
  plugboard_result_view_set_result (self->result_view, NULL, NULL, processed);
}

static void
on_result_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(PlugboardTaskListOp) op = user_data;
  PlugboardTaskList *self = op->self;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  tool_result = mcp_client_get_task_result_finish (MCP_CLIENT (object), result, &error);
  if (g_cancellable_is_cancelled (op->cancellable))
    return;

  if (tool_result == NULL)
    {
      result_failed (self, error);
      return;
    }

  /* Saved files are named after the server and the task. */
  name = g_strdup_printf ("%s-task-%s",
                          self->connection ? mcp_server_connection_get_name (self->connection) : "server",
                          self->result_task_id);
  mcp_tool_result_process_async (tool_result, name, NULL,
                                 self->connection != NULL ? mcp_server_connection_get_max_output_characters (self->connection) : 0,
                                 self->result_cancellable,
                                 on_result_processed_cb, plugboard_task_list_op_new (self, self->result_cancellable));
}

static void
get_result_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);
  McpClient *client = plugboard_task_list_get_client (self);
  const char *task_id = g_variant_get_string (parameter, NULL);
  g_autofree char *title = NULL;

  if (client == NULL || task_id[0] == '\0')
    return;

  plugboard_task_list_close_result (self);
  plugboard_task_list_show_error (self, NULL);

  self->result_task_id = g_strdup (task_id);
  /* Translators: %s is a task id */
  title = g_strdup_printf (_("Result of task %s"), task_id);
  gtk_label_set_label (self->result_title, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->result_title), title);
  gtk_widget_set_visible (self->result_box, TRUE);

  plugboard_task_list_busy_inc (self);
  self->result_cancellable = g_cancellable_new ();
  mcp_client_get_task_result_async (client, task_id, self->result_cancellable, on_result_done_cb,
                                    plugboard_task_list_op_new (self, self->result_cancellable));
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  plugboard_task_list_refresh (PLUGBOARD_TASK_LIST (widget));
}

void
plugboard_task_list_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "tasks.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "tasks.cancel", "s", cancel_action);
  gtk_widget_class_install_action (widget_class, "tasks.get-result", "s", get_result_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "tasks.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "tasks.refresh", NULL);
}
