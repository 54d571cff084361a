/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-acceptance"

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-oauth-fixture.h"
#include "plugboard-application.h"
#include "plugboard-server-editor.h"
#include "plugboard-server-page.h"
#include "plugboard-server-row.h"
#include "plugboard-traffic-view.h"
#include "plugboard-window.h"
#include "test-engine.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* Issue 6's acceptance, end to end through PlugboardWindow and its win.*
 * actions on real settings files in a temporary folder: a stdio server
 * (mcp-fixture-server), a Streamable HTTP server (mcp-http-fixture-server
 * in its own process) and an OAuth-protected one (the in-process OAuth
 * fixture) without sign-in. Every wait is bounded.
 *
 * With PLUGBOARD_TEST_SCREENSHOT=FILE.png set it also takes the 360 px
 * screenshot of a server page for the README (run it under
 * xvfb-run -a -s '-screen 0 360x720x24'; ImageMagick's import). */

static PlugboardApplication *app;
static char *test_root;

/* ------------------------------------------------------------------------ */
/* Files                                                                    */

/* The entry @name of the file at @path, read from disk now: in
 * mcpServers, or in projects[@project_dir].mcpServers when @project_dir is
 * set. NULL when the file, the object or the entry is not there. */
static JsonObject *
read_entry (const char *path,
            const char *project_dir,
            const char *name)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;
  JsonNode *node;

  if (!json_parser_load_from_file (parser, path, NULL))
    return NULL;

  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);

  if (project_dir != NULL)
    {
      node = json_object_get_member (object, "projects");
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      node = json_object_get_member (json_node_get_object (node), project_dir);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      object = json_node_get_object (node);
    }

  node = json_object_get_member (object, "mcpServers");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  node = json_object_get_member (json_node_get_object (node), name);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_object_ref (json_node_get_object (node));
}

/* "enabled" as the file has it: TRUE when the key is absent. */
static gboolean
entry_enabled (JsonObject *entry)
{
  return !json_object_has_member (entry, "enabled") ||
         json_object_get_boolean_member (entry, "enabled");
}

typedef struct
{
  const char *path;
  const char *project_dir;
  const char *name;
  int         enabled;   /* -1: only that the entry is there; -2: that it is gone */
} FileWait;

static gboolean
file_matches (gpointer data)
{
  FileWait *wanted = data;
  g_autoptr(JsonObject) entry = read_entry (wanted->path, wanted->project_dir, wanted->name);

  if (wanted->enabled == -2)
    return entry == NULL;
  if (entry == NULL)
    return FALSE;
  if (wanted->enabled == -1)
    return TRUE;
  return entry_enabled (entry) == (wanted->enabled != 0);
}

/* A write is atomic, but a reload may come a little after it: wait,
 * bounded, for the file on disk to say so. */
static void
wait_file (const char *path,
           const char *project_dir,
           const char *name,
           int         enabled)
{
  FileWait wanted = { path, project_dir, name, enabled };

  test_iterate_until (file_matches, &wanted, "the settings file");
}

/* ------------------------------------------------------------------------ */
/* The Streamable HTTP fixture, in its own process                          */

typedef struct
{
  GSubprocess *process;
  char        *url;
} HttpFixture;

static HttpFixture *
http_fixture_new (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "fixtures", "mcp-http-fixture-server", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  HttpFixture *fx = g_new0 (HttpFixture, 1);
  int port;

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE));
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  /* Port 0: the system picks one; the fixture says which. */
  fx->process = g_subprocess_launcher_spawn (launcher, &error, path, "--port", "0", NULL);
  g_assert_no_error (error);

  port = test_read_listening_port (fx->process);
  fx->url = g_strdup_printf ("http://127.0.0.1:%d/mcp", port);

  return fx;
}

static void
http_fixture_free (HttpFixture *fx)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (fx->process, SIGTERM);
  g_subprocess_wait (fx->process, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&fx->process);
  g_free (fx->url);
  g_free (fx);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HttpFixture, http_fixture_free)

/* ------------------------------------------------------------------------ */
/* A window on a project in a temporary folder                              */

typedef UiTestProject Setup;

static void
setup_init (Setup      *setup,
            const char *project_name)
{
  ui_test_project_init (setup, test_root, project_name);
}

static void
setup_open (Setup *setup,
            int    width,
            int    height)
{
  ui_test_project_open (setup, app, width, height);
}

/* ------------------------------------------------------------------------ */
/* The window's rows                                                        */

typedef struct
{
  PlugboardWindow *window;
  const char      *name;
} RowWanted;

static gboolean
row_missing (gpointer data)
{
  RowWanted *wanted = data;

  test_iterate_pending ();
  return window_find_row (wanted->window, wanted->name) == NULL;
}

static gboolean
row_present (gpointer data)
{
  return !row_missing (data);
}

static McpServerConnection *
lookup (Setup      *setup,
        const char *name)
{
  return mcp_server_manager_lookup (mcp_project_get_manager (setup->project), name);
}

static void
wait_state (Setup          *setup,
            const char     *name,
            McpServerState  state)
{
  test_wait_server_state (mcp_project_get_manager (setup->project), name, state);
}

static guint
n_tools (Setup      *setup,
         const char *name)
{
  McpServerConnection *connection = lookup (setup, name);

  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  return g_list_model_get_n_items (mcp_server_connection_get_tools (connection));
}

/* Waits for @name to connect and its row to say "@n tools". */
static void
wait_row_tools (Setup      *setup,
                const char *name,
                guint       n)
{
  g_autofree char *text = g_strdup_printf ("%u tools", n);

  wait_state (setup, name, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (n_tools (setup, name), ==, n);
  window_wait_row_text (setup->window, name, text);
}


/* ------------------------------------------------------------------------ */
/* Reconnect: the state goes pending, then connected                        */

typedef struct
{
  PlugboardWindow *window;
  GArray          *states;
  GPtrArray       *row_texts;
} StateLog;

static void
on_state_cb (McpServerConnection *connection,
             GParamSpec          *pspec,
             StateLog            *log)
{
  McpServerState state = mcp_server_connection_get_state (connection);
  PlugboardServerRow *row = window_find_row (log->window, mcp_server_connection_get_name (connection));

  g_array_append_val (log->states, state);
  /* Connected after the row's own handler: what the row says now. */
  g_ptr_array_add (log->row_texts, g_strdup (row ? plugboard_server_row_get_state_text (row) : ""));
}

static void
reconnect_and_check (Setup      *setup,
                     const char *name)
{
  McpServerConnection *connection = lookup (setup, name);
  g_autoptr(McpClient) old_client = NULL;
  StateLog log = { setup->window, g_array_new (FALSE, FALSE, sizeof (McpServerState)),
                   g_ptr_array_new_with_free_func (g_free) };
  guint tools_before = n_tools (setup, name);
  gulong handler;
  gboolean seen_pending = FALSE;

  g_assert_nonnull (connection);
  old_client = g_object_ref (mcp_server_connection_get_client (connection));
  handler = g_signal_connect_after (connection, "notify::state", G_CALLBACK (on_state_cb), &log);

  window_activate (setup->window, "reconnect-server", g_variant_new_string (name));
  wait_state (setup, name, MCP_SERVER_STATE_CONNECTED);
  while (log.states->len == 0 ||
         g_array_index (log.states, McpServerState, log.states->len - 1) != MCP_SERVER_STATE_CONNECTED)
    {
      guint hang_id = test_hang_guard ("the reconnection");

      g_main_context_iteration (NULL, TRUE);
      g_source_remove (hang_id);
    }
  g_signal_handler_disconnect (connection, handler);

  /* The same connection went pending (the row spinning), then connected,
   * with a new client: a new process or session. */
  g_assert_true (lookup (setup, name) == connection);
  for (guint i = 0; i < log.states->len; i++)
    if (g_array_index (log.states, McpServerState, i) == MCP_SERVER_STATE_PENDING)
      {
        seen_pending = TRUE;
        g_assert_cmpstr (log.row_texts->pdata[i], ==, "Connecting…");
        /* Nothing else between pending and connected. */
        for (guint j = i + 1; j < log.states->len; j++)
          g_assert_cmpint (g_array_index (log.states, McpServerState, j), ==, MCP_SERVER_STATE_CONNECTED);
        break;
      }
  g_assert_true (seen_pending);
  g_assert_nonnull (mcp_server_connection_get_client (connection));
  g_assert_true (mcp_server_connection_get_client (connection) != old_client);
  wait_row_tools (setup, name, tools_before);

  g_array_unref (log.states);
  g_ptr_array_unref (log.row_texts);
}

/* ------------------------------------------------------------------------ */
/* 1. stdio, HTTP and needs-auth                                            */

static void
test_acceptance_stdio_http_needs_auth (void)
{
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(HttpFixture) http = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *user = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *page_text = NULL;
  PlugboardServerPage *page;
  guint stdio_tools;
  guint http_tools;
  Setup setup = { 0 };

  oauth = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);
  http = http_fixture_new ();

  setup_init (&setup, "project");
  user = g_strdup_printf ("{\"mcpServers\": {"
                          "\"local\": {\"command\": \"%s\"},"
                          "\"web\": {\"type\": \"http\", \"url\": \"%s\"},"
                          "\"remote\": {\"type\": \"http\", \"url\": \"%s\"}},"
                          " \"keepMe\": {\"unknown\": [1, 2]}}",
                          test_fixture_server (), http->url, mcp_oauth_fixture_get_mcp_url (oauth));
  test_write_file (setup.user_file, user);
  setup_open (&setup, 1000, 700);

  /* One row each, with its live state. */
  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 3);
  g_assert_cmpstr (server_row_name (rows->pdata[0]), ==, "local");
  g_assert_cmpstr (server_row_name (rows->pdata[1]), ==, "web");
  g_assert_cmpstr (server_row_name (rows->pdata[2]), ==, "remote");
  stdio_tools = n_tools (&setup, "local");
  http_tools = n_tools (&setup, "web");
  g_assert_cmpuint (stdio_tools, >, 1);
  /* The HTTP fixture lists echo and slow. */
  g_assert_cmpuint (http_tools, ==, 2);
  wait_row_tools (&setup, "local", stdio_tools);
  wait_row_tools (&setup, "web", http_tools);
  window_wait_row_text (setup.window, "remote", "Sign in");
  g_assert_cmpint (mcp_server_connection_get_state (lookup (&setup, "remote")), ==,
                   MCP_SERVER_STATE_NEEDS_AUTH);
  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  g_assert_true (plugboard_window_show_server (setup.window, "remote"));
  test_iterate_pending ();
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Sign-In Required");
  g_assert_true (plugboard_window_show_server (setup.window, "web"));
  test_iterate_pending ();
  g_assert_cmpstr (plugboard_server_page_get_state_title (page), ==, "Connected");

  /* Reconnect, stdio and HTTP. */
  reconnect_and_check (&setup, "local");
  reconnect_and_check (&setup, "web");

  /* Disable: the row says so and the file on disk has "enabled": false. */
  window_activate (setup.window, "disable-server", g_variant_new_string ("local"));
  window_wait_row_text (setup.window, "local", "Disabled");
  g_assert_cmpint (mcp_server_connection_get_state (lookup (&setup, "local")), ==,
                   MCP_SERVER_STATE_DISABLED);
  wait_file (setup.user_file, NULL, "local", FALSE);
  entry = read_entry (setup.user_file, NULL, "local");
  g_assert_true (json_object_has_member (entry, "enabled"));
  g_assert_false (json_object_get_boolean_member (entry, "enabled"));
  g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, test_fixture_server ());
  g_clear_pointer (&entry, json_object_unref);

  /* Enable again: connected, and the file no longer says false. */
  window_activate (setup.window, "enable-server", g_variant_new_string ("local"));
  wait_row_tools (&setup, "local", stdio_tools);
  wait_file (setup.user_file, NULL, "local", TRUE);

  /* Remove the HTTP server: its row and its entry go; the others stay. */
  window_activate (setup.window, "remove-server", g_variant_new_string ("web"));
  wait_file (setup.user_file, NULL, "web", -2);
  {
    RowWanted wanted = { setup.window, "web" };

    test_iterate_until (row_missing, &wanted, "the removed row to go");
  }
  g_assert_null (lookup (&setup, "web"));
  wait_file (setup.user_file, NULL, "local", -1);
  wait_file (setup.user_file, NULL, "remote", -1);

  /* Edit in the editor: three more tools through the arguments. */
  edited = g_strdup_printf ("{\"command\": \"%s\", \"args\": [\"--tools\", \"3\"]}", test_fixture_server ());
  window_edit_in_editor (setup.window, "edit-server", g_variant_new_string ("local"), edited);
  wait_file (setup.user_file, NULL, "local", TRUE);
  entry = read_entry (setup.user_file, NULL, "local");
  {
    JsonArray *args;

    g_assert_true (json_object_has_member (entry, "args"));
    args = json_object_get_array_member (entry, "args");
    g_assert_cmpuint (json_array_get_length (args), ==, 2);
    g_assert_cmpstr (json_array_get_string_element (args, 0), ==, "--tools");
    g_assert_cmpstr (json_array_get_string_element (args, 1), ==, "3");
    g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, test_fixture_server ());
  }
  g_clear_pointer (&entry, json_object_unref);
  /* The server reconnected with them (a new process: three more tools). */
  wait_row_tools (&setup, "local", stdio_tools + 3);
  {
    const char * const *args = mcp_server_config_get_args (mcp_server_connection_get_config (lookup (&setup, "local")));

    g_assert_nonnull (args);
    g_assert_cmpstr (args[0], ==, "--tools");
    g_assert_cmpstr (args[1], ==, "3");
  }

  /* Keys Plugboard does not know are kept through every write. */
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (setup.user_file, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "\"keepMe\""));
  }

  /* Disable the needs-auth one, then start again on the same files. */
  window_activate (setup.window, "disable-server", g_variant_new_string ("remote"));
  window_wait_row_text (setup.window, "remote", "Disabled");
  wait_file (setup.user_file, NULL, "remote", FALSE);

  ui_test_project_close (&setup);
  setup_open (&setup, 1000, 700);

  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = window_rows (setup.window);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (server_row_name (rows->pdata[0]), ==, "local");
  g_assert_cmpstr (server_row_name (rows->pdata[1]), ==, "remote");
  g_assert_null (window_find_row (setup.window, "web"));
  g_assert_null (lookup (&setup, "web"));
  wait_row_tools (&setup, "local", stdio_tools + 3);
  window_wait_row_text (setup.window, "remote", "Disabled");
  g_assert_cmpint (mcp_server_connection_get_state (lookup (&setup, "remote")), ==,
                   MCP_SERVER_STATE_DISABLED);
  /* Nothing asked the OAuth server for a token meanwhile. */
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "token-code"), ==, 0);

  ui_test_project_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* 2. Add in the editor                                                     */

static void
test_acceptance_add_in_editor (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_local = NULL;
  guint base_tools;
  Setup setup = { 0 };

  setup_init (&setup, "project");
  /* One server already there, so the list shows rows. */
  json = g_strdup_printf ("{\"mcpServers\": {\"first\": {\"command\": \"%s\"}}}", test_fixture_server ());
  test_write_file (setup.user_file, json);
  g_clear_pointer (&json, g_free);
  setup_open (&setup, 1000, 700);
  base_tools = n_tools (&setup, "first");
  wait_row_tools (&setup, "first", base_tools);

  /* The default scope, "user": the user file's mcpServers. */
  g_settings_set_string (settings, "default-scope", "user");
  json = g_strdup_printf ("{\"added\": {\"command\": \"%s\", \"args\": [\"--tools\", \"1\"]}}",
                          test_fixture_server ());
  window_edit_in_editor (setup.window, "add-server", NULL, json);
  wait_file (setup.user_file, NULL, "added", TRUE);
  g_assert_null (read_entry (setup.user_file, setup.project_dir, "added"));
  g_assert_false (g_file_test (setup.project_file, G_FILE_TEST_EXISTS));
  wait_row_tools (&setup, "added", base_tools + 1);
  g_assert_cmpint (mcp_server_config_get_scope (mcp_server_connection_get_config (lookup (&setup, "added"))),
                   ==, MCP_CONFIG_SCOPE_USER);
  /* And it is shown. */
  g_assert_cmpstr (plugboard_server_page_get_state_title (PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"))),
                   ==, "Connected");

  /* "local": projects[dir].mcpServers of the user file. */
  g_settings_set_string (settings, "default-scope", "local");
  json_local = g_strdup_printf ("{\"mine\": {\"command\": \"%s\", \"args\": [\"--tools\", \"2\"]}}",
                                test_fixture_server ());
  window_edit_in_editor (setup.window, "add-server", NULL, json_local);
  wait_file (setup.user_file, setup.project_dir, "mine", TRUE);
  g_assert_null (read_entry (setup.user_file, NULL, "mine"));
  g_assert_false (g_file_test (setup.project_file, G_FILE_TEST_EXISTS));
  wait_row_tools (&setup, "mine", base_tools + 2);
  g_assert_cmpint (mcp_server_config_get_scope (mcp_server_connection_get_config (lookup (&setup, "mine"))),
                   ==, MCP_CONFIG_SCOPE_LOCAL);
  entry = read_entry (setup.user_file, setup.project_dir, "mine");
  g_assert_nonnull (entry);
  g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, test_fixture_server ());

  /* Both are still there for the next start. */
  ui_test_project_close (&setup);
  setup_open (&setup, 1000, 700);
  wait_row_tools (&setup, "added", base_tools + 1);
  wait_row_tools (&setup, "mine", base_tools + 2);

  g_settings_reset (settings, "default-scope");
  ui_test_project_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* 3. Try a server without saving it (issue 21, view 12)                    */

/* A visible label under @root whose text contains @text. */
static gboolean
shows_text (GtkWidget  *root,
            const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_visible (child))
        continue;
      if (GTK_IS_LABEL (child) && strstr (gtk_label_get_text (GTK_LABEL (child)), text) != NULL)
        return TRUE;
      if (shows_text (child, text))
        return TRUE;
    }

  return FALSE;
}

static PlugboardServerEditor *
open_editor_with (PlugboardWindow *window,
                  const char      *action,
                  GVariant        *parameter,
                  const char      *json)
{
  g_autoptr(GError) error = NULL;
  PlugboardServerEditor *editor;

  g_assert_null (find_server_editor ());
  window_activate (window, action, parameter);
  test_iterate_pending ();
  editor = find_server_editor ();
  g_assert_nonnull (editor);
  if (json != NULL)
    {
      g_assert_true (plugboard_server_editor_load_json (editor, json, &error));
      g_assert_no_error (error);
    }
  test_iterate_pending ();
  return editor;
}

static void
test_acceptance_try_without_saving (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *json = NULL;
  g_autofree char *trial = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  PlugboardServerEditor *editor;
  PlugboardServerPage *page;
  PlugboardServerRow *row;
  McpServerConnection *tried;
  GtkWidget *tried_list;
  RowWanted wanted;
  Setup setup = { 0 };

  setup_init (&setup, "project");
  json = g_strdup_printf ("{\"mcpServers\": {\"first\": {\"command\": \"%s\"}}}", test_fixture_server ());
  test_write_file (setup.user_file, json);
  setup_open (&setup, 1000, 700);
  wait_state (&setup, "first", MCP_SERVER_STATE_CONNECTED);
  g_assert_true (g_file_get_contents (setup.user_file, &before, NULL, NULL));
  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  tried_list = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                         "tried_list"));

  /* Add Server, the fields filled, Try: connected and shown, not saved. */
  trial = g_strdup_printf ("{\"trial\": {\"command\": \"%s\", \"args\": [\"--tools\", \"1\"]}}",
                           test_fixture_server ());
  editor = open_editor_with (setup.window, "add-server", NULL, trial);
  g_assert_true (plugboard_server_editor_try (editor));
  test_iterate_until (server_editor_gone, NULL, "the editor to close after Try");
  wait_state (&setup, "trial", MCP_SERVER_STATE_CONNECTED);
  tried = lookup (&setup, "trial");
  g_assert_false (mcp_server_config_get_saved (mcp_server_connection_get_config (tried)));
  g_assert_true (plugboard_server_page_get_connection (page) == tried);
  test_iterate_pending ();
  g_assert_true (gtk_widget_get_visible (tried_list));
  g_assert_true (shows_text (GTK_WIDGET (page), "Not saved"));
  row = window_find_row (setup.window, "trial");
  g_assert_nonnull (row);
  g_assert_true (shows_text (GTK_WIDGET (row), "Not saved"));
  /* Used fully: its tools are in All Tools with the others'. */
  g_assert_nonnull (mcp_tool_pool_lookup (mcp_project_get_tool_pool (setup.project), "mcp__trial__echo"));
  g_assert_true (g_file_get_contents (setup.user_file, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
  g_assert_false (g_file_test (setup.project_file, G_FILE_TEST_EXISTS));

  /* A name the settings have: said in the editor, which stays open. */
  editor = open_editor_with (setup.window, "add-server", NULL, trial);
  {
    g_autofree char *first = g_strdup_printf ("{\"first\": {\"command\": \"%s\"}}", test_fixture_server ());
    g_autoptr(GError) error = NULL;

    g_assert_true (plugboard_server_editor_load_json (editor, first, &error));
    g_assert_no_error (error);
  }
  g_assert_false (plugboard_server_editor_try (editor));
  test_iterate_pending ();
  g_assert_true (shows_text (GTK_WIDGET (editor), "A server named “first” is already in the settings"));
  gtk_window_close (GTK_WINDOW (editor));
  test_iterate_until (server_editor_gone, NULL, "the editor to close");

  /* Save…: the editor saves it in the scope chosen; the same connection
   * goes on, now saved. */
  g_settings_set_string (settings, "default-scope", "local");
  editor = open_editor_with (setup.window, "edit-server", g_variant_new_string ("trial"), NULL);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Save Server");
  {
    gboolean saved = FALSE;

    plugboard_server_editor_save_async (editor, NULL, server_editor_saved_cb, &saved);
    test_iterate_until (test_flag_set, &saved, "the editor to save the tried server");
  }
  test_iterate_until (server_editor_gone, NULL, "the editor to close after saving");
  wait_file (setup.user_file, setup.project_dir, "trial", TRUE);
  {
    guint hang_id = test_hang_guard ("the saved server");

    while (!mcp_server_config_get_saved (mcp_server_connection_get_config (lookup (&setup, "trial"))))
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }
  g_assert_true (lookup (&setup, "trial") == tried);
  g_assert_cmpint (mcp_server_connection_get_state (tried), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (mcp_server_config_get_scope (mcp_server_connection_get_config (tried)), ==,
                   MCP_CONFIG_SCOPE_LOCAL);
  test_iterate_pending ();
  g_assert_false (gtk_widget_get_visible (tried_list));
  g_assert_false (shows_text (GTK_WIDGET (window_find_row (setup.window, "trial")), "Not saved"));
  g_assert_true (shows_text (GTK_WIDGET (window_find_row (setup.window, "trial")), "Local"));

  /* Another one, discarded with Remove, then Undo tries it again; nothing
   * is written either way. */
  g_clear_pointer (&before, g_free);
  g_clear_pointer (&after, g_free);
  g_assert_true (g_file_get_contents (setup.user_file, &before, NULL, NULL));
  g_clear_pointer (&trial, g_free);
  trial = g_strdup_printf ("{\"passing\": {\"command\": \"%s\"}}", test_fixture_server ());
  editor = open_editor_with (setup.window, "add-server", NULL, trial);
  g_assert_true (plugboard_server_editor_try (editor));
  test_iterate_until (server_editor_gone, NULL, "the editor to close after Try");
  wait_state (&setup, "passing", MCP_SERVER_STATE_CONNECTED);
  wanted.window = setup.window;
  wanted.name = "passing";
  test_iterate_until (row_present, &wanted, "the tried server's row");
  window_activate (setup.window, "remove-server", g_variant_new_string ("passing"));
  test_iterate_until (row_missing, &wanted, "the discarded server's row to go");
  g_assert_null (mcp_project_lookup_unsaved (setup.project, "passing"));
  g_assert_true (shows_text (window_child (setup.window, "toast_overlay"), "Discarded “passing”"));
  window_activate (setup.window, "undo-remove", g_variant_new_string ("passing"));
  test_iterate_until (row_present, &wanted, "the tried server to come back");
  g_assert_nonnull (mcp_project_lookup_unsaved (setup.project, "passing"));
  wait_state (&setup, "passing", MCP_SERVER_STATE_CONNECTED);
  g_assert_true (g_file_get_contents (setup.user_file, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
  g_assert_false (g_file_test (setup.project_file, G_FILE_TEST_EXISTS));

  /* A try ends with the window: the next start does not have it. */
  ui_test_project_close (&setup);
  setup_open (&setup, 1000, 700);
  wait_state (&setup, "trial", MCP_SERVER_STATE_CONNECTED);
  g_assert_null (lookup (&setup, "passing"));

  g_settings_reset (settings, "default-scope");
  ui_test_project_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* 4. The 360 px screenshot of a server page (only when asked)              */

static gboolean
page_connected (gpointer data)
{
  test_iterate_pending ();
  return g_strcmp0 (plugboard_server_page_get_state_title (data), "Connected") == 0;
}

static void
test_acceptance_narrow_screenshot (void)
{
  const char *output = g_getenv ("PLUGBOARD_TEST_SCREENSHOT");
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *user = NULL;
  g_autofree char *stdout_text = NULL;
  g_autofree char *stderr_text = NULL;
  PlugboardServerPage *page;
  GtkWidget *leaflet;
  int status = 0;
  Setup setup = { 0 };

  g_assert_nonnull (output);
  oauth = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);

  /* The demo configuration of the README's other screenshots. */
  setup_init (&setup, "weather-app");
  user = g_strdup_printf ("{\"mcpServers\": {"
                          "\"fixture\": {\"command\": \"%s\"},"
                          "\"github\": {\"type\": \"http\", \"url\": \"%s\"},"
                          "\"postgres\": {\"command\": \"%s\", \"args\": [\"--exit-at-start\", \"1\"]},"
                          "\"filesystem\": {\"command\": \"%s\", \"enabled\": false}}}",
                          test_fixture_server (), mcp_oauth_fixture_get_mcp_url (oauth),
                          test_fixture_server (), test_fixture_server ());
  test_write_file (setup.user_file, user);
  setup_open (&setup, 360, 720);

  window_activate (setup.window, "show-server", g_variant_new_string ("fixture"));
  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  test_iterate_until (page_connected, page, "the server page to show it connected");

  /* Folded, and showing the page rather than the list. */
  leaflet = window_child (setup.window, "leaflet");
  g_assert_true (adw_leaflet_get_folded (ADW_LEAFLET (leaflet)));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (page),
                                         adw_leaflet_get_visible_child (ADW_LEAFLET (leaflet))));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (setup.window)), ==, 360);
  test_wait_ms (1500);

  {
    const char *argv[] = { "import", "-window", "root", output, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                  &stdout_text, &stderr_text, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  g_test_message ("screenshot: %s", output);

  ui_test_project_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* The Traffic of a Streamable HTTP server                                  */

static McpTraceEntry *
find_initialize_post (GListModel *rows)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(McpTraceEntry) entry = g_list_model_get_item (rows, i);

      if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_HTTP &&
          g_strcmp0 (mcp_trace_entry_get_method (entry), "POST") == 0 &&
          mcp_trace_entry_get_request_body (entry) != NULL &&
          strstr (mcp_trace_entry_get_request_body (entry), "\"initialize\"") != NULL)
        return entry;
    }
  return NULL;
}

static void
test_acceptance_traffic_http (void)
{
  g_autoptr(HttpFixture) http = http_fixture_new ();
  g_autofree char *user = NULL;
  PlugboardServerPage *page;
  PlugboardTrafficView *view;
  McpTraceEntry *post;
  GListModel *rows;
  Setup setup = { 0 };
  const char *headers;

  setup_init (&setup, "project");
  user = g_strdup_printf ("{\"mcpServers\": {\"web\": {\"type\": \"http\", \"url\": \"%s\"}}}", http->url);
  test_write_file (setup.user_file, user);
  setup_open (&setup, 1280, 800);
  wait_state (&setup, "web", MCP_SERVER_STATE_CONNECTED);

  page = PLUGBOARD_SERVER_PAGE (window_child (setup.window, "server_page"));
  g_assert_true (plugboard_window_show_server (setup.window, "web"));
  test_iterate_pending ();
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (gtk_widget_get_template_child (
                                           GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE, "view_stack")), "traffic");
  view = PLUGBOARD_TRAFFIC_VIEW (gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                                "traffic_view"));
  wait_frames (5);

  /* A remote server: Network, no Console. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_template_child (
                   GTK_WIDGET (view), PLUGBOARD_TYPE_TRAFFIC_VIEW, "network_toggle"))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_template_child (
                    GTK_WIDGET (view), PLUGBOARD_TYPE_TRAFFIC_VIEW, "console_toggle"))));
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_NETWORK);
  rows = plugboard_traffic_view_get_rows (view);
  post = find_initialize_post (rows);
  g_assert_nonnull (post);
  g_assert_cmpuint (mcp_trace_entry_get_status (post), ==, 200);

  /* Its detail: the session the server gave, standing out. */
  g_assert_true (plugboard_traffic_view_select (view, post));
  wait_frames (3);
  headers = gtk_label_get_label (GTK_LABEL (gtk_widget_get_template_child (
                                   GTK_WIDGET (view), PLUGBOARD_TYPE_TRAFFIC_VIEW, "response_headers_label")));
  g_assert_nonnull (strstr (headers, "weight=\"bold\" foreground=\"#3584e4\">Mcp-Session-Id: "));
  g_assert_true (has_shown_label_with (GTK_WIDGET (view), "POST /mcp"));

  /* The Protocol view has the same initialize, with its curl (the
   * server's URL known). */
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
  plugboard_traffic_view_set_search (view, "initialize");
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);
  {
    g_autoptr(McpTraceEntry) request = g_list_model_get_item (rows, 0);

    g_assert_cmpint (mcp_trace_entry_get_kind (request), ==, MCP_TRACE_KIND_MESSAGE);
    g_assert_true (plugboard_traffic_view_select (view, request));
    wait_frames (2);
    g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (gtk_widget_get_template_child (
                     GTK_WIDGET (view), PLUGBOARD_TYPE_TRAFFIC_VIEW, "copy_curl_button"))));
  }

  ui_test_project_clear (&setup);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_has_display ())
    return 0;

  /* Nothing of the person's settings is read or written. */
  test_root = ui_test_make_root ("test-acceptance", UI_TEST_XDG_CONFIG | UI_TEST_XDG_DATA | UI_TEST_XDG_CACHE);

  ui_test_init (&argc, &argv);

  app = ui_test_application_new ();

  g_test_add_func ("/ui/acceptance/stdio-http-needs-auth", test_acceptance_stdio_http_needs_auth);
  g_test_add_func ("/ui/acceptance/add-in-editor", test_acceptance_add_in_editor);
  g_test_add_func ("/ui/acceptance/try-without-saving", test_acceptance_try_without_saving);
  g_test_add_func ("/ui/acceptance/traffic-http", test_acceptance_traffic_http);
  if (g_getenv ("PLUGBOARD_TEST_SCREENSHOT") != NULL)
    g_test_add_func ("/ui/acceptance/narrow-screenshot", test_acceptance_narrow_screenshot);

  ret = ui_test_run_and_clean (&app, &test_root);

  return ret;
}
