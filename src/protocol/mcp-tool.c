/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-tool.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

#include <string.h>

struct _McpTool
{
  GObject      parent_instance;

  guint        read_only_hint : 1;
  guint        destructive_hint : 1;
  guint        idempotent_hint : 1;
  guint        open_world_hint : 1;

  /* borrowed from object */
  const char  *name;
  const char  *title;
  const char  *description;
  const char  *task_support;
  JsonObject  *output_schema;
  JsonObject  *annotations;
  JsonArray   *icons;
  JsonObject  *meta;

  /* owned */
  JsonObject  *object;
  JsonObject  *input_schema;
  GPtrArray   *param_headers;       /* ParamHeader, in schema order */
  GError      *param_headers_error; /* why the x-mcp-header use is invalid */
};

/* One "x-mcp-header" of the input schema (2026-07-28, SEP-2243): the header
 * Mcp-Param-{name} mirrors the argument at @path (keys of nested
 * "properties", from the schema's root). */
typedef struct
{
  char  *name;
  GStrv  path;
} ParamHeader;

static void
param_header_free (ParamHeader *header)
{
  g_free (header->name);
  g_strfreev (header->path);
  g_free (header);
}

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
      g_value_set_string (value, self->name);
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_tool_get_title (self));
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_READ_ONLY_HINT:
      g_value_set_boolean (value, self->read_only_hint);
      break;

    case PROP_DESTRUCTIVE_HINT:
      g_value_set_boolean (value, self->destructive_hint);
      break;

    case PROP_IDEMPOTENT_HINT:
      g_value_set_boolean (value, self->idempotent_hint);
      break;

    case PROP_OPEN_WORLD_HINT:
      g_value_set_boolean (value, self->open_world_hint);
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

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_READ_ONLY_HINT] =
    g_param_spec_boolean ("read-only-hint", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DESTRUCTIVE_HINT] =
    g_param_spec_boolean ("destructive-hint", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_IDEMPOTENT_HINT] =
    g_param_spec_boolean ("idempotent-hint", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_OPEN_WORLD_HINT] =
    g_param_spec_boolean ("open-world-hint", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

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

/* ------------------------------------------------------------------------ */
/* x-mcp-header (2026-07-28, SEP-2243)                                      */

/* Schema keywords whose value is a schema, an array of schemas, or an
 * object of schemas (JSON Schema 2020-12 and draft-07). An x-mcp-header met
 * through any of them is not "statically reachable through properties". */
static const char * const schema_keywords[] = {
  "items", "additionalItems", "additionalProperties", "unevaluatedItems",
  "unevaluatedProperties", "contains", "propertyNames", "not", "if", "then",
  "else", NULL,
};
static const char * const schema_array_keywords[] = {
  "allOf", "anyOf", "oneOf", "prefixItems", "items", NULL,
};
static const char * const schema_map_keywords[] = {
  "patternProperties", "$defs", "definitions", "dependentSchemas", NULL,
};

/* RFC 9110 §5.6.2 tchar */
static gboolean
is_token (const char *name)
{
  if (*name == '\0')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;
  return TRUE;
}

/* The JSON type a property allows, when it is one the header can carry:
 * "string", "integer" or "boolean" (also as ["integer", "null"]). */
static gboolean
type_is_mirrorable (JsonObject  *schema,
                    const char **type_out)
{
  JsonNode *type = json_object_get_member (schema, "type");
  const char *found = NULL;

  *type_out = NULL;
  if (type == NULL)
    return FALSE;

  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    {
      found = json_node_get_string (type);
    }
  else if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          JsonNode *element = json_array_get_element (types, i);
          const char *name;

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            return FALSE;
          name = json_node_get_string (element);
          if (g_str_equal (name, "null"))
            continue;
          if (found != NULL)
            return FALSE;
          found = name;
        }
    }

  *type_out = found;
  return found != NULL &&
         (g_str_equal (found, "string") || g_str_equal (found, "integer") ||
          g_str_equal (found, "boolean"));
}

static char *
path_to_string (GPtrArray *path)
{
  g_autoptr(GString) string = g_string_new ("inputSchema");

  if (path == NULL)
    return g_string_free (g_steal_pointer (&string), FALSE);
  for (guint i = 0; i < path->len; i++)
    g_string_append_printf (string, ".properties.%s", (const char *) g_ptr_array_index (path, i));
  return g_string_free (g_steal_pointer (&string), FALSE);
}

static gboolean scan_schema (McpTool     *self,
                             JsonNode    *node,
                             GPtrArray   *path,
                             const char  *where,
                             GHashTable  *seen,
                             GError     **error);

static gboolean
scan_schema_member (McpTool     *self,
                    JsonObject  *object,
                    const char  *member,
                    GHashTable  *seen,
                    GError     **error)
{
  JsonNode *value = json_object_get_member (object, member);

  if (value == NULL)
    return TRUE;

  if (g_strv_contains (schema_map_keywords, member) && JSON_NODE_HOLDS_OBJECT (value))
    {
      JsonObject *map = json_node_get_object (value);
      g_autoptr(GList) keys = json_object_get_members (map);

      for (GList *l = keys; l != NULL; l = l->next)
        if (!scan_schema (self, json_object_get_member (map, l->data), NULL, member, seen, error))
          return FALSE;
      return TRUE;
    }

  if (g_strv_contains (schema_array_keywords, member) && JSON_NODE_HOLDS_ARRAY (value))
    {
      JsonArray *array = json_node_get_array (value);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!scan_schema (self, json_array_get_element (array, i), NULL, member, seen, error))
          return FALSE;
      return TRUE;
    }

  if (g_strv_contains (schema_keywords, member))
    return scan_schema (self, value, NULL, member, seen, error);

  return TRUE;
}

/* @path: the property keys from the root when @node is reached through
 * "properties" alone, else NULL (@where then names the keyword). */
static gboolean
scan_schema (McpTool     *self,
             JsonNode    *node,
             GPtrArray   *path,
             const char  *where,
             GHashTable  *seen,
             GError     **error)
{
  JsonObject *object;
  JsonNode *header;
  JsonNode *props;
  g_autoptr(GList) members = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  object = json_node_get_object (node);

  header = json_object_get_member (object, "x-mcp-header");
  if (header != NULL)
    {
      g_autofree char *at = path_to_string (path);
      const char *name;
      const char *type;
      ParamHeader *param;

      if (path == NULL || path->len == 0)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: the first %s is a tool name, the second a
                        * schema keyword such as “items” or “anyOf”. Keep x-mcp-header
                        * and properties as they are. */
                       _("tool “%s”: an x-mcp-header under “%s” cannot be mirrored "
                         "into a header; only properties reached through “properties” can"),
                       self->name, path == NULL ? where : "inputSchema");
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_VALUE (header) || json_node_get_value_type (header) != G_TYPE_STRING)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a place in its schema. */
                       _("tool “%s”: x-mcp-header at %s is not a string"),
                       self->name, at);
          return FALSE;
        }
      name = json_node_get_string (header);
      if (!is_token (name))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a place in its schema,
                        * then the header name the tool declared. */
                       _("tool “%s”: x-mcp-header at %s, “%s”, is not a valid header "
                         "name (letters, digits and !#$%%&'*+-.^_`|~ only)"),
                       self->name, at, name);
          return FALSE;
        }
      if (!g_hash_table_add (seen, g_ascii_strdown (name, -1)))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a header name. */
                       _("tool “%s”: x-mcp-header “%s” is declared twice (header names "
                         "ignore case)"),
                       self->name, name);
          return FALSE;
        }
      if (!type_is_mirrorable (object, &type))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       /* Translators: %s is a tool name, then a place in its schema,
                        * then a JSON type such as “number” or “object”. */
                       _("tool “%s”: x-mcp-header at %s is on a property of type “%s”; "
                         "only string, integer and boolean properties can be mirrored"),
                       self->name, at, type != NULL ? type : "?");
          return FALSE;
        }

      param = g_new0 (ParamHeader, 1);
      param->name = g_strdup (name);
      g_ptr_array_add (path, NULL);
      param->path = g_strdupv ((char **) path->pdata);
      g_ptr_array_remove_index (path, path->len - 1);
      g_ptr_array_add (self->param_headers, param);
    }

  props = json_object_get_member (object, "properties");
  if (props != NULL && JSON_NODE_HOLDS_OBJECT (props))
    {
      JsonObject *map = json_node_get_object (props);
      g_autoptr(GList) keys = json_object_get_members (map);

      for (GList *l = keys; l != NULL; l = l->next)
        {
          gboolean ok;

          if (path != NULL)
            g_ptr_array_add (path, l->data);
          ok = scan_schema (self, json_object_get_member (map, l->data), path,
                            path != NULL ? "properties" : where, seen, error);
          if (path != NULL)
            g_ptr_array_remove_index (path, path->len - 1);
          if (!ok)
            return FALSE;
        }
    }

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    if (!scan_schema_member (self, object, l->data, seen, error))
      return FALSE;

  return TRUE;
}

static void
read_param_headers (McpTool *self)
{
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), self->input_schema);

  self->param_headers = g_ptr_array_new_with_free_func ((GDestroyNotify) param_header_free);
  if (!scan_schema (self, root, path, NULL, seen, &self->param_headers_error))
    g_ptr_array_set_size (self->param_headers, 0);
}

gboolean
mcp_tool_check_param_headers (McpTool  *self,
                              GError  **error)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->param_headers_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->param_headers_error));
      return FALSE;
    }
  return TRUE;
}

/* The header value of one argument: a string as it is, an integer in
 * decimal, a boolean as true or false; NULL for anything else (null and
 * absent included: the header is then left out). */
static char *
param_value (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return g_strdup (json_node_get_string (node));
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    case G_TYPE_DOUBLE:
      {
        double value = json_node_get_double (node);

        /* 3.0 from a person's form is the integer 3. */
        if (value == (double) (gint64) value && value > -9.0e15 && value < 9.0e15)
          return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);
        return NULL;
      }
    default:
      return NULL;
    }
}

void
mcp_tool_add_param_headers (McpTool    *self,
                            JsonObject *arguments,
                            McpMessage *message)
{
  g_return_if_fail (MCP_IS_TOOL (self));
  g_return_if_fail (MCP_IS_MESSAGE (message));

  if (arguments == NULL || self->param_headers == NULL)
    return;

  for (guint i = 0; i < self->param_headers->len; i++)
    {
      ParamHeader *param = g_ptr_array_index (self->param_headers, i);
      JsonObject *object = arguments;
      JsonNode *node = NULL;
      g_autofree char *header = NULL;
      g_autofree char *value = NULL;

      for (guint j = 0; param->path[j] != NULL; j++)
        {
          node = object != NULL ? json_object_get_member (object, param->path[j]) : NULL;
          object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
        }

      value = param_value (node);
      if (value == NULL)
        continue;
      header = g_strconcat ("Mcp-Param-", param->name, NULL);
      mcp_message_set_header (message, header, value);
    }
}

McpTool *
mcp_tool_new_from_json (JsonObject  *object,
                        GError     **error)
{
  g_autoptr(McpTool) self = NULL;
  JsonNode *name;
  JsonNode *schema;
  JsonNode *icons;
  JsonObject *execution;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = json_object_get_member (object, "name");
  if (name == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("tool: name is missing"));
      return NULL;
    }
  if (json_node_get_value_type (name) != G_TYPE_STRING ||
      json_node_get_string (name)[0] == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("tool: name must be a non-empty string"));
      return NULL;
    }

  self = g_object_new (MCP_TYPE_TOOL, NULL);
  self->object = json_object_ref (object);
  self->name = json_node_get_string (name);

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

  icons = json_object_get_member (object, "icons");
  if (icons != NULL && JSON_NODE_HOLDS_ARRAY (icons))
    self->icons = json_node_get_array (icons);
  else if (icons != NULL && !JSON_NODE_HOLDS_NULL (icons))
    g_debug ("tool “%s”: ignoring icons, which is not an array", self->name);

  execution = mcp_json_optional_object (object, "execution", "tool", self->name);
  if (execution != NULL)
    {
      const char *support = mcp_json_optional_string (execution, "taskSupport", "tool", self->name);

      if (g_strcmp0 (support, "optional") == 0 || g_strcmp0 (support, "required") == 0)
        self->task_support = support;
      else if (support != NULL && !g_str_equal (support, "forbidden"))
        g_debug ("tool “%s”: unknown execution.taskSupport “%s”", self->name, support);
    }

  read_param_headers (self);

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

JsonObject *
mcp_tool_get_json (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return self->object;
}
