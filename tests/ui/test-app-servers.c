/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-servers"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include <webkit/webkit.h>

#include "mcp-app-note.h"
#include "mcp-trace.h"
#include "plugboard-app-view.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* Issue 25 end to end: the three MCP Apps servers on npm, started as stdio
 * servers of a project, their tools run from the tool page, their
 * interfaces shown in the App view (WebKit) and driven as a person would:
 * what the page renders from the call's input and result, and its buttons
 * that go back to the host (tools/call, ui/message, notifications/message,
 * ui/open-link). */

static PlugboardApplication *app;
static char *test_root;
static char *opened_url_file;

/* ------------------------------------------------------------------------ */
/* The page                                                                 */

typedef struct
{
  gboolean  done;
  char     *value;
  char     *error;
} Evaluation;

static void
evaluated_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Evaluation *evaluation = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JSCValue) value = webkit_web_view_evaluate_javascript_finish (WEBKIT_WEB_VIEW (object), result, &error);

  if (value != NULL)
    evaluation->value = jsc_value_to_string (value);
  else
    evaluation->error = g_strdup (error->message);
  evaluation->done = TRUE;
}

/* @script's value as a string, in the page of @view. */
static char *
eval_js (PlugboardAppView *view,
         const char       *script)
{
  GtkWidget *web_view = plugboard_app_view_get_web_view (view);
  Evaluation evaluation = { 0 };

  g_assert_true (WEBKIT_IS_WEB_VIEW (web_view));
  webkit_web_view_evaluate_javascript (WEBKIT_WEB_VIEW (web_view), script, -1, NULL, NULL, NULL,
                                       evaluated_cb, &evaluation);
  TEST_WAIT_UNTIL (evaluation.done);
  if (evaluation.error != NULL)
    g_error ("%s: %s", script, evaluation.error);
  return evaluation.value;
}

/* Waits until @script gives "true" in the page. */
static void
wait_js (PlugboardAppView *view,
         const char       *script)
{
  guint guard = test_hang_guard (script);

  for (;;)
    {
      g_autofree char *value = eval_js (view, script);

      if (g_strcmp0 (value, "true") == 0)
        break;
      test_wait_ms (100);
    }
  g_source_remove (guard);
}

static gboolean
is_app_stack (GtkWidget     *widget,
              gconstpointer  data)
{
  return GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "app") != NULL;
}

/* The App view of @page, shown as the person's switch to it does, with
 * its interface loaded (and, with @initialized, through ui/initialize). */
static PlugboardAppView *
show_app_view_full (PlugboardToolPage *page,
                    gboolean           initialized)
{
  GtkWidget *stack = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_app_stack, NULL);
  PlugboardAppView *view = plugboard_tool_page_get_app_view (page);

  g_assert_nonnull (stack);
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "app");
  TEST_WAIT_UNTIL (plugboard_app_view_get_bridge (view) != NULL);
  TEST_WAIT_UNTIL (plugboard_app_view_get_loaded (view));
  if (initialized)
    TEST_WAIT_UNTIL (mcp_app_bridge_get_initialized (plugboard_app_view_get_bridge (view)));
  return view;
}

static PlugboardAppView *
show_app_view (PlugboardToolPage *page)
{
  return show_app_view_full (page, TRUE);
}

static gboolean
is_notes_toggle (GtkWidget     *widget,
                 gconstpointer  data)
{
  return GTK_IS_TOGGLE_BUTTON (widget) &&
         g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "sidebar-show-right-symbolic") == 0;
}

static gboolean
is_details_button (GtkWidget     *widget,
                   gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) &&
         g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)), "dialog-information-symbolic") == 0;
}

/* The Show Interface button of the page's own run (the page's calls of
 * the tool are in the history too, without a result the page saw). */
static gboolean
is_show_interface (GtkWidget     *widget,
                   gconstpointer  data)
{
  GObject *entry;

  if (!GTK_IS_BUTTON (widget) ||
      g_strcmp0 (gtk_widget_get_tooltip_text (widget), "Show Interface") != 0)
    return FALSE;
  entry = g_object_get_data (G_OBJECT (widget), "entry");
  /* @data: that entry (the page's own calls are in the history too). */
  return entry != NULL && mcp_history_entry_get_result (MCP_HISTORY_ENTRY (entry)) != NULL &&
         (data == NULL || entry == data);
}

/* The result's own Show Interface, at the head of the result. */
static gboolean
is_result_show_interface (GtkWidget     *widget,
                          gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_get_visible (widget) &&
         g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), "Show _Interface") == 0;
}

static gboolean
is_fullscreen_button (GtkWidget     *widget,
                      gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "view-fullscreen-symbolic") == 0;
}

static gboolean
is_notes_stack (GtkWidget     *widget,
                gconstpointer  data)
{
  GtkWidget *title = gtk_widget_get_prev_sibling (widget);

  return GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "list") != NULL &&
         GTK_IS_LABEL (title) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (title)), "What the Page Did") == 0;
}

static gboolean
is_load_error (GtkWidget     *widget,
               gconstpointer  data)
{
  return ADW_IS_STATUS_PAGE (widget) &&
         g_strcmp0 (adw_status_page_get_title (ADW_STATUS_PAGE (widget)), "Could Not Load the Interface") == 0;
}

static gboolean
is_label_with (GtkWidget     *widget,
               gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  return find_widget_matching (root, UI_WALK_ALL, is_label_with, text) != NULL;
}

/* ------------------------------------------------------------------------ */
/* The server's trace                                                       */

static McpServerConnection *
connection_of (UiTestSetup *setup,
               const char  *name)
{
  McpServerConnection *connection =
    mcp_server_manager_lookup (mcp_project_get_manager (setup->project), name);

  g_assert_nonnull (connection);
  return connection;
}

/* The tools/call requests sent to the server (@kind MESSAGE, out), and
 * the entries of kind APP (the page's side). */
static guint
count_trace (McpServerConnection *connection,
             McpTraceKind         kind,
             const char          *method)
{
  g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (mcp_server_connection_get_trace (connection));
  guint n = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);

      if (mcp_trace_entry_get_kind (entry) != kind)
        continue;
      if (method != NULL &&
          (mcp_trace_entry_get_direction (entry) != MCP_TRACE_DIRECTION_OUT ||
           g_strcmp0 (mcp_trace_entry_get_method (entry), method) != 0))
        continue;
      n++;
    }
  return n;
}

static gboolean
has_note (McpAppBridge   *bridge,
          McpAppNoteKind  kind,
          const char     *text)
{
  GListModel *notes = mcp_app_bridge_get_notes (bridge);

  for (guint i = 0; i < g_list_model_get_n_items (notes); i++)
    {
      g_autoptr(McpAppNote) note = g_list_model_get_item (notes, i);

      if (mcp_app_note_get_kind (note) == kind &&
          mcp_app_note_get_text (note) != NULL &&
          strstr (mcp_app_note_get_text (note), text) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Setting up                                                               */

/* The "mcpServers" entry "@name" running @package's stdio server, or NULL
 * when node or the package is missing. */
static char *
app_server_entry (const char *name,
                  const char *package)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *module = g_build_filename ("@modelcontextprotocol", package, "dist", "index.js", NULL);
  g_autofree char *script = test_find_node_module (module);

  if (node == NULL || script == NULL)
    return NULL;
  return g_strdup_printf ("\"%s\": {\"command\": \"%s\", \"args\": [\"%s\", \"--stdio\"]}",
                          name, node, script);
}

static gboolean
open_setup (UiTestSetup *setup,
            const char  *name,
            const char  *package,
            const char  *permissions)
{
  g_autofree char *entry = NULL;
  g_autofree char *json = NULL;

  if (!plugboard_app_view_is_supported ())
    {
      g_test_skip ("built without WebKitGTK");
      return FALSE;
    }
  entry = app_server_entry (name, package);
  if (entry == NULL)
    {
      g_test_skip ("node or the npm MCP Apps servers (tests/node_modules) are missing");
      return FALSE;
    }
  json = g_strdup_printf ("{\"mcpServers\": {%s}, \"permissions\": {%s}}", entry, permissions);
  ui_test_setup_open (setup, app, "test-app-servers", json, 1280, 800);
  return TRUE;
}

static void
run_tool (PlugboardToolPage *page)
{
  plugboard_tool_page_run (page);
  test_iterate_until (page_idle, page, "the run ends");
}

/* ------------------------------------------------------------------------ */
/* The servers                                                              */

/* server-basic-vanillajs: get-time's interface shows the time of the
 * result; its buttons call get-time again, send a message and a log (side
 * panel notes) and ask to open a link (the person sees the host). */
static void
test_basic_vanillajs (void)
{
  UiTestSetup setup = { 0 };
  PlugboardToolPage *page;
  PlugboardAppView *view;
  McpAppBridge *bridge;
  McpServerConnection *connection;
  g_autofree char *first_time = NULL;
  g_autofree char *script = NULL;
  AdwMessageDialog *dialog;

  if (!open_setup (&setup, "basic", "server-basic-vanillajs", "\"allow\": [\"mcp__basic\"]"))
    return;
  connection = connection_of (&setup, "basic");

  page = ui_test_open_tool (setup.window, "mcp__basic__get-time");
  run_tool (page);
  g_assert_cmpuint (count_trace (connection, MCP_TRACE_KIND_MESSAGE, "tools/call"), ==, 1);

  /* The result leads to its interface. */
  {
    GtkWidget *result_show = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_result_show_interface, NULL);
    GtkWidget *stack = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_app_stack, NULL);

    g_assert_nonnull (result_show);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "tool");
    click (result_show);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "app");
  }

  view = show_app_view (page);
  bridge = plugboard_app_view_get_bridge (view);
  /* The result's time is on the page (its ontoolresult). */
  wait_js (view, "document.getElementById('server-time').textContent !== 'Loading...'");
  first_time = eval_js (view, "document.getElementById('server-time').textContent");
  g_test_message ("the page shows %s", first_time);
  g_assert_cmpuint (strlen (first_time), >, 4);
  g_assert_cmpuint (count_trace (connection, MCP_TRACE_KIND_APP, NULL), >, 0);

  /* Get Server Time: tools/call through the bridge, a new time. */
  test_wait_ms (1100);
  eval_js (view, "document.getElementById('get-time-btn').click(); 'clicked'");
  script = g_strdup_printf ("document.getElementById('server-time').textContent !== '%s'", first_time);
  wait_js (view, script);
  g_assert_cmpuint (count_trace (connection, MCP_TRACE_KIND_MESSAGE, "tools/call"), ==, 2);

  /* Send Message, Send Log: notes of the side panel. */
  eval_js (view, "document.getElementById('send-message-btn').click(); 'clicked'");
  TEST_WAIT_UNTIL (has_note (bridge, MCP_APP_NOTE_MESSAGE, "This is message text."));
  eval_js (view, "document.getElementById('send-log-btn').click(); 'clicked'");
  TEST_WAIT_UNTIL (has_note (bridge, MCP_APP_NOTE_LOG, "This is log text."));

  /* Open Link: the person is asked, with the host; Cancel opens nothing. */
  eval_js (view, "document.getElementById('open-link-btn').click(); 'clicked'");
  TEST_WAIT_UNTIL ((dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG)) != NULL);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Open Link?");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "modelcontextprotocol.io"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "“basic”"));
  adw_message_dialog_response (dialog, "cancel");
  test_wait_ms (300);
  g_assert_false (g_file_test (opened_url_file, G_FILE_TEST_EXISTS));

  /* Open it this time: the browser gets the address. */
  eval_js (view, "document.getElementById('open-link-btn').click(); 'clicked'");
  TEST_WAIT_UNTIL ((dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG)) != NULL);
  adw_message_dialog_response (dialog, "open");
  TEST_WAIT_UNTIL (g_file_test (opened_url_file, G_FILE_TEST_EXISTS));
  {
    g_autofree char *opened = test_read_file (opened_url_file);

    g_assert_nonnull (strstr (opened, "https://modelcontextprotocol.io/"));
  }
  g_unlink (opened_url_file);

  /* Details: what the interface declared and the exact CSP it runs under. */
  {
    GtkWidget *details = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_details_button, NULL);
    GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (details)));
    g_autofree char *csp = mcp_ui_resource_build_csp (mcp_app_bridge_get_resource (bridge));

    g_assert_true (gtk_widget_get_sensitive (details));
    g_assert_true (has_label (popover, csp));
    g_assert_true (has_label (popover, "ui://get-time/mcp-app.html"));
    g_assert_true (has_label (popover, MCP_UI_MIME_TYPE));
    g_assert_true (has_label (popover, mcp_ui_resource_get_digest (mcp_app_bridge_get_resource (bridge))));
  }

  /* The side panel lists the notes, not its empty text. */
  {
    GtkWidget *toggle = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_notes_toggle, NULL);
    GtkStack *stack = GTK_STACK (find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_notes_stack, NULL));
    GtkListView *list = GTK_LIST_VIEW (find_widget (gtk_stack_get_child_by_name (stack, "list"), GTK_TYPE_LIST_VIEW));

    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
    wait_frames (4);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "list");
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list))), >=, 2);
  }

  /* Show Interface on the call in the history: a fresh view of the same
   * call, which shows the same time again. */
  {
    GListModel *calls = mcp_tool_history_get_calls_for (mcp_project_get_history (setup.project),
                                                        "mcp__basic__get-time");
    g_autoptr(McpHistoryEntry) run = NULL;
    GtkWidget *show;
    g_autofree char *replayed = NULL;

    /* The run's entry: the oldest (the page may have called the tool
     * since, which the history lists too). */
    for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
      {
        g_autoptr(McpHistoryEntry) entry = g_list_model_get_item (calls, i);

        if (run == NULL || mcp_history_entry_get_started (entry) < mcp_history_entry_get_started (run))
          g_set_object (&run, entry);
      }
    g_assert_nonnull (run);
    show = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_show_interface, run);

    g_assert_nonnull (show);
    click (show);
    TEST_WAIT_UNTIL (plugboard_app_view_get_bridge (view) != bridge &&
                     plugboard_app_view_get_bridge (view) != NULL);
    TEST_WAIT_UNTIL (plugboard_app_view_get_loaded (view));
    TEST_WAIT_UNTIL (mcp_app_bridge_get_initialized (plugboard_app_view_get_bridge (view)));
    wait_js (view, "document.getElementById('server-time').textContent !== 'Loading...'");
    replayed = eval_js (view, "document.getElementById('server-time').textContent");
    g_assert_cmpstr (replayed, ==, first_time);
  }

  /* Fullscreen: the bar's button puts the view's bridge in that mode (the
   * view shows it fullscreen), and back. */
  {
    GtkWidget *fullscreen = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_fullscreen_button, NULL);
    McpAppBridge *shown = plugboard_app_view_get_bridge (view);

    g_assert_nonnull (fullscreen);
    click (fullscreen);
    g_assert_cmpstr (mcp_app_bridge_get_display_mode (shown), ==, "fullscreen");
    wait_frames (4);
    mcp_app_bridge_set_display_mode (shown, "inline");
    wait_frames (4);
    g_assert_cmpstr (mcp_app_bridge_get_display_mode (shown), ==, "inline");
  }

  /* Leaving the page closes the interface (its web view goes, and with
   * it the web process); opening it again shows a new one. */
  gtk_widget_set_visible (GTK_WIDGET (page), FALSE);
  g_assert_null (plugboard_app_view_get_bridge (view));
  g_assert_null (plugboard_app_view_get_web_view (view));
  gtk_widget_set_visible (GTK_WIDGET (page), TRUE);
  page = ui_test_open_tool (setup.window, "mcp__basic__get-time");
  view = show_app_view (page);
  g_assert_nonnull (plugboard_app_view_get_web_view (view));

  ui_test_setup_clear (&setup);
}

/* A tool the rules ask about, called by its page: the person is asked,
 * says no, the server never sees the call and the page gets an error. */
static void
test_basic_vanillajs_asked (void)
{
  UiTestSetup setup = { 0 };
  PlugboardToolPage *page;
  PlugboardAppView *view;
  McpServerConnection *connection;
  g_autofree char *first_time = NULL;
  g_autofree char *after = NULL;
  AdwMessageDialog *dialog;

  if (!open_setup (&setup, "basic", "server-basic-vanillajs", "\"ask\": [\"mcp__basic__get-time\"]"))
    return;
  connection = connection_of (&setup, "basic");

  page = ui_test_open_tool (setup.window, "mcp__basic__get-time");
  plugboard_tool_page_run (page);
  TEST_WAIT_UNTIL ((dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG)) != NULL);
  adw_message_dialog_response (dialog, "run");
  test_iterate_until (page_idle, page, "the run ends");

  view = show_app_view (page);
  wait_js (view, "document.getElementById('server-time').textContent !== 'Loading...'");
  first_time = eval_js (view, "document.getElementById('server-time').textContent");

  eval_js (view, "document.getElementById('get-time-btn').click(); 'clicked'");
  TEST_WAIT_UNTIL ((dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG)) != NULL);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "mcp__basic__get-time"));
  adw_message_dialog_response (dialog, "cancel");
  test_wait_ms (1000);
  g_assert_cmpuint (count_trace (connection, MCP_TRACE_KIND_MESSAGE, "tools/call"), ==, 1);
  /* The page got an error answer and says so. */
  wait_js (view, "document.getElementById('server-time').textContent === '[ERROR]'");
  after = eval_js (view, "document.getElementById('server-time').textContent");
  g_assert_cmpstr (after, !=, first_time);

  ui_test_setup_clear (&setup);
}

/* server-budget-allocator: its page draws the budget of the result's
 * structuredContent (sliders, the allocated total). It has no control
 * that calls a server tool. */
static void
test_budget_allocator (void)
{
  UiTestSetup setup = { 0 };
  PlugboardToolPage *page;
  PlugboardAppView *view;
  g_autofree char *status = NULL;

  if (!open_setup (&setup, "budget", "server-budget-allocator", "\"allow\": [\"mcp__budget\"]"))
    return;

  page = ui_test_open_tool (setup.window, "mcp__budget__get-budget-data");
  run_tool (page);
  view = show_app_view (page);
  wait_js (view, "document.querySelectorAll('#sliders-container input').length > 0");
  wait_js (view, "document.getElementById('budget-selector').options.length > 0");
  status = eval_js (view, "document.getElementById('status-bar').textContent");
  g_test_message ("status: %s", status);
  g_assert_nonnull (strstr (status, "$"));

  ui_test_setup_clear (&setup);
}

/* server-customer-segmentation: its page loads its data itself, calling
 * get-customer-data through the bridge, and draws a legend of segments. */
static void
test_customer_segmentation (void)
{
  UiTestSetup setup = { 0 };
  PlugboardToolPage *page;
  PlugboardAppView *view;
  McpServerConnection *connection;

  if (!open_setup (&setup, "customers", "server-customer-segmentation", "\"allow\": [\"mcp__customers\"]"))
    return;
  connection = connection_of (&setup, "customers");

  page = ui_test_open_tool (setup.window, "mcp__customers__get-customer-data");
  run_tool (page);
  g_assert_cmpuint (count_trace (connection, MCP_TRACE_KIND_MESSAGE, "tools/call"), ==, 1);
  view = show_app_view (page);
  wait_js (view, "document.getElementById('legend').children.length > 0");
  TEST_WAIT_UNTIL (count_trace (connection, MCP_TRACE_KIND_MESSAGE, "tools/call") == 2);
  g_assert_cmpuint (count_trace (connection, MCP_TRACE_KIND_APP, NULL), >, 0);

  ui_test_setup_clear (&setup);
}

/* The fixture server's --apps tools: Open App without a run shows the
 * interface with empty input and Details what it declared; an interface
 * the server does not have is an error with Retry, the rest of the page
 * goes on. */
static void
test_fixture_open_app_and_error (void)
{
  UiTestSetup setup = { 0 };
  g_autofree char *dir = g_dir_make_tmp ("test-app-servers-XXXXXX", NULL);
  g_autofree char *tools = g_build_filename (dir, "tools.json", NULL);
  g_autofree char *json = NULL;
  PlugboardToolPage *page;
  PlugboardAppView *view;
  GtkWidget *stack;
  GtkWidget *popover;
  AdwStatusPage *status;

  if (!plugboard_app_view_is_supported ())
    {
      g_test_skip ("built without WebKitGTK");
      return;
    }
  test_write_file (tools, "[{\"name\": \"broken-ui\", \"inputSchema\": {\"type\": \"object\"},"
                          " \"_meta\": {\"ui\": {\"resourceUri\": \"ui://fixture/missing.html\"}}}]");
  json = g_strdup_printf ("{\"mcpServers\": {\"fx\": {\"command\": \"%s\", \"args\": [\"--apps\", \"--tools-file=%s\"]}}}",
                          test_fixture_server (), tools);
  ui_test_setup_open (&setup, app, "test-app-servers", json, 1280, 800);

  /* Open App, no run: the fixture's page (it speaks no JSON-RPC). */
  page = ui_test_open_tool (setup.window, "mcp__fx__app-echo");
  view = show_app_view_full (page, FALSE);
  wait_js (view, "document.title === 'Fixture app'");
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (
    find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_details_button, NULL))));
  g_assert_true (has_label (popover, "writing to the clipboard"));
  {
    g_autofree char *csp = mcp_ui_resource_build_csp (mcp_app_bridge_get_resource (plugboard_app_view_get_bridge (view)));

    g_assert_nonnull (strstr (csp, "connect-src 'self' https://api.example.com"));
    g_assert_true (has_label (popover, csp));
  }
  /* no prefersBorder declared: the host draws a frame */
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_parent (GTK_WIDGET (view)), "card"));

  /* A tool whose interface the server does not have. */
  page = ui_test_open_tool (setup.window, "mcp__fx__broken-ui");
  stack = find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_app_stack, NULL);
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "app");
  status = ADW_STATUS_PAGE (find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL, is_load_error, NULL));
  TEST_WAIT_UNTIL (gtk_widget_get_child_visible (GTK_WIDGET (status)) &&
                   adw_status_page_get_description (status) != NULL);
  g_test_message ("%s", adw_status_page_get_description (status));
  g_assert_nonnull (strstr (adw_status_page_get_description (status), "missing.html"));
  g_assert_true (GTK_IS_BUTTON (adw_status_page_get_child (status)));
  g_assert_null (plugboard_app_view_get_bridge (plugboard_tool_page_get_app_view (page)));
  /* Retry asks again, and fails again the same way. */
  click (adw_status_page_get_child (status));
  TEST_WAIT_UNTIL (gtk_widget_get_child_visible (GTK_WIDGET (status)));
  /* The tool view still works. */
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "tool");
  g_assert_true (gtk_widget_get_child_visible (gtk_stack_get_child_by_name (GTK_STACK (stack), "tool")));

  ui_test_setup_clear (&setup);
  g_unlink (tools);
  g_rmdir (dir);
}

/* For the README: PLUGBOARD_TEST_SCREENSHOT set, the App view of the tool
 * PLUGBOARD_TEST_SCREENSHOT_TOOL of the npm server
 * PLUGBOARD_TEST_SCREENSHOT_SERVER after a run, with
 * PLUGBOARD_TEST_SCREENSHOT_VIEW "details" (the Details popover) or
 * "notes" (the side panel, after the page sent a message and a log), in a
 * window PLUGBOARD_TEST_SCREENSHOT_WIDTH wide, stays up 8 s for a
 * screenshot taken from outside (import -window root). */
static void
test_screenshot (void)
{
  const char *dir = g_getenv ("PLUGBOARD_TEST_SCREENSHOT");
  const char *package = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_SERVER");
  const char *tool = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_TOOL");
  const char *what = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_VIEW");
  const char *width = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_WIDTH");
  g_autofree char *entry = NULL;
  g_autofree char *json = NULL;
  g_autofree char *qualified = NULL;
  UiTestSetup setup = { 0 };
  PlugboardToolPage *page;
  PlugboardAppView *view;

  if (dir == NULL || package == NULL || tool == NULL || !plugboard_app_view_is_supported ())
    {
      g_test_skip ("PLUGBOARD_TEST_SCREENSHOT, _SERVER and _TOOL are not set");
      return;
    }
  entry = app_server_entry ("app", package);
  g_assert_nonnull (entry);
  json = g_strdup_printf ("{\"mcpServers\": {%s}, \"permissions\": {\"allow\": [\"mcp__app\"]}}", entry);
  ui_test_setup_open (&setup, app, "test-app-servers", json, width != NULL ? atoi (width) : 1280, 800);
  qualified = g_strdup_printf ("mcp__app__%s", tool);
  page = ui_test_open_tool (setup.window, qualified);
  run_tool (page);
  view = show_app_view (page);
  test_wait_ms (1500);

  if (g_strcmp0 (what, "notes") == 0)
    {
      eval_js (view, "document.getElementById('send-message-btn').click(); 'clicked'");
      eval_js (view, "document.getElementById('send-log-btn').click(); 'clicked'");
      TEST_WAIT_UNTIL (g_list_model_get_n_items (mcp_app_bridge_get_notes (plugboard_app_view_get_bridge (view))) >= 2);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL,
                                                                             is_notes_toggle, NULL)),
                                    TRUE);
    }
  else if (g_strcmp0 (what, "details") == 0)
    gtk_menu_button_popup (GTK_MENU_BUTTON (find_widget_matching (GTK_WIDGET (page), UI_WALK_ALL,
                                                                  is_details_button, NULL)));

  test_wait_ms (1000);
  g_test_message ("screenshot-ready");
  fflush (stdout);
  test_wait_ms (8000);
  ui_test_setup_clear (&setup);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_has_display ())
    return 0;

  test_root = ui_test_make_root ("test-app-servers", UI_TEST_XDG_CONFIG);
  opened_url_file = ui_test_record_opened_urls (test_root);

  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/ui/app-servers/basic-vanillajs", test_basic_vanillajs);
  g_test_add_func ("/ui/app-servers/basic-vanillajs-asked", test_basic_vanillajs_asked);
  g_test_add_func ("/ui/app-servers/budget-allocator", test_budget_allocator);
  g_test_add_func ("/ui/app-servers/customer-segmentation", test_customer_segmentation);
  g_test_add_func ("/ui/app-servers/fixture-open-app-and-error", test_fixture_open_app_and_error);
  g_test_add_func ("/ui/app-servers/screenshot", test_screenshot);

  ret = ui_test_run_and_clean (&app, &test_root);
  g_free (opened_url_file);
  return ret;
}
