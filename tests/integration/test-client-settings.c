/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client-settings"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "everything-fixture.h"
#include "mcp-json-document.h"
#include "mcp-project.h"
#include "mcp-token-store.h"
#include "test-engine.h"
#include "test-json.h"
#include "test-util.h"

/* Other MCP clients' settings opened as Plugboard's own (issue 26): a
 * fake home (HOME and XDG_CONFIG_HOME of the test's own, made anew for
 * each test) with each client's files as people have
 * them (comments, members Plugboard does not know, odd indentation, other
 * settings around), an McpProject for the client, real servers
 * (server-everything over stdio and Streamable HTTP), and every edit
 * checked byte for byte: only the entry changed. */

typedef struct
{
  char           *home;
  char           *config;        /* XDG_CONFIG_HOME */
  char           *plugboard_dir; /* Plugboard's own user folder */
  char           *project_dir;
  char           *node;
  char           *script;
  McpTokenStore  *store;
  McpProject     *project;
  GSubprocess    *http;          /* server-everything streamableHttp, when started */
  guint16         http_port;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *store_path = NULL;

  f->home = g_strdup (g_get_home_dir ());
  f->config = g_strdup (g_get_user_config_dir ());
  g_assert_true (g_str_has_prefix (f->config, f->home));
  f->plugboard_dir = g_build_filename (f->config, "plugboard", NULL);
  f->project_dir = g_build_filename (f->home, "work", "my project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (f->project_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (f->plugboard_dir, 0700), ==, 0);
  store_path = g_build_filename (f->home, "credentials.json", NULL);
  f->store = mcp_token_store_new ("file", store_path);
  f->node = test_find_node ();
  f->script = test_find_node_module (TEST_EVERYTHING_SCRIPT);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  if (f->project != NULL)
    test_manager_close (mcp_project_get_manager (f->project));
  g_clear_object (&f->project);
  if (f->http != NULL)
    {
      g_subprocess_force_exit (f->http);
      g_subprocess_wait (f->http, NULL, NULL);
    }
  g_clear_object (&f->http);
  g_clear_object (&f->store);
  test_remove_tree (f->home);
  g_free (f->home);
  g_free (f->config);
  g_free (f->plugboard_dir);
  g_free (f->project_dir);
  g_free (f->node);
  g_free (f->script);
}

/* Whether server-everything can run (else the test is skipped) */
static gboolean
have_everything (Fixture *f)
{
  return test_have_node_script (f->node, f->script);
}

/* server-everything over Streamable HTTP on a port of its own; its URL */
static char *
start_http (Fixture *f)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port = NULL;

  f->http_port = test_pick_port ();
  port = g_strdup_printf ("%u", f->http_port);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PORT", port, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  f->http = g_subprocess_launcher_spawn (launcher, &error, f->node, f->script, "streamableHttp", NULL);
  g_assert_no_error (error);
  test_wait_listening (f->http_port, 15, "server-everything over Streamable HTTP");

  return g_strdup_printf ("http://127.0.0.1:%u/mcp", f->http_port);
}

/* @format with every "@NODE@", "@SCRIPT@", "@PROJECT@" and "@URL@"
 * replaced (as JSON string contents) */
static char *
fill (Fixture    *f,
      const char *format,
      const char *url)
{
  const char *names[] = { "@NODE@", "@SCRIPT@", "@PROJECT@", "@URL@" };
  const char *values[] = { f->node, f->script, f->project_dir, url };
  g_autoptr(GString) text = g_string_new (format);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_string_replace (text, names[i], values[i] != NULL ? values[i] : "", 0);

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
write_filled (Fixture    *f,
              const char *path,
              const char *format,
              const char *url)
{
  g_autofree char *text = fill (f, format, url);

  test_write_file (path, text);

  return g_strdup (path);
}

static McpProject *
project_new (Fixture       *f,
             McpClientKind  kind)
{
  g_autofree char *cache_path = g_build_filename (f->home, "cache", "needs-auth.json", NULL);
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpProject *project;

  manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                          "token-store", f->store,
                          "needs-auth-cache-path", cache_path,
                          "connect-timeout", 20000,
                          NULL);
  project = g_object_new (MCP_TYPE_PROJECT,
                          "client", kind,
                          "project-dir", f->project_dir,
                          "user-config-dir", f->plugboard_dir,
                          "manager", manager,
                          NULL);
  g_assert_cmpint (mcp_project_get_client (project), ==, kind);
  g_assert_cmpint (mcp_settings_get_client (mcp_project_get_settings (project)), ==, kind);

  mcp_project_load_async (project, NULL, test_result_cb, &result);
  test_wait_result (&result, "the project to load");
  g_assert_true (mcp_project_load_finish (project, result, &error));
  g_assert_no_error (error);

  return project;
}

static McpSettings *
settings_of (Fixture *f)
{
  return mcp_project_get_settings (f->project);
}

/* The problems of the settings, one a line (for messages) */
static char *
problems_text (McpSettings *settings)
{
  GPtrArray *problems = mcp_settings_get_problems (settings);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < problems->len; i++)
    {
      McpSettingsProblem *problem = problems->pdata[i];

      g_string_append_printf (text, "%s\n", problem->message);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
assert_no_problems (McpSettings *settings)
{
  g_autofree char *problems = problems_text (settings);

  g_assert_cmpstr (problems, ==, "");
}

/* The server @name of @scope, which must be there */
static McpServerConfig *
config_in (McpSettings    *settings,
           const char     *name,
           McpConfigScope  scope)
{
  McpServerConfig *config = mcp_settings_lookup_in_scope (settings, name, scope);

  if (config == NULL)
    {
      g_autofree char *problems = problems_text (settings);

      g_error ("no server “%s” in scope %d; problems:\n%s", name, scope, problems);
    }

  return config;
}

/* A copy of @name's entry (Plugboard's shape) to edit */
static JsonObject *
entry_copy (McpSettings    *settings,
            const char     *name,
            McpConfigScope  scope)
{
  JsonObject *json = mcp_server_config_get_json (config_in (settings, name, scope));
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, json);
  text = test_json_text (node);
  copy = test_json_parse (text);

  return json_object_ref (json_node_get_object (copy));
}

/* The span of the member @name of the object at @container in @text:
 * from its key to the end of its value; FALSE when there is none. */
static gboolean
member_span (const char      *text,
             McpJsonDialect   dialect,
             const char      *const *container,
             const char      *name,
             gsize           *start,
             gsize           *end)
{
  g_autoptr(McpJsonDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) path = NULL;
  g_autofree char *key = NULL;
  const char *found;
  gsize value_start;

  document = mcp_json_document_new (text, strlen (text), dialect, &error);
  g_assert_no_error (error);
  g_strv_builder_addv (builder, (const char **) container);
  g_strv_builder_add (builder, name);
  path = g_strv_builder_end (builder);
  if (!mcp_json_document_get_range (document, (const char * const *) path, &value_start, end))
    return FALSE;

  key = g_strdup_printf ("\"%s\"", name);
  found = g_strrstr_len (text, value_start, key);
  g_assert_nonnull (found);
  *start = found - text;

  return TRUE;
}

static gboolean
is_filler (char c)
{
  return g_ascii_isspace (c) || c == ',';
}

/* Every byte of @after is that of @before but in the entry @old_name (in
 * @before) or @new_name (in @after) of @container; commas and whitespace
 * between members may come and go with a member. NULL: no such entry. */
static void
assert_only_entry_changed (const char          *before,
                           const char          *after,
                           McpJsonDialect       dialect,
                           const char * const  *container,
                           const char          *old_name,
                           const char          *new_name)
{
  gsize lb = strlen (before);
  gsize la = strlen (after);
  gsize prefix = 0;
  gsize suffix = 0;
  gsize b0, b1, a0, a1;
  gsize start, end;

  while (prefix < lb && prefix < la && before[prefix] == after[prefix])
    prefix++;
  while (suffix < lb - prefix && suffix < la - prefix &&
         before[lb - 1 - suffix] == after[la - 1 - suffix])
    suffix++;

  b0 = prefix;
  b1 = lb - suffix;
  a0 = prefix;
  a1 = la - suffix;
  while (b0 < b1 && is_filler (before[b0]))
    b0++;
  while (b1 > b0 && is_filler (before[b1 - 1]))
    b1--;
  while (a0 < a1 && is_filler (after[a0]))
    a0++;
  while (a1 > a0 && is_filler (after[a1 - 1]))
    a1--;

  if (b0 < b1)
    {
      if (old_name == NULL || !member_span (before, dialect, container, old_name, &start, &end))
        g_error ("bytes changed outside any entry: “%.*s”", (int) (b1 - b0), before + b0);
      if (b0 < start || b1 > end)
        g_error ("bytes changed outside “%s”: “%.*s”", old_name, (int) (b1 - b0), before + b0);
    }
  if (a0 < a1)
    {
      if (new_name == NULL || !member_span (after, dialect, container, new_name, &start, &end))
        g_error ("bytes written outside any entry: “%.*s”", (int) (a1 - a0), after + a0);
      /* a key renamed in place keeps the bytes of its value */
      if (a0 < start || a1 > end)
        g_error ("bytes written outside “%s”: “%.*s”", new_name, (int) (a1 - a0), after + a0);
    }
}

/* The file parses in its dialect, as the client reads it */
static JsonNode *
parse_file (const char     *path,
            McpJsonDialect  dialect)
{
  g_autofree char *text = test_read_file (path);
  g_autoptr(GError) error = NULL;
  JsonNode *root = mcp_json_document_parse (text, strlen (text), dialect, &error);

  g_assert_no_error (error);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));

  return root;
}

/* The value at @path (members, NULL-terminated) of @path's file */
static JsonNode *
file_lookup (const char         *file,
             McpJsonDialect      dialect,
             const char * const *path)
{
  g_autoptr(JsonNode) root = parse_file (file, dialect);
  JsonNode *node = root;

  for (guint i = 0; path[i] != NULL; i++)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node) || !json_object_has_member (json_node_get_object (node), path[i]))
        return NULL;
      node = json_object_get_member (json_node_get_object (node), path[i]);
    }

  return json_node_copy (node);
}

/* The async operations, waited for */

static void
wait_ok (GAsyncResult **result,
         gpointer       source,
         TestFinishFunc finish)
{
  g_autoptr(GError) error = NULL;

  test_wait_result (result, "the settings write");
  g_assert_true (finish (source, *result, &error));
  g_assert_no_error (error);
  g_clear_object (result);
}

static void
edit_server (McpSettings    *settings,
             const char     *name,
             McpConfigScope  scope,
             JsonObject     *entry)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_settings_edit_server_async (settings, name, scope, entry, NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_edit_server_finish);
}

static void
rename_server (McpSettings    *settings,
               const char     *name,
               McpConfigScope  scope,
               const char     *new_name)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_settings_rename_server_async (settings, name, scope, new_name, NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_rename_server_finish);
}

static void
remove_server (McpSettings    *settings,
               const char     *name,
               McpConfigScope  scope)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_settings_remove_server_async (settings, name, scope, NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_remove_server_finish);
}

static void
set_enabled (McpSettings    *settings,
             const char     *name,
             McpConfigScope  scope,
             gboolean        enabled)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_settings_set_server_enabled_async (settings, name, scope, enabled, NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_set_server_enabled_finish);
}

static gboolean
add_server (McpSettings    *settings,
            const char     *name,
            McpConfigScope  scope,
            const char     *json,
            GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) node = test_json_parse (json);

  mcp_settings_add_server_async (settings, name, scope, json_node_get_object (node), NULL,
                                 test_result_cb, &result);
  test_wait_result (&result, "the server to be added");

  return mcp_settings_add_server_finish (settings, result, error);
}

static void
set_approval (McpSettings *settings,
              const char  *name,
              gboolean     approved)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_settings_set_approval_async (settings, name, approved, NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_set_approval_finish);
}

/* The echo tool of @server, called through the project's tool pool */
static void
assert_echo (Fixture    *f,
             const char *server)
{
  g_autofree char *qualified = g_strdup_printf ("mcp__%s__echo", server);
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  processed = everything_run_pool_tool (mcp_project_get_tool_pool (f->project), qualified,
                                        "{\"message\": \"from another client\"}", &error);
  g_assert_no_error (error);
  text = everything_result_text (processed);
  g_assert_nonnull (strstr (text, "from another client"));
}

static void
count_changed (guint *count)
{
  (*count)++;
}

/* ------------------------------------------------------------------------ */
/* Claude Code                                                              */

static const char claude_json[] =
  "{\n"
  "  \"numStartups\": 42,\n"
  "  \"theme\": \"dark\",\n"
  "  \"mcpServers\": {\n"
  "     \"everything\": {\n"
  "        \"type\": \"stdio\",\n"
  "        \"command\": \"@NODE@\",\n"
  "        \"args\": [\"@SCRIPT@\", \"stdio\"],\n"
  "        \"env\": {\"MODE\": \"first\", \"KEEP\": \"1\"},\n"
  "        \"futureKey\": {\"x\": 1.50e3}\n"
  "     },\n"
  "\t\"plain\": {\"command\": \"true\", \"args\": []}\n"
  "  },\n"
  "  \"projects\": {\n"
  "    \"@PROJECT@\": {\n"
  "      \"allowedTools\": [],\n"
  "      \"history\": [{\"display\": \"hello\"}],\n"
  "      \"mcpServers\": {\n"
  "        \"mine\": {\"command\": \"true\", \"args\": [\"--local\"]}\n"
  "      },\n"
  "      \"hasTrustDialogAccepted\": true\n"
  "    },\n"
  "    \"/elsewhere\": {\"mcpServers\": {\"far\": {\"command\": \"true\"}}}\n"
  "  },\n"
  "  \"tipsHistory\": {\"new-user-warmup\": 1}\n"
  "}\n";

static const char claude_mcp_json[] =
  "{\n"
  "    \"mcpServers\": {\n"
  "        \"team\": {\"command\": \"@NODE@\", \"args\": [\"@SCRIPT@\", \"stdio\"]}\n"
  "    }\n"
  "}\n";

static void
write_claude_code (Fixture  *f,
                   char    **user,
                   char    **project)
{
  g_autofree char *user_path = g_build_filename (f->home, ".claude.json", NULL);
  g_autofree char *project_path = g_build_filename (f->project_dir, ".mcp.json", NULL);

  *user = write_filled (f, user_path, claude_json, NULL);
  *project = write_filled (f, project_path, claude_mcp_json, NULL);
}

/* The servers appear in their scopes, from Claude Code's files; the user
 * one connects and its echo tool runs; the project one waits for
 * approval. */
static void
test_claude_code_load (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  if (!have_everything (f))
    return;
  write_claude_code (f, &user, &project);
  f->project = project_new (f, MCP_CLIENT_KIND_CLAUDE_CODE);
  settings = settings_of (f);
  assert_no_problems (settings);

  g_assert_true (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_USER));
  g_assert_true (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_PROJECT));
  g_assert_true (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_LOCAL));
  g_assert_cmpstr (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_USER), ==, user);
  g_assert_cmpstr (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_PROJECT), ==, project);

  config = config_in (settings, "everything", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_file (config), ==, user);
  g_assert_cmpstr (mcp_server_config_get_json_path (config), ==, "$.mcpServers.everything");
  g_assert_cmpstr (mcp_server_config_get_command (config), ==, f->node);
  config_in (settings, "plain", MCP_CONFIG_SCOPE_USER);
  config = config_in (settings, "mine", MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpstr (mcp_server_config_get_file (config), ==, user);
  g_assert_null (mcp_settings_lookup (settings, "far"));
  config = config_in (settings, "team", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_cmpstr (mcp_server_config_get_file (config), ==, project);
  g_assert_cmpint (mcp_settings_get_approval (settings, "team"), ==, MCP_APPROVAL_PENDING);
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (settings, "team")));

  assert_echo (f, "everything");
}

/* Each edit through Plugboard changes only that entry's bytes in
 * ~/.claude.json; what Claude Code has that Plugboard does not know stays. */
static void
test_claude_code_edit (Fixture       *f,
                       gconstpointer  data)
{
  static const char * const servers[] = { "mcpServers", NULL };
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *local_json = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;
  McpServerConfig *config;
  JsonArray *args;

  if (!have_everything (f))
    return;
  write_claude_code (f, &user, &project);
  f->project = project_new (f, MCP_CLIENT_KIND_CLAUDE_CODE);
  settings = settings_of (f);

  /* an argument */
  before = test_read_file (user);
  entry = entry_copy (settings, "everything", MCP_CONFIG_SCOPE_USER);
  args = json_object_get_array_member (entry, "args");
  json_array_remove_element (args, 1);
  json_array_add_string_element (args, "stdio");
  json_array_add_string_element (args, "--extra");
  edit_server (settings, "everything", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (user);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, "everything", "everything");
  g_assert_nonnull (strstr (after, "\"--extra\""));
  g_assert_nonnull (strstr (after, "\"futureKey\": {\"x\": 1.50e3}"));
  config = config_in (settings, "everything", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_args (config)[2], ==, "--extra");
  g_clear_pointer (&entry, json_object_unref);

  /* an env value */
  g_free (before);
  before = g_steal_pointer (&after);
  entry = entry_copy (settings, "everything", MCP_CONFIG_SCOPE_USER);
  json_object_set_string_member (json_object_get_object_member (entry, "env"), "MODE", "second");
  edit_server (settings, "everything", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (user);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, "everything", "everything");
  g_assert_nonnull (strstr (after, "{\"MODE\": \"second\", \"KEEP\": \"1\"}"));
  g_clear_pointer (&entry, json_object_unref);

  /* off: Claude Code has no "enabled" in an entry; it turns a server off
   * in the project (disabledMcpServers), and so does Plugboard for it */
  g_free (before);
  before = g_steal_pointer (&after);
  set_enabled (settings, "plain", MCP_CONFIG_SCOPE_USER, FALSE);
  after = test_read_file (user);
  {
    const char *path[] = { "projects", f->project_dir, "disabledMcpServers", NULL };
    const char *entry_path[] = { "mcpServers", "plain", NULL };
    g_autoptr(JsonNode) plain = file_lookup (user, MCP_JSON_DIALECT_JSON, entry_path);

    node = file_lookup (user, MCP_JSON_DIALECT_JSON, path);
    g_assert_nonnull (node);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (node)), ==, 1);
    g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==, "plain");
    g_assert_false (json_object_has_member (json_node_get_object (plain), "enabled"));
    g_clear_pointer (&node, json_node_unref);
  }
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (settings, "plain")));
  g_assert_cmpstr (mcp_server_config_get_disabled_reason (mcp_settings_lookup (settings, "plain")),
                   ==, "switched off in this project");
  set_enabled (settings, "plain", MCP_CONFIG_SCOPE_USER, TRUE);
  g_assert_true (mcp_server_config_get_enabled (mcp_settings_lookup (settings, "plain")));
  g_free (after);
  after = test_read_file (user);

  /* renamed: in place, its bytes kept */
  g_free (before);
  before = g_steal_pointer (&after);
  rename_server (settings, "everything", MCP_CONFIG_SCOPE_USER, "renamed");
  after = test_read_file (user);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, "everything", "renamed");
  g_assert_null (mcp_settings_lookup (settings, "everything"));
  config_in (settings, "renamed", MCP_CONFIG_SCOPE_USER);
  g_assert_nonnull (strstr (after, "\"futureKey\": {\"x\": 1.50e3}"));

  /* removed */
  g_free (before);
  before = g_steal_pointer (&after);
  remove_server (settings, "plain", MCP_CONFIG_SCOPE_USER);
  after = test_read_file (user);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, "plain", NULL);
  g_assert_null (mcp_settings_lookup (settings, "plain"));

  /* added, in the local scope (projects[DIR]) */
  g_free (before);
  before = g_steal_pointer (&after);
  g_assert_true (add_server (settings, "added", MCP_CONFIG_SCOPE_LOCAL,
                             "{\"type\": \"http\", \"url\": \"https://example.com/mcp\"}", &error));
  g_assert_no_error (error);
  after = test_read_file (user);
  {
    const char *local[] = { "projects", f->project_dir, "mcpServers", NULL };

    assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, local, NULL, "added");
  }
  config = config_in (settings, "added", MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpstr (mcp_server_config_get_url (config), ==, "https://example.com/mcp");
  g_assert_cmpstr (mcp_server_config_get_transport_name (config), ==, "http");
  node = parse_file (user, MCP_JSON_DIALECT_JSON);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "numStartups"), ==, 42);

  /* the project's file was never touched */
  local_json = fill (f, claude_mcp_json, NULL);
  g_free (after);
  after = test_read_file (project);
  g_assert_cmpstr (after, ==, local_json);
}

/* A project server of Claude Code waits for approval, which is kept in
 * ~/.claude.json as Claude Code keeps it, bound to the digest of what it
 * runs: an outside change of .mcp.json makes it pending again. */
static void
test_claude_code_approval (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;
  g_autofree char *plugboard_file = NULL;
  g_autoptr(JsonNode) node = NULL;
  McpSettings *settings;
  guint changed = 0;

  if (!have_everything (f))
    return;
  write_claude_code (f, &user, &project);
  f->project = project_new (f, MCP_CLIENT_KIND_CLAUDE_CODE);
  settings = settings_of (f);
  g_signal_connect_swapped (settings, "changed", G_CALLBACK (count_changed), &changed);

  g_assert_cmpint (mcp_settings_get_approval (settings, "team"), ==, MCP_APPROVAL_PENDING);
  set_approval (settings, "team", TRUE);
  g_assert_cmpint (mcp_settings_get_approval (settings, "team"), ==, MCP_APPROVAL_APPROVED);
  {
    const char *enabled[] = { "projects", f->project_dir, "enabledMcpjsonServers", NULL };
    const char *digest[] = { "projects", f->project_dir, "approvedMcpjsonServers", "team", "digest", NULL };

    node = file_lookup (user, MCP_JSON_DIALECT_JSON, enabled);
    g_assert_nonnull (node);
    g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==, "team");
    g_clear_pointer (&node, json_node_unref);
    node = file_lookup (user, MCP_JSON_DIALECT_JSON, digest);
    g_assert_nonnull (node);
    g_assert_true (g_str_has_prefix (json_node_get_string (node), "sha256:"));
  }
  /* nothing of Claude Code's in Plugboard's own file */
  plugboard_file = g_build_filename (f->plugboard_dir, "settings.json", NULL);
  g_assert_false (g_file_test (plugboard_file, G_FILE_TEST_EXISTS));

  assert_echo (f, "team");

  /* another program changes what it runs */
  changed = 0;
  {
    g_autofree char *text = fill (f, claude_mcp_json, NULL);
    g_autoptr(GString) edited = g_string_new (text);

    g_string_replace (edited, "\"stdio\"]", "\"stdio\", \"--other\"]", 1);
    test_write_file (project, edited->str);
  }
  TEST_WAIT_UNTIL (mcp_settings_get_approval (settings, "team") == MCP_APPROVAL_CHANGED);
  g_assert_cmpuint (changed, >, 0);
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (settings, "team")));
}

/* An outside edit of the client's file is picked up */
static void
test_claude_code_outside_change (Fixture       *f,
                                 gconstpointer  data)
{
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;
  McpSettings *settings;

  write_claude_code (f, &user, &project);
  f->project = project_new (f, MCP_CLIENT_KIND_CLAUDE_CODE);
  settings = settings_of (f);
  g_assert_null (mcp_settings_lookup (settings, "outside"));

  {
    g_autofree char *text = fill (f, claude_json, NULL);
    g_autoptr(GString) edited = g_string_new (text);

    g_string_replace (edited, "\"mcpServers\": {\n", "\"mcpServers\": {\n \"outside\": {\"command\": \"ls\"},\n", 1);
    test_write_file (user, edited->str);
  }
  TEST_WAIT_UNTIL (mcp_settings_lookup (settings, "outside") != NULL);
  g_assert_cmpstr (mcp_server_config_get_command (mcp_settings_lookup (settings, "outside")), ==, "ls");
}

/* ------------------------------------------------------------------------ */
/* Cursor                                                                   */

static const char cursor_user[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"everything\": {\n"
  "      \"command\": \"@NODE@\",\n"
  "      \"args\": [\"@SCRIPT@\", \"stdio\"],\n"
  "      \"env\": {\"WHERE\": \"${userHome}/x\"}\n"
  "    },\n"
  "    \"remote\": {\"url\": \"@URL@\", \"headers\": {\"X-Team\": \"blue\"}, \"autoApprove\": [\"echo\"]}\n"
  "  }\n"
  "}\n";

static const char cursor_project[] =
  "{\"mcpServers\": {\"team\": {\"command\": \"true\", \"args\": [\"a\"]}}}\n";

static void
test_cursor (Fixture       *f,
             gconstpointer  data)
{
  static const char * const servers[] = { "mcpServers", NULL };
  g_autofree char *user_path = g_build_filename (f->home, ".cursor", "mcp.json", NULL);
  g_autofree char *project_path = g_build_filename (f->project_dir, ".cursor", "mcp.json", NULL);
  g_autofree char *plugboard_file = g_build_filename (f->plugboard_dir, "settings.json", NULL);
  g_autofree char *url = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  if (!have_everything (f))
    return;
  url = start_http (f);
  g_free (write_filled (f, user_path, cursor_user, url));
  g_free (write_filled (f, project_path, cursor_project, url));
  f->project = project_new (f, MCP_CLIENT_KIND_CURSOR);
  settings = settings_of (f);
  assert_no_problems (settings);

  g_assert_false (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_LOCAL));
  config = config_in (settings, "remote", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_transport_name (config), ==, "http");
  g_assert_cmpstr (mcp_server_config_get_url (config), ==, url);
  config = config_in (settings, "everything", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_file (config), ==, user_path);
  config_in (settings, "team", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_cmpint (mcp_settings_get_approval (settings, "team"), ==, MCP_APPROVAL_PENDING);

  assert_echo (f, "everything");
  assert_echo (f, "remote");

  /* an edit of the remote one keeps Cursor's "autoApprove" */
  before = test_read_file (user_path);
  entry = entry_copy (settings, "remote", MCP_CONFIG_SCOPE_USER);
  json_object_set_string_member (json_object_get_object_member (entry, "headers"), "X-Team", "red");
  edit_server (settings, "remote", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (user_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, "remote", "remote");
  g_assert_nonnull (strstr (after, "\"autoApprove\": [\"echo\"]"));
  g_assert_nonnull (strstr (after, "\"X-Team\": \"red\""));

  /* approval of a project server: in Plugboard's own file, under the client */
  set_approval (settings, "team", FALSE);
  g_assert_cmpint (mcp_settings_get_approval (settings, "team"), ==, MCP_APPROVAL_REJECTED);
  {
    const char *path[] = { "clients", "cursor", "projects", f->project_dir, "disabledMcpjsonServers", NULL };

    node = file_lookup (plugboard_file, MCP_JSON_DIALECT_JSON, path);
    g_assert_nonnull (node);
    g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==, "team");
  }
  g_free (after);
  after = test_read_file (project_path);
  g_assert_cmpstr (after, ==, cursor_project);

  /* added in the project's file */
  g_assert_true (add_server (settings, "new", MCP_CONFIG_SCOPE_PROJECT,
                             "{\"command\": \"echo\", \"args\": [\"hi\"]}", &error));
  g_assert_no_error (error);
  g_free (before);
  before = g_steal_pointer (&after);
  after = test_read_file (project_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, NULL, "new");
  config_in (settings, "new", MCP_CONFIG_SCOPE_PROJECT);

  /* no local scope: refused, saying so */
  g_assert_false (add_server (settings, "nowhere", MCP_CONFIG_SCOPE_LOCAL, "{\"command\": \"true\"}", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "Cursor"));
}

/* ------------------------------------------------------------------------ */
/* VS Code                                                                  */

static const char vscode_settings[] =
  "// the person's VS Code settings\n"
  "{\n"
  "    \"editor.fontSize\": 14, // big\n"
  "    \"mcp\": {\n"
  "        \"servers\": {\n"
  "            /* fetches pages */\n"
  "            \"fetch\": {\"command\": \"uvx\", \"args\": [\"mcp-server-fetch\"],},\n"
  "        },\n"
  "    },\n"
  "    \"files.autoSave\": \"afterDelay\",\n"
  "}\n";

static const char vscode_mcp_json[] =
  "{\n"
  "  // the team's servers\n"
  "  \"inputs\": [\n"
  "    {\"type\": \"promptString\", \"id\": \"api-key\", \"description\": \"The API key\", \"password\": true}\n"
  "  ],\n"
  "  \"servers\": {\n"
  "    \"everything\": {\n"
  "      \"type\": \"stdio\",\n"
  "      \"command\": \"@NODE@\",\n"
  "      \"args\": [\"@SCRIPT@\", \"stdio\"],\n"
  "      \"env\": {\"WS\": \"${workspaceFolder}\"},\n"
  "      \"dev\": {\"watch\": \"src/**/*.ts\"}\n"
  "    },\n"
  "    \"remote\": {\"type\": \"http\", \"url\": \"@URL@\"},\n"
  "    \"keyed\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\",\n"
  "              \"headers\": {\"Authorization\": \"Bearer ${input:api-key}\"}},\n"
  "  },\n"
  "}\n";

static void
test_vscode (Fixture       *f,
             gconstpointer  data)
{
  static const char * const servers[] = { "servers", NULL };
  static const char * const user_servers[] = { "mcp", "servers", NULL };
  g_autofree char *user_path = g_build_filename (f->config, "Code", "User", "settings.json", NULL);
  g_autofree char *project_path = g_build_filename (f->project_dir, ".vscode", "mcp.json", NULL);
  g_autofree char *plugboard_file = g_build_filename (f->plugboard_dir, "settings.json", NULL);
  g_autofree char *url = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_auto(GStrv) notes = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  if (!have_everything (f))
    return;
  url = start_http (f);
  g_free (write_filled (f, user_path, vscode_settings, url));
  g_free (write_filled (f, project_path, vscode_mcp_json, url));
  f->project = project_new (f, MCP_CLIENT_KIND_VSCODE);
  settings = settings_of (f);

  g_assert_true (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_USER));
  g_assert_true (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_PROJECT));
  g_assert_false (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_LOCAL));
  config = config_in (settings, "fetch", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_file (config), ==, user_path);
  g_assert_cmpstr (mcp_server_config_get_json_path (config), ==, "$.mcp.servers.fetch");
  config = config_in (settings, "everything", MCP_CONFIG_SCOPE_PROJECT);
  {
    g_autofree char *ws = g_strconcat ("WS=", f->project_dir, NULL);

    g_assert_cmpstr (mcp_server_config_get_env (config)[0], ==, ws);
  }
  config = config_in (settings, "keyed", MCP_CONFIG_SCOPE_PROJECT);
  /* what Plugboard cannot ask for is said, for the display */
  notes = mcp_settings_dup_notes (settings, "keyed", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_nonnull (notes);
  g_assert_nonnull (strstr (notes[0], "api-key"));
  g_clear_pointer (&notes, g_strfreev);
  notes = mcp_settings_dup_notes (settings, "everything", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_nonnull (notes);
  {
    g_autofree char *all = g_strjoinv ("\n", notes);

    g_assert_nonnull (strstr (all, "dev"));
  }
  g_assert_null (mcp_settings_dup_notes (settings, "remote", MCP_CONFIG_SCOPE_PROJECT));

  /* the project's servers wait for approval, kept in Plugboard's file */
  g_assert_cmpint (mcp_settings_get_approval (settings, "everything"), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpint (mcp_settings_get_approval (settings, "remote"), ==, MCP_APPROVAL_PENDING);
  set_approval (settings, "everything", TRUE);
  set_approval (settings, "remote", TRUE);
  {
    const char *path[] = { "clients", "vscode", "projects", f->project_dir, "approvedMcpjsonServers",
                           "everything", "digest", NULL };

    node = file_lookup (plugboard_file, MCP_JSON_DIALECT_JSON, path);
    g_assert_nonnull (node);
    g_assert_true (g_str_has_prefix (json_node_get_string (node), "sha256:"));
  }
  g_free (after);
  after = test_read_file (project_path);
  g_free (before);
  before = fill (f, vscode_mcp_json, url);
  g_assert_cmpstr (after, ==, before);

  assert_echo (f, "everything");
  assert_echo (f, "remote");

  /* an edit keeps the comments, the trailing commas and "dev" */
  entry = entry_copy (settings, "everything", MCP_CONFIG_SCOPE_PROJECT);
  json_array_add_string_element (json_object_get_array_member (entry, "args"), "--more");
  edit_server (settings, "everything", MCP_CONFIG_SCOPE_PROJECT, entry);
  g_free (before);
  before = g_steal_pointer (&after);
  after = test_read_file (project_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSONC, servers, "everything", "everything");
  g_assert_nonnull (strstr (after, "// the team's servers"));
  g_assert_nonnull (strstr (after, "\"dev\": {\"watch\": \"src/**/*.ts\"}"));
  g_assert_nonnull (strstr (after, "\"--more\""));
  /* (VS Code's own variable, as it was) */
  g_assert_nonnull (strstr (after, "${workspaceFolder}"));
  g_clear_pointer (&node, json_node_unref);
  node = parse_file (project_path, MCP_JSON_DIALECT_JSONC);
  /* what it runs changed: approved anew */
  g_assert_cmpint (mcp_settings_get_approval (settings, "everything"), ==, MCP_APPROVAL_CHANGED);

  /* the user's settings.json: only "mcp"."servers"."fetch" */
  g_clear_pointer (&entry, json_object_unref);
  entry = entry_copy (settings, "fetch", MCP_CONFIG_SCOPE_USER);
  json_object_set_string_member (entry, "command", "uv");
  g_free (before);
  before = test_read_file (user_path);
  edit_server (settings, "fetch", MCP_CONFIG_SCOPE_USER, entry);
  g_free (after);
  after = test_read_file (user_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSONC, user_servers, "fetch", "fetch");
  g_assert_nonnull (strstr (after, "\"editor.fontSize\": 14, // big"));
  g_assert_nonnull (strstr (after, "/* fetches pages */"));
  g_assert_cmpstr (mcp_server_config_get_command (config_in (settings, "fetch", MCP_CONFIG_SCOPE_USER)),
                   ==, "uv");

  /* added there, then renamed and removed */
  g_free (before);
  before = g_steal_pointer (&after);
  g_assert_true (add_server (settings, "git", MCP_CONFIG_SCOPE_USER,
                             "{\"command\": \"git-mcp\", \"env\": {\"HOME_DIR\": \"${HOME}\"}}", &error));
  g_assert_no_error (error);
  after = test_read_file (user_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSONC, user_servers, NULL, "git");
  /* Plugboard's ${HOME} in VS Code's words */
  g_assert_nonnull (strstr (after, "${env:HOME}"));
  config = config_in (settings, "git", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_env (config)[0], ==, "HOME_DIR=${HOME}");
  g_free (before);
  before = g_steal_pointer (&after);
  rename_server (settings, "git", MCP_CONFIG_SCOPE_USER, "git2");
  after = test_read_file (user_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSONC, user_servers, "git", "git2");
  g_free (before);
  before = g_steal_pointer (&after);
  remove_server (settings, "git2", MCP_CONFIG_SCOPE_USER);
  after = test_read_file (user_path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSONC, user_servers, "git2", NULL);
  g_clear_pointer (&node, json_node_unref);
  node = parse_file (user_path, MCP_JSON_DIALECT_JSONC);
}

/* ------------------------------------------------------------------------ */
/* Claude Desktop: only a user file                                         */

static const char claude_desktop[] =
  "{\n"
  "\t\"mcpServers\": {\n"
  "\t\t\"everything\": {\n"
  "\t\t\t\"command\": \"@NODE@\",\n"
  "\t\t\t\"args\": [\"@SCRIPT@\", \"stdio\"]\n"
  "\t\t},\n"
  "\t\t\"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"]}\n"
  "\t},\n"
  "\t\"globalShortcut\": \"Ctrl+Space\"\n"
  "}\n";

static void
test_claude_desktop (Fixture       *f,
                     gconstpointer  data)
{
  static const char * const servers[] = { "mcpServers", NULL };
  g_autofree char *path = g_build_filename (f->config, "Claude", "claude_desktop_config.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;

  if (!have_everything (f))
    return;
  g_free (write_filled (f, path, claude_desktop, NULL));
  f->project = project_new (f, MCP_CLIENT_KIND_CLAUDE_DESKTOP);
  settings = settings_of (f);
  assert_no_problems (settings);

  g_assert_true (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_USER));
  g_assert_false (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_PROJECT));
  g_assert_false (mcp_settings_has_scope (settings, MCP_CONFIG_SCOPE_LOCAL));
  g_assert_null (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_PROJECT));
  config_in (settings, "files", MCP_CONFIG_SCOPE_USER);
  assert_echo (f, "everything");

  before = test_read_file (path);
  entry = entry_copy (settings, "files", MCP_CONFIG_SCOPE_USER);
  json_array_add_string_element (json_object_get_array_member (entry, "args"), "/srv");
  edit_server (settings, "files", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSON, servers, "files", "files");
  g_assert_nonnull (strstr (after, "\"/tmp\", \"/srv\"]"));

  /* no project scope: refused, naming the client, nothing written */
  g_free (before);
  before = g_steal_pointer (&after);
  g_assert_false (add_server (settings, "team", MCP_CONFIG_SCOPE_PROJECT, "{\"command\": \"true\"}", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "Claude Desktop"));
  g_assert_nonnull (strstr (error->message, "project"));
  g_clear_error (&error);
  after = test_read_file (path);
  g_assert_cmpstr (after, ==, before);

  /* a remote server is not something Claude Desktop's file can hold */
  g_assert_false (add_server (settings, "remote", MCP_CONFIG_SCOPE_USER,
                              "{\"type\": \"http\", \"url\": \"https://example.com/mcp\"}", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, path));
  g_free (after);
  after = test_read_file (path);
  g_assert_cmpstr (after, ==, before);
}

/* A client's file that does not parse is a problem naming it, and is
 * never written */
static void
test_broken_file (Fixture       *f,
                  gconstpointer  data)
{
  static const char broken[] = "{\"mcpServers\": {\"a\": {\"command\": \"true\",},},}\n";
  g_autofree char *path = g_build_filename (f->config, "Claude", "claude_desktop_config.json", NULL);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *problems;
  McpSettingsProblem *problem;
  McpSettings *settings;

  test_write_file (path, broken);
  f->project = project_new (f, MCP_CLIENT_KIND_CLAUDE_DESKTOP);
  settings = settings_of (f);
  problems = mcp_settings_get_problems (settings);
  g_assert_cmpuint (problems->len, ==, 1);
  problem = problems->pdata[0];
  g_assert_cmpstr (problem->file, ==, path);
  g_assert_nonnull (strstr (problem->message, path));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (settings)), ==, 0);

  g_assert_false (add_server (settings, "b", MCP_CONFIG_SCOPE_USER, "{\"command\": \"true\"}", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, path));
  after = test_read_file (path);
  g_assert_cmpstr (after, ==, broken);
}

/* ------------------------------------------------------------------------ */
/* Windsurf and Gemini CLI: loaded, one edit each                           */

static const char windsurf[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"web\": {\"serverUrl\": \"https://example.com/mcp\", \"headers\": {\"X-A\": \"1\"}},\n"
  "    \"local\": {\"command\": \"true\", \"args\": [], \"disabledTools\": [\"rm\"]}\n"
  "  }\n"
  "}\n";

static void
test_windsurf (Fixture       *f,
               gconstpointer  data)
{
  static const char * const servers[] = { "mcpServers", NULL };
  g_autofree char *path = g_build_filename (f->home, ".codeium", "windsurf", "mcp_config.json", NULL);
  g_autofree char *after = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  test_write_file (path, windsurf);
  f->project = project_new (f, MCP_CLIENT_KIND_WINDSURF);
  settings = settings_of (f);
  assert_no_problems (settings);
  config = config_in (settings, "web", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_url (config), ==, "https://example.com/mcp");
  g_assert_true (mcp_server_config_is_remote (config));

  /* off: Windsurf's own "disabled" in the entry */
  set_enabled (settings, "local", MCP_CONFIG_SCOPE_USER, FALSE);
  after = test_read_file (path);
  assert_only_entry_changed (windsurf, after, MCP_JSON_DIALECT_JSON, servers, "local", "local");
  g_assert_nonnull (strstr (after, "\"disabled\": true"));
  g_assert_nonnull (strstr (after, "\"disabledTools\": [\"rm\"]"));
  g_assert_false (mcp_server_config_get_enabled (config_in (settings, "local", MCP_CONFIG_SCOPE_USER)));
  /* Plugboard's own file had nothing to say: it is not made */
  {
    g_autofree char *plugboard_file = g_build_filename (f->plugboard_dir, "settings.json", NULL);

    g_assert_false (g_file_test (plugboard_file, G_FILE_TEST_EXISTS));
  }
}

static const char gemini[] =
  "{\n"
  "  \"theme\": \"GitHub\",\n"
  "  // Gemini strips comments\n"
  "  \"mcpServers\": {\n"
  "    \"web\": {\"httpUrl\": \"https://example.com/mcp\", \"trust\": false, \"timeout\": 30000}\n"
  "  },\n"
  "  \"selectedAuthType\": \"oauth-personal\"\n"
  "}\n";

static void
test_gemini (Fixture       *f,
             gconstpointer  data)
{
  static const char * const servers[] = { "mcpServers", NULL };
  g_autofree char *path = g_build_filename (f->home, ".gemini", "settings.json", NULL);
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) entry = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  test_write_file (path, gemini);
  f->project = project_new (f, MCP_CLIENT_KIND_GEMINI);
  settings = settings_of (f);
  assert_no_problems (settings);
  config = config_in (settings, "web", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_transport_name (config), ==, "http");

  entry = entry_copy (settings, "web", MCP_CONFIG_SCOPE_USER);
  json_object_set_string_member (entry, "url", "https://example.org/mcp");
  edit_server (settings, "web", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (path);
  assert_only_entry_changed (gemini, after, MCP_JSON_DIALECT_JSONC, servers, "web", "web");
  g_assert_nonnull (strstr (after, "\"httpUrl\": \"https://example.org/mcp\""));
  g_assert_nonnull (strstr (after, "\"trust\": false"));
  g_assert_nonnull (strstr (after, "// Gemini strips comments"));
}

/* A new server of VS Code's project file (shared) has its secret asked
 * for by VS Code, never written there */
static void
test_vscode_secret (Fixture       *f,
                    gconstpointer  data)
{
  static const char project_text[] =
    "{\n"
    "  \"inputs\": [],\n"
    "  \"servers\": {\n"
    "    \"a\": {\"command\": \"true\"}\n"
    "  }\n"
    "}\n";
  g_autofree char *project_path = g_build_filename (f->project_dir, ".vscode", "mcp.json", NULL);
  g_autofree char *after = NULL;
  g_autoptr(JsonNode) inputs = NULL;
  g_autoptr(GError) error = NULL;
  const char *path[] = { "inputs", NULL };
  JsonObject *input;
  McpSettings *settings;

  test_write_file (project_path, project_text);
  f->project = project_new (f, MCP_CLIENT_KIND_VSCODE);
  settings = settings_of (f);
  g_assert_true (add_server (settings, "api", MCP_CONFIG_SCOPE_PROJECT,
                             "{\"command\": \"api-mcp\", \"env\": {\"API_TOKEN\": \"s3cr3t-value\"}}", &error));
  g_assert_no_error (error);

  after = test_read_file (project_path);
  g_assert_null (strstr (after, "s3cr3t-value"));
  g_assert_nonnull (strstr (after, "\"a\": {\"command\": \"true\"}"));
  inputs = file_lookup (project_path, MCP_JSON_DIALECT_JSONC, path);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (inputs)), ==, 1);
  input = json_array_get_object_element (json_node_get_array (inputs), 0);
  g_assert_cmpstr (json_object_get_string_member (input, "type"), ==, "promptString");
  g_assert_true (json_object_get_boolean_member (input, "password"));
  {
    g_autofree char *reference = g_strdup_printf ("\"${input:%s}\"", json_object_get_string_member (input, "id"));

    g_assert_nonnull (strstr (after, reference));
  }
  config_in (settings, "api", MCP_CONFIG_SCOPE_PROJECT);
}

/* One Save of the editor on a client's entry: checked against the entry
 * as the editor had it (Plugboard's shape); refused when another program
 * changed it meanwhile */
static void
test_cursor_save_expected (Fixture       *f,
                           gconstpointer  data)
{
  static const char text[] =
    "{\"mcpServers\": {\"one\": {\"command\": \"true\", \"args\": [\"1\"], \"env\": {\"A\": \"${env:USER}\"}},\n"
    "                 \"two\": {\"url\": \"https://example.com/sse\"}}}\n";
  g_autofree char *path = g_build_filename (f->home, ".cursor", "mcp.json", NULL);
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) expected = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;

  test_write_file (path, text);
  f->project = project_new (f, MCP_CLIENT_KIND_CURSOR);
  settings = settings_of (f);
  g_assert_cmpstr (mcp_server_config_get_transport_name (config_in (settings, "two", MCP_CONFIG_SCOPE_USER)),
                   ==, "sse");

  /* renamed, moved to the project's file and changed, in one */
  expected = entry_copy (settings, "one", MCP_CONFIG_SCOPE_USER);
  entry = entry_copy (settings, "one", MCP_CONFIG_SCOPE_USER);
  json_object_set_string_member (entry, "command", "false");
  mcp_settings_save_server_async (settings, "one", MCP_CONFIG_SCOPE_USER, "uno", MCP_CONFIG_SCOPE_PROJECT,
                                  entry, expected, NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_save_server_finish);
  {
    g_autofree char *project_path = g_build_filename (f->project_dir, ".cursor", "mcp.json", NULL);
    g_autofree char *project = test_read_file (project_path);

    /* Cursor's own ${env:USER}, as it was */
    g_assert_nonnull (strstr (project, "\"A\": \"${env:USER}\""));
    g_assert_nonnull (strstr (project, "\"command\": \"false\""));
  }
  after = test_read_file (path);
  g_assert_null (strstr (after, "\"one\""));
  g_assert_nonnull (strstr (after, "\"two\": {\"url\": \"https://example.com/sse\"}"));
  config_in (settings, "uno", MCP_CONFIG_SCOPE_PROJECT);

  /* another program changes "two" after the editor read it */
  g_clear_pointer (&expected, json_object_unref);
  g_clear_pointer (&entry, json_object_unref);
  expected = entry_copy (settings, "two", MCP_CONFIG_SCOPE_USER);
  entry = entry_copy (settings, "two", MCP_CONFIG_SCOPE_USER);
  json_object_set_string_member (entry, "url", "https://example.com/mine/sse");
  {
    g_autoptr(GString) edited = g_string_new (after);

    g_string_replace (edited, "example.com/sse", "example.com/theirs/sse", 1);
    test_write_file (path, edited->str);
    g_free (after);
    after = g_string_free (g_steal_pointer (&edited), FALSE);
  }
  mcp_settings_save_server_async (settings, "two", MCP_CONFIG_SCOPE_USER, "two", MCP_CONFIG_SCOPE_USER,
                                  entry, expected, NULL, test_result_cb, &result);
  test_wait_result (&result, "the save");
  g_assert_false (mcp_settings_save_server_finish (settings, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "changed meanwhile"));
  {
    g_autofree char *now = test_read_file (path);

    g_assert_cmpstr (now, ==, after);
  }
}

/* ------------------------------------------------------------------------ */
/* Zed, Codex (TOML) and Goose (YAML): loaded, one edit each                */

static const char zed[] =
  "// Zed settings\n"
  "{\n"
  "  \"vim_mode\": true,\n"
  "  \"context_servers\": {\n"
  "    \"everything\": {\"source\": \"custom\", \"command\": \"@NODE@\", \"args\": [\"@SCRIPT@\", \"stdio\"], \"env\": {}},\n"
  "    \"other\": {\"source\": \"custom\", \"command\": \"true\", \"args\": [\"x\"]},\n"
  "  },\n"
  "}\n";

static void
test_zed (Fixture       *f,
          gconstpointer  data)
{
  static const char * const servers[] = { "context_servers", NULL };
  g_autofree char *path = g_build_filename (f->config, "zed", "settings.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) entry = NULL;
  McpSettings *settings;

  if (!have_everything (f))
    return;
  g_free (write_filled (f, path, zed, NULL));
  f->project = project_new (f, MCP_CLIENT_KIND_ZED);
  settings = settings_of (f);
  assert_no_problems (settings);
  config_in (settings, "other", MCP_CONFIG_SCOPE_USER);
  assert_echo (f, "everything");

  before = test_read_file (path);
  entry = entry_copy (settings, "other", MCP_CONFIG_SCOPE_USER);
  json_array_add_string_element (json_object_get_array_member (entry, "args"), "y");
  edit_server (settings, "other", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (path);
  assert_only_entry_changed (before, after, MCP_JSON_DIALECT_JSONC, servers, "other", "other");
  g_assert_nonnull (strstr (after, "\"source\": \"custom\", \"command\": \"true\""));
  g_assert_nonnull (strstr (after, "// Zed settings"));
}

static const char codex[] =
  "model = \"o3\"  # the model\n"
  "\n"
  "[mcp_servers.docs]\n"
  "command = \"docs-mcp\"\n"
  "args = [\"--port\", \"0\"]\n"
  "startup_timeout_sec = 20\n"
  "\n"
  "[mcp_servers.docs.env]\n"
  "LEVEL = \"debug\"\n"
  "\n"
  "[profiles.fast]\n"
  "model = \"o4-mini\"\n";

static void
test_codex (Fixture       *f,
            gconstpointer  data)
{
  const char *args_path[] = { "mcp_servers", "docs", "args", NULL };
  g_autofree char *path = g_build_filename (f->home, ".codex", "config.toml", NULL);
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) args = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  test_write_file (path, codex);
  f->project = project_new (f, MCP_CLIENT_KIND_CODEX);
  settings = settings_of (f);
  assert_no_problems (settings);
  config = config_in (settings, "docs", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_command (config), ==, "docs-mcp");
  g_assert_cmpuint (mcp_server_config_get_connect_timeout (config), ==, 20000);

  entry = entry_copy (settings, "docs", MCP_CONFIG_SCOPE_USER);
  json_array_add_string_element (json_object_get_array_member (entry, "args"), "--quiet");
  edit_server (settings, "docs", MCP_CONFIG_SCOPE_USER, entry);
  after = test_read_file (path);
  g_assert_true (g_str_has_prefix (after, "model = \"o3\"  # the model\n"));
  g_assert_true (g_str_has_suffix (after, "[profiles.fast]\nmodel = \"o4-mini\"\n"));
  g_assert_nonnull (strstr (after, "LEVEL = \"debug\""));
  g_assert_nonnull (strstr (after, "startup_timeout_sec = 20"));
  args = file_lookup (path, MCP_JSON_DIALECT_TOML, args_path);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (args)), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (args), 2), ==, "--quiet");
  g_assert_cmpstr (mcp_server_config_get_args (config_in (settings, "docs", MCP_CONFIG_SCOPE_USER))[2],
                   ==, "--quiet");
}

static const char goose[] =
  "GOOSE_PROVIDER: openai\n"
  "extensions:\n"
  "  developer:\n"
  "    bundled: true\n"
  "    enabled: true\n"
  "    name: developer\n"
  "    timeout: 300\n"
  "    type: builtin\n"
  "  fetch:\n"
  "    name: fetch\n"
  "    type: stdio\n"
  "    cmd: uvx\n"
  "    args:\n"
  "      - mcp-server-fetch\n"
  "    enabled: true\n"
  "    envs: {}\n"
  "    timeout: 300\n"
  "GOOSE_MODEL: gpt-4o\n";

static void
test_goose (Fixture       *f,
            gconstpointer  data)
{
  const char *enabled_path[] = { "extensions", "fetch", "enabled", NULL };
  g_autofree char *path = g_build_filename (f->config, "goose", "config.yaml", NULL);
  g_autofree char *after = NULL;
  g_autoptr(JsonNode) enabled = NULL;
  McpSettings *settings;
  McpServerConfig *config;

  test_write_file (path, goose);
  f->project = project_new (f, MCP_CLIENT_KIND_GOOSE);
  settings = settings_of (f);
  config = config_in (settings, "fetch", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_command (config), ==, "uvx");

  set_enabled (settings, "fetch", MCP_CONFIG_SCOPE_USER, FALSE);
  after = test_read_file (path);
  enabled = file_lookup (path, MCP_JSON_DIALECT_YAML, enabled_path);
  g_assert_nonnull (enabled);
  g_assert_false (json_node_get_boolean (enabled));
  g_assert_true (g_str_has_prefix (after, "GOOSE_PROVIDER: openai\nextensions:\n  developer:\n"
                                          "    bundled: true\n    enabled: true\n"));
  g_assert_true (g_str_has_suffix (after, "GOOSE_MODEL: gpt-4o\n"));
  g_assert_false (mcp_server_config_get_enabled (config_in (settings, "fetch", MCP_CONFIG_SCOPE_USER)));
}

/* The person's operations through McpProject on a client's servers; the
 * permission rules stay Plugboard's own, never in the client's file; an
 * entry of the client's that is not a server is a problem naming where */
static void
test_cursor_operations (Fixture       *f,
                        gconstpointer  data)
{
  static const char text[] =
    "{\n"
    "  \"mcpServers\": {\n"
    "    \"one\": {\"command\": \"true\", \"args\": [\"1\"]},\n"
    "    \"number\": 5,\n"
    "    \"nothing\": {\"description\": \"no command, no url\"}\n"
    "  }\n"
    "}\n";
  static const char * const servers[] = { "mcpServers", NULL };
  const char *allow_path[] = { "permissions", "allow", NULL };
  g_autofree char *path = g_build_filename (f->home, ".cursor", "mcp.json", NULL);
  g_autofree char *plugboard_file = g_build_filename (f->plugboard_dir, "settings.json", NULL);
  g_autofree char *after = NULL;
  g_autofree char *copy_name = NULL;
  g_autofree char *problems = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) allow = NULL;
  McpSettings *settings;

  test_write_file (path, text);
  f->project = project_new (f, MCP_CLIENT_KIND_CURSOR);
  settings = settings_of (f);
  problems = problems_text (settings);
  g_assert_nonnull (strstr (problems, "$.mcpServers.number"));
  g_assert_nonnull (strstr (problems, path));
  g_assert_nonnull (strstr (problems, "nothing"));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (settings)), ==, 1);

  mcp_project_run_async (f->project, MCP_PROJECT_OP_DUPLICATE, "one", NULL, test_result_cb, &result);
  test_wait_result (&result, "the duplicate");
  g_assert_true (mcp_project_run_finish (f->project, result, &copy_name, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpstr (copy_name, ==, "one-copy");
  after = test_read_file (path);
  assert_only_entry_changed (text, after, MCP_JSON_DIALECT_JSON, servers, NULL, "one-copy");
  config_in (settings, "one-copy", MCP_CONFIG_SCOPE_USER);

  mcp_settings_set_rule_async (settings, "mcp__one", MCP_CONFIG_SCOPE_USER, MCP_RULE_ALLOW,
                               NULL, test_result_cb, &result);
  wait_ok (&result, settings, (TestFinishFunc) mcp_settings_set_rule_finish);
  allow = file_lookup (plugboard_file, MCP_JSON_DIALECT_JSON, allow_path);
  g_assert_nonnull (allow);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (allow), 0), ==, "mcp__one");
  g_assert_cmpstr (mcp_settings_get_permissions_allow (settings)[0], ==, "mcp__one");
  {
    g_autofree char *now = test_read_file (path);

    g_assert_cmpstr (now, ==, after);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = NULL;
  g_autofree char *home = NULL;
  g_autofree char *config = NULL;
  int status;

  /* (before anything asks GLib for them: it keeps what it found first) */
  root = g_dir_make_tmp ("plugboard-client-settings-XXXXXX", NULL);
  g_assert_nonnull (root);
  home = g_build_filename (root, "home", NULL);
  config = g_build_filename (home, ".config", NULL);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/client-settings/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("claude-code/load", test_claude_code_load);
  ADD ("claude-code/edit", test_claude_code_edit);
  ADD ("claude-code/approval", test_claude_code_approval);
  ADD ("claude-code/outside-change", test_claude_code_outside_change);
  ADD ("cursor", test_cursor);
  ADD ("vscode", test_vscode);
  ADD ("vscode/secret-input", test_vscode_secret);
  ADD ("cursor/save-expected", test_cursor_save_expected);
  ADD ("cursor/operations", test_cursor_operations);
  ADD ("claude-desktop", test_claude_desktop);
  ADD ("broken-file", test_broken_file);
  ADD ("windsurf", test_windsurf);
  ADD ("gemini", test_gemini);
  ADD ("zed", test_zed);
  ADD ("codex", test_codex);
  ADD ("goose", test_goose);

#undef ADD

  status = g_test_run ();
  test_remove_tree (root);

  return status;
}
