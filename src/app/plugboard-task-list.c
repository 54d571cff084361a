/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-task-list"

#include "config.h"

#include "plugboard-task-list.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-task.h"
#include "mcp-tool-call.h"
#include "plugboard-common.h"
#include "plugboard-result-view.h"

/* How often "2 min ago" is brought up to date while the list shows. */
#define RELATIVE_TIME_INTERVAL_S 10
/* While a listed task is still under way and the list shows, tasks/list is
 * asked again at the task's pollInterval, within these bounds: a server
 * that sends no notifications/tasks/status still looks live. */
#define MIN_POLL_MS     1000
#define MAX_POLL_MS    10000
#define DEFAULT_POLL_MS 2000

struct _PlugboardTaskList
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkLabel            *summary_label;
  GtkSpinner          *spinner;
  GtkRevealer         *error_revealer;
  GtkLabel            *error_label;
  GtkStack            *stack;
  AdwStatusPage       *list_error_page;
  GtkListView         *list_view;
  GtkWidget           *result_box;
  GtkLabel            *result_title;
  PlugboardResultView *result_view;

  /* Owned references */
  McpServerConnection *connection;
  GListStore          *tasks;
  GPtrArray           *rows;            /* the row widgets made, for the time tick */
  GCancellable        *list_cancellable;
  GCancellable        *result_cancellable;
  GCancellable        *cancellable;     /* everything else; cancelled in dispose */
  char                *result_task_id;

  guint                busy;
  guint                relative_source;
  guint                poll_source;
  guint                refresh_again : 1;
};

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PlugboardTaskList, plugboard_task_list, ADW_TYPE_BIN)

static void schedule_poll (PlugboardTaskList *self);

/* One request under way. Its answer counts only while its cancellable is
 * not cancelled: a newer request (another Refresh, another Get Result, or
 * another connection) cancels the older one, whose answer is then dropped
 * even when it comes anyway. */
typedef struct
{
  PlugboardTaskList *self;
  GCancellable      *cancellable;
} Op;

static Op *
op_new (PlugboardTaskList *self,
        GCancellable      *cancellable)
{
  Op *op = g_new0 (Op, 1);

  op->self = g_object_ref (self);
  op->cancellable = g_object_ref (cancellable);
  return op;
}

static void
op_free (Op *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->cancellable);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Op, op_free)

/* ------------------------------------------------------------------------ */
/* Status in words                                                          */

char *
plugboard_task_status_dup_label (McpTask *task)
{
  g_return_val_if_fail (MCP_IS_TASK (task), NULL);

  switch (mcp_task_get_status (task))
    {
    case MCP_TASK_STATUS_WORKING:
      return g_strdup (_("Working"));
    case MCP_TASK_STATUS_INPUT_REQUIRED:
      return g_strdup (_("Input required"));
    case MCP_TASK_STATUS_COMPLETED:
      return g_strdup (_("Completed"));
    case MCP_TASK_STATUS_FAILED:
      return g_strdup (_("Failed"));
    case MCP_TASK_STATUS_CANCELLED:
      return g_strdup (_("Cancelled"));
    case MCP_TASK_STATUS_UNKNOWN:
    default:
      /* Translators: %s is a task status this version does not know, as the server spelt it */
      return g_strdup_printf (_("Unknown status “%s”"),
                              mcp_task_get_status_string (task) ? mcp_task_get_status_string (task) : "");
    }
}

const char *
plugboard_task_status_icon_name (McpTaskStatus status)
{
  switch (status)
    {
    case MCP_TASK_STATUS_WORKING:
      return "emblem-synchronizing-symbolic";
    case MCP_TASK_STATUS_INPUT_REQUIRED:
      return "dialog-question-symbolic";
    case MCP_TASK_STATUS_COMPLETED:
      return "emblem-ok-symbolic";
    case MCP_TASK_STATUS_FAILED:
      return "dialog-error-symbolic";
    case MCP_TASK_STATUS_CANCELLED:
      return "process-stop-symbolic";
    case MCP_TASK_STATUS_UNKNOWN:
    default:
      return "help-about-symbolic";
    }
}

static const char *
status_css_class (McpTaskStatus status)
{
  switch (status)
    {
    case MCP_TASK_STATUS_WORKING:
      return "accent";
    case MCP_TASK_STATUS_INPUT_REQUIRED:
      return "warning";
    case MCP_TASK_STATUS_COMPLETED:
      return "success";
    case MCP_TASK_STATUS_FAILED:
      return "error";
    default:
      return NULL;
    }
}

static GDateTime *
task_time (McpTask *task)
{
  const char *text = mcp_task_get_last_updated_at (task);

  if (text == NULL)
    text = mcp_task_get_created_at (task);
  if (text == NULL)
    return NULL;

  return g_date_time_new_from_iso8601 (text, NULL);
}

static char *
relative_time (GDateTime *time)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  GTimeSpan span = g_date_time_difference (now, time);
  gint64 seconds = span / G_TIME_SPAN_SECOND;

  if (seconds < 5)
    return g_strdup (_("just now"));
  if (seconds < 60)
    /* Translators: a time in the past, in seconds */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d second ago", "%d seconds ago", seconds),
                            (int) seconds);
  if (seconds < 60 * 60)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d minute ago", "%d minutes ago", seconds / 60),
                            (int) (seconds / 60));
  if (seconds < 24 * 60 * 60)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d hour ago", "%d hours ago", seconds / 3600),
                            (int) (seconds / 3600));

  {
    g_autoptr(GDateTime) local = g_date_time_to_local (time);

    return g_date_time_format (local, "%x %X");
  }
}

static gboolean
task_is_live (McpTask *task)
{
  McpTaskStatus status = mcp_task_get_status (task);

  return status == MCP_TASK_STATUS_WORKING || status == MCP_TASK_STATUS_INPUT_REQUIRED;
}

/* ------------------------------------------------------------------------ */
/* Busy and errors                                                          */

static void
busy_inc (PlugboardTaskList *self)
{
  if (self->busy++ == 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
      gtk_spinner_start (self->spinner);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
busy_dec (PlugboardTaskList *self)
{
  g_assert (self->busy > 0);

  if (--self->busy == 0)
    {
      gtk_spinner_stop (self->spinner);
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
show_error (PlugboardTaskList *self,
            const char        *message)
{
  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static void
on_error_dismiss_cb (PlugboardTaskList *self)
{
  show_error (self, NULL);
}

static McpClient *
current_client (PlugboardTaskList *self)
{
  if (self->connection == NULL ||
      mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_CONNECTED)
    return NULL;

  return mcp_server_connection_get_client (self->connection);
}

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
/* Rows                                                                     */

static void
update_row_time (GtkWidget *row)
{
  McpTask *task = g_object_get_data (G_OBJECT (row), "task");
  GtkLabel *time_label = g_object_get_data (G_OBJECT (row), "time-label");
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;

  if (task == NULL || (time = task_time (task)) == NULL)
    {
      gtk_label_set_label (time_label, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (time_label), NULL);
      return;
    }

  {
    g_autoptr(GDateTime) local = g_date_time_to_local (time);
    g_autofree char *absolute = g_date_time_format (local, "%x %X");
    g_autofree char *relative = relative_time (time);

    /* Translators: when a task's state last changed, e.g. "updated 2 minutes ago" */
    text = g_strdup_printf (_("updated %s"), relative);
    /* Translators: %s is a date and time */
    tooltip = g_strdup_printf (_("Last update: %s"), absolute);
  }
  gtk_label_set_label (time_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (time_label), tooltip);
}

static GtkWidget *
add_label (GtkBox     *box,
           const char *css_class,
           const char *css_class2)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  if (css_class2 != NULL)
    gtk_widget_add_css_class (label, css_class2);
  gtk_box_append (box, label);
  return label;
}

static void
on_row_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 PlugboardTaskList        *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *status;
  GtkWidget *time;
  GtkWidget *id;
  GtkWidget *message;
  GtkWidget *cancel;
  GtkWidget *result;

  gtk_widget_add_css_class (row, "plugboard-task-row");
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (row), icon);

  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (row), text);

  gtk_box_append (GTK_BOX (text), line);
  status = add_label (GTK_BOX (line), "heading", NULL);
  time = add_label (GTK_BOX (line), "dim-label", "caption");
  gtk_widget_set_hexpand (time, TRUE);
  gtk_widget_add_css_class (time, "numeric");

  id = add_label (GTK_BOX (text), "monospace", "caption");
  gtk_label_set_ellipsize (GTK_LABEL (id), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_selectable (GTK_LABEL (id), TRUE);
  /* Selectable with the pointer; Tab goes to the buttons. */
  gtk_widget_set_focusable (id, FALSE);

  message = add_label (GTK_BOX (text), "dim-label", NULL);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (message), 3);
  gtk_label_set_ellipsize (GTK_LABEL (message), PANGO_ELLIPSIZE_END);

  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_valign (cancel, GTK_ALIGN_CENTER);
  /* A target from the start: the action takes one (the id, set in bind). */
  gtk_actionable_set_action_target (GTK_ACTIONABLE (cancel), "s", "");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "tasks.cancel");
  gtk_widget_set_tooltip_text (cancel, _("Ask the server to cancel this task"));
  gtk_box_append (GTK_BOX (row), cancel);

  result = gtk_button_new_with_mnemonic (_("Get _Result"));
  gtk_widget_set_valign (result, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (result), "s", "");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (result), "tasks.get-result");
  gtk_widget_set_tooltip_text (result, _("Show what the task’s tool returned"));
  gtk_box_append (GTK_BOX (row), result);

  g_object_set_data (G_OBJECT (row), "icon", icon);
  g_object_set_data (G_OBJECT (row), "status-label", status);
  g_object_set_data (G_OBJECT (row), "time-label", time);
  g_object_set_data (G_OBJECT (row), "id-label", id);
  g_object_set_data (G_OBJECT (row), "message-label", message);
  g_object_set_data (G_OBJECT (row), "cancel-button", cancel);
  g_object_set_data (G_OBJECT (row), "result-button", result);

  g_ptr_array_add (self->rows, g_object_ref (row));
  gtk_list_item_set_child (item, row);
}

static void
on_row_teardown_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    PlugboardTaskList        *self)
{
  GtkWidget *row = gtk_list_item_get_child (item);

  if (row != NULL)
    g_ptr_array_remove (self->rows, row);
}

static void
on_row_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                PlugboardTaskList        *self)
{
  McpTask *task = gtk_list_item_get_item (item);
  GtkWidget *row = gtk_list_item_get_child (item);
  GtkWidget *icon = g_object_get_data (G_OBJECT (row), "icon");
  GtkLabel *status = g_object_get_data (G_OBJECT (row), "status-label");
  GtkLabel *id = g_object_get_data (G_OBJECT (row), "id-label");
  GtkLabel *message = g_object_get_data (G_OBJECT (row), "message-label");
  GtkWidget *cancel = g_object_get_data (G_OBJECT (row), "cancel-button");
  GtkWidget *result = g_object_get_data (G_OBJECT (row), "result-button");
  McpTaskStatus task_status = mcp_task_get_status (task);
  const char *status_message = mcp_task_get_status_message (task);
  g_autofree char *label = plugboard_task_status_dup_label (task);
  const char *classes[] = { "accent", "warning", "success", "error" };
  const char *css_class = status_css_class (task_status);

  g_object_set_data_full (G_OBJECT (row), "task", g_object_ref (task), g_object_unref);

  gtk_image_set_from_icon_name (GTK_IMAGE (icon), plugboard_task_status_icon_name (task_status));
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (icon, classes[i]);
  if (css_class != NULL)
    gtk_widget_add_css_class (icon, css_class);

  gtk_label_set_label (status, label);
  gtk_label_set_label (id, mcp_task_get_id (task));
  gtk_widget_set_tooltip_text (GTK_WIDGET (id), mcp_task_get_id (task));
  gtk_label_set_label (message, status_message ? status_message : "");
  gtk_widget_set_visible (GTK_WIDGET (message), status_message != NULL && status_message[0] != '\0');
  update_row_time (row);

  gtk_actionable_set_action_target (GTK_ACTIONABLE (cancel), "s", mcp_task_get_id (task));
  gtk_actionable_set_action_target (GTK_ACTIONABLE (result), "s", mcp_task_get_id (task));
  gtk_widget_set_visible (cancel, task_is_live (task));
  gtk_widget_set_visible (result, task_status == MCP_TASK_STATUS_COMPLETED);
}

static gboolean
relative_tick_cb (gpointer user_data)
{
  PlugboardTaskList *self = user_data;

  for (guint i = 0; i < self->rows->len; i++)
    update_row_time (g_ptr_array_index (self->rows, i));

  return G_SOURCE_CONTINUE;
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

static void
update_summary (PlugboardTaskList *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tasks));
  guint live = 0;
  g_autofree char *text = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpTask) task = g_list_model_get_item (G_LIST_MODEL (self->tasks), i);

      if (task_is_live (task))
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
  update_summary (self);
}

static void refresh (PlugboardTaskList *self);

static void
on_list_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Op) op = user_data;
  PlugboardTaskList *self = op->self;
  g_autoptr(GPtrArray) tasks = NULL;
  g_autoptr(GError) error = NULL;

  tasks = mcp_client_list_tasks_finish (MCP_CLIENT (object), result, &error);
  if (g_cancellable_is_cancelled (op->cancellable))
    return;

  busy_dec (self);
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
      update_summary (self);
    }
  else
    show_tasks (self, tasks);

  /* A status notification came in while the list was being fetched. */
  if (self->refresh_again)
    {
      self->refresh_again = FALSE;
      refresh (self);
    }
  else
    schedule_poll (self);
}

static void
refresh (PlugboardTaskList *self)
{
  McpClient *client = current_client (self);

  g_clear_handle_id (&self->poll_source, g_source_remove);

  if (client == NULL || !server_lists_tasks (client))
    {
      if (self->list_cancellable != NULL)
        {
          g_cancellable_cancel (self->list_cancellable);
          g_clear_object (&self->list_cancellable);
          busy_dec (self);
        }
      g_list_store_remove_all (self->tasks);
      update_summary (self);
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

  busy_inc (self);
  self->list_cancellable = g_cancellable_new ();
  mcp_client_list_tasks_async (client, self->list_cancellable, on_list_done_cb,
                               op_new (self, self->list_cancellable));
}

static gboolean
poll_cb (gpointer user_data)
{
  PlugboardTaskList *self = user_data;

  self->poll_source = 0;
  refresh (self);
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

      if (!task_is_live (task))
        continue;
      if (poll <= 0)
        poll = DEFAULT_POLL_MS;
      if (interval < 0 || poll < interval)
        interval = poll;
    }

  if (interval > 0)
    self->poll_source = g_timeout_add (CLAMP (interval, MIN_POLL_MS, MAX_POLL_MS), poll_cb, self);
}

static void
on_task_status_cb (McpServerConnection *connection,
                   McpTask             *task,
                   PlugboardTaskList   *self)
{
  GListModel *model = G_LIST_MODEL (self->tasks);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(McpTask) old = g_list_model_get_item (model, i);

      if (g_strcmp0 (mcp_task_get_id (old), mcp_task_get_id (task)) == 0)
        {
          if (!same_state (old, task))
            g_list_store_splice (self->tasks, i, 1, (gpointer *) &task, 1);
          update_summary (self);
          return;
        }
    }

  /* A task not listed yet: ask for the whole list. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    refresh (self);
}

static void
on_connection_changed_cb (PlugboardTaskList *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    refresh (self);
}

/* ------------------------------------------------------------------------ */
/* Cancel and Get Result                                                    */

static void
on_cancel_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Op) op = user_data;
  PlugboardTaskList *self = op->self;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = mcp_client_cancel_task_finish (MCP_CLIENT (object), result, &error);
  if (g_cancellable_is_cancelled (op->cancellable))
    return;

  busy_dec (self);
  if (task == NULL)
    {
      /* Translators: %s is an error message */
      g_autofree char *message = g_strdup_printf (_("The task could not be cancelled: %s"), error->message);

      show_error (self, message);
    }
  else
    on_task_status_cb (self->connection, task, self);

  refresh (self);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);
  McpClient *client = current_client (self);
  const char *task_id = g_variant_get_string (parameter, NULL);

  if (client == NULL || task_id[0] == '\0')
    return;

  show_error (self, NULL);
  busy_inc (self);
  mcp_client_cancel_task_async (client, task_id, self->cancellable,
                                on_cancel_done_cb, op_new (self, self->cancellable));
}

static void
close_result (PlugboardTaskList *self)
{
  if (self->result_cancellable != NULL)
    {
      g_cancellable_cancel (self->result_cancellable);
      g_clear_object (&self->result_cancellable);
      busy_dec (self);
    }
  g_clear_pointer (&self->result_task_id, g_free);
  plugboard_result_view_clear (self->result_view);
  gtk_widget_set_visible (self->result_box, FALSE);
}

static void
on_result_close_cb (PlugboardTaskList *self)
{
  close_result (self);
}

static void
result_failed (PlugboardTaskList *self,
               GError            *error)
{
  /* Translators: the first %s is a task id, the second an error message */
  g_autofree char *message = g_strdup_printf (_("The result of task “%s” could not be fetched: %s"),
                                              self->result_task_id, error->message);

  show_error (self, message);
  g_clear_object (&self->result_cancellable);
  busy_dec (self);
  close_result (self);
}

static void
on_result_processed_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(Op) op = user_data;
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
  busy_dec (self);
  plugboard_result_view_set_result (self->result_view, NULL, NULL, processed);
}

static void
on_result_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Op) op = user_data;
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
                                 on_result_processed_cb, op_new (self, self->result_cancellable));
}

static void
get_result_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);
  McpClient *client = current_client (self);
  const char *task_id = g_variant_get_string (parameter, NULL);
  g_autofree char *title = NULL;

  if (client == NULL || task_id[0] == '\0')
    return;

  close_result (self);
  show_error (self, NULL);

  self->result_task_id = g_strdup (task_id);
  /* Translators: %s is a task id */
  title = g_strdup_printf (_("Result of task %s"), task_id);
  gtk_label_set_label (self->result_title, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->result_title), title);
  gtk_widget_set_visible (self->result_box, TRUE);

  busy_inc (self);
  self->result_cancellable = g_cancellable_new ();
  mcp_client_get_task_result_async (client, task_id, self->result_cancellable,
                                    on_result_done_cb, op_new (self, self->result_cancellable));
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  plugboard_task_list_refresh (PLUGBOARD_TASK_LIST (widget));
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
  close_result (self);
  show_error (self, NULL);
  if (self->list_cancellable != NULL)
    {
      g_cancellable_cancel (self->list_cancellable);
      g_clear_object (&self->list_cancellable);
      busy_dec (self);
    }
  self->refresh_again = FALSE;
  g_list_store_remove_all (self->tasks);
  update_summary (self);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) || connection == NULL)
    refresh (self);
}

void
plugboard_task_list_refresh (PlugboardTaskList *self)
{
  g_return_if_fail (PLUGBOARD_IS_TASK_LIST (self));

  refresh (self);
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

static void
plugboard_task_list_map (GtkWidget *widget)
{
  PlugboardTaskList *self = PLUGBOARD_TASK_LIST (widget);

  GTK_WIDGET_CLASS (plugboard_task_list_parent_class)->map (widget);

  if (self->relative_source == 0)
    self->relative_source = g_timeout_add_seconds (RELATIVE_TIME_INTERVAL_S, relative_tick_cb, self);
  refresh (self);
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

  gtk_widget_class_install_action (widget_class, "tasks.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "tasks.cancel", "s", cancel_action);
  gtk_widget_class_install_action (widget_class, "tasks.get-result", "s", get_result_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "tasks.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "tasks.refresh", NULL);

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
  gtk_widget_class_bind_template_callback (widget_class, on_row_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_teardown_cb);
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
  update_summary (self);
}
