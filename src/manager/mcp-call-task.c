/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-call"

/* McpCall as a task (2025-11-25, experimental): tools/call with
 * params.task, then tasks/result at once while tasks/get polls at the
 * task's pollInterval (and notifications/tasks/status), tasks/cancel when
 * the call is cancelled; and, after a failure or a cancel, following the
 * task until the server says where it ended. */

#include "config.h"

#include "mcp-call-private.h"

#include <glib/gi18n-lib.h>

#include "mcp-error.h"
#include "mcp-message.h"
#include "mcp-server-connection.h"

/* tasks/get polling: the server's pollInterval, within these bounds. */
#define TASK_POLL_DEFAULT_MS 1000
#define TASK_POLL_MIN_MS     100
#define TASK_POLL_MAX_MS     30000

/* Following a task's end: this many tasks/get at most. */
#define FOLLOW_TRIES         5
#define FOLLOW_MIN_MS        200
#define FOLLOW_MAX_MS        5000

gboolean
mcp_call_runs_as_task (McpCall *self)
{
  const char *support = mcp_tool_get_task_support (mcp_pool_tool_get_tool (self->tool));

  if (g_strcmp0 (support, "required") == 0)
    return TRUE;
  return (self->flags & MCP_CALL_FLAGS_AS_TASK) != 0 && g_strcmp0 (support, "optional") == 0;
}

/* Ends the task's side work: polling, the status signal, the watch on the
 * call's cancellable, and any tasks/get or tasks/result still waiting. */
void
mcp_call_task_stop (McpCall *self)
{
  self->task_done = TRUE;
  g_clear_handle_id (&self->task_poll_id, g_source_remove);
  if (self->task_status_id != 0 && self->task_client != NULL)
    g_clear_signal_handler (&self->task_status_id, self->task_client);
  if (self->task_cancel_source != NULL)
    {
      g_source_destroy (self->task_cancel_source);
      g_clear_pointer (&self->task_cancel_source, g_source_unref);
    }
  if (self->task_cancellable != NULL)
    g_cancellable_cancel (self->task_cancellable);
}

void
mcp_call_task_report (McpCall *self,
                      McpTask *state)
{
  McpTask *last = self->task_state;

  if (last != NULL &&
      g_strcmp0 (mcp_task_get_status_string (last), mcp_task_get_status_string (state)) == 0 &&
      g_strcmp0 (mcp_task_get_status_message (last), mcp_task_get_status_message (state)) == 0)
    return;

  g_set_object (&self->task_state, state);
  g_object_notify (G_OBJECT (self), "task");
}

static void task_poll_schedule (GTask *task);

static void
on_task_polled_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpCall *self = g_task_get_source_object (task);
  g_autoptr(McpTask) state = NULL;
  g_autoptr(GError) error = NULL;

  state = mcp_client_get_task_finish (MCP_CLIENT (object), result, &error);
  if (self->task_done)
    return;
  if (state == NULL)
    /* A missed poll is not the end of the task: tasks/result says that. */
    g_debug ("tasks/get for %s failed: %s", mcp_pool_tool_get_qualified_name (self->tool),
             error->message);
  else
    mcp_call_task_report (self, state);

  /* The poll holds no reference (see task_poll_schedule()): this one,
   * taken for tasks/get, is dropped here. */
  if (state == NULL || !mcp_task_status_is_terminal (mcp_task_get_status (state)))
    task_poll_schedule (task);
}

static gboolean
task_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);

  self->task_poll_id = 0;
  mcp_client_get_task_async (self->task_client, mcp_task_get_id (self->task_state),
                             self->task_cancellable, on_task_polled_cb, g_object_ref (task));
  return G_SOURCE_REMOVE;
}

static void
task_poll_schedule (GTask *task)
{
  McpCall *self = g_task_get_source_object (task);
  gint64 interval = mcp_task_get_poll_interval (self->task_state);

  if (self->task_done)
    return;
  if (interval < 0)
    interval = TASK_POLL_DEFAULT_MS;
  interval = CLAMP (interval, TASK_POLL_MIN_MS, TASK_POLL_MAX_MS);
  /* The source holds no reference: mcp_call_task_stop() removes it before
   * the call can end. */
  self->task_poll_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) interval,
                                           task_poll_cb, task, NULL);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->task_poll_id),
                            "[mcp-call] tasks/get");
}

static void
on_task_status_cb (McpClient  *client,
                   McpMessage *message,
                   McpCall    *self)
{
  JsonObject *params = mcp_message_get_params_object (message);
  g_autoptr(McpTask) state = NULL;

  if (self->task_done || params == NULL ||
      g_strcmp0 (mcp_message_get_method (message), "notifications/tasks/status") != 0)
    return;
  state = mcp_task_new_from_json (params, NULL);
  if (state != NULL && g_strcmp0 (mcp_task_get_id (state), mcp_task_get_id (self->task_state)) == 0)
    mcp_call_task_report (self, state);
}

static void
task_finish_with_result (GTask         *task,
                         McpToolResult *tool_result)
{
  McpCall *self = g_task_get_source_object (task);

  mcp_call_task_stop (self);
  mcp_call_finish_with_result (task, tool_result);
}

static void
on_task_final_state_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  g_autoptr(McpToolResult) tool_result = g_object_steal_data (G_OBJECT (task), "mcp-task-result");
  g_autoptr(McpTask) state = mcp_client_get_task_finish (MCP_CLIENT (object), result, NULL);

  if (state != NULL)
    mcp_call_task_report (self, state);
  task_finish_with_result (task, tool_result);
}

static void
on_task_result_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpCall *self = g_task_get_source_object (task);
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = mcp_client_get_task_result_finish (MCP_CLIENT (object), result, &error);
  if (self->task_done)
    {
      g_clear_error (&error);
      return;
    }

  if (tool_result == NULL)
    {
      mcp_call_task_stop (self);
      g_prefix_error (&error, _("Calling %s failed (task %s): "),
                      mcp_pool_tool_get_qualified_name (self->tool),
                      mcp_task_get_id (self->task_state));
      mcp_call_return_error (g_steal_pointer (&task), error);
      return;
    }

  self->task_has_result = TRUE;

  /* The last state for the front end (the polls may have missed it), then
   * the result. */
  if (!mcp_task_status_is_terminal (mcp_task_get_status (self->task_state)))
    {
      g_clear_handle_id (&self->task_poll_id, g_source_remove);
      g_object_set_data_full (G_OBJECT (task), "mcp-task-result",
                              g_steal_pointer (&tool_result), g_object_unref);
      mcp_client_get_task_async (self->task_client, mcp_task_get_id (self->task_state),
                                 NULL, on_task_final_state_cb, g_steal_pointer (&task));
      return;
    }
  task_finish_with_result (g_steal_pointer (&task), tool_result);
}

static void
on_task_cancelled_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  g_autoptr(McpTask) state = NULL;
  g_autoptr(GError) error = NULL;

  state = mcp_client_cancel_task_finish (MCP_CLIENT (object), result, &error);
  if (state != NULL)
    mcp_call_task_report (self, state);
  else
    g_debug ("tasks/cancel for %s failed: %s", mcp_pool_tool_get_qualified_name (self->tool),
             error->message);

  mcp_call_return_error (task, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                            _("%s was cancelled (task %s)"),
                                            mcp_pool_tool_get_qualified_name (self->tool),
                                            mcp_task_get_id (self->task_state)));
}

/* The call's cancellable: tasks/cancel, then the call fails as cancelled. */
static gboolean
on_call_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);

  /* Too late to cancel a task whose result is in: the call ends cancelled
   * all the same (its processing watches the cancellable). */
  if (self->task_done || self->task_has_result)
    return G_SOURCE_REMOVE;
  mcp_call_task_stop (self);
  mcp_client_cancel_task_async (self->task_client, mcp_task_get_id (self->task_state), NULL,
                                on_task_cancelled_cb, g_object_ref (task));
  return G_SOURCE_REMOVE;
}

static void
on_task_created_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpCall *self = g_task_get_source_object (task);
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(McpTask) created = NULL;
  GError *error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);

  created = mcp_client_call_tool_as_task_finish (client, result, &error);
  if (created == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Calling %s as a task failed: "),
                        mcp_pool_tool_get_qualified_name (self->tool));
      mcp_call_return_error (g_steal_pointer (&task), error);
      return;
    }

  g_set_object (&self->task_client, client);
  self->task_done = FALSE;
  g_clear_object (&self->task_cancellable);
  self->task_cancellable = g_cancellable_new ();
  mcp_call_task_report (self, created);

  if (mcp_task_status_is_terminal (mcp_task_get_status (created)) &&
      mcp_task_get_status (created) != MCP_TASK_STATUS_COMPLETED)
    {
      mcp_call_task_stop (self);
      mcp_call_return_error (g_steal_pointer (&task),
                             g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                          _("%s: task %s ended “%s”%s%s"),
                                          mcp_pool_tool_get_qualified_name (self->tool),
                                          mcp_task_get_id (created), mcp_task_get_status_string (created),
                                          mcp_task_get_status_message (created) != NULL ? ": " : "",
                                          mcp_task_get_status_message (created) != NULL
                                          ? mcp_task_get_status_message (created) : ""));
      return;
    }

  self->task_status_id = g_signal_connect (client, "notification",
                                           G_CALLBACK (on_task_status_cb), self);
  if (cancellable != NULL)
    {
      self->task_cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_static_name (self->task_cancel_source, "[mcp-call] task cancelled");
      /* No reference: mcp_call_task_stop() destroys the source first. */
      g_source_set_callback (self->task_cancel_source, G_SOURCE_FUNC (on_call_cancelled_cb),
                             task, NULL);
      g_source_attach (self->task_cancel_source, g_main_context_get_thread_default ());
    }

  /* tasks/result at once: the server holds it until the task ends, and
   * sends what it needs to ask (elicitation, sampling) meanwhile. */
  mcp_client_get_task_result_async (client, mcp_task_get_id (created), self->task_cancellable,
                                    on_task_result_cb, g_object_ref (task));
  task_poll_schedule (task);
  /* The poll holds no reference; the waiting tasks/result does. */
}

void
mcp_call_task_send (GTask     *task,
                    McpClient *client)
{
  McpCall *self = g_task_get_source_object (task);

  mcp_client_call_tool_as_task_async (client,
                                      mcp_tool_get_name (mcp_pool_tool_get_tool (self->tool)),
                                      self->arguments, 0, g_task_get_cancellable (task),
                                      on_task_created_cb, task);
}

/* ------------------------------------------------------------------------ */
/* Following a task's end                                                   */

typedef struct
{
  McpClient *client;
  guint      tries;
} Follow;

static void
follow_free (gpointer data)
{
  Follow *follow = data;

  g_clear_object (&follow->client);
  g_free (follow);
}

static void follow_ask (GTask *task);

static gboolean
follow_ask_cb (gpointer user_data)
{
  follow_ask (user_data);
  return G_SOURCE_REMOVE;
}

static void
on_follow_status_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  Follow *follow = g_task_get_task_data (task);
  g_autoptr(McpTask) state = NULL;
  GError *error = NULL;

  state = mcp_client_get_task_finish (MCP_CLIENT (object), result, &error);
  if (state == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  mcp_call_task_report (self, state);
  if (mcp_task_status_is_terminal (mcp_task_get_status (state)))
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  if (++follow->tries >= FOLLOW_TRIES)
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }

  {
    gint64 interval = mcp_task_get_poll_interval (state);

    g_timeout_add (CLAMP (interval > 0 ? interval : 1000, FOLLOW_MIN_MS, FOLLOW_MAX_MS),
                   follow_ask_cb, task);
  }
}

static void
follow_ask (GTask *task)
{
  McpCall *self = g_task_get_source_object (task);
  Follow *follow = g_task_get_task_data (task);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  mcp_client_get_task_async (follow->client, mcp_task_get_id (self->task_state),
                             g_task_get_cancellable (task), on_follow_status_cb, task);
}

void
mcp_call_follow_task_async (McpCall             *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  McpServerConnection *connection;
  McpClient *client;
  GTask *task;
  Follow *follow;

  g_return_if_fail (MCP_IS_CALL (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_call_follow_task_async);

  if (self->task_state == NULL || mcp_task_status_is_terminal (mcp_task_get_status (self->task_state)))
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  /* The server's session now (the task's may have ended with the call);
   * with none, there is no one to ask. */
  connection = mcp_pool_tool_get_connection (self->tool);
  client = connection != NULL ? mcp_server_connection_get_client (connection) : NULL;
  if (client == NULL)
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }

  follow = g_new0 (Follow, 1);
  follow->client = g_object_ref (client);
  g_task_set_task_data (task, follow, follow_free);
  follow_ask (task);
}

gboolean
mcp_call_follow_task_finish (McpCall       *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (MCP_IS_CALL (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
