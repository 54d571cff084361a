/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Shared by the protocol's types read from a server (McpTool, McpPrompt,
 * McpResource, McpResourceTemplate, McpServerInfo): their properties are
 * read-only views of what the server sent, notified explicitly (never, as
 * they do not change), with static strings. */
#define MCP_PARAM_READABLE (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)

G_END_DECLS
