/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-registry.h"

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpRegistryInput, mcp_registry_input_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpRegistryChoice, mcp_registry_choice_free)

/* McpRegistry's parts: the server.json model (mcp-registry-server.c), the
 * entries it builds (mcp-registry-entry.c) and the API client
 * (mcp-registry.c). */

/* As mcp_registry_server_new_from_json(), with @prefix ("servers[3]")
 * before every JSON path in errors. */
McpRegistryServer *mcp_registry_server_new_at (JsonObject  *object,
                                               const char  *prefix,
                                               GError     **error);

G_END_DECLS
