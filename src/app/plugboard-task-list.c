/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-task-list"

#include "config.h"

#include "plugboard-task-list.h"

#include "plugboard-common.h"
#include "plugboard-result-view.h"

#include "plugboard-task-list-private.h"

/* PlugboardTaskList: the widget, its connection, busy and errors. The rows
 * are in -rows.c, asking for the list in -refresh.c, Cancel and Get Result
 * in -actions.c. */

/* How often "2 min ago" is brought up to date while the list shows. */
#define RELATIVE_TIME_INTERVAL_S 10

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PlugboardTaskList, plugboard_task_list, ADW_TYPE_BIN)

PlugboardTaskListOp *
plugboard_task_list_op_new (PlugboardTaskList *self,
                            GCancellable      *cancellable)
{
  PlugboardTaskListOp *op = g_new0 (PlugboardTaskListOp, 1);

  op->self = g_object_ref (self);
  op->cancellable = g_object_ref (cancellable);
  return op;
}

void
plugboard_task_list_op_free (PlugboardTaskListOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->cancellable);
  g_free (op);
}

/* ------------------------------------------------------------------------ */
/* Busy and errors                                                          */

void
plugboard_task_list_busy_inc (PlugboardTaskList *self)
{
  if (self->busy++ == 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
      gtk_spinner_start (self->spinner);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

void
plugboard_task_list_busy_dec (PlugboardTaskList *self)
{
  g_assert (self->busy > 0);

  if (--self->busy == 0)
    {
      gtk_spinner_stop (self->spinner);
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

void
plugboard_task_list_show_error (PlugboardTaskList *self,
                                const char        *message)
{
  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static void
on_error_dismiss_cb (PlugboardTaskList *self)
{
  plugboard_task_list_show_error (self, NULL);
}

McpClient *
plugboard_task_list_get_client (PlugboardTaskList *self)
{
  if (self->connection == NULL ||
      mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_CONNECTED)
    return NULL;

  return mcp_server_connection_get_client (self->connection);
}

static void
on_task_status_cb (McpServerConnection *connection,
                   McpTask             *task,
                   PlugboardTaskList   *self)
{
  plugboard_task_list_show_task (self, task);
}

static void
on_result_close_cb (PlugboardTaskList *self)
{
  plugboard_task_list_close_result (self);
}

static void
on_connection_changed_cb (PlugboardTaskList *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    plugboard_task_list_refresh (self);
}

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

GtkWidget *
plugboard_task_list_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TASK_LIST, NULL);
}

void
plugboard_task_list_set_connection (PlugboardTaskList   *self,
                                    McpServerConnection *connection)
{
  g_return_if_fail (PLUGBOARD_IS_TASK_LIST (self));
  g_return_if_fail (!connection || MCP_IS_SERVER_CONNECTION (connection));

  if (self->connection == connection)
    return;

  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  g_set_object (&self->connection, connection);

  if (connection != NULL)
    {
      g_signal_connect_object (connection, "task-status", G_CALLBACK (on_task_status_cb), self, 0);
      g_signal_connect_object (connection, "notify::client", G_CALLBACK (on_connection_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (connection, "notify::state", G_CALLBACK (on_connection_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }

  /* Another server's tasks: nothing of the last one stays. */
  plugboard_task_list_close_result (self);
  plugboard_task_list_show_error (self, NULL);
  if (self->list_cancellable != NULL)
    {
      g_cancellable_cancel (self->list_cancellable);
      g_clear_object (&self->list_cancellable);
      plugboard_task_list_busy_dec (self);
    }
  self->refresh_again = FALSE;
  g_list_store_remove_all (self->tasks);
  plugboard_task_list_update_summary (self);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) || connection == NULL)
    plugboard_task_list_refresh (self);
}

gboolean
plugboard_task_list_get_busy (PlugboardTaskList *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TASK_LIST (self), FALSE);

  return self->busy > 0;
}

const char *
plugboard_task_list_get_page_name (PlugboardTaskList *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TASK_LIST (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

GListModel *
plugboard_task_list_get_tasks (PlugboardTaskList *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TASK_LIST (self), NULL);

  return G_LIST_MODEL (self->tasks);
}

GtkWidget *
plugboard_task_list_get_result_view (PlugboardTaskList *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TASK_LIST (self), NULL);

  return GTK_WIDGET (self->result_view);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static gboolean
relative_tick_cb (gpointer user_data)
{
  plugboard_task_list_update_row_times (user_data);
  return G_SOURCE_CONTINUE;
}

static void
plugboard_task_list_map (GtkWidget *widget)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);

  GTK_WIDGET_CLASS (plugboard_task_list_parent_class)->map (widget);

  if (self->relative_source == 0)
    self->relative_source = g_timeout_add_seconds (RELATIVE_TIME_INTERVAL_S, relative_tick_cb, self);
  plugboard_task_list_refresh (self);
}

static void
plugboard_task_list_unmap (GtkWidget *widget)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);

  g_clear_handle_id (&self->relative_source, g_source_remove);
  g_clear_handle_id (&self->poll_source, g_source_remove);

  GTK_WIDGET_CLASS (plugboard_task_list_parent_class)->unmap (widget);
}

static void
plugboard_task_list_dispose (GObject *object)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (object);

  g_cancellable_cancel (self->cancellable);
  if (self->list_cancellable != NULL)
    g_cancellable_cancel (self->list_cancellable);
  if (self->result_cancellable != NULL)
    g_cancellable_cancel (self->result_cancellable);
  g_clear_handle_id (&self->relative_source, g_source_remove);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);

  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_TASK_LIST);

  g_clear_object (&self->connection);
  g_clear_object (&self->list_cancellable);
  g_clear_object (&self->result_cancellable);

  G_OBJECT_CLASS (plugboard_task_list_parent_class)->dispose (object);
}

static void
plugboard_task_list_finalize (GObject *object)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (object);

  g_clear_object (&self->tasks);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_free (self->result_task_id);

  G_OBJECT_CLASS (plugboard_task_list_parent_class)->finalize (object);
}

static void
plugboard_task_list_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy > 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_task_list_class_init (PlugboardTaskListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_task_list_dispose;
  object_class->finalize = plugboard_task_list_finalize;
  object_class->get_property = plugboard_task_list_get_property;
  widget_class->map = plugboard_task_list_map;
  widget_class->unmap = plugboard_task_list_unmap;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PLUGBOARD_TYPE_RESULT_VIEW);

  plugboard_task_list_class_init_actions (widget_class);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-task-list.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, list_error_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, result_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, result_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTaskList, result_view);
  plugboard_task_list_class_init_rows (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, on_error_dismiss_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_result_close_cb);
}

static void
plugboard_task_list_init (PlugboardTaskList *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  self->tasks = g_list_store_new (MCP_TYPE_TASK);
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));

  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->tasks)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  plugboard_task_list_update_summary (self);
}
