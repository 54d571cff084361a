/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the TOML reader and editor (issue 26). */
#include "mcp-toml-document.h"
#include <gio/gio.h>

struct _McpTomlDocument { int unused; };

static gboolean
not_yet (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "TOML is not supported yet");
  return FALSE;
}

McpTomlDocument *mcp_toml_document_new (const char *text, gsize length, GError **error) { not_yet (error); return NULL; }
void mcp_toml_document_free (McpTomlDocument *self) { g_free (self); }
const char *mcp_toml_document_get_text (McpTomlDocument *self, gsize *length) { if (length) *length = 0; return ""; }
JsonNode *mcp_toml_document_get_root (McpTomlDocument *self) { return NULL; }
gboolean mcp_toml_document_set (McpTomlDocument *self, const char * const *path, JsonNode *value, GError **error) { return not_yet (error); }
gboolean mcp_toml_document_update (McpTomlDocument *self, const char * const *path, JsonNode *value, GError **error) { return not_yet (error); }
gboolean mcp_toml_document_remove (McpTomlDocument *self, const char * const *path, GError **error) { return not_yet (error); }
gboolean mcp_toml_document_rename (McpTomlDocument *self, const char * const *path, const char *new_name, GError **error) { return not_yet (error); }
JsonNode *mcp_toml_document_parse (const char *text, gsize length, GError **error) { not_yet (error); return NULL; }
