/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-form-field"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-form-field.h"
#include "mcp-json-private.h"
#include "mcp-json-schema.h"
#include "test-json.h"

static McpFormField *
child_at (McpFormField *field,
          guint         index)
{
  g_autoptr(McpFormField) child = g_list_model_get_item (mcp_form_field_get_children (field), index);

  g_assert_nonnull (child);
  return child;  /* the field keeps it */
}

static McpFormField *
path_child (McpFormField *field,
            const char   *name)
{
  McpFormField *child = mcp_form_field_get_child (field, name);

  g_assert_nonnull (child);
  return child;
}

/* A deterministic filler: a value of the right kind for every field,
 * within the schema's bounds. */

static gboolean
schema_number (JsonObject *schema,
               const char *member,
               double     *out)
{
  JsonNode *node = json_object_get_member (schema, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) == G_TYPE_STRING ||
      json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return FALSE;
  *out = json_node_get_value_type (node) == G_TYPE_INT64 ? (double) json_node_get_int (node) : json_node_get_double (node);
  return TRUE;
}

static void
fill (McpFormField *field,
      guint         depth,
      guint         serial)
{
  JsonObject *schema = mcp_form_field_get_schema (field);
  JsonNode *examples = json_object_get_member (schema, "examples");
  guint n;

  switch (mcp_form_field_get_kind (field))
    {
    case MCP_FORM_FIELD_STRING:
      {
        const char *format = mcp_form_field_get_format (field);
        g_autofree char *text = g_strdup_printf ("value %u", serial);

        if (examples != NULL && JSON_NODE_HOLDS_ARRAY (examples))
          mcp_form_field_set_text (field, json_array_get_string_element (json_node_get_array (examples), 0));
        else if (g_strcmp0 (format, "date") == 0)
          mcp_form_field_set_text (field, "2024-02-29");
        else if (g_strcmp0 (format, "date-time") == 0)
          mcp_form_field_set_text (field, "2024-02-29T12:30:00.5+01:00");
        else if (g_strcmp0 (format, "email") == 0)
          mcp_form_field_set_text (field, "ada@example.org");
        else if (g_strcmp0 (format, "uri") == 0)
          mcp_form_field_set_text (field, "https://example.org/a?b=c");
        else if (g_strcmp0 (format, "uuid") == 0)
          mcp_form_field_set_text (field, "123e4567-e89b-12d3-a456-426614174000");
        else
          mcp_form_field_set_text (field, text);
      }
      break;

    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
      {
        gboolean integer = mcp_form_field_get_kind (field) == MCP_FORM_FIELD_INTEGER;
        double low, high, step;
        g_autofree char *text = NULL;

        if (schema_number (schema, "maximum", &high))
          text = g_strdup_printf ("%g", high);
        else if (schema_number (schema, "minimum", &low))
          text = g_strdup_printf ("%g", low + (integer ? 1 : 0.5));
        else if (schema_number (schema, "multipleOf", &step))
          text = g_strdup_printf ("%g", step * 3);
        else
          text = g_strdup (integer ? "7" : "1.50");
        if (!integer && schema_number (schema, "exclusiveMinimum", &low))
          text = (g_free (text), g_strdup ("12.50"));
        mcp_form_field_set_text (field, text);
      }
      break;

    case MCP_FORM_FIELD_BOOLEAN:
      mcp_form_field_set_boolean (field, TRUE);
      break;

    case MCP_FORM_FIELD_NULL:
    case MCP_FORM_FIELD_CONST:
      mcp_form_field_set_present (field, TRUE);
      break;

    case MCP_FORM_FIELD_ENUM:
      mcp_form_field_set_choice (field, mcp_form_field_get_choices (field)->len - 1);
      break;

    case MCP_FORM_FIELD_OBJECT:
      if (!mcp_form_field_get_present (field) && depth > 3)
        break;  /* recursive schemas: three levels are enough */
      mcp_form_field_set_present (field, TRUE);
      n = g_list_model_get_n_items (mcp_form_field_get_children (field));
      for (guint i = 0; i < n; i++)
        fill (child_at (field, i), depth + 1, serial * 10 + i);
      break;

    case MCP_FORM_FIELD_ARRAY:
      {
        JsonNode *unique = json_object_get_member (schema, "uniqueItems");
        guint count = unique != NULL && json_node_get_boolean (unique) ? 1 : 2;

        if (depth > 3)
          count = 0;
        mcp_form_field_set_present (field, TRUE);
        for (guint i = 0; i < count; i++)
          fill (mcp_form_field_add_item (field), depth + 1, serial * 10 + i);
      }
      break;

    case MCP_FORM_FIELD_MAP:
      for (guint i = 0; i < 2; i++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *key = g_strdup_printf ("key %u", i);
          McpFormField *value = mcp_form_field_add_key (field, key, &error);

          g_assert_no_error (error);
          fill (value, depth + 1, serial * 10 + i);
        }
      break;

    case MCP_FORM_FIELD_UNION:
      {
        guint last = g_strv_length ((char **) mcp_form_field_get_variant_titles (field)) - 1;

        mcp_form_field_set_variant (field, last);
        fill (child_at (field, 0), depth + 1, serial);
      }
      break;

    case MCP_FORM_FIELD_JSON:
      if (examples != NULL && JSON_NODE_HOLDS_ARRAY (examples))
        {
          g_autofree char *text = test_json_text (json_array_get_element (json_node_get_array (examples), 0));

          mcp_form_field_set_text (field, text);
        }
      else
        mcp_form_field_set_text (field, "{\"any\": [1, 2.5, \"x\", null, {\"deep\": true}]}");
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
check_schema (const char *label,
              JsonNode   *schema)
{
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autoptr(McpFormField) again = mcp_form_field_new_from_schema (schema);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) checked = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  g_autoptr(GError) error = NULL;

  g_test_message ("schema %s", label);
  fill (form, 0, 1);
  value = mcp_form_field_to_json (form, &error);
  g_assert_no_error (error);
  first = test_json_text (value);
  g_test_message ("  %s", first);

  if (!mcp_json_schema_validate (schema, schema, value, &problems))
    for (guint i = 0; i < problems->len; i++)
      g_test_message ("  problem: %s", (char *) g_ptr_array_index (problems, i));
  g_assert_cmpuint (problems->len, ==, 0);

  /* Real schemas and values take a sliver of the validation budget
   * (issue 20): the budget is far above them. */
  {
    guint budget = MCP_JSON_SCHEMA_MAX_STEPS;

    g_assert_cmpint (mcp_json_schema_check (schema, schema, value, &budget, NULL), ==, MCP_JSON_SCHEMA_VALID);
    g_test_message ("  %u validation steps", MCP_JSON_SCHEMA_MAX_STEPS - budget);
    g_assert_cmpuint (MCP_JSON_SCHEMA_MAX_STEPS - budget, <, MCP_JSON_SCHEMA_MAX_STEPS / 100);
  }

  checked = mcp_form_field_check (form);
  for (guint i = 0; i < checked->len; i++)
    g_test_message ("  check: %s", (char *) g_ptr_array_index (checked, i));
  g_assert_cmpuint (checked->len, ==, 0);

  /* form → JSON → form → JSON, on the same form and on a fresh one */
  mcp_form_field_set_from_json (form, value);
  second = test_json_form_text (form);
  g_assert_cmpstr (second, ==, first);

  mcp_form_field_set_from_json (again, value);
  third = test_json_form_text (again);
  g_assert_cmpstr (third, ==, first);
}

static void
test_corpus (void)
{
  const char *dir_path = g_test_get_filename (G_TEST_DIST, "protocol", "schemas", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *entry;
  guint n_schemas = 0;

  dir = g_dir_open (dir_path, 0, &error);
  g_assert_no_error (error);

  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      g_autoptr(JsonNode) node = NULL;
      gsize length;

      if (!g_str_has_suffix (entry, ".json"))
        continue;
      path = g_build_filename (dir_path, entry, NULL);
      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);
      node = test_json_parse (contents);

      if (g_str_has_suffix (entry, ".schema.json"))
        {
          check_schema (entry, node);
          n_schemas++;
        }
      else
        {
          JsonObjectIter iter;
          const char *tool;
          JsonNode *entry_node;

          json_object_iter_init_ordered (&iter, json_node_get_object (node));
          while (json_object_iter_next_ordered (&iter, &tool, &entry_node))
            {
              JsonObject *schemas = json_node_get_object (entry_node);
              g_autofree char *label = g_strdup_printf ("%s %s", entry, tool);

              check_schema (label, json_object_get_member (schemas, "inputSchema"));
              n_schemas++;
              if (json_object_has_member (schemas, "outputSchema"))
                {
                  check_schema (label, json_object_get_member (schemas, "outputSchema"));
                  n_schemas++;
                }
            }
        }
    }

  /* both servers' tools and every hand-written schema */
  g_assert_cmpuint (n_schemas, >=, 40);
}

static void
test_number_literal (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"},"
                                      "\"i\":{\"type\":\"integer\"}},\"required\":[\"n\",\"i\"]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  mcp_form_field_set_text (path_child (form, "n"), "1.50");
  mcp_form_field_set_text (path_child (form, "i"), "12345678901234567");
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"n\":1.5,\"i\":12345678901234567}");
  g_assert_cmpstr (mcp_form_field_get_text (path_child (form, "n")), ==, "1.50");

  mcp_form_field_set_text (path_child (form, "i"), "1.5");
  value = mcp_form_field_to_json (form, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_null (value);
  g_assert_true (g_str_has_prefix (error->message, "$.i: "));
  g_clear_error (&error);

  mcp_form_field_set_text (path_child (form, "i"), "1");
  mcp_form_field_set_text (path_child (form, "n"), "abc");
  value = mcp_form_field_to_json (form, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_true (g_str_has_prefix (error->message, "$.n: "));

  path = mcp_form_field_dup_path (path_child (form, "n"));
  g_assert_cmpstr (path, ==, "$.n");
}

static void
test_unholdable_value (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\"},"
                                      "\"list\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}},"
                                      "\"o\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  const char *input = "{\"s\":{\"not\":\"a string\",\"n\":1.25e+30},\"list\":[1,\"two\",3],"
                      "\"o\":{\"a\":\"x\",\"extra\":[true,null]}}";
  g_autoptr(JsonNode) value = test_json_parse (input);
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  McpFormField *list;

  mcp_form_field_set_from_json (form, value);
  g_assert_cmpint (mcp_form_field_get_kind (path_child (form, "s")), ==, MCP_FORM_FIELD_JSON);
  g_assert_cmpint (mcp_form_field_get_kind (path_child (form, "o")), ==, MCP_FORM_FIELD_JSON);
  list = path_child (form, "list");
  g_assert_cmpint (mcp_form_field_get_kind (list), ==, MCP_FORM_FIELD_ARRAY);
  g_assert_cmpint (mcp_form_field_get_kind (child_at (list, 0)), ==, MCP_FORM_FIELD_INTEGER);
  g_assert_cmpint (mcp_form_field_get_kind (child_at (list, 1)), ==, MCP_FORM_FIELD_JSON);
  g_assert_cmpstr (mcp_form_field_get_text (child_at (list, 1)), ==, "\"two\"");

  text = test_json_form_text (form);
  expected = test_json_text (value);
  g_assert_cmpstr (text, ==, expected);
}

static void
test_absent_and_defaults (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{"
                                      "\"a\":{\"type\":\"number\",\"default\":3},"
                                      "\"b\":{\"type\":\"string\",\"default\":\"hi\"},"
                                      "\"c\":{\"type\":\"boolean\",\"default\":true},"
                                      "\"d\":{\"type\":\"integer\",\"default\":5},"
                                      "\"e\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}},"
                                      "\"required\":[\"d\"]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  g_autofree char *text3 = NULL;

  g_assert_false (mcp_form_field_get_present (path_child (form, "a")));
  g_assert_cmpstr (mcp_form_field_get_text (path_child (form, "a")), ==, "3");
  g_assert_cmpstr (mcp_form_field_get_text (path_child (form, "b")), ==, "hi");
  g_assert_true (mcp_form_field_get_boolean (path_child (form, "c")));
  g_assert_true (mcp_form_field_get_present (path_child (form, "d")));
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"d\":5}");

  /* a value deep in an absent object brings the object in */
  mcp_form_field_set_text (path_child (path_child (form, "e"), "x"), "y");
  text2 = test_json_form_text (form);
  g_assert_cmpstr (text2, ==, "{\"d\":5,\"e\":{\"x\":\"y\"}}");

  mcp_form_field_set_present (path_child (form, "e"), FALSE);
  mcp_form_field_set_present (path_child (form, "a"), TRUE);
  mcp_form_field_set_present (path_child (form, "d"), FALSE);  /* required: stays */
  text3 = test_json_form_text (form);
  g_assert_cmpstr (text3, ==, "{\"a\":3,\"d\":5}");
}

/* An elicitation form sends the defaults (SEP-1034): every optional field
 * with one, nested too; fields without one stay out. */
static void
test_include_defaults (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{"
                                      "\"name\":{\"type\":\"string\",\"default\":\"John Doe\"},"
                                      "\"age\":{\"type\":\"integer\",\"default\":30},"
                                      "\"score\":{\"type\":\"number\",\"default\":95.5},"
                                      "\"status\":{\"type\":\"string\",\"enum\":[\"active\",\"inactive\"],\"default\":\"active\"},"
                                      "\"verified\":{\"type\":\"boolean\",\"default\":true},"
                                      "\"note\":{\"type\":\"string\"},"
                                      "\"inner\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\",\"default\":\"y\"}}}}}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *edited = NULL;

  before = test_json_form_text (form);
  g_assert_cmpstr (before, ==, "{}");

  mcp_form_field_include_defaults (form);
  after = test_json_form_text (form);
  g_assert_cmpstr (after, ==, "{\"name\":\"John Doe\",\"age\":30,\"score\":95.5,\"status\":\"active\","
                              "\"verified\":true,\"inner\":{\"x\":\"y\"}}");
  g_assert_false (mcp_form_field_get_present (path_child (form, "note")));

  /* Still the person's to change or leave out. */
  mcp_form_field_set_present (path_child (form, "age"), FALSE);
  mcp_form_field_set_text (path_child (form, "name"), "Ada");
  edited = test_json_form_text (form);
  g_assert_cmpstr (edited, ==, "{\"name\":\"Ada\",\"score\":95.5,\"status\":\"active\","
                               "\"verified\":true,\"inner\":{\"x\":\"y\"}}");
}

/* A titled single choice (SEP-1330): a choice list with the titles, not a
 * union of constants; the value is the chosen const. A oneOf with anything
 * more than const and title stays a union. */
static void
test_titled_enum (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{"
                                      "\"interpretation\":{\"type\":\"string\",\"oneOf\":["
                                      "{\"const\":\"programming\",\"title\":\"Python programming language\"},"
                                      "{\"const\":\"snake\",\"title\":\"Python snake species\"},"
                                      "{\"const\":\"comedy\"}]},"
                                      "\"shape\":{\"oneOf\":[{\"const\":\"a\",\"title\":\"A\"},"
                                      "{\"type\":\"integer\",\"title\":\"Count\"}]}},"
                                      "\"required\":[\"interpretation\"]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  McpFormField *choice = path_child (form, "interpretation");
  GPtrArray *choices;
  g_autofree char *text = NULL;

  g_assert_cmpint (mcp_form_field_get_kind (choice), ==, MCP_FORM_FIELD_ENUM);
  choices = mcp_form_field_get_choices (choice);
  g_assert_cmpuint (choices->len, ==, 3);
  g_assert_cmpstr (mcp_form_field_get_choice_title (choice, 0), ==, "Python programming language");
  g_assert_cmpstr (mcp_form_field_get_choice_title (choice, 1), ==, "Python snake species");
  g_assert_null (mcp_form_field_get_choice_title (choice, 2));
  g_assert_null (mcp_form_field_get_choice_title (choice, 3));

  mcp_form_field_set_choice (choice, 1);
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"interpretation\":\"snake\"}");

  g_assert_cmpint (mcp_form_field_get_kind (path_child (form, "shape")), ==, MCP_FORM_FIELD_UNION);
  g_assert_null (mcp_form_field_get_choice_title (path_child (form, "shape"), 0));
}

/* The legacy "enumNames" (server-everything's elicitation, 2025-06-18
 * servers): the titles show, the values are sent (issue 21: the form showed
 * "pet-1…" instead of Cats, Dogs). A list of another length, or not of
 * strings, is ignored. */
static void
test_enum_names (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{"
                                      "\"pet\":{\"type\":\"string\",\"enum\":[\"pet-1\",\"pet-2\",\"pet-3\"],"
                                      "\"enumNames\":[\"Cats\",\"Dogs\",\"Fish\"]},"
                                      "\"odd\":{\"enum\":[\"a\",\"b\"],\"enumNames\":[\"A\"]},"
                                      "\"mixed\":{\"enum\":[\"a\",\"b\"],\"enumNames\":[\"A\",2]},"
                                      "\"maybe\":{\"enum\":[null,\"x\"],\"enumNames\":[\"none\",\"Ex\"]}}}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  McpFormField *pet = path_child (form, "pet");
  McpFormField *maybe = path_child (form, "maybe");
  g_autofree char *text = NULL;

  g_assert_cmpint (mcp_form_field_get_kind (pet), ==, MCP_FORM_FIELD_ENUM);
  g_assert_cmpstr (mcp_form_field_get_choice_title (pet, 0), ==, "Cats");
  g_assert_cmpstr (mcp_form_field_get_choice_title (pet, 1), ==, "Dogs");
  g_assert_cmpstr (mcp_form_field_get_choice_title (pet, 2), ==, "Fish");
  mcp_form_field_set_choice (pet, 1);
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"pet\":\"pet-2\"}");

  g_assert_null (mcp_form_field_get_choice_title (path_child (form, "odd"), 0));
  g_assert_null (mcp_form_field_get_choice_title (path_child (form, "mixed"), 0));
  /* the null choice comes first and has no title; the others keep theirs */
  g_assert_null (mcp_form_field_get_choice_title (maybe, 0));
  g_assert_cmpstr (mcp_form_field_get_choice_title (maybe, 1), ==, "Ex");
}

static void
test_union_switch (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"oneOf\":["
                                      "{\"type\":\"object\",\"properties\":{\"kind\":{\"const\":\"circle\"},"
                                      "\"name\":{\"type\":\"string\"},\"r\":{\"type\":\"number\"}},\"required\":[\"kind\",\"r\"]},"
                                      "{\"type\":\"object\",\"properties\":{\"kind\":{\"const\":\"square\"},"
                                      "\"name\":{\"type\":\"string\"},\"r\":{\"type\":\"string\"}},\"required\":[\"kind\"]},"
                                      "{\"type\":\"integer\",\"title\":\"Count\"}]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  const char * const *titles = mcp_form_field_get_variant_titles (form);
  McpFormField *variant;
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  g_autoptr(JsonNode) square = test_json_parse ("{\"kind\":\"square\",\"name\":\"sq\"}");
  g_autoptr(JsonNode) count = test_json_parse ("42");

  g_assert_cmpint (mcp_form_field_get_kind (form), ==, MCP_FORM_FIELD_UNION);
  g_assert_cmpstr (titles[0], ==, "circle");
  g_assert_cmpstr (titles[1], ==, "square");
  g_assert_cmpstr (titles[2], ==, "Count");
  g_assert_null (titles[3]);

  variant = child_at (form, 0);
  mcp_form_field_set_text (path_child (variant, "name"), "my shape");
  mcp_form_field_set_text (path_child (variant, "r"), "2");
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"kind\":\"circle\",\"name\":\"my shape\",\"r\":2}");

  /* "name" fits the other variant and stays; "r" (a number there, a
   * string here) does not; the discriminator is the new one */
  mcp_form_field_set_variant (form, 1);
  g_assert_cmpuint (mcp_form_field_get_variant (form), ==, 1);
  text2 = test_json_form_text (form);
  g_assert_cmpstr (text2, ==, "{\"kind\":\"square\",\"name\":\"my shape\"}");

  /* loading picks the variant the value matches */
  mcp_form_field_set_variant (form, 0);
  mcp_form_field_set_from_json (form, square);
  g_assert_cmpuint (mcp_form_field_get_variant (form), ==, 1);
  mcp_form_field_set_from_json (form, count);
  g_assert_cmpuint (mcp_form_field_get_variant (form), ==, 2);
  g_assert_cmpstr (mcp_form_field_get_text (child_at (form, 0)), ==, "42");
}

/* A variant that accepts any object (no additionalProperties: false) must
 * not win over the one that names the value's members: the value would end
 * up as raw JSON in the wrong variant. */
static void
test_union_loose_variant (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"anyOf\":["
                                      "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}},"
                                      "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autoptr(JsonNode) by_id = test_json_parse ("{\"id\":9}");
  g_autoptr(JsonNode) extra = test_json_parse ("{\"id\":9,\"other\":true}");
  McpFormField *variant;
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;

  mcp_form_field_set_from_json (form, by_id);
  g_assert_cmpuint (mcp_form_field_get_variant (form), ==, 1);
  variant = child_at (form, 0);
  g_assert_cmpint (mcp_form_field_get_kind (variant), ==, MCP_FORM_FIELD_OBJECT);
  g_assert_cmpint (mcp_form_field_get_kind (path_child (variant, "id")), ==, MCP_FORM_FIELD_INTEGER);
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"id\":9}");

  /* No variant names "other": the value is still kept whole. */
  mcp_form_field_set_from_json (form, extra);
  text2 = test_json_form_text (form);
  g_assert_cmpstr (text2, ==, "{\"id\":9,\"other\":true}");
}

static void
test_recursive (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{"
                                      "\"label\":{\"type\":\"string\"},"
                                      "\"next\":{\"$ref\":\"#/$defs/node\"},"
                                      "\"kids\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/node\"}}}}},"
                                      "\"$ref\":\"#/$defs/node\"}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  McpFormField *next = path_child (form, "next");
  McpFormField *kid;
  g_autofree char *text = NULL;
  g_assert_cmpint (mcp_form_field_get_kind (next), ==, MCP_FORM_FIELD_OBJECT);
  g_assert_false (mcp_form_field_get_present (next));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (next)), ==, 0);

  mcp_form_field_set_present (next, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (next)), ==, 3);
  /* one level at a time */
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (path_child (next, "next"))), ==, 0);
  mcp_form_field_set_text (path_child (next, "label"), "second");

  kid = mcp_form_field_add_item (path_child (form, "kids"));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (kid)), ==, 3);
  mcp_form_field_set_text (path_child (kid, "label"), "kid");
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"next\":{\"label\":\"second\"},\"kids\":[{\"label\":\"kid\"}]}");
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
test_array_ops (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{\"l\":{\"type\":\"array\","
                                      "\"items\":{\"type\":\"string\",\"default\":\"d\"}}}}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  McpFormField *list = path_child (form, "l");
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *path = NULL;
  guint changed = 0, structure = 0;

  g_signal_connect_swapped (form, "changed", G_CALLBACK (count_cb), &changed);
  g_signal_connect_swapped (list, "structure-changed", G_CALLBACK (count_cb), &structure);

  mcp_form_field_add_item (list);
  mcp_form_field_set_text (mcp_form_field_add_item (list), "two");
  mcp_form_field_set_text (mcp_form_field_add_item (list), "three");
  g_assert_cmpuint (structure, ==, 3);
  g_assert_cmpuint (changed, >=, 5);
  a = test_json_form_text (form);
  g_assert_cmpstr (a, ==, "{\"l\":[\"d\",\"two\",\"three\"]}");

  mcp_form_field_move_item (list, 2, 0);
  path = mcp_form_field_dup_path (child_at (list, 0));
  g_assert_cmpstr (path, ==, "$.l[0]");
  g_assert_cmpstr (mcp_form_field_get_text (child_at (list, 0)), ==, "three");
  b = test_json_form_text (form);
  g_assert_cmpstr (b, ==, "{\"l\":[\"three\",\"d\",\"two\"]}");

  mcp_form_field_remove_item (list, 1);
  c = test_json_form_text (form);
  g_assert_cmpstr (c, ==, "{\"l\":[\"three\",\"two\"]}");
  g_assert_cmpuint (structure, ==, 5);
}

static void
test_map (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autoptr(GError) error = NULL;
  McpFormField *value;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  g_assert_cmpint (mcp_form_field_get_kind (form), ==, MCP_FORM_FIELD_MAP);
  value = mcp_form_field_add_key (form, "a b", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_form_field_get_kind (value), ==, MCP_FORM_FIELD_INTEGER);
  mcp_form_field_set_text (value, "1");
  path = mcp_form_field_dup_path (value);
  g_assert_cmpstr (path, ==, "$[\"a b\"]");

  g_assert_null (mcp_form_field_add_key (form, "a b", &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "a b"));
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (form)), ==, 1);

  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"a b\":1}");
}

static void
test_nullable_enum (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{\"c\":{\"type\":[\"string\",\"null\"],"
                                      "\"enum\":[\"red\",null,\"green\"]}},\"required\":[\"c\"]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  McpFormField *c = path_child (form, "c");
  GPtrArray *choices = mcp_form_field_get_choices (c);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(JsonNode) green = test_json_parse ("{\"c\":\"green\"}");

  g_assert_cmpint (mcp_form_field_get_kind (c), ==, MCP_FORM_FIELD_ENUM);
  g_assert_true (mcp_form_field_get_nullable (c));
  g_assert_cmpuint (choices->len, ==, 3);
  g_assert_true (JSON_NODE_HOLDS_NULL (g_ptr_array_index (choices, 0)));
  g_assert_cmpint (mcp_form_field_get_choice (c), ==, -1);

  problems = mcp_form_field_check (form);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (problems, 0), ==, "$.c: is required");

  mcp_form_field_set_choice (c, 0);
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"c\":null}");

  mcp_form_field_set_from_json (form, green);
  g_assert_cmpint (mcp_form_field_get_choice (c), ==, 2);
  text2 = test_json_form_text (form);
  g_assert_cmpstr (text2, ==, "{\"c\":\"green\"}");
}

static gboolean
has_problem (GPtrArray  *problems,
             const char *prefix)
{
  for (guint i = 0; i < problems->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (problems, i), prefix))
      return TRUE;
  return FALSE;
}

static void
test_check (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{"
                                      "\"name\":{\"type\":\"string\",\"minLength\":2,\"pattern\":\"^[a-z]+$\"},"
                                      "\"age\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":150},"
                                      "\"mail\":{\"type\":\"string\",\"format\":\"email\"},"
                                      "\"day\":{\"type\":\"string\",\"format\":\"date\"},"
                                      "\"inner\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]},"
                                      "\"list\":{\"type\":\"array\",\"minItems\":2,\"items\":{\"type\":\"number\",\"maximum\":1}}},"
                                      "\"required\":[\"name\",\"age\"]}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  g_autoptr(GPtrArray) p1 = NULL;
  g_autoptr(GPtrArray) p2 = NULL;
  g_autoptr(GPtrArray) p3 = NULL;
  McpFormField *list = path_child (form, "list");

  p1 = mcp_form_field_check (form);
  g_assert_cmpuint (p1->len, ==, 2);
  g_assert_true (has_problem (p1, "$.name: is required"));
  g_assert_true (has_problem (p1, "$.age: is required"));

  mcp_form_field_set_text (path_child (form, "name"), "A");
  mcp_form_field_set_text (path_child (form, "age"), "200");
  mcp_form_field_set_text (path_child (form, "mail"), "nobody");
  mcp_form_field_set_text (path_child (form, "day"), "2023-02-29");
  mcp_form_field_set_present (path_child (form, "inner"), TRUE);
  mcp_form_field_set_text (mcp_form_field_add_item (list), "3");
  p2 = mcp_form_field_check (form);
  for (guint i = 0; i < p2->len; i++)
    g_test_message ("%s", (char *) g_ptr_array_index (p2, i));
  g_assert_true (has_problem (p2, "$.name: must be at least 2 characters"));
  g_assert_true (has_problem (p2, "$.name: does not match the pattern"));
  g_assert_true (has_problem (p2, "$.age: 200 is more than the maximum 150"));
  g_assert_true (has_problem (p2, "$.mail: is not a valid email"));
  g_assert_true (has_problem (p2, "$.day: is not a valid date"));
  g_assert_true (has_problem (p2, "$.inner.id: is required"));
  g_assert_true (has_problem (p2, "$.list[0]: 3 is more than the maximum 1"));
  g_assert_true (has_problem (p2, "$.list: needs at least 2 entries"));
  g_assert_cmpuint (p2->len, ==, 8);

  mcp_form_field_set_text (path_child (form, "name"), "ada");
  mcp_form_field_set_text (path_child (form, "age"), "36");
  mcp_form_field_set_text (path_child (form, "mail"), "ada@example.org");
  mcp_form_field_set_text (path_child (form, "day"), "2024-02-29");
  mcp_form_field_set_text (path_child (path_child (form, "inner"), "id"), "x");
  mcp_form_field_set_text (child_at (list, 0), "0.5");
  mcp_form_field_set_text (mcp_form_field_add_item (list), "x");
  p3 = mcp_form_field_check (form);
  g_assert_cmpuint (p3->len, ==, 1);
  g_assert_true (has_problem (p3, "$.list[1]: "));
}

static void
test_fallbacks (void)
{
  g_autoptr(JsonNode) schema = test_json_parse ("{\"type\":\"object\",\"properties\":{"
                                      "\"t\":{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}]},"
                                      "\"bad\":{\"$ref\":\"#/$defs/nowhere\"},"
                                      "\"n\":{\"not\":{\"type\":\"null\"}},"
                                      "\"s\":{\"type\":\"string\",\"format\":\"date\",\"title\":\"Start\",\"description\":\"When\"}}}");
  g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
  McpFormField *s = path_child (form, "s");
  McpFormField *bad = path_child (form, "bad");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (mcp_form_field_get_kind (path_child (form, "t")), ==, MCP_FORM_FIELD_JSON);
  g_assert_cmpint (mcp_form_field_get_kind (bad), ==, MCP_FORM_FIELD_JSON);
  g_assert_cmpint (mcp_form_field_get_kind (path_child (form, "n")), ==, MCP_FORM_FIELD_JSON);
  g_assert_cmpstr (mcp_form_field_get_title (s), ==, "Start");
  g_assert_cmpstr (mcp_form_field_get_title (bad), ==, "bad");
  g_assert_cmpstr (mcp_form_field_get_description (s), ==, "When");
  g_assert_cmpstr (mcp_form_field_get_format (s), ==, "date");

  /* invalid JSON is an error at its field, not dropped */
  mcp_form_field_set_text (bad, "{\"a\": ");
  value = mcp_form_field_to_json (form, &error);
  g_assert_null (value);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_true (g_str_has_prefix (error->message, "$.bad: invalid JSON"));
  g_clear_error (&error);

  mcp_form_field_set_text (bad, " [1, {\"b\": \"\\u00e9\"}] ");
  text = test_json_form_text (form);
  g_assert_cmpstr (text, ==, "{\"bad\":[1,{\"b\":\"é\"}]}");
}

/* Issue 20: a schema cannot make form generation hang or nest without
 * end; what is past a bound is a JSON field that says so. */

static guint
count_fields (McpFormField *field)
{
  GListModel *children = mcp_form_field_get_children (field);
  guint n = 1;

  for (guint i = 0; i < g_list_model_get_n_items (children); i++)
    n += count_fields (child_at (field, i));
  return n;
}

static gboolean
any_too_complex (McpFormField *field)
{
  GListModel *children = mcp_form_field_get_children (field);

  if (mcp_form_field_get_too_complex (field))
    return TRUE;
  for (guint i = 0; i < g_list_model_get_n_items (children); i++)
    if (any_too_complex (child_at (field, i)))
      return TRUE;
  return FALSE;
}

static void
test_bombs (void)
{
  /* the union whose variants are itself: one level, then JSON */
  {
    g_autoptr(JsonNode) schema = test_json_parse ("{\"oneOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#\"}]}");
    g_autoptr(McpFormField) form = mcp_form_field_new_from_schema (schema);
    g_autoptr(JsonNode) value = test_json_parse ("[1,{\"a\":null}]");
    g_autoptr(JsonNode) out = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *text = NULL;
    g_autoptr(GPtrArray) problems = NULL;
    McpFormField *child;

    g_assert_cmpint (mcp_form_field_get_kind (form), ==, MCP_FORM_FIELD_UNION);
    g_assert_false (mcp_form_field_get_too_complex (form));
    child = child_at (form, 0);
    g_assert_cmpint (mcp_form_field_get_kind (child), ==, MCP_FORM_FIELD_JSON);
    g_assert_true (mcp_form_field_get_too_complex (child));
    g_assert_cmpuint (count_fields (form), ==, 2);

    /* the raw JSON editor still makes a value, and loading one returns */
    mcp_form_field_set_text (child, "{\"x\": [1, 2]}");
    out = mcp_form_field_to_json (form, &error);
    g_assert_no_error (error);
    text = test_json_text (out);
    g_assert_cmpstr (text, ==, "{\"x\":[1,2]}");
    mcp_form_field_set_from_json (form, value);
    g_clear_pointer (&text, g_free);
    text = test_json_form_text (form);
    g_assert_cmpstr (text, ==, "[1,{\"a\":null}]");
    /* a value that cannot be checked is not a problem */
    problems = mcp_form_field_check (form);
    g_assert_cmpuint (problems->len, ==, 0);
  }

  /* 30 levels of objects whose two required properties share the next
   * level's definition: 2^31 fields unbounded, here about 2,000 */
  {
    g_autoptr(GString) text = g_string_new ("{\"$ref\":\"#/$defs/a0\",\"$defs\":{");
    g_autoptr(JsonNode) schema = NULL;
    g_autoptr(McpFormField) form = NULL;
    gint64 start = g_get_monotonic_time ();
    guint n;

    for (guint i = 0; i < 30; i++)
      g_string_append_printf (text, "\"a%u\":{\"type\":\"object\",\"required\":[\"x\",\"y\"],\"properties\":"
                              "{\"x\":{\"$ref\":\"#/$defs/a%u\"},\"y\":{\"$ref\":\"#/$defs/a%u\"}}},",
                              i, i + 1, i + 1);
    g_string_append (text, "\"a30\":{\"type\":\"integer\"}}}");
    schema = test_json_parse (text->str);
    form = mcp_form_field_new_from_schema (schema);
    n = count_fields (form);
    g_test_message ("30 levels of shared definitions: %u fields, %.1f ms", n,
                    (g_get_monotonic_time () - start) / 1000.0);
    /* the budget, and the siblings of the fields that reached it */
    g_assert_cmpuint (n, <=, 2000 + 64);
    g_assert_cmpuint (n, >, 1000);
    g_assert_true (any_too_complex (form));
    g_assert_cmpint (mcp_form_field_get_kind (form), ==, MCP_FORM_FIELD_OBJECT);
  }

  /* a field whose schema is a validation bomb: the check returns and
   * reports nothing it does not know */
  {
    g_autoptr(GString) text = g_string_new ("{\"type\":\"object\",\"properties\":{\"v\":{\"not\":{\"$ref\":\"#/$defs/a0\"}}},"
                                            "\"$defs\":{");
    g_autoptr(JsonNode) schema = NULL;
    g_autoptr(McpFormField) form = NULL;
    g_autoptr(GPtrArray) problems = NULL;
    McpFormField *v;

    for (guint i = 0; i < 30; i++)
      g_string_append_printf (text, "\"a%u\":{\"anyOf\":[{\"$ref\":\"#/$defs/a%u\"},{\"$ref\":\"#/$defs/a%u\"}]},",
                              i, i + 1, i + 1);
    g_string_append (text, "\"a30\":{\"type\":\"string\"}}}");
    schema = test_json_parse (text->str);
    form = mcp_form_field_new_from_schema (schema);
    v = mcp_form_field_get_child (form, "v");
    g_assert_nonnull (v);
    g_assert_cmpint (mcp_form_field_get_kind (v), ==, MCP_FORM_FIELD_JSON);
    mcp_form_field_set_text (v, "12");
    problems = mcp_form_field_check (form);
    g_assert_cmpuint (problems->len, ==, 0);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/form-field/corpus", test_corpus);
  g_test_add_func ("/form-field/number-literal", test_number_literal);
  g_test_add_func ("/form-field/unholdable-value", test_unholdable_value);
  g_test_add_func ("/form-field/absent-and-defaults", test_absent_and_defaults);
  g_test_add_func ("/form-field/include-defaults", test_include_defaults);
  g_test_add_func ("/form-field/titled-enum", test_titled_enum);
  g_test_add_func ("/form-field/enum-names", test_enum_names);
  g_test_add_func ("/form-field/union-switch", test_union_switch);
  g_test_add_func ("/form-field/union-loose-variant", test_union_loose_variant);
  g_test_add_func ("/form-field/recursive", test_recursive);
  g_test_add_func ("/form-field/array-ops", test_array_ops);
  g_test_add_func ("/form-field/map", test_map);
  g_test_add_func ("/form-field/nullable-enum", test_nullable_enum);
  g_test_add_func ("/form-field/check", test_check);
  g_test_add_func ("/form-field/fallbacks", test_fallbacks);
  g_test_add_func ("/form-field/bombs", test_bombs);

  return g_test_run ();
}
