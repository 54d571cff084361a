/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-tool.h"
#include "mcp-tool-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpTool: x-mcp-header (2026-07-28, SEP-2243) — which arguments of the
 * input schema are mirrored into Mcp-Param-* headers, checked when the
 * tool is read, and the headers of one call. */

/* One "x-mcp-header" of the input schema (2026-07-28, SEP-2243): the header
 * Mcp-Param-{name} mirrors the argument at @path (keys of nested
 * "properties", from the schema's root). */
typedef struct
{
  char  *name;
  GStrv  path;
} ParamHeader;

static void
param_header_free (ParamHeader *header)
{
  g_free (header->name);
  g_strfreev (header->path);
  g_free (header);
}

/* Schema keywords whose value is a schema, an array of schemas, or an
 * object of schemas (JSON Schema 2020-12 and draft-07). An x-mcp-header met
 * through any of them is not "statically reachable through properties". */
static const char * const schema_keywords[] = {
  "items", "additionalItems", "additionalProperties", "unevaluatedItems",
  "unevaluatedProperties", "contains", "propertyNames", "not", "if", "then",
  "else", NULL,
};
static const char * const schema_array_keywords[] = {
  "allOf", "anyOf", "oneOf", "prefixItems", "items", NULL,
};
static const char * const schema_map_keywords[] = {
  "patternProperties", "$defs", "definitions", "dependentSchemas", NULL,
};

/* RFC 9110 §5.6.2 tchar */
static gboolean
is_token (const char *name)
{
  if (*name == '\0')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;
  return TRUE;
}

/* The JSON type a property allows, when it is one the header can carry:
 * "string", "integer" or "boolean" (also as ["integer", "null"]). */
static gboolean
type_is_mirrorable (JsonObject  *schema,
                    const char **type_out)
{
  JsonNode *type = json_object_get_member (schema, "type");
  const char *found = NULL;

  *type_out = NULL;
  if (type == NULL)
    return FALSE;

  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    {
      found = json_node_get_string (type);
    }
  else if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          JsonNode *element = json_array_get_element (types, i);
          const char *name;

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            return FALSE;
          name = json_node_get_string (element);
          if (g_str_equal (name, "null"))
            continue;
          if (found != NULL)
            return FALSE;
          found = name;
        }
    }

  *type_out = found;
  return found != NULL &&
         (g_str_equal (found, "string") || g_str_equal (found, "integer") ||
          g_str_equal (found, "boolean"));
}

static char *
path_to_string (GPtrArray *path)
{
  g_autoptr(GString) string = g_string_new ("inputSchema");

  if (path == NULL)
    return g_string_free (g_steal_pointer (&string), FALSE);
  for (guint i = 0; i < path->len; i++)
    g_string_append_printf (string, ".properties.%s", (const char *) g_ptr_array_index (path, i));
  return g_string_free (g_steal_pointer (&string), FALSE);
}

static gboolean scan_schema (McpTool     *self,
                             JsonNode    *node,
                             GPtrArray   *path,
                             const char  *where,
                             GHashTable  *seen,
                             GError     **error);

static gboolean
scan_schema_member (McpTool     *self,
                    JsonObject  *object,
                    const char  *member,
                    GHashTable  *seen,
                    GError     **error)
{
  JsonNode *value = json_object_get_member (object, member);

  if (value == NULL)
    return TRUE;

  if (g_strv_contains (schema_map_keywords, member) && JSON_NODE_HOLDS_OBJECT (value))
    {
      JsonObject *map = json_node_get_object (value);
      g_autoptr(GList) keys = json_object_get_members (map);

      for (GList *l = keys; l != NULL; l = l->next)
        if (!scan_schema (self, json_object_get_member (map, l->data), NULL, member, seen, error))
          return FALSE;
      return TRUE;
    }

  if (g_strv_contains (schema_array_keywords, member) && JSON_NODE_HOLDS_ARRAY (value))
    {
      JsonArray *array = json_node_get_array (value);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!scan_schema (self, json_array_get_element (array, i), NULL, member, seen, error))
          return FALSE;
      return TRUE;
    }

  if (g_strv_contains (schema_keywords, member))
    return scan_schema (self, value, NULL, member, seen, error);

  return TRUE;
}

/* @path: the property keys from the root when @node is reached through
 * "properties" alone, else NULL (@where then names the keyword). */
static gboolean
scan_schema (McpTool     *self,
             JsonNode    *node,
             GPtrArray   *path,
             const char  *where,
             GHashTable  *seen,
             GError     **error)
{
  JsonObject *object;
  JsonNode *header;
  JsonNode *props;
  g_autoptr(GList) members = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  object = json_node_get_object (node);

  header = json_object_get_member (object, "x-mcp-header");
  if (header != NULL)
    {
      g_autofree char *at = path_to_string (path);
      const char *name;
      const char *type;
      ParamHeader *param;

      if (path == NULL || path->len == 0)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: the first %s is a tool name, the second a
                        * schema keyword such as “items” or “anyOf”. Keep x-mcp-header
                        * and properties as they are. */
                       _("tool “%s”: an x-mcp-header under “%s” cannot be mirrored "
                         "into a header; only properties reached through “properties” can"),
                       self->name, path == NULL ? where : "inputSchema");
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_VALUE (header) || json_node_get_value_type (header) != G_TYPE_STRING)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a place in its schema. */
                       _("tool “%s”: x-mcp-header at %s is not a string"),
                       self->name, at);
          return FALSE;
        }
      name = json_node_get_string (header);
      if (!is_token (name))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a place in its schema,
                        * then the header name the tool declared. */
                       _("tool “%s”: x-mcp-header at %s, “%s”, is not a valid header "
                         "name (letters, digits and !#$%%&'*+-.^_`|~ only)"),
                       self->name, at, name);
          return FALSE;
        }
      if (!g_hash_table_add (seen, g_ascii_strdown (name, -1)))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a header name. */
                       _("tool “%s”: x-mcp-header “%s” is declared twice (header names "
                         "ignore case)"),
                       self->name, name);
          return FALSE;
        }
      if (!type_is_mirrorable (object, &type))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a place in its schema,
                        * then a JSON type such as “number” or “object”. */
                       _("tool “%s”: x-mcp-header at %s is on a property of type “%s”; "
                         "only string, integer and boolean properties can be mirrored"),
                       self->name, at, type != NULL ? type : "?");
          return FALSE;
        }

      param = g_new0 (ParamHeader, 1);
      param->name = g_strdup (name);
      g_ptr_array_add (path, NULL);
      param->path = g_strdupv ((char **) path->pdata);
      g_ptr_array_remove_index (path, path->len - 1);
      g_ptr_array_add (self->param_headers, param);
    }

  props = json_object_get_member (object, "properties");
  if (props != NULL && JSON_NODE_HOLDS_OBJECT (props))
    {
      JsonObject *map = json_node_get_object (props);
      g_autoptr(GList) keys = json_object_get_members (map);

      for (GList *l = keys; l != NULL; l = l->next)
        {
          gboolean ok;

          if (path != NULL)
            g_ptr_array_add (path, l->data);
          ok = scan_schema (self, json_object_get_member (map, l->data), path,
                            path != NULL ? "properties" : where, seen, error);
          if (path != NULL)
            g_ptr_array_remove_index (path, path->len - 1);
          if (!ok)
            return FALSE;
        }
    }

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    if (!scan_schema_member (self, object, l->data, seen, error))
      return FALSE;

  return TRUE;
}

void
mcp_tool_read_param_headers (McpTool *self)
{
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), self->input_schema);

  self->param_headers = g_ptr_array_new_with_free_func ((GDestroyNotify) param_header_free);
  if (!scan_schema (self, root, path, NULL, seen, &self->param_headers_error))
    g_ptr_array_set_size (self->param_headers, 0);
}

gboolean
mcp_tool_check_param_headers (McpTool  *self,
                              GError  **error)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->param_headers_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->param_headers_error));
      return FALSE;
    }
  return TRUE;
}

/* The header value of one argument: a string as it is, an integer in
 * decimal, a boolean as true or false; NULL for anything else (null and
 * absent included: the header is then left out). */
static char *
param_value (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return g_strdup (json_node_get_string (node));
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    case G_TYPE_DOUBLE:
      {
        double value = json_node_get_double (node);

        /* 3.0 from a person's form is the integer 3. */
        if (value == (double) (gint64) value && value > -9.0e15 && value < 9.0e15)
          return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);
        return NULL;
      }
    default:
      return NULL;
    }
}

void
mcp_tool_add_param_headers (McpTool    *self,
                            JsonObject *arguments,
                            McpMessage *message)
{
  g_return_if_fail (MCP_IS_TOOL (self));
  g_return_if_fail (MCP_IS_MESSAGE (message));

  if (arguments == NULL || self->param_headers == NULL)
    return;

  for (guint i = 0; i < self->param_headers->len; i++)
    {
      ParamHeader *param = g_ptr_array_index (self->param_headers, i);
      JsonObject *object = arguments;
      JsonNode *node = NULL;
      g_autofree char *header = NULL;
      g_autofree char *value = NULL;

      for (guint j = 0; param->path[j] != NULL; j++)
        {
          node = object != NULL ? json_object_get_member (object, param->path[j]) : NULL;
          object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
        }

      value = param_value (node);
      if (value == NULL)
        continue;
      header = g_strconcat ("Mcp-Param-", param->name, NULL);
      mcp_message_set_header (message, header, value);
    }
}
