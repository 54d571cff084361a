/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-fixture"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "mcp-oauth-fixture.h"
#include "test-util.h"

/*
 * The OAuth fixture driven by a plain SoupSession: what the auth code of
 * Plugboard will meet, route by route and switch by switch, and the
 * mcp-oauth-fixture-server executable around it.
 */

#define VERIFIER  "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
#define CHALLENGE "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"   /* RFC 7636 appendix B */

typedef struct
{
  McpOAuthFixture *fixture;
  SoupSession     *session;
} Test;

typedef struct
{
  guint               status;
  char               *body;
  SoupMessageHeaders *headers;
} Response;

static void
response_free (Response *response)
{
  g_free (response->body);
  g_clear_pointer (&response->headers, soup_message_headers_unref);
  g_free (response);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Response, response_free)

typedef struct
{
  gboolean      done;
  GAsyncResult *result;
} Waiter;

static void
waiter_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Waiter *waiter = user_data;

  waiter->result = g_object_ref (result);
  waiter->done = TRUE;
}

static Response *
request_full (SoupSession *session,
              const char  *method,
              const char  *url,
              const char  *content_type,
              const char  *body,
              const char  *authorization,
              const char  *session_id)
{
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  Waiter waiter = { FALSE, NULL };
  Response *response;

  g_assert_nonnull (msg);
  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  if (body != NULL)
    {
      g_autoptr(GBytes) request_body = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, content_type, request_body);
    }
  if (authorization != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
                                  "Authorization", authorization);
  if (session_id != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
                                  "Mcp-Session-Id", session_id);

  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, waiter_cb, &waiter);
  TEST_WAIT_UNTIL (waiter.done);
  bytes = soup_session_send_and_read_finish (session, waiter.result, &error);
  g_object_unref (waiter.result);
  g_assert_no_error (error);

  response = g_new0 (Response, 1);
  response->status = soup_message_get_status (msg);
  response->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  response->headers = soup_message_headers_ref (soup_message_get_response_headers (msg));
  return response;
}

static Response *
get (Test       *t,
     const char *url)
{
  return request_full (t->session, "GET", url, NULL, NULL, NULL, NULL);
}

static Response *
post_form (Test       *t,
           const char *url,
           const char *form,
           const char *authorization)
{
  return request_full (t->session, "POST", url, "application/x-www-form-urlencoded",
                       form, authorization, NULL);
}

static Response *
post_mcp (Test       *t,
          const char *json,
          const char *token)
{
  g_autofree char *authorization = token ? g_strconcat ("Bearer ", token, NULL) : NULL;

  return request_full (t->session, "POST", mcp_oauth_fixture_get_mcp_url (t->fixture),
                       "application/json", json, authorization, NULL);
}

static char *
url (Test       *t,
     const char *path)
{
  return g_strconcat (mcp_oauth_fixture_get_base_url (t->fixture), path, NULL);
}

static const char *
header (Response   *response,
        const char *name)
{
  return soup_message_headers_get_one (response->headers, name);
}

/* The JSON object of a response; freed with the returned parser. */
static JsonObject *
json_body (Response    *response,
           JsonParser **parser_out)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_data (parser, response->body, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  *parser_out = g_steal_pointer (&parser);
  return json_node_get_object (root);
}

static char *
json_string (Response   *response,
             const char *member)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *object = json_body (response, &parser);

  if (!json_object_has_member (object, member))
    return NULL;
  return g_strdup (json_object_get_string_member (object, member));
}

static void
test_setup (Test          *t,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  t->fixture = mcp_oauth_fixture_new (GPOINTER_TO_UINT (data), &error);
  g_assert_no_error (error);
  g_assert_nonnull (t->fixture);
  t->session = soup_session_new ();
}

static void
test_teardown (Test          *t,
               gconstpointer  data)
{
  g_clear_object (&t->session);
  g_clear_pointer (&t->fixture, mcp_oauth_fixture_free);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Registers a client for @redirect_uri by DCR with @method (NULL: none
 * given); returns its id and, if any, its secret. */
static char *
register_client (Test        *t,
                 const char  *redirect_uri,
                 const char  *method,
                 char       **secret)
{
  g_autofree char *register_url = url (t, "/as/register");
  g_autofree char *body = NULL;
  g_autoptr(Response) response = NULL;

  if (method != NULL)
    body = g_strdup_printf ("{\"redirect_uris\":[\"%s\"],\"client_name\":\"test\","
                            "\"token_endpoint_auth_method\":\"%s\"}", redirect_uri, method);
  else
    body = g_strdup_printf ("{\"redirect_uris\":[\"%s\"],\"client_name\":\"test\"}", redirect_uri);

  response = request_full (t->session, "POST", register_url, "application/json", body, NULL, NULL);
  g_assert_cmpuint (response->status, ==, 201);
  g_assert_cmpstr (mcp_oauth_fixture_last_registration (t->fixture), ==, body);
  if (secret != NULL)
    *secret = json_string (response, "client_secret");
  return json_string (response, "client_id");
}

static char *
authorize_url (Test       *t,
               const char *client_id,
               const char *redirect_uri,
               const char *method,
               const char *resource,
               const char *scope)
{
  g_autoptr(GString) s = g_string_new (mcp_oauth_fixture_get_issuer (t->fixture));

  g_string_append (s, "/authorize?response_type=code&client_id=");
  g_string_append_uri_escaped (s, client_id, NULL, FALSE);
  g_string_append (s, "&redirect_uri=");
  g_string_append_uri_escaped (s, redirect_uri, NULL, FALSE);
  g_string_append (s, "&code_challenge=" CHALLENGE "&state=st4te");
  if (method != NULL)
    g_string_append_printf (s, "&code_challenge_method=%s", method);
  if (resource != NULL)
    {
      g_string_append (s, "&resource=");
      g_string_append_uri_escaped (s, resource, NULL, FALSE);
    }
  if (scope != NULL)
    {
      g_string_append (s, "&scope=");
      g_string_append_uri_escaped (s, scope, NULL, FALSE);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The query of a redirect's Location, checked to go to @redirect_uri. */
static GHashTable *
redirect_query (Response   *response,
                const char *redirect_uri)
{
  const char *location = header (response, "Location");
  const char *query;

  g_assert_cmpuint (response->status, ==, 302);
  g_assert_nonnull (location);
  g_assert_true (g_str_has_prefix (location, redirect_uri));
  query = strchr (location, '?');
  g_assert_nonnull (query);
  return soup_form_decode (query + 1);
}

/* An authorization code for @client_id. */
static char *
authorize (Test       *t,
           const char *client_id,
           const char *redirect_uri,
           const char *scope)
{
  g_autofree char *link = authorize_url (t, client_id, redirect_uri, "S256",
                                         mcp_oauth_fixture_get_mcp_url (t->fixture), scope);
  g_autoptr(Response) response = get (t, link);
  g_autoptr(GHashTable) query = redirect_query (response, redirect_uri);

  g_assert_cmpstr (g_hash_table_lookup (query, "state"), ==, "st4te");
  g_assert_cmpstr (g_hash_table_lookup (query, "iss"), ==, mcp_oauth_fixture_get_issuer (t->fixture));
  g_assert_nonnull (g_hash_table_lookup (query, "code"));
  return g_strdup (g_hash_table_lookup (query, "code"));
}

static Response *
exchange_code (Test       *t,
               const char *client_id,
               const char *code,
               const char *redirect_uri,
               const char *verifier)
{
  g_autofree char *token_url = url (t, "/as/token");
  g_autofree char *form = soup_form_encode ("grant_type", "authorization_code",
                                            "code", code,
                                            "client_id", client_id,
                                            "redirect_uri", redirect_uri,
                                            "code_verifier", verifier,
                                            "resource", mcp_oauth_fixture_get_mcp_url (t->fixture),
                                            NULL);

  return post_form (t, token_url, form, NULL);
}

/* A fresh public client's access token (and refresh token) for @scope. */
static char *
sign_in (Test        *t,
         const char  *scope,
         char       **client_id_out,
         char       **refresh_out)
{
  const char *redirect_uri = "http://127.0.0.1:4711/callback";
  g_autofree char *client_id = register_client (t, redirect_uri, "none", NULL);
  g_autofree char *code = authorize (t, client_id, redirect_uri, scope);
  g_autoptr(Response) response = exchange_code (t, client_id, code, redirect_uri, VERIFIER);

  g_assert_cmpuint (response->status, ==, 200);
  if (refresh_out != NULL)
    *refresh_out = json_string (response, "refresh_token");
  if (client_id_out != NULL)
    *client_id_out = g_strdup (client_id);
  return json_string (response, "access_token");
}

static Response *
refresh (Test       *t,
         const char *client_id,
         const char *refresh_token)
{
  g_autofree char *token_url = url (t, "/as/token");
  g_autofree char *form = soup_form_encode ("grant_type", "refresh_token",
                                            "refresh_token", refresh_token,
                                            "client_id", client_id,
                                            "resource", mcp_oauth_fixture_get_mcp_url (t->fixture),
                                            NULL);

  return post_form (t, token_url, form, NULL);
}

static char *
call_text (Response *response)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *object = json_body (response, &parser);
  JsonObject *result;
  JsonArray *content;

  g_assert_true (json_object_has_member (object, "result"));
  result = json_object_get_object_member (object, "result");
  content = json_object_get_array_member (result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 1);
  return g_strdup (json_object_get_string_member (json_array_get_object_element (content, 0), "text"));
}

#define WHOAMI "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"whoami\",\"arguments\":{}}}"

/* Tests */

static void
test_unauthorized (Test          *t,
                   gconstpointer  data)
{
  g_autoptr(Response) response = post_mcp (t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", NULL);
  g_autoptr(Response) bad = post_mcp (t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "at-nothing");
  g_autofree char *expected = g_strdup_printf ("Bearer resource_metadata=\"%s/.well-known/oauth-protected-resource/mcp\", scope=\"read\"",
                                               mcp_oauth_fixture_get_base_url (t->fixture));
  g_autofree char *expected_bad = g_strdup_printf ("Bearer error=\"invalid_token\", resource_metadata=\"%s/.well-known/oauth-protected-resource/mcp\", scope=\"read\"",
                                                   mcp_oauth_fixture_get_base_url (t->fixture));

  g_assert_cmpuint (response->status, ==, 401);
  g_assert_cmpstr (header (response, "WWW-Authenticate"), ==, expected);
  g_assert_cmpuint (bad->status, ==, 401);
  g_assert_cmpstr (header (bad, "WWW-Authenticate"), ==, expected_bad);
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "mcp"), ==, 2);
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "mcp-401"), ==, 2);
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "mcp-403"), ==, 0);
}

static void
check_prm (Test       *t,
           const char *path)
{
  g_autofree char *prm_url = url (t, path);
  g_autoptr(Response) response = get (t, prm_url);
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *prm;
  JsonArray *servers, *scopes;

  g_assert_cmpuint (response->status, ==, 200);
  g_assert_true (g_str_has_prefix (header (response, "Content-Type"), "application/json"));
  prm = json_body (response, &parser);
  g_assert_cmpstr (json_object_get_string_member (prm, "resource"), ==,
                   mcp_oauth_fixture_get_mcp_url (t->fixture));
  servers = json_object_get_array_member (prm, "authorization_servers");
  g_assert_cmpuint (json_array_get_length (servers), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (servers, 0), ==,
                   mcp_oauth_fixture_get_issuer (t->fixture));
  scopes = json_object_get_array_member (prm, "scopes_supported");
  g_assert_cmpuint (json_array_get_length (scopes), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (scopes, 0), ==, "read");
  g_assert_cmpstr (json_array_get_string_element (scopes, 1), ==, "admin");
}

static void
test_prm (Test          *t,
          gconstpointer  data)
{
  g_autofree char *prm_url = url (t, "/.well-known/oauth-protected-resource/mcp");
  g_autoptr(Response) missing = NULL;
  g_autoptr(Response) unauthorized = NULL;

  check_prm (t, "/.well-known/oauth-protected-resource/mcp");
  check_prm (t, "/.well-known/oauth-protected-resource");
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "prm"), ==, 2);

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_NO_PRM);
  missing = get (t, prm_url);
  g_assert_cmpuint (missing->status, ==, 404);
  unauthorized = post_mcp (t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", NULL);
  g_assert_cmpuint (unauthorized->status, ==, 401);
  g_assert_cmpstr (header (unauthorized, "WWW-Authenticate"), ==, "Bearer scope=\"read\"");
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "prm"), ==, 3);
}

static void
check_as_metadata (Test       *t,
                   const char *path,
                   const char *pkce_method)
{
  g_autofree char *meta_url = url (t, path);
  g_autoptr(Response) response = get (t, meta_url);
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *authorize_endpoint = NULL;
  g_autofree char *token_endpoint = NULL;
  g_autofree char *registration_endpoint = NULL;
  const char *issuer = mcp_oauth_fixture_get_issuer (t->fixture);
  JsonObject *meta;
  JsonArray *methods;

  g_assert_cmpuint (response->status, ==, 200);
  meta = json_body (response, &parser);
  authorize_endpoint = g_strconcat (issuer, "/authorize", NULL);
  token_endpoint = g_strconcat (issuer, "/token", NULL);
  registration_endpoint = g_strconcat (issuer, "/register", NULL);
  g_assert_cmpstr (json_object_get_string_member (meta, "issuer"), ==, issuer);
  g_assert_cmpstr (json_object_get_string_member (meta, "authorization_endpoint"), ==, authorize_endpoint);
  g_assert_cmpstr (json_object_get_string_member (meta, "token_endpoint"), ==, token_endpoint);
  g_assert_cmpstr (json_object_get_string_member (meta, "registration_endpoint"), ==, registration_endpoint);
  methods = json_object_get_array_member (meta, "code_challenge_methods_supported");
  g_assert_cmpuint (json_array_get_length (methods), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (methods, 0), ==, pkce_method);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (meta, "token_endpoint_auth_methods_supported")), ==, 4);
  /* authorization_code, refresh_token, client_credentials, jwt-bearer (issue 27) */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (meta, "grant_types_supported")), ==, 4);
}

static void
check_status (Test       *t,
              const char *path,
              guint       status)
{
  g_autofree char *full = url (t, path);
  g_autoptr(Response) response = get (t, full);

  g_assert_cmpuint (response->status, ==, status);
}

static void
test_as_metadata (Test          *t,
                  gconstpointer  data)
{
  check_as_metadata (t, "/.well-known/oauth-authorization-server/as", "S256");
  check_status (t, "/.well-known/openid-configuration/as", 404);
  check_status (t, "/as/.well-known/openid-configuration", 404);
  check_status (t, "/.well-known/oauth-authorization-server", 404);

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_OIDC_ONLY);
  check_status (t, "/.well-known/oauth-authorization-server/as", 404);
  check_as_metadata (t, "/.well-known/openid-configuration/as", "S256");

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_NO_S256);
  check_as_metadata (t, "/.well-known/oauth-authorization-server/as", "plain");

  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "as-metadata"), ==, 5);
}

static void
test_register (Test          *t,
               gconstpointer  data)
{
  g_autofree char *register_url = url (t, "/as/register");
  g_autofree char *public_secret = NULL;
  g_autofree char *post_secret = NULL;
  g_autofree char *public_id = register_client (t, "http://127.0.0.1:1/callback", NULL, &public_secret);
  g_autofree char *post_id = register_client (t, "http://127.0.0.1:1/callback", "client_secret_post", &post_secret);
  g_autoptr(Response) no_uris = NULL;
  g_autoptr(Response) refused = NULL;
  g_autofree char *error = NULL;
  const char *body = "{\"redirect_uris\":[\"http://127.0.0.1:1/callback\"]}";

  g_assert_cmpstr (public_id, ==, "client-1");
  g_assert_null (public_secret);
  g_assert_cmpstr (post_id, ==, "client-2");
  g_assert_nonnull (post_secret);

  no_uris = request_full (t->session, "POST", register_url, "application/json",
                          "{\"client_name\":\"x\"}", NULL, NULL);
  g_assert_cmpuint (no_uris->status, ==, 400);

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_DCR_REFUSED);
  refused = request_full (t->session, "POST", register_url, "application/json", body, NULL, NULL);
  g_assert_cmpuint (refused->status, ==, 400);
  error = json_string (refused, "error");
  g_assert_cmpstr (error, ==, "invalid_client_metadata");
  g_assert_cmpstr (mcp_oauth_fixture_last_registration (t->fixture), ==, body);
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "register"), ==, 4);
}

static void
check_authorize_refused (Test       *t,
                         const char *link,
                         const char *reason)
{
  g_autoptr(Response) response = get (t, link);

  g_assert_cmpuint (response->status, ==, 400);
  g_assert_null (header (response, "Location"));
  g_assert_nonnull (strstr (response->body, reason));
}

static void
test_authorize (Test          *t,
                gconstpointer  data)
{
  const char *redirect_uri = "http://127.0.0.1:4711/callback";
  const char *resource = mcp_oauth_fixture_get_mcp_url (t->fixture);
  g_autofree char *client_id = register_client (t, redirect_uri, "none", NULL);
  g_autofree char *code = authorize (t, client_id, redirect_uri, "read admin");
  g_autofree char *other_port = authorize (t, client_id, "http://127.0.0.1:5000/callback", NULL);
  g_autofree char *plain = authorize_url (t, client_id, redirect_uri, "plain", resource, NULL);
  g_autofree char *no_method = authorize_url (t, client_id, redirect_uri, NULL, resource, NULL);
  g_autofree char *unknown = authorize_url (t, "client-99", redirect_uri, "S256", resource, NULL);
  g_autofree char *no_resource = authorize_url (t, client_id, redirect_uri, "S256", NULL, NULL);
  g_autofree char *other_resource = authorize_url (t, client_id, redirect_uri, "S256", "http://127.0.0.1:1/mcp", NULL);
  g_autofree char *other_path = authorize_url (t, client_id, "http://127.0.0.1:4711/other", "S256", resource, NULL);
  g_autofree char *not_loopback = authorize_url (t, client_id, "http://example.com:4711/callback", "S256", resource, NULL);
  g_autofree char *strict = authorize_url (t, client_id, "http://127.0.0.1:5000/callback", "S256", resource, NULL);
  g_autofree char *wrong_state = authorize_url (t, client_id, redirect_uri, "S256", resource, NULL);
  g_autoptr(Response) wrong_state_response = NULL;
  g_autoptr(GHashTable) query = NULL;

  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (t->fixture, "scope"), ==, NULL);
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (t->fixture, "resource"), ==, resource);
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (t->fixture, "code_challenge_method"), ==, "S256");
  g_assert_cmpstr (code, !=, other_port);

  check_authorize_refused (t, plain, "code_challenge_method");
  g_assert_cmpstr (mcp_oauth_fixture_last_authorize_param (t->fixture, "code_challenge_method"), ==, "plain");
  check_authorize_refused (t, no_method, "code_challenge_method");
  check_authorize_refused (t, unknown, "client_id");
  check_authorize_refused (t, no_resource, "resource");
  check_authorize_refused (t, other_resource, "resource");
  check_authorize_refused (t, other_path, "redirect_uri");
  check_authorize_refused (t, not_loopback, "redirect_uri");

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_STRICT_REDIRECT);
  check_authorize_refused (t, strict, "redirect_uri");
  g_free (authorize (t, client_id, redirect_uri, NULL));

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_WRONG_STATE);
  wrong_state_response = get (t, wrong_state);
  query = redirect_query (wrong_state_response, redirect_uri);
  g_assert_nonnull (g_hash_table_lookup (query, "code"));
  g_assert_nonnull (g_hash_table_lookup (query, "state"));
  g_assert_cmpstr (g_hash_table_lookup (query, "state"), !=, "st4te");

  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "authorize"), ==, 12);
}

static void
test_token (Test          *t,
            gconstpointer  data)
{
  const char *redirect_uri = "http://127.0.0.1:4711/callback";
  g_autofree char *token_url = url (t, "/as/token");
  g_autofree char *client_id = register_client (t, redirect_uri, "none", NULL);
  g_autofree char *code = authorize (t, client_id, redirect_uri, NULL);
  g_autofree char *access = NULL;
  g_autofree char *text = NULL;
  g_autofree char *error = NULL;
  g_autoptr(Response) wrong = NULL;
  g_autoptr(Response) right = NULL;
  g_autoptr(Response) again = NULL;
  g_autoptr(Response) whoami = NULL;
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *tokens;

  wrong = exchange_code (t, client_id, code, redirect_uri, "not-the-verifier-not-the-verifier-not-the-verifier");
  g_assert_cmpuint (wrong->status, ==, 400);
  error = json_string (wrong, "error");
  g_assert_cmpstr (error, ==, "invalid_grant");
  g_clear_pointer (&error, g_free);

  right = exchange_code (t, client_id, code, redirect_uri, VERIFIER);
  g_assert_cmpuint (right->status, ==, 200);
  g_assert_cmpstr (header (right, "Cache-Control"), ==, "no-store");
  tokens = json_body (right, &parser);
  g_assert_cmpstr (json_object_get_string_member (tokens, "token_type"), ==, "Bearer");
  g_assert_cmpint (json_object_get_int_member (tokens, "expires_in"), ==, 3600);
  g_assert_cmpstr (json_object_get_string_member (tokens, "scope"), ==, "read");
  g_assert_nonnull (json_object_get_string_member (tokens, "refresh_token"));
  access = g_strdup (json_object_get_string_member (tokens, "access_token"));

  /* A code is good once. */
  again = exchange_code (t, client_id, code, redirect_uri, VERIFIER);
  g_assert_cmpuint (again->status, ==, 400);
  error = json_string (again, "error");
  g_assert_cmpstr (error, ==, "invalid_grant");

  whoami = post_mcp (t, WHOAMI, access);
  g_assert_cmpuint (whoami->status, ==, 200);
  text = call_text (whoami);
  g_assert_cmpstr (text, ==, "client=client-1 scope=read");

  {
    g_autoptr(Response) unsupported = post_form (t, token_url, "grant_type=password&client_id=client-1", NULL);

    g_assert_cmpuint (unsupported->status, ==, 400);
  }
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "token-code"), ==, 3);
}

static void
test_client_auth (Test          *t,
                  gconstpointer  data)
{
  const char *redirect_uri = "http://127.0.0.1:4711/callback";
  g_autofree char *token_url = url (t, "/as/token");
  g_autofree char *post_secret = NULL;
  g_autofree char *post_id = register_client (t, redirect_uri, "client_secret_post", &post_secret);
  g_autofree char *code = NULL;
  g_autofree char *form = NULL;
  g_autofree char *basic = NULL;
  g_autofree char *wrong_basic = NULL;
  g_autoptr(Response) response = NULL;
  g_autofree char *error = NULL;

  /* pre-registered: client_secret_basic, any loopback port */
  code = authorize (t, "pre-registered", "http://127.0.0.1:6000/callback", NULL);
  form = soup_form_encode ("grant_type", "authorization_code", "code", code,
                           "redirect_uri", "http://127.0.0.1:6000/callback",
                           "code_verifier", VERIFIER,
                           "resource", mcp_oauth_fixture_get_mcp_url (t->fixture), NULL);
  wrong_basic = g_strconcat ("Basic ", "cHJlLXJlZ2lzdGVyZWQ6d3Jvbmc=", NULL);  /* pre-registered:wrong */
  response = post_form (t, token_url, form, wrong_basic);
  g_assert_cmpuint (response->status, ==, 401);
  error = json_string (response, "error");
  g_assert_cmpstr (error, ==, "invalid_client");
  g_clear_pointer (&response, response_free);
  g_clear_pointer (&error, g_free);

  /* The secret in the body is not how this client authenticates. */
  {
    g_autofree char *with_body = g_strconcat (form, "&client_id=pre-registered&client_secret=pre-secret", NULL);

    response = post_form (t, token_url, with_body, NULL);
    g_assert_cmpuint (response->status, ==, 401);
    g_clear_pointer (&response, response_free);
  }

  basic = g_strconcat ("Basic ", "cHJlLXJlZ2lzdGVyZWQ6cHJlLXNlY3JldA==", NULL);  /* pre-registered:pre-secret */
  response = post_form (t, token_url, form, basic);
  g_assert_cmpuint (response->status, ==, 200);
  g_clear_pointer (&response, response_free);
  g_clear_pointer (&code, g_free);
  g_clear_pointer (&form, g_free);

  /* client_secret_post */
  code = authorize (t, post_id, redirect_uri, NULL);
  form = soup_form_encode ("grant_type", "authorization_code", "code", code,
                           "redirect_uri", redirect_uri, "code_verifier", VERIFIER,
                           "resource", mcp_oauth_fixture_get_mcp_url (t->fixture),
                           "client_id", post_id, NULL);
  response = post_form (t, token_url, form, NULL);
  g_assert_cmpuint (response->status, ==, 401);
  g_clear_pointer (&response, response_free);
  {
    g_autofree char *with_secret = g_strdup_printf ("%s&client_secret=%s", form, post_secret);

    response = post_form (t, token_url, with_secret, NULL);
    g_assert_cmpuint (response->status, ==, 200);
  }
}

static void
test_expiry (Test          *t,
             gconstpointer  data)
{
  g_autofree char *access = sign_in (t, NULL, NULL, NULL);
  g_autofree char *short_lived = NULL;
  g_autoptr(Response) ok = post_mcp (t, WHOAMI, access);
  g_autoptr(Response) expired = NULL;
  g_autoptr(Response) expired_short = NULL;

  g_assert_cmpuint (ok->status, ==, 200);

  mcp_oauth_fixture_expire_access_tokens (t->fixture);
  expired = post_mcp (t, WHOAMI, access);
  g_assert_cmpuint (expired->status, ==, 401);
  g_assert_true (g_str_has_prefix (header (expired, "WWW-Authenticate"), "Bearer error=\"invalid_token\""));

  mcp_oauth_fixture_set_token_lifetime (t->fixture, 0);
  short_lived = sign_in (t, NULL, NULL, NULL);
  expired_short = post_mcp (t, WHOAMI, short_lived);
  g_assert_cmpuint (expired_short->status, ==, 401);
  g_assert_true (g_str_has_prefix (header (expired_short, "WWW-Authenticate"), "Bearer error=\"invalid_token\""));
}

static void
test_expired_token_switch (Test          *t,
                           gconstpointer  data)
{
  const char *redirect_uri = "http://127.0.0.1:4711/callback";
  g_autofree char *client_id = register_client (t, redirect_uri, "none", NULL);
  g_autofree char *code = authorize (t, client_id, redirect_uri, NULL);
  g_autoptr(Response) tokens = NULL;
  g_autoptr(Response) call = NULL;
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *object;

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_EXPIRED_TOKEN);
  tokens = exchange_code (t, client_id, code, redirect_uri, VERIFIER);
  g_assert_cmpuint (tokens->status, ==, 200);
  object = json_body (tokens, &parser);
  g_assert_cmpint (json_object_get_int_member (object, "expires_in"), ==, 0);
  call = post_mcp (t, WHOAMI, json_object_get_string_member (object, "access_token"));
  g_assert_cmpuint (call->status, ==, 401);
  g_assert_nonnull (strstr (header (call, "WWW-Authenticate"), "error=\"invalid_token\""));
}

static void
test_refresh (Test          *t,
              gconstpointer  data)
{
  g_autofree char *client_id = NULL;
  g_autofree char *refresh_token = NULL;
  g_autofree char *access = sign_in (t, "read admin", &client_id, &refresh_token);
  g_autofree char *new_access = NULL;
  g_autofree char *new_refresh = NULL;
  g_autofree char *text = NULL;
  g_autofree char *error = NULL;
  g_autoptr(Response) refreshed = NULL;
  g_autoptr(Response) spent = NULL;
  g_autoptr(Response) whoami = NULL;
  g_autoptr(Response) refused = NULL;

  mcp_oauth_fixture_expire_access_tokens (t->fixture);
  refreshed = refresh (t, client_id, refresh_token);
  g_assert_cmpuint (refreshed->status, ==, 200);
  new_access = json_string (refreshed, "access_token");
  new_refresh = json_string (refreshed, "refresh_token");
  g_assert_cmpstr (new_access, !=, access);
  g_assert_cmpstr (new_refresh, !=, refresh_token);

  whoami = post_mcp (t, WHOAMI, new_access);
  g_assert_cmpuint (whoami->status, ==, 200);
  text = call_text (whoami);
  g_assert_cmpstr (text, ==, "client=client-1 scope=read admin");

  /* Rotated: the old refresh token is spent. */
  spent = refresh (t, client_id, refresh_token);
  g_assert_cmpuint (spent->status, ==, 400);

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_REFRESH_REFUSED);
  refused = refresh (t, client_id, new_refresh);
  g_assert_cmpuint (refused->status, ==, 400);
  error = json_string (refused, "error");
  g_assert_cmpstr (error, ==, "invalid_grant");

  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "token-refresh"), ==, 3);
}

static void
test_insufficient_scope (Test          *t,
                         gconstpointer  data)
{
  g_autofree char *reader = sign_in (t, "read", NULL, NULL);
  g_autofree char *admin = sign_in (t, "read admin", NULL, NULL);
  g_autofree char *expected = g_strdup_printf ("Bearer error=\"insufficient_scope\", scope=\"read admin\", resource_metadata=\"%s/.well-known/oauth-protected-resource/mcp\"",
                                               mcp_oauth_fixture_get_base_url (t->fixture));
  const char *admin_call = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"admin\"}}";
  g_autoptr(Response) plain = post_mcp (t, WHOAMI, reader);
  g_autoptr(Response) admin_tool = post_mcp (t, admin_call, reader);
  g_autoptr(Response) list = post_mcp (t, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}", reader);
  g_autoptr(Response) forbidden = NULL;
  g_autoptr(Response) allowed = NULL;

  g_assert_cmpuint (plain->status, ==, 200);
  g_assert_cmpuint (admin_tool->status, ==, 403);
  g_assert_cmpstr (header (admin_tool, "WWW-Authenticate"), ==, expected);
  g_assert_cmpuint (list->status, ==, 200);
  g_assert_nonnull (strstr (list->body, "\"whoami\""));
  g_assert_nonnull (strstr (list->body, "\"admin\""));

  mcp_oauth_fixture_set_flags (t->fixture, MCP_OAUTH_FIXTURE_INSUFFICIENT_SCOPE);
  forbidden = post_mcp (t, WHOAMI, reader);
  g_assert_cmpuint (forbidden->status, ==, 403);
  g_assert_cmpstr (header (forbidden, "WWW-Authenticate"), ==, expected);
  allowed = post_mcp (t, WHOAMI, admin);
  g_assert_cmpuint (allowed->status, ==, 200);

  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "mcp-403"), ==, 2);
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "mcp-401"), ==, 0);
  g_assert_cmpuint (mcp_oauth_fixture_count (t->fixture, "mcp"), ==, 5);
}

static void
test_mcp (Test          *t,
          gconstpointer  data)
{
  g_autofree char *access = sign_in (t, NULL, NULL, NULL);
  g_autofree char *authorization = g_strconcat ("Bearer ", access, NULL);
  const char *mcp = mcp_oauth_fixture_get_mcp_url (t->fixture);
  g_autoptr(Response) init = post_mcp (t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", access);
  g_autoptr(Response) future = post_mcp (t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2099-01-01\"}}", access);
  g_autoptr(Response) note = NULL;
  g_autoptr(Response) stream = NULL;
  g_autoptr(Response) ping = NULL;
  g_autoptr(Response) end = NULL;
  g_autoptr(Response) gone = NULL;
  const char *session_id;

  g_assert_cmpuint (init->status, ==, 200);
  g_assert_true (g_str_has_prefix (header (init, "Content-Type"), "application/json"));
  g_assert_nonnull (strstr (init->body, "\"protocolVersion\":\"2025-03-26\""));
  session_id = header (init, "Mcp-Session-Id");
  g_assert_nonnull (session_id);
  g_assert_nonnull (strstr (future->body, "\"protocolVersion\":\"2025-11-25\""));

  note = request_full (t->session, "POST", mcp, "application/json",
                       "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                       authorization, session_id);
  g_assert_cmpuint (note->status, ==, 202);
  ping = request_full (t->session, "POST", mcp, "application/json",
                       "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", authorization, session_id);
  g_assert_cmpuint (ping->status, ==, 200);
  g_assert_nonnull (strstr (ping->body, "\"result\":{}"));
  stream = request_full (t->session, "GET", mcp, NULL, NULL, authorization, session_id);
  g_assert_cmpuint (stream->status, ==, 405);
  end = request_full (t->session, "DELETE", mcp, NULL, NULL, authorization, session_id);
  g_assert_cmpuint (end->status, ==, 200);
  gone = request_full (t->session, "POST", mcp, "application/json",
                       "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", authorization, session_id);
  g_assert_cmpuint (gone->status, ==, 404);
}

/* browse_async against a loopback listener */

typedef struct
{
  char  *code;
  char  *state;
  guint  hits;
} Listener;

static void
listener_cb (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  Listener *listener = user_data;

  listener->hits++;
  if (!g_str_equal (path, "/callback") || query == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  g_free (listener->code);
  g_free (listener->state);
  listener->code = g_strdup (g_hash_table_lookup (query, "code"));
  listener->state = g_strdup (g_hash_table_lookup (query, "state"));
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, "<p>done</p>", 11);
}

static SoupServer *
listener_new (Listener  *listener,
              char     **redirect_uri)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) local = NULL;
  g_autoptr(GError) error = NULL;
  GSList *listeners;

  soup_server_add_handler (server, NULL, listener_cb, listener, NULL);
  soup_server_listen (server, address, 0, &error);
  g_assert_no_error (error);
  listeners = soup_server_get_listeners (server);
  local = g_socket_get_local_address (listeners->data, &error);
  g_slist_free (listeners);
  g_assert_no_error (error);
  *redirect_uri = g_strdup_printf ("http://127.0.0.1:%u/callback",
                                   g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local)));
  return g_steal_pointer (&server);
}

static void
test_browse (Test          *t,
             gconstpointer  data)
{
  Listener listener = { NULL, NULL, 0 };
  g_autofree char *redirect_uri = NULL;
  g_autoptr(SoupServer) server = listener_new (&listener, &redirect_uri);
  g_autofree char *client_id = register_client (t, redirect_uri, "none", NULL);
  g_autofree char *link = authorize_url (t, client_id, redirect_uri, "S256",
                                         mcp_oauth_fixture_get_mcp_url (t->fixture), "read");
  g_autofree char *refused_url = authorize_url (t, client_id, redirect_uri, "S256", NULL, "read");
  g_autoptr(GError) error = NULL;
  g_autoptr(Response) tokens = NULL;
  Waiter waiter = { FALSE, NULL };
  Waiter refused = { FALSE, NULL };
  guint status;

  mcp_oauth_fixture_browse_async (link, NULL, waiter_cb, &waiter);
  TEST_WAIT_UNTIL (waiter.done);
  status = mcp_oauth_fixture_browse_finish (waiter.result, &error);
  g_object_unref (waiter.result);
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 200);
  g_assert_cmpuint (listener.hits, ==, 1);
  g_assert_cmpstr (listener.state, ==, "st4te");
  g_assert_nonnull (listener.code);

  tokens = exchange_code (t, client_id, listener.code, redirect_uri, VERIFIER);
  g_assert_cmpuint (tokens->status, ==, 200);

  /* No redirect: an error with the status and body. */
  mcp_oauth_fixture_browse_async (refused_url, NULL, waiter_cb, &refused);
  TEST_WAIT_UNTIL (refused.done);
  status = mcp_oauth_fixture_browse_finish (refused.result, &error);
  g_object_unref (refused.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "400"));
  g_assert_nonnull (strstr (error->message, "resource"));
  g_assert_cmpuint (status, ==, 0);
  g_assert_cmpuint (listener.hits, ==, 1);

  soup_server_disconnect (server);
  g_free (listener.code);
  g_free (listener.state);
}

/* The executable */

static const char *
server_path (void)
{
  const char *path = g_getenv ("MCP_TEST_OAUTH_FIXTURE_SERVER");

  if (path == NULL)
    g_test_skip ("MCP_TEST_OAUTH_FIXTURE_SERVER is not set");
  return path;
}

static char *
read_line (GDataInputStream *stream)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { FALSE, NULL };
  char *line;

  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, NULL, waiter_cb, &waiter);
  TEST_WAIT_UNTIL (waiter.done);
  line = g_data_input_stream_read_line_finish_utf8 (stream, waiter.result, NULL, &error);
  g_object_unref (waiter.result);
  g_assert_no_error (error);
  return line;
}

static void
wait_exit (GSubprocess *process)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { FALSE, NULL };

  g_subprocess_wait_async (process, NULL, waiter_cb, &waiter);
  TEST_WAIT_UNTIL (waiter.done);
  g_subprocess_wait_finish (process, waiter.result, &error);
  g_object_unref (waiter.result);
  g_assert_no_error (error);
}

static void
test_executable (void)
{
  const char *path = server_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GDataInputStream) err = NULL;
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *line = NULL;
  g_autofree char *prm_url = NULL;
  g_autofree char *counts = NULL;
  g_autoptr(Response) prm = NULL;
  g_autoptr(Response) unauthorized = NULL;
  const char *mcp;

  if (path == NULL)
    return;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, path, "--insufficient-scope", "--token-lifetime", "5", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));

  line = read_line (out);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "listening on http://127.0.0.1:"));
  g_assert_true (g_str_has_suffix (line, "/mcp"));
  mcp = line + strlen ("listening on ");

  prm_url = g_strdup_printf ("%.*s/.well-known/oauth-protected-resource/mcp",
                             (int) (strlen (mcp) - strlen ("/mcp")), mcp);
  prm = request_full (session, "GET", prm_url, NULL, NULL, NULL, NULL);
  g_assert_cmpuint (prm->status, ==, 200);
  g_assert_nonnull (strstr (prm->body, "\"authorization_servers\""));
  unauthorized = request_full (session, "POST", mcp, "application/json", "{}", NULL, NULL);
  g_assert_cmpuint (unauthorized->status, ==, 401);

  /* SIGUSR2: the counters on stderr */
  g_subprocess_send_signal (process, SIGUSR2);
  for (guint i = 0; i < 20 && counts == NULL; i++)
    {
      g_autofree char *err_line = read_line (err);

      g_assert_nonnull (err_line);
      if (g_str_equal (err_line, "count mcp-401 1"))
        counts = g_steal_pointer (&err_line);
    }
  g_assert_cmpstr (counts, ==, "count mcp-401 1");

  g_subprocess_send_signal (process, SIGTERM);
  wait_exit (process);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
}

static void
test_executable_stdin (void)
{
  const char *path = server_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;

  if (path == NULL)
    return;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                              &error, path, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = read_line (out);
  g_assert_true (g_str_has_prefix (line, "listening on "));

  g_output_stream_close (g_subprocess_get_stdin_pipe (process), NULL, &error);
  g_assert_no_error (error);
  wait_exit (process);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
}

static void
run_browse (const char *path,
            const char *target,
            int         expected_status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              path, "--browse", target, NULL);
  g_assert_no_error (error);
  wait_exit (process);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, expected_status);
}

static void
test_executable_browse (Test          *t,
                        gconstpointer  data)
{
  const char *path = server_path ();
  Listener listener = { NULL, NULL, 0 };
  g_autofree char *redirect_uri = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autofree char *client_id = NULL;
  g_autofree char *link = NULL;
  g_autofree char *refused = NULL;

  if (path == NULL)
    return;

  server = listener_new (&listener, &redirect_uri);
  client_id = register_client (t, redirect_uri, "none", NULL);
  link = authorize_url (t, client_id, redirect_uri, "S256",
                        mcp_oauth_fixture_get_mcp_url (t->fixture), NULL);
  refused = authorize_url (t, "client-99", redirect_uri, "S256",
                           mcp_oauth_fixture_get_mcp_url (t->fixture), NULL);

  run_browse (path, link, 0);
  g_assert_cmpuint (listener.hits, ==, 1);
  g_assert_nonnull (listener.code);
  run_browse (path, refused, 1);
  g_assert_cmpuint (listener.hits, ==, 1);

  soup_server_disconnect (server);
  g_free (listener.code);
  g_free (listener.state);
}

/* The switches of the 2026-07-28 auth additions. */
static void
test_2026_07_28_switches (Test          *t,
                          gconstpointer  data)
{
  const char *redirect_uri = "http://127.0.0.1:4711/callback";
  g_autofree char *client_id = register_client (t, redirect_uri, "none", NULL);
  g_autofree char *prm_url = url (t, "/.well-known/oauth-protected-resource/mcp");
  g_autofree char *meta_url = url (t, "/.well-known/oauth-authorization-server/as");
  g_autofree char *link = authorize_url (t, client_id, redirect_uri, "S256",
                                         mcp_oauth_fixture_get_mcp_url (t->fixture), NULL);
  const McpOAuthFixtureFlags none = MCP_OAUTH_FIXTURE_NONE;
  struct {
    McpOAuthFixtureFlags  flags;
    const char           *resource;       /* NULL: the MCP URL */
    gboolean              iss_supported;
    guint                 scopes;
    const char           *iss;            /* NULL: the issuer; "": none */
  } cases[] = {
    { none, NULL, FALSE, 2, NULL },
    { MCP_OAUTH_FIXTURE_WRONG_RESOURCE, MCP_OAUTH_FIXTURE_OTHER_RESOURCE, FALSE, 2, NULL },
    { MCP_OAUTH_FIXTURE_ISS_SUPPORTED, NULL, TRUE, 2, NULL },
    { MCP_OAUTH_FIXTURE_WRONG_ISS, NULL, FALSE, 2, MCP_OAUTH_FIXTURE_OTHER_ISSUER },
    { MCP_OAUTH_FIXTURE_NO_ISS | MCP_OAUTH_FIXTURE_ISS_SUPPORTED, NULL, TRUE, 2, "" },
    { MCP_OAUTH_FIXTURE_OFFLINE_ACCESS, NULL, FALSE, 3, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(Response) prm = NULL;
      g_autoptr(Response) meta = NULL;
      g_autoptr(Response) answer = NULL;
      g_autoptr(JsonParser) prm_parser = NULL;
      g_autoptr(JsonParser) meta_parser = NULL;
      g_autoptr(GHashTable) query = NULL;
      JsonObject *object;
      JsonArray *scopes;

      mcp_oauth_fixture_set_flags (t->fixture, cases[i].flags);

      prm = get (t, prm_url);
      object = json_body (prm, &prm_parser);
      g_assert_cmpstr (json_object_get_string_member (object, "resource"), ==,
                       cases[i].resource ? cases[i].resource : mcp_oauth_fixture_get_mcp_url (t->fixture));

      meta = get (t, meta_url);
      object = json_body (meta, &meta_parser);
      g_assert_cmpint (json_object_get_boolean_member_with_default (object, "authorization_response_iss_parameter_supported",
                                                                    FALSE), ==, cases[i].iss_supported);
      scopes = json_object_get_array_member (object, "scopes_supported");
      g_assert_cmpuint (json_array_get_length (scopes), ==, cases[i].scopes);
      if (cases[i].scopes == 3)
        g_assert_cmpstr (json_array_get_string_element (scopes, 2), ==, "offline_access");

      answer = get (t, link);
      query = redirect_query (answer, redirect_uri);
      g_assert_nonnull (g_hash_table_lookup (query, "code"));
      if (cases[i].iss != NULL && cases[i].iss[0] == '\0')
        g_assert_false (g_hash_table_contains (query, "iss"));
      else
        g_assert_cmpstr (g_hash_table_lookup (query, "iss"), ==,
                         cases[i].iss ? cases[i].iss : mcp_oauth_fixture_get_issuer (t->fixture));
    }
}

#define ADD(path, func) \
  g_test_add (path, Test, NULL, test_setup, func, test_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (20);

  ADD ("/oauth-fixture/unauthorized", test_unauthorized);
  ADD ("/oauth-fixture/prm", test_prm);
  ADD ("/oauth-fixture/as-metadata", test_as_metadata);
  ADD ("/oauth-fixture/register", test_register);
  ADD ("/oauth-fixture/authorize", test_authorize);
  ADD ("/oauth-fixture/token", test_token);
  ADD ("/oauth-fixture/client-auth", test_client_auth);
  ADD ("/oauth-fixture/mcp", test_mcp);
  ADD ("/oauth-fixture/expiry", test_expiry);
  ADD ("/oauth-fixture/expired-token-switch", test_expired_token_switch);
  ADD ("/oauth-fixture/refresh", test_refresh);
  ADD ("/oauth-fixture/insufficient-scope", test_insufficient_scope);
  ADD ("/oauth-fixture/browse", test_browse);
  ADD ("/oauth-fixture/2026-07-28-switches", test_2026_07_28_switches);
  ADD ("/oauth-fixture/executable/browse", test_executable_browse);
  g_test_add_func ("/oauth-fixture/executable/serve", test_executable);
  g_test_add_func ("/oauth-fixture/executable/stdin", test_executable_stdin);

  return g_test_run ();
}
