/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-client-shape"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-client-copy.h"
#include "mcp-client-shape.h"
#include "mcp-json-private.h"

/* Each client's shape (mcp-client-shape.h) and the preview's diff
 * (mcp_text_diff()) over what a settings file may hold.
 *
 * The input is a JSON object: one server entry as some client's file has
 * it. It is read as every client's entry; each entry that converts is
 * written back into every client's shape, as a new entry and over the
 * input (as the entry the target file has), with VS Code's inputs asked
 * for; each result converts back again. The diff of the input's text
 * against the result's is made too.
 *
 * Checks: a conversion gives an entry or an error, never both, never
 * neither; an error is MCP_ERROR_INVALID_CONFIG with a UTF-8 message; a
 * note is non-empty UTF-8; an entry written over the input and read again
 * by the same client is what was written (the round trip); a diff is NULL
 * exactly when the texts are equal, and starts with its headers.
 * Warnings and criticals are fatal. */

#define HOME "/fuzz/home"
#define PROJECT "/fuzz/project"

static void
fail (const char *what)
{
  g_printerr ("fuzz-client-shape: %s\n", what);
  abort ();
}

static void
check_outcome (JsonObject *result,
               GError     *error,
               GPtrArray  *notes)
{
  if ((result == NULL) == (error == NULL))
    fail ("a conversion gave both an entry and an error, or neither");
  if (error != NULL && (!g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG) ||
                        !g_utf8_validate (error->message, -1, NULL)))
    fail ("an error that is not MCP_ERROR_INVALID_CONFIG, or not UTF-8");
  for (guint i = 0; notes != NULL && i < notes->len; i++)
    {
      const char *note = g_ptr_array_index (notes, i);

      if (note == NULL || note[0] == '\0' || !g_utf8_validate (note, -1, NULL))
        fail ("an empty note, or one that is not UTF-8");
    }
}

static void
check_diff (const char *before,
            const char *after)
{
  g_autofree char *diff = mcp_text_diff ("f", before, after);

  if ((diff == NULL) != (g_strcmp0 (before, after) == 0))
    fail ("a diff of equal texts, or none of different ones");
  if (diff != NULL && !g_str_has_prefix (diff, "--- f\n+++ f\n@@ -"))
    fail ("a diff without its headers");
}

static char *
object_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  GString *text = g_string_new (NULL);

  mcp_json_append (text, node);
  return g_string_free (text, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *input = NULL;
  JsonObject *native;

  fuzz_abort_on_warnings ();

  root = mcp_json_parse ((const char *) data, size, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  native = json_node_get_object (root);
  input = g_strndup ((const char *) data, size);

  for (guint from = 0; from < MCP_CLIENT_KIND_COUNT; from++)
    {
      g_autoptr(JsonArray) inputs = json_array_new ();
      McpClientShapeContext context = { HOME, PROJECT, NULL, NULL };
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) entry = NULL;

      entry = mcp_client_shape_to_plugboard (from, "fuzz", native, &context, notes, &error);
      check_outcome (entry, error, notes);
      if (entry == NULL)
        continue;

      for (guint to = 0; to < MCP_CLIENT_KIND_COUNT; to++)
        {
          McpClientShapeContext out_context = { HOME, PROJECT, NULL, inputs };
          g_autoptr(GPtrArray) out_notes = g_ptr_array_new_with_free_func (g_free);
          g_autoptr(GError) out_error = NULL;
          g_autoptr(JsonObject) fresh = NULL;
          g_autoptr(JsonObject) over = NULL;

          fresh = mcp_client_shape_from_plugboard (to, "fuzz", entry, NULL, &out_context, out_notes, &out_error);
          check_outcome (fresh, out_error, out_notes);
          g_clear_error (&out_error);

          over = mcp_client_shape_from_plugboard (to, "fuzz", entry, native, &out_context, out_notes, &out_error);
          check_outcome (over, out_error, out_notes);
          if (over != NULL)
            {
              g_autofree char *text = object_text (over);

              check_diff (input, text);
            }

          /* written by a client and read back by it: what was written */
          if (fresh != NULL && to == from)
            {
              g_autoptr(GError) again_error = NULL;
              g_autoptr(JsonObject) again = NULL;
              g_autoptr(JsonObject) back = NULL;

              again = mcp_client_shape_to_plugboard (to, "fuzz", fresh, &context, NULL, &again_error);
              check_outcome (again, again_error, NULL);
              if (again != NULL)
                {
                  back = mcp_client_shape_from_plugboard (to, "fuzz", again, fresh, &context, NULL, &again_error);
                  check_outcome (back, again_error, NULL);
                  if (back != NULL)
                    {
                      g_autoptr(JsonNode) a = json_node_init_object (json_node_alloc (), fresh);
                      g_autoptr(JsonNode) b = json_node_init_object (json_node_alloc (), back);

                      if (!mcp_json_equal (a, b))
                        fail ("an entry written and read back by the same client changed");
                    }
                }
            }
        }
    }

  return 0;
}
