/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-import"

#include "config.h"

#include "mcp-client-import-private.h"

#include <glib/gi18n.h>

#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* One other client's file read: where its format keeps the servers, each
 * entry converted and checked, Claude Code's per-project servers. */

/* The file's top-level object; NULL when it is not an object (a problem). */
static JsonObject *
parse_root (Scan       *scan,
            const char *path,
            const char *contents,
            gsize       length,
            Dialect     dialect)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  /* VS Code's files allow comments and trailing commas */
  root = mcp_json_document_parse (contents, length,
                                  dialect == DIALECT_VSCODE ? MCP_JSON_DIALECT_JSONC : MCP_JSON_DIALECT_JSON,
                                  &error);
  if (root == NULL)
    {
      mcp_client_import_add_problem (scan, _("%s: not valid JSON: %s (its servers are not imported)"),
                                     path, error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      mcp_client_import_add_problem (scan, _("%s: $: expected an object (its servers are not imported)"),
                                     path);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/* ------------------------------------------------------------------------ */
/* Reading one file's servers                                               */

static void
read_servers (Scan           *scan,
              const char     *client,
              const char     *file,
              JsonObject     *root,
              const char     *container_path,
              JsonObject     *servers,
              McpConfigScope  scope,
              Dialect         dialect)
{
  g_autoptr(JsonArray) inputs = dialect == DIALECT_VSCODE ? mcp_client_import_vscode_inputs (root) : NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *path = mcp_json_path_append_member (container_path, name);
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(JsonObject) entry = NULL;
      g_autoptr(McpServerConfig) config = NULL;
      g_autoptr(GError) error = NULL;
      McpImportCandidate *candidate;

      if (!JSON_NODE_HOLDS_OBJECT (value))
        {
          mcp_client_import_add_problem (scan, _("%s: %s: expected an object (the server is not imported)"),
                                         file, path);
          continue;
        }

      if (dialect == DIALECT_VSCODE)
        {
          const char *env_file;

          entry = mcp_client_import_vscode_entry (scan->data, inputs, notes,
                                                  json_node_get_object (value));
          env_file = mcp_json_optional_string (entry, "envFile", "server", name);
          if (env_file != NULL)
            {
              /* Translators: %s is a file name */
              g_ptr_array_add (notes, g_strdup_printf (_("“envFile” (%s) is not read: copy its "
                                                         "variables into “env”"), env_file));
              json_object_remove_member (entry, "envFile");
            }
        }
      else
        {
          JsonNode *copy = json_node_copy (value);

          entry = json_object_ref (json_node_get_object (copy));
          json_node_unref (copy);
        }

      {
        char *normalized = mcp_server_config_normalize_remote (entry);

        if (normalized != NULL)
          g_ptr_array_add (notes, normalized);
      }

      config = mcp_server_config_new_from_json (name, scope, entry, file, path, &error);
      if (config == NULL)
        {
          mcp_client_import_add_problem (scan, _("%s (the server is not imported)"), error->message);
          continue;
        }

      candidate = g_new0 (McpImportCandidate, 1);
      candidate->client = g_strdup (client);
      candidate->file = g_strdup (file);
      candidate->name = g_strdup (name);
      candidate->entry = g_steal_pointer (&entry);
      candidate->scope = scope;
      if (notes->len > 0)
        {
          g_ptr_array_add (notes, NULL);
          candidate->note = g_strjoinv ("; ", (char **) notes->pdata);
        }
      g_ptr_array_add (scan->candidates, candidate);
    }
}

/* @object's member @container (a dotted list of members, from @base_path)
 * if it is an object: NULL when absent; a problem when it is something
 * else. */
static JsonObject *
get_container (Scan        *scan,
               const char  *file,
               JsonObject  *object,
               const char  *base_path,
               const char  *container,
               char       **out_path)
{
  g_auto(GStrv) members = g_strsplit (container, ".", -1);
  g_autofree char *path = g_strdup (base_path);

  for (guint i = 0; members[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (object, members[i]);
      g_autofree char *next = mcp_json_path_append_member (path, members[i]);

      g_free (path);
      path = g_steal_pointer (&next);

      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        return NULL;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          mcp_client_import_add_problem (scan, _("%s: %s: expected an object (its servers are not imported)"),
                                         file, path);
          return NULL;
        }
      object = json_node_get_object (node);
    }

  *out_path = g_steal_pointer (&path);
  return object;
}

/* Where each format keeps its servers */
static const struct
{
  const char *client;
  const char *container;    /* dotted; NULL: Claude Code's own layout */
  Dialect     dialect;
} formats[] = {
  [MCP_IMPORT_CLAUDE_DESKTOP] = { "Claude Desktop", "mcpServers", DIALECT_PLAIN },
  [MCP_IMPORT_CLAUDE_CODE] = { "Claude Code", NULL, DIALECT_PLAIN },
  [MCP_IMPORT_VSCODE] = { "VS Code", "servers", DIALECT_VSCODE },
  [MCP_IMPORT_VSCODE_SETTINGS] = { "VS Code", "mcp.servers", DIALECT_VSCODE },
  [MCP_IMPORT_CURSOR] = { "Cursor", "mcpServers", DIALECT_PLAIN },
};

/* Claude Code turns a server off in one project by naming it in
 * projects[dir].disabledMcpServers: the candidates read since @first say
 * so ("disabled": true), and why. */
static void
mark_switched_off (Scan       *scan,
                   guint       first,
                   JsonObject *project)
{
  JsonNode *node = json_object_get_member (project, "disabledMcpServers");
  JsonArray *names;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;

  names = json_node_get_array (node);
  for (guint i = first; i < scan->candidates->len; i++)
    {
      McpImportCandidate *candidate = scan->candidates->pdata[i];

      for (guint j = 0; j < json_array_get_length (names); j++)
        {
          JsonNode *name = json_array_get_element (names, j);
          const char *note = _("Turned off in this project in Claude Code");

          if (!JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING ||
              !g_str_equal (json_node_get_string (name), candidate->name))
            continue;

          json_object_set_boolean_member (candidate->entry, "disabled", TRUE);
          if (candidate->note == NULL)
            candidate->note = g_strdup (note);
          else
            {
              char *joined = g_strconcat (candidate->note, "; ", note, NULL);

              g_free (candidate->note);
              candidate->note = joined;
            }
          break;
        }
    }
}

/* Claude Code: ~/.claude.json has the user's servers and, per project
 * directory, the person's own ("local") servers for it. */
static void
import_claude_code (Scan       *scan,
                    const char *file,
                    JsonObject *root)
{
  g_autofree char *path = NULL;
  g_autofree char *project_path = NULL;
  g_autofree char *dir_path = NULL;
  guint first = scan->candidates->len;
  JsonObject *servers;
  JsonObject *projects;
  JsonNode *node;

  servers = get_container (scan, file, root, "$", "mcpServers", &path);
  if (servers != NULL)
    read_servers (scan, "Claude Code", file, root, path, servers,
                  MCP_CONFIG_SCOPE_USER, DIALECT_PLAIN);

  if (scan->data->project_dir == NULL)
    return;

  /* The project's key is its directory, which may hold dots: one member at
   * a time. */
  projects = get_container (scan, file, root, "$", "projects", &project_path);
  if (projects == NULL)
    return;

  node = json_object_get_member (projects, scan->data->project_dir);
  dir_path = mcp_json_path_append_member (project_path, scan->data->project_dir);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      mcp_client_import_add_problem (scan, _("%s: %s: expected an object (its servers are not imported)"),
                                     file, dir_path);
      return;
    }

  g_clear_pointer (&path, g_free);
  servers = get_container (scan, file, json_node_get_object (node), dir_path, "mcpServers", &path);
  if (servers != NULL)
    read_servers (scan, "Claude Code", file, root, path, servers,
                  MCP_CONFIG_SCOPE_LOCAL, DIALECT_PLAIN);

  mark_switched_off (scan, first, json_node_get_object (node));
}

void
mcp_client_import_text (Scan            *scan,
                        McpImportFormat  format,
                        const char      *file,
                        const char      *contents,
                        gsize            length,
                        McpConfigScope   scope)
{
  g_autoptr(JsonObject) root = parse_root (scan, file, contents, length, formats[format].dialect);
  g_autofree char *path = NULL;
  JsonObject *servers;

  if (root == NULL)
    return;

  if (formats[format].container == NULL)
    {
      import_claude_code (scan, file, root);
      return;
    }

  servers = get_container (scan, file, root, "$", formats[format].container, &path);
  if (servers != NULL)
    read_servers (scan, formats[format].client, file, root, path, servers, scope,
                  formats[format].dialect);
}

void
mcp_client_import_read (McpImportFormat  format,
                        const char      *file,
                        const char      *contents,
                        gsize            length,
                        McpConfigScope   scope,
                        const char      *home,
                        const char      *project_dir,
                        GPtrArray       *candidates,
                        GPtrArray       *problems)
{
  ScanData data = { (char *) home, (char *) project_dir };
  Scan scan = { &data, candidates, problems };

  g_return_if_fail (format < G_N_ELEMENTS (formats));

  mcp_client_import_text (&scan, format, file, contents, length, scope);
}
