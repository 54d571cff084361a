/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client-shape"

#include "config.h"

#include <string.h>

#include "mcp-client-shape.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "test-json.h"
#include "test-util.h"

/* Each client's shape (issue 26): every server of the fixture files in
 * tests/data/clients/ into Plugboard's shape, with the notes; back, to the
 * very text; between clients, with what is left out named; and what a
 * client cannot run refused. */

#define HOME "/home/ada"
#define PROJECT "/home/ada/src/shop"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static char *
notes_text (GPtrArray *notes)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < notes->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "", (const char *) notes->pdata[i]);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
object_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return test_json_text (node);
}

static void
assert_json_equal (JsonObject *object,
                   const char *expected)
{
  g_autoptr(JsonNode) want = test_json_parse (expected);
  g_autoptr(JsonNode) got = json_node_init_object (json_node_alloc (), object);

  if (!mcp_json_equal (want, got))
    {
      g_autofree char *text = test_json_text (got);

      g_assert_cmpstr (text, ==, expected);
    }
}

/* The fixture's root, parsed as its client does */
static JsonNode *
load_fixture (const char     *name,
              McpJsonDialect  dialect)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "clients", name, NULL);
  g_autofree char *text = test_read_file (path);
  g_autoptr(GError) error = NULL;
  JsonNode *root = mcp_json_document_parse (text, strlen (text), dialect, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return root;
}

/* The object at the dotted @path ("projects|/home/ada/src/shop|mcpServers"
 * with '|' where a key has dots) */
static JsonObject *
lookup (JsonNode   *root,
        const char *path)
{
  g_auto(GStrv) members = g_strsplit (path, "|", -1);
  JsonObject *object = json_node_get_object (root);

  for (guint i = 0; members[i] != NULL; i++)
    {
      g_assert_true (json_object_has_member (object, members[i]));
      object = json_object_get_object_member (object, members[i]);
    }
  return object;
}

/* ------------------------------------------------------------------------ */
/* Every server of every fixture                                            */

typedef struct
{
  McpClientKind   kind;
  const char     *fixture;
  McpJsonDialect  dialect;
  const char     *container;   /* '|'-separated */
  const char     *inputs;      /* the "inputs" array's object, or NULL */
  const char     *name;
  const char     *plugboard;   /* expected entry; NULL: an error */
  const char     *notes;       /* expected notes, one a line; or the error's words */
} ReadCase;

static const ReadCase read_cases[] = {
  /* Claude Code: ~/.claude.json, user and local, and .mcp.json */
  { MCP_CLIENT_KIND_CLAUDE_CODE, "claude.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "github",
    "{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-github\"],"
    "\"env\":{\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"ghp_16C7e42F292c6912E7710c838347Ae178B4a\"}}", "" },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "claude.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "linear",
    "{\"type\":\"http\",\"url\":\"https://mcp.linear.app/mcp\","
    "\"headers\":{\"Authorization\":\"Bearer ${LINEAR_API_KEY}\"}}", "" },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "claude.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "sentry",
    "{\"type\":\"sse\",\"url\":\"https://mcp.sentry.dev/sse\",\"headersHelper\":\"/home/ada/bin/sentry-headers\"}",
    "headersHelper: kept, not used by Plugboard" },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "claude.json", MCP_JSON_DIALECT_JSON, "projects|" PROJECT "|mcpServers", NULL,
    "postgres",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-postgres\","
    "\"postgresql://localhost/${DB_NAME:-shop}\"]}", "" },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "playwright",
    "{\"command\":\"npx\",\"args\":[\"@playwright/mcp@latest\"]}", "" },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "docs",
    "{\"type\":\"http\",\"url\":\"${DOCS_URL:-https://docs.example.com/mcp}\"}", "" },

  /* Claude Desktop */
  { MCP_CLIENT_KIND_CLAUDE_DESKTOP, "claude_desktop_config.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL,
    "filesystem",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\","
    "\"/home/ada/Documents\",\"/home/ada/Desktop\"]}", "" },
  { MCP_CLIENT_KIND_CLAUDE_DESKTOP, "claude_desktop_config.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL,
    "weather",
    "{\"command\":\"uv\",\"args\":[\"--directory\",\"/home/ada/src/weather\",\"run\",\"weather.py\"],"
    "\"env\":{\"OPENWEATHER_API_KEY\":\"0123456789abcdef0123456789abcdef\"}}", "" },

  /* VS Code: settings.json "mcp" and .vscode/mcp.json */
  { MCP_CLIENT_KIND_VSCODE, "vscode-settings.json", MCP_JSON_DIALECT_JSONC, "mcp|servers", "mcp", "perplexity",
    "{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"server-perplexity-ask\"],"
    "\"env\":{\"PERPLEXITY_API_KEY\":\"${input:perplexity-key}\"}}",
    "“${input:perplexity-key}” (Perplexity API Key) is asked by VS Code when it starts the server: "
    "replace it with the value, or with a ${VARIABLE} from the environment" },
  { MCP_CLIENT_KIND_VSCODE, "vscode-settings.json", MCP_JSON_DIALECT_JSONC, "mcp|servers", "mcp", "fetch",
    "{\"command\":\"uvx\",\"args\":[\"mcp-server-fetch\"]}", "" },
  { MCP_CLIENT_KIND_VSCODE, "vscode-mcp.json", MCP_JSON_DIALECT_JSONC, "servers", "", "github",
    "{\"type\":\"http\",\"url\":\"https://api.githubcopilot.com/mcp/\","
    "\"headers\":{\"Authorization\":\"Bearer ${input:github-pat}\"}}",
    "“${input:github-pat}” (GitHub Personal Access Token) is asked by VS Code when it starts the server: "
    "replace it with the value, or with a ${VARIABLE} from the environment" },
  { MCP_CLIENT_KIND_VSCODE, "vscode-mcp.json", MCP_JSON_DIALECT_JSONC, "servers", "", "workspace-fs",
    "{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\","
    "\"" PROJECT "\"],\"env\":{\"LOG_LEVEL\":\"${LOG_LEVEL}\"},\"envFile\":\"${workspaceFolder}/.env\"}",
    "envFile: kept, not used by Plugboard" },
  { MCP_CLIENT_KIND_VSCODE, "vscode-mcp.json", MCP_JSON_DIALECT_JSONC, "servers", "", "legacy-sse",
    "{\"type\":\"sse\",\"url\":\"http://localhost:8931/sse\"}", "" },

  /* Cursor */
  { MCP_CLIENT_KIND_CURSOR, "cursor-mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "brave-search",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-brave-search\"],"
    "\"env\":{\"BRAVE_API_KEY\":\"${BRAVE_API_KEY}\"}}", "" },
  { MCP_CLIENT_KIND_CURSOR, "cursor-mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "context7",
    "{\"type\":\"http\",\"url\":\"https://mcp.context7.com/mcp\","
    "\"headers\":{\"CONTEXT7_API_KEY\":\"ctx7sk-a1b2c3d4e5f6\"}}", "" },
  { MCP_CLIENT_KIND_CURSOR, "cursor-mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "notes",
    "{\"type\":\"sse\",\"url\":\"http://127.0.0.1:3845/sse\"}", "" },
  /* a name TOML must quote, with a dot in it */
  { MCP_CLIENT_KIND_CURSOR, "cursor-mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "acme.docs \"beta\"",
    "{\"type\":\"http\",\"url\":\"https://docs.acme.example/mcp\"}", "" },
  { MCP_CLIENT_KIND_CURSOR, "cursor-mcp.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "home-tool",
    "{\"command\":\"/home/ada/bin/tool-server\",\"envFile\":\"${userHome}/.tool.env\"}",
    "envFile: kept, not used by Plugboard" },

  /* Windsurf */
  { MCP_CLIENT_KIND_WINDSURF, "windsurf-mcp_config.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "figma",
    "{\"type\":\"http\",\"url\":\"https://mcp.figma.com/mcp\","
    "\"headers\":{\"Authorization\":\"Bearer ${FIGMA_TOKEN}\"}}", "" },
  { MCP_CLIENT_KIND_WINDSURF, "windsurf-mcp_config.json", MCP_JSON_DIALECT_JSON, "mcpServers", NULL, "git",
    "{\"command\":\"uvx\",\"args\":[\"mcp-server-git\",\"--repository\",\"/home/ada/src/shop\"],"
    "\"disabled\":true,\"disabledTools\":[\"git_push\"]}",
    "disabledTools: kept, not used by Plugboard" },

  /* Gemini CLI */
  { MCP_CLIENT_KIND_GEMINI, "gemini-settings.json", MCP_JSON_DIALECT_JSONC, "mcpServers", NULL, "pythonTools",
    "{\"command\":\"python\",\"args\":[\"-m\",\"my_mcp_server\",\"--port\",\"8080\"],"
    "\"env\":{\"DATABASE_URL\":\"${DB_CONNECTION_STRING}\",\"API_KEY\":\"${EXTERNAL_API_KEY}\"},"
    "\"cwd\":\"./mcp-servers/python\",\"toolTimeout\":15000}", "" },
  { MCP_CLIENT_KIND_GEMINI, "gemini-settings.json", MCP_JSON_DIALECT_JSONC, "mcpServers", NULL, "httpServer",
    "{\"type\":\"http\",\"url\":\"http://localhost:3000/mcp\","
    "\"headers\":{\"Authorization\":\"Bearer ${API_TOKEN}\"},\"trust\":true}",
    "trust: kept, not used by Plugboard" },
  { MCP_CLIENT_KIND_GEMINI, "gemini-settings.json", MCP_JSON_DIALECT_JSONC, "mcpServers", NULL, "sseServer",
    "{\"type\":\"sse\",\"url\":\"https://api.example.com/sse\",\"includeTools\":[\"search\"],"
    "\"excludeTools\":[\"delete_everything\"]}",
    "includeTools: kept, not used by Plugboard\nexcludeTools: kept, not used by Plugboard" },

  /* Codex: TOML */
  { MCP_CLIENT_KIND_CODEX, "codex-config.toml", MCP_JSON_DIALECT_TOML, "mcp_servers", NULL, "context7",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"@upstash/context7-mcp\"],"
    "\"env\":{\"LOG_LEVEL\":\"debug\",\"CONTEXT7_API_KEY\":\"${CONTEXT7_API_KEY}\"},"
    "\"timeout\":20000,\"toolTimeout\":60500}", "" },
  { MCP_CLIENT_KIND_CODEX, "codex-config.toml", MCP_JSON_DIALECT_TOML, "mcp_servers", NULL, "figma",
    "{\"type\":\"http\",\"url\":\"https://mcp.figma.com/mcp\","
    "\"headers\":{\"X-Region\":\"eu\",\"X-Org\":\"${FIGMA_ORG}\",\"Authorization\":\"Bearer ${FIGMA_OAUTH_TOKEN}\"},"
    "\"enabled_tools\":[\"get_code\",\"get_image\"]}",
    "enabled_tools: kept, not used by Plugboard" },

  /* Goose: YAML */
  { MCP_CLIENT_KIND_GOOSE, "goose-config.yaml", MCP_JSON_DIALECT_YAML, "extensions", NULL, "developer",
    NULL, "of the type “builtin”" },
  { MCP_CLIENT_KIND_GOOSE, "goose-config.yaml", MCP_JSON_DIALECT_YAML, "extensions", NULL, "github",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-github\"],"
    "\"env\":{\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"${GITHUB_PERSONAL_ACCESS_TOKEN}\"},"
    "\"enabled\":true,\"toolTimeout\":300000,\"description\":\"GitHub's API\"}",
    "description: kept, not used by Plugboard" },
  { MCP_CLIENT_KIND_GOOSE, "goose-config.yaml", MCP_JSON_DIALECT_YAML, "extensions", NULL, "tavily",
    "{\"type\":\"http\",\"url\":\"https://mcp.tavily.com/mcp\","
    "\"headers\":{\"Authorization\":\"Bearer tvly-secret\"},\"enabled\":false}", "" },

  /* Zed */
  { MCP_CLIENT_KIND_ZED, "zed-settings.json", MCP_JSON_DIALECT_JSONC, "context_servers", NULL, "sqlite",
    "{\"command\":\"uvx\",\"args\":[\"mcp-server-sqlite\",\"--db-path\",\"/home/ada/shop.db\"],\"env\":{}}", "" },
  { MCP_CLIENT_KIND_ZED, "zed-settings.json", MCP_JSON_DIALECT_JSONC, "context_servers", NULL, "old-style",
    "{\"command\":\"/usr/local/bin/old-server\",\"args\":[\"--stdio\"],"
    "\"env\":{\"OLD_TOKEN\":\"t0ps3cret\"},\"settings\":{}}",
    "settings: kept, not used by Plugboard" },
  { MCP_CLIENT_KIND_ZED, "zed-settings.json", MCP_JSON_DIALECT_JSONC, "context_servers", NULL, "remote",
    "{\"type\":\"http\",\"url\":\"https://mcp.example.com/mcp\","
    "\"headers\":{\"Authorization\":\"Bearer abc123\"}}", "" },
  { MCP_CLIENT_KIND_ZED, "zed-settings.json", MCP_JSON_DIALECT_JSONC, "context_servers", NULL,
    "mcp-server-github", NULL, "comes from a Zed extension" },
};

static void
convert_read_case (const ReadCase *c,
                   JsonNode       *root)
{
  JsonObject *servers = lookup (root, c->container);
  JsonObject *native = json_object_get_object_member (servers, c->name);
  JsonArray *inputs = NULL;
  McpClientShapeContext context = { HOME, PROJECT, NULL, NULL };
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *notes_got = NULL;

  g_test_message ("%s: %s", c->fixture, c->name);
  g_assert_nonnull (native);
  if (c->inputs != NULL)
    {
      JsonObject *holder = c->inputs[0] == '\0' ? json_node_get_object (root) : lookup (root, c->inputs);

      inputs = json_object_get_array_member (holder, "inputs");
    }
  context.inputs = inputs;

  entry = mcp_client_shape_to_plugboard (c->kind, c->name, native, &context, notes, &error);
  if (c->plugboard == NULL)
    {
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
      g_assert_nonnull (strstr (error->message, c->notes));
      g_assert_nonnull (strstr (error->message, c->name));
      return;
    }
  g_assert_no_error (error);
  assert_json_equal (entry, c->plugboard);
  notes_got = notes_text (notes);
  g_assert_cmpstr (notes_got, ==, c->notes);

  /* back into the same file: the very entry it was (order, spelling of
   * variables, members Plugboard does not use) */
  {
    g_autoptr(JsonObject) back = NULL;
    g_autofree char *want = object_text (native);
    g_autofree char *got = NULL;

    back = mcp_client_shape_from_plugboard (c->kind, c->name, entry, native, &context, NULL, &error);
    g_assert_no_error (error);
    got = object_text (back);
    g_assert_cmpstr (got, ==, want);
  }

  /* as a new entry and read again: the same in Plugboard's shape */
  {
    g_autoptr(JsonObject) fresh = NULL;
    g_autoptr(JsonObject) again = NULL;
    g_autofree char *want = object_text (entry);

    fresh = mcp_client_shape_from_plugboard (c->kind, c->name, entry, NULL, &context, NULL, &error);
    g_assert_no_error (error);
    again = mcp_client_shape_to_plugboard (c->kind, c->name, fresh, &context, NULL, &error);
    g_assert_no_error (error);
    assert_json_equal (again, want);
  }
}

static void
test_fixtures (void)
{
  /* each fixture's servers, all of them covered */
  for (guint i = 0; i < G_N_ELEMENTS (read_cases); i++)
    {
      const ReadCase *c = &read_cases[i];
      g_autoptr(JsonNode) root = load_fixture (c->fixture, c->dialect);
      JsonObject *servers = lookup (root, c->container);
      guint covered = 0;

      for (guint j = 0; j < G_N_ELEMENTS (read_cases); j++)
        {
          if (g_str_equal (read_cases[j].fixture, c->fixture) &&
              g_str_equal (read_cases[j].container, c->container))
            covered++;
        }
      g_assert_cmpuint (covered, ==, json_object_get_size (servers));

      convert_read_case (c, root);
    }
}

/* ------------------------------------------------------------------------ */
/* From one client to another                                               */

typedef struct
{
  McpClientKind  to;
  const char    *name;
  const char    *entry;     /* Plugboard's shape */
  const char    *native;    /* expected; NULL: an error */
  const char    *notes;     /* expected notes; or the error's words */
  const char    *inputs;    /* VS Code: the inputs added; NULL: no new_inputs */
} CopyCase;

static const CopyCase copy_cases[] = {
  /* a literal secret becomes an input VS Code asks for */
  { MCP_CLIENT_KIND_VSCODE, "github",
    "{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-github\"],"
    "\"env\":{\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"ghp_16C7e42F292c6912E7710c838347Ae178B4a\",\"DEBUG\":\"1\"}}",
    "{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-github\"],"
    "\"env\":{\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"${input:github-github-personal-access-token}\",\"DEBUG\":\"1\"}}",
    "GITHUB_PERSONAL_ACCESS_TOKEN: VS Code asks for it (“${input:github-github-personal-access-token}”) "
    "when it starts the server",
    "[{\"type\":\"promptString\",\"id\":\"github-github-personal-access-token\","
    "\"description\":\"github: GITHUB_PERSONAL_ACCESS_TOKEN\",\"password\":true}]" },
  { MCP_CLIENT_KIND_VSCODE, "context7",
    "{\"type\":\"http\",\"url\":\"https://mcp.context7.com/mcp\",\"headers\":{\"Authorization\":\"Bearer ctx7sk-1\"}}",
    "{\"type\":\"http\",\"url\":\"https://mcp.context7.com/mcp\","
    "\"headers\":{\"Authorization\":\"Bearer ${input:context7-authorization}\"}}",
    "Authorization: VS Code asks for it (“${input:context7-authorization}”) when it starts the server",
    "[{\"type\":\"promptString\",\"id\":\"context7-authorization\","
    "\"description\":\"context7: Authorization\",\"password\":true}]" },
  /* a variable stays one: no input */
  { MCP_CLIENT_KIND_VSCODE, "linear",
    "{\"type\":\"http\",\"url\":\"https://mcp.linear.app/mcp\",\"headers\":{\"Authorization\":\"Bearer ${LINEAR_API_KEY}\"},"
    "\"toolTimeout\":30000}",
    "{\"type\":\"http\",\"url\":\"https://mcp.linear.app/mcp\",\"headers\":{\"Authorization\":\"Bearer ${env:LINEAR_API_KEY}\"}}",
    "toolTimeout: VS Code has no such setting; left out", "[]" },
  /* a secret written as it is when the caller wants no inputs */
  { MCP_CLIENT_KIND_VSCODE, "weather",
    "{\"command\":\"uv\",\"env\":{\"OPENWEATHER_API_KEY\":\"0123\"}}",
    "{\"command\":\"uv\",\"env\":{\"OPENWEATHER_API_KEY\":\"0123\"}}", "", NULL },
  { MCP_CLIENT_KIND_CLAUDE_DESKTOP, "linear",
    "{\"type\":\"http\",\"url\":\"https://mcp.linear.app/mcp\"}", NULL,
    "Claude Desktop cannot run the server “linear”: it starts only local (stdio) servers", NULL },
  { MCP_CLIENT_KIND_CLAUDE_DESKTOP, "postgres",
    "{\"command\":\"npx\",\"args\":[\"postgresql://localhost/${DB_NAME:-shop}\"],\"cwd\":\"/srv\"}",
    "{\"command\":\"npx\",\"args\":[\"postgresql://localhost/${DB_NAME:-shop}\"]}",
    "“${DB_NAME:-shop}”: Claude Desktop does not expand it; it is written as it is\n"
    "cwd: Claude Desktop has no such setting; left out", NULL },
  { MCP_CLIENT_KIND_CURSOR, "postgres",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"postgresql://localhost/${DB_NAME:-shop}\"]}",
    "{\"command\":\"npx\",\"args\":[\"-y\",\"postgresql://localhost/${env:DB_NAME}\"]}",
    "“${DB_NAME:-shop}”: Cursor has no default values for variables; the default is left out", NULL },
  { MCP_CLIENT_KIND_CURSOR, "pythonTools",
    "{\"command\":\"python\",\"env\":{\"DATABASE_URL\":\"${DB}\"},\"cwd\":\"./py\",\"toolTimeout\":15000,"
    "\"trust\":true,\"enabled\":false}",
    "{\"command\":\"python\",\"env\":{\"DATABASE_URL\":\"${env:DB}\"}}",
    "cwd: Cursor has no such setting; left out\ntoolTimeout: Cursor has no such setting; left out\n"
    "enabled: Cursor has no such setting; left out\ntrust: Cursor has no such setting; left out", NULL },
  { MCP_CLIENT_KIND_CURSOR, "live", "{\"type\":\"ws\",\"url\":\"wss://example.com/mcp\"}", NULL,
    "Cursor cannot run the server “live”: it does not connect to servers by WebSocket", NULL },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "live", "{\"type\":\"ws\",\"url\":\"wss://example.com/mcp\"}",
    "{\"type\":\"ws\",\"url\":\"wss://example.com/mcp\"}", "", NULL },
  { MCP_CLIENT_KIND_CLAUDE_CODE, "httpServer",
    "{\"type\":\"http\",\"url\":\"http://localhost:3000/mcp\",\"headers\":{\"Authorization\":\"Bearer ${API_TOKEN}\"},"
    "\"trust\":true}",
    "{\"type\":\"http\",\"url\":\"http://localhost:3000/mcp\",\"headers\":{\"Authorization\":\"Bearer ${API_TOKEN}\"}}",
    "trust: Claude Code has no such setting; left out", NULL },
  { MCP_CLIENT_KIND_GEMINI, "tools",
    "{\"type\":\"http\",\"url\":\"http://localhost:3000/mcp\",\"timeout\":5000,\"toolTimeout\":9000,"
    "\"oauth\":{\"clientId\":\"abc\",\"callbackPort\":8976}}",
    "{\"httpUrl\":\"http://localhost:3000/mcp\",\"timeout\":9000,\"oauth\":{\"clientId\":\"abc\"}}",
    "timeout: Gemini CLI has no such setting; left out\noauth.callbackPort: Gemini CLI has no such setting; left out",
    NULL },
  { MCP_CLIENT_KIND_WINDSURF, "remote",
    "{\"type\":\"sse\",\"url\":\"https://x.example/sse\",\"headers\":{\"X-Key\":\"${KEY}\"},\"enabled\":false}",
    "{\"serverUrl\":\"https://x.example/sse\",\"headers\":{\"X-Key\":\"${env:KEY}\"},\"disabled\":true}", "", NULL },
  { MCP_CLIENT_KIND_CODEX, "srv",
    "{\"command\":\"srv\",\"env\":{\"GH\":\"${GH}\",\"X\":\"${Y}\"},\"timeout\":30000,\"toolTimeout\":120000,"
    "\"enabled\":false}",
    "{\"command\":\"srv\",\"env_vars\":[\"GH\"],\"env\":{\"X\":\"${Y}\"},\"startup_timeout_sec\":30,"
    "\"tool_timeout_sec\":120,\"enabled\":false}",
    "“${Y}”: Codex does not expand it; it is written as it is", NULL },
  { MCP_CLIENT_KIND_CODEX, "remote",
    "{\"type\":\"http\",\"url\":\"https://x.example/mcp\",\"headers\":{\"Authorization\":\"Bearer ${TOKEN}\","
    "\"X-Org\":\"${ORG}\",\"X-Plain\":\"v\"}}",
    "{\"url\":\"https://x.example/mcp\",\"bearer_token_env_var\":\"TOKEN\",\"env_http_headers\":{\"X-Org\":\"ORG\"},"
    "\"http_headers\":{\"X-Plain\":\"v\"}}", "", NULL },
  { MCP_CLIENT_KIND_CODEX, "events", "{\"type\":\"sse\",\"url\":\"https://x.example/sse\"}", NULL,
    "Codex cannot run the server “events”: it connects to remote servers by Streamable HTTP only", NULL },
  { MCP_CLIENT_KIND_GOOSE, "srv",
    "{\"command\":\"srv\",\"env\":{\"GH\":\"${GH}\"},\"cwd\":\"/tmp\",\"toolTimeout\":1500}",
    "{\"name\":\"srv\",\"type\":\"stdio\",\"cmd\":\"srv\",\"args\":[],\"envs\":{},\"env_keys\":[\"GH\"],"
    "\"enabled\":true,\"timeout\":2}",
    "cwd: Goose has no such setting; left out", NULL },
  { MCP_CLIENT_KIND_ZED, "srv",
    "{\"command\":\"srv\",\"args\":[\"--x\"],\"env\":{\"A\":\"${A}\"}}",
    "{\"source\":\"custom\",\"command\":\"srv\",\"args\":[\"--x\"],\"env\":{\"A\":\"${A}\"}}",
    "“${A}”: Zed does not expand it; it is written as it is", NULL },
  { MCP_CLIENT_KIND_VSCODE, "ide", "{\"type\":\"sse-ide\",\"url\":\"http://127.0.0.1:1/sse\",\"ideName\":\"x\"}",
    NULL, "it is a connection to an IDE", NULL },
  { MCP_CLIENT_KIND_VSCODE, "nothing", "{\"args\":[\"x\"]}", NULL,
    "The server “nothing” has neither a “command” nor a “url”", NULL },
};

static void
test_between_clients (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (copy_cases); i++)
    {
      const CopyCase *c = &copy_cases[i];
      g_autoptr(JsonNode) entry = test_json_parse (c->entry);
      g_autoptr(JsonArray) new_inputs = json_array_new ();
      McpClientShapeContext context = { HOME, PROJECT, NULL, c->inputs != NULL ? new_inputs : NULL };
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) native = NULL;
      g_autofree char *notes_got = NULL;

      g_test_message ("%s → %s", c->name, mcp_client_kind_to_id (c->to));
      native = mcp_client_shape_from_plugboard (c->to, c->name, json_node_get_object (entry), NULL,
                                                &context, notes, &error);
      if (c->native == NULL)
        {
          g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
          g_assert_nonnull (strstr (error->message, c->notes));
          continue;
        }
      g_assert_no_error (error);
      {
        g_autofree char *got = object_text (native);

        g_assert_cmpstr (got, ==, c->native);
      }
      notes_got = notes_text (notes);
      g_assert_cmpstr (notes_got, ==, c->notes);
      if (c->inputs != NULL)
        {
          g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), new_inputs);
          g_autofree char *got = test_json_text (node);

          g_assert_cmpstr (got, ==, c->inputs);
        }
    }
}

/* An input whose id the file has already gets another id; one the entry
 * uses that the target file lacks is added. */
static void
test_vscode_inputs (void)
{
  g_autoptr(JsonNode) entry = test_json_parse ("{\"command\":\"x\",\"env\":{\"API_KEY\":\"k\","
                                               "\"OTHER\":\"${input:shared}\"}}");
  g_autoptr(JsonNode) file_inputs = test_json_parse ("[{\"type\":\"promptString\",\"id\":\"s-api-key\"}]");
  g_autoptr(JsonArray) new_inputs = json_array_new ();
  McpClientShapeContext context = { HOME, NULL, json_node_get_array (file_inputs), new_inputs };
  g_autoptr(JsonNode) added = NULL;
  g_autoptr(JsonObject) native = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  native = mcp_client_shape_from_plugboard (MCP_CLIENT_KIND_VSCODE, "s", json_node_get_object (entry), NULL,
                                            &context, NULL, &error);
  g_assert_no_error (error);
  text = object_text (native);
  g_assert_cmpstr (text, ==, "{\"command\":\"x\",\"env\":{\"API_KEY\":\"${input:s-api-key-2}\","
                             "\"OTHER\":\"${input:shared}\"}}");
  added = json_node_init_array (json_node_alloc (), new_inputs);
  g_clear_pointer (&text, g_free);
  text = test_json_text (added);
  g_assert_cmpstr (text, ==, "[{\"type\":\"promptString\",\"id\":\"s-api-key-2\",\"description\":\"s: API_KEY\","
                             "\"password\":true},{\"type\":\"promptString\",\"id\":\"shared\","
                             "\"description\":\"shared\",\"password\":true}]");
}

/* The entry already in the target keeps what the shape does not map */
static void
test_base_kept (void)
{
  g_autoptr(JsonNode) base = test_json_parse ("{\"command\":\"npx\",\"x-team\":\"core\",\"args\":[\"a\"],"
                                              "\"envFile\":\"/e\"}");
  g_autoptr(JsonNode) entry = test_json_parse ("{\"type\":\"http\",\"url\":\"https://x.example/mcp\"}");
  g_autoptr(JsonObject) native = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  native = mcp_client_shape_from_plugboard (MCP_CLIENT_KIND_CURSOR, "n", json_node_get_object (entry),
                                            json_node_get_object (base), NULL, NULL, &error);
  g_assert_no_error (error);
  text = object_text (native);
  /* command and args are gone (now remote); x-team and envFile stay */
  g_assert_cmpstr (text, ==, "{\"x-team\":\"core\",\"envFile\":\"/e\",\"url\":\"https://x.example/mcp\"}");
}

/* ------------------------------------------------------------------------ */
/* Files and ids                                                            */

static void
test_files (void)
{
  static const struct
  {
    McpClientKind  kind;
    const char    *files;
  } cases[] = {
    { MCP_CLIENT_KIND_PLUGBOARD,
      "0 C/plugboard/settings.json mcpServers\n1 P/.mcp.json mcpServers\n"
      "2 C/plugboard/settings.json projects|P|mcpServers" },
    { MCP_CLIENT_KIND_CLAUDE_CODE,
      "0 H/.claude.json mcpServers\n1 P/.mcp.json mcpServers\n2 H/.claude.json projects|P|mcpServers" },
    { MCP_CLIENT_KIND_CLAUDE_DESKTOP, "0 C/Claude/claude_desktop_config.json mcpServers" },
    { MCP_CLIENT_KIND_VSCODE, "0 C/Code/User/settings.json mcp|servers\n1 P/.vscode/mcp.json servers" },
    { MCP_CLIENT_KIND_CURSOR, "0 H/.cursor/mcp.json mcpServers\n1 P/.cursor/mcp.json mcpServers" },
    { MCP_CLIENT_KIND_WINDSURF, "0 H/.codeium/windsurf/mcp_config.json mcpServers" },
    { MCP_CLIENT_KIND_GEMINI, "0 H/.gemini/settings.json mcpServers\n1 P/.gemini/settings.json mcpServers" },
    { MCP_CLIENT_KIND_CODEX, "0 H/.codex/config.toml mcp_servers" },
    { MCP_CLIENT_KIND_ZED, "0 C/zed/settings.json context_servers\n1 P/.zed/settings.json context_servers" },
    { MCP_CLIENT_KIND_GOOSE, "0 C/goose/config.yaml extensions" },
  };
  g_autofree char *root = g_dir_make_tmp ("plugboard-shape-XXXXXX", NULL);
  g_autofree char *home = g_build_filename (root, "home", NULL);
  g_autofree char *config = g_build_filename (root, "config", NULL);
  g_autofree char *project = g_build_filename (root, "project", NULL);
  g_autofree char *vscode_mcp = g_build_filename (config, "Code", "User", "mcp.json", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) files = mcp_client_kind_dup_files (cases[i].kind, home, config, NULL, project);
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint j = 0; j < files->len; j++)
        {
          McpClientFile *file = g_ptr_array_index (files, j);
          g_autofree char *container = g_strjoinv ("|", file->container);
          g_autofree char *path = NULL;
          GString *shown = g_string_new (file->path);

          g_assert_cmpint (file->kind, ==, cases[i].kind);
          g_string_replace (shown, project, "P", 0);
          g_string_replace (shown, config, "C", 0);
          g_string_replace (shown, home, "H", 0);
          path = g_string_free (shown, FALSE);
          g_string_append_printf (text, "%s%d %s %s", j > 0 ? "\n" : "", file->scope, path, container);
        }
      {
        GString *shown = g_string_new (text->str);
        g_autofree char *got = NULL;

        g_string_replace (shown, project, "P", 0);
        got = g_string_free (shown, FALSE);
        g_assert_cmpstr (got, ==, cases[i].files);
      }

      /* without a project: the user file only */
      {
        g_autoptr(GPtrArray) user = mcp_client_kind_dup_files (cases[i].kind, home, config, NULL, NULL);

        g_assert_cmpuint (user->len, ==, 1);
        g_assert_cmpint (((McpClientFile *) user->pdata[0])->scope, ==, MCP_CONFIG_SCOPE_USER);
      }
    }

  /* VS Code's own mcp.json, once it is there */
  test_write_file (vscode_mcp, "{}");
  {
    g_autoptr(GPtrArray) files = mcp_client_kind_dup_files (MCP_CLIENT_KIND_VSCODE, home, config, NULL, NULL);
    McpClientFile *file = files->pdata[0];
    g_autofree char *container = g_strjoinv ("|", file->container);

    g_assert_cmpstr (file->path, ==, vscode_mcp);
    g_assert_cmpstr (container, ==, "servers");
    g_assert_cmpint (file->dialect, ==, MCP_JSON_DIALECT_JSONC);
  }

  /* present: a file, or the folder the client made */
  g_assert_true (mcp_client_kind_is_present (MCP_CLIENT_KIND_PLUGBOARD, home, config));
  g_assert_true (mcp_client_kind_is_present (MCP_CLIENT_KIND_VSCODE, home, config));
  g_assert_false (mcp_client_kind_is_present (MCP_CLIENT_KIND_CURSOR, home, config));
  g_assert_false (mcp_client_kind_is_present (MCP_CLIENT_KIND_CLAUDE_CODE, home, config));
  {
    g_autofree char *cursor = g_build_filename (home, ".cursor", NULL);
    g_autofree char *claude = g_build_filename (home, ".claude.json", NULL);

    g_assert_cmpint (g_mkdir_with_parents (cursor, 0700), ==, 0);
    test_write_file (claude, "{}");
    g_assert_true (mcp_client_kind_is_present (MCP_CLIENT_KIND_CURSOR, home, config));
    g_assert_true (mcp_client_kind_is_present (MCP_CLIENT_KIND_CLAUDE_CODE, home, config));
  }

  test_remove_tree (root);
}

static void
test_ids (void)
{
  McpClientKind kind;

  for (guint i = 0; i < MCP_CLIENT_KIND_COUNT; i++)
    {
      g_assert_true (mcp_client_kind_from_id (mcp_client_kind_to_id (i), &kind));
      g_assert_cmpint (kind, ==, i);
      g_assert_nonnull (strstr (mcp_client_kind_list_ids (), mcp_client_kind_to_id (i)));
    }
  g_assert_false (mcp_client_kind_from_id ("emacs", &kind));
  g_assert_false (mcp_client_kind_from_id (NULL, &kind));
  g_assert_cmpstr (mcp_client_kind_get_display_name (MCP_CLIENT_KIND_GEMINI), ==, "Gemini CLI");
}

/* Hostile input: not a server, wrong types, no crash */
static void
test_not_servers (void)
{
  static const struct
  {
    McpClientKind  kind;
    const char    *native;
  } cases[] = {
    { MCP_CLIENT_KIND_CURSOR, "{\"foo\":1}" },
    { MCP_CLIENT_KIND_CLAUDE_CODE, "{\"command\":42}" },
    { MCP_CLIENT_KIND_CLAUDE_CODE, "{\"type\":\"carrier-pigeon\",\"url\":\"x\"}" },
    { MCP_CLIENT_KIND_GEMINI, "{\"timeout\":\"soon\"}" },
    { MCP_CLIENT_KIND_CODEX, "{\"env_vars\":[1,null,{}],\"startup_timeout_sec\":-5}" },
    { MCP_CLIENT_KIND_GOOSE, "{\"type\":\"stdio\"}" },
    { MCP_CLIENT_KIND_ZED, "{\"command\":{\"path\":[]}}" },
    { MCP_CLIENT_KIND_VSCODE, "{\"command\":\"${\",\"args\":[\"${env:\",\"${}\",\"$\"]}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) native = test_json_parse (cases[i].native);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) entry = NULL;

      entry = mcp_client_shape_to_plugboard (cases[i].kind, "bad", json_node_get_object (native), NULL, NULL,
                                             &error);
      if (entry == NULL)
        {
          g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
          g_assert_nonnull (strstr (error->message, "bad"));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/client-shape/ids", test_ids);
  g_test_add_func ("/client-shape/files", test_files);
  g_test_add_func ("/client-shape/fixtures", test_fixtures);
  g_test_add_func ("/client-shape/between-clients", test_between_clients);
  g_test_add_func ("/client-shape/vscode-inputs", test_vscode_inputs);
  g_test_add_func ("/client-shape/base-kept", test_base_kept);
  g_test_add_func ("/client-shape/not-servers", test_not_servers);

  return g_test_run ();
}
