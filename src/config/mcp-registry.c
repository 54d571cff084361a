/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the registry client (issue 26). */
#include "mcp-registry.h"
#include "mcp-error.h"

struct _McpRegistryServer { GObject parent_instance; char *name; GPtrArray *choices; JsonObject *json; };
G_DEFINE_FINAL_TYPE (McpRegistryServer, mcp_registry_server, G_TYPE_OBJECT)
static void mcp_registry_server_finalize (GObject *object) { McpRegistryServer *self = (McpRegistryServer *) object; g_free (self->name); g_clear_pointer (&self->choices, g_ptr_array_unref); g_clear_pointer (&self->json, json_object_unref); G_OBJECT_CLASS (mcp_registry_server_parent_class)->finalize (object); }
static void mcp_registry_server_class_init (McpRegistryServerClass *klass) { G_OBJECT_CLASS (klass)->finalize = mcp_registry_server_finalize; }
static void mcp_registry_server_init (McpRegistryServer *self) { self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_registry_choice_free); }

void mcp_registry_input_free (McpRegistryInput *self) { if (!self) return; g_free (self->name); g_free (self->description); g_free (self->default_value); g_free (self->format); g_strfreev (self->choices); g_free (self); }
void mcp_registry_choice_free (McpRegistryChoice *self) { if (!self) return; g_free (self->identifier); g_free (self->version); g_free (self->transport); g_free (self->label); g_clear_pointer (&self->inputs, g_ptr_array_unref); g_free (self); }
void mcp_registry_page_free (McpRegistryPage *self) { if (!self) return; g_clear_pointer (&self->servers, g_ptr_array_unref); g_free (self->next_cursor); g_free (self); }

McpRegistryServer *mcp_registry_server_new_from_json (JsonObject *object, GError **error) { g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, "not yet"); return NULL; }
const char *mcp_registry_server_get_name (McpRegistryServer *self) { return self->name; }
const char *mcp_registry_server_get_title (McpRegistryServer *self) { return NULL; }
const char *mcp_registry_server_get_description (McpRegistryServer *self) { return ""; }
const char *mcp_registry_server_get_version (McpRegistryServer *self) { return ""; }
const char *mcp_registry_server_get_website_url (McpRegistryServer *self) { return NULL; }
const char *mcp_registry_server_get_repository_url (McpRegistryServer *self) { return NULL; }
const char *mcp_registry_server_get_status (McpRegistryServer *self) { return NULL; }
JsonObject *mcp_registry_server_get_json (McpRegistryServer *self) { return self->json; }
GPtrArray *mcp_registry_server_get_choices (McpRegistryServer *self) { return self->choices; }
char *mcp_registry_server_dup_entry_name (McpRegistryServer *self) { return g_strdup (self->name); }
JsonObject *mcp_registry_server_build_entry (McpRegistryServer *self, const McpRegistryChoice *choice, GHashTable *values, GHashTable *secret_refs, GError **error) { g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "not yet"); return NULL; }

struct _McpRegistry { GObject parent_instance; char *base_url; };
G_DEFINE_FINAL_TYPE (McpRegistry, mcp_registry, G_TYPE_OBJECT)
static void mcp_registry_finalize (GObject *object) { g_free (((McpRegistry *) object)->base_url); G_OBJECT_CLASS (mcp_registry_parent_class)->finalize (object); }
static void mcp_registry_class_init (McpRegistryClass *klass) { G_OBJECT_CLASS (klass)->finalize = mcp_registry_finalize; }
static void mcp_registry_init (McpRegistry *self) {}
McpRegistry *mcp_registry_new (const char *base_url, const char *cache_dir) { McpRegistry *self = g_object_new (MCP_TYPE_REGISTRY, NULL); self->base_url = g_strdup (base_url ? base_url : MCP_REGISTRY_DEFAULT_URL); return self; }
const char *mcp_registry_get_base_url (McpRegistry *self) { return self->base_url; }
void mcp_registry_search_async (McpRegistry *self, const char *term, const char *cursor, guint limit, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { g_task_report_new_error (self, callback, user_data, mcp_registry_search_async, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet"); }
McpRegistryPage *mcp_registry_search_finish (McpRegistry *self, GAsyncResult *result, GError **error) { return g_task_propagate_pointer (G_TASK (result), error); }
void mcp_registry_get_async (McpRegistry *self, const char *name, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) { g_task_report_new_error (self, callback, user_data, mcp_registry_get_async, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet"); }
McpRegistryServer *mcp_registry_get_finish (McpRegistry *self, GAsyncResult *result, GError **error) { return g_task_propagate_pointer (G_TASK (result), error); }
