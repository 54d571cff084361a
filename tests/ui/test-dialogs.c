/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-dialogs"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mcp-settings.h"
#include "plugboard-approval-dialog.h"
#include "plugboard-import-dialog.h"
#include "plugboard-preferences-window.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "ui-test-common.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static JsonObject *
read_json_file (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
collect_rows (GtkWidget *widget,
              GPtrArray *rows)
{
  if (ADW_IS_ACTION_ROW (widget))
    g_ptr_array_add (rows, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_rows (child, rows);
}

/* The action row titled @title under @widget, or NULL. */
static AdwActionRow *
find_row (GtkWidget  *widget,
          const char *title)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect_rows (widget, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      AdwPreferencesRow *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (adw_preferences_row_get_title (row), title) == 0)
        return ADW_ACTION_ROW (row);
    }

  return NULL;
}

/* The subtitle as shown, without its markup. */
static char *
row_subtitle_text (AdwActionRow *row)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (pango_parse_markup (adw_action_row_get_subtitle (row), -1, 0, NULL, &text, NULL, &error));
  g_assert_no_error (error);

  return text;
}

static guint
count_visible_rows (GtkWidget *widget)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  guint n = 0;

  collect_rows (widget, rows);
  for (guint i = 0; i < rows->len; i++)
    n += gtk_widget_is_visible (g_ptr_array_index (rows, i));

  return n;
}

static void
destroy_window (gpointer window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();
}

/* A temporary user config dir and project dir, and an McpProject on them
 * (not loaded: nothing connects) with its McpSettings loaded. */
typedef struct
{
  TestDirs     dirs;
  char        *home;
  McpProject  *project;
  McpSettings *settings;  /* the project's */
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  test_dirs_init (&f->dirs, "dialogs");
  f->home = g_build_filename (f->dirs.root, "home", NULL);
  g_assert_cmpint (g_mkdir_with_parents (f->home, 0700), ==, 0);
}

static void
fixture_unload (Fixture *f)
{
  g_clear_object (&f->settings);
  g_clear_object (&f->project);
}

static void
fixture_load (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  f->project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
  f->settings = g_object_ref (mcp_project_get_settings (f->project));
  mcp_settings_load_async (f->settings, NULL, test_result_cb, &result);
  g_assert_true (mcp_settings_load_finish (f->settings, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  fixture_unload (f);
  test_iterate_pending ();
  test_dirs_clear (&f->dirs);
  g_free (f->home);
}

/* ------------------------------------------------------------------------ */
/* Preferences                                                              */

static const char * const number_keys[] = {
  "connect-timeout", "tool-timeout", "request-timeout",
  "local-batch-size", "remote-batch-size", "max-output-tokens", "trace-kib",
};

static GSettings *
new_reset_settings (void)
{
  GSettings *settings = g_settings_new (APPLICATION_ID);

  for (guint i = 0; i < G_N_ELEMENTS (number_keys); i++)
    g_settings_reset (settings, number_keys[i]);
  g_settings_reset (settings, "default-scope");

  return settings;
}

static void
test_preferences_bound (void)
{
  g_autoptr(GSettings) settings = new_reset_settings ();
  g_autoptr(McpLimits) limits = NULL;
  PlugboardPreferencesWindow *window;
  GtkSpinButton *spin;
  AdwComboRow *scope;

  g_unsetenv ("MCP_TIMEOUT");
  g_unsetenv ("MAX_MCP_OUTPUT_TOKENS");

  limits = mcp_limits_new (NULL);
  window = plugboard_preferences_window_new (NULL, settings, limits);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();

  /* The key's value shows, in seconds for a timeout. */
  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "connect_timeout_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 30);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (spin)));

  /* Changing the spin button changes the key, in milliseconds. */
  gtk_spin_button_set_value (spin, 45);
  g_assert_cmpuint (g_settings_get_uint (settings, "connect-timeout"), ==, 45000);

  /* And the other way round. */
  g_settings_set_uint (settings, "connect-timeout", 12000);
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 12);

  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "tool_timeout_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 0);
  gtk_spin_button_set_value (spin, 90);
  g_assert_cmpuint (g_settings_get_uint (settings, "tool-timeout"), ==, 90000);

  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "request_timeout_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 60);
  gtk_spin_button_set_value (spin, 5);
  g_assert_cmpuint (g_settings_get_uint (settings, "request-timeout"), ==, 5000);

  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "local_batch_size_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 3);
  gtk_spin_button_set_value (spin, 7);
  g_assert_cmpuint (g_settings_get_uint (settings, "local-batch-size"), ==, 7);

  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "remote_batch_size_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 20);
  gtk_spin_button_set_value (spin, 2);
  g_assert_cmpuint (g_settings_get_uint (settings, "remote-batch-size"), ==, 2);

  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "max_output_tokens_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 25000);
  gtk_spin_button_set_value (spin, 50000);
  g_assert_cmpuint (g_settings_get_uint (settings, "max-output-tokens"), ==, 50000);
  /* The schema's range holds: the spin button stops at its lower end. */
  gtk_spin_button_set_value (spin, 10);
  g_assert_cmpuint (g_settings_get_uint (settings, "max-output-tokens"), ==, 1000);

  spin = GTK_SPIN_BUTTON (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "trace_kib_spin"));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 4096);
  gtk_spin_button_set_value (spin, 8192);
  g_assert_cmpuint (g_settings_get_uint (settings, "trace-kib"), ==, 8192);
  /* Below the smallest ring the trace keeps: the spin button stops there. */
  gtk_spin_button_set_value (spin, 1);
  g_assert_cmpuint (g_settings_get_uint (settings, "trace-kib"), ==, 64);

  scope = ADW_COMBO_ROW (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "default_scope_row"));
  g_assert_cmpuint (adw_combo_row_get_selected (scope), ==, 0);
  adw_combo_row_set_selected (scope, 2);
  g_assert_cmpstr (g_settings_get_string (settings, "default-scope"), ==, "local");
  g_settings_set_string (settings, "default-scope", "project");
  g_assert_cmpuint (adw_combo_row_get_selected (scope), ==, 1);

  destroy_window (window);
}

static void
test_preferences_environment (void)
{
  g_autoptr(GSettings) settings = new_reset_settings ();
  g_autoptr(McpLimits) limits = NULL;
  PlugboardPreferencesWindow *window;
  AdwActionRow *row;
  const char *subtitle;

  g_setenv ("MCP_TIMEOUT", "45000", TRUE);
  g_setenv ("MCP_TOOL_TIMEOUT", "soon", TRUE);
  g_setenv ("PLUGBOARD_TRACE_KIB", "2048", TRUE);
  g_unsetenv ("MCP_SERVER_CONNECTION_BATCH_SIZE");

  /* The variables are read when the limits are made. */
  limits = mcp_limits_new (NULL);
  window = plugboard_preferences_window_new (NULL, settings, limits);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();

  /* Overridden: insensitive, and it says by what. */
  row = ADW_ACTION_ROW (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "connect_timeout_row"));
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (row)));
  g_assert_false (gtk_widget_is_sensitive (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW,
                                                      "connect_timeout_spin")));
  subtitle = adw_action_row_get_subtitle (row);
  g_assert_nonnull (strstr (subtitle, "Set by MCP_TIMEOUT"));
  g_assert_nonnull (strstr (subtitle, "45000"));

  /* A value the engine ignores does not lock the row, and the row says so. */
  row = ADW_ACTION_ROW (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "tool_timeout_row"));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (row)));
  subtitle = adw_action_row_get_subtitle (row);
  g_assert_nonnull (strstr (subtitle, "MCP_TOOL_TIMEOUT=soon is ignored"));

  /* Not set: as usual. */
  row = ADW_ACTION_ROW (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "local_batch_size_row"));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (row)));
  g_assert_null (strstr (adw_action_row_get_subtitle (row), "MCP_"));

  /* The traffic record's size, like the other limits. */
  row = ADW_ACTION_ROW (template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "trace_kib_row"));
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (row)));
  subtitle = adw_action_row_get_subtitle (row);
  g_assert_nonnull (strstr (subtitle, "Set by PLUGBOARD_TRACE_KIB"));
  g_assert_nonnull (strstr (subtitle, "2048"));

  destroy_window (window);
  g_unsetenv ("PLUGBOARD_TRACE_KIB");
  g_unsetenv ("MCP_TIMEOUT");
  g_unsetenv ("MCP_TOOL_TIMEOUT");
}

/* ------------------------------------------------------------------------ */
/* Approval                                                                 */

static const char approval_project[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"alpha\": {\n"
  "      \"command\": \"node\",\n"
  "      \"args\": [\"server.js\", \"--root\", \"/srv/My Files\"],\n"
  "      \"env\": { \"API_KEY\": \"sk-very-secret\" }\n"
  "    },\n"
  "    \"beta\": {\n"
  "      \"command\": \"python3\",\n"
  "      \"args\": [\"-m\", \"beta_server\", \"it's\"]\n"
  "    }\n"
  "  }\n"
  "}\n";

static void
on_decided_cb (PlugboardApprovalDialog *dialog,
               guint                   *count)
{
  (*count)++;
}

static PlugboardApprovalDialog *
new_approval_dialog (Fixture *f)
{
  PlugboardApprovalDialog *dialog = plugboard_approval_dialog_new (NULL, f->project);

  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  test_iterate_pending ();

  return dialog;
}

/* Issue 20, finding 2: a server approved, then changed in .mcp.json, is
 * shown again with what changed, old and new, the env value masked. */
static void
test_approval_shows_changes (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(PlugboardApprovalDialog) dialog = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *subtitle = NULL;
  g_auto(GStrv) pending = NULL;
  GtkWidget *group;
  AdwActionRow *row;

  test_write_file (f->dirs.project_file, approval_project);
  fixture_load (f);
  mcp_settings_set_approval_async (f->settings, "alpha", TRUE, NULL, test_result_cb, &result);
  g_assert_true (mcp_settings_set_approval_finish (f->settings, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  fixture_unload (f);

  test_write_file (f->dirs.project_file,
              "{\"mcpServers\": {\"alpha\": {\"command\": \"deno\","
              " \"args\": [\"server.js\", \"--root\", \"/srv/My Files\"],"
              " \"env\": {\"API_KEY\": \"sk-other-secret\"}}}}");
  fixture_load (f);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "alpha"), ==, MCP_APPROVAL_CHANGED);
  pending = mcp_settings_dup_pending_approvals (f->settings);
  g_assert_cmpstrv (pending, ((const char *[]) { "alpha", NULL }));

  dialog = new_approval_dialog (f);
  group = template_child (dialog, PLUGBOARD_TYPE_APPROVAL_DIALOG, "servers_group");
  row = find_row (group, "alpha");
  g_assert_nonnull (row);
  subtitle = row_subtitle_text (row);
  g_test_message ("%s", subtitle);
  g_assert_true (g_str_has_prefix (subtitle, "Changed since you approved it:\n"));
  /* old and new command */
  g_assert_nonnull (strstr (subtitle, "command: “node” → “deno”"));
  /* the env value changed: said, and masked */
  g_assert_nonnull (strstr (subtitle, "environment variable API_KEY: value changed (*** → ***)"));
  g_assert_null (strstr (subtitle, "sk-very-secret"));
  g_assert_null (strstr (subtitle, "sk-other-secret"));
  g_assert_nonnull (strstr (subtitle, "Now: deno server.js --root '/srv/My Files'"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  test_iterate_pending ();
}

static void
test_approval_lists_servers (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(PlugboardApprovalDialog) dialog = NULL;
  g_autofree char *alpha = NULL;
  g_autofree char *beta = NULL;
  GtkWidget *group;
  AdwActionRow *row;
  g_autofree char *subtitle = NULL;

  test_write_file (f->dirs.project_file, approval_project);
  fixture_load (f);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "alpha"), ==, MCP_APPROVAL_PENDING);

  dialog = new_approval_dialog (f);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Approve Project Servers");

  /* The exact command lines, an argument with a space or a quote as one word. */
  alpha = plugboard_approval_dialog_dup_shown_command (dialog, "alpha");
  beta = plugboard_approval_dialog_dup_shown_command (dialog, "beta");
  g_assert_cmpstr (alpha, ==, "node server.js --root '/srv/My Files'");
  g_assert_cmpstr (beta, ==, "python3 -m beta_server 'it'\\''s'");
  g_assert_null (plugboard_approval_dialog_dup_shown_command (dialog, "gamma"));

  group = template_child (dialog, PLUGBOARD_TYPE_APPROVAL_DIALOG, "servers_group");
  g_assert_cmpuint (count_visible_rows (group), ==, 2);

  row = find_row (group, "alpha");
  g_assert_nonnull (row);
  subtitle = row_subtitle_text (row);
  g_assert_true (g_str_has_prefix (subtitle, "node server.js --root '/srv/My Files'\n"));
  /* The variable's name, never its value. */
  g_assert_nonnull (strstr (subtitle, "API_KEY="));
  g_assert_null (strstr (subtitle, "sk-very-secret"));

  row = find_row (group, "beta");
  g_assert_nonnull (row);
  g_free (subtitle);
  subtitle = row_subtitle_text (row);
  g_assert_cmpstr (subtitle, ==, "python3 -m beta_server 'it'\\''s'");

  /* Nothing decided yet: Apply is off. */
  g_assert_false (gtk_widget_is_sensitive (template_child (dialog, PLUGBOARD_TYPE_APPROVAL_DIALOG, "apply_button")));
  plugboard_approval_dialog_set_decision (dialog, "beta", FALSE);
  test_iterate_pending ();
  g_assert_true (gtk_widget_is_sensitive (template_child (dialog, PLUGBOARD_TYPE_APPROVAL_DIALOG, "apply_button")));

  destroy_window (dialog);
}

static gboolean
approvals_written (gpointer data)
{
  McpSettings *settings = data;

  return mcp_settings_get_approval (settings, "alpha") == MCP_APPROVAL_APPROVED &&
         mcp_settings_get_approval (settings, "beta") == MCP_APPROVAL_REJECTED;
}

static void
test_approval_apply (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(PlugboardApprovalDialog) dialog = NULL;
  g_autoptr(PlugboardApprovalDialog) again = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) root = NULL;
  g_autofree char *project_before = NULL;
  g_autofree char *project_after = NULL;
  JsonObject *projects;
  JsonObject *entry;
  JsonArray *enabled;
  JsonArray *disabled;
  guint decided = 0;

  test_write_file (f->dirs.project_file, approval_project);
  fixture_load (f);
  g_assert_true (g_file_get_contents (f->dirs.project_file, &project_before, NULL, NULL));

  dialog = new_approval_dialog (f);
  g_signal_connect (dialog, "decided", G_CALLBACK (on_decided_cb), &decided);

  plugboard_approval_dialog_set_decision (dialog, "alpha", TRUE);
  plugboard_approval_dialog_set_decision (dialog, "beta", TRUE);
  /* Changing one's mind: the last toggle counts. */
  plugboard_approval_dialog_set_decision (dialog, "beta", FALSE);

  plugboard_approval_dialog_apply_async (dialog, NULL, test_result_cb, &result);
  g_assert_true (plugboard_approval_dialog_apply_finish (dialog, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  test_iterate_pending ();

  g_assert_cmpuint (decided, ==, 1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  test_iterate_until (approvals_written, f->settings, "approvals written");
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "alpha"), ==, MCP_APPROVAL_APPROVED);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "beta"), ==, MCP_APPROVAL_REJECTED);
  g_assert_true (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "alpha")));
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "beta")));

  /* The decisions are in the user file; the shared .mcp.json is untouched. */
  root = read_json_file (f->dirs.user_file);
  projects = json_object_get_object_member (root, "projects");
  g_assert_nonnull (projects);
  entry = json_object_get_object_member (projects, f->dirs.project_dir);
  g_assert_nonnull (entry);
  enabled = json_object_get_array_member (entry, "enabledMcpjsonServers");
  disabled = json_object_get_array_member (entry, "disabledMcpjsonServers");
  g_assert_nonnull (enabled);
  g_assert_nonnull (disabled);
  g_assert_cmpuint (json_array_get_length (enabled), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (enabled, 0), ==, "alpha");
  g_assert_cmpuint (json_array_get_length (disabled), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (disabled, 0), ==, "beta");
  g_assert_true (g_file_get_contents (f->dirs.project_file, &project_after, NULL, NULL));
  g_assert_cmpstr (project_after, ==, project_before);

  /* Nothing is left to ask about. */
  again = new_approval_dialog (f);
  g_assert_cmpuint (count_visible_rows (template_child (again, PLUGBOARD_TYPE_APPROVAL_DIALOG, "servers_group")), ==, 0);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (template_child (again, PLUGBOARD_TYPE_APPROVAL_DIALOG,
                                                                        "description_label"))),
                            "No project servers"));
  destroy_window (again);
}

static void
test_approval_decide_later (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(PlugboardApprovalDialog) dialog = NULL;
  guint decided = 0;

  test_write_file (f->dirs.project_file, approval_project);
  fixture_load (f);

  dialog = new_approval_dialog (f);
  g_signal_connect (dialog, "decided", G_CALLBACK (on_decided_cb), &decided);
  plugboard_approval_dialog_set_decision (dialog, "alpha", TRUE);
  plugboard_approval_dialog_set_decision (dialog, "beta", FALSE);

  /* "Decide Later" (and Escape) close the window; nothing is written. */
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (template_child (dialog, PLUGBOARD_TYPE_APPROVAL_DIALOG,
                                                                                "later_button"))),
                   ==, "window.close");
  g_signal_emit_by_name (template_child (dialog, PLUGBOARD_TYPE_APPROVAL_DIALOG, "later_button"), "clicked");
  test_iterate_pending ();

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpuint (decided, ==, 0);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "alpha"), ==, MCP_APPROVAL_PENDING);
  g_assert_cmpint (mcp_settings_get_approval (f->settings, "beta"), ==, MCP_APPROVAL_PENDING);
  g_assert_false (mcp_server_config_get_enabled (mcp_settings_lookup (f->settings, "alpha")));
  g_assert_false (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));
}


/* ------------------------------------------------------------------------ */
/* Import                                                                   */

static void
on_imported_cb (PlugboardImportDialog *dialog,
                guint                  count,
                guint                 *imported)
{
  *imported = count;
}

static PlugboardImportDialog *
new_import_dialog (Fixture *f)
{
  PlugboardImportDialog *dialog = plugboard_import_dialog_new (NULL, f->project, f->home);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  /* A spinner while it reads. */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG,
                                                                           "stack"))), ==, "scanning");
  g_assert_false (gtk_widget_is_sensitive (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG, "import_button")));

  plugboard_import_dialog_wait_scanned_async (dialog, NULL, test_result_cb, &result);
  g_assert_true (plugboard_import_dialog_wait_scanned_finish (dialog, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  test_iterate_pending ();

  return dialog;
}

static GtkCheckButton *
row_check (AdwActionRow *row)
{
  GtkCheckButton *check = GTK_CHECK_BUTTON (find_widget (GTK_WIDGET (row), GTK_TYPE_CHECK_BUTTON));

  g_assert_nonnull (check);
  return check;
}

static gboolean
user_imports_loaded (gpointer data)
{
  McpSettings *settings = data;

  return mcp_settings_lookup_in_scope (settings, "weather", MCP_CONFIG_SCOPE_USER) != NULL &&
         mcp_settings_lookup_in_scope (settings, "linear", MCP_CONFIG_SCOPE_USER) != NULL;
}

static gboolean
project_import_loaded (gpointer data)
{
  return mcp_settings_lookup_in_scope (data, "db", MCP_CONFIG_SCOPE_PROJECT) != NULL;
}

static void
test_import_candidates (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(PlugboardImportDialog) dialog = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) user = NULL;
  g_autoptr(JsonObject) project = NULL;
  g_autofree char *desktop = g_build_filename (f->home, ".config", "Claude", "claude_desktop_config.json", NULL);
  g_autofree char *cursor = g_build_filename (f->home, ".cursor", "mcp.json", NULL);
  g_autofree char *cursor_project = g_build_filename (f->dirs.project_dir, ".cursor", "mcp.json", NULL);
  g_autofree char *desktop_before = NULL;
  g_autofree char *desktop_after = NULL;
  g_autofree char *subtitle = NULL;
  JsonObject *servers;
  GtkWidget *box;
  AdwActionRow *row;
  guint imported = 0;

  test_write_file (desktop,
              "{ \"mcpServers\": {\n"
              "    \"weather\": { \"command\": \"uvx\", \"args\": [\"weather-mcp\", \"--city\", \"New York\"] },\n"
              "    \"github\": { \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"],\n"
              "                \"env\": { \"GITHUB_TOKEN\": \"ghp_notreal\" } }\n"
              "} }\n");
  test_write_file (cursor,
              "{ \"mcpServers\": { \"linear\": { \"url\": \"https://mcp.linear.example/mcp\" } } }\n");
  test_write_file (cursor_project,
              "{ \"mcpServers\": { \"db\": { \"command\": \"db-mcp\", \"args\": [\"--readonly\"] } } }\n");
  /* Plugboard already has a "github". */
  test_write_file (f->dirs.user_file,
              "{ \"mcpServers\": { \"github\": { \"command\": \"github-mcp-server\", \"args\": [\"stdio\"] } } }\n");
  fixture_load (f);
  g_assert_true (g_file_get_contents (desktop, &desktop_before, NULL, NULL));

  dialog = new_import_dialog (f);
  g_signal_connect (dialog, "imported", G_CALLBACK (on_imported_cb), &imported);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Import Servers from Other Apps");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG,
                                                                           "stack"))), ==, "results");
  g_assert_cmpuint (plugboard_import_dialog_get_n_candidates (dialog), ==, 4);

  box = template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG, "results_box");
  g_assert_cmpuint (count_visible_rows (box), ==, 4);

  row = find_row (box, "weather");
  g_assert_nonnull (row);
  g_assert_true (gtk_check_button_get_active (row_check (row)));
  subtitle = row_subtitle_text (row);
  g_assert_cmpstr (subtitle, ==, "uvx weather-mcp --city 'New York'");

  /* The name Plugboard has: marked and unchecked. */
  row = find_row (box, "github");
  g_assert_nonnull (row);
  g_assert_false (gtk_check_button_get_active (row_check (row)));
  g_clear_pointer (&subtitle, g_free);
  subtitle = row_subtitle_text (row);
  g_assert_nonnull (strstr (subtitle, "already has a server with this name"));

  row = find_row (box, "linear");
  g_assert_nonnull (row);
  g_assert_true (gtk_check_button_get_active (row_check (row)));
  g_clear_pointer (&subtitle, g_free);
  subtitle = row_subtitle_text (row);
  /* The conversion's note comes with it. */
  g_assert_true (g_str_has_prefix (subtitle, "https://mcp.linear.example/mcp\n"));
  g_assert_nonnull (strstr (subtitle, "“type”"));

  row = find_row (box, "db");
  g_assert_nonnull (row);
  g_assert_true (gtk_check_button_get_active (row_check (row)));
  g_clear_pointer (&subtitle, g_free);
  subtitle = row_subtitle_text (row);
  g_assert_true (g_str_has_prefix (subtitle, "db-mcp --readonly\n"));

  /* Unchecking one leaves it out. */
  gtk_check_button_set_active (row_check (row), FALSE);
  g_assert_true (gtk_widget_is_sensitive (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG, "import_button")));

  plugboard_import_dialog_import_async (dialog, NULL, test_result_cb, &result);
  g_assert_cmpuint (plugboard_import_dialog_import_finish (dialog, test_wait_result (&result, NULL), &error), ==, 2);
  g_assert_no_error (error);
  test_iterate_pending ();
  g_assert_cmpuint (imported, ==, 2);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  /* The user file has the two checked ones; its own "github" is untouched. */
  user = read_json_file (f->dirs.user_file);
  servers = json_object_get_object_member (user, "mcpServers");
  g_assert_nonnull (servers);
  g_assert_cmpuint (json_object_get_size (servers), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (servers, "weather"), "command"),
                   ==, "uvx");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (servers, "linear"), "url"),
                   ==, "https://mcp.linear.example/mcp");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (servers, "github"), "command"),
                   ==, "github-mcp-server");
  test_iterate_until (user_imports_loaded, f->settings, "user imports loaded");

  /* "db" was unchecked: no project file was written. */
  g_assert_false (g_file_test (f->dirs.project_file, G_FILE_TEST_EXISTS));
  g_assert_null (mcp_settings_lookup (f->settings, "db"));

  /* Nothing is written to the other apps' files. */
  g_assert_true (g_file_get_contents (desktop, &desktop_after, NULL, NULL));
  g_assert_cmpstr (desktop_after, ==, desktop_before);

  /* The next scan knows them. */
  g_clear_object (&dialog);
  dialog = new_import_dialog (f);
  box = template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG, "results_box");
  g_assert_false (gtk_check_button_get_active (row_check (find_row (box, "weather"))));
  g_assert_false (gtk_check_button_get_active (row_check (find_row (box, "linear"))));
  g_assert_true (gtk_check_button_get_active (row_check (find_row (box, "db"))));

  /* A project file's server goes to the project's .mcp.json. */
  g_clear_object (&result);
  plugboard_import_dialog_import_async (dialog, NULL, test_result_cb, &result);
  g_assert_cmpuint (plugboard_import_dialog_import_finish (dialog, test_wait_result (&result, NULL), &error), ==, 1);
  g_assert_no_error (error);
  project = read_json_file (f->dirs.project_file);
  servers = json_object_get_object_member (project, "mcpServers");
  g_assert_nonnull (servers);
  g_assert_cmpuint (json_object_get_size (servers), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (servers, "db"), "command"),
                   ==, "db-mcp");
  test_iterate_until (project_import_loaded, f->settings, "project import loaded");
  test_iterate_pending ();
}

static void
test_import_nothing_found (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(PlugboardImportDialog) dialog = NULL;
  const char *description;

  fixture_load (f);
  dialog = new_import_dialog (f);

  g_assert_cmpuint (plugboard_import_dialog_get_n_candidates (dialog), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG,
                                                                           "stack"))), ==, "empty");
  /* It says where it looked. */
  description = adw_status_page_get_description (ADW_STATUS_PAGE (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG,
                                                                             "empty_page")));
  g_assert_nonnull (strstr (description, "~/.config/Claude/claude_desktop_config.json"));
  g_assert_nonnull (strstr (description, "~/.claude.json"));
  g_assert_nonnull (strstr (description, "~/.cursor/mcp.json"));
  g_assert_nonnull (strstr (description, "~/.config/Code/User/mcp.json"));
  g_assert_false (gtk_widget_is_sensitive (template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG, "import_button")));

  destroy_window (dialog);
}

static void
test_import_problems (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(PlugboardImportDialog) dialog = NULL;
  g_autofree char *cursor = g_build_filename (f->home, ".cursor", "mcp.json", NULL);
  g_autofree char *desktop = g_build_filename (f->home, ".config", "Claude", "claude_desktop_config.json", NULL);
  g_autofree char *claude_code = g_build_filename (f->home, ".claude.json", NULL);
  g_autofree char *subtitle = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *box;
  guint n_ok = 0;
  gboolean found = FALSE;

  test_write_file (cursor, "{ \"mcpServers\": { \"broken\": ");
  test_write_file (desktop, "{ \"mcpServers\": { \"ok\": { \"command\": \"ok-mcp\" } } }");
  test_write_file (claude_code, "{ \"mcpServers\": { \"ok\": { \"command\": \"ok-mcp\", \"args\": [\"--v2\"] } } }");
  fixture_load (f);
  dialog = new_import_dialog (f);

  /* The readable files' servers are listed, the unreadable file below them. */
  g_assert_cmpuint (plugboard_import_dialog_get_n_candidates (dialog), ==, 2);
  box = template_child (dialog, PLUGBOARD_TYPE_IMPORT_DIALOG, "results_box");
  collect_rows (box, rows);
  g_assert_cmpuint (rows->len, ==, 3);
  for (guint i = 0; i < rows->len; i++)
    {
      AdwActionRow *row = g_ptr_array_index (rows, i);
      const char *title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));

      if (g_str_equal (title, "ok"))
        {
          /* The same name twice: the first checked, the second unchecked and why. */
          g_clear_pointer (&subtitle, g_free);
          subtitle = row_subtitle_text (row);
          if (n_ok++ == 0)
            {
              g_assert_true (gtk_check_button_get_active (row_check (row)));
              g_assert_cmpstr (subtitle, ==, "ok-mcp");
            }
          else
            {
              g_assert_false (gtk_check_button_get_active (row_check (row)));
              g_assert_nonnull (strstr (subtitle, "same name"));
            }
        }
      else
        {
          found |= strstr (title, ".cursor/mcp.json") != NULL;
        }
    }
  g_assert_cmpuint (n_ok, ==, 2);
  g_assert_true (found);

  destroy_window (dialog);
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  ui_test_init (&argc, &argv);
  test_set_hang_bound (20);

  g_test_add_func ("/ui/preferences/bound", test_preferences_bound);
  g_test_add_func ("/ui/preferences/environment", test_preferences_environment);

  g_test_add ("/ui/approval/lists-servers", Fixture, NULL,
              fixture_set_up, test_approval_lists_servers, fixture_tear_down);
  g_test_add ("/ui/approval/shows-changes", Fixture, NULL,
              fixture_set_up, test_approval_shows_changes, fixture_tear_down);
  g_test_add ("/ui/approval/apply", Fixture, NULL,
              fixture_set_up, test_approval_apply, fixture_tear_down);
  g_test_add ("/ui/approval/decide-later", Fixture, NULL,
              fixture_set_up, test_approval_decide_later, fixture_tear_down);

  g_test_add ("/ui/import/candidates", Fixture, NULL,
              fixture_set_up, test_import_candidates, fixture_tear_down);
  g_test_add ("/ui/import/nothing-found", Fixture, NULL,
              fixture_set_up, test_import_nothing_found, fixture_tear_down);
  g_test_add ("/ui/import/problems", Fixture, NULL,
              fixture_set_up, test_import_problems, fixture_tear_down);

  return g_test_run ();
}
