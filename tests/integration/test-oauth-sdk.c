/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-sdk"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-oauth-provider.h"
#include "mcp-token-store.h"
#include "mcp-sign-in-steps.h"
#include "mcp-tool.h"
#include "mcp-trace.h"
#include "mcp-tool-result.h"
#include "test-engine.h"
#include "test-util.h"

/* OAuth sign-in against a real peer: the TypeScript SDK's example server
 * (simpleStreamableHttp --oauth), an MCP server on MCP_PORT whose
 * authorization server (DCR, an authorize endpoint that approves at once,
 * token, introspection) runs on MCP_AUTH_PORT, both ports picked by the
 * test. The example listens on every interface; a preloaded module makes
 * its servers listen on 127.0.0.1 only. The URLs it announces say
 * "localhost", so the client uses that name too (the resource must match).
 *
 * McpOAuthProvider + McpHttpTransport + McpClient: register, authorize (the
 * "browser" GETs the authorization URL without following the redirect, then
 * the Location, the provider's loopback listener), token, tools, the stored
 * tokens reused by a provider without a browser, sign out, and nothing
 * stored afterwards. */

#define LISTEN_BOUND_S 15
#define CALLBACK_TIMEOUT_S 20
#define SERVER_NAME "sdk-example"

static char *node_path;
static char *server_script;

typedef struct
{
  GSubprocess *process;
  char        *dir;           /* the preloaded module, the token store */
  int          mcp_port;
  int          auth_port;
  char        *url;           /* http://localhost:MCP_PORT/mcp */
} Server;

typedef struct
{
  SoupSession *session;
  guint        opened;
  char        *last_url;              /* the last authorization URL */
  guint        authorize_status;      /* what the authorization endpoint answered */
  guint        callback_status;       /* what the listener answered */
  char        *failure;
} Browser;

static void
server_stop (Server *server)
{
  if (server->process != NULL)
    {
      g_subprocess_force_exit (server->process);
      g_subprocess_wait (server->process, NULL, NULL);
    }
  g_clear_object (&server->process);

  if (server->dir != NULL)
    {
      g_autoptr(GDir) dir = g_dir_open (server->dir, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (server->dir, name, NULL);

          g_unlink (path);
        }
      g_rmdir (server->dir);
    }
  g_clear_pointer (&server->dir, g_free);
  g_clear_pointer (&server->url, g_free);
}

/* @strict: --oauth-strict too (it needs --oauth as well). */
static void
server_start (Server   *server,
              gboolean  strict)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *module_uri = NULL;
  g_autofree char *mcp_port = NULL;
  g_autofree char *auth_port = NULL;

  server->dir = g_dir_make_tmp ("plugboard-oauth-sdk-XXXXXX", &error);
  g_assert_no_error (error);
  module_uri = test_write_loopback_module (server->dir);

  server->mcp_port = test_pick_port ();
  do
    server->auth_port = test_pick_port ();
  while (server->auth_port == server->mcp_port);
  mcp_port = g_strdup_printf ("%d", server->mcp_port);
  auth_port = g_strdup_printf ("%d", server->auth_port);
  server->url = g_strdup_printf ("http://localhost:%d/mcp", server->mcp_port);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "MCP_PORT", mcp_port, TRUE);
  g_subprocess_launcher_setenv (launcher, "MCP_AUTH_PORT", auth_port, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server->process = g_subprocess_launcher_spawn (launcher, &error,
                                                 node_path, "--import", module_uri,
                                                 server_script, "--oauth",
                                                 strict ? "--oauth-strict" : NULL, NULL);
  g_assert_no_error (error);

  test_wait_listening (server->auth_port, LISTEN_BOUND_S, "the SDK example's authorization server");
  test_wait_listening (server->mcp_port, LISTEN_BOUND_S, "the SDK example server");
}

/* The headless browser */

static void
browser_clear (Browser *browser)
{
  g_clear_object (&browser->session);
  g_clear_pointer (&browser->last_url, g_free);
  g_clear_pointer (&browser->failure, g_free);
}

static void
callback_answered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Browser *browser = user_data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      browser->failure = g_strdup_printf ("the redirect to the listener failed: %s", error->message);
      return;
    }
  browser->callback_status = soup_message_get_status (msg);
}

static void
authorization_answered_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  Browser *browser = user_data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(SoupMessage) callback_msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) target = NULL;
  const char *location;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      browser->failure = g_strdup_printf ("the authorization request failed: %s", error->message);
      return;
    }
  browser->authorize_status = soup_message_get_status (msg);
  location = soup_message_headers_get_one (soup_message_get_response_headers (msg), "Location");
  if (!SOUP_STATUS_IS_REDIRECTION (browser->authorize_status) || location == NULL)
    {
      browser->failure = g_strdup_printf ("the authorization endpoint answered HTTP %u without a "
                                          "redirect: %.*s", browser->authorize_status,
                                          (int) MIN (g_bytes_get_size (body), 200),
                                          (const char *) g_bytes_get_data (body, NULL));
      return;
    }

  target = g_uri_parse_relative (soup_message_get_uri (msg), location, SOUP_HTTP_URI_FLAGS, &error);
  if (target == NULL)
    {
      browser->failure = g_strdup_printf ("unreadable Location: %s", error->message);
      return;
    }
  callback_msg = soup_message_new_from_uri (SOUP_METHOD_GET, target);
  soup_session_send_and_read_async (browser->session, callback_msg, G_PRIORITY_DEFAULT, NULL,
                                    callback_answered_cb, browser);
}

static void
open_url_cb (McpOAuthProvider *provider,
             const char       *url,
             gpointer          user_data)
{
  Browser *browser = user_data;
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, url);

  browser->opened++;
  g_free (browser->last_url);
  browser->last_url = g_strdup (url);
  if (msg == NULL)
    {
      browser->failure = g_strdup ("the authorization URL cannot be read");
      return;
    }
  if (browser->session == NULL)
    browser->session = soup_session_new_with_options ("timeout", 20, NULL);

  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_and_read_async (browser->session, msg, G_PRIORITY_DEFAULT, NULL,
                                    authorization_answered_cb, browser);
}

/* Helpers */

static McpTokenStore *
store_new (Server *server)
{
  g_autofree char *path = g_build_filename (server->dir, "oauth-credentials.json", NULL);

  return mcp_token_store_new ("file", path);
}

static McpOAuthProvider *
provider_new (Server        *server,
              McpTokenStore *store,
              Browser       *browser)
{
  McpOAuthProvider *provider = mcp_oauth_provider_new (SERVER_NAME, server->url, NULL, store);

  mcp_oauth_provider_set_callback_timeout (provider, CALLBACK_TIMEOUT_S);
  if (browser != NULL)
    mcp_oauth_provider_set_open_url_func (provider, open_url_cb, browser, NULL);

  return provider;
}

static McpClient *
connect_client (McpTransport  *transport,
                GError       **error)
{
  g_autoptr(McpClient) client = mcp_client_new (transport);

  mcp_client_set_client_info (client, "plugboard-test", PACKAGE_VERSION);
  if (!test_client_connect (client, error))
    return NULL;
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);

  return g_steal_pointer (&client);
}

static void
check_tools_and_greet (McpClient *client)
{
  g_autoptr(GAsyncResult) list_result = NULL;
  g_autoptr(GAsyncResult) call_result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *content;
  gboolean greet = FALSE;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &list_result);
  test_wait_result (&list_result, NULL);
  tools = mcp_client_list_tools_finish (client, list_result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tools->len; i++)
    if (g_strcmp0 (mcp_tool_get_name (g_ptr_array_index (tools, i)), "greet") == 0)
      greet = TRUE;
  g_assert_true (greet);

  arguments = json_from_string ("{\"name\": \"Plugboard\"}", &error);
  g_assert_no_error (error);
  mcp_client_call_tool_async (client, "greet", json_node_get_object (arguments), NULL, NULL,
                              test_result_cb, &call_result);
  test_wait_result (&call_result, NULL);
  tool_result = mcp_client_call_tool_finish (client, call_result, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (tool_result));
  content = mcp_tool_result_get_content (tool_result);
  g_assert_cmpuint (content->len, ==, 1);
  g_assert_cmpstr (mcp_content_get_text (g_ptr_array_index (content, 0)), ==, "Hello, Plugboard!");
}

static McpOAuthTokens *
lookup_tokens (McpTokenStore *store,
               Server        *server)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthTokens *tokens;

  mcp_token_store_lookup_tokens_async (store, SERVER_NAME, server->url, NULL,
                                       test_result_cb, &result);
  test_wait_result (&result, NULL);
  tokens = mcp_token_store_lookup_tokens_finish (store, result, &error);
  g_assert_no_error (error);

  return tokens;
}

static McpOAuthClientInfo *
lookup_client (McpTokenStore *store,
               Server        *server)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthClientInfo *client;

  mcp_token_store_lookup_client_async (store, SERVER_NAME, server->url, NULL,
                                       test_result_cb, &result);
  test_wait_result (&result, NULL);
  client = mcp_token_store_lookup_client_finish (store, result, &error);
  g_assert_no_error (error);

  return client;
}

static void
check_authorization_url (const char *url,
                         Server     *server,
                         const char *client_id)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GHashTable) params = NULL;
  g_autoptr(GUri) redirect = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *endpoint = g_strdup_printf ("http://localhost:%d/authorize", server->auth_port);
  g_autofree char *without_query = NULL;
  const char *redirect_uri;

  g_assert_nonnull (url);
  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &error);
  g_assert_no_error (error);
  without_query = g_uri_to_string_partial (uri, G_URI_HIDE_QUERY | G_URI_HIDE_FRAGMENT);
  g_assert_cmpstr (without_query, ==, endpoint);

  params = g_uri_parse_params (g_uri_get_query (uri), -1, "&", G_URI_PARAMS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (params, "response_type"), ==, "code");
  g_assert_cmpstr (g_hash_table_lookup (params, "client_id"), ==, client_id);
  g_assert_cmpstr (g_hash_table_lookup (params, "code_challenge_method"), ==, "S256");
  /* 43 characters: the base64url of a SHA-256. */
  g_assert_cmpuint (strlen (g_hash_table_lookup (params, "code_challenge") ?: ""), ==, 43);
  g_assert_cmpuint (strlen (g_hash_table_lookup (params, "state") ?: ""), >=, 16);
  /* RFC 8707: the server's canonical URL, as its PRM says. */
  g_assert_cmpstr (g_hash_table_lookup (params, "resource"), ==, server->url);
  /* No scope in the 401: the PRM's scopes_supported. */
  g_assert_cmpstr (g_hash_table_lookup (params, "scope"), ==, "mcp:tools");

  redirect_uri = g_hash_table_lookup (params, "redirect_uri");
  g_assert_nonnull (redirect_uri);
  redirect = g_uri_parse (redirect_uri, SOUP_HTTP_URI_FLAGS, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_uri_get_scheme (redirect), ==, "http");
  g_assert_cmpstr (g_uri_get_host (redirect), ==, "127.0.0.1");
}

/* Tests */

static void
test_sign_in_tools_sign_out (void)
{
  Server server = { 0 };
  Browser browser = { 0 };
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpOAuthClientInfo) registered = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *access_token = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  server_start (&server, FALSE);
  store = store_new (&server);

  /* Sign in: the initialize POST gets a 401; the provider discovers,
   * registers, sends the browser, exchanges the code. */
  provider = provider_new (&server, store, &browser);
  transport = mcp_http_transport_new (server.url, NULL, MCP_AUTH_PROVIDER (provider));
  client = connect_client (transport, &error);
  g_assert_cmpstr (browser.failure, ==, NULL);
  g_assert_no_error (error);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpuint (browser.opened, ==, 1);
  g_assert_cmpuint (browser.authorize_status, ==, 302);
  g_assert_cmpuint (browser.callback_status, ==, 200);

  check_tools_and_greet (client);
  test_client_close_ok (client);
  g_clear_object (&client);
  g_clear_object (&transport);

  /* What was stored: the tokens and the client DCR registered there. */
  tokens = lookup_tokens (store, &server);
  g_assert_nonnull (tokens);
  g_assert_nonnull (tokens->access_token);
  access_token = g_strdup (tokens->access_token);
  g_assert_cmpstr (tokens->scope, ==, "mcp:tools");
  g_assert_cmpint (tokens->expires_at, >, g_get_real_time () / G_USEC_PER_SEC);
  registered = lookup_client (store, &server);
  g_assert_nonnull (registered);
  g_assert_cmpint (registered->kind, ==, MCP_OAUTH_CLIENT_DYNAMIC);
  g_assert_nonnull (registered->client_id);
  check_authorization_url (browser.last_url, &server, registered->client_id);
  g_clear_pointer (&tokens, mcp_oauth_tokens_free);
  g_clear_object (&provider);

  /* A provider without a browser uses what is stored. */
  provider = provider_new (&server, store, NULL);
  transport = mcp_http_transport_new (server.url, NULL, MCP_AUTH_PROVIDER (provider));
  client = connect_client (transport, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpuint (browser.opened, ==, 1);
  check_tools_and_greet (client);
  test_client_close_ok (client);
  g_clear_object (&client);
  g_clear_object (&transport);

  /* Sign out: nothing stays, in memory or in the store. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(McpOAuthClientInfo) forgotten = NULL;

    mcp_oauth_provider_sign_out_async (provider, NULL, test_result_cb, &result);
    test_wait_result (&result, NULL);
    g_assert_true (mcp_oauth_provider_sign_out_finish (provider, result, &error));
    g_assert_no_error (error);
    g_assert_false (mcp_oauth_provider_get_signed_in (provider));

    tokens = lookup_tokens (store, &server);
    g_assert_null (tokens);
    forgotten = lookup_client (store, &server);
    g_assert_null (forgotten);
  }
  g_clear_object (&provider);

  /* Signed out, a provider without a browser cannot get in. */
  provider = provider_new (&server, store, NULL);
  transport = mcp_http_transport_new (server.url, NULL, MCP_AUTH_PROVIDER (provider));
  client = connect_client (transport, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (client);
  g_assert_false (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpuint (browser.opened, ==, 1);
  /* The message says where, never a token. */
  g_assert_nonnull (strstr (error->message, server.url));
  g_assert_null (strstr (error->message, access_token));

  g_clear_object (&transport);
  g_clear_object (&provider);
  browser_clear (&browser);
  server_stop (&server);
}

/* --oauth-strict: the authorization server refuses a code whose resource is
 * not the MCP server's URL, and the MCP server refuses a token issued for
 * another resource (RFC 8707). */
static void
test_strict_resource (void)
{
  Server server = { 0 };
  Browser browser = { 0 };
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  if (!test_have_node_script (node_path, server_script))
    return;

  server_start (&server, TRUE);
  store = store_new (&server);

  provider = provider_new (&server, store, &browser);
  transport = mcp_http_transport_new (server.url, NULL, MCP_AUTH_PROVIDER (provider));
  client = connect_client (transport, &error);
  g_assert_cmpstr (browser.failure, ==, NULL);
  g_assert_no_error (error);
  g_assert_true (mcp_oauth_provider_get_signed_in (provider));
  g_assert_cmpuint (browser.opened, ==, 1);

  check_tools_and_greet (client);
  test_client_close_ok (client);

  g_clear_object (&client);
  g_clear_object (&transport);
  g_clear_object (&provider);
  browser_clear (&browser);
  server_stop (&server);
}

/* The sign-in debugger (issue 24) against the SDK's authorization server:
 * every step of the sign-in in the trace, in order, each exchange with it,
 * and no token, code, verifier or Authorization value in its JSON Lines. */
static void
test_sign_in_steps (void)
{
  Server server = { 0 };
  Browser browser = { 0 };
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  g_autoptr(McpSignInSteps) steps = mcp_sign_in_steps_new (trace, 0);
  g_autoptr(GString) outline = g_string_new (NULL);
  g_autoptr(GString) jsonl = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  guint n;

  if (!test_have_node_script (node_path, server_script))
    return;

  server_start (&server, FALSE);
  store = store_new (&server);
  provider = provider_new (&server, store, &browser);
  mcp_oauth_provider_set_trace (provider, trace);
  transport = mcp_http_transport_new (server.url, NULL, MCP_AUTH_PROVIDER (provider));
  mcp_transport_set_trace (transport, trace);
  client = connect_client (transport, &error);
  g_assert_cmpstr (browser.failure, ==, NULL);
  g_assert_no_error (error);
  check_tools_and_greet (client);
  test_client_close_ok (client);

  n = g_list_model_get_n_items (G_LIST_MODEL (steps));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpTraceEntry) step = g_list_model_get_item (G_LIST_MODEL (steps), i);
      g_autofree char *text = mcp_sign_in_step_format (step, mcp_sign_in_steps_get_exchange (steps, step),
                                                       TRUE);
      const char *name = mcp_trace_entry_get_method (step);

      g_test_message ("%s", text);
      g_assert_cmpint (mcp_trace_entry_get_step_status (step), !=, MCP_TRACE_STEP_FAILED);
      g_string_append_printf (outline, "%s%s", outline->len > 0 ? " " : "", name);
      g_string_append (jsonl, text);
      if (g_str_equal (name, "protected-resource-metadata") || g_str_equal (name, "client-registration") ||
          g_str_equal (name, "token-exchange"))
        {
          McpTraceEntry *exchange = mcp_sign_in_steps_get_exchange (steps, step);

          g_assert_nonnull (exchange);
          g_assert_cmpuint (mcp_trace_entry_get_status (exchange), <, 300);
        }
      if (g_str_equal (name, "authorization-url"))
        g_assert_cmpstr (mcp_trace_entry_get_url (step), ==, browser.last_url);
      if (g_str_equal (name, "scopes"))
        g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "“mcp:tools”, the “scopes_supported”"));
    }
  g_assert_cmpstr (outline->str, ==,
                   "challenge protected-resource-metadata authorization-server-metadata scopes "
                   "client-registration authorization-url callback token-exchange sign-in");

  tokens = lookup_tokens (store, &server);
  g_assert_nonnull (tokens);
  mcp_trace_append_jsonl (trace, SERVER_NAME, jsonl);
  g_assert_null (strstr (jsonl->str, tokens->access_token));
  if (tokens->refresh_token != NULL)
    g_assert_null (strstr (jsonl->str, tokens->refresh_token));
  for (const char *p = strstr (jsonl->str, "Bearer "); p != NULL; p = strstr (p + 1, "Bearer "))
    g_assert_true (g_str_has_prefix (p, "Bearer ***"));
  for (const char *p = strstr (jsonl->str, "&code="); p != NULL; p = strstr (p + 1, "&code="))
    g_assert_true (g_str_has_prefix (p, "&code=***"));

  g_clear_object (&client);
  g_clear_object (&transport);
  g_clear_object (&provider);
  browser_clear (&browser);
  server_stop (&server);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  node_path = test_find_node ();
  server_script = test_find_node_module ("@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js");

  g_test_add_func ("/oauth-sdk/sign-in-tools-sign-out", test_sign_in_tools_sign_out);
  g_test_add_func ("/oauth-sdk/strict-resource", test_strict_resource);
  g_test_add_func ("/oauth-sdk/sign-in-steps", test_sign_in_steps);

  status = g_test_run ();

  g_free (node_path);
  g_free (server_script);

  return status;
}
