/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-skill"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-skill-private.h"

#include "mcp-error.h"
#include "mcp-yaml-document.h"

/* Verification on read (SEP-2640, "Integrity and Verification"): the
 * size, then the SHA-256 digest, then for a SKILL.md its YAML frontmatter
 * compared field by field with the entry's. */

#define MAX_SHOWN_VALUE 80

gboolean
mcp_skill_digest_is_valid (const char *digest)
{
  if (digest == NULL || !g_str_has_prefix (digest, "sha256:") || strlen (digest) != 7 + 64)
    return FALSE;
  for (const char *p = digest + 7; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && !(*p >= 'a' && *p <= 'f'))
      return FALSE;
  return TRUE;
}

/* The line at @p ends at *@end (the newline included); TRUE when it is
 * exactly @marker, with or without a carriage return. */
static gboolean
line_is (const char  *p,
         const char  *limit,
         const char  *marker,
         const char **end)
{
  const char *newline = memchr (p, '\n', limit - p);
  const char *line_end = newline != NULL ? newline : limit;
  gsize length = line_end - p;

  *end = newline != NULL ? newline + 1 : limit;
  if (length > 0 && p[length - 1] == '\r')
    length--;
  return length == strlen (marker) && memcmp (p, marker, length) == 0;
}

JsonObject *
mcp_skill_parse_frontmatter (const char  *text,
                             gsize        length,
                             GError     **error)
{
  const char *limit = text + length;
  const char *start;
  const char *p;
  const char *next;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;

  if (length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3;
  if (!line_is (text, limit, "---", &start))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("it does not begin with YAML frontmatter (a “---” line)"));
      return NULL;
    }

  for (p = start; p < limit; p = next)
    {
      if ((gsize) (p - start) > MCP_SKILL_MAX_FRONTMATTER_SIZE)
        break;
      if (line_is (p, limit, "---", &next))
        break;
    }
  if (p >= limit)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("its YAML frontmatter has no closing “---” line"));
      return NULL;
    }
  if ((gsize) (p - start) > MCP_SKILL_MAX_FRONTMATTER_SIZE)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("its YAML frontmatter is longer than %d KiB"),
                   MCP_SKILL_MAX_FRONTMATTER_SIZE / 1024);
      return NULL;
    }

  root = mcp_yaml_document_parse (start, p - start, &local_error);
  if (root == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("its YAML frontmatter does not parse: %s"), local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("its YAML frontmatter is not a mapping"));
      return NULL;
    }
  if (mcp_skill_json_depth (root) > MCP_SKILL_MAX_FRONTMATTER_DEPTH)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("its YAML frontmatter is nested more than %d levels deep"),
                   MCP_SKILL_MAX_FRONTMATTER_DEPTH);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

/* JSON equality: 1 and 1.0 are one number (JSON has one number type). */
static gboolean
nodes_equal (JsonNode *a,
             JsonNode *b)
{
  if (is_number (a) && is_number (b))
    {
      if (json_node_get_value_type (a) == G_TYPE_INT64 && json_node_get_value_type (b) == G_TYPE_INT64)
        return json_node_get_int (a) == json_node_get_int (b);
      return json_node_get_double (a) == json_node_get_double (b);
    }
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (a) != json_node_get_value_type (b))
        return FALSE;
      if (json_node_get_value_type (a) == G_TYPE_BOOLEAN)
        return json_node_get_boolean (a) == json_node_get_boolean (b);
      return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;

    case JSON_NODE_ARRAY:
      {
        JsonArray *x = json_node_get_array (a);
        JsonArray *y = json_node_get_array (b);

        if (json_array_get_length (x) != json_array_get_length (y))
          return FALSE;
        for (guint i = 0; i < json_array_get_length (x); i++)
          if (!nodes_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
            return FALSE;
        return TRUE;
      }

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
            JsonNode *other = json_object_get_member (y, name);

            if (other == NULL || !nodes_equal (member, other))
              return FALSE;
          }
        return TRUE;
      }

    default:
      return FALSE;
    }
}

/* A value for a message: JSON, on one line, cut short. */
static char *
show_value (JsonNode *node)
{
  g_autofree char *json = json_to_string (node, FALSE);
  g_autoptr(GString) shown = g_string_new (NULL);

  for (const char *p = json; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (g_utf8_strlen (shown->str, -1) >= MAX_SHOWN_VALUE)
        {
          g_string_append (shown, "…");
          break;
        }
      g_string_append_unichar (shown, g_utf8_get_char (p));
    }
  return g_string_free (g_steal_pointer (&shown), FALSE);
}

char *
mcp_skill_compare_frontmatter (JsonObject *expected,
                               JsonObject *got)
{
  g_autoptr(GString) differences = g_string_new (NULL);
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  json_object_iter_init (&iter, expected);
  while (json_object_iter_next (&iter, &name, &member))
    {
      JsonNode *other = json_object_get_member (got, name);

      if (other == NULL)
        {
          g_autofree char *value = show_value (member);

          g_string_append (differences, differences->len > 0 ? "; " : "");
          g_string_append_printf (differences,
                                  _("field “%s” is missing from SKILL.md (the entry has %s)"),
                                  name, value);
        }
      else if (!nodes_equal (member, other))
        {
          g_autofree char *want = show_value (member);
          g_autofree char *have = show_value (other);

          g_string_append (differences, differences->len > 0 ? "; " : "");
          g_string_append_printf (differences,
                                  _("field “%s” differs: expected %s, got %s"),
                                  name, want, have);
        }
    }

  json_object_iter_init (&iter, got);
  while (json_object_iter_next (&iter, &name, &member))
    {
      if (json_object_has_member (expected, name))
        continue;
      {
        g_autofree char *value = show_value (member);

        g_string_append (differences, differences->len > 0 ? "; " : "");
        g_string_append_printf (differences,
                                _("field “%s” is in SKILL.md (%s) but not in the entry"),
                                name, value);
      }
    }

  if (differences->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&differences), FALSE);
}

gboolean
mcp_skill_verify_bytes (const char  *uri,
                        GBytes      *bytes,
                        const char  *digest,
                        gint64       size,
                        JsonObject  *frontmatter,
                        GError     **error)
{
  g_autoptr(GChecksum) checksum = NULL;
  g_autofree char *got_digest = NULL;
  g_autoptr(JsonObject) parsed = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *differences = NULL;
  gsize length;
  const guchar *data = g_bytes_get_data (bytes, &length);

  g_return_val_if_fail (uri != NULL, FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);
  g_return_val_if_fail (digest != NULL, FALSE);

  if ((gint64) length != size)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Verification failed (size) for %s: expected %lld bytes, "
                     "got %lu bytes; the content was not used"),
                   uri, (long long) size, (unsigned long) length);
      return FALSE;
    }

  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, data, length);
  got_digest = g_strconcat ("sha256:", g_checksum_get_string (checksum), NULL);
  if (strcmp (got_digest, digest) != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Verification failed (digest) for %s: expected %s, got %s; "
                     "the content was not used"),
                   uri, digest, got_digest);
      return FALSE;
    }

  if (frontmatter == NULL)
    return TRUE;

  parsed = mcp_skill_parse_frontmatter ((const char *) data, length, &local_error);
  if (parsed == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Verification failed (frontmatter) for %s: %s; the content was not used"),
                   uri, local_error->message);
      return FALSE;
    }
  differences = mcp_skill_compare_frontmatter (frontmatter, parsed);
  if (differences != NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("Verification failed (frontmatter) for %s: %s; the content was not used"),
                   uri, differences);
      return FALSE;
    }

  return TRUE;
}
