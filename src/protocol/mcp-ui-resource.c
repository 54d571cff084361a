/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-ui-resource"

#include "config.h"

#include "mcp-ui-resource.h"
#include "mcp-ui-resource-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-url-policy.h"

/* McpUiResource: the object, reading a resources/read result into it, and
 * its getters. What `_meta.ui.csp` may declare, and the policy built from
 * it: mcp-ui-resource-csp.c. */

G_DEFINE_FINAL_TYPE (McpUiResource, mcp_ui_resource, G_TYPE_OBJECT)

/* _meta.ui.permissions members, as the specification spells them. */
static const struct {
  const char       *member;
  McpUiPermissions  flag;
} permission_names[] = {
  { "camera", MCP_UI_PERMISSION_CAMERA },
  { "microphone", MCP_UI_PERMISSION_MICROPHONE },
  { "geolocation", MCP_UI_PERMISSION_GEOLOCATION },
  { "clipboardWrite", MCP_UI_PERMISSION_CLIPBOARD_WRITE },
};

static void
mcp_ui_resource_finalize (GObject *object)
{
  McpUiResource *self = (McpUiResource *)object;

  g_clear_pointer (&self->uri, g_free);
  g_clear_pointer (&self->mime_type, g_free);
  g_clear_pointer (&self->html, g_free);
  g_clear_pointer (&self->digest, g_free);
  for (guint i = 0; i < MCP_UI_CSP_N_LISTS; i++)
    g_clear_pointer (&self->sources[i], g_ptr_array_unref);
  g_clear_pointer (&self->rejected, g_ptr_array_unref);
  g_clear_pointer (&self->domain, g_free);

  G_OBJECT_CLASS (mcp_ui_resource_parent_class)->finalize (object);
}

static void
mcp_ui_resource_class_init (McpUiResourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_ui_resource_finalize;
}

static void
mcp_ui_resource_init (McpUiResource *self)
{
  for (guint i = 0; i < MCP_UI_CSP_N_LISTS; i++)
    {
      self->sources[i] = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (self->sources[i], NULL);
    }
  self->rejected = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->rejected, NULL);
  self->border = MCP_UI_BORDER_UNSET;
  self->ttl_ms = -1;
}

gboolean
mcp_ui_uri_is_valid (const char *uri)
{
  gsize length;

  if (uri == NULL || g_ascii_strncasecmp (uri, "ui://", 5) != 0)
    return FALSE;

  length = strlen (uri);
  if (length <= 5 || length > MCP_UI_MAX_URI_BYTES || !g_utf8_validate (uri, length, NULL))
    return FALSE;

  for (const guchar *p = (const guchar *) uri; *p != '\0'; p++)
    if (*p <= 0x20 || *p == 0x7f)
      return FALSE;

  return TRUE;
}

/* "text/html;profile=mcp-app" as MIME types compare: type and parameter
 * names without regard to case, parameters in any order and spacing, the
 * value perhaps quoted; other parameters (charset) allowed. */
gboolean
mcp_ui_mime_type_matches (const char *mime_type)
{
  g_auto(GStrv) parts = NULL;
  gboolean profile = FALSE;

  if (mime_type == NULL)
    return FALSE;

  parts = g_strsplit (mime_type, ";", 0);
  if (parts[0] == NULL || g_ascii_strcasecmp (g_strstrip (parts[0]), "text/html") != 0)
    return FALSE;

  for (guint i = 1; parts[i] != NULL; i++)
    {
      char *equals = strchr (parts[i], '=');
      char *name = parts[i];
      char *value;
      gsize length;

      if (equals == NULL)
        continue;
      *equals = '\0';
      value = g_strstrip (equals + 1);
      length = strlen (value);
      if (length >= 2 && value[0] == '"' && value[length - 1] == '"')
        {
          value[length - 1] = '\0';
          value++;
        }
      if (g_ascii_strcasecmp (g_strstrip (name), "profile") == 0 &&
          g_ascii_strcasecmp (value, "mcp-app") == 0)
        profile = TRUE;
    }

  return profile;
}

static gboolean
content_uri_is (JsonObject *content,
                const char *uri)
{
  return g_strcmp0 (mcp_json_optional_string (content, "uri", "resource content", uri), uri) == 0;
}

/* The content a host renders: the one whose uri is the one asked for,
 * else the first of the MCP Apps type (a server may answer with its
 * canonical URI); NULL with an error naming the URI and what is there. */
static JsonObject *
pick_content (const char  *uri,
              JsonArray   *contents,
              GError     **error)
{
  g_autofree char *quoted = mcp_url_policy_quote (uri);
  JsonObject *first = NULL;
  JsonObject *found = NULL;
  const char *mime_type;
  guint length = json_array_get_length (contents);

  for (guint i = 0; i < length && found == NULL; i++)
    {
      JsonNode *node = json_array_get_element (contents, i);
      JsonObject *content;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      content = json_node_get_object (node);
      if (first == NULL)
        first = content;
      if (content_uri_is (content, uri))
        found = content;
    }

  for (guint i = 0; i < length && found == NULL; i++)
    {
      JsonNode *node = json_array_get_element (contents, i);

      if (JSON_NODE_HOLDS_OBJECT (node) &&
          mcp_ui_mime_type_matches (mcp_json_optional_string (json_node_get_object (node),
                                                              "mimeType", "resource content", uri)))
        found = json_node_get_object (node);
    }

  if (found == NULL)
    found = first;

  if (found == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("resources/read of “%s” returned no contents"), quoted);
      return NULL;
    }

  mime_type = mcp_json_optional_string (found, "mimeType", "resource content", uri);
  if (mime_type == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: the first %s is a URI, the second a MIME type */
                   _("“%s” is not an MCP Apps interface: it has no MIME type (expected %s)"),
                   quoted, MCP_UI_MIME_TYPE);
      return NULL;
    }
  if (!mcp_ui_mime_type_matches (mime_type))
    {
      g_autofree char *quoted_type = mcp_url_policy_quote (mime_type);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: the first %s is a URI, the second and third MIME types */
                   _("“%s” is not an MCP Apps interface: its type is “%s”, not %s"),
                   quoted, quoted_type, MCP_UI_MIME_TYPE);
      return NULL;
    }

  return found;
}

/* The HTML of @content, from "text" or the decoded "blob" (McpContent
 * checks the base64), checked: not empty, not too big, UTF-8 without NUL. */
static gboolean
read_html (McpUiResource  *self,
           JsonObject     *content,
           GError        **error)
{
  g_autofree char *quoted = mcp_url_policy_quote (self->uri);
  g_autoptr(JsonObject) block = json_object_new ();
  g_autoptr(McpContent) parsed = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *blob;
  const char *data;
  const char *end = NULL;
  gsize length;

  /* A blob four thirds the size of the limit decodes past it: refuse it
   * before decoding. */
  blob = mcp_json_optional_string (content, "blob", "resource content", self->uri);
  if (!json_object_has_member (content, "text") && blob != NULL &&
      strlen (blob) / 4 * 3 > MCP_UI_MAX_HTML_BYTES + 3)
    goto too_large;

  json_object_set_string_member (block, "type", "resource");
  json_object_set_object_member (block, "resource", json_object_ref (content));
  parsed = mcp_content_new_from_json (block, error);
  if (parsed == NULL)
    goto invalid;

  if (mcp_content_get_text (parsed) != NULL)
    {
      data = mcp_content_get_text (parsed);
      length = strlen (data);
    }
  else
    {
      bytes = mcp_content_get_data (parsed, error);
      if (bytes == NULL)
        goto invalid;
      data = g_bytes_get_data (bytes, &length);
    }

  if (length == 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The interface “%s” is empty"), quoted);
      return FALSE;
    }
  if (length > MCP_UI_MAX_HTML_BYTES)
    goto too_large;
  if (memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: %s is a URI, %lu a byte offset */
                   _("The interface “%s” contains a NUL byte (at byte %lu)"),
                   quoted, (unsigned long) ((const char *) memchr (data, '\0', length) - data));
      return FALSE;
    }
  if (!g_utf8_validate_len (data, length, &end))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   /* Translators: %s is a URI, %lu a byte offset */
                   _("The interface “%s” is not valid UTF-8 (at byte %lu)"),
                   quoted, (unsigned long) (end - data));
      return FALSE;
    }

  self->html = g_strndup (data, length);
  self->html_length = length;
  self->digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);

  return TRUE;

too_large:
  g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
               /* Translators: %s is a URI, %u a number of MiB */
               _("The interface “%s” is larger than %u MiB"),
               quoted, (guint) (MCP_UI_MAX_HTML_BYTES / (1024 * 1024)));
  return FALSE;

invalid:
  g_prefix_error (error, _("The interface “%s”: "), quoted);
  return FALSE;
}

static void
read_permissions (McpUiResource *self,
                  JsonObject    *permissions)
{

  if (permissions == NULL)
    return;

  /* Each is {} in the specification; true is read as asking too. */
  for (guint i = 0; i < G_N_ELEMENTS (permission_names); i++)
    {
      JsonNode *node = json_object_get_member (permissions, permission_names[i].member);

      if (node == NULL)
        continue;
      if (JSON_NODE_HOLDS_OBJECT (node) ||
          (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
           json_node_get_boolean (node)))
        self->permissions |= permission_names[i].flag;
    }
}

static void
read_ui_meta (McpUiResource *self,
              JsonObject    *ui)
{
  const char *domain;
  JsonNode *border;

  if (ui == NULL)
    return;

  mcp_ui_resource_read_csp (self, mcp_json_optional_object (ui, "csp", "_meta.ui", self->uri));
  read_permissions (self, mcp_json_optional_object (ui, "permissions", "_meta.ui", self->uri));

  /* Only shown, so only kept when it is short and printable. */
  domain = mcp_json_optional_string (ui, "domain", "_meta.ui", self->uri);
  if (domain != NULL && domain[0] != '\0' && strlen (domain) <= MCP_UI_MAX_SOURCE_CHARS)
    {
      g_autofree char *quoted = mcp_url_policy_quote (domain);

      if (g_str_equal (quoted, domain))
        self->domain = g_strdup (domain);
    }

  border = json_object_get_member (ui, "prefersBorder");
  if (border != NULL && JSON_NODE_HOLDS_VALUE (border) &&
      json_node_get_value_type (border) == G_TYPE_BOOLEAN)
    self->border = json_node_get_boolean (border) ? MCP_UI_BORDER_VISIBLE : MCP_UI_BORDER_NONE;
}

McpUiResource *
mcp_ui_resource_new_from_read_result (const char  *uri,
                                      JsonNode    *result,
                                      JsonObject  *listed_meta,
                                      GError     **error)
{
  g_autoptr(McpUiResource) self = NULL;
  JsonObject *object;
  JsonObject *content;
  JsonObject *meta;
  JsonObject *ui = NULL;
  JsonArray *contents;
  JsonNode *ttl;

  g_return_val_if_fail (uri != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result) ||
      (contents = mcp_json_optional_array (json_node_get_object (result), "contents",
                                           "resources/read result", uri)) == NULL)
    {
      g_autofree char *quoted = mcp_url_policy_quote (uri);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("resources/read of “%s”: the result has no contents list"), quoted);
      return NULL;
    }
  object = json_node_get_object (result);

  content = pick_content (uri, contents, error);
  if (content == NULL)
    return NULL;

  self = g_object_new (MCP_TYPE_UI_RESOURCE, NULL);
  self->uri = g_strdup (uri);
  self->mime_type = g_strdup (mcp_json_optional_string (content, "mimeType", "resource content", uri));

  if (!read_html (self, content, error))
    return NULL;

  meta = mcp_json_optional_object (content, "_meta", "resource content", uri);
  if (meta != NULL)
    ui = mcp_json_optional_object (meta, "ui", "resource content _meta", uri);
  if (ui == NULL && listed_meta != NULL)
    ui = mcp_json_optional_object (listed_meta, "ui", "listed resource _meta", uri);
  read_ui_meta (self, ui);

  ttl = json_object_get_member (object, "ttlMs");
  if (ttl != NULL && JSON_NODE_HOLDS_VALUE (ttl) &&
      json_node_get_value_type (ttl) == G_TYPE_INT64 && json_node_get_int (ttl) >= 0)
    self->ttl_ms = json_node_get_int (ttl);

  return g_steal_pointer (&self);
}

const char *
mcp_ui_resource_get_uri (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return self->uri;
}

const char *
mcp_ui_resource_get_mime_type (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return self->mime_type;
}

const char *
mcp_ui_resource_get_html (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return self->html;
}

gsize
mcp_ui_resource_get_html_length (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), 0);

  return self->html_length;
}

const char *
mcp_ui_resource_get_digest (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return self->digest;
}

const char * const *
mcp_ui_resource_get_connect_domains (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return (const char * const *) self->sources[MCP_UI_CSP_CONNECT]->pdata;
}

const char * const *
mcp_ui_resource_get_resource_domains (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return (const char * const *) self->sources[MCP_UI_CSP_RESOURCE]->pdata;
}

const char * const *
mcp_ui_resource_get_frame_domains (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return (const char * const *) self->sources[MCP_UI_CSP_FRAME]->pdata;
}

const char * const *
mcp_ui_resource_get_base_uri_domains (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return (const char * const *) self->sources[MCP_UI_CSP_BASE_URI]->pdata;
}

const char * const *
mcp_ui_resource_get_rejected_sources (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return (const char * const *) self->rejected->pdata;
}

McpUiPermissions
mcp_ui_resource_get_permissions (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), MCP_UI_PERMISSION_NONE);

  return self->permissions;
}

const char *
mcp_ui_resource_get_domain (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  return self->domain;
}

McpUiBorder
mcp_ui_resource_get_border (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), MCP_UI_BORDER_UNSET);

  return self->border;
}

gint64
mcp_ui_resource_get_ttl_ms (McpUiResource *self)
{
  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), -1);

  return self->ttl_ms;
}

JsonObject *
mcp_ui_resource_dup_permissions_json (McpUiResource *self)
{
  JsonObject *object;

  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  object = json_object_new ();
  for (guint i = 0; i < G_N_ELEMENTS (permission_names); i++)
    if (self->permissions & permission_names[i].flag)
      json_object_set_object_member (object, permission_names[i].member, json_object_new ());

  return object;
}
