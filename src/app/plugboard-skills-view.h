/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-server-manager.h"
#include "plugboard-list-detail.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SKILLS_VIEW (plugboard_skills_view_get_type ())
G_DECLARE_FINAL_TYPE (PlugboardSkillsView, plugboard_skills_view, PLUGBOARD, SKILLS_VIEW, PlugboardListDetail)

/**
 * PlugboardSkillsView:
 *
 * The server page's Skills tab (Skills over MCP, SEP-2640) for one
 * connection: the skills/list of a server that declares the extension
 * (name, description, number of files), listed once per session and
 * reading nothing; a skill's entry (frontmatter, files with sizes and
 * digests). Load fetches the SKILL.md, verified by the engine, and shows
 * it as Markdown; a file is fetched and verified when asked for; on a
 * mismatch an error state says which check failed and that the content
 * was not used. Save to Folder writes every verified file
 * (mcp_skill_save_async()).
 */
GtkWidget *plugboard_skills_view_new            (void);
/* nullable */
void       plugboard_skills_view_set_connection (PlugboardSkillsView *self,
                                                 McpServerConnection *connection);

G_END_DECLS
