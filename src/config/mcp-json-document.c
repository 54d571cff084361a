/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* What goes into the text: a parsed value to write out, or the bytes of a
 * value elsewhere (whose lines are indented by @raw_indent). */
typedef struct
{
  JsonNode   *node;
  const char *raw;
  gsize       raw_length;
  const char *raw_indent;
} Value;

/* The object at the first @length names of @path, or NULL with an error
 * naming where the walk stopped; *@missing is the index of the first
 * name that is not there (or @length when all are). */
static Node *
walk (McpJsonDocument     *self,
      const char * const  *path,
      guint                length,
      guint               *missing,
      GError             **error)
{
  Node *node = self->tree;

  for (guint i = 0; ; i++)
    {
      if (node->kind != '{')
        {
          g_autofree char *where = mcp_json_path_from_names (path, i);

          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("%s: expected an object; not changing it"), where);
          return NULL;
        }
      if (i == length)
        {
          *missing = length;
          return node;
        }

      {
        Node *child = mcp_json_node_find_member (node, path[i]);

        if (child == NULL)
          {
            *missing = i;
            return node;
          }
        node = child;
      }
    }
}

static gsize
line_start (const char *s,
            gsize       p)
{
  while (p > 0 && s[p - 1] != '\n')
    p--;

  return p;
}

/* Whether only blanks come before @p on its line. */
static gboolean
starts_line (const char *s,
             gsize       p)
{
  gsize q = line_start (s, p);

  return strspn (s + q, " \t") >= p - q;
}

/* The blanks that start the line @p is on. */
static char *
indent_at (const char *s,
           gsize       p)
{
  gsize q = line_start (s, p);

  return g_strndup (s + q, MIN (strspn (s + q, " \t"), p - q));
}

/* Past the blanks and the comments that end on the same line as @p. */
static gsize
end_of_line (McpJsonDocument *self,
             gsize            p)
{
  const char *s = self->text->str;
  gsize length = self->text->len;

  while (p < length)
    {
      if (s[p] == ' ' || s[p] == '\t')
        {
          p++;
        }
      else if (self->dialect == MCP_JSON_DIALECT_JSONC && s[p] == '/' && s[p + 1] == '/')
        {
          while (p < length && s[p] != '\n' && s[p] != '\r')
            p++;
        }
      else if (self->dialect == MCP_JSON_DIALECT_JSONC && s[p] == '/' && s[p + 1] == '*')
        {
          const char *close = strstr (s + p + 2, "*/");
          const char *newline = strchr (s + p + 2, '\n');

          if (close == NULL || (newline != NULL && newline < close))
            break;
          p = close + 2 - s;
        }
      else
        {
          break;
        }
    }

  return p;
}

static gsize
newline_at (const char *s,
            gsize       p)
{
  if (s[p] == '\n')
    return 1;
  if (s[p] == '\r' && s[p + 1] == '\n')
    return 2;

  return 0;
}

/* Whether the members of @container are on lines of their own: as its
 * first one is, or for an empty one, as the nearest around it has them. */
static gboolean
container_is_multiline (McpJsonDocument *self,
                        Node            *container)
{
  for (Node *node = container; node != NULL; node = node->parent)
    {
      if (node->children->len > 0)
        return starts_line (self->text->str, mcp_json_node_member_start (node->children->pdata[0]));
    }

  /* "{}" alone: a new file is written the way JSON.stringify (…, null, 2) does */
  return strchr (self->text->str, '\n') != NULL;
}

/* Writing values */

static void
append_node (McpJsonDocument *self,
             GString         *out,
             JsonNode        *node,
             const char      *indent,
             gboolean         pretty)
{
  g_autofree char *inner = g_strconcat (indent, self->unit, NULL);

  if (JSON_NODE_HOLDS_OBJECT (node) && json_object_get_size (json_node_get_object (node)) > 0)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      gboolean first = TRUE;

      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          if (!first)
            g_string_append_c (out, ',');
          if (pretty)
            g_string_append_printf (out, "%s%s", self->newline, inner);
          else if (!first)
            g_string_append (out, self->comma_space);
          first = FALSE;
          mcp_json_append_string (out, name);
          g_string_append (out, self->colon);
          append_node (self, out, member, inner, pretty);
        }
      if (pretty)
        g_string_append_printf (out, "%s%s", self->newline, indent);
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0)
    {
      JsonArray *array = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (pretty)
            g_string_append_printf (out, "%s%s", self->newline, inner);
          else if (i > 0)
            g_string_append (out, self->comma_space);
          append_node (self, out, json_array_get_element (array, i), inner, pretty);
        }
      if (pretty)
        g_string_append_printf (out, "%s%s", self->newline, indent);
      g_string_append_c (out, ']');
    }
  else
    {
      mcp_json_append (out, node);
    }
}

static void
append_value (McpJsonDocument *self,
              GString         *out,
              const Value     *value,
              const char      *indent,
              gboolean         pretty)
{
  gsize indent_length;

  if (value->raw == NULL)
    {
      append_node (self, out, value->node, indent, pretty);
      return;
    }

  /* Strings hold no raw line breaks: every one is layout, and each line
   * after it loses the old indentation and takes the new. */
  indent_length = strlen (value->raw_indent);
  for (gsize i = 0; i < value->raw_length; i++)
    {
      gsize n = newline_at (value->raw, i);

      if (n == 0)
        {
          g_string_append_c (out, value->raw[i]);
          continue;
        }

      i += n;
      g_string_append (out, self->newline);
      g_string_append (out, indent);
      if (i + indent_length <= value->raw_length &&
          strncmp (value->raw + i, value->raw_indent, indent_length) == 0)
        i += indent_length;
      i--;
    }
}

/* Splicing */

typedef struct
{
  gsize  start;
  gsize  end;
  char  *text;
  gsize  length;
} Splice;

static int
compare_splices (gconstpointer a,
                 gconstpointer b)
{
  const Splice *x = a;
  const Splice *y = b;

  return x->start < y->start ? 1 : x->start > y->start ? -1 : 0;
}

/* Applies the splices (from the last to the first, so that offsets hold)
 * and parses the text again; on failure the text is as it was. */
static gboolean
apply_splices (McpJsonDocument  *self,
               GArray           *splices,
               GError          **error)
{
  gsize saved_length = self->text->len;
  g_autofree char *saved = g_memdup2 (self->text->str, saved_length + 1);
  g_autoptr(GError) local_error = NULL;

  g_array_sort (splices, compare_splices);
  for (guint i = 0; i < splices->len; i++)
    {
      Splice *splice = &g_array_index (splices, Splice, i);

      g_string_erase (self->text, splice->start, splice->end - splice->start);
      g_string_insert_len (self->text, splice->start, splice->text, splice->length);
    }

  if (mcp_json_document_reindex (self, &local_error))
    return TRUE;

  g_critical ("An edit made the JSON text invalid (%s); it was undone", local_error->message);
  g_string_truncate (self->text, 0);
  g_string_append_len (self->text, saved, saved_length);
  if (!mcp_json_document_reindex (self, NULL))
    g_assert_not_reached ();
  g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
               _("The edit could not be made without breaking the file; nothing was changed"));

  return FALSE;
}

static void
splice_free (Splice *splice)
{
  g_free (splice->text);
}

static GArray *
splices_new (void)
{
  GArray *splices = g_array_new (FALSE, FALSE, sizeof (Splice));

  g_array_set_clear_func (splices, (GDestroyNotify) splice_free);

  return splices;
}

static void
add_splice (GArray *splices,
            gsize   start,
            gsize   end,
            char   *text)
{
  Splice splice = { start, end, text != NULL ? text : g_strdup (""), text != NULL ? strlen (text) : 0 };

  g_array_append_val (splices, splice);
}

/* (its length, not strlen(): a copied value may hold a nul in a JSONC comment) */
static void
add_splice_string (GArray  *splices,
                   gsize    start,
                   gsize    end,
                   GString *text)
{
  gsize length = text->len;
  Splice splice = { start, end, g_string_free (text, FALSE), length };

  g_array_append_val (splices, splice);
}

/* Adding, replacing, removing */

static void
append_entry (McpJsonDocument *self,
              GString         *out,
              const char      *key,
              const Value     *value,
              const char      *indent,
              gboolean         pretty)
{
  if (key != NULL)
    {
      mcp_json_append_string (out, key);
      g_string_append (out, self->colon);
    }
  append_value (self, out, value, indent, pretty);
}

/* Adds @key (NULL in an array) with @value at the end of @container. */
static gboolean
insert_child (McpJsonDocument  *self,
              Node             *container,
              const char       *key,
              const Value      *value,
              GError          **error)
{
  g_autoptr(GArray) splices = splices_new ();
  const char *s = self->text->str;
  GString *entry = g_string_new (NULL);
  gboolean pretty = container_is_multiline (self, container);

  if (container->children->len == 0)
    {
      gsize inner_start = container->start + 1;
      gsize inner_end = container->end - 1;
      gboolean empty = mcp_json_is_blank (s + inner_start, inner_end - inner_start);

      if (pretty)
        {
          g_autofree char *outer = indent_at (s, container->start);
          g_autofree char *inner = g_strconcat (outer, self->unit, NULL);

          g_string_append_printf (entry, "%s%s", self->newline, inner);
          append_entry (self, entry, key, value, inner, TRUE);
          if (empty)
            g_string_append_printf (entry, "%s%s", self->newline, outer);
        }
      else
        {
          append_entry (self, entry, key, value, "", FALSE);
        }
      add_splice_string (splices, inner_start, empty ? inner_end : inner_start, entry);
    }
  else
    {
      Node *last = container->children->pdata[container->children->len - 1];

      if (pretty)
        {
          g_autofree char *indent = indent_at (s, mcp_json_node_member_start (last));

          g_string_append_printf (entry, "%s%s", self->newline, indent);
          append_entry (self, entry, key, value, indent, TRUE);
          if (last->comma != MCP_JSON_NO_POS)
            {
              /* a trailing comma stays a trailing comma */
              g_string_append_c (entry, ',');
              add_splice_string (splices, end_of_line (self, last->comma + 1),
                                 end_of_line (self, last->comma + 1), entry);
            }
          else
            {
              gsize at = end_of_line (self, last->end);

              add_splice_string (splices, at, at, entry);
              add_splice (splices, last->end, last->end, g_strdup (","));
            }
        }
      else
        {
          g_string_append (entry, self->comma_space);
          append_entry (self, entry, key, value, "", FALSE);
          if (last->comma != MCP_JSON_NO_POS)
            {
              g_string_append_c (entry, ',');
              add_splice_string (splices, last->comma + 1, last->comma + 1, entry);
            }
          else
            {
              g_string_prepend_c (entry, ',');
              add_splice_string (splices, last->end, last->end, entry);
            }
        }
    }

  return apply_splices (self, splices, error);
}

static gboolean
replace_value (McpJsonDocument  *self,
               Node             *container,
               Node             *child,
               const Value      *value,
               GError          **error)
{
  g_autoptr(GArray) splices = splices_new ();
  g_autofree char *indent = indent_at (self->text->str, mcp_json_node_member_start (child));
  GString *out = g_string_new (NULL);
  gboolean pretty;

  /* a value keeps its own layout; a new one takes its neighbours' */
  if (child->kind != 'v' && child->children->len > 0)
    pretty = memchr (self->text->str + child->start, '\n', child->end - child->start) != NULL;
  else
    pretty = container_is_multiline (self, container);

  append_value (self, out, value, indent, pretty);
  add_splice_string (splices, child->start, child->end, out);

  return apply_splices (self, splices, error);
}

static gboolean
remove_child (McpJsonDocument  *self,
              Node             *container,
              guint             index,
              GError          **error)
{
  g_autoptr(GArray) splices = splices_new ();
  const char *s = self->text->str;
  Node *child = container->children->pdata[index];
  gsize from = mcp_json_node_member_start (child);

  if (child->comma != MCP_JSON_NO_POS)
    {
      gsize after = end_of_line (self, child->comma + 1);
      gsize n = newline_at (s, after);

      /* a member on lines of its own goes with its lines */
      if (starts_line (s, from) && n > 0)
        {
          add_splice (splices, line_start (s, from), after + n, NULL);
        }
      else
        {
          gsize to = child->comma + 1;

          while (s[to] == ' ' || s[to] == '\t')
            to++;
          add_splice (splices, from, to, NULL);
        }
    }
  else if (index > 0)
    {
      Node *previous = container->children->pdata[index - 1];

      if (starts_line (s, from))
        {
          gsize line = line_start (s, from);
          gsize to = end_of_line (self, child->end);

          /* from the end of the line before it */
          line -= line >= 2 && s[line - 2] == '\r' ? 2 : 1;
          add_splice (splices, line, newline_at (s, to) > 0 ? to : child->end, NULL);
          add_splice (splices, previous->comma, previous->comma + 1, NULL);
        }
      else
        {
          add_splice (splices, previous->comma, child->end, NULL);
        }
    }
  else
    {
      gsize inner_start = container->start + 1;
      gsize inner_end = container->end - 1;

      /* the last member: "{}" when nothing else (a comment) is inside */
      if (mcp_json_is_blank (s + inner_start, from - inner_start) &&
          mcp_json_is_blank (s + child->end, inner_end - child->end))
        add_splice (splices, inner_start, inner_end, NULL);
      else
        add_splice (splices, from, child->end, NULL);
    }

  return apply_splices (self, splices, error);
}

/* The operations */

static gboolean
set_value (McpJsonDocument     *self,
           const char * const  *path,
           const Value         *value,
           GError             **error)
{
  guint length = g_strv_length ((char **) path);

  g_return_val_if_fail (length > 0, FALSE);

  for (;;)
    {
      guint missing;
      Node *parent = walk (self, path, length - 1, &missing, error);

      if (parent == NULL)
        return FALSE;

      if (missing < length - 1)
        {
          /* an object on the way is missing: add it empty, and go on */
          g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_OBJECT);
          Value object = { .node = empty };

          json_node_take_object (empty, json_object_new ());

          if (!insert_child (self, parent, path[missing], &object, error))
            return FALSE;
          continue;
        }

      {
        Node *child = mcp_json_node_find_member (parent, path[length - 1]);

        if (child == NULL)
          return insert_child (self, parent, path[length - 1], value, error);
        return replace_value (self, parent, child, value, error);
      }
    }
}

gboolean
mcp_json_document_set (McpJsonDocument     *self,
                       const char * const  *path,
                       JsonNode            *value,
                       GError             **error)
{
  Value v = { .node = value };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  return set_value (self, path, &v, error);
}

static char **
path_append (const char * const *path,
             const char         *name)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **result;

  g_strv_builder_addv (builder, (const char **) path);
  g_strv_builder_add (builder, name);
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return result;
}

/* An array changed element by element: those that are equal keep their
 * bytes, the others are replaced, and what is more or less is added or
 * taken at the end. */
static gboolean
update_array (McpJsonDocument     *self,
              const char * const  *path,
              JsonArray           *old,
              JsonArray           *value,
              GError             **error)
{
  guint n_old = json_array_get_length (old);
  guint n_new = json_array_get_length (value);
  g_autoptr(GPtrArray) differ = g_ptr_array_new ();

  /* (the document's tree changes with each edit: indexes first) */
  for (guint i = 0; i < MIN (n_old, n_new); i++)
    {
      if (!mcp_json_equal (json_array_get_element (old, i), json_array_get_element (value, i)))
        g_ptr_array_add (differ, GUINT_TO_POINTER (i));
    }

  for (guint i = 0; i < differ->len; i++)
    {
      guint index = GPOINTER_TO_UINT (differ->pdata[i]);
      Node *array = mcp_json_document_find (self, path);
      Value v = { .node = json_array_get_element (value, index) };

      if (!replace_value (self, array, array->children->pdata[index], &v, error))
        return FALSE;
    }

  for (guint i = n_old; i < n_new; i++)
    {
      Value v = { .node = json_array_get_element (value, i) };

      if (!insert_child (self, mcp_json_document_find (self, path), NULL, &v, error))
        return FALSE;
    }

  for (guint i = n_old; i > n_new; i--)
    {
      if (!remove_child (self, mcp_json_document_find (self, path), i - 1, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
mcp_json_document_update (McpJsonDocument     *self,
                          const char * const  *path,
                          JsonNode            *value,
                          GError             **error)
{
  JsonNode *old;
  g_autoptr(GPtrArray) gone = NULL;
  JsonObject *object;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  old = mcp_json_document_lookup (self, path);
  if (mcp_json_equal (old, value))
    return TRUE;
  if (old != NULL && JSON_NODE_HOLDS_ARRAY (old) && JSON_NODE_HOLDS_ARRAY (value))
    {
      /* a copy: the document's own tree is replaced by each edit */
      g_autoptr(JsonNode) before = json_node_copy (old);

      return update_array (self, path, json_node_get_array (before), json_node_get_array (value), error);
    }
  if (old == NULL || !JSON_NODE_HOLDS_OBJECT (old) || !JSON_NODE_HOLDS_OBJECT (value))
    return mcp_json_document_set (self, path, value, error);

  /* (the document's tree changes with each edit: names first) */
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

      if (!mcp_json_document_remove (self, (const char * const *) inner, error))
        return FALSE;
    }

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      g_auto(GStrv) inner = path_append (path, name);

      if (!mcp_json_document_update (self, (const char * const *) inner, member, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
mcp_json_document_remove (McpJsonDocument     *self,
                          const char * const  *path,
                          GError             **error)
{
  guint length;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);

  length = g_strv_length ((char **) path);
  for (;;)
    {
      guint missing;
      Node *parent = walk (self, path, length - 1, &missing, error);
      guint index;

      if (parent == NULL)
        return FALSE;
      if (missing < length - 1)
        return TRUE;

      /* every copy of the name, or an earlier one would come back */
      for (index = 0; index < parent->children->len; index++)
        {
          Node *child = parent->children->pdata[index];

          if (strcmp (child->key, path[length - 1]) == 0)
            break;
        }
      if (index == parent->children->len)
        return TRUE;

      if (!remove_child (self, parent, index, error))
        return FALSE;
    }
}

gboolean
mcp_json_document_rename (McpJsonDocument     *self,
                          const char * const  *path,
                          const char          *new_name,
                          GError             **error)
{
  g_autoptr(GArray) splices = splices_new ();
  guint length;
  guint missing;
  Node *parent;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (new_name != NULL, FALSE);

  length = g_strv_length ((char **) path);
  parent = walk (self, path, length - 1, &missing, error);
  if (parent == NULL)
    return FALSE;
  if (missing < length - 1 || mcp_json_node_find_member (parent, path[length - 1]) == NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (path, length);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is nothing to rename"), where);
      return FALSE;
    }
  if (strcmp (path[length - 1], new_name) == 0)
    return TRUE;
  if (mcp_json_node_find_member (parent, new_name) != NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (path, length - 1);
      g_autofree char *taken = mcp_json_path_append_member (where, new_name);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is one already; not renaming"), taken);
      return FALSE;
    }

  for (guint i = 0; i < parent->children->len; i++)
    {
      Node *child = parent->children->pdata[i];
      GString *key;

      if (strcmp (child->key, path[length - 1]) != 0)
        continue;
      key = g_string_new (NULL);
      mcp_json_append_string (key, new_name);
      add_splice (splices, child->key_start, child->key_end, g_string_free (key, FALSE));
    }

  return apply_splices (self, splices, error);
}

gboolean
mcp_json_document_copy (McpJsonDocument     *self,
                        const char * const  *path,
                        McpJsonDocument     *source,
                        const char * const  *source_path,
                        GError             **error)
{
  g_autofree char *raw = NULL;
  g_autofree char *raw_indent = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  gsize raw_length;
  guint length;
  guint missing;
  Node *parent;
  Node *child;
  Value value = { 0 };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (source_path != NULL && source_path[0] != NULL, FALSE);

  length = g_strv_length ((char **) source_path);
  parent = walk (source, source_path, length - 1, &missing, error);
  if (parent == NULL)
    return FALSE;
  child = missing == length - 1 ? mcp_json_node_find_member (parent, source_path[length - 1]) : NULL;
  if (child == NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (source_path, length);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, _("%s: there is nothing to copy"), where);
      return FALSE;
    }

  /* copied out: @source may be @self, whose text the edit changes */
  raw_length = child->end - child->start;
  raw = g_malloc (raw_length + 1);
  memcpy (raw, source->text->str + child->start, raw_length);
  raw[raw_length] = '\0';
  raw_indent = indent_at (source->text->str, mcp_json_node_member_start (child));

  /* comments do not go where they are not allowed */
  if (self->dialect == MCP_JSON_DIALECT_JSON && source->dialect == MCP_JSON_DIALECT_JSONC)
    {
      g_autofree char *plain = g_memdup2 (raw, raw_length + 1);

      mcp_json_blank_jsonc (plain, raw_length);
      if (memcmp (plain, raw, raw_length) != 0)
        {
          parsed = json_node_copy (mcp_json_document_lookup (source, source_path));
          value.node = parsed;
        }
    }

  if (value.node == NULL)
    {
      value.raw = raw;
      value.raw_length = raw_length;
      value.raw_indent = raw_indent;
    }

  return set_value (self, path, &value, error);
}

/* The array at @path, created empty when it is missing. */
static Node *
ensure_array (McpJsonDocument     *self,
              const char * const  *path,
              GError             **error)
{
  guint length = g_strv_length ((char **) path);

  for (;;)
    {
      guint missing;
      Node *parent = walk (self, path, length - 1, &missing, error);
      Node *child;

      if (parent == NULL)
        return NULL;
      child = missing == length - 1 ? mcp_json_node_find_member (parent, path[length - 1]) : NULL;
      if (child == NULL)
        {
          g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_ARRAY);

          json_node_take_array (empty, json_array_new ());
          if (!mcp_json_document_set (self, path, empty, error))
            return NULL;
          continue;
        }
      if (child->kind != '[')
        {
          g_autofree char *where = mcp_json_path_from_names (path, length);

          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("%s: expected an array; not changing it"), where);
          return NULL;
        }
      return child;
    }
}

gboolean
mcp_json_document_append (McpJsonDocument     *self,
                          const char * const  *path,
                          JsonNode            *value,
                          GError             **error)
{
  Value v = { .node = value };
  Node *array;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  array = ensure_array (self, path, error);
  if (array == NULL)
    return FALSE;

  return insert_child (self, array, NULL, &v, error);
}

gboolean
mcp_json_document_remove_element (McpJsonDocument     *self,
                                  const char * const  *path,
                                  guint                index,
                                  GError             **error)
{
  Node *array;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL && path[0] != NULL, FALSE);

  /* (not ensure_array(): a refused removal must not add the array) */
  array = mcp_json_document_find (self, path);
  if (array != NULL && array->kind != '[')
    {
      g_autofree char *where = mcp_json_path_from_names (path, g_strv_length ((char **) path));

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: expected an array; not changing it"), where);
      return FALSE;
    }
  if (array == NULL || index >= array->children->len)
    {
      g_autofree char *where = mcp_json_path_from_names (path, g_strv_length ((char **) path));

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s[%u]: there is no such element"), where, index);
      return FALSE;
    }

  return remove_child (self, array, index, error);
}
