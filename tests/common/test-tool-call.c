/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-tool-call"

/* Transitional (see mcp-tool-call.h): test_tool_call_run_async() as an
 * McpCall whose McpInteraction hands the caller's functions a GTask. */

#include "config.h"

#include "test-tool-call.h"


#include "mcp-call.h"
#include "mcp-error.h"

/* ------------------------------------------------------------------------ */
/* An interaction made of the handlers' functions                           */

#define HANDLERS_TYPE_INTERACTION (handlers_interaction_get_type ())
G_DECLARE_FINAL_TYPE (HandlersInteraction, handlers_interaction, HANDLERS, INTERACTION, McpInteraction)

struct _HandlersInteraction
{
  McpInteraction      parent_instance;
  McpPoolTool        *tool;
  TestToolCallHandlers handlers;
};

G_DEFINE_FINAL_TYPE (HandlersInteraction, handlers_interaction, MCP_TYPE_INTERACTION)

static void
handlers_interaction_ask_tool_async (McpInteraction      *interaction,
                                     McpPoolTool         *tool,
                                     JsonObject          *arguments,
                                     const char          *rule,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  HandlersInteraction *self = HANDLERS_INTERACTION (interaction);
  GTask *answer = g_task_new (self, cancellable, callback, user_data);

  self->handlers.ask_func (tool, arguments, rule, answer, self->handlers.data);
}

static void
handlers_interaction_open_url_async (McpInteraction      *interaction,
                                     const char          *server_name,
                                     const char          *url,
                                     const char          *host,
                                     const char          *message,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  HandlersInteraction *self = HANDLERS_INTERACTION (interaction);
  GTask *done = g_task_new (self, cancellable, callback, user_data);

  self->handlers.open_url_func (self->tool, url, message, done, self->handlers.data);
}

static gboolean
handlers_interaction_finish (McpInteraction  *interaction,
                             GAsyncResult    *result,
                             GError         **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
handlers_interaction_finalize (GObject *object)
{
  g_clear_object (&HANDLERS_INTERACTION (object)->tool);

  G_OBJECT_CLASS (handlers_interaction_parent_class)->finalize (object);
}

static void
handlers_interaction_class_init (HandlersInteractionClass *klass)
{
  McpInteractionClass *interaction_class = MCP_INTERACTION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = handlers_interaction_finalize;
  interaction_class->ask_tool_async = handlers_interaction_ask_tool_async;
  interaction_class->ask_tool_finish = handlers_interaction_finish;
  interaction_class->open_url_async = handlers_interaction_open_url_async;
  interaction_class->open_url_finish = handlers_interaction_finish;
}

static void
handlers_interaction_init (HandlersInteraction *self)
{
}

static McpInteraction *
handlers_interaction_new (McpPoolTool               *tool,
                          const TestToolCallHandlers *handlers)
{
  HandlersInteraction *self = g_object_new (HANDLERS_TYPE_INTERACTION, NULL);

  self->tool = g_object_ref (tool);
  self->handlers = *handlers;

  return MCP_INTERACTION (self);
}

/* ------------------------------------------------------------------------ */
/* The call                                                                 */

typedef struct
{
  TestToolCallHandlers  handlers;
  GAsyncReadyCallback  callback;
  gpointer             user_data;
} Call;

static void
on_progress_cb (McpCall    *call,
                double      progress,
                double      total,
                const char *message,
                Call       *data)
{
  data->handlers.progress_func (progress, total, message, data->handlers.data);
}

static void
on_task_cb (McpCall    *call,
            GParamSpec *pspec,
            Call       *data)
{
  if (mcp_call_get_task (call) != NULL)
    data->handlers.task_func (mcp_call_get_tool (call), mcp_call_get_task (call), data->handlers.data);
}

static void
on_done_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Call *data = user_data;

  g_signal_handlers_disconnect_by_data (object, data);
  data->callback (NULL, result, data->user_data);
  g_free (data);
}

void
test_tool_call_run_async (McpPoolTool               *tool,
                         JsonObject                *arguments,
                         McpPermissions            *permissions,
                         const TestToolCallHandlers *handlers,
                         GCancellable              *cancellable,
                         GAsyncReadyCallback        callback,
                         gpointer                   user_data)
{
  TestToolCallHandlers none = { 0, };
  g_autoptr(McpInteraction) interaction = NULL;
  g_autoptr(McpCall) call = NULL;
  Call *data;

  g_return_if_fail (MCP_IS_POOL_TOOL (tool));

  if (handlers == NULL)
    handlers = &none;

  /* An ask with no ask function: refused as before, with its words. */
  if (handlers->ask_func == NULL)
    {
      g_autoptr(McpPermissions) fallback = permissions ? NULL : mcp_permissions_new (NULL, NULL, NULL);
      McpPermissionDecision decision;

      mcp_permissions_decide_tool (permissions ? permissions : fallback, tool, &decision);
      if (decision.permission == MCP_PERMISSION_ASK)
        {
          g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

          g_task_set_source_tag (task, test_tool_call_run_async);
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                   "%s needs the person's approval (%s) and there is no one to ask",
                                   mcp_pool_tool_get_qualified_name (tool),
                                   decision.rule != NULL ? decision.rule : "no permission rule allows it");
          return;
        }
    }
  /* No ask function: no one to ask, as before. The URL function is only
   * used when there is one; without it a -32042 answer fails the call. */
  if (handlers->ask_func != NULL || handlers->open_url_func != NULL)
    interaction = handlers_interaction_new (tool, handlers);

  call = mcp_call_new (tool, arguments,
                       handlers->as_task ? MCP_CALL_FLAGS_AS_TASK : MCP_CALL_FLAGS_NONE,
                       permissions, interaction, NULL);

  data = g_new0 (Call, 1);
  data->handlers = *handlers;
  data->callback = callback;
  data->user_data = user_data;
  if (handlers->progress_func != NULL)
    g_signal_connect (call, "progress", G_CALLBACK (on_progress_cb), data);
  if (handlers->task_func != NULL)
    g_signal_connect (call, "notify::task", G_CALLBACK (on_task_cb), data);

  mcp_call_run_async (call, cancellable, on_done_cb, data);
}

void
test_tool_call_async (McpPoolTool            *tool,
                     JsonObject             *arguments,
                     McpPermissions         *permissions,
                     TestToolCallAskFunc      ask_func,
                     TestToolCallOpenUrlFunc  open_url_func,
                     gpointer                handler_data,
                     GCancellable           *cancellable,
                     GAsyncReadyCallback     callback,
                     gpointer                user_data)
{
  TestToolCallHandlers handlers = {
    .ask_func = ask_func,
    .open_url_func = open_url_func,
    .data = handler_data,
  };

  test_tool_call_run_async (tool, arguments, permissions, &handlers, cancellable, callback, user_data);
}

McpProcessedResult *
test_tool_call_finish (GAsyncResult  *result,
                      GError       **error)
{
  if (g_task_get_source_tag (G_TASK (result)) == test_tool_call_run_async)
    return g_task_propagate_pointer (G_TASK (result), error);
  return mcp_call_run_finish (MCP_CALL (g_task_get_source_object (G_TASK (result))), result, error);
}
