/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-oauth"

#include "config.h"

#include "fuzz.h"
#include "fuzz-async.h"

#include <stdlib.h>
#include <string.h>

#include <libsoup/soup.h>

#include "mcp-auth-provider.h"
#include "mcp-json-private.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-tokens.h"

/* What authorization servers and resource servers say, and what Plugboard
 * stored of it: a WWW-Authenticate header, protected resource metadata
 * (RFC 9728), authorization server metadata (RFC 8414), a client
 * registration answer (RFC 7591), a token answer (RFC 6749 §5), stored
 * tokens and a stored client.
 *
 * The input is up to seven parts split by lines "====", in that order:
 * WWW-Authenticate, PRM, AS metadata, registration answer, token answer,
 * stored tokens, stored client. A part that begins with three digits and
 * a space is answered with that HTTP status (200 to 599, but 204 and 304). "$ORIGIN" in a part is the
 * loopback server's origin, so that metadata can point at it.
 *
 * The answers come from a real SoupServer on 127.0.0.1 in this process,
 * through the real discovery, registration, code exchange and refresh.
 * Checks: a refusal has a message; discovered endpoints pass the URL
 * policy; tokens and clients write as JSON that reads back the same.
 * Warnings and criticals are fatal. */

#define SEPARATOR "\n====\n"

enum { PART_WWW_AUTHENTICATE, PART_PRM, PART_AS, PART_REGISTER, PART_TOKEN,
       PART_STORED_TOKENS, PART_STORED_CLIENT, N_PARTS };

static SoupServer *server;
static SoupSession *session;
static char *origin;
static char *parts[N_PARTS];

static void
fail (const char *what)
{
  g_printerr ("fuzz-oauth: %s\n", what);
  abort ();
}

/* FUZZ_VERBOSE=1 says how far an input got. */
static void
say (const char   *step,
     const GError *error)
{
  if (g_getenv ("FUZZ_VERBOSE") != NULL)
    g_printerr ("fuzz-oauth: %s%s%s\n", step, error != NULL ? ": " : "",
                error != NULL ? error->message : "");
}

static void
check_error (const GError *error,
             const char   *what)
{
  if (error == NULL || error->message == NULL || error->message[0] == '\0' ||
      !g_utf8_validate (error->message, -1, NULL))
    fail (what);
}

static void
answer (SoupServerMessage *message,
        const char        *part)
{
  guint status = SOUP_STATUS_OK;

  if (part == NULL)
    {
      soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  if (g_ascii_isdigit (part[0]) && g_ascii_isdigit (part[1]) && g_ascii_isdigit (part[2]) &&
      part[3] == ' ')
    {
      status = (guint) g_ascii_strtoull (part, NULL, 10);
      part += 4;
      /* A 1xx is not an answer (the client rightly waits for one until its
       * timeout); a 204 or 304 has no body. Neither is what this is about. */
      if (status < 200 || status > 599 || status == 204 || status == 304)
        status = SOUP_STATUS_OK;
    }
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY,
                                    part, strlen (part));
}

static void
handler (SoupServer        *soup_server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  if (strstr (path, "oauth-protected-resource") != NULL)
    answer (message, parts[PART_PRM]);
  else if (strstr (path, "oauth-authorization-server") != NULL ||
           strstr (path, "openid-configuration") != NULL)
    answer (message, parts[PART_AS]);
  else if (g_str_has_suffix (path, "/register"))
    answer (message, parts[PART_REGISTER]);
  else if (g_str_has_suffix (path, "/token"))
    answer (message, parts[PART_TOKEN]);
  else
    answer (message, NULL);
}

static void
set_up (void)
{
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;
  g_autofree char *uri = NULL;

  if (server != NULL)
    return;

  fuzz_abort_on_warnings ();

  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, handler, NULL, NULL);
  if (!soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    {
      g_printerr ("fuzz-oauth: cannot listen: %s\n", error->message);
      abort ();
    }
  uris = soup_server_get_uris (server);
  uri = g_uri_to_string (uris->data);
  origin = g_strndup (uri, strlen (uri) - (g_str_has_suffix (uri, "/") ? 1 : 0));
  /* no proxy: the answers are on loopback, and libproxy is slow */
  session = soup_session_new_with_options ("proxy-resolver", NULL, NULL);
  /* one answer waits at most this long (nothing here waits at all) */
  mcp_oauth_session_set_request_timeout (session, 5000);
}

static void
check_tokens (McpOAuthTokens *tokens)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpOAuthTokens) again = NULL;
  g_autoptr(GError) error = NULL;

  if (tokens->access_token == NULL || tokens->access_token[0] == '\0')
    fail ("tokens without an access token");
  if (tokens->token_type == NULL)
    fail ("tokens without a type");
  (void) mcp_oauth_tokens_expire_within (tokens, 60);

  node = mcp_oauth_tokens_to_json (tokens);
  again = mcp_oauth_tokens_from_json (node, &error);
  if (again == NULL)
    fail ("tokens that do not read back");
  if (g_strcmp0 (again->access_token, tokens->access_token) != 0 ||
      g_strcmp0 (again->refresh_token, tokens->refresh_token) != 0 ||
      g_strcmp0 (again->scope, tokens->scope) != 0 ||
      g_strcmp0 (again->token_endpoint, tokens->token_endpoint) != 0 ||
      g_strcmp0 (again->issuer, tokens->issuer) != 0 ||
      again->expires_at != tokens->expires_at)
    fail ("tokens that read back otherwise");
}

static void
check_client (McpOAuthClientInfo *client)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpOAuthClientInfo) again = NULL;
  g_autoptr(GError) error = NULL;

  if (client->client_id == NULL || client->client_id[0] == '\0')
    fail ("a client without an id");

  node = mcp_oauth_client_info_to_json (client);
  again = mcp_oauth_client_info_from_json (node, &error);
  if (again == NULL)
    fail ("a client that does not read back");
  if (again->kind != client->kind ||
      g_strcmp0 (again->client_id, client->client_id) != 0 ||
      g_strcmp0 (again->client_secret, client->client_secret) != 0 ||
      g_strcmp0 (again->issuer, client->issuer) != 0 ||
      g_strcmp0 (again->token_endpoint_auth_method, client->token_endpoint_auth_method) != 0 ||
      g_strcmp0 (again->redirect_uri, client->redirect_uri) != 0)
    fail ("a client that reads back otherwise");
}

static void
check_www_authenticate (const char *header)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = NULL;
  GHashTableIter iter;
  gpointer key, value;

  scheme = mcp_auth_parse_www_authenticate (header, &params);
  if (scheme == NULL)
    return;
  if (scheme[0] == '\0' || params == NULL)
    fail ("a challenge without a scheme or parameters");

  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *lower = g_ascii_strdown (key, -1);

      if (strcmp (lower, key) != 0)
        fail ("a parameter name that is not lower-case");
      if (value == NULL)
        fail ("a parameter without a value");
    }
}

static void
check_stored (void)
{
  if (parts[PART_STORED_TOKENS] != NULL)
    {
      g_autoptr(JsonNode) node = mcp_json_parse (parts[PART_STORED_TOKENS], strlen (parts[PART_STORED_TOKENS]), NULL);
      g_autoptr(McpOAuthTokens) tokens = NULL;
      g_autoptr(GError) error = NULL;

      tokens = mcp_oauth_tokens_from_json (node, &error);
      if (tokens != NULL)
        check_tokens (tokens);
      else
        check_error (error, "stored tokens refused without a message");
    }

  if (parts[PART_STORED_CLIENT] != NULL)
    {
      g_autoptr(JsonNode) node = mcp_json_parse (parts[PART_STORED_CLIENT], strlen (parts[PART_STORED_CLIENT]), NULL);
      g_autoptr(McpOAuthClientInfo) client = NULL;
      g_autoptr(GError) error = NULL;

      client = mcp_oauth_client_info_from_json (node, &error);
      if (client != NULL)
        check_client (client);
      else
        check_error (error, "a stored client refused without a message");
    }
}

static void
check_metadata (McpOAuthMetadata *metadata)
{
  g_autoptr(McpOAuthMetadata) copy = mcp_oauth_metadata_copy (metadata);
  g_autofree char *scope = NULL;

  if (metadata->authorization_endpoint == NULL || metadata->token_endpoint == NULL)
    fail ("metadata without endpoints");
  if (!g_str_has_prefix (metadata->authorization_endpoint, "https://") &&
      !g_str_has_prefix (metadata->authorization_endpoint, "http://"))
    fail ("an authorization endpoint that is neither https nor http");
  (void) mcp_oauth_metadata_supports_s256 (metadata);
  (void) mcp_oauth_metadata_get_expected_issuer (metadata);
  (void) mcp_oauth_metadata_offers_offline_access (metadata);
  scope = mcp_oauth_metadata_pick_scope (metadata, "read write");
  g_clear_pointer (&scope, g_free);
  scope = mcp_oauth_metadata_pick_scope (metadata, NULL);
  (void) mcp_oauth_pick_token_endpoint_auth_method (metadata, TRUE);
  (void) mcp_oauth_pick_token_endpoint_auth_method (metadata, FALSE);
}

static void
run_flow (void)
{
  g_autoptr(GAsyncResult) discovered = NULL;
  g_autoptr(GAsyncResult) registered = NULL;
  g_autoptr(GAsyncResult) exchanged = NULL;
  g_autoptr(McpOAuthMetadata) metadata = NULL;
  g_autoptr(McpOAuthClientInfo) client = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *server_url = g_strconcat (origin, "/mcp", NULL);
  const char *redirect_uri = "http://127.0.0.1:1/callback";

  mcp_oauth_discover_async (session, server_url, NULL, NULL, NULL, fuzz_result_cb, &discovered);
  metadata = mcp_oauth_discover_finish (fuzz_wait_for (&discovered), &error);
  say ("discovery", error);
  if (metadata == NULL)
    {
      check_error (error, "discovery failed without a message");
      return;
    }
  check_metadata (metadata);

  if (metadata->registration_endpoint != NULL)
    {
      mcp_oauth_register_client_async (session, metadata, redirect_uri, "read", NULL,
                                       fuzz_result_cb, &registered);
      client = mcp_oauth_register_client_finish (fuzz_wait_for (&registered), &error);
      say ("registration", error);
      if (client == NULL)
        check_error (error, "registration failed without a message");
      else
        check_client (client);
      g_clear_error (&error);
    }
  if (client == NULL)
    {
      client = g_new0 (McpOAuthClientInfo, 1);
      client->kind = MCP_OAUTH_CLIENT_PRE_REGISTERED;
      client->issuer = g_strdup (metadata->issuer);
      client->client_id = g_strdup ("fuzz-client");
      client->client_secret = g_strdup ("fuzz-secret");
      client->token_endpoint_auth_method = g_strdup ("client_secret_basic");
    }

  mcp_oauth_exchange_code_async (session, metadata, client, "code", "verifier", redirect_uri,
                                 "read", NULL, NULL, fuzz_result_cb, &exchanged);
  tokens = mcp_oauth_exchange_code_finish (fuzz_wait_for (&exchanged), &error);
  say ("code exchange", error);
  if (tokens == NULL)
    {
      check_error (error, "the code exchange failed without a message");
      return;
    }
  check_tokens (tokens);

  if (tokens->refresh_token != NULL && tokens->token_endpoint != NULL)
    {
      g_autoptr(GAsyncResult) refreshed = NULL;
      g_autoptr(McpOAuthTokens) fresh = NULL;

      mcp_oauth_refresh_async (session, tokens, client, metadata->resource, NULL, NULL,
                               fuzz_result_cb, &refreshed);
      fresh = mcp_oauth_refresh_finish (fuzz_wait_for (&refreshed), &error);
      say ("refresh", error);
      if (fresh == NULL)
        check_error (error, "a refresh failed without a message");
      else
        check_tokens (fresh);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) split = NULL;
  guint n;

  /* The parts are C strings: a header, or a body as the code reads it. */
  if (memchr (data, '\0', size) != NULL)
    return 0;

  set_up ();

  text = g_strndup ((const char *) data, size);
  split = g_strsplit (text, SEPARATOR, N_PARTS);
  n = g_strv_length (split);
  for (guint i = 0; i < N_PARTS; i++)
    {
      g_autoptr(GString) part = NULL;

      g_clear_pointer (&parts[i], g_free);
      if (i >= n)
        continue;
      part = g_string_new (split[i]);
      g_string_replace (part, "$ORIGIN", origin, 0);
      parts[i] = g_string_free (g_steal_pointer (&part), FALSE);
    }

  if (parts[PART_WWW_AUTHENTICATE] != NULL)
    check_www_authenticate (parts[PART_WWW_AUTHENTICATE]);
  check_stored ();
  if (n > PART_PRM)
    run_flow ();

  for (guint i = 0; i < N_PARTS; i++)
    g_clear_pointer (&parts[i], g_free);

  return 0;
}
