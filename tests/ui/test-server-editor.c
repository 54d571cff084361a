/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-editor"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "plugboard-server-editor.h"
#include "test-dirs.h"
#include "ui-test-common.h"

typedef struct
{
  TestDirs     dirs;
  McpProject  *project;   /* not loaded: nothing connects */
  McpSettings *settings;  /* the project's */
} Fixture;

/* Helpers */

static JsonNode *
read_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  return json_node_ref (json_parser_get_root (parser));
}

static char *
node_to_string (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);

  return node_to_string (node);
}

/* @expected in the generator's compact form, so member order counts. */
static void
assert_json_equal (JsonNode   *node,
                   const char *expected)
{
  g_autoptr(JsonNode) expected_node = json_from_string (expected, NULL);
  g_autofree char *actual_text = NULL;
  g_autofree char *expected_text = NULL;

  g_assert_nonnull (node);
  g_assert_nonnull (expected_node);
  actual_text = node_to_string (node);
  expected_text = node_to_string (expected_node);
  g_assert_cmpstr (actual_text, ==, expected_text);
}

/* The settings reload after a write; a file monitor's reload may come
 * later still, so wait (bounded) for the engine to show the entry. */
static McpServerConfig *
wait_lookup_full (Fixture        *f,
                  const char     *name,
                  McpConfigScope  scope,
                  gboolean        present)
{
  McpServerConfig *config;

  TEST_WAIT_UNTIL (((config = mcp_settings_lookup_in_scope (f->settings, name, scope)) != NULL) == present);

  return config;
}

#define wait_lookup(f, name, scope) wait_lookup_full (f, name, scope, TRUE)

static void
load_settings (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_settings_load_async (f->settings, NULL, test_result_cb, &result);
  mcp_settings_load_finish (f->settings, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  test_dirs_init (&f->dirs, "editor");
  f->project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
  f->settings = g_object_ref (mcp_project_get_settings (f->project));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->settings);
  g_clear_object (&f->project);
  test_iterate_pending ();
  test_dirs_clear (&f->dirs);
}

static gpointer
child (PlugboardServerEditor *editor,
       const char            *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (editor),
                                                   PLUGBOARD_TYPE_SERVER_EDITOR, name);

  g_assert_nonnull (object);

  return object;
}

static void
set_text (PlugboardServerEditor *editor,
          const char            *row,
          const char            *text)
{
  gtk_editable_set_text (GTK_EDITABLE (child (editor, row)), text);
}

static const char *
get_text (PlugboardServerEditor *editor,
          const char            *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (child (editor, row)));
}

/* The rows of a list before its "Add" row. */
static GPtrArray *
list_rows (PlugboardServerEditor *editor,
           const char            *list_name,
           const char            *add_name)
{
  GtkListBox *list = child (editor, list_name);
  GtkListBoxRow *add_row = child (editor, add_name);
  GPtrArray *rows = g_ptr_array_new ();
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    {
      if (row != add_row)
        g_ptr_array_add (rows, row);
    }
  /* the "Add" row is always the last */
  g_assert_true (gtk_list_box_get_row_at_index (list, rows->len) == add_row);

  return rows;
}

static GtkWidget *
add_row (PlugboardServerEditor *editor,
         const char            *list_name,
         const char            *add_name)
{
  g_autoptr(GPtrArray) before = list_rows (editor, list_name, add_name);
  g_autoptr(GPtrArray) after = NULL;

  g_signal_emit_by_name (child (editor, add_name), "activate");
  after = list_rows (editor, list_name, add_name);
  g_assert_cmpuint (after->len, ==, before->len + 1);

  return after->pdata[after->len - 1];
}

static GtkWidget *
add_argument (PlugboardServerEditor *editor,
              const char            *text)
{
  GtkWidget *row = add_row (editor, "args_list", "add_arg_row");

  gtk_editable_set_text (GTK_EDITABLE (row), text);

  return row;
}

static GtkWidget *
add_pair (PlugboardServerEditor *editor,
          const char            *list_name,
          const char            *add_name,
          const char            *name,
          const char            *value)
{
  GtkWidget *row = add_row (editor, list_name, add_name);
  GtkWidget *name_entry = g_object_get_data (G_OBJECT (row), "name-entry");
  g_autoptr(GPtrArray) rows = NULL;

  g_assert_true (GTK_IS_EDITABLE (name_entry));
  gtk_editable_set_text (GTK_EDITABLE (row), value);
  gtk_editable_set_text (GTK_EDITABLE (name_entry), name);
  /* a secret-looking name turns the row into a password row when idle */
  test_iterate_pending ();

  rows = list_rows (editor, list_name, add_name);
  return rows->pdata[rows->len - 1];
}

static const char *
pair_name (GtkWidget *row)
{
  return gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "name-entry"));
}

static gboolean
is_masked (GtkWidget *row)
{
  GtkEditable *delegate = gtk_editable_get_delegate (GTK_EDITABLE (row));

  g_assert_true (GTK_IS_TEXT (delegate));
  return !gtk_text_get_visibility (GTK_TEXT (delegate));
}

static gboolean
save_is_sensitive (PlugboardServerEditor *editor)
{
  return gtk_widget_get_sensitive (child (editor, "save_button"));
}

static const char *
shown_message (PlugboardServerEditor *editor)
{
  if (!gtk_revealer_get_reveal_child (child (editor, "message_revealer")))
    return NULL;

  return gtk_label_get_text (child (editor, "message_label"));
}

typedef struct
{
  char *name;
  int   scope;
  guint count;
} SavedRecord;

static void
on_saved_cb (PlugboardServerEditor *editor,
             const char            *name,
             int                    scope,
             SavedRecord           *record)
{
  g_free (record->name);
  record->name = g_strdup (name);
  record->scope = scope;
  record->count++;
}

/* Saves through the editor as the button does; the editor closes. */
static void
save (PlugboardServerEditor *editor,
      SavedRecord           *record)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (save_is_sensitive (editor));
  g_signal_connect (editor, "saved", G_CALLBACK (on_saved_cb), record);
  plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
  g_assert_true (plugboard_server_editor_save_finish (editor, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (record->count, ==, 1);
  test_iterate_pending ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (editor)));
}

static PlugboardServerEditor *
editor_new (Fixture         *f,
            McpServerConfig *config,
            McpConfigScope   scope)
{
  PlugboardServerEditor *editor = plugboard_server_editor_new (NULL, f->project, config, scope);

  g_object_ref_sink (editor);
  gtk_window_present (GTK_WINDOW (editor));
  test_iterate_pending ();

  return editor;
}

static void
editor_free (PlugboardServerEditor *editor)
{
  gtk_window_destroy (GTK_WINDOW (editor));
  g_object_unref (editor);
  test_iterate_pending ();
}

/* Tests */

static void
test_new_stdio_server (Fixture       *f,
                       gconstpointer  data)
{
  PlugboardServerEditor *editor;
  SavedRecord record = { 0 };
  g_autoptr(JsonNode) project = NULL;
  McpServerConfig *config;
  JsonObject *servers;

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_PROJECT);

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Add Server");
  g_assert_cmpstr (gtk_button_get_label (child (editor, "save_button")), ==, "_Add");
  g_assert_cmpuint (adw_combo_row_get_selected (child (editor, "scope_row")), ==, MCP_CONFIG_SCOPE_PROJECT);
  g_assert_cmpuint (adw_combo_row_get_selected (child (editor, "transport_row")), ==, 0);
  /* the stdio fields show, the remote ones do not */
  g_assert_true (gtk_widget_get_visible (child (editor, "command_group")));
  g_assert_false (gtk_widget_get_visible (child (editor, "remote_group")));
  g_assert_false (save_is_sensitive (editor));
  /* where it will be saved, following the scope */
  g_assert_nonnull (strstr (adw_preferences_group_get_description (child (editor, "server_group")), f->dirs.project_file));
  adw_combo_row_set_selected (child (editor, "scope_row"), MCP_CONFIG_SCOPE_USER);
  g_assert_nonnull (strstr (adw_preferences_group_get_description (child (editor, "server_group")), f->dirs.user_file));
  adw_combo_row_set_selected (child (editor, "scope_row"), MCP_CONFIG_SCOPE_PROJECT);

  set_text (editor, "name_row", "files");
  set_text (editor, "command_row", "npx");
  add_argument (editor, "-y");
  add_argument (editor, "@modelcontextprotocol/server-filesystem");
  add_argument (editor, "/home/me/My Documents");
  add_pair (editor, "env_list", "add_env_row", "LOG_LEVEL", "debug");
  g_assert_true (save_is_sensitive (editor));
  g_assert_null (shown_message (editor));

  save (editor, &record);
  g_assert_cmpstr (record.name, ==, "files");
  g_assert_cmpint (record.scope, ==, MCP_CONFIG_SCOPE_PROJECT);

  /* the project's .mcp.json, exactly; the user file is not written */
  project = read_json (f->dirs.project_file);
  assert_json_equal (project,
                     "{\"mcpServers\":{\"files\":{\"command\":\"npx\","
                     "\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\",\"/home/me/My Documents\"],"
                     "\"env\":{\"LOG_LEVEL\":\"debug\"}}}}");
  g_assert_false (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));

  /* and the engine has it, in that scope */
  config = wait_lookup (f, "files", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_nonnull (config);
  g_assert_cmpuint (g_strv_length ((char **)mcp_server_config_get_args (config)), ==, 3);
  g_assert_cmpstr (mcp_server_config_get_args (config)[2], ==, "/home/me/My Documents");
  servers = json_object_get_object_member (json_node_get_object (project), "mcpServers");
  g_assert_cmpuint (json_object_get_size (servers), ==, 1);

  editor_free (editor);
  g_free (record.name);
}

static void
test_new_remote_server_local_scope (Fixture       *f,
                                    gconstpointer  data)
{
  PlugboardServerEditor *editor;
  SavedRecord record = { 0 };
  g_autoptr(JsonNode) user = NULL;
  JsonObject *projects;
  JsonNode *entry;

  test_write_file (f->dirs.user_file, "{\"theme\": \"dark\", \"mcpServers\": {}}");
  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);

  set_text (editor, "name_row", "linear");
  adw_combo_row_set_selected (child (editor, "scope_row"), MCP_CONFIG_SCOPE_LOCAL);
  adw_combo_row_set_selected (child (editor, "transport_row"), 1);
  g_assert_false (gtk_widget_get_visible (child (editor, "command_group")));
  g_assert_true (gtk_widget_get_visible (child (editor, "remote_group")));
  g_assert_true (gtk_widget_get_visible (child (editor, "oauth_group")));
  set_text (editor, "url_row", "https://mcp.linear.app/mcp");
  add_pair (editor, "headers_list", "add_header_row", "Authorization", "Bearer ${LINEAR_TOKEN}");
  set_text (editor, "oauth_port_row", "8976");
  set_text (editor, "oauth_scopes_row", "read  write");
  set_text (editor, "tool_timeout_row", "60000");

  save (editor, &record);
  g_assert_cmpint (record.scope, ==, MCP_CONFIG_SCOPE_LOCAL);

  user = read_json (f->dirs.user_file);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (user), "theme"), ==, "dark");
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (json_node_get_object (user), "mcpServers")), ==, 0);
  projects = json_object_get_object_member (json_node_get_object (user), "projects");
  entry = json_object_get_member (json_object_get_object_member (json_object_get_object_member (projects, f->dirs.project_dir),
                                                                 "mcpServers"),
                                  "linear");
  assert_json_equal (entry,
                     "{\"type\":\"http\",\"url\":\"https://mcp.linear.app/mcp\","
                     "\"headers\":{\"Authorization\":\"Bearer ${LINEAR_TOKEN}\"},"
                     "\"oauth\":{\"callbackPort\":8976,\"scopes\":[\"read\",\"write\"]},"
                     "\"toolTimeout\":60000}");
  g_assert_false (g_file_test (f->dirs.project_file, G_FILE_TEST_EXISTS));
  g_assert_nonnull (wait_lookup (f, "linear", MCP_CONFIG_SCOPE_LOCAL));

  editor_free (editor);
  g_free (record.name);
}

static void
test_edit_keeps_unknown_keys (Fixture       *f,
                              gconstpointer  data)
{
  PlugboardServerEditor *editor;
  SavedRecord record = { 0 };
  g_autoptr(JsonNode) user = NULL;
  g_autoptr(GPtrArray) args = NULL;
  g_autoptr(GList) names = NULL;
  McpServerConfig *config;
  JsonObject *servers;

  test_write_file (f->dirs.user_file,
              "{\"mcpServers\": {"
              " \"first\": {\"command\": \"one\"},"
              " \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\", \"--repository\", \"/src/my repo\"],"
              "           \"x-notes\": {\"owner\": \"me\"}, \"enabled\": false, \"timeout\": 5000},"
              " \"last\": {\"command\": \"three\"}"
              "}, \"other\": [1, 2]}");
  load_settings (f);
  config = mcp_settings_lookup_in_scope (f->settings, "git", MCP_CONFIG_SCOPE_USER);
  g_assert_nonnull (config);

  editor = editor_new (f, config, MCP_CONFIG_SCOPE_PROJECT);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Edit Server");
  g_assert_cmpstr (gtk_button_get_label (child (editor, "save_button")), ==, "_Save");
  /* the fields show the entry, in its own scope */
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "git");
  g_assert_cmpuint (adw_combo_row_get_selected (child (editor, "scope_row")), ==, MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (get_text (editor, "command_row"), ==, "uvx");
  g_assert_cmpstr (get_text (editor, "connect_timeout_row"), ==, "5000");
  args = list_rows (editor, "args_list", "add_arg_row");
  g_assert_cmpuint (args->len, ==, 3);
  g_assert_cmpstr (gtk_editable_get_text (args->pdata[2]), ==, "/src/my repo");
  g_assert_cmpstr (adw_preferences_row_get_title (args->pdata[2]), ==, "Argument 3");
  /* an unchanged entry saves as it is */
  g_assert_true (save_is_sensitive (editor));
  g_assert_null (shown_message (editor));

  set_text (editor, "command_row", "/usr/bin/uvx");
  set_text (editor, "connect_timeout_row", "");
  add_argument (editor, "--verbose");

  save (editor, &record);
  g_assert_cmpstr (record.name, ==, "git");
  g_assert_cmpint (record.scope, ==, MCP_CONFIG_SCOPE_USER);

  user = read_json (f->dirs.user_file);
  servers = json_object_get_object_member (json_node_get_object (user), "mcpServers");
  names = json_object_get_members (servers);
  g_assert_cmpuint (g_list_length (names), ==, 3);
  /* the entry keeps its place, unknown keys and "enabled" */
  g_assert_cmpstr (g_list_nth_data (names, 1), ==, "git");
  assert_json_equal (json_object_get_member (servers, "git"),
                     "{\"command\":\"/usr/bin/uvx\","
                     "\"args\":[\"mcp-server-git\",\"--repository\",\"/src/my repo\",\"--verbose\"],"
                     "\"x-notes\":{\"owner\":\"me\"},\"enabled\":false}");
  g_assert_true (json_object_has_member (json_node_get_object (user), "other"));
  g_assert_false (g_file_test (f->dirs.project_file, G_FILE_TEST_EXISTS));

  editor_free (editor);
  g_free (record.name);
}

static void
test_rename_and_move (Fixture       *f,
                      gconstpointer  data)
{
  PlugboardServerEditor *editor;
  SavedRecord record = { 0 };
  g_autoptr(JsonNode) user = NULL;
  g_autoptr(JsonNode) project = NULL;
  g_autoptr(GList) names = NULL;
  McpServerConfig *config;
  JsonObject *servers;

  test_write_file (f->dirs.user_file,
              "{\"mcpServers\": {"
              " \"a\": {\"command\": \"one\"},"
              " \"b\": {\"command\": \"two\", \"x-keep\": true},"
              " \"c\": {\"command\": \"three\"}}}");
  load_settings (f);

  /* rename only: same file, same place */
  editor = editor_new (f, mcp_settings_lookup_in_scope (f->settings, "b", MCP_CONFIG_SCOPE_USER),
                       MCP_CONFIG_SCOPE_USER);
  /* a name that is taken in that scope cannot be saved */
  set_text (editor, "name_row", "c");
  g_assert_false (save_is_sensitive (editor));
  g_assert_nonnull (strstr (shown_message (editor), "There is already a server “c”"));
  set_text (editor, "name_row", "bee");
  g_assert_true (save_is_sensitive (editor));
  save (editor, &record);
  g_assert_cmpstr (record.name, ==, "bee");
  editor_free (editor);

  user = read_json (f->dirs.user_file);
  servers = json_object_get_object_member (json_node_get_object (user), "mcpServers");
  names = json_object_get_members (servers);
  g_assert_cmpuint (g_list_length (names), ==, 3);
  g_assert_cmpstr (g_list_nth_data (names, 1), ==, "bee");
  assert_json_equal (json_object_get_member (servers, "bee"), "{\"command\":\"two\",\"x-keep\":true}");
  g_clear_pointer (&user, json_node_unref);

  /* rename, edit and move to the project: two files */
  config = wait_lookup (f, "bee", MCP_CONFIG_SCOPE_USER);
  editor = editor_new (f, config, MCP_CONFIG_SCOPE_USER);
  set_text (editor, "name_row", "shared");
  set_text (editor, "command_row", "two-and-a-half");
  adw_combo_row_set_selected (child (editor, "scope_row"), MCP_CONFIG_SCOPE_PROJECT);
  record.count = 0;
  save (editor, &record);
  g_assert_cmpstr (record.name, ==, "shared");
  g_assert_cmpint (record.scope, ==, MCP_CONFIG_SCOPE_PROJECT);
  editor_free (editor);

  user = read_json (f->dirs.user_file);
  servers = json_object_get_object_member (json_node_get_object (user), "mcpServers");
  g_assert_false (json_object_has_member (servers, "bee"));
  g_assert_false (json_object_has_member (servers, "shared"));
  g_assert_cmpuint (json_object_get_size (servers), ==, 2);
  project = read_json (f->dirs.project_file);
  assert_json_equal (project,
                     "{\"mcpServers\":{\"shared\":{\"command\":\"two-and-a-half\",\"x-keep\":true}}}");
  g_assert_nonnull (wait_lookup (f, "shared", MCP_CONFIG_SCOPE_PROJECT));
  g_assert_null (wait_lookup_full (f, "bee", MCP_CONFIG_SCOPE_USER, FALSE));

  g_free (record.name);
}

static void
assert_invalid (PlugboardServerEditor *editor,
                const char            *expected_part)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;

  entry = plugboard_server_editor_dup_entry (editor, &error);
  g_assert_null (entry);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, expected_part));
  /* the dialog shows the engine's message as it is, and cannot save */
  g_assert_cmpstr (shown_message (editor), ==, error->message);
  g_assert_false (save_is_sensitive (editor));
}

static void
test_invalid_input (Fixture       *f,
                    gconstpointer  data)
{
  PlugboardServerEditor *editor;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);

  /* Issue 21, defect 4: a new server's editor opens without an error (it
   * opened with a red Name and a banner); Add waits. */
  g_assert_null (shown_message (editor));
  g_assert_false (gtk_widget_has_css_class (child (editor, "name_row"), "error"));
  g_assert_false (gtk_widget_has_css_class (child (editor, "command_row"), "error"));
  g_assert_false (save_is_sensitive (editor));

  /* a row the person changed is checked */
  set_text (editor, "name_row", "x");
  set_text (editor, "name_row", "");
  assert_invalid (editor, "a server needs a non-empty name");
  g_assert_true (gtk_widget_has_css_class (child (editor, "name_row"), "error"));

  /* the command not yet typed: Add waits without an error */
  set_text (editor, "name_row", "srv");
  g_assert_null (shown_message (editor));
  g_assert_false (gtk_widget_has_css_class (child (editor, "name_row"), "error"));
  g_assert_false (gtk_widget_has_css_class (child (editor, "command_row"), "error"));
  g_assert_false (save_is_sensitive (editor));

  set_text (editor, "command_row", "x");
  set_text (editor, "command_row", "");
  assert_invalid (editor, "$.mcpServers.srv.command: expected a non-empty string");
  g_assert_nonnull (strstr (shown_message (editor), f->dirs.user_file));
  g_assert_false (gtk_widget_has_css_class (child (editor, "name_row"), "error"));
  g_assert_true (gtk_widget_has_css_class (child (editor, "command_row"), "error"));

  set_text (editor, "command_row", "cat");
  g_assert_true (save_is_sensitive (editor));
  g_assert_null (shown_message (editor));
  g_assert_false (gtk_widget_has_css_class (child (editor, "command_row"), "error"));

  set_text (editor, "connect_timeout_row", "soon");
  assert_invalid (editor, "$.mcpServers.srv.timeout: expected a whole number, not a string");
  g_assert_true (gtk_widget_has_css_class (child (editor, "connect_timeout_row"), "error"));
  set_text (editor, "connect_timeout_row", "-1");
  assert_invalid (editor, "$.mcpServers.srv.timeout: expected a whole number from 0 to");
  set_text (editor, "connect_timeout_row", "10000");
  g_assert_true (save_is_sensitive (editor));

  /* an environment variable with a value but no name */
  add_pair (editor, "env_list", "add_env_row", "", "orphan");
  assert_invalid (editor, "expected a non-empty name");
  {
    g_autoptr(GPtrArray) rows = list_rows (editor, "env_list", "add_env_row");

    gtk_editable_set_text (GTK_EDITABLE (g_object_get_data (G_OBJECT (rows->pdata[0]), "name-entry")), "A=B");
    test_iterate_pending ();
    assert_invalid (editor, "an environment variable name must not contain ‘=’");
    gtk_editable_set_text (GTK_EDITABLE (g_object_get_data (G_OBJECT (rows->pdata[0]), "name-entry")), "NAME");
    test_iterate_pending ();
  }
  g_assert_true (save_is_sensitive (editor));

  /* remote: the URL is required (once the person has been there) */
  adw_combo_row_set_selected (child (editor, "transport_row"), 3);
  g_assert_null (shown_message (editor));
  g_assert_false (save_is_sensitive (editor));
  set_text (editor, "url_row", "x");
  set_text (editor, "url_row", "");
  assert_invalid (editor, "$.mcpServers.srv.url: expected a non-empty string");
  g_assert_true (gtk_widget_has_css_class (child (editor, "url_row"), "error"));
  set_text (editor, "url_row", "wss://example.com/mcp");
  set_text (editor, "oauth_port_row", "99999");
  assert_invalid (editor, "$.mcpServers.srv.oauth.callbackPort: expected a whole number from 0 to 65535");
  g_assert_true (gtk_widget_has_css_class (child (editor, "oauth_port_row"), "error"));
  set_text (editor, "oauth_port_row", "");
  g_assert_true (save_is_sensitive (editor));
  entry = plugboard_server_editor_dup_entry (editor, NULL);
  text = object_to_string (entry);
  g_assert_cmpstr (text, ==, "{\"type\":\"ws\",\"url\":\"wss://example.com/mcp\",\"timeout\":10000}");

  /* saving while invalid fails with the message and writes nothing */
  set_text (editor, "url_row", "");
  plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
  g_assert_false (plugboard_server_editor_save_finish (editor, test_wait_result (&result, NULL), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "url: expected a non-empty string"));
  g_assert_false (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));

  editor_free (editor);
}

static void
test_write_error_stays_open (Fixture       *f,
                             gconstpointer  data)
{
  PlugboardServerEditor *editor;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {}}");
  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  set_text (editor, "name_row", "x");
  set_text (editor, "command_row", "cat");
  g_assert_true (save_is_sensitive (editor));

  /* the file turns bad behind our back: the engine refuses to write it */
  test_write_file (f->dirs.user_file, "{\"mcpServers\": {");
  plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
  g_assert_false (plugboard_server_editor_save_finish (editor, test_wait_result (&result, NULL), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));
  g_assert_cmpstr (shown_message (editor), ==, error->message);
  g_assert_true (save_is_sensitive (editor));
  g_file_get_contents (f->dirs.user_file, &contents, NULL, NULL);
  g_assert_cmpstr (contents, ==, "{\"mcpServers\": {");

  /* the next edit clears the message */
  set_text (editor, "command_row", "cat -u");
  g_assert_null (shown_message (editor));

  editor_free (editor);
}

static void
test_secrets_masked (Fixture       *f,
                     gconstpointer  data)
{
  PlugboardServerEditor *editor;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) headers = NULL;
  g_autoptr(GPtrArray) env = NULL;
  GtkWidget *row;

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);

  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "{\"api\": {\"type\": \"sse\", \"url\": \"https://h/sse\","
                                                    " \"headers\": {\"Authorization\": \"Bearer abc\","
                                                    " \"Accept-Language\": \"en\", \"X-Api-Key\": \"k\"}}}",
                                                    &error));
  g_assert_no_error (error);
  headers = list_rows (editor, "headers_list", "add_header_row");
  g_assert_cmpuint (headers->len, ==, 3);
  g_assert_cmpstr (pair_name (headers->pdata[0]), ==, "Authorization");
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (headers->pdata[0]));
  g_assert_true (is_masked (headers->pdata[0]));
  g_assert_cmpstr (gtk_editable_get_text (headers->pdata[0]), ==, "Bearer abc");
  g_assert_cmpstr (pair_name (headers->pdata[1]), ==, "Accept-Language");
  g_assert_true (ADW_IS_ENTRY_ROW (headers->pdata[1]));
  g_assert_false (ADW_IS_PASSWORD_ENTRY_ROW (headers->pdata[1]));
  g_assert_false (is_masked (headers->pdata[1]));
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (headers->pdata[2]));

  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "{\"command\": \"gh-mcp\", \"env\": {\"GITHUB_TOKEN\": \"ghp_x\","
                                                    " \"DB_PASSWORD\": \"p\", \"CLIENT_SECRET\": \"s\", \"DEBUG\": \"1\"}}",
                                                    &error));
  g_assert_no_error (error);
  env = list_rows (editor, "env_list", "add_env_row");
  g_assert_cmpuint (env->len, ==, 4);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (env->pdata[i]));
      g_assert_true (is_masked (env->pdata[i]));
    }
  g_assert_false (ADW_IS_PASSWORD_ENTRY_ROW (env->pdata[3]));
  g_assert_false (is_masked (env->pdata[3]));

  /* renaming a variable to a secret-looking name masks it, keeping its value and place */
  gtk_editable_set_text (g_object_get_data (G_OBJECT (env->pdata[3]), "name-entry"), "SESSION_TOKEN");
  test_iterate_pending ();
  g_ptr_array_unref (g_steal_pointer (&env));
  env = list_rows (editor, "env_list", "add_env_row");
  g_assert_cmpuint (env->len, ==, 4);
  row = env->pdata[3];
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (row));
  g_assert_true (is_masked (row));
  g_assert_cmpstr (pair_name (row), ==, "SESSION_TOKEN");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "1");
  /* and back */
  gtk_editable_set_text (g_object_get_data (G_OBJECT (row), "name-entry"), "VERBOSE");
  test_iterate_pending ();
  g_ptr_array_unref (g_steal_pointer (&env));
  env = list_rows (editor, "env_list", "add_env_row");
  g_assert_false (ADW_IS_PASSWORD_ENTRY_ROW (env->pdata[3]));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (env->pdata[3])), ==, "1");

  /* a new row added by hand */
  row = add_pair (editor, "env_list", "add_env_row", "OPENAI_API_KEY", "sk-123");
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (row));
  g_assert_true (is_masked (row));

  editor_free (editor);
}

static void
test_variable_tooltip (Fixture       *f,
                       gconstpointer  data)
{
  PlugboardServerEditor *editor;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *text = NULL;
  GtkWidget *arg;
  GtkWidget *secret;
  const char *tooltip;

  g_setenv ("PLUGBOARD_TEST_DATA_DIR", "/srv/test-data", TRUE);
  g_setenv ("PLUGBOARD_TEST_SECRET", "s3cr3t-value", TRUE);
  g_unsetenv ("PLUGBOARD_TEST_UNSET");

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  set_text (editor, "name_row", "vars");
  set_text (editor, "command_row", "${PLUGBOARD_TEST_UNSET:-/usr/bin/server}");
  tooltip = gtk_widget_get_tooltip_text (child (editor, "command_row"));
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "PLUGBOARD_TEST_UNSET is not set"));
  g_assert_nonnull (strstr (tooltip, "/usr/bin/server"));

  arg = add_argument (editor, "--root=${PLUGBOARD_TEST_DATA_DIR}/files");
  tooltip = gtk_widget_get_tooltip_text (arg);
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "PLUGBOARD_TEST_DATA_DIR"));
  g_assert_nonnull (strstr (tooltip, "/srv/test-data"));

  gtk_editable_set_text (GTK_EDITABLE (arg), "${PLUGBOARD_TEST_UNSET}");
  tooltip = gtk_widget_get_tooltip_text (arg);
  g_assert_nonnull (strstr (tooltip, "PLUGBOARD_TEST_UNSET is not set"));

  gtk_editable_set_text (GTK_EDITABLE (arg), "plain");
  g_assert_null (gtk_widget_get_tooltip_text (arg));

  /* a secret field says the variable is set, never its value */
  secret = add_pair (editor, "env_list", "add_env_row", "API_TOKEN", "${PLUGBOARD_TEST_SECRET}");
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (secret));
  tooltip = gtk_widget_get_tooltip_text (secret);
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "PLUGBOARD_TEST_SECRET is set"));
  g_assert_null (strstr (tooltip, "s3cr3t"));

  /* the references are saved as written */
  entry = plugboard_server_editor_dup_entry (editor, NULL);
  g_assert_nonnull (entry);
  text = object_to_string (entry);
  g_assert_cmpstr (text, ==,
                   "{\"command\":\"${PLUGBOARD_TEST_UNSET:-/usr/bin/server}\",\"args\":[\"plain\"],"
                   "\"env\":{\"API_TOKEN\":\"${PLUGBOARD_TEST_SECRET}\"}}");

  editor_free (editor);
}

static void
test_load_json (Fixture       *f,
                gconstpointer  data)
{
  static const char * const garbage[] = {
    "not json at all",
    "[\"npx\", \"server\"]",
    "42",
    "{\"a\": {\"command\": \"x\"}, \"b\": {\"command\": \"y\"}}",
    "{\"command\": 3}",
    "{\"command\": \"x\", \"args\": [\"ok\", 7]}",
    "{\"type\": \"carrier-pigeon\", \"url\": \"x\"}",
    "{}",
  };
  PlugboardServerEditor *editor;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) args = NULL;

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);

  /* an entry on its own: the name stays */
  set_text (editor, "name_row", "mine");
  g_assert_true (plugboard_server_editor_load_json (editor, "{\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]}", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "mine");
  g_assert_cmpstr (get_text (editor, "command_row"), ==, "uvx");
  args = list_rows (editor, "args_list", "add_arg_row");
  g_assert_cmpuint (args->len, ==, 1);
  g_assert_true (save_is_sensitive (editor));

  /* { "name": { … } } */
  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "{\"everything\": {\"command\": \"npx\","
                                                    " \"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"]}}",
                                                    &error));
  g_assert_no_error (error);
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "everything");
  g_assert_cmpstr (get_text (editor, "command_row"), ==, "npx");
  g_ptr_array_unref (g_steal_pointer (&args));
  args = list_rows (editor, "args_list", "add_arg_row");
  g_assert_cmpuint (args->len, ==, 2);
  g_assert_cmpstr (gtk_editable_get_text (args->pdata[1]), ==, "@modelcontextprotocol/server-everything");

  /* the whole "mcpServers" shape, and a member copied out of a file */
  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "{\"mcpServers\": {\"remote\": {\"type\": \"http\", \"url\": \"https://x/mcp\"}}}",
                                                    &error));
  g_assert_no_error (error);
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "remote");
  g_assert_cmpuint (adw_combo_row_get_selected (child (editor, "transport_row")), ==, 1);
  g_assert_cmpstr (get_text (editor, "url_row"), ==, "https://x/mcp");
  g_assert_true (gtk_widget_get_visible (child (editor, "remote_group")));

  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "  \"copied\": {\"command\": \"node\", \"args\": [\"server.js\"]},\n",
                                                    &error));
  g_assert_no_error (error);
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "copied");
  g_assert_cmpuint (adw_combo_row_get_selected (child (editor, "transport_row")), ==, 0);

  /* garbage is refused and leaves the fields alone */
  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      g_autoptr(GError) local_error = NULL;

      g_assert_false (plugboard_server_editor_load_json (editor, garbage[i], &local_error));
      g_assert_error (local_error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
      g_assert_cmpstr (get_text (editor, "name_row"), ==, "copied");
      g_assert_cmpstr (get_text (editor, "command_row"), ==, "node");
    }
  {
    g_autoptr(GError) local_error = NULL;

    plugboard_server_editor_load_json (editor, "{\"command\": \"x\", \"args\": [\"ok\", 7]}", &local_error);
    /* the engine's message, with where */
    g_assert_nonnull (strstr (local_error->message, "$.args[1]: expected a string, not a number"));
  }

  editor_free (editor);
}

static void
test_argument_list (Fixture       *f,
                    gconstpointer  data)
{
  PlugboardServerEditor *editor;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *text = NULL;
  GtkWidget *row;

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  set_text (editor, "name_row", "shell");
  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "{\"command\": \"sh\", \"args\": [\"-c\", \"echo hello   world\"]}",
                                                    &error));
  g_assert_no_error (error);

  rows = list_rows (editor, "args_list", "add_arg_row");
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (gtk_editable_get_text (rows->pdata[1]), ==, "echo hello   world");
  /* the first cannot move up, the last cannot move down */
  g_assert_false (gtk_widget_get_sensitive (g_object_get_data (rows->pdata[0], "up-button")));
  g_assert_true (gtk_widget_get_sensitive (g_object_get_data (rows->pdata[0], "down-button")));
  g_assert_false (gtk_widget_get_sensitive (g_object_get_data (rows->pdata[1], "down-button")));

  row = add_argument (editor, "a b c");
  entry = plugboard_server_editor_dup_entry (editor, &error);
  g_assert_no_error (error);
  text = object_to_string (entry);
  g_assert_cmpstr (text, ==, "{\"command\":\"sh\",\"args\":[\"-c\",\"echo hello   world\",\"a b c\"]}");
  g_clear_pointer (&entry, json_object_unref);
  g_clear_pointer (&text, g_free);

  /* move the new one up, then remove the first */
  g_signal_emit_by_name (g_object_get_data (G_OBJECT (row), "up-button"), "clicked");
  g_ptr_array_unref (g_steal_pointer (&rows));
  rows = list_rows (editor, "args_list", "add_arg_row");
  g_assert_true (rows->pdata[1] == row);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Argument 2");
  {
    /* the remove button is the row's last suffix */
    GtkWidget *down = g_object_get_data (rows->pdata[0], "down-button");
    GtkWidget *remove = gtk_widget_get_next_sibling (down);

    g_assert_true (GTK_IS_BUTTON (remove));
    g_assert_cmpstr (gtk_widget_get_tooltip_text (remove), ==, "Remove Argument");
    g_signal_emit_by_name (remove, "clicked");
  }
  entry = plugboard_server_editor_dup_entry (editor, &error);
  g_assert_no_error (error);
  text = object_to_string (entry);
  g_assert_cmpstr (text, ==, "{\"command\":\"sh\",\"args\":[\"a b c\",\"echo hello   world\"]}");
  g_ptr_array_unref (g_steal_pointer (&rows));
  rows = list_rows (editor, "args_list", "add_arg_row");
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[0]), ==, "Argument 1");
  g_assert_false (gtk_widget_get_sensitive (g_object_get_data (rows->pdata[0], "up-button")));

  editor_free (editor);
}

/* Iterates until @done says so; fails after 20 s. */
static gboolean
name_filled (gpointer editor)
{
  return g_strcmp0 (get_text (editor, "name_row"), "clip") == 0;
}

static gboolean
message_shown (gpointer editor)
{
  return shown_message (editor) != NULL && strstr (shown_message (editor), "not JSON") != NULL;
}

static void
test_paste_button (Fixture       *f,
                   gconstpointer  data)
{
  PlugboardServerEditor *editor;
  GdkClipboard *clipboard;

  load_settings (f);
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (editor));

  gdk_clipboard_set_text (clipboard, "{\"clip\": {\"command\": \"uvx\", \"args\": [\"mcp-server-time\"]}}");
  g_signal_emit_by_name (child (editor, "paste_button"), "clicked");
  test_iterate_until (name_filled, editor, "name filled");
  g_assert_cmpstr (get_text (editor, "command_row"), ==, "uvx");
  g_assert_true (save_is_sensitive (editor));
  g_assert_null (shown_message (editor));

  /* garbage on the clipboard: said in the dialog, the fields stay */
  gdk_clipboard_set_text (clipboard, "hello there");
  g_signal_emit_by_name (child (editor, "paste_button"), "clicked");
  test_iterate_until (message_shown, editor, "message shown");
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "clip");
  g_assert_cmpstr (get_text (editor, "command_row"), ==, "uvx");

  /* the next edit clears it */
  set_text (editor, "command_row", "uvx2");
  g_assert_null (shown_message (editor));

  editor_free (editor);
}

typedef struct
{
  char       *name;
  JsonObject *entry;
  guint       count;
  gboolean    refuse;
} TryRecord;

static gboolean
on_try_cb (PlugboardServerEditor  *editor,
           const char             *name,
           JsonObject             *entry,
           GError                **error,
           TryRecord              *record)
{
  record->count++;
  g_free (record->name);
  record->name = g_strdup (name);
  g_clear_pointer (&record->entry, json_object_unref);
  record->entry = json_object_ref (entry);
  if (record->refuse)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "refused for the test");
      return FALSE;
    }
  return TRUE;
}

/* Try (issue 21, view 12): what the fields make goes to ::try; an address
 * or a command tried before it is named is named for it. */
static void
test_try (Fixture       *f,
          gconstpointer  data)
{
  TryRecord record = { 0 };
  PlugboardServerEditor *editor;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) tried = NULL;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {\"server-everything\": {\"command\": \"npx\"}}}");
  load_settings (f);

  /* An address alone: named for its host, tried, closed. */
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  g_signal_connect (editor, "try", G_CALLBACK (on_try_cb), &record);
  g_assert_true (gtk_widget_get_visible (child (editor, "try_button")));
  g_assert_false (gtk_widget_get_sensitive (child (editor, "try_button")));
  g_assert_true (plugboard_server_editor_load_json (editor, "{\"type\": \"http\", \"url\": \"https://mcp.example.com:8443/mcp\"}",
                                                    &error));
  g_assert_no_error (error);
  test_iterate_pending ();
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "");
  g_assert_true (gtk_widget_get_sensitive (child (editor, "try_button")));
  g_assert_true (plugboard_server_editor_try (editor));
  g_assert_cmpuint (record.count, ==, 1);
  g_assert_cmpstr (record.name, ==, "mcp.example.com");
  g_assert_cmpstr (json_object_get_string_member (record.entry, "url"), ==, "https://mcp.example.com:8443/mcp");
  test_iterate_pending ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (editor)));
  /* nothing written */
  g_assert_null (mcp_settings_lookup (f->settings, "mcp.example.com"));
  editor_free (editor);

  /* A command: named for the package (its version left out), made free. */
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  g_signal_connect (editor, "try", G_CALLBACK (on_try_cb), &record);
  g_assert_true (plugboard_server_editor_load_json (editor,
                                                    "{\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-everything@2025.1.0\", \"--verbose\"]}",
                                                    &error));
  g_assert_no_error (error);
  g_assert_true (plugboard_server_editor_try (editor));
  g_assert_cmpstr (record.name, ==, "server-everything-2");
  editor_free (editor);

  /* Not valid: no Try, no signal. A refusal is shown; the editor stays. */
  editor = editor_new (f, NULL, MCP_CONFIG_SCOPE_USER);
  g_signal_connect (editor, "try", G_CALLBACK (on_try_cb), &record);
  g_assert_true (plugboard_server_editor_load_json (editor, "{\"mine\": {\"type\": \"http\", \"url\": \"http://x\"}}", &error));
  g_assert_no_error (error);
  set_text (editor, "url_row", "");
  test_iterate_pending ();
  g_assert_false (gtk_widget_get_sensitive (child (editor, "try_button")));
  g_assert_false (plugboard_server_editor_try (editor));
  g_assert_cmpuint (record.count, ==, 2);
  set_text (editor, "url_row", "http://127.0.0.1:1/mcp");
  test_iterate_pending ();
  record.refuse = TRUE;
  g_assert_false (plugboard_server_editor_try (editor));
  g_assert_cmpuint (record.count, ==, 3);
  g_assert_cmpstr (record.name, ==, "mine");
  test_iterate_pending ();
  g_assert_cmpstr (shown_message (editor), ==, "refused for the test");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));
  editor_free (editor);

  /* An existing server's editor has no Try; a tried one's saves it. */
  editor = editor_new (f, mcp_settings_lookup (f->settings, "server-everything"), MCP_CONFIG_SCOPE_USER);
  g_assert_false (gtk_widget_get_visible (child (editor, "try_button")));
  g_assert_null (plugboard_server_editor_get_tried_name (editor));
  editor_free (editor);
  tried = mcp_server_config_new_unsaved ("trial", record.entry, &error);
  g_assert_no_error (error);
  editor = editor_new (f, tried, MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Save Server");
  g_assert_cmpstr (plugboard_server_editor_get_tried_name (editor), ==, "trial");
  g_assert_cmpstr (get_text (editor, "name_row"), ==, "trial");
  g_assert_true (gtk_widget_get_visible (child (editor, "try_button")));
  g_assert_true (save_is_sensitive (editor));
  {
    g_autoptr(GAsyncResult) result = NULL;

    plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
    g_assert_true (plugboard_server_editor_save_finish (editor, test_wait_result (&result, NULL), &error));
    g_assert_no_error (error);
  }
  wait_lookup (f, "trial", MCP_CONFIG_SCOPE_LOCAL);
  editor_free (editor);

  g_free (record.name);
  g_clear_pointer (&record.entry, json_object_unref);
}

/* A server being tried, saved under another name: the project saves it
 * and ends the try (issue 22: the window no longer does). */
static void
test_save_try_renamed (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  PlugboardServerEditor *editor;

  test_write_file (f->dirs.user_file, "{\"mcpServers\": {}}");
  load_settings (f);
  json_object_set_string_member (entry, "type", "http");
  json_object_set_string_member (entry, "url", "http://127.0.0.1:1/mcp");
  g_assert_true (mcp_project_try_server (f->project, "trial", entry, &error));
  g_assert_no_error (error);

  editor = editor_new (f, mcp_project_lookup_unsaved (f->project, "trial"), MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (plugboard_server_editor_get_tried_name (editor), ==, "trial");
  set_text (editor, "name_row", "kept");
  test_iterate_pending ();
  plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
  g_assert_true (plugboard_server_editor_save_finish (editor, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);

  wait_lookup (f, "kept", MCP_CONFIG_SCOPE_USER);
  g_assert_null (mcp_project_lookup_unsaved (f->project, "trial"));
  g_assert_null (mcp_settings_lookup (f->settings, "trial"));
  editor_free (editor);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  ui_test_init (&argc, &argv);
  test_set_hang_bound (20);

#define ADD(path, func) \
  g_test_add ("/ui/server-editor/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("new-stdio-server", test_new_stdio_server);
  ADD ("new-remote-server-local-scope", test_new_remote_server_local_scope);
  ADD ("edit-keeps-unknown-keys", test_edit_keeps_unknown_keys);
  ADD ("rename-and-move", test_rename_and_move);
  ADD ("invalid-input", test_invalid_input);
  ADD ("write-error-stays-open", test_write_error_stays_open);
  ADD ("secrets-masked", test_secrets_masked);
  ADD ("variable-tooltip", test_variable_tooltip);
  ADD ("load-json", test_load_json);
  ADD ("argument-list", test_argument_list);
  ADD ("paste-button", test_paste_button);
  ADD ("try", test_try);
  ADD ("save-try-renamed", test_save_try_renamed);

#undef ADD

  return g_test_run ();
}
