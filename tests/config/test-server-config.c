/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-config"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-server-config.h"

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

static McpServerConfig *
config_new (const char  *name,
            const char  *json,
            GError     **error)
{
  g_autoptr(JsonObject) object = parse_object (json);
  g_autofree char *path = g_strdup_printf ("$.mcpServers.%s", name);

  return mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER, object,
                                          "/home/me/.config/plugboard/settings.json", path, error);
}

static void
test_stdio_without_type (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) config = NULL;

  config = config_new ("files",
                       "{\"command\":\"npx\",\"args\":[\"-y\",\"server-files\"],"
                       "\"env\":{\"A\":\"1\",\"B\":\"two\"},\"cwd\":\"/tmp\",\"x-unknown\":[1,{\"k\":true}]}",
                       &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_config_get_transport (config), ==, MCP_TRANSPORT_KIND_STDIO);
  g_assert_cmpstr (mcp_server_config_get_transport_name (config), ==, "stdio");
  g_assert_false (mcp_server_config_is_remote (config));
  g_assert_cmpstr (mcp_server_config_get_command (config), ==, "npx");
  g_assert_cmpstrv (mcp_server_config_get_args (config), ((const char *[]) { "-y", "server-files", NULL }));
  g_assert_cmpstrv (mcp_server_config_get_env (config), ((const char *[]) { "A=1", "B=two", NULL }));
  g_assert_cmpstr (mcp_server_config_get_cwd (config), ==, "/tmp");
  g_assert_true (mcp_server_config_get_enabled (config));
  g_assert_cmpuint (mcp_server_config_get_connect_timeout (config), ==, 0);
  g_assert_cmpuint (mcp_server_config_get_tool_timeout (config), ==, 0);
  g_assert_null (mcp_server_config_get_oauth (config));
  g_assert_true (json_object_has_member (mcp_server_config_get_json (config), "x-unknown"));
  g_assert_cmpstr (mcp_server_config_get_json_path (config), ==, "$.mcpServers.files");
  g_clear_object (&config);

  /* Claude Desktop's key: off when either says so */
  config = config_new ("off", "{\"command\":\"x\",\"disabled\":true}", &error);
  g_assert_no_error (error);
  g_assert_false (mcp_server_config_get_enabled (config));
  g_clear_object (&config);
  config = config_new ("on", "{\"command\":\"x\",\"disabled\":false}", &error);
  g_assert_true (mcp_server_config_get_enabled (config));
  g_clear_object (&config);
  config = config_new ("both", "{\"command\":\"x\",\"enabled\":true,\"disabled\":true}", &error);
  g_assert_no_error (error);
  g_assert_false (mcp_server_config_get_enabled (config));
}

static void
test_remote (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) config = NULL;

  config = config_new ("github",
                       "{\"type\":\"http\",\"url\":\"https://api.example.com/mcp\","
                       "\"headers\":{\"Authorization\":\"Bearer x\"},\"enabled\":false,"
                       "\"timeout\":5000,\"toolTimeout\":60000,"
                       "\"oauth\":{\"clientId\":\"abc\",\"callbackPort\":8976,\"scopes\":[\"repo\"]}}",
                       &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_server_config_get_transport (config), ==, MCP_TRANSPORT_KIND_HTTP);
  g_assert_true (mcp_server_config_is_remote (config));
  g_assert_cmpstr (mcp_server_config_get_url (config), ==, "https://api.example.com/mcp");
  g_assert_cmpstrv (mcp_server_config_get_headers (config), ((const char *[]) { "Authorization: Bearer x", NULL }));
  g_assert_false (mcp_server_config_get_enabled (config));
  g_assert_cmpuint (mcp_server_config_get_connect_timeout (config), ==, 5000);
  g_assert_cmpuint (mcp_server_config_get_tool_timeout (config), ==, 60000);
  g_assert_nonnull (mcp_server_config_get_oauth (config));
  g_assert_cmpstr (json_object_get_string_member (mcp_server_config_get_oauth (config), "clientId"), ==, "abc");
}

static void
test_validation_errors (void)
{
  static const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s: expected \"command\" (a local stdio server) or \"type\"" },
    { "{\"type\":\"carrier-pigeon\",\"url\":\"x\"}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.type: expected \"stdio\", \"http\"" },
    { "{\"command\":42}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.command: expected a string, not a number" },
    { "{\"command\":\"\"}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.command: expected a non-empty string" },
    { "{\"command\":\"x\",\"args\":[\"a\",\"b\",3]}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.args[2]: expected a string, not a number" },
    { "{\"command\":\"x\",\"args\":\"a b\"}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.args: expected an array of strings, not a string" },
    { "{\"command\":\"x\",\"env\":{\"TOKEN\":true}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.env.TOKEN: expected a string, not a boolean" },
    { "{\"type\":\"http\"}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.url: expected a string (it is required)" },
    { "{\"type\":\"sse\",\"url\":\"u\",\"headers\":{\"X-Key\":1}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.headers[\"X-Key\"]: expected a string, not a number" },
    { "{\"command\":\"x\",\"enabled\":\"no\"}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.enabled: expected true or false, not a string" },
    { "{\"command\":\"x\",\"disabled\":1}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.disabled: expected true or false, not a number" },
    { "{\"command\":\"x\",\"timeout\":-1}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.timeout: expected a whole number from 0 to" },
    { "{\"command\":\"x\",\"toolTimeout\":1.5}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.toolTimeout: expected a whole number, not a number" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"callbackPort\":70000}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.callbackPort: expected a whole number from 0 to 65535" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":[]}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth: expected an object, not an array" },
    /* The grants (issue 27) */
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"grant\":\"password\"}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.grant: expected “authorization_code”, “client_credentials”" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"clientSecret\":1}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.clientSecret: expected a string, not a number" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"tokenEndpointAuthMethod\":\"mtls\"}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.tokenEndpointAuthMethod: expected “client_secret_basic”" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"signingAlgorithm\":\"HS256\"}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.signingAlgorithm: expected “ES256” or “RS256”" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"privateKey\":[]}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.privateKey: expected a string, not an array" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"assertion\":\"/run/token\"}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.assertion: expected {\"file\": PATH} or {\"env\": VARIABLE}" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"assertion\":{\"command\":[\"x\"]}}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.assertion: expected {\"file\": PATH}" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"assertion\":{\"file\":3}}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.assertion.file: expected a string, not a number" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"idp\":\"https://idp\"}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.idp: expected an object, not a string" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"idp\":{\"issuer\":true}}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.idp.issuer: expected a string, not a boolean" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"idp\":{\"idToken\":{\"command\":[]}}}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.idp.idToken.command: expected the program, then its arguments" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"idp\":{\"idToken\":{\"signIn\":\"yes\"}}}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.idp.idToken.signIn: expected true or false, not a string" },
    { "{\"type\":\"http\",\"url\":\"u\",\"oauth\":{\"dpop\":\"always\"}}", "/home/me/.config/plugboard/settings.json: $.mcpServers.s.oauth.dpop: expected true or false, not a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpServerConfig) config = config_new ("s", cases[i].json, &error);

      g_test_message ("%s", cases[i].json);
      g_assert_null (config);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
      g_assert_true (g_str_has_prefix (error->message, cases[i].message));
    }
}

/* The grant members of "oauth" (issue 27): accepted as written, a
 * ${VAR} where an enum value goes left to the expansion, every string
 * expanded (nested ones too), and the secrets found */
static void
test_oauth_grants (void)
{
  const char *environ[] = { "IDP=https://idp.example", "GRANT=jwt_bearer", "secret:cc=cc-secret-value",
                            "secret:idp=idp-secret-value", "TOKEN_FILE=/run/wif/token", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(McpServerConfig) literal = NULL;
  g_auto(GStrv) secrets = NULL;
  g_auto(GStrv) literal_secrets = NULL;
  JsonObject *oauth;
  JsonObject *idp;

  config = config_new ("s", "{\"type\":\"http\",\"url\":\"https://mcp.example/mcp\",\"oauth\":{"
                       "\"grant\":\"${GRANT}\",\"clientId\":\"c\",\"clientSecret\":\"${secret:cc}\","
                       "\"tokenEndpointAuthMethod\":\"client_secret_post\",\"signingAlgorithm\":\"ES256\","
                       "\"assertion\":{\"file\":\"${TOKEN_FILE}\"},\"dpop\":true,"
                       "\"idp\":{\"issuer\":\"${IDP}\",\"clientId\":\"i\",\"clientSecret\":\"${secret:idp}\","
                       "\"idToken\":{\"command\":[\"get-token\",\"--issuer=${IDP}\"]}}}}", &error);
  g_assert_no_error (error);

  expanded = mcp_server_config_expand (config, environ, &error);
  g_assert_no_error (error);
  oauth = mcp_server_config_get_oauth (expanded);
  g_assert_cmpstr (json_object_get_string_member (oauth, "grant"), ==, "jwt_bearer");
  g_assert_cmpstr (json_object_get_string_member (oauth, "clientSecret"), ==, "cc-secret-value");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (oauth, "assertion"), "file"),
                   ==, "/run/wif/token");
  idp = json_object_get_object_member (oauth, "idp");
  g_assert_cmpstr (json_object_get_string_member (idp, "issuer"), ==, "https://idp.example");
  g_assert_cmpstr (json_object_get_string_member (idp, "clientSecret"), ==, "idp-secret-value");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (
                     json_object_get_object_member (idp, "idToken"), "command"), 1), ==, "--issuer=https://idp.example");
  /* The unexpanded settings keep the references */
  g_assert_cmpstr (json_object_get_string_member (mcp_server_config_get_oauth (config), "clientSecret"),
                   ==, "${secret:cc}");

  secrets = mcp_server_config_dup_secrets (expanded);
  g_assert_true (g_strv_contains ((const char * const *) secrets, "cc-secret-value"));
  g_assert_true (g_strv_contains ((const char * const *) secrets, "idp-secret-value"));

  /* A secret written in the file is accepted, and masked like the others */
  literal = config_new ("s", "{\"type\":\"http\",\"url\":\"https://mcp.example/mcp\",\"oauth\":{"
                        "\"grant\":\"client_credentials\",\"clientId\":\"c\",\"clientSecret\":\"written-secret\","
                        "\"privateKey\":\"-----BEGIN PRIVATE KEY-----\\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\\n-----END PRIVATE KEY-----\\n\"}}",
                        &error);
  g_assert_no_error (error);
  literal_secrets = mcp_server_config_dup_secrets (literal);
  g_assert_true (g_strv_contains ((const char * const *) literal_secrets, "written-secret"));
  g_assert_true (g_strv_contains ((const char * const *) literal_secrets, "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49"));

  /* An unset variable in "oauth" is an error naming where */
  g_clear_object (&expanded);
  expanded = mcp_server_config_expand (config, (const char *[]) { NULL }, &error);
  g_assert_null (expanded);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "$.mcpServers.s.oauth."));
}

static void
test_memo_key (void)
{
  g_autoptr(McpServerConfig) a = config_new ("s", "{\"command\":\"x\",\"env\":{\"B\":\"2\",\"A\":\"1\"},\"args\":[\"1\"]}", NULL);
  g_autoptr(McpServerConfig) b = config_new ("s", "{ \"args\": [\"1\"], \"env\": {\"A\": \"1\", \"B\": \"2\"}, \"command\": \"x\" }", NULL);
  g_autoptr(McpServerConfig) c = config_new ("s", "{\"command\":\"x\",\"env\":{\"A\":\"1\",\"B\":\"3\"},\"args\":[\"1\"]}", NULL);
  g_autoptr(McpServerConfig) d = config_new ("t", "{\"command\":\"x\",\"env\":{\"A\":\"1\",\"B\":\"2\"},\"args\":[\"1\"]}", NULL);
  g_autofree char *ka = mcp_server_config_dup_memo_key (a);
  g_autofree char *kb = mcp_server_config_dup_memo_key (b);
  g_autofree char *kc = mcp_server_config_dup_memo_key (c);
  g_autofree char *kd = mcp_server_config_dup_memo_key (d);

  g_assert_cmpstr (ka, ==, "\"s\":{\"args\":[\"1\"],\"command\":\"x\",\"env\":{\"A\":\"1\",\"B\":\"2\"}}");
  g_assert_cmpstr (ka, ==, kb);
  g_assert_cmpstr (ka, !=, kc);
  g_assert_cmpstr (ka, !=, kd);
}

static void
test_expand (void)
{
  const char *environ[] = { "HOME=/home/me", "TOKEN=secret", "EMPTY=", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(McpServerConfig) remote = NULL;
  g_autoptr(McpServerConfig) remote_expanded = NULL;

  config = config_new ("s",
                       "{\"command\":\"${HOME}/bin/srv\",\"args\":[\"--port=${PORT:-8080}\",\"$HOME\",\"${EMPTY:-fallback}\"],"
                       "\"env\":{\"T\":\"${TOKEN}\"}}", &error);
  g_assert_no_error (error);
  expanded = mcp_server_config_expand (config, environ, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_server_config_get_command (expanded), ==, "/home/me/bin/srv");
  g_assert_cmpstrv (mcp_server_config_get_args (expanded),
                    ((const char *[]) { "--port=8080", "$HOME", "fallback", NULL }));
  g_assert_cmpstrv (mcp_server_config_get_env (expanded), ((const char *[]) { "T=secret", NULL }));
  /* the original keeps the variables as written */
  g_assert_cmpstr (mcp_server_config_get_command (config), ==, "${HOME}/bin/srv");

  remote = config_new ("r", "{\"type\":\"http\",\"url\":\"https://${HOST:-example.com}/mcp\","
                       "\"headers\":{\"Authorization\":\"Bearer ${TOKEN}\"}}", &error);
  g_assert_no_error (error);
  remote_expanded = mcp_server_config_expand (remote, environ, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_server_config_get_url (remote_expanded), ==, "https://example.com/mcp");
  g_assert_cmpstrv (mcp_server_config_get_headers (remote_expanded),
                    ((const char *[]) { "Authorization: Bearer secret", NULL }));

  /* "TOKEN=s" names no variable: not the value of TOKEN after "s" */
  g_clear_object (&config);
  g_clear_object (&expanded);
  config = config_new ("eq", "{\"command\":\"x${TOKEN=s:-none}\"}", &error);
  g_assert_no_error (error);
  expanded = mcp_server_config_expand (config, (const char *[]) { "TOKEN=secret", "TOKEN=s=t", NULL }, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_server_config_get_command (expanded), ==, "xnone");
}

/* Issue 20, finding 8: what a ${VAR} gave, env and header values, and a
 * URL's user info and query values are a server's secrets. */
static void
test_secrets (void)
{
  const char *environ[] = { "HOME=/home/me", "TOKEN=tok-secret", "KEY=key%2Fsecret", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(McpServerConfig) remote = NULL;
  g_autoptr(McpServerConfig) remote_expanded = NULL;
  g_auto(GStrv) raw = NULL;
  g_auto(GStrv) secrets = NULL;
  g_auto(GStrv) remote_secrets = NULL;

  config = config_new ("s", "{\"command\":\"${HOME}/srv\",\"args\":[\"--t=${TOKEN}\",\"${NONE:-dflt}\"],"
                       "\"env\":{\"LITERAL\":\"lit-value\",\"EMPTY\":\"\"}}", &error);
  g_assert_no_error (error);
  /* as written: only the literal env value */
  raw = mcp_server_config_dup_secrets (config);
  g_assert_cmpstrv (raw, ((const char *[]) { "lit-value", NULL }));

  expanded = mcp_server_config_expand (config, environ, &error);
  g_assert_no_error (error);
  secrets = mcp_server_config_dup_secrets (expanded);
  /* what the variables gave (a default is written in the file: not a
   * secret), then env values; each once */
  g_assert_cmpstrv (secrets, ((const char *[]) { "/home/me", "tok-secret", "lit-value", NULL }));

  remote = config_new ("r", "{\"type\":\"http\","
                       "\"url\":\"https://me:pa55@example.com/mcp?api_key=${KEY}&flag&v=2\","
                       "\"headers\":{\"Authorization\":\"Bearer ${TOKEN}\",\"X-Static\":\"static-value\"}}",
                       &error);
  g_assert_no_error (error);
  remote_expanded = mcp_server_config_expand (remote, environ, &error);
  g_assert_no_error (error);
  remote_secrets = mcp_server_config_dup_secrets (remote_expanded);
  {
    /* (not in g_assert_cmpstrv()'s text: it is a format there) */
    const char *expected[] = { "key%2Fsecret", "tok-secret", "Bearer tok-secret", "static-value",
                               "me:pa55", "pa55", "key/secret", "2", NULL };

    g_assert_cmpstrv (remote_secrets, expected);
  }
}

static void
test_expand_unset (void)
{
  const char *environ[] = { "HOME=/home/me", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) other = NULL;
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(McpServerConfig) other_expanded = NULL;

  config = config_new ("github", "{\"command\":\"srv\",\"env\":{\"GITHUB_TOKEN\":\"${GH_TOKEN}\"}}", NULL);
  other = config_new ("files", "{\"command\":\"${HOME}/srv\"}", NULL);

  expanded = mcp_server_config_expand (config, environ, &error);
  g_assert_null (expanded);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "GH_TOKEN"));
  g_assert_nonnull (strstr (error->message, "“github”"));
  g_assert_nonnull (strstr (error->message, "$.mcpServers.github.env.GITHUB_TOKEN"));
  g_assert_nonnull (strstr (error->message, "settings.json"));

  /* only that server */
  other_expanded = mcp_server_config_expand (other, environ, NULL);
  g_assert_nonnull (other_expanded);
  g_assert_cmpstr (mcp_server_config_get_command (other_expanded), ==, "/home/me/srv");

  g_clear_error (&error);
  g_clear_object (&config);
  config = config_new ("bad", "{\"command\":\"srv ${OOPS\"}", NULL);
  g_assert_null (mcp_server_config_expand (config, environ, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "$.mcpServers.bad.command"));
}

/* The references the editor's tooltips describe are the ones expansion
 * reads: names, defaults, values, and what it refuses passed over. */
static void
test_scan_variables (void)
{
  const char *environ[] = { "HOME=/home/me", "EMPTY=", "A=b=c", NULL };
  g_autoptr(GPtrArray) uses = NULL;
  const McpVariableUse *use;

  uses = mcp_server_config_scan_variables ("${HOME}/x ${HOST:-example.com} ${EMPTY} ${}${UNSET} ${A=b} ${TAIL", environ);
  g_assert_cmpuint (uses->len, ==, 5);

  use = g_ptr_array_index (uses, 0);
  g_assert_cmpstr (use->name, ==, "HOME");
  g_assert_cmpstr (use->value, ==, "/home/me");
  g_assert_null (use->fallback);

  use = g_ptr_array_index (uses, 1);
  g_assert_cmpstr (use->name, ==, "HOST");
  g_assert_null (use->value);
  g_assert_cmpstr (use->fallback, ==, "example.com");

  use = g_ptr_array_index (uses, 2);
  g_assert_cmpstr (use->name, ==, "EMPTY");
  g_assert_cmpstr (use->value, ==, "");

  use = g_ptr_array_index (uses, 3);
  g_assert_cmpstr (use->name, ==, "UNSET");
  g_assert_null (use->value);

  /* "A=b" names no variable, as in expansion (getenv would find A). */
  use = g_ptr_array_index (uses, 4);
  g_assert_cmpstr (use->name, ==, "A=b");
  g_assert_null (use->value);

  g_clear_pointer (&uses, g_ptr_array_unref);
  uses = mcp_server_config_scan_variables ("no references, $HOME, {x}", environ);
  g_assert_cmpuint (uses->len, ==, 0);
}

/* A server being tried (issue 21, view 12): in no file, and said so. */
static void
test_unsaved (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"type\": \"http\", \"url\": \"https://${HOST:-example.com}/mcp\"}");
  g_autoptr(JsonObject) bad = parse_object ("{\"type\": \"http\", \"url\": 7}");
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) saved = NULL;
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *saved_key = NULL;

  config = mcp_server_config_new_unsaved ("trial", object, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_server_config_get_saved (config));
  g_assert_null (mcp_server_config_get_file (config));
  g_assert_cmpint (mcp_server_config_get_scope (config), ==, MCP_CONFIG_SCOPE_USER);
  g_assert_cmpstr (mcp_server_config_get_json_path (config), ==, "$.mcpServers.trial");

  /* Its copies stay unsaved: a connection expands it before it starts. */
  expanded = mcp_server_config_expand (config, (const char *[]) { NULL }, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_server_config_get_saved (expanded));
  g_assert_null (mcp_server_config_get_file (expanded));
  g_assert_cmpstr (mcp_server_config_get_url (expanded), ==, "https://example.com/mcp");

  /* The same entry saved has the same memo key: saving it under its own
   * name keeps the connection. */
  saved = mcp_server_config_new_from_json ("trial", MCP_CONFIG_SCOPE_USER, object,
                                           "/home/me/.config/plugboard/settings.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_server_config_get_saved (saved));
  key = mcp_server_config_dup_memo_key (config);
  saved_key = mcp_server_config_dup_memo_key (saved);
  g_assert_cmpstr (key, ==, saved_key);

  /* A bad entry says where, naming no file that does not exist. */
  g_assert_null (mcp_server_config_new_unsaved ("trial", bad, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_true (g_str_has_prefix (error->message, "the server being tried: $.mcpServers.trial.url"));
  g_clear_error (&error);
  g_assert_null (mcp_server_config_new_unsaved ("", object, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config/server-config/stdio-without-type", test_stdio_without_type);
  g_test_add_func ("/config/server-config/remote", test_remote);
  g_test_add_func ("/config/server-config/validation-errors", test_validation_errors);
  g_test_add_func ("/config/server-config/memo-key", test_memo_key);
  g_test_add_func ("/config/server-config/oauth-grants", test_oauth_grants);
  g_test_add_func ("/config/server-config/expand", test_expand);
  g_test_add_func ("/config/server-config/expand-unset", test_expand_unset);
  g_test_add_func ("/config/server-config/scan-variables", test_scan_variables);
  g_test_add_func ("/config/server-config/secrets", test_secrets);
  g_test_add_func ("/config/server-config/unsaved", test_unsaved);

  return g_test_run ();
}
