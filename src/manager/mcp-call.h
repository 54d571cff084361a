/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-interaction.h"
#include "mcp-permissions.h"
#include "mcp-task.h"
#include "mcp-processed-result.h"
#include "mcp-tool-history.h"
#include "mcp-tool-pool.h"
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_CALL_FLAGS_NONE    = 0,
  /* Run a tool whose execution.taskSupport is "optional" as a task (a
   * "required" one always is, a "forbidden" one never). */
  MCP_CALL_FLAGS_AS_TASK = 1 << 0,
} McpCallFlags;

#define MCP_TYPE_CALL (mcp_call_get_type ())

G_DECLARE_FINAL_TYPE (McpCall, mcp_call, MCP, CALL, GObject)

/**
 * McpCall:
 *
 * One call of a tool, made by mcp_project_new_call() and run once with
 * mcp_call_run_async(): the permission decided once by the project's
 * evaluator (deny > ask > allow; an ask goes to the project's
 * McpInteraction, and with none it is refused), the call recorded in the
 * project's history from the moment it is allowed, the server connected,
 * tools/call (as a task: tasks/get polling, tasks/result, tasks/cancel on
 * cancel), one retry after a session renewal or a URL the person opened,
 * and the result post-processed (cut, scaled, saved).
 *
 * Properties (read-only, notified on the main thread): tool, arguments,
 * task (McpTask: the task's latest state, for a call run as a task),
 * history-entry (McpHistoryEntry, once allowed), allowed, refused (the
 * person said no: nothing ran). Signal "progress" (double progress, double total,
 * const char *message) for each notifications/progress.
 */
/* Front ends make calls with mcp_project_new_call(), which gives the call
 * the project's evaluator, interaction and history. Any of the three may
 * be NULL here: no rules (the default decides), no one to ask (an ask is
 * refused), no history. */
McpCall            *mcp_call_new               (McpPoolTool          *tool,
                                                JsonObject           *arguments,
                                                McpCallFlags          flags,
                                                McpPermissions       *permissions,
                                                McpInteraction       *interaction,
                                                McpToolHistory       *history);
McpPoolTool        *mcp_call_get_tool          (McpCall              *self);
JsonObject         *mcp_call_get_arguments     (McpCall              *self);
McpCallFlags        mcp_call_get_flags         (McpCall              *self);
/* Whether the call runs as a task (its flags and the tool's taskSupport). */
gboolean            mcp_call_get_as_task       (McpCall              *self);
McpTask            *mcp_call_get_task          (McpCall              *self);
McpHistoryEntry    *mcp_call_get_history_entry (McpCall              *self);
/* The permission let the call go (by a rule, the default or the person's
 * yes): from here on the server is reached. Property "allowed". */
gboolean            mcp_call_get_allowed       (McpCall              *self);
gboolean            mcp_call_get_refused       (McpCall              *self);

/* Runs the call (once). A tool error (isError) is a result, not a GError;
 * a refusal or a deny rule is MCP_ERROR_PERMISSION_DENIED naming the rule;
 * cancelling is G_IO_ERROR_CANCELLED (a task is cancelled on the server). */
void                mcp_call_run_async         (McpCall              *self,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
McpProcessedResult *mcp_call_run_finish        (McpCall              *self,
                                                GAsyncResult         *result,
                                                GError              **error);

/* After a call run as a task failed or was cancelled: asks the server
 * (tasks/get, at the task's poll interval, a bounded number of times) until
 * the task's status is terminal, updating "task". Finishes TRUE when it
 * is; FALSE when there is no session to ask or the server did not say
 * within those tries; an error when tasks/get failed. */
void                mcp_call_follow_task_async  (McpCall             *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean            mcp_call_follow_task_finish (McpCall             *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
