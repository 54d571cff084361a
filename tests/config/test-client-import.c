/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client-import"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "mcp-client-import.h"
#include "mcp-json-private.h"
#include "test-util.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static void
write_file (const char *dir,
            const char *relative,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, relative, NULL);

  test_write_file (path, contents);
}

typedef struct
{
  gboolean   done;
  GPtrArray *candidates;
  GPtrArray *problems;
  GError    *error;
} Scan;

static void
on_scanned_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Scan *scan = user_data;

  g_assert_null (object);
  scan->candidates = mcp_client_import_scan_finish (result, &scan->problems, &scan->error);
  scan->done = TRUE;
}

static void
scan_clear (Scan *scan)
{
  g_clear_pointer (&scan->candidates, g_ptr_array_unref);
  g_clear_pointer (&scan->problems, g_ptr_array_unref);
  g_clear_error (&scan->error);
}

static void
run_scan (const char   *home,
          const char   *project_dir,
          GCancellable *cancellable,
          Scan         *scan)
{
  memset (scan, 0, sizeof *scan);
  mcp_client_import_scan_async (home, project_dir, cancellable, on_scanned_cb, scan);
  test_iterate_until (test_flag_set, &scan->done, "the scan");
}

static McpImportCandidate *
candidate_at (Scan *scan,
              guint index)
{
  g_assert_cmpuint (index, <, scan->candidates->len);
  return g_ptr_array_index (scan->candidates, index);
}

static char *
entry_json (McpImportCandidate *candidate)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), candidate->entry);

  mcp_json_append (text, node);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The entry is what the engine takes. */
static McpServerConfig *
assert_valid (McpImportCandidate *candidate)
{
  g_autoptr(GError) error = NULL;
  McpServerConfig *config;

  config = mcp_server_config_new_from_json (candidate->name, candidate->scope, candidate->entry,
                                            candidate->file, "$.mcpServers", &error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static void
assert_candidate (McpImportCandidate *candidate,
                  const char         *client,
                  const char         *file,
                  const char         *name,
                  McpConfigScope      scope,
                  const char         *json)
{
  g_autofree char *text = entry_json (candidate);

  g_assert_cmpstr (candidate->client, ==, client);
  g_assert_cmpstr (candidate->file, ==, file);
  g_assert_cmpstr (candidate->name, ==, name);
  g_assert_cmpint (candidate->scope, ==, scope);
  g_assert_cmpstr (text, ==, json);
}

/* ------------------------------------------------------------------------ */
/* Samples, as the clients write them                                       */

static const char claude_desktop_config[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"filesystem\": {\n"
  "      \"command\": \"npx\",\n"
  "      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/home/me/Documents\"]\n"
  "    },\n"
  "    \"github\": {\n"
  "      \"command\": \"docker\",\n"
  "      \"args\": [\"run\", \"-i\", \"--rm\", \"-e\", \"GITHUB_PERSONAL_ACCESS_TOKEN\",\n"
  "               \"ghcr.io/github/github-mcp-server\"],\n"
  "      \"env\": {\n"
  "        \"GITHUB_PERSONAL_ACCESS_TOKEN\": \"ghp_example\"\n"
  "      }\n"
  "    }\n"
  "  },\n"
  "  \"globalShortcut\": \"\"\n"
  "}\n";

/* %s: the project directory */
static const char claude_code_json[] =
  "{\n"
  "  \"numStartups\": 42,\n"
  "  \"theme\": \"dark\",\n"
  "  \"mcpServers\": {\n"
  "    \"sentry\": { \"type\": \"http\", \"url\": \"https://mcp.sentry.dev/mcp\" }\n"
  "  },\n"
  "  \"projects\": {\n"
  "    \"/somewhere/else\": {\n"
  "      \"mcpServers\": { \"elsewhere\": { \"command\": \"elsewhere-mcp\" } }\n"
  "    },\n"
  "    \"%s\": {\n"
  "      \"allowedTools\": [],\n"
  "      \"history\": [],\n"
  "      \"mcpServers\": {\n"
  "        \"linear\": {\n"
  "          \"type\": \"http\",\n"
  "          \"url\": \"https://mcp.linear.app/mcp\",\n"
  "          \"headers\": { \"Authorization\": \"Bearer ${LINEAR_API_KEY}\" }\n"
  "        },\n"
  "        \"broken\": { \"command\": \"run-it\", \"args\": [\"--port\", 8080] }\n"
  "      },\n"
  "      \"hasTrustDialogAccepted\": true\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char vscode_mcp_json[] =
  "{\n"
  "  \"inputs\": [\n"
  "    {\n"
  "      \"type\": \"promptString\",\n"
  "      \"id\": \"token\",\n"
  "      \"description\": \"GitHub Personal Access Token\",\n"
  "      \"password\": true\n"
  "    }\n"
  "  ],\n"
  "  \"servers\": {\n"
  "    \"github\": {\n"
  "      \"type\": \"http\",\n"
  "      \"url\": \"https://api.githubcopilot.com/mcp/\",\n"
  "      \"headers\": { \"Authorization\": \"Bearer ${input:token}\" }\n"
  "    },\n"
  "    \"notes\": {\n"
  "      \"type\": \"stdio\",\n"
  "      \"command\": \"${env:HOME}/bin/notes-mcp\",\n"
  "      \"args\": [\"--root\", \"${workspaceFolder}/notes\"],\n"
  "      \"env\": { \"NOTES_USER\": \"${env:USER}\" },\n"
  "      \"envFile\": \"${workspaceFolder}/.env\"\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char vscode_settings_json[] =
  "{\n"
  "  // Editor\n"
  "  \"editor.fontSize\": 14,\n"
  "  /* MCP servers,\n"
  "     configured here */\n"
  "  \"mcp\": {\n"
  "    \"servers\": {\n"
  "      \"playwright\": {\n"
  "        \"command\": \"npx\",\n"
  "        \"args\": [\"@playwright/mcp@latest\", \"--url=http://localhost:3000//x\", \"/* kept */\",],  // trailing\n"
  "      },\n"
  "    },\n"
  "  },\n"
  "  \"files.exclude\": { \"**/.git\": true, \"a,}\": \"\\\"// not a comment\" },\n"
  "}\n";

static const char vscode_project_broken[] =
  "{\n"
  "  \"servers\": {\n"
  "    \"half\": { \"command\": \"half-written\"\n";

static const char cursor_mcp_json[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"context7\": { \"url\": \"https://mcp.context7.com/mcp\" },\n"
  "    \"events\": { \"url\": \"http://127.0.0.1:8931/sse\" }\n"
  "  }\n"
  "}\n";

static const char cursor_project_json[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"sqlite\": { \"command\": \"uvx\", \"args\": [\"mcp-server-sqlite\", \"--db-path\", \"db.sqlite\"] }\n"
  "  }\n"
  "}\n";

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

static void
test_all_clients (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("plugboard-import-XXXXXX", &error);
  g_autofree char *project = NULL;
  g_autofree char *claude_code = NULL;
  g_autofree char *desktop_file = NULL;
  g_autofree char *claude_file = NULL;
  g_autofree char *vscode_file = NULL;
  g_autofree char *settings_file = NULL;
  g_autofree char *broken_file = NULL;
  g_autofree char *cursor_file = NULL;
  g_autofree char *cursor_project_file = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  McpImportCandidate *candidate;
  const char *problem;
  Scan scan;

  g_assert_no_error (error);
  project = g_build_filename (home, "src", "my.project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);

  claude_code = g_strdup_printf (claude_code_json, project);
  write_file (home, ".config/Claude/claude_desktop_config.json", claude_desktop_config);
  write_file (home, ".claude.json", claude_code);
  write_file (home, ".config/Code/User/mcp.json", vscode_mcp_json);
  write_file (home, ".config/Code/User/settings.json", vscode_settings_json);
  write_file (project, ".vscode/mcp.json", vscode_project_broken);
  write_file (home, ".cursor/mcp.json", cursor_mcp_json);
  write_file (project, ".cursor/mcp.json", cursor_project_json);

  desktop_file = g_build_filename (home, ".config", "Claude", "claude_desktop_config.json", NULL);
  claude_file = g_build_filename (home, ".claude.json", NULL);
  vscode_file = g_build_filename (home, ".config", "Code", "User", "mcp.json", NULL);
  settings_file = g_build_filename (home, ".config", "Code", "User", "settings.json", NULL);
  broken_file = g_build_filename (project, ".vscode", "mcp.json", NULL);
  cursor_file = g_build_filename (home, ".cursor", "mcp.json", NULL);
  cursor_project_file = g_build_filename (project, ".cursor", "mcp.json", NULL);

  run_scan (home, project, NULL, &scan);
  g_assert_no_error (scan.error);
  g_assert_nonnull (scan.candidates);
  g_assert_nonnull (scan.problems);
  g_assert_cmpuint (scan.candidates->len, ==, 10);

  /* Claude Desktop: as written, env and all. */
  candidate = candidate_at (&scan, 0);
  assert_candidate (candidate, "Claude Desktop", desktop_file, "filesystem", MCP_CONFIG_SCOPE_USER,
                    "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\","
                    "\"/home/me/Documents\"]}");
  g_assert_null (candidate->note);
  candidate = candidate_at (&scan, 1);
  assert_candidate (candidate, "Claude Desktop", desktop_file, "github", MCP_CONFIG_SCOPE_USER,
                    "{\"command\":\"docker\",\"args\":[\"run\",\"-i\",\"--rm\",\"-e\","
                    "\"GITHUB_PERSONAL_ACCESS_TOKEN\",\"ghcr.io/github/github-mcp-server\"],"
                    "\"env\":{\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"ghp_example\"}}");
  g_assert_null (candidate->note);
  config = assert_valid (candidate);
  g_assert_cmpstrv (mcp_server_config_get_env (config),
                    ((const char *[]) { "GITHUB_PERSONAL_ACCESS_TOKEN=ghp_example", NULL }));
  g_clear_object (&config);

  /* Claude Code: the user's, then this project's (local); not another
   * project's. */
  candidate = candidate_at (&scan, 2);
  assert_candidate (candidate, "Claude Code", claude_file, "sentry", MCP_CONFIG_SCOPE_USER,
                    "{\"type\":\"http\",\"url\":\"https://mcp.sentry.dev/mcp\"}");
  candidate = candidate_at (&scan, 3);
  assert_candidate (candidate, "Claude Code", claude_file, "linear", MCP_CONFIG_SCOPE_LOCAL,
                    "{\"type\":\"http\",\"url\":\"https://mcp.linear.app/mcp\","
                    "\"headers\":{\"Authorization\":\"Bearer ${LINEAR_API_KEY}\"}}");
  config = assert_valid (candidate);
  g_assert_cmpint (mcp_server_config_get_transport (config), ==, MCP_TRANSPORT_KIND_HTTP);
  g_assert_cmpstrv (mcp_server_config_get_headers (config),
                    ((const char *[]) { "Authorization: Bearer ${LINEAR_API_KEY}", NULL }));
  g_clear_object (&config);

  /* VS Code: variables converted; ${input:…} kept and noted with its
   * prompt; envFile noted and left out. */
  candidate = candidate_at (&scan, 4);
  assert_candidate (candidate, "VS Code", vscode_file, "github", MCP_CONFIG_SCOPE_USER,
                    "{\"type\":\"http\",\"url\":\"https://api.githubcopilot.com/mcp/\","
                    "\"headers\":{\"Authorization\":\"Bearer ${input:token}\"}}");
  g_assert_nonnull (candidate->note);
  g_assert_nonnull (strstr (candidate->note, "${input:token}"));
  g_assert_nonnull (strstr (candidate->note, "GitHub Personal Access Token"));
  candidate = candidate_at (&scan, 5);
  expected = g_strdup_printf ("{\"type\":\"stdio\",\"command\":\"${HOME}/bin/notes-mcp\","
                              "\"args\":[\"--root\",\"%s/notes\"],"
                              "\"env\":{\"NOTES_USER\":\"${USER}\"}}", project);
  assert_candidate (candidate, "VS Code", vscode_file, "notes", MCP_CONFIG_SCOPE_USER, expected);
  g_assert_nonnull (candidate->note);
  g_assert_nonnull (strstr (candidate->note, "envFile"));
  g_assert_nonnull (strstr (candidate->note, "/.env"));
  g_assert_null (strstr (candidate->note, "${input:"));
  config = assert_valid (candidate);
  g_assert_cmpstr (mcp_server_config_get_command (config), ==, "${HOME}/bin/notes-mcp");
  g_clear_object (&config);

  /* settings.json: comments and trailing commas gone, strings untouched. */
  candidate = candidate_at (&scan, 6);
  assert_candidate (candidate, "VS Code", settings_file, "playwright", MCP_CONFIG_SCOPE_USER,
                    "{\"command\":\"npx\",\"args\":[\"@playwright/mcp@latest\","
                    "\"--url=http://localhost:3000//x\",\"/* kept */\"]}");
  g_assert_null (candidate->note);

  /* Cursor: a URL without a type is taken as http (sse for /sse), noted. */
  candidate = candidate_at (&scan, 7);
  assert_candidate (candidate, "Cursor", cursor_file, "context7", MCP_CONFIG_SCOPE_USER,
                    "{\"url\":\"https://mcp.context7.com/mcp\",\"type\":\"http\"}");
  g_assert_nonnull (candidate->note);
  g_assert_nonnull (strstr (candidate->note, "http"));
  config = assert_valid (candidate);
  g_assert_cmpint (mcp_server_config_get_transport (config), ==, MCP_TRANSPORT_KIND_HTTP);
  g_clear_object (&config);
  candidate = candidate_at (&scan, 8);
  assert_candidate (candidate, "Cursor", cursor_file, "events", MCP_CONFIG_SCOPE_USER,
                    "{\"url\":\"http://127.0.0.1:8931/sse\",\"type\":\"sse\"}");
  candidate = candidate_at (&scan, 9);
  assert_candidate (candidate, "Cursor", cursor_project_file, "sqlite", MCP_CONFIG_SCOPE_PROJECT,
                    "{\"command\":\"uvx\",\"args\":[\"mcp-server-sqlite\",\"--db-path\",\"db.sqlite\"]}");

  /* The entry that does not validate, with its file and JSON path; the
   * file that does not parse, by name; nothing else. */
  g_assert_cmpuint (scan.problems->len, ==, 2);
  problem = g_ptr_array_index (scan.problems, 0);
  g_assert_true (g_str_has_prefix (problem, claude_file));
  expected = (g_free (expected),
              g_strdup_printf ("$.projects[\"%s\"].mcpServers.broken.args[1]", project));
  g_assert_nonnull (strstr (problem, expected));
  g_assert_nonnull (strstr (problem, "expected a string"));
  problem = g_ptr_array_index (scan.problems, 1);
  g_assert_true (g_str_has_prefix (problem, broken_file));
  g_assert_nonnull (strstr (problem, "not valid JSON"));
  for (guint i = 0; i < scan.problems->len; i++)
    g_assert_null (strstr (g_ptr_array_index (scan.problems, i), "ghp_example"));

  scan_clear (&scan);

  /* Without a project: the user-level servers only; ${workspaceFolder}
   * stays, with a note. */
  run_scan (home, NULL, NULL, &scan);
  g_assert_no_error (scan.error);
  g_assert_cmpuint (scan.candidates->len, ==, 8);
  g_assert_cmpuint (scan.problems->len, ==, 0);
  candidate = candidate_at (&scan, 4);
  g_assert_cmpstr (candidate->name, ==, "notes");
  g_assert_nonnull (strstr (candidate->note, "${workspaceFolder}"));
  for (guint i = 0; i < scan.candidates->len; i++)
    g_assert_cmpint (candidate_at (&scan, i)->scope, ==, MCP_CONFIG_SCOPE_USER);
  scan_clear (&scan);

  test_remove_tree (home);
}

static void
test_nothing_installed (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("plugboard-import-XXXXXX", &error);
  g_autofree char *project = NULL;
  Scan scan;

  g_assert_no_error (error);
  project = g_build_filename (home, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  /* A client's directory without its file is not a problem either. */
  write_file (home, ".config/Code/User/keybindings.json", "[]");

  run_scan (home, project, NULL, &scan);
  g_assert_no_error (scan.error);
  g_assert_nonnull (scan.candidates);
  g_assert_nonnull (scan.problems);
  g_assert_cmpuint (scan.candidates->len, ==, 0);
  g_assert_cmpuint (scan.problems->len, ==, 0);
  scan_clear (&scan);

  test_remove_tree (home);
}

static void
test_one_client (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("plugboard-import-XXXXXX", &error);
  McpImportCandidate *candidate;
  Scan scan;

  g_assert_no_error (error);
  write_file (home, ".cursor/mcp.json", cursor_mcp_json);
  /* A file that is JSON but not an object, and one whose servers are not
   * an object: each a problem, the rest still read. */
  write_file (home, ".config/Claude/claude_desktop_config.json", "[]");
  write_file (home, ".claude.json", "{\"mcpServers\": [\"x\"]}");

  run_scan (home, NULL, NULL, &scan);
  g_assert_no_error (scan.error);
  g_assert_cmpuint (scan.candidates->len, ==, 2);
  candidate = candidate_at (&scan, 0);
  g_assert_cmpstr (candidate->client, ==, "Cursor");
  g_assert_cmpstr (candidate->name, ==, "context7");
  g_assert_cmpuint (scan.problems->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (scan.problems, 0), "claude_desktop_config.json: $: expected an object"));
  g_assert_nonnull (strstr (g_ptr_array_index (scan.problems, 1), ".claude.json: $.mcpServers: expected an object"));
  scan_clear (&scan);

  test_remove_tree (home);
}

/* What turns a server off in the other client stays so: Claude Desktop's
 * "disabled", and Claude Code's list of servers turned off in a project.
 * A FIFO where a settings file should be is a problem, not a hang. */
static void
test_disabled_kept (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("plugboard-import-XXXXXX", &error);
  g_autofree char *project = g_build_filename (home, "project", NULL);
  g_autofree char *claude_code = NULL;
  g_autofree char *key = NULL;
  g_autofree char *fifo = g_build_filename (home, ".cursor", "mcp.json", NULL);
  g_autoptr(McpServerConfig) desktop = NULL;
  g_autoptr(McpServerConfig) code_off = NULL;
  g_autoptr(McpServerConfig) code_on = NULL;
  GString *quoted = g_string_new (NULL);
  Scan scan;

  g_assert_no_error (error);
  mcp_json_append_string (quoted, project);
  key = g_string_free (quoted, FALSE);
  write_file (home, ".config/Claude/claude_desktop_config.json",
              "{\"mcpServers\": {\"off\": {\"command\": \"x\", \"disabled\": true}}}");
  claude_code = g_strdup_printf ("{\"mcpServers\": {\"quiet\": {\"command\": \"q\"}, \"loud\": {\"command\": \"l\"}},"
                                 " \"projects\": {%s: {\"disabledMcpServers\": [\"quiet\"]}}}", key);
  write_file (home, ".claude.json", claude_code);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  write_file (home, ".cursor/placeholder", "");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  run_scan (home, project, NULL, &scan);
  g_assert_no_error (scan.error);
  g_assert_cmpuint (scan.candidates->len, ==, 3);

  desktop = assert_valid (candidate_at (&scan, 0));
  g_assert_cmpstr (candidate_at (&scan, 0)->name, ==, "off");
  g_assert_false (mcp_server_config_get_enabled (desktop));
  g_assert_true (json_object_get_boolean_member (candidate_at (&scan, 0)->entry, "disabled"));

  code_off = assert_valid (candidate_at (&scan, 1));
  g_assert_cmpstr (candidate_at (&scan, 1)->name, ==, "quiet");
  g_assert_false (mcp_server_config_get_enabled (code_off));
  g_assert_nonnull (strstr (candidate_at (&scan, 1)->note, "Claude Code"));
  code_on = assert_valid (candidate_at (&scan, 2));
  g_assert_true (mcp_server_config_get_enabled (code_on));
  g_assert_null (candidate_at (&scan, 2)->note);

  g_assert_cmpuint (scan.problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (scan.problems, 0), fifo));
  g_assert_nonnull (strstr (g_ptr_array_index (scan.problems, 0), "named pipe"));
  scan_clear (&scan);

  test_remove_tree (home);
}

static void
test_cancelled (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("plugboard-import-XXXXXX", &error);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Scan scan;

  g_assert_no_error (error);
  write_file (home, ".cursor/mcp.json", cursor_mcp_json);
  g_cancellable_cancel (cancellable);

  run_scan (home, NULL, cancellable, &scan);
  g_assert_error (scan.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (scan.candidates);
  g_assert_null (scan.problems);
  scan_clear (&scan);

  test_remove_tree (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (30);

  g_test_add_func ("/config/import/all-clients", test_all_clients);
  g_test_add_func ("/config/import/nothing-installed", test_nothing_installed);
  g_test_add_func ("/config/import/one-client", test_one_client);
  g_test_add_func ("/config/import/disabled-kept", test_disabled_kept);
  g_test_add_func ("/config/import/cancelled", test_cancelled);

  return g_test_run ();
}
