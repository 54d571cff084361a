/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-yaml-document-private.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* McpYamlDocument's edits. Each one splices the text, reads the whole of
 * it again (mcp-yaml-document-read.c) and keeps it only when it reads as
 * the old value with just that edit made; the new bytes are written by
 * mcp-yaml-document-write.c.
 *
 * Goose keeps its extensions in ~/.config/goose/config.yaml, a mapping
 * "extensions:" of NAME → {name, type (stdio, sse, streamable_http,
 * builtin, platform, frontend, inline_python), cmd, args, envs, env_keys,
 * uri, headers, enabled, timeout, description, bundled, display_name}
 * beside its own keys (GOOSE_PROVIDER, GOOSE_MODEL…), which must stay as
 * they are: https://block.github.io/goose/docs/getting-started/using-extensions
 * and https://block.github.io/goose/docs/guides/config-files; the fields
 * are ExtensionConfig's in block/goose crates/goose/src/agents/extension.rs.
 * Goose writes it with serde_yaml: two spaces a level, sequences in a
 * mapping not indented ("args:\n- x"); the layout of the text at hand is
 * followed instead when it says otherwise. */

struct _McpYamlDocument
{
  GString       *text;
  McpYamlNode   *tree;     /* NULL for an empty document */
  JsonNode      *root;
  McpYamlLayout  layout;
};

/* Where a path leads: the mapping at its first @depth names and, when it
 * has one, the member named path[@depth]. */
typedef struct
{
  guint        depth;
  McpYamlNode *mapping;
  McpYamlNode *key;
  McpYamlNode *value;
} Spot;

static gsize
line_start (McpYamlDocument *self,
            gsize            pos)
{
  gsize from = pos;

  while (pos > 0 && self->text->str[pos - 1] != '\n')
    pos--;
  /* the first line starts after a byte order mark */
  if (pos == 0 && from >= 3 && memcmp (self->text->str, "\xef\xbb\xbf", 3) == 0)
    pos = 3;
  return pos;
}

/* where the line holding @pos ends, before its line break */
static gsize
line_end (McpYamlDocument *self,
          gsize            pos)
{
  const char *nl = memchr (self->text->str + pos, '\n', self->text->len - pos);
  gsize end = nl != NULL ? (gsize) (nl - self->text->str) : self->text->len;

  if (end > pos && self->text->str[end - 1] == '\r')
    end--;
  return end;
}

static gsize
next_line (McpYamlDocument *self,
           gsize            pos)
{
  const char *nl = memchr (self->text->str + pos, '\n', self->text->len - pos);

  return nl != NULL ? (gsize) (nl - self->text->str) + 1 : self->text->len;
}

static gsize
column (McpYamlDocument *self,
        McpYamlNode     *node)
{
  return node->start - line_start (self, node->start);
}

static gboolean
only_spaces (const char *from,
             const char *to)
{
  for (; from < to; from++)
    if (*from != ' ')
      return FALSE;
  return TRUE;
}

static gboolean
is_comment_line (McpYamlDocument *self,
                 gsize            start)
{
  const char *p = self->text->str + start;

  while (*p == ' ' || *p == '\t')
    p++;
  return *p == '#';
}

static gboolean
is_block_collection (McpYamlNode *node)
{
  return (node->kind == MCP_YAML_MAPPING || node->kind == MCP_YAML_SEQUENCE) && !node->flow;
}

static gboolean
is_empty_plain (McpYamlNode *node)
{
  return node->kind == MCP_YAML_SCALAR && node->style == YAML_PLAIN_SCALAR_STYLE &&
         node->value[0] == '\0';
}

/* The layout of new members: what the text's first nested mapping and
 * sequence say. */
static void
detect_layout (McpYamlDocument *self,
               McpYamlNode     *node,
               gboolean        *unit_found,
               gboolean        *seq_found)
{
  if (node == NULL || node->kind != MCP_YAML_MAPPING || node->flow)
    return;

  for (guint i = 0; i + 1 < node->children->len && !(*unit_found && *seq_found); i += 2)
    {
      McpYamlNode *key = g_ptr_array_index (node->children, i);
      McpYamlNode *value = g_ptr_array_index (node->children, i + 1);
      gsize key_column = column (self, key);
      gsize value_column = column (self, value);

      if (!is_block_collection (value) || line_start (self, value->start) == line_start (self, key->start))
        continue;
      if (value->kind == MCP_YAML_MAPPING && !*unit_found && value_column > key_column &&
          value_column - key_column <= 8)
        {
          self->layout.unit = value_column - key_column;
          *unit_found = TRUE;
        }
      if (value->kind == MCP_YAML_SEQUENCE && !*seq_found)
        {
          self->layout.seq_indentless = value_column == key_column;
          *seq_found = TRUE;
        }
      detect_layout (self, value, unit_found, seq_found);
    }
}

static gboolean
load (McpYamlDocument  *self,
      const char       *text,
      gsize             length,
      GError          **error)
{
  McpYamlNode *tree = NULL;
  JsonNode *root = NULL;
  gboolean unit_found = FALSE, seq_found = FALSE;
  const char *nl;

  if (!mcp_yaml_read (text, length, &tree, &root, error))
    return FALSE;

  if (self->text == NULL)
    self->text = g_string_new_len (text, text != NULL ? length : 0);
  else if (self->text->str != text)
    {
      g_string_truncate (self->text, 0);
      g_string_append_len (self->text, text, length);
    }
  mcp_yaml_node_free (self->tree);
  self->tree = tree;
  g_clear_pointer (&self->root, json_node_unref);
  self->root = root;

  nl = memchr (self->text->str, '\n', self->text->len);
  self->layout.newline = nl != NULL && nl > self->text->str && nl[-1] == '\r' ? "\r\n" : "\n";
  self->layout.unit = 2;
  self->layout.seq_indentless = TRUE;
  detect_layout (self, self->tree, &unit_found, &seq_found);
  if (!seq_found)
    self->layout.seq_indentless = FALSE;

  return TRUE;
}

McpYamlDocument *
mcp_yaml_document_new (const char  *text,
                       gsize        length,
                       GError     **error)
{
  g_autoptr(McpYamlDocument) self = g_new0 (McpYamlDocument, 1);

  if (text == NULL)
    length = 0;
  if (!load (self, text != NULL ? text : "", length, error))
    return NULL;

  return g_steal_pointer (&self);
}

void
mcp_yaml_document_free (McpYamlDocument *self)
{
  if (self == NULL)
    return;

  if (self->text != NULL)
    g_string_free (self->text, TRUE);
  mcp_yaml_node_free (self->tree);
  g_clear_pointer (&self->root, json_node_unref);
  g_free (self);
}

const char *
mcp_yaml_document_get_text (McpYamlDocument *self,
                            gsize           *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (length != NULL)
    *length = self->text->len;
  return self->text->str;
}

JsonNode *
mcp_yaml_document_get_root (McpYamlDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->root;
}

JsonNode *
mcp_yaml_document_parse (const char  *text,
                         gsize        length,
                         GError     **error)
{
  JsonNode *root = NULL;

  if (!mcp_yaml_read (text, text != NULL ? length : 0, NULL, &root, error))
    return NULL;
  return root;
}

/* The edit refused, in words the settings code passes on. */
static gboolean
refuse (GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("The edit could not be made without breaking the file; nothing was changed"));
  return FALSE;
}

static gboolean
refuse_anchored (const char * const  *path,
                 guint                length,
                 GError             **error)
{
  g_autofree char *where = mcp_json_path_from_names (path, length);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("%s: an anchor or alias is there; not changing it"), where);
  return FALSE;
}

static gboolean
refuse_not_object (const char * const  *path,
                   guint                length,
                   GError             **error)
{
  g_autofree char *where = mcp_json_path_from_names (path, length);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s: expected an object; not changing it"), where);
  return FALSE;
}

/* Replaces bytes [@start, @end) with @with, and keeps the text only when
 * it reads as @expected. */
static gboolean
splice (McpYamlDocument  *self,
        gsize             start,
        gsize             end,
        const char       *with,
        JsonNode         *expected,
        GError          **error)
{
  g_autoptr(GString) text = g_string_new_len (self->text->str, start);
  g_autoptr(GError) local_error = NULL;
  McpYamlDocument next = { 0, };

  g_string_append (text, with);
  g_string_append_len (text, self->text->str + end, self->text->len - end);

  next.text = text;
  if (!load (&next, text->str, text->len, &local_error))
    {
      g_debug ("A YAML edit made the text invalid: %s", local_error->message);
      return refuse (error);
    }
  if (!mcp_json_equal (next.root, expected))
    {
      g_debug ("A YAML edit did not read back as intended");
      mcp_yaml_node_free (next.tree);
      json_node_unref (next.root);
      return refuse (error);
    }

  mcp_yaml_node_free (self->tree);
  json_node_unref (self->root);
  g_string_free (self->text, TRUE);
  self->text = g_steal_pointer (&text);
  self->tree = next.tree;
  self->root = next.root;
  self->layout = next.layout;
  return TRUE;
}

static Spot
walk (McpYamlDocument    *self,
      const char * const *path)
{
  Spot spot = { 0, self->tree, NULL, NULL };

  for (guint i = 0; ; i++)
    {
      McpYamlNode *mapping = spot.mapping;

      spot.depth = i;
      spot.key = spot.value = NULL;
      if (mapping == NULL || mapping->kind != MCP_YAML_MAPPING || mapping->flow ||
          mapping->anchor != NULL)
        return spot;

      for (guint j = 0; j + 1 < mapping->children->len; j += 2)
        {
          McpYamlNode *key = g_ptr_array_index (mapping->children, j);

          if (strcmp (key->value, path[i]) == 0)
            {
              spot.key = key;
              spot.value = g_ptr_array_index (mapping->children, j + 1);
            }
        }
      if (spot.key == NULL || path[i + 1] == NULL ||
          spot.value->kind != MCP_YAML_MAPPING)
        return spot;
      spot.mapping = spot.value;
    }
}

/* @value under the names path[@from…], as objects */
static JsonNode *
nest (const char * const *path,
      guint               from,
      JsonNode           *value)
{
  JsonNode *node = json_node_copy (value);

  for (guint i = g_strv_length ((char **) path); i > from + 1; i--)
    {
      JsonObject *object = json_object_new ();
      JsonNode *parent = json_node_new (JSON_NODE_OBJECT);

      json_object_set_member (object, path[i - 1], node);
      json_node_take_object (parent, object);
      node = parent;
    }

  return node;
}

/* What the root becomes: @value at @path (NULL: removed; @new_name:
 * renamed), in a copy. */
static JsonNode *
expect (JsonNode           *root,
        const char * const *path,
        JsonNode           *value,
        const char         *new_name)
{
  JsonNode *copy = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object;
  guint n = g_strv_length ((char **) path);

  /* deep: json_node_copy() would share the document's own objects */
  json_node_take_object (copy, mcp_server_config_copy_object (json_node_get_object (root)));
  object = json_node_get_object (copy);

  for (guint i = 0; i + 1 < n; i++)
    {
      JsonNode *child = json_object_get_member (object, path[i]);

      if (child == NULL || !JSON_NODE_HOLDS_OBJECT (child))
        {
          if (value == NULL)
            return copy;
          child = json_node_new (JSON_NODE_OBJECT);
          json_node_take_object (child, json_object_new ());
          json_object_set_member (object, path[i], child);
        }
      object = json_node_get_object (child);
    }

  if (new_name != NULL)
    {
      JsonNode *old = json_object_dup_member (object, path[n - 1]);

      json_object_remove_member (object, path[n - 1]);
      json_object_set_member (object, new_name, old);
    }
  else if (value == NULL)
    json_object_remove_member (object, path[n - 1]);
  else
    json_object_set_member (object, path[n - 1], json_node_copy (value));

  return copy;
}

/* A flow mapping on the path is written again whole, in flow style. */
static gboolean
edit_flow (McpYamlDocument     *self,
           const char * const  *path,
           Spot                *spot,
           JsonNode            *expected,
           GError             **error)
{
  JsonNode *now = self->root;
  g_autoptr(GString) out = g_string_new (NULL);
  JsonNode *expected_here = expected;

  if (spot->mapping->anchored || spot->mapping->kind != MCP_YAML_MAPPING)
    return refuse_anchored (path, spot->depth, error);

  for (guint i = 0; i < spot->depth; i++)
    {
      now = json_object_get_member (json_node_get_object (now), path[i]);
      expected_here = json_object_get_member (json_node_get_object (expected_here), path[i]);
    }
  (void) now;
  if (expected_here == NULL)
    return refuse (error);

  mcp_yaml_append_flow (out, expected_here);
  return splice (self, spot->mapping->start, spot->mapping->end, out->str, expected, error);
}

/* After "key:" of @key, or at its end when there is no colon right after
 * it (an explicit "? key"): 0. */
static gsize
after_colon (McpYamlDocument *self,
             McpYamlNode     *key)
{
  gsize pos = key->end;

  while (pos < self->text->len && (self->text->str[pos] == ' ' || self->text->str[pos] == '\t'))
    pos++;
  return pos < self->text->len && self->text->str[pos] == ':' ? pos + 1 : 0;
}

/* Writes @json as the value of the member @key → @value. */
static gboolean
replace_value (McpYamlDocument  *self,
               McpYamlNode      *key,
               McpYamlNode      *value,
               JsonNode         *json,
               JsonNode         *expected,
               GError          **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  McpYamlLayout layout = self->layout;
  gsize colon = after_colon (self, key);
  gsize key_column = column (self, key);
  gsize start = colon, end = value->end;

  if (colon == 0)
    return refuse (error);

  /* keep the indentation of what is replaced */
  if (is_block_collection (value) && line_start (self, value->start) != line_start (self, key->start))
    {
      gsize value_column = column (self, value);

      if (value->kind == MCP_YAML_MAPPING && value_column > key_column)
        layout.unit = value_column - key_column;
      else if (value->kind == MCP_YAML_SEQUENCE)
        {
          layout.seq_indentless = value_column == key_column;
          if (value_column > key_column)
            layout.unit = value_column - key_column;
        }
    }
  mcp_yaml_append_block (out, json, key_column, &layout);

  if (is_empty_plain (value))
    end = colon;
  else if (is_block_collection (value) && g_str_has_prefix (out->str, layout.newline) &&
           line_start (self, value->start) != line_start (self, key->start))
    {
      /* comments between the key and its lines stay */
      start = line_start (self, value->start);
      g_string_erase (out, 0, strlen (layout.newline));
    }
  if (end < start)
    return refuse (error);

  return splice (self, start, end, out->str, expected, error);
}

/* Adds the member @name → @json at the end of the block mapping
 * @mapping (NULL: the empty document). */
static gboolean
add_member (McpYamlDocument  *self,
            McpYamlNode      *mapping,
            const char       *name,
            JsonNode         *json,
            JsonNode         *expected,
            GError          **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gsize indent = 0, at;

  if (mapping == NULL)
    {
      at = self->text->len;
      if (at > 0 && self->text->str[at - 1] != '\n')
        g_string_append (out, self->layout.newline);
    }
  else
    {
      indent = column (self, g_ptr_array_index (mapping->children, 0));
      at = line_end (self, mapping->end);
      g_string_append (out, self->layout.newline);
      for (gsize i = 0; i < indent; i++)
        g_string_append_c (out, ' ');
    }

  mcp_yaml_append_string (out, name, FALSE);
  g_string_append_c (out, ':');
  mcp_yaml_append_block (out, json, indent, &self->layout);
  if (mapping == NULL)
    g_string_append (out, self->layout.newline);

  return splice (self, at, at, out->str, expected, error);
}

static JsonNode *
lookup (JsonNode           *root,
        const char * const *path,
        guint               length)
{
  JsonNode *node = root;

  for (guint i = 0; i < length && node != NULL; i++)
    node = JSON_NODE_HOLDS_OBJECT (node) ? json_object_get_member (json_node_get_object (node), path[i])
                                         : NULL;
  return node;
}

gboolean
mcp_yaml_document_set (McpYamlDocument     *self,
                       const char * const  *path,
                       JsonNode            *value,
                       GError             **error)
{
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(JsonNode) nested = NULL;
  Spot spot;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  n = g_strv_length ((char **) path);
  spot = walk (self, path);

  if (spot.mapping != NULL && spot.mapping->anchor != NULL)
    return refuse_anchored (path, spot.depth, error);
  if (spot.key != NULL && (spot.key->anchor != NULL || spot.value->anchored))
    return refuse_anchored (path, spot.depth + 1, error);
  /* on the way, a null becomes a mapping; anything else stays */
  if (spot.key != NULL && spot.depth + 1 < n &&
      !JSON_NODE_HOLDS_NULL (lookup (self->root, path, spot.depth + 1)))
    return refuse_not_object (path, spot.depth + 1, error);

  expected = expect (self->root, path, value, NULL);
  if (spot.mapping != NULL && spot.mapping->flow)
    return edit_flow (self, path, &spot, expected, error);

  nested = nest (path, spot.depth, value);
  if (spot.key == NULL)
    return add_member (self, spot.mapping, path[spot.depth], nested, expected, error);

  return replace_value (self, spot.key, spot.value, nested, expected, error);
}

/* The lines of the member @key → @value, and the comment lines right
 * above it. */
static gboolean
remove_lines (McpYamlDocument  *self,
              McpYamlNode      *key,
              McpYamlNode      *value,
              JsonNode         *expected,
              GError          **error)
{
  gsize start = line_start (self, key->start);
  gsize end = is_empty_plain (value) ? after_colon (self, key) : value->end;

  if (!only_spaces (self->text->str + start, self->text->str + key->start) || end == 0)
    return refuse (error);
  while (start > 0 && is_comment_line (self, line_start (self, start - 1)))
    start = line_start (self, start - 1);
  end = next_line (self, line_end (self, MAX (end, key->end)));

  return splice (self, start, end, "", expected, error);
}

gboolean
mcp_yaml_document_remove (McpYamlDocument     *self,
                          const char * const  *path,
                          GError             **error)
{
  g_autoptr(JsonNode) expected = NULL;
  Spot spot;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);

  n = g_strv_length ((char **) path);
  if (lookup (self->root, path, n) == NULL)
    return TRUE;

  spot = walk (self, path);
  expected = expect (self->root, path, NULL, NULL);
  if (spot.mapping != NULL && spot.mapping->anchor != NULL)
    return refuse_anchored (path, spot.depth, error);
  if (spot.mapping != NULL && spot.mapping->flow)
    return edit_flow (self, path, &spot, expected, error);
  /* only merged in by "<<", or under an alias */
  if (spot.key == NULL || spot.depth + 1 < n)
    return refuse_anchored (path, n, error);
  if (spot.key->anchor != NULL || spot.value->anchored)
    return refuse_anchored (path, n, error);

  /* a mapping's last member: "key: {}", as a block mapping cannot be empty */
  if (spot.mapping->children->len == 2 && spot.mapping != self->tree)
    {
      McpYamlNode *parent = spot.mapping->parent;
      g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (empty, json_object_new ());
      for (guint j = 1; parent != NULL && j < parent->children->len; j += 2)
        if (g_ptr_array_index (parent->children, j) == spot.mapping)
          return replace_value (self, g_ptr_array_index (parent->children, j - 1),
                                spot.mapping, empty, expected, error);
      return refuse (error);
    }

  return remove_lines (self, spot.key, spot.value, expected, error);
}

gboolean
mcp_yaml_document_rename (McpYamlDocument     *self,
                          const char * const  *path,
                          const char          *new_name,
                          GError             **error)
{
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  JsonNode *parent;
  Spot spot;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (new_name != NULL, FALSE);

  n = g_strv_length ((char **) path);
  if (lookup (self->root, path, n) == NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (path, n);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("%s: there is nothing to rename"), where);
      return FALSE;
    }
  if (strcmp (path[n - 1], new_name) == 0)
    return TRUE;
  parent = lookup (self->root, path, n - 1);
  if (json_object_has_member (json_node_get_object (parent), new_name))
    {
      g_auto(GStrv) taken = g_strdupv ((char **) path);
      g_autofree char *where = NULL;

      g_free (taken[n - 1]);
      taken[n - 1] = g_strdup (new_name);
      where = mcp_json_path_from_names ((const char * const *) taken, n);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("%s: there is one already; not renaming"), where);
      return FALSE;
    }

  spot = walk (self, path);
  expected = expect (self->root, path, NULL, new_name);
  if (spot.mapping != NULL && spot.mapping->anchor != NULL)
    return refuse_anchored (path, spot.depth, error);
  if (spot.mapping != NULL && spot.mapping->flow)
    return edit_flow (self, path, &spot, expected, error);
  if (spot.key == NULL || spot.depth + 1 < n || spot.key->anchor != NULL)
    return refuse_anchored (path, n, error);

  mcp_yaml_append_string (out, new_name, FALSE);
  return splice (self, spot.key->start, spot.key->end, out->str, expected, error);
}

static char **
path_append (const char * const *path,
             const char         *name)
{
  guint n = g_strv_length ((char **) path);
  char **result = g_new0 (char *, n + 2);

  for (guint i = 0; i < n; i++)
    result[i] = g_strdup (path[i]);
  result[n] = g_strdup (name);
  return result;
}

static gboolean
update (McpYamlDocument     *self,
        const char * const  *path,
        JsonNode            *value,
        GError             **error)
{
  JsonNode *old = lookup (self->root, path, g_strv_length ((char **) path));
  g_autoptr(GList) members = NULL;
  g_autoptr(GList) old_members = NULL;
  g_autoptr(JsonNode) old_copy = NULL;
  Spot spot;

  if (mcp_json_equal (old, value))
    return TRUE;
  spot = walk (self, path);
  if (old == NULL || !JSON_NODE_HOLDS_OBJECT (old) || !JSON_NODE_HOLDS_OBJECT (value) ||
      spot.key == NULL || spot.value->kind != MCP_YAML_MAPPING || spot.value->flow ||
      spot.value->anchor != NULL)
    return mcp_yaml_document_set (self, path, value, error);

  /* each step reads the text again, and the old value with it */
  old_copy = json_node_copy (old);
  members = json_object_get_members (json_node_get_object (value));
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_auto(GStrv) inner = path_append (path, l->data);

      if (!update (self, (const char * const *) inner,
                   json_object_get_member (json_node_get_object (value), l->data), error))
        return FALSE;
    }
  old_members = json_object_get_members (json_node_get_object (old_copy));
  for (GList *l = old_members; l != NULL; l = l->next)
    {
      g_auto(GStrv) inner = path_append (path, l->data);

      if (!json_object_has_member (json_node_get_object (value), l->data) &&
          !mcp_yaml_document_remove (self, (const char * const *) inner, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
mcp_yaml_document_update (McpYamlDocument     *self,
                          const char * const  *path,
                          JsonNode            *value,
                          GError             **error)
{
  g_autoptr(GString) saved = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  saved = g_string_new_len (self->text->str, self->text->len);
  if (update (self, path, value, error))
    return TRUE;

  /* all or nothing: the steps made before the one refused are undone */
  if (!load (self, saved->str, saved->len, NULL))
    g_return_val_if_reached (FALSE);
  return FALSE;
}
