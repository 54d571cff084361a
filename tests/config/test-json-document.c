/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"

/* Each case edits a text and compares the whole result, byte for byte. */

static McpJsonDocument *
open_text (const char     *text,
           McpJsonDialect  dialect)
{
  g_autoptr(GError) error = NULL;
  McpJsonDocument *document = mcp_json_document_new (text, text != NULL ? strlen (text) : 0,
                                                     dialect, &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = mcp_json_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  return node;
}

static void
assert_text (McpJsonDocument *document,
             const char      *expected)
{
  g_assert_cmpstr (mcp_json_document_get_text (document, NULL), ==, expected);
}

#define PATH(...) ((const char * const []) { __VA_ARGS__, NULL })

static void
set_json (McpJsonDocument    *document,
          const char * const *path,
          const char         *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse (json);

  g_assert_true (mcp_json_document_set (document, path, value, &error));
  g_assert_no_error (error);
}

static void
update_json (McpJsonDocument    *document,
             const char * const *path,
             const char         *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse (json);

  g_assert_true (mcp_json_document_update (document, path, value, &error));
  g_assert_no_error (error);
}

static void
remove_member (McpJsonDocument    *document,
               const char * const *path)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_json_document_remove (document, path, &error));
  g_assert_no_error (error);
}

static const char settings[] =
  "{\n"
  "  \"big\": 12345678901234567890,\n"
  "  \"float\": 1.5e10,\n"
  "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
  "  \"mcpServers\": {\n"
  "    \"one\": {\n"
  "      \"command\": \"a\",\n"
  "      \"x-limit\": 1E+3\n"
  "    },\n"
  "    \"two\": {\n"
  "      \"command\": \"b\"\n"
  "    }\n"
  "  }\n"
  "}\n";

static void
test_add_member (void)
{
  g_autoptr(McpJsonDocument) document = open_text (settings, MCP_JSON_DIALECT_JSON);

  set_json (document, PATH ("mcpServers", "three"), "{\"command\":\"c\",\"args\":[\"-y\",\"x\"]}");
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {\n"
               "    \"one\": {\n"
               "      \"command\": \"a\",\n"
               "      \"x-limit\": 1E+3\n"
               "    },\n"
               "    \"two\": {\n"
               "      \"command\": \"b\"\n"
               "    },\n"
               "    \"three\": {\n"
               "      \"command\": \"c\",\n"
               "      \"args\": [\n"
               "        \"-y\",\n"
               "        \"x\"\n"
               "      ]\n"
               "    }\n"
               "  }\n"
               "}\n");
}

static void
test_remove_member (void)
{
  g_autoptr(McpJsonDocument) document = open_text (settings, MCP_JSON_DIALECT_JSON);

  remove_member (document, PATH ("mcpServers", "one"));
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {\n"
               "    \"two\": {\n"
               "      \"command\": \"b\"\n"
               "    }\n"
               "  }\n"
               "}\n");

  remove_member (document, PATH ("mcpServers", "two"));
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {}\n"
               "}\n");

  /* nothing to remove is fine */
  remove_member (document, PATH ("mcpServers", "two"));
  remove_member (document, PATH ("projects", "/p", "mcpServers", "two"));

  remove_member (document, PATH ("mcpServers"));
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\"\n"
               "}\n");

  /* the last one: its comma goes from the one before */
  g_clear_pointer (&document, mcp_json_document_free);
  document = open_text (settings, MCP_JSON_DIALECT_JSON);
  remove_member (document, PATH ("mcpServers", "two"));
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {\n"
               "    \"one\": {\n"
               "      \"command\": \"a\",\n"
               "      \"x-limit\": 1E+3\n"
               "    }\n"
               "  }\n"
               "}\n");
}

static void
test_update_member (void)
{
  g_autoptr(McpJsonDocument) document = open_text (settings, MCP_JSON_DIALECT_JSON);

  /* x-limit is the same number (1000.0): its bytes stay */
  update_json (document, PATH ("mcpServers", "one"),
               "{\"command\":\"changed\",\"x-limit\":1000,\"env\":{\"K\":\"v\"}}");
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {\n"
               "    \"one\": {\n"
               "      \"command\": \"changed\",\n"
               "      \"x-limit\": 1E+3,\n"
               "      \"env\": {\n"
               "        \"K\": \"v\"\n"
               "      }\n"
               "    },\n"
               "    \"two\": {\n"
               "      \"command\": \"b\"\n"
               "    }\n"
               "  }\n"
               "}\n");

  /* the same value changes nothing at all */
  update_json (document, PATH ("float"), "15000000000");
  update_json (document, PATH ("big"), "12345678901234567890");
  g_assert_nonnull (strstr (mcp_json_document_get_text (document, NULL), "\"float\": 1.5e10,"));

  /* a member that goes */
  update_json (document, PATH ("mcpServers", "one"), "{\"command\":\"changed\",\"x-limit\":1000}");
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {\n"
               "    \"one\": {\n"
               "      \"command\": \"changed\",\n"
               "      \"x-limit\": 1E+3\n"
               "    },\n"
               "    \"two\": {\n"
               "      \"command\": \"b\"\n"
               "    }\n"
               "  }\n"
               "}\n");
}

static void
test_update_array (void)
{
  g_autoptr(McpJsonDocument) document = open_text ("{\n  \"args\": [\"\\u00e9\", 1.0e1, \"b\", \"c\"],\n"
                                                   "  \"list\": [\n    \"\\/x\",\n    2\n  ]\n}\n",
                                                   MCP_JSON_DIALECT_JSON);

  /* equal elements keep their spelling; the others change in place */
  update_json (document, PATH ("args"), "[\"\u00e9\", 10, \"B\"]");
  assert_text (document, "{\n  \"args\": [\"\\u00e9\", 1.0e1, \"B\"],\n  \"list\": [\n    \"\\/x\",\n    2\n  ]\n}\n");
  update_json (document, PATH ("list"), "[\"/x\", 2, {\"k\": true}]");
  assert_text (document, "{\n  \"args\": [\"\\u00e9\", 1.0e1, \"B\"],\n"
                         "  \"list\": [\n    \"\\/x\",\n    2,\n    {\n      \"k\": true\n    }\n  ]\n}\n");
  update_json (document, PATH ("list"), "[]");
  assert_text (document, "{\n  \"args\": [\"\\u00e9\", 1.0e1, \"B\"],\n  \"list\": []\n}\n");
}

static void
test_rename_member (void)
{
  g_autoptr(McpJsonDocument) document = open_text (settings, MCP_JSON_DIALECT_JSON);
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_json_document_rename (document, PATH ("mcpServers", "one"), "uno", &error));
  g_assert_no_error (error);
  assert_text (document,
               "{\n"
               "  \"big\": 12345678901234567890,\n"
               "  \"float\": 1.5e10,\n"
               "  \"escaped\": \"caf\\u00e9 \\/ \\ud83d\\ude00\",\n"
               "  \"mcpServers\": {\n"
               "    \"uno\": {\n"
               "      \"command\": \"a\",\n"
               "      \"x-limit\": 1E+3\n"
               "    },\n"
               "    \"two\": {\n"
               "      \"command\": \"b\"\n"
               "    }\n"
               "  }\n"
               "}\n");

  g_assert_false (mcp_json_document_rename (document, PATH ("mcpServers", "uno"), "two", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "$.mcpServers.two"));
}

static void
test_new_file (void)
{
  g_autoptr(McpJsonDocument) document = open_text (NULL, MCP_JSON_DIALECT_JSON);

  set_json (document, PATH ("projects", "/home/me/my.project", "mcpServers", "s"),
            "{\"command\":\"x\"}");
  assert_text (document,
               "{\n"
               "  \"projects\": {\n"
               "    \"/home/me/my.project\": {\n"
               "      \"mcpServers\": {\n"
               "        \"s\": {\n"
               "          \"command\": \"x\"\n"
               "        }\n"
               "      }\n"
               "    }\n"
               "  }\n"
               "}\n");
}

static void
test_styles (void)
{
  g_autoptr(McpJsonDocument) tabs = open_text ("{\r\n\t\"a\": 1\r\n}", MCP_JSON_DIALECT_JSON);
  g_autoptr(McpJsonDocument) compact = open_text ("{\"a\":1,\"b\":{\"c\":2}}", MCP_JSON_DIALECT_JSON);
  g_autoptr(McpJsonDocument) wide = open_text ("{\n    \"a\" : [ 1, 2 ]\n}\n", MCP_JSON_DIALECT_JSON);

  set_json (tabs, PATH ("b"), "{\"c\":[true,null]}");
  assert_text (tabs, "{\r\n\t\"a\": 1,\r\n\t\"b\": {\r\n\t\t\"c\": [\r\n\t\t\ttrue,\r\n\t\t\tnull\r\n\t\t]\r\n\t}\r\n}");

  set_json (compact, PATH ("b", "d"), "[1,2]");
  assert_text (compact, "{\"a\":1,\"b\":{\"c\":2,\"d\":[1,2]}}");
  remove_member (compact, PATH ("a"));
  assert_text (compact, "{\"b\":{\"c\":2,\"d\":[1,2]}}");
  remove_member (compact, PATH ("b", "d"));
  assert_text (compact, "{\"b\":{\"c\":2}}");

  /* an inline array stays inline */
  set_json (wide, PATH ("a"), "[1,2,3]");
  assert_text (wide, "{\n    \"a\" : [1, 2, 3]\n}\n");
  set_json (wide, PATH ("z"), "{\"k\":\"v\"}");
  assert_text (wide, "{\n    \"a\" : [1, 2, 3],\n    \"z\" : {\n        \"k\" : \"v\"\n    }\n}\n");
}

static const char vscode[] =
  "// VS Code's MCP servers\n"
  "{\n"
  "  /* the servers */\n"
  "  \"servers\": {\n"
  "    \"a\": { \"command\": \"x\" }, // the first\n"
  "    \"b\": {\n"
  "      \"command\": \"y\", // trailing comma next\n"
  "    },\n"
  "  },\n"
  "  \"inputs\": [] // none yet\n"
  "}\n";

static void
test_jsonc (void)
{
  g_autoptr(McpJsonDocument) document = open_text (vscode, MCP_JSON_DIALECT_JSONC);
  g_autoptr(GError) error = NULL;

  g_assert_null (mcp_json_document_new (vscode, strlen (vscode), MCP_JSON_DIALECT_JSON, &error));
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);

  set_json (document, PATH ("servers", "c"), "{\"url\":\"https://example.com/mcp\"}");
  assert_text (document,
               "// VS Code's MCP servers\n"
               "{\n"
               "  /* the servers */\n"
               "  \"servers\": {\n"
               "    \"a\": { \"command\": \"x\" }, // the first\n"
               "    \"b\": {\n"
               "      \"command\": \"y\", // trailing comma next\n"
               "    },\n"
               "    \"c\": {\n"
               "      \"url\": \"https://example.com/mcp\"\n"
               "    },\n"
               "  },\n"
               "  \"inputs\": [] // none yet\n"
               "}\n");

  remove_member (document, PATH ("servers", "a"));
  assert_text (document,
               "// VS Code's MCP servers\n"
               "{\n"
               "  /* the servers */\n"
               "  \"servers\": {\n"
               "    \"b\": {\n"
               "      \"command\": \"y\", // trailing comma next\n"
               "    },\n"
               "    \"c\": {\n"
               "      \"url\": \"https://example.com/mcp\"\n"
               "    },\n"
               "  },\n"
               "  \"inputs\": [] // none yet\n"
               "}\n");

  set_json (document, PATH ("servers", "b", "args"), "[\"--v\"]");
  remove_member (document, PATH ("inputs"));
  assert_text (document,
               "// VS Code's MCP servers\n"
               "{\n"
               "  /* the servers */\n"
               "  \"servers\": {\n"
               "    \"b\": {\n"
               "      \"command\": \"y\", // trailing comma next\n"
               "      \"args\": [\n"
               "        \"--v\"\n"
               "      ],\n"
               "    },\n"
               "    \"c\": {\n"
               "      \"url\": \"https://example.com/mcp\"\n"
               "    },\n"
               "  }\n"
               "}\n");
}

static void
test_copy (void)
{
  g_autoptr(McpJsonDocument) source = open_text (settings, MCP_JSON_DIALECT_JSON);
  g_autoptr(McpJsonDocument) target = open_text ("{\n\t\"projects\": {}\n}\n", MCP_JSON_DIALECT_JSON);
  g_autoptr(McpJsonDocument) strict = open_text (NULL, MCP_JSON_DIALECT_JSON);
  g_autoptr(McpJsonDocument) commented = open_text (vscode, MCP_JSON_DIALECT_JSONC);
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_json_document_copy (target, PATH ("projects", "/p", "mcpServers", "one"),
                                         source, PATH ("mcpServers", "one"), &error));
  g_assert_no_error (error);
  /* the entry's own bytes, the indentation of where it goes */
  assert_text (target,
               "{\n"
               "\t\"projects\": {\n"
               "\t\t\"/p\": {\n"
               "\t\t\t\"mcpServers\": {\n"
               "\t\t\t\t\"one\": {\n"
               "\t\t\t\t  \"command\": \"a\",\n"
               "\t\t\t\t  \"x-limit\": 1E+3\n"
               "\t\t\t\t}\n"
               "\t\t\t}\n"
               "\t\t}\n"
               "\t}\n"
               "}\n");

  /* within one document */
  g_assert_true (mcp_json_document_copy (source, PATH ("copied"), source, PATH ("mcpServers", "one"), &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (mcp_json_document_get_text (source, NULL),
                                   "  },\n"
                                   "  \"copied\": {\n"
                                   "    \"command\": \"a\",\n"
                                   "    \"x-limit\": 1E+3\n"
                                   "  }\n"
                                   "}\n"));

  /* comments do not go into strict JSON */
  g_assert_true (mcp_json_document_copy (strict, PATH ("b"), commented, PATH ("servers", "b"), &error));
  g_assert_no_error (error);
  assert_text (strict, "{\n  \"b\": {\n    \"command\": \"y\"\n  }\n}\n");
  g_assert_true (mcp_json_document_copy (strict, PATH ("a"), commented, PATH ("servers", "a"), &error));
  assert_text (strict, "{\n  \"b\": {\n    \"command\": \"y\"\n  },\n  \"a\": { \"command\": \"x\" }\n}\n");
}

static void
test_arrays (void)
{
  g_autoptr(McpJsonDocument) document = open_text ("{\n  \"list\": [\n    \"a\",\n    \"b\"\n  ]\n}\n",
                                                   MCP_JSON_DIALECT_JSON);
  g_autoptr(JsonNode) c = parse ("\"c\"");
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_json_document_append (document, PATH ("list"), c, &error));
  g_assert_true (mcp_json_document_append (document, PATH ("other"), c, &error));
  g_assert_no_error (error);
  assert_text (document, "{\n  \"list\": [\n    \"a\",\n    \"b\",\n    \"c\"\n  ],\n  \"other\": [\n    \"c\"\n  ]\n}\n");

  g_assert_true (mcp_json_document_remove_element (document, PATH ("list"), 1, &error));
  g_assert_true (mcp_json_document_remove_element (document, PATH ("other"), 0, &error));
  g_assert_no_error (error);
  assert_text (document, "{\n  \"list\": [\n    \"a\",\n    \"c\"\n  ],\n  \"other\": []\n}\n");

  g_assert_false (mcp_json_document_remove_element (document, PATH ("list"), 5, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_clear_error (&error);
  g_assert_false (mcp_json_document_append (document, PATH ("list", "x"), c, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "$.list"));
}

static void
test_duplicates (void)
{
  g_autoptr(McpJsonDocument) document = open_text ("{\"a\": 1, \"b\": 2, \"a\": 3}", MCP_JSON_DIALECT_JSON);
  JsonNode *a = mcp_json_document_lookup (document, PATH ("a"));

  /* the last one counts */
  g_assert_cmpint (json_node_get_int (a), ==, 3);
  set_json (document, PATH ("a"), "4");
  assert_text (document, "{\"a\": 1, \"b\": 2, \"a\": 4}");
  remove_member (document, PATH ("a"));
  assert_text (document, "{\"b\": 2}");
}

static void
test_refused (void)
{
  g_autoptr(McpJsonDocument) document = open_text ("{\"mcpServers\": [1], \"s\": \"x\"}", MCP_JSON_DIALECT_JSON);
  g_autoptr(JsonNode) value = parse ("{}");
  g_autoptr(GError) error = NULL;
  const char *before = "{\"mcpServers\": [1], \"s\": \"x\"}";

  g_assert_false (mcp_json_document_set (document, PATH ("mcpServers", "a"), value, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "$.mcpServers: expected an object"));
  g_clear_error (&error);
  g_assert_false (mcp_json_document_remove (document, PATH ("s", "t"), &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  assert_text (document, before);

  /* refused, and the text as it was: no array is made to be refused */
  g_clear_error (&error);
  g_assert_false (mcp_json_document_remove_element (document, PATH ("none"), 0, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  assert_text (document, before);

  /* "[,]" is no trailing comma, in JSONC either */
  g_clear_error (&error);
  g_assert_null (mcp_json_document_new ("{\"a\": [,]}", 11, MCP_JSON_DIALECT_JSONC, &error));
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);

  g_clear_error (&error);
  g_assert_null (mcp_json_document_new ("[1, 2", 5, MCP_JSON_DIALECT_JSON, &error));
  g_assert_error (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "line 1"));
}

static void
test_equal (void)
{
  g_autoptr(JsonNode) a = parse ("{\"x\": [1, 2.5, \"s\", null, true], \"y\": {\"z\": 15000000000}}");
  g_autoptr(JsonNode) b = parse ("{\"y\": {\"z\": 1.5e10}, \"x\": [1.0, 2.5, \"s\", null, true]}");
  g_autoptr(JsonNode) c = parse ("{\"y\": {\"z\": 1.5e10}, \"x\": [1.0, 2.5, \"s\", null, false]}");

  g_assert_true (mcp_json_equal (a, b));
  g_assert_false (mcp_json_equal (a, c));
  g_assert_false (mcp_json_equal (a, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config/json-document/add", test_add_member);
  g_test_add_func ("/config/json-document/remove", test_remove_member);
  g_test_add_func ("/config/json-document/update", test_update_member);
  g_test_add_func ("/config/json-document/update-array", test_update_array);
  g_test_add_func ("/config/json-document/rename", test_rename_member);
  g_test_add_func ("/config/json-document/new-file", test_new_file);
  g_test_add_func ("/config/json-document/styles", test_styles);
  g_test_add_func ("/config/json-document/jsonc", test_jsonc);
  g_test_add_func ("/config/json-document/copy", test_copy);
  g_test_add_func ("/config/json-document/arrays", test_arrays);
  g_test_add_func ("/config/json-document/duplicates", test_duplicates);
  g_test_add_func ("/config/json-document/refused", test_refused);
  g_test_add_func ("/config/json-document/equal", test_equal);

  return g_test_run ();
}
