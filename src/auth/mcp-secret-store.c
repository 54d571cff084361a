/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the secret store (issue 26). */
#include "mcp-secret-store.h"

struct _McpSecretStore { GObject parent_instance; };
G_DEFINE_FINAL_TYPE (McpSecretStore, mcp_secret_store, G_TYPE_OBJECT)
static void mcp_secret_store_class_init (McpSecretStoreClass *klass) {}
static void mcp_secret_store_init (McpSecretStore *self) {}
McpSecretStore *mcp_secret_store_new (const char *backend, const char *fallback_path) { return g_object_new (MCP_TYPE_SECRET_STORE, NULL); }
McpSecretStore *mcp_secret_store_get_default (void) { static McpSecretStore *store; if (!store) store = mcp_secret_store_new ("auto", NULL); return store; }
gboolean mcp_secret_store_id_is_valid (const char *id) { return id && *id; }
char *mcp_secret_store_make_id (const char *server, const char *name) { return g_strdup_printf ("%s.%s", server, name); }
void mcp_secret_store_store_async (McpSecretStore *self, const char *id, const char *value, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { g_task_report_new_error (self, callback, user_data, mcp_secret_store_store_async, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet"); }
gboolean mcp_secret_store_store_finish (McpSecretStore *self, GAsyncResult *result, GError **error) { return g_task_propagate_boolean (G_TASK (result), error); }
void mcp_secret_store_lookup_async (McpSecretStore *self, const char *id, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { g_task_report_new_error (self, callback, user_data, mcp_secret_store_lookup_async, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet"); }
char *mcp_secret_store_lookup_finish (McpSecretStore *self, GAsyncResult *result, GError **error) { return g_task_propagate_pointer (G_TASK (result), error); }
void mcp_secret_store_clear_async (McpSecretStore *self, const char *id, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { g_task_report_new_error (self, callback, user_data, mcp_secret_store_clear_async, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet"); }
gboolean mcp_secret_store_clear_finish (McpSecretStore *self, GAsyncResult *result, GError **error) { return g_task_propagate_boolean (G_TASK (result), error); }
