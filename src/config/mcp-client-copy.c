/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by scan, compare and copy (issue 26). */
#include "mcp-client-copy.h"

void mcp_client_server_free (McpClientServer *self) { if (!self) return; g_free (self->file); g_free (self->name); g_clear_pointer (&self->native, json_object_unref); g_clear_pointer (&self->entry, json_object_unref); g_strfreev (self->notes); g_free (self); }
void mcp_client_summary_free (McpClientSummary *self) { if (!self) return; g_clear_pointer (&self->files, g_ptr_array_unref); g_clear_pointer (&self->file_errors, g_ptr_array_unref); g_clear_pointer (&self->servers, g_ptr_array_unref); g_free (self); }
void mcp_copy_target_free (McpCopyTarget *self) { if (!self) return; g_free (self->path); g_clear_pointer (&self->before, g_bytes_unref); g_clear_pointer (&self->after, g_bytes_unref); g_free (self->diff); g_clear_pointer (&self->notes, g_ptr_array_unref); g_clear_error (&self->error); g_free (self); }

static void
not_yet (gpointer source, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_task_report_new_error (source, callback, user_data, not_yet, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet");
}
void mcp_clients_scan_async (const char *home, const char *config_home, const char *plugboard_dir, const char *project_dir, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { not_yet (NULL, cancellable, callback, user_data); }
GPtrArray *mcp_clients_scan_finish (GAsyncResult *result, GError **error) { return g_task_propagate_pointer (G_TASK (result), error); }
GPtrArray *mcp_clients_find_server (GPtrArray *summaries, const char *name, gboolean *differ) { if (differ) *differ = FALSE; return g_ptr_array_new (); }
void mcp_client_copy_plan_async (McpClientKind from, McpConfigScope from_scope, const char * const *names, const McpClientKind *targets, guint n_targets, McpConfigScope to_scope, McpCopyFlags flags, const char *home, const char *config_home, const char *plugboard_dir, const char *project_dir, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { not_yet (NULL, cancellable, callback, user_data); }
GPtrArray *mcp_client_copy_plan_finish (GAsyncResult *result, GError **error) { return g_task_propagate_pointer (G_TASK (result), error); }
void mcp_client_copy_apply_async (GPtrArray *plan, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { not_yet (NULL, cancellable, callback, user_data); }
gboolean mcp_client_copy_apply_finish (GAsyncResult *result, GError **error) { return g_task_propagate_boolean (G_TASK (result), error); }
char *mcp_text_diff (const char *label, const char *before, const char *after) { return NULL; }
