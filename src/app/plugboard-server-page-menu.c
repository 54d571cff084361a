/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage's actions: the menu (rebuilt only when what it
 * offers changes) and the window-action targets of the page's buttons. */

#include "config.h"

#include "plugboard-server-page-private.h"

#include <glib/gi18n.h>

static gboolean
transport_has_oauth (McpServerConfig *config)
{
  McpTransportKind kind = mcp_server_config_get_transport (config);

  return kind == MCP_TRANSPORT_KIND_HTTP ||
         kind == MCP_TRANSPORT_KIND_SSE ||
         kind == MCP_TRANSPORT_KIND_WS;
}

static gboolean
has_project_scope (PlugboardServerPage *self)
{
  const char *dir;

  if (self->settings == NULL)
    return FALSE;

  dir = mcp_settings_get_project_dir (self->settings);
  return dir != NULL && g_strcmp0 (dir, g_get_home_dir ()) != 0;
}

static void
append_item (GMenu      *menu,
             const char *label,
             const char *action,
             GVariant   *target)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, target);
  g_menu_append_item (menu, item);
}

/* An item whose window action takes the server's name. */
static void
append_named_item (GMenu      *menu,
                   const char *label,
                   const char *action,
                   const char *name)
{
  append_item (menu, label, action, g_variant_new_string (name));
}

/* Appends @section (owned) to @menu when it has items. */
static void
append_section (GMenu *menu,
                GMenu *section)
{
  if (g_menu_model_get_n_items (G_MENU_MODEL (section)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
}

void
plugboard_server_page_update_menu (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  const char *name = mcp_server_connection_get_name (self->connection);
  McpConfigScope scope = mcp_server_config_get_scope (config);
  McpApproval approval = plugboard_server_page_get_approval (self);
  gboolean enabled = mcp_server_config_get_enabled (config);
  gboolean project = has_project_scope (self);
  gboolean oauth = transport_has_oauth (config);
  /* a disabled server (switched off, or awaiting approval) has nothing to
   * reconnect: Enable or Approve is what it offers */
  gboolean can_reconnect = mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_DISABLED;
  g_autofree char *key = NULL;
  g_autoptr(GMenu) menu = NULL;
  GMenu *section;
  static const struct { McpConfigScope scope; const char *id; const char *label; } moves[] = {
    { MCP_CONFIG_SCOPE_USER, "user", N_("Move to _User Scope") },
    { MCP_CONFIG_SCOPE_PROJECT, "project", N_("Move to _Project Scope") },
    { MCP_CONFIG_SCOPE_LOCAL, "local", N_("Move to _Local Scope") },
  };

  /* Rebuilt only when it changes, so an open menu stays open while the
   * server's state moves on. */
  key = g_strdup_printf ("%s|%d|%d|%d|%d|%d|%d|%d", name, scope, approval, enabled, project,
                         oauth, can_reconnect, mcp_server_config_get_saved (config));
  if (g_strcmp0 (key, self->menu_key) == 0)
    return;
  g_free (self->menu_key);
  self->menu_key = g_steal_pointer (&key);

  menu = g_menu_new ();

  /* a server being tried is in no scope: nothing to move, duplicate or
   * switch off until it is saved */
  if (!mcp_server_config_get_saved (config))
    {
      section = g_menu_new ();
      append_named_item (section, _("_Reconnect"), "win.reconnect-server", name);
      append_named_item (section, _("_Save…"), "win.edit-server", name);
      append_item (section, _("D_iagnose…"), "server-page.diagnose", NULL);
      if (oauth)
        append_named_item (section, _("Sign _Out"), "win.sign-out", name);
      append_section (menu, section);

      section = g_menu_new ();
      append_named_item (section, _("_Discard"), "win.remove-server", name);
      append_section (menu, section);
      gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
      return;
    }

  section = g_menu_new ();
  if (can_reconnect)
    append_named_item (section, _("_Reconnect"), "win.reconnect-server", name);
  append_named_item (section, _("_Edit…"), "win.edit-server", name);
  append_named_item (section, _("_Duplicate"), "win.duplicate-server", name);
  append_item (section, _("D_iagnose…"), "server-page.diagnose", NULL);
  append_named_item (section, _("_Copy to Other Clients…"), "win.copy-server", name);
  append_section (menu, section);

  section = g_menu_new ();
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    {
      if (moves[i].scope == scope)
        continue;
      if (!project && moves[i].scope != MCP_CONFIG_SCOPE_USER)
        continue;
      /* a client without that scope (Claude Desktop has only one file) */
      if (self->settings != NULL && !mcp_settings_has_scope (self->settings, moves[i].scope))
        continue;
      append_item (section, _(moves[i].label), "win.move-server",
                   g_variant_new ("(ss)", name, moves[i].id));
    }
  append_section (menu, section);

  section = g_menu_new ();
  if (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_REJECTED ||
      approval == MCP_APPROVAL_CHANGED)
    {
      append_named_item (section, _("_Approve"), "win.approve-server", name);
      if (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED)
        append_named_item (section, _("Re_ject"), "win.reject-server", name);
    }
  else
    {
      append_named_item (section, enabled ? _("_Disable") : _("E_nable"),
                         enabled ? "win.disable-server" : "win.enable-server", name);
    }
  if (oauth)
    {
      append_named_item (section, _("Sign-in _Steps"), "win.sign-in-steps", name);
      append_named_item (section, _("Sign _Out"), "win.sign-out", name);
    }
  append_section (menu, section);

  section = g_menu_new ();
  append_named_item (section, _("Re_move"), "win.remove-server", name);
  append_section (menu, section);

  gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
}

void
plugboard_server_page_update_targets (PlugboardServerPage *self)
{
  GtkActionable *buttons[] = {
    GTK_ACTIONABLE (self->edit_button),
    GTK_ACTIONABLE (self->roots_button),
    GTK_ACTIONABLE (self->sign_in_button),
    GTK_ACTIONABLE (self->cancel_sign_in_button),
    GTK_ACTIONABLE (self->sign_in_steps_button),
    GTK_ACTIONABLE (self->approve_button),
    GTK_ACTIONABLE (self->reject_button),
    GTK_ACTIONABLE (self->enable_button),
    GTK_ACTIONABLE (self->reconnect_button),
    GTK_ACTIONABLE (self->save_tried_button),
    GTK_ACTIONABLE (self->discard_tried_button),
  };
  const char *name = self->connection != NULL ? mcp_server_connection_get_name (self->connection) : "";

  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    gtk_actionable_set_action_target_value (buttons[i], g_variant_new_string (name));
}
