/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-message.h"
#include "mcp-message-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* McpMessage read: JSON-RPC 2.0 text or trees, one message or a batch,
 * checked member by member (errors name the place, as "$[2].error.code"). */

static gboolean G_GNUC_PRINTF (4, 5)
set_invalid (GError     **error,
             const char  *prefix,
             const char  *member,
             const char  *format,
             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error,
               MCP_JSONRPC_ERROR,
               MCP_JSONRPC_ERROR_INVALID_REQUEST,
               /* Translators: the first three %s are the place in the message (“$.id”, “$[2].error.code”), the last one what is wrong there */
               _("Invalid JSON-RPC message: %s%s%s %s"),
               prefix,
               member != NULL ? "." : "",
               member != NULL ? member : "",
               what);

  return FALSE;
}

static const char *
node_type_description (JsonNode *node)
{
  GType type;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      /* Translators: these name a JSON value's type, as in “must be a string, not an object” */
      return _("an object");
    case JSON_NODE_ARRAY:
      return _("an array");
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      break;
    }

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return _("an integer");
  if (type == G_TYPE_DOUBLE)
    return _("a number with a fraction or exponent");
  if (type == G_TYPE_BOOLEAN)
    return _("a boolean");
  if (type == G_TYPE_STRING)
    return _("a string");

  return _("a value of unknown type");
}

/* mcp_json_parse() reads an integer beyond 64 bits as a double; every
 * double that large is integral. */
static gboolean
is_out_of_range_integer (JsonNode *node)
{
  double value;

  if (json_node_get_value_type (node) != G_TYPE_DOUBLE)
    return FALSE;

  value = json_node_get_double (node);

  return value >= 9223372036854775808.0 || value <= -9223372036854775808.0;
}

static McpMessage *
message_from_node (JsonNode    *node,
                   const char  *prefix,
                   GError     **error)
{
  g_autoptr(McpMessage) self = NULL;
  JsonObject *object;
  JsonNode *jsonrpc;
  JsonNode *id;
  JsonNode *method;
  JsonNode *params;
  JsonNode *result;
  JsonNode *err;

  g_assert (node != NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_invalid (error, prefix, NULL, _("must be an object, not %s"),
                   node_type_description (node));
      return NULL;
    }

  object = json_node_get_object (node);

  jsonrpc = json_object_get_member (object, "jsonrpc");
  if (jsonrpc == NULL)
    {
      set_invalid (error, prefix, "jsonrpc", _("is missing (must be \"2.0\")"));
      return NULL;
    }
  if (json_node_get_value_type (jsonrpc) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (jsonrpc), "2.0") != 0)
    {
      set_invalid (error, prefix, "jsonrpc", _("must be \"2.0\""));
      return NULL;
    }

  id = json_object_get_member (object, "id");
  method = json_object_get_member (object, "method");
  params = json_object_get_member (object, "params");
  result = json_object_get_member (object, "result");
  err = json_object_get_member (object, "error");

  if (id != NULL && !JSON_NODE_HOLDS_NULL (id))
    {
      if (is_out_of_range_integer (id))
        {
          set_invalid (error, prefix, "id", _("is an integer outside the 64-bit range"));
          return NULL;
        }
      if (!mcp_message_id_is_valid (id))
        {
          set_invalid (error, prefix, "id", _("must be a string or an integer, not %s"),
                       node_type_description (id));
          return NULL;
        }
    }

  if (method != NULL)
    {
      if (json_node_get_value_type (method) != G_TYPE_STRING)
        {
          set_invalid (error, prefix, "method", _("must be a string, not %s"),
                       node_type_description (method));
          return NULL;
        }
      if (result != NULL || err != NULL)
        {
          set_invalid (error, prefix, NULL,
                       /* Translators: %s is “result” or “error”, JSON member names */
                       _("has both method and %s"),
                       result != NULL ? "result" : "error");
          return NULL;
        }
      if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params) && !JSON_NODE_HOLDS_ARRAY (params))
        {
          set_invalid (error, prefix, "params", _("must be an object or an array, not %s"),
                       node_type_description (params));
          return NULL;
        }

      if (id == NULL)
        {
          self = mcp_message_new_with_kind (MCP_MESSAGE_NOTIFICATION, NULL);
        }
      else if (JSON_NODE_HOLDS_NULL (id))
        {
          set_invalid (error, prefix, "id", _("must not be null in a request"));
          return NULL;
        }
      else
        {
          self = mcp_message_new_with_kind (MCP_MESSAGE_REQUEST, id);
        }

      self->method = g_strdup (json_node_get_string (method));
      if (params != NULL)
        self->params = json_node_ref (params);
    }
  else if (result != NULL && err != NULL)
    {
      set_invalid (error, prefix, NULL, _("has both result and error"));
      return NULL;
    }
  else if (result != NULL)
    {
      if (id == NULL)
        {
          set_invalid (error, prefix, "id", _("is missing in a response"));
          return NULL;
        }
      if (JSON_NODE_HOLDS_NULL (id))
        {
          set_invalid (error, prefix, "id", _("must not be null in a result"));
          return NULL;
        }

      self = mcp_message_new_with_kind (MCP_MESSAGE_RESULT, id);
      self->result = json_node_ref (result);
    }
  else if (err != NULL)
    {
      JsonObject *err_object;
      JsonNode *code;
      JsonNode *message;
      JsonNode *edata;
      gint64 code_value;

      if (id == NULL)
        {
          set_invalid (error, prefix, "id", _("is missing in a response"));
          return NULL;
        }
      if (!JSON_NODE_HOLDS_OBJECT (err))
        {
          set_invalid (error, prefix, "error", _("must be an object, not %s"),
                       node_type_description (err));
          return NULL;
        }

      err_object = json_node_get_object (err);
      code = json_object_get_member (err_object, "code");
      message = json_object_get_member (err_object, "message");
      edata = json_object_get_member (err_object, "data");

      if (code == NULL)
        {
          set_invalid (error, prefix, "error.code", _("is missing"));
          return NULL;
        }
      if (json_node_get_value_type (code) != G_TYPE_INT64)
        {
          set_invalid (error, prefix, "error.code", _("must be an integer, not %s"),
                       node_type_description (code));
          return NULL;
        }
      code_value = json_node_get_int (code);
      if (code_value < G_MININT32 || code_value > G_MAXINT32)
        {
          set_invalid (error, prefix, "error.code", _("is out of range (%lld)"),
                       (long long) code_value);
          return NULL;
        }
      if (message == NULL)
        {
          set_invalid (error, prefix, "error.message", _("is missing"));
          return NULL;
        }
      if (json_node_get_value_type (message) != G_TYPE_STRING)
        {
          set_invalid (error, prefix, "error.message", _("must be a string, not %s"),
                       node_type_description (message));
          return NULL;
        }

      self = mcp_message_new_with_kind (MCP_MESSAGE_ERROR, JSON_NODE_HOLDS_NULL (id) ? NULL : id);
      self->error_code = (int)code_value;
      self->error_message = g_strdup (json_node_get_string (message));
      if (edata != NULL)
        self->error_data = json_node_ref (edata);
    }
  else
    {
      set_invalid (error, prefix, NULL, _("has no method, result or error"));
      return NULL;
    }

  self->object = json_object_ref (object);

  return g_steal_pointer (&self);
}

McpMessage *
mcp_message_new_from_node (JsonNode  *node,
                           GError   **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return message_from_node (node, "$", error);
}

GPtrArray *
mcp_message_parse (const char  *data,
                   gssize       length,
                   GError     **error)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = strlen (data);

  /* Strict: one value, no wrapped integers, bounded nesting. */
  root = mcp_json_parse (data, length, error);
  if (root == NULL)
    return NULL;

  messages = g_ptr_array_new_with_free_func (g_object_unref);

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);
      guint n = json_array_get_length (array);

      if (n == 0)
        {
          set_invalid (error, "$", NULL, _("is an empty batch"));
          return NULL;
        }

      for (guint i = 0; i < n; i++)
        {
          char prefix[32];
          McpMessage *message;

          g_snprintf (prefix, sizeof prefix, "$[%u]", i);
          message = message_from_node (json_array_get_element (array, i), prefix, error);
          if (message == NULL)
            return NULL;
          g_ptr_array_add (messages, message);
        }
    }
  else
    {
      McpMessage *message = message_from_node (root, "$", error);

      if (message == NULL)
        return NULL;
      g_ptr_array_add (messages, message);
    }

  return g_steal_pointer (&messages);
}
