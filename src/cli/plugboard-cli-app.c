/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "mcp-json-private.h"
#include "mcp-tool.h"
#include "mcp-ui-resource.h"

#include "plugboard-cli-private.h"

/* MCP Apps on the terminal: a terminal cannot show a tool's interface, so
 * the listing says which tools have one, a call says so after its result,
 * and app --save writes the interface and the call beside it for a person
 * (or a browser, or a reviewer) to look at. */

static JsonArray *
visibility_to_json (McpToolVisibility visibility)
{
  JsonArray *array = json_array_new ();

  if (visibility & MCP_TOOL_VISIBILITY_MODEL)
    json_array_add_string_element (array, "model");
  if (visibility & MCP_TOOL_VISIBILITY_APP)
    json_array_add_string_element (array, "app");
  return array;
}

/* {"resourceUri": "ui://…", "visibility": ["model", "app"], "appOnly": false} */
JsonObject *
plugboard_cli_interface_to_json (McpTool *tool)
{
  McpToolVisibility visibility = mcp_tool_get_ui_visibility (tool);
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "resourceUri", mcp_tool_get_ui_resource_uri (tool));
  json_object_set_array_member (object, "visibility", visibility_to_json (visibility));
  json_object_set_boolean_member (object, "appOnly", !(visibility & MCP_TOOL_VISIBILITY_MODEL));
  return object;
}

/* "  interface: ui://… (app only: its interface calls it)" in tools. */
void
plugboard_cli_print_interface_line (McpTool *tool)
{
  const char *uri = mcp_tool_get_ui_resource_uri (tool);
  g_autofree char *shown = NULL;

  if (uri == NULL)
    return;

  shown = plugboard_cli_escape (uri);
  if (!(mcp_tool_get_ui_visibility (tool) & MCP_TOOL_VISIBILITY_MODEL))
    g_print (_("  interface: %s (app only: meant to be called by its interface)\n"), shown);
  else
    g_print (_("  interface: %s\n"), shown);
}

/* After call's result, on stderr: the result above is the text a
 * terminal can show, and there is more. */
void
plugboard_cli_note_interface (PlugboardCli *cli,
                              McpPoolTool  *tool)
{
  const char *uri = mcp_tool_get_ui_resource_uri (mcp_pool_tool_get_tool (tool));
  g_autofree char *shown = NULL;

  if (uri == NULL || cli->json)
    return;

  shown = plugboard_cli_escape (uri);
  g_printerr (_("%s: “%s” has an interface (%s): Plugboard shows it beside the result; "
                "“%s app … --save DIR” saves it with this call's input and result.\n"),
              PROGRAM_NAME, plugboard_cli_tool_name (cli, tool), shown, PROGRAM_NAME);
}

int
plugboard_cli_read_interface (PlugboardCli         *cli,
                              McpServerConnection  *connection,
                              McpPoolTool          *tool,
                              McpUiResource       **out_resource)
{
  const char *uri = mcp_tool_get_ui_resource_uri (mcp_pool_tool_get_tool (tool));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpUiResource *resource;

  if (uri == NULL)
    {
      plugboard_cli_print_failure (cli, _("the tool “%s” has no interface (its _meta.ui.resourceUri "
                                          "names no ui:// resource); run it with “%s call”"),
                                   plugboard_cli_tool_name (cli, tool), PROGRAM_NAME);
      return EXIT_USAGE;
    }

  mcp_server_connection_read_ui_resource_async (connection, uri, MCP_UI_READ_FLAGS_NONE,
                                                cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  resource = mcp_server_connection_read_ui_resource_finish (connection, result, &error);
  if (resource == NULL)
    {
      g_autofree char *description = NULL;
      g_autofree char *shown = plugboard_cli_escape (uri);

      if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return plugboard_cli_cancelled (cli);
      description = plugboard_cli_describe_error (error);
      plugboard_cli_print_failure (cli, _("reading the interface %s of “%s” failed: %s"),
                                   shown, plugboard_cli_tool_name (cli, tool), description);
      return EXIT_CONNECTION;
    }

  *out_resource = resource;
  return 0;
}

static JsonArray *
strv_to_json (const char * const *strv)
{
  JsonArray *array = json_array_new ();

  for (gsize i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  return array;
}

/* interface.json: what a reviewer needs beside the HTML — where it came
 * from, what it is, and the policy Plugboard would show it under. */
static JsonObject *
describe_resource (McpUiResource *resource)
{
  JsonObject *object = json_object_new ();
  g_autofree char *csp = mcp_ui_resource_build_csp (resource);
  McpUiBorder border = mcp_ui_resource_get_border (resource);

  json_object_set_string_member (object, "uri", mcp_ui_resource_get_uri (resource));
  json_object_set_string_member (object, "mimeType", mcp_ui_resource_get_mime_type (resource));
  json_object_set_int_member (object, "size", mcp_ui_resource_get_html_length (resource));
  json_object_set_string_member (object, "sha256", mcp_ui_resource_get_digest (resource));
  json_object_set_string_member (object, "contentSecurityPolicy", csp);
  json_object_set_object_member (object, "csp", mcp_ui_resource_dup_csp_json (resource));
  json_object_set_array_member (object, "rejectedSources",
                                strv_to_json (mcp_ui_resource_get_rejected_sources (resource)));
  json_object_set_object_member (object, "permissions", mcp_ui_resource_dup_permissions_json (resource));
  if (mcp_ui_resource_get_domain (resource) != NULL)
    json_object_set_string_member (object, "domain", mcp_ui_resource_get_domain (resource));
  else
    json_object_set_null_member (object, "domain");
  if (border == MCP_UI_BORDER_UNSET)
    json_object_set_null_member (object, "prefersBorder");
  else
    json_object_set_boolean_member (object, "prefersBorder", border == MCP_UI_BORDER_VISIBLE);
  if (mcp_ui_resource_get_ttl_ms (resource) >= 0)
    json_object_set_int_member (object, "ttlMs", mcp_ui_resource_get_ttl_ms (resource));
  return object;
}

static char *
object_to_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  GString *out = g_string_new (NULL);

  json_node_set_object (node, object);
  mcp_json_append_pretty (out, node);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* Writes @name in @dir through a temporary file and a rename: a symbolic
 * link planted at the name is replaced, never followed. */
static gboolean
write_file (const char  *dir,
            const char  *name,
            const char  *contents,
            gssize       length,
            GError     **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_set_contents_full (path, contents, length,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0644, error);
}

int
plugboard_cli_save_interface (PlugboardCli  *cli,
                              const char    *dir,
                              McpUiResource *resource,
                              JsonObject    *arguments,
                              JsonObject    *result)
{
  g_autoptr(JsonObject) description = describe_resource (resource);
  g_autoptr(JsonObject) input = json_object_new ();
  g_autofree char *description_text = NULL;
  g_autofree char *input_text = NULL;
  g_autofree char *result_text = NULL;
  g_autofree char *shown_dir = plugboard_cli_escape (dir);
  g_autoptr(GError) error = NULL;
  int saved_errno;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      saved_errno = errno;
      plugboard_cli_print_failure (cli, _("cannot make the folder %s: %s"), shown_dir, g_strerror (saved_errno));
      return EXIT_SETTINGS;
    }

  json_object_set_object_member (input, "arguments",
                                 arguments != NULL ? json_object_ref (arguments) : json_object_new ());
  description_text = object_to_text (description);
  input_text = object_to_text (input);
  result_text = object_to_text (result);

  if (!write_file (dir, "interface.html", mcp_ui_resource_get_html (resource),
                   mcp_ui_resource_get_html_length (resource), &error) ||
      !write_file (dir, "interface.json", description_text, -1, &error) ||
      !write_file (dir, "input.json", input_text, -1, &error) ||
      !write_file (dir, "result.json", result_text, -1, &error))
    {
      plugboard_cli_print_failure (cli, _("saving the interface in %s failed: %s"), shown_dir, error->message);
      return EXIT_SETTINGS;
    }

  g_printerr (_("%s: saved the interface (interface.html, its policy in interface.json) and the call "
                "(input.json, result.json) in %s\n"), PROGRAM_NAME, shown_dir);
  return 0;
}
