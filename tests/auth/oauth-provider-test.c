/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "oauth-provider-test"

#include "config.h"

#include "oauth-provider-test.h"

#include <glib/gstdio.h>

#include "mcp-content.h"
#include "mcp-http-transport.h"
#include "mcp-tool-result.h"
#include "test-engine.h"
#include "test-util.h"

/* What the McpOAuthProvider tests share (oauth-provider-test.h). */

static void
browsed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The listener answers 200 when it took the code, 400 for a wrong state. */
  mcp_oauth_fixture_browse_finish (result, &error);
  if (error != NULL)
    g_test_message ("browse: %s", error->message);
}

void
oauth_test_open_url (McpOAuthProvider *provider,
                     const char       *url,
                     gpointer          user_data)
{
  OAuthTest *test = user_data;

  test->opened++;
  g_free (test->last_url);
  test->last_url = g_strdup (url);
  if (test->browse)
    mcp_oauth_fixture_browse_async (url, NULL, browsed_cb, test);
}

void
oauth_test_setup (OAuthTest            *test,
                  McpOAuthFixtureFlags  flags)
{
  g_autoptr(GError) error = NULL;

  test->fixture = mcp_oauth_fixture_new (flags, &error);
  g_assert_no_error (error);
  test->dir = g_dir_make_tmp ("plugboard-oauth-XXXXXX", &error);
  g_assert_no_error (error);
  test->store_path = g_build_filename (test->dir, "credentials.json", NULL);
  test->store = mcp_token_store_new ("file", test->store_path);
  test->browse = TRUE;
}

void
oauth_test_teardown (OAuthTest *test)
{
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&test->fixture, mcp_oauth_fixture_free);
  g_clear_object (&test->store);
  g_remove (test->store_path);
  g_rmdir (test->dir);
  g_free (test->store_path);
  g_free (test->dir);
  g_free (test->last_url);
  g_clear_object (&test->trace);
}

McpOAuthProvider *
oauth_test_provider_new (OAuthTest  *test,
                         JsonObject *config,
                         gboolean    interactive)
{
  McpOAuthProvider *provider;

  provider = mcp_oauth_provider_new ("fixture", mcp_oauth_fixture_get_mcp_url (test->fixture),
                                     config, test->store);
  mcp_oauth_provider_set_callback_timeout (provider, 5);
  if (interactive)
    mcp_oauth_provider_set_open_url_func (provider, oauth_test_open_url, test, NULL);
  if (test->trace != NULL)
    mcp_oauth_provider_set_trace (provider, test->trace);
  return provider;
}

McpClient *
oauth_test_client_new (OAuthTest        *test,
                       McpOAuthProvider *provider)
{
  g_autoptr(McpTransport) transport = NULL;

  transport = mcp_http_transport_new (mcp_oauth_provider_get_server_url (provider), NULL,
                                      MCP_AUTH_PROVIDER (provider));
  if (test->trace != NULL)
    mcp_transport_set_trace (transport, test->trace);
  return mcp_client_new (transport);
}

char *
oauth_test_client_call (McpClient   *client,
                        const char  *tool,
                        GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) answer = NULL;
  GPtrArray *content;

  mcp_client_call_tool_async (client, tool, NULL, NULL, NULL, test_result_cb, &result);
  answer = mcp_client_call_tool_finish (client, test_wait_result (&result, NULL), error);
  if (answer == NULL)
    return NULL;
  content = mcp_tool_result_get_content (answer);
  g_assert_cmpuint (content->len, >=, 1);
  return g_strdup (mcp_content_get_text (g_ptr_array_index (content, 0)));
}

McpOAuthTokens *
oauth_test_stored_tokens (OAuthTest *test)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthTokens *tokens;

  mcp_token_store_lookup_tokens_async (test->store, "fixture",
                                       mcp_oauth_fixture_get_mcp_url (test->fixture),
                                       NULL, test_result_cb, &result);
  tokens = mcp_token_store_lookup_tokens_finish (test->store, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  return tokens;
}

McpOAuthClientInfo *
oauth_test_stored_client (OAuthTest *test)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthClientInfo *client;

  mcp_token_store_lookup_client_async (test->store, "fixture",
                                       mcp_oauth_fixture_get_mcp_url (test->fixture),
                                       NULL, test_result_cb, &result);
  client = mcp_token_store_lookup_client_finish (test->store, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  return client;
}
