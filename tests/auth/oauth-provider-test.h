/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"
#include "mcp-oauth-fixture.h"
#include "mcp-oauth-provider.h"
#include "mcp-trace.h"

G_BEGIN_DECLS

/* McpOAuthProvider against the in-process fixture of
 * tests/fixtures/mcp-oauth-fixture, with a file token store in a
 * temporary directory and the fixture's headless "browser": what
 * test-oauth-provider and test-sign-in-steps share. */
typedef struct
{
  McpOAuthFixture *fixture;
  char            *dir;
  char            *store_path;
  McpTokenStore   *store;
  guint            opened;          /* URLs handed to the open-URL function */
  char            *last_url;
  gboolean         browse;          /* follow the URL like a browser */
  McpTrace        *trace;           /* given to providers and transports, when set */
} OAuthTest;

void                oauth_test_setup          (OAuthTest            *test,
                                               McpOAuthFixtureFlags  flags);
void                oauth_test_teardown       (OAuthTest            *test);
/* The open-URL function of interactive providers (user_data: the
 * OAuthTest): counts, keeps the URL, browses it when test->browse. */
void                oauth_test_open_url       (McpOAuthProvider     *provider,
                                               const char           *url,
                                               gpointer              user_data);
/* A provider "fixture" for the fixture's MCP URL; @interactive: URLs go to
 * the browser. */
McpOAuthProvider   *oauth_test_provider_new   (OAuthTest            *test,
                                               JsonObject           *config,
                                               gboolean              interactive);
/* A client over Streamable HTTP with @provider. */
McpClient          *oauth_test_client_new     (OAuthTest            *test,
                                               McpOAuthProvider     *provider);
/* The text of a tools/call answer, or NULL with @error. */
char               *oauth_test_client_call    (McpClient            *client,
                                               const char           *tool,
                                               GError              **error);
McpOAuthTokens     *oauth_test_stored_tokens  (OAuthTest            *test);
McpOAuthClientInfo *oauth_test_stored_client  (OAuthTest            *test);

G_END_DECLS
