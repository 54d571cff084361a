/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-fake-connection"

#include "config.h"

#include "test-fake-connection.h"

G_DEFINE_FINAL_TYPE (TestFakeConnection, test_fake_connection, G_TYPE_OBJECT)

enum { PROP_0, PROP_NAME, PROP_TOOLS, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
test_fake_connection_finalize (GObject *object)
{
  TestFakeConnection *self = TEST_FAKE_CONNECTION (object);

  g_free (self->name);
  g_clear_object (&self->tools);
  G_OBJECT_CLASS (test_fake_connection_parent_class)->finalize (object);
}

static void
test_fake_connection_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TestFakeConnection *self = TEST_FAKE_CONNECTION (object);

  if (prop_id == PROP_NAME)
    g_value_set_string (value, self->name);
  else if (prop_id == PROP_TOOLS)
    g_value_set_object (value, self->tools);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
test_fake_connection_class_init (TestFakeConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = test_fake_connection_finalize;
  object_class->get_property = test_fake_connection_get_property;
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOLS] = g_param_spec_object ("tools", NULL, NULL, G_TYPE_LIST_MODEL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
test_fake_connection_init (TestFakeConnection *self)
{
  self->tools = g_list_store_new (MCP_TYPE_TOOL);
}

TestFakeConnection *
test_fake_connection_new (const char *name)
{
  TestFakeConnection *self = g_object_new (TEST_TYPE_FAKE_CONNECTION, NULL);

  self->name = g_strdup (name);
  return self;
}

McpTool *
test_tool_from_json (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  McpTool *tool;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  tool = mcp_tool_new_from_json (json_node_get_object (json_parser_get_root (parser)), &error);
  g_assert_no_error (error);
  return tool;
}

void
test_fake_connection_add_tool (TestFakeConnection *self,
                               const char         *json)
{
  g_autoptr(McpTool) tool = test_tool_from_json (json);

  g_list_store_append (self->tools, tool);
}

void
test_fake_connection_replace_tools (TestFakeConnection *self,
                                    GListStore         *tools)
{
  g_set_object (&self->tools, tools);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOLS]);
}
