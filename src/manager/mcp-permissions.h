/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  MCP_PERMISSION_ASK,
  MCP_PERMISSION_ALLOW,
  MCP_PERMISSION_DENY,
} McpPermission;

#define MCP_TYPE_PERMISSIONS (mcp_permissions_get_type ())

G_DECLARE_FINAL_TYPE (McpPermissions, mcp_permissions, MCP, PERMISSIONS, GObject)

/**
 * McpPermissions:
 *
 * The "permissions" settings: three lists of rules, each of the form
 * `mcp__server` (every tool of the server), `mcp__server__*` (the same) or
 * `mcp__server__tool` (one tool). Characters outside [A-Za-z0-9_-] in a
 * rule are read as `_`, the way qualified tool names are made. A deny rule
 * wins over an allow rule, which wins over an ask rule; a tool no rule
 * matches asks. Rules of other forms (not starting with `mcp__`) are
 * ignored. Immutable.
 */
McpPermissions *mcp_permissions_new          (const char * const *allow,
                                              const char * const *deny,
                                              const char * const *ask);

/* What to do with the tool named @qualified_name (mcp__server__tool).
 * @rule, when not NULL, is set to the rule that decided (as written in the
 * settings), or NULL when no rule matched. */
McpPermission   mcp_permissions_check        (McpPermissions     *self,
                                              const char         *qualified_name,
                                              const char        **rule);

const char     *mcp_permission_to_string     (McpPermission       permission);

G_END_DECLS
