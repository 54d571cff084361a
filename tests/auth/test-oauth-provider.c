/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-provider"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-oauth-fixture.h"
#include "mcp-oauth-provider.h"
#include "mcp-tool-result.h"
#include "test-engine.h"
#include "test-util.h"

/* McpOAuthProvider end to end: McpClient over McpHttpTransport against the
 * in-process authorization server and protected MCP server of
 * tests/fixtures/mcp-oauth-fixture, with a file token store in a temporary
 * directory and the fixture's headless "browser". */

#include "oauth-provider-test.h"

static gboolean
provider_sign_in (McpOAuthProvider  *provider,
                  GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  return mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, NULL), error);
}

static gboolean
provider_load (McpOAuthProvider *provider)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean found;

  mcp_oauth_provider_load_async (provider, NULL, test_result_cb, &result);
  found = mcp_oauth_provider_load_finish (provider, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  return found;
}

/* Nothing secret in a message: no token and no client secret. */
static void
assert_no_secret (const char           *message,
                  const McpOAuthTokens *tokens)
{
  g_assert_null (strstr (message, "pre-secret"));
  if (tokens != NULL)
    {
      g_assert_null (strstr (message, tokens->access_token));
      if (tokens->refresh_token != NULL)
        g_assert_null (strstr (message, tokens->refresh_token));
    }
}

/* The first request's 401 starts the whole sign-in: discovery, DCR,
 * authorize with PKCE S256, state and resource, the code exchange; the
 * request is retried with the token and everything is stored. */
static void
test_sign_in_on_challenge (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *bearer = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_false (mcp_oauth_provider_get_signed_in (provider));
  client = oauth_test_client_new (&test, provider);

  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpuint (test.opened, ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-code"), ==, 1);

  /* What the authorization request carried. */
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (test.fixture, "code_challenge_method"), ==, "S256");
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (test.fixture, "resource"), ==,
                   mcp_oauth_fixture_get_mcp_url (test.fixture));
  /* The challenge's scope wins over scopes_supported. */
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (test.fixture, "scope"), ==, "read");
  g_assert_cmpuint (strlen (mcp_oauth_fixture_last_authorize_param (test.fixture, "state")), >=, 40);
  g_assert_true (g_str_has_prefix (mcp_oauth_fixture_last_authorize_param (test.fixture, "redirect_uri"),
                                   "http://127.0.0.1:"));

  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "client=client-"));
  g_assert_nonnull (strstr (text, "scope=read"));

  tokens = oauth_test_stored_tokens (&test);
  g_assert_nonnull (tokens);
  g_assert_nonnull (tokens->refresh_token);
  bearer = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));
  g_assert_cmpstr (bearer + strlen ("Bearer "), ==, tokens->access_token);
  info = oauth_test_stored_client (&test);
  g_assert_nonnull (info);
  g_assert_cmpint (info->kind, ==, MCP_OAUTH_CLIENT_DYNAMIC);
  g_assert_cmpstr (info->issuer, ==, mcp_oauth_fixture_get_issuer (test.fixture));

  test_client_close (client, NULL);
  oauth_test_teardown (&test);
}

/* A new provider on the same store uses what is stored: no sign-in. A
 * second sign-in reuses the registered client. */
static void
test_stored_tokens_reused (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) first = NULL;
  g_autoptr(McpOAuthProvider) second = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint challenges;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  first = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (first, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (test.opened, ==, 1);
  /* The sign-in asked the server for its challenge. */
  challenges = mcp_oauth_fixture_count (test.fixture, "mcp-401");
  g_assert_cmpuint (challenges, ==, 1);

  second = oauth_test_provider_new (&test, NULL, FALSE);
  g_assert_true (provider_load (second));
  g_assert_true (mcp_oauth_provider_get_signed_in (second));
  client = oauth_test_client_new (&test, second);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp-401"), ==, challenges);
  test_client_close (client, NULL);

  /* Signing in again keeps the registered client. */
  mcp_oauth_provider_set_open_url_func (second, oauth_test_open_url, &test, NULL);
  g_assert_true (provider_sign_in (second, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 2);

  oauth_test_teardown (&test);
}

/* Stored tokens, not yet loaded: the 401 loads them and the request is
 * retried; a token the server calls expired is refreshed silently. */
static void
test_refresh_on_401 (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) first = NULL;
  g_autoptr(McpOAuthProvider) second = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpOAuthTokens) before = NULL;
  g_autoptr(McpOAuthTokens) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  first = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (first, &error));
  g_assert_no_error (error);
  before = oauth_test_stored_tokens (&test);

  /* Not loaded beforehand: the first 401 loads. Not interactive. */
  second = oauth_test_provider_new (&test, NULL, FALSE);
  client = oauth_test_client_new (&test, second);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 0);

  mcp_oauth_fixture_expire_access_tokens (test.fixture);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_nonnull (text);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 1);

  /* The new tokens are stored. */
  after = oauth_test_stored_tokens (&test);
  g_assert_cmpstr (after->access_token, !=, before->access_token);
  g_assert_nonnull (after->refresh_token);

  test_client_close (client, NULL);
  oauth_test_teardown (&test);
}

/* Tokens issued already expired: loading sees the expiry and refreshes
 * before trying them. */
static void
test_expired_token_refreshed (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) first = NULL;
  g_autoptr(McpOAuthProvider) second = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_EXPIRED_TOKEN);
  first = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (first, &error));
  g_assert_no_error (error);

  /* Refreshed tokens live. */
  mcp_oauth_fixture_set_flags (test.fixture, MCP_OAUTH_FIXTURE_NONE);
  second = oauth_test_provider_new (&test, NULL, FALSE);
  client = oauth_test_client_new (&test, second);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 1);

  test_client_close (client, NULL);
  oauth_test_teardown (&test);
}

/* While the provider lives, tokens are renewed a minute before they
 * expire, without a request having to fail first. */
static void
test_refresh_before_expiry (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthTokens) before = NULL;
  g_autoptr(McpOAuthTokens) after = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  /* Due one second after the sign-in. */
  mcp_oauth_fixture_set_token_lifetime (test.fixture, 61);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);
  before = oauth_test_stored_tokens (&test);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 0);

  TEST_WAIT_UNTIL (mcp_oauth_fixture_count (test.fixture, "token-refresh") > 0);

  /* Let the answer be stored. */
  while (TRUE)
    {
      g_clear_pointer (&after, mcp_oauth_tokens_free);
      after = oauth_test_stored_tokens (&test);
      if (g_strcmp0 (after->access_token, before->access_token) != 0)
        break;
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpint (after->expires_at, >, before->expires_at - 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp-401"), ==, 1);

  oauth_test_teardown (&test);
}

/* A refused refresh without a person: needs-auth, saying to sign in again;
 * nothing secret in the message. */
static void
test_refresh_refused (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) first = NULL;
  g_autoptr(McpOAuthProvider) second = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  first = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (first, &error));
  g_assert_no_error (error);
  tokens = oauth_test_stored_tokens (&test);

  mcp_oauth_fixture_expire_access_tokens (test.fixture);
  mcp_oauth_fixture_set_flags (test.fixture, MCP_OAUTH_FIXTURE_REFRESH_REFUSED);
  second = oauth_test_provider_new (&test, NULL, FALSE);
  g_assert_true (provider_load (second));
  client = oauth_test_client_new (&test, second);
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "sign in"));
  g_assert_nonnull (strstr (error->message, "invalid_grant"));
  assert_no_secret (error->message, tokens);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 1);

  oauth_test_teardown (&test);
}

/* No person to ask: a 401 with nothing stored is needs-auth at once, and
 * nothing is opened or registered. */
static void
test_not_interactive (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  provider = oauth_test_provider_new (&test, NULL, FALSE);
  client = oauth_test_client_new (&test, provider);
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, "fixture"));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "prm"), ==, 0);

  oauth_test_teardown (&test);
}

/* A sign-in that fails stores nothing and says what failed. */
static void
check_failed_sign_in (McpOAuthFixtureFlags  flags,
                      gint                  code,
                      const char           *expected)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, flags);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  mcp_oauth_provider_set_callback_timeout (provider, 2);
  g_assert_false (provider_sign_in (provider, &error));
  g_assert_error (error, MCP_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "fixture"));
  assert_no_secret (error->message, NULL);
  g_assert_false (mcp_oauth_provider_get_signed_in (provider));

  tokens = oauth_test_stored_tokens (&test);
  g_assert_null (tokens);
  info = oauth_test_stored_client (&test);
  g_assert_null (info);

  oauth_test_teardown (&test);
}

static void
test_no_s256 (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_NO_S256, MCP_ERROR_NEEDS_AUTH, "S256");
}

static void
test_dcr_refused (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_DCR_REFUSED, MCP_ERROR_NEEDS_AUTH, "invalid_client_metadata");
}

static void
test_wrong_state (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_WRONG_STATE, MCP_ERROR_TIMEOUT, "state");
}

static void
test_no_prm (void)
{
  check_failed_sign_in (MCP_OAUTH_FIXTURE_NO_PRM, MCP_ERROR_NEEDS_AUTH, "publishes no OAuth metadata");
}

/* The 2026-07-28 additions. */

/* A sign-in refused before its code reached the token endpoint: what the
 * error says, that no token was asked for and nothing was stored. */
static void
check_refused_sign_in (McpOAuthFixtureFlags   flags,
                       const char * const    *expected,
                       guint                  authorize_requests)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, flags);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_false (provider_sign_in (provider, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "fixture"));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_nonnull (strstr (error->message, expected[i]));

  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, authorize_requests);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-code"), ==, 0);
  g_assert_false (mcp_oauth_provider_get_signed_in (provider));
  tokens = oauth_test_stored_tokens (&test);
  g_assert_null (tokens);

  oauth_test_teardown (&test);
}

/* RFC 9728 §3.3: metadata naming another resource stops the sign-in before
 * the authorization server is even asked; the error names both. */
static void
test_prm_resource_mismatch (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_WRONG_RESOURCE);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_false (provider_sign_in (provider, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_test_message ("%s", error->message);
  expected = g_strdup_printf ("is for the resource “%s”, not for “%s”",
                             MCP_OAUTH_FIXTURE_OTHER_RESOURCE, mcp_oauth_fixture_get_mcp_url (test.fixture));
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "fixture"));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "prm"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as-metadata"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-code"), ==, 0);
  g_assert_cmpuint (test.opened, ==, 0);

  oauth_test_teardown (&test);
}

/* RFC 8414 §3.3: AS metadata that names another issuer than the one its
 * URL was built from is refused before any registration, authorization or
 * token request; the error names both. */
static void
test_metadata_issuer_mismatch (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_WRONG_METADATA_ISSUER);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  client = oauth_test_client_new (&test, provider);
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_test_message ("%s", error->message);
  expected = g_strdup_printf ("names “%s” as its issuer, not “%s”",
                              MCP_OAUTH_FIXTURE_OTHER_ISSUER, mcp_oauth_fixture_get_issuer (test.fixture));
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "fixture"));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as-metadata"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-code"), ==, 0);
  g_assert_cmpuint (test.opened, ==, 0);
  g_assert_false (mcp_oauth_provider_get_signed_in (provider));

  oauth_test_teardown (&test);
}

static McpOAuthClientInfo *
stored_issuer_client (OAuthTest  *test,
                      const char *issuer)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthClientInfo *client;

  mcp_token_store_lookup_issuer_client_async (test->store, "fixture",
                                              mcp_oauth_fixture_get_mcp_url (test->fixture),
                                              issuer, NULL, test_result_cb, &result);
  client = mcp_token_store_lookup_issuer_client_finish (test->store, test_wait_result (&result, NULL), &error);
  g_assert_no_error (error);
  return client;
}

/* SEP-2352: signed in at one authorization server, the server moves to
 * another (its PRM names it, our tokens get 401). The provider learns it
 * from the PRM, registers at the new one, never shows it the old client_id
 * and does not refresh at the old one; the clients are stored per issuer. */
static void
test_authorization_server_moved (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpOAuthClientInfo) first = NULL;
  g_autoptr(McpOAuthClientInfo) second = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  client = oauth_test_client_new (&test, provider);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "client=client-"));
  g_clear_pointer (&text, g_free);

  /* At once, while the tokens are new: no blind retry with them. */
  mcp_oauth_fixture_set_flags (test.fixture, MCP_OAUTH_FIXTURE_SECOND_AS);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "client=as2-client-"));
  g_assert_cmpuint (test.opened, ==, 2);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as2-register"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as2-authorize"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as2-token-code"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "foreign-client"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 0);
  g_assert_true (g_str_has_prefix (mcp_oauth_fixture_last_authorize_param (test.fixture, "client_id"),
                                   "as2-client-"));
  test_client_close (client, NULL);

  /* Each issuer keeps its own client; the tokens are the new server's. */
  first = stored_issuer_client (&test, mcp_oauth_fixture_get_issuer (test.fixture));
  second = stored_issuer_client (&test, mcp_oauth_fixture_get_second_issuer (test.fixture));
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_true (g_str_has_prefix (first->client_id, "client-"));
  g_assert_true (g_str_has_prefix (second->client_id, "as2-client-"));
  tokens = oauth_test_stored_tokens (&test);
  g_assert_cmpstr (tokens->issuer, ==, mcp_oauth_fixture_get_second_issuer (test.fixture));

  oauth_test_teardown (&test);
}

/* A later run: what the store holds is the old server's (tokens and
 * client), and the server has moved since. The new server gets a client
 * of its own, never the stored one; a provider that cannot ask the person
 * says where the server went, without refreshing at the old one. */
static void
test_authorization_server_moved_later (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthProvider) quiet = NULL;
  g_autoptr(McpOAuthProvider) again = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);
  g_clear_object (&provider);
  mcp_oauth_fixture_set_flags (test.fixture, MCP_OAUTH_FIXTURE_SECOND_AS);

  quiet = oauth_test_provider_new (&test, NULL, FALSE);
  client = oauth_test_client_new (&test, quiet);
  g_assert_false (test_client_connect (client, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "another authorization server"));
  g_assert_nonnull (strstr (error->message, mcp_oauth_fixture_get_second_issuer (test.fixture)));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as2-register"), ==, 0);
  g_clear_error (&error);
  g_clear_object (&client);

  again = oauth_test_provider_new (&test, NULL, TRUE);
  client = oauth_test_client_new (&test, again);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "client=as2-client-"));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "as2-register"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "foreign-client"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 0);
  test_client_close (client, NULL);

  oauth_test_teardown (&test);
}

/* RFC 9207: an AS that promises "iss" and sends the right one signs in. */
static void
test_iss_supported (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_ISS_SUPPORTED);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-code"), ==, 1);

  oauth_test_teardown (&test);
}

/* Another issuer in the answer: refused, advertised or not. */
static void
test_iss_wrong (void)
{
  const char * const expected[] = { "names “" MCP_OAUTH_FIXTURE_OTHER_ISSUER "” as its issuer",
                                    "/as”", "refused", NULL };

  check_refused_sign_in (MCP_OAUTH_FIXTURE_ISS_SUPPORTED | MCP_OAUTH_FIXTURE_WRONG_ISS, expected, 1);
  check_refused_sign_in (MCP_OAUTH_FIXTURE_WRONG_ISS, expected, 1);
}

/* No "iss" from an AS that promised it: refused; from one that did not
 * promise it: accepted. */
static void
test_iss_missing (void)
{
  const char * const expected[] = { "does not name its issuer", "/as”", "“iss”", NULL };
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  check_refused_sign_in (MCP_OAUTH_FIXTURE_ISS_SUPPORTED | MCP_OAUTH_FIXTURE_NO_ISS, expected, 1);

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NO_ISS);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-code"), ==, 1);
  oauth_test_teardown (&test);
}

/* The registration asks for refresh tokens; offline_access is requested
 * exactly when the AS lists it in scopes_supported. */
static void
check_offline_access (McpOAuthFixtureFlags  flags,
                      const char           *expected_scope)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) registration = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GHashTable) query = NULL;
  JsonArray *grant_types;

  oauth_test_setup (&test, flags);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);

  registration = json_from_string (mcp_oauth_fixture_last_registration (test.fixture), &error);
  g_assert_no_error (error);
  grant_types = json_object_get_array_member (json_node_get_object (registration), "grant_types");
  g_assert_nonnull (grant_types);
  g_assert_cmpuint (json_array_get_length (grant_types), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (grant_types, 0), ==, "authorization_code");
  g_assert_cmpstr (json_array_get_string_element (grant_types, 1), ==, "refresh_token");

  /* The authorization URL as the browser got it. */
  uri = g_uri_parse (test.last_url, G_URI_FLAGS_NONE, &error);
  g_assert_no_error (error);
  query = g_uri_parse_params (g_uri_get_query (uri), -1, "&", G_URI_PARAMS_WWW_FORM, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (query, "scope"), ==, expected_scope);
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (test.fixture, "scope"), ==, expected_scope);

  oauth_test_teardown (&test);
}

static void
test_offline_access (void)
{
  check_offline_access (MCP_OAUTH_FIXTURE_OFFLINE_ACCESS, "read offline_access");
  check_offline_access (MCP_OAUTH_FIXTURE_NONE, "read");
}

/* Metadata only at the OpenID Connect location still signs in. */
static void
test_oidc_only (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_OIDC_ONLY);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));

  oauth_test_teardown (&test);
}

/* 403 insufficient_scope: a new authorization for the larger scope, then
 * the call is retried. Without a person, a clear needs-auth. */
static void
test_step_up (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *denied = NULL;
  const char *scope;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_INSUFFICIENT_SCOPE);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  client = oauth_test_client_new (&test, provider);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 1);

  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "mcp-403"), ==, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "authorize"), ==, 2);
  scope = mcp_oauth_fixture_last_authorize_param (test.fixture, "scope");
  g_assert_nonnull (strstr (scope, "admin"));
  g_assert_nonnull (strstr (scope, "read"));
  g_assert_nonnull (strstr (text, "admin"));
  test_client_close (client, NULL);
  g_clear_object (&client);

  /* Without a person the same 403 is a clear needs-auth. */
  mcp_oauth_provider_set_open_url_func (provider, NULL, NULL, NULL);
  g_clear_object (&provider);
  g_clear_object (&test.store);
  g_remove (test.store_path);
  test.store = mcp_token_store_new ("file", test.store_path);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  client = oauth_test_client_new (&test, provider);
  g_assert_true (test_client_connect (client, &error));
  mcp_oauth_provider_set_open_url_func (provider, NULL, NULL, NULL);
  denied = oauth_test_client_call (client, "whoami", &error);
  g_assert_null (denied);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, "admin"));
  test_client_close (client, NULL);

  oauth_test_teardown (&test);
}

/* A configured client with its secret: no registration; the client is
 * remembered with the secret (in the store, not in the settings). */
static void
test_pre_registered (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthProvider) again = NULL;
  g_autoptr(JsonObject) config = json_object_new ();
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  json_object_set_string_member (config, "clientId", "pre-registered");
  provider = oauth_test_provider_new (&test, config, TRUE);
  mcp_oauth_provider_set_client_secret (provider, "pre-secret");
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "register"), ==, 0);
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (test.fixture, "client_id"), ==, "pre-registered");

  info = oauth_test_stored_client (&test);
  g_assert_nonnull (info);
  g_assert_cmpint (info->kind, ==, MCP_OAUTH_CLIENT_PRE_REGISTERED);
  g_assert_cmpstr (info->client_secret, ==, "pre-secret");

  /* A new provider finds the secret in the store and refreshes with it. */
  again = oauth_test_provider_new (&test, config, FALSE);
  g_assert_true (provider_load (again));
  mcp_oauth_fixture_expire_access_tokens (test.fixture);
  client = oauth_test_client_new (&test, again);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  text = oauth_test_client_call (client, "whoami", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "client=pre-registered"));
  g_assert_cmpuint (mcp_oauth_fixture_count (test.fixture, "token-refresh"), ==, 1);
  test_client_close (client, NULL);

  oauth_test_teardown (&test);
}

/* Sign-out forgets everything, in memory and in the store. */
static void
test_sign_out (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bearer = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  g_assert_true (provider_sign_in (provider, &error));
  g_assert_no_error (error);

  mcp_oauth_provider_sign_out_async (provider, NULL, test_result_cb, &result);
  g_assert_true (mcp_oauth_provider_sign_out_finish (provider, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);
  g_assert_false (mcp_oauth_provider_get_signed_in (provider));
  bearer = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));
  g_assert_null (bearer);
  tokens = oauth_test_stored_tokens (&test);
  g_assert_null (tokens);
  info = oauth_test_stored_client (&test);
  g_assert_null (info);

  oauth_test_teardown (&test);
}

/* The browser never comes back: a timeout, and the wait can be cancelled. */
static void
test_timeout_and_cancel (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  oauth_test_setup (&test, MCP_OAUTH_FIXTURE_NONE);
  test.browse = FALSE;
  provider = oauth_test_provider_new (&test, NULL, TRUE);
  mcp_oauth_provider_set_callback_timeout (provider, 1);
  g_assert_false (provider_sign_in (provider, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_clear_error (&error);
  g_assert_cmpuint (test.opened, ==, 1);
  g_assert_true (g_str_has_prefix (test.last_url, mcp_oauth_fixture_get_issuer (test.fixture)));

  mcp_oauth_provider_set_callback_timeout (provider, 60);
  mcp_oauth_provider_sign_in_async (provider, cancellable, test_result_cb, &result);
  while (test.opened < 2)
    g_main_context_iteration (NULL, TRUE);
  g_cancellable_cancel (cancellable);
  g_assert_false (mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, NULL), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  oauth_test_teardown (&test);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (30);

  g_test_add_func ("/oauth-provider/sign-in-on-challenge", test_sign_in_on_challenge);
  g_test_add_func ("/oauth-provider/stored-tokens-reused", test_stored_tokens_reused);
  g_test_add_func ("/oauth-provider/refresh-on-401", test_refresh_on_401);
  g_test_add_func ("/oauth-provider/expired-token-refreshed", test_expired_token_refreshed);
  g_test_add_func ("/oauth-provider/refresh-before-expiry", test_refresh_before_expiry);
  g_test_add_func ("/oauth-provider/refresh-refused", test_refresh_refused);
  g_test_add_func ("/oauth-provider/not-interactive", test_not_interactive);
  g_test_add_func ("/oauth-provider/no-s256", test_no_s256);
  g_test_add_func ("/oauth-provider/dcr-refused", test_dcr_refused);
  g_test_add_func ("/oauth-provider/wrong-state", test_wrong_state);
  g_test_add_func ("/oauth-provider/no-prm", test_no_prm);
  g_test_add_func ("/oauth-provider/oidc-only", test_oidc_only);
  g_test_add_func ("/oauth-provider/step-up", test_step_up);
  g_test_add_func ("/oauth-provider/pre-registered", test_pre_registered);
  g_test_add_func ("/oauth-provider/sign-out", test_sign_out);
  g_test_add_func ("/oauth-provider/timeout-and-cancel", test_timeout_and_cancel);
  g_test_add_func ("/oauth-provider/2026-07-28/prm-resource-mismatch", test_prm_resource_mismatch);
  g_test_add_func ("/oauth-provider/2026-07-28/iss-supported", test_iss_supported);
  g_test_add_func ("/oauth-provider/2026-07-28/iss-wrong", test_iss_wrong);
  g_test_add_func ("/oauth-provider/2026-07-28/iss-missing", test_iss_missing);
  g_test_add_func ("/oauth-provider/2026-07-28/offline-access", test_offline_access);
  g_test_add_func ("/oauth-provider/2026-07-28/metadata-issuer-mismatch", test_metadata_issuer_mismatch);
  g_test_add_func ("/oauth-provider/2026-07-28/authorization-server-moved", test_authorization_server_moved);
  g_test_add_func ("/oauth-provider/2026-07-28/authorization-server-moved-later",
                   test_authorization_server_moved_later);

  return g_test_run ();
}
