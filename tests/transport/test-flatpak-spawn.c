/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-flatpak-spawn"

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "test-stdio-harness.h"
#include "test-util.h"

/*
 * Stdio servers inside the Flatpak sandbox run on the host through
 * `flatpak-spawn --host` and the user's login shell. Without Flatpak, a fake
 * flatpak-spawn (PLUGBOARD_FLATPAK_SPAWN) stands in for it: it records its
 * argv, applies --directory= and --env= as the real one does on the host, and
 * execs the rest, so the real fixture server runs behind it. A temporary
 * HOME holds the "host" login profile: it prints a greeting on stdout (which
 * must not reach the MCP stream) and puts a bin folder in PATH (which must be
 * where the command is found, as nvm or Homebrew would).
 */

typedef TestStdioHarness Harness;

typedef struct
{
  char *dir;       /* the fake host's HOME */
  char *project;   /* a project folder, with a space in its name */
  char *spawner;   /* the fake flatpak-spawn */
  char *log;       /* the argv it was given, one per line */
} Host;

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static const char fake_spawn_script[] =
  "#!/bin/sh\n"
  "# A stand-in for flatpak-spawn: records its argv, then does on this\n"
  "# machine what the real one asks the host to do.\n"
  "for a in \"$@\"; do printf '%s\\n' \"$a\" >> \"$FAKE_FLATPAK_SPAWN_LOG\"; done\n"
  "host=\n"
  "while [ $# -gt 0 ]; do\n"
  "  case \"$1\" in\n"
  "    --host) host=1 ;;\n"
  "    --watch-bus) ;;\n"
  "    --directory=*) cd \"${1#--directory=}\" || exit 1 ;;\n"
  "    --env=*) export \"${1#--env=}\" ;;\n"
  "    -*) echo \"fake flatpak-spawn: unknown option $1\" >&2; exit 1 ;;\n"
  "    *) break ;;\n"
  "  esac\n"
  "  shift\n"
  "done\n"
  "[ -n \"$host\" ] || { echo 'fake flatpak-spawn: no --host' >&2; exit 1; }\n"
  "exec \"$@\"\n";

static Host *
host_new (void)
{
  Host *host = g_new0 (Host, 1);
  g_autofree char *tmp = g_dir_make_tmp ("plugboard-flatpak-XXXXXX", NULL);
  g_autofree char *bin = NULL;
  g_autofree char *profile = NULL;
  g_autofree char *wrapper = NULL;
  g_autofree char *wrapper_script = NULL;
  g_autofree char *quoted_fixture = g_shell_quote (test_fixture_server ());

  g_assert_nonnull (tmp);
  host->dir = realpath (tmp, NULL);
  host->project = g_build_filename (host->dir, "my project", NULL);
  host->spawner = g_build_filename (host->dir, "flatpak-spawn", NULL);
  host->log = g_build_filename (host->dir, "spawn.log", NULL);
  bin = g_build_filename (host->dir, "bin", NULL);
  g_assert_cmpint (g_mkdir (host->project, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);

  write_file (host->spawner, fake_spawn_script, 0755);

  /* The login profile: noise on stdout, and a PATH only it knows. */
  profile = g_build_filename (host->dir, ".profile", NULL);
  write_file (profile,
              "echo 'Welcome from the profile'\n"
              "PATH=\"$HOME/bin:$PATH\"; export PATH\n",
              0644);
  wrapper = g_build_filename (bin, "fixture-on-path", NULL);
  wrapper_script = g_strdup_printf ("#!/bin/sh\nexec %s \"$@\"\n", quoted_fixture);
  write_file (wrapper, wrapper_script, 0755);

  g_setenv ("HOME", host->dir, TRUE);
  g_setenv ("SHELL", "/bin/sh", TRUE);
  g_setenv ("FAKE_FLATPAK_SPAWN_LOG", host->log, TRUE);
  g_setenv ("PLUGBOARD_FLATPAK_SPAWN", host->spawner, TRUE);
  return host;
}

static void
host_free (Host *host)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) dir = g_file_new_for_path (host->dir);
  g_autoptr(GFileEnumerator) children = NULL;

  g_unsetenv ("PLUGBOARD_FLATPAK_SPAWN");
  g_unsetenv ("FAKE_FLATPAK_SPAWN_LOG");

  /* rm -r, two levels deep. */
  children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &error);
  g_assert_no_error (error);
  for (;;)
    {
      GFileInfo *info = NULL;
      GFile *child = NULL;

      g_assert_true (g_file_enumerator_iterate (children, &info, &child, NULL, &error));
      if (child == NULL)
        break;
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          g_autoptr(GFileEnumerator) inner =
            g_file_enumerate_children (child, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                       G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
          GFile *grandchild = NULL;

          while (inner != NULL &&
                 g_file_enumerator_iterate (inner, NULL, &grandchild, NULL, NULL) &&
                 grandchild != NULL)
            g_file_delete (grandchild, NULL, NULL);
        }
      g_file_delete (child, NULL, NULL);
    }
  g_file_delete (dir, NULL, NULL);

  g_free (host->dir);
  g_free (host->project);
  g_free (host->spawner);
  g_free (host->log);
  g_free (host);
}

/* The argv the fake flatpak-spawn was last given. */
static GStrv
host_logged_argv (Host *host)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GStrv lines;
  guint n;

  g_file_get_contents (host->log, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpstr (lines[n - 1], ==, "");
  g_clear_pointer (&lines[n - 1], g_free);
  return lines;
}

static void
harness_connect_ok (Harness *h)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = test_stdio_harness_connect (h, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}

/* The whole argv for a command with arguments, environment and folder. */
static void
test_argv_shape (void)
{
  const char *argv[] = { "npx", "-y", "@modelcontextprotocol/server-everything", NULL };
  const char *env[] = { "API_KEY=secret=with=equals", "EMPTY=", NULL };
  g_auto(GStrv) built = mcp_stdio_transport_build_host_argv ("/usr/bin/flatpak-spawn", argv, env,
                                                             "/home/me/my project", "/bin/bash");
  const char *expected[] = {
    "/usr/bin/flatpak-spawn", "--host", "--watch-bus",
    "--directory=/home/me/my project",
    "--env=API_KEY=secret=with=equals", "--env=EMPTY=",
    "/bin/sh", "-c",
    "exec 3>&1 1>&2; exec \"$0\" -l -c 'exec \"$0\" \"$@\" 1>&3 3>&-' \"$@\"",
    "/bin/bash",
    "npx", "-y", "@modelcontextprotocol/server-everything",
    NULL
  };

  g_assert_cmpstrv (built, expected);
}

/* No folder, no environment: no --directory=, no --env=. */
static void
test_argv_minimal (void)
{
  const char *argv[] = { "uvx", NULL };
  g_auto(GStrv) built = mcp_stdio_transport_build_host_argv ("flatpak-spawn", argv, NULL, NULL,
                                                             "/usr/bin/zsh");

  g_assert_cmpuint (g_strv_length (built), ==, 8);
  g_assert_cmpstr (built[0], ==, "flatpak-spawn");
  g_assert_cmpstr (built[1], ==, "--host");
  g_assert_cmpstr (built[2], ==, "--watch-bus");
  g_assert_cmpstr (built[3], ==, "/bin/sh");
  g_assert_cmpstr (built[6], ==, "/usr/bin/zsh");
  g_assert_cmpstr (built[7], ==, "uvx");
}

/* A shell that does not take `-c SCRIPT NAME ARGS…` the POSIX way, or an
 * unknown one, gives way to /bin/sh as a login shell. */
static void
test_argv_shell_fallback (void)
{
  const char *argv[] = { "npx", NULL };
  const char *shells[] = { NULL, "", "bash", "/usr/bin/fish", "/usr/bin/nu", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (shells) - 1; i++)
    {
      g_auto(GStrv) built = mcp_stdio_transport_build_host_argv ("flatpak-spawn", argv, NULL,
                                                                 NULL, shells[i]);

      g_assert_cmpstr (built[6], ==, "/bin/sh");
    }
}

/* What follows flatpak-spawn's options is what the host runs: run it here,
 * with hostile arguments, and they must arrive as they were, while the
 * login profile's greeting goes to stderr, not stdout. */
static void
test_argv_hostile_args (void)
{
  Host *host = host_new ();
  const char *argv[] = {
    "printf", "[%s]\\n", "a b", "'", "$(x)", "\"", "`id`", "$HOME", "-l", "", "x\\ny", NULL
  };
  g_auto(GStrv) built = mcp_stdio_transport_build_host_argv ("flatpak-spawn", argv, NULL, NULL,
                                                             "/bin/sh");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_cmpstr (built[3], ==, "/bin/sh");
  g_spawn_sync (NULL, built + 3, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (out, ==, "[a b]\n[']\n[$(x)]\n[\"]\n[`id`]\n[$HOME]\n[-l]\n[]\n[x\\ny]\n");
  g_assert_nonnull (strstr (err, "Welcome from the profile"));
  host_free (host);
}

static void
test_spawner_detection (void)
{
  g_autofree char *from_env = NULL;
  g_autofree char *from_id = NULL;

  g_setenv ("PLUGBOARD_FLATPAK_SPAWN", "/opt/fake-spawn", TRUE);
  from_env = mcp_stdio_transport_get_host_spawner ();
  g_assert_cmpstr (from_env, ==, "/opt/fake-spawn");
  g_unsetenv ("PLUGBOARD_FLATPAK_SPAWN");

  g_setenv ("FLATPAK_ID", "org.plugboard.Plugboard", TRUE);
  from_id = mcp_stdio_transport_get_host_spawner ();
  g_assert_cmpstr (from_id, ==, "flatpak-spawn");
  g_unsetenv ("FLATPAK_ID");

  if (!g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_autofree char *outside = mcp_stdio_transport_get_host_spawner ();

      g_assert_null (outside);
    }
}

/* The real fixture server, found only through the login profile's PATH,
 * connects through flatpak-spawn and answers. */
static void
test_connect_through_spawn (void)
{
  Host *host = host_new ();
  const char *argv[] = { "fixture-on-path", NULL };
  const char *env[] = { "SECRET_TOKEN=s3cr3t value", NULL };
  Harness *h = test_stdio_harness_new (argv, env, host->project);
  g_auto(GStrv) logged = NULL;
  g_autofree char *description = NULL;
  g_autofree char *directory = g_strconcat ("--directory=", host->project, NULL);
  McpMessage *reply;
  JsonObject *result;

  harness_connect_ok (h);
  test_stdio_harness_send_request (h, 1, "initialize", "{\"protocolVersion\":\"2025-06-18\"}");
  TEST_WAIT_UNTIL (h->messages->len == 1 || h->closed);
  g_assert_cmpuint (h->messages->len, ==, 1);
  reply = g_ptr_array_index (h->messages, 0);
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_RESULT);
  result = json_node_get_object (mcp_message_get_result (reply));
  g_assert_cmpstr (json_object_get_string_member (result, "protocolVersion"), ==, "2025-06-18");

  test_stdio_harness_send_request (h, 2, "tools/call", "{\"name\":\"echo\",\"arguments\":{\"message\":\"through the host\"}}");
  TEST_WAIT_UNTIL (h->messages->len == 2 || h->closed);
  g_assert_cmpuint (h->messages->len, ==, 2);
  g_assert_cmpstr (test_message_result_text (g_ptr_array_index (h->messages, 1)), ==, "through the host");

  /* The profile's greeting went to the log, not into the stream. */
  g_assert_cmpuint (h->invalid_lines->len, ==, 0);
  g_assert_true (test_lines_contain (h->stderr_lines, "Welcome from the profile"));

  /* The description is the server's command, never its environment. */
  description = mcp_transport_describe (h->transport);
  g_assert_cmpstr (description, ==, "fixture-on-path");

  logged = host_logged_argv (host);
  g_assert_cmpstr (logged[0], ==, "--host");
  g_assert_true (g_strv_contains ((const char * const *) logged, "--watch-bus"));
  g_assert_true (g_strv_contains ((const char * const *) logged, directory));
  g_assert_true (g_strv_contains ((const char * const *) logged, "--env=SECRET_TOKEN=s3cr3t value"));
  g_assert_cmpstr (logged[g_strv_length (logged) - 1], ==, "fixture-on-path");

  test_stdio_harness_close (h);
  g_assert_null (h->reason);
  test_stdio_harness_free (h);
  host_free (host);
}

/* The environment and the folder reach the server on the "host". */
static void
test_env_and_directory (void)
{
  Host *host = host_new ();
  const char *argv[] = {
    "sh", "-c",
    "printf '{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"cwd\":\"%s\",\"v\":\"%s\"}}\\n' "
    "\"$(pwd -P)\" \"$SECRET_TOKEN\"",
    NULL
  };
  const char *env[] = { "SECRET_TOKEN=s3cr3t value", NULL };
  Harness *h = test_stdio_harness_new (argv, env, host->project);
  JsonObject *params;

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_cmpuint (h->messages->len, ==, 1);
  params = mcp_message_get_params_object (g_ptr_array_index (h->messages, 0));
  g_assert_cmpstr (json_object_get_string_member (params, "cwd"), ==, host->project);
  g_assert_cmpstr (json_object_get_string_member (params, "v"), ==, "s3cr3t value");
  test_stdio_harness_free (h);
  host_free (host);
}

/* A command the login shell does not find says so, not just "status 127". */
static void
test_not_found_on_host (void)
{
  Host *host = host_new ();
  const char *argv[] = { "no-such-mcp-server-anywhere", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, host->project);

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_error (h->reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (h->reason->message, "PATH of your login shell"));
  g_assert_true (test_lines_contain (h->stderr_lines, "no-such-mcp-server-anywhere"));
  test_stdio_harness_free (h);
  host_free (host);
}

/* A server that ignores SIGINT and SIGTERM behind the launcher chain is
 * still ended by close (SIGKILL to the group). */
static void
test_close_ignoring_signals (void)
{
  Host *host = host_new ();
  const char *argv[] = { "fixture-on-path", "--ignore-signals", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  GPid pid;

  harness_connect_ok (h);
  test_stdio_harness_send_request (h, 1, "ping", NULL);
  TEST_WAIT_UNTIL (h->messages->len == 1 || h->closed);
  g_assert_cmpuint (h->messages->len, ==, 1);
  pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (h->transport));
  g_assert_cmpint (pid, >, 0);

  test_stdio_harness_close (h);
  g_assert_true (test_pid_is_gone (pid));
  test_stdio_harness_free (h);
  host_free (host);
}

/* A PLUGBOARD_FLATPAK_SPAWN that is not there fails to start, naming it. */
static void
test_missing_spawner (void)
{
  const char *argv[] = { "npx", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("PLUGBOARD_FLATPAK_SPAWN", "/nonexistent/flatpak-spawn", TRUE);
  mcp_transport_connect_async (h->transport, NULL, test_result_cb, &result);
  TEST_WAIT_UNTIL (result != NULL);
  g_assert_false (mcp_transport_connect_finish (h->transport, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_nonnull (strstr (error->message, "/nonexistent/flatpak-spawn"));
  g_unsetenv ("PLUGBOARD_FLATPAK_SPAWN");
  test_stdio_harness_free (h);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (15);

  g_unsetenv ("PLUGBOARD_FLATPAK_SPAWN");
  g_unsetenv ("FLATPAK_ID");

  g_test_add_func ("/transport/flatpak/argv-shape", test_argv_shape);
  g_test_add_func ("/transport/flatpak/argv-minimal", test_argv_minimal);
  g_test_add_func ("/transport/flatpak/argv-shell-fallback", test_argv_shell_fallback);
  g_test_add_func ("/transport/flatpak/argv-hostile-args", test_argv_hostile_args);
  g_test_add_func ("/transport/flatpak/spawner-detection", test_spawner_detection);
  g_test_add_func ("/transport/flatpak/connect-through-spawn", test_connect_through_spawn);
  g_test_add_func ("/transport/flatpak/env-and-directory", test_env_and_directory);
  g_test_add_func ("/transport/flatpak/not-found-on-host", test_not_found_on_host);
  g_test_add_func ("/transport/flatpak/close-ignoring-signals", test_close_ignoring_signals);
  g_test_add_func ("/transport/flatpak/missing-spawner", test_missing_spawner);

  return g_test_run ();
}
