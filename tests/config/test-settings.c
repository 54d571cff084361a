/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-settings"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mcp-config-file.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-settings.h"
#include "test-dirs.h"
#include "test-util.h"

typedef struct
{
  TestDirs     dirs;
  McpSettings *settings;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  test_dirs_init (&f->dirs, "settings");
  f->settings = mcp_settings_new (f->dirs.user_dir, f->dirs.project_dir);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->settings);
  test_dirs_clear (&f->dirs);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The backups of @path (full paths), oldest first. */
static GPtrArray *
list_backups (const char *path)
{
  g_autofree char *dir = mcp_config_file_get_backup_dir ();
  g_autofree char *prefix = mcp_config_file_backup_prefix (path);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  GPtrArray *backups = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      if (g_str_has_prefix (name, prefix))
        g_ptr_array_add (backups, g_build_filename (dir, name, NULL));
    }
  g_ptr_array_sort (backups, compare_names);

  return backups;
}

static void
load (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_settings_load_async (f->settings, NULL, test_result_cb, &result);
  g_assert_true (mcp_settings_load_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_no_error (error);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

/* the local scope's key in the user file */
static char *
projects_key (Fixture *f)
{
  GString *out = g_string_new (NULL);

  mcp_json_append_string (out, f->dirs.project_dir);
  return g_string_free (out, FALSE);
}


/* Only the members at @touched (NULL-terminated paths) changed between
 * @before and @after: every other member's bytes, at every level down to
 * the touched ones, are as they were. */
static gboolean
is_prefix (GPtrArray          *path,
           const char * const *of)
{
  for (guint i = 0; i < path->len; i++)
    {
      if (of[i] == NULL || strcmp (of[i], path->pdata[i]) != 0)
        return FALSE;
    }

  return TRUE;
}

static void
compare_members (McpJsonDocument     *before,
                 McpJsonDocument     *after,
                 GPtrArray           *path,
                 const char * const **touched,
                 guint               *compared)
{
  JsonNode *node;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  g_ptr_array_add (path, NULL);
  node = mcp_json_document_lookup (before, (const char * const *) path->pdata);
  g_ptr_array_set_size (path, path->len - 1);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return;

  json_object_iter_init (&iter, json_node_get_object (node));
  while (json_object_iter_next (&iter, &name, &member))
    {
      gboolean on_the_way = FALSE;
      gboolean changed = FALSE;

      g_ptr_array_add (path, (gpointer) name);
      for (guint i = 0; touched[i] != NULL; i++)
        {
          if (is_prefix (path, touched[i]))
            {
              if (touched[i][path->len] == NULL)
                changed = TRUE;
              else
                on_the_way = TRUE;
            }
        }

      if (on_the_way && !changed)
        {
          compare_members (before, after, path, touched, compared);
        }
      else if (!changed)
        {
          gsize b_start, b_end, a_start, a_end;
          const char *b = mcp_json_document_get_text (before, NULL);
          const char *a = mcp_json_document_get_text (after, NULL);
          g_autofree char *b_text = NULL;
          g_autofree char *a_text = NULL;

          g_ptr_array_add (path, NULL);
          g_assert_true (mcp_json_document_get_range (before, (const char * const *) path->pdata,
                                                      &b_start, &b_end));
          g_assert_true (mcp_json_document_get_range (after, (const char * const *) path->pdata,
                                                      &a_start, &a_end));
          g_ptr_array_set_size (path, path->len - 1);
          b_text = g_strndup (b + b_start, b_end - b_start);
          a_text = g_strndup (a + a_start, a_end - a_start);
          g_assert_cmpstr (a_text, ==, b_text);
          (*compared)++;
        }
      g_ptr_array_set_size (path, path->len - 1);
    }
}

static void
assert_only_changed (const char          *before_text,
                     const char          *after_text,
                     const char * const **touched)
{
  g_autoptr(McpJsonDocument) before = mcp_json_document_new (before_text, strlen (before_text),
                                                             MCP_JSON_DIALECT_JSON, NULL);
  g_autoptr(McpJsonDocument) after = mcp_json_document_new (after_text, strlen (after_text),
                                                            MCP_JSON_DIALECT_JSON, NULL);
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  guint compared = 0;

  g_assert_nonnull (before);
  g_assert_nonnull (after);
  compare_members (before, after, path, touched, &compared);
  g_assert_cmpuint (compared, >, 0);
}

static McpServerConfig *
server_at (McpSettings *settings,
           guint        i)
{
  McpServerConfig *config = g_list_model_get_item (mcp_settings_get_servers (settings), i);

  g_object_unref (config);  /* the model keeps it */
  return config;
}

static gboolean
has_problem (McpSettings *settings,
             const char  *file,
             const char  *fragment)
{
  GPtrArray *problems = mcp_settings_get_problems (settings);

  for (guint i = 0; i < problems->len; i++)
    {
      McpSettingsProblem *problem = problems->pdata[i];

      g_test_message ("problem: %s", problem->message);
      if (g_strcmp0 (problem->file, file) == 0 && strstr (problem->message, fragment) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
test_merge (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *key = projects_key (f);
  g_autofree char *user = NULL;
  GListModel *shadowed;

  user = g_strdup_printf ("{\n"
                          "  \"mcpServers\": {\n"
                          "    \"shared\": { \"command\": \"user-cmd\" },\n"
                          "    \"only-user\": { \"type\": \"http\", \"url\": \"https://u.example\" },\n"
                          "    \"both\": { \"command\": \"user-both\" }\n"
                          "  },\n"
                          "  \"projects\": {\n"
                          "    %s: {\n"
                          "      \"mcpServers\": { \"shared\": { \"command\": \"local-cmd\" } },\n"
                          "      \"enabledMcpjsonServers\": [\"both\", \"shared\"]\n"
                          "    },\n"
                          "    \"/some/other/project\": { \"mcpServers\": { \"elsewhere\": { \"command\": \"x\" } } }\n"
                          "  }\n"
                          "}\n", key);
  test_write_file (f->dirs.user_file, user);
  test_write_file (f->dirs.project_file,
              "{ \"mcpServers\": { \"shared\": { \"command\": \"project-cmd\" },"
              " \"both\": { \"command\": \"project-both\" } } }");
  load (f);

  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (f->settings)), ==, 3);
  g_assert_cmpstr (mcp_server_config_get_name (server_at (f->settings, 0)), ==, "shared");
  g_assert_cmpstr (mcp_server_config_get_command (server_at (f->settings, 0)), ==, "local-cmd");
  g_assert_cmpint (mcp_server_config_get_scope (server_at (f->settings, 0)), ==, MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpstr (mcp_server_config_get_name (server_at (f->settings, 1)), ==, "only-user");
  g_assert_cmpint (mcp_server_config_get_scope (server_at (f->settings, 1)), ==, MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_name (server_at (f->settings, 2)), ==, "both");
  g_assert_cmpstr (mcp_server_config_get_command (server_at (f->settings, 2)), ==, "project-both");
  g_assert_cmpint (mcp_server_config_get_scope (server_at (f->settings, 2)), ==, MCP_CONFIG_SCOPE_PROJECT);
  g_assert_true (mcp_server_config_get_enabled (server_at (f->settings, 2)));
  g_assert_null (mcp_settings_lookup (f->settings, "elsewhere"));

  shadowed = mcp_settings_get_shadowed (f->settings);
  g_assert_cmpuint (g_list_model_get_n_items (shadowed), ==, 3);
  g_assert_cmpstr (mcp_server_config_get_command (mcp_settings_lookup_in_scope (f->settings, "shared", MCP_CONFIG_SCOPE_USER)), ==, "user-cmd");
  g_assert_cmpstr (mcp_server_config_get_command (mcp_settings_lookup_in_scope (f->settings, "shared", MCP_CONFIG_SCOPE_PROJECT)), ==, "project-cmd");
  g_assert_cmpstr (mcp_server_config_get_command (mcp_settings_lookup_in_scope (f->settings, "both", MCP_CONFIG_SCOPE_USER)), ==, "user-both");
  g_assert_cmpstr (mcp_server_config_get_json_path (mcp_settings_lookup (f->settings, "shared")), !=, "$.mcpServers.shared");
  g_assert_cmpuint (mcp_settings_get_problems (f->settings)->len, ==, 0);
}

static void
test_invalid_entry (Fixture       *f,
                    gconstpointer  data)
{
  test_write_file (f->dirs.user_file,
              "{\"mcpServers\": {\"good\": {\"command\": \"ok\"},"
              " \"bad\": {\"command\": \"x\", \"args\": [\"a\", 2]},"
              " \"worse\": 3,"
              " \"unset\": {\"command\": \"${PLUGBOARD_TEST_UNSET_VARIABLE}\"}}}");
  load (f);

  g_assert_nonnull (mcp_settings_lookup (f->settings, "good"));
  g_assert_null (mcp_settings_lookup (f->settings, "bad"));
  g_assert_null (mcp_settings_lookup (f->settings, "worse"));
  g_assert_true (has_problem (f->settings, f->dirs.user_file, "$.mcpServers.bad.args[1]: expected a string"));
  g_assert_true (has_problem (f->settings, f->dirs.user_file, "$.mcpServers.worse: expected an object"));
  g_assert_true (has_problem (f->settings, f->dirs.user_file, "PLUGBOARD_TEST_UNSET_VARIABLE"));
  g_assert_cmpuint (mcp_settings_get_problems (f->settings)->len, ==, 3);
}

static void
test_broken_file (Fixture       *f,
                  gconstpointer  data)
{
  static const char broken[] = "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\" },\n  }\n}\n";
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = parse_object ("{\"command\": \"y\"}");
  g_autofree char *after = NULL;
  g_autoptr(GPtrArray) backups = NULL;

  test_write_file (f->dirs.user_file, broken);
  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"x\"}}}");
  load (f);

  g_assert_true (has_problem (f->settings, f->dirs.user_file, "line 4, column 3"));
  g_assert_nonnull (mcp_settings_lookup (f->settings, "p"));

  mcp_settings_add_server_async (f->settings, "b", MCP_CONFIG_SCOPE_USER, object, NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_add_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, f->dirs.user_file));
  g_assert_nonnull (strstr (error->message, "does not parse"));
  g_assert_nonnull (strstr (error->message, "line 4, column 3"));

  after = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (after, ==, broken);
  backups = list_backups (f->dirs.user_file);
  g_assert_cmpuint (backups->len, ==, 0);
}

static const char user_text[] =
  "{\n"
  "  \"zeta\": \"unknown, first\",\n"
  "  \"mcpServers\": {\n"
  "    \"one\": {\n"
  "      \"command\": \"one\",\n"
  "      \"x-custom\": {\n"
  "        \"nested\": [\n"
  "          1,\n"
  "          true,\n"
  "          null,\n"
  "          \"é \\\"quoted\\\" \\n\"\n"
  "        ]\n"
  "      },\n"
  "      \"args\": []\n"
  "    },\n"
  "    \"two\": {\n"
  "      \"type\": \"http\",\n"
  "      \"url\": \"https://two.example\"\n"
  "    },\n"
  "    \"three\": {\n"
  "      \"command\": \"three\"\n"
  "    }\n"
  "  },\n"
  "  \"alpha\": {\n"
  "    \"b\": 2,\n"
  "    \"a\": {}\n"
  "  }\n"
  "}\n";

static void
run_write (Fixture  *f,
           gboolean (*finish) (McpSettings *, GAsyncResult *, GError **),
           GAsyncResult **result)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (finish (f->settings, test_wait_result (result, G_STRLOC), &error));
  g_assert_no_error (error);
  g_clear_object (result);
}

static void
test_keep_unknown (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) added = parse_object ("{\"command\": \"four\", \"args\": [\"--x\"]}");
  g_autoptr(JsonObject) edited = parse_object ("{\"type\": \"sse\", \"url\": \"https://2.example\", \"x-new\": 7}");
  g_autofree char *contents = NULL;
  g_autofree char *bak = NULL;
  g_autoptr(GPtrArray) backups = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  test_write_file (f->dirs.user_file, user_text);
  load (f);

  /* written back unchanged: byte for byte */
  mcp_settings_set_server_enabled_async (f->settings, "one", MCP_CONFIG_SCOPE_USER, TRUE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_server_enabled_finish, &result);
  contents = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (contents, ==, user_text);
  g_clear_pointer (&contents, g_free);

  mcp_settings_add_server_async (f->settings, "four", MCP_CONFIG_SCOPE_USER, added, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_add_server_finish, &result);
  mcp_settings_edit_server_async (f->settings, "two", MCP_CONFIG_SCOPE_USER, edited, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_edit_server_finish, &result);
  mcp_settings_remove_server_async (f->settings, "three", MCP_CONFIG_SCOPE_USER, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_remove_server_finish, &result);

  expected = g_strdup (
    "{\n"
    "  \"zeta\": \"unknown, first\",\n"
    "  \"mcpServers\": {\n"
    "    \"one\": {\n"
    "      \"command\": \"one\",\n"
    "      \"x-custom\": {\n"
    "        \"nested\": [\n"
    "          1,\n"
    "          true,\n"
    "          null,\n"
    "          \"é \\\"quoted\\\" \\n\"\n"
    "        ]\n"
    "      },\n"
    "      \"args\": []\n"
    "    },\n"
    "    \"two\": {\n"
    "      \"type\": \"sse\",\n"
    "      \"url\": \"https://2.example\",\n"
    "      \"x-new\": 7\n"
    "    },\n"
    "    \"four\": {\n"
    "      \"command\": \"four\",\n"
    "      \"args\": [\n"
    "        \"--x\"\n"
    "      ]\n"
    "    }\n"
    "  },\n"
    "  \"alpha\": {\n"
    "    \"b\": 2,\n"
    "    \"a\": {}\n"
    "  }\n"
    "}\n");
  contents = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (contents, ==, expected);

  /* the model followed */
  g_assert_nonnull (mcp_settings_lookup (f->settings, "four"));
  g_assert_null (mcp_settings_lookup (f->settings, "three"));
  g_assert_cmpstr (mcp_server_config_get_url (mcp_settings_lookup (f->settings, "two")), ==, "https://2.example");

  /* the newest backup holds the version before the last write, in
   * $XDG_STATE_HOME, one for each write that changed the file */
  backups = list_backups (f->dirs.user_file);
  g_assert_cmpuint (backups->len, ==, 3);
  bak = test_read_file (backups->pdata[backups->len - 1]);
  g_assert_nonnull (strstr (bak, "\"three\""));
  g_assert_nonnull (strstr (bak, "\"x-new\": 7"));

  /* atomic: nothing but the file is left in its folder */
  dir = g_dir_open (f->dirs.user_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_cmpstr (name, ==, "settings.json");
}

static void
test_rename_move_enable (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *project = NULL;
  McpServerConfig *config;

  test_write_file (f->dirs.user_file, user_text);
  load (f);

  mcp_settings_rename_server_async (f->settings, "two", MCP_CONFIG_SCOPE_USER, "deux", NULL, test_result_cb, &result);
  run_write (f, mcp_settings_rename_server_finish, &result);
  contents = test_read_file (f->dirs.user_file);
  /* kept its place */
  g_assert_nonnull (strstr (contents, "    },\n    \"deux\": {\n      \"type\": \"http\""));
  g_assert_null (mcp_settings_lookup (f->settings, "two"));
  g_assert_nonnull (mcp_settings_lookup (f->settings, "deux"));

  mcp_settings_rename_server_async (f->settings, "deux", MCP_CONFIG_SCOPE_USER, "one", NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_rename_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  g_clear_object (&result);

  mcp_settings_set_server_enabled_async (f->settings, "three", MCP_CONFIG_SCOPE_USER, FALSE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_server_enabled_finish, &result);
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "three")));

  /* user → local: same file */
  mcp_settings_move_server_async (f->settings, "three", MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_LOCAL, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_move_server_finish, &result);
  config = mcp_settings_lookup (f->settings, "three");
  g_assert_cmpint (mcp_server_config_get_scope (config), ==, MCP_CONFIG_SCOPE_LOCAL);
  g_assert_false (mcp_server_config_get_enabled (config));
  g_assert_null (mcp_settings_lookup_in_scope (f->settings, "three", MCP_CONFIG_SCOPE_USER));

  /* user → project: two files, the project one created */
  mcp_settings_move_server_async (f->settings, "one", MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_PROJECT, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_move_server_finish, &result);
  project = test_read_file (f->dirs.project_file);
  g_assert_nonnull (strstr (project, "\"x-custom\""));
  g_assert_null (mcp_settings_lookup_in_scope (f->settings, "one", MCP_CONFIG_SCOPE_USER));
  g_assert_nonnull (mcp_settings_lookup_in_scope (f->settings, "one", MCP_CONFIG_SCOPE_PROJECT));

  mcp_settings_remove_server_async (f->settings, "nope", MCP_CONFIG_SCOPE_USER, NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_remove_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "nope"));
}

static void
test_create_files (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = parse_object ("{\"command\": \"x\"}");
  g_autoptr(JsonObject) invalid = parse_object ("{\"type\": \"http\"}");
  g_autofree char *contents = NULL;
  g_autofree char *key = projects_key (f);
  g_autofree char *expected = NULL;

  load (f);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_settings_get_servers (f->settings)), ==, 0);

  mcp_settings_add_server_async (f->settings, "bad", MCP_CONFIG_SCOPE_USER, invalid, NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_add_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "$.mcpServers.bad.url"));
  g_assert_false (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));
  g_clear_object (&result);

  mcp_settings_add_server_async (f->settings, "mine", MCP_CONFIG_SCOPE_LOCAL, object, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_add_server_finish, &result);
  contents = test_read_file (f->dirs.user_file);
  expected = g_strdup_printf ("{\n  \"projects\": {\n    %s: {\n      \"mcpServers\": {\n"
                              "        \"mine\": {\n          \"command\": \"x\"\n        }\n"
                              "      }\n    }\n  }\n}\n", key);
  g_assert_cmpstr (contents, ==, expected);
  g_assert_cmpint (mcp_server_config_get_scope (mcp_settings_lookup (f->settings, "mine")), ==, MCP_CONFIG_SCOPE_LOCAL);
}

static void
on_changed_cb (McpSettings *settings,
               guint       *count)
{
  (*count)++;
}

static void
test_monitor (Fixture       *f,
              gconstpointer  data)
{
  guint changed = 0;
  gint64 deadline;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}");
  load (f);
  g_signal_connect (f->settings, "changed", G_CALLBACK (on_changed_cb), &changed);

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}, \"b\": {\"command\": \"b\"}}}");
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (mcp_settings_lookup (f->settings, "b") == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpuint (changed, >=, 1);

  changed = 0;
  test_write_file (f->dirs.project_file, "{\"mcpServers\": {\"p\": {\"command\": \"p\"}}}");
  while (changed == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_nonnull (mcp_settings_lookup (f->settings, "p"));
  g_signal_handlers_disconnect_by_data (f->settings, &changed);
}

static void
test_outside_edit_kept (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) object = parse_object ("{\"command\": \"mine\"}");
  g_autofree char *contents = NULL;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}");
  load (f);

  /* between our load and our write, without giving the monitor a chance */
  test_write_file (f->dirs.user_file, "{\"theirs\": 1, \"mcpServers\": {\"a\": {\"command\": \"a\"}, \"b\": {\"command\": \"b\"}}}");
  mcp_settings_add_server_async (f->settings, "c", MCP_CONFIG_SCOPE_USER, object, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_add_server_finish, &result);

  contents = test_read_file (f->dirs.user_file);
  g_assert_nonnull (strstr (contents, "\"theirs\": 1"));
  g_assert_nonnull (strstr (contents, "\"b\": {"));
  g_assert_nonnull (strstr (contents, "\"c\": {"));
  g_assert_nonnull (mcp_settings_lookup (f->settings, "b"));
  g_assert_nonnull (mcp_settings_lookup (f->settings, "c"));
}

/* Another program changed the very server being edited: the edit is
 * refused, naming the file and the server, and nothing is written. */
static void
test_outside_edit_refuses (Fixture       *f,
                           gconstpointer  data)
{
  static const char theirs[] = "{\"mcpServers\": {\"a\": {\"command\": \"theirs\"}, \"b\": {\"command\": \"b\"}}}";
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) mine = parse_object ("{\"command\": \"mine\"}");
  g_autoptr(JsonObject) expected = NULL;
  g_autofree char *contents = NULL;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}, \"b\": {\"command\": \"b\"}}}");
  load (f);
  expected = json_object_ref (mcp_server_config_get_json (mcp_settings_lookup (f->settings, "a")));

  /* edited as loaded, changed meanwhile: refused */
  test_write_file (f->dirs.user_file, theirs);
  mcp_settings_edit_server_async (f->settings, "a", MCP_CONFIG_SCOPE_USER, mine, NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_edit_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, f->dirs.user_file));
  g_assert_nonnull (strstr (error->message, "“a” was changed meanwhile"));
  g_assert_nonnull (strstr (error->message, "nothing was changed"));
  contents = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (contents, ==, theirs);
  g_clear_error (&error);
  g_clear_object (&result);

  /* the editor's Save names what it started from: refused too, even once
   * the settings have seen the change */
  mcp_settings_save_server_async (f->settings, "a", MCP_CONFIG_SCOPE_USER, "a", MCP_CONFIG_SCOPE_USER,
                                  mine, expected, NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_save_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  g_clear_object (&result);

  /* a removal of what changed meanwhile is refused the same way */
  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"a\": {\"command\": \"again\"}, \"b\": {\"command\": \"b\"}}}");
  mcp_settings_remove_server_async (f->settings, "a", MCP_CONFIG_SCOPE_USER, NULL, test_result_cb, &result);
  g_assert_false (mcp_settings_remove_server_finish (f->settings, test_wait_result (&result, G_STRLOC), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  g_clear_object (&result);

  /* a change elsewhere is not in the way: "b" is edited, "a" kept */
  mcp_settings_edit_server_async (f->settings, "b", MCP_CONFIG_SCOPE_USER, mine, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_edit_server_finish, &result);
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (f->dirs.user_file);
  g_assert_cmpstr (contents, ==, "{\"mcpServers\": {\"a\": {\"command\": \"again\"}, \"b\": {\"command\": \"mine\"}}}");
}

static void
test_approvals (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) pending = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *key = projects_key (f);
  g_autofree char *memo_before = NULL;
  g_autofree char *memo_after = NULL;
  g_autofree char *needle = NULL;

  test_write_file (f->dirs.project_file,
              "{\"mcpServers\": {\"p1\": {\"command\": \"p1\"}, \"p2\": {\"command\": \"p2\"}}}");
  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"u\": {\"command\": \"u\"}}}");
  load (f);

  pending = mcp_settings_dup_pending_approvals (f->settings);
  g_assert_cmpstrv (pending, ((const char *[]) { "p1", "p2", NULL }));
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "p1"), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "u"), ==, MCP_APPROVAL_NOT_NEEDED);
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "p1")));
  g_assert_true (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "u")));
  memo_before = mcp_server_config_dup_memo_key (mcp_settings_lookup (f->settings, "p1"));

  mcp_settings_set_approval_async (f->settings, "p1", TRUE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_approval_finish, &result);
  mcp_settings_set_approval_async (f->settings, "p2", FALSE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_approval_finish, &result);

  g_clear_pointer (&pending, g_strfreev);
  pending = mcp_settings_dup_pending_approvals (f->settings);
  g_assert_cmpstrv (pending, ((const char *[]) { NULL }));
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "p1"), ==, MCP_APPROVAL_APPROVED);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "p2"), ==, MCP_APPROVAL_REJECTED);
  g_assert_true (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "p1")));
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "p2")));
  memo_after = mcp_server_config_dup_memo_key (mcp_settings_lookup (f->settings, "p1"));
  g_assert_cmpstr (memo_before, !=, memo_after);

  /* a file written on one line gets its additions on that line */
  contents = test_read_file (f->dirs.user_file);
  needle = g_strdup_printf ("{\"mcpServers\": {\"u\": {\"command\": \"u\"}}, \"projects\": {%s: "
                            "{\"enabledMcpjsonServers\": [\"p1\"], \"approvedMcpjsonServers\": "
                            "{\"p1\": {\"digest\": \"sha256:", key);
  g_assert_nonnull (strstr (contents, needle));
  /* (the approval is bound to what p1 runs: its digest and launch, issue 20) */
  g_assert_true (g_str_has_suffix (contents, "}}}, \"disabledMcpjsonServers\": [\"p2\"]}}}"));

  /* changing one's mind moves the name */
  mcp_settings_set_approval_async (f->settings, "p2", TRUE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_approval_finish, &result);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "p2"), ==, MCP_APPROVAL_APPROVED);
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (f->dirs.user_file);
  g_assert_nonnull (strstr (contents, "\"disabledMcpjsonServers\": []"));

  /* Turning a project server off or on is private: .mcp.json, which the
   * team shares, is not touched; the local lists are. */
  {
    g_autofree char *project_before = test_read_file (f->dirs.project_file);
    g_autofree char *project_after = NULL;

    mcp_settings_set_server_enabled_async (f->settings, "p1", MCP_CONFIG_SCOPE_PROJECT, FALSE,
                                           NULL, test_result_cb, &result);
    run_write (f, mcp_settings_set_server_enabled_finish, &result);
    g_assert_cmpint (mcp_settings_get_approval (f->settings, "p1"), ==, MCP_APPROVAL_REJECTED);
    g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "p1")));

    mcp_settings_set_server_enabled_async (f->settings, "p1", MCP_CONFIG_SCOPE_PROJECT, TRUE,
                                           NULL, test_result_cb, &result);
    run_write (f, mcp_settings_set_server_enabled_finish, &result);
    g_assert_cmpint (mcp_settings_get_approval (f->settings, "p1"), ==, MCP_APPROVAL_APPROVED);
    g_assert_true (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "p1")));

    project_after = test_read_file (f->dirs.project_file);
    g_assert_cmpstr (project_after, ==, project_before);
  }
}

static void
test_permissions (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *key = projects_key (f);
  g_autofree char *user = NULL;

  user = g_strdup_printf ("{\"permissions\": {\"allow\": [\"mcp__a\"], \"deny\": [\"mcp__b__x\"]},"
                          " \"projects\": {%s: {\"permissions\": {\"allow\": [\"mcp__c__*\"], \"ask\": [\"mcp__d\"]}},"
                          " \"/other\": {\"permissions\": {\"deny\": [\"mcp__nope\"]}}}}", key);
  test_write_file (f->dirs.user_file, user);
  load (f);

  g_assert_cmpstrv (mcp_settings_get_permissions_allow (f->settings), ((const char *[]) { "mcp__a", "mcp__c__*", NULL }));
  g_assert_cmpstrv (mcp_settings_get_permissions_deny (f->settings), ((const char *[]) { "mcp__b__x", NULL }));
  g_assert_cmpstrv (mcp_settings_get_permissions_ask (f->settings), ((const char *[]) { "mcp__d", NULL }));
}


/* A file as people write them: odd indentation, numbers of every
 * spelling, escapes, unknown keys. Each change touches its member only. */
static const char odd_user[] =
  "{\n"
  "   \"x-first\": {\"big\": 12345678901234567890, \"exp\": 1.5e10, \"neg\": -0.0, \"tiny\": 1E-300},\n"
  "   \"mcpServers\": {\n"
  "      \"one\": {\n"
  "\t\t\"command\": \"caf\\u00e9\",\n"
  "\t\t\"x-n\": 1.50\n"
  "      },\n"
  "      \"two\": {\"command\": \"two\", \"args\": [\"\\ud83d\\ude00\", \"\\/path\"]},\n"
  "      \"three\": {\n"
  "         \"command\": \"three\"\n"
  "      }\n"
  "   },\n"
  "   \"x-last\": \"\\u0041\\t\"\n"
  "}\n";

static const char odd_project[] =
  "{\n"
  "    \"mcpServers\": {\n"
  "        \"p\": { \"command\": \"p\", \"x-p\": 1e2 }\n"
  "    },\n"
  "    \"x-team\": true\n"
  "}\n";

#define PATHS(...) ((const char * const *[]) { __VA_ARGS__, NULL })
#define P(...) ((const char * const []) { __VA_ARGS__, NULL })

static void
test_only_the_member_changes (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) four = parse_object ("{\"command\": \"four\"}");
  g_autoptr(JsonObject) two = parse_object ("{\"command\": \"two\", \"args\": [\"\\ud83d\\ude00\", \"--v\"]}");
  g_autofree char *user = NULL;
  g_autofree char *project = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *before_disable = NULL;

  test_write_file (f->dirs.user_file, odd_user);
  test_write_file (f->dirs.project_file, odd_project);
  load (f);

#define STEP(file, touched) \
  G_STMT_START { \
    g_free (before); \
    before = g_steal_pointer (&after); \
    after = test_read_file (file); \
    assert_only_changed (before, after, touched); \
  } G_STMT_END

  after = test_read_file (f->dirs.user_file);

  mcp_settings_add_server_async (f->settings, "four", MCP_CONFIG_SCOPE_USER, four, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_add_server_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "four")));

  mcp_settings_edit_server_async (f->settings, "two", MCP_CONFIG_SCOPE_USER, two, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_edit_server_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "two")));
  /* the emoji's escape and the command's bytes are kept: only what changed */
  g_assert_nonnull (strstr (after, "\"two\": {\"command\": \"two\", \"args\": [\"\\ud83d\\ude00\", \"--v\"]},"));

  mcp_settings_rename_server_async (f->settings, "three", MCP_CONFIG_SCOPE_USER, "tres", NULL, test_result_cb, &result);
  run_write (f, mcp_settings_rename_server_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "three"), P ("mcpServers", "tres")));

  /* off and on again: back to the same bytes */
  before_disable = g_strdup (after);
  mcp_settings_set_server_enabled_async (f->settings, "two", MCP_CONFIG_SCOPE_USER, FALSE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_server_enabled_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "two")));
  g_assert_nonnull (strstr (after, "\"--v\"], \"enabled\": false},"));
  mcp_settings_set_server_enabled_async (f->settings, "two", MCP_CONFIG_SCOPE_USER, TRUE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_server_enabled_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "two")));
  g_assert_cmpstr (after, ==, before_disable);

  /* user → local: the entry's own bytes go with it */
  mcp_settings_move_server_async (f->settings, "one", MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_LOCAL,
                                  NULL, test_result_cb, &result);
  run_write (f, mcp_settings_move_server_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "one"), P ("projects")));
  g_assert_nonnull (strstr (after, "\"command\": \"caf\\u00e9\""));
  g_assert_nonnull (strstr (after, "\"x-n\": 1.50"));

  /* user → project: two files */
  project = test_read_file (f->dirs.project_file);
  mcp_settings_move_server_async (f->settings, "tres", MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_PROJECT,
                                  NULL, test_result_cb, &result);
  run_write (f, mcp_settings_move_server_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "tres")));
  {
    g_autofree char *project_after = test_read_file (f->dirs.project_file);

    assert_only_changed (project, project_after, PATHS (P ("mcpServers", "tres")));
    g_assert_nonnull (strstr (project_after, "        \"p\": { \"command\": \"p\", \"x-p\": 1e2 },\n"
                                             "        \"tres\": {\n"));
    g_free (project);
    project = g_steal_pointer (&project_after);
  }

  /* approval: the local lists only; .mcp.json is the team's */
  mcp_settings_set_approval_async (f->settings, "p", TRUE, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_set_approval_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("projects")));
  {
    g_autofree char *project_after = test_read_file (f->dirs.project_file);

    g_assert_cmpstr (project_after, ==, project);
  }

  mcp_settings_remove_server_async (f->settings, "four", MCP_CONFIG_SCOPE_USER, NULL, test_result_cb, &result);
  run_write (f, mcp_settings_remove_server_finish, &result);
  STEP (f->dirs.user_file, PATHS (P ("mcpServers", "four")));

  /* what no change touched is still there, byte for byte */
  g_assert_true (g_str_has_prefix (after, "{\n   \"x-first\": {\"big\": 12345678901234567890, \"exp\": 1.5e10, "
                                          "\"neg\": -0.0, \"tiny\": 1E-300},\n   \"mcpServers\": {\n"));
  g_assert_nonnull (strstr (after, "   },\n   \"x-last\": \"\\u0041\\t\",\n"));

#undef STEP
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/config/settings/merge-and-shadowing", test_merge);
  ADD ("/config/settings/invalid-entry-skipped", test_invalid_entry);
  ADD ("/config/settings/broken-file-never-written", test_broken_file);
  ADD ("/config/settings/unknown-keys-kept", test_keep_unknown);
  ADD ("/config/settings/rename-move-enable", test_rename_move_enable);
  ADD ("/config/settings/create-files", test_create_files);
  ADD ("/config/settings/monitor", test_monitor);
  ADD ("/config/settings/outside-edit-kept", test_outside_edit_kept);
  ADD ("/config/settings/outside-edit-refuses", test_outside_edit_refuses);
  ADD ("/config/settings/approvals", test_approvals);
  ADD ("/config/settings/permissions", test_permissions);
  ADD ("/config/settings/only-the-member-changes", test_only_the_member_changes);

#undef ADD

  return g_test_run ();
}
