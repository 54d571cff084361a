/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-server-manager.h"
#include "plugboard-list-detail.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_PROMPT_BROWSER (plugboard_prompt_browser_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardPromptBrowser, plugboard_prompt_browser, PLUGBOARD, PROMPT_BROWSER, PlugboardListDetail)

/**
 * PlugboardPromptBrowser:
 *
 * The server page's Prompts tab for one connection: its prompts
 * (searchable); a prompt's arguments as a form with completion
 * (completion/complete, required ones marked); Get fetches prompts/get and
 * shows the messages by role and content type. Says plainly when the
 * server offers no prompts or is not connected.
 */
GtkWidget *plugboard_prompt_browser_new            (void);
/* nullable */
void       plugboard_prompt_browser_set_connection (PlugboardPromptBrowser *self,
                                                    McpServerConnection    *connection);

G_END_DECLS
