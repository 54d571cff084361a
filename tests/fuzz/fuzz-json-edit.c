/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-json-edit"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-json-document.h"
#include "mcp-json-private.h"

/* McpJsonDocument, the format-preserving editor: one operation on one text.
 *
 * The input is a line of choice bytes, a newline, then the document text
 * (no newline: all choices and an empty document). Each choice takes the
 * next byte modulo the number of options (0 once they run out), in this
 * order: the dialect (JSON, JSONC); the operation (set, update, remove,
 * rename, copy, append, remove_element); the path's length (1 to 3) and
 * at each level a member of the object there, in text order, or one of
 * new_names; then what the operation needs: a value (value_kind), the new
 * name, the source path of a copy, or an element's index.
 *
 * When mcp_json_document_new() accepts the text, after the operation:
 * - the text still parses in the same dialect, to the document's root, and
 *   can be opened again; a byte order mark stays;
 * - a refused operation says why and leaves the text byte-identical;
 * - a successful one leaves the bytes of every member off the edited path
 *   as they were (each sibling at each level along the path, compared
 *   through mcp_json_document_get_range());
 * - and the value is what was asked: set and update put their value
 *   (mcp_json_equal), remove leaves nothing, rename moves the value's bytes
 *   to the new name, copy puts the source's value, append adds the value
 *   as the last element and remove_element takes one.
 * Warnings and criticals are fatal: "An edit made the JSON text invalid" is
 * the editor catching a splice of its own that went wrong.
 *
 * With FUZZ_VERBOSE set in the environment, each input's operation, path,
 * value and outcome are printed: to see what an input in the corpus does. */

typedef enum
{
  OP_SET,
  OP_UPDATE,
  OP_REMOVE,
  OP_RENAME,
  OP_COPY,
  OP_APPEND,
  OP_REMOVE_ELEMENT,
  N_OPS
} Op;

static const char * const op_names[] = {
  "set", "update", "remove", "rename", "copy", "append", "remove_element",
};

/* Names that may not be there: the empty name, ones that need escapes,
 * ones a settings file has. */
static const char * const new_names[] = {
  "new", "", "mcpServers", "servers", "enabled", "a b.c", "\xc3\xa9\"\\\t\xe2\x80\xa8",
};

static const char * const strings[] = {
  "", "x", "\xc3\xa9", "a\"b\\c\n\t", "${HOME}", "\xf0\x9f\x98\x80", "\xe2\x80\xa8//*", "\x7f\x1f",
};

static const double doubles[] = {
  1.5e10, 0.1, -0.0, 1e300, 5e-324, 12345678901234567890.0, -2.5,
};

static const gint64 ints[] = {
  0, -1, 1, G_MAXINT64, G_MININT64, 8976, 12345678901234567,
};

typedef struct
{
  const guint8 *data;
  gsize         length;
  gsize         at;
} Choices;

static guint
choose (Choices *choices,
        guint    n)
{
  if (n == 0 || choices->at >= choices->length)
    return 0;

  return choices->data[choices->at++] % n;
}

static void
fail (const char *what)
{
  g_printerr ("fuzz-json-edit: %s\n", what);
  abort ();
}

static void
print_path (const char         *label,
            const char * const *path)
{
  g_printerr ("%s:", label);
  for (guint i = 0; path[i] != NULL; i++)
    g_printerr (" \"%s\"", path[i]);
  g_printerr ("\n");
}

/* @length bytes and a nul; unlike g_strndup(), whatever bytes they are
 * (JSONC allows a nul in a comment) */
static char *
dup_bytes (const char *bytes,
           gsize       length)
{
  char *copy = g_malloc (length + 1);

  memcpy (copy, bytes, length);
  copy[length] = '\0';
  return copy;
}

static JsonObject *
object_at (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* Paths: NULL-terminated arrays of names, the way the editor takes them */

#define PATH(p) ((const char * const *) (p)->pdata)

static guint
path_length (GPtrArray *path)
{
  return path->len - 1;
}

/* The value at the first @length names of @path in @root, or NULL. */
static JsonNode *
lookup (JsonNode  *root,
        GPtrArray *path,
        guint      length)
{
  JsonNode *node = root;

  for (guint i = 0; i < length && node != NULL; i++)
    node = object_at (node) != NULL ? json_object_get_member (object_at (node), path->pdata[i]) : NULL;

  return node;
}

/* @length names, each one of the members of the object there (when there
 * is one) or, unless @existing_only, one of new_names. */
static GPtrArray *
choose_path (Choices  *choices,
             JsonNode *root,
             guint     length,
             gboolean  existing_only)
{
  GPtrArray *path = g_ptr_array_new_with_free_func (g_free);
  JsonNode *node = root;

  for (guint i = 0; i < length; i++)
    {
      JsonObject *object = object_at (node);
      g_autoptr(GList) names = object != NULL ? json_object_get_members (object) : NULL;
      guint n = g_list_length (names);
      guint k = choose (choices, existing_only ? n : n + G_N_ELEMENTS (new_names));
      const char *name;

      if (k < n)
        name = g_list_nth_data (names, k);
      else if (existing_only)
        break;
      else
        name = new_names[k - n];

      g_ptr_array_add (path, g_strdup (name));
      node = object != NULL ? json_object_get_member (object, name) : NULL;
    }
  g_ptr_array_add (path, NULL);

  return path;
}

/* Values */

static JsonNode *choose_value (Choices  *choices,
                               JsonNode *root,
                               JsonNode *current,
                               guint     depth);

static char *
choose_string (Choices *choices)
{
  guint k = choose (choices, G_N_ELEMENTS (strings) + 1);
  guint n;
  g_autoptr(GString) raw = NULL;

  if (k < G_N_ELEMENTS (strings))
    return g_strdup (strings[k]);

  /* a few bytes of the choices, made UTF-8 */
  n = choose (choices, 8);
  raw = g_string_new (NULL);
  for (guint i = 0; i < n && choices->at < choices->length; i++)
    g_string_append_c (raw, choices->data[choices->at++]);

  return g_utf8_make_valid (raw->str, raw->len);
}

/* A value somewhere in @root: an object's member or an array's element,
 * a few levels down. */
static JsonNode *
choose_node (Choices  *choices,
             JsonNode *root)
{
  JsonNode *node = root;

  for (guint depth = 0; depth < 4 && node != NULL; depth++)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));
          guint k = choose (choices, g_list_length (members) + 1);

          if (k == 0)
            break;
          node = json_object_get_member (json_node_get_object (node), g_list_nth_data (members, k - 1));
        }
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          guint k = choose (choices, json_array_get_length (array) + 1);

          if (k == 0)
            break;
          node = json_array_get_element (array, k - 1);
        }
      else
        {
          break;
        }
    }

  return node;
}

/* @node with one change somewhere in it: what update() is for. */
static JsonNode *
mutate (Choices  *choices,
        JsonNode *node,
        JsonNode *root,
        guint     depth)
{
  JsonNode *copy = json_node_copy (node);

  if (depth < 3 && JSON_NODE_HOLDS_OBJECT (copy))
    {
      /* a copy of its own: json_node_copy() shares the object */
      JsonObject *object = json_object_new ();
      g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));
      guint n = g_list_length (members);
      guint target = choose (choices, n + 1);
      guint action = choose (choices, 3);
      guint i = 0;

      for (GList *l = members; l != NULL; l = l->next, i++)
        {
          JsonNode *member = json_object_get_member (json_node_get_object (node), l->data);

          if (i != target)
            json_object_set_member (object, l->data, json_node_copy (member));
          else if (action == 0)
            json_object_set_member (object, l->data, mutate (choices, member, root, depth + 1));
          else if (action == 1)
            json_object_set_member (object, l->data, choose_value (choices, root, NULL, depth + 1));
          /* else: left out */
        }
      if (target == n)
        {
          g_autofree char *name = choose_string (choices);

          json_object_set_member (object, name, choose_value (choices, root, NULL, depth + 1));
        }
      json_node_take_object (copy, object);
      return copy;
    }

  if (depth < 3 && JSON_NODE_HOLDS_ARRAY (copy))
    {
      JsonArray *old = json_node_get_array (node);
      JsonArray *array = json_array_new ();
      guint n = json_array_get_length (old);
      guint target = choose (choices, n + 1);
      guint action = choose (choices, 3);

      for (guint i = 0; i < n; i++)
        {
          JsonNode *element = json_array_get_element (old, i);

          if (i != target)
            json_array_add_element (array, json_node_copy (element));
          else if (action == 0)
            json_array_add_element (array, mutate (choices, element, root, depth + 1));
          else if (action == 1)
            json_array_add_element (array, choose_value (choices, root, NULL, depth + 1));
          /* else: left out */
        }
      if (target == n)
        json_array_add_element (array, choose_value (choices, root, NULL, depth + 1));
      json_node_take_array (copy, array);
      return copy;
    }

  json_node_unref (copy);
  return choose_value (choices, root, NULL, depth + 1);
}

/* A small value: a literal, a container of a few, a copy of a value of the
 * document, or @current changed a little. */
static JsonNode *
choose_value (Choices  *choices,
              JsonNode *root,
              JsonNode *current,
              guint     depth)
{
  guint kind = choose (choices, depth < 3 ? 12 : 8);
  JsonNode *node;

  switch (kind)
    {
    case 0:
      return json_node_init_null (json_node_alloc ());
    case 1:
      return json_node_init_boolean (json_node_alloc (), choose (choices, 2));
    case 2:
      return json_node_init_int (json_node_alloc (), ints[choose (choices, G_N_ELEMENTS (ints))]);
    case 3:
      return json_node_init_int (json_node_alloc (), (gint8) choose (choices, 256));
    case 4:
      return json_node_init_double (json_node_alloc (), doubles[choose (choices, G_N_ELEMENTS (doubles))]);
    case 5:
    case 6:
      {
        g_autofree char *text = choose_string (choices);

        return json_node_init_string (json_node_alloc (), text);
      }
    case 7:
      {
        node = choose_node (choices, root);

        return node != NULL ? json_node_copy (node) : json_node_init_null (json_node_alloc ());
      }
    case 8:
      {
        JsonObject *object = json_object_new ();
        guint n = choose (choices, 3);

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(GPtrArray) name = choose_path (choices, root, 1, FALSE);

            json_object_set_member (object, name->pdata[0], choose_value (choices, root, NULL, depth + 1));
          }
        node = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (node, object);
        return node;
      }
    case 9:
      {
        JsonArray *array = json_array_new ();
        guint n = choose (choices, 4);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array, choose_value (choices, root, NULL, depth + 1));
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
        return node;
      }
    case 10:
    case 11:
    default:
      return mutate (choices, current != NULL ? current : root, root, depth);
    }
}

/* The bytes of each member off the edited path */

typedef struct
{
  char  **path;
  char   *bytes;
  gsize   length;
} Sibling;

static void
sibling_free (Sibling *sibling)
{
  g_strfreev (sibling->path);
  g_free (sibling->bytes);
  g_free (sibling);
}

static gboolean
get_bytes (McpJsonDocument     *document,
           const char * const  *path,
           char               **bytes,
           gsize               *length)
{
  const char *text = mcp_json_document_get_text (document, NULL);
  gsize start, end;

  if (!mcp_json_document_get_range (document, path, &start, &end))
    return FALSE;

  if (start > end)
    fail ("a range that ends before it starts");
  *bytes = dup_bytes (text + start, end - start);
  *length = end - start;
  return TRUE;
}

/* At each level along @path that is an object, every member but the one
 * the path goes on with (and @also, a rename's new name). */
static GPtrArray *
collect_siblings (McpJsonDocument    *document,
                  const char * const *path,
                  const char         *also)
{
  GPtrArray *siblings = g_ptr_array_new_with_free_func ((GDestroyNotify) sibling_free);
  guint length = g_strv_length ((char **) path);

  for (guint level = 0; level < length; level++)
    {
      g_auto(GStrv) prefix = g_strdupv ((char **) path);
      JsonObject *object;
      g_autoptr(GList) members = NULL;

      g_free (prefix[level]);
      prefix[level] = NULL;
      for (guint i = level + 1; i < length; i++)
        g_clear_pointer (&prefix[i], g_free);

      object = object_at (mcp_json_document_lookup (document, (const char * const *) prefix));
      if (object == NULL)
        break;

      members = json_object_get_members (object);
      for (GList *l = members; l != NULL; l = l->next)
        {
          Sibling *sibling;
          GStrvBuilder *builder;

          if (strcmp (l->data, path[level]) == 0 ||
              (also != NULL && level == length - 1 && strcmp (l->data, also) == 0))
            continue;

          sibling = g_new0 (Sibling, 1);
          builder = g_strv_builder_new ();
          g_strv_builder_addv (builder, (const char **) prefix);
          g_strv_builder_add (builder, l->data);
          sibling->path = g_strv_builder_end (builder);
          g_strv_builder_unref (builder);
          if (!get_bytes (document, (const char * const *) sibling->path, &sibling->bytes, &sibling->length))
            {
              print_path ("member", (const char * const *) sibling->path);
              fail ("a member of the parsed value that has no range");
            }
          g_ptr_array_add (siblings, sibling);
        }
    }

  return siblings;
}

static void
check_siblings (McpJsonDocument *document,
                GPtrArray       *siblings)
{
  for (guint i = 0; i < siblings->len; i++)
    {
      Sibling *sibling = siblings->pdata[i];
      g_autofree char *bytes = NULL;
      gsize length;

      if (!get_bytes (document, (const char * const *) sibling->path, &bytes, &length) ||
          length != sibling->length || memcmp (bytes, sibling->bytes, length) != 0)
        {
          print_path ("member", (const char * const *) sibling->path);
          g_printerr ("before: %.*s\nafter: %.*s\n", (int) sibling->length, sibling->bytes,
                      bytes != NULL ? (int) length : 6, bytes != NULL ? bytes : "(none)");
          fail ("a member off the edited path whose bytes changed");
        }
    }
}

static guint
array_length (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_array_get_length (json_node_get_array (node)) : 0;
}

static gboolean
run (McpJsonDocument  *document,
     Op                op,
     GPtrArray        *path,
     JsonNode         *value,
     const char       *new_name,
     GPtrArray        *source,
     guint             index,
     GError          **error)
{
  switch (op)
    {
    case OP_SET:
      return mcp_json_document_set (document, PATH (path), value, error);
    case OP_UPDATE:
      return mcp_json_document_update (document, PATH (path), value, error);
    case OP_REMOVE:
      return mcp_json_document_remove (document, PATH (path), error);
    case OP_RENAME:
      return mcp_json_document_rename (document, PATH (path), new_name, error);
    case OP_COPY:
      return mcp_json_document_copy (document, PATH (path), document, PATH (source), error);
    case OP_APPEND:
      return mcp_json_document_append (document, PATH (path), value, error);
    case OP_REMOVE_ELEMENT:
      return mcp_json_document_remove_element (document, PATH (path), index, error);
    case N_OPS:
    default:
      g_assert_not_reached ();
    }
}

/* Whether the value at @path is what @op asked for: NULL, or what is
 * wrong. */
static const char *
check_result (McpJsonDocument *document,
              Op               op,
              GPtrArray       *path,
              JsonNode        *before,
              JsonNode        *value,
              const char      *new_name,
              const char      *old_bytes,
              gsize            old_bytes_length,
              GPtrArray       *source,
              guint            index)
{
  JsonNode *now = mcp_json_document_lookup (document, PATH (path));
  JsonNode *old = lookup (before, path, path_length (path));

  switch (op)
    {
    case OP_SET:
    case OP_UPDATE:
      if (!mcp_json_equal (now, value))
        return "a value that is not what was set";
      break;

    case OP_REMOVE:
      if (now != NULL)
        return "a member that is still there after remove";
      break;

    case OP_RENAME:
      {
        g_auto(GStrv) renamed = g_strdupv ((char **) PATH (path));
        guint last = path_length (path) - 1;
        g_autofree char *bytes = NULL;
        gsize bytes_length;

        if (strcmp (renamed[last], new_name) == 0)
          return NULL;
        g_free (renamed[last]);
        renamed[last] = g_strdup (new_name);
        if (now != NULL)
          return "a renamed member that is still there under its old name";
        if (!get_bytes (document, (const char * const *) renamed, &bytes, &bytes_length) ||
            old_bytes == NULL || bytes_length != old_bytes_length ||
            memcmp (bytes, old_bytes, bytes_length) != 0)
          return "a renamed member whose value is not the bytes it had";
      }
      break;

    case OP_COPY:
      {
        JsonNode *copied = lookup (before, source, path_length (source));

        if (copied == NULL || !mcp_json_equal (now, copied))
          return "a copy that is not the source's value";
      }
      break;

    case OP_APPEND:
      if (array_length (now) != array_length (old) + 1 ||
          !mcp_json_equal (json_array_get_element (json_node_get_array (now), array_length (now) - 1), value))
        return "an append that did not add the value at the end";
      break;

    case OP_REMOVE_ELEMENT:
      if (old == NULL || !JSON_NODE_HOLDS_ARRAY (old) || index >= array_length (old) ||
          now == NULL || !JSON_NODE_HOLDS_ARRAY (now) || array_length (now) != array_length (old) - 1)
        return "a remove_element that did not take one element";
      break;

    case N_OPS:
    default:
      g_assert_not_reached ();
    }

  return NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const uint8_t *newline = memchr (data, '\n', size);
  Choices choices = { data, newline != NULL ? (gsize) (newline - data) : size, 0 };
  const char *text = newline != NULL ? (const char *) newline + 1 : "";
  gsize length = newline != NULL ? size - (newline + 1 - data) : 0;
  g_autoptr(McpJsonDocument) document = NULL;
  g_autoptr(McpJsonDocument) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GPtrArray) path = NULL;
  g_autoptr(GPtrArray) source = NULL;
  g_autoptr(GPtrArray) siblings = NULL;
  g_autofree char *new_name = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *old_bytes = NULL;
  gsize old_length = 0;
  gsize old_bytes_length = 0;
  McpJsonDialect dialect;
  guint index = 0;
  gboolean done;
  const char *after;
  const char *wrong;
  gsize after_length;
  Op op;

  fuzz_abort_on_warnings ();

  dialect = choose (&choices, 2) == 0 ? MCP_JSON_DIALECT_JSON : MCP_JSON_DIALECT_JSONC;
  op = choose (&choices, N_OPS);

  document = mcp_json_document_new (text, length, dialect, &error);
  if (document == NULL)
    {
      if (error == NULL || error->message[0] == '\0')
        fail ("a text refused without a message");
      return 0;
    }

  before = json_node_copy (mcp_json_document_get_root (document));
  text = mcp_json_document_get_text (document, &old_length);
  old_text = dup_bytes (text, old_length);
  path = choose_path (&choices, before, 1 + choose (&choices, 3), FALSE);

  switch (op)
    {
    case OP_SET:
    case OP_UPDATE:
    case OP_APPEND:
      value = choose_value (&choices, before, lookup (before, path, path_length (path)), 0);
      break;
    case OP_RENAME:
      {
        /* a sibling's name (taken: refused) or a new one */
        g_autoptr(GPtrArray) name = choose_path (&choices, lookup (before, path, path_length (path) - 1),
                                                 1, FALSE);

        new_name = g_strdup (name->pdata[0]);
      }
      break;
    case OP_COPY:
      source = choose_path (&choices, before, 1 + choose (&choices, 3), TRUE);
      if (path_length (source) == 0)
        g_ptr_array_insert (source, 0, g_strdup ("new"));
      break;
    case OP_REMOVE_ELEMENT:
      index = choose (&choices, array_length (lookup (before, path, path_length (path))) + 2);
      break;
    case OP_REMOVE:
    case N_OPS:
    default:
      break;
    }

  if (g_getenv ("FUZZ_VERBOSE") != NULL)
    {
      g_autoptr(GString) shown = g_string_new (NULL);

      if (value != NULL)
        mcp_json_append (shown, value);
      print_path (op_names[op], PATH (path));
      g_printerr ("  %s%s%s%s", dialect == MCP_JSON_DIALECT_JSONC ? "JSONC" : "JSON",
                  value != NULL ? " value " : "", shown->str, new_name != NULL ? " new name " : "");
      if (new_name != NULL)
        g_printerr ("\"%s\"", new_name);
      if (source != NULL)
        print_path (" from", PATH (source));
      else if (op == OP_REMOVE_ELEMENT)
        g_printerr (" index %u\n", index);
      else
        g_printerr ("\n");
    }

  siblings = collect_siblings (document, PATH (path), new_name);
  if (op == OP_RENAME)
    get_bytes (document, PATH (path), &old_bytes, &old_bytes_length);

  done = run (document, op, path, value, new_name, source, index, &error);
  if (g_getenv ("FUZZ_VERBOSE") != NULL)
    g_printerr ("  %s\n", done ? "done" : error->message);
  if (done != (error == NULL) || (error != NULL && (error->message == NULL || error->message[0] == '\0')))
    fail ("an operation whose answer and error disagree, or an error without a message");

  /* whatever happened, the text is a document of its dialect */
  after = mcp_json_document_get_text (document, &after_length);
  parsed = mcp_json_document_parse (after, after_length, dialect, &parse_error);
  if (parsed == NULL)
    {
      g_printerr ("%s: %s\n%s\n", op_names[op], parse_error->message, after);
      fail ("an operation that left a text that does not parse");
    }
  if (!mcp_json_equal (parsed, mcp_json_document_get_root (document)))
    fail ("a root that is not what the text says");
  reopened = mcp_json_document_new (after, after_length, dialect, &parse_error);
  if (reopened == NULL)
    {
      g_printerr ("%s: %s\n%s\n", op_names[op], parse_error->message, after);
      fail ("an operation that left a text that cannot be opened again");
    }
  if (old_length >= 3 && memcmp (old_text, "\xef\xbb\xbf", 3) == 0 &&
      (after_length < 3 || memcmp (after, "\xef\xbb\xbf", 3) != 0))
    fail ("an operation that lost the byte order mark");

  if (!done)
    {
      if (after_length != old_length || memcmp (after, old_text, old_length) != 0)
        {
          print_path (op_names[op], PATH (path));
          g_printerr ("%s\nbefore:\n%s\nafter:\n%s\n", error->message, old_text, after);
          fail ("a refused operation that changed the text");
        }
      return 0;
    }

  check_siblings (document, siblings);
  wrong = check_result (document, op, path, before, value, new_name, old_bytes, old_bytes_length,
                        source, index);
  if (wrong != NULL)
    {
      print_path (op_names[op], PATH (path));
      g_printerr ("before:\n%s\nafter:\n%s\n", old_text, after);
      fail (wrong);
    }

  return 0;
}
