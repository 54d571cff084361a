/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-server-connection.h"
#include "mcp-server-manager.h"
#include "mcp-skill.h"
#include "mcp-skill-private.h"
#include "mcp-token-store.h"

#include "mcp-skills-fixture.h"
#include "test-engine.h"
#include "test-util.h"

/* Skills over MCP (SEP-2640) through McpServerManager against the skills
 * fixture: listing reads nothing, every read is verified (size, digest,
 * frontmatter field by field), content that fails is never returned, and
 * what a server sends is bounded. */

typedef struct
{
  McpSkillsFixture    *fixture;
  McpServerManager    *manager;
  McpServerConnection *connection;
  McpTokenStore       *store;
  char                *dir;
  GPtrArray           *warnings;
} Test;

static void
on_warning_cb (McpClient  *client,
               const char *message,
               gpointer    user_data)
{
  Test *test = user_data;

  g_ptr_array_add (test->warnings, g_strdup (message));
}

static void
on_client_notify_cb (McpServerConnection *connection,
                     GParamSpec          *pspec,
                     gpointer             user_data)
{
  McpClient *client = mcp_server_connection_get_client (connection);

  if (client != NULL)
    g_signal_connect (client, "warning", G_CALLBACK (on_warning_cb), user_data);
}

static void
test_start (Test                 *test,
            McpSkillsFixtureMode  mode)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListStore) configs = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *json = NULL;
  g_autofree char *store_path = NULL;
  g_autofree char *cache_path = NULL;

  test->fixture = mcp_skills_fixture_new (mode);
  test->warnings = g_ptr_array_new_with_free_func (g_free);
  test->dir = g_dir_make_tmp ("test-skills-XXXXXX", &error);
  g_assert_no_error (error);
  store_path = g_build_filename (test->dir, "credentials.json", NULL);
  cache_path = g_build_filename (test->dir, "mcp-needs-auth-cache.json", NULL);
  test->store = mcp_token_store_new ("file", store_path);
  test->manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                                "token-store", test->store,
                                "needs-auth-cache-path", cache_path,
                                "connect-timeout", 10000,
                                NULL);

  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"%s\"}", mcp_skills_fixture_get_url (test->fixture));
  config = test_config_from_json ("skills", json);
  g_list_store_append (configs, config);
  mcp_server_manager_set_configs (test->manager, G_LIST_MODEL (configs));
  test->connection = mcp_server_manager_lookup (test->manager, "skills");
  g_assert_nonnull (test->connection);
  g_signal_connect (test->connection, "notify::client", G_CALLBACK (on_client_notify_cb), test);
  on_client_notify_cb (test->connection, NULL, test);

  mcp_server_manager_wait_settled_async (test->manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to settle");
  g_assert_true (mcp_server_manager_wait_settled_finish (test->manager, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_connection_get_state (test->connection), ==, MCP_SERVER_STATE_CONNECTED);
}

static void
test_stop (Test *test)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_manager_close_async (test->manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to close");
  g_assert_true (mcp_server_manager_close_finish (test->manager, result, NULL));
  g_clear_object (&test->manager);
  g_clear_object (&test->store);
  g_clear_pointer (&test->fixture, mcp_skills_fixture_free);
  g_clear_pointer (&test->warnings, g_ptr_array_unref);
  test_remove_tree (test->dir);
  g_clear_pointer (&test->dir, g_free);
}

static GPtrArray *
list_skills (Test    *test,
             GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_connection_list_skills_async (test->connection, NULL, test_result_cb, &result);
  test_wait_result (&result, "skills/list");
  return mcp_server_connection_list_skills_finish (test->connection, result, error);
}

static McpSkill *
find_skill (GPtrArray  *skills,
            const char *uri)
{
  for (guint i = 0; i < skills->len; i++)
    if (g_str_equal (mcp_skill_get_uri (g_ptr_array_index (skills, i)), uri))
      return g_ptr_array_index (skills, i);
  return NULL;
}

static GBytes *
read_skill (Test       *test,
            McpSkill   *skill,
            const char *uri,
            GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_server_connection_read_skill_async (test->connection, skill, uri, NULL, test_result_cb, &result);
  test_wait_result (&result, "a skill's file");
  return mcp_server_connection_read_skill_finish (test->connection, result, error);
}

/* The skills listed, nothing read; then the loaded SKILL.md is the
 * served one and only it was read; then a file read on its own. */
static void
test_list_and_load (void)
{
  Test test = { 0 };
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) script = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) uris = NULL;
  const char *digest = NULL;
  gint64 size = -1;
  McpSkill *pdf;
  JsonObject *metadata;

  test_start (&test, MCP_SKILLS_FIXTURE_GOOD);
  g_assert_true (mcp_server_connection_offers_skills (test.connection));
  /* The host says it loads skills itself. */
  g_assert_nonnull (strstr (mcp_skills_fixture_get_client_capabilities (test.fixture),
                            "\"io.modelcontextprotocol/skills\":{}"));

  skills = list_skills (&test, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (skills->len, ==, 2);
  pdf = find_skill (skills, MCP_SKILLS_FIXTURE_PDF_URI);
  g_assert_nonnull (pdf);
  g_assert_cmpstr (mcp_skill_get_name (pdf), ==, "pdf-processing");
  g_assert_cmpstr (mcp_skill_get_description (pdf), ==, "Extract, fill, and assemble PDF documents");
  g_assert_false (mcp_skill_is_dynamic (pdf));
  metadata = json_object_get_object_member (mcp_skill_get_frontmatter (pdf), "metadata");
  g_assert_cmpstr (json_object_get_string_member (metadata, "version"), ==, "2.1");
  uris = mcp_skill_get_file_uris (pdf);
  g_assert_cmpuint (g_strv_length (uris), ==, 3);
  g_assert_cmpstr (uris[0], ==, MCP_SKILLS_FIXTURE_PDF_URI);
  g_assert_cmpstr (uris[1], ==, MCP_SKILLS_FIXTURE_FORMS_URI);
  g_assert_true (mcp_skill_get_file_info (pdf, MCP_SKILLS_FIXTURE_FORMS_URI, &digest, &size));
  g_assert_true (g_str_has_prefix (digest, "sha256:"));
  g_assert_cmpint (size, ==, strlen (mcp_skills_fixture_get_content (test.fixture, MCP_SKILLS_FIXTURE_FORMS_URI)));
  g_assert_cmpstr (mcp_skill_get_file_path (pdf, MCP_SKILLS_FIXTURE_FORMS_URI), ==, "references/FORMS.md");
  g_assert_cmpstr (mcp_skill_get_file_path (pdf, MCP_SKILLS_FIXTURE_PDF_URI), ==, "SKILL.md");
  g_assert_null (mcp_skill_get_file_path (pdf, "skill://pdf-processing/other.md"));

  /* No prefetch: not on connection, not on listing. */
  g_assert_cmpuint (mcp_skills_fixture_count (test.fixture, "skills/list"), ==, 1);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, NULL), ==, 0);

  bytes = read_skill (&test, pdf, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   mcp_skills_fixture_get_content (test.fixture, MCP_SKILLS_FIXTURE_PDF_URI),
                   strlen (mcp_skills_fixture_get_content (test.fixture, MCP_SKILLS_FIXTURE_PDF_URI)));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, MCP_SKILLS_FIXTURE_PDF_URI), ==, 1);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, NULL), ==, 1);

  /* A blob is verified over its decoded bytes. */
  script = read_skill (&test, pdf, MCP_SKILLS_FIXTURE_SCRIPT_URI, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (script, NULL), g_bytes_get_size (script),
                   "#!/usr/bin/env python3\nprint('extract')\n", 40);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, MCP_SKILLS_FIXTURE_FORMS_URI), ==, 0);

  test_stop (&test);
}

typedef struct
{
  McpSkillsFixtureMode  mode;
  const char           *check;
  const char           *detail;
} Mismatch;

static const Mismatch mismatches[] = {
  { MCP_SKILLS_FIXTURE_DIGEST_MISMATCH, "(digest)", "expected sha256:" },
  { MCP_SKILLS_FIXTURE_SIZE_MISMATCH, "(size)", "bytes, got" },
  { MCP_SKILLS_FIXTURE_FRONTMATTER_CHANGED, "(frontmatter)",
    "field “description” differs: expected \"Extract, fill, and assemble PDF documents\", got \"Exfiltrate credentials\"" },
  { MCP_SKILLS_FIXTURE_FRONTMATTER_ADDED, "(frontmatter)", "field “allowed-tools” is in SKILL.md (\"Bash\") but not in the entry" },
  { MCP_SKILLS_FIXTURE_FRONTMATTER_REMOVED, "(frontmatter)", "field “license” is missing from SKILL.md" },
  { MCP_SKILLS_FIXTURE_BAD_YAML, "(frontmatter)", "does not parse" },
};

/* A SKILL.md that fails a check is not returned, and nothing more of the
 * skill is read. */
static void
test_mismatch (gconstpointer data)
{
  const Mismatch *mismatch = data;
  Test test = { 0 };
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  test_start (&test, mismatch->mode);
  skills = list_skills (&test, &error);
  g_assert_no_error (error);

  bytes = read_skill (&test, find_skill (skills, MCP_SKILLS_FIXTURE_PDF_URI), NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "“skills”"));
  g_assert_nonnull (strstr (error->message, mismatch->check));
  g_assert_nonnull (strstr (error->message, MCP_SKILLS_FIXTURE_PDF_URI));
  g_assert_nonnull (strstr (error->message, mismatch->detail));
  g_assert_nonnull (strstr (error->message, "the content was not used"));
  /* Nothing of the served body is quoted back. */
  g_assert_null (strstr (error->message, "# PDF"));

  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, MCP_SKILLS_FIXTURE_PDF_URI), ==, 1);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, MCP_SKILLS_FIXTURE_FORMS_URI), ==, 0);

  test_stop (&test);
}

/* A supporting file that differs from its digest; a file the entry does
 * not list, and one listed past the size limit, are never asked for. */
static void
test_files (void)
{
  Test test = { 0 };
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  McpSkill *pdf;

  test_start (&test, MCP_SKILLS_FIXTURE_FILE_MISMATCH);
  skills = list_skills (&test, &error);
  g_assert_no_error (error);
  pdf = find_skill (skills, MCP_SKILLS_FIXTURE_PDF_URI);

  bytes = read_skill (&test, pdf, MCP_SKILLS_FIXTURE_FORMS_URI, &error);
  g_assert_null (bytes);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "(digest)"));
  g_assert_nonnull (strstr (error->message, MCP_SKILLS_FIXTURE_FORMS_URI));
  g_clear_error (&error);

  bytes = read_skill (&test, pdf, "skill://pdf-processing/references/SECRET.md", &error);
  g_assert_null (bytes);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "not one of the files"));
  g_clear_error (&error);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, "skill://pdf-processing/references/SECRET.md"), ==, 0);
  test_stop (&test);

  test_start (&test, MCP_SKILLS_FIXTURE_HUGE);
  g_clear_pointer (&skills, g_ptr_array_unref);
  skills = list_skills (&test, &error);
  g_assert_no_error (error);
  pdf = find_skill (skills, MCP_SKILLS_FIXTURE_PDF_URI);
  bytes = read_skill (&test, pdf, "skill://pdf-processing/assets/big.bin", &error);
  g_assert_null (bytes);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (test.fixture, NULL), ==, 0);
  test_stop (&test);
}

/* Every page, a malformed entry left out with a warning; an entry whose
 * file climbs out of the skill's directory left out too. */
static void
test_paging (void)
{
  Test test = { 0 };
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GError) error = NULL;
  gboolean warned = FALSE;

  test_start (&test, MCP_SKILLS_FIXTURE_PAGED);
  skills = list_skills (&test, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (skills->len, ==, 7);
  g_assert_cmpuint (mcp_skills_fixture_count (test.fixture, "skills/list"), ==, 4);
  g_assert_nonnull (find_skill (skills, "skill://more/epsilon/SKILL.md"));
  g_assert_null (find_skill (skills, "skill://more/broken/SKILL.md"));
  for (guint i = 0; i < test.warnings->len; i++)
    warned |= strstr (g_ptr_array_index (test.warnings, i), "digest") != NULL;
  g_assert_true (warned);
  test_stop (&test);

  test_start (&test, MCP_SKILLS_FIXTURE_ESCAPE);
  g_clear_pointer (&skills, g_ptr_array_unref);
  skills = list_skills (&test, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (skills->len, ==, 2);
  g_assert_null (find_skill (skills, "skill://sneaky/SKILL.md"));
  test_stop (&test);
}

/* skills/get for a skill named by URI; no skills without the extension,
 * and nothing asked. */
static void
test_get_and_unsupported (void)
{
  Test test = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpSkill) skill = NULL;
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  test_start (&test, MCP_SKILLS_FIXTURE_GOOD);
  mcp_server_connection_get_skill_async (test.connection, MCP_SKILLS_FIXTURE_GIT_URI, NULL, test_result_cb, &result);
  test_wait_result (&result, "skills/get");
  skill = mcp_server_connection_get_skill_finish (test.connection, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_skill_get_name (skill), ==, "git-workflow");
  bytes = read_skill (&test, skill, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bytes);

  g_clear_object (&result);
  mcp_server_connection_get_skill_async (test.connection, "skill://nowhere/SKILL.md", NULL, test_result_cb, &result);
  test_wait_result (&result, "skills/get");
  g_assert_null (mcp_server_connection_get_skill_finish (test.connection, result, &error));
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS);
  g_clear_error (&error);
  test_stop (&test);

  test_start (&test, MCP_SKILLS_FIXTURE_NO_EXTENSION);
  g_assert_false (mcp_server_connection_offers_skills (test.connection));
  skills = list_skills (&test, &error);
  g_assert_null (skills);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED);
  g_assert_cmpuint (mcp_skills_fixture_count (test.fixture, "skills/list"), ==, 0);
  test_stop (&test);
}

/* The checks themselves, on hostile input. */
static void
test_frontmatter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) parsed = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(GString) deep = g_string_new ("---\n");
  g_autoptr(GString) long_text = g_string_new ("---\n");
  g_autofree char *differences = NULL;

  /* CRLF lines, numbers compared as JSON numbers */
  {
    const char *crlf = "---\r\nname: a\r\nn: 1\r\nf: 2.0\r\n---\r\nbody";

    parsed = mcp_skill_parse_frontmatter (crlf, strlen (crlf), &error);
  }
  g_assert_no_error (error);
  expected = json_from_string ("{\"name\": \"a\", \"n\": 1.0, \"f\": 2}", NULL);
  g_assert_null (mcp_skill_compare_frontmatter (json_node_get_object (expected), parsed));
  g_clear_pointer (&expected, json_node_unref);
  expected = json_from_string ("{\"name\": \"a\", \"n\": \"1\", \"f\": 2}", NULL);
  differences = mcp_skill_compare_frontmatter (json_node_get_object (expected), parsed);
  g_assert_nonnull (strstr (differences, "field “n” differs"));
  g_clear_pointer (&parsed, json_object_unref);

  parsed = mcp_skill_parse_frontmatter ("# no frontmatter\n", 17, &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "does not begin with YAML frontmatter"));
  g_clear_error (&error);

  parsed = mcp_skill_parse_frontmatter ("---\nname: a\n", 12, &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "no closing"));
  g_clear_error (&error);

  parsed = mcp_skill_parse_frontmatter ("---\n- a\n- b\n---\n", 16, &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "not a mapping"));
  g_clear_error (&error);

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (deep, "%*sk%u:\n", i * 2, "", i);
  g_string_append_printf (deep, "%*sleaf: 1\n---\n", 40, "");
  parsed = mcp_skill_parse_frontmatter (deep->str, deep->len, &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "16 levels"));
  g_clear_error (&error);

  while (long_text->len < MCP_SKILL_MAX_FRONTMATTER_SIZE + 100)
    g_string_append (long_text, "# a comment line to make the frontmatter long\n");
  g_string_append (long_text, "name: a\n---\n");
  parsed = mcp_skill_parse_frontmatter (long_text->str, long_text->len, &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "64 KiB"));
  g_clear_error (&error);

  /* An alias bomb is refused by the YAML reader, not expanded. */
  parsed = mcp_skill_parse_frontmatter ("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
                                        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                                        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                                        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n---\n",
                                        -1 + sizeof ("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
                                        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                                        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                                        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n---\n"), &error);
  g_assert_null (parsed);
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_true (mcp_skill_digest_is_valid ("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
  g_assert_false (mcp_skill_digest_is_valid ("sha256:0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"));
  g_assert_false (mcp_skill_digest_is_valid ("sha256:0123"));
  g_assert_false (mcp_skill_digest_is_valid ("md5:0123456789abcdef0123456789abcdef"));
}

/* Entries that are not acceptable. */
static void
test_entries (void)
{
  static const char * const bad[] = {
    "{\"uri\": \"skill://a/README.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": \"dynamic\"}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"b\", \"description\": \"d\"}, \"resources\": \"dynamic\"}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\"}, \"resources\": \"dynamic\"}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": []}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": "
    "[{\"uri\": \"skill://a/SKILL.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": -1}]}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": "
    "[{\"uri\": \"skill://a/SKILL.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": 1},"
    " {\"uri\": \"skill://b/x.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": 1}]}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": "
    "[{\"uri\": \"skill://a/SKILL.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": 1},"
    " {\"uri\": \"skill://a/./x.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": 1}]}",
    "{\"uri\": \"skill://a/SKILL.md\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": "
    "[{\"uri\": \"skill://a/SKILL.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": 1},"
    " {\"uri\": \"skill://a/SKILL.md\", \"digest\": \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", \"size\": 1}]}",
    "{\"uri\": \"skill://a/SKILL.md\\u001b[2J\", \"frontmatter\": {\"name\": \"a\", \"description\": \"d\"}, \"resources\": \"dynamic\"}",
  };
  g_autoptr(JsonNode) dynamic = NULL;
  g_autoptr(McpSkill) skill = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (bad[i], &error);
      g_autoptr(McpSkill) refused = NULL;

      g_assert_no_error (error);
      refused = mcp_skill_new_from_json (json_node_get_object (node), &error);
      g_assert_null (refused);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_test_message ("entry %u: %s", i, error->message);
      g_clear_error (&error);
    }

  /* "dynamic": listed, never loaded */
  dynamic = json_from_string ("{\"uri\": \"skill://reports/daily/SKILL.md\", "
                              "\"frontmatter\": {\"name\": \"daily\", \"description\": \"d\"}, "
                              "\"resources\": \"dynamic\"}", NULL);
  skill = mcp_skill_new_from_json (json_node_get_object (dynamic), &error);
  g_assert_no_error (error);
  g_assert_true (mcp_skill_is_dynamic (skill));
  g_assert_false (mcp_skill_get_file_info (skill, "skill://reports/daily/SKILL.md", NULL, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/skills/list-and-load", test_list_and_load);
  g_test_add_data_func ("/skills/mismatch/digest", &mismatches[0], test_mismatch);
  g_test_add_data_func ("/skills/mismatch/size", &mismatches[1], test_mismatch);
  g_test_add_data_func ("/skills/mismatch/frontmatter-changed", &mismatches[2], test_mismatch);
  g_test_add_data_func ("/skills/mismatch/frontmatter-added", &mismatches[3], test_mismatch);
  g_test_add_data_func ("/skills/mismatch/frontmatter-removed", &mismatches[4], test_mismatch);
  g_test_add_data_func ("/skills/mismatch/bad-yaml", &mismatches[5], test_mismatch);
  g_test_add_func ("/skills/files", test_files);
  g_test_add_func ("/skills/paging", test_paging);
  g_test_add_func ("/skills/get-and-unsupported", test_get_and_unsupported);
  g_test_add_func ("/skills/frontmatter", test_frontmatter);
  g_test_add_func ("/skills/entries", test_entries);

  return g_test_run ();
}
