/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-editor-sign-in"

/* The server editor's Sign-In group (issue 27): each sign-in method shows
 * its rows; saving writes the "oauth" object the README documents, with
 * "${secret:ID}" references, the secrets themselves in the Secret Service
 * (run-with-keyring.sh: a keyring of the test's own) and in no settings
 * file and no log; an existing grant server loads every field; its
 * secrets are replaced and removed; the browser sign-in again removes the
 * grant members and keeps unknown ones; a bad private key is refused with
 * a message; a save that fails leaves no secret behind. */

#include "config.h"

#include <glib/gstdio.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <string.h>

#include "mcp-secret-store.h"
#include "plugboard-server-editor.h"
#include "plugboard-server-editor-private.h"
#include "test-dirs.h"
#include "ui-test-common.h"

#define CLIENT_SECRET     "cs-0123456789-very-secret"
#define IDP_SECRET        "idp-9876543210-also-secret"
#define REPLACED_SECRET   "cs-replacement-secret-42"

typedef struct
{
  TestDirs     dirs;
  McpProject  *project;   /* not loaded: nothing connects */
  McpSettings *settings;
} Fixture;

/* Every log line of the process, to prove no secret is in one */
static GString *log_text;

static GLogWriterOutput
record_log_cb (GLogLevelFlags   level,
               const GLogField *fields,
               gsize            n_fields,
               gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    {
      if (fields[i].length < 0)
        g_string_append (log_text, fields[i].value);
      else
        g_string_append_len (log_text, fields[i].value, fields[i].length);
      g_string_append_c (log_text, '\n');
    }

  /* as ui_test_init()'s writer: GTK 4.8's snapshot before allocation is
   * not fatal */
  if (level & G_LOG_LEVEL_WARNING)
    {
      const char *message = fields[0].length < 0 ? fields[0].value : "";

      for (gsize i = 0; i < n_fields; i++)
        if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
          message = fields[i].value;
      if (strstr (message, "without a current allocation") != NULL)
        return G_LOG_WRITER_HANDLED;
    }

  return g_log_writer_default (level, fields, n_fields, user_data);
}

static gboolean
fatal_handler_cb (const char     *domain,
                  GLogLevelFlags  level,
                  const char     *message,
                  gpointer        user_data)
{
  return strstr (message, "without a current allocation") == NULL;
}

/* Helpers */

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

static void
select_item (PlugboardServerEditor *editor,
             const char            *row,
             guint                  item)
{
  adw_combo_row_set_selected (child (editor, row), item);
}

static guint
selected (PlugboardServerEditor *editor,
          const char            *row)
{
  return adw_combo_row_get_selected (child (editor, row));
}

static gboolean
shows (PlugboardServerEditor *editor,
       const char            *name)
{
  return gtk_widget_get_visible (child (editor, name));
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

/* The message shown says @text */
static void
assert_message_has (PlugboardServerEditor *editor,
                    const char            *text)
{
  const char *message = shown_message (editor);

  g_assert_nonnull (message);
  if (strstr (message, text) == NULL)
    g_error ("the message “%s” does not say “%s”", message, text);
}

static void
load_settings (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_settings_load_async (f->settings, NULL, test_result_cb, &result);
  mcp_settings_load_finish (f->settings, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
}

static PlugboardServerEditor *
editor_new (Fixture         *f,
            McpServerConfig *config)
{
  PlugboardServerEditor *editor = plugboard_server_editor_new (NULL, f->project, config,
                                                               MCP_CONFIG_SCOPE_USER);

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

static gboolean
save_editor (PlugboardServerEditor  *editor,
             GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  plugboard_server_editor_save_async (editor, NULL, test_result_cb, &result);
  return plugboard_server_editor_save_finish (editor, test_wait_result (&result, "the save"), error);
}

static void
save_ok (PlugboardServerEditor *editor)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (shown_message (editor));
  g_assert_true (save_is_sensitive (editor));
  g_assert_true (save_editor (editor, &error));
  g_assert_no_error (error);
  test_iterate_pending ();
}

static char *
lookup_secret (const char *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *value;

  mcp_secret_store_lookup_async (mcp_secret_store_get_default (), id, NULL, test_result_cb, &result);
  value = mcp_secret_store_lookup_finish (mcp_secret_store_get_default (),
                                          test_wait_result (&result, "the secret"), &error);
  g_assert_no_error (error);

  return value;
}

static void
store_secret (const char *id,
              const char *value)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_secret_store_store_async (mcp_secret_store_get_default (), id, value, NULL, test_result_cb, &result);
  mcp_secret_store_store_finish (mcp_secret_store_get_default (),
                                 test_wait_result (&result, "storing"), &error);
  g_assert_no_error (error);
}

static void
clear_secret (const char *id)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_secret_store_clear_async (mcp_secret_store_get_default (), id, NULL, test_result_cb, &result);
  mcp_secret_store_clear_finish (mcp_secret_store_get_default (),
                                 test_wait_result (&result, "clearing"), NULL);
}

static gboolean
secret_gone (const char *id)
{
  g_autofree char *value = lookup_secret (id);

  return value == NULL;
}

/* The saved "oauth" object of @name in the user file */
static JsonObject *
saved_oauth (Fixture    *f,
             const char *name)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *servers;
  JsonObject *entry;

  json_parser_load_from_file (parser, f->dirs.user_file, &error);
  g_assert_no_error (error);
  servers = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "mcpServers");
  entry = json_object_get_object_member (servers, name);
  g_assert_nonnull (entry);

  return json_object_ref (json_object_get_object_member (entry, "oauth"));
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return json_to_string (node, FALSE);
}

/* No secret in any file of the test's folder (settings, backups), nor in
 * the log. */
static void
assert_nowhere (Fixture    *f,
                const char *secret)
{
  g_autoptr(GSubprocess) grep = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *state = g_build_filename (g_get_user_state_dir (), "plugboard", NULL);

  grep = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                           "grep", "-rqF", "--", secret, f->dirs.root,
                           g_file_test (state, G_FILE_TEST_IS_DIR) ? state : f->dirs.root, NULL);
  g_assert_no_error (error);
  g_subprocess_wait (grep, NULL, &error);
  g_assert_no_error (error);
  /* 1: not found (2 would be an error: the folders are there) */
  g_assert_cmpint (g_subprocess_get_exit_status (grep), ==, 1);
  g_assert_null (strstr (log_text->str, secret));
}

/* A PEM private key made by GnuTLS: EC P-256 or RSA of @bits */
static char *
make_key (gnutls_pk_algorithm_t algorithm,
          unsigned int          bits)
{
  gnutls_x509_privkey_t key;
  gnutls_datum_t out = { NULL, 0 };
  char *pem;

  g_assert_cmpint (gnutls_x509_privkey_init (&key), ==, 0);
  g_assert_cmpint (gnutls_x509_privkey_generate (key, algorithm, bits, 0), ==, 0);
  g_assert_cmpint (gnutls_x509_privkey_export2_pkcs8 (key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &out), ==, 0);
  pem = g_strndup ((const char *)out.data, out.size);
  gnutls_free (out.data);
  gnutls_x509_privkey_deinit (key);

  return pem;
}

static const char *
key_subtitle (PlugboardServerEditor *editor)
{
  return adw_action_row_get_subtitle (child (editor, "oauth_key_row"));
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  test_dirs_init (&f->dirs, "editor-sign-in");
  f->project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
  f->settings = g_object_ref (mcp_project_get_settings (f->project));
  test_write_file (f->dirs.user_file, "{\"mcpServers\": {}}");
  load_settings (f);
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

static PlugboardServerEditor *
new_remote (Fixture    *f,
            const char *name)
{
  PlugboardServerEditor *editor = editor_new (f, NULL);

  set_text (editor, "name_row", name);
  select_item (editor, "transport_row", TRANSPORT_HTTP);
  set_text (editor, "url_row", "https://mcp.example.com/mcp");

  return editor;
}

/* Tests */

static void
test_methods_show_rows (Fixture       *f,
                        gconstpointer  data)
{
  PlugboardServerEditor *editor = new_remote (f, "rows");

  /* browser sign-in, the default */
  g_assert_cmpuint (selected (editor, "oauth_method_row"), ==, SIGN_IN_BROWSER);
  g_assert_true (shows (editor, "oauth_client_id_row"));
  g_assert_true (shows (editor, "oauth_port_row"));
  g_assert_true (shows (editor, "oauth_scopes_row"));
  g_assert_true (shows (editor, "oauth_dpop_row"));
  g_assert_false (shows (editor, "oauth_auth_method_row"));
  g_assert_false (shows (editor, "oauth_secret_row"));
  g_assert_false (shows (editor, "oauth_key_row"));
  g_assert_false (shows (editor, "oauth_assertion_row"));
  g_assert_false (shows (editor, "oauth_id_token_row"));
  g_assert_false (shows (editor, "idp_group"));
  g_assert_true (save_is_sensitive (editor));

  /* client credentials: a secret by default, a key for a signed JWT */
  select_item (editor, "oauth_method_row", SIGN_IN_CLIENT_CREDENTIALS);
  g_assert_true (shows (editor, "oauth_auth_method_row"));
  g_assert_cmpuint (selected (editor, "oauth_auth_method_row"), ==, CLIENT_AUTH_SECRET_BASIC);
  g_assert_true (shows (editor, "oauth_secret_row"));
  g_assert_false (shows (editor, "oauth_secret_stored_row"));
  g_assert_false (shows (editor, "oauth_key_row"));
  g_assert_false (shows (editor, "oauth_port_row"));
  g_assert_false (shows (editor, "idp_group"));
  /* a client ID and a secret are needed first */
  g_assert_false (save_is_sensitive (editor));
  assert_message_has (editor, "client ID");
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_PRIVATE_KEY_JWT);
  g_assert_false (shows (editor, "oauth_secret_row"));
  g_assert_true (shows (editor, "oauth_key_row"));
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_NONE);
  g_assert_false (shows (editor, "oauth_secret_row"));
  g_assert_false (shows (editor, "oauth_key_row"));

  /* workload identity: where its token comes from */
  select_item (editor, "oauth_method_row", SIGN_IN_WORKLOAD);
  g_assert_true (shows (editor, "oauth_assertion_source_row"));
  g_assert_true (shows (editor, "oauth_assertion_row"));
  g_assert_cmpstr (adw_preferences_row_get_title (child (editor, "oauth_assertion_row")), ==, "Assertion _File");
  select_item (editor, "oauth_assertion_source_row", 1);
  g_assert_cmpstr (adw_preferences_row_get_title (child (editor, "oauth_assertion_row")), ==, "Environment _Variable");
  g_assert_false (shows (editor, "oauth_id_token_row"));
  g_assert_false (shows (editor, "idp_group"));

  /* enterprise: the identity provider's group and the ID token's source */
  select_item (editor, "oauth_method_row", SIGN_IN_ENTERPRISE);
  g_assert_true (shows (editor, "idp_group"));
  g_assert_true (shows (editor, "oauth_idp_issuer_row"));
  g_assert_true (shows (editor, "oauth_idp_secret_row"));
  g_assert_true (shows (editor, "oauth_id_token_source_row"));
  g_assert_true (shows (editor, "oauth_id_token_row"));
  g_assert_false (shows (editor, "oauth_assertion_row"));
  select_item (editor, "oauth_id_token_source_row", 3);
  g_assert_false (shows (editor, "oauth_id_token_row"));

  /* a stdio server has no sign-in */
  select_item (editor, "transport_row", TRANSPORT_STDIO);
  g_assert_false (shows (editor, "oauth_group"));
  g_assert_false (shows (editor, "idp_group"));

  /* back to the browser */
  select_item (editor, "transport_row", TRANSPORT_HTTP);
  select_item (editor, "oauth_method_row", SIGN_IN_BROWSER);
  g_assert_false (shows (editor, "idp_group"));
  g_assert_true (shows (editor, "oauth_port_row"));

  editor_free (editor);
}

static void
test_client_credentials_secret (Fixture       *f,
                                gconstpointer  data)
{
  PlugboardServerEditor *editor = new_remote (f, "svc");
  g_autoptr(JsonObject) oauth = NULL;
  g_autofree char *text = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *entry_json = NULL;
  g_autoptr(JsonObject) entry = NULL;

  select_item (editor, "oauth_method_row", SIGN_IN_CLIENT_CREDENTIALS);
  set_text (editor, "oauth_client_id_row", "service-client");
  g_assert_false (save_is_sensitive (editor));
  assert_message_has (editor, "client secret");
  g_assert_false (gtk_widget_get_sensitive (child (editor, "try_button")));
  /* a public client can be tried at once */
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_NONE);
  g_assert_true (gtk_widget_get_sensitive (child (editor, "try_button")));
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_SECRET_BASIC);
  set_text (editor, "oauth_secret_row", CLIENT_SECRET);
  /* a secret typed is stored on Save only: nothing to try with yet */
  g_assert_true (save_is_sensitive (editor));
  g_assert_false (gtk_widget_get_sensitive (child (editor, "try_button")));
  set_text (editor, "oauth_scopes_row", "mcp:read mcp:write");
  select_item (editor, "oauth_dpop_row", 2);

  /* the entry the fields make (as Paste JSON shows it): a reference */
  entry = plugboard_server_editor_dup_entry (editor, NULL);
  g_assert_nonnull (entry);
  entry_json = object_to_string (entry);
  g_assert_null (strstr (entry_json, CLIENT_SECRET));
  g_assert_nonnull (strstr (entry_json, "${secret:svc.clientSecret}"));

  save_ok (editor);
  oauth = saved_oauth (f, "svc");
  text = object_to_string (oauth);
  g_assert_cmpstr (text, ==,
                   "{\"clientId\":\"service-client\",\"scopes\":[\"mcp:read\",\"mcp:write\"],"
                   "\"grant\":\"client_credentials\",\"tokenEndpointAuthMethod\":\"client_secret_basic\","
                   "\"clientSecret\":\"${secret:svc.clientSecret}\",\"dpop\":false}");

  stored = lookup_secret ("svc.clientSecret");
  g_assert_cmpstr (stored, ==, CLIENT_SECRET);
  assert_nowhere (f, CLIENT_SECRET);

  editor_free (editor);
  clear_secret ("svc.clientSecret");
}

static void
test_private_key (Fixture       *f,
                  gconstpointer  data)
{
  PlugboardServerEditor *editor = new_remote (f, "keyed");
  g_autofree char *ec_pem = make_key (GNUTLS_PK_EC, GNUTLS_CURVE_TO_BITS (GNUTLS_ECC_CURVE_SECP256R1));
  g_autofree char *rsa_pem = make_key (GNUTLS_PK_RSA, 2048);
  g_autofree char *small_pem = make_key (GNUTLS_PK_RSA, 1024);
  g_autofree char *p384_pem = make_key (GNUTLS_PK_EC, GNUTLS_CURVE_TO_BITS (GNUTLS_ECC_CURVE_SECP384R1));
  g_autofree char *key_file = g_build_filename (f->dirs.root, "client-key.pem", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (key_file);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) oauth = NULL;
  g_autofree char *stored = NULL;
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (editor));
  g_autofree char *before = NULL;

  select_item (editor, "oauth_method_row", SIGN_IN_CLIENT_CREDENTIALS);
  set_text (editor, "oauth_client_id_row", "keyed-client");
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_PRIVATE_KEY_JWT);
  g_assert_false (save_is_sensitive (editor));
  assert_message_has (editor, "private key");

  /* not a PEM key: refused, saying why */
  gdk_clipboard_set_text (clipboard, "hello, I am not a key");
  g_free (before);
  before = g_strdup (key_subtitle (editor));
  g_signal_emit_by_name (child (editor, "oauth_key_paste_button"), "clicked");
  TEST_WAIT_UNTIL (g_strcmp0 (key_subtitle (editor), before) != 0);
  g_test_message ("%s", key_subtitle (editor));
  g_assert_nonnull (strstr (key_subtitle (editor), "not a PEM private key"));
  assert_message_has (editor, "not a PEM private key");
  g_assert_false (save_is_sensitive (editor));
  g_assert_true (gtk_widget_has_css_class (child (editor, "oauth_key_row"), "error"));

  /* a broken PEM, an RSA key too small, a curve not signed with */
  g_assert_false (plugboard_server_editor_set_private_key (editor,
                                                           "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
                                                           &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (strstr (error->message, "AAAA"));
  g_clear_error (&error);
  g_assert_false (plugboard_server_editor_set_private_key (editor, small_pem, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "1024"));
  assert_message_has (editor, "2048");
  g_clear_error (&error);
  g_assert_false (plugboard_server_editor_set_private_key (editor, p384_pem, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (save_is_sensitive (editor));

  /* an RSA key from a file: RS256; the file is not referenced */
  test_write_file (key_file, rsa_pem);
  plugboard_server_editor_load_private_key_async (editor, file, NULL, test_result_cb, &result);
  g_assert_true (plugboard_server_editor_load_private_key_finish (editor, test_wait_result (&result, "the key file"), &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (key_subtitle (editor), "RS256"));
  g_assert_true (save_is_sensitive (editor));

  /* pasted, an EC key replaces it: ES256 */
  gdk_clipboard_set_text (clipboard, ec_pem);
  g_free (before);
  before = g_strdup (key_subtitle (editor));
  g_signal_emit_by_name (child (editor, "oauth_key_paste_button"), "clicked");
  TEST_WAIT_UNTIL (g_strcmp0 (key_subtitle (editor), before) != 0);
  g_assert_nonnull (strstr (key_subtitle (editor), "ES256"));
  g_assert_null (shown_message (editor));
  gdk_clipboard_set_text (clipboard, "");

  save_ok (editor);
  oauth = saved_oauth (f, "keyed");
  g_assert_cmpstr (json_object_get_string_member (oauth, "tokenEndpointAuthMethod"), ==, "private_key_jwt");
  g_assert_cmpstr (json_object_get_string_member (oauth, "privateKey"), ==, "${secret:keyed.privateKey}");
  g_assert_cmpstr (json_object_get_string_member (oauth, "signingAlgorithm"), ==, "ES256");
  g_assert_false (json_object_has_member (oauth, "clientSecret"));
  stored = lookup_secret ("keyed.privateKey");
  g_assert_cmpstr (stored, ==, g_strstrip (ec_pem));
  g_remove (key_file);
  assert_nowhere (f, "PRIVATE KEY");

  editor_free (editor);
  clear_secret ("keyed.privateKey");
}

static void
test_workload_and_enterprise (Fixture       *f,
                              gconstpointer  data)
{
  PlugboardServerEditor *editor = new_remote (f, "wif");
  g_autoptr(JsonObject) oauth = NULL;
  g_autofree char *text = NULL;
  g_autofree char *stored = NULL;

  select_item (editor, "oauth_method_row", SIGN_IN_WORKLOAD);
  g_assert_cmpuint (selected (editor, "oauth_auth_method_row"), ==, CLIENT_AUTH_SECRET_BASIC);
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_NONE);
  set_text (editor, "oauth_client_id_row", "workload");
  set_text (editor, "oauth_assertion_row", "/var/run/secrets/tokens/mcp");
  save_ok (editor);
  oauth = saved_oauth (f, "wif");
  text = object_to_string (oauth);
  g_assert_cmpstr (text, ==,
                   "{\"clientId\":\"workload\",\"grant\":\"jwt_bearer\",\"tokenEndpointAuthMethod\":\"none\","
                   "\"assertion\":{\"file\":\"/var/run/secrets/tokens/mcp\"}}");
  editor_free (editor);
  g_clear_pointer (&oauth, json_object_unref);
  g_clear_pointer (&text, g_free);

  editor = new_remote (f, "corp");
  select_item (editor, "oauth_method_row", SIGN_IN_ENTERPRISE);
  select_item (editor, "oauth_auth_method_row", CLIENT_AUTH_NONE);
  set_text (editor, "oauth_client_id_row", "mcp-client");
  /* what is missing is said, row by row */
  g_assert_false (save_is_sensitive (editor));
  assert_message_has (editor, "issuer");
  set_text (editor, "oauth_idp_issuer_row", "https://idp.example.com");
  assert_message_has (editor, "identity provider");
  set_text (editor, "oauth_idp_client_id_row", "plugboard-at-idp");
  assert_message_has (editor, "ID token");
  set_text (editor, "oauth_idp_secret_row", IDP_SECRET);
  set_text (editor, "oauth_id_token_row", "get-id-token --audience 'mcp server'");
  save_ok (editor);
  oauth = saved_oauth (f, "corp");
  text = object_to_string (oauth);
  g_assert_cmpstr (text, ==,
                   "{\"clientId\":\"mcp-client\",\"grant\":\"enterprise\",\"tokenEndpointAuthMethod\":\"none\","
                   "\"idp\":{\"issuer\":\"https://idp.example.com\",\"clientId\":\"plugboard-at-idp\","
                   "\"clientSecret\":\"${secret:corp.idpClientSecret}\","
                   "\"idToken\":{\"command\":[\"get-id-token\",\"--audience\",\"mcp server\"]}}}");
  stored = lookup_secret ("corp.idpClientSecret");
  g_assert_cmpstr (stored, ==, IDP_SECRET);
  assert_nowhere (f, IDP_SECRET);
  editor_free (editor);
  clear_secret ("corp.idpClientSecret");
}

static const char edit_settings[] =
  "{\"mcpServers\": {\"corp\": {\"type\": \"http\", \"url\": \"https://mcp.example.com/mcp\",\n"
  "  \"oauth\": {\"grant\": \"enterprise\", \"clientId\": \"mcp-client\", \"x-team\": \"blue\",\n"
  "    \"tokenEndpointAuthMethod\": \"client_secret_post\", \"clientSecret\": \"${secret:corp.clientSecret}\",\n"
  "    \"scopes\": [\"tools\"], \"dpop\": true,\n"
  "    \"idp\": {\"issuer\": \"https://idp.example.com\", \"tokenEndpoint\": \"https://idp.example.com/token\",\n"
  "      \"clientId\": \"at-idp\", \"clientSecret\": \"${secret:corp.idpClientSecret}\", \"x-idp\": 1,\n"
  "      \"idToken\": {\"env\": \"CORP_ID_TOKEN\"}}}}}}";

static void
test_edit_loads_every_field (Fixture       *f,
                             gconstpointer  data)
{
  PlugboardServerEditor *editor;
  McpServerConfig *config;
  g_autoptr(JsonObject) oauth = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  test_write_file (f->dirs.user_file, edit_settings);
  load_settings (f);
  config = mcp_settings_lookup_in_scope (f->settings, "corp", MCP_CONFIG_SCOPE_USER);
  g_assert_nonnull (config);
  editor = editor_new (f, config);

  g_assert_cmpuint (selected (editor, "oauth_method_row"), ==, SIGN_IN_ENTERPRISE);
  g_assert_cmpstr (get_text (editor, "oauth_client_id_row"), ==, "mcp-client");
  g_assert_cmpuint (selected (editor, "oauth_auth_method_row"), ==, CLIENT_AUTH_SECRET_POST);
  g_assert_cmpstr (get_text (editor, "oauth_scopes_row"), ==, "tools");
  g_assert_cmpuint (selected (editor, "oauth_dpop_row"), ==, 1);
  g_assert_cmpstr (get_text (editor, "oauth_idp_issuer_row"), ==, "https://idp.example.com");
  g_assert_cmpstr (get_text (editor, "oauth_idp_token_endpoint_row"), ==, "https://idp.example.com/token");
  g_assert_cmpstr (get_text (editor, "oauth_idp_client_id_row"), ==, "at-idp");
  g_assert_cmpuint (selected (editor, "oauth_id_token_source_row"), ==, 2);
  g_assert_cmpstr (get_text (editor, "oauth_id_token_row"), ==, "CORP_ID_TOKEN");
  /* the stored secrets show as such, never a value */
  g_assert_true (shows (editor, "oauth_secret_stored_row"));
  g_assert_false (shows (editor, "oauth_secret_row"));
  g_assert_cmpstr (adw_action_row_get_subtitle (child (editor, "oauth_secret_stored_row")), ==, "Stored in the keyring");
  g_assert_true (shows (editor, "oauth_idp_secret_stored_row"));
  g_assert_cmpstr (get_text (editor, "oauth_secret_row"), ==, "");
  g_assert_true (save_is_sensitive (editor));
  g_assert_null (shown_message (editor));

  /* saved unchanged: the same object, unknown members kept */
  oauth = saved_oauth (f, "corp");
  before = object_to_string (oauth);
  save_ok (editor);
  editor_free (editor);
  g_clear_pointer (&oauth, json_object_unref);
  oauth = saved_oauth (f, "corp");
  after = object_to_string (oauth);
  g_assert_cmpstr (after, ==, before);
}

static void
test_replace_and_remove (Fixture       *f,
                         gconstpointer  data)
{
  PlugboardServerEditor *editor;
  McpServerConfig *config;
  g_autoptr(JsonObject) oauth = NULL;
  g_autofree char *stored = NULL;

  store_secret ("corp.clientSecret", "old-client-secret");
  store_secret ("corp.idpClientSecret", "old-idp-secret");
  test_write_file (f->dirs.user_file, edit_settings);
  load_settings (f);
  config = mcp_settings_lookup_in_scope (f->settings, "corp", MCP_CONFIG_SCOPE_USER);
  editor = editor_new (f, config);

  /* replace the client secret: a new ID, the old secret cleared */
  g_signal_emit_by_name (child (editor, "oauth_secret_replace_button"), "clicked");
  g_assert_false (shows (editor, "oauth_secret_stored_row"));
  g_assert_true (shows (editor, "oauth_secret_row"));
  set_text (editor, "oauth_secret_row", REPLACED_SECRET);
  /* remove the IdP's: the member goes, and its secret */
  g_signal_emit_by_name (child (editor, "oauth_idp_secret_remove_button"), "clicked");
  g_assert_false (shows (editor, "oauth_idp_secret_stored_row"));
  save_ok (editor);
  editor_free (editor);

  oauth = saved_oauth (f, "corp");
  g_assert_cmpstr (json_object_get_string_member (oauth, "clientSecret"), ==, "${secret:corp.clientSecret-2}");
  g_assert_false (json_object_has_member (json_object_get_object_member (oauth, "idp"), "clientSecret"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (oauth, "idp"), "x-idp"), ==, 1);
  stored = lookup_secret ("corp.clientSecret-2");
  g_assert_cmpstr (stored, ==, REPLACED_SECRET);
  TEST_WAIT_UNTIL (secret_gone ("corp.clientSecret"));
  TEST_WAIT_UNTIL (secret_gone ("corp.idpClientSecret"));
  assert_nowhere (f, REPLACED_SECRET);

  clear_secret ("corp.clientSecret-2");
}

static void
test_back_to_browser (Fixture       *f,
                      gconstpointer  data)
{
  PlugboardServerEditor *editor;
  McpServerConfig *config;
  g_autoptr(JsonObject) oauth = NULL;
  g_autofree char *text = NULL;

  test_write_file (f->dirs.user_file, edit_settings);
  load_settings (f);
  config = mcp_settings_lookup_in_scope (f->settings, "corp", MCP_CONFIG_SCOPE_USER);
  editor = editor_new (f, config);
  select_item (editor, "oauth_method_row", SIGN_IN_BROWSER);
  select_item (editor, "oauth_dpop_row", 0);
  g_assert_false (shows (editor, "idp_group"));
  save_ok (editor);
  editor_free (editor);

  oauth = saved_oauth (f, "corp");
  text = object_to_string (oauth);
  g_assert_cmpstr (text, ==, "{\"clientId\":\"mcp-client\",\"x-team\":\"blue\",\"scopes\":[\"tools\"]}");
}

static void
test_failed_save_leaves_no_secret (Fixture       *f,
                                   gconstpointer  data)
{
  PlugboardServerEditor *editor = new_remote (f, "broken");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  select_item (editor, "oauth_method_row", SIGN_IN_CLIENT_CREDENTIALS);
  set_text (editor, "oauth_client_id_row", "service-client");
  set_text (editor, "oauth_secret_row", CLIENT_SECRET);
  g_assert_true (save_is_sensitive (editor));

  /* the file turns bad behind the editor's back: the engine refuses it */
  test_write_file (f->dirs.user_file, "{\"mcpServers\": {");
  g_assert_false (save_editor (editor, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));
  g_assert_cmpstr (shown_message (editor), ==, error->message);
  g_file_get_contents (f->dirs.user_file, &contents, NULL, NULL);
  g_assert_cmpstr (contents, ==, "{\"mcpServers\": {");
  /* the secret stored first is taken back out */
  TEST_WAIT_UNTIL (secret_gone ("broken.clientSecret"));
  assert_nowhere (f, CLIENT_SECRET);

  editor_free (editor);
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

  /* ui_test_init (), with a writer that also keeps every line */
  log_text = g_string_new (NULL);
  g_log_set_writer_func (record_log_cb, NULL, NULL);
  gtk_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (fatal_handler_cb, NULL);
  adw_init ();
  test_set_hang_bound (30);

#define ADD(path, func) \
  g_test_add ("/ui/server-editor-sign-in/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("methods-show-rows", test_methods_show_rows);
  ADD ("client-credentials-secret", test_client_credentials_secret);
  ADD ("private-key", test_private_key);
  ADD ("workload-and-enterprise", test_workload_and_enterprise);
  ADD ("edit-loads-every-field", test_edit_loads_every_field);
  ADD ("replace-and-remove", test_replace_and_remove);
  ADD ("back-to-browser", test_back_to_browser);
  ADD ("failed-save-leaves-no-secret", test_failed_save_leaves_no_secret);

#undef ADD

  return g_test_run ();
}
