/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage: the object, its properties and public setters, and
 * the update of the whole page when its connection or settings change.
 * The parts of the page are in plugboard-server-page-*.c. */

#include "config.h"

#include "plugboard-server-page-private.h"
#include "plugboard-common.h"
#include "plugboard-skills-view.h"

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_SETTINGS,
  PROP_SIGNING_IN,
  PROP_SIGN_IN_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PlugboardServerPage, plugboard_server_page, ADW_TYPE_BIN)

McpApproval
plugboard_server_page_get_approval (PlugboardServerPage *self)
{
  if (self->connection == NULL)
    return MCP_APPROVAL_NOT_NEEDED;

  return mcp_server_connection_get_approval (self->connection);
}

static void
on_roots_changed_cb (PlugboardServerPage *self,
                     const char          *server)
{
  if (self->connection != NULL && g_strcmp0 (server, mcp_server_connection_get_name (self->connection)) == 0)
    plugboard_server_page_update_roots (self);
}

/* The Skills tab shows for a server that declares the extension. */
static void
update_skills (PlugboardServerPage *self)
{
  GtkWidget *view = adw_view_stack_get_child_by_name (self->view_stack, "skills");
  gboolean offered = self->connection != NULL && mcp_server_connection_offers_skills (self->connection);

  if (view == NULL)
    return;
  if (!offered && g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "skills") == 0)
    adw_view_stack_set_visible_child_name (self->view_stack, "overview");
  adw_view_stack_page_set_visible (adw_view_stack_get_page (self->view_stack, view), offered);
}

static void
plugboard_server_page_update (PlugboardServerPage *self)
{
  g_assert (PLUGBOARD_IS_SERVER_PAGE (self));

  update_skills (self);

  if (self->connection == NULL)
    {
      gtk_label_set_text (self->name_label, "");
      gtk_label_set_text (self->subtitle_label, "");
      g_clear_pointer (&self->state_detail, g_free);
      gtk_label_set_text (self->state_title_label, "");
      gtk_label_set_text (self->state_detail_label, "");
      gtk_widget_set_visible (self->info_group, FALSE);
      gtk_menu_button_set_menu_model (self->menu_button, NULL);
      g_clear_pointer (&self->menu_key, g_free);
      plugboard_server_page_update_log_level (self);
      plugboard_server_page_update_traffic (self);
      return;
    }

  plugboard_server_page_update_settings (self);
  plugboard_server_page_update_server_rule (self);
  plugboard_server_page_update_state (self);
  plugboard_server_page_update_info (self);
  plugboard_server_page_update_roots (self);
  plugboard_server_page_update_latency (self);
  plugboard_server_page_update_menu (self);
  plugboard_server_page_update_log_level (self);
  plugboard_server_page_update_traffic (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_server_page_dispose (GObject *object)
{
  PlugboardServerPage *self = (PlugboardServerPage *)object;

  if (self->server_tools != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->server_tools, self);
      /* The filter's function points at this page. */
      gtk_filter_list_model_set_filter (self->server_tools, NULL);
    }
  if (self->tool_list != NULL)
    plugboard_tool_list_set_tools (self->tool_list, NULL);

  if (self->roots != NULL)
    g_signal_handlers_disconnect_by_func (self->roots, on_roots_changed_cb, self);
  g_clear_object (&self->roots);
  g_clear_object (&self->project);
  g_cancellable_cancel (self->ping_cancellable);
  g_clear_object (&self->ping_cancellable);
  if (self->connection_signals != NULL)
    g_signal_group_set_target (self->connection_signals, NULL);
  if (self->settings_signals != NULL)
    g_signal_group_set_target (self->settings_signals, NULL);
  if (self->log_signals != NULL)
    g_signal_group_set_target (self->log_signals, NULL);

  g_cancellable_cancel (self->log_level_cancellable);
  g_clear_object (&self->log_level_cancellable);
  self->resource_browser = NULL;
  self->prompt_browser = NULL;
  self->task_list = NULL;
  if (self->traffic_view != NULL)
    plugboard_traffic_view_set_trace (self->traffic_view, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SERVER_PAGE);

  g_clear_object (&self->connection);
  g_clear_object (&self->settings);
  g_clear_object (&self->connection_signals);
  g_clear_object (&self->settings_signals);
  g_clear_object (&self->log_signals);
  g_clear_object (&self->log_selection);
  g_clear_object (&self->server_tools);
  g_clear_object (&self->tool_pool);

  G_OBJECT_CLASS (plugboard_server_page_parent_class)->dispose (object);
}

static void
plugboard_server_page_finalize (GObject *object)
{
  PlugboardServerPage *self = (PlugboardServerPage *)object;

  g_free (self->sign_in_error);
  g_free (self->sign_in_url);
  g_free (self->latency);
  g_free (self->state_detail);
  g_free (self->menu_key);

  G_OBJECT_CLASS (plugboard_server_page_parent_class)->finalize (object);
}

static void
plugboard_server_page_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardServerPage *self = PLUGBOARD_SERVER_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_SIGNING_IN:
      g_value_set_boolean (value, self->signing_in);
      break;
    case PROP_SIGN_IN_ERROR:
      g_value_set_string (value, self->sign_in_error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_server_page_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardServerPage *self = PLUGBOARD_SERVER_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      plugboard_server_page_set_connection (self, g_value_get_object (value));
      break;
    case PROP_SETTINGS:
      plugboard_server_page_set_settings (self, g_value_get_object (value));
      break;
    case PROP_SIGNING_IN:
      plugboard_server_page_set_signing_in (self, g_value_get_boolean (value));
      break;
    case PROP_SIGN_IN_ERROR:
      plugboard_server_page_set_sign_in_error (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_server_page_class_init (PlugboardServerPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_server_page_dispose;
  object_class->finalize = plugboard_server_page_finalize;
  object_class->get_property = plugboard_server_page_get_property;
  object_class->set_property = plugboard_server_page_set_property;

  g_type_ensure (PLUGBOARD_TYPE_TOOL_LIST);
  g_type_ensure (PLUGBOARD_TYPE_RESOURCE_BROWSER);
  g_type_ensure (PLUGBOARD_TYPE_PROMPT_BROWSER);
  g_type_ensure (PLUGBOARD_TYPE_SKILLS_VIEW);
  g_type_ensure (PLUGBOARD_TYPE_TASK_LIST);
  g_type_ensure (PLUGBOARD_TYPE_TRAFFIC_VIEW);
  g_type_ensure (PLUGBOARD_TYPE_CHANGES_VIEW);
  g_type_ensure (PLUGBOARD_TYPE_SERVER_CLIENTS);

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL, MCP_TYPE_SERVER_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, MCP_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIGNING_IN] =
    g_param_spec_boolean ("signing-in", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIGN_IN_ERROR] =
    g_param_spec_string ("sign-in-error", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-server-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, edit_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_clients);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, roots_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, menu_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_icon_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_image);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_detail_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, stderr_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, command_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, sign_in_error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, cancel_sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, sign_in_steps_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, approve_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, reject_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, enable_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, reconnect_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, diagnose_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, info_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_version_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_version_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, protocol_version_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, roots_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, roots_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_rule_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, latency_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, ping_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, copy_sign_in_url_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, capabilities_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, instructions_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, instructions_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, transport_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, command_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, command_setting_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, cwd_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, cwd_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, scope_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, tried_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, save_tried_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, discard_tried_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, copy_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_scroller);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, tools_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, tool_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, overview_scroller);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_level_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_level_error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, traffic_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, changes_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, changes_page);

  plugboard_server_page_class_init_state (widget_class);
  plugboard_server_page_class_init_info (widget_class);
  plugboard_server_page_class_init_tools (widget_class);
  plugboard_server_page_class_init_log (widget_class);
  plugboard_server_page_class_init_traffic (widget_class);
}

static void
plugboard_server_page_init (PlugboardServerPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_label_guard_links (self->instructions_label);

  /* A command or an address to trust, broken across lines: no hyphen may
   * appear in it ("ind-ex.js") */
  {
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    gtk_label_set_attributes (self->command_label, attrs);
    pango_attr_list_unref (attrs);
  }
  plugboard_style_ensure (GTK_WIDGET (self));

  self->resource_browser = PLUGBOARD_RESOURCE_BROWSER (adw_view_stack_get_child_by_name (self->view_stack, "resources"));
  self->prompt_browser = PLUGBOARD_PROMPT_BROWSER (adw_view_stack_get_child_by_name (self->view_stack, "prompts"));
  self->task_list = PLUGBOARD_TASK_LIST (adw_view_stack_get_child_by_name (self->view_stack, "tasks"));

  plugboard_server_page_init_log (self);

  /* A button whose window action takes a name must never be without one,
   * even before a server is shown: GTK warns about the type otherwise. */
  plugboard_server_page_update_targets (self);

  self->connection_signals = g_signal_group_new (MCP_TYPE_SERVER_CONNECTION);
  g_signal_group_connect_object (self->connection_signals, "notify::state",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  /* what the state card says of a disabled server (the rest is bound) */
  g_signal_group_connect_object (self->connection_signals, "notify::approval",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::error",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::client",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  /* the same server saved (from being tried) or moved to another scope */
  g_signal_group_connect_object (self->connection_signals, "notify::config",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::stderr-tail",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "tools-changed",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::log",
                                 G_CALLBACK (plugboard_server_page_set_log_model), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::log-level",
                                 G_CALLBACK (plugboard_server_page_update_log_level), self, G_CONNECT_SWAPPED);

  self->settings_signals = g_signal_group_new (MCP_TYPE_SETTINGS);
  g_signal_group_connect_object (self->settings_signals, "changed",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);

  plugboard_server_page_update (self);
}

GtkWidget *
plugboard_server_page_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_SERVER_PAGE, NULL);
}

void
plugboard_server_page_set_connection (PlugboardServerPage *self,
                                      McpServerConnection *connection)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (connection == NULL || MCP_IS_SERVER_CONNECTION (connection));

  if (self->connection == connection)
    return;

  /* Another server opens on its Overview, at the top; the same server in
   * a new connection (its settings changed) stays where the person is. */
  if (connection == NULL || self->connection == NULL ||
      g_strcmp0 (mcp_server_connection_get_name (connection),
                 mcp_server_connection_get_name (self->connection)) != 0)
    {
      adw_view_stack_set_visible_child_name (self->view_stack, "overview");
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->overview_scroller), 0);
    }

  g_set_object (&self->connection, connection);
  g_cancellable_cancel (self->ping_cancellable);
  g_clear_object (&self->ping_cancellable);
  g_clear_pointer (&self->latency, g_free);

  g_clear_pointer (&self->menu_key, g_free);
  g_signal_group_set_target (self->connection_signals, connection);
  g_cancellable_cancel (self->log_level_cancellable);
  g_clear_object (&self->log_level_cancellable);
  plugboard_server_page_show_log_level_error (self, NULL);
  if (self->resource_browser != NULL)
    plugboard_resource_browser_set_connection (self->resource_browser, connection);
  if (self->prompt_browser != NULL)
    plugboard_prompt_browser_set_connection (self->prompt_browser, connection);
  if (self->task_list != NULL)
    plugboard_task_list_set_connection (self->task_list, connection);
  if (adw_view_stack_get_child_by_name (self->view_stack, "skills") != NULL)
    plugboard_skills_view_set_connection (PLUGBOARD_SKILLS_VIEW (adw_view_stack_get_child_by_name (self->view_stack, "skills")),
                                          connection);
  plugboard_server_page_set_log_model (self);
  plugboard_server_page_update_targets (self);
  plugboard_server_page_update_tools (self);
  plugboard_server_page_update_changes (self);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTION]);
}

void
plugboard_server_page_set_clients (PlugboardServerPage *self,
                                   GPtrArray           *summaries,
                                   McpClientKind        current)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  plugboard_server_clients_set (self->server_clients, summaries, current,
                                self->connection != NULL ? mcp_server_connection_get_name (self->connection) : NULL);
}

McpServerConnection *
plugboard_server_page_get_connection (PlugboardServerPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_PAGE (self), NULL);

  return self->connection;
}

void
plugboard_server_page_set_settings (PlugboardServerPage *self,
                                    McpSettings         *settings)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (settings == NULL || MCP_IS_SETTINGS (settings));

  if (!g_set_object (&self->settings, settings))
    return;

  g_signal_group_set_target (self->settings_signals, settings);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTINGS]);
}

void
plugboard_server_page_set_roots (PlugboardServerPage *self,
                                 McpRoots            *roots)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (roots == NULL || MCP_IS_ROOTS (roots));

  if (self->roots == roots)
    return;
  if (self->roots != NULL)
    g_signal_handlers_disconnect_by_func (self->roots, on_roots_changed_cb, self);
  g_set_object (&self->roots, roots);
  if (roots != NULL)
    g_signal_connect_object (roots, "changed", G_CALLBACK (on_roots_changed_cb), self, G_CONNECT_SWAPPED);
  plugboard_server_page_update_roots (self);
}

void
plugboard_server_page_set_signing_in (PlugboardServerPage *self,
                                      gboolean             signing_in)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  signing_in = !!signing_in;
  if (self->signing_in == signing_in)
    return;

  self->signing_in = signing_in;
  /* A new attempt: the last failure no longer applies. */
  if (signing_in)
    plugboard_server_page_set_sign_in_error (self, NULL);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNING_IN]);
}

void
plugboard_server_page_set_sign_in_url (PlugboardServerPage *self,
                                       const char          *url)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  if (g_strcmp0 (self->sign_in_url, url) == 0)
    return;
  g_free (self->sign_in_url);
  self->sign_in_url = g_strdup (url);
  plugboard_server_page_update (self);
}

void
plugboard_server_page_set_sign_in_error (PlugboardServerPage *self,
                                         const char          *message)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  if (g_strcmp0 (self->sign_in_error, message) == 0)
    return;

  g_free (self->sign_in_error);
  self->sign_in_error = g_strdup (message);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGN_IN_ERROR]);
}

const char *
plugboard_server_page_get_state_title (PlugboardServerPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_PAGE (self), NULL);

  return gtk_label_get_text (self->state_title_label);
}

const char *
plugboard_server_page_get_state_detail (PlugboardServerPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_PAGE (self), NULL);

  return self->state_detail != NULL ? self->state_detail : "";
}
