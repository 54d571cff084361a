/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-secret-store"

/* McpSecretStore (issue 26) against a private Secret Service
 * (run-with-keyring.sh), the 0600 file it shares with McpTokenStore, and
 * the fall back to that file where no Secret Service answers. */

#include "config.h"

#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-secret-store.h"
#include "mcp-token-store.h"
#include "test-util.h"

static gboolean
store (McpSecretStore  *self,
       const char      *id,
       const char      *value,
       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_secret_store_store_async (self, id, value, NULL, test_result_cb, &result);
  return mcp_secret_store_store_finish (self, test_wait_result (&result, "store"), error);
}

static char *
lookup (McpSecretStore  *self,
        const char      *id,
        GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_secret_store_lookup_async (self, id, NULL, test_result_cb, &result);
  return mcp_secret_store_lookup_finish (self, test_wait_result (&result, "lookup"), error);
}

static gboolean
clear (McpSecretStore  *self,
       const char      *id,
       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_secret_store_clear_async (self, id, NULL, test_result_cb, &result);
  return mcp_secret_store_clear_finish (self, test_wait_result (&result, "clear"), error);
}

static void
test_ids (void)
{
  g_autofree char *id = mcp_secret_store_make_id ("weather", "API_KEY");
  g_autofree char *odd = mcp_secret_store_make_id ("my server/x", "X-Api Key");
  g_autofree char *long_name = g_strnfill (300, 'a');
  g_autofree char *long_id = mcp_secret_store_make_id (long_name, long_name);
  g_autoptr(McpSecretStore) self = mcp_secret_store_new ("file", "/nonexistent/never-written.json");
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (id, ==, "weather.API_KEY");
  g_assert_cmpstr (odd, ==, "my-server-x.X-Api-Key");
  g_assert_true (mcp_secret_store_id_is_valid (long_id));
  g_assert_true (mcp_secret_store_id_is_valid ("a"));
  g_assert_true (mcp_secret_store_id_is_valid ("a.b_c-D9"));
  g_assert_false (mcp_secret_store_id_is_valid (""));
  g_assert_false (mcp_secret_store_id_is_valid (NULL));
  g_assert_false (mcp_secret_store_id_is_valid ("a b"));
  g_assert_false (mcp_secret_store_id_is_valid ("a}b"));
  g_assert_false (mcp_secret_store_id_is_valid (long_name));

  /* Refused before anything is read or written */
  g_assert_false (store (self, "no good}", "v", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no good}"));
  g_assert_false (g_file_test ("/nonexistent/never-written.json", G_FILE_TEST_EXISTS));
}

static void
test_secret_service (void)
{
  g_autoptr(McpSecretStore) self = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fallback = NULL;
  g_autofree char *value = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *gone = NULL;
  char *direct;

  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL)
    {
      g_test_skip ("not under run-with-keyring.sh");
      return;
    }

  fallback = g_build_filename (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME"), "fallback.json", NULL);
  self = mcp_secret_store_new ("auto", fallback);

  g_assert_true (store (self, "weather.API_KEY", "sk-keyring-secret", &error));
  g_assert_no_error (error);
  value = lookup (self, "weather.API_KEY", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "sk-keyring-secret");

  /* In the keyring under the documented schema, not in the file */
  direct = secret_password_lookup_sync (&(SecretSchema) { "org.plugboard.Plugboard.Secret", SECRET_SCHEMA_NONE,
                                                           { { "id", SECRET_SCHEMA_ATTRIBUTE_STRING } } },
                                        NULL, &error, "id", "weather.API_KEY", NULL);
  g_assert_no_error (error);
  g_assert_cmpstr (direct, ==, "sk-keyring-secret");
  secret_password_free (direct);
  g_assert_false (g_file_test (fallback, G_FILE_TEST_EXISTS));

  missing = lookup (self, "weather.OTHER", &error);
  g_assert_no_error (error);
  g_assert_null (missing);

  g_assert_true (clear (self, "weather.API_KEY", &error));
  g_assert_no_error (error);
  gone = lookup (self, "weather.API_KEY", &error);
  g_assert_no_error (error);
  g_assert_null (gone);
  /* Clearing what is not there is not an error */
  g_assert_true (clear (self, "weather.API_KEY", &error));
  g_assert_no_error (error);
}

static void
test_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("plugboard-secrets-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "credentials.json", NULL);
  g_autoptr(McpSecretStore) self = mcp_secret_store_new ("file", path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *value = NULL;
  g_autofree char *after = NULL;
  g_autofree char *kept = NULL;
  GStatBuf st;

  /* McpTokenStore's entries in the same file stay as they are */
  test_write_file (path, "{\"version\": 1, \"entries\": {\"tokens\\nx\\nhttps://x\": {\"access_token\": \"t\"}}}");
  g_assert_true (store (self, "a.KEY", "value-a", &error));
  g_assert_no_error (error);
  g_assert_true (store (self, "b.KEY", "value-b", &error));
  g_assert_no_error (error);
  value = lookup (self, "a.KEY", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "value-a");

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"secrets\""));
  g_assert_nonnull (strstr (contents, "\"access_token\""));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_assert_true (clear (self, "a.KEY", &error));
  g_assert_no_error (error);
  after = lookup (self, "a.KEY", &error);
  g_assert_no_error (error);
  g_assert_null (after);
  kept = lookup (self, "b.KEY", &error);
  g_assert_cmpstr (kept, ==, "value-b");

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_file_broken (void)
{
  g_autofree char *dir = g_dir_make_tmp ("plugboard-secrets-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "credentials.json", NULL);
  g_autoptr(McpSecretStore) self = mcp_secret_store_new ("file", path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *value = NULL;

  /* Not JSON: an error naming the file, and the file left alone */
  test_write_file (path, "{\"secrets\": {\"a.KEY\": \"x\"");
  g_assert_false (store (self, "a.KEY", "new", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"secrets\": {\"a.KEY\": \"x\"");

  /* "secrets" of the wrong shape, and a value that is not a string */
  test_write_file (path, "{\"secrets\": []}");
  value = lookup (self, "a.KEY", &error);
  g_assert_null (value);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "$.secrets"));
  g_clear_error (&error);

  test_write_file (path, "{\"secrets\": {\"a.KEY\": 987654321}}");
  value = lookup (self, "a.KEY", &error);
  g_assert_null (value);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "a.KEY"));
  g_assert_null (strstr (error->message, "987654321"));

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* In a process of its own, with a session bus that is not there */
static void
test_fallback (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("plugboard-secrets-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "credentials.json", NULL);
      g_autoptr(McpSecretStore) self = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *value = NULL;

      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus", TRUE);
      self = mcp_secret_store_new ("auto", path);
      g_assert_true (store (self, "x.KEY", "fallback-value", &error));
      g_assert_no_error (error);
      value = lookup (self, "x.KEY", &error);
      g_assert_cmpstr (value, ==, "fallback-value");
      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      g_remove (path);
      g_rmdir (dir);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  /* Said once, naming the file, never the value */
  g_test_trap_assert_stderr ("*No Secret Service is available*credentials.json*");
  g_test_trap_assert_stderr_unmatched ("*fallback-value*");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/secret-store/ids", test_ids);
  g_test_add_func ("/secret-store/secret-service", test_secret_service);
  g_test_add_func ("/secret-store/file", test_file);
  g_test_add_func ("/secret-store/file-broken", test_file_broken);
  g_test_add_func ("/secret-store/fallback", test_fallback);

  return g_test_run ();
}
