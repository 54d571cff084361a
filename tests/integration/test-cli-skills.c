/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "mcp-skills-fixture.h"
#include "test-cli-run.h"
#include "test-util.h"

/* plugboard-cli skills and skill (Skills over MCP, SEP-2640) against the
 * in-process skills fixture: the table and --json read nothing; skill
 * prints the verified SKILL.md, or on a mismatch the check, URI, expected
 * and got with a non-zero status and nothing of the content; --save writes
 * every verified file under DIR/NAME and refuses paths that escape. */

static const char *cli_path;

typedef struct
{
  TestDirs          dirs;
  TestCli           cli;
  McpSkillsFixture *fixture;
} Env;

static void
env_init (Env                  *env,
          McpSkillsFixtureMode  mode)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *settings = NULL;

  env->fixture = mcp_skills_fixture_new (mode);
  test_dirs_init_cli (&env->dirs, "cli-skills");
  test_cli_init (&env->cli, cli_path, &env->dirs);
  settings = g_strdup_printf ("{\"mcpServers\": {\"docs\": {\"type\": \"http\", \"url\": \"%s\"}}}\n",
                              mcp_skills_fixture_get_url (env->fixture));
  g_assert_true (g_file_set_contents (env->dirs.user_file, settings, -1, &error));
  g_assert_no_error (error);
}

static void
env_clear (Env *env)
{
  g_clear_pointer (&env->fixture, mcp_skills_fixture_free);
  test_dirs_clear (&env->dirs);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Env, env_clear)

static void
test_list (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) json_run = { 0 };
  g_autoptr(JsonNode) json = NULL;
  JsonArray *skills;

  env_init (&env, MCP_SKILLS_FIXTURE_GOOD);
  test_cli_run (&run, &env.cli, TEST_CLI_ARGS ("skills", "docs"));
  g_test_message ("%s", run.out);
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "NAME"));
  g_assert_nonnull (strstr (run.out, "DESCRIPTION"));
  g_assert_nonnull (strstr (run.out, "pdf-processing"));
  g_assert_nonnull (strstr (run.out, "Extract, fill, and assemble PDF documents"));
  g_assert_nonnull (strstr (run.out, MCP_SKILLS_FIXTURE_PDF_URI));
  g_assert_nonnull (strstr (run.out, MCP_SKILLS_FIXTURE_GIT_URI));

  test_cli_run (&json_run, &env.cli, TEST_CLI_ARGS ("skills", "docs", "--json"));
  g_assert_cmpint (json_run.exit_status, ==, 0);
  json = test_cli_parse_json (json_run.out);
  skills = json_object_get_array_member (json_node_get_object (json), "skills");
  g_assert_cmpuint (json_array_get_length (skills), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_array_get_object_element (skills, 0),
                                                                         "resources")), ==, 3);

  /* Listing reads nothing. */
  g_assert_cmpuint (mcp_skills_fixture_count (env.fixture, "skills/list"), ==, 2);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (env.fixture, NULL), ==, 0);
}

static void
test_load (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) by_uri = { 0 };
  g_auto(TestRun) unknown = { 0 };

  env_init (&env, MCP_SKILLS_FIXTURE_GOOD);
  test_cli_run (&run, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing"));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_cmpstr (run.out, ==, mcp_skills_fixture_get_content (env.fixture, MCP_SKILLS_FIXTURE_PDF_URI));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (env.fixture, MCP_SKILLS_FIXTURE_PDF_URI), ==, 1);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (env.fixture, NULL), ==, 1);

  test_cli_run (&by_uri, &env.cli, TEST_CLI_ARGS ("skill", "docs", MCP_SKILLS_FIXTURE_GIT_URI));
  g_assert_cmpint (by_uri.exit_status, ==, 0);
  g_assert_cmpstr (by_uri.out, ==, mcp_skills_fixture_get_content (env.fixture, MCP_SKILLS_FIXTURE_GIT_URI));

  test_cli_run (&unknown, &env.cli, TEST_CLI_ARGS ("skill", "docs", "nothing-like-it"));
  g_assert_cmpint (unknown.exit_status, ==, 2);
  test_cli_assert_failure_line (unknown.err, "lists no skill named nothing-like-it");
}

typedef struct
{
  McpSkillsFixtureMode  mode;
  const char           *check;
} Mismatch;

static const Mismatch mismatches[] = {
  { MCP_SKILLS_FIXTURE_DIGEST_MISMATCH, "Verification failed (digest) for " MCP_SKILLS_FIXTURE_PDF_URI ": expected sha256:" },
  { MCP_SKILLS_FIXTURE_SIZE_MISMATCH, "Verification failed (size) for " MCP_SKILLS_FIXTURE_PDF_URI ": expected " },
  { MCP_SKILLS_FIXTURE_FRONTMATTER_CHANGED, "Verification failed (frontmatter) for " MCP_SKILLS_FIXTURE_PDF_URI ": field “description” differs" },
};

/* A mismatch: non-zero, the check on stderr, nothing of the content
 * printed or saved, the supporting files never read. */
static void
test_mismatch (gconstpointer data)
{
  const Mismatch *mismatch = data;
  g_auto(Env) env = { 0 };
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) save = { 0 };
  g_autofree char *save_dir = NULL;
  g_autofree char *saved = NULL;

  env_init (&env, mismatch->mode);
  test_cli_run (&run, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing"));
  g_test_message ("%s", run.err);
  g_assert_cmpint (run.exit_status, ==, 3);
  g_assert_cmpstr (run.out, ==, "");
  test_cli_assert_failure_line (run.err, mismatch->check);
  g_assert_nonnull (strstr (run.err, ", got "));
  g_assert_null (strstr (run.err, "# PDF"));

  save_dir = g_build_filename (env.dirs.root, "saved", NULL);
  test_cli_run (&save, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing", "--save", save_dir));
  g_assert_cmpint (save.exit_status, ==, 3);
  saved = g_build_filename (save_dir, "pdf-processing", NULL);
  g_assert_false (g_file_test (saved, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (env.fixture, MCP_SKILLS_FIXTURE_FORMS_URI), ==, 0);
}

static void
test_save (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) again = { 0 };
  g_auto(TestRun) forced = { 0 };
  g_autofree char *save_dir = NULL;
  g_autofree char *skill_md = NULL;
  g_autofree char *forms = NULL;
  g_autofree char *script = NULL;
  g_autofree char *text = NULL;

  env_init (&env, MCP_SKILLS_FIXTURE_GOOD);
  save_dir = g_build_filename (env.dirs.root, "saved", NULL);
  test_cli_run (&run, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing", "--save", save_dir));
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.err, "saved 3 verified files"));

  skill_md = g_build_filename (save_dir, "pdf-processing", "SKILL.md", NULL);
  forms = g_build_filename (save_dir, "pdf-processing", "references", "FORMS.md", NULL);
  script = g_build_filename (save_dir, "pdf-processing", "scripts", "extract.py", NULL);
  text = test_read_file (skill_md);
  g_assert_cmpstr (text, ==, mcp_skills_fixture_get_content (env.fixture, MCP_SKILLS_FIXTURE_PDF_URI));
  g_clear_pointer (&text, g_free);
  text = test_read_file (forms);
  g_assert_cmpstr (text, ==, mcp_skills_fixture_get_content (env.fixture, MCP_SKILLS_FIXTURE_FORMS_URI));
  g_clear_pointer (&text, g_free);
  text = test_read_file (script);
  g_assert_cmpstr (text, ==, mcp_skills_fixture_get_content (env.fixture, MCP_SKILLS_FIXTURE_SCRIPT_URI));

  /* Never over what is there without --force. */
  test_write_file (forms, "mine\n");
  test_cli_run (&again, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing", "--save", save_dir));
  g_assert_cmpint (again.exit_status, !=, 0);
  test_cli_assert_failure_line (again.err, "exists (--force replaces it)");
  g_clear_pointer (&text, g_free);
  text = test_read_file (forms);
  g_assert_cmpstr (text, ==, "mine\n");

  test_cli_run (&forced, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing", "--save", save_dir, "--force"));
  g_assert_cmpint (forced.exit_status, ==, 0);
  g_clear_pointer (&text, g_free);
  text = test_read_file (forms);
  g_assert_cmpstr (text, ==, mcp_skills_fixture_get_content (env.fixture, MCP_SKILLS_FIXTURE_FORMS_URI));
}

/* A symbolic link on the way out of DIR is refused, even with --force,
 * and nothing is written through it; a file whose digest fails leaves
 * nothing saved; an entry whose file climbs out with ".." is no skill. */
static void
test_save_refused (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) file_mismatch = { 0 };
  g_auto(TestRun) escape = { 0 };
  g_auto(TestRun) listing = { 0 };
  g_autofree char *save_dir = NULL;
  g_autofree char *outside = NULL;
  g_autofree char *link = NULL;
  g_autofree char *planted = NULL;

  env_init (&env, MCP_SKILLS_FIXTURE_GOOD);
  save_dir = g_build_filename (env.dirs.root, "saved", NULL);
  outside = g_build_filename (env.dirs.root, "outside", NULL);
  g_assert_cmpint (g_mkdir_with_parents (save_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (outside, 0755), ==, 0);
  link = g_build_filename (save_dir, "pdf-processing", NULL);
  g_assert_cmpint (symlink (outside, link), ==, 0);

  test_cli_run (&run, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing", "--save", save_dir, "--force"));
  g_assert_cmpint (run.exit_status, !=, 0);
  test_cli_assert_failure_line (run.err, "is a symbolic link");
  planted = g_build_filename (outside, "SKILL.md", NULL);
  g_assert_false (g_file_test (planted, G_FILE_TEST_EXISTS));
  env_clear (&env);

  env_init (&env, MCP_SKILLS_FIXTURE_FILE_MISMATCH);
  g_free (save_dir);
  save_dir = g_build_filename (env.dirs.root, "saved", NULL);
  test_cli_run (&file_mismatch, &env.cli, TEST_CLI_ARGS ("skill", "docs", "pdf-processing", "--save", save_dir));
  g_assert_cmpint (file_mismatch.exit_status, ==, 3);
  test_cli_assert_failure_line (file_mismatch.err, "Nothing was saved: Verification failed (digest) for "
                                MCP_SKILLS_FIXTURE_FORMS_URI);
  g_assert_false (g_file_test (save_dir, G_FILE_TEST_EXISTS));
  env_clear (&env);

  env_init (&env, MCP_SKILLS_FIXTURE_ESCAPE);
  g_free (save_dir);
  save_dir = g_build_filename (env.dirs.root, "saved", NULL);
  test_cli_run (&escape, &env.cli, TEST_CLI_ARGS ("skill", "docs", "sneaky", "--save", save_dir));
  g_assert_cmpint (escape.exit_status, !=, 0);
  g_assert_false (g_file_test (save_dir, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (env.fixture, NULL), ==, 0);
  test_cli_run (&listing, &env.cli, TEST_CLI_ARGS ("skills", "docs"));
  g_assert_cmpint (listing.exit_status, ==, 0);
  g_assert_null (strstr (listing.out, "sneaky"));
}

/* A secret of the server's settings (a header) is in no output, error or
 * trace of the skills verbs, a failed verification included. */
static void
test_no_secret (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) list = { 0 };
  g_auto(TestRun) load = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *trace_option = NULL;
  g_autofree char *traced = NULL;
  const char *secret = "sk-skills-secret-4711";

  env_init (&env, MCP_SKILLS_FIXTURE_DIGEST_MISMATCH);
  settings = g_strdup_printf ("{\"mcpServers\": {\"docs\": {\"type\": \"http\", \"url\": \"%s\", "
                              "\"headers\": {\"Authorization\": \"Bearer %s\"}}}}\n",
                              mcp_skills_fixture_get_url (env.fixture), secret);
  g_assert_true (g_file_set_contents (env.dirs.user_file, settings, -1, &error));
  g_assert_no_error (error);
  trace = g_build_filename (env.dirs.root, "trace.jsonl", NULL);
  trace_option = g_strdup_printf ("--trace=%s", trace);

  test_cli_run (&list, &env.cli, TEST_CLI_ARGS ("skills", "docs", "--json"));
  g_assert_cmpint (list.exit_status, ==, 0);
  test_cli_run (&load, &env.cli, TEST_CLI_ARGS (trace_option, "skill", "docs", "pdf-processing"));
  g_assert_cmpint (load.exit_status, ==, 3);
  traced = test_read_file (trace);
  g_assert_nonnull (strstr (traced, "skills/list"));
  g_assert_nonnull (strstr (traced, "resources/read"));

  g_assert_null (strstr (list.out, secret));
  g_assert_null (strstr (list.err, secret));
  g_assert_null (strstr (load.out, secret));
  g_assert_null (strstr (load.err, secret));
  g_assert_null (strstr (traced, secret));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  g_assert_nonnull (cli_path);

  g_test_add_func ("/cli/skills/list", test_list);
  g_test_add_func ("/cli/skills/load", test_load);
  g_test_add_data_func ("/cli/skills/mismatch/digest", &mismatches[0], test_mismatch);
  g_test_add_data_func ("/cli/skills/mismatch/size", &mismatches[1], test_mismatch);
  g_test_add_data_func ("/cli/skills/mismatch/frontmatter", &mismatches[2], test_mismatch);
  g_test_add_func ("/cli/skills/save", test_save);
  g_test_add_func ("/cli/skills/save-refused", test_save_refused);
  g_test_add_func ("/cli/skills/no-secret", test_no_secret);

  return g_test_run ();
}
