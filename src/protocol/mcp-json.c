/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-private.h"

#include <string.h>

#include "mcp-error.h"

/* Small helpers on json-glib trees: a server's optional members, the size
 * of a value, equality. The reader is mcp-json-parse.c, the writer
 * mcp-json-write.c. */

static JsonNode *
optional_member (JsonObject *object,
                 const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node == NULL || JSON_NODE_HOLDS_NULL (node) ? NULL : node;
}

static void
ignore_member (const char *kind,
               const char *name,
               const char *member,
               const char *expected)
{
  if (name != NULL)
    g_debug ("%s “%s”: ignoring %s, which is not %s", kind, name, member, expected);
  else
    g_debug ("%s: ignoring %s, which is not %s", kind, member, expected);
}

/* @member when it is there, not null, and of @type (a string for
 * JSON_NODE_VALUE); NULL otherwise, with a debug message when it is of
 * another type. */
static JsonNode *
typed_member (JsonObject   *object,
              const char   *member,
              JsonNodeType  type,
              const char   *kind,
              const char   *name)
{
  JsonNode *node = optional_member (object, member);
  gboolean fits;

  if (node == NULL)
    return NULL;

  if (type == JSON_NODE_VALUE)
    fits = json_node_get_value_type (node) == G_TYPE_STRING;
  else
    fits = JSON_NODE_TYPE (node) == type;
  if (!fits)
    {
      ignore_member (kind, name, member,
                     type == JSON_NODE_OBJECT ? "an object" : type == JSON_NODE_ARRAY ? "an array" : "a string");
      return NULL;
    }

  return node;
}

const char *
mcp_json_optional_string (JsonObject *object,
                          const char *member,
                          const char *kind,
                          const char *name)
{
  JsonNode *node = typed_member (object, member, JSON_NODE_VALUE, kind, name);

  return node != NULL ? json_node_get_string (node) : NULL;
}

JsonObject *
mcp_json_optional_object (JsonObject *object,
                          const char *member,
                          const char *kind,
                          const char *name)
{
  JsonNode *node = typed_member (object, member, JSON_NODE_OBJECT, kind, name);

  return node != NULL ? json_node_get_object (node) : NULL;
}

JsonArray *
mcp_json_optional_array (JsonObject *object,
                         const char *member,
                         const char *kind,
                         const char *name)
{
  JsonNode *node = typed_member (object, member, JSON_NODE_ARRAY, kind, name);

  return node != NULL ? json_node_get_array (node) : NULL;
}

const char *
mcp_json_required_string (JsonObject  *object,
                          const char  *member,
                          const char  *missing,
                          const char  *invalid,
                          GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, missing);
      return NULL;
    }
  if (json_node_get_value_type (node) != G_TYPE_STRING ||
      json_node_get_string (node)[0] == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, invalid);
      return NULL;
    }

  return json_node_get_string (node);
}

/* Sizing */

/* Numbers as at most 24 characters, strings without their escapes: an
 * estimate meant for bounds on what a peer sent, not for buffers. */
gsize
mcp_json_estimate_size (JsonNode *node)
{
  gsize size = 0;

  if (node == NULL)
    return 4;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        size = 2;
        if (object != NULL)
          {
            json_object_iter_init (&iter, object);
            while (json_object_iter_next (&iter, &name, &member))
              size += strlen (name) + 4 + mcp_json_estimate_size (member);
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = array != NULL ? json_array_get_length (array) : 0;

        size = 2;
        for (guint i = 0; i < n; i++)
          size += 1 + mcp_json_estimate_size (json_array_get_element (array, i));
      }
      break;

    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_STRING)
          size = 2 + strlen (json_node_get_string (node));
        else if (type == G_TYPE_BOOLEAN)
          size = 5;
        else
          size = 24;
      }
      break;

    case JSON_NODE_NULL:
    default:
      size = 4;
      break;
    }

  return size;
}

/* Comparing */

gboolean
mcp_json_equal (JsonNode *a,
                JsonNode *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *x = json_node_get_object (a);
        JsonObject *y = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (json_object_get_size (x) != json_object_get_size (y))
          return FALSE;
        json_object_iter_init (&iter, x);
        while (json_object_iter_next (&iter, &name, &member))
          {
            if (!mcp_json_equal (member, json_object_get_member (y, name)))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *x = json_node_get_array (a);
        JsonArray *y = json_node_get_array (b);
        guint n = json_array_get_length (x);

        if (n != json_array_get_length (y))
          return FALSE;
        for (guint i = 0; i < n; i++)
          {
            if (!mcp_json_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
    default:
      {
        GType ta = json_node_get_value_type (a);
        GType tb = json_node_get_value_type (b);
        gboolean na = ta == G_TYPE_INT64 || ta == G_TYPE_DOUBLE;
        gboolean nb = tb == G_TYPE_INT64 || tb == G_TYPE_DOUBLE;

        if (na && nb)
          {
            if (ta == G_TYPE_INT64 && tb == G_TYPE_INT64)
              return json_node_get_int (a) == json_node_get_int (b);
            return json_node_get_double (a) == json_node_get_double (b);
          }
        if (ta != tb)
          return FALSE;
        if (ta == G_TYPE_BOOLEAN)
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
      }
    }
}
