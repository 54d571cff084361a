/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "plugboard-cli-private.h"

#include "mcp-capability-history.h"

/* changes NAME [--since DATE] [--confirm TOOL]: what changed in a server's
 * tools, resources, templates, prompts and instructions (the capability
 * history), after connecting it once more; the tools whose allow rule a
 * change suspended, and their confirmation. */

/* @text as ISO 8601 (a date and time; local time without a zone) or a
 * date alone (YYYY-MM-DD, its midnight local time); NULL when neither. */
static GDateTime *
parse_since (const char *text)
{
  g_autoptr(GTimeZone) local = g_time_zone_new_local ();
  int year, month, day;
  char end;

  if (sscanf (text, "%4d-%2d-%2d%c", &year, &month, &day, &end) == 3 && strlen (text) == 10)
    return g_date_time_new (local, year, month, day, 0, 0, 0);
  return g_date_time_new_from_iso8601 (text, local);
}

static JsonNode *
change_to_json (McpCapabilityChange *change)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *time = g_date_time_format_iso8601 (change->time);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, mcp_capability_kind_to_string (change->kind));
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, change->name);
  json_builder_set_member_name (builder, "change");
  json_builder_add_string_value (builder, mcp_capability_change_type_to_string (change->change));
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, time);
  json_builder_set_member_name (builder, "suspended");
  json_builder_add_boolean_value (builder, change->flagged);
  if (change->description_diff != NULL)
    {
      json_builder_set_member_name (builder, "descriptionDiff");
      json_builder_add_string_value (builder, change->description_diff);
    }
  if (change->schema_diff != NULL)
    {
      json_builder_set_member_name (builder, "schemaDiff");
      json_builder_begin_array (builder);
      for (guint i = 0; change->schema_diff[i] != NULL; i++)
        json_builder_add_string_value (builder, change->schema_diff[i]);
      json_builder_end_array (builder);
    }
  if (change->old_definition != NULL)
    {
      json_builder_set_member_name (builder, "old");
      json_builder_add_value (builder, json_node_init_object (json_node_alloc (), change->old_definition));
    }
  if (change->new_definition != NULL)
    {
      json_builder_set_member_name (builder, "new");
      json_builder_add_value (builder, json_node_init_object (json_node_alloc (), change->new_definition));
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static const char *
describe_change (McpCapabilityChange *change)
{
  static const char * const what[MCP_N_CAPABILITY_KINDS][3] = {
    [MCP_CAPABILITY_KIND_TOOL] = { N_("added tool"), N_("removed tool"), N_("changed tool") },
    [MCP_CAPABILITY_KIND_RESOURCE] = { N_("added resource"), N_("removed resource"), N_("changed resource") },
    [MCP_CAPABILITY_KIND_TEMPLATE] = { N_("added resource template"), N_("removed resource template"),
                                       N_("changed resource template") },
    [MCP_CAPABILITY_KIND_PROMPT] = { N_("added prompt"), N_("removed prompt"), N_("changed prompt") },
    [MCP_CAPABILITY_KIND_INSTRUCTIONS] = { N_("added instructions"), N_("removed instructions"),
                                           N_("changed instructions") },
  };

  return _(what[change->kind][change->change]);
}

static void
print_change (const char          *server,
              McpCapabilityChange *change)
{
  g_autofree char *name = plugboard_cli_escape (change->name);
  g_autofree char *time = g_date_time_format (change->time, "%Y-%m-%d %H:%M");

  if (change->kind == MCP_CAPABILITY_KIND_INSTRUCTIONS)
    g_print ("  %s (%s)\n", describe_change (change), time);
  else
    g_print ("  %s “%s” (%s)\n", describe_change (change), name, time);

  if (change->flagged)
    {
      g_autofree char *shown_server = plugboard_cli_escape (server);

      g_print ("    ");
      /* Translators: the first %s is a server, the second a tool */
      g_print (_("Allowed before, changed since: the allow rule is suspended until you confirm "
                 "(plugboard-cli changes %s --confirm %s)\n"), shown_server, name);
    }
  if (change->description_diff != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (change->description_diff, "\n", -1);

      g_print ("    %s\n", _("Description:"));
      for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
        {
          g_autofree char *line = plugboard_cli_escape (lines[i] + 1);

          g_print ("      %c %s\n", lines[i][0], line);
        }
    }
  if (change->schema_diff != NULL)
    {
      g_print ("    %s\n", _("Schema:"));
      for (guint i = 0; change->schema_diff[i] != NULL; i++)
        {
          g_autofree char *line = plugboard_cli_escape (change->schema_diff[i]);

          g_print ("      %s\n", line);
        }
    }
}

int
plugboard_cli_changes (PlugboardCli *cli,
                       int           argc,
                       char        **argv)
{
  g_autofree char *since_text = NULL;
  g_autofree char *confirm = NULL;
  g_autoptr(GDateTime) since = NULL;
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shown_name = NULL;
  const char *name;
  int status;
  GOptionEntry entries[] = {
    { "since", 0, 0, G_OPTION_ARG_STRING, &since_text,
      N_("What changed since this time (ISO 8601, or YYYY-MM-DD) rather than since the previous connection"),
      N_("DATE") },
    { "confirm", 0, 0, G_OPTION_ARG_STRING, &confirm,
      N_("Confirm the tool's change after reviewing it: its allow rule applies again"), N_("TOOL") },
    { NULL }
  };

  if ((status = plugboard_cli_parse_settings_options (cli, entries, FALSE, TRUE, &argc, &argv)) != 0)
    return status;
  if ((status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
    return status;
  if (since_text != NULL && (since = parse_since (since_text)) == NULL)
    return plugboard_cli_usage_error (cli->verb, _("--since %s: not a date (YYYY-MM-DD) or an ISO 8601 time"),
                                      since_text);

  name = argv[1];
  shown_name = plugboard_cli_escape (name);
  if ((status = plugboard_cli_load_project (cli, (const char *[]) { name, NULL })) != 0 ||
      (status = plugboard_cli_refuse_broken_files (cli)) != 0)
    return status;
  if (plugboard_cli_lookup_or_fail (cli, name, &status) == NULL ||
      (status = plugboard_cli_settle (cli)) != 0)
    return status;

  if (confirm != NULL)
    {
      g_autofree char *shown_tool = plugboard_cli_escape (confirm);

      if (!mcp_project_confirm_tool (cli->project, name, confirm, &error))
        {
          plugboard_cli_print_failure (cli, "%s", error->message);
          return EXIT_TOOL_ERROR;
        }
      /* Translators: the first %s is a tool, the second a server */
      g_print (_("Confirmed “%s” of “%s” as it is now: its allow rule applies again.\n"),
               shown_tool, shown_name);
      return 0;
    }

  changes = mcp_project_list_changes (cli->project, name, since, &error);
  if (changes == NULL)
    {
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_SETTINGS;
    }

  if (cli->json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
      g_autoptr(JsonArray) array = json_array_new ();

      for (guint i = 0; i < changes->len; i++)
        json_array_add_element (array, change_to_json (g_ptr_array_index (changes, i)));
      json_node_set_array (node, array);
      plugboard_cli_print_json (node);
      return 0;
    }

  if (changes->len == 0)
    {
      if (since != NULL)
        g_print (_("Nothing changed in “%s” since %s.\n"), shown_name, since_text);
      else
        g_print (_("Nothing changed in “%s” since the previous connection.\n"), shown_name);
      return 0;
    }

  if (since != NULL)
    g_print (_("Changes of “%s” since %s:\n"), shown_name, since_text);
  else
    g_print (_("Changes of “%s” since the previous connection:\n"), shown_name);
  for (guint i = 0; i < changes->len; i++)
    print_change (name, g_ptr_array_index (changes, i));
  return 0;
}
