/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-manager"

#include "config.h"

#include "mcp-error-detail.h"

#include <glib/gi18n-lib.h>

#include "mcp-error.h"
#include "mcp-redact.h"

/* A server's JSON-RPC error as the fronts show it: its code, its message
 * and its "data", which is what a server puts its detail in (a stack, the
 * field that was wrong, when to retry). As text the data is one line of
 * compact JSON, secrets masked, control characters escaped, and cut after
 * ERROR_DATA_MAX_CHARS characters so that a server cannot flood a terminal
 * or a window with it; as JSON it is the server's JSON, masked. */

#define ERROR_DATA_MAX_CHARS 500

/* @text on one line, control characters escaped. */
static char *
one_line (const char *text)
{
  g_autoptr(GString) s = g_string_new (text);

  g_string_replace (s, "\r\n", " ", 0);
  g_string_replace (s, "\n", " ", 0);
  g_string_replace (s, "\t", " ", 0);
  return mcp_escape_controls (s->str, MCP_ESCAPE_DEFAULT);
}

/* @text with the secrets the engine knows of and URLs' secrets masked. */
static char *
redact (const char *text)
{
  g_auto(GStrv) secrets = mcp_redact_dup_secrets ();

  return mcp_redact_text (text, (const char * const *) secrets);
}

/* A copy of @node with every string in it redacted. */
static JsonNode *
redact_node (JsonNode *node)
{
  JsonNode *copy;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(JsonObject) out = json_object_new ();
        g_autoptr(GList) names = json_object_get_members (object);

        /* In the server's order. */
        for (GList *l = names; l != NULL; l = l->next)
          json_object_set_member (out, l->data,
                                  redact_node (json_object_get_member (object, l->data)));
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_set_object (copy, out);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        g_autoptr(JsonArray) out = json_array_new ();
        guint n = json_array_get_length (array);

        for (guint i = 0; i < n; i++)
          json_array_add_element (out, redact_node (json_array_get_element (array, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (copy, out);
        return copy;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_autofree char *text = redact (json_node_get_string (node));

          copy = json_node_new (JSON_NODE_VALUE);
          json_node_set_string (copy, text);
          return copy;
        }
      return json_node_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

/* @data as one line of compact JSON: masked, escaped, bounded. */
static char *
describe_data (JsonNode *data)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *compact = NULL;
  g_autofree char *redacted = NULL;
  g_autofree char *line = NULL;

  json_generator_set_root (generator, data);
  compact = json_generator_to_data (generator, NULL);
  /* Masked before it is cut: a secret cut in two would not be found. */
  redacted = redact (compact);
  line = one_line (redacted);

  if (g_utf8_strlen (line, -1) > ERROR_DATA_MAX_CHARS)
    {
      const char *end = g_utf8_offset_to_pointer (line, ERROR_DATA_MAX_CHARS);
      g_autofree char *head = g_strndup (line, end - line);

      return g_strconcat (head, "…", NULL);
    }
  return g_steal_pointer (&line);
}

/* @error's message, and for a server's JSON-RPC error its code and data:
 * "Quota exceeded (error -32001; data: {"retryAfter":30})". */
char *
mcp_error_detail_describe (const GError *error)
{
  JsonNode *data;

  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain != MCP_JSONRPC_ERROR)
    return g_strdup (error->message);

  data = mcp_jsonrpc_error_get_data (error);
  if (data == NULL)
    /* Translators: the first %s is a server's error message, %d its JSON-RPC error code */
    return g_strdup_printf (_("%s (error %d)"), error->message, error->code);
  else
    {
      g_autofree char *text = describe_data (data);

      /* Translators: the first %s is a server's error message, %d its JSON-RPC error code, the last %s the error's "data" as JSON */
      return g_strdup_printf (_("%s (error %d; data: %s)"), error->message, error->code, text);
    }
}

JsonObject *
mcp_error_detail_dup_json (const GError *error)
{
  g_autoptr(JsonObject) object = NULL;
  g_autofree char *message = NULL;
  JsonNode *data;

  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain != MCP_JSONRPC_ERROR)
    return NULL;

  object = json_object_new ();
  message = redact (mcp_jsonrpc_error_get_message (error));
  json_object_set_int_member (object, "code", error->code);
  json_object_set_string_member (object, "message", message);
  data = mcp_jsonrpc_error_get_data (error);
  if (data != NULL)
    json_object_set_member (object, "data", redact_node (data));

  return g_steal_pointer (&object);
}
