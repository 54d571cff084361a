/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-list-detail"

#include "config.h"

#include "plugboard-list-detail.h"
#include "plugboard-list-detail-private.h"

#include <glib/gi18n.h>

#include "mcp-server-info.h"
#include "plugboard-common.h"

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (PlugboardListDetail, plugboard_list_detail, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_FOLDED,
  PROP_DETAIL,
  PROP_LIST_WIDTH,
  /* the texts, in this order to the end */
  PROP_ICON_NAME,
  PROP_SEARCH_PLACEHOLDER,
  PROP_LIST_LABEL,
  PROP_NO_MATCH_TEXT,
  PROP_UNSELECTED_TITLE,
  PROP_UNSELECTED_DESCRIPTION,
  PROP_NOT_CONNECTED_DESCRIPTION,
  PROP_EMPTY_TITLE,
  PROP_UNSUPPORTED_DESCRIPTION,
  PROP_EMPTY_DESCRIPTION,
  N_PROPS
};

#define N_TEXTS (N_PROPS - PROP_ICON_NAME)

static GParamSpec *properties[N_PROPS];

PlugboardListDetailPrivate *
plugboard_list_detail_get_private (PlugboardListDetail *self)
{
  return plugboard_list_detail_get_instance_private (self);
}

#define TEXT(priv, prop) ((priv)->texts[(prop) - PROP_ICON_NAME])

/* ------------------------------------------------------------------------ */
/* The state                                                                */

static void
set_status (PlugboardListDetail *self,
            const char          *title,
            const char          *description)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  adw_status_page_set_title (priv->status_page, title);
  adw_status_page_set_description (priv->status_page, description);
}

static void
on_leaflet_folded_cb (PlugboardListDetail *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDED]);
}

static void
update_status (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);
  McpServerInfo *info = plugboard_list_detail_get_server_info (self);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (priv->selection));
  guint n_all = priv->items != NULL ? g_list_model_get_n_items (priv->items) : 0;

  if (priv->connection == NULL)
    set_status (self, _("No Server"), NULL);
  else if (info == NULL)
    set_status (self, _("Not Connected"), TEXT (priv, PROP_NOT_CONNECTED_DESCRIPTION));
  else if (!PLUGBOARD_LIST_DETAIL_GET_CLASS (self)->server_offers (info))
    set_status (self, TEXT (priv, PROP_EMPTY_TITLE), TEXT (priv, PROP_UNSUPPORTED_DESCRIPTION));
  else if (n_all == 0)
    set_status (self, TEXT (priv, PROP_EMPTY_TITLE), TEXT (priv, PROP_EMPTY_DESCRIPTION));

  gtk_stack_set_visible_child_name (priv->stack, info != NULL && n_all > 0 ? "browser" : "status");
  gtk_stack_set_visible_child_name (priv->list_stack, n_items > 0 ? "list" : "no-match");
  PLUGBOARD_LIST_DETAIL_GET_CLASS (self)->update (self);
}

static void
set_items (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);
  g_autoptr(GtkFilterListModel) filtered = NULL;

  g_clear_object (&priv->items);
  if (priv->connection != NULL)
    {
      priv->items = PLUGBOARD_LIST_DETAIL_GET_CLASS (self)->dup_items (self, priv->connection);
      filtered = gtk_filter_list_model_new (g_object_ref (priv->items), g_object_ref (GTK_FILTER (priv->filter)));
    }

  gtk_single_selection_set_model (priv->selection, filtered != NULL ? G_LIST_MODEL (filtered) : NULL);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
set_detail (PlugboardListDetail *self,
            GtkWidget           *detail)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  if (priv->detail == detail)
    return;

  if (priv->detail != NULL)
    gtk_stack_remove (priv->detail_stack, priv->detail);
  priv->detail = detail;
  if (detail != NULL)
    gtk_stack_add_named (priv->detail_stack, detail, "detail");
  gtk_stack_set_visible_child_name (priv->detail_stack, priv->selected != NULL ? "detail" : "none");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL]);
}

static void
plugboard_list_detail_constructed (GObject *object)
{
  PlugboardListDetail *self = PLUGBOARD_LIST_DETAIL (object);

  G_OBJECT_CLASS (plugboard_list_detail_parent_class)->constructed (object);

  /* Once the subclass's template is there too. */
  set_items (self);
  update_status (self);
}

static void
plugboard_list_detail_dispose (GObject *object)
{
  PlugboardListDetail *self = PLUGBOARD_LIST_DETAIL (object);
  PlugboardListDetailPrivate *priv = PRIV (self);

  if (priv->connection_signals != NULL)
    g_signal_group_set_target (priv->connection_signals, NULL);
  if (priv->selection != NULL)
    g_signal_handlers_disconnect_by_data (priv->selection, self);
  if (priv->leaflet != NULL)
    g_signal_handlers_disconnect_by_data (priv->leaflet, self);
  if (priv->list_view != NULL)
    gtk_list_view_set_model (priv->list_view, NULL);
  priv->detail = NULL;
  priv->stack = NULL;
  priv->action_button = NULL;
  priv->action_spinner = NULL;
  priv->error_label = NULL;
  /* No gtk_widget_dispose_template (): GTK 4.8's takes the list of
   * children from the instance's class, the subclass's, and asserts that
   * they are this class's. The template's references go with the
   * widget's data at finalize. */

  g_clear_object (&priv->connection_signals);
  g_clear_object (&priv->connection);
  g_clear_object (&priv->selection);
  g_clear_object (&priv->items);
  g_clear_object (&priv->filter);
  g_clear_object (&priv->selected);

  G_OBJECT_CLASS (plugboard_list_detail_parent_class)->dispose (object);
}

static void
plugboard_list_detail_finalize (GObject *object)
{
  PlugboardListDetailPrivate *priv = PRIV (PLUGBOARD_LIST_DETAIL (object));

  g_free (priv->search);
  g_strfreev (priv->texts);

  G_OBJECT_CLASS (plugboard_list_detail_parent_class)->finalize (object);
}

static void
plugboard_list_detail_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardListDetail *self = PLUGBOARD_LIST_DETAIL (object);
  PlugboardListDetailPrivate *priv = PRIV (self);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, priv->connection);
      break;

    case PROP_FOLDED:
      g_value_set_boolean (value, plugboard_list_detail_get_folded (self));
      break;

    case PROP_DETAIL:
      g_value_set_object (value, priv->detail);
      break;

    case PROP_LIST_WIDTH:
      g_value_set_int (value, priv->list_width);
      break;

    default:
      if (prop_id >= PROP_ICON_NAME && prop_id < N_PROPS)
        g_value_set_string (value, TEXT (priv, prop_id));
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_list_detail_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardListDetail *self = PLUGBOARD_LIST_DETAIL (object);
  PlugboardListDetailPrivate *priv = PRIV (self);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      plugboard_list_detail_set_connection (self, g_value_get_object (value));
      break;

    case PROP_DETAIL:
      set_detail (self, g_value_get_object (value));
      break;

    case PROP_LIST_WIDTH:
      if (priv->list_width != g_value_get_int (value))
        {
          priv->list_width = g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      if (prop_id >= PROP_ICON_NAME && prop_id < N_PROPS)
        {
          if (g_strcmp0 (TEXT (priv, prop_id), g_value_get_string (value)) == 0)
            break;
          g_free (TEXT (priv, prop_id));
          TEXT (priv, prop_id) = g_value_dup_string (value);
          /* Not a property the template could bind. */
          if (prop_id == PROP_LIST_LABEL)
            gtk_accessible_update_property (GTK_ACCESSIBLE (priv->list_view),
                                            GTK_ACCESSIBLE_PROPERTY_LABEL, TEXT (priv, prop_id),
                                            -1);
          g_object_notify_by_pspec (object, pspec);
        }
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_list_detail_class_init (PlugboardListDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *text_names[N_TEXTS] = {
    "icon-name", "search-placeholder", "list-label", "no-match-text",
    "unselected-title", "unselected-description", "not-connected-description",
    "empty-title", "unsupported-description", "empty-description",
  };

  object_class->constructed = plugboard_list_detail_constructed;
  object_class->dispose = plugboard_list_detail_dispose;
  object_class->finalize = plugboard_list_detail_finalize;
  object_class->get_property = plugboard_list_detail_get_property;
  object_class->set_property = plugboard_list_detail_set_property;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL,
                         MCP_TYPE_SERVER_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOLDED] =
    g_param_spec_boolean ("folded", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DETAIL] =
    g_param_spec_object ("detail", NULL, NULL,
                         GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LIST_WIDTH] =
    g_param_spec_int ("list-width", NULL, NULL,
                      -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  for (guint i = 0; i < N_TEXTS; i++)
    properties[PROP_ICON_NAME + i] =
      g_param_spec_string (text_names[i], NULL, NULL,
                           NULL,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-list-detail.ui");
  gtk_widget_class_bind_template_child_private (widget_class, PlugboardListDetail, status_page);
  gtk_widget_class_bind_template_child_private (widget_class, PlugboardListDetail, leaflet);
  gtk_widget_class_bind_template_child_private (widget_class, PlugboardListDetail, search_entry);
  gtk_widget_class_bind_template_child_private (widget_class, PlugboardListDetail, list_stack);
  gtk_widget_class_bind_template_child_private (widget_class, PlugboardListDetail, list_view);
  gtk_widget_class_bind_template_child_private (widget_class, PlugboardListDetail, detail_stack);
  plugboard_list_detail_class_init_list (widget_class);
}

static void
plugboard_list_detail_init (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  priv->texts = g_new0 (char *, N_TEXTS + 1);
  priv->list_width = -1;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));
  /* The bin's child, borrowed: AdwBin unparents it. */
  priv->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));

  plugboard_list_detail_init_list (self);
  g_signal_connect_swapped (priv->selection, "items-changed", G_CALLBACK (update_status), self);
  g_signal_connect_object (priv->leaflet, "notify::folded",
                           G_CALLBACK (on_leaflet_folded_cb), self, G_CONNECT_SWAPPED);

  priv->connection_signals = g_signal_group_new (MCP_TYPE_SERVER_CONNECTION);
  g_signal_group_connect_object (priv->connection_signals, "notify::state",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (priv->connection_signals, "notify::client",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

McpServerConnection *
plugboard_list_detail_get_connection (PlugboardListDetail *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), NULL);

  return PRIV (self)->connection;
}

void
plugboard_list_detail_set_connection (PlugboardListDetail *self,
                                      McpServerConnection *connection)
{
  PlugboardListDetailPrivate *priv;

  g_return_if_fail (PLUGBOARD_IS_LIST_DETAIL (self));
  g_return_if_fail (connection == NULL || MCP_IS_SERVER_CONNECTION (connection));

  priv = PRIV (self);
  if (!g_set_object (&priv->connection, connection))
    return;

  g_signal_group_set_target (priv->connection_signals, connection);
  gtk_editable_set_text (GTK_EDITABLE (priv->search_entry), "");
  set_items (self);
  plugboard_list_detail_show_selected (self);
  update_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTION]);
}

GSignalGroup *
plugboard_list_detail_get_connection_signals (PlugboardListDetail *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), NULL);

  return PRIV (self)->connection_signals;
}

McpClient *
plugboard_list_detail_get_client (PlugboardListDetail *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), NULL);

  if (PRIV (self)->connection == NULL)
    return NULL;
  return mcp_server_connection_get_client (PRIV (self)->connection);
}

McpServerInfo *
plugboard_list_detail_get_server_info (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv;
  McpClient *client;

  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), NULL);

  priv = PRIV (self);
  if (priv->connection == NULL ||
      mcp_server_connection_get_state (priv->connection) != MCP_SERVER_STATE_CONNECTED)
    return NULL;

  client = plugboard_list_detail_get_client (self);
  return client != NULL ? mcp_client_get_server_info (client) : NULL;
}

GObject *
plugboard_list_detail_get_selected (PlugboardListDetail *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), NULL);

  return PRIV (self)->selected;
}

gboolean
plugboard_list_detail_get_folded (PlugboardListDetail *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), FALSE);

  return PRIV (self)->leaflet != NULL && adw_leaflet_get_folded (PRIV (self)->leaflet);
}

void
plugboard_list_detail_set_factory (PlugboardListDetail *self,
                                   GtkListItemFactory  *factory)
{
  g_return_if_fail (PLUGBOARD_IS_LIST_DETAIL (self));
  g_return_if_fail (factory == NULL || GTK_IS_LIST_ITEM_FACTORY (factory));

  gtk_list_view_set_factory (PRIV (self)->list_view, factory);
}
