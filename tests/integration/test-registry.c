/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-registry"

/* McpRegistry (issue 26) against mcp-registry-fixture: search, paging, get,
 * the cache when the registry is gone, hostile answers, the URL policy. */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "mcp-registry.h"
#include "test-util.h"

typedef struct
{
  char        *dir;
  char        *cache_dir;
  GSubprocess *process;
  char        *url;
} Fixture;

static GSubprocess *
start_fixture (const char  *fault,
               char       **url)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("MCP_TEST_REGISTRY_FIXTURE"),
                                         "--data", g_getenv ("MCP_TEST_REGISTRY_DATA"),
                                         "--delay-ms", "400",
                                         fault ? "--fault" : NULL, fault, NULL);
  g_assert_no_error (error);
  *url = test_read_listening (process);
  return process;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("plugboard-registry-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->cache_dir = g_build_filename (fixture->dir, "cache", NULL);
  fixture->process = start_fixture (NULL, &fixture->url);
}

static void
stop_fixture (Fixture *fixture)
{
  if (fixture->process == NULL)
    return;
  g_subprocess_force_exit (fixture->process);
  g_subprocess_wait (fixture->process, NULL, NULL);
  g_clear_object (&fixture->process);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", fixture->dir);

  stop_fixture (fixture);
  g_assert_cmpint (system (command), ==, 0);
  g_free (fixture->dir);
  g_free (fixture->cache_dir);
  g_free (fixture->url);
}

static McpRegistryPage *
search (McpRegistry  *registry,
        const char   *term,
        const char   *cursor,
        guint         limit,
        GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_registry_search_async (registry, term, cursor, limit, NULL, test_result_cb, &result);
  return mcp_registry_search_finish (registry, test_wait_result (&result, "registry search"), error);
}

static McpRegistryServer *
get (McpRegistry  *registry,
     const char   *name,
     GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_registry_get_async (registry, name, NULL, test_result_cb, &result);
  return mcp_registry_get_finish (registry, test_wait_result (&result, "registry get"), error);
}

static gboolean
page_has (McpRegistryPage *page,
          const char      *name)
{
  for (guint i = 0; i < page->servers->len; i++)
    if (g_strcmp0 (mcp_registry_server_get_name (g_ptr_array_index (page->servers, i)), name) == 0)
      return TRUE;
  return FALSE;
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(McpRegistry) registry = mcp_registry_new (fixture->url, fixture->cache_dir);
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(McpRegistryPage) none = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (mcp_registry_get_base_url (registry), ==, fixture->url);

  /* Case-insensitive, in the name or the description */
  page = search (registry, "EVERYTHING", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->servers->len, ==, 1);
  g_assert_true (page_has (page, "io.github.modelcontextprotocol/server-everything"));
  g_assert_false (page->from_cache);
  g_assert_null (page->next_cursor);
  g_assert_cmpint (page->fetched, >, 0);
  g_clear_pointer (&page, mcp_registry_page_free);

  page = search (registry, "timezone", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (page_has (page, "io.github.modelcontextprotocol/time"));

  /* The status of a deprecated server */
  g_clear_pointer (&page, mcp_registry_page_free);
  page = search (registry, "old-search", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->servers->len, ==, 1);
  g_assert_cmpstr (mcp_registry_server_get_status (g_ptr_array_index (page->servers, 0)), ==, "deprecated");

  none = search (registry, "no such thing at all", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->servers->len, ==, 0);
  g_assert_null (none->next_cursor);
}

static void
test_paging (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(McpRegistry) registry = mcp_registry_new (fixture->url, fixture->cache_dir);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *cursor = NULL;
  guint pages = 0;

  do
    {
      g_autoptr(McpRegistryPage) page = NULL;
      g_autoptr(GError) error = NULL;

      page = search (registry, NULL, cursor, 2, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (page->servers->len, <=, 2);
      for (guint i = 0; i < page->servers->len; i++)
        g_assert_true (g_hash_table_add (seen, g_strdup (mcp_registry_server_get_name (
                                                   g_ptr_array_index (page->servers, i)))));
      g_free (cursor);
      cursor = g_strdup (page->next_cursor);
      g_assert_cmpuint (++pages, <, 20);
    }
  while (cursor != NULL);

  /* Every document of tests/data/registry, each once */
  g_assert_cmpuint (g_hash_table_size (seen), ==, 9);
  g_assert_cmpuint (pages, ==, 5);
}

static void
test_get (Fixture       *fixture,
          gconstpointer  data)
{
  g_autoptr(McpRegistry) registry = mcp_registry_new (fixture->url, fixture->cache_dir);
  g_autoptr(McpRegistryServer) server = NULL;
  g_autoptr(McpRegistryServer) spaced = NULL;
  g_autoptr(McpRegistryServer) missing = NULL;
  g_autoptr(GError) error = NULL;
  McpRegistryChoice *choice;

  server = get (registry, "io.github.modelcontextprotocol/server-everything", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_registry_server_get_version (server), ==, "2026.8.31");
  g_assert_cmpstr (mcp_registry_server_get_title (server), ==, "Everything");
  g_assert_cmpstr (mcp_registry_server_get_status (server), ==, "active");
  g_assert_cmpuint (mcp_registry_server_get_choices (server)->len, ==, 1);
  choice = g_ptr_array_index (mcp_registry_server_get_choices (server), 0);
  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_NPX);

  /* A name with a space and a slash, escaped in the path */
  spaced = get (registry, "com.example/Forecast API", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_registry_server_get_name (spaced), ==, "com.example/Forecast API");

  missing = get (registry, "io.example/not-there", &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_null (missing);
  g_assert_nonnull (strstr (error->message, fixture->url));
}

static void
test_cache (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(McpRegistry) registry = mcp_registry_new (fixture->url, fixture->cache_dir);
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(McpRegistryPage) cached = NULL;
  g_autoptr(McpRegistryPage) uncached = NULL;
  g_autoptr(McpRegistryServer) server = NULL;
  g_autoptr(McpRegistryServer) cached_server = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *file;
  guint files = 0;

  page = search (registry, "acme", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->servers->len, ==, 2);
  server = get (registry, "io.github.acme/database", &error);
  g_assert_no_error (error);

  /* One file a request, private */
  dir = g_dir_open (fixture->cache_dir, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->cache_dir, file, NULL);
      GStatBuf st;

      g_assert_true (g_str_has_suffix (file, ".json"));
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_mode & 0077, ==, 0);
      files++;
    }
  g_assert_cmpuint (files, ==, 2);

  stop_fixture (fixture);

  cached = search (registry, "acme", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (cached->from_cache);
  g_assert_cmpuint (cached->servers->len, ==, 2);
  g_assert_cmpint (cached->fetched, ==, page->fetched);

  cached_server = get (registry, "io.github.acme/database", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_registry_server_get_name (cached_server), ==, "io.github.acme/database");

  /* Nothing cached for another search: the error names the URL and why */
  uncached = search (registry, "weather", NULL, 0, &error);
  g_assert_null (uncached);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, fixture->url));
  g_assert_nonnull (strstr (error->message, "search=weather"));
  g_assert_nonnull (strstr (error->message, "nothing is cached"));
}

static void
expect_failure (Fixture    *fixture,
                const char *fault,
                const char *words)
{
  g_autofree char *base = g_strdup_printf ("%s/fault/%s", fixture->url, fault);
  g_autoptr(McpRegistry) registry = mcp_registry_new (base, fixture->cache_dir);
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(GError) error = NULL;

  g_object_set (registry, "timeout", 1, NULL);
  page = search (registry, "everything", NULL, 0, &error);
  g_assert_null (page);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_test_message ("%s: %s", fault, error->message);
  g_assert_nonnull (strstr (error->message, base));
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_hostile (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *slow_base = g_strdup_printf ("%s/fault/slow", fixture->url);
  g_autoptr(McpRegistry) slow = mcp_registry_new (slow_base, fixture->cache_dir);
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(GError) error = NULL;

  expect_failure (fixture, "huge", "larger than 8 MiB");
  expect_failure (fixture, "invalid", "not JSON");
  expect_failure (fixture, "wrong", "servers: expected an array");
  expect_failure (fixture, "hang", "no answer within 1 s");
  expect_failure (fixture, "truncated", "nothing is cached");

  /* Slow, but within the time */
  page = search (slow, "everything", NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->servers->len, ==, 1);
}

static void
test_hostile_document (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(McpRegistry) registry = NULL;
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *bad = g_build_filename (fixture->dir, "bad", NULL);
  g_autofree char *doc = g_build_filename (bad, "bad.json", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) process = NULL;

  test_write_file (doc, "{\"server\": {\"name\": \"io.example/bad\", \"version\": \"1.0.0\","
                        " \"packages\": [{\"registryType\": 7, \"identifier\": \"x\","
                        " \"transport\": {\"type\": \"stdio\"}}]}}");
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("MCP_TEST_REGISTRY_FIXTURE"),
                                         "--data", bad, NULL);
  g_assert_no_error (error);
  url = test_read_listening (process);

  registry = mcp_registry_new (url, fixture->cache_dir);
  page = search (registry, NULL, NULL, 0, &error);
  g_assert_null (page);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "servers[0].server.packages[0].registryType: expected a string"));

  g_subprocess_force_exit (process);
  g_subprocess_wait (process, NULL, NULL);
}

static void
test_url_policy (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(McpRegistry) registry = mcp_registry_new ("http://example.com", fixture->cache_dir);
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(GError) error = NULL;

  page = search (registry, "x", NULL, 0, &error);
  g_assert_null (page);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, "http://example.com"));
  g_assert_nonnull (strstr (error->message, "refused"));
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *base = g_strdup_printf ("%s/fault/hang", fixture->url);
  g_autoptr(McpRegistry) registry = mcp_registry_new (base, fixture->cache_dir);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(GError) error = NULL;

  mcp_registry_search_async (registry, "x", NULL, 0, cancellable, test_result_cb, &result);
  test_wait_ms (100);
  g_cancellable_cancel (cancellable);
  page = mcp_registry_search_finish (registry, test_wait_result (&result, "cancelled search"), &error);
  g_assert_null (page);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("MCP_TEST_REGISTRY_FIXTURE") == NULL)
    {
      g_test_message ("MCP_TEST_REGISTRY_FIXTURE is not set");
      return 77;
    }

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/registry/search", test_search);
  ADD ("/registry/paging", test_paging);
  ADD ("/registry/get", test_get);
  ADD ("/registry/cache", test_cache);
  ADD ("/registry/hostile-answers", test_hostile);
  ADD ("/registry/hostile-document", test_hostile_document);
  ADD ("/registry/url-policy", test_url_policy);
  ADD ("/registry/cancel", test_cancel);
#undef ADD

  return g_test_run ();
}
