/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-task.h"

#include "mcp-error.h"

/* STUB: the contract only; the implementation is being written. */

const char *mcp_task_status_to_string (McpTaskStatus status) { return NULL; }
McpTaskStatus mcp_task_status_from_string (const char *status) { return MCP_TASK_STATUS_UNKNOWN; }
gboolean mcp_task_status_is_terminal (McpTaskStatus status) { return FALSE; }

struct _McpTask
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (McpTask, mcp_task, G_TYPE_OBJECT)

static void mcp_task_class_init (McpTaskClass *klass) { }
static void mcp_task_init (McpTask *self) { }

McpTask *
mcp_task_new_from_json (JsonObject *object, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
  return NULL;
}

const char *mcp_task_get_id (McpTask *self) { return NULL; }
McpTaskStatus mcp_task_get_status (McpTask *self) { return MCP_TASK_STATUS_UNKNOWN; }
const char *mcp_task_get_status_string (McpTask *self) { return NULL; }
const char *mcp_task_get_status_message (McpTask *self) { return NULL; }
const char *mcp_task_get_created_at (McpTask *self) { return NULL; }
const char *mcp_task_get_last_updated_at (McpTask *self) { return NULL; }
gint64 mcp_task_get_ttl (McpTask *self) { return -1; }
gint64 mcp_task_get_poll_interval (McpTask *self) { return -1; }
JsonObject *mcp_task_get_json (McpTask *self) { return NULL; }
