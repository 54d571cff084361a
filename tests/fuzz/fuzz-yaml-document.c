/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-yaml-document"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-yaml-document.h"

/* McpYamlDocument, Goose's config.yaml read and edited in place: a few
 * edits on one text.
 *
 * The input is a line of choice bytes, a newline, then the YAML text.
 * Each choice takes the next byte modulo the number of options (0 once
 * they run out). For each of up to three edits: the operation (set,
 * update, remove, rename); the path's length (1 to 3) and at each level a
 * member of the mapping there, in order, or one of new_names; then a value
 * (one of values) or a new name.
 *
 * When mcp_yaml_document_new() accepts the text, after each edit:
 * - the text still reads, to the document's root;
 * - a refused edit leaves the text byte-identical;
 * - a successful one leaves what was asked: set and update put the value,
 *   remove leaves nothing, rename moves the value to the new name; and the
 *   other top-level members equal in value.
 * Warnings and criticals are fatal. With FUZZ_VERBOSE set, each edit and
 * its outcome are printed. */

typedef enum
{
  OP_SET,
  OP_UPDATE,
  OP_REMOVE,
  OP_RENAME,
  N_OPS
} Op;

static const char * const op_names[] = { "set", "update", "remove", "rename" };

static const char * const new_names[] = {
  "extensions", "new", "", "a b", "a: b", "#x", "true", "- x", "é\"\\\t",
};

static const char * const values[] = {
  "{\"name\":\"fetch\",\"type\":\"stdio\",\"cmd\":\"uvx\",\"args\":[\"mcp-server-fetch\",\"-y\"],"
  "\"envs\":{\"K\":\"v: w\"},\"enabled\":true,\"timeout\":300}",
  "{\"type\":\"sse\",\"uri\":\"http://localhost:8080/sse\",\"headers\":{}}",
  "{}", "[]", "null", "true", "12", "-0.5", "1e300", "\"\"", "\"x\"", "\"null\"", "\"a\\nb\"",
  "\" lead\"", "[[1,2],{\"a\":[]},\"#\"]", "{\"a\":{\"b\":{\"c\":\"\\u2028\\u0085\\u007f\"}}}",
  "\"\\ufeff...\"",
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
  g_printerr ("fuzz-yaml-document: %s\n", what);
  abort ();
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

static GPtrArray *
choose_path (Choices  *choices,
             JsonNode *root)
{
  GPtrArray *path = g_ptr_array_new_with_free_func (g_free);
  guint length = 1 + choose (choices, 3);
  JsonNode *node = root;

  for (guint i = 0; i < length; i++)
    {
      JsonObject *object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      g_autoptr(GList) names = object != NULL ? json_object_get_members (object) : NULL;
      guint n = g_list_length (names);
      guint k = choose (choices, n + G_N_ELEMENTS (new_names));
      const char *name = k < n ? g_list_nth_data (names, k) : new_names[k - n];

      g_ptr_array_add (path, g_strdup (name));
      node = object != NULL ? json_object_get_member (object, name) : NULL;
    }
  g_ptr_array_add (path, NULL);

  return path;
}

static void
check_reads (McpYamlDocument *document)
{
  g_autoptr(GError) error = NULL;
  gsize length;
  const char *text = mcp_yaml_document_get_text (document, &length);
  g_autoptr(JsonNode) again = mcp_yaml_document_parse (text, length, &error);

  if (again == NULL)
    {
      g_printerr ("%s\n", error->message);
      fail ("the text no longer reads");
    }
  if (!mcp_json_equal (again, mcp_yaml_document_get_root (document)))
    fail ("the text reads as another value than the document's");
}

/* the top-level members off the edited path: equal before and after */
static void
check_others (JsonNode   *before,
              JsonNode   *after,
              const char *first,
              const char *renamed)
{
  JsonObject *old = json_node_get_object (before);
  JsonObject *now = json_node_get_object (after);
  g_autoptr(GList) names = json_object_get_members (old);

  for (GList *l = names; l != NULL; l = l->next)
    {
      if (strcmp (l->data, first) == 0 || (renamed != NULL && strcmp (l->data, renamed) == 0))
        continue;
      if (!mcp_json_equal (json_object_get_member (old, l->data), json_object_get_member (now, l->data)))
        fail ("a member off the edited path changed");
    }
}

static void
edit (McpYamlDocument *document,
      Choices         *choices,
      gboolean         verbose)
{
  JsonNode *root = mcp_yaml_document_get_root (document);
  Op op = choose (choices, N_OPS);
  g_autoptr(GPtrArray) path = choose_path (choices, root);
  const char * const *names = (const char * const *) path->pdata;
  guint n = path->len - 1;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(JsonNode) before = json_node_copy (root);
  g_autoptr(JsonNode) old = NULL;
  g_autofree char *text = g_strdup (mcp_yaml_document_get_text (document, NULL));
  g_autoptr(GError) error = NULL;
  const char *new_name = NULL;
  gboolean ok = FALSE;

  /* json_node_copy() shares objects: the document replaces its root on
   * each edit, so "before" stays as it was */
  if (lookup (root, names, n) != NULL)
    old = json_node_copy (lookup (root, names, n));

  switch (op)
    {
    case OP_SET:
    case OP_UPDATE:
      {
        const char *json = values[choose (choices, G_N_ELEMENTS (values))];

        value = mcp_json_parse (json, strlen (json), NULL);
        if (value == NULL)
          fail ("a value of the table does not parse");
        ok = op == OP_SET ? mcp_yaml_document_set (document, names, value, &error)
                          : mcp_yaml_document_update (document, names, value, &error);
      }
      break;
    case OP_REMOVE:
      ok = mcp_yaml_document_remove (document, names, &error);
      break;
    case OP_RENAME:
    default:
      new_name = new_names[choose (choices, G_N_ELEMENTS (new_names))];
      ok = mcp_yaml_document_rename (document, names, new_name, &error);
      break;
    }

  if (verbose)
    {
      g_printerr ("%s", op_names[op]);
      for (guint i = 0; i < n; i++)
        g_printerr (" \"%s\"", names[i]);
      g_printerr (": %s\n", ok ? "done" : error->message);
    }

  check_reads (document);
  if (!ok)
    {
      if (error == NULL)
        fail ("refused without an error");
      if (strcmp (text, mcp_yaml_document_get_text (document, NULL)) != 0)
        fail ("a refused edit changed the text");
      return;
    }
  if (error != NULL)
    fail ("done with an error");

  root = mcp_yaml_document_get_root (document);
  switch (op)
    {
    case OP_SET:
    case OP_UPDATE:
      if (!mcp_json_equal (lookup (root, names, n), value))
        fail ("the value is not what was set");
      check_others (before, root, names[0], NULL);
      break;
    case OP_REMOVE:
      if (lookup (root, names, n) != NULL)
        fail ("the member is still there");
      check_others (before, root, names[0], NULL);
      break;
    case OP_RENAME:
    default:
      {
        g_auto(GStrv) renamed = g_strdupv ((char **) names);

        g_free (renamed[n - 1]);
        renamed[n - 1] = g_strdup (new_name);
        if (!mcp_json_equal (lookup (root, (const char * const *) renamed, n), old))
          fail ("the renamed member lost its value");
        if (strcmp (names[n - 1], new_name) != 0 && lookup (root, names, n) != NULL)
          fail ("the old name is still there");
        check_others (before, root, names[0], n == 1 ? new_name : NULL);
      }
      break;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const uint8_t *newline = memchr (data, '\n', size);
  gsize choices_length = newline != NULL ? (gsize) (newline - data) : size;
  Choices choices = { data, choices_length, 0 };
  const char *text = newline != NULL ? (const char *) newline + 1 : "";
  gsize length = newline != NULL ? size - choices_length - 1 : 0;
  g_autoptr(McpYamlDocument) document = NULL;
  gboolean verbose = g_getenv ("FUZZ_VERBOSE") != NULL;

  fuzz_abort_on_warnings ();

  document = mcp_yaml_document_new (text, length, NULL);
  if (document == NULL)
    return 0;
  check_reads (document);

  for (guint i = 0; i < 3; i++)
    edit (document, &choices, verbose);

  return 0;
}
