/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

#define NO_POS G_MAXSIZE
#define BOM "\xef\xbb\xbf"

/* A value's place in the text. Offsets are bytes of the text. */
typedef struct _Node Node;
struct _Node
{
  char       kind;        /* '{', '[' or 'v' (any other value) */
  gsize      start;       /* the value */
  gsize      end;
  gsize      key_start;   /* a member's key, quotes included; NO_POS else */
  gsize      key_end;
  gsize      comma;       /* the ',' after it, or NO_POS */
  char      *key;         /* a member's name, decoded */
  GPtrArray *children;    /* of a container */
  Node      *parent;
};

struct _McpJsonDocument
{
  McpJsonDialect  dialect;
  GString        *text;
  JsonNode       *root;
  Node           *tree;

  /* the text's own style, for what is added */
  const char     *newline;
  char           *unit;
  char           *colon;
  char           *comma_space;
};

/* Values */

/* What goes into the text: a parsed value to write out, or the bytes of a
 * value elsewhere (whose lines are indented by @raw_indent). */
typedef struct
{
  JsonNode   *node;
  const char *raw;
  gsize       raw_length;
  const char *raw_indent;
} Value;

static void
node_free (Node *node)
{
  if (node == NULL)
    return;

  g_free (node->key);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node);
}

static gsize
member_start (Node *node)
{
  return node->key_start != NO_POS ? node->key_start : node->start;
}

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

/* JSONC */

/* Comments and trailing commas become spaces (newlines stay), so offsets
 * and line numbers are those of @text; strings are left as they are. */
static void
blank_jsonc (char  *text,
             gsize  length)
{
  gboolean in_string = FALSE;
  char last = '\0';   /* the last byte outside strings and blanks */
  gsize i;

  for (i = 0; i < length; i++)
    {
      if (in_string)
        {
          if (text[i] == '\\' && i + 1 < length)
            i++;
          else if (text[i] == '"')
            in_string = FALSE;
          continue;
        }

      if (text[i] == '"')
        {
          in_string = TRUE;
        }
      else if (text[i] == '/' && i + 1 < length && text[i + 1] == '/')
        {
          /* a line comment ends at CR too, as in VS Code and end_of_line() */
          for (; i < length && text[i] != '\n' && text[i] != '\r'; i++)
            text[i] = ' ';
        }
      else if (text[i] == '/' && i + 1 < length && text[i + 1] == '*')
        {
          text[i] = text[i + 1] = ' ';
          for (i += 2; i < length; i++)
            {
              if (text[i] == '*' && i + 1 < length && text[i + 1] == '/')
                {
                  text[i] = text[i + 1] = ' ';
                  i++;
                  break;
                }
              if (text[i] != '\n')
                text[i] = ' ';
            }
        }
    }

  in_string = FALSE;
  for (i = 0; i < length; i++)
    {
      if (in_string)
        {
          if (text[i] == '\\' && i + 1 < length)
            i++;
          else if (text[i] == '"')
            in_string = FALSE;
          continue;
        }

      if (text[i] == '"')
        {
          in_string = TRUE;
          last = '"';
        }
      else if (text[i] == ',')
        {
          gsize j = i + 1;

          while (j < length && g_ascii_isspace (text[j]))
            j++;
          /* only a comma after a value trails: "[,]" stays an error */
          if (j < length && (text[j] == '}' || text[j] == ']') &&
              last != '[' && last != '{' && last != ',')
            text[i] = ' ';
          else
            last = ',';
        }
      else if (!g_ascii_isspace (text[i]))
        {
          last = text[i];
        }
    }
}

static gboolean
is_blank (const char *text,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isspace (text[i]))
        return FALSE;
    }

  return TRUE;
}

JsonNode *
mcp_json_document_parse (const char      *text,
                         gsize            length,
                         McpJsonDialect   dialect,
                         GError         **error)
{
  g_autofree char *plain = NULL;
  gsize skip = 0;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  /* (NULL + 0 is undefined behaviour, and an empty GBytes has NULL data) */
  if (text == NULL)
    text = "";
  if (length >= 3 && memcmp (text, BOM, 3) == 0)
    skip = 3;
  if (is_blank (text + skip, length - skip))
    {
      JsonNode *empty = json_node_new (JSON_NODE_OBJECT);

      /* json_node_init_object() would take a reference of its own */
      json_node_take_object (empty, json_object_new ());
      return empty;
    }

  if (dialect == MCP_JSON_DIALECT_JSONC)
    {
      plain = g_memdup2 (text, length);
      blank_jsonc (plain + skip, length - skip);
      text = plain;
    }

  /* A byte order mark does not move the line and column of an error: it
   * is on the first line, before anything. */
  return mcp_json_parse (text + skip, length - skip, error);
}

/* Indexing */

typedef struct
{
  const char *s;
  gsize       length;
  gboolean    jsonc;
} Scanner;

static gsize
skip_trivia (const Scanner *sc,
             gsize          p)
{
  while (p < sc->length)
    {
      char c = sc->s[p];

      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        {
          p++;
        }
      else if (sc->jsonc && c == '/' && p + 1 < sc->length && sc->s[p + 1] == '/')
        {
          while (p < sc->length && sc->s[p] != '\n' && sc->s[p] != '\r')
            p++;
        }
      else if (sc->jsonc && c == '/' && p + 1 < sc->length && sc->s[p + 1] == '*')
        {
          p += 2;
          while (p + 1 < sc->length && !(sc->s[p] == '*' && sc->s[p + 1] == '/'))
            p++;
          p = MIN (p + 2, sc->length);
        }
      else
        {
          break;
        }
    }

  return p;
}

/* @p is at a '"': where the string ends. */
static gsize
skip_string (const Scanner *sc,
             gsize          p)
{
  for (p++; p < sc->length; p++)
    {
      if (sc->s[p] == '\\')
        p++;
      else if (sc->s[p] == '"')
        return p + 1;
    }

  return NO_POS;
}

static Node *
scan_value (const Scanner *sc,
            gsize         *position,
            guint          depth)
{
  g_autoptr(GPtrArray) children = NULL;
  gsize p = skip_trivia (sc, *position);
  Node *node;
  char close;

  if (p >= sc->length || depth > MCP_JSON_MAX_DEPTH)
    return NULL;

  node = g_new0 (Node, 1);
  node->start = p;
  node->key_start = node->key_end = node->comma = NO_POS;

  switch (sc->s[p])
    {
    case '{':
    case '[':
      node->kind = sc->s[p];
      close = node->kind == '{' ? '}' : ']';
      children = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
      p = skip_trivia (sc, p + 1);
      while (p < sc->length && sc->s[p] != close)
        {
          gsize key_start = p;
          gsize key_end = NO_POS;
          Node *child;

          if (node->kind == '{')
            {
              if (sc->s[p] != '"' || (key_end = skip_string (sc, p)) == NO_POS)
                goto fail;
              p = skip_trivia (sc, key_end);
              if (p >= sc->length || sc->s[p] != ':')
                goto fail;
              p++;
            }

          child = scan_value (sc, &p, depth + 1);
          if (child == NULL)
            goto fail;
          child->parent = node;
          g_ptr_array_add (children, child);

          if (node->kind == '{')
            {
              child->key_start = key_start;
              child->key_end = key_end;
              /* the text is valid JSON: a key without escapes is its bytes */
              if (memchr (sc->s + key_start, '\\', key_end - key_start) == NULL)
                {
                  child->key = g_strndup (sc->s + key_start + 1, key_end - key_start - 2);
                }
              else
                {
                  g_autoptr(JsonNode) key = mcp_json_parse (sc->s + key_start, key_end - key_start, NULL);

                  if (key == NULL)
                    goto fail;
                  child->key = g_strdup (json_node_get_string (key));
                }
            }

          p = skip_trivia (sc, p);
          if (p < sc->length && sc->s[p] == ',')
            {
              child->comma = p;
              p = skip_trivia (sc, p + 1);
            }
          else if (p >= sc->length || sc->s[p] != close)
            {
              goto fail;
            }
        }
      if (p >= sc->length)
        goto fail;
      node->children = g_steal_pointer (&children);
      p++;
      break;

    case '"':
      node->kind = 'v';
      p = skip_string (sc, p);
      if (p == NO_POS)
        goto fail;
      break;

    default:
      node->kind = 'v';
      while (p < sc->length && strchr (" \t\r\n,]}/", sc->s[p]) == NULL)
        p++;
      break;
    }

  node->end = p;
  *position = p;
  return node;

fail:
  node_free (node);
  return NULL;
}

/* The style of the text, for what an edit adds. */
static void
learn_style (McpJsonDocument *self)
{
  const char *s = self->text->str;
  const char *newline = strchr (s, '\n');
  Node *first = NULL;

  self->newline = newline != NULL && newline > s && newline[-1] == '\r' ? "\r\n" : "\n";

  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->colon, g_free);
  g_clear_pointer (&self->comma_space, g_free);

  if (self->tree->kind != 'v' && self->tree->children->len > 0)
    first = self->tree->children->pdata[0];

  if (first != NULL)
    {
      gsize q = member_start (first);
      gsize line = q;

      while (line > 0 && s[line - 1] != '\n')
        line--;
      if (line > self->tree->start && q > line && strspn (s + line, " \t") == q - line)
        self->unit = g_strndup (s + line, q - line);

      if (first->key_end != NO_POS && first->start > first->key_end &&
          first->start - first->key_end <= 8)
        {
          g_autofree char *between = g_strndup (s + first->key_end, first->start - first->key_end);

          if (strchr (between, '\n') == NULL && strchr (between, '/') == NULL)
            self->colon = g_steal_pointer (&between);
        }

      if (self->tree->children->len > 1 && first->comma != NO_POS)
        {
          Node *second = self->tree->children->pdata[1];
          gsize from = first->comma + 1;
          gsize to = member_start (second);

          if (to - from <= 4 && strspn (s + from, " \t") == to - from)
            self->comma_space = g_strndup (s + from, to - from);
        }
    }

  if (self->unit == NULL)
    self->unit = g_strdup ("  ");
  if (self->colon == NULL)
    self->colon = g_strdup (": ");
  if (self->comma_space == NULL)
    self->comma_space = g_strdup (" ");
}

static gboolean
reindex (McpJsonDocument  *self,
         GError          **error)
{
  Scanner sc = { self->text->str, self->text->len, self->dialect == MCP_JSON_DIALECT_JSONC };
  g_autoptr(JsonNode) root = NULL;
  gsize p = 0;
  Node *tree;

  root = mcp_json_document_parse (self->text->str, self->text->len, self->dialect, error);
  if (root == NULL)
    return FALSE;

  if (sc.length >= 3 && memcmp (sc.s, BOM, 3) == 0)
    p = 3;
  tree = scan_value (&sc, &p, 0);
  if (tree == NULL || skip_trivia (&sc, p) != sc.length)
    {
      node_free (tree);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The JSON text could not be indexed for editing"));
      return FALSE;
    }

  node_free (self->tree);
  self->tree = tree;
  g_clear_pointer (&self->root, json_node_unref);
  self->root = g_steal_pointer (&root);
  learn_style (self);

  return TRUE;
}

McpJsonDocument *
mcp_json_document_new (const char      *text,
                       gsize            length,
                       McpJsonDialect   dialect,
                       GError         **error)
{
  g_autoptr(McpJsonDocument) self = g_new0 (McpJsonDocument, 1);
  gsize skip;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self->dialect = dialect;
  skip = length >= 3 && memcmp (text, BOM, 3) == 0 ? 3 : 0;
  if (text == NULL || is_blank (text + skip, length - skip))
    {
      self->text = g_string_new (NULL);
      g_string_append_len (self->text, text, skip);
      g_string_append (self->text, "{}\n");
    }
  else
    {
      self->text = g_string_new_len (text, length);
    }

  if (!reindex (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

void
mcp_json_document_free (McpJsonDocument *self)
{
  if (self == NULL)
    return;

  if (self->text != NULL)
    g_string_free (self->text, TRUE);
  g_clear_pointer (&self->root, json_node_unref);
  node_free (self->tree);
  g_free (self->unit);
  g_free (self->colon);
  g_free (self->comma_space);
  g_free (self);
}

const char *
mcp_json_document_get_text (McpJsonDocument *self,
                            gsize           *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (length != NULL)
    *length = self->text->len;

  return self->text->str;
}

GBytes *
mcp_json_document_dup_bytes (McpJsonDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_bytes_new (self->text->str, self->text->len);
}

JsonNode *
mcp_json_document_get_root (McpJsonDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->root;
}

JsonNode *
mcp_json_document_lookup (McpJsonDocument    *self,
                          const char * const *path)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  node = self->root;
  for (guint i = 0; path[i] != NULL; i++)
    {
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      node = json_object_get_member (json_node_get_object (node), path[i]);
    }

  return node;
}

/* Finding places */

static Node *
find_member (Node       *object,
             const char *name)
{
  for (guint i = object->children->len; i > 0; i--)
    {
      Node *child = object->children->pdata[i - 1];

      if (strcmp (child->key, name) == 0)
        return child;
    }

  return NULL;
}

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
        Node *child = find_member (node, path[i]);

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
        return starts_line (self->text->str, member_start (node->children->pdata[0]));
    }

  /* "{}" alone: a new file is written the way JSON.stringify (…, null, 2) does */
  return strchr (self->text->str, '\n') != NULL;
}

/* The value at @path, or NULL */
static Node *
find_node (McpJsonDocument    *self,
           const char * const *path)
{
  Node *node = self->tree;

  for (guint i = 0; path[i] != NULL; i++)
    {
      if (node->kind != '{' || (node = find_member (node, path[i])) == NULL)
        return NULL;
    }

  return node;
}

gboolean
mcp_json_document_get_range (McpJsonDocument    *self,
                             const char * const *path,
                             gsize              *start,
                             gsize              *end)
{
  Node *node;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  node = find_node (self, path);
  if (node == NULL)
    return FALSE;

  if (start != NULL)
    *start = node->start;
  if (end != NULL)
    *end = node->end;

  return TRUE;
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

  /* the old index goes first: a large file is not held twice */
  g_clear_pointer (&self->tree, node_free);
  g_clear_pointer (&self->root, json_node_unref);

  if (reindex (self, &local_error))
    return TRUE;

  g_critical ("An edit made the JSON text invalid (%s); it was undone", local_error->message);
  g_string_truncate (self->text, 0);
  g_string_append_len (self->text, saved, saved_length);
  if (!reindex (self, NULL))
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
      gboolean empty = is_blank (s + inner_start, inner_end - inner_start);

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
          g_autofree char *indent = indent_at (s, member_start (last));

          g_string_append_printf (entry, "%s%s", self->newline, indent);
          append_entry (self, entry, key, value, indent, TRUE);
          if (last->comma != NO_POS)
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
          if (last->comma != NO_POS)
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
  g_autofree char *indent = indent_at (self->text->str, member_start (child));
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
  gsize from = member_start (child);

  if (child->comma != NO_POS)
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
      if (is_blank (s + inner_start, from - inner_start) &&
          is_blank (s + child->end, inner_end - child->end))
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
        Node *child = find_member (parent, path[length - 1]);

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
      Node *array = find_node (self, path);
      Value v = { .node = json_array_get_element (value, index) };

      if (!replace_value (self, array, array->children->pdata[index], &v, error))
        return FALSE;
    }

  for (guint i = n_old; i < n_new; i++)
    {
      Value v = { .node = json_array_get_element (value, i) };

      if (!insert_child (self, find_node (self, path), NULL, &v, error))
        return FALSE;
    }

  for (guint i = n_old; i > n_new; i--)
    {
      if (!remove_child (self, find_node (self, path), i - 1, error))
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
  if (missing < length - 1 || find_member (parent, path[length - 1]) == NULL)
    {
      g_autofree char *where = mcp_json_path_from_names (path, length);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: there is nothing to rename"), where);
      return FALSE;
    }
  if (strcmp (path[length - 1], new_name) == 0)
    return TRUE;
  if (find_member (parent, new_name) != NULL)
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
  child = missing == length - 1 ? find_member (parent, source_path[length - 1]) : NULL;
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
  raw_indent = indent_at (source->text->str, member_start (child));

  /* comments do not go where they are not allowed */
  if (self->dialect == MCP_JSON_DIALECT_JSON && source->dialect == MCP_JSON_DIALECT_JSONC)
    {
      g_autofree char *plain = g_memdup2 (raw, raw_length + 1);

      blank_jsonc (plain, raw_length);
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
      child = missing == length - 1 ? find_member (parent, path[length - 1]) : NULL;
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
  array = find_node (self, path);
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
