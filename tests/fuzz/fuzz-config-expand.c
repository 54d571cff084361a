/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-config-expand"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-json-private.h"
#include "mcp-oauth-grant.h"
#include "mcp-server-config.h"

/* ${VAR} and ${VAR:-default} expansion, mcp_server_config_expand(), with a
 * fixed environment (variables set, empty, and with odd values).
 *
 * The input is read twice:
 * - as a server entry (the value of mcpServers["fuzz"]), when it parses to
 *   an object that mcp_server_config_new_from_json() accepts;
 * - as text: the raw bytes (up to a nul) are the command, an argument, an
 *   env value, the URL and a header value of a stdio entry, and the URL
 *   and a header value of an http entry named after the text.
 * Checks: an entry is accepted or refused with a message; an expansion
 * succeeds or fails with a non-empty UTF-8 message that names the file;
 * what it makes is UTF-8 throughout and the same server (name, scope,
 * file, JSON path, transport, enabled, timeouts); text without "${" comes
 * out as it went in; the expanded "oauth" object is read as the grant
 * settings (mcp_oauth_grant_config_new_from_json()): a config or an error
 * naming "oauth", never both. Warnings and criticals are fatal. */

#define FILE_NAME "/fuzz/config/settings.json"

static const char * const environ_[] = {
  "HOME=/fuzz/home",
  "TOKEN=secret",
  "EMPTY=",
  "SPACES=  a  b  ",
  "BRACES=${TOKEN}",          /* not expanded again */
  "DOLLAR=$",
  "DEFAULT=:-x}",
  "UNICODE=\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
  "NEWLINE=line 1\nline 2",
  "EQ=a=b",
  "QUOTE=\"\\",
  "_=underscore",
  NULL,
};

static void
fail (const char *what)
{
  g_printerr ("fuzz-config-expand: %s\n", what);
  abort ();
}

static void
check_utf8 (const char *text,
            const char *what)
{
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    {
      g_printerr ("fuzz-config-expand: %s is not UTF-8\n", what);
      abort ();
    }
}

static void
check_strv (const char * const *strv,
            const char         *what)
{
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    check_utf8 (strv[i], what);
}

static void
check_error (GError *error)
{
  if (error == NULL || error->message == NULL || error->message[0] == '\0')
    fail ("a failure without a message");
  check_utf8 (error->message, "an error message");
  if (strstr (error->message, FILE_NAME) == NULL)
    {
      g_printerr ("%s\n", error->message);
      fail ("an error that does not name the file");
    }
}

/* The grant settings of an expanded "oauth" object */
static void
check_grant (JsonObject *oauth)
{
  g_autoptr(McpOAuthGrantConfig) grant = NULL;
  g_autoptr(GError) error = NULL;

  if (oauth == NULL)
    return;
  grant = mcp_oauth_grant_config_new_from_json (oauth, &error);
  if ((grant == NULL) == (error == NULL))
    fail ("grant settings: a config and an error, or neither");
  if (error != NULL &&
      (error->message[0] == '\0' || !g_utf8_validate (error->message, -1, NULL) ||
       strstr (error->message, "oauth") == NULL))
    {
      g_printerr ("%s\n", error->message);
      fail ("grant settings refused with a message that does not name “oauth”");
    }
}

/* Expands @config; the copy, or NULL. */
static McpServerConfig *
expand (McpServerConfig *config)
{
  g_autoptr(GError) error = NULL;
  McpServerConfig *copy;

  copy = mcp_server_config_expand (config, environ_, &error);
  if (copy == NULL)
    {
      check_error (error);
      return NULL;
    }
  if (error != NULL)
    fail ("a copy and an error");

  check_utf8 (mcp_server_config_get_command (copy), "an expanded command");
  check_strv (mcp_server_config_get_args (copy), "an expanded argument");
  check_strv (mcp_server_config_get_env (copy), "an expanded environment pair");
  check_utf8 (mcp_server_config_get_cwd (copy), "an expanded working directory");
  check_utf8 (mcp_server_config_get_url (copy), "an expanded URL");
  check_strv (mcp_server_config_get_headers (copy), "an expanded header");
  check_grant (mcp_server_config_get_oauth (copy));

  if (g_strcmp0 (mcp_server_config_get_name (copy), mcp_server_config_get_name (config)) != 0 ||
      mcp_server_config_get_scope (copy) != mcp_server_config_get_scope (config) ||
      g_strcmp0 (mcp_server_config_get_file (copy), mcp_server_config_get_file (config)) != 0 ||
      g_strcmp0 (mcp_server_config_get_json_path (copy), mcp_server_config_get_json_path (config)) != 0 ||
      mcp_server_config_get_transport (copy) != mcp_server_config_get_transport (config) ||
      mcp_server_config_get_enabled (copy) != mcp_server_config_get_enabled (config) ||
      mcp_server_config_get_connect_timeout (copy) != mcp_server_config_get_connect_timeout (config) ||
      mcp_server_config_get_tool_timeout (copy) != mcp_server_config_get_tool_timeout (config))
    fail ("an expanded copy that is another server");

  return copy;
}

static McpServerConfig *
new_config (const char *name,
            JsonObject *object)
{
  g_autoptr(GError) error = NULL;
  McpServerConfig *config;

  config = mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER, object, FILE_NAME, NULL, &error);
  if (config == NULL)
    check_error (error);
  else if (error != NULL)
    fail ("a config and an error");

  return config;
}

static void
expand_entry (const uint8_t *data,
              size_t         size)
{
  g_autoptr(JsonNode) node = mcp_json_parse ((const char *) data, size, NULL);
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) copy = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  config = new_config ("fuzz", json_node_get_object (node));
  if (config != NULL)
    copy = expand (config);
}

static const char *
json_string (JsonObject *object,
             const char *member,
             const char *inner)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node != NULL && inner != NULL)
    node = JSON_NODE_HOLDS_OBJECT (node) ? json_object_get_member (json_node_get_object (node), inner) : NULL;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* Where the text was put in, after expansion, when there was nothing to
 * expand. (A stdio server keeps "url" and "headers" only in its JSON.) */
static void
check_unchanged (McpServerConfig *copy,
                 const char      *text,
                 gboolean         stdio)
{
  JsonObject *json = mcp_server_config_get_json (copy);
  g_autofree char *env = g_strconcat ("KEY=", text, NULL);
  g_autofree char *header = g_strconcat ("Authorization: ", text, NULL);
  const char * const *strv;

  if (g_strcmp0 (json_string (json, "url", NULL), text) != 0)
    fail ("a URL without “${” that expansion changed");

  if (!stdio)
    {
      strv = mcp_server_config_get_headers (copy);
      if (g_strcmp0 (mcp_server_config_get_url (copy), text) != 0 ||
          strv == NULL || g_strcmp0 (strv[0], header) != 0)
        fail ("a URL or header without “${” that expansion changed");
      return;
    }

  if (g_strcmp0 (json_string (json, "headers", "X-Fuzz"), text) != 0)
    fail ("a header without “${” that expansion changed");
  if (g_strcmp0 (mcp_server_config_get_command (copy), text) != 0)
    fail ("a command without “${” that expansion changed");
  strv = mcp_server_config_get_args (copy);
  if (strv == NULL || g_strcmp0 (strv[0], "--flag") != 0 || g_strcmp0 (strv[1], text) != 0)
    fail ("an argument without “${” that expansion changed");
  strv = mcp_server_config_get_env (copy);
  if (strv == NULL || g_strcmp0 (strv[0], env) != 0)
    fail ("an env value without “${” that expansion changed");
}

/* The editor's tooltips read the references with the scanner: each has
 * a name, and its value and default are those expansion would use. */
static void
scan_text (const char *text)
{
  g_autoptr(GPtrArray) uses = mcp_server_config_scan_variables (text, environ_);

  for (guint i = 0; i < uses->len; i++)
    {
      const McpVariableUse *use = g_ptr_array_index (uses, i);

      if (use->name == NULL || use->name[0] == '\0')
        fail ("a reference without a name");
      if (strstr (text, use->name) == NULL)
        fail ("a reference name that is not in the text");
      if (use->fallback != NULL && strstr (text, use->fallback) == NULL)
        fail ("a default that is not in the text");
      if (g_strcmp0 (use->value, strchr (use->name, '=') != NULL ? NULL
                                 : g_environ_getenv ((char **) environ_, use->name)) != 0)
        fail ("a reference whose value is not the environment's");
      check_utf8 (use->name, "a reference's name");
    }
}

static void
expand_text (const uint8_t *data,
             size_t         size)
{
  /* what a file can hold is UTF-8 (the parser sees to it); an entry made
   * by a program may not be, and is written out as U+FFFD */
  g_autofree char *raw = g_strndup ((const char *) data, size);
  g_autofree char *valid = g_utf8_make_valid (raw, -1);
  g_autoptr(JsonObject) stdio = json_object_new ();
  g_autoptr(JsonObject) http = json_object_new ();
  JsonArray *args = json_array_new ();
  JsonObject *env = json_object_new ();
  JsonObject *headers = json_object_new ();
  JsonObject *http_headers = json_object_new ();
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(McpServerConfig) copy = NULL;

  scan_text (valid);
  json_object_set_string_member (stdio, "command", raw);
  json_array_add_string_element (args, "--flag");
  json_array_add_string_element (args, raw);
  json_object_set_array_member (stdio, "args", args);
  json_object_set_string_member (env, "KEY", raw);
  json_object_set_object_member (stdio, "env", env);
  json_object_set_string_member (stdio, "url", raw);
  json_object_set_string_member (headers, "X-Fuzz", raw);
  json_object_set_object_member (stdio, "headers", headers);

  config = new_config ("fuzz", stdio);
  if (config != NULL)
    {
      copy = expand (config);
      if (copy != NULL && strstr (valid, "${") == NULL && strcmp (raw, valid) == 0)
        check_unchanged (copy, valid, TRUE);
    }
  g_clear_object (&copy);
  g_clear_object (&config);

  json_object_set_string_member (http, "type", "http");
  json_object_set_string_member (http, "url", raw);
  json_object_set_string_member (http_headers, "Authorization", raw);
  json_object_set_object_member (http, "headers", http_headers);

  config = new_config (valid[0] != '\0' ? valid : "fuzz", http);
  if (config != NULL)
    {
      copy = expand (config);
      if (copy != NULL && strstr (valid, "${") == NULL && strcmp (raw, valid) == 0)
        check_unchanged (copy, valid, FALSE);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  fuzz_abort_on_warnings ();

  expand_entry (data, size);
  expand_text (data, size);

  return 0;
}
