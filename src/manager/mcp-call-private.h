/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-call.h"
#include "mcp-client.h"

G_BEGIN_DECLS

/* Between mcp-call.c (the object, permission, history, tools/call and its
 * retries) and mcp-call-task.c (the call as a task, and following a task's
 * end). */

#define MCP_JSONRPC_URL_ELICITATION_REQUIRED (-32042)

struct _McpCall
{
  GObject                 parent_instance;

  McpPoolTool            *tool;
  JsonObject             *arguments;
  McpCallFlags            flags;
  McpPermissions         *permissions;       /* keeps decision.rule alive */
  McpInteraction         *interaction;
  McpToolHistory         *history;
  McpHistoryEntry        *entry;
  McpPermissionDecision   decision;
  gboolean                started;
  gboolean                refused;
  gboolean                allowed;
  gboolean                retried_session;
  gboolean                retried_url;

  JsonNode               *elicitation_data;  /* error.data of a -32042 answer */
  GPtrArray              *urls;              /* (url, host, message) triples */
  guint                   next_url;

  /* As a task */
  McpClient              *task_client;       /* the session the task lives in */
  McpTask                *task_state;        /* the latest reported */
  GCancellable           *task_cancellable;  /* tasks/result and tasks/get; cancelled at the end */
  GSource                *task_cancel_source; /* the call's cancellable */
  guint                   task_poll_id;
  gulong                  task_status_id;
  gboolean                task_done;
  gboolean                task_has_result;   /* tasks/result answered; no cancel now */
};

/* The run's GTask (source object: the McpCall; each function takes the
 * reference). Every failure of the run goes through
 * mcp_call_return_error(): the history hears of it, secrets are masked. */
void     mcp_call_return_error        (GTask         *task,
                                       GError        *error);
void     mcp_call_send                (GTask         *task);
void     mcp_call_finish_with_result  (GTask         *task,
                                       McpToolResult *tool_result);
gboolean mcp_call_runs_as_task        (McpCall       *self);
void     mcp_call_task_send           (GTask         *task,
                                       McpClient     *client);
void     mcp_call_task_stop           (McpCall       *self);
/* Sets "task" when the status or its message changed. */
void     mcp_call_task_report         (McpCall       *self,
                                       McpTask       *state);

G_END_DECLS
