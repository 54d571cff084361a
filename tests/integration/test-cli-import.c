/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-import"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-json.h"
#include "test-run.h"
#include "test-util.h"

/* plugboard-cli import, add-from-claude-desktop, reset-project-choices and
 * add-json with other clients' remote entries (issue 23, point 9), on
 * real files in temporary folders: a home with Claude Desktop's settings,
 * the user folder and the project. */

static const char *cli_path;
static const char *fixture_path;

/* Claude Desktop's file in @home: "local" runs the fixture server,
 * "remote" is the url-only shape Claude Desktop writes. */
static void
write_claude_desktop (const char *home)
{
  g_autofree char *file = g_build_filename (home, ".config", "Claude", "claude_desktop_config.json", NULL);
  g_autofree char *command = test_json_string (fixture_path);
  g_autofree char *text = g_strdup_printf ("{\"mcpServers\": {\n"
                                           "  \"local\": {\"command\": %s},\n"
                                           "  \"remote\": {\"url\": \"https://mcp.example.com/mcp?key=s3cret\"}\n"
                                           "}}\n", command);

  test_write_file (file, text);
}

static void
run_cli_in (TestRun            *run,
            TestDirs           *dirs,
            const char * const *args)
{
  g_autofree char *home = g_build_filename (dirs->root, "home", NULL);
  const char *env[] = { "HOME", home, NULL };
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  cli.env = env;
  cli.text = TRUE;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, dirs, ...) run_cli_in ((run), (dirs), TEST_CLI_ARGS (__VA_ARGS__))

static gboolean
set_up (TestDirs *dirs)
{
  g_autofree char *home = NULL;

  if (!test_cli_have_tools (cli_path, fixture_path))
    return FALSE;
  test_dirs_init_cli (dirs, "cli-import");
  home = g_build_filename (dirs->root, "home", NULL);
  write_claude_desktop (home);
  return TRUE;
}

/* The member @name of the file's "mcpServers" (user file: of the
 * project's entry when @project_dir is given). */
static JsonObject *
read_entry (const char *file,
            const char *project_dir,
            const char *name)
{
  g_autofree char *text = test_read_file (file);
  g_autoptr(JsonNode) root = json_from_string (text, NULL);
  JsonObject *object;
  JsonObject *servers;

  g_assert_nonnull (root);
  object = json_node_get_object (root);
  if (project_dir != NULL)
    object = json_object_get_object_member (json_object_get_object_member (object, "projects"), project_dir);
  servers = json_object_get_object_member (object, "mcpServers");
  if (!json_object_has_member (servers, name))
    return NULL;
  return json_object_ref (json_object_get_object_member (servers, name));
}

/* Without names or --all: a list, and nothing written anywhere. */
static void
test_import_lists (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };

  if (!set_up (&dirs))
    return;

  run_cli (&run, &dirs, "import", "claude-desktop");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "local: stdio "));
  g_assert_nonnull (strstr (run.out, "remote: http https://mcp.example.com/mcp"));
  g_assert_nonnull (strstr (run.out, "No “type” was given: taken as “http”"));
  /* a URL's query values are secrets */
  g_assert_null (strstr (run.out, "s3cret"));
  g_assert_false (g_file_test (dirs.user_file, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (dirs.project_file, G_FILE_TEST_EXISTS));
}

/* A broken entry of the client read is said (file and JSON path); another
 * client's broken file is not this import's business. */
static void
test_import_problems (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *desktop = NULL;
  g_autofree char *cursor = NULL;

  if (!set_up (&dirs))
    return;
  desktop = g_build_filename (dirs.root, "home", ".config", "Claude", "claude_desktop_config.json", NULL);
  cursor = g_build_filename (dirs.root, "home", ".cursor", "mcp.json", NULL);
  test_write_file (desktop, "{\"mcpServers\": {\"ok\": {\"command\": \"x\"}, \"bad\": 3}}");
  test_write_file (cursor, "{not json");

  run_cli (&run, &dirs, "import", "claude-desktop");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "ok: stdio x"));
  g_assert_nonnull (strstr (run.err, "$.mcpServers.bad: expected an object"));
  g_assert_null (strstr (run.err, "mcp.json"));
}

/* --scope project writes .mcp.json and nothing else; the servers wait for
 * approval. */
static void
test_import_all_project (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autoptr(JsonObject) local = NULL;
  g_autoptr(JsonObject) remote = NULL;

  if (!set_up (&dirs))
    return;

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "import", "claude-desktop", "--all", "--scope", "project");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "Imported 2 servers from Claude Desktop"));
    g_assert_null (strstr (run.out, "s3cret"));
  }

  local = read_entry (dirs.project_file, NULL, "local");
  remote = read_entry (dirs.project_file, NULL, "remote");
  g_assert_nonnull (local);
  g_assert_nonnull (remote);
  g_assert_cmpstr (json_object_get_string_member (local, "command"), ==, fixture_path);
  g_assert_cmpstr (json_object_get_string_member (remote, "type"), ==, "http");
  g_assert_cmpstr (json_object_get_string_member (remote, "url"), ==, "https://mcp.example.com/mcp?key=s3cret");
  g_assert_false (g_file_test (dirs.user_file, G_FILE_TEST_EXISTS));

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "list");
    g_assert_nonnull (strstr (run.out, "approval pending (plugboard-cli approve local)"));
  }
}

/* A name already in the settings (another scope) is skipped and said so;
 * the existing entry is left as it was; the rest is imported. */
static void
test_import_name_clash (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonObject) remote = NULL;

  if (!set_up (&dirs))
    return;
  test_write_file (dirs.user_file, "{\"mcpServers\": {\"local\": {\"command\": \"mine\"}}}\n");
  before = test_read_file (dirs.user_file);

  run_cli (&run, &dirs, "add-from-claude-desktop", "--all");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Skipped “local”: there is already a server named “local” in the user settings"));
  g_assert_nonnull (strstr (run.out, "Imported 1 server from Claude Desktop; 1 skipped"));

  remote = read_entry (dirs.user_file, dirs.project_dir, "remote");
  g_assert_nonnull (remote);
  after = test_read_file (dirs.user_file);
  g_assert_nonnull (strstr (after, "{\"command\": \"mine\"}"));
  g_assert_false (g_file_test (dirs.project_file, G_FILE_TEST_EXISTS));
}

/* --dry-run, an unknown client, a name that is not there: nothing written. */
static void
test_import_refusals (void)
{
  g_auto(TestDirs) dirs = { 0 };

  if (!set_up (&dirs))
    return;

  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "import", "claude-desktop", "remote", "--dry-run");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "would be added to the local settings"));
    g_assert_nonnull (strstr (run.out, "Nothing was written"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "import", "netscape");
    g_assert_cmpint (run.exit_status, ==, 2);
    test_cli_assert_failure_line (run.err, "Unknown client “netscape”");
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "import", "claude-desktop", "remote", "typo");
    g_assert_cmpint (run.exit_status, ==, 2);
    test_cli_assert_failure_line (run.err, "No server named “typo” in Claude Desktop");
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "import", "claude-desktop", "remote", "--all");
    g_assert_cmpint (run.exit_status, ==, 2);
  }
  g_assert_false (g_file_test (dirs.user_file, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (dirs.project_file, G_FILE_TEST_EXISTS));
}

/* add-json takes what other clients write for a remote server. */
static void
test_add_json_url_only (void)
{
  static const struct
  {
    const char *name;
    const char *json;
    const char *type;
    const char *url;
  } cases[] = {
    { "plain", "{\"url\": \"https://a.example.com/mcp\"}", "http", "https://a.example.com/mcp" },
    { "events", "{\"url\": \"https://a.example.com/sse\"}", "sse", "https://a.example.com/sse" },
    { "windsurf", "{\"serverUrl\": \"https://w.example.com/mcp\"}", "http", "https://w.example.com/mcp" },
    { "cline", "{\"type\": \"streamable-http\", \"url\": \"https://c.example.com/mcp\"}",
      "http", "https://c.example.com/mcp" },
  };
  g_auto(TestDirs) dirs = { 0 };

  if (!set_up (&dirs))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(TestRun) run = { 0 };
      g_autoptr(JsonObject) entry = NULL;

      run_cli (&run, &dirs, "add-json", cases[i].name, cases[i].json);
      g_assert_cmpint (run.exit_status, ==, 0);
      entry = read_entry (dirs.user_file, dirs.project_dir, cases[i].name);
      g_assert_nonnull (entry);
      g_assert_cmpstr (json_object_get_string_member (entry, "type"), ==, cases[i].type);
      g_assert_cmpstr (json_object_get_string_member (entry, "url"), ==, cases[i].url);
      g_assert_false (json_object_has_member (entry, "serverUrl"));
    }

  /* Still refused: neither a command nor a URL. */
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "add-json", "nothing", "{\"serverUrl\": 7}");
    g_assert_cmpint (run.exit_status, ==, 2);
  }
}

/* Approve one project server, reject another: reset-project-choices
 * forgets both, and list shows them pending again. */
static void
test_reset_project_choices (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *command = NULL;
  g_autofree char *project = NULL;

  if (!set_up (&dirs))
    return;
  command = test_json_string (fixture_path);
  project = g_strdup_printf ("{\"mcpServers\": {\"one\": {\"command\": %s}, \"two\": {\"command\": %s}}}\n",
                             command, command);
  test_write_file (dirs.project_file, project);

  {
    g_auto(TestRun) approve = { 0 };
    g_auto(TestRun) reject = { 0 };

    run_cli (&approve, &dirs, "approve", "one");
    g_assert_cmpint (approve.exit_status, ==, 0);
    run_cli (&reject, &dirs, "reject", "two");
    g_assert_cmpint (reject.exit_status, ==, 0);
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "reset-project-choices");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "  one (was approved)\n"));
    g_assert_nonnull (strstr (run.out, "  two (was rejected)\n"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "list");
    g_assert_nonnull (strstr (run.out, "disabled: approval pending (plugboard-cli approve one)"));
    g_assert_nonnull (strstr (run.out, "disabled: approval pending (plugboard-cli approve two)"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "reset-project-choices");
    g_assert_cmpint (run.exit_status, ==, 0);
    g_assert_nonnull (strstr (run.out, "nothing to reset"));
  }
  {
    g_auto(TestRun) run = { 0 };

    run_cli (&run, &dirs, "reset-project-choices", "one");
    g_assert_cmpint (run.exit_status, ==, 2);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-import/import/lists", test_import_lists);
  g_test_add_func ("/cli-import/import/all-project", test_import_all_project);
  g_test_add_func ("/cli-import/import/problems", test_import_problems);
  g_test_add_func ("/cli-import/import/name-clash", test_import_name_clash);
  g_test_add_func ("/cli-import/import/refusals", test_import_refusals);
  g_test_add_func ("/cli-import/add-json/url-only", test_add_json_url_only);
  g_test_add_func ("/cli-import/reset-project-choices", test_reset_project_choices);

  return g_test_run ();
}
