/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-toml-document-private.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* McpTomlDocument: the text, its JSON value and its index (read in
 * mcp-toml-document-parse.c), and the edits, each a set of splices of the
 * text checked by reading it again.
 *
 * What an edit writes follows Codex's own files (the "MCP servers"
 * section of https://github.com/openai/codex/blob/main/docs/config.md):
 * a server is a [mcp_servers.NAME] table with command, args, env, cwd,
 * startup_timeout_sec, tool_timeout_sec, enabled, url,
 * bearer_token_env_var, http_headers, env_http_headers, enabled_tools and
 * disabled_tools. A new one goes after the last [mcp_servers.…] table;
 * its members that are objects (env, http_headers) become
 * [mcp_servers.NAME.env] tables of their own, unless the other servers of
 * the file write that member inline (env = { … }), as the person then
 * does; objects deeper down and in arrays are inline tables. */

struct _McpTomlDocument
{
  GString   *text;
  JsonNode  *root;
  TomlIndex *index;
};

typedef struct
{
  gsize  start;
  gsize  end;
  char  *text;
} Splice;

static void
splice_clear (Splice *splice)
{
  g_free (splice->text);
}

static GArray *
splices_new (void)
{
  GArray *splices = g_array_new (FALSE, TRUE, sizeof (Splice));

  g_array_set_clear_func (splices, (GDestroyNotify) splice_clear);
  return splices;
}

static void
splices_add (GArray *splices,
             gsize   start,
             gsize   end,
             char   *text)
{
  Splice splice = { start, end, text };

  g_array_append_val (splices, splice);
}

static int
compare_splices (gconstpointer a,
                 gconstpointer b)
{
  const Splice *x = a;
  const Splice *y = b;

  return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

/* Reads @text; on success it becomes the document's. */
static gboolean
load (McpTomlDocument  *self,
      GString          *text,
      GError          **error)
{
  JsonNode *root = NULL;
  TomlIndex *index = mcp_toml_index_parse (text->str, text->len, &root, error);

  if (index == NULL)
    return FALSE;

  g_clear_pointer (&self->index, mcp_toml_index_free);
  g_clear_pointer (&self->root, json_node_unref);
  if (self->text != text)
    {
      if (self->text != NULL)
        g_string_free (self->text, TRUE);
      self->text = text;
    }
  self->root = root;
  self->index = index;

  return TRUE;
}

/* Applies the splices (none overlap) and reads the text again; on
 * failure the document is as it was. */
static gboolean
apply_splices (McpTomlDocument  *self,
               GArray           *splices,
               GError          **error)
{
  GString *text = g_string_sized_new (self->text->len + 64);
  g_autoptr(GError) local_error = NULL;
  gsize at = 0;

  g_array_sort (splices, compare_splices);
  for (guint i = 0; i < splices->len; i++)
    {
      Splice *splice = &g_array_index (splices, Splice, i);

      g_assert (splice->start >= at && splice->end >= splice->start);
      g_string_append_len (text, self->text->str + at, splice->start - at);
      if (splice->text != NULL)
        g_string_append (text, splice->text);
      at = splice->end;
    }
  g_string_append_len (text, self->text->str + at, self->text->len - at);

  if (load (self, text, &local_error))
    return TRUE;

  g_critical ("An edit made the TOML text invalid (%s); it was undone", local_error->message);
  g_string_free (text, TRUE);
  g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
               _("The edit could not be made without breaking the file; nothing was changed"));
  return FALSE;
}

static const char *
newline (McpTomlDocument *self)
{
  return self->index->crlf ? "\r\n" : "\n";
}

/* Where things are */

static TomlTable *
table_of (McpTomlDocument *self,
          JsonNode        *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return mcp_toml_index_get_table (self->index, json_node_get_object (node));
}

/* The table at the first @length names of @path, or NULL with an error
 * where a name on the way is not a table; *@missing is the index of the
 * first name that is not there (or @length). */
static TomlTable *
walk (McpTomlDocument     *self,
      const char * const  *path,
      guint                length,
      guint               *missing,
      GError             **error)
{
  TomlTable *table = self->index->root;

  for (guint i = 0; i < length; i++)
    {
      JsonNode *member = json_object_get_member (table->object, path[i]);

      if (member == NULL)
        {
          *missing = i;
          return table;
        }
      table = table_of (self, member);
      if (table == NULL)
        {
          g_autofree char *where = mcp_json_path_from_names (path, i + 1);

          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("%s: expected an object; not changing it"), where);
          return NULL;
        }
    }

  *missing = length;
  return table;
}

/* The index of @key's segment that names @name in @table, or -1 */
static int
find_segment (TomlKey    *key,
              JsonObject *table,
              const char *name)
{
  for (guint i = 0; i < key->n_segments; i++)
    {
      if (key->segments[i].table == table && strcmp (key->segments[i].name, name) == 0)
        return (int) i;
    }

  return -1;
}

/* The names from the root to @table */
static GPtrArray *
table_path (TomlTable *table)
{
  GPtrArray *names = g_ptr_array_new ();

  for (; table->parent != NULL; table = table->parent)
    g_ptr_array_insert (names, 0, table->name);

  return names;
}

/* The blanks that start the line @p is on */
static char *
indent_at (McpTomlDocument *self,
           gsize            p)
{
  const char *s = self->text->str;
  gsize start = p;
  gsize end;

  while (start > 0 && s[start - 1] != '\n')
    start--;
  end = start;
  while (end < self->text->len && (s[end] == ' ' || s[end] == '\t'))
    end++;

  return g_strndup (s + start, end - start);
}

/* Whether the text before @p ends with an empty line (or is empty) */
static gboolean
after_blank_line (McpTomlDocument *self,
                  gsize            p)
{
  const char *s = self->text->str;
  gsize q = p;

  if (q <= self->index->content_start)
    return TRUE;
  if (s[q - 1] != '\n')
    return FALSE;
  q--;
  if (q > 0 && s[q - 1] == '\r')
    q--;
  while (q > self->index->content_start && (s[q - 1] == ' ' || s[q - 1] == '\t'))
    q--;

  return q <= self->index->content_start || s[q - 1] == '\n';
}

/* What is removed */

/* @p moved back over the blank lines before it */
static gsize
start_of_blank_lines (McpTomlDocument *self,
                      gsize            p)
{
  const char *s = self->text->str;

  while (p > self->index->content_start && after_blank_line (self, p))
    {
      gsize q = p - 1;

      while (q > self->index->content_start && s[q - 1] != '\n')
        q--;
      p = q;
    }

  return p;
}

/* Splices that remove every key and [header] through @name of @parent:
 * the member and all that is under it. */
static void
add_removals (McpTomlDocument *self,
              GArray          *splices,
              TomlTable       *parent,
              const char      *name,
              TomlKey         *keep_header)
{
  g_autoptr(GHashTable) inline_tables = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) gone = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer table_pointer;

  for (guint i = 0; i < self->index->keys->len; i++)
    {
      TomlKey *key = self->index->keys->pdata[i];

      if (find_segment (key, parent->object, name) < 0)
        continue;

      switch (key->kind)
        {
        case TOML_KEY_HEADER:
        case TOML_KEY_ARRAY_HEADER:
          if (key != keep_header)
            splices_add (splices, key->comments, key->block_end, NULL);
          break;
        case TOML_KEY_LINE:
          splices_add (splices, key->start, key->end, NULL);
          break;
        case TOML_KEY_INLINE:
          g_hash_table_add (inline_tables, key->table);
          g_hash_table_add (gone, key);
          break;
        }
    }

  /* In { a = 1, b = 2, c = 3 }, a member before one that stays goes with
   * the comma after it; the last ones with the comma before them. */
  g_hash_table_iter_init (&iter, inline_tables);
  while (g_hash_table_iter_next (&iter, &table_pointer, NULL))
    {
      TomlTable *table = table_pointer;
      GPtrArray *members = table->members;
      guint tail = members->len;

      while (tail > 0 && g_hash_table_contains (gone, members->pdata[tail - 1]))
        tail--;
      if (tail == 0)
        {
          splices_add (splices, table->open + 1, table->close, NULL);
          continue;
        }
      for (guint k = 0; k < members->len; k++)
        {
          TomlKey *member = members->pdata[k];

          if (!g_hash_table_contains (gone, member))
            continue;
          if (k < tail)
            splices_add (splices, member->start, ((TomlKey *) members->pdata[k + 1])->start, NULL);
          else
            splices_add (splices, ((TomlKey *) members->pdata[k - 1])->value_end, member->value_end, NULL);
        }
    }

  /* (a key on a line inside a removed block goes with it) */
  g_array_sort (splices, compare_splices);
  for (guint i = 1; i < splices->len; )
    {
      Splice *before = &g_array_index (splices, Splice, i - 1);
      Splice *splice = &g_array_index (splices, Splice, i);

      if (splice->start <= before->end)
        {
          before->end = MAX (before->end, splice->end);
          g_array_remove_index (splices, i);
        }
      else
        {
          i++;
        }
    }

  /* what is removed at the end takes the blank lines before it along */
  if (splices->len > 0)
    {
      Splice *last = &g_array_index (splices, Splice, splices->len - 1);

      if (last->end == self->text->len && last->text == NULL)
        last->start = start_of_blank_lines (self, last->start);
    }
}

/* What is added */

/* Whether the other tables of @parent write their member @name inline */
static gboolean
siblings_inline (McpTomlDocument *self,
                 TomlTable       *parent,
                 const char      *name)
{
  JsonObjectIter iter;
  const char *sibling_name;
  JsonNode *sibling;
  int votes = 0;

  if (parent == NULL)
    return FALSE;

  json_object_iter_init (&iter, parent->object);
  while (json_object_iter_next (&iter, &sibling_name, &sibling))
    {
      TomlTable *table = table_of (self, sibling);
      TomlTable *member;

      if (table == NULL)
        continue;
      member = table_of (self, json_object_get_member (table->object, name));
      if (member != NULL)
        votes += member->kind == TOML_TABLE_INLINE ? 1 : -1;
    }

  return votes > 0;
}

static void
append_header_key (GString    *out,
                   GPtrArray  *path)
{
  for (guint i = 0; i < path->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '.');
      mcp_toml_append_key (out, path->pdata[i]);
    }
}

/* [path] and its keys, then a [path.member] table for each member that
 * is a table; a table with only tables in it has no header of its own.
 * @siblings (or NULL) is the table whose other members say whether an
 * object member is written inline. */
static gboolean
append_table (McpTomlDocument  *self,
              GString          *out,
              GPtrArray        *path,
              JsonObject       *object,
              TomlTable        *siblings,
              GError          **error)
{
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GPtrArray) tables = g_ptr_array_new ();
  g_autofree char *where = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  g_ptr_array_add (path, NULL);
  where = mcp_json_path_from_names ((const char * const *) path->pdata, path->len - 1);
  g_ptr_array_remove_index (path, path->len - 1);

  if (path->len > MCP_TOML_MAX_DEPTH)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: nested too deeply; not writing it"), where);
      return FALSE;
    }

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (JSON_NODE_HOLDS_OBJECT (member) && json_object_get_size (json_node_get_object (member)) > 0 &&
          !siblings_inline (self, siblings, name))
        {
          g_ptr_array_add (tables, (gpointer) name);
        }
      else
        {
          g_autofree char *inner = mcp_json_path_append_member (where, name);

          mcp_toml_append_key (lines, name);
          g_string_append (lines, " = ");
          if (!mcp_toml_append_value (lines, member, inner, error))
            return FALSE;
          g_string_append (lines, newline (self));
        }
    }

  if (lines->len > 0 || tables->len == 0)
    {
      g_string_append_c (out, '[');
      append_header_key (out, path);
      g_string_append (out, "]");
      g_string_append (out, newline (self));
      g_string_append_len (out, lines->str, lines->len);
    }

  for (guint i = 0; i < tables->len; i++)
    {
      if (out->len > 0)
        g_string_append (out, newline (self));
      g_ptr_array_add (path, tables->pdata[i]);
      if (!append_table (self, out, path,
                         json_object_get_object_member (object, tables->pdata[i]), NULL, error))
        return FALSE;
      g_ptr_array_remove_index (path, path->len - 1);
    }

  return TRUE;
}

/* Where a new table under @parent goes: after the last [header] block
 * of @parent or of a table under it; the end of the text when none */
static gsize
table_insert_point (McpTomlDocument *self,
                    TomlTable       *parent)
{
  gsize point = self->text->len;

  for (guint i = 0; i < self->index->keys->len; i++)
    {
      TomlKey *key = self->index->keys->pdata[i];

      if (key->kind != TOML_KEY_HEADER && key->kind != TOML_KEY_ARRAY_HEADER)
        continue;
      if (key->table == parent)
        {
          point = key->block_end;
          continue;
        }
      for (guint k = 0; k < key->n_segments; k++)
        {
          if (key->segments[k].table == parent->object)
            {
              point = key->block_end;
              break;
            }
        }
    }

  return point;
}

/* Adds @block (lines of [header] tables) at @point, apart from what is
 * before and after it by an empty line */
static void
add_block (McpTomlDocument *self,
           GArray          *splices,
           gsize            point,
           const char      *block)
{
  GString *text = g_string_new (NULL);

  if (point > self->index->content_start)
    {
      if (self->text->str[point - 1] != '\n')
        g_string_append (text, newline (self));
      if (!after_blank_line (self, point) || self->text->str[point - 1] != '\n')
        g_string_append (text, newline (self));
    }
  g_string_append (text, block);
  if (point < self->text->len)
    g_string_append (text, newline (self));

  splices_add (splices, point, point, g_string_free (text, FALSE));
}

/* Adds "key = value" (@line, without its newline) at the end of the keys
 * of @body's own lines (the root, a [header] or [[element]] table) */
static void
add_line (McpTomlDocument *self,
          GArray          *splices,
          TomlTable       *body,
          const char      *line)
{
  GString *text = g_string_new (NULL);
  g_autofree char *indent = NULL;
  gsize point;

  if (body->last_line != NULL)
    {
      point = body->last_line->end;
      indent = indent_at (self, body->last_line->start);
    }
  else if (body->header != NULL)
    {
      point = body->header->end;
    }
  else
    {
      point = self->index->root_end;
    }

  if (point > self->index->content_start && self->text->str[point - 1] != '\n')
    g_string_append (text, newline (self));
  if (indent != NULL)
    g_string_append (text, indent);
  g_string_append (text, line);
  g_string_append (text, newline (self));
  /* the root's first key, before the tables */
  if (body->kind == TOML_TABLE_ROOT && body->last_line == NULL && point < self->text->len)
    g_string_append (text, newline (self));

  splices_add (splices, point, point, g_string_free (text, FALSE));
}

/* Adds "key = value" (@member) at the end of the inline table @table */
static void
add_inline_member (GArray     *splices,
                   TomlTable  *table,
                   const char *member)
{
  if (table->members->len == 0)
    {
      splices_add (splices, table->open + 1, table->close, g_strdup_printf (" %s ", member));
    }
  else
    {
      TomlKey *last = table->members->pdata[table->members->len - 1];

      splices_add (splices, last->value_end, last->value_end, g_strdup_printf (", %s", member));
    }
}

/* The dotted key of @names (@first of @length) for a key of @table's
 * owner: the names from the owner to @table first */
static char *
dotted_key (TomlTable          *table,
            const char * const *names,
            guint               first,
            guint               length,
            TomlTable         **body)
{
  g_autoptr(GPtrArray) prefix = g_ptr_array_new ();
  GString *key = g_string_new (NULL);

  while (table->kind == TOML_TABLE_DOTTED)
    {
      g_ptr_array_insert (prefix, 0, table->name);
      table = table->owner;
    }
  *body = table;

  for (guint i = 0; i < prefix->len; i++)
    {
      mcp_toml_append_key (key, prefix->pdata[i]);
      g_string_append_c (key, '.');
    }
  for (guint i = first; i < length; i++)
    {
      if (i > first)
        g_string_append_c (key, '.');
      mcp_toml_append_key (key, names[i]);
    }

  return g_string_free (key, FALSE);
}

/* Splices that add @path[@first…] with @value under @table, where
 * @path[@first] is not */
static gboolean
add_member (McpTomlDocument     *self,
            GArray              *splices,
            TomlTable           *table,
            const char * const  *path,
            guint                first,
            JsonNode            *value,
            GError             **error)
{
  guint length = g_strv_length ((char **) path);
  g_autofree char *where = mcp_json_path_from_names (path, length);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *key = NULL;
  TomlTable *body;

  if (JSON_NODE_HOLDS_OBJECT (value) && table->kind != TOML_TABLE_DOTTED &&
      table->kind != TOML_TABLE_INLINE)
    {
      g_autoptr(GString) block = g_string_new (NULL);
      g_autoptr(GPtrArray) names = table_path (table);

      for (guint i = first; i < length; i++)
        g_ptr_array_add (names, (gpointer) path[i]);
      if (!append_table (self, block, names, json_node_get_object (value),
                         first == length - 1 ? table : NULL, error))
        return FALSE;
      add_block (self, splices, table_insert_point (self, table), block->str);
      return TRUE;
    }

  key = dotted_key (table, path, first, length, &body);
  g_string_append_printf (line, "%s = ", key);
  if (!mcp_toml_append_value (line, value, where, error))
    return FALSE;

  if (body->kind == TOML_TABLE_INLINE)
    {
      add_inline_member (splices, body, line->str);
    }
  else if (body->kind == TOML_TABLE_IMPLICIT)
    {
      /* a scalar in a table that only [a.b] headers made: its own [a] */
      g_autoptr(GPtrArray) names = table_path (body);
      g_autoptr(GString) block = g_string_new ("[");
      gsize point = self->text->len;

      append_header_key (block, names);
      g_string_append_printf (block, "]%s%s%s", newline (self), line->str, newline (self));
      for (guint i = 0; i < self->index->keys->len; i++)
        {
          TomlKey *header = self->index->keys->pdata[i];

          if ((header->kind == TOML_KEY_HEADER || header->kind == TOML_KEY_ARRAY_HEADER) &&
              names->len < header->n_segments && header->segments[names->len].table == body->object)
            {
              point = header->comments;
              break;
            }
        }
      add_block (self, splices, point, block->str);
    }
  else
    {
      add_line (self, splices, body, line->str);
    }

  return TRUE;
}

/* The key = value (on a line or in braces) that holds @name of @parent
 * itself, not through a dotted key or a header */
static TomlKey *
find_value_key (McpTomlDocument *self,
                TomlTable       *parent,
                const char      *name)
{
  for (guint i = 0; i < self->index->keys->len; i++)
    {
      TomlKey *key = self->index->keys->pdata[i];
      TomlSegment *last = &key->segments[key->n_segments - 1];

      if ((key->kind == TOML_KEY_LINE || key->kind == TOML_KEY_INLINE) &&
          last->table == parent->object && strcmp (last->name, name) == 0)
        return key;
    }

  return NULL;
}

/* Whether @path holds @value after an edit; undone else */
static gboolean
check_result (McpTomlDocument     *self,
              GString             *saved,
              const char * const  *path,
              JsonNode            *value,
              GError             **error)
{
  JsonNode *node = self->root;

  for (guint i = 0; path[i] != NULL && node != NULL; i++)
    node = JSON_NODE_HOLDS_OBJECT (node) ? json_object_get_member (json_node_get_object (node), path[i]) : NULL;
  if (mcp_json_equal (node, value))
    return TRUE;

  g_critical ("A TOML edit did not put the value it was asked to; it was undone");
  if (!load (self, g_string_new_len (saved->str, saved->len), NULL))
    g_assert_not_reached ();
  g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
               _("The edit could not be made without breaking the file; nothing was changed"));
  return FALSE;
}

static gboolean
remove_member (McpTomlDocument     *self,
               const char * const  *path,
               GError             **error)
{
  g_autoptr(GArray) splices = splices_new ();
  guint length = g_strv_length ((char **) path);
  guint missing;
  TomlTable *parent = walk (self, path, length - 1, &missing, error);

  if (parent == NULL)
    return FALSE;
  if (missing < length - 1 || !json_object_has_member (parent->object, path[length - 1]))
    return TRUE;

  add_removals (self, splices, parent, path[length - 1], NULL);
  return apply_splices (self, splices, error);
}

static gboolean
set_member (McpTomlDocument     *self,
            const char * const  *path,
            JsonNode            *value,
            GError             **error)
{
  g_autoptr(GArray) splices = splices_new ();
  guint length = g_strv_length ((char **) path);
  const char *name = path[length - 1];
  guint missing;
  TomlTable *parent = walk (self, path, length - 1, &missing, error);
  TomlTable *old_table;
  TomlKey *key;

  if (parent == NULL)
    return FALSE;
  if (missing < length - 1 || !json_object_has_member (parent->object, name))
    {
      if (!add_member (self, splices, parent, path, missing < length - 1 ? missing : length - 1,
                       value, error))
        return FALSE;
      return apply_splices (self, splices, error);
    }

  key = find_value_key (self, parent, name);
  if (key != NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (path, length);
      GString *text = g_string_new (NULL);

      if (!mcp_toml_append_value (text, value, where, error))
        {
          g_string_free (text, TRUE);
          return FALSE;
        }
      splices_add (splices, key->value_start, key->value_end, g_string_free (text, FALSE));
      return apply_splices (self, splices, error);
    }

  /* a [path] table made anew where it was, its comments kept */
  old_table = table_of (self, json_object_get_member (parent->object, name));
  if (old_table != NULL && old_table->kind == TOML_TABLE_HEADER && JSON_NODE_HOLDS_OBJECT (value) &&
      old_table->header->n_segments == length)
    {
      g_autoptr(GString) block = g_string_new (NULL);
      g_autoptr(GPtrArray) names = table_path (old_table);
      TomlKey *header = old_table->header;

      if (!append_table (self, block, names, json_node_get_object (value), parent, error))
        return FALSE;
      if (header->block_end < self->text->len && after_blank_line (self, header->block_end))
        g_string_append (block, newline (self));
      add_removals (self, splices, parent, name, header);
      splices_add (splices, header->start, header->block_end, g_string_free (g_steal_pointer (&block), FALSE));
      return apply_splices (self, splices, error);
    }

  /* anything else: removed, then added as new */
  add_removals (self, splices, parent, name, NULL);
  if (!apply_splices (self, splices, error))
    return FALSE;
  g_array_set_size (splices, 0);
  parent = walk (self, path, length - 1, &missing, error);
  if (parent == NULL || !add_member (self, splices, parent, path, missing < length - 1 ? missing : length - 1,
                                     value, error))
    return FALSE;
  return apply_splices (self, splices, error);
}

/* The public calls */

McpTomlDocument *
mcp_toml_document_new (const char  *text,
                       gsize        length,
                       GError     **error)
{
  g_autoptr(McpTomlDocument) self = g_new0 (McpTomlDocument, 1);
  GString *string = g_string_new_len (text != NULL ? text : "", text != NULL ? (gssize) length : 0);

  if (!load (self, string, error))
    {
      g_string_free (string, TRUE);
      return NULL;
    }

  return g_steal_pointer (&self);
}

void
mcp_toml_document_free (McpTomlDocument *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->index, mcp_toml_index_free);
  g_clear_pointer (&self->root, json_node_unref);
  if (self->text != NULL)
    g_string_free (self->text, TRUE);
  g_free (self);
}

const char *
mcp_toml_document_get_text (McpTomlDocument *self,
                            gsize           *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (length != NULL)
    *length = self->text->len;
  return self->text->str;
}

JsonNode *
mcp_toml_document_get_root (McpTomlDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->root;
}

gboolean
mcp_toml_document_set (McpTomlDocument     *self,
                       const char * const  *path,
                       JsonNode            *value,
                       GError             **error)
{
  g_autoptr(GString) saved = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  saved = g_string_new_len (self->text->str, self->text->len);
  if (!set_member (self, path, value, error))
    {
      /* (a set made of two edits may have made the first) */
      if (self->text->len != saved->len || memcmp (self->text->str, saved->str, saved->len) != 0)
        {
          if (!load (self, g_string_new_len (saved->str, saved->len), NULL))
            g_assert_not_reached ();
        }
      return FALSE;
    }

  return check_result (self, saved, path, value, error);
}

static char **
path_append (const char * const *path,
             const char         *name)
{
  guint length = g_strv_length ((char **) path);
  char **result = g_new0 (char *, length + 2);

  for (guint i = 0; i < length; i++)
    result[i] = g_strdup (path[i]);
  result[length] = g_strdup (name);

  return result;
}

gboolean
mcp_toml_document_update (McpTomlDocument     *self,
                          const char * const  *path,
                          JsonNode            *value,
                          GError             **error)
{
  g_autoptr(GPtrArray) gone = NULL;
  g_autoptr(GString) saved = NULL;
  JsonNode *old = self->root;
  JsonObject *object;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  for (guint i = 0; path[i] != NULL && old != NULL; i++)
    old = JSON_NODE_HOLDS_OBJECT (old) ? json_object_get_member (json_node_get_object (old), path[i]) : NULL;
  if (mcp_json_equal (old, value))
    return TRUE;
  if (old == NULL || !JSON_NODE_HOLDS_OBJECT (old) || !JSON_NODE_HOLDS_OBJECT (value) ||
      table_of (self, old) == NULL)
    return mcp_toml_document_set (self, path, value, error);

  /* (the document's tree changes with each edit: names first) */
  saved = g_string_new_len (self->text->str, self->text->len);
  object = json_node_get_object (value);
  gone = g_ptr_array_new_with_free_func (g_free);
  json_object_iter_init_ordered (&iter, json_node_get_object (old));
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (!json_object_has_member (object, name))
        g_ptr_array_add (gone, g_strdup (name));
    }

  for (guint i = 0; i < gone->len; i++)
    {
      g_auto(GStrv) inner = path_append (path, gone->pdata[i]);

      if (!mcp_toml_document_remove (self, (const char * const *) inner, error))
        goto failed;
    }

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      g_auto(GStrv) inner = path_append (path, name);

      if (!mcp_toml_document_update (self, (const char * const *) inner, member, error))
        goto failed;
    }

  return TRUE;

failed:
  if (!load (self, g_string_new_len (saved->str, saved->len), NULL))
    g_assert_not_reached ();
  return FALSE;
}

gboolean
mcp_toml_document_remove (McpTomlDocument     *self,
                          const char * const  *path,
                          GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);

  return remove_member (self, path, error);
}

gboolean
mcp_toml_document_rename (McpTomlDocument     *self,
                          const char * const  *path,
                          const char          *new_name,
                          GError             **error)
{
  g_autoptr(GArray) splices = splices_new ();
  guint length;
  guint missing;
  TomlTable *parent;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (new_name != NULL, FALSE);

  length = g_strv_length ((char **) path);
  parent = walk (self, path, length - 1, &missing, error);
  if (parent == NULL)
    return FALSE;
  if (missing < length - 1 || !json_object_has_member (parent->object, path[length - 1]))
    {
      g_autofree char *where = mcp_json_path_from_names (path, length);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is nothing to rename"), where);
      return FALSE;
    }
  if (strcmp (path[length - 1], new_name) == 0)
    return TRUE;
  if (json_object_has_member (parent->object, new_name))
    {
      g_autofree char *where = mcp_json_path_from_names (path, length - 1);
      g_autofree char *taken = mcp_json_path_append_member (where, new_name);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is one already; not renaming"), taken);
      return FALSE;
    }

  for (guint i = 0; i < self->index->keys->len; i++)
    {
      TomlKey *key = self->index->keys->pdata[i];
      int k = find_segment (key, parent->object, path[length - 1]);
      GString *text;

      if (k < 0)
        continue;
      text = g_string_new (NULL);
      mcp_toml_append_key (text, new_name);
      splices_add (splices, key->segments[k].start, key->segments[k].end, g_string_free (text, FALSE));
    }

  return apply_splices (self, splices, error);
}

JsonNode *
mcp_toml_document_parse (const char  *text,
                         gsize        length,
                         GError     **error)
{
  JsonNode *root = NULL;
  TomlIndex *index = mcp_toml_index_parse (text, length, &root, error);

  mcp_toml_index_free (index);
  return root;
}
