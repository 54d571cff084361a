/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-needs-auth-cache"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mcp-needs-auth-cache.h"
#include "test-util.h"

/* The needs-auth cache file. G_TEST_OPTION_ISOLATE_DIRS gives each test its
 * own XDG_CACHE_HOME, so the default path is private too. */

static char *
cache_path (const char *name)
{
  return g_build_filename (g_get_user_cache_dir (), "test", name, NULL);
}

/* The "entries" object of the file, asserting the documented shape. */
static JsonObject *
read_entries (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_true (json_object_has_member (root, "entries"));

  return json_object_ref (json_object_get_object_member (root, "entries"));
}

static char *
entry_json (const char *key,
            gint64      age_s)
{
  gint64 timestamp = g_get_real_time () / 1000 - age_s * 1000;

  return g_strdup_printf ("\"%s\": { \"timestamp\": %" G_GINT64_FORMAT " }", key, timestamp);
}

static void
test_add_contains_remove (void)
{
  g_autofree char *path = cache_path ("cache.json");
  g_autoptr(JsonObject) entries = NULL;
  gint64 now_ms = g_get_real_time () / 1000;
  gint64 timestamp;

  g_assert_false (mcp_needs_auth_cache_contains (path, "one\nhttps://one.example/mcp"));
  g_assert_cmpint (mcp_needs_auth_cache_remaining (path, "one\nhttps://one.example/mcp"), ==, 0);

  mcp_needs_auth_cache_add (path, "one\nhttps://one.example/mcp");
  mcp_needs_auth_cache_add (path, "two\nhttps://two.example/mcp");

  g_assert_true (mcp_needs_auth_cache_contains (path, "one\nhttps://one.example/mcp"));
  g_assert_true (mcp_needs_auth_cache_contains (path, "two\nhttps://two.example/mcp"));
  g_assert_false (mcp_needs_auth_cache_contains (path, "one\nhttps://other.example/mcp"));
  g_assert_cmpint (mcp_needs_auth_cache_remaining (path, "one\nhttps://one.example/mcp"), <=, MCP_NEEDS_AUTH_CACHE_TTL_S);
  g_assert_cmpint (mcp_needs_auth_cache_remaining (path, "one\nhttps://one.example/mcp"), >=, MCP_NEEDS_AUTH_CACHE_TTL_S - 5);

  entries = read_entries (path);
  g_assert_cmpuint (json_object_get_size (entries), ==, 2);
  timestamp = json_object_get_int_member (json_object_get_object_member (entries, "one\nhttps://one.example/mcp"),
                                          "timestamp");
  g_assert_cmpint (ABS (timestamp - now_ms), <, 5000);

  mcp_needs_auth_cache_remove (path, "one\nhttps://one.example/mcp");
  g_assert_false (mcp_needs_auth_cache_contains (path, "one\nhttps://one.example/mcp"));
  g_assert_true (mcp_needs_auth_cache_contains (path, "two\nhttps://two.example/mcp"));
  g_clear_pointer (&entries, json_object_unref);
  entries = read_entries (path);
  g_assert_cmpuint (json_object_get_size (entries), ==, 1);
  g_assert_true (json_object_has_member (entries, "two\nhttps://two.example/mcp"));

  /* Removing what is not there changes nothing. */
  mcp_needs_auth_cache_remove (path, "three");
  g_assert_true (mcp_needs_auth_cache_contains (path, "two\nhttps://two.example/mcp"));
}

static void
test_missing_file (void)
{
  g_autofree char *path = cache_path ("nothing.json");

  g_assert_false (mcp_needs_auth_cache_contains (path, "one"));
  mcp_needs_auth_cache_remove (path, "one");
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_ttl (void)
{
  g_autofree char *path = cache_path ("cache.json");
  g_autofree char *old = entry_json ("old", MCP_NEEDS_AUTH_CACHE_TTL_S + 1);
  g_autofree char *ending = entry_json ("ending", MCP_NEEDS_AUTH_CACHE_TTL_S - 60);
  g_autofree char *fresh = entry_json ("fresh", 0);
  g_autofree char *contents = g_strdup_printf ("{ \"version\": 1, \"entries\": { %s, %s, %s } }",
                                               old, ending, fresh);
  gint64 remaining;

  test_write_file (path, contents);

  g_assert_false (mcp_needs_auth_cache_contains (path, "old"));
  g_assert_cmpint (mcp_needs_auth_cache_remaining (path, "old"), ==, 0);

  g_assert_true (mcp_needs_auth_cache_contains (path, "ending"));
  remaining = mcp_needs_auth_cache_remaining (path, "ending");
  g_assert_cmpint (remaining, >=, 55);
  g_assert_cmpint (remaining, <=, 61);

  g_assert_true (mcp_needs_auth_cache_contains (path, "fresh"));

  /* Reading never writes. */
  {
    g_autofree char *after = test_read_file (path);
    g_assert_cmpstr (after, ==, contents);
  }
}

static void
test_prune_on_write (void)
{
  g_autofree char *path = cache_path ("cache.json");
  g_autofree char *old = entry_json ("old", MCP_NEEDS_AUTH_CACHE_TTL_S + 100);
  g_autofree char *fresh = entry_json ("fresh", 10);
  g_autofree char *contents = g_strdup_printf ("{ \"version\": 1, \"entries\": { %s, %s, "
                                               "\"broken\": { \"timestamp\": \"yesterday\" }, "
                                               "\"odd\": 3 } }",
                                               old, fresh);
  g_autoptr(JsonObject) entries = NULL;

  test_write_file (path, contents);
  mcp_needs_auth_cache_add (path, "new");

  entries = read_entries (path);
  g_assert_false (json_object_has_member (entries, "old"));
  g_assert_false (json_object_has_member (entries, "broken"));
  g_assert_false (json_object_has_member (entries, "odd"));
  g_assert_true (json_object_has_member (entries, "fresh"));
  g_assert_true (json_object_has_member (entries, "new"));
  g_assert_cmpuint (json_object_get_size (entries), ==, 2);

  /* A remove also writes what is left, pruned. */
  g_free (old);
  old = entry_json ("old", MCP_NEEDS_AUTH_CACHE_TTL_S + 100);
  g_free (contents);
  contents = g_strdup_printf ("{ \"version\": 1, \"entries\": { %s, %s } }", old, fresh);
  test_write_file (path, contents);
  mcp_needs_auth_cache_remove (path, "fresh");
  g_clear_pointer (&entries, json_object_unref);
  entries = read_entries (path);
  g_assert_cmpuint (json_object_get_size (entries), ==, 0);
}

static void
test_corrupt (void)
{
  const char *corrupt[] = {
    "not json {",
    "[1, 2, 3]",
    "{ \"version\": 1, \"entries\": 3 }",
    "{ \"version\": 1 }",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (corrupt); i++)
    {
      g_autofree char *path = cache_path ("cache.json");
      g_autoptr(JsonObject) entries = NULL;

      test_write_file (path, corrupt[i]);
      g_assert_false (mcp_needs_auth_cache_contains (path, "x"));
      g_assert_cmpint (mcp_needs_auth_cache_remaining (path, "x"), ==, 0);

      mcp_needs_auth_cache_add (path, "x");
      g_assert_true (mcp_needs_auth_cache_contains (path, "x"));
      entries = read_entries (path);
      g_assert_cmpuint (json_object_get_size (entries), ==, 1);
    }
}

static void
test_missing_dir (void)
{
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "a", "b", "c", "cache.json", NULL);

  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  mcp_needs_auth_cache_add (path, "x");
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (mcp_needs_auth_cache_contains (path, "x"));
}

static void
test_atomic_write (void)
{
  g_autofree char *path = cache_path ("cache.json");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *fresh = entry_json ("fresh", 0);
  g_autofree char *contents = g_strdup_printf ("{ \"version\": 1, \"entries\": { %s } }", fresh);
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf before, after;
  const char *name;
  guint files = 0;

  test_write_file (path, contents);
  g_assert_cmpint (g_stat (path, &before), ==, 0);

  mcp_needs_auth_cache_add (path, "x");

  /* A new file took the old one's place (temporary file + rename), rather
   * than the old one being rewritten in place. */
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpuint (before.st_ino, !=, after.st_ino);
  g_assert_true (mcp_needs_auth_cache_contains (path, "fresh"));
  g_assert_true (mcp_needs_auth_cache_contains (path, "x"));

  /* And no temporary file is left behind. */
  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_assert_cmpstr (name, ==, "cache.json");
      files++;
    }
  g_assert_cmpuint (files, ==, 1);
}

static void
test_default_path (void)
{
  g_autofree char *expected = g_build_filename (g_get_user_cache_dir (), "plugboard",
                                                "mcp-needs-auth-cache.json", NULL);
  g_autofree char *path = mcp_needs_auth_cache_default_path ();

  g_assert_cmpstr (path, ==, expected);

  g_assert_false (mcp_needs_auth_cache_contains (NULL, "x"));
  mcp_needs_auth_cache_add (NULL, "x");
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
  g_assert_true (mcp_needs_auth_cache_contains (NULL, "x"));
  g_assert_true (mcp_needs_auth_cache_contains (expected, "x"));
  mcp_needs_auth_cache_remove (NULL, "x");
  g_assert_false (mcp_needs_auth_cache_contains (expected, "x"));
}

static void
test_unwritable (void)
{
  g_autofree char *blocker = g_build_filename (g_get_user_cache_dir (), "blocker", NULL);
  g_autofree char *path = g_build_filename (blocker, "cache.json", NULL);

  /* A file where the folder should be: the write fails, quietly. */
  test_write_file (blocker, "x");
  mcp_needs_auth_cache_add (path, "x");
  g_assert_false (mcp_needs_auth_cache_contains (path, "x"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/manager/needs-auth-cache/add-contains-remove", test_add_contains_remove);
  g_test_add_func ("/manager/needs-auth-cache/missing-file", test_missing_file);
  g_test_add_func ("/manager/needs-auth-cache/ttl", test_ttl);
  g_test_add_func ("/manager/needs-auth-cache/prune-on-write", test_prune_on_write);
  g_test_add_func ("/manager/needs-auth-cache/corrupt", test_corrupt);
  g_test_add_func ("/manager/needs-auth-cache/missing-dir", test_missing_dir);
  g_test_add_func ("/manager/needs-auth-cache/atomic-write", test_atomic_write);
  g_test_add_func ("/manager/needs-auth-cache/default-path", test_default_path);
  g_test_add_func ("/manager/needs-auth-cache/unwritable", test_unwritable);

  return g_test_run ();
}
