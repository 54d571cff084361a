/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-approval"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp-json-private.h"
#include "mcp-launch.h"
#include "mcp-settings.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-util.h"

/* Approval of a project server is bound to what it runs (issue 20,
 * finding 2): real settings files, a real symlinked project folder. */

#define SECRET "s3cr3t-token-value-42"

typedef struct
{
  TestDirs     dirs;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  test_dirs_init (&f->dirs, "approval");
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  test_dirs_clear (&f->dirs);
}

static void
approve (McpSettings *settings,
         const char  *name,
         gboolean     approved)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_settings_set_approval_async (settings, name, approved, NULL, test_result_cb, &result);
  g_assert_true (mcp_settings_set_approval_finish (settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_no_error (error);
}

static JsonNode *
parse_file (const char *path)
{
  g_autofree char *text = test_read_file (path);
  JsonNode *node = mcp_json_parse (text, strlen (text), NULL);

  g_assert_nonnull (node);
  return node;
}

/* projects[@dir].approvedMcpjsonServers[@name] in the user file, or NULL */
static JsonObject *
dup_bound (const char *user_file,
           const char *dir,
           const char *name)
{
  g_autoptr(JsonNode) root = parse_file (user_file);
  JsonObject *object = json_node_get_object (root);
  JsonNode *node;

  node = json_object_get_member (object, "projects");
  if (node == NULL)
    return NULL;
  node = json_object_get_member (json_node_get_object (node), dir);
  if (node == NULL)
    return NULL;
  node = json_object_get_member (json_node_get_object (node), "approvedMcpjsonServers");
  if (node == NULL)
    return NULL;
  node = json_object_get_member (json_node_get_object (node), name);
  if (node == NULL)
    return NULL;

  return json_object_ref (json_node_get_object (node));
}

static gboolean
is_enabled (McpSettings *settings,
            const char  *name)
{
  McpServerConfig *config = mcp_settings_lookup (settings, name);

  g_assert_nonnull (config);
  return mcp_server_config_get_enabled (config);
}

static gboolean
is_pending (McpSettings *settings,
            const char  *name)
{
  g_auto(GStrv) pending = mcp_settings_dup_pending_approvals (settings);

  return g_strv_contains ((const char * const *) pending, name);
}

static char *
join_changes (McpSettings *settings,
              const char  *name)
{
  g_auto(GStrv) changes = mcp_settings_dup_approval_changes (settings, name);

  g_assert_nonnull (changes);
  g_assert_nonnull (changes[0]);
  return g_strjoinv ("\n", changes);
}

static const char *original =
  "{\"mcpServers\": {"
  "  \"p\": {\"command\": \"tool\", \"args\": [\"--serve\"], \"cwd\": \"/tmp\","
  "         \"env\": {\"API_KEY\": \"" SECRET "\"}},"
  "  \"r\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\","
  "         \"headers\": {\"Authorization\": \"Bearer " SECRET "\"}}"
  "}}";

typedef struct
{
  const char *what;
  const char *server;
  const char *json;
  const char *shown;    /* in the lines of what changed */
} Change;

static const Change changes[] = {
  { "command", "p",
    "{\"mcpServers\": {\"p\": {\"command\": \"evil\", \"args\": [\"--serve\"], \"cwd\": \"/tmp\","
    " \"env\": {\"API_KEY\": \"" SECRET "\"}}}}", "“tool” → “evil”" },
  { "args", "p",
    "{\"mcpServers\": {\"p\": {\"command\": \"tool\", \"args\": [\"--serve\", \"--rm\"], \"cwd\": \"/tmp\","
    " \"env\": {\"API_KEY\": \"" SECRET "\"}}}}", "“--serve” → “--serve --rm”" },
  { "env value", "p",
    "{\"mcpServers\": {\"p\": {\"command\": \"tool\", \"args\": [\"--serve\"], \"cwd\": \"/tmp\","
    " \"env\": {\"API_KEY\": \"other-" SECRET "\"}}}}", "API_KEY: value changed (*** → ***)" },
  { "env name", "p",
    "{\"mcpServers\": {\"p\": {\"command\": \"tool\", \"args\": [\"--serve\"], \"cwd\": \"/tmp\","
    " \"env\": {\"API_KEY\": \"" SECRET "\", \"LD_PRELOAD\": \"/tmp/x.so\"}}}}", "LD_PRELOAD: added (***)" },
  { "cwd", "p",
    "{\"mcpServers\": {\"p\": {\"command\": \"tool\", \"args\": [\"--serve\"], \"cwd\": \"/var\","
    " \"env\": {\"API_KEY\": \"" SECRET "\"}}}}", "“/tmp” → “/var”" },
  { "url", "r",
    "{\"mcpServers\": {\"r\": {\"type\": \"http\", \"url\": \"https://evil.example/mcp\","
    " \"headers\": {\"Authorization\": \"Bearer " SECRET "\"}}}}", "“https://example.com/mcp” → “https://evil.example/mcp”" },
  { "header value", "r",
    "{\"mcpServers\": {\"r\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\","
    " \"headers\": {\"Authorization\": \"Bearer other\"}}}}", "Authorization: value changed (*** → ***)" },
  { "transport", "r",
    "{\"mcpServers\": {\"r\": {\"type\": \"sse\", \"url\": \"https://example.com/mcp\","
    " \"headers\": {\"Authorization\": \"Bearer " SECRET "\"}}}}", "“http” → “sse”" },
};

/* Approve both, then change one thing at a time: the server is changed
 * since approval, does not start and is pending again; what changed is
 * said with the secret masked; approving again binds the new launch. */
static void
test_changes (Fixture       *f,
              gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (changes); i++)
    {
      const Change *change = &changes[i];
      g_autoptr(McpSettings) settings = NULL;
      g_autoptr(McpSettings) changed = NULL;
      g_autoptr(McpSettings) again = NULL;
      g_autoptr(JsonObject) bound = NULL;
      g_autofree char *user_text = NULL;
      g_autofree char *lines = NULL;

      g_test_message ("change: %s", change->what);
      g_remove (f->dirs.user_file);
      test_write_file (f->dirs.project_file, original);

      settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
      g_assert_cmpint (mcp_settings_get_approval (settings, change->server), ==, MCP_APPROVAL_PENDING);
      /* it says why it is off (its log said only "Disabled") */
      g_assert_cmpstr (mcp_server_config_get_disabled_reason (mcp_settings_lookup (settings, change->server)),
                       ==, "awaiting approval");
      approve (settings, change->server, TRUE);
      g_assert_cmpint (mcp_settings_get_approval (settings, change->server), ==, MCP_APPROVAL_APPROVED);
      g_assert_true (is_enabled (settings, change->server));

      bound = dup_bound (f->dirs.user_file, f->dirs.project_dir, change->server);
      g_assert_nonnull (bound);
      g_assert_true (g_str_has_prefix (json_object_get_string_member (bound, "digest"), "sha256:"));
      g_assert_cmpuint (strlen (json_object_get_string_member (bound, "digest")), ==, 7 + 64);
      /* no secret in clear in the settings file */
      user_text = test_read_file (f->dirs.user_file);
      g_assert_null (strstr (user_text, SECRET));

      /* unchanged: still approved in a new process */
      g_clear_object (&settings);
      settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
      g_assert_cmpint (mcp_settings_get_approval (settings, change->server), ==, MCP_APPROVAL_APPROVED);
      g_assert_true (is_enabled (settings, change->server));
      g_assert_null (mcp_settings_dup_approval_changes (settings, change->server));

      test_write_file (f->dirs.project_file, change->json);
      changed = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
      g_assert_cmpint (mcp_settings_get_approval (changed, change->server), ==, MCP_APPROVAL_CHANGED);
      g_assert_false (is_enabled (changed, change->server));
      g_assert_cmpstr (mcp_server_config_get_disabled_reason (mcp_settings_lookup (changed, change->server)),
                       ==, "changed since approval");
      g_assert_true (is_pending (changed, change->server));
      lines = join_changes (changed, change->server);
      g_test_message ("%s", lines);
      g_assert_nonnull (strstr (lines, change->shown));
      g_assert_null (strstr (lines, SECRET));

      /* approving again binds what runs now */
      approve (changed, change->server, TRUE);
      g_assert_cmpint (mcp_settings_get_approval (changed, change->server), ==, MCP_APPROVAL_APPROVED);
      again = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
      g_assert_cmpint (mcp_settings_get_approval (again, change->server), ==, MCP_APPROVAL_APPROVED);
      g_assert_true (is_enabled (again, change->server));
    }
}

/* A ${VAR} is approved as what it expands to. */
static void
test_variable (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpSettings) changed = NULL;
  g_autofree char *lines = NULL;

  g_setenv ("PLUGBOARD_TEST_TOOL", "safe-tool", TRUE);
  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"${PLUGBOARD_TEST_TOOL}\"}}}");
  settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  approve (settings, "p", TRUE);

  g_setenv ("PLUGBOARD_TEST_TOOL", "evil-tool", TRUE);
  changed = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  g_unsetenv ("PLUGBOARD_TEST_TOOL");
  g_assert_cmpint (mcp_settings_get_approval (changed, "p"), ==, MCP_APPROVAL_CHANGED);
  g_assert_false (is_enabled (changed, "p"));
  lines = join_changes (changed, "p");
  /* the command is shown as written; what it expands to is not */
  g_assert_null (strstr (lines, "evil-tool"));
}

/* An approval by name (an older Plugboard, Claude Code's keys) works the
 * first time and is bound by it: the file gets the digest, and only that
 * member; the next load writes nothing; a change is then caught. */
static void
test_name_only (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *key = NULL;
  g_autofree char *user_json = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *after_second = NULL;
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpSettings) second = NULL;
  g_autoptr(McpSettings) changed = NULL;
  g_autoptr(JsonObject) bound = NULL;
  g_autoptr(JsonNode) before_node = NULL;
  g_autoptr(JsonNode) after_node = NULL;
  g_autoptr(GString) quoted = g_string_new (NULL);
  JsonObject *entry;

  mcp_json_append_string (quoted, f->dirs.project_dir);
  key = g_string_free (g_steal_pointer (&quoted), FALSE);
  user_json = g_strdup_printf ("{\n  \"theme\": \"dark\",\n  \"projects\": {\n    %s: {\n"
                               "      \"enabledMcpjsonServers\": [\"p\"],\n      \"other\": 1\n    }\n  }\n}\n",
                               key);
  test_write_file (f->dirs.user_file, user_json);
  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"tool\"}, \"q\": {\"command\": \"q\"}}}");
  before = test_read_file (f->dirs.user_file);

  settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  g_assert_cmpint (mcp_settings_get_approval (settings, "p"), ==, MCP_APPROVAL_APPROVED);
  g_assert_true (is_enabled (settings, "p"));
  g_assert_cmpint (mcp_settings_get_approval (settings, "q"), ==, MCP_APPROVAL_PENDING);

  after = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (after, !=, before);
  bound = dup_bound (f->dirs.user_file, f->dirs.project_dir, "p");
  g_assert_nonnull (bound);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (bound, "digest"), "sha256:"));
  g_assert_null (dup_bound (f->dirs.user_file, f->dirs.project_dir, "q"));
  /* every other member kept, byte for byte */
  g_assert_true (g_str_has_prefix (after, "{\n  \"theme\": \"dark\",\n  \"projects\": {\n"));
  g_assert_nonnull (strstr (after, "\"enabledMcpjsonServers\": [\"p\"],\n      \"other\": 1"));
  /* and nothing else changed: without the new member, the same JSON */
  before_node = mcp_json_parse (user_json, strlen (user_json), NULL);
  after_node = parse_file (f->dirs.user_file);
  entry = json_node_get_object (json_object_get_member (json_object_get_object_member (
    json_node_get_object (after_node), "projects"), f->dirs.project_dir));
  g_assert_true (json_object_has_member (entry, "approvedMcpjsonServers"));
  json_object_remove_member (entry, "approvedMcpjsonServers");
  g_assert_true (mcp_json_equal (before_node, after_node));

  /* bound once: the next load writes nothing */
  second = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  g_assert_cmpint (mcp_settings_get_approval (second, "p"), ==, MCP_APPROVAL_APPROVED);
  after_second = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (after_second, ==, after);

  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"evil\"}}}");
  changed = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  g_assert_cmpint (mcp_settings_get_approval (changed, "p"), ==, MCP_APPROVAL_CHANGED);
  g_assert_false (is_enabled (changed, "p"));
}

/* "enableAllProjectMcpServers" approves each server by name: each is
 * bound as it first loads, and changed ones stop. */
static void
test_enable_all (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GString) user = g_string_new ("{\"projects\": {");
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpSettings) changed = NULL;
  g_autoptr(JsonObject) bound = NULL;

  mcp_json_append_string (user, f->dirs.project_dir);
  g_string_append (user, ": {\"enableAllProjectMcpServers\": true}}}");
  test_write_file (f->dirs.user_file, user->str);
  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"tool\"}}}");

  settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  g_assert_cmpint (mcp_settings_get_approval (settings, "p"), ==, MCP_APPROVAL_APPROVED);
  bound = dup_bound (f->dirs.user_file, f->dirs.project_dir, "p");
  g_assert_nonnull (bound);

  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"evil\"}}}");
  changed = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  g_assert_cmpint (mcp_settings_get_approval (changed, "p"), ==, MCP_APPROVAL_CHANGED);
  g_assert_false (is_enabled (changed, "p"));
}

/* Rejecting takes the digest away. */
static void
test_reject (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(McpSettings) settings = NULL;

  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"tool\"}}}");
  settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);
  approve (settings, "p", TRUE);
  {
    g_autoptr(JsonObject) kept = dup_bound (f->dirs.user_file, f->dirs.project_dir, "p");

    g_assert_nonnull (kept);
  }
  approve (settings, "p", FALSE);
  g_assert_null (dup_bound (f->dirs.user_file, f->dirs.project_dir, "p"));
  g_assert_cmpint (mcp_settings_get_approval (settings, "p"), ==, MCP_APPROVAL_REJECTED);
}

/* Approved through a link to dir1; the link is pointed at dir2, whose
 * .mcp.json names the same server with the same command: not approved. */
static void
test_symlink (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *dir1 = g_build_filename (f->dirs.root, "dir1", NULL);
  g_autofree char *dir2 = g_build_filename (f->dirs.root, "dir2", NULL);
  g_autofree char *link = g_build_filename (f->dirs.root, "link", NULL);
  g_autofree char *file1 = g_build_filename (dir1, ".mcp.json", NULL);
  g_autofree char *file2 = g_build_filename (dir2, ".mcp.json", NULL);
  const char *json = "{\"mcpServers\": {\"p\": {\"command\": \"tool\", \"args\": [\"serve\"]}}}";
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpSettings) same = NULL;
  g_autoptr(McpSettings) moved = NULL;
  g_autofree char *lines = NULL;

  test_write_file (file1, json);
  test_write_file (file2, json);
  g_assert_cmpint (symlink (dir1, link), ==, 0);

  settings = test_settings_load (f->dirs.user_dir, link);
  approve (settings, "p", TRUE);
  same = test_settings_load (f->dirs.user_dir, link);
  g_assert_cmpint (mcp_settings_get_approval (same, "p"), ==, MCP_APPROVAL_APPROVED);

  g_assert_cmpint (g_unlink (link), ==, 0);
  g_assert_cmpint (symlink (dir2, link), ==, 0);
  moved = test_settings_load (f->dirs.user_dir, link);
  g_assert_cmpint (mcp_settings_get_approval (moved, "p"), !=, MCP_APPROVAL_APPROVED);
  g_assert_cmpint (mcp_settings_get_approval (moved, "p"), ==, MCP_APPROVAL_CHANGED);
  g_assert_false (is_enabled (moved, "p"));
  lines = join_changes (moved, "p");
  g_assert_nonnull (strstr (lines, dir1));
  g_assert_nonnull (strstr (lines, dir2));
}

/* The digest: every field counts, and no two fields can be confused. */
static void
test_digest (void)
{
  const char *entries[] = {
    "{\"command\": \"a\", \"args\": [\"b c\"]}",
    "{\"command\": \"a\", \"args\": [\"b\", \"c\"]}",
    "{\"command\": \"a b\", \"args\": [\"c\"]}",
    "{\"command\": \"a\", \"env\": {\"X\": \"1=Y\"}}",
    "{\"command\": \"a\", \"env\": {\"X\": \"1\", \"Y\": \"2\"}}",
    "{\"command\": \"a\", \"cwd\": \"/\"}",
    "{\"type\": \"http\", \"url\": \"https://h/\"}",
    "{\"type\": \"http\", \"url\": \"https://h/\", \"headers\": {\"A\": \"b\"}}",
    "{\"type\": \"sse\", \"url\": \"https://h/\"}",
  };
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autoptr(JsonNode) node = mcp_json_parse (entries[i], strlen (entries[i]), NULL);
      g_autoptr(McpServerConfig) config = NULL;
      g_autoptr(GError) error = NULL;
      char *digest;

      config = mcp_server_config_new_from_json ("p", MCP_CONFIG_SCOPE_PROJECT, json_node_get_object (node),
                                                "/nonexistent/.mcp.json", "$.mcpServers.p", &error);
      g_assert_no_error (error);
      digest = mcp_launch_dup_digest (config, NULL);
      g_assert_false (g_hash_table_contains (seen, digest));
      g_hash_table_add (seen, digest);
    }

  /* the order env members are written in does not count */
  {
    const char *a = "{\"command\": \"a\", \"env\": {\"X\": \"1\", \"Y\": \"2\"}}";
    const char *b = "{\"command\": \"a\", \"env\": {\"Y\": \"2\", \"X\": \"1\"}}";
    g_autoptr(JsonNode) na = mcp_json_parse (a, strlen (a), NULL);
    g_autoptr(JsonNode) nb = mcp_json_parse (b, strlen (b), NULL);
    g_autoptr(McpServerConfig) ca = mcp_server_config_new_from_json ("p", MCP_CONFIG_SCOPE_PROJECT, json_node_get_object (na),
                                                                     "/x/.mcp.json", "$", NULL);
    g_autoptr(McpServerConfig) cb = mcp_server_config_new_from_json ("p", MCP_CONFIG_SCOPE_PROJECT, json_node_get_object (nb),
                                                                     "/x/.mcp.json", "$", NULL);
    g_autofree char *da = mcp_launch_dup_digest (ca, NULL);
    g_autofree char *db = mcp_launch_dup_digest (cb, NULL);

    g_assert_cmpstr (da, ==, db);
  }
}

static void
set_rule (McpSettings    *settings,
          const char     *rule,
          McpConfigScope  scope,
          McpRuleList     list)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_settings_set_rule_async (settings, rule, scope, list, NULL, test_result_cb, &result);
  mcp_settings_set_rule_finish (settings, test_wait_result (&result, G_STRLOC), &error);
  g_assert_no_error (error);
}

static gboolean
strv_has (const char * const *strv,
          const char         *value)
{
  return strv != NULL && g_strv_contains (strv, value);
}

/* Issue 21, view 9: the permissions editor writes rules: one list at a
 * time, in the user or the project's local scope, the rest of the file
 * kept byte for byte. */
static void
test_set_rule (Fixture       *f,
               gconstpointer  data)
{
  static const char user_text[] =
    "{\n  \"theme\":   \"mine\",\n  \"mcpServers\": {\"a\": {\"command\": \"true\", \"timeout\": 1e3}},\n"
    "  \"permissions\": {\"allow\": [\"mcp__b\"]}\n}\n";
  g_autoptr(McpSettings) settings = NULL;
  g_autofree char *text = NULL;
  const char *rule = "mcp__a__write";

  g_assert_cmpint (g_mkdir_with_parents (f->dirs.user_dir, 0700), ==, 0);
  test_write_file (f->dirs.user_file, user_text);
  settings = test_settings_load (f->dirs.user_dir, f->dirs.project_dir);

  set_rule (settings, rule, MCP_CONFIG_SCOPE_USER, MCP_RULE_ASK);
  g_assert_true (strv_has (mcp_settings_get_permissions_ask (settings), rule));
  g_assert_false (strv_has (mcp_settings_get_permissions_allow (settings), rule));
  g_assert_true (strv_has (mcp_settings_get_permissions_allow (settings), "mcp__b"));

  set_rule (settings, rule, MCP_CONFIG_SCOPE_USER, MCP_RULE_DENY);
  g_assert_true (strv_has (mcp_settings_get_permissions_deny (settings), rule));
  g_assert_false (strv_has (mcp_settings_get_permissions_ask (settings), rule));

  /* an unknown key with its spacing, the number as written and the other
   * rule stay */
  text = test_read_file (f->dirs.user_file);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "\"theme\":   \"mine\""));
  g_assert_nonnull (strstr (text, "1e3"));
  g_assert_nonnull (strstr (text, "\"mcp__b\""));
  g_clear_pointer (&text, g_free);

  /* local scope: under this project's entry */
  set_rule (settings, "mcp__a", MCP_CONFIG_SCOPE_LOCAL, MCP_RULE_ALLOW);
  g_assert_true (strv_has (mcp_settings_get_permissions_allow (settings), "mcp__a"));
  {
    g_autoptr(JsonNode) root = parse_file (f->dirs.user_file);
    JsonObject *projects = json_object_get_object_member (json_node_get_object (root), "projects");
    JsonObject *entry = json_object_get_object_member (projects, mcp_settings_get_project_dir (settings));
    JsonArray *allow = json_object_get_array_member (json_object_get_object_member (entry, "permissions"), "allow");

    g_assert_cmpuint (json_array_get_length (allow), ==, 1);
    g_assert_cmpstr (json_array_get_string_element (allow, 0), ==, "mcp__a");
  }
  /* each scope's own lists, for the overview of every rule */
  g_assert_true (strv_has (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_LOCAL, MCP_RULE_ALLOW), "mcp__a"));
  g_assert_false (strv_has (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_USER, MCP_RULE_ALLOW), "mcp__a"));
  g_assert_true (strv_has (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_USER, MCP_RULE_ALLOW), "mcp__b"));
  g_assert_false (strv_has (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_LOCAL, MCP_RULE_ALLOW), "mcp__b"));
  g_assert_true (strv_has (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_USER, MCP_RULE_DENY), rule));
  g_assert_null (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_USER, MCP_RULE_ASK)[0]);
  g_assert_null (mcp_settings_get_scope_rules (settings, MCP_CONFIG_SCOPE_PROJECT, MCP_RULE_DENY)[0]);

  /* none: out of every list, and the decision is the default again */
  set_rule (settings, rule, MCP_CONFIG_SCOPE_USER, MCP_RULE_NONE);
  set_rule (settings, "mcp__a", MCP_CONFIG_SCOPE_LOCAL, MCP_RULE_NONE);
  g_assert_false (strv_has (mcp_settings_get_permissions_deny (settings), rule));
  g_assert_false (strv_has (mcp_settings_get_permissions_allow (settings), "mcp__a"));
  g_assert_true (strv_has (mcp_settings_get_permissions_allow (settings), "mcp__b"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config/approval/digest", test_digest);
  g_test_add ("/config/approval/changes", Fixture, NULL, fixture_set_up, test_changes, fixture_tear_down);
  g_test_add ("/config/approval/variable", Fixture, NULL, fixture_set_up, test_variable, fixture_tear_down);
  g_test_add ("/config/approval/name-only", Fixture, NULL, fixture_set_up, test_name_only, fixture_tear_down);
  g_test_add ("/config/approval/enable-all", Fixture, NULL, fixture_set_up, test_enable_all, fixture_tear_down);
  g_test_add ("/config/approval/reject", Fixture, NULL, fixture_set_up, test_reject, fixture_tear_down);
  g_test_add ("/config/approval/symlink", Fixture, NULL, fixture_set_up, test_symlink, fixture_tear_down);
  g_test_add ("/config/permissions/set-rule", Fixture, NULL, fixture_set_up, test_set_rule, fixture_tear_down);

  return g_test_run ();
}
