/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-redirect-listener"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-error.h"
#include "mcp-oauth-redirect-listener.h"
#include "test-util.h"

/* McpOAuthRedirectListener driven by a SoupSession playing the browser. */

#define STATE "s7aTe-xyz"

/* The browser */

typedef struct
{
  gboolean  done;
  guint     status;
  char     *body;
  GError   *error;
} Fetch;

static void
fetch_clear (Fetch *fetch)
{
  g_clear_pointer (&fetch->body, g_free);
  g_clear_error (&fetch->error);
  memset (fetch, 0, sizeof *fetch);
}

static void
fetch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Fetch *fetch = user_data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &fetch->error);

  if (bytes != NULL)
    {
      fetch->status = soup_message_get_status (msg);
      fetch->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
  fetch->done = TRUE;
}

static void
fetch_start (SoupSession *session,
             guint        port,
             const char  *path_and_query,
             Fetch       *fetch)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u%s", port, path_and_query);
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, url);

  g_assert_nonnull (msg);
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, fetch_cb, fetch);
}

static void
fetch_sync (SoupSession *session,
            guint        port,
            const char  *path_and_query,
            Fetch       *fetch)
{
  fetch_start (session, port, path_and_query, fetch);
  test_iterate_until (test_flag_set, &fetch->done, path_and_query);
}

/* The wait */

typedef struct
{
  gboolean  done;
  char     *code;
  char     *iss;
  GError   *error;
} Wait;

static void
wait_clear (Wait *wait)
{
  g_clear_pointer (&wait->code, g_free);
  g_clear_pointer (&wait->iss, g_free);
  g_clear_error (&wait->error);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->code = mcp_oauth_redirect_listener_wait_finish (MCP_OAUTH_REDIRECT_LISTENER (object), result,
                                                        &wait->iss, &wait->error);
  g_assert_true ((wait->code == NULL) != (wait->error == NULL));
  wait->done = TRUE;
}

typedef struct
{
  gboolean done;
  gboolean held;
} Answer;

static void
answer_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Answer *answer = user_data;
  g_autoptr(GError) error = NULL;

  answer->held = mcp_oauth_redirect_listener_answer_finish (MCP_OAUTH_REDIRECT_LISTENER (object),
                                                            result, &error);
  g_assert_no_error (error);
  answer->done = TRUE;
}

/* Says how the sign-in ended; TRUE when a page was held for it. */
static gboolean
answer_sync (McpOAuthRedirectListener *listener,
             const GError             *failure)
{
  Answer answer = { 0 };

  mcp_oauth_redirect_listener_answer_async (listener, failure, answer_cb, &answer);
  test_iterate_until (test_flag_set, &answer.done, "answer");
  return answer.held;
}

/* Iterates for @ms: what should not happen in that time. */
static void
iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static McpOAuthRedirectListener *
new_listener (void)
{
  g_autoptr(GError) error = NULL;
  McpOAuthRedirectListener *listener = mcp_oauth_redirect_listener_new (0, STATE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (listener);
  return listener;
}

static void
assert_port_closed (guint port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, &error);
  g_assert_null (connection);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
}

static void
assert_port_open (const char *host,
                  guint       port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  connection = g_socket_client_connect_to_host (client, host, port, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (connection);
}

static void
test_success (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *expected_uri = NULL;
  Fetch fetch = { 0 };
  Wait wait = { 0 };
  guint port;

  port = mcp_oauth_redirect_listener_get_port (listener);
  g_assert_cmpuint (port, >, 0);
  g_assert_cmpuint (port, <=, G_MAXUINT16);
  expected_uri = g_strdup_printf ("http://127.0.0.1:%u/callback", port);
  g_assert_cmpstr (mcp_oauth_redirect_listener_get_redirect_uri (listener), ==, expected_uri);

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);
  fetch_start (session, port,
               "/callback?code=the-c%C3%B6de&state=" STATE "&iss=https%3A%2F%2Fas.example.com%2F",
               &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");

  g_assert_no_error (wait.error);
  g_assert_cmpstr (wait.code, ==, "the-cöde");
  g_assert_cmpstr (wait.iss, ==, "https://as.example.com/");

  /* Issue 20: no "Signed in" while the code is not yet stored tokens. */
  iterate_for (300);
  g_assert_false (fetch.done);
  g_assert_true (answer_sync (listener, NULL));
  test_iterate_until (test_flag_set, &fetch.done, "fetch");
  g_assert_nonnull (strstr (fetch.body, "<h1>Signed in</h1>"));
  g_assert_nonnull (strstr (fetch.body, "received and stored"));

  /* The browser got the whole page, though the server is gone now. */
  g_assert_no_error (fetch.error);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);
  g_assert_nonnull (strstr (fetch.body, "<title>Plugboard</title>"));
  g_assert_nonnull (strstr (fetch.body, "You can close this tab."));
  g_assert_null (strstr (fetch.body, "the-c"));

  /* The server stops at the next idle after the page went out. */
  iterate_for (100);
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

static void
test_no_iss (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);
  fetch_start (session, mcp_oauth_redirect_listener_get_port (listener),
               "/callback?state=" STATE "&code=abc", &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");
  answer_sync (listener, NULL);
  test_iterate_until (test_flag_set, &fetch.done, "fetch");

  g_assert_no_error (wait.error);
  g_assert_cmpstr (wait.code, ==, "abc");
  g_assert_null (wait.iss);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

static void
test_wrong_state (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);

  fetch_sync (session, port, "/callback?code=evil&state=not-" STATE, &fetch);
  g_assert_no_error (fetch.error);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_BAD_REQUEST);
  g_assert_nonnull (strstr (fetch.body, "<title>Plugboard</title>"));
  fetch_clear (&fetch);

  fetch_sync (session, port, "/callback?code=evil", &fetch);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_BAD_REQUEST);
  fetch_clear (&fetch);

  fetch_sync (session, port, "/elsewhere?code=evil&state=" STATE, &fetch);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_NOT_FOUND);
  fetch_clear (&fetch);

  fetch_sync (session, port, "/callback/more?code=evil&state=" STATE, &fetch);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_NOT_FOUND);
  fetch_clear (&fetch);

  /* None of that ended the wait. */
  g_main_context_iteration (NULL, FALSE);
  g_assert_false (wait.done);

  fetch_start (session, port, "/callback?code=good&state=" STATE, &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");
  answer_sync (listener, NULL);
  test_iterate_until (test_flag_set, &fetch.done, "fetch");
  g_assert_no_error (wait.error);
  g_assert_cmpstr (wait.code, ==, "good");
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);
  iterate_for (100);
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

static void
test_access_denied (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);
  fetch_start (session, port,
               "/callback?error=access_denied&error_description=The+user+said+%3Cb%3Eno%3C%2Fb%3E"
               "&state=" STATE,
               &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");
  test_iterate_until (test_flag_set, &fetch.done, "fetch");

  g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (wait.error->message, "access_denied"));
  g_assert_nonnull (strstr (wait.error->message, "The user said <b>no</b>"));
  g_assert_null (wait.code);

  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);
  g_assert_nonnull (strstr (fetch.body, "The user said &lt;b&gt;no&lt;/b&gt;"));
  g_assert_null (strstr (fetch.body, "<b>no"));
  g_assert_nonnull (strstr (fetch.body, "You can close this tab."));
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

/* RFC 9207 as 2026-07-28 applies it: one answer of @query to a listener
 * that expects ISSUER; returns the wait's outcome in @wait. */
#define ISSUER "https://as.example.com"

static void
answer_expecting_issuer (gboolean    required,
                         const char *query,
                         Wait       *wait,
                         Fetch      *fetch)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);

  mcp_oauth_redirect_listener_expect_issuer (listener, ISSUER, required);
  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, wait);
  fetch_start (session, port, query, fetch);
  test_iterate_until (test_flag_set, &wait->done, "wait");
  /* A code is answered once the sign-in is done; a refusal at once. */
  g_assert_true (answer_sync (listener, NULL) == (wait->code != NULL));
  test_iterate_until (test_flag_set, &fetch->done, "fetch");
  g_assert_cmpuint (fetch->status, ==, SOUP_STATUS_OK);
  iterate_for (100);
  assert_port_closed (port);
}

static void
test_issuer_checked (void)
{
  struct {
    gboolean    required;
    const char *query;
    const char *expected;  /* NULL: the code is taken */
  } cases[] = {
    { TRUE, "/callback?code=abc&state=" STATE "&iss=https%3A%2F%2Fas.example.com", NULL },
    { FALSE, "/callback?code=abc&state=" STATE "&iss=https%3A%2F%2Fas.example.com", NULL },
    { FALSE, "/callback?code=abc&state=" STATE, NULL },
    /* Present: compared whether promised or not; no normalization. */
    { TRUE, "/callback?code=abc&state=" STATE "&iss=https%3A%2F%2Fevil.example", "names “https://evil.example” as its issuer" },
    { FALSE, "/callback?code=abc&state=" STATE "&iss=https%3A%2F%2Fevil.example", "names “https://evil.example” as its issuer" },
    { TRUE, "/callback?code=abc&state=" STATE "&iss=https%3A%2F%2Fas.example.com%2F", "names “https://as.example.com/” as its issuer" },
    { TRUE, "/callback?code=abc&state=" STATE "&iss=HTTPS%3A%2F%2FAS.example.com", "names “HTTPS://AS.example.com” as its issuer" },
    { TRUE, "/callback?code=abc&state=" STATE "&iss=https%3A%2F%2Fas.example.com%3A443", "as its issuer" },
    /* Promised but absent. */
    { TRUE, "/callback?code=abc&state=" STATE, "does not name its issuer" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Fetch fetch = { 0 };
      Wait wait = { 0 };

      answer_expecting_issuer (cases[i].required, cases[i].query, &wait, &fetch);
      if (cases[i].expected == NULL)
        {
          g_assert_no_error (wait.error);
          g_assert_cmpstr (wait.code, ==, "abc");
        }
      else
        {
          g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
          g_test_message ("%s", wait.error->message);
          g_assert_nonnull (strstr (wait.error->message, cases[i].expected));
          g_assert_nonnull (strstr (wait.error->message, "“" ISSUER "”"));
          g_assert_null (wait.code);
          g_assert_nonnull (strstr (fetch.body, "Sign-in refused"));
        }
      fetch_clear (&fetch);
      wait_clear (&wait);
    }
}

/* An error answer from another issuer is neither acted on nor shown. */
static void
test_issuer_checked_on_error (void)
{
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  answer_expecting_issuer (FALSE,
                           "/callback?error=access_denied&error_description=Call+evil.example+now"
                           "&state=" STATE "&iss=https%3A%2F%2Fevil.example",
                           &wait, &fetch);
  g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (wait.error->message, "“https://evil.example” as its issuer"));
  g_assert_null (strstr (wait.error->message, "access_denied"));
  g_assert_null (strstr (wait.error->message, "Call evil"));
  g_assert_null (strstr (fetch.body, "access_denied"));
  g_assert_null (strstr (fetch.body, "Call evil"));
  fetch_clear (&fetch);
  wait_clear (&wait);
  fetch = (Fetch) { 0 };
  wait = (Wait) { 0 };

  /* From the right one, it is shown as before. */
  answer_expecting_issuer (TRUE,
                           "/callback?error=access_denied&state=" STATE "&iss=https%3A%2F%2Fas.example.com",
                           &wait, &fetch);
  g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (wait.error->message, "access_denied"));
  fetch_clear (&fetch);
  wait_clear (&wait);
}

static void
test_missing_code (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);
  fetch_start (session, port, "/callback?state=" STATE, &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");
  test_iterate_until (test_flag_set, &fetch.done, "fetch");

  g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_nonnull (strstr (wait.error->message, mcp_oauth_redirect_listener_get_redirect_uri (listener)));
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);
  g_assert_nonnull (strstr (fetch.body, "You can close this tab."));
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

static void
test_timeout (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Wait wait = { 0 };
  gint64 start = g_get_monotonic_time ();

  assert_port_open ("127.0.0.1", port);
  mcp_oauth_redirect_listener_wait_async (listener, 1, NULL, wait_cb, &wait);
  test_iterate_until (test_flag_set, &wait.done, "wait");

  g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_cmpstr (wait.error->message, ==,
                   "No answer from the browser within 1 s; sign-in was abandoned");
  g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC / 2);
  assert_port_closed (port);

  wait_clear (&wait);
}

/* A timeout after a refused answer says so. */
static void
test_timeout_after_wrong_state (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 1, NULL, wait_cb, &wait);
  fetch_sync (session, port, "/callback?code=stale&state=old-" STATE, &fetch);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_BAD_REQUEST);
  test_iterate_until (test_flag_set, &wait.done, "wait");

  g_assert_error (wait.error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_true (g_str_has_prefix (wait.error->message,
                                   "No answer from the browser within 1 s; sign-in was abandoned"));
  g_assert_nonnull (strstr (wait.error->message, "state"));
  g_assert_null (strstr (wait.error->message, "stale"));
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 0, cancellable, wait_cb, &wait);
  g_timeout_add (50, cancel_cb, cancellable);
  test_iterate_until (test_flag_set, &wait.done, "wait");

  g_assert_error (wait.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_port_closed (port);

  wait_clear (&wait);
}

static void
test_stop (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 0, NULL, wait_cb, &wait);
  mcp_oauth_redirect_listener_stop (listener);
  mcp_oauth_redirect_listener_stop (listener);
  test_iterate_until (test_flag_set, &wait.done, "wait");

  g_assert_error (wait.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_port_closed (port);

  wait_clear (&wait);
}

static void
test_port_in_use (void)
{
  g_autoptr(McpOAuthRedirectListener) first = new_listener ();
  g_autoptr(McpOAuthRedirectListener) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port_text = NULL;
  guint port = mcp_oauth_redirect_listener_get_port (first);

  second = mcp_oauth_redirect_listener_new (port, STATE, &error);
  g_assert_null (second);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE);
  port_text = g_strdup_printf ("%u", port);
  g_assert_nonnull (strstr (error->message, port_text));

  /* A given free port is used as given. */
  mcp_oauth_redirect_listener_stop (first);
  g_clear_error (&error);
  second = mcp_oauth_redirect_listener_new (port, STATE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_oauth_redirect_listener_get_port (second), ==, port);
}

static void
test_loopback_only (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  guint port = mcp_oauth_redirect_listener_get_port (listener);

  g_assert_true (g_str_has_prefix (mcp_oauth_redirect_listener_get_redirect_uri (listener),
                                   "http://127.0.0.1:"));
  assert_port_open ("127.0.0.1", port);

  /* Another loopback address reaches the same host, but not a socket bound
   * to 127.0.0.1 alone (as one bound to 0.0.0.0 would be). */
  connection = g_socket_client_connect_to_host (client, "127.0.0.2", port, NULL, &error);
  g_assert_null (connection);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  g_clear_error (&error);

  connection = g_socket_client_connect_to_host (client, "::1", port, NULL, &error);
  g_assert_null (connection);
  g_assert_nonnull (error);
}

static void
test_answer_before_wait (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  fetch_start (session, port, "/callback?state=" STATE "&code=early", &fetch);
  iterate_for (300);
  g_assert_false (fetch.done);

  mcp_oauth_redirect_listener_wait_async (listener, 5, NULL, wait_cb, &wait);
  test_iterate_until (test_flag_set, &wait.done, "wait");
  g_assert_no_error (wait.error);
  g_assert_cmpstr (wait.code, ==, "early");

  g_assert_true (answer_sync (listener, NULL));
  test_iterate_until (test_flag_set, &fetch.done, "fetch");
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);
  iterate_for (100);
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

/* Issue 20: a token exchange (or its storage) that fails after the code
 * came is what the browser's page says; never "Signed in". */
static void
test_failure_after_code (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) failure = NULL;
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);
  fetch_start (session, port, "/callback?state=" STATE "&code=abc", &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");
  g_assert_cmpstr (wait.code, ==, "abc");

  failure = g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                 "Token request at “http://127.0.0.1/token” failed: HTTP 400, "
                                 "error “invalid_grant”\x1b[2J <b>");
  g_assert_true (answer_sync (listener, failure));
  test_iterate_until (test_flag_set, &fetch.done, "fetch");
  g_assert_no_error (fetch.error);
  g_assert_cmpuint (fetch.status, ==, SOUP_STATUS_OK);
  g_assert_nonnull (strstr (fetch.body, "<h1>Sign-in failed</h1>"));
  g_assert_nonnull (strstr (fetch.body, "invalid_grant"));
  g_assert_nonnull (strstr (fetch.body, "&lt;b&gt;"));
  g_assert_null (strstr (fetch.body, "Signed in"));
  g_assert_null (strstr (fetch.body, "\x1b"));

  /* Answered once: a second answer has no page to say anything on. */
  g_assert_false (answer_sync (listener, NULL));
  iterate_for (100);
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

/* Stopped while the page is held (the sign-in was cancelled): the page
 * says so instead of hanging or saying "Signed in". */
static void
test_stop_while_held (void)
{
  g_autoptr(McpOAuthRedirectListener) listener = new_listener ();
  g_autoptr(SoupSession) session = soup_session_new ();
  guint port = mcp_oauth_redirect_listener_get_port (listener);
  Fetch fetch = { 0 };
  Wait wait = { 0 };

  mcp_oauth_redirect_listener_wait_async (listener, 30, NULL, wait_cb, &wait);
  fetch_start (session, port, "/callback?state=" STATE "&code=abc", &fetch);
  test_iterate_until (test_flag_set, &wait.done, "wait");

  mcp_oauth_redirect_listener_stop (listener);
  g_clear_object (&listener);
  test_iterate_until (test_flag_set, &fetch.done, "fetch");
  if (fetch.error == NULL)
    {
      g_assert_nonnull (strstr (fetch.body, "Sign-in stopped"));
      g_assert_null (strstr (fetch.body, "Signed in"));
    }
  assert_port_closed (port);

  fetch_clear (&fetch);
  wait_clear (&wait);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  test_set_hang_bound (20);

  g_test_add_func ("/auth/redirect-listener/success", test_success);
  g_test_add_func ("/auth/redirect-listener/no-iss", test_no_iss);
  g_test_add_func ("/auth/redirect-listener/wrong-state", test_wrong_state);
  g_test_add_func ("/auth/redirect-listener/access-denied", test_access_denied);
  g_test_add_func ("/auth/redirect-listener/missing-code", test_missing_code);
  g_test_add_func ("/auth/redirect-listener/timeout", test_timeout);
  g_test_add_func ("/auth/redirect-listener/timeout-after-wrong-state", test_timeout_after_wrong_state);
  g_test_add_func ("/auth/redirect-listener/cancel", test_cancel);
  g_test_add_func ("/auth/redirect-listener/stop", test_stop);
  g_test_add_func ("/auth/redirect-listener/port-in-use", test_port_in_use);
  g_test_add_func ("/auth/redirect-listener/loopback-only", test_loopback_only);
  g_test_add_func ("/auth/redirect-listener/answer-before-wait", test_answer_before_wait);
  g_test_add_func ("/auth/redirect-listener/failure-after-code", test_failure_after_code);
  g_test_add_func ("/auth/redirect-listener/stop-while-held", test_stop_while_held);
  g_test_add_func ("/auth/redirect-listener/2026-07-28/issuer-checked", test_issuer_checked);
  g_test_add_func ("/auth/redirect-listener/2026-07-28/issuer-checked-on-error", test_issuer_checked_on_error);

  return g_test_run ();
}
