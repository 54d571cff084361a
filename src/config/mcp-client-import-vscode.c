/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-import"

#include "config.h"

#include "mcp-client-import-private.h"

#include "mcp-client-shape-private.h"

/* VS Code's variables in an imported entry: ${env:NAME}, ${workspaceFolder},
 * ${userHome}, and what cannot be carried over (${input:…}) noted, as VS
 * Code's shape converts them (mcp-client-shape.c). */

JsonArray *
mcp_client_import_vscode_inputs (JsonObject *root)
{
  JsonNode *node = json_object_get_member (root, "inputs");

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_array_ref (json_node_get_array (node));
}

JsonObject *
mcp_client_import_vscode_entry (const ScanData *data,
                                JsonArray      *inputs,
                                GPtrArray      *notes,
                                JsonObject     *entry)
{
  McpClientShapeContext context = { data->home, data->project_dir, inputs, NULL };
  McpShapeRun run = { MCP_CLIENT_KIND_VSCODE, "", &context, notes, MCP_SHAPE_VARS_EDITOR };
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), entry);
  g_autoptr(JsonNode) converted = mcp_shape_vars_in_node (&run, node);

  return json_object_ref (json_node_get_object (converted));
}
