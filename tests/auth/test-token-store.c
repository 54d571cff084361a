/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-token-store"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <libsecret/secret.h>

#include "mcp-error.h"
#include "mcp-token-store.h"
#include "test-util.h"

/* McpTokenStore. The Secret Service cases need run-with-keyring.sh (a
 * private D-Bus session with gnome-keyring, PLUGBOARD_TEST_KEYRING_HOME set)
 * and are skipped without it, so the person's own keyring is never touched.
 * The file cases and the fallback (a subprocess whose session bus address
 * leads nowhere) run everywhere. */

#define ALPHA     "alpha"
#define ALPHA_URL "https://alpha.example/mcp"
#define BETA      "beta"
#define BETA_URL  "https://beta.example/mcp"

static const SecretSchema schema = {
  "org.plugboard.Plugboard.OAuth",
  SECRET_SCHEMA_NONE,
  {
    { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  }
};

static gboolean
have_test_keyring (void)
{
  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL)
    {
      g_test_skip ("needs a private Secret Service: run under tests/auth/run-with-keyring.sh");
      return FALSE;
    }

  return TRUE;
}

/* Driving the async API */

static McpOAuthTokens *
lookup_tokens (McpTokenStore  *store,
               const char     *name,
               const char     *url,
               GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_token_store_lookup_tokens_async (store, name, url, NULL, test_result_cb, &result);
  return mcp_token_store_lookup_tokens_finish (store, test_wait_result (&result, NULL), error);
}

static gboolean
store_tokens (McpTokenStore         *store,
              const char            *name,
              const char            *url,
              const McpOAuthTokens  *tokens,
              GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_token_store_store_tokens_async (store, name, url, tokens, NULL, test_result_cb, &result);
  return mcp_token_store_store_tokens_finish (store, test_wait_result (&result, NULL), error);
}

static McpOAuthClientInfo *
lookup_client (McpTokenStore  *store,
               const char     *name,
               const char     *url,
               GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_token_store_lookup_client_async (store, name, url, NULL, test_result_cb, &result);
  return mcp_token_store_lookup_client_finish (store, test_wait_result (&result, NULL), error);
}

static gboolean
store_client (McpTokenStore             *store,
              const char                *name,
              const char                *url,
              const McpOAuthClientInfo  *client,
              GError                   **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_token_store_store_client_async (store, name, url, client, NULL, test_result_cb, &result);
  return mcp_token_store_store_client_finish (store, test_wait_result (&result, NULL), error);
}

static gboolean
clear (McpTokenStore  *store,
       const char     *name,
       const char     *url,
       GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_token_store_clear_async (store, name, url, NULL, test_result_cb, &result);
  return mcp_token_store_clear_finish (store, test_wait_result (&result, NULL), error);
}

/* Values */

static McpOAuthTokens *
make_tokens (const char *access_token,
             const char *refresh_token)
{
  McpOAuthTokens *tokens = g_new0 (McpOAuthTokens, 1);

  tokens->access_token = g_strdup (access_token);
  tokens->token_type = g_strdup ("Bearer");
  tokens->refresh_token = g_strdup (refresh_token);
  tokens->scope = g_strdup ("mcp:tools read");
  tokens->expires_at = 1893456000;
  tokens->token_endpoint = g_strdup ("https://as.example/token");
  tokens->issuer = g_strdup ("https://as.example");

  return tokens;
}

static void
assert_tokens_equal (const McpOAuthTokens *a,
                     const McpOAuthTokens *b)
{
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpstr (a->access_token, ==, b->access_token);
  g_assert_cmpstr (a->token_type, ==, b->token_type);
  g_assert_cmpstr (a->refresh_token, ==, b->refresh_token);
  g_assert_cmpstr (a->scope, ==, b->scope);
  g_assert_cmpint (a->expires_at, ==, b->expires_at);
  g_assert_cmpstr (a->token_endpoint, ==, b->token_endpoint);
  g_assert_cmpstr (a->issuer, ==, b->issuer);
}

static McpOAuthClientInfo *
make_client (const char *client_id,
             const char *client_secret)
{
  McpOAuthClientInfo *client = g_new0 (McpOAuthClientInfo, 1);

  client->kind = MCP_OAUTH_CLIENT_DYNAMIC;
  client->issuer = g_strdup ("https://as.example");
  client->client_id = g_strdup (client_id);
  client->client_secret = g_strdup (client_secret);
  client->token_endpoint_auth_method = g_strdup ("client_secret_basic");
  client->redirect_uri = g_strdup ("http://127.0.0.1:4711/callback");
  client->client_secret_expires_at = 0;

  return client;
}

static void
assert_client_equal (const McpOAuthClientInfo *a,
                     const McpOAuthClientInfo *b)
{
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpint (a->kind, ==, b->kind);
  g_assert_cmpstr (a->issuer, ==, b->issuer);
  g_assert_cmpstr (a->client_id, ==, b->client_id);
  g_assert_cmpstr (a->client_secret, ==, b->client_secret);
  g_assert_cmpstr (a->token_endpoint_auth_method, ==, b->token_endpoint_auth_method);
  g_assert_cmpstr (a->redirect_uri, ==, b->redirect_uri);
  g_assert_cmpint (a->client_secret_expires_at, ==, b->client_secret_expires_at);
}

/* Files */

static char *
temp_path (const char *name)
{
  return g_build_filename (g_get_user_data_dir (), "store", name, NULL);
}

static gboolean
bytes_contain (const char *data,
               gsize       length,
               const char *needle)
{
  gsize needle_length = strlen (needle);

  for (gsize i = 0; i + needle_length <= length; i++)
    if (memcmp (data + i, needle, needle_length) == 0)
      return TRUE;

  return FALSE;
}

/* Counts the files under @dir whose bytes contain @needle. */
static guint
files_containing (const char *dir,
                  const char *needle)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint found = 0;

  if (listing == NULL)
    return 0;

  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          found += files_containing (path, needle);
          continue;
        }

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) &&
          g_file_get_contents (path, &contents, &length, NULL) &&
          bytes_contain (contents, length, needle))
        {
          g_test_message ("found in %s", path);
          found++;
        }
    }

  return found;
}

static void
count_cb (McpTokenStore *store,
          guint         *count)
{
  (*count)++;
}

/* The Secret Service */

static GList *
search_items (const char *name,
              const char *url,
              const char *kind)
{
  g_autoptr(GHashTable) attributes = secret_attributes_build (&schema,
                                                              "server", name,
                                                              "url", url,
                                                              "kind", kind,
                                                              NULL);
  g_autoptr(GError) error = NULL;
  GList *items;

  items = secret_service_search_sync (NULL, &schema, attributes,
                                      SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK,
                                      NULL, &error);
  g_assert_no_error (error);
  return items;
}

static void
assert_keyring_item (const char *name,
                     const char *url,
                     const char *kind,
                     const char *label,
                     const char *secret_part)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *secret = NULL;
  GList *items;
  SecretItem *item;
  g_autoptr(GHashTable) attributes = NULL;

  secret = secret_password_lookup_sync (&schema, NULL, &error,
                                        "server", name,
                                        "url", url,
                                        "kind", kind,
                                        NULL);
  g_assert_no_error (error);
  g_assert_nonnull (secret);
  g_assert_nonnull (strstr (secret, secret_part));

  items = search_items (name, url, kind);
  g_assert_cmpuint (g_list_length (items), ==, 1);
  item = items->data;
  {
    g_autofree char *item_label = secret_item_get_label (item);
    g_assert_cmpstr (item_label, ==, label);
  }
  attributes = secret_item_get_attributes (item);
  g_assert_cmpstr (g_hash_table_lookup (attributes, "server"), ==, name);
  g_assert_cmpstr (g_hash_table_lookup (attributes, "url"), ==, url);
  g_assert_cmpstr (g_hash_table_lookup (attributes, "kind"), ==, kind);
  g_assert_cmpstr (g_hash_table_lookup (attributes, "xdg:schema"), ==, "org.plugboard.Plugboard.OAuth");
  g_list_free_full (items, g_object_unref);
}

static void
assert_no_keyring_item (const char *name,
                        const char *url,
                        const char *kind)
{
  GList *items = search_items (name, url, kind);

  g_assert_cmpuint (g_list_length (items), ==, 0);
}

static void
test_secret_tokens (void)
{
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-SECRET-alpha-1", "rt-SECRET-alpha-1");
  g_autoptr(McpOAuthTokens) newer = make_tokens ("at-SECRET-alpha-2", NULL);
  g_autoptr(McpOAuthTokens) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fallback = NULL;
  guint fallbacks = 0;

  if (!have_test_keyring ())
    return;

  fallback = temp_path ("oauth-credentials.json");
  store = mcp_token_store_new ("auto", fallback);
  g_signal_connect (store, "fallback-used", G_CALLBACK (count_cb), &fallbacks);
  g_assert_null (mcp_token_store_get_active_backend (store));

  /* Nothing stored: NULL, no error. */
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_assert_cmpstr (mcp_token_store_get_active_backend (store), ==, "secret-service");

  g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
  g_assert_no_error (error);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, tokens);
  g_clear_pointer (&found, mcp_oauth_tokens_free);

  assert_keyring_item (ALPHA, ALPHA_URL, "tokens", "Plugboard sign-in for “alpha”", "at-SECRET-alpha-1");

  /* Overwrite: one item, the new value. */
  g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, newer, &error));
  g_assert_no_error (error);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, newer);
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  assert_keyring_item (ALPHA, ALPHA_URL, "tokens", "Plugboard sign-in for “alpha”", "at-SECRET-alpha-2");

  /* The same name at another URL is another server. */
  found = lookup_tokens (store, ALPHA, BETA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);

  /* Clear removes them; clearing again is fine. */
  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);
  assert_no_keyring_item (ALPHA, ALPHA_URL, "tokens");
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (fallbacks, ==, 0);
  g_assert_false (g_file_test (fallback, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (mcp_token_store_get_active_backend (store), ==, "secret-service");
}

static void
test_secret_clients (void)
{
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthClientInfo) client = make_client ("client-alpha", "cs-SECRET-alpha");
  g_autoptr(McpOAuthClientInfo) other = make_client ("client-beta", "cs-SECRET-beta");
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-SECRET-beta-1", "rt-SECRET-beta-1");
  g_autoptr(McpOAuthClientInfo) found = NULL;
  g_autoptr(McpOAuthTokens) found_tokens = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_test_keyring ())
    return;

  store = mcp_token_store_new ("secret-service", NULL);

  found = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);

  g_assert_true (store_client (store, ALPHA, ALPHA_URL, client, &error));
  g_assert_no_error (error);
  g_assert_true (store_client (store, BETA, BETA_URL, other, &error));
  g_assert_no_error (error);
  g_assert_true (store_tokens (store, BETA, BETA_URL, tokens, &error));
  g_assert_no_error (error);

  found = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_client_equal (found, client);
  g_clear_pointer (&found, mcp_oauth_client_info_free);
  assert_keyring_item (ALPHA, ALPHA_URL, "client", "Plugboard OAuth client for “alpha”", "cs-SECRET-alpha");

  /* Overwrite */
  g_free (client->client_id);
  client->client_id = g_strdup ("client-alpha-2");
  g_assert_true (store_client (store, ALPHA, ALPHA_URL, client, &error));
  g_assert_no_error (error);
  found = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_client_equal (found, client);
  g_clear_pointer (&found, mcp_oauth_client_info_free);
  assert_keyring_item (ALPHA, ALPHA_URL, "client", "Plugboard OAuth client for “alpha”", "client-alpha-2");

  /* Signing out of alpha leaves beta alone. */
  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);
  assert_no_keyring_item (ALPHA, ALPHA_URL, "client");
  found = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);

  found = lookup_client (store, BETA, BETA_URL, &error);
  g_assert_no_error (error);
  assert_client_equal (found, other);
  found_tokens = lookup_tokens (store, BETA, BETA_URL, &error);
  g_assert_no_error (error);
  assert_tokens_equal (found_tokens, tokens);

  /* Clearing beta takes both its tokens and its client. */
  g_assert_true (clear (store, BETA, BETA_URL, &error));
  g_assert_no_error (error);
  assert_no_keyring_item (BETA, BETA_URL, "client");
  assert_no_keyring_item (BETA, BETA_URL, "tokens");
}

static void
test_secret_not_in_files (void)
{
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-NEEDLE-7f3a9c", "rt-NEEDLE-7f3a9c");
  g_autoptr(McpOAuthClientInfo) client = make_client ("client-gamma", "cs-NEEDLE-7f3a9c");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (!have_test_keyring ())
    return;

  path = temp_path ("oauth-credentials.json");
  store = mcp_token_store_new ("auto", path);
  g_assert_true (store_tokens (store, "gamma", "https://gamma.example/mcp", tokens, &error));
  g_assert_no_error (error);
  g_assert_true (store_client (store, "gamma", "https://gamma.example/mcp", client, &error));
  g_assert_no_error (error);
  assert_keyring_item ("gamma", "https://gamma.example/mcp", "tokens",
                       "Plugboard sign-in for “gamma”", "at-NEEDLE-7f3a9c");

  /* The keyring keeps it encrypted; nothing else wrote it down. */
  g_assert_cmpuint (files_containing (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME"), "NEEDLE-7f3a9c"), ==, 0);
  g_assert_cmpuint (files_containing (g_get_user_data_dir (), "NEEDLE-7f3a9c"), ==, 0);
  g_assert_cmpuint (files_containing (g_get_user_config_dir (), "NEEDLE-7f3a9c"), ==, 0);
  g_assert_cmpuint (files_containing (g_get_user_cache_dir (), "NEEDLE-7f3a9c"), ==, 0);

  g_assert_true (clear (store, "gamma", "https://gamma.example/mcp", &error));
  g_assert_no_error (error);
}

static void
test_secret_unreadable (void)
{
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-SECRET-delta", NULL);
  g_autoptr(McpOAuthTokens) found = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_test_keyring ())
    return;

  secret_password_store_sync (&schema, SECRET_COLLECTION_DEFAULT, "broken", "{ not json", NULL, &error,
                              "server", "delta", "url", "https://delta.example/mcp", "kind", "tokens",
                              NULL);
  g_assert_no_error (error);

  store = mcp_token_store_new ("secret-service", NULL);
  found = lookup_tokens (store, "delta", "https://delta.example/mcp", &error);
  g_assert_null (found);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "delta"));
  g_assert_null (strstr (error->message, "not json"));
  g_clear_error (&error);

  /* The caller may overwrite it. */
  g_assert_true (store_tokens (store, "delta", "https://delta.example/mcp", tokens, &error));
  g_assert_no_error (error);
  found = lookup_tokens (store, "delta", "https://delta.example/mcp", &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, tokens);

  g_assert_true (clear (store, "delta", "https://delta.example/mcp", &error));
  g_assert_no_error (error);
}

/* The file backend */

static void
test_file_round_trip (void)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "new", "folder", "creds.json", NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-file-1", "rt-file-1");
  g_autoptr(McpOAuthClientInfo) client = make_client ("client-file", "cs-file");
  g_autoptr(McpOAuthTokens) found = NULL;
  g_autoptr(McpOAuthClientInfo) found_client = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *entries;
  GStatBuf st;
  guint fallbacks = 0;

  g_signal_connect (store, "fallback-used", G_CALLBACK (count_cb), &fallbacks);

  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_assert_cmpstr (mcp_token_store_get_active_backend (store), ==, "file");
  /* Looking up writes nothing. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
  g_assert_no_error (error);
  g_assert_true (store_client (store, ALPHA, ALPHA_URL, client, &error));
  g_assert_no_error (error);

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, tokens);
  found_client = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_client_equal (found_client, client);

  /* The documented format. */
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  entries = json_object_get_object_member (root, "entries");
  g_assert_cmpuint (json_object_get_size (entries), ==, 2);
  g_assert_true (json_object_has_member (entries, "tokens\n" ALPHA "\n" ALPHA_URL));
  /* Clients are kept per issuer (a client_id is good at one AS only). */
  g_assert_true (json_object_has_member (entries, "client\n" ALPHA "\n" ALPHA_URL "\nhttps://as.example"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entries, "tokens\n" ALPHA "\n" ALPHA_URL),
                                                  "access_token"), ==, "at-file-1");

  /* A new store on the same file reads the same. */
  {
    g_autoptr(McpTokenStore) again = mcp_token_store_new ("file", path);
    g_autoptr(McpOAuthTokens) reread = lookup_tokens (again, ALPHA, ALPHA_URL, &error);

    g_assert_no_error (error);
    assert_tokens_equal (reread, tokens);
  }

  /* Overwriting keeps the mode. */
  g_free (tokens->access_token);
  tokens->access_token = g_strdup ("at-file-2");
  g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found->access_token, ==, "at-file-2");

  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_clear_pointer (&found_client, mcp_oauth_client_info_free);
  found_client = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found_client);

  /* An explicit file backend is no fallback. */
  g_assert_cmpuint (fallbacks, ==, 0);
}

static McpOAuthClientInfo *
lookup_issuer_client (McpTokenStore  *store,
                      const char     *name,
                      const char     *url,
                      const char     *issuer,
                      GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_token_store_lookup_issuer_client_async (store, name, url, issuer, NULL, test_result_cb, &result);
  return mcp_token_store_lookup_issuer_client_finish (store, test_wait_result (&result, NULL), error);
}

/* A client_id is good at one authorization server only (SEP-2352): a
 * server's clients are kept per issuer, side by side; a sign-out takes
 * them all. */
static void
check_clients_per_issuer (McpTokenStore *store)
{
  g_autoptr(McpOAuthClientInfo) first = make_client ("client-at-as1", NULL);
  g_autoptr(McpOAuthClientInfo) second = make_client ("client-at-as2", NULL);
  g_autoptr(McpOAuthClientInfo) found = NULL;
  g_autoptr(GError) error = NULL;

  g_free (second->issuer);
  second->issuer = g_strdup ("https://as2.example");

  g_assert_true (store_client (store, ALPHA, ALPHA_URL, first, &error));
  g_assert_no_error (error);
  found = lookup_issuer_client (store, ALPHA, ALPHA_URL, "https://as2.example", &error);
  g_assert_no_error (error);
  g_assert_null (found);

  g_assert_true (store_client (store, ALPHA, ALPHA_URL, second, &error));
  g_assert_no_error (error);
  found = lookup_issuer_client (store, ALPHA, ALPHA_URL, "https://as.example", &error);
  g_assert_no_error (error);
  assert_client_equal (found, first);
  g_clear_pointer (&found, mcp_oauth_client_info_free);
  found = lookup_issuer_client (store, ALPHA, ALPHA_URL, "https://as2.example", &error);
  g_assert_no_error (error);
  assert_client_equal (found, second);
  g_clear_pointer (&found, mcp_oauth_client_info_free);
  /* Without an issuer: one of them. */
  found = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found);
  g_assert_true (g_str_equal (found->client_id, "client-at-as1") ||
                 g_str_equal (found->client_id, "client-at-as2"));
  g_clear_pointer (&found, mcp_oauth_client_info_free);

  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);
  found = lookup_issuer_client (store, ALPHA, ALPHA_URL, "https://as.example", &error);
  g_assert_no_error (error);
  g_assert_null (found);
  found = lookup_issuer_client (store, ALPHA, ALPHA_URL, "https://as2.example", &error);
  g_assert_no_error (error);
  g_assert_null (found);
  found = lookup_client (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
}

static void
test_file_clients_per_issuer (void)
{
  g_autofree char *path = temp_path ("creds.json");
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);

  check_clients_per_issuer (store);
}

static void
test_secret_clients_per_issuer (void)
{
  g_autoptr(McpTokenStore) store = NULL;

  if (!have_test_keyring ())
    return;

  store = mcp_token_store_new ("secret-service", NULL);
  check_clients_per_issuer (store);
}

static void
test_file_servers_apart (void)
{
  g_autofree char *path = temp_path ("creds.json");
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);
  g_autoptr(McpOAuthTokens) alpha = make_tokens ("at-alpha", NULL);
  g_autoptr(McpOAuthTokens) beta = make_tokens ("at-beta", NULL);
  g_autoptr(McpOAuthTokens) alpha_elsewhere = make_tokens ("at-alpha-elsewhere", NULL);
  g_autoptr(McpOAuthTokens) found = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, alpha, &error));
  g_assert_true (store_tokens (store, BETA, BETA_URL, beta, &error));
  g_assert_true (store_tokens (store, ALPHA, BETA_URL, alpha_elsewhere, &error));
  g_assert_no_error (error);

  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_cmpstr (found->access_token, ==, "at-alpha");
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  found = lookup_tokens (store, BETA, BETA_URL, &error);
  g_assert_cmpstr (found->access_token, ==, "at-beta");
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  found = lookup_tokens (store, ALPHA, BETA_URL, &error);
  g_assert_cmpstr (found->access_token, ==, "at-alpha-elsewhere");
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  g_assert_no_error (error);

  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_null (found);
  found = lookup_tokens (store, BETA, BETA_URL, &error);
  g_assert_cmpstr (found->access_token, ==, "at-beta");
  g_clear_pointer (&found, mcp_oauth_tokens_free);
  found = lookup_tokens (store, ALPHA, BETA_URL, &error);
  g_assert_cmpstr (found->access_token, ==, "at-alpha-elsewhere");
  g_assert_no_error (error);
}

static void
test_file_corrupt (void)
{
  const char *corrupt[] = {
    "{ \"version\": 1, \"entries\": { \"tokens\\nalpha",
    "[ 1, 2 ]",
    "{ \"version\": 1, \"entries\": [] }",
  };

  for (guint i = 0; i < G_N_ELEMENTS (corrupt); i++)
    {
      g_autofree char *path = temp_path ("corrupt.json");
      g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);
      g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-corrupt", NULL);
      g_autoptr(McpOAuthTokens) found = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *after = NULL;

      test_write_file (path, corrupt[i]);

      g_assert_false (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, path));
      g_clear_error (&error);

      found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
      g_assert_null (found);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, path));
      g_clear_error (&error);

      g_assert_false (clear (store, ALPHA, ALPHA_URL, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
      g_clear_error (&error);

      after = test_read_file (path);
      g_assert_cmpstr (after, ==, corrupt[i]);
    }
}

static void
test_file_keeps_unknown (void)
{
  g_autofree char *path = temp_path ("creds.json");
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-known", NULL);
  g_autoptr(McpOAuthTokens) found = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *entries;

  test_write_file (path,
              "{ \"version\": 1, \"comment\": \"kept\", \"entries\": {"
              " \"tokens\\nbroken\\nhttps://broken.example\": { \"token_type\": \"Bearer\" },"
              " \"future\\nx\\ny\": { \"z\": 1 } } }");

  /* An entry that cannot be read is an error the caller may overwrite. */
  found = lookup_tokens (store, "broken", "https://broken.example", &error);
  g_assert_null (found);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "broken"));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  g_assert_true (store_tokens (store, "broken", "https://broken.example", tokens, &error));
  g_assert_no_error (error);
  found = lookup_tokens (store, "broken", "https://broken.example", &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, tokens);

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "comment"), ==, "kept");
  entries = json_object_get_object_member (root, "entries");
  g_assert_true (json_object_has_member (entries, "future\nx\ny"));
}

/* Fallback: a session bus address that leads nowhere. Runs in a subprocess
 * so the address is set before anything touches D-Bus. */

static guint fallback_messages;
static char *fallback_message_path;

static void
message_handler (const char     *log_domain,
                 GLogLevelFlags  log_level,
                 const char     *message,
                 gpointer        user_data)
{
  fallback_messages++;
  g_assert_nonnull (strstr (message, fallback_message_path));
  g_assert_null (strstr (message, "at-fallback"));
}

static void
test_auto_fallback (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = temp_path ("fallback.json");
      g_autoptr(McpTokenStore) store = NULL;
      g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-fallback", "rt-fallback");
      g_autoptr(McpOAuthClientInfo) client = make_client ("client-fallback", "cs-fallback");
      g_autoptr(McpOAuthTokens) found = NULL;
      g_autoptr(McpOAuthClientInfo) found_client = NULL;
      g_autoptr(GError) error = NULL;
      GStatBuf st;
      guint fallbacks = 0;

      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-test/bus", TRUE);
      fallback_message_path = path;
      g_log_set_handler ("mcp-token-store", G_LOG_LEVEL_MESSAGE, message_handler, NULL);

      store = mcp_token_store_new ("auto", path);
      g_signal_connect (store, "fallback-used", G_CALLBACK (count_cb), &fallbacks);

      g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (mcp_token_store_get_active_backend (store), ==, "file");
      g_assert_cmpuint (fallbacks, ==, 1);
      g_assert_cmpuint (fallback_messages, ==, 1);

      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_mode & 0777, ==, 0600);

      g_assert_true (store_client (store, ALPHA, ALPHA_URL, client, &error));
      g_assert_no_error (error);
      found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
      g_assert_no_error (error);
      assert_tokens_equal (found, tokens);
      found_client = lookup_client (store, ALPHA, ALPHA_URL, &error);
      g_assert_no_error (error);
      assert_client_equal (found_client, client);
      g_assert_true (clear (store, BETA, BETA_URL, &error));
      g_assert_no_error (error);

      /* Once. */
      g_assert_cmpuint (fallbacks, ==, 1);
      g_assert_cmpuint (fallback_messages, ==, 1);
      return;
    }

  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Without a Secret Service, looking up a server that never signed in (every
 * connection to a remote server does) says nothing: the fall back is told
 * only when a record is read from the file or written to it. */
static void
test_auto_fallback_quiet_lookup (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = temp_path ("quiet.json");
      g_autoptr(McpTokenStore) store = NULL;
      g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-fallback", "rt-fallback");
      g_autoptr(McpOAuthTokens) found = NULL;
      g_autoptr(McpOAuthClientInfo) found_client = NULL;
      g_autoptr(GError) error = NULL;
      guint fallbacks = 0;

      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-test/bus", TRUE);
      fallback_message_path = path;
      g_log_set_handler ("mcp-token-store", G_LOG_LEVEL_MESSAGE, message_handler, NULL);

      store = mcp_token_store_new ("auto", path);
      g_signal_connect (store, "fallback-used", G_CALLBACK (count_cb), &fallbacks);

      found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
      g_assert_no_error (error);
      g_assert_null (found);
      found_client = lookup_client (store, ALPHA, ALPHA_URL, &error);
      g_assert_no_error (error);
      g_assert_null (found_client);
      g_assert_true (clear (store, BETA, BETA_URL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (mcp_token_store_get_active_backend (store), ==, "file");
      g_assert_cmpuint (fallbacks, ==, 0);
      g_assert_cmpuint (fallback_messages, ==, 0);

      /* The first record stored is. */
      g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (fallbacks, ==, 1);
      g_assert_cmpuint (fallback_messages, ==, 1);
      return;
    }

  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_secret_service_no_fallback (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = temp_path ("never.json");
      g_autoptr(McpTokenStore) store = NULL;
      g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-never", NULL);
      g_autoptr(McpOAuthTokens) found = NULL;
      g_autoptr(GError) error = NULL;
      guint fallbacks = 0;

      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-test/bus", TRUE);

      store = mcp_token_store_new ("secret-service", path);
      g_signal_connect (store, "fallback-used", G_CALLBACK (count_cb), &fallbacks);

      g_assert_false (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, ALPHA));
      g_assert_null (strstr (error->message, "at-never"));
      g_clear_error (&error);

      found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
      g_assert_null (found);
      g_assert_nonnull (error);

      g_assert_cmpuint (fallbacks, ==, 0);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      g_assert_null (mcp_token_store_get_active_backend (store));
      return;
    }

  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_default (void)
{
  McpTokenStore *store = mcp_token_store_get_default ();
  g_autofree char *backend = NULL;
  g_autofree char *path = NULL;

  /* Only looked at, never used: it would reach the real keyring. */
  g_assert_true (MCP_IS_TOKEN_STORE (store));
  g_assert_true (store == mcp_token_store_get_default ());
  g_object_get (store, "backend", &backend, "fallback-path", &path, NULL);
  g_assert_cmpstr (backend, ==, "auto");
  g_assert_true (g_str_has_suffix (path, G_DIR_SEPARATOR_S "plugboard" G_DIR_SEPARATOR_S "oauth-credentials.json"));
  g_assert_true (g_path_is_absolute (path));
}

/* A keyring that answers but has no login keyring to store into
 * (run-with-keyring.sh with PLUGBOARD_TEST_KEYRING_NO_LOGIN=1): the
 * sign-in is not lost, it goes to the 0600 file, is found there, and a
 * sign-out removes it there. */
static void
test_secret_no_login_keyring (void)
{
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpOAuthTokens) tokens = make_tokens ("at-NOLOGIN-4411", "rt-NOLOGIN-4411");
  g_autoptr(McpOAuthTokens) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fallback = NULL;
  g_autofree char *contents = NULL;
  GStatBuf st;
  guint fallbacks = 0;

  if (g_strcmp0 (g_getenv ("PLUGBOARD_TEST_KEYRING_NO_LOGIN"), "1") != 0)
    {
      g_test_skip ("needs a keyring without a login keyring (PLUGBOARD_TEST_KEYRING_NO_LOGIN=1)");
      return;
    }
  if (!have_test_keyring ())
    return;

  fallback = temp_path ("oauth-credentials.json");
  store = mcp_token_store_new ("auto", fallback);
  g_signal_connect (store, "fallback-used", G_CALLBACK (count_cb), &fallbacks);

  /* The keyring answers (nothing stored there)… */
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_assert_cmpstr (mcp_token_store_get_active_backend (store), ==, "secret-service");

  /* …but has nowhere to store: the file keeps it, 0600. */
  g_assert_true (store_tokens (store, ALPHA, ALPHA_URL, tokens, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (fallback, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (fallback, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "at-NOLOGIN-4411"));
  g_assert_cmpuint (fallbacks, >, 0);

  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, tokens);
  g_clear_pointer (&found, mcp_oauth_tokens_free);

  /* A new store (the next start) finds it too. */
  g_clear_object (&store);
  store = mcp_token_store_new ("auto", fallback);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  assert_tokens_equal (found, tokens);
  g_clear_pointer (&found, mcp_oauth_tokens_free);

  /* Sign-out forgets it in the file. */
  g_assert_true (clear (store, ALPHA, ALPHA_URL, &error));
  g_assert_no_error (error);
  found = lookup_tokens (store, ALPHA, ALPHA_URL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (fallback, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "at-NOLOGIN-4411"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  test_set_hang_bound (30);

  g_test_add_func ("/auth/token-store/secret-service/no-login-keyring", test_secret_no_login_keyring);
  g_test_add_func ("/auth/token-store/secret-service/tokens", test_secret_tokens);
  g_test_add_func ("/auth/token-store/secret-service/clients", test_secret_clients);
  g_test_add_func ("/auth/token-store/secret-service/not-in-files", test_secret_not_in_files);
  g_test_add_func ("/auth/token-store/secret-service/unreadable", test_secret_unreadable);
  g_test_add_func ("/auth/token-store/file/round-trip", test_file_round_trip);
  g_test_add_func ("/auth/token-store/file/servers-apart", test_file_servers_apart);
  g_test_add_func ("/auth/token-store/file/clients-per-issuer", test_file_clients_per_issuer);
  g_test_add_func ("/auth/token-store/secret-service/clients-per-issuer", test_secret_clients_per_issuer);
  g_test_add_func ("/auth/token-store/file/corrupt", test_file_corrupt);
  g_test_add_func ("/auth/token-store/file/keeps-unknown", test_file_keeps_unknown);
  g_test_add_func ("/auth/token-store/auto/fallback", test_auto_fallback);
  g_test_add_func ("/auth/token-store/auto/fallback-quiet-lookup", test_auto_fallback_quiet_lookup);
  g_test_add_func ("/auth/token-store/secret-service/no-fallback", test_secret_service_no_fallback);
  g_test_add_func ("/auth/token-store/default", test_default);

  return g_test_run ();
}
