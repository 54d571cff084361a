/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-message"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-message.h"

static McpMessage *
parse_one (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;

  messages = mcp_message_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (messages);
  g_assert_cmpuint (messages->len, ==, 1);

  return g_object_ref (g_ptr_array_index (messages, 0));
}

static void
assert_parse_fails (const char *text,
                    int         code,
                    const char *expected_message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;

  messages = mcp_message_parse (text, -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, code);
  if (expected_message != NULL)
    g_assert_cmpstr (error->message, ==, expected_message);
}

static void
test_request_int_id (void)
{
  g_autoptr(McpMessage) message = NULL;
  JsonObject *params;
  gint64 id = 0;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"c1\"}}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (mcp_message_get_method (message), ==, "tools/list");
  g_assert_true (mcp_message_get_int_id (message, &id));
  g_assert_cmpint (id, ==, 7);
  params = mcp_message_get_params_object (message);
  g_assert_nonnull (params);
  g_assert_cmpstr (json_object_get_string_member (params, "cursor"), ==, "c1");
  g_assert_null (mcp_message_get_result (message));
}

static void
test_request_string_id (void)
{
  g_autoptr(McpMessage) message = NULL;
  JsonNode *id;
  gint64 int_id = 99;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":\"42\",\"method\":\"ping\"}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_REQUEST);
  id = mcp_message_get_id (message);
  g_assert_nonnull (id);
  g_assert_cmpstr (json_node_get_string (id), ==, "42");
  /* a string that holds digits is not an integer id */
  g_assert_false (mcp_message_get_int_id (message, &int_id));
  g_assert_cmpint (int_id, ==, 99);
  g_assert_null (mcp_message_get_params (message));
  g_assert_null (mcp_message_get_params_object (message));
}

static void
test_request_array_params (void)
{
  g_autoptr(McpMessage) message = NULL;
  JsonNode *params;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":[1,2]}");
  params = mcp_message_get_params (message);
  g_assert_nonnull (params);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (params));
  g_assert_null (mcp_message_get_params_object (message));
}

static void
test_notification (void)
{
  g_autoptr(McpMessage) message = NULL;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_NOTIFICATION);
  g_assert_cmpstr (mcp_message_get_method (message), ==, "notifications/tools/list_changed");
  g_assert_null (mcp_message_get_id (message));
  g_assert_false (mcp_message_get_int_id (message, NULL));
}

static void
test_result (void)
{
  g_autoptr(McpMessage) message = NULL;
  JsonNode *result;
  gint64 id = 0;

  message = parse_one ("{\"result\":{\"tools\":[]},\"jsonrpc\":\"2.0\",\"id\":3}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_RESULT);
  g_assert_true (mcp_message_get_int_id (message, &id));
  g_assert_cmpint (id, ==, 3);
  result = mcp_message_get_result (message);
  g_assert_nonnull (result);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  g_assert_null (mcp_message_get_method (message));
}

static void
test_result_null_value (void)
{
  g_autoptr(McpMessage) message = NULL;

  /* "result": null is still a result */
  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_RESULT);
  g_assert_nonnull (mcp_message_get_result (message));
  g_assert_true (JSON_NODE_HOLDS_NULL (mcp_message_get_result (message)));
}

static void
test_error (void)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *data;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32601,"
                       "\"message\":\"No such method\",\"data\":{\"method\":\"x\"}}}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (message), ==, -32601);
  g_assert_cmpstr (mcp_message_get_error_message (message), ==, "No such method");
  data = mcp_message_get_error_data (message);
  g_assert_nonnull (data);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (data), "method"), ==, "x");

  error = mcp_message_to_gerror (message);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "No such method");

  /* The GError keeps the data, through copies too. */
  g_assert_true (mcp_jsonrpc_error_get_data (error) == data);
  {
    g_autoptr(GError) copy = g_error_copy (error);
    JsonNode *copied = mcp_jsonrpc_error_get_data (copy);

    g_assert_nonnull (copied);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (copied), "method"), ==, "x");
  }
}

/* The peer's own message survives what the layers above prefix to the
 * GError's (issue 23, point 6: --json prints the server's message). */
static void
test_error_peer_message (void)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) plain = g_error_new_literal (MCP_JSONRPC_ERROR, -1, "made here");
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "not a peer's");

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,"
                       "\"message\":\"Quota exceeded\",\"data\":{\"retryAfter\":30}}}");
  error = mcp_message_to_gerror (message);
  g_prefix_error (&error, "Calling %s failed: ", "x");
  g_assert_cmpstr (error->message, ==, "Calling x failed: Quota exceeded");
  g_assert_cmpstr (mcp_jsonrpc_error_get_message (error), ==, "Quota exceeded");
  g_assert_nonnull (mcp_jsonrpc_error_get_data (error));
  {
    g_autoptr(GError) copy = g_error_copy (error);

    g_assert_cmpstr (mcp_jsonrpc_error_get_message (copy), ==, "Quota exceeded");
  }

  g_assert_cmpstr (mcp_jsonrpc_error_get_message (plain), ==, "made here");
  g_assert_null (mcp_jsonrpc_error_get_message (other));
}

static void
test_error_null_id (void)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"\"}}");
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_ERROR);
  g_assert_null (mcp_message_get_id (message));
  g_assert_null (mcp_message_get_error_data (message));

  /* an empty message falls back to the code's name */
  error = mcp_message_to_gerror (message);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_cmpstr (error->message, ==, "Parse error");
  g_assert_null (mcp_jsonrpc_error_get_data (error));
}

static void
test_error_custom_code (void)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32002,\"message\":\"Resource not found: x\"}}");
  error = mcp_message_to_gerror (message);
  g_assert_error (error, MCP_JSONRPC_ERROR, -32002);
  g_assert_cmpstr (error->message, ==, "Resource not found: x");
}

typedef struct
{
  const char *name;
  const char *text;
  const char *message;
} InvalidCase;

static const InvalidCase invalid_cases[] = {
  { "not-object", "42",
    "Invalid JSON-RPC message: $ must be an object, not an integer" },
  { "string", "\"hello\"",
    "Invalid JSON-RPC message: $ must be an object, not a string" },
  { "jsonrpc-missing", "{\"id\":1,\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.jsonrpc is missing (must be \"2.0\")" },
  { "jsonrpc-wrong", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.jsonrpc must be \"2.0\"" },
  { "jsonrpc-number", "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.jsonrpc must be \"2.0\"" },
  { "id-float", "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.id must be a string or an integer, not a number with a fraction or exponent" },
  { "id-float-integral", "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"result\":{}}",
    "Invalid JSON-RPC message: $.id must be a string or an integer, not a number with a fraction or exponent" },
  { "id-bool", "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.id must be a string or an integer, not a boolean" },
  { "id-object", "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.id must be a string or an integer, not an object" },
  { "id-array", "{\"jsonrpc\":\"2.0\",\"id\":[1],\"result\":{}}",
    "Invalid JSON-RPC message: $.id must be a string or an integer, not an array" },
  { "id-null-request", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"m\"}",
    "Invalid JSON-RPC message: $.id must not be null in a request" },
  { "id-null-result", "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}",
    "Invalid JSON-RPC message: $.id must not be null in a result" },
  { "id-missing-result", "{\"jsonrpc\":\"2.0\",\"result\":{}}",
    "Invalid JSON-RPC message: $.id is missing in a response" },
  { "id-missing-error", "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":1,\"message\":\"m\"}}",
    "Invalid JSON-RPC message: $.id is missing in a response" },
  { "method-number", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}",
    "Invalid JSON-RPC message: $.method must be a string, not an integer" },
  { "method-and-result", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"result\":{}}",
    "Invalid JSON-RPC message: $ has both method and result" },
  { "params-string", "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":\"x\"}",
    "Invalid JSON-RPC message: $.params must be an object or an array, not a string" },
  { "result-and-error", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}",
    "Invalid JSON-RPC message: $ has both result and error" },
  { "nothing", "{\"jsonrpc\":\"2.0\",\"id\":1}",
    "Invalid JSON-RPC message: $ has no method, result or error" },
  { "error-string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"bad\"}",
    "Invalid JSON-RPC message: $.error must be an object, not a string" },
  { "error-code-missing", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"message\":\"m\"}}",
    "Invalid JSON-RPC message: $.error.code is missing" },
  { "error-code-string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"-1\",\"message\":\"m\"}}",
    "Invalid JSON-RPC message: $.error.code must be an integer, not a string" },
  { "error-code-float", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-1.5,\"message\":\"m\"}}",
    "Invalid JSON-RPC message: $.error.code must be an integer, not a number with a fraction or exponent" },
  { "error-code-range", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":4294967296,\"message\":\"m\"}}",
    "Invalid JSON-RPC message: $.error.code is out of range (4294967296)" },
  { "error-message-missing", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}",
    "Invalid JSON-RPC message: $.error.message is missing" },
  { "error-message-number", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":2}}",
    "Invalid JSON-RPC message: $.error.message must be a string, not an integer" },
  { "batch-empty", "[]",
    "Invalid JSON-RPC message: $ is an empty batch" },
  { "batch-mixed",
    "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},"
    " {\"jsonrpc\":\"2.0\",\"method\":\"n\"},"
    " {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":false}]",
    "Invalid JSON-RPC message: $[2].method must be a string, not a boolean" },
  { "batch-nested", "[{\"jsonrpc\":\"2.0\",\"method\":\"n\"},[]]",
    "Invalid JSON-RPC message: $[1] must be an object, not an array" },
  { "batch-id-too-large",
    "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},"
    "{\"jsonrpc\":\"2.0\",\"id\":99999999999999999999,\"result\":{}}]",
    "Invalid JSON-RPC message: $[1].id is an integer outside the 64-bit range" },
  { "id-too-large", "{\"jsonrpc\":\"2.0\",\"id\":9223372036854775808,\"result\":{}}",
    "Invalid JSON-RPC message: $.id is an integer outside the 64-bit range" },
  { "id-far-too-large", "{\"jsonrpc\":\"2.0\",\"id\":99999999999999999999,\"result\":{}}",
    "Invalid JSON-RPC message: $.id is an integer outside the 64-bit range" },
  { "id-far-too-small", "{\"jsonrpc\":\"2.0\",\"id\": -99999999999999999999,\"result\":{}}",
    "Invalid JSON-RPC message: $.id is an integer outside the 64-bit range" },
};

static void
test_invalid (gconstpointer data)
{
  const InvalidCase *c = data;

  assert_parse_fails (c->text, MCP_JSONRPC_ERROR_INVALID_REQUEST, c->message);
}

static void
test_not_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;

  messages = mcp_message_parse ("{\"jsonrpc\":\"2.0\",", -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_cmpstr (error->message, !=, "");
  g_clear_error (&error);

  messages = mcp_message_parse ("hello", -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_clear_error (&error);

  messages = mcp_message_parse ("", -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_clear_error (&error);

  messages = mcp_message_parse ("   \n", -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_clear_error (&error);

  /* not UTF-8 */
  messages = mcp_message_parse ("{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}", -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
}

static void
test_strict_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(McpMessage) message = NULL;
  JsonNode *big;

  /* two values on one line: neither is silently dropped */
  messages = mcp_message_parse ("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}{\"jsonrpc\":\"2.0\",\"method\":\"b\"}",
                                -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_cmpstr (error->message, ==, "Invalid JSON at line 1, column 31: unexpected data after the JSON value");
  g_clear_error (&error);

  messages = mcp_message_parse ("{\"jsonrpc\":\"2.0\",\"method\" \"a\"}", -1, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_cmpstr (error->message, ==, "Invalid JSON at line 1, column 27: expected ‘:’ after an object key");
  g_clear_error (&error);

  /* an integer beyond 64 bits in params reads as the double it is close
   * to, never as a wrapped integer */
  message = parse_one ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"n\":99999999999999999999}}");
  big = json_object_get_member (mcp_message_get_params_object (message), "n");
  g_assert_true (json_node_get_value_type (big) == G_TYPE_DOUBLE);
  g_assert_cmpfloat (json_node_get_double (big), ==, 1e20);
}

static void
test_length (void)
{
  const char *text = "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}GARBAGE";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;

  /* only @length bytes are read; the data need not be nul-terminated there */
  messages = mcp_message_parse (text, strlen (text) - strlen ("GARBAGE"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (messages, 0)), ==, "a");
}

static void
test_deep_nesting (void)
{
  gsize depth = 200000;
  g_autoptr(GString) deep = g_string_new ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":");
  g_autoptr(GString) fine = g_string_new ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;

  /* would overflow json-glib's recursive parser */
  for (gsize i = 0; i < depth; i++)
    g_string_append_c (deep, '[');
  for (gsize i = 0; i < depth; i++)
    g_string_append_c (deep, ']');
  g_string_append_c (deep, '}');

  messages = mcp_message_parse (deep->str, deep->len, &error);
  g_assert_null (messages);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "nested deeper than"));
  g_clear_error (&error);

  /* brackets inside strings, escaped quotes included, are not nesting */
  for (gsize i = 0; i < 1000; i++)
    g_string_append (fine, "[{\\\"");
  g_string_append (fine, "\"}}");

  messages = mcp_message_parse (fine->str, fine->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 1);
}

static void
test_batch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  McpMessage *message;
  gint64 id = 0;

  messages = mcp_message_parse ("[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},"
                                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"},"
                                "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"},"
                                "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,\"message\":\"boom\"}}]",
                                -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (messages);
  g_assert_cmpuint (messages->len, ==, 4);

  message = g_ptr_array_index (messages, 0);
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_RESULT);
  g_assert_true (mcp_message_get_int_id (message, &id));
  g_assert_cmpint (id, ==, 1);

  message = g_ptr_array_index (messages, 1);
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_NOTIFICATION);

  message = g_ptr_array_index (messages, 2);
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (json_node_get_string (mcp_message_get_id (message)), ==, "x");

  message = g_ptr_array_index (messages, 3);
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (message), ==, -32603);
}

static void
test_big_batch (void)
{
  g_autoptr(GString) text = g_string_new ("[");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  gint64 id = 0;

  /* many integer ids: each is checked without reading the text again */
  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (text, "%s{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":{\"n\":%u}}",
                            i > 0 ? "," : "", i, i);
  g_string_append_c (text, ']');

  messages = mcp_message_parse (text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 20000);
  g_assert_true (mcp_message_get_int_id (g_ptr_array_index (messages, 19999), &id));
  g_assert_cmpint (id, ==, 19999);
}

static void
test_huge_ids (void)
{
  static const struct {
    const char *text;
    gint64 id;
  } cases[] = {
    { "{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"result\":{}}", G_MAXINT64 },
    { "{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775808,\"result\":{}}", G_MININT64 },
    { "{\"jsonrpc\":\"2.0\",\"id\" : 9007199254740993,\"result\":{}}", G_GINT64_CONSTANT (9007199254740993) },
    { "{\"result\":{\"id\":5},\"jsonrpc\":\"2.0\",\"id\":-1}", -1 },
    { "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(McpMessage) message = parse_one (cases[i].text);
      g_autofree char *text = NULL;
      g_autoptr(McpMessage) again = NULL;
      gint64 id = 0;

      g_assert_true (mcp_message_get_int_id (message, &id));
      g_assert_cmpint (id, ==, cases[i].id);

      text = mcp_message_to_string (message, NULL);
      again = parse_one (text);
      g_assert_true (mcp_message_get_int_id (again, &id));
      g_assert_cmpint (id, ==, cases[i].id);
    }
}

static void
test_serialize_order (void)
{
  g_autoptr(JsonNode) id = mcp_message_id_new_int (12);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(McpMessage) request = NULL;
  g_autoptr(McpMessage) notification = NULL;
  g_autoptr(McpMessage) result = NULL;
  g_autoptr(McpMessage) error = NULL;
  g_autoptr(McpMessage) null_error = NULL;
  g_autofree char *text1 = NULL;
  g_autofree char *text2 = NULL;
  g_autofree char *text3 = NULL;
  g_autofree char *text4 = NULL;
  g_autofree char *text5 = NULL;
  gsize length = 0;

  g_assert_true (json_parser_load_from_data (parser, "{\"name\":\"echo\",\"arguments\":{\"a\":[1,2]}}", -1, NULL));

  request = mcp_message_new_request (id, "tools/call", json_parser_get_root (parser));
  text1 = mcp_message_to_string (request, &length);
  g_assert_cmpstr (text1, ==,
                   "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\","
                   "\"params\":{\"name\":\"echo\",\"arguments\":{\"a\":[1,2]}}}");
  g_assert_cmpuint (length, ==, strlen (text1));

  notification = mcp_message_new_notification ("notifications/initialized", NULL);
  text2 = mcp_message_to_string (notification, NULL);
  g_assert_cmpstr (text2, ==, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

  result = mcp_message_new_result (id, json_parser_get_root (parser));
  text3 = mcp_message_to_string (result, NULL);
  g_assert_cmpstr (text3, ==,
                   "{\"jsonrpc\":\"2.0\",\"id\":12,"
                   "\"result\":{\"name\":\"echo\",\"arguments\":{\"a\":[1,2]}}}");

  error = mcp_message_new_error (id, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND, "Method not found",
                                 json_parser_get_root (parser));
  text4 = mcp_message_to_string (error, NULL);
  g_assert_cmpstr (text4, ==,
                   "{\"jsonrpc\":\"2.0\",\"id\":12,\"error\":{\"code\":-32601,"
                   "\"message\":\"Method not found\","
                   "\"data\":{\"name\":\"echo\",\"arguments\":{\"a\":[1,2]}}}}");

  null_error = mcp_message_new_error (NULL, MCP_JSONRPC_ERROR_PARSE_ERROR, "Parse error", NULL);
  text5 = mcp_message_to_string (null_error, NULL);
  g_assert_cmpstr (text5, ==,
                   "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
}

static void
assert_same_message (McpMessage *a,
                     McpMessage *b)
{
  g_autoptr(JsonNode) node_a = mcp_message_to_node (a);
  g_autoptr(JsonNode) node_b = mcp_message_to_node (b);

  g_assert_cmpint (mcp_message_get_kind (a), ==, mcp_message_get_kind (b));
  g_assert_cmpstr (mcp_message_get_method (a), ==, mcp_message_get_method (b));
  g_assert_cmpint (mcp_message_get_error_code (a), ==, mcp_message_get_error_code (b));
  g_assert_cmpstr (mcp_message_get_error_message (a), ==, mcp_message_get_error_message (b));
  g_assert_true (json_node_equal (node_a, node_b));
}

static void
test_round_trip (void)
{
  g_autoptr(JsonNode) int_id = mcp_message_id_new_int (1);
  g_autoptr(JsonNode) string_id = mcp_message_id_new_string ("req-1");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) originals = g_ptr_array_new_with_free_func (g_object_unref);
  JsonNode *params;

  g_assert_true (json_parser_load_from_data (parser,
                                             "{\"s\":\"x\",\"n\":-3,\"f\":0.25,\"b\":false,"
                                             "\"z\":null,\"a\":[{},[]]}", -1, NULL));
  params = json_parser_get_root (parser);

  g_ptr_array_add (originals, mcp_message_new_request (int_id, "a/b", params));
  g_ptr_array_add (originals, mcp_message_new_request (string_id, "a/b", NULL));
  g_ptr_array_add (originals, mcp_message_new_notification ("n", params));
  g_ptr_array_add (originals, mcp_message_new_result (string_id, params));
  g_ptr_array_add (originals, mcp_message_new_error (int_id, -32000, "server said no", params));
  g_ptr_array_add (originals, mcp_message_new_error (NULL, -32700, "bad", NULL));

  for (guint i = 0; i < originals->len; i++)
    {
      McpMessage *original = g_ptr_array_index (originals, i);
      g_autofree char *text = mcp_message_to_string (original, NULL);
      g_autoptr(McpMessage) parsed = parse_one (text);
      g_autofree char *again = mcp_message_to_string (parsed, NULL);
      g_autoptr(JsonNode) node = mcp_message_to_node (original);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpMessage) from_node = NULL;

      assert_same_message (original, parsed);
      g_assert_cmpstr (text, ==, again);

      from_node = mcp_message_new_from_node (node, &error);
      g_assert_no_error (error);
      assert_same_message (original, from_node);
    }

  /* ids keep their type: 1 and "1" are different ids */
  {
    g_autoptr(McpMessage) a = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    g_autoptr(McpMessage) b = parse_one ("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}");
    g_autofree char *text_b = mcp_message_to_string (b, NULL);

    g_assert_false (json_node_equal (mcp_message_get_id (a), mcp_message_get_id (b)));
    g_assert_cmpstr (text_b, ==, "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}");
  }
}

static void
test_no_newline (void)
{
  const char *tricky = "line one\nline two\r\n\ttab \"quoted\" back\\slash "
                       "\xe2\x80\xa8 \xe2\x80\xa9 caf\xc3\xa9 \xf0\x9f\x94\x8c \x01";
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) params_node = json_node_alloc ();
  g_autoptr(JsonNode) id = mcp_message_id_new_string ("id\nwith newline");
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(McpMessage) parsed = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  json_object_set_string_member (params, "text", tricky);
  json_object_set_string_member (params, "key\nwith newline", "v");
  json_node_init_object (params_node, params);

  message = mcp_message_new_request (id, "method\nname", params_node);
  text = mcp_message_to_string (message, &length);

  g_assert_cmpuint (length, ==, strlen (text));
  g_assert_null (strchr (text, '\n'));
  g_assert_null (strchr (text, '\r'));
  g_assert_true (g_utf8_validate (text, -1, NULL));

  parsed = parse_one (text);
  g_assert_cmpstr (mcp_message_get_method (parsed), ==, "method\nname");
  g_assert_cmpstr (json_node_get_string (mcp_message_get_id (parsed)), ==, "id\nwith newline");
  g_assert_cmpstr (json_object_get_string_member (mcp_message_get_params_object (parsed), "text"), ==, tricky);
  g_assert_cmpstr (json_object_get_string_member (mcp_message_get_params_object (parsed), "key\nwith newline"), ==, "v");
}

static void
test_from_node (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpMessage) message = NULL;

  g_assert_true (json_parser_load_from_data (parser, "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"m\"}", -1, NULL));
  message = mcp_message_new_from_node (json_parser_get_root (parser), &error);
  g_assert_null (message);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_REQUEST);
  g_assert_cmpstr (error->message, ==, "Invalid JSON-RPC message: $.id must be a string or an integer, not a boolean");
  g_clear_error (&error);

  g_assert_true (json_parser_load_from_data (parser, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"m\"}", -1, NULL));
  message = mcp_message_new_from_node (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_REQUEST);
}

static void
test_message_outlives_parser_data (void)
{
  g_autofree char *text = g_strdup ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}");
  g_autoptr(GPtrArray) messages = mcp_message_parse (text, -1, NULL);
  g_autoptr(McpMessage) message = NULL;
  JsonNode *result;

  g_assert_nonnull (messages);
  message = g_object_ref (g_ptr_array_index (messages, 0));
  g_clear_pointer (&messages, g_ptr_array_unref);
  memset (text, 'x', strlen (text));

  result = mcp_message_get_result (message);
  g_assert_nonnull (result);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (result), "content")), ==, 1);
}

static void
test_error_code_names (void)
{
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32700), ==, "Parse error");
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32600), ==, "Invalid request");
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32601), ==, "Method not found");
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32602), ==, "Invalid params");
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32603), ==, "Internal error");
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32002), ==, "Resource not found");
  g_assert_cmpstr (mcp_jsonrpc_error_code_to_string (-32042), ==, "URL elicitation required");
  g_assert_null (mcp_jsonrpc_error_code_to_string (-32001));
  g_assert_null (mcp_jsonrpc_error_code_to_string (0));
  g_assert_null (mcp_jsonrpc_error_code_to_string (42));

  g_assert_cmpstr (g_quark_to_string (MCP_ERROR), ==, "mcp-error-quark");
  g_assert_cmpstr (g_quark_to_string (MCP_JSONRPC_ERROR), ==, "McpJsonrpcError");
  g_assert_cmpuint (MCP_ERROR, !=, MCP_JSONRPC_ERROR);
}

/* The id of a line that does not parse, when it can still be read. */
static void
test_recover_id (void)
{
  static const struct { const char *text; gint64 id; } ints[] = {
    { "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[oops]}}", 7 },
    { " {\"result\":{\"a\":[1,{\"b\":\"}\\\"\"}]},\"id\":-3,\"x\":nope", -3 },
    { "{\"id\":12", 12 },
  };
  static const char * const none[] = {
    "",
    "not json",
    "[{\"id\":1}]",
    "{\"result\":oops,\"id\":1}",          /* the id after the wrong part */
    "{\"id\":1.5,\"result\":x}",
    "{\"id\":1e3,\"result\":x}",
    "{\"id\":null,\"result\":x}",
    "{\"id\":99999999999999999999,\"result\":x}",
    "{\"method\":\"ping\",\"id\":1,\"params\":x}",  /* the server's request */
    "{\"i\\u0064\":1,\"result\":x}",
    "{\"id\":\"a\\\"b\",\"result\":x}",
  };
  g_autoptr(JsonNode) text_id = NULL;
  g_autofree char *long_text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    {
      g_autoptr(JsonNode) id = mcp_message_recover_id (ints[i].text, strlen (ints[i].text));

      g_assert_nonnull (id);
      g_assert_true (json_node_get_value_type (id) == G_TYPE_INT64);
      g_assert_cmpint (json_node_get_int (id), ==, ints[i].id);
    }

  {
    const char *text = "{\"id\":\"abc\",\"error\":";

    text_id = mcp_message_recover_id (text, strlen (text));
  }
  g_assert_nonnull (text_id);
  g_assert_cmpstr (json_node_get_string (text_id), ==, "abc");

  for (guint i = 0; i < G_N_ELEMENTS (none); i++)
    g_assert_null (mcp_message_recover_id (none[i], strlen (none[i])));
  g_assert_null (mcp_message_recover_id (NULL, 0));

  /* bounded: an id past the first 4 KiB is not looked for */
  long_text = g_strdup_printf ("{\"pad\":\"%0*d\",\"id\":5,\"result\":x}", 5000, 0);
  g_assert_null (mcp_message_recover_id (long_text, strlen (long_text)));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/protocol/message/request/int-id", test_request_int_id);
  g_test_add_func ("/protocol/message/request/string-id", test_request_string_id);
  g_test_add_func ("/protocol/message/request/array-params", test_request_array_params);
  g_test_add_func ("/protocol/message/notification", test_notification);
  g_test_add_func ("/protocol/message/result", test_result);
  g_test_add_func ("/protocol/message/result/null-value", test_result_null_value);
  g_test_add_func ("/protocol/message/error", test_error);
  g_test_add_func ("/protocol/message/error/peer-message", test_error_peer_message);
  g_test_add_func ("/protocol/message/error/null-id", test_error_null_id);
  g_test_add_func ("/protocol/message/error/custom-code", test_error_custom_code);
  g_test_add_func ("/protocol/message/error/code-names", test_error_code_names);
  for (guint i = 0; i < G_N_ELEMENTS (invalid_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/protocol/message/invalid/%s", invalid_cases[i].name);

      g_test_add_data_func (path, &invalid_cases[i], test_invalid);
    }
  g_test_add_func ("/protocol/message/not-json", test_not_json);
  g_test_add_func ("/protocol/message/length", test_length);
  g_test_add_func ("/protocol/message/strict-json", test_strict_json);
  g_test_add_func ("/protocol/message/deep-nesting", test_deep_nesting);
  g_test_add_func ("/protocol/message/batch", test_batch);
  g_test_add_func ("/protocol/message/huge-ids", test_huge_ids);
  g_test_add_func ("/protocol/message/big-batch", test_big_batch);
  g_test_add_func ("/protocol/message/serialize/order", test_serialize_order);
  g_test_add_func ("/protocol/message/serialize/no-newline", test_no_newline);
  g_test_add_func ("/protocol/message/round-trip", test_round_trip);
  g_test_add_func ("/protocol/message/from-node", test_from_node);
  g_test_add_func ("/protocol/message/outlives-data", test_message_outlives_parser_data);
  g_test_add_func ("/protocol/message/recover-id", test_recover_id);

  return g_test_run ();
}
