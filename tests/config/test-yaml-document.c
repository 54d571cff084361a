/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-yaml-document.h"
#include "test-json.h"

/* McpYamlDocument on Goose's config.yaml: what it reads, and each edit's
 * whole text, byte for byte. */

#define PATH(...) ((const char * const []) { __VA_ARGS__, NULL })

static McpYamlDocument *
open_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  McpYamlDocument *document = mcp_yaml_document_new (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

static void
assert_json (McpYamlDocument *document,
             const char      *json)
{
  g_autofree char *text = test_json_text (mcp_yaml_document_get_root (document));

  g_assert_cmpstr (text, ==, json);
}

static void
assert_text (McpYamlDocument *document,
             const char      *expected)
{
  g_assert_cmpstr (mcp_yaml_document_get_text (document, NULL), ==, expected);
}

static void
assert_refused (const char *text,
                GQuark      domain,
                int         code,
                const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpYamlDocument) document = mcp_yaml_document_new (text, strlen (text), &error);

  g_assert_null (document);
  g_assert_error (error, domain, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

static void
set_json (McpYamlDocument    *document,
          const char * const *path,
          const char         *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = test_json_parse (json);

  g_assert_true (mcp_yaml_document_set (document, path, value, &error));
  g_assert_no_error (error);
}

static void
update_json (McpYamlDocument    *document,
             const char * const *path,
             const char         *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = test_json_parse (json);

  g_assert_true (mcp_yaml_document_update (document, path, value, &error));
  g_assert_no_error (error);
}

static void
remove_member (McpYamlDocument    *document,
               const char * const *path)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_yaml_document_remove (document, path, &error));
  g_assert_no_error (error);
}

/* as Goose writes it (serde_yaml), with a person's comments */
static const char goose[] =
  "# Goose settings\n"
  "GOOSE_PROVIDER: anthropic\n"
  "GOOSE_MODEL: claude-sonnet-4  # the default\n"
  "extensions:\n"
  "  developer:\n"
  "    bundled: true\n"
  "    display_name: Developer\n"
  "    enabled: true\n"
  "    name: developer\n"
  "    timeout: 300\n"
  "    type: builtin\n"
  "  # the files server\n"
  "  filesystem:\n"
  "    args:\n"
  "    - -y\n"
  "    - '@modelcontextprotocol/server-filesystem'\n"
  "    - /home/me\n"
  "    cmd: npx\n"
  "    enabled: true\n"
  "    envs: {}\n"
  "    name: filesystem\n"
  "    timeout: 300\n"
  "    type: stdio\n"
  "GOOSE_MODE: smart_approve\n";

static void
test_read_goose (void)
{
  g_autoptr(McpYamlDocument) document = open_text (goose);

  assert_json (document,
               "{\"GOOSE_PROVIDER\":\"anthropic\",\"GOOSE_MODEL\":\"claude-sonnet-4\","
               "\"extensions\":{\"developer\":{\"bundled\":true,\"display_name\":\"Developer\","
               "\"enabled\":true,\"name\":\"developer\",\"timeout\":300,\"type\":\"builtin\"},"
               "\"filesystem\":{\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\",\"/home/me\"],"
               "\"cmd\":\"npx\",\"enabled\":true,\"envs\":{},\"name\":\"filesystem\",\"timeout\":300,"
               "\"type\":\"stdio\"}},\"GOOSE_MODE\":\"smart_approve\"}");
  assert_text (document, goose);
}

static void
test_read_scalars (void)
{
  g_autoptr(McpYamlDocument) document = open_text (
    "a: ~\nb: null\nc: True\nd: 0x1F\ne: 0o17\nf: -12\ng: 1.5e3\nh: '12'\n"
    "i: \"x\\ty\"\nj: yes\nk: |\n  two\n  lines\nl: >-\n  folded\n  text\n"
    "\"quoted key\": 1\nm: 12345678901234567890\nn:\n");

  assert_json (document,
               "{\"a\":null,\"b\":null,\"c\":true,\"d\":31,\"e\":15,\"f\":-12,\"g\":1500.0,"
               "\"h\":\"12\",\"i\":\"x\\ty\",\"j\":\"yes\",\"k\":\"two\\nlines\\n\","
               "\"l\":\"folded text\",\"quoted key\":1,\"m\":1.2345678901234567e+19,\"n\":null}");
}

static void
test_read_layouts (void)
{
  g_autoptr(McpYamlDocument) crlf = open_text ("extensions:\r\n    a:\r\n        cmd: x\r\n");
  g_autoptr(McpYamlDocument) flow = open_text ("extensions: {a: {cmd: x, args: [1, \"two\"]}}\n");
  g_autoptr(McpYamlDocument) anchors = open_text (
    "base: &base\n  type: stdio\n  timeout: 300\n"
    "extensions:\n  a:\n    <<: *base\n    cmd: x\n    timeout: 10\n  b: *base\n");
  g_autoptr(McpYamlDocument) bom = open_text ("\xef\xbb\xbf" "a: é\n");
  g_autoptr(McpYamlDocument) empty = open_text ("");
  g_autoptr(McpYamlDocument) comments = open_text ("# nothing yet\n---\n");

  assert_json (crlf, "{\"extensions\":{\"a\":{\"cmd\":\"x\"}}}");
  assert_json (flow, "{\"extensions\":{\"a\":{\"cmd\":\"x\",\"args\":[1,\"two\"]}}}");
  assert_json (anchors,
               "{\"base\":{\"type\":\"stdio\",\"timeout\":300},\"extensions\":{"
               "\"a\":{\"cmd\":\"x\",\"timeout\":10,\"type\":\"stdio\"},"
               "\"b\":{\"type\":\"stdio\",\"timeout\":300}}}");
  assert_json (bom, "{\"a\":\"é\"}");
  assert_json (empty, "{}");
  assert_json (comments, "{}");
}

static void
test_read_hostile (void)
{
  g_autoptr(GString) laughs = g_string_new ("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
  g_autoptr(GString) deep = g_string_new ("a: ");
  g_autoptr(GString) huge = g_string_new ("a: ");
  g_autoptr(GString) many = g_string_new ("a: [");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpYamlDocument) big = NULL;

  for (char c = 'b'; c <= 'j'; c++)
    g_string_append_printf (laughs, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n",
                            c, c, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1);
  assert_refused (laughs->str, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 4: aliases expand to more than 10,000 values");

  for (int i = 0; i < 100; i++)
    g_string_append_c (deep, '[');
  assert_refused (deep->str, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: nested deeper than 64 levels");

  for (int i = 0; i < 100001; i++)
    g_string_append (many, "1,");
  g_string_append (many, "]\n");
  assert_refused (many->str, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: more than 100,000 values");

  /* big but within bounds: read */
  for (int i = 0; i < 1024 * 1024; i++)
    g_string_append_c (huge, 'x');
  big = mcp_yaml_document_new (huge->str, huge->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (json_node_get_string (
    json_object_get_member (json_node_get_object (mcp_yaml_document_get_root (big)), "a"))), ==, 1024 * 1024);
  g_string_set_size (huge, 17 * 1024 * 1024);
  memset (huge->str, 'x', huge->len);
  huge->str[0] = 'a', huge->str[1] = ':', huge->str[2] = ' ';
  assert_refused (huge->str, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "The YAML text is larger than 16 MiB");

  assert_refused ("extensions:\n\ta: 1\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 2, column 1: found character that cannot start any token");
  assert_refused ("a: 1\nb: \xff\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 2: the text is not valid UTF-8");
  {
    g_autoptr(McpYamlDocument) nul = mcp_yaml_document_new ("a: 1\nb: x\0y\n", 12, &error);

    g_assert_null (nul);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_cmpstr (error->message, ==, "line 2: a NUL character");
    g_clear_error (&error);
  }
  assert_refused ("a: \"x\\0y\"\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "line 1: a NUL character");
  assert_refused ("a: 1\nb: 2\na: 3\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 3: the key “a” appears twice");
  assert_refused ("a: 1\n---\nb: 2\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 2: more than one YAML document");
  assert_refused ("- a\n- b\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: the top level is not a mapping");
  assert_refused ("a: 1\nb: .inf\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 2: .inf is not a number JSON can hold");
  assert_refused ("a: .NaN\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: .NaN is not a number JSON can hold");
  assert_refused ("a: 1e999\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: 1e999 is not a number JSON can hold");
  assert_refused ("a:\n  b: !!python/object x\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 2: the tag tag:yaml.org,2002:python/object is not supported");
  assert_refused ("a: *nowhere\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: the alias *nowhere has no anchor before it");
  assert_refused ("a: &x [1, *x]\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: the alias *x has no anchor before it");
  assert_refused ("? [a, b]\n: 1\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1: a key that is not a string");
  assert_refused ("a: b: c\n", G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  "line 1, column 5: mapping values are not allowed in this context");
}

static void
test_set_extension (void)
{
  g_autoptr(McpYamlDocument) document = open_text (goose);

  set_json (document, PATH ("extensions", "memory"),
            "{\"name\":\"memory\",\"type\":\"stdio\",\"cmd\":\"npx\","
            "\"args\":[\"-y\",\"@modelcontextprotocol/server-memory\"],"
            "\"envs\":{\"MEMORY_FILE\":\"/tmp/m: x.json\",\"EMPTY\":\"\"},"
            "\"enabled\":true,\"timeout\":300,\"description\":\"true\"}");
  assert_text (document,
               "# Goose settings\n"
               "GOOSE_PROVIDER: anthropic\n"
               "GOOSE_MODEL: claude-sonnet-4  # the default\n"
               "extensions:\n"
               "  developer:\n"
               "    bundled: true\n"
               "    display_name: Developer\n"
               "    enabled: true\n"
               "    name: developer\n"
               "    timeout: 300\n"
               "    type: builtin\n"
               "  # the files server\n"
               "  filesystem:\n"
               "    args:\n"
               "    - -y\n"
               "    - '@modelcontextprotocol/server-filesystem'\n"
               "    - /home/me\n"
               "    cmd: npx\n"
               "    enabled: true\n"
               "    envs: {}\n"
               "    name: filesystem\n"
               "    timeout: 300\n"
               "    type: stdio\n"
               "  memory:\n"
               "    name: memory\n"
               "    type: stdio\n"
               "    cmd: npx\n"
               "    args:\n"
               "    - -y\n"
               "    - \"@modelcontextprotocol/server-memory\"\n"
               "    envs:\n"
               "      MEMORY_FILE: \"/tmp/m: x.json\"\n"
               "      EMPTY: \"\"\n"
               "    enabled: true\n"
               "    timeout: 300\n"
               "    description: \"true\"\n"
               "GOOSE_MODE: smart_approve\n");

  /* replaced whole: the old lines go, the comment above the key stays */
  set_json (document, PATH ("extensions", "filesystem"), "{\"cmd\":\"fs\",\"enabled\":false}");
  g_assert_nonnull (strstr (mcp_yaml_document_get_text (document, NULL),
                            "  # the files server\n"
                            "  filesystem:\n"
                            "    cmd: fs\n"
                            "    enabled: false\n"
                            "  memory:\n"));

  /* a scalar in place, its comment kept */
  set_json (document, PATH ("GOOSE_MODEL"), "\"gpt-4o\"");
  g_assert_nonnull (strstr (mcp_yaml_document_get_text (document, NULL),
                            "GOOSE_MODEL: gpt-4o  # the default\n"));
}

static void
test_set_new_file (void)
{
  g_autoptr(McpYamlDocument) empty = open_text ("");
  g_autoptr(McpYamlDocument) other = open_text ("GOOSE_PROVIDER: openai");
  g_autoptr(McpYamlDocument) null_parent = open_text ("extensions:\nGOOSE_MODE: auto\n");

  set_json (empty, PATH ("extensions", "a"), "{\"cmd\":\"x\",\"args\":[]}");
  assert_text (empty, "extensions:\n  a:\n    cmd: x\n    args: []\n");

  set_json (other, PATH ("extensions", "a"), "{\"cmd\":\"x\"}");
  assert_text (other, "GOOSE_PROVIDER: openai\nextensions:\n  a:\n    cmd: x");

  set_json (null_parent, PATH ("extensions", "a"), "{\"uri\":\"http://localhost:8080/sse\"}");
  assert_text (null_parent, "extensions:\n  a:\n    uri: http://localhost:8080/sse\nGOOSE_MODE: auto\n");
}

static void
test_set_layouts (void)
{
  g_autoptr(McpYamlDocument) four = open_text ("extensions:\n    a:\n        cmd: x\n        args:\n            - y\n");
  g_autoptr(McpYamlDocument) crlf = open_text ("extensions:\r\n  a:\r\n    cmd: x\r\n");
  g_autoptr(McpYamlDocument) flow = open_text ("# mine\nextensions: {a: {cmd: x}}  # flow\nGOOSE_MODE: auto\n");
  g_autoptr(McpYamlDocument) quoted = open_text ("\"extensions\":\n  'a b':\n    cmd: x\n");

  set_json (four, PATH ("extensions", "b"), "{\"cmd\":\"z\",\"args\":[\"1\",\"#x\",\"a b\"]}");
  assert_text (four,
               "extensions:\n    a:\n        cmd: x\n        args:\n            - y\n"
               "    b:\n        cmd: z\n        args:\n            - \"1\"\n            - \"#x\"\n            - a b\n");

  set_json (crlf, PATH ("extensions", "b"), "{\"cmd\":\"z\",\"envs\":{\"K\":\"v\"}}");
  assert_text (crlf, "extensions:\r\n  a:\r\n    cmd: x\r\n  b:\r\n    cmd: z\r\n    envs:\r\n      K: v\r\n");

  set_json (flow, PATH ("extensions", "b"), "{\"cmd\":\"z\",\"args\":[\"a,b\"]}");
  assert_text (flow, "# mine\nextensions: {a: {cmd: x}, b: {cmd: z, args: [\"a,b\"]}}  # flow\nGOOSE_MODE: auto\n");

  set_json (quoted, PATH ("extensions", "a b", "cmd"), "\"y\"");
  assert_text (quoted, "\"extensions\":\n  'a b':\n    cmd: y\n");
}

static void
test_update (void)
{
  g_autoptr(McpYamlDocument) document = open_text (goose);
  g_autoptr(GString) expected = g_string_new (goose);

  /* only what differs: timeout changes, description is added, bundled goes */
  update_json (document, PATH ("extensions", "developer"),
               "{\"display_name\":\"Developer\",\"enabled\":true,\"name\":\"developer\","
               "\"timeout\":600,\"type\":\"builtin\",\"description\":\"Code # and shell\"}");
  g_string_replace (expected, "    bundled: true\n", "", 1);
  g_string_replace (expected, "    timeout: 300\n    type: builtin\n",
                    "    timeout: 600\n    type: builtin\n    description: \"Code # and shell\"\n", 1);
  assert_text (document, expected->str);

  /* equal values keep their bytes: 300.0 is 300, and the single quotes stay */
  update_json (document, PATH ("extensions", "filesystem"),
               "{\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\",\"/home/me\"],"
               "\"cmd\":\"npx\",\"enabled\":true,\"envs\":{},\"name\":\"filesystem\","
               "\"timeout\":300.0,\"type\":\"stdio\"}");
  assert_text (document, expected->str);
}

static void
test_remove (void)
{
  g_autoptr(McpYamlDocument) document = open_text (goose);
  g_autoptr(McpYamlDocument) last = open_text ("extensions:\n  a:\n    cmd: x\nGOOSE_MODE: auto\n");
  g_autoptr(McpYamlDocument) flow = open_text ("extensions: {a: 1, b: 2}\n");
  g_autoptr(McpYamlDocument) only = open_text ("# top\nextensions:\n  a:\n    cmd: x\n");

  remove_member (document, PATH ("extensions", "filesystem"));
  assert_text (document,
               "# Goose settings\n"
               "GOOSE_PROVIDER: anthropic\n"
               "GOOSE_MODEL: claude-sonnet-4  # the default\n"
               "extensions:\n"
               "  developer:\n"
               "    bundled: true\n"
               "    display_name: Developer\n"
               "    enabled: true\n"
               "    name: developer\n"
               "    timeout: 300\n"
               "    type: builtin\n"
               "GOOSE_MODE: smart_approve\n");
  remove_member (document, PATH ("extensions", "nothing"));
  remove_member (document, PATH ("nothing", "at all"));
  remove_member (document, PATH ("GOOSE_MODEL"));
  g_assert_null (strstr (mcp_yaml_document_get_text (document, NULL), "GOOSE_MODEL"));

  /* the last member of a mapping: an empty one stays */
  remove_member (last, PATH ("extensions", "a"));
  assert_text (last, "extensions: {}\nGOOSE_MODE: auto\n");

  remove_member (flow, PATH ("extensions", "a"));
  assert_text (flow, "extensions: {b: 2}\n");

  remove_member (only, PATH ("extensions"));
  assert_text (only, "");
  assert_json (only, "{}");
}

static void
test_rename (void)
{
  g_autoptr(McpYamlDocument) document = open_text (goose);
  g_autoptr(GString) expected = g_string_new (goose);
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_yaml_document_rename (document, PATH ("extensions", "filesystem"), "files: mine", &error));
  g_assert_no_error (error);
  g_string_replace (expected, "  filesystem:\n", "  \"files: mine\":\n", 1);
  assert_text (document, expected->str);

  g_assert_false (mcp_yaml_document_rename (document, PATH ("extensions", "developer"), "files: mine", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_false (mcp_yaml_document_rename (document, PATH ("extensions", "gone"), "x", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  assert_text (document, expected->str);
}

static void
test_anchors_refused (void)
{
  const char *text = "base: &base\n  type: stdio\nextensions:\n  a:\n    <<: *base\n    cmd: x\n  b: *base\n";
  g_autoptr(McpYamlDocument) document = open_text (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = test_json_parse ("{\"cmd\":\"y\"}");

  g_assert_false (mcp_yaml_document_set (document, PATH ("extensions", "a"), value, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "$.extensions.a: an anchor or alias is there; not changing it");
  g_clear_error (&error);
  g_assert_false (mcp_yaml_document_remove (document, PATH ("base"), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (mcp_yaml_document_remove (document, PATH ("extensions", "a", "type"), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  assert_text (document, text);

  /* a member beside them is fine */
  set_json (document, PATH ("extensions", "a", "cmd"), "\"y\"");
  g_assert_nonnull (strstr (mcp_yaml_document_get_text (document, NULL), "    cmd: y\n"));
}

static void
test_set_refused (void)
{
  const char *text = "GOOSE_MODE: auto\n";
  g_autoptr(McpYamlDocument) document = open_text (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = test_json_parse ("1");

  g_assert_false (mcp_yaml_document_set (document, PATH ("GOOSE_MODE", "x"), value, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "$.GOOSE_MODE: expected an object; not changing it");
  assert_text (document, text);
}

/* Every string that must be quoted reads back as itself. */
static void
test_set_strings (void)
{
  static const char * const strings[] = {
    "", " x", "x ", "true", "NULL", "~", "12", "0x1F", "1e3", ".inf", "- a", "a: b", "a #b", "#a",
    "'a'", "\"a\"", "[a]", "{a}", "*a", "&a", "!a", "|", ">", "%a", "@a", "`a", "a\nb", "a\tb",
    "\x7f", "\xc2\x85", "\xe2\x80\xa8", "\xef\xbb\xbf" "x", "<<", "...", "---", "a:", "é ü", "${HOME}",
  };
  g_autoptr(McpYamlDocument) document = open_text ("extensions:\n  a:\n    cmd: x\n");

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) value = json_node_init_string (json_node_alloc (), strings[i]);
      g_autoptr(JsonNode) array = test_json_parse ("[]");
      g_autoptr(JsonNode) back = NULL;

      json_array_add_element (json_node_get_array (array), json_node_copy (value));
      g_assert_true (mcp_yaml_document_set (document, PATH ("extensions", "a", "cmd"), value, &error));
      g_assert_no_error (error);
      g_assert_true (mcp_yaml_document_set (document, PATH ("extensions", "a", strings[i]), array, &error));
      g_assert_no_error (error);
      back = mcp_yaml_document_parse (mcp_yaml_document_get_text (document, NULL),
                                      strlen (mcp_yaml_document_get_text (document, NULL)), &error);
      g_assert_no_error (error);
      g_assert_true (mcp_json_equal (back, mcp_yaml_document_get_root (document)));
      {
        JsonObject *a = json_object_get_object_member (
          json_object_get_object_member (json_node_get_object (back), "extensions"), "a");

        g_assert_cmpstr (json_object_get_string_member (a, "cmd"), ==, strings[i]);
        g_assert_true (mcp_json_equal (json_object_get_member (a, strings[i]), array));
      }
    }
}

static void
test_json_document_dialect (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJsonDocument) document = mcp_json_document_new (goose, strlen (goose), MCP_JSON_DIALECT_YAML, &error);
  g_autoptr(JsonNode) value = test_json_parse ("{\"cmd\":\"uvx\",\"args\":[\"mcp-server-fetch\"],\"type\":\"stdio\"}");
  g_autoptr(JsonNode) parsed = NULL;
  JsonNode *found;

  g_assert_no_error (error);
  found = mcp_json_document_lookup (document, PATH ("extensions", "developer", "timeout"));
  g_assert_nonnull (found);
  g_assert_cmpint (json_node_get_int (found), ==, 300);

  g_assert_true (mcp_json_document_set (document, PATH ("extensions", "fetch"), value, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_json_document_remove (document, PATH ("extensions", "developer"), &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (mcp_json_document_get_text (document, NULL),
                            "extensions:\n"
                            "  # the files server\n"
                            "  filesystem:\n"));
  g_assert_nonnull (strstr (mcp_json_document_get_text (document, NULL),
                            "    type: stdio\n"
                            "  fetch:\n"
                            "    cmd: uvx\n"
                            "    args:\n"
                            "    - mcp-server-fetch\n"
                            "    type: stdio\n"
                            "GOOSE_MODE: smart_approve\n"));

  parsed = mcp_json_document_parse ("a: [1, 2]\n", 10, MCP_JSON_DIALECT_YAML, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (parsed));

  g_assert_null (mcp_json_document_parse ("a: [1, 2\n", 9, MCP_JSON_DIALECT_YAML, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config/yaml-document/read/goose", test_read_goose);
  g_test_add_func ("/config/yaml-document/read/scalars", test_read_scalars);
  g_test_add_func ("/config/yaml-document/read/layouts", test_read_layouts);
  g_test_add_func ("/config/yaml-document/read/hostile", test_read_hostile);
  g_test_add_func ("/config/yaml-document/set/extension", test_set_extension);
  g_test_add_func ("/config/yaml-document/set/new-file", test_set_new_file);
  g_test_add_func ("/config/yaml-document/set/layouts", test_set_layouts);
  g_test_add_func ("/config/yaml-document/set/refused", test_set_refused);
  g_test_add_func ("/config/yaml-document/set/strings", test_set_strings);
  g_test_add_func ("/config/yaml-document/update", test_update);
  g_test_add_func ("/config/yaml-document/remove", test_remove);
  g_test_add_func ("/config/yaml-document/rename", test_rename);
  g_test_add_func ("/config/yaml-document/anchors-refused", test_anchors_refused);
  g_test_add_func ("/config/yaml-document/json-document-dialect", test_json_document_dialect);

  return g_test_run ();
}
