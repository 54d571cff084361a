/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-schema-form"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <stdio.h>
#include <string.h>

#include "mcp-form-field.h"
#include "mcp-json-private.h"
#include "plugboard-elicitation-dialog.h"
#include "plugboard-json-editor.h"
#include "plugboard-schema-form.h"
#include "test-json.h"
#include "ui-test-common.h"

/* The rows keep their field under this key (plugboard-schema-form.c). */
#define DATA_FIELD "plugboard-form-field"

static const char *schema_text =
  "{"
  "  \"type\": \"object\","
  "  \"$defs\": {"
  "    \"node\": {"
  "      \"type\": \"object\","
  "      \"properties\": {"
  "        \"label\": {\"type\": \"string\"},"
  "        \"child\": {\"$ref\": \"#/$defs/node\"}"
  "      }"
  "    }"
  "  },"
  "  \"properties\": {"
  "    \"name\": {\"type\": \"string\", \"pattern\": \"^[a-z]+$\", \"description\": \"Lower-case letters\"},"
  "    \"count\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 10},"
  "    \"enabled\": {\"type\": \"boolean\"},"
  "    \"color\": {\"enum\": [\"red\", \"green\", \"blue\"]},"
  "    \"address\": {"
  "      \"type\": \"object\","
  "      \"properties\": {\"city\": {\"type\": \"string\"}},"
  "      \"required\": [\"city\"]"
  "    },"
  "    \"items\": {"
  "      \"type\": \"array\","
  "      \"items\": {"
  "        \"type\": \"object\","
  "        \"properties\": {\"id\": {\"type\": \"integer\"}},"
  "        \"required\": [\"id\"]"
  "      }"
  "    },"
  "    \"target\": {"
  "      \"oneOf\": ["
  "        {\"title\": \"By name\", \"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}, \"additionalProperties\": false},"
  "        {\"title\": \"By id\", \"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\"}}, \"additionalProperties\": false}"
  "      ]"
  "    },"
  "    \"env\": {\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}},"
  "    \"tree\": {\"$ref\": \"#/$defs/node\"},"
  "    \"pair\": {\"type\": \"array\", \"prefixItems\": [{\"type\": \"string\"}, {\"type\": \"number\"}]}"
  "  },"
  "  \"required\": [\"name\", \"address\"]"
  "}";

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* @expected as the compact JSON the model must produce, member order too. */
static void
assert_json (McpFormField *field,
             const char   *expected)
{
  g_autoptr(JsonNode) node = test_json_parse (expected);
  g_autofree char *want = test_json_text (node);
  g_autofree char *got = test_json_form_text (field);

  g_assert_cmpstr (got, ==, want);
}

/* The first widget below @root (depth first) of @type showing @field. */
typedef struct
{
  McpFormField *field;
  GType         type;
} FieldRow;

static gboolean
shows_field (GtkWidget     *widget,
             gconstpointer  data)
{
  const FieldRow *wanted = data;

  return G_TYPE_CHECK_INSTANCE_TYPE (widget, wanted->type) &&
         g_object_get_data (G_OBJECT (widget), DATA_FIELD) == wanted->field;
}

static GtkWidget *
find_row (GtkWidget    *root,
          McpFormField *field,
          GType         type)
{
  const FieldRow wanted = { field, type };

  return find_widget_matching (root, UI_WALK_ALL, shows_field, &wanted);
}

static PlugboardJsonEditor *
find_editor (GtkWidget *root)
{
  return PLUGBOARD_JSON_EDITOR (find_widget (root, PLUGBOARD_TYPE_JSON_EDITOR));
}

static McpFormField *
child_at (McpFormField *field,
          guint         index)
{
  g_autoptr(McpFormField) child = g_list_model_get_item (mcp_form_field_get_children (field), index);

  g_assert_nonnull (child);
  return child;  /* the parent's store keeps it */
}

static void
type_into (GtkWidget    *form,
           McpFormField *field,
           const char   *text)
{
  GtkWidget *row = find_row (form, field, ADW_TYPE_ENTRY_ROW);

  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  test_iterate_pending ();
}

static void
click_action (GtkWidget  *form,
              const char *action_name,
              const char *path)
{
  GtkWidget *widget = find_actionable (form, action_name, path);

  g_assert_nonnull (widget);
  g_assert_true (gtk_widget_get_sensitive (widget));
  if (GTK_IS_BUTTON (widget))
    g_signal_emit_by_name (widget, "clicked");
  else
    g_assert_true (gtk_widget_activate (widget));
  test_iterate_pending ();
}

static McpFormField *
new_field (const char *text)
{
  g_autoptr(JsonNode) schema = test_json_parse (text);

  return mcp_form_field_new_from_schema (schema);
}

static GtkWidget *
show_form (McpFormField  *field,
           GtkWindow    **window_out)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *form = plugboard_schema_form_new (field);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), form);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 800);
  gtk_window_present (GTK_WINDOW (window));
  test_iterate_pending ();
  *window_out = GTK_WINDOW (window);
  return form;
}

/* ------------------------------------------------------------------------ */
/* The form                                                                 */

static void
test_widgets_to_json (void)
{
  g_autoptr(McpFormField) root = new_field (schema_text);
  GtkWindow *window;
  GtkWidget *form = show_form (root, &window);
  McpFormField *name = mcp_form_field_get_child (root, "name");
  McpFormField *items = mcp_form_field_get_child (root, "items");
  McpFormField *target = mcp_form_field_get_child (root, "target");
  McpFormField *env = mcp_form_field_get_child (root, "env");
  McpFormField *tree = mcp_form_field_get_child (root, "tree");
  GtkWidget *row;
  GtkWidget *toggle;
  GtkWidget *new_key;

  g_assert_true (plugboard_schema_form_get_field (PLUGBOARD_SCHEMA_FORM (form)) == root);

  /* the pattern, checked live */
  type_into (form, name, "Not Valid");
  row = find_row (form, name, ADW_TYPE_ENTRY_ROW);
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  type_into (form, name, "alice");
  g_assert_false (gtk_widget_has_css_class (row, "error"));

  /* bounds, checked live too, shown as a hint */
  type_into (form, mcp_form_field_get_child (root, "count"), "11");
  row = find_row (form, mcp_form_field_get_child (root, "count"), ADW_TYPE_ENTRY_ROW);
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  type_into (form, mcp_form_field_get_child (root, "count"), "7");
  g_assert_false (gtk_widget_has_css_class (row, "error"));

  row = find_row (form, mcp_form_field_get_child (root, "enabled"), ADW_TYPE_ACTION_ROW);
  g_assert_nonnull (row);
  toggle = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  gtk_switch_set_active (GTK_SWITCH (toggle), TRUE);

  row = find_row (form, mcp_form_field_get_child (root, "color"), ADW_TYPE_COMBO_ROW);
  g_assert_nonnull (row);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, GTK_INVALID_LIST_POSITION);
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 2);

  type_into (form, mcp_form_field_get_child (mcp_form_field_get_child (root, "address"), "city"), "Paris");

  /* an array of objects: add two, fill, move, add a third, remove one */
  click_action (form, "form.add-item", "$.items");
  click_action (form, "form.add-item", "$.items");
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (items)), ==, 2);
  type_into (form, mcp_form_field_get_child (child_at (items, 0), "id"), "1");
  type_into (form, mcp_form_field_get_child (child_at (items, 1), "id"), "2");
  /* the first cannot go up, the last cannot go down */
  g_assert_null (find_actionable (form, "form.move-up", "$.items[0]"));
  g_assert_null (find_actionable (form, "form.move-down", "$.items[1]"));
  g_assert_nonnull (find_actionable (form, "form.move-up", "$.items[1]"));
  click_action (form, "form.move-down", "$.items[0]");
  assert_json (items, "[{\"id\": 2}, {\"id\": 1}]");
  click_action (form, "form.add-item", "$.items");
  type_into (form, mcp_form_field_get_child (child_at (items, 2), "id"), "3");
  click_action (form, "form.remove-item", "$.items[1]");
  assert_json (items, "[{\"id\": 2}, {\"id\": 3}]");

  /* a union: switch the variant, the rows follow */
  row = find_row (form, target, ADW_TYPE_COMBO_ROW);
  g_assert_nonnull (row);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, 0);
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  test_iterate_pending ();
  g_assert_cmpuint (mcp_form_field_get_variant (target), ==, 1);
  type_into (form, mcp_form_field_get_child (child_at (target, 0), "id"), "5");

  /* a map: a new key, then its value */
  new_key = find_row (form, env, ADW_TYPE_ENTRY_ROW);
  g_assert_nonnull (new_key);
  gtk_editable_set_text (GTK_EDITABLE (new_key), "HOME");
  g_signal_emit_by_name (new_key, "apply");
  test_iterate_pending ();
  g_assert_nonnull (mcp_form_field_get_child (env, "HOME"));
  type_into (form, mcp_form_field_get_child (env, "HOME"), "/root");

  /* a recursive $ref: each level is created when it is switched on */
  row = find_row (form, tree, ADW_TYPE_EXPANDER_ROW);
  g_assert_nonnull (row);
  g_assert_false (adw_expander_row_get_enable_expansion (ADW_EXPANDER_ROW (row)));
  adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (row), TRUE);
  test_iterate_pending ();
  g_assert_true (mcp_form_field_get_present (tree));
  type_into (form, mcp_form_field_get_child (tree, "label"), "root");
  {
    McpFormField *child = mcp_form_field_get_child (tree, "child");

    g_assert_nonnull (child);
    g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (child)), ==, 0);
    row = find_row (form, child, ADW_TYPE_EXPANDER_ROW);
    g_assert_nonnull (row);
    adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (row), TRUE);
    test_iterate_pending ();
    g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (child)), ==, 2);
    type_into (form, mcp_form_field_get_child (child, "label"), "leaf");
  }

  assert_json (root,
               "{\"name\": \"alice\", \"count\": 7, \"enabled\": true, \"color\": \"blue\","
               " \"address\": {\"city\": \"Paris\"}, \"items\": [{\"id\": 2}, {\"id\": 3}],"
               " \"target\": {\"id\": 5}, \"env\": {\"HOME\": \"/root\"},"
               " \"tree\": {\"label\": \"root\", \"child\": {\"label\": \"leaf\"}}}");

  /* clearing an optional entry leaves the property out again */
  type_into (form, mcp_form_field_get_child (root, "count"), "");
  g_assert_false (mcp_form_field_get_present (mcp_form_field_get_child (root, "count")));
  g_assert_false (g_str_has_prefix (test_json_form_text (root), "{\"name\":\"alice\",\"count\""));

  gtk_window_destroy (window);
}

static gboolean label_shows (GtkWidget  *root,
                             const char *text);

static void
collect_checks (GtkWidget *root,
                GPtrArray *found)
{
  if (GTK_IS_CHECK_BUTTON (root) && gtk_widget_get_visible (root))
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_checks (child, found);
}

/* Issue 21: a multi-select (an array of a few values, elicitation's
 * "items": {"enum"} or titled "anyOf") is one check row per value; it was a
 * switch and "Add Item" rows. */
static void
test_multi_select (void)
{
  g_autoptr(McpFormField) field = new_field ("{\"type\":\"object\",\"properties\":{"
                                             "\"pets\":{\"type\":\"array\",\"uniqueItems\":true,"
                                             "\"items\":{\"type\":\"string\",\"enum\":[\"cat\",\"dog\",\"fish\"],"
                                             "\"enumNames\":[\"Cats\",\"Dogs\",\"Fish\"]}}},"
                                             "\"required\":[\"pets\"]}");
  g_autoptr(GPtrArray) checks = g_ptr_array_new ();
  GtkWindow *window = NULL;
  GtkWidget *form = show_form (field, &window);

  collect_checks (form, checks);
  g_assert_cmpuint (checks->len, ==, 3);
  g_assert_null (find_actionable (form, "form.add-item", "pets"));
  g_assert_true (label_shows (form, "Dogs"));

  gtk_check_button_set_active (checks->pdata[1], TRUE);
  test_iterate_pending ();
  g_ptr_array_set_size (checks, 0);
  collect_checks (form, checks);
  gtk_check_button_set_active (checks->pdata[2], TRUE);
  test_iterate_pending ();
  assert_json (field, "{\"pets\":[\"dog\",\"fish\"]}");

  g_ptr_array_set_size (checks, 0);
  collect_checks (form, checks);
  g_assert_true (gtk_check_button_get_active (checks->pdata[1]));
  gtk_check_button_set_active (checks->pdata[1], FALSE);
  test_iterate_pending ();
  assert_json (field, "{\"pets\":[\"fish\"]}");

  gtk_window_destroy (window);
}

static void
test_json_to_widgets (void)
{
  g_autoptr(McpFormField) root = new_field (schema_text);
  g_autoptr(JsonNode) value = test_json_parse ("{\"name\": \"bob\", \"count\": 3, \"enabled\": true, \"color\": \"green\","
                                     " \"address\": {\"city\": \"Oslo\"},"
                                     " \"items\": [{\"id\": 10}, {\"id\": 20}, {\"id\": 30}],"
                                     " \"target\": {\"id\": 9}, \"env\": {\"A\": \"1\", \"B\": \"2\"}}");
  GtkWindow *window;
  GtkWidget *form = show_form (root, &window);
  McpFormField *items;
  McpFormField *target;
  GtkWidget *row;

  mcp_form_field_set_from_json (root, value);
  test_iterate_pending ();

  row = find_row (form, mcp_form_field_get_child (root, "name"), ADW_TYPE_ENTRY_ROW);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "bob");
  row = find_row (form, mcp_form_field_get_child (root, "count"), ADW_TYPE_ENTRY_ROW);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "3");
  row = find_row (form, mcp_form_field_get_child (root, "enabled"), ADW_TYPE_ACTION_ROW);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row)))));
  row = find_row (form, mcp_form_field_get_child (root, "color"), ADW_TYPE_COMBO_ROW);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, 1);

  items = mcp_form_field_get_child (root, "items");
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u", (i + 1) * 10);

      row = find_row (form, mcp_form_field_get_child (child_at (items, i), "id"), ADW_TYPE_ENTRY_ROW);
      g_assert_nonnull (row);
      g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, want);
    }
  g_assert_null (find_actionable (form, "form.remove-item", "$.items[3]"));
  g_assert_nonnull (find_actionable (form, "form.remove-item", "$.items[2]"));

  target = mcp_form_field_get_child (root, "target");
  row = find_row (form, target, ADW_TYPE_COMBO_ROW);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, 1);
  row = find_row (form, mcp_form_field_get_child (child_at (target, 0), "id"), ADW_TYPE_ENTRY_ROW);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "9");

  row = find_row (form, mcp_form_field_get_child (mcp_form_field_get_child (root, "env"), "B"), ADW_TYPE_ENTRY_ROW);
  g_assert_nonnull (row);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "2");

  /* a field changed in the model shows in its row */
  mcp_form_field_set_text (mcp_form_field_get_child (root, "name"), "carol");
  row = find_row (form, mcp_form_field_get_child (root, "name"), ADW_TYPE_ENTRY_ROW);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "carol");

  /* the optional tree stayed off */
  row = find_row (form, mcp_form_field_get_child (root, "tree"), ADW_TYPE_EXPANDER_ROW);
  g_assert_false (adw_expander_row_get_enable_expansion (ADW_EXPANDER_ROW (row)));

  assert_json (root,
               "{\"name\": \"carol\", \"count\": 3, \"enabled\": true, \"color\": \"green\","
               " \"address\": {\"city\": \"Oslo\"}, \"items\": [{\"id\": 10}, {\"id\": 20}, {\"id\": 30}],"
               " \"target\": {\"id\": 9}, \"env\": {\"A\": \"1\", \"B\": \"2\"}}");

  gtk_window_destroy (window);
}

/* A tuple array the form cannot express: a JSON editor for that field
 * only, whose text is kept exactly as typed. */
static void
test_json_field (void)
{
  g_autoptr(McpFormField) root = new_field (schema_text);
  McpFormField *pair = mcp_form_field_get_child (root, "pair");
  const char *typed = "[\"caf\\u00e9\",   1.50]";
  GtkWindow *window;
  GtkWidget *form = show_form (root, &window);
  PlugboardJsonEditor *editor;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  GtkWindow *window2;
  GtkWidget *form2;

  g_assert_cmpint (mcp_form_field_get_kind (pair), ==, MCP_FORM_FIELD_JSON);
  editor = find_editor (find_row (form, pair, GTK_TYPE_LIST_BOX_ROW));
  g_assert_nonnull (editor);
  g_assert_null (find_editor (find_row (form, mcp_form_field_get_child (root, "name"), ADW_TYPE_ENTRY_ROW)));

  plugboard_json_editor_set_text (editor, typed);
  test_iterate_pending ();
  g_assert_true (plugboard_json_editor_get_valid (editor));
  g_assert_cmpstr (mcp_form_field_get_text (pair), ==, typed);
  g_assert_true (mcp_form_field_get_present (pair));
  node = mcp_form_field_to_json (pair, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==, "café");

  /* another form on the same model shows the same text, not re-escaped */
  form2 = show_form (root, &window2);
  editor = find_editor (find_row (form2, pair, GTK_TYPE_LIST_BOX_ROW));
  g_assert_cmpstr (plugboard_json_editor_get_text (editor), ==, typed);
  gtk_window_destroy (window2);

  /* invalid text: the error with line and column, nothing rewritten */
  editor = find_editor (find_row (form, pair, GTK_TYPE_LIST_BOX_ROW));
  plugboard_json_editor_set_text (editor, "[1,\n  2,,]");
  test_iterate_pending ();
  g_assert_false (plugboard_json_editor_get_valid (editor));
  {
    g_autofree char *message = NULL;

    g_object_get (editor, "error-message", &message, NULL);
    g_assert_nonnull (strstr (message, "line 2, column 5"));
  }
  g_assert_cmpstr (mcp_form_field_get_text (pair), ==, "[1,\n  2,,]");
  g_assert_cmpstr (plugboard_json_editor_get_text (editor), ==, "[1,\n  2,,]");
  g_assert_null (mcp_form_field_to_json (root, NULL));

  gtk_window_destroy (window);
}

static void
test_json_editor (void)
{
  GtkWidget *editor = g_object_ref_sink (plugboard_json_editor_new ());
  g_autoptr(JsonNode) node = test_json_parse ("{\"a\": [1, {\"b\": null}]}");
  g_autoptr(JsonNode) back = NULL;
  g_autoptr(GError) error = NULL;
  guint changed = 0;

  g_assert_false (plugboard_json_editor_get_valid (PLUGBOARD_JSON_EDITOR (editor)));

  plugboard_json_editor_set_json (PLUGBOARD_JSON_EDITOR (editor), node);
  g_assert_cmpstr (plugboard_json_editor_get_text (PLUGBOARD_JSON_EDITOR (editor)), ==,
                   "{\n  \"a\" : [\n    1,\n    {\n      \"b\" : null\n    }\n  ]\n}");
  g_assert_true (plugboard_json_editor_get_valid (PLUGBOARD_JSON_EDITOR (editor)));
  back = plugboard_json_editor_dup_json (PLUGBOARD_JSON_EDITOR (editor), &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (back, node));

  g_signal_connect_swapped (editor, "changed", G_CALLBACK (g_atomic_int_inc), &changed);
  plugboard_json_editor_set_text (PLUGBOARD_JSON_EDITOR (editor), "{\"x\": tru}");
  g_assert_cmpuint (changed, ==, 1);
  g_assert_false (plugboard_json_editor_get_valid (PLUGBOARD_JSON_EDITOR (editor)));
  g_assert_null (plugboard_json_editor_dup_json (PLUGBOARD_JSON_EDITOR (editor), NULL));

  plugboard_json_editor_set_editable (PLUGBOARD_JSON_EDITOR (editor), FALSE);
  {
    gboolean editable = TRUE;

    g_object_get (editor, "editable", &editable, NULL);
    g_assert_false (editable);
  }

  g_object_unref (editor);
}

/* ------------------------------------------------------------------------ */
/* The elicitation dialog                                                   */

static void
answered_cb (PlugboardElicitationDialog *dialog,
             JsonNode                   *result,
             char                      **out)
{
  g_assert_null (*out);
  *out = test_json_text (result);
}

static PlugboardElicitationDialog *
new_dialog (const char  *params_text,
            char       **answer)
{
  g_autoptr(JsonNode) params = test_json_parse (params_text);
  PlugboardElicitationDialog *dialog =
    plugboard_elicitation_dialog_new (NULL, "weather", json_node_get_object (params));

  g_signal_connect (dialog, "answered", G_CALLBACK (answered_cb), answer);
  gtk_window_present (GTK_WINDOW (dialog));
  test_iterate_pending ();
  return dialog;
}

static const char *form_params =
  "{\"message\": \"Where are you?\","
  " \"requestedSchema\": {\"type\": \"object\","
  "   \"properties\": {\"city\": {\"type\": \"string\", \"title\": \"City\"},"
  "                  \"days\": {\"type\": \"integer\", \"minimum\": 1},"
  "                  \"metric\": {\"type\": \"boolean\"}},"
  "   \"required\": [\"city\"]}}";

static GtkWidget *
find_button (GtkWidget  *root,
             const char *target)
{
  return find_actionable (root, "elicitation.respond", target);
}

static void
test_elicitation_accept (void)
{
  g_autofree char *answer = NULL;
  g_autoptr(GtkWidget) dialog = NULL;
  McpFormField *field;
  GtkWidget *submit;
  GtkWidget *row;

  dialog = g_object_ref (GTK_WIDGET (new_dialog (form_params, &answer)));
  field = plugboard_elicitation_dialog_get_field (PLUGBOARD_ELICITATION_DIALOG (dialog));
  g_assert_nonnull (field);
  submit = find_button (dialog, "accept");
  g_assert_nonnull (submit);

  /* the required city is missing */
  g_assert_false (gtk_widget_get_sensitive (submit));
  plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (dialog), "accept");
  g_assert_null (answer);

  type_into (dialog, mcp_form_field_get_child (field, "city"), "Lyon");
  type_into (dialog, mcp_form_field_get_child (field, "days"), "0");
  g_assert_false (gtk_widget_get_sensitive (submit));
  type_into (dialog, mcp_form_field_get_child (field, "days"), "3");
  row = find_row (dialog, mcp_form_field_get_child (field, "metric"), ADW_TYPE_ACTION_ROW);
  gtk_switch_set_active (GTK_SWITCH (adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row))), TRUE);
  g_assert_true (gtk_widget_get_sensitive (submit));

  g_signal_emit_by_name (submit, "clicked");
  test_iterate_pending ();
  g_assert_cmpstr (answer, ==, "{\"action\":\"accept\",\"content\":{\"city\":\"Lyon\",\"days\":3,\"metric\":true}}");
  g_assert_false (gtk_widget_get_visible (dialog));
}

static void
test_elicitation_decline (void)
{
  g_autofree char *answer = NULL;
  g_autoptr(GtkWidget) dialog = g_object_ref (GTK_WIDGET (new_dialog (form_params, &answer)));

  type_into (dialog, mcp_form_field_get_child (plugboard_elicitation_dialog_get_field (PLUGBOARD_ELICITATION_DIALOG (dialog)), "city"), "Lyon");
  g_signal_emit_by_name (find_button (dialog, "decline"), "clicked");
  test_iterate_pending ();
  g_assert_cmpstr (answer, ==, "{\"action\":\"decline\"}");
  g_assert_false (gtk_widget_get_visible (dialog));
}

static gboolean
is_mapped_label_reading (GtkWidget     *widget,
                         gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static gboolean
label_shows (GtkWidget  *root,
             const char *text)
{
  return find_widget_matching (root, UI_WALK_ALL, is_mapped_label_reading, text) != NULL;
}

/* Issue 20: a schema whose union is itself gives one level, then a JSON
 * editor whose row says why. */
static void
test_too_complex (void)
{
  g_autoptr(McpFormField) root = new_field ("{\"oneOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#\"}]}");
  McpFormField *inner;
  GtkWindow *window;
  GtkWidget *form;
  PlugboardJsonEditor *editor;

  g_assert_cmpint (mcp_form_field_get_kind (root), ==, MCP_FORM_FIELD_UNION);
  inner = MCP_FORM_FIELD (g_list_model_get_item (mcp_form_field_get_children (root), 0));
  g_object_unref (inner);  /* the model keeps it */
  g_assert_true (mcp_form_field_get_too_complex (inner));

  form = show_form (root, &window);
  g_assert_true (label_shows (form, "The schema is too complex for a form here: edited as JSON"));
  editor = find_editor (find_row (form, inner, GTK_TYPE_LIST_BOX_ROW));
  g_assert_nonnull (editor);
  plugboard_json_editor_set_text (editor, "{\"a\": 1}");
  test_iterate_pending ();
  g_assert_cmpstr (mcp_form_field_get_text (inner), ==, "{\"a\": 1}");
  gtk_window_destroy (window);
}

static const char *url_params =
  "{\"mode\": \"url\", \"elicitationId\": \"e-1\","
  " \"url\": \"https://example.com/connect?state=abc&next=%2Fdone\","
  " \"message\": \"Connect your account\"}";

static void
test_elicitation_url_decline (void)
{
  g_autofree char *answer = NULL;
  g_autoptr(GtkWidget) dialog = g_object_ref (GTK_WIDGET (new_dialog (url_params, &answer)));

  g_assert_null (plugboard_elicitation_dialog_get_field (PLUGBOARD_ELICITATION_DIALOG (dialog)));
  g_assert_true (label_shows (dialog, "https://example.com/connect?state=abc&next=%2Fdone"));
  g_assert_true (label_shows (dialog, "Connect your account"));
  g_assert_true (gtk_widget_get_sensitive (find_button (dialog, "accept")));

  g_signal_emit_by_name (find_button (dialog, "decline"), "clicked");
  test_iterate_pending ();
  g_assert_cmpstr (answer, ==, "{\"action\":\"decline\"}");
}

static void
test_elicitation_url_open (void)
{
  g_autofree char *answer = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-elicitation-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "opened", NULL);
  /* written aside and renamed: the shell makes the file before printf
   * fills it, and the test may read it in between */
  g_autofree char *command = g_strdup_printf ("sh -c 'printf %%s \"$0\" > %s.part && mv %s.part %s'",
                                              out, out, out);
  g_autoptr(GtkWidget) dialog = NULL;
  g_autofree char *opened = NULL;
  gint64 deadline;

  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", command, TRUE);
  dialog = g_object_ref (GTK_WIDGET (new_dialog (url_params, &answer)));
  g_signal_emit_by_name (find_button (dialog, "accept"), "clicked");
  test_iterate_pending ();
  g_assert_cmpstr (answer, ==, "{\"action\":\"accept\"}");

  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!g_file_get_contents (out, &opened, NULL, NULL) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (10000);
  g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  g_assert_cmpstr (opened, ==, "https://example.com/connect?state=abc&next=%2Fdone");

  g_remove (out);
  g_rmdir (dir);
}

static void
test_elicitation_close (void)
{
  g_autofree char *answer = NULL;
  g_autofree char *url_answer = NULL;
  g_autoptr(GtkWidget) dialog = g_object_ref (GTK_WIDGET (new_dialog (form_params, &answer)));
  g_autoptr(GtkWidget) url_dialog = g_object_ref (GTK_WIDGET (new_dialog (url_params, &url_answer)));

  gtk_window_close (GTK_WINDOW (dialog));
  test_iterate_pending ();
  g_assert_cmpstr (answer, ==, "{\"action\":\"cancel\"}");

  /* Cancel answers cancel too, once */
  g_signal_emit_by_name (find_button (url_dialog, "cancel"), "clicked");
  test_iterate_pending ();
  g_assert_cmpstr (url_answer, ==, "{\"action\":\"cancel\"}");
  plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (url_dialog), "decline");
  g_assert_cmpstr (url_answer, ==, "{\"action\":\"cancel\"}");
}

/* The editor's colours follow the light or dark style (a binding from
 * AdwStyleManager:dark to the buffer's style scheme). */
static void
test_json_editor_dark (void)
{
  GtkWidget *editor = g_object_ref_sink (plugboard_json_editor_new ());
  AdwStyleManager *manager = adw_style_manager_get_default ();
  AdwColorScheme before = adw_style_manager_get_color_scheme (manager);
  GtkTextView *view = GTK_TEXT_VIEW (find_widget (editor, GTK_SOURCE_TYPE_VIEW));
  GtkSourceBuffer *buffer;

  g_assert_nonnull (view);
  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (view));

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  test_iterate_pending ();
  g_assert_true (adw_style_manager_get_dark (manager));
  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==, "Adwaita-dark");

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  test_iterate_pending ();
  g_assert_false (adw_style_manager_get_dark (manager));
  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==, "Adwaita");

  adw_style_manager_set_color_scheme (manager, before);
  g_object_unref (editor);
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  ui_test_init (&argc, &argv);

  g_test_add_func ("/ui/schema-form/widgets-to-json", test_widgets_to_json);
  g_test_add_func ("/ui/schema-form/json-to-widgets", test_json_to_widgets);
  g_test_add_func ("/ui/schema-form/json-field", test_json_field);
  g_test_add_func ("/ui/schema-form/multi-select", test_multi_select);
  g_test_add_func ("/ui/schema-form/too-complex", test_too_complex);
  g_test_add_func ("/ui/json-editor/basics", test_json_editor);
  g_test_add_func ("/ui/json-editor/follows-dark", test_json_editor_dark);
  g_test_add_func ("/ui/elicitation/accept", test_elicitation_accept);
  g_test_add_func ("/ui/elicitation/decline", test_elicitation_decline);
  g_test_add_func ("/ui/elicitation/url-decline", test_elicitation_url_decline);
  g_test_add_func ("/ui/elicitation/url-open", test_elicitation_url_open);
  g_test_add_func ("/ui/elicitation/close", test_elicitation_close);

  return g_test_run ();
}
