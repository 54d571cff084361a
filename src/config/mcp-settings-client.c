/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include "mcp-settings-private.h"

/* McpSettings of another MCP client: where its files are, where its
 * servers are in them, and its entries to and from Plugboard's shape
 * (mcp-client-shape.h). Everything else (loading, watching, the locked
 * writes, approvals) is the settings' own, told by the layout. */

static char **
strv_of (const char *first,
         ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *name;
  va_list args;

  va_start (args, first);
  for (name = first; name != NULL; name = va_arg (args, const char *))
    g_strv_builder_add (builder, name);
  va_end (args);

  return g_strv_builder_end (builder);
}

void
mcp_settings_layout_copy (McpSettingsLayout       *dest,
                          const McpSettingsLayout *src)
{
  *dest = *src;
  dest->home = g_strdup (src->home);
  dest->project_dir = g_strdup (src->project_dir);
  dest->lists_prefix = g_strdupv (src->lists_prefix);
  for (guint i = 0; i < G_N_ELEMENTS (src->containers); i++)
    dest->containers[i] = g_strdupv (src->containers[i]);
}

void
mcp_settings_layout_clear (McpSettingsLayout *layout)
{
  g_clear_pointer (&layout->home, g_free);
  g_clear_pointer (&layout->project_dir, g_free);
  g_clear_pointer (&layout->lists_prefix, g_strfreev);
  for (guint i = 0; i < G_N_ELEMENTS (layout->containers); i++)
    g_clear_pointer (&layout->containers[i], g_strfreev);
}

static void
set_up_plugboard (McpSettings *self)
{
  McpSettingsLayout *layout = &self->layout;

  self->user_path = g_build_filename (self->user_config_dir, "settings.json", NULL);
  self->project_path = g_build_filename (self->project_dir, ".mcp.json", NULL);
  layout->containers[MCP_CONFIG_SCOPE_USER] = strv_of ("mcpServers", NULL);
  layout->containers[MCP_CONFIG_SCOPE_PROJECT] = strv_of ("mcpServers", NULL);
  layout->containers[MCP_CONFIG_SCOPE_LOCAL] = strv_of ("projects", self->project_dir, "mcpServers", NULL);
  layout->lists_file = SETTINGS_FILE_USER;
  layout->rules_file = SETTINGS_FILE_USER;
  layout->lists_prefix = strv_of ("projects", self->project_dir, NULL);
}

static void
set_up_client (McpSettings *self)
{
  McpSettingsLayout *layout = &self->layout;
  g_autoptr(GPtrArray) files = NULL;
  McpClientFile *local = NULL;

  files = mcp_client_kind_dup_files (self->client, self->home, NULL,
                                     self->user_config_dir, self->project_dir);
  for (guint i = 0; i < files->len; i++)
    {
      McpClientFile *file = files->pdata[i];

      switch (file->scope)
        {
        case MCP_CONFIG_SCOPE_USER:
          g_clear_pointer (&self->user_path, g_free);
          self->user_path = g_strdup (file->path);
          layout->dialects[SETTINGS_FILE_USER] = file->dialect;
          break;

        case MCP_CONFIG_SCOPE_PROJECT:
          g_clear_pointer (&self->project_path, g_free);
          self->project_path = g_strdup (file->path);
          layout->dialects[SETTINGS_FILE_PROJECT] = file->dialect;
          break;

        case MCP_CONFIG_SCOPE_LOCAL:
        default:
          local = file;
          continue;
        }
      g_strfreev (layout->containers[file->scope]);
      layout->containers[file->scope] = g_strdupv (file->container);
    }

  /* The local scope is a part of the user file, as Claude Code has it */
  if (local != NULL)
    {
      if (self->user_path != NULL && g_strcmp0 (local->path, self->user_path) == 0)
        layout->containers[MCP_CONFIG_SCOPE_LOCAL] = g_strdupv (local->container);
      else
        g_warning ("%s: the local scope is not in the user file; left out",
                   mcp_client_kind_get_display_name (self->client));
    }

  self->plugboard_path = g_build_filename (self->user_config_dir, "settings.json", NULL);
  layout->dialects[SETTINGS_FILE_PLUGBOARD] = MCP_JSON_DIALECT_JSON;
  layout->rules_file = SETTINGS_FILE_PLUGBOARD;
  if (self->client == MCP_CLIENT_KIND_CLAUDE_CODE)
    {
      layout->lists_file = SETTINGS_FILE_USER;
      layout->lists_prefix = strv_of ("projects", self->project_dir, NULL);
    }
  else
    {
      layout->lists_file = SETTINGS_FILE_PLUGBOARD;
      layout->lists_prefix = strv_of ("clients", mcp_client_kind_to_id (self->client),
                                      "projects", self->project_dir, NULL);
    }
}

void
mcp_settings_set_up_files (McpSettings *self)
{
  self->layout.client = self->client;
  self->layout.project_dir = g_strdup (self->project_dir);
  self->layout.home = g_strdup (self->home != NULL ? self->home : g_get_home_dir ());

  if (self->client == MCP_CLIENT_KIND_PLUGBOARD)
    set_up_plugboard (self);
  else
    set_up_client (self);

  if (self->user_path != NULL)
    self->user_file = g_file_new_for_path (self->user_path);
  if (self->project_path != NULL)
    self->project_file = g_file_new_for_path (self->project_path);
  if (self->plugboard_path != NULL)
    self->plugboard_file = g_file_new_for_path (self->plugboard_path);
}

/* The conversions */

JsonObject *
mcp_settings_layout_to_plugboard (const McpSettingsLayout  *layout,
                                  const char               *name,
                                  JsonObject               *native,
                                  JsonArray                *inputs,
                                  GPtrArray                *notes,
                                  GError                  **error)
{
  McpClientShapeContext context = { layout->home, layout->project_dir, inputs, NULL };

  if (layout->client == MCP_CLIENT_KIND_PLUGBOARD)
    return json_object_ref (native);

  return mcp_client_shape_to_plugboard (layout->client, name, native, &context, notes, error);
}

JsonObject *
mcp_settings_layout_from_plugboard (const McpSettingsLayout  *layout,
                                    const char               *name,
                                    JsonObject               *entry,
                                    JsonObject               *base,
                                    JsonArray                *inputs,
                                    JsonArray                *new_inputs,
                                    GPtrArray                *notes,
                                    GError                  **error)
{
  McpClientShapeContext context = { layout->home, layout->project_dir, inputs, new_inputs };

  if (layout->client == MCP_CLIENT_KIND_PLUGBOARD)
    return json_object_ref (entry);

  return mcp_client_shape_from_plugboard (layout->client, name, entry, base, &context, notes, error);
}

/* The API */

McpSettings *
mcp_settings_new_for_client (McpClientKind  kind,
                             const char    *home,
                             const char    *user_config_dir,
                             const char    *project_dir)
{
  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL);
  g_return_val_if_fail (project_dir == NULL || g_path_is_absolute (project_dir), NULL);

  return g_object_new (MCP_TYPE_SETTINGS,
                       "client", kind,
                       "home", home,
                       "user-config-dir", user_config_dir,
                       "project-dir", project_dir,
                       NULL);
}

McpClientKind
mcp_settings_get_client (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), MCP_CLIENT_KIND_PLUGBOARD);

  return self->client;
}

gboolean
mcp_settings_has_scope (McpSettings    *self,
                        McpConfigScope  scope)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), FALSE);
  g_return_val_if_fail (scope <= MCP_CONFIG_SCOPE_LOCAL, FALSE);

  return self->layout.containers[scope] != NULL;
}

char **
mcp_settings_dup_notes (McpSettings    *self,
                        const char     *name,
                        McpConfigScope  scope)
{
  g_autofree char *key = NULL;
  char **notes;

  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  key = mcp_settings_notes_key (name, scope);
  notes = g_hash_table_lookup (self->notes, key);

  return notes != NULL ? g_strdupv (notes) : NULL;
}

char *
mcp_settings_notes_key (const char     *name,
                        McpConfigScope  scope)
{
  return g_strdup_printf ("%u:%s", (guint) scope, name);
}
