/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-registry-server"

/* McpRegistryServer (issue 26): every document of tests/data/registry read
 * into its choices and inputs, the settings entry of every runner, and
 * hostile documents refused with the JSON path of what is wrong. */

#include "config.h"

#include <string.h>

#include "mcp-registry.h"
#include "test-json.h"
#include "test-util.h"

static void
assert_json_equal (const char *actual,
                   const char *expected)
{
  g_autoptr(JsonNode) a = test_json_parse (actual);
  g_autoptr(JsonNode) b = test_json_parse (expected);

  if (!json_node_equal (a, b))
    g_error ("got %s\nexpected %s", actual, expected);
}

static McpRegistryServer *
load (const char *file)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "registry", file, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  McpRegistryServer *server;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  server = mcp_registry_server_new_from_json (json_node_get_object (json_parser_get_root (parser)), &error);
  g_assert_no_error (error);
  g_assert_nonnull (server);
  return server;
}

static McpRegistryChoice *
choice_at (McpRegistryServer *server,
           guint              index)
{
  GPtrArray *choices = mcp_registry_server_get_choices (server);

  g_assert_cmpuint (index, <, choices->len);
  return g_ptr_array_index (choices, index);
}

static McpRegistryInput *
input_named (McpRegistryChoice *choice,
             const char        *name)
{
  for (guint i = 0; i < choice->inputs->len; i++)
    {
      McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);

      if (g_strcmp0 (input->name, name) == 0)
        return input;
    }
  g_error ("no input “%s” in %s", name, choice->label);
  return NULL;
}

static char *
entry_text (McpRegistryServer *server,
            McpRegistryChoice *choice,
            GHashTable        *values,
            GHashTable        *secret_refs)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) node = NULL;

  entry = mcp_registry_server_build_entry (server, choice, values, secret_refs, &error);
  g_assert_no_error (error);
  node = json_node_init_object (json_node_alloc (), entry);
  return json_to_string (node, FALSE);
}

static GHashTable *
table (const char *first,
       ...)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_list args;

  va_start (args, first);
  for (const char *key = first; key != NULL; key = va_arg (args, const char *))
    g_hash_table_insert (values, g_strdup (key), g_strdup (va_arg (args, const char *)));
  va_end (args);
  return values;
}

static void
test_npm (void)
{
  g_autoptr(McpRegistryServer) server = load ("everything.json");
  g_autoptr(GHashTable) values = table ("EVERYTHING_API_KEY", "sk-very-secret", NULL);
  g_autoptr(GHashTable) refs = table ("EVERYTHING_API_KEY", "${secret:everything.EVERYTHING_API_KEY}", NULL);
  g_autofree char *with_ref = NULL;
  g_autofree char *with_value = NULL;
  g_autofree char *name = mcp_registry_server_dup_entry_name (server);
  McpRegistryChoice *choice;
  McpRegistryInput *key, *level;

  g_assert_cmpstr (mcp_registry_server_get_name (server), ==, "io.github.modelcontextprotocol/server-everything");
  g_assert_cmpstr (mcp_registry_server_get_website_url (server), ==,
                   "https://github.com/modelcontextprotocol/servers/tree/main/src/everything");
  g_assert_cmpstr (mcp_registry_server_get_repository_url (server), ==,
                   "https://github.com/modelcontextprotocol/servers");
  g_assert_cmpstr (mcp_registry_server_get_status (server), ==, "active");
  g_assert_cmpstr (name, ==, "server-everything");

  choice = choice_at (server, 0);
  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_NPX);
  g_assert_cmpstr (choice->identifier, ==, "@modelcontextprotocol/server-everything");
  g_assert_cmpstr (choice->version, ==, "2026.8.31");
  g_assert_cmpstr (choice->transport, ==, "stdio");
  g_assert_cmpstr (choice->label, ==, "npm: @modelcontextprotocol/server-everything 2026.8.31 (npx)");
  g_assert_cmpuint (choice->inputs->len, ==, 3);

  /* server.json order: the fixed argument, then the environment */
  g_assert_cmpint (((McpRegistryInput *) g_ptr_array_index (choice->inputs, 0))->kind, ==,
                   MCP_REGISTRY_INPUT_ARGUMENT);
  g_assert_true (((McpRegistryInput *) g_ptr_array_index (choice->inputs, 0))->fixed);
  key = input_named (choice, "EVERYTHING_API_KEY");
  g_assert_cmpint (key->kind, ==, MCP_REGISTRY_INPUT_ENV);
  g_assert_true (key->is_secret);
  g_assert_true (key->is_required);
  level = input_named (choice, "EVERYTHING_LOG_LEVEL");
  g_assert_cmpstr (level->default_value, ==, "info");
  g_assert_cmpuint (g_strv_length (level->choices), ==, 3);

  /* The secret as a reference; the default filled in */
  with_ref = entry_text (server, choice, values, refs);
  assert_json_equal (with_ref,
    "{\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-everything@2026.8.31\", \"stdio\"],"
    " \"env\": {\"EVERYTHING_API_KEY\": \"${secret:everything.EVERYTHING_API_KEY}\","
    " \"EVERYTHING_LOG_LEVEL\": \"info\"}}");
  g_assert_null (strstr (with_ref, "sk-very-secret"));

  /* A client that keeps secrets in its file gets the value */
  with_value = entry_text (server, choice, values, NULL);
  g_assert_nonnull (strstr (with_value, "\"EVERYTHING_API_KEY\":\"sk-very-secret\""));
}

static void
test_pypi (void)
{
  g_autoptr(McpRegistryServer) server = load ("pypi-time.json");
  g_autoptr(GHashTable) values = table ("--local-timezone", "Europe/Berlin", NULL);
  g_autofree char *defaulted = NULL;
  g_autofree char *given = NULL;
  McpRegistryChoice *choice = choice_at (server, 0);

  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_UVX);
  g_assert_cmpstr (choice->label, ==, "pypi: mcp-server-time 0.6.2 (uvx)");
  defaulted = entry_text (server, choice, NULL, NULL);
  assert_json_equal (defaulted,
    "{\"command\": \"uvx\", \"args\": [\"mcp-server-time==0.6.2\", \"--local-timezone\", \"UTC\"]}");
  given = entry_text (server, choice, values, NULL);
  assert_json_equal (given,
    "{\"command\": \"uvx\", \"args\": [\"mcp-server-time==0.6.2\", \"--local-timezone\", \"Europe/Berlin\"]}");
}

static void
test_oci (void)
{
  g_autoptr(McpRegistryServer) server = load ("oci-github.json");
  g_autoptr(GHashTable) values = table ("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_x", NULL);
  g_autoptr(GHashTable) refs = table ("GITHUB_PERSONAL_ACCESS_TOKEN", "${secret:github.TOKEN}", NULL);
  g_autofree char *text = NULL;
  McpRegistryChoice *choice = choice_at (server, 0);

  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_DOCKER);
  g_assert_cmpint (input_named (choice, "--network")->kind, ==, MCP_REGISTRY_INPUT_RUNTIME_ARGUMENT);
  text = entry_text (server, choice, values, refs);
  /* The image keeps its own tag; docker passes on the variables it is told */
  assert_json_equal (text,
    "{\"command\": \"docker\", \"args\": [\"run\", \"-i\", \"--rm\", \"--network\", \"host\","
    " \"-e\", \"GITHUB_PERSONAL_ACCESS_TOKEN\", \"-e\", \"GITHUB_TOOLSETS\","
    " \"ghcr.io/github/github-mcp-server:0.20.1\"],"
    " \"env\": {\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"${secret:github.TOKEN}\","
    " \"GITHUB_TOOLSETS\": \"repos,issues\"}}");
}

static void
test_nuget (void)
{
  g_autoptr(McpRegistryServer) server = load ("nuget-weather.json");
  g_autoptr(GHashTable) bad = table ("WEATHER_UNITS", "kelvin", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *text = NULL;
  g_autofree char *name = mcp_registry_server_dup_entry_name (server);
  McpRegistryChoice *choice = choice_at (server, 0);

  g_assert_cmpstr (name, ==, "weather");
  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_DNX);
  text = entry_text (server, choice, NULL, NULL);
  assert_json_equal (text,
    "{\"command\": \"dnx\", \"args\": [\"Contoso.Weather.Mcp@1.4.0\", \"--yes\"],"
    " \"env\": {\"WEATHER_UNITS\": \"metric\"}}");

  /* A value that is not one of the choices */
  entry = mcp_registry_server_build_entry (server, choice, bad, NULL, &error);
  g_assert_null (entry);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "kelvin"));
  g_assert_nonnull (strstr (error->message, "WEATHER_UNITS"));
  g_assert_nonnull (strstr (error->message, "metric, imperial"));
}

static void
test_mcpb (void)
{
  g_autoptr(McpRegistryServer) server = load ("mcpb-notes.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  McpRegistryChoice *choice = choice_at (server, 0);

  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_MCPB);
  entry = mcp_registry_server_build_entry (server, choice, NULL, NULL, &error);
  g_assert_null (entry);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message,
                            "https://github.com/example/notes/releases/download/v2.1.0/notes.mcpb"));
}

static void
test_remote (void)
{
  g_autoptr(McpRegistryServer) server = load ("remote-forecast.json");
  g_autoptr(GHashTable) values = table ("tenant", "acme", "X-API-Key", "fk-123", NULL);
  g_autoptr(GHashTable) refs = table ("X-API-Key", "${secret:forecast-api.X-API-Key}", NULL);
  g_autoptr(GHashTable) hostile = table ("tenant", "evil.example.com/x?", "X-API-Key", "k", NULL);
  g_autoptr(GHashTable) no_key = table ("tenant", "acme", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *text = NULL;
  g_autofree char *sse = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *name = mcp_registry_server_dup_entry_name (server);
  McpRegistryChoice *choice = choice_at (server, 0);

  /* "Forecast API" */
  g_assert_cmpstr (name, ==, "forecast-api");
  g_assert_cmpint (choice->runner, ==, MCP_REGISTRY_RUNNER_REMOTE);
  g_assert_cmpstr (choice->label, ==, "Remote: https://{tenant}.forecast.example.com/mcp (Streamable HTTP)");
  g_assert_cmpint (input_named (choice, "tenant")->kind, ==, MCP_REGISTRY_INPUT_URL_VARIABLE);
  g_assert_cmpint (input_named (choice, "X-API-Key")->kind, ==, MCP_REGISTRY_INPUT_HEADER);

  text = entry_text (server, choice, values, refs);
  assert_json_equal (text,
    "{\"type\": \"http\", \"url\": \"https://acme.forecast.example.com/mcp\","
    " \"headers\": {\"X-API-Key\": \"${secret:forecast-api.X-API-Key}\"}}");

  /* A variable's value stays in its place: escaped */
  escaped = entry_text (server, choice, hostile, NULL);
  g_assert_nonnull (strstr (escaped, "https://evil.example.com%2Fx%3F.forecast.example.com/mcp"));

  /* A required header without a value */
  entry = mcp_registry_server_build_entry (server, choice, no_key, NULL, &error);
  g_assert_null (entry);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“X-API-Key”"));

  sse = entry_text (server, choice_at (server, 1), NULL, NULL);
  assert_json_equal (sse, "{\"type\": \"sse\", \"url\": \"https://sse.forecast.example.com/sse\"}");
}

static void
test_sse (void)
{
  g_autoptr(McpRegistryServer) server = load ("sse-legacy.json");
  g_autoptr(GHashTable) values = table ("Authorization", "Bearer abc", NULL);
  g_autofree char *text = NULL;
  McpRegistryChoice *choice = choice_at (server, 0);

  g_assert_cmpstr (choice->transport, ==, "sse");
  g_assert_cmpstr (choice->label, ==, "Remote: https://legacy.example.com/sse (SSE)");
  text = entry_text (server, choice, values, NULL);
  assert_json_equal (text,
    "{\"type\": \"sse\", \"url\": \"https://legacy.example.com/sse\","
    " \"headers\": {\"Authorization\": \"Bearer abc\"}}");
}

static void
test_arguments (void)
{
  g_autoptr(McpRegistryServer) server = load ("args-database.json");
  g_autoptr(GHashTable) values = table ("database_url", "postgres://db/x", "--mode", "read-write",
                                        "--verbose", "true", "DB_PASSWORD", "hunter2", NULL);
  g_autoptr(GHashTable) refs = table ("DB_PASSWORD", "${secret:database.DB_PASSWORD}", NULL);
  g_autoptr(GHashTable) missing = table ("--mode", "read-only", NULL);
  g_autoptr(GHashTable) not_a_choice = table ("database_url", "x", "DB_PASSWORD", "p", "DB_SSL", "hunter2",
                                              NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *text = NULL;
  McpRegistryChoice *choice = choice_at (server, 0);

  g_assert_cmpstr (input_named (choice, "database_url")->format, ==, "string");
  g_assert_cmpuint (g_strv_length (input_named (choice, "--mode")->choices), ==, 2);

  /* Positional and named in server.json order, a boolean flag alone */
  text = entry_text (server, choice, values, refs);
  assert_json_equal (text,
    "{\"command\": \"npx\", \"args\": [\"-y\", \"@acme/database-mcp@1.2.0\", \"postgres://db/x\","
    " \"--mode\", \"read-write\", \"--verbose\"],"
    " \"env\": {\"DB_PASSWORD\": \"${secret:database.DB_PASSWORD}\", \"DB_SSL\": \"true\"}}");
  g_assert_null (strstr (text, "hunter2"));

  /* The first required input without a value is named */
  entry = mcp_registry_server_build_entry (server, choice, missing, NULL, &error);
  g_assert_null (entry);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“database_url”"));
  g_assert_nonnull (strstr (error->message, "io.github.acme/database"));
  g_clear_error (&error);

  entry = mcp_registry_server_build_entry (server, choice, not_a_choice, NULL, &error);
  g_assert_null (entry);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "DB_SSL"));
}

static void
test_deprecated (void)
{
  g_autoptr(McpRegistryServer) server = load ("deprecated-old.json");

  g_assert_cmpstr (mcp_registry_server_get_status (server), ==, "deprecated");
  g_assert_null (mcp_registry_server_get_title (server));
  g_assert_null (mcp_registry_server_get_website_url (server));
  g_assert_null (mcp_registry_server_get_repository_url (server));
}

static void
expect_error (const char *json,
              const char *message)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpRegistryServer) server = NULL;

  g_assert_nonnull (node);
  server = mcp_registry_server_new_from_json (json_node_get_object (node), &error);
  g_assert_null (server);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  if (strstr (error->message, message) == NULL)
    g_error ("“%s” does not say “%s”", error->message, message);
}

static void
test_hostile (void)
{
  g_autoptr(GString) many = g_string_new ("{\"name\": \"a/b\", \"version\": \"1\", \"remotes\": [");
  g_autoptr(GString) inputs = g_string_new ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{"
                                            "\"registryType\": \"npm\", \"identifier\": \"x\","
                                            " \"transport\": {\"type\": \"stdio\"}, \"environmentVariables\": [");
  g_autoptr(GString) huge = g_string_new ("{\"name\": \"a/b\", \"version\": \"1\", \"description\": \"");

  expect_error ("{}", "name: expected a string");
  expect_error ("{\"name\": 3, \"version\": \"1\"}", "name: expected a string");
  expect_error ("{\"name\": \"a/b\"}", "version: expected a string");
  expect_error ("{\"server\": [], \"_meta\": {}}", "server: expected an object");
  expect_error ("{\"server\": {\"name\": \"a/b\", \"version\": \"1\", \"packages\": {}}}",
                "server.packages: expected an array");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [1]}", "packages[0]: expected an object");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{\"registryType\": \"cargo\","
                " \"identifier\": \"x\", \"transport\": {\"type\": \"stdio\"}}]}",
                "packages[0].registryType: expected “npm”");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{\"registryType\": \"npm\","
                " \"identifier\": \"x\"}]}", "packages[0].transport: expected an object");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{\"registryType\": \"npm\","
                " \"identifier\": \"x\", \"transport\": {\"type\": \"carrier-pigeon\"}}]}",
                "packages[0].transport.type: expected");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{\"registryType\": \"npm\","
                " \"identifier\": \"x\", \"transport\": {\"type\": \"stdio\"},"
                " \"packageArguments\": [{\"type\": \"named\"}]}]}",
                "packages[0].packageArguments[0].name: expected a string");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{\"registryType\": \"npm\","
                " \"identifier\": \"x\", \"transport\": {\"type\": \"stdio\"},"
                " \"environmentVariables\": [{\"name\": \"A\", \"choices\": [\"x\", 2]}]}]}",
                "packages[0].environmentVariables[0].choices[1]: expected a string");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"packages\": [{\"registryType\": \"npm\","
                " \"identifier\": \"x\", \"transport\": {\"type\": \"stdio\"},"
                " \"environmentVariables\": [{\"name\": \"A\", \"isSecret\": \"yes\"}]}]}",
                "packages[0].environmentVariables[0].isSecret: expected true or false");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"remotes\": [{\"type\": \"ws\", \"url\": \"wss://x\"}]}",
                "remotes[0].type: expected");
  expect_error ("{\"name\": \"a/b\", \"version\": \"1\", \"remotes\": [{\"type\": \"sse\", \"url\": \"https://x\","
                " \"variables\": {\"v\": 1}}]}", "remotes[0].variables.v: expected an object");
  expect_error ("{\"server\": {\"name\": \"a/b\", \"version\": \"1\"}, \"_meta\": {"
                "\"io.modelcontextprotocol.registry/official\": {\"status\": false}}}",
                "_meta.io.modelcontextprotocol.registry/official.status: expected a string");

  /* Bounds: choices, inputs, bytes */
  for (guint i = 0; i < 65; i++)
    g_string_append_printf (many, "%s{\"type\": \"sse\", \"url\": \"https://x/%u\"}", i ? "," : "", i);
  g_string_append (many, "]}");
  expect_error (many->str, "more than 64 packages and remotes");
  for (guint i = 0; i < 257; i++)
    g_string_append_printf (inputs, "%s{\"name\": \"V%u\"}", i ? "," : "", i);
  g_string_append (inputs, "]}]}");
  expect_error (inputs->str, "more than 256 inputs");
  while (huge->len < 1100 * 1024)
    g_string_append (huge, "0123456789abcdef0123456789abcdef");
  g_string_append (huge, "\"}");
  expect_error (huge->str, "more than 1024 KiB");
}

static void
test_entry_name (void)
{
  const struct { const char *name; const char *entry; } cases[] = {
    { "io.github.acme/Weather MCP", "weather-mcp" },
    { "io.github.acme/a..b__c", "a-b__c" },
    { "plain", "plain" },
    { "x/÷÷÷", "server" },
    { "x/--Odd--", "odd" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"name\": \"%s\", \"version\": \"1\"}", cases[i].name);
      g_autoptr(JsonNode) node = json_from_string (json, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpRegistryServer) server = mcp_registry_server_new_from_json (json_node_get_object (node), &error);
      g_autofree char *entry = NULL;

      g_assert_no_error (error);
      entry = mcp_registry_server_dup_entry_name (server);
      g_assert_cmpstr (entry, ==, cases[i].entry);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/registry-server/npm", test_npm);
  g_test_add_func ("/registry-server/pypi", test_pypi);
  g_test_add_func ("/registry-server/oci", test_oci);
  g_test_add_func ("/registry-server/nuget", test_nuget);
  g_test_add_func ("/registry-server/mcpb", test_mcpb);
  g_test_add_func ("/registry-server/remote", test_remote);
  g_test_add_func ("/registry-server/sse", test_sse);
  g_test_add_func ("/registry-server/arguments", test_arguments);
  g_test_add_func ("/registry-server/deprecated", test_deprecated);
  g_test_add_func ("/registry-server/hostile", test_hostile);
  g_test_add_func ("/registry-server/entry-name", test_entry_name);

  return g_test_run ();
}
