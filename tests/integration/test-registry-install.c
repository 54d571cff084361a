/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-registry-install"

/* Installing from the registry (issue 26) end to end: mcp-registry-fixture
 * answers, the secret goes to the McpSecretStore (the keyring of
 * run-with-keyring.sh, or the file where there is none), the settings hold
 * "${secret:ID}", and the server connects with the value filled in:
 * server-everything over npx (from tests/node_modules, offline) and
 * mcp-http-fixture-server behind a header secret. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mcp-doctor.h"
#include "mcp-project.h"
#include "mcp-registry-install.h"
#include "mcp-secret-store.h"
#include "mcp-trace.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-util.h"

#define EVERYTHING_NAME "io.github.modelcontextprotocol/server-everything"
#define API_KEY "sk-install-secret-4f1e9"

typedef struct
{
  TestDirs     dirs;
  GSubprocess *registry_process;
  McpRegistry *registry;
  McpProject  *project;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *url = NULL;
  g_autofree char *cache = NULL;

  test_dirs_init (&f->dirs, "registry-install");
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  f->registry_process = g_subprocess_launcher_spawn (launcher, &error,
                                                     g_getenv ("MCP_TEST_REGISTRY_FIXTURE"),
                                                     "--data", g_getenv ("MCP_TEST_REGISTRY_DATA"), NULL);
  g_assert_no_error (error);
  url = test_read_listening (f->registry_process);
  cache = g_build_filename (f->dirs.root, "cache", NULL);
  f->registry = mcp_registry_new (url, cache);

  f->project = mcp_project_new (f->dirs.project_dir, f->dirs.user_dir);
  mcp_project_load_async (f->project, NULL, test_result_cb, &result);
  g_assert_true (mcp_project_load_finish (f->project, test_wait_result (&result, "the project to load"),
                                          &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  test_manager_close (mcp_project_get_manager (f->project));
  g_clear_object (&f->project);
  g_clear_object (&f->registry);
  g_subprocess_force_exit (f->registry_process);
  g_subprocess_wait (f->registry_process, NULL, NULL);
  g_clear_object (&f->registry_process);
  test_dirs_clear (&f->dirs);
}

static McpRegistryServer *
get_server (Fixture    *f,
            const char *name)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpRegistryServer *server;

  mcp_registry_get_async (f->registry, name, NULL, test_result_cb, &result);
  server = mcp_registry_get_finish (f->registry, test_wait_result (&result, "the registry"), &error);
  g_assert_no_error (error);
  return server;
}

static char *
install (Fixture            *f,
         McpRegistryServer  *server,
         guint               choice,
         GHashTable         *values,
         const char         *name,
         McpClientKind       target,
         GPtrArray         **notes,
         GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_registry_install_async (f->project, server,
                              g_ptr_array_index (mcp_registry_server_get_choices (server), choice),
                              values, name, target, MCP_CONFIG_SCOPE_USER, NULL, test_result_cb, &result);
  return mcp_registry_install_finish (test_wait_result (&result, "the install"), notes, error);
}

static char *
lookup_secret (const char *id)
{
  McpSecretStore *store = mcp_secret_store_get_default ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *value;

  mcp_secret_store_lookup_async (store, id, NULL, test_result_cb, &result);
  value = mcp_secret_store_lookup_finish (store, test_wait_result (&result, "the secret"), &error);
  g_assert_no_error (error);
  return value;
}

static gboolean
settled (gpointer data)
{
  McpServerConnection *connection = data;
  McpServerState state = mcp_server_connection_get_state (connection);

  return state == MCP_SERVER_STATE_CONNECTED || state == MCP_SERVER_STATE_FAILED;
}

static gboolean
has_connection (gpointer data)
{
  gpointer *args = data;

  return mcp_server_manager_lookup (args[0], args[1]) != NULL;
}

/* Waits until server @name connected or failed; returns it. */
static McpServerConnection *
wait_server (Fixture    *f,
             const char *name)
{
  McpServerManager *manager = mcp_project_get_manager (f->project);
  gpointer args[2] = { manager, (gpointer) name };
  McpServerConnection *connection;

  test_iterate_until (has_connection, args, name);
  connection = mcp_server_manager_lookup (manager, name);
  test_iterate_until (settled, connection, name);
  return connection;
}

/* The doctor on @name's settings: its report */
static char *
diagnose (Fixture    *f,
          const char *name,
          gboolean   *failed)
{
  McpServerConfig *config = mcp_settings_lookup (mcp_project_get_settings (f->project), name);
  g_autoptr(McpDoctor) doctor = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (config);
  doctor = mcp_doctor_new (config, NULL);
  mcp_doctor_set_timeout (doctor, 20000);
  mcp_doctor_run_async (doctor, NULL, test_result_cb, &result);
  g_assert_true (mcp_doctor_run_finish (doctor, test_wait_result (&result, "the doctor"), &error));
  g_assert_no_error (error);
  *failed = mcp_doctor_has_failure (doctor);
  return mcp_doctor_dup_report (doctor);
}

static char *
read_user_file (Fixture *f)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (f->dirs.user_file, &contents, NULL, NULL));
  return g_steal_pointer (&contents);
}

static void
test_npm_secret (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(McpRegistryServer) server = get_server (f, EVERYTHING_NAME);
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) notes = NULL;
  g_autoptr(McpToolResult) env = NULL;
  g_autoptr(GPtrArray) trace = NULL;
  gboolean seen_env = FALSE;
  g_autofree char *fallback = g_build_filename (g_get_user_data_dir (), "plugboard", "oauth-credentials.json", NULL);
  g_autofree char *name = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *secret = NULL;
  McpServerConnection *connection;

  g_hash_table_insert (values, (gpointer) "EVERYTHING_API_KEY", (gpointer) API_KEY);
  name = install (f, server, 0, values, NULL, MCP_CLIENT_KIND_PLUGBOARD, &notes, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "server-everything");
  g_assert_nonnull (notes);

  /* The file refers to the secret; the keyring (or its file) has it */
  contents = read_user_file (f);
  g_assert_nonnull (strstr (contents, "\"${secret:server-everything.EVERYTHING_API_KEY}\""));
  g_assert_nonnull (strstr (contents, "@modelcontextprotocol/server-everything@2026.8.31"));
  g_assert_null (strstr (contents, API_KEY));
  secret = lookup_secret ("server-everything.EVERYTHING_API_KEY");
  g_assert_cmpstr (secret, ==, API_KEY);
  /* In the keyring, the fallback file is not made; without one, it is */
  g_assert_true (g_file_test (fallback, G_FILE_TEST_EXISTS) ==
                 (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL));

  /* It connects at once, with the value in its environment */
  connection = wait_server (f, "server-everything");
  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_FAILED)
    g_error ("server-everything failed: %s", mcp_server_connection_get_error (connection)->message);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), >, 0);
  env = test_client_call_tool_json (mcp_server_connection_get_client (connection), "get-env", "{}",
                                    NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (test_result_first_text (env), API_KEY));

  /* The trace of that very answer shows it masked */
  trace = mcp_trace_dup_entries (mcp_server_connection_get_trace (connection));
  g_assert_cmpuint (trace->len, >, 0);
  for (guint i = 0; i < trace->len; i++)
    {
      const char *text = mcp_trace_entry_get_text (g_ptr_array_index (trace, i));

      g_assert_true (text == NULL || strstr (text, API_KEY) == NULL);
      seen_env |= text != NULL && strstr (text, "EVERYTHING_API_KEY") != NULL;
    }
  g_assert_true (seen_env);
}

static void
test_name_taken (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(McpRegistryServer) server = get_server (f, "io.github.modelcontextprotocol/time");
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  first = install (f, server, 0, NULL, "clock", MCP_CLIENT_KIND_PLUGBOARD, NULL, &error);
  g_assert_no_error (error);
  before = read_user_file (f);

  second = install (f, server, 0, NULL, "clock", MCP_CLIENT_KIND_PLUGBOARD, NULL, &error);
  g_assert_null (second);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“clock”"));
  after = read_user_file (f);
  g_assert_cmpstr (before, ==, after);
}

static void
test_missing_input (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(McpRegistryServer) server = get_server (f, "io.github.acme/database");
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *secret = NULL;

  /* The password is given, the database URL not: nothing is stored */
  g_hash_table_insert (values, (gpointer) "DB_PASSWORD", (gpointer) "hunter2-install");
  name = install (f, server, 0, values, NULL, MCP_CLIENT_KIND_PLUGBOARD, NULL, &error);
  g_assert_null (name);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“database_url”"));
  g_assert_null (strstr (error->message, "hunter2-install"));
  g_assert_false (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));
  secret = lookup_secret ("database.DB_PASSWORD");
  g_assert_null (secret);
}

static void
test_remote_header_secret (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GSubprocess) http = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpRegistryServer) server = NULL;
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autofree char *report = NULL;
  gboolean failed = FALSE;
  g_autofree char *fixture = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "fixtures",
                                               "mcp-http-fixture-server", NULL);
  g_autofree char *name = NULL;
  g_autofree char *contents = NULL;
  McpServerConnection *connection;
  guint16 port;

  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  http = g_subprocess_launcher_spawn (launcher, &error, fixture, "--port", "0",
                                      "--require-token", "tok-remote-77aa", NULL);
  g_assert_no_error (error);
  port = test_read_listening_port (http);

  /* A remote with a URL variable and a secret header */
  node = json_from_string ("{\"server\": {\"name\": \"io.example/remote-fixture\", \"version\": \"1.0.0\","
                           " \"remotes\": [{\"type\": \"streamable-http\", \"url\": \"http://127.0.0.1:{port}/mcp\","
                           " \"variables\": {\"port\": {\"isRequired\": true}},"
                           " \"headers\": [{\"name\": \"Authorization\", \"isRequired\": true, \"isSecret\": true}]}]}}",
                           &error);
  g_assert_no_error (error);
  server = mcp_registry_server_new_from_json (json_node_get_object (node), &error);
  g_assert_no_error (error);
  g_hash_table_insert (values, (gpointer) "port", g_strdup_printf ("%u", port));
  g_hash_table_insert (values, (gpointer) "Authorization", g_strdup ("Bearer tok-remote-77aa"));

  name = install (f, server, 0, values, NULL, MCP_CLIENT_KIND_PLUGBOARD, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "remote-fixture");
  contents = read_user_file (f);
  g_assert_nonnull (strstr (contents, "${secret:remote-fixture.Authorization}"));
  g_assert_null (strstr (contents, "tok-remote-77aa"));

  /* The fixture answers only with the token: the header was filled in */
  connection = wait_server (f, "remote-fixture");
  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_FAILED)
    g_error ("remote-fixture failed: %s", mcp_server_connection_get_error (connection)->message);

  /* The doctor fills the secret in as a connection does, and never shows it */
  report = diagnose (f, "remote-fixture", &failed);
  g_test_message ("%s", report);
  g_assert_false (failed);
  g_assert_null (strstr (report, "tok-remote-77aa"));

  g_subprocess_force_exit (http);
  g_subprocess_wait (http, NULL, NULL);
}

static void
test_secret_missing (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autoptr(JsonObject) env = json_object_new ();
  g_autoptr(JsonArray) args = json_array_new ();
  McpServerConnection *connection;
  const GError *failure;
  g_autofree char *report = NULL;
  gboolean failed = FALSE;

  /* Written by hand: a secret that is in no store */
  json_array_add_string_element (args, "-e");
  json_array_add_string_element (args, "setTimeout(() => {}, 60000)");
  json_object_set_string_member (entry, "command", "node");
  json_object_set_array_member (entry, "args", g_steal_pointer (&args));
  json_object_set_string_member (env, "TOKEN", "${secret:nowhere.TOKEN}");
  json_object_set_object_member (entry, "env", g_steal_pointer (&env));
  mcp_project_add_server_async (f->project, "lost", MCP_CONFIG_SCOPE_USER, entry, NULL, test_result_cb, &result);
  g_assert_true (mcp_project_add_server_finish (f->project, test_wait_result (&result, "add"), &error));
  g_assert_no_error (error);

  connection = wait_server (f, "lost");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_FAILED);
  failure = mcp_server_connection_get_error (connection);
  g_assert_nonnull (failure);
  g_test_message ("%s", failure->message);
  g_assert_nonnull (strstr (failure->message, "“lost”"));
  g_assert_nonnull (strstr (failure->message, "“nowhere.TOKEN”"));

  report = diagnose (f, "lost", &failed);
  g_assert_true (failed);
  g_assert_nonnull (strstr (report, "“nowhere.TOKEN”"));
}

static void
test_other_client (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(McpRegistryServer) server = get_server (f, "io.github.acme/database");
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) notes = NULL;
  g_autofree char *name = NULL;
  g_autofree char *cursor_file = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *secret = NULL;
  gboolean noted = FALSE;

  /* Only with a HOME of the test's own (run-with-keyring.sh) */
  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL)
    {
      g_test_skip ("needs the temporary HOME of run-with-keyring.sh");
      return;
    }

  g_hash_table_insert (values, (gpointer) "database_url", (gpointer) "postgres://db/x");
  g_hash_table_insert (values, (gpointer) "DB_PASSWORD", (gpointer) "pw-in-cursor-file");
  name = install (f, server, 0, values, "acme-db", MCP_CLIENT_KIND_CURSOR, &notes, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "acme-db");

  /* Cursor keeps the value in its own file, and the notes say so */
  cursor_file = g_build_filename (g_get_home_dir (), ".cursor", "mcp.json", NULL);
  g_assert_true (g_file_get_contents (cursor_file, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"acme-db\""));
  g_assert_nonnull (strstr (contents, "pw-in-cursor-file"));
  for (guint i = 0; i < notes->len; i++)
    noted |= strstr (g_ptr_array_index (notes, i), "DB_PASSWORD") != NULL;
  g_assert_true (noted);
  /* Nothing in Plugboard's store, nothing in Plugboard's file */
  secret = lookup_secret ("acme-db.DB_PASSWORD");
  g_assert_null (secret);
  g_assert_false (g_file_test (f->dirs.user_file, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  g_autofree char *srcdir = NULL;

  /* The secret store's file, where there is no keyring, is the test's own */
  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL)
    {
      data_home = g_dir_make_tmp ("plugboard-install-data-XXXXXX", NULL);
      g_setenv ("XDG_DATA_HOME", data_home, TRUE);
      /* and no Secret Service answers: the store falls back to its file */
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-test-bus", TRUE);
    }
  /* npx finds the package pinned in tests/package.json in tests/node_modules
   * when it runs in tests/, and never asks the network */
  srcdir = g_strdup (g_getenv ("G_TEST_SRCDIR"));
  if (srcdir != NULL)
    g_assert_cmpint (g_chdir (srcdir), ==, 0);
  g_setenv ("npm_config_offline", "true", TRUE);
  g_setenv ("npm_config_update_notifier", "false", TRUE);

  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (90);

  if (g_getenv ("MCP_TEST_REGISTRY_FIXTURE") == NULL)
    {
      g_test_message ("MCP_TEST_REGISTRY_FIXTURE is not set");
      return 77;
    }

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/registry-install/npm-secret", test_npm_secret);
  ADD ("/registry-install/name-taken", test_name_taken);
  ADD ("/registry-install/missing-input", test_missing_input);
  ADD ("/registry-install/remote-header-secret", test_remote_header_secret);
  ADD ("/registry-install/secret-missing", test_secret_missing);
  ADD ("/registry-install/other-client", test_other_client);
#undef ADD

  return g_test_run ();
}
