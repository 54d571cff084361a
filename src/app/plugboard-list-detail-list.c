/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-list-detail"

#include "config.h"

#include "plugboard-list-detail-private.h"

#include <string.h>

/* The list, its search, and the list and detail pages: which shows, and
 * what is chosen. */

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

gboolean
plugboard_list_detail_text_matches (const char *text,
                                    const char *folded_search)
{
  g_autofree char *folded = NULL;

  g_return_val_if_fail (folded_search != NULL, FALSE);

  if (text == NULL)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  return strstr (folded, folded_search) != NULL;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PlugboardListDetail *self = user_data;
  PlugboardListDetailPrivate *priv = PRIV (self);

  if (priv->search == NULL || *priv->search == '\0')
    return TRUE;

  return PLUGBOARD_LIST_DETAIL_GET_CLASS (self)->item_matches (self, item, priv->search);
}

static void
on_search_changed_cb (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (priv->search_entry));

  g_free (priv->search);
  priv->search = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (priv->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* ------------------------------------------------------------------------ */
/* The pages                                                                */

/* Folded, the list and the detail are one page each. */
static void
show_detail_page (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  if (adw_leaflet_get_folded (priv->leaflet))
    adw_leaflet_set_visible_child_name (priv->leaflet, "detail");
}

/* Folded back at the list, nothing stays chosen (so that choosing the same
 * item opens it again); folding with an item chosen shows that item. */
static void
on_leaflet_changed_cb (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  if (!adw_leaflet_get_folded (priv->leaflet))
    return;

  if (g_strcmp0 (adw_leaflet_get_visible_child_name (priv->leaflet), "list") == 0)
    {
      if (priv->folding && priv->selected != NULL)
        adw_leaflet_set_visible_child_name (priv->leaflet, "detail");
      else
        gtk_single_selection_set_selected (priv->selection, GTK_INVALID_LIST_POSITION);
    }
}

static void
on_leaflet_folded_cb (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  priv->folding = TRUE;
  on_leaflet_changed_cb (self);
  priv->folding = FALSE;
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  adw_leaflet_navigate (PRIV (PLUGBOARD_LIST_DETAIL (widget))->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

void
plugboard_list_detail_show_selected (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);
  GObject *item = gtk_single_selection_get_selected_item (priv->selection);

  if (item == priv->selected)
    return;

  g_set_object (&priv->selected, item);
  PLUGBOARD_LIST_DETAIL_GET_CLASS (self)->show_item (self, item);
  gtk_stack_set_visible_child_name (priv->detail_stack, item != NULL ? "detail" : "none");
  if (item != NULL)
    show_detail_page (self);
}

void
plugboard_list_detail_init_list (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv = PRIV (self);

  priv->filter = gtk_custom_filter_new (filter_func, self, NULL);

  priv->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (priv->selection, FALSE);
  gtk_single_selection_set_can_unselect (priv->selection, TRUE);
  g_signal_connect_swapped (priv->selection, "notify::selected-item",
                            G_CALLBACK (plugboard_list_detail_show_selected), self);
  g_signal_connect_swapped (priv->list_view, "activate", G_CALLBACK (show_detail_page), self);
  g_signal_connect_object (priv->leaflet, "notify::visible-child",
                           G_CALLBACK (on_leaflet_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (priv->leaflet, "notify::folded",
                           G_CALLBACK (on_leaflet_folded_cb), self, G_CONNECT_SWAPPED);
  gtk_list_view_set_model (priv->list_view, GTK_SELECTION_MODEL (priv->selection));
}

void
plugboard_list_detail_class_init_list (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_install_action (widget_class, "list-detail.back", NULL, back_action);
}
