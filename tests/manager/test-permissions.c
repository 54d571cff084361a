/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-permissions.h"

static McpPermission
check (McpPermissions  *permissions,
       const char      *name,
       const char     **rule)
{
  return mcp_permissions_check (permissions, name, rule);
}

static void
test_no_rule_asks (void)
{
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (NULL, NULL, NULL);
  const char *rule = "unset";

  g_assert_cmpint (check (permissions, "mcp__fs__read", &rule), ==, MCP_PERMISSION_ASK);
  g_assert_null (rule);
}

static void
test_server_rule (void)
{
  const char *allow[] = { "mcp__fs", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  const char *rule = NULL;

  g_assert_cmpint (check (permissions, "mcp__fs__read", &rule), ==, MCP_PERMISSION_ALLOW);
  g_assert_cmpstr (rule, ==, "mcp__fs");
  g_assert_cmpint (check (permissions, "mcp__fs__write", NULL), ==, MCP_PERMISSION_ALLOW);
  /* mcp__fs is not a prefix rule for server fsx */
  g_assert_cmpint (check (permissions, "mcp__fsx__read", &rule), ==, MCP_PERMISSION_ASK);
  g_assert_null (rule);
}

static void
test_wildcard_rule (void)
{
  const char *deny[] = { "mcp__github__*", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (NULL, deny, NULL);
  const char *rule = NULL;

  g_assert_cmpint (check (permissions, "mcp__github__create_issue", &rule), ==, MCP_PERMISSION_DENY);
  g_assert_cmpstr (rule, ==, "mcp__github__*");
  g_assert_cmpint (check (permissions, "mcp__githubx__create_issue", NULL), ==, MCP_PERMISSION_ASK);
}

static void
test_tool_rule (void)
{
  const char *allow[] = { "mcp__fs__read", NULL };
  const char *ask[] = { "mcp__fs__write", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, ask);
  const char *rule = NULL;

  g_assert_cmpint (check (permissions, "mcp__fs__read", &rule), ==, MCP_PERMISSION_ALLOW);
  g_assert_cmpstr (rule, ==, "mcp__fs__read");
  g_assert_cmpint (check (permissions, "mcp__fs__read_all", NULL), ==, MCP_PERMISSION_ASK);
  g_assert_cmpint (check (permissions, "mcp__fs__write", &rule), ==, MCP_PERMISSION_ASK);
  g_assert_cmpstr (rule, ==, "mcp__fs__write");
}

static void
test_precedence (void)
{
  const char *allow[] = { "mcp__fs", "mcp__web__fetch", NULL };
  const char *deny[] = { "mcp__fs__delete", NULL };
  const char *ask[] = { "mcp__fs", "mcp__web__*", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, ask);
  const char *rule = NULL;

  /* deny wins over allow and ask */
  g_assert_cmpint (check (permissions, "mcp__fs__delete", &rule), ==, MCP_PERMISSION_DENY);
  g_assert_cmpstr (rule, ==, "mcp__fs__delete");
  /* allow wins over ask */
  g_assert_cmpint (check (permissions, "mcp__fs__read", &rule), ==, MCP_PERMISSION_ALLOW);
  g_assert_cmpstr (rule, ==, "mcp__fs");
  g_assert_cmpint (check (permissions, "mcp__web__fetch", &rule), ==, MCP_PERMISSION_ALLOW);
  g_assert_cmpstr (rule, ==, "mcp__web__fetch");
  g_assert_cmpint (check (permissions, "mcp__web__post", &rule), ==, MCP_PERMISSION_ASK);
  g_assert_cmpstr (rule, ==, "mcp__web__*");
}

static void
test_deny_server_over_allow_tool (void)
{
  const char *allow[] = { "mcp__fs__read", NULL };
  const char *deny[] = { "mcp__fs", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, NULL);
  const char *rule = NULL;

  g_assert_cmpint (check (permissions, "mcp__fs__read", &rule), ==, MCP_PERMISSION_DENY);
  g_assert_cmpstr (rule, ==, "mcp__fs");
}

static void
test_sanitized_rules (void)
{
  /* A rule written with the server's own name matches the qualified name. */
  const char *allow[] = { "mcp__my.server__get item", NULL };
  const char *deny[] = { "Bash(rm:*)", "mcp__", "mcp__x*y__z", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, NULL);
  const char *rule = NULL;

  g_assert_cmpint (check (permissions, "mcp__my_server__get_item", &rule), ==, MCP_PERMISSION_ALLOW);
  g_assert_cmpstr (rule, ==, "mcp__my.server__get item");
  /* rules of other forms are ignored, not read as "everything" */
  g_assert_cmpint (check (permissions, "mcp__x_y__z", &rule), ==, MCP_PERMISSION_ASK);
  g_assert_null (rule);
  g_assert_cmpint (check (permissions, "mcp__other__tool", NULL), ==, MCP_PERMISSION_ASK);
}

static void
test_to_string (void)
{
  g_assert_cmpstr (mcp_permission_to_string (MCP_PERMISSION_ALLOW), ==, "allow");
  g_assert_cmpstr (mcp_permission_to_string (MCP_PERMISSION_DENY), ==, "deny");
  g_assert_cmpstr (mcp_permission_to_string (MCP_PERMISSION_ASK), ==, "ask");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/permissions/no-rule-asks", test_no_rule_asks);
  g_test_add_func ("/manager/permissions/server-rule", test_server_rule);
  g_test_add_func ("/manager/permissions/wildcard-rule", test_wildcard_rule);
  g_test_add_func ("/manager/permissions/tool-rule", test_tool_rule);
  g_test_add_func ("/manager/permissions/precedence", test_precedence);
  g_test_add_func ("/manager/permissions/deny-server-over-allow-tool", test_deny_server_over_allow_tool);
  g_test_add_func ("/manager/permissions/sanitized-rules", test_sanitized_rules);
  g_test_add_func ("/manager/permissions/to-string", test_to_string);

  return g_test_run ();
}
