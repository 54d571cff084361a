/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The trace (issue 24): requests paired with their responses, input
 * rounds grouped, progress and cancellation tied to their request, the
 * ring bounded under a flood, secrets masked in every output (JSON Lines,
 * HAR, curl, summary), the file format read back, and a live stdio server
 * recorded both ways with its stderr. */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-json-private.h"
#include "mcp-stdio-transport.h"
#include "mcp-trace.h"
#include "test-stdio-harness.h"
#include "test-util.h"

static McpMessage *
parse_one (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = mcp_message_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 1);
  return g_object_ref (g_ptr_array_index (messages, 0));
}

static McpTraceEntry *
record (McpTrace          *trace,
        McpTraceDirection  direction,
        const char        *text)
{
  g_autoptr(McpMessage) message = parse_one (text);

  return mcp_trace_record_message (trace, direction, message, text, strlen (text));
}

static char *
all_outputs (McpTrace *trace)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (trace);
  g_autofree char *har = mcp_trace_entries_to_har (entries);

  mcp_trace_append_jsonl (trace, "srv", out);
  g_string_append (out, har);
  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *summary = mcp_trace_entry_dup_summary (entry);
      g_autofree char *curl = mcp_trace_entry_dup_curl (entry, "https://example.com/mcp");

      g_string_append_printf (out, "\n%s\n%s\n", summary, curl ? curl : "");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
count_updated (McpTrace      *trace,
               McpTraceEntry *entry,
               guint         *count)
{
  (*count)++;
}

static void
test_pairing (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  McpTraceEntry *request, *response, *progress, *error_request, *error_response, *cancel;
  guint notified = 0;
  g_autofree char *summary = NULL;

  request = record (trace, MCP_TRACE_DIRECTION_OUT,
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                    "\"params\":{\"name\":\"echo\",\"_meta\":{\"progressToken\":7}}}");
  g_signal_connect (trace, "updated", G_CALLBACK (count_updated), &notified);
  g_assert_cmpint (mcp_trace_entry_get_duration (request), ==, -1);
  g_assert_cmpuint (mcp_trace_entry_get_response_seq (request), ==, 0);

  progress = record (trace, MCP_TRACE_DIRECTION_IN,
                     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                     "\"params\":{\"progressToken\":7,\"progress\":1}}");
  g_assert_cmpuint (mcp_trace_entry_get_related_seq (progress), ==, mcp_trace_entry_get_seq (request));

  response = record (trace, MCP_TRACE_DIRECTION_IN,
                     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}");
  g_assert_cmpuint (mcp_trace_entry_get_response_seq (request), ==, mcp_trace_entry_get_seq (response));
  g_assert_cmpuint (mcp_trace_entry_get_request_seq (response), ==, mcp_trace_entry_get_seq (request));
  g_assert_cmpstr (mcp_trace_entry_get_method (response), ==, "tools/call");
  g_assert_cmpint (mcp_trace_entry_get_duration (request), >=, 0);
  g_assert_cmpint (mcp_trace_entry_get_duration (response), ==, mcp_trace_entry_get_duration (request));
  g_assert_cmpuint (notified, ==, 1);

  /* A string id and an error answer: classified, paired. */
  error_request = record (trace, MCP_TRACE_DIRECTION_OUT,
                          "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"nope\"}");
  cancel = record (trace, MCP_TRACE_DIRECTION_OUT,
                   "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                   "\"params\":{\"requestId\":\"a\"}}");
  g_assert_cmpuint (mcp_trace_entry_get_related_seq (cancel), ==, mcp_trace_entry_get_seq (error_request));
  error_response = record (trace, MCP_TRACE_DIRECTION_IN,
                           "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
  g_assert_cmpint (mcp_trace_entry_get_error_class (error_response), ==, MCP_TRACE_ERROR_JSONRPC);
  g_assert_cmpint (mcp_trace_entry_get_error_code (error_response), ==, -32601);
  g_assert_cmpint (mcp_trace_entry_get_error_class (error_request), ==, MCP_TRACE_ERROR_JSONRPC);
  g_assert_cmpstr (mcp_trace_entry_get_method (error_response), ==, "nope");
  summary = mcp_trace_entry_dup_summary (error_response);
  g_assert_nonnull (strstr (summary, "-32601"));

  /* An answer to a request never seen is kept, unpaired. */
  response = record (trace, MCP_TRACE_DIRECTION_IN, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}");
  g_assert_cmpuint (mcp_trace_entry_get_request_seq (response), ==, 0);

  /* The server's request, paired with our answer. */
  request = record (trace, MCP_TRACE_DIRECTION_IN,
                    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"roots/list\"}");
  response = record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"roots\":[]}}");
  g_assert_cmpuint (mcp_trace_entry_get_request_seq (response), ==, mcp_trace_entry_get_seq (request));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, 9);

  /* A request the transport could not deliver: it takes the error, and an
   * event tied to it says why. */
  request = record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/list\"}");
  {
    g_autoptr(JsonNode) id = mcp_message_id_new_int (12);
    g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED,
                                                   "Connection refused");
    McpTraceEntry *event;

    mcp_trace_record_request_failed (trace, id, error, 0);
    event = mcp_trace_lookup (trace, mcp_trace_entry_get_seq (request) + 1);
    g_assert_cmpint (mcp_trace_entry_get_kind (event), ==, MCP_TRACE_KIND_EVENT);
    g_assert_cmpstr (mcp_trace_entry_get_method (event), ==, "request-failed");
    g_assert_cmpuint (mcp_trace_entry_get_related_seq (event), ==, mcp_trace_entry_get_seq (request));
    g_assert_cmpint (mcp_trace_entry_get_error_class (request), ==, MCP_TRACE_ERROR_TRANSPORT);
    g_assert_cmpstr (mcp_trace_entry_get_error_text (request), ==, "Connection refused");
    g_assert_cmpint (mcp_trace_entry_get_duration (request), >=, 0);
  }
}

static void
test_rounds (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  McpTraceEntry *first, *first_answer, *second, *second_answer, *third;

  first = record (trace, MCP_TRACE_DIRECTION_OUT,
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");
  first_answer = record (trace, MCP_TRACE_DIRECTION_IN,
                         "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"input_required\"}}");
  mcp_trace_note_round (trace, 3, 4, 2);
  second = record (trace, MCP_TRACE_DIRECTION_OUT,
                   "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"inputResponses\":{}}}");
  second_answer = record (trace, MCP_TRACE_DIRECTION_IN,
                          "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"input_required\"}}");
  mcp_trace_note_round (trace, 4, 5, 3);
  third = record (trace, MCP_TRACE_DIRECTION_OUT,
                  "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"inputResponses\":{}}}");

  g_assert_cmpuint (mcp_trace_entry_get_group_seq (first), ==, mcp_trace_entry_get_seq (first));
  g_assert_cmpuint (mcp_trace_entry_get_round (first), ==, 1);
  g_assert_cmpuint (mcp_trace_entry_get_group_seq (first_answer), ==, mcp_trace_entry_get_seq (first));
  g_assert_cmpuint (mcp_trace_entry_get_group_seq (second), ==, mcp_trace_entry_get_seq (first));
  g_assert_cmpuint (mcp_trace_entry_get_round (second), ==, 2);
  g_assert_cmpuint (mcp_trace_entry_get_group_seq (second_answer), ==, mcp_trace_entry_get_seq (first));
  g_assert_cmpuint (mcp_trace_entry_get_round (second_answer), ==, 2);
  g_assert_cmpuint (mcp_trace_entry_get_group_seq (third), ==, mcp_trace_entry_get_seq (first));
  g_assert_cmpuint (mcp_trace_entry_get_round (third), ==, 3);
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *n_items)
{
  /* What a GListModel user keeps in step with. */
  *n_items = *n_items - removed + added;
  g_assert_cmpuint (*n_items, ==, g_list_model_get_n_items (model));
}

static void
test_bounded (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (64 * 1024);
  g_autoptr(GString) big = g_string_new (NULL);
  g_autofree char *huge = NULL;
  McpTraceEntry *first;
  guint n_items = 0;
  guint64 first_seq;

  g_signal_connect (trace, "items-changed", G_CALLBACK (on_items_changed), &n_items);
  first = record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"slow\"}");
  first_seq = mcp_trace_entry_get_seq (first);

  g_string_append (big, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"");
  for (guint i = 0; i < 1000; i++)
    g_string_append_c (big, 'a' + i % 26);
  g_string_append (big, "\"}}");

  /* A flood: 20,000 notifications of 1 KB into a 64 KiB ring. */
  for (guint i = 0; i < 20000; i++)
    {
      g_autoptr(McpMessage) message = parse_one (big->str);

      mcp_trace_record_message (trace, MCP_TRACE_DIRECTION_IN, message, big->str, big->len);
      g_assert_cmpuint (mcp_trace_get_bytes (trace), <=, 64 * 1024);
    }
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), <, 100);
  g_assert_cmpuint (mcp_trace_get_dropped (trace), >, 19900);
  g_assert_null (mcp_trace_lookup (trace, first_seq));

  /* The answer to an evicted request: kept, and says which it was. */
  first = record (trace, MCP_TRACE_DIRECTION_IN, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  g_assert_cmpuint (mcp_trace_entry_get_request_seq (first), ==, first_seq);
  g_assert_null (mcp_trace_entry_get_method (first));

  /* One message larger than the whole ring is cut, and still kept. */
  huge = g_strnfill (2 * 1024 * 1024, 'x');
  {
    g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"x\":\"%s\"}}", huge);
    McpTraceEntry *entry = record (trace, MCP_TRACE_DIRECTION_IN, text);

    g_assert_true (mcp_trace_entry_get_truncated (entry));
    g_assert_cmpuint (mcp_trace_entry_get_size (entry), ==, strlen (text));
    g_assert_cmpuint (strlen (mcp_trace_entry_get_text (entry)), <=, MCP_TRACE_MAX_TEXT_BYTES);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, 1);
  }

  /* Made smaller, it drops what no longer fits at once. */
  mcp_trace_set_max_bytes (trace, 1);
  g_assert_cmpuint (mcp_trace_get_max_bytes (trace), ==, MCP_TRACE_MIN_MAX_BYTES);

  mcp_trace_clear (trace);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, 0);
  g_assert_cmpuint (n_items, ==, 0);
  g_signal_handlers_disconnect_by_data (trace, &n_items);
}

#define SECRETS_IN_TEST "sk-env-value-12345", "tok-AAAA-bearer", "cookie-val-999", "apikey-HEADER-77", \
                        "AT-access-42", "RT-refresh-43", "CODE-authz-44", "VERIFIER-45", "CS-client-46", \
                        "QK-query-47", "ID-token-48", "pw-hunter2x"

static void
test_masking (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  const char *secrets[] = { "sk-env-value-12345", NULL };
  const char *never[] = { SECRETS_IN_TEST };
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(SoupMessage) token = NULL;
  g_autofree char *everything = NULL;
  const char *form = "grant_type=authorization_code&code=CODE-authz-44&code_verifier=VERIFIER-45"
                     "&client_secret=CS-client-46&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb";
  const char *token_body = "{\"access_token\":\"AT-access-42\",\"refresh_token\":\"RT-refresh-43\","
                           "\"id_token\":\"ID-token-48\",\"token_type\":\"Bearer\",\"expires_in\":3600}";
  McpTraceEntry *entry;

  mcp_trace_set_secrets (trace, secrets);

  msg = soup_message_new ("POST", "https://example.com/mcp?api_key=QK-query-47&state=visible-state");
  soup_message_headers_append (soup_message_get_request_headers (msg), "Authorization", "Bearer tok-AAAA-bearer");
  soup_message_headers_append (soup_message_get_request_headers (msg), "Cookie", "session=cookie-val-999");
  soup_message_headers_append (soup_message_get_request_headers (msg), "X-Api-Key", "apikey-HEADER-77");
  soup_message_headers_append (soup_message_get_request_headers (msg), "X-Custom", "has sk-env-value-12345 in it");
  soup_message_headers_append (soup_message_get_request_headers (msg), "Mcp-Session-Id", "sess-1");
  entry = mcp_trace_record_http (trace, msg, "{\"password\":\"pw-hunter2x\",\"user\":\"me\"} trailing", 47,
                                 "application/json");
  mcp_trace_http_got_body (trace, entry, token_body, strlen (token_body));
  g_assert_cmpstr (mcp_trace_entry_get_session_id (entry), ==, "sess-1");
  g_assert_nonnull (strstr (mcp_trace_entry_get_url (entry), "state=visible-state"));

  token = soup_message_new ("POST", "https://auth.example.com/token");
  entry = mcp_trace_record_http (trace, token, form, strlen (form), "application/x-www-form-urlencoded");
  g_assert_nonnull (strstr (mcp_trace_entry_get_request_body (entry), "grant_type=authorization_code"));
  g_assert_nonnull (strstr (mcp_trace_entry_get_request_body (entry), "redirect_uri="));

  /* A server's own secret in a message, and token fields in one. */
  record (trace, MCP_TRACE_DIRECTION_OUT,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
          "\"arguments\":{\"key\":\"sk-env-value-12345\",\"port\":12345}}}");
  entry = record (trace, MCP_TRACE_DIRECTION_IN,
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"structuredContent\":{\"access_token\":\"AT-access-42\"}}}");
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (entry), "structuredContent"));
  mcp_trace_record_stderr (trace, "starting with key sk-env-value-12345");
  mcp_trace_record_event (trace, "error", "Bearer tok-AAAA-bearer was refused", NULL, NULL);
  mcp_trace_record_auth_step (trace, "token-exchange", MCP_TRACE_STEP_OK,
                              "https://auth.example.com/cb?code=CODE-authz-44", 0);

  everything = all_outputs (trace);
  for (guint i = 0; i < G_N_ELEMENTS (never); i++)
    if (strstr (everything, never[i]) != NULL)
      g_error ("“%s” appears in the trace's output", never[i]);
  g_assert_nonnull (strstr (everything, "Bearer ***"));
  g_assert_nonnull (strstr (everything, "\"Authorization: $AUTHORIZATION\""));
}

static void
test_jsonl (void)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GPtrArray) originals = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", "http://127.0.0.1:9/mcp");
  g_autofree char *har = NULL;
  g_autoptr(JsonNode) har_node = NULL;

  record (trace, MCP_TRACE_DIRECTION_OUT, "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\"}");
  record (trace, MCP_TRACE_DIRECTION_IN, "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{}}");
  mcp_trace_record_stderr (trace, "a line\twith a tab");
  mcp_trace_record_sse_event (trace, 0, "endpoint", "ev-3", 1500, "/messages?x=1", 13);
  mcp_trace_record_http (trace, msg, NULL, 0, NULL);
  {
    g_autoptr(GPtrArray) messages = NULL;
    /* Not JSON-RPC (and a newline, which must not break the line). */
    const char *garbage = "not json\nat all";
    g_autoptr(GError) parse_error = NULL;

    messages = mcp_message_parse (garbage, -1, &parse_error);
    g_assert_null (messages);
    mcp_trace_record_invalid (trace, garbage, strlen (garbage), parse_error);
  }

  mcp_trace_append_jsonl (trace, "my server", out);
  {
    g_auto(GStrv) lines = g_strsplit (out->str, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines) - 1, ==, 6);
  }
  entries = mcp_trace_read_jsonl (out->str, out->len, &servers, &error);
  g_assert_no_error (error);
  originals = mcp_trace_dup_entries (trace);
  g_assert_cmpuint (entries->len, ==, originals->len);
  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *a = g_ptr_array_index (originals, i);
      McpTraceEntry *b = g_ptr_array_index (entries, i);
      g_autofree char *sa = mcp_trace_entry_dup_summary (a);
      g_autofree char *sb = mcp_trace_entry_dup_summary (b);

      g_assert_cmpstr (g_ptr_array_index (servers, i), ==, "my server");
      g_assert_cmpuint (mcp_trace_entry_get_seq (a), ==, mcp_trace_entry_get_seq (b));
      g_assert_cmpint (mcp_trace_entry_get_time (a), ==, mcp_trace_entry_get_time (b));
      g_assert_cmpint (mcp_trace_entry_get_kind (a), ==, mcp_trace_entry_get_kind (b));
      g_assert_cmpstr (mcp_trace_entry_get_text (a), ==, mcp_trace_entry_get_text (b));
      g_assert_cmpstr (mcp_trace_entry_get_id (a), ==, mcp_trace_entry_get_id (b));
      g_assert_cmpstr (sa, ==, sb);
    }

  /* A line that is not a record fails with its number. */
  g_string_append (out, "{\"seq\":1,\"kind\":\"nonsense\"}\n");
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = mcp_trace_read_jsonl (out->str, out->len, NULL, &error);
  g_assert_null (entries);
  g_assert_nonnull (strstr (error->message, "Line 7"));
  g_clear_error (&error);
  entries = mcp_trace_read_jsonl ("{\"seq\":", 7, NULL, &error);
  g_assert_null (entries);
  g_assert_nonnull (strstr (error->message, "Line 1"));
  g_clear_error (&error);

  /* HAR: the HTTP exchange only, as a HAR 1.2 log. */
  har = mcp_trace_entries_to_har (originals);
  har_node = mcp_json_parse (har, strlen (har), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (har_node), "log"), "version"), ==, "1.2");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
      json_object_get_object_member (json_node_get_object (har_node), "log"), "entries")), ==, 1);
}

static gboolean
has_kind_with (McpTrace     *trace,
               McpTraceKind  kind,
               const char   *text)
{
  g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (trace);

  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);

      if (mcp_trace_entry_get_kind (entry) == kind &&
          (text == NULL || (mcp_trace_entry_get_text (entry) != NULL &&
                            strstr (mcp_trace_entry_get_text (entry), text) != NULL)))
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_stderr (gpointer data)
{
  return has_kind_with (data, MCP_TRACE_KIND_STDERR, NULL);
}

/* A real server over stdio: what went each way, its stderr, its garbage. */
static void
test_stdio_live (void)
{
  const char *argv[] = { test_fixture_server (), "--stderr-lines", "2", "--garbage-at-start", NULL };
  TestStdioHarness *h = test_stdio_harness_new (argv, NULL, NULL);
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  g_autoptr(GPtrArray) entries = NULL;
  McpTraceEntry *request = NULL;
  McpTraceEntry *response = NULL;

  mcp_transport_set_trace (h->transport, trace);
  g_assert_true (test_stdio_harness_connect (h, NULL));
  test_stdio_harness_send_request (h, 1, "initialize", "{\"protocolVersion\":\"2025-06-18\"}");
  TEST_WAIT_UNTIL (h->messages->len == 1);
  test_iterate_until (has_stderr, trace, "a stderr line in the trace");
  test_stdio_harness_close (h);

  entries = mcp_trace_dup_entries (trace);
  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);

      if (mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_MESSAGE)
        continue;
      if (mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_OUT)
        request = entry;
      else
        response = entry;
    }
  g_assert_nonnull (request);
  g_assert_nonnull (response);
  g_assert_cmpstr (mcp_trace_entry_get_method (request), ==, "initialize");
  g_assert_cmpuint (mcp_trace_entry_get_response_seq (request), ==, mcp_trace_entry_get_seq (response));
  g_assert_nonnull (strstr (mcp_trace_entry_get_text (response), "\"protocolVersion\""));
  g_assert_true (has_kind_with (trace, MCP_TRACE_KIND_INVALID, NULL));
  g_assert_true (has_kind_with (trace, MCP_TRACE_KIND_EVENT, NULL));
  test_stdio_harness_free (h);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace/pairing", test_pairing);
  g_test_add_func ("/trace/rounds", test_rounds);
  g_test_add_func ("/trace/bounded", test_bounded);
  g_test_add_func ("/trace/masking", test_masking);
  g_test_add_func ("/trace/jsonl", test_jsonl);
  g_test_add_func ("/trace/stdio-live", test_stdio_live);

  return g_test_run ();
}
