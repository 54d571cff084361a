/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-history"

#include "config.h"

#include "mcp-tool-history.h"
#include "mcp-tool-history-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* The argument sets the person saved per tool, in one small JSON file
 * (see McpToolHistory): read for every question, written whole through a
 * temporary file, never over a file that does not parse. */

/* The file's root object: a new one when the file does not exist; NULL and
 * an error naming the file when it cannot be read or parsed (then it must
 * not be overwritten). */
static JsonObject *
load_root (McpToolHistory  *self,
           GError         **error)
{
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  JsonObject *root;
  JsonNode *node;
  gsize length;

  if (!g_file_get_contents (self->path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          root = json_object_new ();
          json_object_set_int_member (root, "version", 1);
          json_object_set_object_member (root, "tools", json_object_new ());
          return root;
        }

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not read the saved arguments file “%s”: %s"),
                   self->path, local_error->message);
      return NULL;
    }

  if ((parsed = mcp_json_parse (contents, length, &local_error)) == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The saved arguments file “%s” is not valid JSON (%s); fix or remove it "
                     "to save arguments again"),
                   self->path, local_error->message);
      return NULL;
    }

  node = parsed;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The saved arguments file “%s” does not hold a JSON object; fix or remove "
                     "it to save arguments again"),
                   self->path);
      return NULL;
    }

  root = json_node_get_object (node);
  if (json_object_has_member (root, "tools") &&
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "tools")))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("In the saved arguments file “%s”, “tools” is not an object; fix or "
                     "remove it to save arguments again"),
                   self->path);
      return NULL;
    }

  root = json_object_ref (root);
  if (!json_object_has_member (root, "version"))
    json_object_set_int_member (root, "version", 1);
  if (!json_object_has_member (root, "tools"))
    json_object_set_object_member (root, "tools", json_object_new ());

  return root;
}

static gboolean
save_root (McpToolHistory  *self,
           JsonObject      *root,
           GError         **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *directory = g_path_get_dirname (self->path);
  g_autofree char *data = NULL;
  gsize length;

  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not create the folder “%s” for saved arguments: %s"),
                   directory, g_strerror (saved_errno));
      return FALSE;
    }

  json_node_set_object (node, root);
  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  data = json_generator_to_data (generator, &length);

  /* Written to a temporary file and renamed over: a crash leaves the old
   * file or the new one, never half of one. */
  if (!g_file_set_contents_full (self->path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not save arguments to “%s”: %s"),
                   self->path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

/* The array of @qualified_name's sets, or NULL. */
static JsonArray *
get_sets (JsonObject *root,
          const char *qualified_name)
{
  JsonObject *tools = json_object_get_object_member (root, "tools");
  JsonNode *node;

  if (tools == NULL || (node = json_object_get_member (tools, qualified_name)) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static JsonObject *
find_set (JsonArray  *sets,
          const char *set_name,
          guint      *index)
{
  if (sets == NULL)
    return NULL;

  for (guint i = 0; i < json_array_get_length (sets); i++)
    {
      JsonNode *node = json_array_get_element (sets, i);
      JsonObject *set;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      set = json_node_get_object (node);
      if (g_strcmp0 (json_object_get_string_member_with_default (set, "name", NULL), set_name) == 0)
        {
          if (index != NULL)
            *index = i;
          return set;
        }
    }

  return NULL;
}

gboolean
mcp_tool_history_save_arguments (McpToolHistory  *self,
                                 const char      *qualified_name,
                                 const char      *set_name,
                                 JsonObject      *arguments,
                                 GError         **error)
{
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *saved = NULL;
  JsonObject *tools;
  JsonArray *sets;
  JsonObject *set;
  JsonNode *copy;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), FALSE);
  g_return_val_if_fail (qualified_name != NULL, FALSE);
  g_return_val_if_fail (set_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = load_root (self, error);
  if (root == NULL)
    return FALSE;

  tools = json_object_get_object_member (root, "tools");
  sets = get_sets (root, qualified_name);
  if (sets == NULL)
    {
      sets = json_array_new ();
      json_object_set_array_member (tools, qualified_name, sets);
    }

  /* Saving under a name that exists replaces that set where it is; its
   * other keys stay. */
  set = find_set (sets, set_name, NULL);
  if (set == NULL)
    {
      set = json_object_new ();
      json_object_set_string_member (set, "name", set_name);
      json_array_add_object_element (sets, set);
    }

  copy = arguments != NULL ? mcp_tool_history_copy_object (arguments) : NULL;
  if (copy != NULL)
    json_object_set_member (set, "arguments", copy);
  else
    json_object_set_object_member (set, "arguments", json_object_new ());

  now = g_date_time_new_now_utc ();
  saved = g_date_time_format_iso8601 (now);
  json_object_set_string_member (set, "saved", saved);

  return save_root (self, root, error);
}

char **
mcp_tool_history_dup_saved_names (McpToolHistory *self,
                                  const char     *qualified_name)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *sets;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  root = load_root (self, &error);
  if (root == NULL)
    {
      g_debug ("%s", error->message);
      return g_strv_builder_end (builder);
    }

  sets = get_sets (root, qualified_name);
  for (guint i = 0; sets != NULL && i < json_array_get_length (sets); i++)
    {
      JsonNode *node = json_array_get_element (sets, i);
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      name = json_object_get_string_member_with_default (json_node_get_object (node), "name", NULL);
      if (name != NULL)
        g_strv_builder_add (builder, name);
    }

  return g_strv_builder_end (builder);
}

JsonObject *
mcp_tool_history_load_arguments (McpToolHistory  *self,
                                 const char      *qualified_name,
                                 const char      *set_name,
                                 GError         **error)
{
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(JsonNode) copy = NULL;
  JsonObject *set;
  JsonNode *arguments;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);
  g_return_val_if_fail (set_name != NULL, NULL);

  root = load_root (self, error);
  if (root == NULL)
    return NULL;

  set = find_set (get_sets (root, qualified_name), set_name, NULL);
  if (set == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("No arguments saved as “%s” for %s in “%s”"),
                   set_name, qualified_name, self->path);
      return NULL;
    }

  arguments = json_object_get_member (set, "arguments");
  if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The arguments saved as “%s” for %s in “%s” are not a JSON object"),
                   set_name, qualified_name, self->path);
      return NULL;
    }

  copy = mcp_tool_history_copy_object (json_node_get_object (arguments));
  return json_object_ref (json_node_get_object (copy));
}

gboolean
mcp_tool_history_delete_arguments (McpToolHistory  *self,
                                   const char      *qualified_name,
                                   const char      *set_name,
                                   GError         **error)
{
  g_autoptr(JsonObject) root = NULL;
  JsonArray *sets;
  guint index;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), FALSE);
  g_return_val_if_fail (qualified_name != NULL, FALSE);
  g_return_val_if_fail (set_name != NULL, FALSE);

  root = load_root (self, error);
  if (root == NULL)
    return FALSE;

  sets = get_sets (root, qualified_name);
  if (find_set (sets, set_name, &index) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("No arguments saved as “%s” for %s in “%s”"),
                   set_name, qualified_name, self->path);
      return FALSE;
    }

  json_array_remove_element (sets, index);
  if (json_array_get_length (sets) == 0)
    json_object_remove_member (json_object_get_object_member (root, "tools"), qualified_name);

  return save_root (self, root, error);
}
