/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-row"

#include "config.h"

#include "plugboard-server-row.h"
#include "plugboard-common.h"

#include <glib/gi18n.h>

#include "mcp-server-connection.h"

struct _PlugboardServerRow
{
  GtkWidget     parent_instance;

  /* Template widgets */
  GtkWidget    *box;
  GtkImage     *transport_image;
  GtkLabel     *name_label;
  GtkLabel     *scope_label;
  GtkLabel     *separator_label;
  GtkStack     *indicator_stack;
  GtkSpinner   *spinner;
  GtkWidget    *dot;
  GtkImage     *state_image;
  GtkLabel     *state_label;

  /* Owned references */
  GObject      *item;
  McpSettings  *settings;
  GSignalGroup *connection_signals;
  GSignalGroup *tools_signals;
  GSignalGroup *settings_signals;
  char         *state_text;
};

enum {
  PROP_0,
  PROP_ITEM,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PlugboardServerRow, plugboard_server_row, GTK_TYPE_WIDGET)

/* Colours of the state dot and icon. Kept here rather than in a style.css
 * so that the row looks right wherever it is used (tests included). */



static void
set_transport (PlugboardServerRow *self,
               McpServerConfig    *config)
{
  const char *icon_name = "utilities-terminal-symbolic";
  const char *tooltip = _("Local program (stdio)");

  switch (mcp_server_config_get_transport (config))
    {
    case MCP_TRANSPORT_KIND_STDIO:
      break;
    case MCP_TRANSPORT_KIND_HTTP:
      icon_name = "network-server-symbolic";
      tooltip = _("Remote server (HTTP)");
      break;
    case MCP_TRANSPORT_KIND_SSE:
      icon_name = "network-server-symbolic";
      tooltip = _("Remote server (server-sent events)");
      break;
    case MCP_TRANSPORT_KIND_WS:
      icon_name = "network-transmit-receive-symbolic";
      tooltip = _("Remote server (WebSocket)");
      break;
    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
      icon_name = "computer-symbolic";
      tooltip = _("Editor or IDE");
      break;
    default:
      g_assert_not_reached ();
    }

  gtk_image_set_from_icon_name (self->transport_image, icon_name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->transport_image), tooltip);
}

static void
set_state (PlugboardServerRow *self,
           const char         *indicator,
           const char         *icon_name,
           const char         *style_class,
           const char         *text)
{
  static const char * const classes[] = { "success", "warning", "error", "dim-label", NULL };

  g_free (self->state_text);
  self->state_text = g_strdup (text);
  gtk_label_set_text (self->state_label, text);

  gtk_stack_set_visible_child_name (self->indicator_stack, indicator);
  gtk_widget_set_visible (GTK_WIDGET (self->indicator_stack), !g_str_equal (indicator, "none"));
  gtk_spinner_set_spinning (self->spinner, g_str_equal (indicator, "spinner"));
  if (icon_name != NULL)
    gtk_image_set_from_icon_name (self->state_image, icon_name);

  for (guint i = 0; classes[i] != NULL; i++)
    {
      if (g_strcmp0 (classes[i], style_class) == 0)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->state_label), classes[i]);
          gtk_widget_add_css_class (GTK_WIDGET (self->state_image), classes[i]);
        }
      else
        {
          gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), classes[i]);
          gtk_widget_remove_css_class (GTK_WIDGET (self->state_image), classes[i]);
        }
    }
}

static void
update_connection (PlugboardServerRow  *self,
                   McpServerConnection *connection)
{
  McpServerConfig *config = mcp_server_connection_get_config (connection);
  const char *name = mcp_server_connection_get_name (connection);
  McpApproval approval = MCP_APPROVAL_NOT_NEEDED;

  gtk_label_set_text (self->name_label, name);
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_label), "dim-label");
  gtk_label_set_text (self->scope_label, plugboard_config_place_label (config));
  set_transport (self, config);

  if (self->settings != NULL)
    approval = mcp_settings_get_approval (self->settings, name);

  switch (mcp_server_connection_get_state (connection))
    {
    case MCP_SERVER_STATE_PENDING:
      set_state (self, "spinner", NULL, NULL, _("Connecting…"));
      break;

    case MCP_SERVER_STATE_CONNECTED:
      {
        guint n = g_list_model_get_n_items (mcp_server_connection_get_tools (connection));
        g_autofree char *text = g_strdup_printf (ngettext ("%u tool", "%u tools", n), n);

        set_state (self, "dot", NULL, "success", text);
      }
      break;

    case MCP_SERVER_STATE_FAILED:
      set_state (self, "icon", "dialog-error-symbolic", "error", _("Failed"));
      break;

    case MCP_SERVER_STATE_NEEDS_AUTH:
      set_state (self, "icon", "dialog-password-symbolic", "warning", _("Sign in"));
      break;

    case MCP_SERVER_STATE_DISABLED:
      if (approval == MCP_APPROVAL_PENDING)
        set_state (self, "icon", "security-medium-symbolic", "warning", _("Awaiting approval"));
      else if (approval == MCP_APPROVAL_CHANGED)
        set_state (self, "icon", "security-medium-symbolic", "warning", _("Changed since approval"));
      else if (approval == MCP_APPROVAL_REJECTED)
        set_state (self, "icon", "action-unavailable-symbolic", "dim-label", _("Rejected"));
      else
        set_state (self, "none", NULL, "dim-label", _("Disabled"));
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
update_shadowed (PlugboardServerRow *self,
                 McpServerConfig    *config)
{
  const char *name = mcp_server_config_get_name (config);
  McpServerConfig *winner = NULL;

  gtk_label_set_text (self->name_label, name);
  gtk_widget_add_css_class (GTK_WIDGET (self->name_label), "dim-label");
  gtk_label_set_text (self->scope_label, plugboard_scope_label (mcp_server_config_get_scope (config)));
  set_transport (self, config);

  if (self->settings != NULL)
    winner = mcp_settings_lookup (self->settings, name);

  if (winner != NULL && winner != config)
    {
      const char *scope = plugboard_scope_label (mcp_server_config_get_scope (winner));
      /* Translators: the argument is a scope: "User", "Project" or "Local". */
      g_autofree char *text = g_strdup_printf (_("Shadowed by %s"), scope);

      set_state (self, "none", NULL, "dim-label", text);
    }
  else
    {
      set_state (self, "none", NULL, "dim-label", _("Shadowed"));
    }
}

static void
plugboard_server_row_update (PlugboardServerRow *self)
{
  g_autofree char *accessible = NULL;

  g_assert (PLUGBOARD_IS_SERVER_ROW (self));

  if (MCP_IS_SERVER_CONNECTION (self->item))
    update_connection (self, MCP_SERVER_CONNECTION (self->item));
  else if (MCP_IS_SERVER_CONFIG (self->item))
    update_shadowed (self, MCP_SERVER_CONFIG (self->item));
  else
    {
      gtk_label_set_text (self->name_label, "");
      gtk_label_set_text (self->scope_label, "");
      set_state (self, "none", NULL, NULL, "");
      return;
    }

  accessible = g_strdup_printf ("%s, %s, %s",
                                gtk_label_get_text (self->name_label),
                                gtk_label_get_text (self->scope_label),
                                self->state_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
}

static void
on_tools_notify_cb (PlugboardServerRow *self)
{
  McpServerConnection *connection = MCP_SERVER_CONNECTION (self->item);

  g_signal_group_set_target (self->tools_signals, mcp_server_connection_get_tools (connection));
  plugboard_server_row_update (self);
}

static void
plugboard_server_row_dispose (GObject *object)
{
  PlugboardServerRow *self = (PlugboardServerRow *)object;

  if (self->connection_signals != NULL)
    g_signal_group_set_target (self->connection_signals, NULL);
  if (self->tools_signals != NULL)
    g_signal_group_set_target (self->tools_signals, NULL);
  if (self->settings_signals != NULL)
    g_signal_group_set_target (self->settings_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SERVER_ROW);

  g_clear_object (&self->item);
  g_clear_object (&self->settings);
  g_clear_object (&self->connection_signals);
  g_clear_object (&self->tools_signals);
  g_clear_object (&self->settings_signals);

  G_OBJECT_CLASS (plugboard_server_row_parent_class)->dispose (object);
}

static void
plugboard_server_row_finalize (GObject *object)
{
  PlugboardServerRow *self = (PlugboardServerRow *)object;

  g_free (self->state_text);

  G_OBJECT_CLASS (plugboard_server_row_parent_class)->finalize (object);
}

static void
plugboard_server_row_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PlugboardServerRow *self = PLUGBOARD_SERVER_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_server_row_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PlugboardServerRow *self = PLUGBOARD_SERVER_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      plugboard_server_row_set_item (self, g_value_get_object (value));
      break;
    case PROP_SETTINGS:
      plugboard_server_row_set_settings (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_server_row_class_init (PlugboardServerRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_server_row_dispose;
  object_class->finalize = plugboard_server_row_finalize;
  object_class->get_property = plugboard_server_row_get_property;
  object_class->set_property = plugboard_server_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, MCP_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-server-row.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, transport_image);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, scope_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, separator_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, indicator_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, dot);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, state_image);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerRow, state_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
plugboard_server_row_init (PlugboardServerRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));

  self->connection_signals = g_signal_group_new (MCP_TYPE_SERVER_CONNECTION);
  g_signal_group_connect_object (self->connection_signals, "notify::state",
                                 G_CALLBACK (plugboard_server_row_update), self, G_CONNECT_SWAPPED);
  /* saved from being tried, or moved: the same connection, another scope */
  g_signal_group_connect_object (self->connection_signals, "notify::config",
                                 G_CALLBACK (plugboard_server_row_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::tools",
                                 G_CALLBACK (on_tools_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "tools-changed",
                                 G_CALLBACK (plugboard_server_row_update), self, G_CONNECT_SWAPPED);

  self->tools_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_object (self->tools_signals, "items-changed",
                                 G_CALLBACK (plugboard_server_row_update), self, G_CONNECT_SWAPPED);

  /* Approval decisions and what shadows an entry live in the settings. */
  self->settings_signals = g_signal_group_new (MCP_TYPE_SETTINGS);
  g_signal_group_connect_object (self->settings_signals, "changed",
                                 G_CALLBACK (plugboard_server_row_update), self, G_CONNECT_SWAPPED);

  plugboard_server_row_update (self);
}

GtkWidget *
plugboard_server_row_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_SERVER_ROW, NULL);
}

void
plugboard_server_row_set_item (PlugboardServerRow *self,
                               GObject            *item)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_ROW (self));
  g_return_if_fail (item == NULL || MCP_IS_SERVER_CONNECTION (item) || MCP_IS_SERVER_CONFIG (item));

  if (!g_set_object (&self->item, item))
    return;

  if (MCP_IS_SERVER_CONNECTION (item))
    {
      g_signal_group_set_target (self->connection_signals, item);
      g_signal_group_set_target (self->tools_signals,
                                 mcp_server_connection_get_tools (MCP_SERVER_CONNECTION (item)));
    }
  else
    {
      g_signal_group_set_target (self->connection_signals, NULL);
      g_signal_group_set_target (self->tools_signals, NULL);
    }

  plugboard_server_row_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

GObject *
plugboard_server_row_get_item (PlugboardServerRow *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_ROW (self), NULL);

  return self->item;
}

void
plugboard_server_row_set_settings (PlugboardServerRow *self,
                                   McpSettings        *settings)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_ROW (self));
  g_return_if_fail (settings == NULL || MCP_IS_SETTINGS (settings));

  if (!g_set_object (&self->settings, settings))
    return;

  g_signal_group_set_target (self->settings_signals, settings);
  plugboard_server_row_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTINGS]);
}

const char *
plugboard_server_row_get_state_text (PlugboardServerRow *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_ROW (self), NULL);

  return self->state_text != NULL ? self->state_text : "";
}
