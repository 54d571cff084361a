/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-permissions.h"
#include "mcp-tool-pool.h"
#include "mcp-tool-result.h"

G_BEGIN_DECLS

#define MCP_DEFAULT_MAX_OUTPUT_TOKENS 25000
/* The estimate the limit uses: characters a token. */
#define MCP_CHARACTERS_PER_TOKEN      4
/* Images are scaled down to at most this many pixels on the longer side. */
#define MCP_MAX_IMAGE_SIDE            2000

#define MCP_TYPE_PROCESSED_RESULT (mcp_processed_result_get_type ())

G_DECLARE_FINAL_TYPE (McpProcessedResult, mcp_processed_result, MCP, PROCESSED_RESULT, GObject)

/**
 * McpProcessedResult:
 *
 * A tool's result made fit to show or to hand on: text past the output
 * limit cut (with a note at the cut saying how much), images scaled down
 * and saved as PNG, binary content (audio, blobs, images that did not
 * decode) saved to files.
 */
/* The result with cut text and scaled images in place. */
McpToolResult      *mcp_processed_result_get_result           (McpProcessedResult *self);
/* The result as the server sent it. */
McpToolResult      *mcp_processed_result_get_original         (McpProcessedResult *self);
/* Every saved file's path, in content order. */
const char * const *mcp_processed_result_get_files            (McpProcessedResult *self);
/* The file saved for content block @index, or NULL. */
const char         *mcp_processed_result_get_file_for_content (McpProcessedResult *self,
                                                               guint               index);
/* Content block @index's text parsed, when it is a JSON object or array
 * of at most MCP_TOOL_CALL_MAX_JSON_BYTES; else NULL. Parsed off the main
 * thread. */
JsonNode           *mcp_processed_result_get_json_for_content (McpProcessedResult *self,
                                                               guint               index);
/* What post-processing did, one sentence each, for the person. */
const char * const *mcp_processed_result_get_notes            (McpProcessedResult *self);
/* How many characters of text were cut (0: none). */
gsize               mcp_processed_result_get_cut_characters   (McpProcessedResult *self);

/* Text that is a JSON document is parsed up to this size. */
#define MCP_TOOL_CALL_MAX_JSON_BYTES (16 * 1024 * 1024)

/* @text parsed, when it is a JSON object or array (leading white space
 * allowed) of at most @max_bytes; else NULL. */
JsonNode           *mcp_tool_call_parse_json_text             (const char         *text,
                                                               gsize               max_bytes);

/* MAX_MCP_OUTPUT_TOKENS (default MCP_DEFAULT_MAX_OUTPUT_TOKENS) times
 * MCP_CHARACTERS_PER_TOKEN. */
gsize               mcp_tool_call_get_max_output_characters   (void);
/* $XDG_CACHE_HOME/plugboard/results */
char               *mcp_tool_call_dup_results_dir             (void);

/* Post-processes @result off the main thread. @name names the saved files
 * (e.g. the qualified tool name); @directory is where they go (NULL:
 * mcp_tool_call_dup_results_dir(), created when needed); @max_characters
 * 0 means mcp_tool_call_get_max_output_characters(). */
void                mcp_tool_result_process_async             (McpToolResult       *result,
                                                               const char          *name,
                                                               const char          *directory,
                                                               gsize                max_characters,
                                                               GCancellable        *cancellable,
                                                               GAsyncReadyCallback  callback,
                                                               gpointer             user_data);
McpProcessedResult *mcp_tool_result_process_finish            (GAsyncResult        *result,
                                                               GError             **error);

/**
 * McpToolCallAskFunc:
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
typedef void (*McpToolCallAskFunc) (McpPoolTool *tool,
                                    JsonObject  *arguments,
                                    const char  *rule,
                                    GTask       *answer,
                                    gpointer     user_data);

/**
 * McpToolCallOpenUrlFunc:
 * @tool: the tool being called
 * @url: the URL the server asks the person to open (error -32042)
 * @message: (nullable): the server's explanation
 * @done: (transfer full): return TRUE with g_task_return_boolean() when the
 *   person says they finished there (the call is then tried once more),
 *   FALSE or an error to give up; then drop the reference.
 */
typedef void (*McpToolCallOpenUrlFunc) (McpPoolTool *tool,
                                        const char  *url,
                                        const char  *message,
                                        GTask       *done,
                                        gpointer     user_data);

/**
 * McpToolCallAllowedFunc:
 * @tool: the tool about to be called
 * @decision: the permission decision (for an ask, the person said yes)
 *
 * The call's one permission check let it go on; called once, before the
 * server is reached.
 */
typedef void (*McpToolCallAllowedFunc) (McpPoolTool                 *tool,
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
void                mcp_tool_call_async                       (McpPoolTool            *tool,
                                                               JsonObject             *arguments,
                                                               McpPermissions         *permissions,
                                                               McpToolCallAskFunc      ask_func,
                                                               McpToolCallOpenUrlFunc  open_url_func,
                                                               gpointer                handler_data,
                                                               GCancellable           *cancellable,
                                                               GAsyncReadyCallback     callback,
                                                               gpointer                user_data);
McpProcessedResult *mcp_tool_call_finish                      (GAsyncResult           *result,
                                                               GError                **error);

/**
 * McpToolCallTaskFunc:
 * @tool: the tool being called
 * @task: the task's latest state
 *
 * A call that runs as a task reports its task: once created, then at each
 * change of status or status message (from tasks/get polling, at the
 * task's pollInterval, or notifications/tasks/status).
 */
typedef void (*McpToolCallTaskFunc) (McpPoolTool *tool,
                                     McpTask     *task,
                                     gpointer     user_data);

/**
 * McpToolCallHandlers:
 *
 * What a front end handles during a call; any member may be NULL.
 * @progress_func gets each notifications/progress of the call (the call's
 * timeout restarts on each, up to the client's maximum total).
 * @task_func: see McpToolCallTaskFunc.
 * @as_task: run a tool whose execution.taskSupport is "optional" as a task
 * (a "required" one always is; a "forbidden" one never).
 * @allowed_func: see McpToolCallAllowedFunc.
 *
 * As a task, the call is tools/call with params.task, then tasks/get until
 * the task ends, then tasks/result; cancelling the call sends tasks/cancel
 * and fails it with G_IO_ERROR_CANCELLED. The result is post-processed like
 * any other.
 */
typedef struct
{
  McpToolCallAskFunc      ask_func;
  McpToolCallOpenUrlFunc  open_url_func;
  McpProgressFunc         progress_func;
  gpointer                data;
  McpToolCallTaskFunc     task_func;
  gboolean                as_task;
  McpToolCallAllowedFunc  allowed_func;
} McpToolCallHandlers;

/* mcp_tool_call_async() with progress; @handlers is copied, its data must
 * live until the call finishes. Finish with mcp_tool_call_finish(). */
void                mcp_tool_call_run_async                   (McpPoolTool               *tool,
                                                               JsonObject                *arguments,
                                                               McpPermissions            *permissions,
                                                               const McpToolCallHandlers *handlers,
                                                               GCancellable              *cancellable,
                                                               GAsyncReadyCallback        callback,
                                                               gpointer                   user_data);

G_END_DECLS
