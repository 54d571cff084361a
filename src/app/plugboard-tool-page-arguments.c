/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: the arguments of a run — a form made from the
 * tool's inputSchema, or the whole object as JSON, switching between
 * them without losing a value — and the drafts kept while the person
 * looks at another tool. */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-form-field.h"
#include "plugboard-schema-form.h"

void
plugboard_tool_page_show_arguments_error (PlugboardToolPage *self,
                                          const char        *message)
{
  gtk_label_set_label (self->arguments_error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->arguments_error_label), message != NULL);
}

static gboolean
json_mode (PlugboardToolPage *self)
{
  return gtk_toggle_button_get_active (self->json_toggle);
}

static void
update_form_page (PlugboardToolPage *self)
{
  if (json_mode (self))
    gtk_stack_set_visible_child_name (self->arguments_stack, "json");
  else if (self->field != NULL &&
           mcp_form_field_get_kind (self->field) == MCP_FORM_FIELD_OBJECT &&
           g_list_model_get_n_items (mcp_form_field_get_children (self->field)) == 0)
    gtk_stack_set_visible_child_name (self->arguments_stack, "no-arguments");
  else
    gtk_stack_set_visible_child_name (self->arguments_stack, "form");
}

static JsonObject *
object_from_node (JsonNode  *node,
                  GError   **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The arguments must be a JSON object ({…})"));
      return NULL;
    }

  return json_object_ref (json_node_get_object (node));
}

static JsonNode *
form_to_json (PlugboardToolPage  *self,
              GError            **error)
{
  if (self->field == NULL)
    {
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (node, json_object_new ());
      return node;
    }

  return mcp_form_field_to_json (self->field, error);
}

static void
on_mode_toggled_cb (PlugboardToolPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  if (self->in_mode_switch)
    return;

  if (json_mode (self))
    {
      /* Form → JSON, pretty-printed. */
      node = form_to_json (self, &error);
      if (node == NULL)
        {
          self->in_mode_switch = TRUE;
          gtk_toggle_button_set_active (self->form_toggle, TRUE);
          self->in_mode_switch = FALSE;
          plugboard_tool_page_show_arguments_error (self, error->message);
          return;
        }
      plugboard_json_editor_set_json (self->json_editor, node);
    }
  else
    {
      /* JSON → form; invalid JSON stays where it is, with its error. */
      node = plugboard_json_editor_dup_json (self->json_editor, &error);
      if (node == NULL)
        {
          self->in_mode_switch = TRUE;
          gtk_toggle_button_set_active (self->json_toggle, TRUE);
          self->in_mode_switch = FALSE;
          plugboard_tool_page_show_arguments_error (self, error->message);
          return;
        }
      if (self->field != NULL)
        mcp_form_field_set_from_json (self->field, node);
    }

  plugboard_tool_page_show_arguments_error (self, NULL);
  update_form_page (self);
}

static void
on_json_changed_cb (PlugboardToolPage *self)
{
  if (json_mode (self) && plugboard_json_editor_get_valid (self->json_editor))
    plugboard_tool_page_show_arguments_error (self, NULL);
}

/* What the person typed for a tool, kept while they look at another: the
 * JSON text as it stands (valid or not) in JSON mode, the form's values
 * otherwise. */
typedef struct
{
  gboolean  json;
  char     *text;
} Draft;

static void
draft_free (gpointer data)
{
  Draft *draft = data;

  g_free (draft->text);
  g_free (draft);
}

void
plugboard_tool_page_save_draft (PlugboardToolPage *self)
{
  Draft *draft;

  if (self->tool == NULL)
    return;

  draft = g_new0 (Draft, 1);
  draft->json = json_mode (self);
  if (draft->json)
    draft->text = g_strdup (plugboard_json_editor_get_text (self->json_editor));
  else
    {
      g_autoptr(JsonNode) node = form_to_json (self, NULL);

      if (node != NULL)
        draft->text = json_to_string (node, FALSE);
    }

  if (draft->text == NULL)
    {
      draft_free (draft);
      return;
    }
  if (self->drafts == NULL)
    self->drafts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, draft_free);
  g_hash_table_replace (self->drafts, g_strdup (mcp_pool_tool_get_qualified_name (self->tool)), draft);
}

static void
restore_draft (PlugboardToolPage *self)
{
  Draft *draft;

  if (self->tool == NULL || self->drafts == NULL)
    return;
  draft = g_hash_table_lookup (self->drafts, mcp_pool_tool_get_qualified_name (self->tool));
  if (draft == NULL)
    return;

  if (draft->json)
    {
      plugboard_json_editor_set_text (self->json_editor, draft->text);
      self->in_mode_switch = TRUE;
      gtk_toggle_button_set_active (self->json_toggle, TRUE);
      self->in_mode_switch = FALSE;
      update_form_page (self);
    }
  else if (self->field != NULL)
    {
      g_autoptr(JsonNode) node = json_from_string (draft->text, NULL);

      if (node != NULL)
        mcp_form_field_set_from_json (self->field, node);
    }
}

/* The form of the tool's inputSchema, with what was typed for the tool
 * before if the page showed it. */
void
plugboard_tool_page_rebuild_form (PlugboardToolPage *self)
{
  JsonObject *schema = self->tool ? mcp_tool_get_input_schema (mcp_pool_tool_get_tool (self->tool)) : NULL;

  adw_bin_set_child (self->form_bin, NULL);
  g_clear_object (&self->field);

  if (self->tool != NULL)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      if (schema != NULL)
        json_node_set_object (node, schema);
      else
        json_node_take_object (node, json_object_new ());
      self->field = mcp_form_field_new_from_schema (node);
      adw_bin_set_child (self->form_bin, plugboard_schema_form_new (self->field));
    }

  self->in_mode_switch = TRUE;
  gtk_toggle_button_set_active (self->form_toggle, TRUE);
  self->in_mode_switch = FALSE;
  plugboard_json_editor_set_text (self->json_editor, "{}");
  plugboard_tool_page_show_arguments_error (self, NULL);
  update_form_page (self);
  restore_draft (self);
}

JsonObject *
plugboard_tool_page_dup_arguments (PlugboardToolPage  *self,
                                   GError            **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (PLUGBOARD_IS_TOOL_PAGE (self), NULL);

  if (json_mode (self))
    node = plugboard_json_editor_dup_json (self->json_editor, error);
  else
    node = form_to_json (self, error);

  if (node == NULL)
    return NULL;

  return object_from_node (node, error);
}

void
plugboard_tool_page_set_arguments (PlugboardToolPage *self,
                                   JsonObject        *arguments)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));
  g_return_if_fail (arguments != NULL);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, arguments);

  if (self->field != NULL)
    mcp_form_field_set_from_json (self->field, node);
  plugboard_json_editor_set_json (self->json_editor, node);
  plugboard_tool_page_show_arguments_error (self, NULL);
}

void
plugboard_tool_page_class_arguments_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_json_changed_cb);
}
