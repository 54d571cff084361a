/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-toml-document"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-toml-document.h"

/* McpTomlDocument, the TOML reader and editor: a text read, then a few
 * edits made to it.
 *
 * The input is a line of script bytes, a newline, then the TOML text (no
 * newline: all script and an empty text). The script is read a byte at a
 * time (0 once it runs out): for each of up to three edits, the operation
 * (set, update, remove, rename), the path (1 to 3 names, each a member of
 * the table there or one of extra_names) and what the operation needs (a
 * value of the value table, a member's value changed, or a new name).
 *
 * When the text is read, after each edit:
 * - the text reads again, to the document's root;
 * - a refused edit leaves the text as it was, byte for byte;
 * - a made one put what was asked: set and update the value, remove
 *   nothing at the path, rename the old value under the new name.
 * Warnings and criticals abort: "An edit made the TOML text invalid" is
 * the editor catching a splice of its own that went wrong.
 *
 * FUZZ_VERBOSE in the environment prints each edit and its outcome. */

static const char * const extra_names[] = {
  "mcp_servers", "env", "new", "", "a b", "x.y", "\"q\"\\", "\xc3\xa9", "args", "1",
};

static const char * const values[] = {
  "\"npx\"", "7", "-0.5", "true", "[]", "[\"-y\", 2, [true]]", "{}",
  "{\"command\":\"uvx\",\"args\":[\"a\"],\"env\":{\"K\":\"v\"}}",
  "{\"env\":{\"A\":\"1\",\"B\":{\"C\":\"\\n\"}},\"enabled\":false}",
  "{\"x\":[{\"y\":1},{}]}", "\"line\\nbreak \\u0001 \\\"\"", "1e300",
  "null", "{\"a\":null}",
};

typedef struct
{
  const guint8 *bytes;
  gsize         length;
  gsize         next;
} Script;

static guint
script_pick (Script *script,
             guint   n)
{
  guint8 byte = script->next < script->length ? script->bytes[script->next++] : 0;

  return n > 0 ? byte % n : 0;
}

static JsonNode *
member_of (JsonNode   *node,
           const char *name)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_get_member (json_node_get_object (node), name);
}

static JsonNode *
at_path (JsonNode           *root,
         const char * const *path)
{
  for (guint i = 0; path[i] != NULL && root != NULL; i++)
    root = member_of (root, path[i]);
  return root;
}

static char **
pick_path (Script   *script,
           JsonNode *root)
{
  guint length = 1 + script_pick (script, 3);
  char **path = g_new0 (char *, length + 1);
  JsonNode *node = root;

  for (guint i = 0; i < length; i++)
    {
      g_autoptr(GList) names = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
                               ? json_object_get_members (json_node_get_object (node)) : NULL;
      guint n = g_list_length (names);
      guint k = script_pick (script, n + G_N_ELEMENTS (extra_names));

      path[i] = g_strdup (k < n ? g_list_nth_data (names, k) : extra_names[k - n]);
      node = member_of (node, path[i]);
    }

  return path;
}

static JsonNode *
pick_value (Script   *script,
            JsonNode *current)
{
  guint k = script_pick (script, G_N_ELEMENTS (values) + 1);

  if (k == G_N_ELEMENTS (values) && current != NULL && JSON_NODE_HOLDS_OBJECT (current))
    {
      /* the value there with one member changed or left out */
      JsonNode *copy = json_node_copy (current);
      JsonObject *object = json_object_new ();
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      guint n = json_object_get_size (json_node_get_object (current));
      guint target = script_pick (script, n + 1);
      guint i = 0;

      json_object_iter_init (&iter, json_node_get_object (current));
      while (json_object_iter_next (&iter, &name, &member))
        {
          if (i++ != target)
            json_object_set_member (object, name, json_node_copy (member));
          else if (script_pick (script, 2) == 0)
            json_object_set_member (object, name, pick_value (script, member));
        }
      json_node_take_object (copy, object);
      return copy;
    }

  k %= G_N_ELEMENTS (values);
  return mcp_json_parse (values[k], strlen (values[k]), NULL);
}

static void
check_reads_again (McpTomlDocument *document)
{
  g_autoptr(GError) error = NULL;
  gsize length;
  const char *text = mcp_toml_document_get_text (document, &length);
  g_autoptr(JsonNode) again = mcp_toml_document_parse (text, length, &error);

  if (again == NULL)
    {
      g_printerr ("fuzz-toml-document: the text does not read again: %s\n", error->message);
      abort ();
    }
  if (!mcp_json_equal (again, mcp_toml_document_get_root (document)))
    {
      g_printerr ("fuzz-toml-document: the text reads again to another value\n");
      abort ();
    }
}

static void
edit (McpTomlDocument *document,
      Script          *script,
      gboolean         verbose)
{
  static const char * const operations[] = { "set", "update", "remove", "rename" };
  guint operation = script_pick (script, G_N_ELEMENTS (operations));
  g_auto(GStrv) path = pick_path (script, mcp_toml_document_get_root (document));
  const char * const *p = (const char * const *) path;
  g_autoptr(JsonNode) old = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  const char *new_name = NULL;
  gsize before_length;
  gboolean done = FALSE;
  JsonNode *now;

  before = g_strdup (mcp_toml_document_get_text (document, &before_length));
  if (at_path (mcp_toml_document_get_root (document), p) != NULL)
    old = json_node_copy (at_path (mcp_toml_document_get_root (document), p));

  switch (operation)
    {
    case 0:
    case 1:
      value = pick_value (script, old);
      if (verbose)
        {
          g_autofree char *shown = json_to_string (value, FALSE);
          g_autofree char *joined = g_strjoinv ("\" \"", path);

          g_printerr ("(%s \"%s\" %s)\n", operations[operation], joined, shown);
        }
      done = operation == 0 ? mcp_toml_document_set (document, p, value, &error)
                            : mcp_toml_document_update (document, p, value, &error);
      break;
    case 2:
      done = mcp_toml_document_remove (document, p, &error);
      break;
    default:
      new_name = extra_names[script_pick (script, G_N_ELEMENTS (extra_names))];
      done = mcp_toml_document_rename (document, p, new_name, &error);
      break;
    }

  if (verbose)
    {
      g_autofree char *joined = g_strjoinv ("\" \"", path);

      g_autofree char *shown = value != NULL ? json_to_string (value, FALSE) : g_strdup (new_name);

      g_printerr ("%s \"%s\" %s: %s\n%s\n", operations[operation], joined, shown ? shown : "",
                  done ? "done" : error->message, mcp_toml_document_get_text (document, NULL));
    }

  check_reads_again (document);
  now = mcp_toml_document_get_root (document);

  if (!done)
    {
      gsize length;
      const char *text = mcp_toml_document_get_text (document, &length);

      if (error == NULL || length != before_length || memcmp (text, before, length) != 0)
        {
          g_printerr ("fuzz-toml-document: a refused edit changed the text, or said nothing\n");
          abort ();
        }
      return;
    }

  if ((operation <= 1 && !mcp_json_equal (at_path (now, p), value)) ||
      (operation == 2 && at_path (now, p) != NULL))
    {
      g_printerr ("fuzz-toml-document: %s did not make what it was asked\n", operations[operation]);
      abort ();
    }
  if (operation == 3)
    {
      guint length = g_strv_length (path);
      g_autofree char *old_name = g_steal_pointer (&path[length - 1]);

      path[length - 1] = g_strdup (new_name);
      if (!mcp_json_equal (at_path (now, (const char * const *) path), old))
        {
          g_printerr ("fuzz-toml-document: rename lost the value\n");
          abort ();
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const guint8 *newline = memchr (data, '\n', size);
  Script script = { data, newline != NULL ? (gsize) (newline - data) : size, 0 };
  const char *text = newline != NULL ? (const char *) newline + 1 : "";
  gsize length = newline != NULL ? size - (gsize) (newline - data) - 1 : 0;
  gboolean verbose = g_getenv ("FUZZ_VERBOSE") != NULL;
  g_autoptr(McpTomlDocument) document = NULL;
  guint edits;

  fuzz_abort_on_warnings ();

  document = mcp_toml_document_new (text, length, NULL);
  if (document == NULL)
    return 0;
  check_reads_again (document);

  edits = 1 + script_pick (&script, 3);
  for (guint i = 0; i < edits; i++)
    edit (document, &script, verbose);

  return 0;
}
