/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: the server list — the search, the rows, the selection
 * kept on the same server while the list changes — and showing a server. */

#include "config.h"

#include "plugboard-window-private.h"

#include "plugboard-server-row.h"

static const char *
item_name (GObject *item)
{
  if (MCP_IS_SERVER_CONNECTION (item))
    return mcp_server_connection_get_name (MCP_SERVER_CONNECTION (item));
  if (MCP_IS_SERVER_CONFIG (item))
    return mcp_server_config_get_name (MCP_SERVER_CONFIG (item));
  return NULL;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PlugboardWindow *self = user_data;
  g_autofree char *folded = NULL;
  const char *name;

  if (self->search_text == NULL || self->search_text[0] == '\0')
    return TRUE;

  name = item_name (item);
  if (name == NULL)
    return FALSE;

  folded = g_utf8_casefold (name, -1);
  return strstr (folded, self->search_text) != NULL;
}

static void
on_search_changed_cb (PlugboardWindow *self,
                      GtkSearchEntry  *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->search_text = g_utf8_casefold (text, -1);

  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  gtk_list_item_set_child (list_item, plugboard_server_row_new ());
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  PlugboardWindow *self = user_data;
  PlugboardServerRow *row = PLUGBOARD_SERVER_ROW (gtk_list_item_get_child (list_item));

  plugboard_server_row_set_settings (row, plugboard_window_current_settings (self));
  plugboard_server_row_set_item (row, gtk_list_item_get_item (list_item));
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  PlugboardServerRow *row = PLUGBOARD_SERVER_ROW (gtk_list_item_get_child (list_item));

  plugboard_server_row_set_item (row, NULL);
}

static guint
find_position (PlugboardWindow *self,
               const char      *name)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      /* The effective server, not a shadowed entry of the same name. */
      if (MCP_IS_SERVER_CONNECTION (item) && g_strcmp0 (item_name (item), name) == 0)
        return i;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (item_name (item), name) == 0)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

static void
on_selected_item_cb (PlugboardWindow *self)
{
  GObject *item = gtk_single_selection_get_selected_item (self->selection);

  /* What autoselection picks while the list changes is not the person's
   * choice: the reselection coming up restores theirs. */
  if (item != NULL && self->reselect_id == 0)
    {
      g_free (self->selected_name);
      self->selected_name = g_strdup (item_name (item));
    }

  plugboard_window_update_content (self);
}

/* The manager replaces a connection when its settings change (an edit,
 * enable): keep the same server selected. */
static gboolean
reselect_cb (gpointer user_data)
{
  PlugboardWindow *self = user_data;
  GObject *item = gtk_single_selection_get_selected_item (self->selection);
  guint position;

  self->reselect_id = 0;
  if (self->selected_name != NULL &&
      (item == NULL || g_strcmp0 (item_name (item), self->selected_name) != 0))
    {
      position = find_position (self, self->selected_name);
      if (position != GTK_INVALID_LIST_POSITION)
        gtk_single_selection_set_selected (self->selection, position);
      else if (item != NULL)
        {
          /* the server is gone or hidden: what is selected now stands */
          g_free (self->selected_name);
          self->selected_name = g_strdup (item_name (item));
        }
    }

  plugboard_window_update_content (self);
  return G_SOURCE_REMOVE;
}

static void
on_selection_items_changed_cb (PlugboardWindow *self)
{
  GObject *item = gtk_single_selection_get_selected_item (self->selection);

  if (self->selected_name != NULL &&
      (item == NULL || g_strcmp0 (item_name (item), self->selected_name) != 0))
    {
      if (self->reselect_id == 0)
        self->reselect_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, reselect_cb, self, NULL);
      return;
    }

  plugboard_window_update_content (self);
}

static void
on_server_list_activate_cb (PlugboardWindow *self,
                            guint            position)
{
  plugboard_window_hide_tool (self);
  gtk_single_selection_set_selected (self->selection, position);
  plugboard_window_update_content (self);
  adw_leaflet_set_visible_child (self->leaflet, self->content_box);
}

gboolean
plugboard_window_show_server (PlugboardWindow *self,
                              const char      *name)
{
  guint position;

  g_return_val_if_fail (PLUGBOARD_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  position = find_position (self, name);
  if (position == GTK_INVALID_LIST_POSITION && self->search_text != NULL)
    {
      /* Hidden by the search: clear it. */
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      on_search_changed_cb (self, self->search_entry);
      position = find_position (self, name);
    }

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;

  /* The server's page, even when a tool of that server was showing. */
  plugboard_window_hide_tool (self);
  g_free (self->selected_name);
  self->selected_name = g_strdup (name);
  gtk_single_selection_set_selected (self->selection, position);
  adw_leaflet_set_visible_child (self->leaflet, self->content_box);
  plugboard_window_update_content (self);

  return TRUE;
}

static void
show_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  plugboard_window_show_server (user_data, g_variant_get_string (parameter, NULL));
}

static void
search_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  /* the search of the list that shows: All Tools has its own */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->sidebar_view_stack), "tools") == 0)
    {
      plugboard_tool_list_focus_search (self->all_tool_list);
      return;
    }
  adw_view_stack_set_visible_child_name (self->sidebar_view_stack, "servers");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static const GActionEntry list_actions[] = {
  { "show-server", show_server_action, "s" },
  { "search", search_action },
};

void
plugboard_window_class_list_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_server_list_activate_cb);
}

void
plugboard_window_list_init (PlugboardWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  plugboard_window_add_actions (self, list_actions, G_N_ELEMENTS (list_actions));

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (on_selected_item_cb), self);
  g_signal_connect_swapped (self->selection, "items-changed",
                            G_CALLBACK (on_selection_items_changed_cb), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), self);
  gtk_list_view_set_factory (self->server_list, factory);
  gtk_list_view_set_model (self->server_list, GTK_SELECTION_MODEL (self->selection));
}

gboolean
plugboard_window_show_changes (PlugboardWindow *self,
                               const char      *name)
{
  g_return_val_if_fail (PLUGBOARD_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!plugboard_window_show_server (self, name))
    return FALSE;
  plugboard_server_page_show_changes (self->server_page);
  return TRUE;
}
