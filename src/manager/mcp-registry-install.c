/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the registry installer (issue 26). */
#include "mcp-registry-install.h"

void
mcp_registry_install_async (McpProject *project, McpRegistryServer *server, const McpRegistryChoice *choice, GHashTable *values, const char *name, McpClientKind target, McpConfigScope scope, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (project, callback, user_data, mcp_registry_install_async, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet");
}
char *
mcp_registry_install_finish (GAsyncResult *result, GPtrArray **notes, GError **error)
{
  if (notes) *notes = NULL;
  return g_task_propagate_pointer (G_TASK (result), error);
}
