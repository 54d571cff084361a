/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stdio-transport"

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

typedef TestStdioHarness Harness;

static void
harness_connect_ok (Harness *h)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (test_stdio_harness_connect (h, &error));
  g_assert_no_error (error);
  /* A script that prints and exits may be gone before the connect callback
   * runs; then it must have closed, not failed to connect. */
  g_assert_true (mcp_transport_is_connected (h->transport) || h->closed);
}

static void
call_tool (Harness    *h,
           gint64      id,
           const char *tool,
           const char *arguments_json)
{
  g_autofree char *params = g_strdup_printf ("{\"name\":\"%s\",\"arguments\":%s}",
                                             tool, arguments_json ? arguments_json : "{}");

  test_stdio_harness_send_request (h, id, "tools/call", params);
}

static void
wait_pid_gone (GPid pid)
{
  gint64 deadline = g_get_monotonic_time () + test_get_hang_bound () * G_USEC_PER_SEC;

  while (!test_pid_is_gone (pid))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10 * 1000);
    }
}

static void
test_round_trip (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  McpMessage *reply;
  JsonObject *result;
  g_autofree char *description = NULL;
  gint64 id = 0;

  harness_connect_ok (h);
  g_assert_cmpint (mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (h->transport)), >, 0);
  description = mcp_transport_describe (h->transport);
  g_assert_cmpstr (description, ==, test_fixture_server ());

  test_stdio_harness_send_request (h, 1, "initialize", "{\"protocolVersion\":\"2025-06-18\"}");
  TEST_WAIT_UNTIL (h->messages->len == 1);
  reply = g_ptr_array_index (h->messages, 0);
  g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_RESULT);
  g_assert_true (mcp_message_get_int_id (reply, &id));
  g_assert_cmpint (id, ==, 1);
  result = json_node_get_object (mcp_message_get_result (reply));
  g_assert_cmpstr (json_object_get_string_member (result, "protocolVersion"), ==, "2025-06-18");

  call_tool (h, 2, "echo", "{\"message\":\"héllo wörld\"}");
  TEST_WAIT_UNTIL (h->messages->len == 2);
  g_assert_cmpstr (test_message_result_text (g_ptr_array_index (h->messages, 1)), ==, "héllo wörld");

  test_stdio_harness_close (h);
  g_assert_null (h->reason);
  test_stdio_harness_free (h);
}

static void
test_describe_quotes (void)
{
  const char *argv[] = { "sh", "-c", "echo hi", NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);
  g_autofree char *description = mcp_transport_describe (transport);

  g_assert_cmpstr (description, ==, "sh -c 'echo hi'");
}

static void
test_many_in_one_write (void)
{
  const char *argv[] = {
    "sh", "-c",
    "printf '{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\\n\\n"
    "[{\"jsonrpc\":\"2.0\",\"method\":\"c\"},{\"jsonrpc\":\"2.0\",\"method\":\"d\"}]\\n'",
    NULL
  };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_cmpuint (h->messages->len, ==, 4);
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 0)), ==, "a");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 1)), ==, "b");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 2)), ==, "c");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 3)), ==, "d");
  g_assert_cmpuint (h->invalid_lines->len, ==, 0);
  /* Status 0 without the owner asking still ends the connection. */
  g_assert_error (h->reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (h->reason->message, "“sh” exited"));
  test_stdio_harness_free (h);
}

static void
test_split_writes_crlf (void)
{
  const char *argv[] = {
    "sh", "-c",
    "printf '{\"jsonrpc\":\"2.0\",\"met'; sleep 0.1; "
    "printf 'hod\":\"split\"}\\r\\n{\"jsonrpc\"'; sleep 0.1; "
    "printf ':\"2.0\",\"method\":\"crlf\"}\\r\\n'",
    NULL
  };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_cmpuint (h->invalid_lines->len, ==, 0);
  g_assert_cmpuint (h->messages->len, ==, 2);
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 0)), ==, "split");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 1)), ==, "crlf");
  test_stdio_harness_free (h);
}

static void
test_garbage_lines (void)
{
  const char *argv[] = { test_fixture_server (), "--garbage-at-start", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);

  harness_connect_ok (h);
  call_tool (h, 7, "garbage", NULL);
  TEST_WAIT_UNTIL (h->messages->len == 1);
  g_assert_cmpstr (test_message_result_text (g_ptr_array_index (h->messages, 0)), ==, "after garbage");
  g_assert_cmpuint (h->invalid_lines->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (h->invalid_lines, 0), ==, "this is not json");
  g_assert_cmpstr (g_ptr_array_index (h->invalid_lines, 1), ==, "{broken");
  g_assert_cmpstr (g_ptr_array_index (h->invalid_lines, 2), ==, "not json at all");
  g_assert_cmpstr (g_ptr_array_index (h->invalid_lines, 3), ==, "[1,2");
  g_assert_cmpstr (g_ptr_array_index (h->invalid_lines, 4), ==, "{\"jsonrpc\":\"1.0\"}");
  g_assert_false (h->closed);
  g_assert_true (mcp_transport_is_connected (h->transport));

  test_stdio_harness_close (h);
  test_stdio_harness_free (h);
}

static gsize
peak_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmHWM:");
  g_assert_nonnull (line);
  return (gsize) g_ascii_strtoull (line + strlen ("VmHWM:"), NULL, 10);
}

static void
test_flood_too_large (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  gsize peak_before = peak_rss_kib ();
  GPid pid;
  g_autofree char *expected = NULL;

  mcp_stdio_transport_set_max_message_size (MCP_STDIO_TRANSPORT (h->transport), 1024 * 1024);
  harness_connect_ok (h);
  pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (h->transport));

  call_tool (h, 1, "flood", "{\"bytes\":67108864}");
  TEST_WAIT_UNTIL (h->closed);
  g_assert_error (h->reason, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  expected = g_strdup_printf ("Server “%s” sent a message larger than 1 MiB; closing the connection",
                              test_fixture_server ());
  g_assert_cmpstr (h->reason->message, ==, expected);
  g_assert_cmpuint (h->messages->len, ==, 0);

  /* The server is shut down, not left blocked on a full pipe. */
  TEST_WAIT_UNTIL (h->exited);
  wait_pid_gone (pid);
  g_assert_true (mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (h->transport), NULL));

  /* Reading 64 MiB whole would have raised the peak far more. */
  g_assert_cmpuint (peak_rss_kib () - peak_before, <, 16 * 1024);

  test_stdio_harness_close (h);
  test_stdio_harness_free (h);
}

static void
test_flood_under_limit (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  const char *text;
  gsize bytes = 1024 * 1024 - 1;

  mcp_stdio_transport_set_max_message_size (MCP_STDIO_TRANSPORT (h->transport), 1024 * 1024);
  g_assert_cmpuint (mcp_stdio_transport_get_max_message_size (MCP_STDIO_TRANSPORT (h->transport)),
                    ==, 1024 * 1024);
  harness_connect_ok (h);

  call_tool (h, 1, "flood", "{\"bytes\":1048575}");
  TEST_WAIT_UNTIL (h->messages->len == 1 || h->closed);
  g_assert_false (h->closed);
  text = test_message_result_text (g_ptr_array_index (h->messages, 0));
  /* The line minus the JSON around the text. */
  g_assert_cmpuint (strlen (text), ==,
                    bytes - strlen ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":"
                                    "[{\"type\":\"text\",\"text\":\"\"}]}}"));
  g_assert_cmpint (text[0], ==, 'x');

  test_stdio_harness_close (h);
  test_stdio_harness_free (h);
}

static void
test_large_write (void)
{
  const char *argv[] = { "cat", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autofree char *big = g_strnfill (4 * 1024 * 1024, 'y');
  g_autofree char *params = g_strdup_printf ("{\"big\":\"%s\"}", big);
  JsonObject *echoed;

  harness_connect_ok (h);
  /* Far more than a pipe holds: send queues it and returns at once. */
  test_stdio_harness_send_request (h, 1, "big", params);
  test_stdio_harness_send_request (h, 2, "small", NULL);
  TEST_WAIT_UNTIL (h->messages->len == 2 || h->closed);
  g_assert_false (h->closed);
  echoed = mcp_message_get_params_object (g_ptr_array_index (h->messages, 0));
  g_assert_cmpuint (strlen (json_object_get_string_member (echoed, "big")), ==, strlen (big));
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 1)), ==, "small");

  test_stdio_harness_close (h);
  test_stdio_harness_free (h);
}

static void
test_send_too_large (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autoptr(JsonNode) id = mcp_message_id_new_int (1);
  g_autoptr(JsonNode) params = json_from_string ("{\"padding\":\"0123456789012345678901234567890123456789\"}", NULL);
  g_autoptr(McpMessage) message = mcp_message_new_request (id, "ping", params);
  g_autoptr(GError) error = NULL;

  mcp_stdio_transport_set_max_message_size (MCP_STDIO_TRANSPORT (h->transport), 64);
  harness_connect_ok (h);

  g_assert_false (mcp_transport_send (h->transport, message, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_true (mcp_transport_is_connected (h->transport));

  test_stdio_harness_send_request (h, 2, "ping", NULL);
  TEST_WAIT_UNTIL (h->messages->len == 1);
  g_assert_cmpint (mcp_message_get_kind (g_ptr_array_index (h->messages, 0)), ==, MCP_MESSAGE_RESULT);

  test_stdio_harness_close (h);
  test_stdio_harness_free (h);
}

static void
test_send_after_close (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autoptr(McpMessage) message = mcp_message_new_notification ("notifications/initialized", NULL);
  g_autoptr(GError) error = NULL;

  harness_connect_ok (h);
  test_stdio_harness_close (h);
  g_assert_false (mcp_transport_send (h->transport, message, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  test_stdio_harness_free (h);
}

static void
test_crash (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autofree char *expected = g_strdup_printf ("Server “%s” exited with status 3", test_fixture_server ());
  int status = 0;

  harness_connect_ok (h);
  call_tool (h, 1, "crash", NULL);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_error (h->reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_cmpstr (h->reason->message, ==, expected);
  g_assert_true (h->exited);
  g_assert_true (mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (h->transport), &status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  g_assert_false (mcp_transport_is_connected (h->transport));
  test_stdio_harness_free (h);
}

static void
test_abort (void)
{
  const char *argv[] = { test_fixture_server (), NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);

  harness_connect_ok (h);
  call_tool (h, 1, "abort", NULL);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_error (h->reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (h->reason->message, "was killed by signal 6"));
  g_assert_true (WIFSIGNALED (h->wait_status));
  g_assert_cmpint (WTERMSIG (h->wait_status), ==, SIGABRT);
  test_stdio_harness_free (h);
}

static void
test_exit_at_start (void)
{
  const char *argv[] = { test_fixture_server (), "--exit-at-start", "1", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_error (h->reason, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (h->reason->message, "exited with status 1"));
  test_stdio_harness_free (h);
}

static void
test_stderr_ring (void)
{
  const char *argv[] = { test_fixture_server (), "--stderr-lines", "1500", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_auto(GStrv) lines = NULL;

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->stderr_lines->len == 1500);
  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 0), ==, "stderr line 0");
  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 1499), ==, "stderr line 1499");

  lines = mcp_stdio_transport_dup_stderr_lines (MCP_STDIO_TRANSPORT (h->transport));
  g_assert_cmpuint (g_strv_length (lines), ==, MCP_STDIO_TRANSPORT_STDERR_LINES);
  g_assert_cmpstr (lines[0], ==, "stderr line 500");
  g_assert_cmpstr (lines[999], ==, "stderr line 1499");

  call_tool (h, 1, "stderr", "{\"text\":\"from a tool\"}");
  TEST_WAIT_UNTIL (h->stderr_lines->len == 1501);
  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 1500), ==, "from a tool");

  test_stdio_harness_close (h);
  test_stdio_harness_free (h);
}

static void
test_stderr_long_line (void)
{
  const char *argv[] = { "sh", "-c", "head -c 200000 /dev/zero | tr '\\0' z >&2; echo >&2; echo tail >&2", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  const char *line;

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  TEST_WAIT_UNTIL (h->stderr_lines->len >= 2);
  g_assert_cmpuint (h->stderr_lines->len, ==, 2);
  line = g_ptr_array_index (h->stderr_lines, 0);
  g_assert_true (g_str_has_suffix (line, "…"));
  g_assert_cmpuint (strlen (line), ==, 64 * 1024 + strlen ("…"));
  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 1), ==, "tail");
  test_stdio_harness_free (h);
}

static void
test_missing_command (void)
{
  const char *argv[] = { "plugboard-no-such-command", "--flag", NULL };
  const char *env[] = { "PATH=/nonexistent/a:/nonexistent/b", NULL };
  Harness *h = test_stdio_harness_new (argv, env, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (test_stdio_harness_connect (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "Could not start “plugboard-no-such-command”: no such command in PATH "
                   "(/nonexistent/a:/nonexistent/b)");
  g_assert_false (mcp_transport_is_connected (h->transport));
  test_stdio_harness_free (h);
}

static void
test_not_executable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("plugboard-test-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "server", NULL);
  const char *argv[] = { file, NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (file, "#!/bin/sh\n", -1, NULL));
  g_assert_false (test_stdio_harness_connect (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_nonnull (strstr (error->message, file));
  g_assert_nonnull (strstr (error->message, "not an executable"));
  test_stdio_harness_free (h);
  g_remove (file);
  g_rmdir (dir);
}

static void
test_cwd_and_env (void)
{
  g_autofree char *dir = g_dir_make_tmp ("plugboard-test-XXXXXX", NULL);
  g_autofree char *real_dir = realpath (dir, NULL);
  const char *argv[] = {
    "sh", "-c",
    "echo \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":\\\"x\\\",\\\"params\\\":"
    "{\\\"cwd\\\":\\\"$(pwd -P)\\\",\\\"v\\\":\\\"$FOO\\\",\\\"home\\\":\\\"$HOME\\\"}}\"",
    NULL
  };
  const char *env[] = { "FOO=bar baz", NULL };
  Harness *h = test_stdio_harness_new (argv, env, dir);
  JsonObject *params;

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->closed);
  g_assert_cmpuint (h->messages->len, ==, 1);
  params = mcp_message_get_params_object (g_ptr_array_index (h->messages, 0));
  g_assert_cmpstr (json_object_get_string_member (params, "cwd"), ==, real_dir);
  g_assert_cmpstr (json_object_get_string_member (params, "v"), ==, "bar baz");
  /* The rest of the environment is inherited. */
  g_assert_cmpstr (json_object_get_string_member (params, "home"), ==, g_getenv ("HOME"));
  test_stdio_harness_free (h);
  g_rmdir (dir);
}

static void
test_close_polite (void)
{
  /* A server that leaves as soon as its stdin ends. Not the fixture
   * server: in the sanitizer build its exit (the leak check) can take
   * longer than the 100 ms before SIGINT on a busy machine. */
  const char *argv[] = { "cat", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  int status = -1;

  harness_connect_ok (h);
  test_stdio_harness_close (h);
  g_assert_null (h->reason);
  /* It left on stdin EOF by itself: no signal was needed. */
  g_assert_true (mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (h->transport), &status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  test_stdio_harness_free (h);
}

static gboolean
tick_cb (gpointer user_data)
{
  guint *ticks = user_data;

  (*ticks)++;
  return G_SOURCE_CONTINUE;
}

static void
test_close_ignore_signals (void)
{
  const char *argv[] = { test_fixture_server (), "--ignore-signals", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  guint ticks = 0;
  guint tick_id;
  gint64 start, elapsed;
  GPid pid;

  harness_connect_ok (h);
  pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (h->transport));
  /* Let it get past start-up so that it really ignores the signals. */
  test_stdio_harness_send_request (h, 1, "ping", NULL);
  TEST_WAIT_UNTIL (h->messages->len == 1);

  tick_id = g_timeout_add (50, tick_cb, &ticks);
  start = g_get_monotonic_time ();
  test_stdio_harness_close (h);
  elapsed = (g_get_monotonic_time () - start) / 1000;
  g_source_remove (tick_id);

  g_assert_null (h->reason);
  g_assert_true (WIFSIGNALED (h->wait_status));
  g_assert_cmpint (WTERMSIG (h->wait_status), ==, SIGKILL);
  g_assert_cmpint (elapsed, >=, 500);
  g_assert_cmpint (elapsed, <, 3000);
  /* The main loop kept running while the close waited. */
  g_assert_cmpuint (ticks, >=, 5);
  wait_pid_gone (pid);
  test_stdio_harness_free (h);
}

static void
test_launcher_child_killed (void)
{
  const char *argv[] = {
    "sh", "-c",
    "\"$0\" --ignore-signals & "
    "echo \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":\\\"child\\\",\\\"params\\\":{\\\"pid\\\":$!}}\"; "
    "wait",
    test_fixture_server (),
    NULL
  };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  JsonObject *params;
  GPid child;

  harness_connect_ok (h);
  TEST_WAIT_UNTIL (h->messages->len == 1);
  params = mcp_message_get_params_object (g_ptr_array_index (h->messages, 0));
  child = (GPid) json_object_get_int_member (params, "pid");
  g_assert_cmpint (child, >, 0);
  g_assert_false (test_pid_is_gone (child));
  /* The grandchild sets its signal handling up first. */
  g_usleep (100 * 1000);

  test_stdio_harness_close (h);
  g_assert_null (h->reason);
  wait_pid_gone (child);
  test_stdio_harness_free (h);
}

static void
test_dispose_kills (void)
{
  const char *argv[] = { test_fixture_server (), "--ignore-signals", NULL };
  Harness *h = test_stdio_harness_new (argv, NULL, NULL);
  GPid pid;

  harness_connect_ok (h);
  pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (h->transport));
  test_stdio_harness_send_request (h, 1, "ping", NULL);
  TEST_WAIT_UNTIL (h->messages->len == 1);

  test_stdio_harness_free (h);
  wait_pid_gone (pid);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (15);

  g_test_add_func ("/transport/stdio/round-trip", test_round_trip);
  g_test_add_func ("/transport/stdio/describe-quotes", test_describe_quotes);
  g_test_add_func ("/transport/stdio/many-in-one-write", test_many_in_one_write);
  g_test_add_func ("/transport/stdio/split-writes-crlf", test_split_writes_crlf);
  g_test_add_func ("/transport/stdio/garbage-lines", test_garbage_lines);
  g_test_add_func ("/transport/stdio/flood-too-large", test_flood_too_large);
  g_test_add_func ("/transport/stdio/flood-under-limit", test_flood_under_limit);
  g_test_add_func ("/transport/stdio/large-write", test_large_write);
  g_test_add_func ("/transport/stdio/send-too-large", test_send_too_large);
  g_test_add_func ("/transport/stdio/send-after-close", test_send_after_close);
  g_test_add_func ("/transport/stdio/crash", test_crash);
  g_test_add_func ("/transport/stdio/abort", test_abort);
  g_test_add_func ("/transport/stdio/exit-at-start", test_exit_at_start);
  g_test_add_func ("/transport/stdio/stderr-ring", test_stderr_ring);
  g_test_add_func ("/transport/stdio/stderr-long-line", test_stderr_long_line);
  g_test_add_func ("/transport/stdio/missing-command", test_missing_command);
  g_test_add_func ("/transport/stdio/not-executable", test_not_executable);
  g_test_add_func ("/transport/stdio/cwd-and-env", test_cwd_and_env);
  g_test_add_func ("/transport/stdio/close-polite", test_close_polite);
  g_test_add_func ("/transport/stdio/close-ignore-signals", test_close_ignore_signals);
  g_test_add_func ("/transport/stdio/launcher-child-killed", test_launcher_child_killed);
  g_test_add_func ("/transport/stdio/dispose-kills", test_dispose_kills);

  return g_test_run ();
}
