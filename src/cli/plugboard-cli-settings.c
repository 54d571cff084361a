/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-permissions.h"
#include "mcp-redact.h"
#include "mcp-roots.h"
#include "mcp-server-config.h"
#include "mcp-server-connection.h"
#include "mcp-server-info.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "mcp-tool.h"
#include "mcp-tool-call.h"
#include "mcp-tool-pool.h"
#include "mcp-tool-result.h"
#include "mcp-url-policy.h"

#include "plugboard-cli-private.h"

/* The verbs on the person's settings: a thin front on McpSettings,
 * McpServerManager, McpToolPool, McpPermissions and the call pipeline. */

typedef struct
{
  Cli              *cli;

  /* Options */
  char             *project_opt;
  char             *config_dir_opt;
  char             *scope_opt;
  gboolean          json;

  /* Owned references */
  McpSettings      *settings;
  McpServerManager *manager;
  McpToolPool      *pool;
  GListStore       *selected;
  McpRoots         *roots;
} Ctx;

static void
ctx_clear (Ctx *ctx)
{
  g_clear_pointer (&ctx->project_opt, g_free);
  g_clear_pointer (&ctx->config_dir_opt, g_free);
  g_clear_pointer (&ctx->scope_opt, g_free);
  g_clear_object (&ctx->pool);
  g_clear_object (&ctx->selected);
  g_clear_object (&ctx->manager);
  g_clear_object (&ctx->roots);
  g_clear_object (&ctx->settings);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Ctx, ctx_clear)

/* One line of a table: every cell but the last padded to its column's
 * display width, two spaces between columns. */
static void
print_table_row (const int   *widths,
                 guint        n_cells,
                 const char **cells)
{
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; i < n_cells; i++)
    {
      if (i + 1 < n_cells)
        {
          g_autofree char *padded = pad_to_width (cells[i], widths[i]);

          g_string_append (line, padded);
          g_string_append (line, "  ");
        }
      else
        {
          g_autofree char *shown = cli_escape (cells[i]);

          g_string_append (line, shown);
        }
    }
  g_print ("%s\n", line->str);
}

static const char *
scope_name (McpConfigScope scope)
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

static gboolean
parse_scope (const char     *text,
             McpConfigScope *out_scope)
{
  static const McpConfigScope scopes[] = {
    MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_PROJECT, MCP_CONFIG_SCOPE_LOCAL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    {
      if (g_strcmp0 (text, scope_name (scopes[i])) == 0)
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
cli_is_ad_hoc (int    argc,
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

/* Options */

static const char *const settings_description = N_(
  "Settings: user <config-dir>/settings.json, project <project>/.mcp.json,\n"
  "local: the user file's projects[\"<project>\"]. Local wins over project over user.\n"
  "\n"
  "Ad-hoc servers (tools, call, ping): give the server instead of a name:\n"
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

static int
parse_settings_options (Ctx           *ctx,
                        GOptionEntry  *extra_entries,
                        gboolean       with_scope,
                        gboolean       with_json,
                        int           *argc,
                        char        ***argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const Subcommand *subcommand = ctx->cli->subcommand;
  g_autofree char *prgname = g_strdup_printf (PROGRAM_NAME " %s", subcommand->name);
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &ctx->project_opt,
      N_("The project directory (default: the current directory)"), N_("DIR") },
    { "config-dir", 0, 0, G_OPTION_ARG_FILENAME, &ctx->config_dir_opt,
      N_("The user settings directory (default: $XDG_CONFIG_HOME/plugboard)"), N_("DIR") },
    { "scope", 's', 0, G_OPTION_ARG_STRING, &ctx->scope_opt,
      N_("Which settings: user, project or local"), N_("SCOPE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &ctx->json, N_("Print JSON for machines on stdout"), NULL },
    { NULL }
  };

  if (!with_json)
    entries[3] = (GOptionEntry) { NULL };
  if (!with_scope)
    {
      entries[2] = entries[3];
      entries[3] = (GOptionEntry) { NULL };
    }

  g_set_prgname (prgname);
  context = g_option_context_new (subcommand->parameter_string);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, subcommand->summary);
  g_option_context_set_description (context, settings_description);
  if (extra_entries != NULL)
    g_option_context_add_main_entries (context, extra_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, &error))
    return usage_error (subcommand, "%s", error->message);

  if (ctx->scope_opt != NULL)
    {
      McpConfigScope scope;

      if (!parse_scope (ctx->scope_opt, &scope))
        return usage_error (subcommand, _("--scope must be user, project or local, not “%s”"),
                            ctx->scope_opt);
    }

  return 0;
}

static int
check_count (Ctx        *ctx,
             int         argc,
             char      **argv,
             int         min,
             int         max,
             const char *what)
{
  if (argc - 1 < min)
    return usage_error (ctx->cli->subcommand, _("Missing %s"), what);
  if (argc - 1 > max)
    return usage_error (ctx->cli->subcommand, _("Unexpected argument “%s”"), argv[max + 1]);
  return 0;
}

/* Loading */

static int
load_settings (Ctx *ctx)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *project = NULL;
  g_autofree char *config_dir = NULL;

  project = g_canonicalize_filename (ctx->project_opt ? ctx->project_opt : ".", cwd);
  if (!g_file_test (project, G_FILE_TEST_IS_DIR))
    return usage_error (ctx->cli->subcommand, _("--project %s: not a directory"), project);
  if (ctx->config_dir_opt != NULL)
    config_dir = g_canonicalize_filename (ctx->config_dir_opt, cwd);

  ctx->settings = mcp_settings_new (config_dir, project);
  mcp_settings_load_async (ctx->settings, ctx->cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_settings_load_finish (ctx->settings, result, &error))
    {
      if (ctx->cli->interrupted)
        return cancelled (ctx->cli);
      print_failure (ctx->cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  return 0;
}

/* A file that cannot be used at all (does not parse, not an object), or
 * NULL. Its message names the file, and the line and column. */
static const McpSettingsProblem *
find_file_problem (Ctx *ctx)
{
  GPtrArray *problems = mcp_settings_get_problems (ctx->settings);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      if (g_strcmp0 (problem->json_path, "$") == 0)
        return problem;
    }
  return NULL;
}

/* The verbs that act on what the settings say (permissions included) do
 * not go on with a file they cannot read. */
static int
refuse_broken_files (Ctx *ctx)
{
  const McpSettingsProblem *problem = find_file_problem (ctx);

  if (problem == NULL)
    return 0;
  print_failure (ctx->cli, "%s", problem->message);
  return EXIT_SETTINGS;
}

static gboolean
problem_is_about (const McpSettingsProblem *problem,
                  const char               *name)
{
  g_autofree char *dotted = g_strdup_printf (".%s", name);
  g_autofree char *quoted = g_strdup_printf ("[\"%s\"]", name);

  return problem->json_path != NULL &&
         (g_str_has_suffix (problem->json_path, dotted) ||
          g_str_has_suffix (problem->json_path, quoted));
}

static void
on_server_request_cb (McpServerConnection *connection,
                      const char          *method,
                      JsonObject          *params,
                      GTask               *reply,
                      gpointer             user_data)
{
  cli_answer_request (user_data, mcp_server_connection_get_name (connection), method, params, reply);
}

/* Connects @configs (NULL: every effective server) and waits until each
 * has settled. */
static int
connect_servers (Ctx        *ctx,
                 GListModel *configs)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  ctx->manager = mcp_server_manager_new ();
  ctx->pool = mcp_tool_pool_new (G_LIST_MODEL (ctx->manager));

  /* roots/list is always answered: the project folder, and the folders
   * the person added for the server (in the app). Sampling and elicitation
   * only with a person at the terminal; without, they are not declared. */
  ctx->roots = mcp_roots_new (mcp_settings_get_project_dir (ctx->settings));
  mcp_server_manager_set_roots (ctx->manager, ctx->roots);
  if (cli_is_interactive (ctx->cli))
    {
      g_autoptr(JsonObject) sampling = cli_sampling_capabilities ();
      g_autoptr(JsonObject) elicitation = cli_elicitation_capabilities ();

      mcp_server_manager_set_request_handler (ctx->manager, "sampling/createMessage", sampling,
                                              on_server_request_cb, ctx->cli, NULL);
      mcp_server_manager_set_request_handler (ctx->manager, "elicitation/create", elicitation,
                                              on_server_request_cb, ctx->cli, NULL);
    }
  mcp_server_manager_set_configs (ctx->manager,
                                  configs ? configs : mcp_settings_get_servers (ctx->settings));

  mcp_server_manager_wait_settled_async (ctx->manager, ctx->cli->cancellable,
                                         store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_server_manager_wait_settled_finish (ctx->manager, result, &error))
    {
      if (ctx->cli->interrupted)
        return cancelled (ctx->cli);
      print_failure (ctx->cli, "%s", error->message);
      return EXIT_CONNECTION;
    }
  return 0;
}

static McpServerConnection *
connect_one (Ctx             *ctx,
             McpServerConfig *config,
             int             *status)
{
  ctx->selected = g_list_store_new (MCP_TYPE_SERVER_CONFIG);

  g_list_store_append (ctx->selected, config);
  McpServerConnection *connection;

  *status = connect_servers (ctx, G_LIST_MODEL (ctx->selected));
  if (*status != 0)
    return NULL;
  connection = mcp_server_manager_lookup (ctx->manager, mcp_server_config_get_name (config));
  if (connection == NULL)
    {
      print_failure (ctx->cli, _("“%s” has no connection"), mcp_server_config_get_name (config));
      *status = EXIT_CONNECTION;
    }
  return connection;
}

static void
close_servers (Ctx *ctx)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (ctx->manager == NULL)
    return;

  mcp_server_manager_close_async (ctx->manager, NULL, store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_server_manager_close_finish (ctx->manager, result, &error))
    g_debug ("Closing the servers: %s", error->message);
}

static void
print_stderr_tail (McpServerConnection *connection)
{
  g_auto(GStrv) lines = mcp_server_connection_dup_stderr_tail (connection);
  guint n = lines ? g_strv_length (lines) : 0;
  guint first = n > 5 ? n - 5 : 0;

  if (n == 0)
    return;
  fputs (ngettext ("  The server's last line on stderr:\n",
                   "  The server's last lines on stderr:\n", n - first), stderr);
  for (guint i = first; i < n; i++)
    g_printerr ("    %s\n", lines[i]);
}

static McpApproval
connection_approval (Ctx                 *ctx,
                     McpServerConnection *connection)
{
  McpServerConfig *config = mcp_server_connection_get_config (connection);

  if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT)
    return MCP_APPROVAL_NOT_NEEDED;
  return mcp_settings_get_approval (ctx->settings, mcp_server_config_get_name (config));
}

/* What changed in the project server @name since it was approved, one
 * indented line each (masked, escaped), on @out; nothing when it did not. */
static void
print_approval_changes (Ctx        *ctx,
                        const char *name,
                        FILE       *out)
{
  g_auto(GStrv) changes = mcp_settings_dup_approval_changes (ctx->settings, name);

  for (guint i = 0; changes != NULL && changes[i] != NULL; i++)
    {
      g_autofree char *shown = cli_escape (changes[i]);

      fprintf (out, "    %s\n", shown);
    }
}

/* A one-line description of a connection's state, for list and get. */
static char *
describe_state (Ctx                 *ctx,
                McpServerConnection *connection)
{
  const char *name = mcp_server_connection_get_name (connection);
  const GError *error = mcp_server_connection_get_error (connection);
  McpServerState state = mcp_server_connection_get_state (connection);
  g_autofree char *reason = error ? one_line (error->message) : NULL;

  switch (state)
    {
    case MCP_SERVER_STATE_CONNECTED:
      {
        guint n = g_list_model_get_n_items (mcp_server_connection_get_tools (connection));

        return g_strdup_printf (ngettext ("connected (%u tool)", "connected (%u tools)", n), n);
      }
    case MCP_SERVER_STATE_FAILED:
      /* TRANSLATORS: a server's state in "plugboard-cli list"; %s is why. */
      return g_strdup_printf (_("failed: %s"), reason ? reason : _("no reason given"));
    case MCP_SERVER_STATE_NEEDS_AUTH:
      /* TRANSLATORS: a server's state in "plugboard-cli list" when it needs
       * "plugboard-cli login"; %s is what the server said. */
      return g_strdup_printf (_("needs-auth: %s"), reason ? reason : _("no reason given"));
    case MCP_SERVER_STATE_DISABLED:
      switch (connection_approval (ctx, connection))
        {
        case MCP_APPROVAL_PENDING:
          {
            g_autofree char *shown = cli_escape (name);

            return g_strdup_printf (_("disabled: approval pending (%s approve %s)"), PROGRAM_NAME, shown);
          }
        case MCP_APPROVAL_REJECTED:
          return g_strdup (_("disabled: rejected"));
        case MCP_APPROVAL_CHANGED:
          {
            g_autofree char *shown = cli_escape (name);

            /* TRANSLATORS: a server's state in "plugboard-cli list": what it runs is not what was approved */
            return g_strdup_printf (_("disabled: changed since approval (%s approve %s)"), PROGRAM_NAME, shown);
          }
        case MCP_APPROVAL_NOT_NEEDED:
        case MCP_APPROVAL_APPROVED:
        default:
          return g_strdup (_("disabled"));
        }
    case MCP_SERVER_STATE_PENDING:
    default:
      /* TRANSLATORS: a server's state in "plugboard-cli list": not connected yet. */
      return g_strdup (_("pending"));
    }
}

/* The exit status and one-line reason when @connection is not connected,
 * or 0. */
static int
require_connected (Ctx                 *ctx,
                   McpServerConnection *connection)
{
  const char *name = mcp_server_connection_get_name (connection);
  const GError *error = mcp_server_connection_get_error (connection);

  switch (mcp_server_connection_get_state (connection))
    {
    case MCP_SERVER_STATE_CONNECTED:
      return 0;

    case MCP_SERVER_STATE_DISABLED:
      switch (connection_approval (ctx, connection))
        {
        case MCP_APPROVAL_PENDING:
          print_failure (ctx->cli, _("“%s” is a project server (.mcp.json) not approved yet; "
                                     "approve it with “%s approve %s”"), name, PROGRAM_NAME, name);
          return EXIT_PERMISSION;
        case MCP_APPROVAL_REJECTED:
          print_failure (ctx->cli, _("“%s” is a project server (.mcp.json) that was rejected; "
                                     "approve it with “%s approve %s”"), name, PROGRAM_NAME, name);
          return EXIT_PERMISSION;
        case MCP_APPROVAL_CHANGED:
          print_failure (ctx->cli, _("“%s” is a project server (.mcp.json) that changed since it was "
                                     "approved, so it was not started; see what changed and approve "
                                     "it again with “%s approve %s”. What changed:"),
                         name, PROGRAM_NAME, name);
          print_approval_changes (ctx, name, stderr);
          return EXIT_PERMISSION;
        case MCP_APPROVAL_NOT_NEEDED:
        case MCP_APPROVAL_APPROVED:
        default:
          print_failure (ctx->cli, _("“%s” is disabled; enable it with “%s enable %s”"),
                         name, PROGRAM_NAME, name);
          return EXIT_CONNECTION;
        }

    case MCP_SERVER_STATE_NEEDS_AUTH:
      print_failure (ctx->cli, _("“%s” needs sign-in: %s (sign in with “%s login %s”)"),
                     name, error ? error->message : _("the server asked for authorization"),
                     PROGRAM_NAME, name);
      return EXIT_CONNECTION;

    case MCP_SERVER_STATE_FAILED:
    case MCP_SERVER_STATE_PENDING:
    default:
      print_failure (ctx->cli, _("could not connect to “%s”: %s"), name,
                     error ? error->message : _("it did not settle"));
      print_stderr_tail (connection);
      return EXIT_CONNECTION;
    }
}

static McpServerConfig *
lookup_or_fail (Ctx        *ctx,
                const char *name,
                int        *status)
{
  McpServerConfig *config = mcp_settings_lookup (ctx->settings, name);
  GPtrArray *problems = mcp_settings_get_problems (ctx->settings);

  *status = 0;
  if (config != NULL)
    return config;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      if (problem_is_about (problem, name))
        {
          print_failure (ctx->cli, "%s", problem->message);
          *status = EXIT_SETTINGS;
          return NULL;
        }
    }

  print_failure (ctx->cli, _("No MCP server named “%s” in the user, project or local settings (project %s)"),
                 name, mcp_settings_get_project_dir (ctx->settings));
  *status = EXIT_USAGE;
  return NULL;
}

/* list */

int
cmd_settings_list (Cli   *cli,
                   int    argc,
                   char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_auto(GStrv) pending = NULL;
  const McpSettingsProblem *file_problem;
  GListModel *servers, *shadowed;
  GPtrArray *problems;
  guint n_servers, n_shadowed;
  int widths[3];
  int status;

  if ((status = parse_settings_options (&ctx, NULL, FALSE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 0, 0, NULL)) != 0)
    return status;
  if ((status = load_settings (&ctx)) != 0)
    return status;

  servers = mcp_settings_get_servers (ctx.settings);
  shadowed = mcp_settings_get_shadowed (ctx.settings);
  n_servers = g_list_model_get_n_items (servers);
  n_shadowed = g_list_model_get_n_items (shadowed);

  status = connect_servers (&ctx, NULL);
  if (status != 0)
    {
      close_servers (&ctx);
      return status;
    }

  widths[0] = display_width (_("NAME"));
  widths[1] = display_width (_("SCOPE"));
  widths[2] = display_width (_("TRANSPORT"));
  for (guint i = 0; i < n_servers; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      widths[0] = MAX (widths[0], display_width (mcp_server_config_get_name (config)));
      widths[1] = MAX (widths[1], display_width (scope_name (mcp_server_config_get_scope (config))));
      widths[2] = MAX (widths[2], display_width (mcp_server_config_get_transport_name (config)));
    }
  for (guint j = 0; j < n_shadowed; j++)
    {
      g_autoptr(McpServerConfig) hidden = g_list_model_get_item (shadowed, j);

      widths[1] = MAX (widths[1], display_width (scope_name (mcp_server_config_get_scope (hidden))));
      widths[2] = MAX (widths[2], display_width (mcp_server_config_get_transport_name (hidden)));
    }

  if (n_servers == 0)
    g_print (_("No MCP servers configured.\n"));
  else
    print_table_row (widths, 4, (const char *[]) { _("NAME"), _("SCOPE"), _("TRANSPORT"), _("STATE") });

  for (guint i = 0; i < n_servers; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);
      const char *name = mcp_server_config_get_name (config);
      McpServerConnection *connection = mcp_server_manager_lookup (ctx.manager, name);
      g_autofree char *state = connection ? describe_state (&ctx, connection) : g_strdup (_("unknown"));

      print_table_row (widths, 4, (const char *[]) {
                         name, scope_name (mcp_server_config_get_scope (config)),
                         mcp_server_config_get_transport_name (config), state });

      for (guint j = 0; j < n_shadowed; j++)
        {
          g_autoptr(McpServerConfig) hidden = g_list_model_get_item (shadowed, j);
          g_autofree char *note = NULL;

          if (!g_str_equal (mcp_server_config_get_name (hidden), name))
            continue;
          /* TRANSLATORS: the last column of a server hidden by one of the
           * same name; %s is the scope that wins (user, project, local). */
          note = g_strdup_printf (_("shadowed by %s"),
                                  scope_name (mcp_server_config_get_scope (config)));
          print_table_row (widths, 4, (const char *[]) {
                             name, scope_name (mcp_server_config_get_scope (hidden)),
                             mcp_server_config_get_transport_name (hidden), note });
        }
    }

  pending = mcp_settings_dup_pending_approvals (ctx.settings);
  if (pending != NULL && pending[0] != NULL)
    {
      g_print (_("\nPending approval (%s):\n"),
               mcp_settings_get_file (ctx.settings, MCP_CONFIG_SCOPE_PROJECT));
      for (guint i = 0; pending[i] != NULL; i++)
        {
          g_autofree char *shown = cli_escape (pending[i]);

          g_print (_("  %s: %s approve %s  (or reject %s)\n"),
                   shown, PROGRAM_NAME, shown, shown);
          if (mcp_settings_get_approval (ctx.settings, pending[i]) == MCP_APPROVAL_CHANGED)
            {
              g_print (_("    changed since it was approved:\n"));
              print_approval_changes (&ctx, pending[i], stdout);
            }
        }
    }

  problems = mcp_settings_get_problems (ctx.settings);
  if (problems != NULL && problems->len > 0)
    {
      g_print (_("\nProblems:\n"));
      for (guint i = 0; i < problems->len; i++)
        {
          const McpSettingsProblem *problem = g_ptr_array_index (problems, i);
          g_autofree char *line = one_line (problem->message);

          g_print ("  %s\n", line);
        }
    }

  {
    const char * const *collisions = mcp_tool_pool_get_collisions (ctx.pool);

    for (guint i = 0; collisions != NULL && collisions[i] != NULL; i++)
      g_print (_("note: %s\n"), collisions[i]);
  }

  close_servers (&ctx);

  file_problem = find_file_problem (&ctx);
  if (file_problem != NULL)
    {
      print_failure (cli, "%s", file_problem->message);
      return EXIT_SETTINGS;
    }

  return 0;
}

/* get */

static void
print_strv_line (const char         *label,
                 const char * const *values,
                 char                separator)
{
  g_autoptr(GString) line = g_string_new (NULL);

  if (values == NULL || values[0] == NULL)
    return;

  for (guint i = 0; values[i] != NULL; i++)
    {
      /* Only the name: the value may be a secret. */
      const char *cut = strchr (values[i], separator);
      gsize len = cut ? (gsize) (cut - values[i]) : strlen (values[i]);

      g_autofree char *value_name = g_strndup (values[i], len);
      g_autofree char *shown = cli_escape (value_name);

      if (i > 0)
        g_string_append (line, ", ");
      g_string_append (line, shown);
      g_string_append (line, separator == '=' ? "=" MCP_REDACTED : ": " MCP_REDACTED);
    }
  g_print ("  %s: %s\n", label, line->str);
}

int
cmd_settings_get (Cli   *cli,
                  int    argc,
                  char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GString) shadows = g_string_new (NULL);
  g_autofree char *state = NULL;
  g_autofree char *shown_name = NULL;
  McpServerConnection *connection;
  McpServerConfig *config;
  const char *name;
  const char * const *args;
  const char *approval;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, FALSE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  name = argv[1];
  if ((status = load_settings (&ctx)) != 0)
    return status;
  if ((status = refuse_broken_files (&ctx)) != 0)
    return status;
  if ((config = lookup_or_fail (&ctx, name, &status)) == NULL)
    return status;

  connection = connect_one (&ctx, config, &status);
  if (status != 0)
    {
      close_servers (&ctx);
      return status;
    }

  for (McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL; ; scope--)
    {
      McpServerConfig *other = mcp_settings_lookup_in_scope (ctx.settings, name, scope);

      if (other != NULL && other != config && mcp_server_config_get_scope (config) != scope)
        g_string_append_printf (shadows, "%s%s", shadows->len ? ", " : "", scope_name (scope));
      if (scope == MCP_CONFIG_SCOPE_USER)
        break;
    }

  shown_name = cli_escape (name);
  g_print ("%s\n", shown_name);
  g_print (_("  scope: %s%s%s%s\n"), scope_name (mcp_server_config_get_scope (config)),
           shadows->len ? _(" (shadows ") : "", shadows->str, shadows->len ? ")" : "");
  g_print (_("  file: %s (%s)\n"), mcp_server_config_get_file (config),
           mcp_server_config_get_json_path (config));
  g_print (_("  transport: %s\n"), mcp_server_config_get_transport_name (config));
  if (mcp_server_config_get_command (config) != NULL)
    {
      g_autofree char *shown = cli_escape (mcp_server_config_get_command (config));

      g_print (_("  command: %s\n"), shown);
    }
  args = mcp_server_config_get_args (config);
  if (args != NULL && args[0] != NULL)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      for (guint i = 0; args[i] != NULL; i++)
        {
          g_autofree char *quoted = g_shell_quote (args[i]);
          gboolean plain = *args[i] != '\0' && strpbrk (args[i], " \t\n'\"\\$`") == NULL;

          g_autofree char *shown = cli_escape (plain ? args[i] : quoted);

          g_string_append_printf (line, "%s%s", i ? " " : "", shown);
        }
      g_print (_("  args: %s\n"), line->str);
    }
  if (mcp_server_config_get_cwd (config) != NULL)
    {
      g_autofree char *shown = cli_escape (mcp_server_config_get_cwd (config));

      g_print (_("  cwd: %s\n"), shown);
    }
  print_strv_line ("env", mcp_server_config_get_env (config), '=');
  if (mcp_server_config_get_url (config) != NULL)
    {
      g_autofree char *redacted = mcp_redact_url (mcp_server_config_get_url (config));
      g_autofree char *shown = cli_escape (redacted);

      g_print (_("  url: %s\n"), shown);
    }
  print_strv_line ("headers", mcp_server_config_get_headers (config), ':');
  if (mcp_server_config_get_oauth (config) != NULL)
    g_print (_("  oauth: configured\n"));
  if (mcp_server_config_get_connect_timeout (config) > 0)
    g_print (_("  timeout: %u ms\n"), mcp_server_config_get_connect_timeout (config));
  if (mcp_server_config_get_tool_timeout (config) > 0)
    g_print (_("  tool timeout: %u ms\n"), mcp_server_config_get_tool_timeout (config));
  g_print (_("  enabled: %s\n"), mcp_server_config_get_enabled (config) ? _("yes") : _("no"));
  switch (mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT
          ? mcp_settings_get_approval (ctx.settings, name) : MCP_APPROVAL_NOT_NEEDED)
    {
    case MCP_APPROVAL_PENDING:
      approval = _("pending");
      break;
    case MCP_APPROVAL_APPROVED:
      approval = _("approved");
      break;
    case MCP_APPROVAL_REJECTED:
      approval = _("rejected");
      break;
    case MCP_APPROVAL_CHANGED:
      approval = _("changed since approval (it does not start until approved again)");
      break;
    case MCP_APPROVAL_NOT_NEEDED:
    default:
      approval = _("not needed (not a project server)");
      break;
    }
  g_print (_("  approval: %s\n"), approval);
  print_approval_changes (&ctx, name, stdout);

  state = connection ? describe_state (&ctx, connection) : g_strdup (_("unknown"));
  g_print (_("  state: %s\n"), state);
  if (connection != NULL && mcp_server_connection_get_client (connection) != NULL)
    {
      McpClient *client = mcp_server_connection_get_client (connection);
      const char *version = mcp_client_get_protocol_version (client);

      /* TRANSLATORS: the protocol version, then how it works: "stateless"
       * (2026-07-28 and later: no handshake) or "handshake" (initialize and
       * a session, up to 2025-11-25). */
      g_print (_("  protocol: %s (%s)\n"), version != NULL ? version : "?",
               mcp_client_get_era (client) == MCP_PROTOCOL_ERA_MODERN ? _("stateless") : _("handshake"));
    }
  if (connection != NULL)
    g_print (_("  tools: %u\n"), g_list_model_get_n_items (mcp_server_connection_get_tools (connection)));

  close_servers (&ctx);
  return 0;
}

/* Writing */

static int
write_result (Ctx          *ctx,
              GAsyncResult *result,
              gboolean      ok,
              GError       *error)
{
  if (ok)
    return 0;
  if (ctx->cli->interrupted)
    return cancelled (ctx->cli);
  print_failure (ctx->cli, "%s", error->message);
  return EXIT_SETTINGS;
}

/* Checks @object as a server entry before anything is written. */
static int
check_entry (Ctx            *ctx,
             const char     *name,
             McpConfigScope  scope,
             JsonObject     *object)
{
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = g_strdup_printf ("$.mcpServers.%s", name);

  if (*name == '\0')
    return usage_error (ctx->cli->subcommand, _("The server's name must not be empty"));

  config = mcp_server_config_new_from_json (name, scope, object, _("the new entry"), where, &error);
  if (config == NULL)
    return usage_error (ctx->cli->subcommand, "%s", error->message);
  return 0;
}

static int
add_entry (Ctx        *ctx,
           const char *name,
           JsonObject *object)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  gboolean ok;
  int status;

  if (ctx->scope_opt != NULL)
    parse_scope (ctx->scope_opt, &scope);
  if ((status = check_entry (ctx, name, scope, object)) != 0)
    return status;
  if ((status = load_settings (ctx)) != 0)
    return status;

  mcp_settings_add_server_async (ctx->settings, name, scope, object,
                                 ctx->cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  ok = mcp_settings_add_server_finish (ctx->settings, result, &error);
  if ((status = write_result (ctx, result, ok, error)) != 0)
    return status;

  g_print (_("Added “%s” to the %s settings (%s)\n"), name, scope_name (scope),
           mcp_settings_get_file (ctx->settings, scope));
  if (scope == MCP_CONFIG_SCOPE_PROJECT &&
      mcp_settings_get_approval (ctx->settings, name) == MCP_APPROVAL_PENDING)
    g_print (_("It starts once approved: %s approve %s\n"), PROGRAM_NAME, name);
  return 0;
}

int
cmd_settings_add (Cli   *cli,
                  int    argc,
                  char **argv)
{
  static const char *http_schemes[] = { "http", "https", NULL };
  static const char *ws_schemes[] = { "ws", "wss", NULL };
  g_auto(Ctx) ctx = { .cli = cli };
  g_auto(GStrv) server_argv = NULL;
  g_auto(GStrv) env = NULL;
  g_auto(GStrv) headers = NULL;
  g_autofree char *transport = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  GOptionEntry entries[] = {
    { "transport", 't', 0, G_OPTION_ARG_STRING, &transport,
      N_("stdio (with -- COMMAND), http, sse or ws (with URL)"), N_("KIND") },
    { "env", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &env,
      N_("Set an environment variable for a stdio server (repeatable)"), N_("NAME=VALUE") },
    { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, &headers,
      N_("Send this HTTP header to a remote server (repeatable)"), N_("'NAME: VALUE'") },
    { NULL }
  };
  const char *name;
  int status;

  split_server_command (&argc, argv, &server_argv);
  if ((status = parse_settings_options (&ctx, entries, TRUE, FALSE, &argc, &argv)) != 0)
    return status;

  if (server_argv != NULL)
    {
      g_autoptr(JsonArray) args = json_array_new ();

      if ((status = check_count (&ctx, argc, argv, 1, 1, _("the name of the server"))) != 0)
        return status;
      if (server_argv[0] == NULL || server_argv[0][0] == '\0')
        return usage_error (cli->subcommand, _("No server command: give it after “--”"));
      if (transport != NULL && !g_str_equal (transport, "stdio"))
        return usage_error (cli->subcommand, _("--transport %s takes a URL, not a command after “--”"),
                            transport);
      if (headers != NULL)
        return usage_error (cli->subcommand, _("--header is for http, sse and ws servers"));

      json_object_set_string_member (object, "type", "stdio");
      json_object_set_string_member (object, "command", server_argv[0]);
      for (guint i = 1; server_argv[i] != NULL; i++)
        json_array_add_string_element (args, server_argv[i]);
      json_object_set_array_member (object, "args", g_steal_pointer (&args));

      if (env != NULL)
        {
          JsonObject *env_object = json_object_new ();

          json_object_set_object_member (object, "env", env_object);
          for (guint i = 0; env[i] != NULL; i++)
            {
              const char *equal = strchr (env[i], '=');
              g_autofree char *key = NULL;

              if (equal == NULL || equal == env[i])
                {
                  /* Only the start: the value may be a secret. */
                  g_autofree char *start = g_strndup (env[i], MIN (strcspn (env[i], "="), 40));

                  return usage_error (cli->subcommand, _("--env “%s…” is not of the form NAME=VALUE"), start);
                }
              key = g_strndup (env[i], equal - env[i]);
              json_object_set_string_member (env_object, key, equal + 1);
            }
        }
    }
  else
    {
      const char *url;
      g_autofree char *problem = NULL;

      if ((status = check_count (&ctx, argc, argv, 2, 2,
                                 argc - 1 < 1 ? _("the name of the server")
                                              : _("the server's URL, or its command after “--”"))) != 0)
        return status;
      url = argv[2];
      if (transport == NULL)
        transport = g_strdup (g_str_has_prefix (url, "ws:") || g_str_has_prefix (url, "wss:") ? "ws" : "http");
      if (!g_str_equal (transport, "http") && !g_str_equal (transport, "sse") &&
          !g_str_equal (transport, "ws"))
        return usage_error (cli->subcommand, _("--transport must be http, sse or ws with a URL%s"),
                            g_str_equal (transport, "stdio") ? _(" (a stdio server's command goes after “--”)") : "");
      if (env != NULL)
        return usage_error (cli->subcommand, _("--env is for stdio servers"));
      problem = check_url ("URL", url, g_str_equal (transport, "ws") ? ws_schemes : http_schemes);
      if (problem != NULL)
        return usage_error (cli->subcommand, "%s", problem);

      json_object_set_string_member (object, "type", transport);
      json_object_set_string_member (object, "url", url);
      if (headers != NULL)
        {
          JsonObject *headers_object = json_object_new ();

          json_object_set_object_member (object, "headers", headers_object);
          for (guint i = 0; headers[i] != NULL; i++)
            {
              const char *colon = strchr (headers[i], ':');
              g_autofree char *key = NULL;
              g_autofree char *value = NULL;

              if (!header_is_valid (headers[i]))
                {
                  g_autofree char *start = g_strndup (headers[i], MIN (strcspn (headers[i], ": \t"), 40));

                  return usage_error (cli->subcommand,
                                      _("--header “%s…” is not of the form 'Name: value'"), start);
                }
              key = g_strndup (headers[i], colon - headers[i]);
              value = g_strstrip (g_strdup (colon + 1));
              json_object_set_string_member (headers_object, key, value);
            }
        }
    }

  name = argv[1];
  return add_entry (&ctx, name, object);
}

int
cmd_settings_add_json (Cli   *cli,
                       int    argc,
                       char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, TRUE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 2, 2,
                             argc - 1 < 1 ? _("the name of the server") : _("the server's JSON"))) != 0)
    return status;

  root = mcp_json_parse (argv[2], strlen (argv[2]), &error);
  if (root == NULL)
    return usage_error (cli->subcommand, _("JSON is not valid: %s"), error->message);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return usage_error (cli->subcommand, _("JSON must be an object (one server's entry)"));

  return add_entry (&ctx, argv[1], json_node_get_object (root));
}

/* The scope of @name to edit: --scope, or the only one it is in (@effective:
 * or the effective one). */
static int
choose_scope (Ctx            *ctx,
              const char     *name,
              gboolean        effective,
              McpConfigScope *out_scope)
{
  static const McpConfigScope scopes[] = {
    MCP_CONFIG_SCOPE_LOCAL, MCP_CONFIG_SCOPE_PROJECT, MCP_CONFIG_SCOPE_USER,
  };
  g_autoptr(GString) found = g_string_new (NULL);
  guint n = 0;

  if (ctx->scope_opt != NULL)
    {
      parse_scope (ctx->scope_opt, out_scope);
      if (mcp_settings_lookup_in_scope (ctx->settings, name, *out_scope) == NULL)
        {
          int status = refuse_broken_files (ctx);

          if (status != 0)
            return status;
          print_failure (ctx->cli, _("No MCP server named “%s” in the %s settings (%s)"),
                         name, ctx->scope_opt, mcp_settings_get_file (ctx->settings, *out_scope));
          return EXIT_USAGE;
        }
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    {
      if (mcp_settings_lookup_in_scope (ctx->settings, name, scopes[i]) != NULL)
        {
          if (n == 0)
            *out_scope = scopes[i];
          g_string_append_printf (found, "%s%s", n ? _(" and ") : "", scope_name (scopes[i]));
          n++;
        }
    }

  if (n == 0)
    {
      int status;

      lookup_or_fail (ctx, name, &status);
      return status;
    }
  if (n > 1 && !effective)
    {
      print_failure (ctx->cli, _("“%s” is in the %s settings; say which with --scope"), name, found->str);
      return EXIT_USAGE;
    }
  return 0;
}

int
cmd_settings_remove (Cli   *cli,
                     int    argc,
                     char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  gboolean ok;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, TRUE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (&ctx)) != 0)
    return status;
  if ((status = choose_scope (&ctx, argv[1], FALSE, &scope)) != 0)
    return status;

  mcp_settings_remove_server_async (ctx.settings, argv[1], scope, cli->cancellable,
                                    store_result_cb, &result);
  wait_for_result (&result);
  ok = mcp_settings_remove_server_finish (ctx.settings, result, &error);
  if ((status = write_result (&ctx, result, ok, error)) != 0)
    return status;

  g_print (_("Removed “%s” from the %s settings (%s)\n"), argv[1], scope_name (scope),
           mcp_settings_get_file (ctx.settings, scope));
  return 0;
}

static int
set_enabled (Cli       *cli,
             int        argc,
             char     **argv,
             gboolean   enabled)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  gboolean ok;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, TRUE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (&ctx)) != 0)
    return status;
  if ((status = choose_scope (&ctx, argv[1], TRUE, &scope)) != 0)
    return status;

  mcp_settings_set_server_enabled_async (ctx.settings, argv[1], scope, enabled,
                                         cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  ok = mcp_settings_set_server_enabled_finish (ctx.settings, result, &error);
  if ((status = write_result (&ctx, result, ok, error)) != 0)
    return status;

  /* A project server is switched in your local settings, not in .mcp.json. */
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    scope = MCP_CONFIG_SCOPE_LOCAL;
  g_print (_("%s “%s” in the %s settings (%s)\n"), enabled ? _("Enabled") : _("Disabled"), argv[1],
           scope_name (scope), mcp_settings_get_file (ctx.settings, scope));
  if (enabled && mcp_settings_get_approval (ctx.settings, argv[1]) == MCP_APPROVAL_PENDING)
    g_print (_("It starts once approved: %s approve %s\n"), PROGRAM_NAME, argv[1]);
  return 0;
}

int
cmd_settings_enable (Cli   *cli,
                     int    argc,
                     char **argv)
{
  return set_enabled (cli, argc, argv, TRUE);
}

int
cmd_settings_disable (Cli   *cli,
                      int    argc,
                      char **argv)
{
  return set_enabled (cli, argc, argv, FALSE);
}

static int
set_approval (Cli      *cli,
              int       argc,
              char    **argv,
              gboolean  approved)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, FALSE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (&ctx)) != 0)
    return status;
  if (mcp_settings_lookup_in_scope (ctx.settings, argv[1], MCP_CONFIG_SCOPE_PROJECT) == NULL)
    {
      if ((status = refuse_broken_files (&ctx)) != 0)
        return status;
      print_failure (cli, _("No project server named “%s” in %s"), argv[1],
                     mcp_settings_get_file (ctx.settings, MCP_CONFIG_SCOPE_PROJECT));
      return EXIT_USAGE;
    }

  /* What is approved is what was loaded: the person sees what changed
   * before the new digest is bound. */
  if (approved && mcp_settings_get_approval (ctx.settings, argv[1]) == MCP_APPROVAL_CHANGED)
    {
      g_autofree char *shown = cli_escape (argv[1]);

      g_print (_("“%s” changed since it was approved:\n"), shown);
      print_approval_changes (&ctx, argv[1], stdout);
    }

  mcp_settings_set_approval_async (ctx.settings, argv[1], approved, cli->cancellable,
                                   store_result_cb, &result);
  wait_for_result (&result);
  ok = mcp_settings_set_approval_finish (ctx.settings, result, &error);
  if ((status = write_result (&ctx, result, ok, error)) != 0)
    return status;

  g_print (_("%s the project server “%s” (kept in %s)\n"), approved ? _("Approved") : _("Rejected"),
           argv[1], mcp_settings_get_file (ctx.settings, MCP_CONFIG_SCOPE_LOCAL));
  return 0;
}

int
cmd_settings_approve (Cli   *cli,
                      int    argc,
                      char **argv)
{
  return set_approval (cli, argc, argv, TRUE);
}

int
cmd_settings_reject (Cli   *cli,
                     int    argc,
                     char **argv)
{
  return set_approval (cli, argc, argv, FALSE);
}

/* tools */

/* The app makes its evaluator the same way (mcp_permissions_new_from_settings()). */
static McpPermissions *
new_permissions (Ctx *ctx)
{
  return mcp_permissions_new_from_settings (ctx->settings);
}

static char *
hints_text (McpPoolTool *tool)
{
  g_autoptr(GPtrArray) hints = g_ptr_array_new ();

  if (mcp_pool_tool_get_read_only (tool))
    g_ptr_array_add (hints, (char *) "read-only");
  if (mcp_pool_tool_get_destructive (tool))
    g_ptr_array_add (hints, (char *) "destructive");
  if (mcp_pool_tool_get_idempotent (tool))
    g_ptr_array_add (hints, (char *) "idempotent");
  if (mcp_pool_tool_get_open_world (tool))
    g_ptr_array_add (hints, (char *) "open-world");
  g_ptr_array_add (hints, NULL);

  if (hints->len == 1)
    return g_strdup (_("none"));
  return g_strjoinv (", ", (char **) hints->pdata);
}

int
cmd_settings_tools (Cli   *cli,
                    int    argc,
                    char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(McpPermissions) permissions = NULL;
  g_autoptr(JsonArray) array = json_array_new ();
  const char *name = NULL;
  gboolean first = TRUE;
  guint n_connections;
  guint n_tools;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, FALSE, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 0, 1, NULL)) != 0)
    return status;
  name = argc > 1 ? argv[1] : NULL;
  if ((status = load_settings (&ctx)) != 0)
    return status;
  if ((status = refuse_broken_files (&ctx)) != 0)
    return status;

  if (name != NULL)
    {
      McpServerConfig *config = lookup_or_fail (&ctx, name, &status);
      McpServerConnection *connection;

      if (config == NULL)
        return status;
      connection = connect_one (&ctx, config, &status);
      if (status == 0 && connection != NULL)
        status = require_connected (&ctx, connection);
    }
  else
    {
      status = connect_servers (&ctx, NULL);
    }
  if (status != 0)
    {
      close_servers (&ctx);
      return status;
    }

  permissions = new_permissions (&ctx);

  /* Why a server's tools are missing, without hiding the rest. */
  n_connections = g_list_model_get_n_items (G_LIST_MODEL (ctx.manager));
  for (guint i = 0; name == NULL && i < n_connections; i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (G_LIST_MODEL (ctx.manager), i);
      McpServerState state = mcp_server_connection_get_state (connection);

      if (state == MCP_SERVER_STATE_FAILED || state == MCP_SERVER_STATE_NEEDS_AUTH)
        {
          g_autofree char *text = describe_state (&ctx, connection);
          g_autofree char *shown = cli_escape (mcp_server_connection_get_name (connection));

          g_printerr (_("note: “%s”: %s\n"), shown, text);
        }
    }
  {
    const char * const *collisions = mcp_tool_pool_get_collisions (ctx.pool);
    const char * const *notes = mcp_permissions_get_notes (permissions);

    for (guint i = 0; collisions != NULL && collisions[i] != NULL; i++)
      g_printerr (_("note: %s\n"), collisions[i]);
    for (guint i = 0; notes[i] != NULL; i++)
      g_printerr (_("note: %s\n"), notes[i]);
  }

  n_tools = g_list_model_get_n_items (G_LIST_MODEL (ctx.pool));
  for (guint i = 0; i < n_tools; i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (G_LIST_MODEL (ctx.pool), i);
      const char *qualified = mcp_pool_tool_get_qualified_name (tool);
      const char *display = mcp_pool_tool_get_display_name (tool);
      const char *description = mcp_pool_tool_get_description (tool);
      McpPermissionDecision decision = { 0 };
      McpTool *mcp_tool = mcp_pool_tool_get_tool (tool);

      mcp_permissions_decide_tool (permissions, tool, &decision);

      if (ctx.json)
        {
          JsonObject *object = json_object_new ();

          json_object_set_string_member (object, "name", qualified);
          json_object_set_string_member (object, "server", mcp_pool_tool_get_server_name (tool));
          json_object_set_string_member (object, "tool", mcp_tool_get_name (mcp_tool));
          json_object_set_string_member (object, "title", display);
          if (description != NULL)
            json_object_set_string_member (object, "description", description);
          json_object_set_boolean_member (object, "readOnly", mcp_pool_tool_get_read_only (tool));
          json_object_set_boolean_member (object, "destructive", mcp_pool_tool_get_destructive (tool));
          json_object_set_boolean_member (object, "idempotent", mcp_pool_tool_get_idempotent (tool));
          json_object_set_boolean_member (object, "openWorld", mcp_pool_tool_get_open_world (tool));
          json_object_set_string_member (object, "permission", mcp_permission_to_string (decision.permission));
          json_object_set_string_member (object, "reason", mcp_permission_reason_to_string (decision.reason));
          if (decision.rule != NULL)
            json_object_set_string_member (object, "rule", decision.rule);
          else
            json_object_set_null_member (object, "rule");
          json_object_set_object_member (object, "definition",
                                         json_object_ref (mcp_tool_get_json (mcp_tool)));
          json_array_add_object_element (array, object);
          continue;
        }

      {
        g_autofree char *hints = hints_text (tool);
        g_autofree char *title = one_line (display);
        g_autofree char *shown = cli_escape (qualified);

        if (!first)
          g_print ("\n");
        first = FALSE;
        if (g_strcmp0 (display, mcp_tool_get_name (mcp_tool)) != 0)
          g_print ("%s (%s)\n", shown, title);
        else
          g_print ("%s\n", shown);
        g_print (_("  hints: %s%s\n"), hints,
                 mcp_tool_get_annotations (mcp_tool) == NULL ? _(" (defaults, none declared)") : "");
        if (decision.rule != NULL)
          g_print (_("  permission: %s (rule %s)\n"), mcp_permission_to_string (decision.permission),
                   decision.rule);
        else
          {
            g_autofree char *why = mcp_permission_decision_describe (&decision);

            g_print (_("  permission: %s (%s)\n"), mcp_permission_to_string (decision.permission), why);
          }
        if (description != NULL && *description != '\0')
          {
            const char *start = description;
            const char *end;
            g_autofree char *line = NULL;

            while (*start == '\n' || *start == ' ')
              start++;
            end = strchr (start, '\n');
            line = end ? g_strndup (start, end - start) : g_strdup (start);
            g_strchomp (line);
            if (*line != '\0')
              g_print ("  %s\n", line);
          }
      }
    }

  if (ctx.json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      json_node_set_array (node, array);
      print_json (node);
    }
  else if (n_tools == 0)
    {
      g_print (_("No tools%s.\n"),
               g_list_model_get_n_items (mcp_settings_get_servers (ctx.settings)) == 0
                 ? _(" (no MCP servers configured)") : "");
    }

  close_servers (&ctx);
  return 0;
}

/* call */

typedef struct
{
  Ctx      *ctx;
  gboolean  yes;
  /* The task's last status line, so that each is shown once. */
  char     *task_line;
} CallHandlers;

typedef struct
{
  GTask *answer;
  Cli   *cli;
} PendingAnswer;

static void
on_answer_line_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PendingAnswer *pending = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = cli_read_line_finish (pending->cli, result, &error);
  if (error != NULL)
    g_task_return_error (pending->answer, g_steal_pointer (&error));
  else
    {
      if (line != NULL)
        g_strstrip (line);
      g_task_return_boolean (pending->answer,
                             line != NULL && (g_ascii_strcasecmp (line, "y") == 0 ||
                                              g_ascii_strcasecmp (line, "yes") == 0));
    }

  g_object_unref (pending->answer);
  g_free (pending);
}

static gboolean
have_terminal (void)
{
  return isatty (STDIN_FILENO) && isatty (STDERR_FILENO);
}

/* One line from the terminal, on the main loop: the servers' requests go
 * on being answered while the person thinks. */
static void
read_answer (Cli   *cli,
             GTask *answer)
{
  PendingAnswer *pending = g_new0 (PendingAnswer, 1);

  pending->answer = answer;
  pending->cli = cli;
  cli_read_line_async (cli, g_task_get_cancellable (answer), on_answer_line_cb, pending);
}

static void
ask_cb (McpPoolTool *tool,
        JsonObject  *arguments,
        const char  *rule,
        GTask       *answer,
        gpointer     user_data)
{
  CallHandlers *handlers = user_data;
  const char *name = mcp_pool_tool_get_qualified_name (tool);

  if (handlers->yes)
    {
      g_task_return_boolean (answer, TRUE);
      g_object_unref (answer);
      return;
    }

  /* Nobody to ask: no terminal, or output for a program (--json). */
  if (!have_terminal () || handlers->ctx->json)
    {
      g_autofree char *why = rule ? g_strdup_printf (_("the rule “%s” asks"), rule)
                                  : g_strdup (_("no permission rule allows it"));

      if (handlers->ctx->json && have_terminal ())
        g_task_return_new_error (answer, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                 _("%s, and --json asks no questions; run again with --yes to allow it"),
                                 why);
      else
        g_task_return_new_error (answer, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                 _("%s, and there is no terminal to ask on; run again with --yes to allow it"),
                                 why);
      g_object_unref (answer);
      return;
    }

  fflush (stdout);
  end_progress_line (handlers->ctx->cli);
  g_printerr (_("Allow %s? [y/N] "), name);
  read_answer (handlers->ctx->cli, answer);
}

static void
open_url_cb (McpPoolTool *tool,
             const char  *url,
             const char  *message,
             GTask       *done,
             gpointer     user_data)
{
  CallHandlers *handlers = user_data;
  g_autofree char *text = message ? one_line (message) : NULL;
  g_autofree char *host = NULL;
  g_autoptr(GError) error = NULL;

  fflush (stdout);
  /* The URL policy: a refused address is declined, with the reason. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &error))
    {
      g_autofree char *tool_name = mcp_escape_controls (mcp_pool_tool_get_qualified_name (tool),
                                                        MCP_ESCAPE_DEFAULT);

      /* Translators: the first %s is a tool's name, the second why the address it gave is refused */
      g_printerr (_("%s asks you to open an address, declined: %s\n"), tool_name, error->message);
      g_task_return_boolean (done, FALSE);
      g_object_unref (done);
      return;
    }

  /* Translators: the first %s is a tool's name, the second an address, the
   * third its host, the rest the tool's message */
  g_printerr (_("%s asks you to open %s (at %s)%s%s\n"), mcp_pool_tool_get_qualified_name (tool), url,
              host, text ? ": " : "", text ? text : "");
  if (!have_terminal ())
    {
      g_task_return_boolean (done, FALSE);
      g_object_unref (done);
      return;
    }

  fprintf (stderr, _("Done there? [y/N] "));
  fflush (stderr);
  read_answer (handlers->ctx->cli, done);
}

static void
call_progress_cb (double      progress,
                  double      total,
                  const char *message,
                  gpointer    user_data)
{
  CallHandlers *handlers = user_data;

  show_progress (handlers->ctx->cli, progress, total, message);
}

static void
call_task_cb (McpPoolTool *tool,
              McpTask     *task,
              gpointer     user_data)
{
  CallHandlers *handlers = user_data;

  print_task_status (handlers->ctx->cli, task, &handlers->task_line);
}

static McpPoolTool *
find_pool_tool (Ctx        *ctx,
                const char *server,
                const char *tool_name)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (ctx->pool));

  if (g_str_has_prefix (tool_name, "mcp__"))
    {
      McpPoolTool *tool = mcp_tool_pool_lookup (ctx->pool, tool_name);

      if (tool != NULL && g_str_equal (mcp_pool_tool_get_server_name (tool), server))
        return g_object_ref (tool);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (G_LIST_MODEL (ctx->pool), i);

      if (g_str_equal (mcp_pool_tool_get_server_name (tool), server) &&
          g_str_equal (mcp_tool_get_name (mcp_pool_tool_get_tool (tool)), tool_name))
        return g_steal_pointer (&tool);
    }

  return NULL;
}

int
cmd_settings_call (Cli   *cli,
                   int    argc,
                   char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autofree char *args_text = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(McpPermissions) permissions = NULL;
  g_autoptr(McpPoolTool) tool = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  McpServerConnection *connection;
  McpServerConfig *config;
  CallHandlers handlers = { &ctx, FALSE, NULL };
  McpToolCallHandlers call_handlers = { 0 };
  gboolean yes = FALSE;
  gboolean as_task = FALSE;
  GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &args_text, N_("The tool's arguments, a JSON object"), N_("JSON") },
    { "yes", 'y', 0, G_OPTION_ARG_NONE, &yes, N_("Answer yes when the permission rules ask"), NULL },
    { "task", 0, 0, G_OPTION_ARG_NONE, &as_task,
      N_("Run the tool as a task when it may run either way (execution.taskSupport "
      "“optional”; a “required” one always is); Ctrl-C cancels the task"), NULL },
    { "interactive", 0, 0, G_OPTION_ARG_NONE, &cli->interactive_requested,
      N_("Answer the server's sampling and elicitation requests on the terminal"), NULL },
    { NULL }
  };
  const char *server, *tool_name;
  McpToolResult *tool_result;
  const char * const *files;
  const char * const *notes;
  FILE *extra;
  int status;

  if ((status = parse_settings_options (&ctx, entries, FALSE, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 2, 2,
                             argc - 1 < 1 ? _("the name of the server") : _("the name of the tool to call"))) != 0)
    return status;
  server = argv[1];
  tool_name = argv[2];
  handlers.yes = yes;

  if (args_text != NULL)
    {
      g_autoptr(JsonNode) root = mcp_json_parse (args_text, strlen (args_text), &error);

      if (root == NULL)
        return usage_error (cli->subcommand, _("--args is not valid JSON: %s"), error->message);
      if (!JSON_NODE_HOLDS_OBJECT (root))
        return usage_error (cli->subcommand, _("--args must be a JSON object, not %s"),
                            JSON_NODE_HOLDS_ARRAY (root) ? _("an array") :
                            JSON_NODE_HOLDS_NULL (root) ? "null" : _("a single value"));
      arguments = json_node_dup_object (root);
    }

  if ((status = load_settings (&ctx)) != 0)
    return status;
  if ((status = refuse_broken_files (&ctx)) != 0)
    return status;
  if ((config = lookup_or_fail (&ctx, server, &status)) == NULL)
    return status;

  connection = connect_one (&ctx, config, &status);
  if (status == 0 && connection != NULL)
    status = require_connected (&ctx, connection);
  if (status != 0)
    {
      close_servers (&ctx);
      return status;
    }

  tool = find_pool_tool (&ctx, server, tool_name);
  if (tool == NULL)
    {
      print_failure (cli, _("“%s” has no tool “%s” (see “%s tools %s”)"),
                     server, tool_name, PROGRAM_NAME, server);
      close_servers (&ctx);
      return EXIT_CONNECTION;
    }

  if (as_task &&
      g_strcmp0 (mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool)), "optional") != 0 &&
      g_strcmp0 (mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool)), "required") != 0)
    {
      print_failure (cli, _("%s cannot run as a task (its execution.taskSupport is “%s”); "
                     "call it without --task"),
                     mcp_pool_tool_get_qualified_name (tool),
                     mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool)));
      close_servers (&ctx);
      return EXIT_USAGE;
    }

  permissions = new_permissions (&ctx);
  call_handlers.ask_func = ask_cb;
  call_handlers.open_url_func = open_url_cb;
  call_handlers.progress_func = call_progress_cb;
  call_handlers.task_func = call_task_cb;
  call_handlers.data = &handlers;
  call_handlers.as_task = as_task;
  mcp_tool_call_run_async (tool, arguments, permissions, &call_handlers,
                           cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  processed = mcp_tool_call_finish (result, &error);
  end_progress_line (cli);
  g_clear_pointer (&handlers.task_line, g_free);

  if (processed == NULL)
    {
      if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        status = cancelled (cli);
      else if (g_error_matches (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED))
        {
          print_failure (cli, "%s", error->message);
          status = EXIT_PERMISSION;
        }
      else
        {
          print_failure (cli, _("calling “%s” failed: %s"),
                         mcp_pool_tool_get_qualified_name (tool), error->message);
          print_stderr_tail (connection);
          status = EXIT_CONNECTION;
        }
      close_servers (&ctx);
      return status;
    }

  tool_result = mcp_processed_result_get_result (processed);
  if (ctx.json)
    print_json_object (mcp_tool_result_get_json (tool_result));
  else
    print_tool_result (tool_result);

  /* With --json, stdout is the result alone. */
  extra = ctx.json ? stderr : stdout;
  files = mcp_processed_result_get_files (processed);
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    print_to (extra, _("saved: %s\n"), files[i]);
  notes = mcp_processed_result_get_notes (processed);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    print_to (extra, _("note: %s\n"), notes[i]);

  close_servers (&ctx);

  if (mcp_tool_result_get_is_error (tool_result))
    {
      print_failure (cli, _("the tool “%s” reported an error"), mcp_pool_tool_get_qualified_name (tool));
      return EXIT_TOOL_ERROR;
    }
  return 0;
}

/* ping */

int
cmd_settings_ping (Cli   *cli,
                   int    argc,
                   char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;
  McpServerConfig *config;
  McpClient *client;
  gint64 start;
  int status;

  if ((status = parse_settings_options (&ctx, NULL, FALSE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = check_count (&ctx, argc, argv, 1, 1,
                             _("the name of the server (or the server itself: see --help)"))) != 0)
    return status;
  if ((status = load_settings (&ctx)) != 0)
    return status;
  if ((status = refuse_broken_files (&ctx)) != 0)
    return status;
  if ((config = lookup_or_fail (&ctx, argv[1], &status)) == NULL)
    return status;

  connection = connect_one (&ctx, config, &status);
  if (status == 0 && connection != NULL)
    status = require_connected (&ctx, connection);
  if (status != 0)
    {
      close_servers (&ctx);
      return status;
    }

  client = mcp_server_connection_get_client (connection);
  start = g_get_monotonic_time ();
  mcp_client_ping_async (client, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_client_ping_finish (client, result, &error))
    {
      if (cli->interrupted)
        status = cancelled (cli);
      else
        {
          print_failure (cli, _("ping failed: %s"), error->message);
          status = EXIT_CONNECTION;
        }
    }
  else
    {
      g_print (_("pong from %s in %lld ms\n"), argv[1],
               (long long) ((g_get_monotonic_time () - start) / 1000));
    }

  close_servers (&ctx);
  return status;
}

/* resources, templates, read, prompts, prompt, log-level, tasks */

/* Loads the settings and connects the server @name alone: 0 and the
 * connection, or the exit status after saying why. */
static int
open_server (Ctx                  *ctx,
             const char           *name,
             McpServerConnection **out_connection)
{
  McpServerConfig *config;
  McpServerConnection *connection;
  int status;

  *out_connection = NULL;
  if ((status = load_settings (ctx)) != 0)
    return status;
  if ((status = refuse_broken_files (ctx)) != 0)
    return status;
  if ((config = lookup_or_fail (ctx, name, &status)) == NULL)
    return status;

  connection = connect_one (ctx, config, &status);
  if (status == 0 && connection != NULL)
    status = require_connected (ctx, connection);
  if (status != 0)
    {
      close_servers (ctx);
      return status;
    }

  *out_connection = connection;
  return 0;
}

/* A request that failed: Ctrl-C (130), the server's refusal, a JSON-RPC
 * error (1: it answered, with a no), or a broken connection (3). */
static int
request_failure (Ctx                 *ctx,
                 McpServerConnection *connection,
                 const char          *doing,
                 const GError        *error)
{
  if (ctx->cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return cancelled (ctx->cli);

  print_failure (ctx->cli, "%s: %s", doing, error->message);
  if (error->domain == MCP_JSONRPC_ERROR)
    return EXIT_TOOL_ERROR;
  if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED) &&
      !g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT))
    print_stderr_tail (connection);
  return EXIT_CONNECTION;
}

/* The first words of a verb on one server: NAME, then @n_more arguments. */
static int
start_server_verb (Ctx                  *ctx,
                   GOptionEntry         *entries,
                   gboolean              with_json,
                   int                  *argc,
                   char               ***argv,
                   int                   n_more,
                   const char           *what_more)
{
  int status;

  if ((status = parse_settings_options (ctx, entries, FALSE, with_json, argc, argv)) != 0)
    return status;
  return check_count (ctx, *argc, *argv, 1 + n_more, 1 + n_more,
                      *argc - 1 < 1 ? _("the name of the server") : what_more);
}

/* Whether the server's initialize declared @capability (e.g. "resources"),
 * and, with @member, that member of it (e.g. "tasks" "list"). */
static gboolean
server_declares (McpServerConnection *connection,
                 const char          *capability,
                 const char          *member)
{
  McpClient *client = mcp_server_connection_get_client (connection);
  McpServerInfo *info = client ? mcp_client_get_server_info (client) : NULL;
  JsonObject *capabilities = info ? mcp_server_info_get_capabilities (info) : NULL;
  JsonNode *node = capabilities ? json_object_get_member (capabilities, capability) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  return member == NULL || json_object_has_member (json_node_get_object (node), member);
}

/* What an empty listing means: none, or nothing offered at all. */
static void
print_none (McpServerConnection *connection,
            const char          *what,
            const char          *capability,
            const char          *member)
{
  const char *name = mcp_server_connection_get_name (connection);

  if (server_declares (connection, capability, member))
    g_print (_("“%s” lists no %s.\n"), name, what);
  else
    g_print (_("“%s” does not offer %s (its capabilities do not declare “%s%s%s”).\n"),
             name, what, capability, member ? "." : "", member ? member : "");
}

static void
print_description (const char *indent,
                   const char *description)
{
  g_autofree char *line = NULL;

  if (description == NULL || *description == '\0')
    return;
  line = one_line (description);
  g_strstrip (line);
  if (*line != '\0')
    g_print ("%s%s\n", indent, line);
}

static void
print_json_objects (GListModel *model,
                    JsonObject *(*get_json) (gpointer item))
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonArray) array = json_array_new ();
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      json_array_add_object_element (array, json_object_ref (get_json (item)));
    }
  json_node_set_array (node, array);
  print_json (node);
}

int
cmd_settings_resources (Cli   *cli,
                        int    argc,
                        char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  McpServerConnection *connection;
  GListModel *resources;
  guint n;
  int status;

  if ((status = start_server_verb (&ctx, NULL, TRUE, &argc, &argv, 0, NULL)) != 0)
    return status;
  if ((status = open_server (&ctx, argv[1], &connection)) != 0)
    return status;

  /* The connection lists every page when it connects. */
  resources = mcp_server_connection_get_resources (connection);
  n = g_list_model_get_n_items (resources);
  if (ctx.json)
    print_json_objects (resources, (JsonObject *(*) (gpointer)) mcp_resource_get_json);
  else if (n == 0)
    print_none (connection, _("resources"), "resources", NULL);

  for (guint i = 0; !ctx.json && i < n; i++)
    {
      g_autoptr(McpResource) resource = g_list_model_get_item (resources, i);
      const char *title = mcp_resource_get_title (resource);
      const char *mime_type = mcp_resource_get_mime_type (resource);
      gint64 size = mcp_resource_get_size (resource);
      g_autofree char *uri = cli_escape (mcp_resource_get_uri (resource));
      g_autofree char *name = cli_escape (mcp_resource_get_name (resource));
      g_autofree char *type = mime_type ? cli_escape (mime_type) : NULL;

      if (i > 0)
        g_print ("\n");
      g_print ("%s\n", uri);
      if (title != NULL && g_strcmp0 (title, mcp_resource_get_name (resource)) != 0)
        {
          g_autofree char *line = one_line (title);

          g_print (_("  name: %s (%s)\n"), name, line);
        }
      else
        g_print (_("  name: %s\n"), name);
      g_print (_("  mimeType: %s\n"), type ? type : _("not given"));
      if (size >= 0)
        g_print (_("  size: %lld bytes\n"), (long long) size);
      print_description ("  ", mcp_resource_get_description (resource));
    }

  close_servers (&ctx);
  return 0;
}

int
cmd_settings_templates (Cli   *cli,
                        int    argc,
                        char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  McpServerConnection *connection;
  GListModel *templates;
  guint n;
  int status;

  if ((status = start_server_verb (&ctx, NULL, TRUE, &argc, &argv, 0, NULL)) != 0)
    return status;
  if ((status = open_server (&ctx, argv[1], &connection)) != 0)
    return status;

  templates = mcp_server_connection_get_resource_templates (connection);
  n = g_list_model_get_n_items (templates);
  if (ctx.json)
    print_json_objects (templates, (JsonObject *(*) (gpointer)) mcp_resource_template_get_json);
  else if (n == 0)
    print_none (connection, _("resource templates"), "resources", NULL);

  for (guint i = 0; !ctx.json && i < n; i++)
    {
      g_autoptr(McpResourceTemplate) template = g_list_model_get_item (templates, i);
      const char *title = mcp_resource_template_get_title (template);
      const char *mime_type = mcp_resource_template_get_mime_type (template);
      g_autofree char *uri = cli_escape (mcp_resource_template_get_uri_template (template));
      g_autofree char *name = cli_escape (mcp_resource_template_get_name (template));
      g_autofree char *type = mime_type ? cli_escape (mime_type) : NULL;

      if (i > 0)
        g_print ("\n");
      g_print ("%s\n", uri);
      if (title != NULL && g_strcmp0 (title, mcp_resource_template_get_name (template)) != 0)
        {
          g_autofree char *line = one_line (title);

          g_print (_("  name: %s (%s)\n"), name, line);
        }
      else
        g_print (_("  name: %s\n"), name);
      if (type != NULL)
        g_print (_("  mimeType: %s\n"), type);
      print_description ("  ", mcp_resource_template_get_description (template));
    }

  close_servers (&ctx);
  return 0;
}

/* "everything-resource": what the saved files of a read are called. */
static char *
file_name_for (const char *server,
               const char *what)
{
  g_autoptr(GString) name = g_string_new (NULL);

  for (const char *p = server; *p != '\0'; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '_');
  g_string_append_printf (name, "-%s", what);
  return g_string_free (g_steal_pointer (&name), FALSE);
}

int
cmd_settings_read (Cli   *cli,
                   int    argc,
                   char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) processed_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(McpToolResult) as_result = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autofree char *doing = NULL;
  g_autofree char *file_name = NULL;
  McpServerConnection *connection;
  McpClient *client;
  const char * const *notes;
  GPtrArray *blocks;
  FILE *extra;
  const char *uri;
  int status;

  if ((status = start_server_verb (&ctx, NULL, TRUE, &argc, &argv, 1, _("the URI of the resource"))) != 0)
    return status;
  uri = argv[2];
  if ((status = open_server (&ctx, argv[1], &connection)) != 0)
    return status;

  doing = g_strdup_printf (_("reading %s from “%s” failed"), uri, argv[1]);
  client = mcp_server_connection_get_client (connection);
  mcp_client_read_resource_async (client, uri, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  contents = mcp_client_read_resource_finish (client, result, &error);
  if (contents == NULL)
    {
      status = request_failure (&ctx, connection, doing, error);
      close_servers (&ctx);
      return status;
    }

  /* The contents go through what a tool's result goes through, so that a
   * blob is saved the same way and in the same place. */
  for (guint i = 0; i < contents->len; i++)
    json_array_add_object_element (array,
                                   json_object_ref (mcp_content_get_json (g_ptr_array_index (contents, i))));
  json_object_set_array_member (object, "content", json_array_ref (array));
  as_result = mcp_tool_result_new_from_json (object, &error);
  if (as_result != NULL)
    {
      file_name = file_name_for (argv[1], "resource");
      mcp_tool_result_process_async (as_result, file_name, NULL, 0, cli->cancellable,
                                     store_result_cb, &processed_result);
      wait_for_result (&processed_result);
      processed = mcp_tool_result_process_finish (processed_result, &error);
    }
  if (processed == NULL)
    {
      status = cli->interrupted ? cancelled (cli) : EXIT_CONNECTION;
      if (!cli->interrupted)
        print_failure (cli, "%s: %s", doing, error->message);
      close_servers (&ctx);
      return status;
    }

  if (ctx.json)
    {
      g_autoptr(JsonObject) read_result = json_object_new ();

      json_object_set_array_member (read_result, "contents", json_array_ref (array));
      print_json_object (read_result);
    }

  /* Text as it is, so that `read NAME URI > FILE` gives the text; a URI
   * line before each only when there are several. */
  blocks = mcp_tool_result_get_content (mcp_processed_result_get_result (processed));
  for (guint i = 0; !ctx.json && i < blocks->len; i++)
    {
      McpContent *block = g_ptr_array_index (blocks, i);
      const char *file = mcp_processed_result_get_file_for_content (processed, i);
      const char *text = mcp_content_get_text (block);

      if (blocks->len > 1)
        g_print ("%s%s (%s):\n", i > 0 ? "\n" : "",
                 mcp_content_get_uri (block) ? mcp_content_get_uri (block) : uri,
                 mcp_content_get_mime_type (block) ? mcp_content_get_mime_type (block) : _("no MIME type"));
      if (text != NULL)
        {
          gsize len = strlen (text);
          const char *end = len == 0 || text[len - 1] != '\n' ? "\n" : "";

          /* On a terminal, escaped like everything else. */
          if (isatty (STDOUT_FILENO))
            g_print ("%s%s", text, end);
          else
            {
              fputs (text, stdout);
              fputs (end, stdout);
            }
        }
      else if (file != NULL)
        g_print (_("saved: %s\n"), file);
      else
        print_content_block (block);
    }

  extra = ctx.json ? stderr : stdout;
  if (ctx.json)
    {
      const char * const *files = mcp_processed_result_get_files (processed);

      for (guint i = 0; files != NULL && files[i] != NULL; i++)
        print_to (extra, _("saved: %s\n"), files[i]);
    }
  notes = mcp_processed_result_get_notes (processed);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    print_to (extra, _("note: %s\n"), notes[i]);

  close_servers (&ctx);
  return 0;
}

static McpPrompt *
find_prompt (McpServerConnection *connection,
             const char          *name)
{
  GListModel *prompts = mcp_server_connection_get_prompts (connection);

  for (guint i = 0; i < g_list_model_get_n_items (prompts); i++)
    {
      g_autoptr(McpPrompt) prompt = g_list_model_get_item (prompts, i);

      if (g_str_equal (mcp_prompt_get_name (prompt), name))
        return g_steal_pointer (&prompt);
    }
  return NULL;
}

static const char *
prompt_argument_description (McpPrompt *prompt,
                             guint      index)
{
  JsonNode *node = json_array_get_element (mcp_prompt_get_arguments (prompt), index);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_get_string_member_with_default (json_node_get_object (node), "description", NULL);
}

int
cmd_settings_prompts (Cli   *cli,
                      int    argc,
                      char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  McpServerConnection *connection;
  GListModel *prompts;
  guint n;
  int status;

  if ((status = start_server_verb (&ctx, NULL, TRUE, &argc, &argv, 0, NULL)) != 0)
    return status;
  if ((status = open_server (&ctx, argv[1], &connection)) != 0)
    return status;

  prompts = mcp_server_connection_get_prompts (connection);
  n = g_list_model_get_n_items (prompts);
  if (ctx.json)
    print_json_objects (prompts, (JsonObject *(*) (gpointer)) mcp_prompt_get_json);
  else if (n == 0)
    print_none (connection, _("prompts"), "prompts", NULL);

  for (guint i = 0; !ctx.json && i < n; i++)
    {
      g_autoptr(McpPrompt) prompt = g_list_model_get_item (prompts, i);
      const char *title = mcp_prompt_get_title (prompt);
      guint n_arguments = mcp_prompt_get_n_arguments (prompt);
      g_autofree char *name = cli_escape (mcp_prompt_get_name (prompt));

      if (i > 0)
        g_print ("\n");
      if (title != NULL && g_strcmp0 (title, mcp_prompt_get_name (prompt)) != 0)
        {
          g_autofree char *line = one_line (title);

          g_print ("%s (%s)\n", name, line);
        }
      else
        g_print ("%s\n", name);
      print_description ("  ", mcp_prompt_get_description (prompt));
      if (n_arguments == 0)
        g_print (_("  arguments: none\n"));
      else
        g_print (_("  arguments (* required):\n"));
      for (guint j = 0; j < n_arguments; j++)
        {
          const char *description = prompt_argument_description (prompt, j);
          g_autofree char *line = description ? one_line (description) : NULL;
          g_autofree char *argument = cli_escape (mcp_prompt_get_argument_name (prompt, j));

          g_print ("    %s%s%s%s\n", argument,
                   mcp_prompt_get_argument_required (prompt, j) ? "*" : "",
                   line && *line ? " — " : "", line && *line ? line : "");
        }
    }

  close_servers (&ctx);
  return 0;
}

/* "[2] user, resource demo://…, text/plain:" and the content under it. */
static void
print_prompt_message (guint       index,
                      const char *role,
                      McpContent *block)
{
  g_autofree char *type = mcp_content_get_type_name (block)
                          ? cli_escape (mcp_content_get_type_name (block)) : NULL;
  g_autofree char *uri = mcp_content_get_uri (block) ? cli_escape (mcp_content_get_uri (block)) : NULL;
  g_autofree char *mime_type = mcp_content_get_mime_type (block)
                               ? cli_escape (mcp_content_get_mime_type (block)) : NULL;
  g_autofree char *role_shown = cli_escape (role ? role : "?");

  g_print ("%s[%u] %s, %s%s%s%s%s:\n", index > 1 ? "\n" : "", index, role_shown,
           type ? type : _("content"),
           uri ? " " : "", uri ? uri : "",
           mime_type ? ", " : "", mime_type ? mime_type : "");

  switch (mcp_content_get_kind (block))
    {
    case MCP_CONTENT_TEXT:
      {
        const char *text = mcp_content_get_text (block);
        gsize len = text ? strlen (text) : 0;

        g_print ("%s%s", text ? text : "", len == 0 || text[len - 1] != '\n' ? "\n" : "");
      }
      break;

    case MCP_CONTENT_RESOURCE:
      if (mcp_content_get_text (block) != NULL)
        {
          const char *text = mcp_content_get_text (block);
          gsize len = strlen (text);

          g_print ("%s%s", text, len == 0 || text[len - 1] != '\n' ? "\n" : "");
        }
      else
        {
          g_autoptr(GBytes) data = mcp_content_get_data (block, NULL);

          /* The header line has said the URI and the type already. */
          g_print (_("%lu bytes of binary content\n"),
                   (unsigned long) (data ? g_bytes_get_size (data) : 0));
        }
      break;

    case MCP_CONTENT_IMAGE:
    case MCP_CONTENT_AUDIO:
    case MCP_CONTENT_RESOURCE_LINK:
    case MCP_CONTENT_UNKNOWN:
    default:
      print_content_block (block);
      break;
    }
}

int
cmd_settings_prompt (Cli   *cli,
                     int    argc,
                     char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_auto(GStrv) args = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(McpPrompt) prompt = NULL;
  g_autoptr(McpPromptResult) prompt_result = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  GOptionEntry entries[] = {
    { "arg", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &args,
      N_("An argument of the prompt (repeatable)"), N_("NAME=VALUE") },
    { NULL }
  };
  const char *server, *name;
  int status;

  if ((status = start_server_verb (&ctx, entries, TRUE, &argc, &argv, 1, _("the name of the prompt"))) != 0)
    return status;
  server = argv[1];
  name = argv[2];

  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      const char *equals = strchr (args[i], '=');
      g_autofree char *key = NULL;

      if (equals == NULL || equals == args[i])
        return usage_error (cli->subcommand, _("--arg “%s” is not of the form NAME=VALUE"), args[i]);
      key = g_strndup (args[i], equals - args[i]);
      if (json_object_has_member (arguments, key))
        return usage_error (cli->subcommand, _("--arg %s is given twice"), key);
      json_object_set_string_member (arguments, key, equals + 1);
    }

  if ((status = open_server (&ctx, server, &connection)) != 0)
    return status;

  prompt = find_prompt (connection, name);
  if (prompt == NULL)
    {
      print_failure (cli, _("“%s” has no prompt “%s” (see “%s prompts %s”)"),
                     server, name, PROGRAM_NAME, server);
      close_servers (&ctx);
      return EXIT_CONNECTION;
    }

  /* The arguments are checked against the listing before anything is
   * asked of the server. */
  {
    GList *members = json_object_get_members (arguments);
    g_autoptr(GString) missing = g_string_new (NULL);
    g_autoptr(GString) known = g_string_new (NULL);
    const char *unknown = NULL;

    for (guint j = 0; j < mcp_prompt_get_n_arguments (prompt); j++)
      {
        const char *argument = mcp_prompt_get_argument_name (prompt, j);

        g_string_append_printf (known, "%s%s", known->len ? ", " : "", argument);
        if (mcp_prompt_get_argument_required (prompt, j) &&
            !json_object_has_member (arguments, argument))
          g_string_append_printf (missing, "%s--arg %s=VALUE", missing->len ? ", " : "", argument);
      }
    for (GList *l = members; l != NULL && unknown == NULL; l = l->next)
      {
        gboolean found = FALSE;

        for (guint j = 0; j < mcp_prompt_get_n_arguments (prompt); j++)
          if (g_str_equal (mcp_prompt_get_argument_name (prompt, j), l->data))
            found = TRUE;
        if (!found)
          unknown = l->data;
      }

    if (missing->len > 0 || unknown != NULL)
      {
        if (unknown != NULL)
          print_failure (cli, _("the prompt “%s” of “%s” has no argument “%s” (it takes %s)"),
                         name, server, unknown, known->len ? known->str : _("none"));
        else
          print_failure (cli, _("the prompt “%s” of “%s” needs %s"), name, server, missing->str);
        g_list_free (members);
        close_servers (&ctx);
        return EXIT_USAGE;
      }
    g_list_free (members);
  }

  doing = g_strdup_printf (_("getting the prompt “%s” of “%s” failed"), name, server);
  client = mcp_server_connection_get_client (connection);
  mcp_client_get_prompt_async (client, name, arguments, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  prompt_result = mcp_client_get_prompt_finish (client, result, &error);
  if (prompt_result == NULL)
    {
      status = request_failure (&ctx, connection, doing, error);
      close_servers (&ctx);
      return status;
    }

  if (ctx.json)
    print_json_object (mcp_prompt_result_get_json (prompt_result));
  else
    {
      const char *description = mcp_prompt_result_get_description (prompt_result);

      if (description != NULL && *description != '\0')
        {
          g_autofree char *line = one_line (description);

          g_print ("%s\n\n", line);
        }
      for (guint i = 0; i < mcp_prompt_result_get_n_messages (prompt_result); i++)
        print_prompt_message (i + 1, mcp_prompt_result_get_role (prompt_result, i),
                              mcp_prompt_result_get_content (prompt_result, i));
    }

  close_servers (&ctx);
  return 0;
}

/* log-level */

typedef struct
{
  Cli      *cli;
  gboolean  closed;
} Follow;

static void
on_follow_log_message_cb (McpClient  *client,
                          const char *level,
                          const char *logger,
                          JsonNode   *data,
                          Follow     *follow)
{
  g_autofree char *text = NULL;
  g_autofree char *level_shown = cli_escape (level ? level : "?");
  g_autofree char *logger_shown = logger ? cli_escape (logger) : NULL;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (data));
  else if (data != NULL)
    text = json_to_string (data, FALSE);

  g_print ("%s%s%s: %s\n", level_shown,
           logger ? " " : "", logger ? logger_shown : "", text ? text : "");
  fflush (stdout);
}

static void
on_follow_closed_cb (McpClient    *client,
                     const GError *reason,
                     Follow       *follow)
{
  follow->closed = TRUE;
}

int
cmd_settings_log_level (Cli   *cli,
                        int    argc,
                        char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  gboolean follow_opt = FALSE;
  GOptionEntry entries[] = {
    { "follow", 'f', 0, G_OPTION_ARG_NONE, &follow_opt,
      N_("Then print the server's log messages (“level logger: data”) until Ctrl-C"), NULL },
    { NULL }
  };
  const char * const *levels = mcp_client_get_log_levels ();
  const char *server, *level;
  int status;

  if ((status = start_server_verb (&ctx, entries, FALSE, &argc, &argv, 1,
                                   _("the log level (debug, info, notice, warning, error, "
                                   "critical, alert or emergency)"))) != 0)
    return status;
  server = argv[1];
  level = argv[2];

  if (!g_strv_contains (levels, level))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) levels);

      return usage_error (cli->subcommand, _("“%s” is not a log level; the levels are %s"), level, list);
    }

  if ((status = open_server (&ctx, server, &connection)) != 0)
    return status;

  doing = g_strdup_printf (_("setting the log level of “%s” failed"), server);
  mcp_server_connection_set_log_level_async (connection, level, cli->cancellable,
                                             store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_server_connection_set_log_level_finish (connection, result, &error))
    {
      status = request_failure (&ctx, connection, doing, error);
      close_servers (&ctx);
      return status;
    }

  if (!follow_opt)
    {
      g_print (_("“%s” now sends log messages of level %s and above.\n"), server, level);
      close_servers (&ctx);
      return 0;
    }

  {
    Follow follow = { cli, FALSE };

    g_printerr (_("Following the log messages of “%s” (level %s and above); Ctrl-C stops.\n"),
                server, level);
    client = mcp_server_connection_get_client (connection);
    g_signal_connect (client, "log-message", G_CALLBACK (on_follow_log_message_cb), &follow);
    g_signal_connect (client, "closed", G_CALLBACK (on_follow_closed_cb), &follow);
    while (!cli->interrupted && !follow.closed)
      g_main_context_iteration (NULL, TRUE);
    g_signal_handlers_disconnect_by_data (client, &follow);

    if (!cli->interrupted)
      {
        const GError *reason = mcp_server_connection_get_error (connection);

        print_failure (cli, _("“%s” closed the session%s%s"), server,
                       reason ? ": " : "", reason ? reason->message : "");
        print_stderr_tail (connection);
        close_servers (&ctx);
        return EXIT_CONNECTION;
      }
  }

  /* Ctrl-C is how following ends: no failure line, but 130 all the same. */
  cli->said_cancelled = TRUE;
  close_servers (&ctx);
  return EXIT_INTERRUPTED;
}

/* tasks */

int
cmd_settings_tasks (Cli   *cli,
                    int    argc,
                    char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tasks = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  McpClient *client;
  int status;

  if ((status = start_server_verb (&ctx, NULL, TRUE, &argc, &argv, 0, NULL)) != 0)
    return status;
  if ((status = open_server (&ctx, argv[1], &connection)) != 0)
    return status;

  doing = g_strdup_printf (_("listing the tasks of “%s” failed"), argv[1]);
  client = mcp_server_connection_get_client (connection);
  mcp_client_list_tasks_async (client, cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  tasks = mcp_client_list_tasks_finish (client, result, &error);
  if (tasks == NULL)
    {
      status = request_failure (&ctx, connection, doing, error);
      close_servers (&ctx);
      return status;
    }

  if (ctx.json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
      g_autoptr(JsonArray) array = json_array_new ();

      for (guint i = 0; i < tasks->len; i++)
        json_array_add_object_element (array, json_object_ref (mcp_task_get_json (g_ptr_array_index (tasks, i))));
      json_node_set_array (node, array);
      print_json (node);
    }
  else if (tasks->len == 0 && !server_declares (connection, "tasks", "list"))
    print_none (connection, _("a task list"), "tasks", "list");
  else if (tasks->len == 0)
    /* A stdio server's tasks live as long as its process: a new run starts
     * with none. */
    g_print (_("“%s” has no tasks in this session.\n"), argv[1]);
  else
    {
      int widths[3] = { display_width (_("ID")), display_width (_("STATUS")),
                        display_width (_("UPDATED")) };

      for (guint i = 0; i < tasks->len; i++)
        {
          McpTask *task = g_ptr_array_index (tasks, i);
          const char *updated = mcp_task_get_last_updated_at (task);

          widths[0] = MAX (widths[0], display_width (mcp_task_get_id (task)));
          widths[1] = MAX (widths[1], display_width (mcp_task_get_status_string (task)));
          widths[2] = MAX (widths[2], display_width (updated ? updated : "-"));
        }

      print_table_row (widths, 4, (const char *[]) { _("ID"), _("STATUS"), _("UPDATED"), _("MESSAGE") });
      for (guint i = 0; i < tasks->len; i++)
        {
          McpTask *task = g_ptr_array_index (tasks, i);
          const char *updated = mcp_task_get_last_updated_at (task);
          const char *message = mcp_task_get_status_message (task);
          g_autofree char *line = message ? one_line (message) : NULL;

          print_table_row (widths, 4, (const char *[]) {
                             mcp_task_get_id (task), mcp_task_get_status_string (task),
                             updated ? updated : "-", line ? line : "" });
        }
    }

  close_servers (&ctx);
  return 0;
}

/* login, logout */

typedef struct
{
  Cli        *cli;
  const char *name;
  GError     *refused;   /* the sign-in URL failed the URL policy */
} Login;

/* $BROWSER is a command line; the URL goes last, as its own argument (no
 * shell), and the URL policy let it through, so it does not begin with
 * "-" and cannot be read as an option. Not waited for: the sign-in ends
 * when the browser comes back to the loopback listener. */
static void
open_browser (Login      *login,
              const char *url)
{
  const char *browser = g_getenv ("BROWSER");
  g_autoptr(GError) error = NULL;

  if (browser != NULL && *browser != '\0')
    {
      g_autoptr(GSubprocessLauncher) launcher = NULL;
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GPtrArray) argv = NULL;
      g_auto(GStrv) words = NULL;

      if (!g_shell_parse_argv (browser, NULL, &words, &error))
        {
          fprintf (stderr, _("%s: warning: $BROWSER cannot be read as a command line "
                             "(%s); open the URL yourself\n"), PROGRAM_NAME, error->message);
          return;
        }

      argv = g_ptr_array_new ();
      for (guint i = 0; words[i] != NULL; i++)
        g_ptr_array_add (argv, words[i]);
      g_ptr_array_add (argv, (char *) url);
      g_ptr_array_add (argv, NULL);

      /* Its stdout is ours, where the URL is: keep it clean. */
      launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
      process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
      if (process == NULL)
        fprintf (stderr, _("%s: warning: could not start the browser “%s”: %s; "
                           "open the URL yourself\n"), PROGRAM_NAME, words[0], error->message);
      return;
    }

  if (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL)
    {
      if (!g_app_info_launch_default_for_uri (url, NULL, &error))
        fprintf (stderr, _("%s: warning: could not open a browser: %s; "
                           "open the URL yourself\n"), PROGRAM_NAME, error->message);
    }
}

static void
login_open_url_cb (McpOAuthProvider *provider,
                   const char       *url,
                   gpointer          user_data)
{
  Login *login = user_data;
  g_autofree char *host = NULL;
  g_autofree char *name = NULL;

  /* The engine checked it already; nothing reaches a browser or the
   * terminal unchecked all the same. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &login->refused))
    {
      g_cancellable_cancel (login->cli->cancellable);
      return;
    }
  g_assert (url[0] != '-');

  name = mcp_escape_controls (login->name, MCP_ESCAPE_DEFAULT);
  /* Translators: the first %s is the server's name, the second the host the
   * sign-in address goes to, the third that address */
  g_print (_("To sign in to “%s” at %s, open:\n  %s\n"), name, host, url);
  fflush (stdout);
  open_browser (login, url);
  fputs (_("Waiting for the browser… (Ctrl-C to cancel)\n"), stderr);
  fflush (stderr);
}

/* The settings and the one server @argv names, in a manager of its own.
 * @connect FALSE: the server is not connected (logout). */
static int
prepare_oauth_verb (Ctx      *ctx,
                    int      *argc,
                    char   ***argv,
                    gboolean  connect)
{
  McpServerConfig *config;
  int status;

  if ((status = parse_settings_options (ctx, NULL, FALSE, FALSE, argc, argv)) != 0)
    return status;
  if ((status = check_count (ctx, *argc, *argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if ((status = load_settings (ctx)) != 0)
    return status;
  if ((status = refuse_broken_files (ctx)) != 0)
    return status;
  if ((config = lookup_or_fail (ctx, (*argv)[1], &status)) == NULL)
    return status;

  if (!mcp_server_config_is_remote (config) ||
      mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_SSE_IDE ||
      mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_WS_IDE)
    {
      print_failure (ctx->cli, _("“%s” is a %s server: only remote servers (http, sse, ws) "
                     "sign in"), (*argv)[1], mcp_server_config_get_transport_name (config));
      return EXIT_USAGE;
    }

  ctx->selected = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  g_list_store_append (ctx->selected, config);
  ctx->manager = mcp_server_manager_new ();
  if (!connect)
    mcp_server_manager_set_server_enabled (ctx->manager, (*argv)[1], FALSE);
  mcp_server_manager_set_configs (ctx->manager, G_LIST_MODEL (ctx->selected));

  return 0;
}

int
cmd_settings_login (Cli   *cli,
                    int    argc,
                    char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Login login = { .cli = cli };
  int status;

  if ((status = prepare_oauth_verb (&ctx, &argc, &argv, TRUE)) != 0)
    return status;
  login.name = argv[1];

  mcp_server_manager_sign_in_async (ctx.manager, login.name, login_open_url_cb, &login,
                                    cli->cancellable, store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_server_manager_sign_in_finish (ctx.manager, result, &error))
    {
      if (login.refused != NULL)
        {
          /* Translators: the first %s is the server's name, the second why its sign-in address was refused */
          print_failure (cli, _("The sign-in address of “%s” was refused: %s"), login.name,
                         login.refused->message);
          g_clear_error (&login.refused);
          status = EXIT_CONNECTION;
        }
      else if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        status = cancelled (cli);
      else
        {
          print_failure (cli, "%s", error->message);
          status = EXIT_CONNECTION;
        }
    }
  else
    {
      g_print (_("Signed in to “%s”.\n"), login.name);
    }

  close_servers (&ctx);
  return status;
}

int
cmd_settings_logout (Cli   *cli,
                     int    argc,
                     char **argv)
{
  g_auto(Ctx) ctx = { .cli = cli };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = prepare_oauth_verb (&ctx, &argc, &argv, FALSE)) != 0)
    return status;

  mcp_server_manager_sign_out_async (ctx.manager, argv[1], cli->cancellable,
                                     store_result_cb, &result);
  wait_for_result (&result);
  if (!mcp_server_manager_sign_out_finish (ctx.manager, result, &error))
    {
      if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        status = cancelled (cli);
      else
        {
          print_failure (cli, "%s", error->message);
          status = EXIT_CONNECTION;
        }
    }
  else
    {
      g_print (_("Signed out of “%s”.\n"), argv[1]);
    }

  close_servers (&ctx);
  return status;
}
