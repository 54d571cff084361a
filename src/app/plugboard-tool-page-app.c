/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: the App view of a tool with an interface (MCP Apps,
 * SEP-1865) beside the tool's form and result. The interface is read from
 * the server (mcp_server_connection_read_ui_resource_async()), shown in a
 * PlugboardAppView through an McpAppBridge, and fed the page's runs: the
 * arguments when a call starts, its CallToolResult when it ends, its
 * cancellation. A bar above it reloads it, asks for fullscreen, shows what
 * the interface declared (Details) and the side panel of what the page
 * did (McpAppNote). */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

#include "mcp-app-note.h"
#include "mcp-project.h"
#include "plugboard-app-view.h"

struct _PlugboardToolPageApp
{
  /* Widgets (owned by the page's widget tree) */
  GtkStack         *view_stack;      /* "tool" | "app" */
  GtkWidget        *result_button;   /* the result's Show Interface */
  GtkWidget        *switcher_bar;
  GtkStack         *state_stack;     /* "loading" | "error" | "view" */
  AdwStatusPage    *error_page;
  GtkLabel         *uri_label;
  GtkWidget        *reload_button;
  GtkWidget        *fullscreen_button;
  GtkMenuButton    *details_button;
  GtkBox           *details_box;
  GtkToggleButton  *notes_toggle;
  AdwFlap          *notes_flap;
  GtkWidget        *frame;
  PlugboardAppView *app_view;
  GtkListView      *notes_list;
  GtkStack         *notes_stack;     /* "empty" | "list" */

  /* Owned references */
  McpUiResource    *resource;
  McpAppBridge     *bridge;
  GCancellable     *cancellable;
  JsonObject       *arguments;       /* the call the view shows, or NULL */
  JsonObject       *result;          /* its CallToolResult, or NULL */
  char             *cancelled;       /* why it was cancelled, or NULL */
  gboolean          loading;
};

/* ------------------------------------------------------------------------ */
/* The side panel                                                           */

static void
setup_note_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *time = gtk_label_new (NULL);
  GtkWidget *text = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "caption");
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text), PANGO_WRAP_WORD_CHAR);
  /* a page may send a lot: the panel shows the start, selectable */
  gtk_label_set_lines (GTK_LABEL (text), 12);
  gtk_label_set_ellipsize (GTK_LABEL (text), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (text), TRUE);
  gtk_box_append (GTK_BOX (head), title);
  gtk_box_append (GTK_BOX (head), time);
  gtk_box_append (GTK_BOX (box), head);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  g_object_set_data (G_OBJECT (box), "title", title);
  g_object_set_data (G_OBJECT (box), "time", time);
  g_object_set_data (G_OBJECT (box), "text", text);
  gtk_list_item_set_child (item, box);
}

static void
bind_note_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  McpAppNote *note = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (mcp_app_note_get_time (note) / G_USEC_PER_SEC);
  g_autofree char *clock = time != NULL ? g_date_time_format (time, "%X") : g_strdup ("");
  GtkWidget *title = g_object_get_data (G_OBJECT (box), "title");

  gtk_label_set_text (GTK_LABEL (title), mcp_app_note_get_title (note));
  if (mcp_app_note_get_kind (note) == MCP_APP_NOTE_BLOCKED)
    gtk_widget_add_css_class (title, "error");
  else
    gtk_widget_remove_css_class (title, "error");
  gtk_label_set_text (g_object_get_data (G_OBJECT (box), "time"), clock);
  gtk_label_set_text (g_object_get_data (G_OBJECT (box), "text"),
                      mcp_app_note_get_text (note) != NULL ? mcp_app_note_get_text (note) : "");
}

static void
update_notes_empty (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  GListModel *notes = app->bridge != NULL ? mcp_app_bridge_get_notes (app->bridge) : NULL;

  gtk_stack_set_visible_child_name (app->notes_stack,
                                    notes != NULL && g_list_model_get_n_items (notes) > 0 ? "list" : "empty");
}

/* ------------------------------------------------------------------------ */
/* Details                                                                  */

static void
add_detail (GtkBox     *box,
            const char *title,
            const char *value,
            gboolean    monospace)
{
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "caption-heading");
  gtk_widget_add_css_class (heading, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  if (monospace)
    gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_top (heading, 6);
  gtk_box_append (box, heading);
  gtk_box_append (box, label);
}

char *
plugboard_tool_page_app_dup_permissions_text (McpUiResource *resource)
{
  McpUiPermissions permissions = mcp_ui_resource_get_permissions (resource);
  g_autoptr(GPtrArray) words = g_ptr_array_new ();

  if (permissions & MCP_UI_PERMISSION_CAMERA)
    g_ptr_array_add (words, _("camera"));
  if (permissions & MCP_UI_PERMISSION_MICROPHONE)
    g_ptr_array_add (words, _("microphone"));
  if (permissions & MCP_UI_PERMISSION_GEOLOCATION)
    g_ptr_array_add (words, _("location"));
  if (permissions & MCP_UI_PERMISSION_CLIPBOARD_WRITE)
    g_ptr_array_add (words, _("writing to the clipboard"));
  if (words->len == 0)
    return g_strdup (_("None"));
  g_ptr_array_add (words, NULL);
  return g_strjoinv (", ", (char **) words->pdata);
}

static void
update_details (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  McpUiResource *resource = app->resource;
  GtkWidget *child;
  g_autofree char *size = NULL;
  g_autofree char *csp = NULL;
  g_autofree char *permissions = NULL;
  g_autofree char *rejected = NULL;
  const char *border;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (app->details_box))) != NULL)
    gtk_box_remove (app->details_box, child);
  gtk_widget_set_sensitive (GTK_WIDGET (app->details_button), resource != NULL);
  if (resource == NULL)
    return;

  size = g_format_size (mcp_ui_resource_get_html_length (resource));
  csp = mcp_ui_resource_build_csp (resource);
  permissions = plugboard_tool_page_app_dup_permissions_text (resource);
  rejected = g_strjoinv ("\n", (char **) mcp_ui_resource_get_rejected_sources (resource));
  switch (mcp_ui_resource_get_border (resource))
    {
    case MCP_UI_BORDER_NONE:
      border = _("No");
      break;
    case MCP_UI_BORDER_VISIBLE:
      border = _("Yes");
      break;
    case MCP_UI_BORDER_UNSET:
    default:
      border = _("Not declared");
      break;
    }

  add_detail (app->details_box, _("Address"), mcp_ui_resource_get_uri (resource), TRUE);
  add_detail (app->details_box, _("Type"), mcp_ui_resource_get_mime_type (resource), TRUE);
  add_detail (app->details_box, _("Size"), size, FALSE);
  add_detail (app->details_box, _("SHA-256"), mcp_ui_resource_get_digest (resource), TRUE);
  add_detail (app->details_box, _("Content Security Policy"), csp, TRUE);
  add_detail (app->details_box, _("Permissions"), permissions, FALSE);
  add_detail (app->details_box, _("Domain (declared, not used)"),
              mcp_ui_resource_get_domain (resource) != NULL ? mcp_ui_resource_get_domain (resource)
                                                            : _("Not declared"),
              mcp_ui_resource_get_domain (resource) != NULL);
  add_detail (app->details_box, _("Prefers a border"), border, FALSE);
  add_detail (app->details_box, _("Sources left out"),
              rejected[0] != '\0' ? rejected : _("None"), rejected[0] != '\0');
}

/* ------------------------------------------------------------------------ */
/* The bridge                                                               */

static void
on_notes_changed_cb (GListModel        *notes,
                     guint              position,
                     guint              removed,
                     guint              added,
                     PlugboardToolPage *self)
{
  if (self->app != NULL)
    update_notes_empty (self);
}

static void
drop_bridge (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;

  if (app->bridge == NULL)
    return;
  g_signal_handlers_disconnect_by_data (mcp_app_bridge_get_notes (app->bridge), self);
  gtk_list_view_set_model (app->notes_list, NULL);
  plugboard_app_view_set_bridge (app->app_view, NULL);
  mcp_app_bridge_close (app->bridge);
  g_clear_object (&app->bridge);
}

/* A new view of the interface, told the call the page shows. */
static void
show_bridge (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  g_autoptr(GtkNoSelection) selection = NULL;
  McpUiBorder border;

  drop_bridge (self);
  if (app->resource == NULL || self->tool == NULL)
    return;

  app->bridge = mcp_app_bridge_new (self->project, self->tool, app->resource);
  if (app->arguments != NULL)
    mcp_app_bridge_set_tool_input (app->bridge, app->arguments, NULL);
  if (app->result != NULL)
    mcp_app_bridge_set_tool_result (app->bridge, app->result);
  else if (app->cancelled != NULL)
    mcp_app_bridge_set_tool_cancelled (app->bridge, app->cancelled);

  selection = gtk_no_selection_new (g_object_ref (mcp_app_bridge_get_notes (app->bridge)));
  gtk_list_view_set_model (app->notes_list, GTK_SELECTION_MODEL (selection));
  g_signal_connect_object (mcp_app_bridge_get_notes (app->bridge), "items-changed",
                           G_CALLBACK (on_notes_changed_cb), self, 0);
  update_notes_empty (self);

  /* prefersBorder: a frame unless the interface says it wants none */
  border = mcp_ui_resource_get_border (app->resource);
  if (border == MCP_UI_BORDER_NONE)
    gtk_widget_remove_css_class (app->frame, "card");
  else
    gtk_widget_add_css_class (app->frame, "card");

  plugboard_app_view_set_bridge (app->app_view, app->bridge);
  gtk_stack_set_visible_child_name (app->state_stack, "view");
}

static void
on_resource_read_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  PlugboardToolPage *self = user_data;
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(GError) error = NULL;
  PlugboardToolPageApp *app;

  resource = mcp_server_connection_read_ui_resource_finish (MCP_SERVER_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  app = self->app;
  app->loading = FALSE;
  gtk_widget_set_sensitive (app->reload_button, TRUE);
  if (resource == NULL)
    {
      adw_status_page_set_description (app->error_page, error->message);
      gtk_stack_set_visible_child_name (app->state_stack, "error");
      update_details (self);
      return;
    }

  g_set_object (&app->resource, resource);
  update_details (self);
  show_bridge (self);
}

static void
load (PlugboardToolPage *self,
      McpUiReadFlags     flags)
{
  PlugboardToolPageApp *app = self->app;
  McpTool *tool = self->tool != NULL ? mcp_pool_tool_get_tool (self->tool) : NULL;
  const char *uri = tool != NULL ? mcp_tool_get_ui_resource_uri (tool) : NULL;
  McpServerConnection *connection = self->tool != NULL ? mcp_pool_tool_get_connection (self->tool) : NULL;

  if (uri == NULL || connection == NULL)
    return;

  g_cancellable_cancel (app->cancellable);
  g_clear_object (&app->cancellable);
  app->cancellable = g_cancellable_new ();
  app->loading = TRUE;
  gtk_widget_set_sensitive (app->reload_button, FALSE);
  gtk_stack_set_visible_child_name (app->state_stack, "loading");
  mcp_server_connection_read_ui_resource_async (connection, uri, flags, app->cancellable,
                                                on_resource_read_cb, self);
}

/* The view shows the call the page shows: read first, once. */
static void
ensure_shown (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;

  if (app->loading)
    return;
  if (app->resource == NULL)
    load (self, MCP_UI_READ_FLAGS_NONE);
  else if (app->bridge == NULL)
    show_bridge (self);
}

static void
clear_call (PlugboardToolPageApp *app)
{
  g_clear_pointer (&app->arguments, json_object_unref);
  g_clear_pointer (&app->result, json_object_unref);
  g_clear_pointer (&app->cancelled, g_free);
}

/* ------------------------------------------------------------------------ */
/* What the parts of the page tell                                          */

gboolean
plugboard_tool_page_app_has_interface (PlugboardToolPage *self)
{
  McpTool *tool = self->tool != NULL ? mcp_pool_tool_get_tool (self->tool) : NULL;

  return tool != NULL && mcp_tool_get_ui_resource_uri (tool) != NULL;
}

void
plugboard_tool_page_app_call_started (PlugboardToolPage *self,
                                      JsonObject        *arguments)
{
  PlugboardToolPageApp *app = self->app;

  if (!plugboard_tool_page_app_has_interface (self))
    return;

  /* One view per call, as a chat host shows one per tool call. */
  clear_call (app);
  app->arguments = json_object_ref (arguments);
  drop_bridge (self);
  ensure_shown (self);
}

void
plugboard_tool_page_app_call_ended (PlugboardToolPage *self,
                                    McpHistoryEntry   *entry,
                                    McpToolResult     *result,
                                    const char        *error_message)
{
  PlugboardToolPageApp *app = self->app;

  if (!plugboard_tool_page_app_has_interface (self))
    return;

  if (app->arguments == NULL)
    return;

  if (result != NULL)
    {
      app->result = json_object_ref (mcp_tool_result_get_json (result));
      if (app->bridge != NULL)
        mcp_app_bridge_set_tool_result (app->bridge, app->result);
    }
  else
    {
      app->cancelled = g_strdup (error_message != NULL ? error_message : _("The call was cancelled."));
      if (app->bridge != NULL)
        mcp_app_bridge_set_tool_cancelled (app->bridge, app->cancelled);
    }
}

void
plugboard_tool_page_show_app (PlugboardToolPage *self,
                              JsonObject        *arguments,
                              JsonObject        *result)
{
  PlugboardToolPageApp *app;

  g_return_if_fail (PLUGBOARD_IS_TOOL_PAGE (self));

  app = self->app;
  if (!plugboard_tool_page_app_has_interface (self))
    return;

  clear_call (app);
  app->arguments = arguments != NULL ? json_object_ref (arguments) : json_object_new ();
  app->result = result != NULL ? json_object_ref (result) : NULL;
  drop_bridge (self);
  gtk_stack_set_visible_child_name (app->view_stack, "app");
  ensure_shown (self);
}

void
plugboard_tool_page_app_update (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  gboolean has = plugboard_tool_page_app_has_interface (self);

  g_cancellable_cancel (app->cancellable);
  g_clear_object (&app->cancellable);
  app->loading = FALSE;
  drop_bridge (self);
  clear_call (app);
  g_clear_object (&app->resource);
  update_details (self);
  gtk_toggle_button_set_active (app->notes_toggle, FALSE);

  gtk_widget_set_visible (app->switcher_bar, has);
  gtk_widget_set_visible (app->result_button, has);
  gtk_stack_set_visible_child_name (app->view_stack, "tool");
  if (has)
    gtk_label_set_text (app->uri_label, mcp_tool_get_ui_resource_uri (mcp_pool_tool_get_tool (self->tool)));
}

PlugboardAppView *
plugboard_tool_page_get_app_view (PlugboardToolPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_PAGE (self), NULL);

  return self->app->app_view;
}

/* ------------------------------------------------------------------------ */
/* Building the view                                                        */

static void
on_view_changed_cb (GtkStack          *stack,
                    GParamSpec        *pspec,
                    PlugboardToolPage *self)
{
  /* "Open App" without a run: the interface with empty input. (Not
   * while the page is disposed: its part is gone first.) */
  if (self->app == NULL || g_strcmp0 (gtk_stack_get_visible_child_name (stack), "app") != 0)
    return;
  if (self->app->arguments == NULL && plugboard_tool_page_app_has_interface (self))
    self->app->arguments = json_object_new ();
  ensure_shown (self);
}

static void
on_reload_clicked_cb (GtkButton         *button,
                      PlugboardToolPage *self)
{
  if (self->app == NULL)
    return;
  drop_bridge (self);
  load (self, MCP_UI_READ_FLAGS_RELOAD);
}

static void
on_fullscreen_clicked_cb (GtkButton         *button,
                          PlugboardToolPage *self)
{
  if (self->app != NULL && self->app->bridge != NULL)
    mcp_app_bridge_set_display_mode (self->app->bridge, "fullscreen");
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static GtkWidget *
build_bar (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);

  app->uri_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (app->uri_label, 0);
  gtk_label_set_ellipsize (app->uri_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (GTK_WIDGET (app->uri_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (app->uri_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (app->uri_label), "monospace");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (app->uri_label));

  app->reload_button = icon_button ("view-refresh-symbolic", _("Reload the interface from the server"));
  g_signal_connect (app->reload_button, "clicked", G_CALLBACK (on_reload_clicked_cb), self);
  gtk_box_append (GTK_BOX (bar), app->reload_button);

  app->fullscreen_button = icon_button ("view-fullscreen-symbolic", _("Show the interface fullscreen"));
  g_signal_connect (app->fullscreen_button, "clicked", G_CALLBACK (on_fullscreen_clicked_cb), self);
  gtk_box_append (GTK_BOX (bar), app->fullscreen_button);

  app->details_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 2));
  gtk_widget_set_margin_start (GTK_WIDGET (app->details_box), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (app->details_box), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (app->details_box), 6);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 480);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (app->details_box));
  gtk_popover_set_child (GTK_POPOVER (popover), scroller);
  app->details_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_icon_name (app->details_button, "dialog-information-symbolic");
  gtk_menu_button_set_popover (app->details_button, popover);
  gtk_widget_set_tooltip_text (GTK_WIDGET (app->details_button),
                               _("Details: what the interface declared, and the security policy it runs under"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (app->details_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Details of the interface"),
                                  -1);
  gtk_widget_add_css_class (GTK_WIDGET (app->details_button), "flat");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (app->details_button));

  app->notes_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new ());
  gtk_button_set_icon_name (GTK_BUTTON (app->notes_toggle), "sidebar-show-right-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (app->notes_toggle),
                               _("Show what the page sent and what was blocked"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (app->notes_toggle),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Side panel"),
                                  -1);
  gtk_widget_add_css_class (GTK_WIDGET (app->notes_toggle), "flat");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (app->notes_toggle));

  return bar;
}

static GtkWidget *
build_notes (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  GtkWidget *panel = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (_("What the Page Did"));
  GtkWidget *empty = gtk_label_new (_("Messages, model context, logs and blocked attempts of the page show here."));
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  gtk_widget_set_size_request (panel, 280, -1);
  gtk_widget_add_css_class (panel, "background");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_margin_start (title, 6);
  gtk_widget_set_margin_top (title, 6);
  gtk_box_append (GTK_BOX (panel), title);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_note_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_note_cb), NULL);
  app->notes_list = GTK_LIST_VIEW (gtk_list_view_new (NULL, factory));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (app->notes_list));

  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_widget_add_css_class (empty, "dim-label");
  gtk_widget_set_margin_start (empty, 12);
  gtk_widget_set_margin_end (empty, 12);
  gtk_widget_set_valign (empty, GTK_ALIGN_CENTER);

  app->notes_stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (app->notes_stack), TRUE);
  gtk_stack_add_named (app->notes_stack, empty, "empty");
  gtk_stack_add_named (app->notes_stack, scroller, "list");
  gtk_box_append (GTK_BOX (panel), GTK_WIDGET (app->notes_stack));
  return panel;
}

static GtkWidget *
build_app_pane (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;
  GtkWidget *pane = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *loading = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *spinner = gtk_spinner_new ();
  GtkWidget *retry = gtk_button_new_with_mnemonic (_("_Retry"));

  gtk_box_append (GTK_BOX (pane), build_bar (self));
  gtk_box_append (GTK_BOX (pane), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));

  gtk_spinner_set_spinning (GTK_SPINNER (spinner), TRUE);
  gtk_widget_set_size_request (spinner, 32, 32);
  gtk_box_append (GTK_BOX (loading), spinner);
  gtk_box_append (GTK_BOX (loading), gtk_label_new (_("Loading the interface…")));
  gtk_widget_set_valign (loading, GTK_ALIGN_CENTER);

  app->error_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (app->error_page, "dialog-error-symbolic");
  adw_status_page_set_title (app->error_page, _("Could Not Load the Interface"));
  gtk_widget_set_halign (retry, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (retry, "pill");
  g_signal_connect (retry, "clicked", G_CALLBACK (on_reload_clicked_cb), self);
  adw_status_page_set_child (app->error_page, retry);

  app->app_view = PLUGBOARD_APP_VIEW (plugboard_app_view_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (app->app_view), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (app->app_view), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (app->app_view), GTK_OVERFLOW_HIDDEN);
  app->frame = adw_bin_new ();
  adw_bin_set_child (ADW_BIN (app->frame), GTK_WIDGET (app->app_view));
  gtk_widget_set_overflow (app->frame, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_margin_start (app->frame, 6);
  gtk_widget_set_margin_end (app->frame, 6);
  gtk_widget_set_margin_top (app->frame, 6);
  gtk_widget_set_margin_bottom (app->frame, 6);

  /* At phone widths the panel folds over the page instead of beside it. */
  app->notes_flap = ADW_FLAP (adw_flap_new ());
  adw_flap_set_flap_position (app->notes_flap, GTK_PACK_END);
  adw_flap_set_reveal_flap (app->notes_flap, FALSE);
  adw_flap_set_swipe_to_open (app->notes_flap, FALSE);
  adw_flap_set_content (app->notes_flap, app->frame);
  adw_flap_set_flap (app->notes_flap, build_notes (self));
  adw_flap_set_separator (app->notes_flap, gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  g_object_bind_property (app->notes_toggle, "active", app->notes_flap, "reveal-flap",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  app->state_stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (app->state_stack), TRUE);
  gtk_stack_add_named (app->state_stack, loading, "loading");
  gtk_stack_add_named (app->state_stack, GTK_WIDGET (app->error_page), "error");
  gtk_stack_add_named (app->state_stack, GTK_WIDGET (app->notes_flap), "view");
  gtk_box_append (GTK_BOX (pane), GTK_WIDGET (app->state_stack));

  return pane;
}

/* Leaving the page closes its interface: the web process ends (the call
 * is kept; coming back to the App view shows it again in a new one). */
static void
on_page_unmap_cb (PlugboardToolPage *self)
{
  if (self->app != NULL)
    drop_bridge (self);
}

static void
on_page_map_cb (PlugboardToolPage *self)
{
  if (self->app != NULL && plugboard_tool_page_app_has_interface (self) &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->app->view_stack), "app") == 0)
    {
      if (self->app->arguments == NULL)
        self->app->arguments = json_object_new ();
      ensure_shown (self);
    }
}

static void
on_result_show_app_cb (PlugboardToolPage *self)
{
  gtk_stack_set_visible_child_name (self->app->view_stack, "app");
}

/* The flap's content becomes a stack: the tool (form, result, history) and
 * the App view, with a switcher above them for a tool with an interface. */
void
plugboard_tool_page_init_app (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = g_new0 (PlugboardToolPageApp, 1);
  g_autoptr(GtkWidget) scroller = g_object_ref (GTK_WIDGET (self->scroller));
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkStackPage *page;

  self->app = app;
  app->view_stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (app->view_stack), TRUE);
  adw_flap_set_content (self->traffic_flap, NULL);
  page = gtk_stack_add_named (app->view_stack, scroller, "tool");
  gtk_stack_page_set_title (page, _("Tool"));
  page = gtk_stack_add_named (app->view_stack, build_app_pane (self), "app");
  gtk_stack_page_set_title (page, _("App"));
  gtk_stack_set_visible_child_name (app->view_stack, "tool");
  g_signal_connect (app->view_stack, "notify::visible-child-name", G_CALLBACK (on_view_changed_cb), self);

  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), app->view_stack);
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  app->switcher_bar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_top (switcher, 6);
  gtk_widget_set_margin_bottom (switcher, 6);
  gtk_box_append (GTK_BOX (app->switcher_bar), switcher);
  gtk_box_append (GTK_BOX (app->switcher_bar), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_widget_set_visible (app->switcher_bar, FALSE);

  gtk_box_append (GTK_BOX (content), app->switcher_bar);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (app->view_stack));
  adw_flap_set_content (self->traffic_flap, content);

  /* A result of a tool with an interface leads to the interface, which
   * has that call's input and result. */
  app->result_button = gtk_button_new_with_mnemonic (_("Show _Interface"));
  gtk_widget_set_valign (app->result_button, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (app->result_button, FALSE);
  g_signal_connect_swapped (app->result_button, "clicked", G_CALLBACK (on_result_show_app_cb), self);
  adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (self->result_group), app->result_button);

  g_signal_connect (self, "unmap", G_CALLBACK (on_page_unmap_cb), NULL);
  g_signal_connect (self, "map", G_CALLBACK (on_page_map_cb), NULL);

  update_details (self);
}

void
plugboard_tool_page_dispose_app (PlugboardToolPage *self)
{
  PlugboardToolPageApp *app = self->app;

  if (app == NULL)
    return;
  g_signal_handlers_disconnect_by_data (app->view_stack, self);
  g_cancellable_cancel (app->cancellable);
  g_clear_object (&app->cancellable);
  drop_bridge (self);
  clear_call (app);
  g_clear_object (&app->resource);
  g_clear_pointer (&self->app, g_free);
}
