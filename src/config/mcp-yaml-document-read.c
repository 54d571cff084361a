/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-yaml-document-private.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

/* McpYamlDocument's reader: libyaml's events, each node's byte range, and
 * the JSON value they make. libyaml counts its marks in characters, not
 * bytes: a cursor walks the (valid UTF-8) text to turn one into the
 * other, forwards and back, as the events come nearly in text order. */

#define YAML_TAG_PREFIX "tag:yaml.org,2002:"

typedef struct
{
  const char   *text;      /* after the byte order mark */
  gsize         length;
  gsize         base;      /* the byte order mark's length */
  gsize         cursor_char;
  gsize         cursor_byte;
  GHashTable   *anchors;   /* name → McpYamlNode, borrowed */
  GPtrArray    *stack;     /* the open collections */
  McpYamlNode  *root;
  guint         nodes;
  guint         expanded;  /* values made by expanding aliases */
  guint         documents;
} Reader;

void
mcp_yaml_node_free (McpYamlNode *node)
{
  if (node == NULL)
    return;

  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node->anchor);
  g_free (node->tag);
  g_free (node->value);
  g_free (node);
}

static gsize
byte_at (Reader *reader,
         gsize   index)
{
  while (reader->cursor_char < index && reader->cursor_byte < reader->length)
    {
      reader->cursor_byte = g_utf8_next_char (reader->text + reader->cursor_byte) - reader->text;
      reader->cursor_char++;
    }
  while (reader->cursor_char > index && reader->cursor_byte > 0)
    {
      reader->cursor_byte = g_utf8_prev_char (reader->text + reader->cursor_byte) - reader->text;
      reader->cursor_char--;
    }

  return reader->base + MIN (reader->cursor_byte, reader->length);
}

static guint
line_of (const char *text,
         gsize       end)
{
  guint line = 1;

  for (gsize i = 0; i < end; i++)
    if (text[i] == '\n')
      line++;

  return line;
}

/* What libyaml cannot be trusted to say well: invalid UTF-8 and NUL
 * characters (it stops at the first NUL as at the end), and sizes. */
static gboolean
check_text (const char  *text,
            gsize        length,
            GError     **error)
{
  const char *end = NULL;

  if (length > MCP_YAML_MAX_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The YAML text is larger than 16 MiB"));
      return FALSE;
    }
  if (!g_utf8_validate_len (text, length, &end))
    {
      gsize at = end - text;

      if (text[at] == '\0')
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("line %u: a NUL character"), line_of (text, at));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("line %u: the text is not valid UTF-8"), line_of (text, at));
      return FALSE;
    }

  return TRUE;
}

static gboolean
check_tag (const char *tag,
           McpYamlKind kind,
           guint       line,
           GError    **error)
{
  static const char * const scalar_tags[] = { "str", "int", "float", "bool", "null", NULL };

  if (tag == NULL || strcmp (tag, "!") == 0)
    return TRUE;
  if (g_str_has_prefix (tag, YAML_TAG_PREFIX))
    {
      const char *name = tag + strlen (YAML_TAG_PREFIX);

      if ((kind == MCP_YAML_MAPPING && strcmp (name, "map") == 0) ||
          (kind == MCP_YAML_SEQUENCE && strcmp (name, "seq") == 0) ||
          (kind == MCP_YAML_SCALAR && g_strv_contains (scalar_tags, name)))
        return TRUE;
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("line %u: the tag %s is not supported"), line, tag);
  return FALSE;
}

static McpYamlNode *
node_new (Reader       *reader,
          McpYamlKind   kind,
          yaml_event_t *event)
{
  McpYamlNode *node = g_new0 (McpYamlNode, 1);

  node->kind = kind;
  node->start = byte_at (reader, event->start_mark.index);
  node->end = byte_at (reader, event->end_mark.index);
  node->line = event->start_mark.line + 1;
  if (kind == MCP_YAML_MAPPING || kind == MCP_YAML_SEQUENCE)
    node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_yaml_node_free);

  return node;
}

static void
mark_anchored (McpYamlNode *node)
{
  for (; node != NULL && !node->anchored; node = node->parent)
    node->anchored = TRUE;
}

/* Adds @node (owned) to the open collection, or as the root. */
static gboolean
attach (Reader       *reader,
        McpYamlNode  *node,
        GError      **error)
{
  McpYamlNode *parent;

  if (++reader->nodes > MCP_YAML_MAX_NODES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("line %u: more than 100,000 values"), node->line);
      mcp_yaml_node_free (node);
      return FALSE;
    }

  if (reader->stack->len == 0)
    {
      /* "---" and nothing: an empty document */
      if (node->kind == MCP_YAML_SCALAR && node->style == YAML_PLAIN_SCALAR_STYLE &&
          node->tag == NULL && node->anchor == NULL && node->value[0] == '\0')
        {
          mcp_yaml_node_free (node);
          return TRUE;
        }
      if (node->kind != MCP_YAML_MAPPING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u: the top level is not a mapping"), node->line);
          mcp_yaml_node_free (node);
          return FALSE;
        }
      reader->root = node;
      return TRUE;
    }

  parent = g_ptr_array_index (reader->stack, reader->stack->len - 1);
  if (parent->kind == MCP_YAML_MAPPING && parent->children->len % 2 == 0 &&
      node->kind != MCP_YAML_SCALAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("line %u: a key that is not a string"), node->line);
      mcp_yaml_node_free (node);
      return FALSE;
    }
  node->parent = parent;
  g_ptr_array_add (parent->children, node);
  if (node->anchor != NULL || node->kind == MCP_YAML_ALIAS)
    mark_anchored (node);

  return TRUE;
}

static gboolean
add_anchor (Reader       *reader,
            McpYamlNode  *node,
            const char   *anchor)
{
  if (anchor == NULL)
    return TRUE;

  node->anchor = g_strdup (anchor);
  g_hash_table_insert (reader->anchors, node->anchor, node);
  return TRUE;
}

/* Where a block collection's text ends: where its last value's ends. */
static gsize
content_end (McpYamlNode *node)
{
  if (node->children != NULL && node->children->len > 0 && !node->flow)
    return ((McpYamlNode *) g_ptr_array_index (node->children, node->children->len - 1))->end;

  return node->end;
}

static gboolean
read_event (Reader        *reader,
            yaml_event_t  *event,
            GError       **error)
{
  McpYamlNode *node = NULL;
  guint line = event->start_mark.line + 1;

  switch (event->type)
    {
    case YAML_DOCUMENT_START_EVENT:
      if (++reader->documents > 1)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u: more than one YAML document"), line);
          return FALSE;
        }
      return TRUE;

    case YAML_MAPPING_START_EVENT:
    case YAML_SEQUENCE_START_EVENT:
      {
        gboolean mapping = event->type == YAML_MAPPING_START_EVENT;

        if (reader->stack->len >= MCP_YAML_MAX_DEPTH)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("line %u: nested deeper than 64 levels"), line);
            return FALSE;
          }
        node = node_new (reader, mapping ? MCP_YAML_MAPPING : MCP_YAML_SEQUENCE, event);
        node->flow = mapping ? event->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                             : event->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
        node->tag = g_strdup ((const char *) (mapping ? event->data.mapping_start.tag
                                                      : event->data.sequence_start.tag));
        if (!check_tag (node->tag, node->kind, line, error))
          {
            mcp_yaml_node_free (node);
            return FALSE;
          }
        add_anchor (reader, node, (const char *) (mapping ? event->data.mapping_start.anchor
                                                          : event->data.sequence_start.anchor));
        node->open = TRUE;
        if (!attach (reader, node, error))
          return FALSE;
        g_ptr_array_add (reader->stack, node);
        return TRUE;
      }

    case YAML_MAPPING_END_EVENT:
    case YAML_SEQUENCE_END_EVENT:
      node = g_ptr_array_steal_index (reader->stack, reader->stack->len - 1);
      node->open = FALSE;
      node->end = node->flow ? byte_at (reader, event->end_mark.index) : content_end (node);
      return TRUE;

    case YAML_SCALAR_EVENT:
      if (memchr (event->data.scalar.value, '\0', event->data.scalar.length) != NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u: a NUL character"), line);
          return FALSE;
        }
      node = node_new (reader, MCP_YAML_SCALAR, event);
      node->style = event->data.scalar.style;
      node->value = g_strndup ((const char *) event->data.scalar.value, event->data.scalar.length);
      node->tag = g_strdup ((const char *) event->data.scalar.tag);
      if (!check_tag (node->tag, node->kind, line, error))
        {
          mcp_yaml_node_free (node);
          return FALSE;
        }
      if (node->style == YAML_LITERAL_SCALAR_STYLE || node->style == YAML_FOLDED_SCALAR_STYLE)
        {
          const char *text = reader->text - reader->base;

          while (node->end > node->start + 1 && g_ascii_isspace (text[node->end - 1]))
            node->end--;
        }
      add_anchor (reader, node, (const char *) event->data.scalar.anchor);
      return attach (reader, node, error);

    case YAML_ALIAS_EVENT:
      {
        McpYamlNode *target = g_hash_table_lookup (reader->anchors, event->data.alias.anchor);

        if (target == NULL || target->open)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("line %u: the alias *%s has no anchor before it"),
                         line, (const char *) event->data.alias.anchor);
            return FALSE;
          }
        node = node_new (reader, MCP_YAML_ALIAS, event);
        node->target = target;
        return attach (reader, node, error);
      }

    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    default:
      return TRUE;
    }
}

static gboolean
is_digits (const char *s,
           const char *set)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (strchr (set, *s) == NULL)
      return FALSE;
  return TRUE;
}

/* [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
static gboolean
is_core_float (const char *s)
{
  gboolean digits = FALSE;

  if (*s == '-' || *s == '+')
    s++;
  while (g_ascii_isdigit (*s))
    s++, digits = TRUE;
  if (*s == '.')
    {
      s++;
      if (!digits && !g_ascii_isdigit (*s))
        return FALSE;
      while (g_ascii_isdigit (*s))
        s++, digits = TRUE;
    }
  if (!digits)
    return FALSE;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      if (*s == '-' || *s == '+')
        s++;
      if (!g_ascii_isdigit (*s))
        return FALSE;
      while (g_ascii_isdigit (*s))
        s++;
    }

  return *s == '\0';
}

JsonNode *
mcp_yaml_resolve_plain (const char  *value,
                        guint        line,
                        GError     **error)
{
  static const char * const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
  static const char * const trues[] = { "true", "True", "TRUE", NULL };
  static const char * const falses[] = { "false", "False", "FALSE", NULL };
  static const char * const not_numbers[] = {
    ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
    ".nan", ".NaN", ".NAN", NULL
  };
  JsonNode *node;
  const char *digits = value + (value[0] == '-' || value[0] == '+');

  if (g_strv_contains (nulls, value))
    return json_node_new (JSON_NODE_NULL);
  if (g_strv_contains (trues, value) || g_strv_contains (falses, value))
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, value[0] == 't' || value[0] == 'T');
      return node;
    }

  if (g_str_has_prefix (value, "0o") || g_str_has_prefix (value, "0x"))
    {
      gboolean hex = value[1] == 'x';
      guint64 number;

      if (is_digits (value + 2, hex ? "0123456789abcdefABCDEF" : "01234567"))
        {
          if (!g_ascii_string_to_unsigned (value + 2, hex ? 16 : 8, 0, G_MAXINT64, &number, NULL))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("line %u: %s is not a number JSON can hold"), line, value);
              return NULL;
            }
          node = json_node_new (JSON_NODE_VALUE);
          json_node_set_int (node, (gint64) number);
          return node;
        }
    }
  else if (is_digits (digits, "0123456789"))
    {
      gint64 number;

      node = json_node_new (JSON_NODE_VALUE);
      if (g_ascii_string_to_signed (value[0] == '+' ? value + 1 : value, 10,
                                    G_MININT64, G_MAXINT64, &number, NULL))
        json_node_set_int (node, number);
      else
        json_node_set_double (node, g_ascii_strtod (value, NULL));
      return node;
    }
  else if (is_core_float (value))
    {
      double number = g_ascii_strtod (value, NULL);

      if (!isfinite (number))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u: %s is not a number JSON can hold"), line, value);
          return NULL;
        }
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, number);
      return node;
    }
  else if (g_strv_contains (not_numbers, value))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("line %u: %s is not a number JSON can hold"), line, value);
      return NULL;
    }

  node = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (node, value);
  return node;
}

static JsonNode *
build_scalar (McpYamlNode  *node,
              GError      **error)
{
  JsonNode *json;

  if (node->tag != NULL && strcmp (node->tag, YAML_TAG_PREFIX "str") == 0)
    goto string;
  if (node->style != YAML_PLAIN_SCALAR_STYLE && node->tag == NULL)
    goto string;
  if (node->tag != NULL && strcmp (node->tag, "!") == 0)
    goto string;

  json = mcp_yaml_resolve_plain (node->value, node->line, error);
  if (json != NULL && node->tag != NULL)
    {
      const char *name = node->tag + strlen (YAML_TAG_PREFIX);
      GType type = json_node_get_value_type (json);
      gboolean fits = JSON_NODE_HOLDS_NULL (json) ? strcmp (name, "null") == 0
                    : type == G_TYPE_BOOLEAN ? strcmp (name, "bool") == 0
                    : type == G_TYPE_INT64 ? strcmp (name, "int") == 0 || strcmp (name, "float") == 0
                    : type == G_TYPE_DOUBLE ? strcmp (name, "float") == 0
                    : FALSE;

      if (!fits)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u: the tag %s is not supported"), node->line, node->tag);
          g_clear_pointer (&json, json_node_unref);
        }
    }
  return json;

string:
  json = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (json, node->value);
  return json;
}

static JsonNode *build (Reader       *reader,
                        McpYamlNode  *node,
                        guint         depth,
                        guint         expanding,
                        GError      **error);

/* The mappings a "<<" key merges in: a mapping, or a sequence of them. */
static gboolean
merge_into (JsonObject  *object,
            JsonNode    *merged,
            guint        line,
            GError     **error)
{
  JsonArray *array;

  if (JSON_NODE_HOLDS_OBJECT (merged))
    {
      JsonObject *from = json_node_get_object (merged);
      g_autoptr(GList) members = json_object_get_members (from);

      for (GList *l = members; l != NULL; l = l->next)
        if (!json_object_has_member (object, l->data))
          json_object_set_member (object, l->data,
                                  json_node_copy (json_object_get_member (from, l->data)));
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (merged))
    goto invalid;

  array = json_node_get_array (merged);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
      goto invalid;
  for (guint i = 0; i < json_array_get_length (array); i++)
    merge_into (object, json_array_get_element (array, i), line, NULL);
  return TRUE;

invalid:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("line %u: a key that is not a string"), line);
  return FALSE;
}

static JsonNode *
build_mapping (Reader       *reader,
               McpYamlNode  *node,
               guint         depth,
               guint         expanding,
               GError      **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GPtrArray) merges = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr(GPtrArray) merge_lines = g_ptr_array_new ();
  JsonNode *json;

  for (guint i = 0; i + 1 < node->children->len; i += 2)
    {
      McpYamlNode *key = g_ptr_array_index (node->children, i);
      JsonNode *value = build (reader, g_ptr_array_index (node->children, i + 1),
                               depth + 1, expanding, error);

      if (value == NULL)
        return NULL;
      if (key->style == YAML_PLAIN_SCALAR_STYLE && key->tag == NULL &&
          strcmp (key->value, "<<") == 0)
        {
          g_ptr_array_add (merges, value);
          g_ptr_array_add (merge_lines, GUINT_TO_POINTER (key->line));
          continue;
        }
      if (json_object_has_member (object, key->value))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u: the key “%s” appears twice"), key->line, key->value);
          json_node_unref (value);
          return NULL;
        }
      json_object_set_member (object, key->value, value);
    }

  /* explicit keys win over merged ones, and earlier merges over later */
  for (guint i = 0; i < merges->len; i++)
    if (!merge_into (object, g_ptr_array_index (merges, i),
                     GPOINTER_TO_UINT (g_ptr_array_index (merge_lines, i)), error))
      return NULL;

  json = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (json, object);
  return json;
}

static JsonNode *
build (Reader       *reader,
       McpYamlNode  *node,
       guint         depth,
       guint         expanding,
       GError      **error)
{
  JsonNode *json;

  if (depth > MCP_YAML_MAX_DEPTH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("line %u: nested deeper than 64 levels"), node->line);
      return NULL;
    }
  /* each alias is expanded again where it is used: a bound on what all
   * of them make together keeps a "billion laughs" small */
  if (expanding > 0 && ++reader->expanded > MCP_YAML_MAX_EXPANSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("line %u: aliases expand to more than 10,000 values"), expanding);
      return NULL;
    }

  switch (node->kind)
    {
    case MCP_YAML_ALIAS:
      return build (reader, node->target, depth, expanding > 0 ? expanding : node->line, error);

    case MCP_YAML_SCALAR:
      return build_scalar (node, error);

    case MCP_YAML_MAPPING:
      return build_mapping (reader, node, depth, expanding, error);

    case MCP_YAML_SEQUENCE:
    default:
      {
        g_autoptr(JsonArray) array = json_array_new ();

        for (guint i = 0; i < node->children->len; i++)
          {
            JsonNode *item = build (reader, g_ptr_array_index (node->children, i),
                                    depth + 1, expanding, error);

            if (item == NULL)
              return NULL;
            json_array_add_element (array, item);
          }
        json = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (json, array);
        return json;
      }
    }
}

gboolean
mcp_yaml_read (const char   *text,
               gsize         length,
               McpYamlNode **tree,
               JsonNode    **root,
               GError      **error)
{
  Reader reader = { 0, };
  yaml_parser_t parser;
  gboolean ok = TRUE;
  JsonNode *json;

  if (text == NULL)
    text = "";
  if (!check_text (text, length, error))
    return FALSE;

  reader.base = length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  reader.text = text + reader.base;
  reader.length = length - reader.base;
  reader.anchors = g_hash_table_new (g_str_hash, g_str_equal);
  reader.stack = g_ptr_array_new ();

  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) reader.text, reader.length);
  while (ok)
    {
      yaml_event_t event;
      gboolean done;

      if (!yaml_parser_parse (&parser, &event))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("line %u, column %u: %s"),
                       (guint) parser.problem_mark.line + 1, (guint) parser.problem_mark.column + 1,
                       parser.problem != NULL ? parser.problem : "?");
          ok = FALSE;
          break;
        }
      done = event.type == YAML_STREAM_END_EVENT;
      ok = read_event (&reader, &event, error);
      yaml_event_delete (&event);
      if (done)
        break;
    }
  yaml_parser_delete (&parser);

  /* an unfinished collection is owned by its parent, or is the root */
  g_ptr_array_unref (reader.stack);
  if (!ok)
    {
      mcp_yaml_node_free (reader.root);
      g_hash_table_unref (reader.anchors);
      return FALSE;
    }

  if (reader.root == NULL)
    {
      json = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (json, json_object_new ());
    }
  else
    json = build (&reader, reader.root, 1, 0, error);
  g_hash_table_unref (reader.anchors);
  if (json == NULL)
    {
      mcp_yaml_node_free (reader.root);
      return FALSE;
    }

  if (tree != NULL)
    *tree = reader.root;
  else
    mcp_yaml_node_free (reader.root);
  if (root != NULL)
    *root = json;
  else
    json_node_unref (json);

  return TRUE;
}
