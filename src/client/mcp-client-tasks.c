/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-client.h"

#include "mcp-error.h"

/* STUB: the contract only; the implementation is being written. */

void
mcp_client_call_tool_as_task_async (McpClient *self, const char *name, JsonObject *arguments, gint64 ttl_ms, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_call_tool_as_task_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

McpTask *
mcp_client_call_tool_as_task_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_get_task_async (McpClient *self, const char *task_id, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_get_task_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

McpTask *
mcp_client_get_task_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_get_task_result_async (McpClient *self, const char *task_id, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_get_task_result_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

McpToolResult *
mcp_client_get_task_result_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_cancel_task_async (McpClient *self, const char *task_id, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_cancel_task_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

McpTask *
mcp_client_cancel_task_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_list_tasks_async (McpClient *self, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_list_tasks_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

GPtrArray *
mcp_client_list_tasks_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
