/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-roots"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mcp-error.h"
#include "mcp-roots.h"
#include "test-util.h"

/* McpRoots against a data folder of its own for each test
 * (G_TEST_OPTION_ISOLATE_DIRS sets $XDG_DATA_HOME). */

typedef struct
{
  char *base;     /* a temporary folder for the folders to add */
  char *one;
  char *two;
  char *project;
  char *file;     /* the roots file */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->base = g_dir_make_tmp ("plugboard-roots-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->one = g_build_filename (fixture->base, "one", NULL);
  fixture->two = g_build_filename (fixture->base, "two", NULL);
  fixture->project = g_build_filename (fixture->base, "project", NULL);
  g_assert_cmpint (g_mkdir (fixture->one, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->two, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->project, 0700), ==, 0);
  fixture->file = g_build_filename (g_get_user_data_dir (), "plugboard", "roots.json", NULL);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_remove_tree (fixture->base);
  g_free (fixture->base);
  g_free (fixture->one);
  g_free (fixture->two);
  g_free (fixture->project);
  g_free (fixture->file);
}

static char *
uri_of (const char *path)
{
  char *uri = g_filename_to_uri (path, NULL, NULL);

  g_assert_nonnull (uri);
  return uri;
}

/* "uri name" of each root, for comparing at once. */
static GStrv
describe (JsonArray *roots)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < json_array_get_length (roots); i++)
    {
      JsonObject *root = json_array_get_object_element (roots, i);
      g_autofree char *line = NULL;

      g_assert_nonnull (root);
      g_assert_cmpuint (json_object_get_size (root), ==, 2);
      line = g_strdup_printf ("%s %s",
                              json_object_get_string_member (root, "uri"),
                              json_object_get_string_member (root, "name"));
      g_strv_builder_add (builder, line);
    }
  return g_strv_builder_end (builder);
}

static GStrv
root_list (McpRoots   *roots,
           const char *server)
{
  g_autoptr(JsonArray) array = mcp_roots_dup_json (roots, server, MCP_CONFIG_SCOPE_PROJECT);

  return describe (array);
}

static char *
root_line (const char *path)
{
  g_autofree char *uri = uri_of (path);
  g_autofree char *name = g_path_get_basename (path);

  return g_strdup_printf ("%s %s", uri, name);
}

static void
on_changed_cb (McpRoots   *roots,
               const char *server,
               GPtrArray  *servers)
{
  g_ptr_array_add (servers, g_strdup (server));
}

/* Issue 21, defect 6: the project folder goes to the project's own
 * servers (project and local scope) only; a user-scope server gets the
 * folders added for it, and none by default, so that server-filesystem
 * keeps the folder on its command line. */
static void
test_scopes (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(McpRoots) roots = mcp_roots_new (fixture->project);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) user = NULL;
  g_auto(GStrv) project = NULL;
  g_auto(GStrv) local = NULL;
  g_autoptr(JsonArray) json = NULL;

  user = mcp_roots_dup_paths (roots, "files", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstrv (user, ((const char *[]) { NULL }));
  json = mcp_roots_dup_json (roots, "files", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpuint (json_array_get_length (json), ==, 0);
  project = mcp_roots_dup_paths (roots, "files", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_cmpstrv (project, ((const char *[]) { fixture->project, NULL }));
  local = mcp_roots_dup_paths (roots, "files", MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpstrv (local, ((const char *[]) { fixture->project, NULL }));
  g_clear_pointer (&user, g_strfreev);
  g_clear_pointer (&project, g_strfreev);

  g_assert_true (mcp_roots_add (roots, "files", fixture->one, &error));
  g_assert_no_error (error);
  user = mcp_roots_dup_paths (roots, "files", MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstrv (user, ((const char *[]) { fixture->one, NULL }));
  project = mcp_roots_dup_paths (roots, "files", MCP_CONFIG_SCOPE_PROJECT);
  g_assert_cmpstrv (project, ((const char *[]) { fixture->project, fixture->one, NULL }));

  g_assert_true (mcp_roots_offers_project_dir (MCP_CONFIG_SCOPE_PROJECT));
  g_assert_true (mcp_roots_offers_project_dir (MCP_CONFIG_SCOPE_LOCAL));
  g_assert_false (mcp_roots_offers_project_dir (MCP_CONFIG_SCOPE_USER));
}

static void
test_add_remove (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(McpRoots) roots = mcp_roots_new (NULL);
  g_autoptr(GPtrArray) changed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) added = NULL;
  g_auto(GStrv) list = NULL;
  g_autofree char *line_one = root_line (fixture->one);
  g_autofree char *line_two = root_line (fixture->two);
  g_autofree char *with_slash = g_strconcat (fixture->one, "/", NULL);

  g_signal_connect (roots, "changed", G_CALLBACK (on_changed_cb), changed);

  g_assert_null (mcp_roots_get_project_dir (roots));
  list = root_list (roots, "a");
  g_assert_cmpstrv (list, ((const char *[]) { NULL }));
  g_clear_pointer (&list, g_strfreev);
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
  g_clear_pointer (&added, g_strfreev);

  g_assert_true (mcp_roots_add (roots, "a", fixture->one, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_roots_add (roots, "a", fixture->two, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (changed, 0), ==, "a");
  g_assert_cmpstr (g_ptr_array_index (changed, 1), ==, "a");
  g_assert_true (g_file_test (fixture->file, G_FILE_TEST_IS_REGULAR));

  /* Twice, or spelt with a trailing slash: no error, no change. */
  g_assert_true (mcp_roots_add (roots, "a", fixture->one, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_roots_add (roots, "a", with_slash, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed->len, ==, 2);

  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->one, fixture->two, NULL }));
  g_clear_pointer (&added, g_strfreev);
  list = root_list (roots, "a");
  g_assert_cmpstrv (list, ((const char *[]) { line_one, line_two, NULL }));
  g_clear_pointer (&list, g_strfreev);

  g_assert_true (mcp_roots_remove (roots, "a", fixture->one, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (changed, 2), ==, "a");
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->two, NULL }));
  g_clear_pointer (&added, g_strfreev);
  list = root_list (roots, "a");
  g_assert_cmpstrv (list, ((const char *[]) { line_two, NULL }));
  g_clear_pointer (&list, g_strfreev);

  /* Removing what is not there changes nothing. */
  g_assert_true (mcp_roots_remove (roots, "a", fixture->one, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed->len, ==, 3);

  g_assert_true (mcp_roots_remove (roots, "a", fixture->two, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed->len, ==, 4);
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
}

static void
test_refused (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(McpRoots) roots = mcp_roots_new (NULL);
  g_autoptr(GPtrArray) changed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (fixture->base, "missing", NULL);
  g_autofree char *file = g_build_filename (fixture->base, "a-file", NULL);
  g_auto(GStrv) added = NULL;

  g_signal_connect (roots, "changed", G_CALLBACK (on_changed_cb), changed);

  g_assert_false (mcp_roots_add (roots, "a", "relative/folder", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "relative/folder"));
  g_assert_nonnull (strstr (error->message, "full path"));
  g_clear_error (&error);

  g_assert_false (mcp_roots_add (roots, "a", missing, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_nonnull (strstr (error->message, "no such folder"));
  g_clear_error (&error);

  g_file_set_contents (file, "x", -1, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_roots_add (roots, "a", file, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "not a folder"));
  g_clear_error (&error);

  g_assert_cmpuint (changed->len, ==, 0);
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
}

static void
test_persistence (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(McpRoots) roots = mcp_roots_new (fixture->project);
  g_autoptr(McpRoots) again = NULL;
  g_autoptr(McpRoots) other_project = NULL;
  g_autoptr(McpRoots) no_project = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) added = NULL;
  g_auto(GStrv) list = NULL;
  g_autofree char *line_project = root_line (fixture->project);
  g_autofree char *line_one = root_line (fixture->one);
  g_autofree char *line_two = root_line (fixture->two);

  g_assert_cmpstr (mcp_roots_get_project_dir (roots), ==, fixture->project);
  g_assert_true (mcp_roots_add (roots, "a", fixture->one, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_roots_add (roots, "b", fixture->two, &error));
  g_assert_no_error (error);
  /* The project folder added again is listed once, first. */
  g_assert_true (mcp_roots_add (roots, "b", fixture->project, &error));
  g_assert_no_error (error);

  list = root_list (roots, "a");
  g_assert_cmpstrv (list, ((const char *[]) { line_project, line_one, NULL }));
  g_clear_pointer (&list, g_strfreev);
  list = root_list (roots, "b");
  g_assert_cmpstrv (list, ((const char *[]) { line_project, line_two, NULL }));
  g_clear_pointer (&list, g_strfreev);
  /* A server without added folders has the project folder. */
  list = root_list (roots, "c");
  g_assert_cmpstrv (list, ((const char *[]) { line_project, NULL }));
  g_clear_pointer (&list, g_strfreev);

  /* Read back by a new object. */
  again = mcp_roots_new (fixture->project);
  added = mcp_roots_dup_added (again, "a");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->one, NULL }));
  g_clear_pointer (&added, g_strfreev);
  added = mcp_roots_dup_added (again, "b");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->two, fixture->project, NULL }));
  g_clear_pointer (&added, g_strfreev);
  list = root_list (again, "b");
  g_assert_cmpstrv (list, ((const char *[]) { line_project, line_two, NULL }));
  g_clear_pointer (&list, g_strfreev);

  /* Another project, or none, has its own. */
  other_project = mcp_roots_new (fixture->one);
  added = mcp_roots_dup_added (other_project, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
  g_clear_pointer (&added, g_strfreev);
  no_project = mcp_roots_new (NULL);
  added = mcp_roots_dup_added (no_project, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
  g_clear_pointer (&added, g_strfreev);
  g_assert_true (mcp_roots_add (no_project, "a", fixture->two, &error));
  g_assert_no_error (error);

  /* Which leaves the project's as they were, on disk too. */
  g_clear_object (&again);
  again = mcp_roots_new (fixture->project);
  added = mcp_roots_dup_added (again, "a");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->one, NULL }));
  g_clear_pointer (&added, g_strfreev);
  g_clear_object (&no_project);
  no_project = mcp_roots_new ("");
  g_assert_null (mcp_roots_get_project_dir (no_project));
  added = mcp_roots_dup_added (no_project, "a");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->two, NULL }));
  g_clear_pointer (&added, g_strfreev);
  list = root_list (no_project, "a");
  g_assert_cmpstrv (list, ((const char *[]) { line_two, NULL }));
}

static void
test_file_format (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(McpRoots) roots = mcp_roots_new (fixture->project);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *file;
  JsonObject *project;
  JsonArray *added;

  g_assert_true (mcp_roots_add (roots, "srv", fixture->one, &error));
  g_assert_no_error (error);

  json_parser_load_from_file (parser, fixture->file, &error);
  g_assert_no_error (error);
  file = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_object_get_size (file), ==, 1);
  project = json_object_get_object_member (file, fixture->project);
  g_assert_nonnull (project);
  added = json_object_get_array_member (project, "srv");
  g_assert_nonnull (added);
  g_assert_cmpuint (json_array_get_length (added), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (added, 0), ==, fixture->one);

  /* Removing the last folder leaves no empty objects. */
  g_assert_true (mcp_roots_remove (roots, "srv", fixture->one, &error));
  g_assert_no_error (error);
  json_parser_load_from_file (parser, fixture->file, &error);
  g_assert_no_error (error);
  file = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_object_get_size (file), ==, 0);
}

/* Two windows (two McpRoots, each with the file as it was when it opened)
 * change their folders in turn: neither change is lost. */
static void
test_two_writers (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(McpRoots) first = mcp_roots_new (fixture->project);
  g_autoptr(McpRoots) second = mcp_roots_new (fixture->one);
  g_autoptr(McpRoots) later = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) added = NULL;

  g_assert_true (mcp_roots_add (first, "srv", fixture->one, &error));
  g_assert_true (mcp_roots_add (second, "srv", fixture->two, &error));
  g_assert_true (mcp_roots_add (first, "other", fixture->two, &error));
  g_assert_no_error (error);

  later = mcp_roots_new (fixture->project);
  added = mcp_roots_dup_added (later, "srv");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->one, NULL }));
  g_clear_pointer (&added, g_strfreev);
  added = mcp_roots_dup_added (later, "other");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->two, NULL }));
  g_clear_object (&later);
  later = mcp_roots_new (fixture->one);
  g_clear_pointer (&added, g_strfreev);
  added = mcp_roots_dup_added (later, "srv");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->two, NULL }));
}

static void
test_corrupt (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *folder = g_path_get_dirname (fixture->file);
  g_autoptr(McpRoots) roots = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_auto(GStrv) added = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *aside_contents = NULL;
  const char *name;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (fixture->file, "{\"\": {\"a\": [\"/x\"", -1, &error);
  g_assert_no_error (error);

  g_test_expect_message ("mcp-roots", G_LOG_LEVEL_MESSAGE, "*roots.json*set aside as*roots.json.corrupt-*");
  roots = mcp_roots_new (NULL);
  g_test_assert_expected_messages ();

  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));

  /* The old contents are kept aside, untouched. */
  dir = g_dir_open (folder, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "roots.json.corrupt-"))
      {
        g_assert_null (aside);
        aside = g_build_filename (folder, name, NULL);
      }
  g_assert_nonnull (aside);
  g_file_get_contents (aside, &aside_contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (aside_contents, ==, "{\"\": {\"a\": [\"/x\"");

  /* And a change makes a new, valid file. */
  g_assert_true (mcp_roots_add (roots, "a", fixture->one, &error));
  g_assert_no_error (error);
  g_clear_object (&roots);
  roots = mcp_roots_new (NULL);
  g_clear_pointer (&added, g_strfreev);
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { fixture->one, NULL }));
}

static void
test_not_an_object (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *folder = g_path_get_dirname (fixture->file);
  g_autoptr(McpRoots) roots = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) added = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (fixture->file, "[1, 2]", -1, &error);
  g_assert_no_error (error);

  g_test_expect_message ("mcp-roots", G_LOG_LEVEL_MESSAGE, "*not a JSON object*set aside*");
  roots = mcp_roots_new (NULL);
  g_test_assert_expected_messages ();
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
}

static void
test_unwritable (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *folder = g_path_get_dirname (fixture->file);
  g_autoptr(McpRoots) roots = NULL;
  g_autoptr(GPtrArray) changed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) added = NULL;

  /* A file where the plugboard folder should be. */
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  g_file_set_contents (folder, "", -1, &error);
  g_assert_no_error (error);

  roots = mcp_roots_new (NULL);
  g_signal_connect (roots, "changed", G_CALLBACK (on_changed_cb), changed);
  g_assert_false (mcp_roots_add (roots, "a", fixture->one, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "roots"));
  g_assert_cmpuint (changed->len, ==, 0);
  added = mcp_roots_dup_added (roots, "a");
  g_assert_cmpstrv (added, ((const char *[]) { NULL }));
  g_remove (folder);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/roots/add-remove", Fixture, NULL, fixture_set_up, test_add_remove, fixture_tear_down);
  g_test_add ("/roots/scopes", Fixture, NULL, fixture_set_up, test_scopes, fixture_tear_down);
  g_test_add ("/roots/refused", Fixture, NULL, fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/roots/persistence", Fixture, NULL, fixture_set_up, test_persistence, fixture_tear_down);
  g_test_add ("/roots/file-format", Fixture, NULL, fixture_set_up, test_file_format, fixture_tear_down);
  g_test_add ("/roots/two-writers", Fixture, NULL, fixture_set_up, test_two_writers, fixture_tear_down);
  g_test_add ("/roots/corrupt", Fixture, NULL, fixture_set_up, test_corrupt, fixture_tear_down);
  g_test_add ("/roots/not-an-object", Fixture, NULL, fixture_set_up, test_not_an_object, fixture_tear_down);
  g_test_add ("/roots/unwritable", Fixture, NULL, fixture_set_up, test_unwritable, fixture_tear_down);

  return g_test_run ();
}
