/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: what the tool is — its description (Markdown), its
 * annotations in words (saying when one is the MCP default rather than
 * declared) and its input and output schemas (a summary and the raw
 * JSON). */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

#include "mcp-json-schema.h"
#include "plugboard-markdown.h"

static gboolean
annotation_declared (McpPoolTool *tool,
                     const char  *member)
{
  JsonObject *annotations = mcp_tool_get_annotations (mcp_pool_tool_get_tool (tool));

  return annotations != NULL &&
         json_object_has_member (annotations, member) &&
         JSON_NODE_HOLDS_VALUE (json_object_get_member (annotations, member));
}

/* What an annotation's value rests on, for its row: NULL when the tool
 * declares it. */
static const char *
annotation_origin (McpPoolTool *tool,
                   const char  *member,
                   gboolean     implied_by_read_only)
{
  if (implied_by_read_only && mcp_pool_tool_get_read_only (tool))
    return _("implied by read-only");

  return annotation_declared (tool, member) ? NULL : _("not declared; the MCP default");
}

static void
add_annotation_row (PlugboardToolPage *self,
                    const char        *icon_name,
                    const char        *title,
                    const char        *description,
                    const char        *origin)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (icon_name);
  g_autofree char *subtitle = NULL;

  if (origin != NULL)
    subtitle = g_strdup_printf ("%s — %s", description, origin);
  else
    subtitle = g_strdup (description);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_append (self->annotations_list, row);
}

static void
update_annotations (PlugboardToolPage *self)
{
  McpPoolTool *tool = self->tool;
  const char *origin;

  plugboard_tool_page_clear_list (self->annotations_list);
  if (tool == NULL)
    return;

  origin = annotation_origin (tool, "readOnlyHint", FALSE);
  if (mcp_pool_tool_get_read_only (tool))
    add_annotation_row (self, "security-high-symbolic", _("Read-only"),
                        _("Does not change anything"), origin);
  else
    add_annotation_row (self, "document-edit-symbolic", _("Not read-only"),
                        _("May change things"), origin);

  origin = annotation_origin (tool, "destructiveHint", TRUE);
  if (mcp_pool_tool_get_destructive (tool))
    add_annotation_row (self, "dialog-warning-symbolic", _("Destructive"),
                        _("May delete or overwrite"), origin);
  else
    add_annotation_row (self, "list-add-symbolic", _("Not destructive"),
                        _("Does not delete or overwrite"), origin);

  origin = annotation_origin (tool, "openWorldHint", FALSE);
  if (mcp_pool_tool_get_open_world (tool))
    add_annotation_row (self, "network-workgroup-symbolic", _("Open world"),
                        _("Reaches outside systems, such as the web"), origin);
  else
    add_annotation_row (self, "network-offline-symbolic", _("Closed world"),
                        _("Works only within its own domain"), origin);

  origin = annotation_origin (tool, "idempotentHint", TRUE);
  if (mcp_pool_tool_get_idempotent (tool))
    add_annotation_row (self, "view-refresh-symbolic", _("Idempotent"),
                        _("Running it again with the same arguments has no further effect"), origin);
  else
    add_annotation_row (self, "view-refresh-symbolic", _("Not idempotent"),
                        _("Running it again may have further effects"), origin);
}

static char *
describe_schema_type (JsonObject *schema)
{
  gboolean nullable = FALSE;
  const char *type = mcp_json_schema_get_type (schema, &nullable);
  g_autoptr(GString) text = g_string_new (NULL);

  if (json_object_has_member (schema, "enum"))
    g_string_append (text, _("one of a list"));
  else if (json_object_has_member (schema, "const"))
    g_string_append (text, _("a fixed value"));
  else if (json_object_has_member (schema, "$ref"))
    g_string_append (text, json_object_get_string_member_with_default (schema, "$ref", ""));
  else if (json_object_has_member (schema, "oneOf") || json_object_has_member (schema, "anyOf"))
    g_string_append (text, _("one of several forms"));
  else if (g_strcmp0 (type, "array") == 0 && json_object_has_member (schema, "items") &&
           JSON_NODE_HOLDS_OBJECT (json_object_get_member (schema, "items")))
    {
      JsonObject *items = json_object_get_object_member (schema, "items");
      const char *item_type = mcp_json_schema_get_type (items, NULL);

      /* Translators: %s is a JSON type, e.g. "array of string" */
      g_string_append_printf (text, _("array of %s"), item_type ? item_type : _("values"));
    }
  else if (type != NULL)
    g_string_append (text, type);
  else
    g_string_append (text, _("any value"));

  if (json_object_has_member (schema, "format"))
    g_string_append_printf (text, " (%s)", json_object_get_string_member_with_default (schema, "format", ""));
  if (nullable)
    g_string_append (text, _(", or null"));

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
fill_schema_list (GtkListBox *list,
                  JsonObject *schema)
{
  JsonObject *props = NULL;
  JsonArray *required = NULL;
  g_autoptr(GList) names = NULL;
  GtkWidget *expander;
  GtkWidget *editor;
  g_autoptr(JsonNode) node = NULL;

  plugboard_tool_page_clear_list (list);
  if (schema == NULL)
    return;

  if (json_object_has_member (schema, "properties") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (schema, "properties")))
    props = json_object_get_object_member (schema, "properties");
  if (json_object_has_member (schema, "required") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (schema, "required")))
    required = json_object_get_array_member (schema, "required");

  if (props != NULL)
    names = json_object_get_members (props);

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *prop = json_object_get_member (props, name);
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *type = NULL;
      g_autofree char *title = NULL;
      g_autoptr(GString) subtitle = g_string_new (NULL);
      gboolean is_required = FALSE;

      if (required != NULL)
        for (guint i = 0; i < json_array_get_length (required); i++)
          if (g_strcmp0 (json_array_get_string_element (required, i), name) == 0)
            is_required = TRUE;

      type = JSON_NODE_HOLDS_OBJECT (prop) ? describe_schema_type (json_node_get_object (prop))
                                           : g_strdup (_("any value"));
      /* Translators: a property of a schema: its name and whether it is required */
      title = is_required ? g_strdup_printf (_("%s (required)"), name) : g_strdup (name);
      g_string_append (subtitle, type);
      if (JSON_NODE_HOLDS_OBJECT (prop))
        {
          const char *description = json_object_get_string_member_with_default (json_node_get_object (prop),
                                                                                "description", NULL);
          if (description != NULL && description[0] != '\0')
            g_string_append_printf (subtitle, " — %s", description);
        }

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle->str);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
      gtk_widget_add_css_class (row, "property");
      gtk_list_box_append (list, row);
    }

  if (names == NULL)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No properties"));
      gtk_list_box_append (list, row);
    }

  expander = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), _("Raw JSON"));
  editor = plugboard_json_editor_new ();
  plugboard_json_editor_set_editable (PLUGBOARD_JSON_EDITOR (editor), FALSE);
  gtk_widget_set_size_request (editor, -1, 200);
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, schema);
  plugboard_json_editor_set_json (PLUGBOARD_JSON_EDITOR (editor), node);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), editor);
  gtk_list_box_append (list, expander);
}

static void
update_description_label (PlugboardToolPage *self)
{
  const char *description = self->tool ? mcp_pool_tool_get_description (self->tool) : NULL;
  g_autofree char *markup = NULL;

  if (description == NULL || description[0] == '\0')
    {
      g_autofree char *escaped = g_markup_escape_text (_("The server gives no description of this tool."), -1);

      markup = g_strdup_printf ("<i>%s</i>", escaped);
    }
  else
    markup = plugboard_markdown_to_pango (description);

  gtk_label_set_markup (self->description_label, markup);
}

void
plugboard_tool_page_update_description (PlugboardToolPage *self)
{
  McpTool *mcp_tool = self->tool ? mcp_pool_tool_get_tool (self->tool) : NULL;
  JsonObject *output_schema = mcp_tool ? mcp_tool_get_output_schema (mcp_tool) : NULL;

  update_description_label (self);
  update_annotations (self);
  fill_schema_list (self->input_schema_list, mcp_tool ? mcp_tool_get_input_schema (mcp_tool) : NULL);
  fill_schema_list (self->output_schema_list, output_schema);
  gtk_widget_set_visible (self->output_schema_group, output_schema != NULL);
}
