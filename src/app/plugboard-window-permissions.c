/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: permissions — the permissions window, a tool's or a
 * server's rule set from its page, a tool's allow rule suspended by a
 * change — and a server's roots. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "plugboard-permissions-window.h"
#include "plugboard-roots-dialog.h"

static void
permissions_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->project == NULL)
    return;

  gtk_window_present (GTK_WINDOW (plugboard_permissions_window_new (GTK_WINDOW (self), self->project)));
}

static void
edit_roots_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  PlugboardRootsDialog *dialog;

  /* A button of a page showing no server yet has the empty name. */
  if (self->project == NULL || name[0] == '\0')
    return;

  {
    McpServerConnection *connection = mcp_server_manager_lookup (mcp_project_get_manager (self->project), name);
    McpServerConfig *config = connection != NULL ? mcp_server_connection_get_config (connection) : NULL;

    dialog = plugboard_roots_dialog_new (GTK_WINDOW (self),
                                         mcp_project_get_roots (self->project),
                                         name,
                                         config != NULL ? mcp_server_config_get_scope (config)
                                                        : MCP_CONFIG_SCOPE_USER);
  }
  gtk_window_present (GTK_WINDOW (dialog));
}

void
plugboard_window_update_permissions (PlugboardWindow *self)
{
  McpPermissions *permissions = mcp_project_get_permissions (self->project);

  plugboard_tool_page_set_permissions (self->tool_page, permissions);
  plugboard_tool_list_set_permissions (self->all_tool_list, permissions);
  plugboard_server_page_set_tool_pool (self->server_page,
                                       mcp_project_get_tool_pool (self->project),
                                       permissions);
  plugboard_server_page_set_project (self->server_page, self->project);
}

void
plugboard_window_tool_changed_cb (PlugboardWindow *self,
                                  const char      *server,
                                  const char      *tool)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *body = NULL;

  /* the Changes view shows it; a person elsewhere is told */
  if (application == NULL || gtk_window_is_active (GTK_WINDOW (self)))
    return;

  notification = g_notification_new (_("A Tool Changed Since You Allowed It"));
  /* Translators: the first %s is a tool, the second a server */
  body = g_strdup_printf (_("“%s” of “%s” changed its description or schema. Its allow rule is "
                            "suspended until you review the change."), tool, server);
  g_notification_set_body (notification, body);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_set_default_action_and_target (notification, "app.show-changes", "s", server);

  g_free (self->last_notification);
  self->last_notification = g_strconcat ("tool-changed-", server, NULL);
  g_application_send_notification (G_APPLICATION (application), self->last_notification, notification);
}

const char *
plugboard_window_get_last_notification (PlugboardWindow *self)
{
  return self->last_notification;
}

/* "allow", "ask", "deny"; anything else (as "none") is no rule */
static McpRuleList
rule_list_from_name (const char *list)
{
  if (g_str_equal (list, "allow"))
    return MCP_RULE_ALLOW;
  if (g_str_equal (list, "ask"))
    return MCP_RULE_ASK;
  if (g_str_equal (list, "deny"))
    return MCP_RULE_DENY;
  return MCP_RULE_NONE;
}

static void
on_tool_rule_set_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_set_tool_rule_finish (MCP_PROJECT (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    plugboard_window_show_error_toast (self, error);
}

/* (name, "none" | "allow" | "ask" | "deny"): set-tool-rule, a tool's
 * qualified name, from the permissions editor of a tool page;
 * set-server-rule, a server's name, the server page's rule for all its
 * tools */
static void
set_rule_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = NULL;
  const char *list = NULL;
  McpPoolTool *tool;

  g_variant_get (parameter, "(&s&s)", &name, &list);
  if (self->project == NULL)
    return;

  if (g_str_equal (g_action_get_name (G_ACTION (action)), "set-server-rule"))
    {
      if (name[0] != '\0')
        mcp_project_set_server_rule_async (self->project, name, rule_list_from_name (list), self->cancellable,
                                           on_tool_rule_set_cb, g_object_ref (self));
      return;
    }

  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (self->project), name);
  if (tool == NULL)
    return;
  mcp_project_set_tool_rule_async (self->project, tool, rule_list_from_name (list), self->cancellable,
                                   on_tool_rule_set_cb, g_object_ref (self));
}

static const GActionEntry permission_actions[] = {
  { "set-tool-rule", set_rule_action, "(ss)" },
  { "set-server-rule", set_rule_action, "(ss)" },
  { "edit-roots", edit_roots_action, "s" },
  { "permissions", permissions_action },
};

void
plugboard_window_permissions_init (PlugboardWindow *self)
{
  plugboard_window_add_actions (self, permission_actions, G_N_ELEMENTS (permission_actions));
}
