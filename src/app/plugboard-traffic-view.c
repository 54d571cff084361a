/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-traffic-view"

/* PlugboardTrafficView: the object, its modes, the filter and search over
 * the trace (a filter model: the entries are never copied), the selection
 * and following the newest entry. */

#include "config.h"

#include "plugboard-traffic-view-private.h"
#include "plugboard-common.h"

#include <glib/gi18n.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (PlugboardTrafficView, plugboard_traffic_view, ADW_TYPE_BIN)

static gboolean
is_remote (McpTransportKind transport)
{
  return transport != MCP_TRANSPORT_KIND_STDIO;
}

/* ------------------------------------------------------------------------ */
/* The filter                                                               */

gboolean
plugboard_traffic_view_is_folded_response (PlugboardTrafficView *self,
                                           McpTraceEntry        *entry)
{
  McpMessageKind kind;
  guint64 request_seq;

  if (mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_MESSAGE)
    return FALSE;
  kind = mcp_trace_entry_get_message_kind (entry);
  if (kind != MCP_MESSAGE_RESULT && kind != MCP_MESSAGE_ERROR)
    return FALSE;
  request_seq = mcp_trace_entry_get_request_seq (entry);
  return request_seq != 0 && self->trace != NULL && mcp_trace_lookup (self->trace, request_seq) != NULL;
}

McpTraceEntry *
plugboard_traffic_view_dup_response (PlugboardTrafficView *self,
                                     McpTraceEntry        *entry)
{
  guint64 response_seq;
  McpTraceEntry *response;

  if (self->trace == NULL || mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_MESSAGE)
    return NULL;
  response_seq = mcp_trace_entry_get_response_seq (entry);
  if (response_seq == 0)
    return NULL;
  response = mcp_trace_lookup (self->trace, response_seq);
  return response != NULL ? g_object_ref (response) : NULL;
}

static gboolean
in_mode (PlugboardTrafficView *self,
         McpTraceEntry        *entry)
{
  switch (mcp_trace_entry_get_kind (entry))
    {
    case MCP_TRACE_KIND_MESSAGE:
      return self->mode == PLUGBOARD_TRAFFIC_MODE_PROTOCOL &&
             !plugboard_traffic_view_is_folded_response (self, entry);
    case MCP_TRACE_KIND_INVALID:
    case MCP_TRACE_KIND_AUTH:
    case MCP_TRACE_KIND_APP:
      return self->mode == PLUGBOARD_TRAFFIC_MODE_PROTOCOL;
    case MCP_TRACE_KIND_EVENT:
      return self->mode != PLUGBOARD_TRAFFIC_MODE_NETWORK;
    case MCP_TRACE_KIND_HTTP:
    case MCP_TRACE_KIND_SSE:
      return self->mode == PLUGBOARD_TRAFFIC_MODE_NETWORK;
    case MCP_TRACE_KIND_STDERR:
      return self->mode == PLUGBOARD_TRAFFIC_MODE_CONSOLE;
    default:
      return FALSE;
    }
}

static gboolean
is_failure (McpTraceEntry *entry)
{
  McpTraceKind kind = mcp_trace_entry_get_kind (entry);

  return mcp_trace_entry_get_error_class (entry) != MCP_TRACE_ERROR_NONE ||
         kind == MCP_TRACE_KIND_INVALID ||
         (kind == MCP_TRACE_KIND_AUTH && mcp_trace_entry_get_step_status (entry) == MCP_TRACE_STEP_FAILED);
}

/* ASCII case-insensitive: what people search for in JSON-RPC (method
 * names, ids, codes, words) is ASCII, and folding a 256 KiB message for
 * each keystroke would not be cheap. */
static gboolean
contains (const char *haystack,
          const char *needle)
{
  gsize n;

  if (haystack == NULL)
    return FALSE;
  n = strlen (needle);
  for (const char *p = haystack; *p != '\0'; p++)
    if (g_ascii_tolower (*p) == needle[0] && g_ascii_strncasecmp (p, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
entry_matches (McpTraceEntry *entry,
               const char    *needle)
{
  g_autofree char *summary = NULL;

  if (contains (mcp_trace_entry_get_method (entry), needle) ||
      contains (mcp_trace_entry_get_id (entry), needle) ||
      contains (mcp_trace_entry_get_text (entry), needle) ||
      contains (mcp_trace_entry_get_error_text (entry), needle) ||
      contains (mcp_trace_entry_get_url (entry), needle) ||
      contains (mcp_trace_entry_get_request_body (entry), needle) ||
      contains (mcp_trace_entry_get_response_body (entry), needle))
    return TRUE;
  summary = mcp_trace_entry_dup_summary (entry);
  return contains (summary, needle);
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PlugboardTrafficView *self = user_data;
  McpTraceEntry *entry = item;
  g_autoptr(McpTraceEntry) response = NULL;

  if (!in_mode (self, entry))
    return FALSE;

  if (self->direction != 0)
    {
      McpTraceDirection direction = mcp_trace_entry_get_direction (entry);

      if (direction != (self->direction == 1 ? MCP_TRACE_DIRECTION_OUT : MCP_TRACE_DIRECTION_IN))
        return FALSE;
    }

  response = plugboard_traffic_view_dup_response (self, entry);
  if (self->errors_only && !is_failure (entry) && (response == NULL || !is_failure (response)))
    return FALSE;

  if (self->search != NULL &&
      !entry_matches (entry, self->search) &&
      (response == NULL || !entry_matches (response, self->search)))
    return FALSE;

  return TRUE;
}

static void scroll_to_latest (PlugboardTrafficView *self);

/* Other rows: where the person was following, the newest of them shows
 * (the scrolling the new rows cause is not the person's). */
static void
refilter (PlugboardTrafficView *self)
{
  gboolean following = self->following;

  self->scrolling = TRUE;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  self->scrolling = FALSE;
  if (following)
    scroll_to_latest (self);
}

/* ------------------------------------------------------------------------ */
/* Following the newest entry                                               */

static gboolean
at_bottom (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
         >= gtk_adjustment_get_upper (adjustment) - 2.0;
}

static gboolean
scrollable (PlugboardTrafficView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->list_scroller);

  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + 2.0;
}

static void
set_following (PlugboardTrafficView *self,
               gboolean              following)
{
  self->following = following;
  gtk_widget_set_visible (self->jump_button,
                          !following && scrollable (self) &&
                          g_list_model_get_n_items (G_LIST_MODEL (self->rows)) > 0);
}

static void
scroll_to_end (PlugboardTrafficView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->list_scroller);
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (end <= 0.0 || gtk_adjustment_get_value (adjustment) == end)
    return;

  self->scrolling = TRUE;
  gtk_adjustment_set_value (adjustment, end);
  self->scrolling = FALSE;
}

static void
on_value_changed_cb (PlugboardTrafficView *self,
                     GtkAdjustment        *adjustment)
{
  if (!self->scrolling)
    set_following (self, at_bottom (adjustment));
}

static void
on_upper_changed_cb (PlugboardTrafficView *self)
{
  if (self->following)
    scroll_to_end (self);
  else
    set_following (self, FALSE);
}

static void
scroll_to_latest (PlugboardTrafficView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  set_following (self, TRUE);
  self->scrolling = TRUE;
  if (n > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", n - 1);
  self->scrolling = FALSE;
  scroll_to_end (self);
}

static void
jump_to_latest (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  scroll_to_latest (PLUGBOARD_TRAFFIC_VIEW (widget));
}

static void
update_list_stack (PlugboardTrafficView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  if (n == 0)
    {
      gboolean empty_trace = self->trace == NULL || g_list_model_get_n_items (G_LIST_MODEL (self->trace)) == 0;

      gtk_label_set_text (self->empty_label,
                          empty_trace ? _("Nothing went over the wire yet")
                                      : _("No traffic matches the filters"));
    }
  gtk_stack_set_visible_child_name (self->list_stack, n == 0 ? "empty" : "list");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "traffic.clear",
                                 self->trace != NULL && g_list_model_get_n_items (G_LIST_MODEL (self->trace)) > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "traffic.export", n > 0);
  if (n == 0)
    set_following (self, TRUE);
}

static void
on_rows_changed_cb (PlugboardTrafficView *self)
{
  /* The scrolling waits for the new size (notify::upper). */
  update_list_stack (self);
}

/* ------------------------------------------------------------------------ */
/* Selection                                                                */

McpTraceEntry *
plugboard_traffic_view_get_selected (PlugboardTrafficView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), NULL);

  return gtk_single_selection_get_selected_item (self->selection);
}

static void
on_selected_cb (PlugboardTrafficView *self)
{
  McpTraceEntry *entry = gtk_single_selection_get_selected_item (self->selection);

  plugboard_traffic_view_show_detail (self, entry);
  if (entry != NULL && adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child_name (self->leaflet, "detail");
}

static void
on_entry_updated_cb (PlugboardTrafficView *self,
                     McpTraceEntry        *entry)
{
  if (self->shown != NULL && entry == self->shown)
    plugboard_traffic_view_show_detail (self, entry);
}

static void
go_back (GtkWidget  *widget,
         const char *action_name,
         GVariant   *parameter)
{
  PlugboardTrafficView *self = PLUGBOARD_TRAFFIC_VIEW (widget);

  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

gboolean
plugboard_traffic_view_select (PlugboardTrafficView *self,
                               McpTraceEntry        *entry)
{
  GListModel *rows;
  guint n;

  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), FALSE);
  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (entry), FALSE);

  rows = plugboard_traffic_view_get_rows (self);
  n = g_list_model_get_n_items (rows);
  /* From the end: what is looked for is usually recent. */
  for (guint i = n; i > 0; i--)
    {
      g_autoptr(McpTraceEntry) item = g_list_model_get_item (rows, i - 1);

      if (item == entry)
        {
          /* Stay on it as more comes, when there is anywhere to scroll. */
          set_following (self, !scrollable (self));
          gtk_single_selection_set_selected (self->selection, i - 1);
          gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", i - 1);
          return TRUE;
        }
    }

  return FALSE;
}

gboolean
plugboard_traffic_view_show_last_error (PlugboardTrafficView *self)
{
  g_autoptr(McpTraceEntry) failure = NULL;
  guint n;

  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), FALSE);

  if (self->trace == NULL)
    return FALSE;

  n = g_list_model_get_n_items (G_LIST_MODEL (self->trace));
  for (guint i = n; i > 0 && failure == NULL; i--)
    {
      g_autoptr(McpTraceEntry) entry = g_list_model_get_item (G_LIST_MODEL (self->trace), i - 1);

      if (is_failure (entry))
        failure = g_steal_pointer (&entry);
    }
  if (failure == NULL)
    return FALSE;

  /* A response shows as its request's row. */
  if (plugboard_traffic_view_is_folded_response (self, failure))
    g_set_object (&failure, mcp_trace_lookup (self->trace, mcp_trace_entry_get_request_seq (failure)));

  switch (mcp_trace_entry_get_kind (failure))
    {
    case MCP_TRACE_KIND_HTTP:
    case MCP_TRACE_KIND_SSE:
      plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_NETWORK);
      break;
    case MCP_TRACE_KIND_STDERR:
      plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_CONSOLE);
      break;
    default:
      plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
      break;
    }

  /* The filters the person set may hide it: not now. */
  plugboard_traffic_view_set_search (self, NULL);
  gtk_drop_down_set_selected (self->direction_dropdown, 0);
  return plugboard_traffic_view_select (self, failure);
}

/* ------------------------------------------------------------------------ */
/* Mode and filters                                                         */

static void
update_mode_toggles (PlugboardTrafficView *self)
{
  gboolean remote = is_remote (self->transport);

  gtk_widget_set_visible (GTK_WIDGET (self->network_toggle), remote);
  gtk_widget_set_visible (GTK_WIDGET (self->console_toggle), !remote);
  gtk_toggle_button_set_active (self->protocol_toggle, self->mode == PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
  gtk_toggle_button_set_active (self->network_toggle, self->mode == PLUGBOARD_TRAFFIC_MODE_NETWORK);
  gtk_toggle_button_set_active (self->console_toggle, self->mode == PLUGBOARD_TRAFFIC_MODE_CONSOLE);
}

void
plugboard_traffic_view_set_mode (PlugboardTrafficView *self,
                                 PlugboardTrafficMode  mode)
{
  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self));
  g_return_if_fail (mode <= PLUGBOARD_TRAFFIC_MODE_CONSOLE);

  if (self->mode == mode)
    return;

  self->mode = mode;
  update_mode_toggles (self);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  /* Another view of the traffic opens on its newest. */
  self->following = TRUE;
  refilter (self);
}

PlugboardTrafficMode
plugboard_traffic_view_get_mode (PlugboardTrafficView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), PLUGBOARD_TRAFFIC_MODE_PROTOCOL);

  return self->mode;
}

static void
on_mode_toggled_cb (PlugboardTrafficView *self,
                    GtkToggleButton      *toggle)
{
  if (!gtk_toggle_button_get_active (toggle))
    return;

  if (toggle == self->network_toggle)
    plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_NETWORK);
  else if (toggle == self->console_toggle)
    plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_CONSOLE);
  else
    plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
}

void
plugboard_traffic_view_set_search (PlugboardTrafficView *self,
                                   const char           *text)
{
  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text != NULL ? text : "") != 0)
    {
      /* The entry's "search-changed" comes back here. */
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
    }

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && *text != '\0')
    self->search = g_ascii_strdown (text, -1);
  refilter (self);
}

static void
on_search_changed_cb (PlugboardTrafficView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (g_strcmp0 (self->search, text) != 0)
    plugboard_traffic_view_set_search (self, text);
}

void
plugboard_traffic_view_set_errors_only (PlugboardTrafficView *self,
                                        gboolean              errors_only)
{
  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self));

  errors_only = !!errors_only;
  gtk_toggle_button_set_active (self->errors_toggle, errors_only);
  if (self->errors_only == errors_only)
    return;
  self->errors_only = errors_only;
  refilter (self);
}

static void
on_errors_toggled_cb (PlugboardTrafficView *self)
{
  plugboard_traffic_view_set_errors_only (self, gtk_toggle_button_get_active (self->errors_toggle));
}

static void
on_direction_selected_cb (PlugboardTrafficView *self)
{
  guint direction = gtk_drop_down_get_selected (self->direction_dropdown);

  if (direction > 2)
    direction = 0;
  if (self->direction == direction)
    return;
  self->direction = direction;
  refilter (self);
}

GListModel *
plugboard_traffic_view_get_rows (PlugboardTrafficView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), NULL);

  plugboard_traffic_batch_flush (self->batch);
  return G_LIST_MODEL (self->rows);
}

gboolean
plugboard_traffic_view_get_following (PlugboardTrafficView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), FALSE);

  return self->following;
}

/* ------------------------------------------------------------------------ */
/* The trace and the server                                                 */

void
plugboard_traffic_view_set_trace (PlugboardTrafficView *self,
                                  McpTrace             *trace)
{
  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self));
  g_return_if_fail (trace == NULL || MCP_IS_TRACE (trace));

  if (self->trace == trace)
    return;

  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  g_set_object (&self->trace, trace);
  if (trace != NULL)
    g_signal_connect_object (trace, "updated", G_CALLBACK (on_entry_updated_cb), self, G_CONNECT_SWAPPED);

  plugboard_traffic_view_show_detail (self, NULL);
  plugboard_traffic_batch_set_model (self->batch, G_LIST_MODEL (trace));
  set_following (self, TRUE);
  update_list_stack (self);
}

McpTrace *
plugboard_traffic_view_get_trace (PlugboardTrafficView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self), NULL);

  return self->trace;
}

void
plugboard_traffic_view_set_server (PlugboardTrafficView *self,
                                   const char           *name,
                                   McpTransportKind      transport,
                                   const char           *url)
{
  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_VIEW (self));

  if (self->transport == transport && g_strcmp0 (self->server_name, name) == 0 &&
      g_strcmp0 (self->server_url, is_remote (transport) ? url : NULL) == 0)
    return;

  g_free (self->server_name);
  self->server_name = g_strdup (name);
  g_free (self->server_url);
  self->server_url = is_remote (transport) ? g_strdup (url) : NULL;

  self->transport = transport;
  /* A mode the server has no traffic for is not offered. */
  if ((self->mode == PLUGBOARD_TRAFFIC_MODE_NETWORK && !is_remote (transport)) ||
      (self->mode == PLUGBOARD_TRAFFIC_MODE_CONSOLE && is_remote (transport)))
    plugboard_traffic_view_set_mode (self, PLUGBOARD_TRAFFIC_MODE_PROTOCOL);
  update_mode_toggles (self);
  if (self->shown != NULL)
    plugboard_traffic_view_show_detail (self, self->shown);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_traffic_view_dispose (GObject *object)
{
  PlugboardTrafficView *self = (PlugboardTrafficView *)object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  if (self->rows != NULL)
    gtk_filter_list_model_set_filter (self->rows, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_TRAFFIC_VIEW);

  g_clear_object (&self->shown);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->filter);
  g_clear_object (&self->batch);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (plugboard_traffic_view_parent_class)->dispose (object);
}

static void
plugboard_traffic_view_finalize (GObject *object)
{
  PlugboardTrafficView *self = (PlugboardTrafficView *)object;

  g_free (self->server_name);
  g_free (self->server_url);
  g_free (self->search);

  G_OBJECT_CLASS (plugboard_traffic_view_parent_class)->finalize (object);
}

static void
plugboard_traffic_view_class_init (PlugboardTrafficViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_traffic_view_dispose;
  object_class->finalize = plugboard_traffic_view_finalize;

  g_type_ensure (PLUGBOARD_TYPE_JSON_EDITOR);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-traffic-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, protocol_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, network_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, console_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, errors_toggle);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, direction_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, leaflet);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, list_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, list_scroller);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, jump_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, back_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, detail_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, detail_info_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, error_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, detail_error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, request_headers_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, request_headers_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, response_headers_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, response_headers_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, request_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, request_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, request_editor);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, request_text_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, response_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, response_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, response_editor);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, response_text_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardTrafficView, copy_curl_button);
  gtk_widget_class_bind_template_callback (widget_class, on_mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_errors_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_direction_selected_cb);

  gtk_widget_class_install_action (widget_class, "traffic.jump-to-latest", NULL, jump_to_latest);
  gtk_widget_class_install_action (widget_class, "traffic.back", NULL, go_back);

  plugboard_traffic_view_class_init_detail (widget_class);
  plugboard_traffic_view_class_init_export (widget_class);
}

static void
plugboard_traffic_view_init (PlugboardTrafficView *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  GtkAdjustment *adjustment;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));

  self->following = TRUE;
  self->transport = MCP_TRANSPORT_KIND_STDIO;

  self->batch = plugboard_traffic_batch_new (GTK_WIDGET (self));
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->rows = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->batch)),
                                          GTK_FILTER (g_object_ref (self->filter)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (on_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->rows, "items-changed",
                           G_CALLBACK (on_rows_changed_cb), self, G_CONNECT_SWAPPED);

  factory = plugboard_traffic_view_new_row_factory (self);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  adjustment = gtk_scrolled_window_get_vadjustment (self->list_scroller);
  g_signal_connect_object (adjustment, "value-changed",
                           G_CALLBACK (on_value_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "notify::upper",
                           G_CALLBACK (on_upper_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "notify::page-size",
                           G_CALLBACK (on_upper_changed_cb), self, G_CONNECT_SWAPPED);

  update_mode_toggles (self);
  plugboard_traffic_view_show_detail (self, NULL);
  update_list_stack (self);
}

GtkWidget *
plugboard_traffic_view_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TRAFFIC_VIEW, NULL);
}
