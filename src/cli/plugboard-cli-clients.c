/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-client-copy.h"

#include "plugboard-cli-private.h"

/* plugboard-cli clients and copy: the MCP clients on this machine, their
 * settings files and servers (mcp_clients_scan_async()), and copying a
 * server from one client's file to others' with a preview of each file's
 * change (mcp_client_copy_plan_async()). */

/* The folders the scan and the copy read: --project (default: here) for
 * project files, --config-dir for Plugboard's own user file, $HOME and
 * $XDG_CONFIG_HOME for the clients'. */
static int
get_folders (PlugboardCli  *cli,
             char         **out_project,
             char         **out_plugboard_dir)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *project = g_canonicalize_filename (cli->project_opt ? cli->project_opt : ".", cwd);

  if (!g_file_test (project, G_FILE_TEST_IS_DIR))
    return plugboard_cli_usage_error (cli->verb, _("--project %s: not a directory"), project);

  *out_project = g_steal_pointer (&project);
  *out_plugboard_dir = cli->config_dir_opt ? g_canonicalize_filename (cli->config_dir_opt, cwd) : NULL;
  return 0;
}

static GPtrArray *
scan (PlugboardCli  *cli,
      const char    *project,
      const char    *plugboard_dir,
      GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_clients_scan_async (NULL, NULL, plugboard_dir, project, cli->cancellable,
                          plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  return mcp_clients_scan_finish (result, error);
}

static guint
count_servers_in (McpClientSummary *summary,
                  McpClientFile    *file)
{
  guint n = 0;

  for (guint i = 0; i < summary->servers->len; i++)
    {
      McpClientServer *server = summary->servers->pdata[i];

      if (server->scope == file->scope && g_strcmp0 (server->file, file->path) == 0)
        n++;
    }
  return n;
}

/* The file's error from the scan, if it has one ("PATH: line 3: …") */
static const char *
find_file_error (McpClientSummary *summary,
                 McpClientFile    *file)
{
  for (guint i = 0; i < summary->file_errors->len; i++)
    {
      const char *message = summary->file_errors->pdata[i];

      if (g_str_has_prefix (message, file->path) && message[strlen (file->path)] == ':')
        return message;
    }
  return NULL;
}

/* "projects.DIR.mcpServers" for messages: where in the file the servers are */
static char *
describe_container (McpClientFile *file)
{
  return g_strjoinv (".", file->container);
}

static JsonObject *
summary_to_json (McpClientSummary *summary)
{
  JsonObject *object = json_object_new ();
  JsonArray *files = json_array_new ();
  JsonArray *servers = json_array_new ();

  json_object_set_string_member (object, "client", mcp_client_kind_to_id (summary->kind));
  json_object_set_string_member (object, "name", mcp_client_kind_get_display_name (summary->kind));
  json_object_set_boolean_member (object, "present", summary->present);
  for (guint i = 0; i < summary->files->len; i++)
    {
      McpClientFile *file = summary->files->pdata[i];
      JsonObject *entry = json_object_new ();
      const char *problem = find_file_error (summary, file);
      g_autofree char *container = describe_container (file);

      json_object_set_string_member (entry, "scope", plugboard_cli_scope_name (file->scope));
      json_object_set_string_member (entry, "path", file->path);
      json_object_set_string_member (entry, "member", container);
      json_object_set_boolean_member (entry, "exists", g_file_test (file->path, G_FILE_TEST_EXISTS));
      json_object_set_int_member (entry, "servers", count_servers_in (summary, file));
      if (problem != NULL)
        json_object_set_string_member (entry, "error", problem);
      json_array_add_object_element (files, entry);
    }
  for (guint i = 0; i < summary->servers->len; i++)
    {
      McpClientServer *server = summary->servers->pdata[i];
      JsonObject *entry = json_object_new ();

      json_object_set_string_member (entry, "name", server->name);
      json_object_set_string_member (entry, "scope", plugboard_cli_scope_name (server->scope));
      json_object_set_string_member (entry, "file", server->file);
      json_array_add_object_element (servers, entry);
    }
  json_object_set_array_member (object, "files", files);
  json_object_set_array_member (object, "servers", servers);
  return object;
}

int
plugboard_cli_clients (PlugboardCli *cli,
                       int           argc,
                       char        **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autofree char *project = NULL;
  g_autofree char *plugboard_dir = NULL;
  gboolean all = FALSE;
  gboolean any_error = FALSE;
  GOptionEntry entries[] = {
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_("Also the clients not found on this machine"), NULL },
    { NULL }
  };
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, entries, FALSE, TRUE, &argc, &argv)) != 0 ||
      (status = plugboard_cli_check_count (cli, argc, argv, 0, 0, NULL)) != 0 ||
      (status = get_folders (cli, &project, &plugboard_dir)) != 0)
    return status;
  if (cli->client_opt != NULL)
    return plugboard_cli_usage_error (cli->verb, _("clients lists every client: it takes no --client"));

  summaries = scan (cli, project, plugboard_dir, &error);
  if (summaries == NULL)
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  if (cli->json)
    {
      g_autoptr(JsonArray) array = json_array_new ();
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      for (guint i = 0; i < summaries->len; i++)
        {
          McpClientSummary *summary = summaries->pdata[i];

          if (summary->present || all)
            json_array_add_object_element (array, summary_to_json (summary));
          any_error |= summary->file_errors->len > 0;
        }
      json_node_set_array (node, array);
      plugboard_cli_print_json (node);
      return any_error ? EXIT_SETTINGS : 0;
    }

  for (guint i = 0; i < summaries->len; i++)
    {
      McpClientSummary *summary = summaries->pdata[i];

      if (!summary->present && !all)
        continue;

      if (!summary->present)
        /* TRANSLATORS: %s: a client ("Cursor"); %s: its id ("cursor") */
        g_print (_("%s (%s): not found on this machine\n"),
                 mcp_client_kind_get_display_name (summary->kind), mcp_client_kind_to_id (summary->kind));
      else
        g_print (g_dngettext (GETTEXT_PACKAGE, "%s (%s): %u server\n", "%s (%s): %u servers\n",
                              summary->servers->len),
                 mcp_client_kind_get_display_name (summary->kind), mcp_client_kind_to_id (summary->kind),
                 summary->servers->len);

      for (guint j = 0; j < summary->files->len; j++)
        {
          McpClientFile *file = summary->files->pdata[j];
          const char *problem = find_file_error (summary, file);
          g_autofree char *container = describe_container (file);
          g_autofree char *path = plugboard_cli_escape (file->path);
          g_autofree char *member = plugboard_cli_escape (container);

          if (problem != NULL)
            {
              g_autofree char *shown = plugboard_cli_escape (problem);

              /* TRANSLATORS: %s: user, project or local; %s: a file; %s: why it cannot be read */
              g_print (_("  %-8s %s: cannot be read: %s\n"), plugboard_cli_scope_name (file->scope), path, shown);
              any_error = TRUE;
            }
          else if (!g_file_test (file->path, G_FILE_TEST_EXISTS))
            /* TRANSLATORS: %s: user, project or local; %s: a file */
            g_print (_("  %-8s %s (no file)\n"), plugboard_cli_scope_name (file->scope), path);
          else
            {
              guint n = count_servers_in (summary, file);

              /* TRANSLATORS: %s: user, project or local; %s: a file; %s: where
               * in the file ("mcpServers"); %u: how many servers */
              g_print (g_dngettext (GETTEXT_PACKAGE, "  %-8s %s, %s: %u server\n",
                                    "  %-8s %s, %s: %u servers\n", n),
                       plugboard_cli_scope_name (file->scope), path, member, n);
            }
        }
    }

  return any_error ? EXIT_SETTINGS : 0;
}

/* copy */

/* "a,b" and repeated options, as client kinds */
static int
parse_targets (PlugboardCli  *cli,
               char         **texts,
               GArray        *kinds)
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (texts[i], ",", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          McpClientKind kind;
          int status;
          g_strstrip (parts[j]);
          if (*parts[j] == '\0')
            continue;
          if ((status = plugboard_cli_parse_client (cli, "--to", parts[j], &kind)) != 0)
            return status;
          for (guint k = 0; k < kinds->len; k++)
            if (g_array_index (kinds, McpClientKind, k) == kind)
              goto next;
          g_array_append_val (kinds, kind);
        next:
          ;
        }
    }
  return 0;
}

/* Where @name is among @from's servers: the scope that wins (local over
 * project over user), as the client itself reads them. */
static gboolean
find_source_scope (GPtrArray      *summaries,
                   McpClientKind   from,
                   const char     *name,
                   McpConfigScope *out_scope)
{
  McpClientSummary *summary = summaries->pdata[from];
  static const McpConfigScope order[] = {
    MCP_CONFIG_SCOPE_LOCAL, MCP_CONFIG_SCOPE_PROJECT, MCP_CONFIG_SCOPE_USER,
  };

  for (guint o = 0; o < G_N_ELEMENTS (order); o++)
    for (guint i = 0; i < summary->servers->len; i++)
      {
        McpClientServer *server = summary->servers->pdata[i];

        if (server->scope == order[o] && g_strcmp0 (server->name, name) == 0)
          {
            *out_scope = server->scope;
            return TRUE;
          }
      }
  return FALSE;
}

static JsonObject *
target_to_json (McpCopyTarget *target)
{
  JsonObject *object = json_object_new ();
  JsonArray *notes = json_array_new ();

  json_object_set_string_member (object, "client", mcp_client_kind_to_id (target->kind));
  json_object_set_string_member (object, "scope", plugboard_cli_scope_name (target->scope));
  json_object_set_string_member (object, "path", target->path);
  json_object_set_boolean_member (object, "changes", target->after != NULL);
  if (target->diff != NULL)
    json_object_set_string_member (object, "diff", target->diff);
  for (guint i = 0; target->notes != NULL && i < target->notes->len; i++)
    json_array_add_string_element (notes, target->notes->pdata[i]);
  json_object_set_array_member (object, "notes", notes);
  if (target->error != NULL)
    json_object_set_string_member (object, "error", target->error->message);
  return object;
}

static void
print_target (McpCopyTarget *target)
{
  g_autofree char *path = plugboard_cli_escape (target->path);

  /* TRANSLATORS: %s: a client ("VS Code"); %s: user, project or local; %s: its file */
  g_print (_("%s, %s: %s\n"), mcp_client_kind_get_display_name (target->kind),
           plugboard_cli_scope_name (target->scope), path);
  for (guint i = 0; target->notes != NULL && i < target->notes->len; i++)
    {
      g_autofree char *note = plugboard_cli_escape (target->notes->pdata[i]);

      g_print ("  %s\n", note);
    }
  if (target->error != NULL)
    {
      g_autofree char *message = plugboard_cli_escape (target->error->message);

      /* TRANSLATORS: %s: why a file cannot be changed */
      g_print (_("  not copied: %s\n"), message);
    }
  else if (target->diff == NULL)
    g_print (_("  no change\n"));
  else
    /* the diff is the file's own text, escaped line by line */
    plugboard_cli_print_text_block (target->diff);
  g_print ("\n");
}

int
plugboard_cli_copy (PlugboardCli *cli,
                    int           argc,
                    char        **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GPtrArray) plan = NULL;
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (McpClientKind));
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *project = NULL;
  g_autofree char *plugboard_dir = NULL;
  g_autofree char *from_text = NULL;
  g_autofree char *from_scope_text = NULL;
  g_auto(GStrv) to_texts = NULL;
  gboolean all = FALSE, dry_run = FALSE, replace = FALSE;
  McpClientKind from;
  McpConfigScope from_scope = MCP_CONFIG_SCOPE_USER, to_scope = MCP_CONFIG_SCOPE_USER;
  const char *names[2] = { NULL, NULL };
  gboolean failed = FALSE, any_change = FALSE;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, N_("The client to copy from"), N_("CLIENT") },
    { "from-scope", 0, 0, G_OPTION_ARG_STRING, &from_scope_text,
      N_("Its settings to copy from: user, project or local (default: where the server is)"), N_("SCOPE") },
    { "to", 0, 0, G_OPTION_ARG_STRING_ARRAY, &to_texts,
      N_("A client to copy to (repeatable, or comma-separated)"), N_("CLIENT") },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_("Copy every server of the --from-scope settings"), NULL },
    { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run, N_("Print each file's change, write nothing"), NULL },
    { "replace", 0, 0, G_OPTION_ARG_NONE, &replace,
      N_("Replace a server of the same name in a target (keeping what only it has)"), NULL },
    { NULL }
  };
  int status;

  if ((status = plugboard_cli_parse_settings_options (cli, entries, TRUE, TRUE, &argc, &argv)) != 0 ||
      (status = plugboard_cli_check_count (cli, argc, argv, all ? 0 : 1, all ? 0 : 1,
                                           all ? NULL : _("the name of the server"))) != 0 ||
      (status = get_folders (cli, &project, &plugboard_dir)) != 0)
    return status;
  if (cli->client_opt != NULL)
    return plugboard_cli_usage_error (cli->verb, _("copy takes --from and --to, not --client"));
  if (from_text == NULL)
    return plugboard_cli_usage_error (cli->verb, _("Give the client to copy from with --from"));
  if ((status = plugboard_cli_parse_client (cli, "--from", from_text, &from)) != 0 ||
      (status = parse_targets (cli, to_texts, targets)) != 0)
    return status;
  if (targets->len == 0)
    return plugboard_cli_usage_error (cli->verb, _("Give a client to copy to with --to"));
  for (guint i = 0; i < targets->len; i++)
    if (g_array_index (targets, McpClientKind, i) == from && from_scope_text == NULL && cli->scope_opt == NULL)
      return plugboard_cli_usage_error (cli->verb, _("--from and --to are the same client; give --from-scope and --scope"));
  if (from_scope_text != NULL && !plugboard_cli_parse_scope (from_scope_text, &from_scope))
    return plugboard_cli_usage_error (cli->verb, _("--from-scope must be user, project or local, not “%s”"),
                                      from_scope_text);
  if (cli->scope_opt != NULL)
    plugboard_cli_parse_scope (cli->scope_opt, &to_scope);
  if (!all)
    names[0] = argv[1];

  summaries = scan (cli, project, plugboard_dir, &error);
  if (summaries == NULL)
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }
  if (!all && from_scope_text == NULL && !find_source_scope (summaries, from, names[0], &from_scope))
    {
      g_autofree char *shown = plugboard_cli_escape (names[0]);

      /* TRANSLATORS: %s: a server name; %s: a client ("Cursor") */
      plugboard_cli_print_failure (cli, _("No server “%s” in %s's settings"), shown,
                                   mcp_client_kind_get_display_name (from));
      return EXIT_SETTINGS;
    }

  mcp_client_copy_plan_async (from, from_scope, all ? NULL : names,
                              (const McpClientKind *) (gpointer) targets->data, targets->len,
                              to_scope, replace ? MCP_COPY_FLAGS_REPLACE : MCP_COPY_FLAGS_NONE,
                              NULL, NULL, plugboard_dir, project, cli->cancellable,
                              plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  plan = mcp_client_copy_plan_finish (result, &error);
  g_clear_object (&result);
  if (plan == NULL)
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  for (guint i = 0; i < plan->len; i++)
    {
      McpCopyTarget *target = plan->pdata[i];

      failed |= target->error != NULL;
      any_change |= target->after != NULL && target->error == NULL;
      if (!cli->json)
        print_target (target);
    }

  if (!dry_run && any_change)
    {
      mcp_client_copy_apply_async (plan, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      if (!mcp_client_copy_apply_finish (result, &error))
        {
          if (cli->interrupted)
            return plugboard_cli_cancelled (cli);
          if (!cli->json)
            plugboard_cli_print_failure (cli, "%s", error->message);
          failed = TRUE;
        }
    }

  if (cli->json)
    {
      g_autoptr(JsonArray) array = json_array_new ();
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();

      for (guint i = 0; i < plan->len; i++)
        json_array_add_object_element (array, target_to_json (plan->pdata[i]));
      json_object_set_boolean_member (object, "written", !dry_run && any_change);
      json_object_set_array_member (object, "targets", json_array_ref (array));
      json_node_take_object (node, object);
      plugboard_cli_print_json (node);
    }
  else if (dry_run)
    g_print (_("Nothing written (--dry-run).\n"));
  else if (!any_change)
    g_print (_("Nothing to write.\n"));

  return failed ? EXIT_SETTINGS : 0;
}
