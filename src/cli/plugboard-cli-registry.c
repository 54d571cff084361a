/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "mcp-registry.h"
#include "mcp-registry-install.h"

#include "plugboard-cli-private.h"

/* plugboard-cli registry search, show and install: the MCP Registry (the
 * official one, or --registry URL / $PLUGBOARD_REGISTRY_URL for a private
 * one), cached under $XDG_CACHE_HOME/plugboard/registry for when the
 * network is not there. */

typedef struct
{
  char     *registry_url;
  char     *cursor;
  int       limit;
  char     *runner;
  char     *name;
  GStrv     set;
  GStrv     set_from_env;
} RegistryOptions;

static void
registry_options_clear (RegistryOptions *options)
{
  g_free (options->registry_url);
  g_free (options->cursor);
  g_free (options->runner);
  g_free (options->name);
  g_strfreev (options->set);
  g_strfreev (options->set_from_env);
}

static McpRegistry *
new_registry (PlugboardCli    *cli,
              RegistryOptions *options)
{
  const char *url = options->registry_url;
  g_autofree char *cache_dir = g_build_filename (g_get_user_cache_dir (), "plugboard", "registry", NULL);

  if (url == NULL || *url == '\0')
    url = g_getenv ("PLUGBOARD_REGISTRY_URL");
  if (url == NULL || *url == '\0')
    url = MCP_REGISTRY_DEFAULT_URL;
  return mcp_registry_new (url, cache_dir);
}

static int
registry_failure (PlugboardCli *cli,
                  GError       *error)
{
  if (cli->interrupted)
    return plugboard_cli_cancelled (cli);
  if (cli->json)
    plugboard_cli_print_json_error (cli, error);
  else
    plugboard_cli_print_failure (cli, "%s", error->message);
  return EXIT_CONNECTION;
}

static void
note_cached (PlugboardCli *cli,
             McpRegistry  *registry,
             gint64        fetched)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (fetched);
  g_autofree char *shown = when ? g_date_time_format (when, "%Y-%m-%d %H:%M") : g_strdup ("?");

  fflush (stdout);
  plugboard_cli_end_progress_line (cli);
  /* TRANSLATORS: %s: the program; %s: the registry's URL; %s: a date and time */
  fprintf (stderr, _("%s: %s cannot be reached: showing what was fetched on %s\n"),
           PROGRAM_NAME, mcp_registry_get_base_url (registry), shown);
}

static JsonObject *
server_to_json (McpRegistryServer *server)
{
  JsonObject *object = json_object_new ();
  JsonArray *choices = json_array_new ();
  GPtrArray *list = mcp_registry_server_get_choices (server);
  g_autofree char *entry_name = mcp_registry_server_dup_entry_name (server);

  json_object_set_string_member (object, "name", mcp_registry_server_get_name (server));
  json_object_set_string_member (object, "entryName", entry_name);
  if (mcp_registry_server_get_title (server) != NULL)
    json_object_set_string_member (object, "title", mcp_registry_server_get_title (server));
  json_object_set_string_member (object, "description", mcp_registry_server_get_description (server));
  json_object_set_string_member (object, "version", mcp_registry_server_get_version (server));
  if (mcp_registry_server_get_status (server) != NULL)
    json_object_set_string_member (object, "status", mcp_registry_server_get_status (server));
  for (guint i = 0; i < list->len; i++)
    {
      McpRegistryChoice *choice = list->pdata[i];
      JsonObject *entry = json_object_new ();
      JsonArray *inputs = json_array_new ();

      json_object_set_string_member (entry, "label", choice->label);
      json_object_set_string_member (entry, "identifier", choice->identifier);
      if (choice->transport != NULL)
        json_object_set_string_member (entry, "transport", choice->transport);
      for (guint j = 0; j < choice->inputs->len; j++)
        {
          McpRegistryInput *input = choice->inputs->pdata[j];
          JsonObject *in;

          if (input->fixed)
            continue;
          in = json_object_new ();

          json_object_set_string_member (in, "name", input->name);
          json_object_set_boolean_member (in, "required", input->is_required);
          json_object_set_boolean_member (in, "secret", input->is_secret);
          if (input->description != NULL)
            json_object_set_string_member (in, "description", input->description);
          if (input->default_value != NULL && !input->is_secret)
            json_object_set_string_member (in, "default", input->default_value);
          json_array_add_object_element (inputs, in);
        }
      json_object_set_array_member (entry, "inputs", inputs);
      json_array_add_object_element (choices, entry);
    }
  json_object_set_array_member (object, "choices", choices);
  return object;
}

static const char *
runner_id (McpRegistryRunner runner)
{
  static const char *ids[] = { "npx", "uvx", "docker", "dnx", "mcpb", "remote" };

  return runner < G_N_ELEMENTS (ids) ? ids[runner] : "?";
}

static void
print_server_line (McpRegistryServer *server)
{
  g_autofree char *name = plugboard_cli_escape (mcp_registry_server_get_name (server));
  const char *status = mcp_registry_server_get_status (server);

  g_print ("%s  %s", name, mcp_registry_server_get_version (server));
  if (status != NULL && !g_str_equal (status, "active"))
    {
      g_autofree char *shown = plugboard_cli_escape (status);

      g_print ("  (%s)", shown);
    }
  g_print ("\n");
  plugboard_cli_print_description ("    ", mcp_registry_server_get_description (server));
}

/* Parses the options every registry command takes, @extra first. */
static int
parse_registry_options (PlugboardCli    *cli,
                        RegistryOptions *options,
                        GOptionEntry    *extra,
                        gboolean         with_scope,
                        int             *argc,
                        char          ***argv)
{
  GOptionEntry registry_entry[] = {
    { "registry", 0, 0, G_OPTION_ARG_STRING, &options->registry_url,
      N_("The registry's URL (default: $PLUGBOARD_REGISTRY_URL, else the official MCP Registry)"), N_("URL") },
    { NULL }
  };
  g_autofree GOptionEntry *entries = NULL;
  guint n_extra = 0;

  while (extra != NULL && extra[n_extra].long_name != NULL)
    n_extra++;
  entries = g_new0 (GOptionEntry, n_extra + 2);
  if (n_extra > 0)
    memcpy (entries, extra, n_extra * sizeof (GOptionEntry));
  entries[n_extra] = registry_entry[0];

  return plugboard_cli_parse_settings_options (cli, entries, with_scope, TRUE, argc, argv);
}

static int
registry_search (PlugboardCli    *cli,
                 RegistryOptions *options,
                 int              argc,
                 char           **argv)
{
  g_autoptr(McpRegistry) registry = NULL;
  g_autoptr(McpRegistryPage) page = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "limit", 0, 0, G_OPTION_ARG_INT, &options->limit, N_("How many servers to list (default 30, at most 100)"), N_("N") },
    { "cursor", 0, 0, G_OPTION_ARG_STRING, &options->cursor, N_("Go on from where a search stopped"), N_("CURSOR") },
    { NULL }
  };
  int status;

  options->limit = 30;
  if ((status = parse_registry_options (cli, options, entries, FALSE, &argc, &argv)) != 0 ||
      (status = plugboard_cli_check_count (cli, argc, argv, 0, 1, NULL)) != 0)
    return status;
  if (options->limit < 1 || options->limit > 100)
    return plugboard_cli_usage_error (cli->verb, _("--limit must be between 1 and 100"));

  registry = new_registry (cli, options);
  mcp_registry_search_async (registry, argc > 1 ? argv[1] : NULL, options->cursor, options->limit,
                             cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  page = mcp_registry_search_finish (registry, result, &error);
  if (page == NULL)
    return registry_failure (cli, error);
  if (page->from_cache)
    note_cached (cli, registry, page->fetched);

  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();
      JsonArray *servers = json_array_new ();

      for (guint i = 0; i < page->servers->len; i++)
        json_array_add_object_element (servers, server_to_json (page->servers->pdata[i]));
      json_object_set_array_member (object, "servers", servers);
      if (page->next_cursor != NULL)
        json_object_set_string_member (object, "nextCursor", page->next_cursor);
      json_object_set_boolean_member (object, "fromCache", page->from_cache);
      json_node_take_object (node, object);
      plugboard_cli_print_json (node);
      return 0;
    }

  if (page->servers->len == 0)
    g_print (_("No servers found.\n"));
  for (guint i = 0; i < page->servers->len; i++)
    print_server_line (page->servers->pdata[i]);
  if (page->next_cursor != NULL)
    {
      g_autofree char *cursor = plugboard_cli_escape (page->next_cursor);

      /* TRANSLATORS: %s: the program; %s: a search word or empty; %s: a cursor */
      g_print (_("\nMore: %s registry search %s --cursor '%s'\n"), PROGRAM_NAME,
               argc > 1 ? argv[1] : "", cursor);
    }
  return 0;
}

static McpRegistryServer *
get_server (PlugboardCli     *cli,
            McpRegistry      *registry,
            const char       *name,
            GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_registry_get_async (registry, name, cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  return mcp_registry_get_finish (registry, result, error);
}

/* The options and NAME of show and install, and the registry's server of
 * that name: 0, or the exit status. */
static int
open_server (PlugboardCli        *cli,
             RegistryOptions     *options,
             GOptionEntry        *entries,
             gboolean             with_scope,
             int                  argc,
             char               **argv,
             McpRegistry        **out_registry,
             McpRegistryServer  **out_server)
{
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = parse_registry_options (cli, options, entries, with_scope, &argc, &argv)) != 0 ||
      (status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the server's name in the registry"))) != 0)
    return status;

  *out_registry = new_registry (cli, options);
  *out_server = get_server (cli, *out_registry, argv[1], &error);
  if (*out_server == NULL)
    return registry_failure (cli, error);
  return 0;
}

static int
registry_show (PlugboardCli    *cli,
               RegistryOptions *options,
               int              argc,
               char           **argv)
{
  g_autoptr(McpRegistry) registry = NULL;
  g_autoptr(McpRegistryServer) server = NULL;
  GPtrArray *choices;
  int status;

  if ((status = open_server (cli, options, NULL, FALSE, argc, argv, &registry, &server)) != 0)
    return status;

  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (node, server_to_json (server));
      plugboard_cli_print_json (node);
      return 0;
    }

  print_server_line (server);
  if (mcp_registry_server_get_title (server) != NULL)
    {
      g_autofree char *title = plugboard_cli_escape (mcp_registry_server_get_title (server));

      g_print (_("  Title: %s\n"), title);
    }
  if (mcp_registry_server_get_website_url (server) != NULL)
    {
      g_autofree char *url = plugboard_cli_escape (mcp_registry_server_get_website_url (server));

      g_print (_("  Website: %s\n"), url);
    }
  if (mcp_registry_server_get_repository_url (server) != NULL)
    {
      g_autofree char *url = plugboard_cli_escape (mcp_registry_server_get_repository_url (server));

      g_print (_("  Repository: %s\n"), url);
    }

  choices = mcp_registry_server_get_choices (server);
  g_print (_("  Ways to install (--runner):\n"));
  for (guint i = 0; i < choices->len; i++)
    {
      McpRegistryChoice *choice = choices->pdata[i];
      g_autofree char *label = plugboard_cli_escape (choice->label);

      g_print ("    %u. %s [%s]\n", i + 1, label, runner_id (choice->runner));
      for (guint j = 0; j < choice->inputs->len; j++)
        {
          McpRegistryInput *input = choice->inputs->pdata[j];
          g_autofree char *name = NULL;
          GString *flags = g_string_new (NULL);

          if (input->fixed)
            {
              g_string_free (flags, TRUE);
              continue;
            }
          name = plugboard_cli_escape (input->name);
          if (input->is_required)
            g_string_append (flags, _(", required"));
          if (input->is_secret)
            g_string_append (flags, _(", secret"));
          if (input->default_value != NULL && !input->is_secret)
            {
              g_autofree char *shown = plugboard_cli_escape (input->default_value);

              /* TRANSLATORS: %s: a default value */
              g_string_append_printf (flags, _(", default %s"), shown);
            }
          g_print ("       --set %s=…%s\n", name, flags->str);
          g_string_free (flags, TRUE);
          plugboard_cli_print_description ("         ", input->description);
        }
    }
  return 0;
}

/* A secret typed without echo on the terminal; NULL without one. */
static char *
ask_secret (const char *prompt)
{
  struct termios saved, quiet;
  char line[4096];
  gboolean restore;

  if (!isatty (STDIN_FILENO) || !isatty (STDERR_FILENO))
    return NULL;

  fprintf (stderr, "%s", prompt);
  fflush (stderr);
  restore = tcgetattr (STDIN_FILENO, &saved) == 0;
  if (restore)
    {
      quiet = saved;
      quiet.c_lflag &= ~(tcflag_t) ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }
  if (fgets (line, sizeof line, stdin) == NULL)
    line[0] = '\0';
  if (restore)
    tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
  fprintf (stderr, "\n");
  line[strcspn (line, "\r\n")] = '\0';
  return line[0] != '\0' ? g_strdup (line) : NULL;
}

static McpRegistryChoice *
pick_choice (PlugboardCli      *cli,
             McpRegistryServer *server,
             const char        *runner)
{
  GPtrArray *choices = mcp_registry_server_get_choices (server);
  guint64 number;

  if (runner != NULL && g_ascii_string_to_unsigned (runner, 10, 1, choices->len, &number, NULL))
    return choices->pdata[number - 1];

  for (guint i = 0; i < choices->len; i++)
    {
      McpRegistryChoice *choice = choices->pdata[i];

      if (runner != NULL ? g_str_equal (runner, runner_id (choice->runner))
                         : choice->runner != MCP_REGISTRY_RUNNER_MCPB)
        return choice;
    }
  return NULL;
}

/* --set NAME=VALUE and --set-from-env NAME=VARIABLE into @values, then
 * each secret still missing asked on the terminal. */
static int
collect_values (PlugboardCli      *cli,
                RegistryOptions   *options,
                McpRegistryChoice *choice,
                GHashTable        *values)
{
  for (guint i = 0; options->set != NULL && options->set[i] != NULL; i++)
    {
      const char *equal = strchr (options->set[i], '=');

      if (equal == NULL || equal == options->set[i])
        {
          /* Only the start: the value may be a secret. */
          g_autofree char *start = g_strndup (options->set[i], MIN (strcspn (options->set[i], "="), 40));

          return plugboard_cli_usage_error (cli->verb, _("--set “%s…” is not of the form NAME=VALUE"), start);
        }
      g_hash_table_insert (values, g_strndup (options->set[i], equal - options->set[i]), g_strdup (equal + 1));
    }
  for (guint i = 0; options->set_from_env != NULL && options->set_from_env[i] != NULL; i++)
    {
      const char *pair = options->set_from_env[i];
      const char *equal = strchr (pair, '=');
      const char *value;

      if (equal == NULL || equal == pair || equal[1] == '\0')
        return plugboard_cli_usage_error (cli->verb, _("--set-from-env “%s” is not of the form NAME=VARIABLE"), pair);
      value = g_getenv (equal + 1);
      if (value == NULL)
        return plugboard_cli_usage_error (cli->verb, _("--set-from-env %s: the environment has no %s"),
                                          pair, equal + 1);
      g_hash_table_insert (values, g_strndup (pair, equal - pair), g_strdup (value));
    }

  for (guint i = 0; i < choice->inputs->len; i++)
    {
      McpRegistryInput *input = choice->inputs->pdata[i];
      g_autofree char *prompt = NULL;
      char *typed;

      if (input->fixed || !input->is_secret || !input->is_required ||
          g_hash_table_contains (values, input->name) || input->default_value != NULL)
        continue;
      /* TRANSLATORS: a prompt on the terminal; %s: a variable or header name */
      prompt = g_strdup_printf (_("%s (secret, not shown): "), input->name);
      typed = ask_secret (prompt);
      if (typed != NULL)
        g_hash_table_insert (values, g_strdup (input->name), typed);
    }
  return 0;
}

static int
registry_install (PlugboardCli    *cli,
                  RegistryOptions *options,
                  int              argc,
                  char           **argv)
{
  g_autoptr(McpRegistry) registry = NULL;
  g_autoptr(McpRegistryServer) server = NULL;
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) notes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *entry_name = NULL;
  McpRegistryChoice *choice;
  McpConfigScope scope = MCP_CONFIG_SCOPE_LOCAL;
  McpSettings *settings;
  McpServerConnection *connection;
  GOptionEntry entries[] = {
    { "runner", 'r', 0, G_OPTION_ARG_STRING, &options->runner,
      N_("How to run it: npx, uvx, docker, dnx, remote, or the number “registry show” gives"), N_("RUNNER") },
    { "name", 0, 0, G_OPTION_ARG_STRING, &options->name,
      N_("The name in the settings (default: the last part of the registry name)"), N_("NAME") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->set,
      N_("Give a variable, header or argument (repeatable)"), N_("NAME=VALUE") },
    { "set-from-env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->set_from_env,
      N_("Give one from an environment variable, keeping a secret off the command line (repeatable)"),
      N_("NAME=VARIABLE") },
    { NULL }
  };
  int status;

  if ((status = open_server (cli, options, entries, TRUE, argc, argv, &registry, &server)) != 0)
    return status;

  choice = pick_choice (cli, server, options->runner);
  if (choice == NULL)
    {
      g_autofree char *shown = plugboard_cli_escape (argv[1]);

      if (options->runner != NULL)
        return plugboard_cli_usage_error (cli->verb, _("%s cannot be installed with --runner %s; "
                                                       "“registry show %s” lists the ways there are"),
                                          shown, options->runner, shown);
      plugboard_cli_print_failure (cli, _("%s has no package or remote Plugboard can install"), shown);
      return EXIT_SETTINGS;
    }
  if ((status = collect_values (cli, options, choice, values)) != 0)
    return status;

  /* The project as the target client sees it: when the server is written
   * to its settings, it connects at once. */
  entry_name = options->name ? g_strdup (options->name) : mcp_registry_server_dup_entry_name (server);
  if ((status = plugboard_cli_load_project (cli, (const char *[]) { entry_name, NULL })) != 0)
    return status;
  settings = plugboard_cli_get_settings (cli);
  if (cli->scope_opt != NULL)
    plugboard_cli_parse_scope (cli->scope_opt, &scope);
  else if (!mcp_settings_has_scope (settings, scope))
    scope = MCP_CONFIG_SCOPE_USER;

  mcp_registry_install_async (cli->project, server, choice, values, entry_name, cli->client, scope,
                              cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  name = mcp_registry_install_finish (result, &notes, &error);
  if (name == NULL)
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  if ((status = plugboard_cli_settle (cli)) != 0)
    return status;
  connection = mcp_server_manager_lookup (plugboard_cli_get_manager (cli), name);

  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();
      JsonArray *array = json_array_new ();

      json_object_set_string_member (object, "name", name);
      json_object_set_string_member (object, "client", mcp_client_kind_to_id (cli->client));
      json_object_set_string_member (object, "scope", plugboard_cli_scope_name (scope));
      json_object_set_string_member (object, "file", mcp_settings_get_file (settings, scope));
      for (guint i = 0; notes != NULL && i < notes->len; i++)
        json_array_add_string_element (array, notes->pdata[i]);
      json_object_set_array_member (object, "notes", array);
      if (connection != NULL)
        {
          g_autofree char *state = plugboard_cli_describe_state (cli, connection);

          json_object_set_string_member (object, "state", state);
        }
      json_node_take_object (node, object);
      plugboard_cli_print_json (node);
    }
  else
    {
      g_autofree char *file = plugboard_cli_escape (mcp_settings_get_file (settings, scope));

      /* TRANSLATORS: %s: a server name; %s: a client ("Cursor"); %s: user,
       * project or local; %s: the file */
      g_print (_("Installed “%s” in %s's %s settings (%s)\n"), name,
               mcp_client_kind_get_display_name (cli->client), plugboard_cli_scope_name (scope), file);
      for (guint i = 0; notes != NULL && i < notes->len; i++)
        {
          g_autofree char *note = plugboard_cli_escape (notes->pdata[i]);

          g_print ("  %s\n", note);
        }
      if (connection != NULL)
        {
          g_autofree char *state = plugboard_cli_describe_state (cli, connection);

          /* TRANSLATORS: %s: a server name; %s: its state ("connected, 12 tools") */
          g_print (_("%s: %s\n"), name, state);
        }
    }

  if (connection != NULL && mcp_server_connection_get_state (connection) == MCP_SERVER_STATE_FAILED)
    return EXIT_CONNECTION;
  return 0;
}

int
plugboard_cli_registry (PlugboardCli *cli,
                        int           argc,
                        char        **argv)
{
  /* the options that take a value as the next word */
  static const char *const with_value[] = {
    "--registry", "--project", "--config-dir", "--client", "--scope", "-s", "--limit", "--cursor",
    "--runner", "-r", "--name", "--set", "--set-from-env", NULL
  };
  RegistryOptions options = { 0 };
  int status;
  int sub = 0;

  /* The subcommand is the first word that is not an option: options may
   * come before it (registry --registry URL search TERM). Then it takes
   * the place of "registry", so its options and words parse as a verb's. */
  for (int i = 1; i < argc && sub == 0; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (argv[i][0] != '-')
        sub = i;
      else if (strchr (argv[i], '=') == NULL && g_strv_contains (with_value, argv[i]))
        i++;
    }
  if (sub == 0)
    {
      for (int i = 1; i < argc; i++)
        if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h"))
          {
            plugboard_cli_print_verb_usage (cli->verb);
            return 0;
          }
      return plugboard_cli_usage_error (cli->verb, _("Give search, show or install"));
    }
  {
    char *word = argv[sub];

    memmove (argv + 2, argv + 1, (sub - 1) * sizeof (char *));
    argv[1] = word;
  }

  if (g_str_equal (argv[1], "search"))
    status = registry_search (cli, &options, argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "show"))
    status = registry_show (cli, &options, argc - 1, argv + 1);
  else if (g_str_equal (argv[1], "install"))
    status = registry_install (cli, &options, argc - 1, argv + 1);
  else
    {
      g_autofree char *shown = plugboard_cli_escape (argv[1]);

      status = plugboard_cli_usage_error (cli->verb, _("Unknown registry command “%s”: give search, show or install"),
                                          shown);
    }

  registry_options_clear (&options);
  return status;
}
