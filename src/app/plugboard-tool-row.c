/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-row"

#include "config.h"

#include "plugboard-tool-row.h"
#include "plugboard-common.h"

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
  GtkLabel    *permission_label;

  /* Owned references */
  McpPoolTool    *tool;
  McpPermissions *permissions;
  gulong          name_handler;
};

G_DEFINE_FINAL_TYPE (PlugboardToolRow, plugboard_tool_row, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------------ */
/* The row's layout                                                         */

/* The title and the qualified name each get a line of the full width (in
 * a 300 px sidebar they used to share it with the badges and ended as
 * “Ge…”); under them the badges and the permission tag flow on as many
 * lines as they need, most often one, the permission tag at the right end
 * of its line (it has halign END). A GtkFlowBox would wrap each tag in a
 * child widget of its own; this is a few measures of labels per row. */

#define N_LINES            2 /* the first children: the title, the name */
#define LINE_SPACING       3 /* between the title and the name */
#define TAGS_SPACING       6 /* between the name and the tags */
#define TAG_SPACING        4 /* between two tags on a line */
#define TAG_LINE_SPACING   4 /* between two lines of tags */
#define MAX_TAGS_PER_LINE  8

#define PLUGBOARD_TYPE_TOOL_ROW_LAYOUT (plugboard_tool_row_layout_get_type ())
G_DECLARE_FINAL_TYPE (PlugboardToolRowLayout, plugboard_tool_row_layout,
                      PLUGBOARD, TOOL_ROW_LAYOUT, GtkLayoutManager)

struct _PlugboardToolRowLayout
{
  GtkLayoutManager parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardToolRowLayout, plugboard_tool_row_layout, GTK_TYPE_LAYOUT_MANAGER)

static GtkWidget *
first_tag (GtkWidget *widget)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  for (guint i = 0; i < N_LINES && child != NULL; i++)
    child = gtk_widget_get_next_sibling (child);
  return child;
}

static void
place_tags (GtkWidget * const *tags,
            const int         *widths,
            const int         *heights,
            guint              n_tags,
            int                width,
            int                y,
            int                line_height)
{
  int x = 0;

  for (guint i = 0; i < n_tags; i++)
    {
      GtkAllocation allocation = { x, y + (line_height - heights[i]) / 2, widths[i], heights[i] };

      if (i == n_tags - 1 && gtk_widget_get_halign (tags[i]) == GTK_ALIGN_END)
        allocation.x = MAX (x, width - widths[i]);
      gtk_widget_size_allocate (tags[i], &allocation, -1);
      x = allocation.x + widths[i] + TAG_SPACING;
    }
}

/* The height of the tags in @width (-1: all on one line); with @allocate,
 * allocates them from @y. Tags keep their natural width: the layout is
 * never narrower than the widest of them. */
static int
flow_tags (GtkWidget *widget,
           int        width,
           int        y,
           gboolean   allocate)
{
  GtkWidget *line[MAX_TAGS_PER_LINE];
  int widths[MAX_TAGS_PER_LINE];
  int heights[MAX_TAGS_PER_LINE];
  guint n = 0;
  int x = 0;
  int line_height = 0;
  int height = 0;

  for (GtkWidget *child = first_tag (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int w, h;

      if (!gtk_widget_should_layout (child))
        continue;

      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL, NULL);
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, w, NULL, &h, NULL, NULL);

      if (n > 0 && (n == MAX_TAGS_PER_LINE || (width >= 0 && x + TAG_SPACING + w > width)))
        {
          if (allocate)
            place_tags (line, widths, heights, n, width, y + height, line_height);
          height += line_height + TAG_LINE_SPACING;
          n = 0;
          x = 0;
          line_height = 0;
        }
      else if (n > 0)
        x += TAG_SPACING;

      line[n] = child;
      widths[n] = w;
      heights[n] = h;
      n++;
      x += w;
      line_height = MAX (line_height, h);
    }

  if (n == 0)
    return height > 0 ? height - TAG_LINE_SPACING : 0;

  if (allocate)
    place_tags (line, widths, heights, n, width, y + height, line_height);
  return height + line_height;
}

static GtkSizeRequestMode
plugboard_tool_row_layout_get_request_mode (GtkLayoutManager *manager,
                                            GtkWidget        *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
plugboard_tool_row_layout_measure (GtkLayoutManager *manager,
                                   GtkWidget        *widget,
                                   GtkOrientation    orientation,
                                   int               for_size,
                                   int              *minimum,
                                   int              *natural,
                                   int              *minimum_baseline,
                                   int              *natural_baseline)
{
  GtkWidget *tags = first_tag (widget);
  int min = 0;
  int nat = 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int tags_natural = -TAG_SPACING;
      gboolean is_tag = FALSE;

      /* As narrow as the widest child; naturally, the tags on one line. */
      for (GtkWidget *child = gtk_widget_get_first_child (widget);
           child != NULL;
           child = gtk_widget_get_next_sibling (child))
        {
          int child_min, child_nat;

          is_tag = is_tag || child == tags;
          if (!gtk_widget_should_layout (child))
            continue;
          gtk_widget_measure (child, orientation, -1, &child_min, &child_nat, NULL, NULL);
          min = MAX (min, child_min);
          if (is_tag)
            tags_natural += TAG_SPACING + child_nat;
          else
            nat = MAX (nat, child_nat);
        }
      nat = MAX (nat, tags_natural);
    }
  else
    {
      int tags_height;
      gboolean any = FALSE;

      for (GtkWidget *child = gtk_widget_get_first_child (widget);
           child != NULL && child != tags;
           child = gtk_widget_get_next_sibling (child))
        {
          int child_min, child_nat;

          if (!gtk_widget_should_layout (child))
            continue;
          gtk_widget_measure (child, orientation, for_size, &child_min, &child_nat, NULL, NULL);
          min += (any ? LINE_SPACING : 0) + child_min;
          nat += (any ? LINE_SPACING : 0) + child_nat;
          any = TRUE;
        }

      tags_height = flow_tags (widget, for_size, 0, FALSE);
      if (tags_height > 0)
        {
          min += (any ? TAGS_SPACING : 0) + tags_height;
          nat += (any ? TAGS_SPACING : 0) + tags_height;
        }
    }

  *minimum = min;
  *natural = MAX (min, nat);
  *minimum_baseline = -1;
  *natural_baseline = -1;
}

static void
plugboard_tool_row_layout_allocate (GtkLayoutManager *manager,
                                    GtkWidget        *widget,
                                    int               width,
                                    int               height,
                                    int               baseline)
{
  GtkWidget *tags = first_tag (widget);
  gboolean any = FALSE;
  int y = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL && child != tags;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_height;

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, NULL, &child_height, NULL, NULL);
      y += any ? LINE_SPACING : 0;
      gtk_widget_size_allocate (child, &(GtkAllocation) { 0, y, width, child_height }, -1);
      y += child_height;
      any = TRUE;
    }

  flow_tags (widget, width, y + (any ? TAGS_SPACING : 0), TRUE);
}

static void
plugboard_tool_row_layout_class_init (PlugboardToolRowLayoutClass *klass)
{
  GtkLayoutManagerClass *manager_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  manager_class->get_request_mode = plugboard_tool_row_layout_get_request_mode;
  manager_class->measure = plugboard_tool_row_layout_measure;
  manager_class->allocate = plugboard_tool_row_layout_allocate;
}

static void
plugboard_tool_row_layout_init (PlugboardToolRowLayout *self)
{
}

/* ------------------------------------------------------------------------ */
/* The row                                                                  */

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
  static const char * const classes[] = { "allow", "ask", "deny" };
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
