/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "mcp-settings.h"
#include "mcp-tool-pool.h"
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_PERMISSION_ASK,
  MCP_PERMISSION_ALLOW,
  MCP_PERMISSION_DENY,
} McpPermission;

/* Why a decision is what it is. */
typedef enum
{
  /* A rule of the settings decided (McpPermissionDecision.rule names it). */
  MCP_PERMISSION_REASON_RULE,
  /* No rule matched; the tool is neither destructive nor open-world, and
   * the person's own Run (app) or call (terminal) is the consent. */
  MCP_PERMISSION_REASON_DEFAULT_CONSENT,
  /* No rule matched; the tool may be destructive or open-world: ask. */
  MCP_PERMISSION_REASON_DEFAULT_ASK,
  /* A server given on the command line has no settings and so no rules:
   * the command line is the consent. */
  MCP_PERMISSION_REASON_COMMAND_LINE,
  /* An allow rule matches (McpPermissionDecision.rule), but the tool's
   * description or schema changed since the person allowed it: ask until
   * they review the change and confirm it. */
  MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED,
} McpPermissionReason;

/* The effective hints that matter to the default (see McpPoolTool). */
typedef enum
{
  MCP_PERMISSION_HINT_NONE        = 0,
  MCP_PERMISSION_HINT_DESTRUCTIVE = 1 << 0,
  MCP_PERMISSION_HINT_OPEN_WORLD  = 1 << 1,
} McpPermissionHints;

/**
 * McpPermissionDecision:
 * @permission: allow, ask or deny
 * @reason: why
 * @rule: (nullable): the rule that decided, as the settings have it, when
 *   @reason is MCP_PERMISSION_REASON_RULE; else NULL. Owned by the
 *   McpPermissions that decided, valid while it lives.
 */
typedef struct
{
  McpPermission        permission;
  McpPermissionReason  reason;
  const char          *rule;
} McpPermissionDecision;

#define MCP_TYPE_PERMISSIONS (mcp_permissions_get_type ())

G_DECLARE_FINAL_TYPE (McpPermissions, mcp_permissions, MCP, PERMISSIONS, GObject)

/**
 * McpPermissions:
 *
 * The one permission evaluator of the app and the CLI: the "permissions"
 * settings, three lists of rules, parsed once into (server, tool) pairs.
 *
 * A rule is `mcp__SERVER` or `mcp__SERVER__*` (every tool of the server)
 * or `mcp__SERVER__TOOL` (one tool). Characters outside [A-Za-z0-9_-] in
 * a rule and in the names it is compared with are read as `_` (one per
 * character), as in qualified tool names. A rule matches a tool when its
 * SERVER equals the tool's server name and its TOOL (if any) equals the
 * tool's name — whole names, never prefixes: `mcp__a` does not reach a
 * server named `a__evil`.
 *
 * Names may hold `__`, so `mcp__a__b__c` may be read as server `a`, tool
 * `b__c`; server `a__b`, tool `c`; or every tool of server `a__b__c`.
 * Only readings whose SERVER is a configured server (or the server of the
 * tool being checked) count. When more than one configured server is
 * named that way the rule is ambiguous: as a deny or ask rule it applies
 * to every reading, as an allow rule to none (see get_notes()). A rule of
 * the form `mcp__SERVER__*` names only SERVER.
 *
 * Order: deny, then ask, then allow (Claude Code's). With no matching
 * rule a tool that is neither destructive nor open-world by its effective
 * hints runs on the person's own Run or call (DEFAULT_CONSENT); any other
 * asks (DEFAULT_ASK). Rules of other forms (not starting with `mcp__`,
 * or with `*` anywhere but a final `__*`) are ignored. Immutable.
 */
/* Without a list of the configured servers: only readings naming the
 * checked tool's own server count. */
McpPermissions *mcp_permissions_new               (const char * const *allow,
                                                   const char * const *deny,
                                                   const char * const *ask);
/* @servers: the names of every configured server. */
McpPermissions *mcp_permissions_new_for_servers   (const char * const *allow,
                                                   const char * const *deny,
                                                   const char * const *ask,
                                                   const char * const *servers);
/* The evaluator of @settings: its rules and its servers' names; the one
 * way the app and the CLI make it. */
McpPermissions *mcp_permissions_new_from_settings (McpSettings        *settings);
/* For a server given on the command line: every call is allowed, reason
 * MCP_PERMISSION_REASON_COMMAND_LINE. */
McpPermissions *mcp_permissions_new_command_line  (void);

/* Whether the tool @tool of @server changed since the person confirmed
 * it (McpCapabilityHistory): then an allow rule for it is suspended. */
typedef gboolean (*McpPermissionsChangedFunc) (const char *server,
                                               const char *tool,
                                               gpointer    user_data);

/* Sets the check an allow rule passes before it applies; a deny or ask
 * rule never depends on it. */
void            mcp_permissions_set_changed_func  (McpPermissions            *self,
                                                   McpPermissionsChangedFunc  func,
                                                   gpointer                   user_data,
                                                   GDestroyNotify             destroy);

/* Decides for the tool @tool of the server @server (the real names, as
 * the connection and the tool have them) with the effective @hints. */
void            mcp_permissions_decide            (McpPermissions        *self,
                                                   const char            *server,
                                                   const char            *tool,
                                                   McpPermissionHints     hints,
                                                   McpPermissionDecision *decision);
/* The same for a tool of the pool: its server's name, its own name and
 * its effective hints. */
void            mcp_permissions_decide_tool       (McpPermissions        *self,
                                                   McpPoolTool           *tool,
                                                   McpPermissionDecision *decision);
/* Whether @rule is one the evaluator reads (it ignores the others: rules
 * of other tools, a misplaced wildcard); FALSE with why in @error. */
gboolean        mcp_permissions_check_rule        (const char            *rule,
                                                   GError               **error);
/* One sentence per ambiguous rule (see above), for the person; NULL-terminated. */
const char * const *mcp_permissions_get_notes     (McpPermissions        *self);

McpPermissionHints mcp_permission_hints_for_tool  (McpPoolTool           *tool);

/* "ask", "allow", "deny" */
const char     *mcp_permission_to_string          (McpPermission          permission);
/* "rule", "default-consent", "default-ask", "command-line",
 * "changed-since-allowed" */
const char     *mcp_permission_reason_to_string   (McpPermissionReason    reason);
/* The decision in one translated sentence, the same in the app and the CLI. */
char           *mcp_permission_decision_describe  (const McpPermissionDecision *decision);

G_END_DECLS
