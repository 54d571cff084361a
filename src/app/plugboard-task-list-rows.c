/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-task-list"

#include "config.h"

#include "plugboard-task-list.h"

#include <glib/gi18n.h>

#include "plugboard-task-list-private.h"

/* PlugboardTaskList's rows: a task's status in words and as an icon, when
 * it last changed ("updated 2 minutes ago"), and Cancel or Get Result. */

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

gboolean
plugboard_task_is_live (McpTask *task)
{
  McpTaskStatus status = mcp_task_get_status (task);

  return status == MCP_TASK_STATUS_WORKING || status == MCP_TASK_STATUS_INPUT_REQUIRED;
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

/* A button for an action on the row's task. */
static GtkWidget *
add_task_button (GtkBox     *box,
                 const char *label,
                 const char *action_name,
                 const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  /* A target from the start: the action takes one (the id, set in bind). */
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", "");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_box_append (box, button);
  return button;
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

  cancel = add_task_button (GTK_BOX (row), _("_Cancel"), "tasks.cancel",
                            _("Ask the server to cancel this task"));
  result = add_task_button (GTK_BOX (row), _("Get _Result"), "tasks.get-result",
                            _("Show what the task’s tool returned"));

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
  gtk_widget_set_visible (cancel, plugboard_task_is_live (task));
  gtk_widget_set_visible (result, task_status == MCP_TASK_STATUS_COMPLETED);
}

void
plugboard_task_list_update_row_times (PlugboardTaskList *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    update_row_time (g_ptr_array_index (self->rows, i));
}

void
plugboard_task_list_class_init_rows (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_row_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_teardown_cb);
}
