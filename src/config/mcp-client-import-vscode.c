/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-import"

#include "config.h"

#include "mcp-client-import-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"

/* VS Code's variables in an imported entry: ${env:NAME}, ${workspaceFolder},
 * ${userHome}, and what cannot be carried over (${input:…}) noted. */

typedef struct
{
  const ScanData *data;
  JsonObject     *inputs;     /* id → description, from the file's "inputs" */
  GPtrArray      *notes;
} Convert;

static void
add_note (Convert    *convert,
          const char *note)
{
  for (guint i = 0; i < convert->notes->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (convert->notes, i), note))
        return;
    }

  g_ptr_array_add (convert->notes, g_strdup (note));
}

static char *
convert_string (Convert    *convert,
                const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      const char *start = strstr (p, "${");
      const char *end;
      g_autofree char *variable = NULL;

      if (start == NULL || (end = strchr (start + 2, '}')) == NULL)
        {
          g_string_append (out, p);
          break;
        }

      g_string_append_len (out, p, start - p);
      variable = g_strndup (start + 2, end - start - 2);
      p = end + 1;

      if (g_str_has_prefix (variable, "env:"))
        {
          g_string_append_printf (out, "${%s}", variable + strlen ("env:"));
        }
      else if (g_str_equal (variable, "workspaceFolder") && convert->data->project_dir != NULL)
        {
          g_string_append (out, convert->data->project_dir);
        }
      else if (g_str_equal (variable, "userHome"))
        {
          g_string_append (out, convert->data->home);
        }
      else if (g_str_equal (variable, "workspaceFolder"))
        {
          g_string_append_len (out, start, end + 1 - start);
          add_note (convert, _("“${workspaceFolder}” is kept as it is: there is no project folder "
                               "here; replace it with the folder"));
        }
      else if (g_str_has_prefix (variable, "input:"))
        {
          const char *id = variable + strlen ("input:");
          const char *description = NULL;
          g_autofree char *note = NULL;

          if (convert->inputs != NULL && json_object_has_member (convert->inputs, id))
            description = json_object_get_string_member (convert->inputs, id);

          g_string_append_len (out, start, end + 1 - start);
          if (description != NULL)
            /* Translators: the first %s is a VS Code input's id, the second its description */
            note = g_strdup_printf (_("“${input:%s}” (%s) is asked by VS Code when it starts "
                                      "the server: replace it with the value, or with a "
                                      "${VARIABLE} from the environment"), id, description);
          else
            /* Translators: %s is a VS Code input's id */
            note = g_strdup_printf (_("“${input:%s}” is asked by VS Code when it starts the "
                                      "server: replace it with the value, or with a "
                                      "${VARIABLE} from the environment"), id);
          add_note (convert, note);
        }
      else
        {
          g_autofree char *note = NULL;

          g_string_append_len (out, start, end + 1 - start);
          note = g_strdup_printf (_("“${%s}” is a VS Code variable Plugboard does not know: "
                                    "replace it"), variable);
          add_note (convert, note);
        }
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static JsonNode *convert_node (Convert  *convert,
                               JsonNode *node);

static JsonObject *
convert_object (Convert    *convert,
                JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    json_object_set_member (copy, member, convert_node (convert, value));

  return copy;
}

static JsonNode *
convert_node (Convert  *convert,
              JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *copy = json_node_alloc ();

      json_node_init_object (copy, NULL);
      json_node_take_object (copy, convert_object (convert, json_node_get_object (node)));
      return copy;
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      JsonArray *copy = json_array_sized_new (json_array_get_length (array));
      JsonNode *out = json_node_alloc ();

      for (guint i = 0; i < json_array_get_length (array); i++)
        json_array_add_element (copy, convert_node (convert, json_array_get_element (array, i)));

      json_node_init_array (out, NULL);
      json_node_take_array (out, copy);
      return out;
    }

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_autofree char *text = convert_string (convert, json_node_get_string (node));

      return json_node_init_string (json_node_alloc (), text);
    }

  return json_node_copy (node);
}

JsonObject *
mcp_client_import_vscode_inputs (JsonObject *root)
{
  JsonObject *inputs = json_object_new ();
  JsonNode *node = json_object_get_member (root, "inputs");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return inputs;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *id;
      const char *description;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      id = mcp_json_optional_string (json_node_get_object (element), "id", "VS Code input", NULL);
      description = mcp_json_optional_string (json_node_get_object (element), "description",
                                              "VS Code input", id);
      if (id != NULL)
        json_object_set_string_member (inputs, id, description != NULL ? description : id);
    }

  return inputs;
}


JsonObject *
mcp_client_import_vscode_entry (const ScanData *data,
                                JsonObject     *inputs,
                                GPtrArray      *notes,
                                JsonObject     *entry)
{
  Convert convert = { data, inputs, notes };

  return convert_object (&convert, entry);
}
