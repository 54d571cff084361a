/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sampling-dialog"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-form-field.h"
#include "mcp-tool-history.h"
#include "plugboard-application.h"
#include "plugboard-result-view.h"
#include "plugboard-roots-dialog.h"
#include "plugboard-sampling-dialog.h"
#include "plugboard-schema-form.h"
#include "plugboard-tool-page.h"
#include "plugboard-window.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* What servers ask of the client, answered by a person: the sampling
 * dialog alone, the roots dialog alone, and both through the window with
 * the reference server-everything (node) over stdio. */

static PlugboardApplication *app;
static char *test_root;

/* ------------------------------------------------------------------------ */
/* Widgets                                                                  */

static gboolean
sampling_dialog_shown (gpointer data)
{
  return find_toplevel (PLUGBOARD_TYPE_SAMPLING_DIALOG) != NULL;
}

static gboolean
no_sampling_dialog (gpointer data)
{
  return find_toplevel (PLUGBOARD_TYPE_SAMPLING_DIALOG) == NULL;
}

/* Holds @window on screen for screenshots taken from outside
 * (PLUGBOARD_TEST_SCREENSHOT_HOLD=seconds): scrolled to the top, then
 * for as long again scrolled to the end. */
static void
hold_for_screenshot (GtkWidget *window)
{
  const char *hold = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_HOLD");
  GtkWidget *scrolled;
  guint ms;

  if (hold == NULL || hold[0] == '\0')
    return;

  ms = 1000 * (guint) g_ascii_strtoull (hold, NULL, 10);
  test_wait_ms (ms);
  scrolled = find_widget (window, GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled != NULL)
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    }
  test_wait_ms (ms);
}

/* ------------------------------------------------------------------------ */
/* The sampling dialog alone                                                */

/* A 4×4 red PNG. */
#define TINY_PNG "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg=="

static const char request_json[] =
  "{"
  "  \"messages\": ["
  "    {\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"Which city is on this map?\"}},"
  "    {\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"Please send the map.\"}},"
  "    {\"role\": \"user\", \"content\": ["
  "      {\"type\": \"image\", \"data\": \"" TINY_PNG "\", \"mimeType\": \"image/png\"},"
  "      {\"type\": \"audio\", \"data\": \"UklGRiQAAABXQVZF\", \"mimeType\": \"audio/wav\"},"
  "      {\"type\": \"resource\", \"resource\": {\"uri\": \"file:///notes/map.txt\", \"text\": \"north up\"}},"
  "      {\"type\": \"text\", \"text\": \"Here it is: what is the capital shown?\"}"
  "    ]}"
  "  ],"
  "  \"systemPrompt\": \"You are a geography tutor.\","
  "  \"maxTokens\": 256,"
  "  \"temperature\": 0.25,"
  "  \"stopSequences\": [\"\\n\\nHuman:\", \"END\"],"
  "  \"modelPreferences\": {\"hints\": [{\"name\": \"claude-3-sonnet\"}, {\"name\": \"gpt-4o\"}],"
  "                         \"intelligencePriority\": 0.8, \"speedPriority\": 0.5},"
  "  \"includeContext\": \"thisServer\","
  "  \"metadata\": {\"trace\": \"abc-123\"},"
  "  \"x-custom-param\": {\"deep\": true}"
  "}";

typedef struct
{
  guint     count;
  JsonNode *result;
} Answer;

static void
answer_clear (Answer *answer)
{
  g_clear_pointer (&answer->result, json_node_unref);
}

static void
on_answered_cb (PlugboardSamplingDialog *dialog,
                JsonNode                *result,
                Answer                  *answer)
{
  answer->count++;
  g_clear_pointer (&answer->result, json_node_unref);
  if (result != NULL)
    answer->result = json_node_copy (result);
}

static char *
answer_json (Answer *answer)
{
  g_assert_nonnull (answer->result);
  return json_to_string (answer->result, FALSE);
}

static PlugboardSamplingDialog *
open_dialog (const char *server,
             const char *json,
             Answer     *answer)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  PlugboardSamplingDialog *dialog;

  g_assert_nonnull (node);
  dialog = plugboard_sampling_dialog_new (NULL, server, json_node_get_object (node));
  g_signal_connect (dialog, "answered", G_CALLBACK (on_answered_cb), answer);
  gtk_window_present (GTK_WINDOW (dialog));
  test_iterate_pending ();
  return dialog;
}

static void
test_sampling_dialog_shows_request (void)
{
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog = open_dialog ("research-bot", request_json, &answer);
  GtkWidget *widget = GTK_WIDGET (dialog);
  GtkWidget *approve = find_button_with_action (widget, "sampling.approve");
  GtkWidget *model_row = find_widget (widget, ADW_TYPE_ENTRY_ROW);
  g_autofree char *json = NULL;

  /* Who asks. */
  g_assert_true (has_visible_label_with (widget, "“research-bot” asks for a model reply"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "“research-bot” asks for a model reply");
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));

  /* Every message by role and content type. */
  g_assert_true (has_visible_label_with (widget, "User"));
  g_assert_true (has_visible_label_with (widget, "Assistant"));
  g_assert_true (has_visible_label_with (widget, "Which city is on this map?"));
  g_assert_true (has_visible_label_with (widget, "Please send the map."));
  g_assert_true (has_visible_label_with (widget, "Here it is: what is the capital shown?"));
  g_assert_true (has_picture (widget, TRUE));
  g_assert_true (has_visible_label_with (widget, "Image (image/png, 4 × 4)"));
  g_assert_true (has_visible_label_with (widget, "Audio (audio/wav"));
  g_assert_true (has_visible_label_with (widget, "\"uri\" : \"file:///notes/map.txt\""));

  /* Every parameter. */
  g_assert_true (has_visible_label_with (widget, "You are a geography tutor."));
  g_assert_true (has_visible_label_with (widget, "256"));
  g_assert_true (has_visible_label_with (widget, "0.25"));
  g_assert_true (has_visible_label_with (widget, "\"\\n\\nHuman:\""));
  g_assert_true (has_visible_label_with (widget, "\"END\""));
  g_assert_true (has_visible_label_with (widget, "claude-3-sonnet, gpt-4o"));
  g_assert_true (has_visible_label_with (widget, "intelligence 0.8"));
  g_assert_true (has_visible_label_with (widget, "speed 0.5"));
  g_assert_true (has_visible_label_with (widget, "thisServer"));
  g_assert_true (has_visible_label_with (widget, "\"trace\" : \"abc-123\""));
  g_assert_true (has_visible_label_with (widget, "x-custom-param"));
  g_assert_true (has_visible_label_with (widget, "\"deep\" : true"));

  /* The model name to report, by default. */
  g_assert_nonnull (model_row);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (model_row)), ==, "human (Plugboard)");

  /* Approve only with a reply. */
  g_assert_nonnull (approve);
  g_assert_false (gtk_widget_is_sensitive (approve));
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (dialog)) == approve);
  plugboard_sampling_dialog_respond (dialog, TRUE);
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 0);
  g_assert_true (sampling_dialog_shown (NULL));

  plugboard_sampling_dialog_set_reply (dialog, "  \n ");
  g_assert_false (gtk_widget_is_sensitive (approve));
  plugboard_sampling_dialog_set_reply (dialog, "The capital is Paris.");
  g_assert_true (gtk_widget_is_sensitive (approve));
  /* How long, beside what the server allows. */
  g_assert_true (has_visible_label_with (widget, "4 words · the server allows up to 256 tokens"));

  hold_for_screenshot (widget);

  plugboard_sampling_dialog_respond (dialog, TRUE);
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);
  json = answer_json (&answer);
  g_assert_cmpstr (json, ==,
                   "{\"role\":\"assistant\","
                   "\"content\":{\"type\":\"text\",\"text\":\"The capital is Paris.\"},"
                   "\"model\":\"human (Plugboard)\","
                   "\"stopReason\":\"endTurn\"}");
  /* It closed, and answers only once. */
  g_assert_true (no_sampling_dialog (NULL));
  g_assert_cmpuint (answer.count, ==, 1);

  answer_clear (&answer);
}

static void
test_sampling_dialog_decline (void)
{
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog = open_dialog ("srv", request_json, &answer);

  plugboard_sampling_dialog_set_reply (dialog, "typed, then declined");
  plugboard_sampling_dialog_respond (dialog, FALSE);
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);
  g_assert_null (answer.result);
  g_assert_true (no_sampling_dialog (NULL));

  answer_clear (&answer);
}

/* Escape (window.close) declines; so does the Decline button. */
static void
test_sampling_dialog_escape (void)
{
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog = open_dialog ("srv", request_json, &answer);
  GtkWidget *decline;

  plugboard_sampling_dialog_set_reply (dialog, "not sent");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);
  g_assert_null (answer.result);
  g_assert_true (no_sampling_dialog (NULL));

  answer.count = 0;
  dialog = open_dialog ("srv", request_json, &answer);
  decline = find_button_with_action (GTK_WIDGET (dialog), "sampling.decline");
  g_assert_nonnull (decline);
  g_assert_true (gtk_widget_is_sensitive (decline));
  click_sensitive (decline);
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);
  g_assert_null (answer.result);
  g_assert_true (no_sampling_dialog (NULL));

  answer_clear (&answer);
}

/* Suggest fills a reply restating the last user message; the model name
 * the person types is the one reported. */
static void
test_sampling_dialog_suggest (void)
{
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog = open_dialog ("srv", request_json, &answer);
  GtkWidget *approve = find_button_with_action (GTK_WIDGET (dialog), "sampling.approve");
  GtkWidget *suggest = find_button_with_action (GTK_WIDGET (dialog), "sampling.suggest");
  GtkWidget *model_row = find_widget (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW);
  JsonObject *result;
  JsonObject *content;

  g_assert_nonnull (suggest);
  g_assert_false (gtk_widget_is_sensitive (approve));
  click_sensitive (suggest);
  test_iterate_pending ();
  g_assert_true (gtk_widget_is_sensitive (approve));

  gtk_editable_set_text (GTK_EDITABLE (model_row), "my-own-model");
  click_sensitive (approve);
  test_iterate_pending ();

  g_assert_cmpuint (answer.count, ==, 1);
  g_assert_nonnull (answer.result);
  result = json_node_get_object (answer.result);
  g_assert_cmpstr (json_object_get_string_member (result, "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (result, "model"), ==, "my-own-model");
  g_assert_cmpstr (json_object_get_string_member (result, "stopReason"), ==, "endTurn");
  content = json_object_get_object_member (result, "content");
  g_assert_cmpstr (json_object_get_string_member (content, "type"), ==, "text");
  /* The last user message's text, not an earlier one. */
  g_assert_nonnull (strstr (json_object_get_string_member (content, "text"),
                            "Here it is: what is the capital shown?"));
  g_assert_null (strstr (json_object_get_string_member (content, "text"),
                         "Which city is on this map?"));

  answer_clear (&answer);
}

/* Ctrl+Enter approves, caught before the reply editor (where Enter is a
 * new line) sees it; nothing happens without a reply. */
static void
test_sampling_dialog_ctrl_enter (void)
{
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog = open_dialog ("srv", request_json, &answer);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (dialog));
  GtkShortcut *approve = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && approve == NULL; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_CAPTURE)
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (strstr (trigger, "<Control>Return") != NULL)
            approve = shortcut;
        }
    }
  g_assert_nonnull (approve);

  g_assert_false (gtk_shortcut_action_activate (gtk_shortcut_get_action (approve), 0,
                                                GTK_WIDGET (dialog), NULL));
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 0);

  plugboard_sampling_dialog_set_reply (dialog, "By keyboard");
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (approve), 0,
                                               GTK_WIDGET (dialog), NULL));
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);
  g_assert_nonnull (answer.result);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (answer.result),
                                                                                  "content"),
                                                  "text"),
                   ==, "By keyboard");
  g_assert_true (no_sampling_dialog (NULL));

  answer_clear (&answer);
}

/* A long message is shown whole, in a text view rather than a label. */
static void
test_sampling_dialog_long_text (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog;
  GtkWidget *view;
  GtkTextIter start;
  GtkTextIter end;
  g_autofree char *shown = NULL;

  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (text, "line %u of a long message\n", i);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "user");
  json_builder_set_member_name (builder, "content");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "text");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text->str);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);

  dialog = open_dialog ("srv", json, &answer);
  view = find_widget (GTK_WIDGET (dialog), GTK_TYPE_TEXT_VIEW);
  /* The first text view is the message's, before the reply editor. */
  g_assert_nonnull (view);
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (view)));
  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &start, &end);
  shown = gtk_text_buffer_get_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &start, &end, FALSE);
  g_assert_cmpstr (shown, ==, text->str);

  plugboard_sampling_dialog_respond (dialog, FALSE);
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);
  answer_clear (&answer);
}

/* A request with nothing but messages shows no empty details. */
static void
test_sampling_dialog_minimal (void)
{
  Answer answer = { 0 };
  PlugboardSamplingDialog *dialog = open_dialog ("srv",
                                                 "{\"messages\": [], \"maxTokens\": 5}",
                                                 &answer);

  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), "The server sent no messages."));
  plugboard_sampling_dialog_set_reply (dialog, "one two three four five six seven");
  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), "7 words · the server allows up to 5 tokens"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                                                      PLUGBOARD_TYPE_SAMPLING_DIALOG,
                                                                                      "length_label")),
                                           "warning"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), "Maximum tokens"));
  g_assert_false (has_visible_label_with (GTK_WIDGET (dialog), "System prompt"));
  plugboard_sampling_dialog_respond (dialog, FALSE);
  test_iterate_pending ();
  g_assert_cmpuint (answer.count, ==, 1);

  answer_clear (&answer);
}

/* ------------------------------------------------------------------------ */
/* The roots dialog alone                                                   */

static char *
make_folder (const char *parent,
             const char *name)
{
  char *path = g_build_filename (parent, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  return path;
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static gboolean
file_chooser_shown (gpointer data)
{
  GtkWidget *chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);

  return chooser != NULL && gtk_widget_get_visible (chooser);
}

static gboolean
no_file_chooser (gpointer data)
{
  return !file_chooser_shown (data);
}

typedef struct
{
  GtkWidget *chooser;
  GFile     *file;
} Chosen;

/* The chooser loads folders in the background. */
static gboolean
chooser_has_file (gpointer data)
{
  Chosen *chosen = data;
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chosen->chooser));

  return file != NULL && g_file_equal (file, chosen->file);
}

static void
test_roots_dialog (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("plugboard-test-roots-XXXXXX", &error);
  g_autofree char *project = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autoptr(McpRoots) roots = NULL;
  g_auto(GStrv) added = NULL;
  g_autofree char *roots_file = NULL;
  g_autofree char *blocker = NULL;
  g_autofree char *third = NULL;
  g_autoptr(GFile) third_file = NULL;
  PlugboardRootsDialog *dialog;
  GtkWidget *chooser;
  Chosen chosen;
  GtkRevealer *revealer;
  GtkWidget *widget;
  GtkWidget *button;

  g_assert_no_error (error);
  project = make_folder (dir, "project");
  first = make_folder (dir, "first");
  second = make_folder (dir, "second");
  third = make_folder (dir, "third");
  roots = mcp_roots_new (project);
  g_assert_true (mcp_roots_add (roots, "srv", first, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_roots_add (roots, "other", second, &error));
  g_assert_no_error (error);

  dialog = plugboard_roots_dialog_new (NULL, roots, "srv", MCP_CONFIG_SCOPE_PROJECT);
  widget = GTK_WIDGET (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  test_iterate_pending ();

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Roots of “srv”");

  /* The project folder (not removable), then this server's folder only. */
  g_assert_true (has_visible_label_with (widget, mcp_roots_get_project_dir (roots)));
  g_assert_true (has_visible_label_with (widget, "Project Folder"));
  g_assert_null (find_button_with_target (widget, "roots.remove", mcp_roots_get_project_dir (roots)));
  g_assert_true (has_visible_label_with (widget, first));
  g_assert_false (has_visible_label_with (widget, second));
  g_assert_nonnull (find_button_with_action (widget, "roots.add"));

  /* Add Folder… asks for a folder (here GTK's own chooser, there being no
   * portal) and offers the one chosen. */
  g_assert_null (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
  g_assert_true (gtk_widget_activate_action (widget, "roots.add", NULL));
  test_iterate_until (file_chooser_shown, NULL, "the folder chooser");
  chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)), ==,
                   GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  third_file = g_file_new_for_path (third);
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), third_file, &error));
  g_assert_no_error (error);
  chosen.chooser = chooser;
  chosen.file = third_file;
  test_iterate_until (chooser_has_file, &chosen, "the chooser to select the folder");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  test_iterate_until (no_file_chooser, NULL, "the folder chooser to close");
  test_iterate_pending ();
  added = mcp_roots_dup_added (roots, "srv");
  g_assert_true (g_strv_contains ((const char * const *) added, third));
  g_assert_true (has_visible_label_with (widget, third));
  g_assert_true (mcp_roots_remove (roots, "srv", third, &error));
  g_assert_no_error (error);
  g_clear_pointer (&added, g_strfreev);

  /* A folder added elsewhere shows at once. */
  g_assert_true (mcp_roots_add (roots, "srv", second, &error));
  g_assert_no_error (error);
  test_iterate_pending ();
  g_assert_true (has_visible_label_with (widget, second));

  hold_for_screenshot (widget);

  /* Remove: saved at once. */
  button = find_button_with_target (widget, "roots.remove", first);
  g_assert_nonnull (button);
  click_sensitive (button);
  test_iterate_pending ();
  added = mcp_roots_dup_added (roots, "srv");
  g_assert_cmpuint (g_strv_length (added), ==, 1);
  g_assert_cmpstr (added[0], ==, second);
  g_assert_false (has_visible_label_with (widget, first));
  g_assert_true (has_visible_label_with (widget, second));
  g_assert_null (find_button_with_target (widget, "roots.remove", first));

  /* The other server's folders are untouched. */
  g_clear_pointer (&added, g_strfreev);
  added = mcp_roots_dup_added (roots, "other");
  g_assert_cmpuint (g_strv_length (added), ==, 1);

  /* A change that cannot be saved (the file's name taken by a folder) is
   * shown in the dialog, and not kept. */
  roots_file = g_build_filename (g_get_user_data_dir (), "plugboard", "roots.json", NULL);
  g_assert_true (g_file_test (roots_file, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (g_remove (roots_file), ==, 0);
  blocker = make_folder (roots_file, "blocker");
  revealer = GTK_REVEALER (gtk_widget_get_template_child (widget, PLUGBOARD_TYPE_ROOTS_DIALOG,
                                                         "error_revealer"));
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  click_sensitive (find_button_with_target (widget, "roots.remove", second));
  test_iterate_pending ();
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_test_message ("error shown: %s",
                  gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (widget, PLUGBOARD_TYPE_ROOTS_DIALOG,
                                                                                "error_label"))));
  g_clear_pointer (&added, g_strfreev);
  added = mcp_roots_dup_added (roots, "srv");
  g_assert_cmpuint (g_strv_length (added), ==, 1);
  g_assert_true (has_visible_label_with (widget, second));
  test_remove_tree (roots_file);
  g_assert_true (gtk_widget_activate_action (widget, "roots.dismiss-error", NULL));
  g_assert_false (gtk_revealer_get_reveal_child (revealer));

  gtk_window_destroy (GTK_WINDOW (dialog));
  test_iterate_pending ();
  test_remove_tree (dir);
}

G_GNUC_END_IGNORE_DEPRECATIONS

/* ------------------------------------------------------------------------ */
/* Through the window, with server-everything                               */

typedef UiTestSetup Setup;

static void
setup_open (Setup      *setup,
            const char *servers)
{
  g_autofree char *json = NULL;

  json = g_strdup_printf ("{\"mcpServers\": {%s}, "
                          "\"permissions\": {\"allow\": [\"mcp__everything\", \"mcp__withdrawer\"]}}",
                          servers);
  ui_test_setup_open (setup, app, "test-sampling", json, 1280, 800);
}

static char *
page_result_text (PlugboardToolPage *page)
{
  GtkWidget *view = find_widget (GTK_WIDGET (page), PLUGBOARD_TYPE_RESULT_VIEW);

  g_assert_nonnull (view);
  return plugboard_result_view_dup_text (PLUGBOARD_RESULT_VIEW (view));
}

/* Runs trigger-sampling-request with @prompt; returns the dialog it
 * opens, after checking what it shows. */
static PlugboardSamplingDialog *
run_sampling (Setup              *setup,
              const char         *prompt,
              PlugboardToolPage **page_out)
{
  g_autofree char *expected = g_strdup_printf ("Resource trigger-sampling-request context: %s", prompt);
  PlugboardToolPage *page = ui_test_open_tool (setup->window, "mcp__everything__trigger-sampling-request");
  PlugboardSamplingDialog *dialog;
  McpFormField *root = page_form_field (page);

  g_assert_nonnull (mcp_form_field_get_child (root, "prompt"));
  mcp_form_field_set_text (mcp_form_field_get_child (root, "prompt"), prompt);
  g_assert_null (find_toplevel (PLUGBOARD_TYPE_SAMPLING_DIALOG));
  plugboard_tool_page_run (page);
  g_assert_true (page_running (page));

  test_iterate_until (sampling_dialog_shown, NULL, "the sampling dialog");
  dialog = find_toplevel (PLUGBOARD_TYPE_SAMPLING_DIALOG);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (setup->window));
  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), "“everything” asks for a model reply"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), expected));
  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), "You are a helpful test server."));
  g_assert_true (has_visible_label_with (GTK_WIDGET (dialog), "0.7"));
  /* Waiting for the person: the call is still running. */
  test_iterate_pending ();
  g_assert_true (page_running (page));
  hold_for_screenshot (GTK_WIDGET (dialog));

  *page_out = page;
  return dialog;
}

static const char *
newest_summary (Setup      *setup,
                const char *qualified_name,
                int        *outcome)
{
  GListModel *calls = mcp_tool_history_get_calls_for (setup->history, qualified_name);
  g_autoptr(McpHistoryEntry) entry = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (calls), >, 0);
  entry = g_list_model_get_item (calls, 0);
  *outcome = mcp_history_entry_get_outcome (entry);
  return mcp_history_entry_get_summary (entry); /* the history keeps it */
}

static char *
run_roots_list (Setup *setup)
{
  PlugboardToolPage *page = ui_test_open_tool (setup->window, "mcp__everything__get-roots-list");

  plugboard_tool_page_run (page);
  test_iterate_until (page_idle, page, "get-roots-list");
  return page_result_text (page);
}

typedef struct
{
  Setup      *setup;
  const char *gone;
} RootsGone;

/* server-everything fetches the roots again when told they changed
 * (notifications/roots/list_changed), in its own time: ask until the
 * removed folder is no longer named (bounded by the hang guard). */
static gboolean
roots_no_longer_name (gpointer data)
{
  RootsGone *gone = data;
  g_autofree char *text = run_roots_list (gone->setup);

  if (strstr (text, gone->gone) == NULL)
    return TRUE;
  test_wait_ms (100);
  return FALSE;
}

static void
test_window_everything (void)
{
  g_autofree char *servers = everything_servers ();
  g_autofree char *text = NULL;
  g_autofree char *added_dir = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) added = NULL;
  Setup setup = { 0 };
  McpToolPool *pool;
  McpRoots *roots;
  PlugboardToolPage *page;
  PlugboardSamplingDialog *dialog;
  PlugboardRootsDialog *roots_dialog;
  GtkWidget *button;
  const char *project_root;
  RootsGone gone;
  int outcome;

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or server-everything in MCP_TEST_NODE_MODULES is missing");
      return;
    }

  setup_open (&setup, servers);
  pool = mcp_project_get_tool_pool (setup.project);
  roots = mcp_project_get_roots (setup.project);
  g_assert_true (MCP_IS_ROOTS (roots));
  project_root = mcp_roots_get_project_dir (roots);
  g_assert_nonnull (project_root);

  /* Sampling, form elicitation and roots declared: the tools that need
   * them are listed. */
  g_test_message ("server-everything lists %u tools",
                  g_list_model_get_n_items (G_LIST_MODEL (pool)));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), >=, 16);
  g_assert_nonnull (mcp_tool_pool_lookup (pool, "mcp__everything__trigger-sampling-request"));
  g_assert_nonnull (mcp_tool_pool_lookup (pool, "mcp__everything__trigger-elicitation-request"));
  g_assert_nonnull (mcp_tool_pool_lookup (pool, "mcp__everything__get-roots-list"));

  /* Approved: the reply the person wrote is what the server got. */
  dialog = run_sampling (&setup, "Name a colour", &page);
  plugboard_sampling_dialog_set_reply (dialog, "Teal, written by a person");
  plugboard_sampling_dialog_respond (dialog, TRUE);
  test_iterate_until (page_idle, page, "the call after Approve");
  test_iterate_until (no_sampling_dialog, NULL, "the dialog to close");
  newest_summary (&setup, "mcp__everything__trigger-sampling-request", &outcome);
  g_assert_cmpint (outcome, ==, MCP_HISTORY_OUTCOME_OK);
  text = page_result_text (page);
  g_assert_nonnull (strstr (text, "LLM sampling result"));
  g_assert_nonnull (strstr (text, "Teal, written by a person"));
  g_assert_nonnull (strstr (text, "human (Plugboard)"));
  g_clear_pointer (&text, g_free);

  /* Declined with the button: the server is told it was rejected, and
   * the typed reply is not sent. */
  dialog = run_sampling (&setup, "Name a fruit", &page);
  plugboard_sampling_dialog_set_reply (dialog, "never sent");
  button = find_button_with_action (GTK_WIDGET (dialog), "sampling.decline");
  g_assert_nonnull (button);
  click_sensitive (button);
  test_iterate_until (page_idle, page, "the call after Decline");
  test_iterate_until (no_sampling_dialog, NULL, "the dialog to close");
  newest_summary (&setup, "mcp__everything__trigger-sampling-request", &outcome);
  g_assert_cmpint (outcome, !=, MCP_HISTORY_OUTCOME_OK);
  text = page_result_text (page);
  g_test_message ("declined: %s", text);
  g_assert_nonnull (strstr (text, "rejected"));
  g_assert_null (strstr (text, "never sent"));
  g_clear_pointer (&text, g_free);

  /* Roots: a server of the person's (user) settings is not offered the
   * project folder (issue 21, defect 6), only a folder added for it. */
  added_dir = make_folder (setup.dir, "added root");
  g_assert_true (mcp_roots_add (roots, "everything", added_dir, &error));
  g_assert_no_error (error);
  text = run_roots_list (&setup);
  g_test_message ("roots: %s", text);
  g_assert_null (strstr (text, project_root));
  g_assert_nonnull (strstr (text, "added root"));
  g_clear_pointer (&text, g_free);

  /* The roots dialog, from the server page's Roots… (win.edit-roots),
   * lists the added one (not the project folder) and removes it. */
  g_assert_true (plugboard_window_show_server (setup.window, "everything"));
  test_iterate_pending ();
  button = find_button_with_target (GTK_WIDGET (setup.window), "win.edit-roots", "everything");
  g_assert_nonnull (button);
  click_sensitive (button);
  test_iterate_pending ();
  roots_dialog = find_toplevel (PLUGBOARD_TYPE_ROOTS_DIALOG);
  g_assert_nonnull (roots_dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (roots_dialog)) == GTK_WINDOW (setup.window));
  g_assert_false (has_visible_label_with (GTK_WIDGET (roots_dialog), project_root));
  g_assert_true (has_visible_label_with (GTK_WIDGET (roots_dialog), added_dir));
  g_assert_null (find_button_with_target (GTK_WIDGET (roots_dialog), "roots.remove", project_root));
  button = find_button_with_target (GTK_WIDGET (roots_dialog), "roots.remove", added_dir);
  g_assert_nonnull (button);
  click_sensitive (button);
  test_iterate_pending ();
  added = mcp_roots_dup_added (roots, "everything");
  g_assert_cmpuint (g_strv_length (added), ==, 0);
  g_assert_false (has_visible_label_with (GTK_WIDGET (roots_dialog), added_dir));
  gtk_window_close (GTK_WINDOW (roots_dialog));
  test_iterate_pending ();

  /* And the server hears of it. */
  gone.setup = &setup;
  gone.gone = "added root";
  test_iterate_until (roots_no_longer_name, &gone, "get-roots-list without the removed folder");
  text = run_roots_list (&setup);
  g_assert_null (strstr (text, project_root));

  ui_test_setup_clear (&setup);
}

/* A server (the MCP SDK's Server, written out by the test) whose one tool
 * asks for a model reply and withdraws the request a second later
 * (notifications/cancelled), whatever the person does. */
static const char withdrawer_script[] =
  "import { Server } from '%1$s/server/index.js';\n"
  "import { StdioServerTransport } from '%1$s/server/stdio.js';\n"
  "import { ListToolsRequestSchema, CallToolRequestSchema, CreateMessageResultSchema } from '%1$s/types.js';\n"
  "const server = new Server({ name: 'withdrawer', version: '1.0.0' }, { capabilities: { tools: {} } });\n"
  "server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{\n"
  "  name: 'ask-then-withdraw', description: 'Asks for a model reply, then withdraws the request',\n"
  "  inputSchema: { type: 'object', properties: {} },\n"
  "  annotations: { readOnlyHint: true, openWorldHint: false } }] }));\n"
  "server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {\n"
  "  const controller = new AbortController();\n"
  "  const timer = setTimeout(() => controller.abort(new Error('withdrawn by the server')), 1000);\n"
  "  try {\n"
  "    const result = await extra.sendRequest({ method: 'sampling/createMessage', params: {\n"
  "      messages: [{ role: 'user', content: { type: 'text', text: 'A question withdrawn soon' } }],\n"
  "      maxTokens: 10 } }, CreateMessageResultSchema, { signal: controller.signal });\n"
  "    clearTimeout(timer);\n"
  "    return { content: [{ type: 'text', text: 'answered: ' + JSON.stringify(result) }] };\n"
  "  } catch (error) {\n"
  "    return { content: [{ type: 'text', text: 'withdrawn: ' + error.message }] };\n"
  "  }\n"
  "});\n"
  "await server.connect(new StdioServerTransport());\n";

static void
on_toplevels_changed_cb (GListModel *toplevels,
                         guint       position,
                         guint       removed,
                         guint       added,
                         gpointer    user_data)
{
  gboolean *seen = user_data;

  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (PLUGBOARD_IS_SAMPLING_DIALOG (item))
        *seen = TRUE;
    }
}

/* The server withdraws its request: the dialog closes by itself, and
 * nothing is answered for the person. */
static void
test_window_withdrawn (void)
{
  g_autofree char *scripts = g_dir_make_tmp ("plugboard-test-withdrawer-XXXXXX", NULL);
  g_autofree char *servers = test_sdk_script_server (scripts, "withdrawer", withdrawer_script);
  g_autofree char *text = NULL;
  Setup setup = { 0 };
  PlugboardToolPage *page;
  gboolean seen = FALSE;
  gulong changed_id;

  if (servers == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) or the MCP SDK in MCP_TEST_NODE_MODULES is missing");
      test_remove_tree (scripts);
      return;
    }

  setup_open (&setup, servers);
  g_assert_nonnull (mcp_tool_pool_lookup (mcp_project_get_tool_pool (setup.project),
                                          "mcp__withdrawer__ask-then-withdraw"));

  /* Seen even if it opened and closed between two looks. */
  changed_id = g_signal_connect (gtk_window_get_toplevels (), "items-changed",
                                 G_CALLBACK (on_toplevels_changed_cb), &seen);
  page = ui_test_open_tool (setup.window, "mcp__withdrawer__ask-then-withdraw");
  plugboard_tool_page_run (page);
  test_iterate_until (test_flag_set, &seen, "the sampling dialog");
  test_iterate_until (no_sampling_dialog, NULL, "the withdrawn request's dialog to close");
  test_iterate_until (page_idle, page, "the call after the withdrawal");
  g_signal_handler_disconnect (gtk_window_get_toplevels (), changed_id);

  text = page_result_text (page);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "withdrawn: "));
  g_assert_null (strstr (text, "answered: "));

  ui_test_setup_clear (&setup);
  test_remove_tree (scripts);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  if (!ui_test_has_display ())
    return 0;

  /* Nothing of the person's settings is read or written. */
  test_root = ui_test_make_root ("test-sampling-dialog", UI_TEST_XDG_CONFIG | UI_TEST_XDG_DATA);

  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/ui/sampling-dialog/shows-request", test_sampling_dialog_shows_request);
  g_test_add_func ("/ui/sampling-dialog/decline", test_sampling_dialog_decline);
  g_test_add_func ("/ui/sampling-dialog/escape", test_sampling_dialog_escape);
  g_test_add_func ("/ui/sampling-dialog/suggest", test_sampling_dialog_suggest);
  g_test_add_func ("/ui/sampling-dialog/minimal", test_sampling_dialog_minimal);
  g_test_add_func ("/ui/sampling-dialog/long-text", test_sampling_dialog_long_text);
  g_test_add_func ("/ui/sampling-dialog/ctrl-enter", test_sampling_dialog_ctrl_enter);
  g_test_add_func ("/ui/roots-dialog/list-remove", test_roots_dialog);
  g_test_add_func ("/ui/sampling-dialog/window-everything", test_window_everything);
  g_test_add_func ("/ui/sampling-dialog/window-withdrawn", test_window_withdrawn);

  ret = ui_test_run_and_clean (&app, &test_root);

  return ret;
}
