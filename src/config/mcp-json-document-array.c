/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* McpJsonDocument's operations on arrays: an update element by element,
 * appending, and removing one element. */

/* An array changed element by element: those that are equal keep their
 * bytes, the others are replaced, and what is more or less is added or
 * taken at the end. */
gboolean
mcp_json_document_update_array (McpJsonDocument     *self,
                                const char * const  *path,
                                JsonArray           *old,
                                JsonArray           *value,
                                GError             **error)
{
  guint n_old = json_array_get_length (old);
  guint n_new = json_array_get_length (value);
  g_autoptr(GPtrArray) differ = g_ptr_array_new ();

  /* (the document's tree changes with each edit: indexes first) */
  for (guint i = 0; i < MIN (n_old, n_new); i++)
    {
      if (!mcp_json_equal (json_array_get_element (old, i), json_array_get_element (value, i)))
        g_ptr_array_add (differ, GUINT_TO_POINTER (i));
    }

  for (guint i = 0; i < differ->len; i++)
    {
      guint index = GPOINTER_TO_UINT (differ->pdata[i]);
      Node *array = mcp_json_document_find (self, path);
      Value v = { .node = json_array_get_element (value, index) };

      if (!mcp_json_document_replace_value (self, array, array->children->pdata[index], &v, error))
        return FALSE;
    }

  for (guint i = n_old; i < n_new; i++)
    {
      Value v = { .node = json_array_get_element (value, i) };

      if (!mcp_json_document_insert_child (self, mcp_json_document_find (self, path), NULL, &v, error))
        return FALSE;
    }

  for (guint i = n_old; i > n_new; i--)
    {
      if (!mcp_json_document_remove_child (self, mcp_json_document_find (self, path), i - 1, error))
        return FALSE;
    }

  return TRUE;
}


/* The array at @path, created empty when it is missing. */
static Node *
ensure_array (McpJsonDocument     *self,
              const char * const  *path,
              GError             **error)
{
  guint length = g_strv_length ((char **) path);

  for (;;)
    {
      guint missing;
      Node *parent = mcp_json_document_walk (self, path, length - 1, &missing, error);
      Node *child;

      if (parent == NULL)
        return NULL;
      child = missing == length - 1 ? mcp_json_node_find_member (parent, path[length - 1]) : NULL;
      if (child == NULL)
        {
          g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_ARRAY);

          json_node_take_array (empty, json_array_new ());
          if (!mcp_json_document_set (self, path, empty, error))
            return NULL;
          continue;
        }
      if (child->kind != '[')
        {
          g_autofree char *where = mcp_json_path_from_names (path, length);

          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("%s: expected an array; not changing it"), where);
          return NULL;
        }
      return child;
    }
}

gboolean
mcp_json_document_append (McpJsonDocument     *self,
                          const char * const  *path,
                          JsonNode            *value,
                          GError             **error)
{
  Value v = { .node = value };
  Node *array;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (!mcp_json_document_check_json (self, error))
    return FALSE;

  array = ensure_array (self, path, error);
  if (array == NULL)
    return FALSE;

  return mcp_json_document_insert_child (self, array, NULL, &v, error);
}

gboolean
mcp_json_document_remove_element (McpJsonDocument     *self,
                                  const char * const  *path,
                                  guint                index,
                                  GError             **error)
{
  Node *array;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);

  if (!mcp_json_document_check_json (self, error))
    return FALSE;

  /* (not ensure_array(): a refused removal must not add the array) */
  array = mcp_json_document_find (self, path);
  if (array != NULL && array->kind != '[')
    {
      g_autofree char *where = mcp_json_path_from_names (path, g_strv_length ((char **) path));

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: expected an array; not changing it"), where);
      return FALSE;
    }
  if (array == NULL || index >= array->children->len)
    {
      g_autofree char *where = mcp_json_path_from_names (path, g_strv_length ((char **) path));

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s[%u]: there is no such element"), where, index);
      return FALSE;
    }

  return mcp_json_document_remove_child (self, array, index, error);
}
