/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-server-info.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-protocol-private.h"

struct _McpServerInfo
{
  GObject      parent_instance;

  /* borrowed from object */
  const char  *name;
  const char  *title;
  const char  *version;
  const char  *website_url;
  JsonArray   *icons;
  const char  *instructions;
  const char  *protocol_version;

  /* owned */
  JsonObject  *object;
  JsonObject  *capabilities;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_TITLE,
  PROP_VERSION,
  PROP_PROTOCOL_VERSION,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (McpServerInfo, mcp_server_info, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
mcp_server_info_finalize (GObject *object)
{
  McpServerInfo *self = (McpServerInfo *)object;

  g_clear_pointer (&self->capabilities, json_object_unref);
  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_server_info_parent_class)->finalize (object);
}

static void
mcp_server_info_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  McpServerInfo *self = MCP_SERVER_INFO (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, mcp_server_info_get_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_server_info_get_title (self));
      break;

    case PROP_VERSION:
      g_value_set_string (value, mcp_server_info_get_version (self));
      break;

    case PROP_PROTOCOL_VERSION:
      g_value_set_string (value, mcp_server_info_get_protocol_version (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_server_info_class_init (McpServerInfoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_server_info_finalize;
  object_class->get_property = mcp_server_info_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_VERSION] = g_param_spec_string ("version", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_PROTOCOL_VERSION] = g_param_spec_string ("protocol-version", NULL, NULL, NULL, MCP_PARAM_READABLE);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_server_info_init (McpServerInfo *self)
{
}

McpServerInfo *
mcp_server_info_new_from_json (JsonObject  *initialize_result,
                               GError     **error)
{
  g_autoptr(McpServerInfo) self = NULL;
  JsonNode *server_info;
  JsonObject *info;
  JsonNode *node;

  g_return_val_if_fail (initialize_result != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  server_info = json_object_get_member (initialize_result, "serverInfo");
  if (server_info == NULL || JSON_NODE_HOLDS_NULL (server_info))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("initialize result: serverInfo is missing"));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (server_info))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("initialize result: serverInfo must be an object"));
      return NULL;
    }
  info = json_node_get_object (server_info);

  node = json_object_get_member (info, "name");
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("initialize result: serverInfo.name must be a string"));
      return NULL;
    }

  self = g_object_new (MCP_TYPE_SERVER_INFO, NULL);
  self->object = json_object_ref (initialize_result);
  self->name = json_node_get_string (node);

  node = json_object_get_member (initialize_result, "protocolVersion");
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("initialize result: protocolVersion must be a string"));
      return NULL;
    }
  self->protocol_version = json_node_get_string (node);

  self->title = mcp_json_optional_string (info, "title", "initialize result", NULL);
  self->version = mcp_json_optional_string (info, "version", "initialize result", NULL);
  self->website_url = mcp_json_optional_string (info, "websiteUrl", "initialize result", NULL);
  self->instructions = mcp_json_optional_string (initialize_result, "instructions", "initialize result", NULL);

  node = json_object_get_member (info, "icons");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    self->icons = json_node_get_array (node);
  else if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    g_debug ("initialize result: ignoring serverInfo.icons, which is not an array");

  node = json_object_get_member (initialize_result, "capabilities");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      self->capabilities = json_object_ref (json_node_get_object (node));
    }
  else
    {
      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        g_debug ("initialize result: ignoring capabilities, which is not an object");
      self->capabilities = json_object_new ();
    }

  return g_steal_pointer (&self);
}

const char *
mcp_server_info_get_name (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->name;
}

const char *
mcp_server_info_get_title (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->title;
}

const char *
mcp_server_info_get_version (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->version;
}

const char *
mcp_server_info_get_website_url (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->website_url;
}

JsonArray *
mcp_server_info_get_icons (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->icons;
}

const char *
mcp_server_info_get_instructions (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->instructions;
}

const char *
mcp_server_info_get_protocol_version (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->protocol_version;
}

JsonObject *
mcp_server_info_get_capabilities (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->capabilities;
}

/* A capability is declared by its member being present (an object, often
 * empty); a sub-capability by a true boolean inside it. */
static gboolean
has_capability (McpServerInfo *self,
                const char    *capability,
                const char    *sub_capability)
{
  JsonNode *node = json_object_get_member (self->capabilities, capability);
  JsonNode *sub;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  if (sub_capability == NULL)
    return json_node_get_value_type (node) != G_TYPE_BOOLEAN || json_node_get_boolean (node);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  sub = json_object_get_member (json_node_get_object (node), sub_capability);

  return sub != NULL &&
         json_node_get_value_type (sub) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (sub);
}

gboolean
mcp_server_info_has_tools (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "tools", NULL);
}

gboolean
mcp_server_info_has_tools_list_changed (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "tools", "listChanged");
}

gboolean
mcp_server_info_has_resources (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "resources", NULL);
}

gboolean
mcp_server_info_has_resources_subscribe (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "resources", "subscribe");
}

gboolean
mcp_server_info_has_resources_list_changed (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "resources", "listChanged");
}

gboolean
mcp_server_info_has_prompts (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "prompts", NULL);
}

gboolean
mcp_server_info_has_prompts_list_changed (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "prompts", "listChanged");
}

gboolean
mcp_server_info_has_logging (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "logging", NULL);
}

gboolean
mcp_server_info_has_completions (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "completions", NULL);
}

gboolean
mcp_server_info_has_tasks (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), FALSE);

  return has_capability (self, "tasks", NULL);
}

JsonObject *
mcp_server_info_get_json (McpServerInfo *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_INFO (self), NULL);

  return self->object;
}
