/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-tool-result.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

struct _McpToolResult
{
  GObject      parent_instance;

  gboolean     is_error;

  /* borrowed from object */
  JsonNode    *structured_content;
  JsonObject  *meta;

  /* owned */
  JsonObject  *object;
  GPtrArray   *content;
};

G_DEFINE_FINAL_TYPE (McpToolResult, mcp_tool_result, G_TYPE_OBJECT)

static void
mcp_tool_result_finalize (GObject *object)
{
  McpToolResult *self = (McpToolResult *)object;

  g_clear_pointer (&self->content, g_ptr_array_unref);
  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_tool_result_parent_class)->finalize (object);
}

static void
mcp_tool_result_class_init (McpToolResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_tool_result_finalize;
}

static void
mcp_tool_result_init (McpToolResult *self)
{
  self->content = g_ptr_array_new_with_free_func (g_object_unref);
}

McpToolResult *
mcp_tool_result_new_from_json (JsonObject  *object,
                               GError     **error)
{
  g_autoptr(McpToolResult) self = NULL;
  JsonNode *content;
  JsonNode *structured;
  JsonNode *is_error;
  JsonNode *meta;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (MCP_TYPE_TOOL_RESULT, NULL);
  self->object = json_object_ref (object);

  content = json_object_get_member (object, "content");
  if (content != NULL)
    {
      JsonArray *array;
      guint n;

      if (!JSON_NODE_HOLDS_ARRAY (content))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("tool result: content must be an array"));
          return NULL;
        }

      array = json_node_get_array (content);
      n = json_array_get_length (array);
      g_ptr_array_set_size (self->content, 0);

      for (guint i = 0; i < n; i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          McpContent *block;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("content[%u]: must be an object"), i);
              return NULL;
            }

          block = mcp_content_new_from_json (json_node_get_object (element), error);
          if (block == NULL)
            {
              g_prefix_error (error, "content[%u]: ", i);
              return NULL;
            }

          g_ptr_array_add (self->content, block);
        }
    }

  structured = json_object_get_member (object, "structuredContent");
  if (structured != NULL && !JSON_NODE_HOLDS_NULL (structured))
    self->structured_content = structured;

  is_error = json_object_get_member (object, "isError");
  if (is_error != NULL && !JSON_NODE_HOLDS_NULL (is_error))
    {
      if (json_node_get_value_type (is_error) != G_TYPE_BOOLEAN)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("tool result: isError must be a boolean"));
          return NULL;
        }
      self->is_error = json_node_get_boolean (is_error);
    }

  meta = json_object_get_member (object, "_meta");
  if (meta != NULL && JSON_NODE_HOLDS_OBJECT (meta))
    self->meta = json_node_get_object (meta);
  else if (meta != NULL && !JSON_NODE_HOLDS_NULL (meta))
    g_debug ("tool result: ignoring _meta, which is not an object");

  return g_steal_pointer (&self);
}

GPtrArray *
mcp_tool_result_get_content (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return self->content;
}

JsonNode *
mcp_tool_result_get_structured_content (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return self->structured_content;
}

gboolean
mcp_tool_result_get_is_error (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), FALSE);

  return self->is_error;
}

JsonObject *
mcp_tool_result_get_meta (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return self->meta;
}

JsonObject *
mcp_tool_result_get_json (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return self->object;
}
