/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ui-test-common"

#include "config.h"

#include "ui-test-common.h"

#include <stdio.h>
#include <string.h>

#include <adwaita.h>

#include "mcp-server-config.h"
#include "mcp-server-connection.h"
#include "plugboard-schema-form.h"

/* ------------------------------------------------------------------------ */
/* main()                                                                   */

gboolean
ui_test_has_display (void)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      printf ("1..0 # SKIP no display (run under xvfb-run)\n");
      return FALSE;
    }
  return TRUE;
}

char *
ui_test_record_opened_urls (const char *dir)
{
  char *file = g_build_filename (dir, "opened-url", NULL);
  g_autofree char *quoted = g_shell_quote (file);
  /* The URL is appended to the command: $0 of the script. */
  g_autofree char *script = g_strdup_printf ("echo \"$0\" > %s.part && mv %s.part %s", quoted, quoted, quoted);
  g_autofree char *quoted_script = g_shell_quote (script);
  g_autofree char *command = g_strdup_printf ("sh -c %s", quoted_script);

  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", command, TRUE);
  return file;
}

char *
ui_test_make_root (const char *name,
                   UiTestXdg   xdg)
{
  static const struct { UiTestXdg flag; const char *variable; const char *folder; } folders[] = {
    { UI_TEST_XDG_CONFIG, "XDG_CONFIG_HOME", "xdg-config" },
    { UI_TEST_XDG_DATA, "XDG_DATA_HOME", "xdg-data" },
    { UI_TEST_XDG_CACHE, "XDG_CACHE_HOME", "xdg-cache" },
  };
  g_autofree char *template = g_strdup_printf ("plugboard-%s-XXXXXX", name);
  char *root = g_dir_make_tmp (template, NULL);

  g_assert_nonnull (root);
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    if (xdg & folders[i].flag)
      {
        g_autofree char *path = g_build_filename (root, folders[i].folder, NULL);

        g_setenv (folders[i].variable, path, TRUE);
      }

  return root;
}

/* GTK 4.8 warns "Trying to snapshot GtkWidget … without a current
 * allocation" when a frame is drawn while a widget that was just shown or
 * moved to another parent (the App view's fullscreen window, a page put
 * back in its stack) has not been allocated yet; the next frame draws it.
 * It depends on when the frame clock ticks, so a loaded machine made
 * test-app-servers abort on it now and then (criticals and warnings are
 * fatal in tests). That warning alone is printed and not fatal; every
 * other one still is. */
static gboolean
is_unallocated_snapshot (const char *domain,
                         const char *message)
{
  return g_strcmp0 (domain, "Gtk") == 0 && message != NULL &&
         g_str_has_prefix (message, "Trying to snapshot ") &&
         strstr (message, " without a current allocation") != NULL;
}

/* g_log() (the old API): FALSE keeps it from being fatal */
static gboolean
ui_test_fatal_handler (const char     *domain,
                       GLogLevelFlags  log_level,
                       const char     *message,
                       gpointer        user_data)
{
  return !is_unallocated_snapshot (domain, message);
}

/* g_log_structured() (GTK's): handled here, never reaches the default
 * writer that aborts */
static GLogWriterOutput
ui_test_log_writer (GLogLevelFlags   log_level,
                    const GLogField *fields,
                    gsize            n_fields,
                    gpointer         user_data)
{
  if (log_level & G_LOG_LEVEL_WARNING)
    {
      const char *domain = NULL;
      const char *message = NULL;

      for (gsize i = 0; i < n_fields; i++)
        {
          if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0)
            domain = fields[i].value;
          else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
            message = fields[i].value;
        }
      if (is_unallocated_snapshot (domain, message))
        {
          g_printerr ("# (not fatal) Gtk-WARNING: %s\n", message);
          return G_LOG_WRITER_HANDLED;
        }
    }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
ui_test_init (int    *argc,
              char ***argv)
{
  g_log_set_writer_func (ui_test_log_writer, NULL, NULL);
  gtk_test_init (argc, argv, NULL);
  g_test_log_set_fatal_handler (ui_test_fatal_handler, NULL);
  adw_init ();
}

PlugboardApplication *
ui_test_application_new (void)
{
  PlugboardApplication *app = plugboard_application_new ();

  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  g_application_hold (G_APPLICATION (app));
  return app;
}

void
ui_test_application_free (PlugboardApplication *app)
{
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
}

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
template_child (gpointer    widget,
                GType       type,
                const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (child);
  g_assert_true (GTK_IS_WIDGET (child));
  return GTK_WIDGET (child);
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

gpointer
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (item, type))
        return item; /* the toplevels list keeps it */
    }

  return NULL;
}

void
collect_widgets (GtkWidget *root,
                 GType      type,
                 GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    g_ptr_array_add (out, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, type, out);
}

typedef struct
{
  const char *action;
  const char *target;   /* NULL: any */
  gboolean    button;   /* only a GtkButton */
} ActionTarget;

static gboolean
has_action_target (GtkWidget     *widget,
                   gconstpointer  data)
{
  const ActionTarget *wanted = data;
  GVariant *value;

  if (!GTK_IS_ACTIONABLE (widget) || (wanted->button && !GTK_IS_BUTTON (widget)) ||
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
  const ActionTarget wanted = { action, target, TRUE };

  return find_widget_matching (root, UI_WALK_ALL, has_action_target, &wanted);
}

GtkWidget *
find_actionable (GtkWidget  *root,
                 const char *action,
                 const char *target)
{
  const ActionTarget wanted = { action, target, FALSE };

  return find_widget_matching (root, UI_WALK_ALL, has_action_target, &wanted);
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
wait_frames (guint n)
{
  for (guint i = 0; i < n; i++)
    test_wait_ms (20);
  test_iterate_pending ();
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
  return find_toplevel (PLUGBOARD_TYPE_ELICITATION_DIALOG);
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

/* ------------------------------------------------------------------------ */
/* The window's server list                                                 */

GtkWidget *
window_child (PlugboardWindow *window,
              const char      *name)
{
  return template_child (window, PLUGBOARD_TYPE_WINDOW, name);
}

static void
collect_rows (GtkWidget *widget,
              GPtrArray *rows)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (PLUGBOARD_IS_SERVER_ROW (child))
        {
          if (gtk_widget_get_visible (gtk_widget_get_parent (child)) &&
              plugboard_server_row_get_item (PLUGBOARD_SERVER_ROW (child)) != NULL)
            g_ptr_array_add (rows, child);
          continue;
        }
      collect_rows (child, rows);
    }
}

GPtrArray *
window_rows (PlugboardWindow *window)
{
  GPtrArray *rows = g_ptr_array_new ();

  collect_rows (window_child (window, "server_list"), rows);
  return rows;
}

const char *
server_row_name (PlugboardServerRow *row)
{
  GObject *item = plugboard_server_row_get_item (row);

  if (MCP_IS_SERVER_CONNECTION (item))
    return mcp_server_connection_get_name (MCP_SERVER_CONNECTION (item));
  return mcp_server_config_get_name (MCP_SERVER_CONFIG (item));
}

PlugboardServerRow *
window_find_row (PlugboardWindow *window,
                 const char      *name)
{
  g_autoptr(GPtrArray) rows = window_rows (window);

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (server_row_name (rows->pdata[i]), name) == 0)
      return rows->pdata[i];

  return NULL;
}

typedef struct
{
  PlugboardWindow *window;
  const char      *name;
  const char      *text;
} RowText;

static gboolean
row_has_text (gpointer data)
{
  RowText *wanted = data;
  PlugboardServerRow *row;

  /* Found after the iteration: a list row may be let go of during it. */
  test_iterate_pending ();
  row = window_find_row (wanted->window, wanted->name);
  return row != NULL &&
         g_strcmp0 (plugboard_server_row_get_state_text (row), wanted->text) == 0;
}

void
window_wait_row_text (PlugboardWindow *window,
                      const char      *name,
                      const char      *text)
{
  RowText wanted = { window, name, text };

  test_iterate_until (row_has_text, &wanted, text);
}

/* ------------------------------------------------------------------------ */
/* The window's actions and the server editor                              */

void
window_activate (PlugboardWindow *window,
                 const char      *action,
                 GVariant        *parameter)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), action));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, parameter);
}

PlugboardServerEditor *
find_server_editor (void)
{
  return find_toplevel (PLUGBOARD_TYPE_SERVER_EDITOR);
}

gboolean
server_editor_gone (gpointer data)
{
  return find_server_editor () == NULL;
}

void
server_editor_saved_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (plugboard_server_editor_save_finish (PLUGBOARD_SERVER_EDITOR (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

void
window_edit_in_editor (PlugboardWindow *window,
                       const char      *action,
                       GVariant        *parameter,
                       const char      *json)
{
  g_autoptr(GError) error = NULL;
  PlugboardServerEditor *editor;
  gboolean saved = FALSE;

  g_assert_null (find_server_editor ());
  window_activate (window, action, parameter);
  test_iterate_pending ();
  editor = find_server_editor ();
  g_assert_nonnull (editor);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (editor)) == GTK_WINDOW (window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));

  g_assert_true (plugboard_server_editor_load_json (editor, json, &error));
  g_assert_no_error (error);
  plugboard_server_editor_save_async (editor, NULL, server_editor_saved_cb, &saved);
  test_iterate_until (test_flag_set, &saved, "the editor to save");
  /* It closes on success. */
  test_iterate_until (server_editor_gone, NULL, "the editor to close");
}
