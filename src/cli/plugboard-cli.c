/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
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
#include "mcp-redact.h"
#include "mcp-server-info.h"
#include "mcp-http-transport.h"
#include "mcp-permissions.h"
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
    N_("List every configured server: scope, transport and state after connecting."), cmd_settings_list },
  { "get", "NAME",
    N_("Show everything about one configured server (secret values masked)."), cmd_settings_get },
  { "add", "NAME {-- COMMAND [ARG…] | URL}",
    N_("Add a server to the settings (default scope: local)."), cmd_settings_add },
  { "add-json", "NAME JSON",
    N_("Add a server to the settings from its JSON entry."), cmd_settings_add_json },
  { "remove", "NAME",
    N_("Remove a server from the settings."), cmd_settings_remove },
  { "enable", "NAME",
    N_("Enable a server."), cmd_settings_enable },
  { "disable", "NAME",
    N_("Disable a server."), cmd_settings_disable },
  { "approve", "NAME",
    N_("Approve a project server (.mcp.json) so that it starts."), cmd_settings_approve },
  { "reject", "NAME",
    N_("Reject a project server (.mcp.json): it does not start."), cmd_settings_reject },
  { "tools", "[NAME] | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List the tools of the configured servers (or of NAME) with their permission, "
    "or of an ad-hoc server."), cmd_tools },
  { "call", "SERVER TOOL | TOOL {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Call TOOL of the configured SERVER (permission rules apply), "
    "or of an ad-hoc server."), cmd_call },
  { "ping", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Check that a configured server, or an ad-hoc one, answers."), cmd_ping },
  { "resources", "NAME",
    N_("List the resources of a configured server: URI, name, MIME type, description."),
    cmd_settings_resources },
  { "templates", "NAME",
    N_("List the resource templates of a configured server."), cmd_settings_templates },
  { "read", "NAME URI",
    N_("Read a resource: text is printed, binary content saved to a file."), cmd_settings_read },
  { "prompts", "NAME",
    N_("List the prompts of a configured server with their arguments."), cmd_settings_prompts },
  { "prompt", "NAME PROMPT [--arg NAME=VALUE…]",
    N_("Get a prompt's messages, filled in with the arguments."), cmd_settings_prompt },
  { "log-level", "NAME LEVEL",
    N_("Set the level of the log messages a server sends (logging/setLevel); "
    "with --follow, print them until Ctrl-C."), cmd_settings_log_level },
  { "tasks", "NAME",
    N_("List a server's tasks (tasks/list): id, status, message, last update."), cmd_settings_tasks },
  { "login", "NAME",
    N_("Sign in to a configured remote server (OAuth): prints the URL, opens the browser "
    "($BROWSER, or the desktop's when there is a display) and waits for it."), cmd_settings_login },
  { "logout", "NAME",
    N_("Sign out of a configured remote server: forget its tokens and registered client."),
    cmd_settings_logout },
};

/* Output helpers
 *
 * Strings from servers and files reach the terminal only with their
 * control characters escaped (mcp_escape_controls()): one_line(),
 * pad_to_width() and cli_escape() for what must stay on one line, and
 * for everything else the print handlers main() installs, through which
 * every g_print() and g_printerr() goes (newlines kept, CR and ESC
 * written as \u000d and \u001b). */

/* TEXT on one line: line breaks and tabs as spaces, every other control
 * character escaped. */
char *
one_line (const char *text)
{
  g_autoptr(GString) s = g_string_new (text ? text : "");

  g_string_replace (s, "\r\n", "\n", 0);
  for (gsize i = 0; i < s->len; i++)
    {
      if (s->str[i] == '\n' || s->str[i] == '\t')
        s->str[i] = ' ';
    }
  while (s->len > 0 && s->str[s->len - 1] == ' ')
    g_string_truncate (s, s->len - 1);

  return mcp_escape_controls (s->str, MCP_ESCAPE_DEFAULT);
}

/* TEXT with every control character escaped, newlines too: for names. */
char *
cli_escape (const char *text)
{
  return mcp_escape_controls (text ? text : "", MCP_ESCAPE_DEFAULT);
}

/* How many terminal columns TEXT takes once escaped (as pad_to_width()
 * prints it): East Asian wide characters take two, combining marks and
 * zero-width characters none. Tables pad by this, not by bytes, so
 * translated headers and names line up in Chinese as in English, and a
 * name holding ESC [ 2 K takes the columns its escaped form takes. */
int
display_width (const char *text)
{
  g_autofree char *shown = cli_escape (text);
  int width = 0;

  for (const char *p = shown; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }

  return width;
}

/* TEXT, escaped, followed by spaces up to WIDTH columns (at least TEXT). */
char *
pad_to_width (const char *text,
              int         width)
{
  int have = display_width (text);
  g_autofree char *shown = cli_escape (text);
  GString *s = g_string_new (shown);

  for (int i = have; i < width; i++)
    g_string_append_c (s, ' ');

  return g_string_free (s, FALSE);
}

/* The print handlers: every g_print() and g_printerr() */
static void
write_escaped (FILE       *stream,
               const char *string)
{
  g_autofree char *shown = mcp_escape_controls (string, MCP_ESCAPE_KEEP_NEWLINES);
  const char *charset;

  /* What g_print() does without a handler: the locale's charset. */
  if (!g_get_console_charset (&charset))
    {
      g_autofree char *converted = g_convert_with_fallback (shown, -1, charset, "UTF-8", "?",
                                                            NULL, NULL, NULL);

      if (converted != NULL)
        {
          g_free (shown);
          shown = g_steal_pointer (&converted);
        }
    }
  fputs (shown, stream);
  fflush (stream);
}

/* fprintf() to @stream, escaped as g_print() and g_printerr() are. */
void
print_to (FILE       *stream,
          const char *format,
          ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  write_escaped (stream, text);
}

static void
print_handler (const char *string)
{
  write_escaped (stdout, string);
}

static void
printerr_handler (const char *string)
{
  write_escaped (stderr, string);
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
  g_autofree char *redacted = NULL;
  g_autofree char *line = NULL;
  g_auto(GStrv) secrets = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  /* The last way out of an error: no secret of a server started (what its
   * ${VAR}s gave, env and header values), no URL's user info or query
   * values, no credentials, no control characters. */
  secrets = mcp_redact_dup_secrets ();
  redacted = mcp_redact_text (message, (const char * const *) secrets);
  line = one_line (redacted);
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
               _("Usage: %s %s [OPTION…] %s\n"
                 "Try “%s %s --help” for more.\n"),
               PROGRAM_NAME, subcommand->name, subcommand->parameter_string,
               PROGRAM_NAME, subcommand->name);
      return;
    }

  /* TRANSLATORS: keep the command names, options and metavariables. */
  fprintf (stderr,
           _("Usage: %s [--interactive] COMMAND [OPTION…] [NAME…] [--project DIR] [--config-dir DIR]\n"
             "       %s {tools|call|ping} [OPTION…] -- SERVER-COMMAND [ARG…]\n"
             "       %s {tools|call|ping} [OPTION…] {--http URL | --sse URL | --ws URL} [--header 'NAME: VALUE']…\n"
             "\n"
             "Commands:\n"),
           PROGRAM_NAME, PROGRAM_NAME, PROGRAM_NAME);
  for (gsize i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (stderr, "  %-9s %s\n", subcommands[i].name, _(subcommands[i].summary));
  fprintf (stderr,
           _("\n"
             "Options:\n"
             "  -h, --help     Show this help\n"
             "  --version      Show the version\n"
             "  --interactive  Answer the servers' sampling and elicitation requests on the\n"
             "                 terminal (only when stdin and stdout are one)\n"
             "\n"
             "Try “%s COMMAND --help” for a command's options.\n"),
           PROGRAM_NAME);
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

  g_printerr (PROGRAM_NAME ": %s\n", message);
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

  /* json-glib escapes C0 controls but not DEL, C1 controls or bidi
   * overrides; these occur only inside strings, where "\u009b" is the
   * same JSON. */
  g_print ("%s\n", text);
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
  g_print ("%s%s", text, len == 0 || text[len - 1] != '\n' ? "\n" : "");
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
                   _("The environment variable %s must be a positive number of milliseconds"),
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
  fputs (ngettext ("  The server's last line on stderr:\n",
                   "  The server's last lines on stderr:\n", n - first), stderr);
  for (guint i = first; i < n; i++)
    g_printerr ("    %s\n", lines[i]);
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
    print_failure (cli, _("cancelled"));
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
          fprintf (stderr, "%s: %s\n", PROGRAM_NAME, _("cancelled"));
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
  g_printerr (_("server: %s\n"), line);
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
  g_printerr (_("server log [%s]%s%s: %s\n"),
           level ? level : "?",
           logger ? " " : "", logger ? logger : "",
           text ? text : "");
}

/* Said whether -v or not: a tool left out of the listing must not just
 * be missing. */
static void
on_client_warning_cb (McpClient  *client,
                      const char *message,
                      Cli        *cli)
{
  fflush (stdout);
  end_progress_line (cli);
  /* Translators: the program's name, then what Plugboard set aside. */
  g_printerr (_("%s: warning: %s\n"), PROGRAM_NAME, message);
}

/* The terminal */

/* Decides --interactive once: it holds only with a person at a terminal
 * (stdin to type on, stdout to read on). Without one, say so and stay
 * non-interactive: sampling and elicitation are then not declared at all. */
gboolean
cli_is_interactive (Cli *cli)
{
  if (cli->interactive_decided)
    return cli->interactive;

  cli->interactive_decided = TRUE;
  cli->interactive = FALSE;
  if (!cli->interactive_requested)
    return FALSE;

  if (isatty (STDIN_FILENO) && isatty (STDOUT_FILENO))
    cli->interactive = TRUE;
  else
    {
      fflush (stdout);
      end_progress_line (cli);
      fprintf (stderr, _("%s: note: --interactive needs a terminal on stdin and stdout; "
                         "going on without it (sampling and elicitation are not offered to the servers)\n"),
               PROGRAM_NAME);
      fflush (stderr);
    }

  return cli->interactive;
}

/* Lines typed on the terminal, handed out in order to the reads waiting.
 *
 * Not a GUnixInputStream on stdin: once poll() has seen the terminal
 * readable, it read()s without O_NONBLOCK, and a Ctrl-C typed in between
 * makes the terminal discard the unread line (ISIG without NOFLSH). That
 * read() then waits for a line nobody types: the SIGINT handler only wakes
 * the main loop, GLib installs it with SA_RESTART, and so the Ctrl-C is
 * never handled. We read our own open file description of the terminal,
 * non-blocking (stdin's is shared with the shell, whose flags we leave
 * alone): a line discarded that way is an EAGAIN, and back to the main
 * loop, where the Ctrl-C is handled. */
static void
open_terminal (Cli *cli)
{
  g_autofree char *own_name = g_strdup_printf ("/proc/self/fd/%d", STDIN_FILENO);
  const char *name;
  int fd;

  cli->typed = g_string_new (NULL);
  cli->reads = g_queue_new ();

  fd = open (own_name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd == -1 && (name = ttyname (STDIN_FILENO)) != NULL)
    fd = open (name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd != -1)
    {
      cli->terminal_fd = fd;
      cli->terminal_fd_owned = TRUE;
      return;
    }

  /* Without /proc or a name for the terminal: stdin itself, read once
   * each time poll() finds it readable, which leaves only the narrow window
   * between the two for a Ctrl-C to be missed in. */
  g_debug ("No descriptor of our own for the terminal (%s); reading stdin", g_strerror (errno));
  cli->terminal_fd = STDIN_FILENO;
  cli->terminal_fd_owned = FALSE;
}

static void
close_terminal (Cli *cli)
{
  if (cli->terminal_source != NULL)
    g_source_destroy (cli->terminal_source);
  g_clear_pointer (&cli->terminal_source, g_source_unref);
  if (cli->terminal_fd_owned)
    close (cli->terminal_fd);
  cli->terminal_fd_owned = FALSE;
  if (cli->typed != NULL)
    g_string_free (cli->typed, TRUE);
  cli->typed = NULL;
  g_clear_pointer (&cli->reads, g_queue_free);
}

/* One read(), never waiting: a line (the terminal gives no more than one
 * at a time), part of one, nothing, or the end of input. */
static gboolean
read_terminal (Cli     *cli,
               GError **error)
{
  char buf[4096];
  ssize_t n;

  do
    n = read (cli->terminal_fd, buf, sizeof buf);
  while (n == -1 && errno == EINTR);

  if (n > 0)
    g_string_append_len (cli->typed, buf, n);
  else if (n == 0)
    cli->typed_end = TRUE;
  else if (errno != EAGAIN && errno != EWOULDBLOCK)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   /* Translators: %s is the system's reason, such as "Input/output error". */
                   _("Could not read from the terminal: %s"), g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

/* The next whole line typed, without its end; at the end of input what was
 * typed before it, or NULL. FALSE: no line yet. */
static gboolean
take_typed_line (Cli   *cli,
                 char **out_line)
{
  const char *newline = memchr (cli->typed->str, '\n', cli->typed->len);

  if (newline != NULL)
    {
      gsize len = newline - cli->typed->str;

      *out_line = g_strndup (cli->typed->str, len);
      g_string_erase (cli->typed, 0, len + 1);
      return TRUE;
    }

  if (cli->typed_end)
    {
      /* A terminal's end of input is for one read: the person may go on
       * typing after Ctrl-D. */
      cli->typed_end = FALSE;
      *out_line = cli->typed->len > 0 ? g_strndup (cli->typed->str, cli->typed->len) : NULL;
      g_string_truncate (cli->typed, 0);
      return TRUE;
    }

  return FALSE;
}

static void
return_line (GTask *task,
             char  *line)
{
  if (line != NULL && !g_utf8_validate (line, -1, NULL))
    {
      g_free (line);
      g_task_return_new_error (task, G_CONVERT_ERROR, G_CONVERT_ERROR_ILLEGAL_SEQUENCE,
                               _("What was typed is not valid UTF-8"));
      return;
    }

  g_task_return_pointer (task, line, g_free);
}

static void watch_terminal (Cli *cli);

/* Hands the lines read so far to the reads waiting, in order; a read whose
 * cancellable is cancelled ends when its turn comes, as before it. */
static void
serve_reads (Cli *cli)
{
  GTask *task;

  while ((task = g_queue_peek_head (cli->reads)) != NULL)
    {
      char *line;

      /* Off the queue before it returns: its callback may ask again. */
      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
        {
          task = g_queue_pop_head (cli->reads);
          g_task_return_error_if_cancelled (task);
          g_object_unref (task);
          continue;
        }
      if (!take_typed_line (cli, &line))
        break;

      task = g_queue_pop_head (cli->reads);
      return_line (task, line);
      g_object_unref (task);
    }

  watch_terminal (cli);
}

static gboolean
on_terminal_cb (int           fd,
                GIOCondition  condition,
                gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;

  /* Returning G_SOURCE_REMOVE; serve_reads() watches again if need be. */
  g_clear_pointer (&cli->terminal_source, g_source_unref);

  /* No condition: the first read's cancellable woke us. */
  if (condition != 0 && !read_terminal (cli, &error))
    {
      g_autoptr(GTask) task = g_queue_pop_head (cli->reads);

      if (task != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
    }

  serve_reads (cli);

  return G_SOURCE_REMOVE;
}

/* The terminal is watched only while a read waits, and read only when
 * poll() finds it readable: nothing is read ahead of a question. The first
 * read's cancellable wakes the watch too. */
static void
watch_terminal (Cli *cli)
{
  GTask *task = g_queue_peek_head (cli->reads);
  GCancellable *cancellable;

  if (cli->terminal_source != NULL)
    g_source_destroy (cli->terminal_source);
  g_clear_pointer (&cli->terminal_source, g_source_unref);
  if (task == NULL)
    return;

  cli->terminal_source = g_unix_fd_source_new (cli->terminal_fd, G_IO_IN | G_IO_HUP | G_IO_ERR);
  cancellable = g_task_get_cancellable (task);
  if (cancellable != NULL)
    {
      g_autoptr(GSource) cancelled_source = g_cancellable_source_new (cancellable);

      g_source_set_dummy_callback (cancelled_source);
      g_source_add_child_source (cli->terminal_source, cancelled_source);
    }
  g_source_set_callback (cli->terminal_source, G_SOURCE_FUNC (on_terminal_cb), cli, NULL);
  g_source_set_static_name (cli->terminal_source, "[plugboard-cli] terminal");
  g_source_attach (cli->terminal_source, NULL);
}

/* One read at a time, in the order asked: a second question (the
 * permission to call, a server's request) waits for the first. */
void
cli_read_line_async (Cli                 *cli,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, cli_read_line_async);
  if (cli->typed == NULL)
    open_terminal (cli);

  g_queue_push_tail (cli->reads, task);
  serve_reads (cli);
}

char *
cli_read_line_finish (Cli           *cli,
                      GAsyncResult  *result,
                      GError       **error)
{
  char *line = g_task_propagate_pointer (G_TASK (result), error);
  gsize len;

  if (line == NULL)
    return NULL;
  len = strlen (line);
  if (len > 0 && line[len - 1] == '\r')
    line[len - 1] = '\0';
  return line;
}

/* The servers' requests: one dialog at a time on the terminal */

JsonObject *
cli_sampling_capabilities (void)
{
  JsonObject *capabilities = json_object_new ();

  json_object_set_object_member (capabilities, "sampling", json_object_new ());
  return capabilities;
}

JsonObject *
cli_elicitation_capabilities (void)
{
  JsonObject *capabilities = json_object_new ();
  JsonObject *elicitation = json_object_new ();

  /* Form mode only: the CLI has no way to open a URL with the person's
   * consent that is better than printing it. */
  json_object_set_object_member (elicitation, "form", json_object_new ());
  json_object_set_object_member (capabilities, "elicitation", elicitation);
  return capabilities;
}

typedef enum
{
  FIELD_STRING,
  FIELD_NUMBER,
  FIELD_INTEGER,
  FIELD_BOOLEAN,
  FIELD_CHOICE,       /* one of a list */
  FIELD_CHOICES,      /* several of a list (an array of enum items) */
} FieldKind;

typedef struct
{
  char       *name;
  JsonObject *schema;
  FieldKind   kind;
  gboolean    required;
  GPtrArray  *values;   /* FIELD_CHOICE(S): the JSON values (JsonNode) */
  GPtrArray  *labels;   /* their titles, or NULL entries */
} Field;

static void
field_free (Field *field)
{
  g_free (field->name);
  g_clear_pointer (&field->schema, json_object_unref);
  g_clear_pointer (&field->values, g_ptr_array_unref);
  g_clear_pointer (&field->labels, g_ptr_array_unref);
  g_free (field);
}

typedef struct
{
  Cli          *cli;
  char         *server;
  char         *method;
  JsonObject   *params;
  GTask        *reply;
  GCancellable *cancellable;    /* the reply's or the whole run's */
  gulong        reply_handler;
  gulong        cli_handler;

  /* sampling */
  GString      *text;

  /* elicitation */
  GPtrArray    *fields;
  guint         current;
  JsonObject   *content;
} Dialog;

static void dialog_start_next (Cli *cli);

static void
dialog_free (Dialog *dialog)
{
  GCancellable *reply_cancellable = g_task_get_cancellable (dialog->reply);

  if (reply_cancellable != NULL)
    g_cancellable_disconnect (reply_cancellable, dialog->reply_handler);
  g_cancellable_disconnect (dialog->cli->cancellable, dialog->cli_handler);
  g_clear_object (&dialog->cancellable);
  g_clear_object (&dialog->reply);
  g_clear_pointer (&dialog->params, json_object_unref);
  g_clear_pointer (&dialog->fields, g_ptr_array_unref);
  g_clear_pointer (&dialog->content, json_object_unref);
  if (dialog->text != NULL)
    g_string_free (dialog->text, TRUE);
  g_free (dialog->server);
  g_free (dialog->method);
  g_free (dialog);
}

/* Answers the server (@result NULL: with @error) and goes on with the next
 * request waiting. */
static void
dialog_finish (Dialog   *dialog,
               JsonNode *result,
               GError   *error)
{
  Cli *cli = dialog->cli;

  if (result != NULL)
    g_task_return_pointer (dialog->reply, result, (GDestroyNotify) json_node_unref);
  else
    g_task_return_error (dialog->reply, error);

  fflush (stdout);
  if (cli->dialog == dialog)
    cli->dialog = NULL;
  dialog_free (dialog);
  dialog_start_next (cli);
}

/* The read failed: the server withdrew its request, the session ended or
 * the person pressed Ctrl-C. Nothing is sent for a cancelled request. */
static void
dialog_abort (Dialog *dialog,
              GError *error)
{
  /* After Ctrl-C, "cancelled" has been said already. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !dialog->cli->interrupted)
    g_print (_("\n(%s withdrew its request)\n"), dialog->server);
  dialog_finish (dialog, NULL, error);
}

static void
cancel_dialog_cb (GCancellable *cancellable,
                  gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
print_indented (const char *indent,
                const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i + 1] == NULL && *lines[i] == '\0' && i > 0)
        break;
      g_print ("%s%s\n", indent, lines[i]);
    }
}

static char *
node_to_compact (JsonNode *node)
{
  /* json-glib writes 0.7 as 0.69999999999999996; the person reads 0.7. */
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", json_node_get_double (node)));
    }
  return node != NULL ? json_to_string (node, FALSE) : g_strdup ("null");
}

/* sampling/createMessage */

/* One content block of a sampling message: text in full, media by type
 * and size, anything else as its JSON. */
static void
print_sampling_block (guint       index,
                      const char *role,
                      JsonNode   *node)
{
  JsonObject *block = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *type = block ? json_object_get_string_member_with_default (block, "type", NULL) : NULL;

  if (g_strcmp0 (type, "text") == 0)
    {
      g_print (_("  Message %u, %s, text:\n"), index, role);
      print_indented ("    ", json_object_get_string_member_with_default (block, "text", ""));
    }
  else if (g_strcmp0 (type, "image") == 0 || g_strcmp0 (type, "audio") == 0)
    {
      const char *data = json_object_get_string_member_with_default (block, "data", "");
      gsize n_bytes = strlen (data) / 4 * 3;

      g_print (_("  Message %u, %s, %s: %s, about %lu bytes\n"), index, role, type,
               json_object_get_string_member_with_default (block, "mimeType", _("unknown type")),
               (unsigned long) n_bytes);
    }
  else
    {
      g_autofree char *json = node_to_compact (node);

      g_print (_("  Message %u, %s, %s:\n    %s\n"), index, role, type ? type : _("content"), json);
    }
}

static void
print_sampling_request (Dialog *dialog)
{
  JsonObject *params = dialog->params;
  JsonArray *messages = NULL;
  GList *members;

  g_print (_("\n%s asks for a model reply (sampling/createMessage):\n"), dialog->server);

  if (params != NULL && json_object_has_member (params, "systemPrompt"))
    {
      g_print (_("  System prompt:\n"));
      print_indented ("    ", json_object_get_string_member_with_default (params, "systemPrompt", ""));
    }
  else
    g_print (_("  System prompt: none\n"));

  if (params != NULL && json_object_has_member (params, "messages") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (params, "messages")))
    messages = json_object_get_array_member (params, "messages");
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *role = message ? json_object_get_string_member_with_default (message, "role", "?") : "?";
      JsonNode *content = message ? json_object_get_member (message, "content") : NULL;

      if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
        {
          JsonArray *blocks = json_node_get_array (content);

          for (guint j = 0; j < json_array_get_length (blocks); j++)
            print_sampling_block (i + 1, role, json_array_get_element (blocks, j));
        }
      else if (content != NULL)
        print_sampling_block (i + 1, role, content);
      else
        g_print (_("  Message %u, %s: no content\n"), i + 1, role);
    }
  if (messages == NULL || json_array_get_length (messages) == 0)
    g_print (_("  Messages: none\n"));

  if (params != NULL && json_object_has_member (params, "maxTokens"))
    {
      g_autofree char *value = node_to_compact (json_object_get_member (params, "maxTokens"));

      g_print (_("  maxTokens: %s\n"), value);
    }
  if (params != NULL && json_object_has_member (params, "modelPreferences"))
    {
      g_autofree char *value = node_to_compact (json_object_get_member (params, "modelPreferences"));

      g_print (_("  modelPreferences: %s\n"), value);
    }
  else
    g_print (_("  modelPreferences: none\n"));

  members = params ? json_object_get_members (params) : NULL;
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autofree char *value = NULL;

      if (g_str_equal (name, "messages") || g_str_equal (name, "systemPrompt") ||
          g_str_equal (name, "maxTokens") || g_str_equal (name, "modelPreferences"))
        continue;
      value = node_to_compact (json_object_get_member (params, name));
      g_print ("  %s: %s\n", name, value);
    }
  g_list_free (members);
}

static void
on_sampling_confirm_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  Dialog *dialog = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = cli_read_line_finish (dialog->cli, result, &error);

  if (error != NULL)
    {
      dialog_abort (dialog, g_steal_pointer (&error));
      return;
    }

  if (line != NULL)
    g_strstrip (line);
  if (line != NULL && (g_ascii_strcasecmp (line, "y") == 0 || g_ascii_strcasecmp (line, "yes") == 0))
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, "assistant");
      json_builder_set_member_name (builder, "content");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "text");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, dialog->text->str);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, PROGRAM_NAME " (human)");
      json_builder_set_member_name (builder, "stopReason");
      json_builder_add_string_value (builder, "endTurn");
      json_builder_end_object (builder);

      g_print (_("Sent.\n"));
      dialog_finish (dialog, json_builder_get_root (builder), NULL);
      return;
    }

  if (line == NULL)
    g_print ("\n");
  g_print (_("Declined; nothing was sent.\n"));
  /* The specification's suggestion for a person's refusal. */
  dialog_finish (dialog, NULL,
                 g_error_new_literal (MCP_JSONRPC_ERROR, -1, "User rejected sampling request"));
}

static void
on_sampling_line_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  Dialog *dialog = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = cli_read_line_finish (dialog->cli, result, &error);

  if (error != NULL)
    {
      dialog_abort (dialog, g_steal_pointer (&error));
      return;
    }

  if (line != NULL && !g_str_equal (line, "."))
    {
      if (dialog->text->len > 0)
        g_string_append_c (dialog->text, '\n');
      g_string_append (dialog->text, line);
      cli_read_line_async (dialog->cli, dialog->cancellable, on_sampling_line_cb, dialog);
      return;
    }

  if (line == NULL)
    g_print ("\n");
  g_print (_("Send this reply? [y/N] "));
  fflush (stdout);
  cli_read_line_async (dialog->cli, dialog->cancellable, on_sampling_confirm_cb, dialog);
}

static void
start_sampling (Dialog *dialog)
{
  print_sampling_request (dialog);
  dialog->text = g_string_new (NULL);
  g_print (_("Write the reply; end it with a line holding only \".\" (or Ctrl-D):\n"));
  fflush (stdout);
  cli_read_line_async (dialog->cli, dialog->cancellable, on_sampling_line_cb, dialog);
}

/* elicitation/create, form mode */

static void
add_choices (Field     *field,
             JsonArray *values,
             JsonArray *labels)
{
  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *label = labels && i < json_array_get_length (labels)
        ? json_array_get_element (labels, i) : NULL;

      g_ptr_array_add (field->values, json_node_copy (json_array_get_element (values, i)));
      g_ptr_array_add (field->labels,
                       label && JSON_NODE_HOLDS_VALUE (label) &&
                       json_node_get_value_type (label) == G_TYPE_STRING
                         ? g_strdup (json_node_get_string (label)) : NULL);
    }
}

/* oneOf / anyOf of {const, title} */
static void
add_titled_choices (Field     *field,
                    JsonArray *options)
{
  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonNode *element = json_array_get_element (options, i);
      JsonObject *option = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;

      if (option == NULL || !json_object_has_member (option, "const"))
        continue;
      g_ptr_array_add (field->values, json_node_copy (json_object_get_member (option, "const")));
      g_ptr_array_add (field->labels,
                       g_strdup (json_object_get_string_member_with_default (option, "title", NULL)));
    }
}

static JsonArray *
array_member (JsonObject *object,
              const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static gboolean
collect_choices (Field      *field,
                 JsonObject *schema)
{
  JsonArray *options;

  if ((options = array_member (schema, "enum")) != NULL)
    add_choices (field, options, array_member (schema, "enumNames"));
  else if ((options = array_member (schema, "oneOf")) != NULL ||
           (options = array_member (schema, "anyOf")) != NULL)
    add_titled_choices (field, options);

  return field->values->len > 0;
}

static Field *
field_new (const char *name,
           JsonObject *schema,
           gboolean    required)
{
  Field *field = g_new0 (Field, 1);
  const char *type = json_object_get_string_member_with_default (schema, "type", "string");

  field->name = g_strdup (name);
  field->schema = json_object_ref (schema);
  field->required = required;
  field->values = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  field->labels = g_ptr_array_new_with_free_func (g_free);

  if (g_str_equal (type, "number"))
    field->kind = FIELD_NUMBER;
  else if (g_str_equal (type, "integer"))
    field->kind = FIELD_INTEGER;
  else if (g_str_equal (type, "boolean"))
    field->kind = FIELD_BOOLEAN;
  else if (g_str_equal (type, "array"))
    {
      JsonNode *items = json_object_get_member (schema, "items");

      field->kind = FIELD_CHOICES;
      if (items == NULL || !JSON_NODE_HOLDS_OBJECT (items) ||
          !collect_choices (field, json_node_get_object (items)))
        field->kind = FIELD_STRING;
    }
  else if (collect_choices (field, schema))
    field->kind = FIELD_CHOICE;
  else
    field->kind = FIELD_STRING;

  return field;
}

static const char *
field_type_name (Field *field)
{
  switch (field->kind)
    {
    case FIELD_NUMBER:
      return "number";
    case FIELD_INTEGER:
      return "integer";
    case FIELD_BOOLEAN:
      return "boolean, y or n";
    case FIELD_CHOICE:
      return "one of the choices, by number or name";
    case FIELD_CHOICES:
      return "some of the choices, by number or name, separated by commas";
    case FIELD_STRING:
    default:
      return "string";
    }
}

static char *
choice_text (Field *field,
             guint  index)
{
  g_autofree char *value = node_to_compact (g_ptr_array_index (field->values, index));
  const char *label = g_ptr_array_index (field->labels, index);
  JsonNode *node = g_ptr_array_index (field->values, index);

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_free (value);
      value = g_strdup (json_node_get_string (node));
    }
  if (label != NULL && g_strcmp0 (label, value) != 0)
    return g_strdup_printf ("%s (%s)", label, value);
  return g_steal_pointer (&value);
}

static void
print_field (Field *field,
             guint  index,
             guint  n_fields)
{
  const char *title = json_object_get_string_member_with_default (field->schema, "title", NULL);
  const char *description = json_object_get_string_member_with_default (field->schema, "description", NULL);
  const char *format = json_object_get_string_member_with_default (field->schema, "format", NULL);

  g_print ("\n[%u/%u] %s%s%s%s — %s%s%s%s\n", index + 1, n_fields, field->name,
           title ? " (" : "", title ? title : "", title ? ")" : "",
           field_type_name (field),
           format ? _(", format ") : "", format ? format : "",
           field->required ? _(", required") : _(", optional"));
  if (description != NULL && *description != '\0')
    print_indented ("      ", description);
  for (guint i = 0; i < field->values->len; i++)
    {
      g_autofree char *text = choice_text (field, i);

      g_print ("      %u) %s\n", i + 1, text);
    }
  if (json_object_has_member (field->schema, "default"))
    {
      g_autofree char *value = node_to_compact (json_object_get_member (field->schema, "default"));

      g_print (_("      default: %s\n"), value);
    }
}

/* The index of the choice @text names (its number, value or title), or -1. */
static int
find_choice (Field      *field,
             const char *text)
{
  guint64 number;

  if (g_ascii_string_to_unsigned (text, 10, 1, field->values->len, &number, NULL))
    return (int) number - 1;

  for (guint i = 0; i < field->values->len; i++)
    {
      JsonNode *value = g_ptr_array_index (field->values, i);
      const char *label = g_ptr_array_index (field->labels, i);

      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (value), text))
        return (int) i;
      if (label != NULL && g_utf8_collate (label, text) == 0)
        return (int) i;
    }
  for (guint i = 0; i < field->values->len; i++)
    {
      const char *label = g_ptr_array_index (field->labels, i);

      if (label != NULL && g_ascii_strcasecmp (label, text) == 0)
        return (int) i;
    }
  return -1;
}

static gboolean
check_bounds (Field   *field,
              double   value,
              char   **problem)
{
  if (json_object_has_member (field->schema, "minimum") &&
      value < json_object_get_double_member (field->schema, "minimum"))
    {
      g_autofree char *bound = node_to_compact (json_object_get_member (field->schema, "minimum"));

      *problem = g_strdup_printf (_("at least %s"), bound);
      return FALSE;
    }
  if (json_object_has_member (field->schema, "maximum") &&
      value > json_object_get_double_member (field->schema, "maximum"))
    {
      g_autofree char *bound = node_to_compact (json_object_get_member (field->schema, "maximum"));

      *problem = g_strdup_printf (_("at most %s"), bound);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_string (Field       *field,
              const char  *text,
              char       **problem)
{
  const char *format = json_object_get_string_member_with_default (field->schema, "format", NULL);
  glong length = g_utf8_strlen (text, -1);

  if (json_object_has_member (field->schema, "minLength") &&
      length < json_object_get_int_member (field->schema, "minLength"))
    {
      *problem = g_strdup_printf (_("at least %lld characters"), (long long)
                                  json_object_get_int_member (field->schema, "minLength"));
      return FALSE;
    }
  if (json_object_has_member (field->schema, "maxLength") &&
      length > json_object_get_int_member (field->schema, "maxLength"))
    {
      *problem = g_strdup_printf (_("at most %lld characters"), (long long)
                                  json_object_get_int_member (field->schema, "maxLength"));
      return FALSE;
    }

  if (g_strcmp0 (format, "email") == 0)
    {
      const char *at = strchr (text, '@');

      if (at == NULL || at == text || at[1] == '\0' || strpbrk (text, " \t") != NULL)
        {
          *problem = g_strdup (_("an email address, like name@example.org"));
          return FALSE;
        }
    }
  else if (g_strcmp0 (format, "uri") == 0)
    {
      if (!g_uri_is_valid (text, G_URI_FLAGS_NONE, NULL))
        {
          *problem = g_strdup (_("an absolute URI, like https://example.org/"));
          return FALSE;
        }
    }
  else if (g_strcmp0 (format, "date") == 0)
    {
      int year, month, day, consumed = 0;

      if (sscanf (text, "%4d-%2d-%2d%n", &year, &month, &day, &consumed) != 3 ||
          consumed != 10 || text[consumed] != '\0' ||
          !g_date_valid_dmy (day, month, year))
        {
          *problem = g_strdup (_("a date, YYYY-MM-DD"));
          return FALSE;
        }
    }
  else if (g_strcmp0 (format, "date-time") == 0)
    {
      g_autoptr(GDateTime) date_time = g_date_time_new_from_iso8601 (text, NULL);

      if (date_time == NULL)
        {
          *problem = g_strdup (_("a date and time, like 2025-01-31T12:00:00Z"));
          return FALSE;
        }
    }

  return TRUE;
}

/* The JSON value @text gives @field, or NULL with @problem saying what
 * the field takes. */
static JsonNode *
field_parse (Field       *field,
             const char  *text,
             char       **problem)
{
  JsonNode *node;

  switch (field->kind)
    {
    case FIELD_NUMBER:
      {
        char *end = NULL;
        double value = g_ascii_strtod (text, &end);

        if (end == text || *end != '\0' || !isfinite (value))
          {
            *problem = g_strdup (_("a number, like 3.5"));
            return NULL;
          }
        if (!check_bounds (field, value, problem))
          return NULL;
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_double (node, value);
        return node;
      }

    case FIELD_INTEGER:
      {
        gint64 value;

        if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
          {
            *problem = g_strdup (_("a whole number, like 42"));
            return NULL;
          }
        if (!check_bounds (field, (double) value, problem))
          return NULL;
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_int (node, value);
        return node;
      }

    case FIELD_BOOLEAN:
      {
        static const char *yes[] = { "y", "yes", "true", NULL };
        static const char *no[] = { "n", "no", "false", NULL };

        for (guint i = 0; yes[i] != NULL; i++)
          if (g_ascii_strcasecmp (text, yes[i]) == 0)
            {
              node = json_node_new (JSON_NODE_VALUE);
              json_node_set_boolean (node, TRUE);
              return node;
            }
        for (guint i = 0; no[i] != NULL; i++)
          if (g_ascii_strcasecmp (text, no[i]) == 0)
            {
              node = json_node_new (JSON_NODE_VALUE);
              json_node_set_boolean (node, FALSE);
              return node;
            }
        *problem = g_strdup (_("y or n"));
        return NULL;
      }

    case FIELD_CHOICE:
      {
        int index = find_choice (field, text);

        if (index < 0)
          {
            *problem = g_strdup_printf (_("one of the choices: a number from 1 to %u, or its name"),
                                        field->values->len);
            return NULL;
          }
        return json_node_copy (g_ptr_array_index (field->values, index));
      }

    case FIELD_CHOICES:
      {
        g_auto(GStrv) parts = g_strsplit (text, ",", -1);
        g_autoptr(JsonArray) array = json_array_new ();
        guint n;

        for (guint i = 0; parts[i] != NULL; i++)
          {
            int index;

            g_strstrip (parts[i]);
            if (*parts[i] == '\0')
              continue;
            index = find_choice (field, parts[i]);
            if (index < 0)
              {
                *problem = g_strdup_printf (_("“%s” is not one of the choices (1 to %u, or a name)"),
                                            parts[i], field->values->len);
                return NULL;
              }
            json_array_add_element (array, json_node_copy (g_ptr_array_index (field->values, index)));
          }
        n = json_array_get_length (array);
        if (json_object_has_member (field->schema, "minItems") &&
            n < json_object_get_int_member (field->schema, "minItems"))
          {
            *problem = g_strdup_printf (_("at least %lld of the choices"), (long long)
                                        json_object_get_int_member (field->schema, "minItems"));
            return NULL;
          }
        if (json_object_has_member (field->schema, "maxItems") &&
            n > json_object_get_int_member (field->schema, "maxItems"))
          {
            *problem = g_strdup_printf (_("at most %lld of the choices"), (long long)
                                        json_object_get_int_member (field->schema, "maxItems"));
            return NULL;
          }
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (node, array);
        return node;
      }

    case FIELD_STRING:
    default:
      if (!check_string (field, text, problem))
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, text);
      return node;
    }
}

static void ask_field (Dialog *dialog);

static void
on_elicitation_confirm_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  Dialog *dialog = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = cli_read_line_finish (dialog->cli, result, &error);
  g_autoptr(JsonObject) answer = json_object_new ();
  JsonNode *node;

  if (error != NULL)
    {
      dialog_abort (dialog, g_steal_pointer (&error));
      return;
    }

  if (line != NULL)
    g_strstrip (line);
  if (line != NULL && (g_ascii_strcasecmp (line, "y") == 0 || g_ascii_strcasecmp (line, "yes") == 0))
    {
      json_object_set_string_member (answer, "action", "accept");
      json_object_set_object_member (answer, "content", json_object_ref (dialog->content));
      g_print (_("Sent.\n"));
    }
  else if (line != NULL && (g_ascii_strcasecmp (line, "decline") == 0 ||
                            g_ascii_strcasecmp (line, "d") == 0))
    {
      json_object_set_string_member (answer, "action", "decline");
      g_print (_("Declined; nothing was sent.\n"));
    }
  else
    {
      json_object_set_string_member (answer, "action", "cancel");
      g_print (_("%sCancelled; nothing was sent.\n"), line == NULL ? "\n" : "");
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, answer);
  dialog_finish (dialog, node, NULL);
}

static void
confirm_elicitation (Dialog *dialog)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_node_set_object (node, dialog->content);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);

  g_print (_("\nTo send to %s:\n"), dialog->server);
  print_indented ("  ", text);
  g_print (_("Send? [y/N/decline] "));
  fflush (stdout);
  cli_read_line_async (dialog->cli, dialog->cancellable, on_elicitation_confirm_cb, dialog);
}

static void
on_field_line_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Dialog *dialog = user_data;
  Field *field = g_ptr_array_index (dialog->fields, dialog->current);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = cli_read_line_finish (dialog->cli, result, &error);
  g_autofree char *problem = NULL;
  JsonNode *value = NULL;

  if (error != NULL)
    {
      dialog_abort (dialog, g_steal_pointer (&error));
      return;
    }

  if (line == NULL)
    {
      g_autoptr(JsonObject) answer = json_object_new ();
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      /* Ctrl-D: the person walked away from the form. */
      g_print (_("\nCancelled; nothing was sent.\n"));
      json_object_set_string_member (answer, "action", "cancel");
      json_node_set_object (node, answer);
      dialog_finish (dialog, node, NULL);
      return;
    }

  g_strstrip (line);
  if (*line == '\0')
    {
      if (json_object_has_member (field->schema, "default"))
        value = json_node_copy (json_object_get_member (field->schema, "default"));
      else if (field->required)
        problem = g_strdup (_("a value (it is required)"));
    }
  else
    value = field_parse (field, line, &problem);

  if (problem != NULL)
    {
      g_print (_("  %s takes %s; try again.\n"), field->name, problem);
      ask_field (dialog);
      return;
    }

  if (value != NULL)
    json_object_set_member (dialog->content, field->name, value);
  dialog->current++;
  if (dialog->current < dialog->fields->len)
    {
      print_field (g_ptr_array_index (dialog->fields, dialog->current),
                   dialog->current, dialog->fields->len);
      ask_field (dialog);
    }
  else
    confirm_elicitation (dialog);
}

static void
ask_field (Dialog *dialog)
{
  Field *field = g_ptr_array_index (dialog->fields, dialog->current);

  g_print ("%s> ", field->name);
  fflush (stdout);
  cli_read_line_async (dialog->cli, dialog->cancellable, on_field_line_cb, dialog);
}

static void
start_elicitation (Dialog *dialog)
{
  JsonObject *params = dialog->params;
  const char *mode = params ? json_object_get_string_member_with_default (params, "mode", "form") : "form";
  const char *message = params ? json_object_get_string_member_with_default (params, "message", NULL) : NULL;
  JsonNode *schema_node = params ? json_object_get_member (params, "requestedSchema") : NULL;
  JsonObject *schema = schema_node && JSON_NODE_HOLDS_OBJECT (schema_node) ? json_node_get_object (schema_node) : NULL;
  JsonNode *properties_node = schema ? json_object_get_member (schema, "properties") : NULL;
  JsonObject *properties = properties_node && JSON_NODE_HOLDS_OBJECT (properties_node)
    ? json_node_get_object (properties_node) : NULL;
  JsonArray *required = array_member (schema, "required");
  GList *members;

  if (!g_str_equal (mode, "form"))
    {
      /* Only form mode was declared. */
      dialog_finish (dialog, NULL,
                     g_error_new (MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                  _("This client handles form elicitation only, not “%s”"), mode));
      return;
    }

  g_print (_("\n%s asks for information (elicitation/create):\n"), dialog->server);
  print_indented ("  ", message ? message : "(no message)");

  dialog->content = json_object_new ();
  dialog->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  members = properties ? json_object_get_members (properties) : NULL;
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (properties, name);
      gboolean is_required = FALSE;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
        if (g_strcmp0 (json_array_get_string_element (required, i), name) == 0)
          is_required = TRUE;
      g_ptr_array_add (dialog->fields, field_new (name, json_node_get_object (node), is_required));
    }
  g_list_free (members);

  g_print (_("Answer each field (Enter: its default, or nothing when it is optional; "
           "Ctrl-D cancels).\n"));
  if (dialog->fields->len == 0)
    {
      confirm_elicitation (dialog);
      return;
    }
  print_field (g_ptr_array_index (dialog->fields, 0), 0, dialog->fields->len);
  ask_field (dialog);
}

/* A request nobody will answer any more: nothing is sent for it. */
static void
dialog_drop (Dialog *dialog)
{
  g_task_return_new_error (dialog->reply, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request was cancelled"));
  dialog_free (dialog);
}

static void
dialog_start_next (Cli *cli)
{
  Dialog *dialog;

  while (cli->dialog == NULL && cli->dialogs != NULL &&
         (dialog = g_queue_pop_head (cli->dialogs)) != NULL)
    {
      if (g_cancellable_is_cancelled (dialog->cancellable))
        {
          dialog_drop (dialog);
          continue;
        }

      cli->dialog = dialog;
      fflush (stdout);
      end_progress_line (cli);
      fflush (stderr);

      if (g_str_equal (dialog->method, "sampling/createMessage"))
        start_sampling (dialog);
      else if (g_str_equal (dialog->method, "elicitation/create"))
        start_elicitation (dialog);
      else
        {
          cli->dialog = NULL;
          dialog_drop (dialog);
        }
    }
}

void
cli_answer_request (Cli        *cli,
                    const char *server,
                    const char *method,
                    JsonObject *params,
                    GTask      *reply)
{
  Dialog *dialog = g_new0 (Dialog, 1);
  GCancellable *reply_cancellable = g_task_get_cancellable (reply);

  dialog->cli = cli;
  dialog->server = g_strdup (server);
  dialog->method = g_strdup (method);
  dialog->params = params ? json_object_ref (params) : NULL;
  dialog->reply = reply;
  dialog->cancellable = g_cancellable_new ();
  if (reply_cancellable != NULL)
    dialog->reply_handler = g_cancellable_connect (reply_cancellable, G_CALLBACK (cancel_dialog_cb),
                                                   g_object_ref (dialog->cancellable), g_object_unref);
  dialog->cli_handler = g_cancellable_connect (cli->cancellable, G_CALLBACK (cancel_dialog_cb),
                                               g_object_ref (dialog->cancellable), g_object_unref);

  if (cli->dialogs == NULL)
    cli->dialogs = g_queue_new ();
  g_queue_push_tail (cli->dialogs, dialog);
  dialog_start_next (cli);
}

/* An ad-hoc server's requests */

static void
on_client_request_cb (McpClient  *client,
                      const char *method,
                      JsonObject *params,
                      GTask      *reply,
                      gpointer    user_data)
{
  Cli *cli = user_data;
  McpServerInfo *info = mcp_client_get_server_info (client);
  const char *name = info && mcp_server_info_get_name (info) ? mcp_server_info_get_name (info) : "the server";

  cli_answer_request (cli, name, method, params, reply);
}

/* With --interactive on a terminal, an ad-hoc server is offered sampling
 * and form elicitation. It is not offered roots: it has no project, and
 * what it lists without them stays what it was. */
static void
setup_client_requests (Cli *cli)
{
  g_autoptr(JsonObject) capabilities = json_object_new ();
  g_autoptr(JsonObject) sampling = NULL;
  g_autoptr(JsonObject) elicitation = NULL;

  if (!cli_is_interactive (cli))
    return;

  sampling = cli_sampling_capabilities ();
  elicitation = cli_elicitation_capabilities ();
  json_object_set_member (capabilities, "sampling",
                          json_node_copy (json_object_get_member (sampling, "sampling")));
  json_object_set_member (capabilities, "elicitation",
                          json_node_copy (json_object_get_member (elicitation, "elicitation")));
  mcp_client_set_request_handler (cli->client, "sampling/createMessage",
                                  on_client_request_cb, cli, NULL);
  mcp_client_set_request_handler (cli->client, "elicitation/create",
                                  on_client_request_cb, cli, NULL);
  mcp_client_set_capabilities (cli->client, capabilities);
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
    return g_strdup_printf (_("%u ms"), ms);
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
  setup_client_requests (cli);

  g_signal_connect (cli->client, "warning", G_CALLBACK (on_client_warning_cb), cli);
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
      print_failure (cli, _("Timed out after %s connecting to %s (MCP_TIMEOUT)"),
                     duration, line);
      print_stderr_tail (cli);
      return EXIT_CONNECTION;
    }

  {
    g_autofree char *doing = g_strdup_printf (_("could not connect to %s"), description);

    if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED) &&
        cli->common.server_argv != NULL && cli->common.server_argv[0] != NULL &&
        strstr (error->message, cli->common.server_argv[0]) == NULL)
      {
        g_free (doing);
        doing = g_strdup_printf (_("could not start “%s”"), cli->common.server_argv[0]);
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
  { "json", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print JSON for machines on stdout"), NULL },
  { "timeout", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Time the request may take without an answer"), N_("MS") },
  { "verbose", 'v', 0, G_OPTION_ARG_NONE, NULL, N_("Show the server's stderr and log messages"), NULL },
  { "http", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Connect to a Streamable HTTP server instead of starting one"), N_("URL") },
  { "sse", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Connect to a legacy HTTP+SSE server (its SSE URL)"), N_("URL") },
  { "ws", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Connect to a WebSocket server"), N_("URL") },
  { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, NULL, N_("Send this HTTP header (repeatable)"), N_("'NAME: VALUE'") },
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
    return g_strdup_printf (_("%s “%s” is not a URL: %s"), option, url, error->message);
  if (!g_strv_contains (schemes, g_uri_get_scheme (uri)))
    {
      g_autofree char *list = g_strjoinv (" or ", (char **) schemes);

      return g_strdup_printf (_("%s takes a %s URL, not “%s”"), option, list, url);
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
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, cli->subcommand->summary);
  g_option_context_set_description (context, N_(
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

  split_server_command (argc, *argv, &cli->common.server_argv);

  if (!g_option_context_parse (context, argc, argv, &error))
    return usage_error (cli->subcommand, "%s", error->message);

  if (cli->common.timeout_text != NULL)
    {
      guint64 value;

      if (!g_ascii_string_to_unsigned (cli->common.timeout_text, 10, 1, G_MAXUINT, &value, NULL))
        return usage_error (cli->subcommand,
                            _("--timeout must be a positive number of milliseconds, not “%s”"),
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
                          _("No server: give --http URL, --sse URL, --ws URL, or the command "
                          "that starts the server after “--”"));
    if (n_servers > 1)
      return usage_error (cli->subcommand,
                          _("Give one server: --http, --sse, --ws or a command after “--”"));
    if (has_command && (cli->common.server_argv[0] == NULL || cli->common.server_argv[0][0] == '\0'))
      return usage_error (cli->subcommand,
                          _("No server command: give the command that starts the server after “--”"));
    if (has_command && cli->common.headers != NULL)
      return usage_error (cli->subcommand, _("--header is for --http, --sse and --ws servers"));

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
                              _("--header “%s…” is not of the form 'Name: value'"), name);
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
    return usage_error (cli->subcommand, _("Missing %s"), what);
  if (argc - 1 > expected)
    return usage_error (cli->subcommand,
                        _("Unexpected argument “%s” (the server command goes after “--”)"),
                        argv[expected + 1]);
  return 0;
}

/* tools */

static void
print_tool (McpTool *tool)
{
  g_autofree char *name = cli_escape (mcp_tool_get_name (tool));
  const char *title = mcp_tool_get_title (tool);
  const char *description = mcp_tool_get_description (tool);
  g_autoptr(GPtrArray) hints = g_ptr_array_new ();

  if (title != NULL && g_strcmp0 (title, mcp_tool_get_name (tool)) != 0)
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

    g_print (_("  hints: %s%s\n"),
             *joined ? joined : _("none"),
             mcp_tool_get_annotations (tool) == NULL ? _(" (defaults, none declared)") : "");
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
      return connection_failure (cli, _("tools/list failed"), error);
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

      const char *era = mcp_client_get_era (cli->client) == MCP_PROTOCOL_ERA_MODERN
                        ? _("stateless") : _("handshake");

      /* TRANSLATORS: the server's name and version, the protocol version and
       * how it works ("stateless" or "handshake"), then the number of tools. */
      g_print (ngettext ("%s%s%s (protocol %s, %s) — %u tool\n", "%s%s%s (protocol %s, %s) — %u tools\n", tools->len),
               server_name (cli),
               version ? " " : "", version ? version : "",
               protocol ? protocol : "?", era,
               tools->len);

      for (guint i = 0; i < tools->len; i++)
        {
          g_print ("\n");
          print_tool (g_ptr_array_index (tools, i));
        }
    }

  return 0;
}

/* call */

void
show_progress (Cli        *cli,
               double      progress,
               double      total,
               const char *message)
{
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

static void
on_progress_cb (double      progress,
                double      total,
                const char *message,
                gpointer    user_data)
{
  show_progress (user_data, progress, total, message);
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
    mime_type = _("unknown type");

  if (error != NULL)
    {
      g_autofree char *line = one_line (error->message);
      g_print (_("%s, unreadable data: %s\n"), mime_type, line);
    }
  else
    {
      g_print (_("%s, %lu bytes\n"), mime_type,
               (unsigned long) (data ? g_bytes_get_size (data) : 0));
    }
}

void
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
      g_print (_("link: %s %s\n"),
               mcp_content_get_name (block) ? mcp_content_get_name (block) : "",
               mcp_content_get_uri (block) ? mcp_content_get_uri (block) : "");
      break;

    case MCP_CONTENT_RESOURCE:
      g_print ("%s\n", mcp_content_get_uri (block) ? mcp_content_get_uri (block) : _("resource"));
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
        g_print (_("%s content: %s\n"),
                 mcp_content_get_type_name (block) ? mcp_content_get_type_name (block) : _("unknown"),
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

/* "task ID: working — Gathering sources..." on stderr, once per change;
 * @last_line keeps the line shown last. */
void
print_task_status (Cli      *cli,
                   McpTask  *task,
                   char    **last_line)
{
  const char *message = mcp_task_get_status_message (task);
  const char *status = mcp_task_get_status_string (task);
  g_autofree char *text = message ? one_line (message) : NULL;
  g_autofree char *line = NULL;

  line = g_strdup_printf (_("task %s: %s%s%s"), mcp_task_get_id (task), status ? status : "?",
                          text && *text ? " — " : "", text && *text ? text : "");
  if (g_strcmp0 (line, *last_line) == 0)
    return;

  g_free (*last_line);
  *last_line = g_steal_pointer (&line);
  fflush (stdout);
  end_progress_line (cli);
  g_printerr ("%s\n", *last_line);
}

/* An ad-hoc call as a task: tools/call with params.task, then tasks/result
 * (the server holds it until the task ends) while tasks/get at the task's
 * pollInterval shows each change; Ctrl-C sends tasks/cancel. */

#define MIN_POLL_INTERVAL_MS 100
#define DEFAULT_POLL_INTERVAL_MS 1000

typedef struct
{
  Cli          *cli;
  char         *task_id;
  char         *last_line;
  guint         poll_ms;
  guint         poll_id;
  gboolean      polling;     /* a tasks/get is under way */
  gboolean      done;
  GCancellable *poll_cancellable;
} TaskRun;

static gboolean poll_task_cb (gpointer user_data);

static void
schedule_poll (TaskRun *run)
{
  if (!run->done && run->poll_id == 0)
    run->poll_id = g_timeout_add (run->poll_ms, poll_task_cb, run);
}

static void
on_task_polled_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  TaskRun *run = user_data;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = mcp_client_get_task_finish (MCP_CLIENT (object), result, &error);
  run->polling = FALSE;
  if (task != NULL)
    print_task_status (run->cli, task, &run->last_line);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("tasks/get %s: %s", run->task_id, error->message);
  schedule_poll (run);
}

static gboolean
poll_task_cb (gpointer user_data)
{
  TaskRun *run = user_data;

  run->poll_id = 0;
  if (run->done || run->polling)
    return G_SOURCE_REMOVE;
  run->polling = TRUE;
  mcp_client_get_task_async (run->cli->client, run->task_id, run->poll_cancellable,
                             on_task_polled_cb, run);
  return G_SOURCE_REMOVE;
}

/* notifications/tasks/status, for a server that sends it: changes that
 * polling alone could miss. */
static void
on_task_notification_cb (McpClient  *client,
                         const char *method,
                         JsonObject *params,
                         TaskRun    *run)
{
  g_autoptr(McpTask) task = NULL;

  if (g_strcmp0 (method, "notifications/tasks/status") != 0 || params == NULL ||
      run->task_id == NULL || run->done)
    return;
  task = mcp_task_new_from_json (params, NULL);
  if (task != NULL && g_strcmp0 (mcp_task_get_id (task), run->task_id) == 0)
    print_task_status (run->cli, task, &run->last_line);
}

static McpToolResult *
call_tool_as_task (Cli         *cli,
                   const char  *tool_name,
                   JsonObject  *arguments,
                   GError     **error)
{
  g_autoptr(GAsyncResult) created = NULL;
  g_autoptr(GAsyncResult) finished = NULL;
  g_autoptr(McpTask) task = NULL;
  McpToolResult *tool_result;
  TaskRun run = { cli };
  gint64 interval;

  mcp_client_call_tool_as_task_async (cli->client, tool_name, arguments, 0, cli->cancellable,
                                      store_result_cb, &created);
  wait_for_result (&created);
  task = mcp_client_call_tool_as_task_finish (cli->client, created, error);
  if (task == NULL)
    return NULL;

  run.task_id = g_strdup (mcp_task_get_id (task));
  interval = mcp_task_get_poll_interval (task);
  run.poll_ms = interval > 0 ? (guint) CLAMP (interval, MIN_POLL_INTERVAL_MS, G_MAXINT) : DEFAULT_POLL_INTERVAL_MS;
  run.poll_cancellable = g_cancellable_new ();
  print_task_status (cli, task, &run.last_line);
  g_signal_connect (cli->client, "server-notification", G_CALLBACK (on_task_notification_cb), &run);

  mcp_client_get_task_result_async (cli->client, run.task_id, cli->cancellable,
                                    store_result_cb, &finished);
  schedule_poll (&run);
  while (finished == NULL)
    g_main_context_iteration (NULL, TRUE);
  run.done = TRUE;
  if (run.poll_id != 0)
    g_source_remove (run.poll_id);
  g_cancellable_cancel (run.poll_cancellable);
  while (run.polling)
    g_main_context_iteration (NULL, TRUE);

  tool_result = mcp_client_get_task_result_finish (cli->client, finished, error);
  g_signal_handlers_disconnect_by_func (cli->client, on_task_notification_cb, &run);

  if (tool_result == NULL && cli->interrupted)
    {
      g_autoptr(GAsyncResult) cancelled_result = NULL;
      g_autoptr(McpTask) final = NULL;
      g_autoptr(GError) cancel_error = NULL;

      /* Not the run's cancellable: that one is cancelled already. */
      mcp_client_cancel_task_async (cli->client, run.task_id, NULL, store_result_cb, &cancelled_result);
      wait_for_result (&cancelled_result);
      final = mcp_client_cancel_task_finish (cli->client, cancelled_result, &cancel_error);
      if (final != NULL)
        print_task_status (cli, final, &run.last_line);
      else
        g_debug ("tasks/cancel %s: %s", run.task_id, cancel_error->message);
    }
  else if (tool_result != NULL)
    {
      g_autoptr(GAsyncResult) got = NULL;
      g_autoptr(McpTask) final = NULL;

      /* The final status line, as the server has it now. */
      mcp_client_get_task_async (cli->client, run.task_id, NULL, store_result_cb, &got);
      wait_for_result (&got);
      final = mcp_client_get_task_finish (cli->client, got, NULL);
      if (final != NULL)
        print_task_status (cli, final, &run.last_line);
    }

  g_clear_object (&run.poll_cancellable);
  g_free (run.task_id);
  g_free (run.last_line);
  return tool_result;
}

static McpTool *
find_tool (GPtrArray  *tools,
           const char *name)
{
  for (guint i = 0; tools != NULL && i < tools->len; i++)
    if (g_strcmp0 (mcp_tool_get_name (g_ptr_array_index (tools, i)), name) == 0)
      return g_ptr_array_index (tools, i);
  return NULL;
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
  gboolean as_task = FALSE;
  GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &args_text, N_("The tool's arguments, a JSON object"), N_("JSON") },
    { "interactive", 0, 0, G_OPTION_ARG_NONE, &cli->interactive_requested,
      N_("Answer the server's sampling and elicitation requests on the terminal"), NULL },
    { "task", 0, 0, G_OPTION_ARG_NONE, &as_task,
      N_("Run the tool as a task when it may run either way (execution.taskSupport "
      "“optional”; a “required” one always is); Ctrl-C cancels the task"), NULL },
    { NULL }
  };
  g_autoptr(GPtrArray) tools = NULL;
  const char *task_support = NULL;
  McpTool *tool;
  int status;

  if (!cli_is_ad_hoc (argc, argv))
    return cmd_settings_call (cli, argc, argv);

  if ((status = parse_options (cli, entries, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = check_positionals (cli, argc, argv, 1, _("the name of the tool to call"))) != 0)
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
            return usage_error (cli->subcommand, _("--args is not valid JSON: line %u, column %u: %s"),
                                line, column, message + consumed);
          return usage_error (cli->subcommand, _("--args is not valid JSON: %s"), message);
        }
      root = json_parser_get_root (parser);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        return usage_error (cli->subcommand, _("--args must be a JSON object, not %s"),
                            root == NULL ? _("nothing") :
                            JSON_NODE_HOLDS_ARRAY (root) ? _("an array") :
                            JSON_NODE_HOLDS_NULL (root) ? "null" : _("a single value"));
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

  /* Whether the tool runs as a task is in its listing. A server that
   * cannot list is still called: its own error says more. */
  {
    g_autoptr(GAsyncResult) listed = NULL;
    g_autoptr(GError) list_error = NULL;

    mcp_client_list_tools_async (cli->client, cli->cancellable, store_result_cb, &listed);
    wait_for_result (&listed);
    tools = mcp_client_list_tools_finish (cli->client, listed, &list_error);
    if (tools == NULL && cli->interrupted)
      return cancelled (cli);
    if (tools == NULL)
      g_debug ("tools/list before calling: %s", list_error->message);
  }
  tool = find_tool (tools, tool_name);
  task_support = tool ? mcp_tool_get_task_support (tool) : NULL;

  /* A server given on the command line has no settings and so no rules:
   * the command line is the consent, whatever the tool's hints. */
  {
    g_autoptr(McpPermissions) permissions = mcp_permissions_new_command_line ();
    McpPermissionDecision decision = { 0 };
    g_autofree char *why = NULL;

    mcp_permissions_decide (permissions, "", tool_name,
                            MCP_PERMISSION_HINT_DESTRUCTIVE | MCP_PERMISSION_HINT_OPEN_WORLD,
                            &decision);
    why = mcp_permission_decision_describe (&decision);
    g_debug ("%s: %s: %s", tool_name, mcp_permission_to_string (decision.permission), why);
    if (decision.permission != MCP_PERMISSION_ALLOW)
      {
        print_failure (cli, "%s", why);
        return EXIT_PERMISSION;
      }
  }

  if (as_task && tool != NULL &&
      g_strcmp0 (task_support, "optional") != 0 && g_strcmp0 (task_support, "required") != 0)
    {
      print_failure (cli, _("“%s” cannot run as a task (its execution.taskSupport is “%s”); "
                     "call it without --task"), tool_name, task_support);
      return EXIT_USAGE;
    }

  if (g_strcmp0 (task_support, "required") == 0 || (as_task && tool != NULL))
    tool_result = call_tool_as_task (cli, tool_name, arguments, &error);
  else
    {
      mcp_client_call_tool_async (cli->client, tool_name, arguments, &options,
                                  cli->cancellable, store_result_cb, &result);
      wait_for_result (&result);
      tool_result = mcp_client_call_tool_finish (cli->client, result, &error);
    }
  end_progress_line (cli);

  if (tool_result == NULL)
    {
      g_autofree char *doing = NULL;

      if (cli->interrupted)
        return cancelled (cli);

      doing = g_strdup_printf (_("calling “%s” failed"), tool_name);
      return connection_failure (cli, doing, error);
    }

  if (cli->common.json)
    print_json_object (mcp_tool_result_get_json (tool_result));
  else
    print_tool_result (tool_result);

  if (mcp_tool_result_get_is_error (tool_result))
    {
      print_failure (cli, _("the tool “%s” reported an error"), tool_name);
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
      return connection_failure (cli, _("ping failed"), error);
    }

  g_print (_("pong from %s in %lld ms\n"),
           server_name (cli), (long long) ((g_get_monotonic_time () - start) / 1000));

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
  fprintf (stderr, _("%s: warning: no Secret Service (keyring) answered; "
                     "sign-in tokens are kept in %s (readable only by you)\n"),
           PROGRAM_NAME, path ? path : _("a file"));
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
  const char *localedir;
  int status;

  setlocale (LC_ALL, "");
  g_set_print_handler (print_handler);
  g_set_printerr_handler (printerr_handler);
  g_log_set_writer_func (mcp_redact_log_writer, NULL, NULL);
  /* PLUGBOARD_LOCALEDIR runs a build tree's translations (build/po) without
   * installing them; tests use it. */
  localedir = g_getenv ("PLUGBOARD_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname (PROGRAM_NAME);

  /* Global options come before the command. */
  while (argc > 1 && g_str_equal (argv[1], "--interactive"))
    {
      cli.interactive_requested = TRUE;
      argv[1] = argv[0];
      argc--;
      argv++;
    }

  if (argc < 2)
    return usage_error (NULL, _("Missing command"));

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
    return usage_error (NULL, _("Unknown command “%s”"), argv[1]);

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
  /* A question cut short by Ctrl-C ends once its read is cancelled; the
   * sessions are closed, so nobody waits for the rest. */
  while (cli.dialog != NULL && g_main_context_iteration (NULL, FALSE))
    ;
  if (cli.dialogs != NULL)
    {
      Dialog *dialog;

      while ((dialog = g_queue_pop_head (cli.dialogs)) != NULL)
        dialog_drop (dialog);
      g_clear_pointer (&cli.dialogs, g_queue_free);
    }
  close_terminal (&cli);
  g_clear_object (&cli.cancellable);
  g_clear_pointer (&cli.common.server_argv, g_strfreev);
  g_clear_pointer (&cli.common.http_url, g_free);
  g_clear_pointer (&cli.common.sse_url, g_free);
  g_clear_pointer (&cli.common.ws_url, g_free);
  g_clear_pointer (&cli.common.headers, g_strfreev);
  g_clear_pointer (&cli.common.timeout_text, g_free);

  return status;
}
