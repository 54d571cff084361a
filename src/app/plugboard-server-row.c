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
  GSignalGroup *settings_signals;
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



/* What a connection shows is bound in the template to its properties
 * (state, approval, config, the tools' n-items) through the closures
 * below. A shadowed entry (an McpServerConfig) has no state: those
 * bindings do not evaluate for it (they look up connection properties) and
 * update_shadowed() sets the same widgets, when the item or the settings
 * (what shadows it) change. */

static const char *
transport_icon (McpServerConfig *config)
{
  if (config == NULL)
    return "utilities-terminal-symbolic";

  switch (mcp_server_config_get_transport (config))
    {
    case MCP_TRANSPORT_KIND_STDIO:
      return "utilities-terminal-symbolic";
    case MCP_TRANSPORT_KIND_HTTP:
    case MCP_TRANSPORT_KIND_SSE:
      return "network-server-symbolic";
    case MCP_TRANSPORT_KIND_WS:
      return "network-transmit-receive-symbolic";
    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
      return "computer-symbolic";
    default:
      g_assert_not_reached ();
    }
}

static const char *
transport_tooltip (McpServerConfig *config)
{
  if (config == NULL)
    return _("Local program (stdio)");

  switch (mcp_server_config_get_transport (config))
    {
    case MCP_TRANSPORT_KIND_STDIO:
      return _("Local program (stdio)");
    case MCP_TRANSPORT_KIND_HTTP:
      return _("Remote server (HTTP)");
    case MCP_TRANSPORT_KIND_SSE:
      return _("Remote server (server-sent events)");
    case MCP_TRANSPORT_KIND_WS:
      return _("Remote server (WebSocket)");
    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
      return _("Editor or IDE");
    default:
      g_assert_not_reached ();
    }
}

/* What the state indicator shows: "spinner", "dot", "icon" or "none". */
static const char *
state_indicator (McpServerState state,
                 McpApproval    approval)
{
  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return "spinner";
    case MCP_SERVER_STATE_CONNECTED:
      return "dot";
    case MCP_SERVER_STATE_FAILED:
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return "icon";
    case MCP_SERVER_STATE_DISABLED:
      return approval == MCP_APPROVAL_NOT_NEEDED || approval == MCP_APPROVAL_APPROVED ? "none" : "icon";
    default:
      g_assert_not_reached ();
    }
}

static const char *
state_icon (McpServerState state,
            McpApproval    approval)
{
  switch (state)
    {
    case MCP_SERVER_STATE_FAILED:
      return "dialog-error-symbolic";
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return "dialog-password-symbolic";
    case MCP_SERVER_STATE_DISABLED:
      if (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED)
        return "security-medium-symbolic";
      if (approval == MCP_APPROVAL_REJECTED)
        return "action-unavailable-symbolic";
      return NULL;
    case MCP_SERVER_STATE_PENDING:
    case MCP_SERVER_STATE_CONNECTED:
    default:
      return NULL;
    }
}

/* "success", "warning", "error", "dim-label" or NULL */
static const char *
state_style_class (McpServerState state,
                   McpApproval    approval)
{
  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return NULL;
    case MCP_SERVER_STATE_CONNECTED:
      return "success";
    case MCP_SERVER_STATE_FAILED:
      return "error";
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return "warning";
    case MCP_SERVER_STATE_DISABLED:
      return approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED ? "warning" : "dim-label";
    default:
      g_assert_not_reached ();
    }
}

static char *
name_text (PlugboardServerRow *self,
           GObject            *item)
{
  if (MCP_IS_SERVER_CONNECTION (item))
    return g_strdup (mcp_server_connection_get_name (MCP_SERVER_CONNECTION (item)));
  if (MCP_IS_SERVER_CONFIG (item))
    return g_strdup (mcp_server_config_get_name (MCP_SERVER_CONFIG (item)));
  return g_strdup ("");
}

static GStrv
name_classes (PlugboardServerRow *self,
              GObject            *item)
{
  /* a shadowed entry is dimmed */
  if (MCP_IS_SERVER_CONFIG (item))
    return g_strdupv ((char *[]) { (char *)"heading", (char *)"dim-label", NULL });
  return g_strdupv ((char *[]) { (char *)"heading", NULL });
}

static char *
scope_text (PlugboardServerRow *self,
            McpServerConfig    *config)
{
  return g_strdup (config != NULL ? plugboard_config_place_label (config) : "");
}

static char *
transport_icon_name (PlugboardServerRow *self,
                     McpServerConfig    *config)
{
  return g_strdup (transport_icon (config));
}

static char *
transport_tooltip_text (PlugboardServerRow *self,
                        McpServerConfig    *config)
{
  return g_strdup (transport_tooltip (config));
}

static char *
state_text (PlugboardServerRow *self,
            McpServerState      state,
            McpApproval         approval,
            guint               n_tools)
{
  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return g_strdup (_("Connecting…"));
    case MCP_SERVER_STATE_CONNECTED:
      return g_strdup_printf (ngettext ("%u tool", "%u tools", n_tools), n_tools);
    case MCP_SERVER_STATE_FAILED:
      return g_strdup (_("Failed"));
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return g_strdup (_("Sign in"));
    case MCP_SERVER_STATE_DISABLED:
      if (approval == MCP_APPROVAL_PENDING)
        return g_strdup (_("Awaiting approval"));
      if (approval == MCP_APPROVAL_CHANGED)
        return g_strdup (_("Changed since approval"));
      if (approval == MCP_APPROVAL_REJECTED)
        return g_strdup (_("Rejected"));
      return g_strdup (_("Disabled"));
    default:
      g_assert_not_reached ();
    }
}

static GStrv
state_label_classes (PlugboardServerRow *self,
                     McpServerState      state,
                     McpApproval         approval)
{
  const char *style_class = state_style_class (state, approval);

  return g_strdupv ((char *[]) { (char *)"caption", (char *)style_class, NULL });
}

static GStrv
state_image_classes (PlugboardServerRow *self,
                     McpServerState      state,
                     McpApproval         approval)
{
  const char *style_class = state_style_class (state, approval);

  return g_strdupv ((char *[]) { (char *)style_class, NULL });
}

static char *
state_indicator_name (PlugboardServerRow *self,
                      McpServerState      state,
                      McpApproval         approval)
{
  return g_strdup (state_indicator (state, approval));
}

static gboolean
state_indicator_visible (PlugboardServerRow *self,
                         McpServerState      state,
                         McpApproval         approval)
{
  return !g_str_equal (state_indicator (state, approval), "none");
}

static char *
state_icon_name (PlugboardServerRow *self,
                 McpServerState      state,
                 McpApproval         approval)
{
  return g_strdup (state_icon (state, approval));
}

static gboolean
state_is_pending (PlugboardServerRow *self,
                  McpServerState      state)
{
  return state == MCP_SERVER_STATE_PENDING;
}

/* For a shadowed entry or none: what the bindings set for a connection. */
static void
set_unbound (PlugboardServerRow *self,
             McpServerConfig    *config,
             const char         *scope,
             const char         *text)
{
  gtk_label_set_text (self->scope_label, scope);
  gtk_image_set_from_icon_name (self->transport_image, transport_icon (config));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->transport_image), transport_tooltip (config));

  gtk_label_set_text (self->state_label, text);
  gtk_widget_set_css_classes (GTK_WIDGET (self->state_label),
                              (const char *[]) { "caption", config != NULL ? "dim-label" : NULL, NULL });
  gtk_widget_set_css_classes (GTK_WIDGET (self->state_image),
                              (const char *[]) { config != NULL ? "dim-label" : NULL, NULL });
  gtk_stack_set_visible_child_name (self->indicator_stack, "none");
  gtk_widget_set_visible (GTK_WIDGET (self->indicator_stack), FALSE);
  gtk_spinner_set_spinning (self->spinner, FALSE);
}

static void
update_shadowed (PlugboardServerRow *self,
                 McpServerConfig    *config)
{
  const char *name = mcp_server_config_get_name (config);
  const char *scope = plugboard_scope_label (mcp_server_config_get_scope (config));
  McpServerConfig *winner = NULL;

  if (self->settings != NULL)
    winner = mcp_settings_lookup (self->settings, name);

  if (winner != NULL && winner != config)
    {
      const char *winner_scope = plugboard_scope_label (mcp_server_config_get_scope (winner));
      /* Translators: the argument is a scope: "User", "Project" or "Local". */
      g_autofree char *text = g_strdup_printf (_("Shadowed by %s"), winner_scope);

      set_unbound (self, config, scope, text);
    }
  else
    {
      set_unbound (self, config, scope, _("Shadowed"));
    }
}

static void
update_accessible (PlugboardServerRow *self)
{
  g_autofree char *accessible = NULL;

  if (self->item == NULL)
    return;

  accessible = g_strdup_printf ("%s, %s, %s",
                                gtk_label_get_text (self->name_label),
                                gtk_label_get_text (self->scope_label),
                                gtk_label_get_text (self->state_label));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
}

static void
plugboard_server_row_update (PlugboardServerRow *self)
{
  g_assert (PLUGBOARD_IS_SERVER_ROW (self));

  if (MCP_IS_SERVER_CONFIG (self->item))
    update_shadowed (self, MCP_SERVER_CONFIG (self->item));
  else if (self->item == NULL)
    set_unbound (self, NULL, "", "");
}

static void
plugboard_server_row_dispose (GObject *object)
{
  PlugboardServerRow *self = (PlugboardServerRow *)object;

  if (self->settings_signals != NULL)
    g_signal_group_set_target (self->settings_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SERVER_ROW);

  g_clear_object (&self->item);
  g_clear_object (&self->settings);
  g_clear_object (&self->settings_signals);

  G_OBJECT_CLASS (plugboard_server_row_parent_class)->dispose (object);
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
  gtk_widget_class_bind_template_callback (widget_class, name_text);
  gtk_widget_class_bind_template_callback (widget_class, name_classes);
  gtk_widget_class_bind_template_callback (widget_class, scope_text);
  gtk_widget_class_bind_template_callback (widget_class, transport_icon_name);
  gtk_widget_class_bind_template_callback (widget_class, transport_tooltip_text);
  gtk_widget_class_bind_template_callback (widget_class, state_text);
  gtk_widget_class_bind_template_callback (widget_class, state_label_classes);
  gtk_widget_class_bind_template_callback (widget_class, state_image_classes);
  gtk_widget_class_bind_template_callback (widget_class, state_indicator_name);
  gtk_widget_class_bind_template_callback (widget_class, state_indicator_visible);
  gtk_widget_class_bind_template_callback (widget_class, state_icon_name);
  gtk_widget_class_bind_template_callback (widget_class, state_is_pending);
  gtk_widget_class_bind_template_callback (widget_class, update_accessible);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
plugboard_server_row_init (PlugboardServerRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));

  /* What shadows an entry lives in the settings. */
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

  return gtk_label_get_text (self->state_label);
}
