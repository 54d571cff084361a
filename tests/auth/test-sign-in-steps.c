/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sign-in-steps"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-redact.h"
#include "mcp-sign-in-steps.h"
#include "mcp-trace.h"
#include "oauth-provider-test.h"
#include "test-engine.h"
#include "test-util.h"

/* The sign-in debugger (issue 24): every step of a sign-in, a refresh and
 * a step-up recorded in the trace with its exchange, against the
 * in-process OAuth fixture, read back as McpSignInSteps live and from the
 * trace's JSON Lines, with no token, code, verifier or client secret in
 * any of it. */

static void
setup (OAuthTest            *test,
       McpOAuthFixtureFlags  flags)
{
  oauth_test_setup (test, flags);
  test->trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
}

static McpOAuthProvider *
provider_new (OAuthTest  *test,
              JsonObject *config)
{
  return oauth_test_provider_new (test, config, TRUE);
}

static void
client_call (McpClient  *client,
             const char *tool)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = oauth_test_client_call (client, tool, &error);

  g_assert_no_error (error);
  g_assert_nonnull (text);
}

/* The steps as "name:status" joined by spaces, for one readable assert. */
static char *
steps_outline (McpSignInSteps *steps)
{
  g_autoptr(GString) out = g_string_new (NULL);
  static const char *status[] = { "ok", "failed", "skipped", "info" };

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (steps)); i++)
    {
      g_autoptr(McpTraceEntry) step = g_list_model_get_item (G_LIST_MODEL (steps), i);

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s:%s", mcp_trace_entry_get_method (step),
                              status[mcp_trace_entry_get_step_status (step)]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The first step named @name at or after *@from (advanced past it). */
static McpTraceEntry *
find_step (McpSignInSteps *steps,
           const char     *name,
           guint          *from)
{
  for (guint i = from ? *from : 0; i < g_list_model_get_n_items (G_LIST_MODEL (steps)); i++)
    {
      g_autoptr(McpTraceEntry) step = g_list_model_get_item (G_LIST_MODEL (steps), i);

      if (g_strcmp0 (mcp_trace_entry_get_method (step), name) == 0)
        {
          if (from != NULL)
            *from = i + 1;
          return step;
        }
    }
  g_error ("no step “%s”", name);
  return NULL;
}

/* @name=VALUE never unmasked in @text. */
static void
assert_param_masked (const char *text,
                     const char *name)
{
  g_autofree char *needle = g_strconcat (name, "=", NULL);

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    if (p == text || p[-1] == '&' || p[-1] == '?' || p[-1] == '"')
      g_assert_true (g_str_has_prefix (p + strlen (needle), MCP_REDACTED));
}

/* Nothing secret in the trace's JSON Lines, nor in any step as text. */
static void
assert_no_secret (OAuthTest                 *test,
                  McpSignInSteps       *steps,
                  const McpOAuthTokens *tokens)
{
  g_autoptr(GString) jsonl = g_string_new (NULL);

  mcp_trace_append_jsonl (test->trace, "fixture", jsonl);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (steps)); i++)
    {
      g_autoptr(McpTraceEntry) step = g_list_model_get_item (G_LIST_MODEL (steps), i);
      g_autofree char *text = mcp_sign_in_step_format (step, mcp_sign_in_steps_get_exchange (steps, step),
                                                       TRUE);

      g_string_append (jsonl, text);
    }

  g_assert_null (strstr (jsonl->str, tokens->access_token));
  if (tokens->refresh_token != NULL)
    g_assert_null (strstr (jsonl->str, tokens->refresh_token));
  g_assert_null (strstr (jsonl->str, "pre-secret"));
  /* base64 ("pre-registered:pre-secret"), HTTP Basic */
  g_assert_null (strstr (jsonl->str, "cHJlLXJlZ2lzdGVyZWQ6cHJlLXNlY3JldA"));
  /* The transport's Authorization headers */
  for (const char *p = strstr (jsonl->str, "Bearer "); p != NULL; p = strstr (p + 1, "Bearer "))
    g_assert_true (g_str_has_prefix (p, "Bearer " MCP_REDACTED));
  assert_param_masked (jsonl->str, "code");
  assert_param_masked (jsonl->str, "code_verifier");
  assert_param_masked (jsonl->str, "refresh_token");
}

/* The same steps read back from the JSON Lines, with their exchanges. */
static void
assert_replay (OAuthTest           *test,
               McpSignInSteps *live)
{
  g_autoptr(GString) jsonl = g_string_new (NULL);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(McpSignInSteps) replay = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *live_outline = steps_outline (live);
  g_autofree char *replay_outline = NULL;

  mcp_trace_append_jsonl (test->trace, "fixture", jsonl);
  entries = mcp_trace_read_jsonl (jsonl->str, jsonl->len, &servers, &error);
  g_assert_no_error (error);
  replay = mcp_sign_in_steps_new_replay (entries);
  g_assert_null (mcp_sign_in_steps_get_trace (replay));
  replay_outline = steps_outline (replay);
  g_assert_cmpstr (replay_outline, ==, live_outline);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (live)); i++)
    {
      g_autoptr(McpTraceEntry) a = g_list_model_get_item (G_LIST_MODEL (live), i);
      g_autoptr(McpTraceEntry) b = g_list_model_get_item (G_LIST_MODEL (replay), i);
      McpTraceEntry *ea = mcp_sign_in_steps_get_exchange (live, a);
      McpTraceEntry *eb = mcp_sign_in_steps_get_exchange (replay, b);
      g_autofree char *ta = mcp_sign_in_step_format (a, ea, TRUE);
      g_autofree char *tb = mcp_sign_in_step_format (b, eb, TRUE);

      g_assert_cmpstr (mcp_trace_entry_get_text (a), ==, mcp_trace_entry_get_text (b));
      g_assert_true ((ea == NULL) == (eb == NULL));
      if (ea != NULL)
        g_assert_cmpstr (mcp_trace_entry_get_url (ea), ==, mcp_trace_entry_get_url (eb));
      g_test_message ("%s", tb);
    }
}

/* A 401 from the MCP endpoint: the challenge, the PRM its
 * resource_metadata names, the AS metadata and its issuer check, DCR,
 * the scope from the challenge, the authorization URL, the callback, the
 * token exchange, in this order, each with its exchange. */
static void
test_sign_in_on_challenge (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *outline = NULL;
  g_autofree char *base = NULL;
  McpTraceEntry *step;
  McpTraceEntry *exchange;
  const char *text;
  guint at = 0;

  setup (&test, MCP_OAUTH_FIXTURE_NONE);
  steps = mcp_sign_in_steps_new (test.trace, 0);
  provider = provider_new (&test, NULL);
  client = oauth_test_client_new (&test, provider);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);
  client_call (client, "whoami");

  outline = steps_outline (steps);
  g_test_message ("%s", outline);
  g_assert_cmpstr (outline, ==,
                   "challenge:info protected-resource-metadata:ok authorization-server-metadata:ok "
                   "scopes:info client-registration:ok authorization-url:info callback:ok "
                   "token-exchange:ok sign-in:ok");
  base = g_strdup (mcp_oauth_fixture_get_base_url (test.fixture));

  step = find_step (steps, "challenge", &at);
  g_test_message ("%s", mcp_trace_entry_get_text (step));
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "401"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "resource_metadata"));

  step = find_step (steps, "protected-resource-metadata", &at);
  text = mcp_trace_entry_get_text (step);
  g_assert_nonnull (strstr (text, "/.well-known/oauth-protected-resource/mcp"));
  g_assert_nonnull (strstr (text, "WWW-Authenticate"));
  g_assert_nonnull (strstr (text, "read admin"));
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_nonnull (exchange);
  g_assert_cmpstr (mcp_trace_entry_get_method (exchange), ==, "GET");
  g_assert_cmpuint (mcp_trace_entry_get_status (exchange), ==, 200);
  g_assert_nonnull (strstr (mcp_trace_entry_get_response_body (exchange), "authorization_servers"));

  step = find_step (steps, "authorization-server-metadata", &at);
  text = mcp_trace_entry_get_text (step);
  g_assert_nonnull (strstr (text, "matches"));
  g_assert_nonnull (strstr (text, mcp_oauth_fixture_get_issuer (test.fixture)));
  g_assert_nonnull (mcp_sign_in_steps_get_exchange (steps, step));

  step = find_step (steps, "scopes", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "“read”"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "WWW-Authenticate"));

  step = find_step (steps, "client-registration", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "client ID “client-"));
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_nonnull (exchange);
  g_assert_cmpstr (mcp_trace_entry_get_method (exchange), ==, "POST");
  g_assert_nonnull (strstr (mcp_trace_entry_get_request_body (exchange), "redirect_uris"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_response_body (exchange), "client_id"));

  /* The whole URL, copyable: the state and the PKCE challenge are not secret. */
  step = find_step (steps, "authorization-url", &at);
  g_assert_nonnull (test.last_url);
  g_assert_cmpstr (mcp_trace_entry_get_url (step), ==, test.last_url);
  g_assert_nonnull (strstr (test.last_url, "state="));
  g_assert_nonnull (strstr (test.last_url, "code_challenge="));

  step = find_step (steps, "callback", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "state matched"));

  step = find_step (steps, "token-exchange", &at);
  text = mcp_trace_entry_get_text (step);
  g_assert_nonnull (strstr (text, "HTTP 200"));
  g_assert_nonnull (strstr (text, "expires in"));
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_nonnull (exchange);
  g_assert_nonnull (strstr (mcp_trace_entry_get_request_body (exchange), "grant_type=authorization_code"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_response_body (exchange), "access_token"));

  tokens = oauth_test_stored_tokens (&test);
  assert_no_secret (&test, steps, tokens);
  assert_replay (&test, steps);

  test_client_close (client, NULL);
  oauth_test_teardown (&test);
}

/* No PRM anywhere: both well-known locations tried, each a 404 shown as a
 * skipped step with its exchange, then the 2025-03-26 fallback. */
static void
test_no_prm (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *outline = NULL;
  McpTraceEntry *step;
  McpTraceEntry *exchange;
  guint at = 0;

  setup (&test, MCP_OAUTH_FIXTURE_NO_PRM);
  steps = mcp_sign_in_steps_new (test.trace, 0);
  provider = provider_new (&test, NULL);
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, NULL), &error);
  outline = steps_outline (steps);
  g_test_message ("%s", outline);
  g_assert_true (g_str_has_prefix (outline,
                                   "challenge:info protected-resource-metadata:skipped "
                                   "protected-resource-metadata:skipped protected-resource-metadata:info "));

  /* The probe's exchange: the unauthenticated initialize and its 401. */
  step = find_step (steps, "challenge", &at);
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_nonnull (exchange);
  g_assert_cmpuint (mcp_trace_entry_get_status (exchange), ==, 401);

  step = find_step (steps, "protected-resource-metadata", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "/.well-known/oauth-protected-resource/mcp"));
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_nonnull (exchange);
  g_assert_cmpuint (mcp_trace_entry_get_status (exchange), ==, 404);
  step = find_step (steps, "protected-resource-metadata", &at);
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_cmpuint (mcp_trace_entry_get_status (exchange), ==, 404);
  step = find_step (steps, "protected-resource-metadata", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "2025-03-26"));

  oauth_test_teardown (&test);
}

/* An access token the server no longer takes: a refresh step; then a 403
 * insufficient_scope: a step-up step and a new sign-in for more. */
static void
test_refresh_and_step_up (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) first = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *outline = NULL;
  McpTraceEntry *step;
  McpTraceEntry *exchange;
  guint64 after;
  guint at = 0;

  setup (&test, MCP_OAUTH_FIXTURE_NONE);
  first = provider_new (&test, NULL);
  mcp_oauth_provider_sign_in_async (first, NULL, test_result_cb, &result);
  g_assert_true (mcp_oauth_provider_sign_in_finish (first, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);

  /* Another provider (tokens that just arrived are retried as they are,
   * not refreshed), which finds them in the store. */
  provider = provider_new (&test, NULL);
  client = oauth_test_client_new (&test, provider);
  g_assert_true (test_client_connect (client, &error));
  g_assert_no_error (error);

  /* Only what comes after the sign-in. */
  {
    g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (test.trace);

    after = mcp_trace_entry_get_seq (g_ptr_array_index (entries, entries->len - 1));
  }
  steps = mcp_sign_in_steps_new (test.trace, after);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (steps)), ==, 0);

  mcp_oauth_fixture_expire_access_tokens (test.fixture);
  client_call (client, "whoami");
  step = find_step (steps, "refresh", &at);
  g_assert_cmpint (mcp_trace_entry_get_step_status (step), ==, MCP_TRACE_STEP_OK);
  exchange = mcp_sign_in_steps_get_exchange (steps, step);
  g_assert_nonnull (exchange);
  g_assert_nonnull (strstr (mcp_trace_entry_get_request_body (exchange), "grant_type=refresh_token"));

  mcp_oauth_fixture_set_flags (test.fixture, MCP_OAUTH_FIXTURE_INSUFFICIENT_SCOPE);
  client_call (client, "whoami");
  outline = steps_outline (steps);
  g_test_message ("%s", outline);
  step = find_step (steps, "challenge", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "403"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "insufficient_scope"));
  step = find_step (steps, "step-up", &at);
  g_assert_cmpint (mcp_trace_entry_get_step_status (step), ==, MCP_TRACE_STEP_INFO);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "admin"));
  step = find_step (steps, "scopes", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "what the current token has"));
  find_step (steps, "token-exchange", &at);
  find_step (steps, "sign-in", &at);

  tokens = oauth_test_stored_tokens (&test);
  assert_no_secret (&test, steps, tokens);

  test_client_close (client, NULL);
  oauth_test_teardown (&test);
}

/* A pre-registered client with a secret (HTTP Basic at the token
 * endpoint): the identity step names it, the secret is nowhere. */
static void
test_pre_registered (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(JsonObject) config = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpTraceEntry *step;
  guint at = 0;

  setup (&test, MCP_OAUTH_FIXTURE_NONE);
  steps = mcp_sign_in_steps_new (test.trace, 0);
  json_object_set_string_member (config, "clientId", "pre-registered");
  provider = provider_new (&test, config);
  mcp_oauth_provider_set_client_secret (provider, "pre-secret");
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  g_assert_true (mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, NULL), &error));
  g_assert_no_error (error);

  step = find_step (steps, "client-registration", &at);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "Pre-registered client “pre-registered”"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "not shown"));
  find_step (steps, "token-exchange", &at);

  tokens = oauth_test_stored_tokens (&test);
  assert_no_secret (&test, steps, tokens);
  oauth_test_teardown (&test);
}

/* Failures are steps too: a refused registration says why. */
static void
test_dcr_refused (void)
{
  OAuthTest test = { 0 };
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  McpTraceEntry *step;
  guint at = 0;

  setup (&test, MCP_OAUTH_FIXTURE_DCR_REFUSED);
  steps = mcp_sign_in_steps_new (test.trace, 0);
  provider = provider_new (&test, NULL);
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  g_assert_false (mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, NULL), &error));
  g_assert_nonnull (error);

  step = find_step (steps, "client-registration", &at);
  g_assert_cmpint (mcp_trace_entry_get_step_status (step), ==, MCP_TRACE_STEP_FAILED);
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (step), "invalid_client_metadata"));
  g_assert_cmpuint (mcp_trace_entry_get_status (mcp_sign_in_steps_get_exchange (steps, step)), ==, 400);
  step = find_step (steps, "sign-in", &at);
  g_assert_cmpint (mcp_trace_entry_get_step_status (step), ==, MCP_TRACE_STEP_FAILED);

  text = mcp_sign_in_step_format (step, NULL, FALSE);
  g_assert_true (g_str_has_prefix (text, "✗ "));
  oauth_test_teardown (&test);
}

/* A hostile protected resource metadata: terminal escapes and a very long
 * scope list. Its step says what it found, cut and without control
 * characters. */
static void
hostile_cb (SoupServer        *server,
            SoupServerMessage *msg,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  const char *base = user_data;
  g_autoptr(GString) body = g_string_new (NULL);

  if (!g_str_equal (path, "/.well-known/oauth-protected-resource/mcp"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  g_string_append_printf (body, "{\"resource\": \"%s/mcp\", \"authorization_servers\": [\"%s/as\"], "
                          "\"scopes_supported\": [\"red\\u001b[31m\\u0007\"", base, base);
  for (guint i = 0; i < 20000; i++)
    g_string_append (body, ", \"scope\"");
  g_string_append (body, "]}");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body->str, body->len);
}

static void
test_hostile_metadata (void)
{
  OAuthTest test = { 0 };
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSList) uris = NULL;
  McpTraceEntry *step;
  const char *text;
  guint at = 0;

  setup (&test, MCP_OAUTH_FIXTURE_NONE);
  test.browse = FALSE;
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  base = g_uri_to_string_partial (uris->data, G_URI_HIDE_PASSWORD);
  if (g_str_has_suffix (base, "/"))
    base[strlen (base) - 1] = '\0';
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
  soup_server_add_handler (server, NULL, hostile_cb, base, NULL);
  url = g_strconcat (base, "/mcp", NULL);

  steps = mcp_sign_in_steps_new (test.trace, 0);
  provider = mcp_oauth_provider_new ("hostile", url, NULL, test.store);
  mcp_oauth_provider_set_open_url_func (provider, oauth_test_open_url, &test, NULL);
  mcp_oauth_provider_set_trace (provider, test.trace);
  mcp_oauth_provider_sign_in_async (provider, NULL, test_result_cb, &result);
  g_assert_false (mcp_oauth_provider_sign_in_finish (provider, test_wait_result (&result, NULL), &error));
  g_assert_nonnull (error);

  step = find_step (steps, "protected-resource-metadata", &at);
  text = mcp_trace_entry_get_text (step);
  g_assert_null (strchr (text, '\033'));
  g_assert_null (strchr (text, '\007'));
  g_assert_cmpuint (strlen (text), <, 2000);
  g_assert_nonnull (strstr (text, "…"));
  /* The next phase failed: said, with what was tried. */
  step = find_step (steps, "authorization-server-metadata", &at);
  g_assert_cmpint (mcp_trace_entry_get_step_status (step), ==, MCP_TRACE_STEP_SKIPPED);
  step = find_step (steps, "sign-in", &at);
  g_assert_cmpint (mcp_trace_entry_get_step_status (step), ==, MCP_TRACE_STEP_FAILED);

  oauth_test_teardown (&test);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sign-in-steps/on-challenge", test_sign_in_on_challenge);
  g_test_add_func ("/sign-in-steps/no-prm", test_no_prm);
  g_test_add_func ("/sign-in-steps/refresh-and-step-up", test_refresh_and_step_up);
  g_test_add_func ("/sign-in-steps/pre-registered", test_pre_registered);
  g_test_add_func ("/sign-in-steps/dcr-refused", test_dcr_refused);
  g_test_add_func ("/sign-in-steps/hostile-metadata", test_hostile_metadata);

  return g_test_run ();
}
