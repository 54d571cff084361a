/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-settings-save"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-config-file.h"
#include "mcp-json-private.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "test-dirs.h"
#include "test-util.h"

/* McpSettings and McpServerManager wired as the app wires them: each
 * "changed" reconfigures the manager. One Save of the editor (a rename, a
 * move and an edit) is one write of each file it touches and one
 * reconfiguration, and the servers it does not touch keep their
 * connections. "disabled" in its two shapes turns a server off. */

typedef struct
{
  TestDirs          dirs;
  McpSettings      *settings;
  McpServerManager *manager;
  guint             changed;
} Fixture;

static void
on_changed_cb (McpSettings *settings,
               Fixture     *f)
{
  f->changed++;
  mcp_server_manager_set_configs (f->manager, mcp_settings_get_servers (settings));
}

static guint
count_backups (const char *path)
{
  g_autofree char *dir = mcp_config_file_get_backup_dir ();
  g_autofree char *prefix = mcp_config_file_backup_prefix (path);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint count = 0;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    count += g_str_has_prefix (name, prefix);

  return count;
}

static char *
json_string (const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);

  mcp_json_append_string (out, text);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* "{"command": <fixture>, "args": [...]<extra>}" */
static char *
fixture_entry (const char *args,
               const char *extra)
{
  g_autofree char *command = json_string (g_getenv ("MCP_TEST_FIXTURE_SERVER"));

  return g_strdup_printf ("{\"command\": %s, \"args\": [%s]%s}", command, args, extra != NULL ? extra : "");
}

static void
fixture_set_up (Fixture *f)
{
  g_assert_nonnull (g_getenv ("MCP_TEST_FIXTURE_SERVER"));
  test_dirs_init (&f->dirs, "settings-save");
}

static void
start (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) settled = NULL;

  f->settings = mcp_settings_new (f->dirs.user_dir, f->dirs.project_dir);
  f->manager = mcp_server_manager_new ();
  mcp_settings_load_async (f->settings, NULL, test_result_cb, &result);
  test_iterate_until (test_result_set, &result, "settings loaded");
  g_assert_true (mcp_settings_load_finish (f->settings, result, &error));
  g_assert_no_error (error);
  g_signal_connect (f->settings, "changed", G_CALLBACK (on_changed_cb), f);
  mcp_server_manager_set_configs (f->manager, mcp_settings_get_servers (f->settings));

  mcp_server_manager_wait_settled_async (f->manager, NULL, test_result_cb, &settled);
  test_iterate_until (test_result_set, &settled, "servers settled");
  g_assert_true (mcp_server_manager_wait_settled_finish (f->manager, settled, &error));
}

static void
fixture_tear_down (Fixture *f)
{
  if (f->manager != NULL)
    {
      g_autoptr(GAsyncResult) closed = NULL;

      mcp_server_manager_close_async (f->manager, NULL, test_result_cb, &closed);
      test_iterate_until (test_result_set, &closed, "manager closed");
      mcp_server_manager_close_finish (f->manager, closed, NULL);
    }
  if (f->settings != NULL)
    g_signal_handlers_disconnect_by_data (f->settings, f);
  g_clear_object (&f->manager);
  g_clear_object (&f->settings);
  test_dirs_clear (&f->dirs);
}

static McpServerState
state_of (Fixture    *f,
          const char *name)
{
  McpServerConnection *connection = mcp_server_manager_lookup (f->manager, name);

  g_assert_nonnull (connection);
  return mcp_server_connection_get_state (connection);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

typedef struct
{
  Fixture    *f;
  const char *name;
} Wanted;

static gboolean
connected (gpointer data)
{
  Wanted *wanted = data;
  McpServerConnection *connection = mcp_server_manager_lookup (wanted->f->manager, wanted->name);

  return connection != NULL && mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_CONNECTED;
}

static void
save (Fixture        *f,
      const char     *name,
      McpConfigScope  scope,
      const char     *new_name,
      McpConfigScope  new_scope,
      const char     *entry_json)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = parse_object (entry_json);
  McpServerConfig *config = mcp_settings_lookup_in_scope (f->settings, name, scope);

  g_assert_nonnull (config);
  mcp_settings_save_server_async (f->settings, name, scope, new_name, new_scope, entry,
                                  mcp_server_config_get_json (config), NULL, test_result_cb, &result);
  test_iterate_until (test_result_set, &result, "saved");
  g_assert_true (mcp_settings_save_server_finish (f->settings, result, &error));
  g_assert_no_error (error);
}

static void
test_one_write_one_reconfigure (void)
{
  Fixture fixture = { 0 }, *f = &fixture;
  g_autofree char *a = fixture_entry ("\"--tools=1\"", NULL);
  g_autofree char *b = fixture_entry ("\"--tools=2\"", ", \"x-unknown\": 12345678901234567890");
  g_autofree char *c = fixture_entry ("\"--tools=3\"", NULL);
  g_autofree char *b_edited = fixture_entry ("\"--tools=4\"", ", \"x-unknown\": 12345678901234567890");
  g_autofree char *user = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(McpServerConnection) a_connection = NULL;
  g_autoptr(McpServerConnection) c_connection = NULL;
  g_autoptr(McpClient) a_client = NULL;
  g_autoptr(McpClient) c_client = NULL;
  Wanted wanted = { f, "bee" };
  guint user_backups;
  guint project_backups;

  fixture_set_up (f);
  user = g_strdup_printf ("{\n  \"mcpServers\": {\n    \"a\": %s,\n    \"b\": %s,\n    \"c\": %s\n  },\n"
                          "  \"x-float\": 1.5e10\n}\n", a, b, c);
  test_write_file (f->dirs.user_file, user);
  test_write_file (f->dirs.project_file, "{\n  \"mcpServers\": {}, \"x-team\": [1]\n}\n");
  start (f);
  g_assert_cmpint (state_of (f, "a"), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (state_of (f, "b"), ==, MCP_SERVER_STATE_CONNECTED);
  a_connection = g_object_ref (mcp_server_manager_lookup (f->manager, "a"));
  c_connection = g_object_ref (mcp_server_manager_lookup (f->manager, "c"));
  a_client = g_object_ref (mcp_server_connection_get_client (a_connection));
  c_client = g_object_ref (mcp_server_connection_get_client (c_connection));

  /* rename, move to local (the same file) and edit: one write, one reload */
  user_backups = count_backups (f->dirs.user_file);
  f->changed = 0;
  save (f, "b", MCP_CONFIG_SCOPE_USER, "bee", MCP_CONFIG_SCOPE_LOCAL, b_edited);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpuint (count_backups (f->dirs.user_file), ==, user_backups + 1);
  g_assert_null (mcp_settings_lookup (f->settings, "b"));
  g_assert_cmpint (mcp_server_config_get_scope (mcp_settings_lookup (f->settings, "bee")), ==,
                   MCP_CONFIG_SCOPE_LOCAL);
  contents = test_read_file (f->dirs.user_file);
  g_assert_nonnull (strstr (contents, "\"x-unknown\": 12345678901234567890"));
  g_assert_nonnull (strstr (contents, "\"x-float\": 1.5e10"));
  g_assert_nonnull (strstr (contents, "\"--tools=4\""));

  /* the servers it did not touch kept their connections and sessions */
  g_assert_true (mcp_server_manager_lookup (f->manager, "a") == a_connection);
  g_assert_true (mcp_server_manager_lookup (f->manager, "c") == c_connection);
  g_assert_true (mcp_server_connection_get_client (a_connection) == a_client);
  g_assert_true (mcp_server_connection_get_client (c_connection) == c_client);
  g_assert_cmpint (mcp_client_get_state (a_client), ==, MCP_CLIENT_STATE_READY);
  test_iterate_until (connected, &wanted, "bee connected");

  /* to the project, renamed and edited: two files, each written once (the
   * project's first), and still one reload */
  user_backups = count_backups (f->dirs.user_file);
  project_backups = count_backups (f->dirs.project_file);
  f->changed = 0;
  save (f, "bee", MCP_CONFIG_SCOPE_LOCAL, "shared", MCP_CONFIG_SCOPE_PROJECT, b);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpuint (count_backups (f->dirs.user_file), ==, user_backups + 1);
  g_assert_cmpuint (count_backups (f->dirs.project_file), ==, project_backups + 1);
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (f->dirs.project_file);
  g_assert_nonnull (g_str_has_suffix (contents, "}, \"x-team\": [1]\n}\n") ? contents : NULL);
  g_assert_nonnull (strstr (contents, "\"shared\": {"));
  g_assert_nonnull (strstr (contents, "\"x-unknown\": 12345678901234567890"));
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (f->dirs.user_file);
  g_assert_null (strstr (contents, "\"bee\""));
  /* a project server waits for approval */
  g_assert_cmpint (state_of (f, "shared"), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_true (mcp_server_manager_lookup (f->manager, "a") == a_connection);
  g_assert_true (mcp_server_connection_get_client (c_connection) == c_client);
  g_assert_cmpint (mcp_client_get_state (c_client), ==, MCP_CLIENT_STATE_READY);

  fixture_tear_down (f);
}

static void
set_enabled (Fixture    *f,
             const char *name,
             gboolean    enabled)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_settings_set_server_enabled_async (f->settings, name, MCP_CONFIG_SCOPE_USER, enabled,
                                         NULL, test_result_cb, &result);
  test_iterate_until (test_result_set, &result, "enabled or disabled");
  g_assert_true (mcp_settings_set_server_enabled_finish (f->settings, result, &error));
  g_assert_no_error (error);
}

static void
test_disabled_shapes (void)
{
  Fixture fixture = { 0 }, *f = &fixture;
  g_autofree char *off = fixture_entry ("", ", \"disabled\": true");
  g_autofree char *plain = fixture_entry ("\"--tools=2\"", NULL);
  g_autofree char *key = NULL;
  g_autofree char *user = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *needle = NULL;
  Wanted wanted = { f, "desktop" };

  fixture_set_up (f);
  key = json_string (f->dirs.project_dir);
  user = g_strdup_printf ("{\"mcpServers\": {\"desktop\": %s, \"code\": %s},"
                          " \"projects\": {%s: {\"disabledMcpServers\": [\"code\"]}}}", off, plain, key);
  test_write_file (f->dirs.user_file, user);
  start (f);

  /* Claude Desktop's key and Claude Code's list both mean off */
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "desktop")));
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "code")));
  g_assert_cmpint (state_of (f, "desktop"), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_cmpint (state_of (f, "code"), ==, MCP_SERVER_STATE_DISABLED);

  /* turned on the way each says it: "disabled": false, out of the list */
  set_enabled (f, "desktop", TRUE);
  contents = test_read_file (f->dirs.user_file);
  g_assert_nonnull (strstr (contents, "\"disabled\": false}"));
  g_assert_null (strstr (contents, "\"enabled\""));
  test_iterate_until (connected, &wanted, "desktop connected");

  set_enabled (f, "code", TRUE);
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (f->dirs.user_file);
  needle = g_strdup_printf ("%s: {\"disabledMcpServers\": []}", key);
  g_assert_nonnull (strstr (contents, needle));
  wanted.name = "code";
  test_iterate_until (connected, &wanted, "code connected");

  /* and off again: a file that says "disabled" is answered with it */
  set_enabled (f, "desktop", FALSE);
  set_enabled (f, "code", FALSE);
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (f->dirs.user_file);
  g_assert_nonnull (strstr (contents, "\"disabled\": true}"));
  g_assert_nonnull (strstr (contents, "\"--tools=2\"], \"disabled\": true}"));
  g_assert_cmpint (state_of (f, "desktop"), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_cmpint (state_of (f, "code"), ==, MCP_SERVER_STATE_DISABLED);

  fixture_tear_down (f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/settings-save/one-write-one-reconfigure", test_one_write_one_reconfigure);
  g_test_add_func ("/manager/settings-save/disabled-shapes", test_disabled_shapes);

  return g_test_run ();
}
