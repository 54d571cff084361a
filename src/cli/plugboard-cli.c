/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-server-info.h"
#include "mcp-http-transport.h"
#include "mcp-sse-transport.h"
#include "mcp-stdio-transport.h"
#include "mcp-websocket-transport.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "mcp-token-store.h"

#include "plugboard-cli-private.h"

#define DEFAULT_CONNECT_TIMEOUT_MS 30000
#define STDERR_TAIL_LINES 5
/* How long to wait for a dying server's exit status and last stderr lines
 * before reporting why it failed. */
#define EXIT_GRACE_MS 1000

static int cmd_tools (Cli *cli, int argc, char **argv);
static int cmd_call  (Cli *cli, int argc, char **argv);
static int cmd_ping  (Cli *cli, int argc, char **argv);

static const Subcommand subcommands[] = {
  { "list", "",
    "List every configured server: scope, transport and state after connecting.", cmd_settings_list },
  { "get", "NAME",
    "Show everything about one configured server (secret values masked).", cmd_settings_get },
  { "add", "NAME {-- COMMAND [ARG…] | URL}",
    "Add a server to the settings (default scope: local).", cmd_settings_add },
  { "add-json", "NAME JSON",
    "Add a server to the settings from its JSON entry.", cmd_settings_add_json },
  { "remove", "NAME",
    "Remove a server from the settings.", cmd_settings_remove },
  { "enable", "NAME",
    "Enable a server.", cmd_settings_enable },
  { "disable", "NAME",
    "Disable a server.", cmd_settings_disable },
  { "approve", "NAME",
    "Approve a project server (.mcp.json) so that it starts.", cmd_settings_approve },
  { "reject", "NAME",
    "Reject a project server (.mcp.json): it does not start.", cmd_settings_reject },
  { "tools", "[NAME] | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    "List the tools of the configured servers (or of NAME) with their permission, "
    "or of an ad-hoc server.", cmd_tools },
  { "call", "SERVER TOOL | TOOL {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    "Call TOOL of the configured SERVER (permission rules apply), "
    "or of an ad-hoc server.", cmd_call },
  { "ping", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    "Check that a configured server, or an ad-hoc one, answers.", cmd_ping },
  { "login", "NAME",
    "Sign in to a configured remote server (OAuth): prints the URL, opens the browser "
    "($BROWSER, or the desktop's when there is a display) and waits for it.", cmd_settings_login },
  { "logout", "NAME",
    "Sign out of a configured remote server: forget its tokens and registered client.",
    cmd_settings_logout },
};

/* Output helpers */

char *
one_line (const char *text)
{
  g_autoptr(GString) s = g_string_new (text ? text : "");

  for (gsize i = 0; i < s->len; i++)
    {
      if (s->str[i] == '\n' || s->str[i] == '\r' || s->str[i] == '\t')
        s->str[i] = ' ';
    }
  while (s->len > 0 && s->str[s->len - 1] == ' ')
    g_string_truncate (s, s->len - 1);

  return g_string_free (g_steal_pointer (&s), FALSE);
}

void
end_progress_line (Cli *cli)
{
  if (cli != NULL && cli->progress_line_open)
    {
      fputs ("\n", stderr);
      cli->progress_line_open = FALSE;
    }
}

G_GNUC_PRINTF (2, 3)
void
print_failure (Cli        *cli,
               const char *format,
               ...)
{
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  line = one_line (message);
  fflush (stdout);
  end_progress_line (cli);
  fprintf (stderr, PROGRAM_NAME ": %s\n", line);
  fflush (stderr);
}

void
print_subcommand_usage (const Subcommand *subcommand)
{
  if (subcommand != NULL)
    {
      fprintf (stderr,
               "Usage: " PROGRAM_NAME " %s [OPTION…] %s\n"
               "Try “" PROGRAM_NAME " %s --help” for more.\n",
               subcommand->name, subcommand->parameter_string, subcommand->name);
      return;
    }

  fputs ("Usage: " PROGRAM_NAME " COMMAND [OPTION…] [NAME…] [--project DIR] [--config-dir DIR]\n"
         "       " PROGRAM_NAME " {tools|call|ping} [OPTION…] -- SERVER-COMMAND [ARG…]\n"
         "       " PROGRAM_NAME " {tools|call|ping} [OPTION…] {--http URL | --sse URL | --ws URL} [--header 'NAME: VALUE']…\n"
         "\n"
         "Commands:\n", stderr);
  for (gsize i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (stderr, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
  fputs ("\n"
         "Options:\n"
         "  -h, --help     Show this help\n"
         "  --version      Show the version\n"
         "\n"
         "Try “" PROGRAM_NAME " COMMAND --help” for a command's options.\n", stderr);
}

G_GNUC_PRINTF (2, 3)
int
usage_error (const Subcommand *subcommand,
             const char       *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, PROGRAM_NAME ": %s\n", message);
  print_subcommand_usage (subcommand);

  return EXIT_USAGE;
}

void
print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);

  fputs (text, stdout);
  fputs ("\n", stdout);
}

void
print_json_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  print_json (node);
}

static void
print_text_block (const char *text)
{
  gsize len;

  if (text == NULL)
    return;

  len = strlen (text);
  fputs (text, stdout);
  if (len == 0 || text[len - 1] != '\n')
    fputs ("\n", stdout);
}

/* Environment */

/* Reads a millisecond count from the environment. The value is never shown:
 * environment values may be secrets. */
gboolean
read_env_ms (const char  *name,
             guint        default_value,
             guint       *out_value,
             GError     **error)
{
  const char *value = g_getenv (name);
  guint64 parsed;

  if (value == NULL || *value == '\0')
    {
      *out_value = default_value;
      return TRUE;
    }

  if (!g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT, &parsed, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "The environment variable %s must be a positive number of milliseconds",
                   name);
      return FALSE;
    }

  *out_value = (guint) parsed;
  return TRUE;
}

/* Waiting on the main loop */

void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

void
wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
grace_timeout_cb (gpointer user_data)
{
  gboolean *expired = user_data;

  *expired = TRUE;
  return G_SOURCE_REMOVE;
}

/* Gives a dying server a moment so that its exit status and its last stderr
 * lines are known before the failure is reported. */
static void
wait_for_server_exit (Cli *cli)
{
  McpStdioTransport *stdio;
  gboolean expired = FALSE;
  guint source_id;
  int status;

  if (!MCP_IS_STDIO_TRANSPORT (cli->transport))
    return;

  /* A server that is still connected is not dying; it gets stopped by the
   * close that follows. */
  stdio = MCP_STDIO_TRANSPORT (cli->transport);
  if (mcp_stdio_transport_get_pid (stdio) == 0 || !mcp_transport_is_closed (cli->transport))
    return;

  source_id = g_timeout_add (EXIT_GRACE_MS, grace_timeout_cb, &expired);
  while (!expired && !mcp_stdio_transport_get_exit_status (stdio, &status))
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (source_id);

  /* Let the stderr reader catch up with what the process wrote last. */
  for (guint i = 0; i < 20 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

static void
print_stderr_tail (Cli *cli)
{
  g_auto(GStrv) lines = NULL;
  guint n, first;

  if (!MCP_IS_STDIO_TRANSPORT (cli->transport))
    return;

  lines = mcp_stdio_transport_dup_stderr_lines (MCP_STDIO_TRANSPORT (cli->transport));
  n = lines ? g_strv_length (lines) : 0;
  if (n == 0)
    return;

  first = n > STDERR_TAIL_LINES ? n - STDERR_TAIL_LINES : 0;
  fprintf (stderr, "  The server's last %s on stderr:\n",
           n - first == 1 ? "line" : "lines");
  for (guint i = first; i < n; i++)
    fprintf (stderr, "    %s\n", lines[i]);
  fflush (stderr);
}

/* Reports a failure of the connection or the protocol: one line, then what
 * the server said last. */
static int
connection_failure (Cli          *cli,
                    const char   *doing,
                    const GError *error)
{
  /* The client's message already says how the server ended; waiting for
   * the exit only makes sure its last stderr lines are in. */
  wait_for_server_exit (cli);
  print_failure (cli, "%s: %s", doing, error->message);
  print_stderr_tail (cli);

  return EXIT_CONNECTION;
}

int
cancelled (Cli *cli)
{
  if (!cli->said_cancelled)
    print_failure (cli, "cancelled");
  cli->said_cancelled = TRUE;
  return EXIT_INTERRUPTED;
}

/* Signals */

static gboolean
on_signal_cb (gpointer user_data)
{
  Cli *cli = user_data;

  cli->n_signals++;
  if (cli->n_signals > 1)
    {
      /* The person insists: stop now, and take the server with us. */
      if (MCP_IS_STDIO_TRANSPORT (cli->transport))
        {
          GPid pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (cli->transport));
          int status;

          if (pid > 0 &&
              !mcp_stdio_transport_get_exit_status (MCP_STDIO_TRANSPORT (cli->transport), &status))
            {
              kill (-pid, SIGKILL);
              kill (pid, SIGKILL);
            }
        }
      fflush (stdout);
      if (!cli->said_cancelled)
        {
          end_progress_line (cli);
          fputs (PROGRAM_NAME ": cancelled\n", stderr);
        }
      _exit (EXIT_INTERRUPTED);
    }

  cli->interrupted = TRUE;
  g_cancellable_cancel (cli->cancellable);

  return G_SOURCE_CONTINUE;
}

static void
on_stderr_line_cb (McpTransport *transport,
                   const char   *line,
                   Cli          *cli)
{
  end_progress_line (cli);
  fprintf (stderr, "server: %s\n", line);
}

static void
on_log_message_cb (McpClient  *client,
                   const char *level,
                   const char *logger,
                   JsonNode   *data,
                   Cli        *cli)
{
  g_autofree char *text = NULL;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (data));
  else if (data != NULL)
    text = json_to_string (data, FALSE);

  end_progress_line (cli);
  fprintf (stderr, "server log [%s]%s%s: %s\n",
           level ? level : "?",
           logger ? " " : "", logger ? logger : "",
           text ? text : "");
}

/* Connecting and closing */

static gboolean
connect_timeout_cb (gpointer user_data)
{
  Cli *cli = user_data;

  cli->connect_timed_out = TRUE;
  g_cancellable_cancel (cli->cancellable);

  return G_SOURCE_REMOVE;
}

static char *
format_duration (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf ("%u s", ms / 1000);
  if (ms < 1000)
    return g_strdup_printf ("%u ms", ms);
  return g_strdup_printf ("%.1f s", ms / 1000.0);
}

static McpTransport *
cli_new_transport (Cli *cli)
{
  const char * const *headers = (const char * const *) cli->common.headers;

  if (cli->common.http_url != NULL)
    return mcp_http_transport_new (cli->common.http_url, headers, NULL);
  if (cli->common.sse_url != NULL)
    return mcp_sse_transport_new (cli->common.sse_url, headers, NULL);
  if (cli->common.ws_url != NULL)
    return mcp_websocket_transport_new (cli->common.ws_url, headers, NULL);

  return mcp_stdio_transport_new ((const char * const *) cli->common.server_argv, NULL, NULL);
}

static int
cli_connect (Cli *cli)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  guint timeout_id;

  cli->transport = cli_new_transport (cli);
  cli->client = mcp_client_new (cli->transport);
  mcp_client_set_client_info (cli->client, PROGRAM_NAME, PACKAGE_VERSION);

  if (cli->common.verbose)
    {
      g_signal_connect (cli->transport, "stderr-line",
                        G_CALLBACK (on_stderr_line_cb), cli);
      g_signal_connect (cli->client, "log-message",
                        G_CALLBACK (on_log_message_cb), cli);
    }

  description = mcp_transport_describe (cli->transport);

  /* The client bounds the handshake itself; our own timer is only a
   * backstop in case the cancellation takes a moment. */
  mcp_client_set_connect_timeout (cli->client, cli->connect_timeout_ms);
  timeout_id = g_timeout_add (cli->connect_timeout_ms + 2000, connect_timeout_cb, cli);
  mcp_client_connect_async (cli->client, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  if (!cli->connect_timed_out)
    g_source_remove (timeout_id);

  if (mcp_client_connect_finish (cli->client, result, &error))
    return 0;

  if (cli->interrupted)
    return cancelled (cli);

  if (cli->connect_timed_out || g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT))
    {
      g_autofree char *duration = format_duration (cli->connect_timeout_ms);
      g_autofree char *line = one_line (description);

      wait_for_server_exit (cli);
      print_failure (cli, "Timed out after %s connecting to %s (MCP_TIMEOUT)",
                     duration, line);
      print_stderr_tail (cli);
      return EXIT_CONNECTION;
    }

  {
    g_autofree char *doing = g_strdup_printf ("could not connect to %s", description);

    if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED) &&
        cli->common.server_argv != NULL && cli->common.server_argv[0] != NULL &&
        strstr (error->message, cli->common.server_argv[0]) == NULL)
      {
        g_free (doing);
        doing = g_strdup_printf ("could not start “%s”", cli->common.server_argv[0]);
      }

    return connection_failure (cli, doing, error);
  }
}

static void
cli_close (Cli *cli)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (cli->client == NULL)
    return;

  /* A fresh cancellable: the request's one may have been cancelled, and the
   * server must be stopped all the same. */
  mcp_client_close_async (cli->client, NULL, store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_client_close_finish (cli->client, result, &error))
    g_debug ("Closing the client: %s", error->message);
}

static const char *
server_name (Cli *cli)
{
  McpServerInfo *info = mcp_client_get_server_info (cli->client);

  if (info != NULL && mcp_server_info_get_name (info) != NULL)
    return mcp_server_info_get_name (info);

  if (cli->common.server_argv != NULL)
    return cli->common.server_argv[0];
  if (cli->common.http_url != NULL)
    return cli->common.http_url;
  if (cli->common.sse_url != NULL)
    return cli->common.sse_url;
  return cli->common.ws_url;
}

/* Options */

static GOptionEntry common_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, NULL, "Print JSON for machines on stdout", NULL },
  { "timeout", 0, 0, G_OPTION_ARG_STRING, NULL, "Time the request may take without an answer", "MS" },
  { "verbose", 'v', 0, G_OPTION_ARG_NONE, NULL, "Show the server's stderr and log messages", NULL },
  { "http", 0, 0, G_OPTION_ARG_STRING, NULL, "Connect to a Streamable HTTP server instead of starting one", "URL" },
  { "sse", 0, 0, G_OPTION_ARG_STRING, NULL, "Connect to a legacy HTTP+SSE server (its SSE URL)", "URL" },
  { "ws", 0, 0, G_OPTION_ARG_STRING, NULL, "Connect to a WebSocket server", "URL" },
  { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, NULL, "Send this HTTP header (repeatable)", "'NAME: VALUE'" },
  { NULL }
};

/* A header as curl takes it: a token, a colon, a value without line breaks. */
gboolean
header_is_valid (const char *header)
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
check_url (const char  *option,
           const char  *url,
           const char **schemes)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &error);
  if (uri == NULL)
    return g_strdup_printf ("%s “%s” is not a URL: %s", option, url, error->message);
  if (!g_strv_contains (schemes, g_uri_get_scheme (uri)))
    {
      g_autofree char *list = g_strjoinv (" or ", (char **) schemes);

      return g_strdup_printf ("%s takes a %s URL, not “%s”", option, list, url);
    }
  return NULL;
}

/* Splits "OPTIONS… -- COMMAND ARGS…": the server command is everything after
 * the first "--". */
void
split_server_command (int     *argc,
                      char   **argv,
                      GStrv   *out_server_argv)
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

/* Parses the options of @cli's subcommand, @extra_entries first. Leaves the
 * positional arguments in argv. Returns 0, or an exit code. */
static int
parse_options (Cli           *cli,
               GOptionEntry  *extra_entries,
               gboolean       with_json,
               int           *argc,
               char        ***argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf (PROGRAM_NAME " %s", cli->subcommand->name);
  GOptionEntry entries[G_N_ELEMENTS (common_entries)];
  guint n = 0;

  for (guint i = 0; common_entries[i].long_name != NULL; i++)
    {
      if (!with_json && g_str_equal (common_entries[i].long_name, "json"))
        continue;
      entries[n] = common_entries[i];
      if (g_str_equal (entries[n].long_name, "json"))
        entries[n].arg_data = &cli->common.json;
      else if (g_str_equal (entries[n].long_name, "timeout"))
        entries[n].arg_data = &cli->common.timeout_text;
      else if (g_str_equal (entries[n].long_name, "verbose"))
        entries[n].arg_data = &cli->common.verbose;
      else if (g_str_equal (entries[n].long_name, "http"))
        entries[n].arg_data = &cli->common.http_url;
      else if (g_str_equal (entries[n].long_name, "sse"))
        entries[n].arg_data = &cli->common.sse_url;
      else if (g_str_equal (entries[n].long_name, "ws"))
        entries[n].arg_data = &cli->common.ws_url;
      else if (g_str_equal (entries[n].long_name, "header"))
        entries[n].arg_data = &cli->common.headers;
      n++;
    }
  entries[n] = (GOptionEntry) { NULL };

  g_set_prgname (prgname);
  context = g_option_context_new (cli->subcommand->parameter_string);
  g_option_context_set_summary (context, cli->subcommand->summary);
  g_option_context_set_description (context,
    "Environment:\n"
    "  MCP_TIMEOUT        Time to start the server and initialize, in ms (default 30000)\n"
    "  MCP_TOOL_TIMEOUT   Default --timeout of a tool call, in ms\n"
    "\n"
    "Exit status: 0 ok, 1 the tool reported an error, 2 usage error,\n"
    "3 connection or protocol failure, 4 permission refused, 5 settings problem,\n"
    "130 interrupted.");
  if (extra_entries != NULL)
    g_option_context_add_main_entries (context, extra_entries, NULL);
  g_option_context_add_main_entries (context, entries, NULL);

  split_server_command (argc, *argv, &cli->common.server_argv);

  if (!g_option_context_parse (context, argc, argv, &error))
    return usage_error (cli->subcommand, "%s", error->message);

  if (cli->common.timeout_text != NULL)
    {
      guint64 value;

      if (!g_ascii_string_to_unsigned (cli->common.timeout_text, 10, 1, G_MAXUINT, &value, NULL))
        return usage_error (cli->subcommand,
                            "--timeout must be a positive number of milliseconds, not “%s”",
                            cli->common.timeout_text);
      cli->common.timeout_ms = (guint) value;
    }

  {
    static const char *http_schemes[] = { "http", "https", NULL };
    static const char *ws_schemes[] = { "ws", "wss", NULL };
    gboolean has_command = cli->common.server_argv != NULL;
    guint n_servers = (has_command ? 1 : 0) +
                      (cli->common.http_url != NULL) +
                      (cli->common.sse_url != NULL) +
                      (cli->common.ws_url != NULL);
    g_autofree char *url_problem = NULL;

    if (n_servers == 0)
      return usage_error (cli->subcommand,
                          "No server: give --http URL, --sse URL, --ws URL, or the command "
                          "that starts the server after “--”");
    if (n_servers > 1)
      return usage_error (cli->subcommand,
                          "Give one server: --http, --sse, --ws or a command after “--”");
    if (has_command && (cli->common.server_argv[0] == NULL || cli->common.server_argv[0][0] == '\0'))
      return usage_error (cli->subcommand,
                          "No server command: give the command that starts the server after “--”");
    if (has_command && cli->common.headers != NULL)
      return usage_error (cli->subcommand, "--header is for --http, --sse and --ws servers");

    if (cli->common.http_url != NULL)
      url_problem = check_url ("--http", cli->common.http_url, http_schemes);
    else if (cli->common.sse_url != NULL)
      url_problem = check_url ("--sse", cli->common.sse_url, http_schemes);
    else if (cli->common.ws_url != NULL)
      url_problem = check_url ("--ws", cli->common.ws_url, ws_schemes);
    if (url_problem != NULL)
      return usage_error (cli->subcommand, "%s", url_problem);

    for (guint i = 0; cli->common.headers != NULL && cli->common.headers[i] != NULL; i++)
      if (!header_is_valid (cli->common.headers[i]))
        {
          /* Only the name: the value may be a secret. */
          g_autofree char *name = g_strndup (cli->common.headers[i],
                                             MIN (strcspn (cli->common.headers[i], ": \t"), 40));

          return usage_error (cli->subcommand,
                              "--header “%s…” is not of the form 'Name: value'", name);
        }
  }

  return 0;
}

/* Positional arguments left after parsing, without argv[0]. */
static int
check_positionals (Cli   *cli,
                   int    argc,
                   char **argv,
                   int    expected,
                   const char *what)
{
  if (argc - 1 < expected)
    return usage_error (cli->subcommand, "Missing %s", what);
  if (argc - 1 > expected)
    return usage_error (cli->subcommand,
                        "Unexpected argument “%s” (the server command goes after “--”)",
                        argv[expected + 1]);
  return 0;
}

/* tools */

static void
print_tool (McpTool *tool)
{
  const char *name = mcp_tool_get_name (tool);
  const char *title = mcp_tool_get_title (tool);
  const char *description = mcp_tool_get_description (tool);
  g_autoptr(GPtrArray) hints = g_ptr_array_new ();

  if (title != NULL && g_strcmp0 (title, name) != 0)
    {
      g_autofree char *line = one_line (title);
      g_print ("%s (%s)\n", name, line);
    }
  else
    {
      g_print ("%s\n", name);
    }

  /* The spec's meaning: destructive and idempotent only matter when the
   * tool is not read-only. */
  if (mcp_tool_get_read_only_hint (tool))
    g_ptr_array_add (hints, (char *) "read-only");
  else
    {
      if (mcp_tool_get_destructive_hint (tool))
        g_ptr_array_add (hints, (char *) "destructive");
      if (mcp_tool_get_idempotent_hint (tool))
        g_ptr_array_add (hints, (char *) "idempotent");
    }
  if (mcp_tool_get_open_world_hint (tool))
    g_ptr_array_add (hints, (char *) "open-world");
  g_ptr_array_add (hints, NULL);

  {
    g_autofree char *joined = g_strjoinv (", ", (char **) hints->pdata);

    g_print ("  hints: %s%s\n",
             *joined ? joined : "none",
             mcp_tool_get_annotations (tool) == NULL ? " (defaults, none declared)" : "");
  }

  if (description != NULL && *description != '\0')
    {
      g_autofree char *first = NULL;
      const char *start = description;
      const char *end;

      while (*start == '\n' || *start == ' ')
        start++;
      end = strchr (start, '\n');
      first = end ? g_strndup (start, end - start) : g_strdup (start);
      g_strchomp (first);
      if (*first != '\0')
        g_print ("  %s\n", first);
    }
}

static int
cmd_tools (Cli   *cli,
           int    argc,
           char **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  int status;

  if (!cli_is_ad_hoc (argc, argv))
    return cmd_settings_tools (cli, argc, argv);

  if ((status = parse_options (cli, NULL, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = check_positionals (cli, argc, argv, 0, NULL)) != 0)
    return status;

  if ((status = cli_connect (cli)) != 0)
    return status;

  if (cli->common.timeout_ms > 0)
    mcp_client_set_request_timeout (cli->client, cli->common.timeout_ms);

  mcp_client_list_tools_async (cli->client, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  tools = mcp_client_list_tools_finish (cli->client, result, &error);

  if (tools == NULL)
    {
      if (cli->interrupted)
        return cancelled (cli);
      return connection_failure (cli, "tools/list failed", error);
    }

  if (cli->common.json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
      g_autoptr(JsonArray) array = json_array_sized_new (tools->len);

      for (guint i = 0; i < tools->len; i++)
        json_array_add_object_element (array,
                                       json_object_ref (mcp_tool_get_json (g_ptr_array_index (tools, i))));
      json_node_set_array (node, array);
      print_json (node);
    }
  else
    {
      McpServerInfo *info = mcp_client_get_server_info (cli->client);
      const char *version = info ? mcp_server_info_get_version (info) : NULL;
      const char *protocol = mcp_client_get_protocol_version (cli->client);

      g_print ("%s%s%s (protocol %s) — %u %s\n",
               server_name (cli),
               version ? " " : "", version ? version : "",
               protocol ? protocol : "?",
               tools->len, tools->len == 1 ? "tool" : "tools");

      for (guint i = 0; i < tools->len; i++)
        {
          g_print ("\n");
          print_tool (g_ptr_array_index (tools, i));
        }
    }

  return 0;
}

/* call */

static void
on_progress_cb (double      progress,
                double      total,
                const char *message,
                gpointer    user_data)
{
  Cli *cli = user_data;
  g_autoptr(GString) line = g_string_new ("[");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (line, g_ascii_formatd (buf, sizeof buf, "%g", progress));
  if (total >= 0)
    {
      g_string_append_c (line, '/');
      g_string_append (line, g_ascii_formatd (buf, sizeof buf, "%g", total));
    }
  g_string_append_c (line, ']');
  if (message != NULL && *message != '\0')
    {
      g_autofree char *text = one_line (message);

      g_string_append_c (line, ' ');
      g_string_append (line, text);
    }

  if (cli->stderr_is_tty)
    {
      fprintf (stderr, "\r\033[K%s", line->str);
      cli->progress_line_open = TRUE;
    }
  else
    {
      fprintf (stderr, "%s\n", line->str);
    }
  fflush (stderr);
}

static gboolean
text_duplicates_structured (GPtrArray *content,
                            JsonNode  *structured)
{
  for (guint i = 0; i < content->len; i++)
    {
      McpContent *block = g_ptr_array_index (content, i);
      g_autoptr(JsonParser) parser = NULL;
      JsonNode *root;

      if (mcp_content_get_kind (block) != MCP_CONTENT_TEXT ||
          mcp_content_get_text (block) == NULL)
        continue;

      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, mcp_content_get_text (block), -1, NULL))
        continue;
      root = json_parser_get_root (parser);
      if (root != NULL && json_node_equal (root, structured))
        return TRUE;
    }

  return FALSE;
}

static void
print_data_size (McpContent *block)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) data = mcp_content_get_data (block, &error);
  const char *mime_type = mcp_content_get_mime_type (block);

  if (mime_type == NULL)
    mime_type = "unknown type";

  if (error != NULL)
    {
      g_autofree char *line = one_line (error->message);
      g_print ("%s, unreadable data: %s\n", mime_type, line);
    }
  else
    {
      g_print ("%s, %" G_GSIZE_FORMAT " bytes\n", mime_type,
               data ? g_bytes_get_size (data) : 0);
    }
}

static void
print_content_block (McpContent *block)
{
  switch (mcp_content_get_kind (block))
    {
    case MCP_CONTENT_TEXT:
      print_text_block (mcp_content_get_text (block));
      break;

    case MCP_CONTENT_IMAGE:
    case MCP_CONTENT_AUDIO:
      print_data_size (block);
      break;

    case MCP_CONTENT_RESOURCE_LINK:
      g_print ("link: %s %s\n",
               mcp_content_get_name (block) ? mcp_content_get_name (block) : "",
               mcp_content_get_uri (block) ? mcp_content_get_uri (block) : "");
      break;

    case MCP_CONTENT_RESOURCE:
      g_print ("%s\n", mcp_content_get_uri (block) ? mcp_content_get_uri (block) : "resource");
      if (mcp_content_get_text (block) != NULL)
        print_text_block (mcp_content_get_text (block));
      else
        print_data_size (block);
      break;

    case MCP_CONTENT_UNKNOWN:
    default:
      {
        g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
        g_autofree char *text = NULL;

        json_node_set_object (node, mcp_content_get_json (block));
        text = json_to_string (node, FALSE);
        g_print ("%s content: %s\n",
                 mcp_content_get_type_name (block) ? mcp_content_get_type_name (block) : "unknown",
                 text);
      }
      break;
    }
}

void
print_tool_result (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);
  JsonNode *structured = mcp_tool_result_get_structured_content (result);

  for (guint i = 0; content != NULL && i < content->len; i++)
    print_content_block (g_ptr_array_index (content, i));

  if (structured != NULL && !JSON_NODE_HOLDS_NULL (structured) &&
      (content == NULL || !text_duplicates_structured (content, structured)))
    print_json (structured);
}

static int
cmd_call (Cli   *cli,
          int    argc,
          char **argv)
{
  g_autofree char *args_text = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  McpRequestOptions options = { 0 };
  const char *tool_name;
  GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &args_text, "The tool's arguments, a JSON object", "JSON" },
    { NULL }
  };
  int status;

  if (!cli_is_ad_hoc (argc, argv))
    return cmd_settings_call (cli, argc, argv);

  if ((status = parse_options (cli, entries, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = check_positionals (cli, argc, argv, 1, "the name of the tool to call")) != 0)
    return status;
  tool_name = argv[1];

  if (args_text != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonNode *root;

      if (!json_parser_load_from_data (parser, args_text, -1, &error))
        {
          const char *message = error->message;
          guint line, column;
          int consumed = 0;

          /* json-glib says "<data>:LINE:COLUMN: Parse error: …" */
          if (sscanf (message, "<data>:%u:%u: %n", &line, &column, &consumed) == 2 && consumed > 0)
            return usage_error (cli->subcommand, "--args is not valid JSON: line %u, column %u: %s",
                                line, column, message + consumed);
          return usage_error (cli->subcommand, "--args is not valid JSON: %s", message);
        }
      root = json_parser_get_root (parser);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        return usage_error (cli->subcommand, "--args must be a JSON object, not %s",
                            root == NULL ? "nothing" :
                            JSON_NODE_HOLDS_ARRAY (root) ? "an array" :
                            JSON_NODE_HOLDS_NULL (root) ? "null" : "a single value");
      arguments = json_node_dup_object (root);
    }

  if (cli->common.timeout_ms > 0)
    options.timeout_ms = cli->common.timeout_ms;
  else if (!read_env_ms ("MCP_TOOL_TIMEOUT", 0, &options.timeout_ms, &error))
    return usage_error (cli->subcommand, "%s", error->message);
  options.progress_func = on_progress_cb;
  options.progress_data = cli;

  if ((status = cli_connect (cli)) != 0)
    return status;

  mcp_client_call_tool_async (cli->client, tool_name, arguments, &options,
                              cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  tool_result = mcp_client_call_tool_finish (cli->client, result, &error);
  end_progress_line (cli);

  if (tool_result == NULL)
    {
      g_autofree char *doing = NULL;

      if (cli->interrupted)
        return cancelled (cli);

      doing = g_strdup_printf ("calling “%s” failed", tool_name);
      return connection_failure (cli, doing, error);
    }

  if (cli->common.json)
    print_json_object (mcp_tool_result_get_json (tool_result));
  else
    print_tool_result (tool_result);

  if (mcp_tool_result_get_is_error (tool_result))
    {
      print_failure (cli, "the tool “%s” reported an error", tool_name);
      return EXIT_TOOL_ERROR;
    }

  return 0;
}

/* ping */

static int
cmd_ping (Cli   *cli,
          int    argc,
          char **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  int status;

  if (!cli_is_ad_hoc (argc, argv))
    return cmd_settings_ping (cli, argc, argv);

  if ((status = parse_options (cli, NULL, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_positionals (cli, argc, argv, 0, NULL)) != 0)
    return status;

  if ((status = cli_connect (cli)) != 0)
    return status;

  if (cli->common.timeout_ms > 0)
    mcp_client_set_request_timeout (cli->client, cli->common.timeout_ms);

  start = g_get_monotonic_time ();
  mcp_client_ping_async (cli->client, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);

  if (!mcp_client_ping_finish (cli->client, result, &error))
    {
      if (cli->interrupted)
        return cancelled (cli);
      return connection_failure (cli, "ping failed", error);
    }

  g_print ("pong from %s in %" G_GINT64_FORMAT " ms\n",
           server_name (cli), (g_get_monotonic_time () - start) / 1000);

  return 0;
}

/* The token store says where the tokens went instead of the keyring. */
static void
on_token_fallback_used_cb (McpTokenStore *store,
                           Cli           *cli)
{
  g_autofree char *path = NULL;

  g_object_get (store, "fallback-path", &path, NULL);
  fflush (stdout);
  end_progress_line (cli);
  fprintf (stderr, PROGRAM_NAME ": warning: no Secret Service (keyring) answered; "
           "sign-in tokens are kept in %s (readable only by you)\n", path ? path : "a file");
  fflush (stderr);
}

/* The store's own message says the same as our warning line. */
static void
drop_log_cb (const char     *log_domain,
             GLogLevelFlags  log_level,
             const char     *message,
             gpointer        user_data)
{
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  Cli cli = { 0 };
  guint sigint_id, sigterm_id;
  int status;

  setlocale (LC_ALL, "");
  g_set_prgname (PROGRAM_NAME);

  if (argc < 2)
    return usage_error (NULL, "Missing command");

  if (g_str_equal (argv[1], "--version"))
    {
      g_print (PROGRAM_NAME " %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_subcommand_usage (NULL);
      return 0;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (subcommands); i++)
    {
      if (g_str_equal (argv[1], subcommands[i].name))
        cli.subcommand = &subcommands[i];
    }
  if (cli.subcommand == NULL)
    return usage_error (NULL, "Unknown command “%s”", argv[1]);

  if (!read_env_ms ("MCP_TIMEOUT", DEFAULT_CONNECT_TIMEOUT_MS, &cli.connect_timeout_ms, &error))
    return usage_error (NULL, "%s", error->message);

  cli.cancellable = g_cancellable_new ();
  cli.stderr_is_tty = isatty (STDERR_FILENO);

  g_log_set_handler ("mcp-token-store", G_LOG_LEVEL_MESSAGE, drop_log_cb, NULL);
  g_signal_connect (mcp_token_store_get_default (), "fallback-used",
                    G_CALLBACK (on_token_fallback_used_cb), &cli);

  sigint_id = g_unix_signal_add (SIGINT, on_signal_cb, &cli);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal_cb, &cli);

  /* The subcommand sees argv from its own name on. */
  status = cli.subcommand->run (&cli, argc - 1, argv + 1);

  cli_close (&cli);
  fflush (stdout);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_signal_handlers_disconnect_by_data (mcp_token_store_get_default (), &cli);
  g_clear_object (&cli.client);
  g_clear_object (&cli.transport);
  g_clear_object (&cli.cancellable);
  g_clear_pointer (&cli.common.server_argv, g_strfreev);
  g_clear_pointer (&cli.common.http_url, g_free);
  g_clear_pointer (&cli.common.sse_url, g_free);
  g_clear_pointer (&cli.common.ws_url, g_free);
  g_clear_pointer (&cli.common.headers, g_strfreev);
  g_clear_pointer (&cli.common.timeout_text, g_free);

  return status;
}
