/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-prompt.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-protocol-private.h"

struct _McpPrompt
{
  GObject      parent_instance;

  /* borrowed from object */
  const char  *name;
  const char  *title;
  const char  *description;
  JsonArray   *icons;
  JsonObject  *meta;

  /* owned */
  JsonObject  *object;
  JsonArray   *arguments;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (McpPrompt, mcp_prompt, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
mcp_prompt_finalize (GObject *object)
{
  McpPrompt *self = (McpPrompt *)object;

  g_clear_pointer (&self->arguments, json_array_unref);
  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_prompt_parent_class)->finalize (object);
}

static void
mcp_prompt_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  McpPrompt *self = MCP_PROMPT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, mcp_prompt_get_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_prompt_get_title (self));
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, mcp_prompt_get_description (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_prompt_class_init (McpPromptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_prompt_finalize;
  object_class->get_property = mcp_prompt_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, MCP_PARAM_READABLE);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_prompt_init (McpPrompt *self)
{
}

static gboolean
read_arguments (McpPrompt  *self,
                JsonNode   *node,
                GError    **error)
{
  JsonArray *array;
  g_autoptr(GHashTable) names = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      self->arguments = json_array_new ();
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("prompt “%s”: arguments must be an array"), self->name);
      return FALSE;
    }

  array = json_node_get_array (node);
  names = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonNode *name;
      JsonObject *argument;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt “%s”: arguments[%u] must be an object"), self->name, i);
          return FALSE;
        }

      argument = json_node_get_object (element);
      name = json_object_get_member (argument, "name");
      if (name == NULL || json_node_get_value_type (name) != G_TYPE_STRING ||
          json_node_get_string (name)[0] == '\0')
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt “%s”: arguments[%u].name must be a non-empty string"),
                       self->name, i);
          return FALSE;
        }

      if (!g_hash_table_add (names, (gpointer) json_node_get_string (name)))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt “%s”: arguments[%u] repeats the argument “%s”"),
                       self->name, i, json_node_get_string (name));
          return FALSE;
        }
    }

  self->arguments = json_array_ref (array);

  return TRUE;
}

McpPrompt *
mcp_prompt_new_from_json (JsonObject  *object,
                          GError     **error)
{
  g_autoptr(McpPrompt) self = NULL;
  const char *name;
  JsonNode *meta;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = mcp_json_required_string (object, "name",
                                   _("prompt: name is missing"),
                                   _("prompt: name must be a non-empty string"),
                                   error);
  if (name == NULL)
    return NULL;

  self = g_object_new (MCP_TYPE_PROMPT, NULL);
  self->object = json_object_ref (object);
  self->name = name;

  self->title = mcp_json_optional_string (object, "title", "prompt", self->name);
  self->description = mcp_json_optional_string (object, "description", "prompt", self->name);

  if (!read_arguments (self, json_object_get_member (object, "arguments"), error))
    return NULL;

  self->icons = mcp_json_optional_array (object, "icons", "prompt", self->name);

  meta = json_object_get_member (object, "_meta");
  if (meta != NULL && JSON_NODE_HOLDS_OBJECT (meta))
    self->meta = json_node_get_object (meta);
  else if (meta != NULL && !JSON_NODE_HOLDS_NULL (meta))
    g_debug ("prompt “%s”: ignoring _meta, which is not an object", self->name);

  return g_steal_pointer (&self);
}

const char *
mcp_prompt_get_name (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->name;
}

const char *
mcp_prompt_get_title (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->title;
}

const char *
mcp_prompt_get_display_name (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->title != NULL ? self->title : self->name;
}

const char *
mcp_prompt_get_description (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->description;
}

JsonArray *
mcp_prompt_get_arguments (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->arguments;
}

guint
mcp_prompt_get_n_arguments (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), 0);

  return json_array_get_length (self->arguments);
}

const char *
mcp_prompt_get_argument_name (McpPrompt *self,
                              guint      index)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);
  g_return_val_if_fail (index < json_array_get_length (self->arguments), NULL);

  return json_object_get_string_member (json_array_get_object_element (self->arguments, index),
                                        "name");
}

gboolean
mcp_prompt_get_argument_required (McpPrompt *self,
                                  guint      index)
{
  JsonObject *argument;
  JsonNode *required;

  g_return_val_if_fail (MCP_IS_PROMPT (self), FALSE);
  g_return_val_if_fail (index < json_array_get_length (self->arguments), FALSE);

  argument = json_array_get_object_element (self->arguments, index);
  required = json_object_get_member (argument, "required");
  if (required == NULL || json_node_get_value_type (required) != G_TYPE_BOOLEAN)
    return FALSE;

  return json_node_get_boolean (required);
}

static void
copy_string_member (JsonObject *from,
                    JsonObject *to,
                    const char *name)
{
  JsonNode *node = json_object_get_member (from, name);

  if (node != NULL && json_node_get_value_type (node) == G_TYPE_STRING)
    json_object_set_string_member (to, name, json_node_get_string (node));
}

JsonObject *
mcp_prompt_dup_arguments_schema (McpPrompt *self)
{
  JsonObject *schema;
  JsonObject *members;
  JsonArray *required;

  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  schema = json_object_new ();
  members = json_object_new ();
  required = json_array_new ();

  for (guint i = 0; i < json_array_get_length (self->arguments); i++)
    {
      JsonObject *argument = json_array_get_object_element (self->arguments, i);
      const char *name = json_object_get_string_member (argument, "name");
      JsonObject *property;

      /* read_arguments refuses a repeated name; a schema could not say it twice */
      if (json_object_has_member (members, name))
        continue;

      property = json_object_new ();
      json_object_set_string_member (property, "type", "string");
      copy_string_member (argument, property, "title");
      copy_string_member (argument, property, "description");
      json_object_set_object_member (members, name, property);

      if (mcp_prompt_get_argument_required (self, i))
        json_array_add_string_element (required, name);
    }

  json_object_set_string_member (schema, "type", "object");
  json_object_set_object_member (schema, "properties", members);
  json_object_set_array_member (schema, "required", required);

  return schema;
}

JsonArray *
mcp_prompt_get_icons (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->icons;
}

JsonObject *
mcp_prompt_get_meta (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->meta;
}

JsonObject *
mcp_prompt_get_json (McpPrompt *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return self->object;
}
