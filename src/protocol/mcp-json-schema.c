/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-schema.h"
#include "mcp-json-schema-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* JSON Schema: "$ref" pointers, a schema's type, and the entry points of
 * the validator (mcp-json-schema-mcp_json_schema_validate_node.c and the files it names). */

#define MAX_REF_STEPS 32

/* Pointers: "#", "#/$defs/a~1b" (~1 is "/", ~0 is "~"), percent-encoded as
 * in a URI fragment. */
JsonNode *
mcp_json_schema_follow_pointer (JsonNode    *root,
                                const char  *ref,
                                GError     **error)
{
  g_autofree char *fragment = NULL;
  g_auto(GStrv) segments = NULL;
  JsonNode *node = root;

  if (ref[0] != '#')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Schema reference “%s” is not local to the schema (only “#…” references are followed)"),
                   ref);
      return NULL;
    }

  /* percent-escapes may decode to bytes that are not UTF-8: no member of
   * a JSON object has such a name (and no message may hold it) */
  fragment = g_uri_unescape_string (ref + 1, NULL);
  if (fragment == NULL || !g_utf8_validate (fragment, -1, NULL))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Schema reference “%s” is not a valid URI fragment"), ref);
      return NULL;
    }
  if (fragment[0] == '\0')
    return root;
  if (fragment[0] != '/')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Schema reference “%s” is not a JSON pointer (anchors are not supported)"), ref);
      return NULL;
    }

  segments = g_strsplit (fragment + 1, "/", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    {
      GString *segment = g_string_new (NULL);
      g_autofree char *name = NULL;

      for (const char *p = segments[i]; *p != '\0'; p++)
        {
          if (p[0] == '~' && p[1] == '0')
            g_string_append_c (segment, '~'), p++;
          else if (p[0] == '~' && p[1] == '1')
            g_string_append_c (segment, '/'), p++;
          else
            g_string_append_c (segment, *p);
        }
      name = g_string_free (segment, FALSE);

      if (JSON_NODE_HOLDS_OBJECT (node) && json_object_has_member (json_node_get_object (node), name))
        node = json_object_get_member (json_node_get_object (node), name);
      else if (JSON_NODE_HOLDS_ARRAY (node) && name[0] != '\0' &&
               strspn (name, "0123456789") == strlen (name) &&
               g_ascii_strtoull (name, NULL, 10) < json_array_get_length (json_node_get_array (node)))
        node = json_array_get_element (json_node_get_array (node), g_ascii_strtoull (name, NULL, 10));
      else
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("Schema reference “%s” does not resolve: there is no “%s” in the schema"),
                       ref, name);
          return NULL;
        }
    }

  return node;
}

/**
 * mcp_json_schema_resolve:
 *
 * Returns: (transfer none): @schema itself when it has no "$ref", else the
 * node the chain of refs leads to inside @root.
 */
JsonNode *
mcp_json_schema_resolve (JsonNode    *root,
                         JsonNode    *schema,
                         GError     **error)
{
  JsonNode *node = schema;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (root == NULL)
    root = schema;

  for (guint steps = 0; ; steps++)
    {
      JsonObject *object;
      JsonNode *ref_node;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return node;
      object = json_node_get_object (node);
      ref_node = json_object_get_member (object, "$ref");
      if (ref_node == NULL)
        return node;
      if (!JSON_NODE_HOLDS_VALUE (ref_node) || json_node_get_value_type (ref_node) != G_TYPE_STRING)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("Schema “$ref” is not a string"));
          return NULL;
        }
      if (steps >= MAX_REF_STEPS)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("Schema reference “%s” loops (more than %d references in a chain)"),
                       json_node_get_string (ref_node), MAX_REF_STEPS);
          return NULL;
        }
      node = mcp_json_schema_follow_pointer (root, json_node_get_string (ref_node), error);
      if (node == NULL)
        return NULL;
    }
}

const char *
mcp_json_schema_get_type (JsonObject *schema,
                          gboolean   *nullable)
{
  JsonNode *type;
  const char *first = NULL;
  gboolean has_null = FALSE;

  if (nullable != NULL)
    *nullable = FALSE;
  g_return_val_if_fail (schema != NULL, NULL);

  type = json_object_get_member (schema, "type");
  if (type == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    return json_node_get_string (type);
  if (!JSON_NODE_HOLDS_ARRAY (type))
    return NULL;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (type)); i++)
    {
      JsonNode *element = json_array_get_element (json_node_get_array (type), i);
      const char *name;

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        continue;
      name = json_node_get_string (element);
      if (g_str_equal (name, "null"))
        has_null = TRUE;
      else if (first == NULL)
        first = name;
    }

  if (nullable != NULL)
    *nullable = has_null;
  if (first == NULL && has_null)
    return "null";
  return first;
}

static void
regex_unref (gpointer data)
{
  if (data != NULL)
    g_regex_unref (data);
}

static void
ref_entry_free (gpointer data)
{
  RefEntry *entry = data;

  g_free (entry->ref);
  g_free (entry->message);
  g_free (entry);
}

McpJsonSchemaOutcome
mcp_json_schema_check (JsonNode   *root,
                       JsonNode   *schema,
                       JsonNode   *instance,
                       guint      *budget,
                       GPtrArray **problems)
{
  Shared shared = { 0, };
  Validator v = { 0, };
  g_autoptr(GString) path = g_string_new ("$");
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_free);
  McpJsonSchemaOutcome outcome;
  guint initial;

  if (problems != NULL)
    *problems = NULL;
  g_return_val_if_fail (schema != NULL, MCP_JSON_SCHEMA_INVALID);
  g_return_val_if_fail (instance != NULL, MCP_JSON_SCHEMA_INVALID);

  shared.root = root != NULL ? root : schema;
  initial = budget != NULL ? *budget : MCP_JSON_SCHEMA_MAX_STEPS;
  shared.steps_left = initial;
  shared.refs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, ref_entry_free);
  shared.regexes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          regex_unref);
  shared.following = g_array_new (FALSE, FALSE, sizeof (Visit));
  v.shared = &shared;
  v.problems = list;
  mcp_json_schema_validate_node (&v, schema, instance, path, 0);

  if (budget != NULL)
    *budget = shared.steps_left;

  if (shared.stop != STOP_NONE)
    {
      g_autofree char *why = NULL;

      if (shared.stop == STOP_STEPS)
        why = g_strdup_printf (_("more than %u steps"), initial);
      else if (shared.stop == STOP_DEPTH)
        why = g_strdup_printf (_("it nests more than %u levels deep"), MAX_DEPTH);
      else
        why = g_strdup (_("a reference leads back to itself for the same value"));
      g_ptr_array_set_size (list, 0);
      g_ptr_array_add (list, g_strdup_printf (_("%s: not validated: the schema is too complex (%s)"),
                                              shared.stop_path, why));
      outcome = MCP_JSON_SCHEMA_TOO_COMPLEX;
    }
  else
    outcome = v.n_problems == 0 ? MCP_JSON_SCHEMA_VALID : MCP_JSON_SCHEMA_INVALID;

  g_free (shared.stop_path);
  g_hash_table_unref (shared.refs);
  g_hash_table_unref (shared.regexes);
  g_array_unref (shared.following);

  if (problems != NULL)
    *problems = g_steal_pointer (&list);
  return outcome;
}

gboolean
mcp_json_schema_validate (JsonNode   *root,
                          JsonNode   *schema,
                          JsonNode   *instance,
                          GPtrArray **problems)
{
  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);

  return mcp_json_schema_check (root, schema, instance, NULL, problems) == MCP_JSON_SCHEMA_VALID;
}
