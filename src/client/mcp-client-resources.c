/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-client.h"

#include "mcp-error.h"

/* STUB: the contract only; the implementation is being written. */

void
mcp_client_read_resource_async (McpClient *self, const char *uri, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_read_resource_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

GPtrArray *
mcp_client_read_resource_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_subscribe_resource_async (McpClient *self, const char *uri, gboolean subscribe, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_subscribe_resource_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

gboolean
mcp_client_subscribe_resource_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_client_get_prompt_async (McpClient *self, const char *name, JsonObject *arguments, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_get_prompt_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

McpPromptResult *
mcp_client_get_prompt_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_complete_async (McpClient *self, McpCompletionRef ref_kind, const char *ref, const char *argument, const char *value, JsonObject *context, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_complete_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

GStrv
mcp_client_complete_finish (McpClient *self, GAsyncResult *result, gboolean *has_more, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

const char * const *
mcp_client_get_log_levels (void)
{
  static const char * const levels[] = { "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", NULL };
  return levels;
}

void
mcp_client_set_log_level_async (McpClient *self, const char *level, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_client_set_log_level_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
}

gboolean
mcp_client_set_log_level_finish (McpClient *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
