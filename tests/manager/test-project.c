/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-project"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-json-private.h"
#include "mcp-oauth-fixture.h"
#include "mcp-project.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-util.h"

/* McpProject without a display: real McpSettings on files in a
 * temporary directory, the stdio fixture server and the in-process OAuth
 * fixture for live connections. */

typedef struct
{
  TestDirs     dirs;
  McpTokenStore    *store;
  McpProject *project;
} Fixture;

static JsonObject *
read_json (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  node = mcp_json_parse (contents, strlen (contents), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

/* mcpServers[@name] of a file's top level (or of projects[dir] when
 * @project_dir is set), or NULL. */
static JsonObject *
file_entry (const char *path,
            const char *project_dir,
            const char *name)
{
  g_autoptr(JsonObject) root = read_json (path);
  JsonObject *servers;
  JsonObject *holder = root;

  if (project_dir != NULL)
    {
      JsonObject *projects = json_object_get_object_member (root, "projects");

      if (projects == NULL || !json_object_has_member (projects, project_dir))
        return NULL;
      holder = json_object_get_object_member (projects, project_dir);
    }

  if (!json_object_has_member (holder, "mcpServers"))
    return NULL;
  servers = json_object_get_object_member (holder, "mcpServers");
  if (!json_object_has_member (servers, name))
    return NULL;

  return json_object_ref (json_object_get_object_member (servers, name));
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  test_dirs_init (&f->dirs, "project");
  g_assert_cmpint (g_mkdir_with_parents (f->dirs.user_dir, 0700), ==, 0);
  {
    g_autofree char *store_path = g_build_filename (f->dirs.root, "credentials.json", NULL);

    f->store = mcp_token_store_new ("file", store_path);
  }
}

static McpProject *
fixture_new_project (Fixture *f)
{
  g_autofree char *cache_path = g_build_filename (f->dirs.root, "cache", "needs-auth.json", NULL);
  g_autoptr(McpServerManager) manager = NULL;

  manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                          "token-store", f->store,
                          "needs-auth-cache-path", cache_path,
                          "connect-timeout", 10000,
                          NULL);

  return mcp_project_new_with_manager (f->dirs.project_dir, f->dirs.user_dir, manager);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  if (f->project != NULL)
    {
      McpServerManager *manager = mcp_project_get_manager (f->project);
      g_autoptr(GAsyncResult) result = NULL;

      mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
      test_wait_result (&result, "the manager to close");
      g_assert_true (mcp_server_manager_close_finish (manager, result, NULL));
    }
  g_clear_object (&f->project);
  g_clear_object (&f->store);
  test_dirs_clear (&f->dirs);
}

static void
load (McpProject *project)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (mcp_project_get_loaded (project));
  mcp_project_load_async (project, NULL, test_result_cb, &result);
  test_wait_result (&result, "the project to load");
  g_assert_true (mcp_project_load_finish (project, result, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_project_get_loaded (project));
}

static void
settle (McpProject *project)
{
  McpServerManager *manager = mcp_project_get_manager (project);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_server_manager_wait_settled_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the servers to settle");
  g_assert_true (mcp_server_manager_wait_settled_finish (manager, result, &error));
  g_assert_no_error (error);
}

static McpServerConnection *
connection (McpProject *project,
            const char *name)
{
  McpServerConnection *c = mcp_server_manager_lookup (mcp_project_get_manager (project), name);

  g_assert_nonnull (c);
  return c;
}

static void
wait_state (McpProject     *project,
            const char     *name,
            McpServerState  state)
{
  test_wait_server_state (mcp_project_get_manager (project), name, state);
}

static gboolean
run (McpProject    *project,
     McpProjectOp   op,
     const char    *name,
     char         **out_name,
     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_project_run_async (project, op, name, NULL, test_result_cb, &result);
  test_wait_result (&result, "an operation");
  return mcp_project_run_finish (project, result, out_name, error);
}

static char *
stdio_entry (const char *extra)
{
  return g_strdup_printf ("{\"command\": \"%s\"%s}", test_fixture_server (), extra ? extra : "");
}

/* The project's list: effective servers (connections) in settings order,
 * then the shadowed entries (configs). */
static void
test_project_load (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *one = stdio_entry (NULL);
  g_autofree char *two = stdio_entry (", \"enabled\": false");
  g_autofree char *user = NULL;
  g_autofree char *fix_json = NULL;
  g_autoptr(GObject) item = NULL;
  g_autoptr(GObject) kept = NULL;
  GListModel *servers;

  user = g_strdup_printf ("{\"mcpServers\": {\"alpha\": %s, \"shared\": %s, \"off\": %s},"
                          " \"projects\": {\"%s\": {\"mcpServers\": {\"shared\": %s}}}}",
                          one, one, two, f->dirs.project_dir, one);
  test_write_file (f->dirs.user_file, user);

  f->project = fixture_new_project (f);
  servers = mcp_project_get_servers (f->project);
  g_assert_true (G_IS_LIST_MODEL (servers));
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 0);
  g_assert_cmpstr (mcp_project_get_project_dir (f->project), ==, f->dirs.project_dir);
  g_assert_nonnull (mcp_project_get_settings (f->project));

  load (f->project);
  settle (f->project);

  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 4);
  for (guint i = 0; i < 3; i++)
    {
      static const char *names[] = { "alpha", "shared", "off" };
      g_autoptr(GObject) it = g_list_model_get_item (servers, i);

      g_assert_true (MCP_IS_SERVER_CONNECTION (it));
      g_assert_cmpstr (mcp_server_connection_get_name (MCP_SERVER_CONNECTION (it)), ==, names[i]);
    }
  item = g_list_model_get_item (servers, 3);
  g_assert_true (MCP_IS_SERVER_CONFIG (item));
  g_assert_cmpstr (mcp_server_config_get_name (MCP_SERVER_CONFIG (item)), ==, "shared");
  g_assert_cmpint (mcp_server_config_get_scope (MCP_SERVER_CONFIG (item)), ==, MCP_CONFIG_SCOPE_USER);
  g_clear_object (&item);

  item = g_list_model_get_item (servers, 1);
  g_assert_cmpint (mcp_server_config_get_scope (mcp_server_connection_get_config (MCP_SERVER_CONNECTION (item))),
                   ==, MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "alpha")), ==,
                   MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "off")), ==,
                   MCP_SERVER_STATE_DISABLED);
  g_clear_object (&item);

  /* An outside edit adds a server: the list follows, and the rows of the
   * servers that did not change keep their items. */
  kept = g_list_model_get_item (servers, 0);
  fix_json = g_strdup_printf ("{\"mcpServers\": {\"alpha\": %s, \"shared\": %s, \"off\": %s, \"beta\": %s},"
                              " \"projects\": {\"%s\": {\"mcpServers\": {\"shared\": %s}}}}",
                              one, one, two, one, f->dirs.project_dir, one);
  test_write_file (f->dirs.user_file, fix_json);
  {
    guint hang_id = test_hang_guard ("the outside edit");

    while (g_list_model_get_n_items (servers) != 5)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }
  item = g_list_model_get_item (servers, 0);
  g_assert_true (item == kept);
  g_clear_object (&item);
  item = g_list_model_get_item (servers, 3);
  g_assert_true (MCP_IS_SERVER_CONNECTION (item));
  g_assert_cmpstr (mcp_server_connection_get_name (MCP_SERVER_CONNECTION (item)), ==, "beta");
  wait_state (f->project, "beta", MCP_SERVER_STATE_CONNECTED);
}

static void
test_project_operations (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *one = stdio_entry (", \"env\": {\"KEEP\": \"1\"}, \"x-unknown\": [1, 2]");
  g_autofree char *user = NULL;
  g_autofree char *new_name = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) before = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) before_node = NULL;
  g_autoptr(JsonNode) after_node = NULL;
  McpServerConnection *c;
  McpClient *client;

  user = g_strdup_printf ("{\"mcpServers\": {\"fix\": %s}}", one);
  test_write_file (f->dirs.user_file, user);
  f->project = fixture_new_project (f);
  load (f->project);
  settle (f->project);
  c = connection (f->project, "fix");
  g_assert_cmpint (mcp_server_connection_get_state (c), ==, MCP_SERVER_STATE_CONNECTED);

  /* Reconnect: a new client, connected again. */
  client = mcp_server_connection_get_client (c);
  g_assert_nonnull (client);
  g_assert_true (run (f->project, MCP_PROJECT_OP_RECONNECT, "fix", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (c), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_nonnull (mcp_server_connection_get_client (c));

  /* Disable persists "enabled": false; enable takes it away. */
  g_assert_true (run (f->project, MCP_PROJECT_OP_DISABLE, "fix", NULL, &error));
  g_assert_no_error (error);
  entry = file_entry (f->dirs.user_file, NULL, "fix");
  g_assert_nonnull (entry);
  g_assert_true (json_object_has_member (entry, "enabled"));
  g_assert_false (json_object_get_boolean_member (entry, "enabled"));
  g_clear_pointer (&entry, json_object_unref);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "fix")), ==,
                   MCP_SERVER_STATE_DISABLED);

  g_assert_true (run (f->project, MCP_PROJECT_OP_ENABLE, "fix", NULL, &error));
  g_assert_no_error (error);
  entry = file_entry (f->dirs.user_file, NULL, "fix");
  g_assert_false (json_object_has_member (entry, "enabled"));
  g_assert_true (json_object_has_member (entry, "x-unknown"));
  g_clear_pointer (&entry, json_object_unref);
  wait_state (f->project, "fix", MCP_SERVER_STATE_CONNECTED);

  /* Duplicate: "-copy", then "-copy-2", same JSON, same scope. */
  g_assert_true (run (f->project, MCP_PROJECT_OP_DUPLICATE, "fix", &new_name, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (new_name, ==, "fix-copy");
  g_clear_pointer (&new_name, g_free);
  g_assert_true (run (f->project, MCP_PROJECT_OP_DUPLICATE, "fix", &new_name, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (new_name, ==, "fix-copy-2");
  entry = file_entry (f->dirs.user_file, NULL, "fix-copy");
  g_assert_nonnull (entry);
  g_assert_true (json_object_has_member (entry, "x-unknown"));
  g_clear_pointer (&entry, json_object_unref);
  wait_state (f->project, "fix-copy-2", MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_project_get_servers (f->project)), ==, 3);

  /* Remove, then restore the JSON captured before: the same entry again. */
  before = file_entry (f->dirs.user_file, NULL, "fix-copy");
  g_assert_true (run (f->project, MCP_PROJECT_OP_REMOVE, "fix-copy", NULL, &error));
  g_assert_no_error (error);
  g_assert_null (file_entry (f->dirs.user_file, NULL, "fix-copy"));
  g_assert_null (mcp_server_manager_lookup (mcp_project_get_manager (f->project), "fix-copy"));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_project_get_servers (f->project)), ==, 2);
  {
    g_autoptr(GAsyncResult) result = NULL;

    mcp_project_restore_async (f->project, "fix-copy", MCP_CONFIG_SCOPE_USER, before,
                               NULL, test_result_cb, &result);
    test_wait_result (&result, "the restore");
    g_assert_true (mcp_project_restore_finish (f->project, result, &error));
    g_assert_no_error (error);
  }
  entry = file_entry (f->dirs.user_file, NULL, "fix-copy");
  g_assert_nonnull (entry);
  before_node = json_node_init_object (json_node_alloc (), before);
  after_node = json_node_init_object (json_node_alloc (), entry);
  g_assert_true (json_node_equal (before_node, after_node));
  g_clear_pointer (&entry, json_object_unref);
  wait_state (f->project, "fix-copy", MCP_SERVER_STATE_CONNECTED);

  /* Move to the project scope: both files are written. */
  {
    g_autoptr(GAsyncResult) result = NULL;

    mcp_project_move_async (f->project, "fix-copy-2", MCP_CONFIG_SCOPE_PROJECT,
                            NULL, test_result_cb, &result);
    test_wait_result (&result, "the move");
    g_assert_true (mcp_project_move_finish (f->project, result, &error));
    g_assert_no_error (error);
  }
  g_assert_null (file_entry (f->dirs.user_file, NULL, "fix-copy-2"));
  entry = file_entry (f->dirs.project_file, NULL, "fix-copy-2");
  g_assert_nonnull (entry);
  g_assert_true (json_object_has_member (entry, "x-unknown"));
  g_clear_pointer (&entry, json_object_unref);
  g_assert_cmpint (mcp_server_config_get_scope (mcp_settings_lookup (mcp_project_get_settings (f->project),
                                                                     "fix-copy-2")),
                   ==, MCP_CONFIG_SCOPE_PROJECT);

  /* Unknown names say so. */
  g_assert_false (run (f->project, MCP_PROJECT_OP_REMOVE, "nope", NULL, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "nope"));
  g_clear_error (&error);
  g_assert_false (run (f->project, MCP_PROJECT_OP_RECONNECT, "nope", NULL, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
}

static void
test_project_approval (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *one = stdio_entry (NULL);
  g_autofree char *project = NULL;
  g_auto(GStrv) pending = NULL;
  g_autoptr(GError) error = NULL;
  McpSettings *settings;

  project = g_strdup_printf ("{\"mcpServers\": {\"yes\": %s, \"no\": %s}}", one, one);
  test_write_file (f->dirs.project_file, project);
  f->project = fixture_new_project (f);
  settings = mcp_project_get_settings (f->project);
  load (f->project);
  settle (f->project);

  pending = mcp_settings_dup_pending_approvals (settings);
  g_assert_cmpuint (g_strv_length (pending), ==, 2);
  /* Nothing starts before the person decides. */
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "yes")), ==,
                   MCP_SERVER_STATE_DISABLED);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "no")), ==,
                   MCP_SERVER_STATE_DISABLED);

  g_assert_true (run (f->project, MCP_PROJECT_OP_APPROVE, "yes", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (run (f->project, MCP_PROJECT_OP_REJECT, "no", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_settings_get_approval (settings, "yes"), ==, MCP_APPROVAL_APPROVED);
  g_assert_cmpint (mcp_settings_get_approval (settings, "no"), ==, MCP_APPROVAL_REJECTED);
  wait_state (f->project, "yes", MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "no")), ==,
                   MCP_SERVER_STATE_DISABLED);

  /* The decisions are in the user file, the shared .mcp.json unchanged. */
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (f->dirs.project_file, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, project);
    g_clear_pointer (&contents, g_free);
    g_assert_true (g_file_get_contents (f->dirs.user_file, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "enabledMcpjsonServers"));
    g_assert_nonnull (strstr (contents, "disabledMcpjsonServers"));
  }
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

typedef struct
{
  McpProject  *project;
  const char  *name;
  McpApproval  approval;
} ApprovalWait;

static gboolean
approval_is (gpointer data)
{
  ApprovalWait *wait = data;
  McpServerConnection *c = mcp_server_manager_lookup (mcp_project_get_manager (wait->project), wait->name);

  return c != NULL && mcp_server_connection_get_approval (c) == wait->approval;
}

static void
wait_approval (McpProject  *project,
               const char  *name,
               McpApproval  approval)
{
  ApprovalWait wait = { project, name, approval };

  test_iterate_until (approval_is, &wait, "the connection's approval");
}

/* Each connection's "approval" property follows the settings: pending,
 * the person's decision, what .mcp.json runs changing since, and not
 * needed outside the project scope; notified only when it changes. */
static void
test_project_approval_property (Fixture       *f,
                                gconstpointer  data)
{
  g_autofree char *one = stdio_entry (NULL);
  g_autofree char *other = stdio_entry (", \"args\": [\"--tools\", \"2\"]");
  g_autofree char *project = NULL;
  g_autofree char *user = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *yes;
  McpServerConnection *no;
  McpApproval approval = MCP_APPROVAL_NOT_NEEDED;
  guint no_notified = 0;

  project = g_strdup_printf ("{\"mcpServers\": {\"yes\": %s, \"no\": %s}}", one, one);
  test_write_file (f->dirs.project_file, project);
  user = g_strdup_printf ("{\"mcpServers\": {\"mine\": %s}}", one);
  test_write_file (f->dirs.user_file, user);
  f->project = fixture_new_project (f);
  load (f->project);
  settle (f->project);

  yes = connection (f->project, "yes");
  no = connection (f->project, "no");
  g_assert_cmpint (mcp_server_connection_get_approval (yes), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpint (mcp_server_connection_get_approval (no), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpint (mcp_server_connection_get_approval (connection (f->project, "mine")), ==,
                   MCP_APPROVAL_NOT_NEEDED);
  g_object_get (no, "approval", &approval, NULL);
  g_assert_cmpint (approval, ==, MCP_APPROVAL_PENDING);
  g_assert_true (g_type_is_a (G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property (G_OBJECT_GET_CLASS (no),
                                                                                       "approval")),
                              MCP_TYPE_APPROVAL));

  /* "no" stays the same connection through the decisions on "yes" and
   * its own: notified once, when it is rejected. */
  g_object_ref (no);
  g_signal_connect (no, "notify::approval", G_CALLBACK (count_notify_cb), &no_notified);

  g_assert_true (run (f->project, MCP_PROJECT_OP_APPROVE, "yes", NULL, &error));
  g_assert_no_error (error);
  wait_approval (f->project, "yes", MCP_APPROVAL_APPROVED);
  wait_state (f->project, "yes", MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (no_notified, ==, 0);

  g_assert_true (run (f->project, MCP_PROJECT_OP_REJECT, "no", NULL, &error));
  g_assert_no_error (error);
  wait_approval (f->project, "no", MCP_APPROVAL_REJECTED);
  /* a disabled entry's connection is the same whatever the reason */
  g_assert_true (connection (f->project, "no") == no);
  g_assert_cmpuint (no_notified, ==, 1);
  g_signal_handlers_disconnect_by_func (no, count_notify_cb, &no_notified);
  g_object_unref (no);

  /* What "yes" runs changes in .mcp.json: changed since approval, and it
   * does not run. */
  g_clear_pointer (&project, g_free);
  project = g_strdup_printf ("{\"mcpServers\": {\"yes\": %s, \"no\": %s}}", other, one);
  test_write_file (f->dirs.project_file, project);
  wait_approval (f->project, "yes", MCP_APPROVAL_CHANGED);
  wait_state (f->project, "yes", MCP_SERVER_STATE_DISABLED);
  g_assert_cmpint (mcp_server_connection_get_approval (connection (f->project, "no")), ==,
                   MCP_APPROVAL_REJECTED);
  g_assert_cmpint (mcp_server_connection_get_approval (connection (f->project, "mine")), ==,
                   MCP_APPROVAL_NOT_NEEDED);

  /* Approved again: approved, and it runs what the file says now. */
  g_assert_true (run (f->project, MCP_PROJECT_OP_APPROVE, "yes", NULL, &error));
  g_assert_no_error (error);
  wait_approval (f->project, "yes", MCP_APPROVAL_APPROVED);
  wait_state (f->project, "yes", MCP_SERVER_STATE_CONNECTED);
}

static void
add_example (McpProject *project,
             const char *expected)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  mcp_project_add_example_async (project, NULL, test_result_cb, &result);
  test_wait_result (&result, "the example server");
  g_assert_true (mcp_project_add_example_finish (project, result, &name, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, expected);
}

static void
test_project_add_example (Fixture       *f,
                          gconstpointer  data)
{
  McpSettings *settings;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  JsonArray *args;

  /* The settings only: the manager never gets the servers, so npx is not
   * started by this test. */
  f->project = fixture_new_project (f);
  settings = mcp_project_get_settings (f->project);
  mcp_settings_load_async (settings, NULL, test_result_cb, &result);
  test_wait_result (&result, "the settings");
  g_assert_true (mcp_settings_load_finish (settings, result, &error));
  g_assert_no_error (error);

  add_example (f->project, "everything");
  entry = file_entry (f->dirs.user_file, NULL, "everything");
  g_assert_nonnull (entry);
  g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, "npx");
  args = json_object_get_array_member (entry, "args");
  g_assert_cmpuint (json_array_get_length (args), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (args, 0), ==, "-y");
  g_assert_cmpstr (json_array_get_string_element (args, 1), ==, "@modelcontextprotocol/server-everything");
  g_assert_nonnull (mcp_settings_lookup (settings, "everything"));

  add_example (f->project, "everything-2");
  g_clear_pointer (&entry, json_object_unref);
  entry = file_entry (f->dirs.user_file, NULL, "everything-2");
  g_assert_nonnull (entry);
  g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, "npx");
  g_assert_cmpuint (mcp_server_manager_get_connecting (mcp_project_get_manager (f->project)), ==, 0);
  g_assert_null (mcp_server_manager_lookup (mcp_project_get_manager (f->project), "everything"));
}

static void
browsed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  guint *n_browsed = user_data;

  mcp_oauth_fixture_browse_finish (result, &error);
  g_assert_no_error (error);
  (*n_browsed)++;
}

/* The person at the sign-in page: the fixture's browser. */
#define TEST_TYPE_BROWSER (test_browser_get_type ())
G_DECLARE_FINAL_TYPE (TestBrowser, test_browser, TEST, BROWSER, McpInteraction)

struct _TestBrowser
{
  McpInteraction  parent_instance;
  guint          *n_browsed;
};

G_DEFINE_FINAL_TYPE (TestBrowser, test_browser, MCP_TYPE_INTERACTION)

static void
test_browser_show_sign_in_url (McpInteraction *interaction,
                               const char     *server_name,
                               const char     *url,
                               const char     *host)
{
  mcp_oauth_fixture_browse_async (url, NULL, browsed_cb, TEST_BROWSER (interaction)->n_browsed);
}

static void
test_browser_class_init (TestBrowserClass *klass)
{
  MCP_INTERACTION_CLASS (klass)->show_sign_in_url = test_browser_show_sign_in_url;
}

static void
test_browser_init (TestBrowser *self)
{
}

static void
test_project_sign_in (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *user = NULL;
  g_autoptr(TestBrowser) browser = NULL;
  McpServerConnection *c;
  guint n_browsed = 0;

  oauth = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);
  user = g_strdup_printf ("{\"mcpServers\": {\"remote\": {\"type\": \"http\", \"url\": \"%s\"}}}",
                          mcp_oauth_fixture_get_mcp_url (oauth));
  test_write_file (f->dirs.user_file, user);
  f->project = fixture_new_project (f);
  load (f->project);
  settle (f->project);
  c = connection (f->project, "remote");
  g_assert_cmpint (mcp_server_connection_get_state (c), ==, MCP_SERVER_STATE_NEEDS_AUTH);

  browser = g_object_new (TEST_TYPE_BROWSER, NULL);
  browser->n_browsed = &n_browsed;
  mcp_project_set_interaction (f->project, MCP_INTERACTION (browser));
  mcp_project_sign_in_async (f->project, "remote", NULL, test_result_cb, &result);
  test_wait_result (&result, "the sign-in");
  g_assert_true (mcp_project_sign_in_finish (f->project, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_browsed, ==, 1);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "remote")), ==,
                   MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "token-code"), ==, 1);

  /* Sign out: needs-auth again. */
  g_assert_true (run (f->project, MCP_PROJECT_OP_SIGN_OUT, "remote", NULL, &error));
  g_assert_no_error (error);
  wait_state (f->project, "remote", MCP_SERVER_STATE_NEEDS_AUTH);
}

/* mcp_project_new: the manager's limits from GSettings, unless the
 * environment sets them. */
static void
test_project_limits (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GSettings) gsettings = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(McpProject) project = NULL;
  guint timeout = 0;
  guint local = 0;

  schema = g_settings_schema_source_lookup (g_settings_schema_source_get_default (), APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      g_test_skip ("the GSettings schema is not available");
      return;
    }

  g_unsetenv ("MCP_TIMEOUT");
  g_unsetenv ("MCP_SERVER_CONNECTION_BATCH_SIZE");
  gsettings = g_settings_new (APPLICATION_ID);
  g_settings_set_uint (gsettings, "connect-timeout", 12345);
  g_settings_set_uint (gsettings, "local-batch-size", 7);

  project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
  g_object_get (mcp_project_get_manager (project),
                "connect-timeout", &timeout, "local-batch-size", &local, NULL);
  g_assert_cmpuint (timeout, ==, 12345);
  g_assert_cmpuint (local, ==, 7);

  /* Preferences apply at once. */
  g_settings_set_uint (gsettings, "connect-timeout", 23456);
  g_object_get (mcp_project_get_manager (project), "connect-timeout", &timeout, NULL);
  g_assert_cmpuint (timeout, ==, 23456);

  /* Issue 21, defect 5: the three preferences no code read */
  {
    guint tool_timeout = 0;
    guint request_timeout = 0;
    guint tokens = 0;

    g_unsetenv ("MCP_TOOL_TIMEOUT");
    g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");
    g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");
    g_clear_object (&project);
    g_settings_set_uint (gsettings, "tool-timeout", 5000);
    g_settings_set_uint (gsettings, "request-timeout", 7000);
    g_settings_set_uint (gsettings, "max-output-tokens", 2000);
    project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
    g_object_get (mcp_project_get_manager (project),
                  "tool-timeout", &tool_timeout, "request-timeout", &request_timeout,
                  "max-output-tokens", &tokens, NULL);
    g_assert_cmpuint (tool_timeout, ==, 5000);
    g_assert_cmpuint (request_timeout, ==, 7000);
    g_assert_cmpuint (tokens, ==, 2000);
    g_settings_set_uint (gsettings, "max-output-tokens", 3000);
    g_object_get (mcp_project_get_manager (project), "max-output-tokens", &tokens, NULL);
    g_assert_cmpuint (tokens, ==, 3000);
    g_settings_reset (gsettings, "tool-timeout");
    g_settings_reset (gsettings, "request-timeout");
    g_settings_reset (gsettings, "max-output-tokens");
  }
  g_clear_object (&project);

  /* The environment wins. */
  g_setenv ("MCP_TIMEOUT", "4321", TRUE);
  project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
  g_object_get (mcp_project_get_manager (project),
                "connect-timeout", &timeout, "local-batch-size", &local, NULL);
  g_assert_cmpuint (timeout, ==, 4321);
  g_assert_cmpuint (local, ==, 7);
  g_unsetenv ("MCP_TIMEOUT");
  g_settings_reset (gsettings, "connect-timeout");
  g_settings_reset (gsettings, "local-batch-size");

  /* No folder: the home folder. */
  g_clear_object (&project);
  project = mcp_project_new (NULL, f->dirs.user_dir);
  g_assert_null (mcp_project_get_project_dir (project));
  g_assert_cmpstr (mcp_settings_get_project_dir (mcp_project_get_settings (project)), ==,
                   g_get_home_dir ());
}

static JsonObject *
parse_entry (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

/* Trying a server without saving it (issue 21, view 12): connected and
 * usable like any other, in no file until it is saved; saving it under its
 * name keeps the connection; discarding writes nothing. */
static void
test_project_try (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *one = stdio_entry (NULL);
  g_autofree char *changed = stdio_entry (", \"env\": {\"TRIED\": \"again\"}");
  g_autofree char *user = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) entry = parse_entry (one);
  g_autoptr(JsonObject) changed_entry = parse_entry (changed);
  g_autoptr(JsonObject) bad = parse_entry ("{\"type\": \"http\"}");
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *c;
  McpServerConfig *config;
  GListModel *servers;
  guint config_notifies = 0;

  user = g_strdup_printf ("{\"mcpServers\": {\"fix\": %s}}", one);
  test_write_file (f->dirs.user_file, user);
  f->project = fixture_new_project (f);
  load (f->project);
  settle (f->project);
  servers = mcp_project_get_servers (f->project);
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 1);

  /* Tried: listed after the settings' servers, connected, tools listed. */
  g_assert_true (mcp_project_try_server (f->project, "trial", entry, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 2);
  wait_state (f->project, "trial", MCP_SERVER_STATE_CONNECTED);
  c = connection (f->project, "trial");
  config = mcp_server_connection_get_config (c);
  g_assert_false (mcp_server_config_get_saved (config));
  g_assert_null (mcp_server_config_get_file (config));
  g_assert_true (mcp_project_lookup_unsaved (f->project, "trial") == config);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (c)), >, 0);
  g_assert_true (g_file_get_contents (f->dirs.user_file, &before, NULL, NULL));
  g_assert_cmpstr (before, ==, user);
  g_assert_false (g_file_test (f->dirs.project_file, G_FILE_TEST_EXISTS));

  /* What cannot be tried says why; nothing changes. */
  g_assert_false (mcp_project_try_server (f->project, "fix", entry, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“fix” is already in the settings"));
  g_clear_error (&error);
  g_assert_false (mcp_project_try_server (f->project, "broken", bad, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_true (g_str_has_prefix (error->message, "the server being tried: $.mcpServers.broken"));
  g_clear_error (&error);
  g_assert_null (mcp_server_manager_lookup (mcp_project_get_manager (f->project), "broken"));

  /* Writes to a scope say to save it first; reconnecting works. */
  g_assert_false (run (f->project, MCP_PROJECT_OP_DISABLE, "trial", NULL, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“trial” is only being tried: save it to a scope first"));
  g_clear_error (&error);
  g_assert_false (run (f->project, MCP_PROJECT_OP_DUPLICATE, "trial", NULL, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  g_assert_true (run (f->project, MCP_PROJECT_OP_RECONNECT, "trial", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (connection (f->project, "trial")), ==,
                   MCP_SERVER_STATE_CONNECTED);

  /* Tried again, changed: one "trial", the new one. */
  g_assert_true (mcp_project_try_server (f->project, "trial", changed_entry, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 2);
  wait_state (f->project, "trial", MCP_SERVER_STATE_CONNECTED);
  c = connection (f->project, "trial");
  g_assert_true (json_object_has_member (mcp_server_config_get_json (mcp_server_connection_get_config (c)), "env"));

  /* Saved under its name: the saved entry takes its place and the
   * connection goes on, told of its new config. */
  g_signal_connect (c, "notify::config", G_CALLBACK (count_notify_cb), &config_notifies);
  {
    g_autoptr(GAsyncResult) result = NULL;

    mcp_settings_add_server_async (mcp_project_get_settings (f->project), "trial",
                                   MCP_CONFIG_SCOPE_USER, changed_entry, NULL, test_result_cb, &result);
    test_wait_result (&result, "the save");
    g_assert_true (mcp_settings_add_server_finish (mcp_project_get_settings (f->project), result, &error));
    g_assert_no_error (error);
  }
  {
    guint hang_id = test_hang_guard ("the saved entry");

    while (mcp_project_lookup_unsaved (f->project, "trial") != NULL)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }
  g_assert_true (connection (f->project, "trial") == c);
  g_assert_cmpint (mcp_server_connection_get_state (c), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_true (mcp_server_config_get_saved (mcp_server_connection_get_config (c)));
  g_assert_cmpstr (mcp_server_config_get_file (mcp_server_connection_get_config (c)), ==, f->dirs.user_file);
  g_assert_cmpuint (config_notifies, ==, 1);
  g_signal_handlers_disconnect_by_func (c, count_notify_cb, &config_notifies);
  saved = file_entry (f->dirs.user_file, NULL, "trial");
  g_assert_nonnull (saved);
  g_assert_true (json_object_has_member (saved, "env"));
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 2);
  /* Saved, it is written to its file as any other. */
  g_assert_true (run (f->project, MCP_PROJECT_OP_DISABLE, "trial", NULL, &error));
  g_assert_no_error (error);

  /* Discarded: gone, and no file written. */
  g_clear_pointer (&before, g_free);
  g_assert_true (g_file_get_contents (f->dirs.user_file, &before, NULL, NULL));
  g_assert_true (mcp_project_try_server (f->project, "passing", entry, &error));
  g_assert_no_error (error);
  wait_state (f->project, "passing", MCP_SERVER_STATE_CONNECTED);
  g_assert_true (run (f->project, MCP_PROJECT_OP_REMOVE, "passing", NULL, &error));
  g_assert_no_error (error);
  g_assert_null (mcp_server_manager_lookup (mcp_project_get_manager (f->project), "passing"));
  g_assert_null (mcp_project_lookup_unsaved (f->project, "passing"));
  g_assert_true (g_file_get_contents (f->dirs.user_file, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
  g_assert_false (g_file_test (f->dirs.project_file, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/project/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("load", test_project_load);
  ADD ("operations", test_project_operations);
  ADD ("approval", test_project_approval);
  ADD ("approval-property", test_project_approval_property);
  ADD ("add-example", test_project_add_example);
  ADD ("sign-in", test_project_sign_in);
  ADD ("limits", test_project_limits);
  ADD ("try", test_project_try);

#undef ADD

  return g_test_run ();
}
