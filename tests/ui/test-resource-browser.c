/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-resource-browser"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-log-entry.h"
#include "plugboard-application.h"
#include "plugboard-prompt-browser.h"
#include "plugboard-resource-browser.h"
#include "plugboard-result-view.h"
#include "plugboard-schema-form.h"
#include "plugboard-server-page.h"
#include "plugboard-window.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* The server page's Resources and Prompts tabs and its log level, in the
 * window, on the reference server-everything (node, stdio). */

static PlugboardApplication *app;
static char *test_root;

/* ------------------------------------------------------------------------ */
/* Files and the window                                                     */

typedef struct
{
  UiTestSetup          base;
  McpProject          *project;
  PlugboardWindow     *window;
  PlugboardServerPage *page;
  McpServerConnection *connection;
} Setup;

static gboolean
settled_state (gpointer data)
{
  McpServerState state = mcp_server_connection_get_state (data);

  return state == MCP_SERVER_STATE_CONNECTED || state == MCP_SERVER_STATE_FAILED;
}

/* @servers: the body of the user scope's "mcpServers"; the page shows
 * @name once it is connected or failed. */
static void
setup_open_servers (Setup      *setup,
                    const char *servers,
                    const char *name)
{
  g_autofree char *json = g_strdup_printf ("{\"mcpServers\": {%s}}", servers);

  ui_test_setup_open (&setup->base, app, "test-resource-browser", json, 1280, 800);
  setup->project = setup->base.project;
  setup->window = setup->base.window;

  setup->connection = mcp_server_manager_lookup (mcp_project_get_manager (setup->project), name);
  g_assert_nonnull (setup->connection);
  g_object_ref (setup->connection);
  test_iterate_until (settled_state, setup->connection, "the server to connect or fail");

  g_assert_true (plugboard_window_show_server (setup->window, name));
  setup->page = PLUGBOARD_SERVER_PAGE (gtk_widget_get_template_child (GTK_WIDGET (setup->window),
                                                                      PLUGBOARD_TYPE_WINDOW,
                                                                      "server_page"));
  g_assert_true (plugboard_server_page_get_connection (setup->page) == setup->connection);
  test_iterate_pending ();
}

/* FALSE (and the test skipped) without node or server-everything. */
static gboolean
setup_open (Setup *setup)
{
  g_autofree char *servers = everything_servers ();

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-everything in MCP_TEST_NODE_MODULES is missing");
      return FALSE;
    }

  setup_open_servers (setup, servers, "everything");
  g_assert_cmpint (mcp_server_connection_get_state (setup->connection), ==, MCP_SERVER_STATE_CONNECTED);
  return TRUE;
}

static void
setup_clear (Setup *setup)
{
  g_clear_object (&setup->connection);
  setup->project = NULL;
  setup->window = NULL;
  ui_test_setup_clear (&setup->base);
}

/* ------------------------------------------------------------------------ */
/* Finding widgets                                                          */

static GtkWidget *
find_button_with_label (GtkWidget  *widget,
                        const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_with_label (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_button_with_tooltip (GtkWidget  *widget,
                          const char *tooltip)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_with_tooltip (child, tooltip);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
show_tab (Setup      *setup,
          const char *name)
{
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (GTK_WIDGET (setup->page), ADW_TYPE_VIEW_STACK));

  g_assert_nonnull (stack);
  adw_view_stack_set_visible_child_name (stack, name);
  test_wait_ms (50);
  return adw_view_stack_get_child_by_name (stack, name);
}

static GtkSingleSelection *
list_selection (GtkWidget *browser)
{
  GtkListView *list = GTK_LIST_VIEW (find_widget (browser, GTK_TYPE_LIST_VIEW));

  g_assert_nonnull (list);
  return GTK_SINGLE_SELECTION (gtk_list_view_get_model (list));
}

/* Selects the item whose URI (resource), URI template or name (prompt) is
 * @key. */
static void
select_item (GtkWidget  *browser,
             const char *key)
{
  GtkSingleSelection *selection = list_selection (browser);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (selection));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (selection), i);
      const char *item_key;

      if (MCP_IS_RESOURCE (item))
        item_key = mcp_resource_get_uri (MCP_RESOURCE (item));
      else if (MCP_IS_RESOURCE_TEMPLATE (item))
        item_key = mcp_resource_template_get_uri_template (MCP_RESOURCE_TEMPLATE (item));
      else
        item_key = mcp_prompt_get_name (MCP_PROMPT (item));

      if (g_strcmp0 (item_key, key) == 0)
        {
          gtk_single_selection_set_selected (selection, i);
          test_wait_ms (50);
          return;
        }
    }

  g_error ("no item %s in the list", key);
}

/* The first widget at or below @widget with the style class @css_class,
 * depth first. */
static GtkWidget *
find_with_class (GtkWidget  *widget,
                 const char *css_class)
{
  if (gtk_widget_has_css_class (widget, css_class))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_with_class (child, css_class);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The suggestions' popover of @editable, NULL before it has had any (the
 * row of a schema form has popovers of its own: the description's). */
static GtkWidget *
completion_popover (GtkWidget *editable)
{
  return find_with_class (editable, "plugboard-completion");
}

static gboolean
completion_shown (GtkWidget *editable)
{
  GtkWidget *popover = completion_popover (editable);

  return popover != NULL && gtk_widget_get_visible (popover);
}

/* The detail pane's editables: a template's variables (GtkEntry) or a
 * prompt's arguments (the AdwEntryRows of its schema form), in order. */
static GPtrArray *
detail_entries (GtkWidget *browser)
{
  GPtrArray *entries = g_ptr_array_new ();
  GtkWidget *grid;

  if (PLUGBOARD_IS_PROMPT_BROWSER (browser))
    {
      GtkWidget *form = find_widget (browser, PLUGBOARD_TYPE_SCHEMA_FORM);

      g_assert_nonnull (form);
      collect_widgets (form, ADW_TYPE_ENTRY_ROW, entries);
      return entries;
    }

  grid = find_widget (browser, GTK_TYPE_GRID);
  g_assert_nonnull (grid);
  for (int row = 0; ; row++)
    {
      GtkWidget *entry = gtk_grid_get_child_at (GTK_GRID (grid), 1, row);

      if (entry == NULL)
        break;
      g_ptr_array_add (entries, entry);
    }

  return entries;
}

typedef struct
{
  GtkWidget  *widget;
  const char *text;
} LabelWait;

static gboolean
label_shown (gpointer data)
{
  LabelWait *wait = data;

  return has_visible_label_with (wait->widget, wait->text);
}

static void
wait_for_label (GtkWidget  *widget,
                const char *text)
{
  LabelWait wait = { widget, text };

  test_iterate_until (label_shown, &wait, text);
}

/* A popover under @entry showing @suggestion, from completion/complete. */
typedef struct
{
  GtkWidget  *entry;
  const char *suggestion;
} SuggestionWait;

static gboolean
suggestion_shown (gpointer data)
{
  SuggestionWait *wait = data;

  return completion_shown (wait->entry) &&
         has_visible_label_with (completion_popover (wait->entry), wait->suggestion);
}

static void
type_and_wait_for_suggestion (GtkWidget  *entry,
                              const char *text,
                              const char *suggestion)
{
  SuggestionWait wait = { entry, suggestion };
  GtkWidget *focus;

  /* suggestions are for the editable the keyboard is in (an AdwEntryRow
   * passes the focus on to its GtkText) */
  g_assert_true (gtk_widget_grab_focus (entry));
  focus = gtk_root_get_focus (gtk_widget_get_root (entry));
  g_assert_true (focus != NULL && (focus == entry || gtk_widget_is_ancestor (focus, entry)));
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  test_iterate_until (suggestion_shown, &wait, suggestion);
}

/* Takes @suggestion as a person would: Down from the entry into the
 * suggestions, then the row's activation (Enter). */
static void
choose_suggestion (GtkWidget  *entry,
                   const char *suggestion)
{
  GtkWidget *popover = completion_popover (entry);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  g_assert_nonnull (popover);
  collect_widgets (popover, GTK_TYPE_LIST_BOX_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (has_visible_label_with (row, suggestion))
        {
          gtk_widget_activate (row);
          test_iterate_pending ();
          return;
        }
    }

  g_error ("no suggestion %s", suggestion);
}

/* The suggestion @data (a GtkLabel) has the width it needs: they were all
 * cut to "…" once. */
static gboolean
label_not_cut (gpointer data)
{
  int natural;

  gtk_widget_measure (data, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return gtk_widget_get_width (data) >= natural;
}

static void
wait_until_not_cut (GtkWidget  *popover,
                    const char *suggestion)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_widgets (popover, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), suggestion) == 0)
      {
        test_iterate_until (label_not_cut, g_ptr_array_index (labels, i), "the suggestion at its full width");
        return;
      }

  g_error ("no suggestion %s", suggestion);
}

/* Enter in @editable: its GtkText's "activate", which Enter emits (an
 * AdwEntryRow's GtkText has no activate signal for gtk_widget_activate). */
static void
press_enter (GtkWidget *editable)
{
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (editable)), "activate");
}

static gboolean
result_has_blocks (gpointer data)
{
  return plugboard_result_view_get_n_blocks (data) > 0;
}

static PlugboardResultView *
read_and_wait (GtkWidget *browser)
{
  GtkWidget *read = find_button_with_label (browser, "_Read");
  PlugboardResultView *view = PLUGBOARD_RESULT_VIEW (find_widget (browser, PLUGBOARD_TYPE_RESULT_VIEW));

  g_assert_nonnull (read);
  g_assert_true (gtk_widget_is_sensitive (read));
  plugboard_result_view_clear (view);
  gtk_widget_activate (read);
  test_iterate_until (result_has_blocks, view, "the resource's contents");
  return view;
}

static char *
docs_file (const char *name)
{
  return g_build_filename (g_getenv ("MCP_TEST_NODE_MODULES"), "@modelcontextprotocol",
                           "server-everything", "dist", "docs", name, NULL);
}

/* ------------------------------------------------------------------------ */
/* Resources                                                                */

typedef struct
{
  GListModel *model;
  guint       n;
} ModelCount;

static gboolean
model_has_n (gpointer data)
{
  ModelCount *count = data;

  return g_list_model_get_n_items (count->model) == count->n;
}

static void
test_resources_list_and_read (void)
{
  Setup setup = { 0 };
  GtkWidget *browser;
  GtkSingleSelection *selection;
  PlugboardResultView *view;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  guint n_resources, n_templates;
  gboolean saw_template = FALSE;
  ModelCount count;

  if (!setup_open (&setup))
    return;

  browser = show_tab (&setup, "resources");
  g_assert_true (PLUGBOARD_IS_RESOURCE_BROWSER (browser));

  /* Every resource and template the server lists, in one list. */
  n_resources = g_list_model_get_n_items (mcp_server_connection_get_resources (setup.connection));
  n_templates = g_list_model_get_n_items (mcp_server_connection_get_resource_templates (setup.connection));
  g_assert_cmpuint (n_resources, >=, 7);
  g_assert_cmpuint (n_templates, ==, 2);
  selection = list_selection (browser);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, n_resources + n_templates);
  for (guint i = 0; i < n_resources + n_templates; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (MCP_IS_RESOURCE_TEMPLATE (item) &&
          g_str_equal (mcp_resource_template_get_uri_template (MCP_RESOURCE_TEMPLATE (item)),
                       "demo://resource/dynamic/text/{resourceId}"))
        saw_template = TRUE;
    }
  g_assert_true (saw_template);
  wait_for_label (browser, "demo://resource/static/document/architecture.md");

  /* The search narrows the list (after the search entry's own delay). */
  gtk_editable_set_text (GTK_EDITABLE (find_widget (browser, GTK_TYPE_SEARCH_ENTRY)), "Blob");
  count.model = G_LIST_MODEL (selection);
  count.n = 1;
  test_iterate_until (model_has_n, &count, "the search to narrow the list");
  gtk_editable_set_text (GTK_EDITABLE (find_widget (browser, GTK_TYPE_SEARCH_ENTRY)), "");
  count.n = n_resources + n_templates;
  test_iterate_until (model_has_n, &count, "the search to be cleared");

  /* A text resource: its text, as the file it serves. */
  select_item (browser, "demo://resource/static/document/architecture.md");
  wait_for_label (browser, "text/markdown");
  view = read_and_wait (browser);
  g_assert_cmpuint (plugboard_result_view_get_n_blocks (view), ==, 1);
  text = plugboard_result_view_dup_text (view);
  path = docs_file ("architecture.md");
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (text, contents));

  setup_clear (&setup);
}

static gboolean
saved_file_shown (GtkWidget  *widget,
                  const char *expected,
                  char      **found)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_widgets (widget, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (g_ptr_array_index (labels, i));
      g_autofree char *contents = NULL;

      if (g_path_is_absolute (text) && gtk_widget_is_visible (g_ptr_array_index (labels, i)) &&
          g_file_get_contents (text, &contents, NULL, NULL) &&
          g_str_has_prefix (contents, expected))
        {
          *found = g_strdup (text);
          return TRUE;
        }
    }

  return FALSE;
}

typedef struct
{
  GtkWidget  *view;
  const char *expected;
} SavedWait;

static gboolean
saved_file_ready (gpointer data)
{
  SavedWait *wait = data;
  g_autofree char *found = NULL;

  return saved_file_shown (wait->view, wait->expected, &found);
}

static void
test_resources_templates (void)
{
  Setup setup = { 0 };
  GtkWidget *browser;
  PlugboardResultView *view;
  g_autoptr(GPtrArray) entries = NULL;
  g_autofree char *text = NULL;
  g_autofree char *saved = NULL;
  GtkWidget *read;
  SavedWait saved_wait;

  if (!setup_open (&setup))
    return;

  browser = show_tab (&setup, "resources");

  /* The text template: one variable; Read waits for it. */
  select_item (browser, "demo://resource/dynamic/text/{resourceId}");
  entries = detail_entries (browser);
  g_assert_cmpuint (entries->len, ==, 1);
  read = find_button_with_label (browser, "_Read");
  g_assert_false (gtk_widget_is_sensitive (read));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (read), "resourceId"));

  /* The server's refusal, on the page. */
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "abc");
  g_assert_true (gtk_widget_is_sensitive (read));
  gtk_widget_activate (read);
  wait_for_label (browser, "Could not read demo://resource/dynamic/text/abc");
  g_assert_true (gtk_widget_is_sensitive (read));

  /* server-everything completes a resource id with itself when it is a
   * positive integer. */
  type_and_wait_for_suggestion (g_ptr_array_index (entries, 0), "7", "7");
  g_assert_true (has_visible_label_with (browser, "demo://resource/dynamic/text/7"));
  view = read_and_wait (browser);
  /* Read closes the suggestions (issue 21: they stayed open over the result) */
  g_assert_false (completion_shown (g_ptr_array_index (entries, 0)));
  text = plugboard_result_view_dup_text (view);
  g_assert_nonnull (strstr (text, "Resource 7: This is a plaintext resource"));
  g_assert_false (has_visible_label_with (browser, "Could not read"));
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* The blob template: a blob with no image type is saved to a file. */
  select_item (browser, "demo://resource/dynamic/blob/{resourceId}");
  entries = detail_entries (browser);
  g_assert_cmpuint (entries->len, ==, 1);
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "3");
  view = read_and_wait (browser);
  g_assert_cmpuint (plugboard_result_view_get_n_blocks (view), ==, 1);
  saved_wait.view = GTK_WIDGET (view);
  saved_wait.expected = "Resource 3: This is a base64 blob";
  test_iterate_until (saved_file_ready, &saved_wait, "the saved blob's row");
  g_assert_true (saved_file_shown (GTK_WIDGET (view), "Resource 3: This is a base64 blob", &saved));
  g_assert_nonnull (find_button_with_label (GTK_WIDGET (view), "_Save As…"));

  setup_clear (&setup);
}

static void
tool_called_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static void
call_tool (Setup      *setup,
           const char *name)
{
  gboolean done = FALSE;

  mcp_client_call_tool_async (mcp_server_connection_get_client (setup->connection), name, NULL, NULL,
                              NULL, tool_called_cb, &done);
  test_iterate_until (test_flag_set, &done, name);
}

typedef struct
{
  McpServerConnection *connection;
  const char          *uri;
} SubscribedWait;

static gboolean
subscribed (gpointer data)
{
  SubscribedWait *wait = data;

  return mcp_server_connection_is_subscribed (wait->connection, wait->uri);
}

static gboolean
widget_sensitive (gpointer data)
{
  return gtk_widget_is_sensitive (data);
}

static gboolean
unsubscribed (gpointer data)
{
  return !subscribed (data);
}

static gboolean
update_dot_shown (gpointer data)
{
  return has_visible_class (find_widget (data, GTK_TYPE_LIST_VIEW), "plugboard-update-dot");
}

static void
test_resources_subscribe (void)
{
  Setup setup = { 0 };
  GtkWidget *browser;
  GtkWidget *toggle;
  SubscribedWait wait;
  const char *uri = "demo://resource/static/document/features.md";

  if (!setup_open (&setup))
    return;

  browser = show_tab (&setup, "resources");
  select_item (browser, uri);
  toggle = find_widget (browser, GTK_TYPE_SWITCH);
  g_assert_nonnull (toggle);
  g_assert_true (gtk_widget_is_sensitive (toggle));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (toggle)));
  g_assert_false (has_visible_label_with (browser, "Updated "));

  gtk_switch_set_active (GTK_SWITCH (toggle), TRUE);
  wait.connection = setup.connection;
  wait.uri = uri;
  test_iterate_until (subscribed, &wait, "the subscription");

  /* server-everything sends notifications/resources/updated for each
   * subscribed resource once this tool starts it, then every 5 s. */
  call_tool (&setup, "toggle-subscriber-updates");
  wait_for_label (browser, "Updated ");
  test_iterate_until (update_dot_shown, browser, "the update dot in the list");

  /* And off again. */
  gtk_switch_set_active (GTK_SWITCH (toggle), FALSE);
  test_iterate_until (unsubscribed, &wait, "the subscription's end");
  test_iterate_until (widget_sensitive, toggle, "the switch to be usable again");
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (toggle)));

  setup_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* Prompts                                                                  */

static GtkWidget *
get_button (GtkWidget *browser)
{
  GtkWidget *button = find_button_with_label (browser, "_Get Prompt");

  g_assert_nonnull (button);
  return button;
}

static void
test_prompts (void)
{
  Setup setup = { 0 };
  GtkWidget *browser;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *get;
  g_autofree char *resource_text = NULL;

  if (!setup_open (&setup))
    return;

  browser = show_tab (&setup, "prompts");
  g_assert_true (PLUGBOARD_IS_PROMPT_BROWSER (browser));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list_selection (browser))), ==, 4);

  /* No arguments: one user message. */
  select_item (browser, "simple-prompt");
  get = get_button (browser);
  g_assert_true (gtk_widget_is_sensitive (get));
  gtk_widget_activate (get);
  wait_for_label (browser, "This is a simple prompt without arguments.");
  g_assert_true (has_visible_label_with (browser, "User"));

  /* A required argument: Get waits for it and says which. The arguments
   * are the schema form's rows, as a tool's are: the required one marked,
   * the description behind the row's help button. */
  select_item (browser, "args-prompt");
  g_assert_false (has_visible_label_with (browser, "This is a simple prompt"));
  entries = detail_entries (browser);
  g_assert_cmpuint (entries->len, ==, 2);
  get = get_button (browser);
  g_assert_false (gtk_widget_is_sensitive (get));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (get), "city"));
  g_assert_cmpstr (adw_preferences_row_get_title (g_ptr_array_index (entries, 0)), ==, "city *");
  g_assert_cmpstr (adw_preferences_row_get_title (g_ptr_array_index (entries, 1)), ==, "state");
  g_assert_true (has_visible_label_with (browser, "city *"));
  g_assert_true (has_visible_label_with (browser, "* required"));
  collect_widgets (g_ptr_array_index (entries, 0), GTK_TYPE_MENU_BUTTON, buttons);
  g_assert_cmpuint (buttons->len, ==, 1);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (g_ptr_array_index (buttons, 0)), ==, "Name of the city");
  /* Enter with the required argument empty gets nothing */
  press_enter (g_ptr_array_index (entries, 0));
  g_assert_false (gtk_widget_get_visible (find_widget (browser, GTK_TYPE_SPINNER)));
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "Paris");
  g_assert_true (gtk_widget_is_sensitive (get));
  /* Enter in a row gets the prompt, as the Get button does */
  press_enter (g_ptr_array_index (entries, 0));
  wait_for_label (browser, "What's weather in Paris?");
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* Completion, the second argument's with the first as context. */
  select_item (browser, "completable-prompt");
  entries = detail_entries (browser);
  g_assert_cmpuint (entries->len, ==, 2);
  type_and_wait_for_suggestion (g_ptr_array_index (entries, 0), "E", "Engineering");
  wait_until_not_cut (completion_popover (g_ptr_array_index (entries, 0)), "Engineering");
  choose_suggestion (g_ptr_array_index (entries, 0), "Engineering");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (g_ptr_array_index (entries, 0))), ==, "Engineering");
  /* Taking a suggestion does not ask again. */
  test_wait_ms (400);
  g_assert_false (completion_shown (g_ptr_array_index (entries, 0)));
  type_and_wait_for_suggestion (g_ptr_array_index (entries, 1), "A", "Alice");
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* An embedded resource in the messages. */
  select_item (browser, "resource-prompt");
  entries = detail_entries (browser);
  g_assert_cmpuint (entries->len, ==, 2);
  type_and_wait_for_suggestion (g_ptr_array_index (entries, 0), "T", "Text");
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "Text");
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 1)), "2");
  get = get_button (browser);

  /* The server's refusal, on the page; Get closes the suggestions (they
   * stayed open over the result). */
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 1)), "0");
  g_assert_true (completion_shown (g_ptr_array_index (entries, 0)));
  gtk_widget_activate (get);
  wait_for_label (browser, "Could not get the prompt “resource-prompt”");
  g_assert_true (has_visible_label_with (browser, "Invalid resourceId"));
  g_assert_true (gtk_widget_is_sensitive (get));
  g_assert_false (completion_shown (g_ptr_array_index (entries, 0)));

  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 1)), "2");
  gtk_widget_activate (get);
  wait_for_label (browser, "This prompt includes the Text resource with id: 2");
  g_assert_false (has_visible_label_with (browser, "Could not get the prompt"));
  collect_widgets (browser, PLUGBOARD_TYPE_RESULT_VIEW, views);
  g_assert_cmpuint (views->len, ==, 1);
  test_iterate_until (result_has_blocks, g_ptr_array_index (views, 0), "the embedded resource");
  resource_text = plugboard_result_view_dup_text (g_ptr_array_index (views, 0));
  g_assert_nonnull (strstr (resource_text, "Resource 2: This is a plaintext resource"));

  setup_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* The log level                                                            */

static gboolean
level_is_debug (gpointer data)
{
  return g_strcmp0 (mcp_server_connection_get_log_level (data), "debug") == 0;
}

static McpLogEntry *
last_message_entry (McpServerConnection *connection)
{
  GListModel *log = mcp_server_connection_get_log (connection);

  for (guint i = g_list_model_get_n_items (log); i > 0; i--)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i - 1);

      if (mcp_log_entry_get_kind (entry) == MCP_LOG_ENTRY_MESSAGE)
        return g_steal_pointer (&entry);
    }

  return NULL;
}

static gboolean
message_logged (gpointer data)
{
  g_autoptr(McpLogEntry) entry = last_message_entry (data);

  return entry != NULL;
}

typedef struct
{
  GtkWidget *log_view;
  char      *text;
} LogWait;

static gboolean
log_row_shown (gpointer data)
{
  LogWait *wait = data;

  return has_visible_label_with (wait->log_view, wait->text);
}

/* warning and above stand out, debug recedes, the rest reads plainly. */
static void
assert_level_style (GtkWidget  *log_view,
                    const char *text,
                    const char *level)
{
  static const char * const errors[] = { "error", "critical", "alert", "emergency", NULL };
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  const char *expected = NULL;
  GtkWidget *label = NULL;

  if (g_str_equal (level, "debug"))
    expected = "plugboard-log-debug";
  else if (g_str_equal (level, "warning"))
    expected = "plugboard-log-warning";
  else if (g_strv_contains (errors, level))
    expected = "plugboard-log-error";

  collect_widgets (log_view, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len && label == NULL; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), text))
      label = g_ptr_array_index (labels, i);
  g_assert_nonnull (label);

  g_assert_true (gtk_widget_has_css_class (label, "plugboard-log-debug") == (g_strcmp0 (expected, "plugboard-log-debug") == 0));
  g_assert_true (gtk_widget_has_css_class (label, "plugboard-log-warning") == (g_strcmp0 (expected, "plugboard-log-warning") == 0));
  g_assert_true (gtk_widget_has_css_class (label, "plugboard-log-error") == (g_strcmp0 (expected, "plugboard-log-error") == 0));
}

static void
test_log_level (void)
{
  Setup setup = { 0 };
  GtkDropDown *dropdown;
  GtkStringList *levels;
  g_autoptr(McpLogEntry) entry = NULL;
  LogWait wait;

  if (!setup_open (&setup))
    return;

  show_tab (&setup, "overview");
  dropdown = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (setup.page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                           "log_level_dropdown"));
  g_assert_nonnull (dropdown);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  levels = GTK_STRING_LIST (gtk_drop_down_get_model (dropdown));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (levels)), ==, 9);
  g_assert_cmpstr (gtk_string_list_get_string (levels, 1), ==, "debug");

  gtk_drop_down_set_selected (dropdown, 1);
  test_iterate_until (level_is_debug, setup.connection, "the server to take the level");
  test_iterate_pending ();
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (dropdown)));

  /* logging/setLevel cannot take a level back: "Default" says so. */
  gtk_drop_down_set_selected (dropdown, 0);
  test_iterate_pending ();
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_assert_true (has_visible_label_with (GTK_WIDGET (setup.page), "keeps the last level"));
  g_assert_cmpstr (mcp_server_connection_get_log_level (setup.connection), ==, "debug");

  /* At debug, server-everything's simulated log (a message of a random
   * level now, then every 5 s) all arrives. */
  call_tool (&setup, "toggle-simulated-logging");
  test_iterate_until (message_logged, setup.connection, "a notifications/message in the log");
  entry = last_message_entry (setup.connection);
  g_assert_nonnull (mcp_log_entry_get_level (entry));
  g_assert_true (g_strv_contains (mcp_client_get_log_levels (), mcp_log_entry_get_level (entry)));

  wait.log_view = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (setup.page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                             "log_view"));
  wait.text = g_strdup (mcp_log_entry_get_text (entry));
  test_iterate_until (log_row_shown, &wait, "the message in the log view");
  assert_level_style (wait.log_view, wait.text, mcp_log_entry_get_level (entry));
  g_free (wait.text);

  setup_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* A server without resources and prompts, one that is not connected       */

static char *
fixture_servers (void)
{
  const char *path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_assert_nonnull (path);
  return g_strdup_printf ("\"fixture\": {\"command\": \"%s\"}", path);
}

static gboolean
stderr_logged (gpointer data)
{
  GListModel *log = mcp_server_connection_get_log (data);

  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (log, i);

      if (mcp_log_entry_get_kind (entry) == MCP_LOG_ENTRY_STDERR &&
          g_str_equal (mcp_log_entry_get_text (entry), "logging/setLevel warning"))
        return TRUE;
    }

  return FALSE;
}

static gboolean
level_is_warning (gpointer data)
{
  return g_strcmp0 (mcp_server_connection_get_log_level (data), "warning") == 0;
}

static void
test_without_resources (void)
{
  g_autofree char *servers = fixture_servers ();
  Setup setup = { 0 };
  GtkWidget *browser;
  GtkDropDown *dropdown;
  AdwStatusPage *status;

  setup_open_servers (&setup, servers, "fixture");
  g_assert_cmpint (mcp_server_connection_get_state (setup.connection), ==, MCP_SERVER_STATE_CONNECTED);

  browser = show_tab (&setup, "resources");
  status = ADW_STATUS_PAGE (find_widget (browser, ADW_TYPE_STATUS_PAGE));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "No Resources");
  g_assert_cmpstr (adw_status_page_get_description (status), ==, "This server offers no resources.");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (adw_bin_get_child (ADW_BIN (browser)))), ==, "status");

  browser = show_tab (&setup, "prompts");
  status = ADW_STATUS_PAGE (find_widget (browser, ADW_TYPE_STATUS_PAGE));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "No Prompts");
  g_assert_cmpstr (adw_status_page_get_description (status), ==, "This server offers no prompts.");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (adw_bin_get_child (ADW_BIN (browser)))), ==, "status");

  /* The fixture declares logging and says on stderr which level it got. */
  show_tab (&setup, "overview");
  dropdown = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (setup.page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                           "log_level_dropdown"));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (dropdown)));
  gtk_drop_down_set_selected (dropdown, 4);
  test_iterate_until (level_is_warning, setup.connection, "the level warning");
  test_iterate_until (stderr_logged, setup.connection, "the fixture's stderr line");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 4);

  setup_clear (&setup);
}

static void
test_not_connected (void)
{
  Setup setup = { 0 };
  GtkWidget *browser;
  GtkWidget *dropdown;
  AdwStatusPage *status;

  setup_open_servers (&setup, "\"broken\": {\"command\": \"/nonexistent/plugboard-no-such-server\"}", "broken");
  g_assert_cmpint (mcp_server_connection_get_state (setup.connection), !=, MCP_SERVER_STATE_CONNECTED);

  browser = show_tab (&setup, "resources");
  status = ADW_STATUS_PAGE (find_widget (browser, ADW_TYPE_STATUS_PAGE));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Not Connected");
  browser = show_tab (&setup, "prompts");
  status = ADW_STATUS_PAGE (find_widget (browser, ADW_TYPE_STATUS_PAGE));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Not Connected");

  show_tab (&setup, "overview");
  dropdown = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (setup.page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                        "log_level_dropdown"));
  g_assert_false (gtk_widget_is_sensitive (dropdown));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (dropdown), "connected"));

  setup_clear (&setup);
}

static gboolean
roots_dialog_open (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (g_str_equal (G_OBJECT_TYPE_NAME (item), "PlugboardRootsDialog") &&
          gtk_widget_get_visible (GTK_WIDGET (item)))
        return TRUE;
    }

  return FALSE;
}

static void
test_roots_button (void)
{
  g_autofree char *servers = fixture_servers ();
  Setup setup = { 0 };
  GtkWidget *button;
  GVariant *target;

  setup_open_servers (&setup, servers, "fixture");
  button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (setup.page), PLUGBOARD_TYPE_SERVER_PAGE,
                                                      "roots_button"));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.edit-roots");
  target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, "fixture");

  gtk_widget_activate (button);
  test_iterate_until (roots_dialog_open, NULL, "the roots dialog");

  setup_clear (&setup);
}

static gboolean
leaflet_folded (gpointer data)
{
  return adw_leaflet_get_folded (data);
}

static gboolean
showing_list (gpointer data)
{
  return g_strcmp0 (adw_leaflet_get_visible_child_name (data), "list") == 0;
}

/* At 360 px the list and the detail are one page each: choosing opens
 * the detail, Back returns to the list, choosing again opens it again. */
static void
test_narrow (void)
{
  Setup setup = { 0 };
  GtkWidget *browser;
  AdwLeaflet *leaflet;
  GtkWidget *back;

  if (!setup_open (&setup))
    return;

  gtk_window_set_default_size (GTK_WINDOW (setup.window), 360, 800);
  browser = show_tab (&setup, "resources");
  leaflet = ADW_LEAFLET (find_widget (browser, ADW_TYPE_LEAFLET));
  test_iterate_until (leaflet_folded, leaflet, "the browser to fold");
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (setup.window)), <=, 400);
  g_assert_cmpstr (adw_leaflet_get_visible_child_name (leaflet), ==, "list");

  for (int i = 0; i < 2; i++)
    {
      select_item (browser, "demo://resource/static/document/startup.md");
      g_assert_cmpstr (adw_leaflet_get_visible_child_name (leaflet), ==, "detail");
      back = find_button_with_tooltip (browser, "Back to the List");
      g_assert_nonnull (back);
      g_assert_true (gtk_widget_get_visible (back));
      /* A button's activation clicks it a moment later. */
      gtk_widget_activate (back);
      test_iterate_until (showing_list, leaflet, "the list");
      g_assert_cmpuint (gtk_single_selection_get_selected (list_selection (browser)), ==, GTK_INVALID_LIST_POSITION);
    }

  setup_clear (&setup);
}

/* ------------------------------------------------------------------------ */
/* A screenshot                                                             */

/* PLUGBOARD_TEST_SCREENSHOT set: holds one state on screen for 12 s, for
 * `import -window root` from outside. PLUGBOARD_TEST_SCREENSHOT_VIEW:
 * "resources" (a text resource read; the default), "template" (the blob
 * template with a completion), "prompts" (the resource prompt's messages),
 * "prompt-arguments" (the completable prompt's form with a completion),
 * "log" (the overview's log at level debug) or "overview" (its top);
 * PLUGBOARD_TEST_SCREENSHOT_WIDTH: the window's width (1280). */
static void
test_screenshot (void)
{
  const char *view = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_VIEW");
  Setup setup = { 0 };
  GtkWidget *browser;
  g_autoptr(GPtrArray) entries = NULL;

  if (g_getenv ("PLUGBOARD_TEST_SCREENSHOT") == NULL)
    {
      g_test_skip ("PLUGBOARD_TEST_SCREENSHOT is not set");
      return;
    }
  if (!setup_open (&setup))
    return;
  if (g_getenv ("PLUGBOARD_TEST_SCREENSHOT_WIDTH") != NULL)
    gtk_window_set_default_size (GTK_WINDOW (setup.window),
                                 atoi (g_getenv ("PLUGBOARD_TEST_SCREENSHOT_WIDTH")), 800);

  if (g_strcmp0 (view, "template") == 0)
    {
      browser = show_tab (&setup, "resources");
      select_item (browser, "demo://resource/dynamic/blob/{resourceId}");
      entries = detail_entries (browser);
      gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "3");
      read_and_wait (browser);
      type_and_wait_for_suggestion (g_ptr_array_index (entries, 0), "4", "4");
    }
  else if (g_strcmp0 (view, "prompts") == 0)
    {
      browser = show_tab (&setup, "prompts");
      select_item (browser, "resource-prompt");
      entries = detail_entries (browser);
      gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "Text");
      gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 1)), "2");
      gtk_widget_activate (get_button (browser));
      wait_for_label (browser, "This prompt includes the Text resource with id: 2");
    }
  else if (g_strcmp0 (view, "prompt-arguments") == 0)
    {
      browser = show_tab (&setup, "prompts");
      select_item (browser, "completable-prompt");
      entries = detail_entries (browser);
      type_and_wait_for_suggestion (g_ptr_array_index (entries, 0), "E", "Engineering");
    }
  else if (g_strcmp0 (view, "log") == 0)
    {
      GtkDropDown *dropdown = GTK_DROP_DOWN (gtk_widget_get_template_child (GTK_WIDGET (setup.page),
                                                                            PLUGBOARD_TYPE_SERVER_PAGE,
                                                                            "log_level_dropdown"));
      GtkScrolledWindow *scroller;

      show_tab (&setup, "overview");
      gtk_drop_down_set_selected (dropdown, 1);
      test_iterate_until (level_is_debug, setup.connection, "the server to take the level");
      call_tool (&setup, "toggle-simulated-logging");
      test_iterate_until (message_logged, setup.connection, "a notifications/message in the log");
      test_wait_ms (6000);
      scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (dropdown), GTK_TYPE_SCROLLED_WINDOW));
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (scroller),
                                gtk_adjustment_get_upper (gtk_scrolled_window_get_vadjustment (scroller)));
    }
  else if (g_strcmp0 (view, "overview") == 0)
    show_tab (&setup, "overview");
  else
    {
      browser = show_tab (&setup, "resources");
      select_item (browser, "demo://resource/static/document/features.md");
      read_and_wait (browser);
    }

  test_wait_ms (12000);
  setup_clear (&setup);
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_has_display ())
    return 0;

  /* Nothing of the person's settings is read or written. */
  test_root = ui_test_make_root ("test-resource-browser", UI_TEST_XDG_CONFIG);

  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/ui/resource-browser/list-and-read", test_resources_list_and_read);
  g_test_add_func ("/ui/resource-browser/templates", test_resources_templates);
  g_test_add_func ("/ui/resource-browser/subscribe", test_resources_subscribe);
  g_test_add_func ("/ui/prompt-browser/prompts", test_prompts);
  g_test_add_func ("/ui/server-page/log-level", test_log_level);
  g_test_add_func ("/ui/resource-browser/without-resources", test_without_resources);
  g_test_add_func ("/ui/resource-browser/not-connected", test_not_connected);
  g_test_add_func ("/ui/server-page/roots-button", test_roots_button);
  g_test_add_func ("/ui/resource-browser/narrow", test_narrow);
  g_test_add_func ("/ui/resource-browser/screenshot", test_screenshot);

  ret = ui_test_run_and_clean (&app, &test_root);

  return ret;
}
