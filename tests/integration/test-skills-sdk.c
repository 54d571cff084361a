/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-server-connection.h"
#include "mcp-server-manager.h"
#include "mcp-skill.h"
#include "mcp-token-store.h"

#include "test-engine.h"
#include "test-util.h"

/* Skills over MCP against a server made with the extension's own SDK
 * (@olaservo/ext-skills, tests/integration/skills-sdk-server.mjs) over
 * stdio: its entries are accepted and its SKILL.md and files verified —
 * the frontmatter its YAML library (the yaml package) rendered compared
 * field by field with what libyaml reads: block scalars, quoted strings,
 * numbers, booleans, lists and a flow mapping. (Mismatches are the
 * fixture's, test-skills: this server serves what it vouches for.) */

static const char pdf_skill_md[] =
  "---\n"
  "name: pdf-processing\n"
  "description: >-\n"
  "  Extract, fill, and assemble\n"
  "  PDF documents\n"
  "license: Apache-2.0\n"
  "compatibility: \"Needs python3: 3.10 or later\"\n"
  "metadata:\n"
  "  version: \"2.1\"\n"
  "  pages: 12\n"
  "  ratio: 0.5\n"
  "  draft: false\n"
  "  tags:\n"
  "    - pdf\n"
  "    - forms\n"
  "  owner: { team: docs, since: 2024 }\n"
  "---\n"
  "\n"
  "# PDF processing\n"
  "\n"
  "Read `references/FORMS.md` first.\n";

static const char forms_md[] = "# Forms\n\nFill every field.\n";

static const char git_skill_md[] =
  "---\n"
  "name: git-workflow\n"
  "description: Follow this team's Git conventions\n"
  "---\n"
  "\n"
  "Branch from main.\n";

typedef struct
{
  char                *dir;
  char                *skills_dir;
  McpTokenStore       *store;
  McpServerManager    *manager;
  McpServerConnection *connection;
} Test;

static void
write_file (const char *dir,
            const char *relative,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, relative, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  test_write_file (path, text);
}

static gboolean
test_start (Test *test)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *sdk = test_find_node_module ("@olaservo/ext-skills/package.json");
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "integration", "skills-sdk-server.mjs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *json = NULL;
  g_autofree char *store_path = NULL;
  g_autofree char *cache_path = NULL;

  if (!test_have_node_script (node, sdk))
    return FALSE;

  test->dir = g_dir_make_tmp ("test-skills-sdk-XXXXXX", &error);
  g_assert_no_error (error);
  test->skills_dir = g_build_filename (test->dir, "skills", NULL);
  write_file (test->skills_dir, "pdf-processing/SKILL.md", pdf_skill_md);
  write_file (test->skills_dir, "pdf-processing/references/FORMS.md", forms_md);
  write_file (test->skills_dir, "git-workflow/SKILL.md", git_skill_md);

  store_path = g_build_filename (test->dir, "credentials.json", NULL);
  cache_path = g_build_filename (test->dir, "mcp-needs-auth-cache.json", NULL);
  test->store = mcp_token_store_new ("file", store_path);
  test->manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                                "token-store", test->store,
                                "needs-auth-cache-path", cache_path,
                                "connect-timeout", 30000,
                                NULL);
  json = g_strdup_printf ("{\"command\": \"%s\", \"args\": [\"%s\", \"%s\"]}", node, script, test->skills_dir);
  config = test_config_from_json ("sdk", json);
  g_list_store_append (configs, config);
  mcp_server_manager_set_configs (test->manager, G_LIST_MODEL (configs));
  test->connection = mcp_server_manager_lookup (test->manager, "sdk");
  mcp_server_manager_wait_settled_async (test->manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to settle");
  g_assert_true (mcp_server_manager_wait_settled_finish (test->manager, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (test->connection), ==, MCP_SERVER_STATE_CONNECTED);
  return TRUE;
}

static void
test_stop (Test *test)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_manager_close_async (test->manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to close");
  g_assert_true (mcp_server_manager_close_finish (test->manager, result, NULL));
  g_clear_object (&test->manager);
  g_clear_object (&test->store);
  test_remove_tree (test->dir);
  g_clear_pointer (&test->dir, g_free);
  g_clear_pointer (&test->skills_dir, g_free);
}

static GBytes *
read_skill (Test       *test,
            McpSkill   *skill,
            const char *uri,
            GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_connection_read_skill_async (test->connection, skill, uri, NULL, test_result_cb, &result);
  test_wait_result (&result, "a skill's file");
  return mcp_server_connection_read_skill_finish (test->connection, result, error);
}

static void
test_sdk_server (void)
{
  Test test = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) forms = NULL;
  g_autoptr(GError) error = NULL;
  McpSkill *pdf = NULL;
  JsonObject *metadata;

  if (!test_start (&test))
    return;
  g_assert_true (mcp_server_connection_offers_skills (test.connection));

  mcp_server_connection_list_skills_async (test.connection, NULL, test_result_cb, &result);
  test_wait_result (&result, "skills/list");
  skills = mcp_server_connection_list_skills_finish (test.connection, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (skills->len, ==, 2);
  for (guint i = 0; i < skills->len; i++)
    if (g_str_equal (mcp_skill_get_name (g_ptr_array_index (skills, i)), "pdf-processing"))
      pdf = g_ptr_array_index (skills, i);
  g_assert_nonnull (pdf);
  g_assert_cmpstr (mcp_skill_get_uri (pdf), ==, "skill://pdf-processing/SKILL.md");
  g_assert_cmpstr (mcp_skill_get_description (pdf), ==, "Extract, fill, and assemble PDF documents");
  metadata = json_object_get_object_member (mcp_skill_get_frontmatter (pdf), "metadata");
  g_assert_cmpint (json_object_get_int_member (metadata, "pages"), ==, 12);

  /* The SDK's YAML (the yaml package) and libyaml read the frontmatter
   * alike: the load passes the field-by-field check. */
  bytes = read_skill (&test, pdf, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), pdf_skill_md, strlen (pdf_skill_md));
  forms = read_skill (&test, pdf, "skill://pdf-processing/references/FORMS.md", &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (forms, NULL), g_bytes_get_size (forms), forms_md, strlen (forms_md));

  test_stop (&test);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/skills/sdk-server", test_sdk_server);

  return g_test_run ();
}
