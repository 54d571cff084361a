/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ui-test-common"

#include "config.h"

#include "ui-test-common.h"

#include <string.h>

#include "plugboard-schema-form.h"
#include "plugboard-window.h"

/* ------------------------------------------------------------------------ */
/* Finding widgets                                                          */

static gboolean
walks_into (GtkWidget *widget,
            UiWalk     walk)
{
  switch (walk)
    {
    case UI_WALK_ALL:
      return TRUE;
    case UI_WALK_VISIBLE:
      return gtk_widget_get_visible (widget);
    case UI_WALK_SHOWN:
      return gtk_widget_get_visible (widget) && gtk_widget_get_child_visible (widget);
    default:
      g_assert_not_reached ();
    }
}

GtkWidget *
find_widget_matching (GtkWidget     *root,
                      UiWalk         walk,
                      UiWidgetMatch  match,
                      gconstpointer  data)
{
  if (!walks_into (root, walk))
    return NULL;
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget_matching (child, walk, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
is_of_type (GtkWidget     *widget,
            gconstpointer  data)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (data));
}

GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  return find_widget_matching (root, UI_WALK_ALL, is_of_type, GSIZE_TO_POINTER (type));
}

typedef struct
{
  const char *action;
  const char *target;   /* NULL: any */
} ActionTarget;

static gboolean
is_button_with_target (GtkWidget     *widget,
                       gconstpointer  data)
{
  const ActionTarget *wanted = data;
  GVariant *value;

  if (!GTK_IS_BUTTON (widget) ||
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), wanted->action) != 0)
    return FALSE;
  if (wanted->target == NULL)
    return TRUE;

  value = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (widget));
  return value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING) &&
         g_str_equal (g_variant_get_string (value, NULL), wanted->target);
}

GtkWidget *
find_button_with_target (GtkWidget  *root,
                         const char *action,
                         const char *target)
{
  const ActionTarget wanted = { action, target };

  return find_widget_matching (root, UI_WALK_ALL, is_button_with_target, &wanted);
}

GtkWidget *
find_button_with_action (GtkWidget  *root,
                         const char *action)
{
  return find_button_with_target (root, action, NULL);
}

static gboolean
is_label_with (GtkWidget     *widget,
               gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), data) != NULL;
}

gboolean
has_visible_label_with (GtkWidget  *root,
                        const char *text)
{
  return find_widget_matching (root, UI_WALK_VISIBLE, is_label_with, text) != NULL;
}

gboolean
has_shown_label_with (GtkWidget  *root,
                      const char *text)
{
  return find_widget_matching (root, UI_WALK_SHOWN, is_label_with, text) != NULL;
}

static gboolean
has_class (GtkWidget     *widget,
           gconstpointer  data)
{
  return gtk_widget_has_css_class (widget, data);
}

gboolean
has_visible_class (GtkWidget  *root,
                   const char *css_class)
{
  return find_widget_matching (root, UI_WALK_VISIBLE, has_class, css_class) != NULL;
}

static gboolean
is_painted_picture (GtkWidget     *widget,
                    gconstpointer  data)
{
  gboolean visible = GPOINTER_TO_INT (data);

  return GTK_IS_PICTURE (widget) && gtk_picture_get_paintable (GTK_PICTURE (widget)) != NULL &&
         (!visible || gtk_widget_get_visible (widget));
}

gboolean
has_picture (GtkWidget *root,
             gboolean   visible)
{
  return find_widget_matching (root, UI_WALK_ALL, is_painted_picture, GINT_TO_POINTER (visible)) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Acting                                                                   */

void
click (GtkWidget *button)
{
  g_signal_emit_by_name (button, "clicked");
}

void
click_sensitive (GtkWidget *button)
{
  g_assert_true (gtk_widget_is_sensitive (button));
  click (button);
}

void
close_other_toplevels (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i - 1);

      if (!PLUGBOARD_IS_WINDOW (item))
        gtk_window_destroy (GTK_WINDOW (item));
    }
}

/* ------------------------------------------------------------------------ */
/* The window's project and pages                                           */

gboolean
project_loaded (gpointer data)
{
  return mcp_project_get_loaded (data);
}

static void
settled_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (mcp_server_manager_wait_settled_finish (MCP_SERVER_MANAGER (object), result, NULL));
  *done = TRUE;
}

void
settle_project (McpProject *project)
{
  gboolean done = FALSE;

  mcp_server_manager_wait_settled_async (mcp_project_get_manager (project), NULL,
                                         settled_cb, &done);
  test_iterate_until (test_flag_set, &done, "the servers to settle");
}

char *
everything_servers (void)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  if (node == NULL || script == NULL)
    return NULL;

  return g_strdup_printf ("\"everything\": {\"command\": \"%s\", \"args\": [\"%s\", \"stdio\"]}",
                          node, script);
}

gboolean
page_running (gpointer data)
{
  gboolean running;

  g_object_get (data, "running", &running, NULL);
  return running;
}

gboolean
page_idle (gpointer data)
{
  return !page_running (data);
}

McpFormField *
page_form_field (PlugboardToolPage *page)
{
  GtkWidget *form = find_widget (GTK_WIDGET (page), PLUGBOARD_TYPE_SCHEMA_FORM);

  g_assert_nonnull (form);
  return plugboard_schema_form_get_field (PLUGBOARD_SCHEMA_FORM (form));
}

PlugboardElicitationDialog *
find_elicitation_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (PLUGBOARD_IS_ELICITATION_DIALOG (item))
        return PLUGBOARD_ELICITATION_DIALOG (item);
    }

  return NULL;
}

gboolean
elicitation_shown (gpointer data)
{
  return find_elicitation_dialog () != NULL;
}

gboolean
no_elicitation_dialog (gpointer data)
{
  return find_elicitation_dialog () == NULL;
}
