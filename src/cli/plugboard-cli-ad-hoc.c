/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-redact.h"
#include "mcp-server-info.h"
#include "mcp-token-store.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: an ad-hoc server — a command after "--", or --http, --sse,
 * --ws with --header — as an unsaved "mcpServers" entry in a project of
 * its own (mcp_project_new_ad_hoc()): no settings file read, no roots, the
 * command line as the consent, the manager's connection, pool and call
 * pipeline as for a configured server. */

/* What the command line gave: the command, or the URL (masked). */
static char *
describe_ad_hoc (PlugboardCli *cli)
{
  GString *text;

  if (cli->server_argv == NULL)
    return mcp_redact_url (cli->http_url ? cli->http_url : cli->sse_url ? cli->sse_url : cli->ws_url);

  text = g_string_new (NULL);
  for (guint i = 0; cli->server_argv[i] != NULL; i++)
    {
      const char *arg = cli->server_argv[i];

      if (i > 0)
        g_string_append_c (text, ' ');
      if (arg[0] == '\0' || strpbrk (arg, " \t\n'\"\\") != NULL)
        {
          g_autofree char *quoted = g_shell_quote (arg);

          g_string_append (text, quoted);
        }
      else
        g_string_append (text, arg);
    }
  return g_string_free (text, FALSE);
}

/* The server as an "mcpServers" entry, and a name for it: the command's
 * file name, or the URL's host. */
static JsonObject *
ad_hoc_entry (PlugboardCli *cli,
              char        **out_name)
{
  JsonObject *entry = json_object_new ();
  const char *url = cli->http_url ? cli->http_url : cli->sse_url ? cli->sse_url : cli->ws_url;
  g_autoptr(GUri) uri = NULL;

  if (cli->server_argv != NULL)
    {
      JsonArray *args = json_array_new ();

      json_object_set_string_member (entry, "command", cli->server_argv[0]);
      for (guint i = 1; cli->server_argv[i] != NULL; i++)
        json_array_add_string_element (args, cli->server_argv[i]);
      json_object_set_array_member (entry, "args", args);
      *out_name = g_path_get_basename (cli->server_argv[0]);
      return entry;
    }

  json_object_set_string_member (entry, "type",
                                 cli->http_url ? "http" : cli->sse_url ? "sse" : "ws");
  json_object_set_string_member (entry, "url", url);
  if (cli->headers != NULL)
    {
      JsonObject *headers = json_object_new ();

      for (guint i = 0; cli->headers[i] != NULL; i++)
        {
          const char *colon = strchr (cli->headers[i], ':');
          g_autofree char *key = g_strndup (cli->headers[i], colon - cli->headers[i]);
          g_autofree char *value = g_strstrip (g_strdup (colon + 1));

          json_object_set_string_member (headers, key, value);
        }
      json_object_set_object_member (entry, "headers", headers);
    }

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  *out_name = g_strdup (uri != NULL && g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "server");
  return entry;
}

int
plugboard_cli_open_ad_hoc (PlugboardCli *cli)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *credentials = NULL;
  g_autoptr(McpTokenStore) store = NULL;

  entry = ad_hoc_entry (cli, &name);

  /* Nobody can sign in to a server that is in no settings: its "sign in
   * first" is not remembered for the next run, and it is given no stored
   * tokens (a token store of its own, in a folder gone at the end). */
  cli->ad_hoc_cache_dir = g_dir_make_tmp ("plugboard-cli-XXXXXX", &error);
  if (cli->ad_hoc_cache_dir == NULL)
    {
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_CONNECTION;
    }
  cache = g_build_filename (cli->ad_hoc_cache_dir, "needs-auth.json", NULL);
  credentials = g_build_filename (cli->ad_hoc_cache_dir, "oauth-credentials.json", NULL);
  store = mcp_token_store_new ("file", credentials);
  manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                          "needs-auth-cache-path", cache,
                          "token-store", store,
                          NULL);
  cli->project = mcp_project_new_ad_hoc (manager, name, entry, &error);
  if (cli->project == NULL)
    return plugboard_cli_usage_error (cli->verb, "%s", error->message);

  plugboard_cli_set_up_project (cli);
  return plugboard_cli_finish_loading (cli);
}

const char *
plugboard_cli_server_name (PlugboardCli        *cli,
                           McpServerConnection *connection)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  McpServerInfo *info = client ? mcp_client_get_server_info (client) : NULL;

  if (!cli->ad_hoc)
    return mcp_server_connection_get_name (connection);

  if (info != NULL && mcp_server_info_get_name (info) != NULL)
    return mcp_server_info_get_name (info);
  if (cli->server_argv != NULL)
    return cli->server_argv[0];
  return cli->http_url ? cli->http_url : cli->sse_url ? cli->sse_url : cli->ws_url;
}

const char *
plugboard_cli_tool_name (PlugboardCli *cli,
                         McpPoolTool  *tool)
{
  if (cli->ad_hoc)
    return mcp_tool_get_name (mcp_pool_tool_get_tool (tool));
  return mcp_pool_tool_get_qualified_name (tool);
}

/* Why an ad-hoc server did not connect, as said before it had a project:
 * the command or URL, not a name nobody gave it. */
int
plugboard_cli_require_connected_ad_hoc (PlugboardCli        *cli,
                                        McpServerConnection *connection)
{
  const GError *error = mcp_server_connection_get_error (connection);
  g_autofree char *what = describe_ad_hoc (cli);
  g_autofree char *doing = NULL;

  if (mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_CONNECTED)
    return 0;

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT))
    {
      guint ms = 0;
      g_autofree char *duration = NULL;

      g_object_get (plugboard_cli_get_manager (cli), "connect-timeout", &ms, NULL);
      if (ms % 1000 == 0)
        duration = g_strdup_printf ("%u s", ms / 1000);
      else if (ms < 1000)
        duration = g_strdup_printf (_("%u ms"), ms);
      else
        duration = g_strdup_printf ("%.1f s", ms / 1000.0);
      plugboard_cli_print_failure (cli, _("Timed out after %s connecting to %s (MCP_TIMEOUT)"),
                                   duration, what);
      plugboard_cli_print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED) &&
      strstr (error->message, cli->server_argv[0]) == NULL)
    doing = g_strdup_printf (_("could not start “%s”"), cli->server_argv[0]);
  else
    doing = g_strdup_printf (_("could not connect to %s"), what);

  plugboard_cli_print_failure (cli, "%s: %s", doing,
                               error ? error->message : _("it did not settle"));
  plugboard_cli_print_stderr_tail (connection);
  return EXIT_CONNECTION;
}
