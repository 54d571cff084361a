/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-project-save"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-project.h"
#include "mcp-token-store.h"
#include "test-dirs.h"
#include "test-util.h"

/* McpProject's writes (issue 22): one Save of the editor as one
 * transaction (a rename, a move between scopes), a server being tried
 * saved, an entry added, removed or switched in one scope, approvals —
 * on real settings files in a temporary folder, every byte the write does
 * not change kept, and a failed write leaving every file as it was. */

typedef struct
{
  TestDirs       dirs;
  McpTokenStore *store;
  McpProject    *project;
  guint          changed;   /* "changed" of the project's settings */
} Fixture;

static void
on_settings_changed_cb (McpSettings *settings,
                        Fixture     *f)
{
  f->changed++;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *store_path = NULL;

  test_dirs_init (&f->dirs, "project-save");
  g_assert_cmpint (g_mkdir_with_parents (f->dirs.user_dir, 0700), ==, 0);
  store_path = g_build_filename (f->dirs.root, "credentials.json", NULL);
  f->store = mcp_token_store_new ("file", store_path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  if (f->project != NULL)
    {
      McpServerManager *manager = mcp_project_get_manager (f->project);
      g_autoptr(GAsyncResult) result = NULL;

      g_signal_handlers_disconnect_by_data (mcp_project_get_settings (f->project), f);
      mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
      test_wait_result (&result, "the manager to close");
      g_assert_true (mcp_server_manager_close_finish (manager, result, NULL));
    }
  g_clear_object (&f->project);
  g_clear_object (&f->store);
  test_dirs_clear (&f->dirs);
}

/* The project on the files as they are: its settings read, and with
 * @connect its servers given to the manager (loaded). */
static void
open_project (Fixture  *f,
              gboolean  connect)
{
  g_autofree char *cache_path = g_build_filename (f->dirs.root, "cache", "needs-auth.json", NULL);
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;

  manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                          "token-store", f->store,
                          "needs-auth-cache-path", cache_path,
                          "connect-timeout", 10000,
                          NULL);
  f->project = mcp_project_new_with_manager (f->dirs.project_dir, f->dirs.user_dir, manager);
  settings = mcp_project_get_settings (f->project);

  if (connect)
    {
      mcp_project_load_async (f->project, NULL, test_result_cb, &result);
      g_assert_true (mcp_project_load_finish (f->project, test_wait_result (&result, "the project to load"),
                                              &error));
    }
  else
    {
      mcp_settings_load_async (settings, NULL, test_result_cb, &result);
      g_assert_true (mcp_settings_load_finish (settings, test_wait_result (&result, "the settings to load"),
                                               &error));
    }
  g_assert_no_error (error);

  g_signal_connect (settings, "changed", G_CALLBACK (on_settings_changed_cb), f);
}

static McpSettings *
settings_of (Fixture *f)
{
  return mcp_project_get_settings (f->project);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), NULL);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

/* The project's Save of @name in @scope (NULL: a new one), made on the
 * entry as the settings have it now. */
static gboolean
save (Fixture         *f,
      const char      *name,
      McpConfigScope   scope,
      const char      *new_name,
      McpConfigScope   new_scope,
      const char      *entry_json,
      JsonObject      *expected,
      GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) entry = parse_object (entry_json);

  mcp_project_save_server_async (f->project, name, scope, new_name, new_scope, entry, expected,
                                 NULL, test_result_cb, &result);
  return mcp_project_save_server_finish (f->project, test_wait_result (&result, "the save"), error);
}

static JsonObject *
json_of (Fixture        *f,
         const char     *name,
         McpConfigScope  scope)
{
  McpServerConfig *config = mcp_settings_lookup_in_scope (settings_of (f), name, scope);

  g_assert_nonnull (config);
  return mcp_server_config_get_json (config);
}

static void
assert_file (const char *path,
             const char *expected)
{
  g_autofree char *contents = test_read_file (path);

  g_assert_cmpstr (contents, ==, expected);
}

/* What a user file holds: its own servers, then this project's local
 * ones, with spacing and a member no one knows kept as written. */
#define USER_BEFORE \
  "{\n" \
  "  \"theme\":   \"dark\",\n" \
  "  \"mcpServers\": {\n" \
  "    \"alpha\": {\"command\": \"alpha-server\", \"args\": [\"--port\",  \"1\"], \"x-note\": 1.50},\n" \
  "    \"beta\":  {\"type\": \"http\", \"url\": \"https://beta.example.com/mcp\"}\n" \
  "  }\n" \
  "}\n"

/* A Save that renames: the entry keeps its place, its unknown member and
 * its spelling; the other entry and the rest of the file stay byte for
 * byte; one write, one reload. */
static void
test_save_rename (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  test_write_file (f->dirs.user_file, USER_BEFORE);
  open_project (f, FALSE);

  g_assert_true (save (f, "alpha", MCP_CONFIG_SCOPE_USER, "gamma", MCP_CONFIG_SCOPE_USER,
                       "{\"command\": \"alpha-server\", \"args\": [\"--port\", \"2\"], \"x-note\": 1.50}",
                       json_of (f, "alpha", MCP_CONFIG_SCOPE_USER), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->changed, ==, 1);

  assert_file (f->dirs.user_file,
               "{\n"
               "  \"theme\":   \"dark\",\n"
               "  \"mcpServers\": {\n"
               "    \"gamma\": {\"command\": \"alpha-server\", \"args\": [\"--port\",  \"2\"], \"x-note\": 1.50},\n"
               "    \"beta\":  {\"type\": \"http\", \"url\": \"https://beta.example.com/mcp\"}\n"
               "  }\n"
               "}\n");
  g_assert_null (mcp_settings_lookup (settings_of (f), "alpha"));
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "gamma", MCP_CONFIG_SCOPE_USER));
  g_assert_false (g_file_test (f->dirs.project_file, G_FILE_TEST_EXISTS));
}

/* A Save that renames and moves between scopes is one transaction: the
 * destination gets the entry, the source loses it, nothing else of either
 * file changes, and the settings reload once. User → project, then
 * project → local. */
static void
test_save_move (Fixture       *f,
                gconstpointer  data)
{
  static const char project_before[] =
    "{\n"
    "\t\"mcpServers\": {\n"
    "\t\t\"shared\": {\"command\": \"shared-server\"}\n"
    "\t}\n"
    "}\n";
  g_autoptr(GError) error = NULL;
  g_autofree char *user_after = NULL;
  g_autofree char *project_after = NULL;
  g_autoptr(JsonNode) user_node = NULL;
  JsonObject *user_root;
  JsonObject *local;
  JsonObject *servers;

  test_write_file (f->dirs.user_file, USER_BEFORE);
  test_write_file (f->dirs.project_file, project_before);
  open_project (f, FALSE);

  g_assert_true (save (f, "alpha", MCP_CONFIG_SCOPE_USER, "moved", MCP_CONFIG_SCOPE_PROJECT,
                       "{\"command\": \"alpha-server\", \"args\": [\"--port\", \"1\"], \"x-note\": 1.50}",
                       json_of (f, "alpha", MCP_CONFIG_SCOPE_USER), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->changed, ==, 1);

  /* the source: only alpha's member gone */
  user_after = test_read_file (f->dirs.user_file);
  g_assert_null (strstr (user_after, "alpha"));
  g_assert_nonnull (strstr (user_after, "  \"theme\":   \"dark\",\n"));
  g_assert_nonnull (strstr (user_after, "    \"beta\":  {\"type\": \"http\", \"url\": \"https://beta.example.com/mcp\"}\n"));
  /* the destination: the entry as written there (its unknown member's
   * spelling kept), the shared entry's bytes as they were */
  project_after = test_read_file (f->dirs.project_file);
  g_assert_true (g_str_has_prefix (project_after, "{\n\t\"mcpServers\": {\n\t\t\"shared\": {\"command\": \"shared-server\"}"));
  g_assert_nonnull (strstr (project_after, "1.50"));
  g_assert_null (mcp_settings_lookup_in_scope (settings_of (f), "alpha", MCP_CONFIG_SCOPE_USER));
  g_assert_cmpstr (json_object_get_string_member (json_of (f, "moved", MCP_CONFIG_SCOPE_PROJECT), "command"),
                   ==, "alpha-server");
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "shared", MCP_CONFIG_SCOPE_PROJECT));

  /* project → local (the user file's entry for this project): .mcp.json
   * goes back to what it was */
  f->changed = 0;
  g_assert_true (save (f, "moved", MCP_CONFIG_SCOPE_PROJECT, "moved", MCP_CONFIG_SCOPE_LOCAL,
                       "{\"command\": \"alpha-server\", \"args\": [\"--port\", \"1\"], \"x-note\": 1.50}",
                       json_of (f, "moved", MCP_CONFIG_SCOPE_PROJECT), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->changed, ==, 1);
  assert_file (f->dirs.project_file, project_before);
  g_assert_null (mcp_settings_lookup_in_scope (settings_of (f), "moved", MCP_CONFIG_SCOPE_PROJECT));
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "moved", MCP_CONFIG_SCOPE_LOCAL));

  g_clear_pointer (&user_after, g_free);
  user_after = test_read_file (f->dirs.user_file);
  user_node = mcp_json_parse (user_after, strlen (user_after), &error);
  g_assert_no_error (error);
  user_root = json_node_get_object (user_node);
  local = json_object_get_object_member (json_object_get_object_member (user_root, "projects"), f->dirs.project_dir);
  servers = json_object_get_object_member (local, "mcpServers");
  g_assert_true (json_object_has_member (servers, "moved"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (servers, "moved"), "command"),
                   ==, "alpha-server");
  /* the user scope's servers are what they were after the first save */
  g_assert_false (json_object_has_member (json_object_get_object_member (user_root, "mcpServers"), "moved"));
  g_assert_true (json_object_has_member (json_object_get_object_member (user_root, "mcpServers"), "beta"));
}

/* A write that fails leaves every file as it was and says why: the entry
 * changed on disk since the edit began, and a move into a file that does
 * not parse. */
static void
test_save_failure (Fixture       *f,
                   gconstpointer  data)
{
  static const char user_changed[] =
    "{\n"
    "  \"mcpServers\": {\n"
    "    \"alpha\": {\"command\": \"changed-elsewhere\"}\n"
    "  }\n"
    "}\n";
  static const char broken[] = "{\"mcpServers\": {\"shared\": ";
  g_autoptr(JsonObject) opened = NULL;
  g_autoptr(GError) error = NULL;

  test_write_file (f->dirs.user_file, USER_BEFORE);
  test_write_file (f->dirs.project_file, broken);
  open_project (f, FALSE);

  /* .mcp.json does not parse: nothing moves into it, nothing leaves */
  g_assert_false (save (f, "alpha", MCP_CONFIG_SCOPE_USER, "alpha", MCP_CONFIG_SCOPE_PROJECT,
                        "{\"command\": \"alpha-server\"}", json_of (f, "alpha", MCP_CONFIG_SCOPE_USER), &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, ".mcp.json"));
  g_clear_error (&error);
  assert_file (f->dirs.user_file, USER_BEFORE);
  assert_file (f->dirs.project_file, broken);

  /* another program changed the entry after the editor opened it */
  opened = json_object_ref (json_of (f, "alpha", MCP_CONFIG_SCOPE_USER));
  test_write_file (f->dirs.user_file, user_changed);
  g_assert_false (save (f, "alpha", MCP_CONFIG_SCOPE_USER, "renamed", MCP_CONFIG_SCOPE_USER,
                        "{\"command\": \"alpha-server\"}", opened, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  assert_file (f->dirs.user_file, user_changed);
  assert_file (f->dirs.project_file, broken);
}

/* A server being tried is in no file: saved under another name the try
 * ends (its connection goes), under its own name the saved entry takes
 * its place. */
static void
test_save_tried (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *entry_json = g_strdup_printf ("{\"command\": \"%s\"}", test_fixture_server ());
  g_autoptr(JsonObject) entry = parse_object (entry_json);
  McpServerManager *manager;
  g_autoptr(GError) error = NULL;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {}}\n");
  open_project (f, TRUE);
  manager = mcp_project_get_manager (f->project);

  g_assert_true (mcp_project_try_server (f->project, "trial", entry, &error));
  g_assert_no_error (error);
  g_assert_nonnull (mcp_server_manager_lookup (manager, "trial"));

  g_assert_true (save (f, "trial", MCP_CONFIG_SCOPE_USER, "kept", MCP_CONFIG_SCOPE_USER, entry_json, NULL,
                       &error));
  g_assert_no_error (error);
  g_assert_null (mcp_project_lookup_unsaved (f->project, "trial"));
  g_assert_null (mcp_server_manager_lookup (manager, "trial"));
  g_assert_nonnull (mcp_server_manager_lookup (manager, "kept"));
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "kept", MCP_CONFIG_SCOPE_USER));

  g_assert_true (mcp_project_try_server (f->project, "again", entry, &error));
  g_assert_no_error (error);
  g_assert_true (save (f, "again", MCP_CONFIG_SCOPE_LOCAL, "again", MCP_CONFIG_SCOPE_LOCAL, entry_json, NULL,
                       &error));
  g_assert_no_error (error);
  g_assert_null (mcp_project_lookup_unsaved (f->project, "again"));
  g_assert_nonnull (mcp_server_manager_lookup (manager, "again"));
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "again", MCP_CONFIG_SCOPE_LOCAL));
}

static gboolean
finish_run (Fixture       *f,
            GAsyncResult **result,
            GError       **error)
{
  return mcp_project_run_finish (f->project, test_wait_result (result, "a write"), NULL, error);
}

/* Adding, and removing or disabling the entry of one scope — a shadowed
 * one too — write only that scope's file. */
static void
test_add_remove_enable (Fixture       *f,
                        gconstpointer  data)
{
  static const char project_before[] = "{\"mcpServers\": {\"beta\": {\"command\": \"project-beta\"}}}\n";
  g_autoptr(JsonObject) entry = parse_object ("{\"command\": \"added-server\"}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *user_after = NULL;

  test_write_file (f->dirs.user_file, USER_BEFORE);
  test_write_file (f->dirs.project_file, project_before);
  open_project (f, FALSE);

  mcp_project_add_server_async (f->project, "added", MCP_CONFIG_SCOPE_USER, entry, NULL, test_result_cb, &result);
  g_assert_true (mcp_project_add_server_finish (f->project, test_wait_result (&result, "the add"), &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "added", MCP_CONFIG_SCOPE_USER));

  /* the name is taken: refused, nothing written */
  user_after = test_read_file (f->dirs.user_file);
  mcp_project_add_server_async (f->project, "added", MCP_CONFIG_SCOPE_USER, entry, NULL, test_result_cb, &result);
  g_assert_false (mcp_project_add_server_finish (f->project, test_wait_result (&result, "the add"), &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_clear_object (&result);
  assert_file (f->dirs.user_file, user_after);

  /* beta of the user scope is shadowed by the project's: disabled there,
   * the project's .mcp.json is not touched */
  mcp_project_set_server_enabled_async (f->project, "beta", MCP_CONFIG_SCOPE_USER, FALSE,
                                        NULL, test_result_cb, &result);
  g_assert_true (finish_run (f, &result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup_in_scope (settings_of (f), "beta",
                                                                               MCP_CONFIG_SCOPE_USER)));
  assert_file (f->dirs.project_file, project_before);

  mcp_project_remove_server_async (f->project, "beta", MCP_CONFIG_SCOPE_USER, NULL, test_result_cb, &result);
  g_assert_true (finish_run (f, &result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_null (mcp_settings_lookup_in_scope (settings_of (f), "beta", MCP_CONFIG_SCOPE_USER));
  g_assert_nonnull (mcp_settings_lookup_in_scope (settings_of (f), "beta", MCP_CONFIG_SCOPE_PROJECT));
  assert_file (f->dirs.project_file, project_before);
  g_clear_pointer (&user_after, g_free);
  user_after = test_read_file (f->dirs.user_file);
  g_assert_nonnull (strstr (user_after, "  \"theme\":   \"dark\",\n"));
  g_assert_nonnull (strstr (user_after, "\"alpha\": {\"command\": \"alpha-server\", \"args\": [\"--port\",  \"1\"], \"x-note\": 1.50}"));
}

/* Approvals written through the project: kept in the local scope, bound
 * to what the server runs; .mcp.json is not touched. */
static void
test_approval (Fixture       *f,
               gconstpointer  data)
{
  static const char project_before[] =
    "{\"mcpServers\": {\"one\": {\"command\": \"one-server\"}, \"two\": {\"command\": \"two-server\"}}}\n";
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  test_write_file (f->dirs.project_file, project_before);
  open_project (f, FALSE);
  g_assert_cmpint (mcp_settings_get_approval (settings_of (f), "one"), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpint (mcp_settings_get_approval (settings_of (f), "two"), ==, MCP_APPROVAL_PENDING);

  mcp_project_run_async (f->project, MCP_PROJECT_OP_APPROVE, "one", NULL, test_result_cb, &result);
  g_assert_true (finish_run (f, &result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  mcp_project_run_async (f->project, MCP_PROJECT_OP_REJECT, "two", NULL, test_result_cb, &result);
  g_assert_true (finish_run (f, &result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  g_assert_cmpint (mcp_settings_get_approval (settings_of (f), "one"), ==, MCP_APPROVAL_APPROVED);
  g_assert_cmpint (mcp_settings_get_approval (settings_of (f), "two"), ==, MCP_APPROVAL_REJECTED);
  assert_file (f->dirs.project_file, project_before);
  g_assert_true (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));

  /* a fresh read of the files says the same */
  g_clear_object (&f->project);
  open_project (f, FALSE);
  g_assert_cmpint (mcp_settings_get_approval (settings_of (f), "one"), ==, MCP_APPROVAL_APPROVED);
  g_assert_cmpint (mcp_settings_get_approval (settings_of (f), "two"), ==, MCP_APPROVAL_REJECTED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/project-save/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("rename", test_save_rename);
  ADD ("move", test_save_move);
  ADD ("failure", test_save_failure);
  ADD ("tried", test_save_tried);
  ADD ("add-remove-enable", test_add_remove_enable);
  ADD ("approval", test_approval);

#undef ADD

  return g_test_run ();
}
