/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: the type, its properties and signal, the tool shown,
 * its permission (the rule that decides, and the rule chosen for it) and
 * the tool.* actions. */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

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

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

void
plugboard_tool_page_clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

char *
plugboard_tool_page_format_duration (gint64 usec)
{
  if (usec < G_USEC_PER_SEC * 60)
    /* Translators: a duration in seconds, e.g. "1.4 s" */
    return g_strdup_printf (_("%.1f s"), (double) usec / G_USEC_PER_SEC);

  /* Translators: a duration in minutes and seconds, e.g. "2 min 05 s" */
  return g_strdup_printf (_("%d min %02d s"),
                          (int) (usec / (G_USEC_PER_SEC * 60)),
                          (int) ((usec / G_USEC_PER_SEC) % 60));
}

void
plugboard_tool_page_notify_running (PlugboardToolPage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

void
plugboard_tool_page_emit_run_finished (PlugboardToolPage *self,
                                       McpPoolTool       *tool,
                                       gboolean           succeeded,
                                       const char        *message)
{
  g_signal_emit (self, signals[RUN_FINISHED], 0, tool, succeeded, message);
}

/* ------------------------------------------------------------------------ */
/* Permissions                                                              */

/* For display only: the call itself is checked once, by its McpCall. */
void
plugboard_tool_page_update_permission (PlugboardToolPage *self)
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
/* Actions                                                                  */

void
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
  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));
  g_return_if_fail (!tool || MCP_IS_POOL_TOOL (tool));

  if (self->tool == tool)
    return;

  plugboard_tool_page_detach_run (self, FALSE);
  plugboard_tool_page_save_draft (self);
  g_set_object (&self->tool, tool);

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

  plugboard_tool_page_update_description (self);

  plugboard_tool_page_rebuild_form (self);
  plugboard_tool_page_update_task_support (self);
  g_cancellable_cancel (self->final_status_cancellable);
  plugboard_result_view_clear (self->result_view);
  gtk_widget_set_visible (self->result_group, FALSE);
  plugboard_tool_page_update_history (self);
  plugboard_tool_page_update_saved (self);
  plugboard_tool_page_update_permission (self);

  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
  plugboard_tool_page_update_traffic (self, TRUE);
  plugboard_tool_page_app_update (self);

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
      plugboard_tool_page_update_permission (self);
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
      plugboard_tool_page_update_history (self);
      plugboard_tool_page_update_saved (self);
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

  plugboard_tool_page_detach_run (self, TRUE);
  plugboard_tool_page_dispose_app (self);
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
      plugboard_tool_page_clear_list (self->annotations_list);
      plugboard_tool_page_clear_list (self->input_schema_list);
      plugboard_tool_page_clear_list (self->output_schema_list);
      plugboard_tool_page_clear_list (self->saved_list);
    }

  /* AdwBin keeps its own pointer to the template's top child (the
   * traffic flap), which dispose_template unparents. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_TOOL_PAGE);

  g_clear_object (&self->calls);
  g_clear_object (&self->traffic_settings);
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
  gtk_widget_class_install_action (widget_class, "tool.save-arguments", NULL, plugboard_tool_page_save_arguments_action);
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

  plugboard_tool_page_class_arguments_init (widget_class);
  plugboard_tool_page_class_init_traffic (widget_class);
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

  plugboard_tool_page_update_saved (self);
  plugboard_tool_page_update_actions (self);
  plugboard_tool_page_init_traffic (self);
  plugboard_tool_page_init_app (self);
}
