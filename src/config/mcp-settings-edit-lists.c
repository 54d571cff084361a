/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <string.h>

#include "mcp-settings-write-private.h"

/* The changes of McpSettings' writer to the lists kept beside the
 * servers, in the user file: a project server's approval (the local
 * scope's enabled and disabledMcpjsonServers, and the digest of what it
 * runs in approvedMcpjsonServers) and the permission rules. */

gboolean
mcp_settings_edit_has_string (FileEdit    *file,
                              char       **path,
                              const char  *name)
{
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          strcmp (json_node_get_string (element), name) == 0)
        return TRUE;
    }

  return FALSE;
}

static Binding *
find_binding (WriteOp    *op,
              const char *name)
{
  for (guint i = 0; op->bindings != NULL && i < op->bindings->len; i++)
    {
      Binding *binding = op->bindings->pdata[i];

      if (strcmp (binding->name, name) == 0)
        return binding;
    }

  return NULL;
}

/* projects[dir].approvedMcpjsonServers[@name] */
static char **
approved_path (WriteOp    *op,
               const char *name)
{
  g_auto(GStrv) approved = mcp_settings_edit_local_path (op, "approvedMcpjsonServers");
  guint length = g_strv_length (approved);
  char **path = g_new0 (char *, length + 2);

  for (guint i = 0; i < length; i++)
    path[i] = g_strdup (approved[i]);
  path[length] = g_strdup (name);

  return path;
}

/* What is approved is what runs: the digest goes beside the name, and a
 * rejection takes it away. */
static gboolean
apply_approved_digest (WriteOp  *op,
                       GError  **error)
{
  FileEdit *file = lists_file (op);
  g_auto(GStrv) path = approved_path (op, op->name);
  Binding *binding = find_binding (op, op->name);

  if (op->flag && binding != NULL)
    return in_file (mcp_json_document_set (file->document, (const char * const *) path,
                                           binding->value, error), file, error);

  if (mcp_json_document_lookup (file->document, (const char * const *) path) == NULL)
    return TRUE;

  return in_file (mcp_json_document_remove (file->document, (const char * const *) path, error),
                  file, error);
}

/* Each server still approved by name only in the file as it is now gets
 * its digest; one that was decided on meanwhile is left alone. */
gboolean
mcp_settings_edit_bind (WriteOp  *op,
                        GError  **error)
{
  FileEdit *file = lists_file (op);
  g_auto(GStrv) enabled_path = mcp_settings_edit_local_path (op, "enabledMcpjsonServers");
  g_auto(GStrv) disabled_path = mcp_settings_edit_local_path (op, "disabledMcpjsonServers");
  g_auto(GStrv) all_path = mcp_settings_edit_local_path (op, "enableAllProjectMcpServers");
  JsonNode *all = mcp_json_document_lookup (file->document, (const char * const *) all_path);
  gboolean enable_all = all != NULL && JSON_NODE_HOLDS_VALUE (all) &&
                        json_node_get_value_type (all) == G_TYPE_BOOLEAN && json_node_get_boolean (all);

  op->untouched = TRUE;
  for (guint i = 0; i < op->bindings->len; i++)
    {
      Binding *binding = op->bindings->pdata[i];
      g_auto(GStrv) path = approved_path (op, binding->name);

      if ((!enable_all && !mcp_settings_edit_has_string (file, enabled_path, binding->name)) ||
          mcp_settings_edit_has_string (file, disabled_path, binding->name) ||
          mcp_json_document_lookup (file->document, (const char * const *) path) != NULL)
        continue;
      if (!in_file (mcp_json_document_set (file->document, (const char * const *) path,
                                           binding->value, error), file, error))
        return FALSE;
      op->untouched = FALSE;
    }

  return TRUE;
}

gboolean
mcp_settings_edit_approval (WriteOp  *op,
                            GError  **error)
{
  static const char * const lists[] = { "enabledMcpjsonServers", "disabledMcpjsonServers" };
  FileEdit *file = lists_file (op);

  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      g_auto(GStrv) path = mcp_settings_edit_local_path (op, lists[i]);
      gboolean wanted = (i == 0) == !!op->flag;

      if (wanted && !mcp_settings_edit_has_string (file, path, op->name))
        {
          g_autoptr(JsonNode) name = json_node_init_string (json_node_alloc (), op->name);

          if (!in_file (mcp_json_document_append (file->document, (const char * const *) path,
                                                  name, error), file, error))
            return FALSE;
        }
      if (!mcp_settings_edit_remove_string (file, path, op->name, wanted, error))
        return FALSE;
    }

  return apply_approved_digest (op, error);
}

/* Forgets every decision on the project's servers, as Claude Code's
 * reset-project-choices does: the next load finds them pending again. */
gboolean
mcp_settings_edit_reset_approvals (WriteOp  *op,
                                   GError  **error)
{
  static const char * const members[] = {
    "enabledMcpjsonServers", "disabledMcpjsonServers",
    "enableAllProjectMcpServers", "approvedMcpjsonServers",
  };
  FileEdit *file = lists_file (op);

  op->untouched = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      g_auto(GStrv) path = mcp_settings_edit_local_path (op, members[i]);

      if (mcp_json_document_lookup (file->document, (const char * const *) path) == NULL)
        continue;
      if (!in_file (mcp_json_document_remove (file->document, (const char * const *) path, error),
                    file, error))
        return FALSE;
      op->untouched = FALSE;
    }

  return TRUE;
}

/* The rule (op->name) in the list op->flag names (McpRuleList) of the
 * user file's "permissions" (user scope) or of the project's entry in it
 * (local scope), and in no other list of that place. */
gboolean
mcp_settings_edit_rule (WriteOp  *op,
                        GError  **error)
{
  static const char * const lists[] = { NULL, "allow", "ask", "deny" };
  FileEdit *file = rules_file (op);

  for (guint i = MCP_RULE_ALLOW; i <= MCP_RULE_DENY; i++)
    {
      const char *local[] = { "projects", op->layout.project_dir, "permissions", lists[i], NULL };
      const char *user[] = { "permissions", lists[i], NULL };
      g_auto(GStrv) path = g_strdupv ((char **) (op->scope == MCP_CONFIG_SCOPE_LOCAL ? local : user));
      gboolean wanted = (guint) op->flag == i;

      if (wanted && !mcp_settings_edit_has_string (file, path, op->name))
        {
          g_autoptr(JsonNode) rule = json_node_init_string (json_node_alloc (), op->name);

          if (!in_file (mcp_json_document_append (file->document, (const char * const *) path,
                                                  rule, error), file, error))
            return FALSE;
        }
      if (!mcp_settings_edit_remove_string (file, path, op->name, wanted, error))
        return FALSE;
    }

  return TRUE;
}

