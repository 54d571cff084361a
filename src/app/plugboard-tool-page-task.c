/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: a run as a task — whether the tool may or must run
 * as one, the task's state while it runs, and how it ended (asking the
 * server for its final status when needed). */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

#include "plugboard-task-list.h"

static const char *
task_support (McpPoolTool *tool)
{
  const char *support = tool ? mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool)) : NULL;

  return support ? support : "forbidden";
}

/* "Run as Task" and a note for a tool that must run as one; a check beside
 * Run for one that may. */
void
plugboard_tool_page_update_task_support (PlugboardToolPage *self)
{
  const char *support = task_support (self->tool);
  gboolean required = g_str_equal (support, "required");
  gboolean optional = g_str_equal (support, "optional");

  adw_button_content_set_label (self->run_button_content,
                                required ? _("Run as _Task") : _("_Run"));
  gtk_widget_set_tooltip_text (self->run_button,
                               required ? _("Run the tool as a task (Ctrl+Enter)")
                                        : _("Run the tool (Ctrl+Enter)"));
  gtk_widget_set_visible (GTK_WIDGET (self->task_note_label), required);
  gtk_widget_set_visible (GTK_WIDGET (self->task_check), optional);
  gtk_check_button_set_active (self->task_check, FALSE);
}

gboolean
plugboard_tool_page_get_as_task (PlugboardToolPage *self)
{
  return g_str_equal (task_support (self->tool), "required") ||
         (g_str_equal (task_support (self->tool), "optional") &&
          gtk_check_button_get_active (self->task_check));
}

void
plugboard_tool_page_show_task_state (PlugboardToolPage *self,
                                     McpTask           *task)
{
  const char *message = task ? mcp_task_get_status_message (task) : NULL;

  gtk_widget_set_visible (self->task_box, TRUE);
  if (task == NULL)
    {
      gtk_image_set_from_icon_name (self->task_status_icon, "content-loading-symbolic");
      gtk_label_set_label (self->task_status_label, _("Starting the task…"));
      gtk_label_set_label (self->task_id_label, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->task_id_label), NULL);
    }
  else
    {
      g_autofree char *label = plugboard_task_status_dup_label (task);
      /* Translators: %s is a task id */
      g_autofree char *tooltip = g_strdup_printf (_("Task %s"), mcp_task_get_id (task));

      gtk_image_set_from_icon_name (self->task_status_icon,
                                    plugboard_task_status_icon_name (mcp_task_get_status (task)));
      gtk_label_set_label (self->task_status_label, label);
      gtk_label_set_label (self->task_id_label, mcp_task_get_id (task));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->task_id_label), tooltip);
    }
  gtk_label_set_label (self->task_message_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->task_message_label), message != NULL && message[0] != '\0');
}

/* How a task's call ended: "Cancelled" (by Cancel here, @error_message
 * NULL, or by anyone, as the server reports) or the error, then what the
 * server says of the task. */
static void
show_task_end (PlugboardToolPage *self,
               McpTask           *task,
               const char        *error_message,
               const char        *note)
{
  gboolean cancelled = error_message == NULL ||
                       (task != NULL && mcp_task_get_status (task) == MCP_TASK_STATUS_CANCELLED);
  g_autoptr(GString) text = g_string_new (cancelled ? _("Cancelled") : error_message);

  if (task != NULL)
    {
      g_autofree char *label = plugboard_task_status_dup_label (task);
      const char *message = mcp_task_get_status_message (task);

      g_string_append (text, "\n");
      /* Translators: a task id, then its status as the server gives it, e.g. "Cancelled" */
      g_string_append_printf (text, _("The server reports task %s as: %s"), mcp_task_get_id (task), label);
      if (message != NULL && message[0] != '\0')
        g_string_append_printf (text, " — %s", message);
    }
  if (note != NULL)
    g_string_append_printf (text, "\n%s", note);

  gtk_image_set_from_icon_name (self->error_icon, cancelled ? "process-stop-symbolic" : "dialog-error-symbolic");
  if (cancelled)
    gtk_widget_remove_css_class (GTK_WIDGET (self->error_icon), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->error_icon), "error");
  gtk_label_set_label (self->error_label, text->str);
  gtk_stack_set_visible_child_name (self->result_stack, "error");
  gtk_widget_set_visible (self->result_group, TRUE);
}

/* After Cancel, the engine has sent tasks/cancel; after a failure the
 * task may have been cancelled elsewhere (the server's Tasks, another
 * client) or have failed: the call asks the server where the task ended up
 * (the server may take a moment to stop it). @error_message: NULL after
 * Cancel here. */
typedef struct
{
  GWeakRef  page;
  char     *error;
} Follow;

static void
follow_free (Follow *follow)
{
  g_weak_ref_clear (&follow->page);
  g_free (follow->error);
  g_free (follow);
}

static void
on_follow_task_cb (McpCall    *call,
                   GParamSpec *pspec,
                   Follow     *follow)
{
  g_autoptr(PlugboardToolPage) self = g_weak_ref_get (&follow->page);
  McpTask *task = mcp_call_get_task (call);

  if (self != NULL && !mcp_task_status_is_terminal (mcp_task_get_status (task)))
    show_task_end (self, task, follow->error,
                   follow->error ? _("Waiting for the task’s final status…")
                                 : _("Waiting for the server to stop it…"));
}

static void
on_task_followed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  Follow *follow = user_data;
  McpCall *call = MCP_CALL (object);
  g_autoptr(PlugboardToolPage) self = NULL;
  g_autoptr(GError) error = NULL;

  g_signal_handlers_disconnect_by_data (call, follow);
  mcp_call_follow_task_finish (call, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      (self = g_weak_ref_get (&follow->page)) == NULL)
    {
      follow_free (follow);
      return;
    }

  if (error != NULL)
    {
      /* Translators: %s is an error message */
      g_autofree char *note = g_strdup_printf (_("Its final status could not be fetched: %s"), error->message);

      show_task_end (self, mcp_call_get_task (call), follow->error, note);
    }
  else
    show_task_end (self, mcp_call_get_task (call), follow->error, NULL);
  follow_free (follow);
}

void
plugboard_tool_page_follow_task_end (PlugboardToolPage *self,
                                     Run               *run,
                                     const char        *error_message)
{
  McpTask *task = mcp_call_get_task (run->call);
  McpServerConnection *connection = mcp_pool_tool_get_connection (mcp_call_get_tool (run->call));
  Follow *follow;

  if (mcp_task_status_is_terminal (mcp_task_get_status (task)) ||
      connection == NULL || mcp_server_connection_get_client (connection) == NULL)
    {
      show_task_end (self, task, error_message, NULL);
      return;
    }

  show_task_end (self, task, error_message, _("Asking the server for the task’s final status…"));

  g_cancellable_cancel (self->final_status_cancellable);
  g_clear_object (&self->final_status_cancellable);
  self->final_status_cancellable = g_cancellable_new ();

  follow = g_new0 (Follow, 1);
  g_weak_ref_init (&follow->page, self);
  follow->error = g_strdup (error_message);
  g_signal_connect (run->call, "notify::task", G_CALLBACK (on_follow_task_cb), follow);
  mcp_call_follow_task_async (run->call, self->final_status_cancellable, on_task_followed_cb, follow);
}
