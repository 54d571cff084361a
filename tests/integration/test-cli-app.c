/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-app"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-json.h"
#include "test-run.h"
#include "test-util.h"

/* MCP Apps on the terminal (issue 25, point 5), against the real npm app
 * server server-basic-vanillajs run by the real plugboard-cli: tools marks
 * the tool with an interface (text and --json), call prints the text result
 * and says there is an interface, app --save DIR writes the interface's
 * HTML (byte for byte what the server serves), its policy, the input and
 * the result; app refuses a tool with no interface, a missing --save, and
 * replaces (never follows) a symbolic link planted in DIR. */

#define HANG_BOUND_S 90
#define BASIC_SCRIPT "@modelcontextprotocol/server-basic-vanillajs/dist/index.js"
#define BASIC_HTML   "@modelcontextprotocol/server-basic-vanillajs/dist/mcp-app.html"

static const char *cli_path;

typedef struct
{
  TestDirs  dirs;
  TestCli   cli;
  char     *node;
  char     *script;
} Fixture;

static gboolean
fixture_init (Fixture *f)
{
  g_autofree char *settings = NULL;
  g_autofree char *settings_path = NULL;

  f->node = test_find_node ();
  f->script = test_find_node_module (BASIC_SCRIPT);
  if (!test_have_node_script (f->node, f->script))
    return FALSE;

  test_dirs_init_cli (&f->dirs, "cli-app");
  test_cli_init (&f->cli, cli_path, &f->dirs);
  f->cli.bound_s = HANG_BOUND_S;
  settings = g_strdup_printf ("{\"mcpServers\": {\"basic\": {\"command\": \"%s\", \"args\": [\"%s\", \"--stdio\"]}}}",
                              f->node, f->script);
  settings_path = g_build_filename (f->dirs.user_dir, "settings.json", NULL);
  test_write_file (settings_path, settings);
  return TRUE;
}

static void
fixture_clear (Fixture *f)
{
  if (f->dirs.root != NULL)
    test_dirs_clear (&f->dirs);
  g_free (f->node);
  g_free (f->script);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Fixture, fixture_clear)

static void
run (Fixture            *f,
     TestRun            *result,
     const char * const *args)
{
  test_run_clear (result);
  test_cli_run (result, &f->cli, args);
  g_test_message ("%s: %d\n%s%s", args[0], result->exit_status, result->out, result->err);
}

static void
test_tools_marks_interface (void)
{
  g_auto(Fixture) f = { 0 };
  g_auto(TestRun) result = { 0 };
  g_autoptr(JsonNode) node = NULL;
  JsonObject *tool;
  JsonObject *interface;

  if (!fixture_init (&f))
    return;

  run (&f, &result, TEST_CLI_ARGS ("tools", "basic"));
  g_assert_cmpint (result.exit_status, ==, 0);
  g_assert_nonnull (strstr (result.out, "get-time"));
  g_assert_nonnull (strstr (result.out, "  interface: ui://"));

  run (&f, &result, TEST_CLI_ARGS ("tools", "basic", "--json"));
  g_assert_cmpint (result.exit_status, ==, 0);
  node = test_json_parse (result.out);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));
  tool = json_array_get_object_element (json_node_get_array (node), 0);
  interface = json_object_get_object_member (tool, "interface");
  g_assert_nonnull (interface);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (interface, "resourceUri"), "ui://"));
  g_assert_false (json_object_get_boolean_member (interface, "appOnly"));
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (interface, "visibility")), ==, 2);
}

static void
test_call_says_interface (void)
{
  g_auto(Fixture) f = { 0 };
  g_auto(TestRun) result = { 0 };

  if (!fixture_init (&f))
    return;

  run (&f, &result, TEST_CLI_ARGS ("call", "basic", "get-time", "--yes"));
  g_assert_cmpint (result.exit_status, ==, 0);
  /* The text result: an ISO 8601 time. */
  g_assert_nonnull (strstr (result.out, "T"));
  g_assert_nonnull (strstr (result.err, "has an interface (ui://"));
  g_assert_nonnull (strstr (result.err, "app … --save DIR"));

  /* --json keeps stdout and stderr for machines: no note. */
  run (&f, &result, TEST_CLI_ARGS ("call", "basic", "get-time", "--yes", "--json"));
  g_assert_cmpint (result.exit_status, ==, 0);
  g_assert_null (strstr (result.err, "has an interface"));
}

static char *
read_saved (const char *dir,
            const char *name,
            gsize      *length)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

static void
test_app_save (void)
{
  g_auto(Fixture) f = { 0 };
  g_auto(TestRun) result = { 0 };
  g_autofree char *dir = NULL;
  g_autofree char *html = NULL;
  g_autofree char *served = NULL;
  g_autofree char *html_path = NULL;
  g_autofree char *description_text = NULL;
  g_autofree char *result_text = NULL;
  g_autofree char *input_text = NULL;
  g_autofree char *planted = NULL;
  g_autofree char *victim = NULL;
  g_autofree char *victim_text = NULL;
  g_autoptr(JsonNode) description = NULL;
  g_autoptr(JsonNode) call_result = NULL;
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(GError) error = NULL;
  gsize html_length = 0;
  gsize served_length = 0;
  JsonObject *object;
  const char *csp;

  if (!fixture_init (&f))
    return;

  dir = g_build_filename (f.dirs.root, "saved", "get-time", NULL);
  /* A symbolic link where result.json goes: replaced, never followed. */
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  victim = g_build_filename (f.dirs.root, "victim.txt", NULL);
  test_write_file (victim, "keep me");
  planted = g_build_filename (dir, "result.json", NULL);
  g_assert_cmpint (symlink (victim, planted), ==, 0);

  run (&f, &result, TEST_CLI_ARGS ("app", "basic", "get-time", "--yes", "--save", dir));
  g_assert_cmpint (result.exit_status, ==, 0);
  g_assert_nonnull (strstr (result.err, "saved the interface"));

  html = read_saved (dir, "interface.html", &html_length);
  html_path = test_find_node_module (BASIC_HTML);
  g_file_get_contents (html_path, &served, &served_length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (html, html_length, served, served_length);

  description_text = read_saved (dir, "interface.json", NULL);
  description = test_json_parse (description_text);
  object = json_node_get_object (description);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "uri"), "ui://"));
  g_assert_cmpstr (json_object_get_string_member (object, "mimeType"), ==, "text/html;profile=mcp-app");
  g_assert_cmpint (json_object_get_int_member (object, "size"), ==, served_length);
  g_assert_cmpint (strlen (json_object_get_string_member (object, "sha256")), ==, 64);
  csp = json_object_get_string_member (object, "contentSecurityPolicy");
  g_assert_nonnull (strstr (csp, "default-src 'none'"));
  g_assert_nonnull (strstr (csp, "object-src 'none'"));

  input_text = read_saved (dir, "input.json", NULL);
  input = test_json_parse (input_text);
  g_assert_true (json_object_has_member (json_node_get_object (input), "arguments"));

  result_text = read_saved (dir, "result.json", NULL);
  call_result = test_json_parse (result_text);
  g_assert_true (json_object_has_member (json_node_get_object (call_result), "content"));
  g_assert_false (g_file_test (planted, G_FILE_TEST_IS_SYMLINK));

  victim_text = read_saved (f.dirs.root, "victim.txt", NULL);
  g_assert_cmpstr (victim_text, ==, "keep me");
}

static void
test_app_refusals (void)
{
  g_auto(Fixture) f = { 0 };
  g_auto(TestRun) result = { 0 };
  g_autofree char *dir = NULL;
  g_autofree char *blocker = NULL;

  if (!fixture_init (&f))
    return;

  /* No --save: a usage error before any server starts. */
  run (&f, &result, TEST_CLI_ARGS ("app", "basic", "get-time"));
  g_assert_cmpint (result.exit_status, ==, 2);
  g_assert_nonnull (strstr (result.err, "--save DIR"));

  /* DIR cannot be made: a file is in the way. */
  blocker = g_build_filename (f.dirs.root, "file", NULL);
  test_write_file (blocker, "x");
  dir = g_build_filename (blocker, "sub", NULL);
  run (&f, &result, TEST_CLI_ARGS ("app", "basic", "get-time", "--yes", "--save", dir));
  g_assert_cmpint (result.exit_status, !=, 0);
  g_assert_nonnull (strstr (result.err, "cannot make the folder"));

  /* An unknown tool. */
  run (&f, &result, TEST_CLI_ARGS ("app", "basic", "no-such-tool", "--yes", "--save", f.dirs.root));
  g_assert_cmpint (result.exit_status, ==, 3);
  g_assert_nonnull (strstr (result.err, "no tool"));
}

/* A tool without an interface (server-everything's echo, ad hoc). */
static void
test_app_no_interface (void)
{
  g_auto(TestDirs) dirs = { 0 };
  TestCli cli;
  g_auto(TestRun) result = { 0 };
  g_autofree char *node = test_find_node ();
  g_autofree char *script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  if (!test_have_node_script (node, script))
    return;

  test_dirs_init_cli (&dirs, "cli-app-none");
  test_cli_init (&cli, cli_path, NULL);
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (&result, &cli, TEST_CLI_ARGS ("app", "echo", "--args", "{\"message\": \"hi\"}",
                                              "--save", dirs.root, "--", node, script, "stdio"));
  g_test_message ("%d\n%s%s", result.exit_status, result.out, result.err);
  g_assert_cmpint (result.exit_status, ==, 2);
  g_assert_nonnull (strstr (result.err, "has no interface"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (HANG_BOUND_S);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  if (!test_have_program (cli_path, "MCP_TEST_PLUGBOARD_CLI"))
    return g_test_run ();

  g_test_add_func ("/cli/app/tools", test_tools_marks_interface);
  g_test_add_func ("/cli/app/call", test_call_says_interface);
  g_test_add_func ("/cli/app/save", test_app_save);
  g_test_add_func ("/cli/app/refusals", test_app_refusals);
  g_test_add_func ("/cli/app/no-interface", test_app_no_interface);

  return g_test_run ();
}
