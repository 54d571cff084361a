/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sign-in-grant-ui"

/* Issue 27 in the app, end to end: a server added in the server editor
 * with Client credentials (client "service-client", its secret typed and
 * stored in a Secret Service of the test's own) against the OAuth
 * fixture connects with no browser — the browser command fails if it is
 * ever run — and lists its tools; the secret is in the keyring and in no
 * settings file, and the fixture saw a client_credentials grant and no
 * authorization request. */

#include "config.h"

#include <string.h>

#include "mcp-oauth-fixture.h"
#include "mcp-secret-store.h"
#include "mcp-tool.h"
#include "plugboard-application.h"
#include "plugboard-server-editor.h"
#include "plugboard-server-editor-private.h"
#include "plugboard-window.h"
#include "test-engine.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

#define SERVICE_CLIENT "service-client"
#define SERVICE_SECRET "service-secret"

static PlugboardApplication *app;
static char *root;

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

static gboolean
settled (gpointer data)
{
  McpServerManager *manager = data;
  McpServerConnection *connection = mcp_server_manager_lookup (manager, "service");
  McpServerState state;

  if (connection == NULL)
    return FALSE;
  state = mcp_server_connection_get_state (connection);
  return state == MCP_SERVER_STATE_CONNECTED || state == MCP_SERVER_STATE_NEEDS_AUTH ||
         state == MCP_SERVER_STATE_FAILED;
}

static void
assert_not_in_file (const char *path,
                    const char *secret)
{
  g_autofree char *contents = NULL;

  if (g_file_get_contents (path, &contents, NULL, NULL))
    g_assert_null (strstr (contents, secret));
}

/* @secret in no file below @dir but the token store's 0600 file */
static void
assert_nowhere (const char *dir,
                const char *secret)
{
  g_autoptr(GSubprocess) grep = NULL;
  g_autoptr(GError) error = NULL;

  grep = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                           "grep", "-rqF", "--exclude=credentials.json", "--", secret, dir, NULL);
  g_assert_no_error (error);
  g_subprocess_wait (grep, NULL, &error);
  g_assert_no_error (error);
  /* 1: not found (2 would be an error) */
  g_assert_cmpint (g_subprocess_get_exit_status (grep), ==, 1);
}

static void
test_client_credentials_from_the_app (void)
{
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *stored = NULL;
  UiTestProject setup = { 0 };
  PlugboardServerEditor *editor;
  McpServerManager *manager;
  McpServerConnection *connection;
  GListModel *tools;
  gboolean whoami = FALSE;

  oauth = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &error);
  g_assert_no_error (error);
  /* a browser is never opened: this one would fail the sign-in */
  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", "false", TRUE);
  g_setenv ("BROWSER", "false", TRUE);

  ui_test_project_init (&setup, root, "project");
  test_write_file (setup.user_file, "{\"mcpServers\": {}}");
  ui_test_project_open (&setup, app, 1000, 700);
  manager = mcp_project_get_manager (setup.project);

  /* added in the editor as a person does */
  editor = plugboard_server_editor_new (GTK_WINDOW (setup.window), setup.project, NULL,
                                        MCP_CONFIG_SCOPE_USER);
  g_object_ref_sink (editor);
  gtk_window_present (GTK_WINDOW (editor));
  test_iterate_pending ();
  set_text (editor, "name_row", "service");
  adw_combo_row_set_selected (child (editor, "transport_row"), TRANSPORT_HTTP);
  set_text (editor, "url_row", mcp_oauth_fixture_get_mcp_url (oauth));
  adw_combo_row_set_selected (child (editor, "oauth_method_row"), SIGN_IN_CLIENT_CREDENTIALS);
  set_text (editor, "oauth_client_id_row", SERVICE_CLIENT);
  set_text (editor, "oauth_secret_row", SERVICE_SECRET);
  g_assert_true (gtk_widget_get_sensitive (child (editor, "save_button")));
  plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
  g_assert_true (plugboard_server_editor_save_finish (editor, test_wait_result (&result, "the save"), &error));
  g_assert_no_error (error);
  gtk_window_destroy (GTK_WINDOW (editor));
  g_object_unref (editor);
  test_iterate_pending ();

  /* the grant runs by itself, or on Sign In; never a browser */
  test_iterate_until (settled, manager, "the server to connect or ask for a sign-in");
  connection = mcp_server_manager_lookup (manager, "service");
  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_NEEDS_AUTH)
    g_action_group_activate_action (G_ACTION_GROUP (setup.window), "sign-in", g_variant_new_string ("service"));
  test_wait_server_state (manager, "service", MCP_SERVER_STATE_CONNECTED);
  connection = mcp_server_manager_lookup (manager, "service");
  tools = mcp_server_connection_get_tools (connection);
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      whoami |= g_strcmp0 (mcp_tool_get_name (tool), "whoami") == 0;
    }
  g_assert_true (whoami);
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "token-client-credentials"), >=, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "authorize"), ==, 0);

  /* the secret: in the keyring, not in the settings */
  g_clear_object (&result);
  mcp_secret_store_lookup_async (mcp_secret_store_get_default (), "service.clientSecret", NULL,
                                 test_result_cb, &result);
  stored = mcp_secret_store_lookup_finish (mcp_secret_store_get_default (),
                                           test_wait_result (&result, "the secret"), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, SERVICE_SECRET);
  assert_not_in_file (setup.user_file, SERVICE_SECRET);
  /* nor anywhere in the run's folders (settings, backups, state, cache);
   * the tokens only in the token store's 0600 file */
  assert_nowhere (root, SERVICE_SECRET);
  {
    g_auto(GStrv) issued = mcp_oauth_fixture_dup_issued (oauth);

    g_assert_nonnull (issued);
    g_assert_nonnull (issued[0]);
    for (guint i = 0; issued[i] != NULL; i++)
      {
        assert_not_in_file (setup.user_file, issued[i]);
        assert_nowhere (root, issued[i]);
      }
  }

  g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  g_unsetenv ("BROWSER");
  ui_test_project_clear (&setup);
}

int
main (int   argc,
      char *argv[])
{
  /* run-with-keyring.sh leaves the display out; the test's own Xvfb */
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("PLUGBOARD_TEST_DISPLAY") != NULL &&
      g_getenv ("PLUGBOARD_TEST_DISPLAY")[0] != '\0')
    g_setenv ("DISPLAY", g_getenv ("PLUGBOARD_TEST_DISPLAY"), TRUE);
  if (!ui_test_has_display ())
    return 0;

  root = ui_test_make_root ("sign-in-grant-ui", UI_TEST_XDG_CONFIG | UI_TEST_XDG_DATA | UI_TEST_XDG_CACHE);
  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/sign-in-grant-ui/client-credentials", test_client_credentials_from_the_app);

  return ui_test_run_and_clean (&app, &root);
}
