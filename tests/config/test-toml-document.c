/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "mcp-error.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-toml-document.h"

/* McpTomlDocument: TOML 1.0 read as JSON (the spec's own examples, and
 * what it says is invalid, with the line and column of the error), and
 * edits of a Codex config.toml compared byte for byte. */

#define PATH(...) ((const char * const []) { __VA_ARGS__, NULL })

static char *
json_text (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node);
  return g_string_free (out, FALSE);
}

static JsonNode *
parse_json (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = mcp_json_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  return node;
}

static McpTomlDocument *
open_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  McpTomlDocument *document = mcp_toml_document_new (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

static void
assert_text (McpTomlDocument *document,
             const char      *expected)
{
  gsize length;
  const char *text = mcp_toml_document_get_text (document, &length);

  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpuint (length, ==, strlen (expected));
}

static void
set_json (McpTomlDocument    *document,
          const char * const *path,
          const char         *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json (json);

  g_assert_true (mcp_toml_document_set (document, path, value, &error));
  g_assert_no_error (error);
}

static void
update_json (McpTomlDocument    *document,
             const char * const *path,
             const char         *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json (json);

  g_assert_true (mcp_toml_document_update (document, path, value, &error));
  g_assert_no_error (error);
}

static void
remove_member (McpTomlDocument    *document,
               const char * const *path)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_toml_document_remove (document, path, &error));
  g_assert_no_error (error);
}

static void
rename_member (McpTomlDocument    *document,
               const char * const *path,
               const char         *name)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_toml_document_rename (document, path, name, &error));
  g_assert_no_error (error);
}

/* Reading */

static const struct
{
  const char *toml;
  const char *json;
} valid[] = {
  { "", "{}" },
  { "# only a comment\n\n", "{}" },
  /* keys */
  { "key = \"value\"\nbare_key = 1\nbare-key = 2\n1234 = 3",
    "{\"key\":\"value\",\"bare_key\":1,\"bare-key\":2,\"1234\":3}" },
  { "\"127.0.0.1\" = 1\n\"character encoding\" = 2\n\"\xca\x8e\xc7\x9d\xca\x9e\" = 3\n'key2' = 4\n'quoted \"value\"' = 5\n",
    "{\"127.0.0.1\":1,\"character encoding\":2,\"\xca\x8e\xc7\x9d\xca\x9e\":3,\"key2\":4,\"quoted \\\"value\\\"\":5}" },
  { "\"\" = \"blank\"", "{\"\":\"blank\"}" },
  { "physical.color = \"orange\"\nphysical.shape = \"round\"\nsite.\"google.com\" = true\n",
    "{\"physical\":{\"color\":\"orange\",\"shape\":\"round\"},\"site\":{\"google.com\":true}}" },
  { "fruit.name = \"banana\"\nfruit. color = \"yellow\"\nfruit . flavor = \"banana\"",
    "{\"fruit\":{\"name\":\"banana\",\"color\":\"yellow\",\"flavor\":\"banana\"}}" },
  { "3.14159 = \"pi\"", "{\"3\":{\"14159\":\"pi\"}}" },
  /* strings */
  { "a = \"\\u00E9\\U0001F600\\b\\t\\n\\f\\r\\\"\\\\\"",
    "{\"a\":\"\xc3\xa9\xf0\x9f\x98\x80\\b\\t\\n\\f\\r\\\"\\\\\"}" },
  { "a = \"tab\there\"", "{\"a\":\"tab\\there\"}" },
  { "a = 'C:\\Users\\nodejs\\templates'", "{\"a\":\"C:\\\\Users\\\\nodejs\\\\templates\"}" },
  { "a = \"\"\"\nRoses are red\nViolets are blue\"\"\"", "{\"a\":\"Roses are red\\nViolets are blue\"}" },
  { "a = \"\"\"\r\nRoses\r\nViolets\"\"\"", "{\"a\":\"Roses\\r\\nViolets\"}" },
  { "a = \"\"\"\\\n   The quick brown \\\n\n\n  fox\"\"\"", "{\"a\":\"The quick brown fox\"}" },
  { "a = \"\"\"Here are two quotation marks: \"\". Simple enough.\"\"\"",
    "{\"a\":\"Here are two quotation marks: \\\"\\\". Simple enough.\"}" },
  { "a = \"\"\"\"\"five\"\"\"\"\"", "{\"a\":\"\\\"\\\"five\\\"\\\"\"}" },
  { "a = ''''That,' she said, 'is still pointless.''''",
    "{\"a\":\"'That,' she said, 'is still pointless.'\"}" },
  { "a = '''\nThe first newline is\ntrimmed in raw strings.\n'''",
    "{\"a\":\"The first newline is\\ntrimmed in raw strings.\\n\"}" },
  /* numbers */
  { "a = +99\nb = -17\nc = 0\nd = 1_000\ne = 0xDEAD_beef\nf = 0o755\ng = 0b1101",
    "{\"a\":99,\"b\":-17,\"c\":0,\"d\":1000,\"e\":3735928559,\"f\":493,\"g\":13}" },
  { "a = 9223372036854775807\nb = -9223372036854775808",
    "{\"a\":9223372036854775807,\"b\":-9223372036854775808}" },
  { "a = 3.1415\nb = -0.01\nc = 5e+22\nd = 1e06\ne = -2E-2\nf = 224_617.445_991_228",
    "{\"a\":3.1415,\"b\":-0.01,\"c\":5e+22,\"d\":1000000.0,\"e\":-0.02,\"f\":224617.445991228}" },
  { "a = true\nb = false", "{\"a\":true,\"b\":false}" },
  /* dates and times: their text */
  { "a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00.999999-07:00\nc = 1979-05-27 07:32:00Z\n"
    "d = 1979-05-27T07:32:00\ne = 1980-02-29\nf = 00:32:00.999999 # a time",
    "{\"a\":\"1979-05-27T07:32:00Z\",\"b\":\"1979-05-27T00:32:00.999999-07:00\",\"c\":\"1979-05-27 07:32:00Z\","
    "\"d\":\"1979-05-27T07:32:00\",\"e\":\"1980-02-29\",\"f\":\"00:32:00.999999\"}" },
  /* arrays and inline tables */
  { "a = [ [ 1, 2 ], [\"a\", 'b'], [ 0.5, { x = 1 } ] ]",
    "{\"a\":[[1,2],[\"a\",\"b\"],[0.5,{\"x\":1}]]}" },
  { "a = [\n  1, # one\n  2,\n# c\n]\nb = []", "{\"a\":[1,2],\"b\":[]}" },
  { "name = { first = \"Tom\", last = \"Preston-Werner\" }\npoint = {x=1,y=2}\nanimal = { type.name = \"pug\" }\ne = {}",
    "{\"name\":{\"first\":\"Tom\",\"last\":\"Preston-Werner\"},\"point\":{\"x\":1,\"y\":2},"
    "\"animal\":{\"type\":{\"name\":\"pug\"}},\"e\":{}}" },
  /* tables */
  { "[table-1]\nkey1 = \"some string\"\n\n[table-2]\nkey2 = 456",
    "{\"table-1\":{\"key1\":\"some string\"},\"table-2\":{\"key2\":456}}" },
  { "[dog.\"tater.man\"]\ntype.name = \"pug\"", "{\"dog\":{\"tater.man\":{\"type\":{\"name\":\"pug\"}}}}" },
  { "[ j . \"\xca\x9e\" . 'l' ]\n  [x.y.z.w]\n[x]\n",
    "{\"j\":{\"\xca\x9e\":{\"l\":{}}},\"x\":{\"y\":{\"z\":{\"w\":{}}}}}" },
  { "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true",
    "{\"fruit\":{\"apple\":{\"color\":\"red\",\"taste\":{\"sweet\":true},\"texture\":{\"smooth\":true}}}}" },
  { "[[products]]\nname = \"Hammer\"\n\n[[products]]\n\n[[products]]\nname = \"Nail\"",
    "{\"products\":[{\"name\":\"Hammer\"},{},{\"name\":\"Nail\"}]}" },
  { "[[fruits]]\nname = \"apple\"\n[fruits.physical]\ncolor = \"red\"\n[[fruits.varieties]]\nname = \"rd\"\n"
    "[[fruits]]\nname = \"banana\"\n[[fruits.varieties]]\nname = \"plantain\"",
    "{\"fruits\":[{\"name\":\"apple\",\"physical\":{\"color\":\"red\"},\"varieties\":[{\"name\":\"rd\"}]},"
    "{\"name\":\"banana\",\"varieties\":[{\"name\":\"plantain\"}]}]}" },
  /* line endings, byte order mark */
  { "a = 1 # ok\r\n[b]\r\nc = 2\r\n", "{\"a\":1,\"b\":{\"c\":2}}" },
  { "\xef\xbb\xbf" "a = 1", "{\"a\":1}" },
};

static void
test_valid (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = mcp_toml_document_parse (valid[i].toml, strlen (valid[i].toml), &error);
      g_autofree char *text = NULL;

      g_autofree char *escaped = g_strescape (valid[i].toml, NULL);

      g_test_message ("%s", escaped);
      g_assert_no_error (error);
      text = json_text (root);
      g_assert_cmpstr (text, ==, valid[i].json);
    }
}

static const struct
{
  const char *toml;
  const char *error;
} invalid[] = {
  { "a = 1\nb = 0x_1", "line 2, column 5: invalid number" },
  { "a = 9223372036854775808", "line 1, column 5: the integer does not fit in 64 bits" },
  { "a = 0xffffffffffffffff", "line 1, column 5: the integer does not fit in 64 bits" },
  { "a = 1\n\nb = inf", "line 3, column 5: infinity and NaN cannot be represented in JSON" },
  { "a = -nan", "line 1, column 5: infinity and NaN cannot be represented in JSON" },
  { "a = 1.", "line 1, column 5: invalid number" },
  { "a = 3.e+20", "line 1, column 5: invalid number" },
  { "a = 01", "line 1, column 5: invalid number" },
  { "a = 1__2", "line 1, column 5: invalid number" },
  { "a = 1_", "line 1, column 5: invalid number" },
  { "a = 1e400", "line 1, column 5: the number is too large for JSON" },
  { "a = True", "line 1, column 5: expected a value (a string needs quotes)" },
  { "a = ", "line 1, column 5: expected a value" },
  { "a = 1979-02-29", "line 1, column 5: invalid date or time" },
  { "a = 1979-13-01", "line 1, column 5: invalid date or time" },
  { "a = 1979-05-27T25:00:00", "line 1, column 5: invalid date or time" },
  { "a = 07:32", "line 1, column 5: invalid date or time" },
  { "a = \"\\x41\"", "line 1, column 6: invalid escape sequence ‘\\x’" },
  { "a = \"\\uD800\"", "line 1, column 6: invalid Unicode escape: U+D800 is not a Unicode scalar value" },
  { "a = \"\\U00110000\"", "line 1, column 6: invalid Unicode escape: U+110000 is not a Unicode scalar value" },
  { "a = \"\\u12\"", "line 1, column 6: invalid Unicode escape: expected 4 hexadecimal digits" },
  { "a = \"ctl\001\"", "line 1, column 9: the control character U+0001 is not allowed here" },
  { "a = '''x\177'''", "line 1, column 9: the control character U+007F is not allowed here" },
  { "a = 1 # ctl \001", "line 1, column 13: the control character U+0001 is not allowed here" },
  { "a = \"unclosed", "line 1, column 5: the string is not closed" },
  { "a = \"\"\"unclosed\n", "line 1, column 5: the string is not closed" },
  { "a = \"multi\nline\"", "line 1, column 11: the string is not closed before the end of the line" },
  { "\"\"\"a\"\"\" = 1", "line 1, column 1: a key cannot be a multi-line string" },
  { "a = [1 2]", "line 1, column 8: expected ‘,’ or ‘]’ in the array" },
  { "a = [1,,2]", "line 1, column 8: expected a value, not ‘,’" },
  { "a = [1", "line 1, column 7: expected ‘,’ or ‘]’ in the array" },
  { "a = { b = 1, }", "line 1, column 14: a trailing comma is not allowed in an inline table" },
  { "a = { b = 1,\n c = 2 }", "line 1, column 13: an inline table must be on a single line" },
  { "a = {\n}", "line 1, column 6: an inline table must be on a single line" },
  { "a = { b = 1 b = 2 }", "line 1, column 13: expected ‘,’ or ‘}’ in the inline table" },
  { "a = { b = 1 }\na.c = 2", "line 2, column 1: the table ‘a’ is defined elsewhere and cannot be extended here" },
  { "a = { b = 1 }\n[a.c]", "line 2, column 2: the table ‘a’ is an inline table and cannot be extended" },
  { "= \"no key\"", "line 1, column 1: expected a key" },
  { "a \"b\"", "line 1, column 3: expected ‘=’ after the key" },
  { "name = \"Tom\"\nname = \"Pradyun\"", "line 2, column 1: the key ‘name’ is defined twice" },
  { "spelling = 1\n\"spelling\" = 2", "line 2, column 1: the key ‘spelling’ is defined twice" },
  { "fruit.apple = 1\nfruit.apple.smooth = true", "line 2, column 7: ‘fruit.apple’ is already a value, not a table" },
  { "[fruit]\napple = \"red\"\n\n[fruit]", "line 4, column 2: the table ‘fruit’ is defined twice" },
  { "[fruit]\napple = \"red\"\n\n[fruit.apple]", "line 4, column 8: ‘fruit.apple’ is already a value, not a table" },
  { "[fruit]\napple.color = \"red\"\n[fruit.apple]", "line 3, column 8: the table ‘fruit.apple’ is defined twice" },
  { "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", "line 4, column 1: the table ‘a.b’ is defined elsewhere and cannot be extended here" },
  { "[fruit.physical]\n[[fruit]]", "line 2, column 3: ‘fruit’ is already a table, not an array of tables" },
  { "fruits = []\n[[fruits]]", "line 2, column 3: ‘fruits’ is already a value, not a table" },
  { "[[fruits]]\n[fruits]", "line 2, column 2: ‘fruits’ is an array of tables, not a table" },
  { "[a] b = 1", "line 1, column 5: expected the end of the line" },
  { "[a]]", "line 1, column 4: expected the end of the line" },
  { "[[a]", "line 1, column 4: expected ‘]]’ after the table’s name" },
  { "[ [a]]", "line 1, column 3: expected a key" },
  { "[a\nb]", "line 1, column 3: expected ‘]’ after the table’s name" },
  { "a = 1 b = 2", "line 1, column 7: expected the end of the line" },
  { "a = 1\rb = 2", "line 1, column 6: a carriage return must be followed by a line feed" },
  { "a = \"\xff\"", "line 1, column 6: the text is not valid UTF-8" },
  { "\xef\xbb\xbf" "\xc3\xa9 = 1", "line 1, column 1: expected a key" },
  { "x = \"\xc3\xa9\" y", "line 1, column 9: expected the end of the line" },
};

static void
test_invalid (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = mcp_toml_document_parse (invalid[i].toml, strlen (invalid[i].toml), &error);
      g_autoptr(McpTomlDocument) document = NULL;

      g_autofree char *escaped = g_strescape (invalid[i].toml, NULL);

      g_test_message ("%s", escaped);
      g_assert_null (root);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_cmpstr (error->message, ==, invalid[i].error);

      g_clear_error (&error);
      document = mcp_toml_document_new (invalid[i].toml, strlen (invalid[i].toml), &error);
      g_assert_null (document);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    }
}

static void
test_limits (void)
{
  g_autoptr(GString) deep = g_string_new ("a = ");
  g_autoptr(GString) dotted = g_string_new ("[a");
  g_autoptr(GString) many = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *big = NULL;

  for (guint i = 0; i < 100; i++)
    g_string_append_c (deep, '[');
  root = mcp_toml_document_parse (deep->str, deep->len, &error);
  g_assert_null (root);
  g_assert_cmpstr (error->message, ==, "line 1, column 69: nested deeper than 64 levels");
  g_clear_error (&error);

  for (guint i = 0; i < 70; i++)
    g_string_append (dotted, ".a");
  g_string_append (dotted, "]\n");
  root = mcp_toml_document_parse (dotted->str, dotted->len, &error);
  g_assert_null (root);
  g_assert_true (g_str_has_suffix (error->message, ": nested deeper than 64 levels"));
  g_clear_error (&error);

  for (guint i = 0; i <= 100000; i++)
    g_string_append_printf (many, "k%u = 1\n", i);
  root = mcp_toml_document_parse (many->str, many->len, &error);
  g_assert_null (root);
  g_assert_cmpstr (error->message, ==, "line 100001, column 1: more than 100000 keys");
  g_clear_error (&error);

  big = g_malloc0 (16 * 1024 * 1024 + 2);
  memset (big, '#', 16 * 1024 * 1024 + 1);
  root = mcp_toml_document_parse (big, 16 * 1024 * 1024 + 1, &error);
  g_assert_null (root);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The TOML text is larger than 16 MiB");
}

/* Editing Codex's config */

static const char codex[] =
  "# Codex configuration\n"
  "model = \"o3\"\n"
  "approval_policy   =   'on-request'   # ask first\n"
  "\n"
  "[model_providers.ollama]\n"
  "name = \"Ollama\"\n"
  "base_url = \"http://localhost:11434/v1\"\n"
  "\n"
  "# The docs server\n"
  "# (pinned)\n"
  "[mcp_servers.docs]\n"
  "command = \"npx\"\n"
  "args = [\"-y\", \"@modelcontextprotocol/server-everything\"]   # pinned\n"
  "startup_timeout_sec = 2_0\n"
  "\n"
  "[mcp_servers.docs.env]\n"
  "API_KEY = \"abc\"\n"
  "\n"
  "[ mcp_servers . remote ]\n"
  "  url = \"https://example.com/mcp\"\n"
  "  bearer_token_env_var = \"TOKEN\"\n"
  "  http_headers = { \"X-Team\" = \"core\" }\n"
  "\n"
  "[profiles.fast]\n"
  "model = \"o4-mini\"\n"
  "\n"
  "[[notify]]\n"
  "command = \"notify-send\"\n";

static void
test_set_server (void)
{
  g_autoptr(McpTomlDocument) document = open_text (codex);

  set_json (document, PATH ("mcp_servers", "new"),
            "{\"command\":\"uvx\",\"args\":[\"a b\",\"\\\"q\\\"\"],\"env\":{\"K\":\"v\",\"my key\":\"w\"},"
            "\"enabled\":true,\"tool_timeout_sec\":60.5}");
  assert_text (document,
               "# Codex configuration\n"
               "model = \"o3\"\n"
               "approval_policy   =   'on-request'   # ask first\n"
               "\n"
               "[model_providers.ollama]\n"
               "name = \"Ollama\"\n"
               "base_url = \"http://localhost:11434/v1\"\n"
               "\n"
               "# The docs server\n"
               "# (pinned)\n"
               "[mcp_servers.docs]\n"
               "command = \"npx\"\n"
               "args = [\"-y\", \"@modelcontextprotocol/server-everything\"]   # pinned\n"
               "startup_timeout_sec = 2_0\n"
               "\n"
               "[mcp_servers.docs.env]\n"
               "API_KEY = \"abc\"\n"
               "\n"
               "[ mcp_servers . remote ]\n"
               "  url = \"https://example.com/mcp\"\n"
               "  bearer_token_env_var = \"TOKEN\"\n"
               "  http_headers = { \"X-Team\" = \"core\" }\n"
               "\n"
               "[mcp_servers.new]\n"
               "command = \"uvx\"\n"
               "args = [\"a b\", \"\\\"q\\\"\"]\n"
               "enabled = true\n"
               "tool_timeout_sec = 60.5\n"
               "\n"
               "[mcp_servers.new.env]\n"
               "K = \"v\"\n"
               "\"my key\" = \"w\"\n"
               "\n"
               "[profiles.fast]\n"
               "model = \"o4-mini\"\n"
               "\n"
               "[[notify]]\n"
               "command = \"notify-send\"\n");

  /* a name that needs quotes, a value that needs escapes */
  set_json (document, PATH ("mcp_servers", "a.b \xc3\xa9"), "{\"url\":\"http://x/\\u0001\\t\"}");
  g_assert_nonnull (strstr (mcp_toml_document_get_text (document, NULL),
                            "\n[mcp_servers.\"a.b \xc3\xa9\"]\nurl = \"http://x/\\u0001\\t\"\n\n[profiles.fast]\n"));
}

static void
test_set_empty (void)
{
  g_autoptr(McpTomlDocument) document = open_text ("");
  g_autoptr(McpTomlDocument) top = open_text ("# settings\nmodel = \"o3\"");

  set_json (document, PATH ("mcp_servers", "s"), "{\"command\":\"y\",\"args\":[],\"env\":{\"A\":\"1\"}}");
  assert_text (document,
               "[mcp_servers.s]\n"
               "command = \"y\"\n"
               "args = []\n"
               "\n"
               "[mcp_servers.s.env]\n"
               "A = \"1\"\n");
  set_json (document, PATH ("model"), "\"gpt-5\"");
  assert_text (document,
               "model = \"gpt-5\"\n"
               "\n"
               "[mcp_servers.s]\n"
               "command = \"y\"\n"
               "args = []\n"
               "\n"
               "[mcp_servers.s.env]\n"
               "A = \"1\"\n");

  set_json (top, PATH ("mcp_servers"), "{\"a\":{\"command\":\"x\"},\"b\":{\"url\":\"https://b/\"}}");
  set_json (top, PATH ("tools", "web_search"), "true");
  assert_text (top,
               "# settings\n"
               "model = \"o3\"\n"
               "tools.web_search = true\n"
               "\n"
               "[mcp_servers.a]\n"
               "command = \"x\"\n"
               "\n"
               "[mcp_servers.b]\n"
               "url = \"https://b/\"\n");
}

static void
test_set_inline_env (void)
{
  g_autoptr(McpTomlDocument) document = open_text ("[mcp_servers.a]\n"
                                                   "command = \"x\"\n"
                                                   "env = { A = \"1\" }\n");

  /* the file's servers write env inline: so does the new one */
  set_json (document, PATH ("mcp_servers", "b"), "{\"command\":\"y\",\"env\":{\"B\":\"2\",\"C\":\"3\"}}");
  assert_text (document,
               "[mcp_servers.a]\n"
               "command = \"x\"\n"
               "env = { A = \"1\" }\n"
               "\n"
               "[mcp_servers.b]\n"
               "command = \"y\"\n"
               "env = { B = \"2\", C = \"3\" }\n");

  /* an inline table stays inline */
  update_json (document, PATH ("mcp_servers", "a", "env"), "{\"A\":\"1\",\"D\":\"4\"}");
  set_json (document, PATH ("mcp_servers", "b", "env", "E"), "\"5\"");
  remove_member (document, PATH ("mcp_servers", "b", "env", "B"));
  assert_text (document,
               "[mcp_servers.a]\n"
               "command = \"x\"\n"
               "env = { A = \"1\", D = \"4\" }\n"
               "\n"
               "[mcp_servers.b]\n"
               "command = \"y\"\n"
               "env = { C = \"3\", E = \"5\" }\n");
  remove_member (document, PATH ("mcp_servers", "b", "env", "E"));
  remove_member (document, PATH ("mcp_servers", "b", "env", "C"));
  remove_member (document, PATH ("mcp_servers", "a", "env", "D"));
  assert_text (document,
               "[mcp_servers.a]\n"
               "command = \"x\"\n"
               "env = { A = \"1\" }\n"
               "\n"
               "[mcp_servers.b]\n"
               "command = \"y\"\n"
               "env = {}\n");
  set_json (document, PATH ("mcp_servers", "b", "env", "F"), "\"6\"");
  assert_text (document,
               "[mcp_servers.a]\n"
               "command = \"x\"\n"
               "env = { A = \"1\" }\n"
               "\n"
               "[mcp_servers.b]\n"
               "command = \"y\"\n"
               "env = { F = \"6\" }\n");
}

static void
test_update (void)
{
  g_autoptr(McpTomlDocument) document = open_text (codex);
  g_autoptr(GString) expected = g_string_new (codex);
  const char *text;

  /* equal in value (2_0 is 20): not a byte changes */
  update_json (document, PATH ("mcp_servers", "docs"),
               "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-everything\"],"
               "\"startup_timeout_sec\":20,\"env\":{\"API_KEY\":\"abc\"}}");
  assert_text (document, codex);

  /* one value: only its bytes */
  update_json (document, PATH ("mcp_servers", "docs"),
               "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-everything\"],"
               "\"startup_timeout_sec\":30,\"env\":{\"API_KEY\":\"abc\"}}");
  g_string_replace (expected, "startup_timeout_sec = 2_0", "startup_timeout_sec = 30", 1);
  assert_text (document, expected->str);

  /* a member added, one removed, one changed, in both tables of the server */
  update_json (document, PATH ("mcp_servers", "docs"),
               "{\"command\":\"node\",\"args\":[\"-y\",\"@modelcontextprotocol/server-everything\"],"
               "\"env\":{\"API_KEY\":\"abc\",\"B\":\"c\"},\"cwd\":\"/tmp\"}");
  text = mcp_toml_document_get_text (document, NULL);
  g_assert_nonnull (strstr (text,
                            "# The docs server\n"
                            "# (pinned)\n"
                            "[mcp_servers.docs]\n"
                            "command = \"node\"\n"
                            "args = [\"-y\", \"@modelcontextprotocol/server-everything\"]   # pinned\n"
                            "cwd = \"/tmp\"\n"
                            "\n"
                            "[mcp_servers.docs.env]\n"
                            "API_KEY = \"abc\"\n"
                            "B = \"c\"\n"
                            "\n"
                            "[ mcp_servers . remote ]\n"));

  /* indented keys: a new one is indented alike; an inline table stays inline */
  update_json (document, PATH ("mcp_servers", "remote"),
               "{\"url\":\"https://example.com/mcp\",\"bearer_token_env_var\":\"TOKEN\","
               "\"http_headers\":{\"X-Team\":\"core\",\"Y\":\"z\"},\"enabled\":false}");
  text = mcp_toml_document_get_text (document, NULL);
  g_assert_nonnull (strstr (text,
                            "[ mcp_servers . remote ]\n"
                            "  url = \"https://example.com/mcp\"\n"
                            "  bearer_token_env_var = \"TOKEN\"\n"
                            "  http_headers = { \"X-Team\" = \"core\", Y = \"z\" }\n"
                            "  enabled = false\n"
                            "\n"
                            "[profiles.fast]\n"));
}

static void
test_remove (void)
{
  g_autoptr(McpTomlDocument) document = open_text (codex);

  /* the table, its sub-tables, and the comments directly above it */
  remove_member (document, PATH ("mcp_servers", "docs"));
  assert_text (document,
               "# Codex configuration\n"
               "model = \"o3\"\n"
               "approval_policy   =   'on-request'   # ask first\n"
               "\n"
               "[model_providers.ollama]\n"
               "name = \"Ollama\"\n"
               "base_url = \"http://localhost:11434/v1\"\n"
               "\n"
               "[ mcp_servers . remote ]\n"
               "  url = \"https://example.com/mcp\"\n"
               "  bearer_token_env_var = \"TOKEN\"\n"
               "  http_headers = { \"X-Team\" = \"core\" }\n"
               "\n"
               "[profiles.fast]\n"
               "model = \"o4-mini\"\n"
               "\n"
               "[[notify]]\n"
               "command = \"notify-send\"\n");

  /* a key's line; nothing there is fine */
  remove_member (document, PATH ("approval_policy"));
  remove_member (document, PATH ("mcp_servers", "remote", "bearer_token_env_var"));
  remove_member (document, PATH ("mcp_servers", "gone"));
  remove_member (document, PATH ("nothing", "here"));
  /* an array of tables, at the end: no blank line left behind */
  remove_member (document, PATH ("notify"));
  assert_text (document,
               "# Codex configuration\n"
               "model = \"o3\"\n"
               "\n"
               "[model_providers.ollama]\n"
               "name = \"Ollama\"\n"
               "base_url = \"http://localhost:11434/v1\"\n"
               "\n"
               "[ mcp_servers . remote ]\n"
               "  url = \"https://example.com/mcp\"\n"
               "  http_headers = { \"X-Team\" = \"core\" }\n"
               "\n"
               "[profiles.fast]\n"
               "model = \"o4-mini\"\n");

  /* dotted keys: every line through the name */
  {
    g_autoptr(McpTomlDocument) dotted = open_text ("[fruit]\n"
                                                   "apple.color = \"red\"\n"
                                                   "banana = 1\n"
                                                   "apple.taste.sweet = true\n"
                                                   "\n"
                                                   "[fruit.apple.texture]\n"
                                                   "smooth = true\n"
                                                   "\n"
                                                   "[other]\n");

    remove_member (dotted, PATH ("fruit", "apple"));
    assert_text (dotted, "[fruit]\nbanana = 1\n\n[other]\n");
  }
}

static void
test_rename (void)
{
  g_autoptr(McpTomlDocument) document = open_text (codex);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) expected = g_string_new (codex);

  rename_member (document, PATH ("mcp_servers", "docs"), "my docs");
  g_string_replace (expected, "[mcp_servers.docs]", "[mcp_servers.\"my docs\"]", 1);
  g_string_replace (expected, "[mcp_servers.docs.env]", "[mcp_servers.\"my docs\".env]", 1);
  assert_text (document, expected->str);

  rename_member (document, PATH ("mcp_servers", "remote"), "far");
  g_string_replace (expected, "[ mcp_servers . remote ]", "[ mcp_servers . far ]", 1);
  rename_member (document, PATH ("mcp_servers", "far", "http_headers", "X-Team"), "X-Group");
  g_string_replace (expected, "\"X-Team\" = \"core\"", "X-Group = \"core\"", 1);
  rename_member (document, PATH ("mcp_servers"), "servers");
  g_string_replace (expected, "mcp_servers", "servers", 0);
  assert_text (document, expected->str);

  g_assert_false (mcp_toml_document_rename (document, PATH ("servers", "far"), "my docs", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_cmpstr (error->message, ==, "$.servers[\"my docs\"]: there is one already; not renaming");
  g_clear_error (&error);
  g_assert_false (mcp_toml_document_rename (document, PATH ("servers", "none"), "x", &error));
  g_assert_cmpstr (error->message, ==, "$.servers.none: there is nothing to rename");
  assert_text (document, expected->str);
}

static void
test_crlf (void)
{
  g_autoptr(McpTomlDocument) document = open_text ("\xef\xbb\xbf# top\r\n"
                                                   "\r\n"
                                                   "[mcp_servers.a]\r\n"
                                                   "command = \"x\"\r\n");

  set_json (document, PATH ("mcp_servers", "b"), "{\"command\":\"y\",\"env\":{\"A\":\"1\"}}");
  set_json (document, PATH ("mcp_servers", "a", "args"), "[\"1\"]");
  set_json (document, PATH ("model"), "\"m\"");
  assert_text (document,
               "\xef\xbb\xbf# top\r\n"
               "\r\n"
               "model = \"m\"\r\n"
               "\r\n"
               "[mcp_servers.a]\r\n"
               "command = \"x\"\r\n"
               "args = [\"1\"]\r\n"
               "\r\n"
               "[mcp_servers.b]\r\n"
               "command = \"y\"\r\n"
               "\r\n"
               "[mcp_servers.b.env]\r\n"
               "A = \"1\"\r\n");
  remove_member (document, PATH ("mcp_servers", "b"));
  assert_text (document,
               "\xef\xbb\xbf# top\r\n"
               "\r\n"
               "model = \"m\"\r\n"
               "\r\n"
               "[mcp_servers.a]\r\n"
               "command = \"x\"\r\n"
               "args = [\"1\"]\r\n");
}

static void
test_set_replace (void)
{
  g_autoptr(McpTomlDocument) document = open_text (codex);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) null_value = parse_json ("{\"command\":null}");
  g_autoptr(JsonNode) in_array = parse_json ("1");
  const char *text;

  /* a [table] set anew stays where it was, with its comments */
  set_json (document, PATH ("mcp_servers", "docs"), "{\"url\":\"https://docs/\"}");
  text = mcp_toml_document_get_text (document, NULL);
  g_assert_nonnull (strstr (text,
                            "base_url = \"http://localhost:11434/v1\"\n"
                            "\n"
                            "# The docs server\n"
                            "# (pinned)\n"
                            "[mcp_servers.docs]\n"
                            "url = \"https://docs/\"\n"
                            "\n"
                            "[ mcp_servers . remote ]\n"));

  /* a value made a table (inline, where the value was), and back */
  set_json (document, PATH ("model"), "{\"name\":\"o3\"}");
  g_assert_true (g_str_has_prefix (mcp_toml_document_get_text (document, NULL),
                                   "# Codex configuration\n"
                                   "model = { name = \"o3\" }\n"
                                   "approval_policy   =   'on-request'   # ask first\n"));
  set_json (document, PATH ("model"), "\"o3\"");
  g_assert_true (g_str_has_prefix (mcp_toml_document_get_text (document, NULL),
                                   "# Codex configuration\n"
                                   "model = \"o3\"\n"));

  /* a [table] made a value: the table goes, a dotted key takes its place */
  set_json (document, PATH ("profiles", "fast"), "\"none\"");
  g_assert_true (g_str_has_prefix (mcp_toml_document_get_text (document, NULL),
                                   "# Codex configuration\n"
                                   "model = \"o3\"\n"
                                   "approval_policy   =   'on-request'   # ask first\n"
                                   "profiles.fast = \"none\"\n"
                                   "\n"
                                   "[model_providers.ollama]\n"));
  g_assert_null (strstr (mcp_toml_document_get_text (document, NULL), "[profiles.fast]"));

  /* what TOML cannot hold is refused, the text kept */
  text = mcp_toml_document_get_text (document, NULL);
  {
    g_autofree char *before = g_strdup (text);

    g_assert_false (mcp_toml_document_set (document, PATH ("mcp_servers", "docs"), null_value, &error));
    g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
    g_assert_cmpstr (error->message, ==, "$.mcp_servers.docs.command: TOML has no null; not writing it");
    g_clear_error (&error);
    g_assert_false (mcp_toml_document_set (document, PATH ("notify", "x"), in_array, &error));
    g_assert_cmpstr (error->message, ==, "$.notify: expected an object; not changing it");
    g_clear_error (&error);
    g_assert_false (mcp_toml_document_set (document, PATH ("model", "x"), in_array, &error));
    g_assert_cmpstr (error->message, ==, "$.model: expected an object; not changing it");
    assert_text (document, before);
  }
}

/* The same through McpJsonDocument, as the settings code edits it */
static void
test_json_document (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJsonDocument) document = mcp_json_document_new (codex, strlen (codex), MCP_JSON_DIALECT_TOML, &error);
  g_autoptr(JsonNode) value = parse_json ("{\"command\":\"uvx\",\"args\":[\"x\"]}");
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GBytes) bytes = NULL;
  JsonNode *found;

  g_assert_no_error (error);
  found = mcp_json_document_lookup (document, PATH ("mcp_servers", "docs", "env", "API_KEY"));
  g_assert_cmpstr (json_node_get_string (found), ==, "abc");

  g_assert_true (mcp_json_document_set (document, PATH ("mcp_servers", "uv"), value, &error));
  g_assert_true (mcp_json_document_rename (document, PATH ("mcp_servers", "uv"), "uv2", &error));
  g_assert_true (mcp_json_document_update (document, PATH ("mcp_servers", "uv2"), value, &error));
  g_assert_true (mcp_json_document_remove (document, PATH ("mcp_servers", "remote"), &error));
  g_assert_no_error (error);

  bytes = mcp_json_document_dup_bytes (document);
  g_assert_nonnull (strstr (g_bytes_get_data (bytes, NULL),
                            "API_KEY = \"abc\"\n\n[mcp_servers.uv2]\ncommand = \"uvx\"\nargs = [\"x\"]\n\n[profiles.fast]\n"));
  parsed = mcp_json_document_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                    MCP_JSON_DIALECT_TOML, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_json_equal (parsed, mcp_json_document_get_root (document)));

  g_clear_pointer (&document, mcp_json_document_free);
  document = mcp_json_document_new ("a = [1", 6, MCP_JSON_DIALECT_TOML, &error);
  g_assert_null (document);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "line 1, column 7: expected ‘,’ or ‘]’ in the array");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config/toml-document/valid", test_valid);
  g_test_add_func ("/config/toml-document/invalid", test_invalid);
  g_test_add_func ("/config/toml-document/limits", test_limits);
  g_test_add_func ("/config/toml-document/set-server", test_set_server);
  g_test_add_func ("/config/toml-document/set-empty", test_set_empty);
  g_test_add_func ("/config/toml-document/set-inline-env", test_set_inline_env);
  g_test_add_func ("/config/toml-document/set-replace", test_set_replace);
  g_test_add_func ("/config/toml-document/update", test_update);
  g_test_add_func ("/config/toml-document/remove", test_remove);
  g_test_add_func ("/config/toml-document/rename", test_rename);
  g_test_add_func ("/config/toml-document/crlf", test_crlf);
  g_test_add_func ("/config/toml-document/json-document", test_json_document);

  return g_test_run ();
}
