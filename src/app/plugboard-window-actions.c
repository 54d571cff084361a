/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: the operations on a server through McpProject —
 * reconnect, enable, disable, duplicate, approve, reject, sign out,
 * move to another scope, remove (with Undo) — as win.* actions. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

/* A removed entry kept while its "Undo" toast shows. */
typedef struct
{
  McpConfigScope  scope;
  JsonObject     *entry;
  gboolean        tried;    /* a server being tried, discarded: Undo tries it again */
} Removed;

static void
removed_free (gpointer data)
{
  Removed *removed = data;

  g_clear_pointer (&removed->entry, json_object_unref);
  g_free (removed);
}

typedef struct
{
  PlugboardWindow *self;
  McpProjectOp      op;
  char            *name;
  /* A restore or a move: its finish function. */
  gboolean        (*finish) (McpProject    *project,
                             GAsyncResult  *result,
                             GError       **error);
} OpData;

static OpData *
op_data_new (PlugboardWindow *self,
             const char      *name)
{
  OpData *data = g_new0 (OpData, 1);

  data->self = g_object_ref (self);
  data->name = g_strdup (name);
  return data;
}

static void
op_data_free (OpData *data)
{
  g_clear_object (&data->self);
  g_free (data->name);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpData, op_data_free)

static void
on_op_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(OpData) data = user_data;
  PlugboardWindow *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *new_name = NULL;
  g_autofree char *title = NULL;

  if (!mcp_project_run_finish (MCP_PROJECT (object), result, &new_name, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      if (data->op == MCP_PROJECT_OP_REMOVE)
        g_hash_table_remove (self->removed, data->name);
      plugboard_window_show_error_toast (self, error);
      return;
    }

  switch (data->op)
    {
    case MCP_PROJECT_OP_DUPLICATE:
      title = g_strdup_printf (_("Duplicated as “%s”"), new_name);
      plugboard_window_show_toast (self, title);
      plugboard_window_show_server (self, new_name);
      break;

    case MCP_PROJECT_OP_REMOVE:
      {
        Removed *removed = g_hash_table_lookup (self->removed, data->name);
        AdwToast *toast;

        if (removed != NULL && removed->tried)
          title = g_strdup_printf (_("Discarded “%s”"), data->name);
        else
          title = g_strdup_printf (_("Removed “%s”"), data->name);
        toast = adw_toast_new (title);
        adw_toast_set_button_label (toast, _("_Undo"));
        adw_toast_set_action_name (toast, "win.undo-remove");
        adw_toast_set_action_target (toast, "s", data->name);
        adw_toast_overlay_add_toast (self->toast_overlay, toast);
        break;
      }

    case MCP_PROJECT_OP_SIGN_OUT:
      title = g_strdup_printf (_("Signed out of “%s”"), data->name);
      plugboard_window_show_toast (self, title);
      break;

    case MCP_PROJECT_OP_RECONNECT:
    case MCP_PROJECT_OP_ENABLE:
    case MCP_PROJECT_OP_DISABLE:
    case MCP_PROJECT_OP_APPROVE:
    case MCP_PROJECT_OP_REJECT:
    case MCP_PROJECT_OP_RESET_APPROVALS:
    default:
      break;
    }

  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

static void
run_op (PlugboardWindow *self,
        McpProjectOp     op,
        const char      *name)
{
  OpData *data;

  if (self->project == NULL)
    return;

  data = op_data_new (self, name);
  data->op = op;
  mcp_project_run_async (self->project, op, name, self->cancellable, on_op_done_cb, data);
}

#define OP_ACTION(func, op)                                        \
  static void                                                      \
  func (GSimpleAction *action,                                     \
        GVariant      *parameter,                                  \
        gpointer       user_data)                                  \
  {                                                                \
    run_op (user_data, op, g_variant_get_string (parameter, NULL)); \
  }

OP_ACTION (reconnect_server_action, MCP_PROJECT_OP_RECONNECT)
OP_ACTION (enable_server_action, MCP_PROJECT_OP_ENABLE)
OP_ACTION (disable_server_action, MCP_PROJECT_OP_DISABLE)
OP_ACTION (duplicate_server_action, MCP_PROJECT_OP_DUPLICATE)
OP_ACTION (approve_server_action, MCP_PROJECT_OP_APPROVE)
OP_ACTION (reject_server_action, MCP_PROJECT_OP_REJECT)
OP_ACTION (sign_out_action, MCP_PROJECT_OP_SIGN_OUT)

#undef OP_ACTION

static void
remove_server_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  McpServerConfig *config;
  Removed *removed;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) copy = NULL;

  if (self->project == NULL)
    return;

  config = mcp_settings_lookup (plugboard_window_current_settings (self), name);
  if (config == NULL)
    config = mcp_project_lookup_unsaved (self->project, name);
  if (config != NULL)
    {
      /* What Undo puts back: the entry as the file has it now (or as it
       * was tried). */
      node = json_node_init_object (json_node_alloc (), mcp_server_config_get_json (config));
      copy = json_node_copy (node);
      removed = g_new0 (Removed, 1);
      removed->scope = mcp_server_config_get_scope (config);
      removed->entry = json_object_ref (json_node_get_object (copy));
      removed->tried = !mcp_server_config_get_saved (config);
      g_hash_table_replace (self->removed, g_strdup (name), removed);
    }

  run_op (self, MCP_PROJECT_OP_REMOVE, name);
}

/* A server put back (Undo) or moved: it shows where it is now. */
static void
on_put_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(OpData) data = user_data;
  g_autoptr(GError) error = NULL;

  if (!data->finish (MCP_PROJECT (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        plugboard_window_show_error_toast (data->self, error);
      return;
    }

  plugboard_window_show_server (data->self, data->name);
}

static void
undo_remove_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  g_autofree char *key = NULL;
  Removed *removed = NULL;
  OpData *data;

  if (self->project == NULL ||
      !g_hash_table_steal_extended (self->removed, name, (gpointer *) &key, (gpointer *) &removed))
    return;

  if (removed->tried)
    {
      g_autoptr(GError) error = NULL;

      if (mcp_project_try_server (self->project, name, removed->entry, &error))
        plugboard_window_show_server (self, name);
      else
        plugboard_window_show_error_toast (self, error);
      removed_free (removed);
      return;
    }

  data = op_data_new (self, name);
  data->finish = mcp_project_restore_finish;
  mcp_project_restore_async (self->project, name, removed->scope, removed->entry,
                             self->cancellable, on_put_cb, data);
  removed_free (removed);
}

static gboolean
scope_from_string (const char     *text,
                   McpConfigScope *scope)
{
  if (g_strcmp0 (text, "user") == 0)
    *scope = MCP_CONFIG_SCOPE_USER;
  else if (g_strcmp0 (text, "project") == 0)
    *scope = MCP_CONFIG_SCOPE_PROJECT;
  else if (g_strcmp0 (text, "local") == 0)
    *scope = MCP_CONFIG_SCOPE_LOCAL;
  else
    return FALSE;

  return TRUE;
}

static void
move_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = NULL;
  const char *to = NULL;
  McpConfigScope scope;
  OpData *data;

  g_variant_get (parameter, "(&s&s)", &name, &to);
  if (self->project == NULL || !scope_from_string (to, &scope))
    return;

  data = op_data_new (self, name);
  data->finish = mcp_project_move_finish;
  mcp_project_move_async (self->project, name, scope, self->cancellable, on_put_cb, data);
}

McpConfigScope
plugboard_window_default_scope (PlugboardWindow *self)
{
  g_autofree char *text = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_USER;

  if (self->settings != NULL)
    text = g_settings_get_string (self->settings, "default-scope");
  if (text == NULL || !scope_from_string (text, &scope))
    scope = MCP_CONFIG_SCOPE_USER;

  /* No project folder: only the user scope applies. */
  if (self->project != NULL && mcp_project_get_project_dir (self->project) == NULL)
    scope = MCP_CONFIG_SCOPE_USER;

  return scope;
}

static void
reconnect_all_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  GListModel *manager;
  guint n;

  if (self->project == NULL)
    return;

  manager = G_LIST_MODEL (mcp_project_get_manager (self->project));
  n = g_list_model_get_n_items (manager);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (manager, i);

      if (mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_DISABLED)
        run_op (self, MCP_PROJECT_OP_RECONNECT, mcp_server_connection_get_name (connection));
    }
}

static void
reconnect_selected_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  GObject *item = gtk_single_selection_get_selected_item (self->selection);

  if (MCP_IS_SERVER_CONNECTION (item))
    run_op (self, MCP_PROJECT_OP_RECONNECT,
            mcp_server_connection_get_name (MCP_SERVER_CONNECTION (item)));
}

static const GActionEntry server_actions[] = {
  { "reconnect-server", reconnect_server_action, "s" },
  { "enable-server", enable_server_action, "s" },
  { "disable-server", disable_server_action, "s" },
  { "duplicate-server", duplicate_server_action, "s" },
  { "move-server", move_server_action, "(ss)" },
  { "remove-server", remove_server_action, "s" },
  { "undo-remove", undo_remove_action, "s" },
  { "sign-out", sign_out_action, "s" },
  { "approve-server", approve_server_action, "s" },
  { "reject-server", reject_server_action, "s" },
  { "reconnect-all", reconnect_all_action },
  { "reconnect-selected", reconnect_selected_action },
};

void
plugboard_window_actions_init (PlugboardWindow *self)
{
  self->removed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, removed_free);

  plugboard_window_add_actions (self, server_actions, G_N_ELEMENTS (server_actions));
}
