/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-listings"

#include "config.h"

#include "mcp-error.h"
#include "mcp-form-field.h"
#include "mcp-json-private.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"

static JsonObject *
object_from_text (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));

  return json_object_ref (json_node_get_object (root));
}

static McpResource *
resource_from_text (const char  *text,
                    GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_resource_new_from_json (object, error);
}

static McpResourceTemplate *
template_from_text (const char  *text,
                    GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_resource_template_new_from_json (object, error);
}

static McpPrompt *
prompt_from_text (const char  *text,
                  GError     **error)
{
  g_autoptr(JsonObject) object = object_from_text (text);

  return mcp_prompt_new_from_json (object, error);
}

/* Resources */

static void
test_resource_full (void)
{
  g_autoptr(McpResource) resource = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;
  gint64 size = 0;

  resource = resource_from_text ("{\"uri\":\"file:///tmp/a.txt\",\"name\":\"a.txt\","
                                 "\"title\":\"A text\",\"description\":\"Some text\","
                                 "\"mimeType\":\"text/plain\",\"size\":1234,"
                                 "\"annotations\":{\"audience\":[\"user\"],\"priority\":0.5},"
                                 "\"icons\":[{\"src\":\"https://example.com/i.png\"}],"
                                 "\"_meta\":{\"x\":1},\"vendorExtra\":true}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (resource);

  g_assert_cmpstr (mcp_resource_get_uri (resource), ==, "file:///tmp/a.txt");
  g_assert_cmpstr (mcp_resource_get_name (resource), ==, "a.txt");
  g_assert_cmpstr (mcp_resource_get_title (resource), ==, "A text");
  g_assert_cmpstr (mcp_resource_get_display_name (resource), ==, "A text");
  g_assert_cmpstr (mcp_resource_get_description (resource), ==, "Some text");
  g_assert_cmpstr (mcp_resource_get_mime_type (resource), ==, "text/plain");
  g_assert_cmpint (mcp_resource_get_size (resource), ==, 1234);
  g_assert_nonnull (mcp_resource_get_annotations (resource));
  g_assert_cmpfloat (json_object_get_double_member (mcp_resource_get_annotations (resource),
                                                    "priority"), ==, 0.5);
  g_assert_nonnull (mcp_resource_get_icons (resource));
  g_assert_cmpuint (json_array_get_length (mcp_resource_get_icons (resource)), ==, 1);
  g_assert_nonnull (mcp_resource_get_meta (resource));
  g_assert_true (json_object_get_boolean_member (mcp_resource_get_json (resource), "vendorExtra"));

  g_object_get (resource, "uri", &uri, "size", &size, NULL);
  g_assert_cmpstr (uri, ==, "file:///tmp/a.txt");
  g_assert_cmpint (size, ==, 1234);
}

static void
test_resource_minimal (void)
{
  g_autoptr(McpResource) resource = NULL;
  g_autoptr(GError) error = NULL;

  resource = resource_from_text ("{\"uri\":\"demo://x\",\"name\":\"x\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_resource_get_display_name (resource), ==, "x");
  g_assert_null (mcp_resource_get_title (resource));
  g_assert_null (mcp_resource_get_description (resource));
  g_assert_null (mcp_resource_get_mime_type (resource));
  g_assert_cmpint (mcp_resource_get_size (resource), ==, -1);
  g_assert_null (mcp_resource_get_annotations (resource));
  g_assert_null (mcp_resource_get_icons (resource));
  g_assert_null (mcp_resource_get_meta (resource));
}

static void
test_resource_lenient (void)
{
  g_autoptr(McpResource) resource = NULL;
  g_autoptr(GError) error = NULL;

  /* No name, wrong types for optional members: still a usable resource. */
  resource = resource_from_text ("{\"uri\":\"demo://y\",\"title\":7,\"mimeType\":[],"
                                 "\"size\":-5,\"annotations\":\"high\",\"icons\":{}}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (resource);
  g_assert_cmpstr (mcp_resource_get_name (resource), ==, "demo://y");
  g_assert_cmpstr (mcp_resource_get_display_name (resource), ==, "demo://y");
  g_assert_null (mcp_resource_get_title (resource));
  g_assert_null (mcp_resource_get_mime_type (resource));
  g_assert_cmpint (mcp_resource_get_size (resource), ==, -1);
  g_assert_null (mcp_resource_get_annotations (resource));
  g_assert_null (mcp_resource_get_icons (resource));

  g_clear_object (&resource);
  resource = resource_from_text ("{\"uri\":\"demo://z\",\"name\":\"z\",\"size\":2048.0}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_resource_get_size (resource), ==, 2048);
}

static void
test_resource_invalid (void)
{
  const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{\"name\":\"a\"}", "resource: uri is missing" },
    { "{\"uri\":\"\",\"name\":\"a\"}", "resource: uri must be a non-empty string" },
    { "{\"uri\":42,\"name\":\"a\"}", "resource: uri must be a non-empty string" },
    { "{\"uri\":null}", "resource: uri must be a non-empty string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(McpResource) resource = NULL;
      g_autoptr(GError) error = NULL;

      resource = resource_from_text (cases[i].json, &error);
      g_assert_null (resource);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

/* Resource templates */

static void
test_template_full (void)
{
  g_autoptr(McpResourceTemplate) template = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *uri_template = NULL;

  template = template_from_text ("{\"uriTemplate\":\"demo://text/{id}\",\"name\":\"Text\","
                                 "\"title\":\"Dynamic text\",\"description\":\"By id\","
                                 "\"mimeType\":\"text/plain\",\"annotations\":{\"priority\":1},"
                                 "\"_meta\":{},\"other\":\"kept\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_resource_template_get_uri_template (template), ==, "demo://text/{id}");
  g_assert_cmpstr (mcp_resource_template_get_name (template), ==, "Text");
  g_assert_cmpstr (mcp_resource_template_get_title (template), ==, "Dynamic text");
  g_assert_cmpstr (mcp_resource_template_get_display_name (template), ==, "Dynamic text");
  g_assert_cmpstr (mcp_resource_template_get_description (template), ==, "By id");
  g_assert_cmpstr (mcp_resource_template_get_mime_type (template), ==, "text/plain");
  g_assert_nonnull (mcp_resource_template_get_annotations (template));
  g_assert_nonnull (mcp_resource_template_get_meta (template));
  g_assert_null (mcp_resource_template_get_icons (template));
  g_assert_cmpstr (json_object_get_string_member (mcp_resource_template_get_json (template),
                                                  "other"), ==, "kept");

  g_object_get (template, "uri-template", &uri_template, NULL);
  g_assert_cmpstr (uri_template, ==, "demo://text/{id}");
}

static void
test_template_lenient (void)
{
  g_autoptr(McpResourceTemplate) template = NULL;
  g_autoptr(GError) error = NULL;

  template = template_from_text ("{\"uriTemplate\":\"demo://b/{id}\",\"description\":false,"
                                 "\"annotations\":[]}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_resource_template_get_name (template), ==, "demo://b/{id}");
  g_assert_null (mcp_resource_template_get_title (template));
  g_assert_null (mcp_resource_template_get_description (template));
  g_assert_null (mcp_resource_template_get_annotations (template));
}

static void
test_template_invalid (void)
{
  const struct {
    const char *json;
    const char *message;
  } cases[] = {
    /* a resource is not a template */
    { "{\"uri\":\"demo://x\",\"name\":\"x\"}", "resource template: uriTemplate is missing" },
    { "{\"uriTemplate\":\"\"}", "resource template: uriTemplate must be a non-empty string" },
    { "{\"uriTemplate\":{}}", "resource template: uriTemplate must be a non-empty string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(McpResourceTemplate) template = NULL;
      g_autoptr(GError) error = NULL;

      template = template_from_text (cases[i].json, &error);
      g_assert_null (template);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

/* Prompts */

static void
test_prompt_full (void)
{
  g_autoptr(McpPrompt) prompt = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  JsonArray *arguments;

  prompt = prompt_from_text ("{\"name\":\"args-prompt\",\"title\":\"Arguments Prompt\","
                             "\"description\":\"Two arguments\","
                             "\"arguments\":[{\"name\":\"city\",\"description\":\"The city\","
                             "\"required\":true},{\"name\":\"state\",\"required\":false},"
                             "{\"name\":\"country\"}],"
                             "\"icons\":[],\"_meta\":{\"k\":\"v\"},\"unknown\":1}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_prompt_get_name (prompt), ==, "args-prompt");
  g_assert_cmpstr (mcp_prompt_get_title (prompt), ==, "Arguments Prompt");
  g_assert_cmpstr (mcp_prompt_get_display_name (prompt), ==, "Arguments Prompt");
  g_assert_cmpstr (mcp_prompt_get_description (prompt), ==, "Two arguments");

  arguments = mcp_prompt_get_arguments (prompt);
  g_assert_nonnull (arguments);
  g_assert_cmpuint (json_array_get_length (arguments), ==, 3);
  g_assert_cmpuint (mcp_prompt_get_n_arguments (prompt), ==, 3);
  g_assert_cmpstr (mcp_prompt_get_argument_name (prompt, 0), ==, "city");
  g_assert_true (mcp_prompt_get_argument_required (prompt, 0));
  g_assert_cmpstr (mcp_prompt_get_argument_name (prompt, 1), ==, "state");
  g_assert_false (mcp_prompt_get_argument_required (prompt, 1));
  g_assert_cmpstr (mcp_prompt_get_argument_name (prompt, 2), ==, "country");
  g_assert_false (mcp_prompt_get_argument_required (prompt, 2));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (arguments, 0),
                                                  "description"), ==, "The city");

  g_assert_nonnull (mcp_prompt_get_icons (prompt));
  g_assert_nonnull (mcp_prompt_get_meta (prompt));
  g_assert_cmpint (json_object_get_int_member (mcp_prompt_get_json (prompt), "unknown"), ==, 1);

  g_object_get (prompt, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "Arguments Prompt");
}

static void
test_prompt_no_arguments (void)
{
  g_autoptr(McpPrompt) prompt = NULL;
  g_autoptr(GError) error = NULL;

  prompt = prompt_from_text ("{\"name\":\"simple\",\"title\":3,\"_meta\":[]}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_prompt_get_display_name (prompt), ==, "simple");
  g_assert_null (mcp_prompt_get_title (prompt));
  g_assert_null (mcp_prompt_get_description (prompt));
  g_assert_null (mcp_prompt_get_meta (prompt));
  g_assert_nonnull (mcp_prompt_get_arguments (prompt));
  g_assert_cmpuint (mcp_prompt_get_n_arguments (prompt), ==, 0);

  g_clear_object (&prompt);
  prompt = prompt_from_text ("{\"name\":\"nulls\",\"arguments\":null}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_prompt_get_n_arguments (prompt), ==, 0);
}

static char *
object_to_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  GString *out = g_string_new (NULL);

  json_node_set_object (node, object);
  mcp_json_append (out, node);
  return g_string_free (out, FALSE);
}

/* The arguments as the schema a form is built from (issue 21, defect 8). */
static void
test_prompt_arguments_schema (void)
{
  g_autoptr(McpPrompt) prompt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) schema = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpFormField) form = NULL;
  g_autofree char *text = NULL;
  McpFormField *city;

  prompt = prompt_from_text ("{\"name\":\"weather\","
                             "\"arguments\":[{\"name\":\"city\",\"title\":\"City\","
                             "\"description\":\"The city\",\"required\":true},"
                             "{\"name\":\"units\",\"title\":3,\"required\":\"yes\"},"
                             "{\"name\":\"country\",\"description\":\"ISO code\",\"extra\":[]},"
                             "{\"name\":\"date\",\"required\":true}]}", &error);
  g_assert_no_error (error);

  /* strings in the prompt's order; a title or description that is not a
   * string, or a "required" that is not a boolean, is left out */
  schema = mcp_prompt_dup_arguments_schema (prompt);
  text = object_to_text (schema);
  g_assert_cmpstr (text, ==,
                   "{\"type\":\"object\",\"properties\":{"
                   "\"city\":{\"type\":\"string\",\"title\":\"City\",\"description\":\"The city\"},"
                   "\"units\":{\"type\":\"string\"},"
                   "\"country\":{\"type\":\"string\",\"description\":\"ISO code\"},"
                   "\"date\":{\"type\":\"string\"}},"
                   "\"required\":[\"city\",\"date\"]}");

  /* the form it makes: one string per argument, the required ones marked */
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, schema);
  form = mcp_form_field_new_from_schema (node);
  g_assert_cmpint (mcp_form_field_get_kind (form), ==, MCP_FORM_FIELD_OBJECT);
  g_assert_cmpuint (g_list_model_get_n_items (mcp_form_field_get_children (form)), ==, 4);
  city = mcp_form_field_get_child (form, "city");
  g_assert_cmpint (mcp_form_field_get_kind (city), ==, MCP_FORM_FIELD_STRING);
  g_assert_cmpstr (mcp_form_field_get_title (city), ==, "City");
  g_assert_cmpstr (mcp_form_field_get_description (city), ==, "The city");
  g_assert_true (mcp_form_field_get_required (city));
  g_assert_cmpstr (mcp_form_field_get_title (mcp_form_field_get_child (form, "units")), ==, "units");
  g_assert_false (mcp_form_field_get_required (mcp_form_field_get_child (form, "units")));
  g_assert_true (mcp_form_field_get_required (mcp_form_field_get_child (form, "date")));

  /* no arguments: an object with no properties */
  g_clear_object (&prompt);
  g_clear_pointer (&schema, json_object_unref);
  g_clear_pointer (&text, g_free);
  prompt = prompt_from_text ("{\"name\":\"simple\"}", &error);
  g_assert_no_error (error);
  schema = mcp_prompt_dup_arguments_schema (prompt);
  text = object_to_text (schema);
  g_assert_cmpstr (text, ==, "{\"type\":\"object\",\"properties\":{},\"required\":[]}");
}

static void
test_prompt_invalid (void)
{
  const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{\"description\":\"no name\"}", "prompt: name is missing" },
    { "{\"name\":\"\"}", "prompt: name must be a non-empty string" },
    { "{\"name\":[\"p\"]}", "prompt: name must be a non-empty string" },
    { "{\"name\":\"p\",\"arguments\":{}}", "prompt “p”: arguments must be an array" },
    { "{\"name\":\"p\",\"arguments\":[{\"name\":\"a\"},\"b\"]}",
      "prompt “p”: arguments[1] must be an object" },
    { "{\"name\":\"p\",\"arguments\":[{\"description\":\"nameless\"}]}",
      "prompt “p”: arguments[0].name must be a non-empty string" },
    { "{\"name\":\"p\",\"arguments\":[{\"name\":\"a\"},{\"name\":\"\"}]}",
      "prompt “p”: arguments[1].name must be a non-empty string" },
    { "{\"name\":\"p\",\"arguments\":[{\"name\":\"a\"},{\"name\":\"a\"}]}",
      "prompt “p”: arguments[1] repeats the argument “a”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(McpPrompt) prompt = NULL;
      g_autoptr(GError) error = NULL;

      prompt = prompt_from_text (cases[i].json, &error);
      g_assert_null (prompt);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/listings/resource/full", test_resource_full);
  g_test_add_func ("/listings/resource/minimal", test_resource_minimal);
  g_test_add_func ("/listings/resource/lenient", test_resource_lenient);
  g_test_add_func ("/listings/resource/invalid", test_resource_invalid);
  g_test_add_func ("/listings/resource-template/full", test_template_full);
  g_test_add_func ("/listings/resource-template/lenient", test_template_lenient);
  g_test_add_func ("/listings/resource-template/invalid", test_template_invalid);
  g_test_add_func ("/listings/prompt/full", test_prompt_full);
  g_test_add_func ("/listings/prompt/no-arguments", test_prompt_no_arguments);
  g_test_add_func ("/listings/prompt/arguments-schema", test_prompt_arguments_schema);
  g_test_add_func ("/listings/prompt/invalid", test_prompt_invalid);

  return g_test_run ();
}
