/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sign-in-grant-ui"

/* Issue 27 in the app, end to end: a server added in the server editor
 * with each grant against the OAuth fixture connects with no browser —
 * the browser command fails if it is ever run — and lists its tools:
 * Client credentials (client "service-client", its secret typed and
 * stored in a Secret Service of the test's own), Workload identity (an
 * assertion file signed by an issuer the fixture trusts), Enterprise (an
 * ID token file of the fixture's IdP, exchanged there, then the JWT
 * bearer grant). The secrets are in the keyring and in no settings file,
 * and the fixture saw the grant and no authorization request. */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "mcp-jose.h"
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
#define WORKLOAD_ISS   "https://workload.example"

typedef enum
{
  GRANT_CLIENT_CREDENTIALS,
  GRANT_WORKLOAD,
  GRANT_ENTERPRISE,
} Grant;

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
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "grep", "-rlF", "--exclude=credentials.json", "--", secret, dir, NULL };
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  /* 1: not found (2 would be an error) */
  if (!g_spawn_check_wait_status (status, NULL) && WEXITSTATUS (status) == 1)
    return;
  g_error ("a secret (%zu bytes) is in %s", strlen (secret), out != NULL && *out ? out : "(grep failed)");
}

/* An ES256 assertion of WORKLOAD_ISS for "workload-1", for the fixture */
static char *
sign_assertion (McpJoseKey      *key,
                McpOAuthFixture *fixture)
{
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *jti = g_uuid_string_random ();
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  char *jwt;

  json_object_set_string_member (claims, "iss", WORKLOAD_ISS);
  json_object_set_string_member (claims, "sub", "workload-1");
  json_object_set_string_member (claims, "aud", mcp_oauth_fixture_get_issuer (fixture));
  json_object_set_int_member (claims, "iat", now);
  json_object_set_int_member (claims, "exp", now + 600);
  json_object_set_string_member (claims, "jti", jti);
  jwt = mcp_jose_sign (key, NULL, claims, &error);
  g_assert_no_error (error);
  return jwt;
}

static void
run_grant_from_the_app (Grant grant)
{
  g_autoptr(McpOAuthFixture) oauth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *input = NULL;
  g_autofree char *input_secret = NULL;
  const char *secret_id = "service.clientSecret";
  const char *secret = SERVICE_SECRET;
  const char *counter = "token-client-credentials";
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
  /* the assertion or ID token the platform gives, outside the run's
   * folders (which must hold no token) */
  {
    int fd = g_file_open_tmp ("plugboard-grant-input-XXXXXX", &input, &error);

    g_assert_no_error (error);
    close (fd);
  }
  switch (grant)
    {
    case GRANT_CLIENT_CREDENTIALS:
      adw_combo_row_set_selected (child (editor, "oauth_method_row"), SIGN_IN_CLIENT_CREDENTIALS);
      set_text (editor, "oauth_client_id_row", SERVICE_CLIENT);
      set_text (editor, "oauth_secret_row", SERVICE_SECRET);
      break;

    case GRANT_WORKLOAD:
      {
        g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
        g_autoptr(JsonObject) jwk = NULL;

        g_assert_no_error (error);
        jwk = mcp_jose_key_get_public_jwk (key);
        mcp_oauth_fixture_trust_issuer (oauth, WORKLOAD_ISS, jwk);
        input_secret = sign_assertion (key, oauth);
        test_write_file (input, input_secret);
        adw_combo_row_set_selected (child (editor, "oauth_method_row"), SIGN_IN_WORKLOAD);
        adw_combo_row_set_selected (child (editor, "oauth_auth_method_row"), CLIENT_AUTH_NONE);
        adw_combo_row_set_selected (child (editor, "oauth_assertion_source_row"), 0);
        set_text (editor, "oauth_assertion_row", input);
        secret_id = NULL;
        counter = "token-jwt-bearer";
      }
      break;

    case GRANT_ENTERPRISE:
    default:
      input_secret = mcp_oauth_fixture_issue_id_token (oauth, "person-1");
      test_write_file (input, input_secret);
      adw_combo_row_set_selected (child (editor, "oauth_method_row"), SIGN_IN_ENTERPRISE);
      set_text (editor, "oauth_client_id_row", "enterprise-client");
      adw_combo_row_set_selected (child (editor, "oauth_auth_method_row"), CLIENT_AUTH_SECRET_BASIC);
      set_text (editor, "oauth_secret_row", "enterprise-secret");
      set_text (editor, "oauth_idp_issuer_row", mcp_oauth_fixture_get_idp_issuer (oauth));
      set_text (editor, "oauth_idp_client_id_row", "idp-client");
      set_text (editor, "oauth_idp_secret_row", "idp-secret");
      adw_combo_row_set_selected (child (editor, "oauth_id_token_source_row"), 1);
      set_text (editor, "oauth_id_token_row", input);
      secret = "enterprise-secret";
      counter = "idp-token-exchange";
      break;
    }
  test_iterate_pending ();
  if (!gtk_widget_get_sensitive (child (editor, "save_button")))
    {
      GtkWidget *row = NULL;
      g_autofree char *why = plugboard_server_editor_check_sign_in (editor, &row);

      g_error ("Save is not offered: %s", why != NULL ? why : "(the sign-in group is complete)");
    }
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
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, counter), >=, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (oauth, "authorize"), ==, 0);

  /* the secret: in the keyring, not in the settings */
  g_clear_object (&result);
  if (secret_id != NULL)
    {
      /* the ID the settings refer to ("${secret:ID}"): a case before may
       * have left one of the same name in the keyring */
      g_autofree char *settings = NULL;
      g_autofree char *id = NULL;
      const char *reference;

      g_assert_true (g_file_get_contents (setup.user_file, &settings, NULL, NULL));
      reference = strstr (settings, "${secret:");
      g_assert_nonnull (reference);
      id = g_strndup (reference + strlen ("${secret:"), strcspn (reference + strlen ("${secret:"), "}"));

      mcp_secret_store_lookup_async (mcp_secret_store_get_default (), id, NULL,
                                     test_result_cb, &result);
      stored = mcp_secret_store_lookup_finish (mcp_secret_store_get_default (),
                                               test_wait_result (&result, "the secret"), &error);
      g_assert_no_error (error);
      g_assert_cmpstr (stored, ==, secret);
      assert_not_in_file (setup.user_file, secret);
      /* nor anywhere in the run's folders (settings, backups, state,
       * cache); the tokens only in the token store's 0600 file */
      assert_nowhere (root, secret);
    }
  /* the assertion or ID token: only in the file the test gave */
  if (input_secret != NULL)
    assert_not_in_file (setup.user_file, input_secret);
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
  g_unlink (input);
  ui_test_project_clear (&setup);
}

static void
test_client_credentials_from_the_app (void)
{
  run_grant_from_the_app (GRANT_CLIENT_CREDENTIALS);
}

static void
test_workload_identity_from_the_app (void)
{
  run_grant_from_the_app (GRANT_WORKLOAD);
}

static void
test_enterprise_from_the_app (void)
{
  run_grant_from_the_app (GRANT_ENTERPRISE);
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
  g_test_add_func ("/sign-in-grant-ui/workload-identity", test_workload_identity_from_the_app);
  g_test_add_func ("/sign-in-grant-ui/enterprise", test_enterprise_from_the_app);

  return ui_test_run_and_clean (&app, &root);
}
