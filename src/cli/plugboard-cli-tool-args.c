/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mcp-json-private.h"
#include "mcp-tool.h"

#include "plugboard-cli-private.h"

/* plugboard-cli call --tool-arg KEY=VALUE: one argument of a tool, typed
 * by the type its inputSchema gives the property, so that a script need
 * not write JSON for `--tool-arg count=3`. */

static JsonNode *
parse_number (const char *text,
              gboolean    integer)
{
  JsonNode *node;

  if (integer)
    {
      gint64 value;

      if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, value);
    }
  else
    {
      char *end = NULL;
      double value;

      /* Strictly a number: no leading space, no tail, nothing infinite. */
      if (*text == '\0' || g_ascii_isspace (*text))
        return NULL;
      value = g_ascii_strtod (text, &end);
      if (end == text || *end != '\0' || !isfinite (value))
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, value);
    }
  return node;
}

/* @text as a value of the JSON Schema type @type, or NULL. */
static JsonNode *
parse_as (const char *type,
          const char *text)
{
  g_autoptr(JsonNode) parsed = NULL;

  if (g_str_equal (type, "string"))
    {
      JsonNode *node = json_node_new (JSON_NODE_VALUE);

      json_node_set_string (node, text);
      return node;
    }
  if (g_str_equal (type, "number") || g_str_equal (type, "integer"))
    return parse_number (text, g_str_equal (type, "integer"));
  if (g_str_equal (type, "boolean"))
    {
      JsonNode *node;

      if (!g_str_equal (text, "true") && !g_str_equal (text, "false"))
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, g_str_equal (text, "true"));
      return node;
    }

  parsed = mcp_json_parse (text, strlen (text), NULL);
  if (parsed == NULL)
    return NULL;
  if ((g_str_equal (type, "object") && JSON_NODE_HOLDS_OBJECT (parsed)) ||
      (g_str_equal (type, "array") && JSON_NODE_HOLDS_ARRAY (parsed)) ||
      (g_str_equal (type, "null") && JSON_NODE_HOLDS_NULL (parsed)))
    return g_steal_pointer (&parsed);
  return NULL;
}

/* The types a property's schema allows: its "type", a string or an array
 * of them; none when it gives no type. */
static GPtrArray *
property_types (JsonObject *property)
{
  GPtrArray *types = g_ptr_array_new ();
  JsonNode *type = property ? json_object_get_member (property, "type") : NULL;

  if (type != NULL && JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    g_ptr_array_add (types, (gpointer) json_node_get_string (type));
  else if (type != NULL && JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *array = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            g_ptr_array_add (types, (gpointer) json_node_get_string (element));
        }
    }
  return types;
}

/* @text typed by @property's schema: the first type that takes it, a
 * string last (so that "3" for ["integer", "string"] is 3); with no type,
 * JSON when it parses, else the string. NULL with @out_expected saying
 * what the schema wants. */
static JsonNode *
type_value (JsonObject  *property,
            const char  *text,
            char       **out_expected)
{
  g_autoptr(GPtrArray) types = property_types (property);
  gboolean takes_string = FALSE;
  JsonNode *node;

  if (types->len == 0)
    {
      node = mcp_json_parse (text, strlen (text), NULL);
      return node != NULL ? node : parse_as ("string", text);
    }

  for (guint i = 0; i < types->len; i++)
    {
      const char *type = g_ptr_array_index (types, i);

      if (g_str_equal (type, "string"))
        {
          takes_string = TRUE;
          continue;
        }
      if ((node = parse_as (type, text)) != NULL)
        return node;
    }
  if (takes_string)
    return parse_as ("string", text);

  g_ptr_array_add (types, NULL);
  *out_expected = g_strjoinv (_(" or "), (char **) types->pdata);
  return NULL;
}

/* Adds each --tool-arg of @tool_args to *@arguments (made when NULL),
 * over what --args gave. 0, or the exit status after saying what is
 * wrong with which. */
int
plugboard_cli_add_tool_args (PlugboardCli        *cli,
                             McpTool             *tool,
                             const char * const  *tool_args,
                             JsonObject         **arguments)
{
  JsonObject *schema = mcp_tool_get_input_schema (tool);
  JsonObject *properties = NULL;
  JsonNode *additional = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (tool_args == NULL || tool_args[0] == NULL)
    return 0;

  if (schema != NULL)
    {
      JsonNode *node = json_object_get_member (schema, "properties");

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        properties = json_node_get_object (node);
      additional = json_object_get_member (schema, "additionalProperties");
    }
  if (*arguments == NULL)
    *arguments = json_object_new ();

  for (guint i = 0; tool_args[i] != NULL; i++)
    {
      const char *equals = strchr (tool_args[i], '=');
      g_autofree char *key = NULL;
      g_autofree char *expected = NULL;
      JsonNode *property_node;
      JsonObject *property = NULL;
      JsonNode *value;

      if (equals == NULL || equals == tool_args[i])
        {
          /* Only the key: the value may be a secret. */
          g_autofree char *shown = g_strndup (tool_args[i], equals ? 0 : MIN (strlen (tool_args[i]), 40));

          return plugboard_cli_usage_error (cli->verb, _("--tool-arg “%s…” is not of the form KEY=VALUE"),
                                            shown);
        }
      key = g_strndup (tool_args[i], equals - tool_args[i]);
      if (!g_hash_table_add (seen, g_strdup (key)))
        return plugboard_cli_usage_error (cli->verb, _("--tool-arg %s is given twice"), key);

      property_node = properties ? json_object_get_member (properties, key) : NULL;
      if (property_node != NULL && JSON_NODE_HOLDS_OBJECT (property_node))
        property = json_node_get_object (property_node);
      if (property_node == NULL)
        {
          g_autofree char *known = NULL;
          GList *names = properties ? json_object_get_members (properties) : NULL;
          g_autoptr(GString) list = g_string_new (NULL);

          for (GList *l = names; l != NULL; l = l->next)
            g_string_append_printf (list, "%s%s", list->len ? ", " : "", (const char *) l->data);
          g_list_free (names);

          /* JSON Schema allows any other member unless the schema says
           * additionalProperties: false. */
          if (additional != NULL && JSON_NODE_HOLDS_VALUE (additional) &&
              json_node_get_value_type (additional) == G_TYPE_BOOLEAN &&
              !json_node_get_boolean (additional))
            return plugboard_cli_usage_error (cli->verb,
                                              _("--tool-arg %s: the tool “%s” takes no argument “%s” (it takes %s)"),
                                              key, mcp_tool_get_name (tool), key,
                                              list->len ? list->str : _("none"));
          fflush (stdout);
          g_printerr (_("%s: warning: the inputSchema of “%s” has no property “%s”; it is sent as given\n"),
                      PROGRAM_NAME, mcp_tool_get_name (tool), key);
        }

      value = type_value (property, equals + 1, &expected);
      if (value == NULL)
        return plugboard_cli_usage_error (cli->verb,
                                          _("--tool-arg %s: the value is not of type %s "
                                            "(from the tool's inputSchema)"),
                                          key, expected);
      json_object_set_member (*arguments, key, value);
    }

  return 0;
}
