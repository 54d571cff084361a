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

/* Closures of ui/plugboard-log-row.ui: the time of day, and the text's
 * style by kind and level. */
static char *
log_row_time_text (GtkListItem *item,
                   gint64       time)
{
  g_autoptr(GDateTime) date_time = g_date_time_new_from_unix_local (time / G_USEC_PER_SEC);

  return date_time != NULL ? g_date_time_format (date_time, "%H:%M:%S") : g_strdup ("");
}

static char **
log_row_text_classes (GtkListItem     *item,
                      McpLogEntryKind  kind,
                      const char      *level)
{
  g_autoptr(GStrvBuilder) classes = g_strv_builder_new ();
  const char *level_class = kind == MCP_LOG_ENTRY_MESSAGE ? log_level_class (level)
                            : kind == MCP_LOG_ENTRY_WARNING ? "plugboard-log-warning" : NULL;

  if (kind == MCP_LOG_ENTRY_STATE)
    g_strv_builder_add (classes, "plugboard-log-state");
  if (kind == MCP_LOG_ENTRY_NOTIFICATION)
    g_strv_builder_add (classes, "plugboard-log-notification");
  /* Plugboard's own sentences; what the server sent stays monospace. */
  if (kind != MCP_LOG_ENTRY_STATE && kind != MCP_LOG_ENTRY_WARNING)
    g_strv_builder_add (classes, "monospace");
  if (level_class != NULL)
    g_strv_builder_add (classes, level_class);

  return g_strv_builder_end (classes);
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
  g_autoptr(GtkBuilderScope) scope = NULL;
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GListStore) empty = NULL;
  GtkAdjustment *adjustment;

  self->follow_tail = TRUE;
  setup_log_levels (self);

  scope = gtk_builder_cscope_new ();
  gtk_builder_cscope_add_callback_symbols (GTK_BUILDER_CSCOPE (scope),
                                           "log_row_time_text", G_CALLBACK (log_row_time_text),
                                           "log_row_text_classes", G_CALLBACK (log_row_text_classes),
                                           NULL);
  factory = gtk_builder_list_item_factory_new_from_resource (scope, "/org/plugboard/Plugboard/plugboard-log-row.ui");
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
