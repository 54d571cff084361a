/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"
#include "mcp-settings-write-private.h"

/* The changes of McpSettings' writer to the servers' entries (add, edit,
 * rename, move, remove, turn on or off), made in the documents of the
 * files as they are under the lock. The approvals and the permission
 * rules are in mcp-settings-edit-lists.c. */

static FileEdit *
op_file (WriteOp        *op,
         McpConfigScope  scope)
{
  return &op->files[file_of (scope)];
}

/* Where things are */

static char **
path_append (char       **path,
             const char  *name)
{
  guint length = g_strv_length (path);
  char **longer = g_new0 (char *, length + 2);

  for (guint i = 0; i < length; i++)
    longer[i] = g_strdup (path[i]);
  longer[length] = g_strdup (name);

  return longer;
}

char **
mcp_settings_edit_local_path (WriteOp    *op,
                              const char *member)
{
  return path_append (op->layout.lists_prefix, member);
}

/* mcpServers[@name] of @scope (or where the client keeps its servers) */
static char **
entry_path (WriteOp        *op,
            McpConfigScope  scope,
            const char     *name)
{
  g_assert (op->layout.containers[scope] != NULL);

  return path_append (op->layout.containers[scope], name);
}

static gboolean
is_client (WriteOp *op)
{
  return op->layout.client != MCP_CLIENT_KIND_PLUGBOARD;
}

static gboolean G_GNUC_PRINTF (3, 4)
file_error (GError     **error,
            FileEdit    *file,
            const char  *format,
            ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "%s: %s", file->path, what);

  return FALSE;
}

/* Another program (or window) may have written the file since it was
 * read: what the change is about must be as it was then (@expected, in
 * Plugboard's shape, or as last read), or the change is refused rather
 * than made over it. Changes elsewhere in the file are kept. */
static gboolean
check_unchanged (WriteOp     *op,
                 FileEdit    *file,
                 char       **path,
                 JsonNode    *expected,
                 const char  *name,
                 GError     **error)
{
  g_autoptr(McpJsonDocument) known = NULL;
  g_autoptr(JsonNode) converted = NULL;
  JsonNode *now = mcp_json_document_lookup (file->document, (const char * const *) path);
  JsonNode *then = expected;

  if (then == NULL)
    {
      const char *data = NULL;
      gsize length = 0;

      if (mcp_settings_bytes_equal (file->known, file->current))
        return TRUE;
      if (file->known != NULL)
        data = g_bytes_get_data (file->known, &length);
      known = mcp_json_document_new (data, length, file->dialect, NULL);
      /* it did not parse then: there is nothing to compare with */
      if (known == NULL)
        return TRUE;
      then = mcp_json_document_lookup (known, (const char * const *) path);
    }
  else if (is_client (op) && now != NULL && JSON_NODE_HOLDS_OBJECT (now))
    {
      /* the editor had the entry in Plugboard's shape */
      JsonObject *entry = mcp_settings_layout_to_plugboard (&op->layout, name, json_node_get_object (now),
                                                            NULL, NULL, NULL);

      if (entry != NULL)
        {
          converted = json_node_new (JSON_NODE_OBJECT);
          json_node_take_object (converted, entry);
          now = converted;
        }
    }

  if (mcp_json_equal (then, now))
    return TRUE;

  return file_error (error, file,
                     /* Translators: %s is a server's name */
                     _("“%s” was changed meanwhile, by another program or window; nothing was "
                       "changed. Look at it again and repeat your change."),
                     name);
}

/* VS Code's "inputs": beside the object of servers of @scope */
static char **
inputs_path (WriteOp        *op,
             McpConfigScope  scope)
{
  g_auto(GStrv) parent = g_strdupv (op->layout.containers[scope]);

  g_clear_pointer (&parent[g_strv_length (parent) - 1], g_free);

  return path_append (parent, "inputs");
}

static JsonArray *
lookup_inputs (WriteOp        *op,
               McpConfigScope  scope,
               FileEdit       *file)
{
  g_auto(GStrv) path = inputs_path (op, scope);
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* @op's entry (Plugboard's shape) as @scope's file (@file) has entries,
 * over @base, the entry there now (NULL: none), so that what the client
 * has and Plugboard does not understand stays; Plugboard's own, as it
 * is. A new server of a project's file (shared, often committed) has its
 * secrets asked for by the client rather than written (VS Code's inputs,
 * which go in @new_inputs); an edit keeps the person's values. */
static JsonNode *
native_entry (WriteOp         *op,
              McpConfigScope   scope,
              FileEdit        *file,
              JsonObject      *base,
              JsonArray       *new_inputs,
              GError         **error)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  JsonObject *native;
  JsonNode *node;

  if (!is_client (op))
    return json_node_ref (op->entry);

  native = mcp_settings_layout_from_plugboard (&op->layout, op->new_name, json_node_get_object (op->entry),
                                               base, lookup_inputs (op, scope, file),
                                               op->name == NULL && scope == MCP_CONFIG_SCOPE_PROJECT
                                                 ? new_inputs : NULL,
                                               notes, error);
  if (native == NULL)
    {
      g_prefix_error (error, "%s: ", file->path);
      return NULL;
    }
  /* (what the client cannot say is for the editor to show before it
   * saves, with mcp_client_shape_from_plugboard(); here it is only logged) */
  for (guint i = 0; i < notes->len; i++)
    g_debug ("%s: %s: %s", file->path, op->new_name, (const char *) notes->pdata[i]);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, native);

  return node;
}

static gboolean
has_input (JsonArray  *inputs,
           const char *id)
{
  for (guint i = 0; inputs != NULL && i < json_array_get_length (inputs); i++)
    {
      JsonNode *element = json_array_get_element (inputs, i);

      if (JSON_NODE_HOLDS_OBJECT (element) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (element),
                                                                 "id", NULL), id) == 0)
        return TRUE;
    }

  return FALSE;
}

/* The inputs a conversion made up, at the end of the file's "inputs" (one
 * of that id there already stays as it is) */
static gboolean
add_inputs (WriteOp         *op,
            McpConfigScope   scope,
            FileEdit        *file,
            JsonArray       *new_inputs,
            GError         **error)
{
  g_auto(GStrv) path = NULL;

  if (json_array_get_length (new_inputs) == 0)
    return TRUE;

  path = inputs_path (op, scope);
  for (guint i = 0; i < json_array_get_length (new_inputs); i++)
    {
      JsonNode *input = json_array_get_element (new_inputs, i);
      const char *id = JSON_NODE_HOLDS_OBJECT (input)
        ? json_object_get_string_member_with_default (json_node_get_object (input), "id", NULL) : NULL;

      if (id == NULL || has_input (lookup_inputs (op, scope, file), id))
        continue;
      if (!in_file (mcp_json_document_append (file->document, (const char * const *) path, input, error),
                    file, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
find_server (WriteOp         *op,
             McpConfigScope   scope,
             const char      *name,
             GError         **error)
{
  FileEdit *file = op_file (op, scope);
  g_auto(GStrv) path = entry_path (op, scope, name);
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);

  if (node == NULL)
    return file_error (error, file,
                       /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                       _("there is no server “%s” in the %s scope"),
                       name, mcp_settings_scope_name (scope));
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *where = mcp_json_path_from_names ((const char * const *) path, G_MAXUINT);

      return file_error (error, file, _("%s: expected an object; not changing it"), where);
    }

  return TRUE;
}

static gboolean
no_server (WriteOp         *op,
           McpConfigScope   scope,
           const char      *name,
           GError         **error)
{
  FileEdit *file = op_file (op, scope);
  g_auto(GStrv) path = entry_path (op, scope, name);

  if (mcp_json_document_lookup (file->document, (const char * const *) path) == NULL)
    return TRUE;

  return file_error (error, file,
                     /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                     _("there is already a server “%s” in the %s scope"),
                     name, mcp_settings_scope_name (scope));
}

/* Whether the new entry of @op is a server: the error names @file and
 * where in it the entry would go. */
gboolean
mcp_settings_edit_check_entry (WriteOp     *op,
                               const char  *file,
                               GError     **error)
{
  g_auto(GStrv) path = entry_path (op, op->to, op->new_name);
  g_autofree char *where = mcp_json_path_from_names ((const char * const *) path, G_MAXUINT);
  g_autoptr(McpServerConfig) check = NULL;

  check = mcp_server_config_new_from_json (op->new_name, op->to, json_node_get_object (op->entry),
                                           file, where, error);

  return check != NULL;
}

/* The changes */

/* Where both files are JSON the entry's own bytes are carried; TOML and
 * YAML documents take its value. */
static gboolean
copy_entry (FileEdit  *to,
            char     **new_path,
            FileEdit  *from,
            char     **old_path,
            GError   **error)
{
  g_autoptr(JsonNode) value = NULL;

  if ((to->dialect == MCP_JSON_DIALECT_JSON || to->dialect == MCP_JSON_DIALECT_JSONC) &&
      (from->dialect == MCP_JSON_DIALECT_JSON || from->dialect == MCP_JSON_DIALECT_JSONC))
    return in_file (mcp_json_document_copy (to->document, (const char * const *) new_path,
                                            from->document, (const char * const *) old_path,
                                            error), to, error);

  value = json_node_copy (mcp_json_document_lookup (from->document, (const char * const *) old_path));

  return in_file (mcp_json_document_set (to->document, (const char * const *) new_path, value, error),
                  to, error);
}

static gboolean
apply_save (WriteOp  *op,
            GError  **error)
{
  FileEdit *from = op_file (op, op->scope);
  FileEdit *to = op_file (op, op->to);
  g_auto(GStrv) old_path = NULL;
  g_auto(GStrv) new_path = entry_path (op, op->to, op->new_name);
  g_autoptr(JsonArray) new_inputs = json_array_new ();
  g_autoptr(JsonNode) native = NULL;

  if (op->name == NULL)
    {
      if (!no_server (op, op->to, op->new_name, error))
        return FALSE;
      native = native_entry (op, op->to, to, NULL, new_inputs, error);

      return native != NULL &&
             in_file (mcp_json_document_set (to->document, (const char * const *) new_path,
                                             native, error), to, error) &&
             add_inputs (op, op->to, to, new_inputs, error);
    }

  /* A rename or a move carries the entry as it is now; an edit replaces
   * it, so it must be what the edit was made on. */
  old_path = entry_path (op, op->scope, op->name);
  if (!find_server (op, op->scope, op->name, error) ||
      (op->entry != NULL && !check_unchanged (op, from, old_path, op->expected, op->name, error)))
    return FALSE;

  /* (before the entry moves: each edit parses the document anew) */
  if (op->entry != NULL)
    {
      JsonNode *base = mcp_json_document_lookup (from->document, (const char * const *) old_path);

      native = native_entry (op, op->to, to, json_node_get_object (base), new_inputs, error);
      if (native == NULL)
        return FALSE;
    }

  if (op->scope == op->to)
    {
      /* renamed in place: it keeps its place among the others */
      if (strcmp (op->name, op->new_name) != 0 &&
          (!no_server (op, op->to, op->new_name, error) ||
           !in_file (mcp_json_document_rename (from->document, (const char * const *) old_path,
                                               op->new_name, error), from, error)))
        return FALSE;
    }
  else
    {
      /* its own bytes go with it, then what changed is changed */
      if (!no_server (op, op->to, op->new_name, error) ||
          !copy_entry (to, new_path, from, old_path, error) ||
          !in_file (mcp_json_document_remove (from->document, (const char * const *) old_path,
                                              error), from, error))
        return FALSE;
    }

  if (native == NULL)
    return TRUE;

  return in_file (mcp_json_document_update (to->document, (const char * const *) new_path,
                                            native, error), to, error) &&
         add_inputs (op, op->to, to, new_inputs, error);
}

static gboolean
apply_remove (WriteOp  *op,
              GError  **error)
{
  FileEdit *file = op_file (op, op->scope);
  g_auto(GStrv) path = entry_path (op, op->scope, op->name);

  return find_server (op, op->scope, op->name, error) &&
         check_unchanged (op, file, path, NULL, op->name, error) &&
         in_file (mcp_json_document_remove (file->document, (const char * const *) path, error),
                  file, error);
}

static gboolean
set_boolean (FileEdit  *file,
             char     **path,
             gboolean   value,
             GError   **error)
{
  g_autoptr(JsonNode) node = json_node_init_boolean (json_node_alloc (), value);

  return in_file (mcp_json_document_set (file->document, (const char * const *) path, node, error),
                  file, error);
}

gboolean
mcp_settings_edit_remove_string (FileEdit    *file,
                                 char       **path,
                                 const char  *name,
                                 gboolean     keep_one,
                                 GError     **error)
{
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);
  JsonArray *array;
  guint first = G_MAXUINT;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *where = mcp_json_path_from_names ((const char * const *) path, G_MAXUINT);

      return file_error (error, file, _("%s: expected an array; not changing it"), where);
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array) && first == G_MAXUINT; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          strcmp (json_node_get_string (element), name) == 0)
        first = i;
    }

  for (guint i = json_array_get_length (array); i > 0; i--)
    {
      JsonNode *element;

      /* the document's tree is new after each removal */
      node = mcp_json_document_lookup (file->document, (const char * const *) path);
      element = json_array_get_element (json_node_get_array (node), i - 1);
      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING ||
          strcmp (json_node_get_string (element), name) != 0 || (keep_one && i - 1 == first))
        continue;
      if (!in_file (mcp_json_document_remove_element (file->document, (const char * const *) path,
                                                      i - 1, error), file, error))
        return FALSE;
    }

  return TRUE;
}

/* Whether the entries of @servers say "disabled" (Claude Desktop's way)
 * and none says "enabled". */
static gboolean
prefers_disabled (JsonNode *servers)
{
  gboolean disabled = FALSE;
  JsonObjectIter iter;
  const char *name;
  JsonNode *entry;

  json_object_iter_init (&iter, json_node_get_object (servers));
  while (json_object_iter_next (&iter, &name, &entry))
    {
      if (!JSON_NODE_HOLDS_OBJECT (entry))
        continue;
      if (json_object_has_member (json_node_get_object (entry), "enabled"))
        return FALSE;
      if (json_object_has_member (json_node_get_object (entry), "disabled"))
        disabled = TRUE;
    }

  return disabled;
}

static gboolean
says_enabled (JsonObject *entry)
{
  return json_object_get_boolean_member_with_default (entry, "enabled", TRUE) &&
         !json_object_get_boolean_member_with_default (entry, "disabled", FALSE);
}

/* Another client's entry is turned off in its own words (its shape's
 * "disabled", "enabled": false…); one whose shape has none is switched
 * off in the project beside its approvals (disabledMcpServers, Claude
 * Code's way), which Plugboard reads the same. */
static gboolean
apply_client_set_enabled (WriteOp  *op,
                          GError  **error)
{
  FileEdit *file = op_file (op, op->scope);
  g_auto(GStrv) path = entry_path (op, op->scope, op->name);
  g_auto(GStrv) off_path = mcp_settings_edit_local_path (op, "disabledMcpServers");
  g_autoptr(JsonObject) base = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonObject) native = NULL;
  g_autoptr(JsonObject) back = NULL;
  g_autoptr(JsonObject) converted = NULL;
  JsonArray *inputs = lookup_inputs (op, op->scope, file);
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;
  gboolean said;

  if (!find_server (op, op->scope, op->name, error))
    return FALSE;

  base = json_object_ref (json_node_get_object (mcp_json_document_lookup (file->document,
                                                                          (const char * const *) path)));
  converted = mcp_settings_layout_to_plugboard (&op->layout, op->name, base, inputs, NULL, error);
  if (converted == NULL)
    {
      g_prefix_error (error, "%s: ", file->path);
      return FALSE;
    }
  /* (its members in an object of its own: only the top level changes) */
  entry = json_object_new ();
  json_object_iter_init_ordered (&iter, converted);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    json_object_set_member (entry, member, json_node_copy (value));
  json_object_remove_member (entry, "disabled");
  if (op->flag)
    json_object_remove_member (entry, "enabled");
  else
    json_object_set_boolean_member (entry, "enabled", FALSE);

  native = mcp_settings_layout_from_plugboard (&op->layout, op->name, entry, base, inputs, NULL, NULL, error);
  if (native == NULL)
    {
      g_prefix_error (error, "%s: ", file->path);
      return FALSE;
    }
  back = mcp_settings_layout_to_plugboard (&op->layout, op->name, native, inputs, NULL, NULL);
  said = back != NULL && says_enabled (back) == !!op->flag;

  if (said || op->flag)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, native);
      if (!in_file (mcp_json_document_update (file->document, (const char * const *) path, node, error),
                    file, error))
        return FALSE;
    }

  if (op->flag)
    return mcp_settings_edit_remove_string (lists_file (op), off_path, op->name, FALSE, error);
  if (!said && !mcp_settings_edit_has_string (lists_file (op), off_path, op->name))
    {
      g_autoptr(JsonNode) name = json_node_init_string (json_node_alloc (), op->name);

      return in_file (mcp_json_document_append (lists_file (op)->document, (const char * const *) off_path,
                                                name, error), lists_file (op), error);
    }

  return TRUE;
}

/* In the words the entry (or its file) already uses: "enabled", or
 * "disabled", or Claude Code's projects[dir].disabledMcpServers. */
static gboolean
apply_set_enabled (WriteOp  *op,
                   GError  **error)
{
  FileEdit *file = op_file (op, op->scope);
  g_auto(GStrv) path = entry_path (op, op->scope, op->name);
  g_auto(GStrv) enabled_path = path_append (path, "enabled");
  g_auto(GStrv) disabled_path = path_append (path, "disabled");
  g_auto(GStrv) off_path = mcp_settings_edit_local_path (op, "disabledMcpServers");
  JsonObject *entry;
  gboolean has_enabled;
  gboolean has_disabled;

  if (!find_server (op, op->scope, op->name, error))
    return FALSE;
  /* (each edit parses the document anew: what is needed of it, first) */
  entry = json_node_get_object (mcp_json_document_lookup (file->document, (const char * const *) path));
  has_enabled = json_object_has_member (entry, "enabled");
  has_disabled = json_object_has_member (entry, "disabled");

  if (op->flag)
    {
      if (has_enabled &&
          !in_file (mcp_json_document_remove (file->document, (const char * const *) enabled_path, error),
                    file, error))
        return FALSE;
      if (has_disabled && !set_boolean (file, disabled_path, FALSE, error))
        return FALSE;
      return mcp_settings_edit_remove_string (file, off_path, op->name, FALSE, error);
    }

  if (has_disabled)
    return set_boolean (file, disabled_path, TRUE, error);
  if (!has_enabled)
    {
      g_auto(GStrv) servers = g_strdupv (path);

      g_clear_pointer (&servers[g_strv_length (servers) - 1], g_free);
      if (prefers_disabled (mcp_json_document_lookup (file->document, (const char * const *) servers)))
        return set_boolean (file, disabled_path, TRUE, error);
    }

  return set_boolean (file, enabled_path, FALSE, error);
}

gboolean
mcp_settings_edit_apply (WriteOp  *op,
                         GError  **error)
{
  switch (op->kind)
    {
    case OP_PERMISSION:
      return mcp_settings_edit_rule (op, error);
    case OP_SAVE:
      return apply_save (op, error);
    case OP_REMOVE:
      return apply_remove (op, error);
    case OP_SET_ENABLED:
      return is_client (op) ? apply_client_set_enabled (op, error) : apply_set_enabled (op, error);
    case OP_BIND:
      return mcp_settings_edit_bind (op, error);
    case OP_RESET_APPROVALS:
      return mcp_settings_edit_reset_approvals (op, error);
    case OP_APPROVAL:
    default:
      return mcp_settings_edit_approval (op, error);
    }
}
