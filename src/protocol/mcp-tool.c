/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-tool.h"
#include "mcp-tool-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-protocol-private.h"
#include "mcp-ui-resource.h"

/* McpTool: the object, a tool read from a server's listing, and its
 * getters. Its x-mcp-header arguments: mcp-tool-param-headers.c. */

enum {
  PROP_0,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_READ_ONLY_HINT,
  PROP_DESTRUCTIVE_HINT,
  PROP_IDEMPOTENT_HINT,
  PROP_OPEN_WORLD_HINT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (McpTool, mcp_tool, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
mcp_tool_finalize (GObject *object)
{
  McpTool *self = (McpTool *)object;

  g_clear_pointer (&self->input_schema, json_object_unref);
  g_clear_pointer (&self->object, json_object_unref);
  g_clear_pointer (&self->param_headers, g_ptr_array_unref);
  g_clear_error (&self->param_headers_error);

  G_OBJECT_CLASS (mcp_tool_parent_class)->finalize (object);
}

static void
mcp_tool_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  McpTool *self = MCP_TOOL (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, mcp_tool_get_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_tool_get_title (self));
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, mcp_tool_get_description (self));
      break;

    case PROP_READ_ONLY_HINT:
      g_value_set_boolean (value, mcp_tool_get_read_only_hint (self));
      break;

    case PROP_DESTRUCTIVE_HINT:
      g_value_set_boolean (value, mcp_tool_get_destructive_hint (self));
      break;

    case PROP_IDEMPOTENT_HINT:
      g_value_set_boolean (value, mcp_tool_get_idempotent_hint (self));
      break;

    case PROP_OPEN_WORLD_HINT:
      g_value_set_boolean (value, mcp_tool_get_open_world_hint (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_tool_class_init (McpToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_tool_finalize;
  object_class->get_property = mcp_tool_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_READ_ONLY_HINT] = g_param_spec_boolean ("read-only-hint", NULL, NULL, FALSE, MCP_PARAM_READABLE);
  properties[PROP_DESTRUCTIVE_HINT] = g_param_spec_boolean ("destructive-hint", NULL, NULL, TRUE, MCP_PARAM_READABLE);
  properties[PROP_IDEMPOTENT_HINT] = g_param_spec_boolean ("idempotent-hint", NULL, NULL, FALSE, MCP_PARAM_READABLE);
  properties[PROP_OPEN_WORLD_HINT] = g_param_spec_boolean ("open-world-hint", NULL, NULL, TRUE, MCP_PARAM_READABLE);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_tool_init (McpTool *self)
{
  self->read_only_hint = FALSE;
  self->destructive_hint = TRUE;
  self->idempotent_hint = FALSE;
  self->open_world_hint = TRUE;
  self->task_support = "forbidden";
  self->ui_visibility = MCP_TOOL_VISIBILITY_MODEL | MCP_TOOL_VISIBILITY_APP;
}

static gboolean
read_hint (JsonObject *annotations,
           const char *member,
           gboolean    default_value,
           const char *tool)
{
  JsonNode *node;

  if (annotations == NULL)
    return default_value;

  node = json_object_get_member (annotations, member);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return default_value;

  if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_debug ("tool “%s”: annotations.%s is not a boolean; using the default", tool, member);
      return default_value;
    }

  return json_node_get_boolean (node);
}

/* MCP Apps: the interface the tool names, and who may call it. */
static void
read_ui_meta (McpTool *self)
{
  const char *uris[2] = { NULL, NULL };
  JsonObject *ui = NULL;
  JsonArray *visibility = NULL;

  if (self->meta == NULL)
    return;

  ui = mcp_json_optional_object (self->meta, "ui", "tool", self->name);
  if (ui != NULL)
    {
      uris[0] = mcp_json_optional_string (ui, "resourceUri", "tool", self->name);
      visibility = mcp_json_optional_array (ui, "visibility", "tool", self->name);
    }
  /* What servers wrote before _meta.ui. */
  uris[1] = mcp_json_optional_string (self->meta, "ui/resourceUri", "tool", self->name);

  for (guint i = 0; i < G_N_ELEMENTS (uris) && self->ui_resource_uri == NULL; i++)
    {
      if (mcp_ui_uri_is_valid (uris[i]))
        self->ui_resource_uri = uris[i];
      else if (uris[i] != NULL)
        g_debug ("tool “%s”: ignoring an interface URI that is not a ui:// URI", self->name);
    }

  if (visibility != NULL)
    {
      guint length = json_array_get_length (visibility);

      self->ui_visibility = MCP_TOOL_VISIBILITY_NONE;
      for (guint i = 0; i < length; i++)
        {
          JsonNode *word = json_array_get_element (visibility, i);

          if (!JSON_NODE_HOLDS_VALUE (word) || json_node_get_value_type (word) != G_TYPE_STRING)
            continue;
          if (g_str_equal (json_node_get_string (word), "model"))
            self->ui_visibility |= MCP_TOOL_VISIBILITY_MODEL;
          else if (g_str_equal (json_node_get_string (word), "app"))
            self->ui_visibility |= MCP_TOOL_VISIBILITY_APP;
        }
    }
}

McpTool *
mcp_tool_new_from_json (JsonObject  *object,
                        GError     **error)
{
  g_autoptr(McpTool) self = NULL;
  const char *name;
  JsonNode *schema;
  JsonObject *execution;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = mcp_json_required_string (object, "name",
                                   _("tool: name is missing"),
                                   _("tool: name must be a non-empty string"),
                                   error);
  if (name == NULL)
    return NULL;

  self = g_object_new (MCP_TYPE_TOOL, NULL);
  self->object = json_object_ref (object);
  self->name = name;

  schema = json_object_get_member (object, "inputSchema");
  if (schema == NULL || JSON_NODE_HOLDS_NULL (schema))
    {
      g_debug ("tool “%s” has no inputSchema; reading it as {\"type\":\"object\"}", self->name);
      self->input_schema = json_object_new ();
      json_object_set_string_member (self->input_schema, "type", "object");
    }
  else if (!JSON_NODE_HOLDS_OBJECT (schema))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("tool “%s”: inputSchema must be an object"), self->name);
      return NULL;
    }
  else
    {
      self->input_schema = json_object_ref (json_node_get_object (schema));
    }

  schema = json_object_get_member (object, "outputSchema");
  if (schema != NULL && !JSON_NODE_HOLDS_NULL (schema))
    {
      if (!JSON_NODE_HOLDS_OBJECT (schema))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("tool “%s”: outputSchema must be an object"), self->name);
          return NULL;
        }
      self->output_schema = json_node_get_object (schema);
    }

  self->title = mcp_json_optional_string (object, "title", "tool", self->name);
  self->description = mcp_json_optional_string (object, "description", "tool", self->name);
  self->annotations = mcp_json_optional_object (object, "annotations", "tool", self->name);
  self->meta = mcp_json_optional_object (object, "_meta", "tool", self->name);

  self->read_only_hint = read_hint (self->annotations, "readOnlyHint", FALSE, self->name);
  self->destructive_hint = read_hint (self->annotations, "destructiveHint", TRUE, self->name);
  self->idempotent_hint = read_hint (self->annotations, "idempotentHint", FALSE, self->name);
  self->open_world_hint = read_hint (self->annotations, "openWorldHint", TRUE, self->name);

  self->icons = mcp_json_optional_array (object, "icons", "tool", self->name);

  execution = mcp_json_optional_object (object, "execution", "tool", self->name);
  if (execution != NULL)
    {
      const char *support = mcp_json_optional_string (execution, "taskSupport", "tool", self->name);

      if (g_strcmp0 (support, "optional") == 0 || g_strcmp0 (support, "required") == 0)
        self->task_support = support;
      else if (support != NULL && !g_str_equal (support, "forbidden"))
        g_debug ("tool “%s”: unknown execution.taskSupport “%s”", self->name, support);
    }

  mcp_tool_read_param_headers (self);
  read_ui_meta (self);

  return g_steal_pointer (&self);
}

const char *
mcp_tool_get_name (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->name;
}

const char *
mcp_tool_get_title (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  if (self->title != NULL)
    return self->title;

  if (self->annotations != NULL)
    return mcp_json_optional_string (self->annotations, "title", "tool", self->name);

  return NULL;
}

const char *
mcp_tool_get_display_name (McpTool *self)
{
  const char *title;

  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  title = mcp_tool_get_title (self);

  return title != NULL ? title : self->name;
}

const char *
mcp_tool_get_description (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->description;
}

JsonObject *
mcp_tool_get_input_schema (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->input_schema;
}

JsonObject *
mcp_tool_get_output_schema (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->output_schema;
}

JsonObject *
mcp_tool_get_annotations (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->annotations;
}

gboolean
mcp_tool_get_read_only_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), FALSE);

  return self->read_only_hint;
}

gboolean
mcp_tool_get_destructive_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), TRUE);

  return self->destructive_hint;
}

gboolean
mcp_tool_get_idempotent_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), FALSE);

  return self->idempotent_hint;
}

gboolean
mcp_tool_get_open_world_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), TRUE);

  return self->open_world_hint;
}

JsonArray *
mcp_tool_get_icons (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->icons;
}

JsonObject *
mcp_tool_get_meta (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->meta;
}

const char *
mcp_tool_get_task_support (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->task_support;
}

const char *
mcp_tool_get_ui_resource_uri (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->ui_resource_uri;
}

McpToolVisibility
mcp_tool_get_ui_visibility (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), MCP_TOOL_VISIBILITY_NONE);

  return self->ui_visibility;
}

JsonObject *
mcp_tool_get_json (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->object;
}
