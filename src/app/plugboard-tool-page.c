/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

#include "config.h"

#include "plugboard-tool-page.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-form-field.h"
#include "mcp-json-schema.h"
#include "plugboard-common.h"
#include "plugboard-json-editor.h"
#include "plugboard-markdown.h"
#include "plugboard-result-view.h"
#include "plugboard-schema-form.h"
#include "plugboard-task-list.h"

/* One run of the tool; outlives the page when the page goes first. */
typedef struct
{
  PlugboardToolPage *self;         /* NULL once the page moved on */
  PlugboardToolPage *owner;        /* weak: the page it started on, to tell it the end */
  McpCall           *call;
  GCancellable      *cancellable;
  gboolean           has_total;      /* progress with a total came */
  gboolean           has_message;    /* progress with a message came */
} Run;

struct _PlugboardToolPage
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkScrolledWindow   *scroller;
  GtkLabel            *title_label;
  GtkLabel            *name_label;
  GtkLabel            *server_label;
  GtkLabel            *description_label;
  GtkToggleButton     *form_toggle;
  GtkToggleButton     *json_toggle;
  GtkStack            *arguments_stack;
  AdwBin              *form_bin;
  PlugboardJsonEditor *json_editor;
  GtkLabel            *arguments_error_label;
  GtkWidget           *run_button;
  AdwButtonContent    *run_button_content;
  GtkCheckButton      *task_check;
  GtkLabel            *task_note_label;
  GtkWidget           *cancel_button;
  GtkLabel            *permission_label;
  GtkDropDown         *rule_dropdown;
  GtkWidget           *rule_box;
  GtkWidget           *saved_button;
  GtkWidget           *save_button;
  GtkRevealer         *progress_revealer;
  GtkProgressBar      *progress_bar;
  GtkLabel            *progress_label;
  GtkLabel            *elapsed_label;
  GtkWidget           *task_box;
  GtkImage            *task_status_icon;
  GtkLabel            *task_status_label;
  GtkLabel            *task_id_label;
  GtkLabel            *task_message_label;
  GtkWidget           *result_group;
  GtkStack            *result_stack;
  PlugboardResultView *result_view;
  GtkImage            *error_icon;
  GtkLabel            *error_label;
  GtkWidget           *history_group;
  GtkListBox          *history_list;
  GtkListBox          *annotations_list;
  GtkWidget           *input_schema_group;
  GtkListBox          *input_schema_list;
  GtkWidget           *output_schema_group;
  GtkListBox          *output_schema_list;
  GtkPopover          *saved_popover;
  GtkLabel            *saved_empty_label;
  GtkListBox          *saved_list;

  /* Owned references */
  McpPoolTool         *tool;
  McpProject          *project;
  McpPermissions      *permissions;
  McpToolHistory      *history;
  McpFormField        *field;
  GListModel          *calls;
  Run                 *run;
  GCancellable        *final_status_cancellable;
  /* qualified name → Draft: what was typed for a tool the page left */
  GHashTable          *drafts;

  gint64               run_started;
  guint                elapsed_source;
  guint                in_mode_switch : 1;
  guint                setting_rule : 1;
  guint                pulsing : 1;
  guint                denied : 1;
};

enum {
  PROP_0,
  PROP_TOOL,
  PROP_PERMISSIONS,
  PROP_HISTORY,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  RUN_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PlugboardToolPage, plugboard_tool_page, ADW_TYPE_BIN)

static void plugboard_tool_page_update_actions (PlugboardToolPage *self);

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static void
run_free (Run *run)
{
  if (run->owner != NULL)
    g_object_remove_weak_pointer (G_OBJECT (run->owner), (gpointer *) &run->owner);
  if (run->call != NULL)
    g_signal_handlers_disconnect_by_data (run->call, run);
  g_clear_object (&run->call);
  g_clear_object (&run->cancellable);
  g_free (run);
}

static void
list_box_clear (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static char *
format_duration (gint64 usec)
{
  if (usec < G_USEC_PER_SEC * 60)
    /* Translators: a duration in seconds, e.g. "1.4 s" */
    return g_strdup_printf (_("%.1f s"), (double) usec / G_USEC_PER_SEC);

  /* Translators: a duration in minutes and seconds, e.g. "2 min 05 s" */
  return g_strdup_printf (_("%d min %02d s"),
                          (int) (usec / (G_USEC_PER_SEC * 60)),
                          (int) ((usec / G_USEC_PER_SEC) % 60));
}

static gboolean
annotation_declared (McpPoolTool *tool,
                     const char  *member)
{
  JsonObject *annotations = mcp_tool_get_annotations (mcp_pool_tool_get_tool (tool));

  return annotations != NULL &&
         json_object_has_member (annotations, member) &&
         JSON_NODE_HOLDS_VALUE (json_object_get_member (annotations, member));
}

/* ------------------------------------------------------------------------ */
/* The tool's description, behaviour and schemas                            */

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
  gboolean read_only_declared;
  const char *origin;

  list_box_clear (self->annotations_list);
  if (tool == NULL)
    return;

  read_only_declared = annotation_declared (tool, "readOnlyHint");

  origin = read_only_declared ? NULL : _("not declared; the MCP default");
  if (mcp_pool_tool_get_read_only (tool))
    add_annotation_row (self, "security-high-symbolic", _("Read-only"),
                        _("Does not change anything"), origin);
  else
    add_annotation_row (self, "document-edit-symbolic", _("Not read-only"),
                        _("May change things"), origin);

  if (mcp_pool_tool_get_read_only (tool))
    origin = _("implied by read-only");
  else
    origin = annotation_declared (tool, "destructiveHint") ? NULL : _("not declared; the MCP default");
  if (mcp_pool_tool_get_destructive (tool))
    add_annotation_row (self, "dialog-warning-symbolic", _("Destructive"),
                        _("May delete or overwrite"), origin);
  else
    add_annotation_row (self, "list-add-symbolic", _("Not destructive"),
                        _("Does not delete or overwrite"), origin);

  origin = annotation_declared (tool, "openWorldHint") ? NULL : _("not declared; the MCP default");
  if (mcp_pool_tool_get_open_world (tool))
    add_annotation_row (self, "network-workgroup-symbolic", _("Open world"),
                        _("Reaches outside systems, such as the web"), origin);
  else
    add_annotation_row (self, "network-offline-symbolic", _("Closed world"),
                        _("Works only within its own domain"), origin);

  if (mcp_pool_tool_get_read_only (tool))
    origin = _("implied by read-only");
  else
    origin = annotation_declared (tool, "idempotentHint") ? NULL : _("not declared; the MCP default");
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

  list_box_clear (list);
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
update_description (PlugboardToolPage *self)
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

/* ------------------------------------------------------------------------ */
/* Arguments                                                                */

static void
show_arguments_error (PlugboardToolPage *self,
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
          show_arguments_error (self, error->message);
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
          show_arguments_error (self, error->message);
          return;
        }
      if (self->field != NULL)
        mcp_form_field_set_from_json (self->field, node);
    }

  show_arguments_error (self, NULL);
  update_form_page (self);
}

static void
on_json_changed_cb (PlugboardToolPage *self)
{
  if (json_mode (self) && plugboard_json_editor_get_valid (self->json_editor))
    show_arguments_error (self, NULL);
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

static void
save_draft (PlugboardToolPage *self)
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

static void
rebuild_form (PlugboardToolPage *self)
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
  show_arguments_error (self, NULL);
  update_form_page (self);
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
  show_arguments_error (self, NULL);
}

/* ------------------------------------------------------------------------ */
/* Permissions                                                              */

/* For display only: the call itself is checked once, by mcp_tool_call_run_async(). */
static void
update_permission (PlugboardToolPage *self)
{
  McpPermissionDecision decision = { 0 };
  g_autofree char *text = NULL;

  if (self->tool == NULL || self->permissions == NULL)
    {
      self->denied = FALSE;
      gtk_widget_set_visible (GTK_WIDGET (self->permission_label), FALSE);
      gtk_widget_set_visible (self->rule_box, FALSE);
      plugboard_tool_page_update_actions (self);
      return;
    }

  mcp_permissions_decide_tool (self->permissions, self->tool, &decision);
  self->denied = decision.permission == MCP_PERMISSION_DENY;
  text = mcp_permission_decision_describe (&decision);
  gtk_label_set_label (self->permission_label, text);

  /* the tool's own rule, when one decided; a server's rule or none is
   * "Default" here (the label says which rule decided) */
  {
    guint selected = 0;

    if (decision.reason == MCP_PERMISSION_REASON_RULE &&
        g_strcmp0 (decision.rule, mcp_pool_tool_get_qualified_name (self->tool)) == 0)
      selected = decision.permission == MCP_PERMISSION_ALLOW ? 1 :
                 decision.permission == MCP_PERMISSION_ASK ? 2 : 3;
    self->setting_rule = TRUE;
    gtk_drop_down_set_selected (self->rule_dropdown, selected);
    self->setting_rule = FALSE;
    gtk_widget_set_visible (self->rule_box, TRUE);
  }
  if (self->denied)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->permission_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->permission_label), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->permission_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->permission_label), "dim-label");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->permission_label), TRUE);
  plugboard_tool_page_update_actions (self);
}

/* The person chose a rule for this tool: the window writes it (through
 * McpProject); the label follows once the settings reload. */
static void
on_rule_selected_cb (PlugboardToolPage *self)
{
  static const char * const lists[] = { "none", "allow", "ask", "deny" };
  guint selected = gtk_drop_down_get_selected (self->rule_dropdown);

  if (self->setting_rule || self->tool == NULL || selected >= G_N_ELEMENTS (lists))
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.set-tool-rule", "(ss)",
                              mcp_pool_tool_get_qualified_name (self->tool), lists[selected]);
}

/* ------------------------------------------------------------------------ */
/* Running                                                                  */

static void
plugboard_tool_page_update_actions (PlugboardToolPage *self)
{
  gboolean running = self->run != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool.run",
                                 self->tool != NULL && !running && !self->denied);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool.cancel", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool.save-arguments",
                                 self->tool != NULL && self->history != NULL);
  gtk_widget_set_visible (self->cancel_button, running);
  /* How a run goes is chosen before it starts. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->task_check), !running);
  gtk_widget_set_sensitive (self->saved_button, self->tool != NULL && self->history != NULL);
}

static void
update_elapsed (PlugboardToolPage *self)
{
  g_autofree char *duration = format_duration (g_get_monotonic_time () - self->run_started);
  /* Translators: %s is a duration, e.g. "1.4 s" */
  g_autofree char *text = g_strdup_printf (_("Elapsed: %s"), duration);

  gtk_label_set_label (self->elapsed_label, text);
}

static gboolean
elapsed_tick_cb (gpointer user_data)
{
  PlugboardToolPage *self = user_data;

  update_elapsed (self);
  if (self->run != NULL && self->pulsing)
    gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

static void
show_progress (PlugboardToolPage *self)
{
  self->run_started = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  self->pulsing = FALSE;
  gtk_label_set_label (self->progress_label, _("Running…"));
  gtk_widget_set_visible (self->task_box, FALSE);
  update_elapsed (self);
  if (self->elapsed_source == 0)
    self->elapsed_source = g_timeout_add (100, elapsed_tick_cb, self);
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
}

static void
set_running (PlugboardToolPage *self,
             Run               *run)
{
  gboolean was_running = self->run != NULL;

  self->run = run;

  /* The progress shows once the call may go (show_progress()): not while
   * the person is still asked whether it may. */
  if (run == NULL)
    g_clear_handle_id (&self->elapsed_source, g_source_remove);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  plugboard_tool_page_update_actions (self);

  if (was_running != (run != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
on_call_progress_cb (McpCall    *call,
                     double      progress,
                     double      total,
                     const char *message,
                     Run        *run)
{
  PlugboardToolPage *self = run->self;

  if (self == NULL || self->run != run)
    return;

  if (total > 0)
    {
      run->has_total = TRUE;
      self->pulsing = FALSE;
      gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (progress / total, 0.0, 1.0));
    }
  else
    {
      self->pulsing = TRUE;
      gtk_progress_bar_pulse (self->progress_bar);
    }

  if (message != NULL && message[0] != '\0')
    {
      run->has_message = TRUE;
      gtk_label_set_label (self->progress_label, message);
    }
  else if (total > 0)
    {
      g_autofree char *text = NULL;

      /* Translators: progress so far and its total, e.g. "3 of 10" */
      text = g_strdup_printf (_("%g of %g"), progress, total);
      gtk_label_set_label (self->progress_label, text);
    }
}

/* ------------------------------------------------------------------------ */
/* Tasks                                                                    */

static const char *
task_support (McpPoolTool *tool)
{
  const char *support = tool ? mcp_tool_get_task_support (mcp_pool_tool_get_tool (tool)) : NULL;

  return support ? support : "forbidden";
}

/* "Run as Task" and a note for a tool that must run as one; a check beside
 * Run for one that may. */
static void
update_task_support (PlugboardToolPage *self)
{
  const char *support = task_support (self->tool);
  gboolean required = g_str_equal (support, "required");
  gboolean optional = g_str_equal (support, "optional");

  adw_button_content_set_label (self->run_button_content,
                                required ? _("Run as _Task") : _("_Run"));
  gtk_widget_set_tooltip_text (self->run_button,
                               required ? _("Run the tool as a task (Ctrl+Enter)")
                                        : _("Run the tool (Ctrl+Enter)"));
  gtk_widget_set_visible (GTK_WIDGET (self->task_note_label), required);
  gtk_widget_set_visible (GTK_WIDGET (self->task_check), optional);
  gtk_check_button_set_active (self->task_check, FALSE);
}

static void
show_task_state (PlugboardToolPage *self,
                 McpTask           *task)
{
  const char *message = task ? mcp_task_get_status_message (task) : NULL;

  gtk_widget_set_visible (self->task_box, TRUE);
  if (task == NULL)
    {
      gtk_image_set_from_icon_name (self->task_status_icon, "content-loading-symbolic");
      gtk_label_set_label (self->task_status_label, _("Starting the task…"));
      gtk_label_set_label (self->task_id_label, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->task_id_label), NULL);
    }
  else
    {
      g_autofree char *label = plugboard_task_status_dup_label (task);
      /* Translators: %s is a task id */
      g_autofree char *tooltip = g_strdup_printf (_("Task %s"), mcp_task_get_id (task));

      gtk_image_set_from_icon_name (self->task_status_icon,
                                    plugboard_task_status_icon_name (mcp_task_get_status (task)));
      gtk_label_set_label (self->task_status_label, label);
      gtk_label_set_label (self->task_id_label, mcp_task_get_id (task));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->task_id_label), tooltip);
    }
  gtk_label_set_label (self->task_message_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->task_message_label), message != NULL && message[0] != '\0');
}

static void
on_call_task_cb (McpCall    *call,
                 GParamSpec *pspec,
                 Run        *run)
{
  PlugboardToolPage *self = run->self;
  McpTask *task = mcp_call_get_task (call);

  if (self == NULL || self->run != run || task == NULL)
    return;

  show_task_state (self, task);
  if (!run->has_total)
    {
      /* A task's own status is all there is to go by. */
      self->pulsing = TRUE;
      gtk_progress_bar_pulse (self->progress_bar);
    }
  /* The server's own progress messages, when it sends any, say more. */
  if (run->has_message)
    return;
  if (mcp_task_get_status (task) == MCP_TASK_STATUS_INPUT_REQUIRED)
    gtk_label_set_label (self->progress_label, _("The server waits for your answer…"));
  else if (mcp_task_get_status (task) == MCP_TASK_STATUS_WORKING)
    gtk_label_set_label (self->progress_label, _("The server works on the task…"));
}

/* How a task's call ended: "Cancelled" (by Cancel here, @error_message
 * NULL, or by anyone, as the server reports) or the error, then what the
 * server says of the task. */
static void
show_task_end (PlugboardToolPage *self,
               McpTask           *task,
               const char        *error_message,
               const char        *note)
{
  gboolean cancelled = error_message == NULL ||
                       (task != NULL && mcp_task_get_status (task) == MCP_TASK_STATUS_CANCELLED);
  g_autoptr(GString) text = g_string_new (cancelled ? _("Cancelled") : error_message);

  if (task != NULL)
    {
      g_autofree char *label = plugboard_task_status_dup_label (task);
      const char *message = mcp_task_get_status_message (task);

      g_string_append (text, "\n");
      /* Translators: a task id, then its status as the server gives it, e.g. "Cancelled" */
      g_string_append_printf (text, _("The server reports task %s as: %s"), mcp_task_get_id (task), label);
      if (message != NULL && message[0] != '\0')
        g_string_append_printf (text, " — %s", message);
    }
  if (note != NULL)
    g_string_append_printf (text, "\n%s", note);

  gtk_image_set_from_icon_name (self->error_icon, cancelled ? "process-stop-symbolic" : "dialog-error-symbolic");
  if (cancelled)
    gtk_widget_remove_css_class (GTK_WIDGET (self->error_icon), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->error_icon), "error");
  gtk_label_set_label (self->error_label, text->str);
  gtk_stack_set_visible_child_name (self->result_stack, "error");
  gtk_widget_set_visible (self->result_group, TRUE);
}

/* After Cancel, the engine has sent tasks/cancel; after a failure the
 * task may have been cancelled elsewhere (the server's Tasks, another
 * client) or have failed: the call asks the server where the task ended up
 * (the server may take a moment to stop it). @error_message: NULL after
 * Cancel here. */
typedef struct
{
  GWeakRef  page;
  char     *error;
} Follow;

static void
follow_free (Follow *follow)
{
  g_weak_ref_clear (&follow->page);
  g_free (follow->error);
  g_free (follow);
}

static void
on_follow_task_cb (McpCall    *call,
                   GParamSpec *pspec,
                   Follow     *follow)
{
  g_autoptr(PlugboardToolPage) self = g_weak_ref_get (&follow->page);
  McpTask *task = mcp_call_get_task (call);

  if (self != NULL && !mcp_task_status_is_terminal (mcp_task_get_status (task)))
    show_task_end (self, task, follow->error,
                   follow->error ? _("Waiting for the task’s final status…")
                                 : _("Waiting for the server to stop it…"));
}

static void
on_task_followed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  Follow *follow = user_data;
  McpCall *call = MCP_CALL (object);
  g_autoptr(PlugboardToolPage) self = NULL;
  g_autoptr(GError) error = NULL;

  g_signal_handlers_disconnect_by_data (call, follow);
  mcp_call_follow_task_finish (call, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      (self = g_weak_ref_get (&follow->page)) == NULL)
    {
      follow_free (follow);
      return;
    }

  if (error != NULL)
    {
      /* Translators: %s is an error message */
      g_autofree char *note = g_strdup_printf (_("Its final status could not be fetched: %s"), error->message);

      show_task_end (self, mcp_call_get_task (call), follow->error, note);
    }
  else
    show_task_end (self, mcp_call_get_task (call), follow->error, NULL);
  follow_free (follow);
}

static void
follow_task_end (PlugboardToolPage *self,
                 Run               *run,
                 const char        *error_message)
{
  McpTask *task = mcp_call_get_task (run->call);
  McpServerConnection *connection = mcp_pool_tool_get_connection (mcp_call_get_tool (run->call));
  Follow *follow;

  if (mcp_task_status_is_terminal (mcp_task_get_status (task)) ||
      connection == NULL || mcp_server_connection_get_client (connection) == NULL)
    {
      show_task_end (self, task, error_message, NULL);
      return;
    }

  show_task_end (self, task, error_message, _("Asking the server for the task’s final status…"));

  g_cancellable_cancel (self->final_status_cancellable);
  g_clear_object (&self->final_status_cancellable);
  self->final_status_cancellable = g_cancellable_new ();

  follow = g_new0 (Follow, 1);
  g_weak_ref_init (&follow->page, self);
  follow->error = g_strdup (error_message);
  g_signal_connect (run->call, "notify::task", G_CALLBACK (on_follow_task_cb), follow);
  mcp_call_follow_task_async (run->call, self->final_status_cancellable, on_task_followed_cb, follow);
}

/* The call's one permission check let it go on (by a rule, the default or
 * the person's yes): the progress shows. */
static void
on_call_allowed_cb (McpCall    *call,
                    GParamSpec *pspec,
                    Run        *run)
{
  if (run->self != NULL && run->self->run == run)
    show_progress (run->self);
}

static void
on_run_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Run *run = user_data;
  PlugboardToolPage *self = run->self;
  McpCall *call = MCP_CALL (object);
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  /* Refused, or cancelled while the person was asked: nothing ran. */
  gboolean ran;

  processed = mcp_call_run_finish (call, result, &error);
  ran = mcp_call_get_allowed (call);

  if (self == NULL || self->run != run)
    {
      /* A run the person left for another tool: its end is told, not
       * dropped (the history has it too). */
      if (run->owner != NULL && ran)
        g_signal_emit (run->owner, signals[RUN_FINISHED], 0, mcp_call_get_tool (call),
                       processed != NULL && !mcp_tool_result_get_is_error (mcp_processed_result_get_result (processed)),
                       processed != NULL ? NULL : error->message);
      run_free (run);
      return;
    }

  if (processed != NULL)
    {
      plugboard_result_view_set_result (self->result_view, mcp_call_get_tool (call),
                                        mcp_call_get_arguments (call), processed);
      gtk_stack_set_visible_child_name (self->result_stack, "result");
      gtk_widget_set_visible (self->result_group, TRUE);
    }
  else if (!ran)
    {
      /* The person said Cancel in the confirmation: nothing ran. */
    }
  else if (mcp_call_get_task (call) != NULL)
    follow_task_end (self, run,
                     g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? NULL : error->message);
  else
    {
      const char *message = error->message;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        message = _("The call was cancelled.");
      gtk_image_set_from_icon_name (self->error_icon, "dialog-error-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->error_icon), "error");
      gtk_label_set_label (self->error_label, message);
      gtk_stack_set_visible_child_name (self->result_stack, "error");
      gtk_widget_set_visible (self->result_group, TRUE);
    }

  set_running (self, NULL);
  run_free (run);
}

void
plugboard_tool_page_run (PlugboardToolPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  McpCallFlags flags;
  gboolean as_task;
  Run *run;

  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));

  if (self->tool == NULL || self->run != NULL || self->denied)
    return;

  arguments = plugboard_tool_page_dup_arguments (self, &error);
  if (arguments == NULL)
    {
      show_arguments_error (self, error->message);
      return;
    }
  show_arguments_error (self, NULL);

  as_task = g_str_equal (task_support (self->tool), "required") ||
            (g_str_equal (task_support (self->tool), "optional") &&
             gtk_check_button_get_active (self->task_check));

  run = g_new0 (Run, 1);
  run->self = self;
  run->cancellable = g_cancellable_new ();
  flags = as_task ? MCP_CALL_FLAGS_AS_TASK : MCP_CALL_FLAGS_NONE;
  run->call = self->project != NULL
              ? mcp_project_new_call (self->project, self->tool, arguments, flags)
              : mcp_call_new (self->tool, arguments, flags, self->permissions, NULL, self->history);
  g_signal_connect (run->call, "progress", G_CALLBACK (on_call_progress_cb), run);
  g_signal_connect (run->call, "notify::task", G_CALLBACK (on_call_task_cb), run);
  g_signal_connect (run->call, "notify::allowed", G_CALLBACK (on_call_allowed_cb), run);

  /* A new run: the last cancelled task is no longer followed. */
  g_cancellable_cancel (self->final_status_cancellable);

  set_running (self, run);
  if (as_task)
    show_task_state (self, NULL);

  mcp_call_run_async (run->call, run->cancellable, on_run_done_cb, run);
}

void
plugboard_tool_page_cancel (PlugboardToolPage *self)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));

  /* A confirmation still open closes: nothing runs. */
  if (self->run != NULL)
    g_cancellable_cancel (self->run->cancellable);
}

/* Lets a call under way end on its own, without this page: with @cancel
 * (the page goes away) a plain call is cancelled; otherwise (the person
 * looks at another tool) it goes on, its outcome goes to the history and
 * #PlugboardToolPage::run-finished tells of its end. A task the server has
 * made always goes on (its call still follows it and records the outcome),
 * so that the person can come back for its result in the server's Tasks.
 * A confirmation still open is answered Cancel: nothing ran. */
static void
detach_run (PlugboardToolPage *self,
            gboolean           cancel)
{
  Run *run = self->run;
  McpTask *task;

  if (run == NULL)
    return;

  task = mcp_call_get_task (run->call);
  if (!mcp_call_get_allowed (run->call) ||
      (cancel && (task == NULL || mcp_task_status_is_terminal (mcp_task_get_status (task)))))
    g_cancellable_cancel (run->cancellable);
  else if (run->owner == NULL)
    {
      run->owner = self;
      g_object_add_weak_pointer (G_OBJECT (self), (gpointer *) &run->owner);
    }
  run->self = NULL;
  set_running (self, NULL);
}

/* ------------------------------------------------------------------------ */
/* History and saved arguments                                              */

static const char *
outcome_label (McpHistoryOutcome outcome)
{
  switch (outcome)
    {
    case MCP_HISTORY_OUTCOME_RUNNING:
      return _("Running");
    case MCP_HISTORY_OUTCOME_OK:
      return _("Succeeded");
    case MCP_HISTORY_OUTCOME_TOOL_ERROR:
      return _("Tool error");
    case MCP_HISTORY_OUTCOME_FAILED:
      return _("Failed");
    case MCP_HISTORY_OUTCOME_CANCELLED:
      return _("Cancelled");
    default:
      return "";
    }
}

static const char *
outcome_icon (McpHistoryOutcome outcome)
{
  switch (outcome)
    {
    case MCP_HISTORY_OUTCOME_RUNNING:
      return "content-loading-symbolic";
    case MCP_HISTORY_OUTCOME_OK:
      return "emblem-ok-symbolic";
    case MCP_HISTORY_OUTCOME_TOOL_ERROR:
    case MCP_HISTORY_OUTCOME_FAILED:
      return "dialog-error-symbolic";
    case MCP_HISTORY_OUTCOME_CANCELLED:
    default:
      return "process-stop-symbolic";
    }
}

static void
update_history_row (GtkWidget       *row,
                    GParamSpec      *pspec,
                    McpHistoryEntry *entry)
{
  McpHistoryOutcome outcome = mcp_history_entry_get_outcome (entry);
  GtkImage *icon = g_object_get_data (G_OBJECT (row), "icon");
  g_autofree char *title = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *subtitle = NULL;
  g_autoptr(GDateTime) started = NULL;
  g_autofree char *time = NULL;
  const char *summary = mcp_history_entry_get_summary (entry);

  started = g_date_time_new_from_unix_local (mcp_history_entry_get_started (entry) / G_USEC_PER_SEC);
  time = g_date_time_format (started, "%X");

  if (outcome == MCP_HISTORY_OUTCOME_RUNNING)
    /* Translators: the outcome of a call, then the time it started */
    title = g_strdup_printf (_("%s · %s"), outcome_label (outcome), time);
  else
    {
      g_autofree char *duration = format_duration (mcp_history_entry_get_duration (entry));

      /* Translators: the outcome of a call, the time it started and its duration */
      title = g_strdup_printf (_("%s · %s · %s"), outcome_label (outcome), time, duration);
    }

  arguments = mcp_history_entry_get_arguments (entry)
    ? plugboard_json_object_to_text (mcp_history_entry_get_arguments (entry), FALSE)
    : g_strdup ("{}");
  if (summary != NULL && summary[0] != '\0')
    subtitle = g_strdup_printf ("%s\n%s", arguments, summary);
  else
    subtitle = g_steal_pointer (&arguments);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_image_set_from_icon_name (icon, outcome_icon (outcome));
  gtk_widget_remove_css_class (GTK_WIDGET (icon), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (icon), "success");
  if (outcome == MCP_HISTORY_OUTCOME_OK)
    gtk_widget_add_css_class (GTK_WIDGET (icon), "success");
  else if (outcome == MCP_HISTORY_OUTCOME_TOOL_ERROR || outcome == MCP_HISTORY_OUTCOME_FAILED)
    gtk_widget_add_css_class (GTK_WIDGET (icon), "error");
}

static void
on_history_load_clicked_cb (GtkButton *button,
                            gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  McpHistoryEntry *entry = g_object_get_data (G_OBJECT (button), "entry");

  if (mcp_history_entry_get_arguments (entry) != NULL)
    plugboard_tool_page_set_arguments (self, mcp_history_entry_get_arguments (entry));
}

static void
on_history_rerun_clicked_cb (GtkButton *button,
                             gpointer   user_data)
{
  PlugboardToolPage *self = user_data;

  on_history_load_clicked_cb (button, self);
  plugboard_tool_page_run (self);
}

static GtkWidget *
create_history_row_cb (gpointer item,
                       gpointer user_data)
{
  PlugboardToolPage *self = user_data;
  McpHistoryEntry *entry = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *load = gtk_button_new_from_icon_name ("document-revert-symbolic");
  GtkWidget *rerun = gtk_button_new_from_icon_name ("view-refresh-symbolic");

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  g_object_set_data (G_OBJECT (row), "icon", icon);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);

  gtk_widget_set_tooltip_text (load, _("Load Arguments"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (load), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Load Arguments"), -1);
  gtk_widget_set_valign (load, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (load, "flat");
  g_object_set_data_full (G_OBJECT (load), "entry", g_object_ref (entry), g_object_unref);
  g_signal_connect (load, "clicked", G_CALLBACK (on_history_load_clicked_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), load);

  gtk_widget_set_tooltip_text (rerun, _("Run Again"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (rerun), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Run Again"), -1);
  gtk_widget_set_valign (rerun, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (rerun, "flat");
  g_object_set_data_full (G_OBJECT (rerun), "entry", g_object_ref (entry), g_object_unref);
  g_signal_connect (rerun, "clicked", G_CALLBACK (on_history_rerun_clicked_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), rerun);

  g_object_bind_property (self, "running", rerun, "sensitive", G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);

  update_history_row (row, NULL, entry);
  g_signal_connect_object (entry, "notify", G_CALLBACK (update_history_row), row, G_CONNECT_SWAPPED);

  return row;
}

static void
on_calls_changed_cb (PlugboardToolPage *self)
{
  gtk_widget_set_visible (self->history_group,
                          self->calls != NULL && g_list_model_get_n_items (self->calls) > 0);
}

static void
update_history (PlugboardToolPage *self)
{
  if (self->calls != NULL)
    g_signal_handlers_disconnect_by_data (self->calls, self);
  g_clear_object (&self->calls);

  if (self->history != NULL && self->tool != NULL)
    {
      self->calls = g_object_ref (mcp_tool_history_get_calls_for (self->history,
                                                                  mcp_pool_tool_get_qualified_name (self->tool)));
      g_signal_connect_swapped (self->calls, "items-changed", G_CALLBACK (on_calls_changed_cb), self);
    }

  gtk_list_box_bind_model (self->history_list, self->calls, create_history_row_cb, self, NULL);
  on_calls_changed_cb (self);
}

static void update_saved (PlugboardToolPage *self);

static void
on_saved_load_clicked_cb (GtkButton *button,
                          gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  const char *name = g_object_get_data (G_OBJECT (button), "set-name");
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;

  gtk_popover_popdown (self->saved_popover);
  arguments = mcp_tool_history_load_arguments (self->history,
                                               mcp_pool_tool_get_qualified_name (self->tool),
                                               name, &error);
  if (arguments == NULL)
    {
      show_arguments_error (self, error->message);
      return;
    }
  plugboard_tool_page_set_arguments (self, arguments);
}

static void
on_saved_delete_clicked_cb (GtkButton *button,
                            gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  const char *name = g_object_get_data (G_OBJECT (button), "set-name");
  g_autoptr(GError) error = NULL;

  if (!mcp_tool_history_delete_arguments (self->history,
                                          mcp_pool_tool_get_qualified_name (self->tool),
                                          name, &error))
    show_arguments_error (self, error->message);
  update_saved (self);
}

static void
update_saved (PlugboardToolPage *self)
{
  g_auto(GStrv) names = NULL;

  list_box_clear (self->saved_list);
  if (self->history != NULL && self->tool != NULL)
    names = mcp_tool_history_dup_saved_names (self->history, mcp_pool_tool_get_qualified_name (self->tool));

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *load = gtk_button_new_with_mnemonic (_("_Load"));
      GtkWidget *delete = gtk_button_new_from_icon_name ("user-trash-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), names[i]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);

      gtk_widget_set_valign (load, GTK_ALIGN_CENTER);
      g_object_set_data_full (G_OBJECT (load), "set-name", g_strdup (names[i]), g_free);
      g_signal_connect (load, "clicked", G_CALLBACK (on_saved_load_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), load);

      gtk_widget_set_valign (delete, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (delete, "flat");
      gtk_widget_set_tooltip_text (delete, _("Delete"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (delete), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Delete"), -1);
      g_object_set_data_full (G_OBJECT (delete), "set-name", g_strdup (names[i]), g_free);
      g_signal_connect (delete, "clicked", G_CALLBACK (on_saved_delete_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), delete);

      gtk_list_box_append (self->saved_list, row);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->saved_list), names != NULL && names[0] != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->saved_empty_label), names == NULL || names[0] == NULL);
}

static void
on_save_response_cb (AdwMessageDialog  *dialog,
                     const char        *response,
                     PlugboardToolPage *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (g_strcmp0 (response, "save") != 0 || self->tool == NULL || self->history == NULL)
    return;

  name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));
  if (name[0] == '\0')
    return;

  arguments = plugboard_tool_page_dup_arguments (self, &error);
  if (arguments == NULL ||
      !mcp_tool_history_save_arguments (self->history, mcp_pool_tool_get_qualified_name (self->tool),
                                        name, arguments, &error))
    {
      show_arguments_error (self, error->message);
      return;
    }

  update_saved (self);
}

static void
on_save_entry_changed_cb (GtkEditable      *entry,
                          AdwMessageDialog *dialog)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "save", name[0] != '\0');
}

static void
save_arguments_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PlugboardToolPage *self = PLUGBOARD_TOOL_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  if (self->tool == NULL || self->history == NULL)
    return;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Save Arguments"),
                                                       _("Give these arguments a name to load them again later.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "save");
  adw_message_dialog_set_close_response (dialog, "cancel");
  adw_message_dialog_set_response_enabled (dialog, "save", FALSE);

  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Name"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Name"), -1);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_save_entry_changed_cb), dialog, 0);
  adw_message_dialog_set_extra_child (dialog, entry);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);

  g_signal_connect_object (dialog, "response", G_CALLBACK (on_save_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  plugboard_tool_page_run (PLUGBOARD_TOOL_PAGE (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  plugboard_tool_page_cancel (PLUGBOARD_TOOL_PAGE (widget));
}

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

GtkWidget *
plugboard_tool_page_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TOOL_PAGE, NULL);
}

McpPoolTool *
plugboard_tool_page_get_tool (PlugboardToolPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_PAGE (self), NULL);

  return self->tool;
}

void
plugboard_tool_page_set_tool (PlugboardToolPage *self,
                              McpPoolTool       *tool)
{
  McpTool *mcp_tool;
  JsonObject *output_schema;

  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));
  g_return_if_fail (!tool || MCP_IS_POOL_TOOL (tool));

  if (self->tool == tool)
    return;

  detach_run (self, FALSE);
  save_draft (self);
  g_set_object (&self->tool, tool);

  mcp_tool = tool ? mcp_pool_tool_get_tool (tool) : NULL;
  gtk_label_set_label (self->title_label, tool ? mcp_pool_tool_get_display_name (tool) : "");
  gtk_label_set_label (self->name_label, tool ? mcp_pool_tool_get_qualified_name (tool) : "");
  if (tool != NULL)
    {
      /* Translators: %s is a server name */
      g_autofree char *server = g_strdup_printf (_("Server “%s”"), mcp_pool_tool_get_server_name (tool));

      gtk_label_set_label (self->server_label, server);
    }
  else
    gtk_label_set_label (self->server_label, "");

  update_description (self);
  update_annotations (self);
  fill_schema_list (self->input_schema_list, mcp_tool ? mcp_tool_get_input_schema (mcp_tool) : NULL);
  output_schema = mcp_tool ? mcp_tool_get_output_schema (mcp_tool) : NULL;
  fill_schema_list (self->output_schema_list, output_schema);
  gtk_widget_set_visible (self->output_schema_group, output_schema != NULL);

  rebuild_form (self);
  restore_draft (self);
  update_task_support (self);
  g_cancellable_cancel (self->final_status_cancellable);
  plugboard_result_view_clear (self->result_view);
  gtk_widget_set_visible (self->result_group, FALSE);
  update_history (self);
  update_saved (self);
  update_permission (self);

  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL]);
}

void
plugboard_tool_page_set_permissions (PlugboardToolPage *self,
                                     McpPermissions    *permissions)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));
  g_return_if_fail (!permissions || MCP_IS_PERMISSIONS (permissions));

  if (g_set_object (&self->permissions, permissions))
    {
      update_permission (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERMISSIONS]);
    }
}

/* Calls go through @project (its permissions, the person asked through its
 * interaction, its history). */
void
plugboard_tool_page_set_project (PlugboardToolPage *self,
                                 McpProject        *project)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));
  g_return_if_fail (!project || MCP_IS_PROJECT (project));

  g_set_object (&self->project, project);
}

void
plugboard_tool_page_set_history (PlugboardToolPage *self,
                                 McpToolHistory    *history)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));
  g_return_if_fail (!history || MCP_IS_TOOL_HISTORY (history));

  if (g_set_object (&self->history, history))
    {
      update_history (self);
      update_saved (self);
      plugboard_tool_page_update_actions (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
    }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_tool_page_dispose (GObject *object)
{
  PlugboardToolPage *self = PLUGBOARD_TOOL_PAGE (object);

  detach_run (self, TRUE);
  g_cancellable_cancel (self->final_status_cancellable);
  g_clear_object (&self->final_status_cancellable);
  g_clear_pointer (&self->drafts, g_hash_table_unref);
  g_clear_handle_id (&self->elapsed_source, g_source_remove);
  if (self->calls != NULL)
    g_signal_handlers_disconnect_by_data (self->calls, self);
  if (self->history_list != NULL)
    gtk_list_box_bind_model (self->history_list, NULL, NULL, NULL, NULL);
  if (self->form_bin != NULL)
    adw_bin_set_child (self->form_bin, NULL);
  if (self->annotations_list != NULL)
    {
      list_box_clear (self->annotations_list);
      list_box_clear (self->input_schema_list);
      list_box_clear (self->output_schema_list);
      list_box_clear (self->saved_list);
    }

  /* AdwBin keeps its own pointer to the template's top child (scroller),
   * which dispose_template unparents. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_TOOL_PAGE);

  g_clear_object (&self->calls);
  g_clear_object (&self->field);
  g_clear_object (&self->tool);
  g_clear_object (&self->project);
  g_clear_object (&self->permissions);
  g_clear_object (&self->history);

  G_OBJECT_CLASS (plugboard_tool_page_parent_class)->dispose (object);
}

static void
plugboard_tool_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  PlugboardToolPage *self = PLUGBOARD_TOOL_PAGE (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    case PROP_PERMISSIONS:
      g_value_set_object (value, self->permissions);
      break;
    case PROP_HISTORY:
      g_value_set_object (value, self->history);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->run != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_tool_page_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  PlugboardToolPage *self = PLUGBOARD_TOOL_PAGE (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      plugboard_tool_page_set_tool (self, g_value_get_object (value));
      break;
    case PROP_PERMISSIONS:
      plugboard_tool_page_set_permissions (self, g_value_get_object (value));
      break;
    case PROP_HISTORY:
      plugboard_tool_page_set_history (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_tool_page_class_init (PlugboardToolPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_tool_page_dispose;
  object_class->get_property = plugboard_tool_page_get_property;
  object_class->set_property = plugboard_tool_page_set_property;

  properties[PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL,
                         MCP_TYPE_POOL_TOOL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PERMISSIONS] =
    g_param_spec_object ("permissions", NULL, NULL,
                         MCP_TYPE_PERMISSIONS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HISTORY] =
    g_param_spec_object ("history", NULL, NULL,
                         MCP_TYPE_TOOL_HISTORY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PlugboardToolPage::run-finished:
   * @tool: the tool that ran
   * @succeeded: it answered, and not with an error result
   * @message: (nullable): why the call failed
   *
   * A run the person left running, for another tool, has ended.
   */
  signals[RUN_FINISHED] =
    g_signal_new ("run-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, MCP_TYPE_POOL_TOOL, G_TYPE_BOOLEAN, G_TYPE_STRING);

  /* Escape stops the run (the action is off, and Escape goes on, when
   * nothing runs) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "tool.cancel", NULL);

  g_type_ensure (PLUGBOARD_TYPE_JSON_EDITOR);
  g_type_ensure (PLUGBOARD_TYPE_RESULT_VIEW);

  gtk_widget_class_install_action (widget_class, "tool.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "tool.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "tool.save-arguments", NULL, save_arguments_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "tool.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "tool.run", NULL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-tool-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, server_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, form_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, json_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, arguments_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, form_bin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, json_editor);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, arguments_error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, run_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, run_button_content);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_check);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_note_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_status_icon);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_status_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_id_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, task_message_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, error_icon);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, permission_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, rule_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, rule_box);
  gtk_widget_class_bind_template_callback (widget_class, on_rule_selected_cb);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, saved_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, save_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, progress_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, elapsed_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, result_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, result_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, result_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, history_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, history_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, annotations_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, input_schema_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, input_schema_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, output_schema_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, output_schema_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, saved_popover);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, saved_empty_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolPage, saved_list);
  gtk_widget_class_bind_template_callback (widget_class, on_mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_json_changed_cb);
}

static void
plugboard_tool_page_init (PlugboardToolPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_label_guard_links (self->description_label);
  /* it quotes a rule: a name broken across lines keeps no hyphen */
  {
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    gtk_label_set_attributes (self->permission_label, attrs);
    pango_attr_list_unref (attrs);
  }

  update_saved (self);
  plugboard_tool_page_update_actions (self);
}
