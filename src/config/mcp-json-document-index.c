/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* McpJsonDocument's text as a tree of byte ranges (Node), scanned again
 * after each edit; the document's getters and lookups. */

static void
node_free (Node *node)
{
  if (node == NULL)
    return;

  g_free (node->key);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node);
}

gsize
mcp_json_node_member_start (Node *node)
{
  return node->key_start != MCP_JSON_NO_POS ? node->key_start : node->start;
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

  return MCP_JSON_NO_POS;
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
  node->key_start = node->key_end = node->comma = MCP_JSON_NO_POS;

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
          gsize key_end = MCP_JSON_NO_POS;
          Node *child;

          if (node->kind == '{')
            {
              if (sc->s[p] != '"' || (key_end = skip_string (sc, p)) == MCP_JSON_NO_POS)
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
      if (p == MCP_JSON_NO_POS)
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
      gsize q = mcp_json_node_member_start (first);
      gsize line = q;

      while (line > 0 && s[line - 1] != '\n')
        line--;
      if (line > self->tree->start && q > line && strspn (s + line, " \t") == q - line)
        self->unit = g_strndup (s + line, q - line);

      if (first->key_end != MCP_JSON_NO_POS && first->start > first->key_end &&
          first->start - first->key_end <= 8)
        {
          g_autofree char *between = g_strndup (s + first->key_end, first->start - first->key_end);

          if (strchr (between, '\n') == NULL && strchr (between, '/') == NULL)
            self->colon = g_steal_pointer (&between);
        }

      if (self->tree->children->len > 1 && first->comma != MCP_JSON_NO_POS)
        {
          Node *second = self->tree->children->pdata[1];
          gsize from = first->comma + 1;
          gsize to = mcp_json_node_member_start (second);

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

gboolean
mcp_json_document_reindex (McpJsonDocument  *self,
                           GError          **error)
{
  Scanner sc = { self->text->str, self->text->len, self->dialect == MCP_JSON_DIALECT_JSONC };
  g_autoptr(JsonNode) root = NULL;
  gsize p = 0;
  Node *tree;

  /* the old index goes first: a large file is not held twice */
  g_clear_pointer (&self->tree, node_free);
  g_clear_pointer (&self->root, json_node_unref);

  root = mcp_json_document_parse (self->text->str, self->text->len, self->dialect, error);
  if (root == NULL)
    return FALSE;

  if (sc.length >= 3 && memcmp (sc.s, MCP_JSON_BOM, 3) == 0)
    p = 3;
  tree = scan_value (&sc, &p, 0);
  if (tree == NULL || skip_trivia (&sc, p) != sc.length)
    {
      node_free (tree);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The JSON text could not be indexed for editing"));
      return FALSE;
    }

  self->tree = tree;
  self->root = g_steal_pointer (&root);
  learn_style (self);

  return TRUE;
}

/* FALSE with an error for a TOML or YAML document: the operations that
 * work on the JSON text's own tree */
gboolean
mcp_json_document_check_json (McpJsonDocument  *self,
                              GError          **error)
{
  if (self->toml == NULL && self->yaml == NULL)
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       self->toml != NULL ? "This edit is not supported in a TOML document"
                                          : "This edit is not supported in a YAML document");
  return FALSE;
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
  if (dialect == MCP_JSON_DIALECT_TOML)
    {
      self->toml = mcp_toml_document_new (text, length, error);
      return self->toml != NULL ? g_steal_pointer (&self) : NULL;
    }
  if (dialect == MCP_JSON_DIALECT_YAML)
    {
      self->yaml = mcp_yaml_document_new (text, length, error);
      return self->yaml != NULL ? g_steal_pointer (&self) : NULL;
    }

  skip = length >= 3 && memcmp (text, MCP_JSON_BOM, 3) == 0 ? 3 : 0;
  if (text == NULL || mcp_json_is_blank (text + skip, length - skip))
    {
      self->text = g_string_new (NULL);
      g_string_append_len (self->text, text, skip);
      g_string_append (self->text, "{}\n");
    }
  else
    {
      self->text = g_string_new_len (text, length);
    }

  if (!mcp_json_document_reindex (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

void
mcp_json_document_free (McpJsonDocument *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->toml, mcp_toml_document_free);
  g_clear_pointer (&self->yaml, mcp_yaml_document_free);
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

  if (self->toml != NULL)
    return mcp_toml_document_get_text (self->toml, length);
  if (self->yaml != NULL)
    return mcp_yaml_document_get_text (self->yaml, length);

  if (length != NULL)
    *length = self->text->len;

  return self->text->str;
}

GBytes *
mcp_json_document_dup_bytes (McpJsonDocument *self)
{
  const char *text;
  gsize length;

  g_return_val_if_fail (self != NULL, NULL);

  text = mcp_json_document_get_text (self, &length);
  return g_bytes_new (text, length);
}

JsonNode *
mcp_json_document_get_root (McpJsonDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->toml != NULL)
    return mcp_toml_document_get_root (self->toml);
  if (self->yaml != NULL)
    return mcp_yaml_document_get_root (self->yaml);

  return self->root;
}

JsonNode *
mcp_json_document_lookup (McpJsonDocument    *self,
                          const char * const *path)
{
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  node = mcp_json_document_get_root (self);
  for (guint i = 0; path[i] != NULL; i++)
    {
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      node = json_object_get_member (json_node_get_object (node), path[i]);
    }

  return node;
}

/* Finding places */

Node *
mcp_json_node_find_member (Node       *object,
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

/* The value at @path, or NULL */
Node *
mcp_json_document_find (McpJsonDocument    *self,
                        const char * const *path)
{
  Node *node = self->tree;

  for (guint i = 0; path[i] != NULL; i++)
    {
      if (node->kind != '{' || (node = mcp_json_node_find_member (node, path[i])) == NULL)
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

  if (self->toml != NULL || self->yaml != NULL)
    return FALSE;

  node = mcp_json_document_find (self, path);
  if (node == NULL)
    return FALSE;

  if (start != NULL)
    *start = node->start;
  if (end != NULL)
    *end = node->end;

  return TRUE;
}

