/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "conformance-client"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-client.h"
#include "mcp-form-field.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-oauth-provider.h"
#include "mcp-skill.h"
#include "mcp-trace.h"
#include "mcp-token-store.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "test-engine.h"
#include "test-util.h"

/* The client the official MCP conformance suite drives
 * (@modelcontextprotocol/conformance, "conformance client"): the suite starts
 * a mock server, runs this program with the server's URL as the last
 * argument and the scenario's name in MCP_CONFORMANCE_SCENARIO, and judges
 * what the server saw. This program does what each scenario expects of a
 * client over McpHttpTransport and McpClient, and exits 0 when all of it
 * worked, 1 with the reason on stderr otherwise.
 *
 * The auth/ scenarios protect the server with OAuth: the client signs in
 * through McpOAuthProvider with a token store in a fresh temporary
 * directory. The suite's mock authorization server approves at once, so
 * the "browser" is two GETs: the authorization URL without following its
 * redirect, then the Location it answered with, which is the provider's
 * loopback listener.
 *
 * When PLUGBOARD_CONFORMANCE_STATUS names a file, the exit status and reason
 * are written there too: the suite itself ignores a client's exit status once
 * an expected-failures file is given, so run-conformance.sh checks it. For a
 * run of every scenario a revision requires (run-conformance-requirements.sh)
 * PLUGBOARD_CONFORMANCE_STATUS_DIR names a directory that gets one such file
 * per scenario. */

/* Below the suite's --timeout (60 s, run-conformance.sh), so a hang is
 * reported by this program with its reason rather than by the suite. */
#define REQUEST_TIMEOUT_MS 40000
#define HANG_BOUND_S 55
/* How long a sign-in waits for the headless browser to reach the listener. */
#define CALLBACK_TIMEOUT_S 30

typedef enum
{
  /* No authorization. */
  AUTH_NONE,
  /* Sign in with OAuth, discovering everything from the server. */
  AUTH_OAUTH,
  /* Sign in with the pre-registered client_id and client_secret that
   * MCP_CONFORMANCE_CONTEXT carries. */
  AUTH_OAUTH_PRE_REGISTERED,
  /* Sign in with a Client ID Metadata Document URL as the client_id. */
  AUTH_OAUTH_CLIENT_METADATA,
  /* No browser (ext-auth): the client_credentials grant with the
   * context's client_id and client_secret (HTTP Basic, SEP-1046)… */
  AUTH_CLIENT_CREDENTIALS_BASIC,
  /* …or its private_key_pem (private_key_jwt, RFC 7523 §2.2); */
  AUTH_CLIENT_CREDENTIALS_JWT,
  /* enterprise-managed authorization (SEP-990): the context's IdP ID
   * token exchanged at the IdP for an ID-JAG, then the JWT bearer grant
   * with the client's secret; */
  AUTH_ENTERPRISE,
  /* workload identity federation (SEP-1933): the context's valid_jwt is
   * the JWT bearer grant's assertion. */
  AUTH_WORKLOAD_IDENTITY,
} AuthMode;

/* Skills over MCP (SEP-2640) */
typedef enum
{
  SKILLS_NONE,
  /* List the server's skills and fetch nothing: no skill is loaded. */
  SKILLS_LIST,
  /* List, then load the first skill: its SKILL.md fails verification
   * (digest, size or frontmatter), which is the success; its other files
   * must then never be read. */
  SKILLS_LOAD_REFUSED,
} SkillsMode;

/* Where the ID token and the workload assertion of the context are put
 * for the grant to read, as a person's settings would name a variable. */
#define ID_TOKEN_VARIABLE  "PLUGBOARD_CONFORMANCE_ID_TOKEN"
#define ASSERTION_VARIABLE "PLUGBOARD_CONFORMANCE_ASSERTION"

/* The Client ID Metadata Document URL the auth/basic-cimd scenario expects. */
#define CONFORMANCE_CLIENT_METADATA_URL "https://conformance-test.local/client-metadata.json"

typedef struct
{
  const char *name;
  /* The tool the scenario's server offers and counts the call of, or NULL
   * when the scenario only checks the handshake. */
  const char *tool;
  /* Arguments for that tool, as JSON. */
  const char *arguments;
  /* Text the tool's answer must contain, or NULL. */
  const char *expected_text;
  AuthMode auth;
  /* The scenario succeeds when the client gives up with
   * MCP_ERROR_NEEDS_AUTH instead of looping (auth/scope-retry-limit). */
  gboolean expect_needs_auth;
  /* The scenario succeeds when the client refuses to sign in (a resource
   * or issuer that does not match): connecting fails and no token was had. */
  gboolean expect_refusal;
  /* Calls after the first, as a JSON array of {"name", "arguments",
   * "expected"}; with calls_from_context, the "toolCalls" array of
   * MCP_CONFORMANCE_CONTEXT instead. */
  const char *more_calls;
  gboolean calls_from_context;
  /* The tool whose inputSchema, as McpTool keeps it, goes to the scenario's
   * tool as its "schema" argument (instead of arguments). */
  const char *echo_schema_of;
  SkillsMode skills;
} Scenario;

static const Scenario scenarios[] = {
  { "initialize", NULL, NULL, NULL },
  { "tools_call", "add_numbers", "{\"a\": 5, \"b\": 3}", "The sum of 5 and 3 is 8" },
  /* The tool's POST stream sends only a priming event with retry: 500 and
   * ends; the answer comes on the GET stream the client must reopen with
   * Last-Event-ID after waiting those 500 ms. */
  { "sse-retry", "test_reconnection", "{}", "Reconnection test completed successfully" },
  /* The tool asks elicitation/create with a default for every field; the
   * client accepts what its form starts with: the schema's defaults
   * (SEP-1034), as the app's elicitation dialog and the CLI do. */
  { "elicitation-sep1034-client-defaults", "test_client_elicitation_defaults", "{}",
    "Elicitation completed: " },

  /* Authorization (MCP 2025-11-25). Every protected server offers
   * "test-tool", which answers "test". Where the PRM and the authorization
   * server's metadata live varies; the suite fails a client that asks the
   * root PRM when a path-aware one was named, or the root AS metadata of an
   * issuer with a path. */
  { "auth/metadata-default", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/metadata-var1", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/metadata-var2", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/metadata-var3", "test-tool", "{}", "test", AUTH_OAUTH },
  /* The AS advertises client_id_metadata_document_supported: the
   * configured document URL must be the client_id instead of DCR. */
  { "auth/basic-cimd", "test-tool", "{}", "test", AUTH_OAUTH_CLIENT_METADATA },
  /* Scope from the 401's WWW-Authenticate, else the PRM's scopes_supported,
   * else no scope parameter. */
  { "auth/scope-from-www-authenticate", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/scope-from-scopes-supported", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/scope-omitted-when-undefined", "test-tool", "{}", "test", AUTH_OAUTH },
  /* initialize is open; tools/list needs mcp:basic, tools/call also
   * mcp:write and answers 403 insufficient_scope until the client signs
   * in again with both. */
  { "auth/scope-step-up", "test-tool", "{}", "test", AUTH_OAUTH },
  /* Every authorized request answers 403 insufficient_scope: the client
   * must stop after at most three authorizations. */
  { "auth/scope-retry-limit", "test-tool", "{}", NULL, AUTH_OAUTH, TRUE },
  /* The AS supports one token endpoint auth method, the one DCR answers. */
  { "auth/token-endpoint-auth-basic", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/token-endpoint-auth-post", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/token-endpoint-auth-none", "test-tool", "{}", "test", AUTH_OAUTH },
  /* No DCR; the client from the context, client_secret_basic. */
  { "auth/pre-registration", "test-tool", "{}", "test", AUTH_OAUTH_PRE_REGISTERED },
  /* 2025-03-26 servers: no PRM; AS metadata at the server's root, or none
   * at all and the default /authorize, /token, /register. */
  { "auth/2025-03-26-oauth-metadata-backcompat", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/2025-03-26-oauth-endpoint-fallback", "test-tool", "{}", "test", AUTH_OAUTH },

  /* MCP 2026-07-28 (issue 10), run by the prerelease of the suite
   * (run-conformance-requirements.sh). Every request carries _meta and the
   * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; the client must
   * find that out from the server, not from this table. */
  /* The first request, whatever it is, answers UnsupportedProtocolVersion:
   * the client retries with a version from its "supported" list. */
  { "request-metadata", NULL, NULL, NULL },
  /* Mcp-Method on every request, Mcp-Name on tools/call. */
  { "http-standard-headers", "test_headers", "{}", "Headers test completed" },
  /* Eleven tools with invalid x-mcp-header annotations that the client
   * must drop from tools/list, and this one. */
  { "http-invalid-tool-headers", "valid_tool", "{\"region\": \"us-west1\"}", "Tool call received" },
  /* The calls are in the context; the suite checks their Mcp-Param-*
   * headers. */
  { "http-custom-headers", NULL, NULL, NULL, .calls_from_context = TRUE },
  /* A tool whose inputSchema has a $ref to a URL the client must not
   * fetch: list only (the tool has no handler). */
  { "json-schema-ref-no-deref", "lookup_user", NULL, NULL },
  /* The schema the client read for the focal tool, echoed back: every
   * JSON Schema 2020-12 keyword must survive McpTool (SEP-1613, SEP-2106). */
  { "json-schema-2020-12-preservation", "json_schema_echo", NULL, "echoed",
    .echo_schema_of = "json_schema_2020_12_tool" },
  /* input_required (MRTR): the elicitation answered by elicitation_cb,
   * then a retry with a new id and the exact requestState; without a
   * requestState none is sent back; an unrelated call in between carries
   * neither; a result without resultType is final. */
  { "sep-2322-client-request-state", "test_mrtr_echo_state", "{}", "echo-state-ok",
    .more_calls = "[{\"name\": \"test_mrtr_unrelated\", \"expected\": \"unrelated-ok\"},"
                  " {\"name\": \"test_mrtr_no_state\", \"expected\": \"no-state-ok\"},"
                  " {\"name\": \"test_mrtr_no_result_type\", \"expected\": \"no-result-type-test-ok\"}]" },
  /* offline_access and refresh_token only where the AS lists them. */
  { "auth/offline-access-scope", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/offline-access-not-supported", "test-tool", "{}", "test", AUTH_OAUTH },
  /* The PRM names another AS after the first request: register there anew. */
  { "auth/authorization-server-migration", "test-tool", "{}", "test", AUTH_OAUTH },
  /* RFC 9207: a matching iss, or none where none is advertised. */
  { "auth/iss-supported", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/iss-not-advertised", "test-tool", "{}", "test", AUTH_OAUTH },
  /* Sign-ins the client must refuse before redeeming the code (or before
   * authorizing at all): the PRM's resource is not the server's URL; iss
   * missing though advertised, wrong, unexpected, or equal only after URL
   * normalization; the AS metadata's issuer is not the one asked. */
  { "auth/resource-mismatch", "test-tool", "{}", NULL, AUTH_OAUTH, .expect_refusal = TRUE },
  { "auth/iss-supported-missing", "test-tool", "{}", NULL, AUTH_OAUTH, .expect_refusal = TRUE },
  { "auth/iss-wrong-issuer", "test-tool", "{}", NULL, AUTH_OAUTH, .expect_refusal = TRUE },
  { "auth/iss-unexpected", "test-tool", "{}", NULL, AUTH_OAUTH, .expect_refusal = TRUE },
  { "auth/iss-normalized", "test-tool", "{}", NULL, AUTH_OAUTH, .expect_refusal = TRUE },
  { "auth/metadata-issuer-mismatch", "test-tool", "{}", NULL, AUTH_OAUTH, .expect_refusal = TRUE },

  /* Extensions (issue 27). Authorization without a person: ext-auth's
   * client credentials (SEP-1046), enterprise-managed authorization
   * (SEP-990; 0.1.16 calls it cross-app access), workload identity
   * (SEP-1933). The settings come from the context, as a person's would
   * from the keyring and the environment. */
  { "auth/client-credentials-basic", "test-tool", "{}", "test", AUTH_CLIENT_CREDENTIALS_BASIC },
  { "auth/client-credentials-jwt", "test-tool", "{}", "test", AUTH_CLIENT_CREDENTIALS_JWT },
  { "auth/enterprise-managed-authorization", "test-tool", "{}", "test", AUTH_ENTERPRISE },
  { "auth/cross-app-access-complete-flow", "test-tool", "{}", "test", AUTH_ENTERPRISE },
  { "auth/wif-jwt-bearer", "test-tool", "{}", "test", AUTH_WORKLOAD_IDENTITY },
  /* DPoP (SEP-1932, RFC 9449): the AS offers ES256 proofs, so the client
   * binds its tokens; the second also demands the AS's and the server's
   * nonces. */
  { "auth/dpop", "test-tool", "{}", "test", AUTH_OAUTH },
  { "auth/dpop-nonce", "test-tool", "{}", "test", AUTH_OAUTH },
  /* Skills over MCP (SEP-2640). */
  { "sep-2640-client-no-prefetch", .skills = SKILLS_LIST },
  { "sep-2640-client-verify-digest", .skills = SKILLS_LOAD_REFUSED },
  { "sep-2640-client-verify-size", .skills = SKILLS_LOAD_REFUSED },
  { "sep-2640-client-verify-frontmatter", .skills = SKILLS_LOAD_REFUSED },
};

/* The headless browser. Its failure, when it had one, explains why the
 * sign-in then timed out. */
static SoupSession *browser;
static char *browser_error;

/* A URL for messages: no query (codes, state) and no user info. */
static char *
describe_uri (GUri *uri)
{
  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_PASSWORD |
                                       G_URI_HIDE_AUTH_PARAMS | G_URI_HIDE_QUERY |
                                       G_URI_HIDE_FRAGMENT);
}

static void
browser_fail (char *reason)
{
  g_printerr ("conformance-client: browser: %s\n", reason);
  if (browser_error == NULL)
    browser_error = reason;
  else
    g_free (reason);
}

static void
callback_answered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(SoupMessage) msg = user_data;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = describe_uri (soup_message_get_uri (msg));

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      browser_fail (g_strdup_printf ("the redirect to %s failed: %s", where, error->message));
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (msg)))
    {
      browser_fail (g_strdup_printf ("the redirect to %s answered HTTP %u",
                                     where, soup_message_get_status (msg)));
      return;
    }
  g_print ("browser: %s answered HTTP %u\n", where, soup_message_get_status (msg));
}

static void
authorization_answered_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(SoupMessage) msg = user_data;
  g_autoptr(SoupMessage) callback_msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) target = NULL;
  g_autofree char *where = describe_uri (soup_message_get_uri (msg));
  g_autofree char *target_where = NULL;
  const char *location;
  guint status;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      browser_fail (g_strdup_printf ("the authorization request to %s failed: %s",
                                     where, error->message));
      return;
    }

  status = soup_message_get_status (msg);
  location = soup_message_headers_get_one (soup_message_get_response_headers (msg), "Location");
  if (!SOUP_STATUS_IS_REDIRECTION (status) || location == NULL)
    {
      browser_fail (g_strdup_printf ("the authorization request to %s answered HTTP %u "
                                     "without a redirect: %.*s",
                                     where, status,
                                     (int) MIN (g_bytes_get_size (body), 200),
                                     (const char *) g_bytes_get_data (body, NULL)));
      return;
    }

  target = g_uri_parse_relative (soup_message_get_uri (msg), location, SOUP_HTTP_URI_FLAGS, &error);
  if (target == NULL)
    {
      browser_fail (g_strdup_printf ("the authorization request to %s redirected to an "
                                     "unreadable Location: %s", where, error->message));
      return;
    }
  target_where = describe_uri (target);
  g_print ("browser: %s redirected to %s\n", where, target_where);

  callback_msg = soup_message_new_from_uri (SOUP_METHOD_GET, target);
  soup_session_send_and_read_async (browser, callback_msg, G_PRIORITY_DEFAULT, NULL,
                                    callback_answered_cb, g_object_ref (callback_msg));
}

/* What a browser does once the person approved: the suite's authorization
 * server approves at once and redirects to the loopback listener. */
static void
open_url_cb (McpOAuthProvider *provider,
             const char       *url,
             gpointer          user_data)
{
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = NULL;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &error);
  if (uri == NULL)
    {
      browser_fail (g_strdup_printf ("the authorization URL cannot be read: %s", error->message));
      return;
    }
  where = describe_uri (uri);
  g_print ("browser: opening %s\n", where);

  if (browser == NULL)
    browser = soup_session_new_with_options ("timeout", 20, NULL);

  msg = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_and_read_async (browser, msg, G_PRIORITY_DEFAULT, NULL,
                                    authorization_answered_cb, g_object_ref (msg));
}

/* The context's member @name, or an error naming it. */
static const char *
context_string (JsonObject  *context,
                const char  *name,
                GError     **error)
{
  const char *value = NULL;

  if (context != NULL)
    value = json_object_get_string_member_with_default (context, name, NULL);
  if (value == NULL)
    g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED, "MCP_CONFORMANCE_CONTEXT has no %s", name);
  return value;
}

/* The "oauth" settings of a grant (src/auth/mcp-oauth-grant.h), filled in
 * from the scenario's context. */
static gboolean
grant_settings (AuthMode     mode,
                JsonObject  *context,
                JsonObject  *config,
                GError     **error)
{
  const char *client_id = context_string (context, "client_id", error);

  if (client_id == NULL)
    return FALSE;
  json_object_set_string_member (config, "clientId", client_id);

  switch (mode)
    {
    case AUTH_CLIENT_CREDENTIALS_BASIC:
      {
        const char *secret = context_string (context, "client_secret", error);

        if (secret == NULL)
          return FALSE;
        json_object_set_string_member (config, "grant", "client_credentials");
        json_object_set_string_member (config, "tokenEndpointAuthMethod", "client_secret_basic");
        json_object_set_string_member (config, "clientSecret", secret);
      }
      return TRUE;

    case AUTH_CLIENT_CREDENTIALS_JWT:
      {
        const char *pem = context_string (context, "private_key_pem", error);
        const char *alg = json_object_get_string_member_with_default (context, "signing_algorithm",
                                                                      "ES256");

        if (pem == NULL)
          return FALSE;
        json_object_set_string_member (config, "grant", "client_credentials");
        json_object_set_string_member (config, "tokenEndpointAuthMethod", "private_key_jwt");
        json_object_set_string_member (config, "privateKey", pem);
        json_object_set_string_member (config, "signingAlgorithm", alg);
      }
      return TRUE;

    case AUTH_ENTERPRISE:
      {
        const char *secret = context_string (context, "client_secret", error);
        const char *issuer = secret ? context_string (context, "idp_issuer", error) : NULL;
        const char *endpoint = issuer ? context_string (context, "idp_token_endpoint", error) : NULL;
        const char *idp_client = endpoint ? context_string (context, "idp_client_id", error) : NULL;
        const char *id_token = idp_client ? context_string (context, "idp_id_token", error) : NULL;
        JsonObject *idp;
        JsonObject *source;

        if (id_token == NULL)
          return FALSE;
        g_setenv (ID_TOKEN_VARIABLE, id_token, TRUE);

        json_object_set_string_member (config, "grant", "enterprise");
        json_object_set_string_member (config, "tokenEndpointAuthMethod", "client_secret_basic");
        json_object_set_string_member (config, "clientSecret", secret);
        idp = json_object_new ();
        json_object_set_string_member (idp, "issuer", issuer);
        json_object_set_string_member (idp, "tokenEndpoint", endpoint);
        json_object_set_string_member (idp, "clientId", idp_client);
        source = json_object_new ();
        json_object_set_string_member (source, "env", ID_TOKEN_VARIABLE);
        json_object_set_object_member (idp, "idToken", source);
        json_object_set_object_member (config, "idp", idp);
      }
      return TRUE;

    case AUTH_WORKLOAD_IDENTITY:
      {
        const char *assertion = context_string (context, "valid_jwt", error);
        JsonObject *source;

        if (assertion == NULL)
          return FALSE;
        g_setenv (ASSERTION_VARIABLE, assertion, TRUE);
        json_object_set_string_member (config, "grant", "jwt_bearer");
        json_object_set_string_member (config, "tokenEndpointAuthMethod", "none");
        source = json_object_new ();
        json_object_set_string_member (source, "env", ASSERTION_VARIABLE);
        json_object_set_object_member (config, "assertion", source);
      }
      return TRUE;

    case AUTH_NONE:
    case AUTH_OAUTH:
    case AUTH_OAUTH_PRE_REGISTERED:
    case AUTH_OAUTH_CLIENT_METADATA:
    default:
      g_assert_not_reached ();
    }
}

static McpOAuthProvider *
create_oauth_provider (const Scenario  *scenario,
                       const char      *url,
                       JsonObject      *context,
                       const char      *store_dir,
                       GError         **error)
{
  g_autoptr(JsonObject) config = json_object_new ();
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autofree char *store_path = g_build_filename (store_dir, "oauth-credentials.json", NULL);
  const char *client_secret = NULL;

  switch (scenario->auth)
    {
    case AUTH_OAUTH_PRE_REGISTERED:
      {
        const char *client_id = NULL;

        if (context != NULL)
          {
            client_id = json_object_get_string_member_with_default (context, "client_id", NULL);
            client_secret = json_object_get_string_member_with_default (context, "client_secret", NULL);
          }
        if (client_id == NULL || client_secret == NULL)
          {
            g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                         "MCP_CONFORMANCE_CONTEXT has no client_id and client_secret "
                         "for the pre-registered client");
            return NULL;
          }
        json_object_set_string_member (config, "clientId", client_id);
      }
      break;

    case AUTH_OAUTH_CLIENT_METADATA:
      json_object_set_string_member (config, "clientMetadataUrl", CONFORMANCE_CLIENT_METADATA_URL);
      break;

    case AUTH_OAUTH:
      break;

    case AUTH_CLIENT_CREDENTIALS_BASIC:
    case AUTH_CLIENT_CREDENTIALS_JWT:
    case AUTH_ENTERPRISE:
    case AUTH_WORKLOAD_IDENTITY:
      if (!grant_settings (scenario->auth, context, config, error))
        return NULL;
      break;

    case AUTH_NONE:
    default:
      g_assert_not_reached ();
    }

  store = mcp_token_store_new ("file", store_path);
  provider = mcp_oauth_provider_new ("conformance", url, config, store);
  if (client_secret != NULL)
    mcp_oauth_provider_set_client_secret (provider, client_secret);
  mcp_oauth_provider_set_callback_timeout (provider, CALLBACK_TIMEOUT_S);
  /* The grants run with no browser at all: none is offered them. */
  if (scenario->auth == AUTH_OAUTH || scenario->auth == AUTH_OAUTH_PRE_REGISTERED ||
      scenario->auth == AUTH_OAUTH_CLIENT_METADATA)
    mcp_oauth_provider_set_open_url_func (provider, open_url_cb, NULL, NULL);

  return g_steal_pointer (&provider);
}

/* auth/scope-retry-limit: giving up with MCP_ERROR_NEEDS_AUTH is the
 * success; anything else stays a failure. */
static gboolean
gave_up_as_expected (const Scenario *scenario,
                     const char     *step,
                     GError        **error)
{
  if (!scenario->expect_needs_auth || !g_error_matches (*error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH))
    return FALSE;

  g_print ("%s: gave up as the scenario expects: %s\n", step, (*error)->message);
  g_clear_error (error);
  return TRUE;
}

static const Scenario *
find_scenario (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (g_strcmp0 (scenarios[i].name, name) == 0)
      return &scenarios[i];
  return NULL;
}

static gboolean
check_tool_result (const char     *tool,
                   const char     *expected_text,
                   McpToolResult  *result,
                   GError        **error)
{
  GPtrArray *content = mcp_tool_result_get_content (result);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; content != NULL && i < content->len; i++)
    {
      const char *part = mcp_content_get_text (g_ptr_array_index (content, i));

      if (part != NULL)
        g_string_append (text, part);
    }

  g_print ("%s: %s\n", tool, text->str);

  if (mcp_tool_result_get_is_error (result))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "tool %s answered with an error: %s", tool, text->str);
      return FALSE;
    }
  if (expected_text != NULL && strstr (text->str, expected_text) == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "tool %s answered “%s”, expected it to contain “%s”",
                   tool, text->str, expected_text);
      return FALSE;
    }
  return TRUE;
}

/* Calls @tool with @arguments (a JSON object, or NULL for none) and checks
 * what it answered. */
static gboolean
call_tool (McpClient   *client,
           const char  *tool,
           JsonObject  *arguments,
           const char  *expected_text,
           GError     **error)
{
  g_autoptr(GAsyncResult) call_result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonObject) empty = json_object_new ();

  mcp_client_call_tool_async (client, tool, arguments != NULL ? arguments : empty,
                              NULL, NULL, test_result_cb, &call_result);
  test_wait_result (&call_result, NULL);
  tool_result = mcp_client_call_tool_finish (client, call_result, error);
  if (tool_result == NULL)
    {
      g_prefix_error (error, "tools/call %s: ", tool);
      return FALSE;
    }

  return check_tool_result (tool, expected_text, tool_result, error);
}

/* The calls of a JSON array of {"name", "arguments", "expected"}, in order. */
static gboolean
call_tools (McpClient   *client,
            JsonArray   *calls,
            GError     **error)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *node = json_array_get_element (calls, i);
      JsonObject *call = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = call != NULL && json_object_has_member (call, "name")
                         ? json_object_get_string_member (call, "name") : NULL;
      JsonObject *arguments = NULL;
      const char *expected = NULL;

      if (name == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED, "call %u names no tool", i);
          return FALSE;
        }
      if (json_object_has_member (call, "arguments") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (call, "arguments")))
        arguments = json_object_get_object_member (call, "arguments");
      if (json_object_has_member (call, "expected"))
        expected = json_object_get_string_member (call, "expected");
      if (!call_tool (client, name, arguments, expected, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
call_scenario_tool (const Scenario  *scenario,
                    McpClient       *client,
                    JsonObject      *context,
                    GError         **error)
{
  g_autoptr(GAsyncResult) list_result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonNode) more_calls = NULL;
  gboolean offered = FALSE;

  mcp_client_list_tools_async (client, NULL, test_result_cb, &list_result);
  test_wait_result (&list_result, NULL);
  tools = mcp_client_list_tools_finish (client, list_result, error);
  if (tools == NULL)
    {
      g_prefix_error (error, "tools/list: ");
      return FALSE;
    }

  if (scenario->calls_from_context)
    {
      JsonArray *calls = NULL;

      if (context != NULL && json_object_has_member (context, "toolCalls") &&
          JSON_NODE_HOLDS_ARRAY (json_object_get_member (context, "toolCalls")))
        calls = json_object_get_array_member (context, "toolCalls");
      if (calls == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                       "MCP_CONFORMANCE_CONTEXT has no toolCalls array");
          return FALSE;
        }
      return call_tools (client, calls, error);
    }

  for (guint i = 0; i < tools->len; i++)
    if (g_strcmp0 (mcp_tool_get_name (g_ptr_array_index (tools, i)), scenario->tool) == 0)
      offered = TRUE;
  if (!offered)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the server does not offer the tool %s (%u tools listed)",
                   scenario->tool, tools->len);
      return FALSE;
    }

  if (scenario->echo_schema_of != NULL)
    {
      g_autoptr(JsonObject) echo = json_object_new ();

      for (guint i = 0; i < tools->len; i++)
        {
          McpTool *tool = g_ptr_array_index (tools, i);

          if (g_strcmp0 (mcp_tool_get_name (tool), scenario->echo_schema_of) == 0)
            json_object_set_object_member (echo, "schema",
                                           json_object_ref (mcp_tool_get_input_schema (tool)));
        }
      if (!json_object_has_member (echo, "schema"))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                       "the server does not offer the tool %s", scenario->echo_schema_of);
          return FALSE;
        }
      return call_tool (client, scenario->tool, echo, scenario->expected_text, error);
    }

  /* Listed is all the scenario wants. */
  if (scenario->arguments == NULL)
    return TRUE;

  arguments = json_from_string (scenario->arguments, NULL);
  if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the arguments for %s are not a JSON object: %s",
                   scenario->tool, scenario->arguments);
      return FALSE;
    }

  if (!call_tool (client, scenario->tool, json_node_get_object (arguments),
                  scenario->expected_text, error))
    return FALSE;

  if (scenario->more_calls == NULL)
    return TRUE;
  more_calls = json_from_string (scenario->more_calls, NULL);
  if (more_calls == NULL || !JSON_NODE_HOLDS_ARRAY (more_calls))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the further calls are not a JSON array: %s", scenario->more_calls);
      return FALSE;
    }
  return call_tools (client, json_node_get_array (more_calls), error);
}

/* Skills (SEP-2640): the list, and for SKILLS_LOAD_REFUSED the first
 * skill loaded, which must fail its verification. */
static gboolean
run_skills (const Scenario  *scenario,
            McpClient       *client,
            GError         **error)
{
  g_autoptr(GAsyncResult) list_result = NULL;
  g_autoptr(GAsyncResult) load_result = NULL;
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GBytes) loaded = NULL;
  g_autoptr(GError) load_error = NULL;
  McpSkill *skill;

  mcp_skills_list_async (client, NULL, test_result_cb, &list_result);
  test_wait_result (&list_result, NULL);
  skills = mcp_skills_list_finish (client, list_result, error);
  if (skills == NULL)
    {
      g_prefix_error (error, "skills/list: ");
      return FALSE;
    }
  for (guint i = 0; i < skills->len; i++)
    g_print ("skill: %s (%s)\n", mcp_skill_get_name (g_ptr_array_index (skills, i)),
             mcp_skill_get_uri (g_ptr_array_index (skills, i)));

  if (scenario->skills == SKILLS_LIST)
    return TRUE;

  if (skills->len == 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED, "skills/list: the server listed no skill");
      return FALSE;
    }
  skill = g_ptr_array_index (skills, 0);
  mcp_skill_load_async (skill, client, NULL, test_result_cb, &load_result);
  test_wait_result (&load_result, NULL);
  loaded = mcp_skill_load_finish (skill, load_result, &load_error);
  if (loaded != NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the skill %s loaded, though its SKILL.md does not match its entry",
                   mcp_skill_get_uri (skill));
      return FALSE;
    }
  g_print ("skill %s refused as the scenario expects: %s\n", mcp_skill_get_uri (skill),
           load_error->message);
  return TRUE;
}

/* elicitation/create (form mode): accepted as a person would who changes
 * nothing: the form made from requestedSchema, with its defaults. */
static void
elicitation_cb (McpClient  *client,
                const char *method,
                JsonObject *params,
                GTask      *reply,
                gpointer    user_data)
{
  g_autoptr(GTask) owned = reply;
  g_autoptr(McpFormField) form = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *content;
  JsonObject *result;
  JsonNode *node;

  if (params == NULL || !json_object_has_member (params, "requestedSchema"))
    {
      g_task_return_new_error (owned, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                               "elicitation/create without requestedSchema");
      return;
    }
  schema = json_node_copy (json_object_get_member (params, "requestedSchema"));
  form = mcp_form_field_new_from_schema (schema);
  mcp_form_field_include_defaults (form);
  content = mcp_form_field_to_json (form, &error);
  if (content == NULL)
    {
      g_task_return_error (owned, g_steal_pointer (&error));
      return;
    }
  g_print ("elicitation/create: accepting the form's defaults\n");

  result = json_object_new ();
  json_object_set_string_member (result, "action", "accept");
  json_object_set_member (result, "content", content);
  node = json_node_init_object (json_node_alloc (), result);
  json_object_unref (result);
  g_task_return_pointer (owned, node, (GDestroyNotify) json_node_unref);
}


/* PLUGBOARD_TRACE_FILE: the wire and the sign-in steps as JSON Lines,
 * whichever way the scenario ended. */
static void
write_trace (McpTrace   *trace,
             const char *path)
{
  g_autoptr(GString) jsonl = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  if (trace == NULL)
    return;
  mcp_trace_append_jsonl (trace, "conformance", jsonl);
  if (!g_file_set_contents (path, jsonl->str, jsonl->len, &error))
    g_printerr ("Cannot write the trace: %s\n", error->message);
}
static gboolean
run_scenario (const Scenario  *scenario,
              const char      *url,
              JsonObject      *context,
              const char      *store_dir,
              GError         **error)
{
  g_autoptr(McpOAuthProvider) provider = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) close_result = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(McpTrace) trace = NULL;
  const char *trace_file = g_getenv ("PLUGBOARD_TRACE_FILE");
  gboolean ok;

  if (scenario->auth != AUTH_NONE)
    {
      provider = create_oauth_provider (scenario, url, context, store_dir, error);
      if (provider == NULL)
        return FALSE;
    }

  transport = mcp_http_transport_new (url, NULL,
                                      provider != NULL ? MCP_AUTH_PROVIDER (provider) : NULL);
  /* PLUGBOARD_TRACE_FILE: the wire and the sign-in steps as JSON Lines, for
   * tests of the sign-in debugger against the suite's authorization servers. */
  if (trace_file != NULL && trace_file[0] != '\0')
    {
      trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
      mcp_transport_set_trace (transport, trace);
      if (provider != NULL)
        mcp_oauth_provider_set_trace (provider, trace);
    }
  client = mcp_client_new (transport);
  mcp_client_set_client_info (client, "plugboard-conformance", PACKAGE_VERSION);
  mcp_client_set_request_timeout (client, REQUEST_TIMEOUT_MS);
  {
    g_autoptr(JsonObject) capabilities = json_object_new ();
    JsonObject *elicitation = json_object_new ();

    json_object_set_object_member (elicitation, "form", json_object_new ());
    json_object_set_object_member (capabilities, "elicitation", elicitation);
    mcp_client_set_capabilities (client, capabilities);
    mcp_client_set_request_handler (client, "elicitation/create", elicitation_cb, NULL, NULL);
  }

  if (!test_client_connect (client, &local_error))
    {
      write_trace (trace, trace_file);
      if (gave_up_as_expected (scenario, "connect", &local_error))
        return TRUE;
      /* Refused means never signed in: a failure after signing in is some
       * other failure. */
      if (scenario->expect_refusal && provider != NULL &&
          !mcp_oauth_provider_get_signed_in (provider))
        {
          g_print ("connect: refused to sign in as the scenario expects: %s\n", local_error->message);
          return TRUE;
        }
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "connect: ");
      return FALSE;
    }
  g_print ("connected: protocol version %s\n", mcp_client_get_protocol_version (client));
  if (provider != NULL)
    g_print ("signed in: %s\n", mcp_oauth_provider_get_signed_in (provider) ? "yes" : "no");

  if (scenario->skills != SKILLS_NONE)
    ok = run_skills (scenario, client, &local_error);
  else
    ok = (scenario->tool == NULL && !scenario->calls_from_context) ||
         call_scenario_tool (scenario, client, context, &local_error);
  if (!ok && gave_up_as_expected (scenario, "tools", &local_error))
    ok = TRUE;
  else if (!ok && scenario->expect_refusal && !mcp_oauth_provider_get_signed_in (provider))
    {
      g_print ("tools: refused to sign in as the scenario expects: %s\n", local_error->message);
      g_clear_error (&local_error);
      ok = TRUE;
    }
  else if (ok && scenario->expect_refusal)
    {
      g_set_error (&local_error, MCP_ERROR, MCP_ERROR_FAILED,
                   "the client should have refused to sign in, yet the tool answered");
      ok = FALSE;
    }
  else if (ok && scenario->expect_needs_auth)
    {
      g_set_error (&local_error, MCP_ERROR, MCP_ERROR_FAILED,
                   "every request should have been refused for want of scope, yet the tool answered");
      ok = FALSE;
    }

  mcp_client_close_async (client, NULL, test_result_cb, &close_result);
  test_wait_result (&close_result, NULL);
  write_trace (trace, trace_file);
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!mcp_client_close_finish (client, close_result, error))
    {
      g_prefix_error (error, "close: ");
      return FALSE;
    }
  return TRUE;
}

/* The token store's directory holds files only. */
static void
remove_store_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);

      g_unlink (file);
    }
  g_rmdir (path);
}

static void
write_status_file (const char *path,
                   const char *contents)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, contents, -1, &error))
    g_printerr ("conformance-client: %s\n", error->message);
}

/* The suite runs the scenarios of a --requirements run in parallel, so
 * there a directory gets one status file per scenario (its name with "/"
 * as "_"), where a single-scenario run gets PLUGBOARD_CONFORMANCE_STATUS. */
static void
write_status (const char *scenario_name,
              int         status,
              const char *reason)
{
  const char *path = g_getenv ("PLUGBOARD_CONFORMANCE_STATUS");
  const char *dir = g_getenv ("PLUGBOARD_CONFORMANCE_STATUS_DIR");
  g_autofree char *contents = NULL;

  contents = g_strdup_printf ("%d\n%s\n", status, reason != NULL ? reason : "");
  if (path != NULL && *path != '\0')
    write_status_file (path, contents);
  if (dir != NULL && *dir != '\0' && scenario_name != NULL && *scenario_name != '\0')
    {
      g_autofree char *name = g_strdelimit (g_strdup (scenario_name), "/", '_');
      g_autofree char *file = g_build_filename (dir, name, NULL);

      write_status_file (file, contents);
    }
}

int
main (int   argc,
      char *argv[])
{
  const char *scenario_name = g_getenv ("MCP_CONFORMANCE_SCENARIO");
  const char *context = g_getenv ("MCP_CONFORMANCE_CONTEXT");
  const Scenario *scenario;
  const char *url;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) context_node = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *store_dir = NULL;
  JsonObject *context_object = NULL;

  setlocale (LC_ALL, "");

  if (argc < 2)
    {
      reason = g_strdup ("usage: conformance-client URL (with MCP_CONFORMANCE_SCENARIO set)");
      goto out;
    }
  url = argv[argc - 1];

  if (scenario_name == NULL || *scenario_name == '\0')
    {
      reason = g_strdup ("MCP_CONFORMANCE_SCENARIO is not set");
      goto out;
    }
  scenario = find_scenario (scenario_name);
  if (scenario == NULL)
    {
      reason = g_strdup_printf ("scenario %s is not one this client knows", scenario_name);
      goto out;
    }

  if (context != NULL && *context != '\0')
    {
      context_node = json_from_string (context, &error);
      if (context_node == NULL)
        {
          reason = g_strdup_printf ("MCP_CONFORMANCE_CONTEXT is not JSON: %s", error->message);
          goto out;
        }
      if (JSON_NODE_HOLDS_OBJECT (context_node))
        context_object = json_node_get_object (context_node);
    }

  if (scenario->auth != AUTH_NONE)
    {
      /* A fresh store: no tokens or client from an earlier run. */
      store_dir = g_dir_make_tmp ("plugboard-conformance-XXXXXX", &error);
      if (store_dir == NULL)
        {
          reason = g_strdup_printf ("no temporary directory for the token store: %s",
                                    error->message);
          goto out;
        }
    }

  /* A scenario that hangs fails (the suite never hears its status). */
  test_set_hang_bound (HANG_BOUND_S);
  test_hang_guard (scenario_name);

  if (!run_scenario (scenario, url, context_object, store_dir, &error))
    {
      if (browser_error != NULL)
        reason = g_strdup_printf ("scenario %s against %s: %s (the headless browser: %s)",
                                  scenario_name, url, error->message, browser_error);
      else
        reason = g_strdup_printf ("scenario %s against %s: %s", scenario_name, url, error->message);
    }

out:
  if (store_dir != NULL)
    remove_store_dir (store_dir);
  g_clear_object (&browser);
  g_clear_pointer (&browser_error, g_free);
  if (reason != NULL)
    g_printerr ("conformance-client: %s\n", reason);
  else
    g_print ("conformance-client: scenario %s done\n", scenario_name);
  write_status (scenario_name, reason != NULL ? 1 : 0, reason);
  return reason != NULL ? 1 : 0;
}
