/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The documented permission table (README, "Permissions"), written out
 * independently of src/manager/mcp-permissions.c, for the tests that check
 * the evaluator, the CLI and the app against it. */

#include <glib.h>

#include "mcp-permissions.h"

typedef enum
{
  TABLE_RULE_NONE,
  TABLE_RULE_ALLOW,
  TABLE_RULE_ASK,
  TABLE_RULE_DENY,
  TABLE_N_RULES
} TableRule;

typedef enum
{
  TABLE_LEVEL_SERVER,   /* mcp__srv */
  TABLE_LEVEL_TOOL,     /* mcp__srv__tool */
  TABLE_N_LEVELS
} TableLevel;

/* One tool per set of hints: its name, its annotations (NULL: none) and
 * its effective hints by the MCP defaults (destructiveHint true unless
 * readOnlyHint; openWorldHint true). */
typedef struct
{
  const char         *name;
  const char         *annotations;
  McpPermissionHints  effective;
} TableTool;

static const TableTool table_tools[] = {
  { "read", "{\"readOnlyHint\":true,\"openWorldHint\":false}", MCP_PERMISSION_HINT_NONE },
  { "destroy", "{\"destructiveHint\":true,\"openWorldHint\":false}", MCP_PERMISSION_HINT_DESTRUCTIVE },
  { "open", "{\"destructiveHint\":false,\"openWorldHint\":true}", MCP_PERMISSION_HINT_OPEN_WORLD },
  { "plain", "{\"destructiveHint\":false,\"openWorldHint\":false}", MCP_PERMISSION_HINT_NONE },
  { "bare", NULL, MCP_PERMISSION_HINT_DESTRUCTIVE | MCP_PERMISSION_HINT_OPEN_WORLD },
  /* readOnlyHint alone: not destructive, but open-world by default. */
  { "read_open", "{\"readOnlyHint\":true}", MCP_PERMISSION_HINT_OPEN_WORLD },
};

/* Who is there to answer an ask. */
typedef enum
{
  TABLE_ANSWER_YES,      /* a terminal (or the app's dialog): the person says yes */
  TABLE_ANSWER_NO,       /* ... says no */
  TABLE_NO_TERMINAL,     /* CLI: stdin or stderr not a terminal */
  TABLE_YES_FLAG,        /* CLI: --yes */
  TABLE_JSON,            /* CLI: --json on a terminal, without --yes */
  TABLE_N_ANSWERS
} TableAnswer;

typedef enum
{
  TABLE_RUNS,
  TABLE_DENIED,          /* a deny rule */
  TABLE_REFUSED,         /* the person said no */
  TABLE_NOBODY_TO_ASK,   /* refused: nobody could be asked */
} TableOutcome;

static inline const char *
table_rule_list (TableRule rule)
{
  switch (rule)
    {
    case TABLE_RULE_ALLOW: return "allow";
    case TABLE_RULE_ASK: return "ask";
    case TABLE_RULE_DENY: return "deny";
    case TABLE_RULE_NONE:
    default: return NULL;
    }
}

/* The rule's text for the tool @tool of the server @server. */
static inline char *
table_rule_text (TableLevel  level,
                 const char *server,
                 const char *tool)
{
  return level == TABLE_LEVEL_SERVER ? g_strdup_printf ("mcp__%s", server)
                                     : g_strdup_printf ("mcp__%s__%s", server, tool);
}

static inline McpPermission
table_expected_permission (TableRule          rule,
                           McpPermissionHints effective)
{
  switch (rule)
    {
    case TABLE_RULE_ALLOW: return MCP_PERMISSION_ALLOW;
    case TABLE_RULE_ASK: return MCP_PERMISSION_ASK;
    case TABLE_RULE_DENY: return MCP_PERMISSION_DENY;
    case TABLE_RULE_NONE:
    default:
      return effective == MCP_PERMISSION_HINT_NONE ? MCP_PERMISSION_ALLOW : MCP_PERMISSION_ASK;
    }
}

static inline McpPermissionReason
table_expected_reason (TableRule          rule,
                       McpPermissionHints effective)
{
  if (rule != TABLE_RULE_NONE)
    return MCP_PERMISSION_REASON_RULE;
  return effective == MCP_PERMISSION_HINT_NONE ? MCP_PERMISSION_REASON_DEFAULT_CONSENT
                                               : MCP_PERMISSION_REASON_DEFAULT_ASK;
}

static inline TableOutcome
table_expected_outcome (McpPermission permission,
                        TableAnswer   answer)
{
  if (permission == MCP_PERMISSION_DENY)
    return TABLE_DENIED;
  if (permission == MCP_PERMISSION_ALLOW)
    return TABLE_RUNS;
  switch (answer)
    {
    case TABLE_ANSWER_YES:
    case TABLE_YES_FLAG:
      return TABLE_RUNS;
    case TABLE_ANSWER_NO:
      return TABLE_REFUSED;
    case TABLE_NO_TERMINAL:
    case TABLE_JSON:
    default:
      return TABLE_NOBODY_TO_ASK;
    }
}
