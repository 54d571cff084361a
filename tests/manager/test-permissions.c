/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-permissions"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "mcp-permissions.h"
#include "mcp-settings.h"
#include "mcp-tool-pool.h"
#include "permission-table.h"
#include "test-fake-connection.h"
#include "test-util.h"

/* The one permission evaluator (issue 20, finding 3): rules matched on the
 * parsed (server, tool) pair, deny > ask > allow, one default. */

static McpPermissionDecision
decide (McpPermissions     *permissions,
        const char         *server,
        const char         *tool,
        McpPermissionHints  hints)
{
  McpPermissionDecision decision = { MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_COMMAND_LINE, "unset" };

  mcp_permissions_decide (permissions, server, tool, hints, &decision);
  return decision;
}

#define HARMFUL (MCP_PERMISSION_HINT_DESTRUCTIVE | MCP_PERMISSION_HINT_OPEN_WORLD)
#define HARMLESS MCP_PERMISSION_HINT_NONE

static void
assert_decision (McpPermissionDecision decision,
                 McpPermission         permission,
                 McpPermissionReason   reason,
                 const char           *rule)
{
  g_assert_cmpstr (mcp_permission_to_string (decision.permission), ==, mcp_permission_to_string (permission));
  g_assert_cmpstr (mcp_permission_reason_to_string (decision.reason), ==, mcp_permission_reason_to_string (reason));
  g_assert_cmpstr (decision.rule, ==, rule);
}

static void
test_default (void)
{
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (NULL, NULL, NULL);

  assert_decision (decide (permissions, "fs", "read", HARMLESS),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_DEFAULT_CONSENT, NULL);
  assert_decision (decide (permissions, "fs", "write", MCP_PERMISSION_HINT_DESTRUCTIVE),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "fs", "fetch", MCP_PERMISSION_HINT_OPEN_WORLD),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "fs", "both", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
}

static void
test_server_and_tool_rules (void)
{
  const char *allow[] = { "mcp__fs", NULL };
  const char *deny[] = { "mcp__fs__delete", NULL };
  const char *ask[] = { "mcp__web__*", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, ask);

  assert_decision (decide (permissions, "fs", "read", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__fs");
  assert_decision (decide (permissions, "fs", "delete", HARMLESS),
                   MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, "mcp__fs__delete");
  assert_decision (decide (permissions, "web", "get", HARMLESS),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_RULE, "mcp__web__*");
  /* Whole names: no prefix of a server or a tool. */
  assert_decision (decide (permissions, "fs2", "read", HARMLESS),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_DEFAULT_CONSENT, NULL);
  assert_decision (decide (permissions, "fs", "delete_all", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__fs");
  assert_decision (decide (permissions, "webs", "get", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
}

/* allow: ["mcp__a"] allowed every tool of a server named a__evil. */
static void
test_underscores_do_not_reach_another_server (void)
{
  const char *allow[] = { "mcp__a", "mcp__b__run", NULL };
  const char *servers[] = { "a", "a__evil", "b", "b__run", NULL };
  g_autoptr(McpPermissions) unknown = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(McpPermissions) known = mcp_permissions_new_for_servers (allow, NULL, NULL, servers);
  McpPermissions *both[] = { unknown, known };

  for (guint i = 0; i < G_N_ELEMENTS (both); i++)
    {
      assert_decision (decide (both[i], "a", "x", HARMFUL),
                       MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__a");
      assert_decision (decide (both[i], "a__evil", "x", HARMFUL),
                       MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
      assert_decision (decide (both[i], "a__evil", "__x", HARMFUL),
                       MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
      /* A server named "a_" (or "a-") is not "a" either. */
      assert_decision (decide (both[i], "a_", "x", HARMFUL),
                       MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
    }

  /* mcp__b__run: the tool run of b, or every tool of b__run. Not knowing
   * the servers, each server reads it its own way; knowing both, it is
   * ambiguous, and an allow rule that is ambiguous allows nothing. */
  assert_decision (decide (unknown, "b", "run", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__b__run");
  assert_decision (decide (known, "b", "run", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (known, "b__run", "anything", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (known, "b", "other", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  g_assert_null (mcp_permissions_get_notes (unknown)[0]);
  g_assert_nonnull (mcp_permissions_get_notes (known)[0]);
  g_assert_nonnull (strstr (mcp_permissions_get_notes (known)[0], "mcp__b__run"));
  g_assert_nonnull (strstr (mcp_permissions_get_notes (known)[0], "allows none"));
  g_assert_null (mcp_permissions_get_notes (known)[1]);
}

/* Tool names with __: a rule is read at each __; only readings naming a
 * configured server count. */
static void
test_tool_names_with_underscores (void)
{
  const char *allow[] = { "mcp__a__b__c", NULL };
  const char *deny[] = { "mcp__x__y__z", NULL };
  const char *one[] = { "a", "x", NULL };
  const char *two[] = { "a", "x", "x__y", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new_for_servers (allow, deny, NULL, one);
  g_autoptr(McpPermissions) ambiguous = mcp_permissions_new_for_servers (allow, deny, NULL, two);

  assert_decision (decide (permissions, "a", "b__c", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__a__b__c");
  assert_decision (decide (permissions, "a", "b", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "a", "c", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "x", "y__z", HARMLESS),
                   MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, "mcp__x__y__z");

  /* x and x__y both configured: the deny rule applies to either reading. */
  assert_decision (decide (ambiguous, "x", "y__z", HARMLESS),
                   MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, "mcp__x__y__z");
  assert_decision (decide (ambiguous, "x__y", "z", HARMLESS),
                   MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, "mcp__x__y__z");
  assert_decision (decide (ambiguous, "x__y", "w", HARMLESS),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_DEFAULT_CONSENT, NULL);
  /* the allow rule is not ambiguous here (no server a__b) */
  assert_decision (decide (ambiguous, "a", "b__c", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__a__b__c");
  g_assert_nonnull (strstr (mcp_permissions_get_notes (ambiguous)[0], "applies to each"));
}

/* deny > ask > allow (Claude Code's order); allow used to beat ask. */
static void
test_order (void)
{
  const char *allow[] = { "mcp__s", "mcp__s__t", NULL };
  const char *ask[] = { "mcp__s__t", "mcp__s__u", NULL };
  const char *deny[] = { "mcp__s__u", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, ask);

  assert_decision (decide (permissions, "s", "t", HARMLESS),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_RULE, "mcp__s__t");
  assert_decision (decide (permissions, "s", "u", HARMLESS),
                   MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, "mcp__s__u");
  assert_decision (decide (permissions, "s", "v", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__s");
  /* A server-wide ask beats a tool's allow too. */
  {
    const char *allow_tool[] = { "mcp__s__t", NULL };
    const char *ask_server[] = { "mcp__s__*", NULL };
    g_autoptr(McpPermissions) wide = mcp_permissions_new (allow_tool, NULL, ask_server);

    assert_decision (decide (wide, "s", "t", HARMLESS),
                     MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_RULE, "mcp__s__*");
  }
}

static void
test_wildcard (void)
{
  const char *allow[] = { "mcp__a__*", "mcp__b*", "mcp__c__d*", "mcp__*", "mcp__e__*__f", NULL };
  const char *servers[] = { "a", "a__b", "b", "bb", "c", "e", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new_for_servers (allow, NULL, NULL, servers);

  assert_decision (decide (permissions, "a", "anything", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__a__*");
  /* mcp__a__* names only the server a */
  assert_decision (decide (permissions, "a__b", "x", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  /* a wildcard anywhere else: the rule is ignored */
  assert_decision (decide (permissions, "b", "x", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "bb", "x", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "c", "d", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "e", "f", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
}

/* Names are compared as qualified names make them: characters outside
 * [A-Za-z0-9_-] as one `_` each, in the rule and in the names. */
static void
test_normalised (void)
{
  const char *allow[] = { "mcp__my.server__read file", "  mcp__caf\xc3\xa9  ", NULL };
  const char *deny[] = { "mcp__my_server__rm", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, NULL);

  assert_decision (decide (permissions, "my server", "read.file", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "mcp__my.server__read file");
  assert_decision (decide (permissions, "my.server", "r m", HARMLESS),
                   MCP_PERMISSION_ALLOW,
                   MCP_PERMISSION_REASON_DEFAULT_CONSENT, NULL);
  assert_decision (decide (permissions, "my.server", "rm", HARMLESS),
                   MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, "mcp__my_server__rm");
  /* é is one character: café and caf! read alike, cafe and caf__ do not */
  assert_decision (decide (permissions, "caf\xc3\xa9", "x", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "  mcp__caf\xc3\xa9  ");
  assert_decision (decide (permissions, "caf!", "x", HARMFUL),
                   MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_RULE, "  mcp__caf\xc3\xa9  ");
  assert_decision (decide (permissions, "cafe", "x", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (permissions, "caf__", "x", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
}

static void
test_empty_and_foreign_rules (void)
{
  const char *empty[] = { NULL };
  const char *odd[] = { "", "   ", "mcp__", "mcp____", "mcp", "Bash(ls:*)", "Read", "mcp_fs", "MCP__fs", NULL };
  g_autoptr(McpPermissions) none = mcp_permissions_new (empty, empty, empty);
  g_autoptr(McpPermissions) foreign = mcp_permissions_new (odd, NULL, NULL);

  assert_decision (decide (none, "fs", "read", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (foreign, "fs", "read", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (foreign, "", "", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  assert_decision (decide (foreign, "_", "_", HARMFUL),
                   MCP_PERMISSION_ASK, MCP_PERMISSION_REASON_DEFAULT_ASK, NULL);
  g_assert_null (mcp_permissions_get_notes (foreign)[0]);
}

static void
test_command_line (void)
{
  g_autoptr(McpPermissions) permissions = mcp_permissions_new_command_line ();
  McpPermissionDecision decision = decide (permissions, "", "rm", HARMFUL);
  g_autofree char *text = NULL;

  assert_decision (decision, MCP_PERMISSION_ALLOW, MCP_PERMISSION_REASON_COMMAND_LINE, NULL);
  text = mcp_permission_decision_describe (&decision);
  g_assert_nonnull (strstr (text, "command line"));
}

/* Every decision in one sentence naming its rule; the reasons differ. */
static void
test_describe (void)
{
  const char *deny[] = { "mcp__s__d", NULL };
  const char *ask[] = { "mcp__s__q", NULL };
  const char *allow[] = { "mcp__s__a", NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, deny, ask);
  struct { const char *tool; McpPermissionHints hints; const char *expect; } cases[] = {
    { "d", HARMLESS, "Denied by the permission rule “mcp__s__d”" },
    { "q", HARMLESS, "The permission rule “mcp__s__q” says to ask first" },
    { "a", HARMFUL, "Allowed by the permission rule “mcp__s__a”" },
    { "x", HARMLESS, "neither destructive nor open-world" },
    { "y", HARMFUL, "may be destructive" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      McpPermissionDecision decision = decide (permissions, "s", cases[i].tool, cases[i].hints);
      g_autofree char *text = mcp_permission_decision_describe (&decision);

      g_assert_nonnull (strstr (text, cases[i].expect));
    }
}

/* ------------------------------------------------------------------------ */
/* The table                                                                */

static McpTool *
table_tool (const TableTool *spec)
{
  g_autofree char *json = g_strdup_printf ("{\"name\":\"%s\",\"inputSchema\":{\"type\":\"object\"}%s%s}",
                                           spec->name,
                                           spec->annotations ? ",\"annotations\":" : "",
                                           spec->annotations ? spec->annotations : "");
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  McpTool *tool;

  g_assert_nonnull (node);
  tool = mcp_tool_new_from_json (json_node_get_object (node), &error);
  g_assert_no_error (error);
  return tool;
}

/* Settings as the app and the CLI load them: a user settings file with
 * the rule, and the servers srv and srv__x (which no rule for srv may
 * reach). */
static McpSettings *
load_settings (const char *root,
               TableRule   rule,
               const char *rule_text)
{
  g_autofree char *user_dir = g_build_filename (root, "config", NULL);
  g_autofree char *project_dir = g_build_filename (root, "project", NULL);
  g_autofree char *file = g_build_filename (user_dir, "settings.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;

  g_assert_cmpint (g_mkdir_with_parents (user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);
  text = g_strdup_printf ("{\"mcpServers\": {\"srv\": {\"command\": \"true\"}, "
                          "\"srv__x\": {\"command\": \"true\"}}%s%s%s%s%s}",
                          rule != TABLE_RULE_NONE ? ", \"permissions\": {\"" : "",
                          rule != TABLE_RULE_NONE ? table_rule_list (rule) : "",
                          rule != TABLE_RULE_NONE ? "\": [\"" : "",
                          rule != TABLE_RULE_NONE ? rule_text : "",
                          rule != TABLE_RULE_NONE ? "\"]}" : "");
  g_file_set_contents (file, text, -1, &error);
  g_assert_no_error (error);

  settings = mcp_settings_new (user_dir, project_dir);
  mcp_settings_load_async (settings, NULL, test_result_cb, &result);
  test_iterate_until (test_result_set, &result, "settings loaded");
  g_assert_true (mcp_settings_load_finish (settings, result, &error));
  g_assert_no_error (error);
  return settings;
}

/* Every rule (none; allow, ask, deny for the server or the tool) times
 * every set of effective hints times every way of answering: the decision
 * of the evaluator made from the settings (as both fronts make it), for the
 * pool's tool (its real server and tool names and its effective hints),
 * is the documented one; and a tool of the server srv__x is never reached
 * by the rule. The CLI and the app are run against the same table in
 * test-cli-permissions and test-tool-page. */
static void
test_table (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("test-permissions-XXXXXX", &error);
  guint rows = 0;

  g_assert_no_error (error);

  for (TableRule rule = TABLE_RULE_NONE; rule < TABLE_N_RULES; rule++)
    for (TableLevel level = 0; level < TABLE_N_LEVELS; level++)
      {
        g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
        g_autoptr(TestFakeConnection) srv = test_fake_connection_new (NULL);
        g_autoptr(TestFakeConnection) evil = test_fake_connection_new (NULL);
        g_autoptr(McpToolPool) pool = NULL;
        g_autoptr(McpSettings) settings = NULL;
        g_autoptr(McpPermissions) permissions = NULL;

        if (rule == TABLE_RULE_NONE && level != TABLE_LEVEL_SERVER)
          continue;

        srv->name = g_strdup ("srv");
        evil->name = g_strdup ("srv__x");
        for (guint h = 0; h < G_N_ELEMENTS (table_tools); h++)
          {
            g_autoptr(McpTool) a = table_tool (&table_tools[h]);
            g_autoptr(McpTool) b = table_tool (&table_tools[h]);

            g_list_store_append (srv->tools, a);
            g_list_store_append (evil->tools, b);
          }
        g_list_store_append (connections, srv);
        g_list_store_append (connections, evil);
        pool = mcp_tool_pool_new (G_LIST_MODEL (connections));

        for (guint h = 0; h < G_N_ELEMENTS (table_tools); h++)
          {
            g_autofree char *rule_text = table_rule_text (level, "srv", table_tools[h].name);
            g_autofree char *qualified = mcp_tool_pool_make_name ("srv", table_tools[h].name);
            g_autofree char *evil_name = mcp_tool_pool_make_name ("srv__x", table_tools[h].name);
            McpPoolTool *tool = mcp_tool_pool_lookup (pool, qualified);
            McpPoolTool *evil_tool = mcp_tool_pool_lookup (pool, evil_name);
            McpPermission permission = table_expected_permission (rule, table_tools[h].effective);
            McpPermissionReason reason = table_expected_reason (rule, table_tools[h].effective);
            McpPermissionDecision decision = { 0 };
            McpPermissionDecision evil_decision = { 0 };

            g_clear_object (&permissions);
            g_clear_object (&settings);
            settings = load_settings (root, rule, rule_text);
            permissions = mcp_permissions_new_from_settings (settings);

            g_assert_nonnull (tool);
            g_assert_nonnull (evil_tool);
            g_assert_cmpint (mcp_permission_hints_for_tool (tool), ==, table_tools[h].effective);

            mcp_permissions_decide_tool (permissions, tool, &decision);
            g_test_message ("rule %s %s, tool %s: %s (%s)", table_rule_list (rule) ? table_rule_list (rule) : "none",
                            rule_text, table_tools[h].name, mcp_permission_to_string (decision.permission),
                            mcp_permission_reason_to_string (decision.reason));
            assert_decision (decision, permission, reason, rule != TABLE_RULE_NONE ? rule_text : NULL);

            /* srv__x is another server: only the default applies to it */
            mcp_permissions_decide_tool (permissions, evil_tool, &evil_decision);
            assert_decision (evil_decision,
                             table_expected_permission (TABLE_RULE_NONE, table_tools[h].effective),
                             table_expected_reason (TABLE_RULE_NONE, table_tools[h].effective), NULL);

            /* The same through the evaluator made from the lists. */
            {
              const char *list[] = { rule_text, NULL };
              const char *servers[] = { "srv", "srv__x", NULL };
              g_autoptr(McpPermissions) direct =
                mcp_permissions_new_for_servers (rule == TABLE_RULE_ALLOW ? list : NULL,
                                                 rule == TABLE_RULE_DENY ? list : NULL,
                                                 rule == TABLE_RULE_ASK ? list : NULL, servers);

              assert_decision (decide (direct, "srv", table_tools[h].name, table_tools[h].effective),
                               permission, reason, rule != TABLE_RULE_NONE ? rule_text : NULL);
            }

            for (TableAnswer answer = 0; answer < TABLE_N_ANSWERS; answer++)
              {
                TableOutcome outcome = table_expected_outcome (decision.permission, answer);

                /* Only an ask depends on who answers. */
                if (decision.permission == MCP_PERMISSION_ASK)
                  g_assert_cmpint (outcome, !=, TABLE_DENIED);
                else
                  g_assert_cmpint (outcome, ==, decision.permission == MCP_PERMISSION_ALLOW
                                                  ? TABLE_RUNS : TABLE_DENIED);
                rows++;
              }
          }
      }

  g_assert_cmpuint (rows, ==, 7 * G_N_ELEMENTS (table_tools) * TABLE_N_ANSWERS);
  test_remove_tree (root);
}

/* What the permissions overview accepts as a new rule is what the
 * evaluator reads. */
static void
test_check_rule (void)
{
  static const char * const good[] = {
    "mcp__github", "mcp__github__*", "mcp__github__create_issue", "  mcp__a__b__c ", "mcp__my server",
  };
  static const char * const bad[] = {
    "", "mcp__", "mcp", "Bash(rm:*)", "mcp__*", "mcp____*", "mcp__a*", "mcp__a__*__b", "github",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (mcp_permissions_check_rule (good[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      const char * const none[] = { NULL };
      const char * const one[] = { bad[i], NULL };
      g_autoptr(McpPermissions) permissions = mcp_permissions_new (none, one, none);
      McpPermissionDecision decision = { 0 };

      g_test_message ("%s", bad[i]);
      g_assert_false (mcp_permissions_check_rule (bad[i], &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, bad[i]));
      /* and the evaluator ignores it: as a deny rule it denies nothing */
      mcp_permissions_decide (permissions, "a", "b", MCP_PERMISSION_HINT_NONE, &decision);
      g_assert_cmpint (decision.reason, !=, MCP_PERMISSION_REASON_RULE);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/permissions/default", test_default);
  g_test_add_func ("/permissions/server-and-tool-rules", test_server_and_tool_rules);
  g_test_add_func ("/permissions/underscores-do-not-reach-another-server",
                   test_underscores_do_not_reach_another_server);
  g_test_add_func ("/permissions/tool-names-with-underscores", test_tool_names_with_underscores);
  g_test_add_func ("/permissions/order", test_order);
  g_test_add_func ("/permissions/wildcard", test_wildcard);
  g_test_add_func ("/permissions/normalised", test_normalised);
  g_test_add_func ("/permissions/empty-and-foreign-rules", test_empty_and_foreign_rules);
  g_test_add_func ("/permissions/command-line", test_command_line);
  g_test_add_func ("/permissions/describe", test_describe);
  g_test_add_func ("/permissions/table", test_table);
  g_test_add_func ("/permissions/check-rule", test_check_rule);

  return g_test_run ();
}
