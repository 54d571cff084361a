/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-output"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 23, points 5 and 7, on the built plugboard-cli against
 * mcp-fixture-server --output-checks and the SDK's output schema example:
 * numbers printed as the server wrote them, read --json's contents[] as
 * the server sent them, structured content checked against the output
 * schema (a warning, and a member with --json), and counted against
 * MAX_MCP_OUTPUT_TOKENS. */

#define HANG_BOUND_S 90

static const char *cli_path;
static const char *fixture_path;

static gboolean
have_tools (void)
{
  return test_cli_have_tools (cli_path, fixture_path);
}

static void
run_cli_env (TestRun            *run,
             TestDirs           *dirs,
             const char * const *env,
             const char * const *args)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  /* an ad-hoc call takes no settings: @dirs for its XDG folders alone */
  if (dirs != NULL && g_strv_contains ((const char * const *) args, "--"))
    {
      cli.config_dir = NULL;
      cli.project_dir = NULL;
      cli.cwd = dirs->root;
    }
  cli.env = env;
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, ...) \
  run_cli_env ((run), NULL, NULL, TEST_CLI_ARGS (__VA_ARGS__))

/* The numbers the fixture sends, as JSON.stringify() would write them:
 * shortest round-trip doubles, integers beyond 2^53 kept, -0.0 and 1.0 as
 * doubles; the integer beyond 64 bits, which no reader keeps, as the
 * double it becomes. */
#define NUMBERS_SHOWN(indent) \
  indent "  \"tenths\" : 0.7,\n" \
  indent "  \"huge\" : 1e+300,\n" \
  indent "  \"tiny\" : 5e-324,\n" \
  indent "  \"beyond64\" : 1.2345678901234567e+19,\n" \
  indent "  \"beyond53\" : 9007199254740993,\n" \
  indent "  \"negativeZero\" : -0.0,\n" \
  indent "  \"one\" : 1.0,\n" \
  indent "  \"int\" : -42,\n" \
  indent "  \"list\" : [\n" \
  indent "    0.1,\n" \
  indent "    2.5e-8,\n" \
  indent "    100\n" \
  indent "  ]\n"

/* 7: call --json prints 0.7, not 0.69999999999999996; the members in the
 * server's order. */
static void
test_numbers_call (void)
{
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;

  run_cli (&run, "call", "--json", "numbers", "--", fixture_path, "--output-checks");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "{\n"
                   "  \"content\" : [\n"
                   "    {\n"
                   "      \"type\" : \"text\",\n"
                   "      \"text\" : \"numbers\"\n"
                   "    }\n"
                   "  ],\n"
                   "  \"structuredContent\" : {\n"
                   NUMBERS_SHOWN ("  ")
                   "  }\n"
                   "}\n");
  g_assert_null (strstr (run.err, "warning"));
}

/* 7: read --json prints the server's contents[] items as they came, not
 * the resource blocks the client wraps them in, numbers as sent. */
static void
test_numbers_read (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autofree char *command = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *user_file = NULL;

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-output");
  command = test_json_string (fixture_path);
  settings = g_strdup_printf ("{\"mcpServers\": {\"nums\": {\"command\": %s, \"args\": [\"--output-checks\"]}}}\n",
                              command);
  user_file = g_build_filename (dirs.user_dir, "settings.json", NULL);
  test_write_file (user_file, settings);

  run_cli_env (&run, &dirs, NULL, TEST_CLI_ARGS ("read", "--json", "nums", "fixture://numbers"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "{\n"
                   "  \"contents\" : [\n"
                   "    {\n"
                   "      \"uri\" : \"fixture://numbers\",\n"
                   "      \"mimeType\" : \"application/json\",\n"
                   "      \"text\" : \"{}\",\n"
                   "      \"_meta\" : {\n"
                   NUMBERS_SHOWN ("      ")
                   "      }\n"
                   "    },\n"
                   "    {\n"
                   "      \"uri\" : \"fixture://numbers.bin\",\n"
                   "      \"blob\" : \"AAE=\",\n"
                   "      \"size\" : 2\n"
                   "    }\n"
                   "  ]\n"
                   "}\n");
  /* the blob is saved as before, said on stderr */
  g_assert_nonnull (strstr (run.err, "saved: "));
}

#define MISMATCH_MESSAGE "The structured content does not match the output schema: " \
                         "structuredContent.count: expected an integer, not a string"
#define MISSING_MESSAGE  "The tool declares an output schema but sent no structured content"

/* 5: structured content that does not match the tool's outputSchema: the
 * result, status 0, and one warning line naming where. */
static void
test_structured_mismatch (void)
{
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *problem;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "mismatch", "--", fixture_path, "--output-checks");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "three things"));
  g_assert_nonnull (strstr (run.err, "plugboard-cli: warning: " MISMATCH_MESSAGE "\n"));

  run_cli (&json, "call", "--json", "mismatch", "--", fixture_path, "--output-checks");
  g_assert_cmpint (json.exit_status, ==, 0);
  g_assert_nonnull (strstr (json.err, "plugboard-cli: warning: " MISMATCH_MESSAGE "\n"));
  root = test_cli_parse_json (json.out);
  /* the server's result is all there, the problem beside it */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (root),
                                                                                 "structuredContent"),
                                                  "count"), ==, "three");
  problem = json_object_get_object_member (json_node_get_object (root), "structuredContentProblem");
  g_assert_nonnull (problem);
  g_assert_cmpstr (json_object_get_string_member (problem, "kind"), ==, "invalid");
  g_assert_cmpstr (json_object_get_string_member (problem, "message"), ==, MISMATCH_MESSAGE);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (problem, "problems")), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (problem, "problems"), 0), ==,
                   "structuredContent.count: expected an integer, not a string");
}

/* 5: an outputSchema and no structuredContent is a problem, unless the
 * result is an error (the spec's exception); a match is none. */
static void
test_structured_missing (void)
{
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) json = { 0 };
  g_auto(TestRun) error = { 0 };
  g_auto(TestRun) fine = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *problem;

  if (!have_tools ())
    return;

  run_cli (&run, "call", "no-structured", "--", fixture_path, "--output-checks");
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==, "3 things, as text only\n");
  g_assert_nonnull (strstr (run.err, "plugboard-cli: warning: " MISSING_MESSAGE "\n"));

  run_cli (&json, "call", "--json", "no-structured", "--", fixture_path, "--output-checks");
  g_assert_cmpint (json.exit_status, ==, 0);
  root = test_cli_parse_json (json.out);
  problem = json_object_get_object_member (json_node_get_object (root), "structuredContentProblem");
  g_assert_cmpstr (json_object_get_string_member (problem, "kind"), ==, "missing");
  g_assert_cmpstr (json_object_get_string_member (problem, "message"), ==, MISSING_MESSAGE);

  run_cli (&error, "call", "--json", "-a", "{\"error\": true}", "no-structured", "--", fixture_path,
           "--output-checks");
  g_assert_cmpint (error.exit_status, ==, 1);
  g_assert_null (strstr (error.out, "structuredContentProblem"));
  g_assert_null (strstr (error.err, "warning"));

  run_cli (&fine, "call", "--json", "-a", "{\"bytes\": 100}", "big-structured", "--", fixture_path,
           "--output-checks");
  g_assert_cmpint (fine.exit_status, ==, 0);
  g_assert_null (strstr (fine.out, "structuredContentProblem"));
  g_assert_null (strstr (fine.err, "warning"));
}

/* 5: structuredContent counts against MAX_MCP_OUTPUT_TOKENS: 100 kB of it
 * under a limit of 1000 tokens (4000 characters) is left out, saved whole
 * to a file, and said so, in the result and on stderr. */
static void
test_structured_limit (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_auto(TestRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) saved = NULL;
  g_autofree char *saved_text = NULL;
  g_autofree char *path = NULL;
  JsonArray *content;
  const char *note;
  const char *at;
  const char * const env[] = { "MAX_MCP_OUTPUT_TOKENS", "1000", NULL };

  if (!have_tools ())
    return;
  test_dirs_init_cli (&dirs, "cli-output");

  run_cli_env (&run, &dirs, env, TEST_CLI_ARGS ("call", "--json", "-a", "{\"bytes\": 100000}", "big-structured",
                                                "--", fixture_path, "--output-checks"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpuint (g_utf8_strlen (run.out, -1), <=, 4000);
  root = test_cli_parse_json (run.out);
  g_assert_false (json_object_has_member (json_node_get_object (root), "structuredContent"));
  content = json_object_get_array_member (json_node_get_object (root), "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 2);
  note = json_object_get_string_member (json_array_get_object_element (content, 1), "text");
  g_assert_nonnull (strstr (note, "The structured content (100"));
  g_assert_nonnull (strstr (note, "over the output limit of 4000 characters (MAX_MCP_OUTPUT_TOKENS × 4)"));
  /* a valid result: the check is on what the server sent */
  g_assert_null (strstr (run.err, "warning"));

  /* the file holds all of it */
  at = strstr (run.err, "saved: ");
  g_assert_nonnull (at);
  path = g_strndup (at + strlen ("saved: "), strcspn (at + strlen ("saved: "), "\n"));
  g_assert_true (g_str_has_suffix (path, ".json"));
  g_assert_true (g_str_has_prefix (path, dirs.root));
  g_assert_nonnull (strstr (note, path));
  g_assert_true (g_file_get_contents (path, &saved_text, NULL, NULL));
  saved = test_cli_parse_json (saved_text);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (saved), "items")),
                    ==, 100000 / 8);
}

/* The SDK's own example of a tool with an outputSchema (stdio): its result
 * matches, so no warning; and every number prints as JavaScript wrote it
 * in the text block (JSON.stringify (structuredContent, null, 2)). */
static void
test_sdk_output_schema (void)
{
  const char *node = g_getenv ("MCP_TEST_NODE");
  const char *modules = g_getenv ("MCP_TEST_NODE_MODULES");
  g_autofree char *script = NULL;
  g_auto(TestRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_auto(GStrv) lines = NULL;
  const char *js_text;

  if (!have_tools ())
    return;
  if (node == NULL || modules == NULL)
    {
      g_test_skip ("no node or node_modules");
      return;
    }
  script = g_build_filename (modules, "@modelcontextprotocol", "sdk", "dist", "esm", "examples", "server",
                             "mcpServerOutputSchema.js", NULL);
  if (!g_file_test (script, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no mcpServerOutputSchema.js");
      return;
    }

  run_cli (&run, "call", "--json", "-a", "{\"city\": \"Paris\", \"country\": \"FR\"}", "get_weather",
           "--", node, script);
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_null (strstr (run.err, "warning"));
  g_assert_null (strstr (run.out, "structuredContentProblem"));

  root = test_cli_parse_json (run.out);
  js_text = json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                                                      "content"), 0),
                                           "text");
  lines = g_strsplit (js_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GString) ours = g_string_new (g_strstrip (lines[i]));

      /* "celsius": 23.4 is ours "celsius" : 23.4 */
      g_string_replace (ours, "\": ", "\" : ", 1);
      if (strchr (ours->str, ':') != NULL && strchr ("{[", ours->str[ours->len - 1]) == NULL)
        {
          g_autofree char *needle = g_strdup_printf (" %s\n", ours->str);

          if (strstr (run.out, needle) == NULL)
            g_error ("“%s” is not in the output:\n%s", ours->str, run.out);
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-output/numbers/call", test_numbers_call);
  g_test_add_func ("/cli-output/numbers/read", test_numbers_read);
  g_test_add_func ("/cli-output/structured/mismatch", test_structured_mismatch);
  g_test_add_func ("/cli-output/structured/missing", test_structured_missing);
  g_test_add_func ("/cli-output/structured/limit", test_structured_limit);
  g_test_add_func ("/cli-output/structured/sdk-example", test_sdk_output_schema);

  return g_test_run ();
}
