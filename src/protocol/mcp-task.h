/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_TASK_STATUS_WORKING,
  MCP_TASK_STATUS_INPUT_REQUIRED,
  MCP_TASK_STATUS_COMPLETED,
  MCP_TASK_STATUS_FAILED,
  MCP_TASK_STATUS_CANCELLED,
  MCP_TASK_STATUS_UNKNOWN,        /* a status this client does not know */
} McpTaskStatus;

/* "working", "input_required", … (NULL for MCP_TASK_STATUS_UNKNOWN) */
const char    *mcp_task_status_to_string   (McpTaskStatus status);
McpTaskStatus  mcp_task_status_from_string (const char   *status);
/* completed, failed or cancelled */
gboolean       mcp_task_status_is_terminal (McpTaskStatus status);

#define MCP_TYPE_TASK (mcp_task_get_type ())

G_DECLARE_FINAL_TYPE (McpTask, mcp_task, MCP, TASK, GObject)

/**
 * McpTask:
 *
 * A task's state as the server reported it (tasks/get, tasks/list,
 * notifications/tasks/status, CreateTaskResult.task): taskId, status,
 * statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval. Immutable: a
 * new state is a new McpTask.
 */
/* Fails with MCP_ERROR_INVALID_MESSAGE saying which member is wrong
 * (taskId and status are required). */
McpTask       *mcp_task_new_from_json        (JsonObject  *object,
                                              GError     **error);
const char    *mcp_task_get_id               (McpTask     *self);
McpTaskStatus  mcp_task_get_status           (McpTask     *self);
/* the status as the server spelt it */
const char    *mcp_task_get_status_string    (McpTask     *self);
/* nullable */
const char    *mcp_task_get_status_message   (McpTask     *self);
/* ISO 8601 as sent, nullable */
const char    *mcp_task_get_created_at       (McpTask     *self);
const char    *mcp_task_get_last_updated_at  (McpTask     *self);
/* milliseconds; -1 when absent (ttl may be null: unlimited) */
gint64         mcp_task_get_ttl              (McpTask     *self);
gint64         mcp_task_get_poll_interval    (McpTask     *self);
JsonObject    *mcp_task_get_json             (McpTask     *self);

G_END_DECLS
