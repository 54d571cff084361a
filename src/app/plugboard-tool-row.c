/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-row"

#include "config.h"

#include "plugboard-tool-row.h"
#include "plugboard-common.h"
#include "plugboard-tool-row-layout.h"

#include <glib/gi18n.h>

struct _PlugboardToolRow
{
  GtkWidget    parent_instance;

  /* Template widgets, in this order (see PlugboardToolRowLayout) */
  GtkLabel    *title_label;
  GtkLabel    *name_label;
  GtkWidget   *read_only_badge;
  GtkWidget   *destructive_badge;
  GtkWidget   *open_world_badge;
  GtkWidget   *idempotent_badge;
  GtkWidget   *interface_badge;
  GtkWidget   *app_only_badge;
  GtkLabel    *permission_label;

  /* Owned references */
  McpPoolTool    *tool;
  McpPermissions *permissions;
  gulong          name_handler;
};

G_DEFINE_FINAL_TYPE (PlugboardToolRow, plugboard_tool_row, GTK_TYPE_WIDGET)

/* One provider for the display, whatever the number of rows. A declared
 * value is a solid badge; a value implied by the specification's defaults is
 * only outlined. */


/* Whether the tool's annotations say @member with the value @value. */
static gboolean
declared (JsonObject *annotations,
          const char *member,
          gboolean    value)
{
  JsonNode *node;

  if (annotations == NULL)
    return FALSE;

  node = json_object_get_member (annotations, member);
  return node != NULL &&
         JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (node) == value;
}

/* gtk_widget_set_tooltip_text() on a visible widget asks the display where
 * the pointer is (a round trip to the X server), which made binding rows
 * the bulk of a keystroke's cost over 10,000 tools. So a tooltip is set
 * only when it changes, and only while its widget is hidden. */
static void
set_tooltip_hidden (GtkWidget  *widget,
                    const char *tooltip)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0)
    return;

  gtk_widget_set_visible (widget, FALSE);
  gtk_widget_set_tooltip_text (widget, tooltip);
}

static void
set_badge (GtkWidget  *badge,
           gboolean    value,
           gboolean    is_declared,
           const char *declared_tooltip)
{
  if (!value)
    {
      gtk_widget_set_visible (badge, FALSE);
      return;
    }

  if (is_declared)
    {
      gtk_widget_remove_css_class (badge, "implied");
      set_tooltip_hidden (badge, declared_tooltip);
    }
  else
    {
      gtk_widget_add_css_class (badge, "implied");
      set_tooltip_hidden (badge, _("Not declared; the MCP default"));
    }
  gtk_widget_set_visible (badge, TRUE);
}

static void
set_permission (PlugboardToolRow *self)
{
  static const char * const classes[] = { "allow", "ask", "deny", "changed" };
  McpPermissionDecision decision = { 0 };
  const char *text = NULL;
  const char *style = NULL;
  g_autofree char *tooltip = NULL;

  if (self->permissions == NULL || self->tool == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->permission_label), FALSE);
      return;
    }

  /* The same decision and sentence as the tool page and the CLI. */
  mcp_permissions_decide_tool (self->permissions, self->tool, &decision);
  tooltip = mcp_permission_decision_describe (&decision);
  switch (decision.permission)
    {
    case MCP_PERMISSION_ALLOW:
      text = _("Allow");
      style = "allow";
      break;
    case MCP_PERMISSION_DENY:
      text = _("Deny");
      style = "deny";
      break;
    case MCP_PERMISSION_ASK:
    default:
      text = _("Ask");
      style = "ask";
      break;
    }
  /* an allow rule suspended by a change of the tool */
  if (decision.reason == MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED)
    {
      text = _("Changed");
      style = "changed";
    }

  gtk_label_set_text (self->permission_label, text);
  set_tooltip_hidden (GTK_WIDGET (self->permission_label), tooltip);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      if (g_str_equal (classes[i], style))
        gtk_widget_add_css_class (GTK_WIDGET (self->permission_label), classes[i]);
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->permission_label), classes[i]);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->permission_label), TRUE);
}

static void
plugboard_tool_row_update (PlugboardToolRow *self)
{
  McpTool *tool;
  JsonObject *annotations;
  gboolean read_only;
  g_autoptr(GString) accessible = NULL;

  g_assert (PLUGBOARD_IS_TOOL_ROW (self));

  if (self->tool == NULL)
    {
      gtk_label_set_text (self->title_label, "");
      gtk_label_set_text (self->name_label, "");
      set_badge (self->read_only_badge, FALSE, FALSE, NULL);
      set_badge (self->destructive_badge, FALSE, FALSE, NULL);
      set_badge (self->open_world_badge, FALSE, FALSE, NULL);
      set_badge (self->idempotent_badge, FALSE, FALSE, NULL);
      gtk_widget_set_visible (self->interface_badge, FALSE);
      gtk_widget_set_visible (self->app_only_badge, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->permission_label), FALSE);
      return;
    }

  tool = mcp_pool_tool_get_tool (self->tool);
  annotations = tool != NULL ? mcp_tool_get_annotations (tool) : NULL;
  read_only = mcp_pool_tool_get_read_only (self->tool);

  gtk_label_set_text (self->title_label, mcp_pool_tool_get_display_name (self->tool));
  gtk_label_set_text (self->name_label, mcp_pool_tool_get_qualified_name (self->tool));

  set_badge (self->read_only_badge, read_only,
             declared (annotations, "readOnlyHint", TRUE),
             _("Declared by the tool: it does not change its environment"));
  set_badge (self->destructive_badge, mcp_pool_tool_get_destructive (self->tool),
             declared (annotations, "destructiveHint", TRUE),
             _("Declared by the tool: it may delete or overwrite data"));
  set_badge (self->open_world_badge, mcp_pool_tool_get_open_world (self->tool),
             declared (annotations, "openWorldHint", TRUE),
             _("Declared by the tool: it reaches outside systems, like the web"));
  set_badge (self->idempotent_badge, mcp_pool_tool_get_idempotent (self->tool),
             declared (annotations, "idempotentHint", TRUE),
             _("Declared by the tool: calling it again with the same arguments has no further effect"));

  /* MCP Apps: the tool's own interface, and a tool only that page calls */
  gtk_widget_set_visible (self->interface_badge,
                          tool != NULL && mcp_tool_get_ui_resource_uri (tool) != NULL);
  gtk_widget_set_visible (self->app_only_badge,
                          tool != NULL && !(mcp_tool_get_ui_visibility (tool) & MCP_TOOL_VISIBILITY_MODEL));

  set_permission (self);

  accessible = g_string_new (gtk_label_get_text (self->title_label));
  g_string_append_printf (accessible, ", %s", gtk_label_get_text (self->name_label));
  if (gtk_widget_get_visible (self->read_only_badge))
    g_string_append_printf (accessible, ", %s", _("Read-only"));
  if (gtk_widget_get_visible (self->destructive_badge))
    g_string_append_printf (accessible, ", %s", _("Destructive"));
  if (gtk_widget_get_visible (self->open_world_badge))
    g_string_append_printf (accessible, ", %s", _("Open world"));
  if (gtk_widget_get_visible (self->idempotent_badge))
    g_string_append_printf (accessible, ", %s", _("Idempotent"));
  if (gtk_widget_get_visible (self->interface_badge))
    g_string_append_printf (accessible, ", %s", _("Interface"));
  if (gtk_widget_get_visible (self->app_only_badge))
    g_string_append_printf (accessible, ", %s", _("App only"));
  if (gtk_widget_get_visible (GTK_WIDGET (self->permission_label)))
    g_string_append_printf (accessible, ", %s", gtk_label_get_text (self->permission_label));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible->str,
                                  -1);
}

/* A collision elsewhere in the pool renames the tool (and may change the
 * rule that matches it). */
static void
on_qualified_name_notify_cb (PlugboardToolRow *self)
{
  plugboard_tool_row_update (self);
}

void
plugboard_tool_row_unbind (PlugboardToolRow *self)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_ROW (self));

  if (self->tool != NULL && self->name_handler != 0)
    g_signal_handler_disconnect (self->tool, self->name_handler);
  self->name_handler = 0;
  g_clear_object (&self->tool);
  g_clear_object (&self->permissions);
}

void
plugboard_tool_row_bind (PlugboardToolRow *self,
                         McpPoolTool      *tool,
                         McpPermissions   *permissions)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_ROW (self));
  g_return_if_fail (tool == NULL || MCP_IS_POOL_TOOL (tool));
  g_return_if_fail (permissions == NULL || MCP_IS_PERMISSIONS (permissions));

  if (self->tool != tool)
    {
      plugboard_tool_row_unbind (self);
      if (tool != NULL)
        {
          self->tool = g_object_ref (tool);
          self->name_handler = g_signal_connect_object (tool, "notify::qualified-name",
                                                        G_CALLBACK (on_qualified_name_notify_cb),
                                                        self, G_CONNECT_SWAPPED);
        }
    }
  g_set_object (&self->permissions, permissions);

  plugboard_tool_row_update (self);
}

GtkWidget *
plugboard_tool_row_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TOOL_ROW, NULL);
}

static void
plugboard_tool_row_dispose (GObject *object)
{
  PlugboardToolRow *self = (PlugboardToolRow *)object;

  plugboard_tool_row_unbind (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_TOOL_ROW);

  G_OBJECT_CLASS (plugboard_tool_row_parent_class)->dispose (object);
}

static void
plugboard_tool_row_class_init (PlugboardToolRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_tool_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-tool-row.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, read_only_badge);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, destructive_badge);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, open_world_badge);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, idempotent_badge);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, interface_badge);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, app_only_badge);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolRow, permission_label);

  gtk_widget_class_set_layout_manager_type (widget_class, PLUGBOARD_TYPE_TOOL_ROW_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
plugboard_tool_row_init (PlugboardToolRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));
}
