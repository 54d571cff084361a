/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-resource-browser"

#include "config.h"

#include "plugboard-resource-browser-private.h"

#include <glib/gi18n.h>

#include "mcp-server-info.h"

/* Subscriptions to resources and the marks of their updates, in the list
 * and in the detail. */

/* The chosen item when it is a resource (a template has no subscription). */
static McpResource *
selected_resource (PlugboardResourceBrowser *self)
{
  GObject *item = plugboard_list_detail_get_selected (PLUGBOARD_LIST_DETAIL (self));

  return item != NULL && MCP_IS_RESOURCE (item) ? MCP_RESOURCE (item) : NULL;
}

static gboolean
can_subscribe (PlugboardResourceBrowser *self)
{
  McpServerInfo *info = plugboard_list_detail_get_server_info (PLUGBOARD_LIST_DETAIL (self));

  return info != NULL && mcp_server_info_has_resources_subscribe (info);
}

char *
plugboard_resource_browser_dup_updated_text (PlugboardResourceBrowser *self,
                                             const char               *uri)
{
  gint64 *when = uri != NULL ? g_hash_table_lookup (self->updated, uri) : NULL;
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *clock = NULL;

  if (when == NULL)
    return NULL;

  time = g_date_time_new_from_unix_local (*when / G_USEC_PER_SEC);
  clock = g_date_time_format (time, "%H:%M:%S");
  /* Translators: the argument is a time of day, "14:03:22". */
  return g_strdup_printf (_("Updated %s"), clock);
}

void
plugboard_resource_browser_refresh_row (PlugboardResourceBrowser *self,
                                        GtkWidget                *row)
{
  McpServerConnection *connection = plugboard_resource_browser_get_connection (self);
  GObject *item = g_object_get_data (G_OBJECT (row), "plugboard-item");
  GtkWidget *dot = g_object_get_data (G_OBJECT (row), "plugboard-dot");
  GtkWidget *updated = g_object_get_data (G_OBJECT (row), "plugboard-updated");
  GtkWidget *bell = g_object_get_data (G_OBJECT (row), "plugboard-bell");
  g_autofree char *text = NULL;
  gboolean subscribed = FALSE;

  if (item == NULL)
    return;

  if (MCP_IS_RESOURCE (item))
    {
      text = plugboard_resource_browser_dup_updated_text (self, plugboard_resource_browser_item_uri (item));
      subscribed = connection != NULL &&
                   mcp_server_connection_is_subscribed (connection, plugboard_resource_browser_item_uri (item));
    }

  gtk_label_set_text (GTK_LABEL (updated), text != NULL ? text : "");
  gtk_widget_set_visible (updated, text != NULL);
  gtk_widget_set_visible (dot, text != NULL);
  gtk_widget_set_visible (bell, subscribed);
}

void
plugboard_resource_browser_refresh_rows (PlugboardResourceBrowser *self,
                                         const char               *uri)
{
  for (guint i = 0; i < self->bound_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->bound_rows, i);
      GObject *item = g_object_get_data (G_OBJECT (row), "plugboard-item");

      if (uri == NULL ||
          (item != NULL && MCP_IS_RESOURCE (item) &&
           g_strcmp0 (plugboard_resource_browser_item_uri (item), uri) == 0))
        plugboard_resource_browser_refresh_row (self, row);
    }
}

void
plugboard_resource_browser_update_subscription (PlugboardResourceBrowser *self)
{
  McpResource *resource = selected_resource (self);
  const char *uri = resource != NULL ? mcp_resource_get_uri (resource) : NULL;
  gboolean busy = self->subscribe_cancellable != NULL;
  g_autofree char *updated = plugboard_resource_browser_dup_updated_text (self, uri);

  gtk_widget_set_visible (self->subscribe_box, resource != NULL);
  if (resource != NULL && !busy)
    {
      self->showing_subscription = TRUE;
      gtk_switch_set_active (self->subscribe_switch,
                             mcp_server_connection_is_subscribed (plugboard_resource_browser_get_connection (self),
                                                                  uri));
      self->showing_subscription = FALSE;
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->subscribe_switch), can_subscribe (self) && !busy);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subscribe_switch),
                               can_subscribe (self)
                                 ? _("Get a notice each time the server says this resource changed")
                                 : _("This server does not offer subscriptions to its resources"));
  gtk_widget_set_visible (GTK_WIDGET (self->subscribe_spinner), busy);
  gtk_spinner_set_spinning (self->subscribe_spinner, busy);

  gtk_label_set_text (self->detail_updated_label, updated != NULL ? updated : "");
  gtk_widget_set_visible (self->detail_updated_box, updated != NULL);
}

static void
subscribed_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PlugboardResourceBrowser) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_subscribe_finish (MCP_SERVER_CONNECTION (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->subscribe_cancellable);
  if (error != NULL)
    {
      /* Translators: the argument is an error message. */
      g_autofree char *message = g_strdup_printf (_("Could not change the subscription: %s"), error->message);

      plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), message);
    }
  plugboard_resource_browser_update_subscription (self);
  plugboard_resource_browser_refresh_rows (self, NULL);
}

void
plugboard_resource_browser_toggle_subscription (PlugboardResourceBrowser *self)
{
  McpServerConnection *connection = plugboard_resource_browser_get_connection (self);
  McpResource *resource = selected_resource (self);
  gboolean active = gtk_switch_get_active (self->subscribe_switch);

  if (self->showing_subscription || connection == NULL || resource == NULL ||
      self->subscribe_cancellable != NULL)
    return;

  plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), NULL);
  self->subscribe_cancellable = g_cancellable_new ();
  plugboard_resource_browser_update_subscription (self);
  mcp_server_connection_subscribe_async (connection, mcp_resource_get_uri (resource), active,
                                         self->subscribe_cancellable,
                                         subscribed_cb, g_object_ref (self));
}

static void
on_resource_updated_cb (PlugboardResourceBrowser *self,
                        const char               *uri)
{
  McpResource *resource = selected_resource (self);
  gint64 *when = g_new (gint64, 1);

  *when = g_get_real_time ();
  g_hash_table_insert (self->updated, g_strdup (uri), when);
  plugboard_resource_browser_refresh_rows (self, uri);
  if (resource != NULL && g_strcmp0 (mcp_resource_get_uri (resource), uri) == 0)
    plugboard_resource_browser_update_subscription (self);
}

/* A new connection's resources have had no update yet. */
static void
on_connection_unbind_cb (PlugboardResourceBrowser *self)
{
  g_hash_table_remove_all (self->updated);
}

void
plugboard_resource_browser_watch_updates (PlugboardResourceBrowser *self)
{
  GSignalGroup *signals = plugboard_list_detail_get_connection_signals (PLUGBOARD_LIST_DETAIL (self));

  g_signal_group_connect_object (signals, "resource-updated",
                                 G_CALLBACK (on_resource_updated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (signals, "unbind", G_CALLBACK (on_connection_unbind_cb), self, G_CONNECT_SWAPPED);
}
