/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: replaced by the clients' shapes (issue 26). */
#include "mcp-client-shape.h"

static const struct { const char *id; const char *display; } kinds[] = {
  { "plugboard", "Plugboard" }, { "claude-code", "Claude Code" },
  { "claude-desktop", "Claude Desktop" }, { "vscode", "VS Code" },
  { "cursor", "Cursor" }, { "windsurf", "Windsurf" }, { "gemini", "Gemini CLI" },
  { "codex", "Codex" }, { "zed", "Zed" }, { "goose", "Goose" },
};

const char *mcp_client_kind_to_id (McpClientKind kind) { g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL); return kinds[kind].id; }
gboolean
mcp_client_kind_from_id (const char *id, McpClientKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_strcmp0 (id, kinds[i].id) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}
const char *mcp_client_kind_get_display_name (McpClientKind kind) { g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL); return kinds[kind].display; }
const char *mcp_client_kind_list_ids (void) { return "plugboard, claude-code, claude-desktop, vscode, cursor, windsurf, gemini, codex, zed, goose"; }
void
mcp_client_file_free (McpClientFile *self)
{
  if (!self) return;
  g_free (self->path);
  g_strfreev (self->container);
  g_free (self);
}
GPtrArray *mcp_client_kind_dup_files (McpClientKind kind, const char *home, const char *config_home, const char *plugboard_dir, const char *project_dir) { return g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_client_file_free); }
gboolean mcp_client_kind_is_present (McpClientKind kind, const char *home, const char *config_home) { return kind == MCP_CLIENT_KIND_PLUGBOARD; }
JsonObject *
mcp_client_shape_to_plugboard (McpClientKind kind, const char *name, JsonObject *native, const McpClientShapeContext *context, GPtrArray *notes, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "not yet");
  return NULL;
}
JsonObject *
mcp_client_shape_from_plugboard (McpClientKind kind, const char *name, JsonObject *entry, JsonObject *base, const McpClientShapeContext *context, GPtrArray *notes, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "not yet");
  return NULL;
}
