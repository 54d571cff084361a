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

char **
mcp_settings_edit_local_path (WriteOp    *op,
                              const char *member)
{
  const char *path[] = { "projects", op->project_dir, member, NULL };

  return g_strdupv ((char **) path);
}

/* mcpServers[@name] of @scope */
static char **
entry_path (WriteOp        *op,
            McpConfigScope  scope,
            const char     *name)
{
  if (scope == MCP_CONFIG_SCOPE_LOCAL)
    {
      const char *path[] = { "projects", op->project_dir, "mcpServers", name, NULL };

      return g_strdupv ((char **) path);
    }
  else
    {
      const char *path[] = { "mcpServers", name, NULL };

      return g_strdupv ((char **) path);
    }
}

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
 * read: what the change is about must be as it was then (@expected, or
 * as last read), or the change is refused rather than made over it.
 * Changes elsewhere in the file are kept. */
static gboolean
check_unchanged (FileEdit    *file,
                 char       **path,
                 JsonNode    *expected,
                 const char  *name,
                 GError     **error)
{
  g_autoptr(McpJsonDocument) known = NULL;
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
      known = mcp_json_document_new (data, length, MCP_JSON_DIALECT_JSON, NULL);
      /* it did not parse then: there is nothing to compare with */
      if (known == NULL)
        return TRUE;
      then = mcp_json_document_lookup (known, (const char * const *) path);
    }

  if (mcp_json_equal (then, now))
    return TRUE;

  return file_error (error, file,
                     /* Translators: %s is a server's name */
                     _("“%s” was changed meanwhile, by another program or window; nothing was "
                       "changed. Look at it again and repeat your change."),
                     name);
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

static gboolean
apply_save (WriteOp  *op,
            GError  **error)
{
  FileEdit *from = op_file (op, op->scope);
  FileEdit *to = op_file (op, op->to);
  g_auto(GStrv) old_path = NULL;
  g_auto(GStrv) new_path = entry_path (op, op->to, op->new_name);

  if (op->name == NULL)
    return no_server (op, op->to, op->new_name, error) &&
           in_file (mcp_json_document_set (to->document, (const char * const *) new_path,
                                           op->entry, error), to, error);

  /* A rename or a move carries the entry as it is now; an edit replaces
   * it, so it must be what the edit was made on. */
  old_path = entry_path (op, op->scope, op->name);
  if (!find_server (op, op->scope, op->name, error) ||
      (op->entry != NULL && !check_unchanged (from, old_path, op->expected, op->name, error)))
    return FALSE;

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
          !in_file (mcp_json_document_copy (to->document, (const char * const *) new_path,
                                            from->document, (const char * const *) old_path,
                                            error), to, error) ||
          !in_file (mcp_json_document_remove (from->document, (const char * const *) old_path,
                                              error), from, error))
        return FALSE;
    }

  if (op->entry == NULL)
    return TRUE;

  return in_file (mcp_json_document_update (to->document, (const char * const *) new_path,
                                            op->entry, error), to, error);
}

static gboolean
apply_remove (WriteOp  *op,
              GError  **error)
{
  FileEdit *file = op_file (op, op->scope);
  g_auto(GStrv) path = entry_path (op, op->scope, op->name);

  return find_server (op, op->scope, op->name, error) &&
         check_unchanged (file, path, NULL, op->name, error) &&
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
      return apply_set_enabled (op, error);
    case OP_BIND:
      return mcp_settings_edit_bind (op, error);
    case OP_RESET_APPROVALS:
      return mcp_settings_edit_reset_approvals (op, error);
    case OP_APPROVAL:
    default:
      return mcp_settings_edit_approval (op, error);
    }
}
