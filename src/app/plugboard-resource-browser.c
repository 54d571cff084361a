/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-resource-browser"

#include "config.h"

#include "plugboard-resource-browser.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-server-info.h"
#include "mcp-tool-call.h"
#include "mcp-uri-template.h"
#include "plugboard-common.h"
#include "plugboard-result-view.h"

/* The wait before asking the server for completions, so that a word typed
 * quickly makes one request rather than one a letter. */
#define COMPLETION_DELAY_MS 200

struct _PlugboardResourceBrowser
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkStack            *stack;
  AdwStatusPage       *status_page;
  GtkSearchEntry      *search_entry;
  AdwLeaflet          *leaflet;
  GtkStack            *list_stack;
  GtkListView         *list_view;
  GtkStack            *detail_stack;
  GtkLabel            *title_label;
  GtkLabel            *uri_label;
  GtkLabel            *meta_label;
  GtkWidget           *detail_updated_box;
  GtkLabel            *detail_updated_label;
  GtkLabel            *description_label;
  GtkWidget           *variables_box;
  GtkGrid             *variables_grid;
  GtkLabel            *expanded_label;
  GtkButton           *read_button;
  GtkSpinner          *read_spinner;
  GtkWidget           *subscribe_box;
  GtkSpinner          *subscribe_spinner;
  GtkSwitch           *subscribe_switch;
  GtkLabel            *error_label;
  GtkStack            *result_stack;
  PlugboardResultView *result_view;

  /* Borrowed: the rows bound now (GtkListView recycles them). */
  GPtrArray           *bound_rows;
  /* Borrowed: the variables' entries, in the template's order. */
  GPtrArray           *variable_entries;

  /* Owned references */
  McpServerConnection *connection;
  GSignalGroup        *connection_signals;
  GtkCustomFilter     *filter;
  GtkSingleSelection  *selection;
  GObject             *selected;  /* McpResource or McpResourceTemplate */
  GStrv                variables;
  /* uri → the wall-clock time (µs, gint64 *) of its last update */
  GHashTable          *updated;
  GCancellable        *read_cancellable;
  GCancellable        *subscribe_cancellable;
  char                *search;
  /* Set while the leaflet folds (rather than the person going back). */
  gboolean             folding;
  char                *read_uri;

  /* Set while the browser itself moves the subscribe switch. */
  gboolean             showing_subscription;
};

G_DEFINE_FINAL_TYPE (PlugboardResourceBrowser, plugboard_resource_browser, ADW_TYPE_BIN)

/* ------------------------------------------------------------------------ */
/* Completion                                                               */

typedef struct
{
  GtkWidget                      *editable;  /* the owner, a GtkEditable */
  McpServerConnection            *connection;
  McpCompletionRef                kind;
  char                           *ref;
  char                           *argument;
  PlugboardCompletionContextFunc  context_func;
  gpointer                        context_data;
  guint                           timeout_id;
  guint                           focus_idle_id;
  GCancellable                   *cancellable;
  GtkWidget                      *popover;
  GtkListBox                     *list;
  gboolean                        setting;
} Completion;

static void
completion_free (gpointer data)
{
  Completion *completion = data;

  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  g_clear_handle_id (&completion->focus_idle_id, g_source_remove);
  g_cancellable_cancel (completion->cancellable);
  g_clear_object (&completion->cancellable);
  g_clear_object (&completion->connection);
  g_free (completion->ref);
  g_free (completion->argument);
  g_free (completion);
}

/* The keyboard is in @widget or in one of its children (a GtkEntry's or an
 * AdwEntryRow's is its GtkText). */
static gboolean
has_focus_within (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
completion_popdown (Completion *completion)
{
  if (completion->popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (completion->popover));
}

static void
on_suggestion_activated_cb (GtkListBox    *list,
                            GtkListBoxRow *row,
                            gpointer       user_data)
{
  Completion *completion = user_data;
  const char *value = g_object_get_data (G_OBJECT (row), "plugboard-value");

  completion->setting = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (completion->editable), value);
  gtk_editable_set_position (GTK_EDITABLE (completion->editable), -1);
  completion->setting = FALSE;
  completion_popdown (completion);
  gtk_widget_grab_focus (completion->editable);
}

static gboolean
on_popover_key_pressed_cb (GtkEventControllerKey *controller,
                           guint                  keyval,
                           guint                  keycode,
                           GdkModifierType        state,
                           gpointer               user_data)
{
  Completion *completion = user_data;

  if (keyval == GDK_KEY_Escape)
    {
      completion_popdown (completion);
      gtk_widget_grab_focus (completion->editable);
      return GDK_EVENT_STOP;
    }

  return GDK_EVENT_PROPAGATE;
}

static void
completion_ensure_popover (Completion *completion)
{
  GtkWidget *scroller;
  GtkEventController *keys;

  if (completion->popover != NULL)
    return;

  completion->popover = gtk_popover_new ();
  /* what tells it from the popovers of the editable's own buttons */
  gtk_widget_add_css_class (completion->popover, "plugboard-completion");
  /* The editable keeps the keyboard while the person types. */
  gtk_popover_set_autohide (GTK_POPOVER (completion->popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (completion->popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (completion->popover), GTK_POS_BOTTOM);
  gtk_widget_set_halign (completion->popover, GTK_ALIGN_START);

  completion->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (completion->list, GTK_SELECTION_BROWSE);
  gtk_widget_add_css_class (GTK_WIDGET (completion->list), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (completion->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Suggestions"),
                                  -1);
  g_signal_connect (completion->list, "row-activated",
                    G_CALLBACK (on_suggestion_activated_cb), completion);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* as wide as the suggestions (the scroller's own width is the least the
   * list needs: every suggestion cut to "…") */
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 240);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (completion->list));
  gtk_popover_set_child (GTK_POPOVER (completion->popover), scroller);

  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_popover_key_pressed_cb), completion);
  gtk_widget_add_controller (completion->popover, keys);

  gtk_widget_set_parent (completion->popover, completion->editable);
}

static void
completion_show (Completion *completion,
                 GStrv       values,
                 gboolean    has_more)
{
  GtkWidget *child;

  if (values == NULL || values[0] == NULL)
    {
      completion_popdown (completion);
      return;
    }

  completion_ensure_popover (completion);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (completion->list))) != NULL)
    gtk_list_box_remove (completion->list, child);

  for (guint i = 0; values[i] != NULL; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (values[i]);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data_full (G_OBJECT (row), "plugboard-value", g_strdup (values[i]), g_free);
      gtk_list_box_append (completion->list, row);
    }

  if (has_more)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (_("More on the server: type more to narrow"));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_widget_set_focusable (row, FALSE);
      gtk_list_box_append (completion->list, row);
    }

  gtk_popover_popup (GTK_POPOVER (completion->popover));
}

static void
completion_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Completion *completion;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  gboolean has_more = FALSE;

  values = mcp_client_complete_finish (MCP_CLIENT (object), result, &has_more, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  completion = user_data;
  g_clear_object (&completion->cancellable);
  if (error != NULL)
    {
      /* Suggestions are a help, not the task: the entry still works. */
      g_debug ("No completions for %s: %s", completion->argument, error->message);
      completion_popdown (completion);
      return;
    }

  /* Suggestions for the editable the person is in, not for one a program
   * filled in. */
  if (!gtk_widget_get_mapped (completion->editable) ||
      !has_focus_within (completion->editable))
    return;
  completion_show (completion, values, has_more);
}

static gboolean
completion_timeout_cb (gpointer user_data)
{
  Completion *completion = user_data;
  McpClient *client = mcp_server_connection_get_client (completion->connection);
  g_autoptr(JsonObject) context = NULL;

  completion->timeout_id = 0;
  if (client == NULL)
    return G_SOURCE_REMOVE;

  if (completion->context_func != NULL)
    context = completion->context_func (completion->editable, completion->context_data);

  g_cancellable_cancel (completion->cancellable);
  g_clear_object (&completion->cancellable);
  completion->cancellable = g_cancellable_new ();
  mcp_client_complete_async (client, completion->kind, completion->ref, completion->argument,
                             gtk_editable_get_text (GTK_EDITABLE (completion->editable)),
                             context, completion->cancellable, completion_done_cb, completion);

  return G_SOURCE_REMOVE;
}

static void
on_completion_changed_cb (GtkEditable *editable,
                          gpointer     user_data)
{
  Completion *completion = user_data;

  if (completion->setting)
    return;

  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  completion->timeout_id = g_timeout_add (COMPLETION_DELAY_MS, completion_timeout_cb, completion);
}

static gboolean
on_editable_key_pressed_cb (GtkEventControllerKey *controller,
                            guint                  keyval,
                            guint                  keycode,
                            GdkModifierType        state,
                            gpointer               user_data)
{
  Completion *completion = user_data;
  GtkListBoxRow *first;

  if (completion->popover == NULL || !gtk_widget_get_visible (completion->popover))
    return GDK_EVENT_PROPAGATE;

  if (keyval == GDK_KEY_Escape)
    {
      completion_popdown (completion);
      return GDK_EVENT_STOP;
    }

  if (keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down)
    {
      first = gtk_list_box_get_row_at_index (completion->list, 0);
      if (first != NULL)
        {
          gtk_list_box_select_row (completion->list, first);
          gtk_widget_grab_focus (GTK_WIDGET (first));
          return GDK_EVENT_STOP;
        }
    }

  return GDK_EVENT_PROPAGATE;
}

static gboolean
focus_left_cb (gpointer user_data)
{
  Completion *completion = user_data;

  completion->focus_idle_id = 0;
  if (completion->popover == NULL ||
      has_focus_within (completion->editable) ||
      has_focus_within (completion->popover))
    return G_SOURCE_REMOVE;

  completion_popdown (completion);
  return G_SOURCE_REMOVE;
}

static void
on_editable_focus_leave_cb (GtkEventControllerFocus *controller,
                            gpointer                 user_data)
{
  Completion *completion = user_data;

  /* Once the focus has landed: in the suggestions, they stay. */
  if (completion->focus_idle_id == 0)
    completion->focus_idle_id = g_idle_add (focus_left_cb, completion);
}

static void
on_editable_destroy_cb (GtkWidget *editable,
                        gpointer   user_data)
{
  Completion *completion = user_data;

  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  g_clear_handle_id (&completion->focus_idle_id, g_source_remove);
  g_cancellable_cancel (completion->cancellable);
  if (completion->popover != NULL)
    {
      gtk_widget_unparent (completion->popover);
      completion->popover = NULL;
      completion->list = NULL;
    }
}

void
plugboard_completion_attach (GtkWidget                      *editable,
                             McpServerConnection            *connection,
                             McpCompletionRef                kind,
                             const char                     *ref,
                             const char                     *argument,
                             PlugboardCompletionContextFunc  context_func,
                             gpointer                        user_data)
{
  Completion *completion;
  GtkEventController *keys;
  GtkEventController *focus;

  g_return_if_fail (GTK_IS_EDITABLE (editable));
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (connection));
  g_return_if_fail (ref != NULL && argument != NULL);

  completion = g_new0 (Completion, 1);
  completion->editable = editable;
  completion->connection = g_object_ref (connection);
  completion->kind = kind;
  completion->ref = g_strdup (ref);
  completion->argument = g_strdup (argument);
  completion->context_func = context_func;
  completion->context_data = user_data;
  g_object_set_data_full (G_OBJECT (editable), "plugboard-completion", completion, completion_free);

  g_signal_connect (editable, "changed", G_CALLBACK (on_completion_changed_cb), completion);
  g_signal_connect (editable, "destroy", G_CALLBACK (on_editable_destroy_cb), completion);
  g_signal_connect_swapped (editable, "unmap", G_CALLBACK (completion_popdown), completion);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_editable_key_pressed_cb), completion);
  gtk_widget_add_controller (editable, keys);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_editable_focus_leave_cb), completion);
  gtk_widget_add_controller (editable, focus);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static McpServerInfo *
server_info (PlugboardResourceBrowser *self)
{
  McpClient *client;

  if (self->connection == NULL ||
      mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_CONNECTED)
    return NULL;

  client = mcp_server_connection_get_client (self->connection);
  return client != NULL ? mcp_client_get_server_info (client) : NULL;
}

static gboolean
can_subscribe (PlugboardResourceBrowser *self)
{
  McpServerInfo *info = server_info (self);

  return info != NULL && mcp_server_info_has_resources_subscribe (info);
}

static char *
dup_updated_text (PlugboardResourceBrowser *self,
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

static const char *
item_uri (GObject *item)
{
  if (MCP_IS_RESOURCE (item))
    return mcp_resource_get_uri (MCP_RESOURCE (item));
  return mcp_resource_template_get_uri_template (MCP_RESOURCE_TEMPLATE (item));
}

static void
show_error (PlugboardResourceBrowser *self,
            const char               *message)
{
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static gboolean
text_matches (const char *text,
              const char *folded_search)
{
  g_autofree char *folded = NULL;

  if (text == NULL)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  return strstr (folded, folded_search) != NULL;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PlugboardResourceBrowser *self = user_data;

  if (self->search == NULL || *self->search == '\0')
    return TRUE;

  if (MCP_IS_RESOURCE (item))
    {
      McpResource *resource = item;

      return text_matches (mcp_resource_get_name (resource), self->search) ||
             text_matches (mcp_resource_get_title (resource), self->search) ||
             text_matches (mcp_resource_get_uri (resource), self->search) ||
             text_matches (mcp_resource_get_description (resource), self->search) ||
             text_matches (mcp_resource_get_mime_type (resource), self->search);
    }
  else
    {
      McpResourceTemplate *template = item;

      return text_matches (mcp_resource_template_get_name (template), self->search) ||
             text_matches (mcp_resource_template_get_title (template), self->search) ||
             text_matches (mcp_resource_template_get_uri_template (template), self->search) ||
             text_matches (mcp_resource_template_get_description (template), self->search) ||
             text_matches (mcp_resource_template_get_mime_type (template), self->search);
    }
}

static void
on_search_changed_cb (PlugboardResourceBrowser *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->search);
  self->search = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
row_refresh (PlugboardResourceBrowser *self,
             GtkWidget                *row)
{
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
      text = dup_updated_text (self, item_uri (item));
      subscribed = self->connection != NULL &&
                   mcp_server_connection_is_subscribed (self->connection, item_uri (item));
    }

  gtk_label_set_text (GTK_LABEL (updated), text != NULL ? text : "");
  gtk_widget_set_visible (updated, text != NULL);
  gtk_widget_set_visible (dot, text != NULL);
  gtk_widget_set_visible (bell, subscribed);
}

static void
refresh_rows (PlugboardResourceBrowser *self,
              const char               *uri)
{
  for (guint i = 0; i < self->bound_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->bound_rows, i);
      GObject *item = g_object_get_data (G_OBJECT (row), "plugboard-item");

      if (uri == NULL || (item != NULL && MCP_IS_RESOURCE (item) && g_strcmp0 (item_uri (item), uri) == 0))
        row_refresh (self, row);
    }
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
  gtk_label_set_text (uri, item_uri (item));
  if (mime_type != NULL)
    g_string_append_printf (meta_text, "%s%s", meta_text->len > 0 ? " · " : "", mime_type);
  gtk_label_set_text (meta, meta_text->str);
  gtk_widget_set_visible (GTK_WIDGET (meta), meta_text->len > 0);

  g_object_set_data_full (G_OBJECT (row), "plugboard-item", g_object_ref (item), g_object_unref);
  g_ptr_array_add (self->bound_rows, row);
  row_refresh (self, row);
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

/* When folded, the list and the detail are one page each. */
static void
on_back_clicked_cb (PlugboardResourceBrowser *self)
{
  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
on_leaflet_changed_cb (PlugboardResourceBrowser *self)
{
  plugboard_list_detail_sync (self->leaflet, self->selection, self->folding,
                              self->selected != NULL);
}

static void
on_leaflet_folded_cb (PlugboardResourceBrowser *self)
{
  self->folding = TRUE;
  on_leaflet_changed_cb (self);
  self->folding = FALSE;
}

static void
show_detail_page (PlugboardResourceBrowser *self)
{
  plugboard_list_detail_show_detail (self->leaflet);
}

/* ------------------------------------------------------------------------ */
/* The selected resource or template                                        */

static GHashTable *
variable_values (PlugboardResourceBrowser *self,
                 GtkWidget                *except)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < self->variable_entries->len; i++)
    {
      GtkWidget *entry = g_ptr_array_index (self->variable_entries, i);

      if (entry != except)
        g_hash_table_insert (values, self->variables[i],
                             g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
    }

  return values;
}

static JsonObject *
completion_context_cb (GtkWidget *editable,
                       gpointer   user_data)
{
  PlugboardResourceBrowser *self = user_data;
  g_autoptr(GHashTable) values = variable_values (self, editable);
  JsonObject *context = json_object_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(const char *) value != '\0')
      json_object_set_string_member (context, key, value);

  return context;
}

/* The URI Read reads: the resource's, or the template expanded. */
static char *
dup_read_uri (PlugboardResourceBrowser *self)
{
  g_autoptr(GHashTable) values = NULL;

  if (self->selected == NULL)
    return NULL;
  if (MCP_IS_RESOURCE (self->selected))
    return g_strdup (item_uri (self->selected));

  values = variable_values (self, NULL);
  return mcp_uri_template_expand (item_uri (self->selected), values);
}

static void
update_read_button (PlugboardResourceBrowser *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  gboolean reading = self->read_cancellable != NULL;
  gboolean connected = server_info (self) != NULL;
  const char *tooltip = NULL;
  g_autofree char *missing_tooltip = NULL;

  for (guint i = 0; i < self->variable_entries->len; i++)
    {
      GtkEntry *entry = g_ptr_array_index (self->variable_entries, i);

      if (*gtk_editable_get_text (GTK_EDITABLE (entry)) == '\0')
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", self->variables[i]);
    }

  if (self->selected != NULL && MCP_IS_RESOURCE_TEMPLATE (self->selected))
    {
      g_autofree char *uri = dup_read_uri (self);

      gtk_label_set_text (self->expanded_label, uri);
    }

  if (!connected)
    tooltip = _("The server is not connected");
  else if (missing->len > 0)
    /* Translators: the argument lists the template's empty variables. */
    tooltip = missing_tooltip = g_strdup_printf (_("Fill in %s first"), missing->str);

  gtk_widget_set_sensitive (GTK_WIDGET (self->read_button), !reading && connected && missing->len == 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->read_button), tooltip);
  gtk_widget_set_visible (GTK_WIDGET (self->read_spinner), reading);
  gtk_spinner_set_spinning (self->read_spinner, reading);
}

static void
update_subscription (PlugboardResourceBrowser *self)
{
  gboolean busy = self->subscribe_cancellable != NULL;
  gboolean is_resource = self->selected != NULL && MCP_IS_RESOURCE (self->selected);
  g_autofree char *updated = is_resource ? dup_updated_text (self, item_uri (self->selected)) : NULL;

  gtk_widget_set_visible (self->subscribe_box, is_resource);
  if (is_resource && !busy)
    {
      self->showing_subscription = TRUE;
      gtk_switch_set_active (self->subscribe_switch,
                             mcp_server_connection_is_subscribed (self->connection, item_uri (self->selected)));
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
on_variable_changed_cb (PlugboardResourceBrowser *self)
{
  update_read_button (self);
}

static void
on_variable_activate_cb (PlugboardResourceBrowser *self)
{
  if (gtk_widget_is_sensitive (GTK_WIDGET (self->read_button)))
    gtk_widget_activate (GTK_WIDGET (self->read_button));
}

static void
clear_variables (PlugboardResourceBrowser *self)
{
  GtkWidget *child;

  g_ptr_array_set_size (self->variable_entries, 0);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->variables_grid))) != NULL)
    gtk_grid_remove (self->variables_grid, child);
  g_clear_pointer (&self->variables, g_strfreev);
}

static void
build_variables (PlugboardResourceBrowser *self,
                 McpResourceTemplate      *template)
{
  self->variables = mcp_uri_template_dup_variables (mcp_resource_template_get_uri_template (template));

  for (guint i = 0; self->variables[i] != NULL; i++)
    {
      g_autofree char *mnemonic = g_strdup_printf ("_%s", self->variables[i]);
      GtkWidget *label = gtk_label_new_with_mnemonic (mnemonic);
      GtkWidget *entry = gtk_entry_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_grid_attach (self->variables_grid, label, 0, i, 1, 1);
      gtk_grid_attach (self->variables_grid, entry, 1, i, 1, 1);
      g_ptr_array_add (self->variable_entries, entry);

      g_signal_connect_object (entry, "changed", G_CALLBACK (on_variable_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (entry, "activate", G_CALLBACK (on_variable_activate_cb), self, G_CONNECT_SWAPPED);
      if (self->connection != NULL)
        plugboard_completion_attach (entry, self->connection, MCP_COMPLETION_RESOURCE,
                                     mcp_resource_template_get_uri_template (template),
                                     self->variables[i], completion_context_cb, self);
    }
}

static void
show_selected (PlugboardResourceBrowser *self)
{
  GObject *item = gtk_single_selection_get_selected_item (self->selection);
  const char *description;
  const char *mime_type;
  g_autoptr(GString) meta = g_string_new (NULL);

  if (item == self->selected)
    return;

  g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);
  g_cancellable_cancel (self->subscribe_cancellable);
  g_clear_object (&self->subscribe_cancellable);
  g_set_object (&self->selected, item);
  clear_variables (self);
  show_error (self, NULL);
  plugboard_result_view_clear (self->result_view);
  gtk_stack_set_visible_child_name (self->result_stack, "empty");

  if (item == NULL)
    {
      gtk_stack_set_visible_child_name (self->detail_stack, "none");
      return;
    }

  if (MCP_IS_RESOURCE (item))
    {
      McpResource *resource = MCP_RESOURCE (item);
      gint64 size = mcp_resource_get_size (resource);

      gtk_label_set_text (self->title_label, mcp_resource_get_display_name (resource));
      description = mcp_resource_get_description (resource);
      mime_type = mcp_resource_get_mime_type (resource);
      if (mime_type != NULL)
        g_string_append (meta, mime_type);
      if (size >= 0)
        {
          g_autofree char *formatted = g_format_size (size);

          g_string_append_printf (meta, "%s%s", meta->len > 0 ? " · " : "", formatted);
        }
    }
  else
    {
      McpResourceTemplate *template = MCP_RESOURCE_TEMPLATE (item);

      gtk_label_set_text (self->title_label, mcp_resource_template_get_display_name (template));
      description = mcp_resource_template_get_description (template);
      mime_type = mcp_resource_template_get_mime_type (template);
      g_string_append (meta, _("Template"));
      if (mime_type != NULL)
        g_string_append_printf (meta, " · %s", mime_type);
      build_variables (self, template);
    }

  gtk_label_set_text (self->uri_label, item_uri (item));
  gtk_label_set_text (self->meta_label, meta->str);
  gtk_widget_set_visible (GTK_WIDGET (self->meta_label), meta->len > 0);
  gtk_label_set_text (self->description_label, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL && *description != '\0');
  gtk_widget_set_visible (self->variables_box, MCP_IS_RESOURCE_TEMPLATE (item));

  update_read_button (self);
  update_subscription (self);
  gtk_stack_set_visible_child_name (self->detail_stack, "detail");
  show_detail_page (self);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

static void
processed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PlugboardResourceBrowser) self = user_data;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  processed = mcp_tool_result_process_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->read_cancellable);
  if (processed == NULL)
    {
      /* Translators: the argument is an error message. */
      g_autofree char *message = g_strdup_printf (_("Could not show the contents: %s"), error->message);

      show_error (self, message);
    }
  else
    {
      plugboard_result_view_set_result (self->result_view, NULL, NULL, processed);
      gtk_stack_set_visible_child_name (self->result_stack, "result");
    }
  update_read_button (self);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PlugboardResourceBrowser) self = user_data;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) json = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autofree char *name = NULL;
  JsonArray *array;
  const char *uri = self->read_uri;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (contents == NULL)
    {
      g_autofree char *message = NULL;

      g_clear_object (&self->read_cancellable);
      /* Translators: the first argument is a URI, the second an error message. */
      message = g_strdup_printf (_("Could not read %s: %s"), uri != NULL ? uri : "", error->message);
      show_error (self, message);
      update_read_button (self);
      return;
    }

  /* Shown like a tool's result, so that blobs are saved to files and
   * images scaled the same way. */
  json = json_object_new ();
  array = json_array_new ();
  for (guint i = 0; i < contents->len; i++)
    json_array_add_object_element (array, json_object_ref (mcp_content_get_json (g_ptr_array_index (contents, i))));
  json_object_set_array_member (json, "content", array);
  tool_result = mcp_tool_result_new_from_json (json, &error);
  if (tool_result == NULL)
    {
      g_clear_object (&self->read_cancellable);
      show_error (self, error->message);
      update_read_button (self);
      return;
    }

  name = g_strdup_printf ("%s-resource", mcp_server_connection_get_name (self->connection));
  mcp_tool_result_process_async (tool_result, name, NULL,
                                 self->connection != NULL ? mcp_server_connection_get_max_output_characters (self->connection) : 0,
                                 self->read_cancellable,
                                 processed_cb, g_object_ref (self));
}

void
plugboard_completion_dismiss (GtkWidget *editable)
{
  Completion *completion;

  g_return_if_fail (GTK_IS_EDITABLE (editable));

  completion = g_object_get_data (G_OBJECT (editable), "plugboard-completion");
  if (completion == NULL)
    return;
  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  g_cancellable_cancel (completion->cancellable);
  completion_popdown (completion);
}

static void
on_read_clicked_cb (PlugboardResourceBrowser *self)
{
  McpClient *client = self->connection != NULL ? mcp_server_connection_get_client (self->connection) : NULL;
  g_autofree char *uri = dup_read_uri (self);

  if (uri == NULL || self->read_cancellable != NULL)
    return;

  if (client == NULL)
    {
      show_error (self, _("The server is not connected: reconnect it and read again."));
      return;
    }

  show_error (self, NULL);
  /* the suggestions stayed open over the result */
  for (guint i = 0; self->variable_entries != NULL && i < self->variable_entries->len; i++)
    plugboard_completion_dismiss (g_ptr_array_index (self->variable_entries, i));
  self->read_cancellable = g_cancellable_new ();
  g_free (self->read_uri);
  self->read_uri = g_steal_pointer (&uri);
  update_read_button (self);
  mcp_client_read_resource_async (client, self->read_uri, self->read_cancellable,
                                  read_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* Subscriptions                                                            */

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

      show_error (self, message);
    }
  update_subscription (self);
  refresh_rows (self, NULL);
}

static void
on_subscribe_toggled_cb (PlugboardResourceBrowser *self)
{
  gboolean active = gtk_switch_get_active (self->subscribe_switch);

  if (self->showing_subscription || self->connection == NULL ||
      self->selected == NULL || !MCP_IS_RESOURCE (self->selected) ||
      self->subscribe_cancellable != NULL)
    return;

  show_error (self, NULL);
  self->subscribe_cancellable = g_cancellable_new ();
  update_subscription (self);
  mcp_server_connection_subscribe_async (self->connection, item_uri (self->selected), active,
                                         self->subscribe_cancellable,
                                         subscribed_cb, g_object_ref (self));
}

static void
on_resource_updated_cb (PlugboardResourceBrowser *self,
                        const char               *uri)
{
  gint64 *when = g_new (gint64, 1);

  *when = g_get_real_time ();
  g_hash_table_insert (self->updated, g_strdup (uri), when);
  refresh_rows (self, uri);
  if (self->selected != NULL && MCP_IS_RESOURCE (self->selected) &&
      g_strcmp0 (item_uri (self->selected), uri) == 0)
    update_subscription (self);
}

/* ------------------------------------------------------------------------ */
/* The state                                                                */

static void
update_status (PlugboardResourceBrowser *self)
{
  McpServerInfo *info = server_info (self);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint n_all = 0;

  if (self->connection != NULL)
    n_all = g_list_model_get_n_items (mcp_server_connection_get_resources (self->connection)) +
            g_list_model_get_n_items (mcp_server_connection_get_resource_templates (self->connection));

  if (self->connection == NULL)
    {
      adw_status_page_set_title (self->status_page, _("No Server"));
      adw_status_page_set_description (self->status_page, NULL);
    }
  else if (info == NULL)
    {
      adw_status_page_set_title (self->status_page, _("Not Connected"));
      adw_status_page_set_description (self->status_page,
                                       _("The server’s resources are listed once it is connected."));
    }
  else if (!mcp_server_info_has_resources (info))
    {
      adw_status_page_set_title (self->status_page, _("No Resources"));
      adw_status_page_set_description (self->status_page, _("This server offers no resources."));
    }
  else if (n_all == 0)
    {
      adw_status_page_set_title (self->status_page, _("No Resources"));
      adw_status_page_set_description (self->status_page,
                                       _("This server offers resources but lists none at the moment."));
    }

  gtk_stack_set_visible_child_name (self->stack, info != NULL && n_all > 0 ? "browser" : "status");
  gtk_stack_set_visible_child_name (self->list_stack, n_items > 0 ? "list" : "no-match");
  update_read_button (self);
  update_subscription (self);
}

static void
set_models (PlugboardResourceBrowser *self)
{
  g_autoptr(GListStore) parts = g_list_store_new (G_TYPE_LIST_MODEL);
  g_autoptr(GtkFlattenListModel) flat = NULL;

  if (self->connection != NULL)
    {
      GListModel *models[] = {
        mcp_server_connection_get_resources (self->connection),
        mcp_server_connection_get_resource_templates (self->connection),
      };

      for (guint i = 0; i < G_N_ELEMENTS (models); i++)
        {
          g_autoptr(GtkFilterListModel) filtered =
            gtk_filter_list_model_new (g_object_ref (models[i]), g_object_ref (GTK_FILTER (self->filter)));

          g_list_store_append (parts, filtered);
        }
    }

  flat = gtk_flatten_list_model_new (G_LIST_MODEL (g_steal_pointer (&parts)));
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (flat));
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
  if (self->connection_signals != NULL)
    g_signal_group_set_target (self->connection_signals, NULL);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  if (self->variable_entries != NULL)
    g_ptr_array_set_size (self->variable_entries, 0);
  if (self->bound_rows != NULL)
    g_ptr_array_set_size (self->bound_rows, 0);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_RESOURCE_BROWSER);
  self->stack = NULL;

  g_clear_object (&self->connection_signals);
  g_clear_object (&self->connection);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->selected);

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
  g_free (self->search);
  g_free (self->read_uri);

  G_OBJECT_CLASS (plugboard_resource_browser_parent_class)->finalize (object);
}

static void
plugboard_resource_browser_class_init (PlugboardResourceBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_resource_browser_dispose;
  object_class->finalize = plugboard_resource_browser_finalize;

  g_type_ensure (PLUGBOARD_TYPE_RESULT_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-resource-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, status_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, leaflet);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, list_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResourceBrowser, detail_stack);
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
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_read_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_subscribe_toggled_cb);
}

static void
plugboard_resource_browser_init (PlugboardResourceBrowser *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));
  /* The bin's child, borrowed: a bound template child would be unparented
   * twice, by the template's disposal and by AdwBin's. */
  self->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));

  self->bound_rows = g_ptr_array_new ();
  self->variable_entries = g_ptr_array_new ();
  self->updated = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (show_selected), self);
  g_signal_connect_swapped (self->list_view, "activate", G_CALLBACK (show_detail_page), self);
  g_signal_connect_object (self->leaflet, "notify::visible-child",
                           G_CALLBACK (on_leaflet_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->leaflet, "notify::folded",
                           G_CALLBACK (on_leaflet_folded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->selection, "items-changed", G_CALLBACK (update_status), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_row_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (on_row_unbind_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  self->connection_signals = g_signal_group_new (MCP_TYPE_SERVER_CONNECTION);
  g_signal_group_connect_object (self->connection_signals, "notify::state",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::client",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "resource-updated",
                                 G_CALLBACK (on_resource_updated_cb), self, G_CONNECT_SWAPPED);

  set_models (self);
  update_status (self);
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

  if (!g_set_object (&self->connection, connection))
    return;

  g_hash_table_remove_all (self->updated);
  g_signal_group_set_target (self->connection_signals, connection);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  set_models (self);
  show_selected (self);
  update_status (self);
}
