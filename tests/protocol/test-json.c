/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-json"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* Same type, same value, same member order: stricter than json_node_equal(),
 * which takes 1 and 1.0 as equal. */
static gboolean
nodes_identical (JsonNode *a,
                 JsonNode *b)
{
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (a) != json_node_get_value_type (b))
        return FALSE;
      switch (json_node_get_value_type (a))
        {
        case G_TYPE_INT64:
          return json_node_get_int (a) == json_node_get_int (b);
        case G_TYPE_DOUBLE:
          return json_node_get_double (a) == json_node_get_double (b) &&
                 signbit (json_node_get_double (a)) == signbit (json_node_get_double (b));
        case G_TYPE_BOOLEAN:
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        case G_TYPE_STRING:
          return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
        default:
          return FALSE;
        }

    case JSON_NODE_ARRAY:
      {
        JsonArray *x = json_node_get_array (a);
        JsonArray *y = json_node_get_array (b);

        if (json_array_get_length (x) != json_array_get_length (y))
          return FALSE;
        for (guint i = 0; i < json_array_get_length (x); i++)
          if (!nodes_identical (json_array_get_element (x, i), json_array_get_element (y, i)))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_OBJECT:
      {
        JsonObjectIter ix;
        JsonObjectIter iy;
        const char *nx;
        const char *ny;
        JsonNode *mx;
        JsonNode *my;

        if (json_object_get_size (json_node_get_object (a)) != json_object_get_size (json_node_get_object (b)))
          return FALSE;
        json_object_iter_init_ordered (&ix, json_node_get_object (a));
        json_object_iter_init_ordered (&iy, json_node_get_object (b));
        while (json_object_iter_next_ordered (&ix, &nx, &mx))
          {
            if (!json_object_iter_next_ordered (&iy, &ny, &my))
              return FALSE;
            if (strcmp (nx, ny) != 0 || !nodes_identical (mx, my))
              return FALSE;
          }
        return TRUE;
      }

    default:
      return FALSE;
    }
}

static JsonNode *
parse_ok (const char *text,
          gssize      length)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  node = mcp_json_parse (text, length < 0 ? strlen (text) : (gsize)length, &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);

  return node;
}

static char *
write_node (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node);
  g_assert_null (memchr (out->str, '\n', out->len));
  g_assert_null (memchr (out->str, '\r', out->len));
  g_assert_true (g_utf8_validate (out->str, out->len, NULL));

  return g_string_free (out, FALSE);
}

static void
assert_round_trip (JsonNode *node)
{
  g_autofree char *text = write_node (node);
  g_autoptr(JsonNode) again = parse_ok (text, -1);
  g_autofree char *text_again = write_node (again);

  if (!nodes_identical (node, again))
    g_error ("round trip changed the tree: %s", text);
  g_assert_cmpstr (text, ==, text_again);
}

/* Documents json-glib also reads right: the trees must be the same. */
static const char *const valid_same_as_json_glib[] = {
  "{}",
  "[]",
  "0",
  "-0",
  "1",
  "-1",
  "42",
  "123456789012345678",
  "9223372036854775807",
  "-9223372036854775808",
  "0.5",
  "-0.5",
  "-0.0",
  "3.14159",
  "1e5",
  "1E5",
  "1e+5",
  "1e-5",
  "1E-5",
  "1.5e300",
  "1e308",
  "-1e308",
  "2.2250738585072014e-308",
  "0.1",
  "1.0",
  "100.25e-2",
  "true",
  "false",
  "null",
  "\"\"",
  "\"hello\"",
  "\"with space and /slash\"",
  "\"\\\"\"",
  "\"\\\\\"",
  "\"\\/\"",
  "\"\\b\\f\\n\\r\\t\"",
  "\"\\u0041\\u00e9\\u4e2d\"",
  "\"\\u00E9\\u00e9\"",
  "\"\\ud83d\\ude00\"",
  "\"\\uD834\\uDD1E\"",
  "\"\\u2028\\u2029\"",
  "\"\\u001f\\u0001\"",
  "\"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x94\x8c\"",
  "\"\xe2\x80\xa8 raw line separator\"",
  "\"\x7f delete is fine raw\"",
  "\"\xef\xbf\xbf \xf4\x8f\xbf\xbf\"",
  "\"a\\nb\\u0009c\"",
  " \t\r\n{ \"a\" : 1 } \t\r\n",
  "[1,2,3]",
  "[ 1 , 2 , 3 ]",
  "[[[]]]",
  "[{}]",
  "[{},[],\"\",0,null,true,false]",
  "{\"a\":{}}",
  "{\"a\":[]}",
  "{\"a\":{\"b\":{\"c\":{\"d\":[1,[2,[3]]]}}}}",
  "{\"z\":1,\"a\":2,\"m\":3}",
  "{\"\":\"empty key\"}",
  "{\"k\\u00e9y\":\"v\",\"k\\ny\":1}",
  "{\"a\":1,\"b\":2,\"a\":3}",
  "{\"jsonrpc\":\"2.0\",\"id\":14,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}}",
  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":0.5,\"total\":1}}",
  "[-1,-0.25,1e-300,12345.678e10]",
  "{\"nested\":[{\"a\":[{\"b\":null}]},{\"c\":true}]}",
  "[\"\\\"quoted\\\"\",\"back\\\\slash\"]",
  "{\"a\" :[ ]  ,\"b\":{ } }",
  "\"long string with many words to read in one run of the fast path loop\"",
};

static void
test_valid_corpus (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (valid_same_as_json_glib); i++)
    {
      const char *text = valid_same_as_json_glib[i];
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = NULL;
      JsonNode *expected;

      g_test_message ("document %u: %s", i, text);

      g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
      g_assert_no_error (error);
      expected = json_parser_get_root (parser);

      node = parse_ok (text, -1);
      g_assert_true (json_node_equal (node, expected));
      if (!nodes_identical (node, expected))
        g_error ("different tree from json-glib's for %s", text);

      assert_round_trip (node);
    }
}

static void
test_valid_values (void)
{
  g_autoptr(JsonNode) s = parse_ok ("\"a\\u00e9\\ud83d\\ude00\\n\\/\"", -1);
  g_autoptr(JsonNode) d = parse_ok ("1E-5", -1);
  g_autoptr(JsonNode) z = parse_ok ("-0", -1);
  g_autoptr(JsonNode) dz = parse_ok ("-0.0", -1);
  g_autoptr(JsonNode) dup = parse_ok ("{\"a\":1,\"b\":2,\"a\":3}", -1);
  g_autoptr(JsonNode) big = parse_ok ("1e308", -1);
  g_autoptr(JsonNode) tiny = parse_ok ("1e-400", -1);
  g_autoptr(GList) members = NULL;

  g_assert_cmpstr (json_node_get_string (s), ==, "a\xc3\xa9\xf0\x9f\x98\x80\n/");
  g_assert_true (json_node_get_value_type (d) == G_TYPE_DOUBLE);
  g_assert_cmpfloat (json_node_get_double (d), ==, 1e-5);
  g_assert_true (json_node_get_value_type (z) == G_TYPE_INT64);
  g_assert_cmpint (json_node_get_int (z), ==, 0);
  g_assert_true (json_node_get_value_type (dz) == G_TYPE_DOUBLE);
  g_assert_true (signbit (json_node_get_double (dz)));
  g_assert_cmpfloat (json_node_get_double (big), ==, 1e308);
  /* underflow reads as (nearly) zero, as in JavaScript */
  g_assert_cmpfloat (fabs (json_node_get_double (tiny)), <, 1e-300);

  /* the last duplicate wins, in the first one's place, as json-glib does */
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (dup), "a"), ==, 3);
  g_assert_cmpuint (json_object_get_size (json_node_get_object (dup)), ==, 2);
  members = json_object_get_members (json_node_get_object (dup));
  g_assert_cmpstr (members->data, ==, "a");
  g_assert_cmpstr (members->next->data, ==, "b");
}

/* \u0000 reads as U+2400 SYMBOL FOR NULL: the text after it survives and
 * the string keeps its length in characters, in values and in keys. */
static void
test_escaped_nul (void)
{
  g_autoptr(JsonNode) s = parse_ok ("\"before\\u0000after\"", -1);
  g_autoptr(JsonNode) only = parse_ok ("\"\\u0000\\u0000\"", -1);
  g_autoptr(JsonNode) obj = parse_ok ("{\"k\\u0000\":\"\\u0000x\"}", -1);

  g_assert_cmpstr (json_node_get_string (s), ==, "before\xe2\x90\x80" "after");
  g_assert_cmpint (g_utf8_strlen (json_node_get_string (s), -1), ==, 12);
  g_assert_cmpstr (json_node_get_string (only), ==, "\xe2\x90\x80\xe2\x90\x80");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (obj), "k\xe2\x90\x80"),
                   ==, "\xe2\x90\x80x");
}

static void
test_length_bounds (void)
{
  const char *text = "[1,2]GARBAGE";
  char not_terminated[3] = { '4', '2', '7' };
  g_autoptr(JsonNode) node = parse_ok (text, 5);
  g_autoptr(JsonNode) number = parse_ok (not_terminated, 2);
  g_autoptr(GError) error = NULL;
  JsonNode *none;

  g_assert_cmpuint (json_array_get_length (json_node_get_array (node)), ==, 2);
  g_assert_cmpint (json_node_get_int (number), ==, 42);

  /* a nul byte is data like any other, not an end */
  none = mcp_json_parse ("[1]\0", 4, &error);
  g_assert_null (none);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_cmpstr (error->message, ==, "Invalid JSON at line 1, column 4: unexpected data after the JSON value");
  g_clear_error (&error);

  none = mcp_json_parse ("\"a\0b\"", 5, &error);
  g_assert_null (none);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_cmpstr (error->message, ==,
                   "Invalid JSON at line 1, column 3: control character U+0000 must be escaped in a string");
  g_clear_error (&error);

  /* NULL with no length is an empty document */
  none = mcp_json_parse (NULL, 0, &error);
  g_assert_null (none);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
}

typedef struct
{
  const char *text;
  guint       line;
  guint       column;
  const char *what;
} InvalidCase;

static const InvalidCase invalid_cases[] = {
  /* structure */
  { "", 1, 1, "no JSON value (the input is empty or only whitespace)" },
  { "   ", 1, 4, "no JSON value (the input is empty or only whitespace)" },
  { " \n\t\r\n ", 3, 2, "no JSON value (the input is empty or only whitespace)" },
  { "[1,2,]", 1, 6, "trailing comma before ‘]’" },
  { "{\"a\":1,}", 1, 8, "trailing comma before ‘}’" },
  { "[,1]", 1, 2, "expected a value before ‘,’" },
  { "[1,,2]", 1, 4, "expected a value before ‘,’" },
  { "{,}", 1, 2, "expected a string as an object key" },
  { "{\"a\" 1}", 1, 6, "expected ‘:’ after an object key" },
  { "{\"a\":1 \"b\":2}", 1, 8, "expected ‘,’ or ‘}’ after an object member" },
  { "[1 2]", 1, 4, "expected ‘,’ or ‘]’ after an array element" },
  { "{\"a\"}", 1, 5, "expected ‘:’ after an object key" },
  { "{\"a\":}", 1, 6, "expected a value before ‘}’" },
  { "{1:2}", 1, 2, "expected a string as an object key" },
  { "{a:1}", 1, 2, "expected a string as an object key" },
  { "{'a':1}", 1, 2, "object keys must be in double quotes, not single quotes" },
  { "['a']", 1, 2, "strings must be in double quotes, not single quotes" },
  { "[1] // comment", 1, 5, "unexpected data after the JSON value" },
  { "/* comment */ 1", 1, 1, "comments are not allowed in JSON" },
  { "[1, /* c */ 2]", 1, 5, "comments are not allowed in JSON" },
  { "{}{}", 1, 3, "unexpected data after the JSON value" },
  { "{\"a\":1}{\"b\":2}", 1, 8, "unexpected data after the JSON value" },
  { "1 2", 1, 3, "unexpected data after the JSON value" },
  { "[1]]", 1, 4, "unexpected data after the JSON value" },
  { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}", 1, 37, "unexpected data after the JSON value" },
  { "[", 1, 2, "the input ends where a value was expected" },
  { "[1", 1, 3, "the input ends before the array is closed with ‘]’" },
  { "[1,", 1, 4, "the input ends where a value was expected" },
  { "{", 1, 2, "the input ends before the object is closed with ‘}’" },
  { "{\"a\"", 1, 5, "expected ‘:’ after an object key" },
  { "{\"a\":", 1, 6, "the input ends where a value was expected" },
  { "{\"a\":1", 1, 7, "the input ends before the object is closed with ‘}’" },
  { "{\"a\":1,", 1, 8, "the input ends before the object is closed with ‘}’" },
  { "]", 1, 1, "expected a value before ‘]’" },
  { "}", 1, 1, "expected a value before ‘}’" },
  { ":", 1, 1, "expected a value, not ‘:’" },
  { "\f1", 1, 1, "expected a value, not the byte 0x0C" },
  { "\xc2\xa0" "1", 1, 1, "expected a value, not the byte 0xC2" },
  { "\xef\xbb\xbf{}", 1, 1, "expected a value, not the byte 0xEF" },
  { "{\"a\":1}\n\n  x", 3, 3, "unexpected data after the JSON value" },
  { "[\n1,\n2,\n]", 4, 1, "trailing comma before ‘]’" },
  /* literals */
  { "tru", 1, 1, "invalid literal (expected true, false or null)" },
  { "True", 1, 1, "expected a value, not ‘T’" },
  { "nul", 1, 1, "invalid literal (expected true, false or null)" },
  { "[truex]", 1, 6, "expected ‘,’ or ‘]’ after an array element" },
  { "undefined", 1, 1, "expected a value, not ‘u’" },
  { "NaN", 1, 1, "NaN is not a JSON number" },
  { "Infinity", 1, 1, "Infinity is not a JSON number" },
  { "-Infinity", 1, 1, "-Infinity is not a JSON number" },
  /* numbers */
  { "01", 1, 1, "numbers must not have leading zeros" },
  { "-01", 1, 1, "numbers must not have leading zeros" },
  { "00", 1, 1, "numbers must not have leading zeros" },
  { "+1", 1, 1, "numbers must not start with ‘+’" },
  { ".5", 1, 1, "numbers must have a digit before the decimal point" },
  { "1.", 1, 3, "expected a digit after the decimal point" },
  { "1.e5", 1, 3, "expected a digit after the decimal point" },
  { "1e", 1, 3, "expected a digit in the exponent" },
  { "1e+", 1, 4, "expected a digit in the exponent" },
  { "-", 1, 2, "expected a digit after ‘-’" },
  { "- 1", 1, 2, "expected a digit after ‘-’" },
  { "0x10", 1, 2, "unexpected data after the JSON value" },
  { "1.5.3", 1, 4, "unexpected data after the JSON value" },
  { "1e400", 1, 1, "number is too large for a double" },
  { "[-1e999]", 1, 2, "number is too large for a double" },
  /* strings */
  { "\"abc", 1, 1, "unterminated string (the input ends before its closing ‘\"’)" },
  { "[\"abc\\\"]", 1, 2, "unterminated string (the input ends before its closing ‘\"’)" },
  { "\"abc\\", 1, 5, "the input ends inside an escape sequence" },
  { "\"a\nb\"", 1, 3, "control character U+000A must be escaped in a string" },
  { "\"a\tb\"", 1, 3, "control character U+0009 must be escaped in a string" },
  { "\"\x01\"", 1, 2, "control character U+0001 must be escaped in a string" },
  { "\"\x1f\"", 1, 2, "control character U+001F must be escaped in a string" },
  { "\"\\x41\"", 1, 2, "invalid escape sequence ‘\\x’ in a string" },
  { "\"\\a\"", 1, 2, "invalid escape sequence ‘\\a’ in a string" },
  { "\"\\U0041\"", 1, 2, "invalid escape sequence ‘\\U’ in a string" },
  { "\"\\'\"", 1, 2, "invalid escape sequence ‘\\'’ in a string" },
  { "\"\\u12\"", 1, 2, "‘\\u’ must be followed by four hexadecimal digits" },
  { "\"\\u12G4\"", 1, 2, "‘\\u’ must be followed by four hexadecimal digits" },
  { "\"\\ud83d\"", 1, 2, "high surrogate \\uD83D is not followed by a low surrogate (\\uDC00 to \\uDFFF)" },
  { "\"\\ud83dx\\ude00\"", 1, 2, "high surrogate \\uD83D is not followed by a low surrogate (\\uDC00 to \\uDFFF)" },
  { "\"\\ud83d\\u0041\"", 1, 2, "high surrogate \\uD83D is not followed by a low surrogate (\\uDC00 to \\uDFFF)" },
  { "\"\\ud83d\\ud83d\"", 1, 2, "high surrogate \\uD83D is not followed by a low surrogate (\\uDC00 to \\uDFFF)" },
  { "\"\\ude00\"", 1, 2, "lone low surrogate \\uDE00 in a string" },
  { "\"\\ude00\\ud83d\"", 1, 2, "lone low surrogate \\uDE00 in a string" },
  /* UTF-8 */
  { "\"\xff\"", 1, 2, "invalid UTF-8 byte 0xFF in a string" },
  { "\"\x80\"", 1, 2, "invalid UTF-8 byte 0x80 in a string" },
  { "\"\xc0\xaf\"", 1, 2, "invalid UTF-8 byte 0xC0 in a string" },
  { "\"\xc1\xbf\"", 1, 2, "invalid UTF-8 byte 0xC1 in a string" },
  { "\"\xe0\x80\xaf\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xE0)" },
  { "\"\xf0\x80\x80\xaf\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xF0)" },
  { "\"\xed\xa0\x80\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xED)" },
  { "\"\xed\xbf\xbf\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xED)" },
  { "\"\xf4\x90\x80\x80\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xF4)" },
  { "\"\xf5\x80\x80\x80\"", 1, 2, "invalid UTF-8 byte 0xF5 in a string" },
  { "\"\xc3\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xC3)" },
  { "\"\xe4\xb8\"", 1, 2, "invalid UTF-8 sequence in a string (byte 0xE4)" },
  { "\"\xc3\xa9\xc3\"", 1, 3, "invalid UTF-8 sequence in a string (byte 0xC3)" },
  { "{\"caf\xc3\xa9\":\"\xe4\xb8\xad\xff\"}", 1, 11, "invalid UTF-8 byte 0xFF in a string" },
  { "{\"k\xfe\":1}", 1, 4, "invalid UTF-8 byte 0xFE in a string" },
};

static void
test_invalid (gconstpointer data)
{
  const InvalidCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  JsonNode *node;

  node = mcp_json_parse (c->text, strlen (c->text), &error);
  g_assert_null (node);
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);

  expected = g_strdup_printf ("Invalid JSON at line %u, column %u: %s", c->line, c->column, c->what);
  g_assert_cmpstr (error->message, ==, expected);

  /* without a GError to fill, it still fails cleanly */
  g_assert_null (mcp_json_parse (c->text, strlen (c->text), NULL));
}

static char *
nested (guint       depth,
        const char *open,
        const char *inner,
        const char *close)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, open);
  g_string_append (text, inner);
  for (guint i = 0; i < depth; i++)
    g_string_append (text, close);

  return g_string_free (text, FALSE);
}

static void
test_depth (void)
{
  g_autofree char *arrays_512 = nested (512, "[", "1", "]");
  g_autofree char *objects_512 = nested (512, "{\"a\":", "1", "}");
  g_autofree char *arrays_513 = nested (513, "[", "", "]");
  g_autofree char *objects_513 = nested (513, "{\"a\":", "{}", "}");
  g_autofree char *open_only = nested (100000, "[", "", "");
  g_autofree char *deep = nested (100000, "[{\"k\":", "0", "}]");
  g_autoptr(JsonNode) a512 = parse_ok (arrays_512, -1);
  g_autoptr(JsonNode) o512 = parse_ok (objects_512, -1);
  g_autoptr(GError) error = NULL;
  JsonNode *inner;

  inner = a512;
  for (guint i = 0; i < 512; i++)
    inner = json_array_get_element (json_node_get_array (inner), 0);
  g_assert_cmpint (json_node_get_int (inner), ==, 1);
  assert_round_trip (a512);
  assert_round_trip (o512);

  g_assert_null (mcp_json_parse (arrays_513, strlen (arrays_513), &error));
  g_assert_cmpstr (error->message, ==, "Invalid JSON at line 1, column 513: nested deeper than 512 levels");
  g_clear_error (&error);

  /* 512 objects, then a 513th */
  g_assert_null (mcp_json_parse (objects_513, strlen (objects_513), &error));
  g_assert_cmpstr (error->message, ==, "Invalid JSON at line 1, column 2561: nested deeper than 512 levels");
  g_clear_error (&error);

  g_assert_null (mcp_json_parse (open_only, strlen (open_only), &error));
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "nested deeper than 512 levels"));
  g_clear_error (&error);

  g_assert_null (mcp_json_parse (deep, strlen (deep), &error));
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "nested deeper than 512 levels"));
}

static void
test_integers (void)
{
  static const struct {
    const char *text;
    gboolean    is_int;
    gint64      int_value;
    double      double_value;
  } cases[] = {
    { "9223372036854775807", TRUE, G_MAXINT64, 0 },
    { "-9223372036854775808", TRUE, G_MININT64, 0 },
    { "9223372036854775808", FALSE, 0, 9223372036854775808.0 },
    { "-9223372036854775809", FALSE, 0, -9223372036854775809.0 },
    { "18446744073709551615", FALSE, 0, 18446744073709551615.0 },
    { "18446744073709551616", FALSE, 0, 18446744073709551616.0 },
    { "99999999999999999999", FALSE, 0, 99999999999999999999.0 },
    { "-99999999999999999999", FALSE, 0, -99999999999999999999.0 },
    { "100000000000000000000000000000000000000000000000000", FALSE, 0, 1e50 },
    { "9007199254740993", TRUE, G_GINT64_CONSTANT (9007199254740993), 0 },
    { "-1", TRUE, -1, 0 },
    { "0", TRUE, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = parse_ok (cases[i].text, -1);

      g_test_message ("%s", cases[i].text);
      if (cases[i].is_int)
        {
          g_assert_true (json_node_get_value_type (node) == G_TYPE_INT64);
          g_assert_cmpint (json_node_get_int (node), ==, cases[i].int_value);
        }
      else
        {
          g_assert_true (json_node_get_value_type (node) == G_TYPE_DOUBLE);
          g_assert_cmpfloat (json_node_get_double (node), ==, cases[i].double_value);
        }
      assert_round_trip (node);
    }

  /* the extremes as written */
  {
    g_autoptr(JsonNode) max = json_node_init_int (json_node_alloc (), G_MAXINT64);
    g_autoptr(JsonNode) min = json_node_init_int (json_node_alloc (), G_MININT64);
    g_autofree char *max_text = write_node (max);
    g_autofree char *min_text = write_node (min);

    g_assert_cmpstr (max_text, ==, "9223372036854775807");
    g_assert_cmpstr (min_text, ==, "-9223372036854775808");
  }
}

static void
assert_writes (JsonNode   *node,
               const char *expected)
{
  g_autofree char *text = write_node (node);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_write_strings (void)
{
  static const char *const control_escapes[0x20] = {
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
    "\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f",
    "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
    "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
  };
  g_autoptr(GString) all = g_string_new (NULL);
  g_autoptr(GString) expected = g_string_new ("\"");
  g_autoptr(JsonNode) all_node = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autofree char *all_text = NULL;

  for (guint c = 1; c < 0x20; c++)
    {
      char s[4] = { 'a', (char)c, 'z', '\0' };
      g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), s);
      g_autofree char *want = g_strdup_printf ("\"a%sz\"", control_escapes[c]);

      assert_writes (node, want);
      assert_round_trip (node);

      g_string_append_c (all, (char)c);
      g_string_append (expected, control_escapes[c]);
    }
  g_string_append (all, "\"\\/\x7f\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9\xf0\x9f\x94\x8c");
  g_string_append (expected, "\\\"\\\\/\x7f\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9\xf0\x9f\x94\x8c\"");

  all_node = json_node_init_string (json_node_alloc (), all->str);
  all_text = write_node (all_node);
  /* U+2028 and U+2029 stay raw: they are valid in JSON and not line breaks to us */
  g_assert_cmpstr (all_text, ==, expected->str);
  parsed = parse_ok (all_text, -1);
  g_assert_cmpstr (json_node_get_string (parsed), ==, all->str);

  /* invalid UTF-8 handed to the writer still makes valid JSON */
  {
    g_autoptr(JsonNode) bad = json_node_init_string (json_node_alloc (), "a\xff" "b\xc3(\xed\xa0\x80");
    g_autoptr(GString) out = g_string_new (NULL);

    assert_writes (bad, "\"a\\ufffdb\\ufffd(\\ufffd\\ufffd\\ufffd\"");
    mcp_json_append_string (out, "key \"q\"");
    g_assert_cmpstr (out->str, ==, "\"key \\\"q\\\"\"");
  }
}

static void
test_write_values (void)
{
  static const struct {
    double      value;
    const char *text;
  } doubles[] = {
    { 0.1, "0.1" },
    { 0.5, "0.5" },
    { 2.0, "2.0" },
    { -0.0, "-0.0" },
    { 1e308, "1e+308" },
    { 1e-5, "0.00001" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 9223372036854775808.0, "9.223372036854776e+18" },
    { 123456.789, "123456.789" },
    /* the shortest text that reads back the same, as JSON.stringify() lays
     * it out */
    { 0.7, "0.7" },
    { 1e300, "1e+300" },
    { 5e-324, "5e-324" },
    { 2.2250738585072014e-308, "2.2250738585072014e-308" },
    { -1.5e-7, "-1.5e-7" },
    { 1e21, "1e+21" },
    { 1e20, "1e+20" },
    { 1e18, "1000000000000000000.0" },
    { 12345678901234567890.0, "1.2345678901234567e+19" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 1.7976931348623157e308, "1.7976931348623157e+308" },
    { 123e-20, "1.23e-18" },
    { 0.000001, "0.000001" },
    { -0.0000001, "-1e-7" },
  };
  g_autoptr(JsonNode) null_node = json_node_init_null (json_node_alloc ());
  g_autoptr(JsonNode) yes = json_node_init_boolean (json_node_alloc (), TRUE);
  g_autoptr(JsonNode) no = json_node_init_boolean (json_node_alloc (), FALSE);
  g_autoptr(JsonNode) nan = json_node_init_double (json_node_alloc (), NAN);
  g_autoptr(JsonNode) inf = json_node_init_double (json_node_alloc (), -INFINITY);
  g_autoptr(JsonNode) int_value = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) float_value = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) empty_object = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) empty_array = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonNode) tree = NULL;
  GValue value = G_VALUE_INIT;

  assert_writes (NULL, "null");
  assert_writes (null_node, "null");
  assert_writes (yes, "true");
  assert_writes (no, "false");
  /* not JSON numbers: null keeps the output valid */
  assert_writes (nan, "null");
  assert_writes (inf, "null");

  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    {
      g_autoptr(JsonNode) node = json_node_init_double (json_node_alloc (), doubles[i].value);

      assert_writes (node, doubles[i].text);
      assert_round_trip (node);
    }
  /* the double beyond gint64 reads back as itself, a double */
  {
    g_autoptr(JsonNode) big = json_node_init_double (json_node_alloc (), 9223372036854775808.0);
    g_autofree char *text = write_node (big);
    g_autoptr(JsonNode) back = parse_ok (text, -1);

    g_assert_true (json_node_get_value_type (back) == G_TYPE_DOUBLE);
    g_assert_cmpfloat (json_node_get_double (back), ==, 9223372036854775808.0);
  }

  g_value_init (&value, G_TYPE_INT);
  g_value_set_int (&value, -17);
  json_node_set_value (int_value, &value);
  g_value_unset (&value);
  assert_writes (int_value, "-17");

  g_value_init (&value, G_TYPE_FLOAT);
  g_value_set_float (&value, 0.25f);
  json_node_set_value (float_value, &value);
  g_value_unset (&value);
  assert_writes (float_value, "0.25");

  json_node_take_object (empty_object, json_object_new ());
  json_node_take_array (empty_array, json_array_new ());
  assert_writes (empty_object, "{}");
  assert_writes (empty_array, "[]");

  tree = parse_ok (" { \"z\" : [ 1 , { } , [ ] , \"s\" , null , true , -2.5 ] ,\n \"a\" : { \"b\" : false } } ", -1);
  assert_writes (tree, "{\"z\":[1,{},[],\"s\",null,true,-2.5],\"a\":{\"b\":false}}");
}

/* Random trees */

static char *
random_string (void)
{
  static const gunichar specials[] = {
    '"', '\\', '/', '\n', '\r', '\t', '\b', '\f', 0x01, 0x1f, 0x7f,
    0x80, 0xe9, 0x7ff, 0x800, 0x2028, 0x2029, 0xd7ff, 0xe000, 0xfeff, 0xfffd,
    0xffff, 0x10000, 0x1f50c, 0x10ffff,
  };
  GString *s = g_string_new (NULL);
  guint n = g_test_rand_int_range (0, 12);

  for (guint i = 0; i < n; i++)
    {
      gunichar c;

      switch (g_test_rand_int_range (0, 4))
        {
        case 0:
          c = specials[g_test_rand_int_range (0, G_N_ELEMENTS (specials))];
          break;
        case 1:
          do
            c = g_test_rand_int_range (1, 0x110000);
          while (c >= 0xd800 && c <= 0xdfff);
          break;
        default:
          c = g_test_rand_int_range (0x20, 0x7f);
          break;
        }
      g_string_append_unichar (s, c);
    }

  return g_string_free (s, FALSE);
}

static double
random_double (void)
{
  union { guint64 bits; double value; } u;

  switch (g_test_rand_int_range (0, 3))
    {
    case 0:
      return g_test_rand_double_range (-1e6, 1e6);
    case 1:
      do
        {
          u.bits = ((guint64)g_test_rand_int () << 32) | (guint32)g_test_rand_int ();
        }
      while (!isfinite (u.value));
      return u.value;
    default:
      return (double)g_test_rand_int_range (-1000, 1000) / 8.0;
    }
}

static JsonNode *
random_tree (guint depth)
{
  guint kind = g_test_rand_int_range (0, depth < 6 ? 8 : 6);

  switch (kind)
    {
    case 0:
      return json_node_init_null (json_node_alloc ());
    case 1:
      return json_node_init_boolean (json_node_alloc (), g_test_rand_bit ());
    case 2:
      {
        gint64 v = (gint64)(((guint64)g_test_rand_int () << 32) | (guint32)g_test_rand_int ());

        if (g_test_rand_bit ())
          v >>= g_test_rand_int_range (0, 64);
        return json_node_init_int (json_node_alloc (), v);
      }
    case 3:
      return json_node_init_double (json_node_alloc (), random_double ());
    case 4:
    case 5:
      {
        g_autofree char *s = random_string ();

        return json_node_init_string (json_node_alloc (), s);
      }
    case 6:
      {
        JsonArray *array = json_array_new ();
        guint n = g_test_rand_int_range (0, 6);
        JsonNode *node = json_node_new (JSON_NODE_ARRAY);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array, random_tree (depth + 1));
        json_node_take_array (node, array);
        return node;
      }
    default:
      {
        JsonObject *object = json_object_new ();
        guint n = g_test_rand_int_range (0, 6);
        JsonNode *node = json_node_new (JSON_NODE_OBJECT);

        for (guint i = 0; i < n; i++)
          {
            g_autofree char *key = random_string ();

            json_object_set_member (object, key, random_tree (depth + 1));
          }
        json_node_take_object (node, object);
        return node;
      }
    }
}

static void
test_random_round_trip (void)
{
  for (guint i = 0; i < 4000; i++)
    {
      g_autoptr(JsonNode) tree = random_tree (0);
      g_autofree char *text = write_node (tree);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) again = mcp_json_parse (text, strlen (text), &error);

      if (again == NULL)
        g_error ("tree %u does not read back: %s\n%s", i, error->message, text);
      if (!nodes_identical (tree, again))
        g_error ("tree %u reads back different: %s", i, text);

      /* json-glib reads our output too (it takes 1.0 and 1 as equal) */
      {
        g_autoptr(JsonParser) parser = json_parser_new ();

        g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
        g_assert_true (json_node_equal (json_parser_get_root (parser), tree));
      }
    }
}

/* The canonical form: members sorted at every depth, the same text
 * whatever order they were written in; arrays keep their order. */
/* The pretty layout plugboard-cli and the app show: json-glib's, but {}
 * and [] when empty, member order and numbers kept. */
static void
test_write_pretty (void)
{
  g_autoptr(JsonNode) tree = parse_ok ("{\"z\":[1,{\"b\":null},[],{}],\"a\":{\"x\":0.7,\"y\":\"\\u0001\"},"
                                       "\"e\":{}}", -1);
  g_autoptr(JsonNode) empty = parse_ok ("[]", -1);
  g_autoptr(JsonNode) scalar = parse_ok ("-0.0", -1);
  g_autoptr(GString) out = g_string_new (NULL);

  mcp_json_append_pretty (out, tree);
  g_assert_cmpstr (out->str, ==,
                   "{\n"
                   "  \"z\" : [\n"
                   "    1,\n"
                   "    {\n"
                   "      \"b\" : null\n"
                   "    },\n"
                   "    [],\n"
                   "    {}\n"
                   "  ],\n"
                   "  \"a\" : {\n"
                   "    \"x\" : 0.7,\n"
                   "    \"y\" : \"\\u0001\"\n"
                   "  },\n"
                   "  \"e\" : {}\n"
                   "}");
  g_string_truncate (out, 0);
  mcp_json_append_pretty (out, empty);
  g_assert_cmpstr (out->str, ==, "[]");
  g_string_truncate (out, 0);
  mcp_json_append_pretty (out, scalar);
  g_assert_cmpstr (out->str, ==, "-0.0");
}

static void
test_write_canonical (void)
{
  static const char *orders[] = {
    "{\"b\":[{\"z\":1,\"a\":2}],\"a\":{\"y\":null,\"x\":\"\\u001b\"},\"\":true}",
    "{\"\":true,\"a\":{\"x\":\"\\u001b\",\"y\":null},\"b\":[{\"a\":2,\"z\":1}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = mcp_json_parse (orders[i], strlen (orders[i]), &error);
      g_autoptr(GString) out = g_string_new (NULL);

      g_assert_no_error (error);
      mcp_json_append_canonical (out, node);
      g_assert_cmpstr (out->str, ==,
                       "{\"\":true,\"a\":{\"x\":\"\\u001b\",\"y\":null},\"b\":[{\"a\":2,\"z\":1}]}");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/protocol/json/parse/valid-corpus", test_valid_corpus);
  g_test_add_func ("/protocol/json/parse/valid-values", test_valid_values);
  g_test_add_func ("/protocol/json/parse/escaped-nul", test_escaped_nul);
  g_test_add_func ("/protocol/json/parse/length", test_length_bounds);
  g_test_add_func ("/protocol/json/parse/depth", test_depth);
  g_test_add_func ("/protocol/json/parse/integers", test_integers);
  for (guint i = 0; i < G_N_ELEMENTS (invalid_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/protocol/json/parse/invalid/%u", i);

      g_test_add_data_func (path, &invalid_cases[i], test_invalid);
    }
  g_test_add_func ("/protocol/json/write/strings", test_write_strings);
  g_test_add_func ("/protocol/json/write/values", test_write_values);
  g_test_add_func ("/protocol/json/write/canonical", test_write_canonical);
  g_test_add_func ("/protocol/json/write/pretty", test_write_pretty);
  g_test_add_func ("/protocol/json/round-trip/random", test_random_round_trip);

  return g_test_run ();
}
