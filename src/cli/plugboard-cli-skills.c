/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "mcp-skill.h"

#include "plugboard-cli-private.h"

/* plugboard-cli skills and skill (Skills over MCP, SEP-2640): the listing
 * reads nothing; skill loads the SKILL.md, verified by the engine, and
 * with --save has the engine fetch every file of the entry, each
 * verified, before writing any (mcp_skill_save_async()). */

static int
list_skills (PlugboardCli         *cli,
             McpServerConnection  *connection,
             GPtrArray           **out_skills)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *doing = NULL;
  gboolean retried = FALSE;
  McpClient *client;
  const char *server = plugboard_cli_server_name (cli, connection);

  do
    {
      g_clear_object (&result);
      client = mcp_server_connection_get_client (connection);
      mcp_skills_list_async (client, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      *out_skills = mcp_skills_list_finish (client, result, &error);
    }
  while (*out_skills == NULL && plugboard_cli_renew_session (cli, connection, &retried, &error));

  if (*out_skills != NULL)
    return 0;
  doing = g_strdup_printf (_("listing the skills of “%s” failed"), server);
  return plugboard_cli_request_failure (cli, connection, doing, error);
}

static char *
files_column (McpSkill *skill)
{
  g_auto(GStrv) uris = NULL;

  if (mcp_skill_is_dynamic (skill))
    return g_strdup (_("dynamic"));
  uris = mcp_skill_get_file_uris (skill);
  return g_strdup_printf ("%u", g_strv_length (uris));
}

int
plugboard_cli_skills (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_autoptr(GPtrArray) skills = NULL;
  McpServerConnection *connection;
  int widths[4];
  int status;

  if ((status = plugboard_cli_start_server_verb (cli, NULL, TRUE, &argc, &argv, 0, NULL)) != 0)
    return status;
  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;
  if ((status = list_skills (cli, connection, &skills)) != 0)
    return status;

  if (cli->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      JsonArray *array = json_array_new ();

      /* The entries as the server sent them. */
      for (guint i = 0; i < skills->len; i++)
        json_array_add_object_element (array, json_object_ref (mcp_skill_get_entry (g_ptr_array_index (skills, i))));
      json_object_set_array_member (object, "skills", array);
      plugboard_cli_print_json_object (object);
      return 0;
    }

  if (skills->len == 0)
    {
      g_print (_("“%s” lists no skills.\n"), plugboard_cli_server_name (cli, connection));
      return 0;
    }

  widths[0] = plugboard_cli_display_width (_("NAME"));
  widths[1] = plugboard_cli_display_width (_("DESCRIPTION"));
  widths[2] = plugboard_cli_display_width (_("URI"));
  widths[3] = plugboard_cli_display_width (_("FILES"));
  for (guint i = 0; i < skills->len; i++)
    {
      McpSkill *skill = g_ptr_array_index (skills, i);
      g_autofree char *name = plugboard_cli_escape (mcp_skill_get_name (skill));
      g_autofree char *description = plugboard_cli_one_line (mcp_skill_get_description (skill));
      g_autofree char *uri = plugboard_cli_escape (mcp_skill_get_uri (skill));

      widths[0] = MAX (widths[0], plugboard_cli_display_width (name));
      widths[1] = MAX (widths[1], MIN (plugboard_cli_display_width (description), 60));
      widths[2] = MAX (widths[2], plugboard_cli_display_width (uri));
    }

  plugboard_cli_print_table_row (widths, 4, (const char *[]) { _("NAME"), _("DESCRIPTION"), _("URI"), _("FILES") });
  for (guint i = 0; i < skills->len; i++)
    {
      McpSkill *skill = g_ptr_array_index (skills, i);
      g_autofree char *name = plugboard_cli_escape (mcp_skill_get_name (skill));
      g_autofree char *line = plugboard_cli_one_line (mcp_skill_get_description (skill));
      g_autofree char *uri = plugboard_cli_escape (mcp_skill_get_uri (skill));
      g_autofree char *files = files_column (skill);
      g_autofree char *description = NULL;

      if (g_utf8_strlen (line, -1) > 60)
        {
          g_autofree char *cut = g_utf8_substring (line, 0, 59);

          description = g_strconcat (cut, "…", NULL);
        }
      else
        description = g_steal_pointer (&line);
      plugboard_cli_print_table_row (widths, 4, (const char *[]) { name, description, uri, files });
    }

  return 0;
}

/* ------------------------------------------------------------------------ */
/* skill NAME SKILL [--save DIR [--force]]                                  */

/* SKILL: a listed skill's URI, or a name only one listed skill has; a URI
 * not listed is asked for with skills/get. */
static int
find_skill (PlugboardCli         *cli,
            McpServerConnection  *connection,
            GPtrArray            *skills,
            const char           *wanted,
            McpSkill            **out_skill)
{
  g_autoptr(GPtrArray) named = g_ptr_array_new ();
  g_autofree char *shown = plugboard_cli_escape (wanted);
  const char *server = plugboard_cli_server_name (cli, connection);

  for (guint i = 0; i < skills->len; i++)
    {
      McpSkill *skill = g_ptr_array_index (skills, i);

      if (g_str_equal (mcp_skill_get_uri (skill), wanted))
        {
          *out_skill = g_object_ref (skill);
          return 0;
        }
      if (g_strcmp0 (mcp_skill_get_name (skill), wanted) == 0)
        g_ptr_array_add (named, skill);
    }

  if (named->len == 1)
    {
      *out_skill = g_object_ref (g_ptr_array_index (named, 0));
      return 0;
    }
  if (named->len > 1)
    {
      g_autoptr(GString) uris = g_string_new (NULL);

      for (guint i = 0; i < named->len; i++)
        {
          g_autofree char *uri = plugboard_cli_escape (mcp_skill_get_uri (g_ptr_array_index (named, i)));

          g_string_append_printf (uris, "%s%s", i > 0 ? ", " : "", uri);
        }
      plugboard_cli_print_failure (cli, _("“%s” lists several skills named %s (%s): give the URI of one"),
                                   server, shown, uris->str);
      return EXIT_USAGE;
    }

  if (strstr (wanted, "://") != NULL)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *doing = NULL;
      McpClient *client = mcp_server_connection_get_client (connection);

      mcp_skill_get_async (client, wanted, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      *out_skill = mcp_skill_get_finish (client, result, &error);
      if (*out_skill != NULL)
        return 0;
      doing = g_strdup_printf (_("getting the skill %s from “%s” failed"), shown, server);
      return plugboard_cli_request_failure (cli, connection, doing, error);
    }

  plugboard_cli_print_failure (cli, _("“%s” lists no skill named %s (see “%s skills %s”)"),
                               server, shown, PROGRAM_NAME, server);
  return EXIT_USAGE;
}

static int
save_skill (PlugboardCli        *cli,
            McpServerConnection *connection,
            McpSkill            *skill,
            const char          *dir,
            gboolean             force)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *shown = NULL;
  guint n_files = 0;

  mcp_skill_save_async (skill, mcp_server_connection_get_client (connection), dir, force,
                        cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  path = mcp_skill_save_finish (skill, result, &n_files, &error);
  if (path == NULL)
    {
      g_autofree char *uri = plugboard_cli_escape (mcp_skill_get_uri (skill));
      g_autofree char *doing = g_strdup_printf (_("saving the skill %s from “%s” failed"), uri,
                                                plugboard_cli_server_name (cli, connection));

      if (error->domain == G_IO_ERROR && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          plugboard_cli_print_failure (cli, "%s: %s", doing, error->message);
          return EXIT_SETTINGS;
        }
      return plugboard_cli_request_failure (cli, connection, doing, error);
    }

  shown = plugboard_cli_escape (path);
  g_printerr (g_dngettext (GETTEXT_PACKAGE, "%s: saved %u verified file in %s\n",
                           "%s: saved %u verified files in %s\n", n_files),
              PROGRAM_NAME, n_files, shown);
  return 0;
}

int
plugboard_cli_skill (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(McpSkill) skill = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *save_dir = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *doing = NULL;
  gboolean force = FALSE;
  McpServerConnection *connection;
  const char *text;
  gsize length;
  int status;
  GOptionEntry entries[] = {
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save_dir,
      N_("Save SKILL.md and every file of the skill, verified, under DIR/NAME"), N_("DIR") },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force, N_("With --save, replace files that exist"), NULL },
    { NULL }
  };

  if ((status = plugboard_cli_start_server_verb (cli, entries, FALSE, &argc, &argv, 1,
                                                 _("the skill's name or URI"))) != 0)
    return status;
  if (save_dir != NULL && *save_dir == '\0')
    return plugboard_cli_usage_error (cli->verb, _("--save needs a folder"));
  if (force && save_dir == NULL)
    return plugboard_cli_usage_error (cli->verb, _("--force goes with --save"));
  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;
  if ((status = list_skills (cli, connection, &skills)) != 0)
    return status;
  if ((status = find_skill (cli, connection, skills, argv[2], &skill)) != 0)
    return status;

  if (save_dir != NULL)
    return save_skill (cli, connection, skill, save_dir, force);

  {
    g_autoptr(GAsyncResult) result = NULL;

    mcp_skill_load_async (skill, mcp_server_connection_get_client (connection), cli->cancellable,
                          plugboard_cli_store_result_cb, &result);
    plugboard_cli_wait_for_result (&result);
    bytes = mcp_skill_load_finish (skill, result, &error);
  }
  if (bytes == NULL)
    {
      shown = plugboard_cli_escape (mcp_skill_get_uri (skill));
      doing = g_strdup_printf (_("loading the skill %s from “%s” failed"), shown,
                               plugboard_cli_server_name (cli, connection));
      return plugboard_cli_request_failure (cli, connection, doing, error);
    }

  text = g_bytes_get_data (bytes, &length);
  if (length == 0)
    return 0;
  /* On a terminal, escaped like everything else from a server. */
  if (isatty (STDOUT_FILENO) || !g_utf8_validate (text, length, NULL) || memchr (text, '\0', length) != NULL)
    {
      g_autofree char *copy = g_strndup (text, length);
      g_autofree char *escaped = plugboard_cli_escape (copy);

      g_print ("%s%s", escaped, g_str_has_suffix (escaped, "\n") ? "" : "\n");
    }
  else
    {
      fwrite (text, 1, length, stdout);
      if (text[length - 1] != '\n')
        fputc ('\n', stdout);
    }
  return 0;
}
