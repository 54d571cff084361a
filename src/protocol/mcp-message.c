/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-message.h"
#include "mcp-message-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpMessage: the object, its constructors and getters, and the HTTP
 * headers a request carries. Writing: mcp-message-write.c; reading:
 * mcp-message-parse.c. */

G_DEFINE_FINAL_TYPE (McpMessage, mcp_message, G_TYPE_OBJECT)

static void
mcp_message_finalize (GObject *object)
{
  McpMessage *self = (McpMessage *)object;

  g_clear_pointer (&self->object, json_object_unref);
  g_clear_pointer (&self->id, json_node_unref);
  g_clear_pointer (&self->method, g_free);
  g_clear_pointer (&self->params, json_node_unref);
  g_clear_pointer (&self->result, json_node_unref);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->error_data, json_node_unref);
  g_clear_pointer (&self->headers, g_hash_table_unref);

  G_OBJECT_CLASS (mcp_message_parent_class)->finalize (object);
}

static void
mcp_message_class_init (McpMessageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_message_finalize;
}

static void
mcp_message_init (McpMessage *self)
{
}

gboolean
mcp_message_id_is_valid (JsonNode *id)
{
  GType type;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return FALSE;

  type = json_node_get_value_type (id);

  return type == G_TYPE_INT64 || type == G_TYPE_STRING;
}

McpMessage *
mcp_message_new_with_kind (McpMessageKind  kind,
                           JsonNode       *id)
{
  McpMessage *self = g_object_new (MCP_TYPE_MESSAGE, NULL);

  self->kind = kind;
  if (id != NULL)
    self->id = json_node_ref (id);

  return self;
}

McpMessage *
mcp_message_new_request (JsonNode   *id,
                         const char *method,
                         JsonNode   *params)
{
  McpMessage *self;

  g_return_val_if_fail (mcp_message_id_is_valid (id), NULL);
  g_return_val_if_fail (method != NULL, NULL);

  self = mcp_message_new_with_kind (MCP_MESSAGE_REQUEST, id);
  self->method = g_strdup (method);
  if (params != NULL)
    self->params = json_node_ref (params);

  return self;
}

McpMessage *
mcp_message_new_notification (const char *method,
                              JsonNode   *params)
{
  McpMessage *self;

  g_return_val_if_fail (method != NULL, NULL);

  self = mcp_message_new_with_kind (MCP_MESSAGE_NOTIFICATION, NULL);
  self->method = g_strdup (method);
  if (params != NULL)
    self->params = json_node_ref (params);

  return self;
}

McpMessage *
mcp_message_new_result (JsonNode *id,
                        JsonNode *result)
{
  McpMessage *self;

  g_return_val_if_fail (mcp_message_id_is_valid (id), NULL);
  g_return_val_if_fail (result != NULL, NULL);

  self = mcp_message_new_with_kind (MCP_MESSAGE_RESULT, id);
  self->result = json_node_ref (result);

  return self;
}

McpMessage *
mcp_message_new_error (JsonNode   *id,
                       int         code,
                       const char *message,
                       JsonNode   *data)
{
  McpMessage *self;

  g_return_val_if_fail (id == NULL || JSON_NODE_HOLDS_NULL (id) || mcp_message_id_is_valid (id), NULL);
  g_return_val_if_fail (message != NULL, NULL);

  self = mcp_message_new_with_kind (MCP_MESSAGE_ERROR, NULL);
  if (id != NULL && !JSON_NODE_HOLDS_NULL (id))
    self->id = json_node_ref (id);
  self->error_code = code;
  self->error_message = g_strdup (message);
  if (data != NULL)
    self->error_data = json_node_ref (data);

  return self;
}

JsonNode *
mcp_message_id_new_int (gint64 id)
{
  JsonNode *node = json_node_alloc ();

  return json_node_init_int (node, id);
}

JsonNode *
mcp_message_id_new_string (const char *id)
{
  JsonNode *node;

  g_return_val_if_fail (id != NULL, NULL);

  node = json_node_alloc ();

  return json_node_init_string (node, id);
}

McpMessageKind
mcp_message_get_kind (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), MCP_MESSAGE_NOTIFICATION);

  return self->kind;
}

JsonNode *
mcp_message_get_id (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->id;
}

gboolean
mcp_message_get_int_id (McpMessage *self,
                        gint64     *out_id)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), FALSE);

  if (self->id == NULL || json_node_get_value_type (self->id) != G_TYPE_INT64)
    return FALSE;

  if (out_id != NULL)
    *out_id = json_node_get_int (self->id);

  return TRUE;
}

const char *
mcp_message_get_method (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->method;
}

JsonNode *
mcp_message_get_params (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->params;
}

JsonObject *
mcp_message_get_params_object (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  if (self->params == NULL || !JSON_NODE_HOLDS_OBJECT (self->params))
    return NULL;

  return json_node_get_object (self->params);
}

JsonNode *
mcp_message_get_result (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->result;
}

int
mcp_message_get_error_code (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), 0);

  return self->error_code;
}

const char *
mcp_message_get_error_message (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->error_message;
}

JsonNode *
mcp_message_get_error_data (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->error_data;
}

GError *
mcp_message_to_gerror (McpMessage *self)
{
  const char *message;

  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);
  g_return_val_if_fail (self->kind == MCP_MESSAGE_ERROR, NULL);

  message = self->error_message;
  if (message == NULL || message[0] == '\0')
    message = mcp_jsonrpc_error_code_to_string (self->error_code);
  if (message == NULL)
    message = _("Unknown error");

  return mcp_jsonrpc_error_new (self->error_code, message, self->error_data);
}

void
mcp_message_set_header (McpMessage *self,
                        const char *name,
                        const char *value)
{
  g_return_if_fail (MCP_IS_MESSAGE (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (value != NULL);

  if (self->headers == NULL)
    self->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (self->headers, g_strdup (name), g_strdup (value));
}

GHashTable *
mcp_message_get_headers (McpMessage *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  return self->headers;
}
