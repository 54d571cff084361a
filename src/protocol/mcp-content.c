/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-content.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

struct _McpContent
{
  GObject         parent_instance;

  McpContentKind  kind;
  gboolean        data_decoded;

  /* borrowed from object */
  const char     *type_name;
  const char     *text;
  const char     *mime_type;
  const char     *data_base64;
  const char     *uri;
  const char     *name;
  const char     *description;
  JsonObject     *annotations;
  JsonObject     *meta;

  /* owned */
  JsonObject     *object;
  GBytes         *data;
};

G_DEFINE_FINAL_TYPE (McpContent, mcp_content, G_TYPE_OBJECT)

static void
mcp_content_finalize (GObject *object)
{
  McpContent *self = (McpContent *)object;

  g_clear_pointer (&self->data, g_bytes_unref);
  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_content_parent_class)->finalize (object);
}

static void
mcp_content_class_init (McpContentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_content_finalize;
}

static void
mcp_content_init (McpContent *self)
{
}

/* Returns the string member @name, or NULL when it is absent or not a
 * string. */
static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

/* Sets @error unless the member @name of @object is a string. */
static gboolean
require_string (JsonObject  *object,
                const char  *name,
                const char  *block,
                const char  *where,
                const char **out_value,
                GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: the first %s is the content block's type (text, image, audio, resource…), the others name the missing JSON member */
                   _("%s block has no %s%s"), block, where, name);
      return FALSE;
    }

  if (json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: the first %s is the content block's type (text, image, audio, resource…), the others name a JSON member */
                   _("%s block: %s%s must be a string"), block, where, name);
      return FALSE;
    }

  *out_value = json_node_get_string (node);

  return TRUE;
}

McpContent *
mcp_content_new_from_json (JsonObject  *object,
                           GError     **error)
{
  g_autoptr(McpContent) self = NULL;
  JsonNode *type;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  type = json_object_get_member (object, "type");
  if (type == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("content block has no type"));
      return NULL;
    }
  if (json_node_get_value_type (type) != G_TYPE_STRING)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("content block: type must be a string"));
      return NULL;
    }

  self = g_object_new (MCP_TYPE_CONTENT, NULL);
  self->object = json_object_ref (object);
  self->type_name = json_node_get_string (type);
  self->annotations = get_object (object, "annotations");
  self->meta = get_object (object, "_meta");

  if (g_str_equal (self->type_name, "text"))
    {
      self->kind = MCP_CONTENT_TEXT;
      if (!require_string (object, "text", "text", "", &self->text, error))
        return NULL;
    }
  else if (g_str_equal (self->type_name, "image") ||
           g_str_equal (self->type_name, "audio"))
    {
      self->kind = self->type_name[0] == 'i' ? MCP_CONTENT_IMAGE : MCP_CONTENT_AUDIO;
      if (!require_string (object, "data", self->type_name, "", &self->data_base64, error) ||
          !require_string (object, "mimeType", self->type_name, "", &self->mime_type, error))
        return NULL;
    }
  else if (g_str_equal (self->type_name, "resource_link"))
    {
      self->kind = MCP_CONTENT_RESOURCE_LINK;
      if (!require_string (object, "uri", "resource_link", "", &self->uri, error) ||
          !require_string (object, "name", "resource_link", "", &self->name, error))
        return NULL;
      self->mime_type = get_string (object, "mimeType");
      self->description = get_string (object, "description");
    }
  else if (g_str_equal (self->type_name, "resource"))
    {
      JsonNode *resource_node = json_object_get_member (object, "resource");
      JsonObject *resource;

      self->kind = MCP_CONTENT_RESOURCE;

      if (resource_node == NULL || JSON_NODE_HOLDS_NULL (resource_node))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("resource block has no resource"));
          return NULL;
        }
      if (!JSON_NODE_HOLDS_OBJECT (resource_node))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("resource block: resource must be an object"));
          return NULL;
        }

      resource = json_node_get_object (resource_node);
      if (!require_string (resource, "uri", "resource", "resource.", &self->uri, error))
        return NULL;

      if (json_object_has_member (resource, "text"))
        {
          if (!require_string (resource, "text", "resource", "resource.", &self->text, error))
            return NULL;
        }
      else if (json_object_has_member (resource, "blob"))
        {
          if (!require_string (resource, "blob", "resource", "resource.", &self->data_base64, error))
            return NULL;
        }
      else
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("resource block: resource has neither text nor blob"));
          return NULL;
        }

      self->mime_type = get_string (resource, "mimeType");
      self->name = get_string (resource, "name");
      self->description = get_string (resource, "description");
    }
  else
    {
      g_debug ("Keeping content block of unknown type “%s”", self->type_name);
      self->kind = MCP_CONTENT_UNKNOWN;
    }

  return g_steal_pointer (&self);
}

McpContentKind
mcp_content_get_kind (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), MCP_CONTENT_UNKNOWN);

  return self->kind;
}

const char *
mcp_content_get_type_name (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->type_name;
}

const char *
mcp_content_get_text (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->text;
}

const char *
mcp_content_get_mime_type (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->mime_type;
}

static inline gboolean
is_base64_char (char c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '/';
}

/* g_base64_decode() skips whatever it does not understand, so a corrupt
 * payload would decode to garbage without complaint. */
static gboolean
check_base64 (const char  *text,
              const char  *block,
              GError     **error)
{
  gsize count = 0;
  guint padding = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      char c = *p;

      /* Line breaks, as MIME writes them, are harmless. */
      if (c == '\n' || c == '\r')
        continue;

      if (c == '=')
        {
          padding++;
          if (padding > 2)
            goto too_much_padding;
        }
      else if (is_base64_char (c))
        {
          if (padding > 0)
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           /* Translators: %s is the content block's type (image, audio, resource), %lu a byte offset */
                           _("%s block: data is not valid base64 (data after padding at offset %lu)"),
                           block, (unsigned long)(p - text));
              return FALSE;
            }
        }
      else
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is the content block's type (image, audio, resource), %lu a byte offset */
                       _("%s block: data is not valid base64 (unexpected character at offset %lu)"),
                       block, (unsigned long)(p - text));
          return FALSE;
        }

      count++;
    }

  if (count % 4 != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s block: data is not valid base64 (length %lu is not a multiple of 4)"),
                   block, (unsigned long) count);
      return FALSE;
    }

  return TRUE;

too_much_padding:
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
               _("%s block: data is not valid base64 (too much padding)"), block);
  return FALSE;
}

GBytes *
mcp_content_get_data (McpContent  *self,
                      GError     **error)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->data_base64 == NULL)
    return NULL;

  if (!self->data_decoded)
    {
      guchar *decoded;
      gsize length = 0;

      if (!check_base64 (self->data_base64, self->type_name, error))
        return NULL;

      if (self->data_base64[0] == '\0')
        {
          self->data = g_bytes_new (NULL, 0);
        }
      else
        {
          decoded = g_base64_decode (self->data_base64, &length);
          self->data = g_bytes_new_take (decoded, length);
        }
      self->data_decoded = TRUE;
    }

  return g_bytes_ref (self->data);
}

const char *
mcp_content_get_data_base64 (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->data_base64;
}

const char *
mcp_content_get_uri (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->uri;
}

const char *
mcp_content_get_name (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->name;
}

const char *
mcp_content_get_description (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->description;
}

JsonObject *
mcp_content_get_annotations (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->annotations;
}

JsonObject *
mcp_content_get_meta (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->meta;
}

JsonObject *
mcp_content_get_json (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->object;
}
