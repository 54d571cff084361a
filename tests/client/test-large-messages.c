/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-large-messages"

#include "config.h"

#include <glib/gstdio.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "test-util.h"

/* Issue 7: lines of 20 MB are parsed off the main thread, in order. */

#define BIG_SIZE (20 * 1000 * 1000)
/* {"jsonrpc":"2.0","id":ID,"result":{"text":"xxx…"}} of about BIG_SIZE bytes. */
static void
append_big_result (GString *out,
                   const char *id)
{
  g_string_append_printf (out, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"text\":\"", id);
  for (gsize i = 0; i < BIG_SIZE / 64; i++)
    g_string_append (out, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\\n");
  g_string_append (out, "\"}}\n");
}

static char *
write_file (GString *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("test-large-XXXXXX", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, contents->str, (gssize) contents->len, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

typedef struct
{
  GPtrArray *events;     /* "message:METHOD-or-id", "invalid:CODE", "closed" */
  guint ticks;           /* of the 10 ms source */
  guint ticks_at_big;    /* when the big one came */
  gboolean closed;
} Recorder;

static void
message_cb (McpTransport *transport,
            McpMessage   *message,
            Recorder     *rec)
{
  const char *method = mcp_message_get_method (message);

  if (method != NULL)
    g_ptr_array_add (rec->events, g_strdup_printf ("message:%s", method));
  else
    {
      gint64 id = -1;

      g_assert_true (mcp_message_get_int_id (message, &id));
      g_ptr_array_add (rec->events, g_strdup_printf ("message:%" G_GINT64_FORMAT, id));
      if (id == 2)
        {
          JsonObject *result = json_node_get_object (mcp_message_get_result (message));

          g_assert_cmpuint (strlen (json_object_get_string_member (result, "text")), ==, BIG_SIZE / 64 * 64);
          rec->ticks_at_big = rec->ticks;
        }
    }
}

static void
invalid_cb (McpTransport *transport,
            const char   *line,
            const GError *error,
            Recorder     *rec)
{
  g_assert_nonnull (error);
  g_ptr_array_add (rec->events, g_strdup_printf ("invalid:%s:%d:%zu",
                                                 g_quark_to_string (error->domain),
                                                 error->code, strlen (line) > 1000 ? (gsize) 1000 : strlen (line)));
}

static void
closed_cb (McpTransport *transport,
           const GError *reason,
           Recorder     *rec)
{
  g_ptr_array_add (rec->events, g_strdup ("closed"));
  rec->closed = TRUE;
}

static gboolean
tick_cb (gpointer user_data)
{
  Recorder *rec = user_data;

  rec->ticks++;
  return G_SOURCE_CONTINUE;
}

/* Runs `cat FILE` (then exits) through a stdio transport; records all. */
static Recorder *
run_cat (const char *path)
{
  g_autofree char *script = g_strdup_printf ("cat '%s'", path);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr(McpTransport) transport = mcp_stdio_transport_new (argv, NULL, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Recorder *rec = g_new0 (Recorder, 1);
  guint tick, guard;

  rec->events = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (transport, "message", G_CALLBACK (message_cb), rec);
  g_signal_connect (transport, "invalid-line", G_CALLBACK (invalid_cb), rec);
  g_signal_connect (transport, "closed", G_CALLBACK (closed_cb), rec);
  tick = g_timeout_add (10, tick_cb, rec);
  guard = test_hang_guard ("the messages");

  mcp_transport_connect_async (transport, NULL, test_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  mcp_transport_connect_finish (transport, result, &error);
  g_assert_no_error (error);

  while (!rec->closed)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (tick);
  g_source_remove (guard);
  return rec;
}

static void
recorder_free (Recorder *rec)
{
  g_ptr_array_unref (rec->events);
  g_free (rec);
}

static void
test_big_between_small (void)
{
  g_autoptr(GString) contents = g_string_new (NULL);
  g_autofree char *path = NULL;
  Recorder *rec;

  g_string_append (contents, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
  append_big_result (contents, "2");
  g_string_append (contents, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/after\"}\n");
  path = write_file (contents);

  rec = run_cat (path);
  g_assert_cmpuint (rec->events->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (rec->events, 0), ==, "message:1");
  g_assert_cmpstr (g_ptr_array_index (rec->events, 1), ==, "message:2");
  g_assert_cmpstr (g_ptr_array_index (rec->events, 2), ==, "message:notifications/after");
  /* What was read before the end comes before closed. */
  g_assert_cmpstr (g_ptr_array_index (rec->events, 3), ==, "closed");
  /* The main loop was not held while the big line was read and parsed. */
  g_assert_cmpuint (rec->ticks_at_big, >=, 1);

  g_unlink (path);
  recorder_free (rec);
}

static void
test_big_garbage (void)
{
  g_autoptr(GString) contents = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autofree char *small = NULL;
  Recorder *rec;

  g_string_append (contents, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\n");
  g_string_append (contents, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":");
  for (gsize i = 0; i < BIG_SIZE / 64; i++)
    g_string_append (contents, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,2");
  g_string_append (contents, "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/after\"}\n");
  path = write_file (contents);

  rec = run_cat (path);
  g_assert_cmpuint (rec->events->len, ==, 4);
  small = g_strdup (g_ptr_array_index (rec->events, 0));
  g_assert_true (g_str_has_prefix (small, "invalid:"));
  /* The same error, only the line is longer (reported up to 1000 here). */
  g_assert_true (g_str_has_suffix (g_ptr_array_index (rec->events, 1), ":1000"));
  small[strlen (small) - strlen (strrchr (small, ':'))] = '\0';
  g_assert_true (g_str_has_prefix (g_ptr_array_index (rec->events, 1), small));
  g_assert_cmpstr (g_ptr_array_index (rec->events, 2), ==, "message:notifications/after");
  g_assert_cmpstr (g_ptr_array_index (rec->events, 3), ==, "closed");

  g_unlink (path);
  recorder_free (rec);
}

/* The client: the answer to a request is handled before the notification
 * that follows it, although the answer is parsed in a worker thread. */
static void
list_changed_cb (McpClient *client,
                 GPtrArray *order)
{
  g_ptr_array_add (order, g_strdup ("notification"));
}

static void
request_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GPtrArray *order = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (strlen (json_object_get_string_member (json_node_get_object (node), "text")), ==, BIG_SIZE / 64 * 64);
  g_ptr_array_add (order, g_strdup ("answer"));
}

static void
test_client_answer_before_notification (void)
{
  g_autoptr(GString) big = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autofree char *script = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
  const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
  guint guard;

  append_big_result (big, "ID");
  path = write_file (big);
  /* initialize, initialized, then the request: its id is put in the big answer. */
  script = g_strdup_printf (
    "read l; id=$(echo \"$l\" | sed 's/.*\"id\":\\([0-9]*\\).*/\\1/');"
    "echo '{\"jsonrpc\":\"2.0\",\"id\":'$id',\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{\"listChanged\":true}},\"serverInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}';"
    "read l; read l; id=$(echo \"$l\" | sed 's/.*\"id\":\\([0-9]*\\).*/\\1/');"
    "sed \"s/\\\"id\\\":ID,/\\\"id\\\":$id,/\" '%s';"
    "echo '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}';"
    "exec sleep 30", path);
  argv[2] = script;
  client = mcp_client_new (mcp_stdio_transport_new (argv, NULL, NULL));
  /* The script knows initialize only (it would take the era probe for it);
   * connecting is not what is tested here, so no probe. */
  mcp_client_set_era_hint (client, MCP_PROTOCOL_ERA_LEGACY);
  g_signal_connect (client, "tools-list-changed", G_CALLBACK (list_changed_cb), order);
  guard = test_hang_guard ("the messages");

  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  mcp_client_connect_finish (client, result, &error);
  g_assert_no_error (error);

  mcp_client_request_async (client, "big/answer", NULL, NULL, NULL, request_cb, order);
  while (order->len < 2)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (g_ptr_array_index (order, 0), ==, "answer");
  g_assert_cmpstr (g_ptr_array_index (order, 1), ==, "notification");

  g_clear_object (&result);
  mcp_client_close_async (client, NULL, test_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (guard);
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/large-messages/big-between-small", test_big_between_small);
  g_test_add_func ("/large-messages/big-garbage", test_big_garbage);
  g_test_add_func ("/large-messages/client-answer-before-notification", test_client_answer_before_notification);

  return g_test_run ();
}
