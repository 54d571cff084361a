/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>
#include <gio/gio.h>

#include "mcp-redact.h"
#include "mcp-token-store.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: main, the table of verbs, usage, signals and waiting on
 * the main loop. Each verb runs on an McpProject (plugboard-cli-project.c):
 * the settings' servers, or one server given on the command line. */


static const PlugboardCliVerb verbs[] = {
  { "list", "",
    N_("List every configured server: scope, transport and state after connecting."), plugboard_cli_list },
  { "get", "NAME",
    N_("Show everything about one configured server (secret values masked)."), plugboard_cli_get },
  { "add", "NAME {-- COMMAND [ARG…] | URL}",
    N_("Add a server to the settings (default scope: local)."), plugboard_cli_add },
  { "add-json", "NAME JSON",
    N_("Add a server to the settings from its JSON entry."), plugboard_cli_add_json },
  { "remove", "NAME",
    N_("Remove a server from the settings."), plugboard_cli_remove },
  { "enable", "NAME",
    N_("Enable a server."), plugboard_cli_set_enabled },
  { "disable", "NAME",
    N_("Disable a server."), plugboard_cli_set_enabled },
  { "approve", "NAME",
    N_("Approve a project server (.mcp.json) so that it starts."), plugboard_cli_set_approval },
  { "reject", "NAME",
    N_("Reject a project server (.mcp.json): it does not start."), plugboard_cli_set_approval },
  { "reset-project-choices", "",
    N_("Forget every approval and rejection of the project servers (.mcp.json): "
    "each is asked about again."), plugboard_cli_reset_project_choices },
  { "import", "CLIENT [NAME…] [--all] [--dry-run]",
    N_("Import servers from another MCP client's settings (claude-desktop, claude-code, vscode, "
    "cursor); without NAME or --all, list them."), plugboard_cli_import },
  { "add-from-claude-desktop", "[NAME…] [--all] [--dry-run]",
    N_("The same as “import claude-desktop”."), plugboard_cli_import },
  { "clients", "[--all] [--json]",
    N_("List the MCP clients on this machine, their settings files and how many servers each has."),
    plugboard_cli_clients },
  { "copy", "{NAME | --all} --from CLIENT --to CLIENT[,CLIENT…] [--from-scope SCOPE] [--scope SCOPE] [--dry-run] [--replace]",
    N_("Copy servers from one client's settings to others', in each one's shape, showing each file's change first."),
    plugboard_cli_copy },
  { "registry", "search [TERM] | show NAME | install NAME [--client CLIENT] [--scope SCOPE] [--runner RUNNER] [--set NAME=VALUE…]",
    N_("Search the MCP Registry, show a server, or install one into a client's settings and connect it."),
    plugboard_cli_registry },
  { "tools", "[NAME] | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List the tools of the configured servers (or of NAME) with their permission, "
    "or of an ad-hoc server."), plugboard_cli_tools },
  { "call", "SERVER TOOL | TOOL {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Call TOOL of the configured SERVER (permission rules apply), "
    "or of an ad-hoc server."), plugboard_cli_call },
  { "app", "SERVER TOOL --save DIR | TOOL --save DIR {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Call a tool that has an interface (MCP Apps) and save the interface's HTML, its "
    "security policy and the call's input and result into DIR, for inspection."), plugboard_cli_app },
  { "ping", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Check that a configured server, or an ad-hoc one, answers."), plugboard_cli_ping },
  { "resources", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List the resources of a configured server, or of an ad-hoc one: URI, name, MIME type, "
    "description."),
    plugboard_cli_resources },
  { "templates", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List the resource templates of a configured server, or of an ad-hoc one."),
    plugboard_cli_templates },
  { "read", "NAME URI | URI {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Read a resource: text is printed, binary content saved to a file."), plugboard_cli_read },
  { "prompts", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List the prompts of a configured server, or of an ad-hoc one, with their arguments."),
    plugboard_cli_prompts },
  { "prompt", "NAME PROMPT [--arg NAME=VALUE…] | PROMPT [--arg NAME=VALUE…] {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Get a prompt's messages, filled in with the arguments."), plugboard_cli_prompt },
  { "complete", "NAME {--prompt PROMPT | --template URI-TEMPLATE} ARGUMENT [VALUE] | "
    "{--prompt PROMPT | --template URI-TEMPLATE} ARGUMENT [VALUE] {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Suggest values for an argument of a prompt or resource template "
    "(completion/complete), one a line."), plugboard_cli_complete },
  { "skills", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List the skills a server serves (Skills over MCP): name, description, URI, number of files. "
    "Nothing of a skill is read."), plugboard_cli_skills },
  { "skill", "NAME SKILL [--save DIR [--force]] | SKILL [--save DIR [--force]] {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Load a skill (its name or URI) and print its SKILL.md, verified against the server's entry "
    "(size, digest, frontmatter); --save writes it and every file of the skill, each verified, "
    "under DIR/NAME."), plugboard_cli_skill },
  { "subscribe", "NAME URI | URI {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Subscribe to a resource and print a line for each update until Ctrl-C."),
    plugboard_cli_subscribe },
  { "log-level", "NAME LEVEL | LEVEL {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Set the level of the log messages a server sends (logging/setLevel); "
    "with --follow, print them until Ctrl-C."), plugboard_cli_log_level },
  { "tasks", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("List a server's tasks (tasks/list): id, status, message, last update."), plugboard_cli_tasks },
  { "changes", "NAME [--since DATE] [--confirm TOOL]",
    N_("Show what changed in a server's tools, resources, prompts and instructions since the "
    "previous connection (or --since); --confirm a tool whose allow rule a change suspended."),
    plugboard_cli_changes },
  { "doctor", "NAME | {--http URL | --sse URL | --ws URL | -- COMMAND [ARG…]}",
    N_("Diagnose why a server fails: run the connection doctor's checks in order, each with "
    "what was seen and the fix."), plugboard_cli_doctor },
  { "login", "NAME",
    N_("Sign in to a configured remote server (OAuth): prints the URL, opens the browser "
    "($BROWSER, or the desktop's when there is a display) and waits for it."), plugboard_cli_login },
  { "logout", "NAME",
    N_("Sign out of a configured remote server: forget its tokens and registered client."),
    plugboard_cli_logout },
  { "secret", "set ID [--from-env VAR] | clear ID | list",
    N_("Keep a secret (a client secret, a private key) in the keyring for settings to refer to as "
    "${secret:ID}: typed without echo, else read from stdin; list shows IDs only."),
    plugboard_cli_secret },
  { "trace", "show FILE [--server NAME] [--kind KIND] [--errors] [--auth] [--full]",
    N_("Print a trace that --trace FILE wrote: every message, HTTP exchange, SSE event and "
    "stderr line, in order."), plugboard_cli_trace },
};

void
plugboard_cli_print_verb_usage (const PlugboardCliVerb *verb)
{
  if (verb != NULL)
    {
      fprintf (stderr,
               _("Usage: %s %s [OPTION…] %s\n"
                 "Try “%s %s --help” for more.\n"),
               PROGRAM_NAME, verb->name, verb->parameter_string,
               PROGRAM_NAME, verb->name);
      return;
    }

  /* TRANSLATORS: keep the command names, options and metavariables. */
  fprintf (stderr,
           _("Usage: %s [--interactive] [--trace FILE] COMMAND [OPTION…] [NAME…] [--project DIR] [--config-dir DIR]\n"
             "       %s COMMAND [OPTION…] -- SERVER-COMMAND [ARG…]\n"
             "       %s COMMAND [OPTION…] {--http URL | --sse URL | --ws URL} [--header 'NAME: VALUE']…\n"
             "         (the ad-hoc form of tools, call, app, ping, resources, templates, read, prompts,\n"
             "         prompt, complete, skills, skill, subscribe, log-level and tasks: no NAME)\n"
             "\n"
             "Commands:\n"),
           PROGRAM_NAME, PROGRAM_NAME, PROGRAM_NAME);
  /* Names longer than most (add-from-claude-desktop) get a line of their
   * own, so that the summaries stay in one column. */
  for (gsize i = 0; i < G_N_ELEMENTS (verbs); i++)
    {
      if (strlen (verbs[i].name) > 11)
        fprintf (stderr, "  %s\n  %-11s %s\n", verbs[i].name, "", _(verbs[i].summary));
      else
        fprintf (stderr, "  %-11s %s\n", verbs[i].name, _(verbs[i].summary));
    }
  fprintf (stderr,
           _("\n"
             "Options:\n"
             "  -h, --help     Show this help\n"
             "  --version      Show the version\n"
             "  --interactive  Answer the servers' sampling and elicitation requests on the\n"
             "                 terminal (only when stdin and stdout are one)\n"
             "  --trace FILE   Write what went over the wire with each server to FILE\n"
             "                 (JSON Lines, secrets masked); read it with “trace show”\n"
             "\n"
             "Try “%s COMMAND --help” for a command's options.\n"),
           PROGRAM_NAME);
}

G_GNUC_PRINTF (2, 3)
int
plugboard_cli_usage_error (const PlugboardCliVerb *verb,
                           const char             *format,
                           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr (PROGRAM_NAME ": %s\n", message);
  plugboard_cli_print_verb_usage (verb);

  return EXIT_USAGE;
}

/* A timeout the CLI takes from the environment must be a positive number
 * of milliseconds when its variable is set (the engine would ignore
 * anything else, or wait forever). The value is never shown: environment
 * values may be secrets. */
gboolean
plugboard_cli_check_limit (PlugboardCli *cli,
                           McpLimit      limit,
                           GError      **error)
{
  if (mcp_limits_get_environment_value (cli->limits, limit) == NULL ||
      (mcp_limits_get_override (cli->limits, limit) != NULL && mcp_limits_get (cli->limits, limit) > 0))
    return TRUE;

  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("The environment variable %s must be a positive number of milliseconds"),
               mcp_limit_get_variable (limit));
  return FALSE;
}

/* Waiting on the main loop */

void
plugboard_cli_store_result_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

void
plugboard_cli_wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
}

int
plugboard_cli_cancelled (PlugboardCli *cli)
{
  if (!cli->said_cancelled)
    plugboard_cli_print_failure (cli, _("cancelled"));
  cli->said_cancelled = TRUE;
  return EXIT_INTERRUPTED;
}

/* Signals */

static gboolean
on_signal_cb (gpointer user_data)
{
  PlugboardCli *cli = user_data;

  cli->n_signals++;
  if (cli->n_signals > 1)
    {
      /* The person insists: stop now, and take the servers with us. */
      plugboard_cli_kill_servers (cli);
      fflush (stdout);
      if (!cli->said_cancelled)
        {
          plugboard_cli_end_progress_line (cli);
          fprintf (stderr, "%s: %s\n", PROGRAM_NAME, _("cancelled"));
        }
      _exit (EXIT_INTERRUPTED);
    }

  cli->interrupted = TRUE;
  g_cancellable_cancel (cli->cancellable);

  return G_SOURCE_CONTINUE;
}

/* The token store says where the tokens went instead of the keyring. */
static void
on_token_fallback_used_cb (McpTokenStore *store,
                           PlugboardCli  *cli)
{
  g_autofree char *path = NULL;

  g_object_get (store, "fallback-path", &path, NULL);
  fflush (stdout);
  plugboard_cli_end_progress_line (cli);
  fprintf (stderr, _("%s: warning: no Secret Service (keyring) answered; "
                     "sign-in tokens are kept in %s (readable only by you)\n"),
           PROGRAM_NAME, path ? path : _("a file"));
  fflush (stderr);
}

/* The store's own message says the same as our warning line. */
static void
drop_log_cb (const char    *log_domain,
             GLogLevelFlags log_level,
             const char    *message,
             gpointer       user_data)
{
}

static void
cli_clear (PlugboardCli *cli)
{
  plugboard_cli_close_project (cli);
  fflush (stdout);

  /* A question cut short by Ctrl-C ends once its read is cancelled; the
   * sessions are closed, so nobody waits for the rest. */
  while (cli->dialog != NULL && g_main_context_iteration (NULL, FALSE))
    ;
  plugboard_cli_drop_dialogs (cli);
  plugboard_cli_close_terminal (cli);

  g_clear_object (&cli->cancellable);
  g_clear_object (&cli->limits);
  g_clear_pointer (&cli->project_opt, g_free);
  g_clear_pointer (&cli->config_dir_opt, g_free);
  g_clear_pointer (&cli->scope_opt, g_free);
  g_clear_pointer (&cli->client_opt, g_free);
  g_clear_pointer (&cli->server_argv, g_strfreev);
  g_clear_pointer (&cli->http_url, g_free);
  g_clear_pointer (&cli->sse_url, g_free);
  g_clear_pointer (&cli->ws_url, g_free);
  g_clear_pointer (&cli->headers, g_strfreev);
  g_clear_pointer (&cli->ad_hoc_words, g_free);
  g_clear_pointer (&cli->timeout_text, g_free);
  g_clear_object (&cli->trace_stream);
  g_clear_pointer (&cli->trace_path, g_free);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  PlugboardCli cli = { 0 };
  guint sigint_id, sigterm_id;
  const char *localedir;
  int status;

  setlocale (LC_ALL, "");
  plugboard_cli_install_print_handlers ();
  g_log_set_writer_func (mcp_redact_log_writer, NULL, NULL);
  /* PLUGBOARD_LOCALEDIR runs a build tree's translations (build/po) without
   * installing them; tests use it. */
  localedir = g_getenv ("PLUGBOARD_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname (PROGRAM_NAME);

  /* Global options come before the command. */
  while (argc > 1 && (g_str_equal (argv[1], "--interactive") || g_str_equal (argv[1], "--trace") ||
                      g_str_has_prefix (argv[1], "--trace=")))
    {
      guint used = 1;

      if (g_str_equal (argv[1], "--interactive"))
        cli.interactive_requested = TRUE;
      else
        {
          const char *path = g_str_has_prefix (argv[1], "--trace=") ? argv[1] + strlen ("--trace=") : argv[2];

          if (path == NULL || *path == '\0')
            return plugboard_cli_usage_error (NULL, _("--trace needs a file name"));
          if (cli.trace_stream != NULL)
            return plugboard_cli_usage_error (NULL, _("--trace is given twice"));
          if (!plugboard_cli_open_trace (&cli, path, &error))
            return plugboard_cli_usage_error (NULL, "%s", error->message);
          used = g_str_has_prefix (argv[1], "--trace=") ? 1 : 2;
        }
      argv[used] = argv[0];
      argc -= used;
      argv += used;
    }

  if (argc < 2)
    return plugboard_cli_usage_error (NULL, _("Missing command"));

  if (g_str_equal (argv[1], "--version"))
    {
      g_print (PROGRAM_NAME " %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      plugboard_cli_print_verb_usage (NULL);
      return 0;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (verbs); i++)
    {
      if (g_str_equal (argv[1], verbs[i].name))
        cli.verb = &verbs[i];
    }
  if (cli.verb == NULL)
    return plugboard_cli_usage_error (NULL, _("Unknown command “%s”"), argv[1]);

  /* The project's limits read it too; an unusable value is the person's
   * to fix. */
  cli.limits = mcp_limits_new (NULL);
  if (!plugboard_cli_check_limit (&cli, MCP_LIMIT_CONNECT_TIMEOUT, &error))
    {
      g_clear_object (&cli.limits);
      return plugboard_cli_usage_error (NULL, "%s", error->message);
    }

  cli.cancellable = g_cancellable_new ();
  cli.stderr_is_tty = isatty (STDERR_FILENO);

  g_log_set_handler ("mcp-token-store", G_LOG_LEVEL_MESSAGE, drop_log_cb, NULL);
  g_signal_connect (mcp_token_store_get_default (), "fallback-used",
                    G_CALLBACK (on_token_fallback_used_cb), &cli);

  sigint_id = g_unix_signal_add (SIGINT, on_signal_cb, &cli);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal_cb, &cli);

  /* The verb sees argv from its own name on. */
  status = cli.verb->run (&cli, argc - 1, argv + 1);

  cli_clear (&cli);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_signal_handlers_disconnect_by_data (mcp_token_store_get_default (), &cli);

  return status;
}
