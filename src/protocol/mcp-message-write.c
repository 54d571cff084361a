/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-message.h"
#include "mcp-message-private.h"

#include "mcp-json-private.h"

/* McpMessage written out: as a json-glib tree (mcp_message_to_node) and
 * as JSON text (mcp_message_to_string, every request's path). */

JsonNode *
mcp_message_to_node (McpMessage *self)
{
  JsonObject *object;
  JsonNode *node;

  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "jsonrpc", "2.0");

  switch (self->kind)
    {
    case MCP_MESSAGE_REQUEST:
      json_object_set_member (object, "id", json_node_ref (self->id));
      json_object_set_string_member (object, "method", self->method);
      if (self->params != NULL)
        json_object_set_member (object, "params", json_node_ref (self->params));
      break;

    case MCP_MESSAGE_NOTIFICATION:
      json_object_set_string_member (object, "method", self->method);
      if (self->params != NULL)
        json_object_set_member (object, "params", json_node_ref (self->params));
      break;

    case MCP_MESSAGE_RESULT:
      json_object_set_member (object, "id", json_node_ref (self->id));
      json_object_set_member (object, "result", json_node_ref (self->result));
      break;

    case MCP_MESSAGE_ERROR:
      {
        JsonObject *error = json_object_new ();

        if (self->id != NULL)
          json_object_set_member (object, "id", json_node_ref (self->id));
        else
          json_object_set_null_member (object, "id");

        json_object_set_int_member (error, "code", self->error_code);
        json_object_set_string_member (error, "message", self->error_message);
        if (self->error_data != NULL)
          json_object_set_member (error, "data", json_node_ref (self->error_data));
        json_object_set_object_member (object, "error", error);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  node = json_node_alloc ();
  json_node_init_object (node, object);
  json_object_unref (object);

  return node;
}

static void
append_member (GString    *out,
               const char *member,
               JsonNode   *value)
{
  g_string_append (out, member);
  mcp_json_append (out, value);
}

/* Written by hand rather than through mcp_message_to_node() and a
 * generator: this is every request's path. The text is one line, since
 * JSON escapes every newline inside strings. */
char *
mcp_message_to_string (McpMessage *self,
                       gsize      *length)
{
  GString *out;

  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  out = g_string_sized_new (128);
  g_string_append (out, "{\"jsonrpc\":\"2.0\"");

  switch (self->kind)
    {
    case MCP_MESSAGE_REQUEST:
      append_member (out, ",\"id\":", self->id);
      g_string_append (out, ",\"method\":");
      mcp_json_append_string (out, self->method);
      if (self->params != NULL)
        append_member (out, ",\"params\":", self->params);
      break;

    case MCP_MESSAGE_NOTIFICATION:
      g_string_append (out, ",\"method\":");
      mcp_json_append_string (out, self->method);
      if (self->params != NULL)
        append_member (out, ",\"params\":", self->params);
      break;

    case MCP_MESSAGE_RESULT:
      append_member (out, ",\"id\":", self->id);
      append_member (out, ",\"result\":", self->result);
      break;

    case MCP_MESSAGE_ERROR:
      /* a NULL id writes null */
      append_member (out, ",\"id\":", self->id);
      g_string_append_printf (out, ",\"error\":{\"code\":%d,\"message\":", self->error_code);
      mcp_json_append_string (out, self->error_message);
      if (self->error_data != NULL)
        append_member (out, ",\"data\":", self->error_data);
      g_string_append_c (out, '}');
      break;

    default:
      g_assert_not_reached ();
    }

  g_string_append_c (out, '}');

  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}
