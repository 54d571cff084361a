/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include "mcp-json-private.h"
#include "mcp-launch.h"
#include "mcp-settings-write-private.h"

/* McpSettings' changes as the API has them: each makes a WriteOp, queued
 * by mcp-settings-transaction.c and made by mcp-settings-edit.c. */

static void
binding_free (Binding *binding)
{
  g_free (binding->name);
  g_clear_pointer (&binding->value, json_node_unref);
  g_free (binding);
}

static JsonNode *
copy_entry (JsonObject *object)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  JsonNode *copy;

  json_node_set_object (node, object);
  mcp_json_append (text, node);
  copy = mcp_json_parse (text->str, text->len, NULL);
  g_assert (copy != NULL);

  return copy;
}

static WriteOp *
write_op_new (McpSettings    *self,
              OpKind          kind,
              const char     *name,
              McpConfigScope  scope)
{
  WriteOp *op = g_new0 (WriteOp, 1);

  op->kind = kind;
  op->name = g_strdup (name);
  op->scope = scope;
  op->new_name = g_strdup (name);
  op->to = scope;
  mcp_settings_layout_copy (&op->layout, &self->layout);
  op->files[FILE_USER].path = g_strdup (self->user_path);
  op->files[FILE_PROJECT].path = g_strdup (self->project_path);
  op->files[FILE_PLUGBOARD].path = g_strdup (self->plugboard_path);
  for (guint i = 0; i < N_FILES; i++)
    op->files[i].dialect = self->layout.dialects[i];

  return op;
}

static gboolean
write_finish (McpSettings   *self,
              GAsyncResult  *result,
              gpointer       source_tag,
              GError       **error)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* {"digest": …, "launch": …} of @config (the project's) as loaded: what the
 * person saw is what is approved. */
static Binding *
binding_new (McpServerConfig *config)
{
  Binding *binding = g_new0 (Binding, 1);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autofree char *digest = mcp_launch_dup_digest (config, NULL);

  json_object_set_string_member (object, "digest", digest);
  json_object_set_object_member (object, "launch", mcp_launch_dup_description (config, NULL));
  binding->name = g_strdup (mcp_server_config_get_name (config));
  binding->value = copy_entry (object);

  return binding;
}

static WriteOp *
approval_op_new (McpSettings *self,
                 const char  *name,
                 gboolean     approved)
{
  WriteOp *op = write_op_new (self, OP_APPROVAL, name, MCP_CONFIG_SCOPE_LOCAL);
  McpServerConfig *config = mcp_settings_lookup_in_scope (self, name, MCP_CONFIG_SCOPE_PROJECT);

  op->flag = !!approved;
  op->bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  if (approved && config != NULL)
    g_ptr_array_add (op->bindings, binding_new (config));

  return op;
}

void
mcp_settings_bind_approvals (McpSettings         *self,
                             GPtrArray           *names,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  WriteOp *op = write_op_new (self, OP_BIND, NULL, MCP_CONFIG_SCOPE_LOCAL);

  op->bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  for (guint i = 0; i < names->len; i++)
    {
      McpServerConfig *config = mcp_settings_lookup_in_scope (self, names->pdata[i],
                                                              MCP_CONFIG_SCOPE_PROJECT);

      if (config != NULL)
        g_ptr_array_add (op->bindings, binding_new (config));
    }
  mcp_settings_queue_write (self, op, mcp_settings_bind_approvals, self->cancellable, callback, user_data);
}

/* The API */

/* Add, edit, rename and move are each a save of one kind. */
static void
save_server (McpSettings         *self,
             const char          *name,
             McpConfigScope       scope,
             const char          *new_name,
             McpConfigScope       new_scope,
             JsonObject          *entry,
             JsonObject          *expected,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  WriteOp *op = write_op_new (self, OP_SAVE, name, name != NULL ? scope : new_scope);

  g_free (op->new_name);
  op->new_name = g_strdup (new_name);
  op->to = new_scope;
  if (entry != NULL)
    op->entry = copy_entry (entry);
  if (expected != NULL)
    op->expected = copy_entry (expected);
  mcp_settings_queue_write (self, op, source_tag, cancellable, callback, user_data);
}

void
mcp_settings_save_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       scope,
                                const char          *new_name,
                                McpConfigScope       new_scope,
                                JsonObject          *entry,
                                JsonObject          *expected,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (new_name != NULL);
  g_return_if_fail (name != NULL || entry != NULL);

  save_server (self, name, scope, new_name, new_scope, entry, expected,
               mcp_settings_save_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_save_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_save_server_async, error);
}

void
mcp_settings_add_server_async (McpSettings         *self,
                               const char          *name,
                               McpConfigScope       scope,
                               JsonObject          *object,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (object != NULL);

  save_server (self, NULL, scope, name, scope, object, NULL,
               mcp_settings_add_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_add_server_finish (McpSettings   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return write_finish (self, result, mcp_settings_add_server_async, error);
}

void
mcp_settings_edit_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       scope,
                                JsonObject          *object,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (object != NULL);

  save_server (self, name, scope, name, scope, object, NULL,
               mcp_settings_edit_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_edit_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_edit_server_async, error);
}

void
mcp_settings_rename_server_async (McpSettings         *self,
                                  const char          *name,
                                  McpConfigScope       scope,
                                  const char          *new_name,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (new_name != NULL);

  save_server (self, name, scope, new_name, scope, NULL, NULL,
               mcp_settings_rename_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_rename_server_finish (McpSettings   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return write_finish (self, result, mcp_settings_rename_server_async, error);
}

void
mcp_settings_remove_server_async (McpSettings         *self,
                                  const char          *name,
                                  McpConfigScope       scope,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  mcp_settings_queue_write (self, write_op_new (self, OP_REMOVE, name, scope),
                            mcp_settings_remove_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_remove_server_finish (McpSettings   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return write_finish (self, result, mcp_settings_remove_server_async, error);
}

void
mcp_settings_set_server_enabled_async (McpSettings         *self,
                                       const char          *name,
                                       McpConfigScope       scope,
                                       gboolean             enabled,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  /* A project server is the team's (.mcp.json is shared): turning it off
   * or on is a private choice, kept where other MCP clients keep it, in
   * the local scope's enabled/disabledMcpjsonServers. */
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    op = approval_op_new (self, name, enabled);
  else
    op = write_op_new (self, OP_SET_ENABLED, name, scope);
  op->flag = !!enabled;
  mcp_settings_queue_write (self, op, mcp_settings_set_server_enabled_async,
                            cancellable, callback, user_data);
}

gboolean
mcp_settings_set_server_enabled_finish (McpSettings   *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  return write_finish (self, result, mcp_settings_set_server_enabled_async, error);
}

void
mcp_settings_move_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       from,
                                McpConfigScope       to,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  save_server (self, name, from, name, to, NULL, NULL,
               mcp_settings_move_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_move_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_move_server_async, error);
}

void
mcp_settings_set_approval_async (McpSettings         *self,
                                 const char          *name,
                                 gboolean             approved,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  op = approval_op_new (self, name, approved);
  mcp_settings_queue_write (self, op, mcp_settings_set_approval_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_approval_finish (McpSettings   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  return write_finish (self, result, mcp_settings_set_approval_async, error);
}

void
mcp_settings_reset_approvals_async (McpSettings         *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));

  mcp_settings_queue_write (self, write_op_new (self, OP_RESET_APPROVALS, NULL, MCP_CONFIG_SCOPE_LOCAL),
                            mcp_settings_reset_approvals_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_reset_approvals_finish (McpSettings   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return write_finish (self, result, mcp_settings_reset_approvals_async, error);
}

void
mcp_settings_set_rule_async (McpSettings         *self,
                             const char          *rule,
                             McpConfigScope       scope,
                             McpRuleList          list,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (rule != NULL && g_str_has_prefix (rule, "mcp__"));
  g_return_if_fail (scope == MCP_CONFIG_SCOPE_USER || scope == MCP_CONFIG_SCOPE_LOCAL);
  g_return_if_fail (list <= MCP_RULE_DENY);

  /* the user file holds both; the project's .mcp.json holds no rules */
  op = write_op_new (self, OP_PERMISSION, rule, scope);
  op->to = MCP_CONFIG_SCOPE_USER;
  op->flag = list;
  mcp_settings_queue_write (self, op, mcp_settings_set_rule_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_rule_finish (McpSettings   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  return write_finish (self, result, mcp_settings_set_rule_async, error);
}
