/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-resource.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-protocol-private.h"

struct _McpResource
{
  GObject      parent_instance;

  gint64       size;

  /* borrowed from object */
  const char        *uri;
  McpResourceFields  fields;

  /* owned */
  JsonObject  *object;
};

enum {
  PROP_0,
  PROP_URI,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_MIME_TYPE,
  PROP_SIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (McpResource, mcp_resource, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
mcp_resource_finalize (GObject *object)
{
  McpResource *self = (McpResource *)object;

  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_resource_parent_class)->finalize (object);
}

static void
mcp_resource_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  McpResource *self = MCP_RESOURCE (object);

  switch (prop_id)
    {
    case PROP_URI:
      g_value_set_string (value, mcp_resource_get_uri (self));
      break;

    case PROP_NAME:
      g_value_set_string (value, mcp_resource_get_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_resource_get_title (self));
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, mcp_resource_get_description (self));
      break;

    case PROP_MIME_TYPE:
      g_value_set_string (value, mcp_resource_get_mime_type (self));
      break;

    case PROP_SIZE:
      g_value_set_int64 (value, mcp_resource_get_size (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_resource_class_init (McpResourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_resource_finalize;
  object_class->get_property = mcp_resource_get_property;

  properties[PROP_URI] = g_param_spec_string ("uri", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_MIME_TYPE] = g_param_spec_string ("mime-type", NULL, NULL, NULL, MCP_PARAM_READABLE);
  properties[PROP_SIZE] = g_param_spec_int64 ("size", NULL, NULL, -1, G_MAXINT64, -1, MCP_PARAM_READABLE);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_resource_init (McpResource *self)
{
  self->size = -1;
}

void
mcp_resource_fields_read (McpResourceFields *fields,
                          JsonObject        *object,
                          const char        *kind,
                          const char        *key_member,
                          const char        *key)
{
  fields->name = mcp_json_optional_string (object, "name", kind, key);
  if (fields->name == NULL || fields->name[0] == '\0')
    {
      g_debug ("%s “%s” has no name; using its %s", kind, key, key_member);
      fields->name = key;
    }

  fields->title = mcp_json_optional_string (object, "title", kind, key);
  fields->description = mcp_json_optional_string (object, "description", kind, key);
  fields->mime_type = mcp_json_optional_string (object, "mimeType", kind, key);
  fields->annotations = mcp_json_optional_object (object, "annotations", kind, key);
  fields->meta = mcp_json_optional_object (object, "_meta", kind, key);
  fields->icons = mcp_json_optional_array (object, "icons", kind, key);
}

McpResource *
mcp_resource_new_from_json (JsonObject  *object,
                            GError     **error)
{
  g_autoptr(McpResource) self = NULL;
  const char *uri;
  JsonNode *size;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = mcp_json_required_string (object, "uri",
                                  _("resource: uri is missing"),
                                  _("resource: uri must be a non-empty string"),
                                  error);
  if (uri == NULL)
    return NULL;

  self = g_object_new (MCP_TYPE_RESOURCE, NULL);
  self->object = json_object_ref (object);
  self->uri = uri;

  mcp_resource_fields_read (&self->fields, object, "resource", "uri", self->uri);

  size = json_object_get_member (object, "size");
  if (size != NULL && !JSON_NODE_HOLDS_NULL (size))
    {
      GType type = json_node_get_value_type (size);

      if (type == G_TYPE_INT64 && json_node_get_int (size) >= 0)
        self->size = json_node_get_int (size);
      else if (type == G_TYPE_DOUBLE && json_node_get_double (size) >= 0 &&
               json_node_get_double (size) < (double) G_MAXINT64)
        self->size = (gint64) json_node_get_double (size);
      else
        g_debug ("resource “%s”: ignoring size, which is not a non-negative number", self->uri);
    }

  return g_steal_pointer (&self);
}

const char *
mcp_resource_get_uri (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->uri;
}

const char *
mcp_resource_get_name (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.name;
}

const char *
mcp_resource_get_title (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.title;
}

const char *
mcp_resource_get_display_name (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.title != NULL ? self->fields.title : self->fields.name;
}

const char *
mcp_resource_get_description (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.description;
}

const char *
mcp_resource_get_mime_type (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.mime_type;
}

gint64
mcp_resource_get_size (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), -1);

  return self->size;
}

JsonObject *
mcp_resource_get_annotations (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.annotations;
}

JsonArray *
mcp_resource_get_icons (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.icons;
}

JsonObject *
mcp_resource_get_meta (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->fields.meta;
}

JsonObject *
mcp_resource_get_json (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return self->object;
}
