/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-files"

#include "config.h"

#include "fuzz.h"
#include "fuzz-async.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-ide-lock.h"
#include "mcp-needs-auth-cache.h"
#include "mcp-token-store.h"

/* Files Plugboard reads that other programs (or an older Plugboard, or a
 * person) may have written: the input is the file, read through the real
 * code from a real file in a temporary folder. Built once for each, by
 * FORMAT:
 *
 * FILE_IDE_LOCK: an IDE's lock file (~/.claude/ide/<port>.lock), read by
 *   mcp_ide_lock_new_from_file(): either a lock with a port from 1 to
 *   65535, a transport "ws" or "sse", UTF-8 strings, a loopback URL and one
 *   header; or a refusal with a message.
 * FILE_NEEDS_AUTH: the needs-auth cache, asked for a key, then added to and
 *   removed from: what was added is there for at most its TTL, what was
 *   removed is gone, and the file stays readable JSON.
 * FILE_TOKEN_STORE: the sign-in file of McpTokenStore's file backend,
 *   looked up (tokens, clients, a client of an issuer); then, if it was
 *   readable, tokens and a client are stored and read back the same, and
 *   cleared.
 * Warnings and criticals are fatal. */

#define FILE_IDE_LOCK    1
#define FILE_NEEDS_AUTH  2
#define FILE_TOKEN_STORE 3

#define SERVER_NAME "fuzz"
#define SERVER_URL "https://mcp.example.com/mcp"

static char *folder;

static void
fail (const char *what)
{
  g_printerr ("fuzz-files: %s\n", what);
  abort ();
}

G_GNUC_UNUSED static void
check_error (const GError *error,
             const char   *what)
{
  if (error == NULL || error->message == NULL || error->message[0] == '\0' ||
      !g_utf8_validate (error->message, -1, NULL))
    fail (what);
}

static char *
write_input (const char    *name,
             const uint8_t *data,
             size_t         size)
{
  g_autoptr(GError) error = NULL;
  char *path;

  if (folder == NULL)
    {
      fuzz_abort_on_warnings ();
      folder = g_dir_make_tmp ("fuzz-files-XXXXXX", &error);
      if (folder == NULL)
        fail ("no temporary folder");
    }

  path = g_build_filename (folder, name, NULL);
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, &error))
    fail ("cannot write the input");
  return path;
}

#if FORMAT == FILE_IDE_LOCK

static void
run (const uint8_t *data,
     size_t         size)
{
  g_autofree char *path = write_input ("4711.lock", data, size);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) directory = g_file_new_for_path (folder);
  g_autoptr(McpIdeLock) lock = NULL;
  g_autoptr(GPtrArray) locks = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) list_error = NULL;
  g_autofree char *url = NULL;
  g_auto(GStrv) headers = NULL;
  const char * const *folders;
  const char *transport;

  lock = mcp_ide_lock_new_from_file (file, &error);
  if (lock == NULL)
    check_error (error, "a lock refused without a message");
  else
    {
      if (mcp_ide_lock_get_port (lock) == 0)
        fail ("a lock with port 0");
      transport = mcp_ide_lock_get_transport (lock);
      if (g_strcmp0 (transport, "ws") != 0 && g_strcmp0 (transport, "sse") != 0)
        fail ("a lock with another transport");
      if (mcp_ide_lock_get_ide_name (lock) != NULL &&
          !g_utf8_validate (mcp_ide_lock_get_ide_name (lock), -1, NULL))
        fail ("an IDE name that is not UTF-8");
      folders = mcp_ide_lock_get_workspace_folders (lock);
      for (guint i = 0; folders != NULL && folders[i] != NULL; i++)
        if (!g_utf8_validate (folders[i], -1, NULL))
          fail ("a workspace folder that is not UTF-8");
      url = mcp_ide_lock_dup_url (lock);
      if (!g_str_has_prefix (url, "ws://127.0.0.1:") && !g_str_has_prefix (url, "http://127.0.0.1:"))
        fail ("a lock's URL that is not on loopback");
      headers = mcp_ide_lock_dup_headers (lock);
      for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
        if (strpbrk (headers[i], "\r\n") != NULL)
          fail ("a lock's header with a line break");
    }

  locks = mcp_ide_lock_list (directory, &list_error);
  if (locks == NULL)
    check_error (list_error, "a lock folder refused without a message");
  else if (locks->len != (lock != NULL ? 1u : 0u))
    fail ("the folder's list disagrees with the file");
}

#elif FORMAT == FILE_NEEDS_AUTH

static void
check_json_file (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  if (!json_parser_load_from_file (parser, path, &error))
    fail ("the cache written is not JSON");
}

static void
run (const uint8_t *data,
     size_t         size)
{
  g_autofree char *path = write_input ("mcp-needs-auth-cache.json", data, size);
  const char *keys[] = { "fuzz|" SERVER_URL, "", "a", "fuzz" };
  gint64 remaining;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      remaining = mcp_needs_auth_cache_remaining (path, keys[i]);
      if (remaining < 0 || remaining > MCP_NEEDS_AUTH_CACHE_TTL_S)
        fail ("a time left beyond the TTL");
      if ((remaining > 0) != mcp_needs_auth_cache_contains (path, keys[i]))
        fail ("contains and remaining disagree");
    }

  mcp_needs_auth_cache_add (path, keys[0]);
  check_json_file (path);
  if (!mcp_needs_auth_cache_contains (path, keys[0]))
    fail ("a key added is not there");
  mcp_needs_auth_cache_remove (path, keys[0]);
  check_json_file (path);
  if (mcp_needs_auth_cache_contains (path, keys[0]))
    fail ("a key removed is still there");
}

#elif FORMAT == FILE_TOKEN_STORE

static gboolean
lookup (McpTokenStore *store)
{
  g_autoptr(GAsyncResult) r1 = NULL;
  g_autoptr(GAsyncResult) r2 = NULL;
  g_autoptr(GAsyncResult) r3 = NULL;
  g_autoptr(McpOAuthTokens) tokens = NULL;
  g_autoptr(McpOAuthClientInfo) client = NULL;
  g_autoptr(McpOAuthClientInfo) issuer_client = NULL;
  g_autoptr(GError) error = NULL;
  gboolean readable = TRUE;

  mcp_token_store_lookup_tokens_async (store, SERVER_NAME, SERVER_URL, NULL, fuzz_result_cb, &r1);
  tokens = mcp_token_store_lookup_tokens_finish (store, fuzz_wait_for (&r1), &error);
  if (tokens == NULL && error != NULL)
    {
      check_error (error, "a token lookup failed without a message");
      readable = FALSE;
    }
  if (tokens != NULL && (tokens->access_token == NULL || tokens->access_token[0] == '\0'))
    fail ("stored tokens without an access token");
  g_clear_error (&error);

  mcp_token_store_lookup_client_async (store, SERVER_NAME, SERVER_URL, NULL, fuzz_result_cb, &r2);
  client = mcp_token_store_lookup_client_finish (store, fuzz_wait_for (&r2), &error);
  if (client == NULL && error != NULL)
    {
      check_error (error, "a client lookup failed without a message");
      readable = FALSE;
    }
  g_clear_error (&error);

  mcp_token_store_lookup_issuer_client_async (store, SERVER_NAME, SERVER_URL, "https://as.example.com",
                                              NULL, fuzz_result_cb, &r3);
  issuer_client = mcp_token_store_lookup_issuer_client_finish (store, fuzz_wait_for (&r3), &error);
  if (issuer_client == NULL && error != NULL)
    {
      check_error (error, "an issuer's client lookup failed without a message");
      readable = FALSE;
    }
  if (client != NULL && (client->client_id == NULL || client->client_id[0] == '\0'))
    fail ("a stored client without an id");

  return readable;
}

/* A JSON object whose "entries", if any, is an object: what the store may
 * write to. */
static gboolean
file_is_document (const uint8_t *data,
                  size_t         size)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonNode *entries;

  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) size, NULL))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  entries = json_object_get_member (json_node_get_object (root), "entries");
  return entries == NULL || JSON_NODE_HOLDS_OBJECT (entries);
}

static void
run (const uint8_t *data,
     size_t         size)
{
  g_autofree char *path = write_input ("credentials.json", data, size);
  g_autoptr(McpTokenStore) store = mcp_token_store_new ("file", path);
  g_autoptr(GAsyncResult) stored = NULL;
  g_autoptr(GAsyncResult) stored_client = NULL;
  g_autoptr(GAsyncResult) looked_up = NULL;
  g_autoptr(GAsyncResult) cleared = NULL;
  g_autoptr(McpOAuthTokens) again = NULL;
  g_autoptr(GError) error = NULL;
  McpOAuthTokens tokens = {
    .access_token = (char *) "access",
    .token_type = (char *) "Bearer",
    .refresh_token = (char *) "refresh",
    .scope = (char *) "read",
    .expires_at = 1900000000,
    .token_endpoint = (char *) "https://as.example.com/token",
    .issuer = (char *) "https://as.example.com",
  };
  McpOAuthClientInfo client = {
    .kind = MCP_OAUTH_CLIENT_DYNAMIC,
    .issuer = (char *) "https://as.example.com",
    .client_id = (char *) "client",
    .client_secret = (char *) "secret",
    .token_endpoint_auth_method = (char *) "client_secret_basic",
  };

  /* A lookup may fail for one entry (another can still be stored) or for
   * the whole file (then nothing may be stored over it). */
  if (!lookup (store) && !file_is_document (data, size))
    {
      g_autofree char *contents = NULL;
      gsize length;

      mcp_token_store_store_tokens_async (store, SERVER_NAME, SERVER_URL, &tokens, NULL,
                                          fuzz_result_cb, &stored);
      if (mcp_token_store_store_tokens_finish (store, fuzz_wait_for (&stored), &error))
        fail ("tokens stored over a file that could not be read");
      check_error (error, "a store failed without a message");
      if (!g_file_get_contents (path, &contents, &length, NULL) || length != size ||
          memcmp (contents, data, size) != 0)
        fail ("a file that could not be read was changed");
      return;
    }

  mcp_token_store_store_tokens_async (store, SERVER_NAME, SERVER_URL, &tokens, NULL,
                                      fuzz_result_cb, &stored);
  if (!mcp_token_store_store_tokens_finish (store, fuzz_wait_for (&stored), &error))
    {
      check_error (error, "a store failed without a message");
      return;
    }
  mcp_token_store_store_client_async (store, SERVER_NAME, SERVER_URL, &client, NULL,
                                      fuzz_result_cb, &stored_client);
  if (!mcp_token_store_store_client_finish (store, fuzz_wait_for (&stored_client), &error))
    {
      g_printerr ("fuzz-files: %s\n", error->message);
      fail ("a client not stored after tokens were");
    }

  mcp_token_store_lookup_tokens_async (store, SERVER_NAME, SERVER_URL, NULL, fuzz_result_cb, &looked_up);
  again = mcp_token_store_lookup_tokens_finish (store, fuzz_wait_for (&looked_up), &error);
  if (again == NULL || g_strcmp0 (again->access_token, tokens.access_token) != 0 ||
      g_strcmp0 (again->refresh_token, tokens.refresh_token) != 0 ||
      again->expires_at != tokens.expires_at)
    fail ("tokens stored do not read back");
  {
    g_autofree char *contents = NULL;
    gsize length;

    if (!g_file_get_contents (path, &contents, &length, NULL) ||
        !file_is_document ((const uint8_t *) contents, length))
      fail ("the store wrote a file it cannot read");
  }

  mcp_token_store_clear_async (store, SERVER_NAME, SERVER_URL, NULL, fuzz_result_cb, &cleared);
  if (!mcp_token_store_clear_finish (store, fuzz_wait_for (&cleared), &error))
    fail ("a sign-out failed");
}

#else
#error "FORMAT must be FILE_IDE_LOCK, FILE_NEEDS_AUTH or FILE_TOKEN_STORE"
#endif

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  run (data, size);
  return 0;
}
