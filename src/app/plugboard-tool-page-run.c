/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: a run of the tool through McpCall — the progress
 * (with the server's messages and the elapsed time), Cancel, the result or
 * the error, and a run left running when the page moves on. */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include "mcp-error-detail.h"

#include <glib/gi18n.h>

static void
run_free (Run *run)
{
  if (run->owner != NULL)
    g_object_remove_weak_pointer (G_OBJECT (run->owner), (gpointer *) &run->owner);
  if (run->call != NULL)
    g_signal_handlers_disconnect_by_data (run->call, run);
  g_clear_object (&run->call);
  g_clear_object (&run->cancellable);
  g_free (run);
}

static void
update_elapsed (PlugboardToolPage *self)
{
  g_autofree char *duration = plugboard_tool_page_format_duration (g_get_monotonic_time () - self->run_started);
  /* Translators: %s is a duration, e.g. "1.4 s" */
  g_autofree char *text = g_strdup_printf (_("Elapsed: %s"), duration);

  gtk_label_set_label (self->elapsed_label, text);
}

static gboolean
elapsed_tick_cb (gpointer user_data)
{
  PlugboardToolPage *self = user_data;

  update_elapsed (self);
  if (self->run != NULL && self->pulsing)
    gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

static void
show_progress (PlugboardToolPage *self)
{
  self->run_started = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  self->pulsing = FALSE;
  gtk_label_set_label (self->progress_label, _("Running…"));
  gtk_widget_set_visible (self->task_box, FALSE);
  update_elapsed (self);
  if (self->elapsed_source == 0)
    self->elapsed_source = g_timeout_add (100, elapsed_tick_cb, self);
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
}

static void
set_running (PlugboardToolPage *self,
             Run               *run)
{
  gboolean was_running = self->run != NULL;

  self->run = run;

  /* The progress shows once the call may go (show_progress()): not while
   * the person is still asked whether it may. */
  if (run == NULL)
    g_clear_handle_id (&self->elapsed_source, g_source_remove);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  plugboard_tool_page_update_actions (self);

  if (was_running != (run != NULL))
    plugboard_tool_page_notify_running (self);
}

static void
on_call_progress_cb (McpCall    *call,
                     double      progress,
                     double      total,
                     const char *message,
                     Run        *run)
{
  PlugboardToolPage *self = run->self;

  if (self == NULL || self->run != run)
    return;

  if (total > 0)
    {
      run->has_total = TRUE;
      self->pulsing = FALSE;
      gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (progress / total, 0.0, 1.0));
    }
  else
    {
      self->pulsing = TRUE;
      gtk_progress_bar_pulse (self->progress_bar);
    }

  if (message != NULL && message[0] != '\0')
    {
      run->has_message = TRUE;
      gtk_label_set_label (self->progress_label, message);
    }
  else if (total > 0)
    {
      g_autofree char *text = NULL;

      /* Translators: progress so far and its total, e.g. "3 of 10" */
      text = g_strdup_printf (_("%g of %g"), progress, total);
      gtk_label_set_label (self->progress_label, text);
    }
}

static void
on_call_task_cb (McpCall    *call,
                 GParamSpec *pspec,
                 Run        *run)
{
  PlugboardToolPage *self = run->self;
  McpTask *task = mcp_call_get_task (call);

  if (self == NULL || self->run != run || task == NULL)
    return;

  plugboard_tool_page_show_task_state (self, task);
  if (!run->has_total)
    {
      /* A task's own status is all there is to go by. */
      self->pulsing = TRUE;
      gtk_progress_bar_pulse (self->progress_bar);
    }
  /* The server's own progress messages, when it sends any, say more. */
  if (run->has_message)
    return;
  if (mcp_task_get_status (task) == MCP_TASK_STATUS_INPUT_REQUIRED)
    gtk_label_set_label (self->progress_label, _("The server waits for your answer…"));
  else if (mcp_task_get_status (task) == MCP_TASK_STATUS_WORKING)
    gtk_label_set_label (self->progress_label, _("The server works on the task…"));
}

/* The call's one permission check let it go on (by a rule, the default or
 * the person's yes): the progress shows. */
static void
on_call_allowed_cb (McpCall    *call,
                    GParamSpec *pspec,
                    Run        *run)
{
  if (run->self != NULL && run->self->run == run)
    show_progress (run->self);
}

static void
on_run_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Run *run = user_data;
  PlugboardToolPage *self = run->self;
  McpCall *call = MCP_CALL (object);
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  /* Refused, or cancelled while the person was asked: nothing ran. */
  gboolean ran;

  processed = mcp_call_run_finish (call, result, &error);
  ran = mcp_call_get_allowed (call);

  if (self == NULL || self->run != run)
    {
      /* A run the person left for another tool: its end is told, not
       * dropped (the history has it too). */
      if (run->owner != NULL && ran)
        plugboard_tool_page_emit_run_finished (run->owner, mcp_call_get_tool (call),
                                               processed != NULL && !mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)),
                                               processed != NULL ? NULL : error->message);
      run_free (run);
      return;
    }

  plugboard_tool_page_app_call_ended (self, mcp_call_get_history_entry (call),
                                      processed != NULL ? mcp_processed_result_get_original (processed) : NULL,
                                      processed != NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                        ? NULL : error->message);

  if (processed != NULL)
    {
      plugboard_result_view_set_result (self->result_view, mcp_call_get_tool (call),
                                        mcp_call_get_arguments (call), processed);
      gtk_stack_set_visible_child_name (self->result_stack, "result");
      gtk_widget_set_visible (self->result_group, TRUE);
    }
  else if (!ran)
    {
      /* The person said Cancel in the confirmation: nothing ran. */
    }
  else if (mcp_call_get_task (call) != NULL)
    plugboard_tool_page_follow_task_end (self, run,
                                         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? NULL : error->message);
  else
    {
      /* A server's JSON-RPC error with its code and data. */
      g_autofree char *detail = mcp_error_detail_describe (error);
      const char *message = detail;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        message = _("The call was cancelled.");
      gtk_image_set_from_icon_name (self->error_icon, "dialog-error-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->error_icon), "error");
      gtk_label_set_label (self->error_label, message);
      gtk_stack_set_visible_child_name (self->result_stack, "error");
      gtk_widget_set_visible (self->result_group, TRUE);
    }

  set_running (self, NULL);
  run_free (run);
}

void
plugboard_tool_page_run (PlugboardToolPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  McpCallFlags flags;
  gboolean as_task;
  Run *run;

  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));

  if (self->tool == NULL || self->run != NULL || self->denied)
    return;

  arguments = plugboard_tool_page_dup_arguments (self, &error);
  if (arguments == NULL)
    {
      plugboard_tool_page_show_arguments_error (self, error->message);
      return;
    }
  plugboard_tool_page_show_arguments_error (self, NULL);

  as_task = plugboard_tool_page_get_as_task (self);

  run = g_new0 (Run, 1);
  run->self = self;
  run->cancellable = g_cancellable_new ();
  flags = as_task ? MCP_CALL_FLAGS_AS_TASK : MCP_CALL_FLAGS_NONE;
  run->call = self->project != NULL
              ? mcp_project_new_call (self->project, self->tool, arguments, flags)
              : mcp_call_new (self->tool, arguments, flags, self->permissions, NULL, self->history);
  g_signal_connect (run->call, "progress", G_CALLBACK (on_call_progress_cb), run);
  g_signal_connect (run->call, "notify::task", G_CALLBACK (on_call_task_cb), run);
  g_signal_connect (run->call, "notify::allowed", G_CALLBACK (on_call_allowed_cb), run);

  /* A new run: the last cancelled task is no longer followed. */
  g_cancellable_cancel (self->final_status_cancellable);

  set_running (self, run);
  plugboard_tool_page_app_call_started (self, arguments);
  if (as_task)
    plugboard_tool_page_show_task_state (self, NULL);

  mcp_call_run_async (run->call, run->cancellable, on_run_done_cb, run);
}

void
plugboard_tool_page_cancel (PlugboardToolPage *self)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));

  /* A confirmation still open closes: nothing runs. */
  if (self->run != NULL)
    g_cancellable_cancel (self->run->cancellable);
}

/* Lets a call under way end on its own, without this page: with @cancel
 * (the page goes away) a plain call is cancelled; otherwise (the person
 * looks at another tool) it goes on, its outcome goes to the history and
 * #PlugboardToolPage::run-finished tells of its end. A task the server has
 * made always goes on (its call still follows it and records the outcome),
 * so that the person can come back for its result in the server's Tasks.
 * A confirmation still open is answered Cancel: nothing ran. */
void
plugboard_tool_page_detach_run (PlugboardToolPage *self,
                                gboolean           cancel)
{
  Run *run = self->run;
  McpTask *task;

  if (run == NULL)
    return;

  task = mcp_call_get_task (run->call);
  if (!mcp_call_get_allowed (run->call) ||
      (cancel && (task == NULL || mcp_task_status_is_terminal (mcp_task_get_status (task)))))
    g_cancellable_cancel (run->cancellable);
  else if (run->owner == NULL)
    {
      run->owner = self;
      g_object_add_weak_pointer (G_OBJECT (self), (gpointer *) &run->owner);
    }
  run->self = NULL;
  set_running (self, NULL);
}
