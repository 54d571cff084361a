/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: the command line of a verb. A verb on the settings takes
 * --project, --config-dir (and --scope, --json where they mean something);
 * tools, call and ping given the server itself (after "--", or --http,
 * --sse, --ws) take the ad-hoc server's options instead. */

static const char *http_schemes[] = { "http", "https", NULL };
static const char *ws_schemes[] = { "ws", "wss", NULL };

const char *
plugboard_cli_scope_name (McpConfigScope scope)
{
  switch (scope)
    {
    case MCP_CONFIG_SCOPE_USER:
      return "user";
    case MCP_CONFIG_SCOPE_PROJECT:
      return "project";
    case MCP_CONFIG_SCOPE_LOCAL:
    default:
      return "local";
    }
}

gboolean
plugboard_cli_parse_scope (const char     *text,
                           McpConfigScope *out_scope)
{
  static const McpConfigScope scopes[] = {
    MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_PROJECT, MCP_CONFIG_SCOPE_LOCAL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    {
      if (g_strcmp0 (text, plugboard_cli_scope_name (scopes[i])) == 0)
        {
          *out_scope = scopes[i];
          return TRUE;
        }
    }
  return FALSE;
}

/* TRUE when the command line names a server itself (a command after
 * "--", or --http/--sse/--ws): the ad-hoc form of tools, call and ping. */
gboolean
plugboard_cli_is_ad_hoc (int    argc,
                         char **argv)
{
  static const char *options[] = { "--http", "--sse", "--ws", NULL };

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        return TRUE;
      for (guint j = 0; options[j] != NULL; j++)
        {
          gsize len = strlen (options[j]);

          if (g_str_has_prefix (argv[i], options[j]) &&
              (argv[i][len] == '\0' || argv[i][len] == '='))
            return TRUE;
        }
    }
  return FALSE;
}

/* Splits "OPTIONS… -- COMMAND ARGS…": the server command is everything after
 * the first "--". */
void
plugboard_cli_split_server_command (int   *argc,
                                    char **argv,
                                    GStrv *out_server_argv)
{
  *out_server_argv = NULL;

  for (int i = 1; i < *argc; i++)
    {
      if (g_strcmp0 (argv[i], "--") == 0)
        {
          *out_server_argv = g_strdupv (&argv[i + 1]);
          argv[i] = NULL;
          *argc = i;
          return;
        }
    }
}

/* A header as curl takes it: a token, a colon, a value without line breaks. */
gboolean
plugboard_cli_header_is_valid (const char *header)
{
  const char *colon = strchr (header, ':');

  if (colon == NULL || colon == header)
    return FALSE;
  for (const char *p = header; p < colon; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;
  return strpbrk (colon, "\r\n") == NULL;
}

/* NULL when @url is an absolute URL with one of @schemes, else why not. */
char *
plugboard_cli_check_url (const char  *option,
                         const char  *url,
                         const char **schemes)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &error);
  if (uri == NULL)
    return g_strdup_printf (_("%s “%s” is not a URL: %s"), option, url, error->message);
  if (!g_strv_contains (schemes, g_uri_get_scheme (uri)))
    {
      g_autofree char *list = g_strjoinv (" or ", (char **) schemes);

      return g_strdup_printf (_("%s takes a %s URL, not “%s”"), option, list, url);
    }
  return NULL;
}

static GOptionContext *
new_context (PlugboardCli *cli,
             const char   *description)
{
  g_autofree char *prgname = g_strdup_printf (PROGRAM_NAME " %s", cli->verb->name);
  GOptionContext *context;

  g_set_prgname (prgname);
  context = g_option_context_new (cli->verb->parameter_string);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, cli->verb->summary);
  g_option_context_set_description (context, description);
  return context;
}

/* The settings' verbs */

static const char *const settings_description = N_(
  "Settings: user <config-dir>/settings.json, project <project>/.mcp.json,\n"
  "local: the user file's projects[\"<project>\"]. Local wins over project over user.\n"
  "\n"
  "Ad-hoc servers (tools, call, ping, resources, templates, read, prompts, prompt,\n"
  "complete, subscribe, log-level, tasks): give the server instead of a name:\n"
  "  -- COMMAND [ARG…]  or  --http URL | --sse URL | --ws URL [--header 'NAME: VALUE']…\n"
  "  with [--timeout MS] [--verbose] [--json]; see the README.\n"
  "\n"
  "Environment:\n"
  "  MCP_TIMEOUT        Time to start a server and initialize, in ms (default 30000)\n"
  "  MCP_TOOL_TIMEOUT   Time a tool call may take, in ms\n"
  "  MCP_SERVER_CONNECTION_BATCH_SIZE, MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE\n"
  "  MAX_MCP_OUTPUT_TOKENS\n"
  "  BROWSER            The command login opens the sign-in URL with (the URL is\n"
  "                     appended); without it, the desktop's browser when DISPLAY or\n"
  "                     WAYLAND_DISPLAY is set, else login only prints the URL\n"
  "\n"
  "Sign-in tokens live in the Secret Service (keyring); without one, in\n"
  "$XDG_DATA_HOME/plugboard/oauth-credentials.json (mode 0600). A server that asked\n"
  "for sign-in is not asked again for 15 minutes, or until login.\n"
  "\n"
  "Exit status: 0 ok, 1 the tool reported an error, 2 usage error,\n"
  "3 connection or protocol failure, 4 permission refused,\n"
  "5 settings problem (a file that does not parse, a write refused), 130 interrupted;\n"
  "login: 3 when the sign-in or the connection after it failed.");

/* A client's id (mcp-client-shape.h) given with @option: 0, or the usage
 * error naming the ones there are. NULL is Plugboard's own settings. */
int
plugboard_cli_parse_client (PlugboardCli  *cli,
                            const char    *option,
                            const char    *text,
                            McpClientKind *out_kind)
{
  *out_kind = MCP_CLIENT_KIND_PLUGBOARD;
  if (text == NULL || mcp_client_kind_from_id (text, out_kind))
    return 0;

  {
    g_autofree char *shown = plugboard_cli_escape (text);

    /* TRANSLATORS: %s: an option (--client, --from, --to); %s: what was
     * given; %s: the client names there are ("plugboard, claude-code, …") */
    return plugboard_cli_usage_error (cli->verb, _("%s: no client “%s”; the clients are %s"),
                                      option, shown, mcp_client_kind_list_ids ());
  }
}

int
plugboard_cli_parse_settings_options (PlugboardCli *cli,
                                      GOptionEntry *extra_entries,
                                      gboolean      with_scope,
                                      gboolean      with_json,
                                      int          *argc,
                                      char       ***argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  int status;
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &cli->project_opt,
      N_("The project directory (default: the current directory)"), N_("DIR") },
    { "config-dir", 0, 0, G_OPTION_ARG_FILENAME, &cli->config_dir_opt,
      N_("The user settings directory (default: $XDG_CONFIG_HOME/plugboard)"), N_("DIR") },
    { "client", 0, 0, G_OPTION_ARG_STRING, &cli->client_opt,
      N_("Whose settings files: plugboard (default), claude-code, claude-desktop, vscode, cursor, "
         "windsurf, gemini, codex, zed or goose"), N_("CLIENT") },
    { "scope", 's', 0, G_OPTION_ARG_STRING, &cli->scope_opt,
      N_("Which settings: user, project or local"), N_("SCOPE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &cli->json, N_("Print JSON for machines on stdout"), NULL },
    { NULL }
  };

  if (!with_json)
    entries[4] = (GOptionEntry) { NULL };
  if (!with_scope)
    {
      entries[3] = entries[4];
      entries[4] = (GOptionEntry) { NULL };
    }

  context = new_context (cli, settings_description);
  if (extra_entries != NULL)
    g_option_context_add_main_entries (context, extra_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, &error))
    return plugboard_cli_usage_error (cli->verb, "%s", error->message);

  if ((status = plugboard_cli_parse_client (cli, "--client", cli->client_opt, &cli->client)) != 0)
    return status;

  if (cli->scope_opt != NULL)
    {
      McpConfigScope scope;

      if (!plugboard_cli_parse_scope (cli->scope_opt, &scope))
        return plugboard_cli_usage_error (cli->verb, _("--scope must be user, project or local, not “%s”"),
                                          cli->scope_opt);
    }

  return 0;
}

/* An ad-hoc server */

static GOptionEntry ad_hoc_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print JSON for machines on stdout"), NULL },
  { "timeout", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Time the request may take without an answer"), N_("MS") },
  { "verbose", 'v', 0, G_OPTION_ARG_NONE, NULL, N_("Show the server's stderr and log messages"), NULL },
  { "http", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Connect to a Streamable HTTP server instead of starting one"), N_("URL") },
  { "sse", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Connect to a legacy HTTP+SSE server (its SSE URL)"), N_("URL") },
  { "ws", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Connect to a WebSocket server"), N_("URL") },
  { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, NULL, N_("Send this HTTP header (repeatable)"), N_("'NAME: VALUE'") },
  { NULL }
};

/* Exactly one server, and a well-formed one. */
static int
check_ad_hoc_server (PlugboardCli *cli)
{
  gboolean has_command = cli->server_argv != NULL;
  guint n_servers = (has_command ? 1 : 0) +
                    (cli->http_url != NULL) + (cli->sse_url != NULL) + (cli->ws_url != NULL);
  g_autofree char *url_problem = NULL;

  if (n_servers == 0)
    return plugboard_cli_usage_error (cli->verb,
                                      _("No server: give --http URL, --sse URL, --ws URL, or the command "
                                      "that starts the server after “--”"));
  if (n_servers > 1)
    return plugboard_cli_usage_error (cli->verb,
                                      _("Give one server: --http, --sse, --ws or a command after “--”"));
  if (has_command && (cli->server_argv[0] == NULL || cli->server_argv[0][0] == '\0'))
    return plugboard_cli_usage_error (cli->verb,
                                      _("No server command: give the command that starts the server after “--”"));
  if (has_command && cli->headers != NULL)
    return plugboard_cli_usage_error (cli->verb, _("--header is for --http, --sse and --ws servers"));

  if (cli->http_url != NULL)
    url_problem = plugboard_cli_check_url ("--http", cli->http_url, http_schemes);
  else if (cli->sse_url != NULL)
    url_problem = plugboard_cli_check_url ("--sse", cli->sse_url, http_schemes);
  else if (cli->ws_url != NULL)
    url_problem = plugboard_cli_check_url ("--ws", cli->ws_url, ws_schemes);
  if (url_problem != NULL)
    return plugboard_cli_usage_error (cli->verb, "%s", url_problem);

  for (guint i = 0; cli->headers != NULL && cli->headers[i] != NULL; i++)
    if (!plugboard_cli_header_is_valid (cli->headers[i]))
      {
        /* Only the name: the value may be a secret. */
        g_autofree char *name = g_strndup (cli->headers[i],
                                           MIN (strcspn (cli->headers[i], ": \t"), 40));

        return plugboard_cli_usage_error (cli->verb,
                                          _("--header “%s…” is not of the form 'Name: value'"), name);
      }

  return 0;
}

/* Parses the options of an ad-hoc verb, @extra_entries first. Leaves the
 * positional arguments in argv. Returns 0, or an exit code. */
int
plugboard_cli_parse_ad_hoc_options (PlugboardCli *cli,
                                    GOptionEntry *extra_entries,
                                    gboolean      with_json,
                                    int          *argc,
                                    char       ***argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[G_N_ELEMENTS (ad_hoc_entries)];
  gpointer data[] = {
    &cli->json, &cli->timeout_text, &cli->verbose, &cli->http_url, &cli->sse_url,
    &cli->ws_url, &cli->headers,
  };
  guint n = 0;

  G_STATIC_ASSERT (G_N_ELEMENTS (data) + 1 == G_N_ELEMENTS (ad_hoc_entries));

  cli->ad_hoc = TRUE;
  for (guint i = 0; ad_hoc_entries[i].long_name != NULL; i++)
    {
      if (!with_json && g_str_equal (ad_hoc_entries[i].long_name, "json"))
        continue;
      entries[n] = ad_hoc_entries[i];
      entries[n].arg_data = data[i];
      n++;
    }
  entries[n] = (GOptionEntry) { NULL };

  context = new_context (cli, N_(
    "Environment:\n"
    "  MCP_TIMEOUT        Time to start the server and initialize, in ms (default 30000)\n"
    "  MCP_TOOL_TIMEOUT   Default --timeout of a tool call, in ms\n"
    "\n"
    "Exit status: 0 ok, 1 the tool reported an error, 2 usage error,\n"
    "3 connection or protocol failure, 4 permission refused, 5 settings problem,\n"
    "130 interrupted."));
  if (extra_entries != NULL)
    g_option_context_add_main_entries (context, extra_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  plugboard_cli_split_server_command (argc, *argv, &cli->server_argv);

  if (!g_option_context_parse (context, argc, argv, &error))
    return plugboard_cli_usage_error (cli->verb, "%s", error->message);

  if (cli->timeout_text != NULL)
    {
      guint64 value;

      if (!g_ascii_string_to_unsigned (cli->timeout_text, 10, 1, G_MAXUINT, &value, NULL))
        return plugboard_cli_usage_error (cli->verb,
                                          _("--timeout must be a positive number of milliseconds, not “%s”"),
                                          cli->timeout_text);
      cli->timeout_ms = (guint) value;
    }

  return check_ad_hoc_server (cli);
}

/* Positional arguments left after parsing, without argv[0]. */
int
plugboard_cli_check_count (PlugboardCli *cli,
                           int           argc,
                           char        **argv,
                           int           min,
                           int           max,
                           const char   *what)
{
  if (argc - 1 < min)
    return plugboard_cli_usage_error (cli->verb, _("Missing %s"), what);
  if (argc - 1 > max && cli->ad_hoc)
    return plugboard_cli_usage_error (cli->verb,
                                      _("Unexpected argument “%s” (the server command goes after “--”)"),
                                      argv[max + 1]);
  if (argc - 1 > max)
    return plugboard_cli_usage_error (cli->verb, _("Unexpected argument “%s”"), argv[max + 1]);
  return 0;
}

int
plugboard_cli_parse_arguments (PlugboardCli *cli,
                               const char   *text,
                               JsonObject  **out_arguments)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;

  *out_arguments = NULL;
  if (text == NULL)
    return 0;

  root = mcp_json_parse (text, strlen (text), &error);
  if (root == NULL)
    {
      const char *message = error->message;
      guint line, column;
      int consumed = 0;

      /* json-glib says "<data>:LINE:COLUMN: Parse error: …" */
      if (sscanf (message, "<data>:%u:%u: %n", &line, &column, &consumed) == 2 && consumed > 0)
        return plugboard_cli_usage_error (cli->verb, _("--args is not valid JSON: line %u, column %u: %s"),
                                          line, column, message + consumed);
      return plugboard_cli_usage_error (cli->verb, _("--args is not valid JSON: %s"), message);
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return plugboard_cli_usage_error (cli->verb, _("--args must be a JSON object, not %s"),
                                      JSON_NODE_HOLDS_ARRAY (root) ? _("an array") :
                                      JSON_NODE_HOLDS_NULL (root) ? "null" : _("a single value"));

  *out_arguments = json_node_dup_object (root);
  return 0;
}

/* Each NAME=VALUE of @pairs (given with @option) as a string member of
 * @object; 0, or the exit status after saying which is wrong. */
int
plugboard_cli_parse_pairs (PlugboardCli       *cli,
                           const char         *option,
                           const char * const *pairs,
                           JsonObject         *object)
{
  for (guint i = 0; pairs != NULL && pairs[i] != NULL; i++)
    {
      const char *equals = strchr (pairs[i], '=');
      g_autofree char *key = NULL;

      if (equals == NULL || equals == pairs[i])
        return plugboard_cli_usage_error (cli->verb, _("%s “%s” is not of the form NAME=VALUE"), option, pairs[i]);
      key = g_strndup (pairs[i], equals - pairs[i]);
      if (json_object_has_member (object, key))
        return plugboard_cli_usage_error (cli->verb, _("%s %s is given twice"), option, key);
      json_object_set_string_member (object, key, equals + 1);
    }
  return 0;
}

/* The first words of a verb on one server: NAME, then @n_more arguments;
 * or, for a server given on the command line (plugboard_cli_is_ad_hoc()),
 * the @n_more arguments, seen by the verb after an empty NAME. */
int
plugboard_cli_start_server_verb (PlugboardCli *cli,
                                 GOptionEntry *entries,
                                 gboolean      with_json,
                                 int          *argc,
                                 char       ***argv,
                                 int           n_more,
                                 const char   *what_more)
{
  return plugboard_cli_start_server_verb_full (cli, entries, with_json, argc, argv,
                                               n_more, n_more, what_more);
}

/* The same with @min_more to @max_more arguments after NAME. */
int
plugboard_cli_start_server_verb_full (PlugboardCli *cli,
                                      GOptionEntry *entries,
                                      gboolean      with_json,
                                      int          *argc,
                                      char       ***argv,
                                      int           min_more,
                                      int           max_more,
                                      const char   *what_more)
{
  int status;

  if (plugboard_cli_is_ad_hoc (*argc, *argv))
    {
      if ((status = plugboard_cli_parse_ad_hoc_options (cli, entries, with_json, argc, argv)) != 0 ||
          (status = plugboard_cli_check_count (cli, *argc, *argv, min_more, max_more, what_more)) != 0)
        return status;

      /* The verbs find NAME in argv[1] and what follows after it: an
       * ad-hoc server has no name until it says its own once connected
       * (plugboard_cli_server_name()), so the slot is left empty. */
      cli->ad_hoc_words = g_new0 (char *, *argc + 2);
      cli->ad_hoc_words[0] = (*argv)[0];
      cli->ad_hoc_words[1] = (char *) "";
      for (int i = 1; i < *argc; i++)
        cli->ad_hoc_words[i + 1] = (*argv)[i];
      *argv = cli->ad_hoc_words;
      (*argc)++;
      return 0;
    }

  if ((status = plugboard_cli_parse_settings_options (cli, entries, FALSE, with_json, argc, argv)) != 0)
    return status;
  return plugboard_cli_check_count (cli, *argc, *argv, 1 + min_more, 1 + max_more,
                                    *argc - 1 < 1 ? _("the name of the server") : what_more);
}
