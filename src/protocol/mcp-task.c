/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-task.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

static const char * const status_names[] = {
  [MCP_TASK_STATUS_WORKING] = "working",
  [MCP_TASK_STATUS_INPUT_REQUIRED] = "input_required",
  [MCP_TASK_STATUS_COMPLETED] = "completed",
  [MCP_TASK_STATUS_FAILED] = "failed",
  [MCP_TASK_STATUS_CANCELLED] = "cancelled",
};

const char *
mcp_task_status_to_string (McpTaskStatus status)
{
  if ((guint) status < G_N_ELEMENTS (status_names))
    return status_names[status];
  return NULL;
}

McpTaskStatus
mcp_task_status_from_string (const char *status)
{
  if (status == NULL)
    return MCP_TASK_STATUS_UNKNOWN;
  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    if (g_str_equal (status, status_names[i]))
      return (McpTaskStatus) i;
  return MCP_TASK_STATUS_UNKNOWN;
}

gboolean
mcp_task_status_is_terminal (McpTaskStatus status)
{
  return status == MCP_TASK_STATUS_COMPLETED ||
         status == MCP_TASK_STATUS_FAILED ||
         status == MCP_TASK_STATUS_CANCELLED;
}

struct _McpTask
{
  GObject        parent_instance;

  JsonObject    *object;          /* owned */
  /* borrowed from object */
  const char    *id;
  const char    *status_string;
  const char    *status_message;
  const char    *created_at;
  const char    *last_updated_at;
  McpTaskStatus  status;
  gint64         ttl;
  gint64         poll_interval;
};

G_DEFINE_FINAL_TYPE (McpTask, mcp_task, G_TYPE_OBJECT)

static void
mcp_task_finalize (GObject *object)
{
  McpTask *self = MCP_TASK (object);

  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_task_parent_class)->finalize (object);
}

static void
mcp_task_class_init (McpTaskClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_task_finalize;
}

static void
mcp_task_init (McpTask *self)
{
  self->ttl = -1;
  self->poll_interval = -1;
}

static gboolean
require_string (JsonObject  *object,
                const char  *member,
                const char **out,
                GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("task: %s must be a string"), member);
      return FALSE;
    }
  *out = json_node_get_string (node);
  return TRUE;
}

/* A non-negative whole number of milliseconds; null or absent is -1. */
static gboolean
optional_ms (JsonObject  *object,
             const char  *member,
             gint64      *out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);
  double value;

  *out = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_INT64 &&
       json_node_get_value_type (node) != G_TYPE_DOUBLE))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("task: %s must be a number of milliseconds"), member);
      return FALSE;
    }
  value = json_node_get_double (node);
  if (!(value >= 0) || value > (double) G_MAXINT64 / 2)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("task: %s must not be negative"), member);
      return FALSE;
    }
  *out = (gint64) value;
  return TRUE;
}

McpTask *
mcp_task_new_from_json (JsonObject  *object,
                        GError     **error)
{
  g_autoptr(McpTask) self = NULL;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (MCP_TYPE_TASK, NULL);
  self->object = json_object_ref (object);

  if (!require_string (object, "taskId", &self->id, error) ||
      !require_string (object, "status", &self->status_string, error))
    return NULL;
  if (*self->id == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("task: taskId is empty"));
      return NULL;
    }
  if (!optional_ms (object, "ttl", &self->ttl, error) ||
      !optional_ms (object, "pollInterval", &self->poll_interval, error))
    return NULL;

  self->status = mcp_task_status_from_string (self->status_string);
  self->status_message = mcp_json_optional_string (object, "statusMessage", "task", self->id);
  self->created_at = mcp_json_optional_string (object, "createdAt", "task", self->id);
  self->last_updated_at = mcp_json_optional_string (object, "lastUpdatedAt", "task", self->id);

  return g_steal_pointer (&self);
}

const char *
mcp_task_get_id (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->id;
}

McpTaskStatus
mcp_task_get_status (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), MCP_TASK_STATUS_UNKNOWN);
  return self->status;
}

const char *
mcp_task_get_status_string (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->status_string;
}

const char *
mcp_task_get_status_message (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->status_message;
}

const char *
mcp_task_get_created_at (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->created_at;
}

const char *
mcp_task_get_last_updated_at (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->last_updated_at;
}

gint64
mcp_task_get_ttl (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), -1);
  return self->ttl;
}

gint64
mcp_task_get_poll_interval (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), -1);
  return self->poll_interval;
}

JsonObject *
mcp_task_get_json (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->object;
}
