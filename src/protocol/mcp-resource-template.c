/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-resource-template.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-protocol-private.h"

struct _McpResourceTemplate
{
  GObject      parent_instance;

  /* borrowed from object */
  const char        *uri_template;
  McpResourceFields  fields;

  /* owned */
  JsonObject  *object;
};

enum {
  PROP_0,
  PROP_URI_TEMPLATE,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_MIME_TYPE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (McpResourceTemplate, mcp_resource_template, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
mcp_resource_template_finalize (GObject *object)
{
  McpResourceTemplate *self = (McpResourceTemplate *)object;

  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_resource_template_parent_class)->finalize (object);
}

static void
mcp_resource_template_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  McpResourceTemplate *self = MCP_RESOURCE_TEMPLATE (object);

  switch (prop_id)
    {
    case PROP_URI_TEMPLATE:
      g_value_set_string (value, mcp_resource_template_get_uri_template (self));
      break;

    case PROP_NAME:
      g_value_set_string (value, mcp_resource_template_get_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_resource_template_get_title (self));
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, mcp_resource_template_get_description (self));
      break;

    case PROP_MIME_TYPE:
      g_value_set_string (value, mcp_resource_template_get_mime_type (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_resource_template_class_init (McpResourceTemplateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_resource_template_finalize;
  object_class->get_property = mcp_resource_template_get_property;

  properties[PROP_URI_TEMPLATE] = g_param_spec_string ("uri-template", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_MIME_TYPE] = g_param_spec_string ("mime-type", NULL, NULL, NULL, MCP_PARAM_READABLE);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_resource_template_init (McpResourceTemplate *self)
{
}

McpResourceTemplate *
mcp_resource_template_new_from_json (JsonObject  *object,
                                     GError     **error)
{
  g_autoptr(McpResourceTemplate) self = NULL;
  const char *uri;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = mcp_json_required_string (object, "uriTemplate",
                                  _("resource template: uriTemplate is missing"),
                                  _("resource template: uriTemplate must be a non-empty string"),
                                  error);
  if (uri == NULL)
    return NULL;

  self = g_object_new (MCP_TYPE_RESOURCE_TEMPLATE, NULL);
  self->object = json_object_ref (object);
  self->uri_template = uri;

  mcp_resource_fields_read (&self->fields, object, "resource template", "uriTemplate",
                            self->uri_template);

  return g_steal_pointer (&self);
}

const char *
mcp_resource_template_get_uri_template (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->uri_template;
}

const char *
mcp_resource_template_get_name (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.name;
}

const char *
mcp_resource_template_get_title (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.title;
}

const char *
mcp_resource_template_get_display_name (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.title != NULL ? self->fields.title : self->fields.name;
}

const char *
mcp_resource_template_get_description (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.description;
}

const char *
mcp_resource_template_get_mime_type (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.mime_type;
}

JsonObject *
mcp_resource_template_get_annotations (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.annotations;
}

JsonArray *
mcp_resource_template_get_icons (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.icons;
}

JsonObject *
mcp_resource_template_get_meta (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->fields.meta;
}

JsonObject *
mcp_resource_template_get_json (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return self->object;
}
