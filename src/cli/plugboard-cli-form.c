/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: elicitation/create, form mode — each field asked in turn,
 * then what would be sent, to confirm. */

static void ask_field (PlugboardCliDialog *dialog);

static void
on_elicitation_confirm_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  PlugboardCliDialog *dialog = user_data;
  g_autofree char *line = NULL;
  g_autoptr(JsonObject) answer = json_object_new ();
  JsonNode *node;

  if (!plugboard_cli_dialog_take_line (dialog, result, &line))
    return;

  if (line != NULL)
    g_strstrip (line);
  if (plugboard_cli_is_yes (line))
    {
      json_object_set_string_member (answer, "action", "accept");
      json_object_set_object_member (answer, "content", json_object_ref (dialog->content));
      g_print (_("Sent.\n"));
    }
  else if (line != NULL && (g_ascii_strcasecmp (line, "decline") == 0 ||
                            g_ascii_strcasecmp (line, "d") == 0))
    {
      json_object_set_string_member (answer, "action", "decline");
      g_print (_("Declined; the server was told so, and none of the answers were sent.\n"));
    }
  else
    {
      json_object_set_string_member (answer, "action", "cancel");
      g_print (_("%sCancelled; nothing was sent.\n"), line == NULL ? "\n" : "");
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, answer);
  plugboard_cli_dialog_finish (dialog, node, NULL);
}

static void
confirm_elicitation (PlugboardCliDialog *dialog)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_node_set_object (node, dialog->content);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);

  g_print (_("\nTo send to %s:\n"), dialog->server);
  plugboard_cli_print_indented ("  ", text);
  g_print (_("Send? [y/N/decline] "));
  fflush (stdout);
  plugboard_cli_read_line_async (dialog->cli, dialog->cancellable, on_elicitation_confirm_cb, dialog);
}

static void
on_field_line_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  PlugboardCliDialog *dialog = user_data;
  PlugboardCliField *field = g_ptr_array_index (dialog->fields, dialog->current);
  g_autofree char *line = NULL;
  g_autofree char *problem = NULL;
  JsonNode *value = NULL;

  if (!plugboard_cli_dialog_take_line (dialog, result, &line))
    return;

  if (line == NULL)
    {
      g_autoptr(JsonObject) answer = json_object_new ();
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      /* Ctrl-D: the person walked away from the form. */
      g_print (_("\nCancelled; nothing was sent.\n"));
      json_object_set_string_member (answer, "action", "cancel");
      json_node_set_object (node, answer);
      plugboard_cli_dialog_finish (dialog, node, NULL);
      return;
    }

  g_strstrip (line);
  if (*line == '\0')
    {
      if (json_object_has_member (field->schema, "default"))
        value = json_node_copy (json_object_get_member (field->schema, "default"));
      else if (field->required)
        problem = g_strdup (_("a value (it is required)"));
    }
  else
    value = plugboard_cli_field_parse (field, line, &problem);

  if (problem != NULL)
    {
      g_print (_("  %s takes %s; try again.\n"), field->name, problem);
      ask_field (dialog);
      return;
    }

  if (value != NULL)
    json_object_set_member (dialog->content, field->name, value);
  dialog->current++;
  if (dialog->current < dialog->fields->len)
    {
      plugboard_cli_field_print (g_ptr_array_index (dialog->fields, dialog->current),
                   dialog->current, dialog->fields->len);
      ask_field (dialog);
    }
  else
    confirm_elicitation (dialog);
}

static void
ask_field (PlugboardCliDialog *dialog)
{
  PlugboardCliField *field = g_ptr_array_index (dialog->fields, dialog->current);

  g_print ("%s> ", field->name);
  fflush (stdout);
  plugboard_cli_read_line_async (dialog->cli, dialog->cancellable, on_field_line_cb, dialog);
}

void
plugboard_cli_form_start (PlugboardCliDialog *dialog)
{
  JsonObject *params = dialog->params;
  const char *mode = params ? json_object_get_string_member_with_default (params, "mode", "form") : "form";
  const char *message = params ? json_object_get_string_member_with_default (params, "message", NULL) : NULL;
  JsonNode *schema_node = params ? json_object_get_member (params, "requestedSchema") : NULL;
  JsonObject *schema = schema_node && JSON_NODE_HOLDS_OBJECT (schema_node) ? json_node_get_object (schema_node) : NULL;
  JsonNode *properties_node = schema ? json_object_get_member (schema, "properties") : NULL;
  JsonObject *properties = properties_node && JSON_NODE_HOLDS_OBJECT (properties_node)
    ? json_node_get_object (properties_node) : NULL;
  JsonArray *required = plugboard_cli_array_member (schema, "required");
  GList *members;

  if (g_str_equal (mode, "url"))
    {
      plugboard_cli_url_start (dialog);
      return;
    }
  if (!g_str_equal (mode, "form"))
    {
      /* Only form and URL modes are declared. */
      plugboard_cli_dialog_finish (dialog, NULL,
                     g_error_new (MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                  _("This client handles form elicitation only, not “%s”"), mode));
      return;
    }

  g_print (_("\n%s asks for information (elicitation/create):\n"), dialog->server);
  plugboard_cli_print_indented ("  ", message ? message : "(no message)");

  dialog->content = json_object_new ();
  dialog->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) plugboard_cli_field_free);
  members = properties ? json_object_get_members (properties) : NULL;
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (properties, name);
      gboolean is_required = FALSE;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
        if (g_strcmp0 (json_array_get_string_element (required, i), name) == 0)
          is_required = TRUE;
      g_ptr_array_add (dialog->fields, plugboard_cli_field_new (name, json_node_get_object (node), is_required));
    }
  g_list_free (members);

  g_print (_("Answer each field (Enter: its default, or nothing when it is optional; "
           "Ctrl-D cancels).\n"));
  if (dialog->fields->len == 0)
    {
      confirm_elicitation (dialog);
      return;
    }
  plugboard_cli_field_print (g_ptr_array_index (dialog->fields, 0), 0, dialog->fields->len);
  ask_field (dialog);
}
