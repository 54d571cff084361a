/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "plugboard-cli-private.h"

/* plugboard-cli resources, templates and read. */


int
plugboard_cli_resources (PlugboardCli *cli,
                         int           argc,
                         char        **argv)
{
  GListModel *resources;
  guint n;
  int status;

  /* The connection lists every page when it connects. */
  if ((status = plugboard_cli_start_listing (cli, argc, argv, mcp_server_connection_get_resources,
                                             (JsonObject *(*) (gpointer)) mcp_resource_get_json,
                                             _("resources"), "resources", &resources)) != 0 || resources == NULL)
    return status;
  n = g_list_model_get_n_items (resources);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpResource) resource = g_list_model_get_item (resources, i);
      const char *title = mcp_resource_get_title (resource);
      const char *mime_type = mcp_resource_get_mime_type (resource);
      gint64 size = mcp_resource_get_size (resource);
      g_autofree char *uri = plugboard_cli_escape (mcp_resource_get_uri (resource));
      g_autofree char *name = plugboard_cli_escape (mcp_resource_get_name (resource));
      g_autofree char *type = mime_type ? plugboard_cli_escape (mime_type) : NULL;

      if (i > 0)
        g_print ("\n");
      g_print ("%s\n", uri);
      if (title != NULL && g_strcmp0 (title, mcp_resource_get_name (resource)) != 0)
        {
          g_autofree char *line = plugboard_cli_one_line (title);

          g_print (_("  name: %s (%s)\n"), name, line);
        }
      else
        g_print (_("  name: %s\n"), name);
      g_print (_("  mimeType: %s\n"), type ? type : _("not given"));
      if (size >= 0)
        g_print (_("  size: %lld bytes\n"), (long long) size);
      plugboard_cli_print_description ("  ", mcp_resource_get_description (resource));
    }

  return 0;
}

int
plugboard_cli_templates (PlugboardCli *cli,
                         int           argc,
                         char        **argv)
{
  GListModel *templates;
  guint n;
  int status;

  if ((status = plugboard_cli_start_listing (cli, argc, argv, mcp_server_connection_get_resource_templates,
                                             (JsonObject *(*) (gpointer)) mcp_resource_template_get_json,
                                             _("resource templates"), "resources", &templates)) != 0 || templates == NULL)
    return status;
  n = g_list_model_get_n_items (templates);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpResourceTemplate) template = g_list_model_get_item (templates, i);
      const char *title = mcp_resource_template_get_title (template);
      const char *mime_type = mcp_resource_template_get_mime_type (template);
      g_autofree char *uri = plugboard_cli_escape (mcp_resource_template_get_uri_template (template));
      g_autofree char *name = plugboard_cli_escape (mcp_resource_template_get_name (template));
      g_autofree char *type = mime_type ? plugboard_cli_escape (mime_type) : NULL;

      if (i > 0)
        g_print ("\n");
      g_print ("%s\n", uri);
      if (title != NULL && g_strcmp0 (title, mcp_resource_template_get_name (template)) != 0)
        {
          g_autofree char *line = plugboard_cli_one_line (title);

          g_print (_("  name: %s (%s)\n"), name, line);
        }
      else
        g_print (_("  name: %s\n"), name);
      if (type != NULL)
        g_print (_("  mimeType: %s\n"), type);
      plugboard_cli_print_description ("  ", mcp_resource_template_get_description (template));
    }

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
plugboard_cli_read (PlugboardCli *cli,
                    int           argc,
                    char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  gboolean retried = FALSE;
  g_autoptr(GAsyncResult) processed_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autofree char *doing = NULL;
  g_autofree char *file_name = NULL;
  McpServerConnection *connection;
  McpClient *client;
  const char * const *notes;
  GPtrArray *blocks;
  FILE *extra;
  const char *server;
  const char *uri;
  int status;

  if ((status = plugboard_cli_start_server_verb (cli, NULL, TRUE, &argc, &argv, 1, _("the URI of the resource"))) != 0)
    return status;
  uri = argv[2];
  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;
  server = plugboard_cli_server_name (cli, connection);

  doing = g_strdup_printf (_("reading %s from “%s” failed"), uri, server);
  do
    {
      g_clear_object (&result);
      client = mcp_server_connection_get_client (connection);
      mcp_client_read_resource_async (client, uri, cli->cancellable, plugboard_cli_store_result_cb, &result);
      plugboard_cli_wait_for_result (&result);
      contents = mcp_client_read_resource_finish (client, result, &error);
    }
  while (contents == NULL && plugboard_cli_renew_session (cli, connection, &retried, &error));
  if (contents == NULL)
    return plugboard_cli_request_failure (cli, connection, doing, error);

  /* The contents go through what a tool's result goes through, so that a
   * blob is saved the same way and in the same place. */
  file_name = file_name_for (server, "resource");
  mcp_contents_process_async (contents, file_name,
                              mcp_server_connection_get_max_output_characters (connection),
                              cli->cancellable,
                              plugboard_cli_store_result_cb, &processed_result);
  plugboard_cli_wait_for_result (&processed_result);
  processed = mcp_tool_result_process_finish (processed_result, &error);
  if (processed == NULL)
    {
      status = cli->interrupted ? plugboard_cli_cancelled (cli) : EXIT_CONNECTION;
      if (!cli->interrupted)
        plugboard_cli_print_failure (cli, "%s: %s", doing, error->message);
      return status;
    }

  if (cli->json)
    {
      g_autoptr(JsonObject) read_result = json_object_new ();

      /* The server's items as it sent them, not the resource blocks the
       * client wraps them in. */
      for (guint i = 0; i < contents->len; i++)
        {
          JsonObject *block = mcp_content_get_json (g_ptr_array_index (contents, i));

          json_array_add_object_element (array,
                                         json_object_ref (json_object_get_object_member (block, "resource")));
        }
      json_object_set_array_member (read_result, "contents", json_array_ref (array));
      plugboard_cli_print_json_object (read_result);
    }

  /* Text as it is, so that `read NAME URI > FILE` gives the text; a URI
   * line before each only when there are several. */
  blocks = mcp_tool_result_get_content (mcp_processed_result_get_result (processed));
  for (guint i = 0; !cli->json && i < blocks->len; i++)
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
        plugboard_cli_print_content_block (block);
    }

  extra = cli->json ? stderr : stdout;
  if (cli->json)
    {
      const char * const *files = mcp_processed_result_get_files (processed);

      for (guint i = 0; files != NULL && files[i] != NULL; i++)
        plugboard_cli_print_to (extra, _("saved: %s\n"), files[i]);
    }
  notes = mcp_processed_result_get_notes (processed);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    plugboard_cli_print_to (extra, _("note: %s\n"), notes[i]);

  return 0;
}
