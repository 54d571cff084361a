/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-interaction.h"

#include "plugboard-cli-private.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_CLI_INTERACTION (plugboard_cli_interaction_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardCliInteraction, plugboard_cli_interaction,
                      PLUGBOARD, CLI_INTERACTION, McpInteraction)

/* The terminal of @cli (borrowed: it outlives the interaction's project). */
McpInteraction *plugboard_cli_interaction_new     (PlugboardCli            *cli);
/* --yes: every "may this tool run?" answered yes. */
void            plugboard_cli_interaction_set_yes (PlugboardCliInteraction *self,
                                                   gboolean                 yes);

G_END_DECLS
