/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http-faults"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* McpHttpTransport + McpClient, as a user has them, against
 * mcp-http-fixture-server while it is killed, restarted, expires sessions,
 * asks for a token and cuts streams. Every wait is bounded. */

static char *fixture_path;
static const char *cli_path;

typedef struct
{
  GSubprocess      *process;
  TestLineReader   *reader;
  GPtrArray        *log;        /* stderr lines of every process so far */
  guint             log_start;  /* the first line of this process */
  int               port;
  char             *url;
  GStrv             options;
} Fixture;

static gboolean
have_fixture (void)
{
  if (fixture_path == NULL || !g_file_test (fixture_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mcp-http-fixture-server is not built in G_TEST_BUILDDIR/fixtures");
      return FALSE;
    }
  return TRUE;
}

/* The fixture process */

/* Starts the fixture on fx->port (0: any) with fx->options and waits until
 * it listens. */
static void
fixture_start (Fixture *fx)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *port = g_strdup_printf ("%d", fx->port);
  int listening;

  g_strv_builder_add_many (builder, fixture_path, "--port", port, NULL);
  if (fx->options != NULL)
    g_strv_builder_addv (builder, (const char **) fx->options);
  argv = g_strv_builder_end (builder);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  fx->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &error);
  g_assert_no_error (error);

  listening = test_read_listening_port (fx->process);
  if (fx->port != 0)
    g_assert_cmpint (listening, ==, fx->port);
  fx->port = listening;

  g_free (fx->url);
  fx->url = g_strdup_printf ("http://127.0.0.1:%d/mcp", fx->port);

  fx->log_start = fx->log->len;
  fx->reader = test_line_reader_new (g_subprocess_get_stderr_pipe (fx->process), fx->log, "fixture");
}

static void
fixture_stop_reading (Fixture *fx)
{
  g_clear_pointer (&fx->reader, test_line_reader_free);
}

/* kill -9, and wait for it to be gone. */
static void
fixture_kill (Fixture *fx)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (fx->process, SIGKILL);
  g_subprocess_wait (fx->process, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_if_exited (fx->process));
  g_assert_cmpint (g_subprocess_get_term_sig (fx->process), ==, SIGKILL);
  fixture_stop_reading (fx);
  g_clear_object (&fx->process);
}

static Fixture *
fixture_new (const char *first_option,
             ...)
{
  Fixture *fx = g_new0 (Fixture, 1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  va_start (args, first_option);
  for (const char *option = first_option; option != NULL; option = va_arg (args, const char *))
    g_strv_builder_add (builder, option);
  va_end (args);

  fx->options = g_strv_builder_end (builder);
  fx->log = g_ptr_array_new_with_free_func (g_free);
  fixture_start (fx);
  return fx;
}

static void
fixture_free (Fixture *fx)
{
  if (fx->process != NULL)
    {
      g_autoptr(GError) error = NULL;

      /* It must end cleanly on SIGTERM. */
      g_subprocess_send_signal (fx->process, SIGTERM);
      g_subprocess_wait (fx->process, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_exited (fx->process));
      g_assert_cmpint (g_subprocess_get_exit_status (fx->process), ==, 0);
    }
  fixture_stop_reading (fx);
  g_clear_object (&fx->process);
  g_clear_pointer (&fx->log, g_ptr_array_unref);
  g_clear_pointer (&fx->options, g_strfreev);
  g_free (fx->url);
  g_free (fx);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Fixture, fixture_free)

/* The first log line of the current process with all of @parts, from line
 * @from on; NULL if none. */
static const char *
fixture_find_log (Fixture    *fx,
                  guint       from,
                  const char *part1,
                  const char *part2)
{
  for (guint i = MAX (from, fx->log_start); i < fx->log->len; i++)
    {
      const char *line = g_ptr_array_index (fx->log, i);

      if (strstr (line, part1) != NULL && (part2 == NULL || strstr (line, part2) != NULL))
        return line;
    }
  return NULL;
}

/* Iterates until the current process logged a line with both parts. */
static const char *
fixture_wait_log (Fixture    *fx,
                  const char *part1,
                  const char *part2)
{
  guint hang_id = test_hang_guard (part1);
  const char *line;

  while ((line = fixture_find_log (fx, 0, part1, part2)) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
  return line;
}

/* Clients */

static McpClient *
client_new (const char         *url,
            const char * const *headers)
{
  g_autoptr(McpTransport) transport = mcp_http_transport_new (url, headers, NULL);
  McpClient *client = mcp_client_new (transport);

  mcp_client_set_client_info (client, "plugboard-test", PACKAGE_VERSION);
  return client;
}

static McpClient *
connected_client (const char         *url,
                  const char * const *headers)
{
  g_autoptr(McpClient) client = client_new (url, headers);
  g_autoptr(GError) error = NULL;

  test_client_connect (client, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);
  return g_steal_pointer (&client);
}

static void
client_close (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, test_result_cb, &result);
  test_wait_result (&result, "close");
  /* A transport that already closed on its own may say so; either way the
   * client ends closed. */
  mcp_client_close_finish (client, result, NULL);
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_node_dup_object (json_parser_get_root (parser));
}

static void
call_tool_async (McpClient               *client,
                 const char              *name,
                 const char              *arguments_json,
                 const McpRequestOptions *options,
                 GAsyncResult           **slot)
{
  g_autoptr(JsonObject) arguments = parse_object (arguments_json);

  mcp_client_call_tool_async (client, name, arguments, options, NULL, test_result_cb, slot);
}

static char *
result_text (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);

  g_assert_false (mcp_tool_result_get_is_error (result));
  g_assert_cmpuint (content->len, ==, 1);
  return g_strdup (mcp_content_get_text (g_ptr_array_index (content, 0)));
}

static void
assert_echo (McpClient  *client,
             const char *message)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *arguments = g_strdup_printf ("{\"message\":\"%s\"}", message);
  g_autofree char *text = NULL;

  call_tool_async (client, "echo", arguments, NULL, &result);
  test_wait_result (&result, "echo");
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_no_error (error);
  text = result_text (tool_result);
  g_assert_cmpstr (text, ==, message);
}

typedef struct
{
  guint  n;
  double last;
} Progress;

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  Progress *p = user_data;

  /* Each step exactly once and in order, resumed or not. */
  g_assert_cmpfloat (progress, ==, p->last + 1);
  p->n++;
  p->last = progress;
}

static void
log_message_cb (McpClient  *client,
                const char *level,
                const char *logger,
                JsonNode   *data,
                gpointer    user_data)
{
  guint *n = user_data;

  if (g_strcmp0 (logger, "fixture") == 0)
    (*n)++;
}

/* Iterates until the GET stream brought @n ticks more. */
static void
wait_for_ticks (guint *ticks,
                guint  n)
{
  guint hang_id = test_hang_guard ("ticks on the GET stream");
  guint target = *ticks + n;

  while (*ticks < target)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (hang_id);
}

static void
closed_cb (McpClient    *client,
           const GError *reason,
           gpointer      user_data)
{
  GError **slot = user_data;

  g_assert_null (*slot);
  *slot = reason ? g_error_copy (reason) : g_error_new_literal (MCP_ERROR, MCP_ERROR_FAILED, "(none)");
}

/* With the GET stream open and two calls streaming their answers, other
 * requests still go out and come back at once: no connection limit makes
 * them wait for a stream to end. */
static void
test_busy_streams (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) slow1 = NULL;
  g_autoptr(GAsyncResult) slow2 = NULL;
  Progress progress1 = { 0, 0 };
  Progress progress2 = { 0, 0 };
  McpRequestOptions options1 = { .progress_func = progress_cb, .progress_data = &progress1 };
  McpRequestOptions options2 = { .progress_func = progress_cb, .progress_data = &progress2 };
  guint ticks = 0;

  if (!have_fixture ())
    return;

  fx = fixture_new (NULL);
  client = connected_client (fx->url, NULL);
  g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &ticks);
  wait_for_ticks (&ticks, 1);

  call_tool_async (client, "slow", "{\"ms\":20000,\"progress_ms\":50}", &options1, &slow1);
  call_tool_async (client, "slow", "{\"ms\":20000,\"progress_ms\":50}", &options2, &slow2);
  {
    guint hang_id = test_hang_guard ("progress");

    while (progress1.n < 2 || progress2.n < 2)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }

  /* Three streams are open; these must not wait 20 s behind them. */
  assert_echo (client, "first");
  assert_echo (client, "second");
  g_assert_null (slow1);
  g_assert_null (slow2);

  client_close (client);
  test_wait_result (&slow1, "the first slow call to end");
  test_wait_result (&slow2, "the second slow call to end");
}

/* Tests */

/* kill -9 while a call streams progress: the call fails naming the URL; the
 * restarted process knows no session; a new client works. */
static void
test_kill_mid_call (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpClient) fresh = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  Progress progress = { 0, 0 };
  McpRequestOptions options = { .progress_func = progress_cb, .progress_data = &progress };

  if (!have_fixture ())
    return;

  fx = fixture_new (NULL);
  client = connected_client (fx->url, NULL);
  session_id = g_strdup (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (mcp_client_get_transport (client))));
  g_assert_nonnull (session_id);

  call_tool_async (client, "slow", "{\"ms\":20000,\"progress_ms\":50}", &options, &result);
  {
    guint hang_id = test_hang_guard ("progress");

    while (progress.n < 3)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }
  g_assert_null (result);

  fixture_kill (fx);

  test_wait_result (&result, "the slow call to fail");
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_null (tool_result);
  g_test_message ("the call failed with: %s", error->message);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, fx->url));
  g_clear_error (&error);

  /* The same port, a new process: the old session is gone. */
  fixture_start (fx);
  test_client_ping (client, &error);
  g_test_message ("the next request failed with: %s", error->message);
  if (mcp_client_get_state (client) == MCP_CLIENT_STATE_CLOSED)
    {
      /* Only when the restart was slower than the GET stream's retries:
       * three network errors in a row closed the transport. */
      g_assert_error (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED);
      g_assert_nonnull (strstr (error->message, "reconnect"));
      g_assert_nonnull (strstr (error->message, fx->url));
    }
  else
    {
      g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
      g_assert_nonnull (strstr (error->message, "expired"));
      g_assert_nonnull (strstr (error->message, "start a new one"));
      g_assert_nonnull (strstr (error->message, fx->url));
      g_assert_nonnull (fixture_wait_log (fx, "POST session=", "-> 404"));
    }
  g_clear_error (&error);
  client_close (client);

  fresh = connected_client (fx->url, NULL);
  assert_echo (fresh, "after the restart");
  g_assert_cmpstr (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (mcp_client_get_transport (fresh))),
                   !=, session_id);
  client_close (fresh);
}

/* kill -9 and restart at once while a call streams: the transport resumes
 * the call's stream with GET + Last-Event-ID on the new process, which
 * knows no such session (404). That is the session expiring, and the call
 * should say so. */
static void
test_kill_mid_call_restart (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *wanted = NULL;
  Progress progress = { 0, 0 };
  McpRequestOptions options = { .progress_func = progress_cb, .progress_data = &progress };

  if (!have_fixture ())
    return;

  fx = fixture_new (NULL);
  client = connected_client (fx->url, NULL);
  session_id = g_strdup (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (mcp_client_get_transport (client))));

  call_tool_async (client, "slow", "{\"ms\":20000,\"progress_ms\":50}", &options, &result);
  {
    guint hang_id = test_hang_guard ("progress");

    while (progress.n < 3)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }

  fixture_kill (fx);
  fixture_start (fx);

  test_wait_result (&result, "the slow call to fail");
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_null (tool_result);
  g_test_message ("the call failed with: %s", error->message);

  /* The resumption reached the new process and got its 404. */
  wanted = g_strdup_printf ("GET session=%s last-event-id=%s-", session_id, session_id);
  g_assert_nonnull (fixture_wait_log (fx, wanted, "-> 404"));
  g_assert_nonnull (strstr (error->message, fx->url));

  /* The new process knows no such session: that is what the person sees. */
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
  g_clear_error (&error);
  client_close (client);
}

/* kill -9 and restart at once while only the GET stream is open: the
 * reconnect (after the stream's retry) reaches the new process, which knows
 * no such session. */
static void
test_kill_get_stream_restart (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpClient) fresh = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *wanted = NULL;
  McpTransport *transport;
  guint ticks = 0;

  if (!have_fixture ())
    return;

  fx = fixture_new (NULL);
  client = connected_client (fx->url, NULL);
  transport = mcp_client_get_transport (client);
  g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &ticks);
  session_id = g_strdup (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (transport)));
  wait_for_ticks (&ticks, 2);

  /* Killed and started again before the main loop runs: the transport sees
   * the broken stream only now, and reconnects to the new process. */
  fixture_kill (fx);
  fixture_start (fx);

  wanted = g_strdup_printf ("GET session=%s last-event-id=%s-", session_id, session_id);
  fixture_wait_log (fx, wanted, "-> 404");

  /* The new process refused the old session's stream; the transport goes
   * on without a stream and says nothing until the next request. */
  g_assert_true (mcp_transport_is_connected (transport));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_READY);

  test_client_ping (client, &error);
  g_test_message ("the next request failed with: %s", error->message);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
  g_assert_nonnull (strstr (error->message, fx->url));
  g_assert_nonnull (strstr (error->message, "start a new one"));
  g_clear_error (&error);
  client_close (client);

  fresh = connected_client (fx->url, NULL);
  assert_echo (fresh, "new session");
  client_close (fresh);
}

/* kill -9 while only the GET stream is open, and stay down: the reconnects
 * are refused and the transport closes after three in a row, saying to
 * reconnect. */
static void
test_kill_get_stream_down (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) reason = NULL;
  g_autoptr(GError) error = NULL;
  guint ticks = 0;

  if (!have_fixture ())
    return;

  fx = fixture_new (NULL);
  client = connected_client (fx->url, NULL);
  g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &ticks);
  g_signal_connect (client, "closed", G_CALLBACK (closed_cb), &reason);
  wait_for_ticks (&ticks, 2);

  fixture_kill (fx);
  {
    guint hang_id = test_hang_guard ("closed");

    while (reason == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (hang_id);
  }

  g_test_message ("closed: %s", reason->message);
  g_assert_error (reason, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (reason->message, "3 network errors in a row"));
  g_assert_nonnull (strstr (reason->message, fx->url));
  g_assert_nonnull (strstr (reason->message, "reconnect"));
  g_assert_cmpint (mcp_client_get_state (client), ==, MCP_CLIENT_STATE_CLOSED);

  test_client_ping (client, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED);
  client_close (client);
}

/* --expire-session-after 3: initialize, notifications/initialized and one
 * request pass; the fourth POST is 404. */
static void
test_expire_session (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpClient) fresh = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session_id = NULL;
  McpHttpTransport *transport;

  if (!have_fixture ())
    return;

  fx = fixture_new ("--expire-session-after", "3", NULL);
  client = connected_client (fx->url, NULL);
  transport = MCP_HTTP_TRANSPORT (mcp_client_get_transport (client));
  session_id = g_strdup (mcp_http_transport_get_session_id (transport));
  g_assert_nonnull (session_id);

  test_client_ping (client, &error);
  g_assert_no_error (error);

  test_client_ping (client, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED);
  g_assert_nonnull (strstr (error->message, "session"));
  g_assert_nonnull (strstr (error->message, "expired"));
  g_assert_nonnull (strstr (error->message, fx->url));
  /* the fixture's log line may come after its answer (it raced under ASan) */
  g_assert_nonnull (fixture_wait_log (fx, session_id, "-> 404"));
  g_clear_error (&error);
  /* The transport forgets the dead session. */
  g_assert_null (mcp_http_transport_get_session_id (transport));
  client_close (client);

  fresh = connected_client (fx->url, NULL);
  assert_echo (fresh, "a new session");
  g_assert_cmpstr (mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (mcp_client_get_transport (fresh))),
                   !=, session_id);
  client_close (fresh);
}

/* --require-token T: no token is MCP_ERROR_NEEDS_AUTH with the challenge;
 * a wrong one too, and it never shows; the right header works. */
static void
test_require_token (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(McpClient) wrong = NULL;
  g_autoptr(McpClient) right = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *metadata = NULL;
  const char *wrong_headers[] = { "Authorization: Bearer not-the-secret-token", NULL };
  const char *right_headers[] = { "Authorization: Bearer fixture-token", NULL };

  if (!have_fixture ())
    return;

  fx = fixture_new ("--require-token", "fixture-token", NULL);
  metadata = g_strdup_printf ("http://127.0.0.1:%d/.well-known/oauth-protected-resource", fx->port);

  client = client_new (fx->url, NULL);
  g_assert_false (test_client_connect (client, &error));
  g_test_message ("without a token: %s", error->message);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (error->message, fx->url));
  g_assert_nonnull (strstr (error->message, "resource_metadata"));
  g_assert_nonnull (strstr (error->message, metadata));
  g_assert_nonnull (strstr (mcp_http_transport_get_www_authenticate (MCP_HTTP_TRANSPORT (mcp_client_get_transport (client))),
                            metadata));
  g_clear_error (&error);

  wrong = client_new (fx->url, wrong_headers);
  g_assert_false (test_client_connect (wrong, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_null (strstr (error->message, "not-the-secret-token"));
  g_clear_error (&error);

  right = connected_client (fx->url, right_headers);
  assert_echo (right, "with a token");
  client_close (right);
}

/* --drop-after-bytes: every event stream is cut after a few events, so the
 * slow call's answer comes over several GETs with Last-Event-ID, each
 * progress step exactly once. */
static void
test_drop_resume (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *resume = NULL;
  const char *session_id;
  Progress progress = { 0, 0 };
  McpRequestOptions options = { .progress_func = progress_cb, .progress_data = &progress };

  if (!have_fixture ())
    return;

  fx = fixture_new ("--drop-after-bytes", "400", NULL);
  client = connected_client (fx->url, NULL);
  session_id = mcp_http_transport_get_session_id (MCP_HTTP_TRANSPORT (mcp_client_get_transport (client)));
  resume = g_strdup_printf ("last-event-id=%s-", session_id);

  call_tool_async (client, "slow", "{\"ms\":1500,\"progress_ms\":100}", &options, &result);
  test_wait_result (&result, "the slow call over a cut stream");
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_no_error (error);

  g_assert_nonnull (fixture_wait_log (fx, "cutting an event stream", NULL));
  g_assert_nonnull (fixture_wait_log (fx, resume, "-> 200"));
  g_assert_cmpuint (progress.n, >=, 5);
  text = result_text (tool_result);
  expected = g_strdup_printf ("slow done after %u progress notifications", progress.n);
  g_assert_cmpstr (text, ==, expected);

  assert_echo (client, "still there");
  client_close (client);
}

/* A stream cut before its first event id cannot be resumed: the call fails
 * and says the stream ended before the answer. */
static void
test_drop_before_id (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_fixture ())
    return;

  fx = fixture_new ("--drop-after-bytes", "5", NULL);
  client = connected_client (fx->url, NULL);

  call_tool_async (client, "slow", "{\"ms\":1000,\"progress_ms\":100}", NULL, &result);
  test_wait_result (&result, "the slow call over a stream cut at once");
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_null (tool_result);
  g_test_message ("the call failed with: %s", error->message);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, fx->url));
  g_assert_nonnull (strstr (error->message, "ended before the answer"));
  g_clear_error (&error);

  /* JSON answers are not streams: the session still works. */
  assert_echo (client, "json still works");
  client_close (client);
}

/* plugboard-cli */

static void
run_cli (const char  *url,
         int         *status,
         char       **out,
         char       **err)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_unsetenv (launcher, "MCP_TIMEOUT");
  g_subprocess_launcher_unsetenv (launcher, "MCP_TOOL_TIMEOUT");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, cli_path, "tools", "--http", url, NULL);
  g_assert_no_error (error);

  g_subprocess_communicate_utf8_async (process, NULL, NULL, test_result_cb, &result);
  test_wait_result (&result, "plugboard-cli");
  g_subprocess_communicate_utf8_finish (process, result, out, err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  *status = g_subprocess_get_exit_status (process);
}

static gboolean
have_cli (void)
{
  if (cli_path == NULL || !g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("MCP_TEST_PLUGBOARD_CLI is not set or not built");
      return FALSE;
    }
  return have_fixture ();
}

static void
test_cli_tools (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (!have_cli ())
    return;

  fx = fixture_new (NULL);
  run_cli (fx->url, &status, &out, &err);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "mcp-http-fixture-server 1.0.0"));
  g_assert_nonnull (strstr (out, "2 tools"));
  g_assert_nonnull (strstr (out, "\necho\n"));
  g_assert_nonnull (strstr (out, "\nslow\n"));
}

/* The session expires right after initialize: tools/list is 404 and the
 * command fails with status 3 and one line that says so. */
static void
test_cli_expired (void)
{
  g_autoptr(Fixture) fx = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (!have_cli ())
    return;

  fx = fixture_new ("--expire-session-after", "0", NULL);
  run_cli (fx->url, &status, &out, &err);
  g_test_message ("stderr: %s", err);
  g_assert_cmpint (status, ==, 3);
  g_assert_cmpstr (out, ==, "");
  /* One line. */
  g_assert_true (g_str_has_suffix (err, "\n"));
  g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);
  g_assert_true (g_str_has_prefix (err, "plugboard-cli: "));
  g_assert_nonnull (strstr (err, "tools/list"));
  g_assert_nonnull (strstr (err, "expired"));
  g_assert_nonnull (strstr (err, fx->url));
}

int
main (int   argc,
      char *argv[])
{
  const char *builddir;

  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (30);

  builddir = g_getenv ("G_TEST_BUILDDIR");
  if (builddir != NULL)
    fixture_path = g_build_filename (builddir, "fixtures", "mcp-http-fixture-server", NULL);
  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");

  g_test_add_func ("/http-faults/busy-streams", test_busy_streams);
  g_test_add_func ("/http-faults/kill/mid-call", test_kill_mid_call);
  g_test_add_func ("/http-faults/kill/mid-call-restart", test_kill_mid_call_restart);
  g_test_add_func ("/http-faults/kill/get-stream-restart", test_kill_get_stream_restart);
  g_test_add_func ("/http-faults/kill/get-stream-down", test_kill_get_stream_down);
  g_test_add_func ("/http-faults/session/expire", test_expire_session);
  g_test_add_func ("/http-faults/auth/require-token", test_require_token);
  g_test_add_func ("/http-faults/drop/resume", test_drop_resume);
  g_test_add_func ("/http-faults/drop/before-id", test_drop_before_id);
  g_test_add_func ("/http-faults/cli/tools", test_cli_tools);
  g_test_add_func ("/http-faults/cli/expired", test_cli_expired);

  return g_test_run ();
}
