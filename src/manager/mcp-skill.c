/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-skill"

#include "config.h"

#include "mcp-skill.h"

#include "mcp-error.h"

/* CONTRACT STUB: the skills part replaces this file. */

struct _McpSkill
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (McpSkill, mcp_skill, G_TYPE_OBJECT)

static void
mcp_skill_class_init (McpSkillClass *klass)
{
}

static void
mcp_skill_init (McpSkill *self)
{
}

void
mcp_skills_list_async (McpClient           *client,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_task_report_new_error (client, callback, user_data, mcp_skills_list_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "not implemented");
}

GPtrArray *
mcp_skills_list_finish (McpClient     *client,
                        GAsyncResult  *result,
                        GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

const char *mcp_skill_get_uri (McpSkill *self) { return NULL; }
const char *mcp_skill_get_name (McpSkill *self) { return NULL; }
const char *mcp_skill_get_description (McpSkill *self) { return NULL; }
JsonObject *mcp_skill_get_frontmatter (McpSkill *self) { return NULL; }
JsonObject *mcp_skill_get_entry (McpSkill *self) { return NULL; }
GStrv mcp_skill_get_file_uris (McpSkill *self) { return NULL; }

gboolean
mcp_skill_get_file_info (McpSkill    *self,
                         const char  *uri,
                         const char **digest,
                         gint64      *size)
{
  return FALSE;
}

void
mcp_skill_load_async (McpSkill            *self,
                      McpClient           *client,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_skill_load_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "not implemented");
}

GBytes *
mcp_skill_load_finish (McpSkill      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_skill_fetch_file_async (McpSkill            *self,
                            McpClient           *client,
                            const char          *uri,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, mcp_skill_fetch_file_async,
                           MCP_ERROR, MCP_ERROR_UNSUPPORTED, "not implemented");
}

GBytes *
mcp_skill_fetch_file_finish (McpSkill      *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
