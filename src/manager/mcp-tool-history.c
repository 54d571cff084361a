/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-history"

#include "config.h"

#include "mcp-tool-history.h"
#include "mcp-tool-history-private.h"

#include "mcp-history-entry-private.h"

/* The object and the session's calls (McpHistoryEntry, newest first, all
 * of them and per tool). The argument sets saved per tool are in
 * mcp-tool-history-saved.c. */

G_DEFINE_FINAL_TYPE (McpToolHistory, mcp_tool_history, G_TYPE_OBJECT)

static void
mcp_tool_history_finalize (GObject *object)
{
  McpToolHistory *self = MCP_TOOL_HISTORY (object);

  g_free (self->path);
  g_clear_object (&self->calls);
  g_clear_pointer (&self->per_tool, g_hash_table_unref);

  G_OBJECT_CLASS (mcp_tool_history_parent_class)->finalize (object);
}

static void
mcp_tool_history_class_init (McpToolHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_tool_history_finalize;
}

static void
mcp_tool_history_init (McpToolHistory *self)
{
  self->calls = g_list_store_new (MCP_TYPE_HISTORY_ENTRY);
  self->per_tool = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

McpToolHistory *
mcp_tool_history_new (const char *path)
{
  McpToolHistory *self = g_object_new (MCP_TYPE_TOOL_HISTORY, NULL);

  if (path != NULL)
    self->path = g_strdup (path);
  else
    self->path = g_build_filename (g_get_user_data_dir (), "plugboard",
                                   "saved-arguments.json", NULL);

  return self;
}

static GListStore *
get_tool_store (McpToolHistory *self,
                const char     *qualified_name)
{
  GListStore *store = g_hash_table_lookup (self->per_tool, qualified_name);

  if (store == NULL)
    {
      store = g_list_store_new (MCP_TYPE_HISTORY_ENTRY);
      g_hash_table_insert (self->per_tool, g_strdup (qualified_name), store);
    }

  return store;
}

McpHistoryEntry *
mcp_tool_history_start (McpToolHistory *self,
                        const char     *qualified_name,
                        JsonObject     *arguments)
{
  McpHistoryEntry *entry;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  /* A copy, sealed: the entry's arguments never change, whatever the
   * caller does with its object afterwards. */
  if (arguments != NULL)
    {
      g_autoptr(JsonNode) copy = mcp_tool_history_copy_object (arguments);

      entry = mcp_history_entry_new (qualified_name, json_node_get_object (copy));
    }
  else
    {
      g_autoptr(JsonObject) empty = json_object_new ();

      entry = mcp_history_entry_new (qualified_name, empty);
    }

  g_list_store_insert (self->calls, 0, entry);
  g_list_store_insert (get_tool_store (self, qualified_name), 0, entry);
  /* The history holds it; the caller borrows it (the app takes its own
   * reference). Returning the reference of g_object_new() leaked one entry
   * per call. */
  g_object_unref (entry);

  return entry;
}

GListModel *
mcp_tool_history_get_calls (McpToolHistory *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  return G_LIST_MODEL (self->calls);
}

GListModel *
mcp_tool_history_get_calls_for (McpToolHistory *self,
                                const char     *qualified_name)
{
  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  return G_LIST_MODEL (get_tool_store (self, qualified_name));
}

JsonNode *
mcp_tool_history_copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, object);
  text = json_to_string (node, FALSE);
  return json_from_string (text, NULL);
}
