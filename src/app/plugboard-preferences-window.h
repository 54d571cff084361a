/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-limits.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_PREFERENCES_WINDOW (plugboard_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardPreferencesWindow, plugboard_preferences_window,
                      PLUGBOARD, PREFERENCES_WINDOW, AdwPreferencesWindow)

/**
 * PlugboardPreferencesWindow:
 *
 * Preferences bound to the GSettings keys of org.plugboard.Plugboard:
 * "Connections" — connect-timeout (seconds shown, ms stored), tool-timeout
 * (0 = no limit), request-timeout, local-batch-size, remote-batch-size;
 * "Tools" — max-output-tokens; "New Servers" — default-scope
 * (user / project / local combo). A key overridden by its environment
 * variable (MCP_TIMEOUT, MCP_TOOL_TIMEOUT, MCP_REQUEST_TIMEOUT_MS,
 * MCP_SERVER_CONNECTION_BATCH_SIZE, MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE,
 * MAX_MCP_OUTPUT_TOKENS, as @limits read it: McpLimits, nullable) says so
 * in its subtitle and is insensitive.
 */
PlugboardPreferencesWindow *plugboard_preferences_window_new (GtkWindow *parent,
                                                              GSettings *settings,
                                                              McpLimits *limits);

G_END_DECLS
