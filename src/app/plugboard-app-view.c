/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-app-view"

#include "config.h"

#include <glib/gi18n.h>

#include "plugboard-app-view-private.h"

enum {
  PROP_0,
  PROP_BRIDGE,
  PROP_WEB_VIEW,
  PROP_LOADED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PlugboardAppView, plugboard_app_view, GTK_TYPE_WIDGET)

gboolean
plugboard_app_view_is_supported (void)
{
  return HAVE_WEBKIT;
}

GtkWidget *
plugboard_app_view_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_APP_VIEW, NULL);
}

McpAppBridge *
plugboard_app_view_get_bridge (PlugboardAppView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_APP_VIEW (self), NULL);

  return self->bridge;
}

GtkWidget *
plugboard_app_view_get_web_view (PlugboardAppView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_APP_VIEW (self), NULL);

#if HAVE_WEBKIT
  return GTK_WIDGET (self->web_view);
#else
  return NULL;
#endif
}

gboolean
plugboard_app_view_get_loaded (PlugboardAppView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_APP_VIEW (self), FALSE);

  return self->loaded;
}

void
plugboard_app_view_set_loaded (PlugboardAppView *self,
                               gboolean          loaded)
{
  g_assert (PLUGBOARD_IS_APP_VIEW (self));

  loaded = !!loaded;
  if (self->loaded == (guint) loaded)
    return;
  self->loaded = loaded;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
}

/* The height the page asked for, within limits; the default until it
 * says. */
static int
wanted_height (PlugboardAppView *self)
{
  int height = -1;

  if (self->bridge != NULL)
    height = mcp_app_bridge_get_content_height (self->bridge);
  if (height < 0)
    height = PLUGBOARD_APP_VIEW_DEFAULT_HEIGHT;
  return CLAMP (height, PLUGBOARD_APP_VIEW_MIN_HEIGHT, PLUGBOARD_APP_VIEW_MAX_HEIGHT);
}

static void
plugboard_app_view_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  PlugboardAppView *self = PLUGBOARD_APP_VIEW (widget);

  *minimum = *natural = 0;
  if (orientation == GTK_ORIENTATION_VERTICAL && self->bridge != NULL)
    *minimum = *natural = wanted_height (self);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min, child_nat;

      /* The web view's own size says nothing: the page's does. */
#if HAVE_WEBKIT
      if (child == GTK_WIDGET (self->web_view) && orientation == GTK_ORIENTATION_VERTICAL)
        continue;
#endif
      gtk_widget_measure (child, orientation, for_size, &child_min, &child_nat, NULL, NULL);
      *minimum = MAX (*minimum, child_min);
      *natural = MAX (*natural, child_nat);
    }
}

static void
plugboard_app_view_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  PlugboardAppView *self = PLUGBOARD_APP_VIEW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_allocate (child, width, height, baseline, NULL);

  if (width != self->container_width)
    {
      self->container_width = width;
      plugboard_app_view_context_size (self, width);
    }
}

static void
content_height_cb (PlugboardAppView *self)
{
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

#if HAVE_WEBKIT

static void
post_cb (PlugboardAppView *self,
         const char       *text)
{
  plugboard_app_view_web_post (self, text);
}

/* Fullscreen: the web view moves into a window of its own and back; the
 * page keeps running, so nothing it holds is lost. */

/* The web view back from the fullscreen window, which goes. */
static void
leave_fullscreen (PlugboardAppView *self)
{
  g_autoptr(GtkWindow) window = g_steal_pointer (&self->fullscreen_window);
  GtkWidget *web_view = GTK_WIDGET (self->web_view);

  if (window == NULL)
    return;

  if (web_view != NULL && gtk_widget_get_parent (web_view) != GTK_WIDGET (self))
    {
      gtk_overlay_set_child (GTK_OVERLAY (gtk_widget_get_parent (web_view)), NULL);
      gtk_widget_set_parent (web_view, GTK_WIDGET (self));
    }
  gtk_window_destroy (window);
}

static void
exit_fullscreen (PlugboardAppView *self)
{
  if (self->fullscreen_window == NULL)
    return;

  leave_fullscreen (self);
  if (self->bridge != NULL)
    mcp_app_bridge_set_display_mode (self->bridge, "inline");
}

static gboolean
fullscreen_close_request_cb (PlugboardAppView *self)
{
  exit_fullscreen (self);
  return TRUE;
}

static gboolean
fullscreen_escape_cb (GtkWidget *widget,
                      GVariant  *args,
                      gpointer   user_data)
{
  exit_fullscreen (PLUGBOARD_APP_VIEW (user_data));
  return TRUE;
}

static void
enter_fullscreen (PlugboardAppView *self)
{
  GtkWidget *overlay, *button;
  GtkEventController *shortcuts;
  GtkRoot *root;

  if (self->fullscreen_window != NULL || self->web_view == NULL)
    return;

  self->fullscreen_window = GTK_WINDOW (gtk_window_new ());
  g_object_ref_sink (self->fullscreen_window);
  gtk_window_set_title (self->fullscreen_window,
                        mcp_pool_tool_get_display_name (mcp_app_bridge_get_tool (self->bridge)));
  root = gtk_widget_get_root (GTK_WIDGET (self));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (self->fullscreen_window, GTK_WINDOW (root));

  overlay = gtk_overlay_new ();
  button = gtk_button_new_from_icon_name ("view-restore-symbolic");
  gtk_widget_set_tooltip_text (button, _("Exit Fullscreen"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Exit Fullscreen"),
                                  -1);
  gtk_widget_add_css_class (button, "osd");
  gtk_widget_add_css_class (button, "circular");
  gtk_widget_set_halign (button, GTK_ALIGN_END);
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_top (button, 12);
  gtk_widget_set_margin_end (button, 12);
  g_signal_connect_object (button, "clicked", G_CALLBACK (exit_fullscreen), self,
                           G_CONNECT_SWAPPED);

  g_object_ref (self->web_view);
  gtk_widget_unparent (GTK_WIDGET (self->web_view));
  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (self->web_view));
  g_object_unref (self->web_view);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), button);
  gtk_window_set_child (self->fullscreen_window, overlay);

  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_callback_action_new (fullscreen_escape_cb, self, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self->fullscreen_window), shortcuts);
  g_signal_connect_object (self->fullscreen_window, "close-request",
                           G_CALLBACK (fullscreen_close_request_cb), self, G_CONNECT_SWAPPED);

  gtk_window_fullscreen (self->fullscreen_window);
  gtk_window_present (self->fullscreen_window);
}

static void
display_mode_cb (PlugboardAppView *self)
{
  if (g_strcmp0 (mcp_app_bridge_get_display_mode (self->bridge), "fullscreen") == 0)
    enter_fullscreen (self);
  else
    exit_fullscreen (self);
}

#endif /* HAVE_WEBKIT */

/* The web view goes: ui/resource-teardown first, and the web view, its
 * context and its session are held by the teardown until the page has
 * answered (or the bridge gave up), so that neither a closing window nor
 * dispose waits for a page. */
static void
stop (PlugboardAppView *self)
{
#if HAVE_WEBKIT
  leave_fullscreen (self);
  plugboard_app_view_web_stop (self);
#endif
  g_signal_group_set_target (self->bridge_signals, NULL);
  g_clear_object (&self->bridge);
  plugboard_app_view_set_loaded (self, FALSE);
}

void
plugboard_app_view_set_bridge (PlugboardAppView *self,
                               McpAppBridge     *bridge)
{
  g_return_if_fail (PLUGBOARD_IS_APP_VIEW (self));
  g_return_if_fail (bridge == NULL || MCP_IS_APP_BRIDGE (bridge));

  if (self->bridge == bridge)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  stop (self);

  if (bridge != NULL)
    {
      self->bridge = g_object_ref (bridge);
      g_signal_group_set_target (self->bridge_signals, bridge);
#if HAVE_WEBKIT
      plugboard_app_view_web_start (self);
      plugboard_app_view_context_start (self);
#endif
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BRIDGE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WEB_VIEW]);
  g_object_thaw_notify (G_OBJECT (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
plugboard_app_view_dispose (GObject *object)
{
  PlugboardAppView *self = PLUGBOARD_APP_VIEW (object);

  stop (self);
  g_clear_pointer (&self->unsupported, gtk_widget_unparent);
  g_clear_object (&self->bridge_signals);

  G_OBJECT_CLASS (plugboard_app_view_parent_class)->dispose (object);
}

static void
plugboard_app_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  PlugboardAppView *self = PLUGBOARD_APP_VIEW (object);

  switch (prop_id)
    {
    case PROP_BRIDGE:
      g_value_set_object (value, self->bridge);
      break;
    case PROP_WEB_VIEW:
      g_value_set_object (value, plugboard_app_view_get_web_view (self));
      break;
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_app_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  PlugboardAppView *self = PLUGBOARD_APP_VIEW (object);

  switch (prop_id)
    {
    case PROP_BRIDGE:
      plugboard_app_view_set_bridge (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_app_view_class_init (PlugboardAppViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_app_view_dispose;
  object_class->get_property = plugboard_app_view_get_property;
  object_class->set_property = plugboard_app_view_set_property;

  widget_class->measure = plugboard_app_view_measure;
  widget_class->size_allocate = plugboard_app_view_size_allocate;

  properties[PROP_BRIDGE] =
    g_param_spec_object ("bridge", NULL, NULL, MCP_TYPE_APP_BRIDGE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WEB_VIEW] =
    g_param_spec_object ("web-view", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "appview");
}

static void
plugboard_app_view_init (PlugboardAppView *self)
{
  self->container_width = -1;
  self->bridge_signals = g_signal_group_new (MCP_TYPE_APP_BRIDGE);
  g_signal_group_connect_object (self->bridge_signals, "notify::content-height",
                                 G_CALLBACK (content_height_cb), self, G_CONNECT_SWAPPED);
#if HAVE_WEBKIT
  g_signal_group_connect_object (self->bridge_signals, "post",
                                 G_CALLBACK (post_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->bridge_signals, "notify::display-mode",
                                 G_CALLBACK (display_mode_cb), self, G_CONNECT_SWAPPED);
#else
  self->unsupported = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->unsupported), "application-x-executable-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->unsupported), _("Interfaces Cannot Be Shown"));
  adw_status_page_set_description (ADW_STATUS_PAGE (self->unsupported),
                                   _("This build of Plugboard has no web engine (it was built without WebKitGTK). "
                                     "Save the interface with “plugboard-cli app NAME --save DIR” to open it elsewhere."));
  gtk_widget_set_parent (self->unsupported, GTK_WIDGET (self));
#endif
}
