/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-client-import.h"
#include "mcp-redact.h"
#include "mcp-server-config.h"

#include "plugboard-cli-private.h"

/* plugboard-cli import, add-from-claude-desktop, reset-project-choices:
 * other MCP clients' servers taken into the settings (the scan the app's
 * import dialog runs), and the project servers' approvals forgotten. Both
 * write through the project, which connects no server for them. */

/* The clients the engine's scan reads, by the name a command line gives. */
static const struct
{
  const char *id;
  const char *client;       /* McpImportCandidate.client */
  const char *files[3];     /* parts of its files' paths, to tell its problems */
} clients[] = {
  { "claude-desktop", "Claude Desktop", { "/Claude/claude_desktop_config.json" } },
  { "claude-code", "Claude Code", { "/.claude.json" } },
  { "vscode", "VS Code", { "/Code/User/", "/.vscode/" } },
  { "cursor", "Cursor", { "/.cursor/" } },
};

/* Whether a problem of the scan is about a file of @client_id: only
 * those are said, not every other client's. */
static gboolean
is_client_problem (const char *client_id,
                   const char *problem)
{
  for (guint i = 0; i < G_N_ELEMENTS (clients); i++)
    {
      if (!g_str_equal (clients[i].id, client_id))
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (clients[i].files) && clients[i].files[j] != NULL; j++)
        {
          if (strstr (problem, clients[i].files[j]) != NULL)
            return TRUE;
        }
    }
  return FALSE;
}

static int
load_settings_only (PlugboardCli *cli)
{
  static const char *none[] = { NULL };

  return plugboard_cli_load_project (cli, none);
}

static const char *
find_client (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (clients); i++)
    {
      if (g_str_equal (clients[i].id, id))
        return clients[i].client;
    }
  return NULL;
}

/* What a candidate runs, as `get` shows it: the command, or the URL with
 * its secrets masked. */
static char *
describe_candidate (McpImportCandidate *candidate)
{
  g_autoptr(McpServerConfig) config = NULL;
  g_autofree char *what = NULL;

  config = mcp_server_config_new_from_json (candidate->name, candidate->scope, candidate->entry,
                                            candidate->file, NULL, NULL);
  if (config == NULL)
    return g_strdup ("?");
  if (mcp_server_config_get_url (config) != NULL)
    what = mcp_redact_url (mcp_server_config_get_url (config));
  else
    what = g_strdup (mcp_server_config_get_command (config));

  return g_strdup_printf ("%s %s", mcp_server_config_get_transport_name (config),
                          what != NULL ? what : "");
}

/* Why @candidate is not imported, or NULL: a server of that name exists
 * (in any scope: the new one would shadow it or be shadowed), or one
 * chosen before has it. */
static char *
dup_skip_reason (PlugboardCli *cli,
                 GHashTable   *chosen,
                 const char   *name)
{
  McpServerConfig *existing = mcp_settings_lookup (plugboard_cli_get_settings (cli), name);

  if (existing != NULL)
    return g_strdup_printf (_("there is already a server named “%s” in the %s settings"), name,
                            plugboard_cli_scope_name (mcp_server_config_get_scope (existing)));
  if (g_hash_table_contains (chosen, name))
    return g_strdup_printf (_("a server named “%s” is imported from another file"), name);
  return NULL;
}

static int
add_candidate (PlugboardCli       *cli,
               McpImportCandidate *candidate,
               McpConfigScope      scope)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_project_add_server_async (cli->project, candidate->name, scope, candidate->entry,
                                cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (mcp_project_add_server_finish (cli->project, result, &error))
    return 0;
  if (cli->interrupted)
    return plugboard_cli_cancelled (cli);
  plugboard_cli_print_failure (cli, "%s", error->message);
  return EXIT_SETTINGS;
}

static int
run_import (PlugboardCli *cli,
            const char   *client_id,
            int           argc,
            char        **argv)
{
  gboolean all = FALSE;
  gboolean dry_run = FALSE;
  GOptionEntry entries[] = {
    { "all", 0, 0, G_OPTION_ARG_NONE, &all,
      N_("Import every server found (those whose name is taken are skipped)"), NULL },
    { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
      N_("Say what would be imported, and write nothing"), NULL },
    { NULL }
  };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) candidates = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) chosen = g_hash_table_new (g_str_hash, g_str_equal);
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  const char *client = NULL;
  const char * const *names;
  gboolean listing;
  guint n_found = 0;
  guint n_added = 0;
  guint n_skipped = 0;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, entries, TRUE, FALSE, &argc, &argv)) != 0)
    return status;

  /* import CLIENT [NAME…]; add-from-claude-desktop [NAME…] */
  if (client_id == NULL)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint i = 0; i < G_N_ELEMENTS (clients); i++)
        g_string_append_printf (known, "%s%s", i > 0 ? ", " : "", clients[i].id);
      if (argc < 2)
        return plugboard_cli_usage_error (cli->verb, _("Missing the client to import from (%s)"), known->str);
      client_id = argv[1];
      if (find_client (client_id) == NULL)
        {
          g_autofree char *shown = plugboard_cli_escape (client_id);

          return plugboard_cli_usage_error (cli->verb, _("Unknown client “%s”: import reads %s"),
                                            shown, known->str);
        }
      argc--;
      argv++;
    }
  client = find_client (client_id);
  names = (const char * const *) argv + 1;
  if (all && argc > 1)
    return plugboard_cli_usage_error (cli->verb, _("Give the servers' names or --all, not both"));
  listing = !all && argc <= 1;

  if (cli->scope_opt != NULL)
    plugboard_cli_parse_scope (cli->scope_opt, &scope);
  if ((status = load_settings_only (cli)) != 0)
    return status;
  if ((status = plugboard_cli_refuse_broken_files (cli)) != 0)
    return status;

  mcp_client_import_scan_async (NULL, mcp_settings_get_project_dir (plugboard_cli_get_settings (cli)),
                                cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  candidates = mcp_client_import_scan_finish (result, &problems, &error);
  if (candidates == NULL)
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      g_autofree char *shown = NULL;

      if (!is_client_problem (client_id, g_ptr_array_index (problems, i)))
        continue;
      shown = plugboard_cli_escape (g_ptr_array_index (problems, i));

      fprintf (stderr, _("%s: warning: %s\n"), PROGRAM_NAME, shown);
    }

  /* Each name asked for must be there: a typo imports nothing. */
  for (guint i = 0; names[i] != NULL; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < candidates->len && !found; j++)
        {
          McpImportCandidate *candidate = g_ptr_array_index (candidates, j);

          found = g_str_equal (candidate->client, client) && g_str_equal (candidate->name, names[i]);
        }
      if (!found)
        {
          g_autofree char *shown = plugboard_cli_escape (names[i]);

          plugboard_cli_print_failure (cli, _("No server named “%s” in %s's settings; "
                                              "“%s %s %s” lists them"),
                                       shown, client, PROGRAM_NAME, "import", client_id);
          return EXIT_USAGE;
        }
    }

  for (guint i = 0; i < candidates->len; i++)
    {
      McpImportCandidate *candidate = g_ptr_array_index (candidates, i);
      g_autofree char *reason = NULL;
      g_autofree char *what = NULL;
      g_autofree char *shown_name = NULL;
      g_autofree char *shown_what = NULL;
      g_autofree char *shown_file = NULL;

      if (!g_str_equal (candidate->client, client))
        continue;
      n_found++;
      if (!listing && !all && !g_strv_contains (names, candidate->name))
        continue;

      reason = dup_skip_reason (cli, chosen, candidate->name);
      what = describe_candidate (candidate);
      shown_name = plugboard_cli_escape (candidate->name);
      shown_what = plugboard_cli_escape (what);
      shown_file = plugboard_cli_escape (candidate->file);

      if (listing || dry_run)
        {
          g_print ("%s: %s (%s)\n", shown_name, shown_what, shown_file);
          if (reason != NULL)
            g_print (_("  skipped: %s\n"), reason);
          else if (!listing)
            g_print (_("  would be added to the %s settings\n"), plugboard_cli_scope_name (scope));
        }
      else if (reason != NULL)
        g_print (_("Skipped “%s”: %s\n"), shown_name, reason);
      else
        {
          if ((status = add_candidate (cli, candidate, scope)) != 0)
            return status;
          g_print (_("Added “%s” (%s) to the %s settings (%s)\n"), shown_name, shown_what,
                   plugboard_cli_scope_name (scope),
                   mcp_settings_get_file (plugboard_cli_get_settings (cli), scope));
          n_added++;
        }

      if (candidate->note != NULL)
        {
          g_autofree char *note = plugboard_cli_escape (candidate->note);

          g_print (_("  note: %s\n"), note);
        }
      if (reason != NULL)
        n_skipped++;
      else
        g_hash_table_add (chosen, candidate->name);
    }

  if (n_found == 0)
    {
      g_print (_("No servers found in %s's settings\n"), client);
      return 0;
    }
  if (listing)
    {
      g_autofree char *command = g_str_equal (cli->verb->name, "import")
                                 ? g_strdup_printf ("%s import %s", PROGRAM_NAME, client_id)
                                 : g_strdup_printf ("%s %s", PROGRAM_NAME, cli->verb->name);

      g_print (_("Import them with “%s NAME…” or “--all” (into the %s settings; "
                 "--scope says where)\n"), command, plugboard_cli_scope_name (scope));
      return 0;
    }
  if (dry_run)
    {
      g_print (_("Nothing was written (--dry-run)\n"));
      return 0;
    }

  g_print (g_dngettext (GETTEXT_PACKAGE, "Imported %u server from %s", "Imported %u servers from %s", n_added),
           n_added, client);
  if (n_skipped > 0)
    g_print (_("; %u skipped\n"), n_skipped);
  else
    g_print ("\n");
  if (n_added > 0 && scope == MCP_CONFIG_SCOPE_PROJECT)
    g_print (_("Project servers start once approved: %s approve NAME\n"), PROGRAM_NAME);
  return 0;
}

int
plugboard_cli_import (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  return run_import (cli, g_str_equal (cli->verb->name, "add-from-claude-desktop") ? "claude-desktop" : NULL,
                     argc, argv);
}

int
plugboard_cli_reset_project_choices (PlugboardCli *cli,
                                     int           argc,
                                     char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) decided = g_ptr_array_new_with_free_func (g_free);
  McpSettings *settings;
  GListModel *servers;
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, NULL, FALSE, FALSE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 0, 0, "")) != 0)
    return status;
  if ((status = load_settings_only (cli)) != 0)
    return status;
  if ((status = plugboard_cli_refuse_broken_files (cli)) != 0)
    return status;

  settings = plugboard_cli_get_settings (cli);
  servers = mcp_settings_get_servers (settings);
  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);
      const char *name = mcp_server_config_get_name (config);
      McpApproval approval = mcp_settings_get_approval (settings, name);
      g_autofree char *shown = NULL;
      const char *was;

      if (approval == MCP_APPROVAL_APPROVED || approval == MCP_APPROVAL_CHANGED)
        was = _("approved");
      else if (approval == MCP_APPROVAL_REJECTED)
        was = _("rejected");
      else
        continue;
      shown = plugboard_cli_escape (name);
      g_ptr_array_add (decided, g_strdup_printf (_("  %s (was %s)\n"), shown, was));
    }

  mcp_project_run_async (cli->project, MCP_PROJECT_OP_RESET_APPROVALS, NULL, cli->cancellable,
                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_project_run_finish (cli->project, result, NULL, &error))
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  if (decided->len == 0)
    {
      g_print (_("No project server of %s was approved or rejected; nothing to reset\n"),
               mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_PROJECT));
      return 0;
    }

  g_print (_("Reset the choices on the project servers of %s (kept in %s):\n"),
           mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_PROJECT),
           mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_LOCAL));
  for (guint i = 0; i < decided->len; i++)
    g_print ("%s", (const char *) g_ptr_array_index (decided, i));
  g_print (_("Each is asked about again: %s approve NAME\n"), PROGRAM_NAME);
  return 0;
}
