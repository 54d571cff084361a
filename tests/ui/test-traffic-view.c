/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-traffic-view"

/* PlugboardTrafficView over a real McpTrace: messages recorded as a
 * transport records them, HTTP exchanges with a real SoupServer on
 * 127.0.0.1, stderr lines; rows, filters, search, the detail, the copies,
 * export, Clear, eviction while shown, and following the newest entry. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "plugboard-json-editor.h"
#include "plugboard-traffic-view.h"
#include "test-json.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

#define SECRET_HEADER_VALUE "hunter2-header-secret"
#define SECRET_TOKEN "sk-bearer-token-secret"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static McpTraceEntry *
record (McpTrace          *trace,
        McpTraceDirection  direction,
        const char        *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = mcp_message_parse (json, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 1);
  return mcp_trace_record_message (trace, direction, g_ptr_array_index (messages, 0), json, strlen (json));
}

static GtkWidget *
show_view (PlugboardTrafficView *view,
           int                   width)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (5);
  return window;
}

static guint
n_rows (PlugboardTrafficView *view)
{
  return g_list_model_get_n_items (plugboard_traffic_view_get_rows (view));
}

static McpTraceEntry *
row (PlugboardTrafficView *view,
     guint                 position)
{
  g_autoptr(McpTraceEntry) entry = g_list_model_get_item (plugboard_traffic_view_get_rows (view), position);

  /* The trace holds it. */
  return entry;
}

static GtkWidget *
view_child (PlugboardTrafficView *view,
            const char           *name)
{
  return template_child (view, PLUGBOARD_TYPE_TRAFFIC_VIEW, name);
}

static const char *
editor_text (PlugboardTrafficView *view,
             const char           *name)
{
  return plugboard_json_editor_get_text (PLUGBOARD_JSON_EDITOR (view_child (view, name)));
}

static gboolean
is_spinning (GtkWidget     *widget,
             gconstpointer  data)
{
  return GTK_IS_SPINNER (widget) && gtk_spinner_get_spinning (GTK_SPINNER (widget));
}

/* Every label's text at or below @widget (shown or not) and the JSON
 * editors' text. */
static void
collect_texts (GtkWidget *widget,
               GString   *texts)
{
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (texts, gtk_label_get_label (GTK_LABEL (widget)));
      g_string_append_c (texts, '\n');
    }
  if (PLUGBOARD_IS_JSON_EDITOR (widget))
    {
      g_string_append (texts, plugboard_json_editor_get_text (PLUGBOARD_JSON_EDITOR (widget)));
      g_string_append_c (texts, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts (child, texts);
}

static void
text_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
}

static char *
clipboard_text (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, text_read_cb, &text);
  TEST_WAIT_UNTIL (text != NULL);
  return text;
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

/* ------------------------------------------------------------------------ */
/* Protocol                                                                 */

static void
test_protocol (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  GtkWidget *window;
  McpTraceEntry *initialize;
  McpTraceEntry *call;
  const char *text;

  plugboard_traffic_view_set_trace (view, trace);
  plugboard_traffic_view_set_server (view, "fixture", MCP_TRANSPORT_KIND_STDIO, NULL);
  window = show_view (view, 1280);
  g_assert_cmpuint (n_rows (view), ==, 0);
  g_assert_true (has_shown_label_with (window, "Nothing went over the wire yet"));

  initialize = record (trace, MCP_TRACE_DIRECTION_OUT,
                       "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}");
  wait_frames (2);
  g_assert_cmpuint (n_rows (view), ==, 1);
  /* Waiting: no duration yet, a spinner. */
  g_assert_cmpint (mcp_trace_entry_get_duration (initialize), ==, -1);
  g_assert_true (has_shown_label_with (window, "→ initialize #1"));
  g_assert_nonnull (find_widget_matching (window, UI_WALK_SHOWN,
                                          is_spinning, NULL));

  g_usleep (2000);
  record (trace, MCP_TRACE_DIRECTION_IN,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"serverInfo\":{\"name\":\"fixture\"}}}");
  record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  call = record (trace, MCP_TRACE_DIRECTION_OUT,
                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}");
  record (trace, MCP_TRACE_DIRECTION_IN,
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: echo\"}}");
  record (trace, MCP_TRACE_DIRECTION_IN,
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hello\"}}");
  wait_frames (3);

  /* The responses fold into their requests: 4 rows of 6 messages. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, 6);
  g_assert_cmpuint (n_rows (view), ==, 4);
  g_assert_true (row (view, 0) == initialize);
  g_assert_true (row (view, 2) == call);
  /* The paired request shows its duration, and the error its code. */
  g_assert_cmpint (mcp_trace_entry_get_duration (initialize), >, 0);
  g_assert_true (has_shown_label_with (window, " ms"));
  g_assert_true (has_shown_label_with (window, "-32602"));
  g_assert_null (find_widget_matching (window, UI_WALK_SHOWN,
                                       is_spinning, NULL));

  /* Errors only: the failed call (its response failed). */
  plugboard_traffic_view_set_errors_only (view, TRUE);
  g_assert_cmpuint (n_rows (view), ==, 1);
  g_assert_true (row (view, 0) == call);
  plugboard_traffic_view_set_errors_only (view, FALSE);
  g_assert_cmpuint (n_rows (view), ==, 4);

  /* The search finds the method, and text in the response folded in. */
  gtk_editable_set_text (GTK_EDITABLE (view_child (view, "search_entry")), "TOOLS/CALL");
  TEST_WAIT_UNTIL (n_rows (view) == 1);
  g_assert_true (row (view, 0) == call);
  plugboard_traffic_view_set_search (view, "unknown tool");
  g_assert_cmpuint (n_rows (view), ==, 1);
  plugboard_traffic_view_set_search (view, "no such thing anywhere");
  g_assert_cmpuint (n_rows (view), ==, 0);
  wait_frames (2);
  g_assert_true (has_shown_label_with (window, "No traffic matches the filters"));
  plugboard_traffic_view_set_search (view, NULL);
  g_assert_cmpuint (n_rows (view), ==, 4);

  /* Direction: what the server sent (its notification). */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (view_child (view, "direction_dropdown")), 2);
  g_assert_cmpuint (n_rows (view), ==, 1);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (view_child (view, "direction_dropdown")), 0);

  /* The detail: the request and its response, pretty. */
  g_assert_true (plugboard_traffic_view_select (view, initialize));
  wait_frames (3);
  /* Nowhere to scroll: no Jump to Latest. */
  g_assert_false (gtk_widget_get_visible (view_child (view, "jump_button")));
  text = editor_text (view, "request_editor");
  g_assert_nonnull (strstr (text, "\"method\" : \"initialize\""));
  g_assert_nonnull (strstr (text, "\n  "));
  text = editor_text (view, "response_editor");
  g_assert_nonnull (strstr (text, "\"serverInfo\" : {"));
  g_assert_true (gtk_widget_get_mapped (view_child (view, "response_editor")));
  /* A stdio server has no headers, and nothing to send with curl. */
  g_assert_false (gtk_widget_get_visible (view_child (view, "request_headers_box")));
  g_assert_false (gtk_widget_is_sensitive (view_child (view, "copy_curl_button")));

  g_assert_true (plugboard_traffic_view_select (view, call));
  wait_frames (2);
  g_assert_true (gtk_widget_get_mapped (view_child (view, "error_box")));
  text = gtk_label_get_text (GTK_LABEL (view_child (view, "detail_error_label")));
  g_assert_nonnull (strstr (text, "JSON-RPC error -32602"));
  g_assert_nonnull (strstr (text, "Unknown tool: echo"));

  /* Copy as JSON: the request's record and its response's. */
  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.copy-json", NULL);
  {
    g_autofree char *copied = clipboard_text (GTK_WIDGET (view));
    g_auto(GStrv) lines = g_strsplit (copied, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 3);
    for (guint i = 0; i < 2; i++)
      {
        g_autoptr(JsonNode) node = test_json_parse (lines[i]);

        g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      }
    g_assert_nonnull (strstr (lines[1], "-32602"));
  }

  /* A new response arriving for the selected request updates it. */
  {
    McpTraceEntry *ping = record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");

    wait_frames (2);
    g_assert_true (plugboard_traffic_view_select (view, ping));
    wait_frames (2);
    g_assert_false (gtk_widget_get_visible (view_child (view, "response_box")));
    record (trace, MCP_TRACE_DIRECTION_IN, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
    wait_frames (2);
    g_assert_true (gtk_widget_get_visible (view_child (view, "response_box")));
    g_assert_cmpstr (editor_text (view, "response_editor"), !=, "");
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------------ */
/* Network: a real HTTP exchange                                            */

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  static const char body[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}";
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_message_headers_append (headers, "Mcp-Session-Id", "session-abc-123");
  soup_message_headers_append (headers, "X-Upstream", "plain");
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, body, strlen (body));
  soup_server_message_set_status (msg, g_str_has_suffix (path, "/missing") ? 404 : 200, NULL);
}

static void
message_sent_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GBytes **body = user_data;
  g_autoptr(GError) error = NULL;

  *body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
}

/* One POST to @url through a real session, recorded as the HTTP
 * transport records it. */
static McpTraceEntry *
exchange (McpTrace   *trace,
          SoupSession *session,
          const char *url)
{
  static const char request[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) request_body = g_bytes_new_static (request, strlen (request));
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);
  McpTraceEntry *entry;

  soup_message_headers_append (headers, "Authorization", "Bearer " SECRET_TOKEN);
  soup_message_headers_append (headers, "X-Custom-Auth", SECRET_HEADER_VALUE);
  soup_message_headers_append (headers, "MCP-Protocol-Version", "2025-06-18");
  soup_message_headers_append (headers, "Accept", "application/json, text/event-stream");
  soup_message_set_request_body_from_bytes (msg, "application/json", request_body);
  entry = mcp_trace_record_http (trace, msg, request, strlen (request), "application/json");
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, message_sent_cb, &body);
  TEST_WAIT_UNTIL (body != NULL);
  mcp_trace_http_got_body (trace, entry, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  return entry;
}

static void
assert_no_secret (const char *text,
                  const char *where)
{
  if (strstr (text, SECRET_TOKEN) != NULL || strstr (text, SECRET_HEADER_VALUE) != NULL)
    g_error ("a secret in %s: %s", where, text);
}

static void
test_network (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  g_autofree char *url = NULL;
  g_autofree char *missing_url = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *jsonl_path = NULL;
  g_autofree char *har_path = NULL;
  const char *secrets[] = { SECRET_HEADER_VALUE, NULL };
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  McpTraceEntry *ok_entry;
  McpTraceEntry *missing_entry;
  g_autoptr(GString) texts = g_string_new (NULL);
  GtkWidget *window;

  soup_server_add_handler (server, NULL, server_cb, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  url = g_strdup_printf ("http://127.0.0.1:%d/mcp", g_uri_get_port (uris->data));
  missing_url = g_strdup_printf ("http://127.0.0.1:%d/missing", g_uri_get_port (uris->data));
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);

  mcp_trace_set_secrets (trace, secrets);
  plugboard_traffic_view_set_trace (view, trace);
  plugboard_traffic_view_set_server (view, "remote", MCP_TRANSPORT_KIND_HTTP, url);
  window = show_view (view, 1280);

  /* A remote server has Network, not Console. */
  g_assert_true (gtk_widget_get_visible (view_child (view, "network_toggle")));
  g_assert_false (gtk_widget_get_visible (view_child (view, "console_toggle")));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (view_child (view, "network_toggle")), TRUE);
  g_assert_cmpint (plugboard_traffic_view_get_mode (view), ==, PLUGBOARD_TRAFFIC_MODE_NETWORK);

  ok_entry = exchange (trace, session, url);
  missing_entry = exchange (trace, session, missing_url);
  record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}");
  wait_frames (3);

  /* Only the HTTP exchanges. */
  g_assert_cmpuint (n_rows (view), ==, 2);
  g_assert_true (has_shown_label_with (window, "POST /mcp"));
  g_assert_true (has_shown_label_with (window, "404"));
  plugboard_traffic_view_set_errors_only (view, TRUE);
  g_assert_cmpuint (n_rows (view), ==, 1);
  g_assert_true (row (view, 0) == missing_entry);
  plugboard_traffic_view_set_errors_only (view, FALSE);
  plugboard_traffic_view_set_search (view, "missing");
  g_assert_cmpuint (n_rows (view), ==, 1);
  /* What the bodies say is searched too. */
  plugboard_traffic_view_set_search (view, "protocolversion");
  g_assert_cmpuint (n_rows (view), ==, 2);
  plugboard_traffic_view_set_search (view, NULL);

  /* The detail: headers, the MCP ones standing out, bodies pretty. */
  g_assert_true (plugboard_traffic_view_select (view, ok_entry));
  wait_frames (3);
  g_assert_true (gtk_widget_get_mapped (view_child (view, "request_headers_box")));
  g_assert_true (gtk_widget_get_mapped (view_child (view, "response_headers_box")));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (view_child (view, "response_headers_label"))),
                            "weight=\"bold\" foreground=\"#3584e4\">Mcp-Session-Id: session-abc-123"));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (view_child (view, "request_headers_label"))),
                            ">MCP-Protocol-Version: 2025-06-18"));
  g_assert_nonnull (strstr (editor_text (view, "response_editor"), "\"protocolVersion\" : \"2025-06-18\""));
  g_assert_nonnull (strstr (editor_text (view, "request_editor"), "\"method\" : \"initialize\""));
  g_assert_true (gtk_widget_is_sensitive (view_child (view, "copy_curl_button")));

  /* Never a secret: not in a label, the clipboard or a file. */
  collect_texts (window, texts);
  assert_no_secret (texts->str, "a label");
  g_assert_nonnull (strstr (texts->str, "Authorization"));

  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.copy-curl", NULL);
  {
    g_autofree char *curl = clipboard_text (GTK_WIDGET (view));

    assert_no_secret (curl, "the curl command");
    g_assert_true (g_str_has_prefix (curl, "curl"));
    g_assert_nonnull (strstr (curl, url));
  }
  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.copy-json", NULL);
  {
    g_autofree char *json = clipboard_text (GTK_WIDGET (view));

    assert_no_secret (json, "the copied JSON");
    g_assert_nonnull (strstr (json, "session-abc-123"));
  }

  /* A message of an HTTP server: curl posts it to the server's URL. */
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
  g_assert_cmpuint (n_rows (view), ==, 1);
  g_assert_true (plugboard_traffic_view_select (view, row (view, 0)));
  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.copy-curl", NULL);
  {
    g_autofree char *curl = clipboard_text (GTK_WIDGET (view));

    g_assert_nonnull (strstr (curl, url));
    g_assert_nonnull (strstr (curl, "tools/list"));
  }
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_NETWORK);

  /* Export: JSON Lines and HAR of the rows shown. */
  dir = g_dir_make_tmp ("test-traffic-view-XXXXXX", &error);
  g_assert_no_error (error);
  jsonl_path = g_build_filename (dir, "traffic.jsonl", NULL);
  har_path = g_build_filename (dir, "traffic.har", NULL);
  {
    g_autoptr(GFile) file = g_file_new_for_path (jsonl_path);
    g_autofree char *contents = NULL;
    g_auto(GStrv) lines = NULL;

    g_assert_true (plugboard_traffic_view_export (view, file, PLUGBOARD_TRAFFIC_EXPORT_JSONL, &error));
    g_assert_no_error (error);
    contents = read_file (jsonl_path);
    assert_no_secret (contents, "the JSON Lines export");
    lines = g_strsplit (contents, "\n", -1);
    /* Two exchanges, one record each, and the last newline. */
    g_assert_cmpuint (g_strv_length (lines), ==, 3);
    for (guint i = 0; i < 2; i++)
      {
        g_autoptr(JsonNode) node = test_json_parse (lines[i]);

        g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "server"), ==, "remote");
      }
  }
  {
    g_autoptr(GFile) file = g_file_new_for_path (har_path);
    g_autofree char *contents = NULL;
    g_autoptr(JsonNode) node = NULL;
    JsonObject *log;

    g_assert_true (plugboard_traffic_view_export (view, file, PLUGBOARD_TRAFFIC_EXPORT_HAR, &error));
    g_assert_no_error (error);
    contents = read_file (har_path);
    assert_no_secret (contents, "the HAR export");
    node = test_json_parse (contents);
    log = json_object_get_object_member (json_node_get_object (node), "log");
    g_assert_nonnull (log);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (log, "entries")), ==, 2);
  }
  /* A folder that is not there: an error naming it, nothing written. */
  {
    g_autofree char *bad_path = g_build_filename (dir, "no-such-folder", "traffic.jsonl", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (bad_path);

    g_assert_false (plugboard_traffic_view_export (view, file, PLUGBOARD_TRAFFIC_EXPORT_JSONL, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
  }
  g_remove (jsonl_path);
  g_remove (har_path);
  g_rmdir (dir);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------------ */
/* Console, Clear, eviction                                                 */

static void
test_console_clear (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  GtkWidget *window;

  plugboard_traffic_view_set_trace (view, trace);
  plugboard_traffic_view_set_server (view, "local", MCP_TRANSPORT_KIND_STDIO, NULL);
  window = show_view (view, 1280);
  g_assert_false (gtk_widget_get_visible (view_child (view, "network_toggle")));
  g_assert_true (gtk_widget_get_visible (view_child (view, "console_toggle")));

  mcp_trace_record_stderr (trace, "starting up\twith a tab");
  /* A hostile line: long, with control characters. */
  {
    g_autofree char *long_line = g_strnfill (200 * 1024, 'z');

    long_line[10] = '\x1b';
    long_line[11] = '\r';
    mcp_trace_record_stderr (trace, long_line);
  }
  mcp_trace_record_stderr (trace, "Error: cannot open database");
  mcp_trace_record_event (trace, "connected", "Connected", NULL, NULL);
  record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");

  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_CONSOLE);
  wait_frames (3);
  /* The stderr lines and the event, not the message. */
  g_assert_cmpuint (n_rows (view), ==, 4);
  g_assert_true (has_shown_label_with (window, "Error: cannot open database"));
  /* The long line's row holds the start of it, on one line. */
  g_assert_true (has_shown_label_with (window, "zzzzzzzz…"));
  g_assert_false (has_shown_label_with (window, "\r"));
  plugboard_traffic_view_set_search (view, "database");
  g_assert_cmpuint (n_rows (view), ==, 1);
  plugboard_traffic_view_set_search (view, NULL);

  g_assert_true (plugboard_traffic_view_select (view, row (view, 2)));
  wait_frames (2);
  /* Not JSON: plain text, not an editor pointing at a parse error. */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (view_child (view, "request_text_label"))), ==,
                   "Error: cannot open database");
  g_assert_true (gtk_widget_get_mapped (view_child (view, "request_text_label")));
  g_assert_false (gtk_widget_get_visible (view_child (view, "request_editor")));

  /* Clear: the record and the view empty, the detail too. */
  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.clear", NULL);
  wait_frames (2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, 0);
  g_assert_cmpuint (n_rows (view), ==, 0);
  g_assert_null (plugboard_traffic_view_get_selected (view));
  g_assert_true (has_shown_label_with (window, "Nothing went over the wire yet"));
  g_assert_false (gtk_widget_is_sensitive (view_child (view, "copy_curl_button")));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_eviction (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_MIN_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  g_autofree char *padding = g_strnfill (2000, 'x');
  McpTraceEntry *first;
  GtkWidget *window;

  plugboard_traffic_view_set_trace (view, trace);
  window = show_view (view, 360);

  first = record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}");
  wait_frames (2);
  g_assert_true (plugboard_traffic_view_select (view, first));
  wait_frames (2);

  /* Far more than the ring holds, with requests whose responses come
   * after them, while the view is shown and an entry selected. */
  for (guint i = 1; i <= 400; i++)
    {
      g_autofree char *request = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"tools/call\","
                                                  "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"%s\"}}}",
                                                  i, padding);
      g_autofree char *response = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":{}}", i - 1);

      record (trace, MCP_TRACE_DIRECTION_OUT, request);
      record (trace, MCP_TRACE_DIRECTION_IN, response);
      if (i % 50 == 0)
        wait_frames (1);
    }
  wait_frames (3);

  g_assert_cmpuint (mcp_trace_get_dropped (trace), >, 0);
  g_assert_cmpuint (n_rows (view), <, 400);
  g_assert_cmpuint (n_rows (view), >, 0);
  /* The selected entry went: nothing stale is shown. */
  g_assert_null (mcp_trace_lookup (trace, 1));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------------ */
/* Following                                                                */

static void
test_follow (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  GtkAdjustment *adjustment;
  GtkWidget *window;

  plugboard_traffic_view_set_trace (view, trace);
  window = show_view (view, 800);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (view_child (view, "list_scroller")));

  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                               "\"params\":{\"progress\":%u}}", i);

      record (trace, MCP_TRACE_DIRECTION_IN, text);
      if (i % 30 == 0)
        wait_frames (1);
    }
  wait_frames (5);
  g_assert_true (plugboard_traffic_view_get_following (view));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 2);
  g_assert_false (gtk_widget_get_visible (view_child (view, "jump_button")));

  /* Scrolled up: it stays there as more comes, and offers to jump. */
  gtk_adjustment_set_value (adjustment, 0);
  wait_frames (2);
  g_assert_false (plugboard_traffic_view_get_following (view));
  g_assert_true (gtk_widget_get_mapped (view_child (view, "jump_button")));
  record (trace, MCP_TRACE_DIRECTION_IN, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}");
  wait_frames (3);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);

  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.jump-to-latest", NULL);
  wait_frames (5);
  g_assert_true (plugboard_traffic_view_get_following (view));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 2);

  /* Another mode, then back: each opens on its newest. */
  for (guint i = 0; i < 40; i++)
    mcp_trace_record_stderr (trace, "a line");
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_CONSOLE);
  wait_frames (5);
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
  wait_frames (5);
  g_assert_true (plugboard_traffic_view_get_following (view));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 2);
  g_assert_false (gtk_widget_get_visible (view_child (view, "jump_button")));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The newest failure, found whatever mode and filters were on. */
static void
test_last_error (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  McpTraceEntry *failed;
  GtkWidget *window;

  plugboard_traffic_view_set_trace (view, trace);
  window = show_view (view, 360);
  g_assert_false (plugboard_traffic_view_show_last_error (view));

  failed = record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
  record (trace, MCP_TRACE_DIRECTION_IN,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,\"message\":\"Unsupported protocol version\"}}");
  mcp_trace_record_stderr (trace, "bye");
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_CONSOLE);
  plugboard_traffic_view_set_search (view, "bye");

  g_assert_true (plugboard_traffic_view_show_last_error (view));
  wait_frames (3);
  g_assert_cmpint (plugboard_traffic_view_get_mode (view), ==, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
  g_assert_true (plugboard_traffic_view_get_selected (view) == failed);
  /* 360 px: the detail took the place of the list, with a way back. */
  g_assert_true (adw_leaflet_get_folded (ADW_LEAFLET (view_child (view, "leaflet"))));
  g_assert_true (gtk_widget_get_mapped (view_child (view, "detail_error_label")));
  g_assert_true (gtk_widget_get_mapped (view_child (view, "back_button")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (view_child (view, "detail_error_label"))),
                            "Unsupported protocol version"));
  gtk_widget_activate_action (GTK_WIDGET (view), "traffic.back", NULL);
  wait_frames (10);
  g_assert_true (gtk_widget_get_mapped (view_child (view, "list_view")));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A thousand entries recorded between two frames reach the list as one
 * change, at the next frame, not a thousand. */
static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

static void
test_batched (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  GListModel *rows;
  GtkWidget *window;
  guint changes = 0;

  plugboard_traffic_view_set_trace (view, trace);
  window = show_view (view, 1280);
  rows = plugboard_traffic_view_get_rows (view);
  g_signal_connect (rows, "items-changed", G_CALLBACK (count_changes_cb), &changes);

  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                               "\"params\":{\"progress\":%u}}", i);

      record (trace, MCP_TRACE_DIRECTION_IN, text);
    }
  g_assert_cmpuint (changes, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  wait_frames (3);
  g_assert_cmpuint (changes, >=, 1);
  g_assert_cmpuint (changes, <=, 2);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1000);

  /* Requests shown, then their responses between two frames: the rows
   * that changed are told of together, at the next frame. */
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"ping\"}", i);

      record (trace, MCP_TRACE_DIRECTION_OUT, text);
    }
  wait_frames (3);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1100);
  changes = 0;
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":{}}", i);

      record (trace, MCP_TRACE_DIRECTION_IN, text);
    }
  g_assert_cmpuint (changes, ==, 0);
  wait_frames (3);
  g_assert_cmpuint (changes, >=, 1);
  g_assert_cmpuint (changes, <=, 3);
  /* The responses fold into their requests' rows. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1100);
  {
    g_autoptr(McpTraceEntry) last = g_list_model_get_item (rows, 1099);

    g_assert_cmpuint (mcp_trace_entry_get_response_seq (last), !=, 0);
  }

  /* Clear passes through at once. */
  mcp_trace_clear (trace);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  g_signal_handlers_disconnect_by_func (rows, count_changes_cb, &changes);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* MCP Apps: what a view's page and Plugboard said, in the Protocol mode
 * with the page as one end; what was blocked, as an error. */
static void
test_app (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  PlugboardTrafficView *view = PLUGBOARD_TRAFFIC_VIEW (plugboard_traffic_view_new ());
  const char *request = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ui/initialize\",\"params\":{}}";
  const char *answer = "{\"jsonrpc\":\"2.0\",\"id\":0,\"error\":{\"code\":-32601,\"message\":\"no\"}}";
  g_autoptr(GPtrArray) in = mcp_message_parse (request, -1, NULL);
  g_autoptr(GPtrArray) out = mcp_message_parse (answer, -1, NULL);
  GtkWidget *window;

  plugboard_traffic_view_set_trace (view, trace);
  plugboard_traffic_view_set_server (view, "fixture", MCP_TRANSPORT_KIND_STDIO, NULL);
  window = show_view (view, 1280);

  mcp_trace_record_app (trace, MCP_TRACE_DIRECTION_IN, g_ptr_array_index (in, 0), request, strlen (request), NULL);
  mcp_trace_record_app (trace, MCP_TRACE_DIRECTION_OUT, g_ptr_array_index (out, 0), answer, strlen (answer), NULL);
  mcp_trace_record_app_blocked (trace, "navigation", "file:///etc/passwd");
  mcp_trace_record_app (trace, MCP_TRACE_DIRECTION_IN, NULL, "garbage", 7, NULL);
  wait_frames (3);
  g_assert_cmpuint (n_rows (view), ==, 4);
  g_assert_true (has_shown_label_with (window, "page → Plugboard: garbage"));
  g_assert_true (has_shown_label_with (window, "page → Plugboard: ui/initialize #0"));
  g_assert_true (has_shown_label_with (window, "Plugboard → page: error #0"));
  g_assert_true (has_shown_label_with (window, "-32601"));
  g_assert_true (has_shown_label_with (window, "page: blocked navigation: file:///etc/passwd"));

  plugboard_traffic_view_set_errors_only (view, TRUE);
  g_assert_cmpuint (n_rows (view), ==, 3);
  plugboard_traffic_view_set_errors_only (view, FALSE);
  plugboard_traffic_view_set_mode (view, PLUGBOARD_TRAFFIC_MODE_NETWORK);
  g_assert_cmpuint (n_rows (view), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init_widgets (&argc, &argv, 60))
    return 0;

  g_test_add_func ("/ui/traffic-view/protocol", test_protocol);
  g_test_add_func ("/ui/traffic-view/network", test_network);
  g_test_add_func ("/ui/traffic-view/console-clear", test_console_clear);
  g_test_add_func ("/ui/traffic-view/eviction", test_eviction);
  g_test_add_func ("/ui/traffic-view/follow", test_follow);
  g_test_add_func ("/ui/traffic-view/batched", test_batched);
  g_test_add_func ("/ui/traffic-view/last-error", test_last_error);
  g_test_add_func ("/ui/traffic-view/app", test_app);

  return g_test_run ();
}
