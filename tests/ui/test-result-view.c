/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-result-view"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mcp-processed-result.h"
#include "mcp-tool-pool.h"
#include "plugboard-result-view.h"
#include "test-fake-connection.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_node_dup_object (json_parser_get_root (parser));
}

/* A pool tool of server @server_name from the tool's JSON. */
static McpPoolTool *
make_pool_tool (const char *server_name,
                const char *tool_json)
{
  g_autoptr(GListStore) servers = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) server = test_fake_connection_new (server_name);
  g_autoptr(McpToolPool) pool = NULL;

  test_fake_connection_add_tool (server, tool_json);
  g_list_store_append (servers, server);
  pool = mcp_tool_pool_new (G_LIST_MODEL (servers));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 1);
  return g_list_model_get_item (G_LIST_MODEL (pool), 0);
}

/* ------------------------------------------------------------------------ */
/* Waiting, bounded                                                         */

typedef struct
{
  gboolean            done;
  McpProcessedResult *processed;
  GError             *error;
} Processing;

static void
processed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Processing *processing = user_data;

  processing->processed = mcp_tool_result_process_finish (result, &processing->error);
  processing->done = TRUE;
}

static char *results_dir;

/* A real post-processed result from the JSON of a tools/call result. */
static McpProcessedResult *
process_json (const char *json,
              gsize       max_characters)
{
  g_autoptr(JsonObject) object = parse_object (json);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = mcp_tool_result_new_from_json (object, &error);
  Processing processing = { 0 };

  g_assert_no_error (error);
  mcp_tool_result_process_async (result, "mcp__test__tool", results_dir, max_characters,
                                 NULL, processed_cb, &processing);
  test_iterate_until (test_flag_set, &processing.done, "post-processing");

  g_assert_no_error (processing.error);
  return processing.processed;
}

/* ------------------------------------------------------------------------ */
/* Looking into the view                                                    */

static GPtrArray *
find_all (GtkWidget *root,
          GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect_widgets (root, type, found);
  return found;
}

/* The list of blocks: a one-column GtkGridView (it keeps far fewer rows
 * built than a GtkListView in GTK 4.8). */
static GtkGridView *
find_list_view (GtkWidget *view)
{
  g_autoptr(GPtrArray) found = find_all (view, GTK_TYPE_GRID_VIEW);

  g_assert_cmpuint (found->len, ==, 1);
  return g_ptr_array_index (found, 0);
}

/* The mapped label whose text contains @needle. */
static GtkLabel *
find_label (GtkWidget  *root,
            const char *needle)
{
  g_autoptr(GPtrArray) labels = find_all (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = g_ptr_array_index (labels, i);

      if (gtk_widget_get_mapped (GTK_WIDGET (label)) &&
          strstr (gtk_label_get_text (label), needle) != NULL)
        return label;
    }
  return NULL;
}

static GtkButton *
find_button (GtkWidget  *root,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = find_all (root, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkButton *button = g_ptr_array_index (buttons, i);

      if (gtk_widget_get_mapped (GTK_WIDGET (button)) &&
          g_strcmp0 (gtk_button_get_label (button), label) == 0)
        return button;
    }
  return NULL;
}

typedef struct
{
  GtkWindow *window;
  GtkWidget *view;
} Fixture;

static void
fixture_show (Fixture             *fixture,
              McpPoolTool         *tool,
              const char          *arguments_json,
              McpProcessedResult  *processed)
{
  g_autoptr(JsonObject) arguments = arguments_json != NULL ? parse_object (arguments_json) : NULL;

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 800, 600);
  fixture->view = plugboard_result_view_new ();
  gtk_window_set_child (fixture->window, fixture->view);
  plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture->view), tool, arguments, processed);
  gtk_window_present (fixture->window);
  wait_frames (5);
  /* PLUGBOARD_TEST_SCREENSHOT_HOLD=S: each result stays S seconds on
   * screen, for a screenshot taken from outside. */
  if (g_getenv ("PLUGBOARD_TEST_SCREENSHOT_HOLD") != NULL)
    test_wait_ms (1000 * atoi (g_getenv ("PLUGBOARD_TEST_SCREENSHOT_HOLD")));
}

static void
fixture_close (Fixture *fixture)
{
  gtk_window_destroy (fixture->window);
  wait_frames (5);
}

/* ------------------------------------------------------------------------ */

static void
test_text_markdown (void)
{
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"content\":[{\"type\":\"text\",\"text\":\"# Title\\n\\nSome **bold** text\"},"
                  "{\"type\":\"text\",\"text\":\"plain words\"}]}", 0);
  Fixture fixture;
  GtkLabel *label;
  g_autofree char *copied = NULL;

  fixture_show (&fixture, NULL, NULL, processed);
  g_assert_cmpuint (plugboard_result_view_get_n_blocks (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 2);

  label = find_label (fixture.view, "Title");
  g_assert_nonnull (label);
  g_assert_true (gtk_label_get_use_markup (label));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "Title\n\nSome bold text");
  g_assert_true (gtk_label_get_wrap (label));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "monospace"));

  label = find_label (fixture.view, "plain words");
  g_assert_nonnull (label);
  g_assert_false (gtk_label_get_use_markup (label));

  /* Plain text: as sent, monospace. */
  g_object_set (fixture.view, "plain-text", TRUE, NULL);
  wait_frames (5);
  g_assert_null (find_label (fixture.view, "Title\n\nSome bold"));
  label = find_label (fixture.view, "# Title");
  g_assert_nonnull (label);
  g_assert_false (gtk_label_get_use_markup (label));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "# Title\n\nSome **bold** text");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "monospace"));

  /* The toggle button follows the property, and turns it back. */
  gtk_widget_activate_action (fixture.view, "result.plain-text", NULL);
  wait_frames (5);
  label = find_label (fixture.view, "Title");
  g_assert_true (gtk_label_get_use_markup (label));

  g_object_set (fixture.view, "wrap", FALSE, NULL);
  wait_frames (5);
  label = find_label (fixture.view, "Title");
  g_assert_false (gtk_label_get_wrap (label));

  copied = plugboard_result_view_dup_text (PLUGBOARD_RESULT_VIEW (fixture.view));
  g_assert_cmpstr (copied, ==, "# Title\n\nSome **bold** text\n\nplain words");

  fixture_close (&fixture);
}

static GtkTreeExpander *
find_expander (GtkWidget  *root,
               const char *key)
{
  g_autoptr(GPtrArray) expanders = find_all (root, GTK_TYPE_TREE_EXPANDER);

  for (guint i = 0; i < expanders->len; i++)
    {
      GtkTreeExpander *expander = g_ptr_array_index (expanders, i);
      GtkWidget *box = gtk_tree_expander_get_child (expander);
      GtkWidget *key_label = gtk_widget_get_first_child (box);

      if (gtk_widget_get_mapped (GTK_WIDGET (expander)) &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (key_label)), key) == 0)
        return expander;
    }
  return NULL;
}

static guint
count_mapped (GtkWidget *root,
              GType      type)
{
  g_autoptr(GPtrArray) found = find_all (root, type);
  guint n = 0;

  for (guint i = 0; i < found->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (found, i)))
      n++;
  return n;
}

static void
test_json_tree (void)
{
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"content\":[{\"type\":\"text\",\"text\":"
                  "\"{\\\"alpha\\\": 1, \\\"beta\\\": {\\\"x\\\": [1, 2], \\\"y\\\": null}, \\\"gamma\\\": \\\"s\\\"}\"}]}", 0);
  Fixture fixture;
  GtkTreeExpander *beta;
  GtkTreeExpander *x;
  GtkTreeListRow *row;
  GtkButton *raw;

  fixture_show (&fixture, NULL, NULL, processed);

  /* Top-level keys are rows, collapsed. */
  g_assert_cmpuint (count_mapped (fixture.view, GTK_TYPE_TREE_EXPANDER), ==, 3);
  g_assert_nonnull (find_expander (fixture.view, "alpha"));
  g_assert_nonnull (find_expander (fixture.view, "gamma"));
  g_assert_null (find_expander (fixture.view, "x"));
  g_assert_nonnull (find_label (fixture.view, "{ 2 members }"));
  beta = find_expander (fixture.view, "beta");
  g_assert_nonnull (beta);

  row = gtk_tree_expander_get_list_row (beta);
  g_assert_true (gtk_tree_list_row_is_expandable (row));
  gtk_tree_list_row_set_expanded (row, TRUE);
  wait_frames (5);
  g_assert_cmpuint (count_mapped (fixture.view, GTK_TYPE_TREE_EXPANDER), ==, 5);
  x = find_expander (fixture.view, "x");
  g_assert_nonnull (x);
  g_assert_nonnull (find_expander (fixture.view, "y"));
  g_assert_cmpuint (gtk_tree_list_row_get_depth (gtk_tree_expander_get_list_row (x)), ==, 1);
  g_assert_nonnull (find_label (fixture.view, "[ 2 elements ]"));

  gtk_tree_list_row_set_expanded (gtk_tree_expander_get_list_row (x), TRUE);
  wait_frames (5);
  g_assert_nonnull (find_expander (fixture.view, "0"));
  g_assert_nonnull (find_expander (fixture.view, "1"));

  /* Raw: the JSON as text instead of the tree. */
  raw = find_button (fixture.view, "_Raw");
  g_assert_nonnull (raw);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (raw), TRUE);
  wait_frames (5);
  g_assert_cmpuint (count_mapped (fixture.view, GTK_TYPE_TREE_EXPANDER), ==, 0);
  g_assert_nonnull (find_label (fixture.view, "\"beta\" : {"));

  fixture_close (&fixture);
}

static void
test_image (void)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 3, 2);
  g_autofree char *png = NULL;
  gsize png_length = 0;
  g_autofree char *base64 = NULL;
  g_autofree char *json = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GPtrArray) pictures = NULL;
  GdkPaintable *paintable;
  Fixture fixture;

  gdk_pixbuf_fill (pixbuf, 0xff8000ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &png, &png_length, "png", NULL, NULL));
  base64 = g_base64_encode ((guchar *) png, png_length);
  json = g_strdup_printf ("{\"content\":[{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"%s\"}]}", base64);
  processed = process_json (json, 0);

  fixture_show (&fixture, NULL, NULL, processed);
  pictures = find_all (fixture.view, GTK_TYPE_PICTURE);
  g_assert_cmpuint (pictures->len, ==, 1);
  paintable = gtk_picture_get_paintable (g_ptr_array_index (pictures, 0));
  g_assert_nonnull (paintable);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, 3);
  g_assert_cmpint (gdk_paintable_get_intrinsic_height (paintable), ==, 2);
  g_assert_nonnull (find_label (fixture.view, "image/png · 3 × 2"));
  g_assert_nonnull (find_button (fixture.view, "_Save As…"));

  fixture_close (&fixture);
}

static void
test_bad_image (void)
{
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"content\":[{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"bm90IGFuIGltYWdl\"}]}", 0);
  Fixture fixture;

  fixture_show (&fixture, NULL, NULL, processed);
  g_assert_cmpuint (count_mapped (fixture.view, GTK_TYPE_PICTURE), ==, 0);
  g_assert_nonnull (find_label (fixture.view, "could not be shown"));
  fixture_close (&fixture);
}

static void
test_audio (void)
{
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"content\":[{\"type\":\"audio\",\"mimeType\":\"audio/wav\",\"data\":\"UklGRiQAAABXQVZF\"}]}", 0);
  const char *file = mcp_processed_result_get_file_for_content (processed, 0);
  GtkButton *play;
  Fixture fixture;

  g_assert_nonnull (file);
  fixture_show (&fixture, NULL, NULL, processed);
  g_assert_nonnull (find_label (fixture.view, "Audio · audio/wav"));
  g_assert_nonnull (find_label (fixture.view, file));
  play = find_button (fixture.view, "_Play");
  g_assert_nonnull (play);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (play)));
  g_assert_nonnull (find_button (fixture.view, "_Save As…"));
  fixture_close (&fixture);
}

static void
test_resource_link (void)
{
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"content\":[{\"type\":\"resource_link\",\"uri\":\"test://static/resource/1\","
                  "\"name\":\"Resource 1\",\"description\":\"The first one\",\"mimeType\":\"text/plain\"},"
                  "{\"type\":\"resource\",\"resource\":{\"uri\":\"test://doc\",\"mimeType\":\"application/json\","
                  "\"text\":\"{\\\"k\\\": true}\"}}]}", 0);
  Fixture fixture;
  GtkButton *read;

  fixture_show (&fixture, NULL, NULL, processed);
  g_assert_nonnull (find_label (fixture.view, "Resource 1"));
  g_assert_nonnull (find_label (fixture.view, "test://static/resource/1"));
  g_assert_nonnull (find_label (fixture.view, "The first one"));
  g_assert_nonnull (find_label (fixture.view, "Resource link · text/plain"));
  read = find_button (fixture.view, "_Read");
  g_assert_nonnull (read);
  /* No connection to read through. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (read)));
  /* The embedded JSON resource as a tree. */
  g_assert_nonnull (find_expander (fixture.view, "k"));
  g_assert_nonnull (find_label (fixture.view, "Resource · test://doc"));
  fixture_close (&fixture);
}

static void
test_error_result (void)
{
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"Disk on fire\"}]}", 0);
  g_autoptr(McpProcessedResult) fine = process_json ("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}", 0);
  Fixture fixture;
  GtkLabel *label;

  fixture_show (&fixture, NULL, NULL, processed);
  label = find_label (fixture.view, "The tool reported an error");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "error"));
  label = find_label (fixture.view, "Disk on fire");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "error"));

  /* The next, fine result has no error style. */
  plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), NULL, NULL, fine);
  wait_frames (5);
  g_assert_null (find_label (fixture.view, "The tool reported an error"));
  label = find_label (fixture.view, "ok");
  g_assert_nonnull (label);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "error"));
  fixture_close (&fixture);
}

/* The schema check runs in a thread (issue 20): waiting for its answer. */

typedef struct
{
  PlugboardResultView *view;
  guint                ticks;      /* of a timeout source, while checking */
} Ticking;

static gboolean
tick_cb (gpointer data)
{
  Ticking *ticking = data;

  if (plugboard_result_view_get_schema_ok (ticking->view) != -1)
    return G_SOURCE_REMOVE;
  ticking->ticks++;
  return G_SOURCE_CONTINUE;
}

static gboolean
schema_checked (gpointer data)
{
  return plugboard_result_view_get_schema_ok (data) != -1;
}

static void
wait_schema_check (PlugboardResultView *view)
{
  test_iterate_until (schema_checked, view, "the schema check");
}

#define SCHEMA_TOOL \
  "{\"name\":\"weather\",\"inputSchema\":{\"type\":\"object\"}," \
  "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"temp\":{\"type\":\"number\"}},\"required\":[\"temp\"]}}"

static void
test_structured (void)
{
  g_autoptr(McpPoolTool) tool = make_pool_tool ("srv", SCHEMA_TOOL);
  g_autoptr(McpProcessedResult) valid =
    process_json ("{\"content\":[],\"structuredContent\":{\"temp\":21.5}}", 0);
  g_autoptr(McpProcessedResult) invalid =
    process_json ("{\"content\":[],\"structuredContent\":{\"temp\":\"warm\"}}", 0);
  Fixture fixture;
  GtkLabel *label;

  fixture_show (&fixture, tool, NULL, valid);
  wait_schema_check (PLUGBOARD_RESULT_VIEW (fixture.view));
  g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 1);
  label = find_label (fixture.view, "matches the output schema");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "success"));
  g_assert_nonnull (find_expander (fixture.view, "temp"));
  g_assert_nonnull (find_label (fixture.view, "21.5"));

  plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), tool, NULL, invalid);
  wait_schema_check (PLUGBOARD_RESULT_VIEW (fixture.view));
  wait_frames (5);
  g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 0);
  label = find_label (fixture.view, "does not match the output schema");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "error"));
  /* The problem names where, in the engine's words (plugboard-cli says
   * the same). */
  g_assert_nonnull (find_label (fixture.view, "The structured content does not match the output schema: "
                                              "structuredContent.temp: expected a number, not a string"));
  g_assert_nonnull (find_expander (fixture.view, "temp"));

  /* A call's result, checked by the engine as it was processed: the view
   * shows that decision, even for a tool it was not told the schema of. */
  {
    g_autoptr(JsonObject) schema = parse_object ("{\"type\":\"object\",\"required\":[\"temp\"]}");
    g_autoptr(JsonObject) object = parse_object ("{\"content\":[{\"type\":\"text\",\"text\":\"warm\"}]}");
    g_autoptr(McpToolResult) result = mcp_tool_result_new_from_json (object, NULL);
    g_autoptr(McpProcessedResult) checked = NULL;
    Processing processing = { 0 };

    mcp_tool_result_process_for_tool_async (result, schema, "mcp__test__tool", results_dir, 0,
                                            NULL, processed_cb, &processing);
    test_iterate_until (test_flag_set, &processing.done, "post-processing");
    g_assert_no_error (processing.error);
    checked = processing.processed;
    g_assert_cmpint (mcp_processed_result_get_structured_check (checked), ==, MCP_STRUCTURED_CHECK_MISSING);

    plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), NULL, NULL, checked);
    wait_frames (5);
    g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 0);
    label = find_label (fixture.view, "The tool declares an output schema but sent no structured content");
    g_assert_nonnull (label);
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "error"));
  }

  /* No structured content and no schema: no check. */
  {
    g_autoptr(McpProcessedResult) plain = process_json ("{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}", 0);

    plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), NULL, NULL, plain);
    wait_frames (5);
    g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, -1);
    g_assert_null (find_label (fixture.view, "output schema"));
  }

  fixture_close (&fixture);
}

/* Issue 20: an output schema that would take its whole validation budget,
 * or that refers to itself for ever, is checked off the main thread and
 * shown as "Not validated"; the main loop runs meanwhile. */
static void
test_structured_bomb (void)
{
  g_autoptr(GString) tool_json = g_string_new ("{\"name\":\"bomb\",\"inputSchema\":{\"type\":\"object\"},"
                                               "\"outputSchema\":{\"type\":\"object\","
                                               "\"properties\":{\"x\":{\"$ref\":\"#/$defs/a0\"}},\"$defs\":{");
  g_autoptr(McpPoolTool) nested = NULL;
  g_autoptr(McpPoolTool) self_ref =
    make_pool_tool ("srv", "{\"name\":\"loop\",\"inputSchema\":{\"type\":\"object\"},"
                           "\"outputSchema\":{\"type\":\"object\",\"oneOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#\"}]}}");
  g_autoptr(McpProcessedResult) processed =
    process_json ("{\"content\":[],\"structuredContent\":{\"x\":1}}", 0);
  Fixture fixture;
  Ticking ticking = { 0 };
  GtkLabel *label;
  gint64 start;

  /* 30 levels, each a oneOf of two refs to the next: 2^30 visits */
  for (guint i = 0; i < 30; i++)
    g_string_append_printf (tool_json, "\"a%u\":{\"oneOf\":[{\"$ref\":\"#/$defs/a%u\"},{\"$ref\":\"#/$defs/a%u\"}]},",
                            i, i + 1, i + 1);
  g_string_append (tool_json, "\"a30\":{\"type\":\"integer\"}}}}");
  nested = make_pool_tool ("srv", tool_json->str);

  fixture.window = GTK_WINDOW (gtk_window_new ());
  fixture.view = plugboard_result_view_new ();
  gtk_window_set_child (fixture.window, fixture.view);
  gtk_window_present (fixture.window);
  ticking.view = PLUGBOARD_RESULT_VIEW (fixture.view);

  start = g_get_monotonic_time ();
  plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), nested, NULL, processed);
  /* not checked on the way in: the check runs in a thread */
  g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, -1);
  g_timeout_add (1, tick_cb, &ticking);
  wait_schema_check (PLUGBOARD_RESULT_VIEW (fixture.view));
  g_test_message ("30 nested oneOf: checked in %.1f ms, the main loop ticked %u times meanwhile",
                  (g_get_monotonic_time () - start) / 1000.0, ticking.ticks);
  g_assert_cmpuint (ticking.ticks, >, 0);
  wait_frames (5);
  g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 2);
  label = find_label (fixture.view, "Not validated");
  g_assert_nonnull (label);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "error"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "success"));
  g_assert_nonnull (find_label (fixture.view, "more than 100000 steps"));
  g_assert_null (find_label (fixture.view, "does not match"));
  g_assert_nonnull (find_expander (fixture.view, "x"));

  /* the schema that refers to itself: "Not validated" at once */
  start = g_get_monotonic_time ();
  plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), self_ref, NULL, processed);
  wait_schema_check (PLUGBOARD_RESULT_VIEW (fixture.view));
  g_test_message ("oneOf $ref #: checked in %.1f ms", (g_get_monotonic_time () - start) / 1000.0);
  wait_frames (5);
  g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 2);
  g_assert_nonnull (find_label (fixture.view, "Not validated"));
  g_assert_nonnull (find_label (fixture.view, "a reference leads back to itself"));

  /* a result replaced while its check runs: the old check never lands */
  plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), nested, NULL, processed);
  {
    g_autoptr(McpPoolTool) plain = make_pool_tool ("srv", SCHEMA_TOOL);
    g_autoptr(McpProcessedResult) valid =
      process_json ("{\"content\":[],\"structuredContent\":{\"temp\":21.5}}", 0);

    plugboard_result_view_set_result (PLUGBOARD_RESULT_VIEW (fixture.view), plain, NULL, valid);
    wait_schema_check (PLUGBOARD_RESULT_VIEW (fixture.view));
    wait_frames (5);
    g_assert_cmpint (plugboard_result_view_get_schema_ok (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 1);
    g_assert_nonnull (find_label (fixture.view, "matches the output schema"));
    g_assert_null (find_label (fixture.view, "Not validated"));
  }

  fixture_close (&fixture);
}

static void
test_cut_text (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *json = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  Fixture fixture;

  for (guint i = 0; i < 500; i++)
    g_string_append (text, "0123456789");
  json = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}", text->str);
  processed = process_json (json, 1000);
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), >, 0);

  fixture_show (&fixture, NULL, NULL, processed);
  g_assert_nonnull (find_button (fixture.view, "_Save Full Result…"));
  g_assert_nonnull (find_label (fixture.view, mcp_processed_result_get_notes (processed)[0]));
  fixture_close (&fixture);

  /* Not cut: no note, no button. */
  {
    g_autoptr(McpProcessedResult) small = process_json ("{\"content\":[{\"type\":\"text\",\"text\":\"short\"}]}", 0);

    fixture_show (&fixture, NULL, NULL, small);
    g_assert_null (find_button (fixture.view, "_Save Full Result…"));
    fixture_close (&fixture);
  }
}

static void
test_large_text (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new ("{\"content\":[{\"type\":\"text\",\"text\":\"");
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GPtrArray) labels = NULL;
  Fixture fixture;
  gsize longest = 0;

  while (text->len < 3 * 1024 * 1024)
    g_string_append (text, "lorem ipsum dolor sit amet ");
  g_string_append (json, text->str);
  g_string_append (json, "\"}]}");
  processed = process_json (json->str, G_MAXSIZE / 2);
  g_assert_cmpuint (mcp_processed_result_get_cut_characters (processed), ==, 0);

  fixture_show (&fixture, NULL, NULL, processed);
  /* (g_format_size() puts a no-break space before the unit) */
  g_assert_nonnull (find_label (fixture.view, "This text is 3.1"));
  g_assert_nonnull (find_label (fixture.view, "the first 65.5"));
  g_assert_nonnull (find_button (fixture.view, "_Save All As…"));
  /* The 64 KB shown are in rows of about 256 bytes, so that only the rows
   * in sight are laid out: no label holds more than one, and the list has
   * rows for all of them. */
  labels = find_all (fixture.view, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *shown = gtk_label_get_text (g_ptr_array_index (labels, i));

      longest = MAX (longest, strlen (shown));
      if (g_str_has_prefix (shown, "lorem"))
        g_assert_nonnull (strstr (text->str, shown));
    }
  /* A row's label may wrap anywhere, and has a narrowest width: without
   * one, GTK measures it by breaking after every character, which held
   * the main loop for 300 ms (bench-large-result). */
  g_clear_pointer (&labels, g_ptr_array_unref);
  labels = find_all (GTK_WIDGET (find_list_view (fixture.view)), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_label_get_wrap (g_ptr_array_index (labels, i)) &&
        gtk_label_get_wrap_mode (g_ptr_array_index (labels, i)) == PANGO_WRAP_WORD_CHAR)
      g_assert_cmpint (gtk_label_get_width_chars (g_ptr_array_index (labels, i)), >, 0);
  g_assert_cmpuint (longest, <=, 256);
  g_assert_cmpuint (longest, >, 128);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_grid_view_get_model (find_list_view (fixture.view)))),
                    >=, 64 * 4);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_grid_view_get_model (find_list_view (fixture.view)))),
                    <=, 64 * 4 * 2 + 1);
  fixture_close (&fixture);
}

typedef struct
{
  GThread *main_thread;
  int      result_gone;     /* atomic */
  int      result_on_main;  /* atomic */
} Release;

static void
result_finalized_cb (gpointer  data,
                     GObject  *where_the_object_was)
{
  Release *release = data;

  g_atomic_int_set (&release->result_on_main, g_thread_self () == release->main_thread);
  g_atomic_int_set (&release->result_gone, 1);
}

/* A result the view lets go of is freed, in a thread of its own (freeing
 * 10,000 blocks held the main loop for 400 ms), image and all. */
static void
test_release (void)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 4, 4);
  g_autofree char *png = NULL;
  gsize png_length = 0;
  g_autofree char *base64 = NULL;
  g_autoptr(GString) json = g_string_new ("{\"content\":[");
  McpProcessedResult *processed;
  g_autoptr(GPtrArray) pictures = NULL;
  Release release = { g_thread_self (), 0, 0 };
  gint64 deadline;
  Fixture fixture;

  gdk_pixbuf_fill (pixbuf, 0x2080ffff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &png, &png_length, "png", NULL, NULL));
  base64 = g_base64_encode ((guchar *) png, png_length);
  g_string_append_printf (json, "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"%s\"}", base64);
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (json, ",{\"type\":\"text\",\"text\":\"{\\\"block\\\": %u}\"}", i);
  g_string_append (json, "]}");
  processed = process_json (json->str, 0);
  g_object_weak_ref (G_OBJECT (processed), result_finalized_cb, &release);

  fixture_show (&fixture, NULL, NULL, processed);
  pictures = find_all (fixture.view, GTK_TYPE_PICTURE);
  g_assert_cmpuint (pictures->len, ==, 1);
  g_clear_pointer (&pictures, g_ptr_array_unref);
  g_object_unref (processed);
  g_assert_false (g_atomic_int_get (&release.result_gone));

  plugboard_result_view_clear (PLUGBOARD_RESULT_VIEW (fixture.view));
  g_assert_null (find_button (fixture.view, "_Save As…"));
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!g_atomic_int_get (&release.result_gone))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);  /* a leak, not a timing */
      wait_frames (5);
    }
  g_assert_false (g_atomic_int_get (&release.result_on_main));

  fixture_close (&fixture);
}

static void
test_many_blocks (void)
{
  g_autoptr(GString) json = g_string_new ("{\"content\":[");
  g_autoptr(McpProcessedResult) processed = NULL;
  GtkGridView *list_view;
  GListModel *model;
  guint rows = 0;
  gint64 start;
  Fixture fixture;

  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (json, "%s{\"type\":\"text\",\"text\":\"block %u\"}", i > 0 ? "," : "", i);
  g_string_append (json, "]}");
  processed = process_json (json->str, 0);

  start = g_get_monotonic_time ();
  fixture_show (&fixture, NULL, NULL, processed);
  g_test_message ("10,000 blocks shown in %.0f ms (with 100 ms of settling)",
                  (g_get_monotonic_time () - start) / 1000.0);

  g_assert_cmpuint (plugboard_result_view_get_n_blocks (PLUGBOARD_RESULT_VIEW (fixture.view)), ==, 10000);
  list_view = find_list_view (fixture.view);
  model = G_LIST_MODEL (gtk_grid_view_get_model (list_view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10000);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    rows++;
  g_assert_cmpuint (rows, >, 0);
  /* Not a widget per block: a GtkGridView of one column keeps about 30. */
  g_assert_cmpuint (rows, <, 60);
  g_assert_nonnull (find_label (fixture.view, "block 0"));
  g_assert_null (find_label (fixture.view, "block 9999"));
  fixture_close (&fixture);
}

static void
test_command_line (void)
{
  g_autoptr(McpPoolTool) tool = make_pool_tool ("srv", "{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(McpPoolTool) odd = make_pool_tool ("my server", "{\"name\":\"it's\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(McpProcessedResult) processed = process_json ("{\"content\":[{\"type\":\"text\",\"text\":\"1\"}]}", 0);
  g_autoptr(JsonObject) arguments = parse_object ("{\"a\":1}");
  g_autoptr(JsonObject) quoted = parse_object ("{\"s\":\"it's $HOME\"}");
  PlugboardResultView *view = PLUGBOARD_RESULT_VIEW (g_object_ref_sink (plugboard_result_view_new ()));
  g_autofree char *line = NULL;
  g_autofree char *no_args = NULL;
  g_autofree char *odd_line = NULL;
  g_autofree char *none = NULL;

  plugboard_result_view_set_result (view, tool, arguments, processed);
  line = plugboard_result_view_dup_command_line (view);
  g_assert_cmpstr (line, ==, "plugboard-cli call srv echo --args '{\"a\":1}'");

  plugboard_result_view_set_result (view, tool, NULL, processed);
  no_args = plugboard_result_view_dup_command_line (view);
  g_assert_cmpstr (no_args, ==, "plugboard-cli call srv echo");

  plugboard_result_view_set_result (view, odd, quoted, processed);
  odd_line = plugboard_result_view_dup_command_line (view);
  g_assert_cmpstr (odd_line, ==,
                   "plugboard-cli call 'my server' 'it'\\''s' --args '{\"s\":\"it'\\''s $HOME\"}'");

  plugboard_result_view_clear (view);
  none = plugboard_result_view_dup_command_line (view);
  g_assert_null (none);
  g_assert_cmpuint (plugboard_result_view_get_n_blocks (view), ==, 0);

  g_object_unref (view);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  if (!ui_test_init_widgets (&argc, &argv, 30))
    return 0;

  results_dir = g_dir_make_tmp ("test-result-view-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/result-view/text-markdown", test_text_markdown);
  g_test_add_func ("/ui/result-view/json-tree", test_json_tree);
  g_test_add_func ("/ui/result-view/image", test_image);
  g_test_add_func ("/ui/result-view/bad-image", test_bad_image);
  g_test_add_func ("/ui/result-view/audio", test_audio);
  g_test_add_func ("/ui/result-view/resource-link", test_resource_link);
  g_test_add_func ("/ui/result-view/error", test_error_result);
  g_test_add_func ("/ui/result-view/structured", test_structured);
  g_test_add_func ("/ui/result-view/structured-bomb", test_structured_bomb);
  g_test_add_func ("/ui/result-view/cut-text", test_cut_text);
  g_test_add_func ("/ui/result-view/large-text", test_large_text);
  g_test_add_func ("/ui/result-view/many-blocks", test_many_blocks);
  g_test_add_func ("/ui/result-view/release", test_release);
  g_test_add_func ("/ui/result-view/command-line", test_command_line);

  status = g_test_run ();

  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", results_dir);

    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  }
  g_free (results_dir);
  return status;
}
