/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-grant-secrets"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-secret-store.h"
#include "mcp-server-manager.h"
#include "mcp-token-store.h"
#include "grant-test-server.h"
#include "test-util.h"

/* A grant whose client secret is in the keyring ("clientSecret":
 * "${secret:ID}"), run by the manager's sign-in (plugboard-cli login, the
 * app's Sign In) before the server ever connected: the secret is read
 * from the Secret Service of run-with-keyring.sh, sent to the token
 * endpoint, and written nowhere else. */

#define SECRET_ID "grants-test.client-secret"
#define SECRET_VALUE "kept-in-the-keyring:S3cr3t"

static void
store_secret (void)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_secret_store_store_async (mcp_secret_store_get_default (), SECRET_ID, SECRET_VALUE, NULL,
                                test_result_cb, &result);
  g_assert_true (mcp_secret_store_store_finish (mcp_secret_store_get_default (),
                                                test_wait_result (&result, "the secret to be stored"), &error));
  g_assert_no_error (error);
}

static void
open_url_cb (McpOAuthProvider *provider,
             const char       *url,
             gpointer          user_data)
{
  g_error ("A grant opened a browser: %s", url);
}

static void
assert_file_tree_has_no (const char *path,
                         const char *secret)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    {
      g_autofree char *contents = NULL;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL))
        g_assert_null (g_strstr_len (contents, length, secret));
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (!g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        assert_file_tree_has_no (child, secret);
    }
}

static void
test_sign_in_with_keyring_secret (void)
{
  g_autoptr(As) as = as_new ();
  g_autofree char *dir = g_dir_make_tmp ("grant-secrets-XXXXXX", NULL);
  g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
  g_autofree char *cache_path = g_build_filename (dir, "needs-auth.json", NULL);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", store_path);
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree guchar *decoded = NULL;
  g_autofree char *pair = NULL;
  g_autofree char *stored = NULL;
  gsize length;
  Request *request;

  store_secret ();

  as_answer (as, "/.well-known/oauth-protected-resource/mcp", 200,
             "{\"resource\":\"%BASE%/mcp\",\"authorization_servers\":[\"%BASE%\"]}", NULL);
  as_answer (as, "/.well-known/oauth-authorization-server", 200,
             "{\"issuer\":\"%BASE%\",\"authorization_endpoint\":\"%BASE%/authorize\","
             "\"token_endpoint\":\"%BASE%/token\",\"grant_types_supported\":[\"client_credentials\"]}", NULL);
  as_answer (as, "/token", 200, "{\"access_token\":\"manager-grant-token\",\"token_type\":\"Bearer\"}", NULL);

  /* Disabled: no connection attempt has read the secret before the sign-in */
  json = g_strdup_printf ("{\"type\":\"http\",\"url\":\"%s/mcp\",\"enabled\":false,\"oauth\":{"
                          "\"grant\":\"client_credentials\",\"clientId\":\"svc\","
                          "\"clientSecret\":\"${secret:" SECRET_ID "}\"}}", as->base);
  node = mcp_json_parse (json, strlen (json), &error);
  g_assert_no_error (error);
  config = mcp_server_config_new_from_json ("grants", MCP_CONFIG_SCOPE_USER, json_node_get_object (node),
                                            "test-settings.json", "$.mcpServers.grants", &error);
  g_assert_no_error (error);
  g_list_store_append (configs, config);

  manager = g_object_new (MCP_TYPE_SERVER_MANAGER, "token-store", store, "needs-auth-cache-path", cache_path,
                          "connect-timeout", 10000, NULL);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (configs));
  mcp_server_manager_sign_in_async (manager, "grants", open_url_cb, NULL, NULL, test_result_cb, &result);
  g_assert_true (mcp_server_manager_sign_in_finish (manager, test_wait_result (&result, "the sign-in"), &error));
  g_assert_no_error (error);

  request = as_request (as, as->requests->len - 1);
  g_assert_cmpstr (request->path, ==, "/token");
  g_assert_cmpstr (param (request, "grant_type"), ==, "client_credentials");
  g_assert_true (g_str_has_prefix (request->authorization, "Basic "));
  decoded = g_base64_decode (request->authorization + 6, &length);
  pair = g_strndup ((const char *) decoded, length);
  g_assert_cmpstr (pair, ==, "svc:kept-in-the-keyring%3AS3cr3t");

  /* The tokens are stored; the client secret is in no file */
  g_assert_true (g_file_get_contents (store_path, &stored, NULL, NULL));
  g_assert_nonnull (strstr (stored, "manager-grant-token"));
  assert_file_tree_has_no (dir, SECRET_VALUE);
  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") != NULL)
    {
      g_autofree char *data = g_build_filename (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME"), "data", "plugboard", NULL);

      /* (the keyring's own files are encrypted; Plugboard's fallback file must not have it) */
      assert_file_tree_has_no (data, SECRET_VALUE);
    }

  g_clear_object (&result);
  mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
  g_assert_true (mcp_server_manager_close_finish (manager, test_wait_result (&result, "the manager"), NULL));
  g_unlink (store_path);
  g_unlink (cache_path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");

  g_test_add_func ("/auth/grant-secrets/sign-in-with-keyring-secret", test_sign_in_with_keyring_secret);

  return g_test_run ();
}
