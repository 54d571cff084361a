/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-message.h"

#include <string.h>

#include "mcp-error.h"

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
    message = "Unknown error";

  return g_error_new_literal (MCP_JSONRPC_ERROR, self->error_code, message);
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

/* Like the parser below, one generator per thread for the hot path. */
static GPrivate cached_generator = G_PRIVATE_INIT (g_object_unref);

char *
mcp_message_to_string (McpMessage *self,
                       gsize      *length)
{
  g_autoptr(JsonNode) node = NULL;
  JsonGenerator *generator;
  char *text;

  g_return_val_if_fail (MCP_IS_MESSAGE (self), NULL);

  node = mcp_message_to_node (self);

  generator = g_private_get (&cached_generator);
  if (generator != NULL)
    g_private_set (&cached_generator, NULL);
  else
    generator = json_generator_new ();

  /* Not pretty: JSON escapes every newline inside strings, so the text is
   * one line. */
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, length);
  json_generator_set_root (generator, NULL);

  if (g_private_get (&cached_generator) == NULL)
    g_private_set (&cached_generator, generator);
  else
    g_object_unref (generator);

  return text;
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
               "Invalid JSON-RPC message: %s%s%s %s",
               prefix,
               member != NULL ? "." : "",
               member != NULL ? member : "",
               what);

  return FALSE;
}

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;

  return p;
}

/* json-glib silently wraps integers that do not fit in 64 bits
 * (99999999999999999999 reads as -1). An id is the one integer we must
 * not get wrong, so an integer id is accepted only when its literal appears
 * in the text as the value of an "id" member. */
typedef struct
{
  const char *data;
  gsize       length;
  gboolean    is_batch;
  GHashTable *batch_ids;   /* of gint64: every in-range "id" literal */
} IdCheck;

/* Finds the next `"id": <integer literal>` from *@pos; sets @literal and
 * @literal_len to the literal's text. */
static gboolean
next_id_literal (const char  **pos,
                 const char   *end,
                 const char  **literal,
                 gsize        *literal_len)
{
  const char *p = *pos;

  while (p < end)
    {
      const char *q;
      const char *digits;

      p = memchr (p, '"', end - p);
      if (p == NULL)
        break;
      if (end - p < 4 || memcmp (p, "\"id\"", 4) != 0)
        {
          p++;
          continue;
        }
      p += 4;

      q = skip_space (p, end);
      if (q >= end || *q != ':')
        continue;
      q = skip_space (q + 1, end);

      digits = q;
      if (q < end && *q == '-')
        q++;
      while (q < end && g_ascii_isdigit (*q))
        q++;

      if (q == digits)
        continue;

      *pos = q;
      *literal = digits;
      *literal_len = q - digits;
      return TRUE;
    }

  *pos = end;

  return FALSE;
}

static gboolean
literal_is_value (const char *literal,
                  gsize       literal_len,
                  const char *expected,
                  gsize       expected_len)
{
  if (literal_len == expected_len && memcmp (literal, expected, expected_len) == 0)
    return TRUE;

  /* "-0" reads as 0 */
  return literal_len == 2 && literal[0] == '-' && literal[1] == '0' &&
         expected_len == 1 && expected[0] == '0';
}

static gboolean
id_check_int (IdCheck *check,
              gint64   value)
{
  const char *end = check->data + check->length;
  const char *p = check->data;
  const char *literal;
  gsize literal_len;

  if (!check->is_batch)
    {
      char expected[32];
      gsize expected_len;

      expected_len = g_snprintf (expected, sizeof expected, "%" G_GINT64_FORMAT, value);
      while (next_id_literal (&p, end, &literal, &literal_len))
        {
          if (literal_is_value (literal, literal_len, expected, expected_len))
            return TRUE;
        }

      return FALSE;
    }

  /* A batch reads the text once for all its ids, not once per id. */
  if (check->batch_ids == NULL)
    {
      check->batch_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

      while (next_id_literal (&p, end, &literal, &literal_len))
        {
          char buffer[32];
          gint64 parsed;

          if (literal_len >= sizeof buffer)
            continue;
          memcpy (buffer, literal, literal_len);
          buffer[literal_len] = '\0';

          if (g_ascii_string_to_signed (buffer, 10, G_MININT64, G_MAXINT64, &parsed, NULL))
            g_hash_table_add (check->batch_ids, g_memdup2 (&parsed, sizeof parsed));
        }
    }

  return g_hash_table_contains (check->batch_ids, &value);
}

static const char *
node_type_description (JsonNode *node)
{
  GType type;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      break;
    }

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return "an integer";
  if (type == G_TYPE_DOUBLE)
    return "a number with a fraction or exponent";
  if (type == G_TYPE_BOOLEAN)
    return "a boolean";
  if (type == G_TYPE_STRING)
    return "a string";

  return "a value of unknown type";
}

static McpMessage *
message_from_node (JsonNode    *node,
                   const char  *prefix,
                   IdCheck     *id_check,
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
      set_invalid (error, prefix, NULL, "must be an object, not %s",
                   node_type_description (node));
      return NULL;
    }

  object = json_node_get_object (node);

  jsonrpc = json_object_get_member (object, "jsonrpc");
  if (jsonrpc == NULL)
    {
      set_invalid (error, prefix, "jsonrpc", "is missing (must be \"2.0\")");
      return NULL;
    }
  if (json_node_get_value_type (jsonrpc) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (jsonrpc), "2.0") != 0)
    {
      set_invalid (error, prefix, "jsonrpc", "must be \"2.0\"");
      return NULL;
    }

  id = json_object_get_member (object, "id");
  method = json_object_get_member (object, "method");
  params = json_object_get_member (object, "params");
  result = json_object_get_member (object, "result");
  err = json_object_get_member (object, "error");

  if (id != NULL && !JSON_NODE_HOLDS_NULL (id))
    {
      if (!id_is_valid (id))
        {
          set_invalid (error, prefix, "id", "must be a string or an integer, not %s",
                       node_type_description (id));
          return NULL;
        }

      if (id_check != NULL &&
          json_node_get_value_type (id) == G_TYPE_INT64 &&
          !id_check_int (id_check, json_node_get_int (id)))
        {
          set_invalid (error, prefix, "id", "is an integer outside the 64-bit range");
          return NULL;
        }
    }

  if (method != NULL)
    {
      if (json_node_get_value_type (method) != G_TYPE_STRING)
        {
          set_invalid (error, prefix, "method", "must be a string, not %s",
                       node_type_description (method));
          return NULL;
        }
      if (result != NULL || err != NULL)
        {
          set_invalid (error, prefix, NULL, "has both method and %s",
                       result != NULL ? "result" : "error");
          return NULL;
        }
      if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params) && !JSON_NODE_HOLDS_ARRAY (params))
        {
          set_invalid (error, prefix, "params", "must be an object or an array, not %s",
                       node_type_description (params));
          return NULL;
        }

      if (id == NULL)
        {
          self = message_new (MCP_MESSAGE_NOTIFICATION, NULL);
        }
      else if (JSON_NODE_HOLDS_NULL (id))
        {
          set_invalid (error, prefix, "id", "must not be null in a request");
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
      set_invalid (error, prefix, NULL, "has both result and error");
      return NULL;
    }
  else if (result != NULL)
    {
      if (id == NULL)
        {
          set_invalid (error, prefix, "id", "is missing in a response");
          return NULL;
        }
      if (JSON_NODE_HOLDS_NULL (id))
        {
          set_invalid (error, prefix, "id", "must not be null in a result");
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
          set_invalid (error, prefix, "id", "is missing in a response");
          return NULL;
        }
      if (!JSON_NODE_HOLDS_OBJECT (err))
        {
          set_invalid (error, prefix, "error", "must be an object, not %s",
                       node_type_description (err));
          return NULL;
        }

      err_object = json_node_get_object (err);
      code = json_object_get_member (err_object, "code");
      message = json_object_get_member (err_object, "message");
      edata = json_object_get_member (err_object, "data");

      if (code == NULL)
        {
          set_invalid (error, prefix, "error.code", "is missing");
          return NULL;
        }
      if (json_node_get_value_type (code) != G_TYPE_INT64)
        {
          set_invalid (error, prefix, "error.code", "must be an integer, not %s",
                       node_type_description (code));
          return NULL;
        }
      code_value = json_node_get_int (code);
      if (code_value < G_MININT32 || code_value > G_MAXINT32)
        {
          set_invalid (error, prefix, "error.code", "is out of range (%" G_GINT64_FORMAT ")",
                       code_value);
          return NULL;
        }
      if (message == NULL)
        {
          set_invalid (error, prefix, "error.message", "is missing");
          return NULL;
        }
      if (json_node_get_value_type (message) != G_TYPE_STRING)
        {
          set_invalid (error, prefix, "error.message", "must be a string, not %s",
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
      set_invalid (error, prefix, NULL, "has no method, result or error");
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

  return message_from_node (node, "$", NULL, error);
}

/* json-glib's parser recurses once per level and overflows the stack on a
 * line of a hundred thousand "[" (a peer's mistake or malice), so deeper
 * nesting than any real message has is refused before parsing. */
#define MAX_NESTING_DEPTH 512

static gboolean
check_nesting (const char  *data,
               gsize        length,
               GError     **error)
{
  const char *end = data + length;
  guint depth = 0;

  /* Cannot nest deeper than it is long. */
  if (length <= MAX_NESTING_DEPTH)
    return TRUE;

  for (const char *p = data; p < end; p++)
    {
      switch (*p)
        {
        case '"':
          /* skip the string, escapes included */
          for (p++; p < end && *p != '"'; p++)
            {
              if (*p == '\\')
                p++;
            }
          break;

        case '[':
        case '{':
          if (++depth > MAX_NESTING_DEPTH)
            {
              g_set_error (error,
                           MCP_JSONRPC_ERROR,
                           MCP_JSONRPC_ERROR_PARSE_ERROR,
                           "JSON nested deeper than %u levels at byte %" G_GSIZE_FORMAT,
                           MAX_NESTING_DEPTH, (gsize)(p - data));
              return FALSE;
            }
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;

        default:
          break;
        }
    }

  return TRUE;
}

/* Every line read goes through here, so each thread keeps one parser
 * rather than making one per message. A parser holds on to the tree it read
 * last, so one that read a big message is not kept. */
#define MAX_CACHED_PARSER_INPUT (64 * 1024)

static GPrivate cached_parser = G_PRIVATE_INIT (g_object_unref);

static JsonParser *
take_parser (void)
{
  JsonParser *parser = g_private_get (&cached_parser);

  if (parser == NULL)
    return json_parser_new ();

  g_private_set (&cached_parser, NULL);

  return parser;
}

static void
give_back_parser (JsonParser *parser,
                  gsize       input_length)
{
  if (input_length <= MAX_CACHED_PARSER_INPUT && g_private_get (&cached_parser) == NULL)
    g_private_set (&cached_parser, parser);
  else
    g_object_unref (parser);
}

static GPtrArray *
parse_with_parser (JsonParser  *parser,
                   const char  *data,
                   gsize        length,
                   GError     **error)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) local_error = NULL;
  IdCheck id_check = { data, length, FALSE, NULL };
  JsonNode *root;

  if (!check_nesting (data, length, error))
    return NULL;

  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error_literal (error,
                           MCP_JSONRPC_ERROR,
                           MCP_JSONRPC_ERROR_PARSE_ERROR,
                           local_error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error,
                           MCP_JSONRPC_ERROR,
                           MCP_JSONRPC_ERROR_PARSE_ERROR,
                           "Empty message: no JSON value");
      return NULL;
    }

  messages = g_ptr_array_new_with_free_func (g_object_unref);

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);
      guint n = json_array_get_length (array);

      if (n == 0)
        {
          set_invalid (error, "$", NULL, "is an empty batch");
          return NULL;
        }

      id_check.is_batch = TRUE;
      for (guint i = 0; i < n; i++)
        {
          char prefix[32];
          McpMessage *message;

          g_snprintf (prefix, sizeof prefix, "$[%u]", i);
          message = message_from_node (json_array_get_element (array, i),
                                       prefix, &id_check, error);
          if (message == NULL)
            {
              g_clear_pointer (&id_check.batch_ids, g_hash_table_unref);
              return NULL;
            }
          g_ptr_array_add (messages, message);
        }
      g_clear_pointer (&id_check.batch_ids, g_hash_table_unref);
    }
  else
    {
      McpMessage *message = message_from_node (root, "$", &id_check, error);

      if (message == NULL)
        return NULL;
      g_ptr_array_add (messages, message);
    }

  return g_steal_pointer (&messages);
}

GPtrArray *
mcp_message_parse (const char  *data,
                   gssize       length,
                   GError     **error)
{
  JsonParser *parser;
  GPtrArray *messages;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = strlen (data);

  parser = take_parser ();
  messages = parse_with_parser (parser, data, length, error);
  give_back_parser (parser, length);

  return messages;
}
