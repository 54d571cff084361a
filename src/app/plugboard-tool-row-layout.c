/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-row-layout"

#include "config.h"

#include "plugboard-tool-row-layout.h"

/* PlugboardToolRowLayout, the layout manager of PlugboardToolRow.
 *
 * The title and the qualified name each get a line of the full width (in
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
