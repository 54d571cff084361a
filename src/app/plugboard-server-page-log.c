/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage's log: the view over the connection's log that
 * follows its tail, its styling by kind and level, Copy All, and the log
 * level drop-down beside it. */

#include "config.h"

#include "plugboard-server-page-private.h"

#include <glib/gi18n.h>

#include "mcp-server-info.h"

/* ------------------------------------------------------------------------ */
/* The log level                                                            */

/* Position 0 of the drop-down is "Default": whatever the server sends
 * before anyone set a level. */
static guint
level_position (const char *level)
{
  const char * const *levels = mcp_client_get_log_levels ();

  if (level != NULL)
    for (guint i = 0; levels[i] != NULL; i++)
      if (g_str_equal (levels[i], level))
        return i + 1;

  return 0;
}

static gboolean
is_connected (PlugboardServerPage *self)
{
  return self->connection != NULL &&
         mcp_server_connection_get_state (self->connection) == MCP_SERVER_STATE_CONNECTED;
}

static gboolean
server_has_logging (PlugboardServerPage *self)
{
  McpClient *client;
  McpServerInfo *info;

  if (!is_connected (self))
    return FALSE;

  client = mcp_server_connection_get_client (self->connection);
  info = client != NULL ? mcp_client_get_server_info (client) : NULL;
  return info != NULL && mcp_server_info_has_logging (info);
}

void
plugboard_server_page_show_log_level_error (PlugboardServerPage *self,
                                            const char          *message)
{
  gtk_label_set_text (self->log_level_error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->log_level_error_label), message != NULL);
}

void
plugboard_server_page_update_log_level (PlugboardServerPage *self)
{
  const char *level = self->connection != NULL ? mcp_server_connection_get_log_level (self->connection) : NULL;
  gboolean busy = self->log_level_cancellable != NULL;
  gboolean logging = server_has_logging (self);
  const char *tooltip;

  if (!busy)
    {
      self->showing_level = TRUE;
      gtk_drop_down_set_selected (self->log_level_dropdown, level_position (level));
      self->showing_level = FALSE;
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->log_level_dropdown), logging && !busy);
  gtk_widget_set_visible (GTK_WIDGET (self->log_level_spinner), busy);
  gtk_spinner_set_spinning (self->log_level_spinner, busy);

  if (!is_connected (self))
    tooltip = _("The log level can be chosen once the server is connected");
  else if (!logging)
    tooltip = _("This server does not declare logging, so it takes no log level");
  else
    tooltip = _("The lowest level of log messages the server sends");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->log_level_dropdown), tooltip);
}

static void
log_level_set_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PlugboardServerPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_set_log_level_finish (MCP_SERVER_CONNECTION (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->log_level_cancellable);
  if (error != NULL)
    {
      /* Translators: the argument is the engine's error message. */
      g_autofree char *message = g_strdup_printf (_("Could not set the log level: %s"), error->message);

      plugboard_server_page_show_log_level_error (self, message);
    }
  plugboard_server_page_update_log_level (self);
}

static void
on_log_level_selected_cb (PlugboardServerPage *self)
{
  const char * const *levels = mcp_client_get_log_levels ();
  guint position = gtk_drop_down_get_selected (self->log_level_dropdown);

  if (self->showing_level || self->connection == NULL || self->log_level_cancellable != NULL)
    return;

  if (position == level_position (mcp_server_connection_get_log_level (self->connection)))
    return;

  if (position == 0 || position == GTK_INVALID_LIST_POSITION ||
      position > g_strv_length ((char **) levels))
    {
      /* logging/setLevel has no way to take a level back. */
      plugboard_server_page_show_log_level_error (self, _("A server keeps the last level it was given: "
                                                          "choose another level instead."));
      plugboard_server_page_update_log_level (self);
      return;
    }

  plugboard_server_page_show_log_level_error (self, NULL);
  self->log_level_cancellable = g_cancellable_new ();
  plugboard_server_page_update_log_level (self);
  mcp_server_connection_set_log_level_async (self->connection, levels[position - 1],
                                             self->log_level_cancellable,
                                             log_level_set_cb, g_object_ref (self));
}

static void
setup_log_levels (PlugboardServerPage *self)
{
  const char * const *levels = mcp_client_get_log_levels ();
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

  gtk_string_list_append (list, _("Default"));
  for (guint i = 0; levels[i] != NULL; i++)
    gtk_string_list_append (list, levels[i]);

  gtk_drop_down_set_model (self->log_level_dropdown, G_LIST_MODEL (list));
  g_signal_connect_object (self->log_level_dropdown, "notify::selected",
                           G_CALLBACK (on_log_level_selected_cb), self, G_CONNECT_SWAPPED);
}

/* warning and above stand out; debug recedes. */
static const char *
log_level_class (const char *level)
{
  static const char * const errors[] = { "error", "critical", "alert", "emergency", NULL };

  if (level == NULL)
    return NULL;
  if (g_str_equal (level, "debug"))
    return "plugboard-log-debug";
  if (g_str_equal (level, "warning"))
    return "plugboard-log-warning";
  if (g_strv_contains (errors, level))
    return "plugboard-log-error";
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The log                                                                  */

static gboolean
log_at_bottom (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
         >= gtk_adjustment_get_upper (adjustment) - 2.0;
}

static void
scroll_log_to_end (PlugboardServerPage *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->log_scroller);
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (end <= 0.0 || gtk_adjustment_get_value (adjustment) == end ||
      g_list_model_get_n_items (G_LIST_MODEL (self->log_selection)) == 0)
    return;

  self->scrolling = TRUE;
  gtk_adjustment_set_value (adjustment, end);
  self->scrolling = FALSE;
}

static void
on_log_value_changed_cb (PlugboardServerPage *self,
                         GtkAdjustment       *adjustment)
{
  if (!self->scrolling)
    self->follow_tail = log_at_bottom (adjustment);
}

static void
on_log_upper_changed_cb (PlugboardServerPage *self)
{
  if (self->follow_tail)
    scroll_log_to_end (self);
}

static void
update_log_stack (PlugboardServerPage *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->log_selection)) == 0;

  gtk_stack_set_visible_child_name (self->log_stack, empty ? "empty" : "log");
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), !empty);
}

static void
on_log_items_changed_cb (PlugboardServerPage *self,
                         guint                position,
                         guint                removed,
                         guint                added)
{
  /* The scrolling itself waits for the new size (notify::upper): the
   * adjustment does not know it yet. */
  update_log_stack (self);
}

static void
on_log_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 9);
  GtkWidget *time_label = gtk_label_new (NULL);
  GtkWidget *text_label = gtk_label_new (NULL);

  gtk_widget_add_css_class (time_label, "dim-label");
  gtk_widget_add_css_class (time_label, "monospace");
  gtk_widget_add_css_class (time_label, "plugboard-log-time");
  gtk_widget_set_valign (time_label, GTK_ALIGN_BASELINE);

  gtk_label_set_xalign (GTK_LABEL (text_label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (text_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (text_label, TRUE);
  gtk_widget_set_valign (text_label, GTK_ALIGN_BASELINE);

  gtk_box_append (GTK_BOX (box), time_label);
  gtk_box_append (GTK_BOX (box), text_label);
  gtk_list_item_set_child (item, box);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
}

static void
on_log_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  McpLogEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *time_label = gtk_widget_get_first_child (box);
  GtkWidget *text_label = gtk_widget_get_last_child (box);
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *time_text = NULL;
  McpLogEntryKind kind = mcp_log_entry_get_kind (entry);

  time = g_date_time_new_from_unix_local (mcp_log_entry_get_time (entry) / G_USEC_PER_SEC);
  time_text = time != NULL ? g_date_time_format (time, "%H:%M:%S") : g_strdup ("");
  gtk_label_set_text (GTK_LABEL (time_label), time_text);
  gtk_label_set_text (GTK_LABEL (text_label), mcp_log_entry_get_text (entry));

  if (kind == MCP_LOG_ENTRY_STATE)
    gtk_widget_add_css_class (text_label, "plugboard-log-state");
  else
    gtk_widget_remove_css_class (text_label, "plugboard-log-state");

  if (kind == MCP_LOG_ENTRY_NOTIFICATION)
    gtk_widget_add_css_class (text_label, "plugboard-log-notification");
  else
    gtk_widget_remove_css_class (text_label, "plugboard-log-notification");

  /* Plugboard's own sentences; what the server sent stays monospace. */
  if (kind == MCP_LOG_ENTRY_STATE || kind == MCP_LOG_ENTRY_WARNING)
    gtk_widget_remove_css_class (text_label, "monospace");
  else
    gtk_widget_add_css_class (text_label, "monospace");

  {
    static const char * const level_classes[] = {
      "plugboard-log-debug", "plugboard-log-warning", "plugboard-log-error", NULL
    };
    const char *level_class = kind == MCP_LOG_ENTRY_MESSAGE
      ? log_level_class (mcp_log_entry_get_level (entry))
      : kind == MCP_LOG_ENTRY_WARNING ? "plugboard-log-warning" : NULL;

    for (guint i = 0; level_classes[i] != NULL; i++)
      {
        if (g_strcmp0 (level_classes[i], level_class) == 0)
          gtk_widget_add_css_class (text_label, level_classes[i]);
        else
          gtk_widget_remove_css_class (text_label, level_classes[i]);
      }
  }
}

static void
on_copy_clicked_cb (PlugboardServerPage *self)
{
  GListModel *model = G_LIST_MODEL (self->log_selection);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (model, i);
      g_autofree char *line = mcp_log_entry_format (entry);

      g_string_append (text, line);
      g_string_append_c (text, '\n');
    }

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text->str);
}

void
plugboard_server_page_set_log_model (PlugboardServerPage *self)
{
  GListModel *log = NULL;

  if (self->connection != NULL)
    log = mcp_server_connection_get_log (self->connection);

  if (log == NULL)
    {
      g_autoptr(GListStore) empty = g_list_store_new (MCP_TYPE_LOG_ENTRY);

      gtk_no_selection_set_model (self->log_selection, G_LIST_MODEL (empty));
    }
  else
    {
      gtk_no_selection_set_model (self->log_selection, log);
    }

  /* Another server's log: follow its tail once laid out (the adjustment
   * still has the old log's size now). */
  self->follow_tail = TRUE;
  update_log_stack (self);
}

void
plugboard_server_page_init_log (PlugboardServerPage *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GListStore) empty = NULL;
  GtkAdjustment *adjustment;

  self->follow_tail = TRUE;
  setup_log_levels (self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_log_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (on_log_bind_cb), NULL);
  gtk_list_view_set_factory (self->log_view, factory);

  empty = g_list_store_new (MCP_TYPE_LOG_ENTRY);
  self->log_selection = gtk_no_selection_new (G_LIST_MODEL (g_steal_pointer (&empty)));
  gtk_list_view_set_model (self->log_view, GTK_SELECTION_MODEL (self->log_selection));
  g_signal_connect_object (self->log_selection, "items-changed",
                           G_CALLBACK (on_log_items_changed_cb), self, G_CONNECT_SWAPPED);

  adjustment = gtk_scrolled_window_get_vadjustment (self->log_scroller);
  g_signal_connect_object (adjustment, "value-changed",
                           G_CALLBACK (on_log_value_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "notify::upper",
                           G_CALLBACK (on_log_upper_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "notify::page-size",
                           G_CALLBACK (on_log_upper_changed_cb), self, G_CONNECT_SWAPPED);
}

void
plugboard_server_page_class_init_log (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked_cb);
}
