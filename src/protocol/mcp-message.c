/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-message.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

struct _McpMessage
{
  GObject         parent_instance;

  McpMessageKind  kind;
  int             error_code;

  /* owned */
  JsonObject     *object;         /* the object this was read from, if any */
  JsonNode       *id;
  char           *method;
  JsonNode       *params;
  JsonNode       *result;
  char           *error_message;
  JsonNode       *error_data;
  GHashTable     *headers;        /* HTTP request headers; never serialised */
};

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

static gboolean
id_is_valid (JsonNode *id)
{
  GType type;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return FALSE;

  type = json_node_get_value_type (id);

  return type == G_TYPE_INT64 || type == G_TYPE_STRING;
}

static McpMessage *
message_new (McpMessageKind  kind,
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

  g_return_val_if_fail (id_is_valid (id), NULL);
  g_return_val_if_fail (method != NULL, NULL);

  self = message_new (MCP_MESSAGE_REQUEST, id);
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

  self = message_new (MCP_MESSAGE_NOTIFICATION, NULL);
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

  g_return_val_if_fail (id_is_valid (id), NULL);
  g_return_val_if_fail (result != NULL, NULL);

  self = message_new (MCP_MESSAGE_RESULT, id);
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

  g_return_val_if_fail (id == NULL || JSON_NODE_HOLDS_NULL (id) || id_is_valid (id), NULL);
  g_return_val_if_fail (message != NULL, NULL);

  self = message_new (MCP_MESSAGE_ERROR, NULL);
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

/* Reading */

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
      if (!id_is_valid (id))
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
          self = message_new (MCP_MESSAGE_NOTIFICATION, NULL);
        }
      else if (JSON_NODE_HOLDS_NULL (id))
        {
          set_invalid (error, prefix, "id", _("must not be null in a request"));
          return NULL;
        }
      else
        {
          self = message_new (MCP_MESSAGE_REQUEST, id);
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

      self = message_new (MCP_MESSAGE_RESULT, id);
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

      self = message_new (MCP_MESSAGE_ERROR, JSON_NODE_HOLDS_NULL (id) ? NULL : id);
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
