/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-filesystem"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-roots.h"
#include "mcp-server-manager.h"
#include "mcp-stdio-transport.h"
#include "test-engine.h"
#include "test-util.h"

/* McpStdioTransport + McpClient against @modelcontextprotocol/server-filesystem
 * serving one temporary directory. */

static char *node_path;
static char *server_script;

typedef struct
{
  char      *dir;       /* the allowed directory, symlinks resolved */
  McpClient *client;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr(McpTransport) transport = NULL;
  char *resolved;

  if (node_path == NULL || server_script == NULL)
    return;

  tmp = g_dir_make_tmp ("plugboard-fs-XXXXXX", &error);
  g_assert_no_error (error);
  /* The server compares real paths; /tmp may be a symlink. */
  resolved = realpath (tmp, NULL);
  g_assert_nonnull (resolved);
  fixture->dir = g_strdup (resolved);
  free (resolved);

  {
    const char *argv[] = { node_path, server_script, fixture->dir, NULL };

    transport = mcp_stdio_transport_new (argv, NULL, NULL);
  }
  fixture->client = mcp_client_new (transport);
  test_client_connect (fixture->client, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->client != NULL)
    {
      g_autoptr(GError) error = NULL;

      test_client_close (fixture->client, &error);
      g_assert_no_error (error);
      g_clear_object (&fixture->client);
    }

  if (fixture->dir != NULL)
    {
      test_remove_tree (fixture->dir);
      g_clear_pointer (&fixture->dir, g_free);
    }
}

static gboolean
have_server (Fixture *fixture)
{
  if (fixture->client == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-filesystem in MCP_TEST_NODE_MODULES is missing");
      return FALSE;
    }
  return TRUE;
}

static McpToolResult *
call_tool (Fixture    *fixture,
           const char *name,
           JsonObject *arguments,
           GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_call_tool_async (fixture->client, name, arguments, NULL, NULL,
                              test_result_cb, &result);
  test_wait_result (&result, NULL);

  return mcp_client_call_tool_finish (fixture->client, result, error);
}

static JsonObject *
path_arguments (const char *path)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "path", path);
  return arguments;
}

/* Tests */

static void
test_list_tools (Fixture       *fixture,
                 gconstpointer  data)
{
  static const char *expected[] = {
    "read_text_file", "read_media_file", "read_multiple_files", "write_file",
    "edit_file", "create_directory", "list_directory", "directory_tree",
    "move_file", "search_files", "get_file_info", "list_allowed_directories",
  };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  McpServerInfo *info;

  if (!have_server (fixture))
    return;

  info = mcp_client_get_server_info (fixture->client);
  g_assert_cmpstr (mcp_server_info_get_name (info), ==, "secure-filesystem-server");
  g_assert_true (mcp_server_info_has_tools (info));

  mcp_client_list_tools_async (fixture->client, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  tools = mcp_client_list_tools_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, >=, G_N_ELEMENTS (expected));

  for (guint e = 0; e < G_N_ELEMENTS (expected); e++)
    {
      McpTool *found = NULL;

      for (guint i = 0; i < tools->len; i++)
        {
          if (g_str_equal (mcp_tool_get_name (g_ptr_array_index (tools, i)), expected[e]))
            found = g_ptr_array_index (tools, i);
        }
      if (found == NULL)
        g_error ("tool %s is not listed", expected[e]);

      /* Every tool of this version declares its output schema. */
      g_assert_nonnull (mcp_tool_get_output_schema (found));

      if (g_str_equal (expected[e], "write_file"))
        {
          g_assert_false (mcp_tool_get_read_only_hint (found));
          g_assert_true (mcp_tool_get_destructive_hint (found));
          g_assert_true (mcp_tool_get_idempotent_hint (found));
          g_assert_false (mcp_tool_get_open_world_hint (found));
        }
      else if (g_str_equal (expected[e], "read_text_file"))
        {
          g_assert_cmpstr (mcp_tool_get_title (found), ==, "Read Text File");
          g_assert_true (mcp_tool_get_read_only_hint (found));
          g_assert_false (mcp_tool_get_open_world_hint (found));
          /* Not declared: the spec's default. */
          g_assert_false (json_object_has_member (mcp_tool_get_annotations (found), "idempotentHint"));
          g_assert_false (mcp_tool_get_idempotent_hint (found));
        }
    }
}

static void
test_write_and_read (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *text = "Plugboard was here.\nSecond line, ünïcödé.\n";
  g_autofree char *path = NULL;
  g_autofree char *on_disk = NULL;
  g_autoptr(JsonObject) write_args = NULL;
  g_autoptr(JsonObject) read_args = NULL;
  g_autoptr(JsonObject) list_args = NULL;
  g_autoptr(McpToolResult) written = NULL;
  g_autoptr(McpToolResult) read = NULL;
  g_autoptr(McpToolResult) listed = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *structured;

  if (!have_server (fixture))
    return;

  path = g_build_filename (fixture->dir, "hello.txt", NULL);

  write_args = path_arguments (path);
  json_object_set_string_member (write_args, "content", text);
  written = call_tool (fixture, "write_file", write_args, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (written));
  g_assert_true (g_str_has_prefix (test_result_only_text (written), "Successfully wrote to "));

  /* On disk, byte for byte. */
  g_file_get_contents (path, &on_disk, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (on_disk, ==, text);

  /* Back through the server. */
  read_args = path_arguments (path);
  read = call_tool (fixture, "read_text_file", read_args, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (read));
  g_assert_cmpstr (test_result_only_text (read), ==, text);
  structured = mcp_tool_result_get_structured_content (read);
  g_assert_nonnull (structured);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (structured), "content"), ==, text);

  list_args = path_arguments (fixture->dir);
  listed = call_tool (fixture, "list_directory", list_args, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (listed));
  g_assert_cmpstr (test_result_only_text (listed), ==, "[FILE] hello.txt");
}

static void
test_outside_allowed (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpToolResult) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *outside = NULL;

  if (!have_server (fixture))
    return;

  /* A sibling of the allowed directory: it need not even exist, the server
   * refuses by path. It answers with a tool error, not a JSON-RPC error. */
  parent = g_path_get_dirname (fixture->dir);
  outside = g_build_filename (parent, "plugboard-not-allowed.txt", NULL);
  arguments = path_arguments (outside);
  result = call_tool (fixture, "read_text_file", arguments, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_true (mcp_tool_result_get_is_error (result));
  g_assert_nonnull (strstr (test_result_only_text (result), "Access denied - path outside allowed directories"));

  /* The same for a path that climbs out with "..". */
  g_clear_object (&result);
  g_clear_pointer (&arguments, json_object_unref);
  g_free (outside);
  outside = g_build_filename (fixture->dir, "..", "..", "etc", "passwd", NULL);
  arguments = path_arguments (outside);
  result = call_tool (fixture, "read_text_file", arguments, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_tool_result_get_is_error (result));
  g_assert_nonnull (strstr (test_result_only_text (result), "Access denied"));

  /* The session is fine afterwards. */
  g_clear_pointer (&arguments, json_object_unref);
  arguments = path_arguments (fixture->dir);
  after = call_tool (fixture, "list_directory", arguments, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (after));
}

/* list_allowed_directories of @connection's server, as text. */
static char *
allowed_directories (McpServerConnection *connection)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();

  mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "list_allowed_directories",
                              arguments, NULL, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  tool_result = mcp_client_call_tool_finish (mcp_server_connection_get_client (connection), result, &error);
  g_assert_no_error (error);
  return g_strdup (test_result_only_text (tool_result));
}

/* Until @connection's server names @dir among its allowed folders (it
 * asks for roots after initialized, in its own time). */
static char *
wait_allowed (McpServerConnection *connection,
              const char          *dir)
{
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *text = allowed_directories (connection);

      if (strstr (text, dir) != NULL)
        return g_steal_pointer (&text);
      g_usleep (50000);
    }
  g_error ("the server never named %s among its allowed folders", dir);
  return NULL;
}

static McpServerConfig *
filesystem_config (const char     *name,
                   McpConfigScope  scope,
                   const char     *dir)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *args = json_array_new ();
  McpServerConfig *config;

  json_object_set_string_member (object, "command", node_path);
  json_array_add_string_element (args, server_script);
  json_array_add_string_element (args, dir);
  json_object_set_array_member (object, "args", args);
  config = mcp_server_config_new_from_json (name, scope, object, "test", "$.mcpServers", &error);
  g_assert_no_error (error);
  return config;
}

/* Issue 21, defect 6, against the real server: server-filesystem
 * configured on its own folder, in the person's (user) scope, opened with
 * a project, works on that folder: the project folder is not sent to it as
 * its only root (it then answered "Access denied" for its own folder). The
 * same server in the project's scope gets the project folder. */
static void
test_roots_by_scope (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *project = NULL;
  g_autoptr(McpRoots) roots = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerConfig) user = NULL;
  g_autoptr(McpServerConfig) in_project = NULL;
  g_autofree char *user_allowed = NULL;
  g_autofree char *project_allowed = NULL;
  g_autoptr(McpToolResult) listing = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  McpServerConnection *connection;
  char *resolved;

  if (!have_server (fixture))
    return;

  tmp = g_dir_make_tmp ("plugboard-project-XXXXXX", &error);
  g_assert_no_error (error);
  resolved = realpath (tmp, NULL);
  project = g_strdup (resolved);
  free (resolved);

  roots = mcp_roots_new (project);
  manager = mcp_server_manager_new ();
  mcp_server_manager_set_roots (manager, roots);
  user = filesystem_config ("files", MCP_CONFIG_SCOPE_USER, fixture->dir);
  in_project = filesystem_config ("project-files", MCP_CONFIG_SCOPE_PROJECT, fixture->dir);
  g_list_store_append (configs, user);
  g_list_store_append (configs, in_project);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  test_manager_settle (manager);

  /* the project's server works in the project folder ... */
  connection = mcp_server_manager_lookup (manager, "project-files");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  project_allowed = wait_allowed (connection, project);

  /* ... the person's in its own, and lists it */
  connection = mcp_server_manager_lookup (manager, "files");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  /* (for a second: the server asks for its roots in its own time) */
  for (guint i = 0; i < 10; i++)
    {
      g_free (user_allowed);
      user_allowed = allowed_directories (connection);
      g_assert_nonnull (strstr (user_allowed, fixture->dir));
      g_assert_null (strstr (user_allowed, project));
      g_usleep (100000);
    }
  g_test_message ("user scope: %s\nproject scope: %s", user_allowed, project_allowed);
  arguments = path_arguments (fixture->dir);
  mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "list_directory",
                              arguments, NULL, NULL, test_result_cb, &result);
  test_wait_result (&result, NULL);
  listing = mcp_client_call_tool_finish (mcp_server_connection_get_client (connection), result, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (listing));
  g_assert_null (strstr (test_result_only_text (listing), "Access denied"));

  {
    g_autoptr(GAsyncResult) closed = NULL;

    mcp_server_manager_close_async (manager, NULL, test_result_cb, &closed);
    test_wait_result (&closed, NULL);
    mcp_server_manager_close_finish (manager, closed, NULL);
  }
  test_remove_tree (project);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module ("@modelcontextprotocol/server-filesystem/dist/index.js");

  g_test_add ("/filesystem/tools/list", Fixture, NULL,
              fixture_set_up, test_list_tools, fixture_tear_down);
  g_test_add ("/filesystem/write-and-read", Fixture, NULL,
              fixture_set_up, test_write_and_read, fixture_tear_down);
  g_test_add ("/filesystem/outside-allowed", Fixture, NULL,
              fixture_set_up, test_outside_allowed, fixture_tear_down);
  g_test_add ("/filesystem/roots-by-scope", Fixture, NULL,
              fixture_set_up, test_roots_by_scope, fixture_tear_down);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
