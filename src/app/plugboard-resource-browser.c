/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-resource-browser"

#include "config.h"

#include "plugboard-resource-browser.h"
#include "plugboard-resource-browser-private.h"

#include <glib/gi18n.h>

#include "mcp-server-info.h"

G_DEFINE_FINAL_TYPE (PlugboardResourceBrowser, plugboard_resource_browser, PLUGBOARD_TYPE_LIST_DETAIL)

McpServerConnection *
plugboard_resource_browser_get_connection (PlugboardResourceBrowser *self)
{
  return plugboard_list_detail_get_connection (PLUGBOARD_LIST_DETAIL (self));
}

const char *
plugboard_resource_browser_item_uri (GObject *item)
{
  if (MCP_IS_RESOURCE (item))
    return mcp_resource_get_uri (MCP_RESOURCE (item));
  return mcp_resource_template_get_uri_template (MCP_RESOURCE_TEMPLATE (item));
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static GListModel *
plugboard_resource_browser_dup_items (PlugboardListDetail *list,
                                      McpServerConnection *connection)
{
  GListStore *parts = g_list_store_new (G_TYPE_LIST_MODEL);

  g_list_store_append (parts, mcp_server_connection_get_resources (connection));
  g_list_store_append (parts, mcp_server_connection_get_resource_templates (connection));
  return G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (parts)));
}

static gboolean
plugboard_resource_browser_item_matches (PlugboardListDetail *list,
                                         gpointer             item,
                                         const char          *search)
{
  const char *texts[5];

  if (MCP_IS_RESOURCE (item))
    {
      texts[0] = mcp_resource_get_name (item);
      texts[1] = mcp_resource_get_title (item);
      texts[2] = mcp_resource_get_uri (item);
      texts[3] = mcp_resource_get_description (item);
      texts[4] = mcp_resource_get_mime_type (item);
    }
  else
    {
      texts[0] = mcp_resource_template_get_name (item);
      texts[1] = mcp_resource_template_get_title (item);
      texts[2] = mcp_resource_template_get_uri_template (item);
      texts[3] = mcp_resource_template_get_description (item);
      texts[4] = mcp_resource_template_get_mime_type (item);
    }

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    if (plugboard_list_detail_text_matches (texts[i], search))
      return TRUE;
  return FALSE;
}

static void
plugboard_resource_browser_update (PlugboardListDetail *list)
{
  PlugboardResourceBrowser *self = PLUGBOARD_RESOURCE_BROWSER (list);

  plugboard_resource_browser_update_read_button (self);
  plugboard_resource_browser_update_subscription (self);
}

static GtkWidget *
caption_label_new (gboolean monospace)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  /* A long URI must not widen the list. */
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_label_set_width_chars (GTK_LABEL (label), 24);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  if (monospace)
    gtk_widget_add_css_class (label, "monospace");
  return label;
}

static void
on_row_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 9);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *side = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *marks = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *uri = caption_label_new (TRUE);
  GtkWidget *meta = caption_label_new (FALSE);
  GtkWidget *dot = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *bell = gtk_image_new_from_icon_name ("alarm-symbolic");
  GtkWidget *updated = gtk_label_new (NULL);

  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_bottom (row, 6);
  gtk_label_set_xalign (GTK_LABEL (name), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (name), 24);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (text), name);
  gtk_box_append (GTK_BOX (text), uri);
  gtk_box_append (GTK_BOX (text), meta);

  gtk_widget_add_css_class (dot, "plugboard-update-dot");
  gtk_widget_set_valign (dot, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (bell, _("Subscribed to updates"));
  gtk_widget_add_css_class (bell, "dim-label");
  gtk_widget_add_css_class (updated, "caption");
  gtk_widget_set_halign (marks, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (marks), bell);
  gtk_box_append (GTK_BOX (marks), dot);
  gtk_box_append (GTK_BOX (side), marks);
  gtk_box_append (GTK_BOX (side), updated);
  gtk_widget_set_valign (side, GTK_ALIGN_CENTER);

  gtk_box_append (GTK_BOX (row), text);
  gtk_box_append (GTK_BOX (row), side);

  g_object_set_data (G_OBJECT (row), "plugboard-name", name);
  g_object_set_data (G_OBJECT (row), "plugboard-uri", uri);
  g_object_set_data (G_OBJECT (row), "plugboard-meta", meta);
  g_object_set_data (G_OBJECT (row), "plugboard-dot", dot);
  g_object_set_data (G_OBJECT (row), "plugboard-bell", bell);
  g_object_set_data (G_OBJECT (row), "plugboard-updated", updated);
  gtk_list_item_set_child (item, row);
}

static void
on_row_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  PlugboardResourceBrowser *self = user_data;
  GObject *item = gtk_list_item_get_item (list_item);
  GtkWidget *row = gtk_list_item_get_child (list_item);
  GtkLabel *name = g_object_get_data (G_OBJECT (row), "plugboard-name");
  GtkLabel *uri = g_object_get_data (G_OBJECT (row), "plugboard-uri");
  GtkLabel *meta = g_object_get_data (G_OBJECT (row), "plugboard-meta");
  g_autoptr(GString) meta_text = g_string_new (NULL);
  const char *mime_type;

  if (MCP_IS_RESOURCE (item))
    {
      gtk_label_set_text (name, mcp_resource_get_display_name (MCP_RESOURCE (item)));
      mime_type = mcp_resource_get_mime_type (MCP_RESOURCE (item));
    }
  else
    {
      gtk_label_set_text (name, mcp_resource_template_get_display_name (MCP_RESOURCE_TEMPLATE (item)));
      mime_type = mcp_resource_template_get_mime_type (MCP_RESOURCE_TEMPLATE (item));
      g_string_append (meta_text, _("Template"));
    }
  gtk_label_set_text (uri, plugboard_resource_browser_item_uri (item));
  if (mime_type != NULL)
    g_string_append_printf (meta_text, "%s%s", meta_text->len > 0 ? " · " : "", mime_type);
  gtk_label_set_text (meta, meta_text->str);
  gtk_widget_set_visible (GTK_WIDGET (meta), meta_text->len > 0);

  g_object_set_data_full (G_OBJECT (row), "plugboard-item", g_object_ref (item), g_object_unref);
  g_ptr_array_add (self->bound_rows, row);
  plugboard_resource_browser_refresh_row (self, row);
}

static void
on_row_unbind_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  PlugboardResourceBrowser *self = user_data;
  GtkWidget *row = gtk_list_item_get_child (list_item);

  g_ptr_array_remove (self->bound_rows, row);
  g_object_set_data (G_OBJECT (row), "plugboard-item", NULL);
}


/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_resource_browser_dispose (GObject *object)
{
  PlugboardResourceBrowser *self = (PlugboardResourceBrowser *)object;

  g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);
  g_cancellable_cancel (self->subscribe_cancellable);
  g_clear_object (&self->subscribe_cancellable);
  g_ptr_array_set_size (self->variable_entries, 0);
  g_ptr_array_set_size (self->bound_rows, 0);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_RESOURCE_BROWSER);

  G_OBJECT_CLASS (plugboard_resource_browser_parent_class)->dispose (object);
}

static void
plugboard_resource_browser_finalize (GObject *object)
{
  PlugboardResourceBrowser *self = (PlugboardResourceBrowser *)object;

  g_clear_pointer (&self->bound_rows, g_ptr_array_unref);
  g_clear_pointer (&self->variable_entries, g_ptr_array_unref);
  g_clear_pointer (&self->variables, g_strfreev);
  g_clear_pointer (&self->updated, g_hash_table_unref);
  g_free (self->read_uri);

  G_OBJECT_CLASS (plugboard_resource_browser_parent_class)->finalize (object);
}

static void
plugboard_resource_browser_class_init (PlugboardResourceBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  PlugboardListDetailClass *list_class = PLUGBOARD_LIST_DETAIL_CLASS (klass);

  object_class->dispose = plugboard_resource_browser_dispose;
  object_class->finalize = plugboard_resource_browser_finalize;

  list_class->dup_items = plugboard_resource_browser_dup_items;
  list_class->server_offers = mcp_server_info_has_resources;
  list_class->item_matches = plugboard_resource_browser_item_matches;
  list_class->show_item = plugboard_resource_browser_show_item;
  list_class->update = plugboard_resource_browser_update;

  g_type_ensure (PLUGBOARD_TYPE_RESULT_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-resource-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, uri_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, meta_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, detail_updated_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, detail_updated_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, variables_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, variables_grid);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, expanded_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, read_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, read_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, subscribe_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, subscribe_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, subscribe_switch);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, result_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, result_view);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_read_clicked_cb",
                                                G_CALLBACK (plugboard_resource_browser_read));
  gtk_widget_class_bind_template_callback_full (widget_class, "on_subscribe_toggled_cb",
                                                G_CALLBACK (plugboard_resource_browser_toggle_subscription));
}

static void
plugboard_resource_browser_init (PlugboardResourceBrowser *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  self->bound_rows = g_ptr_array_new ();
  self->variable_entries = g_ptr_array_new ();
  self->updated = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_list_detail_set_action (PLUGBOARD_LIST_DETAIL (self), GTK_WIDGET (self->read_button),
                                    self->read_spinner, self->error_label);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_row_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (on_row_unbind_cb), self);
  plugboard_list_detail_set_factory (PLUGBOARD_LIST_DETAIL (self), factory);

  plugboard_resource_browser_watch_updates (self);
}

GtkWidget *
plugboard_resource_browser_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_RESOURCE_BROWSER, NULL);
}

void
plugboard_resource_browser_set_connection (PlugboardResourceBrowser *self,
                                           McpServerConnection      *connection)
{
  g_return_if_fail (PLUGBOARD_IS_RESOURCE_BROWSER (self));
  g_return_if_fail (connection == NULL || MCP_IS_SERVER_CONNECTION (connection));

  plugboard_list_detail_set_connection (PLUGBOARD_LIST_DETAIL (self), connection);
}
