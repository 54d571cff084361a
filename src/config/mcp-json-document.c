/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* McpJsonDocument's operations on paths: set, update, remove, rename and
 * copy. The text is indexed in mcp-json-document-index.c, laid out in
 * mcp-json-document-layout.c and spliced in mcp-json-document-splice.c;
 * the operations on arrays are in mcp-json-document-array.c. */

/* The object at the first @length names of @path, or NULL with an error
 * naming where the walk stopped; *@missing is the index of the first
 * name that is not there (or @length when all are). */
Node *
mcp_json_document_walk (McpJsonDocument     *self,
                        const char * const  *path,
                        guint                length,
                        guint               *missing,
                        GError             **error)
{
  Node *node = self->tree;

  for (guint i = 0; ; i++)
    {
      if (node->kind != '{')
        {
          g_autofree char *where = mcp_json_path_from_names (path, i);

          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("%s: expected an object; not changing it"), where);
          return NULL;
        }
      if (i == length)
        {
          *missing = length;
          return node;
        }

      {
        Node *child = mcp_json_node_find_member (node, path[i]);

        if (child == NULL)
          {
            *missing = i;
            return node;
          }
        node = child;
      }
    }
}

/* The operations */

static gboolean
set_value (McpJsonDocument     *self,
           const char * const  *path,
           const Value         *value,
           GError             **error)
{
  guint length = g_strv_length ((char **) path);

  g_return_val_if_fail (length > 0, FALSE);

  for (;;)
    {
      guint missing;
      Node *parent = mcp_json_document_walk (self, path, length - 1, &missing, error);

      if (parent == NULL)
        return FALSE;

      if (missing < length - 1)
        {
          /* an object on the way is missing: add it empty, and go on */
          g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_OBJECT);
          Value object = { .node = empty };

          json_node_take_object (empty, json_object_new ());

          if (!mcp_json_document_insert_child (self, parent, path[missing], &object, error))
            return FALSE;
          continue;
        }

      {
        Node *child = mcp_json_node_find_member (parent, path[length - 1]);

        if (child == NULL)
          return mcp_json_document_insert_child (self, parent, path[length - 1], value, error);
        return mcp_json_document_replace_value (self, parent, child, value, error);
      }
    }
}

gboolean
mcp_json_document_set (McpJsonDocument     *self,
                       const char * const  *path,
                       JsonNode            *value,
                       GError             **error)
{
  Value v = { .node = value };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (self->toml != NULL)
    return mcp_toml_document_set (self->toml, path, value, error);
  if (self->yaml != NULL)
    return mcp_yaml_document_set (self->yaml, path, value, error);

  return set_value (self, path, &v, error);
}

static char **
path_append (const char * const *path,
             const char         *name)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **result;

  g_strv_builder_addv (builder, (const char **) path);
  g_strv_builder_add (builder, name);
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return result;
}

/* Makes the object at @path (now @old) @value member by member: removes
 * each member @old has and @value has not, then updates each of @value's.
 * For McpJsonDocument and the TOML and YAML documents behind it. */
gboolean
mcp_json_update_members (gpointer             document,
                         const char * const  *path,
                         JsonObject          *old,
                         JsonObject          *value,
                         McpJsonRemoveFunc    remove,
                         McpJsonUpdateFunc    update,
                         GError             **error)
{
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_free);
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  /* (the document's tree changes with each edit: names first) */
  json_object_iter_init_ordered (&iter, old);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (!json_object_has_member (value, name))
        g_ptr_array_add (gone, g_strdup (name));
    }

  for (guint i = 0; i < gone->len; i++)
    {
      g_auto(GStrv) inner = path_append (path, gone->pdata[i]);

      if (!remove (document, (const char * const *) inner, error))
        return FALSE;
    }

  json_object_iter_init_ordered (&iter, value);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      g_auto(GStrv) inner = path_append (path, name);

      if (!update (document, (const char * const *) inner, member, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
remove_cb (gpointer             document,
           const char * const  *path,
           GError             **error)
{
  return mcp_json_document_remove (document, path, error);
}

static gboolean
update_cb (gpointer             document,
           const char * const  *path,
           JsonNode            *value,
           GError             **error)
{
  return mcp_json_document_update (document, path, value, error);
}

gboolean
mcp_json_document_update (McpJsonDocument     *self,
                          const char * const  *path,
                          JsonNode            *value,
                          GError             **error)
{
  JsonNode *old;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (self->toml != NULL)
    return mcp_toml_document_update (self->toml, path, value, error);
  if (self->yaml != NULL)
    return mcp_yaml_document_update (self->yaml, path, value, error);

  old = mcp_json_document_lookup (self, path);
  if (mcp_json_equal (old, value))
    return TRUE;
  if (old != NULL && JSON_NODE_HOLDS_ARRAY (old) && JSON_NODE_HOLDS_ARRAY (value))
    {
      /* a copy: the document's own tree is replaced by each edit */
      g_autoptr(JsonNode) before = json_node_copy (old);

      return mcp_json_document_update_array (self, path, json_node_get_array (before),
                                             json_node_get_array (value), error);
    }
  if (old == NULL || !JSON_NODE_HOLDS_OBJECT (old) || !JSON_NODE_HOLDS_OBJECT (value))
    return mcp_json_document_set (self, path, value, error);

  return mcp_json_update_members (self, path, json_node_get_object (old), json_node_get_object (value),
                                  remove_cb, update_cb, error);
}

gboolean
mcp_json_document_remove (McpJsonDocument     *self,
                          const char * const  *path,
                          GError             **error)
{
  guint length;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);

  if (self->toml != NULL)
    return mcp_toml_document_remove (self->toml, path, error);
  if (self->yaml != NULL)
    return mcp_yaml_document_remove (self->yaml, path, error);

  length = g_strv_length ((char **) path);
  for (;;)
    {
      guint missing;
      Node *parent = mcp_json_document_walk (self, path, length - 1, &missing, error);
      guint index;

      if (parent == NULL)
        return FALSE;
      if (missing < length - 1)
        return TRUE;

      /* every copy of the name, or an earlier one would come back */
      for (index = 0; index < parent->children->len; index++)
        {
          Node *child = parent->children->pdata[index];

          if (strcmp (child->key, path[length - 1]) == 0)
            break;
        }
      if (index == parent->children->len)
        return TRUE;

      if (!mcp_json_document_remove_child (self, parent, index, error))
        return FALSE;
    }
}

/* FALSE with an error when there is nothing at @path to rename (@found
 * FALSE), or when @new_name is another member of its object (@taken) */
gboolean
mcp_json_check_rename (const char * const  *path,
                       const char          *new_name,
                       gboolean             found,
                       gboolean             taken,
                       GError             **error)
{
  guint length = g_strv_length ((char **) path);

  if (!found)
    {
      g_autofree char *where = mcp_json_path_from_names (path, length);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is nothing to rename"), where);
      return FALSE;
    }
  if (taken && strcmp (path[length - 1], new_name) != 0)
    {
      g_autofree char *where = mcp_json_path_from_names (path, length - 1);
      g_autofree char *place = mcp_json_path_append_member (where, new_name);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is one already; not renaming"), place);
      return FALSE;
    }

  return TRUE;
}

gboolean
mcp_json_document_rename (McpJsonDocument     *self,
                          const char * const  *path,
                          const char          *new_name,
                          GError             **error)
{
  g_autoptr(GArray) splices = mcp_json_splices_new ();
  guint length;
  guint missing;
  Node *parent;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (new_name != NULL, FALSE);

  if (self->toml != NULL)
    return mcp_toml_document_rename (self->toml, path, new_name, error);
  if (self->yaml != NULL)
    return mcp_yaml_document_rename (self->yaml, path, new_name, error);

  length = g_strv_length ((char **) path);
  parent = mcp_json_document_walk (self, path, length - 1, &missing, error);
  if (parent == NULL)
    return FALSE;
  if (!mcp_json_check_rename (path, new_name,
                              missing == length - 1 && mcp_json_node_find_member (parent, path[length - 1]) != NULL,
                              mcp_json_node_find_member (parent, new_name) != NULL, error))
    return FALSE;
  if (strcmp (path[length - 1], new_name) == 0)
    return TRUE;

  for (guint i = 0; i < parent->children->len; i++)
    {
      Node *child = parent->children->pdata[i];
      GString *key;

      if (strcmp (child->key, path[length - 1]) != 0)
        continue;
      key = g_string_new (NULL);
      mcp_json_append_string (key, new_name);
      mcp_json_splices_add (splices, child->key_start, child->key_end, g_string_free (key, FALSE));
    }

  return mcp_json_document_apply_splices (self, splices, error);
}

gboolean
mcp_json_document_copy (McpJsonDocument     *self,
                        const char * const  *path,
                        McpJsonDocument     *source,
                        const char * const  *source_path,
                        GError             **error)
{
  g_autofree char *raw = NULL;
  g_autofree char *raw_indent = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  gsize raw_length;
  guint length;
  guint missing;
  Node *parent;
  Node *child;
  Value value = { 0 };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (source_path != NULL && source_path[0] != NULL, FALSE);

  if (!mcp_json_document_check_json (self, error) ||
      !mcp_json_document_check_json (source, error))
    return FALSE;

  length = g_strv_length ((char **) source_path);
  parent = mcp_json_document_walk (source, source_path, length - 1, &missing, error);
  if (parent == NULL)
    return FALSE;
  child = missing == length - 1 ? mcp_json_node_find_member (parent, source_path[length - 1]) : NULL;
  if (child == NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (source_path, length);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, _("%s: there is nothing to copy"), where);
      return FALSE;
    }

  /* copied out: @source may be @self, whose text the edit changes */
  raw_length = child->end - child->start;
  raw = g_malloc (raw_length + 1);
  memcpy (raw, source->text->str + child->start, raw_length);
  raw[raw_length] = '\0';
  raw_indent = mcp_json_indent_at (source->text->str, mcp_json_node_member_start (child));

  /* comments do not go where they are not allowed */
  if (self->dialect == MCP_JSON_DIALECT_JSON && source->dialect == MCP_JSON_DIALECT_JSONC)
    {
      g_autofree char *plain = g_memdup2 (raw, raw_length + 1);

      mcp_json_blank_jsonc (plain, raw_length);
      if (memcmp (plain, raw, raw_length) != 0)
        {
          parsed = json_node_copy (mcp_json_document_lookup (source, source_path));
          value.node = parsed;
        }
    }

  if (value.node == NULL)
    {
      value.raw = raw;
      value.raw_length = raw_length;
      value.raw_indent = raw_indent;
    }

  return set_value (self, path, &value, error);
}
