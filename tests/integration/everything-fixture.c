/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "everything-fixture.h"
#include "test-engine.h"
#include "test-util.h"

gboolean
everything_available (void)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  return test_have_node_script (node, script);
}

typedef struct
{
  McpToolPool *pool;
  const char  *name;
} ToolWait;

static gboolean
tool_listed (gpointer data)
{
  const ToolWait *wait = data;

  return mcp_tool_pool_lookup (wait->pool, wait->name) != NULL;
}

void
everything_wait_pool_tool (McpToolPool *pool,
                           const char  *qualified)
{
  ToolWait wait = { pool, qualified };

  test_iterate_until (tool_listed, &wait, qualified);
}

void
everything_wait_tool (EverythingFixture *fixture,
                      const char        *name)
{
  g_autofree char *qualified = g_strconcat ("mcp__everything__", name, NULL);

  everything_wait_pool_tool (fixture->pool, qualified);
}

McpProcessedResult *
everything_run_pool_tool (McpToolPool  *pool,
                          const char   *qualified,
                          const char   *arguments,
                          GError      **error)
{
  const char *allow[] = { qualified, NULL };
  g_autoptr(McpPermissions) permissions = mcp_permissions_new (allow, NULL, NULL);
  g_autoptr(JsonObject) object = everything_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;

  everything_wait_pool_tool (pool, qualified);
  test_tool_call_run_async (mcp_tool_pool_lookup (pool, qualified), object, permissions,
                           NULL, NULL, test_result_cb, &result);
  return test_tool_call_finish (test_wait_result (&result, NULL), error);
}

void
everything_add_server (JsonBuilder *builder,
                       const char  *node,
                       const char  *script)
{
  json_builder_set_member_name (builder, "everything");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, node);
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, script);
  json_builder_add_string_value (builder, "stdio");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

McpSettings *
everything_settings_load (JsonBuilder *builder,
                          const char  *user_dir,
                          const char  *project_dir)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *json = json_to_string (root, TRUE);
  g_autofree char *file = g_build_filename (user_dir, "settings.json", NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (file, json, -1, &error);
  g_assert_no_error (error);

  return test_settings_load (user_dir, project_dir);
}

void
everything_fixture_set_up (EverythingFixture     *fixture,
                           EverythingPrepareFunc  prepare,
                           gpointer               data)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = test_find_node_module (TEST_EVERYTHING_SCRIPT);
  g_autofree char *user_dir = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GAsyncResult) loaded = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (node);
  g_assert_nonnull (script);

  fixture->dir = g_dir_make_tmp ("plugboard-everything-XXXXXX", &error);
  g_assert_no_error (error);
  user_dir = g_build_filename (fixture->dir, "config", NULL);
  fixture->project_dir = g_build_filename (fixture->dir, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (user_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (fixture->project_dir, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  everything_add_server (builder, node, script);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  fixture->settings = everything_settings_load (builder, user_dir, fixture->project_dir);

  fixture->manager = mcp_server_manager_new ();
  if (prepare != NULL)
    prepare (fixture->manager, data);
  fixture->pool = mcp_tool_pool_new (G_LIST_MODEL (fixture->manager));
  mcp_server_manager_set_configs (fixture->manager, mcp_settings_get_servers (fixture->settings));
  test_manager_settle (fixture->manager);
  g_assert_cmpint (mcp_server_connection_get_state (everything_connection (fixture)), ==,
                   MCP_SERVER_STATE_CONNECTED);
  everything_wait_tool (fixture, "echo");
}

McpServerConnection *
everything_connection (EverythingFixture *fixture)
{
  return mcp_server_manager_lookup (fixture->manager, "everything");
}

void
everything_fixture_tear_down (EverythingFixture *fixture)
{
  g_autoptr(GAsyncResult) closed = NULL;

  mcp_server_manager_close_async (fixture->manager, NULL, test_result_cb, &closed);
  mcp_server_manager_close_finish (fixture->manager, test_wait_result (&closed, NULL), NULL);
  g_clear_object (&fixture->pool);
  g_clear_object (&fixture->manager);
  g_clear_object (&fixture->settings);
  test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->project_dir, g_free);
}

char *
everything_result_text (McpProcessedResult *processed)
{
  GPtrArray *content = mcp_tool_result_get_content (mcp_processed_result_get_result (processed));
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < content->len; i++)
    {
      const char *part = mcp_content_get_text (g_ptr_array_index (content, i));

      if (part != NULL)
        g_string_append_printf (text, "%s\n", part);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

JsonObject *
everything_object (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_node_dup_object (json_parser_get_root (parser));
}
