/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

/* McpProject: the person's operations on a server (reconnect, enable,
 * disable, duplicate, remove, approve, reject, sign out), moving, restoring
 * a removed entry and the example server; the settings writes they make
 * finish in mcp_project_write_done_cb(). */

#include "config.h"

#include "mcp-project-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

#define EXAMPLE_NAME    "everything"
#define EXAMPLE_PACKAGE "@modelcontextprotocol/server-everything"

gboolean
mcp_project_find_unsaved (McpProject *self,
              const char *name,
              guint      *index)
{
  for (guint i = 0; self->unsaved != NULL && i < self->unsaved->len; i++)
    {
      McpServerConfig *config = g_ptr_array_index (self->unsaved, i);

      if (g_strcmp0 (mcp_server_config_get_name (config), name) == 0)
        {
          if (index != NULL)
            *index = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* An entry of the settings: what writes to a scope need. */
McpServerConfig *
mcp_project_lookup_config (McpProject  *self,
               const char  *name,
               GError     **error)
{
  McpServerConfig *config = mcp_settings_lookup (self->settings, name);

  if (config == NULL && mcp_project_find_unsaved (self, name, NULL))
    g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                 _("“%s” is only being tried: save it to a scope first"), name);
  else if (config == NULL)
    g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                 _("There is no server named “%s” in the settings"), name);

  return config;
}

McpServerConnection *
mcp_project_lookup_connection (McpProject  *self,
                   const char  *name,
                   GError     **error)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self->manager, name);

  if (connection == NULL)
    g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                 _("There is no server named “%s”"), name);

  return connection;
}

/* A name no scope uses. */
static gboolean
name_is_taken (McpProject *self,
               const char *name)
{
  if (mcp_settings_lookup (self->settings, name) != NULL)
    return TRUE;

  for (McpConfigScope scope = MCP_CONFIG_SCOPE_USER; scope <= MCP_CONFIG_SCOPE_LOCAL; scope++)
    if (mcp_settings_lookup_in_scope (self->settings, name, scope) != NULL)
      return TRUE;

  return FALSE;
}

static char *
pick_free_name (McpProject *self,
                const char *base)
{
  if (!name_is_taken (self, base))
    return g_strdup (base);

  for (guint i = 2; ; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u", base, i);

      if (!name_is_taken (self, name))
        return g_steal_pointer (&name);
    }
}

static JsonObject *
copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, object);
  copy = json_node_copy (node);

  return json_object_ref (json_node_get_object (copy));
}

void
mcp_project_write_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpSettings *settings = MCP_SETTINGS (object);
  gpointer tag = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok = FALSE;

  if (tag == mcp_settings_add_server_async)
    ok = mcp_settings_add_server_finish (settings, result, &error);
  else if (tag == mcp_settings_remove_server_async)
    ok = mcp_settings_remove_server_finish (settings, result, &error);
  else if (tag == mcp_settings_set_server_enabled_async)
    ok = mcp_settings_set_server_enabled_finish (settings, result, &error);
  else if (tag == mcp_settings_move_server_async)
    ok = mcp_settings_move_server_finish (settings, result, &error);
  else if (tag == mcp_settings_set_approval_async)
    ok = mcp_settings_set_approval_finish (settings, result, &error);
  else if (tag == mcp_settings_reset_approvals_async)
    ok = mcp_settings_reset_approvals_finish (settings, result, &error);
  else if (tag == mcp_settings_set_rule_async)
    ok = mcp_settings_set_rule_finish (settings, result, &error);
  else if (tag == mcp_settings_save_server_async)
    ok = mcp_settings_save_server_finish (settings, result, &error);
  else
    g_assert_not_reached ();

  if (!ok)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_project_write_saved (g_task_get_source_object (task), task);
  g_task_return_boolean (task, TRUE);
}

static void
on_reconnect_done_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_reconnect_finish (MCP_SERVER_CONNECTION (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_sign_out_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_manager_sign_out_finish (MCP_SERVER_MANAGER (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_project_run_async (McpProject          *self,
                       McpProjectOp         op,
                       const char          *name,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;
  McpServerConfig *config;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail ((name != NULL) == (op != MCP_PROJECT_OP_RESET_APPROVALS));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_run_async);

  switch (op)
    {
    case MCP_PROJECT_OP_RECONNECT:
      if ((connection = mcp_project_lookup_connection (self, name, &error)) == NULL)
        break;
      mcp_server_connection_reconnect_async (connection, cancellable, on_reconnect_done_cb,
                                             g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_ENABLE:
    case MCP_PROJECT_OP_DISABLE:
      if ((config = mcp_project_lookup_config (self, name, &error)) == NULL)
        break;
      mcp_project_write_enabled (self, g_steal_pointer (&task), name,
                                 mcp_server_config_get_scope (config), op == MCP_PROJECT_OP_ENABLE);
      return;

    case MCP_PROJECT_OP_DUPLICATE:
      {
        g_autofree char *base = NULL;
        g_autofree char *new_name = NULL;
        g_autoptr(JsonObject) copy = NULL;

        if ((config = mcp_project_lookup_config (self, name, &error)) == NULL)
          break;
        base = g_strdup_printf ("%s-copy", name);
        new_name = pick_free_name (self, base);
        copy = copy_object (mcp_server_config_get_json (config));
        g_object_set_data_full (G_OBJECT (task), "new-name", g_strdup (new_name), g_free);
        g_task_set_task_data (task, mcp_settings_add_server_async, NULL);
        mcp_settings_add_server_async (self->settings, new_name,
                                       mcp_server_config_get_scope (config), copy,
                                       cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
        return;
      }

    case MCP_PROJECT_OP_REMOVE:
      /* a server being tried is discarded: nothing to write */
      if (mcp_project_discard_unsaved (self, name))
        {
          g_task_return_boolean (task, TRUE);
          return;
        }
      if ((config = mcp_project_lookup_config (self, name, &error)) == NULL)
        break;
      mcp_project_write_removal (self, g_steal_pointer (&task), name,
                                 mcp_server_config_get_scope (config));
      return;

    case MCP_PROJECT_OP_APPROVE:
    case MCP_PROJECT_OP_REJECT:
      g_task_set_task_data (task, mcp_settings_set_approval_async, NULL);
      mcp_settings_set_approval_async (self->settings, name, op == MCP_PROJECT_OP_APPROVE,
                                       cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_RESET_APPROVALS:
      g_task_set_task_data (task, mcp_settings_reset_approvals_async, NULL);
      mcp_settings_reset_approvals_async (self->settings, cancellable, mcp_project_write_done_cb,
                                          g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_SIGN_OUT:
      mcp_server_manager_sign_out_async (self->manager, name, cancellable,
                                         on_sign_out_done_cb, g_steal_pointer (&task));
      return;

    default:
      g_set_error (&error, MCP_ERROR, MCP_ERROR_FAILED, _("Unknown operation %d"), op);
      break;
    }

  g_task_return_error (task, g_steal_pointer (&error));
}

gboolean
mcp_project_run_finish (McpProject    *self,
                        GAsyncResult  *result,
                        char         **out_name,
                        GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (out_name != NULL)
    *out_name = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  if (out_name != NULL)
    *out_name = g_strdup (g_object_get_data (G_OBJECT (result), "new-name"));

  return TRUE;
}

void
mcp_project_move_async (McpProject          *self,
                        const char          *name,
                        McpConfigScope       to,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConfig *config;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_move_async);

  if ((config = mcp_project_lookup_config (self, name, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_set_task_data (task, mcp_settings_move_server_async, NULL);
  mcp_settings_move_server_async (self->settings, name,
                                  mcp_server_config_get_scope (config), to,
                                  cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_move_finish (McpProject    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_project_restore_async (McpProject          *self,
                           const char          *name,
                           McpConfigScope       scope,
                           JsonObject          *entry,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (MCP_IS_PROJECT (self));

  mcp_project_add_server_async (self, name, scope, entry, cancellable, callback, user_data);
}

gboolean
mcp_project_restore_finish (McpProject    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_project_add_example_async (McpProject          *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autofree char *name = NULL;
  JsonArray *args = json_array_new ();

  g_return_if_fail (MCP_IS_PROJECT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_add_example_async);

  json_object_set_string_member (entry, "command", "npx");
  json_array_add_string_element (args, "-y");
  json_array_add_string_element (args, EXAMPLE_PACKAGE);
  json_object_set_array_member (entry, "args", args);

  name = pick_free_name (self, EXAMPLE_NAME);
  g_object_set_data_full (G_OBJECT (task), "new-name", g_strdup (name), g_free);
  g_task_set_task_data (task, mcp_settings_add_server_async, NULL);

  mcp_settings_add_server_async (self->settings, name, MCP_CONFIG_SCOPE_USER, entry,
                                 cancellable, mcp_project_write_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_add_example_finish (McpProject    *self,
                                GAsyncResult  *result,
                                char         **out_name,
                                GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return mcp_project_run_finish (self, result, out_name, error);
}
