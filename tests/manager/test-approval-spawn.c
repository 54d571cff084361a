/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-approval-spawn"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mcp-json-private.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "test-engine.h"
#include "test-util.h"

/* A project server whose launch changed since it was approved is never
 * spawned (issue 20, finding 2): the command would make a marker file. */

/* Connects every server of @settings (expanding ${VAR}s from @environ,
 * NULL: the process's), waits until they settle, closes. */
static McpServerState
run_manager_full (McpSettings         *settings,
                  const char          *name,
                  const char * const  *environ,
                  char               **message)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;
  McpServerState state;

  if (environ != NULL)
    g_object_set (manager, "environ", environ, NULL);
  mcp_server_manager_set_configs (manager, mcp_settings_get_servers (settings));
  mcp_server_manager_wait_settled_async (manager, NULL, test_result_cb, &result);
  g_assert_true (mcp_server_manager_wait_settled_finish (manager, test_wait_result (&result, G_STRLOC), &error));
  g_assert_no_error (error);

  connection = mcp_server_manager_lookup (manager, name);
  g_assert_nonnull (connection);
  state = mcp_server_connection_get_state (connection);
  if (message != NULL)
    *message = mcp_server_connection_get_error (connection) != NULL
                 ? g_strdup (mcp_server_connection_get_error (connection)->message) : NULL;

  g_clear_object (&result);
  mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
  mcp_server_manager_close_finish (manager, test_wait_result (&result, G_STRLOC), NULL);

  return state;
}

static McpServerState
run_manager (McpSettings *settings,
             const char  *name)
{
  return run_manager_full (settings, name, NULL, NULL);
}

static char *
server_json (const char *marker)
{
  g_autoptr(GString) json = g_string_new ("{\"mcpServers\": {\"p\": {\"command\": \"/bin/sh\", \"args\": [\"-c\", ");
  g_autofree char *script = g_strdup_printf ("touch '%s'; exit 3", marker);

  mcp_json_append_string (json, script);
  g_string_append (json, "]}}}");

  return g_string_free (g_steal_pointer (&json), FALSE);
}

static void
test_changed_not_spawned (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("plugboard-approval-spawn-XXXXXX", &error);
  g_autofree char *user_dir = g_build_filename (root, "config", NULL);
  g_autofree char *project_dir = g_build_filename (root, "project", NULL);
  g_autofree char *project_file = g_build_filename (project_dir, ".mcp.json", NULL);
  g_autofree char *approved_marker = g_build_filename (root, "approved-ran", NULL);
  g_autofree char *changed_marker = g_build_filename (root, "changed-ran", NULL);
  g_autofree char *approved_json = server_json (approved_marker);
  g_autofree char *changed_json = server_json (changed_marker);
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(McpSettings) changed = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_no_error (error);
  test_write_file (project_file, approved_json);

  settings = test_settings_load (user_dir, project_dir);
  mcp_settings_set_approval_async (settings, "p", TRUE, NULL, test_result_cb, &result);
  g_assert_true (mcp_settings_set_approval_finish (settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_no_error (error);

  /* approved: it runs (it makes its marker, then exits: failed) */
  g_assert_cmpint (run_manager (settings, "p"), ==, MCP_SERVER_STATE_FAILED);
  g_assert_true (g_file_test (approved_marker, G_FILE_TEST_EXISTS));

  /* the command line changed in .mcp.json: it never runs */
  test_write_file (project_file, changed_json);
  changed = test_settings_load (user_dir, project_dir);
  g_assert_cmpint (mcp_settings_get_approval (changed, "p"), ==, MCP_APPROVAL_CHANGED);
  g_assert_cmpint (run_manager (changed, "p"), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_false (g_file_test (changed_marker, G_FILE_TEST_EXISTS));

  test_remove_tree (root);
}

/* The settings check what runs with the process's environment; a
 * connection that would expand the entry otherwise checks again before it
 * starts anything. */
static void
test_other_environment_not_spawned (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("plugboard-approval-env-XXXXXX", &error);
  g_autofree char *user_dir = g_build_filename (root, "config", NULL);
  g_autofree char *project_dir = g_build_filename (root, "project", NULL);
  g_autofree char *project_file = g_build_filename (project_dir, ".mcp.json", NULL);
  g_autofree char *approved_marker = g_build_filename (root, "approved-ran", NULL);
  g_autofree char *other_marker = g_build_filename (root, "other-ran", NULL);
  g_autofree char *approved_script = g_strdup_printf ("PB_SCRIPT=touch '%s'; exit 3", approved_marker);
  g_autofree char *other_script = g_strdup_printf ("PB_SCRIPT=touch '%s'; exit 3", other_marker);
  const char *approved_environ[] = { approved_script, NULL };
  const char *other_environ[] = { other_script, NULL };
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *message = NULL;

  g_assert_no_error (error);
  test_write_file (project_file,
                   "{\"mcpServers\": {\"p\": {\"command\": \"/bin/sh\", \"args\": [\"-c\", \"${PB_SCRIPT}\"]}}}");
  g_setenv ("PB_SCRIPT", approved_script + strlen ("PB_SCRIPT="), TRUE);
  settings = test_settings_load (user_dir, project_dir);
  mcp_settings_set_approval_async (settings, "p", TRUE, NULL, test_result_cb, &result);
  g_assert_true (mcp_settings_set_approval_finish (settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_no_error (error);
  g_unsetenv ("PB_SCRIPT");
  g_assert_cmpint (mcp_settings_get_approval (settings, "p"), ==, MCP_APPROVAL_APPROVED);

  /* what was approved runs */
  g_assert_cmpint (run_manager_full (settings, "p", approved_environ, NULL), ==, MCP_SERVER_STATE_FAILED);
  g_assert_true (g_file_test (approved_marker, G_FILE_TEST_EXISTS));

  /* the same entry expanded otherwise does not */
  g_assert_cmpint (run_manager_full (settings, "p", other_environ, &message), ==, MCP_SERVER_STATE_FAILED);
  g_assert_false (g_file_test (other_marker, G_FILE_TEST_EXISTS));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "is not what was approved"));
  g_assert_null (strstr (message, other_marker));

  test_remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/approval/changed-not-spawned", test_changed_not_spawned);
  g_test_add_func ("/manager/approval/other-environment-not-spawned", test_other_environment_not_spawned);

  return g_test_run ();
}
