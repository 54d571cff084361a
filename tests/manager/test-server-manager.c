/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-manager"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-json-private.h"
#include "mcp-server-list.h"
#include "mcp-server-manager.h"
#include "test-engine.h"
#include "test-util.h"

static McpServerConfig *
ws_config (const char *name,
           guint16     port)
{
  g_autofree char *json = g_strdup_printf ("{\"type\":\"ws\",\"url\":\"ws://127.0.0.1:%u\"}", port);

  return test_config_from_json (name, json);
}

static GListStore *
store_of (McpServerConfig *first,
          ...)
{
  GListStore *store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  va_list args;

  va_start (args, first);
  for (McpServerConfig *config = first; config != NULL; config = va_arg (args, McpServerConfig *))
    {
      g_list_store_append (store, config);
      g_object_unref (config);
    }
  va_end (args);

  return store;
}

/* ------------------------------------------------------------------------ */
/* Waiting                                                                  */

static gboolean
client_closed (gpointer data)
{
  return mcp_client_get_state (MCP_CLIENT (data)) == MCP_CLIENT_STATE_CLOSED;
}

static McpServerConnection *
connection_at (McpServerManager *manager,
               guint             position)
{
  g_autoptr(McpServerConnection) connection = g_list_model_get_item (G_LIST_MODEL (manager), position);

  return connection;
}

/* ------------------------------------------------------------------------ */
/* The WebSocket fixture                                                    */

static GSubprocess *
start_ws_fixture (guint16     port,
                  const char *token,
                  guint16    *out_port)
{
  const char *path = g_getenv ("MCP_TEST_WS_FIXTURE_SERVER");
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;
  guint16 listening;

  g_assert_nonnull (path);
  g_ptr_array_add (argv, g_strdup (path));
  g_ptr_array_add (argv, g_strdup_printf ("--port=%u", port));
  if (token != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--token=%s", token));
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);

  /* The fixture says "listening on PORT" first. */
  listening = test_read_listening_port (process);
  if (out_port != NULL)
    *out_port = listening;

  return process;
}

static void
stop_ws_fixture (GSubprocess *process)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_force_exit (process);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------------ */
/* Batching                                                                 */

typedef struct
{
  guint max;
  guint notifications;
} ConnectingWatch;

static void
on_connecting_cb (McpServerManager *manager,
                  GParamSpec       *pspec,
                  ConnectingWatch  *watch)
{
  watch->max = MAX (watch->max, mcp_server_manager_get_connecting (manager));
  watch->notifications++;
}

static void
test_batch_local (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  ConnectingWatch watch = { 0 };

  g_object_set (manager, "local-batch-size", 3, NULL);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("local%u", i);
      g_autoptr(McpServerConfig) config = test_fixture_config (name, NULL);

      g_list_store_append (store, config);
    }

  g_signal_connect (manager, "notify::connecting", G_CALLBACK (on_connecting_cb), &watch);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (manager)), ==, 10);
  test_manager_settle (manager);

  g_assert_cmpuint (watch.max, ==, 3);
  g_assert_cmpuint (watch.notifications, >=, 4);
  g_assert_cmpuint (mcp_server_manager_get_connecting (manager), ==, 0);
  for (guint i = 0; i < 10; i++)
    {
      McpServerConnection *connection = connection_at (manager, i);

      g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
      g_assert_nonnull (mcp_server_connection_get_client (connection));
      g_assert_null (mcp_server_connection_get_error (connection));
      g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 10);
    }

  g_signal_handlers_disconnect_by_data (manager, &watch);
  test_manager_close (manager);
}

static void
test_batch_remote (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_autoptr(GSubprocess) ws = NULL;
  ConnectingWatch watch = { 0 };
  guint16 port = 0;

  ws = start_ws_fixture (0, NULL, &port);
  g_object_set (manager, "remote-batch-size", 2, NULL);
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("remote%u", i);
      g_autoptr(McpServerConfig) config = ws_config (name, port);

      g_list_store_append (store, config);
    }

  g_signal_connect (manager, "notify::connecting", G_CALLBACK (on_connecting_cb), &watch);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);

  g_assert_cmpuint (watch.max, ==, 2);
  for (guint i = 0; i < 6; i++)
    {
      McpServerConnection *connection = connection_at (manager, i);

      g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
      g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), >, 0);
    }

  g_signal_handlers_disconnect_by_data (manager, &watch);
  test_manager_close (manager);
  stop_ws_fixture (ws);
}

/* ------------------------------------------------------------------------ */
/* Memo                                                                     */

/* The last items-changed of a model, and how many there were. */
typedef struct
{
  guint signals;
  guint position;
  guint removed;
  guint added;
} ChangeRecord;

static void
on_items_changed_cb (GListModel   *model,
                     guint         position,
                     guint         removed,
                     guint         added,
                     ChangeRecord *record)
{
  record->signals++;
  record->position = position;
  record->removed = removed;
  record->added = added;
}

static void
assert_change (ChangeRecord *record,
               guint         signals,
               guint         position,
               guint         removed,
               guint         added)
{
  g_assert_cmpuint (record->signals, ==, signals);
  g_assert_cmpuint (record->position, ==, position);
  g_assert_cmpuint (record->removed, ==, removed);
  g_assert_cmpuint (record->added, ==, added);
}

static void
test_memo_reuse_and_replace (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) first = store_of (test_fixture_config ("a", "\"--tools=1\""),
                                          test_fixture_config ("b", NULL), NULL);
  g_autoptr(GListStore) same = store_of (test_fixture_config ("a", "\"--tools=1\""),
                                         test_fixture_config ("b", NULL), NULL);
  g_autoptr(GListStore) changed = store_of (test_fixture_config ("a", "\"--tools=2\""),
                                            test_fixture_config ("b", NULL), NULL);
  g_autoptr(McpServerConnection) a = NULL;
  g_autoptr(McpServerConnection) b = NULL;
  g_autoptr(McpClient) a_client = NULL;
  g_autoptr(McpClient) b_client = NULL;
  McpServerConnection *a2;
  ChangeRecord record = { 0 };

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (first));
  test_manager_settle (manager);
  a = g_object_ref (mcp_server_manager_lookup (manager, "a"));
  b = g_object_ref (mcp_server_manager_lookup (manager, "b"));
  a_client = g_object_ref (mcp_server_connection_get_client (a));
  b_client = g_object_ref (mcp_server_connection_get_client (b));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (a)), ==, 11);

  /* Equal settings in new objects: the same connections, the same sessions,
   * and the list announces no change (rows and the selection stay). */
  g_signal_connect (manager, "items-changed", G_CALLBACK (on_items_changed_cb), &record);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (same));
  assert_change (&record, 0, 0, 0, 0);
  g_assert_true (mcp_server_manager_lookup (manager, "a") == a);
  g_assert_true (mcp_server_manager_lookup (manager, "b") == b);
  g_assert_true (mcp_server_connection_get_client (a) == a_client);
  g_assert_cmpint (mcp_server_connection_get_state (a), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (mcp_server_manager_get_connecting (manager), ==, 0);

  /* Changed arguments: a new connection; the old session is closed. */
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (changed));
  /* Only the changed server's row is replaced. */
  assert_change (&record, 1, 0, 1, 1);
  g_signal_handlers_disconnect_by_data (manager, &record);
  a2 = mcp_server_manager_lookup (manager, "a");
  g_assert_nonnull (a2);
  g_assert_true (a2 != a);
  g_assert_true (mcp_server_manager_lookup (manager, "b") == b);
  g_assert_true (mcp_server_connection_get_client (b) == b_client);
  test_iterate_until (client_closed, a_client, "old client closed");
  test_manager_settle (manager);
  g_assert_cmpint (mcp_server_connection_get_state (a2), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_true (mcp_server_connection_get_client (a2) != a_client);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (a2)), ==, 12);

  test_manager_close (manager);
  g_assert_cmpint (mcp_client_get_state (b_client), ==, MCP_CLIENT_STATE_CLOSED);
}

/* McpServerList reads through its two parts and passes each change on
 * at that part's offset. */
static void
test_server_list_offsets (void)
{
  g_autoptr(GListStore) first = store_of (test_fixture_config ("a", NULL),
                                          test_fixture_config ("b", NULL), NULL);
  g_autoptr(GListStore) second = store_of (test_fixture_config ("c", NULL), NULL);
  g_autoptr(McpServerList) list = mcp_server_list_new (G_LIST_MODEL (first), G_LIST_MODEL (second));
  g_autoptr(McpServerConfig) d = test_fixture_config ("d", NULL);
  g_autoptr(McpServerConfig) third = NULL;
  ChangeRecord record = { 0 };

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);
  third = g_list_model_get_item (G_LIST_MODEL (list), 2);
  g_assert_cmpstr (mcp_server_config_get_name (third), ==, "c");
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (list), 3));

  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_cb), &record);
  g_list_store_append (second, d);
  assert_change (&record, 1, 3, 0, 1);
  g_list_store_remove (first, 0);
  assert_change (&record, 2, 0, 1, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);
  g_list_store_remove (second, 0);
  assert_change (&record, 3, 1, 1, 0);
  g_clear_object (&third);
  third = g_list_model_get_item (G_LIST_MODEL (list), 1);
  g_assert_true (third == d);
}

static void
on_call_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  /* The crash answers nothing: the call fails with the closed connection. */
  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  g_assert_null (tool_result);
  g_assert_nonnull (error);
}

static void
test_cache_drop_on_close (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = store_of (test_fixture_config ("crashy", "\"--stderr-lines=2\""), NULL);
  g_autoptr(GListStore) again = store_of (test_fixture_config ("crashy", "\"--stderr-lines=2\""), NULL);
  g_autoptr(McpServerConnection) connection = NULL;
  g_auto(GStrv) tail = NULL;
  McpServerConnection *fresh;
  const GError *error;

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);
  connection = g_object_ref (mcp_server_manager_lookup (manager, "crashy"));
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 10);

  mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "crash",
                              NULL, NULL, NULL, on_call_cb, NULL);
  test_wait_connection_state (connection, MCP_SERVER_STATE_FAILED);

  error = mcp_server_connection_get_error (connection);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "status 3"));
  g_assert_nonnull (strstr (error->message, "stderr line 1"));
  tail = mcp_server_connection_dup_stderr_tail (connection);
  g_assert_cmpstrv (tail, ((const char *[]) { "stderr line 0", "stderr line 1", NULL }));
  g_assert_null (mcp_server_connection_get_client (connection));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 0);
  /* A stdio server that exits is not reconnected by itself. */
  g_assert_cmpuint (mcp_server_manager_get_connecting (manager), ==, 0);

  /* The memo entry went with it: the same settings make a new connection. */
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (again));
  fresh = mcp_server_manager_lookup (manager, "crashy");
  g_assert_true (fresh != connection);
  test_manager_settle (manager);
  g_assert_cmpint (mcp_server_connection_get_state (fresh), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (fresh)), ==, 10);

  test_manager_close (manager);
}

static void
test_ensure_connected_after_close (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = store_of (test_fixture_config ("crashy", NULL), NULL);
  McpServerConnection *connection;
  TestOutcome first = { 0 };
  TestOutcome second = { 0 };

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "crashy");
  mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "crash",
                              NULL, NULL, NULL, on_call_cb, NULL);
  test_wait_connection_state (connection, MCP_SERVER_STATE_FAILED);

  /* Two callers share one attempt. */
  mcp_server_connection_ensure_connected_async (connection, NULL, test_outcome_cb,
                                                 test_outcome_for (&first, mcp_server_connection_ensure_connected_finish));
  mcp_server_connection_ensure_connected_async (connection, NULL, test_outcome_cb,
                                                 test_outcome_for (&second, mcp_server_connection_ensure_connected_finish));
  g_assert_cmpuint (mcp_server_manager_get_connecting (manager), ==, 1);
  test_iterate_until (test_outcome_done, &first, "first ensure_connected");
  test_iterate_until (test_outcome_done, &second, "second ensure_connected");
  g_assert_no_error (first.error);
  g_assert_no_error (second.error);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 10);

  /* Connected again, it is the memo entry again. */
  {
    g_autoptr(GListStore) same = store_of (test_fixture_config ("crashy", NULL), NULL);

    mcp_server_manager_set_configs (manager, G_LIST_MODEL (same));
    g_assert_true (mcp_server_manager_lookup (manager, "crashy") == connection);
  }

  test_manager_close (manager);
}

/* ------------------------------------------------------------------------ */
/* Disabled, invalid                                                        */

static void
test_disabled (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GString) json = g_string_new ("{\"enabled\":false,\"command\":");
  g_autoptr(GListStore) store = NULL;
  g_autoptr(McpClient) client = NULL;
  McpServerConnection *connection;
  TestOutcome r = { 0 };

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append (json, "}");
  store = store_of (test_config_from_json ("off", json->str), NULL);

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  connection = mcp_server_manager_lookup (manager, "off");
  g_assert_nonnull (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_cmpuint (mcp_server_manager_get_connecting (manager), ==, 0);
  test_manager_settle (manager);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_null (mcp_server_connection_get_client (connection));

  mcp_server_connection_ensure_connected_async (connection, NULL, test_outcome_cb,
                                                 test_outcome_for (&r, mcp_server_connection_ensure_connected_finish));
  test_iterate_until (test_outcome_done, &r, "ensure_connected on a disabled server");
  g_assert_error (r.error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED);
  g_clear_error (&r.error);

  mcp_server_manager_set_server_enabled (manager, "off", TRUE);
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  client = g_object_ref (mcp_server_connection_get_client (connection));

  mcp_server_manager_set_server_enabled (manager, "off", FALSE);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_null (mcp_server_connection_get_client (connection));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 0);
  test_iterate_until (client_closed, client, "disabled server's client closed");

  test_manager_close (manager);
}

static void
test_expansion_failure (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = store_of (test_fixture_config ("unset", "\"${PLUGBOARD_TEST_NOT_SET}\""),
                                          test_fixture_config ("fine", "\"--tools=${N_TOOLS}\""), NULL);
  const char *environ[] = { "N_TOOLS=3", NULL };
  McpServerConnection *unset;
  McpServerConnection *fine;

  g_object_set (manager, "environ", environ, NULL);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);

  unset = mcp_server_manager_lookup (manager, "unset");
  g_assert_cmpint (mcp_server_connection_get_state (unset), ==, MCP_SERVER_STATE_FAILED);
  g_assert_error (mcp_server_connection_get_error (unset), MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (mcp_server_connection_get_error (unset)->message, "PLUGBOARD_TEST_NOT_SET"));
  g_assert_null (mcp_server_connection_get_client (unset));

  fine = mcp_server_manager_lookup (manager, "fine");
  g_assert_cmpint (mcp_server_connection_get_state (fine), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (fine)), ==, 13);

  test_manager_close (manager);
}

static void
test_connect_timeout (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autofree char *sleep_path = g_find_program_in_path ("sleep");
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(GListStore) store = NULL;
  McpServerConnection *connection;

  /* A "server" that never answers initialize. */
  g_assert_nonnull (sleep_path);
  mcp_json_append_string (json, sleep_path);
  g_string_append (json, ",\"args\":[\"60\"]}");
  store = store_of (test_config_from_json ("silent", json->str), test_fixture_config ("quick", NULL), NULL);

  /* long enough for the fixture to start on a loaded machine under
   * AddressSanitizer (300 ms was not), short enough for the test */
  g_object_set (manager, "connect-timeout", 3000, NULL);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);

  connection = mcp_server_manager_lookup (manager, "silent");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_FAILED);
  g_assert_error (mcp_server_connection_get_error (connection), MCP_ERROR, MCP_ERROR_TIMEOUT);
  connection = mcp_server_manager_lookup (manager, "quick");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  test_manager_close (manager);
}

/* ------------------------------------------------------------------------ */
/* Remote                                                                   */

static void
test_needs_auth_cached (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = NULL;
  g_autoptr(GSubprocess) ws = NULL;
  McpServerConnection *connection;
  TestOutcome r = { 0 };
  TestOutcome forced = { 0 };
  guint16 port = 0;

  ws = start_ws_fixture (0, "secret", &port);
  store = store_of (ws_config ("locked", port), NULL);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);

  connection = mcp_server_manager_lookup (manager, "locked");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_NEEDS_AUTH);
  g_assert_error (mcp_server_connection_get_error (connection), MCP_ERROR, MCP_ERROR_NEEDS_AUTH);

  /* With the server gone, an attempt that reached out would fail with a
   * network error; the cached answer is the 401 again. */
  stop_ws_fixture (ws);
  mcp_server_connection_ensure_connected_async (connection, NULL, test_outcome_cb,
                                                 test_outcome_for (&r, mcp_server_connection_ensure_connected_finish));
  test_iterate_until (test_outcome_done, &r, "ensure_connected within the cache time");
  g_assert_error (r.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_NEEDS_AUTH);
  g_assert_cmpuint (mcp_server_manager_get_connecting (manager), ==, 0);
  g_clear_error (&r.error);

  /* The person's reconnect does reach out. */
  mcp_server_connection_reconnect_async (connection, NULL, test_outcome_cb,
                                          test_outcome_for (&forced, mcp_server_connection_reconnect_finish));
  test_iterate_until (test_outcome_done, &forced, "forced reconnect");
  g_assert_nonnull (forced.error);
  g_assert_false (g_error_matches (forced.error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH));
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_FAILED);
  g_clear_error (&forced.error);

  test_manager_close (manager);
}

static void
on_state_failed_cb (McpServerConnection *connection,
                    GParamSpec          *pspec,
                    guint               *failures)
{
  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_FAILED)
    (*failures)++;
}

static gboolean
two_failures (gpointer data)
{
  return *(guint *) data >= 2;
}

static void
test_reconnect_backoff (void)
{
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GListStore) store = NULL;
  g_autoptr(GSubprocess) ws = NULL;
  g_autoptr(GSubprocess) ws_again = NULL;
  g_autoptr(McpClient) old_client = NULL;
  McpServerConnection *connection;
  guint16 port = 0;
  guint16 same_port = 0;
  guint failures = 0;

  g_setenv ("MCP_TEST_BACKOFF_MS", "50", TRUE);
  manager = mcp_server_manager_new ();
  g_unsetenv ("MCP_TEST_BACKOFF_MS");

  ws = start_ws_fixture (0, NULL, &port);
  store = store_of (ws_config ("flaky", port), NULL);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "flaky");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  old_client = g_object_ref (mcp_server_connection_get_client (connection));
  g_signal_connect (connection, "notify::state", G_CALLBACK (on_state_failed_cb), &failures);

  /* The server goes away: failed, listings gone, and it keeps trying. */
  stop_ws_fixture (ws);
  test_wait_connection_state (connection, MCP_SERVER_STATE_FAILED);
  g_assert_null (mcp_server_connection_get_client (connection));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 0);

  /* At least one attempt found nobody there (connection refused). */
  test_iterate_until (two_failures, &failures, "a reconnection attempt that failed");

  /* Back on the same port: connected again after a backoff, a new session. */
  ws_again = start_ws_fixture (port, NULL, &same_port);
  g_assert_cmpuint (same_port, ==, port);
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);
  g_assert_true (mcp_server_connection_get_client (connection) != old_client);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), >, 0);
  g_assert_true (mcp_server_manager_lookup (manager, "flaky") == connection);

  g_signal_handlers_disconnect_by_data (connection, &failures);
  test_manager_close (manager);
  stop_ws_fixture (ws_again);
}

static void
write_lock (const char *directory,
            guint16     port,
            const char *ide_name,
            const char *token)
{
  g_autofree char *name = g_strdup_printf ("%u.lock", port);
  g_autofree char *path = g_build_filename (directory, name, NULL);
  g_autofree char *json = g_strdup_printf ("{\"workspaceFolders\":[\"/tmp\"],\"ideName\":\"%s\","
                                           "\"transport\":\"ws\",\"authToken\":\"%s\"}",
                                           ide_name, token);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
}

static void
test_ide (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = NULL;
  g_autoptr(GSubprocess) ws = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *directory = g_dir_make_tmp ("plugboard-ide-XXXXXX", &error);
  g_autofree char *found = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *empty_dir = NULL;
  McpServerConnection *connection;
  guint16 port = 0;

  g_assert_no_error (error);
  ws = start_ws_fixture (0, "ide-secret", &port);
  write_lock (directory, port, "Test IDE", "ide-secret");

  found = g_strdup_printf ("{\"type\":\"ws-ide\",\"ideLockDir\":\"%s\",\"ideName\":\"Test IDE\"}", directory);
  missing = g_strdup_printf ("{\"type\":\"ws-ide\",\"ideLockDir\":\"%s\",\"ideName\":\"Other IDE\"}", directory);
  empty_dir = g_strdup_printf ("{\"type\":\"ws-ide\",\"ideLockDir\":\"%s/none\"}", directory);
  store = store_of (test_config_from_json ("ide", found), test_config_from_json ("other", missing),
                    test_config_from_json ("none", empty_dir), NULL);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);

  /* The lock file's token opens the door the fixture keeps shut. */
  connection = mcp_server_manager_lookup (manager, "ide");
  g_assert_no_error (mcp_server_connection_get_error (connection));
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), >, 0);

  connection = mcp_server_manager_lookup (manager, "other");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_FAILED);
  g_assert_nonnull (strstr (mcp_server_connection_get_error (connection)->message, "Other IDE"));

  connection = mcp_server_manager_lookup (manager, "none");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_FAILED);
  g_assert_nonnull (strstr (mcp_server_connection_get_error (connection)->message, "no lock file"));

  test_manager_close (manager);
  stop_ws_fixture (ws);
  {
    g_autofree char *name = g_strdup_printf ("%u.lock", port);
    g_autofree char *path = g_build_filename (directory, name, NULL);

    g_assert_cmpint (g_remove (path), ==, 0);
    g_assert_cmpint (g_rmdir (directory), ==, 0);
  }
}

/* ------------------------------------------------------------------------ */
/* Listings                                                                 */

static void
on_tools_changed_cb (McpServerConnection *connection,
                     guint               *count)
{
  (*count)++;
}

static gboolean
two_listings (gpointer data)
{
  return *(guint *) data >= 2;
}

static void
test_list_changed_refresh (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = store_of (test_fixture_config ("changing", "\"--list-changed\""),
                                          test_fixture_config ("steady", NULL), NULL);
  McpServerConnection *changing;
  McpServerConnection *steady;
  guint changing_count = 0;
  guint steady_count = 0;

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  changing = mcp_server_manager_lookup (manager, "changing");
  steady = mcp_server_manager_lookup (manager, "steady");
  g_signal_connect (changing, "tools-changed", G_CALLBACK (on_tools_changed_cb), &changing_count);
  g_signal_connect (steady, "tools-changed", G_CALLBACK (on_tools_changed_cb), &steady_count);
  test_manager_settle (manager);

  /* The first listing, then the one list_changed asked for. */
  test_iterate_until (two_listings, &changing_count, "a second listing");
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (changing)), ==, 10);
  g_assert_cmpuint (steady_count, ==, 1);

  g_signal_handlers_disconnect_by_data (changing, &changing_count);
  g_signal_handlers_disconnect_by_data (steady, &steady_count);
  test_manager_close (manager);
}

static void
test_listing_lru (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  McpServerConnection *first;
  McpServerConnection *second;
  TestOutcome r = { 0 };
  guint with_listing = 0;

  g_object_set (manager, "local-batch-size", 1, NULL);
  for (guint i = 0; i < 21; i++)
    {
      g_autofree char *name = g_strdup_printf ("s%02u", i);
      g_autoptr(McpServerConfig) config = test_fixture_config (name, NULL);

      g_list_store_append (store, config);
    }
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);

  /* One at a time, in order: the first listed is the one evicted. */
  first = connection_at (manager, 0);
  second = connection_at (manager, 1);
  for (guint i = 0; i < 21; i++)
    {
      McpServerConnection *connection = connection_at (manager, i);

      g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
      if (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)) > 0)
        with_listing++;
    }
  g_assert_cmpuint (with_listing, ==, 20);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (first)), ==, 0);
  g_assert_cmpint (mcp_server_connection_get_state (first), ==, MCP_SERVER_STATE_CONNECTED);

  /* On demand it lists again, and the least recently used goes instead. */
  mcp_server_connection_ensure_connected_async (first, NULL, test_outcome_cb,
                                                 test_outcome_for (&r, mcp_server_connection_ensure_connected_finish));
  test_iterate_until (test_outcome_done, &r, "re-listing");
  g_assert_no_error (r.error);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (first)), ==, 10);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (second)), ==, 0);

  test_manager_close (manager);
}

typedef struct
{
  gboolean       done;
  McpToolResult *result;
  GError        *error;
} CallResult;

static gboolean
call_done (gpointer data)
{
  return ((CallResult *) data)->done;
}

static void
on_state_call_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  CallResult *r = user_data;

  r->result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &r->error);
  r->done = TRUE;
}

/* What the fixture's "state" tool says it saw of this connection. */
static JsonNode *
fixture_state (McpServerConnection *connection)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  CallResult r = { 0 };
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *content;
  const char *text;

  g_assert_nonnull (client);
  mcp_client_call_tool_async (client, "state", NULL, NULL, NULL, on_state_call_cb, &r);
  test_iterate_until (call_done, &r, "the state call");
  g_assert_no_error (r.error);
  content = mcp_tool_result_get_content (r.result);
  g_assert_cmpuint (content->len, ==, 1);
  text = mcp_content_get_text (g_ptr_array_index (content, 0));
  g_assert_nonnull (text);
  state = mcp_json_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (state));
  g_clear_object (&r.result);

  return g_steal_pointer (&state);
}

/* How many requests the fixture has seen, its "state" call included; in
 * @probes, how many era probes (server/discover before initialize, not
 * among the requests). */
static gint64
fixture_requests (McpServerConnection *connection,
                  gint64              *probes)
{
  g_autoptr(JsonNode) state = fixture_state (connection);

  *probes = json_object_get_int_member (json_node_get_object (state), "probes");
  return json_object_get_int_member (json_node_get_object (state), "requests");
}

/* The method of the first request the fixture saw. */
static const char *
first_method (JsonNode *state)
{
  JsonArray *methods = json_object_get_array_member (json_node_get_object (state), "methods");

  g_assert_cmpuint (json_array_get_length (methods), >, 0);
  return json_array_get_string_element (methods, 0);
}

/* The first connect probes the era; a reconnect (a new fixture process)
 * remembers it and goes straight to initialize. */
static void
test_era_remembered (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = store_of (test_fixture_config ("legacy", NULL), NULL);
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;
  McpServerConnection *connection;
  TestOutcome r = { 0 };

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "legacy");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (mcp_client_get_era (mcp_server_connection_get_client (connection)), ==,
                   MCP_PROTOCOL_ERA_LEGACY);
  first = fixture_state (connection);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (first), "probes"), ==, 1);
  g_assert_cmpstr (first_method (first), ==, "server/discover");

  mcp_server_connection_reconnect_async (connection, NULL, test_outcome_cb,
                                          test_outcome_for (&r, mcp_server_connection_reconnect_finish));
  test_iterate_until (test_outcome_done, &r, "the reconnect");
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_assert_cmpint (mcp_client_get_era (mcp_server_connection_get_client (connection)), ==,
                   MCP_PROTOCOL_ERA_LEGACY);
  second = fixture_state (connection);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (second), "probes"), ==, 0);
  g_assert_cmpstr (first_method (second), ==, "initialize");

  test_manager_close (manager);
}

static void
test_listing_undeclared (void)
{
  g_autoptr(McpServerManager) manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = store_of (test_fixture_config ("changing", "\"--list-changed\""),
                                          test_fixture_config ("steady", NULL), NULL);
  McpServerConnection *changing;
  McpServerConnection *steady;
  g_autoptr(GListModel) resources = NULL;
  g_autoptr(GListModel) templates = NULL;
  g_autoptr(GListModel) prompts = NULL;
  guint changing_count = 0;
  gint64 probes = -1;

  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  changing = mcp_server_manager_lookup (manager, "changing");
  steady = mcp_server_manager_lookup (manager, "steady");
  g_signal_connect (changing, "tools-changed", G_CALLBACK (on_tools_changed_cb), &changing_count);
  test_manager_settle (manager);
  test_iterate_until (two_listings, &changing_count, "a second listing");

  for (guint i = 0; i < 2; i++)
    {
      McpServerConnection *connection = i == 0 ? steady : changing;

      g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
      g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_tools (connection)), ==, 10);
      g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resources (connection)), ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_resource_templates (connection)), ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (mcp_server_connection_get_prompts (connection)), ==, 0);
    }

  /* The properties are the same models, typed. */
  g_object_get (steady, "resources", &resources, "resource-templates", &templates,
                "prompts", &prompts, NULL);
  g_assert_true (resources == mcp_server_connection_get_resources (steady));
  g_assert_true (templates == mcp_server_connection_get_resource_templates (steady));
  g_assert_true (prompts == mcp_server_connection_get_prompts (steady));
  g_assert_true (g_list_model_get_item_type (resources) == MCP_TYPE_RESOURCE);
  g_assert_true (g_list_model_get_item_type (templates) == MCP_TYPE_RESOURCE_TEMPLATE);
  g_assert_true (g_list_model_get_item_type (prompts) == MCP_TYPE_PROMPT);

  /* The fixture declares neither resources nor prompts: initialize,
   * tools/list and the state call, nothing else; its resources and prompts
   * list_changed only list the tools again. Before initialize, the one
   * era probe that found it of the handshake era. */
  g_assert_cmpint (fixture_requests (steady, &probes), ==, 3);
  g_assert_cmpint (probes, ==, 1);
  g_assert_cmpint (fixture_requests (changing, &probes), ==, 4);
  g_assert_cmpint (probes, ==, 1);

  g_signal_handlers_disconnect_by_data (changing, &changing_count);
  test_manager_close (manager);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/batch/local", test_batch_local);
  g_test_add_func ("/manager/server-list/offsets", test_server_list_offsets);
  g_test_add_func ("/manager/batch/remote", test_batch_remote);
  g_test_add_func ("/manager/memo/reuse-and-replace", test_memo_reuse_and_replace);
  g_test_add_func ("/manager/close/cache-drop", test_cache_drop_on_close);
  g_test_add_func ("/manager/close/ensure-connected", test_ensure_connected_after_close);
  g_test_add_func ("/manager/disabled", test_disabled);
  g_test_add_func ("/manager/expansion-failure", test_expansion_failure);
  g_test_add_func ("/manager/connect-timeout", test_connect_timeout);
  g_test_add_func ("/manager/needs-auth/cached", test_needs_auth_cached);
  g_test_add_func ("/manager/reconnect/backoff", test_reconnect_backoff);
  g_test_add_func ("/manager/ide/lock-file", test_ide);
  g_test_add_func ("/manager/listing/list-changed", test_list_changed_refresh);
  g_test_add_func ("/manager/listing/lru", test_listing_lru);
  g_test_add_func ("/manager/listing/undeclared", test_listing_undeclared);
  g_test_add_func ("/manager/era/remembered", test_era_remembered);

  return g_test_run ();
}
