/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-clients-ui"

/* Issue 26 in the app: the client selector (another client's servers,
 * shown and edited as Plugboard's own, written to that client's file),
 * copying to other clients with a preview, and the registry dialog
 * against a registry on 127.0.0.1. A fake home in the run's folder. */

#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "mcp-client-copy.h"
#include "mcp-registry.h"
#include "mcp-secret-store.h"
#include "plugboard-copy-dialog.h"
#include "plugboard-preferences-window.h"
#include "plugboard-registry-dialog.h"
#include "plugboard-server-editor.h"
#include "plugboard-server-page.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

static PlugboardApplication *app;
static char *root;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static char *
root_path (const char *first,
           ...)
{
  va_list args;
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  const char *part;

  g_ptr_array_add (parts, root);
  va_start (args, first);
  for (part = first; part != NULL; part = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) part);
  va_end (args);
  g_ptr_array_add (parts, NULL);

  return g_build_filenamev ((char **) parts->pdata);
}

static void
write_in_root (const char *relative,
               const char *text)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  test_write_file (path, text);
}

static GSettings *
app_settings (void)
{
  return g_settings_new (APPLICATION_ID);
}

static McpProject *
plugboard_project (void)
{
  g_autofree char *dir = root_path ("plugboard", NULL);
  /* a project folder that is not the home folder, where Cursor's project
   * file would be its user file */
  g_autofree char *project_dir = root_path ("project", NULL);

  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);
  return mcp_project_new_for_client (MCP_CLIENT_KIND_PLUGBOARD, project_dir, dir);
}

static GtkWidget *
find_named (GtkWidget  *root_widget,
            GType       type,
            const char *name)
{
  g_autoptr(GPtrArray) widgets = g_ptr_array_new ();

  collect_widgets (root_widget, type, widgets);
  for (guint i = 0; i < widgets->len; i++)
    if (g_strcmp0 (gtk_widget_get_name (g_ptr_array_index (widgets, i)), name) == 0)
      return g_ptr_array_index (widgets, i);

  return NULL;
}


/* ------------------------------------------------------------------------ */
/* The client selector                                                      */

typedef struct
{
  PlugboardWindow *window;
  const char      *id;
} RowWait;

static gboolean
client_row_shown (gpointer data)
{
  RowWait *wait = data;
  GtkWidget *list = window_child (wait->window, "client_list");

  return find_named (list, ADW_TYPE_ACTION_ROW, wait->id) != NULL;
}

static gboolean
window_shows_client (gpointer data)
{
  PlugboardWindow *window = data;
  McpProject *project = plugboard_window_get_project (window);

  return project != NULL && mcp_project_get_client (project) == MCP_CLIENT_KIND_CURSOR &&
         mcp_project_get_loaded (project);
}

static gboolean
alpha_listed (gpointer data)
{
  return window_find_row (data, "alpha") != NULL;
}

static gboolean
scan_works (void)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GError) error = NULL;

  mcp_clients_scan_async (NULL, NULL, NULL, NULL, NULL, test_result_cb, &result);
  test_wait_result (&result, "the scan of every client");
  summaries = mcp_clients_scan_finish (result, &error);
  return summaries != NULL;
}

static gboolean
alpha_has_tools (gpointer data)
{
  PlugboardServerRow *row;

  test_iterate_pending ();
  row = window_find_row (data, "alpha");
  return row != NULL && g_str_has_suffix (plugboard_server_row_get_state_text (row), " tools");
}


static GtkWidget *
find_button_with_target_tuple (PlugboardWindow *window)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *page = window_child (window, "server_page");

  collect_widgets (page, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkActionable *button = g_ptr_array_index (buttons, i);
      GVariant *target = gtk_actionable_get_action_target_value (button);

      if (g_strcmp0 (gtk_actionable_get_action_name (button), "win.open-client-server") == 0 &&
          target != NULL && g_variant_is_of_type (target, G_VARIANT_TYPE ("(ss)")))
        {
          const char *id;
          const char *name;

          g_variant_get (target, "(&s&s)", &id, &name);
          if (g_str_equal (id, "plugboard") && g_str_equal (name, "alpha"))
            return GTK_WIDGET (button);
        }
    }

  return NULL;
}

static gboolean
other_client_listed (gpointer data)
{
  return find_button_with_target_tuple (data) != NULL;
}

static gboolean
window_shows_plugboard_alpha (gpointer data)
{
  PlugboardWindow *window = data;
  McpProject *project = plugboard_window_get_project (window);
  McpServerConnection *shown;

  if (project == NULL || mcp_project_get_client (project) != MCP_CLIENT_KIND_PLUGBOARD ||
      !mcp_project_get_loaded (project))
    return FALSE;
  shown = plugboard_server_page_get_connection (PLUGBOARD_SERVER_PAGE (window_child (window, "server_page")));
  return shown != NULL && g_strcmp0 (mcp_server_connection_get_name (shown), "alpha") == 0;
}

static void
test_selector (void)
{
  g_autoptr(McpProject) project = plugboard_project ();
  g_autoptr(GSettings) settings = app_settings ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cursor_text = NULL;
  g_autofree char *cursor_file = root_path (".cursor", "mcp.json", NULL);
  g_autofree char *edited = NULL;
  g_autofree char *after = NULL;
  PlugboardWindow *window;
  GtkWidget *list;
  GtkWidget *first;
  GtkWidget *cursor_row;
  RowWait wait;
  JsonObject *alpha;

  g_settings_reset (settings, "client");
  /* Cursor and VS Code are here, Claude Desktop is not. The rest of
   * Cursor's file must stay as it is. */
  cursor_text = g_strdup_printf ("{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n"
                                 "    \"alpha\": {\"command\": \"%s\", \"autoApprove\": [\"echo\"]}\n  }\n}\n",
                                 test_fixture_server ());
  write_in_root (".cursor/mcp.json", cursor_text);
  write_in_root ("xdg-config/Code/User/settings.json", "{}\n");
  /* Plugboard's own has a server of the same name, run differently */
  {
    g_autofree char *own = g_strdup_printf ("{\"mcpServers\": {\"alpha\": {\"command\": \"%s\", \"args\": [\"--tools\", \"2\"]}}}\n",
                                            test_fixture_server ());

    write_in_root ("plugboard/settings.json", own);
  }

  if (!mcp_client_kind_is_present (MCP_CLIENT_KIND_CURSOR, NULL, NULL))
    {
      g_test_skip ("the clients' shapes (mcp_client_kind_is_present) are not merged yet");
      return;
    }

  window = ui_test_window_open (app, project, 900, 640);
  g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (window_child (window, "client_button"))),
                   ==, "Plugboard");

  gtk_menu_button_popup (GTK_MENU_BUTTON (window_child (window, "client_button")));
  wait.window = window;
  wait.id = "cursor";
  test_iterate_until (client_row_shown, &wait, "Cursor in the client selector");
  list = window_child (window, "client_list");
  first = gtk_widget_get_first_child (list);
  g_assert_cmpstr (gtk_widget_get_name (first), ==, "plugboard");
  g_assert_nonnull (find_named (list, ADW_TYPE_ACTION_ROW, "vscode"));
  g_assert_null (find_named (list, ADW_TYPE_ACTION_ROW, "claude-desktop"));
  g_assert_null (find_named (list, ADW_TYPE_ACTION_ROW, "windsurf"));

  {
    g_autoptr(McpProject) probe = mcp_project_new_for_client (MCP_CLIENT_KIND_CURSOR, NULL, NULL);

    if (mcp_project_get_client (probe) != MCP_CLIENT_KIND_CURSOR)
      {
        g_test_skip ("the selector lists the clients; opening one needs the projects of other clients (mcp_project_new_for_client), not merged yet");
        ui_test_window_close (&window);
        return;
      }
  }
  cursor_row = find_named (list, ADW_TYPE_ACTION_ROW, "cursor");
  g_signal_emit_by_name (list, "row-activated", cursor_row);
  test_iterate_until (window_shows_client, window, "Cursor's servers to load");
  test_iterate_until (alpha_listed, window, "Cursor's server in the list");
  settle_project (plugboard_window_get_project (window));
  g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (window_child (window, "client_button"))),
                   ==, "Cursor");
  {
    g_autofree char *remembered = g_settings_get_string (settings, "client");

    g_assert_cmpstr (remembered, ==, "cursor");
  }
  /* live state, as for Plugboard's own */
  test_iterate_until (alpha_has_tools, window, "alpha's row to count its tools");

  /* An edit writes Cursor's file, and nothing else of it. */
  edited = g_strdup_printf ("{\"command\": \"%s\", \"env\": {\"EXTRA\": \"1\"}}", test_fixture_server ());
  window_edit_in_editor (window, "edit-server", g_variant_new_string ("alpha"), edited);

  after = test_read_file (cursor_file);
  g_assert_true (g_str_has_prefix (after, "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n"));
  node = json_from_string (after, &error);
  g_assert_no_error (error);
  alpha = json_object_get_object_member (json_object_get_object_member (json_node_get_object (node), "mcpServers"), "alpha");
  g_assert_cmpstr (json_object_get_string_member (alpha, "command"), ==, test_fixture_server ());
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (alpha, "env"), "EXTRA"), ==, "1");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "theme"), ==, "dark");
  /* what Plugboard does not understand stays */
  g_assert_true (json_object_has_member (alpha, "autoApprove"));
  /* Plugboard's own file was not touched */
  {
    g_autofree char *own = root_path ("plugboard", "settings.json", NULL);
    g_autofree char *own_text = test_read_file (own);

    g_assert_null (strstr (own_text, "EXTRA"));
  }

  /* "In Other Clients": Plugboard has "alpha" too, and it differs; Open
   * shows it there. */
  if (!scan_works ())
    {
      g_test_message ("the scan of every client (mcp_clients_scan_async) is not merged yet: In Other Clients not checked");
      ui_test_window_close (&window);
      g_settings_reset (settings, "client");
      return;
    }
  g_assert_true (plugboard_window_show_server (window, "alpha"));
  test_iterate_until (other_client_listed, window, "Plugboard under In Other Clients");
  /* Cursor's own member, shown read-only */
  g_assert_true (has_shown_label_with (window_child (window, "server_page"), "Not Used by Plugboard"));
  g_assert_true (has_shown_label_with (window_child (window, "server_page"), "autoApprove"));
  g_assert_true (has_shown_label_with (window_child (window, "server_page"), "Differs"));
  click (find_button_with_target_tuple (window));
  test_iterate_until (window_shows_plugboard_alpha, window, "Plugboard's alpha");

  ui_test_window_close (&window);
  g_settings_reset (settings, "client");
}

/* ------------------------------------------------------------------------ */
/* Copy to other clients                                                    */

static PlugboardCopyDialog *
find_copy_dialog (void)
{
  return find_toplevel (PLUGBOARD_TYPE_COPY_DIALOG);
}

static gboolean
copy_page_is (gpointer data)
{
  PlugboardCopyDialog *dialog = find_copy_dialog ();
  GtkWidget *stack = dialog != NULL ? template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "stack") : NULL;

  return stack != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (stack)), data) == 0;
}

static gboolean
copy_not_working (gpointer data)
{
  return !copy_page_is ("working");
}

static PlugboardCopyDialog *
open_copy_preview (PlugboardWindow *window)
{
  PlugboardCopyDialog *dialog;

  window_activate (window, "copy-server", g_variant_new_string ("beta"));
  test_iterate_pending ();
  dialog = find_copy_dialog ();
  g_assert_nonnull (dialog);
  g_assert_false (gtk_widget_get_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "preview_button")));
  plugboard_copy_dialog_set_target (dialog, MCP_CLIENT_KIND_CURSOR, TRUE);
  click_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "preview_button"));
  test_iterate_until (copy_not_working, NULL, "the copy's preview");
  return dialog;
}

static char *
diff_text (PlugboardCopyDialog *dialog,
           const char          *id)
{
  GtkWidget *view = find_named (GTK_WIDGET (dialog), GTK_TYPE_TEXT_VIEW, id);
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_assert_nonnull (view);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
test_copy (void)
{
  g_autoptr(McpProject) project = plugboard_project ();
  g_autofree char *own = NULL;
  g_autofree char *cursor_file = root_path (".cursor", "mcp.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *diff = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  PlugboardWindow *window;
  PlugboardCopyDialog *dialog;
  GPtrArray *plan;

  own = g_strdup_printf ("{\"mcpServers\": {\"beta\": {\"command\": \"%s\", \"env\": {\"TOKEN\": \"hunter2\"}}}}\n",
                         test_fixture_server ());
  write_in_root ("plugboard/settings.json", own);
  write_in_root (".cursor/mcp.json", "{\n  \"mcpServers\": {}\n}\n");
  before = test_read_file (cursor_file);

  window = ui_test_window_open (app, project, 900, 640);

  /* The preview comes before anything is written. */
  dialog = open_copy_preview (window);
  plan = plugboard_copy_dialog_get_plan (dialog);
  if (plan == NULL)
    {
      GtkWidget *label = template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "error_label");

      /* the stubs say "not yet": shown, not crashed */
      g_assert_true (gtk_widget_get_visible (label));
      g_test_skip ("copying between clients (mcp_client_copy_plan_async) is not merged yet");
      ui_test_window_close (&window);
      return;
    }
  g_assert_true (copy_page_is ("preview"));
  g_assert_cmpuint (plan->len, ==, 1);
  diff = diff_text (dialog, "cursor");
  g_assert_nonnull (strstr (diff, "+++ "));
  g_assert_nonnull (strstr (diff, "\"beta\""));
  /* secrets are masked in the preview */
  g_assert_null (strstr (diff, "hunter2"));
  g_assert_true (gtk_widget_get_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button")));
  after = test_read_file (cursor_file);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&after, g_free);

  /* Cancel writes nothing. */
  gtk_window_close (GTK_WINDOW (dialog));
  test_iterate_pending ();
  g_assert_null (find_copy_dialog ());
  after = test_read_file (cursor_file);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&after, g_free);

  /* Copy writes Cursor's file. */
  dialog = open_copy_preview (window);
  click_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button"));
  test_iterate_until (copy_not_working, NULL, "the copy");
  g_assert_true (copy_page_is ("done"));
  after = test_read_file (cursor_file);
  node = json_from_string (after, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (json_object_get_object_member (json_node_get_object (node), "mcpServers"),
                                         "beta"));

  /* Copying it again: the target has it already, and without Replace
   * that is the target's error, shown; nothing to write. */
  gtk_window_close (GTK_WINDOW (dialog));
  test_iterate_pending ();
  dialog = open_copy_preview (window);
  plan = plugboard_copy_dialog_get_plan (dialog);
  g_assert_nonnull (plan);
  g_assert_null (((McpCopyTarget *) g_ptr_array_index (plan, 0))->after);
  g_assert_nonnull (((McpCopyTarget *) g_ptr_array_index (plan, 0))->error);
  g_assert_true (has_shown_label_with (GTK_WIDGET (dialog), "already"));

  /* A file another program changed since the preview is not written, and
   * the dialog says so. */
  gtk_window_close (GTK_WINDOW (dialog));
  test_iterate_pending ();
  write_in_root (".cursor/mcp.json", "{\n  \"mcpServers\": {}\n}\n");
  dialog = open_copy_preview (window);
  g_assert_true (copy_page_is ("preview"));
  write_in_root (".cursor/mcp.json", "{\n  \"mcpServers\": {},\n  \"edited\": true\n}\n");
  click_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button"));
  test_iterate_until (copy_not_working, NULL, "the copy to be refused");
  g_assert_true (copy_page_is ("preview"));
  plan = plugboard_copy_dialog_get_plan (dialog);
  g_assert_nonnull (((McpCopyTarget *) g_ptr_array_index (plan, 0))->error);
  g_assert_true (has_shown_label_with (GTK_WIDGET (dialog),
                                       ((McpCopyTarget *) g_ptr_array_index (plan, 0))->error->message));
  g_assert_false (gtk_widget_get_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button")));
  g_clear_pointer (&after, g_free);
  after = test_read_file (cursor_file);
  g_assert_cmpstr (after, ==, "{\n  \"mcpServers\": {},\n  \"edited\": true\n}\n");
  g_assert_false (gtk_widget_get_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button")));

  ui_test_window_close (&window);
}

/* Every server of the client at once (the selector's "Copy All Servers to
 * Other Clients…"): one preview names each. */
static void
test_copy_all (void)
{
  g_autoptr(McpProject) project = plugboard_project ();
  g_autofree char *own = NULL;
  g_autofree char *cursor_file = root_path (".cursor", "mcp.json", NULL);
  g_autofree char *after = NULL;
  g_autofree char *diff = NULL;
  PlugboardWindow *window;
  PlugboardCopyDialog *dialog;
  AdwWindowTitle *title;
  GPtrArray *plan;
  McpCopyTarget *target;

  own = g_strdup_printf ("{\"mcpServers\": {\"one\": {\"command\": \"%s\"}, \"two\": {\"command\": \"%s\", \"args\": [\"--tools\", \"1\"]}}}\n",
                         test_fixture_server (), test_fixture_server ());
  write_in_root ("plugboard/settings.json", own);
  write_in_root (".cursor/mcp.json", "{\n  \"mcpServers\": {}\n}\n");

  window = ui_test_window_open (app, project, 900, 640);
  window_activate (window, "copy-all-servers", NULL);
  test_iterate_pending ();
  dialog = find_copy_dialog ();
  g_assert_nonnull (dialog);
  title = ADW_WINDOW_TITLE (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "window_title"));
  g_assert_nonnull (strstr (adw_window_title_get_subtitle (title), "Every server of Plugboard"));

  plugboard_copy_dialog_set_target (dialog, MCP_CLIENT_KIND_CURSOR, TRUE);
  click_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "preview_button"));
  test_iterate_until (copy_not_working, NULL, "the preview of every server");
  plan = plugboard_copy_dialog_get_plan (dialog);
  g_assert_nonnull (plan);
  g_assert_cmpuint (plan->len, ==, 1);
  target = g_ptr_array_index (plan, 0);
  g_assert_null (target->error);
  diff = diff_text (dialog, "cursor");
  g_assert_nonnull (strstr (diff, "\"one\""));
  g_assert_nonnull (strstr (diff, "\"two\""));

  click_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button"));
  test_iterate_until (copy_not_working, NULL, "the copy of every server");
  g_assert_true (copy_page_is ("done"));
  after = test_read_file (cursor_file);
  g_assert_nonnull (strstr (after, "\"one\""));
  g_assert_nonnull (strstr (after, "\"two\""));

  /* A target file that does not parse: its error, named, and nothing
   * written to it */
  gtk_window_close (GTK_WINDOW (dialog));
  test_iterate_pending ();
  write_in_root (".cursor/mcp.json", "{\"mcpServers\": {,}\n");
  window_activate (window, "copy-all-servers", NULL);
  test_iterate_pending ();
  dialog = find_copy_dialog ();
  plugboard_copy_dialog_set_target (dialog, MCP_CLIENT_KIND_CURSOR, TRUE);
  click_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "preview_button"));
  test_iterate_until (copy_not_working, NULL, "the preview of a broken file");
  plan = plugboard_copy_dialog_get_plan (dialog);
  g_assert_nonnull (plan);
  target = g_ptr_array_index (plan, 0);
  g_assert_nonnull (target->error);
  g_assert_true (has_shown_label_with (GTK_WIDGET (dialog), target->error->message));
  g_assert_false (gtk_widget_get_sensitive (template_child (dialog, PLUGBOARD_TYPE_COPY_DIALOG, "copy_button")));
  g_clear_pointer (&after, g_free);
  after = test_read_file (cursor_file);
  g_assert_cmpstr (after, ==, "{\"mcpServers\": {,}\n");

  ui_test_window_close (&window);
}

/* ------------------------------------------------------------------------ */
/* The registry                                                             */

#define WEATHER_SERVER \
  "{\"server\": {\"name\": \"io.github.acme/weather\", \"title\": \"Weather\"," \
  " \"description\": \"Forecasts for anywhere\", \"version\": \"1.2.0\"," \
  " \"repository\": {\"url\": \"https://github.com/acme/weather\", \"source\": \"github\"}," \
  " \"remotes\": [{\"type\": \"streamable-http\", \"url\": \"%s/mcp\"," \
  "   \"headers\": [{\"name\": \"X-Api-Key\", \"description\": \"Your key\", \"isRequired\": true, \"isSecret\": true}," \
  "                 {\"name\": \"X-Units\", \"description\": \"Units\", \"choices\": [\"metric\", \"imperial\"], \"default\": \"metric\"}]}]}," \
  " \"_meta\": {\"io.modelcontextprotocol.registry/official\": {\"status\": \"active\"}}}"

static char *
plain_server (const char *name)
{
  return g_strdup_printf ("{\"server\": {\"name\": \"io.github.acme/%s\", \"description\": \"The %s server\","
                          " \"version\": \"0.1.0\", \"packages\": [{\"registryType\": \"npm\","
                          " \"identifier\": \"@acme/%s\", \"version\": \"0.1.0\", \"transport\": {\"type\": \"stdio\"}}]},"
                          " \"_meta\": {\"io.modelcontextprotocol.registry/official\": {\"status\": \"active\"}}}",
                          name, name, name);
}

typedef struct
{
  char *base;
} Registry;

static void
registry_cb (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  Registry *registry = user_data;
  const char *search = query != NULL ? g_hash_table_lookup (query, "search") : NULL;
  const char *cursor = query != NULL ? g_hash_table_lookup (query, "cursor") : NULL;
  g_autofree char *weather = g_strdup_printf (WEATHER_SERVER, registry->base);
  g_autofree char *a = plain_server ("alpha-tools");
  g_autofree char *b = plain_server ("beta-tools");
  g_autofree char *body = NULL;

  if (g_strcmp0 (path, "/v0.1/servers") != 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  if (search != NULL && search[0] != '\0')
    body = g_strdup_printf ("{\"servers\": [%s], \"metadata\": {\"count\": 1}}",
                            strstr ("weather", search) != NULL || strstr (search, "weather") != NULL ? weather : "");
  else if (cursor == NULL || cursor[0] == '\0')
    body = g_strdup_printf ("{\"servers\": [%s, %s], \"metadata\": {\"nextCursor\": \"page2\", \"count\": 2}}",
                            a, weather);
  else
    body = g_strdup_printf ("{\"servers\": [%s], \"metadata\": {\"count\": 1}}", b);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
}

static PlugboardRegistryDialog *
find_registry_dialog (void)
{
  return find_toplevel (PLUGBOARD_TYPE_REGISTRY_DIALOG);
}

static GtkWidget *
registry_child (const char *name)
{
  return template_child (find_registry_dialog (), PLUGBOARD_TYPE_REGISTRY_DIALOG, name);
}

static gboolean
results_are (gpointer data)
{
  PlugboardRegistryDialog *dialog = find_registry_dialog ();

  return dialog != NULL && plugboard_registry_dialog_get_n_results (dialog) == GPOINTER_TO_UINT (data) &&
         g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (registry_child ("results_stack"))), "results") == 0;
}

static gboolean
not_searching (gpointer data)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (registry_child ("results_stack"))), "loading") != 0;
}

static void
installed_cb (PlugboardRegistryDialog *dialog,
              const char              *name,
              const char              *client,
              gpointer                 user_data)
{
  g_assert_cmpstr (name, ==, "weather");
  g_assert_cmpstr (client, ==, "plugboard");
  *(gboolean *) user_data = TRUE;
}

static gboolean
weather_listed (gpointer data)
{
  return window_find_row (data, "weather") != NULL;
}

static gboolean
install_failed (gpointer data)
{
  GtkWidget *label = registry_child ("install_message_label");

  return gtk_widget_has_css_class (label, "error");
}

static gboolean
installed_or_failed (gpointer data)
{
  return *(gboolean *) data || install_failed (NULL);
}

static void
test_registry (void)
{
  g_autoptr(McpProject) project = plugboard_project ();
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GSettings) settings = app_settings ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  g_autofree char *own_file = root_path ("plugboard", "settings.json", NULL);
  g_autofree char *own = NULL;
  g_autoptr(JsonNode) node = NULL;
  Registry registry = { 0 };
  PlugboardWindow *window;
  PlugboardRegistryDialog *dialog;
  GtkWidget *row;
  GtkWidget *install;
  GtkWidget *key;
  JsonObject *entry;
  gboolean installed = FALSE;

  soup_server_add_handler (server, NULL, registry_cb, &registry, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  registry.base = g_uri_to_string (uris->data);
  if (g_str_has_suffix (registry.base, "/"))
    registry.base[strlen (registry.base) - 1] = '\0';
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
  g_settings_set_string (settings, "registry-url", registry.base);
  write_in_root ("plugboard/settings.json", "{\n  \"mcpServers\": {}\n}\n");

  window = ui_test_window_open (app, project, 900, 640);
  window_activate (window, "browse-registry", NULL);
  test_iterate_pending ();
  dialog = find_registry_dialog ();
  g_assert_nonnull (dialog);
  test_iterate_until (not_searching, NULL, "the first page");
  if (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (registry_child ("results_stack"))), "message") == 0 &&
      plugboard_registry_dialog_get_n_results (dialog) == 0)
    {
      /* the stub's error is shown as an error */
      g_test_skip ("the registry client (mcp_registry_search_async) is not merged yet");
      g_free (registry.base);
      ui_test_window_close (&window);
      g_settings_reset (settings, "registry-url");
      return;
    }

  /* a page, then Load More */
  test_iterate_until (results_are, GUINT_TO_POINTER (2), "two servers");
  g_assert_true (gtk_widget_get_visible (registry_child ("more_button")));
  click_sensitive (registry_child ("more_button"));
  test_iterate_until (results_are, GUINT_TO_POINTER (3), "three servers");
  g_assert_false (gtk_widget_get_visible (registry_child ("more_button")));

  /* a search, after a pause in typing */
  gtk_editable_set_text (GTK_EDITABLE (registry_child ("search_entry")), "weather");
  test_iterate_until (results_are, GUINT_TO_POINTER (1), "the search");

  /* the details */
  row = gtk_widget_get_first_child (registry_child ("result_list"));
  g_signal_emit_by_name (registry_child ("result_list"), "row-activated", row);
  test_iterate_pending ();
  g_assert_nonnull (plugboard_registry_dialog_get_server (dialog));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (registry_child ("title_label"))), ==, "Weather");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (registry_child ("name_label"))), "1.2.0"));
  g_assert_true (gtk_widget_get_visible (registry_child ("repository_button")));

  /* the form: the secret one is a password entry, the choice a drop-down
   * at its default; empty and required: no Install, and why */
  key = find_named (GTK_WIDGET (dialog), GTK_TYPE_PASSWORD_ENTRY, "X-Api-Key");
  g_assert_nonnull (key);
  {
    GtkWidget *units = find_named (GTK_WIDGET (dialog), GTK_TYPE_DROP_DOWN, "X-Units");
    GObject *item;

    g_assert_nonnull (units);
    item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (units));
    g_assert_cmpstr (gtk_string_object_get_string (GTK_STRING_OBJECT (item)), ==, "metric");
  }
  install = registry_child ("install_button");
  g_assert_true (gtk_widget_get_visible (install));
  g_assert_false (gtk_widget_get_sensitive (install));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (registry_child ("install_message_label"))), "X-Api-Key"));

  gtk_editable_set_text (GTK_EDITABLE (key), "s3cret-value");
  g_assert_true (gtk_widget_get_sensitive (install));

  /* Install into Plugboard's own settings: the entry, not the secret */
  g_signal_connect (dialog, "installed", G_CALLBACK (installed_cb), &installed);
  click_sensitive (install);
  test_iterate_until (installed_or_failed, &installed, "the install");
  if (!installed)
    {
      const char *message = gtk_label_get_text (GTK_LABEL (registry_child ("install_message_label")));

      /* the contract's stub of the installer */
      if (g_str_equal (message, "not yet"))
        {
          g_test_skip ("search, paging, details and the form checked; the installer (mcp_registry_install_async) is not merged yet");
          g_free (registry.base);
          ui_test_window_close (&window);
          g_settings_reset (settings, "registry-url");
          return;
        }
      g_error ("install failed: %s", message);
    }

  /* the new server is in the window's list, and shown */
  test_iterate_until (weather_listed, window, "the installed server in the list");

  own = test_read_file (own_file);
  g_assert_null (strstr (own, "s3cret-value"));
  node = json_from_string (own, &error);
  g_assert_no_error (error);
  entry = json_object_get_object_member (json_object_get_object_member (json_node_get_object (node), "mcpServers"),
                                         "weather");
  g_assert_nonnull (entry);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (entry, "url"), registry.base));
  {
    const char *reference = json_object_get_string_member (json_object_get_object_member (entry, "headers"),
                                                           "X-Api-Key");
    g_autofree char *id = NULL;
    g_autofree char *secret = NULL;
    g_autoptr(GAsyncResult) result = NULL;

    g_assert_true (g_str_has_prefix (reference, "${secret:") && g_str_has_suffix (reference, "}"));
    id = g_strndup (reference + strlen ("${secret:"), strlen (reference) - strlen ("${secret:") - 1);
    mcp_secret_store_lookup_async (mcp_secret_store_get_default (), id, NULL, test_result_cb, &result);
    test_wait_result (&result, "the secret");
    secret = mcp_secret_store_lookup_finish (mcp_secret_store_get_default (), result, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (secret, ==, "s3cret-value");
  }

  g_free (registry.base);
  ui_test_window_close (&window);
  g_settings_reset (settings, "registry-url");
}

/* A registry that cannot be reached: an error, said, not a crash. */
static void
test_registry_unreachable (void)
{
  g_autoptr(McpProject) project = plugboard_project ();
  g_autoptr(GSettings) settings = app_settings ();
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", test_pick_port ());
  PlugboardWindow *window;
  PlugboardRegistryDialog *dialog;
  AdwStatusPage *page;

  g_settings_set_string (settings, "registry-url", url);
  window = ui_test_window_open (app, project, 900, 640);
  window_activate (window, "browse-registry", NULL);
  test_iterate_pending ();
  dialog = find_registry_dialog ();
  g_assert_nonnull (dialog);
  test_iterate_until (not_searching, NULL, "the search to fail");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (registry_child ("results_stack"))), ==, "message");
  page = ADW_STATUS_PAGE (registry_child ("message_page"));
  g_assert_nonnull (adw_status_page_get_description (page));
  g_assert_cmpstr (adw_status_page_get_description (page), !=, "");
  g_assert_cmpuint (plugboard_registry_dialog_get_n_results (dialog), ==, 0);

  ui_test_window_close (&window);
  g_settings_reset (settings, "registry-url");
}

/* ------------------------------------------------------------------------ */
/* A scope the client lacks is not offered                                  */

static void
test_editor_scopes (void)
{
  g_autofree char *plugboard_dir = root_path ("plugboard", NULL);
  g_autofree char *project_dir = root_path ("project", NULL);
  g_autoptr(McpProject) desktop = NULL;
  g_autoptr(McpProject) own = NULL;
  PlugboardServerEditor *editor;
  GtkWidget *scope_row;

  write_in_root ("xdg-config/Claude/claude_desktop_config.json", "{\"mcpServers\": {}}\n");
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);

  /* Claude Desktop has one file: the user scope only, even when the
   * default is the project's */
  desktop = mcp_project_new_for_client (MCP_CLIENT_KIND_CLAUDE_DESKTOP, project_dir, plugboard_dir);
  if (mcp_settings_has_scope (mcp_project_get_settings (desktop), MCP_CONFIG_SCOPE_PROJECT))
    {
      g_test_skip ("the settings of other clients (mcp_settings_has_scope) are not merged yet");
      return;
    }
  editor = plugboard_server_editor_new (NULL, desktop, NULL, MCP_CONFIG_SCOPE_PROJECT);
  scope_row = template_child (editor, PLUGBOARD_TYPE_SERVER_EDITOR, "scope_row");
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (scope_row))), ==, 1);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (scope_row)), ==, 0);
  gtk_window_destroy (GTK_WINDOW (editor));

  /* Plugboard's own: all three, the default selected */
  own = mcp_project_new_for_client (MCP_CLIENT_KIND_PLUGBOARD, project_dir, plugboard_dir);
  editor = plugboard_server_editor_new (NULL, own, NULL, MCP_CONFIG_SCOPE_LOCAL);
  scope_row = template_child (editor, PLUGBOARD_TYPE_SERVER_EDITOR, "scope_row");
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (scope_row))), ==, 3);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (scope_row)), ==, 2);
  gtk_window_destroy (GTK_WINDOW (editor));
  test_iterate_pending ();
}

/* ------------------------------------------------------------------------ */
/* Two selectors still fit in 360 px                                        */

static void
test_narrow (void)
{
  g_autofree char *plugboard_dir = root_path ("plugboard", NULL);
  g_autofree char *project_dir = root_path ("a-project-folder-with-a-rather-long-name", NULL);
  g_autoptr(McpProject) project = NULL;
  PlugboardWindow *window;
  int width;

  write_in_root ("xdg-config/Claude/claude_desktop_config.json", "{\"mcpServers\": {}}\n");
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0700), ==, 0);
  project = mcp_project_new_for_client (MCP_CLIENT_KIND_CLAUDE_DESKTOP, project_dir, plugboard_dir);
  window = ui_test_window_open (app, project, 360, 720);
  wait_frames (5);

  width = gtk_widget_get_width (GTK_WIDGET (window));
  g_assert_cmpint (width, <=, 360);
  /* the whole names are still there to read */
  g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (window_child (window, "project_button"))),
                   ==, "a-project-folder-with-a-rather-long-name");

  ui_test_window_close (&window);
}

/* ------------------------------------------------------------------------ */
/* The registry's address in Preferences                                    */

static void
test_registry_preference (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  g_autoptr(McpLimits) limits = mcp_limits_new (NULL);
  g_autofree char *url = NULL;
  PlugboardPreferencesWindow *window;
  GtkWidget *row;

  g_settings_reset (settings, "registry-url");
  window = plugboard_preferences_window_new (NULL, settings, limits);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();

  row = template_child (window, PLUGBOARD_TYPE_PREFERENCES_WINDOW, "registry_url_row");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, MCP_REGISTRY_DEFAULT_URL);

  /* written on Apply, not while typing */
  gtk_editable_set_text (GTK_EDITABLE (row), "  https://registry.example.com  ");
  url = g_settings_get_string (settings, "registry-url");
  g_assert_cmpstr (url, ==, MCP_REGISTRY_DEFAULT_URL);
  g_clear_pointer (&url, g_free);
  g_signal_emit_by_name (row, "apply");
  url = g_settings_get_string (settings, "registry-url");
  g_assert_cmpstr (url, ==, "https://registry.example.com");
  g_clear_pointer (&url, g_free);

  /* empty: the official one again */
  gtk_editable_set_text (GTK_EDITABLE (row), "");
  g_signal_emit_by_name (row, "apply");
  url = g_settings_get_string (settings, "registry-url");
  g_assert_cmpstr (url, ==, MCP_REGISTRY_DEFAULT_URL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, MCP_REGISTRY_DEFAULT_URL);

  gtk_window_destroy (GTK_WINDOW (window));
  test_iterate_pending ();
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* run-with-keyring.sh leaves the display out; the test's own Xvfb */
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("PLUGBOARD_TEST_DISPLAY") != NULL &&
      g_getenv ("PLUGBOARD_TEST_DISPLAY")[0] != '\0')
    g_setenv ("DISPLAY", g_getenv ("PLUGBOARD_TEST_DISPLAY"), TRUE);
  if (!ui_test_has_display ())
    return 0;

  root = ui_test_make_root ("clients-ui", UI_TEST_XDG_CONFIG | UI_TEST_XDG_DATA | UI_TEST_XDG_CACHE);
  /* the clients' files are looked for in the home folder */
  g_setenv ("HOME", root, TRUE);
  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/clients-ui/selector", test_selector);
  g_test_add_func ("/clients-ui/copy", test_copy);
  g_test_add_func ("/clients-ui/copy-all", test_copy_all);
  g_test_add_func ("/clients-ui/registry", test_registry);
  g_test_add_func ("/clients-ui/registry-unreachable", test_registry_unreachable);
  g_test_add_func ("/clients-ui/registry-preference", test_registry_preference);
  g_test_add_func ("/clients-ui/editor-scopes", test_editor_scopes);
  g_test_add_func ("/clients-ui/narrow", test_narrow);

  status = ui_test_run_and_clean (&app, &root);
  return status;
}
