/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-doctor"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "mcp-doctor.h"
#include "mcp-json-private.h"
#include "mcp-oauth-fixture.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-util.h"

/* McpDoctor (issue 24): each check against a fixture that fails exactly
 * there — real processes, real loopback servers, a real TLS handshake. */

#define SECRET "sekrit-value-4711"

/* ------------------------------------------------------------------------ */
/* Running the doctor                                                       */

typedef struct
{
  TestOutcome  outcome;
  gboolean     saw_running;
} Run;

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     Run        *run)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(McpDoctorCheck) check = g_list_model_get_item (model, i);

      if (mcp_doctor_check_get_status (check) == MCP_DOCTOR_STATUS_RUNNING)
        run->saw_running = TRUE;
    }
}

/* The doctor of @json (the server's entry) run to its end, with @environ
 * (NULL: the process's) and a short timeout. */
static McpDoctor *
run_doctor (const char         *json,
            const char * const *environ,
            guint               timeout_ms)
{
  g_autoptr(McpServerConfig) config = test_config_from_json ("doc", json);
  McpDoctor *doctor = mcp_doctor_new (config, environ);
  Run run = { 0 };
  gulong id;

  mcp_doctor_set_timeout (doctor, timeout_ms);
  id = g_signal_connect (mcp_doctor_get_checks (doctor), "items-changed",
                         G_CALLBACK (on_items_changed_cb), &run);
  mcp_doctor_run_async (doctor, NULL, test_outcome_cb,
                        test_outcome_for (&run.outcome, mcp_doctor_run_finish));
  test_iterate_until (test_outcome_done, &run.outcome, "the doctor");
  g_signal_handler_disconnect (mcp_doctor_get_checks (doctor), id);
  g_assert_no_error (run.outcome.error);
  g_assert_true (run.outcome.ok);
  g_assert_false (mcp_doctor_get_running (doctor));
  /* The model fills in live: each check is shown running first (but for
   * settings that do not even expand). */
  if (g_list_model_get_n_items (mcp_doctor_get_checks (doctor)) > 1)
    g_assert_true (run.saw_running);

  return doctor;
}

static McpDoctorCheck *
get_check (McpDoctor  *doctor,
           const char *id)
{
  GListModel *checks = mcp_doctor_get_checks (doctor);

  for (guint i = 0; i < g_list_model_get_n_items (checks); i++)
    {
      g_autoptr(McpDoctorCheck) check = g_list_model_get_item (checks, i);

      if (g_str_equal (mcp_doctor_check_get_id (check), id))
        return check;
    }

  g_error ("no check “%s”", id);
  return NULL;
}

/* Check @id has @status, its seen text holds @seen (NULL: anything) and
 * nothing shown holds the secret. */
static void
assert_check (McpDoctor       *doctor,
              const char      *id,
              McpDoctorStatus  status,
              const char      *seen)
{
  McpDoctorCheck *check = get_check (doctor, id);
  const char *text = mcp_doctor_check_get_seen (check);

  if (mcp_doctor_check_get_status (check) != status)
    g_error ("check “%s”: status %s, expected %s; seen: %s; fix: %s", id,
             mcp_doctor_status_to_string (mcp_doctor_check_get_status (check)),
             mcp_doctor_status_to_string (status), text,
             mcp_doctor_check_get_fix (check));
  if (seen != NULL && (text == NULL || strstr (text, seen) == NULL))
    g_error ("check “%s”: seen “%s” lacks “%s”", id, text, seen);
  if (status == MCP_DOCTOR_STATUS_FAIL)
    g_assert_nonnull (mcp_doctor_check_get_fix (check));
  g_assert_null (strstr (text != NULL ? text : "", SECRET));
  g_assert_null (strstr (mcp_doctor_check_get_fix (check) != NULL ? mcp_doctor_check_get_fix (check) : "",
                         SECRET));
}

/* Every check after @id was skipped (except "sign-in", which decides for
 * itself). */
static void
assert_skipped_after (McpDoctor  *doctor,
                      const char *id)
{
  GListModel *checks = mcp_doctor_get_checks (doctor);
  gboolean after = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (checks); i++)
    {
      g_autoptr(McpDoctorCheck) check = g_list_model_get_item (checks, i);

      if (after && !g_str_equal (mcp_doctor_check_get_id (check), "sign-in"))
        g_assert_cmpint (mcp_doctor_check_get_status (check), ==, MCP_DOCTOR_STATUS_SKIPPED);
      if (g_str_equal (mcp_doctor_check_get_id (check), id))
        after = TRUE;
    }
  g_assert_true (after);
}

static char *
write_script (const char *dir,
              const char *name,
              const char *text,
              int         mode)
{
  char *path = g_build_filename (dir, name, NULL);

  test_write_file (path, text);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
  return path;
}

static char *
command_json (const char *command,
              const char *extra)
{
  g_autoptr(GString) json = g_string_new ("{\"command\":");

  mcp_json_append_string (json, command);
  g_string_append_printf (json, "%s}", extra != NULL ? extra : "");
  return g_string_free (g_steal_pointer (&json), FALSE);
}

/* ------------------------------------------------------------------------ */
/* stdio                                                                    */

static void
test_missing_command (void)
{
  const char *environ[] = { "PATH=/usr/bin:/bin", NULL };
  g_autoptr(McpDoctor) doctor = NULL;
  McpDoctorCheck *check;

  doctor = run_doctor ("{\"command\": \"plugboard-no-such-command\"}", environ, 3000);
  assert_check (doctor, "command", MCP_DOCTOR_STATUS_FAIL, "No “plugboard-no-such-command” in PATH (/usr/bin:/bin)");
  assert_skipped_after (doctor, "command");
  check = get_check (doctor, "starts");
  g_assert_nonnull (strstr (mcp_doctor_check_get_seen (check), "Command found"));
  g_assert_true (mcp_doctor_has_failure (doctor));
}

static void
test_login_shell_only (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *bin = NULL;
  g_autofree char *server = NULL;
  g_autofree char *shell = NULL;
  g_autofree char *shell_text = NULL;
  g_autofree char *shell_env = NULL;
  g_autoptr(McpDoctor) doctor = NULL;
  McpDoctorCheck *check;

  test_dirs_init (&dirs, "doctor");
  bin = g_build_filename (dirs.root, "nvm", "bin", NULL);
  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  server = write_script (bin, "doctor-npx", "#!/bin/sh\nexit 0\n", 0755);
  /* A profile that talks, then what `command -v` answers. */
  shell_text = g_strdup_printf ("#!/bin/sh\necho 'Welcome back'\necho '%s'\n", server);
  shell = write_script (dirs.root, "fake-shell", shell_text, 0755);
  shell_env = g_strconcat ("SHELL=", shell, NULL);

  {
    const char *environ[] = { "PATH=/usr/bin:/bin", shell_env, NULL };

    doctor = run_doctor ("{\"command\": \"doctor-npx\"}", environ, 3000);
  }
  assert_check (doctor, "command", MCP_DOCTOR_STATUS_FAIL, "found by your login shell in");
  check = get_check (doctor, "command");
  g_assert_nonnull (strstr (mcp_doctor_check_get_seen (check), bin));
  g_assert_nonnull (strstr (mcp_doctor_check_get_seen (check), "not in Plugboard's PATH (/usr/bin:/bin)"));
  g_assert_nonnull (strstr (mcp_doctor_check_get_fix (check), server));
  assert_skipped_after (doctor, "command");
}

/* A login shell that never returns (a profile waiting for input) is
 * bounded, killed with what it started, and the check says not found. */
static void
test_login_shell_hangs (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *shell = NULL;
  g_autofree char *shell_env = NULL;
  g_autoptr(McpDoctor) doctor = NULL;
  gint64 start;

  test_dirs_init (&dirs, "doctor");
  shell = write_script (dirs.root, "slow-shell", "#!/bin/sh\nsleep 60 &\nexec sleep 60\n", 0755);
  shell_env = g_strconcat ("SHELL=", shell, NULL);

  {
    const char *environ[] = { "PATH=/usr/bin:/bin", shell_env, NULL };

    start = g_get_monotonic_time ();
    doctor = run_doctor ("{\"command\": \"doctor-npx\"}", environ, 1500);
  }
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  assert_check (doctor, "command", MCP_DOCTOR_STATUS_FAIL, "nor in your login shell's PATH");
}

static void
test_not_executable (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  test_dirs_init (&dirs, "doctor");
  path = write_script (dirs.root, "server.js", "console.log('hi')\n", 0644);
  json = command_json (path, NULL);
  doctor = run_doctor (json, NULL, 3000);
  assert_check (doctor, "command", MCP_DOCTOR_STATUS_PASS, path);
  assert_check (doctor, "executable", MCP_DOCTOR_STATUS_FAIL, "is not executable (mode 644)");
  g_assert_nonnull (strstr (mcp_doctor_check_get_fix (get_check (doctor, "executable")), "chmod +x"));
  assert_skipped_after (doctor, "executable");
}

static void
test_folder (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  test_dirs_init (&dirs, "doctor");
  json = command_json (dirs.project_dir, NULL);
  doctor = run_doctor (json, NULL, 3000);
  assert_check (doctor, "executable", MCP_DOCTOR_STATUS_FAIL, "is a folder");
}

static void
test_missing_interpreter (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  test_dirs_init (&dirs, "doctor");
  path = write_script (dirs.root, "server", "#!/opt/nowhere/bin/node\nconsole.log(1)\n", 0755);
  json = command_json (path, NULL);
  doctor = run_doctor (json, NULL, 3000);
  assert_check (doctor, "executable", MCP_DOCTOR_STATUS_FAIL, "“/opt/nowhere/bin/node”");
  assert_skipped_after (doctor, "executable");
}

static void
test_interpreter_version (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  if (g_find_program_in_path ("python3") == NULL)
    {
      g_test_skip ("no python3");
      return;
    }

  /* A script for python3 through env: the interpreter found, its version
   * shown; the script itself exits at once. */
  test_dirs_init (&dirs, "doctor");
  path = write_script (dirs.root, "server.py", "#!/usr/bin/env python3\nimport sys\nsys.exit(2)\n", 0755);
  json = command_json (path, NULL);
  doctor = run_doctor (json, NULL, 3000);
  assert_check (doctor, "interpreter", MCP_DOCTOR_STATUS_PASS, "python3 Python 3.");
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_FAIL, "status 2");
}

static void
test_exits_at_once (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  test_dirs_init (&dirs, "doctor");
  /* It even prints its secret: the doctor masks it. */
  path = write_script (dirs.root, "server",
                       "#!/bin/sh\necho \"using key $API_KEY\" >&2\n"
                       "echo 'Error: missing config file' >&2\nexit 3\n", 0755);
  json = command_json (path, ",\"env\": {\"API_KEY\": \"" SECRET "\"}");
  doctor = run_doctor (json, NULL, 5000);
  assert_check (doctor, "command", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "executable", MCP_DOCTOR_STATUS_PASS, "mode 755");
  assert_check (doctor, "interpreter", MCP_DOCTOR_STATUS_SKIPPED, NULL);
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_FAIL, "exited at once with status 3");
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_FAIL, "Error: missing config file");
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_FAIL, "using key ***");
  assert_skipped_after (doctor, "starts");
}

static void
test_garbage_only (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  test_dirs_init (&dirs, "doctor");
  path = write_script (dirs.root, "server",
                       "#!/bin/sh\nprintf 'Server listening on port 3000 \\033[31mready\\n'\nexec sleep 30\n",
                       0755);
  json = command_json (path, NULL);
  doctor = run_doctor (json, NULL, 1500);
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_PASS, NULL);
  /* Shown escaped: no terminal escape reaches the person. */
  assert_check (doctor, "stdout", MCP_DOCTOR_STATUS_FAIL, "“Server listening on port 3000 \\u001b[31mready”");
  assert_skipped_after (doctor, "stdout");
}

static void
test_garbage_then_works (void)
{
  g_autoptr(McpDoctor) doctor = NULL;
  g_autoptr(McpServerConfig) config = test_fixture_config ("doc", "\"--garbage-at-start\"");
  g_autoptr(GString) json = g_string_new ("{\"command\":");

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append (json, ",\"args\": [\"--garbage-at-start\"]}");
  doctor = run_doctor (json->str, NULL, 10000);
  assert_check (doctor, "stdout", MCP_DOCTOR_STATUS_WARN, "not JSON-RPC");
  assert_check (doctor, "initialize", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "version", MCP_DOCTOR_STATUS_PASS, NULL);
  g_assert_false (mcp_doctor_has_failure (doctor));
}

static void
test_never_answers (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  test_dirs_init (&dirs, "doctor");
  path = write_script (dirs.root, "server", "#!/bin/sh\necho 'waiting for a sign-in' >&2\nexec sleep 30\n", 0755);
  json = command_json (path, NULL);
  doctor = run_doctor (json, NULL, 1500);
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "stdout", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "initialize", MCP_DOCTOR_STATUS_FAIL, "never answered initialize in 2 s");
  assert_check (doctor, "initialize", MCP_DOCTOR_STATUS_FAIL, "waiting for a sign-in");
  assert_skipped_after (doctor, "initialize");
}

static void
test_wrong_version (void)
{
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(McpDoctor) doctor = NULL;

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append (json, ",\"args\": [\"--protocol-version\", \"1999-01-01\"]}");
  doctor = run_doctor (json->str, NULL, 10000);
  assert_check (doctor, "initialize", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "version", MCP_DOCTOR_STATUS_FAIL, "“1999-01-01”");
  assert_check (doctor, "version", MCP_DOCTOR_STATUS_FAIL, "2025-11-25");
}

static void
test_good_stdio (void)
{
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(McpDoctor) doctor = NULL;
  g_autofree char *report = NULL;

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append (json, ",\"env\": {\"TOKEN\": \"" SECRET "\"}}");
  doctor = run_doctor (json->str, NULL, 10000);
  assert_check (doctor, "command", MCP_DOCTOR_STATUS_PASS, test_fixture_server ());
  assert_check (doctor, "executable", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "starts", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "stdout", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "initialize", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "version", MCP_DOCTOR_STATUS_PASS, "2025-11-25 (the handshake era");
  g_assert_false (mcp_doctor_has_failure (doctor));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_doctor_get_checks (doctor)), ==, 7);

  report = mcp_doctor_dup_report (doctor);
  g_assert_true (g_str_has_prefix (report, "Diagnosis of “doc”\n[pass] Command found\n"));
  g_assert_null (strstr (report, SECRET));
}

/* A server of the stateless revision: the era probe finds it without an
 * initialize, and the check says which era. */
static void
test_modern_stdio (void)
{
  const char *modern = g_getenv ("MCP_TEST_MODERN_FIXTURE");
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(McpDoctor) doctor = NULL;

  if (!test_have_program (modern, "MCP_TEST_MODERN_FIXTURE"))
    return;

  mcp_json_append_string (json, modern);
  g_string_append (json, ",\"args\": [\"--stdio\"]}");
  doctor = run_doctor (json->str, NULL, 10000);
  assert_check (doctor, "initialize", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "version", MCP_DOCTOR_STATUS_PASS, "2026-07-28 (the stateless era)");
  g_assert_false (mcp_doctor_has_failure (doctor));
}

static void
test_unset_variable (void)
{
  const char *environ[] = { "PATH=/usr/bin:/bin", NULL };
  g_autoptr(McpDoctor) doctor = NULL;

  doctor = run_doctor ("{\"command\": \"${DOCTOR_NO_SUCH_VAR}/server\"}", environ, 3000);
  assert_check (doctor, "settings", MCP_DOCTOR_STATUS_FAIL, "DOCTOR_NO_SUCH_VAR");
  g_assert_cmpuint (g_list_model_get_n_items (mcp_doctor_get_checks (doctor)), ==, 1);
}

static void
test_cancel (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpDoctor) doctor = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  TestOutcome outcome = { 0 };

  test_dirs_init (&dirs, "doctor");
  path = write_script (dirs.root, "server", "#!/bin/sh\nexec sleep 30\n", 0755);
  json = command_json (path, NULL);
  config = test_config_from_json ("doc", json);
  doctor = mcp_doctor_new (config, NULL);
  mcp_doctor_set_timeout (doctor, 20000);
  mcp_doctor_run_async (doctor, cancellable, test_outcome_cb,
                        test_outcome_for (&outcome, mcp_doctor_run_finish));
  test_wait_ms (300);
  g_cancellable_cancel (cancellable);
  test_iterate_until (test_outcome_done, &outcome, "the cancelled doctor");
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&outcome.error);
  g_assert_false (mcp_doctor_get_running (doctor));
}

/* ------------------------------------------------------------------------ */
/* Remote                                                                   */

static char *
url_json (const char *type,
          const char *url)
{
  return g_strdup_printf ("{\"type\": \"%s\", \"url\": \"%s\", \"headers\": {\"X-Api-Key\": \"" SECRET "\"}}",
                          type, url);
}

static void
test_http_refused (void)
{
  guint16 port = test_pick_port ();
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_autofree char *json = url_json ("http", url);
  g_autoptr(McpDoctor) doctor = NULL;

  doctor = run_doctor (json, NULL, 3000);
  assert_check (doctor, "url", MCP_DOCTOR_STATUS_PASS, url);
  assert_check (doctor, "resolve", MCP_DOCTOR_STATUS_PASS, "127.0.0.1");
  assert_check (doctor, "tcp", MCP_DOCTOR_STATUS_FAIL, "Connection refused");
  assert_skipped_after (doctor, "tcp");
  assert_check (doctor, "sign-in", MCP_DOCTOR_STATUS_SKIPPED, NULL);
}

static void
test_url_secrets (void)
{
  g_autoptr(McpDoctor) doctor = NULL;
  guint16 port = test_pick_port ();
  g_autofree char *json = NULL;

  json = g_strdup_printf ("{\"type\": \"http\", \"url\": \"http://127.0.0.1:%u/mcp?key=" SECRET "\"}", port);
  doctor = run_doctor (json, NULL, 3000);
  assert_check (doctor, "url", MCP_DOCTOR_STATUS_PASS, "key=***");
  assert_check (doctor, "tcp", MCP_DOCTOR_STATUS_FAIL, NULL);
}

static void
test_bad_url (void)
{
  g_autoptr(McpDoctor) doctor = NULL;

  doctor = run_doctor ("{\"type\": \"http\", \"url\": \"ftp://127.0.0.1/mcp\"}", NULL, 3000);
  assert_check (doctor, "url", MCP_DOCTOR_STATUS_FAIL, "“ftp”");
  assert_skipped_after (doctor, "url");
}

/* A SoupServer on 127.0.0.1 with @handler; its URL. */
static char *
start_soup (SoupServer         *server,
            SoupServerListenOptions options)
{
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;
  g_autofree char *port = NULL;

  soup_server_listen_local (server, 0, options | SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  return g_strdup_printf ("%s://127.0.0.1:%d/mcp",
                          (options & SOUP_SERVER_LISTEN_HTTPS) ? "https" : "http",
                          g_uri_get_port (uris->data));
}

static void
on_never_cb (SoupServer        *server,
             SoupServerMessage *message,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  soup_server_message_set_status (message, SOUP_STATUS_INTERNAL_SERVER_ERROR, NULL);
}

static void
test_bad_certificate (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *cert = NULL;
  g_autofree char *key = NULL;
  g_autofree char *url = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(McpDoctor) doctor = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *openssl = g_find_program_in_path ("openssl");
  int status = -1;

  if (openssl == NULL)
    {
      g_test_skip ("openssl is not installed");
      return;
    }

  test_dirs_init (&dirs, "doctor");
  cert = g_build_filename (dirs.root, "cert.pem", NULL);
  key = g_build_filename (dirs.root, "key.pem", NULL);
  {
    const char *argv[] = { openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                           "-keyout", key, "-out", cert, "-days", "2",
                           "-subj", "/CN=doctor.example", NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                  NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
  }
  certificate = g_tls_certificate_new_from_files (cert, key, &error);
  g_assert_no_error (error);

  server = soup_server_new ("tls-certificate", certificate, NULL);
  soup_server_add_handler (server, NULL, on_never_cb, NULL, NULL);
  url = start_soup (server, SOUP_SERVER_LISTEN_HTTPS);
  json = url_json ("http", url);

  doctor = run_doctor (json, NULL, 5000);
  assert_check (doctor, "tcp", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "tls", MCP_DOCTOR_STATUS_FAIL, "not signed by an authority this computer trusts");
  assert_check (doctor, "tls", MCP_DOCTOR_STATUS_FAIL, "doctor.example");
  assert_skipped_after (doctor, "tls");
}

static void
on_unauthorized_cb (SoupServer        *server,
                    SoupServerMessage *message,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  if (g_str_equal (path, "/mcp"))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "WWW-Authenticate", "Bearer realm=\"doctor\"");
      soup_server_message_set_status (message, SOUP_STATUS_UNAUTHORIZED, NULL);
      return;
    }
  soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
}

static void
test_unauthorized_without_metadata (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autofree char *url = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;
  McpDoctorCheck *check;

  soup_server_add_handler (server, NULL, on_unauthorized_cb, NULL, NULL);
  url = start_soup (server, 0);
  json = url_json ("http", url);

  doctor = run_doctor (json, NULL, 5000);
  assert_check (doctor, "tcp", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "tls", MCP_DOCTOR_STATUS_SKIPPED, NULL);
  assert_check (doctor, "http", MCP_DOCTOR_STATUS_WARN, "HTTP 401");
  assert_check (doctor, "session", MCP_DOCTOR_STATUS_SKIPPED, "asks for sign-in first");
  assert_check (doctor, "era", MCP_DOCTOR_STATUS_SKIPPED, NULL);
  assert_check (doctor, "sign-in", MCP_DOCTOR_STATUS_FAIL, "without resource_metadata");
  assert_check (doctor, "sign-in", MCP_DOCTOR_STATUS_FAIL, "publishes no OAuth metadata");
  check = get_check (doctor, "sign-in");
  g_assert_nonnull (strstr (mcp_doctor_check_get_fix (check), "Authorization: Bearer"));
  g_assert_true (mcp_doctor_has_failure (doctor));
}

/* A server that asks for sign-in and publishes its metadata: found, and
 * the fix is to sign in. */
static void
test_unauthorized_with_metadata (void)
{
  g_autoptr(McpOAuthFixture) fixture = mcp_oauth_fixture_new (MCP_OAUTH_FIXTURE_NONE, NULL);
  g_autofree char *json = url_json ("http", mcp_oauth_fixture_get_mcp_url (fixture));
  g_autoptr(McpDoctor) doctor = NULL;
  McpDoctorCheck *check;

  doctor = run_doctor (json, NULL, 5000);
  assert_check (doctor, "http", MCP_DOCTOR_STATUS_WARN, "HTTP 401");
  assert_check (doctor, "era", MCP_DOCTOR_STATUS_SKIPPED, NULL);
  assert_check (doctor, "sign-in", MCP_DOCTOR_STATUS_WARN, "resource_metadata=");
  assert_check (doctor, "sign-in", MCP_DOCTOR_STATUS_WARN, mcp_oauth_fixture_get_issuer (fixture));
  check = get_check (doctor, "sign-in");
  g_assert_nonnull (strstr (mcp_doctor_check_get_fix (check), "plugboard-cli login"));
  g_assert_false (mcp_doctor_has_failure (doctor));
}

typedef struct
{
  GSubprocess *process;
  char        *url;
} HttpFixture;

static void
http_fixture_start (HttpFixture *fx,
                    const char  *extra)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "fixtures", "mcp-http-fixture-server", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  if (extra != NULL)
    fx->process = g_subprocess_launcher_spawn (launcher, &error, path, "--port", "0",
                                               "--legacy-sse", extra, NULL);
  else
    fx->process = g_subprocess_launcher_spawn (launcher, &error, path, "--port", "0", NULL);
  g_assert_no_error (error);
  fx->url = g_strdup_printf ("http://127.0.0.1:%d/mcp", test_read_listening_port (fx->process));
}

static void
http_fixture_stop (HttpFixture *fx)
{
  g_subprocess_force_exit (fx->process);
  g_subprocess_wait (fx->process, NULL, NULL);
  g_clear_object (&fx->process);
  g_clear_pointer (&fx->url, g_free);
}

static void
test_good_http (void)
{
  HttpFixture fx = { 0 };
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  http_fixture_start (&fx, NULL);
  json = url_json ("http", fx.url);
  doctor = run_doctor (json, NULL, 10000);
  assert_check (doctor, "url", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "resolve", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "tcp", MCP_DOCTOR_STATUS_PASS, NULL);
  assert_check (doctor, "tls", MCP_DOCTOR_STATUS_SKIPPED, NULL);
  assert_check (doctor, "http", MCP_DOCTOR_STATUS_PASS, "HTTP 200");
  assert_check (doctor, "session", MCP_DOCTOR_STATUS_PASS, "Mcp-Session-Id");
  assert_check (doctor, "stream", MCP_DOCTOR_STATUS_PASS, "HTTP 200");
  assert_check (doctor, "era", MCP_DOCTOR_STATUS_PASS, "(the handshake era");
  assert_check (doctor, "sign-in", MCP_DOCTOR_STATUS_SKIPPED, "did not ask");
  g_assert_false (mcp_doctor_has_failure (doctor));
  http_fixture_stop (&fx);
}

static void
test_legacy_sse (void)
{
  HttpFixture fx = { 0 };
  g_autofree char *json = NULL;
  g_autoptr(McpDoctor) doctor = NULL;

  http_fixture_start (&fx, "405");
  json = url_json ("http", fx.url);
  doctor = run_doctor (json, NULL, 10000);
  assert_check (doctor, "http", MCP_DOCTOR_STATUS_WARN, "legacy HTTP+SSE");
  assert_check (doctor, "session", MCP_DOCTOR_STATUS_SKIPPED, NULL);
  assert_check (doctor, "stream", MCP_DOCTOR_STATUS_PASS, "legacy HTTP+SSE event stream");
  assert_check (doctor, "era", MCP_DOCTOR_STATUS_PASS, "Over the legacy HTTP+SSE transport");
  g_assert_false (mcp_doctor_has_failure (doctor));
  g_clear_object (&doctor);
  g_free (json);

  /* Set as "type": "sse": no POST first, the stream and the probe pass. */
  json = url_json ("sse", fx.url);
  doctor = run_doctor (json, NULL, 10000);
  assert_check (doctor, "http", MCP_DOCTOR_STATUS_SKIPPED, "legacy HTTP+SSE");
  assert_check (doctor, "stream", MCP_DOCTOR_STATUS_PASS, "legacy HTTP+SSE event stream");
  assert_check (doctor, "era", MCP_DOCTOR_STATUS_PASS, "Over the legacy HTTP+SSE transport");
  g_assert_false (mcp_doctor_has_failure (doctor));
  http_fixture_stop (&fx);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/doctor/stdio/missing-command", test_missing_command);
  g_test_add_func ("/doctor/stdio/login-shell-only", test_login_shell_only);
  g_test_add_func ("/doctor/stdio/login-shell-hangs", test_login_shell_hangs);
  g_test_add_func ("/doctor/stdio/not-executable", test_not_executable);
  g_test_add_func ("/doctor/stdio/folder", test_folder);
  g_test_add_func ("/doctor/stdio/missing-interpreter", test_missing_interpreter);
  g_test_add_func ("/doctor/stdio/interpreter-version", test_interpreter_version);
  g_test_add_func ("/doctor/stdio/exits-at-once", test_exits_at_once);
  g_test_add_func ("/doctor/stdio/garbage-only", test_garbage_only);
  g_test_add_func ("/doctor/stdio/garbage-then-works", test_garbage_then_works);
  g_test_add_func ("/doctor/stdio/never-answers", test_never_answers);
  g_test_add_func ("/doctor/stdio/wrong-version", test_wrong_version);
  g_test_add_func ("/doctor/stdio/good", test_good_stdio);
  g_test_add_func ("/doctor/stdio/modern", test_modern_stdio);
  g_test_add_func ("/doctor/stdio/unset-variable", test_unset_variable);
  g_test_add_func ("/doctor/stdio/cancel", test_cancel);
  g_test_add_func ("/doctor/http/refused", test_http_refused);
  g_test_add_func ("/doctor/http/url-secrets", test_url_secrets);
  g_test_add_func ("/doctor/http/bad-url", test_bad_url);
  g_test_add_func ("/doctor/http/bad-certificate", test_bad_certificate);
  g_test_add_func ("/doctor/http/unauthorized-without-metadata", test_unauthorized_without_metadata);
  g_test_add_func ("/doctor/http/unauthorized-with-metadata", test_unauthorized_with_metadata);
  g_test_add_func ("/doctor/http/good", test_good_http);
  g_test_add_func ("/doctor/http/legacy-sse", test_legacy_sse);

  return g_test_run ();
}
