/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-connection-log"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-server-connection-private.h"
#include "mcp-server-manager.h"
#include "mcp-trace.h"
#include "test-engine.h"
#include "test-util.h"

/* A manager with the one server @config (transfer full), settled. */
static McpServerManager *
manager_with (McpServerConfig *config)
{
  g_autoptr(McpServerConfig) owned = config;
  McpServerManager *manager = mcp_server_manager_new ();
  g_autoptr(GListStore) store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);

  g_list_store_append (store, config);
  mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  return manager;
}

/* ------------------------------------------------------------------------ */
/* Waiting                                                                  */

static void
on_tool_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  TestOutcome *r = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &r->error);
  r->ok = tool_result != NULL;
  r->done = TRUE;
}

static void
call_stderr_tool (McpServerConnection *connection,
                  const char          *text)
{
  g_autoptr(JsonObject) args = json_object_new ();
  TestOutcome r = { 0 };

  json_object_set_string_member (args, "text", text);
  mcp_client_call_tool_async (mcp_server_connection_get_client (connection), "stderr",
                              args, NULL, NULL, on_tool_cb, &r);
  test_iterate_until (test_outcome_done, &r, "stderr tool");
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
}

/* ------------------------------------------------------------------------ */
/* Reading the log                                                          */

static McpLogEntry *
entry_at (GListModel *log,
          guint       position)
{
  g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, position);

  g_assert_nonnull (entry);
  return entry;
}

/* The texts of the entries of @kind, oldest first. */
static GStrv
texts_of_kind (GListModel      *log,
               McpLogEntryKind  kind)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      McpLogEntry *entry = entry_at (log, i);

      if (mcp_log_entry_get_kind (entry) == kind)
        g_strv_builder_add (builder, mcp_log_entry_get_text (entry));
    }

  return g_strv_builder_end (builder);
}

static int
find_text (GListModel      *log,
           McpLogEntryKind  kind,
           const char      *text,
           guint            from)
{
  for (guint i = from; i < g_list_model_get_n_items (log); i++)
    {
      McpLogEntry *entry = entry_at (log, i);

      if (mcp_log_entry_get_kind (entry) == kind &&
          g_strcmp0 (mcp_log_entry_get_text (entry), text) == 0)
        return (int) i;
    }

  return -1;
}

typedef struct
{
  GListModel      *log;
  McpLogEntryKind  kind;
  const char      *text;
} TextWait;

static gboolean
text_logged (gpointer data)
{
  TextWait *wait = data;

  return find_text (wait->log, wait->kind, wait->text, 0) >= 0;
}

static void
wait_logged (GListModel      *log,
             McpLogEntryKind  kind,
             const char      *text)
{
  TextWait wait = { log, kind, text };

  test_iterate_until (text_logged, &wait, text);
}

static void
assert_times_in_order (GListModel *log)
{
  gint64 last = 0;

  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      gint64 time = mcp_log_entry_get_time (entry_at (log, i));

      g_assert_cmpint (time, >=, last);
      last = time;
    }
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

static void
test_entry (void)
{
  g_autoptr(McpLogEntry) entry = NULL;
  g_autoptr(McpLogEntry) fixed = NULL;
  g_autoptr(GDateTime) date_time = NULL;
  g_autofree char *line = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  gint64 before = g_get_real_time ();
  gint64 time;
  int kind;

  entry = mcp_log_entry_new (MCP_LOG_ENTRY_STDERR, "hello");
  g_assert_cmpint (mcp_log_entry_get_kind (entry), ==, MCP_LOG_ENTRY_STDERR);
  g_assert_cmpstr (mcp_log_entry_get_text (entry), ==, "hello");
  g_assert_cmpint (mcp_log_entry_get_time (entry), >=, before);
  g_assert_cmpint (mcp_log_entry_get_time (entry), <=, g_get_real_time ());
  line = mcp_log_entry_format (entry);
  g_assert_true (g_regex_match_simple ("^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\\.[0-9]{3}  \\[stderr\\] hello$",
                                       line, 0, 0));

  /* A fixed time, in local time, with its milliseconds. */
  date_time = g_date_time_new_local (2024, 3, 5, 7, 8, 9);
  time = g_date_time_to_unix (date_time) * G_USEC_PER_SEC + 42999;
  fixed = g_object_new (MCP_TYPE_LOG_ENTRY,
                        "time", time,
                        "kind", MCP_LOG_ENTRY_NOTIFICATION,
                        "text", "notifications/tools/list_changed",
                        NULL);
  g_object_get (fixed, "time", &time, "kind", &kind, "text", &text, NULL);
  g_assert_cmpint (kind, ==, MCP_LOG_ENTRY_NOTIFICATION);
  g_assert_cmpstr (text, ==, "notifications/tools/list_changed");
  g_clear_pointer (&line, g_free);
  line = mcp_log_entry_format (fixed);
  g_assert_cmpstr (line, ==, "07:08:09.042  [notification] notifications/tools/list_changed");

  g_clear_object (&entry);
  entry = mcp_log_entry_new (MCP_LOG_ENTRY_STATE, "Disabled");
  g_clear_pointer (&line, g_free);
  line = mcp_log_entry_format (entry);
  expected = g_strdup_printf ("%.12s  [state] Disabled", line);
  g_assert_cmpstr (line, ==, expected);
}

static void
test_stderr_in_order (void)
{
  g_autoptr(McpServerManager) manager = manager_with (test_fixture_config ("s", "\"--stderr-lines=3\""));
  McpServerConnection *connection;
  g_autoptr(GListModel) log = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *formatted = NULL;
  int position;

  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "s");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  g_object_get (connection, "log", &log, NULL);
  g_assert_true (log == mcp_server_connection_get_log (connection));
  g_assert_true (g_list_model_get_item_type (log) == MCP_TYPE_LOG_ENTRY);

  wait_logged (log, MCP_LOG_ENTRY_STDERR, "stderr line 2");
  call_stderr_tool (connection, "written by the tool");
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "written by the tool");

  lines = texts_of_kind (log, MCP_LOG_ENTRY_STDERR);
  g_assert_cmpstrv (lines, ((const char *[]) { "stderr line 0", "stderr line 1", "stderr line 2",
                                               "written by the tool", NULL }));
  position = find_text (log, MCP_LOG_ENTRY_STDERR, "written by the tool", 0);
  formatted = mcp_log_entry_format (entry_at (log, position));
  g_assert_true (g_str_has_suffix (formatted, "  [stderr] written by the tool"));
  assert_times_in_order (log);

  test_manager_close (manager);
}

static void
test_notifications (void)
{
  g_autoptr(McpServerManager) manager = manager_with (test_fixture_config ("n", "\"--list-changed\""));
  McpServerConnection *connection;
  GListModel *log;
  g_auto(GStrv) texts = NULL;
  g_autofree char *formatted = NULL;
  McpLogEntry *entry;
  int position;

  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "n");
  log = mcp_server_connection_get_log (connection);
  wait_logged (log, MCP_LOG_ENTRY_NOTIFICATION, "notifications/prompts/list_changed");

  texts = texts_of_kind (log, MCP_LOG_ENTRY_NOTIFICATION);
  g_assert_cmpuint (g_strv_length (texts), ==, 3);
  g_assert_cmpstr (texts[0], ==, "notifications/tools/list_changed");
  g_assert_cmpstr (texts[1], ==, "notifications/resources/list_changed");
  g_assert_cmpstr (texts[2], ==, "notifications/prompts/list_changed");

  /* notifications/message is an entry of its own, with level and logger. */
  wait_logged (log, MCP_LOG_ENTRY_MESSAGE, "info fixture: hello");
  position = find_text (log, MCP_LOG_ENTRY_MESSAGE, "info fixture: hello", 0);
  g_assert_cmpint (position, >=, 0);
  entry = entry_at (log, position);
  g_assert_cmpstr (mcp_log_entry_get_level (entry), ==, "info");
  g_assert_cmpstr (mcp_log_entry_get_logger (entry), ==, "fixture");
  formatted = mcp_log_entry_format (entry);
  g_assert_true (g_str_has_suffix (formatted, "  [message] info fixture: hello"));
  g_assert_null (mcp_log_entry_get_level (entry_at (log, find_text (log, MCP_LOG_ENTRY_NOTIFICATION,
                                                                    "notifications/tools/list_changed", 0))));

  test_manager_close (manager);
}

/* A server in sh that answers initialize and tools/list, and after
 * initialized sends a notifications/message with $1 as its data. */
static const char long_notification_server[] =
  "while IFS= read -r line; do\n"
  "  id=$(printf '%s' \"$line\" | sed -n 's/.*\"id\":\\([0-9][0-9]*\\).*/\\1/p')\n"
  "  case \"$line\" in\n"
  "  *'\"initialize\"'*)\n"
  "    printf '{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"2025-11-25\","
  "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}\\n' \"$id\" ;;\n"
  "  *notifications/initialized*)\n"
  "    printf '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
  "\"params\":{\"level\":\"info\",\"data\":\"%s\"}}\\n' \"$1\" ;;\n"
  "  *'\"tools/list\"'*)\n"
  "    printf '{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[]}}\\n' \"$id\" ;;\n"
  "  *)\n"
  "    if [ -n \"$id\" ]; then\n"
  "      printf '{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"no\"}}\\n' \"$id\"\n"
  "    fi ;;\n"
  "  esac\n"
  "done\n";

static gboolean
has_notification (gpointer data)
{
  g_auto(GStrv) texts = texts_of_kind (G_LIST_MODEL (data), MCP_LOG_ENTRY_MESSAGE);

  return texts[0] != NULL;
}

static void
test_notification_cut (void)
{
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GString) json = g_string_new ("{\"command\":\"/bin/sh\",\"args\":[\"-c\",");
  g_autoptr(GString) data = g_string_new (NULL);
  McpServerConnection *connection;
  GListModel *log;
  g_auto(GStrv) texts = NULL;

  /* Two-byte characters, so that a cut in the middle of one would show. */
  for (guint i = 0; i < 3000; i++)
    g_string_append (data, "é");

  mcp_json_append_string (json, long_notification_server);
  g_string_append (json, ",\"sh\",");
  mcp_json_append_string (json, data->str);
  g_string_append (json, "]}");
  manager = manager_with (test_config_from_json ("long", json->str));
  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "long");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  log = mcp_server_connection_get_log (connection);

  test_iterate_until (has_notification, log, "the long notification");
  texts = texts_of_kind (log, MCP_LOG_ENTRY_MESSAGE);
  g_assert_cmpuint (g_strv_length (texts), ==, 1);
  g_assert_true (g_utf8_validate (texts[0], -1, NULL));
  g_assert_cmpint (g_utf8_strlen (texts[0], -1), ==, 2000);
  g_assert_true (g_str_has_prefix (texts[0], "info: éé"));
  g_assert_true (g_str_has_suffix (texts[0], "éé…"));

  test_manager_close (manager);
}

static void
test_states (void)
{
  g_autoptr(McpServerManager) manager = manager_with (test_fixture_config ("st", NULL));
  g_autoptr(McpServerManager) failing = manager_with (test_fixture_config ("bad", "\"--exit-at-start=3\""));
  McpServerConnection *connection;
  McpServerConnection *bad;
  GListModel *log;
  g_auto(GStrv) states = NULL;
  g_auto(GStrv) bad_states = NULL;

  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "st");
  log = mcp_server_connection_get_log (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  mcp_server_manager_set_server_enabled (manager, "st", FALSE);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_DISABLED);
  mcp_server_manager_set_server_enabled (manager, "st", TRUE);
  test_wait_connection_state (connection, MCP_SERVER_STATE_CONNECTED);

  /* The private sign-out puts it in needs-auth with its message. */
  mcp_server_connection_set_signed_out (connection);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_NEEDS_AUTH);

  states = texts_of_kind (log, MCP_LOG_ENTRY_STATE);
  g_assert_cmpstrv (states, ((const char *[]) {
                               "Connecting…",
                               "Connected (10 tools)",
                               "Disabled",
                               "Connecting…",
                               "Connected (10 tools)",
                               "Needs sign-in: Signed out of “st”: sign in to use it again",
                               NULL }));
  assert_times_in_order (log);

  test_manager_settle (failing);
  bad = mcp_server_manager_lookup (failing, "bad");
  g_assert_cmpint (mcp_server_connection_get_state (bad), ==, MCP_SERVER_STATE_FAILED);
  bad_states = texts_of_kind (mcp_server_connection_get_log (bad), MCP_LOG_ENTRY_STATE);
  g_assert_cmpuint (g_strv_length (bad_states), ==, 2);
  g_assert_cmpstr (bad_states[0], ==, "Connecting…");
  g_assert_true (g_str_has_prefix (bad_states[1], "Failed: "));
  g_assert_cmpstr (bad_states[1] + strlen ("Failed: "), ==,
                   mcp_server_connection_get_error (bad)->message);
  g_assert_nonnull (strstr (bad_states[1], "status 3"));

  test_manager_close (manager);
  test_manager_close (failing);
}

static void
test_disabled_from_the_start (void)
{
  g_autoptr(McpServerConfig) config = test_config_from_json ("off", "{\"command\":\"true\",\"enabled\":false}");
  g_autoptr(McpServerConnection) connection = mcp_server_connection_new (config);
  GListModel *log = mcp_server_connection_get_log (connection);

  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_DISABLED);
  g_assert_cmpuint (g_list_model_get_n_items (log), ==, 1);
  g_assert_cmpint (mcp_log_entry_get_kind (entry_at (log, 0)), ==, MCP_LOG_ENTRY_STATE);
  g_assert_cmpstr (mcp_log_entry_get_text (entry_at (log, 0)), ==, "Disabled");
}

typedef struct
{
  guint      added;
  guint      removed;
  GPtrArray *texts;   /* of every entry appended, in order */
} ItemsWatch;

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     ItemsWatch *watch)
{
  watch->added += added;
  watch->removed += removed;
  for (guint i = position; i < position + added; i++)
    g_ptr_array_add (watch->texts, g_strdup (mcp_log_entry_get_text (entry_at (model, i))));
}

static void
test_cap (void)
{
  g_autoptr(McpServerManager) manager = manager_with (test_fixture_config ("flood", "\"--stderr-lines=2100\""));
  McpServerConnection *connection;
  GListModel *log;
  ItemsWatch watch = { 0, 0, g_ptr_array_new_with_free_func (g_free) };
  guint n_before;
  guint n_items;
  guint first_line = 0;
  guint expected = 0;

  connection = mcp_server_manager_lookup (manager, "flood");
  log = mcp_server_connection_get_log (connection);
  /* The first attempt may have started already. */
  n_before = g_list_model_get_n_items (log);
  for (guint i = 0; i < n_before; i++)
    g_ptr_array_add (watch.texts, g_strdup (mcp_log_entry_get_text (entry_at (log, i))));
  g_signal_connect (log, "items-changed", G_CALLBACK (on_items_changed_cb), &watch);
  test_manager_settle (manager);
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "stderr line 2099");

  n_items = g_list_model_get_n_items (log);
  g_assert_cmpuint (n_items, ==, MCP_SERVER_CONNECTION_LOG_MAX);
  g_assert_cmpuint (n_items, ==, 2000);
  /* Connecting…, 2100 lines, Connected: 102 went, oldest first. */
  g_assert_cmpuint (n_before + watch.added, ==, 2102);
  g_assert_cmpuint (watch.removed, ==, 102);
  g_assert_cmpuint (watch.texts->len, ==, 2102);
  /* What is left is the newest 2000 of what came, in the order it came. */
  for (guint i = 0; i < n_items; i++)
    g_assert_cmpstr (mcp_log_entry_get_text (entry_at (log, i)), ==,
                     g_ptr_array_index (watch.texts, 102 + i));
  g_assert_cmpint (find_text (log, MCP_LOG_ENTRY_STATE, "Connecting…", 0), ==, -1);
  g_assert_cmpint (find_text (log, MCP_LOG_ENTRY_STDERR, "stderr line 0", 0), ==, -1);

  /* The stderr lines left are the newest ones, in order, the last one last
   * among them. */
  for (guint i = 0; i < n_items; i++)
    {
      McpLogEntry *entry = entry_at (log, i);
      guint64 number;

      if (mcp_log_entry_get_kind (entry) != MCP_LOG_ENTRY_STDERR)
        continue;

      g_assert_true (g_str_has_prefix (mcp_log_entry_get_text (entry), "stderr line "));
      g_assert_true (g_ascii_string_to_unsigned (mcp_log_entry_get_text (entry) + strlen ("stderr line "),
                                                 10, 0, 2099, &number, NULL));
      if (first_line == 0)
        {
          first_line = (guint) number;
          expected = first_line;
        }
      g_assert_cmpuint (number, ==, expected);
      expected++;
    }
  g_assert_cmpuint (expected, ==, 2100);
  g_assert_cmpuint (first_line, >=, 101);
  g_assert_cmpuint (first_line, <=, 102);

  /* More: still the cap, the newest last. */
  call_stderr_tool (connection, "after the flood");
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "after the flood");
  g_assert_cmpuint (g_list_model_get_n_items (log), ==, 2000);
  g_assert_cmpstr (mcp_log_entry_get_text (entry_at (log, 1999)), ==, "after the flood");

  g_signal_handlers_disconnect_by_data (log, &watch);
  g_ptr_array_unref (watch.texts);
  test_manager_close (manager);
}

static void
test_survives_reconnect (void)
{
  g_autoptr(McpServerManager) manager = manager_with (test_fixture_config ("re", "\"--stderr-lines=2\""));
  McpServerConnection *connection;
  g_autoptr(McpClient) first_client = NULL;
  GListModel *log;
  TestOutcome r = { 0 };
  int first_connected;
  int second_connecting;
  int before_reconnect;
  int after_reconnect;

  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "re");
  log = mcp_server_connection_get_log (connection);
  first_client = g_object_ref (mcp_server_connection_get_client (connection));
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "stderr line 1");
  call_stderr_tool (connection, "before the reconnect");
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "before the reconnect");

  mcp_server_connection_reconnect_async (connection, NULL, test_outcome_cb,
                                          test_outcome_for (&r, mcp_server_connection_reconnect_finish));
  test_iterate_until (test_outcome_done, &r, "reconnect");
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_true (mcp_server_manager_lookup (manager, "re") == connection);
  g_assert_true (mcp_server_connection_get_client (connection) != first_client);
  g_assert_true (mcp_server_connection_get_log (connection) == log);

  call_stderr_tool (connection, "after the reconnect");
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "after the reconnect");

  /* The first session's entries are still there, before the second's. */
  first_connected = find_text (log, MCP_LOG_ENTRY_STATE, "Connected (10 tools)", 0);
  g_assert_cmpint (first_connected, >=, 0);
  g_assert_cmpint (find_text (log, MCP_LOG_ENTRY_STATE, "Connecting…", 0), ==, 0);
  before_reconnect = find_text (log, MCP_LOG_ENTRY_STDERR, "before the reconnect", 0);
  second_connecting = find_text (log, MCP_LOG_ENTRY_STATE, "Connecting…", 1);
  after_reconnect = find_text (log, MCP_LOG_ENTRY_STDERR, "after the reconnect", 0);
  g_assert_cmpint (before_reconnect, >, 0);
  g_assert_cmpint (second_connecting, >, before_reconnect);
  g_assert_cmpint (find_text (log, MCP_LOG_ENTRY_STATE, "Connected (10 tools)", second_connecting),
                   >, second_connecting);
  g_assert_cmpint (after_reconnect, >, second_connecting);
  /* The second process wrote its start-up lines too. */
  g_assert_cmpint (find_text (log, MCP_LOG_ENTRY_STDERR, "stderr line 0", second_connecting),
                   >, second_connecting);
  assert_times_in_order (log);

  test_manager_close (manager);
}

static void
on_log_level_set_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  TestOutcome *r = user_data;

  r->ok = mcp_server_connection_set_log_level_finish (MCP_SERVER_CONNECTION (object),
                                                      result, &r->error);
  r->done = TRUE;
}

static void
on_level_notify_cb (GObject    *object,
                    GParamSpec *pspec,
                    guint      *count)
{
  (*count)++;
}

typedef struct
{
  GListModel *log;
  int         from;
} AfterWait;

static gboolean
level_logged_again (gpointer data)
{
  AfterWait *after = data;

  return find_text (after->log, MCP_LOG_ENTRY_STDERR, "logging/setLevel error", after->from) >= 0;
}

/* The level the person chose is the server's again after a reconnect (the
 * fixture says each logging/setLevel on stderr); a bad level is refused
 * without a request and changes nothing. */
static void
test_log_level_survives_reconnect (void)
{
  g_autoptr(McpServerManager) manager = manager_with (test_fixture_config ("lvl", "\"--stderr-lines=0\""));
  McpServerConnection *connection;
  GListModel *log;
  TestOutcome r = { 0 };
  guint notified = 0;
  AfterWait after = { 0 };
  int first;

  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "lvl");
  log = mcp_server_connection_get_log (connection);
  g_assert_null (mcp_server_connection_get_log_level (connection));
  g_signal_connect (connection, "notify::log-level", G_CALLBACK (on_level_notify_cb), &notified);

  mcp_server_connection_set_log_level_async (connection, "loud", NULL, on_log_level_set_cb, &r);
  test_iterate_until (test_outcome_done, &r, "set-log-level");
  g_assert_false (r.ok);
  g_assert_error (r.error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT);
  g_assert_null (mcp_server_connection_get_log_level (connection));
  g_clear_error (&r.error);
  r = (TestOutcome) { 0 };

  mcp_server_connection_set_log_level_async (connection, "error", NULL, on_log_level_set_cb, &r);
  test_iterate_until (test_outcome_done, &r, "set-log-level");
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpstr (mcp_server_connection_get_log_level (connection), ==, "error");
  g_assert_cmpuint (notified, ==, 1);
  wait_logged (log, MCP_LOG_ENTRY_STDERR, "logging/setLevel error");
  first = find_text (log, MCP_LOG_ENTRY_STDERR, "logging/setLevel error", 0);
  r = (TestOutcome) { 0 };

  mcp_server_connection_reconnect_async (connection, NULL, test_outcome_cb,
                                          test_outcome_for (&r, mcp_server_connection_reconnect_finish));
  test_iterate_until (test_outcome_done, &r, "reconnect");
  g_assert_no_error (r.error);

  /* The new process was told too. */
  after.from = first + 1;
  after.log = log;
  test_iterate_until (level_logged_again, &after, "logging/setLevel again");
  g_assert_cmpint (find_text (log, MCP_LOG_ENTRY_STDERR, "logging/setLevel error", first + 1), >,
                   find_text (log, MCP_LOG_ENTRY_STATE, "Connecting…", 1));
  g_assert_cmpstr (mcp_server_connection_get_log_level (connection), ==, "error");

  test_manager_close (manager);
}

/* How many MESSAGE entries of @trace are requests for @method. */
static guint
count_requests (McpTrace   *trace,
                const char *method)
{
  g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (trace);
  guint n = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);

      n += mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_MESSAGE &&
           mcp_trace_entry_get_message_kind (entry) == MCP_MESSAGE_REQUEST &&
           g_strcmp0 (mcp_trace_entry_get_method (entry), method) == 0;
    }
  return n;
}

#define TRACE_SECRET "trace-secret-5be1c0"

/* The connection's trace (issue 24): both sessions in one record across a
 * reconnect, the connection's state changes in it, and the values its
 * ${VAR}s expanded to masked wherever they show (an env value the server
 * echoes on stderr, a tool argument). */
static void
test_trace (void)
{
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GString) json = g_string_new ("{\"command\":");
  g_autoptr(GString) jsonl = g_string_new (NULL);
  const char *environ[] = { "TRACE_SECRET_VAR=" TRACE_SECRET, NULL };
  McpServerConnection *connection;
  McpTrace *trace;
  TestOutcome r = { 0 };

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append (json, ",\"env\":{\"API_KEY\":\"${TRACE_SECRET_VAR}\"}}");
  manager = mcp_server_manager_new ();
  g_object_set (manager, "environ", environ, NULL);
  {
    g_autoptr(GListStore) store = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
    g_autoptr(McpServerConfig) config = test_config_from_json ("traced", json->str);

    g_list_store_append (store, config);
    mcp_server_manager_set_configs (manager, G_LIST_MODEL (store));
  }
  test_manager_settle (manager);
  connection = mcp_server_manager_lookup (manager, "traced");
  trace = mcp_server_connection_get_trace (connection);
  g_assert_nonnull (trace);
  g_assert_cmpuint (count_requests (trace, "initialize"), ==, 1);

  call_stderr_tool (connection, "the key is " TRACE_SECRET);
  mcp_server_connection_reconnect_async (connection, NULL, test_outcome_cb,
                                          test_outcome_for (&r, mcp_server_connection_reconnect_finish));
  test_iterate_until (test_outcome_done, &r, "reconnect");
  g_assert_no_error (r.error);

  g_assert_true (mcp_server_connection_get_trace (connection) == trace);
  g_assert_cmpuint (count_requests (trace, "initialize"), ==, 2);
  g_assert_cmpuint (count_requests (trace, "tools/call"), ==, 1);

  mcp_trace_append_jsonl (trace, "traced", jsonl);
  g_assert_null (strstr (jsonl->str, TRACE_SECRET));
  g_assert_nonnull (strstr (jsonl->str, "the key is ***"));
  g_assert_nonnull (strstr (jsonl->str, "\"event\":\"state\""));
  g_assert_nonnull (strstr (jsonl->str, "\"kind\":\"stderr\""));

  /* The manager's trace-kib sizes every server's trace. */
  g_object_set (manager, "trace-kib", 64, NULL);
  g_assert_cmpuint (mcp_trace_get_max_bytes (trace), ==, 64 * 1024);

  test_manager_close (manager);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/log/entry", test_entry);
  g_test_add_func ("/manager/log/trace", test_trace);
  g_test_add_func ("/manager/log/stderr-in-order", test_stderr_in_order);
  g_test_add_func ("/manager/log/notifications", test_notifications);
  g_test_add_func ("/manager/log/notification-cut", test_notification_cut);
  g_test_add_func ("/manager/log/states", test_states);
  g_test_add_func ("/manager/log/disabled-from-the-start", test_disabled_from_the_start);
  g_test_add_func ("/manager/log/cap", test_cap);
  g_test_add_func ("/manager/log/survives-reconnect", test_survives_reconnect);
  g_test_add_func ("/manager/log/level-survives-reconnect", test_log_level_survives_reconnect);

  return g_test_run ();
}
