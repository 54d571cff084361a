/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the YAML reader and editor (issue 26). */
#include "mcp-yaml-document.h"
#include <gio/gio.h>

struct _McpYamlDocument { int unused; };

static gboolean
not_yet (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "YAML is not supported yet");
  return FALSE;
}

McpYamlDocument *mcp_yaml_document_new (const char *text, gsize length, GError **error) { not_yet (error); return NULL; }
void mcp_yaml_document_free (McpYamlDocument *self) { g_free (self); }
const char *mcp_yaml_document_get_text (McpYamlDocument *self, gsize *length) { if (length) *length = 0; return ""; }
JsonNode *mcp_yaml_document_get_root (McpYamlDocument *self) { return NULL; }
gboolean mcp_yaml_document_set (McpYamlDocument *self, const char * const *path, JsonNode *value, GError **error) { return not_yet (error); }
gboolean mcp_yaml_document_update (McpYamlDocument *self, const char * const *path, JsonNode *value, GError **error) { return not_yet (error); }
gboolean mcp_yaml_document_remove (McpYamlDocument *self, const char * const *path, GError **error) { return not_yet (error); }
gboolean mcp_yaml_document_rename (McpYamlDocument *self, const char * const *path, const char *new_name, GError **error) { return not_yet (error); }
JsonNode *mcp_yaml_document_parse (const char *text, gsize length, GError **error) { not_yet (error); return NULL; }
