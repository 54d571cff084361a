/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-task-ui"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-form-field.h"
#include "mcp-task.h"
#include "mcp-tool-history.h"
#include "plugboard-application.h"
#include "plugboard-elicitation-dialog.h"
#include "plugboard-result-view.h"
#include "plugboard-schema-form.h"
#include "plugboard-server-page.h"
#include "plugboard-task-list.h"
#include "plugboard-tool-page.h"
#include "plugboard-window.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* Tasks in the app, on the reference server-everything (node, stdio):
 * simulate-research-query (execution.taskSupport "required") run from its
 * tool page in the window (which declares elicitation), followed to its
 * result and cancelled; and PlugboardTaskList on the same connection. */

static PlugboardApplication *app;
static char *test_root;

/* ------------------------------------------------------------------------ */
/* Screenshots                                                              */

/* With PLUGBOARD_TEST_SCREENSHOT_DIR set, @widget's window drawn to
 * DIR/task-@name.png, to look at the pages as they were. */
static void
screenshot (GtkWidget  *widget,
            const char *name)
{
  const char *dir = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_DIR");
  GtkWidget *window;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL || dir[0] == '\0')
    return;

  window = GTK_WIDGET (gtk_widget_get_root (widget));
  paintable = gtk_widget_paintable_new (window);
  /* Drawn once the window has been laid out and painted. */
  for (guint tries = 0; node == NULL && tries < 20; tries++)
    {
      test_wait_ms (200);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                              gtk_widget_get_width (window), gtk_widget_get_height (window));
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }
  if (node == NULL)
    {
      g_test_message ("screenshot %s: the window drew nothing", name);
      return;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node, NULL);
  file = g_strdup_printf ("task-%s.png", name);
  path = g_build_filename (dir, file, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* ------------------------------------------------------------------------ */
/* Files and the window                                                     */

typedef UiTestSetup Setup;

static void
setup_open (Setup      *setup,
            const char *servers)
{
  g_autofree char *json = NULL;

  json = g_strdup_printf ("{\"mcpServers\": {%s}, \"permissions\": {\"allow\": [\"mcp__everything\", \"mcp__fixture\", \"mcp__optional\", \"mcp__broken\"]}}",
                          servers);
  ui_test_setup_open (setup, app, "test-task-ui", json, 1280, 800);
}

static McpServerConnection *
setup_connection (Setup      *setup,
                  const char *name)
{
  McpServerManager *manager = mcp_project_get_manager (setup->project);
  McpServerConnection *connection = mcp_server_manager_lookup (manager, name);

  g_assert_nonnull (connection);
  return connection;
}

/* ------------------------------------------------------------------------ */
/* Finding widgets                                                          */

/* Shown: visible itself and every ancestor up to @top. */
static gboolean
shown_within (GtkWidget *widget,
              GtkWidget *top)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      if (!gtk_widget_get_visible (w) || !gtk_widget_get_child_visible (w))
        return FALSE;
      if (w == top)
        return TRUE;
    }

  return TRUE;
}

static GObject *
page_child (PlugboardToolPage *page,
            const char        *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (page), PLUGBOARD_TYPE_TOOL_PAGE, name);

  g_assert_nonnull (child);
  return child;
}

static PlugboardResultView *
page_result_view (PlugboardToolPage *page)
{
  return PLUGBOARD_RESULT_VIEW (page_child (page, "result_view"));
}

static McpHistoryEntry *
newest_call (Setup      *setup,
             const char *qualified_name)
{
  GListModel *calls = mcp_tool_history_get_calls_for (setup->history, qualified_name);
  g_autoptr(McpHistoryEntry) entry = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (calls), >, 0);
  entry = g_list_model_get_item (calls, 0);
  return entry; /* the history keeps it */
}

/* ------------------------------------------------------------------------ */
/* What the tool page showed of its task, as it changed                     */

typedef struct
{
  PlugboardToolPage *page;
  GPtrArray         *statuses;   /* each distinct status label, in order */
  GPtrArray         *messages;   /* each distinct status message, in order */
  GPtrArray         *ids;        /* each distinct task id shown */
} Watch;

static void
add_distinct (GPtrArray  *array,
              const char *text)
{
  if (text == NULL || text[0] == '\0')
    return;
  if (array->len > 0 && g_str_equal (g_ptr_array_index (array, array->len - 1), text))
    return;
  g_ptr_array_add (array, g_strdup (text));
}

static void
on_watched_label_cb (GtkLabel   *label,
                     GParamSpec *pspec,
                     GPtrArray  *array)
{
  add_distinct (array, gtk_label_get_label (label));
}

static void
watch_start (Watch             *watch,
             PlugboardToolPage *page)
{
  watch->page = page;
  watch->statuses = g_ptr_array_new_with_free_func (g_free);
  watch->messages = g_ptr_array_new_with_free_func (g_free);
  watch->ids = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (page_child (page, "task_status_label"), "notify::label",
                    G_CALLBACK (on_watched_label_cb), watch->statuses);
  g_signal_connect (page_child (page, "task_message_label"), "notify::label",
                    G_CALLBACK (on_watched_label_cb), watch->messages);
  g_signal_connect (page_child (page, "task_id_label"), "notify::label",
                    G_CALLBACK (on_watched_label_cb), watch->ids);
}

static void
watch_stop (Watch *watch)
{
  g_signal_handlers_disconnect_by_func (page_child (watch->page, "task_status_label"),
                                        on_watched_label_cb, watch->statuses);
  g_signal_handlers_disconnect_by_func (page_child (watch->page, "task_message_label"),
                                        on_watched_label_cb, watch->messages);
  g_signal_handlers_disconnect_by_func (page_child (watch->page, "task_id_label"),
                                        on_watched_label_cb, watch->ids);
  g_clear_pointer (&watch->statuses, g_ptr_array_unref);
  g_clear_pointer (&watch->messages, g_ptr_array_unref);
  g_clear_pointer (&watch->ids, g_ptr_array_unref);
}

static gboolean
array_has (GPtrArray  *array,
           const char *text)
{
  for (guint i = 0; i < array->len; i++)
    if (strstr (g_ptr_array_index (array, i), text) != NULL)
      return TRUE;
  return FALSE;
}

/* The page shows the task's id, or the call ended without one. */
static gboolean
task_id_shown_or_done (gpointer data)
{
  PlugboardToolPage *page = data;
  GtkLabel *id = GTK_LABEL (page_child (page, "task_id_label"));

  return gtk_label_get_text (id)[0] != '\0' || !page_running (page);
}

static gboolean
page_says_final_cancelled (gpointer data)
{
  PlugboardToolPage *page = data;
  GtkLabel *error = GTK_LABEL (page_child (page, "error_label"));

  return strstr (gtk_label_get_text (error), "as: Cancelled") != NULL;
}

/* ------------------------------------------------------------------------ */
/* The engine, asked directly                                               */

typedef struct
{
  gboolean  done;
  McpTask  *task;
  GError   *error;
} GetTask;

static void
get_task_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GetTask *get = user_data;

  get->task = mcp_client_get_task_finish (MCP_CLIENT (object), result, &get->error);
  get->done = TRUE;
}

static McpTask *
get_task (McpServerConnection *connection,
          const char          *task_id)
{
  GetTask get = { 0 };

  mcp_client_get_task_async (mcp_server_connection_get_client (connection), task_id, NULL,
                             get_task_cb, &get);
  test_iterate_until (test_flag_set, &get.done, "tasks/get");
  g_assert_no_error (get.error);
  g_assert_nonnull (get.task);
  return get.task;
}

/* ------------------------------------------------------------------------ */
/* server-everything                                                        */

#define RESEARCH "mcp__everything__simulate-research-query"

/* Runs simulate-research-query on @topic from the page and waits until the
 * page shows the task's id; returns the id. */
static char *
start_research (PlugboardToolPage *page,
                const char        *topic)
{
  McpFormField *root = page_form_field (page);

  g_assert_nonnull (mcp_form_field_get_child (root, "topic"));
  mcp_form_field_set_text (mcp_form_field_get_child (root, "topic"), topic);

  plugboard_tool_page_run (page);
  g_assert_true (page_running (page));
  test_iterate_until (task_id_shown_or_done, page, "the task's id on the tool page");
  if (!page_running (page))
    g_error ("the call ended without a task: %s",
             gtk_label_get_text (GTK_LABEL (page_child (page, "error_label"))));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (page_child (page, "task_box"))));
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (page_child (page, "progress_revealer"))));

  return g_strdup (gtk_label_get_text (GTK_LABEL (page_child (page, "task_id_label"))));
}

/* ------------------------------------------------------------------------ */
/* PlugboardTaskList helpers                                                */

static gboolean
list_settled (gpointer data)
{
  PlugboardTaskList *list = data;

  return !plugboard_task_list_get_busy (list) &&
         g_strcmp0 (plugboard_task_list_get_page_name (list), "loading") != 0;
}

static McpTask *
list_find (PlugboardTaskList *list,
           const char        *task_id)
{
  GListModel *tasks = plugboard_task_list_get_tasks (list);

  for (guint i = 0; i < g_list_model_get_n_items (tasks); i++)
    {
      g_autoptr(McpTask) task = g_list_model_get_item (tasks, i);

      if (g_strcmp0 (mcp_task_get_id (task), task_id) == 0)
        return task; /* the store keeps it */
    }

  return NULL;
}

typedef struct
{
  PlugboardTaskList *list;
  const char        *task_id;
  McpTaskStatus      status;
} ListWait;

static gboolean
list_has_task_with_status (gpointer data)
{
  ListWait *wait = data;
  McpTask *task = list_find (wait->list, wait->task_id);

  return task != NULL && mcp_task_get_status (task) == wait->status;
}

static gboolean
list_has_task (gpointer data)
{
  ListWait *wait = data;

  return list_find (wait->list, wait->task_id) != NULL;
}

static gboolean
result_view_filled (gpointer data)
{
  return plugboard_result_view_get_n_blocks (data) > 0;
}

static gboolean
list_idle (gpointer data)
{
  return !plugboard_task_list_get_busy (data);
}

static GtkRevealer *
list_error_revealer (PlugboardTaskList *list)
{
  GObject *revealer = gtk_widget_get_template_child (GTK_WIDGET (list), PLUGBOARD_TYPE_TASK_LIST,
                                                     "error_revealer");

  g_assert_true (GTK_IS_REVEALER (revealer));
  return GTK_REVEALER (revealer);
}

static GtkWindow *
window_with_list (PlugboardTaskList **list_out)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *list = plugboard_task_list_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 700);
  gtk_window_set_child (GTK_WINDOW (window), list);
  *list_out = PLUGBOARD_TASK_LIST (list);
  return GTK_WINDOW (window);
}

/* ------------------------------------------------------------------------ */
/* The tests                                                                */

static gboolean
elicitation_shown_or_done (gpointer data)
{
  return find_elicitation_dialog () != NULL || !page_running (data);
}

static void
test_task_everything (void)
{
  g_autofree char *servers = everything_servers ();
  g_autofree char *completed_id = NULL;
  g_autofree char *cancelled_id = NULL;
  g_autofree char *live_id = NULL;
  g_autofree char *text = NULL;
  g_autoptr(McpTask) state = NULL;
  Setup setup = { 0 };
  McpServerConnection *connection;
  PlugboardToolPage *page;
  PlugboardTaskList *list;
  GtkWindow *list_window;
  GtkWidget *button;
  McpTask *listed;
  ListWait wait;
  Watch watch = { 0 };

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-everything in MCP_TEST_NODE_MODULES is missing");
      return;
    }

  setup_open (&setup, servers);
  connection = setup_connection (&setup, "everything");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  /* A required task: "Run as Task", the note, no check. */
  page = ui_test_open_tool (setup.window, RESEARCH);
  g_assert_cmpstr (mcp_tool_get_task_support (mcp_pool_tool_get_tool (plugboard_tool_page_get_tool (page))),
                   ==, "required");
  g_assert_cmpstr (adw_button_content_get_label (ADW_BUTTON_CONTENT (page_child (page, "run_button_content"))),
                   ==, "Run as _Task");
  g_assert_true (shown_within (GTK_WIDGET (page_child (page, "task_note_label")), GTK_WIDGET (page)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (page_child (page, "task_check"))));

  /* Run: the task's id, its status and messages live, then the report. */
  watch_start (&watch, page);
  completed_id = start_research (page, "python");
  screenshot (GTK_WIDGET (page), "running");
  test_iterate_until (page_idle, page, "the research task to finish");
  screenshot (GTK_WIDGET (page), "done");

  g_test_message ("statuses: %u, messages: %u", watch.statuses->len, watch.messages->len);
  for (guint i = 0; i < watch.messages->len; i++)
    g_test_message ("message: %s", (char *) g_ptr_array_index (watch.messages, i));
  g_assert_cmpuint (watch.ids->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (watch.ids, 0), ==, completed_id);
  g_assert_true (array_has (watch.statuses, "Starting the task"));
  g_assert_true (array_has (watch.statuses, "Working"));
  g_assert_true (array_has (watch.statuses, "Completed"));
  /* The server's stage messages ("Gathering sources...", …). */
  g_assert_cmpuint (watch.messages->len, >=, 1);
  g_assert_true (array_has (watch.messages, "...") );
  watch_stop (&watch);

  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, RESEARCH)), ==, MCP_HISTORY_OUTCOME_OK);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (page_child (page, "result_stack"))), ==, "result");
  text = plugboard_result_view_dup_text (page_result_view (page));
  g_assert_nonnull (strstr (text, "Research Report: python"));
  g_clear_pointer (&text, g_free);

  state = get_task (connection, completed_id);
  g_assert_cmpint (mcp_task_get_status (state), ==, MCP_TASK_STATUS_COMPLETED);
  g_clear_object (&state);

  /* A second run, cancelled with Cancel: "Cancelled" with the server's
   * final status, and tasks/get agrees. Ambiguous, it cannot end before
   * Cancel, however slow the machine: it waits for an answer. */
  mcp_form_field_set_boolean (mcp_form_field_get_child (page_form_field (page), "ambiguous"), TRUE);
  cancelled_id = start_research (page, "cancel me");
  g_assert_cmpstr (cancelled_id, !=, completed_id);
  button = find_button_with_target (GTK_WIDGET (page), "tool.cancel", NULL);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  gtk_widget_activate (button);
  test_iterate_until (page_idle, page, "the cancelled task's call to end");
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, RESEARCH)), ==, MCP_HISTORY_OUTCOME_CANCELLED);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (page_child (page, "result_stack"))), ==, "error");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (page_child (page, "error_label"))), "Cancelled"));
  test_iterate_until (page_says_final_cancelled, page, "the task's final status on the page");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (page_child (page, "error_label"))), cancelled_id));
  screenshot (GTK_WIDGET (page), "cancelled");

  state = get_task (connection, cancelled_id);
  g_assert_cmpint (mcp_task_get_status (state), ==, MCP_TASK_STATUS_CANCELLED);
  g_clear_object (&state);
  /* Its question, if it came, is withdrawn with it. */
  test_iterate_until (no_elicitation_dialog, NULL, "the cancelled task's question to go");

  /* The Tasks list: both tasks with their statuses. */
  list_window = window_with_list (&list);
  plugboard_task_list_set_connection (list, connection);
  gtk_window_present (list_window);
  test_iterate_until (list_settled, list, "tasks/list");
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "list");
  g_assert_cmpuint (g_list_model_get_n_items (plugboard_task_list_get_tasks (list)), >=, 2);

  listed = list_find (list, completed_id);
  g_assert_nonnull (listed);
  g_assert_cmpint (mcp_task_get_status (listed), ==, MCP_TASK_STATUS_COMPLETED);
  listed = list_find (list, cancelled_id);
  g_assert_nonnull (listed);
  g_assert_cmpint (mcp_task_get_status (listed), ==, MCP_TASK_STATUS_CANCELLED);

  test_wait_ms (200);
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), completed_id));
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), cancelled_id));
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "Completed"));
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "Cancelled"));

  /* Get Result on the completed one only; no Cancel on either. */
  button = find_button_with_target (GTK_WIDGET (list), "tasks.get-result", completed_id);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  button = find_button_with_target (GTK_WIDGET (list), "tasks.get-result", cancelled_id);
  g_assert_true (button == NULL || !gtk_widget_get_visible (button));
  button = find_button_with_target (GTK_WIDGET (list), "tasks.cancel", completed_id);
  g_assert_true (button == NULL || !gtk_widget_get_visible (button));

  gtk_widget_activate (find_button_with_target (GTK_WIDGET (list), "tasks.get-result", completed_id));
  test_iterate_until (result_view_filled, plugboard_task_list_get_result_view (list), "the task's result in the list");
  text = plugboard_result_view_dup_text (PLUGBOARD_RESULT_VIEW (plugboard_task_list_get_result_view (list)));
  g_assert_nonnull (strstr (text, "Research Report: python"));
  g_clear_pointer (&text, g_free);
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "Result of task"));
  screenshot (GTK_WIDGET (list), "list-result");

  /* What the server refuses shows in place: cancelling a finished task. */
  g_assert_false (gtk_revealer_get_reveal_child (list_error_revealer (list)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list), "tasks.cancel", "s", completed_id));
  test_iterate_until (list_idle, list, "tasks/cancel of a finished task");
  g_assert_true (gtk_revealer_get_reveal_child (list_error_revealer (list)));
  {
    const char *error = gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (list),
                                                                                       PLUGBOARD_TYPE_TASK_LIST,
                                                                                       "error_label")));

    g_test_message ("cancelling a finished task: %s", error);
    g_assert_true (g_str_has_prefix (error, "The task could not be cancelled"));
    g_assert_nonnull (strstr (error, "terminal status"));
  }
  screenshot (GTK_WIDGET (list), "list-error");
  listed = list_find (list, completed_id);
  g_assert_cmpint (mcp_task_get_status (listed), ==, MCP_TASK_STATUS_COMPLETED);

  /* A task started while the list shows turns up in it (the server's
   * notifications/tasks/status); an ambiguous one waits for input as long
   * as it takes, so it is surely under way: "Input required", with Cancel;
   * Cancel there cancels it. */
  mcp_form_field_set_boolean (mcp_form_field_get_child (page_form_field (page), "ambiguous"), TRUE);
  live_id = start_research (page, "live");
  wait.list = list;
  wait.task_id = live_id;
  wait.status = MCP_TASK_STATUS_INPUT_REQUIRED;
  test_iterate_until (list_has_task, &wait, "the new task in the list");
  test_iterate_until (list_has_task_with_status, &wait, "the new task waiting for input in the list");
  /* Its question is up (a window coming up would end the button's
   * keyboard activation below). */
  test_iterate_until (elicitation_shown, NULL, "the live task's question");
  test_wait_ms (100);
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "Input required"));
  screenshot (GTK_WIDGET (list), "list-live");
  button = find_button_with_target (GTK_WIDGET (list), "tasks.cancel", live_id);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  gtk_widget_activate (button);
  wait.status = MCP_TASK_STATUS_CANCELLED;
  test_iterate_until (list_has_task_with_status, &wait, "the task cancelled from the list");
  button = find_button_with_target (GTK_WIDGET (list), "tasks.cancel", live_id);
  g_assert_true (button == NULL || !gtk_widget_get_visible (button));
  /* The call on the tool page follows the task to its end. */
  test_iterate_until (page_idle, page, "the tool page's call of the task cancelled in the list");
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, RESEARCH)), !=, MCP_HISTORY_OUTCOME_OK);
  /* It says so: cancelled, whoever did it. */
  test_iterate_until (page_says_final_cancelled, page, "the task's final status on the page");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (page_child (page, "error_label"))), "Cancelled"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (page_child (page, "error_label"))), live_id));

  state = get_task (connection, live_id);
  g_assert_cmpint (mcp_task_get_status (state), ==, MCP_TASK_STATUS_CANCELLED);

  gtk_window_destroy (list_window);

  /* The same list in the window: the server page's Tasks tab. The tool
   * page of that server is up; showing the server leaves it. */
  g_assert_true (plugboard_window_show_server (setup.window, "everything"));
  test_iterate_pending ();
  {
    GtkWidget *server_page = find_widget (GTK_WIDGET (setup.window), PLUGBOARD_TYPE_SERVER_PAGE);
    GObject *view_stack;

    g_assert_nonnull (server_page);
    g_assert_true (gtk_widget_get_mapped (server_page));
    view_stack = gtk_widget_get_template_child (server_page, PLUGBOARD_TYPE_SERVER_PAGE, "view_stack");
    g_assert_true (ADW_IS_VIEW_STACK (view_stack));
    g_assert_true (PLUGBOARD_IS_TASK_LIST (adw_view_stack_get_child_by_name (ADW_VIEW_STACK (view_stack), "tasks")));
    list = PLUGBOARD_TASK_LIST (adw_view_stack_get_child_by_name (ADW_VIEW_STACK (view_stack), "tasks"));
    adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (view_stack), "tasks");
    test_iterate_pending ();
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (list)));
    test_iterate_until (list_settled, list, "tasks/list in the Tasks tab");
    g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "list");
    g_assert_nonnull (list_find (list, completed_id));
    g_assert_nonnull (list_find (list, cancelled_id));
    g_assert_nonnull (list_find (list, live_id));
    screenshot (GTK_WIDGET (list), "server-page-tab");
  }

  ui_test_setup_clear (&setup);
}

static gboolean
watch_saw_input_required (gpointer data)
{
  Watch *watch = data;

  return array_has (watch->statuses, "Input required") || !page_running (watch->page);
}

/* An ambiguous query: the task waits for input ("Input required" on the
 * page) while the server's elicitation asks which meaning; the answer
 * goes into the report. */
static void
test_task_input_required (void)
{
  g_autofree char *servers = everything_servers ();
  g_autofree char *task_id = NULL;
  g_autofree char *text = NULL;
  Setup setup = { 0 };
  McpServerConnection *connection;
  PlugboardToolPage *page;
  PlugboardElicitationDialog *dialog;
  McpFormField *field;
  g_autoptr(JsonNode) answer = NULL;
  Watch watch = { 0 };

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-everything in MCP_TEST_NODE_MODULES is missing");
      return;
    }

  setup_open (&setup, servers);
  connection = setup_connection (&setup, "everything");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  page = ui_test_open_tool (setup.window, RESEARCH);
  mcp_form_field_set_present (mcp_form_field_get_child (page_form_field (page), "ambiguous"), TRUE);
  mcp_form_field_set_boolean (mcp_form_field_get_child (page_form_field (page), "ambiguous"), TRUE);
  watch_start (&watch, page);
  task_id = start_research (page, "python");

  test_iterate_until (elicitation_shown_or_done, page, "the clarification the task asks for");
  dialog = find_elicitation_dialog ();
  g_assert_nonnull (dialog);
  test_iterate_until (watch_saw_input_required, &watch, "“Input required” on the tool page");
  screenshot (GTK_WIDGET (page), "input-required");
  g_assert_true (array_has (watch.statuses, "Input required"));
  g_assert_true (page_running (page));

  screenshot (GTK_WIDGET (dialog), "input-required-question");
  field = plugboard_elicitation_dialog_get_field (dialog);
  g_assert_nonnull (field);
  g_assert_nonnull (mcp_form_field_get_child (field, "interpretation"));
  /* Python programming language, snake species, Monty Python: the snake
   * (a oneOf of titled consts; set as the dialog's form would send it). */
  answer = json_from_string ("{\"interpretation\": \"snake\"}", NULL);
  mcp_form_field_set_from_json (field, answer);
  plugboard_elicitation_dialog_respond (dialog, "accept");

  test_iterate_until (page_idle, page, "the task after the clarification");
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, RESEARCH)), ==, MCP_HISTORY_OUTCOME_OK);
  g_assert_true (array_has (watch.statuses, "Completed"));
  g_assert_true (array_has (watch.messages, "Continuing with interpretation"));
  watch_stop (&watch);

  text = plugboard_result_view_dup_text (page_result_view (page));
  g_assert_nonnull (strstr (text, "Research Report: python (snake)"));

  ui_test_setup_clear (&setup);
}

static gboolean
newest_call_ended (gpointer data)
{
  Setup *setup = data;

  return mcp_history_entry_get_outcome (newest_call (setup, RESEARCH)) != MCP_HISTORY_OUTCOME_RUNNING;
}

/* Leaving the page of a running task leaves the task running: it ends on
 * its own, in the history, and its result can be fetched later. */
static void
test_task_leave_page (void)
{
  g_autofree char *servers = everything_servers ();
  g_autofree char *task_id = NULL;
  g_autoptr(McpTask) state = NULL;
  Setup setup = { 0 };
  McpServerConnection *connection;
  PlugboardToolPage *page;

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-everything in MCP_TEST_NODE_MODULES is missing");
      return;
    }

  setup_open (&setup, servers);
  connection = setup_connection (&setup, "everything");

  page = ui_test_open_tool (setup.window, RESEARCH);
  task_id = start_research (page, "left behind");
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, RESEARCH)), ==, MCP_HISTORY_OUTCOME_RUNNING);

  page = ui_test_open_tool (setup.window, "mcp__everything__echo");
  g_assert_false (page_running (page));

  test_iterate_until (newest_call_ended, &setup, "the task left behind to end");
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, RESEARCH)), ==, MCP_HISTORY_OUTCOME_OK);
  g_assert_nonnull (strstr (mcp_history_entry_get_summary (newest_call (&setup, RESEARCH)),
                            "Research Report: left behind"));
  state = get_task (connection, task_id);
  g_assert_cmpint (mcp_task_get_status (state), ==, MCP_TASK_STATUS_COMPLETED);

  ui_test_setup_clear (&setup);
}

/* A server (the MCP SDK's McpServer, written out by the test) with one tool
 * whose execution.taskSupport is "optional": the SDK runs it as a task when
 * asked to, and otherwise makes the task itself and answers the plain call
 * with its result. */
static const char optional_script[] =
  "import { McpServer } from '%1$s/server/mcp.js';\n"
  "import { StdioServerTransport } from '%1$s/server/stdio.js';\n"
  "import { InMemoryTaskStore } from '%1$s/experimental/tasks/index.js';\n"
  "const server = new McpServer({ name: 'optional', version: '1.0.0' }, {\n"
  "  capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },\n"
  "  taskStore: new InMemoryTaskStore() });\n"
  "server.experimental.tasks.registerToolTask('maybe-task', {\n"
  "  title: 'Maybe a Task', description: 'Runs as a task or not, as the client likes',\n"
  "  execution: { taskSupport: 'optional' },\n"
  "  annotations: { readOnlyHint: true, openWorldHint: false } }, {\n"
  "  createTask: async (extra) => {\n"
  "    const task = await extra.taskStore.createTask({ ttl: 60000, pollInterval: 200 });\n"
  "    setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, 'completed',\n"
  "      { content: [{ type: 'text', text: 'maybe-task done' }] }), 500);\n"
  "    return { task };\n"
  "  },\n"
  "  getTask: async (extra) => await extra.taskStore.getTask(extra.taskId),\n"
  "  getTaskResult: async (extra) => await extra.taskStore.getTaskResult(extra.taskId),\n"
  "});\n"
  "await server.connect(new StdioServerTransport());\n";

#define MAYBE_TASK "mcp__optional__maybe-task"

/* An optional task: Run with a "Run as task" check beside it; unchecked a
 * plain call (no task on the page), checked a task with its id and status. */
static void
test_task_optional (void)
{
  g_autofree char *scripts = g_dir_make_tmp ("plugboard-test-optional-XXXXXX", NULL);
  g_autofree char *servers = test_sdk_script_server (scripts, "optional", optional_script);
  g_autofree char *text = NULL;
  g_autofree char *task_id = NULL;
  g_autoptr(McpTask) state = NULL;
  Setup setup = { 0 };
  McpServerConnection *connection;
  PlugboardToolPage *page;
  GtkCheckButton *check;
  Watch watch = { 0 };

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or the MCP SDK in MCP_TEST_NODE_MODULES is missing");
      test_remove_tree (scripts);
      return;
    }

  setup_open (&setup, servers);
  connection = setup_connection (&setup, "optional");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  page = ui_test_open_tool (setup.window, MAYBE_TASK);
  g_assert_cmpstr (mcp_tool_get_task_support (mcp_pool_tool_get_tool (plugboard_tool_page_get_tool (page))),
                   ==, "optional");
  check = GTK_CHECK_BUTTON (page_child (page, "task_check"));
  g_assert_true (shown_within (GTK_WIDGET (check), GTK_WIDGET (page)));
  g_assert_false (gtk_check_button_get_active (check));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (page_child (page, "task_note_label"))));
  g_assert_cmpstr (adw_button_content_get_label (ADW_BUTTON_CONTENT (page_child (page, "run_button_content"))),
                   ==, "_Run");

  /* Unchecked: a plain tools/call, answered with the result. */
  watch_start (&watch, page);
  plugboard_tool_page_run (page);
  test_iterate_until (page_idle, page, "the plain call");
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, MAYBE_TASK)), ==, MCP_HISTORY_OUTCOME_OK);
  g_assert_cmpuint (watch.ids->len, ==, 0);
  g_assert_cmpuint (watch.statuses->len, ==, 0);
  text = plugboard_result_view_dup_text (page_result_view (page));
  g_assert_nonnull (strstr (text, "maybe-task done"));
  g_clear_pointer (&text, g_free);
  plugboard_result_view_clear (page_result_view (page));

  /* Checked: a task, followed on the page to the same result. */
  gtk_check_button_set_active (check, TRUE);
  plugboard_tool_page_run (page);
  g_assert_true (page_running (page));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (check)));
  screenshot (GTK_WIDGET (page), "optional");
  test_iterate_until (page_idle, page, "the call as a task");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (check)));
  g_assert_true (gtk_check_button_get_active (check));
  g_assert_cmpint (mcp_history_entry_get_outcome (newest_call (&setup, MAYBE_TASK)), ==, MCP_HISTORY_OUTCOME_OK);
  g_assert_cmpuint (watch.ids->len, ==, 1);
  g_assert_true (array_has (watch.statuses, "Completed"));
  task_id = g_strdup (g_ptr_array_index (watch.ids, 0));
  watch_stop (&watch);
  text = plugboard_result_view_dup_text (page_result_view (page));
  g_assert_nonnull (strstr (text, "maybe-task done"));

  state = get_task (connection, task_id);
  g_assert_cmpint (mcp_task_get_status (state), ==, MCP_TASK_STATUS_COMPLETED);

  ui_test_setup_clear (&setup);
  test_remove_tree (scripts);
}

/* A server (the SDK's low-level Server, written out by the test) that
 * declares tasks.list but has no handler for it: tasks/list fails. */
static const char broken_list_script[] =
  "import { Server } from '%1$s/server/index.js';\n"
  "import { StdioServerTransport } from '%1$s/server/stdio.js';\n"
  "import { ListToolsRequestSchema } from '%1$s/types.js';\n"
  "const server = new Server({ name: 'broken', version: '1.0.0' },\n"
  "  { capabilities: { tools: {}, tasks: { list: {} } } });\n"
  "server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));\n"
  "await server.connect(new StdioServerTransport());\n";

static void
test_task_list_error (void)
{
  g_autofree char *scripts = g_dir_make_tmp ("plugboard-test-broken-XXXXXX", NULL);
  g_autofree char *servers = test_sdk_script_server (scripts, "broken", broken_list_script);
  Setup setup = { 0 };
  McpServerConnection *connection;
  PlugboardTaskList *list;
  GtkWindow *window;
  AdwStatusPage *page;

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or the MCP SDK in MCP_TEST_NODE_MODULES is missing");
      test_remove_tree (scripts);
      return;
    }

  setup_open (&setup, servers);
  connection = setup_connection (&setup, "broken");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  window = window_with_list (&list);
  plugboard_task_list_set_connection (list, connection);
  gtk_window_present (window);
  test_iterate_until (list_settled, list, "tasks/list");
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "error");
  page = ADW_STATUS_PAGE (gtk_widget_get_template_child (GTK_WIDGET (list), PLUGBOARD_TYPE_TASK_LIST,
                                                         "list_error_page"));
  g_test_message ("tasks/list failed: %s", adw_status_page_get_description (page));
  g_assert_cmpstr (adw_status_page_get_description (page), ==, "“broken” did not list its tasks: Method not found");
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "Could Not List Tasks"));
  screenshot (GTK_WIDGET (list), "list-failed");

  /* Try Again asks again (and fails the same way). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list), "tasks.refresh", NULL));
  g_assert_true (plugboard_task_list_get_busy (list));
  test_iterate_until (list_idle, list, "tasks/list again");
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "error");

  gtk_window_destroy (window);
  ui_test_setup_clear (&setup);
  test_remove_tree (scripts);
}

/* A server that does not declare tasks.list, and no connection at all. */
static void
test_task_list_unsupported (void)
{
  const char *fixture = g_getenv ("MCP_TEST_FIXTURE_SERVER");
  g_autofree char *servers = NULL;
  Setup setup = { 0 };
  McpServerConnection *connection;
  PlugboardTaskList *list;
  GtkWindow *window;

  g_assert_nonnull (fixture);
  servers = g_strdup_printf ("\"fixture\": {\"command\": \"%s\"}", fixture);
  setup_open (&setup, servers);
  connection = setup_connection (&setup, "fixture");
  g_assert_cmpint (mcp_server_connection_get_state (connection), ==, MCP_SERVER_STATE_CONNECTED);

  window = window_with_list (&list);
  gtk_window_present (window);
  test_iterate_pending ();
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "disconnected");
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "Not Connected"));

  plugboard_task_list_set_connection (list, connection);
  test_iterate_until (list_settled, list, "the list's page");
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "unsupported");
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "This server does not list tasks"));
  screenshot (GTK_WIDGET (list), "list-unsupported");
  g_assert_cmpuint (g_list_model_get_n_items (plugboard_task_list_get_tasks (list)), ==, 0);

  plugboard_task_list_set_connection (list, NULL);
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "disconnected");

  gtk_window_destroy (window);
  ui_test_setup_clear (&setup);
}

/* A fresh server-everything lists no tasks: "No Tasks". */
static void
test_task_list_empty (void)
{
  g_autofree char *servers = everything_servers ();
  Setup setup = { 0 };
  PlugboardTaskList *list;
  GtkWindow *window;

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-everything in MCP_TEST_NODE_MODULES is missing");
      return;
    }

  setup_open (&setup, servers);
  window = window_with_list (&list);
  plugboard_task_list_set_connection (list, setup_connection (&setup, "everything"));
  gtk_window_present (window);
  test_iterate_until (list_settled, list, "tasks/list");
  g_assert_cmpstr (plugboard_task_list_get_page_name (list), ==, "empty");
  g_assert_true (has_shown_label_with (GTK_WIDGET (list), "No Tasks"));
  screenshot (GTK_WIDGET (list), "list-empty");

  gtk_window_destroy (window);
  ui_test_setup_clear (&setup);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_has_display ())
    return 0;

  /* Nothing of the person's settings is read or written. */
  test_root = ui_test_make_root ("test-task-ui", UI_TEST_XDG_CONFIG | UI_TEST_XDG_DATA | UI_TEST_XDG_CACHE);
  /* No test opens a browser. */
  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", "true", TRUE);

  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/ui/task/everything", test_task_everything);
  g_test_add_func ("/ui/task/input-required", test_task_input_required);
  g_test_add_func ("/ui/task/leave-page", test_task_leave_page);
  g_test_add_func ("/ui/task/optional", test_task_optional);
  g_test_add_func ("/ui/task/list-error", test_task_list_error);
  g_test_add_func ("/ui/task/list-unsupported", test_task_list_unsupported);
  g_test_add_func ("/ui/task/list-empty", test_task_list_empty);

  ret = ui_test_run_and_clean (&app, &test_root);

  return ret;
}
