/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* For the tests written against the engine's old call API: a tool call
 * made of McpCall (mcp-call.h) and an McpInteraction that hands the test's
 * callbacks a GTask. The engine and the front ends use McpCall. */

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-permissions.h"
#include "mcp-processed-result.h"
#include "mcp-task.h"
#include "mcp-tool-pool.h"

G_BEGIN_DECLS

/**
 * TestToolCallAskFunc:
 * @tool: the tool about to be called
 * @arguments: (nullable): its arguments
 * @rule: (nullable): the ask rule that matched, or NULL when no rule did
 * @answer: (transfer full): answer with g_task_return_boolean() (TRUE: go
 *   on; FALSE: refused) or an error, then drop the reference. Its
 *   cancellable is the call's.
 *
 * The person's answer to "may this tool run?". A terminal front end can
 * read a line asynchronously; a GTK one shows a dialog and answers from
 * its response.
 */
typedef void (*TestToolCallAskFunc) (McpPoolTool *tool,
                                    JsonObject  *arguments,
                                    const char  *rule,
                                    GTask       *answer,
                                    gpointer     user_data);

/**
 * TestToolCallOpenUrlFunc:
 * @tool: the tool being called
 * @url: the URL the server asks the person to open (error -32042)
 * @message: (nullable): the server's explanation
 * @done: (transfer full): return TRUE with g_task_return_boolean() when the
 *   person says they finished there (the call is then tried once more),
 *   FALSE or an error to give up; then drop the reference.
 */
typedef void (*TestToolCallOpenUrlFunc) (McpPoolTool *tool,
                                        const char  *url,
                                        const char  *message,
                                        GTask       *done,
                                        gpointer     user_data);

/**
 * TestToolCallAllowedFunc:
 * @tool: the tool about to be called
 * @decision: the permission decision (for an ask, the person said yes)
 *
 * The call's one permission check let it go on; called once, before the
 * server is reached.
 */
typedef void (*TestToolCallAllowedFunc) (McpPoolTool                 *tool,
                                        const McpPermissionDecision *decision,
                                        gpointer                     user_data);

/* Calls @tool: checks @permissions once (mcp_permissions_decide_tool();
 * NULL: no rules, the default decides); deny fails
 * with MCP_ERROR_PERMISSION_DENIED naming the rule; ask asks @ask_func (no
 * @ask_func, a refusal or an error: MCP_ERROR_PERMISSION_DENIED); makes sure
 * the server is connected; calls; after MCP_ERROR_SESSION_EXPIRED
 * reconnects and tries once more; after a URL elicitation required error
 * (-32042) hands each URL to @open_url_func and tries once more; then
 * post-processes the result (mcp_tool_result_process_async()).
 * @handler_data goes to both functions and must live until the call
 * finishes. A tool error (isError) is a result, not a GError. */
void                test_tool_call_async                       (McpPoolTool            *tool,
                                                               JsonObject             *arguments,
                                                               McpPermissions         *permissions,
                                                               TestToolCallAskFunc      ask_func,
                                                               TestToolCallOpenUrlFunc  open_url_func,
                                                               gpointer                handler_data,
                                                               GCancellable           *cancellable,
                                                               GAsyncReadyCallback     callback,
                                                               gpointer                user_data);
McpProcessedResult *test_tool_call_finish                      (GAsyncResult           *result,
                                                               GError                **error);

/**
 * TestToolCallTaskFunc:
 * @tool: the tool being called
 * @task: the task's latest state
 *
 * A call that runs as a task reports its task: once created, then at each
 * change of status or status message (from tasks/get polling, at the
 * task's pollInterval, or notifications/tasks/status).
 */
typedef void (*TestToolCallTaskFunc) (McpPoolTool *tool,
                                     McpTask     *task,
                                     gpointer     user_data);

/**
 * TestToolCallHandlers:
 *
 * What a front end handles during a call; any member may be NULL.
 * @progress_func gets each notifications/progress of the call (the call's
 * timeout restarts on each, up to the client's maximum total).
 * @task_func: see TestToolCallTaskFunc.
 * @as_task: run a tool whose execution.taskSupport is "optional" as a task
 * (a "required" one always is; a "forbidden" one never).
 * @allowed_func: see TestToolCallAllowedFunc.
 *
 * As a task, the call is tools/call with params.task, then tasks/get until
 * the task ends, then tasks/result; cancelling the call sends tasks/cancel
 * and fails it with G_IO_ERROR_CANCELLED. The result is post-processed like
 * any other.
 */
typedef struct
{
  TestToolCallAskFunc      ask_func;
  TestToolCallOpenUrlFunc  open_url_func;
  McpProgressFunc         progress_func;
  gpointer                data;
  TestToolCallTaskFunc     task_func;
  gboolean                as_task;
  TestToolCallAllowedFunc  allowed_func;
} TestToolCallHandlers;

/* test_tool_call_async() with progress; @handlers is copied, its data must
 * live until the call finishes. Finish with test_tool_call_finish(). */
void                test_tool_call_run_async                   (McpPoolTool               *tool,
                                                               JsonObject                *arguments,
                                                               McpPermissions            *permissions,
                                                               const TestToolCallHandlers *handlers,
                                                               GCancellable              *cancellable,
                                                               GAsyncReadyCallback        callback,
                                                               gpointer                   user_data);

G_END_DECLS
